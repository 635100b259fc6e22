"""The stable reason codes of eligibility, in the order they are tested.

A game that is not rated gets exactly one reason: the first of ``REASONS`` that applies to it.
The order is part of the contract (counts by reason depend on it) and is documented, with the
reasoning behind it, in ``docs/eligibility.md``. Codes never change meaning; new codes may be
added.
"""

from __future__ import annotations

from types import MappingProxyType

#: Reason code -> one-line description, in precedence order (first that applies wins).
REASONS = MappingProxyType(
    {
        # Identity of the record.
        "duplicate_game": "a later copy of a game id already read; the first copy is judged",
        "unknown_tournament": "the game names no tournament, or one missing from the tournaments table",
        "out_of_category": "the tournament's rule is of the other category (renju/gomoku) or unknown",
        # The maintainers' word.
        "override_game": "forced out by the maintainers' unrated_games list",
        "override_tournament": "tournament forced out by the maintainers' unrated_tournaments list",
        # Every era: the game itself (RIF qualification system 1996, section 4).
        "bye": "a round without a game: the player had no opponent (counted apart from games)",
        "forfeit": "not played in reality: a walk-over, a result by default, a game never played",
        "handicap": "played with a handicap: not a game under a rule certified by the RIF",
        "unrated_game": "the game record itself is marked unrated",
        "no_result": "the game has no result (or one other than 1, 0.5, 0)",
        "unknown_player": "a side is missing or not in the players table",
        "self_play": "black and white are the same player",
        "unknown_date": "the game's date is not known",
        "before_rated_era": "the game is dated before any game can be rated (1899): a wrong date",
        "after_as_of": "the game is dated after the list date: a later game, for a later list",
        "unfinished_tournament": "the tournament ends after the as-of date (not finished yet)",
        "tournament_type": "the tournament type is not 0 (ordinary); the RIF's site rates type 0 only",
        # From the cut-over date (2021-08-08): rule 9 of the 2021 rules.
        "rule_not_certified": "the tournament's rule is not one certified by the RIF",
        "too_short": "less than the minimum thinking time per player",
        "online_unsupervised": "played online without video supervision by a recognised referee",
        "no_moves": "the game record has no moves (complete records are required)",
        # Both eras: the database's flag.
        "not_rated": "the database does not mark the tournament rated (nor rated_tournaments)",
        # Strict mode only.
        "unverified": "strict mode: a fact the rules need is not known (minutes, mode, moves, rule)",
    }
)

#: Warning codes (``Selection.warnings``, PROBLEMS schema, severity "warning").
WARNINGS = MappingProxyType(
    {
        "unverified": "games rated on the database's flag alone: a fact the 2021 rules need is unknown",
        "override_unused": "an override list names an id that is not in the data",
        "duplicate_tournament": "a tournament id appears more than once; the first row is used",
        "implausible_date": "games dated before any game can be rated (1899): excluded, the "
        "date needs fixing",
        "unknown_tournament": "tournament_facts.csv names a tournament that is not in the data",
        "facts_date_ignored": "tournament_facts.csv gives a date the source already gives "
        "differently; the source's is kept",
    }
)
