"""What the pages show, computed in bulk (whr.lists.view) and written compactly (the site's list
data): the shortcuts taken for speed give what the plain definitions give
(whr.lists.player_games, whr.lists.gy1_list, Python's own number format)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
import support

import whr.lists
from whr import lists
from whr.lists.views import numbered_player_games
from whr.publish.site.contract import LIST
from whr.publish.site.frame import json_arrays
from whr.publish.site.lists import columns_json


@pytest.fixture(scope="module")
def snapshot(small) -> whr.lists.Snapshot:
    return support.snapshot_of(small)


def odd_games(games: pd.DataFrame) -> pd.DataFrame:
    """The games with some tournaments missing or named "" and some rounds missing or text."""
    out = games.copy()
    tid = out["tournament_id"].astype(object).to_numpy().copy()
    rnd = out["round"].astype(object).to_numpy().copy()
    tid[::7], tid[3::11] = None, ""
    rnd[::5], rnd[2::9] = None, "final"
    out["tournament_id"] = pd.array(tid, dtype=games["tournament_id"].dtype)
    out["round"] = pd.array(rnd, dtype=games["round"].dtype)
    return out


@pytest.mark.parametrize("odd", [False, True])
def test_numbered_player_games_are_lists_player_games(snapshot, odd):
    tables = snapshot.tables
    games = odd_games(tables.games) if odd else tables.games
    players = lists.players_index(tables.ratings, tables.players)["player"]
    assert support.ODD_ID in players.tolist()  # sorts first as text, last by number
    if odd:  # players not on the list (as of a game after the list's day) have no number
        players = players.iloc[3:]
    number = pa.array(players)
    t_ids = games["tournament_id"].fillna("").astype("str").unique()
    t_number = pa.array(np.random.default_rng(0).permutation(t_ids))  # any numbering
    got = numbered_player_games(games, number, t_number)
    want = lists.player_games(games)
    # the same rows in the same order: a game and a colour make a row
    assert got["game_id"].astype("str").tolist() == want["game_id"].tolist()
    assert got["colour"].astype("str").tolist() == want["colour"].tolist()
    listed = set(players)
    for side in ("player", "opponent"):
        ids = [p if p in listed else None for p in want[side]]
        assert [players.iloc[i] if i >= 0 else None for i in got[side]] == ids
    t_text = np.asarray(t_number, object)
    assert t_text[got["tournament_id"]].tolist() == want["tournament_id"].fillna("").tolist()
    assert got["round"].astype("str").tolist() == want["round"].fillna("").tolist()
    assert (got["day"].to_numpy() == want["day"].to_numpy()).all()
    for column in ("score", "rating", "opponent_rating"):
        assert np.array_equal(got[column], want[column], equal_nan=True)


def swapped(games: pd.DataFrame) -> pd.DataFrame:
    """The games with the colours swapped (the same games, each player with the other colour)."""
    out = games.copy()
    for column in ("", "_rating", "_uncertainty"):
        out["black" + column], out["white" + column] = (
            games["white" + column],
            games["black" + column],
        )
    out["result"] = 1.0 - games["result"]
    return out


@pytest.mark.parametrize("swap", [False, True])
def test_crosstable_colours_are_those_of_the_games(snapshot, swap):
    # the first of the rows by player is a game with Black, or (swapped) with White
    games = swapped(snapshot.tables.games) if swap else snapshot.tables.games
    view = support.view_of(snapshot, games=games)
    black = games.set_index("game_id")["black"]
    ids = view.players["player"].to_numpy(object)
    pg = view.player_games
    white = (pg["colour"] == "white").to_numpy(bool)
    with_white = ids[pg["player"]] != black[pg["game_id"].astype("str")].to_numpy(object)
    assert (with_white == white).all()
    cells = view.crosstable.merge(
        view.standings[["tournament_id", "number", "player"]], on=["tournament_id", "number"]
    )
    by_game = pd.Series(white, index=[pg["game_id"].astype("str"), pg["player"]])
    want = by_game[list(zip(cells["game_id"].astype("str"), cells["player"], strict=True))]
    assert ((cells["colour"] == "white").to_numpy(bool) == want.to_numpy(bool)).all()


def test_gy1_ranks_are_those_of_the_gy1_lists(snapshot):
    current = snapshot.view.current
    ratings = current.frame
    gy1 = lists.gy1_list(ratings)
    rank = dict(zip(ratings["player"], current.gy1_rank, strict=True))
    assert {p: r for p, r in rank.items() if r} == dict(
        zip(gy1["player"], gy1["gy1_rank"], strict=True)
    )
    within = dict(zip(ratings["player"], current.gy1_country_rank, strict=True))
    countries = gy1["country"].dropna().unique()
    assert any((gy1["country"] == c).sum() > 1 for c in countries)  # ranks beyond 1 tested
    for code in countries:  # the definition: each country's own Gy1 list
        part = lists.gy1_list(gy1.loc[gy1["country"] == code].reset_index(drop=True))
        assert [within[p] for p in part["player"]] == part["gy1_rank"].tolist()
    assert {p for p, r in within.items() if r} == set(gy1.loc[gy1["country"].notna(), "player"])


def test_json_arrays_write_whole_numbers_as_python_does():
    rng = np.random.default_rng(3)
    floats = np.concatenate(
        [rng.normal(0, 3000, 500), [0.5, 1.5, 2.5, -0.5, -1.5, -0.4, 1e12 + 0.5, np.nan]]
    )
    floats[rng.integers(0, 500, 40)] = np.nan
    columns = [
        floats,
        rng.integers(-(2**40), 2**40, 300),
        np.array([], np.float64),
        np.full(3, np.nan),
        np.arange(5, dtype=np.int32),
    ]
    want = [
        json.dumps(
            [None if np.isnan(x) else round(x) for x in c.astype(np.float64).tolist()]
            if c.dtype.kind == "f"
            else c.tolist(),
            separators=(",", ":"),
        )
        for c in columns
    ]
    assert json_arrays(columns) == want
    required = {f.name: np.array([1, 2]) for f in LIST.fields if not f.optional}
    written = columns_json({**required, "change": np.array([1.4, np.nan])})
    assert written.endswith(',"q":[1,2],"d":[1,"n"]}'), written  # "n": a new player
