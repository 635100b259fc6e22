"""Publishing: a day's list into the archive, the current site at stable addresses, atomically.

``publish(run, snapshot, rules_sha256=...)`` writes the lists that :func:`whr.lists.build` made
(from the previous list of the same kind that ``previous(run, category)`` reads): it adds the
day to the list's archive and, when it is the newest day, switches the list's site to it, as
one recoverable transaction (:mod:`whr.publish.commit`), recorded in the tree's ledger
(:mod:`whr.publish.ledger`, the authority on what was published); ``check_size`` refuses a list
too big to build; ``check_and_repair(out)`` checks the tree against the ledger once per run and
finishes what a killed run left (the :class:`Tree` it returns is handed to ``previous`` and
``publish``), ``recover(out)`` says what it found, and ``verify(out)`` checks without
publishing. The
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
    check_and_repair,
    previous,
    publish,
    recover,
    unchanged,
    verify,
)
from whr.publish.gates import DatedError, GateError, SizeError, check_dated, check_size
from whr.publish.layout import Channel, Layout, TreeError
from whr.publish.ledger import LedgerError
from whr.publish.lock import LockedError, hold
from whr.publish.parquet import PublishError
from whr.publish.repair import Tree
from whr.publish.summary import markdown_text, summarize, value_counts

__all__ = [
    "Channel",
    "DatedError",
    "GateError",
    "LedgerError",
    "Layout",
    "LockedError",
    "PublishError",
    "Published",
    "SizeError",
    "StateError",
    "Tree",
    "TreeError",
    "Verified",
    "absent",
    "check_and_repair",
    "check_dated",
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
