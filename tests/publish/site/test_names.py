"""Page file names, namesake labels and renju.net game links (whr.publish.site.names)."""

from __future__ import annotations

import json
import re
from collections import Counter

import pandas as pd
import pytest

import whr.publish.site as site_module
from tests.publish import support
from tests.publish.site.pages import open_, open_served, published_table
from tests.publish.support import ODD_ID, read_data, site_of
from whr.publish.site import page_names
from whr.publish.site.names import renjunet_game_url, renjunet_games


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
    tournaments = pd.read_parquet(support.entry_of(published) / "tournaments.parquet")
    games = pd.read_parquet(support.entry_of(published) / "games.parquet")
    names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    html = (site / "tournaments" / f"{names[first['tournament_id']]}.html").read_text()
    for i, label in zip(twins, labels, strict=True):  # in the crosstable, linked and labelled
        pages = page_names([data["id"][i]])
        assert f"{support.NAMESAKE}</a> <small>{label}</small>" in html
        assert f"<a href=../p/{pages[data['id'][i]]}.html>{support.NAMESAKE}</a>" in html


@pytest.mark.browser
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
    paired = page.eval_on_selector_all(
        "#pairs tbody td:is(:nth-child(2), :last-child)", "c => c.map(x => x.textContent.trim())"
    )
    assert set(twins) <= set(paired)
    # the game list of one of them names the other with the label
    players = page_names([first["black"], first["white"]])
    open_served(page, site, f"p/{players[first['black']]}.html")
    assert page.inner_text("h1") == support.NAMESAKE
    opponents = page.eval_on_selector_all("#games td.op", "c => c.map(x => x.textContent)")
    assert any(o.startswith(support.NAMESAKE) and first["white"] in o for o in opponents)


def test_renju_net_links_only_for_renjunet_games_and_only_when_asked(small, tmp_path):
    rated = support.publish_half_from_renjunet(tmp_path, small)
    ids = rated["game_id"].astype(str)
    from_renjunet = rated["source"].str.startswith("renjunet_")
    site = support.site_of(tmp_path)
    expected = set(ids[from_renjunet])
    assert 0 < len(expected) < len(ids)
    found: Counter[str] = Counter()
    for page in (site / "tournaments").glob("*.html"):
        text = page.read_text(encoding="utf-8")
        links = re.findall(r'<a href="https://www\.renju\.net/game/(\d+)/" rel=nofollow>', text)
        found.update(links)
        pairings = text.split("<table class=pairings", 1)[1]
        assert len(re.findall("https:", pairings)) == len(links), page.name  # a game's result
    assert set(found) == expected
    assert set(found.values()) == {1}  # once: its result in the pairings
    # players' data give the page script the ids of linked games only, once per side
    on_players: Counter[str] = Counter()
    for page in (site / "p").glob("*.html"):
        assert "https:" not in page.read_text(encoding="utf-8")
        data = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
        on_players.update(g for g in data["games"]["game"] if g)
    assert set(on_players) == expected and set(on_players.values()) == {2}


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
