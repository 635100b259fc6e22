"""The parameters of a run's parts, each one frozen, typed and validated value with units.

Light on purpose (standard library only): the command line builds and checks them before
anything heavy (pandas, Prefect) is imported. Defaults are declared here and nowhere else.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

#: The rule categories the database knows (its rules' ``category`` 1 and 2).
CATEGORIES = ("renju", "gomoku")

#: Minus the Hessian's diagonal gets this much added for the uncertainties (natural units^-2),
#: as the reference implementation (the ``whr`` package) does.
REFERENCE_JITTER = 0.001


def _check(checks: dict[str, tuple[bool, str]], value: object) -> None:
    """Raise ``ValueError`` naming the first field whose check failed."""
    for name, (ok, expected) in checks.items():
        if not ok:
            raise ValueError(f"{name} must be {expected}, got {getattr(value, name)!r}")


def _finite(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _count(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True)
class FitParams:
    """The parameters of a fit, with units.

    Attributes
    ----------
    w2 : float
        Wiener variance of a rating, Elo^2 per day (RIF rating rules 2021: 12.9).
    virtual_games : float
        Virtual draws on each player's first rating day (RIF rating rules 2021: 2).
    virtual_rating : float
        Published rating of the virtual opponent (1900 = internal 0).
    tol_elo : float
        Convergence: largest rating change of the last Newton step, Elo.
    tol_grad : float
        Convergence: largest gradient component of the log posterior, per natural unit.
    max_iter : int
        Newton iterations before :class:`whr.ConvergenceError`.
    jitter : float
        Added to minus the Hessian's diagonal for the uncertainties (natural units^-2), as the
        reference implementation does (0.001).
    """

    w2: float = 12.9
    virtual_games: float = 2.0
    virtual_rating: float = 1900.0
    tol_elo: float = 0.01
    tol_grad: float = 1e-6
    max_iter: int = 100
    jitter: float = REFERENCE_JITTER

    def __post_init__(self) -> None:
        _check(
            {
                "w2": (
                    _finite(self.w2) and self.w2 > 0,
                    "a positive finite number of Elo^2 per day",
                ),
                "virtual_games": (
                    _finite(self.virtual_games) and self.virtual_games > 0,
                    "a positive number of virtual draws",
                ),
                "virtual_rating": (_finite(self.virtual_rating), "a finite published rating"),
                "tol_elo": (_finite(self.tol_elo) and self.tol_elo > 0, "a positive number of Elo"),
                "tol_grad": (_finite(self.tol_grad) and self.tol_grad > 0, "a positive number"),
                "max_iter": (_count(self.max_iter) and self.max_iter >= 1, "an integer >= 1"),
                "jitter": (_finite(self.jitter) and self.jitter >= 0, "a finite number >= 0"),
            },
            self,
        )

    def as_dict(self) -> dict[str, float | int]:
        """The parameters as a plain dict (for manifests)."""
        return {k: (int(v) if k == "max_iter" else float(v)) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class PullSettings:
    """How sources are fetched over http(s) (local paths are read in place).

    Attributes
    ----------
    timeout_s : float
        Seconds to wait for the connection and for each read.
    deadline_s : float
        Seconds one download may take in all, whatever the server does.
    max_bytes : int
        Largest download accepted, in bytes as served.
    retries : int
        Further attempts after a transient failure (timeout, broken connection, HTTP 408, 429,
        5xx); a final one (404, a cap exceeded) is not retried.
    backoff_s : float
        Wait before the first retry, in seconds, doubled before each further one.
    """

    timeout_s: float = 60.0
    deadline_s: float = 1800.0
    max_bytes: int = 500_000_000
    retries: int = 3
    backoff_s: float = 10.0

    def __post_init__(self) -> None:
        _check(
            {
                "timeout_s": (_finite(self.timeout_s) and self.timeout_s > 0, "> 0 seconds"),
                "deadline_s": (_finite(self.deadline_s) and self.deadline_s > 0, "> 0 seconds"),
                "max_bytes": (_count(self.max_bytes) and self.max_bytes > 0, "a positive integer"),
                "retries": (_count(self.retries) and self.retries >= 0, "an integer >= 0"),
                "backoff_s": (_finite(self.backoff_s) and self.backoff_s >= 0, ">= 0 seconds"),
            },
            self,
        )
