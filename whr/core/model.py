"""The WHR model (Coulom 2008) as arrays: the problem, its log posterior, gradient and Hessian.

Everything here is in *natural* units: a rating ``r`` such that the probability that player A
beats player B is ``sigma(r_A - r_B) = 1 / (1 + exp(r_B - r_A))``. One Elo point is
``ln(10) / 400`` natural units (``NATURAL_PER_ELO``).

The variables are the player-days: one rating per player per day on which they played, ordered
by player and then by day (the canonical order; a player's days are consecutive).

The log posterior, up to an additive constant (Coulom 2008, sections 2.2 and 3.2)::

    sum over games          of  s log sigma(r_b - r_w) + (1 - s) log sigma(r_w - r_b)
    + sum over first days   of  V * (1/2 log sigma(r - r_v) + 1/2 log sigma(r_v - r))
    - sum over consecutive days t1 < t2 of a player of  (r2 - r1)^2 / (2 w2 (t2 - t1))

with ``s`` Black's score (a draw counts half a win and half a loss), ``V`` the number of virtual
draws against a virtual opponent rated ``r_v`` on each player's first day, and ``w2`` the Wiener
variance in natural units^2 per day. Games between the same two player-days are summed into one
pair term (``n`` games, ``S`` points for the lower-numbered side), which makes the problem exactly
independent of the order of the games and of their colours.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

__all__ = [
    "ELO_PER_NATURAL",
    "NATURAL_PER_ELO",
    "Problem",
    "build",
    "gradient",
    "gradient_and_neg_hessian_parts",
    "log_posterior",
    "neg_hessian",
    "neg_hessian_parts",
]

#: Natural units per Elo point: ln(10) / 400.
NATURAL_PER_ELO = math.log(10.0) / 400.0
#: Elo points per natural unit: 400 / ln(10) (about 173.7).
ELO_PER_NATURAL = 400.0 / math.log(10.0)


@dataclass(frozen=True, eq=False)
class Problem:
    """A WHR problem over ``n`` player-days (natural units). Build it with :func:`build`.

    Attributes
    ----------
    n : int
        Number of player-days (variables).
    n_players : int
        Number of players (including players without games, who own no player-day).
    pd_player, pd_day : ndarray of int64, shape (n,)
        Player index and day number of each player-day, sorted by player then day.
    pd_games : ndarray of int64, shape (n,)
        Number of games played on each player-day.
    first : ndarray of bool, shape (n,)
        True on each player's first day (where the virtual draws are).
    inv_s2 : ndarray of float64, shape (max(n - 1, 0),)
        Prior precision ``1 / (w2 * (t2 - t1))`` of the link between player-day ``k`` and
        ``k + 1`` (natural units^-2); 0 where the two belong to different players.
    pair_a, pair_b : ndarray of int64, shape (p,)
        The two player-days of each pair of opponents, ``pair_a < pair_b``; sorted by
        ``pair_a``, then ``pair_b``.
    pair_n, pair_s : ndarray of float64, shape (p,)
        Games played by the pair and points scored in them by ``pair_a``.
    w2 : float
        Wiener variance, natural units^2 per day.
    virtual_games : float
        Virtual draws on each player's first day.
    virtual_rating : float
        Rating of the virtual opponent, natural units.
    """

    n: int
    n_players: int
    pd_player: np.ndarray
    pd_day: np.ndarray
    pd_games: np.ndarray
    first: np.ndarray
    inv_s2: np.ndarray
    pair_a: np.ndarray
    pair_b: np.ndarray
    pair_n: np.ndarray
    pair_s: np.ndarray
    w2: float
    virtual_games: float
    virtual_rating: float


def _int_array(name: str, values: object) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1 or not (np.issubdtype(arr.dtype, np.integer) or arr.size == 0):
        raise TypeError(
            f"{name} must be a 1-d integer array, got dtype {arr.dtype} ndim {arr.ndim}"
        )
    return arr.astype(np.int64, copy=False)


def build(
    black: np.ndarray,
    white: np.ndarray,
    day: np.ndarray,
    score: np.ndarray,
    n_players: int,
    *,
    w2: float,
    virtual_games: float = 2.0,
    virtual_rating: float = 0.0,
) -> Problem:
    """Build the WHR problem of a set of games.

    Parameters
    ----------
    black, white : array of int, shape (games,)
        Player index (``0 <= i < n_players``) of each game's two sides; never equal.
    day : array of int, shape (games,)
        Day number of each game (any integer origin, e.g. days since 1970-01-01).
    score : array of float, shape (games,)
        Black's score: 1, 0.5 or 0.
    n_players : int
        Number of players.
    w2 : float
        Wiener variance of a rating, natural units^2 per day (> 0).
    virtual_games : float
        Virtual draws on each player's first day (> 0; it makes the posterior strictly concave).
    virtual_rating : float
        Rating of the virtual opponent, natural units.

    Returns
    -------
    Problem

    Raises
    ------
    ValueError
        On inconsistent lengths, indices out of range, self-play or scores not in {0, 0.5, 1}.
    """
    black = _int_array("black", black)
    white = _int_array("white", white)
    day = _int_array("day", day)
    score = np.asarray(score, dtype=np.float64)
    m = black.size
    if not (white.size == m and day.size == m and score.shape == (m,)):
        raise ValueError(
            f"black, white, day and score must have the same length, got "
            f"{black.size}, {white.size}, {day.size}, {score.size}"
        )
    if not (w2 > 0 and math.isfinite(w2)):
        raise ValueError(f"w2 must be a positive finite number (natural units^2/day), got {w2!r}")
    if not (virtual_games > 0 and math.isfinite(virtual_games)):
        raise ValueError(f"virtual_games must be > 0, got {virtual_games!r}")
    if not math.isfinite(virtual_rating):
        raise ValueError(f"virtual_rating must be finite, got {virtual_rating!r}")
    if m:
        lo = min(black.min(), white.min())
        hi = max(black.max(), white.max())
        if lo < 0 or hi >= n_players:
            raise ValueError(f"player indices must be in [0, {n_players}), got [{lo}, {hi}]")
        if (black == white).any():
            raise ValueError(f"game {int(np.argmax(black == white))} has a player against themself")
        ok = (score == 0.0) | (score == 0.5) | (score == 1.0)
        if not ok.all():
            bad = int(np.argmin(ok))
            raise ValueError(f"score must be 0, 0.5 or 1; game {bad} has {score[bad]!r}")
        day0 = int(day.min())
        span = int(day.max()) - day0
        if span >= 1 << 31:
            raise ValueError(f"days must span less than 2**31 days, got {span}")
    else:
        day0 = 0
    rel = day - day0
    # player-days: unique (player, day) pairs, sorted by player then day
    keys = np.concatenate([black << 32 | rel, white << 32 | rel])
    pd_key, inverse = np.unique(keys, return_inverse=True)
    n = pd_key.size
    pd_player = pd_key >> 32
    pd_day = (pd_key & 0xFFFFFFFF) + day0
    pd_b, pd_w = inverse[:m], inverse[m:]
    pd_games = np.bincount(inverse, minlength=n).astype(np.int64)
    same = pd_player[1:] == pd_player[:-1]
    first = np.ones(n, dtype=bool)
    first[1:] = ~same
    dt = np.diff(pd_day).astype(np.float64)
    inv_s2 = np.zeros(max(n - 1, 0))
    inv_s2[same] = 1.0 / (w2 * dt[same])
    # pairs of opponents, lower index first; scores of halves sum exactly in any order
    a = np.minimum(pd_b, pd_w)
    b = np.maximum(pd_b, pd_w)
    s_a = np.where(pd_b < pd_w, score, 1.0 - score)
    pair_key, game_pair = np.unique(a * n + b, return_inverse=True)
    pair_a = pair_key // n if n else pair_key
    pair_b = pair_key % n if n else pair_key
    p = pair_key.size
    pair_n = np.bincount(game_pair, minlength=p).astype(np.float64)
    pair_s = np.bincount(game_pair, weights=s_a, minlength=p)
    return Problem(
        n=n,
        n_players=int(n_players),
        pd_player=pd_player,
        pd_day=pd_day,
        pd_games=pd_games,
        first=first,
        inv_s2=inv_s2,
        pair_a=pair_a,
        pair_b=pair_b,
        pair_n=pair_n,
        pair_s=pair_s,
        w2=float(w2),
        virtual_games=float(virtual_games),
        virtual_rating=float(virtual_rating),
    )


def dot(a: np.ndarray, b: np.ndarray) -> float:
    """Inner product of two vectors without BLAS.

    ``numpy.dot`` calls a multithreaded BLAS, whose threads spin and slow a solve tenfold
    when the cores are shared with other processes; ``einsum`` runs in the calling thread.
    """
    return float(np.einsum("i,i->", a, b))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def _check_r(problem: Problem, r: np.ndarray) -> np.ndarray:
    r = np.asarray(r, dtype=np.float64)
    if r.shape != (problem.n,):
        raise ValueError(f"r must have shape ({problem.n},), got {r.shape}")
    return r


def _softplus(x: np.ndarray) -> np.ndarray:
    """log(1 + exp(x)), without overflow."""
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def log_posterior(problem: Problem, r: np.ndarray) -> float:
    """Log posterior at ``r`` (natural units), up to an additive constant.

    Parameters
    ----------
    problem : Problem
    r : ndarray, shape (n,)
        Rating of each player-day, natural units.

    Returns
    -------
    float
    """
    r = _check_r(problem, r)
    d = r[problem.pair_a] - r[problem.pair_b]
    # s log sigma(d) + (n - s) log sigma(-d) = -n softplus(-d) - (n - s) d
    games = -dot(problem.pair_n, _softplus(-d)) - dot(problem.pair_n - problem.pair_s, d)
    # 1/2 log sigma(v) + 1/2 log sigma(-v) = -softplus(-v) - v / 2
    v = r[problem.first] - problem.virtual_rating
    virtual = -problem.virtual_games * float(np.sum(_softplus(-v) + 0.5 * v))
    diff = np.diff(r)
    prior = -0.5 * dot(problem.inv_s2, diff * diff) if r.size > 1 else 0.0
    return games + virtual + prior


def gradient(problem: Problem, r: np.ndarray) -> np.ndarray:
    """Gradient of the log posterior at ``r`` (natural units in, per natural unit out).

    Returns
    -------
    ndarray, shape (n,)
    """
    r = _check_r(problem, r)
    n = problem.n
    d = r[problem.pair_a] - r[problem.pair_b]
    ga = problem.pair_s - problem.pair_n * _sigmoid(d)
    g = np.bincount(problem.pair_a, weights=ga, minlength=n) - np.bincount(
        problem.pair_b, weights=ga, minlength=n
    )
    g[problem.first] += problem.virtual_games * (
        0.5 - _sigmoid(r[problem.first] - problem.virtual_rating)
    )
    if n > 1:
        t = problem.inv_s2 * np.diff(r)
        g[:-1] += t
        g[1:] -= t
    return g


def neg_hessian_parts(problem: Problem, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Minus the Hessian of the log posterior at ``r``, as its diagonal and pair weights.

    ``-H = diag(diagonal) - W - E`` where ``W`` holds ``weights[k]`` at ``(pair_a[k], pair_b[k])``
    and its transpose, and ``E`` holds ``inv_s2[k]`` at ``(k, k + 1)`` and its transpose.

    Returns
    -------
    diagonal : ndarray, shape (n,)
        Natural units^-2.
    weights : ndarray, shape (p,)
        ``n p (1 - p)`` of each pair (Fisher information of the pair's games).
    """
    r = _check_r(problem, r)
    n = problem.n
    p = _sigmoid(r[problem.pair_a] - r[problem.pair_b])
    w = problem.pair_n * p * (1.0 - p)
    diag = np.bincount(problem.pair_a, weights=w, minlength=n) + np.bincount(
        problem.pair_b, weights=w, minlength=n
    )
    q = _sigmoid(r[problem.first] - problem.virtual_rating)
    diag[problem.first] += problem.virtual_games * q * (1.0 - q)
    if n > 1:
        diag[:-1] += problem.inv_s2
        diag[1:] += problem.inv_s2
    return diag, w


def gradient_and_neg_hessian_parts(
    problem: Problem, r: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`gradient` and :func:`neg_hessian_parts` at once (one sigmoid evaluation)."""
    r = _check_r(problem, r)
    n = problem.n
    p = _sigmoid(r[problem.pair_a] - r[problem.pair_b])
    ga = problem.pair_s - problem.pair_n * p
    w = problem.pair_n * p * (1.0 - p)
    g = np.bincount(problem.pair_a, weights=ga, minlength=n) - np.bincount(
        problem.pair_b, weights=ga, minlength=n
    )
    diag = np.bincount(problem.pair_a, weights=w, minlength=n) + np.bincount(
        problem.pair_b, weights=w, minlength=n
    )
    q = _sigmoid(r[problem.first] - problem.virtual_rating)
    g[problem.first] += problem.virtual_games * (0.5 - q)
    diag[problem.first] += problem.virtual_games * q * (1.0 - q)
    if n > 1:
        t = problem.inv_s2 * np.diff(r)
        g[:-1] += t
        g[1:] -= t
        diag[:-1] += problem.inv_s2
        diag[1:] += problem.inv_s2
    return g, diag, w


def neg_hessian(problem: Problem, r: np.ndarray) -> sp.csr_matrix:
    """Minus the Hessian of the log posterior at ``r`` as a sparse matrix (natural units^-2)."""
    diag, w = neg_hessian_parts(problem, r)
    n = problem.n
    k = np.arange(max(n - 1, 0))
    rows = np.concatenate([problem.pair_a, problem.pair_b, k, k + 1, np.arange(n)])
    cols = np.concatenate([problem.pair_b, problem.pair_a, k + 1, k, np.arange(n)])
    vals = np.concatenate([-w, -w, -problem.inv_s2, -problem.inv_s2, diag])
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))
