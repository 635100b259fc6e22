"""Matching rule names against the RIF's certified rules, robust to spelling.

Names are compared in a normal form: Unicode compatibility decomposition with the accents
dropped (``õ`` -> ``o``), lower case, and every character that is not a letter or a digit
removed. ``"Soosõrv-8"``, ``"Soosyrv 8"`` and ``"SOOSYRV-N"`` become ``"soosorv8"``,
``"soosyrv8"`` and ``"soosyrvn"``; the patterns of ``whr/data/rules/eligibility.toml`` are regular
expressions that must match the whole normal form.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

_NOT_ALNUM = re.compile(r"[^0-9a-z]+")


def normalise(name: str) -> str:
    """Return the normal form of a rule name (see the module docstring).

    Parameters
    ----------
    name : str
        A rule name as a database spells it, e.g. ``"Soosõrv-8"``.

    Returns
    -------
    str
        Lower-case ASCII letters and digits only, e.g. ``"soosorv8"``.
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    decomposed = unicodedata.normalize("NFKD", name)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_ALNUM.sub("", stripped.casefold())


@dataclass(frozen=True)
class CertifiedRule:
    """One rule certified by the RIF.

    Attributes
    ----------
    name : str
        The canonical name, e.g. ``"Soosyrv-N"``.
    pattern : re.Pattern
        Matched (whole) against the normal form of a rule name.
    category : str
        The list the rule is certified for (``"renju"``).
    """

    name: str
    pattern: re.Pattern[str]
    category: str = "renju"

    def matches(self, rule_name: str) -> bool:
        """Whether ``rule_name`` (any spelling) is this rule."""
        return self.pattern.fullmatch(normalise(rule_name)) is not None


def certified_name(rule_name: str, rules: Iterable[CertifiedRule]) -> str | None:
    """The canonical name of the certified rule ``rule_name`` spells, or None if it is none."""
    form = normalise(rule_name)
    for rule in rules:
        if rule.pattern.fullmatch(form):
            return rule.name
    return None


def certified_mask(names: pd.Series, rules: Iterable[CertifiedRule]) -> np.ndarray:
    """Vectorised test of a column of rule names.

    Each distinct name is normalised and matched once, so the cost does not grow with the number
    of games.

    Parameters
    ----------
    names : pandas.Series
        Rule names; missing values give False.
    rules : iterable of CertifiedRule

    Returns
    -------
    numpy.ndarray of bool
        True where the name is a certified rule.
    """
    rules = tuple(rules)
    present = names.notna().to_numpy()
    result = np.zeros(len(names), dtype=bool)
    if not present.any():
        return result
    values = names[present].astype(str)
    verdict = {name: certified_name(name, rules) is not None for name in values.unique()}
    result[present] = values.map(verdict).to_numpy(dtype=bool)
    return result
