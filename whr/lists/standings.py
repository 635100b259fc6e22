"""Tournament standings, crosstables and each player's tournaments: the rows, no rendering.

Everything is computed in bulk from the rated games as each player sees them
(:func:`whr.lists.player_games` of the ``RATED_GAMES`` table, which carries both players'
ratings on the day of each game) and the fit's history (schema ``HISTORY``): one group by
(player, tournament) for the whole history, so a site can render thousands of tournament and
player pages without recomputing anything per page.

Ids (``player``, ``opponent``, ``tournament_id``) may be text or integer codes, and come out as
they came in: a caller that numbers players and tournaments once (as the site does) passes the
numbers and saves the work on text; game ids and rounds may likewise come as categories.

Definitions
-----------
score
    Points in the tournament's rated games: 1 a win, 1/2 a draw, 0 a loss.
performance
    The rating at which a player's expected score against the opponents' ratings on the days of
    the games equals the score actually made, with the expected score of the WHR model (Coulom
    2008; Bradley-Terry on the Elo scale: ``1 / (1 + 10 ** ((r_opponent - r) / 400))``). With
    every game won (lost) no finite rating does that; the performance of a score half a point
    lower (higher) is given instead, marked ``at_least`` (``at_most``).
rating before, rating after
    The player's rating on their last rating day before their first game in the tournament
    (none for a player's first tournament) and on their last game day in it; today's
    whole-history estimates, as on the rating chart. The change over the event is the
    difference.
place
    By score; players with equal scores share the place (``place_first`` to ``place_last``).
    The rows of a crosstable are numbered by score, then Buchholz (the sum of the opponents'
    scores in the tournament), then player id; a crosstable cell names the opponent by that
    number, as the EGF table format does. A tournament's own tie-breaks are not in the data.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
import pandas as pd

from whr.tables import days_of

__all__ = [
    "PERFORMANCE_ITERATIONS",
    "PERFORMANCE_TOLERANCE_ELO",
    "PerformanceError",
    "crosstable",
    "performance",
    "player_tournaments",
    "standings",
]

_ELO_NATURAL = math.log(10.0) / 400.0
PERFORMANCE_ITERATIONS = 200
"""At most this many steps of :func:`performance` (Newton steps converge in a handful; a step
that would leave the bracket halves it instead, so 200 steps shrink any bracket far below
``PERFORMANCE_TOLERANCE_ELO``)."""
PERFORMANCE_TOLERANCE_ELO = 1e-7
"""The search stops when no group's performance moved more than this in a step, Elo."""


class PerformanceError(ArithmeticError):
    """The performance search ran out of steps; it should not happen (see the message)."""


def _days(values: pd.Series) -> np.ndarray:
    """Dates as day numbers since 1970-01-01 (int64), through the one date converter."""
    return days_of(values).astype(np.int64)


def performance(
    opponent_rating: np.ndarray, group: np.ndarray, score: np.ndarray, n_groups: int
) -> tuple[np.ndarray, np.ndarray]:
    """The performance rating of each group of games (see the module docstring).

    Parameters
    ----------
    opponent_rating : numpy.ndarray of float
        Each game's opponent rating, Elo (published scale).
    group : numpy.ndarray of int
        Each game's group, in ``[0, n_groups)`` (any order).
    score : numpy.ndarray of float
        Each group's score, points (sum of 1, 0.5, 0 over its games).
    n_groups : int
        The number of groups; every group must have at least one game.

    Returns
    -------
    rating : numpy.ndarray of float
        Elo; NaN for a group with an opponent rating missing.
    bound : numpy.ndarray of int8
        0 exact; 1 at least (every game won); -1 at most (every game lost).

    Raises
    ------
    ValueError
        If the arrays do not match, a group has no games or a score is outside [0, games].
    """
    opp = np.asarray(opponent_rating, dtype=np.float64)
    group = np.asarray(group, dtype=np.int64)
    score = np.asarray(score, dtype=np.float64)
    if opp.shape != group.shape or score.shape != (n_groups,):
        raise ValueError(
            "opponent_rating and group must have one entry per game and score one per group, "
            f"got shapes {opp.shape}, {group.shape} and {score.shape} for {n_groups} groups"
        )
    if len(group) and (group.min() < 0 or group.max() >= n_groups):
        raise ValueError(f"group must be in [0, {n_groups}), got {group.min()}..{group.max()}")
    n = np.bincount(group, minlength=n_groups).astype(np.float64)
    if (n == 0).any():
        raise ValueError(f"every group needs a game; group {int(np.argmin(n))} has none")
    if ((score < 0) | (score > n)).any():
        raise ValueError("score must be in [0, games] for every group")
    missing = np.bincount(group, weights=np.isnan(opp), minlength=n_groups) > 0
    opp_ok = np.where(np.isnan(opp), 0.0, opp)
    bound = np.where(score >= n, 1, np.where(score <= 0, -1, 0)).astype(np.int8)
    target = np.clip(score, 0.5, n - 0.5)
    big = np.finfo(np.float64).max
    low_opp = np.full(n_groups, big)
    np.minimum.at(low_opp, group, opp_ok)
    high_opp = np.full(n_groups, -big)
    np.maximum.at(high_opp, group, opp_ok)
    # expected score at lo is at most n * 10**-(log10(n) + 2) = 0.01 < 1/2: the root is inside
    margin = 400.0 * (np.log10(n) + 2.0)
    lo, hi = low_opp - margin, high_opp + margin
    mean = np.bincount(group, weights=opp_ok, minlength=n_groups) / n
    rating = np.clip(mean + 400.0 * np.log10(target / (n - target)), lo, hi)  # exact: all equal
    # safeguarded Newton: a Newton step, or the bracket's middle when the step leaves it
    for _ in range(PERFORMANCE_ITERATIONS):
        p = 1.0 / (1.0 + np.exp((opp_ok - rating[group]) * _ELO_NATURAL))
        excess = np.bincount(group, weights=p, minlength=n_groups) - target
        slope = np.bincount(group, weights=p * (1.0 - p), minlength=n_groups) * _ELO_NATURAL
        hi = np.where(excess > 0, rating, hi)
        lo = np.where(excess < 0, rating, lo)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = rating - excess / slope
        # the bracket closed: a converged step lands on the end just moved to the rating, and
        # bisecting from there instead would take some 35 steps more
        step = np.where((step >= lo) & (step <= hi), step, 0.5 * (lo + hi))
        moved = np.abs(step - rating)
        rating = step
        if moved.max(initial=0.0) < PERFORMANCE_TOLERANCE_ELO:
            break
    else:
        raise PerformanceError(
            f"performance did not converge in {PERFORMANCE_ITERATIONS} steps (last change "
            f"{moved.max():.3g} Elo); report the games of this group, it should not happen"
        )
    return np.where(missing, np.nan, rating), bound


def _natural_rounds(rounds: pd.Series) -> np.ndarray:
    """Sort keys for round labels: numeric rounds by number first, then the others as text."""
    text = rounds.fillna("").astype("str").reset_index(drop=True)
    number = pd.to_numeric(text, errors="coerce")
    frame = pd.DataFrame(
        {"text_round": number.isna().to_numpy(), "number": number.fillna(0.0), "text": text}
    )
    order = frame.sort_values(["text_round", "number", "text"], kind="stable").index.to_numpy()
    key = np.empty(len(frame), np.int64)
    key[order] = np.arange(len(frame))
    return key


def player_tournaments(pg: pd.DataFrame, history: pd.DataFrame) -> pd.DataFrame:
    """One row per player and tournament: score, performance, rating before and after.

    Parameters
    ----------
    pg : pandas.DataFrame
        The rated games as each player sees them: :func:`whr.lists.player_games` of the rated
        games with both ratings on the day (schema ``RATED_GAMES``).
    history : pandas.DataFrame
        The fit's history (schema ``HISTORY``).

    Returns
    -------
    pandas.DataFrame
        Columns player, tournament_id ("" when the games name none), first_day, last_day
        (datetime64[D]: the player's first and last game day in it), games, wins, draws, losses,
        score (points), opponent_mean (mean opponent rating, Elo), performance (Elo),
        performance_bound (int8: 0 exact, 1 at least, -1 at most), rating_before (NaN for the
        player's first tournament), rating_after, rating_change (Elo, NaN without a rating
        before). Sorted by player, last_day, first_day, tournament_id.
    """
    columns = {
        "player": pd.Series([], dtype="str"),
        "tournament_id": pd.Series([], dtype="str"),
        "first_day": np.array([], "datetime64[D]"),
        "last_day": np.array([], "datetime64[D]"),
        **{c: np.array([], np.int64) for c in ("games", "wins", "draws", "losses")},
        **{c: np.array([], np.float64) for c in ("score", "opponent_mean", "performance")},
        "performance_bound": np.array([], np.int8),
        **{c: np.array([], np.float64) for c in ("rating_before", "rating_after", "rating_change")},
    }
    if pg.empty:
        return pd.DataFrame(columns)
    player = _ids(pg["player"])
    tid = _ids(pg["tournament_id"])
    day = _days(pg["day"])
    score = pg["score"].to_numpy(np.float64)
    opp = pg["opponent_rating"].to_numpy(np.float64)
    p_code, p_uniques = pd.factorize(player, sort=True)
    t_code, t_uniques = pd.factorize(tid, sort=True)
    order = np.lexsort((day, t_code, p_code))
    p_code, t_code, day, score, opp = (a[order] for a in (p_code, t_code, day, score, opp))
    change = np.flatnonzero((np.diff(p_code) != 0) | (np.diff(t_code) != 0)) + 1
    starts = np.concatenate([[0], change])
    ends = np.append(starts[1:], len(order))
    group = np.repeat(np.arange(len(starts)), ends - starts)
    count = ends - starts
    points = np.add.reduceat(score, starts)
    perf, bound = performance(opp, group, points, len(starts))
    out_player = p_code[starts]
    first_day, last_day = day[starts], day[ends - 1]

    # ratings from the history: the last rating day before the first game, and on the last one
    h_code = pd.Index(p_uniques).get_indexer(_ids(history["player"]))
    h_day = _days(history["date"])
    h_rating = history["rating"].to_numpy(np.float64)
    known = h_code >= 0
    h_code, h_day, h_rating = h_code[known], h_day[known], h_rating[known]
    offset = np.int64(1 << 24)  # day numbers are far inside +-2**24 (years 1924..2016 +- 46,000)
    h_key = h_code.astype(np.int64) * (2 * offset) + (h_day + offset)
    h_sort = np.argsort(h_key, kind="stable")
    h_key, h_code, h_rating = h_key[h_sort], h_code[h_sort], h_rating[h_sort]

    def rating_at(days: np.ndarray, side: Literal["left", "right"]) -> np.ndarray:
        key = out_player.astype(np.int64) * (2 * offset) + (days + offset)
        at = np.searchsorted(h_key, key, side=side) - 1
        ok = (at >= 0) & (h_code[np.maximum(at, 0)] == out_player)
        return np.where(ok, h_rating[np.maximum(at, 0)], np.nan)

    before = rating_at(first_day, "left")  # strictly before the first game day
    after = rating_at(last_day, "right")  # on (or, if missing, before) the last game day
    wins = np.add.reduceat((score == 1.0).astype(np.int64), starts)
    draws = np.add.reduceat((score == 0.5).astype(np.int64), starts)
    frame = pd.DataFrame(
        {
            "player": _column(np.asarray(p_uniques)[out_player]),
            "tournament_id": _column(np.asarray(t_uniques)[t_code[starts]]),
            "first_day": first_day.astype("datetime64[D]"),
            "last_day": last_day.astype("datetime64[D]"),
            "games": count,
            "wins": wins,
            "draws": draws,
            "losses": count - wins - draws,
            "score": points,
            "opponent_mean": np.add.reduceat(opp, starts) / count,
            "performance": perf,
            "performance_bound": bound,
            "rating_before": before,
            "rating_after": after,
            "rating_change": after - before,
        },
        copy=False,  # fresh arrays: no need to copy them into 2-D blocks
    )
    return frame.sort_values(
        ["player", "last_day", "first_day", "tournament_id"], kind="stable"
    ).reset_index(drop=True)


def _codes(*arrays: np.ndarray) -> tuple[list[np.ndarray], int]:
    """Integer codes of the values of several arrays, in sorted value order (shared codes)."""
    codes, uniques = pd.factorize(np.concatenate(arrays), sort=True)
    bounds = np.cumsum([0, *(len(a) for a in arrays)])
    return [codes[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)], len(uniques)


def _ids(column: pd.Series) -> np.ndarray:
    """Ids as a numpy array: integer codes as they are, text with "" for a missing id."""
    if pd.api.types.is_integer_dtype(column.dtype):
        return column.to_numpy(np.int64)
    return column.fillna("").astype("str").to_numpy(object)


def _factorize(column: pd.Series, sort: bool = False) -> tuple[np.ndarray, pd.Index]:
    """``pd.factorize`` of a column as text: codes and labels, the labels in order of appearance
    or, with ``sort``, as text.

    A categorical column (as the site passes game ids and rounds) is factorized by its codes,
    with the same result, instead of by a string per row.
    """
    if isinstance(column.dtype, pd.CategoricalDtype):
        labels, codes = column.cat.categories.astype("str"), column.cat.codes.to_numpy(np.int64)
        if not (codes < 0).any():
            used = pd.unique(codes)  # in order of appearance
            if sort and labels.is_monotonic_increasing:  # the site's are sorted
                used = np.sort(used)
            elif sort:
                used = used[np.argsort(labels.take(used).to_numpy(object), kind="stable")]
            code_of = np.empty(len(labels), np.int64)
            code_of[used] = np.arange(len(used))
            return code_of[codes], labels.take(used)
    return pd.factorize(column.astype("str"), sort=sort)


def _column(values: np.ndarray) -> pd.Series:
    """An output column: kept as numpy values (text stays Python objects, no conversion)."""
    return pd.Series(values, dtype=object if values.dtype == object else values.dtype)


def _new_runs(*keys: np.ndarray) -> np.ndarray:
    """Where a run of equal keys (all of ``keys`` equal) starts, for grouped rows."""
    n = len(keys[0])
    new = np.zeros(n, bool)
    if n:
        new[0] = True
        for k in keys:
            new[1:] |= k[1:] != k[:-1]
    return new


def _run_starts(new: np.ndarray) -> np.ndarray:
    """For each row, the position where its run starts (``new`` from :func:`_new_runs`)."""
    return np.maximum.accumulate(np.where(new, np.arange(len(new)), 0))


def _run_ends(new: np.ndarray) -> np.ndarray:
    """For each row, the position after the last row of its run."""
    ends: np.ndarray = np.r_[np.flatnonzero(new)[1:], len(new)]
    out: np.ndarray = ends[np.cumsum(new) - 1]
    return out


def standings(pg: pd.DataFrame, tournaments: pd.DataFrame) -> pd.DataFrame:
    """Each tournament's standings: numbered rows with place, score and Buchholz.

    Parameters
    ----------
    pg : pandas.DataFrame
        The rated games as each player sees them (:func:`whr.lists.player_games`).
    tournaments : pandas.DataFrame
        The output of :func:`player_tournaments` for these games.

    Returns
    -------
    pandas.DataFrame
        The columns of ``tournaments`` plus number (the row, 1 = first), place_first and
        place_last (the shared place by score) and buchholz (sum of the opponents' scores in
        the tournament, one term per game); sorted by tournament_id, number.
    """
    pt = tournaments
    (t_pt, t_pg), _ = _codes(_ids(pt["tournament_id"]), _ids(pg["tournament_id"]))
    (p_pt, p_pg, o_pg), n_players = _codes(
        _ids(pt["player"]), _ids(pg["player"]), _ids(pg["opponent"])
    )
    rows = pd.Index(t_pt.astype(np.int64) * n_players + p_pt)
    me = rows.get_indexer(t_pg.astype(np.int64) * n_players + p_pg)
    them = rows.get_indexer(t_pg.astype(np.int64) * n_players + o_pg)
    if (me < 0).any() or (them < 0).any():
        raise ValueError("tournaments must be player_tournaments of these games (a row is missing)")
    score = pt["score"].to_numpy(np.float64)
    buchholz = np.bincount(me, weights=score[them], minlength=len(pt))
    order = np.lexsort((p_pt, -buchholz, -score, t_pt))
    out = pt.iloc[order].reset_index(drop=True).assign(buchholz=buchholz[order])
    t, sc = t_pt[order], score[order]
    first_row = _run_starts(_new_runs(t))  # of the tournament
    equal = _new_runs(t, sc)  # runs of equal scores share a place
    out["number"] = np.arange(len(out)) - first_row + 1
    out["place_first"] = _run_starts(equal) - first_row + 1
    out["place_last"] = _run_ends(equal) - first_row
    return out


def crosstable(pg: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """The crosstable cells: each rated game twice, once in each player's row.

    Parameters
    ----------
    pg : pandas.DataFrame
        The rated games as each player sees them (:func:`whr.lists.player_games`).
    table : pandas.DataFrame
        The output of :func:`standings` for these games.

    Returns
    -------
    pandas.DataFrame
        Columns tournament_id, number (the row), column (the round's position among the
        tournament's rounds, 0 first: numeric rounds by number, then others as text), round
        (the label, "" when not recorded), opponent (the opponent's row number), colour
        ("black"/"white"), score (the row player's: 1, 0.5, 0), game_id; round, colour and
        game_id are categorical (a label per distinct value, not per row); sorted by
        tournament_id, number, column, day, game_id.
    """
    tid = _ids(pg["tournament_id"])
    (t_table, t_pg), _ = _codes(_ids(table["tournament_id"]), tid)
    (p_table, p_pg, o_pg), n_players = _codes(
        _ids(table["player"]), _ids(pg["player"]), _ids(pg["opponent"])
    )
    rows = pd.Index(t_table.astype(np.int64) * n_players + p_table)
    me = rows.get_indexer(t_pg.astype(np.int64) * n_players + p_pg)
    them = rows.get_indexer(t_pg.astype(np.int64) * n_players + o_pg)
    if (me < 0).any() or (them < 0).any():
        raise ValueError("table must be the standings of these games (a player has no row)")
    number = table["number"].to_numpy(np.int64)
    # rounds: numbered by the natural order of their labels, then per tournament from 0
    r_code, labels = _factorize(pg["round"].fillna(""))
    natural = _natural_rounds(pd.Series(np.asarray(labels, dtype=object), dtype=object))
    key = t_pg.astype(np.int64) * (len(labels) + 1) + natural[r_code]
    pair, pairs = pd.factorize(key, sort=True)
    column_of_pair = np.arange(len(pairs)) - _run_starts(_new_runs(pairs // (len(labels) + 1)))
    column = column_of_pair[pair]
    game_code, game_ids = _factorize(pg["game_id"], sort=True)
    # one coding of the colours whatever the column's type: pd.factorize of a categorical (as
    # the site passes) numbers them by first appearance, and those codes read against its
    # categories swapped every colour when the first row was a White game
    colour = pd.Categorical(pg["colour"], categories=["black", "white"])
    order = np.lexsort((game_code, _days(pg["day"]), column, number[me], t_pg))
    return pd.DataFrame(
        {
            "tournament_id": _column(tid[order]),
            "number": number[me][order],
            "column": column[order],
            "round": pd.Categorical.from_codes(r_code[order], categories=labels),
            "opponent": number[them][order],
            "colour": colour.take(order),
            "score": pg["score"].to_numpy(np.float64)[order],
            "game_id": pd.Categorical.from_codes(game_code[order], categories=game_ids),
        },
        copy=False,  # fresh arrays: no need to copy them into 2-D blocks
    )
