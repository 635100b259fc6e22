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
from tests.publish.site.pages import parse
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


def own_rows(path: Path, box: str) -> list[list[str]]:
    """The texts of the cells of the table in the page's element ``box`` (#record: a player's
    tournaments; #standings: a tournament's), as a reader without script reads them."""
    html = path.read_text(encoding="utf-8")
    body = html.split(f"<div id={box}", 1)[1].split(">", 1)[1].split("</table>", 1)[0]
    rows = [row for row in body.split("<tr>")[1:] if "<th" not in row]
    return [
        [" ".join(unescape(re.sub(r"<[^>]+>", "", cell)).split()) for cell in row.split("<td>")[1:]]
        for row in rows
    ]


def test_player_and_tournament_pages_carry_their_tables(site, published):
    ratings = pd.read_parquet(site / "ratings.parquet").set_index("player")
    busiest = ratings["games"].idxmax()
    pages = sorted((site / "p").glob("*.html"))[:5] + [
        site / "p" / f"{page_names([busiest])[busiest]}.html"
    ]
    for page in pages:
        events = own_rows(page, "record")
        # each tournament: its name, score/games and the change at the time as the script
        # draws it (before -> after (change), "new -> after", a dash where none was kept)
        data = json.loads(page.with_suffix(".json").read_text("utf-8"))["tournaments"]
        assert len(events) == len(data["id"]) > 0, page
        for k, (name, score, then_text) in enumerate(events):
            b, a = (None if x is None else round(x) for x in (data["before"][k], data["after"][k]))
            then = "\u2013" if a is None else f"new \u2192 {a}" if b is None else f"{b} \u2192 {a} "
            if b is not None and a is not None:
                d = a - b
                then += "(" + (f"+{d}" if d > 0 else str(d).replace("-", "\u2212")) + ")"
            assert name == data["name"][k]
            assert re.fullmatch(rf"\S+/{data['games'][k]}", score), score
            assert re.fullmatch(rf"{re.escape(then)}( with .+)?", then_text), then_text
    for path in sorted((site / "tournaments").glob("*.html"))[:5]:
        standings = own_rows(path, "standings")  # place, #, player, score, the rounds, ...
        assert standings[0][0].startswith(("1", "1\u2013")), path
        scores = [
            float(r[3].replace("\u00bd", ".5") if r[3] != "\u00bd" else 0.5) for r in standings
        ]
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
        (site / "excluded.html", "#list tbody tr", 1),
        (site / "index" / "players-1.html", "table tbody tr", 2),
        (player, "#record table tr:not(:has(th))", 1),
        (tournament, "#standings table tr:not(:has(th))", 2),
        (tournament, "#pairings table tr:not(:has(th))", 1),  # (issue 39: the script drew it)
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
    assert "Variant none: the official list" in " ".join(visible_text(day).split())


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
