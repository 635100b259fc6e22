"""The daily rating job: pull -> parse -> validate -> rate -> publish, as one Prefect 3 flow.

Every task is one call into the library (``whr``); this module only wires them, logs, and
delivers the run summary. Everything it does can be done by calling the library: the snapshot
look-ups are ``whr.publish.snapshots``, the summary ``whr.publish.summary.summarize``, the digest
of the rules ``whr.rules.config_digest``. Only ``pull`` retries, with exponential backoff, and it is the library's
``whr.sources.pull`` that retries, not Prefect: the library knows which failures are transient
(timeouts, broken connections, HTTP 408/429/5xx) and which are final (404, size cap), so a
missing file fails at once instead of being fetched again and again. The task itself has no
Prefect retries, so the two never stack. Nothing is persisted or cached by Prefect: a daily job
must never reuse yesterday's result.

When the input's sha256 and the parameters (as-of date, category, ``w2``, virtual games, strict)
equal those recorded in the manifest of the published snapshot of the same as-of date (for the
daily run: the latest one), the run ends early in a Completed state named ``No new data``
(unless ``force``), and nothing is written.

Run it from the command line (``python -m flows.daily --help`` or the console script
``rif-rating``) or as a Prefect deployment (``prefect.yaml``). With no Prefect server configured,
Prefect starts a temporary local API for the run; nothing has to be started by hand.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# Quiet, offline defaults, set before Prefect reads its settings; the environment still wins.
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
# A loaded 2-core CI machine can need more than Prefect's default 20 s to start the temporary API.
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")

import pandas as pd
from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.states import Completed, State

import whr
import whr.tables
from whr.publish.snapshots import is_same_run, previous_snapshot
from whr.publish.summary import markdown_text, summarize, value_counts
from whr.rules import config_digest

NO_NEW_DATA = "No new data"
"""Name of the Completed state of a run that found nothing new to publish."""

DEFAULT_W2 = 12.9  # Elo^2 per day (RIF rule, spec section 1)
DEFAULT_VIRTUAL_GAMES = 2

# ----------------------------------------------------------------------------------------------
# Progress for interactive runs: the tasks name the step they are in; a thread redraws one line.


class _Progress:
    """A one-line spinner on a terminal naming the running step and its elapsed time."""

    def __init__(self) -> None:
        self.step: str | None = None
        self.started = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="progress", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()

    def _run(self) -> None:
        for frame in itertools.cycle("|/-\\"):
            if self._stop.wait(0.25):
                return
            if self.step is not None:
                elapsed = time.monotonic() - self.started
                # End with \r so that the next log line overwrites the spinner.
                sys.stderr.write(f"\r\033[K{frame} {self.step} ... {elapsed:5.1f} s\r")
                sys.stderr.flush()


_progress: _Progress | None = None  # set by main() on a terminal


@contextmanager
def _step(label: str) -> Iterator[None]:
    """Log the start and duration of a long step, and show it on the spinner if there is one."""
    logger = get_run_logger()
    logger.info("%s ...", label)
    started = time.monotonic()
    if _progress is not None:
        _progress.started, _progress.step = started, label
    try:
        yield
    finally:
        if _progress is not None:
            _progress.step = None
    logger.info("%s: done in %.1f s", label, time.monotonic() - started)


# ----------------------------------------------------------------------------------------------
# Tasks: one library call each.


@task(name="pull", persist_result=False, cache_policy=NO_CACHE)
def pull(
    source: str,
    workdir: Path,
    as_of: dt.date,
    timeout_s: float,
    max_bytes: int,
    retries: int,
    backoff_s: float,
) -> Path:
    """Fetch one source (file, directory of dated files, or http(s) URL) into ``workdir``.

    The library retries transient failures ``retries`` times, waiting ``backoff_s`` seconds
    and doubling the wait each time; this task has no Prefect retries of its own.
    """
    from whr.sources import pull as pull_source

    logger = get_run_logger()
    logger.info("pulling %s (timeout %s s, %d retries)", source, timeout_s, retries)
    path = pull_source(
        source,
        workdir,
        as_of,
        timeout_s=timeout_s,
        max_bytes=max_bytes,
        retries=retries,
        backoff_s=backoff_s,
    )
    logger.info("pulled %s -> %s", source, path)
    return Path(path)


@task(name="parse", persist_result=False, cache_policy=NO_CACHE)
def parse(paths: list[Path], as_of: dt.date) -> whr.SourceData:
    """Read every pulled file into the shared tables (several sources are concatenated)."""
    with _step("parsing " + ", ".join(p.name for p in paths)):
        parts = [whr.read_source(p, as_of=as_of) for p in paths]
        data = parts[0] if len(parts) == 1 else whr.tables.concat(parts)
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


@task(name="validate", persist_result=False, cache_policy=NO_CACHE)
def validate(data: whr.SourceData, as_of: dt.date, category: str, strict: bool, rules: Path) -> Any:
    """Decide which games are rated; every other game gets an exclusion reason."""
    from whr.rules import load_config

    with _step("selecting rated games"):
        config = load_config(rules)
        selection = whr.select(data, as_of, category=category, strict=strict, config=config)
    logger = get_run_logger()
    logger.info("%d games rated, %d excluded", len(selection.rated), len(selection.exclusions))
    if len(selection.rated) + len(selection.exclusions) != len(data.games):
        raise RuntimeError(
            f"eligibility lost games: {len(data.games)} read, {len(selection.rated)} rated, "
            f"{len(selection.exclusions)} excluded; every game must be rated or excluded"
        )
    warnings = selection.warnings
    if isinstance(warnings, pd.DataFrame):
        for code, n in value_counts(warnings, ["code"]).items():
            logger.warning("%d eligibility warnings %s", n, code)
    else:
        for warning in warnings:
            logger.warning("%s", warning)
    return selection


@task(name="rate", persist_result=False, cache_policy=NO_CACHE)
def rate(games: pd.DataFrame, w2: float, virtual_games: int) -> Any:
    """Fit Whole-History Rating over every rated game."""
    with _step(f"fitting WHR on {len(games)} games"):
        fit = whr.fit(games, whr.FitParams(w2_elo2_per_day=w2, virtual_games=virtual_games))
    get_run_logger().info(
        "fit: %d iterations, converged=%s, %d player-days",
        fit.iterations,
        fit.converged,
        len(fit.history),
    )
    return fit


@task(name="publish", persist_result=False, cache_policy=NO_CACHE)
def publish(
    out: Path,
    as_of: dt.date,
    data: whr.SourceData,
    selection: Any,
    fit: Any,
    params: dict[str, Any],
) -> Path:
    """Write the snapshot (Parquet tables, manifest, site), then switch ``latest.json``."""
    import whr.publish

    with _step("publishing snapshot and rendering pages"):
        snapshot = whr.publish.publish(out, as_of, data, selection, fit, params)
    get_run_logger().info("published %s", snapshot)
    return Path(snapshot)


# ----------------------------------------------------------------------------------------------
# The flow.


def _on_failure(flow: Any, flow_run: Any, state: State) -> None:
    """Say on GitHub Actions' job summary that the run failed, and why."""
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as handle:
            handle.write(
                f"# Rating run failed\n\n{markdown_text(state.message)}\n\n"
                "Nothing was published; the last snapshot is untouched.\n"
            )


@flow(
    name="rif-rating-daily",
    persist_result=False,
    log_prints=True,
    on_failure=[_on_failure],
)
def daily(
    source: str | list[str],
    out: Path = Path("out"),
    as_of: dt.date | None = None,
    category: str = "renju",
    w2: float = DEFAULT_W2,
    virtual_games: int = DEFAULT_VIRTUAL_GAMES,
    strict: bool = False,
    force: bool = False,
    rules: Path | None = None,
    pull_timeout_s: float = 60.0,
    pull_max_bytes: int = 500_000_000,
    pull_retries: int = 3,
    pull_backoff_s: float = 10.0,
) -> State | str:
    """Compute and publish the rating list as of ``as_of``.

    Parameters
    ----------
    source : str or list of str
        Where the games are: a file, a directory of dated database files (the newest file not
        after ``as_of`` is used), or an http(s) URL; several sources are read and concatenated
        (for example the RenjuNet database plus a directory of EGF tables).
    out : Path
        Output directory; the snapshot goes to ``out/snapshots/<as_of>/`` and ``out/latest.json``
        names it.
    as_of : datetime.date, optional
        The list date; games after it are ignored. Default: today in UTC.
    category : {"renju", "gomoku"}
        Which rule category is rated.
    w2 : float
        Variance of the rating's Wiener process, in Elo^2 per day (Coulom 2008).
    virtual_games : int
        Virtual draws against a 1900-rated opponent on each player's first day.
    strict : bool
        Passed to eligibility: exclude games whose tournament lacks facts the rules need
        (minutes, mode, moves, rule) instead of admitting them with a warning.
    force : bool
        Publish even when the input and parameters equal those of the published snapshot of
        the same as-of date.
    rules : Path, optional
        Directory of eligibility rules laid out like ``data/rules/`` (settings, override lists,
        tournament facts). Default: the repository's ``data/rules/``. The sha256 of its files is
        a parameter of the run, so editing a list makes the next run publish.
    pull_timeout_s : float
        Timeout of one download attempt, in seconds.
    pull_max_bytes : int
        Refuse a download larger than this, in bytes.
    pull_retries : int
        Further attempts after a transient download failure (timeout, broken connection,
        HTTP 408/429/5xx); a final failure (404, size cap) is not retried.
    pull_backoff_s : float
        Wait before the first retry, in seconds; doubled for each further retry.

    Returns
    -------
    str or State
        The snapshot directory, or a Completed state named ``No new data``.
    """
    logger = get_run_logger()
    sources = [source] if isinstance(source, str) else list(source)
    as_of = as_of if as_of is not None else dt.datetime.now(dt.UTC).date()
    out = Path(out)
    _check_arguments(sources, category, w2, virtual_games, pull_retries, pull_backoff_s)
    rules = Path(rules) if rules is not None else _default_rules()
    if not (rules / "eligibility.toml").is_file():
        raise ValueError(f"rules: expected a directory with eligibility.toml, got {rules}")
    params = {
        "as_of": as_of.isoformat(),
        "category": category,
        "w2": float(w2),
        "virtual_games": int(virtual_games),
        "strict": bool(strict),
        "rules_sha256": config_digest(rules),
    }
    logger.info("rating list as of %s from %s, parameters %s", as_of, sources, params)
    previous = previous_snapshot(out, as_of)
    same_day = out / "snapshots" / as_of.isoformat()

    with tempfile.TemporaryDirectory(prefix="rif-rating-pull-") as workdir:
        paths = []
        for src in sources:
            try:
                paths.append(
                    pull(
                        src,
                        Path(workdir),
                        as_of,
                        pull_timeout_s,
                        pull_max_bytes,
                        pull_retries,
                        pull_backoff_s,
                    )
                )
            except whr.SourceError as exc:
                raise whr.SourceError(
                    f"pull failed, nothing was published and the last snapshot is untouched: {exc}"
                ) from exc
        data = parse(paths, as_of)

    if not force and is_same_run(same_day, data.sha256, params):
        message = (
            f"no new data: input sha256 {data.sha256} and parameters equal those of the "
            f"published snapshot {same_day.name}; nothing published (use force to publish anyway)"
        )
        logger.info("%s", message)
        _report(f"# Rating run {as_of}: no new data\n\n{markdown_text(message)}\n")
        return Completed(name=NO_NEW_DATA, message=message)

    selection = validate(data, as_of, category, strict, rules)
    fit = rate(selection.rated, w2, virtual_games)
    snapshot = publish(out, as_of, data, selection, fit, params)
    _report(summarize(data, selection, snapshot, previous, params))
    return str(snapshot)


def _default_rules() -> Path:
    from whr.rules import default_directory

    return default_directory()


def _check_arguments(
    sources: list[str],
    category: str,
    w2: float,
    virtual_games: int,
    pull_retries: int,
    pull_backoff_s: float,
) -> None:
    if not sources or not all(isinstance(s, str) and s for s in sources):
        raise ValueError(f"source: expected one or more paths or URLs, got {sources!r}")
    if category not in whr.tables.CATEGORIES:
        raise ValueError(f"category: expected one of {whr.tables.CATEGORIES}, got {category!r}")
    if not w2 > 0:
        raise ValueError(f"w2: expected a positive number of Elo^2 per day, got {w2!r}")
    if virtual_games < 0:
        raise ValueError(f"virtual_games: expected a count >= 0, got {virtual_games!r}")
    if pull_retries < 0 or pull_backoff_s < 0:
        raise ValueError(
            f"pull_retries, pull_backoff_s: expected >= 0, got {pull_retries!r}, {pull_backoff_s!r}"
        )


# ----------------------------------------------------------------------------------------------
# Reporting: the summary is written by the library (whr.publish.summary); this only delivers it.


def _report(markdown: str) -> None:
    """Publish the summary as a Prefect artifact and, on GitHub Actions, as the step summary."""
    create_markdown_artifact(markdown, key="rating-run-summary", description="Daily rating run")
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as handle:
            handle.write(markdown + "\n")


# ----------------------------------------------------------------------------------------------
# Command line.


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date YYYY-MM-DD, got {text!r}") from None


def parser() -> argparse.ArgumentParser:
    """The command line of ``python -m flows.daily`` and ``rif-rating``."""
    p = argparse.ArgumentParser(
        prog="rif-rating",
        description=(
            "Compute the Renju world rating list (Whole-History Rating) as of a date and publish "
            "Parquet tables and a static site. Runs as a Prefect flow; with no Prefect server "
            "configured a temporary local one is started for the run."
        ),
    )
    p.add_argument(
        "--source",
        action="append",
        required=True,
        metavar="S",
        help="a database file (RenjuNet .rif/.xml, possibly .gz/.zip; canonical CSV/Parquet), a "
        "directory of dated database files (the newest not after --as-of is used), or an "
        "http(s) URL; repeat to combine sources, e.g. the database plus a directory of EGF tables",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path("out"),
        metavar="OUT",
        help="output directory: snapshots go to OUT/snapshots/DATE/, OUT/latest.json "
        "names the latest (default: %(default)s)",
    )
    p.add_argument(
        "--as-of",
        type=_date,
        default=None,
        metavar="D",
        help="list date YYYY-MM-DD; later games are ignored (default: today in UTC); "
        "use it to rerun a past day",
    )
    p.add_argument(
        "--category",
        choices=whr.tables.CATEGORIES,
        default="renju",
        help="rule category to rate (default: %(default)s)",
    )
    p.add_argument(
        "--w2",
        type=float,
        default=DEFAULT_W2,
        metavar="ELO2_PER_DAY",
        help="rating variability: variance of the Wiener process in Elo^2 per day (default: %(default)s)",
    )
    p.add_argument(
        "--virtual-games",
        type=int,
        default=DEFAULT_VIRTUAL_GAMES,
        metavar="N",
        help="virtual draws against a 1900 player on each player's first day (default: %(default)s)",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="exclude games whose tournament lacks facts the eligibility rules need "
        "(time control, mode, moves, rule) instead of admitting them with a warning",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="publish even if the input checksum and parameters equal those of the "
        "latest snapshot (otherwise the run ends as 'No new data')",
    )
    p.add_argument(
        "--rules",
        type=Path,
        default=None,
        metavar="DIR",
        help="eligibility rules directory laid out like data/rules/ (settings, override lists, "
        "tournament facts; default: the repository's data/rules/)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="timeout of one download attempt (default: %(default)s)",
    )
    p.add_argument(
        "--retries",
        type=int,
        default=3,
        metavar="N",
        help="further download attempts after a failure, with exponential backoff (default: %(default)s)",
    )
    p.add_argument(
        "--backoff",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="wait before the first retry; doubled for each further one (default: %(default)s)",
    )
    p.add_argument(
        "--max-bytes",
        type=int,
        default=500_000_000,
        metavar="BYTES",
        help="refuse a download larger than this (default: %(default)s)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the flow from the command line; returns the process exit status."""
    global _progress
    args = parser().parse_args(argv)
    if sys.stderr.isatty():
        _progress = _Progress()
        _progress.start()
    try:
        state = daily(
            source=args.source,
            out=args.out,
            as_of=args.as_of,
            category=args.category,
            w2=args.w2,
            virtual_games=args.virtual_games,
            strict=args.strict,
            force=args.force,
            rules=args.rules,
            pull_timeout_s=args.timeout,
            pull_max_bytes=args.max_bytes,
            pull_retries=args.retries,
            pull_backoff_s=args.backoff,
            return_state=True,
        )
    finally:
        if _progress is not None:
            _progress.stop()
            _progress = None
    if state.is_failed() or state.is_crashed():
        print(f"rif-rating: failed: {state.message}", file=sys.stderr)
        return 1
    if state.name == NO_NEW_DATA:
        print(f"rif-rating: {state.message}")
        return 0
    snapshot = Path(state.result())
    print(f"rif-rating: published {snapshot}; site: {snapshot / 'site' / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
