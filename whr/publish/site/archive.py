"""Pages of the archive: a published day's page, the archive index and the root redirect.

Small on purpose: a day's page is kept for years, one per day, so it shows the top of the
day's list and links the whole list (Parquet) and the manifest; ``archive.html`` lists every
published day of every list. Text comes from outside (names), so the templates autoescape.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

import pandas as pd
from markupsafe import Markup

from whr.publish.site.about import parameter_rows
from whr.publish.site.frame import environment, long_date
from whr.publish.site.i18n import _
from whr.publish.site.names import slug
from whr.publish.site.rows import FORMATTERS, Context

TOP = 100
"""Ranked players shown on a day's page (the whole list is in its Parquet file)."""

_env = environment()


def _title(category: str, variant: str | None, day: dt.date | None = None) -> Markup:
    """A list's title (a message: the page script translates it), with its day if given."""
    game = _(category.capitalize())  # "Renju", "Gomoku": messages too (i18n.GAMES)
    if day is None and variant is None:
        return _("%(game)s world rating list", game=game)
    if day is None:
        return _("%(game)s world rating list, variant %(variant)s", game=game, variant=variant)
    if variant is None:
        return _("%(game)s world rating list — %(date)s", game=game, date=long_date(day))
    return _(
        "%(game)s world rating list, variant %(variant)s — %(date)s",
        game=game,
        variant=variant,
        date=long_date(day),
    )


def day_page(
    manifest: Mapping[str, Any],
    ratings: pd.DataFrame,
    *,
    list_href: str,
    site_href: str,
    archive_href: str,
) -> str:
    """The HTML page of one published day (the entry's ``index.html``).

    Parameters
    ----------
    manifest : mapping
        The day's manifest (list, counts, parameters, inputs, forced).
    ratings : pandas.DataFrame
        The day's list (RATINGS), in list order.
    list_href, site_href, archive_href : str
        Relative addresses of the day's list file, of the current site (ending in ``/``) and
        of ``archive.html``.
    """
    listed = manifest["list"]
    day = dt.date.fromisoformat(manifest["as_of"])
    ranked = ratings.loc[ratings["rank"].notna()].head(TOP).to_dict("records")
    players = Context(  # the names as the lists show them (rows.py's player): a woman marked
        site_href,
        {
            "name": [_text(r.get("name")) or r["player"] for r in ranked],
            "page": [slug(r["player"]) for r in ranked],
            "native": [_text(r.get("native_name")) for r in ranked],
            "female": [bool(pd.notna(r.get("female")) and r.get("female")) for r in ranked],
            "label": ["" for _r in ranked],
        },
    )
    rows = [
        {
            "rank": int(r["rank"]),
            "player": Markup(FORMATTERS["player"](players, k)),
            "country": r["country"] if isinstance(r["country"], str) else "",
            "rating": f"{r['rating']:.0f}",
            "uncertainty": "" if pd.isna(r["uncertainty"]) else f"{r['uncertainty']:.0f}",
            "games": int(r["games"]),
        }
        for k, r in enumerate(ranked)
    ]
    counts = manifest.get("counts", {})
    return _env.get_template("archive_day.html").render(
        heading=_title(listed["category"], listed.get("variant"), day),
        root=site_href,
        game=str(listed["category"]).capitalize(),
        day=day.isoformat(),
        variant=listed.get("variant"),
        rows=rows,
        more=int(counts.get("active", 0)) > len(rows),
        counts={k: counts.get(k, 0) for k in ("active", "inactive", "provisional", "listed")}
        | {"rated_games": counts.get("rated_games", 0)},
        forced=manifest.get("forced"),
        parameters=parameter_rows(manifest.get("parameters", {}), manifest.get("fit_params") or {}),
        inputs_sha256=manifest.get("inputs_sha256"),
        list_href=list_href,
        site_href=site_href,
        archive_href=archive_href,
    )


def _text(value: Any) -> str:
    """A text cell of an archived table: "" for none."""
    return value if isinstance(value, str) else ""


def archive_page(index: Mapping[str, Any]) -> str:
    """``archive.html``: every published day of every list, from ``published.json``'s value."""
    lists = [{**x, "title": _title(x["category"], x["variant"])} for x in index["lists"]]
    first = lists[0] if lists else None  # the frame of the first list's site
    return _env.get_template("archive_index.html").render(
        lists=lists,
        root=first["site"] if first else None,
        game=str(first["category"]).capitalize() if first else "Renju",
    )


def redirect_page(target: str, category: str = "renju") -> str:
    """The root ``index.html``: a relative redirect to ``target`` (the ``category`` list's
    ``index.html``, with its site's page script; or ``archive.html``, none)."""
    site, _sep, page = target.rpartition("/")
    return _env.get_template("archive_redirect.html").render(
        target=target,
        game=category.capitalize(),
        root=site + "/" if site and page == "index.html" else None,
    )
