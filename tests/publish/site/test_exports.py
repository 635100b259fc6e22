"""The files for programs (whr.publish.site.exports): ratings.csv, players.json, the XLSX files,
sitemap.xml."""

from __future__ import annotations

import datetime as dt
import io
from urllib.parse import unquote

import defusedxml.ElementTree
import numpy as np
import pandas as pd
import pytest

from tests.publish import support
from tests.publish.support import site_of


def test_ratings_csv_is_the_current_list(published):
    snap = support.entry_of(published)
    parquet = pd.read_parquet(snap / "ratings.parquet")
    csv = pd.read_csv(
        site_of(published) / "ratings.csv", dtype={"player": str}, keep_default_na=False
    )
    assert list(csv.columns) == list(parquet.columns)
    assert csv["player"].tolist() == parquet["player"].tolist()
    assert np.allclose(csv["rating"], parquet["rating"])
    assert csv["status"].tolist() == parquet["status"].tolist()
    names = dict(zip(csv["player"], csv["name"], strict=True))
    assert support.HOSTILE_NAME in names.values()


def test_no_sitemap_without_a_base_url(published):
    assert not (site_of(published) / "sitemap.xml").exists()
    assert "rel=canonical" not in (site_of(published) / "index.html").read_text(encoding="utf-8")


def test_sitemap_with_a_base_url_lists_every_page(small, tmp_path):
    support.publish_inputs(tmp_path, small, base_url="https://rating.example.org")
    base = "https://rating.example.org/renju"  # the address of OUT, then the site's folder
    site = support.site_of(tmp_path)
    root = defusedxml.ElementTree.parse(site / "sitemap.xml").getroot()
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    assert root.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset"
    locs = [u.findtext("s:loc", namespaces=ns) for u in root.findall("s:url", ns)]
    pages = set()
    for loc in locs:
        assert loc.startswith(base + "/"), loc
        path = unquote(loc[len(base) + 1 :])
        target = (site / path).resolve()
        assert target.is_file() and target.is_relative_to(site.resolve()), loc
        assert f'<link rel=canonical href="{loc}">' in target.read_text(encoding="utf-8"), loc
        pages.add(target)
    assert len(pages) == len(locs)
    assert pages == {p.resolve() for p in site.rglob("*.html")}
    assert {u.findtext("s:lastmod", namespaces=ns) for u in root.findall("s:url", ns)} == {
        support.AS_OF.isoformat()
    }
    priorities = {
        u.findtext("s:loc", namespaces=ns)[len(base) + 1 :]: u.findtext("s:priority", namespaces=ns)
        for u in root.findall("s:url", ns)
    }
    assert priorities["index.html"] == "1.0" and priorities["players.html"] == "0.9"


def test_the_lists_download_as_xlsx_with_text_ids_and_names_as_written(published, small):
    openpyxl = pytest.importorskip("openpyxl")
    site = site_of(published)
    for stem in ("ratings", "exclusions"):
        csv = pd.read_csv(site / f"{stem}.csv", dtype=str, keep_default_na=False)
        sheet = openpyxl.load_workbook(site / f"{stem}.xlsx", read_only=True).worksheets[0]
        rows = list(sheet.iter_rows(values_only=True))
        assert list(rows[0]) == list(csv.columns)
        assert len(rows) - 1 == len(csv)
        first = dict(zip(rows[0], rows[1], strict=True))
        for column in ("player", "game_id", "black"):
            if column in first and first[column] is not None:
                assert isinstance(first[column], str)  # a text cell: leading zeros kept
                assert first[column] == csv[column].iloc[0]
    book = openpyxl.load_workbook(site / "ratings.xlsx", read_only=True).worksheets[0]
    rows = list(book.iter_rows(values_only=True))
    at = {name: k for k, name in enumerate(rows[0])}
    ids = [row[at["player"]] for row in rows[1:]]
    assert support.ODD_ID in ids and any(i.startswith("0") for i in ids)
    names = {row[at["name"]] for row in rows[1:]}
    assert support.HOSTILE_NAME in names and support.QUOTED_NAME in names  # text, as written
    ratings = pd.read_parquet(site / "ratings.parquet")
    shown = {row[at["player"]]: row[at["rating"]] for row in rows[1:]}
    for pid, rating in zip(ratings["player"], ratings["rating"], strict=True):
        assert shown[pid] == round(rating, 2)  # a number cell, as the CSV rounds it


def test_xlsx_cells_keep_every_script_and_never_run_a_formula(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    import pyarrow as pa

    from whr.publish.site.exports import xlsx_bytes

    schema = pa.schema(
        [("id", pa.string()), ("name", pa.string()), ("n", pa.int64()), ("x", pa.float64())]
    )
    names = ["张伟", "Иванов Пётр", "=1+1", "山田 太郎", "'0012"]
    frame = pd.DataFrame(
        {
            "id": ["000123", "0", "007", "1e5", "00"],
            "name": names,
            "n": [1, 2, 3, 4, 5],
            "x": [1.234567, None, 2.5, -0.001, 3.0],
        }
    )
    path = tmp_path / "t.xlsx"
    path.write_bytes(xlsx_bytes(frame, schema, "t", dt.date(2026, 11, 30)))
    assert xlsx_bytes(frame, schema, "t", dt.date(2026, 11, 30)) == path.read_bytes()
    rows = list(openpyxl.load_workbook(path).worksheets[0].iter_rows(values_only=True))
    assert rows[0] == ("id", "name", "n", "x")
    assert [r[0] for r in rows[1:]] == ["000123", "0", "007", "1e5", "00"]
    assert [r[1] for r in rows[1:]] == names
    assert [r[2] for r in rows[1:]] == [1, 2, 3, 4, 5]
    assert [r[3] for r in rows[1:]] == [1.23, None, 2.5, -0.0, 3.0]
    back = pd.read_excel(path, dtype={"id": str})
    assert back["id"].tolist() == ["000123", "0", "007", "1e5", "00"]


def test_xlsx_dates_flags_and_characters_xml_cannot_hold(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    import pyarrow as pa

    from whr.publish.site.exports import xlsx_bytes

    schema = pa.schema([("name", pa.string()), ("day", pa.date32()), ("flag", pa.bool_())])
    frame = pd.DataFrame(
        {
            "name": ["a\x01b", "", "Ünal & <Kim>", None],
            "day": [dt.date(2026, 11, 30), None, dt.date(1900, 1, 1), dt.date(1900, 3, 1)],
            "flag": [True, False, None, True],
        }
    )
    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(frame, schema, "t", dt.date(2026, 1, 2))))
    sheet = book.worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("name", "day", "flag")
    assert [r[0] for r in rows[1:]] == ["a_x0001_b", None, "Ünal & <Kim>", None]
    assert [r[1] for r in rows[1:]] == [
        dt.datetime(2026, 11, 30),
        None,
        dt.datetime(1900, 1, 1),
        dt.datetime(1900, 3, 1),
    ]
    assert sheet.cell(2, 2).number_format == "yyyy-mm-dd"
    assert [r[2] for r in rows[1:]] == [True, False, None, True]
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref == "A1:C5"
    assert book.properties.created == dt.datetime(2026, 1, 2)
