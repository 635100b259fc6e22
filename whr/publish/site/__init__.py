"""The static HTML site of one category: rendering only, from the built tables.

:func:`write_site` prepares every page's data once, in bulk (:mod:`.prepare`: one group by
player and tournament, one standings table, the list columns), then writes the pages
(:mod:`.render`). It never decides a rule: lists, statuses, ranks and the "Gy1 ≥ 10" list come
from :mod:`whr.lists`, standings and performances from :mod:`whr.lists.standings`, changes from
:mod:`whr.lists.changes`, all through the tables it is given.

The site is self-contained and works from ``file://``: one stylesheet, one page script (the
charts included), data files loaded with ``<script>`` (no network request, no fetch), relative
links only. Pages are phone first: nothing is wider than the screen; wide tables scroll in their
own box with the player column kept in view.

Pages (paths relative to the site directory)::

    index.html, gy1.html, inactive.html, provisional.html   the list on the as-of date, by tab
    years.html, years/YYYY.html                    the list on each December 31 (tabs in-page)
    countries.html, countries/<code>.html          per-country lists on the as-of date
    players.html, players.json                     every listed player by id
    p/<id>.html                                    one per listed player
    tournaments.html, tournaments/<id>.html        tournaments with rated games: crosstables
    excluded.html, exclusions.csv                  games read but not rated, and why
    top.html, top_women.html, about.html
    ratings.csv                                    the current list (every column of the Parquet)
    data/*.js                                      data of the list pages and indexes
    sitemap.xml                                    only when a public base URL is given

The lists, the players index and the tournaments index are drawn by ``static/site.js`` from
the data files (only the rows on screen are in the document), so a list page's size does not
grow with the list, nor with the years of history; a player's tournaments and games are JSON in
the page, drawn the same way. File names of pages come from ids through
:func:`page_names` (portable: no reserved device names, no two names equal but for case).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit
from xml.sax.saxutils import escape as xml_escape

import pandas as pd

from whr.publish.site import prepare, render
from whr.publish.site.names import namesake_labels, page_names, slug
from whr.publish.site.render import players_json
from whr.tables import as_date

__all__ = [
    "check_base_url",
    "namesake_labels",
    "page_names",
    "players_json",
    "slug",
    "write_prepared",
    "write_site",
]

HERE = Path(__file__).parent
_environment = render.environment  # the one Jinja environment (the archive pages use it too)


SITEMAP_MAX_URLS = 50_000  # per sitemap file (sitemaps.org protocol)


def _priority(path: str) -> str:
    """Sitemap priority of a page, after the RIF site's scheme: 1.0 the current lists, 0.9 the
    indexes, 0.8 year-end lists, 0.5 country pages and about, 0.4 tournaments, 0.3 players."""
    if "/" not in path:
        if path in ("index.html", "gy1.html", "inactive.html", "provisional.html"):
            return "1.0"
        return "0.9" if path != "about.html" else "0.5"
    folder = path.split("/", 1)[0]
    return {"years": "0.8", "countries": "0.5", "tournaments": "0.4", "p": "0.3"}.get(folder, "0.3")


def check_base_url(base_url: object) -> str:
    """The public address of the site directory, ending in ``/``; raises on anything else.

    Parameters
    ----------
    base_url : str
        An absolute ``http`` or ``https`` URL without query or fragment, e.g.
        ``"https://rating.example.org/"`` (where ``index.html`` is served).

    Returns
    -------
    str
        ``base_url`` with a trailing ``/``.
    """
    if not isinstance(base_url, str):
        raise TypeError(f"base_url must be a str, got {type(base_url).__name__}")
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(
            f"base_url must be an absolute http(s) URL without query or fragment, got {base_url!r}"
        )
    if any(ch.isspace() or ch in "<>\"'" for ch in base_url):
        raise ValueError(
            f"base_url must not contain spaces, quotes or angle brackets: {base_url!r}"
        )
    return base_url if base_url.endswith("/") else base_url + "/"


def _urlset(entries: list[tuple[str, str]], lastmod: str) -> str:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for loc, priority in entries:
        lines.append(
            f"<url><loc>{xml_escape(loc)}</loc><lastmod>{lastmod}</lastmod>"
            f"<changefreq>daily</changefreq><priority>{priority}</priority></url>"
        )
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def _write_sitemap(r: render.Renderer, base_url: str) -> None:
    """``sitemap.xml`` of every HTML page (``lastmod`` is the list date, so a rerun of the same
    day writes the same file); above 50,000 pages, a sitemap index over ``sitemap-N.xml``."""
    pages = sorted(path for path in r.written if path.endswith(".html"))
    pages.sort(key=lambda path: -float(_priority(path)))  # stable: by priority, then path
    entries = [(base_url + quote(path), _priority(path)) for path in pages]
    lastmod = r.site.as_of.isoformat()
    chunks = [entries[i : i + SITEMAP_MAX_URLS] for i in range(0, len(entries), SITEMAP_MAX_URLS)]
    if len(chunks) <= 1:
        files = {"sitemap.xml": _urlset(entries, lastmod)}
    else:
        files = {f"sitemap-{i + 1}.xml": _urlset(c, lastmod) for i, c in enumerate(chunks)}
        index = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
            *(
                f"<sitemap><loc>{xml_escape(base_url + name)}</loc>"
                f"<lastmod>{lastmod}</lastmod></sitemap>"
                for name in files
            ),
            "</sitemapindex>",
        ]
        files["sitemap.xml"] = "\n".join(index) + "\n"
    for name, content in files.items():
        r.write(name, content)


def write_site(
    target: Path,
    as_of: dt.date,
    tables: Mapping[str, pd.DataFrame],
    year_end: Mapping[dt.date, pd.DataFrame],
    info: Mapping[str, Any],
    *,
    base_url: str | None = None,
    game_links: bool = False,
    processes: int | None = None,
) -> list[str]:
    """Render the whole site of one category into ``target`` (created; must not exist).

    Parameters
    ----------
    target : pathlib.Path
        The site directory.
    as_of : datetime.date
        The list date.
    tables : mapping of str to pandas.DataFrame
        The built tables (:func:`whr.publish.parquet.build_tables`): ``ratings``, ``history``,
        ``games``, ``players``, ``tournaments`` and ``exclusions``.
    year_end : mapping of datetime.date to pandas.DataFrame
        The year-end lists, newest first.
    info : mapping
        The manifest's facts (parameters, inputs, counts, versions) for the about page.
    base_url : str, optional
        The public address of the site directory (see :func:`check_base_url`); when given,
        ``sitemap.xml`` is written with absolute addresses under it. Without it, no sitemap
        (a sitemap needs absolute URLs).
    game_links : bool, default False
        Link the results of RenjuNet games (:func:`whr.lists.renjunet_games`) to their pages
        on renju.net, as the RIF site does. Off by default: a RenjuNet-format file of invented
        games (such as ``data/sample``) would otherwise link to unrelated real games.
    processes : int, optional
        Worker processes for the player and tournament pages (forked, so they share the
        prepared data); default: two for a big site (thousands of pages) on two or more
        CPUs, else one. The files written do not depend on it.

    Returns
    -------
    list of str
        Every file written, as a path relative to ``target`` ("p/000001.html").
    """
    target = Path(target)
    as_date(as_of, "as_of")
    if base_url is not None:
        base_url = check_base_url(base_url)
    if not isinstance(game_links, bool):
        raise TypeError(f"game_links must be a bool, got {type(game_links).__name__}")
    if processes is not None and (
        isinstance(processes, bool) or not isinstance(processes, int) or processes < 1
    ):
        raise ValueError(f"processes must be an int >= 1 or None, got {processes!r}")
    site = prepare.prepare(as_of, tables, year_end, info, game_links=game_links)
    return write_prepared(site, target, base_url=base_url, processes=processes)


def write_prepared(
    site: prepare.Prepared,
    target: Path,
    *,
    base_url: str | None = None,
    processes: int | None = None,
) -> list[str]:
    """The second half of :func:`write_site`: write the pages of prepared data (timed apart
    by the benchmark); arguments as there."""
    r = render.write(site, Path(target), processes=processes)
    if base_url is not None:
        _write_sitemap(r, base_url)
    return r.written + sorted(f"static/{p.name}" for p in (r.target / "static").iterdir())
