"""Publishing a day of a list as one recoverable transaction, and repairing what a killed run left.

The archive entry is the truth; the current site is a view rendered from it. :func:`publish`:

1. reads the previous list of the same kind (for changes, the summary and the gates) — before
   anything changes, so that a damaged earlier day cannot fail the new list after it went live;
2. builds the day's tables and checks the gates (:mod:`whr.publish.gates`);
3. writes the entry and, when the day is the newest, renders the site from the written entry,
   both inside a work directory ``archive/<list>/.work-<token>/``, and verifies them;
4. commits: moves an existing entry of the same day aside, renames the new entry into place
   (the commit point: from here on the day is published), and exchanges the new site with the
   current one (one ``renameat2(RENAME_EXCHANGE)`` on Linux, two renames elsewhere);
5. tidies: removes what was moved aside, compacts the archive, rewrites the index.

A run killed at any point leaves a tree that :func:`recover` repairs, and every run (and every
``publish``) starts with it: a moved-aside entry whose replacement never arrived is put back,
work directories are removed, and a site that does not show the newest complete day — because
the run died between steps 4's two renames, or the pointer was damaged — is rendered again from
that day's entry. Since the site is always rendered from the entry's files, a repaired tree is
the tree a clean run leaves.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import datetime as dt
import errno
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from whr.digest import file_sha256
from whr.publish import gates
from whr.publish.archive import (
    Entry,
    StateError,
    check_entry,
    compact,
    entries,
    read_list,
    read_pointer,
    write_day_page,
    write_index,
)
from whr.publish.files import make_dir, read_parquet, token, write_json
from whr.publish.layout import Channel, Layout
from whr.publish.lock import COMMIT, hold
from whr.publish.parquet import (
    TABLES,
    build_tables,
    counts,
    fit_record,
    jsonable,
    versions,
    write_entry,
    year_end_lists,
)
from whr.rules import facts_needed
from whr.run import Run
from whr.tables import FACTS_NEEDED, HISTORY, SCHEMA_VERSION, SourceData

if TYPE_CHECKING:
    from whr.engine import Fit
    from whr.rules import Selection

__all__ = ["Published", "absent", "publish", "recover", "render_site", "unchanged"]

MANIFEST_FORMAT = 2
FACTS_NEEDED_FILE = "facts_needed.csv"
"""Tournaments whose unknown minutes or mode hold games' verdicts (:func:`whr.rules.facts_needed`),
ready to be filled and copied into the rules' ``tournament_facts.csv``."""


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
        What the run repaired before it began.
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


# ---------------------------------------------------------------------------------------------
# Exchanging two directories


def _renameat2() -> Any:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        return libc.renameat2
    except (OSError, AttributeError):
        return None


_RENAMEAT2 = _renameat2()
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def swap(new: Path, target: Path) -> None:
    """Put directory ``new`` at ``target``; what was at ``target`` ends up at ``new``.

    Atomic where the system can exchange two names at once (Linux ``renameat2``); elsewhere two
    renames, with a moment without ``target`` that :func:`recover` repairs if the run dies in
    it.
    """
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(new, target)
        return
    if _RENAMEAT2 is not None:
        done = _RENAMEAT2(
            _AT_FDCWD, os.fsencode(new), _AT_FDCWD, os.fsencode(target), _RENAME_EXCHANGE
        )
        if done == 0:
            return
        code = ctypes.get_errno()
        if code not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
            raise OSError(code, os.strerror(code), str(target))
    old = new.with_name(new.name + ".old")
    os.rename(target, old)
    os.rename(new, target)
    os.rename(old, new)


def move_aside(entry: Path) -> Path:
    """Move a published day's entry aside (``.<day>.old-<token>``) before it is replaced."""
    aside = entry.with_name(f".{entry.name}.old-{token()}")
    os.replace(entry, aside)
    return aside


def rename_in(staged: Path, entry: Path) -> None:
    """Rename a verified entry into place: the commit point of a published day."""
    os.rename(staged, entry)


def tidy(layout: Layout, channel: Channel, work: Path, aside: Path | None) -> None:
    """After a commit: remove the work directory and what was moved aside, compact, index."""
    with COMMIT:
        if aside is not None:
            _remove(aside)
        _remove(work)
        compact(layout, channel)
        write_index(layout)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------
# Rendering the site of an entry


def read_tables(entry: Entry) -> dict[str, pd.DataFrame]:
    """Every table of a full entry."""
    return {
        stem: read_parquet(entry.path / f"{stem}.parquet", schema)
        for stem, schema in TABLES.items()
    }


def render_site(layout: Layout, entry: Entry, target: Path) -> None:
    """Render the current site of ``entry``'s list, showing its day, into the new ``target``.

    Everything comes from the entry's files (never from memory), so the site a run renders and
    the site a repair renders are the same.
    """
    from whr.publish.site import write_site

    tables = read_tables(entry)
    year_end = year_end_lists(tables["year_end"])
    options = entry.manifest.get("site") or {}
    site = layout.site(entry.channel)  # where it will be served from
    links = {
        "data": os.path.relpath(layout.day(entry.channel, entry.day), site) + "/",
        "archive": os.path.relpath(layout.archive_html, site),
    }
    write_site(
        target,
        entry.day,
        tables,
        year_end,
        {**entry.manifest, "links": links},
        base_url=options.get("base_url"),
        game_links=bool(options.get("game_links", False)),
    )
    for name in ("ratings.parquet", FACTS_NEEDED_FILE):
        if name in entry.manifest["files"]:
            shutil.copyfile(entry.path / name, target / name)
    write_json(
        target / "latest.json",
        {
            "category": entry.channel.category,
            "variant": entry.channel.variant,
            "date": entry.day.isoformat(),
            "archive": layout.relative(layout.day(entry.channel, entry.day)) + "/",
            "manifest_sha256": entry.manifest_sha256,
        },
    )


def _shows(layout: Layout, channel: Channel, entry: Entry) -> bool:
    pointer = read_pointer(layout, channel)
    return (
        pointer is not None
        and pointer.get("date") == entry.day.isoformat()
        and pointer.get("manifest_sha256") == entry.manifest_sha256
        and (layout.site(channel) / "index.html").is_file()
    )


# ---------------------------------------------------------------------------------------------
# Repair


def _recover_channel(layout: Layout, channel: Channel) -> list[str]:
    said: list[str] = []
    archive = layout.archive(channel)
    for old in sorted(archive.glob(".*.old-*")):
        target = archive / old.name[1:11]
        if not target.exists() and (old / "manifest.json").is_file():
            os.replace(old, target)
            said.append(f"put back {target}, moved aside by a run that was killed")
        else:
            _remove(old)
            said.append(f"removed {old}, left by a run that was killed")
    for work in sorted(archive.glob(".work-*")):
        _remove(work)
        said.append(f"removed {work}, left by a run that was killed")
    for tmp in [*archive.rglob(".*.tmp"), *layout.site(channel).glob(".*.tmp")]:
        tmp.unlink(missing_ok=True)
    good, bad = entries(layout, channel)
    said += [f"damaged: {text}" for text in bad]
    if good and not _shows(layout, channel, good[-1]):
        last = good[-1]
        shown = (read_pointer(layout, channel) or {}).get("date")
        if last.full:
            work = make_dir(archive / f".work-{token()}")
            render_site(layout, last, work / "site")
            swap(work / "site", layout.site(channel))
            _remove(work)
            said.append(
                f"{layout.site(channel)} showed {shown or 'no day'}; it now shows "
                f"{last.day}, the newest published day"
            )
        else:
            said.append(
                f"{layout.site(channel)} shows {shown or 'no day'}, but the newest day "
                f"{last.day} has no tables to render it from; republish it with "
                f"--as-of {last.day} --force REASON"
            )
    compact(layout, channel)
    return said


def recover(out: str | os.PathLike[str], channel: Channel | None = None) -> list[str]:
    """Repair what killed runs left in the published tree ``out``; return what was repaired.

    Parameters
    ----------
    out : path
        The published tree.
    channel : Channel, optional
        Only this list (``publish`` repairs its own list; a run repairs them all).

    Returns
    -------
    list of str
        One sentence per repair, and per damaged day found (damaged days are reported, never
        deleted).
    """
    layout = Layout(Path(out))
    if not layout.out.is_dir():
        return []
    with hold(layout.out), COMMIT:
        said = []
        for ch in [channel] if channel is not None else layout.channels():
            said += _recover_channel(layout, ch)
        for tmp in layout.out.glob(".*.tmp"):
            tmp.unlink(missing_ok=True)
        if layout.channels():
            write_index(layout)
        return said


# ---------------------------------------------------------------------------------------------
# "No new data"


def unchanged(
    run: Run, category: str, inputs_sha256: str, rules_sha256: str
) -> dict[str, Any] | None:
    """The manifest of the published day that this run would publish again, else None.

    The day is the same when its entry is complete and was made from the same input with the
    same parameters (:meth:`whr.run.Run.parameters`); a damaged entry is never "the same".
    """
    layout = Layout(run.out)
    path = layout.day(Channel(category, run.variant), run.as_of)
    if not path.is_dir():
        return None
    found = check_entry(path)
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


# ---------------------------------------------------------------------------------------------
# Publishing


def _previous(
    published: list[Entry], day: dt.date
) -> tuple[Entry | None, pd.DataFrame | None, pd.DataFrame | None, list[str]]:
    """The previous list of the same kind: its entry, its rows and, when the entry still holds
    it, its rating history (for the split of the changes). A damaged one is a warning."""
    earlier = [e for e in published if e.day < day]
    if not earlier:
        return None, None, None, []
    entry = earlier[-1]
    try:
        rows = read_list(entry)
        history = read_parquet(entry.path / "history.parquet", HISTORY) if entry.full else None
        return entry, rows, history, []
    except Exception as exc:  # a damaged Parquet file raises pyarrow's own errors
        what = exc if isinstance(exc, (StateError, OSError)) else f"{type(exc).__name__}: {exc}"
        return (
            None,
            None,
            None,
            [f"the previous list could not be read ({what}); changes are not shown"],
        )


def publish(
    run: Run,
    category: str,
    data: SourceData,
    selection: Selection,
    fit: Fit,
    *,
    rules_sha256: str,
    base_url: str | None = None,
    game_links: bool = False,
) -> Published:
    """Publish the list of ``category`` on ``run.as_of``: archive entry, current site, index.

    Parameters
    ----------
    run : whr.run.Run
        The run (output tree, list date, variant, force reason, gates, parameters).
    category : str
        The rule category of this list.
    data : whr.tables.SourceData
        What was read.
    selection : whr.rules.Selection
        Eligibility's result for ``category``.
    fit : whr.engine.Fit
        The fit of ``selection.rated``.
    rules_sha256 : str
        Digest of the eligibility rules directory (from :meth:`whr.run.Run.check_local`).
    base_url : str, optional
        Public address of the site directory, for ``sitemap.xml``.
    game_links : bool
        Link results to renju.net game pages (real RenjuNet databases only).

    Returns
    -------
    Published

    Raises
    ------
    whr.publish.gates.GateError
        When a gate refuses the list and ``run.force`` is None; nothing was published.
    whr.publish.parquet.PublishError
        When the written files do not verify; nothing was published.
    """
    if category not in run.categories:
        raise ValueError(f"category: expected one of the run's {run.categories}, got {category!r}")
    if base_url is not None:
        from whr.publish.site import check_base_url

        base_url = check_base_url(base_url)  # refuse a bad address before any work
    if not isinstance(game_links, bool):
        raise TypeError(f"game_links must be a bool, got {type(game_links).__name__}")
    layout = Layout(run.out)
    channel = Channel(category, run.variant)
    day = run.as_of
    with hold(layout.out, wait=run.wait):
        repaired = recover(layout.out, channel)
        published, _ = entries(layout, channel)
        latest = published[-1] if published else None
        previous, before, before_history, warnings = _previous(published, day)
        gates.check_size(selection.rated, run.max_players)  # before anything is built
        tables, _ = build_tables(
            day, data, selection, fit, previous=before, previous_history=before_history
        )
        needed = facts_needed(selection)
        now = counts(tables, selection) | {
            "facts_needed": {"tournaments": len(needed), "games": int(needed["games"].sum())}
        }
        failed = gates.check(
            now,
            previous.manifest.get("counts") if previous else None,
            previous.day if previous else None,
            run.max_shrink,
        )
        if failed and run.force is None:
            raise gates.GateError(gates.refusal(failed))
        forced = None
        if run.force is not None:  # the manifest names everything --force overrode
            overrode = list(failed)
            if unchanged(run, category, data.sha256, rules_sha256) is not None:
                overrode.insert(0, f"no new data: the input and parameters equal those of {day}")
            forced = {"reason": run.force, "overrode": overrode}
            warnings += [f"published although {f} (--force: {run.force})" for f in failed]
        info = {
            "format": MANIFEST_FORMAT,
            "list": {"category": category, "variant": run.variant},
            "as_of": day.isoformat(),
            "schema_version": SCHEMA_VERSION,
            "parameters": run.parameters(category, rules_sha256),
            "run": run.record(),
            "forced": forced,
            "fit_params": jsonable(getattr(fit, "params", None)),
            "fit": fit_record(fit),
            "inputs": [{"name": n, "sha256": h} for n, h in data.inputs],
            "inputs_sha256": data.sha256 if data.inputs else None,
            "counts": now,
            "previous": {
                "date": previous.day.isoformat(),
                "manifest_sha256": previous.manifest_sha256,
            }
            if previous
            else None,
            "warnings": warnings,
            "site": {"base_url": base_url, "game_links": game_links},
            "packages": versions(),
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
        work = make_dir(layout.archive(channel) / f".work-{token()}")
        try:
            staged = make_dir(work / "entry")
            manifest = write_entry(
                staged, tables, info, csv={FACTS_NEEDED_FILE: (needed, FACTS_NEEDED)}
            )
            entry = Entry(channel, day, staged, manifest, file_sha256(staged / "manifest.json"))
            write_day_page(layout, entry, tables["ratings"], at=layout.day(channel, day))
            shows = latest is None or day >= latest.day
            if shows:
                render_site(layout, entry, work / "site")
            with COMMIT:
                target = layout.day(channel, day)
                aside = move_aside(target) if target.exists() else None
                try:
                    rename_in(staged, target)
                    if shows:
                        swap(work / "site", layout.site(channel))
                except BaseException:
                    if target.exists() and not staged.exists():
                        os.rename(target, staged)
                    if aside is not None:
                        os.replace(aside, target)
                    raise
        except BaseException:
            if work.exists():
                _remove(work)
            raise
        # Committed: the day is published. What is left is tidying, which the next run's
        # repair also does, so a failure here is a warning, not a failed list.
        try:
            tidy(layout, channel, work, aside)
        except Exception as exc:
            warnings.append(f"tidying after the publish failed ({exc}); the next run repairs it")
    return Published(
        channel=channel,
        day=day,
        entry=layout.day(channel, day),
        site=layout.site(channel) if shows else None,
        ratings=tables["ratings"],
        previous_day=previous.day if previous else None,
        previous=before,
        warnings=tuple(warnings),
        repaired=tuple(repaired),
        counts=now,
    )
