"""The generated site in a real headless Chromium (Debian's /usr/bin/chromium via Playwright).

Screenshots go to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest
import support

import whr.publish.site as site_module

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
D = support.AS_OF


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail("Debian's chromium is not installed: run tests/bootstrap.sh")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser):
    """A page that records dialogs, script errors and every request that is not a local file."""
    p = browser.new_page(viewport={"width": 1200, "height": 900})
    p.events = {"dialogs": [], "errors": [], "remote": []}
    p.on("dialog", lambda d: (p.events["dialogs"].append(d.message), d.dismiss()))
    p.on("pageerror", lambda e: p.events["errors"].append(str(e)))
    p.on(
        "request",
        lambda r: None if r.url.startswith("file://") else p.events["remote"].append(r.url),
    )
    yield p
    assert p.events["dialogs"] == [], "a script ran from page content"
    assert p.events["errors"] == []
    assert p.events["remote"] == [], "the site made a network request"
    p.close()


def snapshot(published: Path) -> Path:
    return support.entry_of(published)


def visible_rows(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#list tbody tr:not([hidden])",
        "rows => rows.map(r => Array.from(r.cells, c => c.textContent))",
    )


def test_home_page_lists_active_players_and_search_filters(published, page, artifacts):
    ratings = pd.read_parquet(snapshot(published) / "ratings.parquet")
    active = ratings.loc[ratings["status"] == "active"]
    page.goto((support.site_of(published) / "index.html").as_uri())
    rows = visible_rows(page)
    assert len(rows) == len(active)
    assert [r[1] for r in rows] == active["name"].tolist()  # in rank order
    assert [int(r[0]) for r in rows] == active["rank"].tolist()
    page.screenshot(path=str(artifacts / "home.png"))

    query = "surname1"  # case-insensitive substring of the names
    page.fill("#search", query)
    expected = [n for n in active["name"] if query in n.lower()]
    assert 0 < len(expected) < len(active)
    assert [r[1] for r in visible_rows(page)] == expected
    assert page.inner_text("#shown") == f"{len(expected)} of {len(active)} shown"
    page.screenshot(path=str(artifacts / "home-search.png"))


def test_country_filter(published, page, artifacts):
    ratings = pd.read_parquet(snapshot(published) / "ratings.parquet")
    active = ratings.loc[ratings["status"] == "active"]
    country = active["country"].value_counts().index[1]
    page.goto((support.site_of(published) / "index.html").as_uri())
    page.select_option("#country", country)
    rows = visible_rows(page)
    assert [r[1] for r in rows] == active.loc[active["country"] == country, "name"].tolist()
    assert {r[7] for r in rows} == {country}
    page.screenshot(path=str(artifacts / "home-country.png"))
    page.select_option("#country", "")
    assert len(visible_rows(page)) == len(active)


def test_player_page_draws_its_chart(published, page, artifacts):
    ratings = pd.read_parquet(snapshot(published) / "ratings.parquet")
    history = pd.read_parquet(snapshot(published) / "history.parquet")
    player = ratings.loc[ratings["status"] == "active", "player"].iloc[0]
    days = int((history["player"] == player).sum())
    page.goto((support.site_of(published) / "p" / f"{site_module.slug(player)}.html").as_uri())
    page.wait_for_selector("svg[data-drawn] path.line:not(.later)")
    line = page.get_attribute("svg path.line:not(.later)", "d")
    band = page.get_attribute("svg path.band:not(.later)", "d")
    assert line.count("L") == days - 1  # one vertex per rating day
    assert band.count("L") == 2 * days - 1  # upper edge, then lower edge back
    box = page.locator("svg path.band:not(.later)").bounding_box()
    assert box["width"] > 100 and box["height"] > 5
    page.screenshot(path=str(artifacts / "player.png"), full_page=True)
    # an inactive player's rating is carried, dashed, from the last game to the list date
    inactive = ratings.loc[ratings["status"] == "inactive", "player"].iloc[0]
    page.goto((support.site_of(published) / "p" / f"{site_module.slug(inactive)}.html").as_uri())
    page.wait_for_selector("svg[data-drawn] path.line.later", state="attached")
    assert page.locator("svg path.band.later").count() == 1
    page.screenshot(path=str(artifacts / "player-inactive.png"))


def test_hostile_names_show_as_text(published, small, page, artifacts):
    players = small.data.players
    hostile = players.loc[players["name"] == support.HOSTILE_NAME, "player_id"].iloc[0]
    page.goto((support.site_of(published) / "p" / f"{site_module.slug(hostile)}.html").as_uri())
    assert page.inner_text("h1").startswith(support.HOSTILE_NAME)
    assert page.title().startswith(support.HOSTILE_NAME)
    page.screenshot(path=str(artifacts / "player-hostile.png"))
    quoted = players.loc[players["name"] == support.QUOTED_NAME, "player_id"].iloc[0]
    page.goto((support.site_of(published) / "p" / f"{site_module.slug(quoted)}.html").as_uri())
    assert page.inner_text("h1").startswith(support.QUOTED_NAME)
    # and in the lists, where the search finds them as text
    ratings = pd.read_parquet(snapshot(published) / "ratings.parquet").set_index("player")
    for player, name in ((hostile, support.HOSTILE_NAME), (quoted, support.QUOTED_NAME)):
        status = ratings.loc[player, "status"]
        page.goto(
            (
                support.site_of(published)
                / ("index.html" if status == "active" else f"{status}.html")
            ).as_uri()
        )
        page.fill("#search", name.split(" ")[0])
        assert name in [r[1] for r in visible_rows(page)]


def test_top_and_tournament_pages_render(published, page, artifacts):
    site = support.site_of(published)
    page.goto((site / "top.html").as_uri())
    page.wait_for_selector("svg[data-drawn] path.line")
    assert page.locator("svg path.line").count() >= 1
    page.screenshot(path=str(artifacts / "top.png"), full_page=True)
    page.goto((site / "tournaments.html").as_uri())
    n = page.locator("#list tbody tr").count()
    games = pd.read_parquet(snapshot(published) / "games.parquet")
    assert n == games["tournament_id"].nunique()
    page.click("#list tbody tr:first-child a")
    assert page.locator("table.pairings tbody tr").count() > 0
    page.screenshot(path=str(artifacts / "tournament.png"))


def test_players_index_sorts_by_column_and_searches(published, page, artifacts):
    site = support.site_of(published)
    ratings = pd.read_parquet(snapshot(published) / "ratings.parquet")
    page.goto((site / "players.html").as_uri())
    rows = visible_rows(page)
    assert len(rows) == len(ratings)
    ids = [r[0] for r in rows]
    assert "000001" in ids and support.ODD_ID in ids  # ids shown as they are

    page.click("#list thead th:nth-child(3)")  # Rating: largest first
    shown = [float(r[2]) for r in visible_rows(page)]
    expected = sorted((round(x) for x in ratings["rating"]), reverse=True)
    assert shown == expected
    assert page.get_attribute("#list thead th:nth-child(3)", "aria-sort") == "descending"
    page.screenshot(path=str(artifacts / "players-by-rating.png"))
    page.click("#list thead th:nth-child(3)")  # again: smallest first
    assert [float(r[2]) for r in visible_rows(page)] == expected[::-1]

    page.fill("#search", "surname1")
    visible = visible_rows(page)
    names = [r[1] for r in visible]
    assert sorted(names) == sorted(n for n in ratings["name"] if "surname1" in n.lower())
    assert 0 < len(names) < len(ratings)
    shown = [float(r[2]) for r in visible]
    assert shown == sorted(shown)  # the filter keeps the sort
    page.click("#list thead th:nth-child(1)")  # ID: as text, since one id is not a number
    assert [r[0] for r in visible_rows(page)] == sorted(
        p
        for p, n in zip(ratings["player"], ratings["name"], strict=True)
        if "surname1" in n.lower()
    )
    page.screenshot(path=str(artifacts / "players-search.png"))
