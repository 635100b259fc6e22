"""The index of everything published (``published.json``, ``datapackage.json``, ``archive.html``, the root ``index.html``), and each day's page.

See :mod:`whr.publish.archive`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd

from whr.publish.archive.entry import DAMAGED, RECORDED, Damaged, Entry, _list_file, changed, line
from whr.publish.archive.scan import Scan, read_pointer, scan
from whr.publish.checksums import Checksums
from whr.publish.datapackage import descriptor
from whr.publish.files import json_text, read_bytes, write_if_changed
from whr.publish.layout import Channel, Layout
from whr.publish.ledger import Records
from whr.tables import FORMAT_VERSION


def _left_out(d: Damaged) -> str:
    return f"{d.what} (the day is left out of the index until then)"


def _page_href(layout: Layout, path: Path, manifest: dict[str, Any]) -> str:
    return os.path.relpath(_list_file(path, manifest), path)


def day_page(layout: Layout, entry: Entry, ratings: pd.DataFrame, at: Path | None = None) -> bytes:
    """The page of an entry's day (``index.html``): the top of its list, and its data.

    ``at`` is where the entry will be served from, when it is still being prepared elsewhere
    (the page's links are relative to it); by default where it is.
    """
    from whr.publish.site.archive import day_page as html

    home = at if at is not None else entry.path
    text = html(
        entry.manifest,
        ratings,
        list_href=_page_href(layout, entry.path, entry.manifest),  # a sibling: same from ``at``
        site_href=os.path.relpath(layout.site(entry.channel), home) + "/",
        archive_href=os.path.relpath(layout.archive_html, home),
    )
    return text.encode("utf-8")


def write_day_page(layout: Layout, entry: Entry, ratings: pd.DataFrame, sums: Checksums) -> None:
    """Write the page of a published entry's day in place, recorded in ``sums`` first."""
    sums.write(entry.path / "index.html", day_page(layout, entry, ratings))


def page_links_list(layout: Layout, entry: Entry) -> bool:
    """True when the day's page links the file that holds its list (the manifest's)."""
    try:
        page = read_bytes(entry.path / "index.html").decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return f'href="{_page_href(layout, entry.path, entry.manifest)}"' in page


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


INDEX_FILES = ("published.json", "datapackage.json", "archive.html", "index.html")
"""The index files of ``OUT``, rewritten by every run from the checked archive."""


def write_index(
    layout: Layout,
    scans: dict[Channel, Scan] | None = None,
    records: Records | None = None,
    hashes: dict[Path, Any] | None = None,
) -> list[str]:
    """Rewrite ``published.json``, ``datapackage.json``, ``archive.html`` and the root
    ``index.html`` (each only when it changes, recorded in ``checksums.json`` first), then
    settle ``checksums.json`` (:meth:`whr.publish.checksums.Checksums.settle`): the end of
    every run. Returns the line that says which files were recorded for the first time."""
    from whr.publish.site.archive import archive_page, redirect_page

    records = Records.read(layout.out) if records is None else records
    sums = records.sums
    hashes = {} if hashes is None else hashes
    found = {
        c: (scans or {}).get(c) or scan(layout, c, hashes=hashes, records=records)
        for c in layout.channels()
    }
    value = index(layout, found)
    if records.authority:
        value["ledger"] = {
            "path": records.ledger.key(records.ledger.path),
            "lines": len(records.ledger.raw),
            "head": records.ledger.head,
        }
    lists = [
        (channel, checked.good[-1] if checked.good else None, listed["latest"])
        for (channel, checked), listed in zip(found.items(), value["lists"], strict=True)
    ]
    official = [x for x in value["lists"] if x["variant"] is None and x["latest"]]
    renju = [x for x in official if x["category"] == "renju"] or official
    target = renju[0]["site"] + "index.html" if renju else "archive.html"
    category = renju[0]["category"] if renju else "renju"
    texts = (
        json_text(value),
        json_text(descriptor(layout, lists)),
        archive_page(value),
        redirect_page(target, category),
    )
    files = {layout.out / n: t.encode("utf-8") for n, t in zip(INDEX_FILES, texts, strict=True)}
    sums.expect(files)
    for path, data in files.items():
        write_if_changed(path, data)
    good = [e.path for checked in found.values() for e in checked.good]
    if records.authority:  # the manifests are the ledger's; checksums.json keeps the views
        held = good + [d.path for checked in found.values() for d in checked.damaged]
        keep = [p / "index.html" for p in held] + list(files) + [records.ledger.path]
        added = sums.settle([p / "index.html" for p in good] + list(files), hashes, keep=keep)
    else:
        added = sums.settle(
            [p / n for p in good for n in ("manifest.json", "index.html")] + list(files), hashes
        )
    if not added:
        return []
    shown = ", ".join(added[:3]) + (f" and {len(added) - 3} more" if len(added) > 3 else "")
    return [
        line(
            RECORDED,
            f"the checksums of {len(added)} file{'s' if len(added) > 1 else ''} that {sums.path} "
            f"did not hold, as they are ({shown}): written before it kept them; from now on "
            "every change to them is found",
        )
    ]


def check_index(layout: Layout, sums: Checksums, hashes: dict[Path, Any]) -> list[str]:
    """A line for each index file of ``OUT`` that does not match its recorded checksum (it is
    rewritten from the archive by :func:`write_index`, which follows)."""
    said = []
    for name in INDEX_FILES:
        wrong = sums.check(layout.out / name, hashes)
        if wrong is not None:
            said.append(line(DAMAGED, f"{changed(layout.out / name, wrong)}; written again "
                                      "from the archive"))  # fmt: skip
    return said
