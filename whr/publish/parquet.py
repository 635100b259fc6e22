"""A published day's tables and manifest: built from the run's results, written, verified.

:func:`build_tables` turns what a run computed (the input, eligibility's selection, the fit)
into the day's tables, sorted deterministically; :func:`write_entry` writes them as Parquet
with their declared schemas and the manifest (parameters, inputs, counts, versions, and every
file's size, rows and sha256), then reads them back to verify. Table contents and Parquet bytes
depend only on the inputs; the creation time is only in the manifest. Where an entry lives and
how it goes live is :mod:`whr.publish.commit`'s business.
"""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import io
import platform
from collections.abc import Mapping
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from whr import lists
from whr.digest import file_sha256
from whr.lists import changes
from whr.lists.changes import split_rating_change
from whr.publish.files import parquet_metadata, write_json, write_parquet, write_text
from whr.tables import (
    EXCLUSIONS,
    HISTORY,
    PLAYERS,
    RATED_GAMES,
    RATINGS,
    TOURNAMENTS,
    SourceData,
    conform,
    days_of,
    to_table,
)

if TYPE_CHECKING:
    from whr.engine import Fit
    from whr.rules import Selection

TABLES = {  # file stem -> schema
    "ratings": RATINGS,
    "year_end": RATINGS,
    "history": HISTORY,
    "games": RATED_GAMES,
    "players": PLAYERS,
    "tournaments": TOURNAMENTS,
    "exclusions": EXCLUSIONS,
}
PACKAGES = ("rif-rating", "numpy", "scipy", "pandas", "pyarrow", "jinja2")
CSV_DECIMALS = 2
"""Decimals of fractional numbers (Elo values) in the CSV files; the Parquet keeps them whole."""
CSV_FORMULA = r"^[=+\-@\t\r]"
"""A text cell starting with one of these (``= + - @``, a tab, a carriage return) is one a
spreadsheet would run as a formula."""


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


def _selection_counts(counts: Any) -> Any:
    """Eligibility's counts in brief: totals and the games excluded by each reason (non-zero)."""
    if counts is None or not hasattr(counts, "by_reason"):
        return jsonable(counts)
    out = {
        k: jsonable(getattr(counts, k, None)) for k in ("read", "rated", "excluded", "unverified")
    }
    by_reason = counts.by_reason
    out["excluded_by_reason"] = {
        str(r): int(n) for r, n in zip(by_reason["reason"], by_reason["games"], strict=True) if n
    }
    return out


def csv_text(frame: pd.DataFrame, schema: pa.Schema) -> str:
    """A table as CSV text, written by pyarrow from its declared schema: every CSV we publish.

    One header row of the schema's names, ``\n`` line ends, UTF-8. Integers are written as
    integers (``1``, not ``1.0``), booleans as ``true``/``false``, dates as ``YYYY-MM-DD``,
    fractional numbers rounded to ``CSV_DECIMALS`` places, a missing value as an empty field.
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
            column = pc.round(column, CSV_DECIMALS)
        elif pa.types.is_string(kind) or pa.types.is_large_string(kind):
            risky = pc.match_substring_regex(column, CSV_FORMULA)
            column = pc.if_else(risky, pc.binary_join_element_wise("'", column, ""), column)
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


def year_end_lists(year_end: pd.DataFrame) -> dict[dt.date, pd.DataFrame]:
    """The lists of a ``year_end`` table (RATINGS, each list's rows together), by list date in
    the table's order; each a slice of the table, not a copy (at 1M games the year-end lists
    are a third of the memory of a whole publish)."""
    days = days_of(year_end["list_date"])
    if not len(days):
        return {}
    starts = np.flatnonzero(np.r_[True, days[1:] != days[:-1]])
    ends = [*starts[1:], len(days)]
    out = {}
    for a, b in zip(starts, ends, strict=True):
        day = year_end["list_date"].iloc[a]
        if day in out:
            raise ValueError(f"the year_end table has the rows of the list of {day} apart")
        out[day] = year_end.iloc[a:b].reset_index(drop=True)
    return out


def list_inputs(
    data: SourceData, selection: Selection, fit: Fit
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """What the lists are built from (:func:`whr.lists.list_on`), as :func:`build_tables`
    prepares it: the history (HISTORY, by player and date), the rated games (RATED_GAMES),
    the games as each player sees them (:func:`whr.lists.player_games`) and the players
    (PLAYERS, by id)."""
    history = conform(fit.history, HISTORY)
    history = history.sort_values(["player", "date"], kind="stable").reset_index(drop=True)
    games = lists.rated_games(selection.rated, history)
    players = (
        conform(data.players, PLAYERS)
        .sort_values("player_id", kind="stable")
        .reset_index(drop=True)
    )
    return history, games, lists.player_games(games), players


def build_tables(
    as_of: dt.date,
    data: SourceData,
    selection: Selection,
    fit: Fit,
    *,
    previous: pd.DataFrame | None = None,
    previous_history: pd.DataFrame | None = None,
) -> tuple[dict[str, pd.DataFrame], dict[dt.date, pd.DataFrame]]:
    """The snapshot's tables, sorted deterministically.

    Parameters
    ----------
    as_of : datetime.date
        The list date.
    data : whr.tables.SourceData
        What was read (players and tournaments are published as read).
    selection : whr.rules.Selection
        ``.rated`` (GAMES) and ``.exclusions`` (EXCLUSIONS).
    fit : whr.engine.Fit
        ``.history`` (HISTORY) and ``.rating_on(day)``.
    previous : pandas.DataFrame, optional
        The previous published list of the category (RATINGS), for ``rating_change`` and
        ``previous_rank`` (:func:`whr.lists.changes.since`); each year-end list is compared with the
        one a year before.
    previous_history : pandas.DataFrame, optional
        That list's rating history (HISTORY), for the split of each change into the part due
        to the player's own games and the rest (:func:`whr.lists.changes.split_rating_change`).

    Returns
    -------
    tables : dict of str to pandas.DataFrame
        One frame per entry of ``TABLES``, each conforming to its schema.
    year_end : dict of datetime.date to pandas.DataFrame
        The year-end lists, newest first (also concatenated in ``tables["year_end"]``).
    """
    history, games, pg, players = list_inputs(data, selection, fit)
    ratings = changes.since(lists.list_on(as_of, history, pg, players, fit.rating_on), previous)
    if previous is not None and previous_history is not None and len(previous):
        before = previous["list_date"].iloc[0]
        split = split_rating_change(previous_history, before, fit, as_of, selection.rated)
        ratings = changes.with_split(ratings, split)
    year_end = changes.since_each(lists.year_end_lists(as_of, history, pg, players, fit.rating_on))
    if year_end:
        year_frame = conform(pd.concat(list(year_end.values()), ignore_index=True), RATINGS)
        year_end = year_end_lists(year_frame)
    else:
        year_frame = conform(ratings.iloc[:0], RATINGS)
    tournaments = conform(data.tournaments, TOURNAMENTS)
    tournaments = tournaments.sort_values("tournament_id", kind="stable").reset_index(drop=True)
    exclusions = conform(selection.exclusions, EXCLUSIONS)
    exclusions = exclusions.sort_values(["game_id", "reason"], kind="stable").reset_index(drop=True)
    tables = {
        "ratings": ratings,
        "year_end": year_frame,
        "history": history,
        "games": games,
        "players": players,
        "tournaments": tournaments,
        "exclusions": exclusions,
    }
    return tables, year_end


def counts(tables: Mapping[str, pd.DataFrame], selection: Any) -> dict[str, Any]:
    """The day's counts, for the manifest, the gates and the summary."""
    ratings = tables["ratings"]
    by_status = {
        s: int((ratings["status"] == s).sum()) for s in ("active", "inactive", "provisional")
    }
    year_end = tables["year_end"]
    return {
        "players": len(tables["players"]),
        "tournaments": len(tables["tournaments"]),
        "rated_games": len(tables["games"]),
        "exclusions": len(tables["exclusions"]),
        "history_rows": len(tables["history"]),
        "listed": len(ratings),
        **by_status,
        "established": by_status["active"] + by_status["inactive"],
        "year_end_lists": int(year_end["list_date"].nunique()) if len(year_end) else 0,
        "selection": _selection_counts(getattr(selection, "counts", None)),
    }


def fit_record(fit: Any) -> dict[str, Any]:
    """What the manifest says of the fit: iterations and convergence."""
    return {
        "iterations": jsonable(getattr(fit, "iterations", None)),
        "converged": jsonable(getattr(fit, "converged", None)),
    }


def write_entry(
    path: Path,
    tables: Mapping[str, pd.DataFrame],
    info: Mapping[str, Any],
    csv: Mapping[str, tuple[pd.DataFrame, pa.Schema]] | None = None,
) -> dict[str, Any]:
    """Write a day's tables and manifest into the new directory ``path``; return the manifest.

    Parameters
    ----------
    path : Path
        A new, empty directory (the entry as it is being prepared).
    tables : mapping
        One frame per entry of :data:`TABLES`.
    info : mapping
        The manifest's facts (list, parameters, run, inputs, counts, ...); ``parameters`` also
        go into every Parquet file's metadata. ``files`` is added here.
    csv : mapping of str to (DataFrame, pyarrow.Schema), optional
        Further files written as CSV (:func:`csv_text`), by file name: each table with its
        declared schema.

    Raises
    ------
    PublishError
        When a written file does not read back as written.
    """
    metadata = parquet_metadata(jsonable(info.get("parameters")))
    files: dict[str, dict[str, Any]] = {}
    for stem, schema in TABLES.items():
        name = f"{stem}.parquet"
        rows = write_parquet(tables[stem], schema, path / name, metadata)
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
