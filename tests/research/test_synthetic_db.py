"""The synthetic RenjuNet generator: round trip through XML, determinism, the bundled sample."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest

import whr
from whr.research.synthetic_db import RULES, WHR_START, generate, main, write_renjunet
from whr.tables import MODES

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"


@pytest.mark.parametrize(("n_games", "seed"), [(1500, 0), (2500, 3), (150, 1)])
def test_generator_xml_reader_round_trip_gives_the_generators_tables(tmp_path, n_games, seed):
    db = generate(n_games, seed)
    path = write_renjunet(db, tmp_path / "renjunet_v10_20261130.rif")
    data = whr.read_source(path)
    expected = db.expected(path.name)
    pd.testing.assert_frame_equal(data.players, expected.players)
    pd.testing.assert_frame_equal(data.tournaments, expected.tournaments)
    pd.testing.assert_frame_equal(data.games, expected.games)
    # every unresolved reference the generator planted is reported, and nothing else
    codes = data.problems["code"]
    planted_players = int(
        expected.games["black"].isna().sum() + expected.games["white"].isna().sum()
    )
    assert (codes == "unknown_player").sum() == planted_players
    planted_tournaments = int(
        (~db.games["tournament_ref"].isin(db.tournaments["tournament_id"])).sum()
    )
    assert (codes == "unknown_tournament").sum() == planted_tournaments
    assert (codes == "bad_result").sum() == int(
        (~db.games["bresult"].isin(["1", "0.5", "0", ""])).sum()
    )
    assert (codes == "duplicate_id").sum() == int(db.games["game_id"].duplicated().sum())
    allowed = {"unknown_player", "unknown_tournament", "bad_result", "duplicate_id"}
    allowed |= {"date_order", "unknown_date"}
    assert set(codes) <= allowed


def test_larger_databases_plant_every_anomaly(tmp_path):
    db = generate(2500, 3)
    data = whr.read_source(write_renjunet(db, tmp_path / "x.rif"))
    assert {"unknown_player", "unknown_tournament", "bad_result", "duplicate_id"} <= set(
        data.problems["code"]
    )


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    a = write_renjunet(generate(400, 5), tmp_path / "a.rif").read_bytes()
    b = write_renjunet(generate(400, 5), tmp_path / "b.rif").read_bytes()
    c = write_renjunet(generate(400, 6), tmp_path / "c.rif").read_bytes()
    assert a == b
    assert a != c


def test_facts_cover_exactly_the_tournaments_of_the_2021_rules():
    db = generate(2500, 3)
    later = {
        t for t, end in zip(db.tournaments["tournament_id"], db.tournaments["end"], strict=True)
        if end is not None and not pd.isna(end) and end >= WHR_START
    }  # fmt: skip
    assert set(db.facts["tournament_id"]) == later
    assert set(db.facts["mode"]) <= set(MODES)
    assert (db.facts["minutes"] > 0).all()
    assert list(db.facts.columns) == ["tournament_id", "minutes", "mode", "note"]


def test_command_line_writes_database_and_facts(tmp_path, capsys):
    out = tmp_path / "renjunet_v10_20200131.rif"
    facts = tmp_path / "facts.csv"
    assert main(["--games", "300", "--seed", "2", "--out", str(out), "--facts", str(facts)]) == 0
    data = whr.read_source(tmp_path, as_of=dt.date(2020, 1, 31))
    assert len(data.games) == 301  # 300 games and one record entered twice
    assert data.games["date"].dropna().max() <= dt.date(2020, 1, 31)  # date from the file name
    assert list(pd.read_csv(facts).columns) == ["tournament_id", "minutes", "mode", "note"]
    assert "synthetic" in capsys.readouterr().out


# --- the bundled sample -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample():
    return whr.read_source(SAMPLE)


def test_sample_is_labelled_synthetic_and_small():
    path = SAMPLE / "renjunet_v10_20261130.rif"
    assert "SYNTHETIC DATA" in path.read_text(encoding="utf-8")[:400]
    assert path.stat().st_size < 3_000_000
    assert "synthetic" in (SAMPLE / "README.md").read_text(encoding="utf-8").lower()


def test_sample_reads_a_few_thousand_games(sample):
    assert [name for name, _ in sample.inputs] == [
        "renjunet_v10_20261130.rif",
        "tournament_facts.csv",
    ]
    assert 3000 <= len(sample.games) <= 10000
    assert not (sample.problems["severity"] == "error").all()  # some, but only planted ones
    assert sample.games["date"].dropna().max() <= dt.date(2026, 11, 30)


def test_sample_has_the_variety_the_pipeline_must_handle(sample):
    t, g, p = sample.tournaments, sample.games, sample.players
    certified = {name for _, name, _, ok in RULES if ok}
    assert {"renju", "gomoku"} <= set(t["category"].dropna())
    assert set(t["rule"].dropna()) - certified  # some rules are not certified
    assert (~t["rated"]).any() and (t["type"] != 0).any()
    assert t["name"].str.contains("Online").any() and t["name"].str.contains("Rapid").any()
    assert g["unrated"].any() and g["note"].str.contains("forfeit|Walk-over|bye").any()
    assert g["result"].isna().any()
    assert (g["black"] == g["white"]).any()  # a self-game
    assert g["black"].isna().any()  # a dangling player reference
    assert p["native_name"].notna().any()
    assert p["name"].map(lambda s: not s.isascii()).any()
    assert (t["start"] < t["end"]).any() and t["end"].isna().any()


def test_sample_facts_match_the_samples_recent_tournaments(sample):
    facts = pd.read_csv(SAMPLE / "tournament_facts.csv", dtype={"tournament_id": str})
    assert list(facts.columns) == ["tournament_id", "minutes", "mode", "note"]
    t = sample.tournaments
    recent = set(t.loc[t["end"].map(lambda d: d is not None and d >= WHR_START), "tournament_id"])
    assert set(facts["tournament_id"]) == recent
    assert set(facts["mode"]) == set(MODES)
    assert (facts["minutes"] < 30).any() and (facts["minutes"] >= 30).any()
