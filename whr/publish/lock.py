"""One run at a time per published tree: an operating-system lock on ``OUT/.lock``.

The lock is ``flock(2)`` on an open file: the kernel releases it when the process ends, however
it ends (even by SIGKILL), so a stale lock cannot outlive its run. The file's text (pid and start
time; not the command line, which may hold a secret URL) only tells the next run who holds it.

The lock file is opened with ``O_NOFOLLOW`` and must be a regular file: a symbolic link, a
directory or anything else at ``OUT/.lock`` is refused with a message that names it (never
followed, never truncated), and so is a tree the run cannot write to.

Within one process the lock is re-entrant (the command line takes it before the flow starts,
the flow and ``publish`` take it again); threads of the process share it, and the commit steps
serialise themselves with :data:`COMMIT`.
"""

from __future__ import annotations

import datetime as dt
import errno
import fcntl
import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from whr.publish.layout import TreeError

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


def _open(out: Path, path: Path) -> int:
    """The lock file, opened (created if missing) without following a link."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TreeError(
            f"cannot create the published tree {out} ({exc.strerror}); give --out a directory "
            "this user can write to"
        ) from None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        raise TreeError(_why(path, exc)) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise TreeError(
            f"{path} is not a regular file, where the run keeps its lock; remove it and run again"
        )
    return fd


def _why(path: Path, exc: OSError) -> str:
    """What is wrong with the lock file ``path``, and what to do."""
    if exc.errno == errno.ELOOP or os.path.islink(path):
        return (
            f"{path} is a symbolic link (to {os.readlink(path)}), where the run keeps its lock; "
            "a run never follows links out of the tree: remove the link and run again"
        )
    if exc.errno == errno.EISDIR or os.path.isdir(path):
        return f"{path} is a directory, where the run keeps its lock; remove it and run again"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return (
            f"cannot open the lock {path} for writing ({exc.strerror}): the published tree "
            f"{path.parent} must be writable by this user"
        )
    return f"cannot open the lock {path} ({exc.strerror})"


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
    whr.publish.layout.TreeError
        When the lock cannot be taken: ``OUT`` or ``OUT/.lock`` is not what it must be (a
        symbolic link, a directory, a file the run may not write), named with what to do.
    """
    out = Path(out)
    path = out / ".lock"
    key = os.path.realpath(path)
    with _guard:
        entry = _held.get(key)
        if entry is not None:
            entry[1] += 1
        else:
            fd = _open(out, path)
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
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"pid {os.getpid()}\nsince {since}\n".encode(), 0)
            except OSError as exc:
                os.close(fd)
                raise TreeError(f"cannot write the lock {path} ({exc.strerror})") from None
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
