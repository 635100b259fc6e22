"""The list pages: the current list (``index.html`` and a page per tab), the year-end lists
(``years/YYYY.html``) and their index (``years.html``), over one data file per list.

A list page is small: its rows are drawn by the page script from the list's data file
(:data:`whr.publish.site.contract.LIST`), only those on screen.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
from markupsafe import Markup, escape

from whr.lists import ListView
from whr.lists.views import positions
from whr.publish.site.contract import CFG, LIST
from whr.publish.site.frame import (
    STATIC_ROWS,
    Renderer,
    Site,
    floats,
    json_arrays,
    long_date,
    signed,
    table_html,
    whole,
)
from whr.publish.site.i18n import _
from whr.tables import STATUSES

TABS = ("active", "gy1", "inactive", "provisional")
TAB_PAGES = {"active": "index.html", **{t: f"{t}.html" for t in TABS[1:]}}
"""The current list's page of each tab."""


@dataclass(frozen=True)
class ListData:
    """One list for its pages: the data file's JSON is made at once, so that only the current
    list keeps its columns (the year ends are many)."""

    list: ListView
    json: str  # the list's data (contract.LIST), the data file's content
    status: np.ndarray  # each row's status code (0, 1, 2: STATUSES' order)
    counts: dict[str, int]  # per tab (active, gy1, inactive, provisional), players, games
    change: bool  # has a change column (there was a previous list)

    @property
    def key(self) -> str:
        return self.list.key

    @property
    def day(self) -> dt.date:
        return self.list.day


def shown_change(rating: np.ndarray, change: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The previous list's rating and the change as the pages show them, from the rating and
    its change (NaN: none): rounded once, the rest derived, so that they add up as shown.

    The rating is shown whole (``np.rint``), the previous list's rating too (as that list
    showed it); the change shown is the one between the two shown ratings, so the list's
    Change, the player page's and the two lists' ratings agree to the point.

    Returns
    -------
    (previous, change) : numpy.ndarray of float
        Whole numbers (NaN where the change is NaN).
    """
    previous = np.rint(rating - change)
    return previous, np.rint(rating) - previous


def columns(lv: ListView) -> dict[str, np.ndarray]:
    """The columns of one list for the page script (:data:`contract.LIST`), by field name."""
    frame = lv.frame
    status = positions(pa.array(STATUSES), frame["status"])
    if (status < 0).any():
        raise ValueError(f"a list's status must be one of {STATUSES}")
    out: dict[str, np.ndarray] = {
        "player": lv.number,
        "rating": floats(frame["rating"]),
        "uncertainty": floats(frame["uncertainty"]),
        "gy1": frame["gy1"].to_numpy(np.int64),
        "gy2": frame["gy2"].to_numpy(np.int64),
        "gy5": frame["gy5"].to_numpy(np.int64),
        "status": status,
        "rank": np.nan_to_num(floats(frame["rank"])),
        "gy1_rank": lv.gy1_rank,
        "previous_rank": np.nan_to_num(floats(frame["previous_rank"])),
    }
    rating = out["rating"]
    _, change = shown_change(rating, floats(frame["rating_change"]))
    if (~np.isnan(change)).any():  # there was a previous list: a null change is a new player
        out["change"] = change
        out["entered"] = np.flatnonzero(lv.entered)
    if lv.gy1_country_rank is not None:  # the current list
        out["games"] = frame["games"].to_numpy(np.int64)
        out["country_rank"] = np.nan_to_num(floats(frame["country_rank"]))
        out["gy1_country_rank"] = lv.gy1_country_rank
    return out


def columns_json(values: dict[str, np.ndarray]) -> str:
    """A list's columns as its data file's JSON object (numbers by :func:`json_arrays`; a
    change of ``null`` is written ``"n"``, a new player; ``entered`` is a list of rows)."""
    texts = dict(zip(values, json_arrays(values.values()), strict=True))
    if "change" in texts:
        texts["change"] = texts["change"].replace("null", '"n"')
    return LIST.text(**texts)


def list_data(lv: ListView) -> ListData:
    values = columns(lv)
    status = values["status"]
    counts = {s: int((status == i).sum()) for i, s in enumerate(STATUSES)}
    counts["gy1"] = int((lv.gy1_rank > 0).sum())
    counts["players"] = len(lv.frame)
    counts["games"] = int(lv.frame["games"].sum()) // 2  # each rated game has two players
    return ListData(lv, columns_json(values), status, counts, "change" in values)


ENTERED = Markup(
    "<span class=entered><span class=s aria-hidden=true>\u2191</span>"
    f"<span class=t>{escape(_('newly ranked'))}</span></span>"
)
"""The "newly ranked" mark before a name, as the page script draws it (and the legend shows
it): its words, shown as an arrow on a phone (the words then stay for screen readers)."""


def player_link(site: Site, p: int, root: str) -> str:
    """Player number ``p``'s name linked to their page, as the page script's ``Players.link``
    writes it (a woman's link marked, the native name as its title)."""
    players = site.player_columns
    female = " class=f" if players["female"][p] else ""
    native = players["native"][p]
    title = f' title="{escape(native)}"' if native else ""
    page = escape(players["page"][p])
    return f'<a href="{root}p/{page}.html"{female}{title}>{escape(players["name"][p])}</a>'


def country_code(site: Site, p: int) -> str:
    """Player number ``p``'s country code as the page script shows it (one of the current
    list's countries, else none)."""
    code = site.player_columns["country"][p]
    return str(escape(code)) if code in site.country_page else ""


def grouped(n: int) -> str:
    """A count as English writes it, ``3,901`` (the page script writes it in the reader's
    language; ratings, ranks, years and ids are never grouped: docs/site.md)."""
    return f"{n:,}"


def static_rows(site: Site, data: ListData, tab: str, country: str | None, root: str) -> Markup:
    """The first rows of a list's tab as HTML (:data:`frame.STATIC_ROWS`), as the page script
    draws them first: the same columns (its ``columns(t)``), marks (new, newly ranked, a
    woman) and numbers, in the same order (by rank on the ranked tabs, the country's rank on a
    country's page; by rating on the others)."""
    lv = data.list
    f = lv.frame
    values = columns(lv)
    mine = np.ones(len(f), bool)
    if country:
        mine = (f["country"] == country).fillna(False).to_numpy(bool)
    ranked = tab in ("active", "gy1")
    if tab == "active":
        rank = values["country_rank"] if country else values["rank"]
        chosen = np.flatnonzero(mine & (data.status == 0))
    elif tab == "gy1":
        rank = values["gy1_country_rank"] if country else values["gy1_rank"]
        chosen = np.flatnonzero(mine & (rank > 0))
    else:
        rank = values["rank"]
        chosen = np.flatnonzero(mine & (data.status == TABS.index(tab) - 1))
    if ranked:  # as the script sorts: the rank ascending, none last, ties in the data's order
        key = np.where(rank[chosen] > 0, rank[chosen], np.inf)
        chosen = chosen[np.argsort(key, kind="stable")]
    else:  # the rating shown, descending
        chosen = chosen[np.argsort(-np.rint(values["rating"][chosen]), kind="stable")]
    chosen = chosen[:STATIC_ROWS]
    # the columns: what matters most first (rank, player, rating, change), then the others
    more: list[tuple[str, np.ndarray]] = []
    if tab == "active" and country:
        more.append((_("World"), values["rank"]))
    elif tab == "active" and data.change:
        more.append((_("Prev."), values["previous_rank"]))
    elif tab == "gy1":
        more.append((_("World"), values["rank"]))
    head = ([(_("Rank"), "n")] if ranked else []) + [(_("Player"), "nm"), (_("Rating"), "n")]
    if data.change:
        head.append((_("Change"), "n"))
    head += [(label, "n") for label, _values in more]
    windows = site.view.rules.windows_years
    head += [("\u00b1", "n u"), *((f"Gy{y}", "n") for y in windows)]
    head += [(_("Country"), ""), (_("BY"), "n")]
    shown_rating = whole(values["rating"][chosen])
    shown_unc = whole(values["uncertainty"][chosen])
    change = values.get("change")
    entered = lv.entered
    new = f"<span class=new>{escape(_('new'))}</span>"
    mark = f"{ENTERED} "
    years = site.players["birth_year"].to_numpy(np.int64)  # 0: not known
    rows = []
    for k, i in enumerate(chosen.tolist()):
        p = int(lv.number[i])
        cells = [rank_text(rank[i])] if ranked else []
        cells.append((mark if entered[i] else "") + player_link(site, p, root))
        cells.append(shown_rating[k])
        if change is not None:
            d = change[i]
            cells.append(new if d != d else signed(d))
        cells += [rank_text(v[i]) for _label, v in more]
        cells.append(shown_unc[k])
        cells += [grouped(int(values[g][i])) for g in ("gy1", "gy2", "gy5")]
        cells += [country_code(site, p), str(years[p]) if years[p] else ""]
        rows.append(cells)
    return table_html(head, rows)


def rank_text(rank: float) -> str:
    """A rank as the lists show it: whole, never grouped; none (0) as nothing."""
    return str(int(rank)) if rank > 0 else ""


def heading(site: Site, day: dt.date, country: str | None = None) -> str:
    if country:
        return _(
            "%(game)s rating list of %(country)s — %(date)s",
            game=site.game,
            country=country,
            date=long_date(day),
        )
    return _("%(game)s world rating list — %(date)s", game=site.game, date=long_date(day))


def list_page(
    r: Renderer,
    path: str,
    data: ListData,
    tab: str,
    *,
    country: dict[str, str] | None = None,
    country_years: list[int] | None = None,
) -> None:
    """One page of a list, on tab ``tab``; of one country's players when ``country`` is given
    (the current list's country pages)."""
    counts: dict[str, int | None] = dict(data.counts)
    if country:
        mine = (data.list.frame["country"] == country["code"]).fillna(False).to_numpy(bool)
        for code, s in enumerate(STATUSES):
            counts[s] = int(((data.status == code) & mine).sum())
        gy1_country_rank = data.list.gy1_country_rank
        assert gy1_country_rank is not None  # the current list's
        counts["gy1"] = int(((gy1_country_rank > 0) & mine).sum())
        counts["players"] = int(mine.sum())
        counts["games"] = None
    root = "../" * path.count("/")
    cfg = CFG.object(
        list=data.key,
        tab=tab,
        country=country["code"] if country else "",
        change=data.change,
        root=root,
    )
    r.render(
        path,
        "list.html",
        static=static_rows(r.site, data, tab, country["code"] if country else None, root),
        entered=ENTERED,
        shown=min(STATIC_ROWS, counts[tab] or 0),
        tab=tab,
        tab_pages=TAB_PAGES if data.key == "current" and not country else None,
        heading=heading(r.site, data.day, country["name"] if country else None),
        day=data.day.isoformat(),
        year=None if data.key == "current" else data.day.year,
        counts=counts,
        cfg=cfg,
        country=country,
        country_years=country_years or [],
        scripts=[r.data_files["players"], r.data_files[f"lists.{data.key}"]],
    )


def _first(site: Site, data: ListData) -> dict[str, str] | None:
    """The No. 1 of a list, for the year-end index."""
    f = data.list.frame
    if not len(f) or pd.isna(f["rank"].iloc[0]):
        return None
    i = int(data.list.number[0])
    return {
        "page": site.players["page"].iloc[i],
        "name": site.players["name"].iloc[i],
        "rating": f"{f['rating'].iloc[0]:.0f}",
    }


def write(r: Renderer, current: ListData) -> None:
    """The current list's pages (its data file first), the year-end lists and their index."""
    site = r.site
    r.data("lists.current", f"list-{site.as_of.isoformat()}", current.json)
    for tab, path in TAB_PAGES.items():
        list_page(r, path, current, tab)
    year_end = {day: list_data(lv) for day, lv in site.view.year_end.items()}
    for day, data in year_end.items():
        r.data(f"lists.{data.key}", f"list-{day.isoformat()}", data.json)
        list_page(r, f"years/{day.year}.html", data, "active")
    r.render(
        "years.html",
        "years.html",
        rows=[
            {
                "year": day.year,
                "day": day.isoformat(),
                "active": data.counts["active"],
                "listed": data.counts["players"],
                "first": _first(site, data),
            }
            for day, data in year_end.items()
        ],
    )
