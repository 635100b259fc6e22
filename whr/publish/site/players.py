"""The players: their names (every page's), the players data file and index (``players.html``),
and a page per listed player (``p/<id>.html``).

A player's page holds the facts as HTML; the rating history, the tournaments and the games are
one JSON object (:data:`whr.publish.site.contract.PLAYER`) that the page script draws.
"""

from __future__ import annotations

from urllib.parse import quote

import numpy as np
import pandas as pd
from markupsafe import Markup, escape

from whr.lists import RuleNumbers, View
from whr.publish.site import plain
from whr.publish.site.contract import (
    CFG,
    COUNTRIES,
    PLAYERS,
    TEXTS,
)
from whr.publish.site.countries import source as countries_source
from whr.publish.site.frame import (
    Family,
    Renderer,
    Site,
    Stencil,
    bounds,
    city,
    days,
    floats,
    iso,
    js_json,
    whole,
)
from whr.publish.site.i18n import N_, _, counted, inner, into, joined, mark, native_lang
from whr.publish.site.i18n import place as i18n_place
from whr.publish.site.lists import ListData, shown_change
from whr.publish.site.names import namesake_labels, page_names, text
from whr.publish.site.player_data import event_order
from whr.publish.site.rows import Context, Source, cells, shown_columns, signed, table_html

EPOCH_DAY = np.datetime64("1970-01-01", "D")


def status_labels(rules: RuleNumbers) -> tuple[str, str, str]:
    """What each status means, by status code (``whr.tables.STATUSES`` order), as a fact's
    ``<dd>``."""
    return (
        into("dd", _("established, active")),
        into("dd", _("established, inactive: no rated game in %(n)s years", n=rules.active_years)),
        into("dd", _("provisional: at most %(n)s rated games", n=rules.established_games - 1)),
    )


def table(view: View) -> pd.DataFrame:
    """The listed players by number (the players index, :attr:`whr.lists.View.players`), with
    their names, labels and pages as every page shows them (see :class:`frame.Site`)."""
    index = view.players
    ids = index["player"].astype("str").to_numpy(object)
    names = index["name"].where(index["name"].notna(), index["player"]).astype("str")
    pages = page_names(ids.tolist())
    out = pd.DataFrame(
        {
            "player": ids,
            "name": names.to_numpy(object),
            "native": [text(x) for x in index["native_name"].tolist()],
            "country": [text(x) for x in index["country"].tolist()],
            "country_name": [text(x) for x in index["country_name"].tolist()],
            "city": [city(x) for x in index["city"].tolist()],
            "birth_year": np.nan_to_num(floats(index["birth_year"])).astype(np.int64),
            "female": index["female"].fillna(False).astype(bool).to_numpy(),
        }
    )
    out["label"] = namesake_labels(
        out["name"].tolist(),
        out["country"].tolist(),
        [y or None for y in out["birth_year"].tolist()],
        out["player"].tolist(),
    )
    out["page"] = [pages[p] for p in ids.tolist()]
    return out


def source(players: pd.DataFrame, countries: pd.DataFrame) -> Source:
    """The players (:func:`table`) as the row filler reads them: the players data's fields,
    each page's name, and their countries (``countries``: the current list's)."""
    code_index = {c: i for i, c in enumerate(countries["code"].tolist())}
    return Source(
        "players",
        {
            "id": players["player"].to_numpy(object),
            "name": players["name"].to_numpy(object),
            "label": players["label"].to_numpy(object),
            "native": players["native"].to_numpy(object),
            "city": players["city"].to_numpy(object),
            "country": np.asarray(
                [code_index.get(c, -1) for c in players["country"].tolist()], np.int64
            ),
            "birth_year": players["birth_year"].to_numpy(np.int64),
            "female": players["female"].to_numpy(bool).astype(np.int64),
            "page": players["page"].to_numpy(object),
            "countries": countries_source(countries),
        },
    )


def data(site: Site) -> str:
    """The players data file's JSON (:data:`contract.PLAYERS`)."""
    p = site.players
    code_index = {c: i for i, c in enumerate(site.countries["code"].tolist())}
    pages = {
        str(i): page
        for i, (pid, page) in enumerate(zip(p["player"].tolist(), p["page"].tolist(), strict=True))
        if pid != page
    }
    countries = site.countries
    return js_json(
        PLAYERS.object(
            id=p["player"].tolist(),
            name=p["name"].tolist(),
            label=p["label"].tolist(),
            native=p["native"].tolist(),
            city=p["city"].tolist(),
            country=[code_index.get(c, -1) for c in p["country"].tolist()],
            birth_year=p["birth_year"].tolist(),
            female=p["female"].astype(np.int64).tolist(),
            page=pages,
            countries=COUNTRIES.object(
                code=countries["code"].tolist(),
                name=countries["name"].tolist(),
                page=countries["page"].tolist(),
            ),
        )
    )


def write_index(r: Renderer) -> None:
    """``players.html``: every listed player, drawn by the page script."""
    r.render(
        "players.html",
        "players.html",
        n_rows=len(r.site.players),
        static=plain.first_players(r.site),
        parts=plain.parts_nav("players", len(r.site.players), ""),
        scripts=[r.data_files["players"], r.data_files["lists.current"]],
        cfg=CFG.object(table="players", list="current", root=""),
    )


# --- player pages ------------------------------------------------------------------------------


def change_sentence(change: float, own: float, others: float) -> str:
    """The plain sentence that splits a player's change since the previous list, "" when there
    is nothing to say: no change (as shown), or no split known.

    ``change`` is the change as shown (whole, :func:`whr.publish.site.lists.shown_change`),
    ``own`` and ``others`` its parts unrounded (:func:`whr.lists.changes.split_rating_change`:
    ``own`` exactly 0 when none of the player's own games changed). The own part is rounded
    once and the others' part is what is left of the shown change, so the two add up to it as
    shown.
    """
    if change != change or change == 0 or own != own or others != others:
        return ""
    own_shown = int(np.rint(own))
    others_shown = int(change) - own_shown
    if own == 0:
        return _(
            "The player has no new games: the change is all because other players' new "
            "results changed the estimate of the past."
        )
    if own_shown == 0:
        return _(
            "The player's own new games moved the rating by less than a point: the change is "
            "because other players' new results changed the estimate of the past."
        )
    if others_shown == 0:
        return _("The change is all from the player's own new games.")
    return _(
        "Of the change, %(own)s came from the player's own new games and %(others)s because "
        "other players' new results changed the estimate of the past.",
        own=signed(own_shown),
        others=signed(others_shown),
    )


class Columns:
    """The columns the player pages read, by player number: numpy arrays and lists (no
    pandas, no Arrow: the chunks may run in forked worker processes)."""

    def __init__(self, site: Site, current: ListData):
        view = site.view
        p = site.players
        self.n = len(p)
        self.ids = p["player"].tolist()
        self.page = p["page"].tolist()
        self.name = p["name"].tolist()
        self.native = p["native"].tolist()
        self.female = p["female"].tolist()
        self.city = p["city"].tolist()
        self.country = p["country"].tolist()
        self.country_name = p["country_name"].tolist()
        self.birth_year = p["birth_year"].tolist()
        self.status_labels = status_labels(view.rules)

        f = view.current.frame
        at = pd.Index(f["player"].to_numpy(object)).get_indexer(p["player"].to_numpy(object))

        def take(column: str) -> np.ndarray:  # a column of the current list by player number
            values: np.ndarray = floats(f[column])[at]
            return values

        self.rating, self.unc, self.best = take("rating"), take("uncertainty"), take("best_rating")
        self.rank, self.crank, self.prev = take("rank"), take("country_rank"), take("previous_rank")
        # the previous list's rating and the change as shown (whole: they add up as shown)
        self.previous, self.change = shown_change(self.rating, take("rating_change"))
        self.own, self.others = take("change_own_games"), take("change_others")
        self.counts = np.stack(
            [take(c) for c in ("games", "wins", "draws", "losses", "gy1", "gy2", "gy5")]
        )
        self.status = current.status[at]
        self.entered = view.current.entered[at]  # ranked now, not on the previous list
        self.first, self.last, self.best_day, self.peak_day = (
            days(f[c])[at] for c in ("first_game", "last_game", "best_date", "best_estimate_date")
        )
        self.peak = take("best_estimate")  # today's estimate of the peak (best: a list's)
        # the first list this site published: a best before it is on a list the backfill
        # reconstructed
        first = view.published_from
        self.published_from = (
            int((np.datetime64(first, "D") - EPOCH_DAY).astype(np.int64)) if first else None
        )
        self.has_previous = current.change
        self._events(view)
        self.as_of = view.as_of.isoformat()
        self.country_page = site.country_page
        self.tournaments = Source(
            "tournaments",
            {
                "page": site.tournaments["page"].to_numpy(object),
                "name": site.tournaments["name"].to_numpy(object),
            },
        )
        self.table = site.tables["events"]

    def _events(self, view: View) -> None:
        """Each player's tournaments (the standings' rows), newest first (as in their data)."""
        st = view.standings
        ev = st.iloc[event_order(st)]
        self.ev_number = ev["player"].to_numpy(np.int64)
        self.ev_tournament = ev["tournament_id"].to_numpy(np.int64)
        self.ev_games = ev["games"].to_numpy(np.int64)
        self.ev_score = ev["score"].to_numpy(np.float64)
        # the change at the time (the view's, from the kept table), each rounded once, so that
        # after - before is the change as displayed; the day of the list that first rated it
        self.ev_then = [np.rint(ev[c].to_numpy(np.float64)) for c in ("then_before", "then_after")]
        listed = ev["then_list"].to_numpy("datetime64[D]")
        self.ev_list = np.where(np.isnat(listed), -1, listed.astype(np.int64))


def pages(r: Renderer, current: ListData) -> Family:
    """The player pages, to be written in chunks (:class:`frame.Pages`)."""
    cols = Columns(r.site, current)
    # (the tournaments' names and links: the script reads them from the page's static list)
    scripts = Markup(f"<script src=../{r.data_files['players']}></script>")
    stencil = r.stencil(
        "p",
        "player.html",
        ("name", "canonical", "heading", "facts", "change", "compare", "record", "data"),
        scripts=scripts,
    )
    return Family(player_pages, cols, stencil, cols.n, [f"p/{page}.html" for page in cols.page])


def player_pages(r: Renderer, cols: Columns, page: Stencil, lo: int, hi: int) -> None:
    """Write ``p/<page>.html`` for the players numbered lo..hi-1.

    The facts and the tournaments (the change at the time) are HTML; the rating history, the
    games and the opponents are in the player's data beside the page (``p/<page>.json``,
    :mod:`whr.publish.site.player_data`), which the page script fetches when the site is
    served over http(s) and draws, with the names from the players data file (loaded once for
    every page). The page does not carry them a second time: the data would double the site.
    """
    e_lo, e_hi = (int(x) for x in np.searchsorted(cols.ev_number, [lo, hi]))
    p_starts, p_ends = bounds(cols.ev_number[e_lo:e_hi], lo, hi)
    facts = _player_facts(cols, lo, hi)
    plain_events = _plain_events(cols, p_starts, p_ends, e_lo, e_hi)
    for i in range(lo, hi):
        native = cols.native[i]
        heading = (
            f"<h1{' class=f' if cols.female[i] else ''}>{escape(cols.name[i])}"
            + (native_html(native, cols.country[i]) if native else "")
            + "</h1>"
        )
        sentence = change_sentence(cols.change[i], cols.own[i], cols.others[i])
        html = page.fill(
            name=cols.name[i],
            canonical=r.canonical(f"p/{cols.page[i]}.html"),
            heading=Markup(heading),
            facts=Markup(facts[i - lo]),
            change=Markup(f"<p class=change>{escape(sentence)}</p>") if sentence else "",
            compare=quote(cols.ids[i], safe=""),
            record=plain_events[i - lo],
            data=f"{cols.page[i]}.json",
        )
        r.write(f"p/{cols.page[i]}.html", html)


TOURNAMENTS, NO_GAMES = TEXTS["tournaments"].element("h2"), TEXTS["no_rated_games"].element("p")
"""What the rows of a player's tournaments say first, and where they have none."""


def native_html(native: str, country: str) -> str:
    """A player's native name as the heading shows it, in its language (``lang``)."""
    language = native_lang(native, country)
    marked = f" lang={language}" if language else ""
    return f" <span class=native{marked}>({escape(native)})</span>"


def _plain_events(
    cols: Columns, starts: np.ndarray, ends: np.ndarray, e_lo: int, e_hi: int
) -> list[Markup]:
    """Each player's tournaments, newest first, as the declared table's rows without script
    (``contract``'s events: the tournament, score/games, the change at the time as the lists
    showed it then, and "with <name>" where one list first rated another of the player's
    tournaments too), from the one row filler; the page script keeps the tournament's link and
    the change at the time from them when it draws the whole table. Lean (no classes):
    tens of thousands of pages."""
    ev = slice(e_lo, e_hi)
    first_list = cols.ev_list[ev].tolist()  # the day of the list that first rated it; -1 none
    names = cols.tournaments.array("name")[cols.ev_tournament[ev]].tolist()
    notes: list[str] = [""] * (e_hi - e_lo)
    for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
        together: dict[int, list[int]] = {}  # one list first rated several: say so, by name
        for k in range(s, e):
            if first_list[k] >= 0:
                together.setdefault(first_list[k], []).append(k)
        for shared in together.values():
            for k in shared if len(shared) > 1 else ():
                others = joined(names[j] for j in shared if j != k)
                message = N_("with %(tournaments)s")
                notes[k] = (
                    f"<small class=with {mark(message)}>{inner(message, tournaments=others)}</small>"
                )
    rows = Source(
        "event",
        {
            "tournament": cols.ev_tournament[ev],
            "score2": np.rint(2 * cols.ev_score[ev]).astype(np.int64),
            "games": cols.ev_games[ev],
            "then_before": np.rint(cols.ev_then[0][ev]),
            "then_after": np.rint(cols.ev_then[1][ev]),
            "note": np.asarray(notes, dtype=object),
        },
        {"tournaments": cols.tournaments},
    )
    table = cols.table
    columns = shown_columns(table, table.tab(), rows)
    every = cells(table, columns, rows, np.arange(rows.size), Context("../", {}))
    out = []
    for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
        if s == e:
            out.append(Markup(f"{TOURNAMENTS}{NO_GAMES}"))
            continue
        out.append(
            Markup(f"{TOURNAMENTS}<table>{table_html(columns, every[s:e], lean=True)}</table>")
        )
    return out


# the facts' texts: messages, by their ids (the page script writes them in the reader's
# language), as printf templates where they have values (formatted once: tens of thousands of
# pages)
def _label(message: str) -> str:
    return f"<dt {mark(message)}>{inner(message)}"


FROM, BORN, STATUS, RANK, GAMES = (
    _label(N_("From")), _label(N_("Born")), _label(N_("Status")), _label(N_("Rank")),
    _label(N_("Games")),
)  # fmt: skip
FIRST_LAST = _label(N_("First, last game"))
BEST, PEAK = _label(N_("Best rating a list published")), _label(N_("Peak, today's estimate"))
BEST_REBUILT = _label(N_("Best rating on the lists"))
PREVIOUS_LIST = _label(N_("Previous list"))
CHANGE, NOT_ON_IT = str(_("change")), into("dd", _("not on it: new on this list"))
WORLD_COUNTRY = str(
    _("%(world)s in the world, %(country)s in the country", world="%s", country="%s")
)
PREVIOUS_RANK = str(_("%(ranks)s (previous list: %(rank)s)", ranks="%s", rank="%s"))
NEWLY_RANKED = str(_("%(ranks)s (newly ranked: not ranked on the previous list)", ranks="%s"))
GAMES_SPLIT = str(
    _(
        "%(n)s: %(won)s won, %(drawn)s drawn, %(lost)s lost",
        n="%s",
        won="%s",
        drawn="%s",
        lost="%s",
    )  # fmt: skip
)
BEST_ON = into("dd", _("%(rating)s on %(day)s", rating="%s", day="%s"))
BEST_ON_REBUILT = into(
    "dd",
    _(
        "%(rating)s on %(day)s, a list the backfill reconstructed from the games known then "
        "(this site published its first list on %(first)s)",
        rating="%s",
        day="%s",
        first="%s",
    ),
)
RATING_ON = N_("Rating on %(day)s")


def _player_facts(cols: Columns, lo: int, hi: int) -> list[str]:
    """The facts (``<dl>``) of the players numbered lo..hi-1."""
    s = slice(lo, hi)
    rank, crank, prev = whole(cols.rank[s]), whole(cols.crank[s]), whole(cols.prev[s])
    first, last = iso(cols.first[s]), iso(cols.last[s])
    best_day, peak_day = iso(cols.best_day[s]), iso(cols.peak_day[s])
    since = cols.published_from
    rebuilt = (cols.best_day[s] < since) if since is not None else np.zeros(hi - lo, bool)
    since_day = iso(np.array([since]))[0] if since is not None else ""
    peak = whole(cols.peak[s])
    counts = np.rint(cols.counts[:, s]).astype(np.int64).T.tolist()
    rating, unc, best = whole(cols.rating[s]), whole(cols.unc[s]), whole(cols.best[s])
    previous, change = whole(cols.previous[s]), cols.change[s].tolist()
    rating_on = f"<dt {mark(RATING_ON)}>{inner(RATING_ON, day=cols.as_of)}"
    out = []
    for k, i in enumerate(range(lo, hi)):
        code, page = cols.country[i], cols.country_page.get(cols.country[i], "")
        country = str(escape(cols.country_name[i] or code))
        if code:
            country = f"<span data-c={escape(code)}>{country}</span>"
        if page:
            country = f"<a href=../countries/{page}.html>{country}</a>"
        place = i18n_place(str(escape(cols.city[i])), country) or "–"
        ranks = WORLD_COUNTRY % (rank[k], crank[k]) if rank[k] else "–"
        if prev[k]:
            ranks = PREVIOUS_RANK % (ranks, prev[k])
        elif cols.entered[i]:
            ranks = NEWLY_RANKED % ranks
        n, w, d, lost, g1, g2, g5 = (_count(c) for c in counts[k])
        out.append(
            f"<dl class=facts><dt>ID<dd>{escape(cols.ids[i])}{FROM}<dd>{place}"
            + (f"{BORN}<dd>{cols.birth_year[i]}" if cols.birth_year[i] else "")
            + f"{rating_on}<dd><strong>{rating[k]}</strong>"
            + (f" ± {unc[k]}" if unc[k] else "")
            + (_previous(previous[k], change[k]) if cols.has_previous else "")
            + f"{STATUS}{cols.status_labels[cols.status[i]]}{RANK}{into('dd', ranks)}"
            f"{GAMES}<dd>{GAMES_SPLIT % (n, w, d, lost)} · Gy1 {g1}, Gy2 {g2}, Gy5 {g5}"
            f"{FIRST_LAST}<dd>{first[k]}, {last[k]}"
            + (_best(best[k], best_day[k], since_day if rebuilt[k] else "") if best[k] else "")
            + (f"{PEAK}{BEST_ON % (peak[k], peak_day[k])}" if peak[k] else "")
            + "</dl>"
        )
    return out


def _best(rating: str, day: str, first: str) -> str:
    """The facts' best rating a list published, and its day; ``first``: the day of the first
    list this site published, when the best is on a list the backfill reconstructed before it
    (said so), else ""."""
    if first:
        return f"{BEST_REBUILT}{BEST_ON_REBUILT % (rating, day, first)}"
    return f"{BEST}{BEST_ON % (rating, day)}"


def _count(n: int) -> str:
    """A count of the facts, grouped as the reader's language groups digits (``counted``);
    below 1,000, which no language groups, plain (fewer bytes on every page)."""
    return str(counted(n)) if n >= 1000 else str(n)


def _previous(previous: str, change: float) -> str:
    """The facts' row of the previous list: its rating and the change since, as shown (today's
    rating shown minus the previous one shown)."""
    if change != change:
        return f"{PREVIOUS_LIST}{NOT_ON_IT}"
    return (
        f"{PREVIOUS_LIST}<dd><span class=prev>{previous}</span> · {CHANGE} "
        f"<strong class=delta>{signed(change)}</strong>"
    )
