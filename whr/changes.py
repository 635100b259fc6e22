"""What changed between two rating lists of one category: rating change and previous rank.

Plain functions on lists in the ``RATINGS`` schema (rows, no rendering). A list published today
is compared with the list published before it (the lead's publishing passes it in); a year-end
list with the year-end list a year before it. Both are today's whole-history estimates: WHR
revises the past, so a player without new games can move too (the split of a change into the
part due to the player's own new games and the part due to everybody else's is computed by the
engine and stored beside, in ``change_own_games`` and ``change_others``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import numpy as np
import pandas as pd
from pandas.api.extensions import take

__all__ = ["since", "since_each", "with_split"]

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
    at = pd.Index(previous["player"].astype("str")).get_indexer(ratings["player"].astype("str"))
    old_rating = take(previous["rating"].astype("float64").to_numpy(), at, allow_fill=True)
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


def with_split(ratings: pd.DataFrame, split: pd.DataFrame | None) -> pd.DataFrame:
    """``ratings`` with ``change_own_games`` and ``change_others`` from the engine's split.

    Parameters
    ----------
    ratings : pandas.DataFrame
        A list (schema ``RATINGS``) whose ``rating_change`` :func:`since` filled.
    split : pandas.DataFrame or None
        :func:`whr.engine.split_rating_change`'s frame (``player``, ``rating_change``,
        ``change_own_games``, ``change_others``), or None when it could not be computed (no
        previous list, or one without its rating history): the two columns stay null.

    Returns
    -------
    pandas.DataFrame
        A new frame; players new to the list keep nulls.

    Raises
    ------
    ValueError
        If the split's change of a player differs from ``rating_change`` by more than 1e-6 Elo
        (the two are computed apart from the same lists and must agree).
    """
    out = ratings.copy()
    if split is None or split.empty:
        return out
    parts = split.set_index("player").reindex(out["player"])
    known = out["rating_change"].notna().to_numpy() & parts["rating_change"].notna().to_numpy()
    gap = np.abs(out["rating_change"].to_numpy(float) - parts["rating_change"].to_numpy(float))
    if known.any() and np.nanmax(np.where(known, gap, 0.0)) > 1e-6:
        worst = out["player"].to_numpy()[np.argmax(np.where(known, gap, 0.0))]
        raise ValueError(
            f"the split of the rating change disagrees with the lists for player {worst!r}"
        )
    for column in ("change_own_games", "change_others"):
        out[column] = np.where(known, parts[column].to_numpy(float), np.nan)
    return out
