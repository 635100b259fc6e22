"""What maintainers must fill in: the tournaments whose minutes or mode are not known.

RenjuNet records neither the thinking time nor the mode of play, which rule 9 of the RIF rating
rules 2021 needs from 2021-08-08 on; until ``tournament_facts.csv`` gives them, such a
tournament's games are rated on the database's flag alone (an "unverified" warning) or, in
strict mode, excluded. :func:`facts_needed` lists those tournaments as rows ready to be filled
and copied into ``tournament_facts.csv`` (its parser ignores the extra columns).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from whr.rules.select import Selection, _natural
from whr.tables import FACTS_NEEDED, conform, empty

__all__ = ["facts_needed"]


def facts_needed(selection: Selection) -> pd.DataFrame:
    """The tournaments whose unknown minutes or mode hold games' verdicts, to be filled in.

    Parameters
    ----------
    selection : Selection
        The outcome of :func:`whr.select` for one category and as-of date.

    Returns
    -------
    pandas.DataFrame
        Schema ``whr.tables.FACTS_NEEDED``: ``tournament_id, name, start, end, country, city``
        as the data (with the facts already known applied) gives them; ``games``, the games
        whose verdict waits on the facts (``Counts.by_tournament["waiting_on_facts"]``, > 0);
        and ``minutes``, ``mode``, ``note`` empty, to be filled. One row per tournament of the
        list's category judged by the 2021 rules (from 2021-08-08) with minutes or mode
        unknown, or, of any year, without a rated flag in its source and not confirmed (an EGF
        table: the copied line confirms it), by end date, then id (numbers by value).

    Raises
    ------
    TypeError
        If ``selection`` is not a :class:`whr.rules.Selection`.
    """
    if not isinstance(selection, Selection):
        raise TypeError(
            f"selection must be a whr.rules.Selection (from whr.select), got "
            f"{type(selection).__name__}"
        )
    per = selection.counts.by_tournament
    waiting = per.loc[per["waiting_on_facts"] > 0, ["tournament_id", "waiting_on_facts"]]
    if waiting.empty:
        return empty(FACTS_NEEDED)
    tours = selection.tournaments.set_index("tournament_id")
    rows = tours.reindex(waiting["tournament_id"].to_numpy())
    out = pd.DataFrame(
        {
            "tournament_id": waiting["tournament_id"].to_numpy(),
            "name": rows["name"].to_numpy(dtype=object),
            "start": rows["start"].to_numpy(dtype=object),
            "end": rows["end"].to_numpy(dtype=object),
            "country": rows["country"].to_numpy(dtype=object),
            "city": rows["city"].to_numpy(dtype=object),
            "games": waiting["waiting_on_facts"].to_numpy(dtype=np.int32),
            "minutes": np.nan,
            "mode": None,
            "note": None,
        }
    )
    end, ids = out["end"].tolist(), out["tournament_id"].tolist()  # not .iloc per comparison
    key = sorted(
        range(len(out)),
        key=lambda i: (pd.isna(end[i]), end[i] if not pd.isna(end[i]) else None, _natural(ids[i])),
    )
    return conform(out.iloc[key].reset_index(drop=True), FACTS_NEEDED)
