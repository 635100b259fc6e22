"""``p/<id>.json`` beside each player page: one player's data, for apps and bots.

One JSON object per listed player (the page's file name, with ``.json``), described in
``docs/data-dictionary.md``: the format version, the list and its day, the first list this site
published (``published_from``: the lists before it were reconstructed by the backfill); the
player's facts (their row of the list on D: rating, uncertainty, rank, status, rated games,
best published rating, today's estimated peak, ...); ``published``, what the lists said (the
record, :mod:`whr.lists.record`): each rating as shown (whole Elo) with the day of the list
that first showed it, so that the rating of any list is that of the last row on or before its
day; ``estimate``, today's whole-history estimate on each of the player's rating days
(``{date, rating, uncertainty}``); ``tournaments``, with the change the lists gave them at the
time (``before``, ``after``, ``change``, the day of the list, ``list_date``; null where none was
kept); ``games``, with the opponent's rating at the time (on the list just before the
tournament was first rated) and today's estimate of it; ``opponents``, their results against
each opponent over the rated games (wins, draws and losses add up to the list's) with the
expected score from the ratings at the time (the sum over ``expected_games``, the games in
which both ratings were known: all of them, for a player who was on the list before each of
their tournaments with the opponent, when wins + draws / 2 is the score to set against it).
No key is repeated (the count of rated games is ``rated_games``; ``games`` the section).

Lean, since there is one per player (tens of thousands at 1M games): ``published`` holds the
record's rows where the rating shown changed (:func:`_steps`), the rest of the record (ranks,
statuses, uncertainties) is in ``record.parquet``.

Written in chunks of players, by the page workers (:class:`whr.publish.site.frame.Pages`): the
view's tables are sorted by player once, as plain arrays; for each chunk, every row of a
section is made as text by Arrow and the rows joined per player (no Python object per row, and
only one chunk's text at a time).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr.lists.views import positions
from whr.publish.parquet import rounded
from whr.publish.site.contract import (
    P_ESTIMATE,
    P_FILE,
    P_GAMES,
    P_OPPONENTS,
    P_PUBLISHED,
    P_TOURNAMENTS,
    Payload,
)
from whr.publish.site.frame import Family, Renderer, Stencil, bounds, days, floats
from whr.tables import FORMAT_VERSION

__all__ = ["event_order", "game_order", "pages"]

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
    array: pa.Array[Any]
    if not decimals:
        array = pa.array(np.where(missing, 0, np.rint(a)).astype(np.int64), mask=missing)
    else:
        floats = pa.chunked_array([pa.array(np.where(missing, 0.0, a), mask=missing)])
        array = rounded(floats, decimals).combine_chunks()  # never -0
    return pc.cast(array, pa.string()).fill_null("null")


NO_DAY = np.iinfo(np.int64).min
"""A missing day, as days since 1970-01-01 (NaT's integer)."""


def _dates(day_numbers: np.ndarray) -> Column:
    """Days since 1970-01-01 as quoted ISO dates, null for none (:data:`NO_DAY`)."""
    d = np.asarray(day_numbers, np.int64)
    missing = d == NO_DAY
    array = pa.array(np.where(missing, 0, d).astype(np.int32), pa.int32(), mask=missing)
    text: Column = pc.cast(pc.cast(array, pa.date32()), pa.string())
    return pc.binary_join_element_wise('"', text, '"', "").fill_null("null")


class Section:
    """One array of a player's JSON: its rows sorted by player number (``number``), each an
    object of ``fields``: ``(key, kind, values)``, where kind is ``"number"`` (with the
    decimals as ``"number:0"``...), ``"integer"``, ``"date"`` (days since 1970-01-01) or
    ``"text"`` (``values`` a pair: the JSON text of each distinct value, and each row's code
    into it)."""

    def __init__(self, number: np.ndarray, fields: list[tuple[str, str, Any]]) -> None:
        self.number = np.asarray(number, np.int64)
        self.fields = fields

    def arrays(self, lo: int, hi: int) -> list[str]:
        """The JSON array of each player lo..hi-1."""
        a, b = (int(x) for x in np.searchsorted(self.number, [lo, hi]))
        parts: list[Any] = []
        for k, (key, kind, values) in enumerate(self.fields):
            parts.append(("{" if k == 0 else ",") + json.dumps(key) + ":")
            parts.append(_column_text(kind, values, a, b))
        rows = pc.binary_join_element_wise(*parts, "}", "") if b > a else pa.array([], pa.string())
        starts, ends = bounds(self.number[a:b], lo, hi)
        offsets: Column = pa.array(np.append(starts, ends[-1] if hi > lo else 0).astype(np.int32))
        joined: Column = pc.binary_join(pa.ListArray.from_arrays(offsets, rows), ",")
        return [f"[{x}]" for x in joined.to_pylist()]

    def columns(self, lo: int, hi: int) -> list[str]:
        """The JSON object of columns of each player lo..hi-1: ``{"key": [...], ...}``."""
        a, b = (int(x) for x in np.searchsorted(self.number, [lo, hi]))
        starts, ends = bounds(self.number[a:b], lo, hi)
        offsets: Column = pa.array(np.append(starts, ends[-1] if hi > lo else 0).astype(np.int32))
        keys, joined = [], []
        for key, kind, values in self.fields:
            keys.append(json.dumps(key))
            text = _column_text(kind, values, a, b)
            column: Column = pc.binary_join(pa.ListArray.from_arrays(offsets, text), ",")
            joined.append(column.to_pylist())
        return [
            "{" + ",".join(f"{k}:[{v}]" for k, v in zip(keys, values, strict=True)) + "}"
            for values in zip(*joined, strict=True)
        ]


def _column_text(kind: str, values: Any, a: int, b: int) -> Column:
    """Rows a..b-1 of a field's values as JSON text (``kind``: see :class:`Section`)."""
    if kind == "text":
        texts, codes = values
        return texts.take(pa.array(codes[a:b]))
    if kind == "date":
        return _dates(values[a:b])
    if kind == "integer":
        return _numbers(values[a:b], None)
    return _numbers(values[a:b], int(kind.partition(":")[2] or DECIMALS))


def _coded(values: pd.Series | list[Any]) -> tuple[Column, np.ndarray]:
    """Text values as (the JSON text of each distinct value, each value's code)."""
    codes, uniques = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=False)
    return _text([None if u is None or u != u else u for u in uniques.tolist()]), codes


def _sorted(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    return frame.sort_values(by, kind="stable").reset_index(drop=True)


def _steps(kept: pd.DataFrame) -> np.ndarray:
    """The record's rows a player's ``published`` holds (``kept`` by player number ``_n``, then
    day): the first; each whose rating as shown (whole Elo) differs from the row before; the
    first of the lists this site published (after the backfill's). The rating any list
    published is the rating of the last of them on or before its day: the record keeps a row
    whenever it changes (:mod:`whr.lists.record`). The other rows (new games, statuses, ranks,
    year ends at an unchanged rating) stay in ``record.parquet``."""
    n = kept["_n"].to_numpy(np.int64)
    out = np.ones(len(n), bool)
    rating = np.rint(kept["rating"].to_numpy(np.float64))
    source = kept["source"].to_numpy(object)
    out[1:] = (n[1:] != n[:-1]) | (rating[1:] != rating[:-1]) | (source[1:] != source[:-1])
    return out


def _deltas(number: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each value less the one before of the same player (``number``, sorted), the first of
    each as it is: a running sum gives them back (lean: most are a few digits)."""
    out = values.copy()
    same = np.zeros(len(number), bool)
    same[1:] = number[1:] == number[:-1]
    out[same] = values[same] - values[np.flatnonzero(same) - 1]
    return out


class Columns:
    """What the chunks read, prepared once: the players' facts as JSON text, and the sections
    sorted by player number (plain arrays: the chunks may run in forked worker processes)."""

    def __init__(self, r: Renderer) -> None:
        site, view = r.site, r.site.view
        p = site.players
        self.n = len(p)
        self.pages = p["page"].tolist()
        first = view.published_from
        self.head = (
            f'{{"format":{FORMAT_VERSION},"list":{json.dumps(view.category)},'
            f'"date":"{view.as_of.isoformat()}",'
            f'"published_from":{json.dumps(first.isoformat() if first else None)},'
        )
        number = pa.array(p["player"].astype("str").to_numpy(object))

        # the facts: the player's row of the list on D, by player number
        f = view.current.frame
        at = pd.Index(f["player"].to_numpy(object)).get_indexer(p["player"].to_numpy(object))
        row = f.iloc[at].reset_index(drop=True)
        every = np.arange(self.n)
        facts: list[tuple[str, str, Any]] = [
            ("id", "text", _coded(p["player"].tolist())),
            ("name", "text", _coded(p["name"].tolist())),
            ("native_name", "text", _coded([x or None for x in p["native"].tolist()])),
            ("country", "text", _coded([x or None for x in p["country"].tolist()])),
            ("country_name", "text", _coded([x or None for x in p["country_name"].tolist()])),
            ("city", "text", _coded([x or None for x in p["city"].tolist()])),
            ("female", "text", _coded(p["female"].astype(bool).tolist())),
            ("birth_year", "integer", np.where(p["birth_year"] > 0, p["birth_year"], np.nan)),
            ("rating", "number", floats(row["rating"])),
            ("uncertainty", "number", floats(row["uncertainty"])),
            ("rank", "integer", floats(row["rank"])),
            ("country_rank", "integer", floats(row["country_rank"])),
            ("status", "text", _coded(row["status"].tolist())),
            # (rated_games: the list's games; "games" is the section of the games)
            ("rated_games", "integer", floats(row["games"])),
            *(
                (c, "integer", floats(row[c]))
                for c in ("wins", "draws", "losses", "gy1", "gy2", "gy5")
            ),
            ("first_game", "date", days(row["first_game"])),
            ("last_game", "date", days(row["last_game"])),
            ("best_rating", "number", floats(row["best_rating"])),
            ("best_date", "date", days(row["best_date"])),
            ("best_estimate", "number", floats(row["best_estimate"])),
            ("best_estimate_date", "date", days(row["best_estimate_date"])),
            ("rating_change", "number", floats(row["rating_change"])),
            ("previous_rank", "integer", floats(row["previous_rank"])),
        ]
        self.facts = Section(every, facts)

        # published: what the lists said, each rating as shown from the list that first
        # showed it (the record's rows where it changed)
        kept = view.tables.record
        kept = kept.assign(_n=positions(number, kept["player"].astype("str")))
        kept = _sorted(kept[kept["_n"] >= 0], ["_n", "list_date"])
        kept = kept[_steps(kept)]
        n_kept = kept["_n"].to_numpy(np.int64)
        self.published = _section(
            P_PUBLISHED,
            n_kept,
            day=("integer", _deltas(n_kept, days(kept["list_date"]).astype(np.float64))),
            rating=("integer", _deltas(n_kept, np.rint(kept["rating"].to_numpy(np.float64)))),
        )

        # estimate: today's fit on each rating day (the view's history: by player number, day)
        h = view.history
        self.estimate = _section(
            P_ESTIMATE,
            h["player"].to_numpy(np.int64),
            date=("date", days(h["date"])),
            rating=("number", h["rating"].to_numpy(np.float64)),
            uncertainty=("number", h["uncertainty"].to_numpy(np.float64)),
        )

        # tournaments: the standings' rows, by player, newest first (the page's rows' order)
        st = view.standings
        st = st.iloc[event_order(st)].reset_index(drop=True)
        t = st["tournament_id"].to_numpy(np.int64)
        listed = st["then_list"].to_numpy("datetime64[D]")
        ev_number = st["player"].to_numpy(np.int64)
        self.tournaments = _section(
            P_TOURNAMENTS,
            ev_number,
            id=("text", (_text(view.tournaments["tournament_id"].astype("str").tolist()), t)),
            name=("text", (_text([x or None for x in site.tournaments["name"].tolist()]), t)),
            first_day=("date", days(st["first_day"])),
            last_day=("date", days(st["last_day"])),
            games=("integer", st["games"].to_numpy(np.float64)),
            score=("number:1", st["score"].to_numpy(np.float64)),
            performance=("number:0", st["performance"].to_numpy(np.float64)),
            bound=("integer", st["performance_bound"].to_numpy(np.float64)),
            list_date=("date", np.where(np.isnat(listed), NO_DAY, listed.astype(np.int64))),
            before=("number", st["then_before"].to_numpy(np.float64)),
            after=("number", st["then_after"].to_numpy(np.float64)),
            change=("number", st["then_change"].to_numpy(np.float64)),
        )

        # games: by tournament (the player's, as above), in playing order within each
        pg = view.player_games
        order, event = game_order(pg, ev_number, t, len(view.tournaments))
        first_event = np.searchsorted(ev_number, pg["player"].to_numpy(np.int64)[order])
        ids = p["player"].tolist()
        opponent = pg["opponent"].to_numpy(np.int64)[order]
        rounds = pg["round"].iloc[order]
        games: dict[str, tuple[str, Any]] = {
            "tournament": ("integer", (event[order] - first_event).astype(np.float64)),
            "round": ("text", _coded(rounds.astype("str").tolist())),
            "white": ("integer", (pg["colour"] == "white").to_numpy(bool)[order].astype(float)),
            "score": ("number:1", pg["score"].to_numpy(np.float64)[order]),
            "opponent": (
                "text",
                (_text([*ids, None]), np.where(opponent >= 0, opponent, len(ids))),
            ),
            # the opponent's rating at the time (the list before the tournament was first
            # rated), and today's estimate that day
            "opponent_rating": ("number:0", pg["opponent_then"].to_numpy(np.float64)[order]),
            "opponent_estimate": ("number:0", pg["opponent_rating"].to_numpy(np.float64)[order]),
        }
        if site.linked:
            game_ids = pg["game_id"].iloc[order].astype("str").tolist()
            games["game"] = ("text", _coded([g if g in site.linked else None for g in game_ids]))
        self.games = _section(P_GAMES, pg["player"].to_numpy(np.int64)[order], **games)

        # opponents: head to head, by player, then opponent
        hh = view.head_to_head
        hh = hh[(hh["player"] >= 0) & (hh["opponent"] >= 0)]
        self.opponents = _section(
            P_OPPONENTS,
            hh["player"].to_numpy(np.int64),
            player=("text", (_text(ids), hh["opponent"].to_numpy())),
            **{c: ("integer", hh[c].to_numpy(np.float64)) for c in ("wins", "draws", "losses")},
            expected=("number", hh["expected"].to_numpy(np.float64)),
            expected_games=("integer", hh["expected_games"].to_numpy(np.float64)),
        )


def _section(payload: Payload, number: np.ndarray, **fields: tuple[str, Any]) -> Section:
    """A section through its declaration (:mod:`contract`): its fields' keys, in order."""
    payload.object(**{name: True for name in fields})  # (checks the names)
    return Section(number, [(f.key, *fields[f.name]) for f in payload.fields if f.name in fields])


def event_order(st: pd.DataFrame) -> np.ndarray:
    """The order of the standings' rows ``st`` on the players' pages and in their data: by
    player, newest first (last day, then first day, then tournament number, descending)."""
    order: np.ndarray = np.lexsort(
        (
            -st["tournament_id"].to_numpy(np.int64),
            -days(st["first_day"]),
            -days(st["last_day"]),
            st["player"].to_numpy(np.int64),
        )
    )
    return order


def game_order(
    pg: pd.DataFrame, ev_number: np.ndarray, ev_tournament: np.ndarray, n_tournaments: int
) -> tuple[np.ndarray, np.ndarray]:
    """The order of the games ``pg`` (the view's ``player_games``) on the players' pages and in
    their data: by their event (the events ``ev_number``, ``ev_tournament`` in
    :func:`event_order`), then in playing order (day, round: by number where it is one, game
    id); and each game's event."""
    n_t = max(n_tournaments, 1)
    event = pd.Index(ev_number * n_t + ev_tournament).get_indexer(
        pg["player"].to_numpy(np.int64) * n_t + pg["tournament_id"].to_numpy(np.int64)
    )
    round_code = pg["round"].cat.codes.to_numpy(np.int64)
    label_number = pd.to_numeric(
        pd.Series(pg["round"].cat.categories, dtype=object), errors="coerce"
    )
    order: np.ndarray = np.lexsort(
        (
            pg["game_id"].cat.codes.to_numpy(np.int64),
            round_code,
            label_number.fillna(np.inf).to_numpy(np.float64)[round_code],
            days(pg["day"]),
            event,
        )
    )
    return order, event


def write_chunk(r: Renderer, cols: Columns, page: Stencil, lo: int, hi: int) -> None:
    """Write ``p/<page>.json`` for the players numbered lo..hi-1."""
    sections = [cols.facts.arrays(lo, hi)]
    sections += [s.columns(lo, hi) for s in (cols.published, cols.estimate, cols.tournaments)]
    sections += [s.columns(lo, hi) for s in (cols.games, cols.opponents)]
    names = [P_FILE.field(n).key for n in SECTIONS]
    for k, (facts, *parts) in enumerate(zip(*sections, strict=True)):
        body = ",".join(f'"{n}":{part}' for n, part in zip(names, parts, strict=True))
        r.write(f"p/{cols.pages[lo + k]}.json", f"{cols.head}{facts[2:-2]},{body}}}\n")


SECTIONS = ("published", "estimate", "tournaments", "games", "opponents")
"""The sections of a player's JSON after the facts (:data:`contract.P_FILE`), in order."""


def pages(r: Renderer) -> Family:
    """The players' JSON files, to be written in chunks (:class:`frame.Pages`)."""
    cols = Columns(r)
    return Family(write_chunk, cols, Stencil("", ()), cols.n, [f"p/{p}.json" for p in cols.pages])
