"""Fetching a source: an http(s) download with a per-read timeout, an overall deadline, a size
cap and retries with backoff.

Every download lands in a directory of its own inside the work directory (``workdir/pull-*/``),
under the file name of its URL, so two sources never share a file and nothing already pulled or
read is ever overwritten, whatever their names. The body goes to a temporary file first and is
renamed into place only once complete. Local paths are returned unchanged. This is the only step
of the pipeline that retries; parsing never touches the network.

Redirects are followed on http(s) only, and to another host or port only when that address is
public: a server cannot send the download to a service on this machine or its local network
(loopback, private, link-local addresses) that the source does not name.

A URL's secrets stay here: credentials in the URL are refused, and every message names the URL
by :func:`whr.params.public_source` (no query string, no credentials). A source ``env:NAME``
is the URL held by the environment variable ``NAME`` (see ``docs/sources.md``).
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import os
import shutil
import socket
import ssl
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from whr.params import PullSettings, check_url, is_url, public_source, resolve_source
from whr.sources._common import CHUNK_BYTES, SourceError, coerce_as_of

__all__ = ["is_url", "pull"]

USER_AGENT = "rif-rating/0.1 (+https://github.com/; world rating list of Renju)"
RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})
SCHEMES = ("http", "https")


class _Transient(Exception):
    """A failure worth another attempt (network trouble, truncated body, 5xx)."""


def _target_name(url: str) -> str:
    name = Path(urllib.parse.urlsplit(url).path).name
    safe = "".join(c for c in name if c.isascii() and (c.isalnum() or c in "._-"))
    return safe.lstrip(".")[:200] or "download"


class _Deadline:
    """The end of the whole pull: shuts the sockets of the attempt in progress when it comes.

    A blocking ``recv`` does not notice a deadline; ``shutdown`` from this timer thread wakes
    it (it returns end of file), and the attempt then reports the deadline, not a broken
    connection.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def remaining(self) -> float:
        return self.end - time.monotonic()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            expired = self.expired
        if expired:
            _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)

    def cancel(self) -> None:
        self._timer.cancel()

    def error(self, shown: str) -> SourceError:
        return SourceError(
            f"{shown}: the download did not finish within the deadline of {self.seconds:g} s "
            "(deadline_s, --deadline); the server is too slow or stalls. Raise the deadline "
            "if the server is sound but slow"
        )


def _shut(sock: socket.socket) -> None:
    # the plain socket's shutdown, also for TLS sockets: wake the reader, no TLS goodbye; an
    # already closed socket raises OSError, which is fine
    with contextlib.suppress(OSError):
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


def _host_port(url: str) -> tuple[str, int]:
    parts = urllib.parse.urlsplit(url)
    default = 443 if parts.scheme.lower() == "https" else 80
    try:
        port = parts.port or default
    except ValueError:  # a port that is not a number: the connection fails and says so
        port = default
    return (parts.hostname or "").lower(), port


def _not_public(host: str, port: int) -> bool:
    """True when ``host`` resolves to an address that is not public (loopback, private,
    link-local, reserved): a service of this machine or of its local network."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:  # not resolvable: the connection fails and says so
        return False
    for *_, address in found:
        try:
            if not ipaddress.ip_address(str(address[0]).split("%", 1)[0]).is_global:
                return True
        except ValueError:
            return True
    return False


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects on http(s) only (urllib also follows ``ftp://``), and to another host
    or port only when its address is public."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        here, there = public_source(req.full_url), public_source(newurl)
        scheme = urllib.parse.urlsplit(newurl).scheme.lower()
        if scheme not in SCHEMES:
            raise SourceError(
                f"{here}: the server redirects to {there!r}, which is not http(s); "
                "only http and https are followed. Use the final address if it is trusted"
            )
        try:
            check_url(newurl)
        except ValueError as exc:
            raise SourceError(
                f"{here}: the server redirects to a URL that is refused: {exc}"
            ) from None
        target = _host_port(newurl)
        if target != _host_port(req.full_url) and _not_public(*target):
            raise SourceError(
                f"{here}: the server redirects to {there!r}, an address of this machine or "
                "its local network that the source does not name; a redirect is followed to "
                "another host or port only when its address is public. Give that address as "
                "the source if it is trusted"
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_Connection = TypeVar("_Connection", bound=http.client.HTTPConnection)


def _watched(base: type[_Connection], deadline: _Deadline) -> type[_Connection]:
    class Watched(base):  # type: ignore[misc, valid-type]
        def connect(self) -> None:
            super().connect()
            deadline.watch(self.sock)

    return Watched


class _HTTP(urllib.request.HTTPHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self._connection = _watched(http.client.HTTPConnection, deadline)

    def http_open(self, req):  # type: ignore[no-untyped-def]
        return self.do_open(self._connection, req)


class _HTTPS(urllib.request.HTTPSHandler):
    def __init__(self, deadline: _Deadline) -> None:
        self._tls = (
            ssl.create_default_context()
        )  # what urllib uses by default: certificates checked
        super().__init__(context=self._tls)
        self._connection = _watched(http.client.HTTPSConnection, deadline)

    def https_open(self, req):  # type: ignore[no-untyped-def]
        return self.do_open(self._connection, req, context=self._tls)


def _opener(deadline: _Deadline) -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(_Redirects(), _HTTP(deadline), _HTTPS(deadline))


def _scrub(text: object, url: str) -> str:
    """``text`` (an error from urllib or http.client, a server's reason phrase) with the URL,
    its query string and each of the query's values replaced: such messages may quote the
    request, and a server may echo a token it refuses."""
    out = str(text).replace(url, public_source(url))
    query = urllib.parse.urlsplit(url).query
    if query:
        out = out.replace(query, "[hidden]")
        for _, value in urllib.parse.parse_qsl(query, keep_blank_values=True):
            for form in {value, urllib.parse.quote(value, safe="")}:
                if len(form) >= 4:
                    out = out.replace(form, "[hidden]")
    return out


def _download_once(
    url: str, part: Path, timeout_s: float, max_bytes: int, deadline: _Deadline
) -> int:
    shown = public_source(url)
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    wait = min(timeout_s, max(deadline.remaining(), 0.001))
    try:
        response = _opener(deadline).open(request, timeout=wait)
    except urllib.error.HTTPError as exc:
        reason = _scrub(exc.reason, url)
        if exc.code in RETRY_STATUS:
            raise _Transient(f"HTTP {exc.code} {reason}") from None
        raise SourceError(f"{shown}: HTTP {exc.code} {reason}; check the URL") from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        if deadline.expired:
            raise deadline.error(shown) from None
        cause: object = getattr(exc, "reason", exc)
        if isinstance(cause, (TimeoutError, socket.timeout)):
            raise _Transient(f"no answer within {timeout_s:g} s (timeout_s, --timeout)") from None
        raise _Transient(f"cannot connect: {_scrub(cause, url)}") from None
    with response:
        length_text = response.headers.get("Content-Length")
        expected = int(length_text) if length_text and length_text.isdigit() else None
        if expected is not None and expected > max_bytes:
            raise SourceError(
                f"{shown}: the server announces {expected} bytes, more than the cap of "
                f"{max_bytes} bytes (max_bytes, --max-bytes); raise the cap if this size is "
                "genuine"
            )
        received = 0
        try:
            with open(part, "wb") as out:
                # read1: return what one read brings, so the deadline is seen between reads
                while chunk := response.read1(CHUNK_BYTES):
                    received += len(chunk)
                    if received > max_bytes:
                        raise SourceError(
                            f"{shown}: the download exceeds the cap of {max_bytes} bytes "
                            "(max_bytes, --max-bytes); raise the cap if this size is genuine"
                        )
                    out.write(chunk)
                    if deadline.expired:
                        raise deadline.error(shown)
        except (OSError, http.client.HTTPException) as exc:
            if deadline.expired:
                raise deadline.error(shown) from None
            if isinstance(exc, (socket.timeout, TimeoutError)):
                raise _Transient(
                    f"no data for {timeout_s:g} s (timeout_s, --timeout) after {received} bytes"
                ) from None
            raise _Transient(
                f"connection broken after {received} bytes: {_scrub(exc, url)}"
            ) from None
    if deadline.expired:
        raise deadline.error(shown)
    if expected is not None and received != expected:
        raise _Transient(f"truncated: received {received} of {expected} bytes")
    return received


def pull(
    source: str | os.PathLike[str],
    workdir: str | os.PathLike[str],
    as_of: object = None,
    settings: PullSettings = PullSettings(),  # noqa: B008 (frozen)
    *,
    report: Callable[[str], object] | None = None,
) -> Path:
    """Make ``source`` available as a local path: download a URL, return a local path as is.

    Parameters
    ----------
    source : str or path-like
        An http(s) URL, a local file or directory, or ``env:NAME``: the URL (or path) held by
        the environment variable ``NAME``, for an address with a secret in it. Credentials in
        a URL (``user:password@``) are refused; a query string is never shown.
    workdir : str or path-like
        Directory that receives downloads (created if missing). Each download gets a new
        directory of its own in it, so nothing there is ever overwritten.
    as_of : datetime.date, str or None
        Accepted for symmetry with ``read_source``; a directory is returned whole and the dated
        file is chosen when it is read.
    settings : whr.params.PullSettings
        The timeout of each read, the deadline of the whole pull (every attempt and wait; not
        retried), the size cap, the retries and their backoff. Retried: a network error, a
        timeout, a truncated body, HTTP 408, 425, 429 or 5xx; never: another 4xx status, an
        exceeded cap, a redirect away from http(s), the deadline.
    report : callable, optional
        Called with one sentence for each failed attempt that is retried (what failed and the
        wait before the next one), so that a pull that succeeds in the end still tells of its
        failures (the flow logs them as warnings).

    Returns
    -------
    Path
        The local path: ``workdir/pull-<random>/<file name of the URL>`` for a download.

    Raises
    ------
    SourceError
        If the local path does not exist, or the download fails for good.
    whr.params.SecretSourceError
        If the URL holds credentials, or ``env:NAME`` is not set (a ``ValueError``).
    TypeError
        On bad arguments.
    """
    coerce_as_of(as_of)
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"source must be a path or an http(s) URL; got {type(source).__name__}")
    if not isinstance(settings, PullSettings):
        raise TypeError(f"settings must be a whr.params.PullSettings; got {settings!r}")
    if report is not None and not callable(report):
        raise TypeError(f"report must be callable or None; got {type(report).__name__}")
    address = resolve_source(source) if isinstance(source, str) else source
    if not is_url(address):
        path = Path(address)
        if not path.exists():
            raise SourceError(f"{path}: no such file or directory")
        return path
    return _download(str(address), Path(workdir), settings, report)


def _download(
    url: str, folder: Path, settings: PullSettings, report: Callable[[str], object] | None
) -> Path:
    """:func:`pull` of a URL: attempts until one succeeds, the retries are spent, or the
    deadline comes; the file lands in a new directory of its own in ``folder``."""
    check_url(url)
    shown = public_source(url)
    folder.mkdir(parents=True, exist_ok=True)
    name = _target_name(url)
    home = Path(tempfile.mkdtemp(dir=folder, prefix="pull-"))
    target = home / name
    failures: list[str] = []
    deadline = _Deadline(settings.deadline_s)
    attempts = 0
    try:
        for attempt in range(settings.retries + 1):
            if attempt:
                wait = settings.backoff_s * 2 ** (attempt - 1)
                if wait >= deadline.remaining():
                    failures.append(
                        f"no time left for a further attempt within the deadline of "
                        f"{settings.deadline_s:g} s (deadline_s, --deadline)"
                    )
                    break
                if report is not None:
                    report(
                        f"{shown}: {failures[-1]}; attempt {attempt + 1} of "
                        f"{settings.retries + 1} in {wait:g} s"
                    )
                time.sleep(wait)
            attempts += 1
            handle, part_name = tempfile.mkstemp(dir=home, prefix=f".{name}.", suffix=".part")
            os.close(handle)
            part = Path(part_name)
            try:
                _download_once(url, part, settings.timeout_s, settings.max_bytes, deadline)
            except _Transient as exc:
                part.unlink(missing_ok=True)
                failures.append(f"attempt {attempt + 1}: {exc}")
                continue
            except BaseException:
                part.unlink(missing_ok=True)
                raise
            os.replace(part, target)
            return target
    except BaseException:
        shutil.rmtree(home, ignore_errors=True)
        raise
    finally:
        deadline.cancel()
    shutil.rmtree(home, ignore_errors=True)
    raise SourceError(
        f"{shown}: download failed after {attempts} attempts ({'; '.join(failures)}); "
        "check the URL and the network"
    )
