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
