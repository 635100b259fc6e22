"""The world rating list of Renju: Whole-History Rating (Coulom 2008) over every rated game.

Public API (each name is imported on first use, so ``import whr`` stays light):

- ``fit(games, params=FitParams(), *, warm_start=None)`` -> ``Fit``; ``FitParams`` is the one
  value of a fit's parameters (``whr.params``, standard library only: a command line can
  check them without loading the solver)
- ``split_rating_change(previous_history, previous_as_of, fit, as_of, games)``: each player's
  change since the previous list, split into their own games' part and the others' part
- ``read_source(source, as_of=None, *, limits=ReadLimits(), name=None)`` -> ``SourceData``;
  raises ``SourceError`` when fatal (``whr.params.ReadLimits``: what the readers accept)
- ``select(data, as_of, category="renju", strict=False, *, config)`` -> ``Selection``
  (``config = whr.rules.load_config(directory)``)
- ``elo``: the Elo-era rules (1996-2021)
- ``lists``: ``build(data, selection, fit, previous)`` -> ``Snapshot``, the day's lists (every
  table it publishes, and what its pages show)
- ``publish``: ``publish(run, snapshot, rules_sha256=...)``, ``previous(run, category)`` and
  ``recover(out)`` (the archive, the current sites, the transaction; ``whr.run.Run`` is the run)
- ``research``: the evaluation of rating systems and synthetic histories (not the daily job)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "fit": "whr.engine",
    "Fit": "whr.engine",
    "FitParams": "whr.params",
    "split_rating_change": "whr.lists",
    "ConvergenceError": "whr.engine",
    "read_source": "whr.sources",
    "SourceError": "whr.sources",
    "select": "whr.rules",
    "Selection": "whr.rules",
    "SourceData": "whr.tables",
}
_SUBMODULES = ("elo", "publish", "lists", "rules", "sources", "research", "tables", "core")

__all__ = [
    "ConvergenceError",
    "Fit",
    "FitParams",
    "Selection",
    "SourceData",
    "SourceError",
    "elo",
    "fit",
    "read_source",
    "select",
    "split_rating_change",
]

if TYPE_CHECKING:
    from whr.engine import ConvergenceError, Fit, fit
    from whr.lists import split_rating_change
    from whr.params import FitParams
    from whr.rules import Selection, select
    from whr.sources import SourceError, read_source
    from whr.tables import SourceData


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    if name in _SUBMODULES:
        return importlib.import_module(f"whr.{name}")
    raise AttributeError(f"module 'whr' has no attribute {name!r}")
