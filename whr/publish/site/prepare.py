"""Everything the pages need, prepared once and in bulk from the built tables.

Group once, render many: the rows of every player page, tournament page and list are computed
here for all of them together (one ``player_games`` call, one group by player and tournament,
one standings table), as sorted columns; :mod:`whr.publish.site.render` then only slices
contiguous runs and formats them. Nothing here decides who is listed, ranked or rated: that
comes from the tables (:mod:`whr.lists`, :mod:`whr.standings`, :mod:`whr.changes` built them).

Players are numbered by their position in the players index (natural id order); the page
scripts' data refer to players by that number.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from markupsafe import escape

from whr import lists, standings
from whr.publish.site.names import namesake_labels, page_names, slug
from whr.tables import days_of

STATUS_CODES = {s: i for i, s in enumerate(lists.STATUSES)}  # in the list data: 0, 1, 2
UNKNOWN_CITIES = frozenset(["", "?", "-", "--", "—", "–"])
"""City texts that mean "not known" (RenjuNet uses ``?``); shown as nothing."""
MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
NAT = np.iinfo(np.int64).min  # a missing day, as days since 1970-01-01


def long_date(day: dt.date) -> str:
    """``30 November 2026``: a date for headings, the same in every locale."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def text(value: object) -> str:
    """A cell's text: "" for None, NaN and NA, else ``str(value)``."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    return str(value)


def city(value: object) -> str:
    """A city name, "" when the source does not know it (see ``UNKNOWN_CITIES``)."""
    out = text(value).strip()
    return "" if out in UNKNOWN_CITIES else out


def signed(value: float) -> str:
    """A rating change as shown: ``+12``, ``−3`` (minus sign), ``0``; rounded to whole Elo."""
    n = int(np.rint(value))
    return f"+{n}" if n > 0 else (f"\u2212{-n}" if n < 0 else "0")


def points(value: float) -> str:
    """A score as shown: ``3``, ``3½``, ``½``."""
    whole = int(value)
    half = value - whole >= 0.25
    return (str(whole) if whole or not half else "") + ("½" if half else "")


def floats(values: object) -> np.ndarray:
    """A column as float64 (None, NA → NaN)."""
    series = values if isinstance(values, pd.Series) else pd.Series(values)
    try:
        return series.to_numpy(np.float64, na_value=np.nan)
    except (TypeError, ValueError):
        return pd.to_numeric(series, errors="coerce").to_numpy(np.float64)


def days(values: object) -> np.ndarray:
    """Dates as days since 1970-01-01 (int64; a missing date is ``NAT``), through the one date
    converter (:func:`whr.tables.days_of`)."""
    return days_of(values).astype(np.int64)


def iso(day_numbers: np.ndarray) -> list[str]:
    """Days since 1970-01-01 as ISO dates."""
    return np.asarray(day_numbers, np.int64).astype("datetime64[D]").astype(str).tolist()


def js_json(value: Any) -> str:
    """Compact JSON (no NaN: missing values must be None)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def json_ints(values: np.ndarray) -> str:
    """A JSON array of whole numbers from floats (rounded half to even, as Python's format);
    NaN becomes null."""
    a = np.rint(np.asarray(values, np.float64))
    missing = np.isnan(a)
    text_ = np.where(missing, 0, a).astype(np.int64).astype(str)
    if missing.any():
        text_ = np.where(missing, "null", text_)
    return "[" + ",".join(text_.tolist()) + "]"


@dataclass(frozen=True)
class ListData:
    """One list (the current one or a year end) for its pages: the data file's JSON is made
    at once, so that only the current list keeps its columns (the year ends are many)."""

    day: dt.date
    key: str  # "current" or "YYYY"
    frame: pd.DataFrame  # the RATINGS rows, in list order
    json: str  # the columns of list_columns as one JSON object (the data file's content)
    counts: dict[str, int]  # per tab (active, gy1, inactive, provisional), players, games
    change: bool  # has a change column (there was a previous list)
    first: int  # the number of the player at the top of the list


def columns_json(columns: Mapping[str, np.ndarray]) -> str:
    """The columns of a list as one JSON object."""
    parts = []
    for name, values in columns.items():
        array = json_ints(values)
        if name == "d":  # rating change: "n" marks a new player (no previous rating)
            array = array.replace("null", '"n"')
        parts.append(f'"{name}":{array}')
    return "{" + ",".join(parts) + "}"


def list_columns(
    frame: pd.DataFrame, number: pd.Index, current: bool = False
) -> dict[str, np.ndarray]:
    """The columns of one list for the page script, in list order.

    ``p`` player number, ``r`` rating and ``u`` uncertainty (whole Elo; ``u`` null on an
    Elo-era list), ``g1`` ``g2`` ``g5`` (Gy1, Gy2, Gy5), ``s`` status (0 active, 1 inactive,
    2 provisional), ``k`` rank, ``y`` rank on the "Gy1 >= 10" list (:func:`whr.lists.gy1_list`),
    ``q`` rank on the previous list (ranks: 0 = none); ``d`` rating change since the previous
    list (NaN: a new player), only when there was a previous list. The current list also has
    ``n`` games, ``ck`` country rank and ``cy`` the "Gy1 >= 10" rank within the country.
    """
    players = frame["player"].to_numpy(object)
    position = pd.Index(players)
    gy1 = lists.gy1_list(frame)
    y = np.zeros(len(frame), np.int64)
    y[position.get_indexer(gy1["player"].to_numpy(object))] = gy1["gy1_rank"].to_numpy(np.int64)
    status = pd.Series(frame["status"].to_numpy(object)).map(STATUS_CODES).to_numpy(np.int64)
    out: dict[str, np.ndarray] = {
        "p": number.get_indexer(players),
        "r": floats(frame["rating"]),
        "u": floats(frame["uncertainty"]),
        "g1": frame["gy1"].to_numpy(np.int64),
        "g2": frame["gy2"].to_numpy(np.int64),
        "g5": frame["gy5"].to_numpy(np.int64),
        "s": status,
        "k": np.nan_to_num(floats(frame["rank"])),
        "y": y,
        "q": np.nan_to_num(floats(frame["previous_rank"])),
    }
    change = floats(frame["rating_change"])
    if (~np.isnan(change)).any():  # there was a previous list: a null change is a new player
        out["d"] = change
    if current:
        out["n"] = frame["games"].to_numpy(np.int64)
        out["ck"] = np.nan_to_num(floats(frame["country_rank"]))
        cy = np.zeros(len(frame), np.int64)
        for code in gy1["country"].dropna().unique():  # each country's players among gy1's
            part = lists.gy1_list(lists.country_list(gy1, code))
            cy[position.get_indexer(part["player"].to_numpy(object))] = part["gy1_rank"].to_numpy(
                np.int64
            )
        out["cy"] = cy
    return out


def _list(
    frame: pd.DataFrame, day: dt.date, key: str, number: pd.Index
) -> tuple[ListData, dict[str, np.ndarray]]:
    columns = list_columns(frame, number, current=(key == "current"))
    counts = {s: int((columns["s"] == i).sum()) for s, i in STATUS_CODES.items()}
    counts["gy1"] = int((columns["y"] > 0).sum())
    counts["players"] = len(frame)
    counts["games"] = int(frame["games"].sum()) // 2  # each rated game has two players
    data = ListData(
        day=day,
        key=key,
        frame=frame,
        json=columns_json(columns),
        counts=counts,
        change="d" in columns,
        first=int(columns["p"][0]) if len(frame) else -1,
    )
    return data, columns


@dataclass(frozen=True)
class Prepared:
    """The site's data, prepared once (see the module docstring). Every table is sorted so
    that one page's rows are one contiguous run."""

    as_of: dt.date
    game: str  # "Renju" or "Gomoku"
    info: Mapping[str, Any]
    players: pd.DataFrame  # one row per listed player, natural id order; number = position
    countries: pd.DataFrame  # code, name, page, players, active (countries of the current list)
    country_page: dict[str, str]  # country code -> page name
    current: ListData
    current_columns: dict[str, np.ndarray]  # the current list's (see list_columns)
    year_end: dict[dt.date, ListData]  # newest first
    tournaments: pd.DataFrame  # tournaments with rated games, newest first: number = position
    tournament_page: dict[str, str]  # tournament id -> page name (every tournament read)
    events: pd.DataFrame  # player_tournaments by player number, newest first; "tournament"
    games: pd.DataFrame  # player_games by player number and event, in playing order
    table: pd.DataFrame  # standings by tournament number, row; "number" = player number
    cells: pd.DataFrame  # crosstable cells by tournament number, row, round
    history: pd.DataFrame  # HISTORY by player number, date; "number"
    linked: frozenset[str]  # game ids whose results link to renju.net
    exclusions: pd.DataFrame  # EXCLUSIONS with tournament name, page and last day


def _player_table(ratings: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    index = lists.players_index(ratings, players)
    ids = index["player"].astype("str").to_numpy(object)
    names = index["name"].where(index["name"].notna(), index["player"]).astype("str")
    pages = page_names(ids.tolist())
    out = pd.DataFrame(
        {
            "player": ids,
            "name": names.to_numpy(object),
            "native": [text(x) for x in index["native_name"].tolist()],
            "country": [text(x) for x in index["country"].tolist()],
            "country_name": [text(x) for x in index["country_name"].tolist()],
            "city": [city(x) for x in index["city"].tolist()],
            "birth_year": np.nan_to_num(floats(index["birth_year"])).astype(np.int64),
            "female": index["female"].fillna(False).astype(bool).to_numpy(),
        }
    )
    out["label"] = namesake_labels(
        out["name"].tolist(),
        out["country"].tolist(),
        [y or None for y in out["birth_year"].tolist()],
        out["player"].tolist(),
    )
    out["page"] = [pages[p] for p in ids.tolist()]
    return out


def _tournaments(
    tournaments: pd.DataFrame, games: pd.DataFrame, excluded: Mapping[str, int]
) -> tuple[pd.DataFrame, dict[str, str]]:
    """The tournaments with rated games (page, name, place, games, dates, rule), newest first,
    and the page name of every tournament id read or played."""
    tours = tournaments.drop_duplicates("tournament_id")
    tids = games["tournament_id"].fillna("").astype("str").to_numpy(object)
    pages = page_names([*tours["tournament_id"].astype("str").tolist(), *set(tids.tolist())])
    code, ids = pd.factorize(tids, sort=True)
    day = days(games["date"])
    n = np.bincount(code, minlength=len(ids))
    first = np.full(len(ids), np.iinfo(np.int64).max)
    np.minimum.at(first, code, day)
    last = np.full(len(ids), NAT)
    np.maximum.at(last, code, day)
    facts = tours.set_index(tours["tournament_id"].astype("str")).reindex(ids)

    def dates(column: str, fallback: np.ndarray) -> list[str]:
        given = days(facts[column])
        return iso(np.where(given == NAT, fallback, given))

    place = [
        ", ".join(x for x in (city(c), text(cn) or text(k)) if x)
        for c, cn, k in zip(
            facts["city"].tolist(),
            facts["country_name"].tolist(),
            facts["country"].tolist(),
            strict=True,
        )
    ]
    out = pd.DataFrame(
        {
            "tournament_id": ids,
            "page": [pages[t] for t in ids.tolist()],
            "name": [
                text(name) or t or "(no tournament)"
                for t, name in zip(ids.tolist(), facts["name"].tolist(), strict=True)
            ],
            "place": place,
            "rule": [text(x) for x in facts["rule"].tolist()],
            "n": n,
            "start": dates("start", first),
            "end": dates("end", last),
            "excluded": [int(excluded.get(t, 0)) for t in ids.tolist()],
        }
    )
    out = out.sort_values(["end", "start", "tournament_id"], ascending=False, kind="stable")
    return out.reset_index(drop=True), pages


def _exclusions(
    exclusions: pd.DataFrame, tournaments: pd.DataFrame, pages: Mapping[str, str]
) -> pd.DataFrame:
    tours = tournaments.drop_duplicates("tournament_id")
    tours = tours.set_index(tours["tournament_id"].astype("str"))
    tid = exclusions["tournament_id"].fillna("").astype("str").to_numpy(object)
    facts = tours.reindex(tid)
    end = days(facts["end"])
    return pd.DataFrame(
        {
            "game_id": exclusions["game_id"].astype("str").to_numpy(object),
            "tournament_id": tid,
            "tournament": [
                text(n) or (t or "(no tournament)")
                for t, n in zip(tid.tolist(), facts["name"].tolist(), strict=True)
            ],
            "end": [
                "" if d == NAT else s
                for d, s in zip(end.tolist(), iso(np.maximum(end, 0)), strict=True)
            ],
            "page": [pages.get(t) or slug(t) for t in tid.tolist()],
            "reason": exclusions["reason"].astype("str").to_numpy(object),
            "message": [text(m) for m in exclusions["message"].tolist()],
        }
    )


def prepare(
    as_of: dt.date,
    tables: Mapping[str, pd.DataFrame],
    year_end: Mapping[dt.date, pd.DataFrame],
    info: Mapping[str, Any],
    game_links: bool = False,
) -> Prepared:
    """Prepare the data of every page (see the module docstring); arguments as ``write_site``."""
    ratings = tables["ratings"]
    players = _player_table(ratings, tables["players"])
    number = pd.Index(players["player"])
    game = str(info.get("parameters", {}).get("category", "renju")).capitalize()

    countries = lists.countries(ratings)
    country_pages = page_names(countries["country"].astype("str").tolist())
    countries = pd.DataFrame(
        {
            "code": countries["country"].astype("str").to_numpy(object),
            "name": [
                text(n) or c
                for c, n in zip(
                    countries["country"].tolist(), countries["country_name"].tolist(), strict=True
                )
            ],
            "page": [country_pages[c] for c in countries["country"].astype("str").tolist()],
            "players": countries["players"].to_numpy(np.int64),
            "active": countries["active"].to_numpy(np.int64),
        }
    )

    current, current_columns = _list(ratings, as_of, "current", number)
    games = tables["games"]
    exclusions = tables.get("exclusions")
    if exclusions is None:
        exclusions = pd.DataFrame(
            {c: [] for c in ("game_id", "tournament_id", "reason", "message")}
        )
    excluded = exclusions["tournament_id"].fillna("").astype("str").value_counts().to_dict()
    tours, tournament_page = _tournaments(tables["tournaments"], games, excluded)
    t_number = pd.Index(tours["tournament_id"])

    # players and tournaments by number from here on: whr.standings works on the codes
    history = tables["history"]
    h_number = number.get_indexer(history["player"].astype("str").to_numpy(object))
    history = pd.DataFrame(
        {
            "player": h_number,
            "date": history["date"].to_numpy(),
            "rating": history["rating"].to_numpy(np.float64),
            "uncertainty": history["uncertainty"].to_numpy(np.float64),
        }
    )
    history = history.iloc[np.lexsort((days(history["date"]), h_number))].reset_index(drop=True)
    sides = lists.player_games(games)
    # text columns as categories (a label per distinct value, not a Python string per row)
    round_code, round_labels = pd.factorize(sides["round"].fillna("").astype("str"), sort=True)
    game_code, game_ids = pd.factorize(sides["game_id"].astype("str"), sort=True)
    pg = pd.DataFrame(
        {
            "player": number.get_indexer(sides["player"]),
            "opponent": number.get_indexer(sides["opponent"]),
            "tournament_id": t_number.get_indexer(sides["tournament_id"].fillna("").astype("str")),
            "game_id": pd.Categorical.from_codes(game_code, categories=game_ids),
            "round": pd.Categorical.from_codes(round_code, categories=round_labels),
            "day": sides["day"].to_numpy(),
            "colour": pd.Categorical(sides["colour"], categories=["black", "white"]),
            "score": sides["score"].to_numpy(np.float64),
            "rating": sides["rating"].to_numpy(np.float64),
            "opponent_rating": sides["opponent_rating"].to_numpy(np.float64),
        }
    )
    del sides
    pt = standings.player_tournaments(pg, history)
    table = standings.standings(pg, pt)
    cells = standings.crosstable(pg, table)

    # player pages: events newest first, games in playing order within each event
    pt = pt.rename(columns={"player": "number", "tournament_id": "tournament"})
    pt = pt.iloc[
        np.lexsort(
            (
                -pt["tournament"].to_numpy(np.int64),
                -days(pt["first_day"]),
                -days(pt["last_day"]),
                pt["number"].to_numpy(np.int64),
            )
        )
    ].reset_index(drop=True)
    n_t = max(len(tours), 1)
    event_key = pd.Index(
        pt["number"].to_numpy(np.int64) * n_t + pt["tournament"].to_numpy(np.int64)
    )
    event = event_key.get_indexer(
        pg["player"].to_numpy(np.int64) * n_t + pg["tournament_id"].to_numpy(np.int64)
    )
    label_number = pd.to_numeric(pd.Series(round_labels, dtype=object), errors="coerce")
    order = np.lexsort(
        (
            game_code,
            round_code,
            label_number.fillna(np.inf).to_numpy(np.float64)[round_code],
            days(pg["day"]),
            event,
        )
    )
    games_played = pd.DataFrame(
        {
            "number": pg["player"].to_numpy(np.int64)[order],
            "opponent_number": pg["opponent"].to_numpy(np.int64)[order],
            "event": event[order],
            "round": pg["round"].iloc[order].reset_index(drop=True),
            "white": (pg["colour"] == "white").to_numpy(bool)[order],
            "score": pg["score"].to_numpy(np.float64)[order],
            "opponent_rating": pg["opponent_rating"].to_numpy(np.float64)[order],
            "game_id": pg["game_id"].iloc[order].reset_index(drop=True),
        }
    )
    history = history.rename(columns={"player": "number"})

    # tournament pages: by tournament number (newest first), then row
    table = table.rename(columns={"tournament_id": "tournament", "player": "player_number"})
    cells = cells.rename(columns={"tournament_id": "tournament"})

    linked: frozenset[str] = frozenset()
    if game_links and len(games):
        linked = frozenset(games["game_id"].astype("str")[lists.renjunet_games(games)])
    return Prepared(
        as_of=as_of,
        game=game,
        info=info,
        players=players,
        countries=countries,
        country_page=dict(zip(countries["code"], countries["page"], strict=True)),
        current=current,
        current_columns=current_columns,
        year_end={d: _list(f, d, str(d.year), number)[0] for d, f in year_end.items()},
        tournaments=tours,
        tournament_page=tournament_page,
        events=pt,
        games=games_played,
        table=table,
        cells=cells,
        history=history,
        linked=linked,
        exclusions=_exclusions(exclusions, tables["tournaments"], tournament_page),
    )


def html_name(name: str, label: str, page: str, root: str, female: bool = False) -> str:
    """A player's name linked to their page, with the namesake label after it (escaped HTML)."""
    cls = " class=f" if female else ""
    link = f"<a href={root}p/{page}.html{cls}>{escape(name)}</a>"
    return link + (f" <small>{escape(label)}</small>" if label else "")
