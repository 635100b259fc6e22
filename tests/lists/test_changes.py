"""whr.lists.changes: rating change and previous rank from the previous list, on hand-written lists."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "publish"))

import list_support  # RATINGS tables from a few hand-written fields

from whr import tables
from whr.lists import changes, views

D = list_support.D
EARLIER = D - dt.timedelta(days=1)


def lst(rows: list[dict], day: dt.date = D) -> pd.DataFrame:
    return list_support.ratings([{"list_date": day, "country": "EST", **r} for r in rows])


TODAY = lst(
    [
        {"player": "a", "name": "A", "country": "EST", "rating": 2310.0, "rank": 1},
        {"player": "b", "name": "B", "country": "EST", "rating": 2200.0, "rank": 2},
        {"player": "c", "name": "C", "country": "EST", "rating": 2000.0, "status": "provisional"},
        {"player": "new", "name": "N", "country": "EST", "rating": 1950.0, "status": "provisional"},
    ]
)
BEFORE = lst(
    [
        {"player": "b", "name": "B", "country": "EST", "rating": 2250.5, "rank": 1},
        {"player": "a", "name": "A", "country": "EST", "rating": 2300.0, "rank": 2},
        {"player": "c", "name": "C", "country": "EST", "rating": 2000.0, "status": "provisional"},
        {"player": "gone", "name": "G", "country": "EST", "rating": 2100.0, "rank": 3},
    ],
    EARLIER,
)


def test_change_and_previous_rank_by_player():
    out = changes.since(TODAY, BEFORE)
    assert out["player"].tolist() == ["a", "b", "c", "new"]  # rows as in the list
    change = dict(zip(out["player"], out["rating_change"], strict=True))
    assert change["a"] == 10.0 and change["b"] == -50.5 and change["c"] == 0.0
    assert np.isnan(change["new"])  # a new player: not on the previous list
    previous = dict(zip(out["player"], out["previous_rank"], strict=True))
    assert previous["a"] == 2 and previous["b"] == 1
    assert previous["c"] is pd.NA and previous["new"] is pd.NA  # not ranked / not listed
    # the result still writes in the published schema, and the input is left as it was
    assert tables.to_table(out, tables.RATINGS).num_rows == 4
    assert TODAY["rating_change"].isna().all()


def test_no_previous_list_leaves_every_change_null():
    for previous in (None, tables.empty(tables.RATINGS)):
        out = changes.since(TODAY, previous)
        assert out["rating_change"].isna().all() and out["previous_rank"].isna().all()


def test_the_split_columns_are_left_to_their_own_function():
    split = TODAY.assign(change_own_games=[1.0, 2.0, 3.0, 4.0])
    out = changes.since(split, BEFORE)
    assert out["change_own_games"].tolist() == [1.0, 2.0, 3.0, 4.0]


def test_bad_arguments_are_named():
    with pytest.raises(TypeError, match="previous must be a pandas.DataFrame"):
        changes.since(TODAY, [1, 2])
    with pytest.raises(ValueError, match=r"ratings must have .*missing \['rank'\]"):
        changes.since(TODAY.drop(columns="rank"), BEFORE)
    with pytest.raises(ValueError, match="previous must list each player once, got 'b' twice"):
        changes.since(TODAY, pd.concat([BEFORE, BEFORE.iloc[:1]]))
    with pytest.raises(ValueError, match="previous must be a list dated before"):
        changes.since(TODAY, lst([{"player": "a", "name": "A", "rating": 1.0, "rank": 1}]))


def test_each_year_end_list_against_the_year_before():
    y1, y2, y3 = (dt.date(y, 12, 31) for y in (2023, 2024, 2025))
    lists = {
        y3: lst([{"player": "a", "name": "A", "rating": 2100.0, "rank": 1}], y3),
        y1: lst([{"player": "a", "name": "A", "rating": 2000.0, "rank": 1}], y1),
        y2: lst([{"player": "a", "name": "A", "rating": 2040.0, "rank": 1}], y2),
    }
    out = changes.since_each(lists)
    assert list(out) == [y3, y1, y2]  # the caller's order is kept
    assert out[y3]["rating_change"].tolist() == [60.0]
    assert out[y2]["rating_change"].tolist() == [40.0]
    assert out[y1]["rating_change"].isna().all()  # the first list has no previous one


def test_players_who_entered_the_ranking_since_the_previous_list():
    today = lst(
        [
            {"player": "a", "name": "A", "rating": 2300.0, "rank": 1},  # ranked before too
            {"player": "c", "name": "C", "rating": 2200.0, "rank": 2},  # was provisional
            {"player": "new", "name": "N", "rating": 2100.0, "rank": 3},  # new, 10+ games at once
            {"player": "back", "name": "B", "rating": 2000.0, "rank": 4},  # was inactive
            {"player": "p", "name": "P", "rating": 1900.0, "status": "provisional"},
        ]
    )
    before = lst(
        [
            {"player": "a", "name": "A", "rating": 2290.0, "rank": 1},
            {"player": "c", "name": "C", "rating": 2150.0, "status": "provisional"},
            {"player": "back", "name": "B", "rating": 2000.0, "status": "inactive"},
            {"player": "p", "name": "P", "rating": 1900.0, "status": "provisional"},
        ],
        EARLIER,
    )
    marked = views.entered(changes.since(today, before))
    assert marked.tolist() == [False, True, True, True, False]
    for previous in (None, tables.empty(tables.RATINGS)):  # no previous list: nobody marked
        assert not views.entered(changes.since(today, previous)).any()
