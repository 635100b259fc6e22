"""The archive of published days: checking it, keeping it compact, and indexing it.

Every published day of a list has an entry ``OUT/archive/<list>/<D>/`` (see
:mod:`whr.publish.layout`). An entry is created whole, by renaming a verified directory into
place; its ``manifest.json`` names the day and lists every file it holds, with size and sha256.
What was published is the ledger's (:mod:`whr.publish.ledger`): the days, their manifests'
versions, the month files and the replays it records.

Its rooms, one job each (``docs/operations.md``, *The ledger* and *Compaction*):

- :mod:`.entry`: an entry (a day's, or a replay's) and its one check, against the ledger's
  record of its manifest and the manifest's record of each file;
- :mod:`.scan`: a list's archive checked: the days the ledger holds, damaged ones, and those
  in the tree it does not hold (foreign); no planted link followed;
- :mod:`.compact`: a past day keeps its manifest, list and page (December 31 every table); a
  closed month's lists go into one file (``months/<YYYY-MM>.<hash>.parquet``, keeping a copy of
  each day's manifest), every change recorded in the ledger before it is made;
- :mod:`.index`: the index files (``published.json``, ``datapackage.json``, ``archive.html``,
  the root ``index.html``), drawn from the checked archive by every run, and each day's page.

A day that does not check is reported with what to do and left out of the index until it is
repaired; it is never deleted, and its data is never dropped. The run's report is made of lines
that say what each is (:func:`line`).
"""

from __future__ import annotations

from whr.publish.archive.compact import compact, restore
from whr.publish.archive.entry import (
    DAMAGED,
    FOREIGN,
    IGNORED,
    KEPT,
    RECORDED,
    REPAIRED,
    Damaged,
    Entry,
    StateError,
    changed,
    check,
    check_entry,
    line,
    read_json,
    read_list,
    read_manifest,
    verify_files,
)
from whr.publish.archive.index import (
    INDEX_FILES,
    check_index,
    day_page,
    index,
    page_links_list,
    write_day_page,
    write_index,
)
from whr.publish.archive.scan import Scan, check_tree, read_pointer, scan
from whr.publish.layout import TreeError

__all__ = [
    "INDEX_FILES",
    "changed",
    "page_links_list",
    "read_json",
    "read_manifest",
    "verify_files",
    "Damaged",
    "DAMAGED",
    "Entry",
    "IGNORED",
    "KEPT",
    "RECORDED",
    "REPAIRED",
    "Scan",
    "StateError",
    "TreeError",
    "check",
    "restore",
    "FOREIGN",
    "check_entry",
    "day_page",
    "check_index",
    "check_tree",
    "compact",
    "index",
    "line",
    "read_list",
    "read_pointer",
    "scan",
    "write_day_page",
    "write_index",
]
