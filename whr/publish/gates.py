"""Gates a list must pass before it goes live: nothing absurd is published without a reason.

A list is refused when it has no rated games or no listed player, or when its rated games or
its established players are fewer, by more than a set fraction, than on the previous list of
the same kind (a database that lost half its games is a broken download, not news). Each gate
can be overridden with ``--force REASON``; the manifest records the reason and everything it
overrode (these gates, and "no new data"). A list date after tomorrow is no gate: it is refused
always (:class:`whr.run.Run`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

import pandas as pd

SHRINKING = {"rated_games": "rated games", "established": "established players"}


class GateError(RuntimeError):
    """A list was refused by a gate; nothing was published. The message says which and why."""


class DatedError(RuntimeError):
    """A list would be dated long after its database while its date was read off the clock
    (:func:`check_dated`); ``--force`` does not override it, ``--as-of`` does."""


DATED_DAYS = 31
"""A list dated more than this many days after its database's own date is published only with
its date given (``--as-of``): a clock that is wrong would otherwise date the current list."""


def check_dated(as_of: dt.date, dated: dt.date | None, given: bool, today: dt.date) -> None:
    """Refuse a list dated more than :data:`DATED_DAYS` days after its database's own date
    (``dated``, :attr:`whr.tables.SourceData.dated`) unless its date was given (``given``:
    ``--as-of``); ``today``: this machine's day, named in the message.

    Raises
    ------
    DatedError
        Naming both dates and what to do.
    """
    if dated is None or given or (as_of - dated).days <= DATED_DAYS:
        return
    raise DatedError(
        f"refused to publish the list of {as_of}: it would be dated {(as_of - dated).days} "
        f"days after its database's own date, {dated}; a list more than {DATED_DAYS} days "
        f"after its database is published only with its date given (--as-of {as_of}). Is "
        f"this machine's clock right (today is {today} by it), and is the database the newest?"
    )


class SizeError(RuntimeError):
    """A list is larger than the run's cap on players (``max_players``); nothing was built or
    published. Not a gate: ``--force`` does not override it, ``--max-players`` raises it."""


def check_size(rated: pd.DataFrame, max_players: int) -> int:
    """Refuse a list of more players than ``max_players``, before anything is built.

    Publishing costs memory, time and files in proportion to the players of the rated games:
    a page each, and a row in every year-end list from their first game on (measured in
    ``docs/operations.md``, *Size*). A database of a million players who each played one game
    would otherwise take tens of GB and a million files, and end in an out-of-memory error.

    Parameters
    ----------
    rated : pandas.DataFrame
        The rated games (``black``, ``white``).
    max_players : int
        The cap (``Run.max_players``, ``--max-players``).

    Returns
    -------
    int
        The number of players.

    Raises
    ------
    SizeError
        Naming the number, the cap, and how to raise it.
    """
    players = pd.unique(pd.concat([rated["black"], rated["white"]], ignore_index=True).dropna())
    if len(players) > max_players:
        raise SizeError(
            f"refused to publish: the list would have {len(players):,} players, more than "
            f"--max-players {max_players:,}; publishing needs memory, time and files in "
            "proportion to the players (per 1,000 players of a long history, about 19 MB of "
            "memory and 1,000 files: see docs/operations.md, Size). If the input is genuine "
            "and the machine has the memory, raise --max-players"
        )
    return len(players)


def check(
    counts: Mapping[str, Any],
    previous: Mapping[str, Any] | None,
    previous_day: dt.date | None,
    max_shrink: float,
) -> list[str]:
    """The gates the list fails, one sentence each (empty when it passes).

    Parameters
    ----------
    counts : mapping
        The new list's counts (``rated_games``, ``listed``, ``established``).
    previous : mapping or None
        The previous list's counts, from its manifest (None when there is none).
    previous_day : datetime.date or None
        The previous list's day, for the messages.
    max_shrink : float
        Largest accepted fall, as a fraction of the previous count.
    """
    failed = []
    if not counts.get("rated_games"):
        failed.append("the list has no rated games")
    if not counts.get("listed"):
        failed.append("the list has no listed player")
    for key, label in SHRINKING.items():
        before = (previous or {}).get(key)
        after = counts.get(key, 0)
        if isinstance(before, int) and before > 0 and after < before * (1 - max_shrink):
            failed.append(
                f"{label} fell from {before} on {previous_day} to {after} "
                f"({(after - before) / before:+.1%}), more than the {max_shrink:.0%} allowed "
                "(max_shrink)"
            )
    return failed


def refusal(failed: list[str]) -> str:
    """The message of a refused list."""
    return (
        "refused to publish: "
        + "; ".join(failed)
        + ". Check the input; if the list is right, publish it with --force REASON"
    )
