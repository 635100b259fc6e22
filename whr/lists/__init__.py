"""What is on a list: the rating lists' stage, between the fit and publishing.

- :mod:`whr.lists.listing`: who is listed on a date, with which status, rank and activity counts
  (RIF rating rules 2021, rule 10), the year-end lists, the rated games with both ratings;
- :mod:`whr.lists.changes`: what changed since the previous list, and the split of each change
  into the player's own new games and everybody else's;
- :mod:`whr.lists.standings`: tournament standings, crosstables and performances;
- :mod:`whr.lists.views`: what the site shows besides (the "Gy1 >= 10" list, women, countries,
  the top players, the top five of each year, the players index).

Rows in the shared schemas (``whr.tables``), nothing rendered or written.
"""

from whr.lists.changes import since, since_each, split_rating_change, with_split
from whr.lists.listing import (
    ACTIVE_YEARS,
    ESTABLISHED_GAMES,
    STATUSES,
    TIE_ELO,
    WINDOWS_YEARS,
    RatingOn,
    list_on,
    natural_order,
    player_games,
    rank_order,
    rated_games,
    status,
    window_start,
    year_end_lists,
    year_ends,
    years_before,
)
from whr.lists.views import (
    GY1_GAMES,
    RENJUNET_GAME_URL,
    TOP_PLACES,
    TOP_WITHIN_ELO,
    countries,
    country_list,
    gy1_list,
    players_index,
    renjunet_game_url,
    renjunet_games,
    top_five,
    top_players,
    women,
)

__all__ = [
    "ACTIVE_YEARS",
    "ESTABLISHED_GAMES",
    "GY1_GAMES",
    "RENJUNET_GAME_URL",
    "STATUSES",
    "TIE_ELO",
    "TOP_PLACES",
    "TOP_WITHIN_ELO",
    "WINDOWS_YEARS",
    "RatingOn",
    "countries",
    "country_list",
    "gy1_list",
    "list_on",
    "natural_order",
    "player_games",
    "players_index",
    "rank_order",
    "rated_games",
    "renjunet_game_url",
    "renjunet_games",
    "since",
    "since_each",
    "split_rating_change",
    "status",
    "top_five",
    "top_players",
    "window_start",
    "with_split",
    "women",
    "year_end_lists",
    "year_ends",
    "years_before",
]
