"""No text file we publish writes ``-0``: a negative number that rounds to zero (a change of
-0.001 Elo) is written ``0`` in the CSV, JSON and XLSX files, and the pages show ``0``."""

from __future__ import annotations

import datetime as dt
import io
import re
from pathlib import Path

import openpyxl
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from whr.publish.parquet import csv_text
from whr.publish.site.exports import json_records, xlsx_bytes

NEGATIVE_ZERO = re.compile(r"(?<![\w.\-])[-\u2212]0(?:\.0*)?(?![\w.])")
"""``-0``, ``-0.0``, ``-0.00`` (or with the minus sign U+2212) standing alone as a number: not
``-0.5``, ``-01``, ``x-0`` or ``1e-0``."""
TEXT = {".csv", ".json", ".html", ".js", ".xml", ".txt", ".md"}

SCHEMA = pa.schema([("player", pa.string()), ("change", pa.float64())])
TINY = pd.DataFrame({"player": ["010", "011", "012"], "change": [-0.001, -0.004999, -0.006]})


def negative_zeros(out: Path) -> dict[str, list[str]]:
    """Every ``-0`` in every text file under ``out``, with its surroundings, by file."""
    found: dict[str, list[str]] = {}
    for path in sorted(out.rglob("*")):
        if path.suffix in TEXT and path.is_file():
            text = path.read_text(encoding="utf-8")
            hits = [
                text[max(m.start() - 40, 0) : m.end() + 10] for m in NEGATIVE_ZERO.finditer(text)
            ]
            if hits:
                found[str(path.relative_to(out))] = hits
    return found


def test_the_pattern_finds_a_negative_zero_and_nothing_else() -> None:
    assert NEGATIVE_ZERO.findall('a,-0,b\n"x":-0.0}\n[-0.00]\n\u22120<') == [
        "-0",
        "-0.0",
        "-0.00",
        "\u22120",
    ]
    assert NEGATIVE_ZERO.findall("-0.5,-01,2026-01-02,1e-0,x-0,--0,0,-10") == []


def test_the_writers_round_a_tiny_negative_number_to_zero() -> None:
    assert csv_text(TINY, SCHEMA).splitlines()[1:] == ['"010",0', '"011",0', '"012",-0.01']
    assert json_records(TINY, SCHEMA) == (
        '[{"player":"010","change":0.0},{"player":"011","change":0.0},'
        '{"player":"012","change":-0.01}]\n'
    )
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(TINY, SCHEMA, "t", dt.date(2026, 1, 1))))
    cells = [row[1] for row in book["t"].iter_rows(min_row=2, values_only=True)]
    assert cells == [0, 0, -0.01]
    assert [str(c) for c in cells[:2]] == ["0", "0"]  # not -0.0: the sign is gone


def test_no_text_file_of_a_published_tree_writes_negative_zero(two_days: Path) -> None:
    # the tree could hold one: the second day's list has changes that round to -0.00
    ratings = pq.read_table(two_days / "renju/ratings.parquet").to_pandas()
    changes = ratings[["rating_change", "change_own_games", "change_others"]].to_numpy(float)
    assert ((changes < 0) & (changes.round(2) == 0)).any()
    assert negative_zeros(two_days) == {}
