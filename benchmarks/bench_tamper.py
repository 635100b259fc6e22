"""Benchmark: flip one byte of every archived file in turn; is each flip found?

Publishes a small tree (2025-12-30, the year-end 2025-12-31 and 2026-01-02: December closed
into its month's file, December 31 with every table), then for every archived file (every file
under ``OUT/archive`` and the index files of ``OUT``) and each of its first, middle and last
bytes, on a fresh copy of the tree: flips one bit of that byte and runs ``rif-rating --verify``
(the command), and on another fresh copy makes the next run (the repair every run starts with,
then the list of 2026-01-03, as the daily job does without Prefect: ``tests/publish/tamper.py``).
A flip is caught when a ``damaged:`` line names the file (``--verify`` also exits 1) and
``published.json`` then advertises only files that match their checksums. Prints the files
flipped, caught and missed, by kind of file and by check, and the time.

With ``--damage``, instead: every kind of damage the ledger is the authority against (a day
removed from the open month, from a closed month, the newest; every day of a month; a replay;
``checksums.json`` or the ledger, alone and with a manifest edited; a day planted in the past,
for tomorrow, far in the future), each on a fresh copy of a tree with a replay and four days,
checked by ``rif-rating --verify`` and then the next run; prints, for each, whether it was
reported (exit 1, named), restored, deleted anything, published anything wrong (a planted day
adopted, listed or shown; a file advertised that does not check), and what the next run did.

Usage: python3 benchmarks/bench_tamper.py [--positions first,middle,last] [--games 300] [--files N]
       python3 benchmarks/bench_tamper.py --damage [--games 300]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "publish"))

import support  # test helper: a synthetic history as SourceData
import tamper  # the sweep's trials


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", default=",".join(tamper.POSITIONS))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument(
        "--files", type=int, default=0, help="flip only the first N files (0: every one)"
    )
    parser.add_argument("--damage", action="store_true", help="the damage sweep (see above)")
    args = parser.parse_args()
    if args.damage:
        sys.exit(damage(args.games))
    positions = args.positions.split(",")
    given = support.inputs(args.games)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tamper-") as tmp:
        base, out = Path(tmp) / "base", Path(tmp) / "out"
        tamper.build(base, given)
        files = tamper.archived(base)
        if args.files:
            files = files[: args.files]
        print(
            f"tree: {len(files)} archived files, {sum(p.stat().st_size for p in files):,} bytes "
            f"({time.perf_counter() - started:.1f} s to publish); load average "
            f"{os.getloadavg()[0]:.1f}"
        )
        results = []
        took: dict[str, float] = defaultdict(float)
        for path in files:
            for where in positions:
                for by in ("verify", "run"):
                    t0 = time.perf_counter()
                    results.append(
                        tamper.trial(base, out, path, where, by, given, command=by == "verify")
                    )
                    took[by] += time.perf_counter() - t0
        kinds = sorted({r.kind for r in results})
        width = max(len(k) for k in kinds)
        print(f"\n{'kind':<{width}}  files  flips  caught by --verify  by the next run  missed")
        for k in [*kinds, "all"]:
            of = [r for r in results if k in ("all", r.kind)]
            flips = len(of) // 2
            count = len({r.file for r in of})
            by_verify = sum(r.caught for r in of if r.by == "verify")
            by_run = sum(r.caught for r in of if r.by == "run")
            missed = sum(not r.caught for r in of)
            print(
                f"{k:<{width}}  {count:>5}  {flips:>5}  {by_verify:>18}  {by_run:>15}  {missed:>6}"
            )
        n = len(results) // 2
        print(
            f"\n{n} flips, each checked twice: --verify (the command) {took['verify'] / n:.2f} s "
            f"a trial, the next run {took['run'] / n:.2f} s a trial; "
            f"{time.perf_counter() - started:.0f} s in all; load average {os.getloadavg()[0]:.1f}"
        )
        missed = [r for r in results if not r.caught]
        for r in missed:
            print(f"  missed: {r.file} ({r.where} byte, {r.by}): {r.said}")
        if not missed:
            print("every flip was caught; an example of each kind:")
            for k in kinds:
                r = next(r for r in results if r.kind == k and r.by == "verify")
                print(f"  {k}: {r.said[:240]}")
    sys.exit(1 if missed else 0)


def damage(games: int) -> int:
    """The damage sweep: a table of what became of each kind of damage; 1 when one was missed."""
    given = support.inputs(games)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="damage-") as tmp:
        base = Path(tmp) / "base"
        tamper.damage_base(base, given)
        rows = [tamper.damage_trial(base, Path(tmp) / "out", k, given) for k in tamper.DAMAGES]
    width = max(len(r.kind) for r in rows)
    print(f"{'damage':<{width}}  reported  restored  deleted  wrong  next run")
    for r in rows:
        restored = "-" if r.restored is None else "yes" if r.restored else "no"
        print(
            f"{r.kind:<{width}}  {'yes' if r.reported else 'MISSED':>8}  {restored:>8}  "
            f"{len(r.deleted):>7}  {len(r.wrong):>5}  {r.next_run[:90]}"
        )
    missed = [r for r in rows if not r.reported or r.deleted or r.wrong]
    print(
        f"\n{len(rows)} kinds tried: {sum(r.reported for r in rows)} reported, "
        f"{sum(bool(r.restored) for r in rows)} restored, {len(missed)} missed or wrong, "
        f"{sum(len(r.deleted) for r in rows)} files deleted; "
        f"{time.perf_counter() - started:.0f} s; load average {os.getloadavg()[0]:.1f}"
    )
    return 1 if missed else 0


if __name__ == "__main__":
    main()
