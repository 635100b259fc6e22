"""Checking a published tree against what was published, and finishing what killed runs left.

Every run checks the tree once, before it relies on any of it (:func:`check_and_repair`, the flow's
``repair`` task), and hands the result on (:class:`Tree`) to :func:`whr.publish.previous` and
:func:`whr.publish.publish`; ``rif-rating --verify`` makes the same check (:func:`verify`). The
ledger (:mod:`whr.publish.ledger`) is the authority: a day it holds that is missing or altered
is damaged; a day, month file or replay it does not hold is foreign, never shown, linked or
used. A check reports: it never removes or rewrites a published file, but to finish what a
killed run recorded in the ledger (a publish past its commit point, a compaction half done) and
to restore a day's manifest from its month's copy, byte for byte the version the ledger
records. The views drawn from the archive (each day's page, the index files, the current site)
are drawn again when they do not match; what killed runs left is :mod:`whr.publish.leftovers`'s.
See ``docs/operations.md``, *The ledger*.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whr.publish import replay
from whr.publish.archive import (
    DAMAGED,
    FOREIGN,
    IGNORED,
    KEPT,
    RECORDED,
    REPAIRED,
    Entry,
    Scan,
    StateError,
    changed,
    check_index,
    check_tree,
    compact,
    day_page,
    line,
    page_links_list,
    read_list,
    read_pointer,
    restore,
    scan,
    verify_files,
    write_day_page,
    write_index,
)
from whr.publish.archive.entry import _month
from whr.publish.files import (
    is_dir,
    kind,
    make_dir,
    read_bytes,
    remove,
    token,
)
from whr.publish.layout import MONTH, Channel, Layout
from whr.publish.ledger import MARK, RESTORE, Records, now
from whr.publish.leftovers import leftovers
from whr.publish.lock import COMMIT, hold
from whr.publish.render import _shows, render_site, swap


@dataclass
class Tree:
    """A published tree as one check found it (:func:`check`): what each list's archive holds,
    its replays, what was said, and the sha256 of every file read (so that a run reads each
    file once). Valid while the run holds the tree's lock."""

    layout: Layout
    scans: dict[Channel, Scan]
    replays: dict[Channel, replay.Checked]
    said: list[str]
    hashes: dict[Path, Any] = field(default_factory=dict)
    problem: str | None = None
    """Why nothing can be published (the ledger is missing or damaged), or None."""

    def of(self, channel: Channel) -> Scan:
        return self.scans.get(channel) or Scan([], [])


def today() -> dt.date:
    """Today (UTC), the day a run compares list dates with."""
    return dt.datetime.now(dt.UTC).date()


# ---------------------------------------------------------------------------------------------
# The views drawn from the archive


def _site(
    layout: Layout, channel: Channel, found: Scan, records: Records, hashes: dict[Path, Any]
) -> list[str]:
    """Render the site again when it does not show the newest day that checks (up to tomorrow);
    but never move it back to an older day while the newest day is damaged (it may still show
    that day)."""
    shown = found.shown(today())
    if not shown or _shows(layout, channel, shown[-1], hashes):
        return []
    last, site = shown[-1], layout.site(channel)
    was = (read_pointer(layout, channel) or {}).get("date") or "no day"
    bad = found.damaged[-1] if found.damaged and found.damaged[-1].day > last.day else None
    if bad is not None and kind(site) is not None:
        return [
            line(
                KEPT,
                f"{site} still shows {was}: the newest day {bad.day} is damaged (above), and "
                f"the site is not moved back to an older day; once {bad.day} is restored or "
                "republished as said above, the next run shows it",
            )
        ]
    if not last.full:
        newest = bad.day if bad is not None else last.day
        return [
            line(
                KEPT,
                f"{site} shows {was}, but the newest day that checks, {last.day}, keeps only "
                f"its list, not the tables its pages are drawn from; republish {newest} "
                f"(--as-of {newest} --force REASON) to show it",
            )
        ]
    verify_files(last, hashes)
    work = make_dir(layout.archive(channel) / f".work-{token()}")
    render_site(layout, last, work / "site", ledger=records.ledger)
    swap(work / "site", site)
    remove(work)
    return [line(REPAIRED, f"{site} showed {was}; it now shows {last.day}, the newest "
                           "published day")]  # fmt: skip


def _pages(layout: Layout, found: Scan, records: Records, hashes: dict[Path, Any]) -> list[str]:
    """Write again the page of each day that checks whose page does not match its recorded
    checksum (it is a view of the day's manifest and list). A page with no record (its record
    was lost, or written before ``checksums.json``) is held against the page the day's data
    draws (with the ledger) or must at least link the file that holds the day's list."""
    said = []
    sums = records.sums
    for entry in found.good:
        page = entry.path / "index.html"
        wrong = sums.check(page, hashes)
        if wrong is not None:
            write_day_page(layout, entry, read_list(entry), sums)
            said.append(line(DAMAGED, f"{changed(page, wrong)}; written again from the day's "
                                      "manifest and list"))  # fmt: skip
        elif sums.recorded(page) is None and records.authority:
            drawn = day_page(layout, entry, read_list(entry))
            if kind(page) != "file" or read_bytes(page) != drawn:
                sums.write(page, drawn)
                said.append(line(DAMAGED, f"{page} is not the page the day's manifest and list "
                                          "draw (and has no recorded checksum): written again"))  # fmt: skip
        elif sums.recorded(page) is None and not page_links_list(layout, entry):
            write_day_page(layout, entry, read_list(entry), sums)
            said.append(line(REPAIRED, f"wrote {page} again: it did not link the file that "
                                       "holds the day's list"))  # fmt: skip
    return said


# ---------------------------------------------------------------------------------------------
# One list


def _foreign(layout: Layout, channel: Channel, found: Scan, records: Records) -> list[str]:
    """A line for each day and month file of the list that the ledger does not hold."""
    if not records.authority:
        return []
    said = [
        line(
            FOREIGN,
            f"{path} is a day the ledger ({records.ledger.path}) does not hold: no run published "
            "it in this tree, so it is never shown, linked or used; remove it (a day of this "
            "tree restored from an old copy comes with the ledger of that copy)",
        )
        for path in found.foreign
    ]
    months = layout.months(channel)
    for path in sorted(months.iterdir()) if is_dir(months) else ():
        if MONTH.fullmatch(path.name) and records.ledger.recorded(path) is None:
            said.append(
                line(
                    FOREIGN,
                    f"{path} is a month file the ledger does not hold: no run of this tree "
                    "wrote it, so it is never used; remove it",
                )
            )
    return said


def _retiring(layout: Layout, channel: Channel, records: Records) -> bool:
    """True when a month file the ledger records as retired is still there (a compaction a
    killed run recorded and did not finish)."""
    months = layout.months(channel)
    return any(
        (rec := records.ledger.recorded(p)) is not None and rec.version is None
        for p in (months.iterdir() if is_dir(months) else ())
    )


def _restore_lost(
    layout: Layout, channel: Channel, found: Scan, records: Records, newest: Entry | None
) -> list[str]:
    """Restore the manifests of closed months' days that are lost, missing or altered, from the
    copies their month's files keep (the version the ledger records, byte for byte)."""
    said: list[str] = []
    lost = [d for d in found.damaged if d.manifest is None]
    if newest is None:
        return said
    for month in sorted({_month(d.day) for d in lost if _month(d.day) < _month(newest.day)}):
        of_month = [d for d in lost if _month(d.day) == month]
        said += restore(layout, channel, month, of_month, records)
    return said


def _channel(
    layout: Layout,
    channel: Channel,
    records: Records,
    hashes: dict[Path, Any],
    publishing: bool,
    frozen: bool,
) -> tuple[list[str], Scan, replay.Checked]:
    """Check one list's archive; finish what a killed run left, restore what its month's
    copies hold, draw again the views that do not match, and (``publishing``) compact. With
    the ledger lost (``frozen``) nothing is changed: what was published cannot be told."""
    said: list[str] = []
    if not frozen:
        said += leftovers(layout, channel, records)
    found = scan(layout, channel, hashes=hashes, records=records)
    shown = found.shown(today())
    told, site = [], []
    if not frozen:
        told = _restore_lost(layout, channel, found, records, shown[-1] if shown else None)
        if told:
            found = scan(layout, channel, hashes=hashes, records=records)
        site = _site(layout, channel, found, records, hashes)
        if publishing or found.pending or _retiring(layout, channel, records):
            told += compact(layout, channel, found, hashes, records, today())
            found = scan(layout, channel, hashes=hashes, records=records)
    replays = replay.check(layout, channel, found.good, hashes, records)
    said += [line(DAMAGED, d.what) for d in found.damaged] + site + told
    said += _foreign(layout, channel, found, records)
    later = [e.day for e in found.good if e.day > today() + dt.timedelta(days=1)]
    said += [
        line(
            IGNORED,
            f"the list of {d} ({layout.day(channel, d)}) is dated after tomorrow ({today()} by "
            "this machine's clock): it is never shown; it was published by a run whose clock "
            "was wrong",
        )
        for d in later
    ]
    said += [line(DAMAGED, what) for what in replays.bad]
    said += [line(FOREIGN, what) for what in replays.foreign]
    said += [line(IGNORED, what) for what in replays.ignored]
    if not frozen:
        said += _pages(layout, found, records, hashes)
    return said, found, replays


# ---------------------------------------------------------------------------------------------
# The tree


def _adopt(
    layout: Layout, records: Records, scans: dict[Channel, Scan], replays: dict[Channel, Any]
) -> list[str]:
    """Begin the ledger of a tree written before it: one line that records its days that
    check, the month files they name and its replays that check, as they are."""
    files: dict[Path, Any] = {}
    for found in scans.values():
        for e in found.good:
            files[e.path / "manifest.json"] = read_bytes(e.path / "manifest.json")
            if e.in_month:
                into = e.manifest["list_in"]
                files[e.list_file] = {"sha256": into["sha256"], "bytes": into["bytes"]}
    for checked in replays.values():
        for r in checked.good:
            files[r.path / "manifest.json"] = read_bytes(r.path / "manifest.json")
    if not files:
        return []
    days = sum(len(f.good) for f in scans.values())
    held = sum(len(c.good) for c in replays.values())
    text = records.ledger.line(
        "adopt", files, at=now(),
        reason="a tree written before the ledger: its days and replays as they were",
    )  # fmt: skip
    records.ledger.append(text, records.sums)
    return [
        line(
            RECORDED,
            f"the ledger began ({records.ledger.path}): the {days} days and {held} replays of "
            "this tree, written before it, are recorded as they are; from now on the tree is "
            "checked against it, and a day it does not hold is never shown",
        )
    ]


def _ledger_era(layout: Layout, records: Records) -> bool:
    """True when the tree was written with a ledger: ``checksums.json`` records one, or a day's
    manifest says it is recorded in one."""
    if records.sums.recorded(records.ledger.path):
        return True
    mark = json.dumps(MARK).encode()
    for channel in layout.channels():
        for day in layout.days(channel):
            manifest = layout.day(channel, day) / "manifest.json"
            if kind(manifest) == "file" and mark in read_bytes(manifest):
                return True
    return False


def _check(
    layout: Layout, channels: list[Channel] | None, hashes: dict[Path, Any], publishing: bool
) -> Tree:
    """Check and repair the tree (the lock held): planted links, then each list, then the
    index and ``checksums.json``."""
    said = check_tree(layout)
    records = Records.read(layout.out)
    sums, ledger = records.sums, records.ledger
    if sums.problem is not None:
        said.append(
            line(
                DAMAGED,
                f"{sums.path} {sums.problem}: it was changed after the run wrote it; the pages "
                "and index files are drawn again from the archive, and their checksums "
                "recorded again",
            )
        )
        sums.problem = None  # said: from here on it is an empty record, written at the end
    elif not sums.existed and ledger.raw:
        said.append(
            line(
                DAMAGED,
                f"{sums.path} is missing: it was removed after the run wrote it; the days are "
                "checked against the ledger, each day's page against the page its data draws, "
                "and the index files are drawn again; all are recorded again",
            )
        )
    said += check_index(layout, sums, hashes)
    chosen = channels if channels is not None else layout.channels()
    problem = ledger.problem
    if problem is None and not ledger.raw and _ledger_era(layout, records):
        problem = f"{ledger.path} is missing, but the tree was written with one"
    scans: dict[Channel, Scan] = {}
    replays: dict[Channel, replay.Checked] = {}
    for ch in chosen:
        told, scans[ch], replays[ch] = _channel(
            layout, ch, records, hashes, publishing, problem is not None
        )
        said += told
    if problem is None and not ledger.raw and chosen:
        if publishing:
            said += _adopt(layout, records, scans, replays)
            for ch in chosen:  # from now on against the ledger
                scans[ch] = scan(layout, ch, hashes=hashes, records=records)
                replays[ch] = replay.check(layout, ch, scans[ch].good, hashes, records)
        else:
            said.append(line(IGNORED, f"{ledger.path}: no ledger yet (the tree was written "
                                      "before it): the next run begins it"))  # fmt: skip
    if problem is not None:
        said.append(line(DAMAGED, f"{problem}; {RESTORE}"))
    for folder in (layout.out, sums.path.parent):
        for tmp in folder.glob(".*.tmp") if is_dir(folder) else ():
            if kind(tmp) != "dir":
                os.unlink(tmp)
    if layout.channels() and problem is None:
        said += write_index(layout, scans, records, hashes)
    return Tree(layout, scans, replays, said, hashes, problem)


def check_and_repair(
    out: str | os.PathLike[str], channel: Channel | None = None, *, wait: bool = False
) -> Tree:
    """Check the tree ``out`` against its ledger and finish what killed runs left, as every run
    does before it publishes (the lock taken, ``wait``: for a run that holds it): the
    :class:`Tree` that :func:`whr.publish.previous` and :func:`whr.publish.publish` are
    given. ``channel``: only this list. A tree written before the ledger is adopted."""
    layout = Layout(Path(out))
    with hold(layout.out, wait=wait), COMMIT:
        if not is_dir(layout.out) and kind(layout.out) != "link":
            return Tree(layout, {}, {}, [])
        return _check(layout, [channel] if channel is not None else None, {}, True)


def recover(out: str | os.PathLike[str], channel: Channel | None = None) -> list[str]:
    """Repair what killed runs left in the published tree ``out``, and check every archived
    file against what was published; return what was found and done.

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
        ``repaired: ...`` (put right), ``damaged: ...`` (a file that does not check, or one the
        ledger records that is missing, with what to do; never deleted), ``foreign: ...`` (a
        day, month file or replay the ledger does not hold; never used), ``kept: ...`` (left
        as it is because of damage), ``ignored: ...`` (not used, and why), ``recorded: ...``
        (records begun).

    Raises
    ------
    whr.publish.layout.TreeError
        When a directory of the archive is a symbolic link (the run refuses to follow it).
    """
    layout = Layout(Path(out))
    if not is_dir(layout.out) and kind(layout.out) != "link":
        return []
    return check_and_repair(out, channel).said


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

    def _of(self, kind: str) -> tuple[str, ...]:
        lead = f"{kind}: "
        return tuple(x[len(lead) :] for x in self.said if x.startswith(lead))

    @property
    def damaged(self) -> tuple[str, ...]:
        """Each damaged file found, with what to do (or what was done: a page written again, a
        manifest restored from its month's copy)."""
        return self._of(DAMAGED)

    @property
    def foreign(self) -> tuple[str, ...]:
        """Each day, month file or replay found that the ledger does not hold."""
        return self._of(FOREIGN)

    @property
    def ok(self) -> bool:
        """True when nothing was found damaged or foreign."""
        return not self.damaged and not self.foreign


def verify(out: str | os.PathLike[str], *, wait: bool = False) -> Verified:
    """Check every file of the archive of ``out`` against what was published, as every run
    does, and say what was found: ``rif-rating --verify``.

    It publishes nothing, and never removes or rewrites a published file: it finishes only what
    a killed run recorded in the ledger, restores a day's manifest from its month's copy (the
    version the ledger records), and draws again the views that do not match (pages, index
    files, the site). A file found damaged counts even when it was put right: something changed
    the archive. ``wait``: wait for a run that holds the tree's lock.
    """
    layout = Layout(Path(out))
    if not is_dir(layout.out):
        raise StateError(f"{layout.out}: no published tree there")
    hashes: dict[Path, Any] = {}
    with hold(layout.out, wait=wait), COMMIT:
        tree = _check(layout, None, hashes, False)
        return Verified(
            lists=len(tree.scans),
            days=sum(len(f.good) + len(f.damaged) for f in tree.scans.values()),
            files=len(hashes),
            bytes=sum(os.lstat(p).st_size for p in hashes if kind(p) == "file"),
            said=tuple(tree.said),
        )


__all__ = ["Tree", "Verified", "check_and_repair", "recover", "verify"]
