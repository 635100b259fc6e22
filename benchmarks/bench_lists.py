"""Time of the rating lists at RIF size: the parts of ``whr.lists.build`` (the lists stage).

Builds the synthetic history of ``benchmarks/bench_publish.py`` (``--games`` games from 1989),
selects and fits it, then times, each ``--repeat`` times after one call to warm up:
``lists.rated_games``, ``lists.player_games``, ``lists.list_on``, ``lists.year_end_lists``,
``changes.since_each`` and the whole ``whr.lists.build``; prints the best and
the median of each (the best is the figure to compare on a machine shared with other work).

    python3 benchmarks/bench_lists.py [--games 120000] [--seed 0] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "publish"))

import support  # test helper: a synthetic history as SourceData

import whr
from whr import lists
from whr.lists import changes
from whr.rules import default_directory, load_config


def timed(name: str, call: Callable[[], object], repeat: int) -> None:
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    print(f"{name:>15}: best {min(times):.3f} s, median {statistics.median(times):.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    data = support.source_data(args.games, seed=args.seed, first_year=1989)
    as_of = max(data.games["date"])
    selection = whr.select(data, as_of, config=load_config(default_directory()))
    fit = whr.fit(selection.rated, whr.FitParams(w2_elo2_per_day=12.9, virtual_games=2))
    snapshot = lists.build(data, selection, fit)
    history, games, players = (
        snapshot.tables.history,
        snapshot.tables.games,
        snapshot.tables.players,
    )
    pg = lists.player_games(games)
    year_end = lists.year_end_lists(as_of, history, pg, players, fit.rating_on)
    print(
        f"{len(selection.rated):,} rated games, {len(players):,} players, "
        f"{len(year_end)} year-end lists"
    )

    r = args.repeat
    timed("rated_games", lambda: lists.rated_games(selection.rated, history), r)
    timed("player_games", lambda: lists.player_games(games), r)
    timed("list_on", lambda: lists.list_on(as_of, history, pg, players, fit.rating_on), r)
    timed(
        "year_end_lists",
        lambda: lists.year_end_lists(as_of, history, pg, players, fit.rating_on),
        r,
    )
    timed("since_each", lambda: changes.since_each(year_end), r)
    timed("build", lambda: lists.build(data, selection, fit), r)


if __name__ == "__main__":
    main()
