"""The tables a day publishes, as one value (:class:`Tables`), and the year-end lists in them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd
import pyarrow as pa

from whr.tables import (
    EXCLUSIONS,
    HISTORY,
    PLAYERS,
    RATED_GAMES,
    RATINGS,
    RECORD,
    TOURNAMENT_CHANGES,
    TOURNAMENTS,
    days_of,
)

__all__ = ["Tables", "by_list_date"]


@dataclass(frozen=True)
class Tables:
    """The tables a day publishes, each a frame of its schema (:attr:`SCHEMAS`)."""

    ratings: pd.DataFrame  # the list on the day, with its changes
    year_end: pd.DataFrame  # the list on every December 31, newest first, one after another
    history: pd.DataFrame  # the fit's rating history, by player and date
    games: pd.DataFrame  # the rated games with both players' ratings that day
    players: pd.DataFrame  # as read, by id
    tournaments: pd.DataFrame  # as read, by id
    exclusions: pd.DataFrame  # every game read and not rated, with its reason
    # each tournament's change at the time, carried forward from list to list
    tournament_changes: pd.DataFrame
    # what the lists said about every player (whr.lists.record), carried forward too
    record: pd.DataFrame

    SCHEMAS: ClassVar[dict[str, pa.Schema]] = {
        "ratings": RATINGS,
        "year_end": RATINGS,
        "history": HISTORY,
        "games": RATED_GAMES,
        "players": PLAYERS,
        "tournaments": TOURNAMENTS,
        "exclusions": EXCLUSIONS,
        "tournament_changes": TOURNAMENT_CHANGES,
        "record": RECORD,
    }
    """File stem -> schema, in the order the tables are written."""

    def items(self) -> Iterator[tuple[str, pd.DataFrame, pa.Schema]]:
        """``(name, frame, schema)`` of every table, in :attr:`SCHEMAS`' order."""
        for name, schema in self.SCHEMAS.items():
            yield name, getattr(self, name), schema


def by_list_date(year_end: pd.DataFrame) -> dict[dt.date, pd.DataFrame]:
    """The lists of a ``year_end`` table (RATINGS, each list's rows together), by list date in
    the table's order; each a slice of the table, not a copy (at 1M games the year-end lists
    are a third of the memory of a whole publish)."""
    days = days_of(year_end["list_date"])
    if not len(days):
        return {}
    starts = np.flatnonzero(np.r_[True, days[1:] != days[:-1]])
    ends = [*starts[1:], len(days)]
    out = {}
    for a, b in zip(starts, ends, strict=True):
        day = year_end["list_date"].iloc[a]
        if day in out:
            raise ValueError(f"the year_end table has the rows of the list of {day} apart")
        out[day] = year_end.iloc[a:b].reset_index(drop=True)
    return out
