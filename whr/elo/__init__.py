"""The Elo-era RIF rating rules (1996-2021): formulas and a replay of the whole history.

Public API:

- ``expected_score(rating, opponent_rating)``: ``1 / (1 + 2**((opponent - rating) / 120))``
- ``game_change(rating, opponent_rating, score)``: ``32 * (score - expected)``, unrounded
- ``replay(games, rules="1997", as_of=None)``: the Elo list on a date, one row per player
- ``elo_list(games, players, as_of, rules="1997", **replay_options)``: the same list in the
  shape of the WHR lists (``whr.tables.RATINGS``)
- ``rating_history(games, rules="1997", as_of=None)``: every rating each player held
- the rule pieces: ``contribution`` (1996 ``F``), ``start_interval`` and ``start_rating``
  (1996 rule 8), ``provisional_rating`` (1997 rule 7 in the cumulative form of the Japanese explanation of the Elo-era ratings)

See ``docs/elo.md`` for how the rule texts were read.
"""

from whr.elo.formulas import (
    contribution,
    expected_score,
    game_change,
    provisional_rating,
    round_half_away,
    start_interval,
    start_rating,
)
from whr.elo.lists import elo_list
from whr.elo.replay import LIST_COLUMNS, RULES, rating_history, ratings_before, replay

__all__ = [
    "LIST_COLUMNS",
    "RULES",
    "contribution",
    "elo_list",
    "expected_score",
    "game_change",
    "rating_history",
    "ratings_before",
    "provisional_rating",
    "replay",
    "round_half_away",
    "start_interval",
    "start_rating",
]
