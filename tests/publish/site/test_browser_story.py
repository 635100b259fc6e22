"""A player's change told once, in a real headless Chromium: the numbers the page shows add up
as shown, the sentence is there only for a change, the lists mark the newly ranked, the chart
marks the days played (issue 21). Screenshots go to tests/artifacts/."""

from __future__ import annotations

import re

import pytest

from tests.publish import support
from tests.publish.site import test_browser
from tests.publish.site.test_browser import DESKTOP, PHONE, all_rows, open_, published_table
from whr.publish.site import page_names

MARK = support.MARK

pytestmark = pytest.mark.browser
page = test_browser.page  # the same fixture (the browser is the session's, in conftest)


def number(text: str) -> int:
    return int(text.strip().replace("\u2212", "-"))


def story(page) -> dict:
    """The player page's numbers as shown: today's rating, the previous list's, the change, the
    sentence (or None), and each tournament row's Change, Before, After."""
    facts = page.eval_on_selector_all(
        "dl.facts dt", "ts => ts.map(t => [t.textContent, t.nextElementSibling.innerText])"
    )
    facts = dict(facts)
    (today,) = [v for k, v in facts.items() if k.startswith("Rating on ")]
    heads = page.eval_on_selector_all("#events thead th", "t => t.map(x => x.textContent)")
    cells = page.eval_on_selector_all(
        "#events tbody tr", "rows => rows.map(r => Array.from(r.cells, c => c.textContent))"
    )
    at = {name: heads.index(name) for name in ("Change", "Before", "After")}
    sentence = page.locator("p.change")
    return {
        "today": number(today.split("±")[0]),
        "previous": facts.get("Previous list"),
        "sentence": sentence.inner_text() if sentence.count() else None,
        "rows": [{k: row[i] for k, i in at.items()} for row in cells],
    }


def test_the_player_page_tells_the_change_once_and_it_adds_up(changed, page, artifacts):
    site, snapshot = changed
    ratings = snapshot.tables.ratings
    pages = page_names(ratings["player"])
    open_(page, site, "index.html")
    listed = {r[1].removeprefix(MARK): r for r in all_rows(page)}  # name: cells
    delta_of = {  # the change as shown, rounded once: for choosing players of each kind
        p: round(r) - round(r - c)
        for p, r, c in zip(
            ratings["player"], ratings["rating"], ratings["rating_change"], strict=True
        )
        if c == c
    }
    chosen = {
        "moved": max(delta_of, key=lambda p: abs(delta_of[p])),
        "still": next(p for p, d in delta_of.items() if d == 0),
        "new": ratings.loc[ratings["rating_change"].isna(), "player"].iloc[0],
    }
    for kind, player in chosen.items():
        row = ratings.loc[ratings["player"] == player].iloc[0]
        open_(page, site, f"p/{pages[player]}.html")
        shown = story(page)
        if kind == "new":
            assert shown["previous"] == "not on it: new on this list"
            assert shown["sentence"] is None
        else:
            m = re.fullmatch(r"(\d+) · change ([+\u2212]?\d+)", shown["previous"])
            assert m, shown["previous"]
            previous, change = number(m.group(1)), number(m.group(2))
            assert shown["today"] - previous == change  # adds up as shown
            assert change == delta_of[player]
            if row["status"] == "active":  # the list says the same change
                assert number(listed[row["name"]][3]) == change
            if change == 0:
                assert shown["sentence"] is None  # nothing said about no change
            else:
                text = shown["sentence"]
                assert text, player
                parts = re.findall(r"[+\u2212]\d+", text)
                assert len(parts) in (0, 2), text
                if parts:
                    assert sum(number(x) for x in parts) == change, text
        for r in shown["rows"]:  # each tournament: After - Before = Change, as shown
            if r["Change"] == "new":
                assert r["Before"] == "\u2013"
            else:
                assert number(r["After"]) - number(r["Before"]) == number(r["Change"]), r
        assert "today\u2019s whole-history estimates" in page.inner_text("#today-estimates")
        if kind == "new":
            continue
        for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
            page.set_viewport_size(viewport)
            page.wait_for_timeout(300)  # the chart redraws for the new width
            page.screenshot(path=str(artifacts / f"player-story-{kind}-{size}.png"))
        page.set_viewport_size(DESKTOP)


def test_lists_mark_the_newly_ranked_in_words(changed, page, artifacts):
    site, snapshot = changed
    ratings = snapshot.tables.ratings
    entered = ratings.loc[ratings["rank"].notna() & ratings["previous_rank"].isna(), "name"]
    assert len(entered)
    open_(page, site, "index.html")
    rows = all_rows(page)
    marked = [r[1].removeprefix(MARK) for r in rows if r[1].startswith(MARK)]
    assert sorted(marked) == sorted(entered)
    assert all(r[4] == "" for r in rows if r[1].startswith(MARK))  # Prev. blank
    assert "newly ranked: ranked, and not ranked on the previous list" in page.inner_text(
        "p.legend"
    )
    # the mark is in view, inside its cell, at both sizes (a long name does not hide it), and
    for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(200)
        mark = page.locator("#list td.nm .entered").first
        mark.scroll_into_view_if_needed()
        box, cell = mark.bounding_box(), mark.locator("xpath=..").bounding_box()
        assert box["width"] > 5 and box["x"] + box["width"] <= cell["x"] + cell["width"] + 1
        # and so is the name after it: on a phone the mark is an arrow (its words hidden but
        # read), on a desktop its words
        name = mark.locator("xpath=following-sibling::a").bounding_box()
        assert name["x"] < cell["x"] + cell["width"] / 2, (size, name, cell)
        arrow, words = mark.locator(".s").bounding_box(), mark.locator(".t").bounding_box()
        if size == "phone":
            assert arrow is not None and arrow["width"] > 4 and words["width"] <= 1, (arrow, words)
        else:
            assert arrow is None and words["width"] > 20, (arrow, words)
        heights = page.eval_on_selector_all(
            "#list tbody tr[aria-rowindex]", "rows => rows.map(r => r.offsetHeight)"
        )
        assert len(set(heights)) == 1, heights  # one line: the table's rows keep one height
        page.screenshot(path=str(artifacts / f"list-newly-ranked-{size}.png"))


def test_the_chart_marks_each_day_played(published, page):
    ratings = published_table(published, "ratings")
    history = published_table(published, "history")
    days = history.loc[history["player"].isin(ratings["player"])].groupby("player").size()
    player = days.idxmax()
    open_(page, support.site_of(published), f"p/{page_names([player])[player]}.html")
    page.wait_for_selector("svg[data-drawn]")
    assert page.locator("svg circle.day").count() == days[player] > 1
    # one dot per rating day, at the line's vertices
    line = page.get_attribute("svg path.line:not(.later)", "d")
    vertices = [v.split(",") for v in line[1:].split("L")]
    dots = page.eval_on_selector_all(
        "svg circle.day", "cs => cs.map(c => [c.getAttribute('cx'), c.getAttribute('cy')])"
    )
    assert [[float(x) for x in v] for v in vertices] == [[float(x) for x in d] for d in dots]
