"""The site without script: the first rows of the players and tournaments indexes as HTML, and
the plain index pages that link every player and every tournament (``index/players-N.html``,
``index/tournaments-N.html``, :data:`PART` entries each), so that every page of the site is
reached by a static link from ``index.html``: by text browsers, crawlers, and readers whose
script is off or failed. With script on, the page script replaces the first rows with its own
drawing of the whole table.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from whr.publish.site.frame import STATIC_ROWS, Renderer, Site, floats, table_html, whole
from whr.publish.site.i18n import _

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
    """The players numbered lo..hi-1 (the players index's order: by id) as table rows."""
    p = site.players.iloc[lo:hi]
    f = site.view.current.frame.set_index("player").reindex(p["player"].to_numpy(object))
    rating = whole(floats(f["rating"]))
    rows = []
    for k, (pid, name, page, country) in enumerate(
        zip(p["player"], p["name"], p["page"], p["country"], strict=True)
    ):
        link = f"<a href={root}p/{escape(page)}.html>{escape(name)}</a>"
        rows.append([str(escape(pid)), link, str(escape(country)), rating[k]])
    head = [("ID", ""), ("Player", ""), ("Country", ""), ("Rating", "")]
    if root:  # an index page: lean (66 pages of 1,000 at 1M games): id and name
        return table_html(head[:2], [row[:2] for row in rows], lean=True)
    return table_html(head, rows)


def _tournaments_rows(site: Site, lo: int, hi: int, root: str) -> Markup:
    """The tournaments numbered lo..hi-1 (newest first) as table rows."""
    t = site.tournaments.iloc[lo:hi]
    rows = [
        [
            f"<a href={root}tournaments/{escape(page)}.html>{escape(name)}</a>",
            str(escape(place)),
            str(n),
            str(escape(start)),
            str(escape(end)),
        ]
        for page, name, place, n, start, end in zip(
            t["page"], t["name"], t["place"], t["n"], t["start"], t["end"], strict=True
        )
    ]
    head = [("Tournament", "nm"), ("Place", ""), ("Rated games", "n"), ("Start", ""), ("End", "")]
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
                heading=f"{what}: {part.label} of {n:,}",
                table=rows(site, part.lo, part.hi, "../"),
                parts=parts_nav(family, n, "../"),
                index=f"{family}.html",
            )
