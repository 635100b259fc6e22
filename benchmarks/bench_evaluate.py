"""Benchmark: tuning w2 on a synthetic history, one point after another and on Dask clusters.

For a 120,000-game synthetic history (about the RIF's size) and a grid of six w2 (two virtual
draws), prints the time of the sequential tune (``whr.evaluate``: load the games, then every
grid point in turn) and of the same work as the Prefect flow ``flows.evaluate.tune`` on a local
Dask cluster of 1, 2 (and, where the machine has more cores, more) worker processes of one
thread each, with the speed-up over the sequential time, and checks that every run chose the
same w2 with the same scores to the last digit.

The clusters are started before they are timed (their start-up is printed apart: it is paid
once per run, or never with an existing cluster); the flow's time includes Prefect (a flow run
and a task run per point), sending the games to the workers, and the report. One temporary
Prefect server serves every flow run (its start-up is printed apart too).

Usage: python3 benchmarks/bench_evaluate.py [--games 120000] [--w2 3 6 9 12.9 19.3 30]
       [--virtual-games 2] [--workers 1 2] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

os.environ.setdefault("PREFECT_HOME", tempfile.mkdtemp(prefix="bench-evaluate-prefect-"))
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")  # the figures, not the task log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--w2", type=float, nargs="+", default=[3.0, 6.0, 9.0, 12.9, 19.3, 30.0])
    parser.add_argument("--virtual-games", type=int, nargs="+", default=[2])
    cores = os.cpu_count() or 1
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=sorted({1, 2, cores} if cores > 2 else {1, 2}),
        help="local cluster sizes to time (default: 1, 2 and this machine's %(default)s cores)",
    )
    args = parser.parse_args()

    import pandas as pd
    from distributed import LocalCluster

    from flows import evaluate as flow_evaluate
    from flows.runners import dask_runner, parse_dask, prefect_api
    from whr import evaluate as ev

    points = len(ev.tune_grid(args.w2, args.virtual_games))
    print(
        f"tune on a synthetic history of {args.games} games (seed {args.seed}), {points} grid "
        f"points; {cores} cores, load average {os.getloadavg()[0]:.2f} at the start"
    )

    t = time.perf_counter()
    games, _, what = ev.load_games(synthetic=args.games, seed=args.seed)
    expect = ev.tune(games, args.w2, args.virtual_games)
    sequential = time.perf_counter() - t
    best = expect.loc[expect["best"]].iloc[0]
    print(f"sequential (python -m whr.evaluate tune): {sequential:7.2f} s")

    t = time.perf_counter()
    with prefect_api(parse_dask("local:1")), tempfile.TemporaryDirectory() as out:
        print(f"temporary Prefect server start-up:          {time.perf_counter() - t:7.2f} s")
        print()
        print("| workers | cluster start-up (s) | flow (s) | speed-up | same answer |")
        print("|---:|---:|---:|---:|---|")
        for n in args.workers:
            t = time.perf_counter()
            with LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0"
            ) as cluster:
                started = time.perf_counter() - t
                runner = dask_runner(parse_dask(cluster.scheduler_address))
                t = time.perf_counter()
                table = flow_evaluate.tune.with_options(task_runner=runner)(
                    out=Path(out) / f"dask-{n}",
                    synthetic=args.games,
                    seed=args.seed,
                    w2=args.w2,
                    virtual_games=args.virtual_games,
                )
                seconds = time.perf_counter() - t
            try:
                pd.testing.assert_frame_equal(table, expect, check_exact=True)
                same = "yes"
            except AssertionError:
                same = "NO"
            print(f"| {n} | {started:.2f} | {seconds:.2f} | {sequential / seconds:.2f} | {same} |")
    print()
    print(
        f"best: w2 = {best['w2']:g} with {best['virtual_games']} virtual draws, mean held-out "
        f"log-likelihood {best['log_likelihood']:.6f} ({what})"
    )


if __name__ == "__main__":
    main()
