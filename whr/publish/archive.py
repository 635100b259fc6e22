"""The archive of published days: reading it, keeping it compact, and indexing it.

Every published day of a list has an entry ``OUT/archive/<list>/<D>/`` (see
:mod:`whr.publish.layout`). An entry is created whole, by renaming a verified directory into
place, so a directory with a day's name is complete unless someone damaged it; its
``manifest.json`` lists every file it holds, with size and sha256.

Compact for years (:func:`compact`): the newest entry of a list holds every table; once a newer
day is published, an entry keeps only its manifest, its list (``ratings.parquet``) and its page
(``index.html``), except on December 31, whose entry keeps every table for ever. When a month
is over, the lists of all its days move into one file, ``months/<YYYY-MM>.parquet``, sorted by
player then day (a player's rows of consecutive days differ little, so the month compresses
well; its floats are float32, ``whr.tables.MONTH_LISTS``), and each day's manifest says where
its list now is (``list_in``). A manifest never lists
a file that is gone: it is rewritten before the file is removed.

The index (:func:`write_index`): ``OUT/published.json`` for programs, ``OUT/archive.html`` for
people and ``OUT/index.html`` (a relative redirect to the official renju list), all derived from
the archive and rewritten by every run.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from whr.digest import file_sha256
from whr.publish.files import parquet_metadata, read_parquet, write_json, write_parquet, write_text
from whr.publish.layout import MONTH, Channel, Layout
from whr.tables import MONTH_LISTS, RATINGS, conform, empty

KEPT = {"ratings.parquet"}
"""Data an entry keeps once a newer day is published (unless it is a December 31), beside its
``manifest.json`` and its page ``index.html`` (a view of the data, not listed in the manifest)."""

WHY_COMPACT = (
    "a past day keeps its manifest, its list and its page; every table is kept for the newest "
    "day and for each December 31; rerun the day with --as-of D --force REASON on the input the "
    "manifest names to rebuild the rest"
)


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
        if not self.in_month:
            return self.path / "ratings.parquet"
        return Path(os.path.normpath(self.path / self.manifest["list_in"]["path"]))

    @property
    def list_sha256(self) -> str:
        """The sha256 of :attr:`list_file`, as the manifest records it."""
        if not self.in_month:
            return self.manifest["files"]["ratings.parquet"]["sha256"]
        return self.manifest["list_in"]["sha256"]


def read_json(path: Path, what: str, fix: str) -> Any:
    """Parse a JSON state file; a damaged one raises :class:`StateError` naming it and ``fix``."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise StateError(f"{path}: {what} is damaged ({exc}); {fix}") from None


def read_manifest(entry: Path) -> dict[str, Any]:
    """The manifest of an archive entry, checked for the keys every manifest has."""
    fix = f"republish that day (--as-of {entry.name} --force REASON) or delete {entry} to drop it"
    manifest = read_json(entry / "manifest.json", "the manifest", fix)
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise StateError(f"{entry / 'manifest.json'}: not a manifest (no files listed); {fix}")
    return manifest


def check_entry(entry: Path, *, checksums: bool = False) -> Entry | str:
    """An :class:`Entry` when ``entry`` is complete, else a sentence that says what is wrong.

    Complete: the manifest reads, every file it lists is there with its size (and, with
    ``checksums``, its sha256), and the month file it names for its list is there.
    """
    try:
        manifest = read_manifest(entry)
    except StateError as exc:
        return str(exc)
    day = dt.date.fromisoformat(entry.name)
    listed = dict(manifest["files"])
    if manifest.get("list_in"):
        listed[manifest["list_in"]["path"]] = manifest["list_in"]
    for name, info in listed.items():
        path = entry / name
        if not path.is_file() or path.stat().st_size != info.get("bytes"):
            return f"{path} is missing or has the wrong size"
        if checksums and file_sha256(path) != info.get("sha256"):
            return f"{path} does not match the checksum in its manifest"
    category = manifest.get("list", {}).get("category")
    variant = manifest.get("list", {}).get("variant")
    return Entry(
        Channel(str(category), variant), day, entry, manifest, file_sha256(entry / "manifest.json")
    )


def entries(layout: Layout, channel: Channel) -> tuple[list[Entry], list[str]]:
    """The complete entries of ``channel`` (oldest first) and a sentence per damaged one."""
    good, bad = [], []
    days = layout.days(channel)
    for day in days:
        found = check_entry(layout.day(channel, day), checksums=day == days[-1])
        if isinstance(found, Entry):
            good.append(found)
        else:
            bad.append(
                f"{found}; the day is left out of the index until it is republished "
                f"(--as-of {day} --force REASON) or deleted"
            )
    return good, bad


def read_pointer(layout: Layout, channel: Channel) -> dict[str, Any] | None:
    """The current site's ``latest.json``, or None when it is missing or damaged."""
    try:
        pointer = json.loads(layout.pointer(channel).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return pointer if isinstance(pointer, dict) else None


def read_list(entry: Entry) -> pd.DataFrame:
    """The list of an entry's day (RATINGS), from the entry or from its month's file."""
    if not entry.in_month:
        return read_parquet(entry.list_file, RATINGS)
    frame = read_parquet(entry.list_file, MONTH_LISTS)
    return _in_list_order(conform(frame.loc[frame["list_date"] == entry.day], RATINGS))


def _in_list_order(frame: pd.DataFrame) -> pd.DataFrame:
    """Ranked players by rank, then the others by rating (the order of a published list)."""
    order = frame.sort_values(
        ["rank", "rating", "player"], ascending=[True, False, True], na_position="last"
    )
    return order.reset_index(drop=True)


def write_day_page(
    layout: Layout, entry: Entry, ratings: pd.DataFrame, at: Path | None = None
) -> None:
    """Write the page of an entry's day (``index.html``): the top of its list, and its data.

    ``at`` is where the entry will be served from, when it is still being prepared elsewhere
    (the page's links are relative to it); by default where it is.
    """
    from whr.publish.site.archive import day_page

    home = at if at is not None else entry.path
    data = os.path.relpath(entry.list_file, entry.path)  # the same from ``at``: a sibling
    html = day_page(
        entry.manifest,
        ratings,
        list_href=data,
        site_href=os.path.relpath(layout.site(entry.channel), home) + "/",
        archive_href=os.path.relpath(layout.archive_html, home),
    )
    write_text(entry.path / "index.html", html)


# ---------------------------------------------------------------------------------------------
# Compaction


def _rewrite_manifest(entry: Path, manifest: dict[str, Any]) -> None:
    write_json(entry / "manifest.json", manifest)


def _drop_files(entry: Entry, keep: set[str], note: str) -> Entry:
    """Rewrite the manifest without the files not in ``keep``, then remove those files;
    return the entry as it now is."""
    manifest = dict(entry.manifest)
    files = manifest["files"]
    removed = sorted(set(files) - keep)
    if removed:
        manifest["files"] = {k: v for k, v in files.items() if k in keep}
        earlier = (manifest.get("compacted") or {}).get("removed", [])
        manifest["compacted"] = {"removed": sorted({*earlier, *removed}), "why": note}
        _rewrite_manifest(entry.path, manifest)
    listed = set(manifest["files"]) | {"manifest.json", "index.html"}
    for path in entry.path.iterdir():  # also what a killed compaction left
        if path.name not in listed:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    return dataclasses.replace(entry, manifest=manifest)


def _month(day: dt.date) -> str:
    return f"{day.year:04d}-{day.month:02d}"


def _year_end(day: dt.date) -> bool:
    return (day.month, day.day) == (12, 31)


def _compact_month(layout: Layout, channel: Channel, month: str, days: list[Entry]) -> None:
    """Gather the lists of ``days`` (all of one closed month) into the month's file."""
    path = layout.month_file(channel, month)
    own = [e for e in days if not e.in_month]
    frames = [read_list(e) for e in own]
    elsewhere = {e.day for e in days} - {e.day for e in own}
    if elsewhere:  # already in the month's file (a past day republished, or a killed run)
        existing = read_parquet(path, MONTH_LISTS) if path.is_file() else empty(MONTH_LISTS)
        frames.append(existing.loc[existing["list_date"].isin(elsewhere)])
    merged = pd.concat([f for f in frames if len(f)] or frames[:1], ignore_index=True)
    missing = sorted(elsewhere - set(merged["list_date"]))
    if missing:
        raise StateError(
            f"{path}: the lists of {[d.isoformat() for d in missing]} are neither in their "
            "entries nor in the month's file; republish those days with --as-of D --force REASON"
        )
    merged = merged.sort_values(["player", "list_date"], kind="stable").reset_index(drop=True)
    layout.months(channel).mkdir(parents=True, exist_ok=True)
    write_parquet(merged, MONTH_LISTS, path, parquet_metadata(), dense=True)
    info = {
        "path": f"../months/{month}.parquet",
        "sha256": file_sha256(path),
        "bytes": path.stat().st_size,
        "rows": len(merged),
    }
    for entry in days:
        rows = merged.loc[merged["list_date"] == entry.day]
        manifest = {**entry.manifest, "list_in": {**info, "rows_of_the_day": len(rows)}}
        if manifest != entry.manifest:
            _rewrite_manifest(entry.path, manifest)
        moved = dataclasses.replace(entry, manifest=manifest)
        write_day_page(layout, moved, _in_list_order(rows))
        if not _year_end(entry.day):
            _drop_files(moved, set(), WHY_COMPACT)


def compact(layout: Layout, channel: Channel) -> None:
    """Keep the archive of ``channel`` compact (see the module's docstring); idempotent.

    Safe to interrupt at any point: the next call finishes the work.
    """
    good, _ = entries(layout, channel)
    if not good:
        return
    last = good[-1]
    good = [e if _year_end(e.day) else _drop_files(e, KEPT, WHY_COMPACT) for e in good[:-1]]
    closed: dict[str, list[Entry]] = {}
    for entry in good:
        if _month(entry.day) < _month(last.day):
            closed.setdefault(_month(entry.day), []).append(entry)
    for month, days in sorted(closed.items()):
        if any(not e.in_month and not _year_end(e.day) for e in days) or (
            any(not e.manifest.get("list_in") for e in days)
        ):
            _compact_month(layout, channel, month, days)
    # a month whose days were all removed by hand leaves its file behind
    months = layout.months(channel)
    if months.is_dir():
        live = {_month(e.day) for e in [*good, last]}
        for path in months.iterdir():
            match = MONTH.fullmatch(path.name)
            if match and match.group(1) not in live:
                path.unlink()


# ---------------------------------------------------------------------------------------------
# The index


def index(layout: Layout) -> dict[str, Any]:
    """Everything published under ``layout.out``, as ``published.json`` holds it."""
    lists = []
    for channel in layout.channels():
        good, bad = entries(layout, channel)
        pointer = read_pointer(layout, channel)
        days = []
        for e in reversed(good):
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
                "damaged": bad,
            }
        )
    return {"format": 1, "lists": lists}


def write_index(layout: Layout) -> dict[str, Any]:
    """Rewrite ``published.json``, ``archive.html`` and the root ``index.html``; return the index."""
    from whr.publish.site.archive import archive_page, redirect_page

    value = index(layout)
    write_json(layout.index_json, value)
    write_text(layout.archive_html, archive_page(value))
    official = [x for x in value["lists"] if x["variant"] is None and x["latest"]]
    renju = [x for x in official if x["category"] == "renju"] or official
    target = renju[0]["site"] + "index.html" if renju else "archive.html"
    write_text(layout.root_index, redirect_page(target))
    return value
