"""The site without script: every page reached by static links from index.html, and the first
rows of every list, index, player page and crosstable in the HTML itself (parsed here, and in
Chromium with JavaScript off)."""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pandas as pd
import pytest

from tests.publish import support
from whr.publish.site import page_names
from whr.publish.site.contract import EVENT as EVENT_ROW
from whr.publish.site.frame import STATIC_ROWS

MARK = support.MARK

EVENT = EVENT_ROW.script()


class Page(HTMLParser):
    """The links of a page, and the rows (cell texts, <td> only: heading rows are left out)
    of each table by the table's id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self._tables: dict[str, list[list[str]]] = {}
        self._table: list[list[str]] | None = None
        self._cell = False

    @property
    def tables(self) -> dict[str, list[list[str]]]:
        return {k: [row for row in rows if row] for k, rows in self._tables.items()}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(str(a["href"]))
        elif tag == "table":
            self._table = self._tables.setdefault(a.get("id") or f"#{len(self._tables)}", [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
            self._cell = False
        elif tag in ("td", "th") and self._table:
            self._cell = tag == "td"
            if self._cell:
                self._table[-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._table, self._cell = None, False

    def handle_data(self, data: str) -> None:
        if self._cell and self._table and self._table[-1]:
            self._table[-1][-1] = (self._table[-1][-1] + data).strip()


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


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


@pytest.fixture(scope="module")
def site(published: Path) -> Path:
    return support.site_of(published)


def test_every_page_is_reached_by_static_links_from_the_home_page(site):
    pages = {p.resolve() for p in site.rglob("*.html")}
    reached = crawl(site)
    assert len(pages) > 100
    assert pages - reached == set()


def test_each_tab_carries_its_first_rows_in_order(site):
    ratings = pd.read_parquet(site / "ratings.parquet")
    for tab, status in (
        ("index", "active"),
        ("inactive", "inactive"),
        ("provisional", "provisional"),
    ):
        rows = parse(site / f"{tab}.html").tables["list"]
        mine = ratings[ratings["status"] == status]
        assert len(rows) == min(STATIC_ROWS, len(mine)) > 0, tab
        if tab == "index":  # rank, player, rating: the best first, ratings as shown (whole)
            best = mine.sort_values("rank").iloc[0]
            assert rows[0][0] == "1" and rows[0][2] == str(round(best["rating"]))
        else:  # by rating
            shown = [int(r[1]) for r in rows]
            assert shown == sorted(shown, reverse=True)
    gy1 = parse(site / "gy1.html").tables["list"]
    assert [r[0] for r in gy1] == [str(k) for k in range(1, len(gy1) + 1)] and gy1


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


@pytest.mark.browser
def test_the_games_not_rated_are_searched_by_player_and_tournament(site, browser, published):
    data = support.read_data(site, "excluded")
    named = next(k for k in data["b"] if k >= 0)
    surname = data["pn"][named].split()[0]
    expected = sum(
        surname.lower() in " ".join(data["pn"][p] for p in (b, w) if p >= 0).lower()
        or surname.lower() in data["tn"][t].lower()
        for b, w, t in zip(data["b"], data["w"], data["t"], strict=True)
    )
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site / "excluded.html").as_uri())
    page.wait_for_function("window.WHR && WHR.view")
    assert page.evaluate("WHR.view.rowsText().length") == len(data["g"])
    page.fill("#q", surname)
    page.wait_for_function(f"WHR.view.ids.length === {expected}")
    texts = page.evaluate("WHR.view.rowsText()")
    assert texts and all(surname in row[3] + row[4] + row[0] for row in texts)
    assert page.inner_text("#shown").startswith(f"{expected} of {len(data['g'])} games shown")
    # a tournament's page links its games not rated: #t=<its page>
    t = next(k for k, p in enumerate(data["tp"]) if p)
    page.goto((site / "excluded.html").as_uri() + f"#t={data['tp'][t]}")
    page.reload()
    page.wait_for_function("window.WHR && WHR.view")
    assert page.evaluate("WHR.view.ids.length") == data["t"].count(t)
    assert errors == []
    page.close()


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


TABLE_TEXT = """t => [Array.from(t.tHead.rows[0].cells, c => c.textContent),
    Array.from(t.tBodies[0].rows).filter(r => !r.classList.contains("sp"))
      .map(r => Array.from(r.cells, c => c.textContent.trim()))]"""


@pytest.mark.browser
def test_the_rows_without_script_say_what_the_drawn_rows_say(changed, browser):
    """The first rows in the HTML (JavaScript off) and the page script's first rows: the same
    headings, cells, marks (new, newly ranked), rounding and order, on a list with a change
    column, its Gy1 tab, a country's list, a year-end list and the two indexes."""
    site, snapshot = changed
    ratings = snapshot.tables.ratings
    country = ratings["country"].value_counts().index[0]
    year = max(snapshot.view.year_end).year
    paths = [
        "index.html",
        "gy1.html",
        "provisional.html",
        f"countries/{page_names([country])[country]}.html",
        f"years/{year}.html",
        "players.html",
        "tournaments.html",
    ]
    plain = browser.new_context(java_script_enabled=False, viewport={"width": 1366, "height": 900})
    off, on = plain.new_page(), browser.new_page(viewport={"width": 1366, "height": 900})
    for path in paths:
        off.goto((site / path).as_uri())
        heads, rows = off.eval_on_selector("#list", TABLE_TEXT)
        on.goto((site / path).as_uri())
        on.wait_for_function("window.WHR && WHR.view")
        drawn_heads = on.eval_on_selector("#list", TABLE_TEXT)[0]
        drawn = [[c.strip() for c in r] for r in on.evaluate("WHR.view.rowsText()")[: len(rows)]]
        assert rows, path
        assert heads == drawn_heads, path
        for k, (mine, theirs) in enumerate(zip(rows, drawn, strict=True)):
            assert mine == theirs, f"{path}, row {k + 1}"
        if path == "index.html":  # the marks this comparison is about are among the rows
            assert any(r[1].startswith(MARK) for r in rows)
            assert any(r[3] == "new" for r in rows)
    plain.close()
    on.close()
