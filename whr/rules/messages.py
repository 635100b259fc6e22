"""The messages that say why a game is not rated: one template per case, its values named.

:func:`whr.rules.select` writes each excluded game's message (``EXCLUSIONS.message``) by
filling one of these templates (:func:`fill`); a reader of the message in another language gets
the same template translated, with the same values (the site's catalogs hold these templates,
and :func:`parse` finds a message's template and values again). A template is named after its
reason code (``REASONS``), with a suffix where one reason has several cases. Values are data
(ids, rules, dates, the maintainers' comments), quoted where the message quotes them.
"""

from __future__ import annotations

import re
from functools import cache
from types import MappingProxyType

import pandas as pd

SECTION_4 = " (RIF qualification system 1996, section 4)"

MESSAGES = MappingProxyType(
    {
        "duplicate_game": "game id %(game)s was read before; only the first copy is judged",
        "unknown_tournament.none": "the game names no tournament",
        "unknown_tournament.missing": "tournament %(tournament)s is not in the tournaments table",
        "out_of_category.unknown": "rule %(rule)s has no known category; the list is %(category)s",
        "out_of_category.other": "rule %(rule)s is %(rule_category)s; the list is %(category)s",
        "override_game": "unrated_games: %(reason)s",
        "override_game.no_reason": "unrated_games: (no reason given)",
        "override_tournament": "unrated_tournaments: %(reason)s",
        "override_tournament.no_reason": "unrated_tournaments: (no reason given)",
        "bye.flag": "a bye: a round without a game, not a game",
        "bye.note": "a bye, as its note says: %(phrase)s",
        "forfeit.flag": "not played in reality: the source marks it a walk-over or a result by "
        "default" + SECTION_4,
        "forfeit.note": "not played in reality, as its note says: %(phrase)s" + SECTION_4,
        "handicap.one": "played with a handicap of 1 stone; a handicap game is not a game under a "
        "rule certified by the RIF",
        "handicap.many": "played with a handicap of %(stones)s stones; a handicap game is not a "
        "game under a rule certified by the RIF",
        "unrated_game": "the game record is marked unrated",
        "no_result.none": "no result recorded",
        "no_result.other": "result %(result)s is not 1, 0.5 or 0",
        "unknown_player.black": "black is unknown",
        "unknown_player.white": "white is unknown",
        "unknown_player.missing": "player %(black)s or %(white)s is not in the players table",
        "self_play": "black and white are the same player %(player)s",
        "unknown_date": "neither the game nor its tournament %(tournament)s has a known date; "
        "give the tournament's first and last day in tournament_facts.csv: the line %(line)s "
        "under the header %(header)s",
        "before_rated_era": "dated %(date)s, before any game can be rated (%(first)s): a wrong "
        "date",
        "after_as_of": "played %(date)s, after the as-of date %(as_of)s: a later game, for a "
        "later list",
        "unfinished_tournament": "tournament %(tournament)s ends %(end)s, after the as-of date "
        "%(as_of)s",
        "tournament_type": "tournament type %(type)s is not 0 (ordinary); the RIF's site rates "
        "type 0 only",
        "rule_not_certified": "rule %(rule)s is not certified by the RIF (required from %(since)s)",
        "too_short": "%(minutes)s minutes per player, less than %(least)s (from %(since)s)",
        "online_unsupervised": "played %(mode)s; face to face or supervised online only (from "
        "%(since)s)",
        "no_moves": "no moves recorded; complete game records are required from %(since)s",
        "not_rated": "the database does not mark tournament %(tournament)s rated (nor does "
        "rated_tournaments)",
        "unverified.unknown_fact": "strict mode: tournament %(tournament)s is judged by the "
        "rules of %(since)s but a fact is not known",
        "unverified.no_flag": "strict mode: tournament %(tournament)s has no rated flag in its "
        "source (an EGF table) and no maintainer confirmed it (rated_tournaments, or a line of "
        "tournament_facts.csv: see facts_needed.csv)",
    }
)
"""Template name (``<reason code>`` or ``<reason code>.<case>``) -> English template, its
values ``%(name)s`` (no other ``%``)."""

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def fill(name: str, **values: pd.Series | str) -> pd.Series | str:
    """The template ``name`` with its values (texts, or Series of texts, one per game): a
    text, or a Series of texts when a value is a Series. The values are put in as they are
    (never formatted with ``%``: a value is data)."""
    parts = PLACEHOLDER.split(MESSAGES[name])  # text, value name, text, value name, ..., text
    out: pd.Series | str = parts[0]
    for k in range(1, len(parts), 2):
        out = out + values[parts[k]] + parts[k + 1]
    return out


@cache
def _patterns(code: str) -> tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...]:
    found = []
    for name, template in MESSAGES.items():
        if name != code and not name.startswith(code + "."):
            continue
        parts = PLACEHOLDER.split(template)
        regex = "".join(re.escape(part) if k % 2 == 0 else "(.*?)" for k, part in enumerate(parts))
        found.append((name, re.compile(f"^{regex}$", re.S), tuple(parts[1::2])))
    # the most specific first (the longest fixed text): "a bye: ..." before "a bye, as ..."
    return tuple(sorted(found, key=lambda x: -len(PLACEHOLDER.sub("", MESSAGES[x[0]]))))


def parse(code: str, message: str) -> tuple[str, dict[str, str]] | None:
    """The template (its name) and the values that make ``message`` of reason ``code``; None
    when no template of the reason makes it (a message of another version of the rules)."""
    for name, pattern, names in _patterns(code):
        m = pattern.match(message)
        if m:
            return name, dict(zip(names, m.groups(), strict=True))
    return None
