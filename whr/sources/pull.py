"""Fetching a source: an http(s) download with a timeout, a size cap and retries with backoff.

A download goes to a temporary file in the work directory and is renamed into place only once
complete (never a half-written file under the final name). Local paths are returned unchanged.
This is the only step of the pipeline that retries; parsing never touches the network.
"""

from __future__ import annotations

import http.client
import os
import socket
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from whr.sources._common import CHUNK_BYTES, SourceError, coerce_as_of

__all__ = ["is_url", "pull"]

USER_AGENT = "rif-rating/0.1 (+https://github.com/; world rating list of Renju)"
RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})


class _Transient(Exception):
    """A failure worth another attempt (network trouble, truncated body, 5xx)."""


def is_url(source: object) -> bool:
    """True when ``source`` is a string starting with ``http://`` or ``https://``."""
    return isinstance(source, str) and source.lower().startswith(("http://", "https://"))


def _target_name(url: str) -> str:
    name = Path(urllib.parse.urlsplit(url).path).name
    safe = "".join(c for c in name if c.isalnum() or c in "._-")
    return safe.lstrip(".") or "download"


def _download_once(url: str, part: Path, timeout_s: float, max_bytes: int) -> int:
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        response = urllib.request.urlopen(request, timeout=timeout_s)
    except urllib.error.HTTPError as exc:
        if exc.code in RETRY_STATUS:
            raise _Transient(f"HTTP {exc.code} {exc.reason}") from None
        raise SourceError(f"{url}: HTTP {exc.code} {exc.reason}; check the URL") from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, (TimeoutError, socket.timeout)):
            raise _Transient(f"no answer within {timeout_s} s (timeout_s)") from None
        raise _Transient(f"cannot connect: {reason}") from None
    with response:
        length_text = response.headers.get("Content-Length")
        expected = int(length_text) if length_text and length_text.isdigit() else None
        if expected is not None and expected > max_bytes:
            raise SourceError(
                f"{url}: the server announces {expected} bytes, more than the cap of "
                f"{max_bytes} bytes (max_bytes); raise the cap if this size is genuine"
            )
        received = 0
        try:
            with open(part, "wb") as out:
                while chunk := response.read(CHUNK_BYTES):
                    received += len(chunk)
                    if received > max_bytes:
                        raise SourceError(
                            f"{url}: the download exceeds the cap of {max_bytes} bytes "
                            "(max_bytes); raise the cap if this size is genuine"
                        )
                    out.write(chunk)
        except (OSError, http.client.HTTPException) as exc:
            if isinstance(exc, (socket.timeout, TimeoutError)):
                raise _Transient(f"no data for {timeout_s} s (timeout_s)") from None
            raise _Transient(f"connection broken after {received} bytes: {exc}") from None
    if expected is not None and received != expected:
        raise _Transient(f"truncated: received {received} of {expected} bytes")
    return received


def pull(
    source: str | os.PathLike[str],
    workdir: str | os.PathLike[str],
    as_of: object = None,
    *,
    timeout_s: float = 60.0,
    max_bytes: int = 500_000_000,
    retries: int = 3,
    backoff_s: float = 5.0,
) -> Path:
    """Make ``source`` available as a local path: download a URL, return a local path as is.

    Parameters
    ----------
    source : str or path-like
        An http(s) URL, or a local file or directory.
    workdir : str or path-like
        Directory that receives downloads (created if missing).
    as_of : datetime.date, str or None
        Accepted for symmetry with ``read_source``; a directory is returned whole and the dated
        file is chosen when it is read.
    timeout_s : float
        Seconds to wait for the connection and for each read, > 0.
    max_bytes : int
        Largest download accepted, in bytes (compressed size as served), > 0.
    retries : int
        Further attempts after a failed one (network error, timeout, truncated body, HTTP 408,
        429 or 5xx), >= 0. A 4xx status or an exceeded cap is not retried.
    backoff_s : float
        Wait before the first retry in seconds, doubled before each further retry, >= 0.

    Returns
    -------
    Path
        The local path: ``workdir / <file name of the URL>`` for a download.

    Raises
    ------
    SourceError
        If the local path does not exist, or the download fails for good.
    ValueError, TypeError
        On bad arguments.
    """
    coerce_as_of(as_of)
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"source must be a path or an http(s) URL; got {type(source).__name__}")
    if not timeout_s > 0:
        raise ValueError(f"timeout_s must be > 0 seconds; got {timeout_s!r}")
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes <= 0:
        raise ValueError(f"max_bytes must be a positive integer; got {max_bytes!r}")
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError(f"retries must be an integer >= 0; got {retries!r}")
    if not backoff_s >= 0:
        raise ValueError(f"backoff_s must be >= 0 seconds; got {backoff_s!r}")
    if not is_url(source):
        path = Path(source)
        if not path.exists():
            raise SourceError(f"{path}: no such file or directory")
        return path

    url = str(source)
    folder = Path(workdir)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / _target_name(url)
    failures: list[str] = []
    for attempt in range(retries + 1):
        if attempt:
            time.sleep(backoff_s * 2 ** (attempt - 1))
        handle, part_name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".part")
        os.close(handle)
        part = Path(part_name)
        try:
            _download_once(url, part, timeout_s, max_bytes)
        except _Transient as exc:
            part.unlink(missing_ok=True)
            failures.append(f"attempt {attempt + 1}: {exc}")
            continue
        except BaseException:
            part.unlink(missing_ok=True)
            raise
        os.replace(part, target)
        return target
    raise SourceError(
        f"{url}: download failed after {retries + 1} attempts ({'; '.join(failures)}); "
        "check the URL and the network"
    )
