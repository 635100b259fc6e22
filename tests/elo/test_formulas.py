"""The Elo-era formulas against the rule texts' own numbers (tables and worked examples)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from whr import elo

TABLE = json.loads((Path(__file__).parent / "appendix_table.json").read_text())


def rounded(x: float) -> int:
    return int(elo.round_half_away(x))


@pytest.mark.parametrize("band", TABLE["bands"], ids=lambda b: f"{b[0]}-{b[1]}")
def test_appendix_table_from_the_per_game_formula(band: list[int]) -> None:
    lo, hi, k1_wins, k2_wins, draw = band
    for d in range(lo, hi + 1):
        k1, k2 = 2100.0 + d, 2100.0
        assert rounded(elo.game_change(k1, k2, 1.0)) == k1_wins, d
        assert rounded(elo.game_change(k2, k1, 0.0)) == -k1_wins, d
        assert rounded(elo.game_change(k2, k1, 1.0)) == k2_wins, d
        assert rounded(elo.game_change(k1, k2, 0.0)) == -k2_wins, d
        assert rounded(elo.game_change(k2, k1, 0.5)) == draw, d
        assert rounded(elo.game_change(k1, k2, 0.5)) == -draw, d
        # the 1996 tournament contribution of a one-game tournament is the same number
        assert elo.contribution(k1, k2, 1, 1.0) == k1_wins
        assert elo.contribution(k2, k1, 1, 0.5) == draw


def test_last_boundary_is_718_not_725() -> None:
    # the RIF qualification system 1996 prints "522 - 724: +1" and "725 -: 0"; the formula crosses 0.5 at
    # 120 * log2(63) = 717.3, as the Japanese explanation's table (718) has it
    assert 120 * math.log2(63) == pytest.approx(717.27, abs=0.01)
    for d in range(718, 725):
        assert rounded(elo.game_change(2000.0 + d, 2000.0, 1.0)) == 0
    assert rounded(elo.game_change(2717.0, 2000.0, 1.0)) == 1


def test_expected_score_values_and_vectorisation() -> None:
    assert elo.expected_score(2000, 2000) == 0.5
    assert elo.expected_score(2120, 2000) == pytest.approx(2 / 3)  # odds 2:1 at 120 points
    assert elo.expected_score(2000, 2240) == pytest.approx(1 / 5)  # odds 1:4 at 240 points
    r = np.array([1900.0, 2100.0, 2500.0])
    o = np.array([2000.0, 2000.0, 2000.0])
    e = elo.expected_score(r, o)
    assert isinstance(e, np.ndarray) and e.shape == (3,)
    np.testing.assert_allclose(e + elo.expected_score(o, r), 1.0)
    np.testing.assert_allclose(elo.game_change(r, o, [1, 0.5, 0]), 32 * (np.array([1, 0.5, 0]) - e))


def test_game_change_rejects_a_score_outside_0_1() -> None:
    with pytest.raises(ValueError, match="score"):
        elo.game_change(2000, 2000, 2)


def test_rounding_is_half_away_from_zero() -> None:
    assert elo.round_half_away(11.5) == 12
    assert elo.round_half_away(-11.5) == -12
    assert elo.round_half_away(-0.49) == 0


def test_japanese_explanation_worked_example() -> None:
    # 2000 after two games; a win and a draw against 2200 and 2100:
    # (2000 * 2 + 2200 + 2100 + 400 * (1 - 0)) / (2 + 2) = 2175
    assert elo.provisional_rating(2000, 2, 2200 + 2100, 1, 0, 2, cap_mean=2100) == 2175


def test_provisional_rating_is_capped_at_opponents_average_plus_300() -> None:
    # two wins against 2200 and 2100 for a newcomer: 2150 + 400 = 2550, capped at 2150 + 300
    assert elo.provisional_rating(0, 0, 4300, 2, 0, 2, cap_mean=2150) == 2450
    # the cumulative form truncates: (2000 + 2001) / 2 = 2000.5 -> 2000
    assert elo.provisional_rating(2000, 1, 2001, 0, 0, 1, cap_mean=2000.5) == 2000


@pytest.mark.parametrize(
    ("ka", "lower", "upper"),
    [(2200, 2000, 2400), (2500, 2000, 2400), (2199, 1999, 2399), (2000, 1800, 2200)],
)
def test_start_interval(ka: float, lower: float, upper: float) -> None:
    assert elo.start_interval(ka) == (lower, upper)


@pytest.mark.parametrize(
    ("ka", "n", "et", "k0", "why"),
    [
        (2280, 3, 2, 2400, "N/Et - 1 = 1/2: dK = -120, exactly the upper edge"),
        (2280, 5, 4, 2400, "N/Et - 1 = 1/4: dK = -240, 2520 beyond the edge"),
        (2240, 5, 1, 2000, "N/Et - 1 = 4: dK = 240, exactly the lower edge"),
        (2200, 5, 1, 2000, "1960 below the edge"),
        (2300, 4, 2, 2300, "half the points: K0 = Ka"),
        (2100, 5, 1, 1900, "Ka < 2200: interval [1900, 2300], 1860 below"),
        (2100, 5, 4, 2300, "Ka < 2200: 2340 above"),
        (2100, 3, 2, 2220, "Ka < 2200: 2220 inside"),
        (2300, 3, 0, 2000, "no points: the lower edge"),
        (2300, 3, 3, 2400, "all points: the upper edge"),
    ],
)
def test_start_rating_at_and_beyond_the_edges(ka, n, et, k0, why) -> None:
    assert elo.start_rating(ka, n, et) == pytest.approx(k0), why


def test_start_rating_rejects_impossible_points() -> None:
    with pytest.raises(ValueError, match="points"):
        elo.start_rating(2200, 3, 4)
    with pytest.raises(ValueError, match="games"):
        elo.start_rating(2200, 0, 0)


def test_contribution_of_a_tournament() -> None:
    # 3 games against an average of 2300 for a 2000 player with 0 points:
    # Ee = 3 / (1 + 2**(300/120)) = 0.4507, F = round(32 * -0.4507) = round(-14.42) = -14
    assert elo.contribution(2000, 2300, 3, 0.0) == -14
    assert elo.contribution(2000, 2300, 0, 0.0) == 0
