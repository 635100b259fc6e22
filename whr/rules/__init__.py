"""Eligibility: which games are rated, and why each other game is not.

Pure functions over the shared tables (``whr.tables``), driven by the data files of
``whr/data/rules/`` (see ``docs/eligibility.md``)::

    config = whr.rules.load_config(whr.rules.default_directory())  # or a directory of yours
    sel = whr.select(data, as_of=date, category="renju", strict=False, config=config)
    sel.rated, sel.exclusions, sel.counts, sel.warnings, sel.tournaments
    needed = whr.rules.facts_needed(sel)  # what maintainers must fill in
"""

from whr.rules.config import (
    ConfigError,
    EligibilityConfig,
    default_directory,
    load_config,
)
from whr.rules.names import CertifiedRule, certified_name, normalise
from whr.rules.needed import facts_needed
from whr.rules.notes import NotePattern, classify_notes
from whr.rules.reasons import REASONS, WARNINGS
from whr.rules.select import Counts, InvariantError, Selection, select

__all__ = [
    "REASONS",
    "WARNINGS",
    "CertifiedRule",
    "ConfigError",
    "Counts",
    "EligibilityConfig",
    "InvariantError",
    "NotePattern",
    "Selection",
    "certified_name",
    "classify_notes",
    "default_directory",
    "facts_needed",
    "load_config",
    "normalise",
    "select",
]
