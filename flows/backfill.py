"""The backfill as a Prefect 3 flow: each list's history replayed day by day, for each
tournament's change at the time (``rif-rating backfill``, :mod:`flows.daily`).

The flow only wires library calls; its one parameter is the backfill (:class:`whr.run.Backfill`),
whose run of day ``as_of`` (:meth:`whr.run.Backfill.run`) reads and selects the games as the
daily flow does, with the daily flow's own tasks:

- ``pull``, ``parse``: :mod:`flows.pipeline`'s tasks;
- per list: ``validate`` (:mod:`flows.pipeline`'s task: the games the list of ``as_of`` rates),
  ``order`` (:func:`whr.lists.at_the_time.timeline`: the games by the day they entered the lists),
  ``replay`` (:func:`whr.lists.at_the_time.replay`, one task per range of days, with the
  record's rows of its lists, :class:`whr.lists.record.Recorder`) and ``write``
  (:func:`whr.publish.replay.write_replay`: ``OUT/archive/<list>/replay/<D>/``, its tables and
  manifest, under the tree's lock for that moment only, so a daily run is never kept waiting
  for long).

Where ``validate`` and ``replay`` run is chosen at run time (:mod:`flows.runners`): in this
process by default, each list replayed in one go; with ``--dask``, on a cluster, each list's
days cut into :data:`RANGES_PER_THREAD` ranges of about equal work per worker thread
(:meth:`whr.lists.at_the_time.Timeline.ranges`), each range a task that starts from a cold fit of
the games entered before it. The games travel to the workers once (:func:`flows.runners.share`).
The table is the same either way, to the fits' convergence tolerance (``FitParams.tol_elo``).

Nothing is persisted or cached by Prefect.
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Quiet, offline defaults, set before Prefect reads its settings; the environment still wins.
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "warning")

import pandas as pd
from prefect import State, flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.states import Completed, Failed
from prefect.task_runners import ThreadPoolTaskRunner

import whr
from flows.pipeline import PULL_GRACE_S, parse, pull, run_flow, said, saying, validate
from flows.runners import DaskTarget, cluster_threads, results, share
from whr.lists import at_the_time, record
from whr.params import FitParams
from whr.publish.backfill import write_replay
from whr.publish.layout import Channel
from whr.run import Backfill

RANGES_PER_THREAD = 2
"""Ranges of days per worker thread of a Dask cluster: a worker that finishes early takes
another, and each range costs one cold fit more."""

FLOW_TIMEOUT_S = 24 * 3600
"""A backfill that takes longer than this is stopped (one at the RIF's size takes minutes; see
docs/operations.md)."""

_TASK: dict[str, Any] = {"persist_result": False, "cache_policy": NO_CACHE}


@task(name="order", task_run_name="order-{category}", **_TASK)
def order(category: str, selection: whr.Selection) -> at_the_time.Timeline:
    """The list's rated games by the day they entered the lists."""
    with saying(f"ordering the {category} games by the day they entered the lists"):
        return at_the_time.timeline(selection.rated, selection.tournaments)


@task(name="replay", task_run_name="replay-{category}-{first}-{last}", **_TASK)
def replay(
    category: str, line: at_the_time.Timeline, params: FitParams, first: dt.date, last: dt.date
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each tournament's change at the time, and the record's rows of the lists (those of the
    December 31 after the last day with games too, up to ``last``), for the days from
    ``first`` to ``last``."""
    logger = get_run_logger()
    lists = record.Recorder(line, through=last)
    with saying(f"replaying the {category} list from {first} to {last}"):
        table = at_the_time.replay(
            line, params, first=first, last=last, log=logger.info, lists=lists
        )
        rows = lists.rows()
    logger.info(
        "%s: %d rows of changes, %d of the record from %s to %s",
        category,
        len(table),
        len(rows),
        first,
        last,
    )
    return table, rows


@task(name="write", task_run_name="write-{category}", **_TASK)
def write(
    job: Backfill,
    category: str,
    tables: tuple[pd.DataFrame, pd.DataFrame],
    parameters: dict[str, Any],
    about: dict[str, Any],
) -> Path:
    """Write the list's replay beside its archive."""
    channel = Channel(category, job.variant)
    with saying(f"writing the {category} replay into {job.out}"):
        return write_replay(
            job.out,
            channel,
            job.as_of,
            *tables,
            parameters,
            input_sha256=about["input_sha256"],
            until=job.last_day,
            about={"days": about["days"], "ranges": about["ranges"]},
            wait=job.wait,
        )


@dataclass
class Outcome:
    """What a backfill did, list by list: ``outcome`` ``written`` or ``failed``, a message."""

    lists: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return bool(self.lists) and all(x["outcome"] == "written" for x in self.lists.values())

    @property
    def lines(self) -> list[str]:
        return [f"{k}: {x['outcome']} {x['message']}" for k, x in self.lists.items()]

    def state(self) -> State:
        """The flow's final state (Failed when a list failed); its data is :attr:`lists`."""
        message = "; ".join(f"{k}: {x['outcome']}" for k, x in self.lists.items())
        if self.ok:
            return Completed(message=message, data={"lists": self.lists})
        return Failed(message=message, data={"lists": self.lists})


@flow(
    name="rif-rating-backfill",
    persist_result=False,
    log_prints=True,
    timeout_seconds=FLOW_TIMEOUT_S,
    # one task at a time here (threads only contend for the interpreter lock); the ignore: a
    # TaskRunner is invariant in its futures type
    task_runner=ThreadPoolTaskRunner(max_workers=1),  # type: ignore[arg-type]
)
def backfill(job: Backfill) -> State:
    """Replay each list's history day by day, for each tournament's change at the time.

    Args:
        job: What is read, the last day replayed and where the tables are written. Each field
            is described in this form and in docs/operations.md (the backfill's options).
    """
    run = job.run()
    run.refuse_stored_secrets()
    rules_sha256 = run.check_local()
    logger = get_run_logger()
    with tempfile.TemporaryDirectory(prefix="rif-rating-pull-") as workdir:
        puller = pull.with_options(timeout_seconds=run.pull.deadline_s + PULL_GRACE_S)
        data = parse(run, [puller(run, s, Path(workdir)) for s in run.sources])
    threads = cluster_threads()
    pieces = 1 if threads == 1 else RANGES_PER_THREAD * threads
    shared = share(data)
    selections = {c: validate.submit(run, c, shared) for c in run.categories}
    done = Outcome()
    started = {}
    for category, selection in selections.items():
        try:
            line = order(category, selection.result())
        except Exception as exc:  # the list fails; the others go on
            done.lists[category] = {"outcome": "failed", "message": said(exc)}
            continue
        ranges = line.ranges(pieces, last=job.last_day)
        if ranges:  # the last range to the last day replayed: its year ends after the last games
            ranges[-1] = (ranges[-1][0], job.last_day)
        days = len(line.span(last=job.last_day))
        logger.info("%s: %d days to replay, in %d ranges", category, days, len(ranges))
        on = share(line)
        futures = [replay.submit(category, on, run.fit, a, b) for a, b in ranges]
        started[category] = (futures, days, len(ranges))
    for category, (futures, days, n) in started.items():
        try:
            parts = results(futures)
            table = at_the_time.combine([p[0] for p in parts])
            rows = record.combine([p[1] for p in parts])
            about = {"input_sha256": data.sha256, "days": days, "ranges": n}
            path = write(
                job, category, (table, rows), run.parameters(category, rules_sha256), about
            )
        except Exception as exc:
            done.lists[category] = {"outcome": "failed", "message": said(exc)}
            logger.error("%s failed: %s", category, said(exc))
            continue
        fits = days + max(0, n - 1)
        done.lists[category] = {
            "outcome": "written",
            "message": f"{path}: {len(table)} rows of changes, {len(rows)} of the record, "
            f"{days} days, {fits} fits",
            "path": str(path),
            "rows": len(table),
            "record_rows": len(rows),
            "days": days,
            "fits": fits,
        }
    return done.state()


def execute(job: Backfill, *, verbose: bool = False, dask: DaskTarget | None = None) -> Outcome:
    """Run the flow for ``job`` and return what it did (the command line's entry).

    ``dask``: replay ranges of days on this Dask cluster (:func:`flows.runners.parse_dask`)
    instead of each list in one go in this process.
    """
    value = run_flow(backfill, job, verbose=verbose, dask=dask)
    if isinstance(value, str):
        return Outcome(lists={"backfill": {"outcome": "failed", "message": value}})
    return Outcome(lists=value["lists"])
