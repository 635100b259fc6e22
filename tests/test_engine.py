"""whr.fit: agreement with the reference, invariances, closed forms, input validation, dates."""

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
from whr.tables import HISTORY, to_table

REFERENCE = Path(__file__).parent / "data" / "reference"
ELO = 400 / math.log(10)


def games_frame(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["black", "white", "result", "date"])


@pytest.fixture(scope="module")
def small() -> pd.DataFrame:
    return pd.read_parquet(REFERENCE / "small_w2_12.9_games.parquet")


@pytest.fixture(scope="module")
def small_fit(small) -> whr.Fit:
    return whr.fit(small, w2=12.9)


# --- the reference implementation ------------------------------------------------------------


@pytest.mark.parametrize("case", ["small_w2_12.9", "medium_w2_19.3"])
def test_agrees_with_the_reference_at_every_player_day(case):
    games = pd.read_parquet(REFERENCE / f"{case}_games.parquet")
    table = pq.read_table(REFERENCE / f"{case}_reference.parquet")
    meta = json.loads(table.schema.metadata[b"whr_reference"])
    assert meta["reference_version"] == "2.2.0"
    ref = table.to_pandas()
    fit = whr.fit(
        games,
        w2=meta["w2_elo2_per_day"],
        virtual_games=meta["virtual_games"],
        virtual_rating=meta["virtual_rating"],
    )
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
    assert small_fit.params["w2"] == 12.9


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
    fit = whr.fit(games_frame([["A", "B", 0.5, date(2020, 5, 1)]]), virtual_rating=2100.0)
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
    with pytest.raises(whr.ConvergenceError, match="max_iter"):
        whr.fit(small, max_iter=1)


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
    with pytest.raises(ValueError, match="w2"):
        whr.fit(games_frame(GOOD), w2=-1)
    with pytest.raises(ValueError, match="virtual_games"):
        whr.fit(games_frame(GOOD), virtual_games=0)


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
