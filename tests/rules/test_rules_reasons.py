"""One test per reason code: the target game "x" gets exactly that code, the control game is rated."""

from __future__ import annotations

import datetime as dt

import pytest
from rules_helpers import AS_OF, NEW_END, game, make_data, modern, rules_dir, tournament

import whr
from whr.rules import REASONS, load_config


def control() -> tuple[dict, dict]:
    """A game that every case leaves rated, in its own clean tournament "t0"."""
    return game("ok", tournament_id="t0", black="p3", white="p4"), tournament("t0")


def build(code: str, tmp_path):
    """(data, config, strict) for a case whose game "x" must be excluded with ``code``."""
    ok_game, ok_tour = control()
    config, strict = None, False
    tours = [ok_tour, tournament("t1")]
    if code == "duplicate_game":
        games = [game("x"), game("x", result=0.0)]
    elif code == "unknown_tournament":
        games = [game("x", tournament_id="nowhere")]
    elif code == "out_of_category":
        tours.append(tournament("t2", rule="Swap2", category="gomoku"))
        games = [game("x", tournament_id="t2")]
    elif code == "override_game":
        config = load_config(rules_dir(tmp_path, unrated_games="x  # not played: both absent\n"))
        games = [game("x")]
    elif code == "override_tournament":
        config = load_config(rules_dir(tmp_path, unrated_tournaments="t1 # results incomplete\n"))
        games = [game("x")]
    elif code == "forfeit":
        games = [game("x", forfeit=True)]
    elif code == "unrated_game":
        games = [game("x", unrated=True)]
    elif code == "no_result":
        games = [game("x", result=None)]
    elif code == "unknown_player":
        games = [game("x", black="p9")]
    elif code == "self_play":
        games = [game("x", black="p1", white="p1")]
    elif code == "unknown_date":
        tours.append(tournament("t2", end=None, start=None))
        games = [game("x", tournament_id="t2")]
    elif code == "after_as_of":
        tours.append(tournament("t2", end=dt.date(2026, 11, 20)))
        games = [game("x", tournament_id="t2", date=dt.date(2026, 12, 1))]
    elif code == "unfinished_tournament":
        tours.append(modern("t2", end=dt.date(2026, 12, 5)))
        games = [game("x", tournament_id="t2", date=dt.date(2026, 11, 29))]
    elif code == "tournament_type":
        tours.append(tournament("t2", type=2))
        games = [game("x", tournament_id="t2")]
    elif code == "rule_not_certified":
        tours.append(modern("t2", rule="Swap2"))
        games = [game("x", tournament_id="t2")]
    elif code == "too_short":
        tours.append(modern("t2", minutes=25.0))
        games = [game("x", tournament_id="t2")]
    elif code == "online_unsupervised":
        tours.append(modern("t2", mode="online"))
        games = [game("x", tournament_id="t2")]
    elif code == "no_moves":
        tours.append(modern("t2"))
        games = [game("x", tournament_id="t2", moves=0)]
    elif code == "not_rated":
        tours.append(tournament("t2", rated=False))
        games = [game("x", tournament_id="t2")]
    elif code == "unverified":
        tours.append(modern("t2", minutes=None))
        games = [game("x", tournament_id="t2")]
        strict = True
    else:
        raise AssertionError(f"no case for {code}")
    return make_data([ok_game, *games], tours), config, strict


@pytest.mark.parametrize("code", list(REASONS))
def test_reason_code(code, tmp_path):
    data, config, strict = build(code, tmp_path)
    sel = whr.rules.select(data, as_of=AS_OF, strict=strict, config=config)
    assert list(sel.exclusions["game_id"]) == ["x"]
    assert list(sel.exclusions["reason"]) == [code]
    assert sel.exclusions["message"].str.len().iloc[0] > 0
    assert "ok" in set(sel.rated["game_id"])
    assert sel.counts.by_reason.set_index("reason").loc[code, "games"] == 1


def test_duplicate_keeps_the_first_copy():
    data = make_data([game("x", result=1.0), game("x", result=0.0)])
    sel = whr.rules.select(data, as_of=AS_OF)
    assert list(sel.rated["result"]) == [1.0]
    assert list(sel.exclusions["reason"]) == ["duplicate_game"]


def test_unknown_tournament_without_id():
    sel = whr.rules.select(make_data([game("x", tournament_id=None)]), as_of=AS_OF)
    assert list(sel.exclusions["reason"]) == ["unknown_tournament"]
    assert "names no tournament" in sel.exclusions["message"].iloc[0]
    # Counted under a null tournament id, so read = rated + excluded still holds there.
    row = sel.counts.by_tournament.set_index("tournament_id", drop=False)
    assert row["read"].sum() == 1


def test_egf_bye_is_a_forfeit_not_an_unknown_player():
    bye = game("x", white=None, result=None, forfeit=True)
    sel = whr.rules.select(make_data([bye]), as_of=AS_OF)
    assert list(sel.exclusions["reason"]) == ["forfeit"]


def test_result_outside_the_scale_is_no_result():
    sel = whr.rules.select(make_data([game("x", result=2.0)]), as_of=AS_OF)
    assert list(sel.exclusions["reason"]) == ["no_result"]
    assert "2.0" in sel.exclusions["message"].iloc[0]


def test_unknown_player_names_the_missing_side():
    data = make_data([game("x", black=None), game("y", white="p9")])
    sel = whr.rules.select(data, as_of=AS_OF)
    messages = dict(zip(sel.exclusions["game_id"], sel.exclusions["message"], strict=True))
    assert set(sel.exclusions["reason"]) == {"unknown_player"}
    assert messages["x"] == "black is unknown"
    assert "'p9'" in messages["y"]


def test_gomoku_list_takes_the_gomoku_games():
    tours = [tournament("r"), tournament("g", rule="Swap2", category="gomoku")]
    data = make_data([game("a", tournament_id="r"), game("b", tournament_id="g")], tours)
    renju = whr.rules.select(data, as_of=AS_OF, category="renju")
    gomoku = whr.rules.select(data, as_of=AS_OF, category="gomoku")
    assert list(renju.rated["game_id"]) == ["a"]
    assert list(gomoku.rated["game_id"]) == ["b"]
    assert list(gomoku.exclusions["reason"]) == ["out_of_category"]


def test_unknown_category_is_out_of_scope():
    data = make_data([game("x")], [tournament(rule="Mystery", category=None)])
    sel = whr.rules.select(data, as_of=AS_OF)
    assert list(sel.exclusions["reason"]) == ["out_of_category"]
    assert "no known category" in sel.exclusions["message"].iloc[0]


def test_precedence_first_reason_wins():
    # Forfeit, no result, unknown player and self-play all apply; forfeit comes first in REASONS.
    data = make_data([game("x", forfeit=True, result=None, black="p9", white="p9")])
    assert list(whr.rules.select(data, as_of=AS_OF).exclusions["reason"]) == ["forfeit"]
    # Modern tournament, rule and minutes both fail: the rule is tested first.
    data = make_data([game("y")], [modern(rule="Swap2", minutes=10.0)])
    assert list(whr.rules.select(data, as_of=AS_OF).exclusions["reason"]) == ["rule_not_certified"]


def test_game_on_the_as_of_date_counts():
    data = make_data([game("x")], [tournament(end=AS_OF)])
    assert list(whr.rules.select(data, as_of=AS_OF).rated["game_id"]) == ["x"]


def test_modern_tournament_with_every_fact_known_is_rated_on_the_facts():
    # Rule 9 of 2021: tournaments meeting the conditions count, whatever the database's flag.
    data = make_data([game("x")], [modern(rated=False)])
    sel = whr.rules.select(data, as_of=AS_OF)
    assert list(sel.rated["game_id"]) == ["x"]
    assert sel.warnings.empty
    assert dt.date(2021, 8, 8) <= NEW_END
