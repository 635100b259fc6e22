"""The tournaments: their index (``tournaments.html`` over the tournaments data file) and a page
per tournament with rated games (``tournaments/<id>.html``): the facts as HTML, the standings
as data (:data:`whr.publish.site.contract.CROSS`) that the page script draws as a crosstable
(a cell: the opponent's row, + win, = draw, − loss, /b or /w the colour, as in the EGF table
format) and, from it, the pairings by round."""

from __future__ import annotations

import numpy as np
import pandas as pd
from markupsafe import Markup, escape

from whr.lists import View
from whr.publish.site import plain
from whr.publish.site.contract import CFG, CROSS, STANDING, TOURNAMENTS
from whr.publish.site.frame import (
    Family,
    Renderer,
    Site,
    Stencil,
    city,
    js_json,
    json_numbers,
    safe_in_script,
    score_text,
    text,
)
from whr.publish.site.i18n import _
from whr.publish.site.names import page_names

_SYMBOL = {1.0: "+", 0.5: "=", 0.0: "-"}  # in the page data; shown + = −


# the facts' texts (messages: the page script swaps them for the reader's language)
PLACE, DATES, RULE, RATED, NOT_RATED = (
    _("Place"), _("Dates"), _("Rule"), _("Rated games"), _("Not rated"),
)  # fmt: skip
BETWEEN = _("%(games)s between %(players)s players", games="%s", players="%s")
AND_WHY = _("%(n)s games, and why", n="%s")


def table(view: View) -> tuple[pd.DataFrame, dict[str, str]]:
    """The tournaments with rated games by number (:attr:`whr.lists.View.tournaments`), with
    their page, name, place and rule as the pages show them; and the page name of every
    tournament id read or played."""
    index = view.tournaments
    tours = view.tables.tournaments.drop_duplicates("tournament_id")
    ids = index["tournament_id"].to_numpy(object)
    pages = page_names([*tours["tournament_id"].astype("str").tolist(), *sorted(ids.tolist())])
    facts = tours.set_index(tours["tournament_id"].astype("str")).reindex(ids)
    # a country the tournament names only by its code is named as the list names it
    named = dict(
        zip(
            view.countries["country"].tolist(), view.countries["country_name"].tolist(), strict=True
        )
    )
    place = [
        ", ".join(x for x in (city(c), text(cn) or text(named.get(k)) or text(k)) if x)
        for c, cn, k in zip(
            facts["city"].tolist(),
            facts["country_name"].tolist(),
            facts["country"].tolist(),
            strict=True,
        )
    ]
    out = pd.DataFrame(
        {
            "tournament_id": ids,
            "page": [pages[t] for t in ids.tolist()],
            "name": [
                text(name) or t or "(no tournament)"
                for t, name in zip(ids.tolist(), facts["name"].tolist(), strict=True)
            ],
            "place": place,
            "country": [text(k) for k in facts["country"].tolist()],
            "rule": [text(x) for x in facts["rule"].tolist()],
            "n": index["games"].to_numpy(np.int64),
            "start": index["start"].tolist(),
            "end": index["end"].tolist(),
            "excluded": index["excluded"].to_numpy(np.int64),
        }
    )
    return out, pages


def write_index(r: Renderer) -> None:
    """The tournaments data file (:data:`contract.TOURNAMENTS`) and ``tournaments.html``."""
    t = r.site.tournaments
    r.data(
        "tournaments",
        "tournaments",
        js_json(
            TOURNAMENTS.object(
                page=t["page"].tolist(),
                name=t["name"].tolist(),
                place=t["place"].tolist(),
                games=t["n"].tolist(),
                start=t["start"].tolist(),
                end=t["end"].tolist(),
                rule=t["rule"].tolist(),
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
        cfg=CFG.object(page="tournaments", root=""),
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
        self.place = t["place"].tolist()
        self.country = t["country"].tolist()
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
        # each tournament's round labels by column (a row may miss the first rounds)
        heads = c.drop_duplicates(["tournament_id", "column"]).sort_values(
            ["tournament_id", "column"]
        )
        self.rounds: dict[int, list[str]] = {}
        for k, label in zip(heads["tournament_id"].tolist(), heads["round"].tolist(), strict=True):
            self.rounds.setdefault(k, []).append(label or "–")
        self.linked = site.linked
        self.p_name = site.players["name"].tolist()
        self.p_page = site.players["page"].tolist()


def _standings(cols: Columns, ss: slice) -> list[str]:
    """The standings rows ``ss`` as HTML list items, "place player score" as the crosstable
    shows them (lean: no classes, no quotes, page names are plain; tens of thousands of
    pages)."""
    out = []
    for first, last, p, score in zip(
        cols.s_first[ss].tolist(),
        cols.s_last[ss].tolist(),
        cols.s_player[ss].tolist(),
        cols.s_score[ss].tolist(),
        strict=True,
    ):
        link = f"<a href=../p/{escape(cols.p_page[p])}.html>{escape(cols.p_name[p])}</a>"
        place = str(first) if first == last else f"{first}\u2013{last}"
        out.append(f"<li>{place} {link} {score_text(score)}\n")
    return out


def pages(r: Renderer) -> Family:
    """The tournament pages, to be written in chunks (:class:`frame.Pages`)."""
    cols = Columns(r.site)
    players = Markup(f"<script src=../{r.data_files['players']}></script>\n")
    stencil = r.stencil(
        "tournaments",
        "tournament.html",
        ("name", "canonical", "facts", "standings", "data"),
        scripts=players,
    )
    paths = [f"tournaments/{page}.html" for page in cols.page]
    return Family(tournament_pages, cols, stencil, cols.n, paths)


def _place(place: str, code: str) -> str:
    """A tournament's place as its page shows it: "City, Country", the country (last, when
    the tournament has a country ``code``) marked with its code, which the page script writes
    in the reader's language; "–" when not known."""
    if not place:
        return "–"
    if not code:
        return str(escape(place))
    city, sep, country = place.rpartition(", ")
    return f"{escape(city)}{sep}<span data-c={escape(code)}>{escape(country)}</span>"


def tournament_pages(r: Renderer, cols: Columns, page: Stencil, lo: int, hi: int) -> None:
    """Write ``tournaments/<page>.html`` for the tournaments numbered lo..hi-1: the facts, and
    the rounds and a :data:`contract.STANDING` row per player in standings order."""
    c_lo, c_hi = (int(x) for x in np.searchsorted(cols.c_tournament, [lo, hi]))
    cs = slice(c_lo, c_hi)
    colour = np.where(cols.c_black[cs], "b", "w").tolist()
    entries = [
        f"{o}{_SYMBOL[sc]}{col}"
        for o, sc, col in zip(
            cols.c_opp[cs].tolist(), cols.c_score[cs].tolist(), colour, strict=True
        )
    ]
    if cols.c_id is not None:  # RenjuNet ids are digits (names.renjunet_games)
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
    tournament, number = cols.s_tournament[ss].tolist(), cols.s_row[ss].tolist()
    joined = []
    for tk, n in zip(tournament, number, strict=True):
        mine = cells.get((tk, n), {})
        joined.append(
            '"' + ",".join(mine.get(c, "") for c in range(len(cols.rounds.get(tk, [])))) + '"'
        )
    before, after = cols.s_before[ss], cols.s_after[ss]
    rows = STANDING.rows_text(
        number=[str(n) for n in number],
        place_first=[str(x) for x in cols.s_first[ss].tolist()],
        place_last=[str(x) for x in cols.s_last[ss].tolist()],
        player=[str(x) for x in cols.s_player[ss].tolist()],
        score2=[str(x) for x in np.rint(2 * cols.s_score[ss]).astype(np.int64).tolist()],
        performance=json_numbers(cols.s_perf[ss]),
        bound=[str(x) for x in cols.s_bound[ss].tolist()],
        before=json_numbers(before),
        after=json_numbers(after),
        change=json_numbers(np.rint(after) - np.rint(before)),  # as shown: After - Before
        cells=joined,
    )
    by_t: dict[int, list[str]] = {}
    plain_rows: dict[int, list[str]] = {}
    for tk, text_, cells_ in zip(tournament, rows, _standings(cols, ss), strict=True):
        by_t.setdefault(tk, []).append(text_)
        plain_rows.setdefault(tk, []).append(cells_)
    for k in range(lo, hi):
        mine_rows = by_t.get(k, [])
        start, end = cols.start[k], cols.end[k]
        facts = (
            f"<dl class=facts><dt>{PLACE}<dd>{_place(cols.place[k], cols.country[k])}"
            f"<dt>{DATES}<dd>{start if start == end else f'{start} – {end}'}"
            f"<dt>{RULE}<dd>{escape(cols.rule[k] or '–')}"
            f"<dt>{RATED}<dd>{BETWEEN % (cols.games[k], len(mine_rows))}"
        )
        if cols.excluded[k]:
            facts += (
                f'<dt>{NOT_RATED}<dd><a href="../excluded.html#t={cols.page[k]}">'
                f"{AND_WHY % cols.excluded[k]}</a>"
            )
        payload = CROSS.text(
            rounds=js_json(cols.rounds.get(k, [])), rows=f"[{','.join(mine_rows)}]"
        )
        html = page.fill(
            name=cols.name[k],
            canonical=r.canonical(f"tournaments/{cols.page[k]}.html"),
            facts=Markup(facts + "</dl>"),
            standings=Markup("".join(plain_rows.get(k, []))),
            data=Markup(safe_in_script(payload)),
        )
        r.write(f"tournaments/{cols.page[k]}.html", html)
