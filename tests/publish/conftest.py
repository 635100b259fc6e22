"""Fixtures for the publishing tests: one small synthetic history, selected, fitted and published
once per session (names and ids chosen to be hostile)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import support


@pytest.fixture(scope="session")
def small() -> support.Inputs:
    inputs = support.inputs(
        800,
        names={0: support.HOSTILE_NAME, 1: support.QUOTED_NAME},
        ids={2: support.ODD_ID},
    )
    # the tests' list date is the last game day (see test_list_after_the_last_game_day)
    assert max(inputs.data.games["date"]) == support.AS_OF
    return inputs


@pytest.fixture(scope="session")
def published(small, tmp_path_factory) -> Path:
    """``out`` tree with the renju list of support.AS_OF published once (do not modify)."""
    out = tmp_path_factory.mktemp("published")
    support.publish_inputs(out, small)
    return out


@pytest.fixture(scope="session")
def artifacts() -> Path:
    path = Path(__file__).resolve().parents[1] / "artifacts"
    path.mkdir(exist_ok=True)
    return path
