"""The one row filler (whr.publish.site.rows): the rows a page carries without script are those
the page script draws first, from the same declaration."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.publish.site.pages import MARK, parse
from whr.publish.site import page_names
from whr.publish.site.frame import STATIC_ROWS


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
