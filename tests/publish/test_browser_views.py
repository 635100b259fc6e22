"""The site as readers use it, in the shared headless Chromium: lists that never go blank, phone
layouts that show what matters, print, and accessibility (axe) on every page type at phone
(390x844) and desktop (1366x900) size. Screenshots go to tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import pytest
import support
from test_browser import (
    DESKTOP,
    PHONE,
    all_rows,
    check_and_close,
    new_page,
    on_screen,
    open_,
    published_table,
    settle,
)

from whr.publish.site import page_names

pytestmark = pytest.mark.browser
SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture(params=list(SIZES))
def sized(request, browser):
    """A page of each size (its name, the page)."""
    p = new_page(browser, SIZES[request.param])
    yield request.param, p
    check_and_close(p)


def drawn(page) -> list[list[str]]:
    """The rows drawn on screen, each checked to be really shown (displayed, of some height)."""
    heights = page.eval_on_selector_all(
        "#list tbody tr[aria-rowindex]", "rows => rows.map(r => r.getBoundingClientRect().height)"
    )
    assert all(h > 0 for h in heights), heights
    assert page.is_visible("#list") or heights == []
    return on_screen(page)


def search(page, text: str) -> None:
    page.fill("#q", text)
    settle(page)


# --- 1. lists that never go blank ------------------------------------------------------------


def test_a_search_with_no_match_then_cleared_shows_the_list_again(published, sized):
    size, page = sized
    active = published_table(published, "ratings").query("status == 'active'")
    open_(page, support.site_of(published), "index.html")
    whole = drawn(page)
    assert [r[1] for r in whole] == active["name"].tolist()[: len(whole)] and whole
    search(page, "no such player zzz")
    assert drawn(page) == [] and page.is_hidden("#list")
    assert page.inner_text("#shown").startswith(f"0 of {len(active)} shown")
    search(page, "")
    assert drawn(page) == whole
    assert page.inner_text("#shown") == f"{len(active)} players"
    # scrolled to the end, the last row is drawn: the row height is a number, not NaN
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    settle(page)
    assert drawn(page)[-1][1] == active["name"].iloc[-1]


def test_the_also_found_link_shows_the_rows_on_the_other_tab(published, sized, artifacts):
    size, page = sized
    ratings = published_table(published, "ratings")
    provisional = ratings.loc[ratings["status"] == "provisional"].iloc[0]
    open_(page, support.site_of(published), "index.html")
    search(page, provisional["player"])  # an id: nobody on the active tab
    assert drawn(page) == []
    page.click("#shown a:has-text('in Provisional')")
    settle(page)
    assert page.get_attribute("#tabs a.on", "data-tab") == "provisional"
    assert [r[0] for r in drawn(page)] == [provisional["name"]]
    page.screenshot(path=str(artifacts / f"list-also-found-{size}.png"))
    search(page, "")  # and the whole tab when the search is cleared
    assert len(drawn(page)) == len(all_rows(page)) == (ratings["status"] == "provisional").sum()


def test_an_empty_tab_and_back_shows_the_list_again(published, sized):
    size, page = sized
    ratings = published_table(published, "ratings")
    by = ratings.groupby("country")["status"]
    country = next(c for c, s in by if "provisional" not in set(s) and "active" in set(s))
    active = ratings.loc[(ratings["country"] == country) & (ratings["status"] == "active")]
    path = f"countries/{page_names(ratings['country'].dropna())[country]}.html"
    open_(page, support.site_of(published), path + "#t=provisional")
    assert page.inner_text("#shown") == "No players in this part of the list."
    page.click("#tabs a[data-tab=active]")
    settle(page)
    assert [r[1] for r in drawn(page)] == active["name"].tolist()
    assert page.is_visible("#filters")
