"""The formulas of the Elo-era RIF rules (1996-2021), one function each, numpy-friendly.

Sources: the RIF qualification system 1996 (sections 6-8 and the appendix table); the decisions
of the RIF General Assemblies 1995, 1996 and 1997 (in the appendix of the RIF rating rules 2021);
the Japanese explanation of the Elo-era ratings, on how provisional ratings were really computed
(the cumulative form).

All ratings are on the Elo-era scale (published ratings, e.g. 2000-2700), in Elo points. The
expectancy uses base 2 over 120 points, which is the familiar base-10-over-400 curve up to
0.3 % (``120 / log10(2) = 398.6``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = [
    "ESTABLISHED_GAMES",
    "ESTABLISHED_POINTS",
    "K_FACTOR",
    "PROVISIONAL_CAP",
    "SCALE",
    "contribution",
    "expected_score",
    "game_change",
    "provisional_rating",
    "round_half_away",
    "start_interval",
    "start_rating",
]

K_FACTOR = 32.0  #: rating points per point scored above expectation (RIF qualification system 1996, section 6)
SCALE = 120.0  #: Elo points per doubling of the odds (RIF qualification system 1996, section 7)
PROVISIONAL_CAP = 300.0  #: a provisional rating is at most the opponents' average + 300 (GA 1997)
ESTABLISHED_GAMES = 10  #: games against established players needed to be established (GA 1997)
ESTABLISHED_POINTS = 3.0  #: points in those games needed to be established (GA 1997)

ArrayLike = npt.ArrayLike


def _out(value: np.ndarray) -> np.ndarray | float:
    """A 0-d result as a Python float, anything else unchanged."""
    return float(value) if np.ndim(value) == 0 else value


def _scores(score: ArrayLike, name: str = "score") -> np.ndarray:
    s = np.asarray(score, dtype=np.float64)
    if np.any(~((s >= 0.0) & (s <= 1.0))):
        raise ValueError(f"{name} must be in [0, 1] (1 win, 0.5 draw, 0 loss), got {score!r}")
    return s


def round_half_away(value: ArrayLike) -> np.ndarray | float:
    """Round to the nearest integer, halves away from zero (the rules' "rounded").

    Parameters
    ----------
    value : float or array of float
        Rating points.

    Returns
    -------
    float or numpy.ndarray
        Whole rating points (as floats).
    """
    v = np.asarray(value, dtype=np.float64)
    return _out(np.sign(v) * np.floor(np.abs(v) + 0.5))


def expected_score(rating: ArrayLike, opponent_rating: ArrayLike) -> np.ndarray | float:
    """Expected score of a player against an opponent: ``1 / (1 + 2**((opp - own) / 120))``.

    RIF qualification system 1996, section 7 (``Ee`` for one game) and RIF General Assembly
    1997, rule 8 (``We``).

    Parameters
    ----------
    rating, opponent_rating : float or array of float
        Ratings in Elo points; broadcast against each other.

    Returns
    -------
    float or numpy.ndarray
        Expected score in [0, 1] (1 = certain win).
    """
    r = np.asarray(rating, dtype=np.float64)
    o = np.asarray(opponent_rating, dtype=np.float64)
    return _out(1.0 / (1.0 + np.exp2((o - r) / SCALE)))


def game_change(
    rating: ArrayLike, opponent_rating: ArrayLike, score: ArrayLike
) -> np.ndarray | float:
    """Rating change of one game, unrounded: ``32 * (score - expected_score)``.

    GA 1997 rule 8 (``Rc = 32 (W - We)``); the appendix table of the 1996 rules is this value rounded.

    Parameters
    ----------
    rating, opponent_rating : float or array of float
        Ratings before the tournament, Elo points.
    score : float or array of float
        The player's score: 1 win, 0.5 draw, 0 loss.

    Returns
    -------
    float or numpy.ndarray
        Change in Elo points (not rounded; the rules round the tournament's sum).

    Raises
    ------
    ValueError
        If a score is outside [0, 1].
    """
    s = _scores(score)
    return _out(K_FACTOR * (s - np.asarray(expected_score(rating, opponent_rating))))


def contribution(
    rating: ArrayLike, opponent_mean: ArrayLike, games: ArrayLike, points: ArrayLike
) -> np.ndarray | float:
    """A player's contribution from one tournament under the 1996 rules (sections 6-7).

    ``F = round(32 * (Et - Ee))`` with ``Ee = N / (1 + 2**(dK / 120))`` and ``dK`` the
    games-weighted average start rating of the opponents minus the player's own start rating.

    Parameters
    ----------
    rating : float or array of float
        The player's start rating ``K``, Elo points.
    opponent_mean : float or array of float
        Games-weighted average of the opponents' start ratings, Elo points.
    games : int or array of int
        Games counted, ``N`` (0 gives 0).
    points : float or array of float
        Points scored in them, ``Et``.

    Returns
    -------
    float or numpy.ndarray
        Whole Elo points.
    """
    n = np.asarray(games, dtype=np.float64)
    et = np.asarray(points, dtype=np.float64)
    ee = n * np.asarray(expected_score(rating, opponent_mean))
    return round_half_away(K_FACTOR * (et - ee))


def start_interval(opponent_mean: ArrayLike) -> tuple[np.ndarray | float, np.ndarray | float]:
    """The interval a new player's start rating is kept in (RIF qualification system 1996, section 8b).

    ``[2000, 2400]`` when the opponents' average ``Ka >= 2200``, else ``[Ka - 200, Ka + 200]``.

    Parameters
    ----------
    opponent_mean : float or array of float
        ``Ka``, Elo points.

    Returns
    -------
    (lower, upper) : floats or arrays of float
        Elo points, inclusive.
    """
    ka = np.asarray(opponent_mean, dtype=np.float64)
    high = ka >= 2200.0
    return _out(np.where(high, 2000.0, ka - 200.0)), _out(np.where(high, 2400.0, ka + 200.0))


def start_rating(
    opponent_mean: ArrayLike, games: ArrayLike, points: ArrayLike
) -> np.ndarray | float:
    """A new player's start rating from performance (1996 rules, section 8d), inside the 8b interval.

    ``Ee = Et``, ``dK = 120 * log2(N / Et - 1)``, ``K0 = Ka - dK``, then clipped to
    :func:`start_interval`. A score of 0 gives the lower edge and a full score the upper edge
    (``dK`` is infinite); rule 8c (no start rating at all after a score of 0 from 1996 on) is
    the caller's decision.

    Parameters
    ----------
    opponent_mean : float or array of float
        ``Ka``, games-weighted average start rating of the opponents, Elo points.
    games : int or array of int
        ``N`` >= 1.
    points : float or array of float
        ``Et`` in [0, N].

    Returns
    -------
    float or numpy.ndarray
        ``K0`` in Elo points (not rounded; the rules give no rounding for it).

    Raises
    ------
    ValueError
        If ``games`` < 1 or ``points`` is outside [0, games].
    """
    ka = np.asarray(opponent_mean, dtype=np.float64)
    n = np.asarray(games, dtype=np.float64)
    et = np.asarray(points, dtype=np.float64)
    if np.any(~(n >= 1)):
        raise ValueError(f"games must be >= 1, got {games!r}")
    if np.any(~((et >= 0) & (et <= n))):
        raise ValueError(f"points must be in [0, games], got {points!r} for games {games!r}")
    lower, upper = start_interval(ka)
    with np.errstate(divide="ignore", invalid="ignore"):
        dk = SCALE * np.log2(n / et - 1.0)  # +inf at Et = 0, -inf at Et = N
    k0 = np.where(et == 0, -np.inf, np.where(et == n, np.inf, ka - dk))
    return _out(np.clip(k0, lower, upper))


def provisional_rating(
    rating: ArrayLike,
    games: ArrayLike,
    opponent_sum: ArrayLike,
    wins: ArrayLike,
    losses: ArrayLike,
    new_games: ArrayLike,
    cap_mean: ArrayLike,
) -> np.ndarray | float:
    """A provisional rating after a tournament, in the cumulative form of the Japanese explanation.

    ``R = floor((Rp * Np + sum(Ro) + 400 * (W - L)) / (Np + N))``, at most ``cap_mean + 300``
    (GA 1997 rule 7: ``Rp = Ra + 400 (W - L) / N`` "at most Ra + 300"). Only games against
    established opponents count; ``Ro`` are their ratings before the tournament. The worked
    example of the Japanese explanation of the Elo-era ratings: 2000 after 2 games, then a win
    and a draw against 2200 and 2100, gives 2175.

    Parameters
    ----------
    rating : float or array of float
        ``Rp``, the provisional rating before the tournament (ignored when ``games`` is 0).
    games : int or array of int
        ``Np``, games against established players before the tournament.
    opponent_sum : float or array of float
        Sum of the established opponents' ratings in this tournament, one per game, Elo points.
    wins, losses : int or array of int
        ``W`` and ``L`` against them in this tournament (draws count in neither).
    new_games : int or array of int
        ``N``, games against them in this tournament (>= 1).
    cap_mean : float or array of float
        ``Ra`` for the cap: the average rating of all established opponents met so far, this
        tournament included, Elo points.

    Returns
    -------
    float or numpy.ndarray
        Whole Elo points (truncated, as the Japanese explanation of the Elo-era ratings says).
    """
    np_ = np.asarray(games, dtype=np.float64)
    n = np.asarray(new_games, dtype=np.float64)
    if np.any(~(n >= 1)):
        raise ValueError(f"new_games must be >= 1, got {new_games!r}")
    prior = np.where(np_ > 0, np.asarray(rating, dtype=np.float64) * np_, 0.0)
    w_minus_l = np.asarray(wins, dtype=np.float64) - np.asarray(losses, dtype=np.float64)
    raw = (prior + np.asarray(opponent_sum, dtype=np.float64) + 400.0 * w_minus_l) / (np_ + n)
    capped = np.minimum(raw, np.asarray(cap_mean, dtype=np.float64) + PROVISIONAL_CAP)
    return _out(np.floor(capped))
