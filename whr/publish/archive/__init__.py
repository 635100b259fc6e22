"""The archive of published days: checking it, keeping it compact, and indexing it.

Every published day of a list has an entry ``OUT/archive/<list>/<D>/`` (see
:mod:`whr.publish.layout`). An entry is created whole, by renaming a verified directory into
place, so a directory with a day's name is complete unless something damaged it; its
``manifest.json`` names the day and lists every file it holds, with size and sha256.

Checked on every run (:func:`scan`), as by ``rif-rating --verify``: every file every manifest
lists, against its sha256, and every manifest against the checksum ``checksums.json`` records
for it (:mod:`whr.publish.checksums`: every archived file is checked against a digest held in
another file). A day that does not check is reported with what to do and left out of the index
until it is repaired; it is never deleted, and its data is never dropped. The run's report is
made of lines that say what each is (:func:`line`).

Compact for years (:func:`compact`): the newest entry of a list holds every table; once a newer
day is published, an entry keeps only its manifest, its list (``ratings.parquet``) and its page
(``index.html``), except on December 31, whose entry keeps every table for ever. When a month
is over, the lists of all its days move into one file, ``months/<YYYY-MM>.<hash>.parquet``,
sorted by player then day (a player's rows of consecutive days differ little, so the month
compresses well; its floats are float32, ``whr.tables.MONTH_LISTS``), and each day's manifest
says where its list now is (``list_in``). The month file also keeps a copy of each of its days'
manifests, from which a lost manifest is restored.

Compaction is a transaction of its own, safe to interrupt anywhere (a kill, a full disk, an
error): a new version of a month's file is written beside the old one under a name of its own
(the start of its sha256), then each day's page and then its manifest are pointed at it, and
only when no manifest names the old version any more is it removed; a manifest is rewritten
before a file it stops listing is removed. So every day's list stays readable through the
archive at every moment, the next run finishes what an interrupted one began, and a month with
a day that cannot be read is left exactly as it is.

The index (:func:`write_index`): ``OUT/published.json`` for programs, ``OUT/datapackage.json``
(the data files and their schemas, :mod:`whr.publish.datapackage`), ``OUT/archive.html`` for
people and ``OUT/index.html`` (a relative redirect to the official renju list), all derived from
the checked archive and rewritten by every run.

Its rooms: :mod:`.entry` (an entry and its one check), :mod:`.scan` (a list's archive checked,
planted links removed), :mod:`.compact` (compaction), :mod:`.index` (the index files and each
day's page).
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
