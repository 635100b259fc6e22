"""The countries: ``countries.html`` (every country of the current list) and a page per country
(``countries/<code>.html``: the current list of its players, and links to the year-end lists
it is on)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from whr.lists import View
from whr.publish.site.frame import Renderer, text
from whr.publish.site.lists import ListData, list_page
from whr.publish.site.names import page_names


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
