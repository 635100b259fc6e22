"""Game records in: the RenjuNet database, canonical tables, EGF tables, and pulling them.

Public API
----------
- ``read_source(source, as_of=None) -> SourceData``: read a file, a directory, an http(s) URL or a
  list of those into the shared tables of ``whr.tables``.
- ``pull(source, workdir, as_of=None, *, timeout_s, max_bytes, retries, backoff_s) -> Path``:
  download a URL (the only step that retries); a local path is returned as is.
- ``SourceError``: a source that cannot be read at all (unsafe, malformed, missing, unreachable).

What a directory may hold (other files are ignored):

- RenjuNet databases ``renjunet_v10_YYYYMMDD.rif`` (also ``.xml``, and either compressed as
  ``.gz`` or ``.zip``): the newest whose date is not after ``as_of`` is read (the newest of all
  when ``as_of`` is None);
- canonical tables ``players``, ``tournaments``, ``games`` as ``.csv``, ``.csv.gz`` or
  ``.parquet`` (see ``whr.sources.canonical``);
- EGF tournament tables ``*.h0`` ... ``*.h9`` and ``*.egf``, read by ``whr.sources.egf``;
- ``tournament_facts.csv``: thinking time, mode of play and dates of its tournaments, which
  RenjuNet (or an EGF table without ``DT[]``) does not record (see ``whr.sources.facts``).
"""

from __future__ import annotations

import datetime as dt
import importlib
import os
import re
import tempfile
from pathlib import Path

from whr.sources._common import SourceError, coerce_as_of
from whr.sources.canonical import read_canonical, table_kind
from whr.sources.facts import FACTS_FILE, apply_facts, read_facts
from whr.sources.pull import is_url, pull
from whr.sources.renjunet import read_renjunet
from whr.tables import SourceData, concat

__all__ = ["SourceError", "pick_database", "pull", "read_source"]

#: ``renjunet_v10_YYYYMMDD`` with ``.rif``/``.xml`` and/or ``.gz``/``.zip``.
DATABASE_PATTERN = re.compile(
    r"^renjunet_v\d+_(\d{8})(?:\.(?:rif|xml))?(?:\.(?:gz|zip))?$", re.IGNORECASE
)
EGF_PATTERN = re.compile(r"^.+\.(?:h\d|egf)$", re.IGNORECASE)


def pick_database(directory: Path, as_of: dt.date | None) -> Path | None:
    """The newest ``renjunet_v10_YYYYMMDD`` file in ``directory`` dated on or before ``as_of``.

    Returns None when the directory has no database file at all.

    Raises
    ------
    SourceError
        If there are database files but all are dated after ``as_of``.
    """
    dated: list[tuple[dt.date, str, Path]] = []
    for path in directory.iterdir():
        match = DATABASE_PATTERN.match(path.name)
        if not match or not path.is_file():
            continue
        try:
            day = dt.datetime.strptime(match.group(1), "%Y%m%d").date()
        except ValueError:
            continue
        dated.append((day, path.name, path))
    if not dated:
        return None
    eligible = [d for d in dated if as_of is None or d[0] <= as_of]
    if not eligible:
        oldest = min(dated)[0]
        raise SourceError(
            f"{directory}: every RenjuNet database file is dated after as_of={as_of} "
            f"(the oldest is of {oldest}); pass a later as_of or add an older file"
        )
    return max(eligible)[2]


def _read_egf(paths: list[Path]) -> SourceData:
    try:
        egf = importlib.import_module("whr.sources.egf")
    except ModuleNotFoundError as exc:
        if exc.name != "whr.sources.egf":
            raise
        raise SourceError(
            f"EGF tables found ({', '.join(p.name for p in paths)}) but the EGF reader "
            "(whr.sources.egf) is not installed"
        ) from None
    return egf.read_tables(paths)


def _read_directory(directory: Path, as_of: dt.date | None) -> SourceData:
    parts: list[SourceData] = []
    database = pick_database(directory, as_of)
    if database is not None:
        parts.append(read_renjunet(database))
    entries = sorted(p for p in directory.iterdir() if p.is_file())
    canonical = [p for p in entries if table_kind(p) is not None]
    if canonical:
        parts.append(read_canonical(canonical))
    egf_files = [p for p in entries if EGF_PATTERN.match(p.name)]
    if egf_files:
        parts.append(_read_egf(egf_files))
    if not parts:
        raise SourceError(
            f"{directory}: nothing to read: expected renjunet_v10_YYYYMMDD.rif (.gz/.zip), "
            "players/tournaments/games .csv/.parquet, or EGF tables .h9/.egf"
        )
    data = parts[0] if len(parts) == 1 else concat(parts)
    facts = directory / FACTS_FILE
    return apply_facts(data, read_facts(facts)) if facts.is_file() else data


def _read_file(path: Path, name: str | None = None) -> SourceData:
    if table_kind(path) is not None:
        return read_canonical([path])
    if EGF_PATTERN.match(path.name):
        return _read_egf([path])
    return read_renjunet(path, name)


def _read_one(source: str | os.PathLike[str], as_of: dt.date | None) -> SourceData:
    if is_url(source):
        url = str(source)
        with tempfile.TemporaryDirectory(prefix="whr-pull-") as workdir:
            local = pull(url, workdir)
            if table_kind(local) is not None or EGF_PATTERN.match(local.name):
                data = _read_file(local)
                return data
            return read_renjunet(local, name=url)
    path = Path(source)
    if path.is_dir():
        return _read_directory(path, as_of)
    if path.is_file():
        return _read_file(path)
    raise SourceError(f"{path}: no such file or directory")


def read_source(
    source: str | os.PathLike[str] | list[str | os.PathLike[str]],
    as_of: dt.date | str | None = None,
) -> SourceData:
    """Read game records into the shared tables.

    Parameters
    ----------
    source : path, URL, or list of them
        A RenjuNet database file (plain, gzip or zip), a canonical table file, an EGF table, a
        directory (see the module docstring), an http(s) URL (downloaded with ``pull`` and its
        default timeout, cap and retries; call ``pull`` first to choose them), or a list of
        those (each read, then concatenated in order with ``whr.tables.concat``).
    as_of : datetime.date, ISO date string, or None
        Picks the newest dated database file of a directory not after this day (the newest of
        all when None). Files and URLs are read whatever their date.

    Returns
    -------
    SourceData
        ``players``, ``tournaments``, ``games``, ``problems`` (DataFrames of the shared schemas)
        and ``inputs`` (name and sha256 of every file read; ``sha256`` summarises them).

    Raises
    ------
    SourceError
        If a source cannot be read at all: unsafe (DTD, entities), malformed (line and column
        given), missing, unreachable, or not a database.
    TypeError, ValueError
        On a bad ``source`` or ``as_of``.
    """
    day = coerce_as_of(as_of)
    if isinstance(source, (list, tuple)):
        if not source:
            raise ValueError("source must name at least one file, directory or URL; got []")
        parts = [_read_one(_check_source(s), day) for s in source]
        return parts[0] if len(parts) == 1 else concat(parts)
    return _read_one(_check_source(source), day)


def _check_source(source: object) -> str | os.PathLike[str]:
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(
            f"source must be a path, an http(s) URL or a list of them; got {type(source).__name__}"
        )
    return source
