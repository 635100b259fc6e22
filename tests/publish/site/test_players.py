"""The players (whr.publish.site.players): the index and its data, a player's page (facts, the
change told once and adding up as shown, tournaments and games), in files and in Chromium."""

from __future__ import annotations

import json
import re
from html import unescape

import pandas as pd
import pytest

from tests.publish import support
from tests.publish.site.pages import (
    DESKTOP,
    MARK,
    PHONE,
    all_rows,
    check_and_close,
    in_box,
    new_page,
    open_,
    open_served,
    published_table,
    served,
    shown,
)
from tests.publish.support import ODD_ID, read_data, site_of
from whr.publish.site import page_names


def test_players_index_and_json_keep_ids_as_strings(published):
    snap = support.entry_of(published)
    ratings = pd.read_parquet(snap / "ratings.parquet").set_index("player")
    data = json.loads((site_of(published) / "players.json").read_text(encoding="utf-8"))
    assert all(set(o) == {"id", "rank", "rating", "status"} for o in data)
    assert all(isinstance(o["id"], str) for o in data)
    ids = [o["id"] for o in data]
    assert "000001" in ids and ODD_ID in ids  # leading zeros kept, odd ids as they are
    assert sorted(ids) == sorted(ratings.index)
    numeric = [i for i in ids if i.isdigit()]
    assert ids == sorted(numeric, key=int) + sorted(set(ids) - set(numeric))
    for o in data:
        row = ratings.loc[o["id"]]
        assert o["status"] == row["status"]
        assert o["rank"] == (None if pd.isna(row["rank"]) else int(row["rank"]))
        assert abs(o["rating"] - row["rating"]) <= 0.005
    assert read_data(site_of(published), "players")["id"] == ids  # the index page's order
    cities = set(read_data(site_of(published), "players")["ci"])
    assert "?" not in cities and "" in cities and "City1" in cities  # "?" means not known


def test_the_split_of_a_change_is_said_in_plain_words(changed):
    site, snapshot = changed
    ratings = snapshot.tables.ratings
    pages = page_names(ratings["player"])
    said = {"both": 0, "others": 0}
    for p in ratings.loc[ratings["rating_change"].notna()].itertuples():
        html = unescape((site / "p" / f"{pages[p.player]}.html").read_text(encoding="utf-8"))
        sentence = re.findall(r"<p class=change>(.*?)</p>", html)
        delta = shown(p.rating, p.rating_change)[1]
        if delta == 0:  # nothing said about no change
            assert sentence == [], p.player
            continue
        (text,) = [re.sub(r"<[^>]+>", "", x) for x in sentence]  # (a message: its element)
        own = round(p.change_own_games)
        if own == 0:
            said["others"] += 1
            assert "because other players' new results changed the estimate of the past" in text
            assert ("has no new games" in text) == (p.change_own_games == 0)
            assert re.search(r"[+−]\d", text) is None, text  # no parts to add up
        elif own == delta:
            assert text == "The change is all from the player's own new games."
        else:  # the two parts as shown add up to the change as shown
            said["both"] += 1
            parts = re.fullmatch(
                r"Of the change, ([+−]\d+) came from the player's own new games and ([+−]\d+) "
                r"because other players' new results changed the estimate of the past\.",
                text,
            )
            assert parts, text
            a, b = (int(x.replace("−", "-")) for x in parts.groups())
            assert a == own and a + b == delta, p.player
    assert said["both"] and said["others"]  # the fixture has both kinds


def test_player_data_holds_each_players_tournaments_and_games(published):
    """p/<id>.json, which the page draws: every game of the player, by tournament (newest
    first), the score of each the points of its games, the opponents others."""
    snap = support.entry_of(published)
    site = site_of(published)
    games = pd.read_parquet(snap / "games.parquet")
    players = read_data(site, "players")
    pages = page_names(players["id"])
    t_pages = page_names([*games["tournament_id"]])
    for player in players["id"]:
        html = (site / "p" / f"{pages[player]}.html").read_text(encoding="utf-8")
        assert "application/json" not in html  # the page does not carry its data twice
        assert f'data-json="{pages[player]}.json"' in html
        data = json.loads((site / "p" / f"{pages[player]}.json").read_text(encoding="utf-8"))
        tours, played = data["tournaments"], data["games"]
        mine = games.loc[(games["black"] == player) | (games["white"] == player)]
        assert len(played["opponent"]) == len(mine), player
        assert len({len(column) for column in played.values()}) == 1
        assert sorted(t_pages[t] for t in tours["id"]) == sorted(
            t_pages[t] for t in mine["tournament_id"].unique()
        ), player
        assert tours["last_day"] == sorted(tours["last_day"], reverse=True), player
        assert sorted(set(played["tournament"])) == list(range(len(tours["id"]))), player
        for k, score in enumerate(tours["score"]):  # the score is the games' points
            points = [
                s for t, s in zip(played["tournament"], played["score"], strict=True) if t == k
            ]
            assert score == sum(points) and tours["games"][k] == len(points), player
        assert player not in played["opponent"], player
        w, d, lost = (sum(data["opponents"][c]) for c in ("wins", "draws", "losses"))
        assert (w, d, lost) == (data["wins"], data["draws"], data["losses"]), player


@pytest.mark.browser
def test_player_page_draws_chart_tournaments_and_games(published, page, artifacts):
    ratings = published_table(published, "ratings")
    history = published_table(published, "history")
    games = published_table(published, "games")
    player = ratings.loc[ratings["status"] == "active", "player"].iloc[0]
    days = int((history["player"] == player).sum())
    site = site_of(published)
    open_(page, site, f"p/{page_names([player])[player]}.html")  # from a file: its own rows
    assert page.locator("#record figure").count() == 0
    assert page.locator("#record table tbody tr").count() > 0
    open_served(page, site, f"p/{page_names([player])[player]}.html")
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


@pytest.mark.browser
def test_a_player_page_links_exactly_the_renjunet_games(small, tmp_path, page):
    rated = support.publish_half_from_renjunet(tmp_path, small)
    from_renjunet = rated["source"].str.startswith("renjunet_")
    player = rated["black"].value_counts().index[0]
    mine = rated.loc[(rated["black"] == player) | (rated["white"] == player)]
    expected = sorted(mine.loc[from_renjunet[mine.index], "game_id"].astype(str))
    assert 0 < len(expected) < len(mine)
    open_served(page, support.site_of(tmp_path), f"p/{page_names([player])[player]}.html")
    page.wait_for_selector("#games tbody tr")
    hrefs = page.eval_on_selector_all("#games td a[href^=https]", "a => a.map(x => x.href)")
    assert sorted(h.rstrip("/").rsplit("/", 1)[1] for h in hrefs) == expected
    assert page.locator("#games tbody tr:not(.t)").count() == len(mine)


def number(text: str) -> int:
    return int(text.strip().replace("\u2212", "-"))


def story(page) -> dict:
    """The player page's numbers as shown: today's rating, the previous list's, the change, the
    sentence (or None), and each tournament row's Change, Before, After."""
    facts = page.eval_on_selector_all(
        "dl.facts dt", "ts => ts.map(t => [t.textContent, t.nextElementSibling.innerText])"
    )
    facts = dict(facts)
    (today,) = [v for k, v in facts.items() if k.startswith("Rating on ")]
    heads = page.eval_on_selector_all("#events thead th", "t => t.map(x => x.textContent)")
    cells = page.eval_on_selector_all(
        "#events tbody tr", "rows => rows.map(r => Array.from(r.cells, c => c.textContent))"
    )
    at = {name: heads.index(f"Est. {name.lower()}") for name in ("Change", "Before", "After")}
    sentence = page.locator("p.change")
    return {
        "today": number(today.split("±")[0]),
        "previous": facts.get("Previous list"),
        "sentence": sentence.inner_text() if sentence.count() else None,
        "rows": [{k: row[i] for k, i in at.items()} for row in cells],
    }


@pytest.mark.browser
def test_the_player_page_tells_the_change_once_and_it_adds_up(changed, page, artifacts):
    site, snapshot = changed
    ratings = snapshot.tables.ratings
    pages = page_names(ratings["player"])
    open_(page, site, "index.html")
    listed = {r[1].removeprefix(MARK): r for r in all_rows(page)}  # name: cells
    delta_of = {  # the change as shown, rounded once: for choosing players of each kind
        p: round(r) - round(r - c)
        for p, r, c in zip(
            ratings["player"], ratings["rating"], ratings["rating_change"], strict=True
        )
        if c == c
    }
    chosen = {
        "moved": max(delta_of, key=lambda p: abs(delta_of[p])),
        "still": next(p for p, d in delta_of.items() if d == 0),
        "new": ratings.loc[ratings["rating_change"].isna(), "player"].iloc[0],
    }
    for kind, player in chosen.items():
        row = ratings.loc[ratings["player"] == player].iloc[0]
        open_served(page, site, f"p/{pages[player]}.html")
        shown = story(page)
        if kind == "new":
            assert shown["previous"] == "not on it: new on this list"
            assert shown["sentence"] is None
        else:
            m = re.fullmatch(r"(\d+) · change ([+\u2212]?\d+)", shown["previous"])
            assert m, shown["previous"]
            previous, change = number(m.group(1)), number(m.group(2))
            assert shown["today"] - previous == change  # adds up as shown
            assert change == delta_of[player]
            if row["status"] == "active":  # the list says the same change
                assert number(listed[row["name"]][3]) == change
            if change == 0:
                assert shown["sentence"] is None  # nothing said about no change
            else:
                text = shown["sentence"]
                assert text, player
                parts = re.findall(r"[+\u2212]\d+", text)
                assert len(parts) in (0, 2), text
                if parts:
                    assert sum(number(x) for x in parts) == change, text
        for r in shown["rows"]:  # each tournament: After - Before = Change, as shown
            if r["Change"] == "new":
                assert r["Before"] == "\u2013"
            else:
                assert number(r["After"]) - number(r["Before"]) == number(r["Change"]), r
        assert "today\u2019s whole-history estimates" in page.inner_text("#today-estimates")
        if kind == "new":
            continue
        for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
            page.set_viewport_size(viewport)
            page.wait_for_timeout(300)  # the chart redraws for the new width
            page.screenshot(path=str(artifacts / f"player-story-{kind}-{size}.png"))
        page.set_viewport_size(DESKTOP)


@pytest.mark.browser
def test_a_players_tournaments_and_the_year_index_on_a_phone(changed, browser, artifacts):
    site, snapshot = changed
    ratings = snapshot.tables.ratings
    busiest = ratings.sort_values("games").iloc[-1]["player"]
    p = new_page(browser, PHONE)
    open_served(p, site, f"p/{page_names(ratings['player'])[busiest]}.html")
    want = ["Tournament", "Score", "At the time"]
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


@pytest.mark.browser
def test_the_head_to_head_table_counts_each_opponents_games(published, page, artifacts):
    """Every opponent once, with the wins, draws and losses the games give (counted here from
    games.parquet), the score, the expected score of p/<id>.json, and the tournaments where
    they met, linked (the newest, the others folded when there are more than two)."""
    games = published_table(published, "games")
    ratings = published_table(published, "ratings").set_index("player")
    player = ratings["games"].idxmax()
    mine = games.loc[(games["black"] == player) | (games["white"] == player)]
    black = mine["black"] == player
    opponent = mine["white"].where(black, mine["black"])
    points = mine["result"].where(black, 1 - mine["result"])  # (the player's, as Black's result)
    want = {
        o: (int((p == 1).sum()), int((p == 0.5).sum()), int((p == 0).sum()))
        for o, p in points.groupby(opponent)
    }
    site = site_of(published)
    name = page_names([player])[player]
    data = json.loads((site / "p" / f"{name}.json").read_text(encoding="utf-8"))["opponents"]
    open_served(page, site, f"p/{name}.html")
    heads = page.eval_on_selector_all("#opponents thead th", "t => t.map(x => x.textContent)")
    # the score beside the games, the expected score beside it, then wins, draws and losses
    assert heads[:7] == ["Opponent", "Games", "Score", "Expected", "Won", "Drawn", "Lost"]
    rows = page.eval_on_selector_all(  # (the tournaments where they met: the links of the last)
        "#opponents tbody tr",
        "rows => rows.map(r => [r.cells[0].querySelector('a').getAttribute('href'),"
        " ...Array.from(r.cells, c => c.textContent).slice(0, -1),"
        " Array.from(r.cells[r.cells.length - 1].querySelectorAll('a'),"
        " a => a.getAttribute('href'))])",
    )
    pages = page_names(list(want))
    by_page = {f"../p/{pages[o]}.html": o for o in want}
    assert sorted(by_page[r[0]] for r in rows) == sorted(want)  # every opponent once
    counts = [int(r[2]) for r in rows]
    assert counts == sorted(counts, reverse=True)  # most games first
    at = {o: k for k, o in enumerate(data["player"])}
    folded = 0
    for href, _name, n, score, expected, w, d, lost, met in rows:
        o = by_page[href]
        assert (int(w), int(d), int(lost)) == want[o] and int(n) == sum(want[o]), o
        assert float(score.replace("\u00bd", ".5") or 0) == want[o][0] + want[o][1] / 2
        k = at[o]
        if data["expected_games"][k]:
            assert expected.split(" ")[0] == f"{data['expected'][k]:.1f}", (o, expected)
        named = set(mine.loc[opponent == o, "tournament_id"])
        assert sorted(met) == sorted(f"../tournaments/{t}.html" for t in named), (o, met)
        folded += len(named) > 2  # the newest, the others folded
    assert folded and page.locator("#opponents details").count() == folded
    page.screenshot(path=str(artifacts / "player-head-to-head.png"), full_page=True)
    # on a phone, the first screen of the table shows each opponent's games and score whole
    page.set_viewport_size({"width": 390, "height": 844})
    shown = page.eval_on_selector_all(
        "#opponents tbody tr",
        "rows => rows.map(r => { const box = r.closest('.scroll').getBoundingClientRect();"
        " return [1, 2].every(k => r.cells[k].getBoundingClientRect().right <= box.right); })",
    )
    assert shown and all(shown)


def test_the_compare_pages_legend_tells_namesakes_apart(published, page):
    """Two players of one name on one chart (the sample has two Saar Marts): each legend entry
    carries the player's id; other names stay as they are."""
    site = site_of(published)
    data = read_data(site, "players")
    by_name: dict[str, list[str]] = {}
    for player, name in zip(data["id"], data["name"], strict=True):
        by_name.setdefault(name, []).append(player)
    name, twins = next((n, ids) for n, ids in by_name.items() if len(ids) > 1)
    other = next(ids[0] for ids in by_name.values() if len(ids) == 1)
    page.goto(served(site) + "compare.html#p=" + ",".join([twins[0], other, twins[1]]))
    page.wait_for_selector("#compare-chart svg[data-drawn]")
    legend = page.eval_on_selector_all(
        "#compare-chart .legend li", "l => l.map(x => x.textContent)"
    )
    named = data["name"][data["id"].index(other)]
    assert legend == [f"{name} ({twins[0]})", named, f"{name} ({twins[1]})"]
    check_and_close(page)
