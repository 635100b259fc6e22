"""facts_needed: the tournaments maintainers must fill in, ready for tournament_facts.csv."""

from __future__ import annotations

import datetime as dt

import pytest
from rules_helpers import AS_OF, game, make_data, modern, rules_dir, run, tournament

from whr.rules import facts_needed, load_config
from whr.sources.facts import read_facts
from whr.tables import FACTS_NEEDED


def data():
    tours = [
        modern("20", minutes=None, mode=None, end=dt.date(2024, 3, 3), city="Riga"),
        modern("3", minutes=None, end=dt.date(2024, 3, 3)),  # same day: ids by value
        modern("known"),  # nothing missing
        modern("flagless", minutes=None, rated=False),  # the flag keeps it out anyway
        modern("short", minutes=20.0, mode=None),  # a known fact already keeps it out
        tournament("old", minutes=None, mode=None),  # before 2021-08-08: the flag decides
    ]
    games = [
        game("a", tournament_id="20"),
        game("b", tournament_id="20", black="p3", white="p4"),
        game("c", tournament_id="20", forfeit=True),  # out whatever the facts
        game("d", tournament_id="3"),
        game("e", tournament_id="known"),
        game("f", tournament_id="flagless"),
        game("g", tournament_id="short"),
        game("h", tournament_id="old"),
    ]
    return make_data(games, tours)


@pytest.mark.parametrize("strict", [False, True])
def test_the_tournaments_whose_facts_would_change_a_verdict(strict):
    sel = run(data(), as_of=AS_OF, strict=strict)
    needed = facts_needed(sel)
    assert list(needed.columns) == FACTS_NEEDED.names
    assert needed["tournament_id"].tolist() == ["3", "20"]
    assert needed["games"].tolist() == [1, 2]
    assert needed.loc[1, "city"] == "Riga" and needed.loc[1, "end"] == dt.date(2024, 3, 3)
    assert needed[["minutes", "mode", "note"]].isna().all().all()
    assert sel.counts.waiting_on_facts == 3


def test_in_the_older_reading_an_unflagged_tournament_waits_on_its_facts(tmp_path):
    toml = (rules_dir(tmp_path) / "eligibility.toml").read_text(encoding="utf-8")
    older = toml.replace("require_rated_flag = true", "require_rated_flag = false")
    (tmp_path / "older").mkdir()
    config = load_config(rules_dir(tmp_path / "older", eligibility__toml=older))
    needed = facts_needed(run(data(), as_of=AS_OF, config=config))
    assert needed["tournament_id"].tolist() == ["3", "20", "flagless"]  # by end date
    assert needed["games"].tolist() == [1, 2, 1]


def test_filled_in_it_is_a_facts_file_and_settles_them(tmp_path):
    needed = facts_needed(run(data(), as_of=AS_OF))
    filled = needed.assign(minutes=[60.0, 45.0], mode=["face_to_face", "online_supervised"])
    path = tmp_path / "rules" / "tournament_facts.csv"
    rules = rules_dir(tmp_path)
    filled.to_csv(path, index=False)
    assert read_facts(path).problems.empty  # extra columns ignored, dates equal the source's
    sel = run(data(), as_of=AS_OF, strict=True, config=load_config(rules))
    assert facts_needed(sel).empty
    assert {"a", "b", "d"} <= set(sel.rated["game_id"])
    assert "unverified" not in set(sel.exclusions["reason"])


def test_bad_argument():
    with pytest.raises(TypeError, match="selection must be a whr.rules.Selection"):
        facts_needed(data())
