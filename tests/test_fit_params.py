"""whr.FitParams: the one value of a fit's parameters (defaults, checks, record, light import)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest

from whr.params import FitParams


def test_defaults_are_those_of_the_rif_rating_rules_2021():
    p = FitParams()
    assert p.w2_elo2_per_day == 12.9
    assert p.virtual_games == 2.0
    assert p.virtual_rating == 1900.0
    assert p.jitter_per_natural2 == 0.001  # what the reference implementation adds


def test_frozen_and_normalised():
    p = FitParams(
        virtual_games=2, max_newton_iterations=np.int64(50), w2_elo2_per_day=np.float32(3)
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.w2_elo2_per_day = 1.0  # type: ignore[misc]
    assert type(p.virtual_games) is float and type(p.max_newton_iterations) is int
    assert p == FitParams(virtual_games=2.0, max_newton_iterations=50, w2_elo2_per_day=3.0)
    assert hash(p) == hash(
        FitParams(virtual_games=2.0, max_newton_iterations=50, w2_elo2_per_day=3)
    )


def test_as_dict_and_back():
    p = FitParams(w2_elo2_per_day=19.3, virtual_games=1)
    d = p.as_dict()
    assert d == {
        "w2_elo2_per_day": 19.3,
        "virtual_games": 1.0,
        "virtual_rating": 1900.0,
        "tol_elo": 0.01,
        "tol_grad_per_natural_unit": 1e-6,
        "max_newton_iterations": 100,
        "jitter_per_natural2": 0.001,
    }
    assert FitParams.from_dict(d) == p
    assert FitParams.from_dict({"virtual_games": 3}) == FitParams(virtual_games=3)
    with pytest.raises(ValueError, match=r"unknown FitParams fields \['w2'\]"):
        FitParams.from_dict({"w2": 12.9})
    with pytest.raises(TypeError, match="values must be a mapping"):
        FitParams.from_dict([("w2_elo2_per_day", 12.9)])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("w2_elo2_per_day", -1.0, "a positive finite number of Elo^2 per day, got -1.0"),
        ("w2_elo2_per_day", 0, "a positive finite number of Elo^2 per day, got 0.0"),
        ("w2_elo2_per_day", float("inf"), "positive finite"),
        ("virtual_games", 0, "a positive finite number of virtual draws, got 0.0"),
        ("virtual_rating", float("nan"), "a finite rating"),
        ("tol_elo", 0.0, "tol_elo must be a positive"),
        ("tol_grad_per_natural_unit", -1e-6, "tol_grad_per_natural_unit must be a positive"),
        ("max_newton_iterations", 0, "an integer >= 1, got 0"),
        ("jitter_per_natural2", -0.001, "a finite number >= 0, got -0.001"),
    ],
)
def test_out_of_range_names_the_field_the_range_and_the_value(field, value, expected):
    with pytest.raises(ValueError, match=f"^{field} must be") as info:
        FitParams(**{field: value})
    assert expected in str(info.value)


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("w2_elo2_per_day", "12.9", "w2_elo2_per_day must be a real number, got str: '12.9'"),
        ("virtual_games", True, "virtual_games must be a real number, got bool: True"),
        ("virtual_rating", None, "virtual_rating must be a real number, got NoneType"),
        ("max_newton_iterations", 10.0, "max_newton_iterations must be an integer, got float"),
    ],
)
def test_wrong_types_name_the_field_and_what_came(field, value, expected):
    with pytest.raises(TypeError) as info:
        FitParams(**{field: value})
    assert expected in str(info.value)


def test_importing_the_parameters_loads_no_numerical_library():
    """A command line can check the fit's parameters without paying for numpy or pandas."""
    code = (
        "import sys, whr\n"
        "whr.FitParams(w2_elo2_per_day=19.3)\n"
        "from whr.params import FitParams\n"
        "loaded = sorted(m for m in ('numpy', 'pandas', 'pyarrow', 'scipy') if m in sys.modules)\n"
        "print(','.join(loaded))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == ""
