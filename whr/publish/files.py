"""The published tree's file-system calls: every change goes through here, and none follows a link.

Files are created with the process's umask (0644 under umask 022) and directories likewise
(0755): never ``tempfile.mkstemp``/``mkdtemp``, whose 0600/0700 a web server running as another
user could not read. A file is written whole beside its target (``.<name>.<token>.tmp``),
flushed to disk and renamed over it, so a reader sees the old file or the new one, never half of
one; Parquet is built in memory first, so that it is written the same way.

No call follows a symbolic link: files are opened with ``O_NOFOLLOW`` (a planted link is an
error, never a way out of the tree), a rename replaces a link itself, and :func:`remove` removes
a link, never what it points to. An error of the system names the path it concerns (a full disk
says which file could not be written).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import hashlib
import json
import os
import secrets
import shutil
import stat
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from whr.digest import CHUNK_BYTES
from whr.tables import FORMAT_VERSION, conform, plain, to_table

FLOAT_TYPES = (pa.float64(), pa.float32())
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def token() -> str:
    """A name part no other run or thread will pick: pid and random hex."""
    return f"{os.getpid()}-{secrets.token_hex(4)}"


def named(exc: OSError, path: Path | str) -> OSError:
    """``exc`` with ``path`` as its file name when the system gave none (``write``, ``fsync``)."""
    if exc.filename is not None or exc.errno is None:
        return exc
    return type(exc)(exc.errno, exc.strerror or os.strerror(exc.errno), str(path))


# ---------------------------------------------------------------------------------------------
# What is where, without following links


def kind(path: Path | str) -> str | None:
    """``"file"``, ``"dir"``, ``"link"``, ``"other"``, or None when nothing is there (``lstat``)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else "other"


def is_dir(path: Path | str) -> bool:
    """True for a real directory (not a link to one)."""
    return kind(path) == "dir"


def is_file(path: Path | str) -> bool:
    """True for a regular file (not a link to one)."""
    return kind(path) == "file"


def size(path: Path | str) -> int:
    """Bytes of a regular file (``lstat``)."""
    return os.lstat(path).st_size


def link_target(path: Path | str) -> str:
    """Where a symbolic link points, for messages."""
    try:
        return os.readlink(path)
    except OSError:
        return "?"


# ---------------------------------------------------------------------------------------------
# Reading


def read_bytes(path: Path | str) -> bytes:
    """The bytes of a regular file; a symbolic link raises ``OSError`` (ELOOP)."""
    fd = os.open(path, _READ)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def sha256(path: Path | str) -> str:
    """Hex sha256 of a regular file (never through a link)."""
    digest = hashlib.sha256()
    fd = os.open(path, _READ)
    with os.fdopen(fd, "rb") as handle:
        while block := handle.read(CHUNK_BYTES):
            digest.update(block)
    return digest.hexdigest()


def read_parquet(path: Path | str, schema: pa.Schema) -> pd.DataFrame:
    """Read a published Parquet file back as a frame of ``schema`` (never through a link)."""
    fd = os.open(path, _READ)
    with os.fdopen(fd, "rb") as handle:
        table = pq.read_table(handle, schema=schema)
    return conform(table.to_pandas(), schema)


def parquet_key_value(path: Path | str, key: bytes) -> bytes | None:
    """One key of a Parquet file's schema metadata (never through a link)."""
    fd = os.open(path, _READ)
    with os.fdopen(fd, "rb") as handle:
        metadata = pq.read_schema(handle).metadata or {}
    return metadata.get(key)


# ---------------------------------------------------------------------------------------------
# Writing


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temporary name beside it, fsync, rename).

    A symbolic link at ``path`` is replaced, never written through.
    """
    tmp = path.with_name(f".{path.name}.{token()}.tmp")
    try:
        fd = os.open(tmp, _CREATE, 0o666)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        _discard(tmp)
        raise named(exc, tmp) from None
    except BaseException:
        _discard(tmp)
        raise


def _discard(tmp: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    write_bytes(path, text.encode("utf-8"))


def write_json(path: Path, value: Any) -> None:
    """Write ``value`` as indented JSON to ``path`` atomically."""
    write_text(path, json_text(value))


def json_text(value: Any) -> str:
    """``value`` as the indented JSON every state file is written as."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` unless it already holds exactly these bytes; True if written."""
    if is_file(path):
        try:
            if read_bytes(path) == data:
                return False
        except OSError:
            pass
    write_bytes(path, data)
    return True


def copy_file(source: Path, target: Path) -> None:
    """Copy a regular file (never through a link) to ``target``, atomically."""
    write_bytes(target, read_bytes(source))


def parquet_metadata(parameters: dict[str, Any] | None = None) -> dict[bytes, bytes]:
    """The key-value metadata every published Parquet file carries."""
    out = {b"whr.schema_version": str(FORMAT_VERSION).encode()}
    if parameters is not None:
        out[b"whr.parameters"] = json.dumps(parameters, sort_keys=True).encode()
    return out


def parquet_bytes(
    frame: pd.DataFrame,
    schema: pa.Schema,
    metadata: dict[bytes, bytes],
    *,
    dense: bool = False,
) -> tuple[bytes, int]:
    """``frame`` as a Parquet file with exactly ``schema``: its bytes and its row count.

    ``dense`` trades writing time for size, for files kept for years: float columns are
    stored byte-stream-split without a dictionary, and zstd works harder. The bytes depend
    only on the rows and the metadata (no time, no pandas index).
    """
    # plain: the columns' descriptions are published in datapackage.json, not in every file
    table = to_table(frame, plain(schema)).replace_schema_metadata(metadata)
    options: dict[str, Any] = {"compression": "zstd", "write_statistics": True}
    if dense:
        floats = [f.name for f in schema if f.type in FLOAT_TYPES]
        options.update(
            compression_level=19,
            use_dictionary=[f.name for f in schema if f.name not in floats],
            use_byte_stream_split=floats,
        )
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, **options)
    return sink.getvalue().to_pybytes(), table.num_rows


def write_parquet(
    frame: pd.DataFrame,
    schema: pa.Schema,
    path: Path,
    metadata: dict[bytes, bytes],
    *,
    dense: bool = False,
) -> int:
    """Write ``frame`` with exactly ``schema`` to ``path`` atomically; return the row count."""
    data, rows = parquet_bytes(frame, schema, metadata, dense=dense)
    write_bytes(path, data)
    return rows


# ---------------------------------------------------------------------------------------------
# Directories, renames and removal


def make_dir(path: Path) -> Path:
    """Create ``path`` (and its parents) with the umask's mode; it must not exist."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkdir(path)
    return path


def rename(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target``, which must not exist (``os.rename``)."""
    os.rename(source, target)


def replace(source: Path, target: Path) -> None:
    """Rename ``source`` over ``target`` (a link at ``target`` is replaced, not followed)."""
    os.replace(source, target)


def sync_dir(path: Path) -> None:
    """Flush a directory's entries (the renames into it) to disk."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    except OSError as exc:
        raise named(exc, path) from None
    finally:
        os.close(fd)


def remove(path: Path) -> None:
    """Remove a file, a link (never what it points to) or a directory tree, if there."""
    found = kind(path)
    try:
        if found == "dir":
            shutil.rmtree(path)  # removes links inside, never follows them
        elif found is not None:
            os.unlink(path)
    except OSError as exc:  # rmtree names a file inside by its name alone
        name = os.fsdecode(exc.filename) if exc.filename is not None else None
        if name is None or not os.path.isabs(name):
            where = path if name is None else Path(path, name)
            raise type(exc)(exc.errno, exc.strerror, str(where)) from None
        raise


def _renameat2() -> Any:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        return libc.renameat2
    except (OSError, AttributeError):
        return None


_RENAMEAT2 = _renameat2()
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def exchange(new: Path, target: Path) -> None:
    """Put directory ``new`` at ``target``; what was at ``target`` ends up at ``new``.

    Atomic where the system can exchange two names at once (Linux ``renameat2``); elsewhere two
    renames, with a moment without ``target`` that the next run's repair puts right.
    """
    if kind(target) is None:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(new, target)
        return
    if _RENAMEAT2 is not None:
        done = _RENAMEAT2(
            _AT_FDCWD, os.fsencode(new), _AT_FDCWD, os.fsencode(target), _RENAME_EXCHANGE
        )
        if done == 0:
            return
        code = ctypes.get_errno()
        if code not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
            raise OSError(code, os.strerror(code), str(target))
    old = new.with_name(new.name + ".old")
    os.rename(target, old)
    os.rename(new, target)
    os.rename(old, new)
