"""Kill a real publishing run, or fill its disk, at every file-system step; check the repair.

Usage: python faults.py SCENARIO [--modes kill|full|both|alternate] [--steps A:B] [--kinds]
                         [--beyond SCENARIO] [--workdir DIR]

``--steps A:B`` tries the steps A to B (1-based, B included; ``commit:`` from the commit point
on); ``--modes alternate`` kills and fills the disk in turn; ``--kinds`` tries the files a loop
writes into a work directory (the entry's tables, the site's pages) by the first one only;
``--beyond S`` only the kinds of step scenario S does not have (days and hashes aside).

A scenario is a published tree to start from, an action on it (a real :func:`whr.publish.publish`
call) and "the next ordinary run" (what the daily job does next: :func:`whr.publish.recover`,
then publishing its day unless that day is already published as it would be):

- ``republish``: December 2025 is closed (2025-12-30, the year-end 2025-12-31, and 2026-01-02
  published); the action republishes 2025-12-30 with ``--force`` from another history, so that
  the month's file is written again with other rows for that day.
- ``close``: 2026-10-30 and 2026-10-31 are published; the action publishes 2026-11-01, which
  closes October (its days move into a month's file) and switches the site.

The driver forks one child per trial (a real process of its own). The child installs wrappers
around the library's file-system calls (``os.open`` for writing, ``os.write``, ``os.fsync``,
``os.rename``/``os.replace``, ``os.unlink``, ``os.rmdir``, ``os.mkdir``, the ``renameat2`` that
exchanges sites, and ``shutil.rmtree`` as two steps: before it starts and after its first
removal), counting only calls on the tree and only in its own process (not in the site's page
workers), and runs the action. At step N it either sends itself SIGKILL (``kill``) or makes
that call fail with ENOSPC and every later call that needs space fail too (``full``: the disk
stays full for the rest of the run). Then the driver runs the next ordinary run and checks:

- nothing is left behind (no work directory, moved-aside entry or temporary file);
- the tree is, byte for byte, the tree before the action (a trial that stopped before the
  commit point: the ledger's line that publishes the day) or the tree an uninterrupted action
  leaves (after it), the next ordinary run included (the manifests' and the ledger's times are
  the same fixed one in every run);
- every day's list reads back with the checksum its manifest records, published.json
  advertises only checksums that match, and every day's page links a file that is there;
- a full disk's error names the file it could not write.

Every trial's outcome is printed as one JSON line; a last line sums them up.
"""

from __future__ import annotations

import argparse
import datetime as dt
import errno
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import support

from whr.digest import directory_sha256, file_sha256
from whr.publish import Channel, Layout, commit, files, ledger, recover, unchanged
from whr.publish.archive import page_links_list, read_list, scan
from whr.run import bundled_rules

RENJU = Channel("renju")
LEDGER = "-> archive/ledger.jsonl"
CREATED = dt.datetime(2026, 11, 2, 4, 37, 0, tzinfo=dt.UTC)


class _FixedClock(dt.datetime):
    @classmethod
    def now(cls, tz: Any = None) -> dt.datetime:  # type: ignore[override]
        return CREATED if tz is not None else CREATED.replace(tzinfo=None)


# ---------------------------------------------------------------------------------------------
# Scenarios


class Scenario:
    """A tree to start from, an action and the next ordinary run."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rules = directory_sha256(bundled_rules())
        self.given = support.inputs(300)
        if name == "republish":
            self.base = [dt.date(2025, 12, 30), dt.date(2025, 12, 31), dt.date(2026, 1, 2)]
            self.day, self.force = dt.date(2025, 12, 30), "republished from another history"
            self.other = support.inputs(260, seed=1)
            self.ordinary = self.base[-1]
        elif name == "close":
            self.base = [dt.date(2026, 10, 30), dt.date(2026, 10, 31)]
            self.day, self.force = dt.date(2026, 11, 1), None
            self.other = self.given
            self.ordinary = self.day
        else:
            raise SystemExit(f"no scenario {name!r}: republish or close")

    def _publish(self, out: Path, given: support.Inputs, day: dt.date, force: str | None) -> Any:
        return support.publish_inputs(out, given, day, run_fields={"force": force})

    def prepare(self, out: Path) -> None:
        for day in self.base:
            self._publish(out, self.given, day, None)
        recover(out)

    def action(self, out: Path) -> Any:
        return self._publish(out, self.other, self.day, self.force)

    def next_run(self, out: Path) -> None:
        """What the daily job does next: repair, then its day unless it is published already."""
        recover(out)
        run = support.run(out, self.ordinary)
        if unchanged(run, "renju", self.given.data.sha256, self.rules) is None:
            self._publish(out, self.given, self.ordinary, None)


# ---------------------------------------------------------------------------------------------
# The wrappers, installed in a trial's child


class Fault(BaseException):
    pass


class Hooks:
    """Count the file-system calls on ``out``; at step ``at`` kill the process or fill the disk."""

    WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT

    def __init__(self, out: Path, at: int | None, mode: str) -> None:
        self.out, self.at, self.mode = str(out), at, mode
        self.pid = os.getpid()
        self.steps: list[str] = []
        self.fds: dict[int, str] = {}
        self.full = False
        self.depth = 0  # inside shutil.rmtree
        self.inner = 0
        self.real: dict[str, Any] = {}

    def _mine(self, path: Any) -> bool:
        if os.getpid() != self.pid:
            return False
        text = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else ""
        return os.path.abspath(text).startswith(self.out)

    def _where(self, path: Any) -> str:
        return os.path.relpath(os.fsdecode(path), self.out)

    def step(self, label: str, *, needs_space: bool, path: str | None) -> None:
        """Before a call on the tree: count it; kill or fail when it is the chosen one."""
        if self.depth:
            self.inner += 1
            if self.inner != 2:  # rmtree: one step before, one after its first removal
                return
            label = f"rmtree (after its first removal) {label.split(' ', 1)[-1]}"
        self.steps.append(label)
        n = len(self.steps)
        if n == self.at:
            if self.mode == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            self.full = True
            raise self._enospc(path)
        if self.full and needs_space:
            raise self._enospc(path)

    @staticmethod
    def _enospc(path: str | None) -> OSError:
        if path is None:  # as the system raises it for write and fsync: no file name
            return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)

    def install(self) -> None:
        real = self.real
        for name in ("open", "write", "fsync", "rename", "replace", "unlink", "remove", "rmdir",
                     "mkdir", "close"):  # fmt: skip
            real[name] = getattr(os, name)
        real["rmtree"] = shutil.rmtree
        real["exchange"] = files._RENAMEAT2

        def open_(path: Any, flags: int, mode: int = 0o777, *, dir_fd: Any = None) -> int:
            mine = self._mine(path) or (dir_fd is not None and self.depth > 0)
            if mine and flags & self.WRITE_FLAGS:
                self.step(f"open {self._where(path)}", needs_space=True, path=os.fsdecode(path))
            fd = real["open"](path, flags, mode, dir_fd=dir_fd)
            if mine:
                self.fds[fd] = self._where(path)
            return fd

        def close(fd: int) -> None:
            self.fds.pop(fd, None)
            real["close"](fd)

        def write(fd: int, data: Any) -> int:
            if fd in self.fds:
                self.step(f"write {self.fds[fd]}", needs_space=True, path=None)
            return real["write"](fd, data)

        def fsync(fd: Any) -> None:
            if fd in self.fds:
                self.step(f"fsync {self.fds[fd]}", needs_space=True, path=None)
            real["fsync"](fd)

        def two(name: str) -> Any:
            def call(src: Any, dst: Any, **kw: Any) -> None:
                if self._mine(src) or self.depth:
                    self.step(f"{name} {self._where(src)} -> {self._where(dst)}",
                              needs_space=False, path=os.fsdecode(src))  # fmt: skip
                real[name](src, dst, **kw)

            return call

        def one(name: str, needs_space: bool) -> Any:
            def call(path: Any, *args: Any, **kw: Any) -> Any:
                if self._mine(path) or (self.depth and "dir_fd" in kw):
                    where = self._where(path) if self._mine(path) else os.fsdecode(path)
                    self.step(f"{name} {where}", needs_space=needs_space, path=os.fsdecode(path))
                return real[name](path, *args, **kw)

            return call

        def rmtree(path: Any, *args: Any, **kw: Any) -> None:
            if not self._mine(path):
                return real["rmtree"](path, *args, **kw)
            self.step(f"rmtree {self._where(path)}", needs_space=False, path=os.fsdecode(path))
            self.depth, self.inner = self.depth + 1, 0
            try:
                real["rmtree"](path, *args, **kw)
            finally:
                self.depth -= 1

        def exchange(a: int, new: bytes, b: int, target: bytes, flags: int) -> int:
            if self._mine(new):
                self.step(f"exchange {self._where(new)} <-> {self._where(target)}",
                          needs_space=False, path=os.fsdecode(target))  # fmt: skip
            return real["exchange"](a, new, b, target, flags)

        os.open, os.close, os.write, os.fsync = open_, close, write, fsync
        os.rename, os.replace = two("rename"), two("replace")
        os.unlink, os.remove, os.rmdir = (
            one("unlink", False),
            one("remove", False),
            one("rmdir", False),
        )
        os.mkdir = one("mkdir", True)
        shutil.rmtree = rmtree
        if real["exchange"] is not None:
            files._RENAMEAT2 = exchange


# ---------------------------------------------------------------------------------------------
# Checking a tree


def tree(out: Path) -> dict[str, str]:
    """Every file and link under ``out`` (but the lock) with the sha256 of its bytes."""
    found = {}
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        if rel == ".lock":
            continue
        if path.is_symlink():
            found[rel] = "link " + os.readlink(path)
        elif path.is_file():
            found[rel] = file_sha256(path)
        elif path.is_dir():
            found[rel + "/"] = "dir"
    return found


LEFTOVER = re.compile(r"(^|/)\.(work-|.*\.old-|.*\.tmp$)")


def problems(out: Path) -> list[str]:
    """What is wrong with a repaired tree (empty when nothing is)."""
    said = [f"left behind: {p}" for p in tree(out) if LEFTOVER.search(p)]
    layout = Layout(out)
    found = scan(layout, RENJU)
    said += [f"damaged: {d.what}" for d in found.damaged]
    for entry in found.good:
        if file_sha256(entry.list_file) != entry.list_sha256:
            said.append(f"{entry.day}: its list does not match its checksum")
        rows = read_list(entry)
        expected = (entry.manifest.get("list_in") or {}).get("rows_of_the_day")
        if entry.in_month and len(rows) != expected:
            said.append(f"{entry.day}: {len(rows)} rows, not {expected}")
        if not page_links_list(layout, entry):
            said.append(f"{entry.day}: its page does not link its list")
    index = json.loads((out / "published.json").read_text(encoding="utf-8"))
    for day in index["lists"][0]["days"]:
        if file_sha256(out / day["list"]) != day["list_sha256"]:
            said.append(f"published.json advertises a wrong checksum for {day['date']}")
    listed = {d["date"] for d in index["lists"][0]["days"]}
    if listed != {e.day.isoformat() for e in found.good} or found.damaged:
        said.append(f"published.json lists {sorted(listed)}")
    return said


# ---------------------------------------------------------------------------------------------
# The driver


def run_child(scenario: Scenario, out: Path, at: int | None, mode: str, report: Path) -> dict:
    """Fork a child that runs the action with the wrappers installed; what became of it."""
    pid = os.fork()
    if pid == 0:  # the child: a real process, killed by a real signal
        hooks = Hooks(out, at, mode)
        hooks.install()
        outcome: dict[str, Any] = {}
        try:
            done = scenario.action(out)
            outcome = {"outcome": "published", "warnings": list(done.warnings)}
        except BaseException as exc:
            outcome = {"outcome": "failed", "error": f"{type(exc).__name__}: {exc}"}
        outcome["steps"] = hooks.steps
        with open(report, "w", encoding="utf-8") as handle:
            json.dump(outcome, handle)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return {"outcome": f"killed by signal {os.WTERMSIG(status)}"}
    return json.loads(report.read_text(encoding="utf-8"))


def trial(scenario: Scenario, base: Path, out: Path, at: int, mode: str, expected: dict) -> dict:
    """One trial: a fresh copy of the starting tree, the child stopped at step ``at``, the next
    ordinary run, the checks."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(base, out, symlinks=True)
    child = run_child(scenario, out, at, mode, out.parent / "report.json")
    scenario.next_run(out)
    said = problems(out)
    now = tree(out)
    equal = next((k for k, v in expected.items() if v == now), None)
    if equal is None:
        close = min(expected, key=lambda k: len(set(expected[k].items()) ^ set(now.items())))
        diff = sorted({*expected[close]} ^ {*now} | {
            k for k in now if k in expected[close] and now[k] != expected[close][k]
        })  # fmt: skip
        said.append(f"the tree is neither before nor after the action; differs from {close} "
                    f"in {diff[:6]}")  # fmt: skip
    if mode == "full" and child["outcome"] != "killed by signal 9":
        text = child.get("error") or " ".join(child.get("warnings", []))
        if "No space left" in text and str(out) not in text:
            said.append(f"the disk-full error names no path: {text}")
    told = child.get("error") or "; ".join(child.get("warnings", []))
    return {"mode": mode, "step": at, "child": child["outcome"], "said": told[:300],
            "tree": equal, "problems": said}  # fmt: skip


def key(label: str, *, dates: bool = False) -> str:
    """A step's kind: its label without tokens, with the files a loop writes into a work
    directory as one (``F``); with ``dates``, also without the days and month hashes."""
    label = re.sub(r"\.work-[0-9a-f-]+", ".work-X", label)
    label = re.sub(r"\.\d+-[0-9a-f]{8}\.tmp", ".T.tmp", label)
    label = re.sub(r"\.old-[0-9a-f-]+", ".old-X", label)
    label = re.sub(r"(\.work-X/(entry|site))/[^ ]+", r"\1/F", label)
    label = re.sub(r"rmtree \(after its first removal\) \S+", "rmtree-inner", label)
    if dates:
        label = re.sub(r"\d{4}-\d{2}-\d{2}", "D", label)
        label = re.sub(r"\d{4}-\d{2}\.[0-9a-f]{16}\.parquet", "M.parquet", label)
    return label


def count(scenario: Scenario, root: Path) -> tuple[Path, Path, dict, list[str], int]:
    """Prepare the scenario's starting tree under ``root``, and run its action once without a
    fault: the starting tree, the trials' tree, the trees expected, the steps and the commit
    step."""
    base, out = root / "base", root / "out"  # every trial at the same path: same manifests
    scenario.prepare(out)
    shutil.move(out, base)
    expected = {}
    shutil.copytree(base, out, symlinks=True)
    recover(out)
    expected["before"] = tree(out)  # the tree as the action found it
    assert not problems(out), problems(out)
    shutil.rmtree(out)
    shutil.copytree(base, out, symlinks=True)
    counted = run_child(scenario, out, None, "kill", root / "report.json")
    assert counted["outcome"] == "published", counted
    scenario.next_run(out)
    expected["after"] = tree(out)
    assert not problems(out), problems(out)
    steps = counted["steps"]
    # the commit point: the ledger's line that publishes the day is in place
    commit_at = next(
        i + 1 for i, x in enumerate(steps) if x.startswith("replace ") and x.endswith(LEDGER)
    )
    return base, out, expected, steps, commit_at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=["republish", "close"])
    parser.add_argument("--modes", default="both", choices=["kill", "full", "both", "alternate"])
    parser.add_argument("--steps", default=":", help="A:B, the steps tried (1-based, B included; "
                        "A may be 'commit', the commit point)")  # fmt: skip
    parser.add_argument("--kinds", action="store_true", help="a loop's files written into a "
                        "work directory: only the first (each kind of step once)")  # fmt: skip
    parser.add_argument("--beyond", choices=["republish", "close"], default=None,
                        help="only the kinds of step that scenario has not")  # fmt: skip
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    # Every run of the driver records the same creation time in its manifests and ledger lines,
    # so that the trees of different runs can be compared byte for byte.
    clock = types.SimpleNamespace(
        date=dt.date, datetime=_FixedClock, timedelta=dt.timedelta, UTC=dt.UTC
    )
    commit.dt = clock  # type: ignore[assignment]
    ledger.dt = clock  # type: ignore[assignment]  # the ledger's lines say when too
    scenario = Scenario(args.scenario)
    with tempfile.TemporaryDirectory(prefix="faults-") as tmp:
        root = args.workdir or Path(tmp)
        base, out, expected, steps, commit_at = count(scenario, root)
        known: set[str] = set()
        if args.beyond:
            (root / "beyond").mkdir()
            other = count(Scenario(args.beyond), root / "beyond")[3]
            known = {key(x, dates=True) for x in other}
        first, last = args.steps.split(":")
        lo = commit_at if first == "commit" else int(first or 1)
        hi = min(int(last or len(steps)), len(steps))
        chosen, seen = [], set()
        for at in range(lo, hi + 1):
            kind = key(steps[at - 1])
            if (args.kinds and kind in seen and ".work-X/" in kind) or (
                key(steps[at - 1], dates=True) in known
            ):
                continue
            seen.add(kind)
            chosen.append(at)
        modes = {"both": ["kill", "full"], "alternate": None}.get(args.modes, [args.modes])
        started = time.perf_counter()
        results = []
        for i, at in enumerate(chosen):
            for mode in modes or [("kill", "full")[i % 2]]:
                result = trial(scenario, base, out, at, mode, expected)
                result["label"] = steps[at - 1]
                # before the commit point the action published nothing; after it, all of it
                # (in "close", the next ordinary run publishes the day itself)
                due = "before" if at <= commit_at and scenario.name == "republish" else "after"
                if result["tree"] != due and not result["problems"]:
                    result["problems"].append(f"the tree is {result['tree']}, not {due}")
                results.append(result)
                print(json.dumps(result), flush=True)
        took = time.perf_counter() - started
        print(json.dumps({
            "summary": args.scenario,
            "steps": len(steps),
            "commit_step": commit_at,
            "labels": steps,
            "chosen": chosen,
            "trials": len(results),
            "kills": sum(r["mode"] == "kill" for r in results),
            "disk_full": sum(r["mode"] == "full" for r in results),
            "repaired_exactly": sum(not r["problems"] for r in results),
            "before": sum(r["tree"] == "before" for r in results),
            "after": sum(r["tree"] == "after" for r in results),
            "seconds": round(took, 1),
        }), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
