"""The site as readers use it, in the shared headless Chromium: lists that never go blank, phone
layouts that show what matters, print, and accessibility (axe) on every page type at phone
(390x844) and desktop (1366x900) size. Screenshots go to tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import pytest

from tests.publish import support
from tests.publish.site.test_browser import (
    DESKTOP,
    PHONE,
    all_rows,
    check_and_close,
    new_page,
    on_screen,
    open_,
    printed,
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


# --- 2. phone layouts that show what matters ---------------------------------------------------


def in_box(page, table: str, labels: list[str]) -> dict[str, bool]:
    """Whether each heading of ``table`` (by its text) lies wholly inside the table's scroll box."""
    return page.evaluate(
        """([table, labels]) => {
            const t = document.querySelector(table), box = t.closest('.scroll').getBoundingClientRect();
            const out = {};
            for (const th of t.tHead.rows[0].cells) {
                const r = th.getBoundingClientRect(), label = th.textContent.trim();
                if (labels.includes(label)) out[label] = r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
            }
            return out;
        }""",
        [table, labels],
    )


def test_a_phone_shows_rank_player_rating_and_change_of_a_list(changed, browser, artifacts):
    site, snapshot = changed
    p = new_page(browser, PHONE)
    for path in ("index.html", "gy1.html"):
        open_(p, site, path)
        want = ["Rank", "Player", "Rating", "Change"]
        assert in_box(p, "#list", want) == dict.fromkeys(want, True), path
        # and the widest change drawn is whole (no "+2" for +28)
        cut = p.eval_on_selector_all(
            "#list tbody tr[aria-rowindex] td:nth-child(4)",
            "cs => cs.filter(c => c.scrollWidth > c.clientWidth + 1).length",
        )
        assert cut == 0
    p.screenshot(path=str(artifacts / "list-changes-phone-top.png"))
    check_and_close(p)


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


def test_a_players_tournaments_and_the_year_index_on_a_phone(changed, browser, artifacts):
    site, snapshot = changed
    ratings = snapshot.tables.ratings
    busiest = ratings.sort_values("games").iloc[-1]["player"]
    p = new_page(browser, PHONE)
    open_(p, site, f"p/{page_names(ratings['player'])[busiest]}.html")
    want = ["Tournament", "Score", "At the time", "Change"]
    assert in_box(p, "#events table", want) == dict.fromkeys(want, True)
    open_(p, site, "years.html")
    # No. 1 on one line: as tall as the row's date
    heights = p.eval_on_selector_all(
        "table.plain tbody tr",
        "rows => rows.map(r => [r.cells[0].offsetHeight, r.cells[3].offsetHeight])",
    )
    assert all(name <= date for date, name in heights), heights
    assert in_box(p, "table.plain", ["No. 1"]) == {"No. 1": True}
    p.screenshot(path=str(artifacts / "years-phone-top.png"))
    check_and_close(p)


# --- 3. print -----------------------------------------------------------------------------------

# CSS px between the side margins of an A4 page (210 mm - 2 x 10 mm at 96 px/in), and of a
# landscape one (a crosstable's: 297 mm - 2 x 10 mm)
A4_WIDTH, A4_LANDSCAPE_WIDTH = 718, 1047


def fits_the_paper(page, selector: str, width: int = A4_WIDTH) -> bool:
    """Whether the table laid out for print is no wider than the paper."""
    page.set_viewport_size({"width": width, "height": 1000})
    page.emulate_media(media="print")
    try:
        return page.eval_on_selector(selector, "t => t.getBoundingClientRect().right") <= width
    finally:
        page.emulate_media(media="screen")


def test_a_printed_list_has_every_row_and_column_and_no_menu(published, sized):
    size, page = sized
    ratings = published_table(published, "ratings")
    active = ratings.loc[ratings["status"] == "active"]
    open_(page, support.site_of(published), "index.html")
    search(page, "no such player zzz")  # printed after a hidden state
    search(page, "")
    sheets = printed(page)
    text = "\n".join(sheets)
    heading = "Rank Player Rating ± Gy1 Gy2 Gy5 Country BY"  # every column, no sort marks
    body = text.split(heading, 1)[1].splitlines()
    lines = [line for line in body if line.split(" ", 1)[0].isdigit()]
    assert [int(line.split(" ", 1)[0]) for line in lines] == active["rank"].tolist()
    assert all(name in text for name in active["name"])
    for absent in ("Search", "All countries", "Provisional 9", "Not rated"):  # filters, tabs, menu
        assert absent not in text
    assert len(sheets) == 1  # 30 rows
    assert fits_the_paper(page, "#list")
    assert len(on_screen(page)) == len(active)  # and the screen is drawn again


def test_a_printed_country_list_and_crosstable_are_whole(changed, browser):
    site, snapshot = changed
    ratings, games = snapshot.tables.ratings, snapshot.tables.games
    country = ratings.loc[ratings["status"] == "active", "country"].value_counts().index[0]
    mine = ratings.loc[(ratings["country"] == country) & (ratings["status"] == "active")]
    p = new_page(browser, PHONE)
    open_(p, site, f"countries/{page_names(ratings['country'].dropna())[country]}.html")
    text = "\n".join(printed(p))
    assert all(name in text for name in mine["name"]) and "Change" in text
    tournaments = snapshot.tables.tournaments
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    biggest = games["tournament_id"].value_counts().index[0]
    open_(p, site, f"tournaments/{names[biggest]}.html")
    players = p.eval_on_selector_all("#cross td.nm", "c => c.map(x => x.textContent)")
    text = "\n".join(printed(p))
    assert all(name in text for name in players)
    for heading in ("Place # Player Score", "Perf. Before After Change"):
        assert heading in text
    assert "Pairings by round" in text
    assert fits_the_paper(p, "#cross", A4_LANDSCAPE_WIDTH)
    check_and_close(p)


# --- 8. accessibility (axe on every page type: test_browser) ------------------------------------


def test_the_first_tab_shows_a_skip_link_to_the_content(published, browser):
    page = new_page(browser)
    open_(page, support.site_of(published), "index.html#q=given")
    assert page.get_attribute("a.skip", "href") == "#main"
    assert page.locator("a.skip").bounding_box()["y"] < 0  # out of sight until focused
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    assert page.locator("a.skip").bounding_box()["y"] >= 0
    page.keyboard.press("Enter")
    settle(page)
    assert page.evaluate("location.hash") == "#main"
    assert page.input_value("#q") == "given"  # the search is kept
    check_and_close(page)
