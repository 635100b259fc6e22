"""Repairing what killed runs left, and checking every archived file: :func:`recover`, :func:`verify`.

See ``docs/operations.md``, *One recoverable transaction* and *Damage is reported*.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whr.publish import replay
from whr.publish.archive import (
    DAMAGED,
    IGNORED,
    KEPT,
    REPAIRED,
    Entry,
    Scan,
    StateError,
    changed,
    check_day,
    check_index,
    check_tree,
    compact,
    line,
    page_links_list,
    read_list,
    read_pointer,
    scan,
    verify_files,
    write_day_page,
    write_index,
)
from whr.publish.checksums import Checksums
from whr.publish.files import (
    is_dir,
    kind,
    link_target,
    make_dir,
    remove,
    token,
)
from whr.publish.layout import DAY, Channel, Layout
from whr.publish.lock import COMMIT, hold
from whr.publish.render import _shows, render_site, swap


def _put_back(layout: Layout, channel: Channel, old: Path, sums: Checksums) -> str:
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
        manifest = target / "manifest.json"
        found = check_day(old, day, channel, "all", {}, sums, recorded_as=manifest)
        if isinstance(found, Entry):
            os.replace(old, target)
            return line(REPAIRED, f"put back {target}, moved aside by a run that was killed")
        why = found.problem
    else:
        why = "its name is not an entry's"
    return line(
        DAMAGED,
        f"left {old} where it is: it is not put back as {name} ({why}); a run puts back only "
        f"an entry whose manifest names that day and whose files match their checksums; "
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


def _site(layout: Layout, channel: Channel, found: Scan, hashes: dict[Path, Any]) -> list[str]:
    """Render the site again when it does not show the newest day that checks; but never move
    it back to an older day while the newest day is damaged (it may still show that day)."""
    if not found.good or _shows(layout, channel, found.good[-1], hashes):
        return []
    last, site = found.good[-1], layout.site(channel)
    shown = (read_pointer(layout, channel) or {}).get("date") or "no day"
    bad = found.damaged[-1] if found.damaged and found.damaged[-1].day > last.day else None
    if bad is not None and kind(site) is not None:
        return [
            line(
                KEPT,
                f"{site} still shows {shown}: the newest day {bad.day} is damaged (above), and "
                f"the site is not moved back to an older day; once {bad.day} is restored or "
                "republished as said above, the next run shows it",
            )
        ]
    if not last.full:
        newest = bad.day if bad is not None else last.day
        return [
            line(
                KEPT,
                f"{site} shows {shown}, but the newest day that checks, {last.day}, keeps only "
                f"its list, not the tables its pages are drawn from; republish {newest} "
                f"(--as-of {newest} --force REASON) to show it",
            )
        ]
    verify_files(last, hashes)
    work = make_dir(layout.archive(channel) / f".work-{token()}")
    render_site(layout, last, work / "site")
    swap(work / "site", site)
    remove(work)
    return [line(REPAIRED, f"{site} showed {shown}; it now shows {last.day}, the newest "
                           "published day")]  # fmt: skip


def _pages(layout: Layout, found: Scan, sums: Checksums, hashes: dict[Path, Any]) -> list[str]:
    """Write again the page of each day that checks whose page does not match its recorded
    checksum (it is a view of the day's manifest and list), or, without a record (written
    before ``checksums.json``), does not link the file that holds the day's list."""
    said = []
    for entry in found.good:
        page = entry.path / "index.html"
        wrong = sums.check(page, hashes)
        if wrong is not None:
            write_day_page(layout, entry, read_list(entry), sums)
            said.append(line(DAMAGED, f"{changed(page, wrong)}; written again from the day's "
                                      "manifest and list"))  # fmt: skip
        elif sums.recorded(page) is None and not page_links_list(layout, entry):
            write_day_page(layout, entry, read_list(entry), sums)
            said.append(line(REPAIRED, f"wrote {page} again: it did not link the file that "
                                       "holds the day's list"))  # fmt: skip
    return said


def _recover_channel(
    layout: Layout, channel: Channel, hashes: dict[Path, Any], sums: Checksums
) -> tuple[list[str], Scan]:
    said: list[str] = []
    archive = layout.archive(channel)
    for old in sorted(archive.glob(".*.old-*")):
        said.append(_put_back(layout, channel, old, sums))
    for work in sorted(archive.glob(".work-*")):
        remove(work)
        said.append(line(REPAIRED, f"removed {work}, left by a run that was killed"))
    for tmp in _tmp_files(layout, channel):
        os.unlink(tmp)
    found = scan(layout, channel, hashes=hashes, sums=sums)
    site = _site(layout, channel, found, hashes)
    told = compact(layout, channel, found, hashes, sums)  # restores what it can
    final = scan(layout, channel, hashes=hashes, sums=sums)
    replays = replay.check(layout, channel, final.good, hashes, sums)
    said += [line(DAMAGED, d.what) for d in final.damaged] + site + told
    said += [line(DAMAGED, what) for what in replays.bad]
    said += [line(IGNORED, what) for what in replays.ignored]
    said += _pages(layout, final, sums, hashes)
    return said, final


def _repair(
    layout: Layout, channels: list[Channel] | None, hashes: dict[Path, Any]
) -> tuple[list[str], dict[Channel, Scan]]:
    """Repair the tree (the lock held): planted links, then each list, then the index and
    ``checksums.json``. Returns the lines of the report (:func:`whr.publish.archive.line`) and
    what the scan of each list found."""
    said = check_tree(layout)
    sums = Checksums.read(layout.out)
    if sums.problem is not None:
        said.append(
            line(
                DAMAGED,
                f"{sums.path} {sums.problem}: it was changed after the run wrote it; every "
                "file was checked against its manifest only, and the checksums of the files "
                "that check are recorded again as they are",
            )
        )
        sums.problem = None  # said: from here on it is an empty record, written at the end
    said += check_index(layout, sums, hashes)
    scans = {}
    for ch in channels if channels is not None else layout.channels():
        told, scans[ch] = _recover_channel(layout, ch, hashes, sums)
        said += told
    for folder in (layout.out, sums.path.parent):
        for tmp in folder.glob(".*.tmp") if is_dir(folder) else ():
            if kind(tmp) != "dir":
                os.unlink(tmp)
    if layout.channels():
        said += write_index(layout, scans, sums, hashes)
    return said, scans


def recover(out: str | os.PathLike[str], channel: Channel | None = None) -> list[str]:
    """Repair what killed runs left in the published tree ``out``, and check every archived
    file against its recorded checksum; return what was found and done.

    Parameters
    ----------
    out : path
        The published tree.
    channel : Channel, optional
        Only this list (``publish`` repairs its own list; a run repairs them all).

    Returns
    -------
    list of str
        One line per thing found or done, led by what it is (:func:`whr.publish.archive.line`):
        ``repaired: ...`` (put right), ``damaged: ...`` (a file that does not check, with what
        to do; damaged days are reported, never deleted), ``kept: ...`` (left as it is because
        of damage), ``ignored: ...`` (not used, and why), ``recorded: ...`` (checksums recorded
        for the first time).

    Raises
    ------
    whr.publish.layout.TreeError
        When a directory of the archive is a symbolic link (the run refuses to follow it).
    """
    layout = Layout(Path(out))
    if not is_dir(layout.out) and kind(layout.out) != "link":
        return []
    with hold(layout.out), COMMIT:
        return _repair(layout, [channel] if channel is not None else None, {})[0]


@dataclass(frozen=True)
class Verified:
    """What :func:`verify` checked and found."""

    lists: int
    days: int
    files: int
    bytes: int
    said: tuple[str, ...]
    """The lines of the report, in order (``repaired: ...``, ``damaged: ...``, ...: see
    :func:`recover`)."""

    @property
    def damaged(self) -> tuple[str, ...]:
        """Each damaged file found, with what to do (or what was done: a page written again, a
        manifest restored from its month's copy)."""
        lead = f"{DAMAGED}: "
        return tuple(x[len(lead) :] for x in self.said if x.startswith(lead))

    @property
    def ok(self) -> bool:
        """True when no file was found damaged."""
        return not self.damaged


def verify(out: str | os.PathLike[str]) -> Verified:
    """Check every file of the archive of ``out`` against its recorded sha256, as every run
    does (:func:`recover`), and say what was found: ``rif-rating --verify``.

    A file found damaged counts even when the run could put it right (a page written again, a
    manifest restored from its month's copy): something changed the archive. A damaged day is
    reported with what to do, never deleted.
    """
    layout = Layout(Path(out))
    if not is_dir(layout.out):
        raise StateError(f"{layout.out}: no published tree there")
    hashes: dict[Path, Any] = {}
    with hold(layout.out), COMMIT:
        said, scans = _repair(layout, None, hashes)
        return Verified(
            lists=len(scans),
            days=sum(len(f.good) + len(f.damaged) for f in scans.values()),
            files=len(hashes),
            bytes=sum(os.lstat(p).st_size for p in hashes if kind(p) == "file"),
            said=tuple(said),
        )
