"""What changed between two rating lists of one category: rating change, previous rank, and why.

Plain functions on lists in the ``RATINGS`` schema (rows, no rendering). A list published today
is compared with the list published before it (:func:`whr.lists.build` is given it); a year-end
list with the year-end list a year before it. Both are today's whole-history estimates: WHR
revises the past, so a player without new games can move too: :func:`split_rating_change`
splits a change into the part due to the player's own new games and the part due to everybody
else's (``change_own_games`` and ``change_others``, filled in by :func:`with_split`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
from pandas.api.extensions import take

from whr import core
from whr.core import ConvergenceError
from whr.engine import PUBLISHED_OFFSET, Fit, FitParams, build_problem, rating_days
from whr.tables import as_date

__all__ = ["since", "since_each", "split_rating_change", "with_split"]

EPOCH = dt.date(1970, 1, 1)

_NEEDED = ("player", "rating", "rank")


def _check(frame: object, name: str) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(
            f"{name} must be a pandas.DataFrame (a RATINGS list), got {type(frame).__name__}"
        )
    missing = [c for c in _NEEDED if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} must have the RATINGS columns {list(_NEEDED)}; missing {missing}")
    if frame["player"].duplicated().any():
        twice = frame.loc[frame["player"].duplicated(), "player"].iloc[0]
        raise ValueError(f"{name} must list each player once, got {twice!r} twice")
    return frame


def _list_date(frame: pd.DataFrame) -> dt.date | None:
    if "list_date" not in frame.columns or frame.empty:
        return None
    days = pd.unique(frame["list_date"])
    return days[0] if len(days) == 1 else None


def since(ratings: pd.DataFrame, previous: pd.DataFrame | None) -> pd.DataFrame:
    """``ratings`` with ``rating_change`` and ``previous_rank`` taken from the previous list.

    Parameters
    ----------
    ratings : pandas.DataFrame
        A list (schema ``RATINGS``; at least ``player``, ``rating``, ``rank``).
    previous : pandas.DataFrame or None
        The previous published list of the same category (schema ``RATINGS``), or None when
        there is none. An empty frame counts as none.

    Returns
    -------
    pandas.DataFrame
        A new frame, rows and other columns as in ``ratings``, with ``rating_change`` (float,
        Elo: the rating minus the rating on ``previous``; NaN for a player not on ``previous``,
        i.e. a new player, and for everybody when there is no previous list) and
        ``previous_rank`` (nullable Int32: the rank on ``previous``; null when the player was not
        ranked there, i.e. not established active, or not on it).

    Raises
    ------
    TypeError
        If ``ratings`` or ``previous`` is not a DataFrame (``previous`` may be None).
    ValueError
        If a required column is missing, a player is listed twice, or ``previous`` is dated on
        or after ``ratings`` (both with one ``list_date``).
    """
    ratings = _check(ratings, "ratings")
    if previous is not None:
        previous = _check(previous, "previous")
        day, before = _list_date(ratings), _list_date(previous)
        if day is not None and before is not None and not before < day:
            raise ValueError(
                f"previous must be a list dated before the list's {day}, got one of {before}"
            )
    if previous is None or previous.empty:
        n = len(ratings)
        return ratings.assign(
            rating_change=np.full(n, np.nan), previous_rank=pd.array([None] * n, dtype="Int32")
        )
    # each player's row on the previous list; -1 (not on it) takes a missing value
    at = pd.Index(previous["player"].astype("str")).get_indexer(
        pd.Index(ratings["player"].astype("str"))
    )
    old_rating = np.asarray(
        take(previous["rating"].astype("float64").to_numpy(), at, allow_fill=True), dtype=float
    )
    old_rank = take(pd.to_numeric(previous["rank"], errors="raise").array, at, allow_fill=True)
    return ratings.assign(
        rating_change=ratings["rating"].astype("float64").to_numpy() - old_rating,
        previous_rank=pd.Series(old_rank).round().astype("Int32").array,
    )


def since_each(lists: Mapping[dt.date, pd.DataFrame]) -> dict[dt.date, pd.DataFrame]:
    """Each list with its changes since the list of the next earlier date among ``lists``.

    For the year-end lists: each December 31 compared with the December 31 a year before; the
    earliest list has no previous one (all changes null).

    Parameters
    ----------
    lists : mapping of datetime.date to pandas.DataFrame
        Lists (schema ``RATINGS``) by list date, in any order.

    Returns
    -------
    dict of datetime.date to pandas.DataFrame
        The same keys in the same order, each list through :func:`since`.
    """
    if not isinstance(lists, Mapping):
        raise TypeError(f"lists must be a mapping of dates to lists, got {type(lists).__name__}")
    days = sorted(lists)
    earlier = {day: (lists[days[i - 1]] if i else None) for i, day in enumerate(days)}
    return {day: since(frame, earlier[day]) for day, frame in lists.items()}


AGREE = 1e-3
"""Elo: how far a split's change may be from the change the lists give (the nearest float32 of
a rating is within 0.000244 Elo of it below 4096)."""


def with_split(ratings: pd.DataFrame, split: pd.DataFrame | None) -> pd.DataFrame:
    """``ratings`` with ``change_own_games`` and ``change_others`` from the engine's split.

    Parameters
    ----------
    ratings : pandas.DataFrame
        A list (schema ``RATINGS``) whose ``rating_change`` :func:`since` filled.
    split : pandas.DataFrame or None
        :func:`split_rating_change`'s frame (``player``, ``rating_change``,
        ``change_own_games``, ``change_others``), or None when it could not be computed (no
        previous list, or one without its rating history): the two columns stay null.

    Returns
    -------
    pandas.DataFrame
        A new frame; players new to the list keep nulls.

    Raises
    ------
    ValueError
        If the split's change of a player differs from ``rating_change`` by more than
        :data:`AGREE` (the two are computed apart from the same fits and must agree, but for the
        previous list's values being published as float32: :func:`whr.tables.month_exact`).
    """
    out = ratings.copy()
    if split is None or split.empty:
        return out
    parts = split.set_index("player").reindex(out["player"])
    known = out["rating_change"].notna().to_numpy() & parts["rating_change"].notna().to_numpy()
    gap = np.abs(out["rating_change"].to_numpy(float) - parts["rating_change"].to_numpy(float))
    if known.any() and np.nanmax(np.where(known, gap, 0.0)) > AGREE:
        worst = out["player"].to_numpy()[np.argmax(np.where(known, gap, 0.0))]
        raise ValueError(
            f"the split of the rating change disagrees with the lists for player {worst!r}"
        )
    for column in ("change_own_games", "change_others"):
        out[column] = np.where(known, parts[column].to_numpy(float), np.nan)
    return out


def split_rating_change(
    previous_history: pd.DataFrame | pa.Table,
    previous_as_of: dt.date,
    fit: Fit,
    as_of: dt.date,
    games: pd.DataFrame | pa.Table,
) -> pd.DataFrame:
    """Split each player's rating change since the previous list into own games and others.

    For a player ``p`` on both lists, with ``r_prev`` their rating on the previous list (day
    ``previous_as_of``, from ``previous_history``) and ``r_new`` their rating on the new list
    (day ``as_of``, from ``fit``):

    - ``r_own``: ``p``'s whole history re-estimated on ``p``'s games of the new list, by
      Newton's method on ``p``'s ratings alone, with every opponent held at their rating in the
      previous solution on the game's day (:meth:`Fit.rating_on`'s rule; an opponent new to the
      list, or seen on a day before their first previous rating day, at their new rating).
      This is the previous solution with ``p``'s new games added and nobody else moved: the
      previous ratings are the maximum of this same conditional posterior on the previous
      games (at the joint maximum every player is at their own conditional maximum; Coulom
      2008, section 3.3), so a player without new games gets ``r_own = r_prev``;
    - ``change_own_games = r_own - r_prev``: what the player's own new (or removed) games did;
    - ``change_others = r_new - r_own``: what WHR's re-estimation of the past did, from other
      players' new results (opponents moving, and through them the player's past).

    The two add up to ``rating_change = r_new - r_prev`` exactly (up to rounding, ~1e-12 Elo).
    Only the players whose own games changed are updated (:func:`_own_games`, at the cost of
    one pass over their games per Newton step); the others have ``change_own_games`` exactly 0.
    The parameters are the new fit's; if they changed since the previous list, the change of
    parameters is counted in ``change_own_games`` for the players with games of their own and
    in ``change_others`` otherwise.

    Parameters
    ----------
    previous_history : pandas.DataFrame or pyarrow.Table
        The previous list's rating history (``whr.tables.HISTORY``, e.g. its
        ``history.parquet`` read back): ``player``, ``date``, ``rating`` (published scale).
    previous_as_of : datetime.date
        The previous list's date.
    fit : Fit
        The new fit.
    as_of : datetime.date
        The new list's date (on or after ``previous_as_of``).
    games : pandas.DataFrame or pyarrow.Table
        The games ``fit`` was fitted on (all of them, not only the new ones: the new ones are
        found by comparison with ``previous_history``).

    Returns
    -------
    pandas.DataFrame
        One row per player rated on ``as_of`` by ``fit``, sorted by player: ``player`` (str),
        ``rating_change``, ``change_own_games``, ``change_others`` (Elo; NaN, a null in Arrow,
        for a player not rated on the previous list).

    Raises
    ------
    TypeError
        If an argument has the wrong type (naming it).
    ValueError
        If ``as_of`` is before ``previous_as_of``, ``games`` are not the games of ``fit``, or a
        table is malformed (naming the column and row).
    ConvergenceError
        If the players' updates do not converge within ``fit.params.max_newton_iterations``.
    """
    previous_as_of = as_date(previous_as_of, "previous_as_of")
    as_of = as_date(as_of, "as_of")
    if as_of < previous_as_of:
        raise ValueError(f"as_of must be on or after previous_as_of {previous_as_of}, got {as_of}")
    if not isinstance(fit, Fit):
        raise TypeError(f"fit must be a whr.Fit, got {type(fit).__name__}")
    params = fit.params
    labels, problem, _ = build_problem(games, params)
    if not fit.fitted_on(labels, problem):
        raise ValueError(
            f"games must be the games fit was fitted on: they give {problem.n} player-days of "
            f"{labels.size} players, fit has {fit.n_player_days} of {fit.n_players}"
        )
    prev = rating_days(previous_history, "previous_history")
    day0, day1 = (previous_as_of - EPOCH).days, (as_of - EPOCH).days
    new_elo = fit.ratings_elo
    players = np.arange(labels.size)
    r_new, _, last = core.rating_on_days(
        problem.pd_player, problem.pd_day, new_elo, players, np.full(players.size, day1)
    )
    listed = players[last >= 0]
    to_prev = prev.index(labels)  # each new player's index in the previous history; -1: none
    r_prev = prev.on(to_prev[listed], np.full(listed.size, day0))
    # every player-day at its previous rating (opponents are held there); new ones at their new
    opp = prev.on(to_prev[problem.pd_player], problem.pd_day)
    opp = np.where(np.isnan(opp), new_elo, opp)
    both = listed[~np.isnan(r_prev)]
    own = _own_games(problem, opp, both, labels.size, params)
    r_own = np.full(listed.size, np.nan)
    r_own[np.searchsorted(listed, both)] = core.rating_on_days(
        problem.pd_player,
        problem.pd_day,
        own,
        both,
        np.full(both.size, day1),
    )[0]
    return pd.DataFrame(
        {
            "player": pd.Series(labels[listed], dtype="str"),
            "rating_change": r_new[listed] - r_prev,
            "change_own_games": r_own - r_prev,
            "change_others": r_new[listed] - r_own,
        }
    )


def _own_games(
    problem: core.Problem, opp: np.ndarray, both: np.ndarray, n_players: int, params: FitParams
) -> np.ndarray:
    """Every player-day's rating (published scale) with each of the players ``both`` (on both
    lists) re-estimated alone, everyone else held at ``opp`` (their previous ratings).

    At ``opp`` the gradient of each player's conditional posterior is the joint one. Where it is
    below the fit's ``tol_grad_per_natural_unit`` on all of a player's days (no games of their
    own changed: new games, removed games, a corrected result), the previous ratings are the
    answer. The others are updated at once, as one conditional problem that splits into
    independent players (:func:`whr.core.conditional` with ``joint=False``): minus its Hessian
    is exactly the tridiagonal block preconditioner, so each Newton step costs one pass over
    their games.
    """
    opp_natural = (opp - PUBLISHED_OFFSET) * core.NATURAL_PER_ELO
    g = np.abs(core.gradient(problem, opp_natural))
    worst = np.zeros(n_players)
    np.maximum.at(worst, problem.pd_player, g)
    movers = both[worst[both] >= params.tol_grad_per_natural_unit]
    own = opp.copy()  # published scale: the previous ratings exactly where nothing moves
    free = np.flatnonzero(np.isin(problem.pd_player, movers))
    if free.size:
        alone = core.conditional(problem, opp_natural, free, joint=False)
        try:
            solution = core.solve(
                alone,
                opp_natural[free],
                tol_elo=params.tol_elo,
                tol_grad=params.tol_grad_per_natural_unit,
                max_iter=params.max_newton_iterations,
                jitter=0.0,
            )
        except ConvergenceError as exc:
            raise ConvergenceError(
                f"split_rating_change: the one-player updates did not converge: {exc}"
            ) from exc
        own[free] = solution.r * core.ELO_PER_NATURAL + PUBLISHED_OFFSET
    return own
