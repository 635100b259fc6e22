"""The synthetic history generator: determinism, sizes, draws, and well-formed tables."""

from __future__ import annotations

from datetime import date

import numpy as np
import pandas as pd
import pytest

from whr.research.synthetic import history


@pytest.fixture(scope="module")
def h():
    return history(20_000, seed=7)


def test_same_seed_same_history_and_other_seed_differs(h):
    again = history(20_000, seed=7)
    pd.testing.assert_frame_equal(h.games, again.games)
    pd.testing.assert_frame_equal(h.truth, again.truth)
    other = history(20_000, seed=8)
    assert not h.games["result"].equals(other.games["result"])


@pytest.mark.parametrize("n", [1, 37, 5_000])
def test_exact_number_of_games(n):
    assert len(history(n, seed=n).games) == n


def test_sizes_players_about_one_per_fifteen_games(h):
    assert 20_000 / 15 * 0.7 < len(h.players) < 20_000 / 15 * 1.3


def test_draw_rate_and_no_self_games(h):
    g = h.games
    assert set(g["result"].unique()) <= {0.0, 0.5, 1.0}
    assert abs((g["result"] == 0.5).mean() - 0.12) < 0.02
    assert not (g["black"] == g["white"]).any()
    assert g["game_id"].is_unique


def test_references_dates_and_truth_consistent(h):
    g, p, t, tr = h.games, h.players, h.tournaments, h.truth
    assert set(g["black"]) | set(g["white"]) == set(p["player_id"])
    assert set(g["tournament_id"]) == set(t["tournament_id"])
    ends = dict(zip(t["tournament_id"], t["end"], strict=True))
    assert (g["date"] == g["tournament_id"].map(ends)).all()
    assert (t["start"] <= t["end"]).all()
    assert g["date"].min() >= date(1989, 1, 1) and g["date"].max() <= date(2026, 11, 30)
    # truth: exactly one row per (player, day) with a game
    played = pd.concat(
        [
            g[["black", "date"]].set_axis(["player", "date"], axis=1),
            g[["white", "date"]].set_axis(["player", "date"], axis=1),
        ]
    ).drop_duplicates()
    assert len(played) == len(tr)
    assert set(zip(played["player"], played["date"], strict=True)) == set(
        zip(tr["player"], tr["date"], strict=True)
    )
    # a player never meets the same opponent twice in one tournament
    pair = np.minimum(g["black"], g["white"]) + "-" + np.maximum(g["black"], g["white"])
    assert not pd.DataFrame({"t": g["tournament_id"], "p": pair}).duplicated().any()


def test_results_follow_the_truth(h):
    """Black's mean score matches Bradley-Terry on the true strengths (an independent check)."""
    key = dict(
        zip(zip(h.truth["player"], h.truth["date"], strict=True), h.truth["rating"], strict=True)
    )
    g = h.games
    rb = np.array([key[k] for k in zip(g["black"], g["date"], strict=True)])
    rw = np.array([key[k] for k in zip(g["white"], g["date"], strict=True)])
    p = 1 / (1 + 10 ** ((rw - rb) / 400))
    assert abs(g["result"].mean() - p.mean()) < 0.01
    strong = p > 0.8
    assert abs(g["result"][strong].mean() - p[strong].mean()) < 0.02


def test_bad_arguments():
    with pytest.raises(ValueError, match="n_games"):
        history(0)
    with pytest.raises(ValueError, match="draw_rate"):
        history(10, draw_rate=0.9)
