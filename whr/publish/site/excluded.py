"""The games not rated: ``excluded.html``, per tournament, the games read and not rated and why
(the page script only filters it)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from whr.publish.site.contract import CFG
from whr.publish.site.frame import NAT, Renderer, days, iso, text
from whr.publish.site.names import slug
from whr.rules.reasons import REASONS

MAX_IDS_SHOWN = 20  # game ids shown per group on the page of games not rated


def table(
    exclusions: pd.DataFrame, tournaments: pd.DataFrame, pages: dict[str, str]
) -> pd.DataFrame:
    """The games not rated (``EXCLUSIONS``) with their tournament's name, last day (ISO; ""
    when not known) and page."""
    tours = tournaments.drop_duplicates("tournament_id")
    tours = tours.set_index(tours["tournament_id"].astype("str"))
    tid = exclusions["tournament_id"].fillna("").astype("str").to_numpy(object)
    facts = tours.reindex(tid)
    end = days(facts["end"])
    return pd.DataFrame(
        {
            "game_id": exclusions["game_id"].astype("str").to_numpy(object),
            "tournament_id": tid,
            "tournament": [
                text(n) or (t or "(no tournament)")
                for t, n in zip(tid.tolist(), facts["name"].tolist(), strict=True)
            ],
            "end": [
                "" if d == NAT else s
                for d, s in zip(end.tolist(), iso(np.maximum(end, 0)), strict=True)
            ],
            "page": [pages.get(t) or slug(t) for t in tid.tolist()],
            "reason": exclusions["reason"].astype("str").to_numpy(object),
            "message": [text(m) for m in exclusions["message"].tolist()],
        }
    )


def write(r: Renderer, ex: pd.DataFrame) -> None:
    """``excluded.html`` of the games not rated (:func:`table`)."""
    site = r.site
    reasons = [
        {"code": code, "games": int(n), "text": REASONS.get(str(code), "")}
        for code, n in ex["reason"].value_counts().items()
    ]
    rated = set(site.tournaments["tournament_id"].tolist())
    tid, reason, message = (ex[c].tolist() for c in ("tournament_id", "reason", "message"))
    name, end, page, game = (ex[c].tolist() for c in ("tournament", "end", "page", "game_id"))
    groups_of: dict[tuple[str, str, str], list[int]] = {}
    for k, key in enumerate(zip(tid, reason, message, strict=True)):
        groups_of.setdefault(key, []).append(k)
    rows = []
    for (t, why, text_), members in groups_of.items():
        ids = [game[k] for k in members]
        more = len(ids) - MAX_IDS_SHOWN
        first = members[0]
        rows.append(
            {
                "tid": t,
                "tournament": name[first],
                "end": end[first],
                "page": page[first],
                "linked": t in rated,
                "reason": why,
                "message": text_,
                "n": len(ids),
                "ids": ", ".join(ids[:MAX_IDS_SHOWN]) + (f" and {more} more" if more > 0 else ""),
            }
        )
    rows.sort(key=lambda x: (x["end"], x["tid"]), reverse=True)
    groups: list[dict[str, Any]] = []
    for row in rows:
        if groups and groups[-1]["tid"] == row["tid"]:
            groups[-1]["rows"].append(row)
        else:
            groups.append({"tid": row["tid"], "rows": [row]})
    r.render(
        "excluded.html",
        "excluded.html",
        reasons=reasons,
        groups=groups,
        total=len(ex),
        cfg=CFG.object(page="excluded", root=""),
    )
