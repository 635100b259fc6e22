"""Fixtures for the publishing tests: one small synthetic history, selected, fitted and published
once per session (names and ids chosen to be hostile, two namesakes who met), and the same
history rendered with the list of an earlier day as the previous list."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import support

import whr
import whr.lists
from whr.publish.site import write
from whr.rules import default_directory, load_config

PREVIOUS = dt.date(2026, 5, 31)  # the previous list of the "changed" site


@pytest.fixture(scope="session")
def small() -> support.Inputs:
    inputs = support.inputs(
        800,
        names={0: support.HOSTILE_NAME, 1: support.QUOTED_NAME},
        ids={2: support.ODD_ID},
    )
    # the tests' list date is the last game day (see test_list_after_the_last_game_day)
    assert max(inputs.data.games["date"]) == support.AS_OF
    return support.with_namesakes(inputs)


@pytest.fixture(scope="session")
def published(small, tmp_path_factory) -> Path:
    """``out`` tree with the renju list of support.AS_OF published once (do not modify)."""
    out = tmp_path_factory.mktemp("published")
    support.publish_inputs(out, small)
    return out


@pytest.fixture(scope="session")
def two_days(small, tmp_path_factory) -> Path:
    """``out`` tree with the renju lists of PREVIOUS and then support.AS_OF published, each
    fitted from the games known that day: the second list has changes since the first, some
    of them tiny and negative (do not modify)."""
    out = tmp_path_factory.mktemp("two_days")
    selection = whr.select(small.data, PREVIOUS, config=load_config(default_directory()))
    fit = whr.fit(selection.rated, whr.FitParams())
    params = {**small.params, "as_of": PREVIOUS.isoformat()}
    support.publish_inputs(out, support.Inputs(small.data, selection, fit, params), PREVIOUS)
    support.publish_inputs(out, small)
    return out


@pytest.fixture(scope="session")
def changed(small, tmp_path_factory) -> tuple[Path, whr.lists.Snapshot]:
    """A site of support.AS_OF whose previous list is the list of PREVIOUS (same history, with
    its rating history: each change split into own games and others'): the site directory and
    the snapshot (do not modify)."""
    selection = whr.select(small.data, PREVIOUS, config=load_config(default_directory()))
    fit = whr.fit(selection.rated, whr.FitParams())
    before = whr.lists.build(small.data, selection, fit)
    previous = whr.lists.Previous(PREVIOUS, before.tables.ratings, before.tables.history)
    snapshot = support.snapshot_of(small, previous=previous)
    site = tmp_path_factory.mktemp("changed") / "site"
    write(site, snapshot.view, {"parameters": small.params})
    return site, snapshot


@pytest.fixture(scope="session")
def artifacts() -> Path:
    path = Path(__file__).resolve().parents[1] / "artifacts"
    path.mkdir(exist_ok=True)
    return path
