"""Benchmark: the backfill (each tournament's change at the time, replayed day by day) at the
RIF's size, in one process and on a local Dask cluster of two worker processes.

For a synthetic history (``whr.research.synthetic.history``, 120,000 games by default, about the RIF's
size), prints for each way of running it: the wall time of the replay, the fits made (one warm
fit per day on which games entered the lists, and one cold fit more per range after the
first), the days replayed, the rows of the table and the peak resident memory (the process's;
on the cluster, this process's and each worker's), then the largest difference between the two
tables (ratings and uncertainties, Elo) against the stated tolerance, ``FitParams.tol_elo``.

- ``one process``: :func:`whr.lists.at_the_time.replay` over every day, warm from day to day, in a
  fresh interpreter (so its peak memory is its own);
- ``dask local:2``: the days cut into ranges of about equal work
  (:meth:`whr.lists.at_the_time.Timeline.ranges`, 2 per worker, as ``flows.backfill`` does), each
  replayed by a task on the cluster from a cold fit at its start; the timeline is sent to the
  workers once. The cluster's start-up is printed apart (paid once per ``--dask local:N``
  run). No Prefect here: the flow adds a task run per range.

With ``--source DB`` the games are those a database (a RenjuNet file or a source directory, e.g.
the RIF-sized synthetic one) gives the renju list of ``--as-of``, read and selected as the daily
run reads and selects them, instead of a synthetic history.

With ``--daily``, measures instead what the change at the time adds to a daily run of the last
day on which games entered the lists, the previous list being the day before: the lists stage
(``whr.lists.build``) with and without the previous list's games (without them no row is
computed: the daily run of format 4), the read of the previous entry's ``games.parquet`` and the
write of the carried table, against one warm fit of the day (the issue's budget).

With ``--command``, also times ``rif-rating backfill`` itself (reading a RenjuNet-format
database of the same games, selecting, replaying and writing, under Prefect) in one process and
with ``--dask local:2``. On a machine shared with other jobs the figures move with their load:
the load average is printed.

With ``--record``, counts instead the rows of the record (``whr.lists.record``) by the rule that
keeps them, against a row per list and per change of rank, and the size of its file (``--keep
FILE``: the record written there, for ``bench_publish.py --record``).

Usage: python3 benchmarks/bench_backfill.py [--games 120000] [--seed 2026] [--workers 2]
       [--source DB [--as-of 2026-11-30]] [--daily] [--command] [--record]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _worker_peak_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _load(directory: Path) -> tuple[object, object]:
    import pandas as pd

    return pd.read_parquet(directory / "games.parquet"), pd.read_parquet(
        directory / "tournaments.parquet"
    )


def _selected(source: str, as_of: str) -> Any:
    """The renju selection of ``as_of`` from ``source``, as the daily run makes it."""
    import datetime as dt

    import whr
    from whr.rules import default_directory, load_config

    data = whr.read_source(source)
    day = dt.date.fromisoformat(as_of)
    return data, whr.select(data, day, config=load_config(default_directory()))


def daily_cost(source: str, as_of: str) -> None:
    """Print what the change at the time adds to a daily run (``--daily``): the parts of the
    lists stage and of reading and writing that a daily run without it does not do."""
    import datetime as dt

    import whr
    from whr.lists import at_the_time
    from whr.publish.files import read_parquet, write_parquet
    from whr.publish.previous import GAMES_ON_LIST
    from whr.rules import default_directory, load_config
    from whr.tables import HISTORY, RATED_GAMES, TOURNAMENT_CHANGES, conform

    data, whole = _selected(source, as_of)
    line = at_the_time.timeline(whole.rated, whole.tournaments)
    today = line.day(len(line) - 1)
    before = today - dt.timedelta(days=1)
    config = load_config(default_directory())
    selections = [whr.select(data, d, config=config) for d in (before, today)]
    fits = [whr.fit(selections[0].rated)]
    warm = []
    for _ in range(3):
        start = time.perf_counter()
        fits[1:] = [whr.fit(selections[1].rated, warm_start=fits[0])]
        warm.append(time.perf_counter() - start)
    history = conform(fits[0].history, HISTORY)
    # the previous entry's table, as large as a whole history's: a replay's rows up to the day
    # before (the last 40 days replayed, the rows before them taken from a cold table of them)
    start = time.perf_counter()
    kept = at_the_time.replay(line, first=line.day(len(line) - 40), last=before)
    print(f"(replayed the last 40 days in {time.perf_counter() - start:.1f} s)")
    whole = line_rows(line, kept)
    times: dict[str, list[float]] = {"read": [], "daily": [], "carry": [], "write": []}
    with tempfile.TemporaryDirectory(prefix="bench-daily-") as tmp:
        path = Path(tmp) / "games.parquet"
        games = selections[0].rated.assign(
            black_rating=1.0, black_uncertainty=1.0, white_rating=1.0, white_uncertainty=1.0
        )
        write_parquet(games, RATED_GAMES, path, {})
        for _ in range(3):
            start = time.perf_counter()
            previous_games = read_parquet(path, GAMES_ON_LIST)  # as the daily run reads it
            times["read"].append(time.perf_counter() - start)
            start = time.perf_counter()
            rows = at_the_time.daily(
                history, before, previous_games, fits[1], today, selections[1].rated
            )
            times["daily"].append(time.perf_counter() - start)
            start = time.perf_counter()
            table = at_the_time.carry([whole, rows])
            times["carry"].append(time.perf_counter() - start)
            start = time.perf_counter()
            write_parquet(table, TOURNAMENT_CHANGES, Path(tmp) / "t.parquet", {})
            times["write"].append(time.perf_counter() - start)
    best = {k: min(v) for k, v in times.items()}
    print(
        f"daily run of {today} (previous list {before}): {len(selections[1].rated):,} rated "
        f"games, {len(rows):,} new rows, {len(table):,} kept; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        "  added (best of 3): "
        + ", ".join(f"{k} {v:.3f} s" for k, v in best.items())
        + f"; {sum(best.values()):.3f} s in all, against one warm fit of the day "
        f"{min(warm):.3f} s (best of 3)"
    )


def record_rows(games: Any, tournaments: Any, keep: Path | None = None) -> None:
    """Print the rows of the record (``--record``) by the rule that keeps them, against a row
    per list, per change of rank and per change of the whole-Elo rating, counted while the
    history is replayed once in this process (every list of the replay is made, as
    :class:`whr.lists.record.Recorder` makes it), and the size of the record's file."""
    import datetime as dt

    import numpy as np

    from whr.lists import at_the_time, record
    from whr.lists.listing import ranked, status
    from whr.publish.files import parquet_bytes
    from whr.tables import RECORD, STATUSES

    line = at_the_time.timeline(games, tournaments)
    lists = record.Recorder(line)
    n = len(lists._ids)
    seen = np.zeros(n, bool)
    last_games, last_status = np.zeros(n, np.int64), np.zeros(n, np.int64)
    best_rank = np.full(n, np.iinfo(np.int64).max)
    last_rank, last_whole = np.zeros(n, np.int64), np.zeros(n, np.int64)
    counts = dict.fromkeys(
        ("lists", "first", "whole", "games", "status", "best_rank", "year_end", "rank"), 0
    )
    made = lists._list

    def counted(day: int, fit: Any, c: Any) -> None:
        listed = np.flatnonzero(c.games > 0)
        rating, _ = fit.ratings_at(lists._ids[listed], np.full(listed.size, day, "datetime64[D]"))
        on = (np.datetime64("1970-01-01", "D") + np.timedelta64(int(day), "D")).astype(dt.date)
        code = np.searchsorted(  # the statuses' codes: STATUSES is in alphabetical order
            np.array(STATUSES), status(c.games[listed], c.last[listed].astype("datetime64[D]"), on)
        )
        rank = ranked(rating, listed, code == 0)
        old = seen[listed]
        whole = np.rint(rating).astype(np.int64)
        counts["lists"] += listed.size
        counts["first"] += int((~old).sum())
        counts["games"] += int((old & (last_games[listed] != c.games[listed])).sum())
        counts["status"] += int((old & (last_status[listed] != code)).sum())
        counts["best_rank"] += int((old & (rank > 0) & (rank < best_rank[listed])).sum())
        counts["year_end"] += listed.size if (on.month, on.day) == (12, 31) else 0
        counts["rank"] += int((old & (last_rank[listed] != rank)).sum())
        counts["whole"] += int((old & (last_whole[listed] != whole)).sum())
        seen[listed] = True
        last_games[listed], last_status[listed] = c.games[listed], code
        best_rank[listed] = np.minimum(
            best_rank[listed], np.where(rank > 0, rank, best_rank[listed])
        )
        last_rank[listed], last_whole[listed] = rank, whole
        made(day, fit, c)

    lists._list = counted  # type: ignore[method-assign]
    start = time.perf_counter()
    at_the_time.replay(line, lists=lists)
    rows = lists.rows()
    seconds = time.perf_counter() - start
    data, _ = parquet_bytes(rows, RECORD, {})
    print(
        f"record of {len(line):,} days, {rows['player'].nunique():,} players ({seconds:.0f} s): "
        f"{len(rows):,} rows, {len(data) / 1e6:.1f} MB as Parquet; every list holds "
        f"{counts['lists']:,} rows"
    )
    print(
        "  rows by rule (a row may have several): "
        + ", ".join(
            f"{k} {counts[k]:,}"
            for k in ("first", "whole", "games", "status", "best_rank", "year_end")
        )
        + f"; a row per change of rank would be {counts['rank']:,}"
    )
    if keep is not None:
        keep.write_bytes(data)
        print(f"  written to {keep}")


def line_rows(line: Any, recent: Any) -> Any:
    """A table of every row of ``line`` (``recent``'s ratings where it has them, else copies of
    its first row's): the size of a whole history's kept table, to time carrying it."""
    import pandas as pd

    from whr.tables import TOURNAMENT_CHANGES, conform, dates_of

    rows = line.rows
    filler = recent.iloc[[0] * len(rows)].reset_index(drop=True)
    filler["player"] = rows["player"].to_numpy()
    filler["tournament_id"] = rows["tournament_id"].to_numpy()
    filler["first_list_date"] = dates_of(rows["entered"].to_numpy()).to_numpy()
    whole = pd.concat([recent, filler], ignore_index=True)
    whole = whole[~whole.duplicated(["player", "tournament_id"])]
    return conform(
        whole[[d < recent["first_list_date"].max() for d in whole["first_list_date"]]],
        TOURNAMENT_CHANGES,
    )


def one_process(directory: Path) -> dict[str, Any]:
    """The replay in this process (run in a fresh interpreter)."""
    from whr.lists import at_the_time

    games, tournaments = _load(directory)
    start = time.perf_counter()
    line = at_the_time.timeline(games, tournaments)
    ordered = time.perf_counter() - start
    table = at_the_time.replay(line)
    seconds = time.perf_counter() - start
    table.to_parquet(directory / "one.parquet")
    return {
        "seconds": seconds,
        "timeline_seconds": ordered,
        "days": len(line),
        "fits": len(line),
        "rows": len(table),
        "peak_mib": [_peak_mib()],
    }


def _timed(line: Any, first: Any, last: Any) -> tuple[Any, float, int]:
    """A range's replay on a worker, with its time and the worker's pid."""
    import os
    import time

    from whr.lists import at_the_time

    start = time.perf_counter()
    table = at_the_time.replay(line, first=first, last=last)
    return table, time.perf_counter() - start, os.getpid()


def on_dask(directory: Path, workers: int) -> dict[str, Any]:
    """The replay's ranges as tasks on a local cluster (run in a fresh interpreter)."""
    import dask
    from distributed import Client, LocalCluster

    from flows.backfill import RANGES_PER_THREAD
    from flows.runners import LOCAL_WORKERS_CONFIG, local_cluster_kwargs
    from whr.lists import at_the_time

    games, tournaments = _load(directory)
    begin = time.perf_counter()
    with dask.config.set(LOCAL_WORKERS_CONFIG):
        cluster = LocalCluster(**local_cluster_kwargs(workers))  # type: ignore[no-untyped-call]
    client = Client(cluster)  # type: ignore[no-untyped-call]
    client.run(lambda: __import__("whr.lists.at_the_time"))  # the workers have the modules loaded
    started = time.perf_counter() - begin
    start = time.perf_counter()
    line = at_the_time.timeline(games, tournaments)
    ranges = line.ranges(RANGES_PER_THREAD * workers)
    shared = client.scatter(line, broadcast=True, hash=False)  # type: ignore[no-untyped-call]
    futures = [client.submit(_timed, shared, a, b) for a, b in ranges]
    done = client.gather(futures)  # type: ignore[no-untyped-call]
    table = at_the_time.combine([t for t, _, _ in done])
    seconds = time.perf_counter() - start
    peaks = list(client.run(_worker_peak_mib).values())
    client.close()  # type: ignore[no-untyped-call]
    cluster.close()
    table.to_parquet(directory / "dask.parquet")
    return {
        "seconds": seconds,
        "startup_seconds": started,
        "days": len(line),
        "fits": len(line) + len(ranges) - 1,
        "ranges": [
            [a.isoformat(), b.isoformat(), round(t, 1), pid]
            for (a, b), (_, t, pid) in zip(ranges, done, strict=True)
        ],
        "rows": len(table),
        "peak_mib": [_peak_mib(), *peaks],
    }


def _child(mode: str, directory: Path, workers: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--dir", str(directory)]
        + ["--workers", str(workers)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "DASK_LOGGING__DISTRIBUTED": "error"},
    )
    if done.returncode != 0:
        raise SystemExit(f"{mode} failed:\n{done.stderr[-3000:]}")
    said: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return said


def _command(
    directory: Path, games: int, seed: int, workers: int, given: str | None, as_of: str
) -> list[tuple[str, float, str]]:
    """``rif-rating backfill`` on the database ``given``, else on a RenjuNet-format database
    of the same synthetic history."""
    from whr.research.synthetic_db import generate, write_facts, write_renjunet

    if given is None:
        db = generate(games, seed)
        source = directory / "db"
        write_renjunet(db, source / "renjunet_v10_20261130.rif")
        write_facts(db, source / "tournament_facts.csv")
    else:
        source = Path(given)
    out = []
    for name, extra in (
        ("one process", []),
        (f"--dask local:{workers}", ["--dask", f"local:{workers}"]),
    ):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "flows.daily", "backfill", "--source", str(source)]
            + ["--as-of", as_of, "--category", "renju", "--out", str(directory / name)]
            + extra,
            capture_output=True,
            text=True,
            check=False,
            cwd=REPO,
            env={**os.environ, "PREFECT_LOGGING_LEVEL": "WARNING"},
        )
        seconds = time.perf_counter() - start
        said = (done.stdout.strip().splitlines() or ["?"])[-1]
        if done.returncode != 0:
            said = f"FAILED ({done.returncode}): {done.stderr[-500:]}"
        out.append((name, seconds, said))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--command", action="store_true", help="also time rif-rating backfill")
    parser.add_argument("--source", help="a database to read and select instead of a synthetic one")
    parser.add_argument("--as-of", default="2026-11-30", help="the list day (with --source)")
    parser.add_argument("--daily", action="store_true", help="the daily run's added cost instead")
    parser.add_argument(
        "--record", action="store_true", help="the record's rows by rule and its size instead"
    )
    parser.add_argument("--keep", type=Path, help="with --record: write the record there")
    parser.add_argument("--child", choices=("one", "dask"), help=argparse.SUPPRESS)
    parser.add_argument("--dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "one":
        print(json.dumps(one_process(args.dir)))
        return
    if args.child == "dask":
        print(json.dumps(on_dask(args.dir, args.workers)))
        return

    import numpy as np
    import pandas as pd

    from whr.params import FitParams
    from whr.research import synthetic

    if args.daily:
        if args.source is None:
            parser.error("--daily needs --source")
        daily_cost(args.source, args.as_of)
        return
    if args.record:
        h = synthetic.history(args.games, args.seed)
        record_rows(h.games, h.tournaments, args.keep)
        return
    with tempfile.TemporaryDirectory(prefix="bench-backfill-") as tmp:
        directory = Path(tmp)
        if args.source is None:
            h = synthetic.history(args.games, args.seed)
            games, tournaments = h.games, h.tournaments
            what = f"a synthetic history (seed {args.seed})"
        else:
            _, selection = _selected(args.source, args.as_of)
            games, tournaments = selection.rated, selection.tournaments
            what = f"{args.source}, the renju list of {args.as_of}"
        games.to_parquet(directory / "games.parquet")
        tournaments.to_parquet(directory / "tournaments.parquet")
        players = len(set(games["black"]) | set(games["white"]))
        print(
            f"backfill of {what}: {len(games):,} games, {players:,} players, "
            f"{games['tournament_id'].nunique():,} tournaments; load average "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
        one = _child("one", directory, args.workers)
        print(
            f"  one process:   {one['seconds']:7.1f} s  ({one['timeline_seconds']:.2f} s ordering "
            f"the games)  {one['fits']:,} fits  {one['days']:,} days  {one['rows']:,} rows  "
            f"peak {one['peak_mib'][0]:.0f} MiB"
        )
        on = _child("dask", directory, args.workers)
        peaks = ", ".join(f"{p:.0f}" for p in on["peak_mib"][1:])
        print(
            f"  dask local:{args.workers}:  {on['seconds']:7.1f} s  (cluster start "
            f"{on['startup_seconds']:.1f} s apart)  {on['fits']:,} fits  {on['days']:,} days  "
            f"{on['rows']:,} rows  peak {on['peak_mib'][0]:.0f} MiB here, workers {peaks} MiB; "
            f"speed-up {one['seconds'] / on['seconds']:.2f}x"
        )
        print(
            "  ranges (days, seconds on its worker, worker): "
            + ", ".join(f"{a}..{b} {t} s {pid}" for a, b, t, pid in on["ranges"])
        )
        a = pd.read_parquet(directory / "one.parquet")
        b = pd.read_parquet(directory / "dask.parquet")
        same = a[["player", "tournament_id", "first_list_date"]].equals(
            b[["player", "tournament_id", "first_list_date"]]
        )
        worst = {
            c: float(np.nanmax(np.abs(a[c] - b[c]), initial=0.0))
            for c in ("rating_before", "rating_after", "uncertainty_before", "uncertainty_after")
        }
        tol = FitParams().tol_elo
        print(
            f"  the two tables: same rows {same}; largest difference "
            + ", ".join(f"{c} {v:.1e}" for c, v in worst.items())
            + f" Elo (tolerance {tol} Elo)"
        )
        if args.command:
            for name, seconds, said in _command(
                directory, args.games, args.seed, args.workers, args.source, args.as_of
            ):
                print(f"  rif-rating backfill, {name}: {seconds:.1f} s: {said}")


if __name__ == "__main__":
    main()
