"""Parse time and peak memory of the RenjuNet reader on a RenjuNet-sized synthetic database.

Generates a synthetic database of ``--games`` games (default 160,000, about RenjuNet's size),
then reads it with ``whr.read_source`` in a fresh interpreter so that the peak resident memory
(``ru_maxrss`` of that child) is the reader's own, imports included. Prints the figures; the
targets are < 5 s and < 500 MB.

    python3 benchmarks/bench_parse.py [--games 160000] [--seed 1] [--keep FILE]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Peak memory is VmHWM of /proc/self/status (the high-water mark of this process's own memory):
# ru_maxrss would report the parent's peak, which a child inherits across fork and exec.
PEAK = """
def peak_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
"""

CHILD = (
    PEAK
    + r"""
import json, sys, time
t0 = time.perf_counter()
import whr
import whr.sources
t1 = time.perf_counter()
c1 = time.process_time()
data = whr.read_source(sys.argv[1])
t2 = time.perf_counter()
c2 = time.process_time()
print(json.dumps({
    "import_s": t1 - t0,
    "parse_s": t2 - t1,
    "cpu_s": c2 - c1,
    "games": len(data.games),
    "players": len(data.players),
    "tournaments": len(data.tournaments),
    "problems": len(data.problems),
    "peak_rss_mb": peak_mb(),
}))
"""
)

BASELINE = (
    PEAK
    + r"""
import json
import whr, whr.sources, pandas, pyarrow
print(json.dumps({"peak_rss_mb": peak_mb()}))
"""
)


def _child(code: str, *args: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=160_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="write the database here and keep it")
    parser.add_argument("--repeat", type=int, default=3, help="parse runs (best is reported)")
    args = parser.parse_args(argv)

    from whr.sources.synthetic import generate, write_renjunet

    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "renjunet_v10_20261130.rif"
        t0 = time.perf_counter()
        db = generate(args.games, args.seed)
        write_renjunet(db, path)
        made = time.perf_counter() - t0
        size_mb = path.stat().st_size / 1e6
        print(f"generated {len(db.games)} game records, {size_mb:.1f} MB in {made:.1f} s: {path}")
        del db
        base = _child(BASELINE)
        runs = [_child(CHILD, str(path)) for _ in range(args.repeat)]
    best = min(runs, key=lambda r: r["parse_s"])
    print(
        f"parsed {best['games']} games, {best['players']} players, "
        f"{best['tournaments']} tournaments, {best['problems']} problems"
    )
    times = ", ".join(f"{r['parse_s']:.2f}" for r in runs)
    print(
        f"parse time (wall, read_source only): best {best['parse_s']:.2f} s of {len(runs)} runs "
        f"({times}); {size_mb / best['parse_s']:.1f} MB/s; target < 5 s"
    )
    print(
        f"parse CPU time of that run: {best['cpu_s']:.2f} s "
        f"(wall exceeds CPU when other processes share the cores)"
    )
    peak = max(r["peak_rss_mb"] for r in runs)
    print(
        f"peak memory (VmHWM of the reading process): {peak:.0f} MB "
        f"(of which {base['peak_rss_mb']:.0f} MB is the interpreter with whr, pandas and "
        f"pyarrow imported); target < 500 MB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
