"""``feed.xml``: the list's Atom feed (RFC 4287), one entry per published day of the list.

Each entry names the list's day in its title (plain text: "Renju world rating list of 30
November 2026"; Atom's titles are text, so markup there is shown as markup), links its archive
page, and says in its summary how many tournaments that list first rated (and which) and its
biggest movers: the players whose rating the list moved most with their own new games, as the
lists showed it at the time (each tournament's change at the time, ``tournament_changes``: the
rating on the list before and on that list), namesakes told apart as on the pages ("Kim Min
(KOR, 1990)", :func:`whr.publish.site.names.namesake_labels`). Newest first. The days are those
the archive holds (``info["days"]``, given by the publisher; the day shown when none are given).
Every text in it is fit for XML: the names were read so (``whr.sources.texts``).

Each entry gives, in ``<rif:ledger line="N" sha256="…"/>``, the archive's ledger
(``archive/ledger.jsonl``) as it stood when that list was published: its line N, whose sha256
the next line (the one that published the list) carries as ``prev``. A reader holding an entry
checks that the ledger it reads later still has that line: the history only grew.

Ids are ``urn:uuid:`` names made from the list and the day (the same entry keeps its id from run
to run); times are the list days at 00:00 UTC, so the same archive gives the same bytes. Links
are relative to the feed (as every link of the site), under ``xml:base`` when the site has a
public address, which also makes the feed's ``self`` link absolute. Checked with the W3C Feed
Validation Service's own validator: no error; its one warning is the relative ``self`` link of
a site without a public address.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np
import pandas as pd

from whr.publish.site.frame import MONTHS, Renderer
from whr.publish.site.rows import signed

__all__ = ["MOVERS", "entries", "write"]

MOVERS = 5
"""Biggest movers named per entry."""

ATOM = "http://www.w3.org/2005/Atom"
RIF = "urn:rif-rating:feed"
"""The namespace of the feed's one extension, ``rif:ledger`` (Atom allows foreign elements)."""
SUBTITLE = "Every published list of %s: the tournaments it first rated and its biggest movers"
NAMESPACE = uuid.UUID("6f1c1a43-2b1e-5d5e-9a53-7b0c8e2f3a11")
"""The namespace of the entries' ids (a fixed, arbitrary UUID)."""


def _time(day: dt.date) -> str:
    return f"{day.isoformat()}T00:00:00Z"


def _day(day: dt.date) -> str:
    """``30 November 2026``: the day as the pages write it in English, as text."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def entries(
    changes: pd.DataFrame,
    days: list[dt.date],
    tournament_names: Mapping[str, str],
    player_names: Mapping[str, str],
) -> list[dict[str, Any]]:
    """What each day's entry says, newest first: ``day``, ``tournaments`` (the names of those
    its list first rated), ``movers`` (up to :data:`MOVERS` ``(name, before, after)``, the
    largest changes first; ties by player id)."""
    first = np.asarray([d for d in changes["first_list_date"]], dtype=object)
    out = []
    for day in sorted(set(days), reverse=True):
        rows = changes[first == day]
        ids = sorted(set(rows["tournament_id"].astype(str)))
        per_player = rows.drop_duplicates("player").dropna(subset=["rating_before"])
        moved = per_player.assign(
            _change=(per_player["rating_after"] - per_player["rating_before"]).abs()
        ).sort_values(["_change", "player"], ascending=[False, True], kind="stable")
        out.append(
            {
                "day": day,
                "tournaments": [tournament_names.get(t) or t for t in ids],
                "movers": [
                    (player_names.get(p, p), b, a)
                    for p, b, a in zip(
                        moved["player"].astype(str).tolist()[:MOVERS],
                        moved["rating_before"].tolist()[:MOVERS],
                        moved["rating_after"].tolist()[:MOVERS],
                        strict=True,
                    )
                ],
            }
        )
    return out


def _summary(entry: dict[str, Any]) -> str:
    names = entry["tournaments"]
    if not names:
        said = "No tournament newly rated."
    else:
        said = f"{len(names)} tournament{'' if len(names) == 1 else 's'} newly rated: "
        said += ", ".join(names) + "."
    if entry["movers"]:
        movers = ", ".join(
            f"{name} {signed(round(a) - round(b))} ({round(b)} → {round(a)})"
            for name, b, a in entry["movers"]
        )
        said += f" Biggest movers: {movers}."
    return said


def write(r: Renderer) -> None:
    """Write the site's ``feed.xml``."""
    site, view = r.site, r.site.view
    info = site.info
    named = info.get("list") or {}
    key = named.get("category", view.category)
    if named.get("variant"):
        key = f"variants/{named['variant']}/{key}"
    given = info.get("days") or [view.as_of.isoformat()]
    days = [dt.date.fromisoformat(d) for d in given if dt.date.fromisoformat(d) <= view.as_of]
    tables = view.tables
    tournament_names = dict(
        zip(
            tables.tournaments["tournament_id"].astype(str),
            tables.tournaments["name"].fillna("").astype(str),
            strict=True,
        )
    )
    player_names = {  # the name, and what tells a namesake apart (as on the pages)
        player: f"{name} {label}" if label else name
        for player, name, label in zip(
            site.players["player"].tolist(),
            site.players["name"].tolist(),
            site.players["label"].tolist(),
            strict=True,
        )
    }
    archive = (info.get("links") or {}).get("days", "")
    heads = info.get("ledger_heads") or {}
    title = f"{site.game} world rating list"
    base = f" xml:base={quoteattr(site.base_url)}" if site.base_url else ""
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f"<feed xmlns={quoteattr(ATOM)} xmlns:rif={quoteattr(RIF)}{base}>",
        f"<id>urn:uuid:{uuid.uuid5(NAMESPACE, f'rif-rating:{key}')}</id>",
        f"<title>{escape(title)}</title>",
        f"<subtitle>{escape(SUBTITLE % key)}</subtitle>",
        f"<updated>{_time(max(days))}</updated>",
        "<author><name>rif-rating</name></author>",
        "<generator>rif-rating</generator>",
        '<link rel="alternate" type="text/html" href="index.html"/>',
    ]
    # the feed's own address: absolute under a public address (a feed reader resolves a
    # relative one against where it read the feed)
    self_href = (site.base_url or "") + "feed.xml"
    lines.append(f'<link rel="self" type="application/atom+xml" href={quoteattr(self_href)}/>')
    for entry in entries(tables.tournament_changes, days, tournament_names, player_names):
        day = entry["day"]
        href = f"{archive}{day.isoformat()}/index.html" if archive else "index.html"
        lines += [
            "<entry>",
            f"<id>urn:uuid:{uuid.uuid5(NAMESPACE, f'rif-rating:{key}:{day.isoformat()}')}</id>",
            f"<title>{escape(f'{title} of {_day(day)}')}</title>",
            f"<updated>{_time(day)}</updated>",
            f'<link rel="alternate" type="text/html" href={quoteattr(href)}/>',
            f"<summary>{escape(_summary(entry))}</summary>",
        ]
        head = heads.get(day.isoformat())
        if head:
            lines.append(f'<rif:ledger line="{int(head[0])}" sha256={quoteattr(str(head[1]))}/>')
        lines.append("</entry>")
    lines.append("</feed>")
    r.write("feed.xml", "\n".join(lines) + "\n")
