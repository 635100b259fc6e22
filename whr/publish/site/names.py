"""Names on the site: portable page file names, and labels that tell namesakes apart.

Page file names come from ids. An id is used as it is when it is plain (letters, digits and
``-``, at most 64 characters, not starting with ``-``, which a shell command would take for an
option: ``rm -rf.html``), is not a device name that Windows reserves (``CON``, ``PRN``,
``AUX``, ``NUL``, ``COM0``-``COM9``, ``LPT0``-``LPT9``, in any case) and no other id of the same
directory differs from it only by case (``ABC`` beside ``abc``: one file on a case-insensitive
file system). Any other id gets ``_`` and 20 hex digits of its sha256: stable from run to run,
and never equal to a plain name (which has no ``_``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from whr.digest import text_sha256

__all__ = [
    "RENJUNET_GAME_URL",
    "RESERVED",
    "namesake_labels",
    "page_names",
    "renjunet_game_url",
    "renjunet_games",
    "slug",
    "text",
]

_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,63}")
RESERVED = frozenset(
    ["con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))]
)
"""Device names Windows reserves as file names (compared in lower case)."""


def text(value: Any) -> str:
    """A cell's text: "" for None, NaN and NA, else ``str(value)``."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    return str(value)


def _hashed(text: str) -> str:
    return "_" + text_sha256(text)[:20]


def slug(value: object) -> str:
    """The file name stem of one id, without regard to other ids (see :func:`page_names`).

    Parameters
    ----------
    value : object
        An id (its ``str``; None and NaN count as the empty id).

    Returns
    -------
    str
        The id itself when plain and not a reserved device name, else ``_`` + 20 hex digits.
    """
    plain = text(value)
    if _PLAIN.fullmatch(plain) and plain.lower() not in RESERVED:
        return plain
    return _hashed(plain)


def page_names(ids: Iterable[object]) -> dict[str, str]:
    """The file name stem of every id of one directory (players, tournaments or countries).

    Parameters
    ----------
    ids : iterable
        The ids whose pages share a directory (duplicates are allowed).

    Returns
    -------
    dict of str to str
        id -> :func:`slug`, except that ids which differ only by case all get the hashed
        form, so that no two pages share a name on a case-insensitive file system.
    """
    texts = {text(v) for v in ids}
    names = {t: slug(t) for t in texts}
    folded = Counter(n.lower() for n in names.values())
    return {t: (n if folded[n.lower()] == 1 else _hashed(t)) for t, n in names.items()}


def namesake_labels(
    names: Sequence[object],
    countries: Sequence[object],
    birth_years: Sequence[object],
    ids: Sequence[object],
) -> list[str]:
    """What to show after a name so that players of the same name can be told apart.

    Parameters
    ----------
    names, countries, birth_years, ids : sequences of equal length
        One entry per player: display name, country code, birth year (int or missing), id.

    Returns
    -------
    list of str
        ``""`` for a name (compared without regard to case and spacing) that no other player
        has; else ``"(country, birth year)"``, with the id added when the birth year is not
        known or another player of that name has the same country and birth year, e.g.
        ``"(CHN, 1990)"`` and ``"(CHN, id 100999)"``.
    """
    n = len(names)
    if not (len(countries) == len(birth_years) == len(ids) == n):
        raise ValueError(
            "names, countries, birth_years and ids must have the same length, got "
            f"{n}, {len(countries)}, {len(birth_years)} and {len(ids)}"
        )
    keys = [" ".join(text(x).casefold().split()) for x in names]
    shared = Counter(keys)
    out = [""] * n  # a name no other player has needs no label
    namesakes = [i for i, k in enumerate(keys) if shared[k] > 1]
    countries_text = {i: text(countries[i]) or "?" for i in namesakes}
    years: dict[int, str] = {}
    for i in namesakes:
        year = text(birth_years[i])
        years[i] = str(int(float(year))) if year else ""
    same = Counter((keys[i], countries_text[i], years[i]) for i in namesakes)
    for i in namesakes:
        parts = [countries_text[i]]
        if years[i]:
            parts.append(years[i])
        if not years[i] or same[(keys[i], countries_text[i], years[i])] > 1:
            parts.append(f"id {text(ids[i])}")
        out[i] = "(" + ", ".join(parts) + ")"
    return out


RENJUNET_GAME_URL = "https://www.renju.net/game/{id}/"  # the game's page on renju.net
_RENJUNET_FILE = r"(?i)(?:^|[/\\])(?:renjunet[^/\\]*|[^/\\]*\.rif(?:\.gz|\.zip)?)$"


def renjunet_games(games: pd.DataFrame) -> np.ndarray:
    """Which games are RenjuNet's own records, so that renju.net has a page for them.

    A game is one when its ``game_id`` is a plain number (RenjuNet's ids; the RIF's manual
    additions were ``G…``, EGF games ``<tournament>:r<round>:…``) and its ``source`` names a
    RenjuNet database file (a name starting with ``renjunet`` or ending in ``.rif``,
    ``.rif.gz`` or ``.rif.zip``). Only results are published; renju.net shows the moves
    under its own licence.

    Parameters
    ----------
    games : pandas.DataFrame
        Games with columns game_id and source (schema ``GAMES`` or ``RATED_GAMES``).

    Returns
    -------
    numpy.ndarray of bool
    """
    missing = [c for c in ("game_id", "source") if c not in games]
    if missing:
        raise ValueError(f"games are missing columns {missing}")
    ids = games["game_id"].astype("str").str.fullmatch(r"[0-9]{1,12}").fillna(False)
    source = games["source"].astype("str").str.contains(_RENJUNET_FILE).fillna(False)
    return (ids & source).to_numpy(bool)


def renjunet_game_url(game_id: str) -> str:
    """The renju.net page of a RenjuNet game id (see :func:`renjunet_games`)."""
    if not isinstance(game_id, str) or not game_id.isdigit() or not game_id.isascii():
        raise ValueError(f"game_id must be a RenjuNet game id (digits), got {game_id!r}")
    return RENJUNET_GAME_URL.format(id=game_id)
