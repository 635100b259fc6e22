"""Fuzzing the readers with Hypothesis: random mutations of real inputs.

Whatever the mutation, reading ends in one of two ways: a ``SourceError`` (nothing else may
escape), or tables in which every game read is rated or excluded (``whr.select`` with the
bundled rules proves read = rated + excluded). Each case is bounded: a case still running after
``CASE_BOUND_S`` seconds is stopped by a SIGALRM and fails as a hang.

Profiles (``tests/sources/conftest.py``): ``ci`` (default, derandomized, a few tens of seconds for
the whole file) and ``nightly`` (thousands of random cases per test)::

    WHR_FUZZ_PROFILE=nightly .venv/bin/pytest tests/sources/test_fuzz.py -q
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gzip
import io
import re
import signal
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sources_support import FIXTURES

import whr
from whr.rules import default_directory, load_config
from whr.sources import ReadLimits

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample" / "renjunet_v10_20261130.rif"
EGF = Path(__file__).parent / "egf"
CANONICAL = FIXTURES / "canonical"
AS_OF = dt.date(2026, 11, 30)
CASE_BOUND_S = 30
#: Small limits, so that mutations reach them: a value of 2,000 characters, 4 MB unpacked.
LIMITS = ReadLimits(max_unpacked_bytes=4_000_000, max_value_chars=2_000, max_name_chars=40)
RULES = load_config(default_directory())
COMMON = {
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
}

XML_TOKENS = [
    b"<!DOCTYPE database>",
    b'<!ENTITY a "b">',
    b"&a;",
    b"&amp;",
    b"&#0;",
    b"&#x110000;",
    b"<![CDATA[",
    b"]]>",
    b"<!--",
    b"-->",
    b'"',
    b"'",
    b"<",
    b">",
    b"</game>",
    b"<game>",
    b'<game id="1" tournament="5001" black="777" white="777" bresult="0.5"/>',
    b'<player id="1" disp_id=" " surname=""/>',
    b'<tournament id="5001" start="0001-01-01" end="9999-12-31" type="-99999999999"/>',
    b'bresult="1e309"',
    b'bresult="nan"',
    b'type="1_000"',
    b"<move>" + b"h8 " * 800 + b"</move>",
    b"<info>forfeit</info>",
    b'surname="' + b"x" * 2_500 + b'"',
    b"\x00",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b"\xc3",
    b"\xed\xa0\x80",
    b'<?xml version="1.0" encoding="UTF-16"?>',
    b"<players>",
    b"</database>",
]
TEXT_TOKENS = [
    "TM[1e309]",
    "TM[1h30]",
    "TM[99999999999999999999999]",
    "DT[2024-02-30]",
    "DT[0201-05-01]",
    "0=",
    "0+",
    "12+/w0",
    "99999999999999999999+/b0",
    "1+!b",
    "?",
    "|",
    ";",
    "; EV[",
    "]",
    "\ufeff",
    "\x00",
    "inf",
    "-5",
    "nan",
    "1e309",
    " ",
    '"',
    '""',
    ",",
    ",,,,,",
    "\r",
    "\n",
    "true",
    "maybe",
    "0.5",
    "2024-05-01T13:00",
    "x" * 2_500,
]


@contextlib.contextmanager
def bounded(seconds: int = CASE_BOUND_S) -> Iterator[None]:
    """Fail a case that runs longer than ``seconds``: a hang, not a slow machine."""

    def hang(signum: int, frame: object) -> None:
        raise TimeoutError(f"a fuzz case did not finish within {seconds} s: the reader hangs")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def read_and_check(source: Path) -> None:
    """Read ``source``: a SourceError, or tables where every game is rated or excluded."""
    with bounded():
        try:
            data = whr.read_source(source, AS_OF, limits=LIMITS)
        except whr.SourceError as exc:
            assert str(exc)  # a message, never empty
            return
        selection = whr.select(data, AS_OF, config=RULES)
    assert len(selection.rated) + len(selection.exclusions) == len(data.games)
    assert set(data.problems["severity"]) <= {"error", "warning"}


VALUES = [
    b"",
    b" ",
    b"0",
    b"-1",
    b"1.0",
    b"0.50",
    b"1e0",
    b"1e309",
    b"nan",
    b"99999999999",
    b"0000-00-00",
    b"2020-02-30",
    b"0201-05-01",
    b"9999-12-31",
    b"&amp;&lt;",
    b"\xe2\x80\x8b",
    b"\xe5\xbc\xa0" * 700,
    b"x" * 1_990,
    b"404",
    b"777",
    b"5001",
]
#: An attribute value of XML (``="..."``) or a cell of CSV: what the value edit replaces.
_VALUE = re.compile(rb'="[^"<]*"|(?<=,)[^,\n]*(?=[,\n])')


@st.composite
def mutated(draw: st.DrawFn, base: bytes, tokens: list[bytes]) -> bytes:
    """``base`` after one to six random edits: a value replaced (the text stays well formed),
    a byte flipped, bytes inserted, a token inserted, a range deleted or repeated, a cut."""
    data = bytearray(base)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        kind = draw(
            st.sampled_from(
                ["value", "value", "flip", "insert", "token", "delete", "repeat", "cut"]
            )
        )
        if kind == "value":
            found = _VALUE.search(data, at) or _VALUE.search(data)
            if found is not None:
                quoted = found.group().startswith(b'="')
                value = draw(st.sampled_from(VALUES))
                data[found.start() : found.end()] = b'="' + value + b'"' if quoted else value
        elif kind == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif kind == "token":
            data[at:at] = draw(st.sampled_from(tokens))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 200))]
        elif kind == "repeat":
            piece = data[at : at + draw(st.integers(1, 400))]
            data[at:at] = piece * draw(st.integers(1, 3))
        elif kind == "cut":
            del data[at:]
    return bytes(data)


def packed(data: bytes, container: str) -> bytes:
    if container == "gzip":
        return gzip.compress(data, 1)
    if container == "zip":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("renjunet_v10_20261130.rif", data)
        return buffer.getvalue()
    return data


FIXTURE_DBS = [(FIXTURES / n).read_bytes() for n in ("basic.rif", "problems.rif")]


@settings(**COMMON)
@given(
    st.sampled_from(FIXTURE_DBS).flatmap(lambda base: mutated(base, XML_TOKENS)),
    st.sampled_from(["plain", "gzip", "zip"]),
    st.booleans(),
)
def test_mutated_renjunet_fixtures(tmp_path_factory, document, container, damage_container):
    body = packed(document, container)
    if damage_container and container != "plain" and len(body) > 40:
        body = body[:20] + bytes([body[20] ^ 0x5A]) + body[21:]
    path = tmp_path_factory.mktemp("db") / "renjunet_v10_20261130.rif"
    path.write_bytes(body)
    read_and_check(path)


@settings(max_examples=max(settings().max_examples // 3, 1), **COMMON)
@given(mutated(SAMPLE.read_bytes(), XML_TOKENS))
def test_mutated_sample_database(tmp_path_factory, document):
    folder = tmp_path_factory.mktemp("sample")
    (folder / "renjunet_v10_20261130.rif").write_bytes(document)
    (folder / "tournament_facts.csv").write_bytes(
        (SAMPLE.parent / "tournament_facts.csv").read_bytes()
    )
    read_and_check(folder)


EGF_TABLES = [p.read_bytes() for p in sorted(EGF.glob("*.h9"))]


@settings(**COMMON)
@given(
    st.sampled_from(EGF_TABLES).flatmap(
        lambda base: mutated(base, [t.encode("utf-8") for t in TEXT_TOKENS])
    )
)
def test_mutated_egf_tables(tmp_path_factory, table):
    path = tmp_path_factory.mktemp("egf") / "table.h9"
    path.write_bytes(table)
    read_and_check(path)


CSV_FILES = {
    name: (CANONICAL / name).read_bytes()
    for name in ("players.csv", "tournaments.csv", "games.csv")
}


@settings(**COMMON)
@given(
    st.sampled_from(sorted(CSV_FILES)).flatmap(
        lambda name: st.tuples(
            st.just(name), mutated(CSV_FILES[name], [t.encode("utf-8") for t in TEXT_TOKENS])
        )
    ),
    st.booleans(),
)
def test_mutated_canonical_csv(tmp_path_factory, mutation, gzipped):
    name, text = mutation
    folder = tmp_path_factory.mktemp("csv")
    for other, body in CSV_FILES.items():
        if other != name:
            (folder / other).write_bytes(body)
    if gzipped:
        (folder / f"{name}.gz").write_bytes(gzip.compress(text, 1))
    else:
        (folder / name).write_bytes(text)
    read_and_check(folder)


CELLS = st.one_of(
    st.none(),
    st.sampled_from(TEXT_TOKENS),
    st.text(max_size=12),
    st.integers(-(2**63), 2**63 - 1).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)
TIMES = st.datetimes(
    min_value=dt.datetime(1, 1, 1), max_value=dt.datetime(2262, 4, 11), allow_imaginary=False
)
TIMESTAMP_TYPES = [
    pa.timestamp("s"),
    pa.timestamp("ms", tz="UTC"),
    pa.timestamp("us", tz="Europe/Tallinn"),
]


@st.composite
def parquet_tables(draw: st.DrawFn) -> tuple[pa.Table, pa.Table]:
    """A tournaments and a games table with typed columns: numbers, text, timestamps."""
    n = draw(st.integers(0, 6))
    ids = draw(st.lists(st.sampled_from(["T1", "T2", " ", "", "T1 "]), min_size=n, max_size=n))
    stamp = draw(st.sampled_from(TIMESTAMP_TYPES))
    times = draw(st.lists(st.one_of(st.none(), TIMES), min_size=n, max_size=n))
    numbers = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True))
    tournaments = pa.table(
        {
            "tournament_id": ids,
            "start": pa.array(times, pa.timestamp("s")),
            "end": pa.array(times, stamp),
            "minutes": pa.array(draw(st.lists(numbers, min_size=n, max_size=n)), pa.float64()),
            "type": pa.array(
                draw(st.lists(st.integers(-(2**62), 2**62), min_size=n, max_size=n)), pa.int64()
            ),
            "rated": draw(st.lists(st.one_of(st.none(), st.booleans()), min_size=n, max_size=n)),
        }
    )
    m = draw(st.integers(0, 8))
    games = pa.table(
        {
            "game_id": draw(st.lists(CELLS, min_size=m, max_size=m)),
            "tournament_id": draw(
                st.lists(st.sampled_from(["T1", "T2", None]), min_size=m, max_size=m)
            ),
            "black": draw(st.lists(CELLS, min_size=m, max_size=m)),
            "white": draw(st.lists(CELLS, min_size=m, max_size=m)),
            "result": pa.array(draw(st.lists(numbers, min_size=m, max_size=m)), pa.float64()),
            "moves": pa.array(draw(st.lists(numbers, min_size=m, max_size=m)), pa.float64()),
            "date": pa.array(
                draw(st.lists(st.one_of(st.none(), TIMES), min_size=m, max_size=m)), stamp
            ),
        }
    )
    return tournaments, games


@settings(**COMMON)
@given(parquet_tables())
def test_random_typed_parquet_tables(tmp_path_factory, tables):
    folder = tmp_path_factory.mktemp("parquet")
    tournaments, games = tables
    pq.write_table(tournaments, folder / "tournaments.parquet")
    pq.write_table(games, folder / "games.parquet")
    read_and_check(folder)


def test_the_hang_bound_fires():
    """The bound is real: a case that sleeps past it fails with TimeoutError."""
    import time

    with pytest.raises(TimeoutError, match="did not finish within 1 s"), bounded(1):
        time.sleep(5)
