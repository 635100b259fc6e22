"""The list pages (whr.publish.site.lists): their data, the Gy1 list, changes since the previous
list, and in Chromium: order, search, tabs, marks, lists that never go blank, phones and print."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from tests.publish import support
from tests.publish.site.pages import (
    A4_LANDSCAPE_WIDTH,
    DESKTOP,
    MARK,
    PHONE,
    all_rows,
    check_and_close,
    drawn,
    fits_the_paper,
    in_box,
    new_page,
    on_screen,
    open_,
    parse,
    printed,
    published_table,
    search,
    settle,
    shown,
    visible,
)
from tests.publish.support import read_data, site_of
from whr.publish.site import page_names, write
from whr.publish.site.lists import shown_change
from whr.publish.site.rows import signed


def test_list_pages_do_not_grow_with_the_list_or_the_years(small, tmp_path):
    snapshot = support.snapshot_of(small)
    year_end = snapshot.year_end
    assert len(year_end) > 5
    info = {"parameters": small.params}
    ends = snapshot.tables.year_end
    few = ends.loc[ends["list_date"].isin(list(year_end)[:2])].reset_index(drop=True)
    write(tmp_path / "all", snapshot.view, info)
    write(tmp_path / "few", support.view_of(snapshot, year_end=few), info)
    for page in ("index.html", "gy1.html", "inactive.html", "players.html"):
        a = (tmp_path / "all" / page).read_bytes()
        assert a == (tmp_path / "few" / page).read_bytes(), page
        # the rows are in a data file, drawn by the page script; the page carries only the
        # first STATIC_ROWS, with every column the script draws (for readers without script)
        assert len(a) < 16_000, page
    # one page per year, whatever the tab
    assert len(list((tmp_path / "all" / "years").iterdir())) == len(year_end)


def gy1_by_hand(rated: pd.DataFrame, day: dt.date) -> set[str]:
    """Players with >= 10 rated games up to ``day`` and >= 10 in (day - 1 year, day]."""
    start = day.replace(year=day.year - 1)  # no February 29 among the dates used here
    total: Counter[str] = Counter()
    last_year: Counter[str] = Counter()
    for black, white, date in zip(rated["black"], rated["white"], rated["date"], strict=True):
        if date <= day:
            for p in (black, white):
                total[p] += 1
                last_year[p] += date > start
    return {p for p in total if total[p] >= 10 and last_year[p] >= 10}


def test_gy1_list_holds_exactly_the_players_the_rule_selects(published, small):
    site = site_of(published)
    ids = read_data(site, "players")["id"]
    rated = small.selection.rated
    ratings = pd.read_parquet(support.entry_of(published) / "ratings.parquet").set_index("player")
    for day, stem in (
        (support.AS_OF, f"list-{support.AS_OF.isoformat()}"),
        (dt.date(2022, 12, 31), "list-2022-12-31"),
    ):
        data = read_data(site, stem)
        expected = gy1_by_hand(rated, day)
        shown = {ids[p] for p, y in zip(data["p"], data["y"], strict=True) if y}
        assert shown == expected, day
        upto = rated.loc[rated["date"] <= day]
        counts = Counter([*upto["black"], *upto["white"]])
        n_established = sum(n >= 10 for n in counts.values())
        assert 0 < len(expected) < n_established, day  # the rule is exercised both ways
    # ranks among them follow the ratings, and the world rank is the list's
    data = read_data(site, f"list-{support.AS_OF.isoformat()}")
    chosen = sorted((y, ids[p]) for p, y in zip(data["p"], data["y"], strict=True) if y)
    assert [y for y, _ in chosen] == list(range(1, len(chosen) + 1))  # no ties here
    assert ratings.loc[[p for _, p in chosen], "rating"].is_monotonic_decreasing


def test_the_lists_show_each_players_peak(published):
    """The Peak column: each player's best rating up to the list date, as the list's
    best_rating says, whole; in the data, and in the rows without script."""
    site = site_of(published)
    ratings = pd.read_parquet(site / "ratings.parquet")
    data = read_data(site, f"list-{support.AS_OF.isoformat()}")
    ids = read_data(site, "players")["id"]
    peak = dict(zip([ids[p] for p in data["p"]], data["b"], strict=True))
    best = zip(ratings["player"], ratings["best_rating"], strict=True)
    assert peak == {p: round(b) for p, b in best}
    assert all(b >= r for b, r in zip(data["b"], data["r"], strict=True))
    rows = parse(site / "inactive.html").tables["list"]
    inactive = ratings.loc[ratings["status"] == "inactive"].sort_values("rating", ascending=False)
    assert [int(r[2]) for r in rows] == [round(b) for b in inactive["best_rating"]]


def test_list_data_match_the_published_list(published):
    site = site_of(published)
    ratings = pd.read_parquet(support.entry_of(published) / "ratings.parquet")
    ids = read_data(site, "players")["id"]
    data = read_data(site, f"list-{support.AS_OF.isoformat()}")
    assert [ids[p] for p in data["p"]] == ratings["player"].tolist()  # the list's order
    assert data["r"] == [int(f"{x:.0f}") for x in ratings["rating"]]
    assert data["k"] == [0 if pd.isna(x) else int(x) for x in ratings["rank"]]
    assert data["s"] == [("active", "inactive", "provisional").index(s) for s in ratings["status"]]
    assert data["g1"] == ratings["gy1"].tolist() and data["n"] == ratings["games"].tolist()
    assert "d" not in data  # no previous list: no change column


def test_a_change_adds_up_as_shown():
    rating = np.array([2216.4, 2000.5, 1990.0, 1800.0])
    change = np.array([131.6, 0.4, -0.6, np.nan])
    previous, delta = shown_change(rating, change)
    # 2084.8 -> 2085 and 2216.4 -> 2216: +131 (the change itself rounds to +132)
    assert previous[:3].tolist() == [2085.0, 2000.0, 1991.0]
    assert delta[:3].tolist() == [131.0, 0.0, -1.0]
    assert np.isnan(previous[3]) and np.isnan(delta[3])


def test_changes_since_the_previous_list(changed):
    site, snapshot = changed
    ratings = snapshot.tables.ratings
    data = read_data(site, f"list-{support.AS_OF.isoformat()}")
    ids = read_data(site, "players")["id"]
    change = dict(zip([ids[p] for p in data["p"]], data["d"], strict=True))
    rating = dict(zip([ids[p] for p in data["p"]], data["r"], strict=True))
    new = ratings.loc[ratings["rating_change"].isna(), "player"].tolist()
    assert new and all(change[p] == "n" for p in new)  # new players are marked
    moved = ratings.loc[ratings["rating_change"].notna()]
    assert len(moved)
    for p, r, c in zip(moved["player"], moved["rating"], moved["rating_change"], strict=True):
        assert rating[p] == round(r) and change[p] == shown(r, c)[1], p  # adds up as shown
    previous = dict(zip([ids[p] for p in data["p"]], data["q"], strict=True))
    ranked = ratings.loc[ratings["previous_rank"].notna()]
    assert len(ranked) and all(
        previous[p] == r for p, r in zip(ranked["player"], ranked["previous_rank"], strict=True)
    )
    # the players who entered the ranking: ranked now, not ranked on the previous list
    entered = ratings["rank"].notna() & ratings["previous_rank"].isna()
    assert 0 < entered.sum() < ratings["rank"].notna().sum()
    assert [data["p"][i] for i in data["e"]] == [
        ids.index(p) for p in ratings.loc[entered, "player"]
    ]
    index = (site / "index.html").read_text(encoding="utf-8")
    assert re.search(r"<th[^>]*>Change<", index)  # the column, and the legend explains its marks
    legend = visible(site / "index.html").split("Established:")[0]
    assert "new: not on it" in legend
    assert "\u2191newly ranked: ranked, and not ranked on the previous list" in legend
    # a player page shows the previous list's rating and the change, as the list does
    pages = page_names(ratings["player"])
    p = moved.iloc[0]
    html = (site / "p" / f"{pages[p['player']]}.html").read_text(encoding="utf-8")
    text = visible(site / "p" / f"{pages[p['player']]}.html")
    before, delta = shown(p["rating"], p["rating_change"])
    assert f" Previous list {before} · change {signed(delta)} " in text
    assert f"<span class=prev>{before}</span>" in html
    assert f"<strong class=delta>{signed(delta)}</strong>" in html
    text = visible(site / "p" / f"{pages[new[0]]}.html")
    assert " Previous list not on it: new on this list " in text
    assert "<p class=change>" not in (site / "p" / f"{pages[new[0]]}.html").read_text()
    for player in ratings.loc[entered, "player"]:  # their pages say so by the rank
        text = visible(site / "p" / f"{pages[player]}.html")
        assert "(newly ranked: not ranked on the previous list)" in text
    player = ratings.loc[ratings["previous_rank"].notna(), "player"].iloc[0]
    assert "newly ranked" not in visible(site / "p" / f"{pages[player]}.html")


@pytest.mark.browser
def test_home_page_lists_active_players_in_rank_order_and_searches(published, page, artifacts):
    ratings = published_table(published, "ratings")
    active = ratings.loc[ratings["status"] == "active"]
    site = site_of(published)
    open_(page, site, "index.html")
    assert page.inner_text("h1") == "Renju world rating list — 25 November 2026"
    rows = all_rows(page)
    assert [r[1] for r in rows] == active["name"].tolist()
    assert [int(r[0]) for r in rows] == active["rank"].tolist()
    assert len(on_screen(page)) == len(rows)  # a short list is drawn whole
    query = "surname1"  # case-insensitive, in name, native name, id or city
    page.fill("#q", query)
    settle(page)
    expected = [n for n in active["name"] if query in n.lower()]
    assert 0 < len(expected) < len(active)
    assert [r[1] for r in all_rows(page)] == expected
    assert page.inner_text("#shown").startswith(f"{len(expected)} of {len(active)} shown")
    page.screenshot(path=str(artifacts / "list-search-desktop.png"))


@pytest.mark.browser
def test_search_by_id_and_city_finds_players_on_other_tabs(published, page, artifacts):
    ratings = published_table(published, "ratings")
    inactive = ratings.loc[ratings["status"] == "inactive"].iloc[0]
    site = site_of(published)
    open_(page, site, "index.html")
    page.fill("#q", inactive["player"])  # an id
    settle(page)
    assert all_rows(page) == []  # not on the active tab
    hint = page.locator("#shown a", has_text="in Inactive")
    assert hint.count() == 1
    hint.click()
    settle(page)
    assert page.input_value("#q") == inactive["player"]  # the search is kept
    assert page.get_attribute("#tabs a.on", "data-tab") == "inactive"
    assert [r[0] for r in all_rows(page)] == [inactive["name"]]
    page.screenshot(path=str(artifacts / "list-search-by-id-desktop.png"))
    # a city: every player of the players data with that city, on whichever tab
    data = support.read_data(site, "players")
    city = "City3"
    expected = {i for i, c in zip(data["id"], data["ci"], strict=True) if c == city}
    open_(page, site, "players.html")
    page.fill("#q", city.lower())
    settle(page)
    assert {r[0] for r in all_rows(page)} == expected


@pytest.mark.browser
def test_switching_tabs_keeps_search_and_country(published, page):
    ratings = published_table(published, "ratings")
    site = site_of(published)
    open_(page, site, "index.html")
    country = ratings.loc[ratings["status"] == "active", "country"].value_counts().index[0]
    page.select_option("#c", country)
    page.fill("#q", "given")
    settle(page)
    page.click("#tabs a[data-tab=provisional]")
    settle(page)
    assert page.input_value("#q") == "given" and page.input_value("#c") == country
    provisional = ratings.loc[
        (ratings["status"] == "provisional") & (ratings["country"] == country)
    ]
    expected = sorted(n for n in provisional["name"] if "given" in n.lower())
    assert sorted(r[0] for r in all_rows(page)) == expected
    # the country menu offers the countries with players on the tab only
    options = page.eval_on_selector_all("#c option", "o => o.map(x => x.value)")
    on_tab = set(ratings.loc[ratings["status"] == "provisional", "country"].dropna())
    assert set(options) - {""} == on_tab | {country}


@pytest.mark.browser
def test_change_column_and_new_players(changed, page, artifacts):
    site, snapshot = changed
    ratings = snapshot.tables.ratings
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(viewport)
        open_(page, site, "index.html")
        page.screenshot(path=str(artifacts / f"list-changes-{name}.png"), full_page=name == "phone")
    heads = page.eval_on_selector_all("#list thead th", "t => t.map(x => x.textContent)")
    assert heads[:5] == ["Rank", "Player", "Rating", "Change", "Prev."]
    rows = {r[1].removeprefix(MARK): r for r in all_rows(page)}
    active = ratings.loc[ratings["status"] == "active"]
    new = active.loc[active["rating_change"].isna(), "name"].tolist()
    assert new, "the previous list must miss some active players"
    assert all(rows[n][3] == "new" for n in new)
    moved = active.loc[active["rating_change"].notna()]
    for name, rating, change, prev in zip(
        moved["name"], moved["rating"], moved["rating_change"], moved["previous_rank"], strict=True
    ):
        whole = round(rating) - round(rating - change)  # as shown: the two lists' ratings'
        text = f"+{whole}" if whole > 0 else (f"\u2212{-whole}" if whole < 0 else "0")
        assert rows[name][3] == text
        assert rows[name][4] == ("" if pd.isna(prev) else str(int(prev)))
    assert page.locator("#list td .new").count() >= 1  # styled, not by colour alone: the word


@pytest.mark.browser
def test_empty_tab_hides_search_and_country_menu(published, page, artifacts):
    ratings = published_table(published, "ratings")
    by = ratings.groupby("country")["status"]
    empty = [c for c, s in by if "provisional" not in set(s)]
    assert empty, "the fixture needs a country without provisional players"
    site = site_of(published)
    open_(
        page,
        site,
        f"countries/{page_names(ratings['country'].dropna())[empty[0]]}.html#t=provisional",
    )
    assert page.is_hidden("#filters")
    assert page.inner_text("#shown") == "No players in this part of the list."
    assert page.is_hidden("#list")
    page.screenshot(path=str(artifacts / "country-empty-tab-desktop.png"))


@pytest.mark.browser
def test_women_are_marked_not_by_colour_alone(published, page):
    ratings = published_table(published, "ratings")
    woman = ratings.loc[ratings["female"] & (ratings["status"] == "active"), "name"].iloc[0]
    site = site_of(published)
    open_(page, site, "index.html")
    link = page.locator("#list a.f", has_text=woman).first
    mark = link.evaluate("a => getComputedStyle(a, '::after').content")
    assert "\u2640" in mark
    assert "a woman" in page.inner_text(".legend")


@pytest.mark.browser
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


@pytest.mark.browser
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


@pytest.mark.browser
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


@pytest.mark.browser
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


@pytest.mark.browser
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


@pytest.mark.browser
def test_a_printed_list_has_every_row_and_column_and_no_menu(published, sized):
    size, page = sized
    ratings = published_table(published, "ratings")
    active = ratings.loc[ratings["status"] == "active"]
    open_(page, support.site_of(published), "index.html")
    search(page, "no such player zzz")  # printed after a hidden state
    search(page, "")
    sheets = printed(page)
    text = "\n".join(sheets)
    heading = "Rank Player Rating Peak ± Gy1 Gy2 Gy5 Country BY"  # every column, no sort marks
    body = text.split(heading, 1)[1].splitlines()
    lines = [line for line in body if line.split(" ", 1)[0].isdigit()]
    assert [int(line.split(" ", 1)[0]) for line in lines] == active["rank"].tolist()
    assert all(name in text for name in active["name"])
    for absent in ("Search", "All countries", "Provisional 9", "Not rated"):  # filters, tabs, menu
        assert absent not in text
    assert len(sheets) == 1  # 30 rows
    assert fits_the_paper(page, "#list")
    assert len(on_screen(page)) == len(active)  # and the screen is drawn again


@pytest.fixture(scope="module")
def long_list(tmp_path_factory):
    """A site whose lists and players index print on several sheets (6,000 games: about 220
    active players, 500 listed)."""
    given = support.inputs(6000)
    site = tmp_path_factory.mktemp("long-list") / "site"
    write(site, support.snapshot_of(given).view, {"parameters": given.params})
    return site


@pytest.mark.browser
@pytest.mark.parametrize(
    ("path", "heading"),
    [
        ("index.html", "Rank Player Rating Peak \u00b1 Gy1 Gy2 Gy5 Country BY"),
        ("players.html", "ID Player Rating \u00b1 Games Rank Status BY City Country"),
    ],
)
def test_a_printed_list_repeats_its_headings_on_every_sheet(long_list, browser, path, heading):
    """Issue 39, item 6: every printed sheet of a long list starts with the column headings
    (Chromium repeated none on sheets 2 to 44 of the RIF-sized list: it repeats no heading row
    that holds a button, and each heading is a sort button)."""
    p = new_page(browser)
    open_(p, long_list, path)
    sheets = printed(p)
    assert len(sheets) >= 3, len(sheets)
    without = [k + 1 for k, sheet in enumerate(sheets) if heading not in sheet]
    assert without == [], f"sheets without the headings: {without} of {len(sheets)}"
    check_and_close(p)


@pytest.mark.browser
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


# --- the year-end lists' heading and their previous and next year (issue 30) --------------------

YEAR_END_LANGUAGES = ["en", "zh", "ru", "ja", "ko"]


def test_a_year_end_list_names_its_own_year_and_links_the_years_around(published):
    site = site_of(published)
    years = sorted(int(p.stem) for p in (site / "years").glob("*.html"))
    assert len(years) > 2
    for k, year in enumerate(years):
        html = (site / "years" / f"{year}.html").read_text(encoding="utf-8")
        h1 = re.sub(r"<[^>]+>", "", html.split("<h1>", 1)[1].split("</h1>", 1)[0])
        assert h1 == f"Renju world rating list at the end of {year} — 31 December {year}", h1
        nav = html.split("<nav class=yearnav", 1)[1].split("</nav>", 1)[0]
        prev = re.findall(r"<a rel=prev href=(\d+)\.html>", nav)
        after = re.findall(r"<a rel=next href=(\d+)\.html>", nav)
        assert prev == ([str(years[k - 1])] if k else [])
        assert after == ([str(years[k + 1])] if k + 1 < len(years) else [])
        assert "href=../years.html" in nav
        # the day the ratings were estimated is said, by name, beside the list's own day
        meta = visible_text(html.split("<p class=meta>", 1)[1].split("</p>", 1)[0])
        assert f"(the list of {support.AS_OF.day} {support.AS_OF:%B %Y})" in meta, meta
        assert "not what a list said then" in meta


def visible_text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


@pytest.mark.browser
@pytest.mark.parametrize("language", YEAR_END_LANGUAGES)
def test_a_year_end_list_in_every_language_keeps_its_year_and_its_neighbours(
    published, browser, language
):
    from whr.publish.site import i18n

    site = site_of(published)
    years = sorted(int(p.stem) for p in (site / "years").glob("*.html"))
    middle = years[len(years) // 2]
    for viewport in (PHONE, DESKTOP):
        p = new_page(browser, viewport)
        open_(p, site, "index.html")
        p.evaluate("l => localStorage.setItem('whr.lang', l)", language)
        open_(p, site, f"years/{middle}.html")
        h1 = p.locator("h1").inner_text()
        assert str(middle) in h1 and ("December" not in h1 or language == "en"), h1
        assert "2026" not in h1  # the site's own day is not the list's
        if language != "en":
            catalog = i18n.catalog(language)
            assert catalog["Year ends"] in p.locator("nav.yearnav").inner_text()
        links = p.eval_on_selector_all(
            "nav.yearnav a",
            "as => as.map(a => { const r = a.getBoundingClientRect();"
            " return [a.getAttribute('href'), r.left >= 0 && r.right <= innerWidth && r.width > 0]; })",
        )
        hrefs = [h for h, _in in links]
        assert hrefs[0] == f"{years[years.index(middle) - 1]}.html"
        assert hrefs[-1] == f"{years[years.index(middle) + 1]}.html"
        assert all(inside for _h, inside in links), links
        assert p.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        with p.expect_navigation():
            p.click("nav.yearnav a[rel=next]")
        settle(p)
        assert p.url.endswith(f"years/{years[years.index(middle) + 1]}.html")
        check_and_close(p)


# --- the year-end lists as they stood (issue 39) --------------------------------------------------

STOOD = [dt.date(2025, 12, 20), dt.date(2025, 12, 30), dt.date(2026, 1, 2), support.AS_OF]
"""Lists published before a December 31 that has none, on the last day before it, just after it,
and on the tests' day; a backfill after the first (its lists are the years before)."""


@pytest.fixture(scope="module")
def year_ends(small, tmp_path_factory):
    out = tmp_path_factory.mktemp("year_ends")
    support.publish_days(out, small.data, STOOD)
    return out


def test_a_year_end_list_is_the_list_that_stood_with_todays_estimate_beside(year_ends):
    """The list of 2025 is the list this site published on December 30 (none on December 31;
    the record keeps a row of it only for some players until the next list completes it), read
    from the archive: its ratings as shown, ranks and statuses, in its order; today's
    estimate beside it is the year-end list of today's fit. The list of 2024 is the one the
    backfill reconstructed (the replay's December 31). Each says which."""
    from whr.publish.archive import read_list, scan
    from whr.publish.backfill import read_replay
    from whr.publish.layout import Channel, Layout

    site = site_of(year_ends)
    ids = read_data(site, "players")["id"]
    entries = {e.day: e for e in scan(Layout(year_ends), Channel("renju")).good}
    stood = read_list(entries[STOOD[1]])
    data = read_data(site, "list-2025-12-31")
    assert [ids[p] for p in data["p"]] == stood["player"].tolist()
    assert data["r"] == np.rint(stood["rating"]).astype(int).tolist()
    assert data["k"] == [0 if pd.isna(x) else int(x) for x in stood["rank"]]
    assert data["s"] == [("active", "inactive", "provisional").index(s) for s in stood["status"]]
    estimate = pd.read_parquet(support.entry_of(year_ends) / "year_end.parquet")
    estimate = estimate[estimate["list_date"] == dt.date(2025, 12, 31)].set_index("player")
    assert data["x"] == np.rint(estimate.loc[stood["player"], "rating"]).astype(int).tolist()
    assert data["x"] != data["r"]  # what the list said is not today's estimate
    html = visible_text((site / "years" / "2025.html").read_text(encoding="utf-8"))
    assert "as this site published them on 30 December 2025" in html
    _, record = read_replay(year_ends, Channel("renju"), STOOD[0])
    rebuilt = record[record["list_date"] == dt.date(2024, 12, 31)].set_index("player")
    data = read_data(site, "list-2024-12-31")
    players = [ids[p] for p in data["p"]]
    assert sorted(players) == sorted(rebuilt.index)
    assert data["r"] == rebuilt.loc[players, "rating"].astype(int).tolist()
    html = visible_text((site / "years" / "2024.html").read_text(encoding="utf-8"))
    assert "as the backfill reconstructed it from the games known then" in html
    index = visible_text((site / "years.html").read_text(encoding="utf-8"))
    assert "2025-12-31 published" in index and "2024-12-31 reconstructed" in index
