"""Benchmark: tuning w2 on a synthetic history, one point after another and on Dask clusters.

For a 120,000-game synthetic history (about the RIF's size) and a grid of six w2 (two virtual
draws), scored by forward chaining (a refit every 91 days per point), prints the time of the
sequential tune (``python -m whr.research.evaluate tune``'s work: load the games, then every grid point
in turn) and of the same work as the Prefect flow ``flows.evaluate.tune`` on a local Dask
cluster of 1, 2 (and, where the machine has more cores, more) worker processes of one thread
each, with the speed-up over the sequential time, and checks that every run chose the same w2
with the same scores to the last digit. Beside each flow, the same points as plain Dask tasks
(no Prefect, no flow): what the cluster alone gives.

The clusters are started, and their workers have imported the flow's modules, before anything
is timed on them (that start-up is printed apart: it is paid once per run with ``--dask
local:N``, never with an existing cluster); the flow's time includes Prefect (a flow run and a
task run per point), loading the games and sending them to the workers, and the report. One
temporary Prefect server serves every flow run (its start-up is printed apart too). On a
machine shared with other jobs, the figures move with their load: the load average is printed.

Usage: python3 benchmarks/bench_evaluate.py [--games 120000] [--w2 3 6 9 12.9 19.3 30]
       [--virtual-games 2] [--protocol forward|quick] [--refit-days 91] [--workers 1 2]
       [--seed 0]
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
    parser.add_argument("--protocol", choices=("forward", "quick"), default="forward")
    parser.add_argument("--refit-days", type=int, default=91)
    cores = os.cpu_count() or 1
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=sorted({1, 2, cores} if cores > 2 else {1, 2}),
        help="local cluster sizes to time (default: 1, 2 and this machine's %(default)s cores)",
    )
    args = parser.parse_args()

    import importlib

    import dask
    import pandas as pd
    from distributed import Client, LocalCluster

    from flows import evaluate as flow_evaluate
    from flows.runners import (
        LOCAL_WORKERS_CONFIG,
        dask_runner,
        local_cluster_kwargs,
        parse_dask,
        prefect_api,
    )
    from whr.research import evaluate as ev

    points = ev.tune_grid(args.w2, args.virtual_games)
    scored = (
        "quick protocol"
        if args.protocol == "quick"
        else f"forward chaining, a refit every {args.refit_days} days"
    )
    print(
        f"tune on a synthetic history of {args.games} games (seed {args.seed}), {len(points)} "
        f"grid points, {scored}; {cores} cores, load average {os.getloadavg()[0]:.2f}"
    )

    t = time.perf_counter()
    games, _, what = ev.load_games(synthetic=args.games, seed=args.seed)
    expect = ev.tune(
        games, args.w2, args.virtual_games, protocol=args.protocol, refit_days=args.refit_days
    )
    sequential = time.perf_counter() - t
    best = expect.loc[expect["best"]].iloc[0]
    print(
        f"sequential (python -m whr.research.evaluate tune):    {sequential:7.2f} s "
        f"({sequential / len(points):.2f} s a point)"
    )

    t = time.perf_counter()
    with prefect_api(parse_dask("local:1")), tempfile.TemporaryDirectory() as out:
        print(f"temporary Prefect server start-up:          {time.perf_counter() - t:7.2f} s")
        print()
        print(
            "| workers | cluster start-up (s) | flow (s) | speed-up | same answer "
            "| plain Dask tasks (s) | speed-up | load average |"
        )
        print("|---:|---:|---:|---:|---|---:|---:|---:|")
        for n in args.workers:
            t = time.perf_counter()
            with (
                dask.config.set(LOCAL_WORKERS_CONFIG),
                LocalCluster(**local_cluster_kwargs(n)) as cluster,
                Client(cluster) as client,
            ):
                client.run(lambda: bool(importlib.import_module("flows.evaluate")))
                started = time.perf_counter() - t

                t = time.perf_counter()
                data = ev.tune_data(games, args.protocol, refit_days=args.refit_days)
                shared = client.scatter(data, broadcast=True)
                rows = client.gather([client.submit(ev.tune_point, shared, p) for p in points])
                plain = time.perf_counter() - t
                del shared

                runner = dask_runner(parse_dask(cluster.scheduler_address))
                t = time.perf_counter()
                table = flow_evaluate.tune.with_options(task_runner=runner)(
                    out=Path(out) / f"dask-{n}",
                    synthetic=args.games,
                    seed=args.seed,
                    w2=args.w2,
                    virtual_games=args.virtual_games,
                    protocol=args.protocol,
                    refit_days=args.refit_days,
                )
                seconds = time.perf_counter() - t
            try:
                pd.testing.assert_frame_equal(table, expect, check_exact=True)
                pd.testing.assert_frame_equal(ev.tune_table(rows), expect, check_exact=True)
                same = "yes"
            except AssertionError:
                same = "NO"
            print(
                f"| {n} | {started:.2f} | {seconds:.2f} | {sequential / seconds:.2f} | {same} "
                f"| {plain:.2f} | {sequential / plain:.2f} | {os.getloadavg()[0]:.2f} |"
            )
    print()
    print(
        f"best: w2 = {best['w2']:g} with {best['virtual_games']} virtual draws, mean "
        f"log-likelihood {best['log_likelihood']:.6f} ({what})"
    )


if __name__ == "__main__":
    main()
