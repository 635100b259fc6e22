"""The parameters of a run's parts, each one frozen, typed and validated value with units.

:class:`FitParams` (the fit's) is :mod:`whr.fit_params`'s, re-exported here beside the others.

Light on purpose (standard library only): the command line builds and checks them before
anything heavy (pandas, Prefect) is imported. Defaults are declared here and nowhere else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from whr.fit_params import FitParams as FitParams

#: The rule categories the database knows (its rules' ``category`` 1 and 2).
CATEGORIES = ("renju", "gomoku")


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
