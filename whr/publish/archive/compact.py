"""Compaction: a past day keeps its manifest, list and page; a closed month's lists go into one file.

Every change is a line of the ledger first (``trim``: a day's manifest without the tables it
no longer keeps; ``month``: a month's new file, its days' manifests pointed at it, and the
versions it retires), then done: a run killed half way leaves files as the line before
recorded them, and the next run (or ``--verify``) finishes the change the ledger holds instead
of recording it again (:meth:`whr.publish.ledger.Ledger.records`). See :mod:`whr.publish.archive`.
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
    Damaged,
    Entry,
    StateError,
    _day_rows,
    _fix,
    _in_list_order,
    _list_file,
    _month,
    _year_end,
    check,
    line,
)
from whr.publish.archive.index import day_page, page_links_list, write_day_page
from whr.publish.archive.scan import Scan, scan
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
from whr.publish.ledger import Records, now
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


def _record(
    records: Records, op: str, channel: Channel, files: dict[Path, bytes | None], **about: Any
) -> None:
    """Record a change in the ledger before it is made, unless a killed run recorded it
    already (it is then finished, not recorded again)."""
    if not records.ledger.records(files):
        line_ = records.ledger.line(op, files, channel=channel, at=now(), **about)
        records.ledger.append(line_, records.sums)


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


def _trim(entry: Entry, keep: set[str], records: Records) -> Entry:
    """Rewrite the manifest without the files not in ``keep`` (recorded in the ledger first),
    then remove those files."""
    manifest = _without(entry.manifest, keep)
    if manifest is entry.manifest:
        return entry
    data = json_text(manifest).encode("utf-8")
    path = entry.path / "manifest.json"
    _record(records, "trim", entry.channel, {path: data}, day=entry.day.isoformat())
    write_bytes(path, data)
    moved = dataclasses.replace(
        entry, manifest=manifest, manifest_sha256=bytes_sha256(data), pending=False
    )
    _finish(moved)
    return moved


def _trimmed(
    entry: Entry, channel: Channel, hashes: dict[Path, Any], records: Records
) -> tuple[Entry, list[str]]:
    """``entry`` trimmed to what a past day keeps, after every file it drops is checked
    again: a damaged file is never removed by the trim, and the day is left as it is, said
    with what to do."""
    if _without(entry.manifest, KEPT_FILES) is entry.manifest:
        return entry, []
    checked = check(
        entry.path, entry.day, channel, records.expected(entry.path / "manifest.json"), hashes
    )
    if isinstance(checked, Damaged):
        return entry, [line(KEPT, f"left {entry.path} untrimmed: {checked.what}")]
    return _trim(entry, KEPT_FILES, records), []


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


def restore(
    layout: Layout, channel: Channel, month: str, lost: list[Damaged], records: Records
) -> list[str]:
    """Restore the lost, missing or damaged manifests of days of a closed month from the copies
    its files keep.

    A copy is used only from a file whose sha256 matches its name, when it names the day and
    the file holds the day's rows, and, with the ledger, only when the manifest it gives is the
    very version the ledger records (a tree written before the ledger: the most recent
    publication of the day). A missing day's directory is made again. The restore is reported
    as damage found (what was wrong, and that it was restored).
    """
    said: list[str] = []
    found: dict[dt.date, list[tuple[str, Path, dict[str, Any]]]] = {}
    for path in _month_files(layout, channel, month):
        match = MONTH.fullmatch(path.name)
        if not match or not match.group(2) or sha256(path)[:HASH_CHARS] != match.group(2):
            continue
        copies = _copies(path)
        for d in lost:
            copy = copies.get(d.day.isoformat())
            ok = (
                isinstance(copy, dict)
                and copy.get("as_of") == d.day.isoformat()
                and copy.get("list") == {"category": channel.category, "variant": channel.variant}
                and isinstance(copy.get("files"), dict)
            )
            if ok and isinstance(copy, dict):
                found.setdefault(d.day, []).append((str(copy.get("created")), path, copy))
    for d in lost:
        file = d.path / "manifest.json"
        expected = records.expected(file)
        for _, path, copy in sorted(found.get(d.day, []), key=lambda x: x[0], reverse=True):
            rows = read_parquet(path, MONTH_LISTS)
            of_day = _day_rows(rows, d.day)
            if not len(of_day):
                continue
            manifest = {**copy, "list_in": _list_in(path, len(rows), len(of_day))}
            data = json_text(manifest).encode("utf-8")
            if records.authority and (expected is None or expected.of(data) is not None):
                continue  # not the version the ledger records
            if not is_dir(d.path):
                os.mkdir(d.path)
            if records.authority:
                write_bytes(file, data)
            else:
                records.sums.write(file, data)
            entry = Entry(channel, d.day, d.path, manifest, bytes_sha256(data))
            if not page_links_list(layout, entry):
                write_day_page(layout, entry, of_day, records.sums)
            said.append(line(DAMAGED, f"{d.problem}; restored it from the copy kept in {path}"))
            break
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
    records: Records,
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
    # the versions no manifest will name: earlier ones, retired with the new one
    named = {_month_ref(p, m) for _, p, m in days}
    retired = [p for p in versions if records.ledger.recorded(p) is not None and p not in named]
    if need:
        retired = _rewrite_month(layout, channel, month, days, versions, records)
    elif retired:
        gone: dict[Path, bytes | None] = dict.fromkeys(retired)
        _record(records, "month", channel, gone, month=month)
    for path in retired:  # once no manifest names them
        if is_file(path):
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
    versions: list[Path],
    records: Records,
) -> list[Path]:
    """Record the month's new version in the ledger (with its days' manifests pointed at it,
    and the versions it retires), write it beside the old, then point each page and manifest at
    it, then remove the lists the days held themselves. Returns the versions it retires, for
    the caller to remove once no manifest names them."""
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
    info = {"path": f"../months/{target.name}", "sha256": digest, "bytes": len(data),
            "rows": rows}  # fmt: skip
    pages: dict[Path, bytes] = {}
    manifests: dict[Path, bytes | None] = {}
    steps: list[tuple[Entry, dict[Path, bytes]]] = []
    for day, path, manifest in days:
        of_day = merged.loc[merged["list_date"] == day]
        moved = {**copies[day.isoformat()], "list_in": {**info, "rows_of_the_day": len(of_day)}}
        entry = Entry(channel, day, path, moved, "")
        writes = {}
        if _list_file(path, manifest) != target and not _year_end(day):
            ratings = _in_list_order(conform(of_day, RATINGS))
            writes[path / "index.html"] = pages[path / "index.html"] = day_page(
                layout, entry, ratings
            )
        if moved != manifest:
            text = json_text(moved).encode("utf-8")
            writes[path / "manifest.json"] = manifests[path / "manifest.json"] = text
        steps.append((entry, writes))
    retired = [p for p in versions if p != target and records.ledger.recorded(p) is not None]
    _record(
        records, "month", channel,
        {target: data, **manifests, **dict.fromkeys(retired)}, month=month,
    )  # fmt: skip
    real_dir(layout.months(channel))
    layout.months(channel).mkdir(exist_ok=True)
    if not (is_file(target) and sha256(target) == digest):
        write_bytes(target, data)
        sync_dir(layout.months(channel))
    records.sums.expect(pages)
    for entry, writes in steps:  # each page before its manifest
        for p, text in writes.items():
            write_bytes(p, text)
        _finish(entry)
    return retired


def compact(
    layout: Layout,
    channel: Channel,
    found: Scan | None = None,
    hashes: dict[Path, Any] | None = None,
    records: Records | None = None,
    today: dt.date | None = None,
) -> list[str]:
    """Keep the archive of ``channel`` compact (see the module's docstring); idempotent.

    Safe to interrupt at any point: the next call finishes the work. Returns lines of the
    run's report (:func:`line`): what it could not do and why (a month left as it is while one
    of its days cannot be read), and the manifests it restored. Every change is recorded in
    the ledger first, every page it writes in ``checksums.json``. A tree without a ledger (one
    written before it, not yet adopted) is left as it is. Days after tomorrow (``today``: the
    run's day, UTC) are left alone: a list dated so was made by a wrong clock.
    """
    hashes = {} if hashes is None else hashes
    records = Records.read(layout.out) if records is None else records
    if not records.authority:
        return []
    found = found or scan(layout, channel, hashes=hashes, records=records)
    shown = found.shown(today or dt.datetime.now(dt.UTC).date())
    if not shown:
        return []
    said: list[str] = []
    newest = shown[-1]
    good = []
    for entry in shown:
        _finish(entry)
        if entry is not newest and not _year_end(entry.day):
            entry, damaged = _trimmed(entry, channel, hashes, records)
            said += damaged
        good.append(entry)
    months = sorted({_month(e.day) for e in good} | {_month(d.day) for d in found.damaged})
    for month in months:
        if month >= _month(newest.day):
            continue
        of_month = [d for d in found.damaged if _month(d.day) == month]
        lost = [d for d in of_month if d.manifest is None]
        if lost:
            restored = restore(layout, channel, month, lost, records)
            if restored:
                said += restored
                again = {
                    d.day: check(
                        d.path, d.day, channel, records.expected(d.path / "manifest.json"), hashes
                    )
                    for d in of_month
                }  # the restored days, checked as any other
                good += [e for e in again.values() if isinstance(e, Entry)]
                good.sort(key=lambda e: e.day)
                of_month = [d for d in again.values() if isinstance(d, Damaged)]
        of_good = [e for e in good if _month(e.day) == month]
        said += _compact_month(layout, channel, month, of_good, of_month, records)
    return said
