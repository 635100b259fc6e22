"""The page data: every JSON payload the page script reads, its fields declared once, here.

The script (``static/site.js``) reads a field only as ``F.<payload>.<field>``: ``F`` is
:func:`script_fields` of these declarations, written into the script as the site is rendered
(:func:`page_script`), so the data stays compact (columns under short keys, rows as arrays:
names cost no bytes per row) and the script never counts positions. The Python writers build
every payload through the same declarations (:meth:`Payload.text`, :meth:`Payload.rows`,
...), so the two cannot drift apart; ``tests/publish/test_contract.py`` holds the script to
the declared names.

Two kinds of payload:

- keyed: a JSON object; ``F.<payload>.<field>`` is the field's key (a list's data file is one
  such object of columns, ``{"p": [...], "r": [...], ...}``);
- rows: a JSON array; ``F.<payload>.<field>`` is the field's position (a player's tournament
  is ``[tournament, last day, games, ...]``). A flat run of such rows (a tournament's games:
  four numbers each) is read at ``j + F.game.<field>``.

The script is also given the rules the list was computed with (``RULES``, the payload
``rules``): the numbers its texts state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

from whr.lists import RuleNumbers

__all__ = ["PAYLOADS", "Field", "Payload", "page_script", "script_fields"]


@dataclass(frozen=True)
class Field:
    """One field of a payload: the script's name for it, its key in the data (keyed payloads)
    and what it holds."""

    name: str
    key: str
    text: str
    optional: bool = False  # may be left out (a keyed payload) or end a row early (rows)
    read: bool = True  # the page script reads it (else it is there for programs and readers)


@dataclass(frozen=True)
class Payload:
    """A JSON payload the page script reads: its fields, in the order they are written."""

    name: str
    doc: str  # what it is
    fields: tuple[Field, ...]
    rows: bool = False  # an array, each field at its position; else an object, by key

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    @cached_property
    def _known(self) -> frozenset[str]:
        return frozenset(self.names)

    @cached_property
    def _required(self) -> frozenset[str]:
        return frozenset(f.name for f in self.fields if not f.optional)

    def script(self) -> dict[str, str | int]:
        """What the script reads each field by: its key, or its position."""
        if self.rows:
            return {f.name: k for k, f in enumerate(self.fields)}
        return {f.name: f.key for f in self.fields}

    def _check(self, given: Mapping[str, Any]) -> None:
        if given.keys() <= self._known and self._required <= given.keys():
            return  # (called once per page: the common case first)
        unknown = [name for name in given if name not in self._known]
        missing = [f.name for f in self.fields if not f.optional and f.name not in given]
        if unknown or missing:
            raise ValueError(
                f"payload {self.name!r}: fields {self.names}; got unknown {unknown}, "
                f"missing {missing}"
            )

    def object(self, **values: Any) -> dict[str, Any]:
        """A keyed payload as a dict, keys in declared order (an optional field given as None
        is left out)."""
        self._check(values)
        return {f.key: values[f.name] for f in self.fields if values.get(f.name) is not None}

    def text(self, **texts: str | None) -> str:
        """A keyed payload as JSON text, from each field's JSON text (None: left out)."""
        self._check(texts)
        parts = [f'"{f.key}":{texts[f.name]}' for f in self.fields if texts.get(f.name) is not None]
        return "{" + ",".join(parts) + "}"

    def row(self, **values: Any) -> list[Any]:
        """One row of a rows payload: the values in declared order."""
        self._check(values)
        return [values[f.name] for f in self.fields]

    def rows_text(self, **columns: Sequence[str | None]) -> list[str]:
        """Rows of a rows payload as JSON texts ``[a,b,...]``, from a column of JSON texts per
        field; an optional field's value None at the end of a row is left out."""
        self._check(columns)
        ordered = [columns[f.name] for f in self.fields]
        out = []
        for values in zip(*ordered, strict=True):
            end = len(values)
            while end and values[end - 1] is None and self.fields[end - 1].optional:
                end -= 1
            out.append("[" + ",".join(cast(tuple[str, ...], values[:end])) + "]")
        return out


def _keyed(name: str, doc: str, *fields: tuple[str, ...]) -> Payload:
    return Payload(name, doc, tuple(_field(f) for f in fields))


def _rows(name: str, doc: str, *fields: tuple[str, ...]) -> Payload:
    return Payload(name, doc, tuple(_field((f[0], "", *f[1:])) for f in fields), rows=True)


def _field(spec: tuple[str, ...]) -> Field:
    name, key, text, *flags = spec
    return Field(name, key, text, optional="optional" in flags, read="unread" not in flags)


# --- the declarations ----------------------------------------------------------------------
# (the order of the fields is the order they are written in: change it and the data changes)

LIST = _keyed(
    "list",
    "one rating list (a data file data/list-<date>.<digest>.js sets WHR.lists[key]): a column "
    "per field, rows in list order; ranks 0 = none; whole Elo",
    ("player", "p", "the player's number in the players data"),
    ("rating", "r", "rating on the list date"),
    ("uncertainty", "u", "its standard deviation; null on an Elo-era list"),
    ("gy1", "g1", "rated games in the last year up to the list date"),
    ("gy2", "g2", "... in the last 2 years"),
    ("gy5", "g5", "... in the last 5 years"),
    ("status", "s", "0 established active, 1 established inactive, 2 provisional"),
    ("rank", "k", "rank among established active players"),
    ("gy1_rank", "y", 'rank on the "Gy1" list'),
    ("previous_rank", "q", "rank on the previous list"),
    (
        "change",
        "d",
        "rating change since the previous list, as shown: the rating shown minus the previous "
        'list\'s rating shown; "n" a new player',
        "optional",
    ),
    (
        "entered",
        "e",
        "the rows (positions in the list) of the players ranked on it and not on the previous "
        "list: they entered the ranking (present with the change)",
        "optional",
    ),
    ("games", "n", "rated games up to the list date (the current list)", "optional"),
    ("country_rank", "ck", "rank in the country (the current list)", "optional"),
    ("gy1_country_rank", "cy", 'rank in the country on the "Gy1" list (current)', "optional"),
)
COUNTRIES = _keyed(
    "countries",
    "the countries of the current list, a column per field",
    ("code", "code", "country code"),
    ("name", "name", "its name"),
    ("page", "page", "its page's name (countries/<page>.html)", "unread"),
)
PLAYERS = _keyed(
    "players",
    "every listed player by number, natural id order (data/players.<digest>.js sets "
    "WHR.players): a column per field",
    ("id", "id", "player id"),
    ("name", "name", "display name (the id when there is none)"),
    ("label", "lb", "what tells namesakes apart (country, birth year, id); empty if none"),
    ("native", "nt", "name in native script; empty if none"),
    ("city", "ci", "city; empty if not known"),
    ("country", "co", "position in countries; -1 none"),
    ("birth_year", "by", "birth year; 0 not known"),
    ("female", "f", "1 a woman, else 0"),
    ("page", "pg", "{number: page name} where the page's name is not the id"),
    ("countries", "countries", "the countries payload"),
)
TOURNAMENTS = _keyed(
    "tournaments",
    "the tournaments with rated games by number, newest first (data/tournaments.<digest>.js "
    "sets WHR.tournaments): a column per field",
    ("page", "pg", "page name (tournaments/<page>.html)"),
    ("name", "name", "name"),
    ("place", "place", "city and country"),
    ("games", "n", "rated games"),
    ("start", "start", "first day, ISO date"),
    ("end", "end", "last day, ISO date"),
    ("rule", "rule", "rule name"),
)
CFG = _keyed(
    "cfg",
    "a page's settings (<script id=cfg>)",
    ("list", "list", "a list page: which list (WHR.lists' key)", "optional"),
    ("tab", "tab", "a list page: the tab shown first", "optional"),
    ("country", "country", "a country's page: its code; else empty", "optional"),
    ("change", "change", "a list page: the list has a change column", "optional"),
    ("page", "page", "another page with a script: players, tournaments, excluded", "optional"),
    ("root", "root", "the way up to the site directory (../ or empty)"),
)
CHART = _keyed(
    "chart",
    "a rating chart's data (a player's, or <script id=chart-data> of the top players)",
    ("series", "series", "the series drawn"),
)
SERIES = _keyed(
    "series",
    "one series of a chart",
    ("name", "name", "whose (top players' chart)", "optional"),
    ("href", "href", "their page (top players' chart)", "optional", "unread"),
    ("day", "t", "rating days, days since 1970-01-01"),
    ("rating", "r", "rating on each"),
    ("uncertainty", "u", "its standard deviation (a player's chart)", "optional"),
    ("now", "now", "the rating carried to the list date (a now row)", "optional"),
)
NOW = _rows(
    "now",
    "a player's rating carried from the last rating day to the list date",
    ("day", "the list date, days since 1970-01-01"),
    ("rating", "rating, whole Elo"),
    ("uncertainty", "its standard deviation, whole Elo; null none"),
)
PLAYER = _keyed(
    "player",
    "a player's page data (<script id=player-data>)",
    ("chart", "chart", "the rating chart"),
    ("events", "events", "event rows, newest first"),
)
EVENT = _rows(
    "event",
    "one tournament of a player; ratings whole Elo, null none",
    (
        "tournament",
        "the tournament's number in the tournaments data (the page script takes its name and "
        "link from the page's static list of the player's tournaments, in the same order)",
        "unread",
    ),
    ("last_day", "the player's last game day in it, days since 1970-01-01"),
    ("games", "rated games"),
    ("score2", "2 x the score"),
    ("performance", "performance rating"),
    ("bound", "1 at least (all won), -1 at most (all lost), 0 exact"),
    (
        "span",
        "the player's rating days (the chart's) from its first game to its last: the rating "
        "before it is the chart's just before them (none: new to the list), after it the "
        "chart's last at or before its last day; the change after - before, each rounded once",
    ),
    ("then_before", "rating on the list just before it was first rated; null: new or not kept"),
    ("then_after", "rating on the first list that rated it; null: not kept"),
    ("then_change", "then_after - then_before as displayed; null: either is null"),
    ("played", "the games, flat: a game row after another"),
    ("ids", "renju.net game ids of the games (null: none); only if one links", "optional"),
)
GAME = _rows(
    "game",
    "one game of a player's event (flat, one after another)",
    ("round", "round label"),
    ("code", "3 x colour (0 Black, 1 White) + 2 x the player's score"),
    ("opponent", "the opponent's number in the players data"),
    ("opponent_rating", "the opponent's rating that day, whole Elo; null none"),
)
CROSS = _keyed(
    "cross",
    "a tournament's page data (<script id=cross-data>)",
    ("rounds", "rounds", "round labels, in order"),
    ("rows", "rows", "standing rows, in standings order"),
)
STANDING = _rows(
    "standing",
    "one row of a crosstable; ratings whole Elo, null none",
    ("number", "the row's number (#)"),
    ("place_first", "first place shared"),
    ("place_last", "last place shared"),
    ("player", "the player's number in the players data"),
    ("score2", "2 x the score"),
    ("performance", "performance rating"),
    ("bound", "1 at least, -1 at most, 0 exact"),
    ("before", "rating before the tournament; null: new to the list"),
    ("after", "rating after it"),
    ("change", "after - before as shown (each rounded once)"),
    ("cells", 'the rounds\' cells joined by ",", a cell\'s games by " ": "12+b" or "12+b@345"'),
)
EXCLUDED = _keyed(
    "excluded",
    "the games not rated (data/excluded.<digest>.js sets WHR.excluded): a column per game, "
    "newest tournament first, and the tables its columns point into",
    ("game", "g", "the game's id"),
    ("tournament", "t", "its tournament: a position in tournaments"),
    ("black", "b", "Black: a position in player_ids and player_names; -1 not known"),
    ("white", "w", "White: the same; -1 not known (a bye)"),
    ("reason", "r", "the reason: a position in reasons"),
    ("message", "m", "the reason in words: a position in messages"),
    ("tournaments", "tn", "the tournaments' names"),
    ("pages", "tp", "their pages' names; empty: no page (no rated game)"),
    ("ends", "te", "their last days (ISO); empty: not known"),
    ("player_ids", "pi", "the players' ids"),
    ("player_names", "pn", "their names, as read"),
    ("reasons", "rs", "the reason codes"),
    ("messages", "ms", "the messages"),
)
RULES = _keyed(
    "rules",
    "the rules the list was computed with (RULES in the script)",
    ("established_games", "established_games", "rated games to be established"),
    ("active_years", "active_years", "active: the last rated game within these years"),
    ("gy1_games", "gy1_games", 'rated games in the last year for the "Gy1" list'),
    ("windows_years", "windows_years", "the years of the Gy columns"),
)

PAYLOADS: dict[str, Payload] = {
    p.name: p
    for p in (
        LIST,
        COUNTRIES,
        PLAYERS,
        TOURNAMENTS,
        CFG,
        CHART,
        SERIES,
        NOW,
        PLAYER,
        EVENT,
        GAME,
        CROSS,
        STANDING,
        EXCLUDED,
        RULES,
    )
}
"""Every payload the page script reads, by name."""


def script_fields() -> dict[str, dict[str, str | int]]:
    """``F``: each payload's fields, by name, as the script reads them."""
    return {name: payload.script() for name, payload in PAYLOADS.items()}


FIELDS_MARK = "/*@F@*/{}"
RULES_MARK = "/*@RULES@*/{}"


def page_script(source: str, rules: RuleNumbers) -> str:
    """The page script as a site serves it: ``source`` with ``F`` and ``RULES`` filled in."""
    if source.count(FIELDS_MARK) != 1 or source.count(RULES_MARK) != 1:
        raise ValueError(f"the page script must hold {FIELDS_MARK} and {RULES_MARK} once each")
    stated = RULES.object(
        established_games=rules.established_games,
        active_years=rules.active_years,
        gy1_games=rules.gy1_games,
        windows_years=list(rules.windows_years),
    )
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    return source.replace(FIELDS_MARK, json.dumps(script_fields(), **compact)).replace(  # type: ignore[arg-type]
        RULES_MARK,
        json.dumps(stated, **compact),  # type: ignore[arg-type]
    )
