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

With ``--command``, also times ``rif-rating backfill`` itself (reading a RenjuNet-format
database of the same games, selecting, replaying and writing, under Prefect) in one process and
with ``--dask local:2``. On a machine shared with other jobs the figures move with their load:
the load average is printed.

Usage: python3 benchmarks/bench_backfill.py [--games 120000] [--seed 2026] [--workers 2]
       [--command]
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


def _command(directory: Path, games: int, seed: int, workers: int) -> list[tuple[str, float, str]]:
    """``rif-rating backfill`` on a RenjuNet-format database of the same history."""
    from whr.research.synthetic_db import generate, write_facts, write_renjunet

    db = generate(games, seed)
    source = directory / "db"
    write_renjunet(db, source / "renjunet_v10_20261130.rif")
    write_facts(db, source / "tournament_facts.csv")
    out = []
    for name, extra in (
        ("one process", []),
        (f"--dask local:{workers}", ["--dask", f"local:{workers}"]),
    ):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "flows.daily", "backfill", "--source", str(source)]
            + ["--as-of", "2026-11-30", "--category", "renju", "--out", str(directory / name)]
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

    with tempfile.TemporaryDirectory(prefix="bench-backfill-") as tmp:
        directory = Path(tmp)
        h = synthetic.history(args.games, args.seed)
        h.games.to_parquet(directory / "games.parquet")
        h.tournaments.to_parquet(directory / "tournaments.parquet")
        print(
            f"backfill of a synthetic history: {len(h.games):,} games, {len(h.players):,} players, "
            f"{h.games['tournament_id'].nunique():,} tournaments (seed {args.seed}); load average "
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
            for name, seconds, said in _command(directory, args.games, args.seed, args.workers):
                print(f"  rif-rating backfill, {name}: {seconds:.1f} s: {said}")


if __name__ == "__main__":
    main()
