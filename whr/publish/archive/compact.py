"""Compaction: a past day keeps its manifest, list and page; a closed month's lists go into one file.

See :mod:`whr.publish.archive`.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import json
import os
import zlib
from pathlib import Path
from typing import Any

import pandas as pd

from whr.digest import bytes_sha256
from whr.publish.archive.entry import (
    _PLAIN,
    DAMAGED,
    KEPT,
    REPAIRED,
    Damaged,
    Entry,
    StateError,
    _day_rows,
    _fix,
    _in_list_order,
    _list_file,
    _month,
    _year_end,
    check_day,
    line,
    read_manifest,
)
from whr.publish.archive.index import day_page, page_links_list, write_day_page
from whr.publish.archive.scan import Scan, scan
from whr.publish.checksums import Checksums
from whr.publish.files import (
    is_dir,
    is_file,
    json_text,
    kind,
    parquet_bytes,
    parquet_key_value,
    parquet_metadata,
    read_parquet,
    sha256,
    size,
    sync_dir,
    write_bytes,
)
from whr.publish.layout import HASH_CHARS, MONTH, Channel, Layout, real_dir
from whr.tables import MONTH_LISTS, RATINGS, conform

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
