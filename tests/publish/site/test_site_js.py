"""The page script (static/site.js) in Chromium: the generic table (sorting from the keyboard,
only the rows on screen drawn, every row printed) and the rating charts."""

from __future__ import annotations

import re

import pytest

from tests.publish import support
from tests.publish.site.pages import (
    DESKTOP,
    PHONE,
    all_rows,
    check_and_close,
    new_page,
    on_screen,
    open_,
    open_served,
    printed,
    published_table,
    settle,
)
from tests.publish.support import site_of
from whr.publish.site import page_names


@pytest.mark.browser
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


@pytest.mark.browser
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


@pytest.mark.browser
def test_chart_has_date_labels_for_a_history_within_one_year(published, browser, artifacts):
    ratings = published_table(published, "ratings")
    history = published_table(published, "history")
    years = history.assign(y=[d.year for d in history["date"]]).groupby("player")["y"]
    within = years.nunique() == 1
    this_year = years.first() == support.AS_OF.year
    candidates = sorted(set(within[within & this_year].index) & set(ratings["player"]))
    assert candidates, "the fixture needs a player who played only this year"
    multi = history.loc[history["player"].isin(candidates)].groupby("player").size()
    player = multi.idxmax()  # several rating days if any
    site = site_of(published)
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        p = new_page(browser, viewport)
        open_served(p, site, f"p/{page_names([player])[player]}.html")
        labels = p.eval_on_selector_all("svg text.date", "t => t.map(x => x.textContent)")
        assert len(labels) >= 2, labels
        assert all(re.fullmatch(r"\d{4}-\d{2}", x) for x in labels), labels
        points = p.eval_on_selector_all("svg path.line:not(.later):not(.step)", "x => x.length")
        assert points == 1 == p.locator("svg path.line.step").count()
        p.screenshot(path=str(artifacts / f"player-one-year-{name}.png"))
        check_and_close(p)


@pytest.mark.browser
def test_a_single_day_point_is_off_the_axis_and_the_hover_gives_the_list_date(published, page):
    ratings = published_table(published, "ratings")
    history = published_table(published, "history")
    one_day = history.groupby("player").size()
    player = sorted(set(one_day[one_day == 1].index) & set(ratings["player"]))[0]
    site = site_of(published)
    open_served(page, site, f"p/{page_names([player])[player]}.html")
    cx = float(page.get_attribute("svg circle.point", "cx"))
    axis = float(page.eval_on_selector_all("svg line.axis", "l => l[1].getAttribute('x1')"))
    assert cx > axis + 5  # not on the vertical axis
    box = page.locator("svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] - 15, box["y"] + box["height"] / 2)
    tip = page.text_content("svg text.tip")
    assert f": {support.AS_OF.isoformat()} " in tip and tip.endswith("(list date)"), tip


@pytest.mark.browser
def test_the_chart_marks_each_day_played(published, page):
    ratings = published_table(published, "ratings")
    history = published_table(published, "history")
    days = history.loc[history["player"].isin(ratings["player"])].groupby("player").size()
    player = days.idxmax()
    open_served(page, support.site_of(published), f"p/{page_names([player])[player]}.html")
    page.wait_for_selector("svg[data-drawn]")
    assert page.locator("svg circle.day").count() == days[player] > 1
    # one dot per rating day, at the line's vertices
    line = page.get_attribute("svg path.line:not(.later)", "d")
    vertices = [v.split(",") for v in line[1:].split("L")]
    dots = page.eval_on_selector_all(
        "svg circle.day", "cs => cs.map(c => [c.getAttribute('cx'), c.getAttribute('cy')])"
    )
    assert [[float(x) for x in v] for v in vertices] == [[float(x) for x in d] for d in dots]


THIRTY_YEARS = """() => {
  const fig = document.createElement('figure'), F = WHR_DECLARATION.F, s = {}, c = {};
  fig.className = 'chart';
  fig.innerHTML = '<svg></svg>';
  document.querySelector('main').prepend(fig);
  s[F.series.day] = []; s[F.series.rating] = [];
  for (let d = 9496; d <= 20787; d += 90) { s[F.series.day].push(d); s[F.series.rating].push(2000 + d % 250); }
  c[F.chart.series] = [s];
  fig.chartData = c;
  WHR_CHARTS.setup(fig);
  const box = fig.querySelector('svg').getBoundingClientRect();
  return Array.from(fig.querySelectorAll('text.date'), t => {
    const r = t.getBoundingClientRect();
    return [t.textContent, r.left - box.left, r.right - box.left, box.width];
  });
}"""
"""A chart of 1996-01-01 to 2026-11-30 drawn by the page script: its date labels and their
boxes (left, right) in the chart's, with the chart's width."""


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", "zh", "ru", "ja", "ko"])
def test_a_thirty_year_chart_labels_each_date_once_and_enough_of_them(published, browser, language):
    """On a phone a 30-year history gets a label every few years (it had two: 2000, 2020), each
    date once, none over another, all inside the chart; on a desktop more."""
    for viewport, least in ((PHONE, 5), (DESKTOP, 10)):
        p = new_page(browser, viewport)
        p.add_init_script(
            f"try {{ localStorage.setItem('whr.lang', '{language}'); }} catch (e) {{}}"
        )
        open_(p, site_of(published), "top.html")
        labels = p.evaluate(THIRTY_YEARS)
        texts = [x[0] for x in labels]
        assert len(texts) == len(set(texts)) >= least, texts
        assert all(re.fullmatch(r"\d{4}", x) for x in texts), texts
        years = [int(x) for x in texts]
        assert (
            years == sorted(years)
            and len({b - a for a, b in zip(years, years[1:], strict=False)}) == 1
        )
        for (_, _, right, _), (_, left, _, _) in zip(labels, labels[1:], strict=False):
            assert right + 4 <= left, labels  # apart
        assert all(left >= 0 and right <= width for _, left, right, width in labels), labels
        check_and_close(p)
