"""The parameters of a run's parts, each declared once: a frozen dataclass field with its flag,
its help text, its unit and its check.

:class:`FitParams` (the fit), :class:`PullSettings` (downloads) and :class:`ReadLimits` (what the
readers accept) are made with :func:`param` fields: the command line (``flows/daily.py``), the
Prefect flow's form (pydantic reads a field's ``description``), the option table of
``docs/operations.md`` and the checks are all derived from these declarations, and
:class:`whr.run.Run` is declared the same way. Every check raises a ``TypeError`` (wrong kind) or
a ``ValueError`` (out of range) worded ``<field> must be <what>, got <value>``.

Light on purpose (standard library only): the command line builds and checks the parameters
before anything heavy (numpy, pandas, Prefect) is imported. Defaults are declared here and
nowhere else. The source addresses (``env:NAME``, URLs with secrets) are checked here too.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import os
import re
import typing
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any

__all__ = [
    "CATEGORIES",
    "DEFAULT_MAX_BYTES",
    "REFERENCE_JITTER",
    "Check",
    "FitParams",
    "PullSettings",
    "ReadLimits",
    "declared",
    "param",
    "same_as",
]

#: The largest download, and the largest file once unpacked, accepted by default, in bytes.
DEFAULT_MAX_BYTES = 500_000_000

#: The rule categories the database knows (its rules' ``category`` 1 and 2).
CATEGORIES = ("renju", "gomoku")

#: What the RIF's reference implementation (PyPI ``whr`` 2.2.0, ``Player::hessian``) adds to
#: minus the Hessian's diagonal when it computes uncertainties, natural units^-2.
REFERENCE_JITTER = 0.001


# -- Declaring a parameter -----------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """What a field's value must be: a kind (``real``, stored as float; ``integer``; ``bool``)
    and a range, with the words an error gives (``{unit}`` is the field's unit)."""

    kind: str
    ok: Callable[[Any], bool]
    expected: str


def at_least(n: int) -> Check:
    """An integer >= ``n``."""
    return Check("integer", lambda v: v >= n, f"an integer >= {n}")


POSITIVE = Check("real", lambda v: v > 0 and math.isfinite(v), "a positive finite number of {unit}")
NON_NEGATIVE = Check("real", lambda v: v >= 0 and math.isfinite(v), "a finite number >= 0")
FRACTION = Check("real", lambda v: 0 <= v <= 1, "a fraction between 0 and 1")
FLAG = Check("bool", lambda v: True, "true or false")

_KINDS: dict[str, tuple[type | tuple[type, ...], Callable[[Any], Any], str]] = {
    "real": (numbers.Real, float, "a real number"),
    "integer": (numbers.Integral, int, "an integer"),
    "bool": (bool, bool, "true or false"),
}


def param(
    default: Any = dataclasses.MISSING,
    *,
    help: str,
    flag: str | None = None,
    unit: str = "",
    check: Check | None = None,
    factory: Callable[[], Any] | None = None,
    shown: str | None = None,
    **more: Any,
) -> Any:
    """A dataclass field declared with what everything else derives from it.

    Parameters
    ----------
    default, factory
        The default value, or a function that makes it (none: the field is required).
    help : str
        What the field means, in a sentence (``--help``, the Prefect form, the docs' table).
    flag : str, optional
        The command-line option that sets it (none: not on the command line).
    unit : str
        Its unit (seconds, bytes, Elo^2 per day, ...).
    check : Check, optional
        Its kind and range, checked by :func:`check_fields` when a value is made.
    shown : str, optional
        How the default reads where it is not the value itself (``today (UTC)``).
    **more
        Further metadata for the command line: ``choices``, ``metavar``, ``follows`` (the
        dotted field whose given value is the default of this one).
    """
    metadata = {"description": help, "flag": flag, "unit": unit, "check": check, "shown": shown}
    metadata.update(more)
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


def same_as(cls: type, name: str, **changes: Any) -> Any:
    """The field ``name`` of the dataclass ``cls``, declared again for another dataclass that
    takes the same parameter: the same default, flag, help, unit and check, so that it is still
    declared once. ``changes`` replace what :func:`param` would set (``help=``, ``shown=``).
    """
    try:
        f = next(f for f in fields(cls) if f.name == name)
    except StopIteration:
        raise ValueError(f"{cls.__name__} has no field {name!r}") from None
    metadata = dict(f.metadata)
    if "help" in changes:
        changes["description"] = changes.pop("help")
    metadata.update(changes)
    if f.default_factory is not dataclasses.MISSING:
        return dataclasses.field(default_factory=f.default_factory, metadata=metadata)
    return dataclasses.field(default=f.default, metadata=metadata)


def check_fields(value: Any) -> None:
    """Check and normalise every field of the dataclass ``value`` that declares a check
    (numbers become ``float`` or ``int``, so equal parameters compare and serialise equal).

    Raises
    ------
    TypeError
        A field of the wrong kind (``bool`` is no number), naming the field and what came.
    ValueError
        A field out of its range, naming the field, the range and the value.
    """
    for f in fields(value):
        check = f.metadata.get("check")
        if check is None:
            continue
        x = getattr(value, f.name)
        kind, cast, said = _KINDS[check.kind]
        if not isinstance(x, kind) or (isinstance(x, bool) and check.kind != "bool"):
            raise TypeError(f"{f.name} must be {said}, got {type(x).__name__}: {x!r}")
        x = cast(x)
        if not check.ok(x):
            expected = check.expected.format(unit=f.metadata["unit"])
            raise ValueError(f"{f.name} must be {expected}, got {x!r}")
        object.__setattr__(value, f.name, x)


class Checked:
    """A frozen dataclass whose fields are checked by :func:`check_fields` when it is made."""

    def __post_init__(self) -> None:
        check_fields(self)


def declared(cls: type, prefix: str = "") -> Iterator[tuple[str, dataclasses.Field[Any], Any]]:
    """Every field of the dataclass ``cls``, those of its dataclass fields in their place:
    ``(dotted path, field, type)``, e.g. ``("pull.timeout_s", <Field>, float)``."""
    hints = typing.get_type_hints(cls)
    for f in fields(cls):
        kind = hints[f.name]
        if dataclasses.is_dataclass(kind) and isinstance(kind, type):
            yield from declared(kind, f"{prefix}{f.name}.")
        else:
            yield prefix + f.name, f, kind


# -- The parts of a run ----------------------------------------------------------------------------


@dataclass(frozen=True)
class FitParams(Checked):
    """The parameters of a Whole-History Rating fit (re-exported as ``whr.FitParams``).

    The RIF rating rules 2021 give w2 = 12.9 and 2 virtual games (Elo^2 per day is the unit of
    the RIF's code); the others are the solver's, with the reference implementation's values.

    Examples
    --------
    >>> FitParams(w2_elo2_per_day=19.3).as_dict()["w2_elo2_per_day"]
    19.3
    """

    w2_elo2_per_day: float = param(
        12.9,
        flag="--w2",
        unit="Elo^2 per day",
        check=POSITIVE,
        help="rating variability: the variance of a rating's Wiener process (RIF rating rules "
        "2021: 12.9)",
    )
    virtual_games: float = param(
        2.0,
        flag="--virtual-games",
        unit="virtual draws",
        check=POSITIVE,
        help="virtual draws against a 1900 player on each player's first day; they make the "
        "posterior strictly concave and never count as games (RIF rating rules 2021: 2)",
    )
    virtual_rating: float = param(
        1900.0,
        unit="Elo",
        check=Check("real", math.isfinite, "a finite rating (published scale)"),
        help="the rating of the virtual opponent on the published scale (internal Elo + 1900)",
    )
    tol_elo: float = param(
        0.01,
        unit="Elo",
        check=POSITIVE,
        help="convergence: the largest rating change of the last full Newton step",
    )
    tol_grad_per_natural_unit: float = param(
        1e-6,
        unit="log posterior per natural unit",
        check=POSITIVE,
        help="convergence: the largest component of the log posterior's gradient (a natural "
        "unit of rating is 400 / ln 10, about 173.7 Elo)",
    )
    max_newton_iterations: int = param(
        100,
        unit="iterations",
        check=at_least(1),
        help="Newton iterations before whr.ConvergenceError",
    )
    jitter_per_natural2: float = param(
        REFERENCE_JITTER,
        unit="natural units^-2",
        check=NON_NEGATIVE,
        help="added to the diagonal of minus the Hessian for the uncertainties only; the "
        "reference implementation adds 0.001, so do we",
    )

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


@dataclass(frozen=True)
class PullSettings(Checked):
    """How sources are fetched over http(s) (local paths are read in place)."""

    timeout_s: float = param(
        60.0,
        flag="--timeout",
        unit="seconds",
        check=POSITIVE,
        help="a download's wait for the connection and for each read",
    )
    # a server that trickles a byte now and then never trips timeout_s; the deadline stops it
    deadline_s: float = param(
        900.0,
        flag="--deadline",
        unit="seconds",
        check=POSITIVE,
        help="a download in all: every attempt and the waits between them, however the server "
        "trickles (the flow's pull task is stopped a minute after it, as a backstop)",
    )
    max_bytes: int = param(
        DEFAULT_MAX_BYTES,
        flag="--max-bytes",
        unit="bytes",
        check=at_least(1),
        help="refuse a download larger than this, as served",
    )
    retries: int = param(
        3,
        flag="--retries",
        unit="attempts",
        check=at_least(0),
        help="further download attempts after a transient failure (a timeout, a broken "
        "connection, HTTP 408, 425, 429, 5xx); a final one (404, a cap exceeded) is not retried",
    )
    backoff_s: float = param(
        10.0,
        flag="--backoff",
        unit="seconds",
        check=NON_NEGATIVE,
        help="the wait before the first retry, doubled before each further one",
    )


@dataclass(frozen=True)
class ReadLimits(Checked):
    """How much a reader accepts before it refuses a source.

    A source over ``max_unpacked_bytes`` or ``max_value_chars`` is refused with a
    ``SourceError`` that names the limit and its flag; a name over ``max_name_chars`` is cut
    and reported (problem ``long_name``), never refused.
    """

    # stops compression bombs before they are parsed
    max_unpacked_bytes: int = param(
        DEFAULT_MAX_BYTES,
        flag="--max-unpacked-bytes",
        unit="bytes",
        check=at_least(1),
        follows="pull.max_bytes",
        shown="the --max-bytes value",
        help="refuse a file larger than this once unpacked from gzip or zip (a plain file: its "
        "size)",
    )
    # a whole XML tag is bounded too (the characters between two "<"); 1,000,000 is about a
    # thousand times the longest value of the RenjuNet database (a game's move list), and keeps
    # parse time and memory linear in the input's size
    max_value_chars: int = param(
        1_000_000,
        flag="--max-value-chars",
        unit="characters",
        check=at_least(1),
        help="refuse a source with a longer value: an XML attribute or text, a cell of a "
        "table, a line of an EGF table",
    )
    max_name_chars: int = param(
        200,
        flag="--max-name-chars",
        unit="characters",
        check=at_least(1),
        help="cut a longer name of a player, tournament, city or country, and report it "
        "(long_name); a lower limit changes the names on a list",
    )


# -- Sources and their secret addresses ----------------------------------------------------------


def is_url(source: object) -> bool:
    """True when ``source`` is a string starting with ``http://`` or ``https://`` (anything
    else is a local path); an ``env:NAME`` source is not resolved here."""
    return isinstance(source, str) and source.lower().startswith(("http://", "https://"))


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


def _unseen(text: str, *, blanks: bool = True) -> str | None:
    """The first character of ``text`` that a reader would not see as itself: a control
    character (NUL included), an invisible or bidirectional formatting character (U+202E turns
    the rest of a line around), and with ``blanks`` a blank, as ``U+XXXX`` with its name; None
    when there is none."""
    import unicodedata

    for c in text:
        if not c.isprintable() or (blanks and c.isspace()):
            name = unicodedata.name(c, "a control character")
            return f"U+{ord(c):04X} ({name})"
    return None


def _escaped(text: str) -> str:
    """``text`` with every character :func:`_unseen` would name written as an escape: safe to
    print on one line, in the order it is stored."""
    return "".join(
        c if c.isprintable() and not c.isspace() else c.encode("unicode_escape").decode("ascii")
        for c in text
    )


_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})?")
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


def _host_problem(parts: urllib.parse.SplitResult) -> str | None:
    """What is wrong with the host of an address, in words; None when it is a host name
    (labels of letters, digits and hyphens, each 1 to 63 characters, not starting or ending
    with a hyphen, 253 characters at most, RFC 1123; a name in another script by its IDNA
    form), an IPv4 address (four numbers from 0 to 255; a host whose last label is a number
    is read as one, as browsers read it) or an IPv6 address in brackets."""
    import ipaddress

    host = parts.hostname or ""
    if parts.netloc.rpartition("@")[2].startswith("["):
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return f"the host [{host}] is not an IPv6 address"
        return None
    name = host.removesuffix(".")  # a name may end in the root's dot
    labels = name.split(".")
    if labels[-1].isdigit():
        try:
            ipaddress.IPv4Address(name)
        except ValueError:
            return (
                f"the host {host!r} is not an IPv4 address (four numbers from 0 to 255, "
                "without leading zeros) nor a host name (whose last label is not a number)"
            )
        return None
    for label in labels:
        if not label:
            return f"the host {host!r} is not a host name: it has an empty label (two dots)"
        try:
            ascii_label = label.encode("idna").decode("ascii")
        except UnicodeError:
            ascii_label = ""
        if not _LABEL.fullmatch(ascii_label):
            return (
                f"the host {host!r} is not a host name: {label!r} is not a label of 1 to 63 "
                "letters, digits and hyphens that neither starts nor ends with a hyphen"
            )
    if len(name.encode("idna")) > 253:
        return f"the host {host!r} is not a host name: longer than 253 characters"
    return None


def check_base_url(base_url: object) -> str:
    """The public address of a published tree or site, ending in ``/``; raises on anything else.

    A base URL is printed on every page (canonical links) and in ``sitemap.xml``, so it must be
    public and mean what it shows: an absolute ``http`` or ``https`` URL with a host, a port
    (if any) from 1 to 65535, without credentials (``user:password@``), query string or
    fragment, blanks, control characters (NUL included), invisible or bidirectional formatting
    characters, quotes, angle brackets or backslashes (control and formatting characters
    neither as ``%XX`` escapes: ``%00``), and with every ``%`` starting an escape; its host a
    host name (labels of letters, digits and hyphens), an IPv4 address or an IPv6 address in
    brackets (:func:`_host_problem`). The message names it in its public
    form (:func:`public_source`, with such characters escaped), never with its secret.

    Raises
    ------
    TypeError
        ``base_url`` is not a str.
    ValueError
        Naming what is wrong.
    """
    if not isinstance(base_url, str):
        raise TypeError(f"base_url must be a str, got {type(base_url).__name__}")
    try:
        shown = _escaped(public_source(base_url) if is_url(base_url) else repr(base_url))
    except ValueError:  # urllib cannot split it (a bracketed host that is no IPv6 address)
        shown = "(not shown: it may hold a secret, and cannot be split to hide it)"
    unseen = _unseen(base_url)
    if unseen is not None:
        raise ValueError(
            f"base_url {shown} contains {unseen}: a public address has no blanks, control, "
            "invisible or bidirectional characters"
        )
    try:
        parts = urllib.parse.urlsplit(base_url)
    except ValueError as exc:  # a bracketed host that is no IPv6 address
        raise ValueError(f"base_url {shown}: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"base_url must be an absolute http(s) URL with a host, got {shown}")
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0:
        raise ValueError(
            f"base_url {shown}: the port must be a number from 1 to 65535, got "
            f"{parts.netloc.rpartition(':')[2]!r}"
        )
    host = _host_problem(parts)
    if host is not None:
        raise ValueError(f"base_url {shown}: {host}")
    if has_secret(base_url):
        raise ValueError(
            f"base_url {shown}: a public address has no credentials (user:password@), query "
            "string or fragment; give the address where the pages are served, e.g. "
            "https://rating.example.org/"
        )
    if any(c in "<>\"'\\" for c in base_url):
        raise ValueError(
            f"base_url must not contain quotes, angle brackets or backslashes: {shown}"
        )
    for escape in _ESCAPE.finditer(base_url):
        if escape.group(1) is None:
            raise ValueError(
                f"base_url {shown}: a % must start an escape of two hex digits (%25 for % itself)"
            )
    unseen = _unseen(urllib.parse.unquote(base_url, errors="replace"), blanks=False)
    if unseen is not None:
        raise ValueError(
            f"base_url {shown}: its %XX escapes stand for {unseen}, which a public address "
            "does not contain"
        )
    return base_url if base_url.endswith("/") else base_url + "/"
