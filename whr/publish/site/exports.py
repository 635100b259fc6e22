"""The site's files for programs, each written from its declared Arrow schema: ``ratings.csv``
(the current list, every column of ``ratings.parquet``), ``exclusions.csv`` (the games not
rated), the same two as ``ratings.xlsx`` and ``exclusions.xlsx`` for spreadsheets,
``players.json`` (every player by id) and, with a public address, ``sitemap.xml``.

CSV goes through the one CSV writer of everything published (:func:`whr.publish.parquet.csv_text`);
XLSX through :func:`xlsx_bytes` (:mod:`whr.publish.site.xlsx`: typed cells, written column by column).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any
from urllib.parse import quote
from xml.sax.saxutils import escape as xml_escape

import pandas as pd
import pyarrow as pa

from whr import tables
from whr.publish.parquet import csv_text, rounded
from whr.publish.site.frame import Renderer
from whr.publish.site.xlsx import workbook
from whr.tables import EXCLUSIONS_CSV, RATINGS, to_table

PLAYERS_JSON = tables.table(
    [
        tables.column("id", pa.string(), "the player id (leading zeros kept)", required=True),
        tables.column("rank", pa.int32(), "null unless established active"),
        tables.column(
            "rating", pa.float64(), "published scale, CSV_DECIMALS", required=True, unit=tables.ELO
        ),
        tables.column("status", pa.string(), "one of whr.tables.STATUSES", required=True),
    ]
)
"""``players.json``: one object per listed player, in the players index order (natural id)."""
SITEMAP_MAX_URLS = 50_000  # per sitemap file (sitemaps.org protocol)


def json_records(frame: pd.DataFrame, schema: pa.Schema) -> str:
    """A table as a JSON array of objects, one per row, keys and types from ``schema``: text,
    whole numbers, fractional numbers rounded to ``CSV_DECIMALS`` places, null for missing."""
    table = to_table(frame, schema)
    columns: list[list[Any]] = []
    for field, column in zip(schema, table.columns, strict=True):
        columns.append(
            (rounded(column) if pa.types.is_floating(field.type) else column).to_pylist()
        )
    rows = [dict(zip(schema.names, row, strict=True)) for row in zip(*columns, strict=True)]
    return json.dumps(rows, separators=(",", ":"), ensure_ascii=False) + "\n"


def xlsx_bytes(frame: pd.DataFrame, schema: pa.Schema, sheet: str, day: dt.date) -> bytes:
    """A table as an XLSX workbook of one sheet, from its declared schema, as the CSV has it
    (:func:`whr.publish.site.xlsx.workbook`).

    One header row of the schema's names (frozen, with a filter). Text is written as text
    cells, never read as a number, date or formula (ids keep their leading zeros, ``=1+1``
    stays text; names in any script as they are); integers and booleans as such, fractional
    numbers rounded to ``CSV_DECIMALS`` places, dates as dates (``yyyy-mm-dd``), a missing
    value as an empty cell. The workbook's creation time is ``day`` (the list date), so the
    same list gives the same bytes.
    """
    table = to_table(frame, schema)
    for i, field in enumerate(schema):
        if pa.types.is_floating(field.type):
            table = table.set_column(i, field, rounded(table.column(i)))
    return workbook(table, sheet, day)


def write_ratings(r: Renderer) -> None:
    """``ratings.csv`` and ``ratings.xlsx``: the current list with every column of
    ``ratings.parquet``."""
    frame = r.site.view.current.frame
    r.write("ratings.csv", csv_text(frame, RATINGS))
    r.write_bytes("ratings.xlsx", xlsx_bytes(frame, RATINGS, "ratings", r.site.as_of))


def write_exclusions(r: Renderer, ex: pd.DataFrame) -> None:
    """``exclusions.csv`` and ``exclusions.xlsx`` of the games not rated
    (:func:`whr.publish.site.excluded.table`)."""
    ends = [dt.date.fromisoformat(d) if d else None for d in ex["end"].tolist()]
    table = ex.assign(tournament_end=pd.Series(ends, index=ex.index, dtype=object))
    r.write("exclusions.csv", csv_text(table, EXCLUSIONS_CSV))
    r.write_bytes("exclusions.xlsx", xlsx_bytes(table, EXCLUSIONS_CSV, "exclusions", r.site.as_of))


def write_players(r: Renderer) -> None:
    """``players.json`` (:data:`PLAYERS_JSON`)."""
    site = r.site
    by_id = site.view.current.frame.set_index("player").reindex(site.players["player"].to_numpy())
    index = by_id.reset_index(names="player")  # the players index order (natural id order)
    r.write("players.json", json_records(index.rename(columns={"player": "id"}), PLAYERS_JSON))


def _priority(path: str) -> str:
    """Sitemap priority of a page, after the RIF site's scheme: 1.0 the current lists, 0.9 the
    indexes, 0.8 year-end lists, 0.5 country pages and about, 0.4 tournaments, 0.3 players."""
    if "/" not in path:
        if path in ("index.html", "gy1.html", "inactive.html", "provisional.html"):
            return "1.0"
        return "0.9" if path != "about.html" else "0.5"
    folder = path.split("/", 1)[0]
    return {"years": "0.8", "countries": "0.5", "tournaments": "0.4", "p": "0.3"}.get(folder, "0.3")


def _urlset(entries: list[tuple[str, str]], lastmod: str) -> str:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for loc, priority in entries:
        lines.append(
            f"<url><loc>{xml_escape(loc)}</loc><lastmod>{lastmod}</lastmod>"
            f"<changefreq>daily</changefreq><priority>{priority}</priority></url>"
        )
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def write_sitemap(r: Renderer, base_url: str) -> None:
    """``sitemap.xml`` of every HTML page (``lastmod`` is the list date, so a rerun of the same
    day writes the same file); above 50,000 pages, a sitemap index over ``sitemap-N.xml``."""
    pages = sorted(path for path in r.written if path.endswith(".html"))
    pages.sort(key=lambda path: -float(_priority(path)))  # stable: by priority, then path
    entries = [(base_url + quote(path), _priority(path)) for path in pages]
    lastmod = r.site.as_of.isoformat()
    chunks = [entries[i : i + SITEMAP_MAX_URLS] for i in range(0, len(entries), SITEMAP_MAX_URLS)]
    if len(chunks) <= 1:
        files = {"sitemap.xml": _urlset(entries, lastmod)}
    else:
        files = {f"sitemap-{i + 1}.xml": _urlset(c, lastmod) for i, c in enumerate(chunks)}
        index = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
            *(
                f"<sitemap><loc>{xml_escape(base_url + name)}</loc>"
                f"<lastmod>{lastmod}</lastmod></sitemap>"
                for name in files
            ),
            "</sitemapindex>",
        ]
        files["sitemap.xml"] = "\n".join(index) + "\n"
    for name, content in files.items():
        r.write(name, content)
