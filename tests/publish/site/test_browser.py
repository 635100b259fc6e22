"""The generated site in a real headless Chromium (Debian's /usr/bin/chromium via Playwright).

Screenshots of every page type at phone (390x844) and desktop (1366x900) size go to
tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from axe_playwright_python.sync_playwright import Axe
from pypdf import PdfReader

from tests.publish import support
from whr.publish.site import page_names

pytestmark = pytest.mark.browser
MARK = support.MARK

D = support.AS_OF
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def new_page(browser, viewport=DESKTOP):
    """A page that records dialogs, script errors and every request that is not a local file."""
    p = browser.new_page(viewport=viewport)
    p.events = {"dialogs": [], "errors": [], "remote": []}
    p.on("dialog", lambda d: (p.events["dialogs"].append(d.message), d.dismiss()))
    p.on("pageerror", lambda e: p.events["errors"].append(str(e)))
    p.on(
        "request",
        lambda r: None if r.url.startswith("file://") else p.events["remote"].append(r.url),
    )
    return p


def check_and_close(p) -> None:
    assert p.events["dialogs"] == [], "a script ran from page content"
    assert p.events["errors"] == []
    assert p.events["remote"] == [], "the site made a network request"
    p.close()


@pytest.fixture()
def page(browser):
    p = new_page(browser)
    yield p
    check_and_close(p)


def site_of(published: Path) -> Path:
    return support.site_of(published)


def settle(page) -> None:
    """Wait until the page script has run and the next frame is drawn."""
    page.wait_for_load_state("load")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r)))")


def open_(page, site: Path, path: str) -> None:
    path, _, fragment = path.partition("#")
    page.goto((site / path).as_uri() + (f"#{fragment}" if fragment else ""))
    settle(page)


def all_rows(page) -> list[list[str]]:
    """Every row of the drawn table, as the page script formats it (the screen shows a window)."""
    return page.evaluate("() => WHR.view.rowsText()")


def on_screen(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#list tbody tr[aria-rowindex]",
        "rows => rows.map(r => Array.from(r.cells, c => c.textContent))",
    )


def printed(page) -> list[str]:
    """The page printed to PDF by Chromium (A4, as the stylesheet's @page says): each sheet's text."""
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    return [sheet.extract_text() for sheet in PdfReader(io.BytesIO(pdf)).pages]


def published_table(published: Path, name: str) -> pd.DataFrame:
    return pd.read_parquet(support.entry_of(published) / f"{name}.parquet")


def pages_of(published: Path) -> dict[str, str]:
    """One path of each page type."""
    ratings = published_table(published, "ratings")
    games = published_table(published, "games")
    tournaments = published_table(published, "tournaments")
    year = published_table(published, "year_end")["list_date"].max().year
    players = page_names(ratings["player"])
    countries = page_names(ratings["country"].dropna())
    t_names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    biggest = games["tournament_id"].value_counts().index[0]
    busiest = ratings.sort_values("games").iloc[-1]["player"]
    return {
        "list": "index.html",
        "list-gy1": "gy1.html",
        "list-inactive": "inactive.html",
        "list-provisional": "provisional.html",
        "year-end": f"years/{year}.html",
        "years": "years.html",
        "countries": "countries.html",
        "country": f"countries/{countries[ratings['country'].value_counts().index[0]]}.html",
        "players": "players.html",
        "player": f"p/{players[busiest]}.html",
        "tournaments": "tournaments.html",
        "tournament": f"tournaments/{t_names[biggest]}.html",
        "excluded": "excluded.html",
        "top": "top.html",
        "top-women": "top_women.html",
        "about": "about.html",
    }


AXE = Axe()


def axe_violations(page, contrast: bool = True) -> list[str]:
    """axe-core's violations on the page as shown (every rule axe runs by default: WCAG 2 A
    and AA, and its best practices), one line each: the rule and the elements. Without
    ``contrast``, all but the colour contrast (two thirds of axe's time)."""
    options: dict = {"resultTypes": ["violations"]}
    if not contrast:
        options["rules"] = {"color-contrast": {"enabled": False}}
    found = AXE.run(page, options=options).response["violations"]
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}" for v in found]


# page types drawn by the template of another (the list's), with other rows
SAME_TEMPLATE = {"list-gy1", "list-inactive", "list-provisional", "year-end", "top-women"}


def test_every_page_type_fits_the_screen_and_axe_finds_nothing(published, browser, artifacts):
    """At phone and desktop size: no page scrolls sideways, axe finds no violation (also with
    a search that finds nobody, and on an empty tab), and a screenshot of each. The colours
    are checked at desktop size: they are the same on a phone, and so is the contrast a text
    needs (all of it is under 18 pt), on one page of each template (the others are the same
    page with other rows)."""
    site = site_of(published)
    pages = pages_of(published)
    pages["list-no-match"] = "index.html#q=no%20such%20player"
    pages["country-empty-tab"] = pages["country"] + "#t=provisional"
    pages["archive"] = "../archive.html"
    pages["archive-day"] = f"../archive/renju/{D.isoformat()}/index.html"
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        p = new_page(browser, viewport)
        for kind, path in pages.items():
            open_(p, site, path)
            width = p.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{kind} ({path}) is {width} px wide at {size}"
            found = axe_violations(p, contrast=size == "desktop" and kind not in SAME_TEMPLATE)
            assert found == [], f"{kind} ({path}) at {size}"
            p.screenshot(path=str(artifacts / f"{kind}-{size}.png"), full_page=size == "phone")
        check_and_close(p)


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


def test_headings_sort_from_the_keyboard_with_the_natural_first_direction(published, page):
    ratings = published_table(published, "ratings")
    active = ratings.loc[ratings["status"] == "active"]
    site = site_of(published)
    open_(page, site, "players.html")
    rating = page.locator("#list thead th", has_text="Rating")
    rating.locator("button").focus()
    page.keyboard.press("Space")
    settle(page)
    assert rating.get_attribute("aria-sort") == "descending"  # best first
    shown = [int(r[2]) for r in all_rows(page)]
    assert shown == sorted((int(f"{x:.0f}") for x in ratings["rating"]), reverse=True)
    page.keyboard.press("Enter")
    settle(page)
    assert rating.get_attribute("aria-sort") == "ascending"
    rank = page.locator("#list thead th", has_text="Rank")
    rank.locator("button").focus()
    page.keyboard.press("Enter")
    settle(page)
    assert rank.get_attribute("aria-sort") == "ascending"  # No. 1 first
    ranks = [r[5] for r in all_rows(page)]
    assert ranks[: len(active)] == [str(int(x)) for x in sorted(active["rank"])]
    assert set(ranks[len(active) :]) == {""}  # unranked players last
    # a heading looks sortable: a button with a mark
    mark = page.evaluate(
        "getComputedStyle(document.querySelector('#list th button'), '::after').content"
    )
    assert mark not in ("", "none")


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
        assert page.locator("#pairings table.pairings tbody tr").count() == n, tid
    page.screenshot(path=str(artifacts / "tournament-desktop-top.png"))


def test_namesakes_are_told_apart_in_standings_pairings_and_game_lists(published, small, page):
    site = site_of(published)
    first = small.selection.rated.iloc[0]
    games = published_table(published, "games")
    tournaments = published_table(published, "tournaments")
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    open_(page, site, f"tournaments/{names[first['tournament_id']]}.html")
    standing = page.eval_on_selector_all(
        "#cross tbody td:nth-child(3)", "c => c.map(x => x.textContent)"
    )
    twins = [s for s in standing if s.startswith(support.NAMESAKE)]
    assert len(twins) == 2 and twins[0] != twins[1]
    assert first["black"] in " ".join(twins) and first["white"] in " ".join(twins)
    paired = page.eval_on_selector_all("#pairings td.pl", "c => c.map(x => x.textContent)")
    assert set(twins) <= set(paired)
    # the game list of one of them names the other with the label
    players = page_names([first["black"], first["white"]])
    open_(page, site, f"p/{players[first['black']]}.html")
    assert page.inner_text("h1") == support.NAMESAKE
    opponents = page.eval_on_selector_all("#games td.op", "c => c.map(x => x.textContent)")
    assert any(o.startswith(support.NAMESAKE) and first["white"] in o for o in opponents)


def test_player_page_draws_chart_tournaments_and_games(published, page, artifacts):
    ratings = published_table(published, "ratings")
    history = published_table(published, "history")
    games = published_table(published, "games")
    player = ratings.loc[ratings["status"] == "active", "player"].iloc[0]
    days = int((history["player"] == player).sum())
    site = site_of(published)
    open_(page, site, f"p/{page_names([player])[player]}.html")
    page.wait_for_selector("svg[data-drawn] path.line:not(.later)")
    line = page.get_attribute("svg path.line:not(.later)", "d")
    band = page.get_attribute("svg path.band:not(.later)", "d")
    assert line.count("L") == days - 1  # one vertex per rating day
    assert band.count("L") == 2 * days - 1  # upper edge, then lower edge back
    played = int(((games["black"] == player) | (games["white"] == player)).sum())
    assert page.locator("#games tbody tr:not(.t)").count() == played
    tournaments = games.loc[(games["black"] == player) | (games["white"] == player)]
    assert page.locator("#events tbody tr").count() == tournaments["tournament_id"].nunique()
    assert page.locator("#games tbody tr.t").count() == tournaments["tournament_id"].nunique()
    page.screenshot(path=str(artifacts / "player-full-desktop.png"), full_page=True)


def test_chart_has_date_labels_for_a_history_within_one_year(published, browser, artifacts):
    ratings = published_table(published, "ratings")
    history = published_table(published, "history")
    years = history.assign(y=[d.year for d in history["date"]]).groupby("player")["y"]
    within = years.nunique() == 1
    this_year = years.first() == D.year
    candidates = sorted(set(within[within & this_year].index) & set(ratings["player"]))
    assert candidates, "the fixture needs a player who played only this year"
    multi = history.loc[history["player"].isin(candidates)].groupby("player").size()
    player = multi.idxmax()  # several rating days if any
    site = site_of(published)
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        p = new_page(browser, viewport)
        open_(p, site, f"p/{page_names([player])[player]}.html")
        labels = p.eval_on_selector_all("svg text.date", "t => t.map(x => x.textContent)")
        assert len(labels) >= 2, labels
        assert all(re.fullmatch(r"\d{4}-\d{2}", x) for x in labels), labels
        points = p.eval_on_selector_all("svg path.line:not(.later)", "x => x.length")
        assert points == 1
        p.screenshot(path=str(artifacts / f"player-one-year-{name}.png"))
        check_and_close(p)


def test_a_single_day_point_is_off_the_axis_and_the_hover_gives_the_list_date(published, page):
    ratings = published_table(published, "ratings")
    history = published_table(published, "history")
    one_day = history.groupby("player").size()
    player = sorted(set(one_day[one_day == 1].index) & set(ratings["player"]))[0]
    site = site_of(published)
    open_(page, site, f"p/{page_names([player])[player]}.html")
    cx = float(page.get_attribute("svg circle.point", "cx"))
    axis = float(page.eval_on_selector_all("svg line.axis", "l => l[1].getAttribute('x1')"))
    assert cx > axis + 5  # not on the vertical axis
    box = page.locator("svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] - 15, box["y"] + box["height"] / 2)
    tip = page.text_content("svg text.tip")
    assert tip.startswith(f"{D.isoformat()} ") and tip.endswith("(list date)")


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


def test_women_are_marked_not_by_colour_alone(published, page):
    ratings = published_table(published, "ratings")
    woman = ratings.loc[ratings["female"] & (ratings["status"] == "active"), "name"].iloc[0]
    site = site_of(published)
    open_(page, site, "index.html")
    link = page.locator("#list a.f", has_text=woman).first
    mark = link.evaluate("a => getComputedStyle(a, '::after').content")
    assert "\u2640" in mark
    assert "a woman" in page.inner_text(".legend")


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


def test_hostile_names_show_as_text(published, small, page):
    players = small.data.players
    site = site_of(published)
    for name in (support.HOSTILE_NAME, support.QUOTED_NAME):
        player = players.loc[players["name"] == name, "player_id"].iloc[0]
        open_(page, site, f"p/{page_names([player])[player]}.html")
        assert page.inner_text("h1").startswith(name)
        assert page.title().startswith(name)
    open_(page, site, "players.html")
    page.fill("#q", "script")
    settle(page)
    assert support.HOSTILE_NAME in [r[1] for r in all_rows(page)]


def test_a_long_index_draws_only_the_rows_on_screen(browser, tmp_path, artifacts):
    inp = support.inputs(8000, seed=3)
    support.publish_inputs(tmp_path, inp)
    site = support.site_of(tmp_path)
    ids = support.read_data(site, "players")["id"]
    assert len(ids) > 300
    p = new_page(browser, PHONE)
    open_(p, site, "players.html")
    drawn = on_screen(p)
    assert len(drawn) < 200 and [r[0] for r in drawn] == ids[: len(drawn)]
    p.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    settle(p)
    assert on_screen(p)[-1][0] == ids[-1]
    assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    p.screenshot(path=str(artifacts / "players-long-phone.png"))
    # printed, every row (not the rows on screen and blank pages), on pages in proportion
    sheets = printed(p)
    lines = [line.split(" ", 1)[0] for sheet in sheets for line in sheet.splitlines()]
    assert [x for x in lines if x in set(ids)] == ids
    rows_per_sheet = len(ids) / len(sheets)
    assert 40 <= rows_per_sheet <= 80, (len(ids), len(sheets))
    assert len(on_screen(p)) < 200  # the screen is a window again
    check_and_close(p)


def test_a_player_page_links_exactly_the_renjunet_games(small, tmp_path, page):
    rated = small.selection.rated
    ids = rated["game_id"].astype(str)
    from_renjunet = ids.str[-1].isin(list("02468"))  # half the games, by hand
    source = np.where(from_renjunet, "renjunet_v10_20261130.rif", "additional.csv")
    selection = dataclasses.replace(small.selection, rated=rated.assign(source=source))
    support.publish_inputs(tmp_path, small, selection=selection, game_links=True)
    player = rated["black"].value_counts().index[0]
    mine = rated.loc[(rated["black"] == player) | (rated["white"] == player)]
    expected = sorted(mine.loc[from_renjunet[mine.index], "game_id"].astype(str))
    assert 0 < len(expected) < len(mine)
    open_(page, support.site_of(tmp_path), f"p/{page_names([player])[player]}.html")
    page.wait_for_selector("#games tbody tr")
    hrefs = page.eval_on_selector_all("#games td a[href^=https]", "a => a.map(x => x.href)")
    assert sorted(h.rstrip("/").rsplit("/", 1)[1] for h in hrefs) == expected
    assert page.locator("#games tbody tr:not(.t)").count() == len(mine)
