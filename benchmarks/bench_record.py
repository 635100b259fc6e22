"""Benchmark and check: what the charts say the lists published, on a RIF-sized tree (issue 39).

Publishes a synthetic history of ``--games`` games (RIF size by default) as the daily job does on
``--days`` list days (the last game day and the days before it, a week apart), runs the backfill
after the first (``rif-rating backfill --until`` the archive's first day: the lists of every day
on which tournaments end before it), then checks every listed player's ``p/<id>.json`` of the
current site: the chart's published series (its steps, running sums of ``published``) must be,
on every archived list's day, the rating that list published (each day's list read from the
archive, ``whr.publish.archive.read_list``, not from the record) within 0.5 Elo, and end at
today's list. Prints the pairs checked and those that differ, the record's rows and bytes (the
newest entry's and the replay's), ``p/*.json`` and the tree's size.

Usage: python3 benchmarks/bench_record.py [--games 120000] [--days 5] [--out DIR]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "publish"))

import numpy as np
import support  # test helper: a synthetic history as SourceData, publish_days

from whr.publish.archive import read_list, scan
from whr.publish.layout import Channel, Layout
from whr.publish.site import page_names

EPOCH = dt.date(1970, 1, 1)


def size(path: Path) -> int:
    """Bytes of a file, or of every file under a directory."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def check(out: Path) -> None:
    """Every player's published series against every archived list (see the module's notes)."""
    entries = scan(Layout(out), Channel("renju")).good
    lists = {e.day: read_list(e) for e in entries}
    said = {day: dict(zip(f["player"], f["rating"], strict=True)) for day, f in lists.items()}
    today = said[entries[-1].day]
    pages = page_names(sorted(today))
    site = support.site_of(out)
    pairs = differ = ends_off = worst = 0.0
    for player, rating in today.items():
        text = (site / "p" / f"{pages[player]}.json").read_text(encoding="utf-8")
        days, ratings, day = support.published_series(support.strict_json(text))
        if not days or days[-1] > day or abs(ratings[-1] - rating) > 0.5:
            ends_off += 1
        for list_day, ratings_then in said.items():
            if player not in ratings_then:
                continue
            at = int(np.searchsorted(days, (list_day - EPOCH).days, "right")) - 1
            gap = abs(ratings[at] - ratings_then[player]) if at >= 0 else np.inf
            pairs += 1
            differ += gap > 0.5
            worst = max(worst, gap)
    print(
        f"check: {len(today):,} players, {int(pairs):,} player-list pairs on {len(lists)} "
        f"archived lists: {int(differ):,} differ by more than 0.5 Elo (largest gap "
        f"{worst:.2f} Elo), {int(ends_off):,} series end off today's list"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120_000)
    parser.add_argument("--days", type=int, default=5)
    parser.add_argument("--out", type=Path, default=None, help="keep the tree here")
    args = parser.parse_args()

    data = support.source_data(args.games, seed=0, first_year=1989)
    end = max(data.games["date"])
    days = [end - dt.timedelta(days=7 * (args.days - 1 - i)) for i in range(args.days)]
    print(f"input: {len(data.games):,} games, {len(data.players):,} players; lists {days}")
    with tempfile.TemporaryDirectory(prefix="bench-record-") as tmp:
        out = args.out or Path(tmp)
        t = time.perf_counter()
        support.publish_days(out, data, days)
        print(f"published {len(days)} lists and the backfill in {time.perf_counter() - t:.0f} s")
        check(out)
        newest = support.entry_of(out, days[-1])
        manifest = json.loads((newest / "manifest.json").read_text(encoding="utf-8"))
        info = manifest["files"]["record.parquet"]
        replay = next((out / "archive" / "renju" / "replay").iterdir())
        replayed = json.loads((replay / "manifest.json").read_text(encoding="utf-8"))
        r_info = replayed["files"]["record.parquet"]
        print(
            f"record: {info['rows']:,} rows, {info['bytes'] / 1e6:.2f} MB in the newest entry; "
            f"the replay's {r_info['rows']:,} rows, {r_info['bytes'] / 1e6:.2f} MB"
        )
        site = support.site_of(out)
        files = list((site / "p").glob("*.json"))
        print(
            f"p/*.json: {len(files):,} files, {sum(f.stat().st_size for f in files) / 1e6:.1f} MB; "
            f"the site {size(site) / 1e6:.1f} MB; the tree {size(out) / 1e6:.1f} MB"
        )


if __name__ == "__main__":
    main()
