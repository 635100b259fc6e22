"""Game records in: the RenjuNet database, canonical tables, EGF tables, and pulling them.

Public API
----------
- ``read_source(source, as_of=None, *, limits=ReadLimits(), name=None) -> SourceData``: read a
  file, a directory, an http(s) URL or a list of those into the shared tables of ``whr.tables``.
- ``ReadLimits``: the limits a reader enforces (unpacked bytes, one value, one name).
- ``pull(source, workdir, as_of=None, settings=PullSettings()) -> Path``: download a URL to a
  file of its own (the only step that retries); a local path is returned as is.
- ``combine(parts) -> SourceData``: several sources read one by one, as one; sources with
  identical contents are reported (``duplicate_source``).
- ``SourceError``: a source that cannot be read at all (unsafe, malformed, missing, unreachable,
  over a limit).

What a directory may hold (other files are ignored):

- RenjuNet databases ``renjunet_v<N>_YYYYMMDD.rif`` (also ``.xml``, and either compressed as
  ``.gz`` or ``.zip``): the newest whose date is not after ``as_of`` is read (the newest of all
  when ``as_of`` is None); of one date, the highest format version ``N`` as a number;
- canonical tables ``players``, ``tournaments``, ``games`` as ``.csv``, ``.csv.gz`` or
  ``.parquet`` (see ``whr.sources.canonical``);
- EGF tournament tables ``*.h0`` ... ``*.h9`` and ``*.egf``, read by ``whr.sources.egf``;
- ``tournament_facts.csv``: thinking time, mode of play and dates of its tournaments, which
  RenjuNet (or an EGF table without ``DT[]``) does not record (see ``whr.sources.facts``).

A file read on its own reads the ``tournament_facts.csv`` beside it exactly as its directory
does, so a database gives the same tables whether it is named or its directory is. A source read
without such a file (a URL, a file or a directory without one) is named in
``SourceData.without_facts``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from whr.params import public_source, resolve_source
from whr.sources import egf
from whr.sources._common import (
    DEFAULT_MAX_BYTES,
    ReadLimits,
    SourceError,
    check_limits,
    coerce_as_of,
)
from whr.sources.canonical import read_canonical, table_kind
from whr.sources.facts import FACTS_FILE, apply_facts, read_facts
from whr.sources.pull import is_url, pull
from whr.sources.renjunet import read_renjunet
from whr.sources.texts import cut_names, replace_unsafe
from whr.tables import PROBLEMS, SourceData, concat, conform

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ReadLimits",
    "SourceError",
    "combine",
    "pick_database",
    "pull",
    "read_source",
]

#: ``renjunet_v<N>_YYYYMMDD`` with ``.rif``/``.xml`` and/or ``.gz``/``.zip``.
DATABASE_PATTERN = re.compile(
    r"^renjunet_v(\d+)_(\d{8})(?:\.(?:rif|xml))?(?:\.(?:gz|zip))?$", re.IGNORECASE
)


def pick_database(directory: Path, as_of: dt.date | None) -> Path | None:
    """The newest ``renjunet_v<N>_YYYYMMDD`` file in ``directory`` dated on or before ``as_of``.

    Files are ordered by date, then by format version ``N`` as a number (``v9`` < ``v10``).

    Returns None when the directory has no database file at all.

    Raises
    ------
    SourceError
        If there are database files but all are dated after ``as_of``, or the newest date and
        version are held by two files (``.rif`` beside ``.rif.gz``): which one is meant is not
        known.
    """
    dated: list[tuple[dt.date, int, Path]] = []
    for path in directory.iterdir():
        match = DATABASE_PATTERN.match(path.name)
        if not match or not path.is_file():
            continue
        try:
            day = dt.datetime.strptime(match.group(2), "%Y%m%d").date()
        except ValueError:
            continue
        dated.append((day, int(match.group(1)), path))
    if not dated:
        return None
    eligible = [d for d in dated if as_of is None or d[0] <= as_of]
    if not eligible:
        oldest = min(d[0] for d in dated)
        raise SourceError(
            f"{directory}: every RenjuNet database file is dated after as_of={as_of} "
            f"(the oldest is of {oldest}); pass a later as_of, add an older file, or name a "
            "later file itself to rerun a past day from it (its later games are left out)"
        )
    newest = max((day, version) for day, version, _ in eligible)
    chosen = sorted(p.name for day, version, p in eligible if (day, version) == newest)
    if len(chosen) > 1:
        raise SourceError(
            f"{directory}: {' and '.join(chosen)} are both the database of {newest[0]}, "
            f"format version {newest[1]}; keep one of them"
        )
    return directory / chosen[0]


def _read_directory(directory: Path, as_of: dt.date | None, limits: ReadLimits) -> SourceData:
    parts: list[SourceData] = []
    database = pick_database(directory, as_of)
    if database is not None:
        parts.append(read_renjunet(database, limits=limits))
    entries = sorted(p for p in directory.iterdir() if p.is_file())
    canonical = [p for p in entries if table_kind(p) is not None]
    if canonical:
        parts.append(read_canonical(canonical, limits))
    egf_files = [p for p in entries if egf.NAME.match(p.name)]
    if egf_files:
        parts.append(egf.read_tables(egf_files, limits=limits))
    if not parts:
        raise SourceError(
            f"{directory}: nothing to read: expected renjunet_v10_YYYYMMDD.rif (.gz/.zip), "
            "players/tournaments/games .csv/.parquet, or EGF tables .h9/.egf"
        )
    return _with_facts(parts[0] if len(parts) == 1 else concat(parts), directory)


def _with_facts(data: SourceData, directory: Path | None) -> SourceData:
    """``data`` with the ``tournament_facts.csv`` of ``directory`` applied (the directory of a
    source: a database file's facts sit beside it); without one (or for a download, None),
    ``data`` naming its files in ``without_facts``."""
    facts = None if directory is None else directory / FACTS_FILE
    if facts is not None and facts.is_file():
        return apply_facts(data, read_facts(facts))
    records = set(data.games["source"].dropna().unique())
    records |= set(data.tournaments["source"].dropna().unique())
    names = tuple(name for name, _ in data.inputs if name in records)  # not reference files
    return dataclasses.replace(data, without_facts=names)


def _read_file(path: Path, name: str | None, limits: ReadLimits) -> SourceData:
    if table_kind(path) is not None:
        return read_canonical([path], limits, name)
    if egf.NAME.match(path.name):
        return egf.read_tables([path], limits=limits, name=name)
    return read_renjunet(path, name, limits)


def _read_one(
    source: str | os.PathLike[str], as_of: dt.date | None, limits: ReadLimits, name: str | None
) -> SourceData:
    if isinstance(source, str):
        source = resolve_source(source)
    if is_url(source):
        url = str(source)
        with tempfile.TemporaryDirectory(prefix="whr-pull-") as workdir:
            local = pull(url, workdir)
            data = _with_facts(_read_file(local, name or public_source(url), limits), None)
    else:
        path = Path(source)
        if path.is_dir():
            if name is not None:
                raise ValueError(
                    f"name applies to a file or URL; {path} is a directory, whose files keep "
                    f"their own names (got name={name!r})"
                )
            data = _read_directory(path, as_of, limits)
        elif path.is_file():
            data = _with_facts(_read_file(path, name, limits), path.parent)
        else:
            raise SourceError(f"{path}: no such file or directory")
    return cut_names(replace_unsafe(data), limits.max_name_chars)


def combine(parts: Sequence[SourceData]) -> SourceData:
    """Several sources read one by one, as one ``SourceData`` (rows appended in order).

    Two sources of records with identical contents (the same sha256) are reported: a warning
    ``duplicate_source`` located at the later one, naming the earlier. Their games are then
    read twice; eligibility excludes the repeated copies as duplicates, so nothing is lost.
    A file read for reference by several parts (the EGF player mapping and country codes, a
    facts file) is listed once in ``inputs`` when it is the same file (name and sha256).

    Parameters
    ----------
    parts : sequence of SourceData
        What ``read_source`` returned for each source, in order.

    Returns
    -------
    SourceData
        ``whr.tables.concat`` of the parts, with the ``duplicate_source`` problems appended.
    """
    if isinstance(parts, SourceData) or not all(isinstance(p, SourceData) for p in parts):
        raise TypeError("parts must be a sequence of whr.tables.SourceData")
    if not parts:
        raise ValueError("parts must hold at least one SourceData; got none")
    merged = parts[0] if len(parts) == 1 else concat(list(parts))
    records: set[str] = (
        set()
    )  # the inputs rows were read from (a reference file has no rows of its own)
    for table in (merged.games, merged.players, merged.tournaments):
        records.update(table["source"].dropna().unique())
    first: dict[str, str] = {}
    inputs: list[tuple[str, str]] = []
    rows = []
    for name, digest in merged.inputs:
        if name not in records:
            if (name, digest) not in inputs:
                inputs.append((name, digest))
            continue
        inputs.append((name, digest))
        if digest in first:
            rows.append(
                {
                    "code": "duplicate_source",
                    "severity": "warning",
                    "source": name,
                    "locator": "whole file",
                    "message": (
                        f"identical contents to {first[digest]} (sha256 {digest}): its games "
                        "are read twice and eligibility excludes the repeated copies; give "
                        "each source once"
                    ),
                }
            )
        else:
            first[digest] = name
    problems = merged.problems
    if rows:
        found = pd.DataFrame(rows, columns=PROBLEMS.names)
        problems = conform(pd.concat([problems, found], ignore_index=True), PROBLEMS)
    if not rows and tuple(inputs) == merged.inputs:
        return merged
    return dataclasses.replace(merged, problems=problems, inputs=tuple(inputs))


def read_source(
    source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    as_of: dt.date | str | None = None,
    *,
    limits: ReadLimits = ReadLimits(),
    name: str | Sequence[str | None] | None = None,
) -> SourceData:
    """Read game records into the shared tables.

    Parameters
    ----------
    source : path, URL, or list of them
        A RenjuNet database file (plain, gzip or zip), a canonical table file, an EGF table, a
        directory (see the module docstring), an http(s) URL (downloaded with ``pull`` and its
        default timeout, deadline, cap and retries; call ``pull`` first to choose them),
        ``env:NAME`` (the URL or path held by the environment variable ``NAME``), or a list of
        those (each read, then put together with ``combine``).
    as_of : datetime.date, ISO date string, or None
        Picks the newest dated database file of a directory not after this day (the newest of
        all when None). Files and URLs are read whatever their date.
    limits : ReadLimits
        What a reader accepts (see ``ReadLimits``): a source over ``max_unpacked_bytes`` or
        ``max_value_chars`` is refused; names over ``max_name_chars`` are cut and reported
        (``long_name``).
    name : str, or a list of str or None aligned with a list ``source``, optional
        How a file is named in ``source`` columns, problems and ``inputs``; default its file
        name (a URL: its public form, :func:`whr.params.public_source`, without credentials or
        query string). Pass that form of the URL when reading a file that ``pull`` downloaded,
        so that two downloads with the same file name stay apart. Not for a directory.

    Returns
    -------
    SourceData
        ``players``, ``tournaments``, ``games``, ``problems`` (DataFrames of the shared schemas)
        and ``inputs`` (name and sha256 of every file read; ``sha256`` summarises them).

    Raises
    ------
    SourceError
        If a source cannot be read at all: unsafe (DTD, entities), malformed (line and column
        given), missing, unreachable, not a database (what it is is said), or over a limit
        (the limit and its flag are named).
    TypeError, ValueError
        On a bad ``source``, ``as_of``, ``limits`` or ``name``.
    """
    day = coerce_as_of(as_of)
    limits = check_limits(limits)
    if isinstance(source, (list, tuple)):
        if not source:
            raise ValueError("source must name at least one file, directory or URL; got []")
        names = _check_names(name, len(source))
        parts = [
            _read_one(_check_source(s), day, limits, n) for s, n in zip(source, names, strict=True)
        ]
        return combine(parts)
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a str for a single source; got {type(name).__name__}")
    return _read_one(_check_source(source), day, limits, name)


def _check_names(name: object, count: int) -> list[str | None]:
    if name is None:
        return [None] * count
    if isinstance(name, str) or not isinstance(name, (list, tuple)):
        raise TypeError(
            f"name must be a list of {count} names (str or None) for a list of sources; "
            f"got {type(name).__name__}"
        )
    if len(name) != count or not all(n is None or isinstance(n, str) for n in name):
        raise ValueError(
            f"name must hold {count} names (str or None), one per source; got {name!r}"
        )
    return list(name)


def _check_source(source: object) -> str | os.PathLike[str]:
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(
            f"source must be a path, an http(s) URL or a list of them; got {type(source).__name__}"
        )
    return source
