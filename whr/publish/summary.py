"""The run summary: what a publish read, rated and excluded, and what changed, in markdown.

:func:`summarize` takes what :func:`whr.publish.publish` returned (the list, and the previous
list of the same kind, read before the new one went live) and returns markdown fit for a Prefect
artifact or GitHub Actions' job summary. Every value
that comes from outside (names, countries, reasons, messages) goes through
:func:`markdown_text`, so it shows literally and cannot break a table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from whr.tables import SourceData

if TYPE_CHECKING:
    from whr.publish.commit import Published
    from whr.rules import Selection

TOP = 10
"""Rows of the top list, and most new players listed."""
MOVERS = 5
"""The summary lists the ``2 * MOVERS`` biggest rating changes by size, whatever their sign."""


def value_counts(frame: pd.DataFrame, columns: list[str]) -> dict[Any, int]:
    """Rows per distinct value of ``columns``, most frequent first (nulls counted too).

    Parameters
    ----------
    frame : pandas.DataFrame
        Any table, for example ``SourceData.problems`` or ``Selection.exclusions``.
    columns : list of str
        The columns to group by.

    Returns
    -------
    dict
        Value (a tuple when ``columns`` has several) -> number of rows; empty for an empty frame.
    """
    if not len(frame):
        return {}
    counts = frame.groupby(columns, dropna=False).size().sort_values(ascending=False)
    return {key: int(n) for key, n in counts.items()}


def markdown_text(text: object) -> str:
    """``text`` shown literally inside markdown (and a table cell): names come from outside.

    Parameters
    ----------
    text : object
        Anything; its ``str`` is used.

    Returns
    -------
    str
        One line: ``& < >`` as HTML entities, markdown punctuation and ``|`` backslash-escaped,
        runs of whitespace (newlines too) as one space.
    """
    out = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = re.sub(r"([\\`*_\[\]|#])", r"\\\1", out)
    return " ".join(out.split())


def _table(header: Sequence[str], rows: list[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(markdown_text(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def summarize(data: SourceData, selection: Selection, published: Published) -> str:
    """The run summary of one published list, in markdown.

    Parameters
    ----------
    data : whr.SourceData
        What was read.
    selection : whr.Selection
        What eligibility decided (``rated``, ``exclusions``, optionally ``counts.unverified``).
    published : whr.publish.Published
        What was published: the list, its day and paths, the previous list of the same kind
        (read before the new one went live), warnings and repairs.

    Returns
    -------
    str
        Markdown: inputs and checksums, games read / rated / excluded by reason, players by
        status, the top 10, new players and biggest movers since the previous list.
    """
    ratings = published.ratings
    parts = [f"# {markdown_text(published.channel)} list of {published.day}\n"]
    shown = (
        f"the current site `{markdown_text(published.site)}` shows it"
        if published.site is not None
        else "a past day: the current site still shows a later day"
    )
    parts.append(f"Archive entry `{markdown_text(published.entry)}`; {shown}.\n")
    checked = ("The archive, checked first", published.repaired)  # repaired:, damaged:, ...
    for title, lines in (checked, ("Warnings", published.warnings)):
        if lines:
            parts.append(f"\n## {title}\n\n" + "".join(f"- {markdown_text(x)}\n" for x in lines))
    parts.append("\n## Input\n")
    parts.append(_table(["file", "sha256"], [(name, digest) for name, digest in data.inputs]))
    parts.append(f"\nCombined sha256: `{data.sha256}`\n")
    without = getattr(data, "without_facts", ())
    if without:
        parts.append(
            f"\nNo `tournament_facts.csv` beside {', '.join(f'`{markdown_text(n)}`' for n in without)}"
            ": thinking time and mode of play come only from the maintainers' facts.\n"
        )

    excluded = value_counts(selection.exclusions, ["reason"])
    byes = excluded.pop("bye", 0)  # a bye is a round without a game: counted apart
    parts.append("\n## Games\n")
    rows: list[Sequence[object]] = [
        ("read", len(data.games) - byes),
        ("rated", len(selection.rated)),
        ("excluded", len(selection.exclusions) - byes),
    ]
    unverified = getattr(getattr(selection, "counts", None), "unverified", None)
    if unverified:
        rows.insert(2, ("rated, but not every fact known (see strict)", int(unverified)))
    rows += [(f"excluded: {reason}", n) for reason, n in excluded.items()]
    if byes:
        rows.append(("byes (rounds without a game, not counted above)", byes))
    parts.append(_table(["games", "count"], rows))
    needed = (published.counts or {}).get("facts_needed") or {}
    if needed.get("tournaments"):
        parts.append(
            f"\n{needed['tournaments']} tournaments from 2021-08-08 on lack their thinking time or "
            f"mode, and {needed['games']} games wait on them: fill in `facts_needed.csv` (beside "
            "the list, and in the day's archive entry) and copy its lines into the rules' "
            "`tournament_facts.csv`.\n"
        )
    if len(data.problems):
        problems = value_counts(data.problems, ["severity", "code"])
        parts.append("\nProblems in the input:\n\n")
        parts.append(
            _table(["severity", "code", "count"], [(s, c, n) for (s, c), n in problems.items()])
        )

    parts.append("\n## Players by status\n")
    status = value_counts(ratings, ["status"])
    parts.append(_table(["status", "players"], [*status.items(), ("total", len(ratings))]))

    parts.append(f"\n## Top {TOP}\n")
    ranked = ratings[ratings["rank"].notna()].sort_values(["rank", "player"]).head(TOP)
    parts.append(
        _table(
            ["rank", "player", "country", "rating", "±", "games"],
            [
                (
                    int(r["rank"]),
                    r["name"],
                    r["country"],
                    f"{r['rating']:.0f}",
                    f"{r['uncertainty']:.0f}",
                    int(r["games"]),
                )
                for _, r in ranked.iterrows()
            ],
        )
    )

    parts.append("\n## Since the previous list\n")
    if published.previous is None:
        parts.append("No previous list.\n")
    else:
        parts.append(_changes(published.previous, ratings, str(published.previous_day)))
    return "".join(parts)


def _changes(before: pd.DataFrame, after: pd.DataFrame, label: str) -> str:
    """New players and biggest movers between two ``ratings`` tables, in markdown."""
    old = before.set_index("player")
    new = after.set_index("player")
    added = new.loc[~new.index.isin(old.index)].sort_values("rating", ascending=False)
    lines = [f"Compared with `{markdown_text(label)}`: {len(added)} new players.\n\n"]
    if len(added):
        lines.append(
            _table(
                ["player", "country", "rating", "games"],
                [
                    (r["name"], r["country"], f"{r['rating']:.0f}", int(r["games"]))
                    for _, r in added.head(TOP).iterrows()
                ],
            )
        )
    both = new.index.intersection(old.index)
    delta = (new.loc[both, "rating"] - old.loc[both, "rating"]).rename("delta")
    movers = delta[delta.abs() >= 0.5]
    if len(movers):
        order = movers.abs().sort_values(ascending=False).index[: 2 * MOVERS]
        lines.append("\nBiggest movers:\n\n")
        lines.append(
            _table(
                ["player", "country", "before", "after", "change"],
                [
                    (
                        new.at[p, "name"],
                        new.at[p, "country"],
                        f"{old['rating'].at[p]:.0f}",
                        f"{new['rating'].at[p]:.0f}",
                        f"{delta[p]:+z.0f}",  # z: -0.5 shows as +0, not -0
                    )
                    for p in order
                ],
            )
        )
    else:
        lines.append("\nNo rating changed.\n")
    return "".join(lines)
