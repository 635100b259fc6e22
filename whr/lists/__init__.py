"""What is on a list: the rating lists' stage, between the fit and publishing.

One entry, :func:`build` ``(data, selection, fit, previous) -> Snapshot``: every table a day
publishes, its counts and what the manifest says of the fit, as one frozen value
(:mod:`whr.lists.snapshot`); ``whr.publish.publish`` writes it and decides nothing. Inside:

- :mod:`whr.lists.listing`: who is listed on a date, with which status, rank and activity counts
  (RIF rating rules 2021, rule 10), the year-end lists, the rated games with both ratings;
- :mod:`whr.lists.changes`: what changed since the previous list, and the split of each change
  into the player's own new games and everybody else's;
- :mod:`whr.lists.standings`: tournament standings, crosstables and performances;
- :mod:`whr.lists.views`: what the pages show (:func:`view` of a day's tables, also of an
  archived entry's: the "Gy1 >= 10" list, women, countries, the top players, the top five of
  each year, the players index, the tournaments numbered with their standings).

Rows in the shared schemas (``whr.tables``), nothing rendered or written.
"""

from whr.lists.changes import since, since_each, split_rating_change, with_split
from whr.lists.listing import (
    ACTIVE_YEARS,
    ESTABLISHED_GAMES,
    GY1_GAMES,
    TIE_ELO,
    WINDOWS_YEARS,
    RatingOn,
    RuleNumbers,
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
from whr.lists.published import Tables, by_list_date
from whr.lists.snapshot import Counts, FitRecord, Previous, Snapshot, build
from whr.lists.views import (
    TOP_PLACES,
    TOP_WITHIN_ELO,
    ListView,
    Top,
    View,
    countries,
    gy1_list,
    players_index,
    top_five,
    top_players,
    view,
    women,
)
from whr.tables import STATUSES

__all__ = [
    "ACTIVE_YEARS",
    "ESTABLISHED_GAMES",
    "GY1_GAMES",
    "STATUSES",
    "TIE_ELO",
    "TOP_PLACES",
    "TOP_WITHIN_ELO",
    "WINDOWS_YEARS",
    "Counts",
    "FitRecord",
    "ListView",
    "Previous",
    "RatingOn",
    "RuleNumbers",
    "Snapshot",
    "Tables",
    "Top",
    "View",
    "build",
    "by_list_date",
    "countries",
    "gy1_list",
    "list_on",
    "natural_order",
    "player_games",
    "players_index",
    "rank_order",
    "rated_games",
    "since",
    "since_each",
    "split_rating_change",
    "status",
    "top_five",
    "top_players",
    "view",
    "window_start",
    "with_split",
    "women",
    "year_end_lists",
    "year_ends",
    "years_before",
]
