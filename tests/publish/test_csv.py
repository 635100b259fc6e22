"""Every CSV the site and the archive write: typed from the declared schema, and never a formula.

``ratings.csv``, ``exclusions.csv`` and ``facts_needed.csv`` come from one writer
(:func:`whr.publish.parquet.csv_text`); they are read back here with Python's ``csv`` module, as a
spreadsheet would split them.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import support

import whr
from whr.publish.parquet import csv_text
from whr.rules import default_directory, load_config
from whr.tables import TOURNAMENTS, conform

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
HOSTILE = {
    0: "=2+2",
    1: "Smith\r=2+2",  # a bare CR: once written unquoted, a reader started a row "=2+2"
    2: "-1",
    3: "@SUM(A1:A9)",
    4: "\tTab",
    5: "+1\n=3+3",
    6: '"Quoted", with a comma',
}


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def read(path: Path) -> list[list[str]]:
    """A CSV file's rows, its bytes as written (no newline translation)."""
    return rows(path.read_bytes().decode("utf-8"))


def test_csv_text_types_cells_from_the_schema_and_guards_text_only():
    schema = pa.schema(
        [
            ("id", pa.string()),
            ("name", pa.string()),
            ("rank", pa.int32()),
            ("female", pa.bool_()),
            ("rating", pa.float64()),
            ("day", pa.date32()),
        ]
    )
    frame = pd.DataFrame(
        {
            "id": ["007", "-5", "x"],
            "name": ["=HYPERLINK(1)", "a\r=2+2", None],
            "rank": [1.0, np.nan, 3.0],  # a float column, as pandas gives an int column with nulls
            "female": [True, False, None],
            "rating": [-1.5, 2000.126, np.nan],
            "day": [dt.date(2026, 1, 2), None, dt.date(2026, 1, 3)],
        }
    )
    got = rows(csv_text(frame, schema))
    assert got == [
        ["id", "name", "rank", "female", "rating", "day"],
        ["007", "'=HYPERLINK(1)", "1", "true", "-1.5", "2026-01-02"],
        ["'-5", "a\r=2+2", "", "false", "2000.13", ""],
        ["x", "", "3", "", "", "2026-01-03"],
    ]


def test_every_published_csv_is_typed_quoted_and_guarded(tmp_path: Path):
    data = support.source_data(300, names=HOSTILE)
    tours = data.tournaments.copy()
    tours["name"] = [HOSTILE[i % len(HOSTILE)] for i in range(len(tours))]
    late = np.flatnonzero(pd.to_datetime(tours["end"]) > pd.Timestamp("2021-09-01"))
    tours.loc[late[:2], "minutes"] = np.nan  # their facts are needed
    data = dataclasses.replace(data, tournaments=conform(tours, TOURNAMENTS))
    selection = whr.select(data, support.AS_OF, config=load_config(default_directory()))
    given = support.Inputs(data, selection, whr.fit(selection.rated, whr.FitParams()), {})
    support.publish_inputs(tmp_path, given)
    site, entry = support.site_of(tmp_path), support.entry_of(tmp_path)
    parquet = pd.read_parquet(entry / "ratings.parquet")
    files = {
        "ratings.csv": (site / "ratings.csv", len(parquet)),
        "exclusions.csv": (site / "exclusions.csv", len(selection.exclusions)),
        "facts_needed.csv": (entry / "facts_needed.csv", 2),
    }
    for name, (path, n) in files.items():
        table = read(path)
        assert len(table) == n + 1, name  # no cell's CR or LF started a row
        for row in table[1:]:
            assert len(row) == len(table[0]), name
            assert not any(cell.startswith(FORMULA_START) for cell in row if cell[:1] != "-"), row
    ratings = read(site / "ratings.csv")
    header, body = ratings[0], ratings[1:]
    column = {c: [r[header.index(c)] for r in body] for c in header}
    assert set(column["female"]) == {"true", "false"}
    assert all(x == "" or x.isdigit() for x in column["rank"] + column["birth_year"])
    assert "1.0" not in column["rank"]
    assert column["player"] == parquet["player"].tolist()  # ids as text: leading zeros kept
    shown = set(column["name"])
    for hostile in ("=2+2", "@SUM(A1:A9)", "\tTab", "+1\n=3+3", "-1"):
        assert "'" + hostile in shown, hostile
    assert "Smith\r=2+2" in shown and '"Quoted", with a comma' in shown
    negative = [float(x) for x in column["rating_change"] if x.startswith("-")]
    assert all(x < 0 for x in negative)  # a number is never guarded
    needed = read(entry / "facts_needed.csv")
    assert needed[0][:3] == ["tournament_id", "name", "start"]
    assert all(r[needed[0].index("games")].isdigit() for r in needed[1:])
    assert (site / "facts_needed.csv").read_bytes() == (entry / "facts_needed.csv").read_bytes()


def test_a_site_with_no_game_left_out_writes_an_empty_exclusions_csv(tmp_path: Path):
    from whr.publish.site import write

    given = support.snapshot_of(support.inputs(300))
    none = given.tables.exclusions.iloc[:0]
    write(tmp_path / "site", support.view_of(given, exclusions=none), {})
    assert read(tmp_path / "site" / "exclusions.csv") == [
        [
            "game_id",
            "tournament_id",
            "tournament",
            "tournament_end",
            "reason",
            "message",
            "black",
            "black_name",
            "white",
            "white_name",
        ]
    ]
