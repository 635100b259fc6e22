"""The record: what the lists said about every player, one table (``whr.tables.RECORD``).

Whole-History Rating re-estimates the past every day, so the rating a list published is not the
rating today's fit gives for that day; what the lists said exists only if it is kept. The record
keeps it at the precision the pages show it: the rating and its uncertainty in whole Elo
(``numpy.rint``, as the lists round them), the rank and the status. A row per player and list
would be the lists themselves (about 3,000 lists of 3,000 to 10,000 players at the RIF's size);
the record keeps a row for a player on a list when

- it is the player's first list;
- the rating shown changed since their previous row (whole Elo): so the rating any list
  published is the rating of the player's last row on or before its day (:func:`shown_on`),
  and the best published rating and its day are exact (:func:`best`);
- the player's rated games changed (the list first rated one of their tournaments, or a game
  added late to an old one);
- the player's status changed;
- the rank is better than on every earlier row: a new best rank;
- the list is the one that stood on a December 31 (the list of that day, or the last list
  before it when none was published on it): every player of it, with their rank.

A rank that changes because other players moved (one player going inactive renumbers thousands)
is not a row of its own: on a RIF-sized synthetic history a row per change of rank would be 2.85
million rows (``benchmarks/bench_backfill.py --record``); every row holds the rank the list
published, and the best rank is exact.

Each rule compares the list with the player's rows so far (their last row's rating, games and
status, their best rank over all their rows), never with the previous list: so the record is
one fold over lists (:func:`extend`), and a fold over a part of the lists keeps every row a
fold over all of them keeps (a player's last row always holds the values of their previous
list, so each rule but the best rank is a change since the previous list; a best over fewer
rows is never better), which lets a replay cut into ranges (:class:`Recorder` per range,
:func:`combine` to join them) keep exactly the rows of one replay.

Where the rows come from, which each row says (``source``): the daily run folds its own list
into the previous list's record (``list``: a list this site published); for the days before
the archive, ``rif-rating backfill`` replays every day on which tournaments end
(:func:`whr.lists.at_the_time.replay`) and a :class:`Recorder` makes that day's list from the
day's fit (the list rules of :mod:`whr.lists.listing`: status, rank order) and folds it
(``replay``: a list the backfill reconstructed), with a list on every December 31 between two
such days (the previous day's fit, read on December 31). A row once kept is never recomputed.
Rows kept before format 7 hold the unrounded rating and only the rows of the rules then (no row
for a change of the rating shown): they read as before, and the rules above apply from the next
list on.

Pure functions of tables, no files and no Prefect.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from whr.engine import Fit
from whr.lists.at_the_time import Timeline
from whr.lists.listing import natural_order, ranked, status
from whr.tables import RECORD, STATUSES, as_date, conform, dates_of, days_of, empty

__all__ = ["Recorder", "State", "best", "carry", "combine", "extend", "of_player", "shown_on"]

_EPOCH = np.datetime64("1970-01-01", "D")
_NO_RANK = np.iinfo(np.int64).max
_COLUMNS = ["player", "list_date", "rating", "uncertainty", "rank", "status", "games"]


def _year_end(day: int) -> bool:
    d = (_EPOCH + np.timedelta64(int(day), "D")).astype(dt.date)
    return (d.month, d.day) == (12, 31)


def _year_ends(after: int, before: int) -> list[int]:
    """The December 31 strictly between two days (day numbers)."""
    a = (_EPOCH + np.timedelta64(int(after), "D")).astype(dt.date)
    out = []
    for year in range(a.year, (_EPOCH + np.timedelta64(int(before), "D")).astype(dt.date).year):
        day = int((np.datetime64(dt.date(year, 12, 31), "D") - _EPOCH).astype(np.int64))
        if after < day < before:
            out.append(day)
    return out


def _ranks(values: pd.Series) -> np.ndarray:
    """Ranks as int64, 0 for none (null)."""
    out: np.ndarray = np.nan_to_num(values.to_numpy(np.float64), nan=0.0).astype(np.int64)
    return out


def _status_codes(values: pd.Series | np.ndarray) -> np.ndarray:
    text = np.asarray(values, dtype=object)
    codes = np.full(text.size, -1, np.int64)
    for code, name in enumerate(STATUSES):
        codes[text == name] = code
    if (codes < 0).any():
        raise ValueError(f"status must be one of {STATUSES}, got {text[codes < 0][0]!r}")
    return codes


class State:
    """Each player's place in the record so far, by player code: the rating shown (whole Elo),
    games and status of their last row, and their best rank over all their rows (what the rules
    compare a list with). Codes are given as players come (:meth:`codes`)."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.games = np.zeros(0, np.int64)
        self.status = np.zeros(0, np.int64)
        self.shown = np.zeros(0, np.float64)
        self.best_rank = np.zeros(0, np.int64)
        self.seen = np.zeros(0, bool)

    def codes(self, players: Iterable[str]) -> np.ndarray:
        """The code of each player, a new one for a player not seen before."""
        ids = self.ids
        values = players if isinstance(players, np.ndarray) else np.asarray(list(players), object)
        # each distinct player looked up once (a hash table in C for the rows)
        number, distinct = pd.factorize(values, use_na_sentinel=False)
        table = np.fromiter(
            (ids.setdefault(p, len(ids)) for p in distinct), np.int64, len(distinct)
        )
        out: np.ndarray = table[number]
        grow = len(ids) - self.games.size
        if grow > 0:
            self.games = np.concatenate([self.games, np.zeros(grow, np.int64)])
            self.status = np.concatenate([self.status, np.zeros(grow, np.int64)])
            self.shown = np.concatenate([self.shown, np.full(grow, np.nan)])
            self.best_rank = np.concatenate([self.best_rank, np.full(grow, _NO_RANK)])
            self.seen = np.concatenate([self.seen, np.zeros(grow, bool)])
        return out

    def keep(
        self,
        code: np.ndarray,
        rating: np.ndarray,
        rank: np.ndarray,
        status_code: np.ndarray,
        games: np.ndarray,
        year_end: bool,
    ) -> np.ndarray:
        """Which rows of one list (players by ``code``, each once; ``rank`` 0: not ranked) the
        record keeps (the rules in the module's notes), and take them into the state."""
        rating = np.rint(rating)  # as shown
        new = ~self.seen[code]
        kept = (
            new
            | (self.shown[code] != rating)
            | (self.games[code] != games)
            | (self.status[code] != status_code)
            | ((rank > 0) & (rank < self.best_rank[code]))
        )
        if year_end:
            kept[:] = True
        self._take(code[kept], rating[kept], rank[kept], status_code[kept], games[kept])
        out: np.ndarray = kept
        return out

    def _take(
        self,
        code: np.ndarray,
        rating: np.ndarray,
        rank: np.ndarray,
        status_code: np.ndarray,
        games: np.ndarray,
    ) -> None:
        """Take rows (players by ``code``, each once, in day order) into the state."""
        self.seen[code] = True
        self.shown[code] = rating
        self.games[code] = games
        self.status[code] = status_code
        self.best_rank[code] = np.minimum(self.best_rank[code], np.where(rank > 0, rank, _NO_RANK))

    @classmethod
    def of(cls, record: pd.DataFrame | None) -> State:
        """The state after the rows of ``record`` (schema ``RECORD``; a rating kept unrounded
        before format 7 is taken as shown, whole)."""
        state = cls()
        if record is None or not len(record):
            return state
        code = state.codes(record["player"].astype(str).to_numpy(object))
        order = np.lexsort((days_of(record["list_date"]), code))  # by player, then day
        code = code[order]
        last = np.r_[code[1:] != code[:-1], True]
        state.seen[code] = True
        state.shown[code[last]] = np.rint(record["rating"].to_numpy(np.float64))[order][last]
        state.games[code[last]] = record["games"].to_numpy(np.int64)[order][last]
        state.status[code[last]] = _status_codes(record["status"])[order][last]
        rank = _ranks(record["rank"])
        np.minimum.at(state.best_rank, code, np.where(rank > 0, rank, _NO_RANK)[order])
        return state


def _rows(
    players: np.ndarray,
    day: int,
    rating: np.ndarray,
    uncertainty: np.ndarray,
    rank: np.ndarray,
    status_code: np.ndarray,
    games: np.ndarray,
    source: str,
) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "player": pd.Series(players, dtype=object),
            "list_date": np.full(len(players), _EPOCH + np.timedelta64(int(day), "D")),
            "rating": np.rint(rating),  # whole Elo, as the pages show them
            "uncertainty": np.rint(uncertainty),
            "rank": pd.arrays.IntegerArray(np.where(rank > 0, rank, 0).astype(np.int32), rank <= 0),
            "status": np.asarray(STATUSES, dtype=object)[status_code],
            "games": games.astype(np.int32),
            "source": source,
        }
    )


def _frame(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """One table of ``RECORD`` from row frames: sorted by player, then list date."""
    frames = [f for f in frames if len(f)]
    if not frames:
        return empty(RECORD)
    table = pd.concat(frames, ignore_index=True)
    day = days_of(table["list_date"])
    # by player (the distinct ids sorted, not every row's), then day
    code, _ = pd.factorize(table["player"].astype(str).to_numpy(object), sort=True)
    number = day.astype(np.int64)
    order = np.lexsort((number, code))
    code, number = code[order], number[order]
    twice = np.flatnonzero((code[1:] == code[:-1]) & (number[1:] == number[:-1]))
    table = table.iloc[order].reset_index(drop=True)
    table["list_date"] = dates_of(day[order]).to_numpy()
    if twice.size:
        row = table.iloc[int(twice[0]) + 1]
        raise ValueError(
            f"player {row['player']!r} has two rows for the list of {row['list_date']}"
        )
    # as a written file reads back: a nullable integer column as float64
    table["rank"] = table["rank"].astype("float64")
    return conform(table, RECORD)


def _fold(state: State, frame: pd.DataFrame, source: str) -> pd.DataFrame:
    """The rows the record keeps of one list (``frame``: the columns of ``_COLUMNS``, one
    ``list_date``, each player once), taken into ``state``."""
    if not len(frame):
        return frame.iloc[:0]
    days = days_of(frame["list_date"])
    if (days != days[0]).any():
        raise ValueError("a list must have one list_date")
    day = int((days[0] - _EPOCH).astype(np.int64))
    players = frame["player"].astype(str).to_numpy(object)
    rank = _ranks(frame["rank"])
    rating = frame["rating"].to_numpy(np.float64)
    code = state.codes(players.tolist())
    if np.unique(code).size != code.size:
        raise ValueError(f"a list names a player twice (the list of {days[0]})")
    status_code = _status_codes(frame["status"])
    games = frame["games"].to_numpy(np.int64)
    kept = state.keep(code, rating, rank, status_code, games, _year_end(day))
    return _rows(
        players[kept],
        day,
        rating[kept],
        frame["uncertainty"].to_numpy(np.float64)[kept],
        rank[kept],
        status_code[kept],
        games[kept],
        source,
    )


def _rest(frame: pd.DataFrame, kept: np.ndarray, source: str) -> pd.DataFrame:
    """The rows of the list ``frame`` (``_COLUMNS``, one day) of the players not in ``kept``
    (ids): with the rows kept of it, the whole list, as the list that stood on a December 31.
    Each such row holds the values of the player's last row (else a rule would have kept it)
    and no better rank, so the state after them is the state before."""
    rest = frame[~frame["player"].astype(str).isin(kept)]
    if not len(rest):
        return rest.iloc[:0]
    day = int((days_of(rest["list_date"][:1])[0] - _EPOCH).astype(np.int64))
    return _rows(
        rest["player"].astype(str).to_numpy(object),
        day,
        rest["rating"].to_numpy(np.float64),
        rest["uncertainty"].to_numpy(np.float64),
        _ranks(rest["rank"]),
        _status_codes(rest["status"]),
        rest["games"].to_numpy(np.int64),
        source,
    )


def extend(
    record: pd.DataFrame | None,
    lists: Iterable[pd.DataFrame],
    source: str = "list",
    *,
    last: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The record with the rows it keeps of each of ``lists``, in their order (each after
    every day of the record).

    A list after a December 31 that none of the lists was of makes the list before it the one
    that stood on that December 31: every player of that list gets a row (of ``last``, the
    previous list, for the first of ``lists``: the record holds only the rows it kept of it).

    Parameters
    ----------
    record : pandas.DataFrame or None
        The record so far (``RECORD``); None or empty: none.
    lists : iterable of pandas.DataFrame
        Published lists (``RATINGS``: ``list_date``, ``player``, ``rating``, ``uncertainty``,
        ``rank``, ``status``, ``games`` are read), oldest first.
    source : str
        ``list`` (a list this site published) or ``replay`` (one the backfill reconstructed).
    last : pandas.DataFrame, optional
        The list folded last into the record (the previous list), whole (``RATINGS``); when
        the record holds a later day, it is not used.

    Returns
    -------
    pandas.DataFrame
        ``RECORD``, sorted by player, then list date; the rows of ``record`` unchanged.

    Raises
    ------
    ValueError
        If a list is not after the record's last day (or the previous list's), names a player
        twice or has an unknown status.
    """
    state = State.of(record)
    end = days_of(record["list_date"]).max() if record is not None and len(record) else None
    frames = [record] if record is not None and len(record) else []
    before: tuple[pd.DataFrame, np.ndarray] | None = None  # the list before, its players kept
    if last is not None and len(last):
        day = days_of(last["list_date"][:1])[0]
        if end is None or day >= end:  # (a list may keep no row of its own: nothing changed)
            kept = np.zeros(0, object)
            if record is not None and len(record):
                on_day = days_of(record["list_date"]) == day
                kept = record["player"].astype(str).to_numpy(object)[on_day]
            before, end = (last[_COLUMNS], kept), day
    for frame in lists:
        if not len(frame):
            continue
        day = days_of(frame["list_date"][:1])[0]
        if end is not None and day <= end:
            raise ValueError(f"the list of {day} is not after the record's last list, {end}")
        if before is not None and end is not None and _year_ends(_day(end), _day(day)):
            frames.append(_rest(before[0], before[1], source))
        rows = _fold(state, frame[_COLUMNS], source)
        frames.append(rows)
        before = (frame[_COLUMNS], rows["player"].to_numpy(object))
        end = day
    return _frame(frames)


def _day(value: np.datetime64) -> int:
    """A day as its number since 1970-01-01."""
    return int((value.astype("datetime64[D]") - _EPOCH).astype(np.int64))


def combine(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """One record from the rows of a replay's ranges, in the order of their days.

    Each range keeps rows as a fold that starts empty at its first day would (every player on
    its first list, and a best over only its own lists), a superset of the rows one fold over
    every list keeps; folding the rows again, day by day, keeps exactly those (the state after
    the rows kept is the state after every list: a row a rule keeps is there, and a player
    without a row on a day had nothing a rule keeps).

    Raises
    ------
    ValueError
        If two parts hold rows of the same player and day (overlapping ranges).
    """
    table = _frame(parts)
    if not len(table):
        return table
    day = days_of(table["list_date"]).astype(np.int64)
    order = np.lexsort((table["player"].to_numpy(object).astype(str), day))
    table = table.iloc[order].reset_index(drop=True)
    day = day[order]
    state = State()
    keep = np.zeros(len(table), bool)
    bounds = np.flatnonzero(np.r_[True, day[1:] != day[:-1], True])
    players = table["player"].to_numpy(object)
    rank = _ranks(table["rank"])
    rating = table["rating"].to_numpy(np.float64)
    status_code = _status_codes(table["status"])
    games = table["games"].to_numpy(np.int64)
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        code = state.codes(players[a:b].tolist())
        keep[a:b] = state.keep(
            code, rating[a:b], rank[a:b], status_code[a:b], games[a:b], _year_end(day[a])
        )
    return _frame([table[keep]])


def carry(replayed: pd.DataFrame | None, kept: pd.DataFrame | None, start: dt.date) -> pd.DataFrame:
    """The record carried to the next list: the lists the archive holds (``kept``, the record
    of the previous list) and, before the archive's first list ``start``, the backfill's
    (``replayed``: its rows dated before ``start``). None: none."""
    start = as_date(start, "start")
    parts = []
    if replayed is not None and len(replayed):
        parts.append(replayed[[d < start for d in replayed["list_date"]]])
    if kept is not None and len(kept):
        if any(d < start for d in kept["list_date"]):
            raise ValueError(f"kept must hold lists from {start} on")
        parts.append(kept)
    return _frame([conform(p, RECORD) for p in parts])


def best(
    record: pd.DataFrame, players: pd.Series | np.ndarray, on: pd.Series | np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The best rating a list published for each of ``players`` up to the day ``on`` (one day
    per player, e.g. a list's date), and the day of the first list that published it.

    Returns
    -------
    best : numpy.ndarray of float64
        NaN where the record has no list of the player up to that day.
    day : numpy.ndarray of datetime64[D]
        NaT where ``best`` is NaN.
    """
    players = np.asarray(players, dtype=object).astype(str)
    on_day = days_of(on).astype(np.int64)
    if not len(record):
        return np.full(players.size, np.nan), np.full(players.size, np.datetime64("NaT", "D"))
    r_player = record["player"].astype(str).to_numpy(object)
    r_day = days_of(record["list_date"]).astype(np.int64)
    code, _ = pd.factorize(np.concatenate([r_player, players]), sort=True)
    r_code, q_code = code[: r_player.size], code[r_player.size :]
    order = np.lexsort((r_day, r_code))
    r_code, r_day = r_code[order], r_day[order]
    rating = record["rating"].to_numpy(np.float64)[order]
    # the running best of each player and the day it was first reached
    running = pd.Series(rating).groupby(r_code).cummax().to_numpy()
    reached = np.ones(rating.size, bool)
    reached[1:] = (r_code[1:] != r_code[:-1]) | (rating[1:] > running[:-1])
    reached_day = r_day[np.maximum.accumulate(np.where(reached, np.arange(rating.size), 0))]
    offset = np.int64(1 << 24)  # day numbers are far inside +-2**24
    key = r_code.astype(np.int64) * (2 * offset) + (r_day + offset)
    at = np.searchsorted(key, q_code.astype(np.int64) * (2 * offset) + (on_day + offset), "right")
    at -= 1
    found = (at >= 0) & (r_code[np.maximum(at, 0)] == q_code)
    value = np.where(found, running[np.maximum(at, 0)], np.nan)
    day = np.where(found, reached_day[np.maximum(at, 0)], 0).astype("datetime64[D]")
    return value, np.where(found, day, np.datetime64("NaT", "D"))


def _last_rows(
    record: pd.DataFrame, players: np.ndarray, on_day: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each of ``players`` and its day number: the position in ``record`` (not empty) of
    the player's last row on or before the day (-1: none), and whether there is one."""
    r_player = record["player"].astype(str).to_numpy(object)
    r_day = days_of(record["list_date"]).astype(np.int64)
    code, _ = pd.factorize(np.concatenate([r_player, players]), sort=True)
    r_code, q_code = code[: r_player.size], code[r_player.size :]
    order = np.lexsort((r_day, r_code))
    sorted_code = r_code[order]
    offset = np.int64(1 << 24)  # day numbers are far inside +-2**24
    key = sorted_code.astype(np.int64) * (2 * offset) + (r_day[order] + offset)
    at = np.searchsorted(key, q_code.astype(np.int64) * (2 * offset) + (on_day + offset), "right")
    at -= 1
    found = (at >= 0) & (sorted_code[np.maximum(at, 0)] == q_code)
    return np.where(found, order[np.maximum(at, 0)], -1), found


def shown_on(
    record: pd.DataFrame, players: pd.Series | np.ndarray, on: pd.Series | np.ndarray
) -> pd.DataFrame:
    """What the lists showed of each of ``players`` on the day ``on`` (one day per player): the
    player's last row on or before it. Its rating (whole Elo) and status are those of the last
    list on or before the day (a row is kept whenever they change); its rank is that list's
    where the row is of that list's day, else the rank of an earlier list.

    Returns
    -------
    pandas.DataFrame
        One row per player asked, in their order: ``list_date`` (the row's day; None where the
        record has no list of the player up to that day), ``rating``, ``uncertainty``,
        ``rank``, ``status``, ``games``, ``source`` (null, NaN where none).
    """
    players = np.asarray(players, dtype=object).astype(str)
    on_day = days_of(on).astype(np.int64)
    if not len(record):
        return empty(RECORD).drop(columns="player").reindex(range(players.size))
    row, found = _last_rows(record, players, on_day)
    out: pd.DataFrame = record.drop(columns="player").iloc[np.maximum(row, 0)]
    out = out.reset_index(drop=True)
    if (~found).any():
        out = out.astype({"games": "float64"})
        out.loc[~found, :] = None
    return out


def of_player(record: pd.DataFrame, player: str) -> pd.DataFrame:
    """The rows of one player, by list date (the record is sorted by player, list date)."""
    ids = record["player"].to_numpy(object)
    a = int(np.searchsorted(ids, player, "left"))
    b = int(np.searchsorted(ids, player, "right"))
    return record.iloc[a:b]


@dataclass
class _Counts:
    """Rated games and last game day of every player of a timeline, up to some game."""

    games: np.ndarray
    last: np.ndarray
    upto: int


class Recorder:
    """The record's rows of a replay's lists (:func:`whr.lists.at_the_time.replay`'s
    ``lists``): called with each day's fit, it makes the day's list and folds it, from an empty
    record at the first day it is given; :meth:`rows` gives the rows, with the lists of the
    December 31 between two days (the earlier day's fit, read on December 31) and after the
    last one up to ``through``.

    The list of a day ``d`` (the rules of :mod:`whr.lists.listing`): every player with a rated
    game entered on or before ``d``; their rating and uncertainty read on ``d`` from the fit of
    those games (``Fit.rating_on``'s rule); their rated games and status on ``d``
    (:func:`whr.lists.listing.status`); the rank of the active players
    (:func:`whr.lists.listing.ranked`: rating, ties within 1e-6 Elo by id in natural order).

    Parameters
    ----------
    line : Timeline
        The games by entry day (:func:`whr.lists.at_the_time.timeline`).
    through : datetime.date, optional
        The last day replayed (e.g. the backfill's ``--until``): the lists of the December 31
        after the last day with games, up to it.
    """

    def __init__(self, line: Timeline, through: dt.date | None = None) -> None:
        self._line = line
        black = line.games.column("black").to_numpy(zero_copy_only=False).astype(object)
        white = line.games.column("white").to_numpy(zero_copy_only=False).astype(object)
        code, labels = pd.factorize(np.concatenate([black, white]))
        natural = natural_order(pd.Series(np.asarray(labels, dtype=object), dtype="str"))
        number = np.empty(len(labels), np.int64)  # players numbered in natural id order
        number[natural] = np.arange(len(labels))
        self._ids = np.asarray(labels, dtype=object)[natural]
        n = len(black)
        self._black, self._white = number[code[:n]], number[code[n:]]
        self._date = days_of(line.games.column("date")).astype(np.int64)
        self._through = None if through is None else as_date(through, "through")
        self._counts: _Counts | None = None
        self._state = State()
        self._codes = self._state.codes(self._ids.tolist())  # state codes by player number
        self._frames: list[pd.DataFrame] = []
        self._last: tuple[int, Fit] | None = None

    def _count_to(self, upto: int) -> _Counts:
        """The counts after the games ``[:upto]`` (from the counts so far, or from none)."""
        c = self._counts
        if c is None or c.upto > upto:
            c = _Counts(np.zeros(self._ids.size, np.int64), np.full(self._ids.size, -(1 << 40)), 0)
        s = slice(c.upto, upto)
        for side in (self._black[s], self._white[s]):
            c.games += np.bincount(side, minlength=self._ids.size)
            np.maximum.at(c.last, side, self._date[s])
        c.upto = upto
        self._counts = c
        return c

    def _list(self, day: int, fit: Fit, counts: _Counts) -> None:
        listed = np.flatnonzero(counts.games > 0)
        if not listed.size:
            return
        ids = self._ids[listed]
        rating, sd = fit.ratings_at(ids, np.full(listed.size, day).astype("datetime64[D]"))
        games = counts.games[listed]
        last = counts.last[listed].astype("datetime64[D]")
        on = (_EPOCH + np.timedelta64(int(day), "D")).astype(dt.date)
        status_code = _status_codes(status(games, last, on))
        rank = ranked(rating, listed, status_code == 0)
        kept = self._state.keep(
            self._codes[listed], rating, rank, status_code, games, _year_end(day)
        )
        self._frames.append(
            _rows(
                ids[kept],
                day,
                rating[kept],
                sd[kept],
                rank[kept],
                status_code[kept],
                games[kept],
                "replay",
            )  # fmt: skip
        )

    def __call__(self, day: dt.date, today: Fit, before: Fit | None) -> None:
        """Take the list of ``day`` (an entry day of the timeline) and its fit ``today``;
        ``before``: the fit of the previous entry day (None at the first)."""
        line = self._line
        i = int(np.searchsorted(line.days, (np.datetime64(day, "D") - _EPOCH).astype(np.int64)))
        if i >= len(line) or line.days[i] != (np.datetime64(day, "D") - _EPOCH).astype(np.int64):
            raise ValueError(f"day {day} is not an entry day of the timeline")
        d = int(line.days[i])
        if before is not None and i > 0:
            counts = self._count_to(int(line.fitted[i - 1]))
            for year_end in _year_ends(int(line.days[i - 1]), d):
                self._list(year_end, before, counts)
        self._list(d, today, self._count_to(int(line.fitted[i])))
        self._last = (d, today)

    def rows(self) -> pd.DataFrame:
        """The rows kept (``RECORD``, ``source`` ``replay``), sorted by player, list date;
        with the lists of the December 31 after the last day given, up to ``through``."""
        frames = list(self._frames)
        if self._last is not None and self._through is not None:
            d, fit = self._last
            end = int((np.datetime64(self._through, "D") - _EPOCH).astype(np.int64)) + 1
            counts = self._counts
            assert counts is not None
            for year_end in _year_ends(d, end):
                self._list(year_end, fit, counts)
            frames = list(self._frames)
            self._through = None  # once
        return _frame(frames)
