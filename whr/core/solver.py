"""Global Newton's method for the WHR maximum a posteriori, and the per-day uncertainty.

Coulom (2008, section 3.3) updates one player at a time by a Newton step on that player's
ratings (a tridiagonal system), sweeping over players until nothing moves. Here Newton's method
runs on *all* player-days at once:

- The Newton direction solves ``A x = g`` with ``A = -H`` (minus the Hessian, symmetric positive
  definite: the log posterior is strictly concave) by preconditioned conjugate gradients. ``A`` is
  applied as ``diag(D) x - C x`` with ``C`` a CSR matrix of fixed sparsity (game pairs and prior
  links) whose values are refreshed each iteration.
- The preconditioner is every player's own tridiagonal block of ``A`` (the player's games on the
  diagonal, the Wiener prior on the off-diagonals): Coulom's per-player Newton system. Concatenated
  over players it is one symmetric tridiagonal matrix with zeros between players, factored and
  solved in O(n) by LAPACK ``dpttrf``/``dpttrs``.
- Inexact Newton: CG stops at a relative residual ``eta = min(0.1, sqrt(max|g|))`` (forcing term;
  superlinear convergence), and a backtracking (Armijo) line search on the log posterior makes
  every step an ascent step.
- Converged when the last step was a full Newton step, its largest rating change is below
  ``tol_elo`` Elo *and* the largest gradient component is below ``tol_grad``.

The uncertainty of a player-day is, as in Coulom's paper and the reference implementation, the
square root of the diagonal of the inverse of minus the Hessian of that player's own log posterior
(other players fixed): the diagonal of the inverse of the same tridiagonal blocks. For a
tridiagonal SPD matrix ``T`` with forward pivots ``f`` (LDL^T from the top, what ``dpttrf``
returns) and backward pivots ``b`` (the same from the bottom),
``(T^-1)_kk = 1 / (f_k + b_k - T_kk)``: O(n), no loop in Python.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.linalg import lapack

from whr.core.model import (
    ELO_PER_NATURAL,
    Problem,
    conditional,
    dot,
    gradient_and_neg_hessian_parts,
    log_posterior,
    neg_hessian_parts,
)

__all__ = [
    "ConvergenceError",
    "Solution",
    "Operator",
    "local_newton",
    "solve",
    "tridiagonal_inverse_diagonal",
    "uncertainty",
]


def _pttrf(d: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """LAPACK ``dpttrf`` (``L D L^T`` of a symmetric positive definite tridiagonal matrix) of any
    size, 1 x 1 included.

    SciPy's wrapper refuses a 1 x 1 matrix: it checks the empty off-diagonal against a size of
    at least one and raises "unexpected array size: new_size=1, got array with arr_size=0". One
    free player-day (a player with one rating day whose games changed, in the change split; a
    newcomer placed by a warm start) is such a matrix, so every factorisation goes through here.

    Returns
    -------
    d, e, info
        As ``dpttrf``: the pivots, the multipliers, and 0 on success (k > 0 when the leading
        minor of order k is not positive).
    """
    if d.size <= 1:
        info = 0 if d.size == 0 or d[0] > 0 else 1
        return d.copy(), np.zeros(0), info
    d_out, e_out, info = lapack.dpttrf(d, e)
    return d_out, e_out, int(info)


def _pttrs(d: np.ndarray, e: np.ndarray, b: np.ndarray) -> np.ndarray:
    """LAPACK ``dpttrs``: solve with :func:`_pttrf`'s factors, of any size (see there)."""
    if d.size <= 1:
        quotient: np.ndarray = b / d
        return quotient
    y: np.ndarray
    y, info = lapack.dpttrs(d, e, b)
    if info != 0:  # pragma: no cover - only for a bad argument
        raise np.linalg.LinAlgError(f"dpttrs failed (info={info})")
    return y


class ConvergenceError(RuntimeError):
    """Newton's method did not converge within its iteration cap.

    Raise ``max_iter`` or loosen ``tol_elo``/``tol_grad``; if the gradient stays large, check the
    input for players with extreme records (e.g. only wins against much weaker opponents) and
    report the data with the message.
    """


@dataclass(frozen=True)
class Solution:
    """The maximum a posteriori and what it took to get there.

    Attributes
    ----------
    r : ndarray, shape (n,)
        Rating of each player-day, natural units.
    variance : ndarray, shape (n,)
        Variance of each player-day's rating (player's own block), natural units^2.
    iterations : int
        Newton iterations.
    cg_iterations : int
        Conjugate-gradient iterations over all Newton iterations.
    converged : bool
    max_change_elo : float
        Largest rating change of the last Newton step, Elo.
    grad_max : float
        Largest absolute gradient component at ``r`` (natural units^-1).
    """

    r: np.ndarray
    variance: np.ndarray
    iterations: int
    cg_iterations: int
    converged: bool
    max_change_elo: float
    grad_max: float


class Operator:
    """Minus the Hessian ``A = diag(D) - U - U^T - E`` of a problem.

    ``U`` is the upper triangle of the game part, a CSR matrix built directly from the pairs
    (sorted by ``pair_a``, then ``pair_b``) whose values are the pair weights; ``E`` is the
    Wiener prior's off-diagonal (``inv_s2`` next to the diagonal). Only the values change from
    one Newton iteration to the next.

    Parameters
    ----------
    problem : Problem
    """

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        n = problem.n
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(problem.pair_a, minlength=n), out=indptr[1:])
        index_type = np.int32 if max(n, problem.pair_b.size) < 2**31 else np.int64
        self._u = sp.csr_matrix(
            (np.zeros(problem.pair_b.size), problem.pair_b.astype(index_type), indptr),
            shape=(n, n),
        )
        self._ut = self._u.T  # a CSC view of the same arrays
        self._s2 = problem.inv_s2
        self._diag = np.zeros(n)
        self._pre_e = -problem.inv_s2
        self._pre_d: np.ndarray | None = None
        self._pre_el: np.ndarray | None = None

    def update(self, diag: np.ndarray, w: np.ndarray) -> None:
        """Set ``A`` from :func:`neg_hessian_parts` values and factor the preconditioner."""
        self._u.data[:] = w
        self._diag = diag
        if self.problem.n:
            d, e, info = _pttrf(diag, self._pre_e)
            if info != 0:  # pragma: no cover - A is positive definite by construction
                raise np.linalg.LinAlgError(f"dpttrf failed (info={info})")
            self._pre_d, self._pre_el = d, e

    @property
    def diagonal(self) -> np.ndarray:
        """Diagonal of ``A`` at the last update, natural units^-2."""
        return self._diag

    def matvec(self, x: np.ndarray) -> np.ndarray:
        """``A @ x``."""
        y: np.ndarray = self._diag * x
        y -= self._u @ x
        y -= self._ut @ x
        if x.size > 1:
            y[:-1] -= self._s2 * x[1:]
            y[1:] -= self._s2 * x[:-1]
        return y

    def precondition(self, x: np.ndarray) -> np.ndarray:
        """Solve the players' tridiagonal blocks: ``M^-1 @ x``."""
        if not x.size:
            return x.copy()
        if self._pre_d is None or self._pre_el is None:
            raise RuntimeError("precondition() before update(): nothing is factored yet")
        return _pttrs(self._pre_d, self._pre_el, x)

    def cg(self, g: np.ndarray, rtol: float, max_iter: int) -> tuple[np.ndarray, int]:
        """Preconditioned conjugate gradients for ``A x = g`` from ``x = 0``.

        Stops when ``||g - A x||_2 <= rtol * ||g||_2`` or after ``max_iter`` iterations (every
        iterate is an ascent direction, so a truncated solve still makes progress).

        Returns
        -------
        x : ndarray
        iterations : int
        """
        x = np.zeros_like(g)
        res = g.copy()
        stop = rtol * math.sqrt(dot(g, g))
        if stop == 0.0:
            return x, 0
        z = self.precondition(res)
        p = z.copy()
        rz = dot(res, z)
        it = 0
        while it < max_iter:
            it += 1
            ap = self.matvec(p)
            alpha = rz / dot(p, ap)
            x += alpha * p
            res -= alpha * ap
            if math.sqrt(dot(res, res)) <= stop:
                break
            z = self.precondition(res)
            rz_new = dot(res, z)
            p *= rz_new / rz
            p += z
            rz = rz_new
        return x, it


def tridiagonal_inverse_diagonal(d: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Diagonal of the inverse of a symmetric positive definite tridiagonal matrix.

    Parameters
    ----------
    d : ndarray, shape (n,)
        Diagonal.
    e : ndarray, shape (n - 1,)
        Off-diagonal (zeros split the matrix into independent blocks).

    Returns
    -------
    ndarray, shape (n,)
    """
    d = np.asarray(d, dtype=np.float64)
    e = np.asarray(e, dtype=np.float64)
    if d.size == 0:
        return d.copy()
    fwd, _, info = _pttrf(d, e)
    if info != 0:
        raise np.linalg.LinAlgError(f"tridiagonal matrix is not positive definite (info={info})")
    bwd, _, info = _pttrf(d[::-1].copy(), e[::-1].copy())
    if info != 0:  # pragma: no cover - same matrix, reversed
        raise np.linalg.LinAlgError(f"tridiagonal matrix is not positive definite (info={info})")
    inverse: np.ndarray = 1.0 / (fwd + bwd[::-1] - d)
    return inverse


def uncertainty(problem: Problem, r: np.ndarray, jitter: float) -> np.ndarray:
    """Variance of each player-day: diagonal of the inverse of the player's own ``-H`` block.

    Parameters
    ----------
    problem : Problem
    r : ndarray, shape (n,)
        Ratings, natural units (normally the MAP).
    jitter : float
        Added to the diagonal of ``-H`` (natural units^-2); the reference adds 0.001.

    Returns
    -------
    ndarray, shape (n,)
        Variances, natural units^2.
    """
    diag, _ = neg_hessian_parts(problem, r)
    return tridiagonal_inverse_diagonal(diag + jitter, -problem.inv_s2)


def local_newton(
    problem: Problem,
    r: np.ndarray,
    free: np.ndarray,
    *,
    tol_elo: float,
    tol_grad: float,
    max_iter: int,
) -> np.ndarray:
    """Maximise the log posterior over the player-days ``free`` only, the others held fixed.

    Coulom's per-player update (2008, section 3.3) for a set of whole players at once: the
    conditional problem of the free players (:func:`whr.core.conditional`) solved by
    :func:`solve`. Only the terms that touch ``free`` are evaluated.

    Parameters
    ----------
    problem : Problem
    r : ndarray, shape (n,)
        Ratings, natural units (not modified).
    free : array of int
        Player-days to optimise: whole players (all of a player's player-days or none).
    tol_elo, tol_grad, max_iter
        As for :func:`solve`.

    Returns
    -------
    ndarray, shape (n,)
        ``r`` with the free player-days at their conditional maximum.

    Raises
    ------
    ValueError
        If ``free`` splits a player's player-days (see :func:`whr.core.conditional`).
    ConvergenceError
        As for :func:`solve`.
    """
    free = np.unique(np.asarray(free, dtype=np.int64))
    out = np.array(r, dtype=np.float64)
    if free.size == 0:
        return out
    sub = conditional(problem, out, free)
    sol = solve(sub, out[free], tol_elo=tol_elo, tol_grad=tol_grad, max_iter=max_iter, jitter=0.0)
    out[free] = sol.r
    return out


def solve(
    problem: Problem,
    r0: np.ndarray | None = None,
    *,
    tol_elo: float,
    tol_grad: float,
    max_iter: int,
    jitter: float,
    max_cg: int = 5000,
) -> Solution:
    """Maximum a posteriori of a WHR problem by global Newton's method (see module doc).

    Parameters
    ----------
    problem : Problem
    r0 : ndarray, shape (n,), optional
        Starting ratings, natural units (default: all 0).
    tol_elo : float
        Converged when a full Newton step changes no rating by more than this, Elo (Newton's
        convergence is superlinear: the error left after a 0.01 Elo step is ~1e-6 Elo)...
    tol_grad : float
        ...and the largest absolute gradient component is below this (natural units^-1).
    max_iter : int
        Newton iterations before giving up with :class:`ConvergenceError`.
    max_cg : int
        Conjugate-gradient iterations per Newton iteration at most.
    jitter : float
        Added to minus the Hessian's diagonal for the uncertainties only, natural units^-2.

    Returns
    -------
    Solution

    Raises
    ------
    ConvergenceError
        When ``max_iter`` Newton iterations do not reach the tolerances.
    """
    if not (tol_elo > 0 and tol_grad > 0):
        raise ValueError(f"tol_elo and tol_grad must be > 0, got {tol_elo!r}, {tol_grad!r}")
    if max_iter < 1:
        raise ValueError(f"max_iter must be >= 1, got {max_iter!r}")
    n = problem.n
    r = np.zeros(n) if r0 is None else np.array(r0, dtype=np.float64)
    if r.shape != (n,) or not np.isfinite(r).all():
        raise ValueError(f"r0 must be a finite array of shape ({n},), got shape {r.shape}")
    if n == 0:
        return Solution(r, np.zeros(0), 0, 0, True, 0.0, 0.0)
    op = Operator(problem)
    g, diag, w = gradient_and_neg_hessian_parts(problem, r)
    f = log_posterior(problem, r)
    gmax = float(np.abs(g).max())
    cg_total = 0
    change = math.inf
    for it in range(1, max_iter + 1):
        op.update(diag, w)
        eta = min(0.1, 0.1 * math.sqrt(gmax))
        x, cg_it = op.cg(g, eta, max_cg)
        cg_total += cg_it
        # backtracking line search (Armijo) on the strictly concave log posterior
        slope = dot(g, x)  # > 0: x is an ascent direction
        t = 1.0
        while True:
            r_new = r + t * x
            f_new = log_posterior(problem, r_new)
            tiny = slope * t < 1e-13 * (1.0 + abs(f))  # below rounding of f: accept
            if f_new >= f + 1e-4 * t * slope or tiny or t < 1e-10:
                break
            t *= 0.5
        change = t * float(np.abs(x).max()) * ELO_PER_NATURAL
        r, f = r_new, f_new
        g, diag, w = gradient_and_neg_hessian_parts(problem, r)
        gmax = float(np.abs(g).max())
        if t == 1.0 and change < tol_elo and gmax < tol_grad:
            var = uncertainty(problem, r, jitter)
            return Solution(r, var, it, cg_total, True, change, gmax)
    raise ConvergenceError(
        f"Newton's method did not converge in {max_iter} iterations: last step changed a rating "
        f"by {change:.3g} Elo (tol_elo={tol_elo}), largest gradient {gmax:.3g} "
        f"(tol_grad={tol_grad}); raise max_iter or loosen the tolerances"
    )
