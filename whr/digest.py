"""sha256 of files and directories: the one implementation every stage uses.

Light on purpose (standard library only): the command line checks its arguments with it before
anything heavy is imported.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

CHUNK_BYTES = 1 << 20


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hex sha256 of a file's bytes, read in chunks of 1 MiB."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(CHUNK_BYTES):
            digest.update(block)
    return digest.hexdigest()


def bytes_sha256(data: bytes) -> str:
    """Hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def text_sha256(text: str) -> str:
    """Hex sha256 of ``text`` encoded as UTF-8."""
    return bytes_sha256(text.encode("utf-8"))


def directory_sha256(directory: str | os.PathLike[str]) -> str:
    """sha256 over every file under ``directory`` (names and contents, in path order).

    Editing, adding, renaming or removing any file changes it; ``__pycache__`` is ignored.

    Returns
    -------
    str
        Hex sha256 of the lines ``<relative path>\\t<sha256 of the file>\\n``, in path order.
    """
    root = Path(directory)
    lines = [
        f"{path.relative_to(root).as_posix()}\t{file_sha256(path)}\n"
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    ]
    return text_sha256("".join(lines))
