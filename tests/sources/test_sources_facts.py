"""Tournament facts shipped beside a database (``tournament_facts.csv``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

import whr

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


def test_bad_rows_are_problems_with_their_line_and_the_rest_applies(tmp_path: Path) -> None:
    source = _source(
        tmp_path,
        "tournament_id,minutes,mode\n5001,-5,by mail\n9999,60,face_to_face\n5004,90,online\n5004,60,online\n",
    )
    data = whr.read_source(source)
    found = data.problems.query("source == 'tournament_facts.csv'")
    got = sorted(zip(found["code"], found["locator"], strict=True))
    assert got == [
        ("bad_value", "line 2, tournament id=5001"),
        ("bad_value", "line 2, tournament id=5001"),
        ("duplicate_id", "line 4, tournament id=5004"),
        ("unknown_tournament", "line 3, tournament id=9999"),
    ]
    assert _facts_of(data, "5001") == (None, None)
    assert _facts_of(data, "5004") == (60.0, "online")  # the later line wins


def test_a_facts_file_without_the_columns_is_refused(tmp_path: Path) -> None:
    source = _source(tmp_path, "id,time\n5001,60\n")
    with pytest.raises(whr.SourceError, match="lacks columns"):
        whr.read_source(source)
