"""The countries: ``countries.html`` (every country of the current list) and a page per country
(``countries/<code>.html``: the current list of its players, and links to the year-end lists
it is on)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from whr.lists import View
from whr.publish.site.frame import Renderer
from whr.publish.site.lists import ListData, list_page
from whr.publish.site.names import page_names, text
from whr.publish.site.rows import Source


def table(view: View) -> pd.DataFrame:
    """The countries of the current list (:func:`whr.lists.countries`) with their names and
    pages: code, name, page, players, active."""
    countries = view.countries
    codes = countries["country"].astype("str").tolist()
    pages = page_names(codes)
    return pd.DataFrame(
        {
            "code": np.asarray(codes, dtype=object),
            "name": [
                text(n) or c
                for c, n in zip(
                    countries["country"].tolist(), countries["country_name"].tolist(), strict=True
                )
            ],
            "page": [pages[c] for c in codes],
            "players": countries["players"].to_numpy(np.int64),
            "active": countries["active"].to_numpy(np.int64),
        }
    )


def source(countries: pd.DataFrame) -> Source:
    """Countries (code, name, page) as the row filler reads them (``contract.COUNTRIES``)."""
    return Source("countries", {c: countries[c].to_numpy(object) for c in ("code", "name", "page")})


def named(view: View) -> dict[str, str]:
    """Every country the data names, whoever plays there: its players' (listed or not) and its
    tournaments' places, code -> English name (the name the data gives, else the code), for
    the catalogs (``i18n.write_catalogs``). A place the data names without a code is left
    out: the page shows its name as the data gives it."""
    out: dict[str, str] = {}
    for frame in (view.tables.players, view.tables.tournaments, view.countries):
        if "country" not in frame:
            continue
        names = frame["country_name"] if "country_name" in frame else frame["country"]
        for code, name in zip(frame["country"].tolist(), names.tolist(), strict=True):
            code = text(code)
            if code and (code not in out or out[code] == code):
                out[code] = text(name) or code
    return dict(sorted(out.items()))


def write(r: Renderer, current: ListData) -> None:
    site = r.site
    r.render("countries.html", "countries.html", countries=site.countries.to_dict("records"))
    present: dict[str, list[int]] = {}
    for day, lv in site.view.year_end.items():
        for code in lv.frame["country"].dropna().unique().tolist():
            present.setdefault(str(code), []).append(day.year)
    for c in site.countries.to_dict("records"):
        list_page(
            r,
            f"countries/{c['page']}.html",
            current,
            "active",
            country={"code": c["code"], "name": c["name"]},
            country_years=present.get(c["code"], []),
        )
