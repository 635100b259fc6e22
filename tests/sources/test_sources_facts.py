"""Tournament facts shipped beside a database (``tournament_facts.csv``)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pandas as pd
import pytest

import whr
from whr.rules import ConfigError, default_directory, load_config
from whr.sources.facts import facts_line, read_facts

FIXTURES = Path(__file__).parent / "fixtures"


def _source(tmp_path: Path, facts: str) -> Path:
    shutil.copy(FIXTURES / "basic.rif", tmp_path / "renjunet_v10_20250301.rif")
    (tmp_path / "tournament_facts.csv").write_text(facts, encoding="utf-8")
    return tmp_path


def _facts_of(data: whr.SourceData, tournament_id: str) -> tuple[float | None, str | None]:
    row = data.tournaments.set_index("tournament_id").loc[tournament_id]
    return tuple(None if pd.isna(v) else v for v in (row["minutes"], row["mode"]))


def test_facts_fill_the_tournaments_and_count_as_an_input(tmp_path: Path) -> None:
    source = _source(
        tmp_path,
        "tournament_id,minutes,mode,note\n5001,45,online_supervised,video referee\n5004,,face_to_face,\n",
    )
    data = whr.read_source(source)
    assert _facts_of(data, "5001") == (45.0, "online_supervised")
    assert _facts_of(data, "5004") == (None, "face_to_face")  # an empty cell: not known
    assert _facts_of(data, "5002") == (None, None)
    assert [name for name, _ in data.inputs] == [
        "renjunet_v10_20250301.rif",
        "tournament_facts.csv",
    ]
    assert data.problems.query("source == 'tournament_facts.csv'").empty


def test_a_database_file_reads_the_facts_beside_it_as_its_directory_does(tmp_path: Path) -> None:
    source = _source(tmp_path, "tournament_id,minutes,mode,note\n5001,45,online,\n9999,60,,\n")
    from_file = whr.read_source(source / "renjunet_v10_20250301.rif")
    from_directory = whr.read_source(source)
    assert _facts_of(from_file, "5001") == (45.0, "online")
    for table in ("players", "tournaments", "games", "problems"):
        pd.testing.assert_frame_equal(getattr(from_file, table), getattr(from_directory, table))
    assert from_file.inputs == from_directory.inputs and len(from_file.inputs) == 2
    assert from_file.sha256 == from_directory.sha256  # so "no new data" agrees too
    assert from_file.without_facts == from_directory.without_facts == ()
    assert "unknown_tournament" in set(from_file.problems["code"])  # 9999, from either


def test_a_source_without_facts_is_named(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "basic.rif", tmp_path / "renjunet_v10_20250301.rif")
    egf = tmp_path / "egf"
    egf.mkdir()
    alone = whr.read_source(tmp_path / "renjunet_v10_20250301.rif")
    assert alone.without_facts == ("renjunet_v10_20250301.rif",)
    assert whr.read_source(tmp_path).without_facts == ("renjunet_v10_20250301.rif",)
    # a list: only the sources without facts are named
    with_facts = _source(egf, "tournament_id,minutes\n5001,45\n") / "renjunet_v10_20250301.rif"
    both = whr.read_source([with_facts, FIXTURES / "problems.rif"])
    assert both.without_facts == ("problems.rif",)


def test_bad_rows_are_problems_with_their_line_and_the_rest_applies(tmp_path: Path) -> None:
    source = _source(
        tmp_path,
        "# comment lines are allowed\n"
        "tournament_id,minutes,mode\n"
        "5001,-5,by mail\n"
        "9999,60,face_to_face\n"
        "5004,90,online\n"
        "5004,60,online\n"
        "5002,inf,\n"
        "5003,1e309,\n",
    )
    data = whr.read_source(source)
    found = data.problems.query("source == 'tournament_facts.csv'")
    got = sorted(zip(found["code"], found["locator"], strict=True))
    assert got == [
        ("bad_value", "line 3, tournament id=5001"),  # minutes -5
        ("bad_value", "line 3, tournament id=5001"),  # mode "by mail"
        ("bad_value", "line 7, tournament id=5002"),  # inf
        ("bad_value", "line 8, tournament id=5003"),  # 1e309 is inf too
        ("duplicate_id", "line 6, tournament id=5004"),
        ("unknown_tournament", "line 4, tournament id=9999"),
    ]
    assert _facts_of(data, "5001") == (None, None)
    assert _facts_of(data, "5002") == (None, None)
    assert _facts_of(data, "5004") == (90.0, "online")  # the first line is used


def test_a_facts_file_without_the_columns_is_refused(tmp_path: Path) -> None:
    source = _source(tmp_path, "id,time\n5001,60\n")
    with pytest.raises(whr.SourceError, match="line 1: the header must name tournament_id"):
        whr.read_source(source)


def test_one_parser_for_the_source_and_the_maintainers(tmp_path: Path) -> None:
    # The same file read by both: the source records the problem, the rules refuse the file.
    text = "tournament_id,minutes,mode\n5001,60,face_to_face\n5001,90,\n"
    facts = read_facts(_write(tmp_path / "tournament_facts.csv", text))
    assert facts.problems[["code", "locator"]].values.tolist() == [
        ["duplicate_id", "line 3, tournament id=5001"]
    ]
    rules = tmp_path / "rules"
    rules.mkdir()
    for name in ("eligibility.toml", "game_notes.toml"):
        _write(rules / name, (default_directory() / name).read_text(encoding="utf-8"))
    _write(rules / "tournament_facts.csv", text)
    with pytest.raises(ConfigError, match="line 3, tournament id=5001: tournament 5001 is already"):
        load_config(rules)


def test_dates_fill_only_what_the_source_lacks(tmp_path: Path) -> None:
    source = _source(
        tmp_path,
        "tournament_id,start,end\n5001,2024-06-01,2024-06-02\n5002,,1993-04-10\n",
    )
    data = whr.read_source(source)
    tours = data.tournaments.set_index("tournament_id")
    # 5001 is dated by the database (2024-06-08/09): kept, and the facts' dates reported
    assert tours.loc["5001", "end"] == dt.date(2024, 6, 9)
    # 5002 has a date from year/month in the database (1993-04): kept too
    assert tours.loc["5002", "end"] == dt.date(1993, 4, 30)
    found = data.problems.query("code == 'facts_date_ignored'")
    assert found["locator"].tolist() == ["line 2, tournament id=5001", "line 3, tournament id=5002"]
    assert "end 1993-04-10 (the source: 1993-04-30)" in found["message"].iloc[1]


def test_facts_line_writes_what_to_fill() -> None:
    assert facts_line("egf:x") == "egf:x,,,,YYYY-MM-DD,YYYY-MM-DD"
    assert facts_line("7", minutes=60, mode="online") == "7,60,online,,,"
    assert facts_line("a,b", end=dt.date(2020, 1, 2)) == '"a,b",,,,YYYY-MM-DD,2020-01-02'


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
