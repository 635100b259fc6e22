"""The evaluation: scores, forward chaining without leaks, the quick protocol, tune, the CLI."""

from __future__ import annotations

import datetime as dt
import math
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

from whr import elo
from whr.research import evaluate as ev


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


def test_score_by_hand() -> None:
    s = ev.score(np.array([0.8, 0.8, 0.5]), np.array([1.0, 0.5, 0.0]))
    ll = (math.log(0.8) + 0.5 * (math.log(0.8) + math.log(0.2)) + math.log(0.5)) / 3
    assert s.games == 3
    assert s.log_likelihood == pytest.approx(ll)
    assert s.brier == pytest.approx((0.04 + 0.09 + 0.25) / 3)
    with pytest.raises(ValueError, match="shape"):
        ev.score(np.array([0.5]), np.array([1.0, 0.0]))


# ---------------------------------------------------------------- forward chaining, no leaks


def _leak_history() -> pd.DataFrame:
    rows = [("t1", "2001-01-01", f"B{i}", f"W{i}", 1.0 if i < 4 else 0.0) for i in range(5)]
    # t2 on day 10: White wins everything; t3 starts the day t2 ends
    rows += [("t2", "2001-01-10", f"B{i}", f"W{i}", 0.0) for i in range(5)]
    rows += [("t3", "2001-01-10", "B0", "W1", 1.0), ("t3", "2001-01-12", "B1", "W0", 1.0)]
    return table(rows)


def test_forward_chaining_uses_only_games_before_the_tournament() -> None:
    res = ev.forward_chaining(_leak_history(), ev.baseline_black())
    p = res.groupby("tournament_id")["p"].unique()
    assert list(p["t1"]) == [0.5]  # nothing before
    assert list(p["t2"]) == [0.8]  # 4 of 5 in t1; with t2's own games it would be 0.4
    assert list(p["t3"]) == [0.8]  # t3 starts on t2's day: t2 is not strictly before


def test_forward_chaining_without_a_forward_function_gives_the_same() -> None:
    seen: list[tuple[dt.date, dt.date]] = []
    base = ev.baseline_black()

    def predict(train: pd.DataFrame, queries: pd.DataFrame) -> np.ndarray:
        if len(train):
            seen.append((max(train["date"]), min(queries["date"])))
        return base.predict(train, queries)

    res = ev.forward_chaining(_leak_history(), ev.System("plain", predict))
    fast = ev.forward_chaining(_leak_history(), base)
    np.testing.assert_array_equal(res["p"].to_numpy(), fast["p"].to_numpy())
    assert seen and all(last < first for last, first in seen)


def test_forward_chaining_elo_equals_a_replay_of_the_earlier_games_only() -> None:
    games = _leak_history()
    res = ev.forward_chaining(games, ev.elo_system("1997"))
    t1 = games[games["tournament_id"] == "t1"]
    before = elo.replay(t1, "1997").set_index("player")["rating"]
    t2 = res[res["tournament_id"] == "t2"]
    expect = [
        elo.expected_score(before[b], before[w])
        for b, w in zip(t2["black"], t2["white"], strict=True)
    ]
    np.testing.assert_allclose(t2["p"].to_numpy(), expect)
    # a leak would show: the ratings after t2 predict t2 differently
    after = elo.replay(games[games["tournament_id"] != "t3"], "1997").set_index("player")["rating"]
    leaked = [
        elo.expected_score(after[b], after[w])
        for b, w in zip(t2["black"], t2["white"], strict=True)
    ]
    assert not np.allclose(expect, leaked)


def test_forward_chaining_whr_no_leak() -> None:
    pytest.importorskip("whr.engine")
    import whr

    games = _leak_history()
    sys_ = ev.whr_system(12.9, refit_days=1)
    res = ev.forward_chaining(games, sys_)
    t2 = res[res["tournament_id"] == "t2"]
    # t1 is one day: each player's rating is their single rating day in the fit on t1 alone
    honest = whr.fit(games[games["tournament_id"] == "t1"]).history
    r = honest.set_index("player")["rating"]
    expect = 1 / (1 + 10 ** ((r[t2["white"]].to_numpy() - r[t2["black"]].to_numpy()) / 400))
    np.testing.assert_allclose(t2["p"].to_numpy(), expect, rtol=1e-6)
    leaky = whr.fit(games[games["tournament_id"] != "t3"]).history
    lr = leaky[leaky["date"] == dt.date(2001, 1, 10)].set_index("player")["rating"]
    leaked = 1 / (1 + 10 ** ((lr[t2["white"]].to_numpy() - lr[t2["black"]].to_numpy()) / 400))
    assert np.abs(leaked - expect).max() > 0.05
    # the first tournament has nobody seen: every player at the default rating, 50/50
    assert (res.loc[res["tournament_id"] == "t1", "p"] == 0.5).all()


def test_seen_flag() -> None:
    res = ev.forward_chaining(_leak_history(), ev.baseline_half())
    assert not res.loc[res["tournament_id"] == "t1", "seen"].any()
    assert res.loc[res["tournament_id"] != "t1", "seen"].all()


# ---------------------------------------------------------------- quick protocol


def test_quick_split_holds_out_every_tenth_game_by_date() -> None:
    rows = [("t", f"2001-01-{25 - i:02d}", f"P{i}", f"Q{i}", 1.0) for i in range(25)]
    train, test = ev.quick_split(table(rows))
    # sorted by date, the game on day k is at position k - 1: positions 9 and 19 are days 10, 20
    assert [d.day for d in test["date"]] == [10, 20]
    assert len(train) == 23
    assert not set(test["game_id"]) & set(train["game_id"])


def test_whr_ratings_at_interpolates_like_rating_on() -> None:
    hist = pd.DataFrame(
        {
            "player": ["a", "a", "b"],
            "date": [dt.date(2000, 1, 1), dt.date(2000, 1, 11), dt.date(2000, 1, 5)],
            "rating": [2000.0, 2100.0, 1800.0],
        }
    )
    days = np.array(
        ["2000-01-06", "2000-01-01", "2000-02-01", "1999-12-31", "2000-01-06", "2000-01-06"],
        dtype="datetime64[D]",
    )
    out = ev.whr_ratings_at(hist, np.array(["a", "a", "a", "a", "b", "zz"], dtype=object), days)
    np.testing.assert_allclose(out[:3], [2050.0, 2000.0, 2100.0])
    assert math.isnan(out[3]) and out[4] == 1800.0 and math.isnan(out[5])


def test_whr_ratings_at_agrees_with_the_engine() -> None:
    pytest.importorskip("whr.engine")
    import whr
    from whr.research import synthetic

    h = synthetic.history(1500, seed=3)
    fit = whr.fit(h.games)
    day = dt.date(2010, 6, 1)
    ref = fit.rating_on(day).set_index("player")["rating"]
    players = ref.index.to_numpy(dtype=object)
    got = ev.whr_ratings_at(fit.history, players, np.full(players.size, np.datetime64(day, "D")))
    np.testing.assert_allclose(got, ref.to_numpy(), rtol=1e-9)


# ---------------------------------------------------------------- report and CLI


def test_svg_plot_is_valid_svg() -> None:
    svg = ev.svg_plot(
        {"a": ([1, 2, 3], [-0.6, -0.55, -0.58]), "b": ([1, 3], [-0.7, -0.65])},
        x_label="w2",
        y_label="ll",
        hlines={"elo <1997>": -0.66},
    )
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    assert len(root.findall(f"{ns}polyline")) == 2
    assert "elo &lt;1997&gt;" in svg
    with pytest.raises(ValueError, match="finite"):
        ev.svg_plot({}, x_label="x", y_label="y")


def test_cli_compare_on_a_small_synthetic_history(tmp_path) -> None:
    code = ev.main(
        ["--synthetic", "1200", "--out", str(tmp_path), "--w2", "12.9", "--refit-days", "3650"]
    )
    assert code == 0
    report = (tmp_path / "report.md").read_text()
    scores = pd.read_csv(tmp_path / "scores.csv")
    assert {"elo 1997 rules", "constant 0.5", "true strengths (bound)"} <= set(scores["system"])
    assert set(scores["protocol"]) == {"forward", "quick"}
    half = scores[scores["system"] == "constant 0.5"]
    assert np.allclose(half["log_likelihood"], math.log(0.5))
    assert "| elo 1997 rules | forward |" in report


def test_tune_writes_table_and_plot(tmp_path) -> None:
    pytest.importorskip("whr.engine")
    code = ev.main(
        [
            "tune",
            "--synthetic",
            "1500",
            "--out",
            str(tmp_path),
            "--w2",
            "5",
            "20",
            "--virtual-games",
            "1",
            "2",
        ]
    )
    assert code == 0
    res = pd.read_csv(tmp_path / "scores.csv")
    assert len(res) == 4 and res["best"].sum() == 1
    best = res.loc[res["log_likelihood"].idxmax()]
    assert bool(best["best"])
    root = ET.fromstring((tmp_path / "w2.svg").read_text())
    assert len(root.findall("{http://www.w3.org/2000/svg}polyline")) == 2
    assert "w2.svg" in (tmp_path / "report.md").read_text()


def test_whr_refits_at_the_stride_on_earlier_games_only() -> None:
    pytest.importorskip("whr.engine")
    import whr

    # tournaments every 10 days from 2001-01-01 to 2001-04-11 (11 tournaments, days 0..100)
    rows = []
    for k in range(11):
        day = (dt.date(2001, 1, 1) + dt.timedelta(days=10 * k)).isoformat()
        rows += [
            (f"t{k}", day, f"P{(k + i) % 6}", f"P{(k + i + 1) % 6}", float(i % 2)) for i in range(3)
        ]
    games = table(rows)
    seen: list[dt.date] = []

    def fit(train: pd.DataFrame, **kw: object) -> object:
        seen.append(max(train["date"]))
        return whr.fit(train, **kw)

    ev.forward_chaining(games, ev.whr_system(12.9, refit_days=30, fit=fit))
    # checkpoints at days 0, 30, 60, 90: the one at day 0 has no games; the others fit on the
    # games before them, whose last days are 20, 50, 80
    first = dt.date(2001, 1, 1)
    assert seen == [first + dt.timedelta(days=d) for d in (20, 50, 80)]


# ---------------------------------------------------------------- independent units (for flows)


def test_tune_grid_order_and_empty_grids() -> None:
    grid = ev.tune_grid([20, 5, 12.9], [2, 1])
    assert [(p.w2, p.virtual_games) for p in grid] == [
        (5.0, 2),
        (12.9, 2),
        (20.0, 2),
        (5.0, 1),
        (12.9, 1),
        (20.0, 1),
    ]
    with pytest.raises(ValueError, match=r"must not be empty, got \[\] and \[2\]"):
        ev.tune_grid([], [2])
    with pytest.raises(TypeError, match="point must be a GridPoint, got tuple"):
        ev.tune_point(ev.tune_data(_leak_history()), (12.9, 2))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="data must be a TuneData, got tuple"):
        ev.tune_point(ev.quick_split(_leak_history()), ev.GridPoint(12.9, 2))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="protocol must be 'forward' or 'quick', got 'both'"):
        ev.tune_data(_leak_history(), "both")


def test_a_grid_point_scores_like_the_quick_protocol() -> None:
    pytest.importorskip("whr.engine")
    from whr.research import synthetic

    games = synthetic.history(1500, seed=2).games
    row = ev.tune_point(ev.tune_data(games), ev.GridPoint(9.0, 1))
    res = ev.quick_protocol(games, ev.whr_system(9.0, 1))
    s = ev.score(res["p"].to_numpy(), res["result"].to_numpy())
    assert row == {
        "w2": 9.0,
        "virtual_games": 1,
        "games": s.games,
        "log_likelihood": s.log_likelihood,
        "brier": s.brier,
    }
    assert row["games"] == 150  # every 10th of 1500


def test_tune_table_marks_the_best_row() -> None:
    rows = [
        {"w2": 5.0, "virtual_games": 2, "games": 9, "log_likelihood": -0.61, "brier": 0.2},
        {"w2": 9.0, "virtual_games": 2, "games": 9, "log_likelihood": -0.58, "brier": 0.2},
        {"w2": 20.0, "virtual_games": 2, "games": 9, "log_likelihood": -0.60, "brier": 0.2},
    ]
    assert ev.tune_table(rows)["best"].tolist() == [False, True, False]
    with pytest.raises(ValueError, match="rows must not be empty"):
        ev.tune_table([])


def test_score_system_is_one_row_of_compare() -> None:
    games = _leak_history()
    table = ev.compare(games, [ev.baseline_half(), ev.baseline_black()], ("quick", "forward"))
    row = ev.score_system(games, ev.baseline_black(), "forward")
    got = table.iloc[3].drop("seconds").to_dict()
    assert got == {k: v for k, v in row.items() if k != "seconds"}
    assert list(table["protocol"]) == ["quick", "quick", "forward", "forward"]
    with pytest.raises(ValueError, match="protocol must be 'forward' or 'quick', got 'both'"):
        ev.score_system(games, ev.baseline_half(), "both")


def test_load_games_wants_one_source() -> None:
    with pytest.raises(ValueError, match="exactly one of source and synthetic"):
        ev.load_games()
    with pytest.raises(ValueError, match="exactly one of source and synthetic"):
        ev.load_games(source="x", synthetic=10)
    with pytest.raises(ValueError, match="as_of is required with a source"):
        ev.load_games(source="x")
    games, truth, what = ev.load_games(synthetic=300, seed=4, as_of=dt.date(2000, 1, 1))
    assert truth is not None and what == "synthetic history, 300 games, seed 4"
    assert 0 < len(games) < 300 and max(games["date"]) <= dt.date(2000, 1, 1)


def test_a_grid_point_by_forward_chaining_scores_like_forward_chaining() -> None:
    pytest.importorskip("whr.engine")
    from whr.research import synthetic

    games = synthetic.history(1500, seed=2).games
    table = ev.tune(games, [9.0, 20.0], [2], protocol="forward", refit_days=730)
    for w2, row in zip((9.0, 20.0), table.itertuples(), strict=True):
        res = ev.forward_chaining(games, ev.whr_system(w2, 2, refit_days=730))
        s = ev.score(res["p"].to_numpy(), res["result"].to_numpy())
        assert (row.w2, row.games, row.log_likelihood, row.brier) == (
            w2,
            s.games,
            s.log_likelihood,
            s.brier,
        )
    assert table["games"].tolist() == [1500, 1500]  # every game is predicted


def test_cli_tune_by_forward_chaining(tmp_path) -> None:
    pytest.importorskip("whr.engine")
    args = ["tune", "--synthetic", "800", "--out", str(tmp_path), "--w2", "5", "20"]
    code = ev.main([*args, "--virtual-games", "2", "--protocol", "forward", "--refit-days", "730"])
    assert code == 0
    report = (tmp_path / "report.md").read_text()
    assert "Forward chaining (WHR refitted every 730 days), 800 games." in report
    assert "refitted every 730 days (warm-started" in report
    with pytest.raises(SystemExit) as exit_:
        ev.main([*args, "--protocol", "both"])
    assert exit_.value.code == 2
