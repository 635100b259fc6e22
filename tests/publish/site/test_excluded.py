"""The games not rated (whr.publish.site.excluded): the page, its data and its search."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.publish import support
from tests.publish.site.pages import visible
from tests.publish.support import read_data, site_of
from whr.rules.reasons import REASONS


def test_games_not_rated_page_and_csv(published, small):
    site = site_of(published)
    exclusions = small.selection.exclusions
    assert len(exclusions) > 0
    html = (site / "excluded.html").read_text(encoding="utf-8")
    text = visible(site / "excluded.html")
    for reason, n in exclusions["reason"].value_counts().items():
        assert f" {REASONS[reason]} {reason} {n} " in text  # the words first, then the code
        assert f"<code>{reason.replace('_', '_<wbr>')}</code>" in html  # breaks after a _
    # every game in the page's data, with its players named as read
    data = read_data(site, "excluded")
    assert sorted(data["g"]) == sorted(exclusions["game_id"])
    games = small.data.games.set_index("game_id")
    names = small.data.players.set_index("player_id")["name"]
    for k, game in enumerate(data["g"]):
        for side, key in (("black", "b"), ("white", "w")):
            expected = games.at[game, side]
            if pd.isna(expected):
                assert data[key][k] == -1
            else:
                assert data["pl"]["i"][data[key][k]] == expected
                assert data["pl"]["n"][data[key][k]] == (names.get(expected) or expected)
    assert len(html) < 60_000  # the rows are data; the page holds the first ones only
    csv = pd.read_csv(site / "exclusions.csv", dtype=str, keep_default_na=False)
    assert sorted(csv["game_id"]) == sorted(exclusions["game_id"])
    assert list(csv.columns)[:2] == ["game_id", "tournament_id"]
    by_game = csv.set_index("game_id")
    for game in csv["game_id"]:
        assert by_game.at[game, "black"] == (
            "" if pd.isna(games.at[game, "black"]) else games.at[game, "black"]
        )


@pytest.mark.browser
def test_the_games_not_rated_are_searched_by_player_and_tournament(site, browser, published):
    data = support.read_data(site, "excluded")
    names, tournaments, pages = data["pl"]["n"], data["tn"]["n"], data["tn"]["p"]
    named = next(k for k in data["b"] if k >= 0)
    surname = names[named].split()[0]
    expected = sum(
        surname.lower() in " ".join(names[p] for p in (b, w) if p >= 0).lower()
        or surname.lower() in tournaments[t].lower()
        for b, w, t in zip(data["b"], data["w"], data["t"], strict=True)
    )
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site / "excluded.html").as_uri())
    page.wait_for_function("window.WHR && WHR.view")
    assert page.evaluate("WHR.view.rowsText().length") == len(data["g"])
    page.fill("#q", surname)
    page.wait_for_function(f"WHR.view.ids.length === {expected}")
    texts = page.evaluate("WHR.view.rowsText()")
    assert texts and all(surname in row[3] + row[4] + row[0] for row in texts)
    assert page.inner_text("#shown").startswith(f"{expected} of {len(data['g'])} games shown")
    # a tournament's page links its games not rated: #t=<its page>
    t = next(k for k, p in enumerate(pages) if p)
    page.goto((site / "excluded.html").as_uri() + f"#t={pages[t]}")
    page.reload()
    page.wait_for_function("window.WHR && WHR.view")
    assert page.evaluate("WHR.view.ids.length") == data["t"].count(t)
    assert errors == []
    page.close()


MUTED = "rgb(93, 103, 120)"  # style.css's --muted


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", "ru", "ja"])
def test_every_reason_leads_with_its_words_never_cut_its_code_muted_after(site, browser, language):
    """Issue 39, item 6: on a desktop screen every reason a game is not rated reads whole (it
    was cut with an ellipsis), its words first and its code after them, muted; in the table
    of reasons and in every game's row, in the reader's language."""
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.add_init_script(f"localStorage.setItem('whr.lang', '{language}')")
    page.goto((site / "excluded.html").as_uri())
    page.wait_for_function("window.WHR && WHR.view")
    cells = page.eval_on_selector_all(
        "#list tbody td.why, table.reasons tbody td:first-child",
        """cs => cs.map(c => [c.firstElementChild.tagName, c.lastElementChild.tagName,
            getComputedStyle(c.lastElementChild).color, c.scrollWidth <= c.clientWidth + 1,
            c.firstElementChild.textContent.trim().length])""",
    )
    assert len(cells) >= 10, cells
    for first, last, colour, whole, words in cells:
        assert (first, last) == ("SPAN", "CODE") and words > 3, cells
        assert colour == MUTED and whole, cells
    page.close()
