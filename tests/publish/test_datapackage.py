"""``OUT/datapackage.json``: a Frictionless Data Package that describes the published tables, and
the files it lists validate against it (with the ``frictionless`` package)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import support
from frictionless import Package, Resource, Schema, validate

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
    descriptor = datapackage.table_schema(schema)
    Schema.from_descriptor(descriptor)  # raises on an invalid descriptor
    assert all(f["description"] for f in descriptor["fields"])
    assert [f["name"] for f in descriptor["fields"]] == schema.names


def test_parquet_files_carry_no_descriptions(published: Path) -> None:
    # the descriptions are in datapackage.json; the files are written with plain schemas
    schema = pq.read_schema(published / "renju/ratings.parquet")
    assert all(f.metadata is None for f in schema)
    assert set(schema.metadata) == {b"whr.schema_version", b"whr.parameters"}


def parquet_rows(path: Path) -> list[list[Any]]:
    """The rows of a Parquet file, nulls as None (frictionless' own Parquet reader goes through
    pandas, where a null integer becomes NaN)."""
    table = pq.read_table(path)
    return [
        table.column_names,
        *([row[n] for n in table.column_names] for row in table.to_pylist()),
    ]


def validate_tree(out: Path) -> list[str]:
    """Every problem frictionless finds: the descriptor, the CSV files as frictionless reads
    them, the Parquet files' rows, and each file's size and sha256 where the package gives them."""
    checked = Package.validate_descriptor(read(out))
    errors = [f"descriptor: {e}" for e in checked.flatten(["type", "note"])]
    for described in read(out)["resources"]:
        path = out / described["path"]
        data = path.read_bytes()
        if "bytes" in described and described["bytes"] != len(data):
            errors.append(f"{described['name']}: {len(data)} bytes, not {described['bytes']}")
        if (
            "hash" in described
            and described["hash"] != f"sha256:{hashlib.sha256(data).hexdigest()}"
        ):
            errors.append(f"{described['name']}: sha256 differs")
        if described["format"] == "csv":
            report = validate(Resource(described, basepath=str(out)))
        else:
            assert pq.read_schema(path).names == [f["name"] for f in described["schema"]["fields"]]
            rows = Resource(
                data=parquet_rows(path), schema=Schema.from_descriptor(described["schema"])
            )
            report = validate(rows)
        errors += [
            f"{described['name']}: {e}"
            for e in report.flatten(["rowNumber", "fieldName", "cell", "note"])
        ]
    return errors


def test_every_listed_file_validates_against_its_schema(published: Path) -> None:
    assert validate_tree(published) == []


def test_a_file_that_breaks_its_schema_is_caught(published: Path, tmp_path: Path) -> None:
    # the validation above could fail: a status outside the declared values, a missing id
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
    errors = validate_tree(out)
    assert any("renju-ratings-csv" in e and "status" in e and "retired" in e for e in errors), (
        errors
    )
    assert any("renju-history" in e and "sha256" in e for e in errors), errors
    assert any("renju-history" in e and "player" in e and "constraint" in e for e in errors), errors


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
