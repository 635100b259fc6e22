"""Game notes: forfeits and byes are out, adjourned games stay (RIF qualification system 1996,
section 4), with the phrases of whr/data/rules/game_notes.toml.

The notes below are written as tournament records and referees write them; each one was chosen
by hand for what the rules say about it, not taken from the patterns.
"""

from __future__ import annotations

import pandas as pd
import pytest
from rules_helpers import AS_OF, RULES, game, make_data, rules_dir, run

from whr.rules import ConfigError, load_config
from whr.rules.notes import classify_notes

NOT_PLAYED = [
    "forfeit",
    "Forfeited by White",
    "Black won by forfeit",
    "walk over",  # as the 1996 rules write it
    "Walk-over",
    "walkover",
    "w/o",
    "W.O.",
    "won by default",
    "Lost by default - did not arrive",
    "default loss",
    "game not played",
    "never played, result entered by the organiser",
    "no-show",
    "White did not appear",
    "不戦勝",  # Japanese fusen-shō: a win without play
    "白方弃权",  # Chinese: White forfeits
    "неявка",  # Russian: a no-show
    "победа без игры",  # Russian: a win without play
    "техническое поражение",  # Russian: a technical (forfeit) defeat
]

BYES = ["bye", "BYE", "Bye (odd number of players)", "free win", "free round", "轮空"]

PLAYED = [
    # Section 4: the continuation of an adjourned game not attended: played for both.
    "adjourned; White did not appear for the resumption, Black won by default",
    "Adjourned game - opponent absent at resumption, forfeit",
    "White did not come for the continuation, win by default",
    "sealed move; Black did not show up after the break",
    "封盘后白方未到场，判负",  # Chinese: after the break White did not come, loses
    "отложенная партия, соперник не явился на доигрывание",  # Russian: adjourned, no-show
    # A loss on time is a game played.
    "White forfeited on time",
    "time forfeit at move 38",
    "проиграл по времени",  # Russian: lost on time
]

SILENT = ["B=1245", "time trouble", "record incomplete", "byebye", "defaulted opening", ""]


@pytest.mark.parametrize("note", NOT_PLAYED)
def test_walk_overs_and_games_never_played_are_forfeits(note):
    sel = run(make_data([game("x", note=note, moves=0)]), as_of=AS_OF)
    assert list(sel.exclusions["reason"]) == ["forfeit"]
    message = sel.exclusions["message"].iloc[0]
    assert message.startswith("not played in reality, as its note says: '")
    assert message.endswith("(RIF qualification system 1996, section 4)")


@pytest.mark.parametrize("note", BYES)
def test_byes_by_note(note):
    sel = run(make_data([game("x", note=note)]), as_of=AS_OF)
    assert list(sel.exclusions["reason"]) == ["bye"]
    assert sel.counts.byes == 1


@pytest.mark.parametrize("note", PLAYED + SILENT)
def test_adjourned_games_time_losses_and_other_notes_are_rated(note):
    sel = run(make_data([game("x", note=note)]), as_of=AS_OF)
    assert list(sel.rated["game_id"]) == ["x"]


def test_the_verdicts_in_one_pass():
    notes = pd.Series(["forfeit", None, "adjourned, won by default", "bye", "B=1245"])
    got = classify_notes(notes, RULES.note_patterns)
    assert got.tolist() == ["not_played", "", "played", "bye", ""]


def test_a_source_forfeit_mark_stays_a_forfeit_whatever_the_note():
    sel = run(make_data([game("x", forfeit=True, note="B=1245")]), as_of=AS_OF)
    assert list(sel.exclusions["reason"]) == ["forfeit"]
    assert "the source marks it" in sel.exclusions["message"].iloc[0]


def test_the_message_quotes_the_phrase_never_the_whole_note():
    note = "Player 2 was ill; walkover given by the chief referee J. Smith"
    message = run(make_data([game("x", note=note)]), as_of=AS_OF).exclusions["message"].iloc[0]
    assert "'walkover'" in message and "Smith" not in message


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ('[[played]]\npattern = "("\n', r"\[\[played\]\] number 1: bad pattern"),
        ("[[walkover]]\npattern = 'x'\n", r"unknown lists \['walkover'\]"),
        ("[[bye]]\nexamples = ['bye']\n", r"needs a 'pattern' string"),
        ("[[bye]]\npattern = 'bye'\nexamples = ['free win']\n", "does not find its own example"),
        (
            "[[played]]\npattern = 'won'\n[[not_played]]\npattern = 'default'\n"
            "examples = ['won by default']\n",
            r"the example 'won by default' of \[\[not_played\]\] is read as 'played'",
        ),
    ],
)
def test_bad_note_files_say_what_to_fix(tmp_path, content, match):
    with pytest.raises(ConfigError, match=match):
        load_config(rules_dir(tmp_path, game_notes__toml=content))
