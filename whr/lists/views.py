"""The views of a list that the site shows: the "Gy1 >= 10" list, women, countries, the top
players of every list, the top five of each year, the players index.

Plain functions on lists in the ``RATINGS`` schema (rows, no rendering); every rank here is
given in the one order of :func:`whr.lists.listing.rank_order`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import numpy as np
import pandas as pd

from whr.lists.listing import ESTABLISHED_GAMES, _numbered, natural_order, rank_order


def country_list(ratings: pd.DataFrame, country: str) -> pd.DataFrame:
    """The players of one country from a list, in list order (``country_rank`` is their rank)."""
    if not isinstance(country, str):
        raise TypeError(f"country must be a str, got {type(country).__name__}")
    return ratings.loc[ratings["country"] == country].reset_index(drop=True)


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


GY1_GAMES = 10  # the RIF's "Gy1 >= 10" list: rated games in the year up to the list date


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


RENJUNET_GAME_URL = "https://www.renju.net/game/{id}/"  # the game's page on renju.net
_RENJUNET_FILE = r"(?i)(?:^|[/\\])(?:renjunet[^/\\]*|[^/\\]*\.rif(?:\.gz|\.zip)?)$"


def renjunet_games(games: pd.DataFrame) -> np.ndarray:
    """Which games are RenjuNet's own records, so that renju.net has a page for them.

    A game is one when its ``game_id`` is a plain number (RenjuNet's ids; the RIF's manual
    additions were ``G…``, EGF games ``<tournament>:r<round>:…``) and its ``source`` names a
    RenjuNet database file (a name starting with ``renjunet`` or ending in ``.rif``,
    ``.rif.gz`` or ``.rif.zip``). Only results are published; renju.net shows the moves
    under its own licence.

    Parameters
    ----------
    games : pandas.DataFrame
        Games with columns game_id and source (schema ``GAMES`` or ``RATED_GAMES``).

    Returns
    -------
    numpy.ndarray of bool
    """
    missing = [c for c in ("game_id", "source") if c not in games]
    if missing:
        raise ValueError(f"games are missing columns {missing}")
    ids = games["game_id"].astype("str").str.fullmatch(r"[0-9]{1,12}").fillna(False)
    source = games["source"].astype("str").str.contains(_RENJUNET_FILE).fillna(False)
    return (ids & source).to_numpy(bool)


def renjunet_game_url(game_id: str) -> str:
    """The renju.net page of a RenjuNet game id (see :func:`renjunet_games`)."""
    if not isinstance(game_id, str) or not game_id.isdigit() or not game_id.isascii():
        raise ValueError(f"game_id must be a RenjuNet game id (digits), got {game_id!r}")
    return RENJUNET_GAME_URL.format(id=game_id)
