"""Tournament facts that game databases do not record: ``tournament_facts.csv``.

RenjuNet records neither the thinking time nor whether a tournament was played face to face,
yet the RIF rating rules 2021 (rule 9) need both; an EGF table may lack its dates. These facts
are kept in CSV files named ``tournament_facts.csv``: beside a database (whoever ships the
database knows them) and in the maintainers' rules directory (``whr/data/rules/``). This module is
the one implementation of that file: :func:`read_facts` parses it, :func:`merge_facts` applies
it to the tables (used by :func:`whr.read_source` for a source directory's file and by
:func:`whr.select` for the maintainers' file), :func:`facts_line` writes one line of it.

The file
--------
Lines starting with ``#`` and blank lines are ignored; the first other line is the header. The
columns, in any order (others, such as those of ``facts_needed.csv``, are ignored):

- ``tournament_id`` (required): the tournament's id in the data (RenjuNet ``<tournament
  id>``; ``egf:<file name or TC[]>`` for an EGF table);
- ``minutes``: thinking time per player, in minutes: a number in ASCII digits, more than 0 and
  at most 10,080 (a week), as in the canonical and EGF tables (``MINUTES_RANGE``);
- ``mode``: ``face_to_face``, ``online_supervised`` or ``online`` (``whr.tables.MODES``);
- ``start``, ``end``: the tournament's first and last day, ``YYYY-MM-DD``;
- ``category``: ``renju`` or ``gomoku`` (``whr.tables.CATEGORIES``), the list the tournament
  belongs to (an EGF table is renju unless its line says otherwise);
- ``note``: where the facts come from.

At least one of ``minutes``, ``mode``, ``start``, ``end``, ``category`` must be a column. An
empty cell means "not known".

Policy (documented in ``docs/eligibility.md``)
----------------------------------------------
- A tournament appears once per file: a repeated id is a ``duplicate_id`` problem and the first
  line is used.
- A bad cell (``minutes`` not a finite number in range, ``inf``, negative; an unknown ``mode``;
  a date that is not ``YYYY-MM-DD``; ``start`` after ``end``) is a ``bad_value`` problem and is
  ignored (not known); the other cells of its line apply.
- ``minutes``, ``mode`` and ``category`` given in the file replace the source's values.
- A line is the maintainers' word on its tournament: a tournament whose source has no rated
  flag (``rated`` null: an EGF table) is confirmed by it, and gets ``rated`` true. A flag the
  source does give is never changed (``unrated_tournaments`` and ``rated_tournaments`` do that). ``start`` and
  ``end`` only fill dates the source does not give (a game is dated by its tournament's last
  day, so re-dating a tournament the source dates would move games it dated); a different date
  is reported (``facts_date_ignored``). Games without a date of a tournament whose ``end``
  comes from the file take that day.
- A line naming a tournament that is not in the data is reported (``unknown_tournament``).

Whoever reads the file decides how strict to be: :func:`whr.read_source` records the problems
and applies the rest; :func:`whr.rules.load_config` refuses a maintainers' file with any problem.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from whr.sources._common import (
    MINUTES_RANGE,
    MINUTES_WORDS,
    ProblemLog,
    SourceError,
    parse_minutes,
    sha256_file,
)
from whr.tables import (
    CATEGORIES,
    GAMES,
    MODES,
    PROBLEMS,
    TOURNAMENT_FACTS,
    TOURNAMENTS,
    SourceData,
    conform,
    empty,
)

__all__ = [
    "COLUMNS",
    "FACTS_FILE",
    "MAX_MINUTES",
    "Facts",
    "apply_facts",
    "facts_line",
    "merge_facts",
    "no_facts",
    "read_facts",
]

FACTS_FILE = "tournament_facts.csv"
COLUMNS = ("tournament_id", "minutes", "mode", "note", "start", "end")  # the header we write
FACT_COLUMNS = ("minutes", "mode", "start", "end", "category")  # one of them in a header
MAX_MINUTES = MINUTES_RANGE[1]  # the readers' one bound (whr.sources._common.MINUTES_RANGE)


@dataclass(frozen=True, eq=False)
class Facts:
    """One ``tournament_facts.csv`` file, read.

    Attributes
    ----------
    table : pandas.DataFrame
        Schema ``whr.tables.TOURNAMENT_FACTS``: one row per tournament (its first line), bad
        cells null; ``source`` is ``"<name>:<line>"``.
    problems : pandas.DataFrame
        Schema ``whr.tables.PROBLEMS``: what is wrong with the file, each with its line.
    name : str
        How the file is named in problems and inputs.
    sha256 : str
        The digest of the file's bytes ("" for :func:`no_facts`).
    """

    table: pd.DataFrame
    problems: pd.DataFrame
    name: str
    sha256: str


def no_facts(name: str = FACTS_FILE) -> Facts:
    """An empty facts file (a directory without one)."""
    return Facts(empty(TOURNAMENT_FACTS), empty(PROBLEMS), name, "")


def read_facts(path: str | Path, name: str | None = None) -> Facts:
    """Parse a ``tournament_facts.csv`` file (see the module docstring).

    Parameters
    ----------
    path : str or pathlib.Path
        The file.
    name : str, optional
        How to name the file in problems and inputs (default: its file name).

    Returns
    -------
    Facts

    Raises
    ------
    SourceError
        If the file cannot be read as UTF-8 CSV or its header lacks ``tournament_id`` or every
        fact column; the message names the file and the line.
    TypeError
        If ``path`` is not a path.
    """
    if not isinstance(path, str | Path):
        raise TypeError(f"path must be a str or pathlib.Path, got {type(path).__name__}")
    path = Path(path)
    name = path.name if name is None else name
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(f"{path}: cannot read the tournament facts: {exc}") from None
    numbered = [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    log = ProblemLog(name)
    if not numbered:
        return Facts(empty(TOURNAMENT_FACTS), log.frame(), name, sha256_file(path))
    header_line, header_text = numbered[0]
    header = [cell.strip() for cell in next(csv.reader([header_text]))]
    if "tournament_id" not in header or not set(FACT_COLUMNS) & set(header):
        raise SourceError(
            f"{path}, line {header_line}: the header must name tournament_id and at least one "
            f"of {', '.join(FACT_COLUMNS)} (all: {','.join(COLUMNS)}); got {','.join(header)}"
        )
    rows: list[dict[str, object]] = []
    first_line: dict[str, int] = {}
    for number, line in numbered[1:]:
        cells = [cell.strip() for cell in next(csv.reader([line]))]
        id_at = header.index("tournament_id")
        tid = cells[id_at] if len(cells) > id_at else ""
        where = f"line {number}, tournament id={tid}"
        if len(cells) > len(header):
            log.add(
                "bad_value",
                "error",
                where,
                f"{len(cells)} cells for the {len(header)} columns of the header; line ignored "
                "(quote a note that contains a comma)",
            )
            continue
        row = dict(zip(header, cells + [""] * (len(header) - len(cells)), strict=True))
        if not tid:
            log.add("missing_id", "error", f"line {number}", "no tournament_id; line ignored")
            continue
        if tid in first_line:
            log.add(
                "duplicate_id",
                "error",
                where,
                f"tournament {tid} is already on line {first_line[tid]}; this line is ignored "
                "(a tournament appears once: merge the two lines)",
            )
            continue
        first_line[tid] = number
        rows.append(_row(row, tid, f"{name}:{number}", where, log))
    table = pd.DataFrame(rows, columns=TOURNAMENT_FACTS.names)
    return Facts(conform(table, TOURNAMENT_FACTS), log.frame(), name, sha256_file(path))


def _row(
    row: dict[str, str], tid: str, source: str, where: str, log: ProblemLog
) -> dict[str, object]:
    """One parsed line: bad cells become null, each with a ``bad_value`` problem."""
    text = row.get("minutes", "")
    minutes, ok = parse_minutes(text)
    if not ok:
        log.add(
            "bad_value",
            "error",
            where,
            f"minutes {text!r} is not {MINUTES_WORDS}; taken as not known",
        )
    mode = row.get("mode", "") or None
    if mode is not None and mode not in MODES:
        log.add(
            "bad_value",
            "error",
            where,
            f"mode {mode!r} is not one of {', '.join(MODES)}; taken as not known",
        )
        mode = None
    category = row.get("category", "") or None
    if category is not None and category not in CATEGORIES:
        log.add(
            "bad_value",
            "error",
            where,
            f"category {category!r} is not one of {', '.join(CATEGORIES)}; taken as not known",
        )
        category = None
    days: dict[str, dt.date | None] = {}
    for column in ("start", "end"):
        text = row.get(column, "")
        days[column] = None
        if text:
            try:
                days[column] = dt.date.fromisoformat(text)
            except ValueError:
                log.add(
                    "bad_value",
                    "error",
                    where,
                    f"{column} {text!r} is not a date YYYY-MM-DD; taken as not known",
                )
    if days["start"] and days["end"] and days["start"] > days["end"]:
        log.add(
            "bad_value",
            "error",
            where,
            f"start {days['start']} is after end {days['end']}; both taken as not known",
        )
        days = {"start": None, "end": None}
    # one day given: a one-day tournament, as the RenjuNet reader does with one date
    start = days["start"] or days["end"]
    end = days["end"] or days["start"]
    return {
        "tournament_id": tid,
        "minutes": minutes,
        "mode": mode,
        "start": start,
        "end": end,
        "category": category,
        "note": row.get("note", "") or None,
        "source": source,
    }


def merge_facts(
    tournaments: pd.DataFrame, games: pd.DataFrame, facts: Facts
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Apply facts to a tournaments and a games table (the one implementation of it).

    Parameters
    ----------
    tournaments : pandas.DataFrame
        Schema ``TOURNAMENTS`` (every row of an id gets the facts of that id).
    games : pandas.DataFrame
        Schema ``GAMES``.
    facts : Facts
        From :func:`read_facts`.

    Returns
    -------
    tournaments, games, problems : pandas.DataFrame
        New tables (the inputs are not modified): ``minutes``/``mode``/``category`` replaced
        where the facts give them, ``rated`` true where the source gives no flag (a line
        confirms its tournament), ``start``/``end`` filled where missing, undated games of a tournament whose
        end was filled dated that day; and the problems of applying them (``unknown_tournament``
        and ``facts_date_ignored`` warnings, located by the facts file's line).
    """
    table = facts.table
    log = ProblemLog(facts.name)
    if table.empty:
        return tournaments, games, log.frame()
    by_id = table.set_index("tournament_id")
    ids = tournaments["tournament_id"].astype(object)
    hit = ids.isin(by_id.index).to_numpy(bool)
    out = tournaments.copy()
    filled_end: dict[str, dt.date] = {}
    if hit.any():
        rows = by_id.reindex(ids[hit].to_numpy())
        for column in ("minutes", "mode", "category"):
            given = rows[column].to_numpy(dtype=object)
            known = pd.notna(given)
            values = out[column].astype(object).to_numpy(copy=True)
            values[np.flatnonzero(hit)[known]] = given[known]
            out[column] = values
        # a line confirms a tournament whose source has no rated flag (an EGF table)
        rated = out["rated"].astype(object).to_numpy(copy=True)
        confirmed = np.flatnonzero(hit)
        rated[confirmed[pd.isna(rated[confirmed])]] = True
        out["rated"] = rated
        starts = out["start"].astype(object).to_numpy(copy=True)
        ends = out["end"].astype(object).to_numpy(copy=True)
        for at, tid, start, end, line in zip(
            np.flatnonzero(hit), rows.index, rows["start"], rows["end"], rows["source"], strict=True
        ):
            ignored = []
            for column, value, values in (("start", start, starts), ("end", end, ends)):
                if pd.isna(value):
                    continue
                if pd.isna(values[at]):
                    values[at] = value
                    if column == "end":
                        filled_end[tid] = value
                elif values[at] != value:
                    ignored.append(f"{column} {value} (the source: {values[at]})")
            if ignored:
                log.add(
                    "facts_date_ignored",
                    "warning",
                    _locator(line, tid),
                    f"{' and '.join(ignored)} ignored: the facts only give dates the source "
                    f"lacks, and the source dates tournament {tid}",
                )
        out["start"], out["end"] = starts, ends
    unused = ~by_id.index.isin(ids.dropna())
    for tid, line in zip(by_id.index[unused], by_id["source"][unused], strict=True):
        log.add(
            "unknown_tournament",
            "warning",
            _locator(line, tid),
            f"tournament {tid} is not in the data; line ignored",
        )
    new_games = games
    if filled_end:
        undated = games["date"].isna() & games["tournament_id"].isin(list(filled_end))
        if undated.any():
            new_games = games.copy()
            dates = new_games["date"].astype(object).to_numpy(copy=True)
            dates[undated.to_numpy(bool)] = (
                games.loc[undated, "tournament_id"].map(filled_end).to_numpy(dtype=object)
            )
            new_games["date"] = dates
            new_games = conform(new_games, GAMES)
    return conform(out, TOURNAMENTS), new_games, log.frame()


def _locator(source: str, tid: str) -> str:
    line = source.rsplit(":", 1)[-1]
    return f"line {line}, tournament id={tid}"


def apply_facts(data: SourceData, facts: Facts) -> SourceData:
    """Return ``data`` with ``facts`` applied (:func:`merge_facts`), problems and input added.

    Parameters
    ----------
    data : SourceData
        What was read from the same source.
    facts : Facts
        The source's ``tournament_facts.csv``, from :func:`read_facts`.

    Returns
    -------
    SourceData
        A new value: tournaments and games updated, the file's problems and those of applying
        it appended, the file added to ``inputs``.
    """
    tournaments, games, applied = merge_facts(data.tournaments, data.games, facts)
    problems = [p for p in (data.problems, facts.problems, applied) if len(p)]
    return dataclasses.replace(
        data,
        tournaments=tournaments,
        games=games,
        problems=conform(pd.concat(problems, ignore_index=True), PROBLEMS)
        if problems
        else data.problems,
        inputs=(*data.inputs, (facts.name, facts.sha256)),
    )


def facts_line(
    tournament_id: str,
    *,
    minutes: float | None = None,
    mode: str | None = None,
    start: dt.date | None = None,
    end: dt.date | None = None,
) -> str:
    """One line of ``tournament_facts.csv`` in the column order of :data:`COLUMNS`.

    Dates not given are written as the placeholder ``YYYY-MM-DD`` when the other is given or
    when neither ``minutes`` nor ``mode`` is, so the line says what to fill.

    Examples
    --------
    >>> facts_line("egf:maribor1997")
    'egf:maribor1997,,,,YYYY-MM-DD,YYYY-MM-DD'
    """
    dates_wanted = minutes is None and mode is None or start is not None or end is not None
    cells = [
        tournament_id,
        "" if minutes is None else f"{minutes:g}",
        mode or "",
        "",
        (start.isoformat() if start else "YYYY-MM-DD") if dates_wanted else "",
        (end.isoformat() if end else "YYYY-MM-DD") if dates_wanted else "",
    ]
    return ",".join(_quote(cell) for cell in cells)


def _quote(cell: str) -> str:
    return f'"{cell.replace(chr(34), chr(34) * 2)}"' if any(c in cell for c in ',"\n') else cell
