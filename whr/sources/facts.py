"""Tournament facts shipped beside a database: ``tournament_facts.csv`` in a source directory.

RenjuNet records neither the thinking time nor whether a tournament was played face to face,
yet the 2021 eligibility rules need both. Whoever ships a database can put the facts beside it
in a CSV file with the columns ``tournament_id, minutes, mode`` (and an optional ``note``):
minutes per player, and one of ``face_to_face``, ``online_supervised``, ``online``; an empty
cell means "not known". :func:`apply_facts` fills them into the ``tournaments`` table; a
value given in the file replaces the source's own. The maintainers' facts in ``data/rules/``
still take precedence in eligibility (``whr.rules``).

Bad rows are problems (``bad_value``, ``duplicate_id``, ``unknown_tournament``) with the line
number as locator; the rest of the file still applies.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd

from whr.sources._common import ProblemLog, SourceError, sha256_file
from whr.tables import MODES, PROBLEMS, TOURNAMENTS, SourceData, conform

__all__ = ["FACTS_FILE", "apply_facts"]

FACTS_FILE = "tournament_facts.csv"
REQUIRED = ("tournament_id", "minutes", "mode")


def apply_facts(data: SourceData, path: Path) -> SourceData:
    """Return ``data`` with the facts of the CSV file ``path`` filled into its tournaments.

    Parameters
    ----------
    data : SourceData
        What was read from the same source.
    path : pathlib.Path
        A ``tournament_facts.csv`` file (columns ``tournament_id, minutes, mode[, note]``).

    Returns
    -------
    SourceData
        A new value: tournaments updated, problems appended, the file added to ``inputs``.

    Raises
    ------
    SourceError
        If the file cannot be read as CSV or lacks a required column.
    """
    log = ProblemLog(path.name)
    try:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise SourceError(f"{path}: cannot read the tournament facts: {exc}") from None
    missing = [c for c in REQUIRED if c not in raw.columns]
    if missing:
        raise SourceError(
            f"{path}: the tournament facts file lacks columns {missing}; "
            f"expected a header with {', '.join(REQUIRED)}[, note]"
        )
    line = pd.RangeIndex(2, len(raw) + 2)  # the header is line 1
    ids = raw["tournament_id"].str.strip()
    minutes = pd.to_numeric(raw["minutes"].str.strip().replace("", None), errors="coerce")
    mode = raw["mode"].str.strip().replace("", None)

    bad_minutes = (raw["minutes"].str.strip() != "") & ~(minutes > 0)
    bad_mode = mode.notna() & ~mode.isin(MODES)
    duplicate = ids.duplicated(keep="last")
    known = ids.isin(data.tournaments["tournament_id"])
    flagged = bad_minutes | bad_mode | duplicate | ~known
    for i in flagged.to_numpy().nonzero()[0]:
        where = f"line {line[i]}, tournament id={ids.iloc[i]}"
        if bad_minutes.iloc[i]:
            log.add(
                "bad_value",
                "error",
                where,
                f"minutes {raw['minutes'].iloc[i]!r} is not a positive number; ignored",
            )
        if bad_mode.iloc[i]:
            log.add(
                "bad_value",
                "error",
                where,
                f"mode {mode.iloc[i]!r} is not one of {', '.join(MODES)}; ignored",
            )
        if duplicate.iloc[i]:
            log.add(
                "duplicate_id", "warning", where, "listed again further down; the later line wins"
            )
        if not known.iloc[i]:
            log.add(
                "unknown_tournament", "warning", where, "no such tournament in the source; ignored"
            )

    facts = pd.DataFrame(
        {
            "tournament_id": ids,
            "minutes": minutes.where(~bad_minutes),
            "mode": mode.where(~bad_mode),
        }
    )[known & ~duplicate].set_index("tournament_id")
    tournaments = data.tournaments.copy()
    index = tournaments["tournament_id"]
    for column in ("minutes", "mode"):
        given = index.map(facts[column])
        tournaments[column] = given.where(given.notna(), tournaments[column])

    problems = [data.problems, log.frame()] if len(log) else [data.problems]
    return dataclasses.replace(
        data,
        tournaments=conform(tournaments, TOURNAMENTS),
        problems=conform(pd.concat(problems, ignore_index=True), PROBLEMS),
        inputs=(*data.inputs, (path.name, sha256_file(path))),
    )
