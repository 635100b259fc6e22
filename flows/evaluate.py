"""The evaluation as Prefect flows: every grid point, and every system compared, is a task.

``python -m flows.evaluate`` takes ``python -m whr.research.evaluate``'s options and ``--dask``::

    python -m flows.evaluate tune --synthetic 120000 --out REPORT_DIR --dask local:2
    python -m flows.evaluate compare --source S --as-of D --out REPORT_DIR --dask tcp://host:8786

and writes the same report. Each grid point (:func:`whr.research.evaluate.tune_point`) and each system
under each protocol (:func:`whr.research.evaluate.score_system`) is one task; the tasks compute what the
sequential command line computes, so the scores are the same to the last digit.

- Where the tasks run is chosen at run time (:mod:`flows.runners`): by default in this process,
  one at a time (threads would only contend for Python's interpreter lock: four grid points of a
  120,000-game history took 3.4 s on two threads against 2.6 s one after another); with
  ``--dask`` on a Dask cluster, one task per worker at a time.
- The games travel to the workers once: the flow prepares what every point reads
  (:func:`whr.research.evaluate.tune_data`: the quick protocol's split, or the cleaned games for forward
  chaining; for ``compare``, the games) and scatters it to every worker; the tasks receive it
  from there.
- A task that raises is retried (:data:`RETRIES` times) on its own; a worker that dies takes only
  its running task with it, which Dask runs again elsewhere. Each finished point's result is
  taken into this process and released from the cluster at once, so no finished point is ever
  computed again.

Nothing is persisted or cached by Prefect: the report is the result.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

# Quiet, offline defaults, set before Prefect reads its settings; the environment still wins.
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
# Dask's workers and scheduler log every connection at INFO; warnings and errors still show.
os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "warning")

import pandas as pd
from prefect import Flow, flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.futures import PrefectFuture
from prefect.task_runners import TaskRunner, ThreadPoolTaskRunner

from flows.runners import dask_argument, dask_runner, prefect_api, results, share
from whr.research import evaluate as ev

RETRIES = 2
"""Further attempts of a grid point or a system that raised (a worker lost is Dask's to rerun)."""

_TASK: dict[str, Any] = {"persist_result": False, "cache_policy": NO_CACHE}
_POINT: dict[str, Any] = {"retries": RETRIES, "retry_delay_seconds": 1, **_TASK}


@task(name="load", **_TASK)
def load(
    source: str | None, synthetic: int | None, seed: int, as_of: dt.date | None
) -> tuple[pd.DataFrame, pd.DataFrame | None, str]:
    """The games, and what they are (:func:`whr.research.evaluate.load_games`)."""
    return ev.load_games(source=source, synthetic=synthetic, seed=seed, as_of=as_of)


@task(name="tune-point", **_POINT)
def tune_point(data: ev.TuneData, point: ev.GridPoint, virtual_rating: float) -> dict[str, Any]:
    """Scores of WHR at one grid point (:func:`whr.research.evaluate.tune_point`)."""
    return ev.tune_point(data, point, virtual_rating=virtual_rating, log=get_run_logger().info)


@task(name="score-system", **_POINT)
def score_system(games: pd.DataFrame, system: ev.System, protocol: str) -> dict[str, Any]:
    """One system under one protocol (:func:`whr.research.evaluate.score_system`)."""
    return ev.score_system(games, system, protocol, log=get_run_logger().info)


# one task at a time; a flow takes any task runner, though its types name one kind (as Prefect's
# own flows.py casts it)
_LOCAL = cast("TaskRunner[PrefectFuture[Any]]", ThreadPoolTaskRunner(max_workers=1))


@flow(name="rif-rating-tune", persist_result=False, task_runner=_LOCAL)
def tune(
    out: Path,
    source: str | None = None,
    synthetic: int | None = None,
    seed: int = 0,
    as_of: dt.date | None = None,
    w2: list[float] = list(ev.TUNE_W2),  # noqa: B006 (Prefect copies parameters)
    virtual_games: list[int | float] = list(ev.TUNE_VIRTUAL_GAMES),  # noqa: B006
    protocol: str = "quick",
    refit_days: int = 91,
    virtual_rating: float = 1900.0,
) -> pd.DataFrame:
    """Tune w2 and the virtual draws by log-likelihood on games the fits have not seen.

    Args:
        out: Report directory (report.md, scores.csv, w2.svg).
        source: Games source (read and selected as of ``as_of``); or give ``synthetic``.
        synthetic: Number of games of a synthetic history.
        seed: Seed of the synthetic history.
        as_of: Later games are left out (required with ``source``).
        w2: Grid of the Wiener variance, Elo^2 per day.
        virtual_games: Grid of virtual draws on each player's first day.
        protocol: "quick" (every 10th game held out, one fit per point) or "forward"
            (forward chaining, a refit every ``refit_days`` per point).
        refit_days: Forward chaining's stride between WHR refits, days.
        virtual_rating: Rating of the virtual opponent, Elo.

    Returns:
        The table of :func:`whr.research.evaluate.tune`, one row per grid point.
    """
    points = ev.tune_grid(w2, virtual_games)
    games, _, what = load(source, synthetic, seed, as_of)
    data = share(ev.tune_data(games, protocol, refit_days=refit_days))
    rows = results([tune_point.submit(data, p, virtual_rating) for p in points])
    table = ev.tune_table(rows)
    report = ev.tune_report(Path(out), table, what, protocol=protocol, refit_days=refit_days)
    get_run_logger().info("report: %s", report)
    return table


@flow(name="rif-rating-compare", persist_result=False, task_runner=_LOCAL)
def compare(
    out: Path,
    source: str | None = None,
    synthetic: int | None = None,
    seed: int = 0,
    as_of: dt.date | None = None,
    w2: list[float] = list(ev.DEFAULT_W2),  # noqa: B006 (Prefect copies parameters)
    virtual_games: int | float = 2,
    refit_days: int = 91,
    protocols: list[str] = list(ev.PROTOCOLS),  # noqa: B006
) -> pd.DataFrame:
    """Score WHR, the Elo-era rules and the baselines on games they have not seen.

    Args:
        out: Report directory (report.md, scores.csv, w2.svg).
        source: Games source (read and selected as of ``as_of``); or give ``synthetic``.
        synthetic: Number of games of a synthetic history.
        seed: Seed of the synthetic history.
        as_of: Later games are left out (required with ``source``).
        w2: WHR's Wiener variances to score, Elo^2 per day.
        virtual_games: WHR's virtual draws on each player's first day.
        refit_days: Forward chaining's stride between WHR refits, days.
        protocols: "forward" (forward chaining) and/or "quick" (every 10th game held out).

    Returns:
        The table of :func:`whr.research.evaluate.compare`, one row per system and protocol.
    """
    for protocol in protocols:
        if protocol not in ev.PROTOCOLS:
            raise ValueError(f"protocols must be 'forward' or 'quick', got {protocol!r}")
    games, truth, what = load(source, synthetic, seed, as_of)
    systems, notes = ev.compare_systems(w2, virtual_games, refit_days=refit_days, truth=truth)
    shared = share(games)
    futures = [score_system.submit(shared, s, p) for p in protocols for s in systems]
    table = pd.DataFrame(results(futures))
    report = ev.compare_report(
        Path(out),
        table,
        what=what,
        games=len(ev.clean(games)),
        notes=notes,
        protocols=protocols,
        refit_days=refit_days,
    )
    get_run_logger().info("report: %s", report)
    return table


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m flows.evaluate``: the options of ``python -m whr.research.evaluate`` and ``--dask``.

    Returns the exit status: 0 when the report was written, 1 when the flow failed.
    """
    ap = ev.parser("python -m flows.evaluate")
    ap.add_argument(
        "--dask",
        type=dask_argument,
        default=None,
        metavar="ADDRESS",
        help="run the tasks on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://host:8786), or on a cluster of N worker processes started on this machine "
        "for the run (local:N); default: in this process, one task at a time",
    )
    args = ev.parse_args(ap, argv)
    protocols = list(ev.protocols_of(args))
    common = {
        "out": args.out,
        "source": args.source,
        "synthetic": args.synthetic,
        "seed": args.seed,
        "as_of": args.as_of,
    }
    chosen: Flow[..., pd.DataFrame]
    if args.mode == "tune":
        chosen = tune
        params = common | {
            "w2": args.w2 or list(ev.TUNE_W2),
            "virtual_games": args.virtual_games or list(ev.TUNE_VIRTUAL_GAMES),
            "protocol": protocols[0],
            "refit_days": args.refit_days,
        }
    else:
        chosen = compare
        params = common | {
            "w2": args.w2 or list(ev.DEFAULT_W2),
            "virtual_games": (args.virtual_games or [2])[0],
            "refit_days": args.refit_days,
            "protocols": protocols,
        }
    with prefect_api(args.dask):
        if args.dask is not None:
            chosen = chosen.with_options(task_runner=dask_runner(args.dask))
        state = chosen(**params, return_state=True)
    if not state.is_completed():
        print(f"python -m flows.evaluate: failed: {state.message}", file=sys.stderr)
        return 1
    print(args.out / "report.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
