"""The about page (whr.publish.site.about)."""

from __future__ import annotations

from tests.publish.site.pages import visible
from tests.publish.support import site_of


def test_about_page_states_the_parameters(published, small):
    html = (site_of(published) / "about.html").read_text()
    text = visible(site_of(published) / "about.html")
    assert "w² = 12.9 Elo² per day" in text
    assert small.data.inputs[0][1] in text
    assert "2 virtual draws" in text
    assert 'href="facts_needed.csv"' in html and 'href="ratings.csv"' in html
    # the rank rule a reader can check the list against (whr.lists.rank_order)
    assert "never rounded: a player is never ranked above a higher rating" in text
    assert "in the order of their player IDs" in text
