"""whr.lists.standings: performance against an independent root finder, standings and crosstables of
small hand-written tournaments."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import brentq

from whr import lists
from whr.lists import standings
from whr.tables import HISTORY, RATED_GAMES, conform


def expected(r: float, opponents: np.ndarray) -> float:
    """Expected score of a player rated ``r`` against ``opponents`` (Elo logistic, 400)."""
    return float(np.sum(1.0 / (1.0 + 10.0 ** ((opponents - r) / 400.0))))


def test_performance_is_the_rating_whose_expected_score_is_the_score():
    rng = np.random.default_rng(7)
    sizes = rng.integers(1, 12, size=40)
    group = np.repeat(np.arange(len(sizes)), sizes)
    opp = rng.normal(2000, 250, size=len(group))
    score = np.array([rng.integers(0, 2 * n + 1) / 2 for n in sizes])
    rating, bound = standings.performance(opp, group, score, len(sizes))
    for g, n in enumerate(sizes):
        mine = opp[group == g]
        target = min(max(score[g], 0.5), n - 0.5)  # a full score: half a point less, ...
        root = brentq(lambda r, m=mine, s=target: expected(r, m) - s, -5000, 9000, xtol=1e-9)
        assert rating[g] == pytest.approx(root, abs=1e-6)
        assert bound[g] == (1 if score[g] == n else (-1 if score[g] == 0 else 0))


def test_performance_of_an_even_score_against_one_rating_is_that_rating():
    rating, bound = standings.performance(
        np.array([2100.0, 2100.0]), np.array([0, 0]), np.array([1.0]), 1
    )
    assert rating[0] == pytest.approx(2100.0, abs=1e-6) and bound[0] == 0
    # 3 of 4 against 2000: 2000 + 400 log10(3) = 2190.8
    rating, _ = standings.performance(np.full(4, 2000.0), np.zeros(4, int), np.array([3.0]), 1)
    assert rating[0] == pytest.approx(2000 + 400 * np.log10(3), abs=1e-6)


def test_performance_refuses_bad_arguments():
    with pytest.raises(ValueError, match="one entry per game"):
        standings.performance(np.zeros(3), np.zeros(2, int), np.zeros(1), 1)
    with pytest.raises(ValueError, match="every group needs a game; group 1"):
        standings.performance(np.zeros(2), np.zeros(2, int), np.zeros(2), 2)
    with pytest.raises(ValueError, match=r"score must be in \[0, games\]"):
        standings.performance(np.zeros(2), np.zeros(2, int), np.array([3.0]), 1)


D1, D2, D3 = dt.date(2024, 5, 1), dt.date(2024, 5, 2), dt.date(2024, 9, 1)


def game(gid: str, tid: str, rnd: str, black: str, white: str, result: float, day: dt.date):
    return {
        "game_id": gid,
        "tournament_id": tid,
        "round": rnd,
        "black": black,
        "white": white,
        "result": result,
        "date": day,
    }


# Tournament T1: a, b, c play a round robin over two days (rounds 1, 2, 10: natural order), and
# a plays b twice in round 10 (a match). Tournament T2 later: a beats c once.
GAMES = [
    game("1", "T1", "1", "a", "b", 1.0, D1),
    game("2", "T1", "2", "c", "a", 0.5, D1),
    game("3", "T1", "10", "b", "c", 0.0, D2),
    game("4", "T1", "10", "b", "a", 1.0, D2),
    game("5", "T2", "F", "a", "c", 1.0, D3),
]
RATING = {  # each player's rating on each day they played (the history), published scale
    ("a", D1): 2100.0,
    ("a", D2): 2090.0,
    ("a", D3): 2120.0,
    ("b", D1): 1990.0,
    ("b", D2): 2005.0,
    ("c", D1): 1900.0,
    ("c", D2): 1910.0,
    ("c", D3): 1895.0,
}


def tables() -> tuple[pd.DataFrame, pd.DataFrame]:
    g = pd.DataFrame(GAMES)
    g["black_rating"] = [RATING[(b, d)] for b, d in zip(g["black"], g["date"], strict=True)]
    g["white_rating"] = [RATING[(w, d)] for w, d in zip(g["white"], g["date"], strict=True)]
    g["black_uncertainty"] = g["white_uncertainty"] = 50.0
    for column in ("rule_id", "source"):
        g[column] = "x"
    g["moves"], g["unrated"], g["forfeit"], g["bye"], g["colours_known"] = (
        40,
        False,
        False,
        False,
        True,
    )
    history = pd.DataFrame(
        [
            {"player": p, "date": d, "rating": r, "uncertainty": 50.0, "games": 1}
            for (p, d), r in RATING.items()
        ]
    )
    return conform(g, RATED_GAMES), conform(history, HISTORY)


def test_each_players_tournaments():
    games, history = tables()
    pt = standings.player_tournaments(lists.player_games(games), history).set_index(
        ["player", "tournament_id"]
    )
    a1 = pt.loc[("a", "T1")]
    assert (a1["games"], a1["wins"], a1["draws"], a1["losses"], a1["score"]) == (3, 1, 1, 1, 1.5)
    assert str(a1["first_day"])[:10] == "2024-05-01" and str(a1["last_day"])[:10] == "2024-05-02"
    assert np.isnan(a1["rating_before"])  # a's first tournament
    assert a1["rating_after"] == 2090.0  # a's rating on the last day a played in it
    assert a1["opponent_mean"] == pytest.approx((1990 + 1900 + 2005) / 3)
    a2 = pt.loc[("a", "T2")]
    assert a2["rating_before"] == 2090.0 and a2["rating_after"] == 2120.0
    assert a2["rating_change"] == 30.0
    assert a2["performance_bound"] == 1 and a2["performance"] == pytest.approx(1895.0)
    # b lost to a and c and beat a: 1 point of 3
    assert pt.loc[("b", "T1"), "score"] == 1.0 and pt.loc[("c", "T1"), "score"] == 1.5
    order = standings.player_tournaments(lists.player_games(games), history)
    assert order[["player", "tournament_id"]].values.tolist() == [
        ["a", "T1"], ["a", "T2"], ["b", "T1"], ["c", "T1"], ["c", "T2"]
    ]  # fmt: skip


def test_standings_places_and_buchholz():
    games, history = tables()
    pg = lists.player_games(games)
    table = standings.standings(pg, standings.player_tournaments(pg, history))
    t1 = table.loc[table["tournament_id"] == "T1"].set_index("player")
    # a and c have 1.5 each and share places 1-2; Buchholz: a met b (1), c (1.5), b (1) = 3.5,
    # c met a (1.5), b (1) = 2.5, so a comes first
    assert t1.loc["a", "number"] == 1 and t1.loc["c", "number"] == 2 and t1.loc["b", "number"] == 3
    assert (t1.loc["a", "place_first"], t1.loc["a", "place_last"]) == (1, 2)
    assert (t1.loc["c", "place_first"], t1.loc["c", "place_last"]) == (1, 2)
    assert (t1.loc["b", "place_first"], t1.loc["b", "place_last"]) == (3, 3)
    assert t1.loc["a", "buchholz"] == 3.5 and t1.loc["c", "buchholz"] == 2.5
    assert t1["score"].sum() == 4  # every game gives one point


def test_crosstable_cells():
    games, history = tables()
    pg = lists.player_games(games)
    table = standings.standings(pg, standings.player_tournaments(pg, history))
    cells = standings.crosstable(pg, table)
    assert len(cells) == 2 * len(GAMES)  # each game in both players' rows
    t1 = cells.loc[cells["tournament_id"] == "T1"]
    rounds = t1.drop_duplicates("column").sort_values("column")["round"].tolist()
    assert rounds == ["1", "2", "10"]  # numbers by value, not as text
    a = t1.loc[t1["number"] == 1]  # a's row
    assert a[["column", "opponent", "colour", "score"]].values.tolist() == [
        [0, 3, "black", 1.0],  # round 1: beat b (row 3) with Black
        [1, 2, "white", 0.5],  # round 2: drew c (row 2) with White
        [2, 3, "white", 0.0],  # round 10: lost to b with White
    ]
    assert cells.loc[cells["tournament_id"] == "T2", "column"].tolist() == [0, 0]
    with pytest.raises(ValueError, match="standings of these games"):
        standings.crosstable(pg, table.loc[table["player"] != "b"])


@pytest.mark.parametrize("sort", [False, True])
def test_categorical_game_ids_and_rounds_give_the_same_crosstable(sort):
    # the site passes game ids and rounds as categories (sorted, as here with sort): the
    # cells must be those of the text, whatever the categories' order and unused ones
    games, history = tables()
    pg = lists.player_games(games)
    table = standings.standings(pg, standings.player_tournaments(pg, history))
    want = standings.crosstable(pg, table)
    game_ids = ["5", "zz", "3", "1", "2", "4", "10"]
    rounds = ["F", "10", "2", "unused", "1"]
    coded = pg.assign(
        game_id=pd.Categorical(pg["game_id"], categories=sorted(game_ids) if sort else game_ids),
        round=pd.Categorical(pg["round"], categories=sorted(rounds) if sort else rounds),
    )
    pd.testing.assert_frame_equal(standings.crosstable(coded, table), want, check_exact=True)


@pytest.mark.parametrize("categories", [["black", "white"], ["white", "black"]])
def test_the_colours_of_the_cells_are_the_games_whatever_their_type(categories):
    games, history = tables()
    pg = lists.player_games(games)
    table = standings.standings(pg, standings.player_tournaments(pg, history))
    want = standings.crosstable(pg, table)
    assert want["colour"].cat.categories.tolist() == ["black", "white"]
    # the site passes colours as categories; the first row of pg is a White game or not
    for first in ("black", "white"):
        start = pg.index[pg["colour"] == first][0]
        rows = pg.loc[[start, *pg.index.drop(start)]].reset_index(drop=True)
        coded = rows.assign(colour=pd.Categorical(rows["colour"], categories=categories))
        got = standings.crosstable(coded, table)
        pd.testing.assert_series_equal(got["colour"], want["colour"])
