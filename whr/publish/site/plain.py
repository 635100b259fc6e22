"""The site without script: the first rows of the players and tournaments indexes as HTML, and
the plain index pages that link every player and every tournament (``index/players-N.html``,
``index/tournaments-N.html``, :data:`PART` entries each), so that every page of the site is
reached by a static link from ``index.html``: by text browsers, crawlers, and readers whose
script is off or failed. With script on, the page script replaces the first rows with its own
drawing of the whole table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from markupsafe import Markup, escape

from whr.publish.site.frame import STATIC_ROWS, Renderer, Site, floats, table_html, text, whole
from whr.publish.site.i18n import _
from whr.publish.site.lists import country_code, grouped, player_link, rank_text
from whr.tables import STATUSES

STATUS_TEXTS = (_("established, active"), _("established, inactive"), _("provisional"))
"""What the players index says of each status (:data:`whr.tables.STATUSES`' order)."""

PART = 1000
"""Entries per plain index page."""


@dataclass(frozen=True)
class Part:
    """One plain index page: its path, label ("1–1000") and the rows (lo..hi-1) it lists."""

    path: str
    label: str
    lo: int
    hi: int


def parts(family: str, n: int) -> list[Part]:
    """The plain index pages of ``family`` ("players", "tournaments") for ``n`` entries."""
    return [
        Part(
            f"index/{family}-{k + 1}.html",
            f"{lo + 1}\u2013{min(lo + PART, n)}",
            lo,
            min(lo + PART, n),
        )
        for k, lo in enumerate(range(0, n, PART))
    ]


def parts_nav(family: str, n: int, root: str) -> Markup:
    """Links to every plain index page of ``family``."""
    links = [f'<a href="{root}{p.path}">{p.label}</a>' for p in parts(family, n)]
    return Markup(" · ".join(links))


def _players_rows(site: Site, lo: int, hi: int, root: str) -> Markup:
    """The players numbered lo..hi-1 (the players index's order: by id) as table rows: on an
    index page (``root`` "../") id and name, on ``players.html`` every column the page script
    draws, as it draws them."""
    p = site.players.iloc[lo:hi]
    if root:  # an index page: lean (66 pages of 1,000 at 1M games): id and name
        rows = [
            [str(escape(pid)), f"<a href={root}p/{escape(page)}.html>{escape(name)}</a>"]
            for pid, name, page in zip(p["player"], p["name"], p["page"], strict=True)
        ]
        return table_html([("ID", ""), ("Player", "")], rows, lean=True)
    f = site.view.current.frame.set_index("player").reindex(p["player"].to_numpy(object))
    rating, unc = whole(floats(f["rating"])), whole(floats(f["uncertainty"]))
    games, rank = np.nan_to_num(floats(f["games"])), np.nan_to_num(floats(f["rank"]))
    status = dict(zip(STATUSES, STATUS_TEXTS, strict=True))
    rows = []
    for k, (pid, year, place) in enumerate(
        zip(p["player"], p["birth_year"], p["city"], strict=True)
    ):
        rows.append(
            [
                str(escape(pid)),
                player_link(site, lo + k, root),
                rating[k],
                unc[k],
                grouped(int(games[k])),
                rank_text(rank[k]),
                status.get(text(f["status"].iat[k]), ""),
                str(year) if year else "",
                str(escape(place)),
                country_code(site, lo + k),
            ]
        )
    head = [
        (_("ID"), ""), (_("Player"), "nm"), (_("Rating"), "n"), ("\u00b1", "n u"),
        (_("Games"), "n"), (_("Rank"), "n"), (_("Status"), ""), (_("BY"), "n"),
        (_("City"), ""), (_("Country"), ""),
    ]  # fmt: skip
    return table_html(head, rows)


def _tournaments_rows(site: Site, lo: int, hi: int, root: str) -> Markup:
    """The tournaments numbered lo..hi-1 (newest first) as table rows, with the columns of the
    page script's drawing (on ``tournaments.html``)."""
    t = site.tournaments.iloc[lo:hi]
    rows = [
        [
            f"<a href={root}tournaments/{escape(page)}.html>{escape(name)}</a>",
            str(escape(place)),
            grouped(int(n)),
            str(escape(start)),
            str(escape(end)),
            str(escape(rule)),
        ]
        for page, name, place, n, start, end, rule in zip(
            t["page"], t["name"], t["place"], t["n"], t["start"], t["end"], t["rule"], strict=True
        )
    ]
    head = [
        (_("Tournament"), "nm"), (_("Place"), ""), (_("Rated games"), "n"), (_("Start"), ""),
        (_("End"), ""), (_("Rule"), ""),
    ]  # fmt: skip
    return table_html(head, rows)


def first_players(site: Site) -> Markup:
    """The players index's first rows (``players.html``)."""
    return _players_rows(site, 0, min(STATIC_ROWS, len(site.players)), "")


def first_tournaments(site: Site) -> Markup:
    """The tournaments index's first rows (``tournaments.html``)."""
    return _tournaments_rows(site, 0, min(STATIC_ROWS, len(site.tournaments)), "")


def write(r: Renderer) -> None:
    """The plain index pages of the players and of the tournaments."""
    site = r.site
    for family, n, rows, what in (
        ("players", len(site.players), _players_rows, _("Players by ID")),
        ("tournaments", len(site.tournaments), _tournaments_rows, _("Tournaments, newest first")),
    ):
        for part in parts(family, n):
            r.render(
                part.path,
                "plain_index.html",
                heading=_(
                    "%(what)s: %(part)s of %(total)s", what=what, part=part.label, total=f"{n:,}"
                ),
                table=rows(site, part.lo, part.hi, "../"),
                parts=parts_nav(family, n, "../"),
                index=f"{family}.html",
            )
