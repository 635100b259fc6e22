"""Tournament tables in the EGF format (``.h9``, ``.h2``, ...), as federations send them.

The format is the plain-text results table of the European Go Federation, exported by pairing
programs such as OpenGotha and MacMahon (``docs/egf.md``; the EGF table format).
Federations send renju results in it, so a table is read as a renju tournament unless the
tournament's facts (``tournament_facts.csv``, column ``category``) say otherwise.

A table turns into the shared tables of :mod:`whr.tables`:

- one ``tournaments`` row (header keys ``EV PC DT TM CL TC``, plus our own ``RU`` and ``MO``),
  with ``rated`` null: the format has no rated flag, and none is invented (eligibility rates
  the tournament without question only once the maintainers confirm it);
- one ``games`` row per pairing found in a round (each game is written on both players' lines;
  the two entries must agree, else the row keeps a null result and a problem ``egf_mismatch``
  names both lines), and one row per round without a game (``0+``, ``0-``, ``0=``: a bye,
  ``bye`` true, ``white`` null), which eligibility counts apart from games;
- ``players`` rows only for players the maintainer-kept mapping (``whr/data/egf_players.csv``) does
  not know; each gets a stable new id and a warning ``unmatched_player``.

Country codes: tables write 2 letters (``EE``, ``TW``), the RenjuNet database 3 (``EST``,
``TPE``). Every player's and tournament's country goes through the maintainer-kept
``whr/data/country_codes.csv`` so the list shows one style; a 2-letter code missing there is kept as
written with a warning ``unknown_country``; 3-letter codes are used as written.

Tables carry no moves, so ``moves`` is null ("not applicable"), never 0.

The mapping and country-code files are listed in ``inputs`` beside the tables (name and
sha256): editing either changes what is read, so it is new data. Limits
(``whr.sources.ReadLimits``): a table larger than ``max_unpacked_bytes`` or with a line longer
than ``max_value_chars`` is refused.

Opponents are referenced by *position*: the order of the player lines, 1 for the first. The
printed place equals the position except on tied lines, where it is left blank. Game ids use
positions: ``<tournament_id>:r<round>:<a>-<b>`` with ``a < b``, and
``<tournament_id>:r<round>:bye:<position>`` for a round without a game.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import pandas as pd

from whr.data import bundled
from whr.digest import bytes_sha256, file_sha256, text_sha256
from whr.sources._common import (
    MINUTES_WORDS,
    PLAIN_TEXT,
    TEXT_NOT_UTF8,
    ReadLimits,
    Row,
    SourceError,
    check_limits,
    describe,
    limit_hint,
    nfc_id,
    parse_minutes,
    quote,
    wide_codec,
)
from whr.sources.facts import COLUMNS as FACT_COLUMNS
from whr.sources.facts import facts_line
from whr.tables import (
    GAMES,
    MODES,
    PLAYERS,
    PROBLEMS,
    TOURNAMENTS,
    SourceData,
    concat,
    conform,
    empty,
)

__all__ = [
    "DEFAULT_COUNTRIES",
    "DEFAULT_MAPPING",
    "NAME",
    "SourceError",
    "read_table",
    "read_tables",
]

NAME = re.compile(r"^.+\.(?:h[0-9]|egf)$", re.IGNORECASE)
"""File names of EGF tables: ``*.h0`` ... ``*.h9`` (``.h9`` mirrors the handicap setting
``HA[h9]``) and ``*.egf``, in any case."""

DEFAULT_MAPPING = bundled("egf_players.csv")
"""The maintainer-kept mapping from table players to existing player ids."""

DEFAULT_COUNTRIES = bundled("country_codes.csv")
"""The maintainer-kept mapping from the tables' 2-letter country codes to the list's codes."""

CATEGORY = "renju"  # unless the facts say otherwise: federations send renju tables
# The format has no rated flag: ``rated`` stays null (not known), and eligibility treats the
# tournament as one whose facts are missing until the maintainers confirm it
# (``rated_tournaments``, or a line of ``tournament_facts.csv``).
MODE_BY_CLASS = {"A": "face_to_face", "B": "face_to_face", "C": "face_to_face", "D": "online"}
UNKNOWN_COUNTRY = "XX"  # OpenGotha's placeholder
LIST_CODE = re.compile(
    r"[A-Z]{3}"
)  # a code as the list writes it (RenjuNet, IOC style): used as is

# One regular expression per kind of line or entry; each is matched against a whole token/line.
HEADER_KEY = re.compile(r";\s*(?P<key>[A-Z]{2})\[(?P<value>.*)\]")  # ; EV[Riga Open]
INFO_LINE = re.compile(r";\s*(?P<key>time|komi|handicap)\s*=\s*(?P<value>.*)", re.IGNORECASE)
PIN = re.compile(r"\|\s*(?P<pin>\d+)\s*$")  # trailing |12850431
PLACE = re.compile(r"\d+")
GRADE = re.compile(r"\d{1,2}[dkp]?", re.IGNORECASE)  # 5d, 3K, 12, 1p
GAME_LONG = re.compile(  # 12+/w0, 3-/b9 (9 handicap stones), 22+!w0, 7?/?0
    r"(?P<opponent>[1-9]\d*)(?P<result>[-+=?])(?P<how>[/!])(?P<colour>[bw?]?)(?P<handicap>\d*)",
    re.IGNORECASE,
)
GAME_SHORT = re.compile(r"(?P<opponent>[1-9]\d*)(?P<result>[-+=?])")  # 5+, 7?
BYE = re.compile(r"0(?P<result>[-+=])0?")  # 0+ free win, 0- free round, 0= (0=0) half point
BASIC_TIME = re.compile(r"(?P<minutes>[^+]*)(?:\+.*)?")  # ;time=60+b: basic time, then byo-yomi

HANDICAP_MAX = 2**31 - 1  # more stones than that are kept as this many (the column's int32)
SCORE = {"+": 1.0, "-": 0.0, "=": 0.5, "?": None}
MIRROR = {"+": "-", "-": "+", "=": "=", "?": "?"}
OTHER_COLOUR = {"b": "w", "w": "b"}


@dataclass(frozen=True)
class Entry:
    """One round entry of a player line.

    Attributes
    ----------
    opponent : int
        The opponent's position (1 = first player line); 0 for a round without a game.
    result : str
        ``+`` win, ``-`` loss, ``=`` draw, ``?`` unknown (from the line's player's side).
    colour : str or None
        ``"b"`` or ``"w"`` for the line's player; None when not given.
    forfeit : bool
        The entry is a result by default (``!``).
    text : str
        The entry as written.
    handicap : int or None
        The handicap stones of the game (the digits after the colour: ``3+/b7`` is 7, ``0``
        an even game); None when not given (``5+``, ``12+/w``).
    """

    opponent: int
    result: str
    colour: str | None
    forfeit: bool
    text: str
    handicap: int | None = None


@dataclass(frozen=True)
class PlayerLine:
    """One player line: where it is, who it names, and its round entries."""

    line: int  # physical line number, from 1
    position: int  # order among player lines, from 1; what opponents refer to
    place: int | None  # printed place; None when blank (tied with the line above)
    name: str
    country: str | None
    pin: str | None
    entries: tuple[Entry, ...]


class _Raw(NamedTuple):
    line: int
    place: int | None
    name: str
    country: str | None
    tail: list[str]  # tie-break columns, then round entries
    pin: str | None


@dataclass(frozen=True)
class _Mapping:
    by_pin: dict[str, str]
    by_name: dict[tuple[str, str], str]  # (normalised name, country as the list writes it)
    problems: tuple[Row, ...]


@dataclass(frozen=True)
class _Countries:
    codes: dict[str, str]  # 2-letter code as tables write it -> the list's code
    problems: tuple[Row, ...]

    def listed(self, code: str) -> str:
        """The list's code for ``code`` (upper case), or ``code`` itself when not mapped."""
        return self.codes.get(code, code)


def read_tables(
    paths: Sequence[Path],
    mapping: Path | None = None,
    countries: Path | None = None,
    *,
    limits: ReadLimits = ReadLimits(),
    name: str | None = None,
) -> SourceData:
    """Read EGF tournament tables into the shared tables.

    Parameters
    ----------
    paths : sequence of pathlib.Path
        The table files, read in the order given.
    mapping : pathlib.Path, optional
        CSV mapping table players to existing player ids (columns ``player_id, name, country,
        pin``; lines starting with ``#`` are comments). Default: the repository's
        ``whr/data/egf_players.csv``.
    countries : pathlib.Path, optional
        CSV mapping the tables' 2-letter country codes to the codes the list uses (columns
        ``alpha2, code``; ``#`` lines are comments). Default: the repository's
        ``whr/data/country_codes.csv``.
    limits : ReadLimits
        ``max_unpacked_bytes`` (a table's size) and ``max_value_chars`` (one line).
    name : str, optional
        How a single table is named in ``source`` columns, problems and ``inputs`` (e.g. the
        URL it was pulled from); default: the file's name.

    Returns
    -------
    whr.tables.SourceData
        One tournament per table; games, byes and the unmatched players of all tables (each new
        player id once); the problems found, including those of the mapping file. ``inputs``
        lists the tables, then the country-code file and the mapping file.

    Raises
    ------
    TypeError
        If ``paths`` is not a sequence of paths.
    ValueError
        If ``mapping`` or ``countries`` names no file, or ``name`` is given for several tables.
    SourceError
        If a table cannot be read at all (unreadable player line, player lines with different
        numbers of rounds, no player line, not text, over a limit) or two tables give the same
        tournament id; the message names the file and the line.
    """
    if isinstance(paths, str | Path) or not isinstance(paths, Sequence):
        raise TypeError(f"paths must be a sequence of paths, got {type(paths).__name__}")
    limits = check_limits(limits)
    files = [Path(p) for p in paths]
    if name is not None and len(files) != 1:
        raise ValueError(f"name applies to a single table; got {len(files)} paths")
    country_file = _file_path(countries, "countries", DEFAULT_COUNTRIES)
    mapping_file = _file_path(mapping, "mapping", DEFAULT_MAPPING)
    codes = _load_countries(country_file)
    known = _load_mapping(mapping_file, codes)
    problems = list(codes.problems) + list(known.problems)
    parts = [
        SourceData(
            players=empty(PLAYERS),
            tournaments=empty(TOURNAMENTS),
            games=empty(GAMES),
            problems=conform(pd.DataFrame(problems, columns=PROBLEMS.names), PROBLEMS),
        )
    ]
    parts += [_read(path, known, codes, limits, name or path.name) for path in files]
    merged = concat(parts)
    ids = merged.tournaments["tournament_id"]
    duplicated = ids[ids.duplicated()].tolist()
    if duplicated:
        sources = merged.tournaments.loc[ids.isin(duplicated), "source"].tolist()
        raise SourceError(
            f"tables {sources} give the same tournament id {duplicated[0]!r}; "
            "rename one file or give each a distinct TC[] header"
        )
    players = merged.players.drop_duplicates("player_id", ignore_index=True)
    maintained = tuple((path.name, file_sha256(path)) for path in (country_file, mapping_file))
    return SourceData(
        players=players,
        tournaments=merged.tournaments,
        games=merged.games,
        problems=merged.problems,
        inputs=merged.inputs + maintained,
    )


def read_table(
    path: Path,
    mapping: Path | None = None,
    countries: Path | None = None,
    *,
    limits: ReadLimits = ReadLimits(),
    name: str | None = None,
) -> SourceData:
    """Read one EGF tournament table; see :func:`read_tables`."""
    return read_tables([Path(path)], mapping=mapping, countries=countries, limits=limits, name=name)


# -- one table --------------------------------------------------------------------------------


def _load(path: Path, source: str, limits: ReadLimits) -> bytes:
    """The table's bytes, refused when over ``max_unpacked_bytes`` or plainly not text."""
    try:
        size = path.stat().st_size
        if size > limits.max_unpacked_bytes:
            raise SourceError(
                f"{source}: {size} bytes, more than the limit of {limits.max_unpacked_bytes} "
                f"bytes ({limit_hint('max_unpacked_bytes')}); raise the limit if this table is "
                "genuine"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{source}: cannot read: {exc.strerror or exc}") from None
    what = describe(raw[:512])
    readable = (PLAIN_TEXT, TEXT_NOT_UTF8, "an empty file", "a file of blanks only")
    if what not in readable and wide_codec(raw) is None:
        raise SourceError(f"{source}: not an EGF table (plain text): this is {what}")
    return raw


def _read(
    path: Path, known: _Mapping, codes: _Countries, limits: ReadLimits, source: str
) -> SourceData:
    raw = _load(path, source, limits)
    problems: list[Row] = []
    try:
        text = raw.decode(wide_codec(raw) or "utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("iso8859_15")  # OpenGotha writes ISO-8859-15; Latin-1 names agree
        problems.append(
            _problem(
                "egf_encoding",
                "warning",
                source,
                "file",
                "not UTF-8; read as ISO-8859-15 (Latin-9), as OpenGotha writes",
            )
        )
    header, info, lines = _parse(text, source, limits.max_value_chars)
    misplaced = next((p for p in lines if p.place not in (None, p.position)), None)
    if misplaced is not None:
        problems.append(
            _problem(
                "egf_place",
                "warning",
                source,
                f"line {misplaced.line}",
                f"printed place {misplaced.place} but this is player line {misplaced.position}; "
                "opponents are read as player-line positions (1 = first line), so check the "
                "pairings of this table",
            )
        )
    country = _country_reporter(codes, source, problems)
    tournament = _tournament(path, header, info, source, problems, country)
    tid = tournament["tournament_id"]
    ids, players = _players(lines, tid, known, source, problems, country)
    games = _games(lines, ids, tournament, source, problems)
    return SourceData(
        players=conform(pd.DataFrame(players, columns=PLAYERS.names), PLAYERS),
        tournaments=conform(pd.DataFrame([tournament], columns=TOURNAMENTS.names), TOURNAMENTS),
        games=conform(pd.DataFrame(games, columns=GAMES.names), GAMES),
        problems=conform(pd.DataFrame(problems, columns=PROBLEMS.names), PROBLEMS),
        inputs=((source, bytes_sha256(raw)),),
    )


def _parse(
    text: str, source: str, max_value_chars: int
) -> tuple[dict[str, str], dict[str, str], list[PlayerLine]]:
    """Split a table into header keys, informational ``;key=`` lines and player lines."""
    header: dict[str, str] = {}
    info: dict[str, str] = {}
    rows: list[_Raw] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if len(raw) > max_value_chars:
            raise SourceError(
                f"{source}, line {number}: a line of {len(raw):,} characters, over the limit "
                f"{limit_hint('max_value_chars')} of {max_value_chars}; raise the limit if "
                "this table is genuine"
            )
        line = raw.strip()
        if line.startswith(";"):
            if match := HEADER_KEY.fullmatch(line):
                header.setdefault(match["key"], match["value"].strip())
            elif match := INFO_LINE.fullmatch(line):
                info.setdefault(match["key"].lower(), match["value"].strip())
            continue
        body = line.split(";", 1)[0]  # everything after ';' is a comment
        if not body.strip():
            continue
        pin = None
        if match := PIN.search(body):
            pin, body = match["pin"], body[: match.start()]
        looks_like_egf = bool(rows or header or info)
        rows.append(_Raw(number, *_split_player(body.split(), number, source, looks_like_egf), pin))
    if not rows:
        raise SourceError(f"{source}: no player line found; is this an EGF table?")
    rounds = _round_count([(row.line, row.tail) for row in rows], source)
    return (
        header,
        info,
        [
            PlayerLine(
                line=row.line,
                position=position,
                place=row.place,
                name=row.name,
                country=row.country,
                pin=row.pin,
                entries=tuple(_entry(token) for token in row.tail[len(row.tail) - rounds :]),
            )
            for position, row in enumerate(rows, start=1)
        ],
    )


def _split_player(
    tokens: list[str], number: int, source: str, quote_line: bool = True
) -> tuple[int | None, str, str | None, list[str]]:
    """Place (or None), name, country and the columns after the club of a player line.

    The line is quoted in the error only when ``quote_line`` (the file already looked like an
    EGF table): the bytes of a file that is not a table are never echoed.
    """
    first = 1 if PLACE.fullmatch(tokens[0]) else 0
    place = int(tokens[0]) if first else None
    grade = next(
        (i for i in range(first + 1, len(tokens)) if GRADE.fullmatch(tokens[i])), len(tokens)
    )
    if grade + 2 >= len(tokens):
        if not quote_line:
            raise SourceError(
                f"{source}, line {number}: not an EGF table: the first line that is not a "
                "comment is not a player line (place, name, grade like 5d/3k, country, club, "
                "round entries), and no EGF header (; EV[...]) comes before it"
            )
        raise SourceError(
            f"{source}, line {number}: not a player line (place, name, grade like 5d/3k, "
            f"country, club, round entries): {quote(' '.join(tokens))}"
        )
    country = tokens[grade + 1].upper()
    return (
        place,
        " ".join(tokens[first:grade]),
        None if country == UNKNOWN_COUNTRY else country,
        tokens[grade + 3 :],  # tokens[grade + 2] is the club, not kept
    )


def _entry(token: str) -> Entry:
    if match := GAME_LONG.fullmatch(token):
        colour = match["colour"].lower()
        return Entry(
            int(match["opponent"]),
            match["result"],
            colour if colour in OTHER_COLOUR else None,
            match["how"] == "!",
            token,
            min(int(match["handicap"]), HANDICAP_MAX) if match["handicap"] else None,
        )
    if match := GAME_SHORT.fullmatch(token):
        return Entry(int(match["opponent"]), match["result"], None, False, token)
    if match := BYE.fullmatch(token):
        return Entry(0, match["result"], None, False, token)
    raise ValueError(f"not a round entry: {token!r}")  # _round_count admits entries only


def _is_entry(token: str) -> bool:
    return any(p.fullmatch(token) for p in (GAME_LONG, GAME_SHORT, BYE))


def _round_count(tails: list[tuple[int, list[str]]], source: str) -> int:
    """The number of rounds: the trailing columns whose every value is a round entry.

    Tie-break columns (``MMS SOS ...``) come first and may hold values that look like entries
    (``0=``, ``12?``); a column counts as a round only when every line has an entry in it.
    When lines have different numbers of columns, each line's trailing run of entries is
    compared instead, and a line that differs from the others is a fatal error.
    """
    lengths = Counter(len(tail) for _, tail in tails)
    if len(lengths) == 1:
        width = len(tails[0][1])
        rounds = 0
        while rounds < width and all(_is_entry(tail[-rounds - 1]) for _, tail in tails):
            rounds += 1
        column = [(number, tail[-rounds - 1]) for number, tail in tails] if rounds < width else []
        if column and _is_round_column([token for _, token in column]):
            number, token = next((n, t) for n, t in column if not _is_entry(t))
            raise SourceError(
                f"{source}, line {number}: {token!r} is not a round entry (like 12+/w0, 5+, "
                "0-) but other lines have round entries in that column; fix the entry"
            )
    else:
        runs = [(number, _trailing_entries(tail)) for number, tail in tails]
        counts = Counter(run for _, run in runs)
        rounds = max(counts, key=lambda c: (counts[c], -_first_line(runs, c)))
        for number, run in runs:
            if run != rounds:
                raise SourceError(
                    f"{source}, line {number}: {run} round entries where line "
                    f"{_first_line(runs, rounds)} has {rounds}; every player line must have "
                    "the same number of rounds"
                )
    if rounds == 0:
        raise SourceError(f"{source}, line {tails[0][0]}: no round entries found")
    return rounds


def _is_round_column(tokens: list[str]) -> bool:
    """Whether a column that is not all entries is still a round with a broken value: it holds
    a long entry (``12+/w0``, never a tie-break value), or at least half the lines are paired in
    it (line i names j and line j names i), which tie-break values like ``12?`` are not by chance."""
    if any(GAME_LONG.fullmatch(token) for token in tokens):
        return True
    names = [
        int(match["opponent"]) if (match := GAME_SHORT.fullmatch(token)) else 0 for token in tokens
    ]
    paired = sum(
        1
        for position, opponent in enumerate(names, start=1)
        if 0 < opponent <= len(names) and names[opponent - 1] == position
    )
    return 2 * paired >= len(tokens)  # one broken value unpairs two lines


def _trailing_entries(tail: list[str]) -> int:
    count = 0
    while count < len(tail) and _is_entry(tail[-count - 1]):
        count += 1
    return count


def _first_line(runs: list[tuple[int, int]], count: int) -> int:
    return next(number for number, run in runs if run == count)


# -- tournament -------------------------------------------------------------------------------


def _tournament(
    path: Path,
    header: dict[str, str],
    info: dict[str, str],
    source: str,
    problems: list[Row],
    list_country: Callable[[str | None, str], str | None],
) -> Row:
    tid = "egf:" + (header.get("TC") or path.stem)
    country, city = None, None
    if "PC" in header:
        country_text, _, city_text = header["PC"].partition(",")
        country = list_country(country_text.strip().upper() or None, "header PC")
        city = city_text.strip() or None
    start = end = None
    hint = (
        "the games have no date, so none can be rated. Give the dates in tournament_facts.csv "
        f"(beside the table or in the rules directory): the line {facts_line(tid)!r} under "
        f"the header {','.join(FACT_COLUMNS)!r}, with the first and last day; or a header "
        "line '; DT[YYYY-MM-DD,YYYY-MM-DD]' in the table"
    )
    if "DT" in header:
        try:
            start, end = _dates(header["DT"])
        except ValueError:
            message = f"cannot read the dates DT[{header['DT']}] (want YYYY-MM-DD,YYYY-MM-DD): "
            problems.append(
                _problem("egf_bad_date", "warning", source, "header DT", message + hint)
            )
    else:
        problems.append(
            _problem("egf_bad_date", "warning", source, "header DT", "no DT[] header: " + hint)
        )
    minutes = _minutes(header, info, source, problems)
    return {
        "tournament_id": tid,
        "name": header.get("EV") or path.stem,
        "country": country,
        "country_name": None,
        "city": city,
        "start": start,
        "end": end,
        "rule_id": None,
        "rule": header.get("RU") or None,
        "category": CATEGORY,
        "rated": None,
        "type": 0,
        "minutes": minutes,
        "mode": _mode(header, source, problems),
        "source": source,
    }


def _dates(value: str) -> tuple[dt.date, dt.date]:
    """First and last day of ``DT[...]``: ``2015-11-07,2015-11-08``, or SGF short forms such
    as ``2015-11-07,08`` and ``2015-11-30,12-01``."""
    parts = [part.strip() for part in value.split(",") if part.strip()]
    if not parts:
        raise ValueError("no date")
    days = [dt.date.fromisoformat(parts[0])]
    for part in parts[1:]:
        pieces = [int(p) for p in part.split("-")]
        last = days[-1]
        if len(pieces) == 3:
            days.append(dt.date(*pieces))
        elif len(pieces) == 2:
            days.append(dt.date(last.year, *pieces))
        else:
            days.append(dt.date(last.year, last.month, pieces[0]))
    return min(days), max(days)


def _minutes(
    header: dict[str, str], info: dict[str, str], source: str, problems: list[Row]
) -> float | None:
    """Adjusted time per player from ``TM[]``, else the basic time of ``;time=`` (the number
    before a ``+``). The number must be the whole value (``TM[1h30]`` is not 1 minute), finite
    and in ``MINUTES_RANGE``; otherwise ``egf_bad_time`` and the next key is tried."""
    for key, text in (("TM", header.get("TM")), (";time=", info.get("time"))):
        if text is None:
            continue
        basic = BASIC_TIME.fullmatch(text)  # matches any text: what comes before a "+"
        written = text if key == "TM" or basic is None else basic["minutes"]
        value, ok = parse_minutes(written)
        if ok and value is not None:
            return value
        problems.append(
            _problem(
                "egf_bad_time",
                "warning",
                source,
                f"header {key}",
                f"cannot read minutes from {quote(text)}: want {MINUTES_WORDS}; time per "
                "player unknown",
            )
        )
    return None


def _mode(header: dict[str, str], source: str, problems: list[Row]) -> str | None:
    """``MO[]`` when given, else from the EGF class: A/B/C face to face, D internet."""
    if "MO" in header:
        mode = header["MO"].strip().lower()
        if mode in MODES:
            return mode
        problems.append(
            _problem(
                "egf_bad_header",
                "warning",
                source,
                "header MO",
                f"MO[{header['MO']}] is not one of {list(MODES)}; mode taken from CL[]",
            )
        )
    return MODE_BY_CLASS.get(header.get("CL", "").strip().upper())


# -- players ----------------------------------------------------------------------------------


def _players(
    lines: list[PlayerLine],
    tid: str,
    known: _Mapping,
    source: str,
    problems: list[Row],
    list_country: Callable[[str | None, str], str | None],
) -> tuple[dict[int, str], list[Row]]:
    """Player id of every position, and ``players`` rows for the unmatched ones."""
    ids: dict[int, str] = {}
    rows: list[Row] = []
    for player in lines:
        country = list_country(player.country, f"line {player.line}")
        name = _normal_name(player.name)
        pid = known.by_pin.get(player.pin or "") or known.by_name.get((name, country or ""))
        if pid is None:
            # the id keeps the country as the table writes it, so that editing
            # whr/data/country_codes.csv never changes an id
            basis = f"{name}|{player.country or ''}" if name else f"{tid}|{player.position}"
            pid = "egf:" + text_sha256(basis)[:10]
            rows.append(_player_row(pid, player, country, source))
            pin = f", PIN {player.pin}" if player.pin else ""
            problems.append(
                _problem(
                    "unmatched_player",
                    "warning",
                    source,
                    f"line {player.line}",
                    f"{player.name} ({player.country or 'country unknown'}{pin}) is not in the "
                    f"player mapping; given the new id {pid}. Map it in whr/data/egf_players.csv.",
                )
            )
        if pid in ids.values():
            other = next(p for p in lines if ids.get(p.position) == pid)
            problems.append(
                _problem(
                    "egf_duplicate_player",
                    "warning",
                    source,
                    f"line {other.line}, line {player.line}",
                    f"lines {other.line} and {player.line} are both player {pid}",
                )
            )
        ids[player.position] = pid
    return ids, rows


def _player_row(pid: str, player: PlayerLine, country: str | None, source: str) -> Row:
    return {
        "player_id": pid,
        "name": player.name,
        "surname": None,  # "Surname Given" cannot be split safely: surnames have several words
        "given_name": None,
        "native_name": None,
        "country": country,
        "country_name": None,
        "city": None,
        "female": None,
        "birth": None,
        "source": source,
    }


def _normal_name(name: str) -> str:
    """Case-, accent- and punctuation-insensitive form of a name, for matching."""
    decomposed = unicodedata.normalize("NFKD", name)
    letters = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+|_", " ", letters).split())


def _country_reporter(
    codes: _Countries, source: str, problems: list[Row]
) -> Callable[[str | None, str], str | None]:
    """A function giving the list's code of a table's country code (None and ``XX``: None).

    A code that is neither mapped nor 3 letters is kept as written, with one warning
    ``unknown_country`` per table and code, located where it first occurs.
    """
    reported: set[str] = set()

    def list_country(code: str | None, locator: str) -> str | None:
        if code is None or code == UNKNOWN_COUNTRY:
            return None
        if code in codes.codes or LIST_CODE.fullmatch(code):
            return codes.listed(code)
        if code not in reported:
            reported.add(code)
            problems.append(
                _problem(
                    "unknown_country",
                    "warning",
                    source,
                    locator,
                    f"country code {code!r} is not in whr/data/country_codes.csv; kept as "
                    "written. Add a row mapping it to the list's 3-letter code.",
                )
            )
        return code

    return list_country


def _file_path(value: Path | str | None, argument: str, default: Path) -> Path:
    if value is None:
        return default
    if not isinstance(value, str | Path):
        raise TypeError(f"{argument} must be a path or None, got {type(value).__name__}")
    path = Path(value)
    if not path.is_file():
        raise ValueError(f"{argument} must name an existing CSV file, got {str(path)!r}")
    return path


def _csv_rows(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """The rows of a maintainer CSV (``#`` lines are comments) with their line numbers."""
    text = path.read_text(encoding="utf-8-sig")
    numbered = [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not numbered:
        return []
    reader = csv.DictReader(io.StringIO("\n".join(line for _, line in numbered)))
    missing = set(columns) - set(reader.fieldnames or ())
    if missing:
        raise SourceError(
            f"{path}, line {numbered[0][0]}: the header must name the columns "
            f"{','.join(columns)}; missing {sorted(missing)}"
        )
    return [(number, row) for (number, _), row in zip(numbered[1:], reader, strict=True)]


def _load_countries(path: Path) -> _Countries:
    """Read the country CSV (``alpha2,code[,country]``; ``#`` lines are comments)."""
    codes: dict[str, str] = {}
    problems: list[Row] = []
    for number, row in _csv_rows(path, ("alpha2", "code")):
        alpha2 = (row["alpha2"] or "").strip().upper()
        code = (row["code"] or "").strip().upper()
        if not re.fullmatch(r"[A-Z]{2}", alpha2) or not LIST_CODE.fullmatch(code):
            why = "needs a 2-letter alpha2 and a 3-letter code"
        elif codes.get(alpha2, code) != code:
            why = f"{alpha2} already maps to {codes[alpha2]}, not {code}; the first row is used"
        else:
            codes[alpha2] = code
            continue
        problems.append(
            _problem("egf_bad_country_code", "warning", str(path), f"line {number}", f"row {why}")
        )
    return _Countries(codes, tuple(problems))


_Key = TypeVar("_Key", str, tuple[str, str])


def _load_mapping(path: Path, codes: _Countries) -> _Mapping:
    """Read the mapping CSV (``player_id,name,country,pin``; ``#`` lines are comments); its
    countries are compared as the list writes them, so ``EE`` and ``EST`` both match ``EE``."""
    source = str(path)
    by_pin: dict[str, str] = {}
    by_name: dict[tuple[str, str], str] = {}
    problems: list[Row] = []
    for number, row in _csv_rows(path, ("player_id", "name", "country", "pin")):
        pid = nfc_id((row["player_id"] or "").strip())
        pin = (row["pin"] or "").strip()
        country = (row["country"] or "").strip().upper()
        key = (_normal_name(row["name"] or ""), codes.listed(country) if country else "")
        if not pid or not (pin or all(key)):
            problems.append(
                _problem(
                    "egf_bad_mapping",
                    "warning",
                    source,
                    f"line {number}",
                    "a mapping row needs a player_id and either a pin or a name and a "
                    "country; row ignored",
                )
            )
            continue
        clashes: list[tuple[str | tuple[str, str], str | None]] = []
        if pin:
            clashes.append((pin, _claim(by_pin, pin, pid)))
        if all(key):
            clashes.append((key, _claim(by_name, key, pid)))
        for k, other in clashes:
            if other is not None:
                problems.append(
                    _problem(
                        "egf_bad_mapping",
                        "warning",
                        source,
                        f"line {number}",
                        f"{k!r} already maps to {other}, not {pid}; the first row is used",
                    )
                )
    return _Mapping(by_pin, by_name, tuple(problems))


def _claim(table: dict[_Key, str], key: _Key, pid: str) -> str | None:
    """Map ``key`` to ``pid`` unless it maps to another id already; return that other id."""
    other = table.setdefault(key, pid)
    return None if other == pid else other


# -- games ------------------------------------------------------------------------------------


def _games(
    lines: list[PlayerLine],
    ids: dict[int, str],
    tournament: Row,
    source: str,
    problems: list[Row],
) -> list[Row]:
    """One row per pairing of each round, and one per round without a game."""
    tid = tournament["tournament_id"]
    by_position = {player.position: player for player in lines}
    rows: list[Row] = []

    def row(game_id: str, rnd: int, black: str | None, white: str | None, **facts: Any) -> Row:
        return {
            "game_id": f"{tid}:r{rnd}:{game_id}",
            "tournament_id": tid,
            "round": str(rnd),
            "rule_id": None,
            "black": black,
            "white": white,
            "date": tournament["end"],
            "moves": None,  # tables carry no moves: not applicable
            "unrated": False,
            "bye": False,
            "handicap": None,
            "note": None,
            "source": source,
            **facts,
        }

    for index in range(len(lines[0].entries)):
        rnd = index + 1
        pairs: set[tuple[int, int]] = set()
        for player in lines:
            entry = player.entries[index]
            p = player.position
            if entry.opponent == 0:
                rows.append(
                    row(
                        f"bye:{p}",
                        rnd,
                        ids[p],
                        None,
                        result=SCORE[entry.result],
                        forfeit=False,
                        bye=True,  # a round without a game: no opponent, nothing played
                        colours_known=False,
                    )
                )
            elif entry.opponent == p or entry.opponent not in by_position:
                problems.append(
                    _problem(
                        "egf_bad_opponent",
                        "error",
                        source,
                        f"line {player.line}, round {rnd}",
                        f"{entry.text!r} names position {entry.opponent}, but the table has "
                        f"positions 1-{len(lines)} and this line is {p}; game kept without "
                        "a result",
                    )
                )
                rows.append(
                    row(
                        f"{p}-{entry.opponent}",
                        rnd,
                        ids[p],
                        None,
                        result=None,
                        forfeit=entry.forfeit,
                        colours_known=False,
                        handicap=entry.handicap,
                    )
                )
            else:
                pairs.add((min(p, entry.opponent), max(p, entry.opponent)))
        for a, b in sorted(pairs):
            rows.append(_pair(row, by_position[a], by_position[b], index, ids, source, problems))
    return rows


def _pair(
    row: Callable[..., Row],
    first: PlayerLine,
    second: PlayerLine,
    index: int,
    ids: dict[int, str],
    source: str,
    problems: list[Row],
) -> Row:
    """The game row of positions ``first < second`` in a round, from both players' entries."""
    rnd = index + 1
    a, b = first.entries[index], second.entries[index]
    game_id = f"{first.position}-{second.position}"
    why = _disagreement(a, b, first.position, second.position)
    forfeit = a.forfeit or b.forfeit
    # both entries give it; when they differ (a mismatch), the larger: stones were given
    given = [h for h in (a.handicap, b.handicap) if h is not None]
    handicap = max(given) if given else None
    if why:
        problems.append(
            _problem(
                "egf_mismatch",
                "error",
                source,
                f"line {first.line}, line {second.line}, round {rnd}",
                f"round {rnd}: line {first.line} (position {first.position}) has {a.text!r} "
                f"but line {second.line} (position {second.position}) has {b.text!r}: {why}; "
                "the game is kept without a result, so neither side is rated",
            )
        )
        return row(
            game_id,
            rnd,
            ids[first.position],
            ids[second.position],
            result=None,
            forfeit=forfeit,
            colours_known=False,
            handicap=handicap,
        )
    colour = a.colour or (OTHER_COLOUR[b.colour] if b.colour else None)
    if colour == "w":
        black, white, black_result = second, first, b.result
    else:
        black, white, black_result = first, second, a.result
    return row(
        game_id,
        rnd,
        ids[black.position],
        ids[white.position],
        result=SCORE[black_result],
        forfeit=forfeit,
        colours_known=colour is not None,
        handicap=handicap,
    )


def _disagreement(a: Entry, b: Entry, pa: int, pb: int) -> str | None:
    """Why the entries of positions ``pa`` and ``pb`` do not describe one game, or None."""
    if a.opponent != pb or b.opponent != pa:
        return "they do not name each other"
    if MIRROR[a.result] != b.result:
        return "the results are not mirrored"
    if a.colour and b.colour and a.colour == b.colour:
        return f"both have colour {a.colour!r}"
    if a.handicap is not None and b.handicap is not None and a.handicap != b.handicap:
        return f"handicaps {a.handicap} and {b.handicap} differ"
    return None


def _problem(code: str, severity: str, source: str, locator: str, message: str) -> Row:
    return {
        "code": code,
        "severity": severity,
        "source": source,
        "locator": locator,
        "message": message,
    }
