"""The tables every stage shares, declared once.

Every source adapter produces these tables, eligibility consumes and filters them, the engine
rates the selected games, and the publishers write them out. Ids are always strings (RenjuNet's
player ``disp_id`` keeps its leading zeros). Columns are documented for data consumers in
``docs/data-dictionary.md`` and, for programs, in the published ``datapackage.json``
(:mod:`whr.publish.datapackage`); a change to a published schema raises ``FORMAT_VERSION`` and
is recorded in ``CHANGELOG.md``.

Conventions
-----------
- Dates are calendar dates (Arrow ``date32``); a date that is not known is null.
- ``result`` is Black's score: 1.0 Black won, 0.5 draw, 0.0 White won, null when missing.
- A reference that could not be resolved (a game naming an unknown player) is kept as null in
  the row and reported in ``problems``; eligibility then excludes the game with a reason, so
  no game read is ever lost.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr.digest import text_sha256
from whr.params import CATEGORIES as CATEGORIES  # re-exported for the readers

FORMAT_VERSION = 7
"""The version of the published format: every table, file, address, manifest and index a
consumer reads. Raised on every change to any of them, each recorded in ``CHANGELOG.md``
("Breaking changes"). The one number behind ``whr.schema_version`` in every Parquet file's
metadata (as text), ``format`` and ``schema_version`` in every manifest, and ``format`` in
``published.json`` and ``datapackage.json``."""

MODES = ("face_to_face", "online_supervised", "online")

ELO = "Elo"
"""The unit of ratings, their uncertainties (standard deviations) and their changes."""


def column(
    name: str,
    type: pa.DataType,
    description: str,
    *,
    required: bool = False,
    unit: str | None = None,
    values: tuple[str, ...] = (),
) -> pa.Field[pa.DataType]:
    """A column of a shared table: its Arrow field, described for the table's readers.

    Parameters
    ----------
    name, type
        The column's name and Arrow type.
    description : str
        What the column holds, for a data consumer (``datapackage.json`` publishes it).
    required : bool, default False
        The column is never null (the field is not nullable).
    unit : str, optional
        The unit of a quantity (``ELO``, ``"minutes"``).
    values : tuple of str, optional
        The values a text column takes (besides null).

    The description, unit and values are the field's metadata (``description``, ``unit``,
    ``values`` as JSON), read back by :func:`described`; the Parquet files are written with
    :func:`plain` schemas, which carry none.
    """
    metadata = {"description": description}
    if unit is not None:
        metadata["unit"] = unit
    if values:
        metadata["values"] = json.dumps(list(values))
    return pa.field(name, type, nullable=not required, metadata=metadata)


def table(fields: list[pa.Field[pa.DataType]], *, key: tuple[str, ...] = ()) -> pa.Schema:
    """The schema of a shared table; ``key``: the columns that identify a row (its primary
    key), when some do."""
    names = [f.name for f in fields]
    unknown = [k for k in key if k not in names]
    if unknown:
        raise ValueError(f"key columns {unknown} are not columns of the table {names}")
    metadata: dict[bytes | str, bytes | str] | None = None
    if key:
        metadata = {"primary_key": json.dumps(list(key))}
    return pa.schema(fields, metadata=metadata)


@dataclass(frozen=True)
class Described:
    """What :func:`column` and :func:`table` declared about a column (see :func:`described`)."""

    name: str
    type: pa.DataType
    required: bool
    description: str
    unit: str | None
    values: tuple[str, ...]


def described(schema: pa.Schema) -> tuple[list[Described], tuple[str, ...]]:
    """The declared columns of ``schema`` and its primary key (empty when it has none)."""

    def text(meta: dict[bytes, bytes], key: bytes) -> str | None:
        return meta[key].decode() if key in meta else None

    columns = []
    for f in schema:
        meta = f.metadata or {}
        values = text(meta, b"values")
        columns.append(
            Described(
                name=f.name,
                type=f.type,
                required=not f.nullable,
                description=text(meta, b"description") or "",
                unit=text(meta, b"unit"),
                values=tuple(json.loads(values)) if values else (),
            )
        )
    key = text(schema.metadata or {}, b"primary_key")
    return columns, tuple(json.loads(key)) if key else ()


def plain(schema: pa.Schema) -> pa.Schema:
    """``schema`` without its descriptions (the field and schema metadata): what the Parquet
    files are written with."""
    return pa.schema([f.remove_metadata() for f in schema])


SOURCE = column("source", pa.string(), "the file the row was read from (a URL without its query)")

PLAYERS = table(
    [
        column(
            "player_id",
            pa.string(),
            "public player id (RenjuNet disp_id; leading zeros kept)",
            required=True,
        ),
        column("name", pa.string(), 'display name, "Surname Given"'),
        column("surname", pa.string(), "surname"),
        column("given_name", pa.string(), "given name"),
        column("native_name", pa.string(), "name in native script, if any"),
        column("country", pa.string(), 'country code as the source has it, e.g. "CHN"'),
        column("country_name", pa.string(), "country name"),
        column("city", pa.string(), "city"),
        column("female", pa.bool_(), "true for women"),
        column("birth", pa.string(), 'birth date as recorded; may be partial, e.g. "1990-00-00"'),
        SOURCE,
    ],
)

TOURNAMENTS = table(
    [
        column("tournament_id", pa.string(), "tournament id", required=True),
        column("name", pa.string(), "tournament name"),
        column("country", pa.string(), "country code"),
        column("country_name", pa.string(), "country name"),
        column("city", pa.string(), "city"),
        column("start", pa.date32(), "first day"),
        column("end", pa.date32(), "last day; null when not known"),
        column("rule_id", pa.string(), "rule id in the source"),
        column("rule", pa.string(), 'rule name, e.g. "Taraguchi-10"'),
        column(
            "category",
            pa.string(),
            "the rule's category; null when the rule is unknown",
            values=CATEGORIES,
        ),
        column(
            "rated",
            pa.bool_(),
            'the source\'s own "counts for rating" flag; null when the '
            "source has none (an EGF table) and no maintainer confirmed the tournament",
        ),
        column("type", pa.int32(), "RenjuNet tournament type; 0 = ordinary"),
        column(
            "minutes", pa.float64(), "thinking time per player; null when not known", unit="minutes"
        ),
        column("mode", pa.string(), "how it was played; null when not known", values=MODES),
        SOURCE,
    ],
)

GAMES = table(
    [
        column("game_id", pa.string(), "game id in the source", required=True),
        column("tournament_id", pa.string(), "the game's tournament"),
        column("round", pa.string(), 'round as recorded (free text: "8", "F2", "")'),
        column("rule_id", pa.string(), "rule id in the source"),
        column(
            "black", pa.string(), "Black's player id; null when the record's reference is unknown"
        ),
        column(
            "white", pa.string(), "White's player id; null when the record's reference is unknown"
        ),
        column(
            "result",
            pa.float64(),
            "Black's score: 1 Black won, 0.5 draw, 0 White won; null when missing",
        ),
        column(
            "date",
            pa.date32(),
            "the game's date (the record's own, else the tournament's last day)",
        ),
        column("moves", pa.int32(), "number of moves recorded (the moves are never kept)"),
        column("unrated", pa.bool_(), "the record itself is marked not rated"),
        column("forfeit", pa.bool_(), "the source says: not played in reality (walk-over)"),
        column("bye", pa.bool_(), "a round without a game: black is the player, white null"),
        column("colours_known", pa.bool_(), "false when black and white are only the two sides"),
        column(
            "handicap",
            pa.int32(),
            "handicap stones the game was played with (an EGF table's 3+/b7: 7); 0 an even "
            "game; null when the source does not record one (RenjuNet: renju has no handicap)",
        ),
        column(
            "note", pa.string(), "the record's free-text note (RenjuNet <info>); never published"
        ),
        SOURCE,
    ],
)

PROBLEMS = table(
    [
        column("code", pa.string(), 'stable problem code, e.g. "unknown_player"', required=True),
        column(
            "severity", pa.string(), "how bad it is", required=True, values=("error", "warning")
        ),
        column("source", pa.string(), "the file or URL (without its query)"),
        column("locator", pa.string(), 'where in it, e.g. "line 12, game id=5"'),
        column("message", pa.string(), "the problem in words"),
    ]
)

EXCLUSIONS = table(
    [
        column("game_id", pa.string(), "game id", required=True),
        column("tournament_id", pa.string(), "its tournament"),
        column(
            "reason",
            pa.string(),
            "stable reason code, e.g. forfeit, after_as_of (see docs/eligibility.md)",
            required=True,
        ),
        column("message", pa.string(), "the reason in words"),
        column("black", pa.string(), "Black's player id, as read; null when not known"),
        column("white", pa.string(), "White's player id, as read; null when not known (a bye)"),
    ]
)

TOURNAMENT_FACTS = table(  # one row per line of a tournament_facts.csv (whr.sources.facts)
    [
        column("tournament_id", pa.string(), "tournament id", required=True),
        column(
            "minutes", pa.float64(), "thinking time per player; null: not known", unit="minutes"
        ),
        column("mode", pa.string(), "how it was played; null when not known", values=MODES),
        column("start", pa.date32(), "first day; null when not given"),
        column("end", pa.date32(), "last day; null when not given"),
        column(
            "category",
            pa.string(),
            "the tournament's category; null when not given",
            values=CATEGORIES,
        ),
        column("note", pa.string(), "where the facts come from"),
        column("source", pa.string(), '"file:line" of the row'),
    ]
)

FACTS_NEEDED = table(  # whr.rules.facts_needed: what maintainers must fill in
    [
        column("tournament_id", pa.string(), "tournament id", required=True),
        column("name", pa.string(), "tournament name"),
        column("start", pa.date32(), "first day"),
        column("end", pa.date32(), "last day"),
        column("country", pa.string(), "country code"),
        column("city", pa.string(), "city"),
        column("games", pa.int32(), "games whose verdict waits on the facts", required=True),
        column(
            "minutes", pa.float64(), "empty, to be filled: thinking time per player", unit="minutes"
        ),
        column("mode", pa.string(), "empty, to be filled: how it was played", values=MODES),
        column("note", pa.string(), "empty, to be filled: where the facts come from"),
    ],
    key=("tournament_id",),
)

HISTORY = table(
    [
        column("player", pa.string(), "player id", required=True),
        column("date", pa.date32(), "a day on which the player played rated games", required=True),
        column(
            "rating",
            pa.float64(),
            "rating that day, published scale (the virtual opponent of new players is 1900)",
            required=True,
            unit=ELO,
        ),
        column(
            "uncertainty", pa.float64(), "its posterior standard deviation", required=True, unit=ELO
        ),
        column(
            "games", pa.int32(), "rated games that day (virtual games never count)", required=True
        ),
    ],
    key=("player", "date"),
)


def empty(schema: pa.Schema) -> pd.DataFrame:
    """An empty DataFrame with the columns and dtypes of ``schema``."""
    return to_frame(schema.empty_table())


def to_frame(table: pa.Table) -> pd.DataFrame:
    """Convert an Arrow table to pandas; dates become ``datetime.date`` objects."""
    return table.to_pandas()


def to_table(frame: pd.DataFrame, schema: pa.Schema) -> pa.Table:
    """Convert ``frame`` to an Arrow table with exactly ``schema`` (column order and types).

    Raises
    ------
    ValueError
        If a column of the schema is missing from ``frame``, naming it.
    """
    missing = [name for name in schema.names if name not in frame.columns]
    if missing:
        raise ValueError(f"table is missing columns {missing}; expected {schema.names}")
    return pa.Table.from_pandas(frame[schema.names], schema=schema, preserve_index=False)


def conform(frame: pd.DataFrame, schema: pa.Schema) -> pd.DataFrame:
    """Return ``frame`` with exactly the columns and dtypes of ``schema``."""
    return to_frame(to_table(frame, schema))


def as_date(value: object, name: str, *, iso_text: bool = False) -> dt.date:
    """Check that an argument is a calendar date (the data model's dates) and return it.

    Parameters
    ----------
    value : object
        A ``datetime.date``; a ``datetime.datetime`` (a date with a time) is refused, since a
        rating day has no time of day. With ``iso_text``, also an ISO date string
        ``YYYY-MM-DD``, returned parsed.
    name : str
        The argument's name, for the error message.
    iso_text : bool, default False
        Accept ISO date strings.

    Returns
    -------
    datetime.date
        ``value`` itself, or the date an ISO string names.

    Raises
    ------
    TypeError
        If ``value`` is a datetime or of another type, naming ``name`` and what came.
    ValueError
        If ``value`` is a string (with ``iso_text``) that is not an ISO date.
    """
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if iso_text and isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{name} must be an ISO date YYYY-MM-DD, got {value!r}") from None
    expected = "a datetime.date or an ISO date string" if iso_text else "a datetime.date"
    if isinstance(value, dt.datetime):
        raise TypeError(f"{name} must be {expected} (a day, no time), got a datetime {value!r}")
    raise TypeError(f"{name} must be {expected}, got {type(value).__name__}: {value!r}")


def days_of(values: object) -> np.ndarray:
    """A column of dates as ``datetime64[D]``, NaT where null: the one date converter.

    Parameters
    ----------
    values : Series, array or sequence
        ``datetime.date`` objects, ISO date strings (``YYYY-MM-DD``), ``datetime64``, Arrow
        ``date32`` or timestamps (their day), with nulls.
    """
    if isinstance(values, pa.ChunkedArray):
        array = values.combine_chunks()
    elif isinstance(values, pa.Array):
        array = values
    else:
        series = values if isinstance(values, pd.Series) else pd.Series(np.asarray(values))
        if len(series) == 0:
            return np.empty(0, dtype="datetime64[D]")
        if series.dtype.kind == "M":  # datetime64 already
            return series.to_numpy().astype("datetime64[D]")
        array = pa.Array.from_pandas(series)
    if pa.types.is_string(array.type) or pa.types.is_large_string(array.type):
        array = pc.strptime(array, format="%Y-%m-%d", unit="s")
    return pc.cast(array, pa.date32()).to_numpy(zero_copy_only=False).astype("datetime64[D]")


def list_games(games: pd.DataFrame, as_of: dt.date) -> pd.DataFrame:
    """The rated games of the list of ``as_of``: those dated on or before it.

    A published list's rated games are those its run selected (none after its day); a tree
    whose archive was written otherwise (one history published as the lists of several days)
    may hold later ones, which the list of ``as_of`` does not rate.
    """
    day = np.datetime64(as_of, "D")
    keep = days_of(games["date"]) <= day
    return games.loc[keep].reset_index(drop=True)


def dates_of(days: object) -> pd.Series:
    """``datetime64[D]`` values (or day numbers since 1970-01-01) as a Series of
    ``datetime.date`` objects, None where NaT: the inverse of :func:`days_of`."""
    array = pa.array(np.asarray(days).astype("datetime64[D]"), type=pa.date32())
    return pd.Series(array.to_pandas(date_as_object=True), dtype=object)


@dataclass(frozen=True)
class SourceData:
    """Everything read from one or more sources, in the shared schemas.

    Attributes
    ----------
    players, tournaments, games, problems : pandas.DataFrame
        Tables with the schemas ``PLAYERS``, ``TOURNAMENTS``, ``GAMES`` and ``PROBLEMS``.
    inputs : tuple of (name, sha256)
        Every file read, in the order read.
    without_facts : tuple of str
        The files of records (as named in ``inputs``) read with no ``tournament_facts.csv``
        beside them: their tournaments' thinking time and mode can come only from the
        maintainers' rules (the run summary says so).
    dated : datetime.date or None
        The database's own date: the newest a RenjuNet database read gives (its ``date``
        attribute, else the ``YYYYMMDD`` of its file name); None when no file read is dated.
    """

    players: pd.DataFrame
    tournaments: pd.DataFrame
    games: pd.DataFrame
    problems: pd.DataFrame
    inputs: tuple[tuple[str, str], ...] = field(default=())
    without_facts: tuple[str, ...] = field(default=())
    dated: dt.date | None = None

    @property
    def sha256(self) -> str:
        """The sha256 of what was read: the file's own digest when one file was read, else the
        digest of the sorted ``name<TAB>sha256`` lines of all inputs."""
        if len(self.inputs) == 1:
            return self.inputs[0][1]
        lines = "".join(f"{name}\t{digest}\n" for name, digest in sorted(self.inputs))
        return text_sha256(lines)


def concat(parts: list[SourceData]) -> SourceData:
    """Merge several sources into one (rows appended in order; ids are not deduplicated)."""

    def cat(name: str, schema: pa.Schema) -> pd.DataFrame:
        frames = [getattr(p, name) for p in parts if len(getattr(p, name))]
        if not frames:
            return empty(schema)
        return conform(pd.concat(frames, ignore_index=True), schema)

    return SourceData(
        players=cat("players", PLAYERS),
        tournaments=cat("tournaments", TOURNAMENTS),
        games=cat("games", GAMES),
        problems=cat("problems", PROBLEMS),
        inputs=tuple(i for p in parts for i in p.inputs),
        without_facts=tuple(name for p in parts for name in p.without_facts),
        dated=max((p.dated for p in parts if p.dated is not None), default=None),
    )


# --- Published tables (whr.lists builds the rows, whr.publish writes them) -------------------

STATUSES = ("active", "inactive", "provisional")  # RIF rating rules 2021, rule 10

RATINGS = table(
    [
        column("list_date", pa.date32(), "the list date D", required=True),
        column(
            "rank",
            pa.int32(),
            "rank among established active players, 1..n in the order of "
            "the unrounded ratings (ratings within 1e-6 Elo by player id); null for others",
        ),
        column(
            "country_rank",
            pa.int32(),
            "the same order within the player's country; null when not active or no country",
        ),
        column("player", pa.string(), "player id (players.player_id)", required=True),
        column(
            "name", pa.string(), 'display name, "Surname Given"; the id when the player is unknown'
        ),
        column("native_name", pa.string(), "name in native script"),
        column("country", pa.string(), 'country code as in the source, e.g. "RUS"'),
        column("country_name", pa.string(), "country name"),
        column("female", pa.bool_(), "true for women"),
        column("birth_year", pa.int32(), "year of birth; null when not known"),
        column(
            "rating",
            pa.float64(),
            "rating on D, published scale (the virtual opponent of new players is 1900)",
            required=True,
            unit=ELO,
        ),
        column(
            "uncertainty",
            pa.float64(),
            "its standard deviation on D; null only in an Elo-era list",
            unit=ELO,
        ),
        column(
            "games", pa.int32(), "rated games up to D (virtual games never count)", required=True
        ),
        column("wins", pa.int32(), "wins among those games", required=True),
        column("draws", pa.int32(), "draws among those games", required=True),
        column("losses", pa.int32(), "losses among those games", required=True),
        column("gy1", pa.int32(), "rated games dated in [D - 1 year, D]", required=True),
        column("gy2", pa.int32(), "rated games dated in [D - 2 years, D]", required=True),
        column(
            "gy5",
            pa.int32(),
            "rated games dated in [D - 5 years, D] (the active rule's window)",
            required=True,
        ),
        column("first_game", pa.date32(), "first rated game", required=True),
        column("last_game", pa.date32(), "last rated game up to D", required=True),
        column(
            "best_rating",
            pa.float64(),
            "the highest rating a published list showed for the player up to D, whole Elo as "
            "the lists show it (the record: RECORD; before format 7 unrounded); null only on a "
            "year-end list before the first list the record holds",
            unit=ELO,
        ),
        column(
            "best_date",
            pa.date32(),
            "the day of the first list that showed it; null when best_rating is",
        ),
        column(
            "best_estimate",
            pa.float64(),
            "today's estimate of the player's peak: the highest rating over their rating days "
            "up to D in this list's fit (WHR revises the past: not a rating a list published); "
            "null in lists written before format 6",
            unit=ELO,
        ),
        column(
            "best_estimate_date",
            pa.date32(),
            "the first rating day it was reached; null when best_estimate is",
        ),
        column(
            "status",
            pa.string(),
            "status on D (RIF rating rules 2021, rule 10)",
            required=True,
            values=STATUSES,
        ),
        # What changed since the previous published list of the category (whr.lists.changes.since)
        column(
            "rating_change",
            pa.float64(),
            "rating minus the rating on the previous "
            "published list of the category; null for a player not on it, and for every "
            "player when there is none",
            unit=ELO,
        ),
        column(
            "previous_rank",
            pa.int32(),
            "rank on the previous list; null when unranked there or not on it",
        ),
        # rating_change = change_own_games + change_others (both null when not computed)
        column(
            "change_own_games",
            pa.float64(),
            "the part of rating_change due to the player's own new games; null when not computed",
            unit=ELO,
        ),
        column(
            "change_others",
            pa.float64(),
            "the rest of rating_change, due to WHR "
            "re-estimating the past from other players' new results; null when not computed",
            unit=ELO,
        ),
    ],
    key=("list_date", "player"),
)

CHANGE_COLUMNS = ("rating_change", "previous_rank", "change_own_games", "change_others")
"""The columns of ``RATINGS`` that a list gets after it is built (null until then)."""

RECORD_COLUMNS = ("best_rating", "best_date")
"""The columns of ``RATINGS`` read from the record of the lists published up to the list's day
(``whr.lists.record``): they depend on which lists were published before, not only on the
games."""

RATED_GAMES = table(
    # notes are the database's text: never published; a rated game never has a handicap
    [f for f in GAMES if f.name not in ("note", "handicap")]
    + [
        column("black_rating", pa.float64(), "Black's rating that day, published scale", unit=ELO),
        column("black_uncertainty", pa.float64(), "its standard deviation", unit=ELO),
        column("white_rating", pa.float64(), "White's rating that day, published scale", unit=ELO),
        column("white_uncertainty", pa.float64(), "its standard deviation", unit=ELO),
    ],
    key=("game_id",),  # a later copy of a game id is never rated (duplicate_game)
)

MONTH_LISTS = table(
    [field.with_type(pa.float32()) if field.type == pa.float64() else field for field in RATINGS],
    key=("list_date", "player"),
)
"""The lists of every day of a closed month, kept for years (``archive/<list>/months/``): the
columns of ``RATINGS``, with every Elo value (rating, uncertainty, best rating, changes) stored
as float32, which keeps a month of daily lists less than half its float64 size. A list is
published with these values already (:func:`month_exact`), so its month keeps it exactly."""


def month_exact(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` (``RATINGS``) with every Elo value the nearest float32 (within 0.0002 Elo of
    it, far below the whole Elo the pages show): a list's numbers as its closed month keeps
    them, so that compacting a month changes no published number. The list is ordered before
    (ranks come from the fit's values, never from these)."""
    out = frame.copy()
    for f in MONTH_LISTS:
        if f.type == pa.float32() and f.name in out:
            out[f.name] = nearest_float32(out[f.name].to_numpy(np.float64, na_value=np.nan))
    return out


def nearest_float32(values: np.ndarray) -> np.ndarray:
    """Each value the nearest float32, as float64: how a list publishes its Elo values
    (:func:`month_exact`; a difference of two of them is one too, below 4096 Elo)."""
    out: np.ndarray = np.asarray(values, np.float64).astype(np.float32).astype(np.float64)
    return out


EXCLUSIONS_CSV = table(
    [
        EXCLUSIONS.field("game_id"),
        EXCLUSIONS.field("tournament_id"),
        column("tournament", pa.string(), 'its name ("(no tournament)" without one)'),
        column("tournament_end", pa.date32(), "its last day; null when not known"),
        EXCLUSIONS.field("reason"),
        EXCLUSIONS.field("message"),
        EXCLUSIONS.field("black"),
        column("black_name", pa.string(), "Black's name, as read; null when not known"),
        EXCLUSIONS.field("white"),
        column("white_name", pa.string(), "White's name, as read; null when not known"),
    ]
)
"""``exclusions.csv`` of a list's site: the games not rated, with their tournament's name and
last day."""

CHANGE_SOURCES = ("daily", "replay")
"""Where a row of ``TOURNAMENT_CHANGES`` comes from: computed by the daily run of the list that
first rated the tournament (``daily``), or reconstructed by the backfill (``replay``)."""

TOURNAMENT_CHANGES = table(
    [
        column("player", pa.string(), "player id", required=True),
        column("tournament_id", pa.string(), "tournament id", required=True),
        column(
            "first_list_date",
            pa.date32(),
            "the list that first rated the tournament's games",
            required=True,
        ),
        column("previous_list_date", pa.date32(), "the list just before it", required=True),
        column(
            "rating_before",
            pa.float64(),
            "the player's rating on the previous list, from the games known then, published "
            "scale; null: not on that list",
            unit=ELO,
        ),
        column("uncertainty_before", pa.float64(), "its standard deviation", unit=ELO),
        column(
            "rating_after",
            pa.float64(),
            "the player's rating on the first list that rated the tournament, from the games "
            "known then, published scale",
            required=True,
            unit=ELO,
        ),
        column(
            "uncertainty_after", pa.float64(), "its standard deviation", required=True, unit=ELO
        ),
        column("games", pa.int32(), "the player's games in the tournament", required=True),
        column("score", pa.float64(), "the player's points in them", required=True),
        column(
            "other_new_games",
            pa.int32(),
            "the player's other games new on that list (0: rating_after - rating_before is "
            "this tournament's change, with the other players' new results)",
            required=True,
        ),
        column(
            "source",
            pa.string(),
            "daily: kept by the run of that list; replay: reconstructed by the backfill",
            required=True,
            values=CHANGE_SOURCES,
        ),
    ],
    key=("player", "tournament_id"),
)
"""Each tournament's change at the time (``whr.lists.at_the_time``): one row per player and
tournament, made when the tournament's games were first rated and never recomputed."""

RECORD_SOURCES = ("list", "replay")
"""Where a row of ``RECORD`` comes from: a list this site published (the archive holds it), kept by
the daily run that published it or read from the archive (``list``), or a list the backfill
reconstructed for the days before the archive (``replay``)."""

RECORD = table(
    [
        column("player", pa.string(), "player id", required=True),
        column("list_date", pa.date32(), "the list", required=True),
        column(
            "rating",
            pa.float64(),
            "the rating the list published (published scale), whole Elo as the lists show it "
            "(rows kept before format 7: unrounded)",
            required=True,
            unit=ELO,
        ),
        column(
            "uncertainty",
            pa.float64(),
            "its standard deviation, whole Elo (rows kept before format 7: unrounded)",
            required=True,
            unit=ELO,
        ),
        column("rank", pa.int32(), "the rank it published; null when not ranked (not active)"),
        column(
            "status",
            pa.string(),
            "the status it published (RIF rating rules 2021, rule 10)",
            required=True,
            values=STATUSES,
        ),
        column(
            "games",
            pa.int32(),
            "the player's rated games on that list (virtual games never count)",
            required=True,
        ),
        column(
            "source",
            pa.string(),
            "list: a list this site published (of the archive); replay: a list the backfill "
            "reconstructed from the games known then",
            required=True,
            values=RECORD_SOURCES,
        ),
    ],
    key=("player", "list_date"),
)
"""What the lists said about every player (``whr.lists.record``), at the precision the pages show
it: a row per player and list where the rating shown (whole Elo), the rated games or the status
changed, on a new best rank, on the player's first list, and for every player of the list that
stood on a December 31; so any list's rating and status of a player are those of their last row
up to its day. Never recomputed."""
