"""Where everything is in a published tree: the one place that knows the paths.

::

    OUT/index.html                  relative redirect to the official renju list
    OUT/published.json              machine-readable index of everything published
    OUT/archive.html                the same for people
    OUT/<list>/                     the current site of a list, at addresses that never change:
        index.html, p/<id>.html, tournaments/<id>.html, countries/<code>.html, ...
        latest.json                 which day it shows, and that day's archive entry
        ratings.parquet, ratings.csv
    OUT/archive/<list>/<D>/         one entry per published day D: manifest.json, the day's
                                    list (ratings.parquet) and page (index.html); every table
                                    while it is the newest day, and for ever on a December 31
    OUT/archive/<list>/months/<YYYY-MM>.parquet
                                    the lists of every day of a closed month, together
    OUT/.staging/                   work in progress of the run that holds the lock
    OUT/.lock                       the lock (see :mod:`whr.publish.lock`)

``<list>`` is the category for the official lists (``renju``, ``gomoku``) and
``variants/<name>/<category>`` for a named variant.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from whr.params import CATEGORIES

DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
MONTH = re.compile(r"(\d{4}-\d{2})\.parquet")


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
    def archive_html(self) -> Path:
        return self.out / "archive.html"

    @property
    def staging(self) -> Path:
        return self.out / ".staging"

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

    def months(self, channel: Channel) -> Path:
        return self.archive(channel) / "months"

    def month_file(self, channel: Channel, month: str) -> Path:
        """The lists of every day of a closed ``month`` (``YYYY-MM``)."""
        return self.months(channel) / f"{month}.parquet"

    def relative(self, path: Path) -> str:
        """``path`` relative to ``out``, with ``/`` (as published addresses are)."""
        return path.relative_to(self.out).as_posix()

    def channels(self) -> list[Channel]:
        """Every list with an archive under ``out``, official ones first."""
        root = self.out / "archive"
        found = [Channel(c) for c in CATEGORIES if (root / c).is_dir()]
        variants = root / "variants"
        if variants.is_dir():
            for v in sorted(p.name for p in variants.iterdir() if p.is_dir()):
                found += [Channel(c, v) for c in CATEGORIES if (variants / v / c).is_dir()]
        return found

    def days(self, channel: Channel) -> list[dt.date]:
        """The days with an archive entry directory of ``channel``, oldest first."""
        root = self.archive(channel)
        if not root.is_dir():
            return []
        out = []
        for path in root.iterdir():
            if path.is_dir() and DAY.fullmatch(path.name):
                try:
                    out.append(dt.date.fromisoformat(path.name))
                except ValueError:
                    continue
        return sorted(out)
