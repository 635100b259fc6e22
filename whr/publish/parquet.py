"""A published day's files: its tables as Parquet, CSV from declared schemas, the manifest.

:func:`write_entry` writes a day's tables (:class:`whr.lists.Tables`, built by
:func:`whr.lists.build`) as Parquet with their declared schemas and the manifest (parameters,
inputs, counts, versions, and every file's size, rows and sha256), then reads them back to
verify; :func:`csv_text` is the one CSV writer of everything published. Parquet bytes depend
only on the tables; the creation time is only in the manifest. Where an entry lives and how it
goes live is :mod:`whr.publish.commit`'s business.
"""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import io
import platform
from collections.abc import Iterable, Mapping
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any, Protocol

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from whr.digest import file_sha256
from whr.lists import Tables
from whr.publish.files import parquet_metadata, write_json, write_parquet, write_text
from whr.tables import to_table

PACKAGES = ("rif-rating", "numpy", "scipy", "pandas", "pyarrow", "jinja2")
CSV_DECIMALS = 2
"""Decimals of fractional numbers (Elo values) in the CSV files; the Parquet keeps them whole."""
CSV_FORMULA = r"^[=+\-@\t\r]"
"""A text cell starting with one of these (``= + - @``, a tab, a carriage return) is one a
spreadsheet would run as a formula."""


class Tabled(Protocol):
    """Tables to write: ``items()`` gives each one's file stem, frame and schema."""

    def items(self) -> Iterable[tuple[str, pd.DataFrame, pa.Schema]]: ...


class PublishError(RuntimeError):
    """A day's files failed verification; nothing was published. The message says which check."""


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data (dates as ISO strings, frames as records)."""
    if is_dataclass(value) and not isinstance(value, type):
        return jsonable(asdict(value))
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, pd.DataFrame):
        return jsonable(value.to_dict(orient="records"))
    if isinstance(value, pd.Series):
        return jsonable(value.to_dict())
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return jsonable(value.item())
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, float) and value != value:
            return None
        return value
    return str(value)


def rounded(column: pa.ChunkedArray[Any], decimals: int = CSV_DECIMALS) -> pa.ChunkedArray[Any]:
    """Fractional numbers as every text file publishes them (CSV, JSON, XLSX): rounded to
    ``decimals`` places, half to even, and a negative number that rounds to zero (a change of
    -0.001 Elo) as ``0``, never ``-0``; nulls and NaN stay as they are."""
    out = pc.round(column, decimals)
    zero = pa.scalar(0.0, out.type)
    signless: pa.ChunkedArray[Any] = pc.if_else(pc.equal(out, zero), zero, out)
    return signless


def csv_text(frame: pd.DataFrame, schema: pa.Schema) -> str:
    """A table as CSV text, written by pyarrow from its declared schema: every CSV we publish.

    One header row of the schema's names, ``\n`` line ends, UTF-8. Integers are written as
    integers (``1``, not ``1.0``), booleans as ``true``/``false``, dates as ``YYYY-MM-DD``,
    fractional numbers rounded to ``CSV_DECIMALS`` places (:func:`rounded`: never ``-0``), a
    missing value as an empty field.
    Every text cell is quoted (so ids stay text, and a CR or LF inside a cell never starts a
    row); a text cell that a spreadsheet would run as a formula (:data:`CSV_FORMULA`) gets a
    leading ``'``. Numbers are never changed that way: ``-1.5`` in a number column stays a
    number.

    Parameters
    ----------
    frame : pandas.DataFrame
        The rows; must have every column of ``schema`` (others are left out).
    schema : pyarrow.Schema
        The columns, their order and types.
    """
    table = to_table(frame, schema)
    columns = []
    for column in table.columns:
        kind = column.type
        if pa.types.is_floating(kind):
            column = rounded(column)
        elif pa.types.is_string(kind) or pa.types.is_large_string(kind):
            risky = pc.match_substring_regex(column, CSV_FORMULA)
            column = pc.if_else(risky, pc.utf8_replace_slice(column, 0, 0, "'"), column)
        columns.append(column)
    out = io.BytesIO()
    pa_csv.write_csv(
        pa.table(columns, names=table.column_names),
        out,
        pa_csv.WriteOptions(quoting_style="needed"),
    )
    return out.getvalue().decode("utf-8")


def versions() -> dict[str, str | None]:
    """Python's and the packages' versions, for the manifest."""
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def write_entry(
    path: Path,
    tables: Tables | Tabled,
    info: Mapping[str, Any],
    csv: Mapping[str, tuple[pd.DataFrame, pa.Schema]] | None = None,
    *,
    metadata: dict[bytes, bytes] | None = None,
) -> dict[str, Any]:
    """Write a day's tables and manifest into the new directory ``path``; return the manifest.

    Parameters
    ----------
    path : Path
        A new, empty directory (the entry as it is being prepared).
    tables : whr.lists.Tables
        The day's tables, each written as ``<name>.parquet`` with its schema (or any tables
        given by ``items()`` as ``(name, frame, schema)``, as a replay's).
    info : mapping
        The manifest's facts (list, parameters, run, inputs, counts, ...); ``parameters`` also
        go into every Parquet file's metadata. ``files`` is added here.
    csv : mapping of str to (DataFrame, pyarrow.Schema), optional
        Further files written as CSV (:func:`csv_text`), by file name: each table with its
        declared schema.
    metadata : dict, optional
        Every Parquet file's key-value metadata; default: the format version and the
        ``parameters`` of ``info``.

    Raises
    ------
    PublishError
        When a written file does not read back as written.
    """
    if metadata is None:
        metadata = parquet_metadata(jsonable(info.get("parameters")))
    files: dict[str, dict[str, Any]] = {}
    for stem, frame, schema in tables.items():
        name = f"{stem}.parquet"
        rows = write_parquet(frame, schema, path / name, metadata)
        files[name] = {
            "rows": rows,
            "sha256": file_sha256(path / name),
            "bytes": (path / name).stat().st_size,
        }
    for name, (frame, schema) in (csv or {}).items():
        write_text(path / name, csv_text(frame, schema))
        files[name] = {
            "rows": len(frame),
            "sha256": file_sha256(path / name),
            "bytes": (path / name).stat().st_size,
        }
    manifest = {**jsonable(dict(info)), "files": files}
    write_json(path / "manifest.json", manifest)
    verify(path, manifest)
    return manifest


def verify(path: Path, manifest: Mapping[str, Any]) -> None:
    """Check every file the manifest lists: present, same sha256, same rows (Parquet)."""
    for name, entry in manifest["files"].items():
        file = path / name
        if not file.is_file():
            raise PublishError(f"verification failed: {name} is missing from {path}")
        if file_sha256(file) != entry["sha256"]:
            raise PublishError(f"verification failed: checksum of {name} changed after writing")
        if name.endswith(".parquet"):
            rows = pq.read_metadata(file).num_rows
            if rows != entry["rows"]:
                raise PublishError(
                    f"verification failed: {name} has {rows} rows, expected {entry['rows']}"
                )
