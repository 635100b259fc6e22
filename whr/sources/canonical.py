"""The canonical tables as files: ``players``, ``tournaments`` and ``games`` in CSV or Parquet.

A federation without the RenjuNet database can feed games this way. The columns are those of
``whr.tables`` (``PLAYERS``, ``TOURNAMENTS``, ``GAMES``) with the same names; see
``docs/sources.md`` for the list, what is required and the defaults. In CSV an empty field is
null; dates are ``YYYY-MM-DD``; booleans ``true``/``false`` (also ``1``/``0``, ``yes``/``no``);
``result`` is Black's score ``1``, ``0.5`` or ``0``. The ``source`` column is always set to the
file's name.

Checks (problem codes as in the RenjuNet reader): ``duplicate_id``, ``missing_id`` (an empty or
blank id), ``unknown_player`` and ``unknown_tournament`` (only when a players or tournaments file
is read together with the games), ``bad_result``, ``bad_date``, ``bad_value`` (a boolean, number,
mode or category that does not parse whole, or a number out of range: ``minutes`` more than 0
and at most a week, ``moves`` and ``type`` from 0), ``unknown_column`` (a column the schema does
not have; ignored) and ``bad_encoding`` (bytes that are not UTF-8, in a CSV file or in a Parquet
file's text, which Parquet does not check: replaced by U+FFFD). The locator is ``line N`` of a
CSV file (the header is line 1) or ``row N`` (from 1) of a Parquet file.

In Parquet, a date column may be stored as a timestamp: midnight without a time zone, or
midnight UTC, is read as that date; any other timestamp is a ``bad_date``.
"""

from __future__ import annotations

import io
import re
import warnings
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from whr.sources._common import (
    DECIMAL,
    INT32_RANGE,
    MINUTES_RANGE,
    MINUTES_WORDS,
    PLAIN_TEXT,
    TEXT_NOT_UTF8,
    ProblemLog,
    ReadLimits,
    SourceError,
    check_limits,
    describe,
    limit_hint,
    nfc_ids,
    open_payload,
    quote,
    sha256_file,
    wide_codec,
)
from whr.tables import (
    CATEGORIES,
    GAMES,
    MODES,
    PLAYERS,
    PROBLEMS,
    TOURNAMENTS,
    SourceData,
    concat,
    conform,
    empty,
    plain,
    to_table,
)

__all__ = ["CANONICAL_PATTERN", "read_canonical", "table_kind", "write_canonical"]

#: File names recognised as canonical tables.
CANONICAL_PATTERN = re.compile(
    r"^(players|tournaments|games)\.(csv|csv\.gz|parquet)$", re.IGNORECASE
)
SCHEMAS = {"players": PLAYERS, "tournaments": TOURNAMENTS, "games": GAMES}
KEYS = {"players": "player_id", "tournaments": "tournament_id", "games": "game_id"}
ID_COLUMNS = {  # in one Unicode form (NFC), whatever form the file has
    "players": ("player_id",),
    "tournaments": ("tournament_id",),
    "games": ("game_id", "tournament_id", "black", "white"),
}
REQUIRED = {
    "players": ("player_id",),
    "tournaments": ("tournament_id",),
    "games": ("game_id", "black", "white", "result"),
}
#: Values of absent columns and empty cells; every other column defaults to null.
DEFAULTS: dict[str, dict[str, object]] = {
    "tournaments": {"type": 0},
    "games": {"unrated": False, "forfeit": False, "colours_known": True},
}
TRUE = {"true", "1", "yes", "t", "y"}
FALSE = {"false", "0", "no", "f", "n"}
#: Inclusive bounds of the numeric columns (``minutes`` must be more than its lower bound).
RANGES = {
    "type": (0, INT32_RANGE[1]),
    "moves": (0, INT32_RANGE[1]),
    "handicap": (0, INT32_RANGE[1]),
    "minutes": MINUTES_RANGE,
}


def table_kind(path: Path) -> str | None:
    """``"players"``, ``"tournaments"`` or ``"games"`` for a canonical file name, else None."""
    match = CANONICAL_PATTERN.match(path.name)
    return match.group(1).lower() if match else None


def _read_raw(
    path: Path, name: str, log: ProblemLog, limits: ReadLimits
) -> tuple[pd.DataFrame, int]:
    """The file as a frame (CSV: every column ``str``), and the line/row number of row 0."""
    if path.name.lower().endswith(".parquet"):
        return _read_parquet(path, name, log, limits), 1
    with open_payload(path, name, limits.max_unpacked_bytes) as raw, warnings.catch_warnings():
        stream = io.BufferedReader(raw)
        head = stream.peek(512)[:512]
        what = describe(head)
        readable = (PLAIN_TEXT, TEXT_NOT_UTF8, "an empty file", "a file of blanks only")
        if what not in readable and wide_codec(head) is None:
            advice = "; save it as UTF-8" if what.startswith("UTF-") else ""
            raise SourceError(f"{name}: not a readable CSV file: this is {what}{advice}")
        # a first row longer than the header: pandas would drop its last fields with a warning
        warnings.simplefilter("error", pd.errors.ParserWarning)
        try:
            frame = pd.read_csv(
                stream,
                dtype=str,
                keep_default_na=False,
                na_filter=False,
                index_col=False,
                encoding=wide_codec(head) or "utf-8",
                encoding_errors="replace",
            )
        except pd.errors.ParserWarning:
            raise SourceError(
                f"{name}: not a readable CSV file: its first row has more fields than the header"
            ) from None
        except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as exc:
            raise SourceError(f"{name}: not a readable CSV file: {exc}") from None
    for column in frame.columns:
        bad = frame[column].str.contains("\ufffd", regex=False).to_numpy()
        for i in np.flatnonzero(bad)[:100]:
            log.add(
                "bad_encoding",
                "warning",
                f"line {i + 2}",
                f"bytes that are not UTF-8 in column {quote(column)} were replaced by U+FFFD",
            )
    _check_lengths(frame, name, "line", 2, limits.max_value_chars)
    return frame, 2


def _read_parquet(path: Path, name: str, log: ProblemLog, limits: ReadLimits) -> pd.DataFrame:
    """A Parquet file as a frame: timestamps as date text or as ISO text (then a bad date); text
    that is not UTF-8 with its bytes replaced by U+FFFD and reported, as in CSV."""
    try:
        meta = pq.ParquetFile(path).metadata
        unpacked = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    except (OSError, pa.ArrowException, ValueError) as exc:
        raise SourceError(f"{name}: not a readable Parquet file: {exc}") from None
    if unpacked > limits.max_unpacked_bytes:
        raise SourceError(
            f"{name}: the Parquet data unpacks to {unpacked} bytes, more than the limit of "
            f"{limits.max_unpacked_bytes} bytes ({limit_hint('max_unpacked_bytes')}); raise "
            "the limit if this file is genuine"
        )
    try:
        table = pq.read_table(path)
        columns = [
            _utf8(_parquet_column(table.column(i)), table.column_names[i], log)
            for i in range(table.num_columns)
        ]
        frame = pa.table(columns, names=table.column_names).to_pandas()
    except (OSError, pa.ArrowException, ValueError) as exc:
        raise SourceError(f"{name}: not a readable Parquet file: {exc}") from None
    _check_lengths(frame, name, "row", 1, limits.max_value_chars)
    return frame


def _parquet_column(column: pa.ChunkedArray[Any]) -> pa.Array[Any] | pa.ChunkedArray[Any]:
    """Timestamps as text: ``YYYY-MM-DD`` at midnight (no time zone, or UTC), else ISO text
    with the time (and zone), which the date columns then report as a bad date."""
    kind = column.type
    if not pa.types.is_timestamp(kind):
        return column
    if kind.tz is not None and kind.tz.upper() not in ("UTC", "Z", "+00:00", "ETC/UTC"):
        return pc.strftime(column, format="%Y-%m-%dT%H:%M:%S%z")
    plain = column.cast(pa.timestamp(kind.unit))
    day = plain.cast(pa.date32())
    midnight = pc.equal(day.cast(pa.timestamp(kind.unit)), plain)
    # pyarrow-stubs 20 types the cast as a ChunkedArray of Scalar[TimestampType], which its
    # strftime does not accept (it wants TimestampScalar); pyarrow itself takes it
    with_time = pc.strftime(plain, format="%Y-%m-%dT%H:%M:%S")  # type: ignore[arg-type]
    text: pa.ChunkedArray[Any] = pc.if_else(midnight, day.cast(pa.string()), with_time)
    return text


def _utf8(
    column: pa.Array[Any] | pa.ChunkedArray[Any], name: str, log: ProblemLog
) -> pa.Array[Any] | pa.ChunkedArray[Any]:
    """A text column whose values are UTF-8 (Parquet does not check: a writer may store any
    bytes as text): itself, or with each value that is not UTF-8 decoded with its bad bytes
    replaced by U+FFFD, and each such row reported (``bad_encoding``, ``row N`` from 1, the
    first 100 of a column, as in CSV)."""
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        return column
    try:
        column.validate(full=True)
        return column
    except pa.ArrowInvalid:
        pass
    raw = column.cast(pa.large_binary()).to_pylist()
    texts: list[str | None] = []
    reported = 0
    for i, value in enumerate(raw):
        try:
            texts.append(None if value is None else value.decode("utf-8"))
        except UnicodeDecodeError:
            texts.append(cast(bytes, value).decode("utf-8", errors="replace"))
            reported += 1
            if reported <= 100:
                log.add(
                    "bad_encoding",
                    "warning",
                    f"row {i + 1}",
                    f"bytes that are not UTF-8 in column {quote(name)} were replaced by U+FFFD",
                )
    return pa.array(texts, pa.large_string())


def _check_lengths(frame: pd.DataFrame, name: str, unit: str, first: int, limit: int) -> None:
    """Refuse a cell longer than ``limit`` characters, or holding a NUL character, naming its
    line (or row) and column: in CSV and Parquet alike (a NUL is never text; in the first
    bytes of a CSV file it is refused as binary data)."""
    for column in frame.columns:
        values = frame[column]
        if not (pd.api.types.is_string_dtype(values) or values.dtype == object):
            continue
        try:
            nul = values.str.contains("\x00", regex=False, na=False).to_numpy(bool)
        except AttributeError:  # an object column of other values (dates from Parquet)
            nul = values.map(lambda v: isinstance(v, str) and "\x00" in v).to_numpy(bool)
        if nul.any():
            i = int(np.argmax(nul))
            raise SourceError(
                f"{name}: {unit} {i + first}, column {quote(column)}: a NUL character (byte 0), "
                "which no text holds; the file is damaged or not a table of text"
            )
        try:
            lengths = values.str.len().fillna(0)
        except AttributeError:  # an object column of other values (dates from Parquet)
            lengths = values.map(lambda v: len(v) if isinstance(v, str) else 0)
        if len(lengths) and lengths.max() > limit:
            i = int(np.argmax(lengths.to_numpy()))
            raise SourceError(
                f"{name}: {unit} {i + first}, column {quote(column)}: a value of "
                f"{int(lengths.iloc[i]):,} characters, over the limit "
                f"{limit_hint('max_value_chars')} of {limit}; raise the limit if this file is "
                "genuine"
            )


def _as_text(values: pd.Series) -> pd.Series:
    """Values as text; empty and blank (whitespace only) text is null."""
    text = values.astype(object).where(values.notna(), None)

    def convert(value: object) -> str | None:
        if value is None or value is pd.NA or (isinstance(value, float) and value != value):
            return None
        value = str(value)
        return value if value.strip() else None

    return text.map(convert).astype(object)


def _parse_column(
    values: pd.Series,
    field: pa.Field[pa.DataType],
    log: ProblemLog,
    where: list[str],
    default: object = None,
) -> pd.Series:
    """Convert one column to the field's type; what does not parse becomes null + a problem.

    An empty cell becomes ``default``.
    """
    text = _as_text(values)
    ftype = field.type
    column = field.name
    if pa.types.is_string(ftype):
        out = text
        allowed = {"mode": MODES, "category": CATEGORIES}.get(column)
        if allowed is not None:
            bad = out.notna() & ~out.isin(allowed)
            shown = out.to_numpy()
            for i in np.flatnonzero(bad.to_numpy()):
                log.add(
                    "bad_value",
                    "warning",
                    where[i],
                    f"{column} {quote(shown[i])} is not one of {list(allowed)}; kept as null",
                )
            out = out.where(~bad, None)
        return out
    if pa.types.is_boolean(ftype):
        lowered = text.map(lambda v: v.lower() if isinstance(v, str) else v)
        out = lowered.map(lambda v: True if v in TRUE else (False if v in FALSE else None))
        bad = lowered.notna() & out.isna()
        code = "bad_value"
    elif pa.types.is_date(ftype):
        stamps = pd.to_datetime(text, format="%Y-%m-%d", errors="coerce")
        # a Series of dates (pandas-stubs type Series.dt.date as an array)
        days = pd.Series(stamps.dt.date, index=text.index)
        out = days.astype(object).where(stamps.notna(), None)
        bad = text.notna() & out.isna()
        code = "bad_date"
    else:
        # the whole text must be a decimal number written in ASCII digits: not "1h30", "inf",
        # "1_000"; then finite, whole for integer columns, and in the column's range
        written = text.map(lambda v: v.strip() if isinstance(v, str) else v)
        shaped = written.map(lambda v: isinstance(v, str) and DECIMAL.fullmatch(v) is not None)
        numbers = pd.to_numeric(written.where(shaped, None), errors="coerce").astype("float64")
        keep = numbers.notna() & np.isfinite(numbers)
        if pa.types.is_integer(ftype):
            keep &= numbers % 1 == 0
        if column in RANGES:
            low, high = RANGES[column]
            keep &= (numbers > low if column == "minutes" else numbers >= low) & (numbers <= high)
        numbers = numbers.where(keep)
        out = numbers.astype(object).where(numbers.notna(), None)
        if column == "result":
            valid = numbers.isin([1.0, 0.5, 0.0])
            out = out.where(valid, None)
            bad = text.notna() & ~valid
            code = "bad_result"
        else:
            bad = text.notna() & out.isna()
            code = "bad_value"
    given = text.to_numpy()
    for i in np.flatnonzero(bad.to_numpy()):
        log.add(
            code,
            "error" if code == "bad_result" else "warning",
            where[i],
            f"{column} {quote(given[i])} is not a valid {ftype}"
            f"{_range_words(column)}; kept as null",
        )
    if default is not None:
        out = out.astype(object).mask(text.isna(), default)
    return out


def _range_words(column: str) -> str:
    if column == "minutes":
        return f" ({MINUTES_WORDS})"
    if column in RANGES:
        return f" (from {RANGES[column][0]} to {RANGES[column][1]})"
    return ""


def _read_table(
    path: Path, kind: str, log: ProblemLog, name: str, limits: ReadLimits
) -> tuple[pd.DataFrame, list[str]]:
    """The table parsed to its schema's columns, and each row's locator (a plain list, kept
    beside the frame: in ``DataFrame.attrs`` it would be deep-copied by every column access,
    which made reading quadratic in the problem rows)."""
    raw, first = _read_raw(path, name, log, limits)
    raw.columns = [str(c).strip() for c in raw.columns]
    schema = SCHEMAS[kind]
    missing = [c for c in REQUIRED[kind] if c not in raw.columns]
    if missing:
        raise SourceError(
            f"{name}: the {kind} table lacks the required columns {missing}; "
            f"its columns are {list(raw.columns)}; see docs/sources.md"
        )
    for column in raw.columns:
        if column not in schema.names:
            log.add(
                "unknown_column",
                "warning",
                "line 1" if first == 2 else "schema",
                f"column {quote(column)} is not part of the {kind} table; ignored",
            )
    unit = "line" if first == 2 else "row"
    key = KEYS[kind]
    keys = _as_text(raw[key])
    label = kind[:-1]
    where = [
        f"{unit} {i + first}, {label} id={'' if pd.isna(k) else k}" for i, k in enumerate(keys)
    ]
    columns: dict[str, pd.Series] = {}
    defaults = DEFAULTS.get(kind, {})
    for field in schema:
        default = defaults.get(field.name)
        if field.name == "source":
            columns["source"] = pd.Series([name] * len(raw), dtype=object)
        elif field.name in raw.columns:
            columns[field.name] = _parse_column(raw[field.name], field, log, where, default)
        else:
            columns[field.name] = pd.Series([default] * len(raw), dtype=object)
    frame = pd.DataFrame(columns)
    for column in ID_COLUMNS[kind]:  # ids that look identical are one id
        frame[column] = nfc_ids(frame[column])
    if kind == "games":
        frame["game_id"] = frame["game_id"].astype(object).map(lambda v: "" if pd.isna(v) else v)
        for i in np.flatnonzero((frame["game_id"] == "").to_numpy()):
            log.add("missing_id", "error", where[i], "game without an id; kept with an empty id")
    return frame, where


def _dedupe(
    frame: pd.DataFrame, where: list[str], kind: str, log: ProblemLog
) -> tuple[pd.DataFrame, list[str]]:
    """Report duplicate ids; players and tournaments keep the first row, games keep all."""
    key = KEYS[kind]
    ids = frame[key]
    valid = ids.notna() & (ids != "")
    dup = (ids.duplicated(keep="first") & valid).to_numpy()
    id_values = ids.to_numpy()
    for i in np.flatnonzero(dup):
        log.add(
            "duplicate_id",
            "error" if kind == "games" else "warning",
            where[i],
            f"{kind[:-1]} id {id_values[i]} appears again"
            + ("" if kind == "games" else "; the first one is kept"),
        )
    if kind == "games":
        return frame, where
    missing = ~valid.to_numpy()
    for i in np.flatnonzero(missing):
        log.add("missing_id", "error", where[i], f"{kind[:-1]} without an id; skipped")
    keep = ~dup & ~missing
    return frame.loc[keep].reset_index(drop=True), [where[i] for i in np.flatnonzero(keep)]


def _check_games(
    games: pd.DataFrame,
    where: list[str],
    players: pd.DataFrame | None,
    tournaments: pd.DataFrame | None,
    log: ProblemLog,
) -> pd.DataFrame:
    games = games.copy()
    if players is not None:
        known = set(players["player_id"])
        for side in ("black", "white"):
            unknown = ~games[side].isin(known).to_numpy()
            ids = games[side].to_numpy()
            for i in np.flatnonzero(unknown):
                log.add(
                    "unknown_player",
                    "error",
                    where[i],
                    f"{side} player is empty"
                    if pd.isna(ids[i])
                    else f"{side} player id {quote(ids[i])} is not in the players table; "
                    "kept as null",
                )
            games[side] = games[side].where(~unknown, None)
    else:
        for side in ("black", "white"):
            for i in np.flatnonzero(games[side].isna().to_numpy()):
                log.add("unknown_player", "error", where[i], f"{side} player is empty")
    if tournaments is not None:
        ends = dict(zip(tournaments["tournament_id"], tournaments["end"], strict=True))
        unknown = ~games["tournament_id"].isin(ends.keys()).to_numpy()
        ids = games["tournament_id"].to_numpy()
        for i in np.flatnonzero(unknown):
            log.add(
                "unknown_tournament",
                "error",
                where[i],
                f"tournament id {quote(ids[i])} is not in the tournaments table",
            )
        fallback = games["tournament_id"].map(lambda t: ends.get(t))
        games["date"] = games["date"].where(games["date"].notna(), fallback)
    return games


def read_canonical(
    paths: list[Path], limits: ReadLimits = ReadLimits(), name: str | None = None
) -> SourceData:
    """Read canonical table files (at most one each of players, tournaments and games).

    Parameters
    ----------
    paths : list of Path
        Files named ``players``, ``tournaments`` or ``games`` with suffix ``.csv``, ``.csv.gz``
        or ``.parquet``.
    limits : ReadLimits
        ``max_unpacked_bytes`` and ``max_value_chars`` (one cell) are applied here.
    name : str, optional
        How a single file is named in ``source`` columns, problems and ``inputs`` (e.g. the URL
        it was pulled from); default: each file's name.

    Returns
    -------
    SourceData
        The tables (empty when a file is absent), problems and the files' sha256.

    Raises
    ------
    SourceError
        If a file is unreadable, lacks a required column, is over a limit, or two files hold
        the same table.
    ValueError
        If a path is not named as a canonical table, or ``name`` is given for several files.
    """
    limits = check_limits(limits)
    if name is not None and len(paths) != 1:
        raise ValueError(f"name applies to a single file; got {len(paths)} paths")
    by_kind: dict[str, Path] = {}
    for path in paths:
        path = Path(path)
        kind = table_kind(path)
        if kind is None:
            raise ValueError(
                f"paths must be named players/tournaments/games .csv/.csv.gz/.parquet; got {path}"
            )
        if kind in by_kind:
            raise SourceError(
                f"two files hold the {kind} table: {by_kind[kind].name} and {path.name}; keep one"
            )
        by_kind[kind] = path
    frames: dict[str, pd.DataFrame | None] = {}
    logs: list[ProblemLog] = []
    for kind in ("players", "tournaments", "games"):
        if kind not in by_kind:
            frames[kind] = None
            continue
        label = name or by_kind[kind].name
        log = ProblemLog(label)
        logs.append(log)
        frame, where = _dedupe(*_read_table(by_kind[kind], kind, log, label, limits), kind, log)
        if kind == "games":
            frame = _check_games(frame, where, frames["players"], frames["tournaments"], log)
        frames[kind] = frame
    parts = [
        SourceData(
            players=empty(PLAYERS),
            tournaments=empty(TOURNAMENTS),
            games=empty(GAMES),
            problems=log.frame(),
        )
        for log in logs
    ]
    tables = SourceData(
        players=_conform(frames["players"], PLAYERS),
        tournaments=_conform(frames["tournaments"], TOURNAMENTS),
        games=_conform(frames["games"], GAMES),
        problems=concat(parts).problems if parts else empty(PROBLEMS),
        inputs=tuple(
            (name or by_kind[k].name, sha256_file(by_kind[k])) for k in SCHEMAS if k in by_kind
        ),
    )
    return tables


def _conform(frame: pd.DataFrame | None, schema: pa.Schema) -> pd.DataFrame:
    if frame is None:
        return empty(schema)
    return conform(frame, schema)


def write_canonical(data: SourceData, directory: str | Path, fmt: str = "parquet") -> list[Path]:
    """Write ``data``'s players, tournaments and games as canonical files.

    Parameters
    ----------
    data : SourceData
        The tables to write (problems are not written).
    directory : str or Path
        Created if missing.
    fmt : {"parquet", "csv"}

    Returns
    -------
    list of Path
        The three files written.
    """
    if fmt not in ("parquet", "csv"):
        raise ValueError(f"fmt must be 'parquet' or 'csv'; got {fmt!r}")
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, schema in SCHEMAS.items():
        table = to_table(getattr(data, kind), plain(schema))
        path = folder / f"{kind}.{fmt}"
        if fmt == "parquet":
            pq.write_table(table, path)
        else:
            frame = table.to_pandas()
            for field in schema:
                if pa.types.is_boolean(field.type):
                    frame[field.name] = frame[field.name].map(
                        lambda v: "" if v is None or v is pd.NA else ("true" if v else "false")
                    )
            frame.to_csv(path, index=False)
        written.append(path)
    return written
