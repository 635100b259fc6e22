"""EGF tournament tables: handmade fixtures in ``tests/sources/egf/``, expectations by hand."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
from pathlib import Path

import pandas as pd
import pytest

from whr.sources import egf
from whr.tables import GAMES, PLAYERS, PROBLEMS, TOURNAMENTS, SourceData, to_table

HERE = Path(__file__).parent / "egf"
EMPTY_MAPPING = HERE / "no_players.csv"


def new_id(name: str, country: str) -> str:
    """The documented rule for unmatched players: "egf:" + sha256("<name>|<country>")[:10],
    with the name lower-cased, accents and punctuation removed."""
    return "egf:" + hashlib.sha256(f"{name}|{country}".encode()).hexdigest()[:10]


def read(name: str, mapping: Path | None = None) -> SourceData:
    return egf.read_table(HERE / name, mapping=mapping)


def games_by_id(data) -> dict[str, dict]:
    return {row["game_id"]: row for row in data.games.to_dict("records")}


def codes(data, code: str) -> list[str]:
    problems = data.problems
    return problems.loc[problems["code"] == code, "locator"].tolist()


def test_header_keys_and_informational_lines():
    data = read("header.h9")
    (row,) = data.tournaments.to_dict("records")
    assert row["tournament_id"] == "egf:R240510EE"  # TC[] wins over the file name
    assert row["name"] == "Tallinn Renju Open 2024"
    assert (row["country"], row["city"]) == ("EST", "Tallinn")  # PC[EE, ...]: Estonia's code
    assert (row["start"], row["end"]) == (dt.date(2024, 5, 10), dt.date(2024, 5, 12))
    assert row["minutes"] == 95.0  # TM[] (adjusted time), not the ;time=60+b line
    assert row["mode"] == "face_to_face"  # CL[B]
    assert row["rule"] == "Taraguchi-10"
    assert row["category"] == "renju"
    assert pd.isna(row["rated"]) and row["type"] == 0  # the format has no rated flag


def test_long_entries_give_colours_and_black_scores():
    data = read("header.h9")
    ids = dict(zip(data.players["name"], data.players["player_id"], strict=True))
    soosorv, tammsaar, sarv, kask = (
        ids["Soosorv Ants"],
        ids["Tammsaar Tunde"],
        ids["Sarv Jaan"],
        ids["Kask Mari"],
    )
    games = games_by_id(data)
    # tie-break values 12? and 0= are not results: 2 rounds x 2 games, no byes
    assert set(games) == {
        "egf:R240510EE:r1:1-2",
        "egf:R240510EE:r1:3-4",
        "egf:R240510EE:r2:1-3",
        "egf:R240510EE:r2:2-4",
    }
    expected = {  # game: (black, white, Black's score), read off the entries
        "egf:R240510EE:r1:1-2": (soosorv, tammsaar, 1.0),  # 2+/b0 | 1-/w0
        "egf:R240510EE:r1:3-4": (sarv, kask, 1.0),  # 4+/b0 | 3-/w0
        "egf:R240510EE:r2:1-3": (sarv, soosorv, 0.0),  # 3+/w0 | 1-/b0: Black lost
        "egf:R240510EE:r2:2-4": (tammsaar, kask, 1.0),  # 4+/b0 | 2-/w0
    }
    for game_id, (black, white, result) in expected.items():
        game = games[game_id]
        assert (game["black"], game["white"], game["result"]) == (black, white, result)
        assert game["colours_known"] and not game["forfeit"]
        assert game["date"] == dt.date(2024, 5, 12)  # the tournament's last day
        assert pd.isna(game["moves"])  # tables carry no moves: not applicable
    assert data.games["round"].tolist() == ["1", "1", "2", "2"]


def test_unmatched_players_get_stable_ids_and_a_warning():
    data = read("header.h9")
    assert data.players["player_id"].tolist() == [
        new_id("soosorv ants", "EE"),
        new_id("tammsaar tunde", "EE"),
        new_id("sarv jaan", "FI"),
        new_id("kask mari", "LV"),
    ]
    assert codes(data, "unmatched_player") == ["line 17", "line 18", "line 19", "line 20"]
    pin_message = data.problems.loc[data.problems["locator"] == "line 18", "message"].item()
    assert "12850431" in pin_message  # the PIN is shown so a maintainer can map it
    assert (data.problems["severity"] == "warning").all()


def test_pin_and_name_country_mapping():
    data = read("header.h9", mapping=HERE / "mapping.csv")
    games = games_by_id(data)
    # PIN 12850431 -> 000123 though the mapping's name differs; "Soosõrv Ants, ee" matches
    # "Soosorv Ants EE" (accents and case ignored); Sarv Jaan is mapped for EE, plays for FI
    assert games["egf:R240510EE:r1:1-2"]["black"] == "000456"
    assert games["egf:R240510EE:r1:1-2"]["white"] == "000123"
    assert data.players["name"].tolist() == ["Sarv Jaan", "Kask Mari"]
    assert codes(data, "unmatched_player") == ["line 19", "line 20"]


def test_default_mapping_file_is_readable_and_documented():
    text = egf.DEFAULT_MAPPING.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    assert next(csv.reader(lines)) == ["player_id", "name", "country", "pin"]
    assert text.startswith("#")  # the comment explaining how to use it
    data = read("header.h9")  # mapping=None reads it
    assert not codes(data, "egf_bad_mapping")


def test_bad_mapping_rows_are_problems_with_their_line(tmp_path):
    mapping = tmp_path / "m.csv"
    mapping.write_text(
        "# comment\nplayer_id,name,country,pin\n,Kask Mari,LV,\n001,Kask Mari,,\n"
        "002,Kask Mari,LV,\n003,Kask Mari,LV,\n",
        encoding="utf-8",
    )
    data = read("header.h9", mapping=mapping)
    # no id (line 3), name without country (line 4), a second id for the same player (line 6)
    assert codes(data, "egf_bad_mapping") == ["line 3", "line 4", "line 6"]
    assert data.games.loc[data.games["game_id"] == "egf:R240510EE:r1:3-4", "white"].item() == "002"


def test_ties_with_blank_places_and_short_form():
    data = read("ties_short.h9")
    tid = "egf:ties_short"  # no TC[]: the file stem
    ids = dict(zip(data.players["name"], data.players["player_id"], strict=True))
    games = games_by_id(data)
    # the blank-place line is position 4 (opponents refer to line order); without colours the
    # lower position is recorded as black and colours_known is False
    expected = {
        f"{tid}:r1:1-3": (ids["Alpha Anna"], ids["Gamma Gleb"], 1.0),
        f"{tid}:r1:2-4": (ids["Beta Boris"], ids["Delta Dana"], 1.0),
        f"{tid}:r2:1-2": (ids["Alpha Anna"], ids["Beta Boris"], 1.0),
        f"{tid}:r2:3-4": (ids["Gamma Gleb"], ids["Delta Dana"], 0.5),
    }
    assert set(games) == set(expected)
    for game_id, (black, white, result) in expected.items():
        game = games[game_id]
        assert (game["black"], game["white"], game["result"]) == (black, white, result)
        assert not game["colours_known"]
    (row,) = data.tournaments.to_dict("records")
    assert row["start"] == row["end"] == dt.date(2023, 3, 4)  # one date: a one-day event
    assert pd.isna(row["minutes"]) and pd.isna(row["mode"]) and pd.isna(row["rule"])


def test_mismatched_pairs_keep_the_game_without_result_and_name_both_lines():
    data = read("mismatch.h9")
    tid = "egf:mismatch"
    games = games_by_id(data)
    # lines: 3 Alpha (1), 4 Beta (2), 5 Gamma (3), 6 Delta (4)
    assert codes(data, "egf_mismatch") == [
        "line 3, line 4, round 1",  # both claim the win
        "line 3, line 5, round 2",  # both white
        "line 3, line 6, round 3",  # Alpha names Delta, Delta names Beta
        "line 4, line 6, round 3",  # Delta names Beta, Beta names Gamma
    ]
    bad = [f"{tid}:r1:1-2", f"{tid}:r2:1-3", f"{tid}:r3:1-4", f"{tid}:r3:2-4"]
    for game_id in bad:
        assert pd.isna(games[game_id]["result"])
    good = {f"{tid}:r1:3-4": 1.0, f"{tid}:r2:2-4": 1.0, f"{tid}:r3:2-3": 1.0}
    assert {g: games[g]["result"] for g in good} == good
    assert len(games) == len(bad) + len(good)
    message = data.problems.loc[data.problems["code"] == "egf_mismatch", "message"].iloc[0]
    assert "'2+/b0'" in message and "'1+/w0'" in message


def test_results_by_default_and_unknown_results():
    data = read("forfeit_unknown.h9")
    tid = "egf:forfeit_unknown"
    ids = dict(zip(data.players["name"], data.players["player_id"], strict=True))
    games = games_by_id(data)
    walkover = games[f"{tid}:r1:1-2"]  # 2+!w0 | 1-!b0: Alpha (white) won by default
    assert walkover["forfeit"]
    assert (walkover["black"], walkover["white"], walkover["result"]) == (
        ids["Beta Boris"],
        ids["Alpha Anna"],
        0.0,
    )
    assert not games[f"{tid}:r1:3-4"]["forfeit"]
    unknown = games[f"{tid}:r2:1-3"]  # 3?/b0 | 1?/w0
    assert pd.isna(unknown["result"]) and unknown["black"] == ids["Alpha Anna"]
    one_sided = games[f"{tid}:r2:2-4"]  # 4+ (short) | 2-/b0: the colour comes from Delta
    assert one_sided["colours_known"]
    assert (one_sided["black"], one_sided["result"]) == (ids["Delta Dana"], 0.0)
    assert not codes(data, "egf_mismatch")


def test_byes_of_the_three_kinds():
    data = read("byes.h9")
    tid = "egf:byes"
    ids = dict(zip(data.players["name"], data.players["player_id"], strict=True))
    byes = data.games[data.games["white"].isna()]
    # 0- (r1 Gamma), 0+ (r2 Alpha), 0=0 / 0= / 0- (r3 everyone): one row each, a bye
    expected = {
        f"{tid}:r1:bye:3": (ids["Gamma Gleb"], 0.0),
        f"{tid}:r2:bye:1": (ids["Alpha Anna"], 1.0),
        f"{tid}:r3:bye:1": (ids["Alpha Anna"], 0.5),
        f"{tid}:r3:bye:2": (ids["Beta Boris"], 0.5),
        f"{tid}:r3:bye:3": (ids["Gamma Gleb"], 0.0),
    }
    assert {
        row["game_id"]: (row["black"], row["result"]) for row in byes.to_dict("records")
    } == expected
    assert byes["bye"].all() and not byes["forfeit"].any()  # a bye is not a walk-over
    played = data.games[data.games["white"].notna()]
    assert sorted(played["game_id"]) == [f"{tid}:r1:1-2", f"{tid}:r2:2-3"]
    assert not played["forfeit"].any() and not played["bye"].any()


def test_latin1_file_is_read_with_a_warning():
    data = read("latin1.h9")
    assert data.players["name"].tolist() == ["Lamôle Laurent", "Soosõrv Äili"]
    assert codes(data, "egf_encoding") == ["file"]
    assert data.tournaments["mode"].item() == "face_to_face"


def test_non_utf8_bytes_outside_latin1_read_as_iso_8859_15(tmp_path):
    # 0xA6 is "Š" in ISO-8859-15 (what OpenGotha writes) and "¦" in Latin-1
    path = tmp_path / "t.h9"
    path.write_bytes(
        b"; DT[2020-01-01]\n 1 \xa6ulc Jan 1d CZ Prah 1 2+/b0\n 2 B C 1d CZ Prah 0 1-/w0\n"
    )
    data = egf.read_table(path, mapping=EMPTY_MAPPING)
    assert data.players["name"].tolist()[0] == "Šulc Jan"


def test_utf8_is_read_without_warning(tmp_path):
    path = tmp_path / "t.h9"
    text = "; DT[2020-01-01]\n 1 Šulc Jan 1d CZ Prah 1 2+/b0\n 2 Ōta Ken 1d JP Toky 0 1-/w0\n"
    path.write_text(text, encoding="utf-8")
    data = egf.read_table(path, mapping=EMPTY_MAPPING)
    assert data.players["name"].tolist() == ["Šulc Jan", "Ōta Ken"]
    assert not codes(data, "egf_encoding")


def test_lines_with_different_round_counts_are_a_clear_error():
    with pytest.raises(egf.SourceError, match=r"rounds_differ\.h9, line 4: 1 round entries"):
        read("rounds_differ.h9")


def test_a_broken_entry_in_a_round_column_is_an_error_with_its_line(tmp_path):
    path = tmp_path / "t.h9"
    path.write_text(
        "; DT[2020-01-01]\n 1 A A 1d EE Tall 1 2+/x0 2+/b0\n 2 B B 1d EE Tall 0 1-/w0 1-/w0\n",
        encoding="utf-8",
    )
    with pytest.raises(egf.SourceError, match=r"line 2: '2\+/x0' is not a round entry"):
        egf.read_table(path, mapping=EMPTY_MAPPING)


def test_an_unreadable_player_line_is_an_error_with_its_line(tmp_path):
    path = tmp_path / "t.h9"
    path.write_text("; DT[2020-01-01]\n 1 A A 1d EE Tall 1 2+/b0\nhello world\n", encoding="utf-8")
    with pytest.raises(egf.SourceError, match=r"line 3: not a player line"):
        egf.read_table(path, mapping=EMPTY_MAPPING)


def test_an_opponent_outside_the_table_is_a_problem(tmp_path):
    path = tmp_path / "t.h9"
    path.write_text(
        "; DT[2020-01-01]\n 1 A A 1d EE Tall 1 9+/b0\n 2 B B 1d EE Tall 0 0-\n", encoding="utf-8"
    )
    data = egf.read_table(path, mapping=EMPTY_MAPPING)
    assert codes(data, "egf_bad_opponent") == ["line 2, round 1"]
    game = games_by_id(data)["egf:t:r1:1-9"]
    assert pd.isna(game["result"]) and pd.isna(game["white"])


def test_mode_key_time_line_and_bad_dates(tmp_path):
    path = tmp_path / "t.h9"
    path.write_text(
        "; CL[D]\n; MO[online_supervised]\n; DT[soon]\n;time=45+b\n"
        " 1 A A 1d EE Tall 1 2+/b0\n 2 B B 1d EE Tall 0 1-/w0\n",
        encoding="utf-8",
    )
    data = egf.read_table(path, mapping=EMPTY_MAPPING)
    (row,) = data.tournaments.to_dict("records")
    assert row["mode"] == "online_supervised"  # MO[] wins over CL[D]
    assert row["minutes"] == 45.0  # no TM[]: the basic time of ;time=
    assert pd.isna(row["end"]) and codes(data, "egf_bad_date") == ["header DT"]
    assert pd.isna(data.games["date"].item())


def test_internet_class_is_online_and_sgf_short_dates(tmp_path):
    path = tmp_path / "t.h9"
    path.write_text(
        "; CL[D]\n; DT[2020-11-30,12-01,02]\n 1 A A 1d EE Tall 1 2+/b0\n 2 B B 1d EE Tall 0 1-/w0\n",
        encoding="utf-8",
    )
    (row,) = egf.read_table(path, mapping=EMPTY_MAPPING).tournaments.to_dict("records")
    assert row["mode"] == "online"
    assert (row["start"], row["end"]) == (dt.date(2020, 11, 30), dt.date(2020, 12, 2))


def test_several_tables_share_player_ids_and_list_each_input():
    paths = [HERE / "mismatch.h9", HERE / "forfeit_unknown.h9"]
    data = egf.read_tables(paths, mapping=EMPTY_MAPPING)
    # the same four people play in both tables: one players row each, the same ids in both
    assert sorted(data.players["player_id"]) == sorted(
        new_id(n, c)
        for n, c in [
            ("alpha anna", "EE"),
            ("beta boris", "EE"),
            ("gamma gleb", "FI"),
            ("delta dana", "LV"),
        ]
    )
    assert data.tournaments["tournament_id"].tolist() == ["egf:mismatch", "egf:forfeit_unknown"]
    # the tables, then the maintainers' country codes and player mapping: editing those is
    # new data too
    read = [*paths, egf.DEFAULT_COUNTRIES, EMPTY_MAPPING]
    assert [name for name, _ in data.inputs] == [p.name for p in read]
    assert [digest for _, digest in data.inputs] == [
        hashlib.sha256(p.read_bytes()).hexdigest() for p in read
    ]
    assert data.games["game_id"].is_unique
    for frame, schema in [
        (data.players, PLAYERS),
        (data.tournaments, TOURNAMENTS),
        (data.games, GAMES),
        (data.problems, PROBLEMS),
    ]:
        assert to_table(frame, schema).schema == schema


def test_reading_twice_gives_the_same_tables():
    first, second = read("mismatch.h9"), read("mismatch.h9")
    pd.testing.assert_frame_equal(first.games, second.games)
    pd.testing.assert_frame_equal(first.players, second.players)


def test_the_same_tournament_twice_is_an_error():
    with pytest.raises(egf.SourceError, match="same tournament id 'egf:byes'"):
        egf.read_tables([HERE / "byes.h9", HERE / "byes.h9"], mapping=EMPTY_MAPPING)


def test_bad_arguments_name_the_argument(tmp_path):
    with pytest.raises(TypeError, match="paths must be a sequence of paths, got str"):
        egf.read_tables("byes.h9")
    with pytest.raises(ValueError, match="mapping must name an existing CSV file"):
        egf.read_tables([HERE / "byes.h9"], mapping=tmp_path / "missing.csv")


def test_patterns_recognise_table_files():
    names = ["a.h9", "b.h2", "c.egf", "D.H3", "d.txt", "e.rif", "f.h10", ".h9"]
    matched = [n for n in names if egf.NAME.match(n)]
    assert matched == ["a.h9", "b.h2", "c.egf", "D.H3"]


def test_a_directory_of_tables_through_read_source_and_select(tmp_path):
    import whr

    for name in ["byes.h9", "mismatch.h9", "forfeit_unknown.h9"]:
        (tmp_path / name).write_bytes((HERE / name).read_bytes())
    data = whr.read_source(tmp_path)
    rules = whr.rules.load_config(whr.rules.default_directory())
    selection = whr.select(data, as_of=dt.date(2025, 1, 1), config=rules)
    reasons = dict(
        zip(selection.exclusions["game_id"], selection.exclusions["reason"], strict=True)
    )
    # byes are byes; results by default were not played; mismatches and ? have no result
    assert reasons == {
        "egf:byes:r1:bye:3": "bye",
        "egf:byes:r2:bye:1": "bye",
        "egf:byes:r3:bye:1": "bye",
        "egf:byes:r3:bye:2": "bye",
        "egf:byes:r3:bye:3": "bye",
        "egf:forfeit_unknown:r1:1-2": "forfeit",
        "egf:forfeit_unknown:r2:1-3": "no_result",
        "egf:mismatch:r1:1-2": "no_result",
        "egf:mismatch:r2:1-3": "no_result",
        "egf:mismatch:r3:1-4": "no_result",
        "egf:mismatch:r3:2-4": "no_result",
    }
    assert len(selection.rated) == len(data.games) - len(reasons)
    assert selection.counts.byes == 5


def test_a_broken_entry_in_the_last_round_is_an_error_with_its_line(tmp_path):
    path = tmp_path / "t.h9"
    path.write_text(
        "; DT[2020-01-01]\n 1 A A 1d EE Tall 1 2+/b0\n 2 B B 1d EE Tall 0 1--w0\n",
        encoding="utf-8",
    )
    with pytest.raises(egf.SourceError, match=r"line 3: '1--w0' is not a round entry"):
        egf.read_table(path, mapping=EMPTY_MAPPING)


def test_a_printed_place_other_than_the_line_position_is_a_warning(tmp_path):
    path = tmp_path / "t.h9"
    path.write_text(
        "; DT[2020-01-01]\n 1 A A 1d EE Tall 1 2=/b0\n 1 B B 1d EE Tall 0 1=/w0\n",
        encoding="utf-8",
    )
    data = egf.read_table(path, mapping=EMPTY_MAPPING)
    assert codes(data, "egf_place") == ["line 3"]
    assert data.games["result"].tolist() == [0.5]  # still read by position


def test_a_broken_short_entry_is_an_error_not_a_tie_break(tmp_path):
    # round 1 is all short entries that pair up, except one broken value on line 4
    path = tmp_path / "t.h9"
    path.write_text(
        "; DT[2020-01-01]\n"
        " 1 A A 1d EE Tall 2 2+ 3+\n"
        " 2 B B 1d EE Tall 1 1- 4+\n"
        " 3 C C 1d EE Tall 1 4x 1-\n"
        " 4 D D 1d EE Tall 0 3- 2-\n",
        encoding="utf-8",
    )
    with pytest.raises(egf.SourceError, match=r"line 4: '4x' is not a round entry"):
        egf.read_table(path, mapping=EMPTY_MAPPING)


def test_a_tie_break_column_of_entry_like_values_is_not_a_round(tmp_path):
    # the SOS column reads 2?, 3?, 4?, 9: short entries on three lines, but no two lines name
    # each other in it, so it is a tie-break column and the table has one round
    path = tmp_path / "t.h9"
    path.write_text(
        "; DT[2020-01-01]\n"
        " 1 A A 1d EE Tall 2? 2+/b0\n"
        " 2 B B 1d EE Tall 3? 1-/w0\n"
        " 3 C C 1d EE Tall 4? 4+/b0\n"
        " 4 D D 1d EE Tall 9  3-/w0\n",
        encoding="utf-8",
    )
    data = egf.read_table(path, mapping=EMPTY_MAPPING)
    assert sorted(data.games["game_id"]) == ["egf:t:r1:1-2", "egf:t:r1:3-4"]


# -- the EGF format's own example: Maribor 1997, dated only in a comment --------------------

MARIBOR_FACTS = "tournament_id,minutes,mode,note,start,end\n"


def _maribor(tmp_path: Path, facts: str | None) -> Path:
    (tmp_path / "maribor1997.h9").write_bytes((HERE / "maribor1997.h9").read_bytes())
    if facts is not None:
        (tmp_path / "tournament_facts.csv").write_text(facts, encoding="utf-8")
    return tmp_path


def test_maribor_without_a_date_says_which_facts_line_to_add(tmp_path):
    import whr

    data = whr.read_source(_maribor(tmp_path, None))
    assert len(data.games) == 60  # 24 players, 5 rounds, no bye
    found = data.problems.query("code == 'egf_bad_date'")
    assert found["locator"].tolist() == ["header DT"]
    message = found["message"].item()
    assert "the line 'egf:maribor1997,,,,YYYY-MM-DD,YYYY-MM-DD'" in message
    assert "under the header 'tournament_id,minutes,mode,note,start,end'" in message
    rules = whr.rules.load_config(whr.rules.default_directory())
    selection = whr.select(data, as_of=dt.date(2025, 1, 1), config=rules)
    assert selection.rated.empty
    assert set(selection.exclusions["reason"]) == {"unknown_date"}
    assert "'egf:maribor1997,,,,YYYY-MM-DD,YYYY-MM-DD'" in selection.exclusions["message"].iloc[0]


def test_maribor_with_the_facts_line_is_dated_and_rated(tmp_path):
    import whr

    line = "egf:maribor1997,,,from the table's comment,1997-09-20,1997-09-21\n"
    data = whr.read_source(_maribor(tmp_path, MARIBOR_FACTS + line))
    tournament = data.tournaments.set_index("tournament_id").loc["egf:maribor1997"]
    assert (tournament["start"], tournament["end"]) == (dt.date(1997, 9, 20), dt.date(1997, 9, 21))
    assert tournament["minutes"] == 75.0  # ";time=75+b": the table's own, not replaced
    assert set(data.games["date"]) == {dt.date(1997, 9, 21)}
    assert data.problems.query("source == 'tournament_facts.csv'").empty
    rules = whr.rules.load_config(whr.rules.default_directory())
    selection = whr.select(data, as_of=dt.date(2025, 1, 1), config=rules)
    assert len(selection.rated) == 60 and selection.exclusions.empty
    # the table's first line, Matoh Leon, won his five games ("7+ 5+ 3+ 2+ 6+")
    leon = new_id("matoh leon", "SI")
    games = selection.rated.loc[
        (selection.rated["black"] == leon) | (selection.rated["white"] == leon)
    ]
    scores = games["result"].where(games["black"] == leon, 1.0 - games["result"])
    assert scores.tolist() == [1.0] * 5


# -- no invented rated flag: a table is confirmed only by the maintainers --------------------

ONLINE_2020 = (
    "; EV[Online Cup 2020]\n; CL[D]\n; DT[2020-05-02]\n; TM[20]\n; HA[h7]\n"
    " 1 A A 1d EE Tall 2 2+/b0 3+/w0\n"
    " 2 B B 1d EE Tall 1 1-/w0 4+/b0\n"
    " 3 C C 1d EE Tall 1 4+/b0 1-/b0\n"
    " 4 D D 1d EE Tall 0 3-/w0 2-/w0\n"
)


def _online_2020(tmp_path: Path, facts: str | None = None):
    import whr

    (tmp_path / "cup.h9").write_text(ONLINE_2020, encoding="utf-8")
    if facts is not None:
        (tmp_path / "tournament_facts.csv").write_text(facts, encoding="utf-8")
    return whr.read_source(tmp_path / "cup.h9")


def _select(data, strict=False, category="renju", **overrides):
    import dataclasses
    from types import MappingProxyType

    import whr

    rules = whr.rules.load_config(whr.rules.default_directory())
    rules = dataclasses.replace(rules, **{k: MappingProxyType(v) for k, v in overrides.items()})
    return whr.select(data, dt.date(2025, 1, 1), category, strict, config=rules)


def test_an_unconfirmed_table_is_a_tournament_whose_facts_are_missing(tmp_path):
    """An online 2020 table with handicaps (HA[h7], ignored): before, the reader's invented flag
    rated it whole even in strict mode."""
    import whr

    data = _online_2020(tmp_path)
    assert data.tournaments["rated"].isna().all()
    default = _select(data)
    assert len(default.rated) == 4 and default.counts.unverified == 4
    warning = default.warnings.query("code == 'unverified'")
    assert warning["locator"].tolist() == ["tournament=egf:cup"]
    assert "4 games rated without a rated flag; not known: whether the RIF rates it" in (
        warning["message"].item()
    )
    needed = whr.rules.facts_needed(default)
    assert needed["tournament_id"].tolist() == ["egf:cup"] and needed["games"].tolist() == [4]
    strict = _select(data, strict=True)
    assert strict.rated.empty
    assert set(strict.exclusions["reason"]) == {"unverified"}
    assert "no maintainer confirmed it" in strict.exclusions["message"].iloc[0]


def test_a_table_is_confirmed_by_rated_tournaments_or_a_facts_line(tmp_path):
    import whr

    data = _online_2020(tmp_path)
    forced = _select(data, strict=True, rated_tournaments={"egf:cup": "confirmed"})
    assert len(forced.rated) == 4 and forced.counts.unverified == 0
    assert whr.rules.facts_needed(forced).empty
    # a line of the facts beside the table confirms it (here with its category)
    header = "tournament_id,minutes,mode,note,category\n"
    confirmed = _online_2020(tmp_path, header + "egf:cup,,,the federation's word,\n")
    assert confirmed.tournaments["rated"].tolist() == [True]
    assert len(_select(confirmed, strict=True).rated) == 4
    gomoku = _online_2020(tmp_path, header + "egf:cup,,,,gomoku\n")
    assert gomoku.tournaments["category"].tolist() == ["gomoku"]
    assert set(_select(gomoku).exclusions["reason"]) == {"out_of_category"}
    assert len(_select(gomoku, strict=True, category="gomoku").rated) == 4
    bad = _online_2020(tmp_path, header + "egf:cup,,,,chess\n")
    assert bad.problems.query("code == 'bad_value'")["message"].str.contains("chess").all()
    assert bad.tournaments["category"].tolist() == ["renju"]  # renju when not given


# -- handicap games: read from each entry, never rated ----------------------------------------


def test_each_game_keeps_its_handicap_from_the_entries(tmp_path):
    path = tmp_path / "h.h9"
    path.write_text(
        "; DT[2024-05-12]\n"
        " 1 A A 1d EE Tall 2+/b7 3+/w   4+\n"  # 7 stones; none given; the short form
        " 2 B B 1d EE Tall 1-/w7 4+/b0  3+\n"
        " 3 C C 1d EE Tall 4+/b2 1-/b   2-\n"  # 2 stones on one side, 3 on the other
        " 4 D D 1d EE Tall 3-/w3 2-/w0  1-\n",
        encoding="utf-8",
    )
    data = egf.read_table(path, mapping=EMPTY_MAPPING)
    handicap = {
        g["game_id"].rsplit(":", 2)[1] + ":" + g["game_id"].rsplit(":", 1)[1]: g["handicap"]
        for g in data.games.to_dict("records")
    }
    assert handicap["r1:1-2"] == 7 and handicap["r2:2-4"] == 0
    assert pd.isna(handicap["r2:1-3"]) and pd.isna(handicap["r3:1-4"])  # not given
    assert handicap["r1:3-4"] == 3  # the entries differ: a mismatch, the larger kept
    (message,) = data.problems.query("code == 'egf_mismatch'")["message"]
    assert "handicaps 2 and 3 differ" in message and "'4+/b2'" in message


# A real table with handicaps: OpenGotha's example export exportfiles/ioct_20_02.h9 (an online
# 2020 tournament; repository lucvannier/opengotha, commit b698ce830fea), stored as published.
IOCT = "ioct_20_02.h9"
# Another: exportfiles/Tournoi de Juvisy.h9 (2019, face to face, ISO-8859-15 names and byes;
# the same repository, commit 51fabb28235445f2ce47fd6397b4145951c5a672).
JUVISY = "Tournoi de Juvisy.h9"


@pytest.mark.parametrize("strict", [False, True])
def test_a_real_online_table_rates_only_its_even_game(strict):
    # 6 games: 3+/b7 4+/w2 2+/w2 (line 1), 3+/b9, 3-/b9 ...: 5 with 2 to 9 stones, one even
    # (2-4 in round 1, 4+/w0 | 2-/b0); the default mode rated all 6 before
    data = read(IOCT)
    assert sorted(data.games["handicap"].tolist()) == [0, 2, 2, 7, 9, 9]
    selection = _select(data, strict=strict)
    excluded = selection.exclusions.set_index("game_id")["reason"]
    handicapped = excluded[excluded == "handicap"].index
    assert sorted(handicapped) == [
        "egf:ioct_20_02:r1:1-3",
        "egf:ioct_20_02:r2:1-4",
        "egf:ioct_20_02:r2:2-3",
        "egf:ioct_20_02:r3:1-2",
        "egf:ioct_20_02:r3:3-4",
    ]
    even = "egf:ioct_20_02:r1:2-4"
    if strict:  # no maintainer confirmed the table: its even game waits on that
        assert selection.rated.empty and excluded[even] == "unverified"
    else:
        assert selection.rated["game_id"].tolist() == [even]
    messages = selection.exclusions.set_index("game_id")["message"]
    assert messages["egf:ioct_20_02:r1:1-3"] == (
        "played with a handicap of 7 stones; a handicap game is not a game under a rule "
        "certified by the RIF"
    )
    confirmed = _select(data, strict=True, rated_tournaments={"egf:ioct_20_02": "confirmed"})
    assert confirmed.rated["game_id"].tolist() == [even]


def test_a_real_face_to_face_table_rates_its_even_games_and_no_handicap_game():
    data = read(JUVISY)
    assert len(data.games) == 40 and int(data.games["bye"].sum()) == 4  # 19 players, 4 rounds
    selection = _select(data)
    reasons = selection.exclusions["reason"].value_counts().to_dict()
    assert reasons == {"handicap": 19, "bye": 4}
    games = data.games.set_index("game_id")
    assert (games.loc[selection.rated["game_id"], "handicap"] == 0).all()
    assert len(selection.rated) == 17
    assert selection.counts.by_reason.set_index("reason").loc["handicap", "games"] == 19
