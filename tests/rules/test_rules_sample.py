"""select() on the bundled synthetic sample: properties checked independently of the masks."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest

import whr
from whr.rules import certified_name, default_directory, load_config, select

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
AS_OF = dt.date(2026, 11, 30)  # the sample database's date

pytestmark = pytest.mark.skipif(
    not (SAMPLE / "renjunet_v10_20261130.rif").is_file(), reason="no bundled sample yet"
)


@pytest.fixture(scope="module")
def data():
    return whr.read_source(SAMPLE)  # applies the sample's own tournament_facts.csv


@pytest.fixture(scope="module", params=[False, True], ids=["default", "strict"])
def sel(request, data):
    config = load_config(default_directory())
    return select(data, as_of=AS_OF, strict=request.param, config=config)


def test_nothing_is_lost(data, sel):
    assert len(sel.rated) + len(sel.exclusions) == len(data.games)
    ids = pd.concat([sel.rated["game_id"], sel.exclusions["game_id"]])
    assert sorted(ids) == sorted(data.games["game_id"])


def test_every_rated_game_obeys_the_rules(data, sel):
    config = sel.config
    tours = data.tournaments.drop_duplicates("tournament_id").set_index("tournament_id")
    tours = tours.to_dict("index")
    players = set(data.players["player_id"])
    rated = sel.rated
    assert rated["game_id"].is_unique
    for g in rated.itertuples(index=False):
        t = tours[g.tournament_id]
        assert g.result in (0.0, 0.5, 1.0)
        assert not g.forfeit and not g.unrated and not g.bye
        assert pd.isna(g.note) or g.note.lower() not in ("forfeit", "walk-over", "bye")
        assert g.black in players and g.white in players and g.black != g.white
        assert g.date is not None and config.first_rated_day <= g.date <= AS_OF
        assert t["category"] == "renju" and t["type"] == 0
        assert pd.isna(t["end"]) or t["end"] <= AS_OF
        assert t["rated"], g.game_id  # every era: the RIF's flag (no rated_tournaments here)
        end = t["end"] if not pd.isna(t["end"]) else g.date
        if end < config.cutover:
            continue
        assert certified_name(t["rule"], config.certified_rules) is not None, t["rule"]
        minutes, mode = t["minutes"], t["mode"]  # the sample's facts, read with the database
        if sel.strict:
            assert minutes >= 30 and mode in ("face_to_face", "online_supervised")
            assert g.moves > 0
        elif not (pd.isna(minutes) or pd.isna(mode) or pd.isna(g.moves)):
            assert minutes >= 30 and mode in ("face_to_face", "online_supervised") and g.moves > 0


def test_the_sample_forfeit_notes_are_out_and_split_from_byes(data, sel):
    notes = data.games.set_index("game_id")["note"].dropna()
    excluded = sel.exclusions.set_index("game_id")["reason"]
    for game_id, note in notes.items():
        expected = {"bye": "bye", "forfeit": "forfeit", "walk-over": "forfeit"}.get(note.lower())
        if note == "won by default":
            expected = "forfeit"
        if expected:
            assert excluded.get(game_id) in (expected, "duplicate_game", "out_of_category")


def test_problems_found_by_the_reader_are_excluded(data, sel):
    # The sample contains one game id entered twice, and games naming unknown players.
    reasons = sel.exclusions["reason"]
    assert (reasons == "duplicate_game").sum() == data.games["game_id"].duplicated().sum() == 1
    unknown = data.games["black"].isna() | data.games["white"].isna()
    unknown &= ~data.games["bye"].astype("boolean").fillna(False).to_numpy(bool)
    assert unknown.sum() > 0
    assert (reasons == "unknown_player").sum() <= unknown.sum()
