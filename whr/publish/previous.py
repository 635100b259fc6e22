"""The previous list of a kind, and what the next list carries on from it (:func:`previous`).

The changes at the time and the record are carried from list to list (and from the newest
replay of the backfill, before the archive's first list): see ``docs/site.md``.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from whr.lists import Previous
from whr.lists import record as lists_record
from whr.lists.at_the_time import carry
from whr.publish import replay
from whr.publish.archive import (
    Entry,
    StateError,
    read_list,
)
from whr.publish.checksums import check_file
from whr.publish.files import (
    read_parquet,
)
from whr.publish.layout import Channel, Layout
from whr.publish.lock import hold
from whr.publish.repair import Tree, check_and_repair, today
from whr.run import Run
from whr.tables import (
    HISTORY,
    RATED_GAMES,
    RECORD,
    TOURNAMENT_CHANGES,
)

GAMES_ON_LIST = pa.schema([RATED_GAMES.field("game_id"), RATED_GAMES.field("tournament_id")])
"""What is read of the previous list's games: which games and tournaments it had (the rest of
its ``games.parquet`` is not read: a sixth of the time)."""


def _checked(entry: Entry, name: str, schema: pa.Schema, hashes: dict[Path, Any]) -> pd.DataFrame:
    """A table of ``entry``, read after its checksum is checked."""
    wrong = check_file(entry.path / name, entry.manifest["files"][name], hashes, "its manifest")
    if wrong is not None:
        raise StateError(f"{entry.path / name} {wrong}")
    return read_parquet(entry.path / name, schema)


def _changes(
    entry: Entry, replayed: replay.Replay | None, hashes: dict[Path, Any]
) -> pd.DataFrame | None:
    """The changes at the time carried to the list after ``entry``: the entry's own table,
    with the rows of the newest replay that checks (:mod:`whr.publish.replay`) for the
    tournaments it has none of, up to its day (the archive's own rows first: where they
    overlap, the two agree). None when there is neither."""
    name = "tournament_changes.parquet"
    kept = (
        _checked(entry, name, TOURNAMENT_CHANGES, hashes)
        if name in entry.manifest["files"]
        else None
    )
    if replayed is None:
        return kept
    rows = replayed.changes()
    return carry([kept, rows[[d <= entry.day for d in rows["first_list_date"]]]])


def _record(
    entry: Entry,
    published: list[Entry],
    replayed: replay.Replay | None,
    hashes: dict[Path, Any],
) -> pd.DataFrame:
    """The record carried to the list after ``entry``: the entry's own (``record.parquet``)
    or, for an entry written before the record began, the record of every list the archive
    holds up to it (each day's list, read after its checksum was checked); before the
    archive's first list, the newest replay's rows (:func:`whr.lists.record.carry`)."""
    name = "record.parquet"
    if name in entry.manifest["files"]:
        kept = _checked(entry, name, RECORD, hashes)
    else:
        months: dict[Path, pd.DataFrame] = {}  # a month's file read once for its days
        lists = (read_list(e, months) for e in published if e.day <= entry.day)
        kept = lists_record.extend(None, lists)
    start = min(kept["list_date"]) if len(kept) else entry.day
    return lists_record.carry(replayed.record() if replayed else None, kept, start)


def _carried(
    entry: Entry, published: list[Entry], replays: replay.Checked, hashes: dict[Path, Any]
) -> tuple[pd.DataFrame | None, pd.DataFrame | None, tuple[str, ...]]:
    """What the list after ``entry`` carries on: the changes at the time and the record, with
    the newest replay that checks; and what went wrong (a replay that does not check is never
    read; one that cannot be read after all is left out, and said)."""
    said = [*replays.bad, *replays.foreign]
    replayed = replays.newest
    try:
        return (
            _changes(entry, replayed, hashes),
            _record(entry, published, replayed, hashes),
            tuple(said),
        )
    except Exception as exc:
        if replayed is None:
            raise
        said.append(f"{replayed.path} could not be read ({exc}): it is not used; run "
                    "rif-rating backfill again")  # fmt: skip
    return _changes(entry, None, hashes), _record(entry, published, None, hashes), tuple(said)


def _previous(
    published: list[Entry], day: dt.date, replays: replay.Checked, hashes: dict[Path, Any]
) -> Previous | None:
    """The previous list of the same kind: its rows and, when the entry still holds them, its
    rating history (for the split of the changes), its games, its changes at the time and its
    record (for the tournaments new to the next list, and the next list's record). One that
    cannot be read says why; a replay that does not check is never read, and said."""
    earlier = [e for e in published if e.day < day]
    if not earlier:
        return None
    entry = earlier[-1]
    changes, said, warnings = None, None, (*replays.bad, *replays.foreign)
    try:  # what was kept is carried on, even when the list cannot be read
        changes, said, warnings = _carried(entry, published, replays, hashes)
        rows = read_list(entry)  # its checksum was checked by the repair's scan
        if not entry.full:
            return Previous(entry.day, rows, changes=changes, record=said, warnings=warnings)
        return Previous(
            entry.day,
            rows,
            _checked(entry, "history.parquet", HISTORY, hashes),
            games=_checked(entry, "games.parquet", GAMES_ON_LIST, hashes),
            changes=changes,
            record=said,
            warnings=warnings,
        )
    except Exception as exc:  # a damaged Parquet file raises pyarrow's own errors
        what = exc if isinstance(exc, (StateError, OSError)) else f"{type(exc).__name__}: {exc}"
        return Previous(
            entry.day, None, problem=str(what), changes=changes, record=said, warnings=warnings
        )


def previous(run: Run, category: str, tree: Tree | None = None) -> Previous | None:
    """The previous published list of ``category``'s kind before ``run.as_of``, for
    :func:`whr.lists.build`; None when there is none.

    ``tree``: the published tree as the run checked it (:func:`whr.publish.check_and_repair`,
    under the lock the run holds since); without it, the tree is checked here first, as
    :func:`whr.publish.publish` does (a day a killed run left moved aside, or whose manifest is
    restored from its month, counts). Only the days the ledger holds count, up to tomorrow.
    :func:`publish` checks that it is still the previous list. A list that cannot be read is
    returned with ``ratings`` None and the reason, and the new list then shows no changes.
    """
    channel = Channel(category, run.variant)
    if tree is None:
        tree = check_and_repair(run.out, channel, wait=run.wait)
    good = tree.of(channel).shown(today())
    replays = tree.replays.get(channel) or replay.Checked()
    with hold(Layout(run.out).out, wait=run.wait):
        return _previous(good, run.as_of, replays, tree.hashes)
