"""Look-ups over an output directory of earlier publishes (see :mod:`whr.publish.parquet`).

Which snapshot ``out/latest.json`` names, which snapshot came before a date, and whether a
snapshot was made from the same input with the same parameters (so that a run can stop early
instead of publishing the same list again). Read-only: nothing here writes.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def read_latest(out: Path) -> dict[str, Any] | None:
    """The contents of ``out/latest.json``, or None when it is missing or not valid JSON.

    Parameters
    ----------
    out : Path
        Output directory of earlier runs.
    """
    try:
        return json.loads((Path(out) / "latest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def latest_snapshot(out: Path) -> Path | None:
    """The snapshot directory that ``out/latest.json`` names, or None when there is none.

    Parameters
    ----------
    out : Path
        Output directory of earlier runs.

    Returns
    -------
    Path or None
        ``out/<snapshot>`` as named by the pointer (``snapshots/<date>`` when it names only a
        date), or None when the pointer is missing or unreadable or the snapshot it names has
        no ``manifest.json``.
    """
    latest = read_latest(out)
    if latest is None:
        return None
    snapshot = Path(out) / str(latest.get("snapshot", f"snapshots/{latest.get('date')}"))
    return snapshot if (snapshot / "manifest.json").is_file() else None


def previous_snapshot(out: Path, as_of: dt.date) -> Path | None:
    """The newest published snapshot dated before ``as_of``, or None.

    Parameters
    ----------
    out : Path
        Output directory of earlier runs.
    as_of : datetime.date
        The run's list date; the snapshot of that very date is not "previous".

    Returns
    -------
    Path or None
        ``out/snapshots/<date>`` with the greatest date before ``as_of`` that has a
        ``manifest.json``; temporary directories of a publish in progress are ignored.
    """
    snapshots = Path(out) / "snapshots"
    if not snapshots.is_dir():
        return None
    dated = []
    for path in snapshots.iterdir():
        try:
            day = dt.date.fromisoformat(path.name)
        except ValueError:  # temporary directories of a publish in progress, stray files
            continue
        if day < as_of and (path / "manifest.json").is_file():
            dated.append((day, path))
    return max(dated)[1] if dated else None


def is_same_run(snapshot: Path, sha256: str, params: Mapping[str, Any]) -> bool:
    """True when ``snapshot`` exists and was made from the same input with ``params``.

    Parameters
    ----------
    snapshot : Path
        A snapshot directory (``out/snapshots/<date>``); it need not exist.
    sha256 : str
        The combined sha256 of the run's input (``SourceData.sha256``), hex.
    params : Mapping
        The run's parameters; each must equal the value recorded in the manifest's
        ``parameters`` (keys the manifest has beyond these are not compared).

    Returns
    -------
    bool
        False when the snapshot or its manifest is missing, the input checksum differs, or
        any parameter differs.
    """
    manifest_path = Path(snapshot) / "manifest.json"
    if not manifest_path.is_file():
        return False
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    recorded = manifest.get("parameters") or {}
    return manifest.get("inputs_sha256") == sha256 and all(
        recorded.get(key) == value for key, value in params.items()
    )
