"""Lists policy: status, rank and activity counts as of the list date (RIF rating rules 2021,
rule 10).

Expected values are derived by hand from the rules on tiny hand-made histories.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whr import lists
from whr.tables import GAMES, PLAYERS, RATINGS, conform

D = dt.date


def make_games(rows: list[tuple[str, str, float, dt.date]]) -> pd.DataFrame:
    """Rated games from (black, white, result, date) tuples."""
    frame = pd.DataFrame(
        {
            "game_id": [f"g{i}" for i in range(len(rows))],
            "tournament_id": ["t1"] * len(rows),
            "round": [str(i + 1) for i in range(len(rows))],
            "black": [r[0] for r in rows],
            "white": [r[1] for r in rows],
            "result": [r[2] for r in rows],
            "date": [r[3] for r in rows],
        }
    )
    return conform(frame.reindex(columns=GAMES.names).astype(object), GAMES)


def history_of(games: pd.DataFrame, ratings: dict[str, float]) -> pd.DataFrame:
    """A history with one row per player and game day; rating constant per player, except
    that player ``"peak"``'s rating is its base plus 10 per game day (so it increases)."""
    pg = lists.player_games(games)
    days = pg.groupby(["player", "day"]).size().reset_index(name="games")
    step = days.groupby("player").cumcount().to_numpy()
    base = days["player"].map(ratings).to_numpy(float)
    rating = np.where(days["player"].to_numpy() == "peak", base + 10.0 * step, base)
    return pd.DataFrame(
        {
            "player": days["player"],
            "date": [d.item() for d in days["day"].to_numpy().astype("datetime64[D]")],
            "rating": rating,
            "uncertainty": 50.0,
            "games": days["games"].astype("int32"),
        }
    )


def rating_on_of(history: pd.DataFrame):
    """``Fit.rating_on``'s rule (docs/solver.md) without interpolation subtleties: the last
    rating-day value on or before the day (these histories are flat between days except for
    ``peak``)."""

    def rating_on(day: dt.date) -> pd.DataFrame:
        h = history.loc[history["date"] <= day].sort_values(["player", "date"])
        last = h.groupby("player").tail(1)
        return pd.DataFrame(
            {
                "player": last["player"],
                "rating": last["rating"],
                "uncertainty": last["uncertainty"],
                "last_date": last["date"],
            }
        )

    return rating_on


def players_of(ids: list[str], country: str = "AAA") -> pd.DataFrame:
    return conform(
        pd.DataFrame(
            {
                "player_id": ids,
                "name": [f"Name {i}" for i in ids],
                "country": [country] * len(ids),
                "birth": ["1990-00-00"] * len(ids),
            }
        ).reindex(columns=PLAYERS.names),
        PLAYERS,
    )


def build(rows, ratings, on, players=None):
    games = make_games(rows)
    history = history_of(games, ratings)
    pg = lists.player_games(games)
    ids = sorted(set(pg["player"]))
    frame = lists.list_on(
        on, history, pg, players if players is not None else players_of(ids), rating_on_of(history)
    )
    return frame.set_index("player")


def series(player: str, opponent: str, n: int, start: dt.date, step_days: int = 1):
    """``n`` games of ``player`` (Black, winning) against ``opponent``, one a day from ``start``."""
    return [(player, opponent, 1.0, start + dt.timedelta(days=step_days * i)) for i in range(n)]


def test_nine_games_is_provisional_ten_is_established():
    on = D(2020, 6, 1)
    rows = series("nine", "x", 9, D(2020, 1, 1)) + series("ten", "y", 10, D(2020, 1, 1))
    out = build(rows, {"nine": 2000, "ten": 2100, "x": 1900, "y": 1800}, on)
    assert out.loc["nine", "games"] == 9
    assert out.loc["nine", "status"] == "provisional"
    assert pd.isna(out.loc["nine", "rank"])
    assert out.loc["ten", "games"] == 10
    assert out.loc["ten", "status"] == "active"
    assert out.loc["ten", "rank"] == 1
    # x and y are the opponents: 9 and 10 games as well
    assert out.loc["x", "status"] == "provisional"
    assert out.loc["y", "status"] == "active"
    assert out.loc["y", "rank"] == 2


def test_last_game_exactly_five_years_before_is_active_one_day_earlier_inactive():
    # Rule 10: active when the last game is "not more than 5 years" before the list date.
    on = D(2020, 6, 1)
    five = D(2015, 6, 1)
    rows = series("edge", "o1", 10, five - dt.timedelta(days=9))  # last game exactly D - 5 years
    rows += series("gone", "o2", 10, five - dt.timedelta(days=10))  # D - 5 years - 1 day
    out = build(rows, {"edge": 2000, "gone": 2000, "o1": 1900, "o2": 1900}, on)
    assert out.loc["edge", "last_game"] == five
    assert out.loc["edge", "status"] == "active"
    assert out.loc["edge", "rank"] == 1
    # Gy5 counts in the same window: an active player never shows Gy5 = 0
    assert out.loc["edge", "gy5"] == 1
    assert out.loc["gone", "last_game"] == five - dt.timedelta(days=1)
    assert out.loc["gone", "status"] == "inactive"
    assert pd.isna(out.loc["gone", "rank"])


def test_status_function_boundaries_directly():
    on = D(2024, 2, 29)
    got = lists.status(
        [9, 10, 10, 10, 10, 100],
        [on, on, D(2019, 2, 27), D(2019, 2, 28), D(2019, 3, 1), D(2000, 1, 1)],
        on,
    )
    # D - 5 years of a February 29 is February 28 (no Feb 29 in 2019): that day is inside.
    assert got.tolist() == ["provisional", "active", "inactive", "active", "active", "inactive"]


def test_status_with_established_given_by_another_rating_system():
    on = D(2024, 2, 29)
    got = lists.status(
        [3, 30, 30, 30],
        [on, on, D(2019, 2, 27), D(2019, 2, 28)],
        on,
        established=[True, False, True, True],
    )
    # established decides, not the 10 games; the 5-year window is the same
    assert got.tolist() == ["active", "provisional", "inactive", "active"]
    with pytest.raises(ValueError, match="established"):
        lists.status([3, 30], [on, on], on, established=[True])


def test_a_list_before_the_first_game_is_empty_in_the_schema():
    games = make_games([("a", "b", 1.0, D(2020, 1, 1))])
    history = history_of(games, {"a": 2000.0, "b": 2000.0})
    frame = lists.list_on(
        D(2019, 12, 31), history, lists.player_games(games), players_of([]), rating_on_of(history)
    )
    assert frame.empty and list(frame.columns) == RATINGS.names


def test_status_rejects_games_after_the_list_date():
    with pytest.raises(ValueError, match="list date"):
        lists.status([10], [D(2021, 1, 1)], D(2020, 1, 1))
    with pytest.raises(TypeError, match="on must be a datetime.date"):
        lists.status([10], [D(2021, 1, 1)], "2020-01-01")


def test_activity_windows_include_the_day_exactly_n_years_before():
    on = D(2020, 6, 1)
    days = [
        D(2019, 6, 1),
        D(2019, 6, 2),
        D(2018, 6, 1),
        D(2018, 6, 2),
        D(2015, 6, 1),
        D(2015, 6, 2),
        on,
    ]
    rows = [("p", "q", 0.5, d) for d in days]
    out = build(rows, {"p": 2000, "q": 2000}, on)
    # the active rule's window [D - N years, D]: [D-1y, D]: 2019-06-01, 2019-06-02 and D;
    # [D-2y, D]: + 2018-06-01, 2018-06-02; [D-5y, D]: + 2015-06-01, 2015-06-02
    assert out.loc["p", ["gy1", "gy2", "gy5", "games"]].tolist() == [3, 5, 7, 7]
    assert out.loc["p", ["wins", "draws", "losses"]].tolist() == [0, 7, 0]
    assert out.loc["p", "first_game"] == D(2015, 6, 1)


def test_historical_list_counts_only_games_up_to_its_date():
    # "late" plays 5 games in 2009 and 7 in 2012: provisional on 2010-12-31, active on 2013-12-31.
    # "gone" plays 12 games in 2001: active on 2005-12-31, inactive on 2010-12-31.
    rows = series("late", "a", 5, D(2009, 3, 1)) + series("late", "a", 7, D(2012, 3, 1))
    rows += series("gone", "b", 12, D(2001, 3, 1))
    ratings = {"late": 2200, "a": 1900, "gone": 2100, "b": 1800}
    y2005 = build(rows, ratings, D(2005, 12, 31))
    assert "late" not in y2005.index  # no game yet: not listed
    assert y2005.loc["gone", "status"] == "active"
    assert y2005.loc["gone", "rank"] == 1
    y2010 = build(rows, ratings, D(2010, 12, 31))
    assert y2010.loc["late", "games"] == 5
    assert y2010.loc["late", "status"] == "provisional"
    assert y2010.loc["gone", "status"] == "inactive"
    y2013 = build(rows, ratings, D(2013, 12, 31))
    assert y2013.loc["late", "games"] == 12
    assert y2013.loc["late", "status"] == "active"
    assert y2013.loc["late", "last_game"] == D(2012, 3, 7)
    assert y2013.loc["a", "rank"] == 2  # 12 games as well, rated 1900 < 2200


def test_best_rating_counts_only_rating_days_up_to_the_list_date():
    rows = series("peak", "z", 10, D(2020, 1, 1))  # peak rates 2000, 2010, ..., 2090
    out = build(rows, {"peak": 2000, "z": 1900}, D(2020, 1, 4))
    assert out.loc["peak", "best_rating"] == 2030
    assert out.loc["peak", "best_date"] == D(2020, 1, 4)
    later = build(rows, {"peak": 2000, "z": 1900}, D(2030, 1, 1))
    assert later.loc["peak", "best_rating"] == 2090
    assert later.loc["peak", "status"] == "inactive"


def test_ranks_are_1_to_n_ties_by_id_whatever_the_games_and_country_ranks_alike():
    start = D(2020, 1, 1)
    rows = []
    for p, o, n in (("a", "oa", 10), ("b", "ob", 10), ("c", "oc", 10), ("m", "om", 12)):
        rows += series(p, o, n, start)
    # a, b, m tie at 2300: by id, although m has more games; c below; oc, om tie at 1000
    ratings = {"a": 2300, "b": 2300, "m": 2300, "c": 2100, "oa": 2000, "ob": 1950}
    ratings |= {"oc": 1000, "om": 1000}
    players = pd.concat(
        [players_of(["a", "c", "oa", "oc", "m", "om"], "AAA"), players_of(["b", "ob"], "BBB")],
        ignore_index=True,
    )
    games = make_games(rows)
    history = history_of(games, ratings)
    frame = lists.list_on(
        D(2020, 2, 1), history, lists.player_games(games), players, rating_on_of(history)
    )
    assert list(frame.columns) == RATINGS.names
    assert frame["player"].tolist() == ["a", "b", "m", "c", "oa", "ob", "oc", "om"]
    assert frame["rank"].tolist() == [1, 2, 3, 4, 5, 6, 7, 8]
    assert frame["country_rank"].tolist() == [1, 1, 2, 3, 4, 2, 5, 6]


def test_ranks_follow_the_unrounded_ratings_not_more_games():
    # The list: rounded to 0.01 Elo with more games first, it read B, D, C, A.
    ratings = {"A": 2000.0049, "B": 2000.0051, "C": 2000.0141, "D": 2000.0101}
    rows = []
    for p, n in (("A", 10), ("B", 40), ("C", 10), ("D", 20)):
        rows += series(p, f"o{p}", n, D(2020, 1, 1))
    frame = build(rows, ratings | {f"o{p}": 1500.0 for p in ratings}, D(2020, 6, 1))
    assert frame.loc[["C", "D", "B", "A"], "rank"].tolist() == [1, 2, 3, 4]


def test_tied_players_are_ordered_by_id_in_natural_order():
    # "9" before "10" (numbers by value), as in the players index; equal ratings exactly
    rows = series("10", "x", 10, D(2020, 1, 1)) + series("9", "y", 10, D(2020, 1, 1))
    frame = build(rows, {"10": 2000.0, "9": 2000.0, "x": 1500.0, "y": 1400.0}, D(2020, 6, 1))
    assert frame.loc[["9", "10"], "rank"].tolist() == [1, 2]


def test_symmetric_players_are_ranked_by_id_whatever_the_float_noise():
    # Two players with mirror records get ratings equal up to rounding noise of the fit
    # (1880.2797242924821 and 1880.279724292482 in the issue); the noise must not decide.
    rows = series("p2", "q", 10, D(2020, 1, 1)) + series("p1", "r", 10, D(2020, 1, 1))
    games = make_games(rows)
    history = history_of(games, {"p1": 1880.279724292482, "p2": 1880.2797242924821})
    history.loc[history["player"].isin(["q", "r"]), "rating"] = 1500.0
    frame = lists.list_on(
        D(2020, 2, 1),
        history,
        lists.player_games(games),
        players_of(["p1", "p2", "q", "r"]),
        rating_on_of(history),
    )
    assert frame["player"].tolist()[:2] == ["p1", "p2"]
    assert frame["rank"].tolist()[:2] == [1, 2]
    # the same with the noise the other way round
    history.loc[history["player"] == "p1", "rating"] = 1880.2797242924821
    history.loc[history["player"] == "p2", "rating"] = 1880.279724292482
    frame = lists.list_on(
        D(2020, 2, 1),
        history,
        lists.player_games(games),
        players_of(["p1", "p2", "q", "r"]),
        rating_on_of(history),
    )
    assert frame["player"].tolist()[:2] == ["p1", "p2"]


# Ratings near one another: exact ties, near ties (steps of 4e-7 Elo: chains longer than 1e-6)
# and clearly different ratings, so that the property tests meet every case of the rule.
_RATINGS = st.builds(
    lambda base, step: base + step * 4e-7,
    st.sampled_from([1500.0, 2000.0, 2000.0000009, 2000.01, 2100.0]),
    st.integers(0, 4),
)
_IDS = st.sampled_from(["1", "2", "9", "10", "010", "11", "a", "b", "B", "x7", "0100686"])
_PROPERTY = {"max_examples": 80, "deadline": None, "derandomize": True, "database": None}


def _never_above_a_higher_rating(ratings: np.ndarray) -> bool:
    """In rank order, no rating is lower than a later one by more than the tie tolerance."""
    later_max = np.maximum.accumulate(ratings[::-1])[::-1]
    return bool(np.all(ratings >= later_max - lists.TIE_ELO))


def _equal_ratings_by_id(frame: pd.DataFrame) -> bool:
    """Players with exactly equal ratings stand in natural id order, as the players index."""
    for _, group in frame.groupby("rating", sort=False):
        ids = group["player"].reset_index(drop=True)
        if ids.iloc[lists.natural_order(ids)].tolist() != ids.tolist():
            return False
    return True


@settings(**(_PROPERTY | {"max_examples": 40}))
@given(st.lists(st.tuples(_IDS, _RATINGS, st.sampled_from(["AAA", "BBB"])), min_size=2,
                max_size=11, unique_by=lambda t: t[0]))  # fmt: skip
def test_property_no_rank_is_above_a_higher_rating_on_a_list(players):
    """A list built as published (list_on): world and country ranks follow the ratings."""
    ids = [p for p, _, _ in players]
    rows = []
    for i, p in enumerate(ids):  # a ring: everybody has 20 games, all active
        rows += series(p, ids[(i + 1) % len(ids)], 10, D(2020, 1, 1) + dt.timedelta(days=20 * i))
    facts = players_of(ids)
    facts["country"] = [c for _, _, c in players]
    frame = build(rows, {p: r for p, r, _ in players}, D(2021, 1, 1), facts).reset_index()
    assert frame["rank"].tolist() == list(range(1, len(ids) + 1))
    assert _never_above_a_higher_rating(frame["rating"].to_numpy(float))
    assert _equal_ratings_by_id(frame)
    for _, country in frame.groupby("country"):
        assert country["country_rank"].tolist() == list(range(1, len(country) + 1))
        assert _never_above_a_higher_rating(country["rating"].to_numpy(float))


@settings(**_PROPERTY)
@given(st.lists(_RATINGS, min_size=1, max_size=60))
def test_property_rank_order_groups_ties_within_the_tolerance(ratings):
    """rank_order itself on longer lists (long chains of near ties): never above a rating
    higher by more than 1e-6 Elo; equal ratings by id; the order is a permutation."""
    frame = pd.DataFrame(
        {"player": [str(1000 - i) for i in range(len(ratings))], "rating": ratings}
    )
    order = lists.rank_order(frame)
    assert sorted(order.tolist()) == list(range(len(ratings)))
    ranked = frame.iloc[order].reset_index(drop=True)
    assert _never_above_a_higher_rating(ranked["rating"].to_numpy(float))
    assert _equal_ratings_by_id(ranked)
    # the order does not depend on the rows' order
    again = frame.iloc[::-1].reset_index(drop=True)
    assert again["player"].iloc[lists.rank_order(again)].tolist() == ranked["player"].tolist()


def test_every_derived_rank_follows_the_same_order():
    base = pd.DataFrame(
        {
            "player": ["z", "y", "x", "w"],
            # z is 0.001 Elo higher: not a tie; y and x tie exactly; w is lower
            "rating": [2000.001, 2000.0, 2000.0, 1990.0],
            "games": [20, 30, 20, 50],
            "gy1": [12, 12, 12, 12],
            "status": ["active"] * 4,
            "female": [True, True, True, False],
            "country": ["AAA"] * 4,
            "name": list("zyxw"),
        }
    )
    # z first (higher, whatever the games); then x before y by id; w is lower
    assert base["player"].iloc[lists.rank_order(base)].tolist() == ["z", "x", "y", "w"]
    base["rank"] = pd.array([1, 3, 2, 4], dtype="Int32")
    gy1 = lists.gy1_list(base)
    assert gy1["player"].tolist() == ["z", "x", "y", "w"]
    assert gy1["gy1_rank"].tolist() == [1, 2, 3, 4]
    women = lists.women(base)
    assert dict(zip(women["player"], women["rank"], strict=True)) == {"z": 1, "x": 2, "y": 3}
    five = lists.top_five({D(2020, 12, 31): base.assign(list_date=D(2020, 12, 31))}, places=3)
    assert five["player"].tolist() == ["z", "x", "y"]
    assert five["rank"].tolist() == [1, 2, 3]


def test_unknown_player_facts_fall_back_to_the_id():
    out = build(
        series("p", "q", 3, D(2020, 1, 1)),
        {"p": 2000, "q": 1900},
        D(2020, 2, 1),
        players=players_of(["p"]),
    )
    assert out.loc["q", "name"] == "q"
    assert pd.isna(out.loc["q", "country"])
    assert out.loc["p", "birth_year"] == 1990


def test_year_ends_only_for_years_with_rated_games():
    days = [D(1989, 5, 1), D(1990, 3, 1), D(1992, 7, 1), D(1992, 8, 1)]
    assert lists.year_ends(days, D(1992, 12, 30)) == [D(1990, 12, 31), D(1989, 12, 31)]
    assert lists.year_ends(days, D(1992, 12, 31)) == [
        D(1992, 12, 31),
        D(1990, 12, 31),
        D(1989, 12, 31),
    ]  # 1991 had no rated game: no list
    # a wrong date centuries back opens one list, not centuries of them
    assert lists.year_ends([D(201, 5, 1), D(2019, 5, 1)], D(2020, 1, 1)) == [
        D(2019, 12, 31),
        D(201, 12, 31),
    ]
    assert lists.year_ends([], D(2020, 1, 1)) == []


def test_year_end_and_top_lists():
    rows = series("a", "b", 12, D(2001, 1, 1)) + series("c", "d", 12, D(2002, 1, 1))
    games = make_games(rows)
    history = history_of(games, {"a": 2500, "b": 2000, "c": 2450, "d": 1000})
    pg = lists.player_games(games)
    year = lists.year_end_lists(
        D(2003, 6, 1), history, pg, players_of(["a", "b", "c", "d"]), rating_on_of(history)
    )
    assert list(year) == [D(2002, 12, 31), D(2001, 12, 31)]
    five = lists.top_five(year, places=2)
    # 2002: a (2500) played no game that year (Gy1 = 0), so c and d are the top two of 2002
    assert five["player"].tolist() == ["c", "d", "a", "b"]
    assert five["rank"].tolist() == [1, 2, 1, 2]
    assert five["list_rank"].tolist() == [2, 4, 1, 2]  # 2002 list: a, c, b, d
    # within 100 of No. 1 (2500): a and c (2450), never b (2000) nor d
    assert lists.top_players(year, top=3, within=100) == ["a", "c"]
    # the RIF site's chart: the first 12 within 165 points of No. 1
    assert lists.top_players(year) == lists.top_players(year, top=12, within=165.0) == ["a", "c"]


def test_year_end_lists_are_the_lists_on_each_december_31():
    # "late" has no player facts (female null) and plays from 2002 on: the 2001 list knows
    # every player's sex, the 2002 list does not, and each is typed as a list of its own
    rows = series("a", "b", 12, D(2001, 1, 1)) + series("late", "a", 3, D(2002, 3, 1))
    games = make_games(rows)
    history = history_of(games, {"a": 2500, "b": 2000, "late": 2100})
    pg = lists.player_games(games)
    players = players_of(["a", "b"])
    players["female"] = [True, False]
    rating_on = rating_on_of(history)
    year = lists.year_end_lists(D(2003, 6, 1), history, pg, players, rating_on)
    assert list(year) == [D(2002, 12, 31), D(2001, 12, 31)]
    for day, frame in year.items():
        alone = lists.list_on(day, history, pg, players, rating_on)
        pd.testing.assert_frame_equal(frame, alone, check_exact=True)
    assert year[D(2001, 12, 31)]["female"].dtype == bool
    assert year[D(2002, 12, 31)]["female"].tolist() == [True, False, None]
    assert year[D(2002, 12, 31)]["games"].tolist() == [15, 12, 3]
    assert year[D(2002, 12, 31)]["gy1"].tolist() == [3, 0, 3]


def test_inputs_are_not_mutated():
    games = make_games(series("p", "q", 3, D(2020, 1, 1)))
    before = games.copy()
    history = history_of(games, {"p": 2000, "q": 1900})
    h_before = history.copy()
    lists.rated_games(games, history)
    lists.list_on(
        D(2020, 2, 1),
        history,
        lists.player_games(games),
        players_of(["p", "q"]),
        rating_on_of(history),
    )
    pd.testing.assert_frame_equal(games, before)
    pd.testing.assert_frame_equal(history, h_before)


def test_rated_games_carry_each_players_rating_that_day():
    games = make_games([("p", "q", 1.0, D(2020, 1, 1)), ("q", "p", 0.0, D(2020, 1, 2))])
    history = history_of(games, {"p": 2000, "q": 1900})
    out = lists.rated_games(games, history)
    assert out["black_rating"].tolist() == [2000.0, 1900.0]
    assert out["white_rating"].tolist() == [1900.0, 2000.0]


def test_a_rating_on_that_misses_a_player_is_refused():
    games = make_games(series("p", "q", 3, D(2020, 1, 1)))
    history = history_of(games, {"p": 2000, "q": 1900})
    full = rating_on_of(history)

    def partial(day):
        frame = full(day)
        return frame.loc[frame["player"] != "q"]

    with pytest.raises(ValueError, match=r"no rating for 1 players.*'q'"):
        lists.list_on(
            D(2020, 2, 1), history, lists.player_games(games), players_of(["p", "q"]), partial
        )


def test_women_are_ranked_among_themselves():
    rows = []
    for p, o in (("a", "oa"), ("b", "ob"), ("c", "oc")):
        rows += series(p, o, 10, D(2020, 1, 1))
    ratings = {"a": 2300, "b": 2200, "c": 2100, "oa": 2000, "ob": 1950, "oc": 1000}
    players = players_of(["a", "b", "c", "oa", "ob", "oc"])
    players["female"] = [False, True, None, True, False, True]
    games = make_games(rows)
    history = history_of(games, ratings)
    full = lists.list_on(
        D(2020, 2, 1), history, lists.player_games(games), players, rating_on_of(history)
    )
    w = lists.women(full)
    assert w["player"].tolist() == ["b", "oa", "oc"]
    assert w["rank"].tolist() == [1, 2, 3]  # world ranks 2, 4, 6
    assert full.set_index("player").loc[["b", "oa", "oc"], "rank"].tolist() == [2, 4, 6]


def test_gy1_list_needs_ten_games_in_the_year_up_to_the_list_date():
    on = D(2026, 6, 15)
    rows = (
        series("a", "x", 10, D(2026, 6, 6))  # 10 games, all in the last year
        + [("b", "x", 1.0, D(2025, 6, 14))]  # a year and a day before: outside the window
        + series("b", "x", 9, D(2026, 1, 1))  # so b has 10 games but only 9 in the last year
        + series("c", "x", 9, D(2026, 2, 1))  # provisional: 9 games
    )
    frame = build(rows, {"a": 2000.0, "b": 2100.0, "c": 2200.0, "x": 1800.0}, on)
    # by hand: x played 29 games, 28 of them in [2025-06-15, 2026-06-15]
    assert frame.loc[["a", "b", "c", "x"], "gy1"].tolist() == [10, 9, 9, 28]
    gy1 = lists.gy1_list(frame.reset_index())
    assert gy1["player"].tolist() == ["a", "x"]  # b (9 in the year) and c (provisional) are out
    assert gy1["gy1_rank"].tolist() == [1, 2]
    assert gy1["rank"].tolist() == [2, 3]  # world ranks: b (2100) is ranked above a
    assert lists.gy1_list(frame.reset_index(), min_games=9)["player"].tolist() == ["b", "a", "x"]
    with pytest.raises(ValueError, match="min_games"):
        lists.gy1_list(frame.reset_index(), min_games=0)
    with pytest.raises(TypeError, match="min_games"):
        lists.gy1_list(frame.reset_index(), min_games=9.5)


def test_players_index_natural_id_order_with_leading_zeros_kept():
    ids = ["10", "000123", "9", "b", "007", "a"]
    rows = [(p, "000001", 1.0, D(2026, 1, i + 1)) for i, p in enumerate(ids)]
    frame = build(rows, {p: 1900.0 for p in [*ids, "000001"]}, D(2026, 6, 1))
    players = players_of([*ids, "000001"]).assign(city="Tallinn")
    index = lists.players_index(frame.reset_index(), players)
    # by hand: numbers 1, 7, 9, 10, 123, then text
    assert index["player"].tolist() == ["000001", "007", "9", "10", "000123", "a", "b"]
    assert (index["city"] == "Tallinn").all()
    assert index["games"].tolist() == [6, 1, 1, 1, 1, 1, 1]
