"""One test per reason code: the target game "x" gets exactly that code, the control game is rated."""

from __future__ import annotations

import datetime as dt

import pytest
from rules_helpers import AS_OF, RULES, game, make_data, modern, rules_dir, run, tournament

from whr.rules import REASONS, load_config


def control() -> tuple[dict, dict]:
    """A game that every case leaves rated, in its own clean tournament "t0"."""
    return game("ok", tournament_id="t0", black="p3", white="p4"), tournament("t0")


def build(code: str, tmp_path):
    """(data, config, strict) for a case whose game "x" must be excluded with ``code``."""
    ok_game, ok_tour = control()
    config, strict = RULES, False
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
    elif code == "bye":
        games = [game("x", white=None, bye=True)]
    elif code == "forfeit":
        games = [game("x", forfeit=True)]
    elif code == "handicap":
        games = [game("x", handicap=7)]
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
    elif code == "before_rated_era":
        tours.append(tournament("t2", end=dt.date(201, 5, 1)))  # 0201 for 2019
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
    sel = run(data, as_of=AS_OF, strict=strict, config=config)
    assert list(sel.exclusions["game_id"]) == ["x"]
    assert list(sel.exclusions["reason"]) == [code]
    assert sel.exclusions["message"].str.len().iloc[0] > 0
    assert "ok" in set(sel.rated["game_id"])
    assert sel.counts.by_reason.set_index("reason").loc[code, "games"] == 1


def test_duplicate_keeps_the_first_copy():
    data = make_data([game("x", result=1.0), game("x", result=0.0)])
    sel = run(data, as_of=AS_OF)
    assert list(sel.rated["result"]) == [1.0]
    assert list(sel.exclusions["reason"]) == ["duplicate_game"]


def test_unknown_tournament_without_id():
    sel = run(make_data([game("x", tournament_id=None)]), as_of=AS_OF)
    assert list(sel.exclusions["reason"]) == ["unknown_tournament"]
    assert "names no tournament" in sel.exclusions["message"].iloc[0]
    # Counted under a null tournament id, so read = rated + excluded still holds there.
    row = sel.counts.by_tournament.set_index("tournament_id", drop=False)
    assert row["read"].sum() == 1


def test_a_bye_is_a_bye_not_a_forfeit_nor_an_unknown_player():
    bye = game("x", white=None, result=1.0, bye=True)  # an EGF "0+": a free win
    sel = run(make_data([bye, game("y")]), as_of=AS_OF)
    assert list(sel.exclusions["reason"]) == ["bye"]
    assert sel.exclusions["message"].iloc[0] == "a bye: a round without a game, not a game"
    assert sel.counts.byes == 1
    assert "1 are byes" in sel.counts.report()


@pytest.mark.parametrize("strict", [False, True])
def test_a_handicap_game_is_never_rated_and_an_even_one_is(strict):
    # whatever the mode; 0 stones and no handicap recorded (RenjuNet) are even games
    games = [game("h1", handicap=1), game("h9", handicap=9), game("e0", handicap=0), game("n")]
    sel = run(make_data(games), as_of=AS_OF, strict=strict)
    messages = dict(zip(sel.exclusions["game_id"], sel.exclusions["message"], strict=True))
    assert set(sel.exclusions["reason"]) == {"handicap"}
    assert messages == {
        "h1": "played with a handicap of 1 stone; a handicap game is not a game under a rule "
        "certified by the RIF",
        "h9": "played with a handicap of 9 stones; a handicap game is not a game under a rule "
        "certified by the RIF",
    }
    assert sorted(sel.rated["game_id"]) == ["e0", "n"]


def test_result_outside_the_scale_is_no_result():
    sel = run(make_data([game("x", result=2.0)]), as_of=AS_OF)
    assert list(sel.exclusions["reason"]) == ["no_result"]
    assert "2.0" in sel.exclusions["message"].iloc[0]


def test_unknown_player_names_the_missing_side():
    data = make_data([game("x", black=None), game("y", white="p9")])
    sel = run(data, as_of=AS_OF)
    messages = dict(zip(sel.exclusions["game_id"], sel.exclusions["message"], strict=True))
    assert set(sel.exclusions["reason"]) == {"unknown_player"}
    assert messages["x"] == "black is unknown"
    assert "'p9'" in messages["y"]


def test_gomoku_list_takes_the_gomoku_games():
    tours = [tournament("r"), tournament("g", rule="Swap2", category="gomoku")]
    data = make_data([game("a", tournament_id="r"), game("b", tournament_id="g")], tours)
    renju = run(data, as_of=AS_OF, category="renju")
    gomoku = run(data, as_of=AS_OF, category="gomoku")
    assert list(renju.rated["game_id"]) == ["a"]
    assert list(gomoku.rated["game_id"]) == ["b"]
    assert list(gomoku.exclusions["reason"]) == ["out_of_category"]


def test_unknown_category_is_out_of_scope():
    data = make_data([game("x")], [tournament(rule="Mystery", category=None)])
    sel = run(data, as_of=AS_OF)
    assert list(sel.exclusions["reason"]) == ["out_of_category"]
    assert "no known category" in sel.exclusions["message"].iloc[0]


def test_precedence_first_reason_wins():
    # Forfeit, no result, unknown player and self-play all apply; forfeit comes first in REASONS.
    data = make_data([game("x", forfeit=True, result=None, black="p9", white="p9")])
    assert list(run(data, as_of=AS_OF).exclusions["reason"]) == ["forfeit"]
    # Modern tournament, rule and minutes both fail: the rule is tested first.
    data = make_data([game("y")], [modern(rule="Swap2", minutes=10.0)])
    assert list(run(data, as_of=AS_OF).exclusions["reason"]) == ["rule_not_certified"]


def test_game_on_the_as_of_date_counts():
    data = make_data([game("x")], [tournament(end=AS_OF)])
    assert list(run(data, as_of=AS_OF).rated["game_id"]) == ["x"]


def test_only_dates_that_cannot_be_right_are_wrong_and_later_games_are_only_later():
    tours = [
        tournament("typo", end=dt.date(201, 5, 1)),  # 0201-05-01, meant 2019-05-01
        tournament("one", end=dt.date(1, 1, 1)),
        tournament("1898", end=dt.date(1898, 12, 31)),  # before the game's modern rules
        tournament("1899", end=dt.date(1899, 1, 1)),  # the first day a game can be rated: fine
        tournament("1975", end=dt.date(1975, 6, 1)),  # flagged rated: rated whatever its year
        tournament("future", end=dt.date(2091, 5, 1), start=dt.date(2091, 5, 1)),
        modern("running", start=dt.date(2026, 11, 28), end=dt.date(2026, 12, 2)),
    ]
    games = [
        game("a", tournament_id="typo"),
        game("b", tournament_id="typo", black="p3", white="p4"),
        game("c", tournament_id="one"),
        game("g", tournament_id="1898"),
        game("d", tournament_id="1899"),
        game("h", tournament_id="1975"),
        game("e", tournament_id="future"),
        game("f", tournament_id="running"),  # dated by the running tournament's last day
    ]
    sel = run(make_data(games, tours), as_of=AS_OF)
    got = dict(zip(sel.exclusions["game_id"], sel.exclusions["reason"], strict=True))
    assert got == {
        "a": "before_rated_era",
        "b": "before_rated_era",
        "c": "before_rated_era",
        "g": "before_rated_era",
        "e": "after_as_of",
        "f": "after_as_of",
    }
    assert list(sel.rated["game_id"]) == ["d", "h"]
    warned = sel.warnings.loc[sel.warnings["code"] == "implausible_date"].set_index("locator")
    # games after the list date are later, not wrong: no warning to fix the source
    assert sorted(warned.index) == ["tournament=1898", "tournament=one", "tournament=typo"]
    message = warned.loc["tournament=typo", "message"]
    assert message.startswith("2 games dated 0201-05-01, before any game can be rated (1899-01-01)")
    assert (warned["source"] == "test").all()
    later = sel.exclusions.set_index("game_id").loc["e", "message"]
    assert (
        later
        == "played 2091-05-01, after the as-of date 2026-11-30: a later game, for a later list"
    )
    assert sel.counts.by_reason.set_index("reason").at["after_as_of", "games"] == 2


def test_an_undated_game_says_which_facts_line_to_add():
    data = make_data([game("x")], [tournament(start=None, end=None)])
    message = run(data, as_of=AS_OF).exclusions["message"].iloc[0]
    assert "the line 't1,,,,YYYY-MM-DD,YYYY-MM-DD'" in message
    assert "'tournament_id,minutes,mode,note,start,end'" in message
