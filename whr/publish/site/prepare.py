"""Everything the pages need, prepared once and in bulk from the built tables.

Group once, render many: the rows of every player page, tournament page and list are computed
here for all of them together (the games as each player sees them once, one group by player
and tournament, one standings table), as sorted columns; :mod:`whr.publish.site.render` then
only slices contiguous runs and formats them. Nothing here decides who is listed, ranked or
rated: that comes from the tables (:mod:`whr.lists`, :mod:`whr.lists.standings`, :mod:`whr.lists.changes`
built them).

Players are numbered by their position in the players index (natural id order); the page
scripts' data refer to players by that number.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr import lists
from whr.lists import standings
from whr.publish.site.names import namesake_labels, page_names, renjunet_games, slug
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


def positions(ids: pa.Array, values: object) -> np.ndarray:
    """The position of each of ``values`` among ``ids`` (distinct ids), -1 for one not there:
    how players and tournaments are numbered. Arrow's hash lookup: several times faster than
    ``pd.Index.get_indexer`` on text."""
    text = pa.large_string()  # also for an empty list (no type to infer)
    found = pc.index_in(pa.array(values, text), value_set=ids.cast(text))
    return found.fill_null(-1).to_numpy().astype(np.int64)


def json_arrays(columns: Iterable[np.ndarray]) -> list[str]:
    """Each column as a JSON array of whole numbers from floats (rounded half to even, as
    Python's format; NaN becomes null) or integers.

    The columns are converted together by Arrow (one cast to text, one join per column), not
    number by number in Python: the lists hold about a million numbers at RIF size."""
    whole, missing, bounds = [], [], [0]
    for values in columns:
        a = np.asarray(values)
        if a.dtype.kind == "f":
            a = np.rint(a)
            missing.append(np.isnan(a))
            a = np.where(missing[-1], 0, a)
        else:
            missing.append(np.zeros(len(a), bool))
        whole.append(a.astype(np.int64))
        bounds.append(bounds[-1] + len(a))
    numbers = pa.array(np.concatenate(whole), mask=np.concatenate(missing))
    text = pc.cast(numbers, pa.string()).fill_null("null")
    per_column = pa.ListArray.from_arrays(pa.array(bounds, pa.int32()), text)
    return [f"[{joined}]" for joined in pc.binary_join(per_column, ",").to_pylist()]


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
    """The columns of a list as one JSON object (see :func:`json_arrays`)."""
    parts = []
    for name, array in zip(columns, json_arrays(columns.values()), strict=True):
        if name == "d":  # rating change: "n" marks a new player (no previous rating)
            array = array.replace("null", '"n"')
        parts.append(f'"{name}":{array}')
    return "{" + ",".join(parts) + "}"


def list_columns(
    frame: pd.DataFrame, numbers: np.ndarray, current: bool = False
) -> dict[str, np.ndarray]:
    """The columns of one list for the page script, in list order.

    ``p`` player number (``numbers``: the list's, given), ``r`` rating and ``u`` uncertainty
    (whole Elo; ``u`` null on an Elo-era list), ``g1`` ``g2`` ``g5`` (Gy1, Gy2, Gy5), ``s``
    status (0 active, 1 inactive, 2 provisional), ``k`` rank, ``y`` rank on the "Gy1 >= 10"
    list (:func:`whr.lists.gy1_list`), ``q`` rank on the previous list (ranks: 0 = none);
    ``d`` rating change since the previous list (NaN: a new player), only when there was a
    previous list. The current list also has ``n`` games, ``ck`` country rank and ``cy`` the
    "Gy1 >= 10" rank within the country.
    """
    players = frame["player"]
    # the Gy1 list once; its rows found by id (ids are unique within a list)
    gy1 = lists.gy1_list(frame)
    gy1_rows = positions(pa.array(players), gy1["player"])
    y = np.zeros(len(frame), np.int64)
    y[gy1_rows] = gy1["gy1_rank"].to_numpy(np.int64)
    status = positions(pa.array(lists.STATUSES), frame["status"])
    if (status < 0).any():
        raise ValueError(f"a list's status must be one of {lists.STATUSES}")
    out: dict[str, np.ndarray] = {
        "p": numbers,
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
        # The Gy1 rank within a country, derived from the one Gy1 list: the country's players
        # keep their order on it (gy1_list of them, in rank order, lists them in that order),
        # so a player's rank is 1 + the number of the country's players above them.
        country = gy1["country"]
        known = country.notna().to_numpy(bool)
        cy = np.zeros(len(frame), np.int64)
        cy[gy1_rows[known]] = country[known].groupby(country[known]).cumcount().to_numpy() + 1
        out["cy"] = cy
    return out


def _list(
    frame: pd.DataFrame, day: dt.date, key: str, numbers: np.ndarray
) -> tuple[ListData, dict[str, np.ndarray]]:
    columns = list_columns(frame, numbers, current=(key == "current"))
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
    code, ids = pd.factorize(games["tournament_id"].fillna("").astype("str"), sort=True)
    ids = ids.to_numpy(object)
    pages = page_names([*tours["tournament_id"].astype("str").tolist(), *ids.tolist()])
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


def numbered_player_games(
    games: pd.DataFrame, number: pa.Array, t_number: pa.Array
) -> pd.DataFrame:
    """:func:`whr.lists.player_games` of the rated games, with players and tournaments by
    number (positions in ``number`` and ``t_number``; -1 for a player not on the list, as one of
    a game after the list's day; a missing tournament is the one named "") and game_id, round
    ("" when not recorded) and colour as categories.

    The same rows in the same order (the test suite compares the two): by player, day,
    tournament and game id as text, a missing tournament last, so that sums over a player's
    games add up in the same order. Built from codes of the games, each text column factorized
    once, instead of a text per side that is then looked up again.
    """
    n = len(games)
    day = days_of(games["date"])
    result = games["result"].to_numpy(np.float64)
    if np.isnan(result).any() or np.isnat(day).any():
        raise ValueError("rated games must all have a result and a date")
    nan = np.full(n, np.nan)
    black_rating = games["black_rating"].to_numpy(np.float64) if "black_rating" in games else nan
    white_rating = games["white_rating"].to_numpy(np.float64) if "white_rating" in games else nan
    # codes in text order, for the order of the rows
    sides = pd.concat([games["black"], games["white"]], ignore_index=True).astype("str")
    player_code, player_ids = pd.factorize(sides, sort=True)
    t_code, _ = pd.factorize(games["tournament_id"], sort=True)  # missing: -1, sorted last
    game_code, game_ids = pd.factorize(games["game_id"].astype("str"), sort=True)
    round_code, round_labels = pd.factorize(games["round"].fillna("").astype("str"), sort=True)
    tournament = positions(t_number, games["tournament_id"].fillna("").astype("str"))

    # one row per game and side: black's sides, then white's
    player = positions(number, player_ids)[player_code]
    opponent = np.concatenate([player[n:], player[:n]])
    t_key = np.tile(np.where(t_code < 0, t_code.max(initial=0) + 1, t_code), 2)
    game_code = np.tile(game_code, 2)
    day = np.tile(day.astype("datetime64[s]"), 2)
    order = np.lexsort((game_code, t_key, day, player_code))
    colour = np.repeat(np.array([0, 1], np.int8), n)
    return pd.DataFrame(
        {
            "player": player[order],
            "opponent": opponent[order],
            "tournament_id": np.tile(tournament, 2)[order],
            "game_id": pd.Categorical.from_codes(game_code[order], categories=game_ids),
            "round": pd.Categorical.from_codes(
                np.tile(round_code, 2)[order], categories=round_labels
            ),
            "day": day[order],
            "colour": pd.Categorical.from_codes(colour[order], categories=["black", "white"]),
            "score": np.concatenate([result, 1.0 - result])[order],
            "rating": np.concatenate([black_rating, white_rating])[order],
            "opponent_rating": np.concatenate([white_rating, black_rating])[order],
        },
        copy=False,  # fresh arrays: no need to copy them into 2-D blocks
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
    number = pa.array(players["player"])
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

    # the player numbers of every list, looked up at once (the year ends are many)
    frames = [ratings, *year_end.values()]
    numbers = np.split(
        positions(number, pd.concat([f["player"] for f in frames], ignore_index=True)),
        np.cumsum([len(f) for f in frames])[:-1],
    )
    current, current_columns = _list(ratings, as_of, "current", numbers[0])
    games = tables["games"]
    exclusions = tables.get("exclusions")
    if exclusions is None:
        exclusions = pd.DataFrame(
            {c: [] for c in ("game_id", "tournament_id", "reason", "message")}
        )
    excluded = exclusions["tournament_id"].fillna("").astype("str").value_counts().to_dict()
    tours, tournament_page = _tournaments(tables["tournaments"], games, excluded)
    t_number = pa.array(tours["tournament_id"])

    # players and tournaments by number from here on: whr.lists.standings works on the codes
    history = tables["history"]
    h_number = positions(number, history["player"].astype("str"))
    history = pd.DataFrame(
        {
            "player": h_number,
            "date": history["date"].to_numpy(),
            "rating": history["rating"].to_numpy(np.float64),
            "uncertainty": history["uncertainty"].to_numpy(np.float64),
        }
    )
    history = history.iloc[np.lexsort((days(history["date"]), h_number))].reset_index(drop=True)
    pg = numbered_player_games(games, number, t_number)
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
    round_code = pg["round"].cat.codes.to_numpy(np.int64)
    label_number = pd.to_numeric(
        pd.Series(pg["round"].cat.categories, dtype=object), errors="coerce"
    )
    order = np.lexsort(
        (
            pg["game_id"].cat.codes.to_numpy(np.int64),
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
        },
        copy=False,  # fresh arrays: no need to copy them into 2-D blocks
    )
    history = history.rename(columns={"player": "number"})

    # tournament pages: by tournament number (newest first), then row
    table = table.rename(columns={"tournament_id": "tournament", "player": "player_number"})
    cells = cells.rename(columns={"tournament_id": "tournament"})

    linked: frozenset[str] = frozenset()
    if game_links and len(games):
        linked = frozenset(games["game_id"].astype("str")[renjunet_games(games)])
    return Prepared(
        as_of=as_of,
        game=game,
        info=info,
        players=players,
        countries=countries,
        country_page=dict(zip(countries["code"], countries["page"], strict=True)),
        current=current,
        current_columns=current_columns,
        year_end={
            d: _list(f, d, str(d.year), n)[0]
            for (d, f), n in zip(year_end.items(), numbers[1:], strict=True)
        },
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
