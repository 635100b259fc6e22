"""The parameters of a Whole-History Rating fit: one frozen, validated value, defaults declared once.

Only the standard library is imported here, so that a command line can build and check the
parameters (and answer a usage error) without loading numpy, pandas or the solver.
:class:`FitParams` is re-exported as ``whr.FitParams`` and ``whr.engine.FitParams``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

__all__ = ["REFERENCE_JITTER", "FitParams"]

#: What the RIF's reference implementation (PyPI ``whr`` 2.2.0, ``Player::hessian``) adds to
#: minus the Hessian's diagonal when it computes uncertainties, natural units^-2.
REFERENCE_JITTER = 0.001


@dataclass(frozen=True)
class FitParams:
    """The parameters of a fit, with their units in their names.

    Every field is checked when the value is made; numbers are stored as ``float`` (``int`` for
    the iteration cap), so two equal parameter sets compare and serialise equal.

    Attributes
    ----------
    w2_elo2_per_day : float
        Wiener variance of a player's rating, Elo^2 per day (> 0). RIF rating rules 2021: 12.9
        (the rules give the number; Elo^2 per day is the unit of the RIF's code).
    virtual_games : float
        Virtual draws on each player's first rating day against a virtual opponent (> 0; they
        make the posterior strictly concave and never count as games). RIF rating rules 2021: 2.
    virtual_rating : float
        Rating of the virtual opponent on the published scale (internal Elo + 1900), Elo points.
    tol_elo : float
        Convergence: largest rating change of the last (full) Newton step, Elo (> 0).
    tol_grad_per_natural_unit : float
        Convergence: largest component of the gradient of the log posterior, per natural unit of
        rating (one natural unit is ``400 / ln 10``, about 173.7 Elo) (> 0).
    max_newton_iterations : int
        Newton iterations before ``whr.ConvergenceError`` (>= 1).
    jitter_per_natural2 : float
        Added to the diagonal of minus the Hessian for the uncertainties only, natural units^-2
        (>= 0); the reference implementation adds 0.001 (``REFERENCE_JITTER``), so do we.

    Raises
    ------
    TypeError
        If a field is not a real number (an integer for ``max_newton_iterations``; ``bool`` is
        refused), naming the field, what was expected and what came.
    ValueError
        If a field is out of its range, naming the field, the range and the value.

    Examples
    --------
    >>> FitParams(w2_elo2_per_day=19.3).as_dict()["w2_elo2_per_day"]
    19.3
    """

    w2_elo2_per_day: float = 12.9
    virtual_games: float = 2.0
    virtual_rating: float = 1900.0
    tol_elo: float = 0.01
    tol_grad_per_natural_unit: float = 1e-6
    max_newton_iterations: int = 100
    jitter_per_natural2: float = REFERENCE_JITTER

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            integer = f.name == "max_newton_iterations"
            kind = numbers.Integral if integer else numbers.Real
            if isinstance(value, bool) or not isinstance(value, kind):
                expected = "an integer" if integer else "a real number"
                raise TypeError(
                    f"{f.name} must be {expected}, got {type(value).__name__}: {value!r}"
                )
            value = int(value) if integer else float(value)
            ok, expected = _RANGES[f.name](value)
            if not ok:
                raise ValueError(f"{f.name} must be {expected}, got {value!r}")
            object.__setattr__(self, f.name, value)

    def as_dict(self) -> dict[str, float | int]:
        """The parameters as a plain dict of field name to value (for manifests and logs)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> FitParams:
        """The parameters recorded by :meth:`as_dict` (missing fields take their defaults).

        Raises
        ------
        TypeError
            If ``values`` is not a mapping.
        ValueError
            If it names a field that does not exist (or a field is out of range).
        """
        if not isinstance(values, Mapping):
            raise TypeError(
                f"values must be a mapping of FitParams fields, got {type(values).__name__}"
            )
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(
                f"values has unknown FitParams fields {unknown}; known: {sorted(known)}"
            )
        return cls(**values)


def _positive(unit: str) -> Callable[[float], tuple[bool, str]]:
    return lambda v: (v > 0 and math.isfinite(v), f"a positive finite number of {unit}")


_RANGES: dict[str, Callable[[float], tuple[bool, str]]] = {
    "w2_elo2_per_day": _positive("Elo^2 per day"),
    "virtual_games": _positive("virtual draws"),
    "virtual_rating": lambda v: (math.isfinite(v), "a finite rating (published scale)"),
    "tol_elo": _positive("Elo"),
    "tol_grad_per_natural_unit": _positive("log posterior per natural unit"),
    "max_newton_iterations": lambda v: (v >= 1, "an integer >= 1"),
    "jitter_per_natural2": lambda v: (v >= 0 and math.isfinite(v), "a finite number >= 0"),
}
