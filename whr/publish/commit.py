"""Publishing a day of a list as one recoverable transaction, and repairing what a killed run left.

The archive entry is the truth; the current site is a view rendered from it. The lists are
built before (:func:`whr.lists.build`, from the previous list of the same kind that
:func:`previous` reads: before anything changes, so that a damaged earlier day cannot fail the
new list after it went live). :func:`publish` writes the :class:`whr.lists.Snapshot` it is given
and decides nothing about what is on the list:

1. checks that the snapshot was built against the list that is still the previous one;
2. checks the gates (:mod:`whr.publish.gates`);
3. writes the entry and, when the day is the newest, renders the site from the written entry,
   both inside a work directory ``archive/<list>/.work-<token>/``, and verifies them;
4. commits: moves an existing entry of the same day aside, renames the new entry into place
   (the commit point: from here on the day is published), and exchanges the new site with the
   current one (one ``renameat2(RENAME_EXCHANGE)`` on Linux, two renames elsewhere);
5. tidies: removes what was moved aside, compacts the archive, rewrites the index.

A run killed at any point leaves a tree that :func:`recover` repairs, and every run (and every
``publish``) starts with it: planted links are removed or refused
(:func:`whr.publish.archive.check_tree`), a moved-aside entry whose replacement never arrived is
put back (only when its manifest names that day and its files match their checksums), work
directories and temporary files are removed, the archive is checked
(:func:`whr.publish.archive.scan`), a site that does not show the newest complete day — because
the run died between step 4's two renames, or the pointer or the site's copy of the list was
damaged — is rendered again from that day's entry, and an interrupted compaction is finished.
The site shows exactly what the entry's files hold (a publish draws it from the snapshot it has
just written, a repair from the files), so a repaired tree is the tree a clean run leaves.
Every file of the archive is checked against its recorded sha256 on the way
(:mod:`whr.publish.checksums`); :func:`verify` (``rif-rating --verify``) does the same and
says whether anything was found damaged.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from whr.lists import Snapshot
from whr.publish import gates
from whr.publish.archive import (
    Entry,
    StateError,
    check_day,
    compact,
    day_page,
    scan,
    write_index,
)
from whr.publish.checksums import Checksums
from whr.publish.files import (
    is_dir,
    kind,
    make_dir,
    read_bytes,
    remove,
    sha256,
    token,
    write_bytes,
)
from whr.publish.layout import Channel, Layout
from whr.publish.lock import COMMIT, hold
from whr.publish.parquet import jsonable, versions, write_entry
from whr.publish.previous import previous
from whr.publish.render import FACTS_NEEDED_FILE, render_site, swap
from whr.publish.repair import Verified, _repair, recover, verify
from whr.run import Run
from whr.tables import (
    FACTS_NEEDED,
    FORMAT_VERSION,
    SourceData,
)

__all__ = [
    "Published",
    "Verified",
    "absent",
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
    """Rename a verified entry into place: the commit point of a published day."""
    os.rename(staged, entry)


def tidy(
    layout: Layout, channel: Channel, work: Path, aside: Path | None, hashes: dict[Path, Any]
) -> list[str]:
    """After a commit: remove the work directory and what was moved aside, compact, index."""
    with COMMIT:
        if aside is not None:
            remove(aside)
        remove(work)
        sums = Checksums.read(layout.out)
        said = compact(layout, channel, hashes=hashes, sums=sums)
        found = scan(layout, channel, hashes=hashes, sums=sums)
        return said + write_index(layout, {channel: found}, sums, hashes)


def unchanged(
    run: Run, category: str, inputs_sha256: str, rules_sha256: str
) -> dict[str, Any] | None:
    """The manifest of the published day that this run would publish again, else None.

    The day is the same when its entry is complete and was made from the same input with the
    same parameters (:meth:`whr.run.Run.parameters`); a damaged entry is never "the same".
    """
    layout = Layout(run.out)
    channel = Channel(category, run.variant)
    path = layout.day(channel, run.as_of)
    if not is_dir(path):
        return None
    found = check_day(path, run.as_of, channel, "all", {}, Checksums.read(layout.out))
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
    return {
        c: f"no {c} tournament in the input and no {c} list published before: nothing to publish"
        for c in run.categories
        if c not in present and not layout.days(Channel(c, run.variant))
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
    warnings, the site's options) and when."""
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
        "previous": {"date": previous.day.isoformat(), "manifest_sha256": previous.manifest_sha256}
        if previous
        else None,
        "warnings": warnings,
        "site": site,
        "packages": versions(),
        "created": created.isoformat(timespec="seconds"),
    }


def _gated(
    run: Run, snapshot: Snapshot, before: Entry | None, rules_sha256: str
) -> tuple[dict[str, Any] | None, list[str]]:
    """The gates (:mod:`whr.publish.gates`): raise when one refuses the list and nothing forces
    it; else what ``--force`` overrode (None without it) and the list's warnings."""
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
    if unchanged(run, snapshot.category, snapshot.inputs_sha256, rules_sha256) is not None:
        overrode.insert(0, f"no new data: the input and parameters equal those of {run.as_of}")
    warnings += [f"published although {f} (--force: {run.force})" for f in failed]
    return {"reason": run.force, "overrode": overrode}, warnings


def _commit(
    layout: Layout, channel: Channel, snapshot: Snapshot, info: dict[str, Any], shows: bool
) -> tuple[Path, Path | None]:
    """Steps 3 and 4 (see the module docstring): write the entry (and, when it ``shows``, the
    site) in a work directory, then commit; returns the work directory and the entry moved
    aside (None: the day was not published before). Undone and removed on any failure."""
    day = snapshot.as_of
    work = make_dir(layout.archive(channel) / f".work-{token()}")
    try:
        staged = make_dir(work / "entry")
        written = write_entry(
            staged,
            snapshot.tables,
            info,
            csv={FACTS_NEEDED_FILE: (snapshot.facts_needed, FACTS_NEEDED)},
        )
        entry = Entry(channel, day, staged, written, sha256(staged / "manifest.json"))
        target = layout.day(channel, day)
        page = day_page(layout, entry, snapshot.tables.ratings, at=target)
        write_bytes(staged / "index.html", page)
        if shows:
            render_site(layout, entry, work / "site", snapshot.view)
        with COMMIT:
            # recorded before the day is renamed in: what the entry holds from then on
            Checksums.read(layout.out).expect(
                {target / "manifest.json": read_bytes(staged / "manifest.json"),
                 target / "index.html": page}
            )  # fmt: skip
            aside = move_aside(target) if kind(target) is not None else None
            try:
                rename_in(staged, target)
                if shows:
                    swap(work / "site", layout.site(channel))
            except BaseException:
                if kind(target) is not None and kind(staged) is None:
                    os.rename(target, staged)
                if aside is not None:
                    os.replace(aside, target)
                raise
    except BaseException:
        remove(work)
        raise
    return work, aside


def publish(
    run: Run,
    snapshot: Snapshot,
    *,
    rules_sha256: str,
) -> Published:
    """Publish ``snapshot``, the list of its category on ``run.as_of``: archive entry, current
    site, index. The site's public address is ``run.base_url`` followed by the site's folder
    (``renju/``), and its game links follow ``run.game_links``; both are recorded in the
    manifest (``site``), so a repair renders the same site.

    Parameters
    ----------
    run : whr.run.Run
        The run (output tree, list date, variant, force reason, gates, parameters).
    snapshot : whr.lists.Snapshot
        The day's lists (:func:`whr.lists.build`), built against :func:`previous`.
    rules_sha256 : str
        Digest of the eligibility rules directory (from :meth:`whr.run.Run.check_local`).

    Returns
    -------
    Published

    Raises
    ------
    whr.publish.gates.GateError
        When a gate refuses the list and ``run.force`` is None; nothing was published.
    whr.publish.archive.StateError
        When the snapshot was built against another list than the previous published one.
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
    hashes: dict[Path, Any] = {}
    with hold(layout.out, wait=run.wait):
        with COMMIT:
            repaired, scans = _repair(layout, [channel], hashes)
        published = scans[channel].good
        latest = published[-1] if published else None
        before = _built_against(published, snapshot)
        forced, warnings = _gated(run, snapshot, before, rules_sha256)
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
        work, aside = _commit(layout, channel, snapshot, info, shows)
        # Committed: the day is published. What is left is tidying, which the next run's
        # repair also does, so a failure here is a warning, not a failed list.
        try:
            warnings += tidy(layout, channel, work, aside, hashes)
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
