"""What the views drawn from the archive are checked against: ``OUT/archive/checksums.json``.

The archive's data is checked against the ledger (:mod:`whr.publish.ledger`: each day's and
replay's manifest, each month's file) and each manifest's tables against the manifest. The
files drawn from them, which a run writes again, are checked here: each day's page
(``index.html``), the index files (``published.json``, ``datapackage.json``, ``archive.html``,
``index.html`` of ``OUT``), and the ledger itself (a ledger cut short is found), each against the
size and sha256 the run last wrote; ``checksums.json`` against its own ``sha256``, the digest of
the rest of its text. (In a tree written before the ledger, the manifests were recorded here
too, until the ledger adopts them.)

Every run writes a file of the record the same way (:meth:`Checksums.write`): the version it is
about to write is first added to the file's record, beside the version there (the record is
written whole, atomically), then the file is written; at the end of the run
(:meth:`Checksums.settle`) each record keeps only the version its file has. A run killed in
between leaves a file with one of the two versions, both recorded: never a false alarm, and the
next run settles it.

One function checks any file against a recorded digest (:func:`check_file`): a manifest's
``files``, a month's ``list_in``, the ledger's lines and ``checksums.json`` all record
``{"sha256": ..., "bytes": ...}``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whr.digest import bytes_sha256
from whr.publish.files import is_dir, kind, read_bytes, sha256, size, write_bytes

Version = Mapping[str, Any]
"""One version of a file as it is recorded: ``{"sha256": hex, "bytes": n}``."""

FORMAT = 1
NAME = "checksums.json"
SEAL = "sha256"


def version(data: bytes) -> dict[str, Any]:
    """The record of a file whose bytes are ``data``."""
    return {"sha256": bytes_sha256(data), "bytes": len(data)}


def cached_sha256(path: Path, hashes: dict[Path, Any]) -> str:
    """The sha256 of ``path``, computed once per version of the file (within one run: a file
    rewritten since is a new inode, with another size or modification time)."""
    info = os.lstat(path)
    key = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    known = hashes.get(path)
    if known is None or known[0] != key:
        known = hashes[path] = (key, sha256(path))
    digest: str = known[1]
    return digest


def check_file(
    path: Path,
    recorded: Version | Sequence[Version],
    hashes: dict[Path, Any],
    holder: str,
    *,
    digest: bool = True,
) -> str | None:
    """Check the file ``path`` against the version (or any of the versions) ``recorded``.

    The one check of a file against a digest held elsewhere: a day's table against its
    manifest, a month's file against a day's ``list_in``, a manifest or page against
    ``checksums.json``.

    Parameters
    ----------
    path : Path
        The file (never followed if it is a symbolic link).
    recorded : mapping or sequence of mappings
        ``{"sha256": hex, "bytes": n}``, or several such versions (any of them will do).
    hashes : dict
        A cache of sha256 (:func:`cached_sha256`).
    holder : str
        Where the digest is recorded, for the message ("its manifest").
    digest : bool
        False: check only that the file is there with its size.

    Returns
    -------
    str or None
        None when the file is a regular file of a recorded size and sha256; else what is wrong,
        as the end of a sentence that starts with the path ("is missing", "has 12 bytes, not
        the 13 recorded in its manifest", "does not match the checksum recorded in ...").
    """
    versions = [recorded] if isinstance(recorded, Mapping) else list(recorded)
    found = kind(path)
    if found != "file":
        return "is missing" if found is None else f"is a {found}, not a file"
    return _compare(size(path), lambda: cached_sha256(path, hashes) if digest else None,
                    versions, holder)  # fmt: skip


def _compare(
    n: int, digest: Callable[[], str | None], versions: Sequence[Version], holder: str
) -> str | None:
    """What is wrong with a file of ``n`` bytes and sha256 ``digest()`` (None: not checked)
    against ``versions``."""
    sizes = [v.get("bytes") for v in versions]
    if n not in sizes:
        expected = " or ".join(str(k) for k in sizes)
        return f"has {n} bytes, not the {expected} recorded in {holder}"
    found = digest()
    if found is not None and found not in {v.get("sha256") for v in versions}:
        return f"does not match the checksum recorded in {holder}"
    return None


def _valid(v: object) -> bool:
    return (
        isinstance(v, dict)
        and isinstance(v.get("sha256"), str)
        and isinstance(v.get("bytes"), int)
        and set(v) == {"sha256", "bytes"}
    )


def _text(files: Mapping[str, Sequence[Version]]) -> str:
    """The record without its seal: one line per file, in path order (a diff shows what
    changed; the same files give the same bytes)."""
    lines = [
        f"    {json.dumps(p, ensure_ascii=False)}: "
        + json.dumps([{"sha256": v["sha256"], "bytes": v["bytes"]} for v in files[p]])
        for p in sorted(files)
    ]
    body = ",\n".join(lines)
    return f'{{\n  "format": {FORMAT},\n  "files": {{\n{body}\n  }}'


@dataclass
class Checksums:
    """``OUT/archive/checksums.json``: the size and sha256 of every day's manifest and page and
    of the index files, as the run last wrote them (see the module).

    ``files`` maps a path relative to ``OUT`` to its recorded versions (one, or two while a
    run is rewriting the file). ``problem`` says why the file on disk could not be used (it
    does not match its own sha256, or does not read); its records are then empty, and every
    file is checked against its other digests only and recorded again.
    """

    out: Path
    files: dict[str, list[Version]] = field(default_factory=dict)
    problem: str | None = None
    existed: bool = False

    @property
    def path(self) -> Path:
        return self.out / "archive" / NAME

    @classmethod
    def read(cls, out: Path) -> Checksums:
        """The record of the tree ``out`` (empty when there is none yet)."""
        found = cls(out)
        if kind(found.path) is None:
            return found
        found.existed = True
        try:
            text = read_bytes(found.path).decode("utf-8")
            value = json.loads(text)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            found.problem = f"does not read ({exc})"
            return found
        files = value.get("files") if isinstance(value, dict) else None
        if not isinstance(files, dict) or value.get("format") != FORMAT:
            found.problem = "is not a record of checksums (no files, or another format)"
            return found
        ok = all(
            isinstance(vs, list) and vs and all(_valid(v) for v in vs) for vs in files.values()
        )
        if not ok or text != _sealed(_text(files)):
            found.problem = (
                "does not match its own checksum (its sha256 is of the rest of its text)"
            )
            return found
        found.files = {str(p): list(vs) for p, vs in files.items()}
        return found

    def key(self, path: Path) -> str:
        return path.relative_to(self.out).as_posix()

    def recorded(self, path: Path) -> list[Version] | None:
        """The versions recorded for ``path`` (None: no record)."""
        return self.files.get(self.key(path))

    def check(self, path: Path, hashes: dict[Path, Any]) -> str | None:
        """What is wrong with ``path`` against its record (None: it matches, or has none)."""
        versions = self.recorded(path)
        if versions is None:
            return None
        return check_file(path, versions, hashes, str(self.path))

    def check_bytes(self, path: Path, data: bytes) -> str | None:
        """:meth:`check` of ``data`` read from ``path``."""
        versions = self.recorded(path)
        if versions is None:
            return None
        return _compare(len(data), lambda: bytes_sha256(data), versions, str(self.path))

    def expect(self, written: Mapping[Path, bytes]) -> None:
        """Add the versions about to be written to the record, and write it (when it changes):
        before the files themselves are written. A record read damaged is never written over
        here: the repair every run starts with reports it first (and then records again)."""
        if self.problem is not None:
            raise RuntimeError(
                f"{self.path} {self.problem}; the next run reports it and records the checksums "
                "again"
            )
        changed = False
        for path, data in written.items():
            new = version(data)
            versions = self.files.setdefault(self.key(path), [])
            if new not in [dict(v) for v in versions]:
                versions.append(new)
                changed = True
        if changed:
            self.save()

    def write(self, path: Path, data: bytes) -> None:
        """Write ``data`` to ``path`` (a file of the record), recorded first."""
        self.expect({path: data})
        write_bytes(path, data)

    def written(self, path: Path, data: bytes) -> None:
        """``path`` now holds ``data`` (it was recorded by :meth:`expect` before it was
        written): its record keeps only that version."""
        self.files[self.key(path)] = [version(data)]
        self.save()

    def save(self) -> None:
        if not is_dir(self.path.parent):
            self.path.parent.mkdir(parents=True, exist_ok=True)
        data = _sealed(_text(self.files)).encode("utf-8")
        if kind(self.path) != "file" or read_bytes(self.path) != data:
            write_bytes(self.path, data)

    def settle(
        self, adopt: Iterable[Path], hashes: dict[Path, Any], keep: Iterable[Path] | None = None
    ) -> list[str]:
        """Keep for each recorded file only the version it has (a file that has none of its
        versions keeps them all: it is reported until it is restored); drop the records of the
        files not in ``keep`` (by default: of files whose directory is gone); record the files
        of ``adopt`` that have no record (of days that check), as they are. Writes the record
        when it changed; returns the files newly recorded."""
        kept = None if keep is None else {self.key(p) for p in keep}
        files: dict[str, list[Version]] = {}
        for key, versions in self.files.items():
            path = self.out / key
            found = kind(path)
            if kept is not None and key not in kept:
                continue
            if kept is None and found is None and not is_dir(path.parent):
                continue
            if found == "file":
                have = version_of(path, hashes)
                if have in [dict(v) for v in versions]:
                    versions = [have]
            files[key] = versions
        added = []
        for path in adopt:
            key = self.key(path)
            if key not in files and kind(path) == "file":
                files[key] = [version_of(path, hashes)]
                added.append(key)
        self.files = files
        if self.files or self.existed:
            self.save()
            self.existed, self.problem = True, None
        return added


def version_of(path: Path, hashes: dict[Path, Any]) -> dict[str, Any]:
    """The record of the file at ``path`` as it is."""
    return {"sha256": cached_sha256(path, hashes), "bytes": size(path)}


def _sealed(text: str) -> str:
    return f'{text},\n  "{SEAL}": "{bytes_sha256(text.encode("utf-8"))}"\n}}\n'


__all__ = ["Checksums", "Version", "cached_sha256", "check_file", "version", "version_of"]
