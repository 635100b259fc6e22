"""The static site as files: escaping, safe file names, links that resolve, no network, size."""

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
from support import ODD_ID

import whr.publish.site as site_module
from whr.tables import RATINGS, conform

D = support.AS_OF


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.urls.append(value)


def site_of(published: Path) -> Path:
    return support.site_of(published)


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
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.exists(), f"{page.relative_to(site)} links to missing {url}"
            assert target.is_relative_to(site.parent.resolve()), (
                f"{page.name}: {url} leaves the snapshot"
            )
    for script in (site / "static").glob("*.js"):
        text = script.read_text()
        assert not re.search(r"\b(fetch|XMLHttpRequest|import\s*\()", text), script.name


def test_pages_for_every_list_player_country_and_tournament(published):
    snap = support.entry_of(published)
    site = support.site_of(published)
    ratings = pd.read_parquet(snap / "ratings.parquet")
    for player in ratings["player"]:
        assert (site / "p" / f"{site_module.slug(player)}.html").is_file(), player
    for country in ratings["country"].dropna().unique():
        assert (site / "countries" / f"{site_module.slug(country)}.html").is_file(), country
    games = pd.read_parquet(snap / "games.parquet")
    for tid in games["tournament_id"].unique():
        assert (site / "tournaments" / f"{site_module.slug(tid)}.html").is_file(), tid
    year_end = pd.read_parquet(snap / "year_end.parquet")
    for day in year_end["list_date"].unique():
        for suffix in ("", "-inactive", "-provisional"):
            assert (site / "years" / f"{day.year}{suffix}.html").is_file()
    for name in (
        "index",
        "inactive",
        "provisional",
        "countries",
        "years",
        "tournaments",
        "top",
        "about",
    ):
        assert (site / f"{name}.html").is_file(), name


def test_names_are_escaped_everywhere(published):
    site = site_of(published)
    raw = [support.HOSTILE_NAME, '"Bob"', "<b>Sons</b>"]
    hits = 0
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for needle in raw:
            assert needle not in text, f"{needle!r} unescaped in {page.relative_to(site)}"
        hits += "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert hits >= 2  # at least the list and the player's own page show the name, as text


def test_an_id_with_path_characters_gets_a_safe_file_name(published):
    site = site_of(published)
    name = site_module.slug(ODD_ID)
    assert re.fullmatch(r"_[0-9a-f]{20}", name)
    assert (site / "p" / f"{name}.html").is_file()
    assert not (site / "x y").exists() and not (site.parent / "x y").exists()
    assert (
        f"href=p/{name}.html>"
        in (site / "index.html").read_text()
        + (site / "inactive.html").read_text()
        + (site / "provisional.html").read_text()
    )
    assert site_module.slug("000123") == "000123"
    assert site_module.slug("..") != ".." and site_module.slug("a/b") != site_module.slug("a_b")


def test_about_page_states_the_parameters(published, small):
    text = (site_of(published) / "about.html").read_text()
    assert "w² = 12.9 Elo² per day" in text
    assert small.data.inputs[0][1] in text
    assert "2 virtual draws" in text


def test_pages_name_the_game_of_the_list(published, small, tmp_path):
    renju = (site_of(published) / "index.html").read_text()
    assert "Renju rating" in renju and "Gomoku" not in renju
    support.publish_inputs(tmp_path, small, category="gomoku")
    for page in ("index.html", "about.html"):
        text = (tmp_path / "gomoku" / page).read_text()
        assert "Gomoku rating" in text and "Renju rating" not in text, page


def big_list(n: int) -> pd.DataFrame:
    """A list of ``n`` active players with long names (for the page-size budget)."""
    rng = np.random.default_rng(0)
    day = D
    return conform(
        pd.DataFrame(
            {
                "list_date": day,
                "rank": np.arange(1, n + 1, dtype=np.int32),
                "country_rank": np.arange(1, n + 1, dtype=np.int32),
                "player": [f"{i:06d}" for i in range(n)],
                "name": [f"Konstantinova{i:04d} Anastasia" for i in range(n)],  # 27 characters
                "native_name": None,
                "country": rng.choice(["RUS", "CHN", "EST", "JPN", "CZE"], n),
                "country_name": "Somewhere",
                "female": rng.random(n) < 0.2,
                "birth_year": np.int32(1990),
                "rating": np.linspace(2700, 1200, n),
                "uncertainty": 123.4,
                "games": np.int32(1234),
                "wins": 600,
                "draws": 34,
                "losses": 600,
                "gy1": np.int32(100),
                "gy2": np.int32(200),
                "gy5": np.int32(500),
                "first_game": dt.date(1990, 1, 1),
                "last_game": day,
                "best_rating": 2800.0,
                "best_date": day,
                "status": "active",
            }
        ),
        RATINGS,
    )


def test_home_page_stays_under_1_mb_for_8000_players(tmp_path):
    frame = big_list(8000)
    tables = {
        "ratings": frame,
        "players": pd.DataFrame({"player_id": [], "name": [], "female": [], "city": []}),
        "tournaments": pd.DataFrame({"tournament_id": [], "name": []}),
    }
    site = site_module._Site(tmp_path, D, tables, {})
    site_module._write_lists(site, frame, D, "index", None)
    html = (tmp_path / "index.html").read_text()
    assert html.count("<tr>") == 8000 + 1  # header and every player
    assert (tmp_path / "index.html").stat().st_size < 1_000_000


def listed_players(html: str) -> list[str]:
    """Player file stems linked from the rows of the page's ``#list`` table, in order."""
    body = html.split('id="list"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr><td>[^<]*(?:<td>[^<]*)?<td><a href=(?:\.\./)?p/([^ >]+)\.html", body)


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
    snap = support.entry_of(published)
    site = support.site_of(published)
    ratings = pd.read_parquet(snap / "ratings.parquet").set_index("player")
    rated = small.selection.rated
    for day, page in (
        (D, site / "gy1.html"),
        (dt.date(2022, 12, 31), site / "years/2022-gy1.html"),
    ):
        expected = gy1_by_hand(rated, day)
        html = page.read_text(encoding="utf-8")
        shown = listed_players(html)
        assert sorted(shown) == sorted(site_module.slug(p) for p in expected), day
        # a real subset of the established players, so the rule is exercised both ways
        upto = rated.loc[rated["date"] <= day]
        counts = Counter([*upto["black"], *upto["white"]])
        n_established = sum(n >= 10 for n in counts.values())
        assert 0 < len(expected) < n_established, day
    # the current list is in rating order and shows each player's world rank
    home = (site / "gy1.html").read_text(encoding="utf-8")
    by_slug = {site_module.slug(p): p for p in ratings.index}
    shown = [by_slug[s] for s in listed_players(home)]
    assert ratings.loc[shown, "rating"].is_monotonic_decreasing
    world = re.findall(r"<tr><td>(\d+)<td>(\d+)<td><a href=p/", home)
    assert [int(w) for _, w in world] == ratings.loc[shown, "rank"].tolist()
    assert [int(r) for r, _ in world] == list(range(1, len(shown) + 1))  # no ties here
    for page in ("index.html", "inactive.html", "provisional.html"):
        assert 'href="gy1.html"' in (site / page).read_text(encoding="utf-8")
    assert 'href="2022-gy1.html"' in (site / "years/2022.html").read_text(encoding="utf-8")


def test_players_index_and_json_keep_ids_as_strings(published):
    snap = support.entry_of(published)
    ratings = pd.read_parquet(snap / "ratings.parquet").set_index("player")
    data = json.loads((support.site_of(published) / "players.json").read_text(encoding="utf-8"))
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
    html = (support.site_of(published) / "players.html").read_text(encoding="utf-8")
    firsts = re.findall(r"<tr><td>([^<]*)<td><a href=p/", html)
    assert [unescape(f) for f in firsts] == ids
    assert 'href="players.html"' in (support.site_of(published) / "index.html").read_text(
        encoding="utf-8"
    )


def test_no_sitemap_without_a_base_url(published):
    assert not (site_of(published) / "sitemap.xml").exists()


def test_sitemap_with_a_base_url_lists_every_page(small, tmp_path):
    base = "https://rating.example.org/renju"
    support.publish_inputs(tmp_path, small, base_url=base)
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
    for bad in ("rating.example.org", "ftp://example.org/", "https://x.org/?a=1", 'https://x/"'):
        with pytest.raises(ValueError, match="base_url"):
            support.publish_inputs(tmp_path, small, base_url=bad)
    with pytest.raises(TypeError, match="base_url"):
        support.publish_inputs(tmp_path, small, base_url=1)
    assert not (tmp_path / "archive").exists()


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
    pattern = re.compile(r'<a href="https://www\.renju\.net/game/([0-9]+)/" rel="nofollow">')
    for folder in ("p", "tournaments"):
        found: Counter[str] = Counter()
        for page in (site / folder).glob("*.html"):
            text = page.read_text(encoding="utf-8")
            found.update(pattern.findall(text))
            external = re.findall(r'href="?(https?:[^" >]+)', text)
            assert len(external) == len(pattern.findall(text)), page.name  # no other link
        assert set(found) == expected, folder
        # a tournament page shows each game once, player pages once per player
        assert set(found.values()) == {1 if folder == "tournaments" else 2}
