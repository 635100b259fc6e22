"""The archive of published days: checking it, keeping it compact, and indexing it.

Every published day of a list has an entry ``OUT/archive/<list>/<D>/`` (see
:mod:`whr.publish.layout`). An entry is created whole, by renaming a verified directory into
place, so a directory with a day's name is complete unless something damaged it; its
``manifest.json`` names the day and lists every file it holds, with size and sha256.

Checked on every run (:func:`scan`): every manifest, every file's size, and the sha256 of every
day's list (the files ``published.json`` advertises), of every file of the newest day, and, with
``every``, of every file (``rif-rating --verify``). A day that does not check is reported with
what to do and left out of the index until it is repaired; it is never deleted, and its data
is never dropped.

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
    write_json,
    write_text,
)
from whr.publish.layout import DAY, HASH_CHARS, MONTH, Channel, Layout, TreeError, real_dir
from whr.tables import FORMAT_VERSION, MONTH_LISTS, RATINGS, conform

KEPT = {"ratings.parquet"}
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
    what: str
    """The sentence that names the file, what is wrong, and what to do."""
    manifest: dict[str, Any] | None
    """The manifest, when it reads and names this day (None otherwise)."""
    list_ok: bool
    """True when the day's list file is there and matches its checksum."""


def _fix(path: Path) -> str:
    return f"republish that day (--as-of {path.name} --force REASON) or delete {path} to drop it"


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


def check_day(
    path: Path, day: dt.date, channel: Channel | None, level: str, hashes: dict[Path, str]
) -> Entry | Damaged:
    """Check the entry ``path`` of ``day``; ``level``: ``"sizes"``, ``"list"`` (also the
    sha256 of the day's list) or ``"all"`` (of every file). ``hashes`` caches the sha256 of
    month files, which the days of a month share."""

    def damaged(what: str, manifest: dict[str, Any] | None, list_ok: bool) -> Damaged:
        return Damaged(day, path, what, manifest, list_ok)

    try:
        manifest = read_manifest(path)
    except StateError as exc:
        return damaged(str(exc), None, False)
    named = manifest["list"] if isinstance(manifest.get("list"), dict) else {}
    expected = {"category": channel.category, "variant": channel.variant} if channel else None
    if manifest.get("as_of") != day.isoformat() or (
        expected is not None and dict(named) != expected
    ):
        return damaged(
            f"{path / 'manifest.json'} is the manifest of {named.get('category')} "
            f"{manifest.get('as_of')}, not of this day; {_fix(path)}",
            None,
            False,
        )

    def digest(file: Path) -> str:
        return cached_sha256(file, hashes)

    listed: dict[str, tuple[Path, dict[str, Any]]] = {}
    for name, info in manifest["files"].items():
        if not _PLAIN.fullmatch(name) or not isinstance(info, dict):
            return damaged(f"{path / 'manifest.json'} lists a bad file name {name!r}; "
                           f"{_fix(path)}", None, False)  # fmt: skip
        listed[name] = (path / name, info)
    into = manifest.get("list_in")
    where = None if into is None else _month_path(into, day)
    if into is not None:
        if where is None:
            given = into.get("path") if isinstance(into, dict) else None
            return damaged(f"{path / 'manifest.json'} names no file of its month for the "
                           f"day's list ({given!r}); {_fix(path)}", None, False)  # fmt: skip
        listed[where] = (Path(os.path.normpath(path / where)), into)
    list_name = "ratings.parquet" if "ratings.parquet" in manifest["files"] else where
    if list_name is None:
        return damaged(f"{path / 'manifest.json'} names no file that holds the day's list; "
                       f"{_fix(path)}", None, False)  # fmt: skip
    problems: list[str] = []
    list_ok = True
    for name, (file, info) in listed.items():
        is_list = name == list_name
        found = kind(file)
        if found != "file":
            what = "is missing" if found is None else f"is a {found}, not a file"
            problems.append(f"{file} {what}")
        elif size(file) != info.get("bytes"):
            problems.append(f"{file} has {size(file)} bytes, not the {info.get('bytes')} of its "
                            "manifest")  # fmt: skip
        elif (level == "all" or (level == "list" and is_list)) and digest(file) != info.get(
            "sha256"
        ):
            problems.append(f"{file} does not match the checksum in its manifest")
        else:
            continue
        list_ok = list_ok and not is_list
    if problems:
        fix = _fix(path)
        if list_name.startswith("../") and not list_ok:
            fix = (
                "restore the month's file from a copy of the published tree (its sha256 is in "
                f"the manifest), or {fix}"
            )
        return damaged(f"{'; '.join(problems)}; {fix}", manifest, list_ok)
    return Entry(
        Channel(str(named.get("category")), named.get("variant")),
        day,
        path,
        manifest,
        sha256(path / "manifest.json"),
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


def cached_sha256(path: Path, hashes: dict[Path, Any]) -> str:
    """The sha256 of ``path``, computed once per version of the file (within one run: a file
    rewritten since is a new inode, with another size or modification time)."""
    info = os.lstat(path)
    key = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    known = hashes.get(path)
    if known is None or known[0] != key:
        known = hashes[path] = (key, sha256(path))
    return known[1]


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


def verify_files(entry: Entry) -> None:
    """Check the sha256 of every file of ``entry`` (before it is read to render or compare);
    raises :class:`StateError` naming the first that does not match."""
    for name, info in entry.manifest["files"].items():
        if sha256(entry.path / name) != info.get("sha256"):
            raise StateError(
                f"{entry.path / name} does not match the checksum in its manifest; "
                f"{_fix(entry.path)}"
            )


@dataclass
class Scan:
    """What :func:`scan` found in one list's archive."""

    good: list[Entry]
    damaged: list[Damaged]


def scan(
    layout: Layout,
    channel: Channel,
    *,
    every: bool = False,
    hashes: dict[Path, Any] | None = None,
) -> Scan:
    """Check every entry of ``channel``: complete entries (oldest first) and damaged ones.

    The sha256 of every day's list and of every file of the newest day is checked; with
    ``every``, of every file listed by every manifest. ``hashes`` (see :func:`cached_sha256`)
    spares a run hashing a file twice.
    """
    days = layout.days(channel)
    hashes = {} if hashes is None else hashes
    good: list[Entry] = []
    damaged: list[Damaged] = []
    for day in days:
        level = "all" if every or day == days[-1] else "list"
        found = check_day(layout.day(channel, day), day, channel, level, hashes)
        if isinstance(found, Entry):
            good.append(found)
        else:
            damaged.append(found)
    return Scan(good, damaged)


def entries(layout: Layout, channel: Channel) -> tuple[list[Entry], list[str]]:
    """The complete entries of ``channel`` (oldest first) and a sentence per damaged one."""
    found = scan(layout, channel)
    return found.good, [_left_out(d) for d in found.damaged]


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


def write_day_page(
    layout: Layout, entry: Entry, ratings: pd.DataFrame, at: Path | None = None
) -> None:
    """Write the page of an entry's day (``index.html``): the top of its list, and its data.

    ``at`` is where the entry will be served from, when it is still being prepared elsewhere
    (the page's links are relative to it); by default where it is.
    """
    from whr.publish.site.archive import day_page

    home = at if at is not None else entry.path
    html = day_page(
        entry.manifest,
        ratings,
        list_href=_page_href(layout, entry.path, entry.manifest),  # a sibling: same from ``at``
        site_href=os.path.relpath(layout.site(entry.channel), home) + "/",
        archive_href=os.path.relpath(layout.archive_html, home),
    )
    write_text(entry.path / "index.html", html)


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
    month, a current site or an index file is removed (the link, never what it points to; the
    run rebuilds what belongs there or reports the day as damaged). A link in place of a
    directory that holds the archive itself (``archive/``, ``archive/<list>/``, ``months/``)
    raises :class:`whr.publish.layout.TreeError`: removing it would hide the archive, so the
    run refuses and says how to fix it.
    """
    said: list[str] = []

    def unplant(path: Path) -> None:
        if kind(path) == "link":
            target = link_target(path)
            os.unlink(path)
            said.append(
                f"removed the symbolic link {path} (to {target}): the published tree holds its "
                "own files, and a run never follows a link out of it"
            )

    for name in ("index.html", "published.json", "datapackage.json", "archive.html"):
        unplant(layout.out / name)
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


def _trim(entry: Entry, keep: set[str]) -> Entry:
    """Rewrite the manifest without the files not in ``keep``, then remove those files."""
    manifest = _without(entry.manifest, keep)
    if manifest is entry.manifest:
        return entry
    write_json(entry.path / "manifest.json", manifest)
    moved = dataclasses.replace(
        entry, manifest=manifest, manifest_sha256=sha256(entry.path / "manifest.json")
    )
    _finish(moved)
    return moved


def _trimmed(entry: Entry, channel: Channel, hashes: dict[Path, Any]) -> tuple[Entry, list[str]]:
    """``entry`` trimmed to what a past day keeps, after every file it drops is checked
    (the scan checked only the list of a day that is no longer the newest): a damaged file is
    never removed by the trim, and the day is left as it is, said with what to do."""
    if _without(entry.manifest, KEPT) is entry.manifest:
        return entry, []
    checked = check_day(entry.path, entry.day, channel, "all", hashes)
    if isinstance(checked, Damaged):
        return entry, [f"left {entry.path} untrimmed: {checked.what}"]
    return _trim(entry, KEPT), []


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


def _restore(layout: Layout, channel: Channel, month: str, lost: list[Damaged]) -> list[str]:
    """Restore the lost manifests of days of a closed month from the copies its files keep.

    A copy is used only from a file whose sha256 matches its name, when it names the day and
    the file holds the day's rows; of several, the most recent publication of the day.
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
        write_json(d.path / "manifest.json", manifest)
        entry = Entry(channel, d.day, d.path, manifest, sha256(d.path / "manifest.json"))
        if not page_links_list(layout, entry):
            write_day_page(layout, entry, of_day)
        said.append(
            f"restored {d.path / 'manifest.json'} from the copy kept in {path} (it was "
            f"{'missing' if 'missing' in d.what.split(';')[0] else 'damaged'})"
        )
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
    layout: Layout, channel: Channel, month: str, good: list[Entry], damaged: list[Damaged]
) -> list[str]:
    """Gather the lists of the days of a closed month into one file (see the module)."""
    versions = _month_files(layout, channel, month)
    blocked = [d for d in damaged if d.manifest is None or not d.list_ok]
    if blocked:
        if versions or any(not e.in_month for e in good):
            names = ", ".join(d.day.isoformat() for d in blocked)
            return [
                f"{layout.months(channel)}/{month}: not compacted while {names} cannot be read "
                "(see above); every file of the month is kept until then"
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
        _rewrite_month(layout, channel, month, days)
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
    layout: Layout, channel: Channel, month: str, days: list[tuple[dt.date, Path, dict[str, Any]]]
) -> None:
    """Write the month's new version beside the old, then point each page and manifest at it,
    then remove the lists the days held themselves."""
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
    digest = _bytes_sha256(data)
    target = layout.month_file(channel, month, digest)
    real_dir(layout.months(channel))
    layout.months(channel).mkdir(exist_ok=True)
    if not (is_file(target) and sha256(target) == digest):
        write_bytes(target, data)
        sync_dir(layout.months(channel))
    info = {"path": f"../months/{target.name}", "sha256": digest, "bytes": len(data),
            "rows": rows}  # fmt: skip
    for day, path, manifest in days:
        of_day = merged.loc[merged["list_date"] == day]
        moved = {**copies[day.isoformat()], "list_in": {**info, "rows_of_the_day": len(of_day)}}
        entry = Entry(channel, day, path, moved, "")
        if _list_file(path, manifest) != target and not _year_end(day):
            write_day_page(layout, entry, _in_list_order(conform(of_day, RATINGS)))
        if moved != manifest:
            write_json(path / "manifest.json", moved)
        _finish(entry)


def _bytes_sha256(data: bytes) -> str:
    from whr.digest import bytes_sha256

    return bytes_sha256(data)


def compact(
    layout: Layout,
    channel: Channel,
    found: Scan | None = None,
    hashes: dict[Path, Any] | None = None,
) -> list[str]:
    """Keep the archive of ``channel`` compact (see the module's docstring); idempotent.

    Safe to interrupt at any point: the next call finishes the work. Returns what it could not
    do and why (a month left as it is while one of its days cannot be read), and the manifests
    it restored.
    """
    hashes = {} if hashes is None else hashes
    found = found or scan(layout, channel, hashes=hashes)
    if not found.good:
        return []
    said: list[str] = []
    newest = found.good[-1]
    good = []
    for entry in found.good:
        _finish(entry)
        if entry is not newest and not _year_end(entry.day):
            entry, damaged = _trimmed(entry, channel, hashes)
            said += damaged
        good.append(entry)
    months = sorted({_month(e.day) for e in good} | {_month(d.day) for d in found.damaged})
    for month in months:
        if month >= _month(newest.day):
            continue
        of_month = [d for d in found.damaged if _month(d.day) == month]
        lost = [d for d in of_month if d.manifest is None]
        if lost:
            restored = _restore(layout, channel, month, lost)
            if restored:
                said += restored
                again = {
                    d.day: check_day(d.path, d.day, channel, "list", hashes) for d in of_month
                }  # the restored days, checked as any other
                good += [e for e in again.values() if isinstance(e, Entry)]
                good.sort(key=lambda e: e.day)
                of_month = [d for d in again.values() if isinstance(d, Damaged)]
        said += _compact_month(
            layout, channel, month, [e for e in good if _month(e.day) == month], of_month
        )
    # a month whose days were all removed by hand leaves its file behind
    live = {_month(d) for d in layout.days(channel)}
    if is_dir(layout.months(channel)):
        for path in sorted(layout.months(channel).iterdir()):
            match = MONTH.fullmatch(path.name)
            if match and match.group(1) not in live and is_file(path):
                os.unlink(path)
                said.append(f"removed {path}: no day of {match.group(1)} is left in the archive")
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


def write_index(layout: Layout, scans: dict[Channel, Scan] | None = None) -> dict[str, Any]:
    """Rewrite ``published.json``, ``datapackage.json``, ``archive.html`` and the root
    ``index.html`` (each only when it changes); return the index."""
    from whr.publish.site.archive import archive_page, redirect_page

    found = {c: (scans or {}).get(c) or scan(layout, c) for c in layout.channels()}
    value = index(layout, found)
    write_if_changed(layout.index_json, json_text(value).encode("utf-8"))
    lists = [
        (channel, checked.good[-1] if checked.good else None, listed["latest"])
        for (channel, checked), listed in zip(found.items(), value["lists"], strict=True)
    ]
    write_if_changed(layout.datapackage, json_text(descriptor(layout, lists)).encode("utf-8"))
    write_if_changed(layout.archive_html, archive_page(value).encode("utf-8"))
    official = [x for x in value["lists"] if x["variant"] is None and x["latest"]]
    renju = [x for x in official if x["category"] == "renju"] or official
    target = renju[0]["site"] + "index.html" if renju else "archive.html"
    category = renju[0]["category"] if renju else "renju"
    write_if_changed(layout.root_index, redirect_page(target, category).encode("utf-8"))
    return value


__all__ = [
    "Damaged",
    "Entry",
    "Scan",
    "StateError",
    "TreeError",
    "check_day",
    "check_entry",
    "check_tree",
    "compact",
    "entries",
    "index",
    "read_list",
    "read_pointer",
    "scan",
    "write_day_page",
    "write_index",
]
