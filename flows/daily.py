"""The command line of the daily rating job: ``python -m flows.daily`` and ``rif-rating``.

It answers at once: the options are parsed and the run description (:class:`whr.run.Run`) is
built and checked — dates, ranges, local paths, the variant rule — before Prefect is even
imported; a bad option is one line on stderr and exit status 2. Then it takes the output tree's
lock (a second run fails at once), and only then imports and runs the Prefect flow
(:mod:`flows.pipeline`).

Exit status: 0 published, or nothing new to publish; 1 failed (nothing was published); 2 bad
arguments; 3 partly published (a list failed, another was published).

``rif-rating --verify [--out OUT]`` publishes nothing: it checks every archived file of OUT
against its sha256 (:func:`whr.publish.verify`, without Prefect), repairs what a killed run
left, and exits 0 when every day checks, 1 when a day is damaged (each named with what to do). On GitHub Actions the
outcome is also written to ``$GITHUB_OUTPUT``: ``outcome`` (``published``, ``no-new-data``,
``partial``, ``failed``), ``as-of`` and ``published`` (the lists published, e.g.
``renju gomoku``).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from flows.runners import dask_argument
from whr.params import (
    CATEGORIES,
    ENV_PREFIX,
    FitParams,
    PullSettings,
    ReadLimits,
    has_secret,
    is_url,
)
from whr.run import Run, RunError, today_utc

PROG = "rif-rating"
EXIT = {"published": 0, "no-new-data": 0, "failed": 1, "usage": 2, "partial": 3}


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``rif-rating: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT["usage"], f"{PROG}: error: {message} (see {PROG} --help)\n")


def _date(text: str) -> Any:
    import datetime as dt

    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date YYYY-MM-DD, got {text!r}") from None


def parser() -> argparse.ArgumentParser:
    """The command line; every option maps to one parameter of the run description."""
    fit, pull, limits = FitParams(), PullSettings(), ReadLimits()
    p = _Parser(
        prog=PROG,
        description=(
            "Compute the Renju world rating lists (Whole-History Rating) as of a date and publish "
            "them: Parquet tables, an archive of every day, and a static site at addresses that "
            "never change. Runs as a Prefect flow; with no Prefect server configured, a temporary "
            "local one is started for the run."
        ),
        epilog="Exit status: 0 published (or nothing new), 1 failed (nothing published), "
        "2 bad arguments, 3 partly published (a list failed, another was published).",
    )
    p.add_argument(
        "--source",
        action="append",
        metavar="S",
        help="a database file (RenjuNet .rif/.xml, possibly .gz/.zip; canonical CSV/Parquet), a "
        "directory of dated database files (the newest not after --as-of is used), an http(s) "
        "URL (never user:password@; a query string is never shown), or env:NAME, the URL held "
        "by the environment variable NAME; repeat to combine sources, e.g. the database plus a "
        "directory of EGF tables",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path("out"),
        metavar="OUT",
        help="the published tree: OUT/renju/ (the current list), OUT/archive/ (every day), "
        "OUT/published.json (default: %(default)s)",
    )
    p.add_argument(
        "--as-of",
        type=_date,
        default=None,
        metavar="D",
        help="list date YYYY-MM-DD, at most tomorrow; later games are ignored (default: today "
        "in UTC); use it to rerun a past day",
    )
    p.add_argument(
        "--category",
        action="append",
        choices=CATEGORIES,
        default=None,
        help="rule category to rate and publish; repeat for several (default: every category)",
    )
    p.add_argument(
        "--variant",
        metavar="NAME",
        default=None,
        help="publish under variants/NAME/ (required when --w2, --virtual-games, --strict or "
        "--rules differ from the official values; a variant never replaces an official list)",
    )
    p.add_argument(
        "--w2",
        type=float,
        default=fit.w2_elo2_per_day,
        metavar="ELO2_PER_DAY",
        help="rating variability: variance of the Wiener process in Elo^2 per day "
        "(default: %(default)s, the RIF rating rules 2021)",
    )
    p.add_argument(
        "--virtual-games",
        type=float,
        default=fit.virtual_games,
        metavar="N",
        help="virtual draws against a 1900 player on each player's first day, > 0 "
        "(default: %(default)s)",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="exclude games whose tournament lacks facts the eligibility rules need "
        "(time control, mode, moves, rule) instead of admitting them with a warning",
    )
    p.add_argument(
        "--rules",
        type=Path,
        default=None,
        metavar="DIR",
        help="eligibility rules directory laid out like the bundled one (settings, override "
        "lists, tournament facts; default: the bundled rules)",
    )
    p.add_argument(
        "--force",
        metavar="REASON",
        default=None,
        help="publish even when the input and parameters equal those of the published day, "
        "or when a gate refuses the list (no rated games or players, a shrink beyond "
        "--max-shrink); REASON and each of these it overrode are recorded in the manifest "
        "(forced); it never allows a date after tomorrow",
    )
    p.add_argument(
        "--max-shrink",
        type=float,
        default=Run.max_shrink,
        metavar="FRACTION",
        help="refuse a list whose rated games or established players fall by more than this "
        "fraction since the previous list (default: %(default)s)",
    )
    p.add_argument(
        "--max-players",
        type=int,
        default=Run.max_players,
        metavar="N",
        help="refuse, before anything is built, a list of more players than this: publishing "
        "costs memory, time and files in proportion to the players (docs/operations.md, Size; "
        "default: %(default)s)",
    )
    p.add_argument(
        "--wait",
        action="store_true",
        help="when another run is publishing to OUT, wait for it instead of failing at once",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=pull.timeout_s,
        metavar="SECONDS",
        help="a download's connection and each read (default: %(default)s)",
    )
    p.add_argument(
        "--deadline",
        type=float,
        default=pull.deadline_s,
        metavar="SECONDS",
        help="a download in all: every attempt and the waits between them, however the server "
        "trickles (default: %(default)s)",
    )
    p.add_argument(
        "--retries",
        type=int,
        default=pull.retries,
        metavar="N",
        help="further download attempts after a transient failure (default: %(default)s)",
    )
    p.add_argument(
        "--backoff",
        type=float,
        default=pull.backoff_s,
        metavar="SECONDS",
        help="wait before the first retry; doubled for each further one (default: %(default)s)",
    )
    p.add_argument(
        "--max-bytes",
        type=int,
        default=pull.max_bytes,
        metavar="BYTES",
        help="refuse a download larger than this (default: %(default)s)",
    )
    p.add_argument(
        "--max-unpacked-bytes",
        type=int,
        default=None,
        metavar="BYTES",
        help="refuse a file larger than this once unpacked from gzip or zip (default: the "
        "--max-bytes value)",
    )
    p.add_argument(
        "--max-value-chars",
        type=int,
        default=limits.max_value_chars,
        metavar="N",
        help="refuse a source with a value (an attribute, a text, a cell, a line) longer than "
        "this (default: %(default)s)",
    )
    p.add_argument(
        "--max-name-chars",
        type=int,
        default=limits.max_name_chars,
        metavar="N",
        help="cut a name longer than this, and report it (default: %(default)s)",
    )
    p.add_argument(
        "--dask",
        type=dask_argument,
        default=None,
        metavar="ADDRESS",
        help="validate and rate the lists on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://host:8786), or on a cluster of N worker processes started here for the run "
        "(local:N); publishing stays in this process (default: threads of this process)",
    )
    p.add_argument(
        "--verbose",
        action="store_true",
        help="show tracebacks of failures (otherwise one line says what failed)",
    )
    p.add_argument(
        "--verify",
        action="store_true",
        help="publish nothing: check every archived file of OUT against its sha256 and every "
        "day's page, repair what a killed run left, report each damaged day with what to do "
        "(exit status 0: every day checks; 1: a day is damaged); --source is not needed",
    )
    return p


def _verify(args: argparse.Namespace) -> int:
    """``--verify``: check the published tree ``args.out`` (no Prefect); the exit status."""
    import whr.publish

    try:
        done = whr.publish.verify(args.out)
    except (whr.publish.LockedError, whr.publish.TreeError, whr.publish.StateError) as exc:
        print(f"{PROG}: failed: {exc}", file=sys.stderr)
        return EXIT["failed"]
    for line in done.repaired:
        print(f"{PROG}: repaired: {line}")
    for line in done.damaged:
        print(f"{PROG}: damaged: {line}", file=sys.stderr)
    print(
        f"{PROG}: verified {done.files} files ({done.bytes / 1e6:.1f} MB) of {done.days} days "
        f"in {done.lists} list{'' if done.lists == 1 else 's'}: "
        + ("every day checks" if done.ok else f"{len(done.damaged)} damaged (above)"),
        file=sys.stdout if done.ok else sys.stderr,
    )
    return 0 if done.ok else EXIT["failed"]


def run_of(args: argparse.Namespace) -> Run:
    """The run description from parsed options (raises :class:`whr.run.RunError`)."""
    return Run.from_flat(
        {
            "source": args.source,
            "out": args.out,
            "as_of": args.as_of if args.as_of is not None else today_utc(),
            "categories": args.category or list(CATEGORIES),
            "variant": args.variant,
            "w2_elo2_per_day": args.w2,
            "virtual_games": args.virtual_games,
            "strict": args.strict,
            "rules": args.rules,
            "force": args.force,
            "max_shrink": args.max_shrink,
            "max_players": args.max_players,
            "wait": args.wait,
            "pull_timeout_s": args.timeout,
            "pull_deadline_s": args.deadline,
            "pull_max_bytes": args.max_bytes,
            "pull_retries": args.retries,
            "pull_backoff_s": args.backoff,
            "max_unpacked_bytes": args.max_unpacked_bytes,
            "max_value_chars": args.max_value_chars,
            "max_name_chars": args.max_name_chars,
        }
    )


OPTIONS = {  # the run's parameter names (as error messages give them) -> the option that sets it
    "w2_elo2_per_day": "--w2",
    "virtual_games": "--virtual-games",
    "timeout_s": "--timeout",
    "deadline_s": "--deadline",
    "max_bytes": "--max-bytes",
    "retries": "--retries",
    "backoff_s": "--backoff",
    "max_shrink": "--max-shrink",
    "max_players": "--max-players",
    "as_of": "--as-of",
    "source": "--source",
    "sources": "--source",
    "variant": "--variant",
    "rules": "--rules",
    "force": "--force",
    "out": "--out",
    "categories": "--category",
    "max_unpacked_bytes": "--max-unpacked-bytes",
    "max_value_chars": "--max-value-chars",
    "max_name_chars": "--max-name-chars",
}


def _with_option(message: str) -> str:
    """``message`` prefixed by the option that sets the parameter it names first."""
    name = message.split(":", 1)[0].split(" ", 1)[0].rsplit(".", 1)[-1]  # ReadLimits.x -> x
    return f"{OPTIONS[name]}: {message}" if name in OPTIONS else message


def _github_output(outcome: str, run: Run, published: list[str]) -> None:
    path = os.environ.get("GITHUB_OUTPUT")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(
                f"outcome={outcome}\nas-of={run.as_of.isoformat()}\n"
                f"published={' '.join(published)}\n"
            )


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so the run unwinds like Ctrl-C."""


def _terminate(signum: int, frame: Any) -> None:
    """SIGTERM ends the run like Ctrl-C: Prefect's temporary server is stopped on the way out."""
    raise _Terminated(f"signal {signum}")


SECRET_SOURCE_VARIABLE = "RIF_RATING_SOURCE_{}"
"""The environment variable of this process that holds the k-th secret URL given on the
command line (k from 1), for the flow to read as ``env:`` + that name."""


def keep_secrets_out(run: Run) -> Run:
    """``run`` with each URL that holds a secret (a query string) moved into this process's
    environment and named ``env:RIF_RATING_SOURCE_<k>``: the flow's parameters, which Prefect
    stores, then never hold it (:meth:`whr.run.Run.secret_sources`)."""
    if not run.secret_sources():
        return run
    sources = []
    for k, source in enumerate(run.sources, 1):
        if is_url(source) and has_secret(source):
            name = SECRET_SOURCE_VARIABLE.format(k)
            os.environ[name] = source
            source = ENV_PREFIX + name
        sources.append(source)
    return dataclasses.replace(run, sources=tuple(sources))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the job from the command line; returns the exit status."""
    p = parser()
    args = p.parse_args(argv)
    if args.verify:
        return _verify(args)
    if not args.source:
        p.error("the following arguments are required: --source")
    try:
        run = keep_secrets_out(run_of(args))
        run.check_local()
    except RunError as exc:
        print(f"{PROG}: error: {_with_option(str(exc))}", file=sys.stderr)
        return EXIT["usage"]

    from whr.publish.layout import TreeError
    from whr.publish.lock import LockedError, hold

    signal.signal(signal.SIGTERM, _terminate)
    try:
        with hold(run.out, wait=run.wait):
            from flows import pipeline

            result = pipeline.execute(run, verbose=args.verbose, dask=args.dask)
    except (LockedError, TreeError) as exc:
        print(f"{PROG}: failed: {exc}", file=sys.stderr)
        _github_output("failed", run, [])
        return EXIT["failed"]
    except KeyboardInterrupt as exc:
        print(f"{PROG}: interrupted; every list is published whole or not at all", file=sys.stderr)
        _github_output("failed", run, [])
        return 128 + (signal.SIGTERM if isinstance(exc, _Terminated) else signal.SIGINT)
    _github_output(result.outcome, run, result.published)
    stream = sys.stdout if EXIT[result.outcome] == 0 else sys.stderr
    for line in result.lines:
        print(f"{PROG}: {line}", file=stream)
    return EXIT[result.outcome]


if __name__ == "__main__":
    sys.exit(main())
