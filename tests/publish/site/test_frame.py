"""The site's machinery (whr.publish.site.frame): stencils, chunks and page worker processes."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import whr.publish.site as site_module
from tests.processes import alive
from tests.publish import support
from tests.publish.site.pages import (
    DESKTOP,
    PHONE,
    check_and_close,
    new_page,
    open_,
    pages_of,
    published_table,
    settle,
)
from whr.publish.site import frame, i18n, write


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
        "compare": "0&1",  # text in an address: escaped by the stencil as by the template
        "record": Markup("<h2>Tournaments</h2><p>No rated games.</p>"),
        "data": "x.json",
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


def test_page_workers_die_with_a_killed_run_and_never_hold_the_lock(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from whr.publish import LockedError, hold

    run = subprocess.Popen(
        [sys.executable, "-m", "tests.publish.site.kill_render", str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    workers: list[int] = []
    try:
        workers += [int(run.stdout.readline().split()[1]) for _ in range(2)]
        assert all(alive(w) for w in workers)
        # the run holds the lock while its workers write
        with pytest.raises(LockedError), hold(tmp_path):
            pass
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=60)
        for _ in range(100):
            if not any(alive(w) for w in workers):
                break
            time.sleep(0.05)
        assert not any(alive(w) for w in workers), "a page worker outlived its run"
        with hold(tmp_path):  # the lock is free: no orphan holds it
            pass
    finally:
        run.kill()
        run.wait()
        for worker in workers:  # should the test fail: leave nothing behind
            if alive(worker):
                os.kill(worker, signal.SIGKILL)


# --- the frame every page shares (issue 30): menu, search, head tags -----------------------------

LANGUAGES = list(i18n.LANGUAGES)  # en, zh, ru, ja, ko
MENU = ["index.html", "players.html", "countries.html", "years.html", "tournaments.html",
        "top.html", "excluded.html", "whatif.html", "about.html"]  # fmt: skip


def _html_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def _in_language(p, site: Path, language: str, path: str) -> None:
    """Open ``path`` of ``site`` with ``language`` chosen (as the switch remembers it)."""
    open_(p, site, "index.html")
    p.evaluate("l => localStorage.setItem('whr.lang', l)", language)
    open_(p, site, path)


def _head(html: str) -> str:
    return html.split("<main", 1)[0]


def test_every_page_has_the_one_menu_search_description_and_feed(published):
    site = support.site_of(published)
    pages = _html_pages(site) + [support.entry_of(published) / "index.html"]
    families = {p.relative_to(site).parts[0] for p in pages if site in p.parents}
    assert {"p", "tournaments", "years", "countries", "index", "index.html"} <= families
    for path in pages:
        html = path.read_text(encoding="utf-8")
        root = os.path.relpath(site, path.parent) + "/"
        root = "" if root == "./" else root
        menu = html.split("<nav>", 1)[1].split("</nav>", 1)[0]
        assert re.findall(r"href=([^ >]+)", menu) == [root + m for m in MENU], path
        assert f"<form class=find role=search action={root}players.html" in html, path
        head = _head(html)
        assert head.count("<meta name=description") == 1, path
        for tag in ("og:title", "og:description", "og:type"):
            assert re.search(rf'<meta property={tag} content="[^"]+"', head), (path, tag)
        title = re.search(r"<title>(.*?)</title>", head, re.S)[1]  # text, as a tab shows it
        assert "<" not in title and "data-m" not in head.split("<meta name=description")[0]
        feed = f"<link rel=alternate type=application/atom+xml href={root}feed.xml>"
        assert feed in head, path
        assert (path.parent / f"{root}feed.xml").resolve().is_file()
        assert "og:url" not in head  # no public address given


BUSY = {"games": 12345, "wins": 10001, "draws": 1234, "losses": 1110, "gy1": 1002}
"""The counts given to one player of the ``big_counts`` site (counts a language groups)."""


@pytest.fixture(scope="module")
def big_counts(small, tmp_path_factory) -> tuple[Path, str]:
    """A site with a public address whose first listed player has the counts ``BUSY``: the
    site and that player's page."""
    snapshot = support.snapshot_of(small)
    ratings = snapshot.tables.ratings.copy()
    for column, n in BUSY.items():
        ratings.loc[ratings.index[0], column] = n
    view = support.view_of(snapshot, ratings=ratings)
    out = tmp_path_factory.mktemp("big") / "site"
    write(out, view, {"parameters": small.params}, base_url="https://example.org/renju/")
    player = str(ratings["player"].iloc[0])
    return out, f"p/{site_module.page_names([player])[player]}.html"


def test_og_url_is_the_canonical_address_given_a_base_url(big_counts):
    out, _player = big_counts
    for path in [out / "index.html", out / "years.html", *list((out / "p").glob("*.html"))[:3],
                 *list((out / "tournaments").glob("*.html"))[:3]]:  # fmt: skip
        head = _head(path.read_text(encoding="utf-8"))
        canonical = re.search(r'<link rel=canonical href="([^"]+)">', head)
        url = re.search(r'<meta property=og:url content="([^"]+)">', head)
        assert canonical and url and canonical.group(1) == url.group(1), path
        assert url.group(1) == "https://example.org/renju/" + path.relative_to(out).as_posix()


@pytest.mark.browser
def test_a_players_facts_group_counts_as_the_language_does(big_counts, browser):
    """Games, won, drawn, lost and Gy1 of a player's facts: 12,345 in English, Chinese,
    Japanese and Korean, 12 345 (a no-break space) in Russian; ranks and ratings never."""
    out, player = big_counts
    p = new_page(browser, PHONE)
    for language in LANGUAGES:
        _in_language(p, out, language, player)
        games = p.locator(f'dl.facts dt[data-m="{i18n.message_id("Games")}"] + dd').inner_text()
        groups = "\u00a0" if language == "ru" else ","  # written out, not asked of Intl
        for n in BUSY.values():
            assert f"{n:,}".replace(",", groups) in games, (language, games)
            assert str(n) not in games, (language, games)
        assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    check_and_close(p)


@pytest.mark.browser
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_menu_and_search_on_every_page_in_every_language(published, browser, language):
    """The player and tournament pages have the lists' menu and search (they had four links and
    no search): in view on a phone and a desktop, no sideways scroll; the search finds a player
    from any page; the description and Open Graph title are in the page's language."""
    site = support.site_of(published)
    kinds = pages_of(published)
    catalog = i18n.catalog(language) if language != "en" else {}
    ratings = published_table(published, "ratings")
    player = ratings.sort_values("games").iloc[-1]
    for viewport in (PHONE, DESKTOP):
        p = new_page(browser, viewport)
        for kind in ("player", "tournament", "list"):
            _in_language(p, site, language, kinds[kind])
            links = p.eval_on_selector_all(
                "header nav a", "as => as.map(a => [a.getAttribute('href'), a.textContent])"
            )
            root = "../" if "/" in kinds[kind] else ""
            assert [h for h, _t in links] == [root + m for m in MENU], (kind, language)
            if catalog:
                assert links[1][1] == catalog["Players"], (kind, language)
            width = viewport["width"]
            boxes = p.eval_on_selector_all(
                "header nav a, header form.find input",
                "es => es.map(e => { const r = e.getBoundingClientRect();"
                " return [r.left, r.right, r.width]; })",
            )
            assert len(boxes) == len(MENU) + 1 and all(
                a >= 0 and b <= width and w > 0 for a, b, w in boxes
            )
            assert p.evaluate("document.documentElement.scrollWidth") <= width, (kind, language)
            find = p.locator("header form.find input")
            placeholder = catalog.get("Find a player", "Find a player")
            assert find.get_attribute("placeholder") == placeholder
            assert find.get_attribute("aria-label") == placeholder
            description = p.get_attribute("meta[name=description]", "content")
            og = p.get_attribute("meta[property='og:description']", "content")
            assert description == og and len(description) > 20
            if catalog:
                first = frame.description(kinds[kind])
                assert description == catalog[first] % {"game": catalog["Renju"]}, kind
            assert p.get_attribute("meta[property='og:title']", "content") == p.title()
        # the search, from a tournament's page: the players index, searched
        _in_language(p, site, language, kinds["tournament"])
        p.fill("header form.find input", str(player["player"]))
        with p.expect_navigation():
            p.press("header form.find input", "Enter")
        settle(p)
        assert p.url.split("#")[0].endswith("/players.html")
        assert p.input_value("#q") == str(player["player"])
        rows = p.evaluate("() => WHR.view.rowsText()")
        assert rows and all(str(player["player"]) in " ".join(r) for r in rows)
        check_and_close(p)


def test_each_description_has_the_game_as_its_one_value():
    """The page script writes a description in the reader's language from its id and the
    brand's game (frame.DESCRIPTIONS): no other value could be filled in."""
    for message in frame.DESCRIPTIONS.values():
        assert i18n.PLACEHOLDER.findall(message) == ["game"], message
