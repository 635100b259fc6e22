"""The snapshot: Parquet tables, manifest and site, published atomically.

Layout under the output directory ``out``::

    out/latest.json                    {"date": "YYYY-MM-DD", "snapshot": "snapshots/YYYY-MM-DD", ...}
    out/snapshots/YYYY-MM-DD/
        ratings.parquet                the list on the as-of date (schema RATINGS)
        year_end.parquet               the list on every December 31 up to it (RATINGS)
        history.parquet                every player-day of the fit (HISTORY)
        games.parquet                  rated games with both ratings that day (RATED_GAMES)
        players.parquet, tournaments.parquet, exclusions.parquet
        manifest.json                  parameters, inputs, counts, versions, file checksums
        site/index.html, ...           the static site

Everything is written to a temporary directory beside the target (same file system), verified
(row counts read back, checksums recomputed), renamed into place, and only then is
``latest.json`` replaced (temporary file + ``os.replace``). An existing snapshot of the same date
is moved aside first and removed only after the switch; any failure puts it back, and the next
publish of that date recovers from a run that was killed outright. Table contents
and Parquet bytes depend only on the inputs (sorted rows, fixed metadata); the creation time is
only in the manifest.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib.metadata
import json
import os
import platform
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from whr import changes, lists
from whr.publish.snapshots import read_latest
from whr.tables import (
    EXCLUSIONS,
    HISTORY,
    PLAYERS,
    RATED_GAMES,
    RATINGS,
    SCHEMA_VERSION,
    TOURNAMENTS,
    SourceData,
    as_date,
    conform,
    to_table,
)

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


class PublishError(RuntimeError):
    """A snapshot failed verification; nothing was switched. The message says which check."""


def _jsonable(value: Any) -> Any:
    """``value`` as plain JSON data (dates as ISO strings, frames as records)."""
    if is_dataclass(value) and not isinstance(value, type):
        return _jsonable(asdict(value))
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, pd.DataFrame):
        return _jsonable(value.to_dict(orient="records"))
    if isinstance(value, pd.Series):
        return _jsonable(value.to_dict())
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return _jsonable(value.item())
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, float) and value != value:
            return None
        return value
    return str(value)


def _selection_counts(counts: Any) -> Any:
    """Eligibility's counts in brief: totals and the games excluded by each reason (non-zero)."""
    if counts is None or not hasattr(counts, "by_reason"):
        return _jsonable(counts)
    out = {
        k: _jsonable(getattr(counts, k, None)) for k in ("read", "rated", "excluded", "unverified")
    }
    by_reason = counts.by_reason
    out["excluded_by_reason"] = {
        str(r): int(n) for r, n in zip(by_reason["reason"], by_reason["games"], strict=True) if n
    }
    return out


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def _write_parquet(
    frame: pd.DataFrame, schema: pa.Schema, path: Path, metadata: dict[bytes, bytes]
) -> int:
    table = to_table(frame, schema).replace_schema_metadata(metadata)
    pq.write_table(table, path, compression="zstd", write_statistics=True)
    return table.num_rows


def build_tables(
    as_of: dt.date,
    data: SourceData,
    selection: Any,
    fit: Any,
    *,
    previous: pd.DataFrame | None = None,
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
        ``previous_rank`` (:func:`whr.changes.since`); each year-end list is compared with the
        one a year before.

    Returns
    -------
    tables : dict of str to pandas.DataFrame
        One frame per entry of ``TABLES``, each conforming to its schema.
    year_end : dict of datetime.date to pandas.DataFrame
        The year-end lists, newest first (also concatenated in ``tables["year_end"]``).
    """
    history = conform(fit.history, HISTORY)
    history = history.sort_values(["player", "date"], kind="stable").reset_index(drop=True)
    games = lists.rated_games(selection.rated, history)
    pg = lists.player_games(games)
    players = (
        conform(data.players, PLAYERS)
        .sort_values("player_id", kind="stable")
        .reset_index(drop=True)
    )
    ratings = changes.since(lists.list_on(as_of, history, pg, players, fit.rating_on), previous)
    year_end = changes.since_each(lists.year_end_lists(as_of, history, pg, players, fit.rating_on))
    if year_end:
        year_frame = pd.concat(list(year_end.values()), ignore_index=True)
    else:
        year_frame = conform(ratings.iloc[:0], RATINGS)
    tournaments = conform(data.tournaments, TOURNAMENTS)
    tournaments = tournaments.sort_values("tournament_id", kind="stable").reset_index(drop=True)
    exclusions = conform(selection.exclusions, EXCLUSIONS)
    exclusions = exclusions.sort_values(["game_id", "reason"], kind="stable").reset_index(drop=True)
    tables = {
        "ratings": ratings,
        "year_end": conform(year_frame, RATINGS),
        "history": history,
        "games": games,
        "players": players,
        "tournaments": tournaments,
        "exclusions": exclusions,
    }
    return tables, year_end


def _check_args(out: object, as_of: object, data: object, params: object) -> Path:
    if not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out must be a path, got {type(out).__name__}")
    as_date(as_of, "as_of")
    if not isinstance(data, SourceData):
        raise TypeError(f"data must be a whr.tables.SourceData, got {type(data).__name__}")
    if not isinstance(params, Mapping):
        raise TypeError(
            f"params must be a mapping of parameter names to values, got {type(params).__name__}"
        )
    given = params.get("as_of")
    if given is not None and str(_jsonable(given)) != as_of.isoformat():
        raise ValueError(f"params['as_of'] must equal as_of {as_of}, got {given!r}")
    return Path(out)


def _recover(snapshots: Path, as_of: dt.date) -> None:
    """Clean up after a publish of ``as_of`` that was killed (no exception handler ran).

    A snapshot moved aside (``.<date>.old-*/snapshot``) while the target is missing is put back;
    other leftovers of that date (temporary directories) are removed. Publishing the same date
    twice at the same time is not supported.
    """
    target = snapshots / as_of.isoformat()
    for old in sorted(snapshots.glob(f".{as_of.isoformat()}.old-*")):
        if not target.exists() and (old / "snapshot" / "manifest.json").is_file():
            os.replace(old / "snapshot", target)
        shutil.rmtree(old, ignore_errors=True)
    for tmp in snapshots.glob(f".{as_of.isoformat()}.tmp-*"):
        shutil.rmtree(tmp, ignore_errors=True)


def _write_latest(out: Path, as_of: dt.date, manifest_sha256: str) -> None:
    pointer = {
        "date": as_of.isoformat(),
        "snapshot": f"snapshots/{as_of.isoformat()}",
        "manifest_sha256": manifest_sha256,
    }
    fd, tmp = tempfile.mkstemp(dir=out, prefix=".latest.", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(pointer, f, indent=2)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, out / "latest.json")
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _verify(tmp: Path, manifest: dict[str, Any]) -> None:
    for name, entry in manifest["files"].items():
        path = tmp / name
        if not path.is_file():
            raise PublishError(f"verification failed: {name} is missing from the snapshot")
        if _sha256(path) != entry["sha256"]:
            raise PublishError(f"verification failed: checksum of {name} changed after writing")
        if name.endswith(".parquet"):
            rows = pq.read_metadata(path).num_rows
            if rows != entry["rows"]:
                raise PublishError(
                    f"verification failed: {name} has {rows} rows, expected {entry['rows']}"
                )
    if not (tmp / "site" / "index.html").is_file():
        raise PublishError("verification failed: site/index.html is missing")


def publish(
    out: str | os.PathLike[str],
    as_of: dt.date,
    data: SourceData,
    selection: Any,
    fit: Any,
    params: Mapping[str, Any],
    *,
    site: bool = True,
    base_url: str | None = None,
    game_links: bool = False,
) -> Path:
    """Write the snapshot of ``as_of`` under ``out/snapshots/`` and point ``out/latest.json`` at it.

    Parameters
    ----------
    out : path
        The output directory (created if missing).
    as_of : datetime.date
        The list date D; the snapshot directory is named after it.
    data : whr.tables.SourceData
        The input tables; ``data.inputs`` (names and sha256) go into the manifest.
    selection : whr.rules.Selection
        The eligibility result: ``.rated``, ``.exclusions`` and ``.counts``.
    fit : whr.engine.Fit
        The WHR fit of ``selection.rated``: ``.history``, ``.rating_on(day)`` and ``.params``.
    params : mapping
        The run's parameters as given (e.g. ``w2``, ``virtual_games``, ``category``, ``strict``),
        recorded in the manifest and in every Parquet file's metadata with ``as_of`` added.
        Values must be JSON-representable (dates become ISO strings).
    site : bool, default True
        Also render the static HTML site under ``site/``.
    base_url : str, optional
        The public address where ``site/`` is served (absolute http(s) URL, e.g.
        ``"https://rating.example.org/"``); when given, the site gets a ``sitemap.xml`` with
        absolute addresses under it. Without it (the default), no sitemap is written.
    game_links : bool, default False
        Link the results of RenjuNet games to their renju.net pages (only for the real
        RenjuNet database; see :func:`whr.publish.site.write_site`).

    Returns
    -------
    pathlib.Path
        The snapshot directory ``out/snapshots/<as_of>``.

    Raises
    ------
    PublishError
        When the written snapshot does not verify; the previous snapshot and ``latest.json``
        are left untouched, as they are on any other exception.

    Notes
    -----
    ``latest.json`` is switched only when ``as_of`` is not older than the date it names, so
    republishing a past date never moves the pointer backwards.
    """
    out = _check_args(out, as_of, data, params)
    if not isinstance(game_links, bool):
        raise TypeError(f"game_links must be a bool, got {type(game_links).__name__}")
    if base_url is not None:
        from whr.publish.site import check_base_url

        base_url = check_base_url(base_url)  # refuse a bad address before writing anything
    parameters = _jsonable({**dict(params), "as_of": as_of})
    fit_params = _jsonable(getattr(fit, "params", None))
    tables, year_end = build_tables(as_of, data, selection, fit)

    snapshots = out / "snapshots"
    snapshots.mkdir(parents=True, exist_ok=True)
    target = snapshots / as_of.isoformat()
    _recover(snapshots, as_of)
    tmp = Path(tempfile.mkdtemp(dir=snapshots, prefix=f".{as_of.isoformat()}.tmp-"))
    old: Path | None = None
    switched = False
    try:
        metadata = {
            b"whr.schema_version": SCHEMA_VERSION.encode(),
            b"whr.parameters": json.dumps(parameters, sort_keys=True).encode(),
            b"whr.fit_params": json.dumps(fit_params, sort_keys=True).encode(),
        }
        files: dict[str, dict[str, Any]] = {}
        for stem, schema in TABLES.items():
            name = f"{stem}.parquet"
            rows = _write_parquet(tables[stem], schema, tmp / name, metadata)
            files[name] = {
                "rows": rows,
                "sha256": _sha256(tmp / name),
                "bytes": (tmp / name).stat().st_size,
            }

        counts = {
            "players": len(tables["players"]),
            "tournaments": len(tables["tournaments"]),
            "rated_games": len(tables["games"]),
            "exclusions": len(tables["exclusions"]),
            "history_rows": len(tables["history"]),
            "listed": len(tables["ratings"]),
            **{
                s: int((tables["ratings"]["status"] == s).sum())
                for s in ("active", "inactive", "provisional")
            },
            "year_end_lists": len(year_end),
            "selection": _selection_counts(getattr(selection, "counts", None)),
        }
        info = {
            "as_of": as_of.isoformat(),
            "schema_version": SCHEMA_VERSION,
            "parameters": parameters,
            "fit_params": fit_params,
            "fit": {
                "iterations": _jsonable(getattr(fit, "iterations", None)),
                "converged": _jsonable(getattr(fit, "converged", None)),
            },
            "inputs": [{"name": n, "sha256": h} for n, h in data.inputs],
            "inputs_sha256": data.sha256 if data.inputs else None,
            "counts": counts,
            "packages": _versions(),
        }
        if site:
            from whr.publish.site import write_site

            site_files = write_site(
                tmp / "site",
                as_of,
                tables,
                year_end,
                info,
                base_url=base_url,
                game_links=game_links,
            )
            info["site"] = {"files": len(site_files)}
        else:
            (tmp / "site").mkdir()
            (tmp / "site" / "index.html").write_text(
                "<!doctype html><meta charset=utf-8><title>No site</title><p>Site not rendered.\n",
                "utf-8",
            )
            info["site"] = None
        manifest = {
            **info,
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "files": files,
        }
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
        _verify(tmp, manifest)
        manifest_sha = _sha256(tmp / "manifest.json")

        if target.exists():
            old = Path(tempfile.mkdtemp(dir=snapshots, prefix=f".{as_of.isoformat()}.old-"))
            os.replace(target, old / "snapshot")
        os.rename(tmp, target)
        switched = True
        latest = read_latest(out)
        if latest is None or str(latest.get("date", "")) <= as_of.isoformat():
            _write_latest(out, as_of, manifest_sha)
    except BaseException:
        if switched:  # put things back as they were
            os.rename(target, tmp)
        if old is not None and (old / "snapshot").exists():
            os.replace(old / "snapshot", target)
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return target
