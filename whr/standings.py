"""Tournament standings, crosstables and each player's tournaments: the rows, no rendering.

Everything is computed in bulk from the rated games as each player sees them
(:func:`whr.lists.player_games` of the ``RATED_GAMES`` table, which carries both players'
ratings on the day of each game) and the fit's history (schema ``HISTORY``): one group by
(player, tournament) for the whole history, so a site can render thousands of tournament and
player pages without recomputing anything per page.

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

import numpy as np
import pandas as pd

__all__ = ["PERFORMANCE_ITERATIONS", "crosstable", "performance", "player_tournaments", "standings"]

_ELO_NATURAL = math.log(10.0) / 400.0
PERFORMANCE_ITERATIONS = 60
"""Bisection steps of :func:`performance` (the bracket shrinks 2**60-fold: far below 0.01 Elo)."""


def _days(values: pd.Series) -> np.ndarray:
    return pd.to_datetime(values).to_numpy().astype("datetime64[D]").astype(np.int64)


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
    for _ in range(PERFORMANCE_ITERATIONS):
        mid = 0.5 * (lo + hi)
        expected = np.bincount(
            group,
            weights=1.0 / (1.0 + np.exp((opp_ok - mid[group]) * _ELO_NATURAL)),
            minlength=n_groups,
        )
        above = expected > target
        hi = np.where(above, mid, hi)
        lo = np.where(above, lo, mid)
    rating = 0.5 * (lo + hi)
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
    player = pg["player"].to_numpy(object)
    tid = pg["tournament_id"].fillna("").astype("str").to_numpy(object)
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
    h_code = pd.Index(p_uniques).get_indexer(history["player"].astype("str").to_numpy(object))
    h_day = _days(history["date"])
    h_rating = history["rating"].to_numpy(np.float64)
    known = h_code >= 0
    h_code, h_day, h_rating = h_code[known], h_day[known], h_rating[known]
    offset = np.int64(1 << 24)  # day numbers are far inside +-2**24 (years 1924..2016 +- 46,000)
    h_key = h_code.astype(np.int64) * (2 * offset) + (h_day + offset)
    h_sort = np.argsort(h_key, kind="stable")
    h_key, h_code, h_rating = h_key[h_sort], h_code[h_sort], h_rating[h_sort]

    def rating_at(days: np.ndarray, side: str) -> np.ndarray:
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
            "player": pd.Series(p_uniques[out_player], dtype="str"),
            "tournament_id": pd.Series(t_uniques[t_code[starts]], dtype="str"),
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
        }
    )
    return frame.sort_values(
        ["player", "last_day", "first_day", "tournament_id"], kind="stable"
    ).reset_index(drop=True)


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
    pg = pg.assign(tournament_id=pg["tournament_id"].fillna("").astype("str"))
    scores = pt.set_index(["tournament_id", "player"])["score"]
    opp_key = pd.MultiIndex.from_arrays([pg["tournament_id"], pg["opponent"].astype("str")])
    opp_score = scores.reindex(opp_key).to_numpy(np.float64)
    buchholz = (
        pd.Series(opp_score)
        .groupby([pg["tournament_id"].to_numpy(), pg["player"].to_numpy()], sort=False)
        .sum()
    )
    key = pd.MultiIndex.from_arrays([pt["tournament_id"], pt["player"]])
    out = pt.assign(buchholz=buchholz.reindex(key).to_numpy(np.float64))
    out = out.sort_values(
        ["tournament_id", "score", "buchholz", "player"],
        ascending=[True, False, False, True],
        kind="stable",
    ).reset_index(drop=True)
    by_t = out.groupby("tournament_id", sort=False)
    out["number"] = by_t.cumcount().to_numpy() + 1
    out["place_first"] = by_t["score"].rank(method="min", ascending=False).astype(np.int64)
    out["place_last"] = by_t["score"].rank(method="max", ascending=False).astype(np.int64)
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
        ("black"/"white"), score (the row player's: 1, 0.5, 0), game_id; sorted by
        tournament_id, number, column, day, game_id.
    """
    tid = pg["tournament_id"].fillna("").astype("str")
    rounds = pg["round"].fillna("").astype("str")
    numbers = table.set_index(["tournament_id", "player"])["number"]
    mine = numbers.reindex(pd.MultiIndex.from_arrays([tid, pg["player"].astype("str")]))
    theirs = numbers.reindex(pd.MultiIndex.from_arrays([tid, pg["opponent"].astype("str")]))
    if mine.isna().any() or theirs.isna().any():
        raise ValueError("table must be the standings of these games (a player has no row)")
    pairs = pd.DataFrame({"tournament_id": tid, "round": rounds}).drop_duplicates()
    pairs = pairs.assign(_key=_natural_rounds(pairs["round"]))
    pairs = pairs.sort_values(["tournament_id", "_key"], kind="stable")
    pairs["column"] = pairs.groupby("tournament_id", sort=False).cumcount()
    column = pairs.set_index(["tournament_id", "round"])["column"]
    out = pd.DataFrame(
        {
            "tournament_id": tid.to_numpy(),
            "number": mine.to_numpy(np.int64),
            "column": column.reindex(pd.MultiIndex.from_arrays([tid, rounds])).to_numpy(np.int64),
            "round": rounds.to_numpy(),
            "opponent": theirs.to_numpy(np.int64),
            "colour": pg["colour"].to_numpy(),
            "score": pg["score"].to_numpy(np.float64),
            "game_id": pg["game_id"].to_numpy(),
            "_day": _days(pg["day"]),
        }
    )
    out = out.sort_values(["tournament_id", "number", "column", "_day", "game_id"], kind="stable")
    return out.drop(columns="_day").reset_index(drop=True)
