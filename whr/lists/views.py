"""What the pages of a list show: :func:`view` of a day's tables, and the views it is made of.

The views are the "Gy1 >= 10" list, women, countries, the top players of every list, the top
five of each year and the players index (plain functions on lists in the ``RATINGS`` schema;
every rank given in the one order of :func:`whr.lists.listing.rank_order`), and the
tournaments' standings, crosstables and performances (:mod:`whr.lists.standings`).

:func:`view` computes them all at once, in bulk, for every page: the site only slices and
formats (group once, render many). It takes the stored tables alone, so that the pages of a
day re-rendered from its archived files are the pages its publish drew. Players are numbered
by their position in the players index (natural id order) and tournaments by their position
in the tournaments index (newest first); the numbered tables refer to them by those numbers.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr.lists import standings
from whr.lists.listing import (
    ESTABLISHED_GAMES,
    GY1_GAMES,
    RuleNumbers,
    _numbered,
    natural_order,
    rank_order,
)
from whr.lists.published import Tables, by_list_date
from whr.lists.year_end import as_they_stood, published_from
from whr.tables import days_of


def countries(ratings: pd.DataFrame) -> pd.DataFrame:
    """The countries on a list: country, country_name, players, active; sorted by name then code."""
    r = ratings.loc[ratings["country"].notna()]
    out = (
        r.assign(_active=r["status"] == "active")
        .groupby("country", sort=True)
        .agg(
            country_name=("country_name", "first"),
            players=("player", "size"),
            active=("_active", "sum"),
        )
        .reset_index()
    )
    out["_key"] = out["country_name"].fillna(out["country"]).str.casefold()
    return (
        out.sort_values(["_key", "country"], kind="stable")
        .drop(columns="_key")
        .reset_index(drop=True)
    )


def top_five(lists: Mapping[dt.date, pd.DataFrame], places: int = 5) -> pd.DataFrame:
    """The best ``places`` players of each list who played that year.

    As on the RIF's site, only established active players with a rated game in the year up to
    the list date (Gy1 > 0) take part, so that a year's top five are players of that year and
    not a rating left standing by a player who stopped; they are numbered 1..n among themselves
    in the order of :func:`rank_order`.

    Returns
    -------
    pandas.DataFrame
        Columns list_date, rank (among the players who played that year), list_rank (on the
        full list), player, name, country, rating; newest list first, then by rank.
    """
    if places < 1:
        raise ValueError(f"places must be >= 1, got {places}")
    columns = ["list_date", "rank", "list_rank", "player", "name", "country", "rating"]
    parts = []
    for _, frame in sorted(lists.items(), key=lambda item: item[0], reverse=True):
        played = frame.loc[frame["rank"].notna() & (frame["gy1"] > 0)].reset_index(drop=True)
        rank = _numbered(played, np.ones(len(played), dtype=bool))
        top = played.assign(list_rank=played["rank"], rank=rank)
        parts.append(top.loc[top["rank"] <= places].sort_values("rank"))
    if not parts:
        return pd.DataFrame({c: [] for c in columns})
    return pd.concat(parts, ignore_index=True)[columns]


TOP_PLACES = 12  # the RIF site's chart of top players: the first 12 of a list ...
TOP_WITHIN_ELO = 165.0  # ... within 165 points of No. 1


def top_players(
    lists: Mapping[dt.date, pd.DataFrame], top: int = TOP_PLACES, within: float = TOP_WITHIN_ELO
) -> list[str]:
    """Players who, on any of the lists, ranked in the first ``top`` within ``within`` Elo of No. 1.

    The defaults are the RIF site's for its chart of top players (``top.html``): the first 12
    within 165 points of No. 1, on the current list or any year-end list.

    Returns
    -------
    list of str
        Player ids, best peak rank first, then by id.
    """
    if top < 1:
        raise ValueError(f"top must be >= 1, got {top}")
    best: dict[str, int] = {}
    for frame in lists.values():
        ranked = frame.loc[frame["rank"].notna()]
        if ranked.empty:
            continue
        first = ranked["rating"].max()
        chosen = ranked.loc[(ranked["rank"] <= top) & (ranked["rating"] >= first - within)]
        for player, rank in zip(chosen["player"], chosen["rank"], strict=True):
            best[player] = min(best.get(player, rank), int(rank))
    return sorted(best, key=lambda p: (best[p], p))


def women(ratings: pd.DataFrame) -> pd.DataFrame:
    """The women of a list, in list order, with ``rank`` renumbered 1..n among active women.

    ``country_rank`` is left as on the full list.
    """
    female = ratings["female"].fillna(False).astype(bool)
    out = ratings.loc[female].reset_index(drop=True)
    out["rank"] = _numbered(out, (out["status"] == "active").to_numpy(bool))
    return out


def gy1_list(ratings: pd.DataFrame, min_games: int = GY1_GAMES) -> pd.DataFrame:
    """The RIF's "Gy1 ≥ 10" list: established players with many rated games in the last year.

    A player is on it when established (at least 10 rated games up to the list date) and with
    at least ``min_games`` rated games in the year up to the list date (``gy1``, the window
    [D - 1 year, D]). Such a player is always established active, so also ranked on the
    full list.

    Parameters
    ----------
    ratings : pandas.DataFrame
        One list (schema ``RATINGS``), in list order.
    min_games : int, default 10
        Rated games needed in the last year, >= 1.

    Returns
    -------
    pandas.DataFrame
        The chosen rows in the order of :func:`rank_order`, with the column ``gy1_rank`` added:
        1..n among them; ``rank`` stays the rank on the full list.
    """
    if isinstance(min_games, bool) or not isinstance(min_games, int | np.integer):
        raise TypeError(f"min_games must be an int, got {type(min_games).__name__}")
    if min_games < 1:
        raise ValueError(f"min_games must be >= 1, got {min_games}")
    keep = (ratings["games"] >= ESTABLISHED_GAMES) & (ratings["gy1"] >= min_games)
    out = ratings.loc[keep.fillna(False).astype(bool)].reset_index(drop=True)
    out = out.iloc[rank_order(out)].reset_index(drop=True)
    out["gy1_rank"] = pd.array(np.arange(1, len(out) + 1), dtype="Int32")
    return out


def players_index(ratings: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    """Every listed player once, in natural id order (the RIF's ``players.html``/``.json``).

    Parameters
    ----------
    ratings : pandas.DataFrame
        The list on D (schema ``RATINGS``): every player with a rated game up to D.
    players : pandas.DataFrame
        Player facts (schema ``PLAYERS``); ``city`` is taken from here (first row of an id).

    Returns
    -------
    pandas.DataFrame
        Columns player, name, native_name, female, rating (published scale), uncertainty (Elo),
        games, status, rank (null unless established active), birth_year, city, country,
        country_name; one row per player of ``ratings``, sorted by :func:`natural_order`.
    """
    columns = [
        "player",
        "name",
        "native_name",
        "female",
        "rating",
        "uncertainty",
        "games",
        "status",
        "rank",
        "birth_year",
        "country",
        "country_name",
    ]
    out = ratings[columns].iloc[natural_order(ratings["player"])].reset_index(drop=True)
    facts = players.drop_duplicates("player_id", keep="first").set_index("player_id")
    city = facts["city"] if "city" in facts else pd.Series(dtype="str")
    out.insert(len(columns) - 2, "city", city.reindex(out["player"].to_numpy()).to_numpy())
    return out


# --- the view of a day's tables --------------------------------------------------------------

NAT = np.iinfo(np.int64).min  # a missing day, as days since 1970-01-01


def positions(
    ids: pa.Array[Any] | pd.Series | np.ndarray,
    values: pa.Array[Any] | pd.Series | pd.Index | np.ndarray | list[str],
) -> np.ndarray:
    """The position of each of ``values`` among ``ids`` (distinct ids), -1 for one not there:
    how players and tournaments are numbered. Arrow's hash lookup: several times faster than
    ``pd.Index.get_indexer`` on text."""
    text = pa.large_string()  # also for an empty list (no type to infer)
    found = pc.index_in(pa.array(values, text), value_set=pa.array(ids, text))
    return np.asarray(found.fill_null(-1).to_numpy(), dtype=np.int64)


def _days(values: object) -> np.ndarray:
    return days_of(values).astype(np.int64)


@dataclass(frozen=True)
class ListView:
    """One list (the current one or a year end) as its pages show it.

    Attributes
    ----------
    day : datetime.date
    key : str
        ``"current"`` or the year (``"2025"``).
    frame : pandas.DataFrame
        The list (``RATINGS``), in list order.
    number : numpy.ndarray of int
        Each row's player number (position in :attr:`View.players`).
    gy1_rank : numpy.ndarray of int
        Each row's rank on the "Gy1 >= 10" list (:func:`gy1_list`); 0: not on it.
    gy1_country_rank : numpy.ndarray of int or None
        The current list only: the same rank among the players of the row's country.
    entered : numpy.ndarray of bool
        Each row: the player entered the ranking since the previous list (:func:`entered`).
    kind : str
        ``"current"``, or what a year-end list is (:data:`whr.lists.year_end.KINDS`): the list
        this site published that stood on December 31, the one the backfill reconstructed, or
        today's estimate.
    estimate : numpy.ndarray of float or None
        A year-end list that stood: each row's today's estimate of the rating on December 31.
    stood : datetime.date or None
        A year-end list that stood: the day of that list (December 31, or the last before it).
    """

    day: dt.date
    key: str
    frame: pd.DataFrame
    number: np.ndarray
    gy1_rank: np.ndarray
    gy1_country_rank: np.ndarray | None
    entered: np.ndarray
    kind: str = "current"
    estimate: np.ndarray | None = None
    stood: dt.date | None = None


@dataclass(frozen=True)
class Top:
    """The top players' chart and the top five of each list (all players, or the women)."""

    players: list[str]  # :func:`top_players` of the current and the year-end lists
    five: pd.DataFrame  # :func:`top_five` of them


@dataclass(frozen=True)
class View:
    """What the pages of a day show, computed from its tables (:func:`view`).

    Attributes
    ----------
    as_of : datetime.date
    category : str
    rules : RuleNumbers
        The rules the list was computed with, as the pages state them.
    tables : Tables
        The day's tables.
    players : pandas.DataFrame
        :func:`players_index` of the list: one row per listed player, in natural id order;
        a player's number is the row's position.
    countries : pandas.DataFrame
        :func:`countries` of the list.
    current : ListView
    year_end : dict of datetime.date to ListView
        Newest first: the lists that stood on each December 31 (:mod:`whr.lists.year_end`).
    published_from : datetime.date or None
        The first list of the record this site published: the lists before it (in the record,
        a player's chart, a year end) were reconstructed by the backfill.
    tournaments : pandas.DataFrame
        The tournaments with rated games, newest first (``end``, ``start``, id, descending);
        a tournament's number is the row's position: tournament_id, start and end (ISO dates:
        the facts', else the first and last game day), games (rated), excluded (games read
        and not rated).
    history : pandas.DataFrame
        The rating history by player number and date: player (number), date, rating,
        uncertainty.
    player_games : pandas.DataFrame
        :func:`numbered_player_games` of the rated games.
    standings : pandas.DataFrame
        :func:`whr.lists.standings.standings` of them: one row per tournament and player
        (tournament_id and player as numbers), by tournament number and row; with the change
        the lists gave the player for it (:func:`kept_changes`): ``then_before``,
        ``then_after`` (Elo, NaN where none was kept; before also for a player new to the
        list), ``then_change`` (after - before) and ``then_list`` (the day of the list that
        first rated it, datetime64[D]; NaT where none was kept).
    crosstable : pandas.DataFrame
        :func:`whr.lists.standings.crosstable`'s cells, by tournament number, row and round.
    top, top_women : Top
    head_to_head : pandas.DataFrame
        :func:`head_to_head` of the player's games: one row per player and opponent.

    ``player_games`` has the columns ``expected`` and ``opponent_then`` too: the player's
    expected score in each game from the ratings the lists gave the two players just before the
    game's tournament was first rated (:func:`expected_scores`; NaN where one of them was not
    known), and that rating of the opponent (NaN: not known, or new to the list).
    """

    as_of: dt.date
    category: str
    rules: RuleNumbers
    tables: Tables
    players: pd.DataFrame
    countries: pd.DataFrame
    current: ListView
    year_end: dict[dt.date, ListView]
    published_from: dt.date | None
    tournaments: pd.DataFrame
    history: pd.DataFrame
    player_games: pd.DataFrame
    standings: pd.DataFrame
    crosstable: pd.DataFrame
    top: Top
    top_women: Top
    head_to_head: pd.DataFrame


def entered(ratings: pd.DataFrame) -> np.ndarray:
    """Which players of a list entered the ranking since the previous list: ranked on it
    (established active) and not ranked on the previous list, whether they were on it
    unranked (provisional, or inactive) or are new to the list.

    A list with changes since a previous one (:func:`whr.lists.changes.since`: a change known
    for someone) is needed; without one nobody is marked.

    Returns
    -------
    numpy.ndarray of bool
        One per row of ``ratings``.
    """
    ranked = ratings["rank"].notna().to_numpy(bool)
    before = ratings["previous_rank"].notna().to_numpy(bool)
    compared = bool(ratings["rating_change"].notna().any())
    return ranked & ~before & compared


def _list_view(
    frame: pd.DataFrame, day: dt.date, key: str, number: np.ndarray, rules: RuleNumbers
) -> ListView:
    """A list with its players' numbers and its ranks on the "Gy1 >= 10" list (the one Gy1
    list; its rows found by id, unique within a list)."""
    gy1 = gy1_list(frame, rules.gy1_games)
    rows = positions(pa.array(frame["player"]), gy1["player"])
    rank = np.zeros(len(frame), np.int64)
    rank[rows] = gy1["gy1_rank"].to_numpy(np.int64)
    country_rank = None
    if key == "current":
        # The rank within a country, derived from the one Gy1 list: the country's players keep
        # their order on it (gy1_list of them, in rank order, lists them in that order), so a
        # player's rank is 1 + the number of the country's players above them.
        country = gy1["country"]
        known = country.notna().to_numpy(bool)
        country_rank = np.zeros(len(frame), np.int64)
        country_rank[rows[known]] = country[known].groupby(country[known]).cumcount().to_numpy() + 1
    return ListView(day, key, frame, number, rank, country_rank, entered(frame))


def _tournaments(tables: Tables) -> pd.DataFrame:
    """The tournaments with rated games, newest first (see :attr:`View.tournaments`)."""
    games = tables.games
    tours = tables.tournaments.drop_duplicates("tournament_id")
    code, labels = pd.factorize(games["tournament_id"].fillna("").astype("str"), sort=True)
    ids = labels.to_numpy(object)
    day = _days(games["date"])
    n = np.bincount(code, minlength=len(ids))
    first = np.full(len(ids), np.iinfo(np.int64).max)
    np.minimum.at(first, code, day)
    last = np.full(len(ids), NAT)
    np.maximum.at(last, code, day)
    facts = tours.set_index(tours["tournament_id"].astype("str")).reindex(ids)

    def dates(column: str, fallback: np.ndarray) -> list[str]:
        given = _days(facts[column])
        chosen = np.where(given == NAT, fallback, given)
        return [str(day) for day in chosen.astype("datetime64[D]").astype(str)]

    excluded = tables.exclusions["tournament_id"].fillna("").astype("str").value_counts()
    out = pd.DataFrame(
        {
            "tournament_id": ids,
            "start": dates("start", first),
            "end": dates("end", last),
            "games": n,
            "excluded": excluded.reindex(ids, fill_value=0).to_numpy(np.int64),
        }
    )
    out = out.sort_values(["end", "start", "tournament_id"], ascending=False, kind="stable")
    return out.reset_index(drop=True)


def numbered_player_games(
    games: pd.DataFrame, number: pa.Array[Any], t_number: pa.Array[Any]
) -> pd.DataFrame:
    """:func:`whr.lists.listing.player_games` of the rated games, with players and tournaments
    by number (positions in ``number`` and ``t_number``; -1 for a player not on the list, as one
    of a game after the list's day; a missing tournament is the one named "") and game_id, round
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
            "colour": pd.Categorical.from_codes(
                colour[order], categories=pd.Index(["black", "white"])
            ),
            "score": np.concatenate([result, 1.0 - result])[order],
            "rating": np.concatenate([black_rating, white_rating])[order],
            "opponent_rating": np.concatenate([white_rating, black_rating])[order],
        },
        copy=False,  # fresh arrays: no need to copy them into 2-D blocks
    )


class KeptChanges:
    """The change the lists gave each player for each tournament, from a day's kept table
    (``tables.tournament_changes``), looked up by player and tournament number
    (:meth:`at`).

    The kept table is what earlier lists published, keyed by their ids: a player merged into
    another since, or a tournament unrated or deleted, is in it but not on today's list. Only
    the rows whose player and tournament are both found are looked up; the others stay in the
    table (what was published is never dropped) and are shown nowhere.
    """

    def __init__(self, tables: Tables, number: pa.Array[Any], t_number: pa.Array[Any]) -> None:
        kept = tables.tournament_changes
        p = positions(number, kept["player"].astype("str"))
        t = positions(t_number, kept["tournament_id"].astype("str"))
        found = (p >= 0) & (t >= 0)
        self._n_t = max(len(t_number), 1)
        self._index = pd.Index((p * self._n_t + t)[found])
        self._before: np.ndarray = kept["rating_before"].to_numpy(np.float64)[found]
        self._after: np.ndarray = kept["rating_after"].to_numpy(np.float64)[found]
        self._listed: np.ndarray = days_of(kept["first_list_date"])[found]

    def at(
        self, player: np.ndarray, tournament: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each ``player`` and ``tournament`` (numbers): the rating before and after, as
        kept (Elo; NaN where none was kept, before also for a player new to the list), and the
        day of the list that first rated it (datetime64[D], NaT where none was kept)."""
        at = self._index.get_indexer(np.asarray(player, np.int64) * self._n_t + tournament)
        found = at >= 0
        row = np.maximum(at, 0)

        def column(values: np.ndarray, missing: Any) -> np.ndarray:
            out: np.ndarray = (
                np.where(found, values[row], missing) if len(values) else np.full(len(at), missing)
            )
            return out

        return (
            column(self._before, np.nan),
            column(self._after, np.nan),
            column(self._listed, np.datetime64("NaT", "D")),
        )


ELO_PER_DECADE = 400.0  # Elo: a rating this much higher expects ten times the odds


def expected_scores(rating: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """A player's expected score against an opponent (the WHR model, Coulom 2008:
    Bradley-Terry on the Elo scale, ``1 / (1 + 10 ** ((opponent - rating) / 400))``); NaN
    where a rating is NaN."""
    gap = (np.asarray(opponent, np.float64) - np.asarray(rating, np.float64)) / ELO_PER_DECADE
    out: np.ndarray = 1.0 / (1.0 + 10.0**gap)
    return out


def head_to_head(pg: pd.DataFrame) -> pd.DataFrame:
    """Each player's record against each opponent, from the games as each player sees them
    (:func:`numbered_player_games`, with ``expected``).

    Returns
    -------
    pandas.DataFrame
        player, opponent (numbers), games, wins, draws, losses, score (points), expected (the
        sum of the expected scores of the games with both ratings at the time known),
        expected_games (those games), expected_score (the points scored in them), first_day,
        last_day (datetime64[D]); sorted by player, then opponent. A player's rows add up to
        the list's games, wins, draws and losses.
    """
    player = pg["player"].to_numpy(np.int64)
    opponent = pg["opponent"].to_numpy(np.int64)
    n = int(max(player.max(initial=-1), opponent.max(initial=-1))) + 2
    key = (player + 1) * n + (opponent + 1)
    pair, first = np.unique(key, return_index=True)
    group = np.searchsorted(pair, key)
    score = pg["score"].to_numpy(np.float64)
    expected = pg["expected"].to_numpy(np.float64)
    known = ~np.isnan(expected)
    day = pg["day"].to_numpy("datetime64[D]").astype(np.int64)

    def total(values: np.ndarray) -> np.ndarray:
        out: np.ndarray = np.bincount(group, weights=values, minlength=pair.size)
        return out

    first_day = np.full(pair.size, np.iinfo(np.int64).max)
    np.minimum.at(first_day, group, day)
    last_day = np.full(pair.size, np.iinfo(np.int64).min)
    np.maximum.at(last_day, group, day)
    games = np.bincount(group, minlength=pair.size)
    wins = total(score == 1.0).astype(np.int64)
    draws = total(score == 0.5).astype(np.int64)
    return pd.DataFrame(
        {
            "player": pair // n - 1,
            "opponent": pair % n - 1,
            "games": games,
            "wins": wins,
            "draws": draws,
            "losses": games - wins - draws,
            "score": total(score),
            "expected": total(np.where(known, expected, 0.0)),
            "expected_games": total(known).astype(np.int64),
            "expected_score": total(np.where(known, score, 0.0)),
            "first_day": first_day.astype("datetime64[D]"),
            "last_day": last_day.astype("datetime64[D]"),
        }
    )


def _top(all_lists: Mapping[dt.date, pd.DataFrame], women_only: bool) -> Top:
    if women_only:
        all_lists = {d: women(f) for d, f in all_lists.items()}
    return Top(top_players(all_lists), top_five(all_lists))


def view(as_of: dt.date, category: str, tables: Tables, rules: RuleNumbers) -> View:
    """What the pages of the list of ``category`` on ``as_of`` show (see :class:`View`).

    A pure function of the day's tables (as :func:`whr.lists.build` makes them, or as they are
    read back from an archived entry) and the rules the list was computed with.
    """
    ratings = tables.ratings
    players = players_index(ratings, tables.players)
    number = pa.array(players["player"].astype("str").to_numpy(object))
    year_end = by_list_date(tables.year_end)
    stood = as_they_stood(year_end, tables.record)
    # the player numbers of every list, looked up at once (the year ends are many)
    frames = [ratings, *(s.frame for s in stood.values())]
    numbers = np.split(
        positions(number, pd.concat([f["player"] for f in frames], ignore_index=True)),
        np.cumsum([len(f) for f in frames])[:-1],
    )
    tours = _tournaments(tables)
    t_number = pa.array(tours["tournament_id"])

    # players and tournaments by number from here on: whr.lists.standings works on the codes
    history = tables.history
    h_number = positions(number, history["player"].astype("str"))
    history = pd.DataFrame(
        {
            "player": h_number,
            "date": history["date"].to_numpy(),
            "rating": history["rating"].to_numpy(np.float64),
            "uncertainty": history["uncertainty"].to_numpy(np.float64),
        }
    )
    history = history.iloc[np.lexsort((_days(history["date"]), h_number))].reset_index(drop=True)
    pg = numbered_player_games(tables.games, number, t_number)
    table = standings.standings(pg, standings.player_tournaments(pg, history))
    cells = standings.crosstable(pg, table)
    # the lists' changes at the time: each standings row's, and each game's expected score
    # from the two players' ratings on the list just before its tournament was first rated
    kept = KeptChanges(tables, number, t_number)
    before, after, listed = kept.at(table["player"].to_numpy(), table["tournament_id"].to_numpy())
    table = table.assign(
        then_before=before, then_after=after, then_change=after - before, then_list=listed
    )
    game_tournament = pg["tournament_id"].to_numpy()
    mine = kept.at(pg["player"].to_numpy(), game_tournament)[0]
    theirs = kept.at(pg["opponent"].to_numpy(), game_tournament)[0]
    pg = pg.assign(expected=expected_scores(mine, theirs), opponent_then=theirs)

    # the top players: the columns they need of the lists (37 and more, filtered twice)
    keep = ["list_date", "player", "name", "country", "rating", "games", "rank", "gy1"]
    keep += ["status", "female"]
    all_lists = {as_of: ratings[keep]} | {day: f[keep] for day, f in year_end.items()}
    return View(
        as_of=as_of,
        category=category,
        rules=rules,
        tables=tables,
        players=players,
        countries=countries(ratings),
        current=_list_view(ratings, as_of, "current", numbers[0], rules),
        year_end={
            day: dataclasses.replace(
                _list_view(s.frame, day, str(day.year), n, rules),
                kind=s.kind,
                estimate=s.estimate,
                stood=s.day,
            )
            for (day, s), n in zip(stood.items(), numbers[1:], strict=True)
        },
        published_from=published_from(tables.record),
        tournaments=tours,
        history=history,
        player_games=pg,
        standings=table,
        crosstable=cells,
        top=_top(all_lists, women_only=False),
        top_women=_top(all_lists, women_only=True),
        head_to_head=head_to_head(pg),
    )
