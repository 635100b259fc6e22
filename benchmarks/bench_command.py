"""The daily command against the library and Prefect's floor, in one run: where its time goes.

Writes a synthetic RenjuNet database of ``--games`` games (default 160,000, about RenjuNet's
size, ~52 MB; ``whr.research.synthetic_db``) and a copy of it without gomoku (its gomoku
tournaments played under a renju rule), then runs each of these ``--repeat`` times, in turn, each
in a fresh process on a fresh output tree, and prints the best wall time, the CPU time of the
process and its children, and the largest process's peak resident memory:

- ``library``: the flow's library calls from Python, no Prefect (``whr.publish.recover``,
  ``whr.read_source``, ``whr.select``, ``whr.fit``, ``whr.lists.build`` against
  ``whr.publish.previous``, ``whr.publish.publish``, ``whr.publish.summarize``), imports
  included; after it, a bare expat pass over the same bytes in a process of its own (the
  yardstick of the goals: the read at most 3 times it, the lists and publishing together at
  most 6 times);
- ``trivial flow``: Prefect's floor, a flow of two trivial tasks run as a user would (Prefect
  starts its temporary server itself), with a fresh ``PREFECT_HOME``;
- ``rif-rating --category renju``: the command, a fresh ``PREFECT_HOME`` (the scheduled job's
  first run);
- ``... used home``: the same with a ``PREFECT_HOME`` that a run has used before (the scheduled
  job as ``daily.yml`` runs it, its Prefect home kept between runs);
- ``rif-rating, both lists, no gomoku`` and ``... renju only, no gomoku``: the command on the
  database without gomoku, every category and renju alone (fresh homes).

Then the ratios the issue's goals are about: what the command adds to the library beyond the
trivial flow, and both lists against one. The machine is shared: the load average is printed
before and after, and only figures of one run are compared.

    python3 benchmarks/bench_command.py [--games 160000] [--seed 1] [--repeat 2] [--keep DIR]
        [--quick]

``--quick``: only the library, the trivial flow and the command with a fresh home (the test
suite's run, at a tiny size, with ``--api``). ``--api URL``: every flow against the Prefect
server at URL instead of a temporary server of its own (then no figure is Prefect's floor).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
AS_OF = "2026-11-30"

LIBRARY = r"""
import datetime as dt, json, sys, time
from pathlib import Path
t0 = time.perf_counter()
import whr, whr.lists, whr.publish
from whr.rules import load_config
from whr.run import Run
steps = {"import": time.perf_counter() - t0}
source, out, categories = sys.argv[1], Path(sys.argv[2]), tuple(sys.argv[3].split(","))
run = Run(sources=(source,), out=out, as_of=dt.date.fromisoformat(sys.argv[4]),
          categories=categories)
rules_sha256 = run.check_local()
def timed(name, call):
    t = time.perf_counter()
    value = call()
    steps[name] = steps.get(name, 0.0) + time.perf_counter() - t
    return value
with whr.publish.hold(run.out):
    timed("repair", lambda: whr.publish.recover(run.out))
    data = timed("read", lambda: whr.read_source([Path(source)], as_of=run.as_of,
                                                 limits=run.limits))
    skipped = whr.publish.absent(run, data)
    for category in (c for c in categories if c not in skipped):
        config = load_config(run.rules_directory)
        selection = timed("select", lambda: whr.select(data, run.as_of, category=category,
                                                       strict=run.strict, config=config))
        fit = timed("fit", lambda: whr.fit(selection.rated, run.fit))
        lists = timed("lists", lambda: whr.lists.build(data, selection, fit,
                                                       whr.publish.previous(run, category)))
        published = timed("publish", lambda: whr.publish.publish(run, lists,
                                                                  rules_sha256=rules_sha256))
        timed("summary", lambda: whr.publish.summarize(data, selection, published))
print(json.dumps(steps))
"""

EXPAT = r"""
import sys, time
from xml.parsers import expat
raw = open(sys.argv[1], "rb").read()
t = time.perf_counter()
expat.ParserCreate().Parse(raw, True)
print(time.perf_counter() - t)
"""

TRIVIAL = r"""
from prefect import flow, task

@task
def one():
    return 1

@task
def two(x):
    return x + 1

@flow
def trivial():
    return two(one())

assert trivial() == 2
"""


def _write_databases(folder: Path, games: int, seed: int) -> tuple[Path, Path]:
    """The synthetic database, and a copy whose gomoku tournaments are played under a renju
    rule (a database without gomoku)."""
    from whr.research.synthetic_db import generate, write_renjunet

    db = generate(games, seed)
    both = write_renjunet(db, folder / "all" / f"renjunet_v10_{AS_OF.replace('-', '')}.rif")
    t = db.tournaments.copy()
    gomoku = (t["category"] == "gomoku").to_numpy()
    t.loc[gomoku, ["rule_id", "rule", "category"]] = ["1", "RIF", "renju"]
    g = db.games.copy()
    if "rule_id" in g:
        moved = g["rule_id"].isin(db.rules.loc[db.rules["category"] == "2", "id"]).to_numpy()
        g.loc[moved, "rule_id"] = "1"
    renju = dataclasses.replace(db, tournaments=t, games=g)
    only = write_renjunet(renju, folder / "renju" / both.name)
    return both, only


class Runner:
    """Runs the measurements in fresh processes and keeps the best of each."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.rows: dict[str, list[dict]] = {}
        self.count = 0
        self.base = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_API")}
        self.base.update(
            PREFECT_SERVER_ANALYTICS_ENABLED="false",
            DO_NOT_TRACK="1",
            PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="900",  # a loaded machine
        )

    def fresh(self, what: str) -> Path:
        """A new path under the work directory (an output tree, a Prefect home)."""
        self.count += 1
        return self.work / f"{what}-{self.count}"

    def run(self, name: str, command: list[str], home: Path | None = None) -> dict:
        env = dict(self.base)
        env["PREFECT_HOME"] = str(home or self.fresh("prefect"))
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            started = time.perf_counter()
            process = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=err)
            _, status, usage = os.wait4(process.pid, 0)  # its waited-for children included
            wall = time.perf_counter() - started
            process.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            if process.returncode != 0:
                raise RuntimeError(f"{name} failed ({process.returncode}):\n{err.read()[-3000:]}")
            row = {
                "wall": wall,
                "cpu": usage.ru_utime + usage.ru_stime,
                "peak_mb": usage.ru_maxrss / 1024,  # the largest process's peak
                "stdout": out.read(),
            }
        self.rows.setdefault(name, []).append(row)
        return row

    def best(self, name: str) -> dict:
        return min(self.rows[name], key=lambda r: r["wall"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=160_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=2, help="rounds (the best is reported)")
    parser.add_argument("--keep", type=Path, help="work here and keep it (databases, trees)")
    parser.add_argument("--quick", action="store_true", help="the first three runs only")
    parser.add_argument("--api", help="a running Prefect server's API URL for every flow")
    args = parser.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="bench-command-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        both, only = _write_databases(work, args.games, args.seed)
        print(
            f"database: {args.games:,} games, {both.stat().st_size / 1e6:.1f} MB "
            f"(written in {time.perf_counter() - t:.0f} s); the same without gomoku"
        )
        r = Runner(work)
        expat_s: list[float] = []  # a bare expat pass over the database, after each library run
        if args.api:
            r.base["PREFECT_API_URL"] = args.api
        python = sys.executable
        command = [python, "-m", "flows.daily", "--as-of", AS_OF]
        used = work / "prefect-used"
        renju = [*command, "--category", "renju", "--source", str(both)]
        if not args.quick:
            r.run("(a first run on the home)", [*renju, "--out", str(r.fresh("out"))], used)
            del r.rows["(a first run on the home)"]
        for _ in range(args.repeat):
            r.run(
                "library",
                [python, "-c", LIBRARY, str(both), str(r.fresh("out")), "renju", AS_OF],
            )
            expat_s.append(
                float(subprocess.run([python, "-c", EXPAT, str(both)], capture_output=True,
                                     text=True, check=True).stdout)
            )  # fmt: skip
            r.run("trivial flow", [python, "-c", TRIVIAL])
            r.run("rif-rating --category renju", [*renju, "--out", str(r.fresh("out"))])
            if args.quick:
                continue
            r.run(
                "rif-rating --category renju, used home",
                [*renju, "--out", str(r.fresh("out"))],
                home=used,
            )
            none = [*command, "--source", str(only)]
            r.run("rif-rating, no gomoku: both lists", [*none, "--out", str(r.fresh("out"))])
            r.run(
                "rif-rating, no gomoku: renju only",
                [*none, "--category", "renju", "--out", str(r.fresh("out"))],
            )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print(
        f"{'run (best of ' + str(args.repeat) + ')':<42} {'wall s':>7} {'CPU s':>7} {'peak MB':>8}"
    )
    for name in r.rows:
        best = r.best(name)
        print(f"{name:<42} {best['wall']:7.1f} {best['cpu']:7.1f} {best['peak_mb']:8.0f}")
    steps = json.loads(r.best("library")["stdout"].strip().splitlines()[-1])
    print("library steps (s): " + ", ".join(f"{k} {v:.2f}" for k, v in steps.items()))
    bare = max(min(expat_s), 1e-9)
    print(
        f"lists + publish: {steps['lists'] + steps['publish']:.2f} s = "
        f"{(steps['lists'] + steps['publish']) / bare:.1f} x a bare expat pass over the same "
        f"bytes ({bare:.2f} s, best of {len(expat_s)}; goal <= 6 x); read "
        f"{steps['read'] / bare:.1f} x (goal <= 3 x)"
    )
    lib = r.best("library")["wall"]
    trivial = r.best("trivial flow")["wall"]
    fresh = r.best("rif-rating --category renju")["wall"]
    print(
        f"the command, fresh home: {fresh:.1f} s = trivial flow {trivial:.1f} s + "
        f"{(fresh - trivial) / lib:.2f} x the library path ({lib:.1f} s); goal <= 1.1 x"
    )
    if not args.quick:
        one = r.best("rif-rating, no gomoku: renju only")["wall"]
        two = r.best("rif-rating, no gomoku: both lists")["wall"]
        one_cpu = r.best("rif-rating, no gomoku: renju only")["cpu"]
        two_cpu = r.best("rif-rating, no gomoku: both lists")["cpu"]
        print(
            f"both lists / one list, no gomoku: {two / one:.2f} wall, {two_cpu / one_cpu:.2f} "
            "CPU (goal <= 1.15)"
        )
    cpu = {k: r.best(k)["cpu"] for k in ("library", "trivial flow", "rif-rating --category renju")}
    print(
        f"in CPU time: {cpu['rif-rating --category renju']:.1f} s = trivial flow "
        f"{cpu['trivial flow']:.1f} s + "
        f"{(cpu['rif-rating --category renju'] - cpu['trivial flow']) / cpu['library']:.2f} x "
        f"the library path ({cpu['library']:.1f} s)"
    )
    print(
        "peak memory of the largest process of the command: "
        f"{max(x['peak_mb'] for x in r.rows['rif-rating --category renju']):.0f} MB "
        "(goal <= 600 MB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
