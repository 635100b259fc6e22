"""Shared pieces of the source adapters: the fatal error, problem rows, dates, opening files.

Nothing here knows a particular format. ``open_payload`` opens a local file and undoes gzip or
zip transparently, sniffing the leading bytes rather than trusting the file name.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import io
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

import pandas as pd
import pyarrow as pa

from whr.tables import PROBLEMS, as_date, to_frame

__all__ = [
    "ProblemLog",
    "SourceError",
    "coerce_as_of",
    "open_payload",
    "sha256_file",
]

GZIP_MAGIC = b"\x1f\x8b"
ZIP_MAGIC = b"PK\x03\x04"
CHUNK_BYTES = 1 << 20


class SourceError(Exception):
    """A source could not be read at all: unsafe, malformed, missing or unreachable.

    The message names the source and, where it applies, the line and column, and says what to
    fix. Everything short of this (a bad record) is a row in ``SourceData.problems`` instead.
    """


class ProblemLog:
    """Collects problem rows (schema ``whr.tables.PROBLEMS``) for one source.

    Parameters
    ----------
    source : str
        The file name or URL every problem is attributed to.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self._rows: dict[str, list[str]] = {
            "code": [],
            "severity": [],
            "locator": [],
            "message": [],
        }

    def add(self, code: str, severity: str, locator: str, message: str) -> None:
        """Record one problem; ``severity`` is ``"error"`` or ``"warning"``."""
        self._rows["code"].append(code)
        self._rows["severity"].append(severity)
        self._rows["locator"].append(locator)
        self._rows["message"].append(message)

    def __len__(self) -> int:
        return len(self._rows["code"])

    def frame(self) -> pd.DataFrame:
        """The problems recorded so far, as a ``PROBLEMS`` DataFrame."""
        n = len(self)
        table = pa.table(
            {
                "code": pa.array(self._rows["code"], pa.string()),
                "severity": pa.array(self._rows["severity"], pa.string()),
                "source": pa.array([self.source] * n, pa.string()),
                "locator": pa.array(self._rows["locator"], pa.string()),
                "message": pa.array(self._rows["message"], pa.string()),
            },
            schema=PROBLEMS,
        )
        return to_frame(table)


def coerce_as_of(as_of: object) -> dt.date | None:
    """Return ``as_of`` as a date (accepts a date, a datetime, an ISO string or None).

    Unlike :func:`whr.tables.as_date`, a datetime is accepted and its time dropped (a file
    dated that day is then chosen); None passes through.

    Raises
    ------
    TypeError
        If ``as_of`` is of another type.
    ValueError
        If a string is not an ISO date ``YYYY-MM-DD``.
    """
    if as_of is None:
        return None
    if isinstance(as_of, dt.datetime):  # pandas.Timestamp too
        return as_of.date()
    return as_date(as_of, "as_of", iso_text=True)


def sha256_file(path: Path) -> str:
    """The hex sha256 digest of the bytes of ``path``."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def _zip_member(archive: zipfile.ZipFile, name: str) -> zipfile.ZipInfo:
    members = [m for m in archive.infolist() if not m.is_dir()]
    if len(members) == 1:
        return members[0]
    wanted = [m for m in members if m.filename.lower().endswith((".rif", ".xml"))]
    if len(wanted) == 1:
        return wanted[0]
    names = [m.filename for m in members]
    raise SourceError(
        f"{name}: a zip archive must hold exactly one file (or exactly one .rif/.xml file); "
        f"it holds {names}"
    )


@contextmanager
def open_payload(path: Path, name: str) -> Iterator[BinaryIO]:
    """Open ``path`` for reading its payload, undoing gzip or zip compression.

    The container is recognised from the leading bytes, not the file name.

    Parameters
    ----------
    path : Path
        A local file.
    name : str
        How the source is named in error messages (file name or URL).

    Raises
    ------
    SourceError
        If the file cannot be opened, or a zip archive does not hold exactly one database.
    """
    try:
        raw = open(path, "rb")  # noqa: SIM115 - closed in the finally below
    except OSError as exc:
        raise SourceError(f"{name}: cannot open: {exc.strerror or exc}") from None
    try:
        head = raw.read(4)
        raw.seek(0)
        if head.startswith(GZIP_MAGIC):
            with gzip.GzipFile(fileobj=raw, mode="rb") as stream:
                yield _Guarded(stream, name, "gzip")
        elif head.startswith(ZIP_MAGIC):
            try:
                archive = zipfile.ZipFile(raw)
            except zipfile.BadZipFile as exc:
                raise SourceError(f"{name}: not a readable zip archive: {exc}") from None
            with archive, archive.open(_zip_member(archive, name)) as stream:
                yield _Guarded(stream, name, "zip")
        else:
            yield raw
    finally:
        raw.close()


class _Guarded(io.RawIOBase):
    """A read-only stream that turns decompression failures into ``SourceError``."""

    def __init__(self, stream: BinaryIO, name: str, kind: str) -> None:
        super().__init__()
        self._stream = stream
        self._name = name
        self._kind = kind

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        try:
            return self._stream.read(size)
        except (EOFError, OSError, zlib.error, zipfile.BadZipFile) as exc:
            raise SourceError(
                f"{self._name}: the {self._kind} data is damaged or truncated ({exc}); "
                "download the file again"
            ) from None

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)
