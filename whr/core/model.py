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
variance in natural units^2 per day.

Two kinds of game terms carry all of it:

- a *pair*: the games between two player-days (``n`` games, ``S`` points for the lower-numbered
  side, summed in any order and either colour: the problem is exactly independent of the order
  of the games and of their colours);
- an *anchor*: games of one player-day against an opponent whose rating is a fixed number
  (``n`` games, ``S`` points for the player-day). The virtual draws are anchors (``n = V``,
  ``S = V / 2``, opponent ``r_v``); so are the games against held players in a conditional
  problem (:func:`conditional`), which is how one player's history is updated with everyone
  else fixed (Coulom 2008, section 3.3) without a second copy of these formulas.

Both are the same function of the rating difference ``d`` (own minus opponent's)::

    S log sigma(d) + (n - S) log sigma(-d) = -n softplus(-d) - (n - S) d
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
    "conditional",
    "gradient",
    "gradient_and_neg_hessian_parts",
    "log_posterior",
    "neg_hessian",
    "neg_hessian_parts",
    "rating_on_days",
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
    anchor_k : ndarray of int64, shape (q,)
        The player-day of each anchor (games against an opponent of fixed rating).
    anchor_r : ndarray of float64, shape (q,)
        The fixed opponent's rating, natural units.
    anchor_n, anchor_s : ndarray of float64, shape (q,)
        Games of the anchor and points scored in them by the player-day ``anchor_k``.
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
    anchor_k: np.ndarray
    anchor_r: np.ndarray
    anchor_n: np.ndarray
    anchor_s: np.ndarray


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
    virtual_games: float,
    virtual_rating: float,
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
    # the virtual draws: anchors on each player's first day
    anchor_k = np.flatnonzero(first)
    q = anchor_k.size
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
        anchor_k=anchor_k,
        anchor_r=np.full(q, float(virtual_rating)),
        anchor_n=np.full(q, float(virtual_games)),
        anchor_s=np.full(q, 0.5 * float(virtual_games)),
    )


def conditional(
    problem: Problem, r: np.ndarray, free: np.ndarray, *, joint: bool = True
) -> Problem:
    """The problem of the player-days ``free`` with every other player-day held at ``r``.

    Its log posterior is, as a function of ``r[free]``, the log posterior of ``problem`` up to
    an additive constant (Coulom 2008, section 3.3, restricted to some players): the games
    against a held player-day become anchors at that player-day's rating in ``r``; the virtual
    draws and Wiener links of the free players are kept.

    Parameters
    ----------
    problem : Problem
    r : ndarray, shape (n,)
        Ratings, natural units: the values the held player-days are fixed at (with
        ``joint=False``, also the values every free player-day's opponents are fixed at).
    free : array of int
        Player-days to keep as variables (any order, repeats ignored); whole players only: a
        player's player-days are all free or all held (a link to a held day of the same player
        would be a Gaussian term, which this model has no place for).
    joint : bool, default True
        True: games between two free player-days stay pairs (the free players are optimised
        together). False: every game of a free player-day becomes an anchor at its opponent's
        rating in ``r``, so each free player is optimised alone with all others fixed and the
        problem splits into independent players (minus its Hessian is exactly the players'
        tridiagonal blocks, which :func:`whr.core.solve` inverts in one preconditioner step).

    Returns
    -------
    Problem
        Over ``m = len(unique(free))`` player-days, in the sorted order of ``free``
        (``problem.pd_player[free]`` etc.).

    Raises
    ------
    ValueError
        If ``r`` has the wrong shape or is not finite, ``free`` is out of range, or splits a
        player's player-days.
    """
    r = _check_r(problem, r)
    if not np.isfinite(r).all():
        raise ValueError("r must be finite")
    free = np.unique(_int_array("free", free))
    n = problem.n
    if free.size and (free[0] < 0 or free[-1] >= n):
        raise ValueError(f"free must index player-days in [0, {n}), got [{free[0]}, {free[-1]}]")
    is_free = np.zeros(n, dtype=bool)
    is_free[free] = True
    same = problem.pd_player[1:] == problem.pd_player[:-1]
    split = same & (is_free[1:] != is_free[:-1])
    if split.any():
        k = int(np.argmax(split))
        raise ValueError(
            f"free must hold whole players: player {int(problem.pd_player[k])} has player-days "
            f"{k} and {k + 1} on both sides"
        )
    m = free.size
    loc = np.full(n, -1, dtype=np.int64)
    loc[free] = np.arange(m)
    inv_s2 = np.zeros(max(m - 1, 0))
    if m > 1:
        linked = free[1:] == free[:-1] + 1  # consecutive in the problem: the same player's link
        inv_s2[linked] = problem.inv_s2[free[:-1][linked]]
    fa, fb = is_free[problem.pair_a], is_free[problem.pair_b]
    both = fa & fb if joint else np.zeros_like(fa)
    only_a, only_b = fa & ~both, fb & ~both
    keep_anchor = is_free[problem.anchor_k]
    pa, pb, pn, ps = problem.pair_a, problem.pair_b, problem.pair_n, problem.pair_s
    return Problem(
        n=m,
        n_players=problem.n_players,
        pd_player=problem.pd_player[free],
        pd_day=problem.pd_day[free],
        pd_games=problem.pd_games[free],
        first=problem.first[free],
        inv_s2=inv_s2,
        pair_a=loc[pa[both]],
        pair_b=loc[pb[both]],
        pair_n=pn[both],
        pair_s=ps[both],
        anchor_k=np.concatenate(
            [loc[problem.anchor_k[keep_anchor]], loc[pa[only_a]], loc[pb[only_b]]]
        ),
        anchor_r=np.concatenate([problem.anchor_r[keep_anchor], r[pb[only_a]], r[pa[only_b]]]),
        anchor_n=np.concatenate([problem.anchor_n[keep_anchor], pn[only_a], pn[only_b]]),
        anchor_s=np.concatenate(
            [problem.anchor_s[keep_anchor], ps[only_a], pn[only_b] - ps[only_b]]
        ),
    )


def rating_on_days(
    pd_player: np.ndarray,
    pd_day: np.ndarray,
    rating: np.ndarray,
    q_player: np.ndarray,
    q_day: np.ndarray,
    *,
    sd: np.ndarray | None = None,
    w2: float = 0.0,
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Players' ratings on any days, from their ratings on their rating days (one rule).

    The posterior mean of a Wiener process given its values on the rating days (Coulom 2008,
    section 2.3): on a rating day, that day's rating; between two rating days ``a < d < b``, the
    linear interpolation (the Brownian bridge mean), with variance
    ``w2 (d - a)(b - d) / (b - a)`` plus the square of the linearly interpolated standard
    deviation; after the last rating day the rating stays and its variance grows by ``w2`` per
    day; before the first rating day there is no rating.

    Parameters
    ----------
    pd_player, pd_day : array of int, shape (n,)
        Player index and day number of each rating day, sorted by player then day, no repeats.
    rating : array of float, shape (n,)
        Rating on each rating day, in any unit (the result is in the same unit).
    q_player, q_day : array of int, shape (q,)
        The queries: a player index (``-1`` or any index without rating days: no rating) and a
        day number each.
    sd : array of float, shape (n,), optional
        Standard deviation of each rating day's rating, in the unit of ``rating``.
    w2 : float
        Wiener variance, that unit^2 per day (used with ``sd`` only).

    Returns
    -------
    rating : ndarray of float64, shape (q,)
        NaN where the player has no rating day on or before the query's day.
    sd : ndarray of float64, shape (q,), or None
        Standard deviation (NaN where no rating); None when ``sd`` was not given.
    last : ndarray of int64, shape (q,)
        Index of the player's last rating day on or before the query's day; -1 when none.

    Raises
    ------
    ValueError
        If the lengths differ or the rating days are not sorted without repeats.
    """
    pd_player = _int_array("pd_player", pd_player)
    pd_day = _int_array("pd_day", pd_day)
    q_player = _int_array("q_player", q_player)
    q_day = _int_array("q_day", q_day)
    rating = np.asarray(rating, dtype=np.float64)
    n, q = pd_player.size, q_player.size
    if pd_day.size != n or rating.shape != (n,) or (sd is not None and np.shape(sd) != (n,)):
        raise ValueError(
            f"pd_player, pd_day, rating (and sd) must have one value per rating day, got "
            f"{n}, {pd_day.size}, {rating.size}" + ("" if sd is None else f", {np.size(sd)}")
        )
    if q_day.size != q:
        raise ValueError(f"q_player and q_day must have the same length, got {q}, {q_day.size}")
    out = np.full(q, np.nan)
    out_sd = None if sd is None else np.full(q, np.nan)
    last = np.full(q, -1, dtype=np.int64)
    if n == 0 or q == 0:
        return out, out_sd, last
    # one sortable key per (player, day): player in the high bits, day offset in the low 32
    day0 = min(int(pd_day.min()), int(q_day.min()))
    if max(int(pd_day.max()), int(q_day.max())) - day0 >= 1 << 31:
        raise ValueError("days must span less than 2**31 days")
    key = pd_player << 32 | (pd_day - day0)
    if pd_player.min() < 0 or (n > 1 and not (np.diff(key) > 0).all()):
        raise ValueError("rating days must be sorted by player then day, without repeats")
    known = q_player >= 0
    q_key = np.where(known, q_player << 32 | (q_day - day0), -1)
    right = np.searchsorted(key, q_key, side="right")  # the first rating day after the query
    left = right - 1
    ok = known & (left >= 0)
    ok[ok] = pd_player[left[ok]] == q_player[ok]
    between = ok & (right < n)  # the player has a later rating day: interpolate
    between[between] = pd_player[right[between]] == q_player[between]
    frozen = ok & ~between  # on or after the player's last rating day
    last[ok] = left[ok]
    out[ok] = rating[left[ok]]
    j = left[between]
    a = pd_day[j].astype(np.float64)
    b = pd_day[j + 1].astype(np.float64)
    d = q_day[between].astype(np.float64)
    frac = (d - a) / (b - a)  # 0 on a rating day: that day's value exactly
    out[between] = (1.0 - frac) * rating[j] + frac * rating[j + 1]
    if sd is not None and out_sd is not None:
        sd = np.asarray(sd, dtype=np.float64)
        k = left[frozen]
        out_sd[frozen] = np.sqrt(sd[k] ** 2 + w2 * (q_day[frozen] - pd_day[k]))
        s = (1.0 - frac) * sd[j] + frac * sd[j + 1]
        out_sd[between] = np.sqrt(w2 * (d - a) * (b - d) / (b - a) + s**2)
    return out, out_sd, last


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
    out: np.ndarray = np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))
    return out


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
    # S log sigma(d) + (n - S) log sigma(-d) = -n softplus(-d) - (n - S) d
    games = -dot(problem.pair_n, _softplus(-d)) - dot(problem.pair_n - problem.pair_s, d)
    u = r[problem.anchor_k] - problem.anchor_r
    anchors = -dot(problem.anchor_n, _softplus(-u)) - dot(problem.anchor_n - problem.anchor_s, u)
    diff = np.diff(r)
    prior = -0.5 * dot(problem.inv_s2, diff * diff) if r.size > 1 else 0.0
    return games + anchors + prior


def gradient_and_neg_hessian_parts(
    problem: Problem, r: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gradient of the log posterior and minus its Hessian at ``r``, in parts.

    ``-H = diag(diagonal) - W - E`` where ``W`` holds ``weights[k]`` at ``(pair_a[k], pair_b[k])``
    and its transpose, and ``E`` holds ``inv_s2[k]`` at ``(k, k + 1)`` and its transpose.

    Parameters
    ----------
    problem : Problem
    r : ndarray, shape (n,)
        Rating of each player-day, natural units.

    Returns
    -------
    gradient : ndarray, shape (n,)
        Per natural unit.
    diagonal : ndarray, shape (n,)
        Natural units^-2.
    weights : ndarray, shape (p,)
        ``n p (1 - p)`` of each pair (Fisher information of the pair's games).
    """
    r = _check_r(problem, r)
    n = problem.n
    p = _sigmoid(r[problem.pair_a] - r[problem.pair_b])
    ga = problem.pair_s - problem.pair_n * p
    w = problem.pair_n * p * (1.0 - p)
    q = _sigmoid(r[problem.anchor_k] - problem.anchor_r)
    g = (
        np.bincount(problem.pair_a, weights=ga, minlength=n)
        - np.bincount(problem.pair_b, weights=ga, minlength=n)
        + np.bincount(
            problem.anchor_k, weights=problem.anchor_s - problem.anchor_n * q, minlength=n
        )
    )
    diag = (
        np.bincount(problem.pair_a, weights=w, minlength=n)
        + np.bincount(problem.pair_b, weights=w, minlength=n)
        + np.bincount(problem.anchor_k, weights=problem.anchor_n * q * (1.0 - q), minlength=n)
    )
    if n > 1:
        t = problem.inv_s2 * np.diff(r)
        g[:-1] += t
        g[1:] -= t
        diag[:-1] += problem.inv_s2
        diag[1:] += problem.inv_s2
    return g, diag, w


def gradient(problem: Problem, r: np.ndarray) -> np.ndarray:
    """Gradient of the log posterior at ``r`` (natural units in, per natural unit out).

    Returns
    -------
    ndarray, shape (n,)
    """
    return gradient_and_neg_hessian_parts(problem, r)[0]


def neg_hessian_parts(problem: Problem, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Minus the Hessian of the log posterior at ``r``: ``(diagonal, weights)``.

    See :func:`gradient_and_neg_hessian_parts`.
    """
    _, diag, w = gradient_and_neg_hessian_parts(problem, r)
    return diag, w


def neg_hessian(problem: Problem, r: np.ndarray) -> sp.csr_matrix:
    """Minus the Hessian of the log posterior at ``r`` as a sparse matrix (natural units^-2)."""
    diag, w = neg_hessian_parts(problem, r)
    n = problem.n
    k = np.arange(max(n - 1, 0))
    rows = np.concatenate([problem.pair_a, problem.pair_b, k, k + 1, np.arange(n)])
    cols = np.concatenate([problem.pair_b, problem.pair_a, k + 1, k, np.arange(n)])
    vals = np.concatenate([-w, -w, -problem.inv_s2, -problem.inv_s2, diag])
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))
