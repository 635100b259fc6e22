"""Time of eligibility (``whr.select``) on a RenjuNet-sized synthetic database.

Generates the tables of a synthetic database of ``--games`` games (default 160,000, about
RenjuNet's size; no tournament facts, so every modern tournament is under the "unverified"
warning, the slowest case), then times ``whr.select`` with the repository's rules: one call to
warm up, then ``--repeat`` calls; prints the best and the median.

    python3 benchmarks/bench_select.py [--games 160000] [--seed 1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

import whr
from whr.research.synthetic_db import generate
from whr.rules import default_directory, load_config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=160_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    db = generate(args.games, seed=args.seed)
    data = db.expected("synthetic.rif")
    config = load_config(default_directory())
    selection = whr.select(data, db.date, config=config)
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        whr.select(data, db.date, config=config)
        times.append(time.perf_counter() - start)
    counts = selection.counts
    print(
        f"{counts.read} games, {len(data.tournaments)} tournaments; rated {counts.rated}, "
        f"excluded {counts.excluded} ({counts.excluded / counts.read:.0%}), "
        f"unverified warnings {int((selection.warnings['code'] == 'unverified').sum())}"
    )
    print(f"select: best {min(times):.2f} s, median {statistics.median(times):.2f} s")


if __name__ == "__main__":
    main()
