"""Writing the backfill's replay into the published tree (``rif-rating backfill``).

:func:`write_replay` writes a replay (:mod:`whr.publish.replay`) whole: into a work directory
beside it, recorded in the ledger (the commit point), then exchanged with the replay of the
same day, if any (``renameat2`` on Linux), under the tree's lock, never through a symbolic
link. A run killed after the ledger recorded it leaves the work directory, which the next
run's check puts in place; before, it leaves nothing the next run keeps.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from whr.publish.archive import scan
from whr.publish.files import (
    exchange,
    make_dir,
    parquet_metadata,
    read_bytes,
    read_parquet,
    remove,
    sync_dir,
    token,
)
from whr.publish.layout import Channel, Layout, real_dir
from whr.publish.ledger import RESTORE, LedgerError, Records, now
from whr.publish.lock import COMMIT, hold
from whr.publish.parquet import jsonable, versions, write_entry
from whr.publish.repair import check_and_repair
from whr.tables import FORMAT_VERSION, RECORD, TOURNAMENT_CHANGES

__all__ = ["read_replay", "write_replay"]


def _anchor(layout: Layout, channel: Channel) -> dict[str, Any] | None:
    """The newest published day of ``channel`` that checks: its day and input digest."""
    found = scan(layout, channel).good
    if not found:
        return None
    newest = found[-1]
    return {"day": newest.day.isoformat(), "inputs_sha256": newest.manifest.get("inputs_sha256")}


@dataclass(frozen=True)
class _Tables:
    """A replay's tables, as :func:`whr.publish.parquet.write_entry` writes them."""

    changes: pd.DataFrame
    record: pd.DataFrame

    def items(self) -> list[tuple[str, pd.DataFrame, Any]]:
        return [
            ("tournament_changes", self.changes, TOURNAMENT_CHANGES),
            ("record", self.record, RECORD),
        ]


def write_replay(
    out: Path,
    channel: Channel,
    day: dt.date,
    changes: pd.DataFrame,
    record: pd.DataFrame,
    parameters: dict[str, Any],
    *,
    input_sha256: str,
    until: dt.date,
    about: dict[str, Any] | None = None,
    wait: bool = False,
) -> Path:
    """Write the replay of ``channel`` from the games known on ``day``; return its directory.

    Parameters
    ----------
    out : Path
        The published tree.
    channel : Channel
        The list.
    day : datetime.date
        The day whose games were replayed (the backfill's ``as_of``).
    changes, record : pandas.DataFrame
        The tables (``TOURNAMENT_CHANGES``, ``RECORD``).
    parameters : dict
        The parameters of the list, as a day's manifest records them
        (:meth:`whr.run.Run.parameters`); also each file's ``whr.parameters`` metadata, with
        ``until`` and ``input_sha256``.
    input_sha256 : str
        The digest of the database read.
    until : datetime.date
        The last day replayed.
    about : dict, optional
        Further facts for the manifest (days replayed, ranges).
    wait : bool
        Wait for a run that holds the tree's lock instead of failing at once.

    Raises
    ------
    whr.publish.LockedError
        When another run holds the lock and ``wait`` is false.
    whr.publish.TreeError
        When a directory on the way is a symbolic link (or not a directory).
    """
    layout = Layout(Path(out))
    target = layout.replay(channel, day)
    with hold(layout.out, wait=wait):
        records = Records.read(layout.out)
        problem = records.ledger.problem
        legacy = not records.ledger.raw and any(layout.days(c) for c in layout.channels())
        if problem is None and legacy:  # a tree written before the ledger: adopted first
            problem = check_and_repair(layout.out).problem
        if problem is not None:
            raise LedgerError(f"{problem}; {RESTORE}")
        here = layout.out
        for part in target.parent.relative_to(layout.out).parts:  # each a real directory
            here = here / part
            if not real_dir(here):
                os.mkdir(here)
        for left in target.parent.glob(".*"):  # what a killed write left; the lock is ours
            remove(left)
        info = {
            "format": FORMAT_VERSION,
            "kind": "replay",
            "list": {"category": channel.category, "variant": channel.variant},
            "as_of": day.isoformat(),
            "until": until.isoformat(),
            "input_sha256": input_sha256,
            "parameters": jsonable(parameters),
            "archive": _anchor(layout, channel),
            **jsonable(about or {}),
            "packages": versions(),
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
        work = make_dir(target.parent / f".work-{token()}")
        try:
            write_entry(
                work,
                _Tables(changes, record),
                info,
                metadata=parquet_metadata(
                    jsonable({**parameters, "until": until, "input_sha256": input_sha256})
                ),
            )
            manifest = read_bytes(work / "manifest.json")
            with COMMIT:
                records = Records.read(layout.out)
                text = records.ledger.line(
                    "replay", {target / "manifest.json": manifest}, channel=channel,
                    at=now(), day=day.isoformat(),
                )  # fmt: skip
                records.ledger.append(text, records.sums)  # the commit point
                exchange(work, target)
                sync_dir(target.parent)
        finally:
            remove(work)
    return target


def read_replay(out: Path, channel: Channel, day: dt.date) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The tables of the replay of ``channel`` from the games known on ``day`` (unchecked: see
    :func:`whr.publish.replay.check`)."""
    path = Layout(Path(out)).replay(channel, day)
    return (
        read_parquet(path / "tournament_changes.parquet", TOURNAMENT_CHANGES),
        read_parquet(path / "record.parquet", RECORD),
    )
