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

Ranks (:func:`rank_order`): established active players are numbered 1..n in rating order, as
the RIF's site numbers them; ratings equal to 0.01 Elo (the fit's tolerance, the precision of the
player pages) are ties, broken by more rated games, then by player id (as text). Every rank of
this module (world, country, the Gy1 list, women, the top five of a year, the Elo-era list) is
given in that one order.
Virtual games (the engine's regularisation) never appear in the rated games and never count.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

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
RANK_DECIMALS = 2  # ratings equal to 0.01 Elo are ties for the ranks (then games, then id)
WINDOWS_YEARS = (1, 2, 5)  # the Gy1, Gy2, Gy5 activity counts

RatingOn = Callable[[dt.date], pd.DataFrame]


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
    cutoff = np.datetime64(years_before(on, ACTIVE_YEARS), "D")
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

    Rating descending, compared to :data:`RANK_DECIMALS` decimals (closer ratings are ties:
    below the fit's tolerance, and a symmetric pair must not be split by float noise); then
    more rated games first; then player id ascending, as text.

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns ``rating``, ``games``, ``player`` (a list, schema ``RATINGS``).

    Returns
    -------
    numpy.ndarray of int
        A permutation of ``range(len(frame))``.
    """
    missing = [c for c in ("rating", "games", "player") if c not in frame]
    if missing:
        raise ValueError(f"frame must have columns rating, games, player; lacks {missing}")
    rating = np.round(frame["rating"].to_numpy(dtype=float), RANK_DECIMALS)
    games = frame["games"].to_numpy(dtype=np.int64)
    player = frame["player"].astype("str").to_numpy(dtype=object)
    # lexsort: the last key is the primary one
    return np.lexsort((player, -games, -rating))


def _numbered(frame: pd.DataFrame, among: np.ndarray, by: str | None = None) -> pd.Series:
    """Ranks 1..n in :func:`rank_order` among the rows ``among`` (within each ``by`` group
    when given); null for the other rows."""
    among = np.asarray(among, dtype=bool)
    order = rank_order(frame)
    order = order[among[order]]
    rank = np.zeros(len(frame), dtype=np.int64)
    if by is None:
        rank[order] = np.arange(1, len(order) + 1)
    else:
        groups = frame[by].to_numpy(dtype=object)[order]
        rank[order] = pd.Series(groups).groupby(groups, sort=False).cumcount().to_numpy() + 1
    return pd.Series(pd.array(np.where(among, rank, 0), dtype="Int32"), index=frame.index).where(
        among
    )


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
    common = {
        "game_id": np.tile(rated["game_id"].to_numpy(object), 2),
        "tournament_id": np.tile(
            rated["tournament_id"].to_numpy(object)
            if "tournament_id" in rated
            else np.full(n, None),
            2,
        ),
        "round": np.tile(
            rated["round"].to_numpy(object) if "round" in rated else np.full(n, None), 2
        ),
        "day": np.concatenate([day, day]),
    }
    frame = pd.DataFrame(
        {
            "player": np.concatenate(
                [rated["black"].to_numpy(object), rated["white"].to_numpy(object)]
            ),
            "opponent": np.concatenate(
                [rated["white"].to_numpy(object), rated["black"].to_numpy(object)]
            ),
            **common,
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
    h = pd.DataFrame(
        {
            "player": history["player"].astype("str").to_numpy(),
            "day": days_of(history["date"]),
            "rating": history["rating"].to_numpy(float),
            "uncertainty": history["uncertainty"].to_numpy(float),
        }
    )
    games = rated.copy()
    games["_day"] = days_of(rated["date"])
    games["_order"] = np.arange(len(games))
    for side in ("black", "white"):
        side_h = h.rename(
            columns={
                "player": side,
                "day": "_day",
                "rating": f"{side}_rating",
                "uncertainty": f"{side}_uncertainty",
            }
        )
        games = games.merge(side_h, on=[side, "_day"], how="left", validate="many_to_one")
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
        in the order of :func:`rank_order` (rating, then more games, then id).
    """
    as_date(on, "on")
    return _list_on(
        on, _prepare_history(history), _prepare_games(games), _prepare_players(players), rating_on
    )


def _prepare_history(history: pd.DataFrame) -> dict[str, np.ndarray]:
    """player (object), day (datetime64[D]), rating arrays; sorted by player and day."""
    h = pd.DataFrame(
        {
            "player": history["player"].astype("str").to_numpy(),
            "day": days_of(history["date"]),
            "rating": history["rating"].to_numpy(float),
        }
    )
    h = h.sort_values(["player", "day"], kind="stable")
    return {
        "player": h["player"].to_numpy(object),
        "day": h["day"].to_numpy().astype("datetime64[D]"),
        "rating": h["rating"].to_numpy(float),
    }


def _prepare_games(games: pd.DataFrame) -> dict[str, np.ndarray]:
    """player (object), day (datetime64[D]), score arrays of :func:`player_games` output."""
    return {
        "player": games["player"].to_numpy(object),
        "day": games["day"].to_numpy().astype("datetime64[D]"),
        "score": games["score"].to_numpy(float),
    }


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


def _group_bounds(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) positions of the runs of equal values in sorted ``keys``."""
    n = len(keys)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    change = np.flatnonzero(keys[1:] != keys[:-1]) + 1
    starts = np.concatenate([[0], change])
    return starts, np.append(starts[1:], n)


def _list_on(
    on: dt.date,
    h: dict[str, np.ndarray],
    games: dict[str, np.ndarray],
    facts: pd.DataFrame,
    rating_on: RatingOn,
) -> pd.DataFrame:
    """One list, built column by column as arrays (a list is built for every year end)."""
    day = np.datetime64(on, "D")
    keep = games["day"] <= day
    if not keep.any():
        return empty(RATINGS)
    # games are sorted by player then day: each player's rows are one run
    player = games["player"][keep]
    days = games["day"][keep]
    score = games["score"][keep]
    starts, ends = _group_bounds(player)
    ids = player[starts]
    n = len(ids)

    def total(mask: np.ndarray) -> np.ndarray:
        return np.add.reduceat(mask.astype(np.int64), starts)

    columns: dict[str, Any] = {
        "games": ends - starts,
        "wins": total(score == 1.0),
        "draws": total(score == 0.5),
        "losses": total(score == 0.0),
        **{f"gy{y}": total(days > np.datetime64(years_before(on, y), "D")) for y in WINDOWS_YEARS},
        "first_game": days[starts],
        "last_game": days[ends - 1],
    }
    index = pd.Index(ids)

    now = rating_on(on)
    at = index.get_indexer(now["player"].astype("str").to_numpy(object))
    rated = at >= 0
    rating = np.full(n, np.nan)
    rating[at[rated]] = now["rating"].to_numpy(float)[rated]
    has_uncertainty = "uncertainty" in now
    uncertainty = np.full(n, np.nan)
    if has_uncertainty:
        uncertainty[at[rated]] = now["uncertainty"].to_numpy(float)[rated]
    established = None
    if "established" in now:
        established = np.zeros(n, dtype=bool)
        established[at[rated]] = now["established"].to_numpy(bool)[rated]
    unrated = np.isnan(rating) | (np.isnan(uncertainty) if has_uncertainty else False)
    if unrated.any():
        missing = ids[unrated]
        raise ValueError(
            f"rating_on({on}) gave no rating for {len(missing)} players with rated games up to "
            f"that day (e.g. {list(missing[:5])}); it must rate every player from their first "
            "rating day on (docs/solver.md)"
        )

    # best rating of each player: the first day of the maximum (rows are sorted by day)
    best_rating, best_date = rating.copy(), columns["last_game"].copy()
    hk = h["day"] <= day
    hp, hd, hr = h["player"][hk], h["day"][hk], h["rating"][hk]
    if len(hp):
        h_starts, h_ends = _group_bounds(hp)
        group = np.repeat(np.arange(len(h_starts)), h_ends - h_starts)
        top = np.maximum.reduceat(hr, h_starts)
        candidates = np.flatnonzero(hr == top[group])
        _, first = np.unique(group[candidates], return_index=True)
        best_at = candidates[first]
        where = index.get_indexer(hp[h_starts])
        found = where >= 0
        best_rating[where[found]] = hr[best_at][found]
        best_date[where[found]] = hd[best_at][found]

    info = facts.reindex(ids)
    name = info["name"].to_numpy(object)
    status_of = status(columns["games"], columns["last_game"], on, established)
    frame = {
        "player": ids,
        "name": np.where(pd.isna(name), ids, name),
        **{c: info[c].to_numpy(object) for c in ("native_name", "country", "country_name")},
        "female": info["female"].to_numpy(object),
        "birth_year": info["birth_year"],
        "rating": rating,
        "uncertainty": uncertainty,
        **columns,
        "best_rating": best_rating,
        "best_date": best_date,
        "status": status_of,
    }

    # list order: active, inactive, provisional, each in rank order
    ranking = pd.DataFrame({"rating": rating, "games": columns["games"], "player": ids})
    within = np.empty(n, dtype=np.int64)
    within[rank_order(ranking)] = np.arange(n)
    status_index = pd.Series(status_of).map({s: i for i, s in enumerate(STATUSES)}).to_numpy()
    order = np.lexsort((within, status_index))
    active = status_of[order] == "active"
    rank = np.cumsum(active)  # active players come first, in rank order
    country = frame["country"][order]
    with_country = active & ~pd.isna(country)
    country_rank = np.zeros(n, dtype=np.int64)
    if with_country.any():
        groups = pd.Series(country[with_country])
        country_rank[with_country] = groups.groupby(groups, sort=False).cumcount().to_numpy() + 1
    arrays = {
        "list_date": pa.array(np.full(n, day), type=pa.date32()),
        "rank": pa.array(rank, mask=~active, type=pa.int32()),
        "country_rank": pa.array(country_rank, mask=~with_country, type=pa.int32()),
    }
    for field in RATINGS:
        if field.name in arrays:
            continue
        if field.name in CHANGE_COLUMNS:  # filled later from the previous list (whr.changes)
            arrays[field.name] = pa.nulls(n, field.type)
            continue
        values = frame[field.name]
        values = values.iloc[order] if isinstance(values, pd.Series) else values[order]
        arrays[field.name] = pa.array(values, type=field.type, from_pandas=True)
    out = to_frame(pa.table(arrays, schema=RATINGS))
    for column in _NULLABLE_INTS:  # as every other list frame has them (conform's dtypes)
        out[column] = out[column].astype("Int32")
    return out


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
    days = days_of(game_days) if len(game_days) else np.array([], "datetime64[D]")
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
    h = _prepare_history(history)
    g = _prepare_games(games)
    facts = _prepare_players(players)
    return {d: _list_on(d, h, g, facts, rating_on) for d in year_ends(g["day"], on)}


def country_list(ratings: pd.DataFrame, country: str) -> pd.DataFrame:
    """The players of one country from a list, in list order (``country_rank`` is their rank)."""
    if not isinstance(country, str):
        raise TypeError(f"country must be a str, got {type(country).__name__}")
    return ratings.loc[ratings["country"] == country].reset_index(drop=True)


def countries(ratings: pd.DataFrame) -> pd.DataFrame:
    """The countries on a list: country, country_name, players, active; sorted by name then code."""
    r = ratings.loc[ratings["country"].notna()]
    out = (
        r.assign(_active=r["status"] == "active")
        .groupby("country", sort=True)
        .agg(
            country_name=("country_name", "first"),
            players=("player", "size"),
            active=("_active", "sum"),
        )
        .reset_index()
    )
    out["_key"] = out["country_name"].fillna(out["country"]).str.casefold()
    return (
        out.sort_values(["_key", "country"], kind="stable")
        .drop(columns="_key")
        .reset_index(drop=True)
    )


def top_five(lists: Mapping[dt.date, pd.DataFrame], places: int = 5) -> pd.DataFrame:
    """The best ``places`` players of each list who played that year.

    As on the RIF's site, only established active players with a rated game in the year up to
    the list date (Gy1 > 0) take part, so that a year's top five are players of that year and
    not a rating left standing by a player who stopped; they are numbered 1..n among themselves
    in the order of :func:`rank_order`.

    Returns
    -------
    pandas.DataFrame
        Columns list_date, rank (among the players who played that year), list_rank (on the
        full list), player, name, country, rating; newest list first, then by rank.
    """
    if places < 1:
        raise ValueError(f"places must be >= 1, got {places}")
    columns = ["list_date", "rank", "list_rank", "player", "name", "country", "rating"]
    parts = []
    for _, frame in sorted(lists.items(), key=lambda item: item[0], reverse=True):
        played = frame.loc[frame["rank"].notna() & (frame["gy1"] > 0)].reset_index(drop=True)
        rank = _numbered(played, np.ones(len(played), dtype=bool))
        top = played.assign(list_rank=played["rank"], rank=rank)
        parts.append(top.loc[top["rank"] <= places].sort_values("rank"))
    if not parts:
        return pd.DataFrame({c: [] for c in columns})
    return pd.concat(parts, ignore_index=True)[columns]


TOP_PLACES = 12  # the RIF site's chart of top players: the first 12 of a list ...
TOP_WITHIN_ELO = 165.0  # ... within 165 points of No. 1


def top_players(
    lists: Mapping[dt.date, pd.DataFrame], top: int = TOP_PLACES, within: float = TOP_WITHIN_ELO
) -> list[str]:
    """Players who, on any of the lists, ranked in the first ``top`` within ``within`` Elo of No. 1.

    The defaults are the RIF site's for its chart of top players (``top.html``): the first 12
    within 165 points of No. 1, on the current list or any year-end list.

    Returns
    -------
    list of str
        Player ids, best peak rank first, then by id.
    """
    if top < 1:
        raise ValueError(f"top must be >= 1, got {top}")
    best: dict[str, int] = {}
    for frame in lists.values():
        ranked = frame.loc[frame["rank"].notna()]
        if ranked.empty:
            continue
        first = ranked["rating"].max()
        chosen = ranked.loc[(ranked["rank"] <= top) & (ranked["rating"] >= first - within)]
        for player, rank in zip(chosen["player"], chosen["rank"], strict=True):
            best[player] = min(best.get(player, rank), int(rank))
    return sorted(best, key=lambda p: (best[p], p))


def women(ratings: pd.DataFrame) -> pd.DataFrame:
    """The women of a list, in list order, with ``rank`` renumbered 1..n among active women.

    ``country_rank`` is left as on the full list.
    """
    female = ratings["female"].fillna(False).astype(bool)
    out = ratings.loc[female].reset_index(drop=True)
    out["rank"] = _numbered(out, (out["status"] == "active").to_numpy(bool))
    return out


GY1_GAMES = 10  # the RIF's "Gy1 >= 10" list: rated games in the year up to the list date


def gy1_list(ratings: pd.DataFrame, min_games: int = GY1_GAMES) -> pd.DataFrame:
    """The RIF's "Gy1 ≥ 10" list: established players with many rated games in the last year.

    A player is on it when established (at least 10 rated games up to the list date) and with
    at least ``min_games`` rated games in the year up to the list date (``gy1``, the window
    (D - 1 year, D]). Such a player is always established active, so also ranked on the
    full list.

    Parameters
    ----------
    ratings : pandas.DataFrame
        One list (schema ``RATINGS``), in list order.
    min_games : int, default 10
        Rated games needed in the last year, >= 1.

    Returns
    -------
    pandas.DataFrame
        The chosen rows in the order of :func:`rank_order`, with the column ``gy1_rank`` added:
        1..n among them; ``rank`` stays the rank on the full list.
    """
    if isinstance(min_games, bool) or not isinstance(min_games, int | np.integer):
        raise TypeError(f"min_games must be an int, got {type(min_games).__name__}")
    if min_games < 1:
        raise ValueError(f"min_games must be >= 1, got {min_games}")
    keep = (ratings["games"] >= ESTABLISHED_GAMES) & (ratings["gy1"] >= min_games)
    out = ratings.loc[keep.fillna(False).astype(bool)].reset_index(drop=True)
    out = out.iloc[rank_order(out)].reset_index(drop=True)
    out["gy1_rank"] = pd.array(np.arange(1, len(out) + 1), dtype="Int32")
    return out


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
    if digits.any():
        number[digits] = text[digits].astype(np.int64).to_numpy()
    key = pd.DataFrame({"text_id": ~digits, "number": number, "text": text.to_numpy()})
    return key.sort_values(["text_id", "number", "text"], kind="stable").index.to_numpy()


def players_index(ratings: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    """Every listed player once, in natural id order (the RIF's ``players.html``/``.json``).

    Parameters
    ----------
    ratings : pandas.DataFrame
        The list on D (schema ``RATINGS``): every player with a rated game up to D.
    players : pandas.DataFrame
        Player facts (schema ``PLAYERS``); ``city`` is taken from here (first row of an id).

    Returns
    -------
    pandas.DataFrame
        Columns player, name, native_name, female, rating (published scale), uncertainty (Elo),
        games, status, rank (null unless established active), birth_year, city, country,
        country_name; one row per player of ``ratings``, sorted by :func:`natural_order`.
    """
    columns = [
        "player",
        "name",
        "native_name",
        "female",
        "rating",
        "uncertainty",
        "games",
        "status",
        "rank",
        "birth_year",
        "country",
        "country_name",
    ]
    out = ratings[columns].iloc[natural_order(ratings["player"])].reset_index(drop=True)
    facts = players.drop_duplicates("player_id", keep="first").set_index("player_id")
    city = facts["city"] if "city" in facts else pd.Series(dtype="str")
    out.insert(len(columns) - 2, "city", city.reindex(out["player"].to_numpy()).to_numpy())
    return out


RENJUNET_GAME_URL = "https://www.renju.net/game/{id}/"  # the game's page on renju.net
_RENJUNET_FILE = r"(?i)(?:^|[/\\])(?:renjunet[^/\\]*|[^/\\]*\.rif(?:\.gz|\.zip)?)$"


def renjunet_games(games: pd.DataFrame) -> np.ndarray:
    """Which games are RenjuNet's own records, so that renju.net has a page for them.

    A game is one when its ``game_id`` is a plain number (RenjuNet's ids; the RIF's manual
    additions were ``G…``, EGF games ``<tournament>:r<round>:…``) and its ``source`` names a
    RenjuNet database file (a name starting with ``renjunet`` or ending in ``.rif``,
    ``.rif.gz`` or ``.rif.zip``). Only results are published; renju.net shows the moves
    under its own licence.

    Parameters
    ----------
    games : pandas.DataFrame
        Games with columns game_id and source (schema ``GAMES`` or ``RATED_GAMES``).

    Returns
    -------
    numpy.ndarray of bool
    """
    missing = [c for c in ("game_id", "source") if c not in games]
    if missing:
        raise ValueError(f"games are missing columns {missing}")
    ids = games["game_id"].astype("str").str.fullmatch(r"[0-9]{1,12}").fillna(False)
    source = games["source"].astype("str").str.contains(_RENJUNET_FILE).fillna(False)
    return (ids & source).to_numpy(bool)


def renjunet_game_url(game_id: str) -> str:
    """The renju.net page of a RenjuNet game id (see :func:`renjunet_games`)."""
    if not isinstance(game_id, str) or not game_id.isdigit() or not game_id.isascii():
        raise ValueError(f"game_id must be a RenjuNet game id (digits), got {game_id!r}")
    return RENJUNET_GAME_URL.format(id=game_id)
