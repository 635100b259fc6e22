"""The tournaments (whr.publish.site.tournaments): crosstables that add up, pairings drawn from
them, a crosstable on a phone."""

from __future__ import annotations

import dataclasses
import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from tests.publish import support
from tests.publish.site.pages import (
    PHONE,
    check_and_close,
    in_box,
    new_page,
    open_,
    page_data,
    published_table,
    settle,
)
from tests.publish.support import read_data, site_of
from whr.publish.site import i18n, page_names, write
from whr.tables import TOURNAMENTS, conform


class Table(HTMLParser):
    """The cell texts of the body rows of the table with a given id."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.id, self.inside, self.body = table_id, False, False
        self.rows: list[list[str]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.inside = dict(attrs).get("id") == self.id
        elif self.inside and tag == "tbody":
            self.body = True
        elif self.inside and self.body and tag == "tr":
            self.rows.append([])
        elif self.inside and self.body and tag == "td":
            self.rows[-1].append("")

    def handle_endtag(self, tag):
        if tag in ("table", "tbody"):
            self.body = False

    def handle_data(self, data):
        if self.inside and self.body and self.rows and self.rows[-1]:
            self.rows[-1][-1] += data


def table_rows(html: str, table_id: str) -> list[list[str]]:
    parser = Table(table_id)
    parser.feed(html)
    return parser.rows


def score(text: str) -> float:
    return float(text.replace("½", ".5")) if text != "½" else 0.5


def test_crosstables_add_up(published, small):
    snap = support.entry_of(published)
    site = site_of(published)
    games = pd.read_parquet(snap / "games.parquet")
    tournaments = pd.read_parquet(snap / "tournaments.parquet")
    players = read_data(site, "players")["id"]
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    for tid, part in games.groupby("tournament_id"):
        html = (site / "tournaments" / f"{names[tid]}.html").read_text(encoding="utf-8")
        data = page_data(html, "cross-data")
        rows = data["rows"]
        assert {players[r[3]] for r in rows} == set(part["black"]) | set(part["white"]), tid
        assert [r[0] for r in rows] == list(range(1, len(rows) + 1)), tid
        assert sum(r[4] for r in rows) == 2 * len(part), tid  # a game gives one point
        cells = [r[10].split(",") for r in rows]
        assert all(len(c) == len(data["rounds"]) for c in cells), tid
        entries = [e for c in cells for cell in c for e in cell.split()]
        assert all(re.fullmatch(r"\d+[+=-][bw]", e) for e in entries), tid
        assert len(entries) == 2 * len(part), tid  # each game in both players' rows
        # each game in its round's column, in both players' rows, with its result and colours
        row_of = {players[r[3]]: r[0] for r in rows}
        column = {label: k for k, label in enumerate(data["rounds"])}
        for g in part.itertuples():
            k = column[str(g.round) if isinstance(g.round, str) and g.round else "\u2013"]
            b, w = row_of[g.black], row_of[g.white]
            mark = {1.0: ("+", "-"), 0.5: ("=", "="), 0.0: ("-", "+")}[g.result]
            assert f"{w}{mark[0]}b" in cells[b - 1][k].split(), (tid, g.game_id)
            assert f"{b}{mark[1]}w" in cells[w - 1][k].split(), (tid, g.game_id)
        for r, c in zip(rows, cells, strict=True):  # a row's points are its cells' points
            twice = sum(2 if "+" in e else 1 if "=" in e else 0 for x in c for e in x.split())
            assert twice == r[4], tid
            opponents = {
                int(e.split("+")[0].split("=")[0].split("-")[0]) for x in c for e in x.split()
            }
            assert r[0] not in opponents and opponents <= {x[0] for x in rows}, tid


@pytest.mark.browser
def test_crosstable_scores_add_up_and_pairings_follow(published, page, artifacts):
    games = published_table(published, "games")
    tournaments = published_table(published, "tournaments")
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    site = site_of(published)
    for tid in games["tournament_id"].value_counts().index[:3]:
        n = int((games["tournament_id"] == tid).sum())
        open_(page, site, f"tournaments/{names[tid]}.html")
        scores = page.eval_on_selector_all(
            "#cross tbody td.sc", "cells => cells.map(c => c.textContent)"
        )
        total = sum(float(s.replace("½", ".5")) if s != "½" else 0.5 for s in scores)
        assert total == n, tid
        assert page.locator("#pairings table.pairings tbody tr:not(.t)").count() == n, tid
    page.screenshot(path=str(artifacts / "tournament-desktop-top.png"))


@pytest.mark.browser
def test_a_crosstable_on_a_phone_keeps_place_player_score_and_the_numbers(published, browser):
    games = published_table(published, "games")
    tournaments = published_table(published, "tournaments")
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    biggest = games["tournament_id"].value_counts().index[0]
    p = new_page(browser, PHONE)
    open_(p, support.site_of(published), f"tournaments/{names[biggest]}.html")
    want = ["Place", "#", "Player", "Score"]
    assert in_box(p, "#cross", want) == dict.fromkeys(want, True)
    # scrolled to the last rounds, the number and the name stay in view, side by side
    p.eval_on_selector("#standings .scroll", "s => { s.scrollLeft = s.scrollWidth; }")
    settle(p)
    assert in_box(p, "#cross", ["#", "Player"]) == {"#": True, "Player": True}
    number, name = (
        p.locator(f"#cross tbody tr:first-child td.{c}").bounding_box() for c in ("no", "nm")
    )
    box = p.locator("#standings .scroll").bounding_box()
    assert abs(number["x"] - box["x"]) < 1 and number["x"] + number["width"] <= name["x"] + 0.5
    assert p.locator("#cross tbody tr:first-child td.no").inner_text() == "1"
    check_and_close(p)


# --- phones (issue 30, item 4): each measured against the table's box and the viewport, in
# every language --------------------------------------------------------------------------------

LANGUAGES = list(i18n.LANGUAGES)


def _phone(browser, site, path: str, language: str):
    p = new_page(browser, PHONE)
    p.add_init_script(f"localStorage.setItem('whr.lang', '{language}')")
    open_(p, site, path)
    return p


# the player links of a table's cells: whether each lies wholly inside its cell, the table's
# scroll box and the viewport, and each run of letters or digits of its name on one line
LINKS = """([table, cells]) => {
    const t = document.querySelector(table), box = t.closest('.scroll').getBoundingClientRect();
    const right = Math.min(box.right, innerWidth), out = [];
    for (const a of t.querySelectorAll(cells)) {
        const cell = a.closest('td').getBoundingClientRect(), rects = Array.from(a.getClientRects());
        const whole = rects.every(r => r.left >= Math.max(cell.left, box.left) - 0.5
            && r.right <= Math.min(cell.right, right) + 0.5 && r.bottom <= cell.bottom + 0.5);
        let split = 0;
        const text = a.firstChild, words = /[\\p{L}\\p{N}]+/gu;
        for (let m; text && (m = words.exec(text.textContent));) {
            const range = document.createRange();
            range.setStart(text, m.index);
            range.setEnd(text, m.index + m[0].length);
            split += new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size > 1;
        }
        out.push([a.textContent, whole, split]);
    }
    return out;
}"""


def _biggest(published) -> str:
    games = published_table(published, "games")
    tournaments = published_table(published, "tournaments")
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    return f"tournaments/{names[games['tournament_id'].value_counts().index[0]]}.html"


@pytest.mark.browser
def test_the_pairings_fit_a_phone_with_white_on_screen_and_names_whole(published, browser):
    """On a 390 px screen the pairings (Black, result, White) fit the screen: the table is no
    wider than its box, every player's name (a red-team name among them) lies inside its cell,
    the box and the viewport, never cut mid-word; in every language."""
    site = support.site_of(published)
    for language in LANGUAGES:
        p = _phone(browser, site, _biggest(published), language)
        wide = p.eval_on_selector(
            "#pairings table", "t => [t.scrollWidth, t.closest('.scroll').clientWidth]"
        )
        assert wide[0] <= wide[1], (language, wide)
        links = p.evaluate(LINKS, ["#pairings table", "tbody td a"])
        assert len(links) >= 2 * 40 and any(n == support.HOSTILE_NAME for n, _, _ in links)
        assert [x for x in links if not x[1] or x[2]] == [], language
        white = p.eval_on_selector_all(
            "#pairings tbody tr:not(.t) td:last-child",
            "cs => cs.map(c => c.getBoundingClientRect().right <= innerWidth)",
        )
        assert white and all(white), language
        check_and_close(p)


@pytest.mark.browser
def test_the_crosstable_keeps_the_namesake_labels_whole_on_a_phone(published, small, browser):
    """The two namesakes' labels (what tells them apart) are whole in the crosstable's sticky
    name column on a 390 px screen, inside the cell and the screen, also with the rounds
    scrolled to the end; in every language."""
    site = support.site_of(published)
    first = small.selection.rated.iloc[0]
    tournaments = published_table(published, "tournaments")
    games = published_table(published, "games")
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    labels = read_data(site, "players")["lb"]
    want = sorted(label for label in labels if label)
    for language in LANGUAGES:
        p = _phone(browser, site, f"tournaments/{names[first['tournament_id']]}.html", language)
        for scrolled in (False, True):
            if scrolled:
                p.eval_on_selector("#standings .scroll", "s => { s.scrollLeft = s.scrollWidth; }")
                settle(p)
            shown = p.evaluate(
                """() => Array.from(document.querySelectorAll('#cross tbody td.nm small'), s => {
                    const cell = s.closest('td').getBoundingClientRect();
                    const box = s.closest('.scroll').getBoundingClientRect();
                    const inside = Array.from(s.getClientRects()).every(r =>
                        r.left >= Math.max(cell.left, box.left) - 0.5
                        && r.right <= Math.min(cell.right, box.right, innerWidth) + 0.5
                        && r.bottom <= cell.bottom + 0.5);
                    return [s.textContent, inside];
                })"""
            )
            assert sorted(label for label, _ in shown) == want, (language, shown)
            assert all(inside for _, inside in shown), (language, scrolled, shown)
        check_and_close(p)


SECTIONS = ("Women", "Men", "Juniors under 18", "Veterans")
LONG = "Open Championship of the Renju Federation of Saint Petersburg"


@pytest.fixture(scope="module")
def long_names(small, tmp_path_factory) -> Path:
    """A site of the session's list whose tournaments have long names that differ only at
    their end (``LONG`` year, section), as the sections of one event do."""
    tours = small.data.tournaments.copy()
    tours["name"] = [f"{LONG} {2000 + k // 4}, {SECTIONS[k % 4]}" for k in range(len(tours))]
    data = dataclasses.replace(small.data, tournaments=conform(tours, TOURNAMENTS))
    site = tmp_path_factory.mktemp("long-names") / "site"
    snapshot = support.snapshot_of(dataclasses.replace(small, data=data))
    write(site, snapshot.view, {"parameters": small.params})
    return site


@pytest.mark.browser
def test_the_tournaments_index_shows_whole_names_on_a_phone(long_names, browser):
    """Tournament names that differ only at their end are shown whole in the index on a
    390 px screen: each drawn name inside its cell, the table's box and the viewport (wrapped
    at its spaces, not cut), at the top and scrolled down the virtual table; in every
    language."""
    for language in LANGUAGES:
        p = _phone(browser, long_names, "tournaments.html", language)
        for y in (0, 6000):
            p.evaluate(f"window.scrollTo(0, {y})")
            settle(p)
            links = p.evaluate(LINKS, ["#list", "tbody tr[aria-rowindex] td.nm a"])
            on_screen = p.eval_on_selector_all(
                "#list tbody tr[aria-rowindex]",
                "rs => rs.filter(r => { const b = r.getBoundingClientRect();"
                " return b.bottom > 0 && b.top < innerHeight; }).length",
            )
            assert len(links) >= 10 and on_screen >= 3, (language, y, len(links), on_screen)
            assert all(n.startswith(LONG) and n.endswith(SECTIONS) for n, _, _ in links)
            assert [x for x in links if not x[1] or x[2]] == [], (language, y)
        check_and_close(p)


CJK = "\u3040-\u30ff\u3400-\u9fff"
ASCII_NEXT_TO_CJK = re.compile(f"[{CJK}] ?[,.:;()]|[,:;()] ?[{CJK}]")


@pytest.mark.browser
@pytest.mark.parametrize("language", ["zh", "ja"])
def test_chinese_and_japanese_tournament_pages_use_their_own_punctuation(
    published, browser, language
):
    """The sentences of a tournament's page and of the tournaments index are whole messages
    (the legend with its "more" link, the index's lines with theirs): in Chinese and Japanese
    no ASCII comma, colon, full stop or bracket is joined to the text by code."""
    site = support.site_of(published)
    for path in (_biggest(published), "tournaments.html"):
        p = new_page(browser)
        p.add_init_script(f"localStorage.setItem('whr.lang', '{language}')")
        open_(p, site, path)
        sentences = p.eval_on_selector_all("main p", "ps => ps.map(x => x.innerText)")
        assert len(sentences) >= 2 and all(s.strip() for s in sentences[:1]), sentences
        assert [s for s in sentences if ASCII_NEXT_TO_CJK.search(s)] == [], (language, path)
        check_and_close(p)
