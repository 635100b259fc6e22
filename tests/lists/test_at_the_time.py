"""Each tournament's change at the time (``whr.lists.at_the_time``): the replay against independent
cold fits of the lists before and after, cut into ranges, in any order of the games; the daily
computation against the replay on a history that grows by one tournament a day.

Agreement is asked to the fits' convergence tolerance, ``FitParams.tol_elo`` (0.01 Elo): two
fits of the same games, warm or cold, agree far closer than that (about 1e-5 Elo).
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest

import whr
from whr.engine import history_rating_on
from whr.lists import at_the_time
from whr.lists.changes import AGREE
from whr.research import synthetic
from whr.tables import TOURNAMENT_CHANGES, to_table

TOL = whr.FitParams().tol_elo


@pytest.fixture(scope="module")
def history() -> synthetic.History:
    return synthetic.history(300, seed=11)


@pytest.fixture(scope="module")
def replayed(history: synthetic.History) -> pd.DataFrame:
    return at_the_time.replay(history.games, tournaments=history.tournaments)


def _entry(games: pd.DataFrame, tournaments: pd.DataFrame) -> pd.Series:
    """Each game's entry day, by hand: its date, or its tournament's end when later."""
    end = games["tournament_id"].map(tournaments.set_index("tournament_id")["end"])
    return pd.Series(np.where(end > games["date"], end, games["date"]), index=games.index)


def _on(fit: whr.Fit | None, day: dt.date, players: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    if fit is None:
        return np.full(len(players), np.nan), np.full(len(players), np.nan)
    on = fit.rating_on(day).set_index("player").reindex(players)
    return on["rating"].to_numpy(float), on["uncertainty"].to_numpy(float)


def test_the_table_has_its_schema_and_one_row_per_player_and_tournament(
    replayed: pd.DataFrame, history: synthetic.History
) -> None:
    assert to_table(replayed, TOURNAMENT_CHANGES).schema == TOURNAMENT_CHANGES
    assert not replayed.duplicated(["player", "tournament_id"]).any()
    assert set(replayed["source"]) == {"replay"}
    sides = pd.concat(
        [
            history.games[["tournament_id", "black"]].set_axis(["t", "p"], axis=1),
            history.games[["tournament_id", "white"]].set_axis(["t", "p"], axis=1),
        ]
    )
    # every player of every tournament has its row (each tournament enters whole here)
    assert len(replayed) == len(sides.drop_duplicates())
    # games and score, by hand
    g = history.games
    row = replayed.iloc[len(replayed) // 2]
    mine = g[(g["tournament_id"] == row["tournament_id"])]
    as_black = mine[mine["black"] == row["player"]]["result"]
    as_white = mine[mine["white"] == row["player"]]["result"]
    assert row["games"] == len(as_black) + len(as_white)
    assert row["score"] == as_black.sum() + (1 - as_white).sum()
    assert (replayed["previous_list_date"] == replayed["first_list_date"] - dt.timedelta(1)).all()


def test_each_day_is_the_difference_of_two_independent_cold_fits(
    replayed: pd.DataFrame, history: synthetic.History
) -> None:
    """Before: a cold fit of the games entered before the day, read the day before; after: a
    cold fit of those entered on or before it, read that day."""
    g, entry = history.games, _entry(history.games, history.tournaments)
    days = sorted(replayed["first_list_date"].unique())
    alone = replayed.groupby("first_list_date")["tournament_id"].nunique()
    chosen = [days[0], *days[1 :: max(1, len(days) // 12)], *alone[alone > 1].index[:2]]
    worst = 0.0
    for day in chosen:
        before_games, after_games = g[entry < day], g[entry <= day]
        before = whr.fit(before_games) if len(before_games) else None
        after = whr.fit(after_games)
        rows = replayed[replayed["first_list_date"] == day]
        new = g[entry == day]
        players = set(new["black"]) | set(new["white"])
        assert set(rows["player"]) <= players and set(rows["tournament_id"]) == set(
            new["tournament_id"]
        )
        rating_before, sd_before = _on(before, day - dt.timedelta(1), rows["player"])
        rating_after, sd_after = _on(after, day, rows["player"])
        np.testing.assert_array_equal(np.isnan(rating_before), rows["rating_before"].isna())
        for ours, oracle in (
            (rows["rating_before"], rating_before),
            (rows["uncertainty_before"], sd_before),
            (rows["rating_after"], rating_after),
            (rows["uncertainty_after"], sd_after),
        ):
            diff = np.abs(ours.to_numpy(float) - oracle)
            worst = max(worst, float(np.nanmax(diff, initial=0.0)))
    assert worst < TOL, worst
    # a tournament alone on its day, whose players had no other new games: its change is the
    # change of the player's rating from the list before to the list after
    single = replayed[replayed["first_list_date"].map(alone) == 1]
    assert (single["other_new_games"] == 0).all() and len(single) > 50


def test_other_new_games_counts_the_players_other_tournaments_of_the_day(
    replayed: pd.DataFrame,
) -> None:
    per_day = replayed.groupby(["first_list_date", "player"])["games"].transform("sum")
    np.testing.assert_array_equal(replayed["other_new_games"], per_day - replayed["games"])
    assert (replayed["other_new_games"] > 0).any()  # the fixture has such days


def test_ranges_replayed_apart_give_the_table_of_one_replay(
    replayed: pd.DataFrame, history: synthetic.History
) -> None:
    line = at_the_time.timeline(history.games, history.tournaments)
    ranges = line.ranges(3)
    assert len(ranges) == 3 and ranges[0][0] == line.day(0) and ranges[-1][1] == line.day(-1)
    for (_, end), (start, _) in zip(ranges[:-1], ranges[1:], strict=True):
        assert line.day(line.span(last=end).stop) == start  # consecutive, no day twice
    apart = at_the_time.combine([at_the_time.replay(line, first=a, last=b) for a, b in ranges])
    _same(apart, replayed)


def _same(ours: pd.DataFrame, theirs: pd.DataFrame, tol: float = TOL) -> float:
    """The two tables hold the same rows, with ratings within ``tol``; the largest difference."""
    exact = [
        c
        for c in TOURNAMENT_CHANGES.names
        if c in ours.columns and "rating" not in c and "uncertainty" not in c
    ]
    pd.testing.assert_frame_equal(ours[exact], theirs[exact])
    worst = 0.0
    for c in ("rating_before", "uncertainty_before", "rating_after", "uncertainty_after"):
        np.testing.assert_array_equal(ours[c].isna(), theirs[c].isna())
        worst = max(worst, float(np.nanmax(np.abs(ours[c] - theirs[c]), initial=0.0)))
    assert worst < tol, worst
    return worst


def test_the_order_of_the_games_does_not_matter(
    replayed: pd.DataFrame, history: synthetic.History
) -> None:
    shuffled = history.games.sample(frac=1.0, random_state=5).reset_index(drop=True)
    tournaments = history.tournaments.iloc[::-1]
    _same(at_the_time.replay(shuffled, tournaments=tournaments), replayed, tol=1e-9)


def test_a_game_enters_when_its_tournament_has_ended(history: synthetic.History) -> None:
    """Games dated before their tournament's last day enter on that day (a list rates no
    game of an unfinished tournament); without the tournaments, on their own dates."""
    g = history.games
    late = g["tournament_id"].value_counts().index[0]
    t = history.tournaments.copy()
    end = g.loc[g["tournament_id"] == late, "date"].max() + dt.timedelta(days=3)
    t.loc[t["tournament_id"] == late, "end"] = end
    rows = at_the_time.replay(g, tournaments=t)
    mine = rows[rows["tournament_id"] == late]
    assert set(mine["first_list_date"]) == {end}
    without = at_the_time.replay(g)
    assert set(without.loc[without["tournament_id"] == late, "first_list_date"]) == {
        end - dt.timedelta(3)
    }
    # the list before is that of the day before the end: every other game entered by then
    before = whr.fit(g[(g["tournament_id"] != late) & (g["date"] < end)])
    oracle = before.rating_on(end - dt.timedelta(1)).set_index("player")["rating"]
    got = mine.set_index("player")["rating_before"].dropna()
    assert np.abs(got - oracle.reindex(got.index)).max() < TOL


def test_a_replay_can_stop_at_a_day_and_start_at_another(
    replayed: pd.DataFrame, history: synthetic.History
) -> None:
    days = sorted(replayed["first_list_date"].unique())
    first, last = days[len(days) // 3], days[2 * len(days) // 3]
    part = at_the_time.replay(
        history.games, tournaments=history.tournaments, first=first, last=last
    )
    assert part["first_list_date"].min() == first and part["first_list_date"].max() == last
    inside = replayed[replayed["first_list_date"].between(first, last)].reset_index(drop=True)
    _same(part, inside)
    empty = at_the_time.replay(history.games, first=dt.date(1900, 1, 1), last=dt.date(1900, 2, 1))
    assert len(empty) == 0 and list(empty.columns) == TOURNAMENT_CHANGES.names


def test_daily_equals_the_replay_on_a_history_growing_one_tournament_a_day(
    history: synthetic.History,
) -> None:
    """Lists on consecutive days, each with one new tournament: the daily rows, from each pair
    of independent fits, are the replay's; and a player's change at the time is the change of
    their rating between the two lists (the lists' Change, ``split_rating_change``)."""
    g = history.games
    order = history.tournaments.sort_values(["end", "tournament_id"])["tournament_id"]
    ids = list(order[order.isin(g["tournament_id"])])[:18]
    start = dt.date(2020, 3, 1)
    day_of = {t: start + dt.timedelta(days=k) for k, t in enumerate(ids)}
    games = g[g["tournament_id"].isin(ids)].copy()
    games["date"] = games["tournament_id"].map(day_of)
    games = games.reset_index(drop=True)
    replayed = at_the_time.replay(games)
    parts, previous = [], None
    worst_change = 0.0
    for t in ids:
        day = day_of[t]
        today_games = games[games["date"] <= day]
        today = whr.fit(today_games)
        if previous is not None:
            prev_games, prev_fit = previous
            rows = at_the_time.daily(
                prev_fit.history, day - dt.timedelta(1), prev_games, today, day, today_games
            )
            assert set(rows["tournament_id"]) == {t} and set(rows["source"]) == {"daily"}
            parts.append(rows)
            split = whr.split_rating_change(
                prev_fit.history, day - dt.timedelta(1), today, day, today_games
            ).set_index("player")["rating_change"]
            change = (rows["rating_after"] - rows["rating_before"]).to_numpy()
            listed = split.reindex(rows["player"]).to_numpy()
            np.testing.assert_array_equal(np.isnan(change), np.isnan(listed))
            worst_change = max(worst_change, float(np.nanmax(np.abs(change - listed))))
        previous = (today_games, today)
    assert worst_change < AGREE  # the rows' ratings are published as their nearest float32
    days = at_the_time.combine(parts)
    later = replayed[replayed["first_list_date"] > start].reset_index(drop=True)
    _same(days.drop(columns="source"), later.drop(columns="source"))


def test_daily_names_what_is_wrong(history: synthetic.History) -> None:
    g = history.games
    day = g["date"].max()
    today = whr.fit(g)
    with pytest.raises(ValueError, match="as_of must be after previous_as_of"):
        at_the_time.daily(today.history, day, g, today, day, g)
    with pytest.raises(ValueError, match="games must be the games today was fitted on"):
        at_the_time.daily(today.history, day, g, today, day + dt.timedelta(1), g.iloc[1:])
    with pytest.raises(ValueError, match=r"previous_games is missing columns \['game_id'\]"):
        at_the_time.daily(today.history, day, g[["tournament_id"]], today, day + dt.timedelta(1), g)
    with pytest.raises(TypeError, match="today must be a whr.Fit"):
        at_the_time.daily(today.history, day, g, "fit", day + dt.timedelta(1), g)  # type: ignore[arg-type]
    # nothing new: no rows
    same = at_the_time.daily(today.history, day, g, today, day + dt.timedelta(1), g)
    assert len(same) == 0


def test_bad_games_are_named(history: synthetic.History) -> None:
    g = history.games.copy()
    g.loc[7, "result"] = 2.0
    with pytest.raises(ValueError, match="column 'result' must be 1, 0.5 or 0.*row 7"):
        at_the_time.timeline(g)
    g = history.games.copy()
    g["tournament_id"] = g["tournament_id"].astype(object)
    g.loc[3, "tournament_id"] = None
    with pytest.raises(ValueError, match="column 'tournament_id' has a missing value at row 3"):
        at_the_time.timeline(g)
    with pytest.raises(ValueError, match=r"missing columns \['date'\]"):
        at_the_time.timeline(history.games.drop(columns="date"))


def test_a_history_read_back_gives_the_fits_own_ratings(history: synthetic.History) -> None:
    """``history_rating_on``, which the daily rows read the previous list with, is
    ``Fit.rating_on`` on the fit's history (rows in any order)."""
    fit = whr.fit(history.games)
    for day in (dt.date(1990, 1, 1), history.games["date"].iloc[100], dt.date(2031, 5, 5)):
        ours = history_rating_on(fit.history.sample(frac=1.0, random_state=2), day)
        pd.testing.assert_frame_equal(ours, fit.rating_on(day))
