"""The static site as files: escaping, safe file names, links that resolve, no network, size."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import numpy as np
import pandas as pd
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
    return published / "snapshots" / D.isoformat() / "site"


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
    snap = published / "snapshots" / D.isoformat()
    site = snap / "site"
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
