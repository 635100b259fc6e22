"""Shared pieces of the source adapters: the fatal error, the read limits, problem rows, dates,
opening files and numbers (what every reader does to the texts it read: ``texts.py``).

Nothing here knows a particular format. ``open_payload`` opens a local file and undoes gzip or
zip transparently, sniffing the leading bytes rather than trusting the file name, and stops at
the unpacked-size limit. ``describe`` says what a file is without ever quoting its bytes.
"""

from __future__ import annotations

import datetime as dt
import gzip
import io
import math
import re
import unicodedata
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr.digest import file_sha256 as sha256_file  # one implementation, named for the readers
from whr.params import DEFAULT_MAX_BYTES, ReadLimits
from whr.tables import PROBLEMS, as_date, to_frame

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer
    from numpy import ndarray

__all__ = [
    "DEFAULT_MAX_BYTES",
    "ProblemLog",
    "ReadLimits",
    "Readable",
    "Row",
    "SourceError",
    "coerce_as_of",
    "describe",
    "nfc_id",
    "nfc_array",
    "nfc_ids",
    "open_payload",
    "parse_minutes",
    "parse_number",
    "quote",
    "sha256_file",
]

Row = dict[str, Any]
"""A row of a table being read, column -> value; its values are checked where the rows become
a table of the shared schema (``whr.tables.conform``)."""

GZIP_MAGIC = b"\x1f\x8b"
ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"  # an archive with no member starts with its end record
CHUNK_BYTES = 1 << 20

#: The default cap on a download (bytes as served) and on a payload once unpacked (bytes).

PLAIN_TEXT = "plain text that is not XML"
TEXT_NOT_UTF8 = "text that is not UTF-8 (an 8-bit encoding such as Latin-1)"

#: Thinking time per player accepted as a number of minutes: more than 0, at most a week. The one
#: definition: the canonical tables, the EGF tables and ``tournament_facts.csv`` all use it.
MINUTES_RANGE = (0.0, 10_080.0)
MINUTES_WORDS = (
    f"a number of minutes per player, more than {MINUTES_RANGE[0]:g} and at most "
    f"{MINUTES_RANGE[1]:g} (a week)"
)

#: A decimal number in ASCII digits, whole (``parse_number`` and the canonical reader use it).
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INTEGER = re.compile(r"[+-]?[0-9]+")
#: Inclusive bounds of a 32-bit integer column (``type``, ``moves``).
INT32_RANGE = (-(2**31), 2**31 - 1)


def nfc_id(text: str | None) -> str | None:
    """An id in one Unicode form (NFC): ids that differ only by normalisation (``é`` as one
    character, or as ``e`` and a combining accent) look identical, so they are one id, and a
    second record of it is a duplicate. ASCII ids, and anything not text, pass unchanged."""
    if not isinstance(text, str) or text.isascii():
        return text
    return unicodedata.normalize("NFC", text)


def nfc_array(values: list[str | None] | ndarray) -> pa.StringArray:
    """:func:`nfc_id` of each id (null stays null), in Arrow: a list of texts, or an object
    array of them with pandas' nulls (the NFC form of an ASCII id is itself)."""
    array = pa.array(values, pa.string(), from_pandas=True)
    # pyarrow has utf8_normalize (since 8.0); pyarrow-stubs 20 does not declare it
    normal = pc.utf8_normalize(array, form="NFC")  # type: ignore[attr-defined]
    return cast(pa.StringArray, normal)


def nfc_ids(values: pd.Series) -> pd.Series:
    """:func:`nfc_id` of a column of ids (null stays null), in bulk."""
    normal = nfc_array(values.to_numpy(object))
    return pd.Series(normal.to_numpy(zero_copy_only=False), index=values.index, dtype=object)


def check_limits(limits: object) -> ReadLimits:
    """Return ``limits`` if it is a ``ReadLimits``; raise ``TypeError`` naming it otherwise."""
    if not isinstance(limits, ReadLimits):
        raise TypeError(
            f"limits must be a whr.sources.ReadLimits; got {type(limits).__name__} {limits!r}"
        )
    return limits


def limit_hint(field: str) -> str:
    """``"max_value_chars (--max-value-chars)"``: a limit's field and its command-line flag."""
    return f"{field} (--{field.replace('_', '-')})"


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


def parse_number(
    text: str | None, *, integer: bool = False, low: float | None = None, high: float | None = None
) -> tuple[float | int | None, bool]:
    """Parse a whole number written in ASCII digits: all of ``text`` or nothing.

    ``1h30`` (a prefix), ``1e309`` and ``inf`` (not finite), ``1_000`` and non-ASCII digits
    are not numbers; ``low``/``high`` bound the value (inclusive).

    Parameters
    ----------
    text : str or None
        The value as written; surrounding blanks are ignored.
    integer : bool
        Accept only an integer (no decimal point or exponent) and return an ``int``.
    low, high : float, optional
        Inclusive bounds.

    Returns
    -------
    value : float, int or None
        None when ``text`` is empty or invalid.
    valid : bool
        False when ``text`` is neither empty nor a number in range.
    """
    if text is None or not text.strip():
        return None, True
    text = text.strip()
    if not (_INTEGER if integer else DECIMAL).fullmatch(text):
        return None, False
    value: float | int = int(text) if integer else float(text)
    if not math.isfinite(value):
        return None, False
    if (low is not None and value < low) or (high is not None and value > high):
        return None, False
    return value, True


def parse_minutes(text: str | None) -> tuple[float | None, bool]:
    """Thinking time per player: :func:`parse_number` in ``MINUTES_RANGE`` (more than its lower
    bound). Returns (minutes or None, valid) as :func:`parse_number` does."""
    low, high = MINUTES_RANGE
    value, ok = parse_number(text, low=low, high=high)
    if value is None:
        return None, ok
    return (float(value), True) if value > low else (None, False)


#: Byte-order marks of the wide Unicode encodings, longest first, and the codec that reads them.
BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


def wide_codec(head: bytes) -> str | None:
    """``"utf-16"`` or ``"utf-32"`` when ``head`` starts with that byte-order mark, else None."""
    return next((codec for bom, codec in BOMS if head.startswith(bom)), None)


def quote(text: object, keep: int = 80) -> str:
    """``repr`` of a value read from a file, cut to ``keep`` characters: a problem message never
    carries a megabyte-long value."""
    text = str(text)
    if len(text) <= keep:
        return repr(text)
    return f"{text[:keep]!r}... ({len(text):,} characters)"


def describe(head: bytes) -> str:
    """What a file is, from its first bytes, in words and never quoting them.

    Examples: ``"an empty file"``, ``"an HTML page"``, ``"UTF-16 text"``, ``"an empty zip
    archive"``, ``"a PDF document"``, ``"plain text that is not XML"``, ``"binary data"``.
    """
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    lowered = _after_comments(text)[:64].lower()
    if not text:
        return "an empty file" if not head else "a file of blanks only"
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32 text"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16 text"
    if _utf16_without_bom(head[:512]):
        return "UTF-16 text without a byte-order mark"
    if lowered.startswith((b"<!doctype html", b"<html")):
        return "an HTML page"
    signatures = (
        (GZIP_MAGIC, "gzip data"),
        (ZIP_MAGIC, "a zip archive"),
        (EMPTY_ZIP_MAGIC, "an empty zip archive"),
        (b"%PDF", "a PDF document"),
        (b"\x89PNG", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"BZh", "bzip2 data"),
        (b"\xfd7zXZ", "xz data"),
        (b"7z\xbc\xaf", "a 7-Zip archive"),
        (b"Rar!", "a RAR archive"),
        (b"\x7fELF", "a program (ELF)"),
        (b"PAR1", "a Parquet file"),
        (b"SQLite format 3", "an SQLite database"),
    )
    for magic, words in signatures:
        if head.startswith(magic):
            return words
    if text.startswith(b"<"):
        return "XML"
    if text.startswith((b"{", b"[")):
        return "JSON or other text that is not XML"
    sample = head[:512]
    controls = set(range(32)) - {9, 10, 12, 13}
    if b"\x00" in sample or any(byte in controls for byte in sample):
        return "binary data"
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(sample) - 3:  # not merely a character cut at the sample's end
            return TEXT_NOT_UTF8
    return PLAIN_TEXT


def _after_comments(text: bytes) -> bytes:
    """``text`` without the markup comments (``<!-- ... -->``) and blanks it starts with: an
    HTML page may begin with a comment before its ``<!DOCTYPE html>``."""
    while text.startswith(b"<!--"):
        end = text.find(b"-->", 4)
        if end < 0:
            break
        text = text[end + 3 :].lstrip(b" \t\r\n")
    return text


def _utf16_without_bom(sample: bytes) -> bool:
    """Every other byte is NUL and the others are not: ASCII-range text in UTF-16."""
    sample = sample[: len(sample) // 2 * 2]
    if len(sample) < 4:
        return False
    even, odd = sample[0::2], sample[1::2]
    return (odd.count(0) == len(odd) and even.count(0) == 0) or (
        even.count(0) == len(even) and odd.count(0) == 0
    )


def _zip_member(archive: zipfile.ZipFile, name: str) -> zipfile.ZipInfo:
    members = [m for m in archive.infolist() if not m.is_dir()]
    if not members:
        raise SourceError(f"{name}: an empty zip archive (no file inside); expected one database")
    if len(members) == 1:
        return members[0]
    wanted = [m for m in members if m.filename.lower().endswith((".rif", ".xml"))]
    if len(wanted) == 1:
        return wanted[0]
    names = [m.filename for m in members][:10]
    raise SourceError(
        f"{name}: a zip archive must hold exactly one file (or exactly one .rif/.xml file); "
        f"it holds {len(members)}: {names}"
    )


#: What can go wrong inside gzip and zip data (encrypted or unsupported zip members included).
_UNPACK_ERRORS = (
    EOFError,
    OSError,
    zlib.error,
    zipfile.BadZipFile,
    RuntimeError,
    NotImplementedError,
    ValueError,
)


@contextmanager
def open_payload(
    path: Path, name: str, max_unpacked_bytes: int = DEFAULT_MAX_BYTES
) -> Iterator[_Guarded]:
    """Open ``path`` for reading its payload, undoing gzip or zip compression.

    The container is recognised from the leading bytes, not the file name. Reading more than
    ``max_unpacked_bytes`` bytes of payload (a compression bomb, or a plain file that large)
    raises ``SourceError`` naming the limit.

    Parameters
    ----------
    path : Path
        A local file.
    name : str
        How the source is named in error messages (file name or URL).
    max_unpacked_bytes : int
        ``ReadLimits.max_unpacked_bytes``, bytes.

    Raises
    ------
    SourceError
        If the file cannot be opened, a zip archive is empty, encrypted or does not hold
        exactly one database, or the payload is larger than ``max_unpacked_bytes``.
    """
    try:
        raw = open(path, "rb")  # noqa: SIM115 - closed in the finally below
    except OSError as exc:
        raise SourceError(f"{name}: cannot open: {exc.strerror or exc}") from None
    try:
        head = raw.read(4)
        raw.seek(0)
        if head.startswith(GZIP_MAGIC):
            with gzip.GzipFile(fileobj=raw, mode="rb") as unpacked:
                yield _Guarded(unpacked, name, "gzip", max_unpacked_bytes)
        elif head.startswith((ZIP_MAGIC, EMPTY_ZIP_MAGIC)):
            try:
                archive = zipfile.ZipFile(raw)
            except _UNPACK_ERRORS as exc:
                raise SourceError(f"{name}: not a readable zip archive: {exc}") from None
            with archive:
                member = _zip_member(archive, name)
                if member.file_size > max_unpacked_bytes:
                    raise _too_big(name, max_unpacked_bytes, member.file_size)
                try:
                    stream = archive.open(member)
                except _UNPACK_ERRORS as exc:
                    raise SourceError(
                        f"{name}: cannot unpack {member.filename!r} from the zip archive ({exc})"
                    ) from None
                with stream:
                    yield _Guarded(stream, name, "zip", max_unpacked_bytes)
        else:
            yield _Guarded(raw, name, "", max_unpacked_bytes)
    finally:
        raw.close()


def _too_big(name: str, limit: int, size: int | None = None) -> SourceError:
    """The unpacked payload is over the limit: ``size`` bytes when known (a zip member's
    declared size), else found while reading."""
    amount = f"{size} bytes, more than" if size is not None else "more than"
    return SourceError(
        f"{name}: the payload unpacks to {amount} the limit of {limit} bytes "
        f"({limit_hint('max_unpacked_bytes')}); raise the limit if this file is genuine"
    )


class Readable(Protocol):
    """What the readers read from: a binary stream's ``read``."""

    def read(self, size: int = -1, /) -> bytes: ...


class _Guarded(io.RawIOBase):
    """A read-only stream that stops at the unpacked-size limit and turns decompression
    failures into ``SourceError``."""

    def __init__(self, stream: Readable, name: str, kind: str, limit: int) -> None:
        super().__init__()
        self._stream = stream
        self._name = name
        self._kind = kind
        self._limit = limit
        self._read = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        # never more than one byte past the limit at a time: enough to know it is exceeded
        room = self._limit + 1 - self._read
        size = room if size is None or size < 0 else min(size, room)
        try:
            data = self._stream.read(size)
        except _UNPACK_ERRORS as exc:
            if not self._kind:
                raise SourceError(f"{self._name}: cannot read: {exc}") from None
            raise SourceError(
                f"{self._name}: the {self._kind} data is damaged or truncated ({exc}); "
                "download the file again"
            ) from None
        self._read += len(data)
        if self._read > self._limit:
            raise _too_big(self._name, self._limit)
        return data

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        data = self.read(len(view))
        view[: len(data)] = data
        return len(data)
