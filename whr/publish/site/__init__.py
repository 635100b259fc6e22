"""The static HTML site of one category: rendering only, from what the lists stage computed.

:func:`write` draws the pages of a day from its :class:`whr.lists.View` (what the pages show:
the lists, their Gy1 ranks, the players and tournaments numbered, the standings and
crosstables, the top players, all computed by :func:`whr.lists.view`): it never decides a rule,
and formats the rule numbers it states from the view's rules. The machinery is
:mod:`.frame` (templates, the writer, data files, page workers), the page data the script reads
is declared in :mod:`.contract`, and each page family has its module:

    lists.py        index.html, gy1.html, inactive.html, provisional.html   the list by tab;
                    years.html, years/YYYY.html                    the list on each December 31
    countries.py    countries.html, countries/<code>.html          per-country lists
    players.py      players.html (and the players data), p/<id>.html   every listed player
    tournaments.py  tournaments.html, tournaments/<id>.html        crosstables and pairings
    top.py          top.html, top_women.html
    excluded.py     excluded.html                                  games read but not rated
    about.py        about.html
    exports.py      ratings.csv, exclusions.csv, players.json, sitemap.xml (with a public address)
    player_data.py  p/<id>.json                                    each player's data (the page's)
    compare.py      compare.html                   2-5 players' published ratings (p/<id>.json)
    whatif.py       whatif.html (and its data file)  the effect of hypothetical results
    feed.py         feed.xml                                       the list's Atom feed
    archive.py      the archive's pages (a day's page, archive.html, the root redirect)

The site is self-contained and works from ``file://``: one stylesheet, one page script (the
charts included), data files loaded with ``<script>``, relative links only; served over http(s),
a player page and the compare page also fetch players' data beside their pages (``p/<id>.json``,
same origin). Pages are phone first: nothing is wider than the screen; wide tables scroll in their
own box with the player column kept in view.

The lists, the players index and the tournaments index are drawn by ``static/site.js`` from
the data files (only the rows on screen are in the document), so a list page's size does not
grow with the list, nor with the years of history; a player's chart, games and opponents are
their ``p/<id>.json``, drawn the same way. File names of pages come from ids through
:func:`page_names` (portable: no reserved device names, no two names equal but for case).
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from whr.lists import View
from whr.params import check_base_url
from whr.publish.site import (
    about,
    compare,
    countries,
    excluded,
    exports,
    feed,
    i18n,
    lists,
    plain,
    player_data,
    players,
    top,
    tournaments,
    whatif,
)
from whr.publish.site.contract import page_script
from whr.publish.site.frame import HERE, Pages, Renderer, Site, environment
from whr.publish.site.names import namesake_labels, page_names, renjunet_games, slug

__all__ = ["check_base_url", "environment", "namesake_labels", "page_names", "slug", "write"]


def site_of(
    view: View, info: Mapping[str, Any], game_links: bool, base_url: str | None = None
) -> Site:
    """What every page family shares (:class:`frame.Site`), formatted once."""
    tours, tournament_page, places = tournaments.table(view)
    linked: frozenset[str] = frozenset()
    games = view.tables.games
    if game_links and len(games):
        linked = frozenset(games["game_id"].astype("str")[renjunet_games(games)])
    listed = countries.table(view)
    pages = dict(zip(listed["code"], listed["page"], strict=True))
    places = places.assign(page=[pages.get(c, "") for c in places["code"].tolist()])
    people = players.table(view)
    return Site(
        view=view,
        info=info,
        game=view.category.capitalize(),
        players=people,
        countries=listed,
        tournaments=tours,
        tournament_page=tournament_page,
        linked=linked,
        places=places,
        players_source=players.source(people, listed),
        names=countries.named(view),
        base_url=base_url,
    )


def _static(target: Path, view: View) -> None:
    """Make ``target`` (it must not exist) and its ``static/``: the stylesheet, and the page
    script with its data's fields and the list's rules (:func:`contract.page_script`)."""
    target.mkdir(parents=True)
    (target / "static").mkdir()
    for asset in (HERE / "static").iterdir():  # copyfile: modes from the umask, not the package
        if asset.name == "site.js":
            script = page_script(asset.read_text(encoding="utf-8"), view.rules)
            (target / "static" / asset.name).write_bytes(script.encode("utf-8"))
        elif asset.is_file():
            shutil.copyfile(asset, target / "static" / asset.name)


def write(
    target: Path,
    view: View,
    info: Mapping[str, Any],
    *,
    base_url: str | None = None,
    game_links: bool = False,
    processes: int | None = None,
) -> list[str]:
    """Render the whole site of one list on one day into ``target`` (created; must not exist).

    Parameters
    ----------
    target : pathlib.Path
        The site directory.
    view : whr.lists.View
        What the pages show (``Snapshot.view``, or :func:`whr.lists.view` of an archived
        entry's tables).
    info : mapping
        The manifest's facts (parameters, inputs, counts, versions, links) for the about page.
    base_url : str, optional
        The public address of the site directory (see :func:`check_base_url`); when given,
        ``sitemap.xml`` is written with absolute addresses under it. Without it, no sitemap
        (a sitemap needs absolute URLs).
    game_links : bool, default False
        Link the results of RenjuNet games (:func:`names.renjunet_games`) to their pages on
        renju.net, as the RIF site does. Off by default: a RenjuNet-format file of invented
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
    if not isinstance(view, View):
        raise TypeError(f"view must be a whr.lists.View, got {type(view).__name__}")
    if base_url is not None:
        base_url = check_base_url(base_url)
    if not isinstance(game_links, bool):
        raise TypeError(f"game_links must be a bool, got {type(game_links).__name__}")
    if processes is not None and (
        isinstance(processes, bool) or not isinstance(processes, int) or processes < 1
    ):
        raise ValueError(f"processes must be an int >= 1 or None, got {processes!r}")
    site = site_of(view, info, game_links, base_url)
    _static(target, view)
    i18n.write_catalogs(target / "static", site.names)
    r = Renderer(target, site)
    r.data("players", "players", players.data(site))  # the pages name these two data files
    tournaments.write_index(r)
    current = lists.list_data(view.current)
    families = [players.pages(r, current), tournaments.pages(r), player_data.pages(r)]
    pages = Pages(r, families, processes)
    try:  # while the worker processes (if any) write the player and tournament pages
        lists.write(r, current)
        countries.write(r, current)
        players.write_index(r)
        plain.write(r)
        not_rated = excluded.table(
            view.tables.exclusions,
            view.tables.tournaments,
            site.tournament_page,
            view.tables.players,
        )
        excluded.write(r, not_rated)
        top.write(r)
        top.write(r, women=True)
        compare.write(r)
        whatif.write(r)  # whatif.html and its data file
        about.write(r)
        exports.write_ratings(r)
        exports.write_exclusions(r, not_rated)
        exports.write_players(r)
        feed.write(r)  # feed.xml
    except BaseException:
        pages.stop()
        raise
    pages.finish()
    if base_url is not None:
        exports.write_sitemap(r, base_url)
    return r.written + sorted(f"static/{p.name}" for p in (r.target / "static").iterdir())
