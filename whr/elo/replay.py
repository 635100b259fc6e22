"""Replaying a whole history of rated games under the Elo-era rules.

Two rule sets (see ``docs/elo.md`` for how the rule texts were read):

- ``"1996"`` (RIF qualification system 1996 and the General Assembly 1996 decisions): per-tournament contributions
  ``F = round(32 (Et - Ee))`` summed and added to the official ratings on the list dates
  April 30, August 31 and December 31; new players get a start rating from their performance in
  their first tournament (rule 8), kept inside the rule-8b interval; rule 8c (no start rating
  after scoring 0) only for tournaments that ended in 1996 or later.
- ``"1997"`` (RIF General Assembly 1997, rules 3 and 5-9, with the Japanese explanation): ratings change after every tournament,
  in order of end date; only games between established players change an established rating
  (per game ``32 (W - We)``, summed over the tournament and rounded); provisional ratings come
  from games against established players in the cumulative form of the Japanese explanation, at most the
  opponents' average + 300; a player is established after a tournament that brings them to at
  least 10 games and 3 points against established players. Games against provisional players
  count for nobody.
- ``"era"``: the history as it was, the 1996 rules for tournaments that ended before 1997, then
  the 1997 rules, the players on the list of December 31, 1996 being the established ones.

Both need someone rated to start from. ``initial`` gives the official ratings before the first
game (e.g. a published list). The rules themselves never rate a group of players who have not
met a rated player; so that a history can start from nothing, a tournament in which no player
has any rating yet (the first one of the history, the first one of a community that never met
the rated players) gives all its players ``seed_rating`` as an established (``"1997"``) or
official (``"1996"``) rating. ``seed_rating=None`` turns this off (the rules strictly).

The work is one pass over the tournaments with numpy arrays indexed by player number; a history
of 120 000 games in 4 000 tournaments replays in well under a few seconds.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd

from whr.elo.formulas import (
    ESTABLISHED_GAMES,
    ESTABLISHED_POINTS,
    K_FACTOR,
    contribution,
    expected_score,
    provisional_rating,
    round_half_away,
    start_rating,
)
from whr.tables import as_date, dates_of, days_of

__all__ = [
    "LIST_COLUMNS",
    "RULES",
    "Prepared",
    "prepare",
    "rating_history",
    "ratings_before",
    "replay",
    "usable",
]

RULES = ("1997", "1996", "era")
#: ``rules="era"``: the 1996 rules for tournaments that ended before this day (the last list under
#: them is December 31, 1996), the 1997 rules from then on (GA 1997; its exact date is not in
#: the rule texts)
ERA_CHANGEOVER = dt.date(1997, 1, 1)
SEED_RATING = 2200.0  #: default rating of the first tournament's players when no list is given
RULE_8C_FROM = dt.date(1996, 1, 1)  #: GA 1996 decision 3: rule 8c only from 1996 on
NEW_PLAYER_GAMES = 3  #: rule 8a: games a new player needs for a start rating
#: Minimum thinking time per player, minutes (1996 rules section 2; GA 1996 decision 3 before 1996)
MINUTES_1996, MINUTES_BEFORE_1996 = 60.0, 45.0

LIST_COLUMNS = (
    "player",
    "rating",
    "status",
    "games",
    "wins",
    "draws",
    "losses",
    "first_game",
    "last_game",
    "counted_games",
    "counted_points",
)
_EPOCH = np.datetime64("1970-01-01", "D")


def _day(d: dt.date) -> int:
    return int((np.datetime64(d, "D") - _EPOCH).astype(np.int64))


def usable(games: pd.DataFrame) -> np.ndarray:
    """Which games a rating system can use: both players, a result, a date, two players.

    Parameters
    ----------
    games : pandas.DataFrame
        The shared games table; needs ``black``, ``white``, ``result`` and ``date``.

    Returns
    -------
    numpy.ndarray
        A new writable boolean array, one entry per row of ``games``.

    Raises
    ------
    ValueError
        If one of the four columns is missing, naming it.
    """
    missing = [c for c in ("black", "white", "result", "date") if c not in games.columns]
    if missing:
        raise ValueError(f"games is missing columns {missing}; needs black, white, result, date")
    return (
        games["black"].notna()
        & games["white"].notna()
        & games["result"].notna()
        & games["date"].notna()
        & (games["black"].astype(object) != games["white"].astype(object))
    ).to_numpy(dtype=bool, copy=True)


@dataclass(frozen=True)
class Prepared:
    """A games table reduced to arrays, games ordered by tournament processing order.

    Attributes
    ----------
    players : numpy.ndarray of object
        Player ids; the codes below index it.
    black, white : numpy.ndarray of int64
        Player codes per game.
    result : numpy.ndarray of float64
        Black's score per game.
    day : numpy.ndarray of int64
        Game date, days since 1970-01-01.
    game_index : numpy.ndarray of int64
        Row position of each game in the table given to :func:`prepare`.
    bounds : numpy.ndarray of int64
        Games of tournament ``t`` (in processing order) are ``bounds[t]:bounds[t + 1]``.
    start, end : numpy.ndarray of int64
        First and last game day of each tournament, days since 1970-01-01; ``end`` is sorted.
    """

    players: np.ndarray
    black: np.ndarray
    white: np.ndarray
    result: np.ndarray
    day: np.ndarray
    game_index: np.ndarray
    bounds: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @property
    def n_tournaments(self) -> int:
        return self.bounds.size - 1


def _minutes_ok(
    games: pd.DataFrame, tournaments: pd.DataFrame, until: dt.date | None = None
) -> np.ndarray:
    """Games whose tournament meets the 1996 rules' minimum thinking time (unknown passes;
    games dated on or after ``until`` pass)."""
    t = tournaments[["tournament_id", "minutes"]].drop_duplicates("tournament_id")
    merged = games[["tournament_id"]].merge(t, on="tournament_id", how="left")
    minutes = merged["minutes"].to_numpy(dtype=np.float64, na_value=np.nan)
    days = days_of(games["date"])
    need = np.where(days < np.datetime64(RULE_8C_FROM, "D"), MINUTES_BEFORE_1996, MINUTES_1996)
    ok: np.ndarray = np.isnan(minutes) | (minutes >= need)
    if until is not None:
        ok |= days >= np.datetime64(until, "D")
    return ok


def prepare(
    games: pd.DataFrame,
    as_of: dt.date | None = None,
    tournaments: pd.DataFrame | None = None,
    minutes_until: dt.date | None = None,
) -> Prepared:
    """Reduce a games table to the arrays a replay needs.

    Games with a missing player, result or date, or where a player meets themself, are left out
    (eligibility, ``whr.select``, is where such games get an exclusion record). Games are
    grouped by ``tournament_id`` (a game without one is its own tournament); a tournament ends
    on its last game date; tournaments are processed by end date, then id. Tournaments ending
    after ``as_of`` are left out whole.

    Parameters
    ----------
    games : pandas.DataFrame
        The shared games table (``whr.tables.GAMES``); needs ``black``, ``white``, ``result``,
        ``date`` and ``tournament_id`` (``game_id`` is used for games without a tournament).
    as_of : datetime.date, optional
        Last day of the replay.
    tournaments : pandas.DataFrame, optional
        The shared tournaments table; when given, its ``minutes`` drop tournaments below the
        1996 rules' minimum (60 minutes, 45 before 1996; unknown minutes pass).
    minutes_until : datetime.date, optional
        The minimum applies only to games dated before this day.

    Returns
    -------
    Prepared
    """
    if not isinstance(games, pd.DataFrame):
        raise TypeError(f"games must be a pandas DataFrame, got {type(games).__name__}")
    ok = usable(games)
    if as_of is not None:
        as_date(as_of, "as_of")
    if tournaments is not None:
        ok = ok & _minutes_ok(games, tournaments, minutes_until)
    rows = np.flatnonzero(ok)
    g = games.iloc[rows]
    day = (days_of(g["date"]) - _EPOCH).astype(np.int64)
    if "tournament_id" in g.columns:
        tid = g["tournament_id"].astype(object).to_numpy()
    else:
        tid = np.full(len(g), None, dtype=object)
    lone = pd.isna(tid)
    if lone.any():
        ids = g["game_id"].astype(str).to_numpy() if "game_id" in g.columns else rows.astype(str)
        tid = tid.copy()
        tid[lone] = np.char.add("\x00game:", ids[lone].astype(str))
    tcode, tnames = pd.factorize(pd.Series(tid, dtype=object), sort=False)
    n_t = tnames.size
    t_end = np.full(n_t, np.iinfo(np.int64).min, dtype=np.int64)
    np.maximum.at(t_end, tcode, day)
    t_start = np.full(n_t, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(t_start, tcode, day)
    keep_t = np.ones(n_t, dtype=bool) if as_of is None else t_end <= _day(as_of)
    # processing order: end date, then tournament id (as a string)
    order_t = np.lexsort((np.asarray(tnames.astype(str)), t_end))
    order_t = order_t[keep_t[order_t]]
    rank = np.full(n_t, -1, dtype=np.int64)
    rank[order_t] = np.arange(order_t.size)
    grank = rank[tcode]
    kept = np.flatnonzero(grank >= 0)
    order_g = kept[np.lexsort((day[kept], grank[kept]))]
    grank = grank[order_g]
    bounds = np.searchsorted(grank, np.arange(order_t.size + 1), side="left").astype(np.int64)
    black = g["black"].astype(object).to_numpy()[order_g]
    white = g["white"].astype(object).to_numpy()[order_g]
    codes, players = pd.factorize(np.concatenate([black, white]), sort=True)
    n = order_g.size
    return Prepared(
        players=np.asarray(players, dtype=object),
        black=codes[:n].astype(np.int64),
        white=codes[n:].astype(np.int64),
        result=g["result"].to_numpy(dtype=np.float64)[order_g],
        day=day[order_g],
        game_index=rows[order_g],
        bounds=bounds,
        start=t_start[order_t],
        end=t_end[order_t],
    )


def _local(black: np.ndarray, white: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Players of a tournament and each game's local positions of black and white."""
    who, inv = np.unique(np.concatenate([black, white]), return_inverse=True)
    return who, inv[: black.size], inv[black.size :]


def _sum(index: np.ndarray, values: np.ndarray | float, size: int) -> np.ndarray:
    return np.bincount(index, weights=np.broadcast_to(values, index.shape), minlength=size)


def _check_seed(seed_rating: object) -> float | None:
    if seed_rating is None:
        return None
    if isinstance(seed_rating, bool) or not isinstance(seed_rating, (int, float, np.number)):
        raise TypeError(f"seed_rating must be a number or None, got {seed_rating!r}")
    if not np.isfinite(seed_rating):
        raise ValueError(f"seed_rating must be finite Elo points or None, got {seed_rating!r}")
    return float(seed_rating)


def _initial_ratings(prep: Prepared, initial: pd.DataFrame | None) -> np.ndarray:
    """Initial official ratings per player code (NaN: none)."""
    rating = np.full(prep.players.size, np.nan)
    if initial is None:
        return rating
    if not isinstance(initial, pd.DataFrame) or not {"player", "rating"} <= set(initial.columns):
        raise ValueError("initial must be a DataFrame with columns player and rating")
    pos = pd.Index(prep.players).get_indexer(initial["player"].astype(object))
    found = pos >= 0
    rating[pos[found]] = initial["rating"].to_numpy(dtype=np.float64)[found]
    return rating


class _Predictions:
    """Ratings of the two players of each query game as they stood before its day.

    Query ``i`` (players ``black[i]``, ``white[i]`` as codes, -1 for a player the replay never
    saw) is answered before processing tournament ``k``, the first one that ends on or after
    the query's day: only tournaments over strictly earlier are used.
    """

    def __init__(self, prep: Prepared, black: np.ndarray, white: np.ndarray, day: np.ndarray):
        k = np.searchsorted(prep.end, day, side="left")
        self.order = np.argsort(k, kind="stable")
        self.bounds = np.searchsorted(k[self.order], np.arange(prep.n_tournaments + 2))
        self.qb, self.qw = black, white
        self.black = np.full(black.size, np.nan)
        self.white = np.full(black.size, np.nan)
        self.black_established = np.zeros(black.size, dtype=bool)
        self.white_established = np.zeros(black.size, dtype=bool)

    def record(self, step: int, rating: np.ndarray, established: np.ndarray) -> None:
        idx = self.order[self.bounds[step] : self.bounds[step + 1]]
        if idx.size:
            for q, r, e in (
                (self.qb[idx], self.black, self.black_established),
                (self.qw[idx], self.white, self.white_established),
            ):
                known = q >= 0
                r[idx[known]] = rating[q[known]]
                e[idx[known]] = established[q[known]]


class _Track:
    """The rating history of a replay: each player's rating after every change of state.

    Rows are added after each tournament (its players, dated its end day) and, under the 1996
    rules, on each list date (every listed player); the last row of a player and day wins.
    """

    def __init__(self) -> None:
        self.players = np.zeros(0, dtype=object)  # set by the replay: ids of the codes
        self.codes: list[np.ndarray] = []
        self.days: list[np.ndarray] = []
        self.ratings: list[np.ndarray] = []

    def add(self, day: int, codes: np.ndarray, ratings: np.ndarray) -> None:
        rated = ~np.isnan(ratings)
        if rated.any():
            self.codes.append(codes[rated])
            self.days.append(np.full(int(rated.sum()), day, dtype=np.int64))
            self.ratings.append(ratings[rated].astype(np.float64))

    def frame(self) -> pd.DataFrame:
        """player (str), date (datetime.date), rating (Elo points), sorted by player and date."""
        if not self.codes:
            return pd.DataFrame(
                {
                    "player": pd.Series([], dtype="str"),
                    "date": pd.Series([], dtype=object),
                    "rating": pd.Series([], dtype=np.float64),
                }
            )
        codes = np.concatenate(self.codes)
        days = np.concatenate(self.days)
        ratings = np.concatenate(self.ratings)
        order = np.arange(codes.size)
        # sorted by player, day, then order of recording; keep the last row of a player and day
        idx = np.lexsort((order, days, codes))
        codes, days, ratings = codes[idx], days[idx], ratings[idx]
        last = np.ones(codes.size, dtype=bool)
        last[:-1] = (codes[1:] != codes[:-1]) | (days[1:] != days[:-1])
        return pd.DataFrame(
            {
                "player": pd.Series(self.players[codes[last]], dtype="str"),
                "date": dates_of(days[last]),
                "rating": ratings[last],
            }
        )


@dataclass
class _State:
    rating: np.ndarray  # current rating (1997) or start rating used in tournaments (1996)
    established: np.ndarray  # 1997: established; 1996: on an official list
    counted_games: np.ndarray
    counted_points: np.ndarray
    opponent_sum: np.ndarray  # 1997: sum of established opponents' ratings, all counted games


def _new_state(n: int) -> _State:
    return _State(
        rating=np.full(n, np.nan),
        established=np.zeros(n, dtype=bool),
        counted_games=np.zeros(n, dtype=np.int64),
        counted_points=np.zeros(n),
        opponent_sum=np.zeros(n),
    )


def _run_1997(
    prep: Prepared,
    initial: pd.DataFrame | None,
    seed_rating: float | None,
    pred: _Predictions | None = None,
    *,
    start: int = 0,
    state: _State | None = None,
    track: _Track | None = None,
) -> tuple[_State, _Predictions | None]:
    if state is None:
        st = _new_state(prep.players.size)
        init = _initial_ratings(prep, initial)
        st.rating[:] = init
        st.established[:] = ~np.isnan(init)
    else:
        st = state
    for t in range(start, prep.n_tournaments):
        if pred is not None:
            pred.record(t, st.rating, st.established)
        a, b = prep.bounds[t], prep.bounds[t + 1]
        bl, wh, res = prep.black[a:b], prep.white[a:b], prep.result[a:b]
        who, lb, lw = _local(bl, wh)
        m = who.size
        if seed_rating is not None and np.isnan(st.rating[who]).all():  # seed (module doc)
            st.rating[who] = seed_rating
            st.established[who] = True
        est = st.established[who]
        r0 = st.rating[who]
        eb, ew = est[lb], est[lw]
        # established against established: per-game changes, summed, then rounded (rule 8)
        both = eb & ew
        change = np.zeros(m)
        if both.any():
            d = K_FACTOR * (res[both] - expected_score(r0[lb[both]], r0[lw[both]]))
            change = _sum(lb[both], d, m) - _sum(lw[both], d, m)
        # provisional against established: performance (rule 7, cumulative form of the Japanese explanation)
        pb, pw = ~eb & ew, eb & ~ew
        prov = np.concatenate([lb[pb], lw[pw]])
        score = np.concatenate([res[pb], 1.0 - res[pw]])
        opp = np.concatenate([r0[lw[pb]], r0[lb[pw]]])
        n_new = np.bincount(prov, minlength=m)
        played = np.flatnonzero(n_new)
        g_est = who[est]
        moved = est & (np.bincount(lb[both], minlength=m) + np.bincount(lw[both], minlength=m) > 0)
        st.rating[who[moved]] = r0[moved] + round_half_away(change[moved])
        if played.size:
            wins = _sum(prov, score == 1.0, m)[played]
            losses = _sum(prov, score == 0.0, m)[played]
            opp_sum = _sum(prov, opp, m)[played]
            pts = _sum(prov, score, m)[played]
            g = who[played]
            np_ = st.counted_games[g]
            total = np_ + n_new[played]
            cap_mean = (st.opponent_sum[g] + opp_sum) / total
            st.rating[g] = provisional_rating(
                st.rating[g], np_, opp_sum, wins, losses, n_new[played], cap_mean
            )
            st.counted_games[g] = total
            st.counted_points[g] += pts
            st.opponent_sum[g] += opp_sum
            st.established[g] = (total >= ESTABLISHED_GAMES) & (
                st.counted_points[g] >= ESTABLISHED_POINTS
            )
        # established players' counts: games against established opponents
        if both.any():
            n_both = np.bincount(lb[both], minlength=m) + np.bincount(lw[both], minlength=m)
            p_both = _sum(lb[both], res[both], m) + _sum(lw[both], 1.0 - res[both], m)
            st.counted_games[g_est] += n_both[est]
            st.counted_points[g_est] += p_both[est]
        if track is not None:
            track.add(int(prep.end[t]), who, st.rating[who])
    if pred is not None:
        pred.record(prep.n_tournaments, st.rating, st.established)
    return st, pred


def _list_dates(first_day: int, last_day: int) -> np.ndarray:
    """April 30, August 31 and December 31 of every year in [first_day, last_day], as days."""
    y0 = int(str(np.datetime64(first_day, "D"))[:4])
    y1 = int(str(np.datetime64(last_day, "D"))[:4])
    out = [
        _day(dt.date(y, mo, d)) for y in range(y0, y1 + 1) for mo, d in ((4, 30), (8, 31), (12, 31))
    ]
    arr = np.asarray(out, dtype=np.int64)
    return arr[(arr >= first_day) & (arr <= last_day)]


def _run_1996(
    prep: Prepared,
    initial: pd.DataFrame | None,
    seed_rating: float | None,
    as_of_day: int,
    pred: _Predictions | None = None,
    *,
    stop: int | None = None,
    track: _Track | None = None,
) -> tuple[_State, np.ndarray, _Predictions | None]:
    n = prep.players.size
    st = _new_state(n)
    official = _initial_ratings(prep, initial)  # official rating, NaN when none
    st.established[:] = ~np.isnan(official)
    k0 = np.full(n, np.nan)  # start rating of a new player not yet on a list
    pending = np.zeros(n)  # contributions since the last list date
    rule_8c = _day(RULE_8C_FROM)
    first = int(prep.end[0]) if prep.n_tournaments else as_of_day
    lists = _list_dates(first, as_of_day)
    li = 0

    def publish() -> None:
        new = ~np.isnan(k0)
        official[st.established] += pending[st.established]
        official[new] = k0[new] + pending[new]
        st.established[new] = True
        k0[new] = np.nan
        pending[:] = 0.0

    def start_ratings() -> np.ndarray:
        return np.where(st.established, official, k0 + pending)

    stop = prep.n_tournaments if stop is None else stop
    for t in range(stop + 1):
        end = int(prep.end[t]) if t < stop else as_of_day + 1
        while li < lists.size and lists[li] < end:
            publish()
            if track is not None:
                listed = np.flatnonzero(st.established)
                track.add(int(lists[li]), listed, official[listed])
            li += 1
        if pred is not None:
            pred.record(t, start_ratings(), st.established)
        if t == stop:
            break
        a, b = prep.bounds[t], prep.bounds[t + 1]
        bl, wh, res = prep.black[a:b], prep.white[a:b], prep.result[a:b]
        who, lb, lw = _local(bl, wh)
        m = who.size
        if seed_rating is not None and np.isnan(start_ratings()[who]).all():  # seed
            official[who] = seed_rating
            st.established[who] = True
        k = start_ratings()[who]
        had = ~np.isnan(k)
        # new players' start ratings from games against players with a start rating (rule 8)
        hb, hw = had[lb], had[lw]
        nb, nw = ~hb & hw, hb & ~hw
        new_i = np.concatenate([lb[nb], lw[nw]])
        new_s = np.concatenate([res[nb], 1.0 - res[nw]])
        new_o = np.concatenate([k[lw[nb]], k[lb[nw]]])
        cnt = np.bincount(new_i, minlength=m)
        pts = _sum(new_i, new_s, m)
        enough = (cnt >= NEW_PLAYER_GAMES) & ~had
        if prep.end[t] >= rule_8c:
            enough &= pts > 0  # rule 8c
        got = np.flatnonzero(enough)
        if got.size:
            ka = _sum(new_i, new_o, m)[got] / cnt[got]
            # published ratings are whole points: the start rating is rounded too
            k[got] = round_half_away(start_rating(ka, cnt[got], pts[got]))
        # contributions: games where both have a start rating, not both new (rule 8c, 2nd part)
        has = ~np.isnan(k)
        count = has[lb] & has[lw] & (hb | hw)
        ci = np.concatenate([lb[count], lw[count]])
        cs = np.concatenate([res[count], 1.0 - res[count]])
        co = np.concatenate([k[lw[count]], k[lb[count]]])
        n_c = np.bincount(ci, minlength=m)
        idx = np.flatnonzero(n_c)
        if idx.size:
            et = _sum(ci, cs, m)[idx]
            f = contribution(k[idx], _sum(ci, co, m)[idx] / n_c[idx], n_c[idx], et)
            g = who[idx]
            st.counted_games[g] += n_c[idx]
            st.counted_points[g] += et
            pending[g] += f
        if got.size:
            k0[who[got]] = k[got]
        if track is not None:
            track.add(int(prep.end[t]), who, start_ratings()[who])
    st.rating = np.where(st.established, official, k0 + pending)
    return st, np.where(st.established, pending, 0.0), pred


def _run_era(
    prep: Prepared,
    initial: pd.DataFrame | None,
    seed_rating: float | None,
    as_of_day: int,
    pred: _Predictions | None = None,
    track: _Track | None = None,
) -> tuple[_State, np.ndarray, bool]:
    """1996 rules up to the changeover, then 1997 rules; returns (state, pending, in_1997)."""
    change = _day(ERA_CHANGEOVER)
    stop = int(np.searchsorted(prep.end, change, side="left"))
    last_1996 = min(as_of_day, change - 1)
    st, pending, _ = _run_1996(prep, initial, seed_rating, last_1996, pred, stop=stop, track=track)
    if as_of_day < change:
        return st, pending, False
    # on December 31, 1996 every start rating was listed: the listed players are established
    st.rating = np.where(st.established, st.rating, np.nan)
    st.opponent_sum = np.zeros(prep.players.size)
    st, _ = _run_1997(prep, None, seed_rating, pred, start=stop, state=st, track=track)
    return st, np.zeros(prep.players.size), True


def _counts(prep: Prepared) -> dict[str, np.ndarray]:
    n = prep.players.size
    both = np.concatenate([prep.black, prep.white])
    score = np.concatenate([prep.result, 1.0 - prep.result])
    days = np.concatenate([prep.day, prep.day])
    first = np.full(n, np.iinfo(np.int64).max)
    last = np.full(n, np.iinfo(np.int64).min)
    np.minimum.at(first, both, days)
    np.maximum.at(last, both, days)
    return {
        "games": np.bincount(both, minlength=n),
        "wins": np.bincount(both, weights=score == 1.0, minlength=n).astype(np.int64),
        "draws": np.bincount(both, weights=score == 0.5, minlength=n).astype(np.int64),
        "losses": np.bincount(both, weights=score == 0.0, minlength=n).astype(np.int64),
        "first": first,
        "last": last,
    }


def replay(
    games: pd.DataFrame,
    rules: str = "1997",
    as_of: dt.date | None = None,
    *,
    initial: pd.DataFrame | None = None,
    seed_rating: float | None = SEED_RATING,
    tournaments: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The Elo-era rating list on ``as_of``, replaying every tournament that ended by then.

    Parameters
    ----------
    games : pandas.DataFrame
        Rated games in the shared schema (``whr.tables.GAMES``; needs ``black``, ``white``,
        ``result``, ``date``, ``tournament_id``). Not modified.
    rules : {"1997", "1996", "era"}
        The rule set (module docstring); ``"era"`` is the history as it was: the 1996 rules for
        tournaments that ended before 1997, then the 1997 rules starting from the list of
        December 31, 1996.
    as_of : datetime.date, optional
        The list date; tournaments that end later are left out. Default: after the last game.
    initial : pandas.DataFrame, optional
        ``player``, ``rating``: official ratings before the first game (established players).
        Only players with a game in ``games`` are listed.
    seed_rating : float or None
        Rating (Elo points) given to the players of a tournament in which nobody has a rating
        yet (module docstring); None: never.
    tournaments : pandas.DataFrame, optional
        The shared tournaments table; with ``rules="1996"`` (and ``"era"`` before 1997) its
        ``minutes`` apply the minimum thinking time (60 minutes, 45 before 1996).

    Returns
    -------
    pandas.DataFrame
        One row per player with an Elo rating, established first, then by rating descending:
        ``player`` (str), ``rating`` (float, Elo points), ``status`` (``"established"`` or
        ``"provisional"``), ``games``, ``wins``, ``draws``, ``losses`` (all rated games in the
        table up to ``as_of``), ``first_game``, ``last_game`` (date), ``counted_games``,
        ``counted_points`` (games and points the rules counted). Under ``"1996"``
        ``established`` means on the official list of the last list date up to ``as_of`` and
        ``provisional`` a start rating not yet on a list (its rating includes the contributions
        so far); the established rows also have ``pending``, contributions not yet listed.
    """
    return _replay(games, rules, as_of, initial, seed_rating, tournaments, None)


def _last_day(*days: np.ndarray) -> int:
    """The latest of the day numbers, and 0 (1970-01-01) if they are all earlier or empty."""
    return max(0, *(int(d.max()) for d in days if d.size))


def _replay(
    games: pd.DataFrame,
    rules: str,
    as_of: dt.date | None,
    initial: pd.DataFrame | None,
    seed_rating: float | None,
    tournaments: pd.DataFrame | None,
    track: _Track | None,
) -> pd.DataFrame:
    """:func:`replay`, recording the rating history in ``track`` when given."""
    if rules not in RULES:
        raise ValueError(f"rules must be one of {RULES}, got {rules!r}")
    seed = _check_seed(seed_rating)
    if rules != "1997" and tournaments is not None and "minutes" not in tournaments.columns:
        raise ValueError("tournaments must have a minutes column")
    prep = prepare(
        games,
        as_of,
        None if rules == "1997" else tournaments,
        ERA_CHANGEOVER if rules == "era" else None,
    )
    counts = _counts(prep)
    if rules == "1997":
        st, _ = _run_1997(prep, initial, seed, track=track)
        extra: dict[str, np.ndarray] = {}
        rating = st.rating
    elif rules == "era":
        last = _day(as_of) if as_of is not None else int(prep.day.max(initial=0))
        st, pending, in_1997 = _run_era(prep, initial, seed, last, track=track)
        rating = st.rating
        extra = {} if in_1997 else {"pending": pending}
    else:
        last = _day(as_of) if as_of is not None else int(prep.day.max(initial=0))
        st, pending, _ = _run_1996(prep, initial, seed, last, track=track)
        rating = st.rating
        extra = {"pending": pending}
    rated = np.flatnonzero(~np.isnan(rating))
    frame = pd.DataFrame(
        {
            "player": pd.Series(prep.players[rated], dtype="str"),
            "rating": rating[rated],
            "status": np.where(st.established[rated], "established", "provisional"),
            "games": counts["games"][rated],
            "wins": counts["wins"][rated],
            "draws": counts["draws"][rated],
            "losses": counts["losses"][rated],
            "first_game": dates_of(counts["first"][rated]),
            "last_game": dates_of(counts["last"][rated]),
            "counted_games": st.counted_games[rated],
            "counted_points": st.counted_points[rated],
            **{k: v[rated] for k, v in extra.items()},
        }
    )
    frame["status"] = frame["status"].astype("str")
    order = np.lexsort(
        (
            frame["player"].to_numpy(),
            -frame["rating"].to_numpy(),
            frame["status"].to_numpy() != "established",
        )
    )
    frame = frame.iloc[order].reset_index(drop=True)
    if track is not None:
        track.players = prep.players
    return frame


def rating_history(
    games: pd.DataFrame,
    rules: str = "1997",
    as_of: dt.date | None = None,
    *,
    initial: pd.DataFrame | None = None,
    seed_rating: float | None = SEED_RATING,
    tournaments: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Every Elo rating each player held up to ``as_of``, from the same pass as :func:`replay`.

    A row is written for the players of each tournament, dated its end day, with their rating
    after it, and under the 1996 rules (``"1996"``, ``"era"`` before 1997) for every listed
    player on each list date, with their official rating. A player's last row on or before a
    day is the rating :func:`replay` gives on that day. Ratings given by ``initial`` have no
    row until a tournament or a list date changes them.

    Parameters
    ----------
    games, rules, as_of, initial, seed_rating, tournaments
        As for :func:`replay`.

    Returns
    -------
    pandas.DataFrame
        ``player`` (str), ``date`` (datetime.date), ``rating`` (float, Elo points); one row per
        player and day (the state at the end of that day), sorted by player and date.
    """
    track = _Track()
    _replay(games, rules, as_of, initial, seed_rating, tournaments, track)
    return track.frame()


def ratings_before(
    games: pd.DataFrame,
    queries: pd.DataFrame,
    rules: str = "1997",
    *,
    initial: pd.DataFrame | None = None,
    seed_rating: float | None = SEED_RATING,
) -> pd.DataFrame:
    """The two players' ratings for each query game, from tournaments over strictly before it.

    Used by the evaluation. For query ``(black, white, date)`` the state is the one after every
    tournament of ``games`` that ended before ``date`` and before any that ended on or after it,
    so nothing from ``date`` on is seen. Under ``"1996"`` it is each player's start rating
    (official, or a new player's start rating plus contributions so far).

    Parameters
    ----------
    games : pandas.DataFrame
        The games replayed, as for :func:`replay`.
    queries : pandas.DataFrame
        ``black``, ``white`` (player ids) and ``date`` (datetime.date): the games to rate, e.g.
        the games of a tournament with ``date`` its first day.
    rules, initial, seed_rating
        As for :func:`replay`.

    Returns
    -------
    pandas.DataFrame
        Indexed like ``queries``: ``black_rating``, ``white_rating`` (float, Elo points; NaN for
        a player without a rating then), ``black_established``, ``white_established`` (bool).
    """
    if rules not in RULES:
        raise ValueError(f"rules must be one of {RULES}, got {rules!r}")
    missing = [c for c in ("black", "white", "date") if c not in queries.columns]
    if missing:
        raise ValueError(f"queries is missing columns {missing}; needs black, white, date")
    seed = _check_seed(seed_rating)
    prep = prepare(games)
    index = pd.Index(prep.players)
    qday = (days_of(queries["date"]) - _EPOCH).astype(np.int64)
    pred = _Predictions(
        prep,
        index.get_indexer(queries["black"].astype(object)).astype(np.int64),
        index.get_indexer(queries["white"].astype(object)).astype(np.int64),
        qday,
    )
    if rules == "1997":
        _run_1997(prep, initial, seed, pred)
    elif rules == "era":
        _run_era(prep, initial, seed, _last_day(prep.day, qday), pred)
    else:
        _run_1996(prep, initial, seed, _last_day(prep.day, qday), pred)
    return pd.DataFrame(
        {
            "black_rating": pred.black,
            "white_rating": pred.white,
            "black_established": pred.black_established,
            "white_established": pred.white_established,
        },
        index=queries.index,
    )
