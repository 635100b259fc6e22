"""The site in the players' languages (whr/publish/site/i18n.py): complete catalogs, and the
language switch in a real headless Chromium."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from babel.messages.pofile import read_po

from tests.publish import support
from tests.publish.site.conftest import HOSTILE, MONGOLIA
from tests.publish.site.pages import (
    DESKTOP,
    PHONE,
    all_rows,
    axe_violations,
    check_and_close,
    in_box,
    new_page,
    open_,
    open_served,
    pages_of,
    served,
    settle,
)
from whr.lists import RuleNumbers
from whr.publish.site import contract, i18n, page_names
from whr.rules.reasons import REASONS

LANGUAGES = [code for code in i18n.LANGUAGES if code != "en"]
TAG = re.compile(r"<[^>]+>")
SITE_JS = Path(i18n.__file__).parent / "static" / "site.js"


def test_the_pot_holds_exactly_the_messages_extraction_finds():
    """A text added to a template, a page family or a declaration without its message, or a
    message left in the .pot after its text went, fails here (``python -m
    whr.publish.site.i18n`` extracts again)."""
    with open(i18n.POT, "rb") as f:
        pot = {i18n.key(m.id, m.context) for m in read_po(f) if m.id}
    found = set(i18n.extract())
    assert found - pot == set(), "messages not in the .pot"
    assert pot - found == set(), "messages no longer in the site"
    assert {"%(game)s rating", "Players", "No players in this part of the list."} <= found
    # every text the page script writes is declared (contract.py), found by another reading
    # than Babel's: the declaration itself
    declared = {i18n.key(t.message, t.context) for t in declared_texts() if not t.literal}
    assert len(declared) > 80
    assert declared - pot == set()
    # and the script holds no text of its own: no message, no column heading
    script = SITE_JS.read_text(encoding="utf-8")
    literals = set(re.findall(r'"([^"\\\n]*)"', script))
    headings = {t.message for t in declared_texts() if t.message[:1].isupper() and not t.literal}
    assert headings and literals & headings == set(), literals & headings
    assert not re.search(r"\btr\(|label: *\"", script)


def declared_texts() -> list[contract.Text]:
    """Every text of the declarations: the tables' (headings, titles, parts, notes, marks,
    counts) and the script's own, with the texts they hold."""
    out: list[contract.Text] = list(contract.TEXTS.values())
    for table in contract.tables(RULES).values():
        out += [c.head for c in table.columns] + [c.title for c in table.columns if c.title]
        out += [t.label for t in table.tabs] + [t.note for t in table.tabs if t.note]
        out += [m.text for m in table.marks]
        out += [x for x in (table.count, table.shown, table.empty) if x]
    nested = [v for t in out for _k, v in t.values if isinstance(v, contract.Text)]
    return out + nested


RULES = RuleNumbers(dt.date(2021, 8, 8), 30.0)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_translates_every_message_with_its_values(language):
    with open(i18n.POT, "rb") as f:
        pot = [i18n.key(m.id, m.context) for m in read_po(f) if m.id]
    with open(i18n.LOCALE / f"{language}.po", "rb") as f:
        po = {i18n.key(m.id, m.context): m for m in read_po(f, locale=language) if m.id}
    assert po.keys() == set(pot)
    for k in pot:
        m, msgid = po[k], po[k].id
        assert m.string and not m.fuzzy, f"{language}: {msgid!r} is not translated"
        values = sorted(i18n.PLACEHOLDER.findall(msgid))
        assert sorted(set(i18n.PLACEHOLDER.findall(m.string))) == sorted(set(values)), msgid
        words = i18n.PLACEHOLDER.sub("", msgid)
        assert m.string != msgid or msgid in {"ID"} or not re.search("[a-z]{3}", words), (
            f"{language}: {msgid!r} is left in English"
        )
        # a paragraph's links and emphasis are in its message: the translation keeps each tag
        # as it is (the links must keep working), and no value inside a tag
        assert sorted(TAG.findall(m.string)) == sorted(TAG.findall(msgid)), msgid
        assert not i18n.IN_TAG.search(m.string), msgid
        # a % is %% in every message (Jinja2 formats each template's message); no braces
        # (the page script's catalog numbers the values {0}, {1}, ...)
        assert not re.search(r"%(?!\(\w+\)s|%)", m.string.replace("%%", "")), msgid
        assert "{" not in m.string and "}" not in m.string, msgid
    catalog = i18n.catalog(language)
    assert catalog["Renju"] == {"zh": "连珠", "ru": "рэндзю", "ja": "連珠", "ko": "렌주"}[language]


def test_message_ids_are_distinct_and_the_catalogs_fill_values_in_the_english_order():
    with open(i18n.POT, "rb") as f:
        keys = [(str(m.id), m.context) for m in read_po(f) if m.id]
    ids = [i18n.message_id(m, c) for m, c in keys]
    assert len(set(ids)) == len(ids) and all(re.fullmatch(r"[\w-]{5}", x) for x in ids)
    # the values come as the English has them; the translation says where each goes
    message = "%(n)s of %(total)s shown"
    assert i18n.positional(message, "%(total)s 中 %(n)s") == "{1} 中 {0}"
    assert i18n.positional("%(a)s & %(a)s", "%(a)s < %(a)s") == "{0} &lt; {0}"
    with pytest.raises(ValueError, match="inside a tag"):
        i18n.html_of('<a href="%(x)s">x</a>')


def test_the_page_script_is_given_the_languages_of_the_catalogs():
    """The one list of languages (i18n.LANGUAGES): a catalog each, and the script's switch is
    written from it (adding a language is a line there and its .po)."""
    given = contract.declaration(RULES)["L"]
    assert [x["code"] for x in given] == list(i18n.LANGUAGES)
    for x in given:
        language = i18n.LANGUAGES[x["code"]]
        assert (x["name"], x["lang"]) == (language.name, language.html)
        assert x["code"] == "en" or (i18n.LOCALE / f"{x['code']}.po").is_file()
    script = SITE_JS.read_text(encoding="utf-8")
    assert not any(f'"{lang.name}"' in script for lang in i18n.LANGUAGES.values())


def test_country_names_come_in_each_language():
    """The list's codes are RenjuNet's (IOC style: LAT, TPE, GER); ISO 3166 names in each
    language, the sport's name where the list uses it."""
    codes = ["RUS", "JPN", "LAT", "GER", "TPE", "XXX"]
    names = ["Russia", "Japan", "Latvia", "Germany", "Chinese Taipei", "Nowhere"]
    assert i18n.countries("zh", codes, names) == {
        "RUS": "俄罗斯", "JPN": "日本", "LAT": "拉脱维亚", "GER": "德国", "TPE": "中华台北"
    }  # fmt: skip
    assert i18n.countries("ru", ["BLR", "RUS"], ["Belarus", "Russia"]) == {
        "BLR": "Беларусь",
        "RUS": "Россия",
    }
    assert i18n.countries("ja", ["EST"], ["Estonia"]) == {"EST": "エストニア"}
    # a country only tournaments name (Mongolia), and an ISO code the codes file lacks
    assert i18n.countries("ru", ["MGL", "MNG"], ["Mongolia", "Mongolia"]) == {
        "MGL": "Монголия",
        "MNG": "Монголия",
    }
    assert i18n.countries("zh", ["toString", "__proto__"], ["x", "y"]) == {}


def test_native_names_get_the_lang_of_their_script_and_country():
    assert i18n.native_lang("中村茂", "JPN") == "ja"
    assert i18n.native_lang("なかむら", "CHN") == "ja"  # kana: Japanese wherever the player is
    assert i18n.native_lang("曹冬", "CHN") == "zh-Hans"
    assert i18n.native_lang("Мельников", "RUS") == "ru"
    assert i18n.native_lang("Õunapuu", "EST") == "et"
    assert i18n.native_lang("Smith", "USA") == ""  # not known: no lang rather than a wrong one


def switch_to(page, language: str) -> None:
    with page.expect_navigation():  # the page again, in the language
        page.select_option("header select.lang", language)
    settle(page)


@pytest.mark.browser
def test_the_language_switch_keeps_the_page_and_is_remembered(published, browser, artifacts):
    from tests.publish.support import site_of

    site = site_of(published)
    for viewport in (PHONE, DESKTOP):
        p = new_page(browser, viewport)
        p.goto(served(site) + "index.html" + "#t=inactive")
        settle(p)
        assert p.locator("html").get_attribute("lang") == "en"
        english_rows = p.evaluate("() => WHR.view.rowsText().length")
        for language in LANGUAGES:
            switch_to(p, language)
            assert p.url.endswith("index.html#t=inactive"), "the switch keeps the page"
            assert p.locator("html").get_attribute("lang") == i18n.LANGUAGES[language].html
            nav = p.locator("header nav").inner_text()
            catalog = i18n.catalog(language)
            assert catalog["Players"] in nav and "Players" not in nav
            assert catalog["Inactive"] in p.locator("#tabs").inner_text()
            heads = p.locator("#list thead").inner_text()
            assert catalog["Player"] in heads and catalog["Rating"] in heads
            assert p.evaluate("() => WHR.view.rowsText().length") == english_rows
            h1 = p.locator("h1").inner_text()
            assert catalog["Renju"] in h1 and "November" not in h1
            assert "2026" in h1
            assert p.title().endswith(catalog["%(game)s rating"] % {"game": catalog["Renju"]})
            assert p.locator("select.lang option[selected], select.lang").first.input_value() == (
                language
            )
            assert axe_violations(p) == [], language
            size = "phone" if viewport is PHONE else "desktop"
            assert fits(p, viewport), f"the list in {language} at {size}"
            p.screenshot(path=str(artifacts / f"i18n-list-{language}-{size}.png"))
            # remembered on the next page: a player's page
            href = p.locator("#list tbody a").first.get_attribute("href")
            p.goto(served(site) + href)
            p.wait_for_selector("#record figure")  # (the player's data, fetched)
            settle(p)
            assert p.locator("html").get_attribute("lang") == i18n.LANGUAGES[language].html
            assert catalog["Rating history"] in p.locator("#record h2").first.inner_text()
            assert catalog["Tournament"] in p.locator("#events thead").inner_text()
            assert axe_violations(p) == [], language
            assert fits(p, viewport), f"a player page in {language} at {size}"
            p.screenshot(path=str(artifacts / f"i18n-player-{language}-{size}.png"))
            if viewport is DESKTOP:
                other_pages(p, site, language)
            p.goto(served(site) + "index.html" + "#t=inactive")
            settle(p)
        switch_to(p, "en")
        assert p.locator("html").get_attribute("lang") == "en"
        assert "Players" in p.locator("header nav").inner_text()
        check_and_close(p)


def fits(p, viewport: dict) -> bool:
    """Whether the page is no wider than the screen (it does not scroll sideways)."""
    return p.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def other_pages(p, site: Path, language: str) -> None:
    """The countries, a plain index, a tournament, the not-rated and top pages in ``language``
    (remembered)."""
    catalog = i18n.catalog(language)
    p.goto(served(site) + "countries.html")
    settle(p)
    assert p.locator("html").get_attribute("lang") == i18n.LANGUAGES[language].html
    local = i18n.countries(language, ["RUS", "EST"], ["Russia", "Estonia"])
    assert local["EST"] in p.locator("main").inner_text()
    names = p.eval_on_selector_all(
        "table[data-by-name] tbody tr", "rows => rows.map(r => r.cells[0].textContent)"
    )  # in the order of the language (the browser's collation)
    assert len(names) > 1 and names == p.evaluate(
        "ns => ns.slice().sort(new Intl.Collator(document.documentElement.lang).compare)", names
    )
    href = p.locator("header nav a", has_text=catalog["Tournaments"]).get_attribute("href")
    p.goto(served(site) + href)
    settle(p)
    places = p.evaluate(  # the tournaments' places: no country left in English
        "label => { const k = WHR.view.cols.map(c => c.label).indexOf(label);"
        " return WHR.view.rowsText().map(r => r[k]); }",
        catalog["Place"],
    )
    data = support.read_data(site, "tournaments")["countries"]  # the places' countries
    local = i18n.countries(language, data["code"], data["name"])
    english = {n for c, n in zip(data["code"], data["name"], strict=True) if c in local}
    assert english and places and not [x for x in places if re.split(", |，|、", x)[-1] in english]
    first = p.locator("#list tbody a").first.get_attribute("href")
    p.goto(served(site) + first)
    settle(p)
    assert catalog["Standings"] in p.locator("main h2").first.inner_text()
    country = p.locator("dl.facts dd [data-c]")  # the place's country, in the language
    assert country.count() == 1 and re.search(r"[^\x00-\x7f]", country.inner_text()), (
        country.all_inner_texts()
    )
    legend = catalog[
        "Opponent's #, + won, = drawn, − lost, /b Black, /w White "
        '(<a href="../about.html#tournaments">more</a>)'
    ]
    assert re.sub(r"<[^>]+>", "", legend) == p.locator("main p.meta").first.inner_text()
    assert catalog[i18n.key("Place", "standings")] in p.locator("#cross thead").inner_text()
    p.goto(served(site) + "excluded.html")
    settle(p)
    meanings = p.locator("main table.plain tbody").inner_text()
    reasons = list(REASONS.values())
    assert any(catalog[m] in meanings for m in reasons)
    assert not any(m in meanings for m in reasons), "a reason's meaning left in English"
    p.goto(served(site) + "top.html")
    settle(p)
    assert p.locator("main h1").inner_text() == catalog["History of the top players"]
    assert f"({catalog['current']})" in p.locator("table.top").inner_text()
    p.goto(served(site) + "index/players-1.html")  # a plain index page's heading
    settle(p)
    heading = p.locator("main h1").inner_text()
    assert heading.startswith(catalog["Players by ID"]) and " of " not in heading, heading


def in_language(browser, language: str, viewport: dict):
    """A page whose reader chose ``language`` (remembered as the switch remembers it)."""
    p = new_page(browser, viewport)
    p.add_init_script(f"try {{ localStorage.setItem('whr.lang', '{language}'); }} catch (e) {{}}")
    return p


# a count as each language groups digits (written out here, not asked of Intl)
GROUPED = {"en": "12,345", "zh": "12,345", "ja": "12,345", "ko": "12,345", "ru": "12\u00a0345"}


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_the_drawn_tables_group_counts_as_the_language_does(published, browser, language):
    """A count of 12,345 in the drawn list (Gy5), players index (Games) and tournaments index
    (Rated games) is written as the language groups digits; ratings and ranks are never
    grouped, as the page without script writes them; and the page's English counts."""
    from tests.publish.support import site_of

    site = site_of(published)
    words = {"en": {}, **{c: i18n.catalog(c) for c in LANGUAGES}}[language]
    p = in_language(browser, language, DESKTOP)
    for path, data, column in (
        ("index.html", "WHR.lists.current[WHR_DECLARATION.F.list.gy5]", "Gy5"),
        ("players.html", "WHR.lists.current[WHR_DECLARATION.F.list.games]", "Games"),
        ("tournaments.html", "WHR.tournaments[WHR_DECLARATION.F.tournaments.games]", "Rated games"),
    ):
        p.goto((site / path).as_uri())
        settle(p)
        assert p.locator("html").get_attribute("lang") == i18n.LANGUAGES[language].html
        labels = p.evaluate("WHR.view.cols.map(c => c.label)")
        before = p.evaluate("WHR.view.rowsText()")[0]
        # the first row's count set to 12345 (the players index's row i: the list's row of
        # player i)
        row = p.evaluate(
            f"""() => {{
              const at = WHR.view.ids[0];  // (the players index's rows: the list's)
              {data}[at] = 12345;
              return WHR.view.rowsText()[0];
            }}"""
        )
        assert row[labels.index(words.get(column, column))] == GROUPED[language], (path, row)
        if path == "players.html":  # the status in the language
            status = row[labels.index(words.get("Status", "Status"))]
            assert status in [
                words.get(s, s)
                for s in ("established, active", "established, inactive", "provisional")
            ]
        for number in ("Rating", "Rank"):
            if words.get(number, number) in labels:
                k = labels.index(words.get(number, number))
                assert re.fullmatch(r"\d*", row[k]) and row[k] == before[k], (path, row)
    # an English count of the page's text (the list's games, the country's players) swapped
    assert p.evaluate("WHR_I18N.group(12345)") == GROUPED[language]
    check_and_close(p)


@pytest.mark.browser
def test_a_phone_shows_what_matters_in_every_language(changed, browser):
    """With Chinese, Japanese and Russian headings (and CJK glyphs' widths): a list's rank,
    player, rating and change, and a player's tournament, score, the change at the time and
    the change, inside the table's box on a phone; no page wider than the phone."""

    site, snapshot = changed
    ratings = snapshot.tables.ratings
    busiest = ratings.sort_values("games").iloc[-1]["player"]
    player = f"p/{page_names(ratings['player'])[busiest]}.html"
    for language in LANGUAGES:
        words = i18n.catalog(language)
        p = in_language(browser, language, PHONE)
        for path, table, want in (
            ("index.html", "#list", ["Rank", "Player", "Rating", "Change"]),
            (player, "#events table", ["Tournament", "Score", "At the time"]),
        ):
            open_served(p, site, path)
            shown = [words[w] for w in want]
            assert in_box(p, table, shown) == dict.fromkeys(shown, True), (language, path)
            assert fits(p, PHONE), (language, path)
            if path == "index.html":  # the drawn mark's words in the language, as the legend's
                # (on a phone an arrow shows, the words are read: test_browser_story)
                mark = p.locator("#list td.nm .entered .t").first.text_content()
                legend = p.locator("p.legend .entered .t").text_content()
                assert mark == words["newly ranked"] == legend
        check_and_close(p)


ENGLISH_LEFT = """() => {
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), left = [];
  for (let n; (n = walk.nextNode()); ) {
    if (n.parentElement.closest('[lang="en"]:not(html), script, style, code, [translate=no]')) continue;
    if (/[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}/.test(n.nodeValue)) left.push(n.nodeValue.trim());
  }
  return left;
}"""
"""The texts of the page with three English words in a row, outside what is marked English."""
PROSE = """() => Array.from(document.querySelectorAll("main p, main li, main h1, main h2"),
  e => e.textContent)"""
LINKS = """() => Array.from(document.querySelectorAll("main a"), a => a.getAttribute("href"))"""


@pytest.mark.browser
def test_about_and_archive_pages_are_translated_with_their_values_and_links(published, browser):
    """Each paragraph of the about page and of an archive day's page is one message with its
    values and links (the rules' numbers, the dates): in each language no English sentence is
    left outside what is marked English, every number of the English paragraph is in the
    translated one, the links are the same and lead to files, and axe finds nothing."""
    from tests.publish.support import entry_of, site_of

    site = site_of(published)
    pages = [site / "about.html", entry_of(published) / "index.html"]
    english = {}
    p = new_page(browser, DESKTOP)
    for path in pages:
        p.goto(path.as_uri())
        settle(p)
        english[path] = (p.evaluate(PROSE), p.evaluate(LINKS), p.evaluate(ENGLISH_LEFT))
        assert len(english[path][2]) > 5  # the test finds English where there is some
        for href in english[path][1]:  # every link leads to a file of the site
            target = href.split("#")[0]
            assert not target or (path.parent / target).resolve().exists(), (path, href)
    assert any("12.9" in x for x in english[pages[0]][0])  # w², one of the values
    for language in LANGUAGES:
        p.evaluate(f"localStorage.setItem('whr.lang', '{language}')")
        for path in pages:
            p.goto(path.as_uri())
            settle(p)
            assert p.locator("html").get_attribute("lang") == i18n.LANGUAGES[language].html
            assert p.evaluate(ENGLISH_LEFT) == [], (language, path.name)
            prose, links, _english = english[path]
            shown = p.evaluate(PROSE)
            assert len(shown) == len(prose)
            for before, after in zip(prose, shown, strict=True):
                numbers = re.findall(r"\d+(?:\.\d+)?", before)
                assert all(n in re.findall(r"\d+(?:\.\d+)?", after) for n in numbers), (
                    language,
                    before,
                    after,
                )
            assert sorted(p.evaluate(LINKS)) == sorted(links), (language, path.name)
            # the colours are the English page's (test_browser): all but the contrast
            assert axe_violations(p, contrast=False) == [], (language, path.name)
    p.evaluate("localStorage.removeItem('whr.lang')")
    check_and_close(p)


SHOWN_TEXT = """() => {
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), out = [];
  for (let n; (n = walk.nextNode()); ) {
    if (n.parentElement.closest('[lang="en"]:not(html), script, style, code, [translate=no]')) continue;
    if (n.parentElement.closest('[hidden]') || !n.parentElement.getClientRects().length) continue;
    out.push(n.nodeValue);
  }
  return out.join(" ").replace(/\\s+/g, " ");
}"""
"""The page's text as shown, outside what is marked English (the manifest's own keys, a rule's
message no catalog has, code)."""


def english_sentences(language: str) -> list[str]:
    """The English of every message ``language`` translates, in pieces of three words or more
    (between its values and tags): a piece on a page in ``language`` is English left in it."""
    out = set()
    for k, translation in i18n.catalog(language).items():
        message = k.rpartition(i18n.CONTEXT)[2].replace("%%", "%")
        if translation.replace("%%", "%") == message:
            continue
        for piece in re.split(r"%\(\w+\)s|<[^>]+>", message):
            piece = piece.strip(" .,:;()")
            if len(piece.split()) >= 3 and piece not in translation:  # (not names it keeps)
                out.add(piece)
    return sorted(out)


@pytest.mark.browser
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_hostile_site_in_every_language(hostile, browser, language):
    """Players named as JavaScript's own properties (valueOf, __proto__, constructor, toString)
    and as the catalog's words, a country code toString, a tournament named __proto__, one in
    Mongolia (no player is from there): every page type draws in the language with no script
    error, nothing of JavaScript's on screen ([object, native code, NaN, undefined), no English
    sentence that has a translation, the hostile names as they are, Mongolia in the language."""
    site = support.site_of(hostile)
    pages = pages_of(hostile)
    pages["index"] = "index/players-1.html"
    pages["index-tournaments"] = "index/tournaments-1.html"
    pages["archive"] = "../archive.html"
    pages["archive-day"] = f"../archive/renju/{support.AS_OF.isoformat()}/index.html"
    english = english_sentences(language)
    mongolia = i18n.countries(language, ["MGL"], ["Mongolia"])["MGL"]
    p = in_language(browser, language, DESKTOP)
    for kind, path in pages.items():
        open_(p, site, path)
        assert p.locator("html").get_attribute("lang") == i18n.LANGUAGES[language].html, kind
        text = p.evaluate(SHOWN_TEXT)
        for bad in ("[object", "native code", "NaN", "undefined"):
            assert bad not in text, (kind, bad)
        left = [piece for piece in english if piece in text]
        assert left == [], (kind, left)
    # the hostile names as they are, on the list and the players index
    open_(p, site, "players.html")
    names = {row[1] for row in all_rows(p)}
    assert set(HOSTILE.values()) <= names
    codes = p.evaluate("Array.from(document.querySelectorAll('#c option'), o => o.value)")
    assert "toString" in codes
    # their pages as a static host serves them: chart, games and head to head drawn from
    # p/<id>.json, the names as they are
    data = support.read_data(site, "players")
    hostile_ids = [
        i for i, n in zip(data["id"], data["name"], strict=True) if n in HOSTILE.values()
    ]
    met = set()
    for player, page in page_names(hostile_ids).items():
        open_served(p, site, f"p/{page}.html")
        assert p.locator("#opponents tbody tr").count() > 0, player
        text = p.evaluate(SHOWN_TEXT)
        for bad in ("[object", "native code", "NaN", "undefined"):
            assert bad not in text, (player, bad)
        assert [piece for piece in english if piece in text] == [], player
        met |= set(p.eval_on_selector_all("#opponents td.op a", "a => a.map(x => x.textContent)"))
    assert met & set(HOSTILE.values())  # hostile names among the opponents, as text
    chosen = hostile_ids[:5]
    p.goto(served(site) + "compare.html#p=" + ",".join(quote(x, safe="") for x in chosen))
    p.wait_for_selector("#compare-chart svg[data-drawn]")
    legend = p.eval_on_selector_all("#compare-chart .legend li", "l => l.map(x => x.textContent)")
    assert legend == [data["name"][data["id"].index(x)] for x in chosen]
    text = p.evaluate(SHOWN_TEXT)
    assert not [bad for bad in ("[object", "native code", "NaN", "undefined") if bad in text]
    # Mongolia in the language: the tournament's page and the tournaments index
    open_(p, site, "tournaments.html")
    places = [row[1] for row in all_rows(p)]
    where = i18n.catalog(language)[i18n.PLACE] % {"city": MONGOLIA[2], "country": mongolia}
    assert where in places and not any("Mongolia" in x for x in places)
    tournaments = support.read_data(site, "tournaments")
    k = next(i for i, c in enumerate(tournaments["co"]) if c >= 0 and
             tournaments["countries"]["code"][c] == "MGL")  # fmt: skip
    open_(p, site, f"tournaments/{tournaments['pg'][k]}.html")
    assert p.locator("dl.facts [data-c=MGL]").inner_text() == mongolia
    check_and_close(p)


# --- punctuation: each language's own marks where code joins texts (issue 30) -------------------


def test_russian_names_the_united_states_with_a_capital():
    assert i18n.countries("ru", ["USA"], ["United States"]) == {"USA": "Соединённые Штаты"}


# the marks code joins texts with, in each language: a list, a place, a count after a name
JOINS = {
    "en": (", ", ", ", " ("), "ru": (", ", ", ", " ("), "ko": (", ", ", ", " ("),
    "zh": ("、", "，", "（"), "ja": ("、", "、", "（"),
}  # fmt: skip


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_code_joins_texts_with_the_languages_own_punctuation(changed, browser, language):
    """Where code joins texts (a list of parts found, a place, a country's count in the menu,
    the legend's and the download's sentences, a player's place), Chinese and Japanese get
    their full-width marks (、，（）：；。), never ASCII ", " ": " "; " or " ("; the "new" mark is
    upright in Chinese, Japanese and Korean; why a game is not rated is read whole on a phone."""
    site, snapshot = changed
    listed, place, count = JOINS[language]
    cjk = language in ("zh", "ja")
    p = in_language(browser, language, PHONE)
    p.goto((site / "index.html").as_uri() + "#q=a")
    settle(p)
    found = p.locator("#shown").inner_text()
    assert listed.strip() in found, found
    legend, download = p.locator("p.legend").inner_text(), p.locator("p.dl").inner_text()
    options = p.eval_on_selector_all("#c option", "os => os.slice(1).map(o => o.textContent)")
    assert options and all(count in o and o.endswith(")" if not cjk else "）") for o in options)
    new = p.eval_on_selector("p.legend .new", "e => getComputedStyle(e).fontStyle")
    assert new == ("normal" if language in ("zh", "ja", "ko") else "italic")
    if cjk:
        for text in (found, legend, download, *options):
            assert not re.search(r"[,:;] |\(\d", text), (language, text)
        assert "Parquet。" in download, download
        assert "Gy1、Gy2、Gy5" in legend
    p.goto((site / "tournaments.html").as_uri())
    settle(p)
    places = p.eval_on_selector_all("#list tbody td", "ts => ts.map(t => t.textContent)")
    assert any(place in x for x in places), (language, places[:8])
    if cjk:
        assert not [x for x in places if ", " in x]
    p.goto((site / "about.html").as_uri())
    settle(p)
    assert f"1{listed}2" in p.locator("main").inner_text()
    ratings, players = snapshot.tables.ratings, snapshot.tables.players  # a player's place
    where = players.loc[players["city"].notna() & players["country"].notna(), "player_id"]
    first = next(x for x in ratings["player"] if x in set(where))
    p.goto((site / f"p/{page_names(ratings['player'])[first]}.html").as_uri())
    settle(p)
    assert place in p.locator("dl.facts dd").nth(1).inner_text()
    p.goto((site / "excluded.html").as_uri())
    settle(p)
    cut = p.eval_on_selector_all(
        "#list tbody td.why span",
        "ss => ss.filter(s => { const r = s.getBoundingClientRect(), c = s.closest('td').getBoundingClientRect();"
        " return r.width > 0 && (r.right > c.right + 1 || s.scrollWidth > s.clientWidth + 1); }).length",
    )
    whole = p.eval_on_selector_all(
        "#list tbody td.why", "ts => ts.filter(t => t.scrollWidth > t.clientWidth + 1).length"
    )
    assert p.locator("#list tbody td.why").count() > 0
    assert cut == 0 and whole == 0, (language, cut, whole)
    assert fits(p, PHONE)
    check_and_close(p)
