"""The Elo-era list in the shape of the WHR lists (``elo.elo_list``).

Expected ratings, statuses and ranks are worked out by hand from the 1997 rules; the rating
column is also checked against ``elo.replay`` and the counting columns against the WHR list of
the same games (built by ``whr.fit`` and ``whr.lists.list_on``).
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest

import whr
from whr import elo, lists
from whr.research.synthetic import history as synthetic_history
from whr.tables import GAMES, PLAYERS, RATINGS, conform, to_table

D = dt.date


def E(r: float, o: float) -> float:  # the rules' expectancy, written out independently
    return 1.0 / (1.0 + 2.0 ** ((o - r) / 120.0))


def rnd(x: float) -> int:  # half away from zero, as the rules round
    return int(np.copysign(np.floor(abs(x) + 0.5), x))


def table(rows: list[tuple[str, str, str, str, float]]) -> pd.DataFrame:
    """(tournament, date, black, white, black's score) -> a games table (schema GAMES)."""
    frame = pd.DataFrame(
        {
            "game_id": [f"g{i}" for i in range(len(rows))],
            "tournament_id": [r[0] for r in rows],
            "round": ["1"] * len(rows),
            "black": [r[2] for r in rows],
            "white": [r[3] for r in rows],
            "result": [float(r[4]) for r in rows],
            "date": [D.fromisoformat(r[1]) for r in rows],
        }
    )
    return conform(frame.reindex(columns=GAMES.names).astype(object), GAMES)


def initial(**ratings: float) -> pd.DataFrame:
    return pd.DataFrame({"player": list(ratings), "rating": list(ratings.values())})


def players_of(countries: dict[str, str]) -> pd.DataFrame:
    return conform(
        pd.DataFrame(
            {
                "player_id": list(countries),
                "name": [f"Name {p}" for p in countries],
                "country": list(countries.values()),
                "birth": ["1980-00-00"] * len(countries),
            }
        ).reindex(columns=PLAYERS.names),
        PLAYERS,
    )


AS_OF = D(2020, 6, 15)  # five years before: 2015-06-15


def status_games() -> pd.DataFrame:
    rows = [
        ("t1", "2015-06-15", "A", "B", 0.5),  # last game exactly 5 years before AS_OF
        ("t2", "2015-06-16", "C", "D", 0.5),  # one day later
        ("t3", "2020-06-01", "X", "E", 1.0),  # X: new, one win against E (2150)
    ]
    # Y: 10 games against E, 2 wins, 1 draw -> 2.5 points: still provisional
    # Z: 10 games against E, 3 wins -> 3 points: established
    for i in range(10):
        rows.append(("t4", "2020-06-10", "Y", "E", 1.0 if i < 2 else 0.5 if i == 2 else 0.0))
        rows.append(("t4", "2020-06-10", "E", "Z", 0.0 if i < 3 else 1.0))
    return table(rows)


STATUS_PLAYERS = players_of(
    {"A": "RU", "B": "JP", "C": "RU", "D": "JP", "E": "RU", "X": "RU", "Y": "JP", "Z": "JP"}
)
STATUS_START = initial(A=2200, B=2200, C=2100, D=2100, E=2150)


def status_list() -> pd.DataFrame:
    return elo.elo_list(
        status_games(), STATUS_PLAYERS, AS_OF, initial=STATUS_START, seed_rating=None
    )


def test_statuses_ranks_and_order_worked_out_by_hand() -> None:
    lst = status_list()
    # A-B and C-D are draws between equal ratings (no change); games against provisional
    # players change no established rating (E stays 2150). X: (2150 + 400) / 1 = 2550, capped
    # at 2150 + 300 = 2450. Y: floor((10 * 2150 + 400 * (2 - 7)) / 10) = 1950.
    # Z: floor((10 * 2150 + 400 * (3 - 7)) / 10) = 1990, established (10 games, 3 points).
    expected = [
        # player, rating, status, rank, country_rank
        ("A", 2200.0, "active", 1, 1),  # last game exactly D - 5 years: still active (rule 10)
        ("B", 2200.0, "active", 2, 1),  # tie with A, as many games: by id, 1..n
        ("E", 2150.0, "active", 3, 2),
        ("C", 2100.0, "active", 4, 3),
        ("D", 2100.0, "active", 5, 2),
        ("Z", 1990.0, "active", 6, 3),
        ("X", 2450.0, "provisional", None, None),
        ("Y", 1950.0, "provisional", None, None),  # 10 games, but provisional by the rules
    ]
    assert lst["player"].tolist() == [e[0] for e in expected]
    assert lst["rating"].tolist() == [e[1] for e in expected]
    assert lst["status"].tolist() == [e[2] for e in expected]
    assert [None if pd.isna(r) else int(r) for r in lst["rank"]] == [e[3] for e in expected]
    assert [None if pd.isna(r) else int(r) for r in lst["country_rank"]] == [e[4] for e in expected]
    assert lst["uncertainty"].isna().all()
    assert (lst["list_date"] == AS_OF).all()
    y = lst.set_index("player").loc["Y"]
    assert (y["games"], y["wins"], y["draws"], y["losses"]) == (10, 2, 1, 7)


def test_five_year_boundary_moves_with_the_list_date() -> None:
    # one day earlier, A and B's last game (2015-06-15) is one day inside the window
    lst = elo.elo_list(
        status_games(), STATUS_PLAYERS, D(2020, 6, 14), initial=STATUS_START, seed_rating=None
    ).set_index("player")
    assert lst.loc["A", "status"] == "active" and lst.loc["B", "status"] == "active"
    # one day later, C and D's last game (2015-06-16) is exactly five years before: active;
    # A and B's is five years and a day before: inactive
    lst = elo.elo_list(
        status_games(), STATUS_PLAYERS, D(2020, 6, 16), initial=STATUS_START, seed_rating=None
    ).set_index("player")
    assert lst.loc["C", "status"] == "active" and lst.loc["D", "status"] == "active"
    assert lst.loc["A", "status"] == "inactive" and lst.loc["B", "status"] == "inactive"


def test_the_frame_conforms_to_ratings() -> None:
    lst = status_list()
    assert list(lst.columns) == RATINGS.names
    arrow = to_table(lst, RATINGS)
    assert arrow.schema.equals(RATINGS)
    assert arrow.column("uncertainty").null_count == len(lst)
    # conform is a no-op on it: the dtypes are exactly those of the schema
    pd.testing.assert_frame_equal(conform(lst, RATINGS), lst)
    # and the same dtypes as a WHR list
    whr_list = whr_list_of(status_games(), STATUS_PLAYERS, AS_OF)
    assert lst.dtypes.to_dict() == whr_list.dtypes.to_dict()


def whr_list_of(games: pd.DataFrame, players: pd.DataFrame, on: dt.date) -> pd.DataFrame:
    fit = whr.fit(games)
    return lists.list_on(on, fit.history, lists.player_games(games), players, fit.rating_on)


COUNTS = [
    "name",
    "native_name",
    "country",
    "country_name",
    "female",
    "birth_year",
    "games",
    "wins",
    "draws",
    "losses",
    "gy1",
    "gy2",
    "gy5",
    "first_game",
    "last_game",
]


def test_counting_columns_equal_the_whr_lists() -> None:
    games = status_games()
    lst = status_list().set_index("player")
    wl = whr_list_of(games, STATUS_PLAYERS, AS_OF).set_index("player")
    assert set(lst.index) == set(wl.index)  # everyone here got an Elo rating
    pd.testing.assert_frame_equal(lst[COUNTS], wl.loc[lst.index, COUNTS])
    # and by hand for E: 1 loss to X, then against Y 2 losses 1 draw 7 wins, against Z 3 losses
    # 7 wins; all within the last year
    e = lst.loc["E"]
    assert (e["games"], e["wins"], e["draws"], e["losses"]) == (21, 14, 1, 6)
    assert (e["gy1"], e["gy2"], e["gy5"]) == (21, 21, 21)
    assert (e["first_game"], e["last_game"]) == (D(2020, 6, 1), D(2020, 6, 10))
    assert e["birth_year"] == 1980 and e["name"] == "Name E"


@pytest.mark.parametrize("rules", ["1997", "1996", "era"])
def test_ratings_equal_the_replay_on_a_synthetic_history(rules: str) -> None:
    h = synthetic_history(1500, seed=3)
    games = h.games
    days = pd.to_datetime(games["date"])
    for as_of in (
        (days.min() + (days.max() - days.min()) / 2).date(),
        days.max().date(),
    ):
        lst = elo.elo_list(games, h.players, as_of, rules)
        rep = elo.replay(games, rules, as_of)
        assert sorted(lst["player"]) == sorted(rep["player"])
        merged = lst.merge(rep, on="player", suffixes=("", "_elo"))
        np.testing.assert_array_equal(merged["rating"], merged["rating_elo"])
        assert (
            (merged["status"] == "provisional") == (merged["status_elo"] != "established")
        ).all()
        to_table(lst, RATINGS)
        # counts: the same games as the WHR list, i.e. every game up to as_of
        sides = lists.player_games(games)
        sides = sides.loc[sides["day"] <= np.datetime64(as_of, "D")]
        per = sides.groupby("player").size()
        np.testing.assert_array_equal(lst["games"], per.loc[lst["player"]].to_numpy())
        assert (lst["best_rating"] >= lst["rating"]).all()
        assert (pd.to_datetime(lst["best_date"]) <= pd.Timestamp(as_of)).all()


@pytest.mark.parametrize("rules", ["1997", "1996", "era"])
def test_rating_history_ends_in_the_replays_rating(rules: str) -> None:
    h = synthetic_history(1500, seed=4)
    hist = elo.rating_history(h.games, rules)
    assert not hist.duplicated(["player", "date"]).any()
    days = pd.to_datetime(h.games["date"])
    for frac in (0.3, 0.7):
        as_of = (days.min() + (days.max() - days.min()) * frac).date()
        upto = hist.loc[pd.to_datetime(hist["date"]) <= pd.Timestamp(as_of)]
        last = upto.sort_values(["player", "date"]).groupby("player")["rating"].last()
        rep = elo.replay(h.games, rules, as_of).set_index("player")["rating"]
        pd.testing.assert_series_equal(
            last.sort_index(), rep.sort_index(), check_names=False, check_index_type=False
        )


def best_games() -> pd.DataFrame:
    return table(
        [
            ("t1", "2001-01-10", "A", "B", 1.0),
            ("t2", "2001-01-30", "B", "A", 1.0),  # t2 is still running on January 31
            ("t2", "2001-02-10", "C", "A", 0.5),
        ]
    )


def test_best_rating_and_a_list_in_the_past_ignore_later_games() -> None:
    games = best_games()
    start = initial(A=2200, B=2200, C=2200)
    people = players_of({"A": "RU", "B": "RU", "C": "JP"})
    # t1: A beats B at equal ratings: +16 / -16
    jan = elo.elo_list(games, people, D(2001, 1, 31), initial=start, seed_rating=None)
    jan = jan.set_index("player")
    assert jan.loc["A", "rating"] == 2216 and jan.loc["B", "rating"] == 2184
    assert jan.loc["A", "best_rating"] == 2216 and jan.loc["A", "best_date"] == D(2001, 1, 10)
    # t2 ends after the list date: not rated yet, but its January 30 game is counted, as on
    # the WHR list; its February game is not
    assert (jan.loc["A", "games"], jan.loc["A", "wins"], jan.loc["A", "losses"]) == (2, 1, 1)
    assert jan.loc["A", "last_game"] == D(2001, 1, 30)
    assert "C" not in jan.index  # C's only game is after the list date
    # t2: A (2216) loses to B (2184) and draws C (2200); changes summed, then rounded
    ea_b, ea_c = E(2216, 2184), E(2216, 2200)
    a_after = 2216 + rnd(32 * ((0 - ea_b) + (0.5 - ea_c)))
    b_after = 2184 + rnd(32 * (1 - (1 - ea_b)))
    c_after = 2200 + rnd(32 * (0.5 - (1 - ea_c)))
    # so A's best is the rating it had after t1, B's the one after t2
    assert a_after < 2216 and b_after > 2200
    dec = elo.elo_list(games, people, D(2001, 12, 31), initial=start, seed_rating=None)
    dec = dec.set_index("player")
    assert dec.loc["A", "rating"] == a_after
    assert dec.loc["A", "best_rating"] == 2216 and dec.loc["A", "best_date"] == D(2001, 1, 10)
    assert dec.loc["B", "rating"] == b_after
    assert dec.loc["B", "best_rating"] == b_after and dec.loc["B", "best_date"] == D(2001, 2, 10)
    assert dec.loc["C", "rating"] == c_after
    assert dec.loc["A", "games"] == 3 and dec.loc["A", "last_game"] == D(2001, 2, 10)


def test_inputs_are_not_modified_and_arguments_are_checked() -> None:
    games = status_games()
    before = games.copy()
    status_list()
    pd.testing.assert_frame_equal(games, before)
    with pytest.raises(TypeError, match="as_of"):
        elo.elo_list(games, STATUS_PLAYERS, "2020-06-15")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="replay_options"):
        elo.elo_list(games, STATUS_PLAYERS, AS_OF, seed=2000)
    with pytest.raises(ValueError, match="rules"):
        elo.elo_list(games, STATUS_PLAYERS, AS_OF, rules="2021")


def test_no_rated_player_gives_an_empty_list_in_the_schema() -> None:
    games = table([("t", "2010-01-01", "X", "Y", 1.0)])
    lst = elo.elo_list(
        games, STATUS_PLAYERS, D(2011, 1, 1), initial=initial(A=2000), seed_rating=None
    )
    assert lst.empty and list(lst.columns) == RATINGS.names
    assert to_table(lst, RATINGS).schema.equals(RATINGS)
