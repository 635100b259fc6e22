"""The page data and the tables: every JSON payload the page script reads and every table the
site draws, each declared once, here.

Payloads. The script (``static/site.js``) reads a field only as ``F.<payload>.<field>``: ``F``
is :func:`script_fields` of these declarations, written into the script as the site is rendered
(:func:`page_script`), so the data stays compact (columns under short keys, rows as arrays:
names cost no bytes per row) and the script never counts positions. The Python writers build
every payload through the same declarations (:meth:`Payload.text`, :meth:`Payload.rows`, ...),
so the two cannot drift apart. Two kinds of payload:

- keyed: a JSON object; ``F.<payload>.<field>`` is the field's key (a list's data file is one
  such object of columns, ``{"p": [...], "r": [...], ...}``);
- rows: a JSON array; ``F.<payload>.<field>`` is the field's position (a player's tournament
  is ``[tournament, last day, games, ...]``). A flat run of such rows (a tournament's games:
  four numbers each) is read at ``j + F.game.<field>``.

A field that is a position into something else says so (``ref``): a field of the same payload
(a list's codes, a table of its own) or another payload the page has (``players``), so that a
column can show ``player.birth_year``.

Tables. Each table of the site (:data:`TABLES`, :func:`tables`) is declared once: its rows (a
payload), its columns (heading message, CSS class, the fields it shows, the formatter that
shows them, the first direction of its sort), its parts (tabs: which rows, which columns, in
which order) and its marks. The Python row filler (``rows.py``) writes from it the rows a page
carries for readers without script, and the page script's one generic table draws every table
from it (``T`` in the script, :func:`script_tables`): neither side names a column of its own.
The texts are messages (:class:`Text`), carried by their id (``i18n.message_id``); the texts
the script writes outside the tables are declared here too (:data:`TEXTS`). A formatter is
implemented once in each language, by its name (:data:`FORMATS`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, cast

from markupsafe import Markup, escape

from whr.lists import RuleNumbers
from whr.publish.site.i18n import JOIN, LANGUAGES, PLACE, PLACEHOLDER, html_of, message_id

__all__ = [
    "FORMATS",
    "PAYLOADS",
    "TEXTS",
    "Column",
    "Field",
    "Mark",
    "Payload",
    "Tab",
    "Table",
    "Text",
    "page_script",
    "script_fields",
    "tables",
]


@dataclass(frozen=True)
class Field:
    """One field of a payload: the script's name for it, its key in the data (keyed payloads)
    and what it holds."""

    name: str
    key: str
    text: str
    optional: bool = False  # may be left out (a keyed payload) or end a row early (rows)
    read: bool = True  # the page script reads it (else it is there for programs and readers)
    ref: str = ""  # a position into ref: a field of the same payload, else a payload by name
    holds: str = ""  # its value is a payload of that name (a table the other fields point into)


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

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

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
    ref = next((f.removeprefix("ref=") for f in flags if f.startswith("ref=")), "")
    holds = next((f.removeprefix("holds=") for f in flags if f.startswith("holds=")), "")
    return Field(name, key, text, "optional" in flags, "unread" not in flags, ref, holds)


# --- the payloads ----------------------------------------------------------------------------
# (the order of the fields is the order they are written in: change it and the data changes)

LIST = _keyed(
    "list",
    "one rating list (a data file data/list-<date>.<digest>.js sets WHR.lists[key]): a column "
    "per field, rows in list order; ranks 0 = none; whole Elo",
    ("player", "p", "the player's number in the players data", "ref=players"),
    ("rating", "r", "rating on the list date"),
    ("uncertainty", "u", "its standard deviation; null on an Elo-era list"),
    ("peak", "b", "the best rating a list published up to the list date (the record's)"),
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
    (
        "estimate",
        "x",
        "a year-end list that stood: today's estimate of the rating on December 31",
        "optional",
    ),
)
COUNTRIES = _keyed(
    "countries",
    "countries, a column per field: in the players data those of the listed players, in the "
    "tournaments data those of the tournaments' places",
    ("code", "code", "country code"),
    ("name", "name", "its name (English)"),
    ("page", "page", "its page's name (countries/<page>.html); empty: none", "unread"),
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
    ("country", "co", "position in countries; -1 none", "ref=countries"),
    ("birth_year", "by", "birth year; 0 not known"),
    ("female", "f", "1 a woman, else 0"),
    ("page", "pg", "{number: page name} where the page's name is not the id"),
    ("countries", "countries", "the countries payload", "holds=countries"),
)
TOURNAMENTS = _keyed(
    "tournaments",
    "the tournaments with rated games by number, newest first (data/tournaments.<digest>.js "
    "sets WHR.tournaments): a column per field",
    ("page", "pg", "page name (tournaments/<page>.html)"),
    ("name", "name", "name"),
    ("city", "ci", "its city; empty if not known"),
    ("country", "co", "its country: a position in countries; -1 none", "ref=countries"),
    ("games", "n", "rated games"),
    ("start", "start", "first day, ISO date"),
    ("end", "end", "last day, ISO date"),
    ("rule", "rule", "rule name"),
    ("countries", "countries", "the countries payload of the places", "holds=countries"),
)
CFG = _keyed(
    "cfg",
    "a page's settings (<script id=cfg>)",
    ("table", "table", "the table the page draws (a name of TABLES)", "optional"),
    ("list", "list", "a list's page, the players index: which list (WHR.lists' key)", "optional"),
    ("tab", "tab", "a list page: the tab shown first", "optional"),
    ("country", "country", "a country's page: its code", "optional"),
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
    (
        "step",
        "st",
        "1: a step line, each rating held until the next (what the lists published)",
        "optional",
    ),
    (
        "from",
        "fr",
        "a step line: the day of the first list this site published, days since 1970-01-01; "
        "the steps before it are lists the backfill reconstructed (drawn dotted)",
        "optional",
    ),
)
NOW = _rows(
    "now",
    "a player's rating carried from the last rating day to the list date",
    ("day", "the list date, days since 1970-01-01"),
    ("rating", "rating, whole Elo"),
    ("uncertainty", "its standard deviation, whole Elo; null none"),
)
P_FILE = _keyed(
    "p_file",
    "a player's data for programs, p/<id>.json beside the page, which the page fetches "
    "(docs/data-dictionary.md; its facts are keys of their own, not read by the page script): "
    "each section an object of columns, one entry per row",
    ("date", "date", "the list's day D, ISO"),
    (
        "published_from",
        "published_from",
        "the first list this site published, ISO: the lists before it were reconstructed by "
        "the backfill (rif-rating backfill); null none",
    ),
    ("rating", "rating", "the rating on D, to the hundredth"),
    ("uncertainty", "uncertainty", "its standard deviation; null none"),
    (
        "published",
        "published",
        "what the lists said, oldest first: each rating shown and the list that first showed "
        "it; a list's rating is that of the last row on or before its day, to D",
        "holds=p_published",
    ),
    (
        "estimate",
        "estimate",
        "today's whole-history estimate on each rating day",
        "holds=p_estimate",
    ),
    ("tournaments", "tournaments", "the player's tournaments, newest first", "holds=p_tournaments"),
    (
        "games",
        "games",
        "the player's rated games, by tournament (its order), in playing order",
        "holds=p_games",
    ),
    ("opponents", "opponents", "head to head, by opponent", "holds=p_opponents"),
)
P_PUBLISHED = _keyed(
    "p_published",
    "what the lists said, a row whenever the rating shown changed (and on the first list "
    "this site published): a column per field",
    (
        "day",
        "day_deltas",
        "the day of the list that first showed the rating: the first row's in days since "
        "1970-01-01, each next as the days since the row before (a running sum gives the days)",
    ),
    (
        "rating",
        "rating_deltas",
        "the rating it published, whole Elo (as the lists show it): the first row's as it is, "
        "each next as the change since the row before (a running sum gives the ratings)",
    ),
)
P_ESTIMATE = _keyed(
    "p_estimate",
    "today's estimate on each of the player's rating days: a column per field",
    ("date", "date", "the rating day, ISO"),
    ("rating", "rating", "today's estimate of the rating that day, to the hundredth"),
    ("uncertainty", "uncertainty", "its standard deviation"),
)
P_TOURNAMENTS = _keyed(
    "p_tournaments",
    "the player's tournaments, newest first: a column per field",
    ("id", "id", "the tournament's id", "unread"),
    ("name", "name", "its name", "unread"),
    ("first_day", "first_day", "the player's first game day in it, ISO"),
    ("last_day", "last_day", "the player's last game day in it, ISO"),
    ("games", "games", "rated games"),
    ("score", "score", "the score"),
    ("performance", "performance", "performance rating, whole Elo"),
    ("bound", "bound", "1 at least (all won), -1 at most (all lost), 0 exact"),
    ("list_date", "list_date", "the day of the list that first rated it; null none kept", "unread"),
    ("before", "before", "the rating on the list just before it was first rated", "unread"),
    ("after", "after", "the rating on the first list that rated it", "unread"),
    ("change", "change", "after - before", "unread"),
)
P_GAMES = _keyed(
    "p_games",
    "the player's rated games: a column per field",
    ("tournament", "tournament", "its tournament: a position in tournaments"),
    ("round", "round", "round label"),
    ("white", "white", "1 the player had White, 0 Black"),
    ("score", "score", "the player's score: 1, 0.5, 0"),
    ("opponent", "opponent", "the opponent's id"),
    (
        "opponent_rating",
        "opponent_rating",
        "the opponent's rating at the time: on the list just before the game's tournament was "
        "first rated, whole Elo; null: new to the list, or not kept",
    ),
    (
        "opponent_estimate",
        "opponent_estimate",
        "today's whole-history estimate of the opponent's rating on the day of the game, whole Elo",
    ),
    ("game", "game", "renju.net game id, only with game links (null: none)", "optional"),
)
P_OPPONENTS = _keyed(
    "p_opponents",
    "head to head over the rated games, by opponent: a column per field",
    ("player", "player", "the opponent's id"),
    ("wins", "wins", "the player's wins against them"),
    ("draws", "draws", "draws"),
    ("losses", "losses", "losses"),
    ("expected", "expected", "the sum of the expected scores over expected_games"),
    ("expected_games", "expected_games", "the games in which both ratings at the time are known"),
)
EVENT = _rows(
    "event",
    "one tournament of a player as the page script holds it (made from p/<id>.json); ratings "
    "whole Elo, null none",
    (
        "tournament",
        "the tournament's number in the tournaments data (the page script takes its name and "
        "link from the page's rows of the player's tournaments, in the same order)",
        "unread",
        "ref=tournaments",
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
    (
        "then_before",
        "rating on the list just before it was first rated; null: new or not kept (the page's "
        "rows without script show it, the script keeps their cell)",
        "unread",
    ),
    ("then_after", "rating on the first list that rated it; null: not kept", "unread"),
    ("then_change", "then_after - then_before as displayed; null: either is null", "unread"),
    ("played", "the games, flat: a game row after another"),
    ("ids", "renju.net game ids of the games (null: none); only if one links", "optional"),
)
GAME = _rows(
    "game",
    "one game of a player's event (flat, one after another)",
    ("round", "round label"),
    ("code", "3 x colour (0 Black, 1 White) + 2 x the player's score"),
    ("opponent", "the opponent's number in the players data", "ref=players"),
    (
        "opponent_rating",
        "the opponent's rating at the time (the list just before the tournament was first "
        "rated), whole Elo; null none",
    ),
    ("opponent_estimate", "today's estimate of the opponent's rating that day, whole Elo"),
)
EXCLUDED = _keyed(
    "excluded",
    "the games not rated (data/excluded.<digest>.js sets WHR.excluded): a column per game, "
    "newest tournament first, and the tables its columns point into",
    ("game", "g", "the game's id"),
    ("tournament", "t", "its tournament: a position in tournaments", "ref=tournaments"),
    ("black", "b", "Black: a position in players; -1 not known", "ref=players"),
    ("white", "w", "White: the same; -1 not known (a bye)", "ref=players"),
    ("reason", "r", "the reason: a position in reasons", "ref=reasons"),
    ("message", "m", "why, in words: a position in messages", "ref=messages"),
    ("tournaments", "tn", "the games' tournaments", "holds=ex_tournaments"),
    ("players", "pl", "the games' players", "holds=ex_players"),
    ("reasons", "rs", "the reason codes"),
    ("messages", "ms", "the messages", "holds=ex_messages"),
)
EX_TOURNAMENTS = _keyed(
    "ex_tournaments",
    "the tournaments of the games not rated, a column per field",
    ("name", "n", "name"),
    ("page", "p", "its page's name; empty: no page (no rated game)"),
    ("end", "e", "its last day (ISO); empty: not known"),
)
EX_PLAYERS = _keyed(
    "ex_players",
    "the players of the games not rated, a column per field",
    ("id", "i", "player id"),
    ("name", "n", "the name, as read"),
)
EX_MESSAGES = _keyed(
    "ex_messages",
    "why each game is not rated, in words, a column per field",
    ("text", "t", "the English message (a template of whr.rules.messages, its values in)"),
    ("template", "m", "the template's message id; empty: no template of these rules makes it"),
    ("values", "v", "the template's values, in the order they come in the English"),
)
WHATIF = _keyed(
    "whatif",
    "what the what-if page refits (data/whatif.<digest>.js sets WHR.whatif; loaded when the "
    "page is opened): the list's parameters, every rated game up to its day by day and "
    "today's fit, as whole numbers (docs/data-dictionary.md)",
    ("as_of", "d", "the list's day, days since 1970-01-01"),
    ("w2", "w2", "the Wiener variance, Elo^2 per day"),
    ("virtual_games", "vg", "virtual draws on each player's first day"),
    ("virtual_rating", "vr", "the virtual opponent's rating (published scale)"),
    ("tol_elo", "te", "convergence: the largest change of the last full Newton step, Elo"),
    ("tol_grad", "tg", "convergence: the largest gradient component, per natural unit"),
    ("max_iter", "mi", "Newton iterations at most"),
    ("established", "eg", "rated games that make a player established"),
    ("active_years", "ay", "active: the last game at most this many years before the day"),
    (
        "days",
        "dd",
        "each day with rated games, ascending: the days since the previous one "
        "(the first: since 1970-01-01)",
    ),
    ("players_per_day", "k", "each day: its players (a player-day each)"),
    (
        "players",
        "p",
        "each day's players, ascending: a player's number in the players data, "
        "as the difference from the day's previous player (the first: itself)",
    ),
    ("games_per_day", "n", "each day: its rated games"),
    (
        "games",
        "g",
        "each game, three numbers: Black's and White's positions among its day's "
        "players, Black's score times 2",
    ),
    (
        "ratings",
        "r",
        "each player-day, in the order of players: today's rating (published "
        "scale, in units of 1e-8 Elo) as the difference from the player's previous player-day's "
        "(the first: from 1900)",
    ),
)
WHATIF_PAGE = _keyed(
    "whatif_page",
    "the what-if page's settings (<script id=whatif-cfg>)",
    ("data", "data", "the what-if data file (data/whatif.<digest>.js)"),
    ("texts", "m", "the texts the page's script writes, by name (a text's script form)"),
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
        P_FILE,
        P_PUBLISHED,
        P_ESTIMATE,
        P_TOURNAMENTS,
        P_GAMES,
        P_OPPONENTS,
        EVENT,
        GAME,
        EXCLUDED,
        EX_TOURNAMENTS,
        EX_PLAYERS,
        EX_MESSAGES,
        WHATIF,
        WHATIF_PAGE,
    )
}
"""Every payload the page script reads, by name."""


def script_fields() -> dict[str, dict[str, str | int]]:
    """``F``: each payload's fields, by name, as the script reads them."""
    return {name: payload.script() for name, payload in PAYLOADS.items()}


def script_refs(kind: str = "ref") -> dict[str, dict[str, str]]:
    """Each payload's fields that are positions into something, and into what (``ref``; with
    ``holds``: the fields that hold a payload, and which)."""
    return {
        name: {f.name: getattr(f, kind) for f in p.fields if getattr(f, kind)}
        for name, p in PAYLOADS.items()
        if any(getattr(f, kind) for f in p.fields)
    }


# --- texts -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """A text of a declaration: a message (translated by its id) with its values, which may be
    texts themselves; or a literal that no language changes (``±``, ``Gy1``)."""

    message: str
    values: tuple[tuple[str, Any], ...] = ()
    context: str | None = None
    literal: bool = False

    @property
    def id(self) -> str:
        return "" if self.literal else message_id(self.message, self.context)

    def html(self) -> Markup:
        """The English as HTML, the values in place (no ``<var>``: a heading, a cell)."""
        if self.literal:
            return escape(self.message)
        named = dict(self.values)
        return Markup(
            PLACEHOLDER.sub(lambda m: str(_value_html(named[m.group(1)])), html_of(self.message))
        ).replace("%%", "%")

    def element(self, tag: str, attributes: str = "") -> Markup:
        """``<tag data-m=ID ...>`` English ``</tag>``: an element whose whole content is it."""
        mark = f" data-m={self.id}" if self.id else ""
        return Markup(f"<{tag}{mark}{attributes}>{self.html()}</{tag}>")

    def script(self) -> dict[str, Any]:
        """What the script's ``text()`` reads: the id ("" for a literal), the English HTML with
        its ``%(name)s``, the names as they come in it and, when the declaration binds them, the
        values (HTML, or a text of its own)."""
        if self.literal:
            return {"id": "", "en": str(escape(self.message)), "names": [], "values": None}
        names = PLACEHOLDER.findall(self.message)
        named = dict(self.values)
        values = [_value_script(named[n]) for n in names] if self.values else None
        return {"id": self.id, "en": html_of(self.message), "names": names, "values": values}


def _value_html(value: Any) -> Markup:
    return value.html() if isinstance(value, Text) else escape(value)


def _value_script(value: Any) -> Any:
    return value.script() if isinstance(value, Text) else str(escape(value))


def T_(message: str, **values: Any) -> Text:
    """A message of a declaration (extracted with the others: ``i18n.KEYWORDS``)."""
    return Text(message, tuple(values.items()))


def TP_(context: str, message: str) -> Text:
    """A message with a context (one English word, two meanings: "Place")."""
    return Text(message, context=context)


def literal(text: str) -> Text:
    """A text no language changes."""
    return Text(text, literal=True)


TEXTS: dict[str, Text] = {
    "language": T_("Language"),
    "all_countries": T_("All countries"),
    "also_found": T_("also found:"),
    "in_part": T_("%(n)s in %(part)s"),
    "one_tournament": T_("one tournament:"),
    "every_tournament": T_("show every tournament"),
    "new": T_("new"),
    "black": T_("Black"),
    "white": T_("White"),
    "loss": T_("Loss"),
    "draw": T_("Draw"),
    "win": T_("Win"),
    "active": T_("established, active"),
    "inactive": T_("established, inactive"),
    "provisional": T_("provisional"),
    "rating_history": T_("Rating history"),
    "chart_caption": T_(
        "Steps: the rating the lists published, as they showed it (whole Elo): each from the "
        "day of the list that first showed it until a list showed another, to today\u2019s "
        "list; a point on each of those lists. Line: today\u2019s whole-history estimate of "
        "each day (it moves as later results come in); dots: the days the player played; band: "
        "\u00b1 one standard deviation; dashed: after the last game."
    ),
    "chart_rebuilt": T_(
        "Dotted steps and hollow points: the lists before %(day)s, the first this site "
        "published, as the backfill reconstructed them from the games known on each day; not "
        "lists published then."
    ),
    "reconstructed": T_("reconstructed"),
    "as_published": T_("as the lists published it"),
    "todays_estimate": T_("today's estimate"),
    "tournaments": T_("Tournaments"),
    "games": T_("Games"),
    "newest_first": T_("Newest first (%(link)s)."),
    "the_columns": T_("the columns"),
    "at_the_time": T_(
        "At the time: the player\u2019s rating on the list just before the tournament was "
        "first rated \u2192 on the first list that rated it, and the change then."
    ),
    "today": T_(
        "Est. before, Est. after: today\u2019s whole-history estimates of the rating just "
        "before and just after the tournament (they move as later results come in), not what "
        "a list said; Est. change = Est. after \u2212 Est. before."
    ),
    "colours": T_(
        "\u25cf with Black, \u25cb with White. Rating: the opponent\u2019s rating at the "
        "time, on the list just before the tournament was first rated (a dash: not on it); "
        "Est.: today\u2019s whole-history estimate of it on the day of the game, which later "
        "results still move."
    ),
    "no_rated_games": T_("No rated games."),
    "list_date": T_("list date"),
    "no_history": T_("No rating history."),
    "join": Text(JOIN),  # (i18n: the Python pages join with the same messages)
    "place": Text(PLACE),
    "country_count": T_("%(country)s (%(n)s)"),
    "head_to_head": T_("Head to head"),
    "h2h_note": T_(
        "Each opponent: the results of the rated games, and the expected score (from both "
        "players\u2019 ratings on the list just before each tournament was first rated: at the "
        "time) against the score made."
    ),
    "in_games": T_("(in %(n)s of %(total)s games)"),
    "more_tournaments": T_("%(n)s more"),
    "compare_how": T_(
        "Find two to %(n)s players of this list by name, native name, id or city, and add "
        "them to the chart."
    ),
    "compare_most": T_("%(n)s players: remove one to add another."),
    "compare_none": T_("No player of this list found."),
    "compare_remove": T_("Remove %(name)s from the chart"),
    "not_listed": T_("Not on this list: %(ids)s."),
}
"""The texts the page script writes outside the tables' declarations, by the name it uses."""


# --- tables ------------------------------------------------------------------------------------

FORMATS = {
    "number": "a whole number (a rating, ±); none: nothing",
    "dash": "a whole number; none: a dash (a rating before a player was on a list)",
    "count": "a count, grouped as the reader's language groups digits",
    "rank": "a rank; 0 or none: nothing",
    "year": "a year; 0: not known, nothing",
    "text": "text; sorted without case and accents",
    "date": "an ISO date",
    "day": "days since 1970-01-01, as an ISO date",
    "change": 'a change as shown: +12, \u221212, 0; "n": the new mark',
    "since": "(change, before): the change, the new mark where there was no before",
    "status": "a status code (0, 1, 2): its words",
    "player": "a player's number: the link to their page (a woman marked, the native name "
    "as its title)",
    "player_label": "the same, with what tells namesakes apart",
    "link": "(page, name) of a tournament: its name, linked to its page when it has one",
    "place": "(city, country code, country name): the city and the country in the reader's "
    "language",
    "person": "(name, id) of a player of a game not rated: the name as read and the id; none: "
    "a dash",
    "reason": "(code, message, template, values): a reason's code and why, in words, in the "
    "reader's language",
    "score": "2 x a score: 3\u00bd",
    "score_games": "(2 x score, games): 3\u00bd/5",
    "perf": "(performance, bound): 2250, \u22652250",
    "places": "(first, last) place: 3, 3\u20135",
    "result": "(game code, renju.net id): the player's result in words, linked to the game",
    "colour": "a game code: \u25cf Black, \u25cb White",
    "cell": "a crosstable cell: its games as the EGF format writes them, 12+/b 14\u2212/w (the "
    "page script colours each by its result)",
    "pairing": "(Black's result, renju.net id): 1 : 0, linked to the game",
    "shared": '(change, others): a change as shown, "n" the new mark; marked * when it is '
    "also the change of other tournaments (others > 0: the same list first rated them)",
    "estimate": "(before, after) today's estimates: 2201 \u2192 2202 (+1), new \u2192 2202",
    "expected": "(expected score, its games, games): the expected score to the tenth, and "
    "in how many of the games where not all (the ratings at the time of the others not known)",
    "html": "HTML the script made (a derived field: the tournaments of a head to head)",
    "then": "(before, after, note) at the time: 2091 \u2192 2103 (+12), new \u2192 2103, a dash "
    "where none was kept; and the note (Python only: a kept column)",
}
"""The formatters of the tables' cells, implemented once in Python (``rows.py``) and once in
the page script (``FORMAT``), by these names: what each shows."""


@dataclass(frozen=True)
class Column:
    """One column of a table.

    ``fields`` are what it shows: fields of the table's rows ("rating") or of what a field is a
    position into ("player.birth_year"), given to the formatter ``format`` (a name of
    :data:`FORMATS`) in that order; ``sort`` is the direction of the first click on its heading
    (1 ascending, -1 descending; 0: not sortable), by the formatter's key, or by the field
    ``key`` (its raw value) when one is given; ``static``: shown in the rows a page carries for
    readers without script."""

    name: str
    head: Text
    fields: tuple[str, ...] | str  # (words: "page name")
    format: str
    cls: str = ""
    sort: int = 1
    title: Text | None = None
    static: bool = True
    key: str = ""
    needs: str = ""  # shown only where the data has this field (the change: a previous list)
    kept: bool = False  # the script keeps the cell the page's rows hold (drawn by Python)
    each: str = ""  # a column per entry of the page data's list (a crosstable's rounds)

    def __post_init__(self) -> None:
        if isinstance(self.fields, str):
            object.__setattr__(self, "fields", tuple(self.fields.split()))
        if self.format not in FORMATS:
            raise ValueError(f"column {self.name!r}: format {self.format!r} is not in FORMATS")


@dataclass(frozen=True)
class Tab:
    """A part of a table: its rows (where ``where`` holds: ``(field, op, value)``, op ``==`` or
    ``>``; None: all), its columns in order, its first order (``(column, direction)``; None: the
    data's), and a note that says what the part is."""

    name: str
    label: Text
    where: tuple[str, str, int] | None
    columns: tuple[str, ...] | str  # (words: "rank player rating")
    sort: tuple[str, int] | None
    note: Text | None = None

    def __post_init__(self) -> None:
        if isinstance(self.columns, str):
            object.__setattr__(self, "columns", tuple(self.columns.split()))


@dataclass(frozen=True)
class Mark:
    """A mark drawn before a column's value in the rows a field lists (the field holds row
    positions): its words, and the symbol a phone shows instead (the words stay for screen
    readers)."""

    name: str
    field: str
    column: str
    text: Text
    symbol: str

    def html(self, text: Markup | str | None = None) -> Markup:
        """The mark as both sides draw it (``text``: its words in the reader's language)."""
        words = self.text.element("span", " class=t") if text is None else text
        return Markup(
            f"<span class={self.name}><span class=s aria-hidden=true>{self.symbol}</span>"
            f"{words}</span>"
        )


@dataclass(frozen=True)
class Table:
    """One table of the site.

    ``rows`` is the payload of its rows (a keyed payload: a row per position of its columns;
    a rows payload: a row per element); ``derived`` are fields the page script (or, for kept
    cells, Python) computes beside them, by name; ``tabs`` its parts (one, unnamed, when it has
    none); ``search`` the fields a search looks in; ``choose`` the field a menu chooses by (a
    country); ``pin`` a field the address can fix (``#t=<value>``); ``marks`` what is drawn
    before a value; ``group`` a field whose change starts a group of rows, headed by the HTML
    of the field ``heading``; ``count``, ``shown`` and ``empty`` the sentences that say how many
    rows there are, are shown, or that none are. ``virtual``: only the rows on screen are in the
    document (a big table). ``scripted``: the page script draws it; a table it does not draw
    (``scripted=False``: a tournament's crosstable and pairings) is written whole by Python
    (``rows.py``), its fields all ``derived`` (no payload: the page carries no data for it)."""

    name: str
    rows: str
    columns: tuple[Column, ...]
    tabs: tuple[Tab, ...]
    derived: tuple[tuple[str, str], ...] = ()
    search: tuple[str, ...] | str = ()  # (words)
    choose: str = ""
    pin: str = ""
    marks: tuple[Mark, ...] = ()
    group: str = ""
    heading: str = ""
    count: Text | None = None
    shown: Text | None = None
    empty: Text | None = None
    virtual: bool = True
    plain: tuple[str, ...] | str = ()  # the columns of its plain index pages (none: it has none)
    static: bool = True  # pages carry some of its rows for readers without script
    scripted: bool = True  # drawn by the page script; False: by Python alone, every row

    def __post_init__(self) -> None:
        for name in ("search", "plain"):
            if isinstance(getattr(self, name), str):
                object.__setattr__(self, name, tuple(getattr(self, name).split()))
        if not self.static:
            columns = tuple(replace(c, static=False) for c in self.columns)
            object.__setattr__(self, "columns", columns)
        names = [c.name for c in self.columns]
        if not set(self.plain) <= set(names):
            raise ValueError(f"table {self.name!r}: plain {self.plain} not among {names}")
        if len(set(names)) != len(names):
            raise ValueError(f"table {self.name!r}: a column name twice in {names}")
        for tab in self.tabs:
            unknown = [c for c in tab.columns if c not in names]
            if unknown or (tab.sort and tab.sort[0] not in tab.columns):
                raise ValueError(f"table {self.name!r}, tab {tab.name!r}: unknown {unknown}")
        for path in [p for c in self.columns for p in (*c.fields, c.key, c.needs) if p] + [
            *self.search,
            *(x for x in (self.choose, self.pin, self.group, self.heading) if x),
            *(m.field for m in self.marks),
            *(t.where[0] for t in self.tabs if t.where),
        ]:
            resolve(self, path)

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    def tab(self, name: str = "") -> Tab:
        return next(t for t in self.tabs if t.name == name) if name else self.tabs[0]

    def script(self) -> dict[str, Any]:
        """The declaration as the page script reads it (``T.<table>``)."""

        def text(t: Text | None) -> dict[str, Any] | None:
            return t.script() if t else None

        return {
            "rows": self.rows,
            "cols": [
                {
                    "name": c.name,
                    "head": c.head.script(),
                    "title": text(c.title),
                    "fields": list(c.fields),
                    "format": c.format,
                    "cls": c.cls,
                    "sort": c.sort,
                    "static": c.static,
                    "key": c.key,
                    "needs": c.needs,
                    "kept": c.kept,
                    "each": c.each,
                }
                for c in self.columns
            ],
            "tabs": [
                {
                    "name": t.name,
                    "label": t.label.script(),
                    "where": dict(zip(("field", "op", "value"), t.where, strict=True))
                    if t.where
                    else None,
                    "columns": list(t.columns),
                    "sort": {"column": t.sort[0], "dir": t.sort[1]} if t.sort else None,
                    "note": text(t.note),
                }
                for t in self.tabs
            ],
            "start": self.tabs[0].name,
            "search": list(self.search),
            "choose": self.choose,
            "pin": self.pin,
            "marks": [
                {
                    "name": m.name,
                    "field": m.field,
                    "column": m.column,
                    "text": m.text.script(),
                    "symbol": m.symbol,
                }
                for m in self.marks
            ],  # fmt: skip
            "group": self.group,
            "heading": self.heading,
            "count": text(self.count),
            "shown": text(self.shown),
            "empty": text(self.empty),
            "virtual": self.virtual,
        }


def resolve(table: Table, path: str) -> tuple[str, ...]:
    """The payloads a field path of ``table`` goes through, checked ("player.birth_year":
    ``("list", "players")``). A step is a field of the payload before; a field that is a
    position (``ref``) leads on into what it points into: a payload (another, or one a field of
    the same payload holds), or a list, whose element the path then ends at. A path that ends
    at a position into a payload gives the position (a player's number, for the link). A
    derived field of the table is a path of one step. Raises ValueError on an undeclared
    step."""
    if path in dict(table.derived):
        return (table.rows,)
    if not table.rows:
        raise ValueError(f"table {table.name!r}: {path!r} is not one of its derived fields")
    payload = PAYLOADS[table.rows]
    through = [payload.name]
    steps = path.split(".")
    for k, step in enumerate(steps):
        if step not in payload.names:
            raise ValueError(f"table {table.name!r}: {path!r}: no {step!r} in {payload.name}")
        f = payload.field(step)
        if k == len(steps) - 1:
            return tuple(through)
        if not f.ref:
            raise ValueError(f"table {table.name!r}: {path!r}: {step!r} is no position")
        if f.ref in payload.names:
            holder = payload.field(f.ref)
            if not holder.holds:
                raise ValueError(f"table {table.name!r}: {path!r}: {f.ref!r} is a list")
            payload = PAYLOADS[holder.holds]
        else:
            payload = PAYLOADS[f.ref]
        through.append(payload.name)
    return tuple(through)


STATUSES = ("active", "inactive", "provisional")
"""The status codes' texts (``TEXTS``), in ``whr.tables.STATUSES``' order."""


def _years(years: int) -> Text:
    last = T_("the last year") if years == 1 else T_("the last %(n)s years", n=years)
    return T_("rated games in %(years)s", years=last)


def tables(rules: RuleNumbers) -> dict[str, Table]:
    """Every table of the site, with the numbers of the rules its list was computed with (the
    Gy columns' windows, the "Gy1 ≥ N" tab and the tabs' notes). A column's fields, a part's
    columns and a search's fields are written as words (``"page name"``)."""
    # fmt: off
    gy = tuple(
        Column(f"gy{k + 1}", literal(f"Gy{y}"), field, "count", "n", -1, _years(y))
        for k, (y, field) in enumerate(zip(rules.windows_years, ("gy1", "gy2", "gy5"), strict=True))
    )
    player = Column("player", T_("Player"), "player", "player", "nm", 1)
    rating = Column("rating", T_("Rating"), "rating", "number", "n", -1)
    unc = Column("unc", literal("\u00b1"), "uncertainty", "number", "n u", 1,
                 T_("uncertainty: one standard deviation, Elo"))
    country = Column("country", T_("Country"), "player.country.code", "text", "", 1)
    born = Column("born", T_("BY"), "player.birth_year", "year", "n", 1, T_("birth year"))
    search = "player.name player.native player.id player.city"
    players_count, shown = T_("%(n)s players"), T_("%(n)s of %(total)s shown")
    notes = {
        "gy1": T_(
            "Established players with at least %(n)s rated games in the year up to the list "
            "date (the RIF's \u201cGy1 \u2265 %(n)s\u201d list). Rank: among them; World: the "
            "rank on the list of established active players.", n=rules.gy1_games),
        "inactive": T_(
            "Established players whose last rated game is more than %(n)s years before the "
            "list date: not ranked.", n=rules.active_years),
        "provisional": T_(
            "Players with at most %(n)s rated games: not ranked.", n=rules.established_games - 1),
    }

    def list_table(name: str, country_page: bool) -> Table:
        """A list's table: the world's, or a country's (its ranks, and World for Prev.)."""
        prefix = "country_" if country_page else ""
        rank = Column("rank", T_("Rank"), f"{prefix}rank", "rank", "n", 1,
                      T_("rank in the country") if country_page
                      else T_("rank among established active players"))
        gy1_rank = Column("gy1_rank", T_("Rank"), f"gy1_{prefix}rank", "rank", "n", 1,
                          T_("rank among the players of this list"))
        change = Column("change", T_("Change"), "change", "change", "n", -1,
                        T_("rating change since the previous list"), needs="change")
        world = Column("world", T_("World"), "rank", "rank", "n", 1, T_("rank on the world list"))
        prev = Column("prev", T_("Prev."), "previous_rank", "rank", "n", 1,
                      T_("rank on the previous list"), needs="change")
        gy1_world = Column("gy1_world", T_("World"), "rank", "rank", "n", 1,
                           T_("rank on the world list of established active players"))
        peak = Column("peak", T_("Peak"), "peak", "number", "n", -1,
                      T_("the best rating up to the list date"))
        # (a year-end list that stood: today's estimate beside what it said)
        estimate = Column("estimate", T_("Today's estimate"), "estimate", "number", "n now", -1,
                          T_("today's whole-history estimate of the rating on December 31, not "
                             "what a list said"))
        tail = f"peak unc {' '.join(c.name for c in gy)} country born"
        first = "player rating change estimate"
        return Table(
            name, "list",
            (rank, gy1_rank, player, rating, change, estimate, world, prev, gy1_world, peak, unc,
             *gy, country, born),
            (
                Tab("active", T_("Active"), ("status", "==", 0),
                    f"rank {first} {'world' if country_page else 'prev'} {tail}", ("rank", 1)),
                Tab("gy1", literal(f"Gy1 \u2265 {rules.gy1_games}"), (gy1_rank.fields[0], ">", 0),
                    f"gy1_rank {first} gy1_world {tail}", ("gy1_rank", 1), notes["gy1"]),
                Tab("inactive", T_("Inactive"), ("status", "==", 1), f"{first} {tail}",
                    ("rating", -1), notes["inactive"]),
                Tab("provisional", T_("Provisional"), ("status", "==", 2), f"{first} {tail}",
                    ("rating", -1), notes["provisional"]),
            ),
            search=search, choose="player.country.code",
            marks=(Mark("entered", "entered", "player", T_("newly ranked"), "\u2191"),),
            count=players_count, shown=shown, empty=T_("No players in this part of the list."),
        )

    players_index = Table(
        "players", "list",
        (
            Column("id", T_("ID"), "player.id", "text", "", 1, key="player"),
            player,
            rating,
            Column("unc", literal("\u00b1"), "uncertainty", "number", "n u", 1),
            Column("games", T_("Games"), "games", "count", "n", -1),
            Column("rank", T_("Rank"), "rank", "rank", "n", 1),
            Column("status", T_("Status"), "status", "status", "", 1),
            Column("born", T_("BY"), "player.birth_year", "year", "n", 1),
            Column("city", T_("City"), "player.city", "text", "", 1),
            country,
        ),
        (Tab("", T_("Players"), None, "id player rating unc games rank status born city country",
             ("id", 1)),),
        search=search, choose="player.country.code", count=players_count, shown=shown,
        plain="id player",
    )
    tournaments_index = Table(
        "tournaments", "tournaments",
        (
            Column("tournament", T_("Tournament"), "page name", "link", "nm", 1),
            Column("place", T_("Place"), "city country.code country.name", "place", "", 1),
            Column("games", T_("Rated games"), "games", "count", "n", -1),
            Column("start", T_("Start"), "start", "date", "", -1),
            Column("end", T_("End"), "end", "date", "", -1),
            Column("rule", T_("Rule"), "rule", "text", "", 1),
        ),
        (Tab("", T_("Tournaments"), None, "tournament place games start end rule", None),),
        search="name city country.code country.name rule", shown=shown,
        plain="tournament place games start end rule",
    )
    excluded = Table(
        "excluded", "excluded",
        (
            Column("tournament", T_("Tournament"), "tournament.page tournament.name", "link",
                   "nm", 1),
            Column("end", T_("End"), "tournament.end", "date", "", -1),
            Column("game", T_("Game"), "game", "text", "", 1),
            Column("black", T_("Black"), "black.name black.id", "person", "", 1),
            Column("white", T_("White"), "white.name white.id", "person", "", 1),
            Column("reason", T_("Reason"),
                   "reason message.text message.template message.values", "reason", "why", 1),
        ),
        (Tab("", T_("Every game"), None, "tournament end game black white reason", None),),
        search="game tournament.name black.name black.id white.name white.id reason message.text",
        pin="tournament.page",
        count=T_("%(n)s games"), shown=T_("%(n)s of %(total)s games shown"),
    )
    today = T_("today's estimate")
    then = T_("as the lists showed it then")
    events = Table(
        "events", "event",
        (
            Column("tournament", T_("Tournament"), "tournament.page tournament.name", "link",
                   "nm", 0, kept=True),
            Column("date", T_("Date"), "last_day", "day", "", 0, static=False),
            Column("score", T_("Score"), "score2 games", "score_games", "", 0),
            Column("perf", T_("Perf."), "performance bound", "perf", "", 0,
                   T_("performance, from today's estimates of the opponents' ratings"),
                   static=False),
            Column("then", T_("At the time"), "then_before then_after note", "then", "", 0,
                   T_("as the lists showed it then"), kept=True),
            Column("change", T_("Est. change"), "now_change now_before", "since", "", 0,
                   T_("today's estimate: Est. after \u2212 Est. before"), static=False),
            Column("before", T_("Est. before"), "now_before", "dash", "", 0, today,
                   static=False),
            Column("after", T_("Est. after"), "now_after", "number", "", 0, today, static=False),
        ),
        (Tab("", T_("Tournaments"), None, "tournament date score perf then change before after",
             None),),
        derived=(
            ("now_before", "today's estimate of the rating just before it: the chart's point "
                           "before its span; none: new"),
            ("now_after", "today's estimate just after it: the chart's last at or before its "
                          "last day"),
            ("now_change", "now_after - now_before, as shown"),
            ("note", "the other tournaments of the player the same list first rated (HTML; "
                     "Python's)"),
        ),
        virtual=False,
    )
    games = Table(
        "games", "game",
        (
            Column("round", T_("Round"), "round", "text", "", 0),
            Column("opponent", T_("Opponent"), "opponent", "player_label", "op", 0),
            Column("result", T_("Result"), "code id", "result", "", 0),
            Column("colour", literal("\u25cf\u25cb"), "code", "colour", "", 0, T_("colour")),
            Column("rating", T_("Rating"), "opponent_rating", "dash", "", 0,
                   T_("the opponent's rating at the time: on the list just before the "
                      "tournament was first rated")),
            Column("estimate", T_("Est."), "opponent_estimate", "number", "now", 0,
                   T_("today's estimate of the opponent's rating on the day of the game")),
        ),
        (Tab("", T_("Games"), None, "round opponent result colour rating estimate", None),),
        derived=(
            ("event", "the game's tournament: its event's position"),
            ("id", "its renju.net id; none: not linked"),
            ("heading", "its tournament's name, linked, and its date (HTML)"),
        ),
        group="event", heading="heading", virtual=False, static=False,
    )
    opponents = Table(
        "opponents", "p_opponents",
        (
            Column("opponent", T_("Opponent"), "opponent", "player_label", "op", 1),
            Column("games", T_("Games"), "games", "count", "n", -1),
            Column("score", T_("Score"), "score2", "score", "n", -1),
            Column("expected", T_("Expected"), "expected expected_games games", "expected", "n",
                   -1, T_("the expected score from both players' ratings at the time")),
            Column("wins", TP_("games", "Won"), "wins", "number", "n", -1),
            Column("draws", TP_("games", "Drawn"), "draws", "number", "n", -1),
            Column("losses", TP_("games", "Lost"), "losses", "number", "n", -1),
            Column("played", T_("Tournaments"), "played", "html", "", 0),
        ),
        # the score beside the games and the expected score, where a phone's first screen
        # shows it; the wins, draws and losses after
        (Tab("", T_("Head to head"), None,
             "opponent games score expected wins draws losses played", ("games", -1)),),
        derived=(
            ("opponent", "the opponent's number in the players data (from the id)"),
            ("games", "wins + draws + losses"),
            ("score2", "2 x the score: 2 x wins + draws"),
            ("played", "the tournaments where they met, newest first, linked, with their last "
                       "days (HTML)"),
        ),
        virtual=False, static=False,
    )
    cross = Table(
        "cross", "",
        (
            Column("place", TP_("standings", "Place"), "place_first place_last", "places", "n", 0),
            Column("number", literal("#"), "number", "number", "no", 0),
            Column("player", T_("Player"), "player", "player_label", "nm", 0),
            Column("score", T_("Score"), "score2", "score", "n sc", 0),
            Column("round", literal(""), "cells", "cell", "", 0, each="rounds"),
            Column("perf", T_("Perf."), "performance bound", "perf", "n", 0),
            Column("before", T_("Before"), "before", "dash", "n", 0, then),
            Column("after", T_("After"), "after", "dash", "n", 0, then),
            Column("change", T_("Change"), "change shared", "shared", "n", 0, then),
            Column("today", T_("Today's estimate"), "now_before now_after", "estimate", "n now",
                   0, T_("today's whole-history estimates of the rating just before and just "
                         "after the tournament (later results still move them)")),
        ),
        (Tab("", T_("Standings"), None,
             "place number player score round perf before after change today", None),),
        derived=(
            ("number", "the row's number (#)"),
            ("place_first", "first place shared"),
            ("place_last", "last place shared"),
            ("player", "the player's number in the players data"),
            ("score2", "2 x the score"),
            ("performance", "performance rating; none: none"),
            ("bound", "1 at least, -1 at most, 0 exact"),
            ("before", "at the time: the rating on the list just before the tournament was "
                       "first rated; none: new to the list, or not kept"),
            ("after", "at the time: the rating on the first list that rated it; none: not kept"),
            ("change", 'after - before as shown (each rounded once); "n": new to the list; '
                       "none: not kept"),
            ("shared", "the player's other tournaments the same list first rated (their change "
                       "is in it)"),
            ("cells", 'the rounds\' cells joined by ",", a cell\'s games by " ": "12+/b"'),
            ("now_before", "today's estimate of the rating just before the tournament; none: new"),
            ("now_after", "today's estimate of the rating just after it"),
        ),
        virtual=False, scripted=False,
    )
    pairings = Table(
        "pairings", "",
        (
            Column("round", T_("Round"), "round", "text", "", 0),
            Column("black", T_("Black"), "black", "number", "", 0),
            Column("result", T_("Result"), "result id", "pairing", "res", 0),
            Column("white", T_("White"), "white", "number", "", 0),
        ),
        (Tab("", T_("Pairings by round"), None, "round black result white", None),),
        derived=(
            ("round", "the round's label"),
            ("black", "Black's number (#) in the crosstable (the page script names the player)"),
            ("white", "White's"),
            ("result", "Black's result: +, = or -"),
            ("id", "the game's renju.net id; none: not linked"),
        ),
        virtual=False, scripted=False,
    )
    # fmt: on
    return {
        t.name: t
        for t in (
            list_table("list", False),
            list_table("country_list", True),
            players_index,
            tournaments_index,
            excluded,
            events,
            games,
            opponents,
            cross,
            pairings,
        )
    }


# --- the script --------------------------------------------------------------------------------

DECLARATION_MARK = "/*@DECLARATION@*/{}"


def declaration(rules: RuleNumbers) -> dict[str, Any]:
    """What the page script is given: the payloads' fields (``F``), what they point into (``R``)
    and which hold a payload (``H``), the tables (``T``), its texts (``M``) and the languages
    (``L``: code, name, lang)."""
    return {
        "F": script_fields(),
        "R": script_refs(),
        "H": script_refs("holds"),
        "T": {name: t.script() for name, t in tables(rules).items() if t.scripted},
        "M": {name: t.script() for name, t in TEXTS.items()},
        "L": [{"code": code, "name": x.name, "lang": x.html} for code, x in LANGUAGES.items()],
    }


def page_script(source: str, rules: RuleNumbers) -> str:
    """The page script as a site serves it: ``source`` with its :func:`declaration`."""
    if source.count(DECLARATION_MARK) != 1:
        raise ValueError(f"the page script must hold {DECLARATION_MARK} once")
    text = json.dumps(declaration(rules), separators=(",", ":"), ensure_ascii=False)
    return source.replace(DECLARATION_MARK, text.replace("<", "\\u003c"))
