"""read_source: files, directories of dated databases, lists, as_of, hashes, argument errors."""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import shutil

import pytest
from sources_support import FIXTURES

import whr
from whr.sources import pick_database


def _dated_dir(tmp_path):
    """Three dated databases (one gzip) plus files that must be ignored."""
    basic = (FIXTURES / "basic.rif").read_bytes()
    problems = (FIXTURES / "problems.rif").read_bytes()
    (tmp_path / "renjunet_v10_20240101.rif").write_bytes(basic)
    (tmp_path / "renjunet_v10_20240601.rif.gz").write_bytes(gzip.compress(problems))
    (tmp_path / "renjunet_v10_20250101.rif").write_bytes(basic.replace(b"250001", b"990001"))
    (tmp_path / "README.md").write_text("not data\n")
    (tmp_path / "notes.csv").write_text("tournament_id,minutes,mode,note\n")
    (tmp_path / "renjunet_v10_2024.rif").write_text("not dated properly\n")
    return tmp_path


@pytest.mark.parametrize(
    ("as_of", "chosen"),
    [
        (None, "renjunet_v10_20250101.rif"),
        (dt.date(2025, 1, 1), "renjunet_v10_20250101.rif"),  # on the day: included
        (dt.date(2024, 12, 31), "renjunet_v10_20240601.rif.gz"),
        ("2024-06-01", "renjunet_v10_20240601.rif.gz"),
        (dt.datetime(2024, 5, 31, 23, 59), "renjunet_v10_20240101.rif"),
    ],
)
def test_directory_reads_the_newest_database_not_after_as_of(tmp_path, as_of, chosen):
    folder = _dated_dir(tmp_path)
    data = whr.read_source(folder, as_of=as_of)
    assert [name for name, _ in data.inputs] == [chosen]
    assert data.sha256 == hashlib.sha256((folder / chosen).read_bytes()).hexdigest()
    assert set(data.games["source"]) == {chosen}


def test_directory_with_only_later_databases_is_an_error(tmp_path):
    folder = _dated_dir(tmp_path)
    with pytest.raises(whr.SourceError, match="dated after as_of=2023-12-31"):
        whr.read_source(folder, as_of=dt.date(2023, 12, 31))


def test_pick_database_without_any_database_returns_none(tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    assert pick_database(tmp_path, None) is None


def test_directory_with_nothing_to_read_is_an_error(tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(whr.SourceError, match="nothing to read"):
        whr.read_source(tmp_path)


def test_directory_combines_the_database_with_canonical_tables(tmp_path):
    shutil.copy(FIXTURES / "basic.rif", tmp_path / "renjunet_v10_20250301.rif")
    for name in ("players.csv", "tournaments.csv", "games.csv"):
        shutil.copy(FIXTURES / "canonical" / name, tmp_path / name)
    data = whr.read_source(tmp_path)
    assert len(data.games) == 5 + 7
    assert list(data.games["source"].unique()) == ["renjunet_v10_20250301.rif", "games.csv"]
    assert [n for n, _ in data.inputs] == [
        "renjunet_v10_20250301.rif",
        "players.csv",
        "tournaments.csv",
        "games.csv",
    ]


def test_a_list_of_sources_is_concatenated_and_hashed_together():
    a, b = FIXTURES / "basic.rif", FIXTURES / "problems.rif"
    data = whr.read_source([a, str(b)])
    assert len(data.games) == 5 + 9
    assert len(data.players) == 3 + 2
    digests = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (a, b)}
    assert data.inputs == tuple(digests.items())
    lines = "".join(f"{n}\t{d}\n" for n, d in sorted(digests.items()))
    assert data.sha256 == hashlib.sha256(lines.encode()).hexdigest()
    # problems keep their own source
    assert set(data.problems["source"]) == {"problems.rif"}


def test_single_file_hash_is_the_files_own_digest():
    path = FIXTURES / "basic.rif"
    assert whr.read_source(path).sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_missing_path_is_a_source_error(tmp_path):
    with pytest.raises(whr.SourceError, match="no such file or directory"):
        whr.read_source(tmp_path / "absent.rif")


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        (
            {"source": 42},
            TypeError,
            "source must be a path, an http(s) URL or a list of them; got int",
        ),
        ({"source": []}, ValueError, "source must name at least one"),
        ({"source": FIXTURES, "as_of": 20240101}, TypeError, "as_of must be a datetime.date"),
        ({"source": FIXTURES, "as_of": "01/02/2024"}, ValueError, "as_of must be an ISO date"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, error, words):
    with pytest.raises(error) as info:
        whr.read_source(**kwargs)
    assert words in str(info.value)


def test_egf_tables_in_a_directory_go_to_the_egf_reader(tmp_path):
    egf = pytest.importorskip("whr.sources.egf")
    tables = sorted((FIXTURES.parent / "egf").glob("*.h9"))
    if not tables:
        pytest.skip("no EGF fixture tables to borrow")
    shutil.copy(tables[0], tmp_path / tables[0].name)
    data = whr.read_source(tmp_path)
    direct = egf.read_tables([tmp_path / tables[0].name])
    assert len(data.games) == len(direct.games) > 0
