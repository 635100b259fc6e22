"""Rating lists: who is listed on a date, with which status, rank and activity counts.

Plain functions that build rows (pandas DataFrames in the shared schemas); nothing here renders
or writes anything. The policy follows the spec (``rating-system.md`` section 3, rule 10 of the
2021 RIF text), evaluated *as of the list date D*: only rated games up to and including D count,
so a year-end list shows the status each player had on that December 31, not today's.

- established, active (``"active"``): at least 10 rated games up to D and the last one within
  5 years before D, i.e. on a day in (D - 5 years, D];
- established, inactive (``"inactive"``): at least 10 rated games, the last one on or before
  D - 5 years;
- provisional (``"provisional"``): at most 9 rated games.

Ranks are given to established active players only, by rating (ties share the better rank).
Virtual games (the engine's regularisation) never appear in the rated games and never count.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from whr.tables import CHANGE_COLUMNS, RATED_GAMES, RATINGS, STATUSES, as_date, conform, empty

ESTABLISHED_GAMES = 10  # rated games needed to be established (rule 10)
ACTIVE_YEARS = 5  # an established player is active with a rated game in the last 5 years
WINDOWS_YEARS = (1, 2, 5)  # the Gy1, Gy2, Gy5 activity counts

RatingOn = Callable[[dt.date], pd.DataFrame]


def _days(values: object) -> np.ndarray:
    """Dates (``datetime.date`` objects, strings or datetime64) as ``datetime64[D]``."""
    return pd.to_datetime(pd.Series(values), errors="raise").to_numpy().astype("datetime64[D]")


def years_before(day: dt.date, years: int) -> dt.date:
    """The same calendar day ``years`` years before ``day`` (February 29 becomes February 28).

    Parameters
    ----------
    day : datetime.date
        The reference day.
    years : int
        Whole years, >= 0.

    Returns
    -------
    datetime.date
    """
    as_date(day, "day")
    if years < 0:
        raise ValueError(f"years must be >= 0, got {years}")
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # February 29 in a year that has none
        return day.replace(year=day.year - years, day=28)


def status(
    games: Sequence[int] | np.ndarray,
    last_game: object,
    on: dt.date,
    established: Sequence[bool] | np.ndarray | None = None,
) -> np.ndarray:
    """Each player's status on the list date ``on`` (spec section 3).

    Parameters
    ----------
    games : array of int
        Rated games of each player up to and including ``on``.
    last_game : array of dates
        Each player's last rated game on or before ``on``.
    on : datetime.date
        The list date D.
    established : array of bool, optional
        Who is established, when another rating system decides it (the Elo-era rules); default:
        at least 10 rated games (rule 10).

    Returns
    -------
    numpy.ndarray of str
        ``"active"`` (>= 10 games and the last in (D - 5 years, D]), ``"inactive"`` (>= 10 games,
        the last on or before D - 5 years) or ``"provisional"`` (<= 9 games); with
        ``established``, "established" replaces ">= 10 games".
    """
    as_date(on, "on")
    games = np.asarray(games, dtype=np.int64)
    last = _days(last_game)
    if len(games) != len(last):
        raise ValueError(
            f"games and last_game must have the same length, got {len(games)} and {len(last)}"
        )
    if (last > np.datetime64(on, "D")).any():
        raise ValueError(f"last_game must be on or before the list date {on}")
    cutoff = np.datetime64(years_before(on, ACTIVE_YEARS), "D")
    if established is None:
        established = games >= ESTABLISHED_GAMES
    else:
        established = np.asarray(established, dtype=bool)
        if established.shape != games.shape:
            raise ValueError(
                f"established must have one entry per player ({len(games)}), "
                f"got shape {established.shape}"
            )
    recent = last > cutoff
    return np.where(
        established & recent, "active", np.where(established, "inactive", "provisional")
    )


def player_games(rated: pd.DataFrame) -> pd.DataFrame:
    """One row per rated game and side: the games as each player sees them.

    Parameters
    ----------
    rated : pandas.DataFrame
        Rated games (schema ``GAMES``; extra columns such as ``black_rating`` are carried over
        as ``rating``/``opponent_rating`` when present).

    Returns
    -------
    pandas.DataFrame
        Columns player, opponent, game_id, tournament_id, round, day (``datetime64[D]``), colour
        (``"black"``/``"white"``), score (the player's: 1, 0.5, 0), rating and opponent_rating
        (the two players' ratings that day, NaN when not given); sorted by player, day,
        tournament_id, game_id.
    """
    missing = [c for c in ("game_id", "black", "white", "result", "date") if c not in rated]
    if missing:
        raise ValueError(f"rated games are missing columns {missing}")
    day = _days(rated["date"])
    result = rated["result"].to_numpy(dtype=float)
    if np.isnan(result).any() or np.isnat(day).any():
        raise ValueError("rated games must all have a result and a date")
    n = len(rated)
    nan = np.full(n, np.nan)
    black_rating = rated["black_rating"].to_numpy(float) if "black_rating" in rated else nan
    white_rating = rated["white_rating"].to_numpy(float) if "white_rating" in rated else nan
    common = {
        "game_id": np.tile(rated["game_id"].to_numpy(object), 2),
        "tournament_id": np.tile(
            rated["tournament_id"].to_numpy(object)
            if "tournament_id" in rated
            else np.full(n, None),
            2,
        ),
        "round": np.tile(
            rated["round"].to_numpy(object) if "round" in rated else np.full(n, None), 2
        ),
        "day": np.concatenate([day, day]),
    }
    frame = pd.DataFrame(
        {
            "player": np.concatenate(
                [rated["black"].to_numpy(object), rated["white"].to_numpy(object)]
            ),
            "opponent": np.concatenate(
                [rated["white"].to_numpy(object), rated["black"].to_numpy(object)]
            ),
            **common,
            "colour": np.repeat(np.array(["black", "white"], dtype=object), n),
            "score": np.concatenate([result, 1.0 - result]),
            "rating": np.concatenate([black_rating, white_rating]),
            "opponent_rating": np.concatenate([white_rating, black_rating]),
        }
    )
    frame = frame.astype({"player": "str", "opponent": "str", "game_id": "str"})
    return frame.sort_values(
        ["player", "day", "tournament_id", "game_id"], kind="stable"
    ).reset_index(drop=True)


def rated_games(rated: pd.DataFrame, history: pd.DataFrame) -> pd.DataFrame:
    """The rated games with each player's rating and uncertainty on the day of the game.

    Parameters
    ----------
    rated : pandas.DataFrame
        Rated games (schema ``GAMES``).
    history : pandas.DataFrame
        The fit's history (schema ``HISTORY``: player, date, rating, uncertainty, games).

    Returns
    -------
    pandas.DataFrame
        Schema ``RATED_GAMES``, sorted by date, tournament_id, round, game_id.
    """
    h = pd.DataFrame(
        {
            "player": history["player"].astype("str").to_numpy(),
            "day": _days(history["date"]),
            "rating": history["rating"].to_numpy(float),
            "uncertainty": history["uncertainty"].to_numpy(float),
        }
    )
    games = rated.copy()
    games["_day"] = _days(rated["date"])
    games["_order"] = np.arange(len(games))
    for side in ("black", "white"):
        side_h = h.rename(
            columns={
                "player": side,
                "day": "_day",
                "rating": f"{side}_rating",
                "uncertainty": f"{side}_uncertainty",
            }
        )
        games = games.merge(side_h, on=[side, "_day"], how="left", validate="many_to_one")
    games = games.sort_values(["_day", "tournament_id", "round", "game_id"], kind="stable")
    return conform(games.reset_index(drop=True), RATED_GAMES)


def _birth_year(birth: pd.Series) -> pd.Series:
    year = pd.to_numeric(birth.astype("str").str.slice(0, 4), errors="coerce")
    return year.where((year > 1800) & (year < 2200)).astype("Int32")


def list_on(
    on: dt.date,
    history: pd.DataFrame,
    games: pd.DataFrame,
    players: pd.DataFrame,
    rating_on: RatingOn,
) -> pd.DataFrame:
    """The rating list on date ``on``: every player with a rated game up to ``on``.

    Parameters
    ----------
    on : datetime.date
        The list date D. Games after D are ignored, so historical lists are computed as they
        stood on D (the fit itself uses the whole history, as WHR does).
    history : pandas.DataFrame
        The fit's history (schema ``HISTORY``); best rating and its date come from its rows up
        to D.
    games : pandas.DataFrame
        The output of :func:`player_games` for the rated games.
    players : pandas.DataFrame
        Player facts (schema ``PLAYERS``); a player missing here is listed under their id.
    rating_on : callable
        ``rating_on(day)`` returns a DataFrame with columns player, rating (published scale) and
        uncertainty (std, Elo) on ``day`` (spec section 1: interpolated between rating days,
        constant after the last one with variance growing by w2 per day), as ``Fit.rating_on``.
        Another rating system (the Elo-era list, ``whr.elo.elo_list``) may leave out the
        uncertainty column (the list's uncertainty is then null) and may give a bool column
        ``established`` that decides who is established instead of the 10-game rule.

    Returns
    -------
    pandas.DataFrame
        Schema ``RATINGS``: active players by rank, then inactive, then provisional players, each
        by rating (descending), ties by player id.
    """
    as_date(on, "on")
    return _list_on(
        on, _prepare_history(history), _prepare_games(games), _prepare_players(players), rating_on
    )


def _prepare_history(history: pd.DataFrame) -> dict[str, np.ndarray]:
    """player (object), day (datetime64[D]), rating arrays; sorted by player and day."""
    h = pd.DataFrame(
        {
            "player": history["player"].astype("str").to_numpy(),
            "day": _days(history["date"]),
            "rating": history["rating"].to_numpy(float),
        }
    )
    h = h.sort_values(["player", "day"], kind="stable")
    return {
        "player": h["player"].to_numpy(object),
        "day": h["day"].to_numpy().astype("datetime64[D]"),
        "rating": h["rating"].to_numpy(float),
    }


def _prepare_games(games: pd.DataFrame) -> dict[str, np.ndarray]:
    """player (object), day (datetime64[D]), score arrays of :func:`player_games` output."""
    return {
        "player": games["player"].to_numpy(object),
        "day": games["day"].to_numpy().astype("datetime64[D]"),
        "score": games["score"].to_numpy(float),
    }


def _prepare_players(players: pd.DataFrame) -> pd.DataFrame:
    """Player facts indexed by player_id (first row of each id), with birth_year."""
    facts = players.drop_duplicates("player_id", keep="first").set_index("player_id")
    out = pd.DataFrame(index=facts.index)
    for column in ("name", "native_name", "country", "country_name", "female"):
        out[column] = facts.get(column, None)
    out["birth_year"] = (
        _birth_year(facts["birth"]) if "birth" in facts else pd.array([None] * len(facts), "Int32")
    )
    return out


def _group_bounds(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) positions of the runs of equal values in sorted ``keys``."""
    n = len(keys)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    change = np.flatnonzero(keys[1:] != keys[:-1]) + 1
    starts = np.concatenate([[0], change])
    return starts, np.append(starts[1:], n)


def _list_on(
    on: dt.date,
    h: dict[str, np.ndarray],
    games: dict[str, np.ndarray],
    facts: pd.DataFrame,
    rating_on: RatingOn,
) -> pd.DataFrame:
    day = np.datetime64(on, "D")
    keep = games["day"] <= day
    if not keep.any():
        return empty(RATINGS)
    # games are sorted by player then day: each player's rows are one run
    player = games["player"][keep]
    days = games["day"][keep]
    score = games["score"][keep]
    starts, ends = _group_bounds(player)
    cumulative = {
        "wins": score == 1.0,
        "draws": score == 0.5,
        "losses": score == 0.0,
        **{f"gy{y}": days > np.datetime64(years_before(on, y), "D") for y in WINDOWS_YEARS},
    }
    agg = pd.DataFrame(
        {
            "games": ends - starts,
            **{k: np.add.reduceat(v.astype(np.int64), starts) for k, v in cumulative.items()},
            "first_game": days[starts],
            "last_game": days[ends - 1],
        },
        index=pd.Index(player[starts], name="player"),
    )
    hk = h["day"] <= day
    hp = h["player"][hk]
    hd = h["day"][hk]
    hr = h["rating"][hk]
    h_starts, h_ends = _group_bounds(hp)
    if len(hp):
        # best rating of each player: the first day of the maximum (rows are sorted by day)
        group = np.repeat(np.arange(len(h_starts)), h_ends - h_starts)
        top = np.maximum.reduceat(hr, h_starts)
        candidates = np.flatnonzero(hr == top[group])
        _, first = np.unique(group[candidates], return_index=True)
        best_at = candidates[first]
        best = pd.DataFrame(
            {"best_rating": hr[best_at], "best_date": hd[best_at]},
            index=pd.Index(hp[h_starts], name="player"),
        )
    else:
        best = pd.DataFrame({"best_rating": [], "best_date": np.array([], "datetime64[D]")})

    now = rating_on(on)
    has_uncertainty = "uncertainty" in now
    now = pd.DataFrame(
        {
            "player": now["player"].astype("str").to_numpy(),
            "rating": now["rating"].to_numpy(float),
            "uncertainty": now["uncertainty"].to_numpy(float) if has_uncertainty else np.nan,
            **({"established": now["established"].to_numpy(bool)} if "established" in now else {}),
        }
    ).set_index("player")
    rows = agg.join(now, how="left").join(best, how="left")
    unrated = rows["rating"].isna()
    if has_uncertainty:
        unrated |= rows["uncertainty"].isna()
    missing = rows.index[unrated]
    if len(missing):
        raise ValueError(
            f"rating_on({on}) gave no rating for {len(missing)} players with rated games up to "
            f"that day (e.g. {list(missing[:5])}); it must rate every player from their first "
            "rating day on (spec section 1)"
        )
    rows["best_rating"] = rows["best_rating"].fillna(rows["rating"])
    rows["best_date"] = rows["best_date"].fillna(rows["last_game"])
    rows["status"] = status(
        rows["games"].to_numpy(),
        rows["last_game"].to_numpy(),
        on,
        rows["established"].to_numpy(bool) if "established" in rows else None,
    )
    rows = rows.reset_index(names="player")
    info = facts.reindex(rows["player"].to_numpy())
    for column in info.columns:
        rows[column] = info[column].to_numpy()
    rows["name"] = rows["name"].where(rows["name"].notna(), rows["player"])

    order = {s: i for i, s in enumerate(STATUSES)}
    rows["_status"] = rows["status"].map(order)
    rows = rows.sort_values(
        ["_status", "rating", "player"], ascending=[True, False, True], kind="stable"
    ).reset_index(drop=True)
    active = rows["status"] == "active"
    rank = rows["rating"].where(active).rank(method="min", ascending=False)
    rows["rank"] = rank.astype("Int32")
    country_rank = (
        rows.assign(_r=rows["rating"].where(active & rows["country"].notna()))
        .groupby("country", dropna=True)["_r"]
        .rank(method="min", ascending=False)
    )
    rows["country_rank"] = country_rank.reindex(rows.index).astype("Int32")
    rows["list_date"] = on
    for column in CHANGE_COLUMNS:  # filled later from the previous list (whr.changes.since)
        rows[column] = None
    return conform(rows, RATINGS)  # datetime64 columns become date32 here


def year_ends(first: dt.date, on: dt.date) -> list[dt.date]:
    """Every December 31 from ``first``'s year up to ``on`` (inclusive), newest first.

    Parameters
    ----------
    first : datetime.date
        The first rated game.
    on : datetime.date
        The list date D.
    """
    as_date(first, "first")
    as_date(on, "on")
    return [
        dt.date(y, 12, 31) for y in range(on.year, first.year - 1, -1) if dt.date(y, 12, 31) <= on
    ]


def year_end_lists(
    on: dt.date,
    history: pd.DataFrame,
    games: pd.DataFrame,
    players: pd.DataFrame,
    rating_on: RatingOn,
) -> dict[dt.date, pd.DataFrame]:
    """The list on every December 31 from the first rated year up to ``on``, newest first.

    Parameters are those of :func:`list_on`; returns ``{date: RATINGS frame}``.
    """
    if games.empty:
        return {}
    as_date(on, "on")
    first = pd.Timestamp(games["day"].min()).date()
    h = _prepare_history(history)
    g = _prepare_games(games)
    facts = _prepare_players(players)
    return {d: _list_on(d, h, g, facts, rating_on) for d in year_ends(first, on)}


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
    not a rating left standing by a player who stopped; they are ranked among themselves
    (ties share the better rank).

    Returns
    -------
    pandas.DataFrame
        Columns list_date, rank (among the players who played that year), list_rank (on the
        full list), player, name, country, rating; newest list first, then by rank and id.
    """
    if places < 1:
        raise ValueError(f"places must be >= 1, got {places}")
    columns = ["list_date", "rank", "list_rank", "player", "name", "country", "rating"]
    parts = []
    for _, frame in sorted(lists.items(), key=lambda item: item[0], reverse=True):
        played = frame.loc[frame["rank"].notna() & (frame["gy1"] > 0)]
        rank = played["rating"].rank(method="min", ascending=False)
        top = played.assign(list_rank=played["rank"], rank=rank.astype("Int32"))
        parts.append(top.loc[top["rank"] <= places].sort_values(["rank", "player"]))
    if not parts:
        return pd.DataFrame({c: [] for c in columns})
    return pd.concat(parts, ignore_index=True)[columns]


def top_players(
    lists: Mapping[dt.date, pd.DataFrame], top: int = 10, within: float = 200.0
) -> list[str]:
    """Players who, on any of the lists, ranked in the first ``top`` within ``within`` Elo of No. 1.

    The RIF site charts the top 12 within 165 points; the defaults here are 10 and 200.

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
    """The women of a list, in list order, with ``rank`` recomputed among active women.

    ``country_rank`` is left as on the full list.
    """
    female = ratings["female"].fillna(False).astype(bool)
    out = ratings.loc[female].reset_index(drop=True)
    active = out["status"] == "active"
    out["rank"] = out["rating"].where(active).rank(method="min", ascending=False).astype("Int32")
    return out


GY1_GAMES = 10  # the RIF's "Gy1 >= 10" list: rated games in the year up to the list date


def gy1_list(ratings: pd.DataFrame, min_games: int = GY1_GAMES) -> pd.DataFrame:
    """The RIF's "Gy1 ≥ 10" list: established players with many rated games in the last year.

    A player is on it when established (at least 10 rated games up to the list date) and with
    at least ``min_games`` rated games in the year up to the list date (``gy1``, the window
    (D - 1 year, D]). Such a player is always established active, so also ranked on the
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
        The chosen rows in list order (rating descending), with the column ``gy1_rank`` added:
        the rank among them by rating (ties share the better rank); ``rank`` stays the rank on
        the full list.
    """
    if isinstance(min_games, bool) or not isinstance(min_games, int | np.integer):
        raise TypeError(f"min_games must be an int, got {type(min_games).__name__}")
    if min_games < 1:
        raise ValueError(f"min_games must be >= 1, got {min_games}")
    keep = (ratings["games"] >= ESTABLISHED_GAMES) & (ratings["gy1"] >= min_games)
    out = ratings.loc[keep.fillna(False).astype(bool)]
    out = out.sort_values(["rating", "player"], ascending=[False, True], kind="stable")
    out = out.reset_index(drop=True)
    out["gy1_rank"] = out["rating"].rank(method="min", ascending=False).astype("Int32")
    return out


def natural_order(ids: pd.Series) -> np.ndarray:
    """Positions that sort ids naturally: all-digit ids by number first, then the rest as text.

    ``"9"`` comes before ``"10"`` and ``"000123"`` (= 123) before ``"000124"``; ties between
    equal numbers (``"7"``, ``"007"``) are broken by the text.

    Returns
    -------
    numpy.ndarray of int
        A permutation of ``range(len(ids))``.
    """
    text = ids.astype("str")
    digits = text.str.fullmatch(r"[0-9]{1,18}").fillna(False).to_numpy(bool)
    number = np.zeros(len(text), np.int64)
    if digits.any():
        number[digits] = text[digits].astype(np.int64).to_numpy()
    key = pd.DataFrame({"text_id": ~digits, "number": number, "text": text.to_numpy()})
    return key.sort_values(["text_id", "number", "text"], kind="stable").index.to_numpy()


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
