"""The command line of the daily rating job: ``python -m flows.daily`` and ``rif-rating``.

It answers at once: the options are parsed and the run description (:class:`whr.run.Run`) is
built and checked — dates, ranges, local paths, the variant rule — before Prefect is even
imported; a bad option is one line on stderr and exit status 2. Then it takes the output tree's
lock (a second run fails at once), and only then imports and runs the Prefect flow
(:mod:`flows.pipeline`).

Exit status: 0 published, or nothing new to publish; 1 failed (nothing was published); 2 bad
arguments; 3 partly published (a list failed, another was published); 75 another run holds the
tree's lock (nothing was done; try again later, or give --wait).

``rif-rating --verify [--out OUT] [--wait]`` publishes nothing: it checks the tree OUT against
its ledger and every archived file against its recorded sha256 (:func:`whr.publish.verify`,
without Prefect), finishes what a killed run recorded, and exits 0 when everything checks, 1
when a file was found damaged or foreign (each named with what to do), 75 when another run
holds the lock (without --wait). On GitHub Actions the
outcome is also written to ``$GITHUB_OUTPUT``: ``outcome`` (``published``, ``no-new-data``,
``partial``, ``failed``), ``as-of`` and ``published`` (the lists published, e.g.
``renju gomoku``).

``rif-rating backfill --source S --out OUT [--as-of D] [--until D] [--dask ...]`` replays the
history of each list day by day for each tournament's change at the time (:mod:`flows.backfill`),
and writes it beside the list's archive; its options are the fields of
:class:`whr.run.Backfill`, checked the same way before Prefect is imported.

``rif-rating what-if --out OUT [--category C] --game "ID1 ID2 RESULT [YYYY-MM-DD]" ... [--table
FILE] [--csv]`` prints what the list would say with results not yet rated (:mod:`whr.whatif`):
it reads the published tree only and never imports Prefect.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import os
import signal
import sys
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from flows.runners import dask_argument, one_heap, temporary_server
from whr.params import ENV_PREFIX, declared, has_secret, is_url
from whr.run import Backfill, Run, RunError

PROG = "rif-rating"
T = TypeVar("T")
EXIT = {"published": 0, "no-new-data": 0, "failed": 1, "usage": 2, "partial": 3, "locked": 75}
"""Exit statuses; ``locked`` (75, ``EX_TEMPFAIL`` of sysexits.h: try again later) when another
run holds the published tree's lock, so that a scheduler tells a clash from a failure."""
BAD = ("damaged: ", "foreign: ")
"""The lines of a check that say the tree is not what was published (on stderr)."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``rif-rating: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT["usage"], f"{PROG}: error: {message} (see {self.prog} --help)\n")


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date YYYY-MM-DD, got {text!r}") from None


def shown(f: dataclasses.Field[Any]) -> str:
    """How a field's default reads in ``--help`` and in the docs' option table, with its unit."""
    unit = f.metadata["unit"]
    if f.metadata["shown"] is not None:
        return f"{f.metadata['shown']} ({unit})" if unit else str(f.metadata["shown"])
    factory = f.default_factory
    value = factory() if callable(factory) else f.default
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int) and value >= 10_000:
        text = f"{value:,}".replace(",", " ")
    else:
        text = f"{value:g}" if isinstance(value, float) else str(value)
    return f"{text} {unit}" if unit else text


def _kind(f: dataclasses.Field[Any], kind: Any) -> dict[str, Any]:
    """``add_argument``'s keywords for a field of type ``kind`` (``X | None`` is ``X``)."""
    options = typing.get_args(kind)
    if typing.get_origin(kind) is tuple:  # repeatable
        return {
            "action": "append",
            "choices": f.metadata.get("choices"),
            "metavar": f.metadata.get("metavar"),
        }
    kind = next((k for k in options if k is not type(None)), kind)
    if kind is bool:
        return {"action": "store_true"}
    unit = f.metadata["unit"]
    metavar = f.metadata.get("metavar") or (unit.upper() if unit in ("seconds", "bytes") else "N")
    return {"type": _date if kind is dt.date else kind, "metavar": metavar}


def _fields(p: argparse.ArgumentParser, cls: type) -> None:
    """One option per flagged field of the dataclass ``cls`` (its dataclass fields' too), with
    the field's help, unit and default."""
    for path, f, kind in declared(cls):
        if f.metadata["flag"] is not None:
            said = f"{f.metadata['description']}; default: {shown(f)}".replace("%", "%%")
            p.add_argument(
                f.metadata["flag"],
                dest=path,
                default=argparse.SUPPRESS,
                help=said,
                **_kind(f, kind),
            )


def _verbose(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--verbose",
        action="store_true",
        help="show tracebacks of failures (otherwise one line says what failed)",
    )


def parser() -> argparse.ArgumentParser:
    """The command line: one option per flagged field of the run (:class:`whr.run.Run`), with the
    field's help, unit and default, then the options of the command itself."""
    p = _Parser(
        prog=PROG,
        description=(
            "Compute the Renju world rating lists (Whole-History Rating) as of a date and publish "
            "them: Parquet tables, an archive of every day, and a static site at addresses that "
            "never change. Runs as a Prefect flow; with no Prefect server configured, a temporary "
            f"local one is started for the run. '{PROG} backfill --help': replay the history "
            "for each tournament's change at the time."
        ),
        epilog="Exit status: 0 published (or nothing new), 1 failed (nothing published), "
        "2 bad arguments, 3 partly published (a list failed, another was published).",
    )
    _fields(p, Run)
    p.add_argument(
        "--dask",
        type=dask_argument,
        default=None,
        metavar="ADDRESS",
        help="validate and rate the lists on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://host:8786), or on a cluster of N worker processes started here for the run "
        "(local:N); publishing stays in this process; default: threads of this process",
    )
    _verbose(p)
    p.add_argument(
        "--verify",
        action="store_true",
        help="publish nothing: check OUT against its ledger and every archived file against "
        "its recorded sha256 (as every run does), finish what a killed run recorded, report "
        "each damaged or foreign file with what to do (exit status 0: everything checks; 1: a "
        "file was found damaged or foreign; 75: another run holds the lock, without --wait); "
        "--source is not needed",
    )
    return p


BACKFILL = f"{PROG} backfill"


def backfill_parser() -> argparse.ArgumentParser:
    """``rif-rating backfill``: one option per flagged field of :class:`whr.run.Backfill`."""
    p = _Parser(
        prog=BACKFILL,
        description=(
            "Replay the history of each list day by day, for each tournament's change at the "
            "time: every player's rating on the list just before the tournament's games were "
            "first rated and on the first list that rated them, each from the games known then. "
            "Writes OUT/archive/<list>/replay/<D>/. Runs as a Prefect flow."
        ),
        epilog="Exit status: 0 written, 1 failed (a list's replay was not written), "
        "2 bad arguments.",
    )
    _fields(p, Backfill)
    p.add_argument(
        "--dask",
        type=dask_argument,
        default=None,
        metavar="ADDRESS",
        help="replay ranges of days on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://host:8786), or on a cluster of N worker processes started here for the run "
        "(local:N), each range from a cold fit at its start; default: one replay per list in "
        "this process",
    )
    _verbose(p)
    return p


def option_table(p: argparse.ArgumentParser | None = None, cls: type = Run) -> str:
    """The option table of ``docs/operations.md``, made from :func:`parser` (or ``p``, the
    command line of ``cls``; a test holds the docs equal to it): each option, the field it
    sets, its default and what it means."""
    paths = {path for path, _, _ in declared(cls)}
    rows = ["| option | run field | default | meaning |", "| --- | --- | --- | --- |"]
    for action in (p or parser())._actions:
        if action.dest == "help":
            continue
        option = f"`{action.option_strings[0]}`"
        if isinstance(action, argparse._AppendAction):
            option += " (repeatable)"
        field = f"`{action.dest}`" if action.dest in paths else ""
        meaning, _, default = (action.help or "").replace("%%", "%").partition("; default: ")
        rows.append(f"| {option} | {field} | {default or 'off'} | {meaning} |")
    return "\n".join(rows) + "\n"


def _verify(out: Path, wait: bool) -> int:
    """``--verify``: check the published tree ``out`` (no Prefect); the exit status."""
    import whr.publish

    try:
        done = whr.publish.verify(out, wait=wait)
    except whr.publish.LockedError as exc:
        print(f"{PROG}: {exc}; nothing was checked", file=sys.stderr)
        return EXIT["locked"]
    except (whr.publish.TreeError, whr.publish.StateError) as exc:
        print(f"{PROG}: failed: {exc}", file=sys.stderr)
        return EXIT["failed"]
    for line in done.said:  # in order; a damaged or foreign file on stderr
        bad = line.startswith(BAD)
        print(f"{PROG}: {line}", file=sys.stderr if bad else sys.stdout, flush=True)
    found = [f"{len(done.damaged)} damaged"] if done.damaged else []
    found += [f"{len(done.foreign)} foreign"] if done.foreign else []
    print(
        f"{PROG}: verified {done.files} files ({done.bytes / 1e6:.1f} MB) of {done.days} days "
        f"in {done.lists} list{'' if done.lists == 1 else 's'}: "
        + ("every day checks" if done.ok else f"{' and '.join(found)} (above)"),
        file=sys.stdout if done.ok else sys.stderr,
    )
    return 0 if done.ok else EXIT["failed"]


def _built(cls: Any, given: dict[str, Any], prefix: str = "") -> Any:
    """``cls`` made of the values ``given`` by dotted field path (its dataclass fields too)."""
    hints = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        if dataclasses.is_dataclass(hints[f.name]):
            values[f.name] = _built(hints[f.name], given, f"{prefix}{f.name}.")
        elif prefix + f.name in given:
            values[f.name] = given[prefix + f.name]
    return cls(**values)


def value_of(cls: type[T], args: argparse.Namespace) -> T:
    """The ``cls`` (a run, a backfill) from parsed options: the options given, and the fields'
    defaults for the others (raises :class:`whr.run.RunError`)."""
    given = dict(vars(args))
    for path, f, _ in declared(cls):
        if f.metadata.get("follows") in given:
            given.setdefault(path, given[f.metadata["follows"]])
    try:
        value: T = _built(cls, given)
    except RunError:
        raise
    except (TypeError, ValueError) as exc:  # FitParams, PullSettings, ReadLimits: not RunError
        raise RunError(str(exc)) from None
    return value


def run_of(args: argparse.Namespace) -> Run:
    """The run from parsed options (:func:`value_of`); ``as_of_given`` when ``--as-of`` was
    given."""
    given = {**vars(args), **({"as_of_given": True} if "as_of" in vars(args) else {})}
    return value_of(Run, argparse.Namespace(**given))


def _with_option(message: str, cls: type = Run) -> str:
    """``message`` led by the option that sets the field it names first (``retries must be``,
    ``source: ...``: a field's name, or its flag's)."""
    flags = {}
    for _, f, _ in declared(cls):
        if f.metadata["flag"]:
            flags[f.name] = flags[f.metadata["flag"][2:].replace("-", "_")] = f.metadata["flag"]
    name = message.split(":", 1)[0].split(" ", 1)[0]
    return f"{flags[name]}: {message}" if name in flags else message


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


def keep_secrets_out(run: T) -> T:
    """``run`` with each URL that holds a secret (a query string) moved into this process's
    environment and named ``env:RIF_RATING_SOURCE_<k>``: the flow's parameters, which Prefect
    stores, then never hold it (:meth:`whr.run.Run.refuse_stored_secrets`)."""
    sources = []
    given: tuple[str, ...] = getattr(run, "sources")  # noqa: B009 (a Run or a Backfill)
    for k, source in enumerate(given, 1):
        if is_url(source) and has_secret(source):
            name = SECRET_SOURCE_VARIABLE.format(k)
            os.environ[name] = source
            source = ENV_PREFIX + name
        sources.append(source)
    if tuple(sources) == given:
        return run
    return dataclasses.replace(run, sources=tuple(sources))  # type: ignore[type-var]


def backfill(argv: Sequence[str]) -> int:
    """``rif-rating backfill ...``: replay the history of each list; returns the exit status."""
    p = backfill_parser()
    args = p.parse_args(argv)
    if "sources" not in vars(args):
        p.error("the following arguments are required: --source")
    try:
        job = keep_secrets_out(value_of(Backfill, args))
        job.run().check_local()
    except RunError as exc:
        print(f"{PROG}: error: {_with_option(str(exc), Backfill)}", file=sys.stderr)
        return EXIT["usage"]
    signal.signal(signal.SIGTERM, _terminate)
    try:
        from flows import backfill as flow

        done = flow.execute(job, verbose=args.verbose, dask=args.dask)
    except KeyboardInterrupt as exc:
        print(f"{BACKFILL}: interrupted; no replay was left half written", file=sys.stderr)
        return 128 + (signal.SIGTERM if isinstance(exc, _Terminated) else signal.SIGINT)
    for line in done.lines:
        print(f"{BACKFILL}: {line}", file=sys.stdout if done.ok else sys.stderr)
    return 0 if done.ok else EXIT["failed"]


WHAT_IF = f"{PROG} what-if"


def what_if_parser() -> argparse.ArgumentParser:
    """``rif-rating what-if``: the options of :func:`what_if`."""
    p = _Parser(
        prog=WHAT_IF,
        description=(
            "What the list would say with results not yet rated: every rated game of the list "
            "a published tree shows, with the games given, refitted by Whole-History Rating "
            "with the list's own parameters, read on the later of the list's day and the last "
            "game's. Reads the published tree only (no source, no Prefect). A hypothetical: WHR "
            "moves the past too, so others move as well (counted)."
        ),
        epilog="Exit status: 0 answered, 1 the tree has no list to start from, 2 bad arguments.",
    )
    p.add_argument("--out", type=Path, default=Path(Run.out), help="the published tree")
    p.add_argument("--category", default="renju", help="the list (default: renju)")
    p.add_argument(
        "--game",
        action="append",
        default=[],
        metavar='"ID1 ID2 RESULT [YYYY-MM-DD]"',
        help="a game: ID1 has Black, RESULT is Black's score (1, 0.5, 0), the day by default "
        "the day after the list's; 'new' (or new:LABEL) is a player with no games; repeat it",
    )
    p.add_argument(
        "--table",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="a tournament table in the EGF format: its games as the job would read and "
        "select them (those it would not rate are listed with their reasons)",
    )
    p.add_argument("--csv", action="store_true", help="CSV: id,name,before,after,change (Elo)")
    return p


def what_if(argv: Sequence[str]) -> int:
    """``rif-rating what-if ...``: the players' ratings before and after; the exit status."""
    import csv

    import pandas as pd

    from whr import whatif

    p = what_if_parser()
    args = p.parse_args(argv)
    if not args.game and not args.table:
        p.error("give at least one --game or --table")
    try:
        baseline = whatif.read(args.out, args.category)
    except (FileNotFoundError, ValueError, OSError) as exc:
        print(f"{WHAT_IF}: error: {exc}", file=sys.stderr)
        return EXIT["failed"]
    frames, names = [], {}
    try:
        if args.game:
            frames.append(pd.DataFrame([whatif.parse_game(g, baseline.as_of) for g in args.game]))
        for table in args.table:
            read = whatif.table_games(baseline, table)
            for line in read.warnings:
                print(f"{WHAT_IF}: {table}: {line}", file=sys.stderr)
            for row in read.not_rated.itertuples():
                print(
                    f"{WHAT_IF}: {table}: not rated: game {row.game_id} ({row.black} - "
                    f"{row.white}): {row.reason}: {row.message}",
                    file=sys.stderr,
                )
            frames.append(read.rated[["black", "white", "result", "date"]])
            names.update(read.names)
        games = pd.concat(frames, ignore_index=True)
        answer = whatif.what_if(baseline, games, names)
    except (ValueError, OSError) as exc:
        print(f"{WHAT_IF}: error: {exc}", file=sys.stderr)
        return EXIT["usage"]
    rows = answer.players
    ids, who = rows["id"].astype(str).tolist(), rows["name"].astype(str).tolist()
    elo = {k: [float(v) for v in rows[k].to_numpy(float)] for k in ("before", "after", "change")}
    if args.csv:  # unrounded; a new player's before and change empty
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(["id", "name", *elo])
        for k, (i, n) in enumerate(zip(ids, who, strict=True)):
            out.writerow([i, n, *("" if v[k] != v[k] else repr(v[k]) for v in elo.values())])
        return 0
    print(
        f"What if: the {baseline.category} list of {answer.day}, from the list of "
        f"{baseline.as_of} with {len(games)} more game{'' if len(games) == 1 else 's'} "
        "(a hypothetical; WHR moves the past too)"
    )
    wide, named = max(len(i) for i in ids), max(len(n) for n in who)
    print(f"{'id':<{wide}}  {'name':<{named}} {'before':>8} {'after':>8} {'change':>8}")
    for k, (i, n) in enumerate(zip(ids, who, strict=True)):
        before, after, change = (v[k] for v in elo.values())
        shown = "new" if before != before else f"{before:.1f}"
        moved = "" if change != change else f"{change:+.1f}"
        print(f"{i:<{wide}}  {n:<{named}} {shown:>8} {after:>8.1f} {moved:>8}")
    print(f"other players moving by at least 1 Elo: {len(answer.others)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the job from the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    one_heap()  # before any thread
    if argv[:1] == ["backfill"]:
        return backfill(argv[1:])
    if argv[:1] == ["what-if"]:
        return what_if(argv[1:])
    p = parser()
    args = p.parse_args(argv)
    if args.verify:
        return _verify(Path(vars(args).get("out", Run.out)), bool(vars(args).get("wait")))
    if "sources" not in vars(args):
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
        # the temporary Prefect server's start runs beside the imports below
        with hold(run.out, wait=run.wait), temporary_server() as server:
            from flows import pipeline

            result = pipeline.execute(run, verbose=args.verbose, dask=args.dask, server=server)
    except LockedError as exc:
        print(f"{PROG}: {exc}; nothing was done", file=sys.stderr)
        _github_output("failed", run, [])
        return EXIT["locked"]
    except TreeError as exc:
        print(f"{PROG}: failed: {exc}", file=sys.stderr)
        _github_output("failed", run, [])
        return EXIT["failed"]
    except KeyboardInterrupt as exc:
        print(f"{PROG}: interrupted; every list is published whole or not at all", file=sys.stderr)
        _github_output("failed", run, [])
        return 128 + (signal.SIGTERM if isinstance(exc, _Terminated) else signal.SIGINT)
    _github_output(result.outcome, run, result.published)
    stream = sys.stdout if EXIT[result.outcome] == 0 else sys.stderr
    for line in result.lines:  # a damaged file on stderr, whatever the outcome
        where = sys.stderr if line.startswith(BAD) else stream
        print(f"{PROG}: {line}", file=where, flush=True)
    return EXIT[result.outcome]


if __name__ == "__main__":
    sys.exit(main())
