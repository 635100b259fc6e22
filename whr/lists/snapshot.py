"""A day's lists as one value: :func:`build` makes the :class:`Snapshot` that publishing writes.

The stage between the fit and publishing: from what was read, eligibility's selection, the
fit and the previous published list of the same kind, every table the day publishes (the list
with its changes, the year-end lists, the rating history, the rated games with both ratings,
players, tournaments, exclusions, the facts the rules need), its counts and what the manifest
says of the fit. Each table conforms to its declared schema (``whr.tables``), sorted
deterministically, and holds exactly what reading the written file back gives, so pages drawn
from a snapshot and pages drawn from an archived entry are the same.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from typing import Any

import pandas as pd
import pyarrow as pa

from whr.engine import Fit
from whr.lists import at_the_time, changes, record
from whr.lists.listing import RuleNumbers, list_on, player_games, rated_games, year_end_lists
from whr.lists.published import Tables, by_list_date
from whr.lists.views import View, view
from whr.params import FitParams
from whr.rules import Selection, facts_needed
from whr.rules.select import Counts as SelectionCounts
from whr.tables import (
    EXCLUSIONS,
    HISTORY,
    PLAYERS,
    RATINGS,
    STATUSES,
    TOURNAMENT_CHANGES,
    TOURNAMENTS,
    SourceData,
    conform,
    dates_of,
    empty,
    month_exact,
)

__all__ = ["Counts", "FitRecord", "Previous", "Snapshot", "build"]


@dataclass(frozen=True)
class Previous:
    """The previous published list of the same kind: what a day's changes are measured from.

    Attributes
    ----------
    day : datetime.date
        Its list date (before the new list's).
    ratings : pandas.DataFrame or None
        Its list (``RATINGS``); None when it could not be read (``problem`` says why), and the
        new list then shows no changes.
    history : pandas.DataFrame or None
        Its rating history (``HISTORY``), when its entry still holds it: for the split of each
        change into the player's own games and the others' (:func:`whr.lists.changes.with_split`).
    problem : str or None
        Why the list could not be read.
    games : pandas.DataFrame or None
        Its rated games (``game_id`` and ``tournament_id`` of ``RATED_GAMES`` are read), when
        its entry still holds them: which tournaments are new to the new list, for each one's
        change at the time (:func:`whr.lists.at_the_time.daily`).
    changes : pandas.DataFrame or None
        Its tournaments' changes at the time (``TOURNAMENT_CHANGES``), carried forward into
        the new list's (None: it kept none).
    record : pandas.DataFrame or None
        What the lists up to it said (``RECORD``, :mod:`whr.lists.record`), which the new
        list extends with its own rows (None: none).
    warnings : tuple of str
        What was found wrong on the way without stopping the list (a replay that does not
        check), said in the new list's manifest.
    """

    day: dt.date
    ratings: pd.DataFrame | None
    history: pd.DataFrame | None = None
    problem: str | None = None
    games: pd.DataFrame | None = None
    changes: pd.DataFrame | None = None
    record: pd.DataFrame | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reasons:
    """Eligibility's counts in brief: totals, and the games excluded by each reason (non-zero)."""

    read: int
    rated: int
    excluded: int
    unverified: int
    excluded_by_reason: dict[str, int]

    @classmethod
    def of(cls, counts: SelectionCounts) -> Reasons:
        by_reason = counts.by_reason
        return cls(
            read=int(counts.read),
            rated=int(counts.rated),
            excluded=int(counts.excluded),
            unverified=int(counts.unverified),
            excluded_by_reason={
                str(r): int(n)
                for r, n in zip(by_reason["reason"], by_reason["games"], strict=True)
                if n
            },
        )


@dataclass(frozen=True)
class FactsNeeded:
    """Tournaments whose unknown minutes or mode hold games' verdicts, and those games."""

    tournaments: int
    games: int


@dataclass(frozen=True)
class Counts:
    """The day's counts: for the manifest, the gates and the run summary."""

    players: int
    tournaments: int
    rated_games: int
    exclusions: int
    history_rows: int
    listed: int
    active: int
    inactive: int
    provisional: int
    established: int
    year_end_lists: int
    selection: Reasons
    facts_needed: FactsNeeded

    def record(self) -> dict[str, Any]:
        """The counts as the manifest writes them (plain JSON values, in field order)."""
        return asdict(self)


@dataclass(frozen=True)
class FitRecord:
    """What the manifest says of the fit: its parameters, iterations and convergence."""

    params: FitParams
    iterations: int
    converged: bool

    @classmethod
    def of(cls, fit: Fit) -> FitRecord:
        return cls(fit.params, int(fit.iterations), bool(fit.converged))


@dataclass(frozen=True)
class Snapshot:
    """Everything one list publishes on one day (:func:`build`); publishing only writes it.

    Attributes
    ----------
    as_of : datetime.date
        The list date.
    category : str
        The rule category of the list.
    tables : Tables
        The day's tables.
    facts_needed : pandas.DataFrame
        ``whr.tables.FACTS_NEEDED``: tournaments whose unknown minutes or mode hold games'
        verdicts (:func:`whr.rules.facts_needed`).
    counts : Counts
    fit : FitRecord
    inputs : tuple of (name, sha256)
        Every file read, in the order read.
    inputs_sha256 : str
        The digest of what was read (``SourceData.sha256``).
    previous : Previous or None
        The list the changes were measured from (None: the first list of its kind).
    rules : RuleNumbers
        The rules the list was computed with, as its pages state them.
    view : whr.lists.View
        What the pages show (:func:`whr.lists.view` of the tables).
    new_changes : pandas.DataFrame
        ``TOURNAMENT_CHANGES``: the change at the time of each player of the tournaments new
        to this list (:func:`whr.lists.at_the_time.daily`); ``tables.tournament_changes`` is
        the previous list's table with these rows added.
    warnings : tuple of str
        What went wrong without stopping the list (a previous list that could not be read).
    """

    as_of: dt.date
    category: str
    tables: Tables
    facts_needed: pd.DataFrame
    counts: Counts
    fit: FitRecord
    inputs: tuple[tuple[str, str], ...]
    inputs_sha256: str
    previous: Previous | None
    rules: RuleNumbers
    view: View
    new_changes: pd.DataFrame
    warnings: tuple[str, ...] = ()

    @property
    def year_end(self) -> dict[dt.date, pd.DataFrame]:
        """The year-end lists by list date, newest first (:func:`by_list_date`)."""
        return by_list_date(self.tables.year_end)


def _sorted(frame: pd.DataFrame, schema: pa.Schema, by: list[str]) -> pd.DataFrame:
    return conform(frame, schema).sort_values(by, kind="stable").reset_index(drop=True)


def _new_changes(
    selection: Selection, fit: Fit, previous: Previous | None
) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """The change at the time of the tournaments new to the list, from the previous list's
    rating history and games and today's fit (no other fit); and why there are none, when the
    previous entry lacks what they are computed from."""
    if previous is None or previous.ratings is None:
        return empty(TOURNAMENT_CHANGES), ()
    if previous.history is None or previous.games is None:
        return empty(TOURNAMENT_CHANGES), (
            f"the list of {previous.day} kept no rating history or games: the change at the "
            "time of the tournaments new since it is not recorded (rif-rating backfill "
            "replays it)",
        )
    rows = at_the_time.daily(
        previous.history, previous.day, previous.games, fit, selection.as_of, selection.rated
    )
    return rows, ()


def _with_best(lists: pd.DataFrame, kept: pd.DataFrame) -> pd.DataFrame:
    """``lists`` (``RATINGS``) with each row's best rating and its day from the record
    ``kept``: the best a list published up to the row's list date (:func:`record.best`)."""
    if not len(lists):
        return lists
    best, day = record.best(kept, lists["player"], lists["list_date"])
    return lists.assign(best_rating=best, best_date=dates_of(day).to_numpy())


def _tables(
    as_of: dt.date,
    data: SourceData,
    selection: Selection,
    fit: Fit,
    previous: Previous | None,
    new_changes: pd.DataFrame,
    kept: pd.DataFrame | None,
    said: pd.DataFrame | None,
) -> Tables:
    """The day's tables (see :class:`Tables`), sorted deterministically; ``kept``: the
    previous list's changes at the time, carried forward with ``new_changes``; ``said``: the
    previous list's record, extended with the day's list."""
    history = _sorted(fit.history, HISTORY, ["player", "date"])
    games = rated_games(selection.rated, history)
    pg = player_games(games)
    players = _sorted(data.players, PLAYERS, ["player_id"])
    before = previous.ratings if previous is not None else None
    # (the list's values as its month will keep them, before its changes are taken)
    ratings = month_exact(list_on(as_of, history, pg, players, fit.rating_on))
    ratings = changes.since(ratings, before)
    if previous is not None and previous.history is not None and before is not None and len(before):
        split = changes.split_rating_change(
            previous.history, previous.day, fit, as_of, selection.rated
        )
        ratings = changes.with_split(ratings, split)
    year_end = changes.since_each(year_end_lists(as_of, history, pg, players, fit.rating_on))
    if year_end:
        year_frame = conform(pd.concat(list(year_end.values()), ignore_index=True), RATINGS)
    else:
        year_frame = conform(ratings.iloc[:0], RATINGS)
    # (the previous list whole: the list that stood on a December 31 none was published on)
    kept_record = record.extend(said, [ratings], last=before)
    return Tables(
        ratings=month_exact(conform(_with_best(ratings, kept_record), RATINGS)),  # as read back
        year_end=conform(_with_best(year_frame, kept_record), RATINGS),
        history=history,
        games=games,
        players=players,
        tournaments=_sorted(data.tournaments, TOURNAMENTS, ["tournament_id"]),
        exclusions=_sorted(selection.exclusions, EXCLUSIONS, ["game_id", "reason"]),
        tournament_changes=at_the_time.carry([kept, new_changes]),
        record=kept_record,
    )


def _counts(tables: Tables, selection: Selection, needed: pd.DataFrame) -> Counts:
    ratings = tables.ratings
    by_status = {s: int((ratings["status"] == s).sum()) for s in STATUSES}
    year_end = tables.year_end
    return Counts(
        players=len(tables.players),
        tournaments=len(tables.tournaments),
        rated_games=len(tables.games),
        exclusions=len(tables.exclusions),
        history_rows=len(tables.history),
        listed=len(ratings),
        active=by_status["active"],
        inactive=by_status["inactive"],
        provisional=by_status["provisional"],
        established=by_status["active"] + by_status["inactive"],
        year_end_lists=int(year_end["list_date"].nunique()) if len(year_end) else 0,
        selection=Reasons.of(selection.counts),
        facts_needed=FactsNeeded(tournaments=len(needed), games=int(needed["games"].sum())),
    )


def build(
    data: SourceData, selection: Selection, fit: Fit, previous: Previous | None = None
) -> Snapshot:
    """The day's lists of ``selection``'s category on ``selection.as_of``, as one value.

    Parameters
    ----------
    data : whr.tables.SourceData
        What was read (players and tournaments are published as read).
    selection : whr.rules.Selection
        Eligibility's result: the rated games, the exclusions, the list date and category.
    fit : whr.engine.Fit
        The fit of ``selection.rated``.
    previous : Previous, optional
        The previous published list of the same kind (``whr.publish.previous`` reads it from
        the archive), for ``rating_change`` and ``previous_rank`` (:func:`whr.lists.changes.since`)
        and, with its history, their split; each year-end list is compared with the one a year
        before. None: the first list of its kind.

    Returns
    -------
    Snapshot

    Raises
    ------
    TypeError
        If an argument is not of its type (naming it).
    ValueError
        If ``previous`` is not dated before the list, or ``fit`` is not the fit of the rated
        games.
    """
    for name, value, kind in (
        ("data", data, SourceData),
        ("selection", selection, Selection),
        ("fit", fit, Fit),
    ):
        if not isinstance(value, kind):
            raise TypeError(f"{name} must be a {kind.__name__}, got {type(value).__name__}")
    if previous is not None and not isinstance(previous, Previous):
        raise TypeError(f"previous must be a Previous or None, got {type(previous).__name__}")
    as_of = selection.as_of
    if previous is not None and not previous.day < as_of:
        raise ValueError(f"previous must be a list dated before {as_of}, got one of {previous.day}")
    warnings: tuple[str, ...] = ()
    against = previous
    if previous is not None and previous.ratings is None:
        warnings = (
            f"the previous list could not be read ({previous.problem}); changes are not shown",
        )
        against = None
    new_changes, unkept = _new_changes(selection, fit, against)
    warnings += unkept
    kept = previous.changes if previous is not None else None  # also when its list is unread
    said = previous.record if previous is not None else None
    if previous is not None:
        warnings += previous.warnings
    tables = _tables(as_of, data, selection, fit, against, new_changes, kept, said)
    needed = facts_needed(selection)
    rules = RuleNumbers.of(selection.config)
    return Snapshot(
        as_of=as_of,
        category=selection.category,
        tables=tables,
        facts_needed=needed,
        counts=_counts(tables, selection, needed),
        fit=FitRecord.of(fit),
        inputs=tuple(data.inputs),
        inputs_sha256=data.sha256,
        previous=previous,
        rules=rules,
        view=view(as_of, selection.category, tables, rules),
        new_changes=new_changes,
        warnings=warnings,
    )
