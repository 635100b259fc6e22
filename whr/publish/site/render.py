"""Writing the pages from prepared data (:mod:`whr.publish.site.prepare`): slicing, formatting.

Every text value that comes from outside goes through ``markupsafe.escape`` (rows assembled
here, because there are hundreds of thousands of them) or Jinja2's autoescaping (templates);
JSON inside pages through :func:`script_json`, which cannot close a ``<script>`` element. The
large tables (the lists, the players and tournaments indexes) are data files under ``data/``
that the page script draws, rendering only the rows on screen; a data file's name carries a
digest of its contents, so a page never meets another day's data in a browser's cache.

Player and tournament pages are written in chunks of consecutive players (tournaments): only
one chunk's strings exist at a time, and the chunks can be shared among worker processes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import datetime as dt
import json
import multiprocessing
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import pandas as pd
from markupsafe import Markup, escape

from whr import lists
from whr.digest import text_sha256
from whr.publish.parquet import csv_text
from whr.publish.site.prepare import (
    ListData,
    Prepared,
    days,
    floats,
    iso,
    js_json,
    long_date,
    signed,
)
from whr.rules.reasons import REASONS
from whr.tables import EXCLUSIONS_CSV, RATINGS

HERE = Path(__file__).parent
STATUS_LABELS = (
    "established, active",
    "established, inactive: no rated game in 5 years",
    "provisional: at most 9 rated games",
)  # by status code (whr.lists.STATUSES order)
TABS = ("active", "gy1", "inactive", "provisional")
MAX_TOP_SERIES = 20  # players drawn on the top-players chart
MAX_IDS_SHOWN = 20  # game ids shown per group on the page of games not rated
CHUNK = 2000  # players (tournaments) per chunk of pages
PARALLEL_FROM = 4000  # pages of players and tournaments from which to use several processes
EPOCH = dt.date(1970, 1, 1)


def script_json(value: Any) -> str:
    """JSON safe inside ``<script type="application/json">`` (no ``<``, ``>`` or ``&``)."""
    return safe_in_script(js_json(value))


def safe_in_script(json_text: str) -> str:
    """Serialised JSON with ``<``, ``>`` and ``&`` escaped, so it cannot end a script element."""
    return json_text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


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
    )
    env.filters["json"] = lambda v: Markup(script_json(v))
    env.filters["thousands"] = lambda n: f"{int(n):,}"
    return env


def _whole(values: np.ndarray) -> list[str]:
    """Numbers as whole Elo text ("" for NaN), rounded as Python's format does."""
    r = np.rint(np.asarray(values, np.float64))
    return ["" if v != v else str(int(v)) for v in r.tolist()]


def _bounds(keys: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """Start and end of each key lo..hi-1 in the ascending ``keys`` (empty runs allowed)."""
    wanted = np.arange(lo, hi)
    return np.searchsorted(keys, wanted, "left"), np.searchsorted(keys, wanted, "right")


class Renderer:
    """Writes the files of one site into ``target`` and remembers every file written (as paths
    relative to ``target``, in the order written)."""

    def __init__(self, target: Path, site: Prepared):
        self.target = target
        self.site = site
        self.env = environment()
        self.written: list[str] = []
        self.data_files: dict[str, str] = {}  # "players", "lists.current", ... -> path
        self._frames: dict[tuple[str, bool], tuple[Markup, Markup]] = {}  # header, footer
        self._templates: dict[str, jinja2.Template] = {}
        self._folders: set[str] = set()  # folders made so far

    def write(self, path: str, content: str) -> None:
        # plain strings, not pathlib: tens of thousands of pages are written
        self.write_folder(os.path.dirname(path))
        with open(os.path.join(self.target, path), "wb") as f:  # mode from the umask
            f.write(content.encode("utf-8"))
        self.written.append(path)

    def write_folder(self, folder: str) -> None:
        if folder not in self._folders:
            os.makedirs(os.path.join(self.target, folder), exist_ok=True)
            self._folders.add(folder)

    def frame(self, root: str, full: bool = True) -> tuple[Markup, Markup]:
        """The header (brand and menu) and footer of a page at ``root``, rendered once; the
        player and tournament pages (``full=False``) get the short menu and footer."""
        if (root, full) not in self._frames:
            parts: Any = self.env.get_template("_frame.html").module
            self._frames[(root, full)] = (
                Markup(parts.header(root, self.site.game, full).strip()),
                Markup(parts.footer(root, self.site.as_of.isoformat(), full).strip()),
            )
        return self._frames[(root, full)]

    def template(self, name: str) -> jinja2.Template:
        if name not in self._templates:
            self._templates[name] = self.env.get_template(name)
        return self._templates[name]

    def html(self, path: str, template: str, **context: Any) -> str:
        """The page ``path`` rendered from ``template`` with ``context``."""
        root = "../" * path.count("/")
        header, footer = self.frame(root, full=not path.startswith(("p/", "tournaments/")))
        return self.template(template).render(
            root=root,
            as_of=self.site.as_of.isoformat(),
            game=self.site.game,
            header=header,
            footer=footer,
            **context,
        )

    def render(self, path: str, template: str, **context: Any) -> None:
        self.write(path, self.html(path, template, **context))

    def stencil(self, folder: str, template: str, fields: tuple[str, ...], **fixed: Any) -> Stencil:
        """``template`` for the pages in ``folder`` whose only differences are ``fields``."""
        markers = {name: Markup(f"\x00{name}\x00") for name in fields}
        return Stencil(self.html(f"{folder}/page.html", template, **fixed, **markers), fields)

    def data(self, key: str, stem: str, value: Any = None, json_text: str | None = None) -> str:
        """Write ``data/<stem>.<digest>.js``, which sets ``WHR.<key>`` (``key`` may be
        ``"group.member"``) to ``value`` (or to the JSON ``json_text``); returns its path."""
        payload = js_json(value) if json_text is None else json_text
        payload = "JSON.parse('" + payload.replace("\\", "\\\\").replace("'", "\\'") + "')"
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


# --- lists -------------------------------------------------------------------------------------


def _players_data(site: Prepared) -> dict[str, Any]:
    """The players data of the page scripts: one entry per listed player, by number."""
    p = site.players
    code_index = {c: i for i, c in enumerate(site.countries["code"].tolist())}
    pages = {
        str(i): page
        for i, (pid, page) in enumerate(zip(p["player"].tolist(), p["page"].tolist(), strict=True))
        if pid != page
    }
    return {
        "id": p["player"].tolist(),
        "name": p["name"].tolist(),
        "lb": p["label"].tolist(),
        "nt": p["native"].tolist(),
        "ci": p["city"].tolist(),
        "co": [code_index.get(c, -1) for c in p["country"].tolist()],
        "by": p["birth_year"].tolist(),
        "f": p["female"].astype(np.int64).tolist(),
        "pg": pages,
        "countries": {
            "code": site.countries["code"].tolist(),
            "name": site.countries["name"].tolist(),
            "page": site.countries["page"].tolist(),
        },
    }


def _list_heading(site: Prepared, day: dt.date, country: str | None = None) -> str:
    where = f"{site.game} rating list of {country}" if country else f"{site.game} world rating list"
    return f"{where} — {long_date(day)}"


def write_lists(r: Renderer) -> None:
    """The current list (``index.html`` and a page per tab), the year-end lists, the per-country
    lists and the players index: small pages over shared data files (the players data file is
    written first, by :func:`write`)."""
    site = r.site
    r.data("lists.current", f"list-{site.as_of.isoformat()}", json_text=site.current.json)
    current_tabs = {"active": "index.html", **{t: f"{t}.html" for t in TABS[1:]}}
    for tab, path in current_tabs.items():
        _list_page(r, path, site.current, tab)
    for day, data in site.year_end.items():
        r.data(f"lists.{data.key}", f"list-{day.isoformat()}", json_text=data.json)
        _list_page(r, f"years/{day.year}.html", data, "active")
    r.render(
        "years.html",
        "years.html",
        rows=[
            {
                "year": day.year,
                "day": day.isoformat(),
                "active": data.counts["active"],
                "listed": data.counts["players"],
                "first": _first(site, data),
            }
            for day, data in site.year_end.items()
        ],
    )
    r.render("countries.html", "countries.html", countries=site.countries.to_dict("records"))
    present: dict[str, list[int]] = {}
    for day, data in site.year_end.items():
        for code in data.frame["country"].dropna().unique().tolist():
            present.setdefault(str(code), []).append(day.year)
    for c in site.countries.itertuples(index=False):
        _list_page(
            r,
            f"countries/{c.page}.html",
            site.current,
            "active",
            country={"code": c.code, "name": c.name},
            country_years=present.get(c.code, []),
        )
    r.render(
        "players.html",
        "players.html",
        n_rows=len(site.players),
        scripts=[r.data_files["players"], r.data_files["lists.current"]],
    )


def _first(site: Prepared, data: ListData) -> dict[str, str] | None:
    f = data.frame
    if not len(f) or pd.isna(f["rank"].iloc[0]):
        return None
    i = data.first
    return {
        "page": site.players["page"].iloc[i],
        "name": site.players["name"].iloc[i],
        "rating": f"{f['rating'].iloc[0]:.0f}",
    }


def _list_page(
    r: Renderer,
    path: str,
    data: ListData,
    tab: str,
    country: dict[str, str] | None = None,
    country_years: list[int] | None = None,
) -> None:
    site = r.site
    counts: dict[str, int | None] = dict(data.counts)
    if country:  # the current list's country pages
        columns = site.current_columns
        mine = (data.frame["country"] == country["code"]).fillna(False).to_numpy(bool)
        status = columns["s"]
        for code, s in enumerate(lists.STATUSES):
            counts[s] = int(((status == code) & mine).sum())
        counts["gy1"] = int(((columns["cy"] > 0) & mine).sum())
        counts["players"] = int(mine.sum())
        counts["games"] = None
    cfg = {
        "list": data.key,
        "tab": tab,
        "country": country["code"] if country else "",
        "change": data.change,
        "root": "../" * path.count("/"),
    }
    r.render(
        path,
        "list.html",
        heading=_list_heading(site, data.day, country["name"] if country else None),
        day=data.day.isoformat(),
        year=None if data.key == "current" else data.day.year,
        counts=counts,
        cfg=cfg,
        country=country,
        country_years=country_years or [],
        scripts=[r.data_files["players"], r.data_files[f"lists.{data.key}"]],
    )


# --- player pages ------------------------------------------------------------------------------


def change_sentence(change: Any, own: Any, others: Any, has_previous: bool) -> str:
    """The plain sentence about a player's change since the previous list ("" if none)."""
    if change is None or pd.isna(change):
        return "New on this list: not on the previous one." if has_previous else ""
    total = int(np.rint(change))
    if total > 0:
        head = f"Since the previous list the rating went up {total} points"
    elif total < 0:
        head = f"Since the previous list the rating went down {-total} points"
    else:
        head = "Since the previous list the rating has not changed (to the point)"
    if own is None or others is None or pd.isna(own) or pd.isna(others):
        return head + "."
    return (
        f"{head}: {signed(own)} from the player's own new games and {signed(others)} because "
        "other players' new results changed the estimate of the past (rounded)."
    )


class _Columns:
    """The columns the page chunks read, as numpy arrays and lists (no pandas, no Arrow: the
    chunks may run in forked worker processes)."""

    def __init__(self, site: Prepared):
        p = site.players
        self.n_players = len(p)
        self.ids = p["player"].tolist()
        self.page = p["page"].tolist()
        self.name = p["name"].tolist()
        self.native = p["native"].tolist()
        self.female = p["female"].tolist()
        self.city = p["city"].tolist()
        self.country = p["country"].tolist()
        self.country_name = p["country_name"].tolist()
        self.birth_year = p["birth_year"].tolist()

        f = site.current.frame
        at = pd.Index(f["player"].to_numpy(object)).get_indexer(p["player"].to_numpy(object))

        def take(column: str) -> np.ndarray:  # a column of the current list by player number
            return floats(f[column])[at]

        self.rating, self.unc, self.best = take("rating"), take("uncertainty"), take("best_rating")
        self.rank, self.crank, self.prev = take("rank"), take("country_rank"), take("previous_rank")
        self.change, self.own, self.others = (
            take("rating_change"),
            take("change_own_games"),
            take("change_others"),
        )
        self.counts = np.stack(
            [take(c) for c in ("games", "wins", "draws", "losses", "gy1", "gy2", "gy5")]
        )
        self.status = site.current_columns["s"][at]
        self.first, self.last, self.best_day = (
            days(f[c])[at] for c in ("first_game", "last_game", "best_date")
        )
        self.has_previous = site.current.change

        ev = site.events
        self.ev_number = ev["number"].to_numpy(np.int64)
        self.ev_tournament = ev["tournament"].to_numpy(np.int64)
        self.ev_last = days(ev["last_day"])
        self.ev_games = ev["games"].to_numpy(np.int64)
        self.ev_score = ev["score"].to_numpy(np.float64)
        self.ev_perf = ev["performance"].to_numpy(np.float64)
        self.ev_bound = ev["performance_bound"].to_numpy(np.int64)
        self.ev_before = ev["rating_before"].to_numpy(np.float64)
        self.ev_after = ev["rating_after"].to_numpy(np.float64)

        g = site.games
        self.g_number = g["number"].to_numpy(np.int64)
        self.g_event = g["event"].to_numpy(np.int64)
        self.g_round = g["round"].cat.codes.to_numpy(np.int64)  # codes of round_json
        self.round_json = [_round_json(str(x)) for x in g["round"].cat.categories]
        white = g["white"].to_numpy(bool).astype(np.int64)
        self.g_code = white * 3 + np.rint(g["score"].to_numpy(np.float64) * 2).astype(np.int64)
        self.g_opp = g["opponent_number"].to_numpy(np.int64)
        self.g_rating = g["opponent_rating"].to_numpy(np.float64)
        self.g_id = g["game_id"].astype("str").to_numpy(object) if site.linked else None

        h = site.history
        self.h_number = h["number"].to_numpy(np.int64)
        self.h_day = days(h["date"])
        # the chart draws whole Elo (its hover read-out shows them): no decimals to publish
        self.h_rating = np.rint(h["rating"].to_numpy(np.float64)).astype(np.int64)
        self.h_unc = np.rint(h["uncertainty"].to_numpy(np.float64)).astype(np.int64)

        t = site.tournaments
        self.n_tournaments = len(t)
        self.t_page = t["page"].tolist()
        self.t_name = t["name"].tolist()
        self.t_place = t["place"].tolist()
        self.t_rule = t["rule"].tolist()
        self.t_n = t["n"].tolist()
        self.t_start = t["start"].tolist()
        self.t_end = t["end"].tolist()
        self.t_excluded = t["excluded"].tolist()

        st = site.table
        self.s_tournament = st["tournament"].to_numpy(np.int64)
        self.s_row = st["number"].to_numpy(np.int64)
        self.s_player = st["player_number"].to_numpy(np.int64)
        self.s_first = st["place_first"].to_numpy(np.int64)
        self.s_last = st["place_last"].to_numpy(np.int64)
        self.s_score = st["score"].to_numpy(np.float64)
        self.s_perf = st["performance"].to_numpy(np.float64)
        self.s_bound = st["performance_bound"].to_numpy(np.int64)
        self.s_before = st["rating_before"].to_numpy(np.float64)
        self.s_after = st["rating_after"].to_numpy(np.float64)

        c = site.cells
        self.c_tournament = c["tournament"].to_numpy(np.int64)
        self.c_row = c["number"].to_numpy(np.int64)
        self.c_column = c["column"].to_numpy(np.int64)
        self.c_opp = c["opponent"].to_numpy(np.int64)
        self.c_black = (c["colour"] == "black").to_numpy(bool)
        self.c_score = c["score"].to_numpy(np.float64)
        self.c_id = c["game_id"].astype("str").to_numpy(object) if site.linked else None
        # each tournament's round labels by column (a row may miss the first rounds)
        heads = c.drop_duplicates(["tournament", "column"]).sort_values(["tournament", "column"])
        self.rounds: dict[int, list[str]] = {}
        for k, label in zip(heads["tournament"].tolist(), heads["round"].tolist(), strict=True):
            self.rounds.setdefault(k, []).append(label or "–")
        self.linked = site.linked
        self.list_day = (site.as_of - EPOCH).days
        self.as_of = site.as_of.isoformat()
        self.country_page = site.country_page


def _round_json(label: str) -> str:
    plain = label.isascii() and label.isdigit() and str(int(label)) == label and len(label) < 10
    return label if plain else js_json(label)


def _json_number(values: np.ndarray) -> list[str]:
    """Whole numbers as JSON text, ``null`` for NaN."""
    return [x or "null" for x in _whole(values)]


def player_pages(r: Renderer, cols: _Columns, page: Stencil, lo: int, hi: int) -> None:
    """Write ``p/<page>.html`` for the players numbered lo..hi-1.

    The facts are HTML; the rating history, the tournaments and the games are one JSON object
    that the page script draws, headings included (with the names from the players and
    tournaments data files, loaded once for every page): ``{"chart": {"series": [...]},
    "events": events}``, events being
    ``[[tournament, last day, games, 2 × score, performance, bound, before, after, change,
    [round, code, opponent, opponent's rating, round, ...](, [game id or null, ...])], ...]``,
    newest first (the games of a tournament flat, four numbers each); days
    since 1970-01-01, ratings in whole Elo (null: none), bound 1 at least, -1 at most;
    ``code`` = 3 × colour (0 Black, 1 White) + 2 × the player's score; the tournament and the
    opponent are numbers in the data files; game ids only for games linked to renju.net.
    """
    e_lo, e_hi = (int(x) for x in np.searchsorted(cols.ev_number, [lo, hi]))
    ev = slice(e_lo, e_hi)
    g_lo, g_hi = (int(x) for x in np.searchsorted(cols.g_number, [lo, hi]))
    gs = slice(g_lo, g_hi)
    rating = _json_number(cols.g_rating[gs])
    rounds = cols.round_json
    frags = [  # a game: four numbers, in one flat array per tournament
        f"{rounds[lab]},{c},{o},{rt}"
        for lab, c, o, rt in zip(
            cols.g_round[gs].tolist(),
            cols.g_code[gs].tolist(),
            cols.g_opp[gs].tolist(),
            rating,
            strict=True,
        )
    ]
    ids = None
    if cols.g_id is not None:
        ids = [js_json(g) if g in cols.linked else "null" for g in cols.g_id[gs].tolist()]

    def games(a: int, b: int) -> str:
        text = f"[{','.join(frags[a:b])}]"
        if ids is not None and any(x != "null" for x in ids[a:b]):
            text += f",[{','.join(ids[a:b])}]"
        return text

    starts, ends = _bounds(cols.g_event[gs], e_lo, e_hi)  # within the chunk's games
    before, after = cols.ev_before[ev], cols.ev_after[ev]
    events = [
        f"[{k},{d},{n},{s2},{pf},{bd},{bf},{af},{ch},{games(a, b)}]"
        for k, d, n, s2, pf, bd, bf, af, ch, a, b in zip(
            cols.ev_tournament[ev].tolist(),
            cols.ev_last[ev].tolist(),
            cols.ev_games[ev].tolist(),
            np.rint(2 * cols.ev_score[ev]).astype(np.int64).tolist(),
            _json_number(cols.ev_perf[ev]),
            cols.ev_bound[ev].tolist(),
            _json_number(before),
            _json_number(after),
            _json_number(after - before),
            starts.tolist(),
            ends.tolist(),
            strict=True,
        )
    ]
    p_starts, p_ends = _bounds(cols.ev_number[ev], lo, hi)
    h_starts, h_ends = _bounds(cols.h_number, lo, hi)
    facts = _player_facts(cols, lo, hi)
    for i in range(lo, hi):
        a, b = int(p_starts[i - lo]), int(p_ends[i - lo])  # events, within the chunk's
        ha, hb = int(h_starts[i - lo]), int(h_ends[i - lo])
        series: dict[str, Any] = {
            "t": cols.h_day[ha:hb].tolist(),
            "r": cols.h_rating[ha:hb].tolist(),
            "u": cols.h_unc[ha:hb].tolist(),
        }
        if hb > ha and cols.h_day[hb - 1] < cols.list_day:  # carried to the list date
            unc = cols.unc[i]
            series["now"] = [
                cols.list_day,
                int(np.rint(cols.rating[i])),
                None if unc != unc else int(np.rint(unc)),
            ]
        native = cols.native[i]
        heading = (
            f"<h1{' class=f' if cols.female[i] else ''}>{escape(cols.name[i])}"
            + (f" <span class=native>({escape(native)})</span>" if native else "")
            + "</h1>"
        )
        sentence = change_sentence(cols.change[i], cols.own[i], cols.others[i], cols.has_previous)
        html = page.fill(
            name=cols.name[i],
            heading=Markup(heading),
            facts=Markup(facts[i - lo]),
            change=Markup(f"<p class=change>{escape(sentence)}</p>") if sentence else "",
            data=Markup(
                safe_in_script(
                    f'{{"chart":{js_json({"series": [series]})},"events":[{",".join(events[a:b])}]}}'
                )
            ),
        )
        r.write(f"p/{cols.page[i]}.html", html)


def _player_facts(cols: _Columns, lo: int, hi: int) -> list[str]:
    """The facts (``<dl>``) of the players numbered lo..hi-1."""
    s = slice(lo, hi)
    rank, crank, prev = _whole(cols.rank[s]), _whole(cols.crank[s]), _whole(cols.prev[s])
    first, last, best_day = iso(cols.first[s]), iso(cols.last[s]), iso(cols.best_day[s])
    counts = np.rint(cols.counts[:, s]).astype(np.int64).T.tolist()
    out = []
    for k, i in enumerate(range(lo, hi)):
        code, page = cols.country[i], cols.country_page.get(cols.country[i], "")
        country = str(escape(cols.country_name[i] or code))
        if page:
            country = f"<a href=../countries/{page}.html>{country}</a>"
        place = ", ".join(x for x in (str(escape(cols.city[i])), country) if x) or "–"
        ranks = f"{rank[k]} in the world, {crank[k]} in the country" if rank[k] else "–"
        if prev[k]:
            ranks += f" (previous list: {prev[k]})"
        n, w, d, lost, g1, g2, g5 = counts[k]
        unc = cols.unc[i]
        out.append(
            f"<dl class=facts><dt>ID<dd>{escape(cols.ids[i])}<dt>Place<dd>{place}"
            + (f"<dt>Born<dd>{cols.birth_year[i]}" if cols.birth_year[i] else "")
            + f"<dt>Rating on {cols.as_of}<dd><strong>{cols.rating[i]:.1f}</strong>"
            + ("" if unc != unc else f" ± {unc:.1f}")
            + f"<dt>Status<dd>{STATUS_LABELS[cols.status[i]]}<dt>Rank<dd>{ranks}"
            f"<dt>Games<dd>{n}: {w} won, {d} drawn, {lost} lost · Gy1 {g1}, Gy2 {g2}, Gy5 {g5}"
            f"<dt>First, last game<dd>{first[k]}, {last[k]}"
            f"<dt>Best rating<dd>{cols.best[i]:.1f} on {best_day[k]}</dl>"
        )
    return out


# --- tournament pages --------------------------------------------------------------------------

_SYMBOL = {1.0: "+", 0.5: "=", 0.0: "-"}  # in the page data; shown + = −


def tournament_pages(r: Renderer, cols: _Columns, page: Stencil, lo: int, hi: int) -> None:
    """Write ``tournaments/<page>.html`` for the tournaments numbered lo..hi-1: the facts as
    HTML, and the standings as JSON that the page script draws as a crosstable (a cell: the
    opponent's row, + win, = draw, − loss, /b or /w the colour, as in the EGF table format)
    and, from the crosstable, the pairings by round.

    The data: ``{"rounds": [label, ...], "rows": [[#, first place, last place, player, 2 ×
    score, performance, bound, before, after, change, cells], ...]}``, the rows in standings
    order; the player a number in the players data file; performance, before, after and
    change in whole Elo (null: none; no before: new to the list), bound 1 at least, -1 at
    most; ``cells`` the rounds' cells joined by ``,``, a cell's games by a space, a game
    ``12+b`` (the opponent's #, ``+`` ``=`` ``-`` the result, ``b`` ``w`` the colour) or
    ``12+b@345`` (game 345 on renju.net).
    """
    c_lo, c_hi = (int(x) for x in np.searchsorted(cols.c_tournament, [lo, hi]))
    cs = slice(c_lo, c_hi)
    colour = np.where(cols.c_black[cs], "b", "w").tolist()
    entries = [
        f"{o}{_SYMBOL[sc]}{col}"
        for o, sc, col in zip(
            cols.c_opp[cs].tolist(), cols.c_score[cs].tolist(), colour, strict=True
        )
    ]
    if cols.c_id is not None:  # RenjuNet ids are digits (lists.renjunet_games)
        entries = [
            f"{e}@{g}" if g in cols.linked else e
            for e, g in zip(entries, cols.c_id[cs].tolist(), strict=True)
        ]
    # one cell per (tournament, row, round): its entries, space-separated
    t, row, column = cols.c_tournament[cs], cols.c_row[cs], cols.c_column[cs]
    new = np.r_[True, (t[1:] != t[:-1]) | (row[1:] != row[:-1]) | (column[1:] != column[:-1])]
    starts = np.flatnonzero(new).tolist()
    ends = starts[1:] + [c_hi - c_lo]
    cells: dict[tuple[int, int], dict[int, str]] = {}
    for a, b in zip(starts, ends, strict=True):
        cells.setdefault((int(t[a]), int(row[a])), {})[int(column[a])] = " ".join(entries[a:b])

    s_lo, s_hi = (int(x) for x in np.searchsorted(cols.s_tournament, [lo, hi]))
    ss = slice(s_lo, s_hi)
    before, after = cols.s_before[ss], cols.s_after[ss]
    by_t: dict[int, list[str]] = {}
    for tk, n, pn, first, last, s2, perf, bound, bf, af, ch in zip(
        cols.s_tournament[ss].tolist(),
        cols.s_row[ss].tolist(),
        cols.s_player[ss].tolist(),
        cols.s_first[ss].tolist(),
        cols.s_last[ss].tolist(),
        np.rint(2 * cols.s_score[ss]).astype(np.int64).tolist(),
        _json_number(cols.s_perf[ss]),
        cols.s_bound[ss].tolist(),
        _json_number(before),
        _json_number(after),
        _json_number(after - before),
        strict=True,
    ):
        mine = cells.get((tk, n), {})
        text = ",".join(mine.get(c, "") for c in range(len(cols.rounds.get(tk, []))))
        by_t.setdefault(tk, []).append(
            f'[{n},{first},{last},{pn},{s2},{perf},{bound},{bf},{af},{ch},"{text}"]'
        )
    for k in range(lo, hi):
        rows = by_t.get(k, [])
        start, end = cols.t_start[k], cols.t_end[k]
        facts = (
            f"<dl class=facts><dt>Place<dd>{escape(cols.t_place[k] or '–')}"
            f"<dt>Dates<dd>{start if start == end else f'{start} – {end}'}"
            f"<dt>Rule<dd>{escape(cols.t_rule[k] or '–')}"
            f"<dt>Rated games<dd>{cols.t_n[k]} between {len(rows)} players"
        )
        if cols.t_excluded[k]:
            facts += (
                f'<dt>Not rated<dd><a href="../excluded.html#t-{cols.t_page[k]}">'
                f"{cols.t_excluded[k]} games, and why</a>"
            )
        rounds = js_json(cols.rounds.get(k, []))
        html = page.fill(
            name=cols.t_name[k],
            facts=Markup(facts + "</dl>"),
            data=Markup(safe_in_script(f'{{"rounds":{rounds},"rows":[{",".join(rows)}]}}')),
        )
        r.write(f"tournaments/{cols.t_page[k]}.html", html)


Jobs = list[tuple[str, int, int]]  # ("p" or "t", first number, end number)


def _work(r: Renderer, cols: _Columns, stencils: dict[str, Stencil], jobs: Jobs) -> None:
    for kind, lo, hi in jobs:
        (player_pages if kind == "p" else tournament_pages)(r, cols, stencils[kind], lo, hi)


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


def _child(
    r: Renderer, cols: _Columns, stencils: dict[str, Stencil], jobs: Jobs, parent: int
) -> None:
    try:
        _die_with(parent)
        _work(r, cols, stencils, jobs)
    except BaseException:
        import traceback

        traceback.print_exc()
        os._exit(1)
    os._exit(0)


class Pages:
    """The player and tournament pages being written: in chunks, in worker processes (forked,
    so they share the prepared data) or, with one process, at once in this one. A worker ends
    with this process, however it ends (:func:`_die_with`)."""

    def __init__(self, r: Renderer, processes: int | None = None):
        self.r = r
        cols = _Columns(r.site)
        self.written = [f"p/{page}.html" for page in cols.page]
        self.written += [f"tournaments/{page}.html" for page in cols.t_page]
        jobs = [
            ("p", lo, min(lo + CHUNK, cols.n_players)) for lo in range(0, cols.n_players, CHUNK)
        ]
        jobs += [
            ("t", lo, min(lo + CHUNK, cols.n_tournaments))
            for lo in range(0, cols.n_tournaments, CHUNK)
        ]
        if processes is None:
            many = len(self.written) >= PARALLEL_FROM
            processes = min(2, os.cpu_count() or 1) if many else 1
        players = Markup(f"<script src=../{r.data_files['players']}></script>\n")
        scripts = players + Markup(f"<script src=../{r.data_files['tournaments']}></script>\n")
        stencils = {
            "p": r.stencil(
                "p",
                "player.html",
                ("name", "heading", "facts", "change", "data"),
                scripts=scripts,
            ),
            "t": r.stencil(
                "tournaments", "tournament.html", ("name", "facts", "data"), scripts=players
            ),
        }
        for folder in ("p", "tournaments"):  # made before forking, once
            r.write_folder(folder)
        self.workers: list[Any] = []
        if processes <= 1 or len(jobs) < 2:
            _work(r, cols, stencils, jobs)
            return
        context = multiprocessing.get_context("fork")
        for k in range(processes):
            worker = context.Process(
                target=_child, args=(r, cols, stencils, jobs[k::processes], os.getpid())
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


# --- the tournaments index, games not rated ----------------------------------------------------


def write_tournaments_index(r: Renderer) -> None:
    t = r.site.tournaments
    r.data(
        "tournaments",
        "tournaments",
        {
            "pg": t["page"].tolist(),
            "name": t["name"].tolist(),
            "place": t["place"].tolist(),
            "n": t["n"].tolist(),
            "start": t["start"].tolist(),
            "end": t["end"].tolist(),
            "rule": t["rule"].tolist(),
        },
    )
    r.render(
        "tournaments.html",
        "tournaments.html",
        n_rows=len(t),
        scripts=[r.data_files["tournaments"]],
    )


def write_excluded(r: Renderer) -> None:
    """``excluded.html``: per tournament, the games not rated and why; ``exclusions.csv``."""
    site = r.site
    ex = site.exclusions
    reasons = [
        {"code": code, "games": int(n), "text": REASONS.get(code, "")}
        for code, n in ex["reason"].value_counts().items()
    ]
    rated = set(site.tournaments["tournament_id"].tolist())
    tid, reason, message = (ex[c].tolist() for c in ("tournament_id", "reason", "message"))
    name, end, page, game = (ex[c].tolist() for c in ("tournament", "end", "page", "game_id"))
    groups_of: dict[tuple[str, str, str], list[int]] = {}
    for k, key in enumerate(zip(tid, reason, message, strict=True)):
        groups_of.setdefault(key, []).append(k)
    rows = []
    for (t, why, text_), members in groups_of.items():
        ids = [game[k] for k in members]
        more = len(ids) - MAX_IDS_SHOWN
        first = members[0]
        rows.append(
            {
                "tid": t,
                "tournament": name[first],
                "end": end[first],
                "page": page[first],
                "linked": t in rated,
                "reason": why,
                "message": text_,
                "n": len(ids),
                "ids": ", ".join(ids[:MAX_IDS_SHOWN]) + (f" and {more} more" if more > 0 else ""),
            }
        )
    rows.sort(key=lambda x: (x["end"], x["tid"]), reverse=True)
    groups: list[dict[str, Any]] = []
    for row in rows:
        if groups and groups[-1]["tid"] == row["tid"]:
            groups[-1]["rows"].append(row)
        else:
            groups.append({"tid": row["tid"], "rows": [row]})
    r.render("excluded.html", "excluded.html", reasons=reasons, groups=groups, total=len(ex))
    ends = [dt.date.fromisoformat(d) if d else None for d in end]
    table = ex.assign(tournament_end=pd.Series(ends, index=ex.index, dtype=object))
    r.write("exclusions.csv", csv_text(table, EXCLUSIONS_CSV))


# --- top players, about, CSV -------------------------------------------------------------------


def write_top(r: Renderer, women: bool = False) -> None:
    site = r.site
    # the columns the top players need: the lists are 37 and more, filtered twice
    keep = ["list_date", "player", "name", "country", "rating", "games", "rank", "gy1"]
    keep += ["status", "female"]
    all_lists = {site.as_of: site.current.frame[keep]} | {
        day: data.frame[keep] for day, data in site.year_end.items()
    }
    if women:
        all_lists = {d: lists.women(f) for d, f in all_lists.items()}
    chosen = lists.top_players(all_lists)[:MAX_TOP_SERIES]
    number = pd.Index(site.players["player"])
    h = site.history
    series = []
    for player in chosen:
        i = int(number.get_loc(player))
        rows = h.loc[h["number"].to_numpy() == i]
        series.append(
            {
                "name": site.players["name"].iloc[i],
                "href": f"p/{site.players['page'].iloc[i]}.html",
                "t": days(rows["date"]).tolist(),
                "r": np.round(rows["rating"].to_numpy(float), 1).tolist(),
            }
        )
    table = []
    for day, part in lists.top_five(all_lists).groupby("list_date", sort=False):
        cells = []
        for x in part.itertuples(index=False):
            i = int(number.get_loc(str(x.player)))
            cells.append(
                {
                    "name": site.players["name"].iloc[i],
                    "page": site.players["page"].iloc[i],
                    "rating": f"{x.rating:.0f}",
                    "tie": int(x.rank) != len(cells) + 1,
                }
            )
        table.append(
            {
                "day": day.isoformat(),
                "current": day == site.as_of,
                "cells": cells,
                "empty": max(0, 5 - len(cells)),
            }
        )
    r.render(
        "top_women.html" if women else "top.html",
        "top.html",
        chart={"series": series},
        table=table,
        women=women,
    )


def write_about(r: Renderer) -> None:
    info = r.site.info
    r.render(
        "about.html",
        "about.html",
        links=info.get("links"),
        params=info.get("parameters", {}),
        fit_params=info.get("fit_params") or {},
        inputs=info.get("inputs", []),
        counts={k: v for k, v in (info.get("counts") or {}).items() if k != "selection"},
        packages=info.get("packages") or {},
        schema_version=info.get("schema_version", ""),
    )


def players_json(index: pd.DataFrame) -> list[dict[str, Any]]:
    """``players.json``: one object per player of :func:`whr.lists.players_index`, in its order.

    Keys: ``id`` (the player id, a string: leading zeros kept), ``rank`` (int, or null unless
    established active), ``rating`` (published scale, 2 decimals), ``status``.
    """
    return [
        {
            "id": str(player),
            "rank": None if pd.isna(rank) else int(rank),
            "rating": round(float(rating), 2),
            "status": str(status),
        }
        for player, rank, rating, status in zip(
            index["player"], index["rank"], index["rating"], index["status"], strict=True
        )
    ]


def write_csv(r: Renderer) -> None:
    """``ratings.csv``: the current list with every column of ``ratings.parquet``."""
    r.write("ratings.csv", csv_text(r.site.current.frame, RATINGS))


def write_players_json(r: Renderer) -> None:
    """``players.json`` (see :func:`players_json`)."""
    site = r.site
    by_id = site.current.frame.set_index("player").reindex(site.players["player"].to_numpy())
    index = by_id.reset_index(names="player")  # the players index order (natural id order)
    text = json.dumps(players_json(index), separators=(",", ":"), ensure_ascii=False)
    r.write("players.json", text + "\n")


def write(site: Prepared, target: Path, processes: int | None = None) -> Renderer:
    """Write every page and data file of ``site`` into ``target`` (created; must not exist)."""
    target.mkdir(parents=True)
    (target / "static").mkdir()
    for asset in (HERE / "static").iterdir():  # copyfile: modes from the umask, not the package
        shutil.copyfile(asset, target / "static" / asset.name)
    r = Renderer(target, site)
    r.data("players", "players", _players_data(site))  # the pages name these two data files
    write_tournaments_index(r)
    pages = Pages(r, processes)
    try:  # while the worker processes (if any) write the player and tournament pages
        write_lists(r)
        write_excluded(r)
        write_top(r)
        write_top(r, women=True)
        write_about(r)
        write_csv(r)
        write_players_json(r)
    except BaseException:
        pages.stop()
        raise
    pages.finish()
    return r
