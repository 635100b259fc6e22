"""The backfill's table in the published tree: ``OUT/archive/<list>/replay/<D>.parquet``.

One file per list and day ``D`` whose games were replayed (``whr.lists.at_the_time.replay``), schema
``whr.tables.TOURNAMENT_CHANGES``. It is written whole beside its name and renamed over it
(:func:`whr.publish.files.write_parquet`), under the tree's lock, never through a symbolic link;
the daily run never writes it. The daily run reads the newest (:func:`newest_replay`) and
carries its rows forward into the list's own table (``tournament_changes.parquet`` of each
entry) for the tournaments that table has none of (whr.publish.commit.previous).
"""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path
from typing import Any

import pandas as pd

from whr.publish.files import kind, parquet_metadata, read_parquet, sync_dir, write_parquet
from whr.publish.layout import Channel, Layout, real_dir
from whr.publish.lock import hold
from whr.tables import TOURNAMENT_CHANGES

DAY_FILE = re.compile(r"\d{4}-\d{2}-\d{2}\.parquet")
"""The name of a replay's file: its day."""

__all__ = ["newest_replay", "read_replay", "write_replay"]


def _directory(layout: Layout, path: Path) -> None:
    """Make ``path`` (below ``layout.out``) and the directories above it, each a real one: a
    symbolic link on the way raises :class:`whr.publish.layout.TreeError`."""
    here = layout.out
    for part in path.relative_to(layout.out).parts:
        here = here / part
        if not real_dir(here):
            os.mkdir(here)


def write_replay(
    out: Path,
    channel: Channel,
    day: dt.date,
    table: pd.DataFrame,
    parameters: dict[str, Any],
    *,
    wait: bool = False,
) -> Path:
    """Write the replay of ``channel`` from the games known on ``day``; return its path.

    Parameters
    ----------
    out : Path
        The published tree.
    channel : Channel
        The list.
    day : datetime.date
        The day whose games were replayed (the backfill's ``as_of``).
    table : pandas.DataFrame
        The rows (schema ``whr.tables.TOURNAMENT_CHANGES``).
    parameters : dict
        What made them, as JSON values: the file's ``whr.parameters`` metadata.
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
    path = layout.replay(channel, day)
    with hold(layout.out, wait=wait):
        _directory(layout, path.parent)
        for left in path.parent.glob(".*.tmp"):  # what a killed write left; the lock is ours
            if kind(left) == "file":
                os.unlink(left)
        write_parquet(table, TOURNAMENT_CHANGES, path, parquet_metadata(parameters))
        sync_dir(path.parent)
    return path


def read_replay(out: Path, channel: Channel, day: dt.date) -> pd.DataFrame:
    """Read the replay of ``channel`` from the games known on ``day`` back (never through a
    link)."""
    return read_parquet(Layout(Path(out)).replay(channel, day), TOURNAMENT_CHANGES)


def newest_replay(layout: Layout, channel: Channel) -> pd.DataFrame | None:
    """The replay of ``channel`` from the newest database replayed (by its day); None when the
    list has none. Read under the tree's lock (by the daily run's ``previous``)."""
    folder = layout.archive(channel) / "replay"
    if not real_dir(folder):
        return None
    days = sorted(
        p.name for p in folder.iterdir() if DAY_FILE.fullmatch(p.name) and kind(p) == "file"
    )
    return read_parquet(folder / days[-1], TOURNAMENT_CHANGES) if days else None
