"""The archive of published days: checking it, keeping it compact, and indexing it.

Every published day of a list has an entry ``OUT/archive/<list>/<D>/`` (see
:mod:`whr.publish.layout`). An entry is created whole, by renaming a verified directory into
place, so a directory with a day's name is complete unless something damaged it; its
``manifest.json`` names the day and lists every file it holds, with size and sha256.

Checked on every run (:func:`scan`), as by ``rif-rating --verify``: every file every manifest
lists, against its sha256, and every manifest against the checksum ``checksums.json`` records
for it (:mod:`whr.publish.checksums`: every archived file is checked against a digest held in
another file). A day that does not check is reported with what to do and left out of the index
until it is repaired; it is never deleted, and its data is never dropped. The run's report is
made of lines that say what each is (:func:`line`).

Compact for years (:func:`compact`): the newest entry of a list holds every table; once a newer
day is published, an entry keeps only its manifest, its list (``ratings.parquet``) and its page
(``index.html``), except on December 31, whose entry keeps every table for ever. When a month
is over, the lists of all its days move into one file, ``months/<YYYY-MM>.<hash>.parquet``,
sorted by player then day (a player's rows of consecutive days differ little, so the month
compresses well; its floats are float32, ``whr.tables.MONTH_LISTS``), and each day's manifest
says where its list now is (``list_in``). The month file also keeps a copy of each of its days'
manifests, from which a lost manifest is restored.

Compaction is a transaction of its own, safe to interrupt anywhere (a kill, a full disk, an
error): a new version of a month's file is written beside the old one under a name of its own
(the start of its sha256), then each day's page and then its manifest are pointed at it, and
only when no manifest names the old version any more is it removed; a manifest is rewritten
before a file it stops listing is removed. So every day's list stays readable through the
archive at every moment, the next run finishes what an interrupted one began, and a month with
a day that cannot be read is left exactly as it is.

The index (:func:`write_index`): ``OUT/published.json`` for programs, ``OUT/datapackage.json``
(the data files and their schemas, :mod:`whr.publish.datapackage`), ``OUT/archive.html`` for
people and ``OUT/index.html`` (a relative redirect to the official renju list), all derived from
the checked archive and rewritten by every run.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import json
import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from whr.digest import bytes_sha256
from whr.publish.checksums import Checksums, check_file
from whr.publish.datapackage import descriptor
from whr.publish.files import (
    is_dir,
    is_file,
    json_text,
    kind,
    link_target,
    parquet_bytes,
    parquet_key_value,
    parquet_metadata,
    read_bytes,
    read_parquet,
    sha256,
    size,
    sync_dir,
    write_bytes,
    write_if_changed,
)
from whr.publish.layout import DAY, HASH_CHARS, MONTH, Channel, Layout, TreeError, real_dir
from whr.tables import FORMAT_VERSION, MONTH_LISTS, RATINGS, conform

KEPT_FILES = {"ratings.parquet"}
"""Data an entry keeps once a newer day is published (unless it is a December 31), beside its
``manifest.json`` and its page ``index.html`` (a view of the data, not listed in the manifest)."""

WHY_COMPACT = (
    "a past day keeps its manifest, its list and its page; every table is kept for the newest "
    "day and for each December 31; rerun the day with --as-of D --force REASON on the input the "
    "manifest names to rebuild the rest"
)

COPIES_KEY = b"whr.manifests"
"""Parquet metadata of a month's file: its days' manifests (without ``list_in``), as
base64 of zlib-compressed JSON ``{"YYYY-MM-DD": manifest}``."""

_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # a file an entry may list


class StateError(RuntimeError):
    """A file of the published tree is damaged; the message names it and says what to do."""


@dataclass(frozen=True)
class Entry:
    """A complete archive entry: one published day of one list."""

    channel: Channel
    day: dt.date
    path: Path
    manifest: dict[str, Any]
    manifest_sha256: str

    @property
    def full(self) -> bool:
        """True when the entry still holds every table (it can be rendered from)."""
        return "history.parquet" in self.manifest.get("files", {})

    @property
    def in_month(self) -> bool:
        """True when the day's list has moved into its month's file."""
        return "ratings.parquet" not in self.manifest["files"]

    @property
    def list_file(self) -> Path:
        """The file that holds the day's list: the entry's own, or its month's."""
        return _list_file(self.path, self.manifest)

    @property
    def list_sha256(self) -> str:
        """The sha256 of :attr:`list_file`, as the manifest records it."""
        info = (
            self.manifest["list_in"] if self.in_month else self.manifest["files"]["ratings.parquet"]
        )
        digest: str = info["sha256"]
        return digest


@dataclass(frozen=True)
class Damaged:
    """A day's entry that does not check: what is wrong, and what can still be used of it."""

    day: dt.date
    path: Path
    problem: str
    """What is wrong, naming the file."""
    fix: str
    """What to do about it."""
    manifest: dict[str, Any] | None
    """The manifest, when it reads, names this day and matches its recorded checksum (None
    otherwise: it is not to be trusted)."""
    list_ok: bool
    """True when the day's list file is there and matches its checksum."""

    @property
    def what(self) -> str:
        """The sentence that names the file, what is wrong, and what to do."""
        return f"{self.problem}; {self.fix}"


REPAIRED, DAMAGED, KEPT, IGNORED, RECORDED = "repaired", "damaged", "kept", "ignored", "recorded"
"""What a line of a run's report says (its first word): something was put right; a file does not
check (with what to do; ``--verify`` then exits 1); something is left as it is because of damage;
something the run does not use (and why); checksums recorded for the first time."""


def line(kind: str, text: str) -> str:
    """A line of the run's report (:data:`REPAIRED`, ...)."""
    return f"{kind}: {text}"


def _republish(path: Path) -> str:
    return (
        f"republish the day (--as-of {path.name} --force REASON, on the input its manifest names)"
    )


def _fix(path: Path, *, restore: str | None = None, known: str = "", newest: bool = False) -> str:
    """What to do about a damaged day: restore ``restore`` from a copy (when a copy can fix it;
    ``known``: how to know the right copy), republish the day, or (but for the newest day,
    which the site shows) drop it."""
    ways = [f"restore {restore} from a copy of the published tree{known}"] if restore else []
    ways.append(_republish(path))
    if not newest:
        ways.append(f"delete {path} to drop the day")
    return ", or ".join(ways)


def _list_file(path: Path, manifest: dict[str, Any]) -> Path:
    if "ratings.parquet" in manifest["files"]:
        return path / "ratings.parquet"
    return Path(os.path.normpath(path / manifest["list_in"]["path"]))


def read_json(path: Path, what: str, fix: str) -> Any:
    """Parse a JSON state file (never through a link); a damaged one raises
    :class:`StateError` naming it and ``fix``."""
    try:
        return json.loads(read_bytes(path).decode("utf-8"))
    except FileNotFoundError:
        raise StateError(f"{path}: {what} is missing; {fix}") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise StateError(f"{path}: {what} is damaged ({exc}); {fix}") from None


def read_manifest(entry: Path) -> dict[str, Any]:
    """The manifest of an archive entry, checked for the keys every manifest has."""
    fix = _fix(entry)
    manifest = read_json(entry / "manifest.json", "the manifest", fix)
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise StateError(f"{entry / 'manifest.json'}: not a manifest (no files listed); {fix}")
    return manifest


def _month(day: dt.date) -> str:
    return f"{day.year:04d}-{day.month:02d}"


def _year_end(day: dt.date) -> bool:
    return (day.month, day.day) == (12, 31)


def _manifest(data: bytes) -> dict[str, Any] | str:
    """The manifest in ``data``, or what is wrong with it."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return f"the manifest is damaged ({exc})"
    if not isinstance(value, dict) or not isinstance(value.get("files"), dict):
        return "not a manifest (no files listed)"
    return value


def check_day(
    path: Path,
    day: dt.date,
    channel: Channel | None,
    level: str,
    hashes: dict[Path, Any],
    sums: Checksums | None = None,
    *,
    newest: bool = False,
    recorded_as: Path | None = None,
) -> Entry | Damaged:
    """Check the entry ``path`` of ``day``; ``level``: ``"sizes"``, ``"list"`` (also the
    sha256 of the day's list) or ``"all"`` (of every file). ``hashes`` caches the sha256 of
    month files, which the days of a month share.

    With ``sums`` (the tree's :class:`whr.publish.checksums.Checksums`), the manifest must also
    match the checksum recorded for it (as ``recorded_as``, when the entry is checked where it
    was moved aside); ``newest``: the day is the newest of its list (its fix is not to drop it).
    """
    file = path / "manifest.json"
    where = recorded_as if recorded_as is not None else file
    versions = sums.recorded(where) if sums is not None else None
    held = (
        f" (its sha256 is {versions[-1]['sha256']}, recorded in {sums.path})"
        if sums and versions
        else ""
    )

    def damaged(problem: str, manifest: dict[str, Any] | None, list_ok: bool, fix: str) -> Damaged:
        return Damaged(day, path, problem, fix, manifest, list_ok)

    def bad_manifest(problem: str) -> Damaged:
        return damaged(problem, None, False, _fix(path, restore="it", known=held, newest=newest))

    try:
        data = read_bytes(file)
    except FileNotFoundError:
        return bad_manifest(f"{file}: the manifest is missing")
    except OSError as exc:
        return bad_manifest(f"{file}: the manifest does not read ({exc})")
    if sums is not None and versions is not None:
        wrong = sums.check_bytes(where, data)
        if wrong is not None:
            return bad_manifest(changed(file, wrong))
    manifest = _manifest(data)
    if isinstance(manifest, str):
        return bad_manifest(f"{file}: {manifest}")
    named = manifest["list"] if isinstance(manifest.get("list"), dict) else {}
    expected = {"category": channel.category, "variant": channel.variant} if channel else None
    if manifest.get("as_of") != day.isoformat() or (
        expected is not None and dict(named) != expected
    ):
        return bad_manifest(
            f"{file} is the manifest of {named.get('category')} {manifest.get('as_of')}, not of "
            "this day"
        )
    listed: dict[str, tuple[Path, dict[str, Any]]] = {}
    for name, info in manifest["files"].items():
        if not _PLAIN.fullmatch(name) or not isinstance(info, dict):
            return bad_manifest(f"{file} lists a bad file name {name!r}")
        listed[name] = (path / name, info)
    into = manifest.get("list_in")
    month = None if into is None else _month_path(into, day)
    if into is not None:
        if month is None:
            given = into.get("path") if isinstance(into, dict) else None
            return bad_manifest(f"{file} names no file of its month for the day's list ({given!r})")
        listed[month] = (Path(os.path.normpath(path / month)), into)
    list_name = "ratings.parquet" if "ratings.parquet" in manifest["files"] else month
    if list_name is None:
        return bad_manifest(f"{file} names no file that holds the day's list")
    problems: list[str] = []
    list_ok = True
    for name, (found, info) in listed.items():
        is_list = name == list_name
        wrong = check_file(
            found,
            info,
            hashes,
            "its manifest" if name != month else f"the manifest {file}",
            digest=level == "all" or (level == "list" and is_list),
        )
        if wrong is not None:
            problems.append(f"{found} {wrong}")
            list_ok = list_ok and not is_list
    if problems:
        if list_name == month and not list_ok:
            at = into.get("sha256") if isinstance(into, dict) else None
            fix = _fix(
                path, restore=str(listed[month][0]), known=f" (its sha256 is {at})", newest=newest
            )
        else:
            one = len(problems) == 1
            fix = _fix(
                path,
                restore="it" if one else "them",
                known=" (the manifest records the sha256 of each)",
                newest=newest,
            )
        return damaged("; ".join(problems), manifest, list_ok, fix)
    return Entry(
        Channel(str(named.get("category")), named.get("variant")),
        day,
        path,
        manifest,
        bytes_sha256(data),
    )


def _month_path(into: object, day: dt.date) -> str | None:
    """The path a manifest's ``list_in`` gives for the day's list when it names a file of the
    day's month (``../months/YYYY-MM....parquet``), else None."""
    where = into.get("path") if isinstance(into, dict) else None
    months = "../months/"
    if not isinstance(where, str) or not where.startswith(months):
        return None
    match = MONTH.fullmatch(where[len(months) :])
    return where if match is not None and match.group(1) == _month(day) else None


def check_entry(entry: Path, *, checksums: bool = False) -> Entry | str:
    """An :class:`Entry` when ``entry`` is complete, else a sentence that says what is wrong.

    Complete: the manifest reads and names the entry's day, every file it lists is there with
    its size (and, with ``checksums``, its sha256), and so is the month file it names for its
    list.
    """
    found = check_day(
        entry, dt.date.fromisoformat(entry.name), None, "all" if checksums else "sizes", {}
    )
    return found if isinstance(found, Entry) else found.what


def verify_files(entry: Entry, hashes: dict[Path, Any] | None = None) -> None:
    """Check the sha256 of every file of ``entry`` (before it is read to render or compare);
    raises :class:`StateError` naming the first that does not match."""
    for name, info in entry.manifest["files"].items():
        wrong = check_file(
            entry.path / name, info, {} if hashes is None else hashes, "its manifest"
        )
        if wrong is not None:
            raise StateError(f"{entry.path / name} {wrong}; {_fix(entry.path)}")


@dataclass
class Scan:
    """What :func:`scan` found in one list's archive."""

    good: list[Entry]
    damaged: list[Damaged]


def scan(
    layout: Layout,
    channel: Channel,
    *,
    hashes: dict[Path, Any] | None = None,
    sums: Checksums | None = None,
) -> Scan:
    """Check every entry of ``channel``: complete entries (oldest first) and damaged ones.

    Every file every manifest lists (a day's list, the December 31 tables, the month files) is
    checked against its sha256, and every manifest against the checksum ``checksums.json``
    records for it (``sums``: the tree's record, read when not given). ``hashes`` (see
    :func:`cached_sha256`) spares a run hashing a file twice.
    """
    days = layout.days(channel)
    hashes = {} if hashes is None else hashes
    sums = Checksums.read(layout.out) if sums is None else sums
    good: list[Entry] = []
    damaged: list[Damaged] = []
    for day in days:
        path = layout.day(channel, day)
        found = check_day(path, day, channel, "all", hashes, sums, newest=day == days[-1])
        if isinstance(found, Entry):
            good.append(found)
        else:
            damaged.append(found)
    return Scan(good, damaged)


def _left_out(d: Damaged) -> str:
    return f"{d.what} (the day is left out of the index until then)"


def read_pointer(layout: Layout, channel: Channel) -> dict[str, Any] | None:
    """The current site's ``latest.json``, or None when it is missing or damaged."""
    try:
        pointer = json.loads(read_bytes(layout.pointer(channel)).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return pointer if isinstance(pointer, dict) else None


def read_list(entry: Entry, months: dict[Path, pd.DataFrame] | None = None) -> pd.DataFrame:
    """The list of an entry's day (RATINGS), from the entry or from its month's file
    (``months``: the month files read so far, by path, to read each once for its days)."""
    if not entry.in_month:
        return read_parquet(entry.list_file, RATINGS)
    month = None if months is None else months.get(entry.list_file)
    if month is None:
        month = read_parquet(entry.list_file, MONTH_LISTS)
        if months is not None:
            months[entry.list_file] = month
    return _day_rows(month, entry.day)


def _day_rows(month: pd.DataFrame, day: dt.date) -> pd.DataFrame:
    return _in_list_order(conform(month.loc[month["list_date"] == day], RATINGS))


def _in_list_order(frame: pd.DataFrame) -> pd.DataFrame:
    """Ranked players by rank, then the others by rating (the order of a published list)."""
    order = frame.sort_values(
        ["rank", "rating", "player"], ascending=[True, False, True], na_position="last"
    )
    return order.reset_index(drop=True)


def _page_href(layout: Layout, path: Path, manifest: dict[str, Any]) -> str:
    return os.path.relpath(_list_file(path, manifest), path)


def day_page(layout: Layout, entry: Entry, ratings: pd.DataFrame, at: Path | None = None) -> bytes:
    """The page of an entry's day (``index.html``): the top of its list, and its data.

    ``at`` is where the entry will be served from, when it is still being prepared elsewhere
    (the page's links are relative to it); by default where it is.
    """
    from whr.publish.site.archive import day_page as html

    home = at if at is not None else entry.path
    text = html(
        entry.manifest,
        ratings,
        list_href=_page_href(layout, entry.path, entry.manifest),  # a sibling: same from ``at``
        site_href=os.path.relpath(layout.site(entry.channel), home) + "/",
        archive_href=os.path.relpath(layout.archive_html, home),
    )
    return text.encode("utf-8")


def write_day_page(layout: Layout, entry: Entry, ratings: pd.DataFrame, sums: Checksums) -> None:
    """Write the page of a published entry's day in place, recorded in ``sums`` first."""
    sums.write(entry.path / "index.html", day_page(layout, entry, ratings))


def page_links_list(layout: Layout, entry: Entry) -> bool:
    """True when the day's page links the file that holds its list (the manifest's)."""
    try:
        page = read_bytes(entry.path / "index.html").decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return f'href="{_page_href(layout, entry.path, entry.manifest)}"' in page


# ---------------------------------------------------------------------------------------------
# The tree as it must be: no link where the run keeps its own files


def check_tree(layout: Layout) -> list[str]:
    """Remove symbolic links planted where the run keeps files of its own; say what was removed.

    A link in place of a day's entry, a moved-aside or work directory, a file of an entry or a
    month, a current site, an index file or ``checksums.json`` is removed (the link, never what
    it points to; the run rebuilds what belongs there or reports the day as damaged). A link in
    place of a directory that holds the archive itself (``archive/``, ``archive/<list>/``,
    ``months/``) raises :class:`whr.publish.layout.TreeError`: removing it would hide the
    archive, so the run refuses and says how to fix it. A link in place of a backfill's replay
    (which the run only reads) is left where it is and said, never followed
    (:func:`whr.publish.replay.check`).
    """
    said: list[str] = []

    def unplant(path: Path) -> None:
        if kind(path) == "link":
            target = link_target(path)
            os.unlink(path)
            said.append(
                line(
                    REPAIRED,
                    f"removed the symbolic link {path} (to {target}): the published tree holds "
                    "its own files, and a run never follows a link out of it",
                )
            )

    for name in ("index.html", "published.json", "datapackage.json", "archive.html"):
        unplant(layout.out / name)
    unplant(Checksums(layout.out).path)
    for channel in layout.channels():  # raises TreeError for a link above the entries
        if channel.variant is not None:  # the directories above a variant's site
            real_dir(layout.out / "variants")
            real_dir(layout.out / "variants" / channel.variant)
        unplant(layout.site(channel))
        root = layout.archive(channel)
        real_dir(layout.months(channel))
        for path in sorted(root.iterdir()):
            if kind(path) == "link":
                unplant(path)
            elif DAY.fullmatch(path.name) and is_dir(path):
                for inner in sorted(path.iterdir()):
                    unplant(inner)
        if is_dir(layout.months(channel)):
            for path in sorted(layout.months(channel).iterdir()):
                unplant(path)
    return said


# ---------------------------------------------------------------------------------------------
# Compaction


def _without(manifest: dict[str, Any], keep: set[str]) -> dict[str, Any]:
    """``manifest`` listing only the files in ``keep``; what left is recorded under
    ``compacted``."""
    files = manifest["files"]
    removed = sorted(set(files) - keep)
    if not removed:
        return manifest
    earlier = (manifest.get("compacted") or {}).get("removed", [])
    return {
        **manifest,
        "files": {k: v for k, v in files.items() if k in keep},
        "compacted": {"removed": sorted({*earlier, *removed}), "why": WHY_COMPACT},
    }


def _in_month(manifest: dict[str, Any], day: dt.date) -> dict[str, Any]:
    """A day's manifest as it is once its list is in its month's file, without ``list_in``
    (the same whatever step of the compaction the manifest is at)."""
    bare = {k: v for k, v in manifest.items() if k != "list_in"}
    return bare if _year_end(day) else _without(bare, set())


def _finish(entry: Entry) -> None:
    """Remove what the manifest records as removed but an interrupted run left behind."""
    gone = set((entry.manifest.get("compacted") or {}).get("removed", [])) - set(
        entry.manifest["files"]
    )
    for name in sorted(gone):
        if _PLAIN.fullmatch(name) and kind(entry.path / name) == "file":
            os.unlink(entry.path / name)


def _trim(entry: Entry, keep: set[str], sums: Checksums) -> Entry:
    """Rewrite the manifest without the files not in ``keep``, then remove those files."""
    manifest = _without(entry.manifest, keep)
    if manifest is entry.manifest:
        return entry
    data = json_text(manifest).encode("utf-8")
    sums.write(entry.path / "manifest.json", data)
    moved = dataclasses.replace(entry, manifest=manifest, manifest_sha256=bytes_sha256(data))
    _finish(moved)
    return moved


def _trimmed(
    entry: Entry, channel: Channel, hashes: dict[Path, Any], sums: Checksums
) -> tuple[Entry, list[str]]:
    """``entry`` trimmed to what a past day keeps, after every file it drops is checked
    again: a damaged file is never removed by the trim, and the day is left as it is, said
    with what to do."""
    if _without(entry.manifest, KEPT_FILES) is entry.manifest:
        return entry, []
    checked = check_day(entry.path, entry.day, channel, "all", hashes, sums)
    if isinstance(checked, Damaged):
        return entry, [line(KEPT, f"left {entry.path} untrimmed: {checked.what}")]
    return _trim(entry, KEPT_FILES, sums), []


def _copies(path: Path) -> dict[str, Any]:
    """The manifests a month file keeps a copy of (empty when it keeps none or is damaged)."""
    try:
        raw = parquet_key_value(path, COPIES_KEY)
        value = json.loads(zlib.decompress(base64.b64decode(raw))) if raw else {}
    except Exception:  # a damaged file: pyarrow's and zlib's own errors
        return {}
    return value if isinstance(value, dict) else {}


def _month_files(layout: Layout, channel: Channel, month: str) -> list[Path]:
    months = layout.months(channel)
    if not is_dir(months):
        return []
    return sorted(
        p
        for p in months.iterdir()
        if (m := MONTH.fullmatch(p.name)) and m.group(1) == month and is_file(p)
    )


def _restore(
    layout: Layout, channel: Channel, month: str, lost: list[Damaged], sums: Checksums
) -> list[str]:
    """Restore the lost or damaged manifests of days of a closed month from the copies its
    files keep (a manifest that does not match the checksum recorded for it is damaged).

    A copy is used only from a file whose sha256 matches its name, when it names the day and
    the file holds the day's rows; of several, the most recent publication of the day. The
    restore is reported as damage found (what was wrong, and that it was restored).
    """
    said: list[str] = []
    found: dict[dt.date, tuple[str, Path, dict[str, Any]]] = {}
    for path in _month_files(layout, channel, month):
        match = MONTH.fullmatch(path.name)
        if not match or not match.group(2) or sha256(path)[:HASH_CHARS] != match.group(2):
            continue
        copies = _copies(path)
        for d in lost:
            copy = copies.get(d.day.isoformat())
            if not isinstance(copy, dict):
                continue
            ok = (
                copy.get("as_of") == d.day.isoformat()
                and copy.get("list") == {"category": channel.category, "variant": channel.variant}
                and isinstance(copy.get("files"), dict)
            )
            if ok and (d.day not in found or str(copy.get("created")) > found[d.day][0]):
                found[d.day] = (str(copy.get("created")), path, copy)
    for d in lost:
        if d.day not in found:
            continue
        _, path, copy = found[d.day]
        rows = read_parquet(path, MONTH_LISTS)
        of_day = _day_rows(rows, d.day)
        if not len(of_day):
            continue
        manifest = {**copy, "list_in": _list_in(path, len(rows), len(of_day))}
        data = json_text(manifest).encode("utf-8")
        sums.write(d.path / "manifest.json", data)
        entry = Entry(channel, d.day, d.path, manifest, bytes_sha256(data))
        if not page_links_list(layout, entry):
            write_day_page(layout, entry, of_day, sums)
        said.append(line(DAMAGED, f"{d.problem}; restored it from the copy kept in {path}"))
    return said


def _list_in(path: Path, rows: int, of_day: int) -> dict[str, Any]:
    return {
        "path": f"../months/{path.name}",
        "sha256": sha256(path),
        "bytes": size(path),
        "rows": rows,
        "rows_of_the_day": of_day,
    }


def _compact_month(
    layout: Layout,
    channel: Channel,
    month: str,
    good: list[Entry],
    damaged: list[Damaged],
    sums: Checksums,
) -> list[str]:
    """Gather the lists of the days of a closed month into one file (see the module)."""
    versions = _month_files(layout, channel, month)
    blocked = [d for d in damaged if d.manifest is None or not d.list_ok]
    if blocked:
        if versions or any(not e.in_month for e in good):
            names = ", ".join(d.day.isoformat() for d in blocked)
            return [
                line(
                    KEPT,
                    f"{layout.months(channel)}/{month}: not compacted while {names} cannot be "
                    "read (above); every file of the month is kept until then",
                )
            ]
        return []
    days: list[tuple[dt.date, Path, dict[str, Any]]] = sorted(
        [(e.day, e.path, e.manifest) for e in good]
        + [(d.day, d.path, d.manifest) for d in damaged if d.manifest is not None]
    )
    homes = {_month_ref(p, m) for _, p, m in days}
    need = (
        None in homes
        or len(homes) > 1
        or not all(is_file(h) for h in homes if h is not None)
        or any("ratings.parquet" in m["files"] and not _year_end(d) for d, _, m in days)
    )
    if need:
        _rewrite_month(layout, channel, month, days, sums)
    # the versions no manifest names any more (a previous one, or one a killed run wrote)
    named = {_month_ref(p, read_manifest(p)) for _, p, _ in days}
    for path in versions:
        if path not in named:
            os.unlink(path)
    return []


def _month_ref(path: Path, manifest: dict[str, Any]) -> Path | None:
    """The month file a manifest names (``list_in``), or None."""
    into = manifest.get("list_in")
    return Path(os.path.normpath(path / into["path"])) if into else None


def _rewrite_month(
    layout: Layout,
    channel: Channel,
    month: str,
    days: list[tuple[dt.date, Path, dict[str, Any]]],
    sums: Checksums,
) -> None:
    """Write the month's new version beside the old, then point each page and manifest at it
    (recorded in ``sums`` first, all at once), then remove the lists the days held
    themselves."""
    sources: dict[Path, pd.DataFrame] = {}
    frames = []
    for day, path, manifest in days:
        home = _list_file(path, manifest)
        if "ratings.parquet" in manifest["files"]:
            frames.append(read_parquet(home, RATINGS))
            continue
        if home not in sources:
            sources[home] = read_parquet(home, MONTH_LISTS)
        day_rows = sources[home].loc[sources[home]["list_date"] == day]
        expected = manifest["list_in"].get("rows_of_the_day")
        if expected is not None and len(day_rows) != expected:
            raise StateError(
                f"{home}: {len(day_rows)} rows of {day}, not the {expected} its manifest "
                f"records; {_fix(path)}"
            )
        frames.append(day_rows)
    merged = pd.concat([f for f in frames if len(f)] or frames[:1], ignore_index=True)
    merged = merged.sort_values(["player", "list_date"], kind="stable").reset_index(drop=True)
    copies = {day.isoformat(): _in_month(manifest, day) for day, _, manifest in days}
    metadata = parquet_metadata() | {
        COPIES_KEY: base64.b64encode(zlib.compress(json_text(copies).encode(), 9))
    }
    data, rows = parquet_bytes(merged, MONTH_LISTS, metadata, dense=True)
    digest = bytes_sha256(data)
    target = layout.month_file(channel, month, digest)
    real_dir(layout.months(channel))
    layout.months(channel).mkdir(exist_ok=True)
    if not (is_file(target) and sha256(target) == digest):
        write_bytes(target, data)
        sync_dir(layout.months(channel))
    info = {"path": f"../months/{target.name}", "sha256": digest, "bytes": len(data),
            "rows": rows}  # fmt: skip
    steps: list[tuple[Entry, dict[Path, bytes]]] = []
    for day, path, manifest in days:
        of_day = merged.loc[merged["list_date"] == day]
        moved = {**copies[day.isoformat()], "list_in": {**info, "rows_of_the_day": len(of_day)}}
        entry = Entry(channel, day, path, moved, "")
        writes = {}
        if _list_file(path, manifest) != target and not _year_end(day):
            ratings = _in_list_order(conform(of_day, RATINGS))
            writes[path / "index.html"] = day_page(layout, entry, ratings)
        if moved != manifest:
            writes[path / "manifest.json"] = json_text(moved).encode("utf-8")
        steps.append((entry, writes))
    sums.expect({p: data for _, writes in steps for p, data in writes.items()})
    for entry, writes in steps:  # each page before its manifest
        for p, data in writes.items():
            write_bytes(p, data)
        _finish(entry)


def compact(
    layout: Layout,
    channel: Channel,
    found: Scan | None = None,
    hashes: dict[Path, Any] | None = None,
    sums: Checksums | None = None,
) -> list[str]:
    """Keep the archive of ``channel`` compact (see the module's docstring); idempotent.

    Safe to interrupt at any point: the next call finishes the work. Returns lines of the
    run's report (:func:`line`): what it could not do and why (a month left as it is while one
    of its days cannot be read), and the manifests it restored. Every manifest and page it
    writes is recorded in ``sums`` (the tree's ``checksums.json``) first.
    """
    hashes = {} if hashes is None else hashes
    sums = Checksums.read(layout.out) if sums is None else sums
    found = found or scan(layout, channel, hashes=hashes, sums=sums)
    if not found.good:
        return []
    said: list[str] = []
    newest = found.good[-1]
    good = []
    for entry in found.good:
        _finish(entry)
        if entry is not newest and not _year_end(entry.day):
            entry, damaged = _trimmed(entry, channel, hashes, sums)
            said += damaged
        good.append(entry)
    months = sorted({_month(e.day) for e in good} | {_month(d.day) for d in found.damaged})
    for month in months:
        if month >= _month(newest.day):
            continue
        of_month = [d for d in found.damaged if _month(d.day) == month]
        lost = [d for d in of_month if d.manifest is None]
        if lost:
            restored = _restore(layout, channel, month, lost, sums)
            if restored:
                said += restored
                again = {
                    d.day: check_day(d.path, d.day, channel, "all", hashes, sums) for d in of_month
                }  # the restored days, checked as any other
                good += [e for e in again.values() if isinstance(e, Entry)]
                good.sort(key=lambda e: e.day)
                of_month = [d for d in again.values() if isinstance(d, Damaged)]
        of_good = [e for e in good if _month(e.day) == month]
        said += _compact_month(layout, channel, month, of_good, of_month, sums)
    # a month whose days were all removed by hand leaves its file behind
    live = {_month(d) for d in layout.days(channel)}
    if is_dir(layout.months(channel)):
        for path in sorted(layout.months(channel).iterdir()):
            match = MONTH.fullmatch(path.name)
            if match and match.group(1) not in live and is_file(path):
                os.unlink(path)
                said.append(
                    line(
                        REPAIRED,
                        f"removed {path}: no day of {match.group(1)} is left in the archive",
                    )
                )
    return said


# ---------------------------------------------------------------------------------------------
# The index


def index(layout: Layout, scans: dict[Channel, Scan] | None = None) -> dict[str, Any]:
    """Everything published under ``layout.out``, as ``published.json`` holds it."""
    lists = []
    for channel in layout.channels():
        found = (scans or {}).get(channel) or scan(layout, channel)
        pointer = read_pointer(layout, channel)
        days = []
        for e in reversed(found.good):
            days.append(
                {
                    "date": e.day.isoformat(),
                    "path": layout.relative(e.path) + "/",
                    "page": layout.relative(e.path / "index.html"),
                    "manifest": layout.relative(e.path / "manifest.json"),
                    "manifest_sha256": e.manifest_sha256,
                    "list": layout.relative(e.list_file),
                    "list_sha256": e.list_sha256,
                    "full": e.full,
                    "forced": e.manifest.get("forced"),
                }
            )
        lists.append(
            {
                "category": channel.category,
                "variant": channel.variant,
                "site": channel.key + "/",
                "latest": pointer.get("date") if pointer else None,
                "days": days,
                "damaged": [_left_out(d) for d in found.damaged],
            }
        )
    return {"format": FORMAT_VERSION, "lists": lists}


INDEX_FILES = ("published.json", "datapackage.json", "archive.html", "index.html")
"""The index files of ``OUT``, rewritten by every run from the checked archive."""


def write_index(
    layout: Layout,
    scans: dict[Channel, Scan] | None = None,
    sums: Checksums | None = None,
    hashes: dict[Path, Any] | None = None,
) -> list[str]:
    """Rewrite ``published.json``, ``datapackage.json``, ``archive.html`` and the root
    ``index.html`` (each only when it changes, recorded in ``checksums.json`` first), then
    settle ``checksums.json`` (:meth:`whr.publish.checksums.Checksums.settle`): the end of
    every run. Returns the line that says which files were recorded for the first time."""
    from whr.publish.site.archive import archive_page, redirect_page

    sums = Checksums.read(layout.out) if sums is None else sums
    hashes = {} if hashes is None else hashes
    found = {
        c: (scans or {}).get(c) or scan(layout, c, hashes=hashes, sums=sums)
        for c in layout.channels()
    }
    value = index(layout, found)
    lists = [
        (channel, checked.good[-1] if checked.good else None, listed["latest"])
        for (channel, checked), listed in zip(found.items(), value["lists"], strict=True)
    ]
    official = [x for x in value["lists"] if x["variant"] is None and x["latest"]]
    renju = [x for x in official if x["category"] == "renju"] or official
    target = renju[0]["site"] + "index.html" if renju else "archive.html"
    category = renju[0]["category"] if renju else "renju"
    texts = (
        json_text(value),
        json_text(descriptor(layout, lists)),
        archive_page(value),
        redirect_page(target, category),
    )
    files = {layout.out / n: t.encode("utf-8") for n, t in zip(INDEX_FILES, texts, strict=True)}
    sums.expect(files)
    for path, data in files.items():
        write_if_changed(path, data)
    days = [e.path for checked in found.values() for e in checked.good]
    added = sums.settle(
        [p / n for p in days for n in ("manifest.json", "index.html")] + list(files), hashes
    )
    if not added:
        return []
    shown = ", ".join(added[:3]) + (f" and {len(added) - 3} more" if len(added) > 3 else "")
    return [
        line(
            RECORDED,
            f"the checksums of {len(added)} file{'s' if len(added) > 1 else ''} that {sums.path} "
            f"did not hold, as they are ({shown}): an archive written before it, or days "
            "copied in; from now on every change to them is found",
        )
    ]


def check_index(layout: Layout, sums: Checksums, hashes: dict[Path, Any]) -> list[str]:
    """A line for each index file of ``OUT`` that does not match its recorded checksum (it is
    rewritten from the archive by :func:`write_index`, which follows)."""
    said = []
    for name in INDEX_FILES:
        wrong = sums.check(layout.out / name, hashes)
        if wrong is not None:
            said.append(line(DAMAGED, f"{changed(layout.out / name, wrong)}; written again "
                                      "from the archive"))  # fmt: skip
    return said


def changed(path: Path, wrong: str) -> str:
    """What it means that ``path`` does not match the checksum recorded for it (``wrong``,
    from :meth:`whr.publish.checksums.Checksums.check`): it was changed (or removed) after the
    run wrote it, since every run records a file before it writes it."""
    if wrong == "is missing":
        return f"{path} is missing: it was removed after the run wrote it"
    return f"{path} {wrong}: it was changed after the run wrote it"


__all__ = [
    "Damaged",
    "DAMAGED",
    "Entry",
    "IGNORED",
    "KEPT",
    "RECORDED",
    "REPAIRED",
    "Scan",
    "StateError",
    "TreeError",
    "check_day",
    "check_entry",
    "day_page",
    "check_index",
    "check_tree",
    "compact",
    "index",
    "line",
    "read_list",
    "read_pointer",
    "scan",
    "write_day_page",
    "write_index",
]
