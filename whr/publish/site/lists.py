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
from whr.publish.site.frame import STATIC_ROWS, Renderer, Site, floats, json_arrays, long_date
from whr.publish.site.i18n import _
from whr.publish.site.rows import FORMATTERS, Context, Source, html, order
from whr.tables import STATUSES

TAB_PAGES = {"active": "index.html", "gy1": "gy1.html", "inactive": "inactive.html",
             "provisional": "provisional.html"}  # fmt: skip
"""The current list's page of each tab (contract's list table)."""


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
        "peak": floats(frame["best_rating"]),
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
    if lv.estimate is not None and lv.kind != "estimate":  # a year end that stood: today's too
        out["estimate"] = np.asarray(lv.estimate, np.float64)
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


def source(site: Site, values: dict[str, np.ndarray]) -> Source:
    """A list's rows for the row filler (``rows.Source``): its columns as the data file holds
    them (whole numbers, ``"n"`` a new player's change), the players they point into."""
    columns: dict[str, object] = {
        k: (np.rint(v) if v.dtype.kind == "f" else v) for k, v in values.items()
    }
    if "change" in values:
        change = np.rint(values["change"]).astype(object)
        change[np.isnan(values["change"])] = "n"
        columns["change"] = change
    return Source("list", columns, {"players": site.players_source}, size=len(values["player"]))


def static_rows(site: Site, data: ListData, tab: str, country: str | None, root: str) -> Markup:
    """The first rows of a list's tab as HTML (:data:`frame.STATIC_ROWS`), as the page script
    draws them first (the declared table, ``contract.tables``: its columns, marks and order);
    of a country's players on its page (the country's table)."""
    table = site.tables["country_list" if country else "list"]
    rows = source(site, columns(data.list))
    mine = None
    if country:
        mine = np.flatnonzero(rows.array("player.country.code") == country)
    part = table.tab(tab)
    ids = order(table, part, rows, mine)[:STATIC_ROWS]
    return html(table, part, rows, ids, Context(root, site.player_columns))


def heading(
    site: Site, day: dt.date, country: dict[str, str] | None = None, year_end: bool = False
) -> Markup:
    game = _(site.game)
    if year_end:  # the list's own day and year: the site's day is said beside it (the footer)
        return _(
            "%(game)s world rating list at the end of %(year)s — %(date)s",
            game=game,
            year=str(day.year),
            date=long_date(day),
        )
    if country:
        name = Markup(f"<span data-c={escape(country['code'])}>{escape(country['name'])}</span>")
        return _(
            "%(game)s rating list of %(country)s — %(date)s",
            game=game,
            country=name,
            date=long_date(day),
        )
    return _("%(game)s world rating list — %(date)s", game=game, date=long_date(day))


def list_page(
    r: Renderer,
    path: str,
    data: ListData,
    tab: str,
    *,
    country: dict[str, str] | None = None,
    country_years: list[int] | None = None,
    neighbours: tuple[int | None, int | None] | None = None,
) -> None:
    """One page of a list, on tab ``tab``; of one country's players when ``country`` is given
    (the current list's country pages); a year-end list's page links the year-end lists before
    and after it (``neighbours``: their years, None at either end)."""
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
    table = r.site.tables["country_list" if country else "list"]
    cfg = CFG.object(
        table=table.name,
        list=data.key,
        tab=tab,
        country=country["code"] if country else None,
        root=root,
    )
    r.render(
        path,
        "list.html",
        static=static_rows(r.site, data, tab, country["code"] if country else None, root),
        table=table,
        shown=min(STATIC_ROWS, counts[tab] or 0),
        tab=tab,
        tab_pages=TAB_PAGES if data.key == "current" and not country else None,
        change=data.change,
        heading=heading(r.site, data.day, country, year_end=data.key != "current"),
        today=long_date(r.site.as_of),
        neighbours=neighbours or (None, None),
        day=data.day.isoformat(),
        heading_day=long_date(data.day),
        year=None if data.key == "current" else data.day.year,
        kind=data.list.kind,
        stood=long_date(data.list.stood) if data.list.stood else "",
        counts=counts,
        cfg=cfg,
        country=country,
        country_years=country_years or [],
        scripts=[r.data_files["players"], r.data_files[f"lists.{data.key}"]],
    )


def _first(site: Site, data: ListData) -> dict[str, Markup | str] | None:
    """The No. 1 of a list, for the year-end index."""
    f = data.list.frame
    if not len(f) or pd.isna(f["rank"].iloc[0]):
        return None
    i = int(data.list.number[0])
    link = FORMATTERS["player"](Context("", site.player_columns), i)  # as the list shows it
    return {"link": Markup(link), "rating": f"{f['rating'].iloc[0]:.0f}"}


def write(r: Renderer, current: ListData) -> None:
    """The current list's pages (its data file first), the year-end lists and their index."""
    site = r.site
    r.data("lists.current", f"list-{site.as_of.isoformat()}", current.json)
    for tab, path in TAB_PAGES.items():
        list_page(r, path, current, tab)
    year_end = {day: list_data(lv) for day, lv in site.view.year_end.items()}
    years = sorted(day.year for day in year_end)
    for day, data in year_end.items():
        r.data(f"lists.{data.key}", f"list-{day.isoformat()}", data.json)
        at = years.index(day.year)  # (the year ends may come newest first)
        around = (years[at - 1] if at else None, years[at + 1] if at + 1 < len(years) else None)
        list_page(r, f"years/{day.year}.html", data, "active", neighbours=around)
    r.render(
        "years.html",
        "years.html",
        rows=[
            {
                "year": day.year,
                "day": day.isoformat(),
                "kind": data.list.kind,
                "active": data.counts["active"],
                "listed": data.counts["players"],
                "first": _first(site, data),
            }
            for day, data in year_end.items()
        ],
    )
