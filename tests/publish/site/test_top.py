"""The top players' pages (whr.publish.site.top)."""

from __future__ import annotations

import pytest

from tests.publish.site.pages import open_
from tests.publish.support import site_of


@pytest.mark.browser
def test_top_five_fills_short_years_and_the_legend_is_below_the_chart(published, page, artifacts):
    site = site_of(published)
    open_(page, site, "top_women.html")
    page.wait_for_selector("svg[data-drawn]")
    chart = page.locator("figure.chart svg").bounding_box()
    legend = page.locator("figure.chart ul.legend").bounding_box()
    assert legend["y"] >= chart["y"] + chart["height"]
    cells = page.eval_on_selector_all("table.top tbody tr", "rows => rows.map(r => r.cells.length)")
    assert set(cells) == {6}  # the list and five places, "–" where nobody
    assert page.locator("table.top td.none").count() >= 1


def _women(published) -> set[str]:
    from tests.publish.site.pages import published_table

    ratings = published_table(published, "ratings")
    return set(ratings.loc[ratings["female"].fillna(False).astype(bool), "player"])


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", "zh"])
def test_women_are_marked_in_the_top_lists_and_on_archived_days(published, page, language):
    """As the lists mark them (rows.py's player formatter): a woman's link has class f and
    the ♀ after it, in the top fives, the year-end index's No. 1 and an archived day."""
    from tests.publish.support import entry_of
    from whr.publish.site import page_names

    site = site_of(published)
    women = _women(published)
    ids = published_table_players(published)
    names = page_names(ids)
    pages = {names[p]: p for p in ids}
    places = [(site, "top.html", "table.top"), (site, "top_women.html", "table.top"),
              (site, "years.html", "table.plain"),
              (entry_of(published), "index.html", "table.list")]  # fmt: skip
    open_(page, site, "index.html")
    page.evaluate("l => localStorage.setItem('whr.lang', l)", language)
    seen = 0
    for where, path, table in places:
        open_(page, where, path)
        links = page.eval_on_selector_all(
            f"{table} tbody a[href*='p/']",
            "as => as.map(a => [a.getAttribute('href'), a.className,"
            " getComputedStyle(a, '::after').content])",
        )
        assert links, path
        for href, cls, after in links:
            player = pages[href.rsplit("/", 1)[1].removesuffix(".html")]
            woman = player in women
            assert (cls == "f") == woman, (path, player)
            assert (after == '"\u2640"') == woman, (path, player, after)
            seen += woman
    assert seen > 0, "no woman in the tables: the test proves nothing"


def published_table_players(published) -> list[str]:
    from tests.publish.site.pages import published_table

    return published_table(published, "ratings")["player"].tolist()
