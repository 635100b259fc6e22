"""The record (``whr.lists.record``): its rules on hand-written lists; the replay's lists against
lists built independently (a cold fit of the games entered by each day, and the list rules of
``whr.lists.list_on``); ranges joined into the record of one replay; the best published rating.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest

import whr
from whr.lists import at_the_time, list_on, player_games, record
from whr.research import synthetic
from whr.tables import RECORD, to_table

TOL = whr.FitParams().tol_elo
D1, D2, D3 = dt.date(2020, 3, 1), dt.date(2020, 6, 1), dt.date(2020, 12, 31)


def _list(day: dt.date, rows: list[tuple[str, float, int | None, str, int]]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "list_date": [day] * len(rows),
            "player": [r[0] for r in rows],
            "rating": [r[1] for r in rows],
            "uncertainty": [50.0] * len(rows),
            "rank": pd.array([r[2] for r in rows], dtype="Int32"),
            "status": [r[3] for r in rows],
            "games": [r[4] for r in rows],
        }
    )


def test_each_rule_keeps_its_rows_and_nothing_else() -> None:
    """First list: everyone; then a new rating as shown (whole Elo), new games, a new status or
    a new best rank, and every player on a December 31; a drift within the whole Elo shown or a
    worse rank keeps nothing. Ratings and uncertainties are kept as shown."""
    lists = [
        _list(D1, [("a", 2000.2, 1, "active", 12), ("b", 1900.0, 2, "active", 10)]),
        _list(
            D2,
            [
                ("a", 2000.4, 2, "active", 12),  # the same as shown, a worse rank: nothing
                ("b", 1900.3, 1, "active", 10),  # a new best rank
                ("c", 1800.0, None, "provisional", 3),  # first list
            ],
        ),
        _list(
            dt.date(2020, 7, 1),
            [
                ("a", 2000.4, None, "inactive", 12),  # a new status
                ("b", 1900.4, 1, "active", 11),  # a new game
                ("c", 1799.0, None, "provisional", 3),  # a new rating as shown
            ],
        ),
        _list(
            dt.date(2020, 8, 1),
            [
                ("a", 2000.6, None, "inactive", 12),  # 2001 shown: a new rating
                ("b", 1900.4, 1, "active", 11),  # nothing
                ("c", 1799.4, None, "provisional", 3),  # nothing
            ],
        ),
        _list(D3, [("a", 1990.0, None, "inactive", 12), ("c", 1799.0, None, "provisional", 3)]),
    ]
    kept = record.extend(None, lists)
    assert to_table(kept, RECORD).schema == RECORD
    got = [(r.player, r.list_date.isoformat(), r.rating) for r in kept.itertuples()]
    assert got == [
        ("a", "2020-03-01", 2000), ("a", "2020-07-01", 2000), ("a", "2020-08-01", 2001),
        ("a", "2020-12-31", 1990),
        ("b", "2020-03-01", 1900), ("b", "2020-06-01", 1900), ("b", "2020-07-01", 1900),
        ("c", "2020-06-01", 1800), ("c", "2020-07-01", 1799), ("c", "2020-12-31", 1799),
    ]  # fmt: skip
    assert (kept["uncertainty"] == 50).all() and (kept["source"] == "list").all()
    # extending it list by list keeps the same rows
    step = None
    for frame in lists:
        step = record.extend(step, [frame])
    pd.testing.assert_frame_equal(step, kept)
    with pytest.raises(ValueError, match="not after the record's last list"):
        record.extend(kept, [lists[0]])


def _random_lists(seed: int, days: list[dt.date], players: int = 30) -> list[pd.DataFrame]:
    """Lists of ``days`` whose ratings drift by a few hundredths of an Elo a list (some by more),
    players joining over time, games growing now and then, statuses changing, ranked by
    rating among the active."""
    rng = np.random.default_rng(seed)
    rating = 1900 + 150 * rng.standard_normal(players)
    games = rng.integers(1, 20, players)
    status = np.array(["active", "inactive", "provisional"])[rng.integers(0, 3, players)]
    out = []
    for k, day in enumerate(days):
        rating = rating + rng.normal(0, 0.05, players) + (rng.random(players) < 0.05) * 20
        games = games + (rng.random(players) < 0.05)
        flip = rng.random(players) < 0.03
        status = np.where(
            flip, np.array(["active", "inactive"])[rng.integers(0, 2, players)], status
        )
        on = np.flatnonzero(np.arange(players) < 10 + k * 3)
        active = on[status[on] == "active"]
        rank = np.full(players, np.nan)
        rank[active[np.argsort(-rating[active], kind="stable")]] = np.arange(1, active.size + 1)
        rows = [
            (f"p{i}", float(rating[i]), None if np.isnan(rank[i]) else int(rank[i]),
             str(status[i]), int(games[i]))
            for i in on
        ]  # fmt: skip
        out.append(_list(day, rows))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_lists_rating_and_status_read_back_as_shown(seed: int) -> None:
    """Every list's rating (whole Elo, as shown) and status of every player reads back from the
    record on the list's day (its last row on or before it), whichever rows it holds; the
    lists that stood on each December 31 (one of that day, one on the days before it when
    none was of it) read back whole: their ranks too."""
    days = {dt.date(2019, 12, 1) + dt.timedelta(days=10 * k) for k in range(80)}
    days.add(dt.date(2020, 12, 31))  # a December 31 with a list of its own
    lists = _random_lists(seed, sorted(days))
    # the last list before 2021-12-31 says what the one before it said: it keeps no row of its own
    same = [k for k, f in enumerate(lists) if f["list_date"].iloc[0] == dt.date(2021, 12, 30)][0]
    lists[same] = lists[same - 1].assign(list_date=dt.date(2021, 12, 30))
    kept = record.extend(None, lists[:30])
    previous = lists[29]
    for frame in lists[30:]:  # the daily run: one list at a time, with the list before
        kept = record.extend(kept, [frame], last=previous)
        previous = frame
    assert len(kept) < sum(len(f) for f in lists) / 4  # not every row of every list
    whole = record.extend(None, lists)
    pd.testing.assert_frame_equal(kept, whole)
    for frame in lists:
        said = record.shown_on(kept, frame["player"], frame["list_date"])
        np.testing.assert_array_equal(said["rating"], np.rint(frame["rating"]))
        assert said["status"].tolist() == frame["status"].tolist()
        assert (said["source"] == "list").all()
    stood = [
        f for f in lists if (f["list_date"].iloc[0].month, f["list_date"].iloc[0].day) == (12, 31)
    ]
    stood += [
        a for a, b in zip(lists, lists[1:], strict=False)
        if a["list_date"].iloc[0].year < b["list_date"].iloc[0].year
        and (a["list_date"].iloc[0].month, a["list_date"].iloc[0].day) != (12, 31)
    ]  # fmt: skip
    assert len(stood) == 3  # of 2019-12-31 and 2020-12-31; 2021-12-30 (none of 2021-12-31)
    for frame in stood:
        day = frame["list_date"].iloc[0]
        rows = kept[kept["list_date"] == day].set_index("player").loc[frame["player"]]
        np.testing.assert_array_equal(rows["rank"], frame["rank"].astype("float64"))


def test_the_best_published_rating_is_the_best_shown_and_its_first_day() -> None:
    kept = record.extend(
        None,
        [
            _list(D1, [("a", 2000.2, 1, "active", 12)]),
            _list(D2, [("a", 2009.8, 1, "active", 13)]),
            _list(dt.date(2020, 7, 1), [("a", 2010.3, 1, "active", 13)]),  # 2010 again
            _list(D3, [("a", 2005.0, 1, "active", 14), ("b", 1500.0, None, "provisional", 1)]),
        ],
    )
    best, day = record.best(kept, np.array(["a", "a", "a", "b", "b"]), [D1, D2, D3, D3, D1])
    np.testing.assert_array_equal(best[:4], [2000.0, 2010.0, 2010.0, 1500.0])
    assert np.isnan(best[4]) and np.isnat(day[4])
    assert [str(d) for d in day[:4]] == ["2020-03-01", "2020-06-01", "2020-06-01", "2020-12-31"]


@pytest.fixture(scope="module")
def history() -> synthetic.History:
    return synthetic.history(400, seed=4)


@pytest.fixture(scope="module")
def replayed(history: synthetic.History) -> tuple[at_the_time.Timeline, pd.DataFrame]:
    line = at_the_time.timeline(history.games, history.tournaments)
    lists = record.Recorder(line)
    at_the_time.replay(line, lists=lists)
    return line, lists.rows()


def _independent_lists(history: synthetic.History, line: at_the_time.Timeline) -> list:
    """Each day's list, built apart: a cold fit of the games entered on or before it, and the
    list rules of whr.lists.list_on; the December 31 between two days from the earlier fit."""
    games = history.games.assign(
        _entered=np.maximum(
            pd.to_datetime(history.games["date"]).to_numpy("datetime64[D]"),
            pd.to_datetime(
                history.games["tournament_id"].map(
                    history.tournaments.set_index("tournament_id")["end"]
                )
            ).to_numpy("datetime64[D]"),
        )
    )
    players = pd.DataFrame({"player_id": pd.unique(games[["black", "white"]].to_numpy().ravel())})
    out = []
    previous = None
    for i in range(len(line)):
        day = line.day(i)
        now = games[games["_entered"] <= np.datetime64(day, "D")]
        fit = whr.fit(now)
        pg = player_games(now)
        if previous is not None:
            before, was, before_pg = previous
            for year in range(was.year, day.year):
                end = dt.date(year, 12, 31)
                if was < end < day:
                    out.append(list_on(end, before.history, before_pg, players, before.rating_on))
        out.append(list_on(day, fit.history, pg, players, fit.rating_on))
        previous = (fit, day, pg)
    return out


def test_the_replays_lists_are_the_lists_built_apart(history, replayed) -> None:
    """The record of the replay is the record of lists built independently of it (cold fits,
    list_on's rules): the same rows, the same ranks and statuses, ratings to the fits'
    tolerance; every player has a row on every year end."""
    line, rows = replayed
    lists = _independent_lists(history, line)
    theirs = record.extend(None, lists, source="replay")
    keys = ["player", "list_date", "rank", "status", "games", "source"]
    pd.testing.assert_frame_equal(rows[keys], theirs[keys])
    for column in ("rating", "uncertainty"):
        assert np.max(np.abs(rows[column] - theirs[column])) < TOL, column
    ends = [
        f for f in lists if f["list_date"].iloc[0].month == 12 and f["list_date"].iloc[0].day == 31
    ]
    assert ends and sum(len(f) for f in ends) == sum(
        1 for d in rows["list_date"] if (d.month, d.day) == (12, 31)
    )


def test_ranges_joined_are_one_replay(replayed) -> None:
    """The replay cut into ranges (each from a cold fit, each a record of its own from an empty
    one), joined by :func:`record.combine`: the rows of one replay."""
    line, rows = replayed
    parts = []
    for first, last in line.ranges(4):
        lists = record.Recorder(line)
        at_the_time.replay(line, first=first, last=last, lists=lists)
        parts.append(lists.rows())
    assert sum(len(p) for p in parts) > len(rows)  # each range starts with everyone
    joined = record.combine(parts)
    keys = ["player", "list_date", "rank", "status", "games", "source"]
    pd.testing.assert_frame_equal(joined[keys], rows[keys])
    assert np.max(np.abs(joined["rating"] - rows["rating"])) < TOL
