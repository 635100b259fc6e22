"""``OUT/datapackage.json``: a Frictionless Data Package that describes the published tables, and
the files it lists validate against it as consumers check them: ``frictionless validate
datapackage.json``, the command line of the ``frictionless`` package, run in the published tree."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import support
from frictionless import Schema

from whr import tables
from whr.lists import Tables
from whr.publish import datapackage


def read(out: Path) -> dict[str, Any]:
    return json.loads((out / "datapackage.json").read_text(encoding="utf-8"))


def by_name(out: Path) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in read(out)["resources"]}


def test_the_package_lists_the_current_list_and_the_newest_days_tables(published: Path) -> None:
    resources = by_name(published)
    day = support.AS_OF.isoformat()
    assert resources["renju-ratings"]["path"] == "renju/ratings.parquet"  # never moves
    assert resources["renju-ratings-csv"]["path"] == "renju/ratings.csv"
    assert resources["renju-exclusions-csv"]["path"] == "renju/exclusions.csv"
    assert resources["renju-facts-needed-csv"]["path"] == "renju/facts_needed.csv"
    for stem in ("year_end", "history", "games", "players", "tournaments", "exclusions"):
        name = f"renju-{stem.replace('_', '-')}"
        assert resources[name]["path"] == f"archive/renju/{day}/{stem}.parquet"
    # every table an archive entry holds is described (no file of the entry is left out)
    manifest = json.loads((published / f"archive/renju/{day}/manifest.json").read_text())
    described = {Path(r["path"]).name for r in resources.values()}
    assert set(manifest["files"]) <= described
    assert {f"{stem}.parquet" for stem in Tables.SCHEMAS} <= described
    for resource in resources.values():
        assert (published / resource["path"]).is_file(), resource["path"]
        assert resource["profile"] == "tabular-data-resource"


def test_columns_are_described_from_the_declared_schemas(published: Path) -> None:
    ratings = by_name(published)["renju-ratings"]["schema"]
    fields = {f["name"]: f for f in ratings["fields"]}
    assert [f["name"] for f in ratings["fields"]] == tables.RATINGS.names
    assert ratings["primaryKey"] == ["list_date", "player"]
    assert fields["status"]["constraints"] == {"required": True, "enum": list(tables.STATUSES)}
    assert fields["rating"]["unit"] == "Elo" and fields["rating"]["type"] == "number"
    assert fields["rank"]["type"] == "integer" and "constraints" not in fields["rank"]  # nullable
    assert fields["list_date"]["type"] == "date"
    assert fields["female"]["type"] == "boolean"
    assert all(f["description"] for f in ratings["fields"])
    games = by_name(published)["renju-games"]["schema"]
    assert "note" not in [f["name"] for f in games["fields"]]  # never published
    assert games["primaryKey"] == ["game_id"]


@pytest.mark.parametrize(
    "schema",
    [getattr(tables, n) for n in dir(tables) if isinstance(getattr(tables, n), pa.Schema)],
)
def test_every_declared_schema_is_a_valid_table_schema(schema: pa.Schema) -> None:
    for format in ("csv", "parquet"):
        descriptor = datapackage.table_schema(schema, format)
        Schema.from_descriptor(descriptor)  # raises on an invalid descriptor
        assert all(f["description"] for f in descriptor["fields"])
        assert [f["name"] for f in descriptor["fields"]] == schema.names


def test_a_parquet_files_null_integers_are_described_as_pandas_reads_them(published: Path):
    # frictionless reads Parquet through pandas: a nullable integer column's nulls are NaN there
    resources = by_name(published)
    parquet = {f["name"]: f for f in resources["renju-ratings"]["schema"]["fields"]}
    csv = {f["name"]: f for f in resources["renju-ratings-csv"]["schema"]["fields"]}
    assert parquet["rank"]["missingValues"] == ["", "nan"]
    assert "missingValues" not in csv["rank"]  # an empty cell, the schema's own missing value
    assert "missingValues" not in parquet["games"]  # never null
    assert "missingValues" not in parquet["name"]  # text: pandas keeps its nulls
    with pytest.raises(ValueError, match="format must be one of"):
        datapackage.table_schema(tables.RATINGS, "xlsx")


def test_parquet_files_carry_no_descriptions(published: Path) -> None:
    # the descriptions are in datapackage.json; the files are written with plain schemas
    schema = pq.read_schema(published / "renju/ratings.parquet")
    assert all(f.metadata is None for f in schema)
    assert set(schema.metadata) == {b"whr.schema_version", b"whr.parameters"}


FRICTIONLESS = Path(sys.executable).with_name("frictionless")
"""The command line of the ``frictionless`` package, installed with the test tools."""


def frictionless(out: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``frictionless validate [options] datapackage.json`` run in ``out``, as a consumer runs
    it: the package's own readers (CSV as a stream, Parquet through pyarrow and pandas)."""
    return subprocess.run(
        [str(FRICTIONLESS), "validate", *options, "datapackage.json"],
        cwd=out,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def problems(out: Path) -> tuple[int, list[str]]:
    """The exit status of ``frictionless validate --json`` in ``out`` and every error it
    reports, as ``resource: type: message``."""
    done = frictionless(out, "--json")
    report = json.loads(done.stdout)
    errors = [f"package: {e['type']}: {e['message']}" for e in report["errors"]]
    errors += [
        f"{task['name']}: {e['type']}: {e['message']}"
        for task in report["tasks"]
        for e in task["errors"]
    ]
    return done.returncode, errors


@pytest.mark.parametrize("tree", ["published", "two_days"])
def test_frictionless_validate_accepts_every_published_tree(tree: str, request) -> None:
    # every resource, CSV and Parquet: the first list alone, and a list with changes since the
    # previous one (its change columns null for some players, numbers for others)
    out = request.getfixturevalue(tree)
    done = frictionless(out)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "INVALID" not in done.stdout and "VALID" in done.stdout


def test_frictionless_validate_catches_a_file_that_breaks_its_schema(
    published: Path, tmp_path: Path
) -> None:
    # the command could fail: a status outside the declared values (CSV), a missing id in a
    # column that is never null (Parquet), a text where a number belongs (Parquet)
    out = tmp_path / "out"
    shutil.copytree(published, out, symlinks=True)
    csv = out / "renju/ratings.csv"
    lines = csv.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1].replace('"active"', '"retired"', 1)
    csv.write_text("".join(lines), encoding="utf-8")
    history = out / f"archive/renju/{support.AS_OF.isoformat()}/history.parquet"
    table = pq.read_table(history)
    pq.write_table(
        table.set_column(0, "player", pa.array([None] * len(table), pa.string())), history
    )
    games = out / f"archive/renju/{support.AS_OF.isoformat()}/games.parquet"
    table = pq.read_table(games)
    moves = table.schema.get_field_index("moves")
    pq.write_table(table.set_column(moves, "moves", pa.array(["forty"] * len(table))), games)
    status, errors = problems(out)
    assert status == 1
    assert any(
        e.startswith("renju-ratings-csv: constraint-error") and "retired" in e for e in errors
    )
    assert any(e.startswith("renju-history: constraint-error") and "player" in e for e in errors)
    assert any(e.startswith("renju-games: type-error") and "moves" in e for e in errors), errors


def test_the_package_gives_each_parquet_files_sha256(published: Path) -> None:
    # frictionless does not check a Parquet file's digest (it reads the file through pyarrow):
    # the package's hash is the file's, as its manifest records it (rif-rating --verify)
    for described in read(published)["resources"]:
        data = (published / described["path"]).read_bytes()
        if "hash" in described:
            assert described["hash"] == f"sha256:{hashlib.sha256(data).hexdigest()}"
        assert "bytes" not in described or described["format"] == "csv"
    hashed = [r["name"] for r in read(published)["resources"] if "hash" in r]
    assert "renju-history" in hashed and "renju-ratings" in hashed


def test_one_format_version_everywhere(published: Path) -> None:
    day = published / f"archive/renju/{support.AS_OF.isoformat()}"
    manifest = json.loads((day / "manifest.json").read_text(encoding="utf-8"))
    index = json.loads((published / "published.json").read_text(encoding="utf-8"))
    assert manifest["format"] == index["format"] == read(published)["format"]
    assert manifest["format"] == tables.FORMAT_VERSION
    assert manifest["schema_version"] == str(tables.FORMAT_VERSION)
    for path in [*day.glob("*.parquet"), published / "renju/ratings.parquet"]:
        metadata = pq.read_schema(path).metadata
        assert metadata[b"whr.schema_version"] == str(tables.FORMAT_VERSION).encode(), path


def test_the_changelog_records_the_current_format_version() -> None:
    text = (Path(__file__).resolve().parents[2] / "CHANGELOG.md").read_text(encoding="utf-8")
    breaking = text.split("## Breaking changes", 1)[1]
    first = breaking.split("\n### ", 2)[1]  # the newest entry comes first
    assert first.startswith(f"Format {tables.FORMAT_VERSION} "), first.splitlines()[0]
