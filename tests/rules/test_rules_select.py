"""run(): eras, overrides, strict vs default, facts, counts and the invariant."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest
from rules_helpers import AS_OF, RULES, game, make_data, modern, rules_dir, run, tournament

import whr
from whr.rules import ConfigError, InvariantError, default_directory, load_config
from whr.rules.select import _check
from whr.tables import EXCLUSIONS, GAMES, PROBLEMS

CUTOVER = dt.date(2021, 8, 8)  # RIF rating rules 2021: in force from this day (rule 9)


def reasons(sel) -> dict[str, str]:
    return dict(zip(sel.exclusions["game_id"], sel.exclusions["reason"], strict=True))


# --- the era boundary ------------------------------------------------------------------------


def test_repository_rules_are_those_of_2021():
    config = load_config(default_directory())
    assert config.cutover == CUTOVER
    assert config.first_rated_day == dt.date(1899, 1, 1)  # the complete history is rated
    assert config.min_minutes == 30
    assert config.accepted_modes == {"face_to_face", "online_supervised"}
    assert config.require_rated_flag is True  # the flag is the federation's decision


def test_the_configuration_is_required():
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'config'"):
        whr.select(make_data([game("x")]), as_of=AS_OF)
    with pytest.raises(TypeError, match="directory must be a str or pathlib.Path"):
        load_config(None)


@pytest.mark.parametrize(
    ("end", "expected"),
    [(CUTOVER - dt.timedelta(days=1), None), (CUTOVER, "rule_not_certified")],
)
def test_era_boundary_on_rule(end, expected):
    # Rated by the database, rule Swap2, 10 minutes, online: the old era takes the flag's word.
    t = tournament(end=end, rule="Swap2", minutes=10.0, mode="online", rated=True)
    sel = run(make_data([game("x")], [t]), as_of=AS_OF)
    assert reasons(sel).get("x") == expected


def older_reading(tmp_path) -> whr.rules.EligibilityConfig:
    """The repository's rules with require_rated_flag = false (this project's older reading)."""
    toml = (default_directory() / "eligibility.toml").read_text(encoding="utf-8")
    assert "require_rated_flag = true" in toml
    older = toml.replace("require_rated_flag = true", "require_rated_flag = false")
    return load_config(rules_dir(tmp_path, eligibility__toml=older))


@pytest.mark.parametrize("end", [CUTOVER - dt.timedelta(days=1), CUTOVER])
def test_a_tournament_without_the_flag_is_not_rated_in_either_era(end):
    # Every 2021 fact known and passing, but the database does not mark it rated: the RIF's
    # site rates flagged tournaments only, and rule 9's conditions do not replace the flag.
    t = modern(end=end, rated=False)
    sel = run(make_data([game("x")], [t]), as_of=AS_OF)
    assert reasons(sel) == {"x": "not_rated"}
    assert "nor does rated_tournaments" in sel.exclusions["message"].iloc[0]


def test_a_flagged_tournament_must_still_meet_the_known_2021_conditions():
    data = make_data(
        [game("x", tournament_id="short"), game("y", tournament_id="ok")],
        [modern("short", minutes=25.0), modern("ok")],
    )
    sel = run(data, as_of=AS_OF)
    assert reasons(sel) == {"x": "too_short"}
    assert list(sel.rated["game_id"]) == ["y"]


@pytest.mark.parametrize(
    ("end", "expected"),
    [(CUTOVER - dt.timedelta(days=1), "not_rated"), (CUTOVER, None)],
)
def test_the_older_reading_rates_unflagged_tournaments_on_their_facts(tmp_path, end, expected):
    config = older_reading(tmp_path)
    assert config.require_rated_flag is False
    sel = run(make_data([game("x")], [modern(end=end, rated=False)]), as_of=AS_OF, config=config)
    assert reasons(sel).get("x") == expected
    # an unknown fact: the flag decides in both readings
    unknown = modern(end=CUTOVER, rated=False, minutes=None)
    sel = run(make_data([game("x")], [unknown]), as_of=AS_OF, config=config)
    assert reasons(sel) == {"x": "not_rated"}


def test_era_follows_the_tournament_end_not_the_game_date():
    # A game dated before the cut-over in a tournament ending on it: judged by the 2021 rules.
    t = modern(end=CUTOVER, start=dt.date(2021, 8, 1), minutes=15.0)
    sel = run(make_data([game("x", date=dt.date(2021, 8, 2))], [t]), as_of=AS_OF)
    assert reasons(sel) == {"x": "too_short"}


def test_supervised_online_counts_and_exactly_30_minutes_is_enough():
    t = modern(mode="online_supervised", minutes=30.0)
    sel = run(make_data([game("x")], [t]), as_of=AS_OF)
    assert list(sel.rated["game_id"]) == ["x"]


# --- strict vs default -----------------------------------------------------------------------


def unverified_data():
    tours = [
        modern("known"),
        modern("nominutes", minutes=None),
        modern("nomode", mode=None, rated=False),
        modern("norule", rule=None),
    ]
    games = [
        game("a", tournament_id="known"),
        game("b", tournament_id="nominutes"),
        game("c", tournament_id="nominutes", black="p3", white="p4"),
        game("d", tournament_id="nomode"),
        game("e", tournament_id="known", moves=None),
        game("f", tournament_id="norule"),
    ]
    return make_data(games, tours)


def test_default_mode_rates_on_the_flag_and_warns():
    sel = run(unverified_data(), as_of=AS_OF)
    assert sorted(sel.rated["game_id"]) == ["a", "b", "c", "e", "f"]
    assert reasons(sel) == {"d": "not_rated"}  # the flag decides, and it says no
    warned = sel.warnings[sel.warnings["code"] == "unverified"].set_index("locator")["message"]
    assert sorted(warned.index) == ["tournament=known", "tournament=nominutes", "tournament=norule"]
    assert warned["tournament=nominutes"].startswith("2 games")
    assert "not known: minutes" in warned["tournament=nominutes"]
    assert "not known: moves" in warned["tournament=known"]
    assert "not known: rule" in warned["tournament=norule"]
    assert sel.counts.unverified == 4
    per = sel.counts.by_tournament.set_index("tournament_id")
    assert per.loc["nominutes", "rated_unverified"] == 2
    assert per.loc["known", "rated_unverified"] == 1


def test_strict_mode_excludes_what_default_mode_warns_about():
    sel = run(unverified_data(), as_of=AS_OF, strict=True)
    assert list(sel.rated["game_id"]) == ["a"]
    assert reasons(sel) == {
        "b": "unverified",
        "c": "unverified",
        "d": "not_rated",
        "e": "unverified",
        "f": "unverified",
    }
    assert not (sel.warnings["code"] == "unverified").any()
    assert sel.counts.unverified == 0


def test_a_failing_known_fact_beats_an_unknown_one():
    t = modern(minutes=20.0, mode=None)
    for strict in (False, True):
        assert reasons(run(make_data([game("x")], [t]), as_of=AS_OF, strict=strict)) == {
            "x": "too_short"
        }


# --- overrides -------------------------------------------------------------------------------


def test_overrides_with_comments(tmp_path):
    directory = rules_dir(
        tmp_path,
        rated_tournaments="# forced in\nin  # rated by decision of the board, 2022-01-10\n",
        unrated_tournaments="out # results incomplete\n",
        unrated_games="g2  # not played: both players absent\ng9\n",
    )
    config = load_config(directory)
    assert config.rated_tournaments == {"in": "rated by decision of the board, 2022-01-10"}
    assert config.unrated_games == {"g2": "not played: both players absent", "g9": ""}
    tours = [
        tournament("in", rated=False, type=3),  # flag and type overruled
        modern("in2", rule="Swap2"),  # not forced: stays out
        tournament("out"),
        tournament("t1"),
    ]
    games = [
        game("g1", tournament_id="in"),
        game("g2"),
        game("g3", tournament_id="out"),
        game("g4", tournament_id="in2"),
        game("g5", tournament_id="in", forfeit=True),  # every-era rules still apply
        game("g6"),
    ]
    sel = run(make_data(games, tours), as_of=AS_OF, config=config)
    assert sorted(sel.rated["game_id"]) == ["g1", "g6"]
    excl = sel.exclusions.set_index("game_id")
    assert excl.loc["g2", "reason"] == "override_game"
    assert "not played: both players absent" in excl.loc["g2", "message"]
    assert excl.loc["g3", "reason"] == "override_tournament"
    assert "results incomplete" in excl.loc["g3", "message"]
    assert excl.loc["g4", "reason"] == "rule_not_certified"
    assert excl.loc["g5", "reason"] == "forfeit"
    unused = sel.warnings[sel.warnings["code"] == "override_unused"]
    assert list(unused["message"]) == ["unrated_games names game 'g9', not in the data"]


def test_forced_in_stands_for_the_flag_and_the_known_2021_conditions_still_apply(tmp_path):
    config = load_config(rules_dir(tmp_path, rated_tournaments="t1\nt2\nt3\n"))
    tours = [
        modern("t1", rated=False),  # every fact known and passing: rated
        modern("t2", rated=False, minutes=None),  # a fact unknown: as if flagged
        modern("t3", rated=False, rule="Swap2"),  # a known condition fails: out
    ]
    games = [game(t, tournament_id=t) for t in ("t1", "t2", "t3")]
    sel = run(make_data(games, tours), as_of=AS_OF, config=config)
    assert sorted(sel.rated["game_id"]) == ["t1", "t2"]
    assert reasons(sel) == {"t3": "rule_not_certified"}
    warned = sel.warnings.loc[sel.warnings["code"] == "unverified", "locator"]
    assert list(warned) == ["tournament=t2"]
    strict = run(make_data(games, tours), as_of=AS_OF, strict=True, config=config)
    assert reasons(strict) == {"t2": "unverified", "t3": "rule_not_certified"}


def test_forced_in_does_not_cross_category(tmp_path):
    config = load_config(rules_dir(tmp_path, rated_tournaments="t1\n"))
    t = tournament(rule="Swap2", category="gomoku")
    assert reasons(run(make_data([game("x")], [t]), as_of=AS_OF, config=config)) == {
        "x": "out_of_category"
    }


def test_a_tournament_in_both_lists_is_an_error(tmp_path):
    directory = rules_dir(tmp_path, rated_tournaments="7\n", unrated_tournaments="7 # no\n")
    with pytest.raises(ConfigError, match=r"\['7'\].*both"):
        load_config(directory)


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("12\n12 # again\n", r"unrated_games:2: id '12' already listed on line 1"),
        ("1 2\n", r":1: expected one id"),
    ],
)
def test_bad_override_lines_name_file_and_line(tmp_path, content, match):
    with pytest.raises(ConfigError, match=match):
        load_config(rules_dir(tmp_path, unrated_games=content))


# --- tournament facts ------------------------------------------------------------------------

FACTS_HEADER = "# facts\ntournament_id,minutes,mode,note,start,end\n"


def test_facts_file_wins_over_the_source(tmp_path):
    config = load_config(
        rules_dir(tmp_path, tournament_facts__csv=FACTS_HEADER + 't1,60,,"regulations, art. 3"\n')
    )
    t = modern(minutes=20.0)  # the source says 20 minutes; the maintainers say 60
    sel = run(make_data([game("x")], [t]), as_of=AS_OF, config=config)
    assert list(sel.rated["game_id"]) == ["x"]
    assert config.facts.table.set_index("tournament_id").loc["t1", "note"] == "regulations, art. 3"
    assert sel.tournaments.set_index("tournament_id").loc["t1", "minutes"] == 60.0


def test_empty_fact_cell_keeps_the_source_value(tmp_path):
    config = load_config(
        rules_dir(tmp_path, tournament_facts__csv=FACTS_HEADER + "t1,,online_supervised,\n")
    )
    t = modern(minutes=20.0, mode="online")
    assert reasons(run(make_data([game("x")], [t]), as_of=AS_OF, config=config)) == {
        "x": "too_short"
    }


def test_facts_dates_date_an_undated_tournament_and_its_games(tmp_path):
    config = load_config(
        rules_dir(tmp_path, tournament_facts__csv=FACTS_HEADER + "t1,,,,2019-05-01,2019-05-03\n")
    )
    data = make_data([game("x")], [tournament(start=None, end=None)])
    assert reasons(run(data, as_of=AS_OF)) == {"x": "unknown_date"}
    sel = run(data, as_of=AS_OF, config=config)
    assert list(sel.rated["date"]) == [dt.date(2019, 5, 3)]
    assert sel.warnings.empty


def test_facts_name_unknown_tournaments_and_never_move_a_source_date(tmp_path):
    rows = "t1,,,,2019-05-01,2019-05-03\nt9,60,,\n"
    config = load_config(rules_dir(tmp_path, tournament_facts__csv=FACTS_HEADER + rows))
    sel = run(make_data([game("x")]), as_of=AS_OF, config=config)  # t1 ends 2020-06-07
    assert list(sel.rated["date"]) == [dt.date(2020, 6, 7)]
    found = sel.warnings.set_index("code")
    assert found.loc["facts_date_ignored", "locator"] == "line 3, tournament id=t1"
    assert found.loc["unknown_tournament", "locator"] == "line 4, tournament id=t9"
    assert found.loc["unknown_tournament", "source"] == "rules/tournament_facts.csv"


@pytest.mark.parametrize(
    ("rows", "match"),
    [
        ("t1,sixty,,\n", r"tournament_facts.csv, line 3, tournament id=t1: minutes 'sixty'"),
        ("t1,inf,,\n", r"line 3, tournament id=t1: minutes 'inf' is not a number"),
        ("t1,-5,,\n", r"line 3, tournament id=t1: minutes '-5' is not a number"),
        ("t1,60,by post,\n", r"line 3, tournament id=t1: mode 'by post' is not one of"),
        ("t1,60,,\nt1,90,,\n", r"line 4, tournament id=t1: tournament t1 is already on line 3"),
        ("t1,60,,a,,,b\n", r"line 3, tournament id=t1: 7 cells for the 6 columns"),
        ("t1,,,,2019-13-01,\n", r"line 3, tournament id=t1: start '2019-13-01' is not a date"),
        ("t1,60,,\nt2,0,,\nt3,-1,,\n", r"minutes '0' .*\(and 1 more problem\)"),
    ],
)
def test_bad_facts_name_file_and_line(tmp_path, rows, match):
    with pytest.raises(ConfigError, match=match):
        load_config(rules_dir(tmp_path, tournament_facts__csv=FACTS_HEADER + rows))


def test_missing_rules_directory_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_config(tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError, match="eligibility.toml is missing"):
        load_config(tmp_path)
    directory = rules_dir(tmp_path)
    (directory / "game_notes.toml").unlink()
    with pytest.raises(FileNotFoundError, match="game_notes.toml is missing"):
        load_config(directory)


@pytest.mark.parametrize(
    ("toml", "match"),
    [
        ("cutover = 2021-08-08\n", "missing key 'first_rated_day'"),
        ('cutover = "2021-08-08"\nmin_minutes = 30\n', "'cutover' must be a TOML date"),
        (
            "cutover = 2021-08-08\nfirst_rated_day = 2022-01-01\n",
            r"'first_rated_day' \(2022-01-01\) must come before 'cutover'",
        ),
        (
            "cutover = 2021-08-08\nfirst_rated_day = 1988-01-01\nmin_minutes = inf\n",
            "'min_minutes' must be positive",
        ),
    ],
)
def test_bad_settings(tmp_path, toml, match):
    with pytest.raises(ConfigError, match=match):
        load_config(rules_dir(tmp_path, eligibility__toml=toml))


# --- outputs, counts, invariant --------------------------------------------------------------


def mixed_data():
    tours = [tournament("A"), tournament("B", rated=False), modern("C", minutes=10.0)]
    games = [
        game("1", tournament_id="A"),
        game("2", tournament_id="A", result=None),
        game("3", tournament_id="A", forfeit=True),
        game("4", tournament_id="B"),
        game("5", tournament_id="C"),
        game("6", tournament_id="Z"),
        game("7", tournament_id="A", black="p3", white="p4", result=0.5),
    ]
    return make_data(games, tours)


def test_counts_by_tournament_and_reason_by_hand():
    sel = run(mixed_data(), as_of=AS_OF)
    per = sel.counts.by_tournament.set_index("tournament_id")
    assert list(per.index) == ["A", "B", "C", "Z"]
    assert per.loc["A", ["read", "rated", "excluded", "no_result", "forfeit"]].tolist() == [
        4,
        2,
        2,
        1,
        1,
    ]
    assert per.loc["B", ["read", "rated", "excluded", "not_rated"]].tolist() == [1, 0, 1, 1]
    assert per.loc["C", ["read", "excluded", "too_short"]].tolist() == [1, 1, 1]
    assert per.loc["Z", ["read", "excluded", "unknown_tournament"]].tolist() == [1, 1, 1]
    by_reason = sel.counts.by_reason.set_index("reason")["games"]
    assert list(sel.counts.by_reason["reason"]) == list(whr.rules.REASONS)
    assert by_reason[by_reason > 0].to_dict() == {
        "unknown_tournament": 1,
        "forfeit": 1,
        "no_result": 1,
        "too_short": 1,
        "not_rated": 1,
    }
    assert (sel.counts.read, sel.counts.rated, sel.counts.excluded) == (7, 2, 5)
    assert "no_result" in sel.counts.report()


def test_outputs_have_the_shared_schemas():
    sel = run(mixed_data(), as_of=AS_OF)
    assert list(sel.rated.columns) == GAMES.names
    assert list(sel.exclusions.columns) == EXCLUSIONS.names
    assert list(sel.warnings.columns) == PROBLEMS.names
    assert list(sel.rated["game_id"]) == ["1", "7"]  # input order kept
    assert list(sel.exclusions["game_id"]) == ["2", "3", "4", "5", "6"]


def test_select_does_not_mutate_its_input():
    data = mixed_data()
    before = {
        name: getattr(data, name).copy(deep=True) for name in ("games", "tournaments", "players")
    }
    run(data, as_of=AS_OF)
    for name, frame in before.items():
        pd.testing.assert_frame_equal(getattr(data, name), frame)


def test_game_order_does_not_change_the_verdicts():
    data = mixed_data()
    rng = np.random.default_rng(0)
    shuffled = data.games.iloc[rng.permutation(len(data.games))].reset_index(drop=True)
    other = whr.SourceData(data.players, data.tournaments, shuffled, data.problems)
    a, b = run(data, as_of=AS_OF), run(other, as_of=AS_OF)
    assert set(a.rated["game_id"]) == set(b.rated["game_id"])
    assert reasons(a) == reasons(b)


def test_empty_games():
    sel = run(make_data([]), as_of=AS_OF)
    assert sel.rated.empty and sel.exclusions.empty
    assert sel.counts.read == 0


def test_invariant_check_catches_a_lost_game():
    sel = run(mixed_data(), as_of=AS_OF)
    with pytest.raises(InvariantError, match="7 games read but 1 rated"):
        _check(mixed_data().games, sel.rated.iloc[:1], sel.exclusions, sel.counts)


def test_as_of_string_and_public_entry_point():
    assert reasons(whr.select(mixed_data(), as_of="2026-11-30", config=RULES)) == reasons(
        run(mixed_data(), as_of=AS_OF)
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (
            {"category": "chess"},
            ValueError,
            r"category must be one of \['renju', 'gomoku'\], got 'chess'",
        ),
        ({"as_of": dt.datetime(2026, 1, 1)}, TypeError, "as_of must be a datetime.date"),
        ({"as_of": "30/11/2026"}, ValueError, "as_of must be an ISO date"),
        ({"strict": "yes"}, TypeError, "strict must be a bool, got str"),
        ({"config": {}}, TypeError, "config must be an EligibilityConfig"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    args = {"as_of": AS_OF, **kwargs}
    with pytest.raises(error, match=match):
        run(mixed_data(), **args)


def test_table_missing_a_column():
    data = mixed_data()
    broken = whr.SourceData(
        data.players, data.tournaments, data.games.drop(columns=["forfeit"]), data.problems
    )
    with pytest.raises(ValueError, match=r"data.games lacks columns \['forfeit'\]"):
        run(broken, as_of=AS_OF)


def test_tournaments_are_listed_numbers_first_by_value():
    tours = [tournament(t) for t in ("10", "9", "b", "100")]
    games = [game(str(i), tournament_id=t) for i, t in enumerate(["10", "9", "b", "100", None])]
    ids = run(make_data(games, tours), as_of=AS_OF).counts.by_tournament["tournament_id"]
    assert ids.tolist() == ["9", "10", "100", "b", None]


def test_gomoku_has_no_certified_rule_list_so_the_rule_is_not_checked():
    # Rule 9 certifies renju rules; the gomoku list keeps the other 2021 criteria.
    tours = [
        modern("a", rule="Swap2", category="gomoku"),
        modern("b", rule="Standard gomoku", category="gomoku", minutes=15.0),
        modern("c", rule=None, category="gomoku", rated=True),
    ]
    games = [
        game("x", tournament_id="a"),
        game("y", tournament_id="b"),
        game("z", tournament_id="c"),
    ]
    sel = run(make_data(games, tours), as_of=AS_OF, category="gomoku", strict=True)
    assert list(sel.rated["game_id"]) == ["x", "z"]
    assert reasons(sel) == {"y": "too_short"}


def test_certified_rule_category_is_checked(tmp_path):
    toml = (rules_dir(tmp_path) / "eligibility.toml").read_text(encoding="utf-8")
    bad = toml + '\n[[certified_rules]]\nname = "X"\npattern = "x"\ncategory = "chess"\n'
    (tmp_path / "other").mkdir()
    with pytest.raises(ConfigError, match="category must be one of"):
        load_config(rules_dir(tmp_path / "other", eligibility__toml=bad))
