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

:func:`write_replay` writes it whole: into a work directory beside it, then exchanged with the
replay of the same day, if any (``renameat2`` on Linux), under the tree's lock, never through a
symbolic link; the daily run never writes one.

:func:`check` is the one check of the replays of a list, which every run (its repair) and
``rif-rating --verify`` make, as they check the days: a replay is used only when its manifest
reads and names the list and the day, every file it lists is there with its size and sha256
(a truncated or altered file is not), it holds no other file, it was computed with the
parameters of the list's newest published day (a stale one, computed with others, is not), the
database it replayed is the one the list of its day was computed from when that day is
published (a stale one, of another input, is not), and the day it names as the archive's newest
when it was written is a day of this archive with that input (a foreign one, written into
another tree, is not). Every other replay is reported with what to do, and never used. The
daily run reads the newest replay that checks (:meth:`Checked.newest`) and carries its rows
into the list's own tables for the days before the archive (:mod:`whr.publish.commit`).
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from whr.publish.checksums import Checksums, check_file
from whr.publish.files import (
    exchange,
    kind,
    make_dir,
    parquet_metadata,
    read_bytes,
    read_parquet,
    remove,
    sync_dir,
    token,
)
from whr.publish.layout import DAY, Channel, Layout, real_dir
from whr.publish.lock import hold
from whr.publish.parquet import jsonable, versions, write_entry
from whr.tables import FORMAT_VERSION, RECORD, TOURNAMENT_CHANGES

if TYPE_CHECKING:
    from whr.publish.archive import Entry

__all__ = ["FILES", "Checked", "Replay", "check", "write_replay"]

FILES = {"tournament_changes.parquet": TOURNAMENT_CHANGES, "record.parquet": RECORD}
"""The tables of a replay, by file name."""

OLD_FILE = re.compile(r"\d{4}-\d{2}-\d{2}\.parquet")
"""A replay as format 5 wrote it: one file of changes, without a manifest."""

_AGAIN = "run rif-rating backfill again (it writes the replay anew)"


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

    @property
    def newest(self) -> Replay | None:
        """The replay of the newest database among those that check."""
        return self.good[-1] if self.good else None


def _same(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The parameters (but the day) in which two records differ, as ``name a (b)``."""
    keys = sorted((set(a) | set(b)) - {"as_of"})
    return [f"{k} {a.get(k)!r} (the list's {b.get(k)!r})" for k in keys if a.get(k) != b.get(k)]


def _check_one(
    path: Path,
    day: dt.date,
    channel: Channel,
    published: list[Entry],
    hashes: dict[Path, Any],
    sums: Checksums,
) -> Replay | str:
    """The replay at ``path`` when it checks, else the sentence that says why not."""
    from whr.publish.archive import StateError, read_json

    fix = f"it is not used; {_AGAIN}, or delete {path}"
    where = path / "manifest.json"
    try:
        manifest = read_json(where, "the replay's manifest", fix)
    except StateError as exc:
        return str(exc)
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        return f"{where}: not a replay's manifest (no files listed); {fix}"
    named: dict[str, Any] = manifest["list"] if isinstance(manifest.get("list"), dict) else {}
    if manifest.get("kind") != "replay" or manifest.get("as_of") != day.isoformat():
        return f"{where} is not the manifest of the replay of {day}; {fix}"
    if named != {"category": channel.category, "variant": channel.variant}:
        return (
            f"{path} is a replay of another list ({named.get('category')}, variant "
            f"{named.get('variant')}), not of {channel}: it is foreign here; {fix}"
        )
    files = manifest["files"]
    problems = []
    missing = sorted(set(FILES) - set(files))
    if missing:
        problems.append(f"its manifest lists no {', '.join(missing)}")
    for name, info in files.items():
        file = path / name
        if name not in FILES or not isinstance(info, dict):
            problems.append(f"its manifest lists {name!r}, not a table of a replay")
        else:
            wrong = check_file(file, info, hashes, "its manifest")
            if wrong is not None:
                problems.append(f"{file} {wrong} (damaged or altered)")
    extra = sorted(
        p.name for p in path.iterdir() if p.name not in files and p.name != "manifest.json"
    )
    if extra:
        problems.append(f"{path} holds files its manifest does not list ({', '.join(extra)})")
    if problems:
        return f"{'; '.join(problems)}; {fix}"
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
    by_day = {e.day: e for e in published}
    anchor = manifest.get("archive")
    if isinstance(anchor, dict):
        at = anchor.get("day")
        entry = (
            by_day.get(dt.date.fromisoformat(at))
            if isinstance(at, str) and DAY.fullmatch(at)
            else None
        )
        if entry is None or entry.manifest.get("inputs_sha256") != anchor.get("inputs_sha256"):
            return (
                f"{path} was written into another published tree (its archive's newest day "
                f"was {at}, input {anchor.get('inputs_sha256')}, which this archive does not "
                f"hold): it is foreign here; {fix}"
            )
    replayed = manifest.get("input_sha256")
    own = by_day.get(day)
    if own is not None and own.manifest.get("inputs_sha256") != replayed:
        return (
            f"{path} replays another input ({replayed}) than the list of {day} was computed "
            f"from ({own.manifest.get('inputs_sha256')}); it is stale and not used: {_AGAIN} "
            f"on the input of that day, or delete {path}"
        )
    if sums.problem is None:  # last: the other checks say more of what it is
        recorded = sums.recorded(where)
        wrong = (
            "is not recorded in " + str(sums.path) + " (rif-rating backfill records every "
            "replay it writes)"
            if recorded is None
            else check_file(where, recorded, hashes, str(sums.path))
        )
        if wrong is not None:
            return f"{where} {wrong}: it was not written as it is by rif-rating backfill; {fix}"
    return Replay(channel, day, path, manifest)


def check(
    layout: Layout,
    channel: Channel,
    published: list[Entry],
    hashes: dict[Path, Any] | None = None,
    sums: Checksums | None = None,
) -> Checked:
    """Check every replay of ``channel`` against its manifest, its manifest against the
    record of checksums (``OUT/archive/checksums.json``, read when ``sums`` is None), and the
    replay against the list's archive (``published``: its entries that check, oldest first);
    see the module's notes.

    ``hashes`` (:func:`whr.publish.archive.cached_sha256`) spares hashing a file twice in a run.
    Directories and files whose names start with ``.`` (work in progress of a backfill, which
    the next one removes) are not replays. Raises :class:`whr.publish.layout.TreeError` when
    the replays' directory is a symbolic link.
    """
    folder = layout.archive(channel) / "replay"
    if not real_dir(folder):
        return Checked()
    hashes = {} if hashes is None else hashes
    sums = Checksums.read(layout.out) if sums is None else sums
    good: list[Replay] = []
    bad: list[str] = []
    ignored: list[str] = []
    for path in sorted(folder.iterdir()):
        name, found = path.name, kind(path)
        if name.startswith("."):
            continue
        if DAY.fullmatch(name) and found == "dir":
            try:
                day = dt.date.fromisoformat(name)
            except ValueError:
                day = None
            if day is not None:
                checked = _check_one(path, day, channel, published, hashes, sums)
                if isinstance(checked, Replay):
                    good.append(checked)
                else:
                    bad.append(checked)
                continue
        if OLD_FILE.fullmatch(name) and found == "file":
            bad.append(
                f"{path} is a replay written before replays had a manifest (format 5): it is "
                f"not used; {_AGAIN}, then delete {path}"
            )
        elif found == "link":
            ignored.append(
                f"{path} is a symbolic link (to {os.readlink(path)}), not a replay: a run never "
                "follows a link out of the tree, so it is not used; put the replay itself there "
                "(rif-rating backfill writes it) or remove the link"
            )
        else:
            bad.append(
                f"{path} is a {found}, not a replay rif-rating backfill wrote (a directory named "
                f"by its day, with a manifest): it is not used; delete it"
            )
    return Checked(good, bad, ignored)


def _anchor(layout: Layout, channel: Channel) -> dict[str, Any] | None:
    """The newest published day of ``channel`` that checks: its day and input digest."""
    from whr.publish.archive import scan

    found = scan(layout, channel).good
    if not found:
        return None
    newest = found[-1]
    return {"day": newest.day.isoformat(), "inputs_sha256": newest.manifest.get("inputs_sha256")}


@dataclass(frozen=True)
class _Tables:
    """A replay's tables, as :func:`whr.publish.parquet.write_entry` writes them."""

    changes: pd.DataFrame
    record: pd.DataFrame

    def items(self) -> list[tuple[str, pd.DataFrame, Any]]:
        return [
            ("tournament_changes", self.changes, TOURNAMENT_CHANGES),
            ("record", self.record, RECORD),
        ]


def write_replay(
    out: Path,
    channel: Channel,
    day: dt.date,
    changes: pd.DataFrame,
    record: pd.DataFrame,
    parameters: dict[str, Any],
    *,
    input_sha256: str,
    until: dt.date,
    about: dict[str, Any] | None = None,
    wait: bool = False,
) -> Path:
    """Write the replay of ``channel`` from the games known on ``day``; return its directory.

    Parameters
    ----------
    out : Path
        The published tree.
    channel : Channel
        The list.
    day : datetime.date
        The day whose games were replayed (the backfill's ``as_of``).
    changes, record : pandas.DataFrame
        The tables (``TOURNAMENT_CHANGES``, ``RECORD``).
    parameters : dict
        The parameters of the list, as a day's manifest records them
        (:meth:`whr.run.Run.parameters`); also each file's ``whr.parameters`` metadata, with
        ``until`` and ``input_sha256``.
    input_sha256 : str
        The digest of the database read.
    until : datetime.date
        The last day replayed.
    about : dict, optional
        Further facts for the manifest (days replayed, ranges).
    wait : bool
        Wait for a run that holds the tree's lock instead of failing at once.

    Raises
    ------
    whr.publish.LockedError
        When another run holds the lock and ``wait`` is false.
    whr.publish.TreeError
        When a directory on the way is a symbolic link (or not a directory).
    """
    layout = Layout(Path(out))
    target = layout.replay(channel, day)
    with hold(layout.out, wait=wait):
        here = layout.out
        for part in target.parent.relative_to(layout.out).parts:  # each a real directory
            here = here / part
            if not real_dir(here):
                os.mkdir(here)
        for left in target.parent.glob(".*"):  # what a killed write left; the lock is ours
            remove(left)
        info = {
            "format": FORMAT_VERSION,
            "kind": "replay",
            "list": {"category": channel.category, "variant": channel.variant},
            "as_of": day.isoformat(),
            "until": until.isoformat(),
            "input_sha256": input_sha256,
            "parameters": jsonable(parameters),
            "archive": _anchor(layout, channel),
            **jsonable(about or {}),
            "packages": versions(),
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
        work = make_dir(target.parent / f".work-{token()}")
        try:
            write_entry(
                work,
                _Tables(changes, record),
                info,
                metadata=parquet_metadata(
                    jsonable({**parameters, "until": until, "input_sha256": input_sha256})
                ),
            )
            manifest = read_bytes(work / "manifest.json")
            sums = Checksums.read(layout.out)
            sums.expect({target / "manifest.json": manifest})  # recorded before it is in place
            exchange(work, target)
            sync_dir(target.parent)
            sums.written(target / "manifest.json", manifest)
        finally:
            remove(work)
    return target


def read_replay(out: Path, channel: Channel, day: dt.date) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The tables of the replay of ``channel`` from the games known on ``day`` (unchecked: see
    :func:`check`)."""
    path = Layout(Path(out)).replay(channel, day)
    return (
        read_parquet(path / "tournament_changes.parquet", TOURNAMENT_CHANGES),
        read_parquet(path / "record.parquet", RECORD),
    )
