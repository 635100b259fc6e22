"""Where everything is in a published tree: the one place that knows the paths.

::

    OUT/index.html                  relative redirect to the official renju list
    OUT/published.json              machine-readable index of everything published
    OUT/datapackage.json            the data files and their schemas (Frictionless Data Package)
    OUT/archive.html                the same for people
    OUT/<list>/                     the current site of a list, at addresses that never change:
        index.html, p/<id>.html, tournaments/<id>.html, countries/<code>.html, ...
        latest.json                 which day it shows, and that day's archive entry
        ratings.parquet, ratings.csv
    OUT/archive/<list>/<D>/         one entry per published day D: manifest.json, the day's
                                    list (ratings.parquet) and page (index.html); every table
                                    while it is the newest day, and for ever on a December 31
    OUT/archive/<list>/months/<YYYY-MM>.<hash>.parquet
                                    the lists of every day of a closed month, together; the
                                    name holds the start of the file's sha256, so that a new
                                    version is written beside the old one
    OUT/archive/<list>/replay/<D>/  the backfill's replay of the games known on D
                                    (``rif-rating backfill``): manifest.json,
                                    tournament_changes.parquet, record.parquet
    OUT/archive/<list>/.work-<token>/
                                    work in progress of the run that holds the lock
    OUT/.lock                       the lock (see :mod:`whr.publish.lock`)

Every directory and file of the tree is a real one: a symbolic link is never followed (see
:func:`whr.publish.archive.check_tree`).

``<list>`` is the category for the official lists (``renju``, ``gomoku``) and
``variants/<name>/<category>`` for a named variant.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from whr.params import CATEGORIES

DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
MONTH = re.compile(r"(\d{4}-\d{2})(?:\.([0-9a-f]{16}))?\.parquet")
"""A month's file: ``YYYY-MM.<16 hex digits of its sha256>.parquet`` (``YYYY-MM.parquet``: as
written before version names)."""
HASH_CHARS = 16


class TreeError(RuntimeError):
    """The published tree cannot be used as it is (a symbolic link or another kind of file
    where the run keeps a directory or a file of its own, or no permission); the message names
    the path and what to do."""


def real_dir(path: Path) -> bool:
    """True for a real directory, False when nothing is there; anything else (a symbolic link,
    a file) raises :class:`TreeError`: a run never follows a link out of the tree."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISDIR(mode):
        return True
    what = "a symbolic link" if stat.S_ISLNK(mode) else "not a directory"
    target = f" (to {os.readlink(path)})" if stat.S_ISLNK(mode) else ""
    raise TreeError(
        f"{path} is {what}{target}, where the published tree keeps a directory of its own; a "
        "run never follows links out of the tree: put the directory itself there (or remove "
        "what is there) and run again"
    )


def _is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


@dataclass(frozen=True, order=True)
class Channel:
    """One list that is published day after day: a category, official or of a named variant."""

    category: str
    variant: str | None = None

    @property
    def key(self) -> str:
        """Its path below ``OUT/`` and ``OUT/archive/``: ``renju``, ``variants/x/renju``."""
        return self.category if self.variant is None else f"variants/{self.variant}/{self.category}"

    @property
    def official(self) -> bool:
        return self.variant is None

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True)
class Layout:
    """The paths of a published tree rooted at ``out``."""

    out: Path

    @property
    def root_index(self) -> Path:
        return self.out / "index.html"

    @property
    def index_json(self) -> Path:
        return self.out / "published.json"

    @property
    def datapackage(self) -> Path:
        return self.out / "datapackage.json"

    @property
    def archive_html(self) -> Path:
        return self.out / "archive.html"

    @property
    def lock(self) -> Path:
        return self.out / ".lock"

    def site(self, channel: Channel) -> Path:
        """The current site of ``channel`` (its addresses never change)."""
        return self.out / channel.key

    def pointer(self, channel: Channel) -> Path:
        """``latest.json`` of the current site: the day it shows."""
        return self.site(channel) / "latest.json"

    def archive(self, channel: Channel) -> Path:
        return self.out / "archive" / channel.key

    def day(self, channel: Channel, day: dt.date) -> Path:
        """The archive entry of ``day``."""
        return self.archive(channel) / day.isoformat()

    def replay(self, channel: Channel, day: dt.date) -> Path:
        """The replay of the games known on ``day`` (``rif-rating backfill``): a directory of
        its tables and manifest (:mod:`whr.publish.replay`)."""
        return self.archive(channel) / "replay" / day.isoformat()

    def months(self, channel: Channel) -> Path:
        return self.archive(channel) / "months"

    def month_file(self, channel: Channel, month: str, sha256: str) -> Path:
        """The file with the lists of every day of a closed ``month`` (``YYYY-MM``) whose
        bytes have this sha256."""
        return self.months(channel) / f"{month}.{sha256[:HASH_CHARS]}.parquet"

    def relative(self, path: Path) -> str:
        """``path`` relative to ``out``, with ``/`` (as published addresses are)."""
        return path.relative_to(self.out).as_posix()

    def channels(self) -> list[Channel]:
        """Every list with an archive under ``out``, official ones first.

        Raises :class:`TreeError` when a directory of the archive is a symbolic link.
        """
        root = self.out / "archive"
        if not real_dir(root):
            return []
        found = [Channel(c) for c in CATEGORIES if real_dir(root / c)]
        variants = root / "variants"
        if real_dir(variants):
            for v in sorted(p.name for p in variants.iterdir() if real_dir(p)):
                found += [Channel(c, v) for c in CATEGORIES if real_dir(variants / v / c)]
        return found

    def days(self, channel: Channel) -> list[dt.date]:
        """The days with an archive entry directory of ``channel``, oldest first (a symbolic
        link with a day's name is not an entry)."""
        root = self.archive(channel)
        if not real_dir(root):
            return []
        out = []
        for path in root.iterdir():
            if DAY.fullmatch(path.name) and _is_dir(path):
                try:
                    out.append(dt.date.fromisoformat(path.name))
                except ValueError:
                    continue
        return sorted(out)
