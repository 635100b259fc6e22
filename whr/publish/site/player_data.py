"""``p/<id>.json`` beside each player page: one player's data, for apps and bots.

One JSON object per listed player (the page's file name, with ``.json``), described in
``docs/data-dictionary.md``: the format version, the list and its day; the player's facts (their
row of the list on D: rating, uncertainty, rank, status, games, best published rating, today's
estimated peak, ...); ``published``, what the lists said (the record, :mod:`whr.lists.record`:
``{date, rating, uncertainty, rank, status}`` per row); ``estimate``, today's whole-history
estimate on each of the player's rating days (``{date, rating, uncertainty}``); ``tournaments``,
with the change the lists gave them at the time (``before``, ``after``, ``change``, the day of
the list, ``list_date``; null where none was kept); ``opponents``, their results against each
opponent over the rated games (wins, draws and losses add up to the list's) with the expected
score from the ratings at the time (the sum over ``expected_games``, the games in which both
ratings were known: all of them, for a player who was on the list before each of their
tournaments with the opponent, when wins + draws / 2 is the score to set against it).

Lean, since there is one per player (tens of thousands at 1M games): ``published`` holds the
record's rows that tell the player's story (:func:`_telling`), not the drift of the best
rating between them; the games themselves (dates, rounds, opponents' ratings) are in the
player's page and in ``games.parquet``.

Written from the view's tables in bulk: every row of a section is made as text by Arrow, the
rows joined per player, then one file per player; no Python object per row.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr.lists.views import positions
from whr.publish.site.frame import Renderer, bounds, days, floats
from whr.tables import FORMAT_VERSION

__all__ = ["write"]

Column = Any
"""A column of JSON text (a pyarrow string array; typed loosely: pyarrow's stubs type its
compute functions' results as scalars or arrays)."""

DECIMALS = 2
"""Decimals of the Elo values (as the CSV files have them)."""


def _text(values: list[Any]) -> Column:
    """Values as JSON text (strings quoted and escaped; None as null)."""
    return pa.array([json.dumps(v, ensure_ascii=False) for v in values], pa.string())


def _numbers(values: np.ndarray, decimals: int | None = DECIMALS) -> Column:
    """Numbers as JSON text: rounded to ``decimals`` (None or 0: integers), null for NaN."""
    a = np.asarray(values, np.float64)
    missing = np.isnan(a)
    if not decimals:
        a = np.rint(a)
        array = pa.array(np.where(missing, 0, a).astype(np.int64), mask=missing)
    else:
        array = pa.array(np.round(np.where(missing, 0.0, a), decimals), mask=missing)
    return pc.cast(array, pa.string()).fill_null("null")


def _dates(day_numbers: np.ndarray) -> Column:
    """Days since 1970-01-01 as quoted ISO dates, null for none (NaT or below the epoch)."""
    d = np.asarray(day_numbers, np.int64)
    missing = d == np.iinfo(np.int64).min
    array = pa.array(np.where(missing, 0, d).astype(np.int32), pa.int32(), mask=missing)
    text: Column = pc.cast(pc.cast(array, pa.date32()), pa.string())
    return pc.binary_join_element_wise('"', text, '"', "").fill_null("null")


def _objects(columns: dict[str, Column]) -> Column:
    """One JSON object per row, from columns of JSON text by key."""
    parts: list[Any] = []
    for k, (key, values) in enumerate(columns.items()):
        parts += [("{" if k == 0 else ",") + json.dumps(key) + ":", values]
    return pc.binary_join_element_wise(*parts, "}", "")


def _per_player(rows: Column, number: np.ndarray, n: int) -> list[str]:
    """The rows (JSON objects, sorted by player ``number``) of each player 0..n-1, as a JSON
    array."""
    starts, ends = bounds(number, 0, n)
    offsets: Column = pa.array(np.append(starts, ends[-1] if n else 0).astype(np.int32))
    joined: Column = pc.binary_join(pa.ListArray.from_arrays(offsets, rows), ",")
    return [f"[{x}]" for x in joined.to_pylist()]


def _sorted(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    return frame.sort_values(by, kind="stable").reset_index(drop=True)


def _telling(kept: pd.DataFrame) -> np.ndarray:
    """The record's rows a player's ``published`` holds (``kept`` by player number ``_n``,
    then day): the first; those whose rated games or status changed; each December 31; the
    first row of the best rating and of the best rank. The other rows of the record, the new
    best ratings and ranks that a later one passed (a rating drifts up on many lists without a
    game), stay in ``record.parquet``: they are most of its rows and would be most of these
    files' bytes."""
    n = kept["_n"].to_numpy(np.int64)
    first = np.r_[True, n[1:] != n[:-1]] if len(n) else np.zeros(0, bool)
    games = kept["games"].to_numpy(np.int64)
    status = kept["status"].to_numpy(object)
    changed = first.copy()
    changed[1:] |= (games[1:] != games[:-1]) | (status[1:] != status[:-1])
    day = days(kept["list_date"]).astype("datetime64[D]")
    year_end = (day + 1).astype("datetime64[Y]") != day.astype("datetime64[Y]")  # December 31
    rating = kept["rating"].to_numpy(np.float64)
    rank = floats(kept["rank"])
    frame = pd.DataFrame({"n": n, "rating": rating, "rank": np.where(np.isnan(rank), np.inf, rank)})
    best = np.zeros(len(n), bool)
    best[frame.groupby("n", sort=False)["rating"].idxmax().to_numpy()] = True
    ranked = frame[np.isfinite(frame["rank"])]
    best[ranked.groupby("n", sort=False)["rank"].idxmin().to_numpy()] = True
    out: np.ndarray = changed | year_end | best
    return out


def write(r: Renderer) -> None:
    """Write ``p/<page>.json`` for every listed player (the pages' names, :class:`Site`)."""
    site, view = r.site, r.site.view
    p = site.players
    n = len(p)
    number = pa.array(p["player"].astype("str").to_numpy(object))
    category = view.category
    head = (
        f'{{"format":{FORMAT_VERSION},"list":{json.dumps(category)},'
        f'"date":"{view.as_of.isoformat()}",'
    )

    # the facts: the player's row of the list on D, by player number
    f = view.current.frame
    at = pd.Index(f["player"].to_numpy(object)).get_indexer(p["player"].to_numpy(object))
    row = f.iloc[at].reset_index(drop=True)
    facts: dict[str, Column] = {
        "id": _text(p["player"].tolist()),
        "name": _text(p["name"].tolist()),
        "native_name": _text([x or None for x in p["native"].tolist()]),
        "country": _text([x or None for x in p["country"].tolist()]),
        "country_name": _text([x or None for x in p["country_name"].tolist()]),
        "city": _text([x or None for x in p["city"].tolist()]),
        "female": _text(p["female"].astype(bool).tolist()),
        "birth_year": _numbers(np.where(p["birth_year"] > 0, p["birth_year"], np.nan), None),
    }
    for column in ("rating", "uncertainty"):
        facts[column] = _numbers(floats(row[column]))
    for column in ("rank", "country_rank"):
        facts[column] = _numbers(floats(row[column]), None)
    facts["status"] = _text(row["status"].tolist())
    for column in ("games", "wins", "draws", "losses", "gy1", "gy2", "gy5"):
        facts[column] = _numbers(floats(row[column]), None)
    for column in ("first_game", "last_game"):
        facts[column] = _dates(days(row[column]))
    for value, day in (("best_rating", "best_date"), ("best_estimate", "best_estimate_date")):
        facts[value] = _numbers(floats(row[value]))
        facts[day] = _dates(days(row[day]))
    facts["rating_change"] = _numbers(floats(row["rating_change"]))
    facts["previous_rank"] = _numbers(floats(row["previous_rank"]), None)
    about: list[str] = _objects(
        facts
    ).to_pylist()  # "{...}" per player; its closing brace dropped below

    # published: what the lists said (the record), by player number, then day
    kept = view.tables.record
    kept = kept.assign(_n=positions(number, kept["player"].astype("str")))
    kept = _sorted(kept[kept["_n"] >= 0], ["_n", "list_date"])
    kept = kept[_telling(kept)]
    published = _per_player(
        _objects(
            {
                "date": _dates(days(kept["list_date"])),
                "rating": _numbers(kept["rating"].to_numpy(np.float64)),
                "uncertainty": _numbers(kept["uncertainty"].to_numpy(np.float64)),
                "rank": _numbers(floats(kept["rank"]), None),
                "status": _text(kept["status"].tolist()),
            }
        ),
        kept["_n"].to_numpy(np.int64),
        n,
    )

    # estimate: today's fit on each rating day (the view's history is by player number, day)
    h = view.history
    estimate = _per_player(
        _objects(
            {
                "date": _dates(days(h["date"])),
                "rating": _numbers(h["rating"].to_numpy(np.float64)),
                "uncertainty": _numbers(h["uncertainty"].to_numpy(np.float64)),
            }
        ),
        h["player"].to_numpy(np.int64),
        n,
    )

    # tournaments: the standings' rows, by player, newest first
    st = view.standings
    order = np.lexsort(
        (
            -st["tournament_id"].to_numpy(np.int64),
            -days(st["last_day"]),
            st["player"].to_numpy(np.int64),
        )
    )
    st = st.iloc[order].reset_index(drop=True)
    t = st["tournament_id"].to_numpy(np.int64)
    t_ids = _text(view.tournaments["tournament_id"].astype("str").tolist())
    t_names = _text([x or None for x in site.tournaments["name"].tolist()])
    listed = st["then_list"].to_numpy("datetime64[D]")
    tournaments = _per_player(
        _objects(
            {
                "id": t_ids.take(pa.array(t)),
                "name": t_names.take(pa.array(t)),
                "last_day": _dates(days(st["last_day"])),
                "games": _numbers(st["games"].to_numpy(np.float64), None),
                "score": _numbers(st["score"].to_numpy(np.float64), 1),
                "performance": _numbers(st["performance"].to_numpy(np.float64), 0),
                "list_date": _dates(
                    np.where(np.isnat(listed), np.iinfo(np.int64).min, listed.astype(np.int64))
                ),
                "before": _numbers(st["then_before"].to_numpy(np.float64)),
                "after": _numbers(st["then_after"].to_numpy(np.float64)),
                "change": _numbers(st["then_change"].to_numpy(np.float64)),
            }
        ),
        st["player"].to_numpy(np.int64),
        n,
    )

    # opponents: head to head, by player, then opponent
    hh = view.head_to_head
    hh = hh[(hh["player"] >= 0) & (hh["opponent"] >= 0)]
    ids = _text(p["player"].tolist())
    opponents = _per_player(
        _objects(
            {
                "player": ids.take(pa.array(hh["opponent"].to_numpy(np.int64))),
                "wins": _numbers(hh["wins"].to_numpy(np.float64), None),
                "draws": _numbers(hh["draws"].to_numpy(np.float64), None),
                "losses": _numbers(hh["losses"].to_numpy(np.float64), None),
                "expected": _numbers(hh["expected"].to_numpy(np.float64)),
                "expected_games": _numbers(hh["expected_games"].to_numpy(np.float64), None),
            }
        ),
        hh["player"].to_numpy(np.int64),
        n,
    )

    pages = p["page"].tolist()
    for i in range(n):
        r.write(
            f"p/{pages[i]}.json",
            f"{head}{about[i][1:-1]},"
            f'"published":{published[i]},"estimate":{estimate[i]},'
            f'"tournaments":{tournaments[i]},"opponents":{opponents[i]}}}\n',
        )
