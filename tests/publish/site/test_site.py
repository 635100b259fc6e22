"""The site as a whole (whr.publish.site.write): links that resolve and nothing external, a
page for everything, names escaped everywhere, the game and the rules the pages state, the
arguments checked; every page type at phone and desktop size in Chromium (no sideways scroll,
axe finds nothing), hostile names shown as text, the skip link."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from urllib.parse import unquote, urlsplit

import pandas as pd
import pytest

import whr.lists
from tests.publish import support
from tests.publish.site.pages import (
    A4_LANDSCAPE_WIDTH,
    A4_WIDTH,
    DESKTOP,
    PHONE,
    SAME_TEMPLATE,
    Links,
    all_rows,
    axe_violations,
    check_and_close,
    new_page,
    open_,
    pages_of,
    served,
    settle,
    visible,
    with_axe,
)
from tests.publish.support import read_data, site_of
from whr.publish.site import i18n, page_names, write


def test_every_link_resolves_and_nothing_is_external(published):
    site = site_of(published)
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 50
    for page in pages:
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for url in parser.urls:
            parts = urlsplit(url)
            assert not parts.scheme and not parts.netloc, f"{page.name}: external {url}"
            if not parts.path:  # "#t=gy1": the same page
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.exists(), f"{page.relative_to(site)} links to missing {url}"
            # the about page links the archive of published lists beside the site
            assert target.is_relative_to(site.parent.resolve()), f"{page.name}: {url} leaves"
    for script in [*(site / "static").glob("*.js"), *(site / "data").glob("*.js")]:
        text = script.read_text()
        assert not re.search(r"\b(XMLHttpRequest|import\s*\()", text), script.name
        # one request: a player's data (p/<id>.json: a player page's relative data-json,
        # checked above, or the compare page's players), and only over http(s)
        assert len(re.findall(r"\bfetch\(", text)) == (script.name == "site.js"), script.name


def test_pages_for_every_list_player_country_and_tournament(published):
    snap = support.entry_of(published)
    site = site_of(published)
    ratings = pd.read_parquet(snap / "ratings.parquet")
    players = page_names(ratings["player"])
    for player in ratings["player"]:
        assert (site / "p" / f"{players[player]}.html").is_file(), player
    countries = page_names(ratings["country"].dropna())
    for country in ratings["country"].dropna().unique():
        assert (site / "countries" / f"{countries[country]}.html").is_file(), country
    games = pd.read_parquet(snap / "games.parquet")
    tournaments = pd.read_parquet(snap / "tournaments.parquet")
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    for tid in games["tournament_id"].unique():
        assert (site / "tournaments" / f"{names[tid]}.html").is_file(), tid
    assert len(list((site / "tournaments").iterdir())) == games["tournament_id"].nunique()
    year_end = pd.read_parquet(snap / "year_end.parquet")
    for day in year_end["list_date"].unique():
        assert (site / "years" / f"{day.year}.html").is_file()
    assert len(list((site / "years").iterdir())) == year_end["list_date"].nunique()  # one each
    for name in ("index", "gy1", "inactive", "provisional", "countries", "years", "players"):
        assert (site / f"{name}.html").is_file(), name
    for name in ("tournaments", "excluded", "top", "top_women", "about"):
        assert (site / f"{name}.html").is_file(), name
    for name in ("ratings.csv", "exclusions.csv", "players.json"):
        assert (site / name).is_file(), name


def test_names_are_escaped_everywhere(published):
    site = site_of(published)
    raw = [support.HOSTILE_NAME, '"Bob"', "<b>Sons</b>"]
    hits = 0
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for needle in raw:
            assert needle not in text, f"{needle!r} unescaped in {page.relative_to(site)}"
        hits += "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert hits >= 1  # the player's own page shows the name, as text (elsewhere: data)
    # the data the page script draws from holds the names exactly
    names = read_data(site, "players")["name"]
    assert support.HOSTILE_NAME in names and support.QUOTED_NAME in names


def test_pages_name_the_game_of_the_list(published, small, tmp_path):
    renju = visible(site_of(published) / "index.html")
    assert "Renju world rating list — 25 November 2026" in renju and "Gomoku" not in renju
    support.publish_inputs(tmp_path, small, category="gomoku")
    for page in ("index.html", "about.html"):
        text = visible(tmp_path / "gomoku" / page)
        assert "Gomoku rating" in text and "Renju rating" not in text, page


def test_pages_state_the_rules_the_list_was_computed_with(small, tmp_path):
    config = dataclasses.replace(
        small.selection.config, cutover=dt.date(2022, 1, 9), min_minutes=45
    )
    other = dataclasses.replace(
        small, selection=dataclasses.replace(small.selection, config=config)
    )
    snapshot = support.snapshot_of(other)
    assert snapshot.rules.record()["min_minutes"] == 45
    assert whr.lists.RuleNumbers.from_record(snapshot.rules.record()) == snapshot.rules
    write(tmp_path / "s", snapshot.view, {"parameters": {}})
    about = visible(tmp_path / "s" / "about.html")
    assert "since 2022-01-09" in about and "at least 45 minutes per player" in about
    assert "2021-08-08" not in about and "30 minutes" not in about
    # the bundled rules, as an entry published before the manifest recorded them says
    bundled = whr.lists.RuleNumbers.from_record(None)
    assert (bundled.cutover, bundled.min_minutes) == (dt.date(2021, 8, 8), 30.0)


def test_a_bad_base_url_is_refused_before_anything_is_written(small, tmp_path):
    bad_urls = (
        "rating.example.org",
        "ftp://example.org/",
        "https://x.org/?token=SECRET",
        'https://x/"',
        "https://user:SECRET@x.org/",
        "https:///nohost",
    )
    for bad in bad_urls:
        with pytest.raises(ValueError, match="base_url") as refused:
            support.publish_inputs(tmp_path, small, base_url=bad)
        assert "SECRET" not in str(refused.value)
    with pytest.raises(ValueError, match="base_url must be a str"):
        support.publish_inputs(tmp_path, small, base_url=1)
    assert not (tmp_path / "archive").exists()


def test_bad_arguments_are_named(small, tmp_path):
    view = support.snapshot_of(small).view
    with pytest.raises(ValueError, match="processes must be an int >= 1"):
        write(tmp_path / "s", view, {}, processes=0)
    with pytest.raises(TypeError, match="game_links must be a bool"):
        write(tmp_path / "s", view, {}, game_links="yes")
    with pytest.raises(TypeError, match="view must be a whr.lists.View"):
        write(tmp_path / "s", support.snapshot_of(small), {})
    assert not (tmp_path / "s").exists()


@pytest.mark.browser
@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_every_page_type_fits_the_screen_and_axe_finds_nothing(
    published, browser, artifacts, language
):
    """In every language, at phone and desktop size, every page type as a static host serves
    it (the player's data and the compared players fetched): no page scrolls sideways, nothing
    printed is wider than the paper (A4; landscape for a crosstable), axe finds no violation (also with a search that finds nobody, and on an empty tab), and a screenshot
    of each. The colours are checked in English at desktop size: they are the same on a phone
    and in every language, and so is the contrast a text needs (all of it is under 18 pt), on
    one page of each template (the others are the same page with other rows)."""
    site = site_of(published)
    root = served(site.parent) + site.name + "/"  # the archive's pages are beside the list's
    pages = with_the_archive(pages_of(published))
    pages["list-no-match"] = "index.html#q=no%20such%20player"
    pages["country-empty-tab"] = pages["country"] + "#t=provisional"
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        p = with_axe(new_page(browser, viewport))
        p.add_init_script(f"localStorage.setItem('whr.lang', '{language}')")
        for kind, path in pages.items():
            p.goto(root + path)
            settle(p)
            if p.locator("#record[data-json], #compare-chart").count():  # fetched, then drawn
                p.wait_for_selector("#record[data-drawn], #record .none, #compare-chart svg")
                settle(p)
            assert p.locator("html").get_attribute("lang") == i18n.LANGUAGES[language].html
            width = p.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{kind} ({path}) is {width} px wide at {size}"
            contrast = language == "en" and size == "desktop" and kind not in SAME_TEMPLATE
            found = axe_violations(p, contrast=contrast)
            assert found == [], f"{kind} ({path}) at {size} in {language}"
            shot = f"{kind}-{size}" + ("" if language == "en" else f"-{language}")
            p.screenshot(path=str(artifacts / f"{shot}.png"), full_page=size == "phone")
            if size == "desktop":  # and for print: nothing wider than the paper
                right, paper = printed_width(p, kind, viewport)
                assert right <= paper, f"{kind} ({path}) printed is {right} px wide in {language}"
        check_and_close(p)


@pytest.mark.browser
def test_without_script_every_page_type_reaches_its_content(published, browser):
    """Script off, at phone and desktop size, every page type: the menu, the content (a table's
    rows where the page has a table, a sentence saying what needs script where something does),
    no sideways scroll, nothing printed wider than the paper. The language is chosen by script,
    so a reader without it gets the English page in every language, marked lang=en."""
    site = site_of(published)
    root = served(site.parent) + site.name + "/"
    pages = with_the_archive(pages_of(published))
    needs_script = {
        "player": "#record > p:last-child",
        "compare": "#compare-needs",
        "whatif": "#whatif-needs",
    }
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(java_script_enabled=False, viewport=viewport)
        p = context.new_page()
        for kind, path in pages.items():
            p.goto(root + path)
            where = f"{kind} ({path}) at {size}"
            assert p.locator("html").get_attribute("lang") == "en", where
            assert p.locator("header nav a:visible").count() == 9, where
            assert len(p.inner_text("main").split()) >= 5, where
            if p.locator("main table").count():
                row = p.locator("main table tr:has(td)").first
                assert row.is_visible() and row.inner_text().strip(), where
            if kind in needs_script:
                assert "script" in p.inner_text(needs_script[kind]), where
            width = p.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{where} is {width} px wide"
            if size == "desktop":
                right, paper = printed_width(p, kind, viewport)
                assert right <= paper, f"{where} printed is {right} px wide"
        context.close()


def with_the_archive(pages: dict[str, str]) -> dict[str, str]:
    """``pages`` and the archive's two page types, as paths from the list's directory."""
    day = f"../archive/renju/{support.AS_OF.isoformat()}/index.html"
    return {**pages, "archive": "../archive.html", "archive-day": day}


def printed_width(p, kind: str, viewport: dict) -> tuple[int, int]:
    """The page laid out for print on A4 (landscape for a crosstable): the right edge of its
    widest part, and the paper's width; the page is then shown on screen again."""
    paper = A4_LANDSCAPE_WIDTH if kind == "tournament" else A4_WIDTH
    p.set_viewport_size({"width": paper, "height": 1000})
    p.emulate_media(media="print")
    right = p.evaluate(RIGHTMOST)
    p.emulate_media(media="screen")
    p.set_viewport_size(viewport)
    return right, paper


RIGHTMOST = """() => Math.max(document.documentElement.scrollWidth,
  ...Array.from(document.querySelectorAll("main table, main figure, main svg"),
                e => Math.ceil(e.getBoundingClientRect().right)))"""


@pytest.mark.browser
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


@pytest.mark.browser
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
