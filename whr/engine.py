"""Whole-History Rating of a table of games: ``whr.fit`` and its result, ``Fit``.

The adapter between tables (pandas or Arrow, player ids as strings, calendar dates) and the
solver in :mod:`whr.core` (integer indices, day numbers, natural units). Ratings come out on the
published scale: Elo, internal 0 = published 1900.

Reference: R. Coulom, "Whole-History Rating: A Bayesian Rating System for Players of
Time-Varying Strength", Computers and Games 2008.
"""

from __future__ import annotations

import math
from datetime import date, datetime
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr import core
from whr.core import ConvergenceError
from whr.params import FitParams
from whr.tables import HISTORY, to_frame

__all__ = ["PUBLISHED_OFFSET", "ConvergenceError", "Fit", "FitParams", "fit"]

#: Published rating = internal Elo rating + 1900 (the virtual opponent's default rating).
PUBLISHED_OFFSET = 1900.0
_EPOCH = date(1970, 1, 1)
_COLUMNS = ("black", "white", "result", "date")


class Fit:
    """The result of :func:`fit`: every player's rating on every day they played.

    Attributes
    ----------
    history : pandas.DataFrame
        Schema ``whr.tables.HISTORY``: ``player``, ``date``, ``rating`` (published scale),
        ``uncertainty`` (posterior standard deviation, Elo), ``games`` (rated games that day).
        Sorted by player, then date.
    params : dict
        The parameters (``FitParams.as_dict``).
    iterations : int
        Newton iterations.
    cg_iterations : int
        Conjugate-gradient iterations, all Newton iterations together.
    converged : bool
        Always True (a fit that does not converge raises :class:`ConvergenceError`).
    max_change_elo, grad_max : float
        Largest rating change of the last step (Elo) and largest gradient component.
    n_games, n_players, n_player_days : int
    """

    def __init__(
        self,
        players: np.ndarray,
        problem: core.Problem,
        solution: core.Solution,
        params: FitParams,
        n_games: int,
    ) -> None:
        self._players = players
        self._pd_player = problem.pd_player
        self._pd_day = problem.pd_day
        self._pd_games = problem.pd_games
        self._r = solution.r
        self._var = solution.variance
        self._params = params
        self.params = params.as_dict()
        self.iterations = solution.iterations
        self.cg_iterations = solution.cg_iterations
        self.converged = solution.converged
        self.max_change_elo = solution.max_change_elo
        self.grad_max = solution.grad_max
        self.n_games = n_games
        self.n_players = int(players.size)
        self.n_player_days = int(problem.n)

    def __repr__(self) -> str:
        return (
            f"Fit(games={self.n_games}, players={self.n_players}, "
            f"player_days={self.n_player_days}, iterations={self.iterations}, "
            f"w2={self._params.w2})"
        )

    @property
    def ratings_elo(self) -> np.ndarray:
        """Published rating of every player-day, in the order of ``history``."""
        return self._r * core.ELO_PER_NATURAL + PUBLISHED_OFFSET

    @property
    def uncertainties_elo(self) -> np.ndarray:
        """Standard deviation of every player-day's rating (Elo), in the order of ``history``."""
        return np.sqrt(self._var) * core.ELO_PER_NATURAL

    @cached_property
    def history(self) -> pd.DataFrame:
        table = pa.table(
            {
                "player": pa.array(self._players[self._pd_player], type=pa.string()),
                "date": pa.array(self._pd_day.astype(np.int32), type=pa.int32()).cast(pa.date32()),
                "rating": self.ratings_elo,
                "uncertainty": self.uncertainties_elo,
                "games": pa.array(self._pd_games.astype(np.int32)),
            },
            schema=HISTORY,
        )
        return to_frame(table)

    def rating_on(self, d: date | datetime | np.datetime64 | pd.Timestamp) -> pd.DataFrame:
        """Every player rated on or before day ``d``, with their rating on that day.

        Between two rating days the rating is interpolated linearly (the Brownian bridge mean)
        and the variance is ``w2 (d - a)(b - d) / (b - a)`` plus the square of the linearly
        interpolated standard deviation; after the last rating day the rating stays and its
        variance grows by ``w2`` per day; players whose first rating day is after ``d`` are not
        listed (spec section 1; reference ``get_player_rating_on_day``).

        Parameters
        ----------
        d : date
            The day.

        Returns
        -------
        pandas.DataFrame
            ``player`` (str), ``rating`` (published scale), ``uncertainty`` (Elo),
            ``last_date`` (date: the player's last rating day on or before ``d``), sorted by
            player.
        """
        day = _day_number(d, "d")
        n = self._pd_day.size
        if n == 0:
            return _rating_frame([], np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64))
        players = np.arange(self.n_players)
        starts = np.searchsorted(self._pd_player, players, side="left")
        stops = np.searchsorted(self._pd_player, players, side="right")
        # a player's days are sorted: the first `known` of them are on or before d
        known = np.bincount(self._pd_player[self._pd_day <= day], minlength=self.n_players)
        idx = starts + known - 1
        rated = known > 0
        players, idx, stops = players[rated], idx[rated], stops[rated]
        elo = self.ratings_elo
        sd = self.uncertainties_elo
        a = self._pd_day[idx]
        rating = elo[idx].copy()
        var = sd[idx] ** 2
        w2 = self._params.w2
        after = idx + 1 >= stops  # no later rating day: frozen rating, variance grows
        var[after] += w2 * (day - a[after])
        mid = ~after & (a != day)
        nxt = idx[mid] + 1
        a_m, b_m = a[mid].astype(np.float64), self._pd_day[nxt].astype(np.float64)
        frac = (day - a_m) / (b_m - a_m)
        rating[mid] = (1 - frac) * elo[idx[mid]] + frac * elo[nxt]
        sd_m = (1 - frac) * sd[idx[mid]] + frac * sd[nxt]
        var[mid] = w2 * (day - a_m) * (b_m - day) / (b_m - a_m) + sd_m**2
        return _rating_frame(self._players[players], rating, np.sqrt(var), a)

    def to_core(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(players, pd_player, pd_day, r_natural)``: the solution in solver terms."""
        return self._players, self._pd_player, self._pd_day, self._r


def _rating_frame(
    players: Any, rating: np.ndarray, uncertainty: np.ndarray, last_day: np.ndarray
) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "player": pd.Series(np.asarray(players, dtype=object), dtype="str"),
            "rating": np.asarray(rating, dtype=np.float64),
            "uncertainty": np.asarray(uncertainty, dtype=np.float64),
            "last_date": pd.Series(
                pa.array(np.asarray(last_day, dtype=np.int32), type=pa.int32())
                .cast(pa.date32())
                .to_pandas(),
                dtype=object,
            ),
        }
    )


def _day_number(d: object, name: str) -> int:
    if isinstance(d, pd.Timestamp):
        d = d.date()
    elif isinstance(d, np.datetime64):
        if np.isnat(d):
            raise ValueError(f"{name} must be a date, got NaT")
        return int(d.astype("datetime64[D]").astype(np.int64))
    if isinstance(d, datetime):
        d = d.date()
    if not isinstance(d, date):
        raise TypeError(f"{name} must be a datetime.date, got {type(d).__name__}: {d!r}")
    return (d - _EPOCH).days


# ---------------------------------------------------------------------------------------------
# input


class _Input:
    """The four columns of a games table, as validated Arrow arrays."""

    def __init__(self, games: pd.DataFrame | pa.Table) -> None:
        if isinstance(games, pd.DataFrame):
            self.index: pd.Index | None = games.index
            names = list(games.columns)
        elif isinstance(games, pa.Table):
            self.index = None
            names = games.column_names
        else:
            raise TypeError(
                f"games must be a pandas DataFrame or a pyarrow Table, got {type(games).__name__}"
            )
        missing = [c for c in _COLUMNS if c not in names]
        if missing:
            raise ValueError(f"games is missing columns {missing}; expected {list(_COLUMNS)}")
        self.games = games
        self.n = len(games)

    def where(self, pos: int) -> str:
        if self.index is None:
            return f"row {pos}"
        label = self.index[pos]
        return f"row {pos}" if label == pos else f"row {pos} (index {label!r})"

    def raw(self, name: str) -> pa.Array:
        arr = self._raw(name)
        if len(arr) == 0 and pa.types.is_null(arr.type):  # an empty column of no type
            return pa.array(
                [], type={"result": pa.float64(), "date": pa.date32()}.get(name, pa.string())
            )
        return arr

    def _raw(self, name: str) -> pa.Array:
        if isinstance(self.games, pa.Table):
            col = self.games.column(name)
            return col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
        series = self.games[name]
        if isinstance(series.dtype, pd.DatetimeTZDtype):
            series = series.dt.tz_localize(None)  # the local calendar date
        if pd.api.types.is_datetime64_dtype(series.dtype):
            values = series.to_numpy().astype("datetime64[D]")
            mask = np.isnat(values)
            return (
                pa.array(values.astype(np.int64), mask=mask, type=pa.int64())
                .cast(pa.int32())
                .cast(pa.date32())
            )
        try:
            arr = pa.array(series, from_pandas=True)
            return arr.combine_chunks() if isinstance(arr, pa.ChunkedArray) else arr
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError) as exc:
            if name == "date":
                self._first_non_date(series)
            raise ValueError(f"games: column {name!r} could not be read: {exc}") from exc

    def _first_non_date(self, series: pd.Series) -> None:
        for pos, value in enumerate(series.to_numpy()):
            if value is None or (isinstance(value, float) and math.isnan(value)):
                continue
            if value is pd.NaT:
                continue
            if not isinstance(value, (date, np.datetime64)):
                raise ValueError(
                    f"games: column 'date' must hold dates; {self.where(pos)} has "
                    f"{value!r} ({type(value).__name__})"
                )

    def missing(self, name: str, arr: pa.Array) -> None:
        if arr.null_count:
            pos = int(np.argmax(arr.is_null().to_numpy(zero_copy_only=False)))
            raise ValueError(f"games: column {name!r} has a missing value at {self.where(pos)}")

    def players(self, name: str) -> pa.Array:
        arr = self.raw(name)
        self.missing(name, arr)
        if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            if pa.types.is_integer(arr.type) or pa.types.is_dictionary(arr.type):
                arr = arr.cast(pa.string())
            else:
                raise ValueError(
                    f"games: column {name!r} must hold player ids (str), got {arr.type}"
                )
        return arr.cast(pa.string())

    def result(self) -> np.ndarray:
        arr = self.raw("result")
        if pa.types.is_floating(arr.type):
            nan = pc.is_nan(arr).to_numpy(zero_copy_only=False)
            nan = np.where(arr.is_null().to_numpy(zero_copy_only=False), True, nan)
            if nan.any():
                pos = int(np.argmax(nan))
                raise ValueError(f"games: column 'result' has a missing value at {self.where(pos)}")
        self.missing("result", arr)
        if not (pa.types.is_floating(arr.type) or pa.types.is_integer(arr.type)):
            raise ValueError(
                f"games: column 'result' must be numeric (1, 0.5 or 0), got {arr.type}"
            )
        values = arr.cast(pa.float64()).to_numpy(zero_copy_only=False)
        bad = ~((values == 0.0) | (values == 0.5) | (values == 1.0))
        if bad.any():
            pos = int(np.argmax(bad))
            raise ValueError(
                f"games: column 'result' must be 1, 0.5 or 0 (Black's score); "
                f"{self.where(pos)} has {values[pos]!r}"
            )
        return values

    def days(self) -> np.ndarray:
        arr = self.raw("date")
        self.missing("date", arr)
        t = arr.type
        if pa.types.is_timestamp(t):
            if t.tz is not None:
                arr = pc.local_timestamp(arr)  # the local calendar date
            arr = arr.cast(pa.timestamp("s"), safe=False).cast(pa.date32())
        elif pa.types.is_date(t):
            arr = arr.cast(pa.date32())
        elif pa.types.is_null(t):  # pragma: no cover - caught by missing() when n > 0
            arr = pa.array([], type=pa.date32())
        elif len(arr):
            raise ValueError(
                f"games: column 'date' must hold dates, got {t}; {self.where(0)} has "
                f"{arr[0].as_py()!r}"
            )
        else:
            arr = pa.array([], type=pa.date32())
        return arr.cast(pa.int32()).to_numpy(zero_copy_only=False).astype(np.int64)


def _encode(black: pa.Array, white: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Player labels sorted (canonical), and each side's index into them."""
    both = pa.concat_arrays([black, white])
    enc = both.dictionary_encode()
    labels = np.asarray(enc.dictionary.to_numpy(zero_copy_only=False), dtype=object)
    order = np.argsort(labels, kind="stable")
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    codes = rank[enc.indices.to_numpy(zero_copy_only=False)]
    m = len(black)
    return labels[order], codes[:m], codes[m:]


def _warm_start(
    prev: Fit, labels: np.ndarray, problem: core.Problem, virtual_rating: float
) -> np.ndarray:
    """Starting ratings from a previous fit, mapped by (player, date).

    A day the previous fit had keeps its rating; a new day between two old ones is interpolated
    linearly, before or after them takes the nearest one; a new player starts at the virtual
    opponent's rating. Then, when they are few, the players with a new day are placed by Newton's
    method on their own ratings with everyone else held fixed (:func:`whr.core.local_newton`).
    """
    old_labels, old_player, old_day, old_r = prev.to_core()
    r0 = np.full(problem.n, virtual_rating)
    if old_r.size == 0 or problem.n == 0:
        return r0
    q = pd.Index(old_labels).get_indexer(labels)[problem.pd_player]
    known = q >= 0
    day0 = min(int(old_day.min()), int(problem.pd_day.min()))
    span = max(int(old_day.max()), int(problem.pd_day.max())) - day0 + 1
    old_key = old_player * span + (old_day - day0)
    key = q[known] * span + (problem.pd_day[known] - day0)
    right = np.searchsorted(old_key, key, side="left")
    right_c = np.minimum(right, old_key.size - 1)
    left = np.maximum(right - 1, 0)
    same_r = (right < old_key.size) & (old_player[right_c] == q[known])
    same_l = (right > 0) & (old_player[left] == q[known])
    exact = same_r & (old_key[right_c] == key)
    d = problem.pd_day[known].astype(np.float64)
    both = same_l & same_r & ~exact
    frac = np.where(
        both, (d - old_day[left]) / np.maximum(old_day[right_c] - old_day[left], 1), 0.0
    )
    val = np.where(
        exact | (same_r & ~same_l),
        old_r[right_c],
        np.where(both, (1 - frac) * old_r[left] + frac * old_r[right_c], old_r[left]),
    )
    r0[known] = val
    # the players with a new player-day (or a new player): place their whole chains first
    new = np.ones(problem.n, dtype=bool)
    new[np.flatnonzero(known)[exact]] = False
    touched = np.unique(problem.pd_player[new])
    free = np.flatnonzero(np.isin(problem.pd_player, touched))
    if 0 < free.size <= max(1000, problem.n // 10):
        r0 = core.local_newton(problem, r0, free)
    return r0


def _problem(
    games: pd.DataFrame | pa.Table, params: FitParams
) -> tuple[np.ndarray, core.Problem, int]:
    """Validate ``games`` and build the solver's problem (temporaries die on return)."""
    inp = _Input(games)
    black = inp.players("black")
    white = inp.players("white")
    result = inp.result()
    days = inp.days()
    same = pc.equal(black, white).to_numpy(zero_copy_only=False)
    if same.any():
        pos = int(np.argmax(same))
        raise ValueError(
            f"games: columns 'black' and 'white' name the same player at {inp.where(pos)}: "
            f"{black[pos].as_py()!r} cannot play themself"
        )
    labels, b, w = _encode(black, white)
    nat = core.NATURAL_PER_ELO
    problem = core.build(
        b,
        w,
        days,
        result,
        labels.size,
        w2=params.w2 * nat**2,
        virtual_games=params.virtual_games,
        virtual_rating=(params.virtual_rating - PUBLISHED_OFFSET) * nat,
    )
    return labels, problem, inp.n


def fit(
    games: pd.DataFrame | pa.Table,
    w2: float = 12.9,
    virtual_games: float = 2,
    virtual_rating: float = 1900.0,
    warm_start: Fit | None = None,
    *,
    tol_elo: float = 0.01,
    tol_grad: float = 1e-6,
    max_iter: int = 100,
) -> Fit:
    """Fit Whole-History Rating (Coulom 2008) to a table of games.

    Parameters
    ----------
    games : pandas.DataFrame or pyarrow.Table
        Columns ``black``, ``white`` (player ids, str), ``result`` (Black's score: 1.0 Black
        won, 0.5 draw, 0.0 White won) and ``date`` (``datetime.date``, ``datetime64`` or Arrow
        ``date32``); other columns are ignored. Order does not matter.
    w2 : float
        Wiener variance of a player's rating, Elo^2 per day.
    virtual_games : float
        Virtual draws on each player's first rating day (they regularise new players and never
        count as games).
    virtual_rating : float
        Published rating of the virtual opponent (1900: internal 0).
    warm_start : Fit, optional
        A previous fit; its ratings, mapped by (player, date), are the starting point.
    tol_elo : float
        Converged when a Newton step changes no rating by more than this many Elo...
    tol_grad : float
        ...and no gradient component of the log posterior exceeds this (per natural unit).
    max_iter : int
        Newton iterations before giving up.

    Returns
    -------
    Fit

    Raises
    ------
    TypeError
        If ``games`` is not a DataFrame or Table, or ``warm_start`` not a Fit.
    ValueError
        If a column is missing or a value is invalid (naming the column and the first offending
        row): a result outside {0, 0.5, 1}, a player against themself, a missing value, a date
        that is not a date; or a parameter out of range.
    ConvergenceError
        If Newton's method does not converge in ``max_iter`` iterations.
    """
    params = FitParams(
        w2=float(w2),
        virtual_games=float(virtual_games),
        virtual_rating=float(virtual_rating),
        tol_elo=float(tol_elo),
        tol_grad=float(tol_grad),
        max_iter=max_iter,
        jitter=core.REFERENCE_JITTER,
    )
    if warm_start is not None and not isinstance(warm_start, Fit):
        raise TypeError(f"warm_start must be a Fit or None, got {type(warm_start).__name__}")
    labels, problem, n_games = _problem(games, params)
    r0 = None
    if warm_start is not None:
        r0 = _warm_start(warm_start, labels, problem, problem.virtual_rating)
    solution = core.solve(
        problem,
        r0,
        tol_elo=params.tol_elo,
        tol_grad=params.tol_grad,
        max_iter=params.max_iter,
        jitter=params.jitter,
    )
    return Fit(labels, problem, solution, params, n_games)
