"""The tournaments: their index (``tournaments.html`` over the tournaments data file) and a page
per tournament with rated games (``tournaments/<id>.html``): the facts, the standings as a
crosstable (a cell: the opponent's row, + win, = draw, − loss, /b or /w the colour, as in the
EGF table format; the change at the time and today's estimate beside them) and, from it, the
pairings of each round, all as HTML (the page needs no script: it only colours the games)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from markupsafe import Markup, escape

from whr.lists import View
from whr.publish.site import plain
from whr.publish.site.contract import CFG, COUNTRIES, TOURNAMENTS, Table
from whr.publish.site.frame import Family, Renderer, Site, Stencil, city, js_json
from whr.publish.site.i18n import N_, _, inner, into, mark
from whr.publish.site.names import page_names, text
from whr.publish.site.rows import Context, Source, cells, place_html, shown_columns, whole_html

_SYMBOL = {1.0: "+", 0.5: "=", 0.0: "-"}  # Black's result in the pairings' data
_WRITTEN = {1.0: "+", 0.5: "=", 0.0: "\u2212"}  # a game's result in a crosstable cell: + = −


# the facts' texts: messages, by their ids (the page script writes them in the reader's
# language); formatted once (tens of thousands of pages)
def _label(message: str, context: str | None = None) -> str:
    return f"<dt {mark(message, context)}>{inner(message)}"


PLACE, DATES, RULE = _label(N_("Place")), _label(N_("Dates")), _label(N_("Rule"))
RATED, NOT_RATED = _label(N_("Rated games")), _label(N_("Not rated"))
BETWEEN = into("dd", _("%(games)s between %(players)s players", games="%s", players="%s"))
AND_WHY = str(_("%(n)s games, and why", n="%s"))
SHARED = into(
    "p",
    _(
        "* The same list first rated other tournaments of the player: the change is theirs "
        "together."
    ),
    " class=meta id=shared",
)


def table(view: View) -> tuple[pd.DataFrame, dict[str, str], pd.DataFrame]:
    """The tournaments with rated games by number (:attr:`whr.lists.View.tournaments`), with
    their page, name, place and rule as the pages show them; the page name of every
    tournament id read or played; and the countries of their places (code, name: the
    tournament's, else the list's for the code, else the code)."""
    index = view.tournaments
    tours = view.tables.tournaments.drop_duplicates("tournament_id")
    ids = index["tournament_id"].to_numpy(object)
    pages = page_names([*tours["tournament_id"].astype("str").tolist(), *sorted(ids.tolist())])
    facts = tours.set_index(tours["tournament_id"].astype("str")).reindex(ids)
    named = dict(
        zip(
            view.countries["country"].tolist(), view.countries["country_name"].tolist(), strict=True
        )
    )
    codes = [text(k) for k in facts["country"].tolist()]
    names = [
        text(cn) or text(named.get(k)) or k
        for k, cn in zip(codes, facts["country_name"].tolist(), strict=True)
    ]
    places: dict[tuple[str, str], int] = {}
    position = [
        places.setdefault((k, n), len(places)) if k or n else -1
        for k, n in zip(codes, names, strict=True)
    ]
    out = pd.DataFrame(
        {
            "tournament_id": ids,
            "page": [pages[t] for t in ids.tolist()],
            "name": [
                text(name) or t or "(no tournament)"
                for t, name in zip(ids.tolist(), facts["name"].tolist(), strict=True)
            ],
            "city": [city(c) for c in facts["city"].tolist()],
            "country": codes,
            "country_name": names,
            "country_position": np.asarray(position, np.int64),
            "rule": [text(x) for x in facts["rule"].tolist()],
            "n": index["games"].to_numpy(np.int64),
            "start": index["start"].tolist(),
            "end": index["end"].tolist(),
            "excluded": index["excluded"].to_numpy(np.int64),
        }
    )
    countries = pd.DataFrame(
        {"code": [k for k, _n in places], "name": [n for _k, n in places]}, dtype=object
    )
    return out, pages, countries


def write_index(r: Renderer) -> None:
    """The tournaments data file (:data:`contract.TOURNAMENTS`) and ``tournaments.html``."""
    t, places = r.site.tournaments, r.site.places
    r.data(
        "tournaments",
        "tournaments",
        js_json(
            TOURNAMENTS.object(
                page=t["page"].tolist(),
                name=t["name"].tolist(),
                city=t["city"].tolist(),
                country=t["country_position"].tolist(),
                games=t["n"].tolist(),
                start=t["start"].tolist(),
                end=t["end"].tolist(),
                rule=t["rule"].tolist(),
                countries=COUNTRIES.object(
                    code=places["code"].tolist(),
                    name=places["name"].tolist(),
                    page=places["page"].tolist(),
                ),
            )
        ),
    )
    r.render(
        "tournaments.html",
        "tournaments.html",
        n_rows=len(t),
        static=plain.first_tournaments(r.site),
        parts=plain.parts_nav("tournaments", len(t), ""),
        scripts=[r.data_files["tournaments"]],
        cfg=CFG.object(table="tournaments", root=""),
    )


class Columns:
    """The columns the tournament pages read, by tournament number: numpy arrays and lists
    (the chunks may run in forked worker processes)."""

    def __init__(self, site: Site):
        view = site.view
        t = site.tournaments
        self.n = len(t)
        self.page = t["page"].tolist()
        self.name = t["name"].tolist()
        self.city = t["city"].tolist()
        self.country = t["country"].tolist()
        self.country_name = t["country_name"].tolist()
        self.rule = t["rule"].tolist()
        self.games = t["n"].tolist()
        self.start = t["start"].tolist()
        self.end = t["end"].tolist()
        self.excluded = t["excluded"].tolist()

        st = view.standings
        self.s_tournament = st["tournament_id"].to_numpy(np.int64)
        self.s_row = st["number"].to_numpy(np.int64)
        self.s_player = st["player"].to_numpy(np.int64)
        self.s_first = st["place_first"].to_numpy(np.int64)
        self.s_last = st["place_last"].to_numpy(np.int64)
        self.s_score = st["score"].to_numpy(np.float64)
        self.s_perf = st["performance"].to_numpy(np.float64)
        self.s_bound = st["performance_bound"].to_numpy(np.int64)
        # what the lists said at the time (whole, as they showed it), and today's estimates
        self.s_then_before = np.rint(st["then_before"].to_numpy(np.float64))
        self.s_then_after = np.rint(st["then_after"].to_numpy(np.float64))
        # the player's other tournaments the list that first rated this one first rated too
        listed = pd.Series(st["then_list"].to_numpy("datetime64[D]"))
        together = listed.groupby([st["player"].to_numpy(), listed]).transform("size")
        self.s_shared = np.where(listed.isna(), 0, together.fillna(1) - 1).astype(np.int64)
        self.s_before = st["rating_before"].to_numpy(np.float64)
        self.s_after = st["rating_after"].to_numpy(np.float64)

        c = view.crosstable
        self.c_tournament = c["tournament_id"].to_numpy(np.int64)
        self.c_row = c["number"].to_numpy(np.int64)
        self.c_column = c["column"].to_numpy(np.int64)
        self.c_opp = c["opponent"].to_numpy(np.int64)
        self.c_black = (c["colour"] == "black").to_numpy(bool)
        self.c_score = c["score"].to_numpy(np.float64)
        self.c_id = c["game_id"].astype("str").to_numpy(object) if site.linked else None
        # where each tournament's standings start (a row's index: start + number - 1)
        self.s_start = np.searchsorted(self.s_tournament, np.arange(self.n + 1))
        # each tournament's round labels by column (a row may miss the first rounds)
        heads = c.drop_duplicates(["tournament_id", "column"]).sort_values(
            ["tournament_id", "column"]
        )
        self.rounds: dict[int, list[str]] = {}
        for k, label in zip(heads["tournament_id"].tolist(), heads["round"].tolist(), strict=True):
            self.rounds.setdefault(k, []).append(label or "–")
        self.linked = site.linked
        self.context = Context("../", site.player_columns)  # its links made once
        self.cross: Table = site.tables["cross"]
        self.pairings: Table = site.tables["pairings"]


def pages(r: Renderer) -> Family:
    """The tournament pages, to be written in chunks (:class:`frame.Pages`)."""
    cols = Columns(r.site)
    stencil = r.stencil(
        "tournaments",
        "tournament.html",
        ("name", "canonical", "facts", "shared", "standings", "pairings"),
    )
    paths = [f"tournaments/{page}.html" for page in cols.page]
    return Family(tournament_pages, cols, stencil, cols.n, paths)


def _cells(cols: Columns, lo: int, hi: int) -> list[str]:
    """Each standings row's games of the tournaments lo..hi-1, by round, as the EGF table
    format writes them: ``"12+/b,14=/w 3−/b"`` (the rounds joined by ",", a cell's games by " ";
    ``contract.tables``' ``cells``)."""
    c_lo, c_hi = (int(x) for x in np.searchsorted(cols.c_tournament, [lo, hi]))
    cs = slice(c_lo, c_hi)
    colour = np.where(cols.c_black[cs], "/b", "/w").tolist()
    entries = [
        f"{o}{_WRITTEN[sc]}{col}"
        for o, sc, col in zip(
            cols.c_opp[cs].tolist(), cols.c_score[cs].tolist(), colour, strict=True
        )
    ]
    # one cell per (tournament, row, round): its entries, space-separated
    t, row, column = cols.c_tournament[cs], cols.c_row[cs], cols.c_column[cs]
    new = np.r_[True, (t[1:] != t[:-1]) | (row[1:] != row[:-1]) | (column[1:] != column[:-1])]
    starts = np.flatnonzero(new).tolist()
    ends = starts[1:] + [c_hi - c_lo]
    by_row: dict[tuple[int, int], dict[int, str]] = {}
    t_, row_, column_ = t.tolist(), row.tolist(), column.tolist()  # not a numpy scalar per cell
    for a, b in zip(starts, ends, strict=True):
        cell = entries[a] if b - a == 1 else " ".join(entries[a:b])
        by_row.setdefault((t_[a], row_[a]), {})[column_[a]] = cell
    s_lo, s_hi = int(cols.s_start[lo]), int(cols.s_start[hi])
    out = []
    for tk, n in zip(cols.s_tournament[s_lo:s_hi].tolist(), cols.s_row[s_lo:s_hi].tolist(),
                     strict=True):  # fmt: skip
        mine = by_row.get((tk, n), {})
        out.append(",".join(mine.get(c, "") for c in range(len(cols.rounds.get(tk, [])))))
    return out


def _standings(cols: Columns, lo: int, hi: int) -> Source:
    """The standings rows of the tournaments lo..hi-1 as the crosstable's fields."""
    ss = slice(int(cols.s_start[lo]), int(cols.s_start[hi]))
    before, after = cols.s_then_before[ss], cols.s_then_after[ss]
    new = np.isnan(before) & ~np.isnan(after)
    change = np.where(new, "n", (after - before).astype(object))  # as shown: After - Before
    return Source(
        "",
        {
            "number": cols.s_row[ss],
            "place_first": cols.s_first[ss],
            "place_last": cols.s_last[ss],
            "player": cols.s_player[ss],
            "score2": np.rint(2 * cols.s_score[ss]).astype(np.int64),
            "performance": np.rint(cols.s_perf[ss]),
            "bound": cols.s_bound[ss],
            "before": before,
            "after": after,
            "change": change,
            "shared": cols.s_shared[ss],
            "cells": _cells(cols, lo, hi),
            "now_before": np.rint(cols.s_before[ss]),
            "now_after": np.rint(cols.s_after[ss]),
        },
    )


def _pairings(cols: Columns, lo: int, hi: int) -> tuple[Source, list[int]]:
    """The games of the tournaments lo..hi-1, each once (from Black's row), as the pairings'
    fields (the players by their number in the crosstable), by tournament, round, then the
    best pairs first (the higher, then the lower rating after the tournament as the lists
    showed it; today's estimate where none was kept); and the first pairing of each
    tournament (the end last)."""
    c_lo, c_hi = (int(x) for x in np.searchsorted(cols.c_tournament, [lo, hi]))
    black = np.flatnonzero(cols.c_black[c_lo:c_hi]) + c_lo
    t = cols.c_tournament[black]
    at = cols.s_start[t]  # the standings row of (tournament, number): start + number - 1
    b_row, w_row = at + cols.c_row[black] - 1, at + cols.c_opp[black] - 1
    after = np.where(np.isnan(cols.s_then_after), cols.s_after, cols.s_then_after)
    after = np.nan_to_num(after)
    high = np.maximum(after[b_row], after[w_row])
    low = np.minimum(after[b_row], after[w_row])
    column = cols.c_column[black]
    order = np.lexsort((-low, -high, column, t))
    black, t, column = black[order], t[order], column[order]
    ids: list[str | None] = [None] * len(black)
    if cols.c_id is not None:
        ids = [g if g in cols.linked else None for g in cols.c_id[black].tolist()]
    labels = [cols.rounds.get(tk, []) for tk in range(lo, hi)]
    source = Source(
        "",
        {
            "round": [
                labels[tk - lo][c] for tk, c in zip(t.tolist(), column.tolist(), strict=True)
            ],
            "black": cols.c_row[black],
            "white": cols.c_opp[black],
            "result": [_SYMBOL[x] for x in cols.c_score[black].tolist()],
            "id": ids,
        },
    )
    return source, np.searchsorted(t, np.arange(lo, hi + 1)).tolist()


def tournament_pages(r: Renderer, cols: Columns, page: Stencil, lo: int, hi: int) -> None:
    """Write ``tournaments/<page>.html`` for the tournaments numbered lo..hi-1: the facts, the
    crosstable (a row per player in standings order) and the pairings, as HTML."""
    standing = _standings(cols, lo, hi)
    cross = shown_columns(cols.cross, cols.cross.tab(), standing)
    pairing, first = _pairings(cols, lo, hi)
    paired = shown_columns(cols.pairings, cols.pairings.tab(), pairing)
    base = int(cols.s_start[lo])
    for k in range(lo, hi):
        rows = np.arange(int(cols.s_start[k]) - base, int(cols.s_start[k + 1]) - base)
        start, end = cols.start[k], cols.end[k]
        place = place_html(cols.city[k], cols.country[k], cols.country_name[k]) or "–"
        facts = (
            f"<dl class=facts>{PLACE}<dd>{place}"
            f"{DATES}<dd>{start if start == end else f'{start} – {end}'}"
            f"{RULE}<dd>{escape(cols.rule[k] or '–')}"
            f"{RATED}{BETWEEN % (cols.games[k], len(rows))}"
        )
        if cols.excluded[k]:
            facts += (
                f'{NOT_RATED}<dd><a href="../excluded.html#t={cols.page[k]}">'
                f"{AND_WHY % cols.excluded[k]}</a>"
            )
        lists = {"rounds": cols.rounds.get(k, [])}
        games = np.arange(first[k - lo], first[k - lo + 1])
        html = page.fill(
            name=cols.name[k],
            canonical=r.canonical(f"tournaments/{cols.page[k]}.html"),
            facts=Markup(facts + "</dl>"),
            shared=Markup(SHARED if (standing.array("shared")[rows] > 0).any() else ""),
            standings=whole_html(
                cross, cells(cols.cross, cross, standing, rows, cols.context, lists), lists
            ),
            pairings=whole_html(paired, cells(cols.pairings, paired, pairing, games, cols.context)),
        )
        r.write(f"tournaments/{cols.page[k]}.html", html)
