"""Benchmark: every file-system step of publishing, killed with SIGKILL and given a full disk.

Runs ``tests/publish/faults.py`` on both scenarios (``republish``: a past day of a closed month
republished with --force from another history; ``close``: the first day of a month, which closes
the previous one) with every step tried both ways, and prints per scenario: the steps, the
trials, how many left a tree repaired exactly (every day's list reading back with its recorded
checksum, byte for byte the tree before or after the action), and the time. The test suite
(``tests/publish/test_faults.py``) tries every step once; this tries each both ways.

Usage: python3 benchmarks/bench_faults.py [--scenario republish|close] [--steps A:B]

``--steps A:B`` tries only the steps A to B of each scenario (``faults.py``'s option; the test
suite's tiny run tries two).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

FAULTS = Path(__file__).resolve().parents[1] / "tests" / "publish" / "faults.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", action="append", choices=["republish", "close"])
    parser.add_argument("--steps", help="only the steps A:B of each scenario (1-based)")
    args = parser.parse_args()
    failed = 0
    for name in args.scenario or ["republish", "close"]:
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, str(FAULTS), name, "--modes", "both"]
            + (["--steps", args.steps] if args.steps else []),
            capture_output=True,
            text=True,
            check=True,
        )
        lines = [json.loads(x) for x in done.stdout.splitlines()]
        trials, summary = lines[:-1], lines[-1]
        bad = [t for t in trials if t["problems"]]
        failed += len(bad)
        print(
            f"{name}: {summary['steps']} steps (the commit point is step "
            f"{summary['commit_step']}); {summary['kills']} kills, {summary['disk_full']} "
            f"disk-full points; {summary['repaired_exactly']} of {summary['trials']} trees "
            f"repaired exactly ({summary['before']} as before the action, {summary['after']} "
            f"as after it); {time.perf_counter() - started:.0f} s"
        )
        outcomes: dict[str, int] = {}
        for t in trials:
            key = f"{t['mode']}: {t['child']}"
            outcomes[key] = outcomes.get(key, 0) + 1
        print("  the runs tried: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
        for t in bad:
            print(f"  step {t['step']} ({t['mode']}, {t['label']}): {t['problems']}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
