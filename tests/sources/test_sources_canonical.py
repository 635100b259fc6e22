"""Canonical CSV/Parquet tables: parsing, defaults, problem codes with locators, round trips."""

from __future__ import annotations

import datetime as dt
import gzip
import shutil

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sources_support import FIXTURES

import whr
from whr.sources.canonical import read_canonical, write_canonical

CANONICAL = FIXTURES / "canonical"
D = dt.date


def test_players_keep_leading_zeros_and_parse_booleans():
    data = whr.read_source(CANONICAL)
    players = data.players
    assert list(players["player_id"]) == ["010005", "090123", "000042"]  # duplicate dropped
    assert list(players["female"]) == [False, False, True]
    assert players.loc[0, "birth"] == "1980-00-00"
    assert pd.isna(players.loc[2, "given_name"])  # an empty cell is null
    assert set(players["source"]) == {"players.csv"}


def test_tournaments_parse_numbers_modes_and_default_type():
    t = whr.read_source(CANONICAL).tournaments.set_index("tournament_id")
    assert (t.loc["T1", "start"], t.loc["T1", "end"]) == (D(2024, 5, 1), D(2024, 5, 2))
    assert (t.loc["T1", "minutes"], t.loc["T1", "mode"]) == (60.0, "face_to_face")
    assert t.loc["T2", "type"] == 0  # empty cell: the default
    assert bool(t.loc["T2", "rated"]) and not bool(t.loc["T3", "rated"])
    for column in ("category", "type", "minutes", "mode"):
        assert pd.isna(t.loc["T3", column])  # "chess", "x", "long", "zoom" do not parse


def test_games_keep_every_row_and_fall_back_to_the_tournament_end():
    g = whr.read_source(CANONICAL).games
    assert list(g["game_id"]) == ["g1", "g2", "g3", "g4", "g5", "g6", "g1"]
    assert list(g["date"]) == [
        D(2024, 5, 2),  # empty: T1's end
        D(2024, 5, 1),  # its own date
        D(2024, 6, 1),
        D(2024, 5, 2),
        None,  # unknown tournament T9
        D(2024, 5, 2),
        D(2024, 5, 2),  # 2024-02-30 is not a date: T1's end
    ]
    assert pd.isna(g.loc[3, "white"])  # 999999 is not in players.csv
    assert g.loc[4, "tournament_id"] == "T9"
    assert pd.isna(g.loc[5, "result"])
    assert list(g["unrated"][:6]) == [False, False, True, False, False, False]
    assert pd.isna(g.loc[6, "unrated"])  # "maybe"
    assert g["colours_known"].all() and not g["forfeit"].any()  # absent column: defaults
    assert pd.isna(g.loc[1, "moves"]) and g.loc[0, "moves"] == 40


@pytest.mark.parametrize(
    ("code", "severity", "source", "locator"),
    [
        ("duplicate_id", "warning", "players.csv", "line 5, player id=010005"),
        ("bad_value", "warning", "tournaments.csv", "line 4, tournament id=T3"),
        ("unknown_column", "warning", "games.csv", "line 1"),
        ("unknown_player", "error", "games.csv", "line 5, game id=g4"),
        ("unknown_tournament", "error", "games.csv", "line 6, game id=g5"),
        ("bad_result", "error", "games.csv", "line 7, game id=g6"),
        ("duplicate_id", "error", "games.csv", "line 8, game id=g1"),
        ("bad_date", "warning", "games.csv", "line 8, game id=g1"),
        ("bad_value", "warning", "games.csv", "line 8, game id=g1"),
    ],
)
def test_problem_codes_and_locators(code, severity, source, locator):
    problems = whr.read_source(CANONICAL).problems
    rows = set(problems[["code", "severity", "source", "locator"]].itertuples(False, None))
    assert (code, severity, source, locator) in rows


def test_tournament_row_with_four_bad_values_reports_four_problems():
    problems = whr.read_source(CANONICAL).problems
    assert (problems["locator"] == "line 4, tournament id=T3").sum() == 4
    assert len(problems) == 12


def test_games_alone_are_not_checked_against_absent_tables(tmp_path):
    shutil.copy(CANONICAL / "games.csv", tmp_path / "games.csv")
    data = whr.read_source(tmp_path / "games.csv")
    assert data.players.empty and data.tournaments.empty
    assert not {"unknown_player", "unknown_tournament"} & set(data.problems["code"])
    assert data.games.loc[3, "white"] == "999999"
    assert pd.isna(data.games.loc[0, "date"])  # no tournament table, no own date


def test_missing_required_column_is_fatal(tmp_path):
    (tmp_path / "games.csv").write_text("game_id,black,white\n1,a,b\n", encoding="utf-8")
    with pytest.raises(whr.SourceError, match=r"lacks the required columns \['result'\]"):
        whr.read_source(tmp_path)


def test_two_files_for_one_table_are_refused(tmp_path):
    shutil.copy(CANONICAL / "games.csv", tmp_path / "games.csv")
    data = read_canonical([tmp_path / "games.csv"])
    write_canonical(data, tmp_path, "parquet")
    (tmp_path / "players.parquet").unlink()
    (tmp_path / "tournaments.parquet").unlink()
    with pytest.raises(whr.SourceError, match="two files hold the games table"):
        whr.read_source(tmp_path)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_write_then_read_gives_the_same_tables(tmp_path, fmt):
    original = whr.read_source(FIXTURES / "basic.rif")
    write_canonical(original, tmp_path, fmt)
    again = whr.read_source(tmp_path)
    for name in ("players", "tournaments", "games"):
        a = getattr(original, name).drop(columns="source")
        b = getattr(again, name).drop(columns="source")
        if name == "games":
            # canonical tables read empty text as null (CSV cannot tell them apart)
            a = a.assign(round=a["round"].mask(a["round"] == "", None))
        pd.testing.assert_frame_equal(a, b)
    assert again.problems.empty
    assert [n for n, _ in again.inputs] == [
        f"{k}.{fmt}" for k in ("players", "tournaments", "games")
    ]


def test_bad_fmt_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="fmt must be 'parquet' or 'csv'; got 'xml'"):
        write_canonical(whr.read_source(FIXTURES / "basic.rif"), tmp_path, "xml")


def test_csv_bytes_that_are_not_utf8_and_missing_ids_are_reported(tmp_path):
    (tmp_path / "games.csv").write_bytes(
        b"game_id,black,white,result\n"
        b"g1,T\xe4mm,Saar,1\n"  # line 2: a Latin-1 byte
        b",Saar,Tamm,0\n"  # line 3: no id
    )
    data = whr.read_source(tmp_path / "games.csv")
    rows = set(data.problems[["code", "locator"]].itertuples(False, None))
    assert ("bad_encoding", "line 2") in rows
    assert ("missing_id", "line 3, game id=") in rows
    assert data.games.loc[0, "black"] == "T\ufffdmm"
    assert list(data.games["game_id"]) == ["g1", ""]  # the row is kept, with an empty id


def test_parquet_locators_count_rows_from_one(tmp_path):
    frame = pd.DataFrame(
        {"game_id": ["a", "b", "a"], "black": ["1", "2", "3"], "white": ["2", "3", "1"]}
    )
    frame["result"] = ["1", "2", "0"]
    frame.to_parquet(tmp_path / "games.parquet")
    rows = set(
        whr.read_source(tmp_path / "games.parquet")
        .problems[["code", "locator"]]
        .itertuples(False, None)
    )
    assert rows == {("bad_result", "row 2, game id=b"), ("duplicate_id", "row 3, game id=a")}


def test_parquet_text_that_is_not_utf8_is_reported_with_its_file_row_and_column(tmp_path):
    """Parquet does not check that text is UTF-8: bytes that are not were an ArrowException
    ("Unknown error: Wrapping ... failed", quoting the bytes); now each such value has them
    replaced by U+FFFD and is reported as in CSV (``bad_encoding``, the file, ``row N``, the
    column)."""
    names = pa.array([b"Good", b"Bad \xff\xfe name", None, b"T\xc3"], pa.binary())
    table = pa.table(
        {"player_id": ["1", "2", "3", "4"], "name": names.cast(pa.string(), safe=False)}
    )
    pq.write_table(table, tmp_path / "players.parquet")
    data = whr.read_source(tmp_path / "players.parquet")
    found = data.problems[data.problems["code"] == "bad_encoding"]
    assert list(found["locator"]) == ["row 2", "row 4"]
    assert set(found["source"]) == {"players.parquet"}
    assert set(found["message"]) == {
        "bytes that are not UTF-8 in column 'name' were replaced by U+FFFD"
    }
    assert data.players["name"].tolist()[:2] == ["Good", "Bad \ufffd\ufffd name"]
    assert data.players["name"].tolist()[3] == "T\ufffd"


def test_gzipped_csv_is_read_like_plain_csv(tmp_path):
    plain = whr.read_source(CANONICAL / "games.csv")
    packed = tmp_path / "games.csv.gz"
    packed.write_bytes(gzip.compress((CANONICAL / "games.csv").read_bytes()))
    data = whr.read_source(packed)
    pd.testing.assert_frame_equal(
        data.games.drop(columns="source"), plain.games.drop(columns="source")
    )
    assert set(data.games["source"]) == {"games.csv.gz"}


def test_a_handicap_column_is_read_and_its_handicap_games_are_not_rated(tmp_path):
    folder = tmp_path / "tables"
    shutil.copytree(CANONICAL, folder)
    games = folder / "games.csv"
    header, *rows = games.read_text(encoding="utf-8").splitlines()
    stones = ["0", "2", "", "0", "0", "-1", "0"]  # -1 is not a number of stones
    body = [f"{row},{h}" for row, h in zip(rows, stones, strict=True)]
    games.write_text("\n".join([header + ",handicap", *body]) + "\n", encoding="utf-8")
    data = whr.read_source(folder)
    g = data.games
    assert g.loc[1, "handicap"] == 2 and g.loc[0, "handicap"] == 0
    assert pd.isna(g.loc[2, "handicap"]) and pd.isna(g.loc[5, "handicap"])
    assert "line 7, game id=g6" in data.problems.query("code == 'bad_value'")["locator"].tolist()
    rules = whr.rules.load_config(whr.rules.default_directory())
    selection = whr.select(data, D(2025, 1, 1), config=rules)
    assert selection.exclusions.set_index("game_id").loc["g2", "reason"] == "handicap"
