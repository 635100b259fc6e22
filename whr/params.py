"""The parameters of a run's parts, each one frozen, typed and validated value with units.

:class:`FitParams` (the fit's) is :mod:`whr.fit_params`'s, re-exported here beside the others.

Light on purpose (standard library only): the command line builds and checks them before
anything heavy (pandas, Prefect) is imported. Defaults are declared here and nowhere else.
"""

from __future__ import annotations

import math
import os
import re
import urllib.parse
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
    else is a local path); an ``env:NAME`` source is not resolved here."""
    return isinstance(source, str) and source.lower().startswith(("http://", "https://"))


# -- Sources whose address is secret -------------------------------------------------------------

ENV_PREFIX = "env:"
"""A source ``env:NAME`` is the URL (or path) held by the environment variable ``NAME``: how a
secret address reaches a run without being written into its parameters, which Prefect stores."""
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
HIDDEN = "[hidden]"
"""What a published name shows instead of a URL's query string."""


class SecretSourceError(ValueError):
    """A source address cannot be used without giving its secret away (credentials in the URL,
    an unset ``env:NAME``); the message says what to do and never quotes the secret."""


def env_name(source: object) -> str | None:
    """``NAME`` of a source ``env:NAME``, else None."""
    if isinstance(source, str) and source.startswith(ENV_PREFIX):
        return source[len(ENV_PREFIX) :]
    return None


def check_source(source: str) -> None:
    """Check the form of a source without reading the environment: a URL by :func:`check_url`,
    ``env:NAME`` for a valid variable name; raise :class:`SecretSourceError` otherwise."""
    name = env_name(source)
    if name is not None and not _ENV_NAME.fullmatch(name):
        raise SecretSourceError(
            f"source {source!r}: expected env:NAME with NAME an environment variable's name "
            "(letters, digits, _)"
        )
    if is_url(source):
        check_url(source)


def resolve_source(source: str) -> str:
    """The address a source names: the value of ``NAME`` for ``env:NAME``, else ``source``.

    Raises
    ------
    SecretSourceError
        When the variable's name is not a valid name, or it is not set or empty.
    """
    name = env_name(source)
    if name is None:
        return source
    check_source(source)
    value = os.environ.get(name, "").strip()
    if not value:
        raise SecretSourceError(
            f"source {source}: the environment variable {name} is not set or empty; set it to "
            "the database's URL (or path)"
        )
    return value


def has_secret(url: str) -> bool:
    """True when the URL carries what must not be published: credentials, a query string, a
    fragment."""
    parts = urllib.parse.urlsplit(url)
    return bool(
        parts.username or parts.password or "@" in parts.netloc or parts.query or parts.fragment
    )


def public_source(source: str) -> str:
    """How a source is named wherever it is shown: pages, tables, manifests, logs, messages.

    A URL loses its credentials, its query string (shown as ``?[hidden]``) and its fragment:
    ``https://user:pw@host/db.rif?token=X`` is ``https://host/db.rif?[hidden]``. An ``env:NAME``
    source is named by the public form of its value when it is set. A local path is itself.
    """
    name = env_name(source)
    if name is not None:
        try:
            source = resolve_source(source)
        except SecretSourceError:
            return source
    if not is_url(source):
        return source
    parts = urllib.parse.urlsplit(source)
    host = parts.netloc.rpartition("@")[2]
    shown = urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))
    return shown + (f"?{HIDDEN}" if parts.query else "")


def check_url(url: str) -> None:
    """Refuse a URL that cannot be fetched without giving a secret away.

    Credentials in the URL (``https://user:password@host/...``) are refused: urllib would not
    send them anyway, and the error messages of a failed connection would quote them. A token
    belongs in the query string, and the whole URL in an environment variable (``env:NAME``).
    Blanks and control characters are refused too (http.client quotes the URL when it refuses
    them).

    Raises
    ------
    SecretSourceError
        Naming the URL in its public form (:func:`public_source`) and what to do.
    """
    parts = urllib.parse.urlsplit(url)
    if "@" in parts.netloc:
        raise SecretSourceError(
            f"source {public_source(url)}: credentials in a URL (user:password@) are refused; "
            "give the server's token in the query string instead, and the whole URL in an "
            "environment variable: --source env:NAME (see docs/sources.md, Secret addresses)"
        )
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        raise SecretSourceError(
            f"source {public_source(url)}: a URL must not contain blanks or control characters"
        )


@dataclass(frozen=True)
class PullSettings:
    """How sources are fetched over http(s) (local paths are read in place).

    Attributes
    ----------
    timeout_s : float
        Seconds to wait for the connection and for each read.
    deadline_s : float
        Seconds a download may take in all, every attempt and the waits between them included,
        whatever the server does (a server that trickles a byte now and then never trips
        ``timeout_s``). The flow's pull task is stopped a minute after it, as a backstop.
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
