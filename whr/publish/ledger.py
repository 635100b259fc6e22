"""The ledger: everything published, in an append-only, hash-chained file; the tree's authority.

``OUT/archive/ledger.jsonl`` holds one JSON object per line, one line per change to what the
archive holds: a day published or republished (``publish``), a past day's entry compacted
(``trim``), a closed month's lists gathered into one file (``month``), a replay of the backfill
written (``replay``), and, once, the days of a tree written before the ledger (``adopt``). Each
line records the files it changes, each with its size and sha256 (``files``: the manifest of a
day or replay, a month's file; ``null``: the file is retired), when (``at``), why (``forced``:
the reason of a ``--force``), its number (``seq``) and the sha256 of the line before it
(``prev``). The sha256 of the last line is the ledger's **head**: each day's ``latest.json``
gives the line that published it, and a consumer holding an earlier head checks that the
history only grew (``docs/operations.md``, *The ledger*).

The tree is checked against the ledger, never the ledger reconciled to the tree
(:mod:`whr.publish.archive.scan`): a day the ledger holds that is missing or altered is
damaged; a day it does not hold was not published here and is never shown, linked or used.

A line is written before the files it records, as the commit point of its change (the file
is replaced whole, atomically, and recorded in ``checksums.json`` first): from then on the
change has happened, and a run killed before the files are all in place leaves them at the
version the line before recorded, which the next run (or ``--verify``) finishes
(:attr:`Expected.before`).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whr.digest import bytes_sha256
from whr.publish.checksums import Checksums, Version, version
from whr.publish.files import kind, read_bytes
from whr.publish.layout import Channel, Layout

NAME = "ledger.jsonl"
OPS = ("adopt", "publish", "trim", "month", "replay")
COMPACTING = ("trim", "month")
"""The changes a later run can make again from what the tree holds: a manifest still at the
version before one of them is a compaction a killed run recorded, finished by the next run. A
publish or a replay still at its version before is not (the staged entry it was made of is put
in place from its work directory, or the day is damaged)."""
MARK = "archive/" + NAME
"""What a manifest written since the ledger began holds under ``ledger``: so that a tree
whose ledger is missing is told from a tree written before it."""

_PATH = re.compile(r"archive/[A-Za-z0-9_./-]+")


class LedgerError(RuntimeError):
    """The ledger is missing or damaged where the tree recorded one: nothing can be published
    until it is restored; the message names the file and what to do."""


@dataclass(frozen=True)
class Recorded:
    """What the ledger says of one file: its version now, and the version the line before
    recorded (a change not yet in place when the run that recorded it was killed)."""

    version: Version | None
    """Its size and sha256 now; None when it was retired."""
    before: Version | None
    """Its version before the last line that changed it (None: it had none)."""
    seq: int
    """The line that recorded its version now."""
    op: str


def _version(data: bytes | Version | None) -> Version | None:
    if data is None or not isinstance(data, bytes):
        return None if data is None else {"sha256": data["sha256"], "bytes": data["bytes"]}
    return version(data)


def _same(a: Version | None, b: Version | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a["sha256"] == b["sha256"] and a["bytes"] == b["bytes"]


def _valid(v: object) -> bool:
    return v is None or (
        isinstance(v, dict)
        and isinstance(v.get("sha256"), str)
        and isinstance(v.get("bytes"), int)
        and set(v) == {"sha256", "bytes"}
    )


@dataclass
class Ledger:
    """The ledger of the tree ``out`` as read (:meth:`read`), with what each file's record is.

    ``problem`` says why the file could not be trusted (missing where the tree recorded one,
    a line that does not read, a broken chain, or bytes that are not those recorded in
    ``checksums.json``); its records are then empty and nothing can be appended.
    """

    out: Path
    raw: list[bytes] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, Recorded] = field(default_factory=dict)
    problem: str | None = None

    @property
    def path(self) -> Path:
        return ledger_path(self.out)

    @property
    def exists(self) -> bool:
        return bool(self.raw) or self.problem is not None

    @property
    def head(self) -> str | None:
        """The sha256 of the last line (None: no line yet)."""
        return bytes_sha256(self.raw[-1]) if self.raw else None

    @classmethod
    def read(cls, out: Path, sums: Checksums | None = None) -> Ledger:
        """The ledger of ``out``, checked line by line and against the version ``sums`` (the
        tree's ``checksums.json``) records for it."""
        found = cls(out)
        path = found.path
        if kind(path) is None:
            if sums is not None and sums.recorded(path):
                found.problem = f"{path} is missing, but {sums.path} records it"
            return found
        try:
            data = read_bytes(path)
        except OSError as exc:
            found.problem = f"{path} does not read ({exc})"
            return found
        if sums is not None and sums.problem is None:
            wrong = sums.check_bytes(path, data)
            if wrong is not None:
                found.problem = f"{path} {wrong}: it was changed after the run wrote it"
                return found
        problem = found._parse(data)
        if problem is not None:
            found.raw, found.lines, found.files = [], [], {}
            found.problem = f"{path} {problem}"
        return found

    def _parse(self, data: bytes) -> str | None:
        if data and not data.endswith(b"\n"):
            return "does not end with a whole line"
        prev = None
        for n, raw in enumerate(data.split(b"\n")[:-1] if data else [], start=1):
            try:
                line = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                return f"line {n} does not read ({exc})"
            if not isinstance(line, dict) or line.get("seq") != n:
                return f"line {n} is not line {n} of a ledger"
            if line.get("prev") != prev:
                return f"line {n} does not follow line {n - 1} (its prev is not that line's sha256)"
            files = line.get("files")
            if line.get("op") not in OPS or not isinstance(files, dict):
                return f"line {n} records no known change"
            for key, v in files.items():
                if not _PATH.fullmatch(key) or ".." in key.split("/") or not _valid(v):
                    return f"line {n} records {key!r} as no file of the archive can be"
                before = self.files.get(key)
                self.files[key] = Recorded(v, before.version if before else None, n, line["op"])
            self.raw.append(raw)
            self.lines.append(line)
            prev = bytes_sha256(raw)
        return None

    def key(self, path: Path) -> str:
        return path.relative_to(self.out).as_posix()

    def recorded(self, path: Path) -> Recorded | None:
        """What the ledger records of ``path`` (None: nothing, ever)."""
        return self.files.get(self.key(path))

    def days(self, layout: Layout, channel: Channel) -> list[dt.date]:
        """The days of ``channel`` the ledger holds (their manifest not retired), oldest first."""
        return self.entries(layout.archive(channel))

    def replays(self, layout: Layout, channel: Channel) -> list[dt.date]:
        """The days of the replays of ``channel`` the ledger holds, oldest first."""
        return self.entries(layout.archive(channel) / "replay")

    def entries(self, folder: Path) -> list[dt.date]:
        """The days of the entries (a directory named by its day, with a manifest) the ledger
        holds in ``folder``, oldest first."""
        root = self.key(folder) + "/"
        found = []
        for key, rec in self.files.items():
            rest = key[len(root) :] if key.startswith(root) else ""
            day, _, name = rest.partition("/")
            if name == "manifest.json" and rec.version is not None and _is_day(day):
                found.append(dt.date.fromisoformat(day))
        return sorted(found)

    def publication(self, manifest: Path, sha256: str) -> tuple[int, str] | None:
        """The line that published the manifest ``manifest`` as it is now (its sha256): the
        line's number and sha256, if any."""
        key = self.key(manifest)
        for raw, line in zip(reversed(self.raw), reversed(self.lines), strict=True):
            v = line["files"].get(key)
            if v is not None and line["op"] in ("publish", "adopt") and v["sha256"] == sha256:
                return int(line["seq"]), bytes_sha256(raw)
        return None

    def parent(self, manifest: Path, sha256: str | None = None) -> tuple[int, str] | None:
        """The ledger's head as it stood when ``manifest`` was published: the number and sha256
        of the line before the last one that published it (or, when ``sha256`` is given and no
        line published that version, the head now: it is being published). None: no line
        before it."""
        key = self.key(manifest)
        seq = len(self.raw) + 1
        for line in reversed(self.lines):
            v = line["files"].get(key)
            if v is not None and line["op"] in ("publish", "adopt"):
                if sha256 is None or v["sha256"] == sha256:
                    seq = int(line["seq"])
                break
        return (seq - 1, bytes_sha256(self.raw[seq - 2])) if seq > 1 else None

    def line(
        self,
        op: str,
        files: Mapping[Path, bytes | Version | None],
        *,
        channel: Channel | None = None,
        at: dt.datetime,
        **about: Any,
    ) -> bytes:
        """The next line (not yet appended): ``op`` changes ``files`` (each path's new bytes, or
        its version, or None for a file retired), of ``channel``, at ``at``; ``about`` are
        further fields."""
        if op not in OPS:
            raise ValueError(f"op: expected one of {OPS}, got {op!r}")
        value = {
            "seq": len(self.raw) + 1,
            "at": at.isoformat(timespec="seconds"),
            "op": op,
            "list": channel.key if channel is not None else None,
            **about,
            "files": {self.key(p): _version(data) for p, data in sorted(files.items())},
            "prev": self.head,
        }
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def records(self, files: Mapping[Path, bytes | None]) -> bool:
        """True when the ledger already records ``files`` as they are given (a change recorded by
        a run that was killed before it was done: it is finished, not recorded again)."""
        for path, data in files.items():
            rec = self.recorded(path)
            if rec is None or not _same(rec.version, None if data is None else version(data)):
                return False
        return True

    def append(self, line: bytes, sums: Checksums) -> str:
        """Append ``line`` (made by :meth:`line` on this ledger as it is): the file is written
        whole, recorded in ``sums`` first. Returns the new head."""
        if self.problem is not None:
            raise LedgerError(f"{self.problem}; {RESTORE}")
        value = json.loads(line)
        if value.get("seq") != len(self.raw) + 1 or value.get("prev") != self.head:
            raise LedgerError(f"{self.path}: a line made for another state of the ledger")
        data = b"".join(r + b"\n" for r in [*self.raw, line])
        sums.write(self.path, data)
        for key, v in value["files"].items():
            before = self.files.get(key)
            self.files[key] = Recorded(v, before.version if before else None, value["seq"],
                                       value["op"])  # fmt: skip
        self.raw.append(line)
        self.lines.append(value)
        return bytes_sha256(line)


@dataclass(frozen=True)
class Expected:
    """What an entry's manifest must be: one of ``versions``, as ``holder`` records them.

    With the ledger, ``before`` is the version the line before its last change recorded: a
    manifest still found so is the change a killed run recorded and did not finish (the entry
    checks, marked :attr:`Entry.pending`)."""

    versions: tuple[Version, ...]
    holder: str
    before: Version | None = None

    def of(self, data: bytes) -> str | None:
        """What is wrong with a manifest of bytes ``data`` (None: as recorded); ``"pending"``
        when it is the version before the last change."""
        found = version(data)
        if any(v["sha256"] == found["sha256"] and v["bytes"] in (found["bytes"], None)
               for v in self.versions):  # fmt: skip
            return None
        if self.before is not None and dict(self.before) == found:
            return "pending"
        return (
            f"does not match the checksum recorded in {self.holder}"
            if len(data) in {v["bytes"] for v in self.versions} | {None}
            else f"has {len(data)} bytes, not the "
            + " or ".join(str(v["bytes"]) for v in self.versions)
            + f" recorded in {self.holder}"
        )


@dataclass
class Records:
    """What a tree records of itself: the ledger (what was published: the manifests of days and
    replays, the month files) and ``checksums.json`` (the views drawn from it: each day's page,
    the index files, and the ledger itself).

    A tree written before the ledger (none, and nothing says there was one) is checked as it
    was then: each manifest against ``checksums.json``, until a run adopts it.
    """

    ledger: Ledger
    sums: Checksums
    advertised: dict[str, str] = field(default_factory=dict)
    """While the ledger is missing or damaged: the sha256 of each day's manifest as
    ``published.json`` (checked against ``checksums.json``) last advertised it."""

    @classmethod
    def read(cls, out: Path) -> Records:
        sums = Checksums.read(out)
        found = cls(Ledger.read(out, sums), sums)
        index = out / "published.json"
        if not found.authority and sums.recorded(index) and sums.check(index, {}) is None:
            try:
                value = json.loads(read_bytes(index))
                found.advertised = {
                    str(d["manifest"]): str(d["manifest_sha256"])
                    for x in value["lists"]
                    for d in x["days"]
                }
            except (OSError, ValueError, KeyError, TypeError):
                found.advertised = {}
        return found

    @property
    def out(self) -> Path:
        return self.sums.out

    @property
    def authority(self) -> bool:
        """True when the ledger is there and checks: the tree is checked against it."""
        return bool(self.ledger.raw) and self.ledger.problem is None

    def expected(self, manifest: Path) -> Expected | None:
        """What the manifest ``manifest`` must be (None: no record of it)."""
        if not self.authority:
            versions = self.sums.recorded(manifest)
            if versions:
                return Expected(tuple(versions), str(self.sums.path))
            sha = self.advertised.get(self.sums.key(manifest))
            if sha is None:
                return None
            index = self.out / "published.json"
            return Expected(({"sha256": sha, "bytes": None},), f"{index} (the ledger being lost)")
        rec = self.ledger.recorded(manifest)
        if rec is None:
            return None
        return Expected(
            (rec.version,) if rec.version is not None else (),
            f"{self.ledger.path} (line {rec.seq})",
            rec.before if rec.op in COMPACTING else None,
        )


RESTORE = (
    "restore it from a copy of the published tree (a backup, or the gh-pages branch); nothing "
    "is published until then, since what was published can no longer be told"
)


def ledger_path(out: Path) -> Path:
    return out / "archive" / NAME


def _is_day(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def now() -> dt.datetime:
    """The time a line records (UTC)."""
    return dt.datetime.now(dt.UTC)


__all__ = ["MARK", "NAME", "Ledger", "LedgerError", "Recorded", "ledger_path", "now"]
