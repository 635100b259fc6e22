"""Benchmark: publishing a RIF-sized history (~8,000 players, ~120,000 games).

Builds a synthetic history (whr.synthetic), selects (whr.select) and fits (whr.fit) it, then
times ``whr.publish.publish`` — the part this benchmark is about (target: under 30 s) — and its
main steps, and prints the figures: time, files written, snapshot and home page sizes.

Usage: python3 benchmarks/bench_publish.py [--games 120000] [--seed 0] [--out DIR] [--keep]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "publish"))

import support  # test helper: a synthetic history as SourceData

import whr
from whr.publish import parquet
from whr.rules import default_directory, load_config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--out", type=Path, default=None, help="output directory (default: a temporary one)"
    )
    args = parser.parse_args()

    t = time.perf_counter()
    data = support.source_data(args.games, seed=args.seed, first_year=1989)
    as_of = max(data.games["date"])
    selection = whr.select(data, as_of, config=load_config(default_directory()))
    t_select = time.perf_counter() - t
    t = time.perf_counter()
    fit = whr.fit(selection.rated, whr.FitParams(w2_elo2_per_day=12.9, virtual_games=2))
    t_fit = time.perf_counter() - t
    params = {
        "as_of": as_of.isoformat(),
        "category": "renju",
        "w2": 12.9,
        "virtual_games": 2,
        "strict": False,
    }
    print(
        f"input: {len(data.games)} games, {len(data.players)} players, {len(data.tournaments)} tournaments"
    )
    print(f"  synthetic + select: {t_select:.1f} s, fit: {t_fit:.1f} s (not part of publishing)")

    with tempfile.TemporaryDirectory(prefix="bench-publish-") as tmp:
        out = args.out or Path(tmp)
        t = time.perf_counter()
        tables, year_end = parquet.build_tables(as_of, data, selection, fit)
        t_tables = time.perf_counter() - t
        t = time.perf_counter()
        snap = whr.publish.publish(out, as_of, data, selection, fit, params)
        t_publish = time.perf_counter() - t
        files = [p for p in snap.rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        index = (snap / "site" / "index.html").stat().st_size
        players = sum(1 for _ in (snap / "site" / "p").iterdir())
        print(f"publish: {t_publish:.1f} s (target < 30 s); of which list tables ~{t_tables:.1f} s")
        print(
            f"  {len(year_end)} year-end lists, {len(tables['ratings'])} players listed, "
            f"{int((tables['ratings']['status'] == 'active').sum())} active"
        )
        print(
            f"  {len(files)} files, {size / 1e6:.1f} MB; {players} player pages; "
            f"index.html {index / 1e3:.0f} kB (target < 1000 kB)"
        )
        for name in parquet.TABLES:
            path = snap / f"{name}.parquet"
            print(f"  {name}.parquet: {path.stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
