"""Replays are archive citizens (issue 29, item 2): each written with its manifest, checked by
every run and by ``--verify`` as the days are; a damaged, forged, foreign, stale or old replay is
reported with what to do and never used, and the list goes out correctly.

One synthetic history published on a day, backfilled up to it, then published on the next
day with the replay as written (the reference) and with the replay spoilt in each way.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import support

import whr
import whr.publish
from whr.publish.files import read_parquet, write_parquet
from whr.publish.layout import Channel, Layout
from whr.publish.replay import check
from whr.rules import default_directory, load_config
from whr.tables import RATINGS, RECORD, TOURNAMENT_CHANGES

CONFIG = load_config(default_directory())
FIRST = dt.date(2026, 11, 4)  # the archive's first day; the replay covers the days up to it
NEXT = dt.date(2026, 11, 5)  # a list that first rates two tournaments
RENJU = Channel("renju")


def _publish(out: Path, history: support.Inputs, day: dt.date) -> whr.publish.Published:
    selection = whr.select(history.data, day, config=CONFIG)
    given = dataclasses.replace(history, selection=selection, fit=whr.fit(selection.rated))
    return support.publish_inputs(out, given, day)


@pytest.fixture(scope="module")
def history() -> support.Inputs:
    return support.inputs(300)


@pytest.fixture(scope="module")
def tree(history: support.Inputs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first day published, then the backfill of the days up to it."""
    out = tmp_path_factory.mktemp("replays") / "out"
    _publish(out, history, FIRST)
    support.backfill(out, history, FIRST, FIRST)
    return out


@pytest.fixture(scope="module")
def reference(history: support.Inputs, tree: Path, tmp_path_factory: pytest.TempPathFactory):
    """The next day published with the replay as written: its list, tables and warnings."""
    out = tmp_path_factory.mktemp("reference") / "out"
    shutil.copytree(tree, out, symlinks=True)
    published = _publish(out, history, NEXT)
    return _tables(out), published


def _tables(out: Path) -> dict[str, pd.DataFrame]:
    entry = support.entry_of(out, NEXT)
    return {
        "ratings": read_parquet(entry / "ratings.parquet", RATINGS),
        "changes": read_parquet(entry / "tournament_changes.parquet", TOURNAMENT_CHANGES),
        "record": read_parquet(entry / "record.parquet", RECORD),
    }


def _replay(out: Path) -> Path:
    return Layout(out).replay(RENJU, FIRST)


def test_a_replay_as_written_checks_and_is_used(tree: Path, reference) -> None:
    good = check(Layout(tree), RENJU, whr.publish.archive.scan(Layout(tree), RENJU).good)
    assert [r.path for r in good.good] == [_replay(tree)] and good.bad == []
    tables, published = reference
    assert not any("replay" in w for w in published.warnings), published.warnings
    assert (tables["changes"]["source"] == "replay").any()
    assert (tables["record"]["source"] == "replay").any()
    assert tables["ratings"]["rating_change"].notna().sum() > len(tables["ratings"]) // 2
    assert whr.publish.verify(tree).ok


def _truncated(path: Path, out: Path, history: support.Inputs) -> str:
    file = path / "record.parquet"
    file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])
    return "record.parquet has"


def _forged(path: Path, out: Path, history: support.Inputs) -> str:
    """Every rating 999, a valid Parquet file in place of the one the manifest lists."""
    file = path / "tournament_changes.parquet"
    table = read_parquet(file, TOURNAMENT_CHANGES).assign(rating_before=999.0, rating_after=999.0)
    write_parquet(table, TOURNAMENT_CHANGES, file, {})
    return "tournament_changes.parquet"


def _foreign_list(path: Path, out: Path, history: support.Inputs) -> str:
    """The replay of another list (gomoku's, as rif-rating backfill wrote it into this tree),
    moved into renju's: the ledger holds it where it was written, not here."""
    written = support.backfill(out, history, FIRST, FIRST, category="gomoku")
    shutil.rmtree(path)
    os.rename(written, path)
    return "it was changed after the run wrote it"


def _foreign_tree(path: Path, out: Path, history: support.Inputs) -> str:
    """A replay written into another tree (another database published on FIRST), copied in."""
    other = out.parent / "other"
    shifted = support.inputs(300, seed=5)
    shifted = dataclasses.replace(
        shifted, data=dataclasses.replace(shifted.data, inputs=(("other.xml", "1" * 64),))
    )
    _publish(other, shifted, FIRST)
    written = support.backfill(other, shifted, FIRST, FIRST)
    shutil.rmtree(path)
    shutil.copytree(written, path)
    return "it was changed after the run wrote it"


def _edited_manifest(path: Path, out: Path, history: support.Inputs) -> str:
    """The manifest edited where no other check looks (its creation time): the ledger, which
    recorded the manifest as the backfill wrote it, catches it."""
    file = path / "manifest.json"
    file.write_text(file.read_text().replace('"created": "2', '"created": "1'))
    return "does not match the checksum recorded in"


def _stale(path: Path, out: Path, history: support.Inputs) -> str:
    """Computed with another w2 than the list's."""
    parameters = support.run(out, FIRST).parameters("renju", "x" * 64)
    support.backfill(out, history, FIRST, FIRST, parameters={**parameters, "w2_elo2_per_day": 19})
    return "other parameters than the list"


def _old(path: Path, out: Path, history: support.Inputs) -> str:
    """A replay as format 5 wrote it (one file, no manifest), instead of the directory."""
    table = read_parquet(path / "tournament_changes.parquet", TOURNAMENT_CHANGES)
    shutil.rmtree(path)
    write_parquet(table, TOURNAMENT_CHANGES, path.parent / f"{FIRST}.parquet", {})
    return "written before replays had a manifest"


@pytest.mark.parametrize(
    "spoil",
    [_truncated, _forged, _foreign_list, _foreign_tree, _edited_manifest, _stale, _old],
    ids=lambda f: f.__name__[1:],
)
def test_a_bad_replay_is_caught_by_the_run_and_by_verify_and_never_used(
    spoil, history: support.Inputs, tree: Path, reference, tmp_path: Path
) -> None:
    """The next run publishes the list correctly (the changes as with the good replay: none
    null; nothing of the bad replay in its tables, which hold only what the archive kept)
    and says what is wrong with the replay and what to do; --verify reports it (exit 1)."""
    out = tmp_path / "out"
    shutil.copytree(tree, out, symlinks=True)
    said = spoil(_replay(out), out, history)
    found = check(Layout(out), RENJU, whr.publish.archive.scan(Layout(out), RENJU).good)
    lines = found.bad + found.foreign
    (line,) = [x for x in lines if said in x]
    # an old replay in place of the one the ledger holds: that one is missing too
    assert len(lines) == 1 or (spoil is _old and "the replay is missing" in " ".join(lines))
    assert found.good == [], lines
    assert "not used" in line and "delete" in line

    published = _publish(out, history, NEXT)
    assert any(said in w for w in published.warnings), published.warnings
    tables, good = _tables(out), reference[0]
    # the list as with the good replay, but for the best published rating: without the replay,
    # the best of the lists the archive holds
    best = ["best_rating", "best_date"]
    pd.testing.assert_frame_equal(
        tables["ratings"].drop(columns=best), good["ratings"].drop(columns=best)
    )
    assert tables["ratings"]["rating_change"].notna().sum() > len(tables["ratings"]) // 2
    shown = np.rint(tables["ratings"]["rating"].to_numpy(float))  # whole Elo, as the list shows
    assert (tables["ratings"]["best_rating"].to_numpy(float) >= shown).all()
    assert (tables["changes"]["source"] == "daily").all()  # nothing of the replay
    assert (tables["record"]["source"] == "list").all()
    assert (tables["changes"]["rating_after"] != 999.0).all()
    manifest = json.loads((support.entry_of(out, NEXT) / "manifest.json").read_text())
    assert any(said in w for w in manifest["warnings"])

    verified = whr.publish.verify(out)
    reported = verified.damaged + verified.foreign
    assert not verified.ok and any(said in d for d in reported), reported


def test_a_replay_the_ledger_does_not_hold_is_foreign_and_never_used(
    tree: Path, tmp_path: Path
) -> None:
    """A replay copied in beside the one the backfill wrote, under a day the ledger never
    held: named as foreign by the run and by --verify (exit 1), never used, never removed."""
    out = tmp_path / "out"
    shutil.copytree(tree, out, symlinks=True)
    planted = _replay(out).parent / (FIRST - dt.timedelta(days=1)).isoformat()
    shutil.copytree(_replay(out), planted)
    found = check(Layout(out), RENJU, whr.publish.archive.scan(Layout(out), RENJU).good)
    assert [r.path for r in found.good] == [_replay(out)] and found.bad == []
    (line,) = found.foreign
    assert line.startswith(f"{planted} is a replay the ledger does not hold: rif-rating backfill")
    verified = whr.publish.verify(out)
    assert not verified.ok and verified.foreign == (line,) and planted.is_dir()
