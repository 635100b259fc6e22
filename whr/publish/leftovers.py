"""What a killed run left in a published tree: finished, put back, or removed.

A publish (or a backfill's replay) whose ledger line is written has passed its commit point:
its staged entry is put in place from its work directory. Before the commit point, an entry
moved aside is put back (only the version the ledger records, every file matching its
checksum); work directories and temporary files are removed. Called by every check of the tree
(:mod:`whr.publish.repair`). See ``docs/operations.md``, *One recoverable transaction*.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

from whr.publish.archive import DAMAGED, REPAIRED, Entry, check, line
from whr.publish.files import exchange, is_dir, kind, link_target, read_bytes, remove, token
from whr.publish.layout import DAY, Channel, Layout
from whr.publish.ledger import Records


def _finish_publish(layout: Layout, channel: Channel, work: Path, records: Records) -> str | None:
    """Put in place the entry a killed run staged in ``work`` after the ledger recorded its
    publish (the commit point): the day is published, only not yet in place. None when the
    staged entry is not the version the ledger records (the run died before its commit point:
    nothing was published)."""
    staged = work / "entry"
    if not records.authority or kind(staged / "manifest.json") != "file":
        return None
    data = read_bytes(staged / "manifest.json")
    day = _as_of(staged / "manifest.json")
    target = layout.archive(channel) / day
    expected = records.expected(target / "manifest.json")
    if not DAY.fullmatch(day) or expected is None or expected.of(data) is not None:
        return None
    if kind(target / "manifest.json") == "file" and read_bytes(target / "manifest.json") == data:
        return None  # in place already
    if kind(target) is not None:
        os.replace(target, target.with_name(f".{day}.old-{token()}"))
    os.rename(staged, target)
    return line(
        REPAIRED,
        f"put {target} in place: its publish was recorded in {records.ledger.path} by a run "
        "that was killed before it was done",
    )


def _finish_replays(layout: Layout, channel: Channel, records: Records) -> list[str]:
    """Put in place each replay a killed backfill staged after the ledger recorded it; remove
    what it left before that."""
    folder = layout.archive(channel) / "replay"
    said: list[str] = []
    for work in sorted(folder.glob(".work-*")) if is_dir(folder) else ():
        day = _as_of(work / "manifest.json")
        target = folder / day
        expected = records.expected(target / "manifest.json") if DAY.fullmatch(day) else None
        data = read_bytes(work / "manifest.json") if day else b""
        if records.authority and expected is not None and expected.of(data) is None:
            if kind(target) is None:
                os.rename(work, target)
            else:
                exchange(work, target)
            said.append(line(REPAIRED, f"put {target} in place: a backfill killed after the "
                                       f"ledger recorded it had left it in {work.name}"))  # fmt: skip
        if kind(work) is not None:
            remove(work)
    return said


def _as_of(manifest: Path) -> str:
    """The day a staged manifest names ("" when it names none)."""
    try:
        value = json.loads(read_bytes(manifest))
    except (OSError, ValueError):
        return ""
    return str(value.get("as_of", "")) if isinstance(value, dict) else ""


def _put_back(layout: Layout, channel: Channel, old: Path, records: Records) -> str:
    """What to do with an entry moved aside by a run that was killed before it was replaced."""
    archive = layout.archive(channel)
    name = old.name[1:11]
    target = archive / name
    if kind(old) != "dir":
        what = f"the symbolic link (to {link_target(old)})" if kind(old) == "link" else "the file"
        remove(old)
        return line(REPAIRED, f"removed {what} {old}: not an entry a run moved aside")
    if kind(target) is not None:
        remove(old)
        return line(REPAIRED, f"removed {old}, left by a run that was killed after replacing it")
    if DAY.fullmatch(name):
        day = dt.date.fromisoformat(name)
        expected = records.expected(target / "manifest.json")
        found = check(old, day, channel, expected, {})
        if isinstance(found, Entry) and not found.pending:
            os.replace(old, target)
            return line(REPAIRED, f"put back {target}, moved aside by a run that was killed")
        why = found.problem if not isinstance(found, Entry) else "it is not the version recorded"
    else:
        why = "its name is not an entry's"
    return line(
        DAMAGED,
        f"left {old} where it is: it is not put back as {name} ({why}); a run puts back only "
        f"the entry the ledger records for that day, whose files match their checksums; "
        f"delete it, or republish the day (--as-of {name} --force REASON)",
    )


def _tmp_files(layout: Layout, channel: Channel) -> list[Path]:
    """Temporary files a killed write left in the directories this list writes to."""
    archive = layout.archive(channel)
    folders = [archive, layout.months(channel), layout.site(channel)]
    folders += [layout.day(channel, day) for day in layout.days(channel)]
    return [
        path
        for folder in folders
        if is_dir(folder)
        for path in folder.iterdir()
        if path.name.startswith(".") and path.name.endswith(".tmp") and kind(path) != "dir"
    ]


def leftovers(layout: Layout, channel: Channel, records: Records) -> list[str]:
    """Finish the publishes and replays a killed run recorded in the ledger; put back what it
    moved aside before its commit point; remove the rest of what it left."""
    said: list[str] = []
    archive = layout.archive(channel)
    for work in sorted(archive.glob(".work-*")):
        done = _finish_publish(layout, channel, work, records)
        if done is not None:
            said.append(done)
    for old in sorted(archive.glob(".*.old-*")):
        said.append(_put_back(layout, channel, old, records))
    for work in sorted(archive.glob(".work-*")):
        remove(work)
        said.append(line(REPAIRED, f"removed {work}, left by a run that was killed"))
    for tmp in _tmp_files(layout, channel):
        os.unlink(tmp)
    return said + _finish_replays(layout, channel, records)
