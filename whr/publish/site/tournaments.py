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
from whr.publish.site.contract import CFG, COUNTRIES, CROSS, STANDING, TOURNAMENTS, Column
from whr.publish.site.frame import (
    Family,
    Renderer,
    Site,
    Stencil,
    city,
    js_json,
    json_numbers,
    safe_in_script,
    text,
)
from whr.publish.site.i18n import N_, _, inner, into, mark
from whr.publish.site.names import page_names
from whr.publish.site.rows import Context, Source, cells, place_html, shown_columns, table_html

_SYMBOL = {1.0: "+", 0.5: "=", 0.0: "-"}  # in the page data; shown + = −


# the facts' texts: messages, by their ids (the page script writes them in the reader's
# language); formatted once (tens of thousands of pages)
def _label(message: str, context: str | None = None) -> str:
    return f"<dt {mark(message, context)}>{inner(message)}"


PLACE, DATES, RULE = _label(N_("Place")), _label(N_("Dates")), _label(N_("Rule"))
RATED, NOT_RATED = _label(N_("Rated games")), _label(N_("Not rated"))
BETWEEN = into("dd", _("%(games)s between %(players)s players", games="%s", players="%s"))
AND_WHY = str(_("%(n)s games, and why", n="%s"))


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
        # each tournament's round labels by column (a row may miss the first rounds)
        heads = c.drop_duplicates(["tournament_id", "column"]).sort_values(
            ["tournament_id", "column"]
        )
        self.rounds: dict[int, list[str]] = {}
        for k, label in zip(heads["tournament_id"].tolist(), heads["round"].tolist(), strict=True):
            self.rounds.setdefault(k, []).append(label or "–")
        self.linked = site.linked
        self.context = Context("../", site.player_columns)  # its links made once
        self.table = site.tables["cross"]


def _standings(cols: Columns, ss: slice) -> tuple[list[Column], list[list[str]]]:
    """The standings rows ``ss`` as the crosstable's rows without script (place, player,
    score: the declared table's static columns), from the one row filler."""
    table = cols.table
    rows = Source(
        "standing",
        {
            "number": cols.s_row[ss],
            "place_first": cols.s_first[ss],
            "place_last": cols.s_last[ss],
            "player": cols.s_player[ss],
            "score2": np.rint(2 * cols.s_score[ss]).astype(np.int64),
        },
    )
    columns = shown_columns(table, table.tab(), rows)
    return columns, cells(table, columns, rows, np.arange(rows.size), cols.context)


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
    t_, row_, column_ = t.tolist(), row.tolist(), column.tolist()  # not a numpy scalar per cell
    for a, b in zip(starts, ends, strict=True):
        cell = entries[a] if b - a == 1 else " ".join(entries[a:b])
        cells.setdefault((t_[a], row_[a]), {})[column_[a]] = cell

    s_lo, s_hi = (int(x) for x in np.searchsorted(cols.s_tournament, [lo, hi]))
    ss = slice(s_lo, s_hi)
    tournament, number = cols.s_tournament[ss].tolist(), cols.s_row[ss].tolist()
    joined = []
    for tk, n in zip(tournament, number, strict=True):
        mine = cells.get((tk, n), {})
        joined.append(
            '"' + ",".join(mine.get(c, "") for c in range(len(cols.rounds.get(tk, [])))) + '"'
        )
    before, after = cols.s_then_before[ss], cols.s_then_after[ss]
    change = json_numbers(after - before)  # as shown: After - Before, whole
    new = np.isnan(before) & ~np.isnan(after)
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
        change=['"n"' if n else c for n, c in zip(new.tolist(), change, strict=True)],
        cells=joined,
        now_before=json_numbers(cols.s_before[ss]),
        now_after=json_numbers(cols.s_after[ss]),
        shared=[str(x) for x in cols.s_shared[ss].tolist()],
    )
    by_t: dict[int, list[str]] = {}
    plain_rows: dict[int, list[list[str]]] = {}
    columns, standing_cells = _standings(cols, ss)
    for tk, text_, cells_ in zip(tournament, rows, standing_cells, strict=True):
        by_t.setdefault(tk, []).append(text_)
        plain_rows.setdefault(tk, []).append(cells_)
    for k in range(lo, hi):
        mine_rows = by_t.get(k, [])
        start, end = cols.start[k], cols.end[k]
        place = place_html(cols.city[k], cols.country[k], cols.country_name[k]) or "–"
        facts = (
            f"<dl class=facts>{PLACE}<dd>{place}"
            f"{DATES}<dd>{start if start == end else f'{start} – {end}'}"
            f"{RULE}<dd>{escape(cols.rule[k] or '–')}"
            f"{RATED}{BETWEEN % (cols.games[k], len(mine_rows))}"
        )
        if cols.excluded[k]:
            facts += (
                f'{NOT_RATED}<dd><a href="../excluded.html#t={cols.page[k]}">'
                f"{AND_WHY % cols.excluded[k]}</a>"
            )
        payload = CROSS.text(
            rounds=js_json(cols.rounds.get(k, [])), rows=f"[{','.join(mine_rows)}]"
        )
        html = page.fill(
            name=cols.name[k],
            canonical=r.canonical(f"tournaments/{cols.page[k]}.html"),
            facts=Markup(facts + "</dl>"),
            standings=table_html(columns, plain_rows.get(k, []), lean=True),
            data=Markup(safe_in_script(payload)),
        )
        r.write(f"tournaments/{cols.page[k]}.html", html)
