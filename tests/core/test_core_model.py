"""The model's log posterior, gradient and Hessian against hand formulas and finite differences."""

from __future__ import annotations

import math

import numpy as np
import pytest

from whr import core


def test_constants():
    assert math.isclose(core.NATURAL_PER_ELO, math.log(10) / 400, rel_tol=1e-15)
    # 400 Elo apart: the stronger wins 10 times as often
    p = 1 / (1 + math.exp(-400 * core.NATURAL_PER_ELO))
    assert p / (1 - p) == pytest.approx(10.0)


def test_build_player_days_pairs_and_links():
    # player 0 plays on days 5 and 9, player 1 on day 5, player 2 on day 9
    black = np.array([0, 1, 2, 0])
    white = np.array([1, 0, 0, 2])
    day = np.array([5, 5, 9, 9])
    score = np.array([1.0, 0.5, 0.0, 1.0])
    pr = core.build(black, white, day, score, 4, w2=0.5)
    assert pr.n == 4 and pr.n_players == 4
    assert pr.pd_player.tolist() == [0, 0, 1, 2]
    assert pr.pd_day.tolist() == [5, 9, 5, 9]
    assert pr.pd_games.tolist() == [2, 2, 2, 2]
    assert pr.first.tolist() == [True, False, True, True]
    # link 0-1 is player 0's, 4 days apart; the others join different players
    assert pr.inv_s2.tolist() == [1 / (0.5 * 4), 0.0, 0.0]
    # pairs: (pd0, pd2) twice on day 5: player 0 scored 1 + 0.5; (pd1, pd3) twice: 1 + 1
    assert pr.pair_a.tolist() == [0, 1] and pr.pair_b.tolist() == [2, 3]
    assert pr.pair_n.tolist() == [2.0, 2.0]
    assert pr.pair_s.tolist() == [1.5, 2.0]


def test_log_posterior_by_hand():
    """Two players, one game each day, three days: the formula written out term by term."""
    black = np.array([0, 1, 0])
    white = np.array([1, 0, 1])
    day = np.array([0, 3, 10])
    score = np.array([1.0, 0.5, 0.0])
    w2, v, rv = 0.3, 2.0, 0.2
    pr = core.build(black, white, day, score, 2, w2=w2, virtual_games=v, virtual_rating=rv)
    r = np.array([0.1, -0.4, 0.3, 0.5, 0.0, -0.2])  # player 0 days 0,3,10; player 1 days 0,3,10

    def logsig(x):
        return -math.log1p(math.exp(-x))

    games = logsig(r[0] - r[3]) + 0.5 * logsig(r[4] - r[1]) + 0.5 * logsig(r[1] - r[4])
    games += logsig(r[5] - r[2])
    virtual = v * (0.5 * logsig(r[0] - rv) + 0.5 * logsig(rv - r[0]))
    virtual += v * (0.5 * logsig(r[3] - rv) + 0.5 * logsig(rv - r[3]))
    prior = 0.0
    for k, dt in ((0, 3), (1, 7), (3, 3), (4, 7)):
        prior -= (r[k + 1] - r[k]) ** 2 / (2 * w2 * dt)
    assert core.log_posterior(pr, r) == pytest.approx(games + virtual + prior, rel=1e-12)


def test_gradient_matches_finite_differences(problem):
    rng = np.random.default_rng(5)
    r = rng.normal(0, 0.7, problem.n)
    g = core.gradient(problem, r)
    h = 1e-6
    fd = np.empty(problem.n)
    for k in range(problem.n):
        e = np.zeros(problem.n)
        e[k] = h
        fd[k] = (core.log_posterior(problem, r + e) - core.log_posterior(problem, r - e)) / (2 * h)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-7)


def test_hessian_matches_finite_differences(problem):
    rng = np.random.default_rng(6)
    r = rng.normal(0, 0.7, problem.n)
    a = core.neg_hessian(problem, r).toarray()
    h = 1e-6
    fd = np.empty((problem.n, problem.n))
    for k in range(problem.n):
        e = np.zeros(problem.n)
        e[k] = h
        fd[:, k] = -(core.gradient(problem, r + e) - core.gradient(problem, r - e)) / (2 * h)
    np.testing.assert_allclose(a, fd, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(a, a.T)
    assert np.linalg.eigvalsh(a).min() > 0  # strictly concave


def test_combined_evaluation_equals_separate(problem):
    r = np.linspace(-1, 1, problem.n)
    g, diag, w = core.gradient_and_neg_hessian_parts(problem, r)
    np.testing.assert_array_equal(g, core.gradient(problem, r))
    d2, w2 = core.neg_hessian_parts(problem, r)
    np.testing.assert_array_equal(diag, d2)
    np.testing.assert_array_equal(w, w2)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"white": [0]}, "themself"),
        ({"score": [0.7]}, "score"),
        ({"black": [5]}, "player indices"),
        ({"w2": 0.0}, "w2"),
        ({"virtual_games": 0}, "virtual_games"),
        ({"day": [1, 2]}, "same length"),
    ],
)
def test_build_rejects_bad_arguments(kwargs, match):
    args = {"black": [0], "white": [1], "day": [0], "score": [1.0], "w2": 1.0, "virtual_games": 2}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        core.build(
            np.asarray(args["black"]),
            np.asarray(args["white"]),
            np.asarray(args["day"]),
            np.asarray(args["score"]),
            2,
            w2=args["w2"],
            virtual_games=args["virtual_games"],
        )


def test_build_rejects_float_indices():
    with pytest.raises(TypeError, match="black"):
        core.build(np.array([0.0]), np.array([1]), np.array([0]), np.array([1.0]), 2, w2=1.0)
