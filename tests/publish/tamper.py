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
from typing import Any

import support

from whr.digest import file_sha256
from whr.publish import LedgerError, recover, verify
from whr.publish.checksums import Checksums
from whr.publish.ledger import Records

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


def verify_command(out: Path, leads: tuple[str, ...] = ("damaged",)) -> tuple[int, list[str]]:
    """``rif-rating --verify --out OUT``: its exit status and its ``damaged:`` lines (those of
    ``leads``)."""
    done = subprocess.run(
        [sys.executable, "-m", "flows.daily", "--verify", "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    prefixes = tuple(f"rif-rating: {lead}: " for lead in leads)
    return done.returncode, [x for x in done.stderr.splitlines() if x.startswith(prefixes)]


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
            try:
                done = support.publish_inputs(out, given, NEXT)
                said += list(done.repaired)
            except LedgerError as exc:  # the ledger itself flipped: nothing is published
                said.append(f"damaged: {exc}")
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


# ---------------------------------------------------------------------------------------------
# Damage of every kind the ledger is the authority against (issue 38): files removed, records
# removed, days planted. ``damage_base`` is the sweep's tree with a replay and a past day of the
# open month; ``damage_trial`` damages a copy one way, runs ``rif-rating --verify`` (the
# command) and then the next run, and says what became of it.

DAMAGE_DAYS = [*DAYS, NEXT]
"""The damage sweep's days: December 2025 closed (12-30 in the month's file, 12-31 whole),
2026-01-02 a past day of the open month, 2026-01-03 the newest."""
AFTER = NEXT + dt.timedelta(days=1)  # the next run's day


def damage_base(out: Path, given: support.Inputs) -> None:
    """The damage sweep's tree: the backfill's replay of the first day, then ``DAMAGE_DAYS``."""
    support.backfill(out, given, DAMAGE_DAYS[0], DAMAGE_DAYS[0])
    for day in DAMAGE_DAYS:
        support.publish_inputs(out, given, day)


def _entry(out: Path, day: dt.date) -> Path:
    return out / "archive" / "renju" / day.isoformat()


def _edit_manifest(out: Path) -> Path:
    """A same-size edit of the manifest of the open month's past day (``"listed": N`` made
    another N of as many digits)."""
    manifest = _entry(out, DAMAGE_DAYS[2]) / "manifest.json"
    text = manifest.read_text(encoding="utf-8")
    listed = json.loads(text)["counts"]["listed"]
    other = str(int(str(listed)[0]) % 9 + 1) + str(listed)[1:]
    manifest.write_text(text.replace(f'"listed": {listed},', f'"listed": {other},'), "utf-8")
    return manifest


def _plant(out: Path, day: dt.date) -> Path:
    """A copy of the newest day planted as ``day``: its manifest names that day, one rating
    is 3999, and the manifest records the forged list's sha256 (checksums.json untouched)."""
    from whr.publish.files import read_parquet, write_parquet
    from whr.tables import RATINGS

    planted = _entry(out, day)
    shutil.copytree(_entry(out, DAMAGE_DAYS[-1]), planted)
    ratings = read_parquet(planted / "ratings.parquet", RATINGS)
    ratings.loc[0, "rating"] = 3999.0
    write_parquet(ratings, RATINGS, planted / "ratings.parquet", {})
    manifest = json.loads((planted / "manifest.json").read_text(encoding="utf-8"))
    manifest["as_of"] = day.isoformat()
    info = manifest["files"]["ratings.parquet"]
    info["sha256"] = file_sha256(planted / "ratings.parquet")
    info["bytes"] = (planted / "ratings.parquet").stat().st_size
    (planted / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return planted


def _remove(*paths: Path) -> list[Path]:
    for path in paths:
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    return list(paths)


def _damages() -> dict[str, Any]:
    tomorrow = dt.datetime.now(dt.UTC).date() + dt.timedelta(days=1)
    sums = Path("archive/checksums.json")
    ledger = Path("archive/ledger.jsonl")
    return {
        "a day of the open month removed": lambda o: _remove(_entry(o, DAMAGE_DAYS[2])),
        "a day of a closed month removed": lambda o: _remove(_entry(o, DAMAGE_DAYS[0])),
        "the newest day removed": lambda o: _remove(_entry(o, DAMAGE_DAYS[-1])),
        "every day of a month removed": lambda o: _remove(
            _entry(o, DAMAGE_DAYS[0]), _entry(o, DAMAGE_DAYS[1])
        ),
        "a replay removed": lambda o: _remove(
            o / "archive" / "renju" / "replay" / DAMAGE_DAYS[0].isoformat()
        ),
        "checksums.json removed": lambda o: _remove(o / sums),
        "checksums.json removed, a manifest edited": lambda o: [
            *_remove(o / sums),
            _edit_manifest(o),
        ],
        "the ledger removed": lambda o: _remove(o / ledger),
        "the ledger removed, a manifest edited": lambda o: [
            *_remove(o / ledger),
            _edit_manifest(o),
        ],
        "the ledger and checksums.json removed": lambda o: _remove(o / ledger, o / sums),
        "a past day planted": lambda o: [_plant(o, DAMAGE_DAYS[0] - dt.timedelta(days=1))],
        "a day planted for tomorrow": lambda o: [_plant(o, max(tomorrow, AFTER))],
        "a day planted far in the future": lambda o: [_plant(o, dt.date(2099, 12, 31))],
    }


DAMAGES = tuple(_damages())


@dataclass(frozen=True)
class Damage:
    kind: str
    reported: bool
    """``--verify`` exited 1 and a line named each damaged or planted file."""
    restored: bool | None
    """Everything removed or edited is back as it was published (after the next run); None
    where a day was planted (nothing to restore)."""
    deleted: list[str]
    """Files of the damaged tree that ``--verify`` removed (must be none)."""
    wrong: list[str]
    """What the next run published wrong: a planted day adopted, listed or shown, a file
    advertised that does not check."""
    next_run: str
    """What the next run did: published, or refused (with its message)."""


def _as_recorded(out: Path, path: Path, before: Any) -> bool:
    """True when ``path`` of ``out`` (removed or edited) is back as ``before`` (the records of
    the tree it was copied from) hold it: a file of the same sha256, a directory of the same
    files."""
    original = before.ledger.out / path.relative_to(out)
    if original.is_dir():
        return path.is_dir() and all(
            (path / p.relative_to(original)).is_file()
            and file_sha256(path / p.relative_to(original)) == file_sha256(p)
            for p in original.rglob("*")
            if p.is_file() and p.name != "index.html"
        )
    return path.is_file() and (
        file_sha256(path) == file_sha256(original) or path.name == "checksums.json"
    )


def _files(out: Path) -> set[str]:
    return {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}


def damage_trial(base: Path, out: Path, kind: str, given: support.Inputs) -> Damage:
    """Copy ``base`` to ``out``, damage it ``kind``'s way, run ``rif-rating --verify`` and the
    next run (the list of ``AFTER``), and say what became of the damage."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(base, out, symlinks=True)
    touched = _damages()[kind](out)
    damaged_tree = _files(out)
    status, lines = verify_command(out, leads=("damaged", "foreign"))
    deleted = sorted(damaged_tree - _files(out))
    named = all(any(str(p) in x for x in lines) for p in touched)
    planted = [p for p in touched if p.is_dir() and "planted" in kind]
    try:
        support.publish_inputs(out, given, AFTER)
        next_run = "published"
    except Exception as exc:  # a refusal says why
        next_run = f"refused: {exc}"
    wrong = advertised_wrongly(out) if next_run == "published" else []
    index = json.loads((out / "published.json").read_text("utf-8"))
    listed = {d["date"] for x in index["lists"] for d in x["days"]}
    pointer = json.loads((out / "renju" / "latest.json").read_text("utf-8"))
    ledger = out / "archive" / "ledger.jsonl"
    held = ledger.read_text("utf-8") if ledger.is_file() else ""
    for p in planted:
        if p.name in listed or pointer["date"] == p.name or f"/{p.name}/" in held:
            wrong.append(f"{p.name} was adopted, listed or shown")
    restored: bool | None = None  # nothing to restore where a day was planted
    if not planted:
        before = Records.read(base)
        restored = all(_as_recorded(out, p, before) for p in touched)
    return Damage(kind, status == 1 and named, restored, deleted, wrong, next_run)
