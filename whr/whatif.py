"""What if: the exact effect of results not yet rated on a published list (issue 40).

:func:`read` takes a published list from a published tree (its newest day's rated games, list,
players and parameters: nothing else), :func:`what_if` refits Whole-History Rating with
:func:`whr.fit` over every rated game of the list and the hypothetical ones, and reads the list
of the later of the list's day and the last game's day: each player's rating, change against
today's list, rank and status. :func:`parse_game` reads a game as the command line gives it and
:func:`table_games` the games of an EGF tournament table as the daily job reads and selects
them. The site's what-if page (``whatif.html``) computes the same in the browser; see
``docs/site.md`` (*What if*) and ``docs/data-dictionary.md``.
"""

from __future__ import annotations

import datetime as dt
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import whr
from whr.lists import RuleNumbers
from whr.lists.listing import natural_order, ranked, status
from whr.params import CATEGORIES, FitParams
from whr.tables import (
    PLAYERS,
    RATED_GAMES,
    RATINGS,
    SourceData,
    conform,
    days_of,
    empty,
    list_games,
)

__all__ = [
    "NEW",
    "Baseline",
    "TableGames",
    "WhatIf",
    "parse_game",
    "read",
    "table_games",
    "what_if",
]

PROG = "rif-rating"
NEW = "new"
"""How a player with no games is named in a game: ``new``, or ``new:LABEL`` for several."""
MOVES_ELO = 1.0
"""A player other than those of the games "moves" when the rating changes by at least this."""
_GAME_COLUMNS = ["black", "white", "result", "date"]


@dataclass(frozen=True)
class Baseline:
    """A published list, as a what-if starts from it (:func:`read`).

    Attributes
    ----------
    category : str
    as_of : datetime.date
        The list's day.
    params : FitParams
        The parameters its fit was made with (its manifest's ``fit_params``).
    strict : bool
        Its eligibility's strict mode (for a table's games).
    rules : RuleNumbers
        The numbers of its rules.
    games : pandas.DataFrame
        Its rated games up to its day (:func:`list_games`), schema ``RATED_GAMES``.
    ratings : pandas.DataFrame
        The list (schema ``RATINGS``).
    players : pandas.DataFrame
        Every player the list's run read (schema ``PLAYERS``), listed or not.
    """

    category: str
    as_of: dt.date
    params: FitParams
    strict: bool
    rules: RuleNumbers
    games: pd.DataFrame
    ratings: pd.DataFrame
    players: pd.DataFrame


@dataclass(frozen=True)
class WhatIf:
    """What the list of ``day`` would say with the hypothetical games (:func:`what_if`).

    Attributes
    ----------
    day : datetime.date
        The day read: the later of the list's day and the last game's.
    players : pandas.DataFrame
        One row per player of the games, in the order they first appear: ``id``, ``name``,
        ``new`` (no rated game on the list), ``before`` (rating on today's list, published
        scale; NaN for a new player), ``after`` (on the list of ``day``), ``change``
        (``after - before``, Elo, unrounded), ``rank_before``, ``rank_after`` (0: not
        ranked), ``status_before`` ("" for a new player), ``status_after``, ``games_before``,
        ``games_after``.
    others : pandas.DataFrame
        Every other player of today's list whose rating moves by at least 1 Elo: ``id``,
        ``name``, ``before``, ``after``, ``change``, ``rank_before``, ``rank_after``; the
        largest moves first.
    fit : whr.Fit
        The refit.
    """

    day: dt.date
    players: pd.DataFrame
    others: pd.DataFrame
    fit: whr.Fit


@dataclass(frozen=True)
class TableGames:
    """The games of an EGF tournament table, as the daily job selects them (:func:`table_games`).

    Attributes
    ----------
    rated : pandas.DataFrame
        The games it would rate: ``game_id``, ``tournament_id``, ``black``, ``white``,
        ``result``, ``date``.
    not_rated : pandas.DataFrame
        The others: ``game_id``, ``black``, ``white``, ``reason``, ``message``.
    warnings : tuple of str
        What the reading and the selection warned of (a player matched to no id, a
        tournament rated without its facts), one line each.
    names : dict of str to str
        The names of the table's players the list does not know, by the id they have in
        ``rated``: ``new:`` and the table's id (a new player, with no games).
    """

    rated: pd.DataFrame
    not_rated: pd.DataFrame
    warnings: tuple[str, ...]
    names: dict[str, str] = field(default_factory=dict)


def read(out: Path | str, category: str = "renju") -> Baseline:
    """The official list of ``category`` that the published tree ``out`` shows.

    Reads only what the tree publishes, each file checked against its manifest's sha256 first:
    the site's ``latest.json`` (which day it shows), that day's archive entry's manifest (the fit's parameters, the rules' numbers) and its
    ``games.parquet``, ``ratings.parquet`` and ``players.parquet``.

    Raises
    ------
    ValueError
        If ``category`` is not a list's category.
    FileNotFoundError
        If the tree has no published list of ``category``, or its entry lacks a table.
    """
    from whr.publish.archive import check_entry, read_pointer
    from whr.publish.files import read_parquet
    from whr.publish.layout import Channel, Layout

    if category not in CATEGORIES:
        raise ValueError(f"category must be one of {list(CATEGORIES)}, got {category!r}")
    layout = Layout(Path(out))
    channel = Channel(category)
    pointer = read_pointer(layout, channel)
    if pointer is None or not isinstance(pointer.get("archive"), str):
        raise FileNotFoundError(
            f"{layout.pointer(channel)}: no published {category} list here (is --out the "
            "published tree, the directory that holds published.json?)"
        )
    entry = layout.out / pointer["archive"]
    checked = check_entry(entry, checksums=True)  # every file read is checked first
    if isinstance(checked, str):
        raise FileNotFoundError(f"{entry}: {checked}; run {PROG} --verify --out {layout.out}")
    manifest = checked.manifest
    for name in ("games", "ratings", "players"):
        if f"{name}.parquet" not in manifest.get("files", {}):
            raise FileNotFoundError(
                f"{entry}: the entry has no {name}.parquet (only the newest day keeps every table)"
            )
    as_of = dt.date.fromisoformat(manifest["as_of"])
    parameters: dict[str, Any] = manifest.get("parameters") or {}
    return Baseline(
        category=category,
        as_of=as_of,
        params=FitParams.from_dict(manifest.get("fit_params") or {}),
        strict=bool(parameters.get("strict", False)),
        rules=RuleNumbers.from_record(manifest.get("rules")),
        games=list_games(read_parquet(entry / "games.parquet", RATED_GAMES), as_of),
        ratings=read_parquet(entry / "ratings.parquet", RATINGS),
        players=read_parquet(entry / "players.parquet", PLAYERS),
    )


def parse_game(text: str, as_of: dt.date) -> dict[str, Any]:
    """One game as the command line gives it: ``"ID1 ID2 RESULT [YYYY-MM-DD]"``.

    ID1 has Black, ID2 White (an id with a space is quoted, as in a shell: ``"'a b' 7 1"``);
    RESULT is Black's score, ``1``, ``0.5`` (or ``½``) or ``0``; the day is by default the day
    after the list's ``as_of``. A player with no games is ``new``, or ``new:LABEL`` for
    several (:data:`NEW`).

    Returns
    -------
    dict
        ``black``, ``white`` (str), ``result`` (float), ``date`` (datetime.date).

    Raises
    ------
    ValueError
        Naming what is wrong and what was given.
    """
    try:
        parts = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"game {text!r}: {exc}") from None
    if len(parts) not in (3, 4):
        raise ValueError(
            f'game {text!r}: expected "ID1 ID2 RESULT [YYYY-MM-DD]" (ID1 has Black; RESULT is '
            f"Black's score 1, 0.5 or 0), got {len(parts)} words"
        )
    black, white, result = parts[:3]
    scores = {"1": 1.0, "1.0": 1.0, "0.5": 0.5, ".5": 0.5, "½": 0.5, "0": 0.0, "0.0": 0.0}
    if result not in scores:
        raise ValueError(f"game {text!r}: RESULT must be Black's score 1, 0.5 or 0, got {result!r}")
    if black == white:
        raise ValueError(f"game {text!r}: a player cannot play themself")
    day = as_of + dt.timedelta(days=1)
    if len(parts) == 4:
        try:
            day = dt.date.fromisoformat(parts[3])
        except ValueError:
            raise ValueError(
                f"game {text!r}: expected a day YYYY-MM-DD, got {parts[3]!r}"
            ) from None
    return {"black": black, "white": white, "result": scores[result], "date": day}


def _is_new(player: str) -> bool:
    return player == NEW or player.startswith(NEW + ":")


def _check_players(baseline: Baseline, games: pd.DataFrame) -> None:
    known = set(baseline.ratings["player"].astype("str")) | set(
        baseline.players["player_id"].astype("str")
    )
    for player in pd.unique(pd.concat([games["black"], games["white"]]).astype("str")):
        if player not in known and not _is_new(player):
            raise ValueError(
                f"no player {player!r} on the {baseline.category} list of {baseline.as_of} nor "
                f"among its players; a player with no games is {NEW!r} (or {NEW + ':LABEL'!r} "
                "for several)"
            )


def what_if(baseline: Baseline, games: pd.DataFrame, names: dict[str, str] | None = None) -> WhatIf:
    """The list with hypothetical games: every rated game of ``baseline`` and ``games``,
    refitted by :func:`whr.fit` with the list's parameters, read on the later of the list's
    day and the last game's (RIF rating rules 2021, rule 10 for the status; ranks as
    :func:`whr.lists.listing.rank_order`).

    Parameters
    ----------
    baseline : Baseline
        The list (:func:`read`).
    games : pandas.DataFrame
        ``black``, ``white`` (ids: of the list, of its players, or :data:`NEW` ones),
        ``result`` (Black's score), ``date``: e.g. rows of :func:`parse_game`.
    names : dict of str to str, optional
        Names of new players (``new:...`` ids), e.g. :attr:`TableGames.names`.

    Returns
    -------
    WhatIf

    Raises
    ------
    ValueError
        If there is no game, a player is not found, or a value is not valid.
    """
    if not len(games):
        raise ValueError("games: give at least one game")
    days = days_of(games["date"])
    if np.isnat(days).any():
        raise ValueError(f"games: game {int(np.argmax(np.isnat(days)))} has no date")
    hyp = pd.DataFrame(
        {
            "black": games["black"].astype("str").to_numpy(object),
            "white": games["white"].astype("str").to_numpy(object),
            "result": pd.to_numeric(games["result"]).to_numpy(np.float64),
        }
    )
    _check_players(baseline, hyp)
    rated = baseline.games
    both = pd.DataFrame(
        {
            "black": np.concatenate([rated["black"].astype("str").to_numpy(object), hyp["black"]]),
            "white": np.concatenate([rated["white"].astype("str").to_numpy(object), hyp["white"]]),
            "result": np.concatenate([rated["result"].to_numpy(np.float64), hyp["result"]]),
            "date": np.concatenate([days_of(rated["date"]), days]),
        }
    )
    fit = whr.fit(both, baseline.params)
    day = max(baseline.as_of, days.max().astype(dt.date))
    now = _list_on(fit, both, day)
    today = baseline.ratings.set_index(baseline.ratings["player"].astype("str"))
    known = dict(
        zip(
            baseline.players["player_id"].astype("str"),
            baseline.players["name"].fillna(baseline.players["player_id"]).astype("str"),
            strict=True,
        )
    )
    listed_names = today["name"].fillna(pd.Series(today.index, today.index))
    known.update(zip(today.index, listed_names, strict=True))
    known.update(names or {})
    names = known
    sides = zip(hyp["black"], hyp["white"], strict=True)
    mine = list(dict.fromkeys(p for game in sides for p in game))  # in the order they appear
    listed = [p in today.index for p in mine]

    def of_today(column: str, missing: Any) -> list[Any]:
        return [today.at[p, column] if ok else missing for p, ok in zip(mine, listed, strict=True)]

    before = np.asarray(of_today("rating", np.nan), np.float64)
    after = now.loc[mine, "rating"].to_numpy(np.float64)
    players = pd.DataFrame(
        {
            "id": mine,
            "name": [names.get(p, p) for p in mine],
            "new": [not ok for ok in listed],
            "before": before,
            "after": after,
            "change": after - before,
            "rank_before": [int(x) if pd.notna(x) else 0 for x in of_today("rank", 0)],
            "rank_after": now.loc[mine, "rank"].to_numpy(np.int64),
            "status_before": [str(x) for x in of_today("status", "")],
            "status_after": now.loc[mine, "status"].to_numpy(object),
            "games_before": [int(x) for x in of_today("games", 0)],
            "games_after": now.loc[mine, "games"].to_numpy(np.int64),
        }
    )
    rest = today.loc[~today.index.isin(mine)]
    moved = now.loc[rest.index, "rating"].to_numpy(np.float64) - rest["rating"].to_numpy()
    big = np.abs(moved) >= MOVES_ELO
    ids = rest.index[big]
    others = pd.DataFrame(
        {
            "id": ids.to_numpy(object),
            "name": [names.get(p, p) for p in ids],
            "before": rest["rating"].to_numpy()[big],
            "after": now.loc[ids, "rating"].to_numpy(np.float64),
            "change": moved[big],
            "rank_before": [int(x) if pd.notna(x) else 0 for x in rest["rank"].to_numpy()[big]],
            "rank_after": now.loc[ids, "rank"].to_numpy(np.int64),
        }
    )
    order = np.lexsort((others["id"].to_numpy(str), -np.abs(others["change"].to_numpy())))
    return WhatIf(day, players, others.iloc[order].reset_index(drop=True), fit)


def _list_on(fit: whr.Fit, games: pd.DataFrame, day: dt.date) -> pd.DataFrame:
    """Every player of ``fit`` on the list of ``day``: rating, games, status, rank (by id)."""
    ratings = fit.rating_on(day).set_index("player")
    ids = pd.Series(ratings.index.astype("str"))
    sides = pd.concat([games["black"], games["white"]], ignore_index=True).astype("str")
    when = np.concatenate([games["date"].to_numpy(), games["date"].to_numpy()])
    upto = when <= np.datetime64(day, "D")
    count = sides[upto].value_counts().reindex(ids, fill_value=0).to_numpy(np.int64)
    last = pd.Series(when[upto]).groupby(sides[upto].to_numpy()).max().reindex(ids).to_numpy()
    state = status(count, last, day)
    key = np.empty(len(ids), np.int64)
    key[natural_order(ids)] = np.arange(len(ids))
    rank = ranked(ratings["rating"].to_numpy(np.float64), key, state == "active")
    return pd.DataFrame(
        {"rating": ratings["rating"].to_numpy(), "games": count, "status": state, "rank": rank},
        index=ratings.index,
    )


def table_games(baseline: Baseline, path: Path | str, mapping: Path | None = None) -> TableGames:
    """The games of an EGF tournament table as the daily job reads and selects them.

    The table is read by :func:`whr.sources.egf.read_table` (players matched to ids by the
    mapping, by default the maintainers' ``egf_players.csv``) and its games selected by
    :func:`whr.select` with the bundled eligibility rules, the list's category and strict mode,
    as of the later of the list's day and the table's last day, beside the list's players.

    Raises
    ------
    ValueError
        If the table's tournament already has games on the list.
    whr.SourceError
        If the file is not a readable table.
    """
    from whr.rules import default_directory, load_config
    from whr.sources import egf

    data = egf.read_table(Path(path), mapping)
    on_list = set(baseline.games["tournament_id"].dropna().astype("str"))
    again = sorted(set(data.tournaments["tournament_id"].astype("str")) & on_list)
    if again:
        raise ValueError(
            f"{path}: tournament {again[0]} already has rated games on the {baseline.category} "
            f"list of {baseline.as_of}"
        )
    ends = days_of(data.tournaments["end"])
    last = ends[~np.isnat(ends)].max() if (~np.isnat(ends)).any() else np.datetime64("NaT")
    as_of = baseline.as_of if np.isnat(last) else max(baseline.as_of, last.astype(dt.date))
    players = pd.concat([baseline.players, data.players], ignore_index=True)
    source = SourceData(
        players=conform(players, PLAYERS),
        tournaments=data.tournaments,
        games=data.games,
        problems=data.problems,
        inputs=data.inputs,
    )
    config = load_config(default_directory())
    sel = whr.select(source, as_of, baseline.category, baseline.strict, config=config)
    sides = data.games.set_index("game_id")[["black", "white"]]
    excluded = sel.exclusions
    not_rated = pd.DataFrame(
        {
            "game_id": excluded["game_id"].astype("str").to_numpy(object),
            "black": sides["black"].reindex(excluded["game_id"]).to_numpy(object),
            "white": sides["white"].reindex(excluded["game_id"]).to_numpy(object),
            "reason": excluded["reason"].astype("str").to_numpy(object),
            "message": excluded["message"].to_numpy(object),
        }
    )
    warned = pd.concat([data.problems, sel.warnings], ignore_index=True)
    warnings = tuple(
        f"{row.code}: {row.message}"
        for row in warned.itertuples()
        if str(row.severity) == "warning" and str(row.code) != "after_as_of"
    )
    rated = sel.rated
    out = rated[["game_id", "tournament_id", "black", "white", "result", "date"]].copy()
    # a player of the table the list does not know has no games: a new player, named
    known = set(baseline.players["player_id"].astype("str"))
    names = {}
    for side in ("black", "white"):
        ids = out[side].astype("str").to_numpy(object)
        for k, player in enumerate(ids):
            if player not in known:
                ids[k] = f"{NEW}:{player}"
        out[side] = ids
    table_names = dict(
        zip(
            data.players["player_id"].astype("str"),
            data.players["name"].fillna(data.players["player_id"]).astype("str"),
            strict=True,
        )
    )
    for player in pd.unique(pd.concat([out["black"], out["white"]])):
        if str(player).startswith(NEW + ":"):
            names[str(player)] = table_names.get(str(player)[len(NEW) + 1 :], str(player))
    return TableGames(
        out.reset_index(drop=True) if len(rated) else _no_games(), not_rated, warnings, names
    )


def _no_games() -> pd.DataFrame:
    return empty(RATED_GAMES)[["game_id", "tournament_id", "black", "white", "result", "date"]]
