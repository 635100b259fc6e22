"""The Elo-era list in the shape of the WHR lists (schema ``whr.tables.RATINGS``).

The rows are built by :func:`whr.lists.list_on`, the function that builds the WHR lists, given
the Elo replay's ratings on the list date and its rating history; so names, countries, birth
years, the counts of games, wins, draws, losses, Gy1/Gy2/Gy5, first and last game, the ranks
and the order are computed exactly as on the WHR list. What differs (see ``docs/elo.md``):

- ``rating``: the Elo-era rating on the list date (:func:`whr.elo.replay`);
- ``uncertainty``: null (Elo has none);
- ``status``: ``"provisional"`` when the rules have the player provisional, else ``"active"``
  when the last rated game is in [D - 5 years, D] (the WHR lists' window, rule 10 of the RIF
  rating rules 2021; RIF qualification system 1996, section 9: no rating is published after
  five years' absence), else ``"inactive"``;
- ``best_rating``, ``best_date``: the best Elo rating held up to D and the first day it was held
  (:func:`whr.elo.rating_history`).
"""

from __future__ import annotations

import datetime as dt
from typing import TypedDict, Unpack

import pandas as pd

from whr import lists
from whr.elo.replay import SEED_RATING, _replay, _Track, usable
from whr.tables import as_date

__all__ = ["elo_list"]


class ReplayOptions(TypedDict, total=False):
    """The options of :func:`whr.elo.replay` that :func:`elo_list` passes on."""

    initial: pd.DataFrame | None
    seed_rating: float | None
    tournaments: pd.DataFrame | None


_OPTIONS = tuple(ReplayOptions.__annotations__)


def elo_list(
    games: pd.DataFrame,
    players: pd.DataFrame,
    as_of: dt.date,
    rules: str = "1997",
    **replay_options: Unpack[ReplayOptions],
) -> pd.DataFrame:
    """The Elo-era rating list on ``as_of``, with the columns and types of the WHR lists.

    Parameters
    ----------
    games : pandas.DataFrame
        Rated games (schema ``GAMES``; needs ``game_id``, ``black``, ``white``, ``result``,
        ``date``, ``tournament_id``), e.g. ``whr.select(...).rated``, the games the WHR list is
        computed from. Games without two distinct players, a result or a date are left out, as
        :func:`whr.elo.replay` does. Not modified.
    players : pandas.DataFrame
        Player facts (schema ``PLAYERS``); a player missing here is listed under their id.
    as_of : datetime.date
        The list date D. Tournaments that end after D are not rated yet; games after D are
        ignored.
    rules : {"1997", "1996", "era"}
        The Elo rule set, as for :func:`whr.elo.replay`.
    **replay_options
        ``initial``, ``seed_rating``, ``tournaments``: as for :func:`whr.elo.replay`.

    Returns
    -------
    pandas.DataFrame
        Schema ``RATINGS`` (``whr.tables.conform``-ed): one row per player with an Elo rating on
        D; active players by rank (1..n: the unrounded rating, ties within 1e-6 Elo by player
        id, as :func:`whr.lists.rank_order`), then inactive, then provisional, each in that
        order. ``games``, ``wins``, ``draws``,
        ``losses``, ``gy1``, ``gy2``, ``gy5``, ``first_game``, ``last_game`` count every game of
        ``games`` up to D, as the WHR list does, including the games of a tournament still
        running on D and games the rules did not count (against provisional players, or below
        the 1996 minimum time).

    Raises
    ------
    TypeError
        If ``games`` is not a DataFrame, ``as_of`` not a date, or an option is unknown.
    ValueError
        If ``rules`` is not a rule set, or the games lack a needed column.
    """
    as_date(as_of, "as_of")
    if not isinstance(games, pd.DataFrame):
        raise TypeError(f"games must be a pandas DataFrame, got {type(games).__name__}")
    unknown = sorted(set(replay_options) - set(_OPTIONS))
    if unknown:
        raise TypeError(f"replay_options must be among {list(_OPTIONS)}, got {unknown}")
    track = _Track()
    elo = _replay(
        games,
        rules,
        as_of,
        replay_options.get("initial"),
        replay_options.get("seed_rating", SEED_RATING),
        replay_options.get("tournaments"),
        track,
    )
    # the games each rated player played, counted as on the WHR list; players without an Elo
    # rating (they met no rated player, or their first tournament is still running) are not
    # on the list
    sides = lists.player_games(games.loc[usable(games)])
    sides = sides.loc[sides["player"].isin(elo["player"])].reset_index(drop=True)
    now = pd.DataFrame(
        {
            "player": elo["player"].to_numpy(),
            "rating": elo["rating"].to_numpy(float),
            "established": (elo["status"] == "established").to_numpy(bool),
        }
    )

    def rating_on(day: dt.date) -> pd.DataFrame:
        if day != as_of:
            raise ValueError(f"the Elo list was replayed for {as_of}, asked for {day}")
        return now

    return lists.list_on(as_of, track.frame(), sides, players, rating_on)
