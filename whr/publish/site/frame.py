"""The site's machinery: the page frame and templates, the writer, data files, page workers.

Every text value that comes from outside goes through ``markupsafe.escape`` (rows assembled
by the page families, because there are hundreds of thousands of them) or Jinja2's
autoescaping (templates); JSON inside pages through :func:`script_json`, which cannot close a
``<script>`` element. The large tables (the lists, the players and tournaments indexes) are
data files under ``data/`` that the page script draws, rendering only the rows on screen; a
data file's name carries a digest of its contents, so a page never meets another day's data in
a browser's cache.

Player and tournament pages are written in chunks of consecutive players (tournaments), by
:class:`Pages`: only one chunk's strings exist at a time, and the chunks can be shared among
worker processes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import datetime as dt
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

import jinja2
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from markupsafe import Markup, escape

from whr.digest import text_sha256
from whr.lists import View
from whr.publish.site.contract import Table, tables
from whr.publish.site.i18n import N_, _, attr, counted, inner, joined, mark, message_id
from whr.publish.site.names import text
from whr.publish.site.rows import Source
from whr.tables import days_of

HERE = Path(__file__).parent
UNKNOWN_CITIES = frozenset(["", "?", "-", "--", "—", "–"])
"""City texts that mean "not known" (RenjuNet uses ``?``); shown as nothing."""
MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
NAT = np.iinfo(np.int64).min  # a missing day, as days since 1970-01-01
CHUNK = 2000  # players (tournaments) per chunk of pages
PARALLEL_FROM = 4000  # pages of players and tournaments from which to use several processes


# --- formatting ---------------------------------------------------------------------------------


def long_date(day: dt.date) -> Markup:
    """``30 November 2026``: a date for headings, in a ``<time>`` that the page script writes
    in the reader's language."""
    return Markup(
        f"<time datetime={day.isoformat()}>{day.day} {MONTHS[day.month - 1]} {day.year}</time>"
    )


def shown(value: Any) -> str:
    """A recorded value (a manifest's parameter, count, fit setting) as a reader reads it:
    never Python's spelling ("None", "False", "['a']"): "none", "no", "a, b", "w2 12.9"."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(shown(v) for v in value) or "none"
    if isinstance(value, Mapping):
        return "; ".join(f"{k} {shown(v)}" for k, v in value.items()) or "none"
    return str(value)


def city(value: Any) -> str:
    """A city name, "" when the source does not know it (see ``UNKNOWN_CITIES``)."""
    out = text(value).strip()
    return "" if out in UNKNOWN_CITIES else out


def floats(values: object) -> np.ndarray:
    """A column as float64 (None, NA → NaN)."""
    series = values if isinstance(values, pd.Series) else pd.Series(values)
    try:
        return series.to_numpy(np.float64, na_value=np.nan)
    except (TypeError, ValueError):
        return pd.to_numeric(series, errors="coerce").to_numpy(np.float64)


def days(values: object) -> np.ndarray:
    """Dates as days since 1970-01-01 (int64; a missing date is ``NAT``), through the one date
    converter (:func:`whr.tables.days_of`)."""
    return days_of(values).astype(np.int64)


def iso(day_numbers: np.ndarray) -> list[str]:
    """Days since 1970-01-01 as ISO dates."""
    return [str(d) for d in np.asarray(day_numbers, np.int64).astype("datetime64[D]").astype(str)]


def whole(values: np.ndarray) -> list[str]:
    """Numbers as whole Elo text ("" for NaN), rounded as Python's format does."""
    r = np.rint(np.asarray(values, np.float64))
    return ["" if v != v else str(int(v)) for v in r.tolist()]


def json_numbers(values: np.ndarray) -> list[str]:
    """Whole numbers as JSON text, ``null`` for NaN."""
    return [x or "null" for x in whole(values)]


def bounds(keys: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """Start and end of each key lo..hi-1 in the ascending ``keys`` (empty runs allowed)."""
    wanted = np.arange(lo, hi)
    return np.searchsorted(keys, wanted, "left"), np.searchsorted(keys, wanted, "right")


def js_json(value: Any) -> str:
    """Compact JSON (no NaN: missing values must be None)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def script_json(value: Any) -> str:
    """JSON safe inside ``<script type="application/json">`` (no ``<``, ``>`` or ``&``)."""
    return safe_in_script(js_json(value))


def safe_in_script(json_text: str) -> str:
    """Serialised JSON with ``<``, ``>`` and ``&`` escaped, so it cannot end a script element."""
    return json_text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def json_arrays(columns: Iterable[np.ndarray]) -> list[str]:
    """Each column as a JSON array of whole numbers from floats (rounded half to even, as
    Python's format; NaN becomes null) or integers.

    The columns are converted together by Arrow (one cast to text, one join per column), not
    number by number in Python: the lists hold about a million numbers at RIF size."""
    whole_numbers, missing, ends = [], [], [0]
    for values in columns:
        a = np.asarray(values)
        if a.dtype.kind == "f":
            a = np.rint(a)
            missing.append(np.isnan(a))
            a = np.where(missing[-1], 0, a)
        else:
            missing.append(np.zeros(len(a), bool))
        whole_numbers.append(a.astype(np.int64))
        ends.append(ends[-1] + len(a))
    numbers = pa.array(np.concatenate(whole_numbers), mask=np.concatenate(missing))
    as_text = pc.cast(numbers, pa.string()).fill_null("null")
    per_column = pa.ListArray.from_arrays(pa.array(ends, pa.int32()), as_text)
    joined = cast(pa.StringArray, pc.binary_join(per_column, ","))  # a list array in, so an array
    return [f"[{text}]" for text in joined.to_pylist()]


def environment() -> jinja2.Environment:
    """The Jinja2 environment of the templates: autoescaping on, undefined names are errors."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        auto_reload=False,
        extensions=["jinja2.ext.i18n"],
    )
    # the pages are English, each message an element with its id (the page script swaps its
    # content for the reader's language: i18n.py); {% trans %} calls gettext with the values
    env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        _, lambda singular, plural, n: _(singular if n == 1 else plural), newstyle=True
    )
    env.globals.update(_=_, gettext=_, N_=N_, attr=attr, mark=mark, inner=inner, joined=joined)
    env.globals["message_id"] = message_id
    env.filters["json"] = lambda v: Markup(script_json(v))
    env.filters["thousands"] = counted
    env.filters["shown"] = shown
    return env


DESCRIPTIONS = {
    "p/": N_("A player of the %(game)s world rating list: ratings, tournaments, games."),
    "tournaments/": N_(
        "A tournament of the %(game)s world rating list: standings, crosstable, pairings."
    ),
    "": N_(
        "The %(game)s world rating list by Whole-History Rating, recomputed every day from "
        "every rated game: players, countries, tournaments, year ends."
    ),
}
"""The pages' descriptions (``<meta name=description>``, ``og:description``), by the folder
a page is in (its family): messages whose one value is the game; the page carries the English
and the message's id (``data-md``), from which the page script writes the reader's language
(a few bytes on each of tens of thousands of pages)."""


def description(path: str) -> str:
    """The description of the page ``path``: a message of :data:`DESCRIPTIONS`."""
    folder = path.rpartition("/")[0] + "/" if "/" in path else ""
    return DESCRIPTIONS.get(folder, DESCRIPTIONS[""])


STATIC_ROWS = 100
"""Rows of a big table written into its page as HTML, for readers without script (text
browsers, crawlers, a script that failed); the page script replaces them with its own drawing
(it writes the table's ``<thead>`` and ``<tbody>`` whole)."""


# --- what every page family shares --------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    """What the page families share: the day's view, and its names formatted once.

    Attributes
    ----------
    view : whr.lists.View
        What the pages show.
    info : mapping
        The manifest's facts (parameters, inputs, counts, versions, links) for the about page.
    game : str
        ``"Renju"`` or ``"Gomoku"``.
    players : pandas.DataFrame
        By player number: player, name, native, country, country_name, city, birth_year (0:
        not known), female, label (what tells namesakes apart) and page (its file name).
    countries : pandas.DataFrame
        The countries of the current list: code, name, page, players, active.
    tournaments : pandas.DataFrame
        By tournament number: tournament_id, page, name, city, country (code), country_name,
        country_position (in ``places``; -1 none), rule, n (rated games), start, end,
        excluded.
    tournament_page : dict of str to str
        The page name of every tournament id read or played.
    linked : frozenset of str
        The game ids whose results link to renju.net.
    places : pandas.DataFrame
        The countries of the tournaments' places: code, name, page ("" none).
    players_source : rows.Source
        The players as the row filler reads them (the players data's fields, every page's
        name), with their countries.
    names : dict of str to str
        Every country the data names (its players', listed or not, and its tournaments'
        places): code -> English name, for the catalogs.
    base_url : str or None
        The site's public address (ending in ``/``): canonical links and the sitemap.
    """

    view: View
    info: Mapping[str, Any]
    game: str
    players: pd.DataFrame
    countries: pd.DataFrame
    tournaments: pd.DataFrame
    tournament_page: dict[str, str]
    linked: frozenset[str]
    places: pd.DataFrame
    players_source: Source
    names: dict[str, str]
    base_url: str | None = None

    @property
    def as_of(self) -> dt.date:
        return self.view.as_of

    @cached_property
    def country_page(self) -> dict[str, str]:
        """Each country code's page name (computed once: a list's rows look it up per row)."""
        return dict(zip(self.countries["code"], self.countries["page"], strict=True))

    @cached_property
    def player_columns(self) -> dict[str, list[Any]]:
        """The players' columns as lists, by player number, for the rows written one by one."""
        return {
            c: self.players[c].tolist()
            for c in ("name", "page", "native", "female", "country", "label")
        }

    @cached_property
    def tables(self) -> dict[str, Table]:
        """Every table of the site (``contract.tables``), with the list's rules."""
        return tables(self.view.rules)


class Renderer:
    """Writes the files of one site into ``target`` and remembers every file written (as paths
    relative to ``target``, in the order written)."""

    def __init__(self, target: Path, site: Site):
        self.target = target
        self.site = site
        self.env = environment()
        self.written: list[str] = []
        self.data_files: dict[str, str] = {}  # "players", "lists.current", ... -> path
        self._frames: dict[str, tuple[Markup, Markup]] = {}  # header, footer by root
        self._templates: dict[str, jinja2.Template] = {}
        self._folders: set[str] = set()  # folders made so far

    def write(self, path: str, content: str) -> None:
        self.write_bytes(path, content.encode("utf-8"))

    def write_bytes(self, path: str, content: bytes) -> None:
        # plain strings, not pathlib: tens of thousands of pages are written
        self.write_folder(os.path.dirname(path))
        with open(os.path.join(self.target, path), "wb") as f:  # mode from the umask
            f.write(content)
        self.written.append(path)

    def write_folder(self, folder: str) -> None:
        if folder not in self._folders:
            os.makedirs(os.path.join(self.target, folder), exist_ok=True)
            self._folders.add(folder)

    def frame(self, root: str) -> tuple[Markup, Markup]:
        """The header (brand, menu, search) and footer of a page at ``root``, rendered once:
        the same on every page (``_frame.html``)."""
        if root not in self._frames:
            parts: Any = self.env.get_template("_frame.html").module
            self._frames[root] = (
                Markup(parts.header(root, self.site.game).strip()),
                Markup(parts.footer(root, long_date(self.site.as_of)).strip()),
            )
        return self._frames[root]

    def head(self, root: str) -> Callable[[Markup, str], Markup]:
        """The head's shared tags of a page at ``root`` (``_frame.html``'s ``head``: the
        description and Open Graph tags, the feed's link), given the page's title and
        description (a message of :data:`DESCRIPTIONS`)."""
        parts: Any = self.env.get_template("_frame.html").module
        game = self.site.game
        return lambda title, said: Markup(parts.head(root, title, said, game).strip())

    def template(self, name: str) -> jinja2.Template:
        if name not in self._templates:
            self._templates[name] = self.env.get_template(name)
        return self._templates[name]

    def canonical(self, path: str) -> Markup:
        """The page's ``<link rel=canonical>`` and ``og:url`` under the site's public address
        ("" without)."""
        if self.site.base_url is None:
            return Markup("")
        href = escape(self.site.base_url + quote(path))
        return Markup(f'<link rel=canonical href="{href}"><meta property=og:url content="{href}">')

    def html(self, path: str, template: str, **context: Any) -> str:
        """The page ``path`` rendered from ``template`` with ``context``."""
        context.setdefault("canonical", self.canonical(path))
        context.setdefault("description", description(path))
        root = "../" * path.count("/")
        header, footer = self.frame(root)
        return self.template(template).render(
            root=root,
            as_of=self.site.as_of.isoformat(),
            game=self.site.game,
            rules=self.site.view.rules,
            header=header,
            footer=footer,
            head=self.head(root),
            **context,
        )

    def render(self, path: str, template: str, **context: Any) -> None:
        self.write(path, self.html(path, template, **context))

    def stencil(self, folder: str, template: str, fields: tuple[str, ...], **fixed: Any) -> Stencil:
        """``template`` for the pages in ``folder`` whose only differences are ``fields``."""
        markers = {name: Markup(f"\x00{name}\x00") for name in fields}
        return Stencil(self.html(f"{folder}/page.html", template, **fixed, **markers), fields)

    def data(self, key: str, stem: str, json_text: str) -> str:
        """Write ``data/<stem>.<digest>.js``, which sets ``WHR.<key>`` (``key`` may be
        ``"group.member"``) to the JSON ``json_text``; returns its path."""
        payload = "JSON.parse('" + json_text.replace("\\", "\\\\").replace("'", "\\'") + "')"
        parts = [json.dumps(k) for k in key.split(".")]
        if len(parts) == 1:
            body = f"(self.WHR=self.WHR||{{}})[{parts[0]}]={payload};\n"
        else:
            group, member = parts
            body = (
                f"var W=self.WHR=self.WHR||{{}};(W[{group}]=W[{group}]||{{}})[{member}]"
                f"={payload};\n"
            )
        digest = text_sha256(body)[:10]
        path = f"data/{stem}.{digest}.js"
        self.write(path, body)
        self.data_files[key] = path
        return path


class Stencil:
    """A page template rendered once, with a marker where each per-page value goes.

    The player and tournament pages are tens of thousands of pages of one template each that
    differ only in a few values: filling the markers in costs a join, where rendering the
    template costs a Jinja2 context, the base template and an escape per value. The values
    are escaped as Jinja2's autoescaping does (a ``Markup`` value as it is, anything else
    through ``escape``), so a filled page is the page the template renders; a field must
    appear as a plain ``{{ name }}`` (no filter, no test), which is checked here.
    """

    def __init__(self, html: str, fields: tuple[str, ...]):
        self.parts = html.split("\x00")  # text, field, text, field, ..., text
        names = self.parts[1::2]
        if sorted(set(names)) != sorted(fields) or len(self.parts) % 2 != 1:
            raise ValueError(
                f"the template must show each of {sorted(fields)} plainly ({{{{ name }}}}); "
                f"found {names}"
            )
        self.slots = [(k, name) for k, name in enumerate(self.parts) if k % 2]

    def fill(self, **values: Any) -> str:
        parts = self.parts.copy()
        for k, name in self.slots:
            value = values[name]
            parts[k] = value if isinstance(value, Markup) else escape(value)
        return "".join(parts)


# --- the player and tournament pages, in chunks, in worker processes -----------------------------

Writer = Callable[[Renderer, Any, Stencil, int, int], None]
"""Writes the pages numbered lo..hi-1 of one family: ``(renderer, columns, stencil, lo, hi)``."""


@dataclass(frozen=True)
class Family:
    """The pages of one family written in chunks: ``n`` pages, written by ``writer`` from
    ``columns`` (plain arrays and lists: no pandas, no Arrow, the chunks may run in forked
    worker processes) with ``stencil``; ``paths`` are the pages it writes."""

    writer: Writer
    columns: Any
    stencil: Stencil
    n: int
    paths: list[str]


Jobs = list[tuple[int, int, int]]  # (family, first number, end number)


def _work(r: Renderer, families: list[Family], jobs: Jobs) -> None:
    for k, lo, hi in jobs:
        family = families[k]
        family.writer(r, family.columns, family.stencil, lo, hi)


_PR_SET_PDEATHSIG = 1  # prctl(2)


def _die_with(parent: int) -> None:
    """Make this forked worker end when its parent does, however the parent ends (SIGKILL too):
    no worker writes on, holding the published tree's lock, for a run that is gone.

    On Linux the kernel sends the worker SIGKILL when the thread that forked it ends
    (``prctl(PR_SET_PDEATHSIG)``; that thread waits for the workers in :meth:`Pages.finish`);
    elsewhere a thread of the worker watches for a new parent process. A parent that died
    before this ran is caught by the check of the parent's pid.
    """
    libc = ctypes.util.find_library("c") if sys.platform.startswith("linux") else None
    if libc is not None:
        ctypes.CDLL(libc, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    else:

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:
        os._exit(1)


def _child(r: Renderer, families: list[Family], jobs: Jobs, parent: int) -> None:
    try:
        _die_with(parent)
        _work(r, families, jobs)
    except BaseException:
        import traceback

        traceback.print_exc()
        os._exit(1)
    os._exit(0)


class Pages:
    """The pages of several families being written: in chunks, in worker processes (forked,
    so they share the prepared data) or, with one process, at once in this one. A worker ends
    with this process, however it ends (:func:`_die_with`)."""

    def __init__(self, r: Renderer, families: list[Family], processes: int | None = None):
        self.r = r
        self.written = [path for family in families for path in family.paths]
        jobs = [
            (k, lo, min(lo + CHUNK, family.n))
            for k, family in enumerate(families)
            for lo in range(0, family.n, CHUNK)
        ]
        if processes is None:
            many = len(self.written) >= PARALLEL_FROM
            processes = min(2, os.cpu_count() or 1) if many else 1
        self.workers: list[Any] = []
        if processes <= 1 or len(jobs) < 2:
            _work(r, families, jobs)
            return
        context = multiprocessing.get_context("fork")
        for k in range(processes):
            worker = context.Process(
                target=_child, args=(r, families, jobs[k::processes], os.getpid())
            )
            worker.start()
            self.workers.append(worker)

    def finish(self) -> None:
        """Wait for the workers; record every page written (once)."""
        for w in self.workers:
            w.join()
        failed = [w.exitcode for w in self.workers if w.exitcode != 0]
        if failed:
            killed = [-code for code in failed if code is not None and code < 0]
            raise RuntimeError(
                f"writing the player and tournament pages into {self.r.target} failed in a "
                f"worker process (exit codes {failed}"
                + (
                    f"; killed by signal {killed}, SIGKILL being what the system's "
                    "out-of-memory killer sends"
                    if killed
                    else "; its error is printed above"
                )
                + "); rerun with processes=1 to see it here"
            )
        self.r.written = list(dict.fromkeys([*self.r.written, *self.written]))

    def stop(self) -> None:
        """Stop the workers (this process failed)."""
        for w in self.workers:
            w.kill()
            w.join()
