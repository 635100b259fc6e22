"""Benchmark: the published tree's size after daily runs, and its ten-year projection.

Publishes a RIF-sized history (~8,000 players, ~120,000 games) day after day, as the daily job
does, over more than a month, so that a month closes and is compacted. Each day's list is made
from the database as it stood that day: a database updated every ``--database-every`` days
(games up to the last update; refitted when they changed), or every day (``1``: the worst case,
every rating changes every day). Then prints what each part of the tree
weighs: a past day's entry, a month's file of lists, the newest day's full entry, the current
site, and the projection for ten years of daily runs (3,650 days, 120 months, 10 year-ends kept
whole) against GitHub Pages' 1 GB limit.

Usage: python3 benchmarks/bench_archive.py [--games 120000] [--days 40] [--database-every 7] [--out DIR]
       [--end YYYY-MM-DD]

``--end``: the last day published (default: the day of the last game); the days must cover the
first day of a month, which closes the month before (the test suite's tiny run publishes three
days across one).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "publish"))

import support  # test helper: a synthetic history as SourceData

import whr
import whr.lists
from whr.digest import directory_sha256
from whr.publish import previous, publish
from whr.rules import default_directory, load_config
from whr.run import Run, bundled_rules


def size(path: Path) -> int:
    """Bytes of a file, or of every file under a directory."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def data_as_of(data: whr.SourceData, update: dt.date) -> whr.SourceData:
    """The database as it stood on ``update``: the games played up to that day."""
    games = data.games.loc[data.games["date"] <= update].reset_index(drop=True)
    return dataclasses.replace(data, games=games, inputs=(("synthetic.xml", update.isoformat()),))


def mb(n: float) -> str:
    return f"{n / 1e6:.2f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120_000)
    parser.add_argument("--days", type=int, default=40)
    parser.add_argument(
        "--database-every", type=int, default=7, help="days between database updates (1: daily)"
    )
    parser.add_argument("--out", type=Path, default=None, help="keep the tree here")
    parser.add_argument(
        "--end", type=dt.date.fromisoformat, default=None, help="the last day published"
    )
    args = parser.parse_args()

    data = support.source_data(args.games, seed=0, first_year=1989)
    end = args.end or max(data.games["date"])
    config = load_config(default_directory())
    digest = directory_sha256(bundled_rules())
    days = [end - dt.timedelta(days=args.days - 1 - i) for i in range(args.days)]
    print(
        f"input: {len(data.games)} games, {len(data.players)} players; days {days[0]} to {end}; "
        f"the database updated every {args.database_every} days"
    )

    with tempfile.TemporaryDirectory(prefix="bench-archive-") as tmp:
        out = args.out or Path(tmp)
        fits: dict[int, tuple] = {}
        took = []
        for day in days:
            update = day - dt.timedelta(days=(day - days[0]).days % args.database_every)
            current = data_as_of(data, update)
            selection = whr.select(current, day, config=config)
            key = len(selection.rated)
            if key not in fits:  # the games changed: refit, as the daily job does
                fits = {key: (selection, whr.fit(selection.rated))}
            selection, fit = fits[key]
            run = Run(sources=("synthetic",), out=out, as_of=day, categories=("renju",))
            started = time.perf_counter()
            # the lists of ``day`` (a selection reused from an earlier day is taken as of it)
            lists = whr.lists.build(
                current, dataclasses.replace(selection, as_of=day), fit, previous(run, "renju")
            )
            publish(run, lists, rules_sha256=digest)
            took.append(time.perf_counter() - started)
        archive = out / "archive" / "renju"
        entries = sorted(p for p in archive.iterdir() if p.name[:4].isdigit())
        newest = entries[-1]
        months = sorted((archive / "months").glob("*.parquet"))
        closed = [
            p for p in entries[:-1] if any(m.name.startswith(f"{p.name[:7]}.") for m in months)
        ]
        open_days = [p for p in entries[:-1] if p not in closed]
        assert closed and months, "publish more days: no month was closed"
        day_entry = sum(size(p) for p in closed) / len(closed)  # manifest and page
        month_file = sum(size(m) for m in months) / len(months)
        month_days = len(closed) / len(months)
        open_list = sum(size(p / "ratings.parquet") for p in open_days) / max(len(open_days), 1)
        site = size(out / "renju")
        full = size(newest)

        print(
            f"publish per day: median {sorted(took)[len(took) // 2]:.1f} s, max {max(took):.1f} s"
        )
        print(f"a past day's entry (manifest and page): {day_entry / 1e3:.1f} kB")
        print(f"a day's list while its month is open: {open_list / 1e3:.0f} kB")
        print(
            f"a closed month's lists: {mb(month_file)} for {month_days:.0f} days "
            f"= {month_file / month_days / 1e3:.0f} kB per day"
        )
        print(f"the newest day's full entry (every table): {mb(full)}")
        print(f"the current site: {mb(site)}")
        per_day = day_entry + month_file / month_days
        ten_years = 3650 * per_day + 31 * open_list + 10 * full + full + site
        print(f"per published day, once its month is over: {per_day / 1e3:.0f} kB")
        print(
            f"ten years of daily runs: {mb(ten_years)} (3,650 days at that rate, an open month, "
            f"10 year-ends kept whole, the newest day and the site): "
            f"{ten_years / 1e9:.0%} of GitHub Pages' 1 GB"
        )
        print(f"the tree now: {mb(size(out))} for {len(entries)} days")


if __name__ == "__main__":
    main()
