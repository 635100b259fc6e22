"""What a player's data and chart say the lists published (``p/<id>.json``,
whr.publish.site.player_data; issue 39): on the bundled sample published on five days, a backfill
after the first, every player's published series is, on every archived list's day, the rating
that list published (read from the archive, not from the record) and ends at today's list; no
published JSON repeats a key; the chart draws those steps, the lists the backfill reconstructed
dotted and said so."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import whr
from tests.publish import support
from tests.publish.site.pages import open_served
from tests.publish.site.pages import served as served_site
from whr.publish.archive import read_list, scan
from whr.publish.layout import Channel, Layout
from whr.publish.site import page_names

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample"
DAYS = [dt.date(2026, 10, 20), dt.date(2026, 10, 25), dt.date(2026, 11, 1),
        dt.date(2026, 11, 10), dt.date(2026, 11, 30)]  # fmt: skip
"""The sample's lists: tournaments end between each two, so ratings move; the backfill replays
the days up to the first."""


@pytest.fixture(scope="module")
def five_days(tmp_path_factory) -> Path:
    """The sample's renju list published on :data:`DAYS`, backfilled after the first."""
    out = tmp_path_factory.mktemp("five_days")
    data = whr.read_source(SAMPLE, as_of=DAYS[-1])
    support.publish_days(out, data, DAYS)
    return out


def _archived(out: Path) -> dict[dt.date, dict[str, float]]:
    """Each archived list's ratings by player, read from the archive."""
    entries = scan(Layout(out), Channel("renju")).good
    return {
        e.day: dict(zip(f["player"], f["rating"], strict=True))
        for e in entries
        for f in [read_list(e)]
    }


def test_every_players_published_series_is_what_each_archived_list_said(five_days):
    lists = _archived(five_days)
    assert sorted(lists) == DAYS
    site = support.site_of(five_days)
    today = lists[DAYS[-1]]
    pages = page_names(sorted(today))
    checked = rebuilt = 0
    for player, rating in today.items():
        data = support.strict_json((site / "p" / f"{pages[player]}.json").read_text("utf-8"))
        days, ratings, day = support.published_series(data)
        assert day == (DAYS[-1] - dt.date(1970, 1, 1)).days
        assert days == sorted(days) and days[-1] <= day, player
        assert abs(ratings[-1] - rating) <= 0.5, f"{player} ends at {ratings[-1]}, not {rating}"
        first = dt.date.fromisoformat(data["published_from"])
        rebuilt += days[0] < (first - dt.date(1970, 1, 1)).days
        for list_day, said in lists.items():
            if player not in said:
                continue
            n = (list_day - dt.date(1970, 1, 1)).days
            at = int(np.searchsorted(days, n, "right")) - 1
            assert at >= 0, f"{player}: no step on or before {list_day}"
            assert abs(ratings[at] - said[player]) <= 0.5, (player, list_day)
            checked += 1
    assert data["published_from"] == DAYS[0].isoformat()
    assert checked > 4 * len(today) and rebuilt > len(today) / 2  # most were on the backfill's


def test_no_published_json_repeats_a_key(five_days):
    """Every JSON file of the tree (the sites, the archive's manifests and indexes, every
    p/<id>.json) reads with a reader that refuses a repeated key."""
    files = sorted(five_days.rglob("*.json"))
    assert sum(1 for f in files if f.parent.name == "p") > 200
    for path in files:
        support.strict_json(path.read_text("utf-8"))
    with pytest.raises(ValueError, match="repeated"):
        support.strict_json('{"games": 3, "games": {}}')


@pytest.mark.browser
def test_the_chart_draws_the_published_steps_and_says_which_were_reconstructed(five_days, page):
    site = support.site_of(five_days)
    today = _archived(five_days)[DAYS[-1]]
    player = max(today, key=today.get)
    data = json.loads((site / "p" / f"{page_names([player])[player]}.json").read_text("utf-8"))
    days, ratings, day = support.published_series(data)
    open_served(page, site, f"p/{page_names([player])[player]}.html")
    drawn = page.evaluate(
        "() => { const s = document.querySelector('#record figure').chartData.series[1];"
        " return {t: s.t, r: s.r, now: s.now, from: s.fr}; }"
    )
    assert drawn["t"] == days and drawn["r"] == ratings
    assert drawn["now"][:2] == [day, ratings[-1]]  # held to today's list
    assert drawn["from"] == (DAYS[0] - dt.date(1970, 1, 1)).days
    assert page.locator("#record svg path.step.rebuilt").count() == 1
    assert page.locator("#record svg path.step:not(.rebuilt)").count() == 1
    caption = page.inner_text("#record figcaption")
    assert "reconstructed" in caption and "first this site published" in caption


def test_the_games_give_the_opponents_rating_at_the_time_and_todays_apart(five_days):
    """Each game's opponent rating is the opponent's on the list just before its tournament was
    first rated (the kept changes' rating before, as the head to head takes it); today's
    estimate of it that day is beside it (the rated games' ratings)."""
    site = support.site_of(five_days)
    entry = support.entry_of(five_days, DAYS[-1])
    kept = pd.read_parquet(entry / "tournament_changes.parquet")
    before = kept.set_index(["player", "tournament_id"])["rating_before"]
    games = pd.read_parquet(entry / "games.parquet")
    today = _archived(five_days)[DAYS[-1]]
    player = max(today, key=today.get)
    data = json.loads((site / "p" / f"{page_names([player])[player]}.json").read_text("utf-8"))
    played, tours = data["games"], data["tournaments"]
    then = estimate = 0
    for k, opponent in enumerate(played["opponent"]):
        tournament = tours["id"][played["tournament"][k]]
        said = before.get((opponent, tournament))
        want = None if said is None or pd.isna(said) else int(np.rint(said))
        assert played["opponent_rating"][k] == want, (opponent, tournament)
        mine = games[(games["tournament_id"] == tournament)
                     & (((games["black"] == player) & (games["white"] == opponent))
                        | ((games["white"] == player) & (games["black"] == opponent)))]  # fmt: skip
        side = np.where(mine["black"] == opponent, mine["black_rating"], mine["white_rating"])
        assert played["opponent_estimate"][k] in np.rint(side).astype(int).tolist()
        then += want is not None
        estimate += want is not None and want != played["opponent_estimate"][k]
    assert then > len(played["opponent"]) / 2 and estimate > 0


@pytest.mark.browser
def test_the_head_to_head_fits_a_phone_in_compact_rows(five_days, browser, artifacts):
    """The busiest player's head to head at 390 px: each row at most three lines (the newest
    tournament where they met, the others folded); unfolded on paper."""
    from tests.publish.site.pages import PHONE, check_and_close, new_page, printed

    site = support.site_of(five_days)
    today = _archived(five_days)[DAYS[-1]]
    player = max(today, key=today.get)
    p = new_page(browser, PHONE)
    open_served(p, site, f"p/{page_names([player])[player]}.html")
    heights = p.eval_on_selector_all(
        "#opponents tbody tr", "rows => rows.map(r => r.getBoundingClientRect().height)"
    )
    folded = p.locator("#opponents details").count()
    assert len(heights) > 20 and folded > 5
    assert max(heights) < 80, max(heights)
    p.screenshot(path=str(artifacts / "head-to-head-phone.png"), full_page=True)
    sheets = "\n".join(printed(p))
    more = p.eval_on_selector_all("#opponents details a", "as => as.map(a => a.textContent)")
    assert more and all(name in sheets for name in more[:5])  # unfolded on paper
    check_and_close(p)


@pytest.mark.browser
def test_the_compare_page_finds_players_by_name(five_days, page):
    site = support.site_of(five_days)
    today = _archived(five_days)[DAYS[-1]]
    first, second = sorted(today, key=today.get, reverse=True)[:2]
    players = support.read_data(site, "players")
    name = players["name"][players["id"].index(second)]
    page.goto(served_site(site) + f"compare.html#p={first}")
    page.wait_for_selector("#compare-chart svg[data-drawn]")
    assert page.locator("#compare-needs").is_hidden()
    page.fill("#compare-q", name.split()[0].lower())  # a part of the name, any case
    found = page.locator("#compare-found button", has_text=name)
    found.first.click()
    page.wait_for_function("() => location.hash.split(',').length === 2")
    assert page.evaluate("location.hash") == f"#p={first},{second}"
    page.wait_for_function(
        "() => document.querySelectorAll('#compare-chart .legend li').length === 2"
    )
    assert page.locator("#compare-chart path.step").count() >= 2
    # each name links to the player's page, beside this one (the site's root is the list's)
    links = page.eval_on_selector_all(
        "#compare-chosen a", "as => as.map(a => a.getAttribute('href'))"
    )
    assert links and all(h.startswith("p/") for h in links), links
    page.click(f"#compare-chosen button[data-id='{first}']")
    page.wait_for_function("id => location.hash === '#p=' + id", arg=second)
    page.wait_for_function(
        "() => document.querySelectorAll('#compare-chart .legend li').length === 1"
    )
