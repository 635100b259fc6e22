"""The tournaments (whr.publish.site.tournaments): crosstables that add up, pairings drawn from
them, a crosstable on a phone."""

from __future__ import annotations

import re
from html.parser import HTMLParser

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
from whr.publish.site import page_names


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
