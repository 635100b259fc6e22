"""Each tournament's change at the time: a player's rating on the list just before the
tournament's games were first rated, and on the first list that rated them.

Whole-History Rating re-estimates the past every day: today's fit moves the ratings of every
earlier day, so the change a tournament made, as the lists showed it, is not in today's fit. It
exists only if it is kept when the tournament enters the lists, or replayed. Both ways give one
table, ``whr.tables.TOURNAMENT_CHANGES`` (one row per player and tournament):

- :func:`daily`: a daily run's rows, for the tournaments new to its list, from the previous
  list's rating history and today's fit; no extra fit (``source`` ``daily``);
- :func:`replay`: the whole history replayed list by list, one warm-started fit per day on
  which games entered the lists (``source`` ``replay``). :meth:`Timeline.ranges` cuts the days
  into ranges that can be replayed apart (each starts from a cold fit of the games before it)
  and :func:`combine` joins their tables: the same table as one replay, to the fits'
  convergence tolerance (``FitParams.tol_elo``).

When a game enters the lists
----------------------------
A list of day D rates the games dated on or before D of the tournaments that have ended by D
(``whr.select``: ``after_as_of``, ``unfinished_tournament``). A game's *entry day* is therefore
its date (its own, else its tournament's last day) or its tournament's last day when that is
later. A tournament is *new* to a list when none of its games was on the previous list; it is
first rated on the day its first games enter, which, for a tournament whose last day is known,
is that day for all its games. A game added to an old tournament later is nobody's new
tournament: it is counted in its players' ``other_new_games`` on the list that first rates it.

Pure functions of tables: no files, no Prefect. The module reads only :mod:`whr.engine`,
:mod:`whr.tables` and :mod:`whr.params`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr.engine import Fit, fit, history_rating_on
from whr.params import FitParams
from whr.tables import (
    TOURNAMENT_CHANGES,
    as_date,
    conform,
    dates_of,
    days_of,
    empty,
    nearest_float32,
)

__all__ = ["Timeline", "carry", "combine", "daily", "replay", "timeline"]

_EPOCH = dt.date(1970, 1, 1)
_KEY = ["first_list_date", "tournament_id", "player"]
_DEFAULT_PARAMS = FitParams()

DAY_WORK = 7_000
"""What a replayed day costs beyond its fit's games, in games: a day's fit took 9 ms plus 1.3 µs
per game (40,000 synthetic games, least squares over four ranges of 200 to 871 days)."""


def _date(day: int) -> dt.date:
    return _EPOCH + dt.timedelta(days=int(day))


def _day(d: dt.date) -> int:
    return (d - _EPOCH).days


# ---------------------------------------------------------------------------------------------
# Reading the games


def _frame(table: object, name: str, columns: tuple[str, ...]) -> pd.DataFrame:
    """The ``columns`` of a DataFrame or Arrow table, as a DataFrame (nothing else is copied)."""
    if isinstance(table, pa.Table):
        missing = [c for c in columns if c not in table.column_names]
        if not missing:
            frame: pd.DataFrame = table.select(list(columns)).to_pandas()
            return frame
    elif isinstance(table, pd.DataFrame):
        missing = [c for c in columns if c not in table.columns]
        if not missing:
            return table.loc[:, list(columns)]
    else:
        raise TypeError(
            f"{name} must be a pandas DataFrame or a pyarrow Table, got {type(table).__name__}"
        )
    raise ValueError(f"{name} is missing columns {missing}; expected {list(columns)}")


def _present(frame: pd.DataFrame, column: str, name: str) -> pd.Series:
    """A column with no missing value; a missing one raises, naming the row."""
    values = frame[column]
    missing = values.isna().to_numpy()
    if missing.any():
        pos = int(np.argmax(missing))
        raise ValueError(f"{name}: column {column!r} has a missing value at row {pos}")
    return values


def _ids(frame: pd.DataFrame, column: str, name: str) -> np.ndarray:
    """A column of ids as an object array of str; a missing id raises, naming the row."""
    return np.asarray(_present(frame, column, name).astype(str).to_numpy(), dtype=object)


def _among(values: np.ndarray | pd.Series, of: np.ndarray | pd.Series) -> np.ndarray:
    """For each of ``values`` (ids), whether it is one of ``of``, compared as text: a hash
    lookup (``np.isin`` compares object arrays by sorting them in Python: minutes at 100,000
    games)."""
    text = pa.large_string()
    of_set = pc.unique(pa.array(of).cast(text))
    found = pc.is_in(pa.array(values).cast(text), value_set=of_set)
    return np.asarray(found.to_numpy(zero_copy_only=False), dtype=bool)


def _results(frame: pd.DataFrame, name: str) -> np.ndarray:
    values = pd.to_numeric(frame["result"], errors="coerce").to_numpy(dtype=np.float64)
    bad = ~np.isin(values, (0.0, 0.5, 1.0))
    if bad.any():
        pos = int(np.argmax(bad))
        raise ValueError(
            f"{name}: column 'result' must be 1, 0.5 or 0 (Black's score); row {pos} has "
            f"{frame['result'].iloc[pos]!r}"
        )
    return values


def _days(values: object, name: str, column: str) -> np.ndarray:
    """Dates as day numbers (int64); a missing date raises, naming the row."""
    days = days_of(values)
    missing = np.isnat(days)
    if missing.any():
        raise ValueError(
            f"{name}: column {column!r} has a missing value at row {int(np.argmax(missing))}"
        )
    return days.astype(np.int64)


# ---------------------------------------------------------------------------------------------
# The rows of a list: who played which new tournament, and how


def _rows(
    black: np.ndarray,
    white: np.ndarray,
    result: np.ndarray,
    tournament: np.ndarray,
    entered: np.ndarray,
    first: np.ndarray,
) -> pd.DataFrame:
    """The rows for the games that entered lists (one element per game): one per list day,
    tournament first rated that day (``first``: the game is one of them) and player.

    Returns ``entered`` (int64 day), ``tournament_id``, ``player``, ``games``, ``score``,
    ``other_new_games``, sorted by the first three.
    """
    sides = pd.DataFrame(
        {
            "entered": np.concatenate([entered, entered]),
            "tournament_id": pd.Series(np.concatenate([tournament, tournament]), dtype="str"),
            "player": pd.Series(np.concatenate([black, white]), dtype="str"),
            "score": np.concatenate([result, 1.0 - result]),
            "first": np.concatenate([first, first]),
        }
    )
    new_games = sides.groupby(["entered", "player"], sort=False).size().rename("new_games")
    rows = (
        sides[sides["first"].to_numpy(dtype=bool)]
        .groupby(["entered", "tournament_id", "player"], sort=True)
        .agg(games=("score", "size"), score=("score", "sum"))
        .reset_index()
    )
    rows = rows.join(new_games, on=["entered", "player"])
    rows["other_new_games"] = rows["new_games"] - rows["games"]
    return rows.drop(columns="new_games")


def _on(ratings: pd.DataFrame, players: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each player's rating and uncertainty in a ``Fit.rating_on`` frame; NaN when absent."""
    if not len(ratings):
        return np.full(players.size, np.nan), np.full(players.size, np.nan)
    at = pd.Index(ratings["player"]).get_indexer(pd.Index(players))
    found = at >= 0
    rating = ratings["rating"].to_numpy(dtype=np.float64)
    sd = ratings["uncertainty"].to_numpy(dtype=np.float64)
    return (
        np.where(found, rating[np.maximum(at, 0)], np.nan),
        np.where(found, sd[np.maximum(at, 0)], np.nan),
    )


def _table(
    rows: pd.DataFrame,
    ratings: np.ndarray,
    previous_day: np.ndarray,
    source: str,
) -> pd.DataFrame:
    """The table of ``rows`` (``_rows``) with ``ratings``: rows ``rating_before``,
    ``uncertainty_before`` (on ``previous_day``, NaN: not on that list), ``rating_after``,
    ``uncertainty_after`` (on ``entered``), each as the lists publish them
    (:func:`whr.tables.nearest_float32`)."""
    if np.isnan(ratings[2]).any():  # a game rated on a list rates its players there
        raise AssertionError("a player of a new tournament has no rating on its list")
    ratings = nearest_float32(ratings)
    entered = rows["entered"].to_numpy(dtype=np.int64)
    return pd.DataFrame(
        {
            "player": rows["player"].to_numpy(),
            "tournament_id": rows["tournament_id"].to_numpy(),
            "first_list_date": dates_of(entered).to_numpy(),
            "previous_list_date": dates_of(np.broadcast_to(previous_day, entered.shape)).to_numpy(),
            "rating_before": ratings[0],
            "uncertainty_before": ratings[1],
            "rating_after": ratings[2],
            "uncertainty_after": ratings[3],
            "games": rows["games"].to_numpy(dtype=np.int32),
            "score": rows["score"].to_numpy(dtype=np.float64),
            "other_new_games": rows["other_new_games"].to_numpy(dtype=np.int32),
            "source": source,
        }
    )


def combine(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """One table of ``TOURNAMENT_CHANGES`` from several (the ranges of a replay, say): sorted
    by ``first_list_date``, ``tournament_id``, ``player``.

    Raises
    ------
    ValueError
        If a player and tournament appear twice (a tournament is first rated once).
    """
    frames = [p for p in parts if len(p)]
    if not frames:
        return empty(TOURNAMENT_CHANGES)
    table = pd.concat(frames, ignore_index=True).sort_values(_KEY, kind="stable")
    twice = table.duplicated(["player", "tournament_id"])
    if twice.any():
        row = table[twice.to_numpy()].iloc[0]
        raise ValueError(
            f"player {row['player']!r} and tournament {row['tournament_id']!r} appear twice "
            "(overlapping ranges?)"
        )
    return conform(table.reset_index(drop=True), TOURNAMENT_CHANGES)


def carry(kept: list[pd.DataFrame | None]) -> pd.DataFrame:
    """One table of ``TOURNAMENT_CHANGES`` from the tables ``kept``, earliest first (the
    previous list's table, then the day's new rows): a player and tournament already kept keep
    their first row, never recomputed. Sorted by ``first_list_date``, ``tournament_id``,
    ``player``; None (nothing kept) and empty tables are skipped."""
    frames = [conform(t, TOURNAMENT_CHANGES) for t in kept if t is not None and len(t)]
    if not frames:
        return empty(TOURNAMENT_CHANGES)
    table = pd.concat(frames, ignore_index=True)
    table = table[~table.duplicated(["player", "tournament_id"]).to_numpy()]
    return conform(
        table.sort_values(_KEY, kind="stable").reset_index(drop=True), TOURNAMENT_CHANGES
    )


# ---------------------------------------------------------------------------------------------
# The daily run


def daily(
    previous_history: pd.DataFrame | pa.Table,
    previous_as_of: dt.date,
    previous_games: pd.DataFrame | pa.Table,
    today: Fit,
    as_of: dt.date,
    games: pd.DataFrame | pa.Table,
) -> pd.DataFrame:
    """The rows of the tournaments new to today's list, from the fits a daily run has.

    For each tournament none of whose games was on the previous list, and each of its players:
    ``rating_before``, the player's rating on the previous list (``previous_history`` on
    ``previous_as_of``, by :meth:`whr.Fit.rating_on`'s rule: :func:`whr.engine.history_rating_on`;
    null for a player not on it), and ``rating_after``, their rating on today's list
    (``today.rating_on(as_of)``). No fit is made.

    Parameters
    ----------
    previous_history : pandas.DataFrame or pyarrow.Table
        The previous list's rating history (``whr.tables.HISTORY``: its ``history.parquet``).
    previous_as_of : datetime.date
        The previous list's date.
    previous_games : pandas.DataFrame or pyarrow.Table
        The previous list's rated games (``whr.tables.RATED_GAMES``: its ``games.parquet``);
        ``game_id`` and ``tournament_id`` are read.
    today : Fit
        Today's fit (its parameters are taken to be the previous list's too).
    as_of : datetime.date
        Today's list date, after ``previous_as_of``.
    games : pandas.DataFrame or pyarrow.Table
        The games ``today`` was fitted on: ``game_id``, ``tournament_id``, ``black``,
        ``white``, ``result`` are read.

    Returns
    -------
    pandas.DataFrame
        Schema ``whr.tables.TOURNAMENT_CHANGES``, ``source`` ``daily``, sorted by tournament,
        then player.

    Raises
    ------
    TypeError, ValueError
        On an argument of the wrong type, a missing column or value, dates out of order, or
        ``games`` that are not the games of ``today`` (naming the argument).
    """
    previous_as_of = as_date(previous_as_of, "previous_as_of")
    as_of = as_date(as_of, "as_of")
    if as_of <= previous_as_of:
        raise ValueError(f"as_of must be after previous_as_of {previous_as_of}, got {as_of}")
    if not isinstance(today, Fit):
        raise TypeError(f"today must be a whr.Fit, got {type(today).__name__}")
    g = _frame(games, "games", ("game_id", "tournament_id", "black", "white", "result"))
    if len(g) != today.n_games:
        raise ValueError(
            f"games must be the games today was fitted on: {len(g)} games, the fit has "
            f"{today.n_games}"
        )
    p = _frame(previous_games, "previous_games", ("game_id", "tournament_id"))
    for name, frame in (("games", g), ("previous_games", p)):
        for column in frame.columns.drop("result", errors="ignore"):
            _present(frame, column, name)
    result = _results(g, "games")
    new = ~_among(g["game_id"], p["game_id"])  # only the new games are read further
    g = g[new]
    tournament = _ids(g, "tournament_id", "games")
    rows = _rows(
        _ids(g, "black", "games"),
        _ids(g, "white", "games"),
        result[new],
        tournament,
        np.full(len(g), _day(as_of), dtype=np.int64),
        ~_among(tournament, p["tournament_id"]),
    )
    players = rows["player"].to_numpy(dtype=object)
    before = history_rating_on(previous_history, previous_as_of, today.params)
    ratings = np.array(
        [
            *_on(before, players),
            *today.ratings_at(players, np.full(players.size, np.datetime64(as_of, "D"))),
        ]
    ).reshape(4, players.size)
    return combine([_table(rows, ratings, np.array(_day(previous_as_of)), "daily")])


# ---------------------------------------------------------------------------------------------
# The replay


@dataclass(frozen=True)
class Timeline:
    """Rated games in the order they entered the lists: what a replay reads (:func:`timeline`).

    Attributes
    ----------
    games : pyarrow.Table
        ``black``, ``white``, ``result``, ``date`` (what a fit reads), sorted by entry day (in
        input order within a day).
    days : numpy.ndarray of int64
        The entry days (day numbers since 1970-01-01), each once, ascending: the days on which
        a list changed.
    fitted : numpy.ndarray of int64
        ``fitted[i]``: the games entered on or before ``days[i]`` (``games[:fitted[i]]`` is the
        list of that day).
    rows : pandas.DataFrame
        Every row of the table but its ratings (``entered``, ``tournament_id``, ``player``,
        ``games``, ``score``, ``other_new_games``), sorted by entry day, tournament, player.
    row_ends : numpy.ndarray of int64
        ``rows[row_ends[i-1]:row_ends[i]]`` are the rows of ``days[i]``.
    """

    games: pa.Table
    days: np.ndarray
    fitted: np.ndarray
    rows: pd.DataFrame
    row_ends: np.ndarray

    def __len__(self) -> int:
        return int(self.days.size)

    def day(self, i: int) -> dt.date:
        """The ``i``-th entry day."""
        return _date(self.days[i])

    def span(self, first: dt.date | None = None, last: dt.date | None = None) -> range:
        """The positions of the entry days from ``first`` to ``last`` (both included; None:
        from the first, to the last)."""
        lo = 0 if first is None else int(np.searchsorted(self.days, _day(first), side="left"))
        hi = len(self) if last is None else int(np.searchsorted(self.days, _day(last), "right"))
        return range(lo, max(lo, hi))

    def ranges(
        self, n: int, first: dt.date | None = None, last: dt.date | None = None
    ) -> list[tuple[dt.date, dt.date]]:
        """The entry days from ``first`` to ``last`` cut into at most ``n`` consecutive ranges
        of about equal work, as ``(first day, last day)`` pairs (both included).

        A day's work is taken to be its fit's games (``fitted``) and :data:`DAY_WORK` more:
        the ranges of the later years have fewer days.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be an integer >= 1, got {n!r}")
        span = self.span(first, last)
        if not span:
            return []
        work = np.cumsum(self.fitted[span.start : span.stop] + DAY_WORK, dtype=np.float64)
        cuts = np.searchsorted(work, work[-1] * np.arange(1, n) / n, side="right")
        bounds = np.unique(np.concatenate([[0], cuts, [len(span)]])) + span.start
        return [
            (self.day(a), self.day(b - 1)) for a, b in zip(bounds[:-1], bounds[1:], strict=True)
        ]


def timeline(
    games: pd.DataFrame | pa.Table, tournaments: pd.DataFrame | pa.Table | None = None
) -> Timeline:
    """Order the rated games of a list by the day they entered the lists.

    Parameters
    ----------
    games : pandas.DataFrame or pyarrow.Table
        The rated games (``whr.tables.GAMES`` or ``RATED_GAMES``, e.g. ``Selection.rated``):
        ``tournament_id``, ``black``, ``white``, ``result``, ``date`` are read. Order does not
        matter.
    tournaments : pandas.DataFrame or pyarrow.Table, optional
        ``tournament_id`` and ``end`` (``whr.tables.TOURNAMENTS``, e.g.
        ``Selection.tournaments``; the first row of an id counts): a game enters no list before
        its tournament's last day. Without it, a game enters on its date.

    Raises
    ------
    TypeError, ValueError
        On a table of the wrong type, a missing column, or a missing id, date or result
        (naming the column and the row).
    """
    g = _frame(games, "games", ("tournament_id", "black", "white", "result", "date"))
    black, white = _ids(g, "black", "games"), _ids(g, "white", "games")
    tournament = _ids(g, "tournament_id", "games")
    result = _results(g, "games")
    date = _days(g["date"], "games", "date")
    entered = date
    if tournaments is not None:
        t = _frame(tournaments, "tournaments", ("tournament_id", "end"))
        t = t[~t["tournament_id"].duplicated()]
        ends = pd.Series(days_of(t["end"]), index=pd.Index(t["tournament_id"].astype(str)))
        end = ends.reindex(pd.Index(tournament)).to_numpy(dtype="datetime64[D]")
        known = ~np.isnat(end)
        entered = np.where(known, np.maximum(date, end.astype(np.int64)), date)
    order = np.argsort(entered, kind="stable")
    black, white, result, tournament = black[order], white[order], result[order], tournament[order]
    entered, date = entered[order], date[order]
    days, fitted = np.unique(entered, return_index=True)
    fitted = np.append(fitted[1:], entered.size).astype(np.int64)
    first_day = pd.Series(entered).groupby(tournament).transform("min").to_numpy()
    rows = _rows(black, white, result, tournament, entered, entered == first_day)
    row_ends = np.searchsorted(rows["entered"].to_numpy(), days, side="right").astype(np.int64)
    table = pa.table(
        {
            "black": pa.array(black, type=pa.string()),
            "white": pa.array(white, type=pa.string()),
            "result": pa.array(result, type=pa.float64()),
            "date": pa.array(date.astype(np.int32), type=pa.int32()).cast(pa.date32()),
        }
    )
    return Timeline(table, days.astype(np.int64), fitted, rows, row_ends)


def replay(
    games: pd.DataFrame | pa.Table | Timeline,
    params: FitParams = _DEFAULT_PARAMS,
    *,
    tournaments: pd.DataFrame | pa.Table | None = None,
    first: dt.date | None = None,
    last: dt.date | None = None,
    log: Callable[[str], None] | None = None,
    lists: Callable[[dt.date, Fit, Fit | None], None] | None = None,
) -> pd.DataFrame:
    """Replay the history list by list: the rows of every tournament first rated from day
    ``first`` to day ``last``.

    For each day ``d`` on which games enter the lists (see the module's notes), the list
    before is the fit of the games entered before ``d``, read on ``d - 1``, and the list
    after the fit of those entered on or before ``d``, read on ``d`` (:meth:`whr.Fit.rating_on`'s
    rule). Each fit starts from the previous day's solution (``whr.fit(..., warm_start=)``);
    the first starts cold from the games entered before ``first``. The rows are those of the
    tournaments whose games first enter on ``d``; ``previous_list_date`` is ``d - 1``.

    Parameters
    ----------
    games : pandas.DataFrame, pyarrow.Table or Timeline
        The rated games (as :func:`timeline` reads them), or their :func:`timeline`.
    params : FitParams
    tournaments : pandas.DataFrame or pyarrow.Table, optional
        The tournaments' last days, as :func:`timeline` reads them (not with a Timeline).
    first, last : datetime.date, optional
        The days replayed, both included (None: from the first entry day, to the last).
    log : callable, optional
        Told of the progress now and then, in a line.
    lists : callable, optional
        Called with each day replayed, its fit and the previous day's (None before the first
        day of the history): what else is made of the day's list (the record's rows,
        :class:`whr.lists.record.Recorder`).

    Returns
    -------
    pandas.DataFrame
        Schema ``whr.tables.TOURNAMENT_CHANGES``, ``source`` ``replay``, sorted by
        ``first_list_date``, ``tournament_id``, ``player``.

    Raises
    ------
    TypeError, ValueError
        As :func:`timeline` and :func:`whr.fit`.
    whr.ConvergenceError
        As :func:`whr.fit`.
    """
    if isinstance(games, Timeline):
        if tournaments is not None:
            raise TypeError("tournaments: give it to timeline(), not with a Timeline")
        line = games
    else:
        line = timeline(games, tournaments)
    if not isinstance(params, FitParams):
        raise TypeError(f"params must be a whr.FitParams, got {type(params).__name__}")
    first = None if first is None else as_date(first, "first")
    last = None if last is None else as_date(last, "last")
    span = line.span(first, last)
    if not span:
        return empty(TOURNAMENT_CHANGES)
    lo = 0 if span.start == 0 else int(line.row_ends[span.start - 1])
    rows = line.rows.iloc[lo : int(line.row_ends[span.stop - 1])]
    players = rows["player"].to_numpy(dtype=object)
    ratings = np.full((4, len(rows)), np.nan)  # before, its uncertainty, after, its uncertainty
    previous = None
    if span.start > 0:  # the list just before the range, cold
        previous = fit(line.games.slice(0, int(line.fitted[span.start - 1])), params)
    for k, i in enumerate(span):
        today = fit(line.games.slice(0, int(line.fitted[i])), params, warm_start=previous)
        a = (0 if i == 0 else int(line.row_ends[i - 1])) - lo
        b = int(line.row_ends[i]) - lo
        if b > a:
            day = np.full(b - a, line.days[i]).astype("datetime64[D]")
            ratings[2:, a:b] = today.ratings_at(players[a:b], day)
            if previous is not None:
                ratings[:2, a:b] = previous.ratings_at(players[a:b], day - 1)
        if lists is not None:
            lists(line.day(i), today, previous)
        previous = today
        if log is not None and (k + 1) % 250 == 0:
            log(f"replayed {k + 1} of {len(span)} days, to {line.day(i)}")
    previous_day = rows["entered"].to_numpy(dtype=np.int64) - 1
    return combine([_table(rows, ratings, previous_day, "replay")])
