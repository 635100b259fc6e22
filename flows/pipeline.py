"""The daily rating job as a Prefect 3 flow: repair, pull, parse, then per list validate, rate, publish.

The flow only wires library calls; each task is one. The run is one value, the flow's one
parameter (:class:`whr.run.Run`, validated once, by Prefect): the command line
(:mod:`flows.daily`) and the deployment (``prefect.yaml``) both give a run. The tasks of a list
are named after it (``validate-renju``, ``rate-gomoku``, ``publish-renju``).

- ``repair``: :func:`whr.publish.check_and_repair` checks the tree against its ledger once
  and finishes what a killed run left; the tree as found goes to each list's ``lists`` and
  ``publish``, so the archive is read once per run.
- ``pull``: the only task that retries, and the library retries, not Prefect: it knows which
  failures are transient (timeouts, broken connections, HTTP 408/429/5xx) and which are final
  (404, a size cap), so the two never stack.
- ``parse``: :func:`whr.read_source` over every pulled source.
- per category (renju, gomoku), concurrently: ``validate`` (:func:`whr.select`), ``rate``
  (:func:`whr.fit`), ``lists`` (:func:`whr.lists.build`: what is on the list, against the
  previous published one), ``publish`` (:func:`whr.publish.publish`). A list whose input and
  parameters equal those of its published day ends as "No new data" before any work. A list
  that fails is reported and publishes nothing; the others still publish.

Where ``validate`` and ``rate`` run is chosen at run time (:mod:`flows.runners`): threads of
this process by default, a Dask cluster with ``--dask`` (the parsed data are sent to its workers
once). ``lists`` and ``publish`` always run here, in threads of this process: they read and
write the published tree, whose lock this process holds, and the tree is this machine's.

Nothing is persisted or cached by Prefect: a daily job must never reuse yesterday's result.
With no Prefect server configured, Prefect starts a temporary local API for the run.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Quiet, offline defaults, set before Prefect reads its settings; the environment still wins.
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
# A loaded 2-core CI machine can need more than Prefect's default 20 s to start the temporary API.
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
# Dask's workers and scheduler (--dask) log every connection at INFO; warnings still show.
os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "warning")


from prefect import Flow, State, flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.states import Completed, Failed
from prefect.task_runners import ThreadPoolTaskRunner

import whr
import whr.lists
import whr.publish
from flows.runners import DaskTarget, TemporaryServer, dask_runner, one_heap, prefect_api, share
from whr.params import is_url, public_source, resolve_source
from whr.publish.summary import markdown_text, summarize, value_counts
from whr.run import Run, today_utc

FLOW_TIMEOUT_S = 4 * 3600
"""A run that takes longer than this is stopped (a healthy one takes minutes)."""
STEP_TIMEOUT_S = 3600
"""Repairing or parsing for longer than this is a failure. The tasks of each list (validate,
rate, lists, publish) run in worker threads, which Prefect cannot interrupt: the flow's timeout bounds
them."""

PULL_GRACE_S = 60.0
"""A pull task is stopped this long after its deadline (``pull_deadline_s``, which covers the
whole pull: every attempt and the waits between them), should the library's own stop fail."""

_TASK: dict[str, Any] = {"persist_result": False, "cache_policy": NO_CACHE}


one_heap()  # here too: a deployment's run does not start at flows.daily.main


# ----------------------------------------------------------------------------------------------
# Tasks: one library call each.


@contextmanager
def saying(what: str) -> Iterator[None]:
    """Re-raise the machine's own failures inside the block saying what was being done.

    A ``MemoryError`` has no message at all ("MemoryError: "), and an ``OSError`` may name no
    file (a full disk while writing a table through a library); the step and the list are
    then the only clue. The exception keeps its type and its cause.
    """
    try:
        yield
    except MemoryError as exc:
        raise MemoryError(
            f"out of memory while {what}"
            + (f" ({exc})" if str(exc) else "")
            + "; give the run more memory, or see docs/operations.md, Size (--max-players)"
        ) from exc
    except OSError as exc:
        if exc.errno is None:
            raise
        try:
            again = type(exc)(exc.errno, f"{exc.strerror} while {what}", exc.filename)
        except Exception:  # an OSError subclass with another constructor: as it is
            raise exc from None
        raise again from exc


@task(name="repair", timeout_seconds=STEP_TIMEOUT_S, **_TASK)
def repair(run: Run) -> whr.publish.Tree:
    """Check the published tree against its ledger once, and finish what a killed run left;
    the tree as found is handed to each list's ``lists`` and ``publish`` (what was found and
    done is logged, each line led by ``repaired:``, ``damaged:``, ...)."""
    with saying(f"checking {run.out}"):
        tree = whr.publish.check_and_repair(run.out, wait=run.wait)
    for line in tree.said:
        get_run_logger().warning("%s", line)
    return tree


@task(name="pull", **_TASK)
def pull(run: Run, source: str, workdir: Path) -> Path:
    """Fetch one source into ``workdir`` (a local path is used in place).

    The source is logged in its public form (no credentials, no query string), and so is each
    failed attempt that is retried.
    """
    from whr.sources import pull as pull_source

    logger = get_run_logger()
    shown = public_source(source)
    logger.info(
        "pulling %s (timeout %s s, deadline %s s, %d retries)",
        shown,
        run.pull.timeout_s,
        run.pull.deadline_s,
        run.pull.retries,
    )
    with saying(f"pulling {shown}"):
        path = pull_source(source, workdir, run.as_of, run.pull, report=logger.warning)
    logger.info("pulled %s -> %s", shown, path)
    return Path(path)


@task(name="parse", timeout_seconds=STEP_TIMEOUT_S, **_TASK)
def parse(run: Run, paths: list[Path]) -> whr.SourceData:
    """Read every pulled file into the shared tables (several sources are read together)."""
    names = [
        public_source(source) if is_url(resolve_source(source)) else None for source in run.sources
    ]
    with saying("reading the sources"):
        data = whr.read_source(paths, as_of=run.as_of, limits=run.limits, name=names)
    logger = get_run_logger()
    logger.info(
        "read %d games, %d players, %d tournaments; %d problems; sha256 %s",
        len(data.games),
        len(data.players),
        len(data.tournaments),
        len(data.problems),
        data.sha256,
    )
    for (severity, code), n in value_counts(data.problems, ["severity", "code"]).items():
        logger.warning("%d problems %s/%s", n, severity, code)
    return data


@task(name="validate", task_run_name="validate-{category}", **_TASK)
def validate(run: Run, category: str, data: whr.SourceData) -> whr.Selection:
    """Decide which games of ``category`` are rated; every other game gets a reason."""
    from whr.rules import load_config

    with saying(f"selecting the {category} games to rate"):
        config = load_config(run.rules_directory)
        selection = whr.select(data, run.as_of, category=category, strict=run.strict, config=config)
    logger = get_run_logger()
    logger.info(
        "%s: %d games rated, %d excluded", category, len(selection.rated), len(selection.exclusions)
    )
    for code, n in value_counts(selection.warnings, ["code"]).items():
        logger.warning("%s: %d eligibility warnings %s", category, n, code)
    return selection


@task(name="rate", task_run_name="rate-{category}", **_TASK)
def rate(run: Run, category: str, selection: whr.Selection) -> whr.Fit:
    """Fit Whole-History Rating over every rated game of one list."""
    with saying(f"rating {len(selection.rated):,} games"):
        fit = whr.fit(selection.rated, run.fit)
    get_run_logger().info(
        "fit: %d games, %d iterations, %d player-days",
        fit.n_games,
        fit.iterations,
        fit.n_player_days,
    )
    return fit


@task(name="lists", task_run_name="lists-{category}", **_TASK)
def lists(
    run: Run,
    category: str,
    data: whr.SourceData,
    selection: whr.Selection,
    fit: whr.Fit,
    tree: whr.publish.Tree,
) -> whr.lists.Snapshot:
    """What is on the list of ``category``: every table its day publishes, measured against
    the previous published list of its kind (a list too big is refused before anything)."""
    with saying(f"building the {category} lists of {run.as_of}"):
        whr.publish.check_size(selection.rated, run.max_players)
        whr.publish.check_dated(run.as_of, data.dated, run.as_of_given, today_utc())
        before = whr.publish.previous(run, category, tree)
        snapshot = whr.lists.build(data, selection, fit, before)
    get_run_logger().info(
        "%s: %d players listed, %d year-end lists",
        category,
        snapshot.counts.listed,
        snapshot.counts.year_end_lists,
    )
    return snapshot


@task(name="publish", task_run_name="publish-{snapshot.category}", **_TASK)
def publish(
    run: Run, snapshot: whr.lists.Snapshot, rules_sha256: str, tree: whr.publish.Tree
) -> whr.publish.Published:
    """Publish one list: the day's archive entry and ledger line, and the current site when it
    is the newest."""
    category = snapshot.category
    with saying(f"publishing the {category} list of {run.as_of} into {run.out}"):
        published = whr.publish.publish(run, snapshot, rules_sha256=rules_sha256, tree=tree)
    logger = get_run_logger()
    for line in published.warnings:
        logger.warning("%s: %s", category, line)
    logger.info("published %s", published.entry)
    return published


# ----------------------------------------------------------------------------------------------
# Reporting: the summary text is the library's (whr.publish.summary); this only delivers it.


def _report(markdown: str) -> None:
    """Publish markdown as a Prefect artifact and, on GitHub Actions, as the step summary."""
    create_markdown_artifact(markdown, key="rating-run-summary", description="Daily rating run")
    _step_summary(markdown)


def _step_summary(markdown: str) -> None:
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as handle:
            handle.write(markdown + "\n")


def _on_end(title: str) -> Any:
    def hook(flow: Any, flow_run: Any, state: State) -> None:
        _step_summary(
            f"# Rating run {title}\n\n{markdown_text(state.message)}\n\n"
            "Every list is either published whole or left as it was; the next run repairs "
            "what this one left.\n"
        )

    return hook


# ----------------------------------------------------------------------------------------------
# The flow.


@dataclass
class Outcome:
    """What a run did, list by list."""

    lists: dict[str, dict[str, Any]] = field(default_factory=dict)
    repaired: list[str] = field(default_factory=list)

    @property
    def outcome(self) -> str:
        kinds = {x["outcome"] for x in self.lists.values()}
        if "failed" in kinds:
            return "partial" if "published" in kinds else "failed"
        return "published" if "published" in kinds else "no-new-data"

    @property
    def published(self) -> list[str]:
        return [k for k, x in self.lists.items() if x["outcome"] == "published"]

    def state(self) -> State:
        """The flow's final state: Failed when a list failed, else Completed (named "No new
        data" when nothing was published); its data is what :func:`execute` reads back."""
        data = {"lists": self.lists, "repaired": self.repaired, "outcome": self.outcome}
        message = "; ".join(f"{k}: {x['outcome']}" for k, x in self.lists.items())
        if self.outcome in ("failed", "partial"):
            return Failed(message=message, data=data)
        name = "No new data" if self.outcome == "no-new-data" else "Completed"
        return Completed(name=name, message=message, data=data)

    @property
    def lines(self) -> list[str]:
        return self.repaired + [
            f"{k}: {x['message']}"
            if x["outcome"] != "published"
            else f"{k}: published {x['message']}"
            for k, x in self.lists.items()
        ]


@flow(
    name="rif-rating-daily",
    persist_result=False,
    log_prints=True,
    timeout_seconds=FLOW_TIMEOUT_S,
    on_failure=[_on_end("failed")],
    on_crashed=[_on_end("crashed")],
    on_cancellation=[_on_end("cancelled")],
)
def daily(run: Run) -> State:
    """Compute and publish the Renju rating lists as of a date (the final state:
    :meth:`Outcome.state`).

    Args:
        run: What is read, the list date, what is computed and how it is published. Each
            field is described in this form and in docs/operations.md (the option table);
            Prefect checks the run with its own checks before the flow starts.
    """
    run.refuse_stored_secrets()
    rules_sha256 = run.check_local()
    logger = get_run_logger()
    logger.info(
        "rating lists %s as of %s from %s",
        list(run.categories),
        run.as_of,
        [public_source(s) for s in run.sources],
    )
    result = Outcome()
    with whr.publish.hold(run.out, wait=run.wait), ThreadPoolTaskRunner[Any]() as here:
        tree = repair(run)
        result.repaired = tree.said
        with tempfile.TemporaryDirectory(prefix="rif-rating-pull-") as workdir:
            # the library keeps each pull to its deadline; Prefect's timeout only backs it up
            puller = pull.with_options(timeout_seconds=run.pull.deadline_s + PULL_GRACE_S)
            data = parse(run, [puller(run, s, Path(workdir)) for s in run.sources])
        futures = {}
        shared = share(data)  # to a Dask cluster's workers once, not once per list
        skipped = whr.publish.absent(run, data)
        for category in run.categories:
            if category in skipped:
                result.lists[category] = {"outcome": "no-new-data", "message": skipped[category]}
                continue
            same = whr.publish.unchanged(run, category, data.sha256, rules_sha256, tree)
            if same is not None and run.force is None:
                message = (
                    f"no new data: the input (sha256 {data.sha256[:12]}...) and the parameters "
                    f"equal those of the published list of {run.as_of}; give --force REASON "
                    "to publish it again"
                )
                result.lists[category] = {"outcome": "no-new-data", "message": message}
                continue
            selection = validate.submit(run, category, shared)
            # a future as an argument is resolved by Prefect; its types do not say so
            fitted = rate.submit(run, category, selection)  # type: ignore[call-overload]
            # here, not on the flow's task runner: this process holds the published tree's lock
            snapshot = here.submit(
                lists,
                {
                    "run": run,
                    "category": category,
                    "data": data,
                    "selection": selection,
                    "fit": fitted,
                    "tree": tree,
                },
            )
            published = here.submit(
                publish,
                {"run": run, "snapshot": snapshot, "rules_sha256": rules_sha256, "tree": tree},
            )
            futures[category] = (selection, [selection, fitted, snapshot, published])
        for category, (selection, chain) in futures.items():
            future = chain[-1]
            future.wait()
            if future.state.is_completed():
                published = future.result()
                result.lists[category] = {
                    "outcome": "published",
                    "message": f"{published.entry}"
                    + (f", shown at {published.site}" if published.site else " (a past day)"),
                    "entry": str(published.entry),
                }
                _report(summarize(data, selection.result(), published))
            else:
                error = _cause(chain)
                result.lists[category] = {"outcome": "failed", "message": error}
                _step_summary(f"# {category}: failed\n\n{markdown_text(error)}\n")
                logger.error("%s failed: %s", category, error)
    return result.state()


def _cause(chain: list[Any]) -> str:
    """The one-line cause of a failed list: the failure of the first task of its chain
    (validate, rate, lists, publish) that did not complete; the tasks after it never ran,
    and their state says only that."""
    for future in chain:
        future.wait()
        if future.state.is_completed():
            continue
        try:
            value = future.result(raise_on_failure=True)
        except BaseException as exc:  # the task's own exception
            return said(exc)
        return f"did not complete: {value!r}"
    return "did not complete"


def said(cause: object) -> str:
    """What a failure says: its message, or its kind when it has none."""
    return str(cause) or f"{type(cause).__name__} (without a message)"


def run_flow(
    chosen: Flow[..., State],
    argument: object,
    *,
    verbose: bool,
    dask: DaskTarget | None,
    server: TemporaryServer | None = None,
) -> dict[str, Any] | str:
    """Run ``chosen(argument)`` (its tasks on ``dask`` when given) under the Prefect API the
    command line uses (``server``: the temporary one it started early, see
    :func:`flows.runners.prefect_api`); its data when it returned some, else what its failure
    said."""
    if not verbose:
        hide_tracebacks()
    with prefect_api(dask, server):
        if dask is not None:
            chosen = chosen.with_options(task_runner=dask_runner(dask))
        state = chosen(argument, return_state=True)
    value = state.result(raise_on_failure=False)
    if isinstance(value, dict) and "lists" in value:
        return value
    return said(value if isinstance(value, BaseException) else state.message)


# ----------------------------------------------------------------------------------------------
# From the command line.


class _NoTraceback(logging.Formatter):
    """A formatter that shows a record's message without its traceback."""

    def __init__(self, inner: logging.Formatter | None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        quiet = logging.makeLogRecord({**record.__dict__, "exc_info": None, "exc_text": None})
        return self.inner.format(quiet)


def hide_tracebacks() -> None:
    """Console log lines without tracebacks (``--verbose`` keeps them)."""
    for logger in (logging.getLogger(), logging.getLogger("prefect")):
        for handler in logger.handlers:
            if isinstance(handler, logging.StreamHandler) and not isinstance(
                handler, logging.FileHandler
            ):
                handler.setFormatter(_NoTraceback(handler.formatter))


def execute(
    run: Run,
    *,
    verbose: bool = False,
    dask: DaskTarget | None = None,
    server: TemporaryServer | None = None,
) -> Outcome:
    """Run the flow for ``run`` and return what it did (the command line's entry).

    ``dask``: validate and rate each list on this Dask cluster (:func:`flows.runners.parse_dask`)
    instead of in threads of this process; the lists are the same. ``server``: Prefect's
    temporary server, started early (:func:`flows.runners.temporary_server`).
    """
    value = run_flow(daily, run, verbose=verbose, dask=dask, server=server)
    if isinstance(value, str):
        return Outcome(lists={"run": {"outcome": "failed", "message": value}})
    return Outcome(lists=value["lists"], repaired=value["repaired"])
