"""The backfill's tables in the published tree: ``OUT/archive/<list>/replay/<D>/``.

A replay is a directory named by the day ``D`` whose database ``rif-rating backfill`` replayed
(its ``--as-of``), laid out like an archive entry: ``tournament_changes.parquet`` (schema
``whr.tables.TOURNAMENT_CHANGES``: each tournament's change at the time), ``record.parquet``
(``whr.tables.RECORD``: what the replayed lists said about every player) and ``manifest.json``,
which records what the files are and what they were computed from: every file's size, rows and
sha256; the list; the parameters of its lists (as a day's manifest records them, ``as_of``
being the replayed day); the digest of the database read (``input_sha256``); the last day
replayed (``until``); the newest day the archive held when it was written (``archive``: its
day and input digest); the versions of the software; when.

:func:`whr.publish.backfill.write_replay` writes it, recorded in the ledger
(:mod:`whr.publish.ledger`); the daily run never writes one.

:func:`check` is the check of the replays of a list, which every run (its repair) and
``rif-rating --verify`` make, as they check the days: a replay is an archive entry, checked by
the one check of an entry (:func:`whr.publish.archive.entry.check`): the ledger must hold it
(one it does not hold was not written into this tree by ``rif-rating backfill``: it is
foreign), its manifest must be the version the ledger records, name the list and the day, and
list its tables, each there with its size and sha256, and nothing else. Then it is used only
when it was computed with the parameters of the list's newest published day (a stale one is
not) and replayed the database the list of its day was computed from, when that day is
published (one whose day was republished from another input since is not). Every other replay
is reported with what to do, and never used. The daily run reads the newest replay that
checks (:meth:`Checked.newest`) and carries its rows into the list's own tables for the days
before the archive (:mod:`whr.publish.previous`).
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from whr.publish.archive.entry import REPLAY_AGAIN, REPLAY_FILES, Entry
from whr.publish.archive.entry import check as check_entry
from whr.publish.files import kind, read_parquet
from whr.publish.layout import DAY, Channel, Layout, real_dir
from whr.publish.ledger import Records
from whr.tables import RECORD, TOURNAMENT_CHANGES

__all__ = ["FILES", "Checked", "Replay", "check"]

FILES = dict(zip(REPLAY_FILES, (TOURNAMENT_CHANGES, RECORD), strict=True))
"""The tables of a replay, by file name."""

OLD_FILE = re.compile(r"\d{4}-\d{2}-\d{2}\.parquet")
"""A replay as format 5 wrote it: one file of changes, without a manifest."""

_AGAIN = REPLAY_AGAIN


@dataclass(frozen=True)
class Replay:
    """A replay that checks (:func:`check`)."""

    channel: Channel
    day: dt.date
    path: Path
    manifest: dict[str, Any]

    @property
    def until(self) -> dt.date:
        """The last day replayed."""
        return dt.date.fromisoformat(str(self.manifest.get("until") or self.day))

    def changes(self) -> pd.DataFrame:
        """Each tournament's change at the time (``TOURNAMENT_CHANGES``)."""
        return read_parquet(self.path / "tournament_changes.parquet", TOURNAMENT_CHANGES)

    def record(self) -> pd.DataFrame:
        """What the replayed lists said (``RECORD``)."""
        return read_parquet(self.path / "record.parquet", RECORD)


@dataclass(frozen=True)
class Checked:
    """What :func:`check` found: the replays that check (oldest first) and a sentence per
    one that does not, naming it, what is wrong and what to do."""

    good: list[Replay] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    """A sentence per symbolic link where a replay would be: never followed, never used."""
    foreign: list[str] = field(default_factory=list)
    """A sentence per replay the ledger does not hold: not written into this tree by
    ``rif-rating backfill``, never used."""

    @property
    def newest(self) -> Replay | None:
        """The replay of the newest database among those that check."""
        return self.good[-1] if self.good else None


def _same(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The parameters (but the day) in which two records differ, as ``name a (b)``."""
    keys = sorted((set(a) | set(b)) - {"as_of"})
    return [f"{k} {a.get(k)!r} (the list's {b.get(k)!r})" for k in keys if a.get(k) != b.get(k)]


def _usable(found: Entry, published: list[Entry]) -> str | None:
    """Why a replay that checks cannot be used by the list of ``published`` (its days that
    check, oldest first), or None: it was computed with other parameters than the list's
    newest day (stale), or it replayed another database than the one its own day's list was
    computed from (the day was republished from another input since)."""
    path, day, manifest = found.path, found.day, found.manifest
    parameters: dict[str, Any] = manifest.get("parameters") or {}
    if not isinstance(parameters, dict):
        parameters = {}
    if published:
        newest = published[-1]
        differ = _same(parameters, newest.manifest.get("parameters") or {})
        if differ:
            return (
                f"{path} was computed with other parameters than the list of {newest.day}: "
                f"{', '.join(differ)}; it is stale and not used: {_AGAIN} with the list's "
                f"parameters, or delete {path}"
            )
    replayed = manifest.get("input_sha256")
    own = next((e for e in published if e.day == day), None)
    if own is not None and own.manifest.get("inputs_sha256") != replayed:
        return (
            f"{path} replayed the database {replayed}, but the list of {day} was computed from "
            f"{own.manifest.get('inputs_sha256')} (republished from another input since the "
            f"backfill); it is not used: {_AGAIN} on the input of that day, or delete {path}"
        )
    return None


def check(
    layout: Layout,
    channel: Channel,
    published: list[Entry],
    hashes: dict[Path, Any] | None = None,
    records: Records | None = None,
) -> Checked:
    """Check every replay of ``channel`` as an entry of the archive (the one check of
    :func:`whr.publish.archive.entry.check`: its manifest against the ledger, its tables against
    the manifest), then whether the list of ``published`` (its days that check, oldest first)
    can use it; see the module's notes.

    ``hashes`` (:func:`whr.publish.checksums.cached_sha256`) spares hashing a file twice in a
    run. Directories and files whose names start with ``.`` (work in progress of a backfill,
    which the next one finishes or removes) are not replays. Raises
    :class:`whr.publish.layout.TreeError` when the replays' directory is a symbolic link.
    """
    folder = layout.archive(channel) / "replay"
    hashes = {} if hashes is None else hashes
    records = Records.read(layout.out) if records is None else records
    found = Checked()
    for recorded in records.ledger.replays(layout, channel) if records.authority else []:
        if kind(folder / recorded.isoformat()) is None:
            rec = records.ledger.recorded(folder / recorded.isoformat() / "manifest.json")
            found.bad.append(
                f"{folder / recorded.isoformat()}: the replay is missing, which {records.ledger.path} "
                f"(line {rec.seq if rec else '?'}) records: it was removed after rif-rating "
                f"backfill wrote it; restore it from a copy of the published tree, or {_AGAIN}"
            )
    if not real_dir(folder):
        return found
    for path in sorted(folder.iterdir()):
        name, what = path.name, kind(path)
        if name.startswith("."):
            continue
        day = _day(name) if what == "dir" else None
        if day is not None:
            expected = records.expected(path / "manifest.json")
            if expected is None or not expected.versions:
                holder = "the ledger" if records.authority else str(records.sums.path)
                (found.foreign if records.authority else found.bad).append(
                    f"{path} is a replay {holder} does not hold: rif-rating backfill did not "
                    f"write it into this tree; it is not used: {_AGAIN}, or delete {path}"
                )
                continue
            checked = check_entry(path, day, channel, expected, hashes, kind="replay")
            if not isinstance(checked, Entry):
                found.bad.append(
                    f"{checked.problem}; it is not used; {checked.fix}, or delete {path}"
                )
                continue
            why = _usable(checked, published)
            if why is None:
                found.good.append(Replay(channel, day, path, checked.manifest))
            else:
                found.bad.append(why)
        elif OLD_FILE.fullmatch(name) and what == "file":
            found.bad.append(
                f"{path} is a replay written before replays had a manifest (format 5): it is "
                f"not used; {_AGAIN}, then delete {path}"
            )
        elif what == "link":
            found.ignored.append(
                f"{path} is a symbolic link (to {os.readlink(path)}), not a replay: a run never "
                "follows a link out of the tree, so it is not used; put the replay itself there "
                "(rif-rating backfill writes it) or remove the link"
            )
        else:
            found.bad.append(
                f"{path} is a {what}, not a replay rif-rating backfill wrote (a directory named "
                f"by its day, with a manifest): it is not used; delete it"
            )
    return found


def _day(name: str) -> dt.date | None:
    if not DAY.fullmatch(name):
        return None
    try:
        return dt.date.fromisoformat(name)
    except ValueError:
        return None
