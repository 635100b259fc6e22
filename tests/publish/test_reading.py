"""The lines of ``docs/data-dictionary.md`` ("Reading the files: ids as text") run as written in
a published tree, and every reader keeps the ids as text: ``000001`` stays ``"000001"``.

pandas and pyarrow lines run in this interpreter, DuckDB's statements through DuckDB's Python
package, and the XLSX files are read back with openpyxl. R and Excel cannot run here: the R
lines are checked to name every id column of the files they read as text, and for Excel's CSV
import the ids are checked to be quoted text in every CSV file.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import duckdb
import openpyxl
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pv
import pyarrow.parquet as pq
import pytest
import support

FIELD = re.compile(r'("(?:[^"]|"")*"|[^,\n"]*)(,|\n|$)')
DOC = Path(__file__).resolve().parents[2] / "docs" / "data-dictionary.md"
IDS = {  # the id columns of each file, as the section's table gives them
    "ratings.csv": ("player",),
    "ratings.xlsx": ("player",),
    "exclusions.csv": ("game_id", "tournament_id", "black", "white"),
    "exclusions.xlsx": ("game_id", "tournament_id", "black", "white"),
    "facts_needed.csv": ("tournament_id",),
    "players.json": ("id",),
}


def section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split("## Reading the files: ids as text\n", 1)[1].split("\n## ", 1)[0]


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.+?)\n```", section(), re.S)


def published_ids(published: Path) -> dict[str, list[Any]]:
    """Each id column as the Parquet files hold it (the ratings) and as the site wrote it."""
    ratings = pq.read_table(published / "renju/ratings.parquet").to_pandas()
    exclusions = pq.read_table(next((published / "archive/renju").glob("*/exclusions.parquet")))
    return {
        "player": ratings["player"].tolist(),
        "black": exclusions.column("black").to_pylist(),
        "game_id": exclusions.column("game_id").to_pylist(),
    }


def raw_rows(text: str) -> list[list[str]]:
    """A CSV text's rows, each field as written (a quoted field keeps its quotes)."""
    rows: list[list[str]] = [[]]
    for match in FIELD.finditer(text):
        rows[-1].append(match[1])
        if match[2] != ",":
            rows.append([])
        if not match[2]:
            break
    return [row for row in rows if row != [""] and row]


def test_the_section_names_the_id_columns_of_every_file() -> None:
    table = dict(re.findall(r"^\| `(.+?)` \| (.+?) \|$", section(), re.M))
    named = {}
    for files, columns in table.items():
        for name in re.split(r"`?, `?", files):
            named[name] = tuple(re.findall(r"`(\w+)`", columns))
    assert named == IDS


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A published tree whose ids are all digits with leading zeros (``000001``), as
    RenjuNet's are: what a plain read turns into numbers."""
    out = tmp_path_factory.mktemp("reading")
    support.publish_inputs(out, support.inputs(400))
    return out


def test_a_plain_read_loses_the_leading_zeros(tree: Path, monkeypatch) -> None:
    # what the section warns of, so that the lines below prove something
    monkeypatch.chdir(tree)
    first = published_ids(tree)["player"][0]
    assert re.fullmatch(r"0\d+", first)
    assert pd.read_csv("renju/ratings.csv")["player"][0] == int(first)
    assert pd.read_excel("renju/ratings.xlsx")["player"][0] == int(first)
    assert pd.read_json("renju/players.json")["id"].dtype.kind == "i"
    assert pv.read_csv("renju/ratings.csv").schema.field("player").type == pa.int64()
    # DuckDB keeps 000001 as text, but reads the game ids 1, 2, ... as numbers
    games = duckdb.sql("SELECT typeof(game_id) FROM read_csv('renju/exclusions.csv') LIMIT 1")
    assert games.fetchall() == [("BIGINT",)]


def test_the_pandas_lines(tree: Path, monkeypatch) -> None:
    monkeypatch.chdir(tree)
    (code,) = [b for b in blocks("python") if "import pandas" in b]
    names: dict[str, Any] = {}
    exec(compile(code, "data-dictionary.md (pandas)", "exec"), names)
    ids = published_ids(tree)
    for frame in ("ratings", "ratings_csv", "ratings_xlsx"):
        assert names[frame]["player"].tolist() == ids["player"], frame
    assert sorted(names["players"]["id"]) == sorted(ids["player"])
    exclusions = names["exclusions"]
    assert exclusions["game_id"].tolist() == ids["game_id"]
    assert exclusions["black"].tolist() == [b if b is not None else pd.NA for b in ids["black"]]
    ratings, csv_ = names["ratings"], names["ratings_csv"]
    assert csv_["rank"].isna().sum() == ratings["rank"].isna().sum() > 0  # empty cells: missing
    assert (csv_["rating"] - ratings["rating"]).abs().max() <= 0.005  # to the hundredth


def test_the_pyarrow_lines(tree: Path, monkeypatch) -> None:
    monkeypatch.chdir(tree)
    (code,) = [b for b in blocks("python") if "import pyarrow" in b]
    names: dict[str, Any] = {}
    exec(compile(code, "data-dictionary.md (pyarrow)", "exec"), names)
    ids = published_ids(tree)
    parquet, csv_ = names["ratings"], names["ratings_csv"]
    assert csv_.schema.types == parquet.schema.types  # every column's type as published
    assert csv_.column("player").to_pylist() == ids["player"]
    for column in parquet.column_names:
        if not pa.types.is_floating(parquet.schema.field(column).type):
            assert csv_.column(column).equals(parquet.column(column)), column
    exclusions = names["exclusions"]
    assert exclusions.column("game_id").to_pylist() == ids["game_id"]
    assert exclusions.column("black").to_pylist() == ids["black"]  # a bye's white is null
    assert exclusions.schema.field("tournament_end").type == pa.date32()


def test_the_duckdb_statements(tree: Path, monkeypatch) -> None:
    monkeypatch.chdir(tree)
    (sql,) = blocks("sql")
    statements = [s.strip() for s in sql.split(";") if s.strip()]
    assert len(statements) == 5
    ids = published_ids(tree)
    results = [duckdb.sql(statement) for statement in statements]
    top = results[0].fetchall()
    assert len(top) == 10 and top[0][0] == 1 and str(top[0][1]).startswith("0")
    for result, column in zip(
        results[1:], ("player", "game_id", "tournament_id", "id"), strict=True
    ):
        types = dict(zip(result.columns, result.types, strict=True))
        assert str(types[column]) == "VARCHAR", column
    assert [r[0] for r in results[1].select("player").fetchall()] == ids["player"]
    assert [r[0] for r in results[2].select("game_id").fetchall()] == ids["game_id"]
    assert [r[0] for r in results[2].select("black").fetchall()] == ids["black"]
    players = results[4].select("id").fetchall()
    assert sorted(r[0] for r in players) == sorted(ids["player"])


def test_the_r_lines_read_every_id_column_as_text() -> None:
    # R is not run here (Debian does not package R's arrow): the lines must at least name, for
    # each CSV they read, every id column as "character"
    (code,) = blocks("r")
    reads = re.findall(r'read\.csv\("renju/(\w+\.csv)",(.+?)\)(?:\n|$)', code, re.S)
    assert [name for name, _ in reads] == ["ratings.csv", "exclusions.csv"]
    for name, options in reads:
        assert set(re.findall(r'(\w+) = "character"', options)) == set(IDS[name]), name
        assert 'na.strings = ""' in options and 'fileEncoding = "UTF-8"' in options


@pytest.mark.parametrize("name", ["ratings.xlsx", "exclusions.xlsx"])
def test_the_xlsx_files_hold_ids_as_text_cells(tree: Path, name: str) -> None:
    sheet = openpyxl.load_workbook(tree / "renju" / name, read_only=True).active
    rows = sheet.iter_rows()
    header = [cell.value for cell in next(rows)]
    body = [list(row) for row in rows]
    ids = published_ids(tree)
    for column in IDS[name]:
        cells = [row[header.index(column)] for row in body]
        assert all(c.data_type == "s" for c in cells if c.value is not None), column
        if column in ids:
            assert [c.value for c in cells] == ids[column], column


@pytest.mark.parametrize("name", ["ratings.csv", "exclusions.csv"])
def test_every_id_of_the_csv_files_is_quoted_text(tree: Path, name: str) -> None:
    # what Excel's import as text relies on: an id cell is "000001", never a bare number
    # (facts_needed.csv, empty here, comes from the same writer: tests/publish/test_csv.py)
    text = (tree / "renju" / name).read_text(encoding="utf-8")
    header, *rows = raw_rows(text)
    assert len(rows) == len(list(csv.reader(io.StringIO(text, newline="")))) - 1
    for column in IDS[name]:
        cells = [row[header.index(f'"{column}"')] for row in rows]
        assert all(c == "" or re.fullmatch(r'"(?:[^"]|"")*"', c) for c in cells), column
        assert any(c for c in cells), column
