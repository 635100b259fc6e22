"""Unsafe or broken documents: refused with a clear SourceError, or read with a problem row."""

from __future__ import annotations

import gzip
import hashlib
import io
import zipfile

import pytest
from sources_support import FIXTURES

import whr
from whr.sources._common import CHUNK_BYTES

MINIMAL = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    "<database>\n"
    "<players>\n"
    '<player id="1" disp_id="090001" surname="{surname}" />\n'
    '<player id="2" disp_id="090002" surname="Saar" />\n'
    "</players>\n"
    "<tournaments>\n"
    '<tournament id="7" start="2020-01-01" end="2020-01-02" />\n'
    "</tournaments>\n"
    "<games>\n"
    '<game id="1" tournament="7" black="1" white="2" bresult="1" />\n'
    "</games>\n"
    "</database>\n"
)


@pytest.mark.parametrize(
    ("fixture", "words"),
    [
        ("dtd.rif", ["dtd.rif", "line 2", "document type declaration", "refused"]),
        ("billion_laughs.rif", ["line 2", "document type declaration", "refused"]),
        ("external_entity.rif", ["line 2", "document type declaration", "refused"]),
    ],
)
def test_dtds_and_entity_declarations_are_refused(fixture, words):
    with pytest.raises(whr.SourceError) as info:
        whr.read_source(FIXTURES / fixture)
    for word in words:
        assert word in str(info.value)


def test_malformed_xml_names_line_and_column():
    with pytest.raises(whr.SourceError) as info:
        whr.read_source(FIXTURES / "malformed.rif")
    # line 8 is "<move>h8 h9</game>": expat points at the name of the end tag that does not
    # match, the "g" of "game", column 14 counting from 1
    assert "malformed XML at line 8, column 14" in str(info.value)
    assert "mismatched tag" in str(info.value)


def test_undefined_entity_is_malformed_not_expanded():
    with pytest.raises(whr.SourceError, match=r"line 4, column \d+: undefined entity"):
        whr.read_source(FIXTURES / "undefined_entity.rif")


def test_truncated_document_is_malformed(tmp_path):
    text = (FIXTURES / "basic.rif").read_text(encoding="utf-8")
    path = tmp_path / "cut.rif"
    path.write_text(text[: text.index('<game id="250003"')], encoding="utf-8")
    with pytest.raises(whr.SourceError, match="malformed XML at line 4[0-9]"):
        whr.read_source(path)


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        (b"", "empty"),
        (b"  \n", "empty"),
        (b"<!DOCTYPE html><html><body>Not found</body></html>", "HTML page"),
        (b"<html><body>Error</body></html>", "HTML page"),
        (bytes(range(256)) * 4, "not a RenjuNet database"),
        (b"game_id,black\n1,2\n", "not a RenjuNet database"),
        (b"<?xml version='1.0'?><rss><channel/></rss>", "no RenjuNet sections"),
    ],
)
def test_payloads_that_are_not_a_database_are_refused(tmp_path, payload, words):
    path = tmp_path / "renjunet_v10_20250101.rif"
    path.write_bytes(payload)
    with pytest.raises(whr.SourceError, match=words):
        whr.read_source(path)


def test_bytes_that_are_not_utf8_are_replaced_and_reported(tmp_path):
    raw = MINIMAL.format(surname="Tamm").encode().replace(b"Tamm", b"T\xe4mm\xff")
    path = tmp_path / "latin1.rif"
    path.write_bytes(raw)
    data = whr.read_source(path)
    assert data.players.loc[0, "surname"] == "T\ufffdmm\ufffd"
    problems = data.problems
    # two bad bytes on one line: one problem for the line
    assert list(problems[["code", "locator"]].itertuples(False, None)) == [
        ("bad_encoding", "line 4")
    ]
    assert set(problems["severity"]) == {"warning"}
    assert len(data.games) == 1 and data.games.loc[0, "black"] == "090001"


def test_many_lines_of_bad_bytes_are_summarised(tmp_path):
    # 150 players with a bad byte each, on lines 4 to 153: 100 listed, then one summary row
    players = "".join(
        f'<player id="{i}" disp_id="09{i:04d}" surname="X\udcff" />\n' for i in range(100, 250)
    )
    text = MINIMAL.format(surname="Tamm").replace(
        '<player id="1" disp_id="090001" surname="Tamm" />\n', players
    )
    path = tmp_path / "many.rif"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    found = whr.read_source(path).problems
    problems = found[found["code"] == "bad_encoding"].reset_index(drop=True)
    assert len(problems) == 101
    assert set(found["code"]) == {"bad_encoding", "unknown_player"}  # game 1's black is gone
    assert problems["locator"].iloc[0] == "line 4" and problems["locator"].iloc[99] == "line 103"
    assert problems["locator"].iloc[100] == "whole file"
    assert problems["message"].iloc[100].startswith("50 more lines")


@pytest.mark.parametrize("shift", [0, 1])
def test_multibyte_characters_split_across_read_chunks_are_not_reported(tmp_path, shift):
    # a long note of two-byte characters straddles the first chunk boundary; with either parity
    # of the offset one of the two runs splits a character between two reads
    note = "õ" * (CHUNK_BYTES // 2 + 1000)
    text = MINIMAL.format(surname="Tamm" + "x" * shift).replace(
        '<game id="1" tournament="7" black="1" white="2" bresult="1" />',
        f'<game id="1" tournament="7" black="1" white="2" bresult="1">\n<info>{note}</info>\n</game>',
    )
    path = tmp_path / "long.rif"
    path.write_text(text, encoding="utf-8")
    data = whr.read_source(path)
    assert data.problems.empty
    assert len(data.games) == 1


def test_gzip_and_zip_are_opened_transparently_and_hashed_as_stored(tmp_path):
    plain = (FIXTURES / "basic.rif").read_bytes()
    gz = tmp_path / "renjunet_v10_20250301.rif.gz"
    gz.write_bytes(gzip.compress(plain))
    zipped = tmp_path / "renjunet_v10_20250302.zip"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("renjunet_v10_20250302.rif", plain)
    zipped.write_bytes(buffer.getvalue())
    reference = whr.read_source(FIXTURES / "basic.rif")
    for path in (gz, zipped):
        data = whr.read_source(path)
        assert data.games.drop(columns="source").equals(reference.games.drop(columns="source"))
        assert data.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
        assert data.inputs == ((path.name, data.sha256),)


def test_damaged_gzip_and_ambiguous_zip_are_refused(tmp_path):
    plain = (FIXTURES / "basic.rif").read_bytes()
    cut = tmp_path / "cut.rif.gz"
    cut.write_bytes(gzip.compress(plain)[:-40])
    with pytest.raises(whr.SourceError, match="damaged or truncated"):
        whr.read_source(cut)
    two = tmp_path / "two.zip"
    with zipfile.ZipFile(two, "w") as archive:
        archive.writestr("a.txt", "a")
        archive.writestr("b.txt", "b")
    with pytest.raises(whr.SourceError, match="exactly one"):
        whr.read_source(two)
