"""The smaller reports of issue 24 about reading, one test each: an empty cell named as an
empty cell, an HTML page that begins with a comment, one range of minutes, NUL characters,
ids that differ only by Unicode normalisation, and the wording of the unpacked-size limit."""

from __future__ import annotations

import gzip
import unicodedata

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sources_support import FIXTURES

import whr
from whr.sources import ReadLimits
from whr.sources._common import MINUTES_RANGE, MINUTES_WORDS

BASIC = (FIXTURES / "basic.rif").read_bytes()
NFC = unicodedata.normalize("NFC", "José")
NFD = unicodedata.normalize("NFD", "José")


def test_an_empty_player_cell_is_reported_as_empty_not_as_nan(tmp_path):
    (tmp_path / "players.csv").write_text("player_id,name\n1,A\n2,B\n")
    (tmp_path / "games.csv").write_text(
        "game_id,black,white,result,date\ng1,1,,1,2020-01-01\ng2,1,2,1,2020-01-01\n"
    )
    data = whr.read_source(tmp_path)
    (row,) = data.problems.to_dict("records")
    assert row["code"] == "unknown_player" and row["locator"] == "line 2, game id=g1"
    assert row["message"] == "white player is empty"
    assert "nan" not in " ".join(data.problems["message"])


@pytest.mark.parametrize(
    "page",
    [
        b"<!-- served by nginx -->\n<!DOCTYPE html><html><body>Not found</body></html>",
        b"\xef\xbb\xbf<!-- a -->  <!-- b -->\n<html><head><title>Login</title></head></html>",
    ],
)
def test_an_html_page_starting_with_a_comment_is_named_as_such(tmp_path, page):
    path = tmp_path / "renjunet_v10_20240101.rif"
    path.write_bytes(page)
    with pytest.raises(whr.SourceError, match="this is an HTML page, not a RenjuNet database"):
        whr.read_source(path)


def test_a_database_starting_with_a_comment_is_still_read(tmp_path):
    path = tmp_path / "renjunet_v10_20240101.rif"
    head, rest = BASIC.split(b"\n", 1)
    path.write_bytes(head + b"\n<!-- exported by hand -->\n" + rest)
    assert len(whr.read_source(path).games) == len(whr.read_source(FIXTURES / "basic.rif").games)


def test_minutes_have_one_range_in_canonical_tables_and_in_the_facts_file(tmp_path):
    low, high = MINUTES_RANGE
    inside, outside = 2000, high + 1  # 2000: more than a day (the facts file's old bound)
    (tmp_path / "tournaments.csv").write_text(
        f"tournament_id,name,end,minutes\nT1,a,2024-01-01,{inside}\nT2,b,2024-01-01,{outside}\n"
        "T3,c,2024-01-01,\nT4,d,2024-01-01,\n"
    )
    (tmp_path / "games.csv").write_text("game_id,tournament_id,black,white,result\n")
    (tmp_path / "tournament_facts.csv").write_text(
        f"tournament_id,minutes\nT3,{inside}\nT4,{outside}\n"
    )
    data = whr.read_source(tmp_path)
    minutes = dict(zip(data.tournaments["tournament_id"], data.tournaments["minutes"], strict=True))
    assert minutes["T1"] == inside and minutes["T3"] == inside  # accepted by both
    assert minutes["T2"] != minutes["T2"] and minutes["T4"] != minutes["T4"]  # refused by both
    refused = data.problems[data.problems["code"] == "bad_value"]["message"].tolist()
    assert len(refused) == 2 and all(MINUTES_WORDS in m for m in refused)


def test_nul_characters_are_refused_in_csv_and_in_parquet_alike(tmp_path):
    csv_dir, parquet_dir = tmp_path / "csv", tmp_path / "parquet"
    csv_dir.mkdir()
    parquet_dir.mkdir()
    rows = "".join(f"g{i},a,b,1,2020-01-01\n" for i in range(100))  # past the sniffed head
    (csv_dir / "games.csv").write_text(
        f"game_id,black,white,result,date\n{rows}g100,x\x00y,b,1,2020-01-01\n"
    )
    with pytest.raises(whr.SourceError) as info:
        whr.read_source(csv_dir)
    assert "line 102, column 'black': a NUL character" in str(info.value)
    table = pa.table(
        {"game_id": ["g1"], "black": ["x\x00y"], "white": ["b"], "result": ["1"]},
    )
    pq.write_table(table, parquet_dir / "games.parquet")
    with pytest.raises(whr.SourceError) as info:
        whr.read_source(parquet_dir)
    assert "row 1, column 'black': a NUL character" in str(info.value)


def test_ids_that_differ_only_by_normalisation_are_one_id(tmp_path):
    assert NFC != NFD
    (tmp_path / "players.csv").write_text(f"player_id,name\n{NFC},A\n{NFD},B\nx,C\n")
    (tmp_path / "games.csv").write_text(
        f"game_id,black,white,result,date\ng1,{NFD},x,1,2020-01-01\n"
    )
    data = whr.read_source(tmp_path)
    assert data.players["player_id"].tolist() == [NFC, "x"]  # the second is a duplicate
    duplicate = data.problems[data.problems["code"] == "duplicate_id"]
    assert duplicate["locator"].tolist() == [f"line 3, player id={NFD}"]
    assert data.games["black"].tolist() == [NFC]  # the game names the one player
    assert "unknown_player" not in set(data.problems["code"])
    # the RenjuNet reader too: a game naming the player in the other form finds it
    text = BASIC.decode("utf-8")
    assert 'disp_id="' in text
    renjunet = tmp_path / "renjunet_v10_20240101.rif"
    players = whr.read_source(FIXTURES / "basic.rif").players
    first = players["player_id"].iloc[0]
    renjunet.write_text(text.replace(f'disp_id="{first}"', f'disp_id="{NFD}"', 1))
    read = whr.read_source(renjunet)
    assert NFC in set(read.players["player_id"]) and NFD not in set(read.players["player_id"])


def test_the_unpacked_limit_says_more_than_once(tmp_path):
    path = tmp_path / "renjunet_v10_20240101.rif.gz"
    path.write_bytes(gzip.compress(BASIC * 20))
    with pytest.raises(whr.SourceError) as info:
        whr.read_source(path, limits=ReadLimits(max_unpacked_bytes=len(BASIC)))
    message = str(info.value)
    assert f"the payload unpacks to more than the limit of {len(BASIC)} bytes" in message
    assert "more, more" not in message
