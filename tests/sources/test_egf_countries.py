"""Country codes of EGF tables (2 letters) mapped to the list's codes (RenjuNet's, 3 letters)."""

from __future__ import annotations

import csv
import hashlib
import re
from pathlib import Path

import pandas as pd
import pytest

from whr.sources import egf

HERE = Path(__file__).parent / "egf"
EMPTY_MAPPING = HERE / "no_players.csv"
SAMPLE_RIF = Path(__file__).resolve().parents[2] / "data" / "sample" / "renjunet_v10_20261130.rif"


def new_id(name: str, country: str) -> str:
    """The documented rule: "egf:" + sha256("<normalised name>|<country as written>")[:10]."""
    return "egf:" + hashlib.sha256(f"{name}|{country}".encode()).hexdigest()[:10]


def country_rows() -> list[dict[str, str]]:
    text = egf.DEFAULT_COUNTRIES.read_text(encoding="utf-8")
    return list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))


def problems(data, code: str) -> list[tuple[str, str]]:
    frame = data.problems[data.problems["code"] == code]
    return list(zip(frame["source"], frame["locator"], strict=True))


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_default_file_is_documented_and_well_formed():
    text = egf.DEFAULT_COUNTRIES.read_text(encoding="utf-8")
    assert text.startswith("#")  # the comment telling maintainers what it is
    rows = country_rows()
    alpha2 = [row["alpha2"] for row in rows]
    assert len(alpha2) == len(set(alpha2)) >= 40
    assert all(re.fullmatch(r"[A-Z]{2}", a) for a in alpha2)
    assert all(re.fullmatch(r"[A-Z]{3}", row["code"]) for row in rows)


def test_default_file_covers_every_country_of_the_renjunet_sample():
    # the oracle: the abbr codes RenjuNet itself uses in <countries> (IOC style)
    abbrs = set(re.findall(r'<country [^>]*abbr="([A-Z]{3})"', SAMPLE_RIF.read_text("utf-8")))
    assert len(abbrs) >= 40
    assert abbrs <= {row["code"] for row in country_rows()}


def test_default_file_uses_the_ioc_style_codes_of_renjunet():
    codes = {row["alpha2"]: row["code"] for row in country_rows()}
    # by hand, from the RenjuNet sample and formats.md 1.2: IOC style, not ISO alpha-3
    expected = {
        "EE": "EST",
        "RU": "RUS",
        "CN": "CHN",
        "JP": "JPN",
        "TW": "TPE",
        "CZ": "CZE",
        "LV": "LAT",
        "DE": "GER",
        "NL": "NED",
        "CH": "SUI",
        "DK": "DEN",
        "HK": "HKG",
        "MO": "MAC",
        "GB": "GBR",
    }
    assert {a: codes[a] for a in expected} == expected


def test_players_and_tournament_get_the_lists_codes_ids_keep_the_tables():
    data = egf.read_table(HERE / "header.h9", mapping=EMPTY_MAPPING)
    # EE -> EST, FI -> FIN, LV -> LAT (by hand, from the file's rows)
    assert data.players["country"].tolist() == ["EST", "EST", "FIN", "LAT"]
    assert data.tournaments["country"].item() == "EST"
    # ids are made from the code as written, so editing the country file never changes an id
    assert data.players["player_id"].tolist()[0] == new_id("soosorv ants", "EE")
    assert not problems(data, "unknown_country")


def test_unknown_codes_are_kept_with_one_warning_per_table_and_code(tmp_path):
    table = write(
        tmp_path / "t.h9",
        "; PC[QQ, Somewhere]\n; DT[2020-01-01]\n"
        " 1 A A 1d QQ Club 2 2+/b0 3+/w0\n"
        " 2 B B 1d ZZ Club 1 1-/w0 4+/b0\n"
        " 3 C C 1d ZZ Club 1 4+/b0 1-/b0\n"
        " 4 D D 1d XX Club 0 3-/w0 2-/w0\n"
        " 5 E E 1d LTU Club 1 0+ 0-\n",
    )
    data = egf.read_table(table, mapping=EMPTY_MAPPING)
    assert problems(data, "unknown_country") == [
        ("t.h9", "header PC"),  # QQ first seen in the header, not again on line 3
        ("t.h9", "line 4"),  # ZZ once, on its first line
    ]
    countries = dict(zip(data.players["name"], data.players["country"], strict=True))
    assert countries["A A"] == "QQ" and countries["B B"] == countries["C C"] == "ZZ"
    assert countries["E E"] == "LTU"  # 3 letters: used as written, no warning
    assert pd.isna(countries["D D"])  # XX: OpenGotha's "unknown", no warning
    assert data.tournaments["country"].item() == "QQ"


def test_each_table_reports_its_own_unknown_codes(tmp_path):
    body = "; DT[2020-01-01]\n 1 A A 1d QQ Club 1 2+/b0\n 2 B B 1d QQ Club 0 1-/w0\n"
    paths = [write(tmp_path / "a.h9", body), write(tmp_path / "b.h9", body)]
    data = egf.read_tables(paths, mapping=EMPTY_MAPPING)
    assert problems(data, "unknown_country") == [("a.h9", "line 2"), ("b.h9", "line 2")]


def test_mapping_rows_match_whichever_style_they_use(tmp_path):
    mapping = write(
        tmp_path / "m.csv",
        "player_id,name,country,pin\n000001,A A,EST,\n000002,B B,ee,\n",
    )
    table = write(
        tmp_path / "t.h9",
        "; DT[2020-01-01]\n 1 A A 1d EE Club 1 2+/b0\n 2 B B 1d EST Club 0 1-/w0\n",
    )
    data = egf.read_table(table, mapping=mapping)
    assert data.games[["black", "white"]].values.tolist() == [["000001", "000002"]]
    assert data.players.empty


def test_a_maintainers_country_file_is_used_and_checked(tmp_path):
    countries = write(
        tmp_path / "c.csv",
        "# comment\nalpha2,code,country\nEE,EST,Estonia\nQ,QQQ,bad\nEE,ESX,second\nqq,qqq,lower\n",
    )
    table = write(
        tmp_path / "t.h9",
        "; DT[2020-01-01]\n 1 A A 1d QQ Club 1 2+/b0\n 2 B B 1d FI Club 0 1-/w0\n",
    )
    data = egf.read_table(table, mapping=EMPTY_MAPPING, countries=countries)
    # line 4: alpha2 not 2 letters; line 5: a second code for EE
    assert problems(data, "egf_bad_country_code") == [
        (str(countries), "line 4"),
        (str(countries), "line 5"),
    ]
    assert data.players["country"].tolist() == ["QQQ", "FI"]  # qq,qqq read in upper case
    assert problems(data, "unknown_country") == [("t.h9", "line 3")]  # FI is not in this file


def test_country_file_without_its_columns_or_missing_is_an_error(tmp_path):
    table = HERE / "byes.h9"
    bad = write(tmp_path / "c.csv", "# comment\niso,code\nEE,EST\n")
    with pytest.raises(egf.SourceError, match=r"c\.csv, line 2: .*missing \['alpha2'\]"):
        egf.read_table(table, mapping=EMPTY_MAPPING, countries=bad)
    with pytest.raises(ValueError, match="countries must name an existing CSV file"):
        egf.read_table(table, mapping=EMPTY_MAPPING, countries=tmp_path / "none.csv")
    with pytest.raises(TypeError, match="countries must be a path or None, got int"):
        egf.read_table(table, mapping=EMPTY_MAPPING, countries=3)
