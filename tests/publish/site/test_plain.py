"""The site without script (whr.publish.site.plain): every page reached by static links from
index.html, the indexes and their plain pages, a player's and a tournament's own rows (parsed
here, and in Chromium with JavaScript off)."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pandas as pd
import pytest

from tests.publish import support
from tests.publish.site.pages import EVENT, parse
from whr.publish.site import page_names
from whr.publish.site.frame import STATIC_ROWS


def crawl(site: Path) -> set[Path]:
    """Every page reached from index.html by following static <a href> within the site."""
    seen: set[Path] = set()
    todo = [site / "index.html"]
    while todo:
        path = todo.pop().resolve()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        for href in parse(path).links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or not parts.path.endswith(".html"):
                continue
            target = (path.parent / unquote(parts.path)).resolve()
            if target.is_relative_to(site.resolve()):
                todo.append(target)
    return seen


def test_every_page_is_reached_by_static_links_from_the_home_page(site):
    pages = {p.resolve() for p in site.rglob("*.html")}
    reached = crawl(site)
    assert len(pages) > 100
    assert pages - reached == set()


def test_the_indexes_and_their_parts_list_every_player_and_tournament(site):
    players = parse(site / "players.html").tables["list"]
    assert 0 < len(players) <= STATIC_ROWS
    ids = []
    for part in sorted((site / "index").glob("players-*.html")):
        ids += [row[0] for row in next(iter(parse(part).tables.values()))]
    listed = pd.read_parquet(site / "ratings.parquet")["player"].astype(str)
    assert sorted(ids) == sorted(listed) and players[0][0] == ids[0]
    assert parse(site / "tournaments.html").tables["list"]


def items(path: Path, list_class: str) -> list[str]:
    """The texts of the items of the page's <ul class=list_class>."""
    html = path.read_text(encoding="utf-8")
    (body,) = re.findall(rf"<ul class={list_class}>(.*?)</ul>", html, re.S)
    return [re.sub(r"<[^>]+>", "", item).strip() for item in body.split("<li>")[1:]]


def test_player_and_tournament_pages_carry_their_tables(site, published):
    ratings = pd.read_parquet(site / "ratings.parquet").set_index("player")
    tournaments = support.read_data(site, "tournaments")
    busiest = ratings["games"].idxmax()
    pages = sorted((site / "p").glob("*.html"))[:5] + [
        site / "p" / f"{page_names([busiest])[busiest]}.html"
    ]
    for page in pages:
        events = items(page, "events")
        # each tournament: its name, score/games and the change at the time as the script
        # draws it (before -> after (change), "new -> after", a dash where none was kept)
        data = json.loads(page.read_text("utf-8").split("id=player-data>", 1)[1].split("<")[0])
        assert len(events) == len(data["events"]) > 0, page
        for text, e in zip(events, data["events"], strict=True):
            b, a, d = (e[EVENT[f]] for f in ("then_before", "then_after", "then_change"))
            then = "\u2013" if a is None else f"new \u2192 {a}" if b is None else f"{b} \u2192 {a} "
            if b is not None and a is not None:
                then += "(" + (f"+{d}" if d > 0 else str(d).replace("-", "\u2212")) + ")"
            name = tournaments["name"][e[EVENT["tournament"]]]
            pattern = rf"{re.escape(name)} \S+/{e[EVENT['games']]} {re.escape(then)}( with .+)?"
            assert re.fullmatch(pattern, unescape(text)), (text, pattern)
    for path in sorted((site / "tournaments").glob("*.html"))[:5]:
        standings = items(path, "standings")
        assert standings[0].startswith(("1 ", "1\u2013")), path
        scores = [float(s.rsplit(" ", 1)[1].replace("\u00bd", ".5") or 0) for s in standings]
        assert scores == sorted(scores, reverse=True), path


CHROMIUM = "/usr/bin/chromium"


@pytest.mark.browser
def test_without_javascript_the_rows_are_shown_in_chromium(site, browser):
    player = sorted((site / "p").glob("*.html"))[0]
    tournament = sorted((site / "tournaments").glob("*.html"))[0]
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    for path, table, least in (
        (site / "index.html", "#list tbody tr", 2),
        (site / "gy1.html", "#list tbody tr", 2),
        (site / "players.html", "#list tbody tr", 2),
        (site / "tournaments.html", "#list tbody tr", 1),
        (site / "excluded.html", "#excluded-list tbody tr", 1),
        (site / "index" / "players-1.html", "table tbody tr", 2),
        (player, "#record ul.events li", 1),
        (tournament, "#standings li", 2),
    ):
        page.goto(path.as_uri())
        rows = page.locator(table)
        assert rows.count() >= least, path.name
        assert rows.first.is_visible(), path.name
    context.close()


def visible_text(path: Path) -> str:
    html = path.read_text(encoding="utf-8")
    html = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


PYTHON_VALUES = re.compile(r"\b(None|True|False)\b|\{'|\['")


def test_archive_pages_share_the_site_frame_and_print_no_python_values(published, site):
    day = support.entry_of(published) / "index.html"
    for path in (day, published / "archive.html", site / "about.html"):
        html = path.read_text(encoding="utf-8")
        assert "<header>" in html and "<nav>" in html and "<main id=main>" in html, path
        assert not PYTHON_VALUES.search(visible_text(path)), PYTHON_VALUES.search(
            visible_text(path)
        )
        for href in re.findall(r'rel=(?:stylesheet|icon) href="?([^" >]+)', html):
            assert (path.parent / href).resolve().is_file(), (path, href)
        assert "rel=icon href" in html, path
    assert "variant" in visible_text(day) and "none" in visible_text(day)


@pytest.mark.browser
def test_no_search_placeholder_is_cut(site, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    for name in ("index.html", "players.html", "tournaments.html", "excluded.html"):
        page.goto((site / name).as_uri())
        room, needed = page.evaluate(
            """() => {
              const q = document.getElementById("q"), s = getComputedStyle(q);
              const c = document.createElement("canvas").getContext("2d");
              c.font = s.font;
              const pad = parseFloat(s.paddingLeft) + parseFloat(s.paddingRight);
              return [q.clientWidth - pad, c.measureText(q.placeholder).width];
            }"""
        )
        assert needed <= room, f"{name}: the placeholder needs {needed:.0f} px of {room:.0f}"
    page.close()
