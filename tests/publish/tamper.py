"""Flip one byte of each archived file in turn; the next run and ``--verify`` must find each.

A small published tree (``build``): 2025-12-30, the year-end 2025-12-31 and 2026-01-02, so that
December is closed (2025-12-30's list is in the month's file) and 2025-12-31 keeps every table.
Its archived files (``archived``) are every file under ``OUT/archive`` (manifests, day pages,
the month's file, the tables of the newest day and of December 31, ``checksums.json``) and the
index files of ``OUT`` (``published.json`` and the others). A trial (``trial``) copies the tree,
flips one bit of one byte of one file (its first, middle or last byte: ``flip``), and then
either checks the tree as ``rif-rating --verify`` does or makes the next run (the repair every
run starts with, then the list of the next day, as the daily job does). The flip is caught
when a ``damaged:`` line names the file, ``--verify`` fails, and ``published.json`` then
advertises only files that match their checksums: never the flipped file as good.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import support

from whr.digest import file_sha256
from whr.publish import recover, verify
from whr.publish.checksums import Checksums

DAYS = [dt.date(2025, 12, 30), dt.date(2025, 12, 31), dt.date(2026, 1, 2)]
NEXT = dt.date(2026, 1, 3)
POSITIONS = ("first", "middle", "last")
REPO = Path(__file__).resolve().parents[2]


def build(out: Path, given: support.Inputs) -> None:
    """The tree of the sweep: ``DAYS`` published from ``given`` into ``out``."""
    for day in DAYS:
        support.publish_inputs(out, given, day)


def archived(out: Path) -> list[Path]:
    """Every archived file of the tree: under ``OUT/archive``, and the index files."""
    found = [p for p in sorted((out / "archive").rglob("*")) if p.is_file()]
    index = ("published.json", "datapackage.json", "archive.html", "index.html")
    return found + [out / name for name in index if (out / name).is_file()]


def kind_of(out: Path, path: Path) -> str:
    """What a file is, for the sweep's figures."""
    rel = path.relative_to(out).as_posix()
    if rel in ("published.json", "datapackage.json", "archive.html", "index.html"):
        return rel
    if rel == "archive/checksums.json":
        return "checksums.json"
    if rel == "archive/ledger.jsonl":
        return "ledger.jsonl"
    if "/months/" in rel:
        return "month file"
    if path.name == "manifest.json":
        return "manifest"
    if path.name == "index.html":
        return "day page"
    day = path.parent.name
    if day == DAYS[-1].isoformat():
        return "table of the newest day"
    return "table of December 31" if day.endswith("-12-31") else "table"


def flip(path: Path, where: str) -> int:
    """Flip the lowest bit of one byte of ``path`` (its first, middle or last), in place; the
    byte's offset."""
    data = bytearray(path.read_bytes())
    at = {"first": 0, "middle": len(data) // 2, "last": len(data) - 1}[where]
    data[at] ^= 0x01
    path.write_bytes(bytes(data))
    return at


def advertised_wrongly(out: Path) -> list[str]:
    """What ``published.json`` advertises that does not check: a manifest or list whose
    sha256 is not the advertised one, or a manifest that does not match its recorded
    checksum."""
    index = json.loads((out / "published.json").read_text(encoding="utf-8"))
    sums = Checksums.read(out)
    wrong = []
    for listed in index["lists"]:
        for day in listed["days"]:
            manifest, ratings = out / day["manifest"], out / day["list"]
            if file_sha256(manifest) != day["manifest_sha256"]:
                wrong.append(f"{day['manifest']}: not the advertised sha256")
            if sums.check(manifest, {}) is not None:
                wrong.append(f"{day['manifest']}: not its recorded checksum")
            if file_sha256(ratings) != day["list_sha256"]:
                wrong.append(f"{day['list']}: not the advertised sha256")
    return wrong


def names(line: str, path: Path) -> bool:
    """True when a report's line names the flipped file (and so its day or month)."""
    return str(path) in line


def verify_command(out: Path) -> tuple[int, list[str]]:
    """``rif-rating --verify --out OUT``: its exit status and its ``damaged:`` lines."""
    done = subprocess.run(
        [sys.executable, "-m", "flows.daily", "--verify", "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    prefix = "rif-rating: damaged: "
    return done.returncode, [
        x[len(prefix) :] for x in done.stderr.splitlines() if x.startswith(prefix)
    ]


@dataclass(frozen=True)
class Trial:
    file: str
    kind: str
    where: str
    by: str
    caught: bool
    said: str
    """The line that names the file (or what was wrong with the check)."""


def trial(
    base: Path,
    out: Path,
    path: Path,
    where: str,
    by: str,
    given: support.Inputs | None = None,
    *,
    command: bool = False,
) -> Trial:
    """Copy ``base`` to ``out``, flip a byte of its copy of ``path``, and check it ``by``
    ``"verify"`` (``whr.publish.verify``, or with ``command`` the ``rif-rating --verify``
    command) or ``"run"`` (the repair, then the list of ``NEXT`` from ``given`` unless None)."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(base, out, symlinks=True)
    target = out / path.relative_to(base)
    flip(target, where)
    if by == "verify":
        if command:
            status, damaged = verify_command(out)
            ok = status == 0
        else:
            found = verify(out)
            ok, damaged = found.ok, list(found.damaged)
        hit = [x for x in damaged if names(x, target)]
        problems = ["--verify found nothing"] if ok else []
    else:
        said = recover(out)
        if given is not None:
            done = support.publish_inputs(out, given, NEXT)
            said += list(done.repaired)
        lead = "damaged: "
        hit = [x[len(lead) :] for x in said if x.startswith(lead) and names(x, target)]
        problems = []
    problems += advertised_wrongly(out)
    caught = bool(hit) and not problems
    return Trial(
        file=path.relative_to(base).as_posix(),
        kind=kind_of(base, path),
        where=where,
        by=by,
        caught=caught,
        said=(hit[0] if hit else "no line names it")
        + ("; " + "; ".join(problems) if problems else ""),
    )
