"""The site without script: the first rows of the players and tournaments indexes as HTML, and
the plain index pages that link every player and every tournament (``index/players-N.html``,
``index/tournaments-N.html``, :data:`PART` entries each), so that every page of the site is
reached by a static link from ``index.html``: by text browsers, crawlers, and readers whose
script is off or failed. With script on, the page script replaces the first rows with its own
drawing of the whole table. Both are the declared tables' rows (``contract.tables``), written by
the one row filler (``rows.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from markupsafe import Markup

from whr.publish.site import countries
from whr.publish.site.contract import Tab, Table
from whr.publish.site.frame import STATIC_ROWS, Renderer, Site
from whr.publish.site.i18n import _, counted
from whr.publish.site.lists import columns, source
from whr.publish.site.rows import Context, Source, html, order

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


def players_source(site: Site) -> Source:
    """The players index's rows: the current list (every listed player once), ordered by
    player number (the players index's order: by id)."""
    return source(site, columns(site.view.current))


def tournaments_source(site: Site) -> Source:
    """The tournaments index's rows: the tournaments data's fields, by tournament number."""
    t = site.tournaments
    places = site.places
    return Source(
        "tournaments",
        {
            "page": t["page"].to_numpy(object),
            "name": t["name"].to_numpy(object),
            "city": t["city"].to_numpy(object),
            "country": t["country_position"].to_numpy(np.int64),
            "games": t["n"].to_numpy(np.int64),
            "start": t["start"].to_numpy(object),
            "end": t["end"].to_numpy(object),
            "rule": t["rule"].to_numpy(object),
            "countries": countries.source(places),
        },
    )


def _rows(site: Site, table: Table, rows: Source, lo: int, hi: int, root: str) -> Markup:
    """Rows lo..hi-1 of the index ``table`` in its first order: its first part's columns (on
    an index page, ``root`` "../", its plain columns)."""
    part = table.tab()
    ids = order(table, part, rows)[lo:hi]
    if root:
        part = Tab(part.name, part.label, None, table.plain, None)
    return html(table, part, rows, ids, Context(root, site.player_columns), lean=bool(root))


def first_players(site: Site) -> Markup:
    """The players index's first rows (``players.html``)."""
    table = site.tables["players"]
    return _rows(site, table, players_source(site), 0, STATIC_ROWS, "")


def first_tournaments(site: Site) -> Markup:
    """The tournaments index's first rows (``tournaments.html``)."""
    table = site.tables["tournaments"]
    return _rows(site, table, tournaments_source(site), 0, STATIC_ROWS, "")


def write(r: Renderer) -> None:
    """The plain index pages of the players and of the tournaments."""
    site = r.site
    for family, rows, what in (
        ("players", players_source(site), _("Players by ID")),
        ("tournaments", tournaments_source(site), _("Tournaments, newest first")),
    ):
        table = site.tables[family]
        for part in parts(family, rows.size):
            r.render(
                part.path,
                "plain_index.html",
                heading=_(
                    "%(what)s: %(part)s of %(total)s",
                    what=what,
                    part=part.label,
                    total=counted(rows.size),
                ),
                table=_rows(site, table, rows, part.lo, part.hi, "../"),
                parts=parts_nav(family, rows.size, "../"),
                index=f"{family}.html",
            )
