"""Replays of small hand-made histories; every expected number is worked out from the rules."""

from __future__ import annotations

import datetime as dt
import math

import pandas as pd
import pytest

from whr import elo


def E(r: float, o: float) -> float:  # the rules' expectancy, written out independently
    return 1.0 / (1.0 + 2.0 ** ((o - r) / 120.0))


def rnd(x: float) -> int:
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def table(rows: list[tuple[str, str, str, str, float]]) -> pd.DataFrame:
    """(tournament, date, black, white, black's score) -> a games table."""
    return pd.DataFrame(
        {
            "game_id": [str(i) for i in range(len(rows))],
            "tournament_id": [r[0] for r in rows],
            "black": [r[2] for r in rows],
            "white": [r[3] for r in rows],
            "result": [float(r[4]) for r in rows],
            "date": [dt.date.fromisoformat(r[1]) for r in rows],
        }
    )


def initial(**ratings: float) -> pd.DataFrame:
    return pd.DataFrame({"player": list(ratings), "rating": list(ratings.values())})


def by_player(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.set_index("player")


# ----------------------------------------------------------------------------- 1997 rules


def test_1997_japanese_explanation_example_through_the_replay() -> None:
    games = table(
        [
            ("t1", "2000-01-10", "X", "C", 0.5),
            ("t1", "2000-01-10", "D", "X", 0.5),
            ("t2", "2000-02-10", "X", "A", 1.0),
            ("t2", "2000-02-10", "B", "X", 0.5),
        ]
    )
    start = initial(A=2200, B=2100, C=2000, D=2000)
    after_t1 = by_player(
        elo.replay(games, "1997", dt.date(2000, 1, 31), initial=start, seed_rating=None)
    )
    assert after_t1.loc["X", "rating"] == 2000  # (2000 + 2000 + 400 * 0) / 2
    lst = by_player(elo.replay(games, "1997", initial=start, seed_rating=None))
    assert (
        lst.loc["X", "rating"] == 2175
    )  # the Japanese explanation: (2000*2 + 2200 + 2100 + 400) / 4
    assert lst.loc["X", "status"] == "provisional"
    assert lst.loc["X", "counted_games"] == 4 and lst.loc["X", "counted_points"] == 2.5
    # games against a provisional player change no established rating
    for p, r in (("A", 2200), ("B", 2100), ("C", 2000), ("D", 2000)):
        assert lst.loc[p, "rating"] == r and lst.loc[p, "status"] == "established"


def test_1997_provisional_cap() -> None:
    games = table([("t", "2001-05-01", "X", "A", 1.0), ("t", "2001-05-01", "B", "X", 0.0)])
    lst = by_player(elo.replay(games, "1997", initial=initial(A=2200, B=2100), seed_rating=None))
    assert lst.loc["X", "rating"] == 2150 + 300  # not (4300 + 800) / 2 = 2550


def _threshold_games() -> pd.DataFrame:
    rows = []
    pool = [f"P{i}" for i in range(12)]
    # X: 9 games, 3 wins -> 9 games / 3 points; Y: 10 games, 2 wins 1 draw -> 2.5 points;
    # Z: 10 games, 3 wins -> exactly 10 games / 3 points
    for i in range(9):
        rows.append(("t1", "2005-03-01", "X", pool[i], 1.0 if i < 3 else 0.0))
    for i in range(10):
        rows.append(("t1", "2005-03-01", "Y", pool[i], 1.0 if i < 2 else 0.5 if i == 2 else 0.0))
        rows.append(("t1", "2005-03-01", pool[i], "Z", 0.0 if i < 3 else 1.0))
    rows.append(("t2", "2005-06-01", "X", pool[10], 0.5))  # X: 10 games, 3.5 points
    rows.append(("t2", "2005-06-01", "Y", pool[11], 0.5))  # Y: 11 games, 3.0 points
    return table(rows)


def test_1997_established_threshold_at_10_games_and_3_points() -> None:
    games = _threshold_games()
    start = initial(**{f"P{i}": 2000.0 for i in range(12)})
    mid = by_player(elo.replay(games, "1997", dt.date(2005, 4, 1), initial=start, seed_rating=None))
    assert (mid.loc["X", "counted_games"], mid.loc["X", "counted_points"]) == (9, 3.0)
    assert (mid.loc["Y", "counted_games"], mid.loc["Y", "counted_points"]) == (10, 2.5)
    assert (mid.loc["Z", "counted_games"], mid.loc["Z", "counted_points"]) == (10, 3.0)
    assert mid.loc["X", "status"] == "provisional"
    assert mid.loc["Y", "status"] == "provisional"
    assert mid.loc["Z", "status"] == "established"
    end = by_player(elo.replay(games, "1997", initial=start, seed_rating=None))
    assert end.loc["X", "status"] == "established"
    assert end.loc["Y", "status"] == "established"


def test_1997_changes_are_summed_over_the_tournament_then_rounded() -> None:
    games = table([("t", "2010-01-01", "A", "B", 1.0), ("t", "2010-01-01", "C", "A", 0.0)])
    lst = by_player(
        elo.replay(games, "1997", initial=initial(A=2800, B=2000, C=2000), seed_rating=None)
    )
    one = 32 * (1 - E(2800, 2000))  # 0.312 a game: rounding each game would give 0
    assert rnd(one) == 0
    assert lst.loc["A", "rating"] == 2800 + rnd(2 * one) == 2801
    assert lst.loc["B", "rating"] == 2000 + rnd(-one) == 2000


def test_1997_provisional_games_count_for_nobody() -> None:
    games = table([("t", "2010-01-01", "X", "Y", 1.0), ("t", "2010-01-01", "Y", "X", 0.0)])
    lst = elo.replay(games, "1997", initial=initial(A=2000), seed_rating=None)
    assert lst.empty  # X and Y met no established player: no rating
    seeded = by_player(elo.replay(games, "1997"))  # the seed rule starts a history from nothing
    assert seeded.loc["X", "status"] == "established"
    assert seeded.loc["X", "rating"] == 2200 + rnd(2 * 32 * (1 - 0.5))


def test_1997_tournaments_in_order_of_end_date() -> None:
    games = table(
        [
            ("long", "2010-01-01", "X", "A", 1.0),  # starts first, ends March 1
            ("long", "2010-03-01", "X", "B", 1.0),
            ("short", "2010-02-01", "X", "A", 0.0),  # ends February 1
        ]
    )
    start = initial(A=2000, B=2000)
    feb = by_player(
        elo.replay(games, "1997", dt.date(2010, 2, 15), initial=start, seed_rating=None)
    )
    assert feb.loc["X", "rating"] == 2000 - 400  # only "short": (2000 - 400) / 1
    assert feb.loc["X", "counted_games"] == 1
    end = by_player(elo.replay(games, "1997", initial=start, seed_rating=None))
    # then "long" on top: (1600 * 1 + 4000 + 800) / 3 = 2133.3 -> 2133
    assert end.loc["X", "rating"] == 2133


def test_replay_does_not_modify_its_input_and_ignores_row_order() -> None:
    games = _threshold_games()
    copy = games.copy()
    start = initial(**{f"P{i}": 2000.0 + 10 * i for i in range(12)})
    a = elo.replay(games, "1997", initial=start)
    pd.testing.assert_frame_equal(games, copy)
    b = elo.replay(games.iloc[::-1], "1997", initial=start)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns[:4]) == ["player", "rating", "status", "games"]


def test_replay_argument_errors() -> None:
    games = _threshold_games()
    with pytest.raises(ValueError, match="rules"):
        elo.replay(games, "2021")
    with pytest.raises(TypeError, match="as_of"):
        elo.replay(games, "1997", "2020-01-01")
    with pytest.raises(ValueError, match="missing columns"):
        elo.replay(games.drop(columns="result"))


# ----------------------------------------------------------------------------- 1996 rules


def test_1996_new_player_at_the_upper_edge_and_list_dates() -> None:
    games = table([("t", "1996-03-01", "X", p, 1.0) for p in "ABCD"])
    start = initial(A=2300, B=2300, C=2300, D=2300)
    f_x = rnd(32 * (4 - 4 * E(2400, 2300)))  # K0 = 2400 (all points: the upper edge)
    f_a = rnd(32 * (0 - E(2300, 2400)))
    assert (f_x, f_a) == (46, -12)
    before = by_player(elo.replay(games, "1996", dt.date(1996, 4, 29), initial=start))
    assert before.loc["X", "status"] == "provisional"  # a start rating, not yet on a list
    assert before.loc["X", "rating"] == 2400 + f_x
    assert before.loc["A", "rating"] == 2300 and before.loc["A", "pending"] == f_a
    listed = by_player(elo.replay(games, "1996", dt.date(1996, 4, 30), initial=start))
    assert listed.loc["X", "status"] == "established" and listed.loc["X", "rating"] == 2446
    assert listed.loc["A", "rating"] == 2300 + f_a and listed.loc["A", "pending"] == 0


def test_1996_new_player_inside_the_interval_gets_no_contribution() -> None:
    games = table(
        [("t", "1997-06-01", "X", p, s) for p, s in zip("ABCD", (1, 1, 0, 0), strict=True)]
    )
    start = initial(A=2300, B=2300, C=2300, D=2300)
    lst = by_player(elo.replay(games, "1996", dt.date(1997, 8, 31), initial=start))
    assert lst.loc["X", "rating"] == 2300  # 2 of 4: K0 = Ka, F = 0


def test_1996_new_player_needs_three_games() -> None:
    games = table([("t", "1997-06-01", "X", p, 1.0) for p in "AB"])
    lst = elo.replay(games, "1996", dt.date(1997, 8, 31), initial=initial(A=2300, B=2300))
    assert "X" not in set(lst["player"])
    assert set(lst["rating"]) == {2300}  # no start rating, so no contribution for A and B


@pytest.mark.parametrize(("end", "rule_8c"), [("1995-12-31", False), ("1996-01-01", True)])
def test_1996_rule_8c_only_from_1996(end: str, rule_8c: bool) -> None:
    games = table([("t", end, p, "X", 1.0) for p in "ABC"])  # X scores 0 of 3
    start = initial(A=2300, B=2300, C=2300)
    lst = by_player(elo.replay(games, "1996", dt.date(1996, 4, 30), initial=start))
    if rule_8c:
        assert "X" not in lst.index
        assert lst.loc["A", "rating"] == 2300
    else:
        # before 1996: K0 at the lower edge 2000, F = round(-32 * 3 E(2000, 2300)) = -14,
        # listed on December 31, 1995 (the tournament ended that day)
        assert lst.loc["X", "rating"] == 2000 + rnd(-32 * 3 * E(2000, 2300)) == 1986
        assert lst.loc["A", "rating"] == 2300 + rnd(32 * (1 - E(2300, 2000))) == 2305


def test_1996_minimum_thinking_time() -> None:
    games = table(
        [("old", "1995-05-01", "X", p, 1.0) for p in "ABC"]
        + [("new", "1996-05-01", "Y", p, 1.0) for p in "ABC"]
    )
    tours = pd.DataFrame({"tournament_id": ["old", "new"], "minutes": [50.0, 50.0]})
    start = initial(A=2300, B=2300, C=2300)
    lst = by_player(
        elo.replay(games, "1996", dt.date(1996, 12, 31), initial=start, tournaments=tours)
    )
    assert "X" in lst.index  # 50 minutes was enough before 1996 (45)
    assert "Y" not in lst.index  # not from 1996 on (60)


def test_ratings_before_sees_only_tournaments_over_before_the_day() -> None:
    games = table(
        [
            ("t1", "2010-01-01", "X", "A", 0.5),
            ("t2", "2010-01-05", "X", "A", 1.0),
        ]
    )
    start = initial(A=2000)
    q = pd.DataFrame(
        {
            "black": ["X", "X", "X"],
            "white": ["A", "A", "A"],
            "date": [dt.date(2010, 1, 1), dt.date(2010, 1, 5), dt.date(2010, 1, 6)],
        }
    )
    r = elo.ratings_before(games, q, "1997", initial=start, seed_rating=None)
    assert math.isnan(r.loc[0, "black_rating"])  # t1 ends on that day: not yet
    assert r.loc[1, "black_rating"] == 2000  # after t1 only: a draw with 2000
    assert r.loc[2, "black_rating"] == (2000 * 1 + 2000 + 400) / 2  # then a win: 2200
    assert (r["white_rating"] == 2000).all()


def test_era_switches_from_the_1996_to_the_1997_rules() -> None:
    games = table(
        [("t1", "1996-06-01", "X", p, s) for p, s in zip("ABC", (1.0, 0.5, 0.0), strict=True)]
        + [("t2", "1997-03-01", "X", "A", 1.0)]
    )
    start = initial(A=2300, B=2300, C=2300)
    # 1996 rules: 1.5 of 3 against 2300: K0 = 2300, F = 0, on the August 31, 1996 list
    mid = by_player(elo.replay(games, "era", dt.date(1996, 12, 31), initial=start))
    assert mid.loc["X", "rating"] == 2300 and mid.loc["X", "status"] == "established"
    assert mid.loc["A", "rating"] == 2300 + rnd(32 * (0 - 0.5)) == 2284  # lost to X (2300)
    # 1997 rules: X is established, so the win over A changes both ratings
    end = by_player(elo.replay(games, "era", initial=start))
    change = rnd(32 * (1 - E(2300, 2284)))
    assert change == 15
    assert end.loc["X", "rating"] == 2315 and end.loc["A", "rating"] == 2284 - 15
    # the 1997 rules throughout: X is provisional after 3 games, A unchanged by them
    pure = by_player(elo.replay(games, "1997", initial=start))
    assert pure.loc["X", "status"] == "provisional" and pure.loc["A", "rating"] == 2300
    assert pure.loc["X", "rating"] == (2300 * 3 + 2300 + 400) / 4  # 2300 after t1, then a win
