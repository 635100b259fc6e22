"""One run at a time per published tree: an operating-system lock on ``OUT/.lock``.

The lock is ``flock(2)`` on an open file: the kernel releases it when the process ends, however
it ends (even by SIGKILL), so a stale lock cannot outlive its run. The file's text (pid and start
time; not the command line, which may hold a secret URL) only tells the next run who holds it.

Within one process the lock is re-entrant (the command line takes it before the flow starts,
the flow and ``publish`` take it again); threads of the process share it, and the commit steps
serialise themselves with :data:`COMMIT`.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

COMMIT = threading.RLock()
"""Held by a thread while it changes the published tree (concurrent lists commit in turn)."""

_guard = threading.Lock()
_held: dict[str, list[int]] = {}  # real path of the lock file -> [fd, depth]


class LockedError(RuntimeError):
    """Another run is publishing to the same tree."""


def _describe(fd: int) -> str:
    try:
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace")
    except OSError:
        return "holder unknown"
    fields = dict(line.split(" ", 1) for line in text.splitlines() if " " in line)
    if "pid" not in fields:
        return "holder unknown"
    return f"pid {fields['pid']}, since {fields.get('since', '?')}"


@contextmanager
def hold(out: str | os.PathLike[str], *, wait: bool = False) -> Iterator[Path]:
    """Hold the lock of the published tree ``out`` (created if missing) while in the block.

    Parameters
    ----------
    out : path
        The published tree.
    wait : bool, default False
        Wait for the run that holds it instead of failing at once.

    Yields
    ------
    Path
        The lock file.

    Raises
    ------
    LockedError
        When another process holds the lock and ``wait`` is false; the message names its pid
        and since when it runs.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / ".lock"
    key = os.path.realpath(path)
    with _guard:
        entry = _held.get(key)
        if entry is not None:
            entry[1] += 1
        else:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                holder = _describe(fd)
                os.close(fd)
                raise LockedError(
                    f"another run is publishing to {out} ({holder}); wait for it to end, or "
                    "pass --wait to queue behind it"
                ) from None
            except BaseException:
                os.close(fd)
                raise
            since = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()}\nsince {since}\n".encode(), 0)
            _held[key] = [fd, 1]
    try:
        yield path
    finally:
        with _guard:
            entry = _held[key]
            entry[1] -= 1
            if entry[1] == 0:
                del _held[key]
                fcntl.flock(entry[0], fcntl.LOCK_UN)
                os.close(entry[0])
