"""The games not rated: ``excluded.html``, each game read and not rated, with its tournament,
its players and why.

The page is small at any size: it holds the counts by reason and the first rows as HTML
(:data:`frame.STATIC_ROWS`, for readers without script); the page script draws every game from
the data file (:data:`contract.EXCLUDED`, only the rows on screen) and searches it by player,
tournament, reason or game id. Every game is also in ``exclusions.csv`` and ``exclusions.xlsx``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from markupsafe import Markup, escape

from whr.publish.site.contract import CFG, EX_MESSAGES, EX_PLAYERS, EX_TOURNAMENTS, EXCLUDED
from whr.publish.site.frame import NAT, STATIC_ROWS, Renderer, days, iso, js_json
from whr.publish.site.i18n import PLACEHOLDER, message_id
from whr.publish.site.names import slug, text
from whr.publish.site.rows import Context, Source, html
from whr.rules.messages import MESSAGES, parse
from whr.rules.reasons import REASONS


def breakable(code: str) -> Markup:
    """A reason's code with a break allowed after each underscore (``out_of_<wbr>category``),
    so that a narrow column breaks it there, not inside a word."""
    return Markup("_<wbr>").join(escape(code).split("_"))


def table(
    exclusions: pd.DataFrame,
    tournaments: pd.DataFrame,
    pages: dict[str, str],
    players: pd.DataFrame,
) -> pd.DataFrame:
    """The games not rated (``EXCLUSIONS``) with their tournament's name, last day (ISO; ""
    when not known) and page, and their players' names as read (``players``: ``PLAYERS``)."""
    tours = tournaments.drop_duplicates("tournament_id")
    tours = tours.set_index(tours["tournament_id"].astype("str"))
    tid = exclusions["tournament_id"].fillna("").astype("str").to_numpy(object)
    facts = tours.reindex(tid)
    end = days(facts["end"])
    unique = players.drop_duplicates("player_id")
    names = pd.Series(unique["name"].to_numpy(object), index=unique["player_id"].astype("str"))

    def who(column: str) -> tuple[list[str | None], list[str | None]]:
        ids = [None if _missing(x) else str(x) for x in exclusions[column].tolist()]
        found = names.reindex([x or "" for x in ids]).tolist()
        return ids, [None if i is None else (text(n) or i) for i, n in zip(ids, found, strict=True)]

    black, black_name = who("black")
    white, white_name = who("white")
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
            "black": pd.Series(black, dtype=object),
            "black_name": pd.Series(black_name, dtype=object),
            "white": pd.Series(white, dtype=object),
            "white_name": pd.Series(white_name, dtype=object),
        }
    )


def _order(ex: pd.DataFrame) -> np.ndarray:
    """The games as the page shows them: newest tournament first (by last day, then id), then
    by reason and game id."""
    keys = pd.DataFrame(
        {c: ex[c].astype("str").to_numpy(object) for c in ("end", "tournament_id", "reason")}
    )
    keys["game"] = np.arange(len(ex))  # the table's order: by game id (whr.lists.snapshot)
    return keys.sort_values(
        ["end", "tournament_id", "reason", "game"],
        ascending=[False, False, True, True],
        kind="stable",
    ).index.to_numpy()


def _codes(values: list[str]) -> tuple[list[int], list[str]]:
    """Each value as a position in the list of distinct values (in order of appearance)."""
    index: dict[str, int] = {}
    return [index.setdefault(v, len(index)) for v in values], list(index)


def _missing(value: Any) -> bool:
    return value is None or (not isinstance(value, str) and bool(pd.isna(value)))


def messages_payload(codes: list[str], texts: list[str]) -> dict[str, list[Any]]:
    """The distinct messages (of reasons ``codes``) as ``contract.EX_MESSAGES``: each with its
    template's message id and values (``whr.rules.messages.parse``), the page script's way to
    write it in the reader's language; a message no template makes keeps its English only."""
    templates: list[str] = []
    values: list[list[str]] = []
    for code, message in zip(codes, texts, strict=True):
        found = parse(code, message) if message else None
        if found is None:
            templates.append("")
            values.append([])
            continue
        name, named = found
        template = MESSAGES[name]
        templates.append(message_id(template))
        values.append([named[v] for v in PLACEHOLDER.findall(template)])
    return {"text": texts, "template": templates, "values": values}


def write(r: Renderer, ex: pd.DataFrame) -> None:
    """``excluded.html`` and its data file, of the games not rated (:func:`table`)."""
    site = r.site
    reasons = [
        {"code": breakable(str(code)), "games": int(n), "text": REASONS.get(str(code), "")}
        for code, n in ex["reason"].value_counts().items()
    ]
    rated = set(site.tournaments["tournament_id"].tolist())
    shown = ex.iloc[_order(ex)].reset_index(drop=True)
    tid = shown["tournament_id"].tolist()
    t_code, t_keys = _codes(tid)
    first = {t: k for k, t in reversed(list(enumerate(tid)))}
    reason, reason_codes = _codes(shown["reason"].tolist())
    pairs = [
        f"{c}\u0001{m}"
        for c, m in zip(shown["reason"].tolist(), shown["message"].tolist(), strict=True)
    ]
    message, distinct_messages = _codes(pairs)
    people = [
        f"{i}\u0001{n}"
        for i, n in zip(
            [*shown["black"].tolist(), *shown["white"].tolist()],
            [*shown["black_name"].tolist(), *shown["white_name"].tolist()],
            strict=True,
        )
        if not _missing(i)
    ]
    _, distinct = _codes(people)
    person = {p: k for k, p in enumerate(distinct)}

    def side(column: str) -> list[int]:
        return [
            -1 if _missing(i) else person[f"{i}\u0001{n}"]
            for i, n in zip(shown[column].tolist(), shown[f"{column}_name"].tolist(), strict=True)
        ]

    at = [first[t] for t in t_keys]  # each tournament's first row; the columns read once
    name, page, end = (shown[c].tolist() for c in ("tournament", "page", "end"))
    tournaments = {
        "name": [name[k] for k in at],
        "page": [page[k] if t in rated else "" for k, t in zip(at, t_keys, strict=True)],
        "end": [end[k] for k in at],
    }
    players = {
        "id": [p.split("\u0001", 1)[0] for p in distinct],
        "name": [p.split("\u0001", 1)[1] for p in distinct],
    }
    said = messages_payload(
        [m.split("\u0001", 1)[0] for m in distinct_messages],
        [m.split("\u0001", 1)[1] for m in distinct_messages],
    )
    columns: dict[str, Any] = {
        "game": shown["game_id"].tolist(),
        "tournament": t_code,
        "black": side("black"),
        "white": side("white"),
        "reason": reason,
        "message": message,
    }
    payload = EXCLUDED.object(
        **columns,
        tournaments=EX_TOURNAMENTS.object(**tournaments),
        players=EX_PLAYERS.object(**players),
        reasons=reason_codes,
        messages=EX_MESSAGES.object(**said),
    )
    data = r.data("excluded", "excluded", js_json(payload))
    rows = Source(
        "excluded",
        {
            **{
                k: np.asarray(v, dtype=object if k == "game" else np.int64)
                for k, v in columns.items()
            },  # fmt: skip
            "tournaments": Source("ex_tournaments", tournaments),
            "players": Source("ex_players", players),
            "reasons": reason_codes,
            "messages": Source("ex_messages", said),
        },
        size=len(shown),
    )
    table = site.tables["excluded"]
    ids = np.arange(min(STATIC_ROWS, len(shown)))
    r.render(
        "excluded.html",
        "excluded.html",
        reasons=reasons,
        total=len(ex),
        shown=len(ids),
        static=html(table, table.tab(), rows, ids, Context("", site.player_columns)),
        scripts=[data],
        cfg=CFG.object(table="excluded", root=""),
    )
