"""The static site as files: escaping, portable file names, links that resolve, no network, the
data the page script draws, standings, changes, namesakes, games not rated, CSV, size."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections import Counter
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import defusedxml.ElementTree
import numpy as np
import pandas as pd
import pytest
import support
from support import ODD_ID, read_data

import whr.lists
import whr.publish.site as site_module
from whr.publish.site import contract, frame, page_names, write
from whr.publish.site.lists import shown_change
from whr.publish.site.names import renjunet_game_url, renjunet_games

D = support.AS_OF


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.urls.append(value)


EVENT = contract.EVENT.script()  # an event row's fields by position (contract.EVENT)


def page_data(html: str, element: str) -> dict:
    """The JSON in a page's ``<script type=application/json id=element>``, which its script
    draws (``player-data`` on a player page, ``cross-data`` on a tournament page)."""
    return json.loads(html.split(f"id={element}>", 1)[1].split("</script>", 1)[0])


def site_of(published: Path) -> Path:
    return support.site_of(published)


def snapshot(published: Path) -> Path:
    """The archive entry of the day: every table of the list."""
    return support.entry_of(published)


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
        assert not re.search(r"\b(fetch|XMLHttpRequest|import\s*\()", text), script.name


def test_pages_for_every_list_player_country_and_tournament(published):
    snap = snapshot(published)
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


def test_an_id_with_path_characters_gets_a_safe_file_name(published):
    site = site_of(published)
    name = site_module.slug(ODD_ID)
    assert re.fullmatch(r"_[0-9a-f]{20}", name)
    assert (site / "p" / f"{name}.html").is_file()
    assert not (site / "x y").exists() and not (site.parent / "x y").exists()
    data = read_data(site, "players")
    assert data["pg"][str(data["id"].index(ODD_ID))] == name  # the page script links there
    assert site_module.slug("000123") == "000123"
    assert site_module.slug("..") != ".." and site_module.slug("a/b") != site_module.slug("a_b")


def test_page_names_are_portable():
    names = page_names(["CON", "nul", "Aux", "COM1", "lpt9", "ABC", "abc", "Abd", "000123", "RUS"])
    for reserved in ("CON", "nul", "Aux", "COM1", "lpt9"):
        assert re.fullmatch(r"_[0-9a-f]{20}", names[reserved]), reserved
    assert re.fullmatch(r"_[0-9a-f]{20}", names["ABC"]) and names["ABC"] != names["abc"]
    assert re.fullmatch(r"_[0-9a-f]{20}", names["abc"])  # both of a pair differing by case
    assert names["Abd"] == "Abd" and names["000123"] == "000123" and names["RUS"] == "RUS"
    assert len({n.lower() for n in names.values()}) == len(names)  # case-insensitive file systems
    assert page_names(["ABC", "abc", "CON"]) == {k: names[k] for k in ("ABC", "abc", "CON")}
    # a name a shell command would take for an option (rm -rf.html) is never written as it is
    dashed = page_names(["-rf", "--help", "-", "a-b"])
    assert all(re.fullmatch(r"_[0-9a-f]{20}", dashed[k]) for k in ("-rf", "--help", "-"))
    assert dashed["a-b"] == "a-b"


def test_reserved_and_case_twin_ids_publish_as_distinct_files(tmp_path):
    inp = support.inputs(300, ids={0: "CON", 1: "abc", 2: "ABC"})
    support.publish_inputs(tmp_path, inp)
    site = support.site_of(tmp_path)
    files = [p.name.lower() for p in (site / "p").glob("*.html")]
    assert len(files) == len(set(files)) == len(read_data(site, "players")["id"])
    assert not {"con.html", "abc.html"} & set(files)
    data = {p.name.lower() for p in (site / "p").glob("*.json")}  # each beside its page
    assert data == {f[: -len(".html")] + ".json" for f in files}


def test_about_page_states_the_parameters(published, small):
    text = (site_of(published) / "about.html").read_text()
    assert "w² = 12.9 Elo² per day" in text
    assert small.data.inputs[0][1] in text
    assert "2 virtual draws" in text
    assert 'href="facts_needed.csv"' in text and 'href="ratings.csv"' in text
    # the rank rule a reader can check the list against (whr.lists.rank_order)
    assert "never rounded: a player is never ranked above a higher rating" in text
    assert "in the order of their player IDs" in text


def test_pages_name_the_game_of_the_list(published, small, tmp_path):
    renju = (site_of(published) / "index.html").read_text()
    assert "Renju world rating list — 25 November 2026" in renju and "Gomoku" not in renju
    support.publish_inputs(tmp_path, small, category="gomoku")
    for page in ("index.html", "about.html"):
        text = (tmp_path / "gomoku" / page).read_text()
        assert "Gomoku rating" in text and "Renju rating" not in text, page


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
    ratings = pd.read_parquet(snapshot(published) / "ratings.parquet").set_index("player")
    for day, stem in ((D, f"list-{D.isoformat()}"), (dt.date(2022, 12, 31), "list-2022-12-31")):
        data = read_data(site, stem)
        expected = gy1_by_hand(rated, day)
        shown = {ids[p] for p, y in zip(data["p"], data["y"], strict=True) if y}
        assert shown == expected, day
        upto = rated.loc[rated["date"] <= day]
        counts = Counter([*upto["black"], *upto["white"]])
        n_established = sum(n >= 10 for n in counts.values())
        assert 0 < len(expected) < n_established, day  # the rule is exercised both ways
    # ranks among them follow the ratings, and the world rank is the list's
    data = read_data(site, f"list-{D.isoformat()}")
    chosen = sorted((y, ids[p]) for p, y in zip(data["p"], data["y"], strict=True) if y)
    assert [y for y, _ in chosen] == list(range(1, len(chosen) + 1))  # no ties here
    assert ratings.loc[[p for _, p in chosen], "rating"].is_monotonic_decreasing


def test_list_data_match_the_published_list(published):
    site = site_of(published)
    ratings = pd.read_parquet(snapshot(published) / "ratings.parquet")
    ids = read_data(site, "players")["id"]
    data = read_data(site, f"list-{D.isoformat()}")
    assert [ids[p] for p in data["p"]] == ratings["player"].tolist()  # the list's order
    assert data["r"] == [int(f"{x:.0f}") for x in ratings["rating"]]
    assert data["k"] == [0 if pd.isna(x) else int(x) for x in ratings["rank"]]
    assert data["s"] == [("active", "inactive", "provisional").index(s) for s in ratings["status"]]
    assert data["g1"] == ratings["gy1"].tolist() and data["n"] == ratings["games"].tolist()
    assert "d" not in data  # no previous list: no change column


def test_players_index_and_json_keep_ids_as_strings(published):
    snap = snapshot(published)
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


def test_ratings_csv_is_the_current_list(published):
    snap = snapshot(published)
    parquet = pd.read_parquet(snap / "ratings.parquet")
    csv = pd.read_csv(
        site_of(published) / "ratings.csv", dtype={"player": str}, keep_default_na=False
    )
    assert list(csv.columns) == list(parquet.columns)
    assert csv["player"].tolist() == parquet["player"].tolist()
    assert np.allclose(csv["rating"], parquet["rating"])
    assert csv["status"].tolist() == parquet["status"].tolist()
    names = dict(zip(csv["player"], csv["name"], strict=True))
    assert support.HOSTILE_NAME in names.values()


class Table(HTMLParser):
    """The cell texts of the body rows of the table with a given id."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.id, self.inside, self.body = table_id, False, False
        self.rows: list[list[str]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.inside = dict(attrs).get("id") == self.id
        elif self.inside and tag == "tbody":
            self.body = True
        elif self.inside and self.body and tag == "tr":
            self.rows.append([])
        elif self.inside and self.body and tag == "td":
            self.rows[-1].append("")

    def handle_endtag(self, tag):
        if tag in ("table", "tbody"):
            self.body = False

    def handle_data(self, data):
        if self.inside and self.body and self.rows and self.rows[-1]:
            self.rows[-1][-1] += data


def table_rows(html: str, table_id: str) -> list[list[str]]:
    parser = Table(table_id)
    parser.feed(html)
    return parser.rows


def score(text: str) -> float:
    return float(text.replace("½", ".5")) if text != "½" else 0.5


def test_crosstables_add_up(published, small):
    snap = snapshot(published)
    site = site_of(published)
    games = pd.read_parquet(snap / "games.parquet")
    tournaments = pd.read_parquet(snap / "tournaments.parquet")
    players = read_data(site, "players")["id"]
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    for tid, part in games.groupby("tournament_id"):
        html = (site / "tournaments" / f"{names[tid]}.html").read_text(encoding="utf-8")
        data = page_data(html, "cross-data")
        rows = data["rows"]
        assert {players[r[3]] for r in rows} == set(part["black"]) | set(part["white"]), tid
        assert [r[0] for r in rows] == list(range(1, len(rows) + 1)), tid
        assert sum(r[4] for r in rows) == 2 * len(part), tid  # a game gives one point
        cells = [r[10].split(",") for r in rows]
        assert all(len(c) == len(data["rounds"]) for c in cells), tid
        entries = [e for c in cells for cell in c for e in cell.split()]
        assert all(re.fullmatch(r"\d+[+=-][bw]", e) for e in entries), tid
        assert len(entries) == 2 * len(part), tid  # each game in both players' rows
        # each game in its round's column, in both players' rows, with its result and colours
        row_of = {players[r[3]]: r[0] for r in rows}
        column = {label: k for k, label in enumerate(data["rounds"])}
        for g in part.itertuples():
            k = column[str(g.round) if isinstance(g.round, str) and g.round else "\u2013"]
            b, w = row_of[g.black], row_of[g.white]
            mark = {1.0: ("+", "-"), 0.5: ("=", "="), 0.0: ("-", "+")}[g.result]
            assert f"{w}{mark[0]}b" in cells[b - 1][k].split(), (tid, g.game_id)
            assert f"{b}{mark[1]}w" in cells[w - 1][k].split(), (tid, g.game_id)
        for r, c in zip(rows, cells, strict=True):  # a row's points are its cells' points
            twice = sum(2 if "+" in e else 1 if "=" in e else 0 for x in c for e in x.split())
            assert twice == r[4], tid
            opponents = {
                int(e.split("+")[0].split("=")[0].split("-")[0]) for x in c for e in x.split()
            }
            assert r[0] not in opponents and opponents <= {x[0] for x in rows}, tid


def shown(rating: float, change: float) -> tuple[int, int]:
    """The previous list's rating and the change as a reader sees them: the two lists' ratings
    rounded, the change their difference."""
    return round(rating - change), round(rating) - round(rating - change)


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
    data = read_data(site, f"list-{D.isoformat()}")
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
    assert '"change":true' in index and "not on it" in index  # the legend explains the marks
    assert (
        "<span class=t>newly ranked</span></span>: <span>ranked, and not ranked on the previous"
        in index
    )
    # a player page shows the previous list's rating and the change, as the list does
    pages = page_names(ratings["player"])
    p = moved.iloc[0]
    html = (site / "p" / f"{pages[p['player']]}.html").read_text(encoding="utf-8")
    before, delta = shown(p["rating"], p["rating_change"])
    assert f"<dt>Previous list<dd><span class=prev>{before}</span> · change" in html
    assert f"<strong class=delta>{frame.signed(delta)}</strong>" in html
    html = (site / "p" / f"{pages[new[0]]}.html").read_text(encoding="utf-8")
    assert "<dt>Previous list<dd>not on it: new on this list" in html
    assert "<p class=change>" not in html
    for player in ratings.loc[entered, "player"]:  # their pages say so by the rank
        html = (site / "p" / f"{pages[player]}.html").read_text(encoding="utf-8")
        assert "(newly ranked: not ranked on the previous list)" in html
    player = ratings.loc[ratings["previous_rank"].notna(), "player"].iloc[0]
    html = (site / "p" / f"{pages[player]}.html").read_text(encoding="utf-8")
    assert "newly ranked" not in html


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
        (text,) = sentence
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


def test_namesakes_are_told_apart(published, small):
    site = site_of(published)
    data = read_data(site, "players")
    twins = [i for i, n in enumerate(data["name"]) if n == support.NAMESAKE]
    assert len(twins) == 2
    labels = [data["lb"][i] for i in twins]
    assert labels[0] != labels[1] and all(
        data["id"][i] in lb for i, lb in zip(twins, labels, strict=True)
    )
    # the tournament where they met has both in its standings (drawn with the labels: the
    # browser tests look at them)
    first = small.selection.rated.iloc[0]
    tournaments = pd.read_parquet(snapshot(published) / "tournaments.parquet")
    games = pd.read_parquet(snapshot(published) / "games.parquet")
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    html = (site / "tournaments" / f"{names[first['tournament_id']]}.html").read_text()
    assert set(twins) <= {row[3] for row in page_data(html, "cross-data")["rows"]}


def test_games_not_rated_page_and_csv(published, small):
    site = site_of(published)
    exclusions = small.selection.exclusions
    assert len(exclusions) > 0
    html = (site / "excluded.html").read_text(encoding="utf-8")
    for reason, n in exclusions["reason"].value_counts().items():
        assert f"<code>{reason.replace('_', '_<wbr>')}</code><td>{n}<td>" in html
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
                assert data["pi"][data[key][k]] == expected
                assert data["pn"][data[key][k]] == (names.get(expected) or expected)
    assert len(html) < 60_000  # the rows are data; the page holds the first ones only
    csv = pd.read_csv(site / "exclusions.csv", dtype=str, keep_default_na=False)
    assert sorted(csv["game_id"]) == sorted(exclusions["game_id"])
    assert list(csv.columns)[:2] == ["game_id", "tournament_id"]
    by_game = csv.set_index("game_id")
    for game in csv["game_id"]:
        assert by_game.at[game, "black"] == (
            "" if pd.isna(games.at[game, "black"]) else games.at[game, "black"]
        )


def test_no_sitemap_without_a_base_url(published):
    assert not (site_of(published) / "sitemap.xml").exists()
    assert "rel=canonical" not in (site_of(published) / "index.html").read_text(encoding="utf-8")


def test_sitemap_with_a_base_url_lists_every_page(small, tmp_path):
    support.publish_inputs(tmp_path, small, base_url="https://rating.example.org")
    base = "https://rating.example.org/renju"  # the address of OUT, then the site's folder
    site = support.site_of(tmp_path)
    root = defusedxml.ElementTree.parse(site / "sitemap.xml").getroot()
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    assert root.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset"
    locs = [u.findtext("s:loc", namespaces=ns) for u in root.findall("s:url", ns)]
    pages = set()
    for loc in locs:
        assert loc.startswith(base + "/"), loc
        path = unquote(loc[len(base) + 1 :])
        target = (site / path).resolve()
        assert target.is_file() and target.is_relative_to(site.resolve()), loc
        assert f'<link rel=canonical href="{loc}">' in target.read_text(encoding="utf-8"), loc
        pages.add(target)
    assert len(pages) == len(locs)
    assert pages == {p.resolve() for p in site.rglob("*.html")}
    assert {u.findtext("s:lastmod", namespaces=ns) for u in root.findall("s:url", ns)} == {
        D.isoformat()
    }
    priorities = {
        u.findtext("s:loc", namespaces=ns)[len(base) + 1 :]: u.findtext("s:priority", namespaces=ns)
        for u in root.findall("s:url", ns)
    }
    assert priorities["index.html"] == "1.0" and priorities["players.html"] == "0.9"


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


def test_chunks_and_worker_processes_write_the_same_site(small, tmp_path, monkeypatch):
    view = support.snapshot_of(small).view
    info = {"parameters": small.params}
    one = write(tmp_path / "one", view, info, processes=1)
    monkeypatch.setattr(frame, "CHUNK", 7)  # many chunks of players and tournaments
    two = write(tmp_path / "two", view, info, processes=2)
    rel = sorted(one)
    assert rel == sorted(two)
    for path in rel:
        assert (tmp_path / "one" / path).read_bytes() == (tmp_path / "two" / path).read_bytes()
    assert {
        p.relative_to(tmp_path / "one").as_posix()
        for p in (tmp_path / "one").rglob("*")
        if p.is_file()
    } == set(rel)


def test_renju_net_links_only_for_renjunet_games_and_only_when_asked(small, tmp_path):
    rated = small.selection.rated
    ids = rated["game_id"].astype(str)
    from_renjunet = ids.str[-1].isin(list("02468"))  # half the games, by hand
    source = np.where(from_renjunet, "renjunet_v10_20261130.rif", "additional.csv")
    selection = dataclasses.replace(small.selection, rated=rated.assign(source=source))
    support.publish_inputs(tmp_path, small, selection=selection, game_links=True)
    site = support.site_of(tmp_path)
    expected = set(ids[from_renjunet])
    assert 0 < len(expected) < len(ids)
    found: Counter[str] = Counter()
    for page in (site / "tournaments").glob("*.html"):
        text = page.read_text(encoding="utf-8")
        rows = page_data(text, "cross-data")["rows"]
        found.update(e.split("@")[1] for r in rows for e in re.split("[, ]", r[10]) if "@" in e)
        assert "https:" not in text, page.name  # the page script makes the links
    assert set(found) == expected
    assert set(found.values()) == {2}  # a crosstable shows each game in both players' rows
    # player pages give the page script the ids of linked games only, once per side
    on_players: Counter[str] = Counter()
    for page in (site / "p").glob("*.html"):
        text = page.read_text(encoding="utf-8")
        events = page_data(text, "player-data")["events"]
        on_players.update(g for event in events for g in (event[EVENT["ids"] :] or [[]])[0] if g)
        assert "https:" not in text.split("id=player-data>", 1)[0]
    assert set(on_players) == expected and set(on_players.values()) == {2}


def test_player_pages_hold_each_players_tournaments_and_games(published):
    snap = snapshot(published)
    site = site_of(published)
    games = pd.read_parquet(snap / "games.parquet")
    players = read_data(site, "players")
    tournaments = read_data(site, "tournaments")
    pages = page_names(players["id"])
    for number, player in enumerate(players["id"]):
        html = (site / "p" / f"{pages[player]}.html").read_text(encoding="utf-8")
        events = page_data(html, "player-data")["events"]
        mine = games.loc[(games["black"] == player) | (games["white"] == player)]
        n_games = sum(len(e[EVENT["played"]]) for e in events)
        assert n_games == 4 * len(mine), player  # 4 numbers a game
        assert sorted(tournaments["pg"][e[0]] for e in events) == sorted(
            page_names([*games["tournament_id"]])[t] for t in mine["tournament_id"].unique()
        ), player
        days = [e[1] for e in events]
        assert days == sorted(days, reverse=True), player  # newest first
        for e in events:  # the score is the games' points; the opponents are others
            games_of = e[EVENT["played"]]
            played = [games_of[k : k + 4] for k in range(0, len(games_of), 4)]
            assert e[3] == sum(g[1] % 3 for g in played), player
            assert all(g[2] != number for g in played), player


def test_a_stencil_fills_in_exactly_what_the_template_renders(small, tmp_path):
    from markupsafe import Markup

    view = support.snapshot_of(small).view
    r = frame.Renderer(tmp_path, site_module.site_of(view, {"parameters": {}}, False))
    values = {
        "name": '</title><script>alert("x")</script> & Ünal',  # text: escaped by the stencil
        "heading": Markup("<h1>Ünal</h1>"),  # markup: as it is
        "facts": Markup("<dl class=facts><dt>ID<dd>1</dl>"),
        "change": "",
        "canonical": Markup('<link rel=canonical href="https://x.org/p/x.html">'),
        "record": Markup("<h2>Tournaments</h2><p>No rated games.</p>"),
        "data": Markup('{"chart":{"series":[]},"events":[]}'),
    }
    scripts = Markup("<script src=../data/players.js></script>\n")
    stencil = r.stencil("p", "player.html", tuple(values), scripts=scripts)
    for name in (values["name"], "Plain Name", "a\x01b"):
        page = {**values, "name": name}
        assert stencil.fill(**page) == r.html("p/x.html", "player.html", scripts=scripts, **page)
    assert "<script>alert" not in stencil.fill(**values)
    # a field shown through a filter would not be filled as the template renders it: refused
    r._templates["upper.html"] = r.env.from_string("<title>{{ name|upper }}</title>")
    with pytest.raises(ValueError, match="plainly"):
        r.stencil("p", "upper.html", ("name",))


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_page_workers_die_with_a_killed_run_and_never_hold_the_lock(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from whr.publish import LockedError, hold

    script = Path(__file__).parent / "kill_render.py"
    run = subprocess.Popen(
        [sys.executable, str(script), str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    workers: list[int] = []
    try:
        workers += [int(run.stdout.readline().split()[1]) for _ in range(2)]
        assert all(_alive(w) for w in workers)
        # the run holds the lock while its workers write
        with pytest.raises(LockedError), hold(tmp_path):
            pass
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=60)
        for _ in range(100):
            if not any(_alive(w) for w in workers):
                break
            time.sleep(0.05)
        assert not any(_alive(w) for w in workers), "a page worker outlived its run"
        with hold(tmp_path):  # the lock is free: no orphan holds it
            pass
    finally:
        run.kill()
        run.wait()
        for worker in workers:  # should the test fail: leave nothing behind
            if _alive(worker):
                os.kill(worker, signal.SIGKILL)


def test_renjunet_games_are_numeric_ids_from_a_renjunet_file():
    games = pd.DataFrame(
        {
            "game_id": ["123", "G00001", "123", "77", "t1:r1:1-2", "5", "12a", "9"],
            "source": [
                "renjunet_v10_20261130.rif",
                "renjunet_v10_20261130.rif",  # the RIF's manual additions: no renju.net page
                "games.csv",  # a canonical table: ids are someone else's
                "db.rif.gz",
                "egf.h9",
                None,
                "renjunet.rif",
                "/data/RenjuNet_v10.zip",
            ],
        }
    )
    assert renjunet_games(games).tolist() == [
        True,
        False,
        False,
        True,
        False,
        False,
        False,
        True,
    ]
    assert renjunet_game_url("000123") == "https://www.renju.net/game/000123/"
    for bad in ("G1", "../1", "", "١٢"):
        with pytest.raises(ValueError, match="game_id"):
            renjunet_game_url(bad)
    with pytest.raises(ValueError, match="source"):
        renjunet_games(games[["game_id"]])


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
    about = (tmp_path / "s" / "about.html").read_text(encoding="utf-8")
    assert "since 2022-01-09" in about and "at least 45 minutes per player" in about
    assert "2021-08-08" not in about and "30 minutes" not in about
    # the bundled rules, as an entry published before the manifest recorded them says
    bundled = whr.lists.RuleNumbers.from_record(None)
    assert (bundled.cutover, bundled.min_minutes) == (dt.date(2021, 8, 8), 30.0)


def test_the_lists_download_as_xlsx_with_text_ids_and_names_as_written(published, small):
    openpyxl = pytest.importorskip("openpyxl")
    site = site_of(published)
    for stem in ("ratings", "exclusions"):
        csv = pd.read_csv(site / f"{stem}.csv", dtype=str, keep_default_na=False)
        sheet = openpyxl.load_workbook(site / f"{stem}.xlsx", read_only=True).worksheets[0]
        rows = list(sheet.iter_rows(values_only=True))
        assert list(rows[0]) == list(csv.columns)
        assert len(rows) - 1 == len(csv)
        first = dict(zip(rows[0], rows[1], strict=True))
        for column in ("player", "game_id", "black"):
            if column in first and first[column] is not None:
                assert isinstance(first[column], str)  # a text cell: leading zeros kept
                assert first[column] == csv[column].iloc[0]
    book = openpyxl.load_workbook(site / "ratings.xlsx", read_only=True).worksheets[0]
    rows = list(book.iter_rows(values_only=True))
    at = {name: k for k, name in enumerate(rows[0])}
    ids = [row[at["player"]] for row in rows[1:]]
    assert support.ODD_ID in ids and any(i.startswith("0") for i in ids)
    names = {row[at["name"]] for row in rows[1:]}
    assert support.HOSTILE_NAME in names and support.QUOTED_NAME in names  # text, as written
    ratings = pd.read_parquet(site / "ratings.parquet")
    shown = {row[at["player"]]: row[at["rating"]] for row in rows[1:]}
    for pid, rating in zip(ratings["player"], ratings["rating"], strict=True):
        assert shown[pid] == round(rating, 2)  # a number cell, as the CSV rounds it


def test_xlsx_cells_keep_every_script_and_never_run_a_formula(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    import pyarrow as pa

    from whr.publish.site.exports import xlsx_bytes

    schema = pa.schema(
        [("id", pa.string()), ("name", pa.string()), ("n", pa.int64()), ("x", pa.float64())]
    )
    names = ["张伟", "Иванов Пётр", "=1+1", "山田 太郎", "'0012"]
    frame = pd.DataFrame(
        {
            "id": ["000123", "0", "007", "1e5", "00"],
            "name": names,
            "n": [1, 2, 3, 4, 5],
            "x": [1.234567, None, 2.5, -0.001, 3.0],
        }
    )
    path = tmp_path / "t.xlsx"
    path.write_bytes(xlsx_bytes(frame, schema, "t", dt.date(2026, 11, 30)))
    assert xlsx_bytes(frame, schema, "t", dt.date(2026, 11, 30)) == path.read_bytes()
    rows = list(openpyxl.load_workbook(path).worksheets[0].iter_rows(values_only=True))
    assert rows[0] == ("id", "name", "n", "x")
    assert [r[0] for r in rows[1:]] == ["000123", "0", "007", "1e5", "00"]
    assert [r[1] for r in rows[1:]] == names
    assert [r[2] for r in rows[1:]] == [1, 2, 3, 4, 5]
    assert [r[3] for r in rows[1:]] == [1.23, None, 2.5, -0.0, 3.0]
    back = pd.read_excel(path, dtype={"id": str})
    assert back["id"].tolist() == ["000123", "0", "007", "1e5", "00"]
