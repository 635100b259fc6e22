"""The model's log posterior, gradient and Hessian against hand formulas and finite differences."""

from __future__ import annotations

import math

import numpy as np
import pytest
from core_support import VIRTUAL

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
    pr = core.build(black, white, day, score, 4, w2=0.5, **VIRTUAL)
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
            virtual_rating=0.0,
        )


def test_build_rejects_float_indices():
    with pytest.raises(TypeError, match="black"):
        core.build(
            np.array([0.0]), np.array([1]), np.array([0]), np.array([1.0]), 2, w2=1.0, **VIRTUAL
        )


# --- the conditional problem: the same posterior, some players held ------------------------


def _blocks(problem: core.Problem, a: np.ndarray) -> np.ndarray:
    """``a`` with every entry between two different players set to 0."""
    same = problem.pd_player[:, None] == problem.pd_player[None, :]
    return np.where(same, a, 0.0)


def test_conditional_is_the_posterior_restricted_to_the_free_players(problem):
    rng = np.random.default_rng(7)
    r = rng.normal(0, 0.7, problem.n)
    free = np.flatnonzero(np.isin(problem.pd_player, [1, 4, 5]))
    sub = core.conditional(problem, r, free)
    assert sub.n == free.size
    np.testing.assert_array_equal(sub.pd_player, problem.pd_player[free])
    # the same function of the free ratings, up to a constant
    for _ in range(3):
        x = r.copy()
        x[free] += rng.normal(0, 0.5, free.size)
        full = core.log_posterior(problem, x) - core.log_posterior(problem, r)
        part = core.log_posterior(sub, x[free]) - core.log_posterior(sub, r[free])
        assert part == pytest.approx(full, rel=1e-12, abs=1e-12)
        np.testing.assert_allclose(core.gradient(sub, x[free]), core.gradient(problem, x)[free])
        whole = core.neg_hessian(problem, x).toarray()[np.ix_(free, free)]
        np.testing.assert_allclose(core.neg_hessian(sub, x[free]).toarray(), whole, atol=1e-14)


def test_conditional_alone_holds_every_opponent(problem):
    """joint=False: each free player alone, all opponents (free or not) at ``r``."""
    rng = np.random.default_rng(8)
    r = rng.normal(0, 0.7, problem.n)
    free = np.flatnonzero(np.isin(problem.pd_player, [0, 2, 3]))
    sub = core.conditional(problem, r, free, joint=False)
    assert sub.pair_a.size == 0
    # at r, the gradient is the full one; minus the Hessian is the players' own blocks
    np.testing.assert_allclose(core.gradient(sub, r[free]), core.gradient(problem, r)[free])
    own = _blocks(problem, core.neg_hessian(problem, r).toarray())[np.ix_(free, free)]
    np.testing.assert_allclose(core.neg_hessian(sub, r[free]).toarray(), own, atol=1e-14)
    # moving one free player changes nothing for another: the problem splits by player
    x = r[free].copy()
    x[sub.pd_player == 0] += 0.3
    g0, g1 = core.gradient(sub, r[free]), core.gradient(sub, x)
    others = sub.pd_player != 0
    np.testing.assert_array_equal(g0[others], g1[others])


def test_conditional_gradient_and_hessian_match_finite_differences(problem):
    rng = np.random.default_rng(9)
    r = rng.normal(0, 0.7, problem.n)
    free = np.flatnonzero(np.isin(problem.pd_player, [2, 6]))
    sub = core.conditional(problem, r, free, joint=False)
    x = r[free] + rng.normal(0, 0.3, free.size)
    h = 1e-6
    eye = np.eye(sub.n) * h
    fd = [(core.log_posterior(sub, x + e) - core.log_posterior(sub, x - e)) / (2 * h) for e in eye]
    np.testing.assert_allclose(core.gradient(sub, x), fd, rtol=1e-6, atol=1e-7)
    fd2 = [-(core.gradient(sub, x + e) - core.gradient(sub, x - e)) / (2 * h) for e in eye]
    np.testing.assert_allclose(core.neg_hessian(sub, x).toarray(), np.array(fd2).T, atol=1e-6)


def test_conditional_refuses_part_of_a_player(problem):
    chain = np.flatnonzero(problem.pd_player == 1)
    assert chain.size >= 2
    with pytest.raises(ValueError, match="whole players: player 1"):
        core.conditional(problem, np.zeros(problem.n), chain[:-1])
    with pytest.raises(ValueError, match="free must index player-days"):
        core.conditional(problem, np.zeros(problem.n), [problem.n])


# --- the rating on any day -------------------------------------------------------------------


def test_rating_on_days_by_hand():
    # player 0: days 10 (rating 1.0, sd 0.2) and 20 (2.0, 0.4); player 2: day 15 (-1.0, 0.1)
    pd_player, pd_day = np.array([0, 0, 2]), np.array([10, 20, 15])
    rating, sd = np.array([1.0, 2.0, -1.0]), np.array([0.2, 0.4, 0.1])
    q_player = np.array([0, 0, 0, 0, 2, 2, 1, -1])
    q_day = np.array([9, 10, 14, 25, 15, 18, 15, 15])
    r, s, last = core.rating_on_days(pd_player, pd_day, rating, q_player, q_day, sd=sd, w2=0.01)
    np.testing.assert_array_equal(
        np.isnan(r), [True, False, False, False, False, False, True, True]
    )
    np.testing.assert_allclose(r[1:6], [1.0, 1.4, 2.0, -1.0, -1.0], rtol=1e-15)
    # on a rating day its sd; between: bridge variance 0.01*4*6/10 plus (0.6*0.2 + 0.4*0.4)^2;
    # after the last day: variance grows by w2 per day
    expected = [0.2, math.sqrt(0.01 * 4 * 6 / 10 + 0.28**2), math.sqrt(0.16 + 0.05), 0.1]
    np.testing.assert_allclose(s[[1, 2, 3, 4]], expected, rtol=1e-12)
    assert s[5] == pytest.approx(math.sqrt(0.01 + 0.03))
    assert last.tolist() == [-1, 0, 0, 1, 2, 2, -1, -1]
    r_only, no_sd, _ = core.rating_on_days(pd_player, pd_day, rating, q_player, q_day)
    assert no_sd is None
    np.testing.assert_array_equal(r_only, r)


def test_rating_on_days_refuses_unsorted_days():
    with pytest.raises(ValueError, match="sorted by player then day"):
        core.rating_on_days(np.array([0, 0]), np.array([5, 3]), np.zeros(2), [0], [4])
    with pytest.raises(ValueError, match="one value per rating day"):
        core.rating_on_days(np.array([0, 0]), np.array([3, 5]), np.zeros(3), [0], [4])
