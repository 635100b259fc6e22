"""Seeded synthetic game histories drawn from the WHR model itself.

Used by the benchmarks, by the tests of the engine (against the reference implementation), by the
sources helper (a RenjuNet-format sample database) and by the Elo-era evaluation (the true
strengths are known).

How a history is made (all vectorised; no Python loop per game or per tournament):

1. Players, each in one of ~40 national communities of very different sizes (Zipf-like), join
   between ``first_year`` and ``end`` (more players in later years) and play for an exponentially
   distributed career; each has a heterogeneous activity (number of tournaments played).
2. Each participation falls on a day of the player's career and is either national (most) or
   international. Tournaments are anchored on a random subset of participation days of each
   community (one community per country, plus the international one); each participation joins
   the nearest tournament of its community in time. So national communities play mostly among
   themselves and are linked through international events.
3. Each tournament of ``k`` players is played in rounds by the circle method: a full round robin
   when ``k <= 10``, else 5-11 rounds of it (Swiss-like, no pair meets twice); the odd player out
   has a bye. Every game is dated by the tournament's last day.
4. True strengths follow the model's own Wiener process, ``w2`` Elo^2 per day between a player's
   playing days, from a starting strength drawn around the player's national mean.
5. Results follow Bradley-Terry on the Elo scale, ``p = 1 / (1 + 10**((r_white - r_black)/400))``,
   with draws: P(draw) = ``c * 4 p (1 - p)`` and P(black wins) = ``p - P(draw) / 2``, so that
   Black's expected score is exactly ``p`` (a draw is half a win and half a loss); ``c`` is set
   so the draw rate is about ``draw_rate``.

The history is then cut to exactly ``n_games`` games by dropping whole tournaments at random
(and trimming the last rounds of one).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr.tables import dates_of

__all__ = ["COUNTRIES", "History", "history"]

#: Country codes of the synthetic communities, largest first.
COUNTRIES = (
    "RUS", "CHN", "EST", "JPN", "CZE", "SWE", "TPE", "LAT", "UKR", "BLR",
    "HUN", "KAZ", "KOR", "FIN", "POL", "ITA", "FRA", "GER", "ARM", "TUR",
    "USA", "SVK", "LTU", "UZB", "AZE", "ROU", "NOR", "DEN", "NED", "BEL",
    "AUT", "SUI", "GBR", "ESP", "MGL", "VIE", "IND", "ISR", "CAN", "AUS",
)  # fmt: skip

_EPOCH = date(1970, 1, 1)
_NATIONAL_SIZE = 10.0  # mean participants of a national tournament
_INTERNATIONAL_SIZE = 28.0  # mean participants of an international tournament
_INTERNATIONAL_SHARE = 0.12  # share of participations that are international
_GAMES_PER_PLAYER = 15.0  # n_games / players


@dataclass(frozen=True)
class History:
    """A synthetic history of rated games with the true strengths that produced it.

    Attributes
    ----------
    players : pandas.DataFrame
        ``player_id`` (str), ``country`` (str code), ``first_day``, ``last_day`` (date): one row
        per player with at least one game.
    tournaments : pandas.DataFrame
        ``tournament_id`` (str), ``country`` (str code, the host), ``start``, ``end`` (date),
        ``international`` (bool).
    games : pandas.DataFrame
        ``game_id``, ``tournament_id``, ``round``, ``black``, ``white`` (str), ``result``
        (float, Black's score 1/0.5/0), ``date`` (date, the tournament's last day). Sorted by
        date, tournament, round.
    truth : pandas.DataFrame
        ``player`` (str), ``date`` (date), ``rating`` (float, published Elo scale, 1900 = the
        virtual opponent): the true strength on every day the player played.
    seed : int
    w2 : float
        The Wiener variance used for the true strengths, Elo^2 per day.
    """

    players: pd.DataFrame
    tournaments: pd.DataFrame
    games: pd.DataFrame
    truth: pd.DataFrame
    seed: int
    w2: float


def _days(d: date) -> int:
    return (d - _EPOCH).days


def _ids(numbers: np.ndarray, width: int) -> pd.Series:
    """Integers -> zero-padded id strings (str dtype)."""
    arr = pc.utf8_lpad(pa.array(numbers, type=pa.int64()).cast(pa.string()), width, "0")
    return pd.Series(arr.to_pandas(), dtype="str")


def _take(ids: pd.Series, index: np.ndarray) -> pd.Series:
    """``ids[index]`` as a str Series, gathered in Arrow (no Python object per row)."""
    arr = pa.array(ids.to_numpy(dtype=object), type=pa.string()).take(pa.array(index))
    return pd.Series(arr.to_pandas(), dtype="str")


def _group_starts(sorted_groups: np.ndarray) -> np.ndarray:
    """For a sorted group array, the position of the first element of each element's group."""
    n = sorted_groups.size
    new = np.ones(n, dtype=bool)
    new[1:] = sorted_groups[1:] != sorted_groups[:-1]
    first = np.flatnonzero(new)
    return np.repeat(first, np.diff(np.append(first, n)))


def _nearest_anchor(group: np.ndarray, day: np.ndarray, anchor_key: np.ndarray) -> np.ndarray:
    """Index into sorted ``anchor_key`` (group * 2**32 + day) of the nearest anchor in ``group``."""
    key = group.astype(np.int64) * (1 << 32) + day
    right = np.searchsorted(anchor_key, key).clip(max=anchor_key.size - 1)
    left = (right - 1).clip(min=0)
    groups_of = anchor_key >> 32
    ok_left = groups_of[left] == group
    ok_right = groups_of[right] == group
    d_left = np.where(ok_left, np.abs(key - anchor_key[left]), np.iinfo(np.int64).max)
    d_right = np.where(ok_right, np.abs(anchor_key[right] - key), np.iinfo(np.int64).max)
    return np.where(d_left <= d_right, left, right)


def _generate(n_target: int, n_players: int, rng: np.random.Generator, lo: int, hi: int) -> dict:
    """One draw of players, tournaments and pairings (no results yet)."""
    n_countries = len(COUNTRIES)
    weights = 1.0 / np.arange(1, n_countries + 1) ** 1.15
    weights /= weights.sum()
    country = rng.choice(n_countries, size=n_players, p=weights)
    # careers: joining density grows linearly with time; exponential careers, mean 5 years
    start = lo + ((hi - lo) * np.sqrt(rng.random(n_players))).astype(np.int64)
    career = rng.exponential(5 * 365.25, n_players).astype(np.int64)
    stop = np.minimum(start + career, hi)
    # activity: number of tournaments played, heavy-tailed
    mean_rounds = 7.0
    mean_part = 2.0 * n_target / (n_players * mean_rounds)
    activity = rng.lognormal(0.0, 1.0, n_players) / np.exp(0.5)
    n_part = 1 + rng.poisson(np.maximum(mean_part - 1, 0.05) * activity)
    player = np.repeat(np.arange(n_players), n_part)
    day = start[player] + (rng.random(player.size) * (stop - start + 1)[player]).astype(np.int64)
    international = rng.random(player.size) < _INTERNATIONAL_SHARE
    group = np.where(international, n_countries, country[player])
    # tournament anchors: a random subset of the participation days of each community
    size = np.where(international, _INTERNATIONAL_SIZE, _NATIONAL_SIZE)
    is_anchor = rng.random(player.size) < 1.0 / size
    is_anchor[np.unique(group, return_index=True)[1]] = True  # every community has one
    anchor_key = np.unique(group[is_anchor].astype(np.int64) * (1 << 32) + day[is_anchor])
    tour = _nearest_anchor(group, day, anchor_key)
    t_day = anchor_key & 0xFFFFFFFF
    t_group = anchor_key >> 32
    # participants: unique (tournament, player), seated in random order
    pair_key = np.unique(tour.astype(np.int64) * n_players + player)
    p_tour = pair_key // n_players
    p_player = pair_key % n_players
    k = np.bincount(p_tour, minlength=anchor_key.size)
    order = np.lexsort((rng.random(p_tour.size), p_tour))
    p_tour, p_player = p_tour[order], p_player[order]
    seat_first = np.concatenate(([0], np.cumsum(k)[:-1]))
    # rounds by the circle method on m = k rounded up to even seats (seat k = bye when k is odd)
    m = k + (k % 2)
    full = k <= 10
    rounds = np.where(full, m - 1, rng.integers(5, 12, size=k.size)).clip(min=0)
    rounds = np.where(k >= 2, rounds, 0)
    per_round = m // 2
    n_pairs = rounds * per_round
    t_of = np.repeat(np.arange(k.size), n_pairs)
    q = np.arange(t_of.size) - np.repeat(np.cumsum(n_pairs) - n_pairs, n_pairs)
    half = per_round[t_of]
    rnd = q // half
    j = q % half
    mod = (m - 1)[t_of]
    a = np.where(j == 0, mod, (rnd + j) % mod)
    b = np.where(j == 0, rnd % mod, (rnd - j) % mod)
    real = (a < k[t_of]) & (b < k[t_of])
    t_of, rnd, a, b = t_of[real], rnd[real], a[real], b[real]
    pa_ = p_player[seat_first[t_of] + a]
    pb_ = p_player[seat_first[t_of] + b]
    swap = rng.random(t_of.size) < 0.5
    black = np.where(swap, pb_, pa_)
    white = np.where(swap, pa_, pb_)
    return {
        "country": country,
        "t_day": t_day,
        "t_group": t_group,
        "rounds": rounds,
        "game_tour": t_of,
        "game_round": rnd,
        "black": black,
        "white": white,
    }


def history(
    n_games: int,
    seed: int = 0,
    *,
    end: date = date(2026, 11, 30),
    first_year: int = 1989,
    draw_rate: float = 0.12,
    w2: float = 12.9,
) -> History:
    """Generate a synthetic history of ``n_games`` rated games, deterministic for ``seed``.

    Parameters
    ----------
    n_games : int
        Number of games, exactly (>= 1). Players come out at about ``n_games / 15``.
    seed : int
        Seed of the random generator; the same seed gives the same history.
    end : datetime.date
        No game is later than this day.
    first_year : int
        No game is earlier than January 1 of this year.
    draw_rate : float
        Approximate share of drawn games, in [0, 0.5].
    w2 : float
        Variance of the true strengths' random walk, Elo^2 per day (Coulom 2008, eq. 1).

    Returns
    -------
    History
    """
    if not isinstance(n_games, (int, np.integer)) or isinstance(n_games, bool) or n_games < 1:
        raise ValueError(f"n_games must be a positive integer, got {n_games!r}")
    if not 0.0 <= draw_rate <= 0.5:
        raise ValueError(f"draw_rate must be in [0, 0.5], got {draw_rate!r}")
    if not w2 >= 0.0:
        raise ValueError(f"w2 must be >= 0 (Elo^2 per day), got {w2!r}")
    lo, hi = _days(date(first_year, 1, 1)), _days(end)
    if hi - lo < 30:
        raise ValueError(f"end ({end}) must be at least 30 days after January 1, {first_year}")
    n_games = int(n_games)
    rng = np.random.default_rng(seed)
    n_players = max(4, round(n_games / _GAMES_PER_PLAYER))
    target = int(n_games * 1.1) + 20
    for _ in range(20):
        g = _generate(target, n_players, rng, lo, hi)
        if g["black"].size >= n_games:
            break
        target = int(target * 1.3) + 20
    else:  # pragma: no cover - the generator always overshoots within a few tries
        raise RuntimeError("synthetic generator could not reach n_games")

    # keep whole tournaments, in random order, up to n_games; trim the last one's late rounds
    n_t = g["t_day"].size
    per_t = np.bincount(g["game_tour"], minlength=n_t)
    t_order = rng.permutation(n_t)
    cum = np.cumsum(per_t[t_order])
    rank = np.empty(n_t, dtype=np.int64)
    rank[t_order] = np.arange(n_t)
    g_rank = rank[g["game_tour"]]
    cut = int(np.searchsorted(cum, n_games))  # the tournament (by rank) that crosses n_games
    keep = g_rank < cut
    partial = np.flatnonzero(g_rank == cut)
    need = n_games - int(keep.sum())
    keep[partial[:need]] = True  # games are in round order within a tournament
    tour = g["game_tour"][keep]
    rnd = g["game_round"][keep]
    black = g["black"][keep]
    white = g["white"][keep]

    # canonical order: by day, tournament, round
    t_day = g["t_day"]
    order = np.lexsort((rnd, tour, t_day[tour]))
    tour, rnd, black, white = tour[order], rnd[order], black[order], white[order]
    gday = t_day[tour]

    # renumber players and tournaments that kept games
    used_p, inv_p = np.unique(np.concatenate([black, white]), return_inverse=True)
    black, white = inv_p[: black.size], inv_p[black.size :]
    used_t, tour = np.unique(tour, return_inverse=True)
    n_p = used_p.size

    # true strengths on every playing day: national mean + spread, then the Wiener walk
    pd_key, pd_of = np.unique(
        np.concatenate([black, white]).astype(np.int64) << 32 | np.tile(gday, 2),
        return_inverse=True,
    )
    pd_player = pd_key >> 32
    pd_day = pd_key & 0xFFFFFFFF
    nat_mean = rng.normal(0.0, 120.0, len(COUNTRIES))
    country = g["country"][used_p]
    r0 = nat_mean[country] + rng.normal(0.0, 220.0, n_p)
    first_pos = _group_starts(pd_player)
    dt = np.where(np.arange(pd_key.size) == first_pos, 0, np.diff(pd_day, prepend=pd_day[0]))
    step = rng.normal(0.0, 1.0, pd_key.size) * np.sqrt(w2 * dt)
    walk = np.cumsum(step)
    walk -= walk[first_pos]
    truth_r = r0[pd_player] + walk

    # results
    idx_b, idx_w = pd_of[:n_games], pd_of[n_games:]
    p = 1.0 / (1.0 + 10.0 ** ((truth_r[idx_w] - truth_r[idx_b]) / 400.0))
    spread = 4.0 * p * (1.0 - p)
    c = min(0.5, draw_rate / max(float(spread.mean()), 1e-12))
    q_draw = c * spread
    u = rng.random(p.size)
    result = np.where(u < q_draw, 0.5, np.where(u < q_draw + (p - q_draw / 2), 1.0, 0.0))

    # tables
    id_width = max(6, len(str(n_p)))
    pid = _ids(np.arange(1, n_p + 1), id_width)
    first_day = np.full(n_p, np.iinfo(np.int64).max)
    last_day = np.zeros(n_p, dtype=np.int64)
    np.minimum.at(first_day, pd_player, pd_day)
    np.maximum.at(last_day, pd_player, pd_day)
    players = pd.DataFrame(
        {
            "player_id": pid,
            "country": pd.Series(np.array(COUNTRIES)[country], dtype="str"),
            "first_day": dates_of(first_day),
            "last_day": dates_of(last_day),
        }
    )
    n_t = used_t.size
    rounds = g["rounds"][used_t]
    t_end = t_day[used_t]
    t_group = g["t_group"][used_t]
    intl = t_group == len(COUNTRIES)
    host = np.where(intl, rng.choice(len(COUNTRIES), size=n_t), t_group)
    duration = np.ceil(rounds / 3).astype(np.int64).clip(min=1)
    t_start = np.maximum(t_end - duration + 1, lo)
    tournaments = pd.DataFrame(
        {
            "tournament_id": _ids(np.arange(1, n_t + 1), 5),
            "country": pd.Series(np.array(COUNTRIES)[host], dtype="str"),
            "start": dates_of(t_start),
            "end": dates_of(t_end),
            "international": intl,
        }
    )
    games = pd.DataFrame(
        {
            "game_id": _ids(np.arange(1, n_games + 1), 1),
            "tournament_id": _take(tournaments["tournament_id"], tour),
            "round": pd.Series(pa.array(rnd + 1).cast(pa.string()).to_pandas(), dtype="str"),
            "black": _take(pid, black),
            "white": _take(pid, white),
            "result": result,
            "date": dates_of(gday),
        }
    )
    truth = pd.DataFrame(
        {
            "player": _take(pid, pd_player),
            "date": dates_of(pd_day),
            "rating": truth_r + 1900.0,
        }
    )
    return History(
        players=players, tournaments=tournaments, games=games, truth=truth, seed=seed, w2=w2
    )
