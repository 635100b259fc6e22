"""Rating lists: who is listed on a date, with which status, rank and activity counts.

Plain functions that build rows (pandas DataFrames in the shared schemas); nothing here renders
or writes anything. The policy follows rule 10 of the RIF rating rules 2021, evaluated *as of
the list date D*: only rated games up to and including D count, so a year-end list shows the
status each player had on that December 31, not today's.

- established, active (``"active"``): at least 10 rated games up to D and the last one "not
  more than 5 years" before D, i.e. on a day in [D - 5 years, D] (the day exactly 5 years before
  D is still active);
- established, inactive (``"inactive"``): at least 10 rated games, the last one before
  D - 5 years;
- provisional (``"provisional"``): at most 9 rated games.

The activity counts Gy1, Gy2, Gy5 (rated games in the last 1, 2, 5 years) use the same window
as the active rule (:func:`window_start`): games on days in [D - N years, D]. An active player
therefore never shows Gy5 = 0.

Ranks (:func:`rank_order`): established active players are numbered 1..n in the order of their
unrounded ratings, highest first; a rank never sits above a higher rating. Ratings within
:data:`TIE_ELO` (1e-6 Elo) of each other are ties: players with symmetric histories get such
ratings, equal but for the float noise of the fit, and the noise must not decide. Tied players
are ordered by player id, in natural order (:func:`natural_order`: all-digit ids by number).
Every rank of this module (world, country, the Gy1 list, women, the top five of a year, the
Elo-era list) is given in that one order.
Virtual games (the engine's regularisation) never appear in the rated games and never count.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pandas as pd
import pyarrow as pa

from whr.rules import EligibilityConfig, default_directory, load_config
from whr.tables import (
    CHANGE_COLUMNS,
    RATED_GAMES,
    RATINGS,
    STATUSES,
    as_date,
    conform,
    days_of,
    empty,
    to_frame,
)

ESTABLISHED_GAMES = 10  # rated games needed to be established (rule 10)
ACTIVE_YEARS = 5  # active: the last rated game on or after D - 5 years (rule 10)
TIE_ELO = 1e-6  # ratings this close are ties for the ranks, ordered by player id
WINDOWS_YEARS = (1, 2, 5)  # the Gy1, Gy2, Gy5 activity counts, in the active rule's window
GY1_GAMES = 10  # the RIF's "Gy1 >= 10" list: rated games in the year up to the list date

RatingOn = Callable[[dt.date], pd.DataFrame]


@dataclass(frozen=True)
class RuleNumbers:
    """The numbers of the rules a list was computed with, as its pages state them.

    The list's own (rule 10 of the RIF rating rules 2021: established at 10 games, active
    within 5 years; the Gy1, Gy2, Gy5 windows; the RIF site's "Gy1 >= 10" list) and those of
    eligibility's rules it was selected with (rule 9: the cut-over date, the minutes per
    player), so that a list computed with other rules (``--rules``) says which.

    Attributes
    ----------
    cutover : datetime.date
        First last-day of a tournament judged by rule 9 (``EligibilityConfig.cutover``).
    min_minutes : float
        Minutes per player rule 9 asks for from then on (``EligibilityConfig.min_minutes``).
    established_games, active_years, gy1_games : int
    windows_years : tuple of int
    """

    cutover: dt.date
    min_minutes: float
    established_games: int = ESTABLISHED_GAMES
    active_years: int = ACTIVE_YEARS
    windows_years: tuple[int, ...] = WINDOWS_YEARS
    gy1_games: int = GY1_GAMES

    @classmethod
    def of(cls, config: EligibilityConfig) -> RuleNumbers:
        """The numbers of a list selected with ``config``."""
        return cls(cutover=config.cutover, min_minutes=float(config.min_minutes))

    def record(self) -> dict[str, Any]:
        """The numbers as plain JSON values (the manifest's ``rules``)."""
        return {
            "cutover": self.cutover.isoformat(),
            "min_minutes": self.min_minutes,
            "established_games": self.established_games,
            "active_years": self.active_years,
            "windows_years": list(self.windows_years),
            "gy1_games": self.gy1_games,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | None) -> RuleNumbers:
        """The numbers of a :meth:`record`; for an entry published before its manifest recorded
        them (None), those of the bundled rules, the only rules such lists used unnamed."""
        if record is None:
            return cls.of(load_config(default_directory()))
        return cls(
            cutover=dt.date.fromisoformat(record["cutover"]),
            min_minutes=float(record["min_minutes"]),
            established_games=int(record["established_games"]),
            active_years=int(record["active_years"]),
            windows_years=tuple(int(y) for y in record["windows_years"]),
            gy1_games=int(record["gy1_games"]),
        )


def years_before(day: dt.date, years: int) -> dt.date:
    """The same calendar day ``years`` years before ``day`` (February 29 becomes February 28).

    Parameters
    ----------
    day : datetime.date
        The reference day.
    years : int
        Whole years, >= 0.

    Returns
    -------
    datetime.date
    """
    as_date(day, "day")
    if years < 0:
        raise ValueError(f"years must be >= 0, got {years}")
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # February 29 in a year that has none
        return day.replace(year=day.year - years, day=28)


def window_start(on: dt.date, years: int) -> dt.date:
    """The first day of the window of the last ``years`` years up to the list date ``on``.

    The one window of the lists: a day counts when it is in [window_start(on, years), on]. The
    active rule (rule 10 of the RIF rating rules 2021: the last game "not more than 5 years"
    before D) and the Gy1, Gy2, Gy5 counts both use it, so the day exactly ``years`` years
    before ``on`` counts in both.

    Parameters
    ----------
    on : datetime.date
        The list date D.
    years : int
        Whole years, >= 0.

    Returns
    -------
    datetime.date
        :func:`years_before` ``(on, years)``.
    """
    return years_before(on, years)


def status(
    games: Sequence[int] | np.ndarray,
    last_game: object,
    on: dt.date,
    established: Sequence[bool] | np.ndarray | None = None,
) -> np.ndarray:
    """Each player's status on the list date ``on`` (RIF rating rules 2021, rule 10).

    Parameters
    ----------
    games : array of int
        Rated games of each player up to and including ``on``.
    last_game : array of dates
        Each player's last rated game on or before ``on``.
    on : datetime.date
        The list date D.
    established : array of bool, optional
        Who is established, when another rating system decides it (the Elo-era rules); default:
        at least 10 rated games (rule 10).

    Returns
    -------
    numpy.ndarray of str
        ``"active"`` (>= 10 games and the last in [D - 5 years, D]: "not more than 5 years"
        before D, rule 10), ``"inactive"`` (>= 10 games, the last before D - 5 years) or
        ``"provisional"`` (<= 9 games); with ``established``, "established" replaces
        ">= 10 games".
    """
    as_date(on, "on")
    games = np.asarray(games, dtype=np.int64)
    last = days_of(last_game)
    if len(games) != len(last):
        raise ValueError(
            f"games and last_game must have the same length, got {len(games)} and {len(last)}"
        )
    if (last > np.datetime64(on, "D")).any():
        raise ValueError(f"last_game must be on or before the list date {on}")
    cutoff = np.datetime64(window_start(on, ACTIVE_YEARS), "D")
    if established is None:
        established = games >= ESTABLISHED_GAMES
    else:
        established = np.asarray(established, dtype=bool)
        if established.shape != games.shape:
            raise ValueError(
                f"established must have one entry per player ({len(games)}), "
                f"got shape {established.shape}"
            )
    recent = last >= cutoff
    return np.where(
        established & recent, "active", np.where(established, "inactive", "provisional")
    )


def rank_order(frame: pd.DataFrame) -> np.ndarray:
    """Positions of ``frame``'s rows in rank order: the one order every rank follows.

    Rating descending, unrounded; ratings within :data:`TIE_ELO` of each other are ties,
    ordered by player id in natural order (:func:`natural_order`). See :func:`_rank_order` for
    how ties are grouped.

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns ``rating`` and ``player`` (a list, schema ``RATINGS``).

    Returns
    -------
    numpy.ndarray of int
        A permutation of ``range(len(frame))``.
    """
    missing = [c for c in ("rating", "player") if c not in frame]
    if missing:
        raise ValueError(f"frame must have columns rating, player; lacks {missing}")
    by_id = natural_order(frame["player"])
    key = np.empty(len(frame), dtype=np.int64)
    key[by_id] = np.arange(len(frame))
    return _rank_order(frame["rating"].to_numpy(dtype=float), key)


def _rank_order(rating: np.ndarray, key: np.ndarray) -> np.ndarray:
    """:func:`rank_order` on arrays: ``key`` (integers) orders the players as their ids do.

    Going down the ratings, a tie group starts at the highest rating not yet placed and takes
    every rating within :data:`TIE_ELO` below it; inside a group the players are ordered by
    ``key``. So equal ratings are always in one group, a player never sits above a rating
    higher than theirs by more than ``TIE_ELO``, and no chain of close ratings can stretch a
    group further.
    """
    rating = np.asarray(rating, dtype=float)
    if np.isnan(rating).any():
        raise ValueError("ratings to rank must not be NaN")
    order = np.lexsort((key, -rating))  # rating descending; equal ratings by key
    r = rating[order]
    close = r[:-1] - r[1:] <= TIE_ELO  # a rating close to the one above it
    if not close.any():
        return order
    # runs of close neighbours; only a run holds ties (most have two players, one group)
    edges = np.flatnonzero(np.diff(np.concatenate([[False], close, [False]]).astype(np.int8)))
    for first, last in zip(edges[::2], edges[1::2] + 1, strict=True):  # run: [first, last)
        start = first
        while start < last:
            # the group: every rating of the run within TIE_ELO below the group's first
            end = start + int(np.searchsorted(-r[start:last], TIE_ELO - r[start], side="right"))
            part = order[start:end]
            order[start:end] = part[np.argsort(key[part], kind="stable")]
            start = end
    return order


def ranked(rating: np.ndarray, key: np.ndarray, among: np.ndarray) -> np.ndarray:
    """Ranks 1..n in :func:`rank_order` among the players ``among`` (0 for the others), from
    arrays: ``rating`` (unrounded), ``key`` (integers that order the players as their ids do,
    :func:`natural_order`) and ``among`` (bool)."""
    among = np.asarray(among, dtype=bool)
    rank = np.zeros(among.size, dtype=np.int64)
    chosen = np.flatnonzero(among)
    order = _rank_order(np.asarray(rating, dtype=float)[chosen], np.asarray(key)[chosen])
    rank[chosen[order]] = np.arange(1, chosen.size + 1)
    return rank


def _day_before(day: dt.date) -> np.datetime64:
    return np.datetime64(day, "D") - np.timedelta64(1, "D")


def _count_within(groups: np.ndarray) -> np.ndarray:
    """1, 2, 3, ... within each group of equal values of ``groups`` (integers), in the order
    given: pandas' ``groupby(groups).cumcount() + 1`` in numpy, since pandas' costs more than
    the rest of a list's ranking."""
    n = len(groups)
    by_group = np.argsort(groups, kind="stable")  # each group's rows together, in order
    grouped = groups[by_group]
    first = np.ones(n, dtype=bool)
    first[1:] = grouped[1:] != grouped[:-1]
    group_start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    counts = np.empty(n, dtype=np.int64)
    counts[by_group] = np.arange(n) - group_start + 1
    return counts


def _numbered(frame: pd.DataFrame, among: np.ndarray) -> pd.Series:
    """Ranks 1..n in :func:`rank_order` among the rows ``among``; null for the other rows."""
    among = np.asarray(among, dtype=bool)
    order = rank_order(frame)
    order = order[among[order]]
    rank = np.zeros(len(frame), dtype=np.int64)
    rank[order] = np.arange(1, len(order) + 1)
    return pd.Series(pd.array(np.where(among, rank, 0), dtype="Int32"), index=frame.index).where(
        among
    )


_TEXT = pd.StringDtype(na_value=np.nan)  # pandas' default text dtype, "str"


def _twice(values: pd.Series) -> pd.Series | np.ndarray:
    """``values`` for the black sides' rows, then again for the white sides', typed as the
    frame constructor types ``np.tile(values.to_numpy(object), 2)``: a column of pandas'
    default text dtype with a value is repeated as it is (without the round trip through Python
    objects, which is slow); any other column goes through objects and pandas infers its type
    (text when every value is text or null and one is not null, else object)."""
    if values.dtype == _TEXT and values.notna().any():
        return pd.concat([values, values], ignore_index=True)
    return np.tile(values.to_numpy(object), 2)


def player_games(rated: pd.DataFrame) -> pd.DataFrame:
    """One row per rated game and side: the games as each player sees them.

    Parameters
    ----------
    rated : pandas.DataFrame
        Rated games (schema ``GAMES``; extra columns such as ``black_rating`` are carried over
        as ``rating``/``opponent_rating`` when present).

    Returns
    -------
    pandas.DataFrame
        Columns player, opponent, game_id, tournament_id, round, day (``datetime64[D]``), colour
        (``"black"``/``"white"``), score (the player's: 1, 0.5, 0), rating and opponent_rating
        (the two players' ratings that day, NaN when not given); sorted by player, day,
        tournament_id, game_id.
    """
    missing = [c for c in ("game_id", "black", "white", "result", "date") if c not in rated]
    if missing:
        raise ValueError(f"rated games are missing columns {missing}")
    day = days_of(rated["date"])
    result = rated["result"].to_numpy(dtype=float)
    if np.isnan(result).any() or np.isnat(day).any():
        raise ValueError("rated games must all have a result and a date")
    n = len(rated)
    nan = np.full(n, np.nan)
    black_rating = rated["black_rating"].to_numpy(float) if "black_rating" in rated else nan
    white_rating = rated["white_rating"].to_numpy(float) if "white_rating" in rated else nan

    def sides(black: str, white: str) -> pd.Series:
        """``rated[black]`` for the black sides' rows, then ``rated[white]`` for the white's."""
        return pd.concat([rated[black], rated[white]], ignore_index=True)

    none = np.full(2 * n, None)
    frame = pd.DataFrame(
        {
            "player": sides("black", "white"),
            "opponent": sides("white", "black"),
            "game_id": sides("game_id", "game_id"),
            "tournament_id": _twice(rated["tournament_id"]) if "tournament_id" in rated else none,
            "round": _twice(rated["round"]) if "round" in rated else none,
            "day": np.concatenate([day, day]),
            "colour": np.repeat(np.array(["black", "white"], dtype=object), n),
            "score": np.concatenate([result, 1.0 - result]),
            "rating": np.concatenate([black_rating, white_rating]),
            "opponent_rating": np.concatenate([white_rating, black_rating]),
        }
    )
    frame = frame.astype({"player": "str", "opponent": "str", "game_id": "str"})
    return frame.sort_values(
        ["player", "day", "tournament_id", "game_id"], kind="stable"
    ).reset_index(drop=True)


def rated_games(rated: pd.DataFrame, history: pd.DataFrame) -> pd.DataFrame:
    """The rated games with each player's rating and uncertainty on the day of the game.

    Parameters
    ----------
    rated : pandas.DataFrame
        Rated games (schema ``GAMES``).
    history : pandas.DataFrame
        The fit's history (schema ``HISTORY``: player, date, rating, uncertainty, games).

    Returns
    -------
    pandas.DataFrame
        Schema ``RATED_GAMES``, sorted by date, tournament_id, round, game_id.
    """
    # the history's row of each player and day, looked up for both players of every game
    rows = pd.MultiIndex.from_arrays([history["player"].astype("str"), days_of(history["date"])])
    if not rows.is_unique:
        raise ValueError("history must have one row per player and day")
    day = days_of(rated["date"])
    games = rated.copy()
    games["_day"] = day
    for side in ("black", "white"):
        at = rows.get_indexer(pd.MultiIndex.from_arrays([rated[side].astype("str"), day]))
        found = at >= 0
        for column in ("rating", "uncertainty"):
            values = np.full(len(games), np.nan)
            values[found] = history[column].to_numpy(float)[at[found]]
            games[f"{side}_{column}"] = values
    games = games.sort_values(["_day", "tournament_id", "round", "game_id"], kind="stable")
    return conform(games.reset_index(drop=True), RATED_GAMES)


def _birth_year(birth: pd.Series) -> pd.Series:
    year = pd.to_numeric(birth.astype("str").str.slice(0, 4), errors="coerce")
    return year.where((year > 1800) & (year < 2200)).astype("Int32")


def list_on(
    on: dt.date,
    history: pd.DataFrame,
    games: pd.DataFrame,
    players: pd.DataFrame,
    rating_on: RatingOn,
) -> pd.DataFrame:
    """The rating list on date ``on``: every player with a rated game up to ``on``.

    Parameters
    ----------
    on : datetime.date
        The list date D. Games after D are ignored, so historical lists are computed as they
        stood on D (the fit itself uses the whole history, as WHR does).
    history : pandas.DataFrame
        The fit's history (schema ``HISTORY``); best rating and its date come from its rows up
        to D.
    games : pandas.DataFrame
        The output of :func:`player_games` for the rated games.
    players : pandas.DataFrame
        Player facts (schema ``PLAYERS``); a player missing here is listed under their id.
    rating_on : callable
        ``rating_on(day)`` returns a DataFrame with columns player, rating (published scale) and
        uncertainty (std, Elo) on ``day`` (``docs/solver.md``: interpolated between rating days,
        constant after the last one with variance growing by w2 per day), as ``Fit.rating_on``.
        Another rating system (the Elo-era list, ``whr.elo.elo_list``) may leave out the
        uncertainty column (the list's uncertainty is then null) and may give a bool column
        ``established`` that decides who is established instead of the 10-game rule.

    Returns
    -------
    pandas.DataFrame
        Schema ``RATINGS``: active players by rank, then inactive, then provisional players, each
        in the order of :func:`rank_order` (unrounded rating; ties within 1e-6 Elo by id).
    """
    as_date(on, "on")
    return _lists([on], _ListInputs(history, games, players), rating_on)[on]


def _prepare_players(players: pd.DataFrame) -> pd.DataFrame:
    """Player facts indexed by player_id (first row of each id), with birth_year."""
    facts = players.drop_duplicates("player_id", keep="first").set_index("player_id")
    out = pd.DataFrame(index=facts.index)
    for column in ("name", "native_name", "country", "country_name", "female"):
        out[column] = facts.get(column, None)
    out["birth_year"] = (
        _birth_year(facts["birth"]) if "birth" in facts else pd.array([None] * len(facts), "Int32")
    )
    return out


class _PlayerRows:
    """Rows of players (games, rating days) sorted by player number, then day, so that each
    player's rows up to any day are found by one binary search.

    Every row gets one int64 key, ``player * span + (day - first day)``, ordered as (player,
    day); the position of the key of (player p, day x) among the sorted keys is the end of p's
    rows on or before x. A list of any date reads its counts off such positions instead of
    filtering every row again.
    """

    def __init__(self, player: np.ndarray, day: np.ndarray, n_players: int) -> None:
        days = day.astype("datetime64[D]").astype(np.int64)
        self._first = int(days.min()) if len(days) else 0
        # offsets are 0..span-2; a day before the first is offset -1 (see end)
        self._span = (int(days.max()) - self._first + 2) if len(days) else 2
        key = player.astype(np.int64) * self._span + (days - self._first)
        self.order = np.argsort(key, kind="stable")  # the rows' positions in (player, day) order
        self._key = key[self.order]
        self.player = player[self.order]
        self.day = days[self.order].astype("datetime64[D]")
        everyone = np.arange(n_players, dtype=np.int64)
        self.start = np.searchsorted(self._key, everyone * self._span, side="left")

    def end(self, day: dt.date | np.datetime64, players: np.ndarray) -> np.ndarray:
        """The end of each of ``players``' rows up to ``day``: the position after their last
        row on or before ``day`` (their ``start`` when they have none)."""
        offset = int(np.datetime64(cast(Any, day), "D").astype(np.int64)) - self._first
        offset = min(max(offset, -1), self._span - 2)
        return np.searchsorted(self._key, players * self._span + offset, side="right")


class _ListInputs:
    """What the lists of one set of inputs share, prepared once: the players numbered, each
    player's games and rating days in order, and the player facts as Arrow columns.

    Players are the players of the games, numbered in the natural order of their ids
    (:func:`natural_order`), so that sorting by number sorts by id (the key that orders tied
    players, :func:`rank_order`); a player is compared as a number from here on, and turned
    into text only in the output.
    """

    def __init__(self, history: pd.DataFrame, games: pd.DataFrame, players: pd.DataFrame):
        code, text_ids = pd.factorize(games["player"].astype("str"), sort=True)
        if (code < 0).any():
            raise ValueError("games must name the player on every row")
        natural = natural_order(pd.Series(text_ids, dtype="str"))
        self.index = pd.Index(np.asarray(text_ids, dtype=object)[natural])
        self.ids = self.index.to_numpy(dtype=object)
        n = len(self.ids)
        to_number = np.empty(n, dtype=np.int64)
        to_number[natural] = np.arange(n)
        number = to_number[code]

        self.games = _PlayerRows(number, games["day"].to_numpy(), n)
        self.first_game = self.games.day[self.games.start]  # every player has a game
        score = games["score"].to_numpy(dtype=float)[self.games.order]
        # running totals: a player's wins in the rows [a, b) are wins[b] - wins[a]
        self.results = {
            name: np.concatenate([[0], np.cumsum(score == value)])
            for name, value in (("wins", 1.0), ("draws", 0.5), ("losses", 0.0))
        }

        # rating days; those of a player without a rated game would never be listed
        player = self.index.get_indexer(history["player"].astype("str"))
        known = player >= 0
        self.history = _PlayerRows(player[known], days_of(history["date"])[known], n)
        rating = history["rating"].to_numpy(dtype=float)[known][self.history.order]
        # the best rating up to each rating day and the first day it was held: the last row up
        # to that day that beat every earlier row of its player (a player's first row does)
        self.best_rating = (
            pd.Series(rating).groupby(self.history.player, sort=False).cummax().to_numpy()
        )
        player = self.history.player
        record = np.ones(len(rating), dtype=bool)
        record[1:] = (player[1:] != player[:-1]) | (rating[1:] > self.best_rating[:-1])
        record_row = np.where(record, np.arange(len(rating)), 0)
        self.best_date = self.history.day[np.maximum.accumulate(record_row)]

        facts = _prepare_players(players).reindex(self.ids)
        name = facts["name"].to_numpy(dtype=object)
        strings = ("native_name", "country", "country_name")
        self.facts = pa.table(
            {
                "player": pa.array(self.ids, type=pa.string()),
                "name": pa.array(np.where(pd.isna(name), self.ids, name), type=pa.string()),
                **{
                    c: pa.array(facts[c].to_numpy(dtype=object), type=pa.string(), from_pandas=True)
                    for c in strings
                },
                "female": pa.array(
                    facts["female"].to_numpy(dtype=object), type=pa.bool_(), from_pandas=True
                ),
                "birth_year": pa.array(facts["birth_year"], type=pa.int32(), from_pandas=True),
            }
        )
        self.country = pd.factorize(facts["country"].to_numpy(dtype=object))[0]  # -1: none


def _list_columns(
    on: dt.date, inputs: _ListInputs, rating_on: RatingOn
) -> dict[str, np.ndarray] | None:
    """The list on ``on`` as arrays in list order (``player``: player numbers), or None when
    nobody has a rated game up to ``on``.

    The one implementation of the rules of a list (the counts, status, best rating and order as
    of D, see the module's docstring), for :func:`list_on` and :func:`year_end_lists` alike.
    """
    day = np.datetime64(on, "D")
    g = inputs.games
    listed = np.flatnonzero(inputs.first_game <= day)  # players with a rated game up to D
    if not len(listed):
        return None
    start, end = g.start[listed], g.end(day, listed)
    n = len(listed)
    columns: dict[str, np.ndarray] = {
        "games": end - start,
        **{name: total[end] - total[start] for name, total in inputs.results.items()},
        # games in [D - y years, D]: the active rule's window (window_start)
        **{f"gy{y}": end - g.end(_day_before(window_start(on, y)), listed) for y in WINDOWS_YEARS},
        "first_game": g.day[start],
        "last_game": g.day[end - 1],
    }

    now = rating_on(on)
    at = inputs.index.get_indexer(now["player"].astype("str"))
    rated = at >= 0

    def of_listed(column: str, missing: object, dtype: type) -> np.ndarray:
        values: np.ndarray = np.full(len(inputs.ids), missing, dtype=dtype)
        values[at[rated]] = now[column].to_numpy(dtype=dtype)[rated]
        return values[listed]

    rating = of_listed("rating", np.nan, float)
    has_uncertainty = "uncertainty" in now
    uncertainty = of_listed("uncertainty", np.nan, float) if has_uncertainty else np.full(n, np.nan)
    established = of_listed("established", False, bool) if "established" in now else None
    unrated = np.isnan(rating) | (np.isnan(uncertainty) if has_uncertainty else False)
    if unrated.any():
        missing = inputs.ids[listed][unrated]
        raise ValueError(
            f"rating_on({on}) gave no rating for {len(missing)} players with rated games up to "
            f"that day (e.g. {list(missing[:5])}); it must rate every player from their first "
            "rating day on (docs/solver.md)"
        )

    # best rating of each player up to D and its first day; the rating on D without a rating
    # day up to D
    h_end = inputs.history.end(day, listed)
    has = h_end > inputs.history.start[listed]
    best_rating, best_date = rating.copy(), columns["last_game"].copy()
    best_rating[has] = inputs.best_rating[h_end[has] - 1]
    best_date[has] = inputs.best_date[h_end[has] - 1]

    status_of = status(columns["games"], columns["last_game"], on, established)
    status_code = np.zeros(n, dtype=np.int64)
    for code, name in enumerate(STATUSES):
        status_code[status_of == name] = code

    # list order: active, inactive, provisional, each in rank order
    by_rank = _rank_order(rating, listed)
    order = by_rank[np.argsort(status_code[by_rank], kind="stable")]
    active = status_of[order] == "active"
    country = inputs.country[listed[order]]
    with_country = active & (country >= 0)
    country_rank = np.zeros(n, dtype=np.int64)
    country_rank[with_country] = _count_within(country[with_country])
    values = {
        "player": listed,
        "rating": rating,
        "uncertainty": uncertainty,
        **columns,
        # the best over the history given: for the Elo-era list, its published ratings; for
        # a WHR fit, today's estimate, which whr.lists.build replaces by the record's best
        "best_rating": best_rating,
        "best_date": best_date,
        "best_estimate": best_rating,
        "best_estimate_date": best_date,
        "status": status_code,
    }
    return {
        **{name: column[order] for name, column in values.items()},
        "rank": np.cumsum(active),  # active players come first, in rank order
        "active": active,
        "country_rank": country_rank,
        "with_country": with_country,
    }


def _lists(
    days: Sequence[dt.date], inputs: _ListInputs, rating_on: RatingOn
) -> dict[dt.date, pd.DataFrame]:
    """The lists on ``days`` (:func:`list_on`), in that order.

    Each list is computed as arrays (:func:`_list_columns`); they are then turned into frames
    together, as one Arrow table converted to pandas once and cut into one frame per list,
    because converting each list alone costs more than computing it (a list is built for every
    year end).
    """
    built = {day: _list_columns(day, inputs, rating_on) for day in days}
    parts = {day: columns for day, columns in built.items() if columns is not None}
    frames = {}
    if parts:
        sizes = [len(columns["player"]) for columns in parts.values()]

        def joined(name: str) -> np.ndarray:
            return np.concatenate([columns[name] for columns in parts.values()])

        facts = inputs.facts.take(joined("player"))
        list_date = np.repeat([np.datetime64(day, "D") for day in parts], sizes)
        arrays: dict[str, pa.Array[Any] | pa.ChunkedArray[Any]] = {
            "list_date": pa.array(list_date, type=pa.date32()),
            "rank": pa.array(joined("rank"), mask=~joined("active"), type=pa.int32()),
            "country_rank": pa.array(
                joined("country_rank"), mask=~joined("with_country"), type=pa.int32()
            ),
            "status": pa.array(STATUSES, type=pa.string()).take(joined("status")),
        }
        for field in RATINGS:
            if field.name in arrays:
                continue
            if (
                field.name in CHANGE_COLUMNS
            ):  # filled later from the previous list (whr.lists.changes)
                arrays[field.name] = pa.nulls(len(list_date), field.type)
            elif field.name in facts.column_names:
                arrays[field.name] = facts[field.name]
            else:
                arrays[field.name] = pa.array(joined(field.name), type=field.type, from_pandas=True)
        out = to_frame(pa.Table.from_arrays([arrays[f.name] for f in RATINGS], schema=RATINGS))
        for column in _NULLABLE_INTS:  # as every other list frame has them (conform's dtypes)
            out[column] = out[column].astype("Int32")
        bounds = np.cumsum([0, *sizes])
        for day, a, b in zip(parts, bounds[:-1], bounds[1:], strict=True):
            frame = out.iloc[a:b].reset_index(drop=True)
            # Arrow gives a bool column with a null as objects (True, False, None), one
            # without as bool: each list as it would be converted alone
            if frame["female"].dtype == object and frame["female"].notna().all():
                frame["female"] = frame["female"].astype(bool)
            frames[day] = frame
    return {day: frames[day] if day in frames else empty(RATINGS) for day in days}


_NULLABLE_INTS = [f.name for f in RATINGS if f.type == pa.int32() and f.nullable]


def year_ends(game_days: object, on: dt.date) -> list[dt.date]:
    """The December 31 of every year with a rated game, up to ``on`` (inclusive), newest first.

    A year without any rated game gets no list, so a wrong date far in the past (caught by
    eligibility as ``before_rated_era``) could never open centuries of empty lists.

    Parameters
    ----------
    game_days : array of dates
        The days of the rated games (``datetime.date``, strings or datetime64).
    on : datetime.date
        The list date D.

    Returns
    -------
    list of datetime.date
    """
    as_date(on, "on")
    days = days_of(game_days)
    days = days[~np.isnat(days)]
    years = np.unique(days.astype("datetime64[Y]").astype(np.int64) + 1970)
    return [dt.date(int(y), 12, 31) for y in years[::-1] if dt.date(int(y), 12, 31) <= on]


def year_end_lists(
    on: dt.date,
    history: pd.DataFrame,
    games: pd.DataFrame,
    players: pd.DataFrame,
    rating_on: RatingOn,
) -> dict[dt.date, pd.DataFrame]:
    """The list on December 31 of every year with a rated game up to ``on``, newest first.

    Parameters are those of :func:`list_on`; returns ``{date: RATINGS frame}`` for the dates of
    :func:`year_ends`. The first year is that of the first rated game, for every category (the
    RIF's site starts renju at 1989 and gomoku at 2004 by constants; see ``docs/site.md``).
    """
    if games.empty:
        return {}
    as_date(on, "on")
    inputs = _ListInputs(history, games, players)
    return _lists(year_ends(inputs.games.day, on), inputs, rating_on)


def natural_order(ids: pd.Series) -> np.ndarray:
    """Positions that sort ids naturally: all-digit ids by number first, then the rest as text.

    ``"9"`` comes before ``"10"`` and ``"000123"`` (= 123) before ``"000124"``; ties between
    equal numbers (``"7"``, ``"007"``) are broken by the text.

    Returns
    -------
    numpy.ndarray of int
        A permutation of ``range(len(ids))``.
    """
    text = ids.astype("str")
    digits = text.str.fullmatch(r"[0-9]{1,18}").fillna(False).to_numpy(bool)
    number = np.zeros(len(text), np.int64)
    if digits.any():  # Arrow's cast: a tenth of pandas' time
        number[digits] = pa.array(text).filter(pa.array(digits)).cast(pa.int64()).to_numpy()
    # the text breaks ties only: it is compared (a sort of distinct texts) only among the ids
    # that equal others by kind and number (the non-digit ids, "7" and "007")
    kind = (~digits).astype(np.int64)
    order: np.ndarray = np.lexsort((number, kind))  # stable, last key first
    same = (kind[order][1:] == kind[order][:-1]) & (number[order][1:] == number[order][:-1])
    if not same.any():
        return order
    tied = np.zeros(len(text), bool)  # the ids that equal another by kind and number
    tied[order[1:][same]] = True
    tied[order[:-1][same]] = True
    by_text = np.zeros(len(text), np.int64)
    by_text[tied] = pd.factorize(text[tied].to_numpy(object), sort=True)[0]
    order = np.lexsort((by_text, number, kind))
    return order
