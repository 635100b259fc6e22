"""The solver: fast solve vs dense solve, uncertainty vs dense inverse, the MAP, closed forms."""

from __future__ import annotations

import math

import numpy as np
import pytest
from core_support import VIRTUAL, options, random_problem

from whr import core


def test_pcg_matches_dense_solve(problem):
    rng = np.random.default_rng(1)
    r = rng.normal(0, 0.5, problem.n)
    g = rng.normal(0, 1, problem.n)
    op = core.Operator(problem)
    _, diag, w = core.gradient_and_neg_hessian_parts(problem, r)
    op.update(diag, w)
    a = core.neg_hessian(problem, r).toarray()
    np.testing.assert_allclose(op.matvec(g), a @ g, rtol=1e-12, atol=1e-12)
    x, iterations = op.cg(g, 1e-12, 1000)
    np.testing.assert_allclose(x, np.linalg.solve(a, g), rtol=1e-8, atol=1e-10)
    assert 0 < iterations <= problem.n + 5


def test_preconditioner_is_the_players_own_blocks(problem):
    r = np.zeros(problem.n)
    op = core.Operator(problem)
    _, diag, w = core.gradient_and_neg_hessian_parts(problem, r)
    op.update(diag, w)
    a = core.neg_hessian(problem, r).toarray()
    same = problem.pd_player[:, None] == problem.pd_player[None, :]
    blocks = np.where(same, a, 0.0)
    b = np.arange(problem.n, dtype=float)
    np.testing.assert_allclose(op.precondition(b), np.linalg.solve(blocks, b), rtol=1e-10)


def test_tridiagonal_inverse_diagonal_matches_dense():
    rng = np.random.default_rng(3)
    n = 30
    e = -rng.uniform(0.1, 2, n - 1)
    e[[4, 5, 17]] = 0.0  # independent blocks, including a 1x1 block
    d = np.abs(np.concatenate([[0.0], e])) + np.abs(np.concatenate([e, [0.0]]))
    d += rng.uniform(0.01, 1, n)
    t = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
    np.testing.assert_allclose(
        core.tridiagonal_inverse_diagonal(d, e), np.diag(np.linalg.inv(t)), rtol=1e-10
    )


def test_a_one_by_one_system_is_solved_too():
    """SciPy's dpttrf/dpttrs wrappers refuse n = 1 (an empty off-diagonal): one free player-day."""
    np.testing.assert_allclose(core.tridiagonal_inverse_diagonal([4.0], []), [0.25])
    # player 0 has one rating day, players 1 and 2 two and one
    pr = core.build(
        np.array([0, 1]), np.array([1, 2]), np.array([0, 5]), np.array([1.0, 0.5]), 3,
        w2=1.0, **VIRTUAL,
    )  # fmt: skip
    r = np.zeros(pr.n)
    free = np.flatnonzero(pr.pd_player == 0)
    assert free.size == 1
    out = core.local_newton(pr, r, free, tol_elo=1e-10, tol_grad=1e-12, max_iter=50)
    assert abs(core.gradient(pr, out)[free[0]]) < 1e-9 and out[free[0]] > 0  # a win: above 0


@pytest.mark.parametrize("jitter", [0.0, 0.001])
def test_uncertainty_matches_dense_inverse_of_player_blocks(problem, jitter):
    r = np.random.default_rng(4).normal(0, 0.5, problem.n)
    a = core.neg_hessian(problem, r).toarray()
    same = problem.pd_player[:, None] == problem.pd_player[None, :]
    blocks = np.where(same, a, 0.0) + jitter * np.eye(problem.n)
    np.testing.assert_allclose(
        core.uncertainty(problem, r, jitter), np.diag(np.linalg.inv(blocks)), rtol=1e-10
    )


def test_solution_is_the_map(problem):
    sol = core.solve(problem, **options(tol_elo=1e-8, tol_grad=1e-12))
    assert sol.converged
    assert np.abs(core.gradient(problem, sol.r)).max() < 1e-10
    # any nearby point has a lower log posterior
    f = core.log_posterior(problem, sol.r)
    rng = np.random.default_rng(0)
    for _ in range(5):
        assert core.log_posterior(problem, sol.r + rng.normal(0, 1e-3, problem.n)) < f


def test_same_solution_from_different_starting_points():
    pr = random_problem(9, n_players=12, n_games=150)
    a = core.solve(pr, **options()).r
    b = core.solve(pr, np.random.default_rng(2).normal(0, 3, pr.n), **options()).r
    c = core.solve(pr, np.full(pr.n, -5.0), **options()).r
    np.testing.assert_allclose(a, b, atol=1e-8)
    np.testing.assert_allclose(a, c, atol=1e-8)


def test_one_decisive_game_between_two_new_players_closed_form():
    """A beats B, each with two virtual draws against 0: by symmetry r_A = x = -r_B with
    1 - sigma(2x) = 2 sigma(x) - 1, i.e. u = e^x solves u^3 - u^2 - 2 = 0."""
    pr = core.build(
        np.array([0]), np.array([1]), np.array([0]), np.array([1.0]), 2, w2=1.0, **VIRTUAL
    )
    sol = core.solve(pr, **options(tol_elo=1e-9, tol_grad=1e-13, jitter=0.001))
    roots = np.roots([1.0, -1.0, 0.0, -2.0])
    u = float(roots[np.abs(roots.imag) < 1e-12].real[0])
    x = math.log(u)
    np.testing.assert_allclose(sol.r, [x, -x], atol=1e-12)
    # uncertainty: own second derivative, 1 game + 2 virtual draws (+ the reference's 0.001)
    s2, s1 = 1 / (1 + math.exp(-2 * x)), 1 / (1 + math.exp(-x))
    info = s2 * (1 - s2) + 2 * s1 * (1 - s1) + 0.001
    np.testing.assert_allclose(sol.variance, [1 / info, 1 / info], rtol=1e-12)
    assert x * core.ELO_PER_NATURAL == pytest.approx(91.7, abs=0.1)


def test_cap_on_iterations_raises_a_clear_error():
    pr = random_problem(4)
    with pytest.raises(core.ConvergenceError, match="raise max_iter"):
        core.solve(pr, **options(max_iter=1))


def test_empty_problem():
    pr = core.build(
        np.zeros(0, int), np.zeros(0, int), np.zeros(0, int), np.zeros(0), 0, w2=1.0, **VIRTUAL
    )
    sol = core.solve(pr, **options())
    assert sol.r.size == 0 and sol.converged


def test_local_newton_maximises_over_the_free_player_days_only():
    pr = random_problem(11, n_players=10, n_games=120)
    rng = np.random.default_rng(3)
    r = rng.normal(0, 0.5, pr.n)
    free = np.flatnonzero(np.isin(pr.pd_player, [2, 5]))
    out = core.local_newton(pr, r, free, tol_elo=1e-10, tol_grad=1e-12, max_iter=50)
    fixed = np.setdiff1d(np.arange(pr.n), free)
    np.testing.assert_array_equal(out[fixed], r[fixed])  # the others did not move
    assert np.abs(core.gradient(pr, out)[free]).max() < 1e-9  # optimal in the free ones
    assert core.log_posterior(pr, out) > core.log_posterior(pr, r)
    np.testing.assert_array_equal(
        core.local_newton(pr, r, np.zeros(0, int), tol_elo=0.01, tol_grad=1e-6, max_iter=50), r
    )
