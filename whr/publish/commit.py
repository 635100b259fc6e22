"""Publishing a day of a list as one recoverable transaction.

The archive entry is the truth; the current site is a view rendered from it; the ledger
(:mod:`whr.publish.ledger`) records what was published. The lists are built before
(:func:`whr.lists.build`, from the previous list of the same kind that
:func:`whr.publish.previous` reads: before anything changes, so that a damaged earlier day
cannot fail the new list after it went live). :func:`publish` writes the
:class:`whr.lists.Snapshot` it is given and decides nothing about what is on the list:

1. checks that the snapshot was built against the list that is still the previous one, that
   it loses nothing the day it replaces held, and the gates (:mod:`whr.publish.gates`);
2. writes the entry and, when the day is the newest, renders the site from the written entry,
   both inside a work directory ``archive/<list>/.work-<token>/``, and verifies them;
3. commits: appends the day's line to the ledger (the commit point: from here on the day is
   published), moves an existing entry of the same day aside, renames the new entry into
   place, and exchanges the new site with the current one (one ``renameat2(RENAME_EXCHANGE)``
   on Linux, two renames elsewhere);
4. tidies: removes what was moved aside, compacts the archive, rewrites the index.

A run killed at any point leaves a tree that the next run's check (:mod:`whr.publish.repair`)
finishes: before the commit point nothing was published (the work is removed); after it, the
staged entry is put in place and the site rendered from it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from whr.digest import bytes_sha256
from whr.lists import Snapshot
from whr.publish import gates
from whr.publish.archive import (
    Damaged,
    Entry,
    StateError,
    check,
    compact,
    day_page,
    scan,
    write_index,
)
from whr.publish.files import is_dir, kind, make_dir, read_bytes, remove, token, write_bytes
from whr.publish.layout import Channel, Layout
from whr.publish.ledger import MARK, RESTORE, LedgerError, Records
from whr.publish.lock import COMMIT, hold
from whr.publish.parquet import jsonable, versions, write_entry
from whr.publish.previous import previous
from whr.publish.render import FACTS_NEEDED_FILE, render_site, swap, write_pointer
from whr.publish.repair import Tree, Verified, check_and_repair, recover, today, verify
from whr.run import Run
from whr.tables import FACTS_NEEDED, FORMAT_VERSION, SourceData

__all__ = [
    "Published",
    "Verified",
    "absent",
    "check_and_repair",
    "manifest",
    "previous",
    "publish",
    "recover",
    "render_site",
    "unchanged",
    "verify",
]


@dataclass(frozen=True)
class Published:
    """What :func:`publish` did.

    Attributes
    ----------
    channel : Channel
        The list (category, and variant if any).
    day : datetime.date
        The list date.
    entry : Path
        The day's archive entry.
    site : Path or None
        The current site, when it now shows this day (None for a past day).
    ratings : pandas.DataFrame
        The day's list.
    previous_day : datetime.date or None
        The previous list of the same kind, compared with this one.
    previous : pandas.DataFrame or None
        Its list (None when there is none or it could not be read).
    warnings : tuple of str
        What went wrong without stopping the list (a damaged earlier day, a gate overridden).
    repaired : tuple of str
        What the run found and repaired in the archive before it began, one line each
        (``repaired: ...``, ``damaged: ...``: see :func:`recover`).
    counts : dict
        The manifest's counts (players by status, rated games, facts needed, ...).
    """

    channel: Channel
    day: dt.date
    entry: Path
    site: Path | None
    ratings: pd.DataFrame
    previous_day: dt.date | None = None
    previous: pd.DataFrame | None = None
    warnings: tuple[str, ...] = ()
    repaired: tuple[str, ...] = field(default=())
    counts: dict[str, Any] = field(default_factory=dict)


def move_aside(entry: Path) -> Path:
    """Move a published day's entry aside (``.<day>.old-<token>``) before it is replaced."""
    aside = entry.with_name(f".{entry.name}.old-{token()}")
    os.replace(entry, aside)
    return aside


def rename_in(staged: Path, entry: Path) -> None:
    """Rename a verified entry into place (after the commit point: the ledger holds it)."""
    os.rename(staged, entry)


def tidy(
    layout: Layout, channel: Channel, work: Path, aside: Path | None, hashes: dict[Path, Any]
) -> list[str]:
    """After a commit: remove the work directory and what was moved aside, compact, index."""
    with COMMIT:
        if aside is not None:
            remove(aside)
        remove(work)
        records = Records.read(layout.out)
        said = compact(layout, channel, hashes=hashes, records=records, today=today())
        found = scan(layout, channel, hashes=hashes, records=records)
        return said + write_index(layout, {channel: found}, records, hashes)


def _entry_of(tree: Tree, channel: Channel, day: dt.date) -> Entry | Damaged | None:
    found = tree.of(channel)
    entries: list[Entry | Damaged] = [*found.good, *found.damaged]
    return next((e for e in entries if e.day == day), None)


def unchanged(
    run: Run, category: str, inputs_sha256: str, rules_sha256: str, tree: Tree | None = None
) -> dict[str, Any] | None:
    """The manifest of the published day that this run would publish again, else None.

    The day is the same when its entry checks and was made from the same input with the same
    parameters (:meth:`whr.run.Run.parameters`); a damaged entry is never "the same".
    ``tree``: the tree as the run checked it (else the day is checked here).
    """
    channel = Channel(category, run.variant)
    if tree is not None:
        found = _entry_of(tree, channel, run.as_of)
    else:
        path = Layout(run.out).day(channel, run.as_of)
        if not is_dir(path):
            return None
        records = Records.read(Layout(run.out).out)
        found = check(path, run.as_of, channel, records.expected(path / "manifest.json"), {})
    if not isinstance(found, Entry):
        return None
    recorded = found.manifest.get("parameters") or {}
    same = found.manifest.get("inputs_sha256") == inputs_sha256 and all(
        recorded.get(k) == v for k, v in run.parameters(category, rules_sha256).items()
    )
    return found.manifest if same else None


def absent(run: Run, data: SourceData) -> dict[str, str]:
    """The run's categories that have nothing to publish, each with the sentence that says so.

    A category is absent when no tournament of the input is of it and its list was never
    published (for example gomoku, when the input is a directory of renju tables). A list that
    was published before is never absent: if its games vanish, the gates refuse it.
    """
    present = set(data.tournaments["category"].dropna())
    layout = Layout(run.out)
    records = Records.read(layout.out)

    def published(channel: Channel) -> bool:
        if records.authority:
            return bool(records.ledger.days(layout, channel))
        return bool(layout.days(channel))

    return {
        c: f"no {c} tournament in the input and no {c} list published before: nothing to publish"
        for c in run.categories
        if c not in present and not published(Channel(c, run.variant))
    }


def _built_against(published: list[Entry], snapshot: Snapshot) -> Entry | None:
    """The entry of the list the snapshot's changes were measured from (None: none, or one that
    could not be read); refuses a snapshot built against another list than the previous one."""
    earlier = [e for e in published if e.day < snapshot.as_of]
    entry = earlier[-1] if earlier else None
    built = snapshot.previous
    if (entry.day if entry else None) != (built.day if built else None):
        now = f"the list of {entry.day}" if entry else "none"
        then = f"the list of {built.day}" if built else "no previous list"
        raise StateError(
            f"the {snapshot.category} lists of {snapshot.as_of} were built against {then}, but "
            f"the previous published list is {now}: build them again "
            "(whr.lists.build with whr.publish.previous)"
        )
    return entry if built is not None and built.ratings is not None else None


KEPT_ROWS = {
    "changes_at_the_time": "changes at the time that earlier lists gave (tournament_changes.parquet)",
    "of_this_list": "changes at the time of the tournaments this list first rated",
    "record": "rows of the record of earlier lists (record.parquet)",
}
"""What a day keeps of what the lists published, counted in its manifest (``kept``): a
republish of the day never keeps less (:func:`_loses`)."""


def kept(snapshot: Snapshot) -> dict[str, int]:
    """How much of what the lists published the snapshot keeps (:data:`KEPT_ROWS`)."""
    day = snapshot.as_of
    first = snapshot.tables.tournament_changes["first_list_date"]
    return {
        "changes_at_the_time": int(sum(d < day for d in first)),
        "of_this_list": int(sum(d == day for d in first)),
        "record": int(sum(d < day for d in snapshot.tables.record["list_date"])),
    }


def _held(manifest: dict[str, Any]) -> dict[str, int]:
    """What a published day's manifest says it kept (:data:`KEPT_ROWS`; nothing for a day
    published before ``kept`` was counted)."""
    recorded = manifest.get("kept")
    if not isinstance(recorded, dict):
        return {}
    return {k: v for k, v in recorded.items() if k in KEPT_ROWS and isinstance(v, int)}


def _loses(snapshot: Snapshot, old: Entry | Damaged | None, force: str | None) -> None:
    """Refuse to replace a published day that is damaged without ``--force`` (the damage is the
    operator's to look at); and, forced or not, to replace a day with a list that keeps fewer
    of the earlier lists' changes at the time or record rows than the day did, or that drops
    the changes at the time of the tournaments the day first rated because the list it is
    measured from no longer holds what they are computed from (:data:`KEPT_ROWS`)."""
    day = snapshot.as_of
    if isinstance(old, Damaged) and force is None:
        raise StateError(
            f"the {snapshot.category} list of {day} is published and damaged: {old.what}. A run "
            "does not publish a damaged day again over the damage; restore it as said, or "
            "republish it with --force REASON"
        )
    was = _held(old.manifest) if old is not None and old.manifest is not None else {}
    now = kept(snapshot)
    before = snapshot.previous
    rebuilds = before is not None and before.history is not None and before.games is not None
    lost = [
        f"{was[k] - now[k]:,} of its {was[k]:,} {KEPT_ROWS[k]}"
        for k in was
        if now[k] < was[k] and (k != "of_this_list" or not rebuilds)
    ]
    if lost:
        raise StateError(
            f"refused to publish the {snapshot.category} list of {day} again: it would lose "
            f"{'; '.join(lost)}, which the published day holds. Nothing was published; restore "
            "the day from a copy of the published tree if it is damaged (docs/operations.md, "
            "The ledger), or run rif-rating backfill first so that the changes at the time are "
            "rebuilt"
        )


def manifest(
    run: Run,
    snapshot: Snapshot,
    *,
    rules_sha256: str,
    previous: Entry | None,
    forced: dict[str, Any] | None,
    warnings: list[str],
    site: dict[str, Any],
    created: dt.datetime,
) -> dict[str, Any]:
    """The manifest of a day (without ``files``, which :func:`write_entry` adds): the run,
    the snapshot and the inputs, with what this publish decided (the forced gates, the
    warnings, the site's options) and when; ``ledger`` says it is recorded in the ledger."""
    return {
        "format": FORMAT_VERSION,
        "list": {"category": snapshot.category, "variant": run.variant},
        "as_of": snapshot.as_of.isoformat(),
        "schema_version": str(FORMAT_VERSION),
        "parameters": run.parameters(snapshot.category, rules_sha256),
        "run": run.record(),
        "forced": forced,
        "fit_params": jsonable(snapshot.fit.params),
        "fit": {"iterations": snapshot.fit.iterations, "converged": snapshot.fit.converged},
        "rules": snapshot.rules.record(),
        "inputs": [{"name": n, "sha256": h} for n, h in snapshot.inputs],
        "inputs_sha256": snapshot.inputs_sha256 if snapshot.inputs else None,
        "counts": snapshot.counts.record(),
        "kept": kept(snapshot),
        "previous": {"date": previous.day.isoformat(), "manifest_sha256": previous.manifest_sha256}
        if previous
        else None,
        "warnings": warnings,
        "site": site,
        "ledger": MARK,
        "packages": versions(),
        "created": created.isoformat(timespec="seconds"),
    }


def _gated(
    run: Run, snapshot: Snapshot, before: Entry | None, same: bool
) -> tuple[dict[str, Any] | None, list[str]]:
    """The gates (:mod:`whr.publish.gates`): raise when one refuses the list and nothing forces
    it; else what ``--force`` overrode (None without it) and the list's warnings. ``same``: the
    day is published already from the same input and parameters ("no new data")."""
    warnings = list(snapshot.warnings)
    failed = gates.check(
        snapshot.counts.record(),
        before.manifest.get("counts") if before else None,
        before.day if before else None,
        run.max_shrink,
    )
    if failed and run.force is None:
        raise gates.GateError(gates.refusal(failed))
    if run.force is None:
        return None, warnings
    overrode = list(failed)  # the manifest names everything --force overrode
    if same:
        overrode.insert(0, f"no new data: the input and parameters equal those of {run.as_of}")
    warnings += [f"published although {f} (--force: {run.force})" for f in failed]
    return {"reason": run.force, "overrode": overrode}, warnings


def _commit(
    layout: Layout,
    channel: Channel,
    snapshot: Snapshot,
    info: dict[str, Any],
    shows: bool,
    forced: str | None,
) -> tuple[Path, Path | None]:
    """Steps 2 and 3 (see the module docstring): write the entry (and, when it ``shows``, the
    site) in a work directory, then commit; returns the work directory and the entry moved
    aside (None: the day was not published before). Before the commit point, undone and
    removed on any failure; after it, left for the next run to finish."""
    day = snapshot.as_of
    work = make_dir(layout.archive(channel) / f".work-{token()}")
    target = layout.day(channel, day)
    try:
        staged = make_dir(work / "entry")
        written = write_entry(
            staged,
            snapshot.tables,
            info,
            csv={FACTS_NEEDED_FILE: (snapshot.facts_needed, FACTS_NEEDED)},
        )
        data = read_bytes(staged / "manifest.json")
        entry = Entry(channel, day, staged, written, bytes_sha256(data))
        page = day_page(layout, entry, snapshot.tables.ratings, at=target)
        write_bytes(staged / "index.html", page)
        if shows:
            render_site(layout, entry, work / "site", snapshot.view)
        with COMMIT:
            records = Records.read(layout.out)
            if records.ledger.problem is not None:
                raise LedgerError(f"{records.ledger.problem}; {RESTORE}")
            text = records.ledger.line(
                "publish", {target / "manifest.json": data}, channel=channel,
                at=dt.datetime.fromisoformat(info["created"]), day=day.isoformat(), forced=forced,
            )  # fmt: skip
            if shows:
                line = (len(records.ledger.raw) + 1, bytes_sha256(text))
                write_pointer(layout, dataclasses.replace(entry, path=target), work / "site", line)
            records.sums.expect({target / "index.html": page})  # the day's page, a view
            records.ledger.append(text, records.sums)  # the commit point
    except BaseException:
        remove(work)
        raise
    # Published: what is left puts it in place; on a failure the next run finishes it.
    with COMMIT:
        try:
            aside = move_aside(target) if kind(target) is not None else None
            rename_in(staged, target)
            if shows:
                swap(work / "site", layout.site(channel))
        except OSError as exc:
            raise StateError(
                f"the {channel} list of {day} is published (the ledger records it), but it could "
                f"not be put in place ({exc}); the next run puts it in place"
            ) from exc
    return work, aside


def publish(
    run: Run,
    snapshot: Snapshot,
    *,
    rules_sha256: str,
    tree: Tree | None = None,
) -> Published:
    """Publish ``snapshot``, the list of its category on ``run.as_of``: archive entry, ledger
    line, current site, index. The site's public address is ``run.base_url`` followed by the
    site's folder (``renju/``), and its game links follow ``run.game_links``; both are recorded
    in the manifest (``site``), so a repair renders the same site.

    Parameters
    ----------
    run : whr.run.Run
        The run (output tree, list date, variant, force reason, gates, parameters).
    snapshot : whr.lists.Snapshot
        The day's lists (:func:`whr.lists.build`), built against :func:`previous`.
    rules_sha256 : str
        Digest of the eligibility rules directory (from :meth:`whr.run.Run.check_local`).
    tree : whr.publish.repair.Tree, optional
        The tree as the run checked it (:func:`whr.publish.check_and_repair`), under the lock
        it holds since; without it, the list's archive is checked here first.

    Returns
    -------
    Published

    Raises
    ------
    whr.publish.gates.GateError
        When a gate refuses the list and ``run.force`` is None; nothing was published.
    whr.publish.archive.StateError
        When the snapshot was built against another list than the previous published one, or
        would replace a damaged day without ``--force``, or lose what the day it replaces
        held; nothing was published.
    whr.publish.ledger.LedgerError
        When the ledger is missing or damaged; nothing was published.
    whr.publish.parquet.PublishError
        When the written files do not verify; nothing was published.
    """
    if not isinstance(snapshot, Snapshot):
        raise TypeError(f"snapshot must be a whr.lists.Snapshot, got {type(snapshot).__name__}")
    category = snapshot.category
    if category not in run.categories:
        raise ValueError(f"category: expected one of the run's {run.categories}, got {category!r}")
    if snapshot.as_of != run.as_of:
        raise ValueError(
            f"snapshot: the lists of {snapshot.as_of}, but the run's day is {run.as_of}"
        )
    layout = Layout(run.out)
    channel = Channel(category, run.variant)
    base_url = None  # the site's own address (the run checked run.base_url)
    if run.base_url is not None:
        base_url = run.base_url + layout.relative(layout.site(channel)) + "/"
    day = run.as_of
    with hold(layout.out, wait=run.wait):
        if tree is None:
            tree = check_and_repair(run.out, channel)
        repaired = tree.said
        if tree.problem is not None:
            raise LedgerError(f"{tree.problem}; {RESTORE}")
        published = tree.of(channel).shown(today())
        latest = published[-1] if published else None
        before = _built_against(published, snapshot)
        old = _entry_of(tree, channel, day)
        _loses(snapshot, old, run.force)
        same = (
            isinstance(old, Entry)
            and unchanged(run, category, snapshot.inputs_sha256, rules_sha256, tree) is not None
        )
        forced, warnings = _gated(run, snapshot, before, same)
        info = manifest(
            run,
            snapshot,
            rules_sha256=rules_sha256,
            previous=before,
            forced=forced,
            warnings=warnings,
            site={"base_url": base_url, "game_links": run.game_links},
            created=dt.datetime.now(dt.UTC),
        )
        shows = latest is None or day >= latest.day
        work, aside = _commit(layout, channel, snapshot, info, shows, run.force)
        # Committed: the day is published. What is left is tidying, which the next run's
        # repair also does, so a failure here is a warning, not a failed list.
        try:
            warnings += tidy(layout, channel, work, aside, tree.hashes)
        except Exception as exc:
            warnings.append(f"tidying after the publish failed ({exc}); the next run repairs it")
    return Published(
        channel=channel,
        day=day,
        entry=layout.day(channel, day),
        site=layout.site(channel) if shows else None,
        ratings=snapshot.tables.ratings,
        previous_day=before.day if before else None,
        previous=snapshot.previous.ratings if before and snapshot.previous else None,
        warnings=tuple(warnings),
        repaired=tuple(repaired),
        counts=snapshot.counts.record(),
    )
