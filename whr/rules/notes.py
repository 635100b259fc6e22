"""What a game's note says about whether the game was played in reality.

Only games "played in reality" count (RIF qualification system 1996, section 4, decided by the
RIF General Assembly 1995): a game that somebody won, or that was agreed drawn; never a
walk-over. "If a break is made in a game and one player does not appear when the play is about
to continue, the game will be counted as played in reality for both players regardless of the
referee's decision."

Databases say so only in free text: RenjuNet's ``<info>`` note, a canonical table's ``note``.
The phrases are data, in ``whr/data/rules/game_notes.toml``: three lists of regular expressions,
each searched in the note ignoring case, tried in this order:

1. ``played``: the note describes a game that was played although it names a default or a
   forfeit (an adjourned game whose continuation one player missed; a loss on time);
2. ``bye``: a round without a game (the player had no opponent);
3. ``not_played``: a walk-over, a game won or lost by default, a game never played.

A note matching none of them says nothing about it (``B=1245``, ``time trouble``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

#: The verdicts of a note, in the order they are tried.
KINDS = ("played", "bye", "not_played")


@dataclass(frozen=True)
class NotePattern:
    """One phrase of ``game_notes.toml``.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    pattern : re.Pattern
        Searched in the note, ignoring case.
    examples : tuple of str
        Notes the pattern must match (checked when the file is loaded).
    """

    kind: str
    pattern: re.Pattern[str]
    examples: tuple[str, ...] = ()


def classify_notes(notes: pd.Series, patterns: Iterable[NotePattern]) -> np.ndarray:
    """The verdict of every note: ``"played"``, ``"bye"``, ``"not_played"`` or ``""``.

    Each distinct note is matched once, so the cost grows with the number of distinct notes,
    not of games.

    Parameters
    ----------
    notes : pandas.Series
        Notes; missing values give ``""``.
    patterns : iterable of NotePattern

    Returns
    -------
    numpy.ndarray of str (object)
        The first kind of :data:`KINDS` with a pattern found in the note, else ``""``.
    """
    by_kind: Mapping[str, list[re.Pattern[str]]] = {kind: [] for kind in KINDS}
    for item in patterns:
        by_kind[item.kind].append(item.pattern)
    out = np.full(len(notes), "", dtype=object)
    present = notes.notna().to_numpy(bool)
    if not present.any():
        return out
    values = notes[present].astype(str)
    verdict = {note: note_kind(note, by_kind) for note in values.unique()}
    out[present] = values.map(verdict).to_numpy(dtype=object)
    return out


def note_kind(note: str, by_kind: Mapping[str, list[re.Pattern[str]]]) -> str:
    """The verdict of one note (see :func:`classify_notes`)."""
    for kind in KINDS:
        if any(pattern.search(note) for pattern in by_kind.get(kind, ())):
            return kind
    return ""


def matched_phrase(note: str, patterns: Iterable[NotePattern], kind: str) -> str:
    """The part of ``note`` the first pattern of ``kind`` found (for messages), or ``""``."""
    for item in patterns:
        if item.kind == kind and (found := item.pattern.search(note)):
            return found.group(0)
    return ""
