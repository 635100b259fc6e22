"""Fixtures of the solver's tests."""

from __future__ import annotations

import pytest
from core_support import random_problem

from whr import core


@pytest.fixture(params=[0, 1, 2])
def problem(request) -> core.Problem:
    return random_problem(request.param)
