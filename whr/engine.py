"""Whole-History Rating of a table of games: ``whr.fit`` and its result, ``Fit``.

The adapter between tables (pandas or Arrow, player ids as strings, calendar dates) and the
solver in :mod:`whr.core` (integer indices, day numbers, natural units). Ratings come out on the
published scale: Elo, internal 0 = published 1900.

Reference: R. Coulom, "Whole-History Rating: A Bayesian Rating System for Players of
Time-Varying Strength", Computers and Games 2008.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime
from functools import cached_property
from typing import Any, cast

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr import core
from whr.core import ConvergenceError
from whr.params import FitParams
from whr.tables import HISTORY, to_frame

__all__ = [
    "PUBLISHED_OFFSET",
    "ConvergenceError",
    "Fit",
    "FitParams",
    "RatingDays",
    "build_problem",
    "fit",
    "history_rating_on",
    "rating_days",
    "ratings_at",
]

#: Published rating = internal Elo rating + 1900 (the virtual opponent's default rating).
PUBLISHED_OFFSET = 1900.0
_EPOCH = date(1970, 1, 1)
_COLUMNS = ("black", "white", "result", "date")
_DEFAULT_PARAMS = FitParams()


class Fit:
    """The result of :func:`fit`: every player's rating on every day they played.

    Attributes
    ----------
    history : pandas.DataFrame
        Schema ``whr.tables.HISTORY``: ``player``, ``date``, ``rating`` (published scale),
        ``uncertainty`` (posterior standard deviation, Elo), ``games`` (rated games that day).
        Sorted by player, then date.
    params : FitParams
        The parameters of the fit (``params.as_dict()`` for a manifest).
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
        self.params = params
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
            f"w2_elo2_per_day={self.params.w2_elo2_per_day})"
        )

    @property
    def ratings_elo(self) -> np.ndarray:
        """Published rating of every player-day, in the order of ``history``."""
        return self._r * core.ELO_PER_NATURAL + PUBLISHED_OFFSET

    @property
    def uncertainties_elo(self) -> np.ndarray:
        """Standard deviation of every player-day's rating (Elo), in the order of ``history``."""
        out: np.ndarray = np.sqrt(self._var) * core.ELO_PER_NATURAL
        return out

    @cached_property
    def history(self) -> pd.DataFrame:
        table = pa.table(
            {
                "player": pa.array(self._players[self._pd_player], type=pa.string()),
                "date": pa.array(self._pd_day.astype(np.int32), type=pa.int32()).cast(pa.date32()),
                "rating": pa.array(self.ratings_elo),
                "uncertainty": pa.array(self.uncertainties_elo),
                "games": pa.array(self._pd_games.astype(np.int32)),
            },
            schema=HISTORY,
        )
        return to_frame(table)

    def rating_on(self, d: date | datetime | np.datetime64 | pd.Timestamp) -> pd.DataFrame:
        """Every player rated on or before day ``d``, with their rating on that day.

        The rule of the RIF rating rules 2021 read with Coulom (2008), in one place
        (:func:`whr.core.rating_on_days`): between two rating days the rating is interpolated
        linearly (the Brownian bridge mean) and the variance is ``w2 (d - a)(b - d) / (b - a)``
        plus the square of the linearly interpolated standard deviation; after the last rating
        day the rating stays and its variance grows by ``w2`` per day; players whose first
        rating day is after ``d`` are not listed (as the reference's
        ``get_player_rating_on_day``).

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
        players = np.arange(self.n_players)
        rating, sd, last = core.rating_on_days(
            self._pd_player,
            self._pd_day,
            self.ratings_elo,
            players,
            np.full(players.size, day),
            sd=self.uncertainties_elo,
            w2=self.params.w2_elo2_per_day,
        )
        rated = last >= 0
        assert sd is not None
        return _rating_frame(
            self._players[rated], rating[rated], sd[rated], self._pd_day[last[rated]]
        )

    def fitted_on(self, players: np.ndarray, problem: core.Problem) -> bool:
        """True when ``players`` and ``problem`` (:func:`build_problem`) are those of this fit:
        the same players, player-days and games per player-day."""
        return bool(
            np.array_equal(players, self._players)
            and np.array_equal(problem.pd_player, self._pd_player)
            and np.array_equal(problem.pd_day, self._pd_day)
            and np.array_equal(problem.pd_games, self._pd_games)
        )

    def ratings_at(self, players: np.ndarray, days: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Ratings and uncertainties of ``players`` on ``days`` (one query each), by
        :meth:`rating_on`'s rule, as arrays: what ``rating_on`` gives, for a few players, without
        a table of everyone.

        Parameters
        ----------
        players : array of str, shape (q,)
        days : array of datetime64[D] (or dates), shape (q,)

        Returns
        -------
        rating, uncertainty : numpy.ndarray of float64, shape (q,)
            Published rating and its standard deviation (Elo); NaN where the player has no
            rating day on or before that day (or is not in the fit).
        """
        q_day = np.asarray(days, dtype="datetime64[D]").astype(np.int64)
        players = np.asarray(players, dtype=object)
        if q_day.shape != players.shape or players.ndim != 1:
            raise ValueError(
                f"players and days must be 1-d of the same length, got shapes {players.shape} "
                f"and {q_day.shape}"
            )
        at = pd.Index(self._players).get_indexer(pd.Index(players))
        rating, sd, _ = core.rating_on_days(
            self._pd_player,
            self._pd_day,
            self.ratings_elo,
            at,
            q_day,
            sd=self.uncertainties_elo,
            w2=self.params.w2_elo2_per_day,
        )
        assert sd is not None
        return rating, sd

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
    """Columns of a table (games, or a rating history), read as validated Arrow arrays.

    Parameters
    ----------
    table : pandas.DataFrame or pyarrow.Table
    name : str
        The argument's name, for messages.
    columns : tuple of str
        The columns it must have.
    """

    def __init__(
        self,
        table: pd.DataFrame | pa.Table,
        name: str = "games",
        columns: tuple[str, ...] = _COLUMNS,
    ) -> None:
        self.name = name
        if isinstance(table, pd.DataFrame):
            self.index: pd.Index | None = table.index
            names = list(table.columns)
        elif isinstance(table, pa.Table):
            self.index = None
            names = table.column_names
        else:
            raise TypeError(
                f"{name} must be a pandas DataFrame or a pyarrow Table, got {type(table).__name__}"
            )
        missing = [c for c in columns if c not in names]
        if missing:
            raise ValueError(f"{name} is missing columns {missing}; expected {list(columns)}")
        self.table = table
        self.n = len(table)

    def where(self, pos: int) -> str:
        if self.index is None:
            return f"row {pos}"
        label = self.index[pos]
        return f"row {pos}" if label == pos else f"row {pos} (index {label!r})"

    def raw(self, name: str) -> pa.Array[Any]:
        arr = self._raw(name)
        if len(arr) == 0 and pa.types.is_null(arr.type):  # an empty column of no type
            numeric = {"result": pa.float64(), "rating": pa.float64(), "date": pa.date32()}
            return pa.array([], type=numeric.get(name, pa.string()))
        return arr

    def _raw(self, name: str) -> pa.Array[Any]:
        if isinstance(self.table, pa.Table):
            col = self.table.column(name)
            chunks = col.chunks
            return chunks[0] if len(chunks) == 1 else col.combine_chunks()
        series = self.table[name]
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
            raise ValueError(f"{self.name}: column {name!r} could not be read: {exc}") from exc

    def _first_non_date(self, series: pd.Series) -> None:
        for pos, value in enumerate(series.to_numpy()):
            if value is None or (isinstance(value, float) and math.isnan(value)):
                continue
            if value is pd.NaT:
                continue
            if not isinstance(value, (date, np.datetime64)):
                raise ValueError(
                    f"{self.name}: column 'date' must hold dates; {self.where(pos)} has "
                    f"{value!r} ({type(value).__name__})"
                )

    def missing(self, name: str, arr: pa.Array[Any]) -> None:
        if arr.null_count:
            pos = int(np.argmax(arr.is_null().to_numpy(zero_copy_only=False)))
            raise ValueError(
                f"{self.name}: column {name!r} has a missing value at {self.where(pos)}"
            )

    def players(self, name: str) -> pa.Array[Any]:
        arr = self.raw(name)
        self.missing(name, arr)
        if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            if pa.types.is_integer(arr.type) or pa.types.is_dictionary(arr.type):
                arr = arr.cast(pa.string())
            else:
                raise ValueError(
                    f"{self.name}: column {name!r} must hold player ids (str), got {arr.type}"
                )
        return arr.cast(pa.string())

    def numbers(self, name: str) -> np.ndarray:
        """A numeric column with no missing value (NaN counts as missing), as float64."""
        arr = self.raw(name)
        if pa.types.is_floating(arr.type):
            nan = pc.is_nan(arr).to_numpy(zero_copy_only=False)
            nan = np.where(arr.is_null().to_numpy(zero_copy_only=False), True, nan)
            if nan.any():
                pos = int(np.argmax(nan))
                raise ValueError(
                    f"{self.name}: column {name!r} has a missing value at {self.where(pos)}"
                )
        self.missing(name, arr)
        if not (pa.types.is_floating(arr.type) or pa.types.is_integer(arr.type)):
            raise ValueError(f"{self.name}: column {name!r} must be numeric, got {arr.type}")
        return arr.cast(pa.float64()).to_numpy(zero_copy_only=False)

    def result(self) -> np.ndarray:
        values = self.numbers("result")
        bad = ~((values == 0.0) | (values == 0.5) | (values == 1.0))
        if bad.any():
            pos = int(np.argmax(bad))
            raise ValueError(
                f"{self.name}: column 'result' must be 1, 0.5 or 0 (Black's score); "
                f"{self.where(pos)} has {values[pos]!r}"
            )
        return values

    def days(self) -> np.ndarray:
        """The ``date`` column as day numbers (days since 1970-01-01)."""
        arr = self.raw("date")
        self.missing("date", arr)
        t = arr.type
        if pa.types.is_timestamp(t):
            if t.tz is not None:
                # the local calendar date (pa.types.is_timestamp narrows nothing for mypy)
                arr = pc.local_timestamp(cast(pa.TimestampArray, arr))
            arr = arr.cast(pa.timestamp("s"), safe=False).cast(pa.date32())
        elif pa.types.is_date(t):
            arr = arr.cast(pa.date32())
        elif len(arr):
            raise ValueError(
                f"{self.name}: column 'date' must hold dates, got {t}; {self.where(0)} has "
                f"{arr[0].as_py()!r}"
            )
        else:
            arr = pa.array([], type=pa.date32())
        return arr.cast(pa.int32()).to_numpy(zero_copy_only=False).astype(np.int64)


def _encode(*columns: pa.Array[Any]) -> tuple[np.ndarray, list[np.ndarray]]:
    """Player labels sorted (canonical), and each column's index into them."""
    both = pa.concat_arrays(list(columns))
    enc = both.dictionary_encode()
    labels = np.asarray(enc.dictionary.to_numpy(zero_copy_only=False), dtype=object)
    # Arrow sorts by UTF-8 bytes, which is code point order: the order of Python's str
    order = pc.sort_indices(enc.dictionary).to_numpy(zero_copy_only=False)
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    codes = rank[enc.indices.to_numpy(zero_copy_only=False)]
    bounds = np.cumsum([0] + [len(c) for c in columns])
    return labels[order], [codes[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


@dataclass(frozen=True)
class RatingDays:
    """Ratings on rating days, as the solver's arrays: sorted by player, then day
    (:func:`rating_days` reads them from a history table)."""

    labels: np.ndarray  # player ids, sorted
    player: np.ndarray  # int64 index into labels
    day: np.ndarray  # int64 day number
    rating: np.ndarray  # float64, published scale
    uncertainty: np.ndarray | None = None  # float64, Elo; read when asked for

    def on(self, player: np.ndarray, day: np.ndarray) -> np.ndarray:
        """Rating of ``player`` (index into ``labels``; -1: none) on ``day``; NaN where none."""
        return core.rating_on_days(self.player, self.day, self.rating, player, day)[0]

    def index(self, labels: np.ndarray) -> np.ndarray:
        """Position of each of ``labels`` in ``self.labels``; -1 when absent."""
        found: np.ndarray = pd.Index(self.labels).get_indexer(
            pd.Index(np.asarray(labels, dtype=object))
        )
        return found


def rating_days(
    history: pd.DataFrame | pa.Table, name: str, *, uncertainty: bool = False
) -> RatingDays:
    """Read a rating history (``player``, ``date``, ``rating`` published, and with
    ``uncertainty`` its column of that name; e.g. HISTORY)."""
    columns = ("player", "date", "rating") + (("uncertainty",) if uncertainty else ())
    inp = _Input(history, name, columns)
    labels, (player,) = _encode(inp.players("player"))
    day = inp.days()
    rating = inp.numbers("rating")
    order = np.lexsort((day, player))
    player, day, rating = player[order], day[order], rating[order]
    sd = inp.numbers("uncertainty")[order] if uncertainty else None
    dup = (player[1:] == player[:-1]) & (day[1:] == day[:-1])
    if dup.any():
        k = int(np.argmax(dup))
        raise ValueError(
            f"{name}: player {labels[player[k]]!r} has two ratings on day "
            f"{_EPOCH.fromordinal(_EPOCH.toordinal() + int(day[k]))}"
        )
    return RatingDays(labels, player, day, rating, sd)


def history_rating_on(
    history: pd.DataFrame | pa.Table,
    d: date | datetime | np.datetime64 | pd.Timestamp,
    params: FitParams = _DEFAULT_PARAMS,
) -> pd.DataFrame:
    """:meth:`Fit.rating_on` read from a rating history table: every player rated on or
    before day ``d``, with their rating and its uncertainty on that day, by the same rule.

    Parameters
    ----------
    history : pandas.DataFrame or pyarrow.Table
        ``player`` (str), ``date``, ``rating`` (published scale), ``uncertainty`` (Elo): e.g.
        a list's ``history.parquet`` read back (``whr.tables.HISTORY``); rows in any order.
    d : date
        The day.
    params : FitParams
        Its ``w2_elo2_per_day`` is the Wiener variance by which an uncertainty grows after a
        player's last rating day and between two (that of the fit that made ``history``).

    Returns
    -------
    pandas.DataFrame
        As :meth:`Fit.rating_on`: ``player``, ``rating``, ``uncertainty``, ``last_date``,
        sorted by player. For a fit's own history it is that fit's ``rating_on(d)``.
    """
    if not isinstance(params, FitParams):
        raise TypeError(f"params must be a whr.FitParams, got {type(params).__name__}")
    day = _day_number(d, "d")
    h = rating_days(history, "history", uncertainty=True)
    players = np.arange(h.labels.size)
    rating, sd, last = core.rating_on_days(
        h.player,
        h.day,
        h.rating,
        players,
        np.full(players.size, day),
        sd=h.uncertainty,
        w2=params.w2_elo2_per_day,
    )
    rated = last >= 0
    assert sd is not None
    return _rating_frame(h.labels[rated], rating[rated], sd[rated], h.day[last[rated]])


def ratings_at(
    history: pd.DataFrame | pa.Table, players: np.ndarray, days: np.ndarray
) -> np.ndarray:
    """Ratings of ``players`` on ``days`` from a rating history, by :meth:`Fit.rating_on`'s rule.

    Parameters
    ----------
    history : pandas.DataFrame or pyarrow.Table
        ``player`` (str), ``date``, ``rating`` (published scale): e.g. ``Fit.history`` or a
        ``history.parquet`` read back; rows in any order.
    players : array of str, shape (q,)
        Player ids, one per query.
    days : array of datetime64[D] (or dates), shape (q,)
        Days, one per query.

    Returns
    -------
    numpy.ndarray of float64, shape (q,)
        Published ratings; NaN where the player has no rating day on or before that day.
    """
    h = rating_days(history, "history")
    q_day = np.asarray(days, dtype="datetime64[D]").astype(np.int64)
    players = np.asarray(players, dtype=object)
    if q_day.shape != players.shape or players.ndim != 1:
        raise ValueError(
            f"players and days must be 1-d of the same length, got shapes {players.shape} "
            f"and {q_day.shape}"
        )
    return h.on(h.index(players), q_day)


def _warm_start(
    prev: Fit, labels: np.ndarray, problem: core.Problem, params: FitParams
) -> np.ndarray:
    """Starting ratings from a previous fit, mapped by (player, date).

    Each new player-day takes the previous fit's rating of that player on that day
    (:meth:`Fit.rating_on`'s rule: a day the previous fit had keeps its rating, a new day
    between two old ones is interpolated, after them the last one stays); a player-day with no
    such rating (a new player, or a day before the player's first) starts at the virtual
    opponent's rating. Then, when they are few, the players with a new player-day are placed by
    Newton's method on their own ratings with everyone else held fixed
    (:func:`whr.core.local_newton`).
    """
    old_labels, old_player, old_day, old_r = prev.to_core()
    virtual = (params.virtual_rating - PUBLISHED_OFFSET) * core.NATURAL_PER_ELO
    q = pd.Index(old_labels).get_indexer(labels)[problem.pd_player]
    r0, _, last = core.rating_on_days(old_player, old_day, old_r, q, problem.pd_day)
    # the players with a new player-day (or new players): place their whole chains first
    new = (last < 0) | (old_day[np.maximum(last, 0)] != problem.pd_day)
    r0 = np.where(np.isnan(r0), virtual, r0)
    touched = np.unique(problem.pd_player[new])
    free = np.flatnonzero(np.isin(problem.pd_player, touched))
    if 0 < free.size <= max(1000, problem.n // 10):
        r0 = core.local_newton(
            problem,
            r0,
            free,
            tol_elo=params.tol_elo,
            tol_grad=params.tol_grad_per_natural_unit,
            max_iter=params.max_newton_iterations,
        )
    return r0


def build_problem(
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
    labels, (b, w) = _encode(black, white)
    nat = core.NATURAL_PER_ELO
    problem = core.build(
        b,
        w,
        days,
        result,
        labels.size,
        w2=params.w2_elo2_per_day * nat**2,
        virtual_games=params.virtual_games,
        virtual_rating=(params.virtual_rating - PUBLISHED_OFFSET) * nat,
    )
    return labels, problem, inp.n


def _solve(problem: core.Problem, r0: np.ndarray | None, params: FitParams) -> core.Solution:
    """:func:`whr.core.solve` with the fit's parameters; a failure names them."""
    try:
        return core.solve(
            problem,
            r0,
            tol_elo=params.tol_elo,
            tol_grad=params.tol_grad_per_natural_unit,
            max_iter=params.max_newton_iterations,
            jitter=params.jitter_per_natural2,
        )
    except ConvergenceError as exc:
        raise ConvergenceError(
            f"{exc} (FitParams: max_newton_iterations={params.max_newton_iterations}, "
            f"tol_elo={params.tol_elo}, "
            f"tol_grad_per_natural_unit={params.tol_grad_per_natural_unit})"
        ) from exc


def fit(
    games: pd.DataFrame | pa.Table,
    params: FitParams = _DEFAULT_PARAMS,
    *,
    warm_start: Fit | None = None,
) -> Fit:
    """Fit Whole-History Rating (Coulom 2008) to a table of games.

    Parameters
    ----------
    games : pandas.DataFrame or pyarrow.Table
        Columns ``black``, ``white`` (player ids, str), ``result`` (Black's score: 1.0 Black
        won, 0.5 draw, 0.0 White won) and ``date`` (``datetime.date``, ``datetime64`` or Arrow
        ``date32``); other columns are ignored. Order does not matter.
    params : FitParams, default ``FitParams()``
        The model's parameters (``w2_elo2_per_day``, ``virtual_games``, ``virtual_rating``) and
        the solver's tolerances; the defaults are those of the RIF rating rules 2021.
    warm_start : Fit, optional
        A previous fit; its ratings, mapped by (player, date), are the starting point. The
        answer is the same as without it; only the time differs.

    Returns
    -------
    Fit

    Raises
    ------
    TypeError
        If ``games`` is not a DataFrame or Table, ``params`` not a FitParams, or
        ``warm_start`` not a Fit.
    ValueError
        If a column is missing or a value is invalid (naming the column and the first offending
        row): a result outside {0, 0.5, 1}, a player against themself, a missing value, a date
        that is not a date.
    ConvergenceError
        If Newton's method does not converge in ``params.max_newton_iterations`` iterations.
    """
    if not isinstance(params, FitParams):
        raise TypeError(f"params must be a whr.FitParams, got {type(params).__name__}: {params!r}")
    if warm_start is not None and not isinstance(warm_start, Fit):
        raise TypeError(f"warm_start must be a Fit or None, got {type(warm_start).__name__}")
    labels, problem, n_games = build_problem(games, params)
    r0 = None
    if warm_start is not None and warm_start.n_player_days and problem.n:
        r0 = _warm_start(warm_start, labels, problem, params)
    return Fit(labels, problem, _solve(problem, r0, params), params, n_games)
