"""``OUT/datapackage.json``: the published tables, described for programs.

A Frictionless Data Package (profile ``tabular-data-package``) whose resources are the data files
a consumer reads, each with its Table Schema: the column types, which columns are never null
(``constraints.required``), the values a text column takes (``constraints.enum``), the
description and unit of each column, and the primary key where one holds. Everything comes from
the schemas declared in :mod:`whr.tables` (:func:`whr.tables.column`), so the description cannot
drift from the files.

For every published list (official lists first, then the variants), the resources are:

- the current site's exports, at addresses that never change (``renju/ratings.parquet``,
  ``renju/ratings.csv``, ``renju/exclusions.csv``, ``renju/facts_needed.csv``): the day the site
  shows (its ``latest.json``);
- every table of the newest archived day (``archive/renju/<D>/history.parquet``, ...), which only
  the newest day and each December 31 keep, with the sha256 its manifest records (frictionless
  does not check the digest of a Parquet file: ``rif-rating --verify`` does).

Past days are not listed one by one: ``published.json`` indexes them all, and their lists have
the schema of ``ratings`` (``RATINGS``; a closed month's file ``MONTH_LISTS``, the same columns
with float32 Elo values). The file is rewritten by every run with the other index files
(:func:`whr.publish.archive.write_index`), only when it changes; it names no time, so the same
tree gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pyarrow as pa

from whr.publish.files import is_file
from whr.publish.layout import Channel, Layout
from whr.tables import (
    EXCLUSIONS,
    EXCLUSIONS_CSV,
    FACTS_NEEDED,
    FORMAT_VERSION,
    HISTORY,
    PLAYERS,
    RATED_GAMES,
    RATINGS,
    RECORD,
    TOURNAMENT_CHANGES,
    TOURNAMENTS,
    described,
)


class Entry(Protocol):
    """What a resource is read from of a published day (an archive entry,
    :class:`whr.publish.archive.entry.Entry`, which describes itself without this module knowing
    the archive)."""

    @property
    def day(self) -> dt.date: ...

    @property
    def path(self) -> Path: ...

    @property
    def manifest(self) -> dict[str, Any]: ...


PROFILE = "tabular-data-package"
NAME = "rif-rating"
TITLE = "The world rating list of Renju (Whole-History Rating, the RIF's rules)"
DESCRIPTION = (
    "The rating lists computed every day from the complete history of rated games: for each "
    "list, the current list and what it was computed from. Every published day of every list "
    "is indexed in published.json (its list has the schema of the ratings resources). Columns "
    "are described in each resource's schema; Elo values are on the published scale (the "
    "virtual opponent of a new player is rated 1900)."
)
MEDIA_TYPES = {"parquet": "application/vnd.apache.parquet", "csv": "text/csv"}


@dataclass(frozen=True)
class File:
    """A data file a list publishes: its name, schema and what it holds."""

    name: str
    schema: pa.Schema
    title: str

    @property
    def format(self) -> str:
        return self.name.rpartition(".")[2]

    @property
    def stem(self) -> str:
        return self.name.rpartition(".")[0].replace("_", "-")


SITE_FILES = (
    File("ratings.parquet", RATINGS, "the current list"),
    File("ratings.csv", RATINGS, "the current list, as CSV (Elo values to the hundredth)"),
    File("exclusions.csv", EXCLUSIONS_CSV, "the games read but not rated, and why"),
    File("facts_needed.csv", FACTS_NEEDED, "tournaments whose thinking time or mode is not known"),
)
"""The current site's exports (``OUT/<list>/``)."""

DAY_FILES = (
    File("year_end.parquet", RATINGS, "the list on every December 31 up to the day"),
    File("history.parquet", HISTORY, "every player-day of the fit: rating and uncertainty"),
    File("games.parquet", RATED_GAMES, "the rated games, with both players' ratings that day"),
    File("players.parquet", PLAYERS, "every player read from the source"),
    File("tournaments.parquet", TOURNAMENTS, "every tournament read from the source"),
    File("exclusions.parquet", EXCLUSIONS, "every game read but not rated, with its reason"),
    File(
        "tournament_changes.parquet",
        TOURNAMENT_CHANGES,
        "each player's change in each tournament at the time it was first rated",
    ),
    File("record.parquet", RECORD, "what the lists said about every player, as published"),
)
"""The tables of the newest archived day (``OUT/archive/<list>/<D>/``); its list is the site's
``ratings.parquet`` (the same bytes), and its ``facts_needed.csv`` the site's too."""

_TYPES = (
    (pa.types.is_string, "string"),
    (pa.types.is_large_string, "string"),
    (pa.types.is_integer, "integer"),
    (pa.types.is_floating, "number"),
    (pa.types.is_boolean, "boolean"),
    (pa.types.is_date, "date"),
)


def field_type(arrow: pa.DataType) -> str:
    """The Table Schema type of an Arrow type (the types the shared schemas use)."""
    for test, name in _TYPES:
        if test(arrow):
            return name
    raise ValueError(f"no Table Schema type for the Arrow type {arrow}")


PANDAS_NULL = "nan"
"""How a null of an integer column reaches a Parquet reader that goes through pandas, as
``frictionless validate`` does (pyarrow -> pandas: an integer column with nulls becomes float64,
a null NaN, which frictionless compares as the text ``nan``). The Parquet file holds a true null."""


def table_schema(schema: pa.Schema, format: str = "csv") -> dict[str, Any]:
    """The Table Schema of a declared Arrow schema (:func:`whr.tables.column`), for a file of
    ``format`` (``"csv"`` or ``"parquet"``).

    A missing value is an empty cell. In a Parquet file's schema, a nullable integer column also
    names :data:`PANDAS_NULL` as its missing value (the field's own ``missingValues``): the
    Table Schema cannot say "null" for a typed file, and frictionless reads Parquet through
    pandas, where that column's nulls are NaN; no integer column can hold the text ``nan``.
    """
    if format not in MEDIA_TYPES:
        raise ValueError(f"format must be one of {list(MEDIA_TYPES)}, got {format!r}")
    columns, key = described(schema)
    fields: list[dict[str, Any]] = []
    for column in columns:
        field: dict[str, Any] = {
            "name": column.name,
            "type": field_type(column.type),
            "description": column.description,
        }
        if column.unit is not None:
            field["unit"] = column.unit
        if format == "parquet" and field["type"] == "integer" and not column.required:
            field["missingValues"] = ["", PANDAS_NULL]
        constraints: dict[str, Any] = {}
        if column.required:
            constraints["required"] = True
        if column.values:
            constraints["enum"] = list(column.values)
        if constraints:
            field["constraints"] = constraints
        fields.append(field)
    out: dict[str, Any] = {"fields": fields, "missingValues": [""]}
    if key:
        out["primaryKey"] = list(key)
    return out


def resource(
    name: str, path: str, file: File, title: str, info: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One resource: a file of the tree, ``path`` relative to ``OUT``; ``info``: its entry in a
    manifest's ``files`` (``sha256``, ``bytes``), when one records it."""
    out: dict[str, Any] = {
        "name": name,
        "path": path,
        "profile": "tabular-data-resource",
        "title": title,
        "format": file.format,
        "mediatype": MEDIA_TYPES[file.format],
    }
    if info is not None and isinstance(info.get("sha256"), str):
        out["hash"] = f"sha256:{info['sha256']}"
    # frictionless counts the bytes of the files it reads as a stream (CSV); it reads a Parquet
    # file through pyarrow, counts none, and reports any declared size as wrong: the size of a
    # Parquet file is in its manifest, not here
    if info is not None and isinstance(info.get("bytes"), int) and file.format != "parquet":
        out["bytes"] = info["bytes"]
    if file.format == "csv":
        out["encoding"] = "utf-8"
        out["dialect"] = {"delimiter": ",", "quoteChar": '"', "header": True}
    out["schema"] = table_schema(file.schema, file.format)
    return out


def list_resources(
    layout: Layout, channel: Channel, newest: Entry | None, shown: str | None
) -> list[dict[str, Any]]:
    """The resources of one list: its site's exports (the site shows the day ``shown``, from
    its ``latest.json``) and the tables of its newest archived day ``newest``."""
    prefix = channel.key.replace("/", "-")
    label = channel.category if channel.official else f"{channel.category} ({channel.variant})"
    out = []
    site = layout.site(channel)
    if shown is not None:
        for file in SITE_FILES:
            if is_file(site / file.name):
                kept = newest.manifest["files"].get(file.name) if newest is not None else None
                same = newest is not None and newest.day.isoformat() == shown
                out.append(
                    resource(
                        f"{prefix}-{file.stem}" + ("-csv" if file.format == "csv" else ""),
                        layout.relative(site / file.name),
                        file,
                        f"{label} {shown}: {file.title}",
                        kept if same and file.format == "parquet" else None,
                    )
                )
    if newest is not None:
        day = newest.day.isoformat()
        for file in DAY_FILES:
            info = newest.manifest["files"].get(file.name)
            if isinstance(info, dict):
                out.append(
                    resource(
                        f"{prefix}-{file.stem}",
                        layout.relative(newest.path / file.name),
                        file,
                        f"{label} {day}: {file.title}",
                        info,
                    )
                )
    return out


def descriptor(
    layout: Layout, lists: Sequence[tuple[Channel, Entry | None, str | None]]
) -> dict[str, Any]:
    """``datapackage.json`` of the tree: for each list (official ones first), its newest
    complete entry (None when it has none) and the day its site shows (None: no site)."""
    resources = [
        r
        for channel, newest, shown in lists
        for r in list_resources(layout, channel, newest, shown)
    ]
    return {
        "profile": PROFILE,
        "name": NAME,
        "title": TITLE,
        "description": DESCRIPTION,
        "format": FORMAT_VERSION,  # as in published.json and every manifest (CHANGELOG.md)
        "resources": resources,
    }
