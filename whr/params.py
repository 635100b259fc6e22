"""The parameters of a run's parts, each one frozen, typed and validated value with units.

:class:`FitParams` (the fit's) is :mod:`whr.fit_params`'s, re-exported here beside the others.

Light on purpose (standard library only): the command line builds and checks them before
anything heavy (pandas, Prefect) is imported. Defaults are declared here and nowhere else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from whr.fit_params import FitParams as FitParams

#: The largest download, and the largest file once unpacked, accepted by default, in bytes.
DEFAULT_MAX_BYTES = 500_000_000

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


def is_url(source: object) -> bool:
    """True when ``source`` is a string starting with ``http://`` or ``https://`` (anything
    else is a local path)."""
    return isinstance(source, str) and source.lower().startswith(("http://", "https://"))


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
    deadline_s: float = 900.0
    max_bytes: int = DEFAULT_MAX_BYTES
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


@dataclass(frozen=True)
class ReadLimits:
    """How much a reader accepts before it refuses a source; each limit has a command-line flag.

    A source over ``max_unpacked_bytes`` or ``max_value_chars`` is refused with a
    ``SourceError`` that names the limit and its flag; a name over ``max_name_chars`` is cut
    and reported (problem ``long_name``), never refused.

    Attributes
    ----------
    max_unpacked_bytes : int
        Bytes of one file's payload once unpacked from gzip or zip (the file's own size when
        it is not compressed), > 0. Default ``DEFAULT_MAX_BYTES`` (500 MB), the same cap as
        ``pull``'s ``max_bytes`` on downloads unless set apart (flag
        ``--max-unpacked-bytes``). Stops compression bombs before they are parsed.
    max_value_chars : int
        Characters of one value, > 0: an attribute value or a text node of XML (checked as
        the characters between two ``<``, so a whole tag is bounded too), a cell of a
        canonical table, a line of an EGF table. Default 1,000,000, about a thousand times
        the longest value of the RenjuNet database (a game's move list); flag
        ``--max-value-chars``. Keeps parse time and memory linear in the input's size.
    max_name_chars : int
        Characters of a player's or tournament's name (and of a city or country name), > 0;
        a longer one is cut to this length and reported as a ``long_name`` warning. Default
        200; flag ``--max-name-chars``.
    """

    max_unpacked_bytes: int = DEFAULT_MAX_BYTES
    max_value_chars: int = 1_000_000
    max_name_chars: int = 200

    def __post_init__(self) -> None:
        for spec in fields(self):
            value = getattr(self, spec.name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(
                    f"ReadLimits.{spec.name} must be a positive int; got "
                    f"{type(value).__name__} {value!r}"
                )
            if value <= 0:
                raise ValueError(f"ReadLimits.{spec.name} must be a positive int; got {value!r}")
