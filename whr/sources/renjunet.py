"""Reader of the RenjuNet database (``renjunet_v10_YYYYMMDD.rif``, XML).

The file is parsed in one streaming pass with expat: one Python callback per start tag (plus the
text and end of ``<move>``/``<info>``), raw attribute values kept per game in one tuple, nothing
kept of the move text but its count. References
(games to players and tournaments) are resolved after the pass, so the order of the sections does
not matter. The format is described in ``docs/sources.md``.

Safety (the policy of ``defusedxml``, applied directly on expat because its tree builders are
slower): a document type declaration, and therefore any entity declaration, is refused, and so is
any external entity; undefined entities are malformed XML. Bytes that are not UTF-8 are replaced
by U+FFFD and reported (``bad_encoding``); the declared encoding is ignored (RenjuNet is UTF-8),
except that a file starting with a UTF-16 or UTF-32 byte-order mark is decoded as such.

Limits (``whr.sources.ReadLimits``): the payload stops at ``max_unpacked_bytes``; no run of more
than ``max_value_chars`` characters without a ``<`` (an attribute value, a text node or a tag) is
given to expat. Expat is only given input that ends just before a ``<``, so a tag split between
two reads of the file is never parsed twice. (Python's binding still hands expat 1 MiB at a time,
and expat 2.5 reparses an unfinished attribute from its start on each piece: the time for one
attribute grows with the square of its length beyond 1 MiB. The default value limit keeps every
attribute within a few pieces, so parse time stays linear in the input's size; text nodes are
linear at any length.)

Problem codes written here (severity in brackets):

- ``unknown_player`` [error]: a game's black or white is not a known player ``id``; kept null.
- ``unknown_tournament`` [error]: a game's tournament is not known; the raw id is kept.
- ``duplicate_id`` [error for games, warning otherwise]: an id seen before; games keep the
  row (eligibility excludes later copies), other records keep the first one.
- ``bad_result`` [error]: ``bresult`` not one of ``1``, ``0.5``, ``0`` or empty; kept null.
- ``missing_id`` [error]: a record without its ``id`` (or a player without ``disp_id``).
- ``bad_date`` [warning]: a date that is not ``YYYY-MM-DD`` or not a calendar date.
- ``unknown_date`` [warning]: a tournament with no usable date at all; its games are undated.
- ``date_order`` [warning]: a tournament starting after it ends; start set to the end.
- ``unknown_rule``, ``unknown_country``, ``unknown_city`` [warning]: dangling dictionary ids.
- ``bad_value`` [warning]: a tournament ``type`` that is not a whole integer of 32 bits; kept
  null.
- ``bad_encoding`` [warning]: a line with bytes that are not UTF-8.
- ``unknown_element`` [warning]: an element the format does not have (reported once per
  name); skipped.
"""

from __future__ import annotations

import calendar
import codecs
import contextlib
import contextvars
import datetime as dt
import gc
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn
from xml.parsers import expat

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from whr.sources._common import (
    CHUNK_BYTES,
    INT32_RANGE,
    ProblemLog,
    Readable,
    ReadLimits,
    SourceError,
    check_limits,
    describe,
    limit_hint,
    nfc_array,
    nfc_id,
    open_payload,
    parse_number,
    quote,
    sha256_file,
    wide_codec,
)
from whr.tables import GAMES, PLAYERS, TOURNAMENTS, SourceData, to_frame

__all__ = ["parse_date", "read_renjunet", "read_stream", "tournament_dates"]

GAME_ATTRIBUTES = ("id", "tournament", "round", "rule", "black", "white", "bresult", "date",
                   "unrated")  # fmt: skip
"""The attributes of a ``<game>`` that are read."""

SECTIONS = ("countries", "cities", "rules", "openings", "players", "tournaments", "games")
CATEGORY = {"1": "renju", "2": "gomoku"}
RESULTS = {1.0, 0.5, 0.0}
MAX_ENCODING_PROBLEMS = 100

_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
#: Move text longer than this is counted window by window (``str.split`` of the whole would
#: hold one string object per move in memory at once).
_WINDOW_CHARS = 1 << 20

_BAD_BYTES: contextvars.ContextVar[list[int]] = contextvars.ContextVar("whr_sources_bad_bytes")


def _replace_and_record(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: replace by U+FFFD and record how many newlines precede the bad byte."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    _BAD_BYTES.get().append(exc.object.count(b"\n", 0, exc.start))
    return "\ufffd", exc.end


codecs.register_error("whr.sources.replace", _replace_and_record)


class _Refused(Exception):
    """Raised inside an expat callback to stop on a forbidden construct."""


def parse_date(text: str | None) -> tuple[dt.date | None, bool]:
    """Parse a RenjuNet date ``YYYY-MM-DD``.

    A year ``0000`` means unknown. A day or month ``00`` becomes ``01`` (as the RIF's own code
    does). Empty or missing means unknown.

    Parameters
    ----------
    text : str or None
        The attribute value.

    Returns
    -------
    date : datetime.date or None
        The date, or None when unknown or invalid.
    valid : bool
        False when ``text`` is neither empty nor a (partial) calendar date.
    """
    if not text:
        return None, True
    match = _DATE.fullmatch(text.strip())
    if match is None:
        return None, False
    year, month, day = (int(part) for part in match.groups())
    if year == 0:
        return None, True
    try:
        return dt.date(year, month or 1, day or 1), True
    except ValueError:
        return None, False


def _int_or_none(text: str | None) -> int | None:
    """A whole 32-bit integer written in ASCII digits, else None."""
    value, _ = parse_number(text, integer=True, low=INT32_RANGE[0], high=INT32_RANGE[1])
    return None if value is None else int(value)


def count_words(text: str) -> int:
    """Number of whitespace-separated words of ``text`` (as ``len(text.split())``), in memory
    bounded by ``_WINDOW_CHARS`` however long the text."""
    if len(text) <= _WINDOW_CHARS:
        return len(text.split())
    count = 0
    inside = False  # the previous window ended inside a word
    for start in range(0, len(text), _WINDOW_CHARS):
        window = text[start : start + _WINDOW_CHARS]
        count += len(window.split()) - (inside and not window[0].isspace())
        inside = not window[-1].isspace()
    return count


def tournament_dates(
    start: str | None, end: str | None, year: str | None, month: str | None
) -> tuple[dt.date | None, dt.date | None, list[tuple[str, str]]]:
    """Resolve a tournament's first and last day with the RenjuNet fallbacks.

    1. ``start``/``end`` as by ``parse_date`` (``0000-00-00`` is unknown, day ``00`` is ``01``).
    2. Both unknown: the ``year``/``month`` attributes give the whole month (first to last day),
       or the whole year when the month is ``0``, missing or not 1-12; no year: unknown.
    3. Only one known: the other is a copy of it.
    4. Start after end: start becomes the end.

    Returns
    -------
    start, end : datetime.date or None
    problems : list of (code, message)
        ``bad_date``, ``unknown_date`` and ``date_order`` findings.
    """
    problems: list[tuple[str, str]] = []
    first, ok_first = parse_date(start)
    if not ok_first:
        problems.append(("bad_date", f"start {start!r} is not a date YYYY-MM-DD"))
    last, ok_last = parse_date(end)
    if not ok_last:
        problems.append(("bad_date", f"end {end!r} is not a date YYYY-MM-DD"))
    if first is None and last is None:
        y = _int_or_none(year)
        m = _int_or_none(month)
        if y is not None and 1 <= y <= 9999:
            if m is not None and 1 <= m <= 12:
                first = dt.date(y, m, 1)
                last = dt.date(y, m, calendar.monthrange(y, m)[1])
            else:
                first, last = dt.date(y, 1, 1), dt.date(y, 12, 31)
        else:
            problems.append(
                (
                    "unknown_date",
                    f"no usable date (start={start!r}, end={end!r}, year={year!r}, "
                    f"month={month!r}); its games are undated",
                )
            )
    elif first is None:
        first = last
    elif last is None:
        last = first
    if first is not None and last is not None and first > last:
        problems.append(("date_order", f"start {first} is after end {last}; start set to end"))
        first = last
    return first, last, problems


def _none_if_empty(text: str | None) -> str | None:
    return text if text else None


_KNOWN_ELEMENTS = frozenset(
    SECTIONS + ("country", "city", "rule", "opening", "player", "tournament", "game")
)


class _Pass:
    """State of one streaming pass, filled by the expat callbacks.

    To keep the number of Python calls per game low, there is no end-element callback in
    general: a ``<game>`` is read wherever it is, another record belongs to the section whose
    start tag was seen last, and the character data and end-element callbacks are switched on
    only inside ``<move>`` and ``<info>`` (of the game read last).
    """

    def __init__(self, parser: expat.XMLParserType, log: ProblemLog) -> None:
        self.parser = parser
        self.log = log
        self.root: str | None = None
        self.section = ""
        self.last_record = ""
        self.text: list[str] = []
        # id -> (name, abbr), (name,) and (name, category)
        self.countries: dict[str, tuple[str | None, ...]] = {}
        self.cities: dict[str, tuple[str | None, ...]] = {}
        self.rules: dict[str, tuple[str | None, ...]] = {}
        self.players: list[tuple[int, dict[str, str]]] = []
        self.tournaments: list[tuple[int, dict[str, str]]] = []
        self.sections_seen: set[str] = set()
        self.unknown_seen: set[str] = set()
        # games: the attributes of each record as expat gives them (names and values in turn),
        # its line, and the count of its moves, filled from its children
        self.games: list[list[str]] = []
        self.lines: list[int] = []
        self.moves: list[int] = []
        self.notes: dict[int, str] = {}  # game index -> its <info> text
        self.dated: str | None = None  # the root's date attribute: the database's own date

    def start(self, name: str, attributes: list[str]) -> None:
        # attributes: [name, value, name, value, ...] (expat's ordered_attributes: a list is
        # cheaper to make than a dict, and a game's is kept as it is, decoded in bulk later)
        if name == "game":  # wherever it is: every <game> read becomes a row
            self.games.append(attributes)
            self.lines.append(self.parser.CurrentLineNumber)
            self.moves.append(0)
            self.last_record = "game"
            return
        if name == "move" or name == "info":
            if self.last_record == "game":
                self.text = []
                parser = self.parser
                parser.CharacterDataHandler = self.text.append
                parser.EndElementHandler = self.move_end if name == "move" else self.info_end
            return
        section = self.section
        self.last_record = name
        attrs = dict(zip(attributes[::2], attributes[1::2], strict=True))
        if name == "player" and section == "players":
            self.players.append((self.parser.CurrentLineNumber, attrs))
        elif name == "tournament" and section == "tournaments":
            self.tournaments.append((self.parser.CurrentLineNumber, attrs))
        elif name == "country" and section == "countries":
            self._dictionary(self.countries, attrs, "country", ("name", "abbr"))
        elif name == "city" and section == "cities":
            self._dictionary(self.cities, attrs, "city", ("name",))
        elif name == "rule" and section == "rules":
            self._dictionary(self.rules, attrs, "rule", ("name", "category"))
        elif name in SECTIONS:
            self.section = name
            self.sections_seen.add(name)
        elif self.root is None:
            self.root = name
            fields = dict(zip(attributes[::2], attributes[1::2], strict=True))
            self.dated = fields.get("date")
        elif name not in _KNOWN_ELEMENTS and name not in self.unknown_seen:
            self.unknown_seen.add(name)
            self.log.add(
                "unknown_element",
                "warning",
                f"line {self.parser.CurrentLineNumber}",
                f"element <{name}> is not part of the RenjuNet format; it and any further "
                f"<{name}> are skipped",
            )

    def _dictionary(
        self,
        table: dict[str, tuple[str | None, ...]],
        attrs: dict[str, str],
        kind: str,
        fields: tuple[str, ...],
    ) -> None:
        key = attrs.get("id", "")
        line = self.parser.CurrentLineNumber
        if not key:
            self.log.add("missing_id", "error", f"line {line}", f"<{kind}> without an id")
            return
        if key in table:
            self.log.add(
                "duplicate_id",
                "warning",
                f"line {line}, {kind} id={key}",
                f"{kind} id {key} appears again; the first one is kept",
            )
            return
        table[key] = tuple(_none_if_empty(attrs.get(f)) for f in fields)

    def _text_done(self) -> str:
        parser = self.parser
        parser.CharacterDataHandler = None
        parser.EndElementHandler = None
        return "".join(self.text)

    def move_end(self, name: str) -> None:
        parser = self.parser  # (_text_done, inline: one call per game)
        parser.CharacterDataHandler = None
        parser.EndElementHandler = None
        text = "".join(self.text)
        # words one space apart, as RenjuNet writes them (printable: no other blank anywhere)
        if text and text.isprintable() and text[0] != " " and text[-1] != " " and "  " not in text:
            self.moves[-1] += text.count(" ") + 1
        else:
            self.moves[-1] += count_words(text)

    def info_end(self, name: str) -> None:
        # kept as written; whether a note says the game was not played is eligibility's call
        # (whr.rules, whr/data/rules/game_notes.toml), not the reader's
        text = self._text_done().strip()
        if text:
            index = len(self.games) - 1
            self.notes[index] = f"{self.notes[index]}; {text}" if index in self.notes else text


def _refuse(what: str) -> Callable[..., NoReturn]:
    def handler(*args: object) -> NoReturn:
        raise _Refused(what)

    return handler


def _sniff(head: bytes, name: str) -> str:
    """The codec of the payload (``utf-8``, or ``utf-16``/``utf-32`` after a byte-order mark);
    refuse, saying what the file is, a payload that is plainly not an XML database."""
    codec = wide_codec(head)
    if codec is not None:
        start = head[:512].decode(codec, "ignore")
        if start.lstrip("\ufeff \t\r\n").startswith("<"):
            return codec
    what = describe(head)
    if what == "XML":
        return "utf-8"
    if what in ("an empty file", "a file of blanks only"):
        raise SourceError(f"{name}: the file is empty; expected a RenjuNet database (XML)")
    if what == "an HTML page":
        raise SourceError(
            f"{name}: this is an HTML page, not a RenjuNet database; check the URL or the file"
        )
    if what.startswith("UTF-16 text without"):
        raise SourceError(
            f"{name}: not a RenjuNet database as read: this is {what}; save it as UTF-8"
        )
    raise SourceError(
        f"{name}: not a RenjuNet database: expected XML, gzip or zip, but this is {what}"
    )


class _ValueScan:
    """Refuses a run of more than ``limit`` characters without a ``<`` in UTF-8 bytes fed in
    order, before expat sees it; counts characters, not bytes (one per byte that is not a
    UTF-8 continuation byte)."""

    def __init__(self, limit: int, name: str) -> None:
        self.limit = limit
        self.name = name
        self.run = 0  # characters since the last '<'
        self.line = 1  # line where that run starts

    def feed(self, data: bytes, lines_before: int) -> None:
        array = np.frombuffer(data, np.uint8)
        marks = np.flatnonzero(array == 0x3C)
        if not marks.size:  # the run goes on through the whole chunk
            self.run += _chars(array)
            if self.run > self.limit:
                self._refuse(self.line)
            return
        first = int(marks[0])  # bytes bound characters: count them only when bytes exceed
        if self.run + first > self.limit and self.run + _chars(array[:first]) > self.limit:
            self._refuse(self.line)
        gaps = np.diff(marks) - 1
        for i in np.flatnonzero(gaps > self.limit).tolist():
            start = int(marks[i])
            if _chars(array[start + 1 : int(marks[i + 1])]) > self.limit:
                self._refuse(lines_before + data.count(b"\n", 0, start) + 1)
        last = int(marks[-1])
        self.run = _chars(array[last + 1 :])
        self.line = lines_before + data.count(b"\n", 0, last) + 1
        if self.run > self.limit:
            self._refuse(self.line)

    def _refuse(self, line: int) -> None:
        raise SourceError(
            f"{self.name}: line {line}: more than {self.limit} characters without markup (one "
            f"attribute value, text node or tag), over the limit "
            f"{limit_hint('max_value_chars')}; raise the limit if this file is genuine"
        )


def _chars(array: np.ndarray) -> int:
    """Characters in valid UTF-8 bytes: the bytes that are not continuation bytes."""
    return int(array.size - np.count_nonzero((array & 0xC0) == 0x80))


def _parse(stream: Readable, name: str, log: ProblemLog, limits: ReadLimits) -> _Pass:
    parser = expat.ParserCreate(encoding="UTF-8")
    parser.ordered_attributes = True
    parser.buffer_text = True
    parser.buffer_size = 1 << 16
    state = _Pass(parser, log)
    parser.StartElementHandler = state.start
    parser.StartDoctypeDeclHandler = _refuse("a document type declaration (DTD)")
    parser.EntityDeclHandler = _refuse("an entity declaration")
    parser.UnparsedEntityDeclHandler = _refuse("an unparsed entity declaration")
    parser.ExternalEntityRefHandler = _refuse("an external entity reference")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    chunk = stream.read(CHUNK_BYTES)
    codec = _sniff(chunk, name)
    decoder = codecs.getincrementaldecoder(codec)("whr.sources.replace")
    scan = _ValueScan(limits.max_value_chars, name)
    bad_lines: list[int] = []
    token = _BAD_BYTES.set(bad_lines)
    lines_before = 0
    encoding_problems = 0

    last_bad_line = 0

    def report_bad_bytes() -> None:
        """One problem per line with bad bytes (the first ``MAX_ENCODING_PROBLEMS`` lines)."""
        nonlocal encoding_problems, last_bad_line
        for count in bad_lines:
            line = lines_before + count + 1
            if line == last_bad_line:
                continue
            last_bad_line = line
            encoding_problems += 1
            if encoding_problems <= MAX_ENCODING_PROBLEMS:
                log.add(
                    "bad_encoding",
                    "warning",
                    f"line {line}",
                    "bytes that are not UTF-8 were replaced by U+FFFD",
                )
        bad_lines.clear()

    # expat is given input up to just before the last '<' seen; the rest waits for the next
    # '<', so every tag reaches expat whole and none is parsed twice
    pending: list[bytes] = []
    try:
        while True:
            final = not chunk
            text = decoder.decode(chunk, final)
            if bad_lines:
                report_bad_bytes()
            data = text.encode("utf-8")
            scan.feed(data, lines_before)
            lines_before += text.count("\n")
            if final:
                pending.append(data)
                parser.Parse(b"".join(pending), True)
                break
            cut = data.rfind(b"<")
            if cut < 0:
                pending.append(data)
            else:
                pending.append(data[:cut])
                parser.Parse(b"".join(pending), False)
                pending = [data[cut:]]
            chunk = stream.read(CHUNK_BYTES)
    except expat.ExpatError as exc:
        raise SourceError(
            f"{name}: malformed XML at line {exc.lineno}, column {exc.offset + 1}: "
            f"{expat.errors.messages[exc.code]}"
        ) from None
    except _Refused as exc:
        raise SourceError(
            f"{name}: refused at line {parser.CurrentLineNumber}, column "
            f"{parser.CurrentColumnNumber + 1}: the document contains {exc}. DTDs and entity "
            "declarations are refused because they allow entity-expansion and external-entity "
            "attacks; a RenjuNet database has none, so this file is not a genuine one"
        ) from None
    finally:
        _BAD_BYTES.reset(token)
        # the parser and the state's callbacks refer to each other: without this cycle the
        # state is freed as soon as it is dropped, not by a later pass of the cyclic collector
        parser.StartElementHandler = None
        parser.CharacterDataHandler = None
        parser.EndElementHandler = None
    if encoding_problems > MAX_ENCODING_PROBLEMS:
        log.add(
            "bad_encoding",
            "warning",
            "whole file",
            f"{encoding_problems - MAX_ENCODING_PROBLEMS} more lines with bytes that are not "
            "UTF-8 had them replaced (not listed one by one)",
        )
    if not state.sections_seen.intersection(SECTIONS):
        raise SourceError(
            f"{name}: no RenjuNet sections found (expected children of the root named "
            f"{', '.join(SECTIONS)}); is this a RenjuNet database?"
        )
    return state


def _players(state: _Pass, log: ProblemLog, name: str) -> tuple[pa.Table, dict[str, str]]:
    columns: dict[str, list[object]] = {field: [] for field in PLAYERS.names}
    id_map: dict[str, str] = {}
    seen_disp: dict[str, int] = {}
    for line, attrs in state.players:
        key = nfc_id(attrs.get("id", ""))
        disp = nfc_id(attrs.get("disp_id", ""))
        if not key or not disp:
            missing = "id" if not key else "disp_id"
            log.add(
                "missing_id",
                "error",
                f"line {line}, player id={key}",
                f"player without {missing}; games naming it become unknown_player",
            )
            continue
        if key in id_map:
            log.add(
                "duplicate_id",
                "warning",
                f"line {line}, player id={key}",
                f"player id {key} appears again; the first one is kept",
            )
            continue
        id_map[key] = disp
        if disp in seen_disp:
            log.add(
                "duplicate_id",
                "warning",
                f"line {line}, player id={key}",
                f"disp_id {disp} already belongs to the player on line {seen_disp[disp]}; "
                "both internal ids now map to it and the first row is kept",
            )
            continue
        seen_disp[disp] = line
        surname = _none_if_empty(attrs.get("surname"))
        given = _none_if_empty(attrs.get("name"))
        country_name, country_code, city = _place(
            state, attrs, log, f"line {line}, player id={key}"
        )
        gender = attrs.get("gender")
        columns["player_id"].append(disp)
        columns["name"].append(" ".join(p for p in (surname, given) if p) or None)
        columns["surname"].append(surname)
        columns["given_name"].append(given)
        columns["native_name"].append(_none_if_empty(attrs.get("native_name")))
        columns["country"].append(country_code)
        columns["country_name"].append(country_name)
        columns["city"].append(city)
        columns["female"].append(None if not gender else gender == "2")
        columns["birth"].append(_none_if_empty(attrs.get("birth")))
        columns["source"].append(name)
    return pa.table(columns, schema=PLAYERS), id_map


def _place(
    state: _Pass, attrs: dict[str, str], log: ProblemLog, where: str
) -> tuple[str | None, str | None, str | None]:
    """Resolve a record's ``country`` and ``city`` dictionary ids.

    Returns ``(country_name, country_code, city)``, each ``None`` when the id is absent or
    not in the file's dictionary; a dangling id is logged as ``unknown_country`` or
    ``unknown_city`` (warning) at ``where``.
    """
    country_name = country_code = city = None
    country_id = attrs.get("country")
    if country_id:
        if country_id in state.countries:
            country_name, country_code = state.countries[country_id]
        else:
            log.add(
                "unknown_country",
                "warning",
                where,
                f"country id {country_id} is not in <countries>",
            )
    city_id = attrs.get("city")
    if city_id:
        if city_id in state.cities:
            (city,) = state.cities[city_id]
        else:
            log.add("unknown_city", "warning", where, f"city id {city_id} is not in <cities>")
    return country_name, country_code, city


def _tournaments(
    state: _Pass, log: ProblemLog, name: str
) -> tuple[pa.Table, dict[str, dt.date | None]]:
    columns: dict[str, list[object]] = {field: [] for field in TOURNAMENTS.names}
    ends: dict[str, dt.date | None] = {}
    for line, attrs in state.tournaments:
        key = nfc_id(attrs.get("id", ""))
        where = f"line {line}, tournament id={key}"
        if not key:
            log.add("missing_id", "error", where, "tournament without an id; skipped")
            continue
        if key in ends:
            log.add(
                "duplicate_id",
                "warning",
                where,
                f"tournament id {key} appears again; the first one is kept",
            )
            continue
        first, last, date_problems = tournament_dates(
            attrs.get("start"), attrs.get("end"), attrs.get("year"), attrs.get("month")
        )
        for code, message in date_problems:
            log.add(code, "warning", where, message)
        ends[key] = last
        country_name, country_code, city = _place(state, attrs, log, where)
        rule_id = _none_if_empty(attrs.get("rule"))
        rule = category = None
        if rule_id is not None:
            if rule_id in state.rules:
                rule, rule_category = state.rules[rule_id]
                category = CATEGORY.get(rule_category or "")
            else:
                log.add(
                    "unknown_rule",
                    "warning",
                    where,
                    f"rule id {rule_id} is not in <rules>; its category is unknown",
                )
        type_text = attrs.get("type")
        kind: int | None = 0
        if type_text:
            kind = _int_or_none(type_text)
            if kind is None:
                log.add(
                    "bad_value",
                    "warning",
                    where,
                    f"type {quote(type_text)} is not a whole integer of 32 bits; kept null",
                )
        columns["tournament_id"].append(key)
        columns["name"].append(_none_if_empty(attrs.get("name")))
        columns["country"].append(country_code)
        columns["country_name"].append(country_name)
        columns["city"].append(city)
        columns["start"].append(first)
        columns["end"].append(last)
        columns["rule_id"].append(rule_id)
        columns["rule"].append(rule)
        columns["category"].append(category)
        columns["rated"].append(attrs.get("rated") == "1")
        columns["type"].append(kind)
        columns["minutes"].append(None)
        columns["mode"].append(None)
        columns["source"].append(name)
    return pa.table(columns, schema=TOURNAMENTS), ends


_RESULT_TOKENS = {"1": 1.0, "0.5": 0.5, "0": 0.0, "": None, None: None}
_UNSET = object()


def _result(text: str | None) -> tuple[float | None, bool]:
    """Black's score from ``bresult``: (value, valid); anything outside 1, 0.5, 0, "" is invalid."""
    if text in _RESULT_TOKENS:
        return _RESULT_TOKENS[text], True
    value, ok = parse_number(text)  # e.g. "1.0": still one of the three scores
    return (float(value), True) if ok and value in RESULTS else (None, False)


def _game_columns(games: list[list[str]]) -> list[list[str | None]]:
    """The values of :data:`GAME_ATTRIBUTES` of every game (None where absent), from the
    attribute lists of the pass (names and values in turn), column by column.

    A file writes the attributes of its games alike, or nearly: each column is taken by
    position as the most common names have it, and the games named otherwise are read again,
    one by one, by name.
    """
    shapes = [tuple(a[::2]) for a in games]
    common = Counter(shapes).most_common(1)[0][0] if shapes else ()
    others = [i for i, shape in enumerate(shapes) if shape != common]
    apart = [dict(zip(games[i][::2], games[i][1::2], strict=True)) for i in others]
    columns: list[list[str | None]] = []
    for name in GAME_ATTRIBUTES:
        column: list[str | None]
        if name in common:
            at = 2 * common.index(name) + 1
            try:
                column = [a[at] for a in games]
            except IndexError:  # a game of fewer attributes: it is among the others
                column = [a[at] if len(a) > at else None for a in games]
        else:
            column = [None] * len(games)
        for i, attributes in zip(others, apart, strict=True):
            column[i] = attributes.get(name)
        columns.append(column)
    return columns


def _lookup(refs: pa.StringArray, mapping: dict[str, Any], kind: pa.DataType) -> tuple[Any, Any]:
    """``mapping[ref]`` for each reference (null where the reference is null or not a key), and
    where the reference is not a key (a mask as numpy booleans)."""
    at = pc.index_in(refs, value_set=pa.array(list(mapping), pa.string()))
    missing = at.is_null().to_numpy(zero_copy_only=False)
    return pc.take(pa.array(list(mapping.values()), kind), at), missing


def _games(
    state: _Pass,
    log: ProblemLog,
    name: str,
    id_map: dict[str, str],
    ends: dict[str, dt.date | None],
) -> pa.Table:
    """Resolve the games' references column by column, in Arrow; only problem rows take a
    slow path, in Python."""
    n = len(state.games)
    lines = state.lines
    ids, tours, rounds, rules, blacks, whites, results, dates, marks = _game_columns(state.games)
    # (Arrow's values typed Any: pyarrow-stubs do not follow compute functions' results)
    blank, marked = pa.scalar("", pa.string()), pa.scalar("1", pa.string())
    game_id: Any = pc.fill_null(nfc_array(ids), blank)
    tour: Any = nfc_array(tours)
    black_ref: Any = nfc_array(blacks)
    white_ref: Any = nfc_array(whites)
    black, no_black = _lookup(black_ref, id_map, pa.string())
    white, no_white = _lookup(white_ref, id_map, pa.string())
    date, no_tour = _lookup(tour, ends, pa.date32())
    tokens = _RESULT_TOKENS
    result = [tokens.get(r, _UNSET) for r in results]
    findings: list[tuple[int, str, str, str]] = []  # (row, code, severity, message)

    ids_list: Any = None  # (as Python texts only where a message needs them)
    if pc.count_distinct(game_id).as_py() < n or pc.any(pc.equal(game_id, blank)).as_py():
        ids_list = game_id.to_pylist()
        seen: dict[str, int] = {}
        for i, one in enumerate(ids_list):
            if not one:
                message = "game without an id; kept with an empty id"
                findings.append((i, "missing_id", "error", message))
            elif one in seen:
                message = f"game id {one} already appeared on line {lines[seen[one]]}"
                findings.append((i, "duplicate_id", "error", message))
            else:
                seen[one] = i
    for side, refs, missing in (("black", black_ref, no_black), ("white", white_ref, no_white)):
        for i in np.flatnonzero(missing).tolist():
            message = (
                f"{side} player id {quote(refs[i].as_py() or '')} is not in <players>; kept as null"
            )
            findings.append((i, "unknown_player", "error", message))
    for i in [i for i, v in enumerate(result) if v is _UNSET]:
        value, ok = _result(results[i])
        result[i] = value
        if not ok:
            message = f"bresult {quote(results[i])} is not 1, 0.5, 0 or empty; kept as null"
            findings.append((i, "bad_result", "error", message))
    for i in np.flatnonzero(no_tour).tolist():
        message = f"tournament id {quote(tour[i].as_py() or '')} is not in <tournaments>"
        findings.append((i, "unknown_tournament", "error", message))
    if dates.count(None) < n:
        days = date.to_pylist()
        for i in [i for i, v in enumerate(dates) if v is not None]:
            own, ok = parse_date(dates[i])
            if not ok:
                message = f"date {quote(dates[i])} is not a date YYYY-MM-DD"
                findings.append((i, "bad_date", "warning", message))
            if own is not None:
                days[i] = own
        date = pa.array(days, pa.date32())
    findings.sort(key=lambda f: f[0])  # file order; stable within a game
    if findings and ids_list is None:
        ids_list = game_id.to_pylist()
    for i, code, severity, message in findings:
        log.add(code, severity, f"line {lines[i]}, game id={ids_list[i]}", message)

    empty = pa.scalar(None, pa.string())
    rule: Any = pa.array(rules, pa.string())
    columns: dict[str, Any] = {
        "game_id": game_id,
        "tournament_id": pc.if_else(pc.equal(tour, blank), empty, tour),
        "round": pa.array(rounds, pa.string()),
        "rule_id": pc.if_else(pc.equal(rule, blank), empty, rule),
        "black": black,
        "white": white,
        "result": pa.array(result, pa.float64()),
        "date": date,
        "moves": pa.array(state.moves, pa.int32()),
        "unrated": pc.fill_null(pc.equal(pa.array(marks, pa.string()), marked), pa.scalar(False)),
        "forfeit": pa.array([False] * n, pa.bool_()),  # RenjuNet has no forfeit mark
        "bye": pa.array([False] * n, pa.bool_()),
        "colours_known": pa.array([True] * n, pa.bool_()),
        "handicap": pa.nulls(n, pa.int32()),  # RenjuNet records none: renju has no handicap
        "note": pa.array(list(map(state.notes.get, range(n))), pa.string()),
        "source": pa.array([name] * n, pa.string()),
    }
    return pa.table(columns, schema=GAMES)


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Python's cyclic garbage collector paused in the block (as it was after it).

    A read makes a list per game and nothing that refers back to itself: the collector's
    passes, which grow with everything held, would each traverse every game read so far (a
    third of the reading time of a RenjuNet-sized file), to free nothing.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def read_stream(stream: Readable, name: str, limits: ReadLimits = ReadLimits()) -> SourceData:
    """Read a RenjuNet database from an uncompressed binary stream.

    Parameters
    ----------
    stream : binary file-like
        The XML bytes.
    name : str
        The source's name (file name or URL), written in ``source`` columns and messages.
    limits : ReadLimits
        ``max_value_chars`` is applied here (``max_unpacked_bytes`` by whoever opens the
        stream, ``max_name_chars`` by ``whr.read_source``).

    Returns
    -------
    SourceData
        Players, tournaments, games and problems; ``inputs`` is empty (the caller knows what it
        hashed).

    Raises
    ------
    SourceError
        On a DTD or entity declaration, malformed XML (with line and column), a document
        without any RenjuNet section, a payload that is not XML (said what it is, never
        quoted), or a value over ``limits.max_value_chars``.
    """
    log = ProblemLog(name)
    with _no_cyclic_gc():
        state = _parse(stream, name, log, check_limits(limits))
        players, id_map = _players(state, log, name)
        tournaments, ends = _tournaments(state, log, name)
        games = _games(state, log, name, id_map, ends)
        dated = _day(state.dated)
        # freed here, while the collector is paused: kept until the collector is back on, every
        # game's list would be walked once more, for nothing (0.14 s at RenjuNet's size)
        del state
    return SourceData(
        players=to_frame(players),
        tournaments=to_frame(tournaments),
        games=to_frame(games),
        problems=log.frame(),
        dated=dated,
    )


def _day(text: str | None) -> dt.date | None:
    """A date given as ``YYYY-MM-DD`` (or ``YYYYMMDD``), else None."""
    for form in ("%Y-%m-%d", "%Y%m%d"):
        try:
            return dt.datetime.strptime(text or "", form).date()
        except ValueError:
            continue
    return None


_NAMED_DAY = re.compile(r"_(\d{8})(?:\.|$)")
"""The ``YYYYMMDD`` of a database file's name (``renjunet_v10_YYYYMMDD.rif``)."""


def read_renjunet(
    path: str | Path, name: str | None = None, limits: ReadLimits = ReadLimits()
) -> SourceData:
    """Read a RenjuNet database file (plain, gzip or zip).

    Parameters
    ----------
    path : str or Path
        The local file.
    name : str, optional
        How the source is named in the tables (default: the file name).
    limits : ReadLimits
        ``max_unpacked_bytes`` and ``max_value_chars`` are applied here.

    Returns
    -------
    SourceData
        With ``inputs`` = ((name, sha256 of the file's bytes as stored),).

    Raises
    ------
    SourceError
        If the file cannot be read safely, or is over a limit; see ``read_stream``.
    """
    path = Path(path)
    name = name or path.name
    limits = check_limits(limits)
    with open_payload(path, name, limits.max_unpacked_bytes) as stream:
        data = read_stream(stream, name, limits)
    return SourceData(
        players=data.players,
        tournaments=data.tournaments,
        games=data.games,
        problems=data.problems,
        inputs=((name, sha256_file(path)),),
        dated=data.dated
        or _day(named.group(1) if (named := _NAMED_DAY.search(path.name)) else None),
    )
