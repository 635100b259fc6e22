"""The about page (whr.publish.site.about)."""

from __future__ import annotations

import pytest

from tests.publish.site.pages import open_, visible
from tests.publish.support import site_of
from whr.publish.site import i18n


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


WHY = "<strong>Why the two differ.</strong> Each list is computed from the games known on its day."


@pytest.mark.browser
@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_the_about_page_says_why_the_lists_and_todays_estimate_differ(published, page, language):
    """Issue 29, item 3: a paragraph, in the reader's language, on why what a list said then is
    not today's whole-history estimate; and the tournaments' columns named as the pages name
    them (Before, After, Change: the lists'; Today's estimate)."""
    english = next(m for m in i18n.catalog("ru") if m.startswith(WHY))
    page.add_init_script(f"localStorage.setItem('whr.lang', '{language}')")
    open_(page, site_of(published), "about.html")
    shown = page.inner_html("#then-and-now > [data-m]")
    if language == "en":
        assert shown.strip() == english
    else:
        assert shown.strip() == i18n.catalog(language)[english] != english
    text = page.inner_text("#tournaments ~ p:has(+ #then-and-now)")
    for name in ("Before", "After", "Change", "Today's estimate"):
        local = name if language == "en" else i18n.catalog(language)[name]
        assert local in text, (language, name)
