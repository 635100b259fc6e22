"""Scanning a list's archive: every day checked, and no planted link followed.

See :mod:`whr.publish.archive`.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whr.publish.archive.entry import REPAIRED, Damaged, Entry, check, line
from whr.publish.checksums import Checksums
from whr.publish.files import is_dir, kind, link_target, read_bytes
from whr.publish.layout import DAY, Channel, Layout, real_dir
from whr.publish.ledger import NAME, Records


@dataclass
class Scan:
    """What :func:`scan` found in one list's archive."""

    good: list[Entry]
    damaged: list[Damaged]
    foreign: list[Path] = field(default_factory=list)
    """The days in the tree that the ledger does not hold: never shown, linked or used."""

    @property
    def pending(self) -> bool:
        """True when a change the ledger records is not yet done (a killed run's)."""
        return any(e.pending for e in self.good)

    def shown(self, today: dt.date) -> list[Entry]:
        """The days a site may show: those that check, up to tomorrow (a list dated later was
        made by a clock that was wrong, and is never shown)."""
        return [e for e in self.good if e.day <= today + dt.timedelta(days=1)]


def scan(
    layout: Layout,
    channel: Channel,
    *,
    hashes: dict[Path, Any] | None = None,
    records: Records | None = None,
) -> Scan:
    """Check every published day of ``channel`` (:func:`whr.publish.archive.entry.check`):
    complete entries, oldest first, damaged ones, and the days the ledger does not hold.

    The days are those the ledger holds (``records``: the tree's, read when not given), each
    manifest checked against it; in a tree written before the ledger, those in the tree, each
    manifest checked against ``checksums.json``. Every file every manifest lists (a day's list,
    the December 31 tables, the month files) is checked against its sha256. ``hashes`` (see
    :func:`whr.publish.checksums.cached_sha256`) spares a run hashing a file twice.
    """
    hashes = {} if hashes is None else hashes
    records = Records.read(layout.out) if records is None else records
    in_tree = layout.days(channel)
    days = records.ledger.days(layout, channel) if records.authority else in_tree
    good: list[Entry] = []
    damaged: list[Damaged] = []
    for day in days:
        path = layout.day(channel, day)
        found = check(path, day, channel, records.expected(path / "manifest.json"), hashes)
        if isinstance(found, Entry):
            good.append(found)
        else:
            damaged.append(found)
    held = set(days)
    return Scan(good, damaged, [layout.day(channel, d) for d in in_tree if d not in held])


def read_pointer(layout: Layout, channel: Channel) -> dict[str, Any] | None:
    """The current site's ``latest.json``, or None when it is missing or damaged."""
    try:
        pointer = json.loads(read_bytes(layout.pointer(channel)).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return pointer if isinstance(pointer, dict) else None


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
    unplant(layout.out / "archive" / NAME)
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
