"""Benchmark: the what-if page (issue 40) on a RIF-sized list (120,000 rated games).

Builds the list's site as ``bench_publish.py`` does (a synthetic history, ``whr.select``,
``whr.fit``, ``whr.lists.build``, ``whr.publish.site.write``) and prints:

- the what-if data file's bytes: raw, gzip (levels 6 and 9) and brotli when the ``brotli``
  module is installed (goal: at most 1 MB over the wire, gzip);
- in Debian's Chromium (Playwright), the site served over http on 127.0.0.1 and the CPU slowed
  4 times (CDP ``Emulation.setCPUThrottlingRate``), for five questions, each opened as a link
  (``whatif.html#g=...``): (a) one game between two active players the day after the list,
  (b) a nine-round event (ten players, a round a day), (c) a new player's game, (d) an inactive
  player's return, (e) a game on a day before the list's newest games. For each: the data file
  loaded -> the worker ready (decoded) -> the answer drawn (``data-answered``), the worker's
  own time (``#whatif-took``), and the main thread's longest task ('longtask') and largest gap
  between animation frames while it computes; then a second question on the same page (a's
  result changed: from the change, the page's 120 ms wait for more typing included). Goals:
  one game <= 0.5 s, nine rounds <= 2 s from the data being loaded.

  Chromium slows only a page's main thread: a worker runs at full speed (CDP refuses the rate
  for a worker target: "Operation is only supported for pages, not workers"). So each question
  is asked twice: by the page as it is (the worker at full speed: the responsiveness figures),
  and with the worker replaced by the same solver run on the slowed main thread (the solver's
  ``WHATIF_SOLVER(scope)``, messages passed by ``setTimeout``): the 4x figures, judged against
  the goals;
- exactness: the page's answers (the unrounded ``data-elo`` of the answer tables: the players of
  the games and every other player it lists as moving >= 1 Elo) against ``whr.fit`` on the
  list's rated games and the hypothetical ones, read on the later of the list's day and the
  games' last day: the largest difference in Elo (bound: 0.01).

Usage: python3 benchmarks/bench_whatif.py [--games 120000] [--seed 0] [--out DIR] [--rate 4]
       [--repeat 3]
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import gzip
import io
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from bench_publish import CHROMIUM, INFO, PARAMS, kept_as_backfilled, rif_history, serve, support

import whr
import whr.lists
from whr.params import FitParams
from whr.publish.site import write

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

# set before the page's own scripts: long tasks, animation frames, the times answers are drawn
WATCH = """
window.__long = []; window.__frames = []; window.__answered = [];
new PerformanceObserver(l => l.getEntries().forEach(e => window.__long.push([e.startTime, e.duration])))
  .observe({type: "longtask", buffered: true});
(function frame(t) { window.__frames.push(t); requestAnimationFrame(frame); })(performance.now());
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver(() => window.__answered.push(performance.now()))
    .observe(document.getElementById("whatif-answer"), {attributeFilter: ["data-answered"]});
});
"""
# the worker replaced by the same solver on the page's (slowed) main thread
ON_MAIN = """
window.Worker = function () {
  var me = this, scope = {postMessage: function (m) {
    if (m.type === "ready") window.__decoded = m.ms;  // the solver's own time to decode
    if (m.type === "warm") window.__warm = m.ms;  // its warm-up, before the data is loaded
    setTimeout(function () { me.onmessage({data: m}); }, 0);
  }};
  WHATIF_SOLVER(scope);
  this.postMessage = function (m) { setTimeout(function () { scope.onmessage({data: m}); }, 0); };
};
"""
FIGURES = """(n) => {
  const mark = name => performance.getEntriesByName(name)[0].startTime;
  const data = mark("whatif-data"), ready = mark("whatif-ready"), done = window.__answered[n - 1];
  const from = n === 1 ? data : window.__asked;
  const long = window.__long.filter(([s, d]) => s + d > from && s < done).map(([s, d]) => d);
  const frames = window.__frames.filter(t => t >= from && t <= done);
  const edges = [from, ...frames, done];
  let gap = 0;
  for (let i = 1; i < edges.length; i++) gap = Math.max(gap, edges[i] - edges[i - 1]);
  const cells = sel => [...document.querySelectorAll(sel + " tbody tr")].map(
    tr => [tr.dataset.player, +tr.children[2].dataset.elo]);
  return {ready: ready - data, decoded: window.__decoded || 0, warm: window.__warm || 0, answer: done - from, worker: +document.getElementById("whatif-took").dataset.ms,
          longest: Math.max(0, ...long), gap, rows: cells("#whatif-players"), others: cells("#whatif-others")};
}"""
SECOND = """() => {
  const select = document.querySelector("#whatif-games select.result");
  window.__asked = performance.now();
  select.value = select.value === "0" ? "1" : "0";
  select.dispatchEvent(new Event("change", {bubbles: true}));
}"""

Game = tuple[str, str, float, dt.date]


def gzipped(data: bytes, level: int) -> int:
    return len(gzip.compress(data, compresslevel=level, mtime=0))


def data_bytes(site: Path) -> None:
    """The what-if data file's size: raw, gzip, brotli (when installed)."""
    (path,) = (site / "data").glob("whatif.*.js")
    data = path.read_bytes()
    sizes = f"raw {len(data):,}, gzip -6 {gzipped(data, 6):,}, gzip -9 {gzipped(data, 9):,}"
    try:
        import brotli  # type: ignore[import-not-found]  # not a dependency: if it is here
    except ImportError:
        sizes += ", brotli: not installed"
    else:
        sizes += f", brotli -11 {len(brotli.compress(data, quality=11)):,}"
    print(f"data file {path.name}: {sizes} bytes (goal: gzip <= 1,000,000)")


def questions(site: Path, as_of: dt.date, seed: int) -> dict[str, list[Game]]:
    """The five questions, from the list as the site's ratings.csv publishes it."""
    text = (site / "ratings.csv").read_text(encoding="utf-8-sig")
    rows = [r | {"player": r["player"].lstrip("'")} for r in csv.DictReader(io.StringIO(text))]
    active = [r["player"] for r in rows if r["status"] == "active"]
    inactive = sorted(
        (r for r in rows if r["status"] == "inactive"), key=lambda r: -int(r["games"] or 0)
    )
    if len(active) < 12 or not inactive:
        raise SystemExit("the list needs 12 active players and an inactive one: use more --games")
    after = as_of + dt.timedelta(days=1)
    rng = np.random.default_rng(seed)
    ten = active[2:12]
    event: list[Game] = []
    for round_ in range(9):  # a round robin of ten players (the circle method), a round a day
        order = [ten[0], *np.roll(ten[1:], round_)]
        for k in range(5):
            black, white = (order[k], order[9 - k])[:: 1 if round_ % 2 else -1]
            result = float(rng.choice([0.0, 0.5, 1.0], p=[0.4, 0.2, 0.4]))
            event.append((black, white, result, after + dt.timedelta(days=round_)))
    return {
        "(a) one game, two active players": [(active[1], active[0], 1.0, after)],
        "(b) nine rounds, ten players, 9 days": event,
        "(c) a new player's game": [("+1", active[0], 1.0, after)],
        "(d) an inactive player's return": [(inactive[0]["player"], active[3], 1.0, after)],
        "(e) a game 30 days before the list": [
            (active[4], active[5], 0.0, as_of - dt.timedelta(days=30))
        ],
    }


def address(games: list[Game], after: dt.date) -> str:
    def day(d: dt.date) -> str:
        return "" if d == after else d.isoformat()

    return "whatif.html#g=" + ";".join(f"{b},{w},{r:g},{day(d)}" for b, w, r, d in games)


BUSY = """() => { const t = performance.now(); let s = 0;
  for (let i = 0; i < 2e7; i++) s += Math.sqrt(i) * Math.exp(-i * 1e-9);
  return s > 0 ? performance.now() - t : 0; }"""


def slowdown(browser: Any, rate: float) -> str:
    """How much slower a busy loop runs on a page at ``rate`` than at full speed (best of 3
    each), and the machine's load: what the figures below were measured under."""
    times = []
    for r in (1, rate):
        page = browser.new_page()
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": r})
        times.append(min(page.evaluate(BUSY) for _ in range(3)))
        page.close()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"a busy loop {times[0]:.0f} ms, at CPU / {rate:g} {times[1]:.0f} ms ({times[1] / times[0]:.1f}x); load average {load}"


def asked(browser: Any, url: str, rate: float, on_main: bool, second: bool) -> list[dict[str, Any]]:
    """The figures of the question at ``url`` (and of a second one on the page, if asked)."""
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    try:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        page.add_init_script(WATCH + (ON_MAIN if on_main else ""))
        page.goto(url)
        page.wait_for_selector("#whatif-answer[data-answered='1']", timeout=600_000)
        found = [page.evaluate(FIGURES, 1)]
        if second:
            page.evaluate(SECOND)
            page.wait_for_selector("#whatif-answer[data-answered='2']", timeout=600_000)
            found.append(page.evaluate(FIGURES, 2))
        return found
    finally:
        page.close()


def spread(runs: list[list[dict[str, Any]]], k: int, key: str) -> str:
    """The median of the runs' figure ``key`` of question ``k``, and their range, in ms."""
    values = sorted(run[k][key] for run in runs)
    if len(values) == 1:
        return f"{values[0]:.0f} ms"
    return f"{np.median(values):.0f} ms ({values[0]:.0f}-{values[-1]:.0f})"


def most(runs: list[list[dict[str, Any]]], k: int, key: str) -> str:
    return f"{max(run[k][key] for run in runs):.0f} ms"


def refit(rated: pd.DataFrame, games: list[Game], as_of: dt.date, params: FitParams) -> pd.Series:
    """The oracle: ``whr.fit`` on the list's rated games and ``games``, read on the later day."""
    both, day = support.joined(rated, games, as_of)
    ratings: pd.Series = whr.fit(both, params).rating_on(day).set_index("player")["rating"]
    return ratings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="keep the site here")
    parser.add_argument("--rate", type=float, default=4, help="CPU slowdown (default 4)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="each question asked this many times (median)"
    )
    args = parser.parse_args()

    t = time.perf_counter()
    data, as_of, selection = rif_history(args.games, args.seed)
    params = PARAMS
    snapshot = whr.lists.build(data, selection, whr.fit(selection.rated, params))
    view = kept_as_backfilled(snapshot.view)
    del snapshot
    print(
        f"input: {len(selection.rated):,} rated games, {len(data.players):,} players, "
        f"list of {as_of}; built in {time.perf_counter() - t:.1f} s"
    )
    with tempfile.TemporaryDirectory(prefix="bench-whatif-") as tmp:
        site = (args.out or Path(tmp)) / "site"
        write(site, view, INFO)
        data_bytes(site)
        base = serve(site)
        after = as_of + dt.timedelta(days=1)
        asks = questions(site, as_of, args.seed)
        from playwright.sync_api import sync_playwright

        worst, checked = 0.0, 0
        print(
            f"browser, CPU / {args.rate:g}, each question {args.repeat} times (median, range): from "
            "the data loaded to the answer drawn (to the worker ready), the worker's own time; "
            "the longest task and frame gap (the most of the runs) with the worker as the page has it"
        )
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            print(f"  the main thread: {slowdown(browser, args.rate)}")
            for name, games in asks.items():
                url = base + address(games, after)
                second = name.startswith("(a)")
                runs = [
                    (asked(browser, url, args.rate, True, second), asked(browser, url, args.rate, False, second))
                    for _ in range(args.repeat)
                ]  # fmt: skip
                slow, page = [r[0] for r in runs], [r[1] for r in runs]
                goal = " (goal <= 500)" if len(games) == 1 else " (goal <= 2000)"
                print(
                    f"  {name}, {len(games)} games: solver on the slowed thread "
                    f"{spread(slow, 0, 'answer')}{goal} (ready {spread(slow, 0, 'ready')}, of which "
                    f"the solver's decoding {spread(slow, 0, 'decoded')}, after its warm-up of "
                    f"{spread(slow, 0, 'warm')} while the data loaded; its own "
                    f"{spread(slow, 0, 'worker')}); in the worker {spread(page, 0, 'answer')} "
                    f"(ready {spread(page, 0, 'ready')}, its own {spread(page, 0, 'worker')}); "
                    f"longest task {most(page, 0, 'longest')}, largest frame gap "
                    f"{most(page, 0, 'gap')}"
                )
                if second:
                    print(
                        f"  {name}, its result changed on the same page: "
                        f"{spread(slow, 1, 'answer')} on the slowed thread, "
                        f"{spread(page, 1, 'answer')} in the worker (the page's 120 ms wait "
                        f"included; longest task {most(page, 1, 'longest')}, largest frame gap "
                        f"{most(page, 1, 'gap')})"
                    )
                expected = refit(selection.rated, games, as_of, params)
                shown = [x for run in slow + page for x in run[0]["rows"] + run[0]["others"]]
                differ = max(abs(elo - expected[player]) for player, elo in shown)
                moved = len(page[0][0]["others"])
                print(
                    f"    against whr.fit: {len(page[0][0]['rows'])} players of the games and "
                    f"{moved} others moving >= 1 Elo, in {2 * args.repeat} answers: largest "
                    f"difference {differ:.2e} Elo"
                )
                worst, checked = max(worst, differ), checked + len(shown)
            browser.close()
        print(
            f"exactness: {checked} ratings against whr.fit, largest difference {worst:.2e} Elo "
            f"(bound 0.01): {'within' if worst <= 0.01 else 'NOT within'}"
        )
        if worst > 0.01:
            sys.exit(1)


if __name__ == "__main__":
    main()
