"""Publishing: a day's list into the archive, the current site at stable addresses, atomically.

``publish(run, snapshot, rules_sha256=...)`` writes the lists that :func:`whr.lists.build` made
(from the previous list of the same kind that ``previous(run, category)`` reads): it adds the
day to the list's archive and, when it is the newest day, switches the list's site to it, as
one recoverable transaction (:mod:`whr.publish.commit`); ``check_size`` refuses a list too big
to build; ``recover(out)`` repairs what a killed run left, and ``verify(out)`` checks every
archived file against its sha256. The
paths are :mod:`whr.publish.layout`'s, the archive and its index :mod:`whr.publish.archive`'s,
the lock :mod:`whr.publish.lock`'s, the gates :mod:`whr.publish.gates`'s, and the markdown run
summary :mod:`whr.publish.summary`'s. See ``docs/operations.md`` for the published tree.
"""

from __future__ import annotations

from whr.publish.archive import StateError
from whr.publish.commit import (
    Published,
    Verified,
    absent,
    previous,
    publish,
    recover,
    unchanged,
    verify,
)
from whr.publish.gates import GateError, SizeError, check_size
from whr.publish.layout import Channel, Layout, TreeError
from whr.publish.lock import LockedError, hold
from whr.publish.parquet import PublishError
from whr.publish.summary import markdown_text, summarize, value_counts

__all__ = [
    "Channel",
    "GateError",
    "Layout",
    "LockedError",
    "PublishError",
    "Published",
    "SizeError",
    "StateError",
    "TreeError",
    "Verified",
    "absent",
    "check_size",
    "hold",
    "markdown_text",
    "previous",
    "publish",
    "recover",
    "summarize",
    "unchanged",
    "value_counts",
    "verify",
]
