"""What every reader does to the texts it read: names cut to ``max_name_chars``
(``long_name``), and the characters no published text can hold replaced (``bad_character``):
the one rule for every output (docs/sources.md, *Every text read is fit for every output*).
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr.sources._common import limit_hint
from whr.tables import GAMES, PLAYERS, PROBLEMS, TOURNAMENTS, SourceData, conform

__all__ = ["NAME_COLUMNS", "UNSAFE", "cut_names", "replace_unsafe"]

#: Columns cut to ``ReadLimits.max_name_chars``: the names of players, tournaments and places.
NAME_COLUMNS = {
    "players": ("name", "surname", "given_name", "native_name", "country_name", "city"),
    "tournaments": ("name", "country_name", "city"),
}
_KEYS = {"players": "player_id", "tournaments": "tournament_id"}


def cut_names(data: SourceData, max_name_chars: int) -> SourceData:
    """Cut names longer than ``max_name_chars`` characters and report each as ``long_name``.

    Applies to ``NAME_COLUMNS`` of ``players`` and ``tournaments``. A problem row (warning)
    names the column, the row's id and the original length; its source is the row's source.

    Returns
    -------
    SourceData
        A new value; ``data`` itself when nothing is too long.
    """
    changed: dict[str, pd.DataFrame] = {}
    rows: list[dict[str, str]] = []
    for kind, columns in NAME_COLUMNS.items():
        frame: pd.DataFrame = getattr(data, kind)
        if frame.empty:
            continue
        out = None
        for column in columns:
            lengths = frame[column].str.len()
            long = (lengths > max_name_chars).fillna(False).to_numpy(dtype=bool)
            if not long.any():
                continue
            out = frame.copy() if out is None else out
            out[column] = out[column].where(~long, out[column].str.slice(0, max_name_chars))
            for i in long.nonzero()[0]:
                rows.append(
                    {
                        "code": "long_name",
                        "severity": "warning",
                        "source": frame["source"].iloc[i],
                        "locator": f"{kind[:-1]} id={frame[_KEYS[kind]].iloc[i]}, {column}",
                        "message": (
                            f"{column} of {int(lengths.iloc[i]):,} characters cut to the first "
                            f"{max_name_chars} ({limit_hint('max_name_chars')})"
                        ),
                    }
                )
        if out is not None:
            changed[kind] = out
    return _amended(data, changed, rows)


#: The characters no published text may hold, the one rule for every output (pages, feed,
#: sitemap, CSV, JSON, XLSX): those XML 1.0 does not allow (the C0 control characters but tab,
#: line feed and carriage return; U+FFFE and U+FFFF; lone surrogates, which no UTF-8 file can
#: hold: a reader replaces their bytes as ``bad_encoding``) and the other control characters
#: (DEL and C1), which HTML reads as parse errors. In RE2's syntax (pyarrow's regular
#: expressions).
UNSAFE = "[\\x{0}-\\x{8}\\x{B}\\x{C}\\x{E}-\\x{1F}\\x{7F}-\\x{9F}\\x{FFFE}\\x{FFFF}]"
_UNSAFE_PYTHON = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_ID_COLUMNS = {"players": "player_id", "tournaments": "tournament_id", "games": "game_id"}


def _described(chars: set[str]) -> str:
    """The characters as ``U+001B`` (with their names where Unicode gives one), in order."""
    import unicodedata

    shown = []
    for c in sorted(chars):
        name = unicodedata.name(c, "")
        shown.append(f"U+{ord(c):04X}" + (f" ({name})" if name else ""))
    return ", ".join(shown)


def replace_unsafe(data: SourceData) -> SourceData:
    """Replace each character no published text may hold (:data:`UNSAFE`: a control character,
    U+FFFE, U+FFFF) by U+FFFD in every text column of the players, tournaments and games read,
    and report each cell so changed (``bad_character``, a warning naming the row's id, the
    column and the characters; its source is the row's). The one rule for every output: a name
    read is fit for XML, HTML, CSV, JSON and XLSX alike, so no writer needs its own. The file
    names (``source``) are the operator's, not the data's, and are kept as given.

    Returns
    -------
    SourceData
        A new value; ``data`` itself when no text holds such a character.
    """
    changed: dict[str, pd.DataFrame] = {}
    rows: list[dict[str, str]] = []
    schemas = {"players": PLAYERS, "tournaments": TOURNAMENTS, "games": GAMES}
    for kind, schema in schemas.items():
        frame: pd.DataFrame = getattr(data, kind)
        if frame.empty:
            continue
        out = None
        texts = [f.name for f in schema if pa.types.is_string(f.type) and f.name != "source"]
        for column in texts:
            values = pa.array(frame[column], pa.string(), from_pandas=True)
            matched = pc.match_substring_regex(values, UNSAFE)
            found = matched.to_numpy(zero_copy_only=False) == True  # noqa: E712 (null: False)
            if not found.any():
                continue
            out = frame.copy() if out is None else out
            replaced = pc.replace_substring_regex(values, UNSAFE, "\ufffd")
            out[column] = pd.Series(
                replaced.to_numpy(zero_copy_only=False), index=frame.index, dtype=object
            )
            for i in np.flatnonzero(found).tolist():
                given = values[i].as_py()
                key = _UNSAFE_PYTHON.sub("\ufffd", str(frame[_ID_COLUMNS[kind]].iloc[i]))
                rows.append(
                    {
                        "code": "bad_character",
                        "severity": "warning",
                        "source": frame["source"].iloc[i],
                        "locator": f"{kind[:-1]} id={key}, {column}",
                        "message": (
                            f"{column} held {_described(set(_UNSAFE_PYTHON.findall(given)))}: "
                            "not text (a control character, U+FFFE or U+FFFF, which XML and "
                            "HTML forbid); replaced by U+FFFD"
                        ),
                    }
                )
        if out is not None:
            changed[kind] = out
    return _amended(data, changed, rows)


def _amended(
    data: SourceData, changed: dict[str, pd.DataFrame], rows: list[dict[str, str]]
) -> SourceData:
    """``data`` with the tables ``changed`` (by name) and the problems ``rows`` reported; as it
    is when nothing was found."""
    if not rows:
        return data
    found = pd.DataFrame(rows, columns=PROBLEMS.names)
    return dataclasses.replace(
        data,
        players=conform(changed.get("players", data.players), PLAYERS),
        tournaments=conform(changed.get("tournaments", data.tournaments), TOURNAMENTS),
        games=conform(changed["games"], GAMES) if "games" in changed else data.games,
        problems=conform(pd.concat([data.problems, found], ignore_index=True), PROBLEMS),
    )
