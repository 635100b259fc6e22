"""The tables every stage shares, declared once.

Every source adapter produces these tables, eligibility consumes and filters them, the engine
rates the selected games, and the publishers write them out. Ids are always strings (RenjuNet's
player ``disp_id`` keeps its leading zeros). Columns are documented for data consumers in
``docs/data-dictionary.md``; change a schema here and ``SCHEMA_VERSION`` together.

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
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr.digest import text_sha256
from whr.params import CATEGORIES as CATEGORIES  # re-exported for the readers

# 2: games.note, games.bye; tournament facts; facts needed. 3: RATINGS' change columns.
# 4: TOURNAMENT_CHANGES (each tournament's change at the time)
SCHEMA_VERSION = "4"

MODES = ("face_to_face", "online_supervised", "online")

PLAYERS = pa.schema(
    [
        pa.field("player_id", pa.string(), nullable=False),  # public id (RenjuNet disp_id)
        pa.field("name", pa.string()),  # display name, "Surname Given"
        pa.field("surname", pa.string()),
        pa.field("given_name", pa.string()),
        pa.field("native_name", pa.string()),  # name in native script, if any
        pa.field("country", pa.string()),  # country code as the database has it, e.g. "CHN"
        pa.field("country_name", pa.string()),
        pa.field("city", pa.string()),
        pa.field("female", pa.bool_()),
        pa.field("birth", pa.string()),  # as recorded; may be partial, e.g. "1990-00-00"
        pa.field("source", pa.string()),  # file the row was read from
    ]
)

TOURNAMENTS = pa.schema(
    [
        pa.field("tournament_id", pa.string(), nullable=False),
        pa.field("name", pa.string()),
        pa.field("country", pa.string()),  # country code
        pa.field("country_name", pa.string()),
        pa.field("city", pa.string()),
        pa.field("start", pa.date32()),
        pa.field("end", pa.date32()),  # the last day; null when not known
        pa.field("rule_id", pa.string()),
        pa.field("rule", pa.string()),  # rule name, e.g. "Taraguchi-10"
        pa.field("category", pa.string()),  # "renju" | "gomoku" | null (unknown rule)
        pa.field("rated", pa.bool_()),  # the source's "counts for rating" flag; null: none (EGF)
        pa.field("type", pa.int32()),  # RenjuNet tournament type; 0 = ordinary
        pa.field("minutes", pa.float64()),  # thinking time per player; null when not known
        pa.field("mode", pa.string()),  # one of MODES; null when not known
        pa.field("source", pa.string()),
    ]
)

GAMES = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("tournament_id", pa.string()),
        pa.field("round", pa.string()),  # free text: "8", "F2", ""
        pa.field("rule_id", pa.string()),
        pa.field("black", pa.string()),  # player_id; null when the record's reference is unknown
        pa.field("white", pa.string()),
        pa.field("result", pa.float64()),  # Black's score: 1, 0.5, 0; null when missing
        pa.field("date", pa.date32()),  # the record's own date, else the tournament's last day
        pa.field("moves", pa.int32()),  # number of moves recorded (the moves are never kept)
        pa.field("unrated", pa.bool_()),  # the record itself is marked not rated
        pa.field("forfeit", pa.bool_()),  # the source says: not played in reality (walk-over)
        pa.field("bye", pa.bool_()),  # a round without a game: black is the player, white null
        pa.field("colours_known", pa.bool_()),  # False when black/white are just the two sides
        pa.field("note", pa.string()),  # the record's free-text note (RenjuNet <info>); null
        pa.field("source", pa.string()),
    ]
)

PROBLEMS = pa.schema(
    [
        pa.field("code", pa.string(), nullable=False),  # stable, e.g. "unknown_player"
        pa.field("severity", pa.string(), nullable=False),  # "error" | "warning"
        pa.field("source", pa.string()),  # file or URL
        pa.field("locator", pa.string()),  # e.g. "line 12, game id=5" or "line 7, round 3"
        pa.field("message", pa.string()),
    ]
)

EXCLUSIONS = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("tournament_id", pa.string()),
        pa.field("reason", pa.string(), nullable=False),  # stable code, see whr.rules
        pa.field("message", pa.string()),
    ]
)

TOURNAMENT_FACTS = pa.schema(  # one row per line of a tournament_facts.csv (whr.sources.facts)
    [
        pa.field("tournament_id", pa.string(), nullable=False),
        pa.field("minutes", pa.float64()),  # thinking time per player, minutes; null: not known
        pa.field("mode", pa.string()),  # one of MODES; null when not known
        pa.field("start", pa.date32()),  # first day; null when not given
        pa.field("end", pa.date32()),  # last day; null when not given
        pa.field("category", pa.string()),  # one of CATEGORIES; null when not given
        pa.field("note", pa.string()),  # where the facts come from
        pa.field("source", pa.string()),  # "file:line" of the row
    ]
)

FACTS_NEEDED = pa.schema(  # whr.rules.facts_needed: what maintainers must fill in
    [
        pa.field("tournament_id", pa.string(), nullable=False),
        pa.field("name", pa.string()),
        pa.field("start", pa.date32()),
        pa.field("end", pa.date32()),
        pa.field("country", pa.string()),
        pa.field("city", pa.string()),
        pa.field("games", pa.int32(), nullable=False),  # games whose verdict waits on the facts
        pa.field("minutes", pa.float64()),  # empty, to be filled
        pa.field("mode", pa.string()),  # empty, to be filled
        pa.field("note", pa.string()),  # empty, to be filled: where the facts come from
    ]
)

HISTORY = pa.schema(
    [
        pa.field("player", pa.string(), nullable=False),
        pa.field("date", pa.date32(), nullable=False),
        pa.field("rating", pa.float64(), nullable=False),  # published scale (internal + 1900)
        pa.field("uncertainty", pa.float64(), nullable=False),  # posterior std, Elo
        pa.field("games", pa.int32(), nullable=False),  # rated games that day (no virtual ones)
    ]
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
    """

    players: pd.DataFrame
    tournaments: pd.DataFrame
    games: pd.DataFrame
    problems: pd.DataFrame
    inputs: tuple[tuple[str, str], ...] = field(default=())
    without_facts: tuple[str, ...] = field(default=())

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
    )


# --- Published tables (whr.lists builds the rows, whr.publish writes them) -------------------

STATUSES = (
    "active",
    "inactive",
    "provisional",
)  # RIF rating rules 2021, rule 10; as of the list date

RATINGS = pa.schema(
    [
        pa.field("list_date", pa.date32(), nullable=False),  # the list date D
        pa.field("rank", pa.int32()),  # among established active players; null otherwise
        pa.field("country_rank", pa.int32()),  # the same, within the player's country
        pa.field("player", pa.string(), nullable=False),  # player_id
        pa.field("name", pa.string()),
        pa.field("native_name", pa.string()),
        pa.field("country", pa.string()),
        pa.field("country_name", pa.string()),
        pa.field("female", pa.bool_()),
        pa.field("birth_year", pa.int32()),  # null when not known
        pa.field("rating", pa.float64(), nullable=False),  # published scale, on D
        pa.field("uncertainty", pa.float64()),  # posterior std on D, Elo; null: Elo-era list
        pa.field("games", pa.int32(), nullable=False),  # rated games up to D (no virtual ones)
        pa.field("wins", pa.int32(), nullable=False),
        pa.field("draws", pa.int32(), nullable=False),
        pa.field("losses", pa.int32(), nullable=False),
        pa.field("gy1", pa.int32(), nullable=False),  # rated games in [D - 1 year, D]
        pa.field("gy2", pa.int32(), nullable=False),  # ... [D - 2 years, D]
        pa.field("gy5", pa.int32(), nullable=False),  # ... [D - 5 years, D] (the active window)
        pa.field("first_game", pa.date32(), nullable=False),
        pa.field("last_game", pa.date32(), nullable=False),  # last rated game up to D
        pa.field("best_rating", pa.float64(), nullable=False),  # max over rating days up to D
        pa.field("best_date", pa.date32(), nullable=False),  # its first rating day
        pa.field("status", pa.string(), nullable=False),  # one of STATUSES
        # What changed since the previous published list of the category (whr.changes.since);
        # null for a player not on it, and for every player when there is no previous list
        pa.field("rating_change", pa.float64()),  # Elo: rating - rating on the previous list
        pa.field("previous_rank", pa.int32()),  # rank on the previous list; null if unranked
        # rating_change split into the part due to the player's own new games and the part due
        # to WHR re-estimating the past from other players' new results (Elo; both null when
        # not computed); change_own_games + change_others = rating_change
        pa.field("change_own_games", pa.float64()),
        pa.field("change_others", pa.float64()),
    ]
)

CHANGE_COLUMNS = ("rating_change", "previous_rank", "change_own_games", "change_others")
"""The columns of ``RATINGS`` that a list gets after it is built (null until then)."""

RATED_GAMES = pa.schema(
    [f for f in GAMES if f.name != "note"]  # notes are the database's text: never published
    + [
        pa.field("black_rating", pa.float64()),  # Black's rating that day, published scale
        pa.field("black_uncertainty", pa.float64()),  # its std, Elo
        pa.field("white_rating", pa.float64()),
        pa.field("white_uncertainty", pa.float64()),
    ]
)

MONTH_LISTS = pa.schema(
    [field.with_type(pa.float32()) if field.type == pa.float64() else field for field in RATINGS]
)
"""The lists of every day of a closed month, kept for years (``archive/<list>/months/``): the
columns of ``RATINGS``, with every Elo value (rating, uncertainty, best rating, changes) stored
as float32 (within 0.0002 Elo of the published values, far below the 0.01 the lists show), which
keeps a month of daily lists a third of its float64 size."""

CHANGE_SOURCES = ("daily", "replay")
"""Where a row of ``TOURNAMENT_CHANGES`` comes from: computed by the daily run of its list
(``daily``), or reconstructed by the backfill (``replay``)."""

TOURNAMENT_CHANGES = pa.schema(
    [
        # Each tournament's change at the time (whr.at_the_time): one row per player and
        # tournament, made when the tournament's games were first rated
        pa.field("player", pa.string(), nullable=False),
        pa.field("tournament_id", pa.string(), nullable=False),
        pa.field("first_list_date", pa.date32(), nullable=False),  # the list that first rated it
        pa.field("previous_list_date", pa.date32(), nullable=False),  # the list just before
        # the player's rating on each (published scale; null before: not on the previous list),
        # each from the games known on that list
        pa.field("rating_before", pa.float64()),
        pa.field("uncertainty_before", pa.float64()),  # Elo
        pa.field("rating_after", pa.float64(), nullable=False),
        pa.field("uncertainty_after", pa.float64(), nullable=False),
        pa.field("games", pa.int32(), nullable=False),  # the player's games in the tournament
        pa.field("score", pa.float64(), nullable=False),  # the player's points in them
        # the player's other games new on that list (0: rating_after - rating_before is this
        # tournament's change, with the other players' new results)
        pa.field("other_new_games", pa.int32(), nullable=False),
        pa.field("source", pa.string(), nullable=False),  # one of CHANGE_SOURCES
    ]
)
