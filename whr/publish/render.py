"""Rendering the current site of a list from an archive entry.

The archive entry is the truth; the current site is a view rendered from it, by a publish
(from the snapshot it has just written) or by a repair (from the entry's files): the two draw
the same site. Its ``latest.json`` names the day, its entry and the ledger's line that published
it (:func:`write_pointer`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from whr.lists import RuleNumbers, Tables, View
from whr.lists import view as lists_view
from whr.publish.archive import (
    Entry,
    read_pointer,
)
from whr.publish.checksums import cached_sha256
from whr.publish.files import (
    copy_file,
    exchange,
    is_dir,
    kind,
    named,
    read_parquet,
    write_json,
)
from whr.publish.layout import Channel, Layout
from whr.publish.ledger import Ledger
from whr.tables import (
    empty,
)

FACTS_NEEDED_FILE = "facts_needed.csv"
"""Tournaments whose unknown minutes or mode hold games' verdicts (:func:`whr.rules.facts_needed`),
ready to be filled and copied into the rules' ``tournament_facts.csv``."""


def swap(new: Path, target: Path) -> None:
    """Put the new site ``new`` at ``target``; the old one ends up at ``new``
    (:func:`whr.publish.files.exchange`: atomic on Linux)."""
    exchange(new, target)


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


def render_site(
    layout: Layout,
    entry: Entry,
    target: Path,
    view: View | None = None,
    *,
    ledger: Ledger | None = None,
) -> None:
    """Render the current site of ``entry``'s list, showing its day, into the new ``target``.

    ``view`` is what the pages show (the snapshot's, as it was written into the entry); without
    it, it is computed again from the entry's files (:func:`whr.lists.view`), as a repair
    does: the snapshot's tables are those the files read back as, so the two sites are the same.
    ``ledger``: the tree's (the days its feed lists, and the line that published the day, for
    ``latest.json``); a publish gives none and writes the pointer at its commit point.
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
    # the published days up to this one (the feed's entries): those the ledger holds
    ledger = Ledger.read(layout.out) if ledger is None else ledger
    held = ledger.days(layout, entry.channel) if ledger.raw else layout.days(entry.channel)
    days = sorted({d for d in held if d <= entry.day} | {entry.day})
    heads = {  # the ledger's head when each day was published (each feed entry gives it)
        d.isoformat(): ledger.parent(
            layout.day(entry.channel, d) / "manifest.json",
            entry.manifest_sha256 if d == entry.day else None,
        )
        for d in days
    }
    try:
        write(
            target,
            view,
            {
                **entry.manifest,
                "links": links,
                "days": [d.isoformat() for d in days],
                "ledger_heads": {d: list(h) for d, h in heads.items() if h},
            },
            base_url=options.get("base_url"),
            game_links=bool(options.get("game_links", False)),
        )
    except OSError as exc:  # a page's write names no file: say at least where
        raise named(exc, target) from None
    for name in SITE_COPIES:
        if name in entry.manifest["files"]:
            copy_file(entry.path / name, target / name)
    write_pointer(
        layout,
        entry,
        target,
        ledger.publication(entry.path / "manifest.json", entry.manifest_sha256),
    )


def write_pointer(layout: Layout, entry: Entry, target: Path, line: tuple[int, str] | None) -> None:
    """Write the site's ``latest.json`` into ``target``: the day it shows, its archive entry,
    the sha256 of its manifest and the ledger's line that published it (number and sha256: a
    mirror or a consumer holding it checks that the ledger's history only grew)."""
    write_json(
        target / "latest.json",
        {
            "category": entry.channel.category,
            "variant": entry.channel.variant,
            "date": entry.day.isoformat(),
            "archive": layout.relative(layout.day(entry.channel, entry.day)) + "/",
            "manifest_sha256": entry.manifest_sha256,
            "ledger": {"line": line[0], "sha256": line[1]} if line else None,
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
