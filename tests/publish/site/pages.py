"""Helpers of the site's tests: the generated pages read as files, and opened in a real
headless Chromium (Debian's /usr/bin/chromium via Playwright). Screenshots go to tests/artifacts/
(git-ignored)."""

from __future__ import annotations

import http.server
import io
import json
import re
import threading
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
from axe_playwright_python.sync_playwright import Axe
from pypdf import PdfReader

from tests.publish import support
from whr.publish.site import contract, page_names

MARK = support.MARK
D = support.AS_OF
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def new_page(browser, viewport=DESKTOP):
    """A page that records dialogs, script errors and every request that is not a local file."""
    p = browser.new_page(viewport=viewport)
    p.events = {"dialogs": [], "errors": [], "remote": []}
    p.on("dialog", lambda d: (p.events["dialogs"].append(d.message), d.dismiss()))
    p.on("pageerror", lambda e: p.events["errors"].append(str(e)))
    p.on(
        "request",
        lambda r: None if r.url.startswith(LOCAL) else p.events["remote"].append(r.url),
    )
    return p


LOCAL = ("file://", "http://127.0.0.1:", "blob:http://127.0.0.1:", "blob:null/")
"""Where the site's own files come from: a file, or the test's server (:func:`served`); and the
what-if page's worker, a Blob of the page's own script (from the server, or from a file)."""
_SERVERS: dict[Path, str] = {}


def served(site: Path) -> str:
    """The address of ``site`` served by a real HTTP server on 127.0.0.1 (as a static host
    would serve it: a player page fetches its data only so), started once per directory."""
    site = site.resolve()
    if site not in _SERVERS:

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=str(site), **kwargs)

            def log_message(self, *args):  # the tests' output stays readable
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        _SERVERS[site] = f"http://127.0.0.1:{server.server_port}/"
    return _SERVERS[site]


def open_served(page, site: Path, path: str) -> None:
    """Open ``path`` of ``site`` over HTTP (:func:`served`) and wait for the player data's
    drawing when it is a player page."""
    page.goto(served(site) + path)
    settle(page)
    if page.locator("#record[data-json]").count():
        page.wait_for_function(
            "() => !!document.querySelector('#record[data-drawn], #record .none')"
        )
        settle(page)


def check_and_close(p) -> None:
    assert p.events["dialogs"] == [], "a script ran from page content"
    assert p.events["errors"] == []
    assert p.events["remote"] == [], "the site made a network request"
    p.close()


def settle(page) -> None:
    """Wait until the page script has run and the next frame is drawn."""
    page.wait_for_load_state("load")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r)))")


def open_(page, site: Path, path: str) -> None:
    path, _, fragment = path.partition("#")
    page.goto((site / path).as_uri() + (f"#{fragment}" if fragment else ""))
    settle(page)


def all_rows(page) -> list[list[str]]:
    """Every row of the drawn table, as the page script formats it (the screen shows a window)."""
    return page.evaluate("() => WHR.view.rowsText()")


def on_screen(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#list tbody tr[aria-rowindex]",
        "rows => rows.map(r => Array.from(r.cells, c => c.textContent))",
    )


def printed(page) -> list[str]:
    """The page printed to PDF by Chromium (A4, as the stylesheet's @page says): each sheet's text."""
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    return [sheet.extract_text() for sheet in PdfReader(io.BytesIO(pdf)).pages]


def published_table(published: Path, name: str) -> pd.DataFrame:
    return pd.read_parquet(support.entry_of(published) / f"{name}.parquet")


def pages_of(published: Path) -> dict[str, str]:
    """One path of each page type."""
    ratings = published_table(published, "ratings")
    games = published_table(published, "games")
    tournaments = published_table(published, "tournaments")
    year = published_table(published, "year_end")["list_date"].max().year
    players = page_names(ratings["player"])
    countries = page_names(ratings["country"].dropna())
    t_names = page_names([*tournaments["tournament_id"], *games["tournament_id"]])
    biggest = games["tournament_id"].value_counts().index[0]
    busiest = ratings.sort_values("games").iloc[-1]["player"]
    return {
        "list": "index.html",
        "list-gy1": "gy1.html",
        "list-inactive": "inactive.html",
        "list-provisional": "provisional.html",
        "year-end": f"years/{year}.html",
        "years": "years.html",
        "countries": "countries.html",
        "country": f"countries/{countries[ratings['country'].value_counts().index[0]]}.html",
        "players": "players.html",
        "player": f"p/{players[busiest]}.html",
        "tournaments": "tournaments.html",
        "tournament": f"tournaments/{t_names[biggest]}.html",
        "excluded": "excluded.html",
        "top": "top.html",
        "top-women": "top_women.html",
        "about": "about.html",
        "compare": f"compare.html#p={busiest},{ratings['player'].iloc[0]}",
        "whatif": f"whatif.html#g={busiest},{ratings['player'].iloc[0]},1",
    }


AXE = Axe()


def with_axe(page):
    """``page``, axe-core loaded into each document it opens from now on: for a test that runs
    axe on every page it opens (sending axe's half megabyte of script with each run costs
    50 ms more)."""
    page.add_init_script(AXE.axe_script)
    return page


def axe_violations(page, contrast: bool = True) -> list[str]:
    """axe-core's violations on the page as shown (every rule axe runs by default: WCAG 2 A
    and AA, and its best practices), one line each: the rule and the elements. Without
    ``contrast``, all but the colour contrast (two thirds of axe's time)."""
    options: dict = {"resultTypes": ["violations"]}
    if not contrast:
        options["rules"] = {"color-contrast": {"enabled": False}}
    if not page.evaluate("() => typeof axe === 'object'"):  # not loaded by with_axe
        page.evaluate(AXE.axe_script)
    found = page.evaluate("options => axe.run(options)", options)["violations"]
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}" for v in found]


# page types drawn by the template of another (the list's), with other rows
SAME_TEMPLATE = {"list-gy1", "list-inactive", "list-provisional", "year-end", "top-women"}


SIZES = {"phone": PHONE, "desktop": DESKTOP}


def drawn(page) -> list[list[str]]:
    """The rows drawn on screen, each checked to be really shown (displayed, of some height)."""
    heights = page.eval_on_selector_all(
        "#list tbody tr[aria-rowindex]", "rows => rows.map(r => r.getBoundingClientRect().height)"
    )
    assert all(h > 0 for h in heights), heights
    assert page.is_visible("#list") or heights == []
    return on_screen(page)


def search(page, text: str) -> None:
    page.fill("#q", text)
    settle(page)


def in_box(page, table: str, labels: list[str]) -> dict[str, bool]:
    """Whether each heading of ``table`` (by its text) lies wholly inside the table's scroll box."""
    return page.evaluate(
        """([table, labels]) => {
            const t = document.querySelector(table), box = t.closest('.scroll').getBoundingClientRect();
            const out = {};
            for (const th of t.tHead.rows[0].cells) {
                const r = th.getBoundingClientRect(), label = th.textContent.trim();
                if (labels.includes(label)) out[label] = r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
            }
            return out;
        }""",
        [table, labels],
    )


# CSS px between the side margins of an A4 page (210 mm - 2 x 10 mm at 96 px/in), and of a
# landscape one (a crosstable's: 297 mm - 2 x 10 mm)
A4_WIDTH, A4_LANDSCAPE_WIDTH = 718, 1047


def fits_the_paper(page, selector: str, width: int = A4_WIDTH) -> bool:
    """Whether the table laid out for print is no wider than the paper."""
    page.set_viewport_size({"width": width, "height": 1000})
    page.emulate_media(media="print")
    try:
        return page.eval_on_selector(selector, "t => t.getBoundingClientRect().right") <= width
    finally:
        page.emulate_media(media="screen")


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src", "data-json") and value is not None:
                self.urls.append(value)


EVENT = contract.EVENT.script()  # an event row's fields by position (contract.EVENT)


def page_data(html: str, element: str) -> dict:
    """The JSON in a page's ``<script type=application/json id=element>``, which its script
    draws (``player-data`` on a player page, ``cross-data`` on a tournament page)."""
    return json.loads(html.split(f"id={element}>", 1)[1].split("</script>", 1)[0])


class Page(HTMLParser):
    """The links of a page, and the rows (cell texts, <td> only: heading rows are left out)
    of each table by the table's id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self._tables: dict[str, list[list[str]]] = {}
        self._table: list[list[str]] | None = None
        self._cell = False

    @property
    def tables(self) -> dict[str, list[list[str]]]:
        return {k: [row for row in rows if row] for k, rows in self._tables.items()}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(str(a["href"]))
        elif tag == "table":
            self._table = self._tables.setdefault(a.get("id") or f"#{len(self._tables)}", [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
            self._cell = False
        elif tag in ("td", "th") and self._table:
            self._cell = tag == "td"
            if self._cell:
                self._table[-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._table, self._cell = None, False

    def handle_data(self, data: str) -> None:
        if self._cell and self._table and self._table[-1]:
            self._table[-1][-1] = (self._table[-1][-1] + data).strip()


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def shown(rating: float, change: float) -> tuple[int, int]:
    """The previous list's rating and the change as a reader sees them: the two lists' ratings
    rounded, the change their difference."""
    return round(rating - change), round(rating) - round(rating - change)


def visible(path: Path) -> str:
    """A page's text as a reader sees it in English: without its tags (a message's element, a
    value's <var>), its character references read, white space as one space."""
    html = path.read_text(encoding="utf-8")
    html = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    html = re.sub(r"</?(?:td|th|tr|p|li|dt|dd|h\d|br|div|table|thead|tbody)\b[^>]*>", " ", html)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html)))
