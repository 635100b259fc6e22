"""Benchmark: publishing stages at RIF size (~8,000 players, 120,000 games) or larger.

Builds a synthetic history (whr.research.synthetic), selects (whr.select) and fits (whr.fit) it, then times
the publishing stages one by one and prints the figures:

- lists: ``whr.lists.build`` (the lists, year-end lists, rated games, and what the pages show:
  ``whr.lists.view``, the standings and crosstables of every tournament, in bulk);
- render: ``whr.publish.site.write`` (every page and data file of the site);

with each tournament's change at the time kept as a backfilled site keeps it (a stand-in: the
list the day after the tournament's last day first rated it, the ratings its standings give;
without it the player pages would hold none, and be smaller than a real site's) and the record
too (a stand-in of its size: every year-end list and a row per rating day), then the
site's size, files, page sizes (``index.html``, the biggest list and player pages) and
the process's peak memory so far. Targets (issue 13, a quiet 2-core machine): at RIF size
build + render <= 3 s; at 1M games <= 60 s, site <= 250 MB, index.html <= 1 MB, peak memory
<= 2 GB (measure the peak with ``/usr/bin/time -v``; the figure printed here is the same
``ru_maxrss``).

With ``--browser``, also opens the players index and the home page in Debian's Chromium
(Playwright) with the CPU slowed down 4 times (a phone-class CPU) and prints the time until
the table is drawn and the time per search keystroke; then the biggest player page and the
biggest tournament page, and the time until their sections are drawn.

Usage: python3 benchmarks/bench_publish.py [--games 120000] [--seed 0] [--out DIR] [--browser]
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "publish"))

import numpy as np
import pandas as pd
import support  # test helper: a synthetic history as SourceData

import whr
import whr.lists
from whr.publish.files import parquet_bytes
from whr.publish.site import write
from whr.rules import default_directory, load_config
from whr.tables import RECORD, conform

CHROMIUM = "/usr/bin/chromium"
PARAMS = whr.FitParams(w2_elo2_per_day=12.9, virtual_games=2)
INFO = {
    "parameters": {"category": "renju", "w2": 12.9, "virtual_games": 2},
    "fit_params": PARAMS.as_dict(),
}
"""The fit's parameters and the site's info of the benchmarks' lists (the RIF's)."""


def rif_history(games: int, seed: int) -> tuple[whr.SourceData, dt.date, whr.Selection]:
    """A synthetic history of ``games`` games from 1989 and its selection on its last day, as
    the daily job selects (``whr.select`` with the default rules)."""
    data = support.source_data(games, seed=seed, first_year=1989)
    as_of = max(data.games["date"])
    return data, as_of, whr.select(data, as_of, config=load_config(default_directory()))


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def kept_as_backfilled(view: whr.lists.View) -> whr.lists.View:
    """``view`` with a change at the time for every tournament of every player, as a backfill
    keeps them (a stand-in, for the sizes: first rated by the list of the day after the
    tournament's last day; before and after as its standings give them)."""
    st = view.standings
    players = view.players["player"].astype("str").to_numpy(object)
    tournaments = view.tournaments["tournament_id"].astype("str").to_numpy(object)
    number = st["tournament_id"].to_numpy(np.int64)
    end = st.groupby("tournament_id")["last_day"].transform("max").to_numpy("datetime64[D]")
    first = end + np.timedelta64(1, "D")
    kept = pd.DataFrame(
        {
            "player": players[st["player"].to_numpy(np.int64)],
            "tournament_id": tournaments[number],
            "first_list_date": [dt.date.fromisoformat(str(d)) for d in first],
            "previous_list_date": [dt.date.fromisoformat(str(d)) for d in end],
            "rating_before": st["rating_before"].to_numpy(np.float64),
            "uncertainty_before": np.nan,
            "rating_after": st["rating_after"].to_numpy(np.float64),
            "uncertainty_after": np.nan,
            "games": st["games"].to_numpy(np.int32),
            "score": st["score"].to_numpy(np.float64),
            "other_new_games": np.zeros(len(st), np.int32),
            "source": "replay",
        }
    )
    # the record as a backfilled archive keeps it (a stand-in of about its size at RIF size,
    # 330,000 rows measured: every year-end list, and a row per player and rating day)
    h = view.tables.history
    days = h.assign(
        list_date=h["date"],
        rank=np.nan,
        status="active",
        games=h.groupby("player")["games"].cumsum(),
        source="replay",
    )
    year_end = view.tables.year_end.assign(source="replay")
    record = pd.concat([year_end[RECORD.names], days[RECORD.names]], ignore_index=True)
    record = record.drop_duplicates(["player", "list_date"]).sort_values(["player", "list_date"])
    tables = dataclasses.replace(
        view.tables,
        tournament_changes=kept,
        record=conform(record.reset_index(drop=True), RECORD),
    )
    return whr.lists.view(view.as_of, view.category, tables, view.rules)


def replayed(selection: Any, as_of: dt.date, where: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The backfill's tables of ``selection``'s rated games up to ``as_of`` (the record and each
    tournament's change at the time), as ``rif-rating backfill`` makes them: read from
    ``where`` (a directory) when a run made them before, else replayed (minutes at RIF size)
    and written there."""
    from whr.lists import at_the_time, record
    from whr.publish.files import read_parquet, write_parquet
    from whr.tables import TOURNAMENT_CHANGES

    files = where / "record.parquet", where / "tournament_changes.parquet"
    if all(f.exists() for f in files):
        return read_parquet(files[0], RECORD), read_parquet(files[1], TOURNAMENT_CHANGES)
    t = time.perf_counter()
    line = at_the_time.timeline(selection.rated, selection.tournaments)
    lists = record.Recorder(line, through=as_of)
    changes = at_the_time.replay(line, last=as_of, lists=lists)
    rows = lists.rows()
    print(f"replay ({len(line):,} days): {time.perf_counter() - t:.0f} s")
    where.mkdir(parents=True, exist_ok=True)
    write_parquet(rows, RECORD, files[0], {})
    write_parquet(changes, TOURNAMENT_CHANGES, files[1], {})
    return rows, changes


def with_replay(view: whr.lists.View, rows: pd.DataFrame, changes: pd.DataFrame) -> whr.lists.View:
    """``view`` with the backfill's tables carried in, as the next daily run after a backfill
    up to the list's day carries them: the replay's rows before the day, then the day's own."""
    from whr.lists import at_the_time, record

    tables = dataclasses.replace(
        view.tables,
        tournament_changes=at_the_time.carry([view.tables.tournament_changes, changes]),
        record=record.carry(rows, view.tables.record, view.as_of),
    )
    return whr.lists.view(view.as_of, view.category, tables, view.rules)


def serve(site: Path) -> str:
    """The address of ``site`` served over http on 127.0.0.1 (a thread of this process)."""
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/"


def browser_figures(site: Path) -> None:
    """Time to a drawn table and per keystroke, with the CPU slowed 4x (phone class)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        page = b.new_page(viewport={"width": 390, "height": 844})
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        for name, query in (("players.html", "surname12"), ("index.html", "surname3")):
            t = time.perf_counter()
            page.goto((site / name).as_uri())
            page.wait_for_selector("#list tbody tr[aria-rowindex]")
            load = time.perf_counter() - t
            # each keystroke timed in the page: the input event until the second frame after it
            times = page.evaluate(
                """async (query) => {
                  const q = document.getElementById("q"), out = [];
                  for (let k = 1; k <= query.length; k++) {
                    const t0 = performance.now();
                    q.value = query.slice(0, k);
                    q.dispatchEvent(new Event("input"));
                    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
                    out.push(performance.now() - t0);
                  }
                  return out;
                }""",
                query,
            )
            print(
                f"  browser, CPU / 4: {name} drawn in {load:.2f} s; search {len(times)} "
                f"keystrokes, {sum(times) / len(times):.0f} ms each on average (two frames "
                f"included), {max(times):.0f} ms at most"
            )
        # the biggest player page and tournament page: their sections are drawn by the script
        # (a player page from its data, fetched over http: served here as a static host would)
        base = serve(site)
        player = max((site / "p").glob("*.json"), key=lambda f: f.stat().st_size)
        tournament = max((site / "tournaments").iterdir(), key=lambda f: f.stat().st_size)
        watch = (
            "new PerformanceObserver(l => { window.__long = (window.__long || [])"
            ".concat(l.getEntries().map(e => e.duration)); })"
            ".observe({type: 'longtask', buffered: true});"
        )
        page.add_init_script(watch)
        for path, selector in (
            (player.with_suffix(".html"), "#opponents tbody tr"),
            (tournament, "#pairings table"),
        ):
            t = time.perf_counter()
            page.goto(base + path.relative_to(site).as_posix())
            page.wait_for_selector(selector)
            took = time.perf_counter() - t
            page.evaluate("() => new Promise(r => setTimeout(r, 1000))")  # every part drawn
            tasks = page.evaluate("() => window.__long || []")
            size = path.stat().st_size + (player.stat().st_size if path.parent.name == "p" else 0)
            print(
                f"  browser, CPU / 4: {path.parent.name}/{path.name} ({size / 1e3:.0f} kB with "
                f"its data) drawn in {took:.2f} s; longest task {max(tasks, default=0):.0f} ms "
                f"({len(tasks)} tasks over 50 ms)"
            )
        b.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--out", type=Path, default=None, help="output directory (default: temporary)"
    )
    parser.add_argument("--browser", action="store_true", help="time the pages in Chromium too")
    parser.add_argument(
        "--replay",
        type=Path,
        default=None,
        help="the backfill's real tables instead of stand-ins: read from this directory, or "
        "replayed and written there when it has none",
    )
    parser.add_argument(
        "--processes", type=int, default=None, help="worker processes for the pages (default: auto)"
    )
    args = parser.parse_args()

    t = time.perf_counter()
    data, as_of, selection = rif_history(args.games, args.seed)
    t_select = time.perf_counter() - t
    t = time.perf_counter()
    fit = whr.fit(selection.rated, PARAMS)
    t_fit = time.perf_counter() - t
    print(
        f"input: {len(data.games):,} games, {len(data.players):,} players, "
        f"{len(data.tournaments):,} tournaments; synthetic + select {t_select:.1f} s, "
        f"fit {t_fit:.1f} s (not publishing); peak memory so far {peak_mb():.0f} MB"
    )

    with tempfile.TemporaryDirectory(prefix="bench-publish-") as tmp:
        out = args.out or Path(tmp)
        t = time.perf_counter()
        snapshot = whr.lists.build(data, selection, fit)
        year_ends, counts = len(snapshot.year_end), snapshot.counts
        t_tables = time.perf_counter() - t
        print(f"lists: {t_tables:.2f} s; peak memory so far {peak_mb():.0f} MB")

        site = out / "site"
        if args.replay is None:
            view = kept_as_backfilled(snapshot.view)  # (the view again: not part of the render)
        else:
            rows, changes = replayed(selection, as_of, args.replay)
            view = with_replay(snapshot.view, rows, changes)
        kept = view.tables.record
        written, _ = parquet_bytes(kept, RECORD, {})
        print(
            f"record ({'replayed' if args.replay else 'a stand-in'}): {len(kept):,} rows, "
            f"{kept['player'].nunique():,} players, {len(written) / 1e6:.2f} MB as Parquet "
            f"({len(written) / max(len(kept), 1):.1f} bytes a row)"
        )
        del snapshot  # one view in memory, as in a publish
        t = time.perf_counter()
        files = write(site, view, INFO, processes=args.processes)
        t_render = time.perf_counter() - t
        print(f"render: {t_render:.2f} s; peak memory so far {peak_mb():.0f} MB")
        print(
            f"lists + render: {t_tables:.2f} + {t_render:.2f} = {t_tables + t_render:.2f} s "
            "(targets: RIF size <= 3 s, 1M games <= 60 s)"
        )
        sizes = {path: (site / path).stat().st_size for path in files}
        size = sum(sizes.values())
        by_dir: dict[str, list[int]] = {}
        for path, n in sizes.items():
            key = path.split("/")[0] if "/" in path else "(top)"
            by_dir.setdefault(key, []).append(n)
        print(
            f"site: {len(files):,} files, {size / 1e6:.1f} MB (target at 1M games <= 250 MB); "
            f"index.html {(site / 'index.html').stat().st_size / 1e3:.1f} kB (target <= 1000 kB)"
        )
        for key, sizes in sorted(by_dir.items(), key=lambda kv: -sum(kv[1])):
            print(
                f"  {key}: {len(sizes):,} files, {sum(sizes) / 1e6:.1f} MB, "
                f"largest {max(sizes) / 1e3:.0f} kB"
            )
        print(
            f"  {year_ends} year-end lists, {counts.listed:,} players listed, "
            f"{counts.active:,} active"
        )
        print(f"peak memory (ru_maxrss): {peak_mb():.0f} MB (target at 1M games <= 2 GB)")
        if args.browser:
            browser_figures(site)


if __name__ == "__main__":
    main()
