"""Which rating system predicts results it has not seen? Scores on one games table.

Two protocols, both over the same games table (``whr.tables.GAMES``):

- **Forward chaining** (the honest one): tournaments in order of their first day; every game of a
  tournament is predicted from ratings computed only on games dated strictly before that first
  day. WHR is refitted at a stride to keep this affordable: checkpoints every ``refit_days``
  days from the first game day; a tournament starting in ``[c_i, c_i+1)`` is predicted by
  ``whr.fit`` on the games dated before ``c_i`` (warm-started from the previous checkpoint's
  fit) and read on the day ``c_i - 1`` with ``Fit.rating_on``'s rule (:func:`whr_ratings_at`).
  The Elo-era rules are replayed once; a tournament is predicted from the state after every
  tournament that ended before its first day.
- **The RIF's quick protocol** (``wind23/whr_renju:evaluate.py``): games sorted by date, every
  10th one (positions 9, 19, ...) held out, the system fitted on the other nine in ten; a held-out
  game is predicted from WHR's ratings on its day (interpolated as ``Fit.rating_on`` does) or
  from the Elo-era state before its day.

Scores per game, averaged (``s`` is Black's score, ``p`` the predicted probability that Black
wins under the system's own model): log-likelihood ``s log p + (1 - s) log(1 - p)`` in nats,
so a draw scores ``(log p + log(1 - p)) / 2``, exactly WHR's draw likelihood
``sqrt(p (1 - p))`` (Coulom 2008, section 2.2); Brier ``(p - s)^2`` with a draw as outcome
0.5. Higher log-likelihood and lower Brier are better; always guessing 0.5 scores
``log 0.5 = -0.693`` and 0.25 (0.0 for a draw).

Unseen players, the same rule for every system: a player the system has no rating for gets the
system's default rating, its own newcomer level (WHR: ``virtual_rating``, the prior mean; the
Elo-era rules: ``seed_rating``). The report also gives the scores on the games where both
players had played a game before the tournament (the same subset for every system).

Systems: WHR at several ``w2``; the Elo-era rules (1997, 1996, and the two in sequence,
``"era"``); two constant baselines (always 0.5; Black's mean score over the earlier games); with
a synthetic history, the true strengths (the best any system could do).

Command line::

    python -m whr.research.evaluate [compare|tune] --source S --as-of D --out REPORT_DIR
    python -m whr.research.evaluate compare --synthetic 120000 --out REPORT_DIR

``tune`` grids ``w2`` and the number of virtual draws by held-out likelihood (the quick
protocol, one fit per point; ``--protocol forward`` for forward chaining, a refit every
``--refit-days`` per point) and writes ``REPORT_DIR/report.md`` with a table and
``REPORT_DIR/w2.svg``.

Every grid point (:func:`tune_point`) and every system under every protocol
(:func:`score_system`) is independent of the others: this command line runs them one after
another; ``python -m flows.evaluate`` (same options, and ``--dask ADDRESS``) runs them as Prefect
tasks, on a Dask cluster if asked, with the same results to the last digit. This module never
imports Prefect.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from whr import elo
from whr.elo.replay import SEED_RATING, usable
from whr.engine import Fit, ratings_at
from whr.params import FitParams
from whr.tables import dates_of, days_of

__all__ = [
    "DEFAULT_W2",
    "PROTOCOLS",
    "TUNE_VIRTUAL_GAMES",
    "TUNE_W2",
    "GridPoint",
    "Scores",
    "System",
    "baseline_black",
    "baseline_half",
    "compare",
    "compare_report",
    "compare_systems",
    "elo_system",
    "forward_chaining",
    "held_out",
    "load_games",
    "main",
    "parse_args",
    "parser",
    "protocols_of",
    "quick_protocol",
    "quick_split",
    "score",
    "score_system",
    "svg_plot",
    "truth_system",
    "TuneData",
    "tune",
    "tune_data",
    "tune_grid",
    "tune_point",
    "tune_report",
    "tune_table",
    "whr_ratings_at",
    "whr_system",
]

DEFAULT_W2 = (6.0, 12.9, 19.3, 30.0)  #: Elo^2 per day: 12.9 (RIF 2021) and 19.3 (RIF code today)
_P_MIN = 1e-12  # probabilities are kept in [1e-12, 1 - 1e-12] so a log-likelihood is finite

#: predict(train, queries) -> probability that Black wins, one per query row. ``train`` holds the
#: games the system may use; ``queries`` has ``black``, ``white``, ``date`` (the day the
#: prediction is for; forward chaining passes the tournament's first day).
Predict = Callable[[pd.DataFrame, pd.DataFrame], np.ndarray]


@dataclass(frozen=True)
class System:
    """A rating system as the evaluation sees it.

    Attributes
    ----------
    name : str
        Label in the report, e.g. ``"whr w2=12.9"``.
    predict : callable
        ``predict(train, queries) -> p``; see ``Predict``. Used by the quick protocol.
    forward : callable, optional
        ``forward(games, first_day) -> p`` for forward chaining of all games at once, when the
        system can do better than one ``predict`` per tournament; ``first_day`` is each game's
        tournament's first day (``datetime64[D]``). None: ``predict`` per tournament.
    params : dict
        Parameters, for the report.
    """

    name: str
    predict: Predict
    forward: Callable[[pd.DataFrame, np.ndarray], np.ndarray] | None = None
    params: dict = field(default_factory=dict)


# --------------------------------------------------------------------------- scores


@dataclass(frozen=True)
class Scores:
    """Mean scores of one system on a set of games.

    Attributes
    ----------
    games : int
    log_likelihood : float
        Mean per game, nats (higher is better).
    brier : float
        Mean squared error of ``p`` against Black's score (lower is better).
    """

    games: int
    log_likelihood: float
    brier: float


def score(p: np.ndarray, result: np.ndarray) -> Scores:
    """Mean log-likelihood and Brier score of predictions (module docstring).

    Parameters
    ----------
    p : array of float
        Predicted probability that Black wins, in [0, 1] (clipped to [1e-12, 1 - 1e-12]).
    result : array of float
        Black's score: 1, 0.5 or 0.

    Returns
    -------
    Scores
    """
    p = np.clip(np.asarray(p, dtype=np.float64), _P_MIN, 1.0 - _P_MIN)
    s = np.asarray(result, dtype=np.float64)
    if p.shape != s.shape:
        raise ValueError(f"p and result must have the same shape, got {p.shape} and {s.shape}")
    if np.any(np.isnan(p)):
        raise ValueError("p has NaN predictions")
    if s.size == 0:
        return Scores(0, math.nan, math.nan)
    ll = s * np.log(p) + (1.0 - s) * np.log1p(-p)
    return Scores(int(s.size), float(ll.mean()), float(((p - s) ** 2).mean()))


# --------------------------------------------------------------------------- inputs


def clean(games: pd.DataFrame) -> pd.DataFrame:
    """The games a rating system can use: both players, a result and a date, two players.

    Parameters
    ----------
    games : pandas.DataFrame
        The shared games table (``black``, ``white``, ``result``, ``date``; ``tournament_id``
        optional: a game without one is its own tournament).

    Returns
    -------
    pandas.DataFrame
        A new frame, sorted by date (stable), with a fresh ``RangeIndex`` and a
        ``tournament_id`` on every row.
    """
    g = games.loc[usable(games)].copy()
    if "tournament_id" not in g.columns:
        g["tournament_id"] = None
    lone = g["tournament_id"].isna().to_numpy()
    if lone.any():
        tid = g["tournament_id"].astype(object).to_numpy(copy=True)
        tid[lone] = [f"game:{i}" for i in np.flatnonzero(lone)]
        g["tournament_id"] = tid
    g["date"] = [d.date() if isinstance(d, pd.Timestamp) else d for d in g["date"]]
    order = np.argsort(days_of(g["date"]), kind="stable")
    return g.iloc[order].reset_index(drop=True)


def _first_days(games: pd.DataFrame) -> np.ndarray:
    """Each game's tournament's first day (``datetime64[D]``)."""
    days = pd.Series(days_of(games["date"]), index=games.index)
    first = days.groupby(games["tournament_id"].astype(object).to_numpy()).transform("min")
    return first.to_numpy().astype("datetime64[D]")


# --------------------------------------------------------------------------- systems


def _p_whr(black: np.ndarray, white: np.ndarray) -> np.ndarray:
    """WHR's probability that Black wins (Bradley-Terry, base 10 over 400; Coulom 2008)."""
    return 1.0 / (1.0 + 10.0 ** ((white - black) / 400.0))


def baseline_half() -> System:
    """Every game 50/50."""

    def predict(train: pd.DataFrame, queries: pd.DataFrame) -> np.ndarray:
        return np.full(len(queries), 0.5)

    def forward(games: pd.DataFrame, first_day: np.ndarray) -> np.ndarray:
        return np.full(len(games), 0.5)

    return System("constant 0.5", predict, forward)


def baseline_black() -> System:
    """Black's mean score over the games the system may use (0.5 before any game)."""

    def predict(train: pd.DataFrame, queries: pd.DataFrame) -> np.ndarray:
        rate = float(train["result"].mean()) if len(train) else 0.5
        return np.full(len(queries), rate)

    def forward(games: pd.DataFrame, first_day: np.ndarray) -> np.ndarray:
        days = days_of(games["date"])
        order = np.argsort(days, kind="stable")
        cum = np.concatenate([[0.0], np.cumsum(games["result"].to_numpy(dtype=float)[order])])
        # games dated strictly before the tournament's first day
        n = np.searchsorted(days[order], first_day, side="left")
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(n > 0, cum[n] / np.maximum(n, 1), 0.5)

    return System("black's mean score", predict, forward)


def elo_system(rules: str = "1997", seed_rating: float = SEED_RATING) -> System:
    """The Elo-era rules: predicted with their own expectancy, base 2 over 120 points.

    Parameters
    ----------
    rules : {"1997", "1996", "era"}
        See ``whr.elo.replay``.
    seed_rating : float
        The rules' seed rating, also the default rating of a player without one.
    """

    def from_state(r: pd.DataFrame) -> np.ndarray:
        b = r["black_rating"].fillna(seed_rating).to_numpy()
        w = r["white_rating"].fillna(seed_rating).to_numpy()
        return np.asarray(elo.expected_score(b, w), dtype=np.float64)

    def predict(train: pd.DataFrame, queries: pd.DataFrame) -> np.ndarray:
        if len(train) == 0:
            return np.full(len(queries), 0.5)
        return from_state(elo.ratings_before(train, queries, rules, seed_rating=seed_rating))

    def forward(games: pd.DataFrame, first_day: np.ndarray) -> np.ndarray:
        q = pd.DataFrame(
            {"black": games["black"], "white": games["white"], "date": dates_of(first_day).tolist()}
        )
        return from_state(elo.ratings_before(games, q, rules, seed_rating=seed_rating))

    return System(f"elo {rules} rules", predict, forward, {"seed_rating": seed_rating})


def whr_ratings_at(history: pd.DataFrame, players: np.ndarray, days: np.ndarray) -> np.ndarray:
    """WHR ratings of ``players`` on ``days``, by ``Fit.rating_on``'s rule (``whr.ratings_at``).

    Between two rating days the rating is interpolated linearly, after the last one it stays,
    before the first there is none (NaN). Vectorised over all queries.

    Parameters
    ----------
    history : pandas.DataFrame
        ``Fit.history`` (or a synthetic history's ``truth``): ``player``, ``date``, ``rating``
        (Elo, published scale).
    players : array of str
        Player ids, one per query.
    days : array of datetime64[D]
        Days, one per query.

    Returns
    -------
    numpy.ndarray of float
        Elo points, NaN where the player has no rating on that day.
    """
    return ratings_at(history, players, days)


def whr_system(
    w2: float,
    virtual_games: float = FitParams.virtual_games,
    virtual_rating: float = FitParams.virtual_rating,
    *,
    refit_days: int = 91,
    fit: Callable | None = None,
    log: Callable[[str], None] | None = None,
) -> System:
    """WHR at one ``w2``, fitted with ``whr.fit`` (Coulom 2008).

    Parameters
    ----------
    w2 : float
        Wiener variance, Elo^2 per day.
    virtual_games : int
        Virtual draws against ``virtual_rating`` on each player's first day.
    virtual_rating : float
        Published rating of the virtual opponent; also the default rating of an unseen player.
    refit_days : int
        Forward-chaining stride: days between refits (module docstring).
    fit : callable, optional
        The fitting function; default ``whr.fit``.
    log : callable, optional
        Called with a line of progress per refit.
    """
    fit_params = FitParams(
        w2_elo2_per_day=w2, virtual_games=virtual_games, virtual_rating=virtual_rating
    )
    if int(refit_days) < 1:
        raise ValueError(f"refit_days must be >= 1, got {refit_days!r}")

    def do_fit(train: pd.DataFrame, warm: Fit | None) -> Fit:
        f = fit
        if f is None:
            import whr

            f = whr.fit
        return f(train, params=fit_params, warm_start=warm)

    def probs(history: pd.DataFrame, q: pd.DataFrame, days: np.ndarray) -> np.ndarray:
        b = whr_ratings_at(history, q["black"].to_numpy(object), days)
        w = whr_ratings_at(history, q["white"].to_numpy(object), days)
        b = np.where(np.isnan(b), virtual_rating, b)
        w = np.where(np.isnan(w), virtual_rating, w)
        return _p_whr(b, w)

    def predict(train: pd.DataFrame, queries: pd.DataFrame) -> np.ndarray:
        if len(train) == 0:
            return np.full(len(queries), 0.5)
        fitted = do_fit(train, None)
        return probs(fitted.history, queries, days_of(queries["date"]))

    def forward(games: pd.DataFrame, first_day: np.ndarray) -> np.ndarray:
        days = days_of(games["date"])
        first_day = np.asarray(first_day, dtype="datetime64[D]")
        start = first_day.min()
        cps = np.arange(start, first_day.max() + np.timedelta64(1, "D"), int(refit_days))
        ci = np.searchsorted(cps, first_day, side="right") - 1
        p = np.full(len(games), 0.5)
        warm = None
        for i in np.unique(ci):
            c = cps[i]
            train = games.loc[days < c]
            sel = np.flatnonzero(ci == i)
            if len(train) == 0:
                continue
            t0 = time.perf_counter()
            fitted = do_fit(train, warm)
            warm = fitted
            # the ratings on the day before the checkpoint, as Fit.rating_on(c - 1 day) defines
            # them (read from Fit.history, see whr_ratings_at)
            on = np.full(sel.size, c - np.timedelta64(1, "D"))
            p[sel] = probs(fitted.history, games.iloc[sel], on)
            if log is not None:
                log(
                    f"  w2={w2:g}: refit {i + 1}/{cps.size} on {len(train)} games "
                    f"({time.perf_counter() - t0:.1f} s)"
                )
        return p

    name = f"whr w2={w2:g}" + ("" if virtual_games == 2 else f" vg={virtual_games:g}")
    params = {
        "w2": w2,
        "virtual_games": virtual_games,
        "virtual_rating": virtual_rating,
        "refit_days": int(refit_days),
    }
    return System(name, predict, forward, params)


def truth_system(truth: pd.DataFrame) -> System:
    """The true strengths of a synthetic history, on the game day (an upper bound, not a system).

    Parameters
    ----------
    truth : pandas.DataFrame
        ``whr.research.synthetic.History.truth``: ``player``, ``date``, ``rating`` (WHR's scale).
    """

    def predict(train: pd.DataFrame, queries: pd.DataFrame) -> np.ndarray:
        # the game day, not the day asked for: the truth is not a forecast
        days = days_of(queries["game_date"] if "game_date" in queries else queries["date"])
        b = whr_ratings_at(truth, queries["black"].to_numpy(object), days)
        w = whr_ratings_at(truth, queries["white"].to_numpy(object), days)
        return _p_whr(np.nan_to_num(b, nan=1900.0), np.nan_to_num(w, nan=1900.0))

    def forward(games: pd.DataFrame, first_day: np.ndarray) -> np.ndarray:
        return predict(games, games)

    return System("true strengths (bound)", predict, forward)


# --------------------------------------------------------------------------- protocols


def forward_chaining(games: pd.DataFrame, system: System) -> pd.DataFrame:
    """Predict every game from games dated strictly before its tournament's first day.

    Parameters
    ----------
    games : pandas.DataFrame
        The shared games table; not modified.
    system : System

    Returns
    -------
    pandas.DataFrame
        The cleaned games (see :func:`clean`) with ``first_day`` (date), ``seen`` (bool: both
        players had a game dated before ``first_day``) and ``p`` (probability Black wins).
    """
    g = clean(games)
    first = _first_days(g)
    if system.forward is not None:
        p = np.asarray(system.forward(g, first), dtype=np.float64)
    else:
        p = np.full(len(g), np.nan)
        days = days_of(g["date"])
        for day in np.unique(first):
            sel = np.flatnonzero(first == day)
            q = g.iloc[sel].assign(date=dates_of(first[sel]).tolist())
            p[sel] = system.predict(g.loc[days < day], q)
    out = g.assign(first_day=dates_of(first).tolist(), p=p)
    out["seen"] = _seen_before(g, first)
    return out


def _seen_before(games: pd.DataFrame, first_day: np.ndarray) -> np.ndarray:
    """Both players have a game dated strictly before ``first_day``."""
    days = days_of(games["date"])
    both = pd.DataFrame(
        {
            "player": np.concatenate(
                [games["black"].to_numpy(object), games["white"].to_numpy(object)]
            ),
            "day": np.concatenate([days, days]),
        }
    )
    debut = both.groupby("player")["day"].min()
    b = debut.reindex(games["black"].astype(object)).to_numpy()
    w = debut.reindex(games["white"].astype(object)).to_numpy()
    return (b < first_day) & (w < first_day)


def quick_split(games: pd.DataFrame, every: int = 10) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The RIF's split: games sorted by date (stable), every ``every``-th held out.

    Returns
    -------
    (train, test) : pandas.DataFrame
        Cleaned games; ``test`` holds positions ``every - 1, 2 every - 1, ...``.
    """
    g = clean(games)
    held = (np.arange(len(g)) % every) == every - 1
    return g.loc[~held], g.loc[held]


def quick_protocol(games: pd.DataFrame, system: System, every: int = 10) -> pd.DataFrame:
    """The RIF's quick protocol: fit on nine games in ten, predict the tenth.

    Returns
    -------
    pandas.DataFrame
        The held-out games with ``p`` (probability Black wins) and ``seen`` (both players in
        the training games).
    """
    return held_out(quick_split(games, every), system)


def held_out(split: tuple[pd.DataFrame, pd.DataFrame], system: System) -> pd.DataFrame:
    """Predict the held-out games of a split made once by :func:`quick_split`.

    Parameters
    ----------
    split : (train, test)
        :func:`quick_split`'s value: the system is fitted on ``train`` and predicts ``test``.
    system : System

    Returns
    -------
    pandas.DataFrame
        ``test`` with ``p`` (probability Black wins) and ``seen`` (both players in ``train``).
    """
    train, test = split
    q = test.assign(game_date=test["date"])
    p = np.asarray(system.predict(train, q), dtype=np.float64)
    known = set(train["black"]).union(train["white"])
    seen = test["black"].isin(known).to_numpy() & test["white"].isin(known).to_numpy()
    return test.assign(p=p, seen=seen)


# --------------------------------------------------------------------------- comparison

PROTOCOLS = ("forward", "quick")


def score_system(
    games: pd.DataFrame,
    system: System,
    protocol: str,
    log: Callable[[str], None] | None = None,
) -> dict:
    """Score one system under one protocol: one row of :func:`compare`'s table.

    Independent of every other system and protocol, so a flow may run each on its own worker.

    Parameters
    ----------
    games : pandas.DataFrame
        The shared games table; not modified.
    system : System
    protocol : {"forward", "quick"}
    log : callable, optional
        Called with a line when the scoring starts.

    Returns
    -------
    dict
        ``system``, ``protocol``, ``games``, ``log_likelihood``, ``brier``, ``seen_games``,
        ``seen_log_likelihood``, ``seen_brier``, ``seconds`` (wall-clock seconds of this row).
    """
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be 'forward' or 'quick', got {protocol!r}")
    t0 = time.perf_counter()
    if log is not None:
        log(f"{protocol}: {system.name}")
    res = (
        forward_chaining(games, system) if protocol == "forward" else quick_protocol(games, system)
    )
    seconds = time.perf_counter() - t0
    all_ = score(res["p"].to_numpy(), res["result"].to_numpy())
    seen = res["seen"].to_numpy(dtype=bool)
    sub = score(res["p"].to_numpy()[seen], res["result"].to_numpy()[seen])
    return {
        "system": system.name,
        "protocol": protocol,
        "games": all_.games,
        "log_likelihood": all_.log_likelihood,
        "brier": all_.brier,
        "seen_games": sub.games,
        "seen_log_likelihood": sub.log_likelihood,
        "seen_brier": sub.brier,
        "seconds": seconds,
    }


def compare(
    games: pd.DataFrame,
    systems: Sequence[System],
    protocols: Sequence[str] = PROTOCOLS,
    log: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """Score every system under every protocol on the same games, one after another.

    Returns
    -------
    pandas.DataFrame
        One row per system and protocol (:func:`score_system`), protocols in the order given,
        systems in the order given within each: ``system``, ``protocol``, ``games``,
        ``log_likelihood``, ``brier`` (all games scored), ``seen_games``, ``seen_log_likelihood``,
        ``seen_brier`` (games whose two players had played before), ``seconds``.
    """
    for proto in protocols:
        if proto not in PROTOCOLS:
            raise ValueError(f"protocols must be 'forward' or 'quick', got {proto!r}")
    return pd.DataFrame(
        [score_system(games, s, proto, log) for proto in protocols for s in systems]
    )


@dataclass(frozen=True)
class GridPoint:
    """One point of a tuning grid.

    Attributes
    ----------
    w2 : float
        Wiener variance, Elo^2 per day.
    virtual_games : float
        Virtual draws against the virtual opponent on each player's first day.
    """

    w2: float
    virtual_games: float


def tune_grid(w2_grid: Sequence[float], virtual_games_grid: Sequence[float]) -> list[GridPoint]:
    """The grid in the order of :func:`tune`'s table: ``virtual_games`` as given, ``w2`` sorted.

    Raises
    ------
    ValueError
        When a grid is empty.
    """
    if len(w2_grid) == 0 or len(virtual_games_grid) == 0:
        raise ValueError(
            "w2_grid and virtual_games_grid must not be empty, got "
            f"{list(w2_grid)!r} and {list(virtual_games_grid)!r}"
        )
    return [GridPoint(float(w2), vg) for vg in virtual_games_grid for w2 in sorted(w2_grid)]


@dataclass(frozen=True)
class TuneData:
    """What every grid point reads, made once by :func:`tune_data` and shared by every point.

    Attributes
    ----------
    protocol : {"quick", "forward"}
        How a grid point is scored.
    train : pandas.DataFrame
        Quick protocol: the games fitted (nine in ten); forward chaining: every game
        (:func:`clean`'s), each predicted from the games before its tournament.
    test : pandas.DataFrame or None
        Quick protocol: the held-out games; forward chaining: None.
    refit_days : int
        Forward chaining's stride between refits, days.
    """

    protocol: str
    train: pd.DataFrame
    test: pd.DataFrame | None = None
    refit_days: int = 91


def tune_data(games: pd.DataFrame, protocol: str = "quick", *, refit_days: int = 91) -> TuneData:
    """The input of every grid point: the quick protocol's split, or the cleaned games.

    Parameters
    ----------
    games : pandas.DataFrame
        The shared games table; not modified.
    protocol : {"quick", "forward"}
        The RIF's quick protocol (:func:`quick_split`) or forward chaining.
    refit_days : int
        Forward chaining's stride between WHR refits, days (>= 1).
    """
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be 'forward' or 'quick', got {protocol!r}")
    if int(refit_days) < 1:
        raise ValueError(f"refit_days must be >= 1, got {refit_days!r}")
    if protocol == "quick":
        train, test = quick_split(games)
        return TuneData("quick", train, test, int(refit_days))
    return TuneData("forward", clean(games), None, int(refit_days))


def tune_point(
    data: TuneData,
    point: GridPoint,
    *,
    virtual_rating: float = 1900.0,
    fit: Callable | None = None,
    log: Callable[[str], None] | None = None,
) -> dict:
    """Scores of WHR at one grid point: one row of :func:`tune`'s table.

    Independent of every other point, so a flow may run each on its own worker; ``data`` is
    made once (:func:`tune_data`) and shared by every point.

    Parameters
    ----------
    data : TuneData
    point : GridPoint
    virtual_rating : float
        Published rating of the virtual opponent, Elo.
    fit : callable, optional
        The fitting function; default ``whr.fit``.
    log : callable, optional
        Called with a line when the point starts.

    Returns
    -------
    dict
        ``w2``, ``virtual_games``, ``games`` (games scored), ``log_likelihood`` (mean per game
        scored, nats), ``brier``.
    """
    if not isinstance(data, TuneData):
        raise TypeError(f"data must be a TuneData, got {type(data).__name__}")
    if not isinstance(point, GridPoint):
        raise TypeError(f"point must be a GridPoint, got {type(point).__name__}")
    if log is not None:
        log(f"tune: w2={point.w2:g} virtual_games={point.virtual_games:g}")
    system = whr_system(
        point.w2, point.virtual_games, virtual_rating, refit_days=data.refit_days, fit=fit
    )
    if data.protocol == "quick":
        assert data.test is not None  # the quick protocol's split (tune_data)
        res = held_out((data.train, data.test), system)
    else:
        res = forward_chaining(data.train, system)
    sc = score(res["p"].to_numpy(), res["result"].to_numpy())
    return {
        "w2": point.w2,
        "virtual_games": point.virtual_games,
        "games": sc.games,
        "log_likelihood": sc.log_likelihood,
        "brier": sc.brier,
    }


def tune_table(rows: Sequence[dict]) -> pd.DataFrame:
    """:func:`tune`'s table from its rows (:func:`tune_point`), in the grid's order.

    Returns
    -------
    pandas.DataFrame
        The rows, and ``best`` (bool): the highest log-likelihood.
    """
    if len(rows) == 0:
        raise ValueError("rows must not be empty")
    out = pd.DataFrame(list(rows))
    out["best"] = out["log_likelihood"] == out["log_likelihood"].max()
    return out


def tune(
    games: pd.DataFrame,
    w2_grid: Sequence[float],
    virtual_games_grid: Sequence[float] = (2,),
    *,
    protocol: str = "quick",
    refit_days: int = 91,
    virtual_rating: float = 1900.0,
    fit: Callable | None = None,
    log: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """Scores of WHR over a grid of ``w2`` and virtual draws, by one protocol.

    One point after another in this process; ``python -m flows.evaluate tune`` runs the same
    points (:func:`tune_point`) as independent Prefect tasks, on a Dask cluster with ``--dask``.

    Parameters
    ----------
    games : pandas.DataFrame
        The shared games table; not modified.
    w2_grid : list of float
        Elo^2 per day.
    virtual_games_grid : list of float
        Virtual draws on each player's first day.
    protocol : {"quick", "forward"}
        The RIF's quick protocol (every 10th game held out; one fit per point) or forward
        chaining (a refit every ``refit_days`` days per point).
    refit_days : int
        Forward chaining's stride, days.
    virtual_rating : float
        Published rating of the virtual opponent, Elo.
    fit, log : callable, optional
        See :func:`tune_point`.

    Returns
    -------
    pandas.DataFrame
        ``w2``, ``virtual_games``, ``games``, ``log_likelihood``, ``brier``, ``best`` (bool:
        the highest log-likelihood), in :func:`tune_grid`'s order.
    """
    points = tune_grid(w2_grid, virtual_games_grid)
    data = tune_data(games, protocol, refit_days=refit_days)
    return tune_table(
        [tune_point(data, p, virtual_rating=virtual_rating, fit=fit, log=log) for p in points]
    )


# --------------------------------------------------------------------------- report


def svg_plot(
    series: dict[str, tuple[Sequence[float], Sequence[float]]],
    *,
    x_label: str,
    y_label: str,
    hlines: dict[str, float] | None = None,
    width: int = 560,
    height: int = 320,
) -> str:
    """A small line plot as an SVG document, written by hand (no plotting library).

    Parameters
    ----------
    series : dict of name -> (xs, ys)
        Lines with markers; the x axis is linear.
    x_label, y_label : str
    hlines : dict of name -> y, optional
        Dashed horizontal reference lines.
    width, height : int
        Pixels.

    Returns
    -------
    str
        The SVG text.
    """
    from html import escape

    hlines = hlines or {}
    xs = [float(x) for v in series.values() for x in v[0]]
    ys = [float(y) for v in series.values() for y in v[1]] + list(hlines.values())
    ys = [y for y in ys if math.isfinite(y)]
    if not xs or not ys:
        raise ValueError("svg_plot needs at least one finite point")
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if x1 == x0:
        x0, x1 = x0 - 1, x1 + 1
    pad = (y1 - y0) * 0.08 or abs(y0) * 0.01 or 1.0
    y0, y1 = y0 - pad, y1 + pad
    left, right, top, bottom = 72, 170, 16, 44
    pw, ph = width - left - right, height - top - bottom

    def px(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * pw

    def py(y: float) -> float:
        return top + (y1 - y) / (y1 - y0) * ph

    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>',
    ]
    for i in range(5):
        yv = y0 + (y1 - y0) * i / 4
        out.append(
            f'<line x1="{left}" y1="{py(yv):.1f}" x2="{left + pw}" y2="{py(yv):.1f}" '
            'stroke="#ddd"/>'
        )
        out.append(f'<text x="{left - 6}" y="{py(yv) + 4:.1f}" text-anchor="end">{yv:.4f}</text>')
    for xv in sorted(set(xs)):
        out.append(
            f'<line x1="{px(xv):.1f}" y1="{top + ph}" x2="{px(xv):.1f}" '
            f'y2="{top + ph + 4}" stroke="#444"/>'
        )
        out.append(f'<text x="{px(xv):.1f}" y="{top + ph + 16}" text-anchor="middle">{xv:g}</text>')
    out.append(
        f'<text x="{left + pw / 2}" y="{height - 6}" text-anchor="middle">{escape(x_label)}</text>'
    )
    out.append(
        f'<text transform="translate(14 {top + ph / 2}) rotate(-90)" '
        f'text-anchor="middle">{escape(y_label)}</text>'
    )
    legend_y = top + 10
    for k, (name, (sx, sy)) in enumerate(series.items()):
        c = colours[k % len(colours)]
        pts = " ".join(
            f"{px(float(a)):.1f},{py(float(b)):.1f}" for a, b in zip(sx, sy, strict=True)
        )
        out.append(f'<polyline points="{pts}" fill="none" stroke="{c}" stroke-width="2"/>')
        for a, b in zip(sx, sy, strict=True):
            out.append(
                f'<circle cx="{px(float(a)):.1f}" cy="{py(float(b)):.1f}" r="3" fill="{c}"/>'
            )
        out.append(
            f'<line x1="{left + pw + 10}" y1="{legend_y}" x2="{left + pw + 26}" '
            f'y2="{legend_y}" stroke="{c}" stroke-width="2"/>'
        )
        out.append(f'<text x="{left + pw + 30}" y="{legend_y + 4}">{escape(name)}</text>')
        legend_y += 16
    for k, (name, yv) in enumerate(hlines.items()):
        c = colours[(len(series) + k) % len(colours)]
        out.append(
            f'<line x1="{left}" y1="{py(yv):.1f}" x2="{left + pw}" y2="{py(yv):.1f}" '
            f'stroke="{c}" stroke-dasharray="5 3"/>'
        )
        out.append(
            f'<line x1="{left + pw + 10}" y1="{legend_y}" x2="{left + pw + 26}" '
            f'y2="{legend_y}" stroke="{c}" stroke-dasharray="5 3"/>'
        )
        out.append(f'<text x="{left + pw + 30}" y="{legend_y + 4}">{escape(name)}</text>')
        legend_y += 16
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _markdown(frame: pd.DataFrame, floats: str = "{:.4f}") -> str:
    cols = list(frame.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for _, row in frame.iterrows():
        cells = []
        for c in cols:
            v = row[c]
            if isinstance(v, float | np.floating):
                fmt = "{:g}" if c == "w2" else floats
                cells.append("" if math.isnan(v) else fmt.format(v))
            else:
                cells.append(str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


_METHOD = """\
## Method

- Forward chaining: tournaments in order of their first day; each game is predicted from
  ratings computed on games dated strictly before its tournament's first day. WHR is refitted
  every {refit_days} days (warm-started from the previous fit) and read on the day before the
  checkpoint (`Fit.rating_on` semantics, from `Fit.history`); the Elo-era rules are replayed
  once and read before each tournament.
- Quick protocol (the RIF's): games sorted by date, every 10th held out, fit on the rest; WHR
  read on the game day (`rating_on` semantics), Elo from the state before the game day.
- Log-likelihood: mean per game of `s log p + (1 - s) log(1 - p)` (nats, Black's view; a draw
  scores `(log p + log(1 - p)) / 2`, WHR's own draw likelihood). Brier: mean `(p - s)^2`, a draw
  is the outcome 0.5. Higher log-likelihood and lower Brier are better.
- Unseen players: a player a system has no rating for gets that system's default rating (WHR:
  the virtual opponent's {virtual_rating:g}; Elo-era rules: the seed rating {seed_rating:g}).
  `seen_*` columns: only games whose two players had a game before (the same games for every
  system).
"""


_TUNE_METHOD = {
    "quick": """\
## Method

WHR (`whr.fit`) at every grid point, scored by the RIF's quick protocol: games sorted by date,
every 10th held out, the fit on the other games read on each held-out game's day (`Fit.rating_on`
semantics); a player the fit does not know is at the virtual opponent's rating. Score: mean
log-likelihood per held-out game, `s log p + (1 - s) log(1 - p)` in nats (a draw scores
`(log p + log(1 - p)) / 2`); Brier `(p - s)^2` with a draw as 0.5. The best grid point has the
highest log-likelihood.
""",
    "forward": """\
## Method

WHR (`whr.fit`) at every grid point, scored by forward chaining: tournaments in order of their
first day; each game is predicted from ratings computed on games dated strictly before its
tournament's first day, WHR refitted every {refit_days} days (warm-started from the previous fit)
and read on the day before the checkpoint (`Fit.rating_on` semantics); a player the fit does not
know is at the virtual opponent's rating. Score: mean log-likelihood per game,
`s log p + (1 - s) log(1 - p)` in nats (a draw scores `(log p + log(1 - p)) / 2`); Brier
`(p - s)^2` with a draw as 0.5. The best grid point has the highest log-likelihood.
""",
}


def write_report(
    out: Path,
    title: str,
    results: pd.DataFrame,
    notes: Sequence[str],
    method: str,
    plot: str | None = None,
    plot_name: str = "w2.svg",
) -> Path:
    """Write ``out/report.md`` (and the plot, and the table as CSV); returns the report path."""
    out.mkdir(parents=True, exist_ok=True)
    results.to_csv(out / "scores.csv", index=False)
    parts = [f"# {title}\n", *[f"{n}\n" for n in notes], _markdown(results), method]
    if plot is not None:
        (out / plot_name).write_text(plot, encoding="utf-8")
        parts.insert(2, f"![score against w2]({plot_name})\n")
    path = out / "report.md"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- command line

TUNE_W2 = (3.0, 6.0, 9.0, 12.9, 16.0, 19.3, 25.0, 35.0, 50.0)
"""``tune``'s default grid of w2, Elo^2 per day."""
TUNE_VIRTUAL_GAMES = (1, 2, 4)
"""``tune``'s default grid of virtual draws."""


def load_games(
    *,
    source: str | None = None,
    synthetic: int | None = None,
    seed: int = 0,
    as_of: dt.date | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame | None, str]:
    """The games the evaluation scores: a source's rated games, or a synthetic history.

    Parameters
    ----------
    source : str, optional
        Read with ``whr.read_source`` and selected by the bundled eligibility rules as of
        ``as_of`` (required with a source).
    synthetic : int, optional
        Number of games of a synthetic history (``whr.research.synthetic.history``) instead.
    seed : int
        Seed of the synthetic history.
    as_of : datetime.date, optional
        Later games are left out.

    Returns
    -------
    (games, truth, what)
        The games table; the synthetic history's true strengths (None for a source); one line
        saying what the data are, for the report.
    """
    if (source is None) == (synthetic is None):
        raise ValueError(
            f"give exactly one of source and synthetic, got source={source!r}, "
            f"synthetic={synthetic!r}"
        )
    if synthetic is not None:
        from whr.research import synthetic as synthetic_history

        h = synthetic_history.history(synthetic, seed=seed)
        games = h.games
        if as_of is not None:
            games = games.loc[days_of(games["date"]) <= np.datetime64(as_of, "D")]
        return games, h.truth, f"synthetic history, {synthetic} games, seed {seed}"
    if source is None:
        raise ValueError("give a source or a synthetic history (synthetic=N_GAMES), got neither")
    if as_of is None:
        raise ValueError(f"as_of is required with a source, got source={source!r}, as_of=None")
    import whr
    from whr.rules import default_directory, load_config

    data = whr.read_source(source, as_of=as_of)
    sel = whr.select(data, as_of=as_of, config=load_config(default_directory()))
    return sel.rated, None, f"source {source}, rated games up to {as_of}"


def compare_systems(
    w2s: Sequence[float],
    virtual_games: float = 2,
    *,
    refit_days: int = 91,
    truth: pd.DataFrame | None = None,
    log: Callable[[str], None] | None = None,
) -> tuple[list[System], list[str]]:
    """The systems ``compare`` scores: WHR at each ``w2``, the Elo-era rules, the baselines.

    Returns
    -------
    (systems, notes)
        The systems in the report's order (the true strengths last, with a synthetic history's
        ``truth``); notes for the report (WHR left out when ``whr.fit`` is not available).
    """
    notes = []
    try:
        import whr

        whr.fit  # noqa: B018  (the engine may not be installed)
        systems = [whr_system(w, virtual_games, refit_days=refit_days, log=log) for w in w2s]
    except (ImportError, AttributeError) as exc:
        notes.append(f"WHR left out: whr.fit is not available ({exc}).")
        systems = []
    systems += [elo_system(r) for r in ("1997", "era", "1996")]
    systems += [baseline_half(), baseline_black()]
    if truth is not None:
        systems.append(truth_system(truth))
    return systems, notes


def tune_report(
    out: Path,
    results: pd.DataFrame,
    what: str,
    *,
    protocol: str = "quick",
    refit_days: int = 91,
) -> Path:
    """Write ``tune``'s report into ``out`` (``report.md``, ``scores.csv``, ``w2.svg``).

    Parameters
    ----------
    out : Path
        Report directory (created).
    results : pandas.DataFrame
        :func:`tune`'s table.
    what : str
        What the data are (:func:`load_games`).
    protocol : {"quick", "forward"}
        The protocol that scored the points.
    refit_days : int
        Forward chaining's stride, days.

    Returns
    -------
    Path
        ``out/report.md``.
    """
    best = results.loc[results["best"]].iloc[0]
    plot = svg_plot(
        {
            f"{vg:g} virtual draw{'' if vg == 1 else 's'}": (
                g["w2"].tolist(),
                g["log_likelihood"].tolist(),
            )
            for vg, g in results.groupby("virtual_games")
        },
        x_label="w2 (Elo^2 per day)",
        y_label="held-out mean log-likelihood"
        if protocol == "quick"
        else "forward-chaining mean log-likelihood",
    )
    scored = (
        f"Quick protocol (every 10th game held out), {int(best['games'])} held-out games."
        if protocol == "quick"
        else f"Forward chaining (WHR refitted every {refit_days} days), {int(best['games'])} games."
    )
    notes = [
        f"Data: {what}. {scored}",
        f"Best: w2 = {best['w2']:g} Elo^2/day with {best['virtual_games']:g} virtual "
        f"draws (mean log-likelihood {best['log_likelihood']:.5f}).",
    ]
    method = _TUNE_METHOD[protocol].format(refit_days=refit_days)
    return write_report(out, "Tuning w2 and virtual draws", results, notes, method, plot)


def compare_report(
    out: Path,
    results: pd.DataFrame,
    *,
    what: str,
    games: int,
    notes: Sequence[str],
    protocols: Sequence[str],
    refit_days: int,
) -> Path:
    """Write ``compare``'s report into ``out`` (``report.md``, ``scores.csv``, ``w2.svg``).

    Parameters
    ----------
    out : Path
        Report directory (created).
    results : pandas.DataFrame
        :func:`compare`'s table.
    what : str
        What the data are (:func:`load_games`).
    games : int
        Games the systems could use (:func:`clean`'s).
    notes : list of str
        Further lines for the top of the report (systems left out).
    protocols : list of str
        The protocols scored; the plot shows the first.
    refit_days : int
        Forward chaining's stride, for the method.

    Returns
    -------
    Path
        ``out/report.md``.
    """
    res = results.sort_values(["protocol", "log_likelihood"], ascending=[True, False])
    fw = res.loc[res["protocol"] == protocols[0]]
    whr_rows = fw.loc[fw["system"].str.startswith("whr")]
    plot = None
    if len(whr_rows) > 1:
        xs = [float(s.split("w2=")[1].split()[0]) for s in whr_rows["system"]]
        order = np.argsort(xs)
        others = fw.loc[~fw["system"].str.startswith("whr") & ~fw["system"].str.startswith("true")]
        plot = svg_plot(
            {
                "whr": (
                    [xs[i] for i in order],
                    [whr_rows["log_likelihood"].to_numpy()[i] for i in order],
                )
            },
            x_label="w2 (Elo^2 per day)",
            y_label=f"mean log-likelihood ({protocols[0]})",
            hlines=dict(zip(others["system"], others["log_likelihood"], strict=True)),
        )
    method = _METHOD.format(refit_days=refit_days, virtual_rating=1900.0, seed_rating=SEED_RATING)
    notes = [f"Data: {what}; {games} games.", *notes]
    return write_report(out, "Which rating system predicts best", res.round(6), notes, method, plot)


def parser(prog: str = "python -m whr.research.evaluate") -> argparse.ArgumentParser:
    """The command line's options (``python -m flows.evaluate`` adds ``--dask``)."""
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    ap.add_argument("mode", nargs="?", choices=("compare", "tune"), default="compare")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--source", help="directory or file read with whr.read_source")
    src.add_argument("--synthetic", type=int, metavar="N_GAMES", help="a synthetic history")
    ap.add_argument("--seed", type=int, default=0, help="seed of the synthetic history")
    ap.add_argument("--as-of", type=dt.date.fromisoformat, default=None, help="YYYY-MM-DD")
    ap.add_argument("--out", type=Path, required=True, help="report directory")
    ap.add_argument("--w2", type=float, nargs="+", default=None, help="Elo^2 per day")
    ap.add_argument("--virtual-games", type=int, nargs="+", default=None)
    ap.add_argument("--refit-days", type=int, default=91, help="forward-chaining WHR stride")
    ap.add_argument(
        "--protocol",
        choices=("forward", "quick", "both"),
        default=None,
        help="compare: both by default; tune: quick (one fit per grid point) by default, or "
        "forward (a refit every --refit-days per grid point)",
    )
    return ap


def parse_args(ap: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse and check the options; a bad one exits with argparse's usage error (status 2)."""
    args = ap.parse_args(argv)
    if args.source and args.as_of is None:
        ap.error("--as-of is required with --source")
    if args.synthetic is not None and args.synthetic < 1:
        ap.error(f"--synthetic: expected a number of games >= 1, got {args.synthetic}")
    if args.refit_days < 1:
        ap.error(f"--refit-days: expected a number of days >= 1, got {args.refit_days}")
    if args.mode == "tune" and args.protocol == "both":
        ap.error("--protocol: tune scores one protocol, quick or forward, got both")
    return args


def protocols_of(args: argparse.Namespace) -> tuple[str, ...]:
    """The protocols the parsed options ask for (:func:`parse_args`'s defaults by mode)."""
    if args.protocol is None:
        return ("quick",) if args.mode == "tune" else PROTOCOLS
    return PROTOCOLS if args.protocol == "both" else (args.protocol,)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (module docstring); returns the exit status."""
    args = parse_args(parser(), argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    games, truth, what = load_games(
        source=args.source, synthetic=args.synthetic, seed=args.seed, as_of=args.as_of
    )
    protocols = protocols_of(args)
    if args.mode == "tune":
        res = tune(
            games,
            args.w2 or TUNE_W2,
            args.virtual_games or TUNE_VIRTUAL_GAMES,
            protocol=protocols[0],
            refit_days=args.refit_days,
            log=log,
        )
        print(tune_report(args.out, res, what, protocol=protocols[0], refit_days=args.refit_days))
        return 0
    vg = (args.virtual_games or [2])[0]
    systems, notes = compare_systems(
        args.w2 or DEFAULT_W2, vg, refit_days=args.refit_days, truth=truth, log=log
    )
    res = compare(games, systems, protocols, log=log)
    path = compare_report(
        args.out,
        res,
        what=what,
        games=len(clean(games)),
        notes=notes,
        protocols=protocols,
        refit_days=args.refit_days,
    )
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
