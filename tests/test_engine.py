"""whr.fit: agreement with the reference, invariances, closed forms, input validation, dates;
whr.split_rating_change against a dense one-player solve."""

from __future__ import annotations

import json
import math
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import whr
from whr.tables import HISTORY, empty, to_table

REFERENCE = Path(__file__).parent / "data" / "reference"
ELO = 400 / math.log(10)


def games_frame(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["black", "white", "result", "date"])


@pytest.fixture(scope="module")
def small() -> pd.DataFrame:
    return pd.read_parquet(REFERENCE / "small_w2_12.9_games.parquet")


@pytest.fixture(scope="module")
def small_fit(small) -> whr.Fit:
    return whr.fit(small, whr.FitParams(w2_elo2_per_day=12.9))


# --- the reference implementation ------------------------------------------------------------


@pytest.mark.parametrize("case", ["small_w2_12.9", "medium_w2_19.3"])
def test_agrees_with_the_reference_at_every_player_day(case):
    games = pd.read_parquet(REFERENCE / f"{case}_games.parquet")
    table = pq.read_table(REFERENCE / f"{case}_reference.parquet")
    meta = json.loads(table.schema.metadata[b"whr_reference"])
    assert meta["reference_version"] == "2.2.0"
    ref = table.to_pandas()
    params = whr.FitParams(
        w2_elo2_per_day=meta["w2_elo2_per_day"],
        virtual_games=meta["virtual_games"],
        virtual_rating=meta["virtual_rating"],
    )
    fit = whr.fit(games, params)
    both = fit.history.merge(ref, on=["player", "date"], how="outer", suffixes=("", "_ref"))
    assert len(both) == len(ref) == len(fit.history)  # the same player-days
    assert np.abs(both["rating"] - both["rating_ref"]).max() < 0.05
    assert np.abs(both["uncertainty"] - both["uncertainty_ref"]).max() < 0.5


# --- the solution ----------------------------------------------------------------------------


def test_history_schema_and_game_counts(small, small_fit):
    h = small_fit.history
    to_table(h, HISTORY)  # conforms
    assert list(h.columns) == HISTORY.names
    assert h["games"].sum() == 2 * len(small)
    assert not h.duplicated(["player", "date"]).any()
    assert h.equals(h.sort_values(["player", "date"], ignore_index=True))
    assert small_fit.converged and small_fit.iterations >= 1
    assert small_fit.n_games == len(small)
    assert small_fit.params == whr.FitParams()
    assert small_fit.params.as_dict()["w2_elo2_per_day"] == 12.9


def test_one_decisive_game_closed_form():
    """A beats B; each also has two virtual draws against 1900. By symmetry A = 1900 + x,
    B = 1900 - x with u = exp(x ln10/400) solving u^3 - u^2 - 2 = 0 (1 - s(2x) = 2 s(x) - 1)."""
    fit = whr.fit(games_frame([["A", "B", 1.0, date(2020, 5, 1)]]))
    roots = np.roots([1.0, -1.0, 0.0, -2.0])
    x = math.log(float(roots[np.abs(roots.imag) < 1e-12].real[0])) * ELO
    h = fit.history.set_index("player")
    assert h.loc["A", "rating"] == pytest.approx(1900 + x, abs=1e-6)
    assert h.loc["B", "rating"] == pytest.approx(1900 - x, abs=1e-6)
    assert h.loc["A", "games"] == 1


def test_draw_between_newcomers_stays_at_the_virtual_rating():
    fit = whr.fit(
        games_frame([["A", "B", 0.5, date(2020, 5, 1)]]), whr.FitParams(virtual_rating=2100.0)
    )
    h = fit.history
    np.testing.assert_allclose(h["rating"], 2100.0, atol=1e-9)
    # own information: the draw (1/4) + two virtual draws (2/4) + the reference's 0.001
    np.testing.assert_allclose(h["uncertainty"], ELO / math.sqrt(0.75 + 0.001), rtol=1e-12)


# --- invariances -----------------------------------------------------------------------------


def test_invariant_to_game_order(small, small_fit):
    shuffled = small.sample(frac=1.0, random_state=3).reset_index(drop=True)
    pd.testing.assert_frame_equal(whr.fit(shuffled).history, small_fit.history)


def test_invariant_to_swapping_colours_with_the_result(small, small_fit):
    swapped = small.assign(black=small["white"], white=small["black"], result=1 - small["result"])
    pd.testing.assert_frame_equal(whr.fit(swapped).history, small_fit.history)


def test_invariant_to_player_labels(small, small_fit):
    ids = pd.unique(pd.concat([small["black"], small["white"]]))
    rng = np.random.default_rng(0)
    new = {old: f"p{k:05d}" for old, k in zip(ids, rng.permutation(ids.size), strict=True)}
    relabelled = small.assign(black=small["black"].map(new), white=small["white"].map(new))
    h = whr.fit(relabelled).history
    h["player"] = h["player"].map({v: k for k, v in new.items()})
    h = h.sort_values(["player", "date"], ignore_index=True)
    np.testing.assert_allclose(h["rating"], small_fit.history["rating"], atol=1e-6)
    np.testing.assert_allclose(h["uncertainty"], small_fit.history["uncertainty"], atol=1e-6)


def test_players_are_sorted_as_python_sorts_their_ids():
    ids = ["b", "\u00e4", "Z", "\u65e5", "a", "a\u0301", "10", "9"]
    rows = [[x, y, 1.0, date(2020, 1, 1)] for x, y in zip(ids, ids[1:] + ids[:1], strict=True)]
    fit = whr.fit(games_frame(rows))
    assert list(fit.history["player"]) == sorted(ids)
    assert list(fit.rating_on(date(2020, 1, 1))["player"]) == sorted(ids)


def test_arrow_table_and_datetime64_give_the_same_fit(small, small_fit):
    table = pa.Table.from_pandas(small, preserve_index=False)
    assert table.schema.field("date").type == pa.date32()
    pd.testing.assert_frame_equal(whr.fit(table).history, small_fit.history)
    as_dt64 = small.assign(date=pd.to_datetime(small["date"]))
    pd.testing.assert_frame_equal(whr.fit(as_dt64).history, small_fit.history)


def test_extra_columns_and_index_are_ignored(small, small_fit):
    extra = small.assign(note="x").set_index(np.arange(len(small)) * 3 + 7)
    pd.testing.assert_frame_equal(whr.fit(extra).history, small_fit.history)


# --- warm start ------------------------------------------------------------------------------


def test_warm_start_gives_the_cold_solution(small, small_fit):
    last = small["date"].max()
    recent = small_fit.rating_on(last)
    players = recent[recent["last_date"] > last - timedelta(days=400)]
    rng = np.random.default_rng(1)
    pairs = rng.choice(players["player"].to_numpy(), size=(30, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    day = games_frame(
        {
            "black": pairs[:, 0],
            "white": pairs[:, 1],
            "result": rng.choice([0.0, 0.5, 1.0], len(pairs)),
            "date": last + timedelta(days=1),
        }
    )
    more = pd.concat([small, day], ignore_index=True)
    cold = whr.fit(more)
    warm = whr.fit(more, warm_start=small_fit)
    np.testing.assert_allclose(warm.history["rating"], cold.history["rating"], atol=1e-4)
    np.testing.assert_allclose(warm.history["uncertainty"], cold.history["uncertainty"], atol=1e-4)
    assert warm.iterations <= cold.iterations
    # restarting from the solution itself converges at once
    assert whr.fit(small, warm_start=small_fit).iterations == 1


def test_convergence_cap_raises(small):
    with pytest.raises(whr.ConvergenceError, match="max_newton_iterations=1"):
        whr.fit(small, whr.FitParams(max_newton_iterations=1))


# --- rating on a date ------------------------------------------------------------------------


def test_rating_on_follows_the_interpolation_rules(small_fit):
    h = small_fit.history
    counts = h.groupby("player").size()
    name = counts[counts >= 2].index[0]
    rows = h[h["player"] == name].reset_index(drop=True)
    a, b = rows.loc[0], rows.loc[1]
    w2 = 12.9
    # on a rating day: that day's values; last_date is that day
    on = small_fit.rating_on(a["date"]).set_index("player").loc[name]
    assert on["rating"] == pytest.approx(a["rating"], abs=1e-9)
    assert on["uncertainty"] == pytest.approx(a["uncertainty"], abs=1e-9)
    assert on["last_date"] == a["date"]
    # between two rating days: linear mean, bridge variance + interpolated standard deviation
    gap = (b["date"] - a["date"]).days
    assert gap >= 2
    d = a["date"] + timedelta(days=gap // 2)
    k = (d - a["date"]).days
    frac = k / gap
    mid = small_fit.rating_on(d).set_index("player").loc[name]
    assert mid["rating"] == pytest.approx((1 - frac) * a["rating"] + frac * b["rating"], abs=1e-9)
    sd = (1 - frac) * a["uncertainty"] + frac * b["uncertainty"]
    var = w2 * k * (gap - k) / gap + sd**2
    assert mid["uncertainty"] == pytest.approx(math.sqrt(var), abs=1e-9)
    assert mid["last_date"] == a["date"]
    # after the last day: rating frozen, variance grows by w2 per day
    z = rows.iloc[-1]
    later = small_fit.rating_on(z["date"] + timedelta(days=100)).set_index("player").loc[name]
    assert later["rating"] == pytest.approx(z["rating"], abs=1e-9)
    assert later["uncertainty"] == pytest.approx(math.sqrt(z["uncertainty"] ** 2 + 100 * w2))
    # before the first day: not listed
    before = small_fit.rating_on(a["date"] - timedelta(days=1))
    assert name not in set(before["player"])


def test_rating_on_lists_exactly_the_players_seen_by_then(small, small_fit):
    d = date(2005, 1, 1)
    played = small[small["date"] <= d]
    expected = set(played["black"]) | set(played["white"])
    got = small_fit.rating_on(d)
    assert set(got["player"]) == expected
    assert list(got.columns) == ["player", "rating", "uncertainty", "last_date"]
    assert (got["last_date"] <= d).all()
    assert len(small_fit.rating_on(date(1900, 1, 1))) == 0


# --- input validation ------------------------------------------------------------------------

GOOD = [["A", "B", 1.0, date(2020, 1, 1)], ["B", "C", 0.5, date(2020, 1, 2)]]


@pytest.mark.parametrize(
    ("row", "patterns"),
    [
        (["A", "C", 2.0, date(2020, 1, 3)], ["'result'", "row 2", "2.0"]),
        (["A", "C", -0.5, date(2020, 1, 3)], ["'result'", "row 2"]),
        (["A", "C", float("nan"), date(2020, 1, 3)], ["'result'", "missing", "row 2"]),
        (["A", "A", 1.0, date(2020, 1, 3)], ["'black'", "'white'", "row 2", "themself"]),
        ([None, "C", 1.0, date(2020, 1, 3)], ["'black'", "missing", "row 2"]),
        (["A", None, 1.0, date(2020, 1, 3)], ["'white'", "missing", "row 2"]),
        (["A", "C", 1.0, None], ["'date'", "missing", "row 2"]),
        (["A", "C", 1.0, "2020-01-03"], ["'date'", "row 2", "2020-01-03"]),
    ],
)
def test_bad_rows_name_the_column_and_the_row(row, patterns):
    with pytest.raises(ValueError) as info:
        whr.fit(games_frame([*GOOD, row]))
    for pattern in patterns:
        assert pattern in str(info.value)


def test_dates_as_text_are_refused():
    frame = games_frame(GOOD).assign(date=["2020-01-01", "2020-01-02"])
    with pytest.raises(ValueError, match="'date'.*dates"):
        whr.fit(frame)


def test_missing_column_and_wrong_types():
    with pytest.raises(ValueError, match="missing columns \\['result'\\]"):
        whr.fit(games_frame(GOOD).drop(columns="result"))
    with pytest.raises(TypeError, match="games must be"):
        whr.fit(GOOD)
    with pytest.raises(TypeError, match="warm_start"):
        whr.fit(games_frame(GOOD), warm_start="previous")
    with pytest.raises(TypeError, match="params must be a whr.FitParams, got dict"):
        whr.fit(games_frame(GOOD), {"w2_elo2_per_day": 12.9})
    with pytest.raises(TypeError, match="unexpected keyword argument 'w2'"):
        whr.fit(games_frame(GOOD), w2=12.9)


def test_row_locator_uses_the_index_label():
    frame = games_frame([*GOOD, ["A", "C", 3.0, date(2020, 1, 3)]]).set_index(
        pd.Index([10, 11, 12])
    )
    with pytest.raises(ValueError, match=r"row 2 \(index 12\)"):
        whr.fit(frame)


def test_empty_games():
    fit = whr.fit(games_frame([]).astype({"result": float}))
    assert len(fit.history) == 0 and len(fit.rating_on(date(2020, 1, 1))) == 0


def test_timestamps_count_by_their_local_calendar_day():
    plain = games_frame(GOOD)
    expected = whr.fit(plain).history
    stamps = pd.to_datetime(plain["date"]) + pd.Timedelta(hours=1, minutes=30)
    local = plain.assign(date=stamps.dt.tz_localize("Asia/Tokyo"))  # 16:30 UTC the day before
    pd.testing.assert_frame_equal(whr.fit(local).history, expected)
    pd.testing.assert_frame_equal(whr.fit(pa.Table.from_pandas(local)).history, expected)
    objects = plain.assign(date=[d.to_pydatetime() for d in stamps])
    pd.testing.assert_frame_equal(whr.fit(objects).history, expected)


def test_rating_on_after_everyone_s_last_day_lists_everyone_frozen(small_fit):
    h = small_fit.history
    last = h.groupby("player").tail(1).set_index("player")
    d = h["date"].max() + timedelta(days=1000)
    got = small_fit.rating_on(d).set_index("player")
    assert set(got.index) == set(last.index)
    got = got.loc[last.index]
    np.testing.assert_allclose(got["rating"], last["rating"], atol=1e-9)
    assert (got["last_date"] == last["date"]).all()
    days = np.array([(d - x).days for x in last["date"]])
    np.testing.assert_allclose(got["uncertainty"], np.sqrt(last["uncertainty"] ** 2 + 12.9 * days))


# --- the change split ------------------------------------------------------------------------

D0, D1 = date(2026, 11, 10), date(2026, 11, 28)


@pytest.fixture(scope="module")
def two_lists(small):
    """The previous list (games up to D0, one game of Nov 4 not yet entered) and the new one
    (every game up to D1, that late game, and a new player's first game)."""
    late = small.index[small["date"] == date(2026, 11, 4)][0]
    before = small[(small["date"] <= D0) & (small.index != late)].reset_index(drop=True)
    newcomer = games_frame([["new1", small.loc[late, "black"], 1.0, date(2026, 11, 21)]])
    after = pd.concat([small, newcomer], ignore_index=True)
    previous, new = whr.fit(before), whr.fit(after)
    split = whr.split_rating_change(previous.history, D0, new, D1, after)
    return before, after, previous, new, split


def _rating_by_hand(rows: pd.DataFrame, day: date) -> float:
    """The rating rule written out for one player's rows (date, rating): NaN before the first."""
    rows = rows.sort_values("date")
    if len(rows) == 0 or day < rows["date"].iloc[0]:
        return math.nan
    on_or_before = rows[rows["date"] <= day].iloc[-1]
    later = rows[rows["date"] > day]
    if len(later) == 0:
        return float(on_or_before["rating"])
    a, b = on_or_before, later.iloc[0]
    frac = (day - a["date"]).days / (b["date"] - a["date"]).days
    return float(a["rating"] + frac * (b["rating"] - a["rating"]))


def _own_history_by_hand(player, games, previous, new):
    """The player's ratings maximising their own posterior (Elo, base-10 logistic) with every
    opponent at their previous rating that day (a new one at their new rating): a dense,
    derivative-checked BFGS solve, independent of the engine's Newton code."""
    from scipy.optimize import minimize

    mine = games[(games["black"] == player) | (games["white"] == player)]
    black = (mine["black"] == player).to_numpy()
    opponent = np.where(black, mine["white"], mine["black"])
    score = np.where(black, mine["result"], 1.0 - mine["result"])
    days = sorted(set(mine["date"]))
    at = np.array([days.index(d) for d in mine["date"]])
    ph = previous.history
    ph = ph[ph["player"].isin(set(opponent))]
    rows = {o: ph[ph["player"] == o] for o in set(opponent)}
    nh = new.history.set_index(["player", "date"])["rating"]
    opp = []
    for o, d in zip(opponent, mine["date"], strict=True):
        r = _rating_by_hand(rows[o], d)
        opp.append(nh.loc[(o, d)] if math.isnan(r) else r)
    opp = np.array(opp)
    gaps = np.array([(b - a).days for a, b in zip(days[:-1], days[1:], strict=True)], dtype=float)
    w2 = 12.9

    def minus_log_posterior(x):
        p = 1 / (1 + 10 ** ((opp - x[at]) / 400))
        q = 1 / (1 + 10 ** ((1900 - x[0]) / 400))
        value = np.sum(score * np.log(p) + (1 - score) * np.log(1 - p))
        value += 2 * (0.5 * math.log(q) + 0.5 * math.log(1 - q))
        value -= np.sum(np.diff(x) ** 2 / (2 * w2 * gaps))
        return -value

    def minus_gradient(x):
        k = math.log(10) / 400
        p = 1 / (1 + 10 ** ((opp - x[at]) / 400))
        q = 1 / (1 + 10 ** ((1900 - x[0]) / 400))
        g = np.bincount(at, weights=k * (score - p), minlength=len(days))
        g[0] += 2 * k * (0.5 - q)
        t = np.diff(x) / (w2 * gaps)
        g[:-1] += t
        g[1:] -= t
        return -g

    x0 = np.full(len(days), 1900.0)
    h = 1e-4
    e = np.eye(len(days))[0] * h
    fd = (minus_log_posterior(x0 + e) - minus_log_posterior(x0 - e)) / (2 * h)
    assert minus_gradient(x0)[0] == pytest.approx(fd, rel=1e-6, abs=1e-9)
    res = minimize(
        minus_log_posterior, x0, jac=minus_gradient, method="BFGS", options={"gtol": 1e-11}
    )
    assert np.abs(minus_gradient(res.x)).max() < 1e-8
    return pd.DataFrame({"date": days, "rating": res.x})


def test_split_own_part_matches_a_dense_one_player_solve(two_lists):
    before, after, previous, new, split = two_lists
    # the players with a game the previous list did not have (new days, or the late game)
    old = before.assign(k=1).groupby(["black", "white", "date", "result"]).size()
    now = after.groupby(["black", "white", "date", "result"]).size()
    added = now.sub(old, fill_value=0)
    added = added[added > 0].reset_index()
    movers = sorted((set(added["black"]) | set(added["white"])) - {"new1"})
    assert len(movers) >= 10
    split = split.set_index("player")
    ph = previous.history
    for player in movers:
        own = _own_history_by_hand(player, after, previous, new)
        r_prev = _rating_by_hand(ph[ph["player"] == player], D0)
        expected = _rating_by_hand(own, D1) - r_prev
        assert split.loc[player, "change_own_games"] == pytest.approx(expected, abs=1e-5)
    # and someone's own games moved them by more than the tolerance
    assert split.loc[movers, "change_own_games"].abs().max() > 10


def test_split_parts_add_up_to_the_change_between_the_lists(two_lists):
    _, _, previous, new, split = two_lists
    was = previous.rating_on(D0).set_index("player")["rating"]
    now = new.rating_on(D1).set_index("player")["rating"]
    assert list(split["player"]) == sorted(now.index)
    s = split.set_index("player")
    np.testing.assert_allclose(s["rating_change"], now - was.reindex(now.index), atol=1e-9)
    known = s["rating_change"].notna()
    total = s["change_own_games"] + s["change_others"]
    np.testing.assert_allclose(total[known], s.loc[known, "rating_change"], atol=1e-9)
    assert (s["change_others"].abs() > 0.1).sum() >= 10  # the past was re-estimated


def test_split_players_new_to_the_list_have_nulls(two_lists):
    _, _, previous, _, split = two_lists
    new_rows = split[split["rating_change"].isna()]
    assert list(new_rows["player"]) == ["new1"]
    assert new_rows[["change_own_games", "change_others"]].isna().all(axis=None)
    table = pa.Table.from_pandas(split, preserve_index=False)
    assert table.column("change_own_games").null_count == 1


def test_split_without_own_games_is_all_others(two_lists):
    before, after, previous, new, split = two_lists
    changed = set(after[after["date"] > D0][["black", "white"]].to_numpy().ravel())
    changed |= set(after[after["date"] == date(2026, 11, 4)][["black", "white"]].to_numpy().ravel())
    quiet = split[~split["player"].isin(changed) & split["rating_change"].notna()]
    assert len(quiet) > 100
    assert (quiet["change_own_games"] == 0.0).all()
    np.testing.assert_array_equal(quiet["change_others"], quiet["rating_change"])
    assert (quiet["change_others"] != 0.0).sum() > 100


def test_split_counts_a_corrected_result_as_the_player_s_own(small):
    """Same games, same days; one result corrected between the lists."""
    last = small["date"].max()
    k = int(np.flatnonzero(small["result"].to_numpy() == 1.0)[-1])
    wrong = small.copy()
    wrong.loc[k, "result"] = 0.0
    previous, new = whr.fit(wrong), whr.fit(small)
    split = whr.split_rating_change(previous.history, last, new, last, small).set_index("player")
    ph = previous.history
    sides = [small.loc[k, "black"], small.loc[k, "white"]]
    for player in sides:
        own = _own_history_by_hand(player, small, previous, new)
        expected = _rating_by_hand(own, last) - _rating_by_hand(ph[ph["player"] == player], last)
        assert split.loc[player, "change_own_games"] == pytest.approx(expected, abs=1e-5)
    black, white = split.loc[sides, "change_own_games"]
    assert black > 1.0 and white < -1.0  # the win went back to Black
    others = split.drop(index=sides)
    assert (others["change_own_games"] == 0.0).all()


def test_split_reads_the_previous_history_back_from_parquet(two_lists, tmp_path):
    _, after, previous, new, split = two_lists
    path = tmp_path / "history.parquet"
    pq.write_table(to_table(previous.history, HISTORY), path)
    again = whr.split_rating_change(pq.read_table(path), D0, new, D1, after)
    pd.testing.assert_frame_equal(again, split)
    frame = pd.read_parquet(path).sample(frac=1.0, random_state=0)  # any row order
    pd.testing.assert_frame_equal(whr.split_rating_change(frame, D0, new, D1, after), split)


def test_split_of_the_same_list_is_zero(small, small_fit):
    last = small["date"].max()
    split = whr.split_rating_change(small_fit.history, last, small_fit, last, small)
    assert split[["rating_change", "change_own_games", "change_others"]].abs().max().max() < 1e-6
    assert split["rating_change"].eq(0.0).all()


def test_split_against_an_empty_previous_list_is_all_new(small, small_fit):
    last = small["date"].max()
    split = whr.split_rating_change(empty(HISTORY), last, small_fit, last, small)
    assert len(split) == small_fit.n_players
    assert split[["rating_change", "change_own_games", "change_others"]].isna().all(axis=None)


def _one_day_leaver():
    """A previous list and a new input in which C's only game became unrated: C leaves, and A
    (one rating day) is the only player whose own games changed."""
    d1, d2 = date(2026, 11, 20), date(2026, 11, 21)
    before = games_frame([["A", "B", 1.0, d1], ["A", "C", 0.5, d1], ["B", "D", 1.0, d2]])
    after = before.drop(index=1).reset_index(drop=True)
    return before, after, d2


def test_split_of_a_single_one_day_mover_whose_opponent_left():
    """The issue's crash: one free player-day, a 1 x 1 system, which SciPy's dpttrf wrapper
    refuses ("unexpected array size: new_size=1, got array with arr_size=0")."""
    before, after, day = _one_day_leaver()
    previous, new = whr.fit(before), whr.fit(after)
    split = whr.split_rating_change(previous.history, day, new, day, after).set_index("player")
    assert list(split.index) == ["A", "B", "D"]  # C, gone from the input, has no row
    own = _own_history_by_hand("A", after, previous, new)
    r_prev = _rating_by_hand(previous.history[previous.history["player"] == "A"], day)
    assert split.loc["A", "change_own_games"] == pytest.approx(own["rating"].iloc[-1] - r_prev)
    assert split.loc["A", "change_own_games"] > 1.0  # the draw against C is gone: a win is left
    total = split["change_own_games"] + split["change_others"]
    np.testing.assert_allclose(total, split["rating_change"], atol=1e-9)
    assert (split.loc[["B", "D"], "change_own_games"] == 0.0).all()


def test_split_with_no_player_left_of_the_previous_list():
    before, _, day = _one_day_leaver()
    others = games_frame([["E", "F", 1.0, day]])
    previous, new = whr.fit(before), whr.fit(others)
    split = whr.split_rating_change(previous.history, day, new, day, others)
    assert list(split["player"]) == ["E", "F"]
    assert split[["rating_change", "change_own_games", "change_others"]].isna().all(axis=None)


def test_warm_start_placing_a_single_one_day_newcomer():
    """A warm start whose only new player-day is a newcomer's one day (the same 1 x 1 system)."""
    before, _, day = _one_day_leaver()
    after = pd.concat([before, games_frame([["N", "B", 0.0, day]])], ignore_index=True)
    warm = whr.fit(after, warm_start=whr.fit(before))
    cold = whr.fit(after)
    np.testing.assert_allclose(warm.history["rating"], cold.history["rating"], atol=1e-6)


def test_split_refuses_bad_arguments(two_lists):
    before, after, previous, new, _ = two_lists
    h = previous.history
    with pytest.raises(ValueError, match="as_of must be on or after previous_as_of"):
        whr.split_rating_change(h, D1, new, D0, after)
    with pytest.raises(ValueError, match="games must be the games fit was fitted on"):
        whr.split_rating_change(h, D0, new, D1, before)
    with pytest.raises(TypeError, match="fit must be a whr.Fit"):
        whr.split_rating_change(h, D0, "fit", D1, after)
    with pytest.raises(TypeError, match="as_of"):
        whr.split_rating_change(h, D0, new, "2026-11-28", after)
    with pytest.raises(ValueError, match="previous_history is missing columns \\['rating'\\]"):
        whr.split_rating_change(h.drop(columns="rating"), D0, new, D1, after)
    with pytest.raises(ValueError, match="previous_history: player .* two ratings"):
        whr.split_rating_change(pd.concat([h, h.head(1)]), D0, new, D1, after)
