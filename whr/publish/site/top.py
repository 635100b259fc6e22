"""The top players: ``top.html`` and ``top_women.html``, the rating histories of the players
who ranked near the top of any list (:attr:`whr.lists.View.top`) and the top five of each
list."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

import numpy as np
import pandas as pd
from markupsafe import Markup

from whr.lists import TOP_PLACES, TOP_WITHIN_ELO
from whr.publish.site.contract import CHART, SERIES
from whr.publish.site.frame import Renderer, days
from whr.publish.site.rows import FORMATTERS, Context

MAX_TOP_SERIES = 20  # players drawn on the top-players chart


def write(r: Renderer, women: bool = False) -> None:
    site = r.site
    view = site.view
    top = view.top_women if women else view.top
    number = pd.Index(site.players["player"])
    h = view.history
    series = []
    for player in top.players[:MAX_TOP_SERIES]:
        i = int(number.get_loc(player))
        rows = h.loc[h["player"].to_numpy() == i]
        series.append(
            SERIES.object(
                name=site.players["name"].iloc[i],
                href=f"p/{site.players['page'].iloc[i]}.html",
                day=days(rows["date"]).tolist(),
                rating=np.round(rows["rating"].to_numpy(float), 1).tolist(),
            )
        )
    table = []
    ctx = Context("", site.player_columns)  # names as the lists show them: a woman marked
    for key, part in top.five.groupby("list_date", sort=False):
        day = cast(dt.date, key)
        cells: list[dict[str, Any]] = []
        for x in part.to_dict("records"):
            i = int(number.get_loc(str(x["player"])))
            cells.append(
                {
                    "link": Markup(FORMATTERS["player"](ctx, i)),
                    "rating": f"{x['rating']:.0f}",
                    "tie": int(x["rank"]) != len(cells) + 1,
                }
            )
        table.append(
            {
                "day": day.isoformat(),
                "current": day == site.as_of,
                "cells": cells,
                "empty": max(0, 5 - len(cells)),
            }
        )
    r.render(
        "top_women.html" if women else "top.html",
        "top.html",
        chart=CHART.object(series=series),
        table=table,
        women=women,
        top_places=TOP_PLACES,
        top_within=f"{TOP_WITHIN_ELO:g}",
    )
