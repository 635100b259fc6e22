"""Publishing a day of a list as one recoverable transaction, and repairing what a killed run left.

The archive entry is the truth; the current site is a view rendered from it. The lists are
built before (:func:`whr.lists.build`, from the previous list of the same kind that
:func:`previous` reads: before anything changes, so that a damaged earlier day cannot fail the
new list after it went live). :func:`publish` writes the :class:`whr.lists.Snapshot` it is given
and decides nothing about what is on the list:

1. checks that the snapshot was built against the list that is still the previous one;
2. checks the gates (:mod:`whr.publish.gates`);
3. writes the entry and, when the day is the newest, renders the site from the written entry,
   both inside a work directory ``archive/<list>/.work-<token>/``, and verifies them;
4. commits: moves an existing entry of the same day aside, renames the new entry into place
   (the commit point: from here on the day is published), and exchanges the new site with the
   current one (one ``renameat2(RENAME_EXCHANGE)`` on Linux, two renames elsewhere);
5. tidies: removes what was moved aside, compacts the archive, rewrites the index.

A run killed at any point leaves a tree that :func:`recover` repairs, and every run (and every
``publish``) starts with it: planted links are removed or refused
(:func:`whr.publish.archive.check_tree`), a moved-aside entry whose replacement never arrived is
put back (only when its manifest names that day and its files match their checksums), work
directories and temporary files are removed, the archive is checked
(:func:`whr.publish.archive.scan`), a site that does not show the newest complete day — because
the run died between step 4's two renames, or the pointer or the site's copy of the list was
damaged — is rendered again from that day's entry, and an interrupted compaction is finished.
The site shows exactly what the entry's files hold (a publish draws it from the snapshot it has
just written, a repair from the files), so a repaired tree is the tree a clean run leaves.
Every file of the archive is checked against its recorded sha256 on the way
(:mod:`whr.publish.checksums`); :func:`verify` (``rif-rating --verify``) does the same and
says whether anything was found damaged.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from whr.lists import Previous, RuleNumbers, Snapshot, Tables, View
from whr.lists import record as lists_record
from whr.lists import view as lists_view
from whr.lists.at_the_time import carry
from whr.publish import gates, replay
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
    day_page,
    line,
    page_links_list,
    read_list,
    read_pointer,
    scan,
    verify_files,
    write_day_page,
    write_index,
)
from whr.publish.checksums import Checksums, cached_sha256, check_file
from whr.publish.files import (
    copy_file,
    exchange,
    is_dir,
    kind,
    link_target,
    make_dir,
    named,
    read_bytes,
    read_parquet,
    remove,
    sha256,
    token,
    write_bytes,
    write_json,
)
from whr.publish.layout import DAY, Channel, Layout
from whr.publish.lock import COMMIT, hold
from whr.publish.parquet import jsonable, versions, write_entry
from whr.run import Run
from whr.tables import (
    FACTS_NEEDED,
    FORMAT_VERSION,
    HISTORY,
    RATED_GAMES,
    RECORD,
    TOURNAMENT_CHANGES,
    SourceData,
    empty,
)

__all__ = [
    "Published",
    "Verified",
    "absent",
    "manifest",
    "previous",
    "publish",
    "recover",
    "render_site",
    "unchanged",
    "verify",
]

FACTS_NEEDED_FILE = "facts_needed.csv"
"""Tournaments whose unknown minutes or mode hold games' verdicts (:func:`whr.rules.facts_needed`),
ready to be filled and copied into the rules' ``tournament_facts.csv``."""


@dataclass(frozen=True)
class Published:
    """What :func:`publish` did.

    Attributes
    ----------
    channel : Channel
        The list (category, and variant if any).
    day : datetime.date
        The list date.
    entry : Path
        The day's archive entry.
    site : Path or None
        The current site, when it now shows this day (None for a past day).
    ratings : pandas.DataFrame
        The day's list.
    previous_day : datetime.date or None
        The previous list of the same kind, compared with this one.
    previous : pandas.DataFrame or None
        Its list (None when there is none or it could not be read).
    warnings : tuple of str
        What went wrong without stopping the list (a damaged earlier day, a gate overridden).
    repaired : tuple of str
        What the run found and repaired in the archive before it began, one line each
        (``repaired: ...``, ``damaged: ...``: see :func:`recover`).
    counts : dict
        The manifest's counts (players by status, rated games, facts needed, ...).
    """

    channel: Channel
    day: dt.date
    entry: Path
    site: Path | None
    ratings: pd.DataFrame
    previous_day: dt.date | None = None
    previous: pd.DataFrame | None = None
    warnings: tuple[str, ...] = ()
    repaired: tuple[str, ...] = field(default=())
    counts: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# The commit's steps (each its own function: the kill tests stop a run just before one)


def swap(new: Path, target: Path) -> None:
    """Put the new site ``new`` at ``target``; the old one ends up at ``new``
    (:func:`whr.publish.files.exchange`: atomic on Linux)."""
    exchange(new, target)


def move_aside(entry: Path) -> Path:
    """Move a published day's entry aside (``.<day>.old-<token>``) before it is replaced."""
    aside = entry.with_name(f".{entry.name}.old-{token()}")
    os.replace(entry, aside)
    return aside


def rename_in(staged: Path, entry: Path) -> None:
    """Rename a verified entry into place: the commit point of a published day."""
    os.rename(staged, entry)


def tidy(
    layout: Layout, channel: Channel, work: Path, aside: Path | None, hashes: dict[Path, Any]
) -> list[str]:
    """After a commit: remove the work directory and what was moved aside, compact, index."""
    with COMMIT:
        if aside is not None:
            remove(aside)
        remove(work)
        sums = Checksums.read(layout.out)
        said = compact(layout, channel, hashes=hashes, sums=sums)
        found = scan(layout, channel, hashes=hashes, sums=sums)
        return said + write_index(layout, {channel: found}, sums, hashes)


# ---------------------------------------------------------------------------------------------
# Rendering the site of an entry


ADDED = {"tournament_changes": 5, "record": 6}
"""Tables of :class:`whr.lists.Tables` added by a later format (stem -> its first
``FORMAT_VERSION``): an entry written before it has none, and reads as an empty table."""


def read_tables(entry: Entry) -> Tables:
    """Every table of a full entry (one added since the entry was written: empty)."""
    return Tables(
        **{
            stem: read_parquet(entry.path / f"{stem}.parquet", schema)
            if stem not in ADDED or f"{stem}.parquet" in entry.manifest["files"]
            else empty(schema)
            for stem, schema in Tables.SCHEMAS.items()
        }
    )


def render_site(layout: Layout, entry: Entry, target: Path, view: View | None = None) -> None:
    """Render the current site of ``entry``'s list, showing its day, into the new ``target``.

    ``view`` is what the pages show (the snapshot's, as it was written into the entry); without
    it, it is computed again from the entry's files (:func:`whr.lists.view`), as a repair
    does: the snapshot's tables are those the files read back as, so the two sites are the same.
    """
    from whr.publish.site import write

    if view is None:
        view = lists_view(
            entry.day,
            entry.channel.category,
            read_tables(entry),
            RuleNumbers.from_record(entry.manifest.get("rules")),
        )
    options = entry.manifest.get("site") or {}
    site = layout.site(entry.channel)  # where it will be served from
    links = {
        "data": os.path.relpath(layout.day(entry.channel, entry.day), site) + "/",
        "archive": os.path.relpath(layout.archive_html, site),
        "days": os.path.relpath(layout.archive(entry.channel), site) + "/",
    }
    # the published days up to this one (the feed's entries)
    days = sorted({d for d in layout.days(entry.channel) if d <= entry.day} | {entry.day})
    try:
        write(
            target,
            view,
            {**entry.manifest, "links": links, "days": [d.isoformat() for d in days]},
            base_url=options.get("base_url"),
            game_links=bool(options.get("game_links", False)),
        )
    except OSError as exc:  # a page's write names no file: say at least where
        raise named(exc, target) from None
    for name in SITE_COPIES:
        if name in entry.manifest["files"]:
            copy_file(entry.path / name, target / name)
    write_json(
        target / "latest.json",
        {
            "category": entry.channel.category,
            "variant": entry.channel.variant,
            "date": entry.day.isoformat(),
            "archive": layout.relative(layout.day(entry.channel, entry.day)) + "/",
            "manifest_sha256": entry.manifest_sha256,
        },
    )


SITE_COPIES = ("ratings.parquet", FACTS_NEEDED_FILE)
"""Files of the newest entry that its site holds a copy of (checked on every run)."""


def _shows(layout: Layout, channel: Channel, entry: Entry, hashes: dict[Path, Any]) -> bool:
    """True when the site shows ``entry``: its pointer names it, its pages are there and its
    copies of the entry's files match their checksums."""
    site = layout.site(channel)
    pointer = read_pointer(layout, channel)
    if not (
        is_dir(site)
        and pointer is not None
        and pointer.get("date") == entry.day.isoformat()
        and pointer.get("manifest_sha256") == entry.manifest_sha256
        and kind(site / "index.html") == "file"
    ):
        return False
    for name in SITE_COPIES:
        info = entry.manifest["files"].get(name)
        if info is not None and (
            kind(site / name) != "file" or cached_sha256(site / name, hashes) != info["sha256"]
        ):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Repair


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


# ---------------------------------------------------------------------------------------------
# "No new data"


def unchanged(
    run: Run, category: str, inputs_sha256: str, rules_sha256: str
) -> dict[str, Any] | None:
    """The manifest of the published day that this run would publish again, else None.

    The day is the same when its entry is complete and was made from the same input with the
    same parameters (:meth:`whr.run.Run.parameters`); a damaged entry is never "the same".
    """
    layout = Layout(run.out)
    channel = Channel(category, run.variant)
    path = layout.day(channel, run.as_of)
    if not is_dir(path):
        return None
    found = check_day(path, run.as_of, channel, "all", {}, Checksums.read(layout.out))
    if not isinstance(found, Entry):
        return None
    recorded = found.manifest.get("parameters") or {}
    same = found.manifest.get("inputs_sha256") == inputs_sha256 and all(
        recorded.get(k) == v for k, v in run.parameters(category, rules_sha256).items()
    )
    return found.manifest if same else None


def absent(run: Run, data: SourceData) -> dict[str, str]:
    """The run's categories that have nothing to publish, each with the sentence that says so.

    A category is absent when no tournament of the input is of it and its list was never
    published (for example gomoku, when the input is a directory of renju tables). A list that
    was published before is never absent: if its games vanish, the gates refuse it.
    """
    present = set(data.tournaments["category"].dropna())
    layout = Layout(run.out)
    return {
        c: f"no {c} tournament in the input and no {c} list published before: nothing to publish"
        for c in run.categories
        if c not in present and not layout.days(Channel(c, run.variant))
    }


# ---------------------------------------------------------------------------------------------
# Publishing


GAMES_ON_LIST = pa.schema([RATED_GAMES.field("game_id"), RATED_GAMES.field("tournament_id")])
"""What is read of the previous list's games: which games and tournaments it had (the rest of
its ``games.parquet`` is not read: a sixth of the time)."""


def _checked(entry: Entry, name: str, schema: pa.Schema) -> pd.DataFrame:
    """A table of ``entry``, read after its checksum is checked."""
    wrong = check_file(entry.path / name, entry.manifest["files"][name], {}, "its manifest")
    if wrong is not None:
        raise StateError(f"{entry.path / name} {wrong}")
    return read_parquet(entry.path / name, schema)


def _changes(entry: Entry, replayed: replay.Replay | None) -> pd.DataFrame | None:
    """The changes at the time carried to the list after ``entry``: the entry's own table,
    with the rows of the newest replay that checks (:mod:`whr.publish.replay`) for the
    tournaments it has none of, up to its day (the archive's own rows first: where they
    overlap, the two agree). None when there is neither."""
    name = "tournament_changes.parquet"
    kept = _checked(entry, name, TOURNAMENT_CHANGES) if name in entry.manifest["files"] else None
    if replayed is None:
        return kept
    rows = replayed.changes()
    return carry([kept, rows[[d <= entry.day for d in rows["first_list_date"]]]])


def _record(entry: Entry, published: list[Entry], replayed: replay.Replay | None) -> pd.DataFrame:
    """The record carried to the list after ``entry``: the entry's own (``record.parquet``)
    or, for an entry written before the record began, the record of every list the archive
    holds up to it (each day's list, read after its checksum was checked); before the
    archive's first list, the newest replay's rows (:func:`whr.lists.record.carry`)."""
    name = "record.parquet"
    if name in entry.manifest["files"]:
        kept = _checked(entry, name, RECORD)
    else:
        months: dict[Path, pd.DataFrame] = {}  # a month's file read once for its days
        lists = (read_list(e, months) for e in published if e.day <= entry.day)
        kept = lists_record.extend(None, lists)
    start = min(kept["list_date"]) if len(kept) else entry.day
    return lists_record.carry(replayed.record() if replayed else None, kept, start)


def _carried(
    entry: Entry, published: list[Entry], replays: replay.Checked
) -> tuple[pd.DataFrame | None, pd.DataFrame | None, tuple[str, ...]]:
    """What the list after ``entry`` carries on: the changes at the time and the record, with
    the newest replay that checks; and what went wrong (a replay that does not check is never
    read; one that cannot be read after all is left out, and said)."""
    said = list(replays.bad)
    replayed = replays.newest
    try:
        return _changes(entry, replayed), _record(entry, published, replayed), tuple(said)
    except Exception as exc:
        if replayed is None:
            raise
        said.append(f"{replayed.path} could not be read ({exc}): it is not used; run "
                    "rif-rating backfill again")  # fmt: skip
    return _changes(entry, None), _record(entry, published, None), tuple(said)


def _previous(
    layout: Layout, published: list[Entry], day: dt.date, replays: replay.Checked
) -> Previous | None:
    """The previous list of the same kind: its rows and, when the entry still holds them, its
    rating history (for the split of the changes), its games, its changes at the time and its
    record (for the tournaments new to the next list, and the next list's record). One that
    cannot be read says why; a replay that does not check is never read, and said."""
    earlier = [e for e in published if e.day < day]
    if not earlier:
        return None
    entry = earlier[-1]
    changes, said, warnings = None, None, tuple(replays.bad)
    try:  # what was kept is carried on, even when the list cannot be read
        changes, said, warnings = _carried(entry, published, replays)
        rows = read_list(entry)  # its checksum was checked by the repair's scan
        if not entry.full:
            return Previous(entry.day, rows, changes=changes, record=said, warnings=warnings)
        return Previous(
            entry.day,
            rows,
            _checked(entry, "history.parquet", HISTORY),
            games=_checked(entry, "games.parquet", GAMES_ON_LIST),
            changes=changes,
            record=said,
            warnings=warnings,
        )
    except Exception as exc:  # a damaged Parquet file raises pyarrow's own errors
        what = exc if isinstance(exc, (StateError, OSError)) else f"{type(exc).__name__}: {exc}"
        return Previous(
            entry.day, None, problem=str(what), changes=changes, record=said, warnings=warnings
        )


def previous(run: Run, category: str) -> Previous | None:
    """The previous published list of ``category``'s kind before ``run.as_of``, for
    :func:`whr.lists.build`; None when there is none.

    Read under the published tree's lock, after the list's repair (that :func:`publish` also
    makes: a day a killed run left moved aside, or whose manifest is restored from its month,
    counts); :func:`publish` checks that it is still the previous list. A list that cannot be
    read is returned with ``ratings`` None and the reason, and the new list then shows no
    changes.
    """
    layout = Layout(run.out)
    channel = Channel(category, run.variant)
    with hold(layout.out, wait=run.wait):
        with COMMIT:
            _, scans = _repair(layout, [channel], {})
        good = scans[channel].good
        return _previous(layout, good, run.as_of, replay.check(layout, channel, good))


def _built_against(published: list[Entry], snapshot: Snapshot) -> Entry | None:
    """The entry of the list the snapshot's changes were measured from (None: none, or one that
    could not be read); refuses a snapshot built against another list than the previous one."""
    earlier = [e for e in published if e.day < snapshot.as_of]
    entry = earlier[-1] if earlier else None
    built = snapshot.previous
    if (entry.day if entry else None) != (built.day if built else None):
        now = f"the list of {entry.day}" if entry else "none"
        then = f"the list of {built.day}" if built else "no previous list"
        raise StateError(
            f"the {snapshot.category} lists of {snapshot.as_of} were built against {then}, but "
            f"the previous published list is {now}: build them again "
            "(whr.lists.build with whr.publish.previous)"
        )
    return entry if built is not None and built.ratings is not None else None


def manifest(
    run: Run,
    snapshot: Snapshot,
    *,
    rules_sha256: str,
    previous: Entry | None,
    forced: dict[str, Any] | None,
    warnings: list[str],
    site: dict[str, Any],
    created: dt.datetime,
) -> dict[str, Any]:
    """The manifest of a day (without ``files``, which :func:`write_entry` adds): the run,
    the snapshot and the inputs, with what this publish decided (the forced gates, the
    warnings, the site's options) and when."""
    return {
        "format": FORMAT_VERSION,
        "list": {"category": snapshot.category, "variant": run.variant},
        "as_of": snapshot.as_of.isoformat(),
        "schema_version": str(FORMAT_VERSION),
        "parameters": run.parameters(snapshot.category, rules_sha256),
        "run": run.record(),
        "forced": forced,
        "fit_params": jsonable(snapshot.fit.params),
        "fit": {"iterations": snapshot.fit.iterations, "converged": snapshot.fit.converged},
        "rules": snapshot.rules.record(),
        "inputs": [{"name": n, "sha256": h} for n, h in snapshot.inputs],
        "inputs_sha256": snapshot.inputs_sha256 if snapshot.inputs else None,
        "counts": snapshot.counts.record(),
        "previous": {"date": previous.day.isoformat(), "manifest_sha256": previous.manifest_sha256}
        if previous
        else None,
        "warnings": warnings,
        "site": site,
        "packages": versions(),
        "created": created.isoformat(timespec="seconds"),
    }


def _gated(
    run: Run, snapshot: Snapshot, before: Entry | None, rules_sha256: str
) -> tuple[dict[str, Any] | None, list[str]]:
    """The gates (:mod:`whr.publish.gates`): raise when one refuses the list and nothing forces
    it; else what ``--force`` overrode (None without it) and the list's warnings."""
    warnings = list(snapshot.warnings)
    failed = gates.check(
        snapshot.counts.record(),
        before.manifest.get("counts") if before else None,
        before.day if before else None,
        run.max_shrink,
    )
    if failed and run.force is None:
        raise gates.GateError(gates.refusal(failed))
    if run.force is None:
        return None, warnings
    overrode = list(failed)  # the manifest names everything --force overrode
    if unchanged(run, snapshot.category, snapshot.inputs_sha256, rules_sha256) is not None:
        overrode.insert(0, f"no new data: the input and parameters equal those of {run.as_of}")
    warnings += [f"published although {f} (--force: {run.force})" for f in failed]
    return {"reason": run.force, "overrode": overrode}, warnings


def _commit(
    layout: Layout, channel: Channel, snapshot: Snapshot, info: dict[str, Any], shows: bool
) -> tuple[Path, Path | None]:
    """Steps 3 and 4 (see the module docstring): write the entry (and, when it ``shows``, the
    site) in a work directory, then commit; returns the work directory and the entry moved
    aside (None: the day was not published before). Undone and removed on any failure."""
    day = snapshot.as_of
    work = make_dir(layout.archive(channel) / f".work-{token()}")
    try:
        staged = make_dir(work / "entry")
        written = write_entry(
            staged,
            snapshot.tables,
            info,
            csv={FACTS_NEEDED_FILE: (snapshot.facts_needed, FACTS_NEEDED)},
        )
        entry = Entry(channel, day, staged, written, sha256(staged / "manifest.json"))
        target = layout.day(channel, day)
        page = day_page(layout, entry, snapshot.tables.ratings, at=target)
        write_bytes(staged / "index.html", page)
        if shows:
            render_site(layout, entry, work / "site", snapshot.view)
        with COMMIT:
            # recorded before the day is renamed in: what the entry holds from then on
            Checksums.read(layout.out).expect(
                {target / "manifest.json": read_bytes(staged / "manifest.json"),
                 target / "index.html": page}
            )  # fmt: skip
            aside = move_aside(target) if kind(target) is not None else None
            try:
                rename_in(staged, target)
                if shows:
                    swap(work / "site", layout.site(channel))
            except BaseException:
                if kind(target) is not None and kind(staged) is None:
                    os.rename(target, staged)
                if aside is not None:
                    os.replace(aside, target)
                raise
    except BaseException:
        remove(work)
        raise
    return work, aside


def publish(
    run: Run,
    snapshot: Snapshot,
    *,
    rules_sha256: str,
) -> Published:
    """Publish ``snapshot``, the list of its category on ``run.as_of``: archive entry, current
    site, index. The site's public address is ``run.base_url`` followed by the site's folder
    (``renju/``), and its game links follow ``run.game_links``; both are recorded in the
    manifest (``site``), so a repair renders the same site.

    Parameters
    ----------
    run : whr.run.Run
        The run (output tree, list date, variant, force reason, gates, parameters).
    snapshot : whr.lists.Snapshot
        The day's lists (:func:`whr.lists.build`), built against :func:`previous`.
    rules_sha256 : str
        Digest of the eligibility rules directory (from :meth:`whr.run.Run.check_local`).

    Returns
    -------
    Published

    Raises
    ------
    whr.publish.gates.GateError
        When a gate refuses the list and ``run.force`` is None; nothing was published.
    whr.publish.archive.StateError
        When the snapshot was built against another list than the previous published one.
    whr.publish.parquet.PublishError
        When the written files do not verify; nothing was published.
    """
    if not isinstance(snapshot, Snapshot):
        raise TypeError(f"snapshot must be a whr.lists.Snapshot, got {type(snapshot).__name__}")
    category = snapshot.category
    if category not in run.categories:
        raise ValueError(f"category: expected one of the run's {run.categories}, got {category!r}")
    if snapshot.as_of != run.as_of:
        raise ValueError(
            f"snapshot: the lists of {snapshot.as_of}, but the run's day is {run.as_of}"
        )
    layout = Layout(run.out)
    channel = Channel(category, run.variant)
    base_url = None  # the site's own address (the run checked run.base_url)
    if run.base_url is not None:
        base_url = run.base_url + layout.relative(layout.site(channel)) + "/"
    day = run.as_of
    hashes: dict[Path, Any] = {}
    with hold(layout.out, wait=run.wait):
        with COMMIT:
            repaired, scans = _repair(layout, [channel], hashes)
        published = scans[channel].good
        latest = published[-1] if published else None
        before = _built_against(published, snapshot)
        forced, warnings = _gated(run, snapshot, before, rules_sha256)
        info = manifest(
            run,
            snapshot,
            rules_sha256=rules_sha256,
            previous=before,
            forced=forced,
            warnings=warnings,
            site={"base_url": base_url, "game_links": run.game_links},
            created=dt.datetime.now(dt.UTC),
        )
        shows = latest is None or day >= latest.day
        work, aside = _commit(layout, channel, snapshot, info, shows)
        # Committed: the day is published. What is left is tidying, which the next run's
        # repair also does, so a failure here is a warning, not a failed list.
        try:
            warnings += tidy(layout, channel, work, aside, hashes)
        except Exception as exc:
            warnings.append(f"tidying after the publish failed ({exc}); the next run repairs it")
    return Published(
        channel=channel,
        day=day,
        entry=layout.day(channel, day),
        site=layout.site(channel) if shows else None,
        ratings=snapshot.tables.ratings,
        previous_day=before.day if before else None,
        previous=snapshot.previous.ratings if before and snapshot.previous else None,
        warnings=tuple(warnings),
        repaired=tuple(repaired),
        counts=snapshot.counts.record(),
    )
