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
    published_table,
    settle,
)
from tests.publish.support import read_data, site_of
from whr.publish.site import i18n, page_names, write
from whr.tables import TOURNAMENTS, conform


class Rows(HTMLParser):
    """The body rows of the table with a given id: each row's cell texts and the links in its
    cells."""

    def __init__(self, table_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.id, self.inside, self.body = table_id, False, False
        self.heads: list[str] = []
        self.rows: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.inside = a.get("id") == self.id
        elif not self.inside:
            return
        elif tag == "tbody":
            self.body = True
        elif tag == "th" and not self.body:
            self.heads.append("")
        elif tag == "tr" and self.body:
            self.rows.append({"cells": [], "links": []})
        elif tag in ("td", "th") and self.body:
            self.rows[-1]["cells"].append("")
        elif tag == "a" and self.body and self.rows:
            self.rows[-1]["links"].append(a.get("href"))

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = self.body = False

    def handle_data(self, data):
        if not self.inside:
            return
        if self.body and self.rows and self.rows[-1]["cells"]:
            self.rows[-1]["cells"][-1] += data.strip("\n")
        elif not self.body and self.heads:
            self.heads[-1] += data.strip("\n")


def table_of(html: str, table_id: str) -> Rows:
    parser = Rows(table_id)
    parser.feed(html)
    return parser


def points(text: str) -> float:
    return float(text.replace("½", ".5")) if text != "½" else 0.5


GAME = re.compile(r"(\d+)([+=\u2212])/([bw])")
RESULT = {1.0: "1 : 0", 0.5: "½ : ½", 0.0: "0 : 1"}


def test_crosstables_and_pairings_are_in_the_page_and_add_up(published, small):
    """Without script (the HTML alone): every tournament's crosstable has its players once,
    numbered, each game in its round's column in both players' rows with its result and
    colours, the scores adding up to the games; and its pairings give every game once, by
    round, with both players by their number (#) and the result. Checked against the
    published games."""
    snap = support.entry_of(published)
    site = site_of(published)
    games = pd.read_parquet(snap / "games.parquet")
    tournaments = pd.read_parquet(snap / "tournaments.parquet")
    data = read_data(site, "players")
    pages = page_names(data["id"])
    by_page = {f"../p/{pages[i]}.html": i for i in data["id"]}
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    for tid, part in games.groupby("tournament_id"):
        html = (site / "tournaments" / f"{names[tid]}.html").read_text(encoding="utf-8")
        assert "<script type=application/json" not in html  # nothing to draw: no data
        cross = table_of(html, "cross")
        rounds = cross.heads[4 : len(cross.heads) - 5]
        assert cross.heads[:4] == ["Place", "#", "Player", "Score"], tid
        assert cross.heads[-5:] == ["Perf.", "Before", "After", "Change", "Today's estimate"]
        rows = [r["cells"] for r in cross.rows]
        row_of = {by_page[r["links"][0]]: k + 1 for k, r in enumerate(cross.rows)}
        assert set(row_of) == set(part["black"]) | set(part["white"]), tid
        assert [int(r[1]) for r in rows] == list(range(1, len(rows) + 1)), tid
        assert sum(points(r[3]) for r in rows) == len(part), tid  # a game gives one point
        cells = [r[4 : 4 + len(rounds)] for r in rows]
        assert all(len(r) == len(rounds) + 9 for r in rows), tid
        entries = [e for c in cells for cell in c for e in cell.split()]
        assert all(GAME.fullmatch(e) for e in entries), tid
        assert len(entries) == 2 * len(part), tid  # each game in both players' rows
        column = {label: k for k, label in enumerate(rounds)}
        for g in part.itertuples():
            k = column[str(g.round) if isinstance(g.round, str) and g.round else "\u2013"]
            b, w = row_of[g.black], row_of[g.white]
            mark = {1.0: ("+", "\u2212"), 0.5: ("=", "="), 0.0: ("\u2212", "+")}[g.result]
            assert f"{w}{mark[0]}/b" in cells[b - 1][k].split(), (tid, g.game_id)
            assert f"{b}{mark[1]}/w" in cells[w - 1][k].split(), (tid, g.game_id)
        for r, c in zip(rows, cells, strict=True):  # a row's points are its cells' points
            games_of = [GAME.fullmatch(e) for x in c for e in x.split()]
            twice = sum(2 if m[2] == "+" else 1 if m[2] == "=" else 0 for m in games_of)
            assert twice == 2 * points(r[3]), tid
            assert int(r[1]) not in {int(m[1]) for m in games_of}, tid
        pairs = table_of(html, "pairs")
        assert pairs.heads == ["Round", "Black", "Result", "White"], tid
        said = [tuple(r["cells"]) for r in pairs.rows]
        want = [
            (str(g.round) if isinstance(g.round, str) and g.round else "\u2013",
             str(row_of[g.black]), RESULT[g.result], str(row_of[g.white]))
            for g in part.itertuples()
        ]  # fmt: skip
        assert sorted(said) == sorted(want), tid
        order = [column[r[0]] for r in said]  # by round
        assert order == sorted(order), tid


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
            "#cross tbody td:nth-child(4)", "cells => cells.map(c => c.textContent)"
        )
        total = sum(float(s.replace("½", ".5")) if s != "½" else 0.5 for s in scores)
        assert total == n, tid
        assert page.locator("#pairings table.pairings tbody tr").count() == n, tid
        # the script names the players of the pairings as the crosstable does (by their #)
        named = page.eval_on_selector_all(
            "#pairs tbody tr", "rs => rs.map(r => [r.cells[1].innerHTML, r.cells[3].innerHTML])"
        )
        crossed = page.eval_on_selector_all(
            "#cross tbody tr", "rs => rs.map(r => r.cells[2].innerHTML)"
        )
        assert all(b in crossed and w in crossed for b, w in named), tid
        # the page script colours each game of the crosstable by its result
        coloured = page.eval_on_selector_all(
            "#cross tbody td span:is(.w, .d, .l)", "s => s.map(x => [x.className, x.textContent])"
        )
        assert len(coloured) == 2 * n, tid
        assert all(
            {"+": "w", "=": "d", "\u2212": "l"}[t.split("/")[0][-1]] == c for c, t in coloured
        )
    page.screenshot(path=str(artifacts / "tournament-desktop-top.png"))


EMPHASIS = """() => {
    const row = document.querySelector("#cross tbody tr"), size = c => parseFloat(getComputedStyle(c).fontSize);
    const cells = Array.from(row.cells);
    return {score: getComputedStyle(cells[3]).fontWeight, today: size(cells[cells.length - 1]),
            others: Math.min(...cells.slice(0, -1).map(size))};
}"""


@pytest.mark.browser
def test_a_printed_crosstable_keeps_the_screens_emphasis(published, page):
    """Issue 39, item 6: on paper as on screen, today's estimate is muted in smaller type than
    every other cell of the crosstable (printed, it had the largest: 13 px beside 7 pt), and
    the score is bold."""
    open_(page, site_of(published), _biggest(published))
    for media in ("screen", "print"):
        page.emulate_media(media=media)
        shown = page.evaluate(EMPHASIS)
        assert shown["today"] < shown["others"], (media, shown)
        assert int(shown["score"]) >= 600, (media, shown)


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
        p.locator(f"#cross tbody tr:first-child td:nth-child({c})").bounding_box() for c in (2, 3)
    )
    box = p.locator("#standings .scroll").bounding_box()
    assert abs(number["x"] - box["x"]) < 1 and number["x"] + number["width"] <= name["x"] + 0.5
    assert p.locator("#cross tbody tr:first-child td:nth-child(2)").inner_text() == "1"
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
            "#pairings tbody tr td:last-child",
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
                """() => Array.from(document.querySelectorAll('#cross tbody td:nth-child(3) small'), s => {
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
