"""The year-end lists as they stood: what the list of each December 31 said, from the record.

A year-end list of the day's tables (``Tables.year_end``) is today's fit read on December 31:
today's estimate of each player's rating that day, which WHR revises with every later result.
The list that stood on December 31 is another: the list of that day (or the last list before it
when none was published on it), as the record keeps it (:mod:`whr.lists.record`: every player of
that list has a row of its day, with the rating, uncertainty, rank and status it published). The
pages show that list, with today's estimate beside it (docs/site.md, *Pages*).

Pure functions of tables, no files and no Prefect.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd

from whr.lists import record as records
from whr.lists.changes import since_each
from whr.lists.listing import natural_order
from whr.tables import RATINGS, conform, days_of

__all__ = ["KINDS", "Stood", "as_they_stood", "published_from"]

KINDS = ("published", "reconstructed", "estimate")
"""What a year-end list of the pages is: the list this site published that stood on December
31; the one the backfill reconstructed (``rif-rating backfill``: the games known then); or,
where the record holds no list up to that day, today's estimate of every rating that day."""


@dataclass(frozen=True)
class Stood:
    """One year-end list as the pages show it.

    Attributes
    ----------
    frame : pandas.DataFrame
        The list (``RATINGS``), in list order: the rating, uncertainty, rank, status and games
        the list that stood on December 31 published (whole Elo), its changes against the one a
        year before; the activity counts and the best rating up to the day as the year-end
        list of the day's tables has them. Today's estimate where ``kind`` is ``estimate``.
    estimate : numpy.ndarray of float
        Each row's today's estimate of the rating on December 31 (the year-end list of the
        day's tables).
    kind : str
        One of :data:`KINDS`.
    day : datetime.date or None
        The day of the list that stood (December 31, or the last list before it); None for an
        estimate.
    """

    frame: pd.DataFrame
    estimate: np.ndarray
    kind: str
    day: dt.date | None


def published_from(record: pd.DataFrame) -> dt.date | None:
    """The first list of the record this site published (``source`` ``list``): the lists before
    it were reconstructed by the backfill. None when the record holds none."""
    days = days_of(record["list_date"][record["source"] == "list"])
    if not len(days):
        return None
    first: dt.date = days.min().astype(dt.date)
    return first


def _stood(frame: pd.DataFrame, record: pd.DataFrame, first: dt.date | None) -> Stood:
    """The year-end list ``frame`` (one December 31 of the day's tables) as it stood."""
    day = frame["list_date"].iloc[0]
    days = days_of(record["list_date"])
    before = days[days <= np.datetime64(day, "D")]
    if not len(frame) or not len(before):
        return Stood(frame, frame["rating"].to_numpy(np.float64), "estimate", None)
    listed: dt.date = before.max().astype(dt.date)
    said = records.shown_on(record, frame["player"], frame["list_date"])
    found = said["list_date"].notna().to_numpy(bool)
    said = said[found].reset_index(drop=True)
    then = frame[found].reset_index(drop=True)
    estimate = then["rating"].to_numpy(np.float64)
    of_the_day = days_of(said["list_date"]) == np.datetime64(listed, "D")
    rank = said["rank"].to_numpy(np.float64)
    then = then.assign(
        rating=said["rating"].to_numpy(np.float64),
        uncertainty=said["uncertainty"].to_numpy(np.float64),
        rank=pd.array(np.where(of_the_day & ~np.isnan(rank), rank, np.nan), dtype="Int32"),
        status=said["status"].to_numpy(object),
        games=said["games"].to_numpy(np.float64).astype(np.int32),
    )
    # list order: the ranked by their rank, then the others by rating, ties by id
    natural = np.empty(len(then), np.int64)
    natural[natural_order(then["player"])] = np.arange(len(then))
    ranked = np.nan_to_num(then["rank"].to_numpy(np.float64, na_value=np.nan), nan=np.inf)
    order = np.lexsort((natural, -then["rating"].to_numpy(np.float64), ranked))
    then = then.iloc[order].reset_index(drop=True)
    kind = "published" if first is not None and listed >= first else "reconstructed"
    return Stood(then, estimate[order], kind, listed)


def as_they_stood(
    year_end: dict[dt.date, pd.DataFrame], record: pd.DataFrame
) -> dict[dt.date, Stood]:
    """Each year-end list (``year_end``: by day, the day's tables' lists of today's fit) as it
    stood, in the same order: the players the lists had by then (a player whose games came in
    later is not on it), with what the list that stood on December 31 published; Change and
    Prev. against the list that stood a year before (none for the first the record holds).

    Parameters
    ----------
    year_end : dict of datetime.date to pandas.DataFrame
        The year-end lists (``RATINGS``), e.g. :func:`whr.lists.by_list_date` of the tables'.
    record : pandas.DataFrame
        The record (``RECORD``) of the day's tables.
    """
    first = published_from(record)
    stood = {day: _stood(frame, record, first) for day, frame in year_end.items()}
    said = {day: s.frame for day, s in stood.items() if s.kind != "estimate"}
    changed = since_each(said)
    out = {}
    for day, s in stood.items():
        if day in changed:
            frame = conform(changed[day], RATINGS)
            s = Stood(frame, s.estimate, s.kind, s.day)
        out[day] = s
    return out
