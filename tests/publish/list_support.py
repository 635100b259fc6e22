"""Hand-written lists for the summary tests: a RATINGS table from a few fields."""

from __future__ import annotations

import datetime as dt

import pandas as pd

from whr import tables

D = dt.date(2026, 11, 30)


def ratings(rows: list[dict]) -> pd.DataFrame:
    """A RATINGS table from a few hand-written fields; the rest filled with plain values."""
    base = {
        "list_date": D,
        "rank": None,
        "country_rank": None,
        "native_name": None,
        "country_name": None,
        "female": False,
        "birth_year": None,
        "uncertainty": 50.0,
        "games": 12,
        "wins": 6,
        "draws": 0,
        "losses": 6,
        "gy1": 12,
        "gy2": 12,
        "gy5": 12,
        "first_game": dt.date(2020, 1, 1),
        "last_game": dt.date(2026, 1, 1),
        "best_date": dt.date(2026, 1, 1),
        "best_estimate_date": dt.date(2026, 1, 1),
        "status": "active",
        **dict.fromkeys(tables.CHANGE_COLUMNS),
    }
    if not rows:
        return tables.empty(tables.RATINGS)
    frame = pd.DataFrame(
        [{**base, "best_rating": r["rating"], "best_estimate": r["rating"], **r} for r in rows]
    )
    return tables.conform(frame, tables.RATINGS)
