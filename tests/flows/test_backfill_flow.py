"""``rif-rating backfill``: the command line (fast, one-line errors, options derived from the
fields it shares with the daily run), the Prefect flow in this process and on a local Dask
cluster of two worker processes (the same table, to the fits' tolerance), and the file it writes
(where the layout says, never through a link).

The database is a small synthetic RenjuNet-format one (about 400 games), written once.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cluster_support import environ_kept

from flows import daily
from whr.params import FitParams
from whr.run import Backfill, Run

REPO = Path(__file__).resolve().parents[2]
D = dt.date(2026, 11, 30)
TOL = FitParams().tol_elo


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from whr.research.synthetic_db import generate, write_facts, write_renjunet

    db = generate(400, seed=3, date=D)
    where = tmp_path_factory.mktemp("backfill-db")
    write_renjunet(db, where / "renjunet_v10_20261130.rif")
    write_facts(db, where / "tournament_facts.csv")
    return where


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "flows.daily", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
    )


def _imported(stderr: str) -> set[str]:
    import re

    found = re.finditer(r"^import time:.*\|\s+(\S+)$", stderr, re.M)
    return {m.group(1).split(".")[0] for m in found}


def _said(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if not line.startswith("import time:")]


def test_help_answers_without_importing_prefect() -> None:
    done = cli("backfill", "--help")
    assert done.returncode == 0
    assert "--until" in done.stdout and "--dask" in done.stdout and "replay" in done.stdout
    assert "--force" not in done.stdout and "--max-shrink" not in done.stdout
    modules = _imported(done.stderr)
    assert "prefect" not in modules and "pandas" not in modules
    assert "rif-rating backfill --help" in " ".join(cli("--help").stdout.split())


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--as-of", "2026-11-30", "--until", "2026-12-01"], "--until: until: expected a day on"),
        (["--w2", "19"], "--variant NAME"),
        (["--dask", "local:0"], "argument --dask: expected local:N with N >= 1"),
        (["--force", "why"], "unrecognized arguments: --force"),
        (["--until", "1.12.2026"], "argument --until: expected a date YYYY-MM-DD"),
        (["--retries", "-1"], "--retries: retries must be an integer >= 0"),
    ],
)
def test_bad_arguments_exit_2_with_one_line_before_prefect(
    database: Path, args: list[str], says: str
) -> None:
    done = cli("backfill", "--source", str(database), *args)
    assert done.returncode == 2
    lines = _said(done.stderr)
    assert len(lines) == 1 and lines[0].startswith("rif-rating: error: "), lines
    assert says in lines[0]
    assert "prefect" not in _imported(done.stderr) and "pandas" not in _imported(done.stderr)


def test_a_missing_source_is_named() -> None:
    done = cli("backfill")
    assert done.returncode == 2
    assert _said(done.stderr) == [
        "rif-rating: error: the following arguments are required: --source "
        "(see rif-rating backfill --help)"
    ]


def test_the_options_are_the_fields_the_run_declares() -> None:
    """A field the backfill shares with the run is the run's declaration (its flag, default,
    unit and check; only its help may say what it means here), and every option reaches the
    backfill."""
    from whr.params import declared

    run = {f.name: f for f in dataclasses.fields(Run)}
    for f in dataclasses.fields(Backfill):
        if f.name in run:
            mine, theirs = dict(f.metadata), dict(run[f.name].metadata)
            mine.pop("description"), theirs.pop("description")
            assert mine == theirs, f.name
            assert (f.default, f.default_factory) == (
                run[f.name].default,
                run[f.name].default_factory,
            )
    flagged = {f.metadata["flag"] for _, f, _ in declared(Backfill) if f.metadata["flag"]}
    actions = {a.option_strings[0] for a in daily.backfill_parser()._actions if a.option_strings}
    assert flagged == actions - {"-h", "--dask", "--verbose"}
    base = ["--source", "x", "--as-of", "2026-11-30", "--variant", "v"]
    named = daily.value_of(Backfill, daily.backfill_parser().parse_args(base))
    assert named == Backfill(sources=("x",), as_of=D, variant="v")
    assert named.last_day == D and named.run().as_of == D
    for option, value in {
        "--until": "2026-01-01",
        "--out": "o",
        "--w2": "19",
        "--strict": None,
    }.items():
        extra = [option] if value is None else [option, value]
        other = daily.value_of(Backfill, daily.backfill_parser().parse_args([*base, *extra]))
        assert other != named, option
    assert daily.value_of(
        Backfill, daily.backfill_parser().parse_args([*base, "--until", "2026-01-01"])
    ).last_day == dt.date(2026, 1, 1)


def test_the_docs_option_table_is_the_command_line() -> None:
    docs = (REPO / "docs" / "operations.md").read_text(encoding="utf-8")
    table = daily.option_table(daily.backfill_parser(), Backfill)
    assert table in docs, (
        "regenerate it: python -c 'from flows import daily; from whr.run import Backfill; "
        "print(daily.option_table(daily.backfill_parser(), Backfill))'"
    )


def _selected(database: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The renju games and tournaments the list of D rates, read here without the flow."""
    import whr
    from whr.rules import default_directory, load_config

    data = whr.read_source(database, as_of=D)
    selection = whr.select(data, D, "renju", config=load_config(default_directory()))
    return selection.rated, selection.tournaments


@pytest.fixture(scope="module")
def in_process(
    prefect_server: None, database: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, object]:
    from flows import backfill

    out = tmp_path_factory.mktemp("backfill-out")
    done = backfill.execute(Backfill(sources=(str(database),), out=out, as_of=D))
    return out, done


@pytest.mark.flow
def test_the_flow_writes_the_replay_of_each_list(
    in_process: tuple[Path, object], database: Path
) -> None:
    """Under Prefect, in this process: one replay per list, where the layout says: its tables
    with their declared schemas and what made them in their metadata, and its manifest (every
    file's size and sha256, the input's digest, the parameters, the versions); the tables are
    the library's replay of the games the list of D rates (and its record's rows), to the last
    digit, and the replay checks."""
    import json

    import pyarrow.parquet as pq

    from whr.lists import at_the_time, record
    from whr.publish.backfill import read_replay
    from whr.publish.files import sha256
    from whr.publish.layout import Channel, Layout
    from whr.publish.replay import check
    from whr.tables import RECORD, TOURNAMENT_CHANGES

    out, done = in_process
    assert done.ok, done.lines  # type: ignore[attr-defined]
    assert set(done.lists) == {"renju", "gomoku"}  # type: ignore[attr-defined]
    path = Layout(out).replay(Channel("renju"), D)
    assert path == out / "archive" / "renju" / "replay" / "2026-11-30" and path.is_dir()
    umask = os.umask(0)
    os.umask(umask)
    for file in path.iterdir():
        assert stat.S_IMODE(file.stat().st_mode) == 0o666 & ~umask, file
    table, rows = read_replay(out, Channel("renju"), D)
    rated, tournaments = _selected(database)
    line = at_the_time.timeline(rated, tournaments)
    lists = record.Recorder(line, through=D)
    pd.testing.assert_frame_equal(table, at_the_time.replay(line, lists=lists))
    pd.testing.assert_frame_equal(rows, lists.rows())
    assert len(table) > 100 and len(rows) > len(table)
    for name, schema in (("tournament_changes", TOURNAMENT_CHANGES), ("record", RECORD)):
        read = pq.read_schema(path / f"{name}.parquet")
        assert read.remove_metadata() == schema.remove_metadata()
        parameters = json.loads(read.metadata[b"whr.parameters"])
        assert parameters["category"] == "renju" and parameters["until"] == "2026-11-30"
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["kind"] == "replay" and manifest["as_of"] == manifest["until"] == "2026-11-30"
    assert manifest["ranges"] == 1 and manifest["days"] == table["first_list_date"].nunique()
    assert manifest["parameters"]["w2_elo2_per_day"] == FitParams().w2_elo2_per_day
    assert manifest["packages"]["rif-rating"] and manifest["input_sha256"]
    for name, info in manifest["files"].items():
        assert info["sha256"] == sha256(path / name)
        assert info["bytes"] == (path / name).stat().st_size
    assert manifest["files"]["record.parquet"]["rows"] == len(rows)
    assert [r.path for r in check(Layout(out), Channel("renju"), []).good] == [path]
    renju = done.lists["renju"]  # type: ignore[attr-defined]
    assert renju["rows"] == len(table) and renju["fits"] == renju["days"]
    assert renju["record_rows"] == len(rows)


@pytest.mark.flow
def test_the_command_stops_at_the_day_it_is_told(
    in_process: tuple[Path, object], database: Path, prefect_server: None, tmp_path: Path
) -> None:
    """``--until U``: the days up to U, as the whole replay has them (the archive's days are
    the archive's)."""
    from prefect.settings import PREFECT_API_URL

    from whr.publish.backfill import read_replay
    from whr.publish.layout import Channel

    whole, said = read_replay(in_process[0], Channel("renju"), D)
    until = sorted(whole["first_list_date"].unique())[len(whole) // 20]
    env = {"PREFECT_API_URL": str(PREFECT_API_URL.value())}
    done = cli(
        "backfill", "--source", str(database), "--out", str(tmp_path), "--as-of", D.isoformat(),
        "--category", "renju", "--until", until.isoformat(), env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("rif-rating backfill: renju: written ")
    part, part_said = read_replay(tmp_path, Channel("renju"), D)
    assert part["first_list_date"].max() == until
    pd.testing.assert_frame_equal(part, whole[whole["first_list_date"] <= until])
    # the record of the lists up to U is the whole record's up to U (a fold of the lists)
    upto = said[[d <= until for d in said["list_date"]]].reset_index(drop=True)
    pd.testing.assert_frame_equal(part_said, upto)
    assert not (tmp_path / "archive" / "gomoku").exists()


@pytest.mark.flow
def test_on_a_local_cluster_of_two_workers_the_table_is_the_same(
    in_process: tuple[Path, object], database: Path, tmp_path: Path
) -> None:
    """``--dask local:2``: the days in ranges replayed on two worker processes, each from a
    cold fit at its start; the table equals the one-process one to the fits' tolerance."""
    from flows import backfill
    from flows.runners import parse_dask
    from whr.publish.backfill import read_replay
    from whr.publish.layout import Channel

    job = Backfill(sources=(str(database),), out=tmp_path, as_of=D, categories=("renju",))
    with environ_kept():
        done = backfill.execute(job, dask=parse_dask("local:2"))
    assert done.ok, done.lines
    renju = done.lists["renju"]
    assert renju["fits"] == renju["days"] + 3  # four ranges: three more cold fits
    ours, our_record = read_replay(tmp_path, Channel("renju"), D)
    theirs, their_record = read_replay(in_process[0], Channel("renju"), D)
    keys = ["player", "tournament_id", "first_list_date", "games", "score", "other_new_games"]
    pd.testing.assert_frame_equal(ours[keys], theirs[keys])
    for column in ("rating_before", "uncertainty_before", "rating_after", "uncertainty_after"):
        np.testing.assert_array_equal(ours[column].isna(), theirs[column].isna())
        assert np.nanmax(np.abs(ours[column] - theirs[column])) < TOL, column
    # the record: the rows one fold over every list keeps, from four ranges
    keys = ["player", "list_date", "rank", "status", "games", "source"]
    pd.testing.assert_frame_equal(our_record[keys], their_record[keys])
    for column in ("rating", "uncertainty"):
        assert np.max(np.abs(our_record[column] - their_record[column])) < TOL, column


def test_the_replay_is_never_written_through_a_link(tmp_path: Path) -> None:
    """A symbolic link where the replays' directory belongs is refused (nothing is written
    where it points); what a killed write left is removed; a replay written again replaces
    the old one whole; the tree still verifies."""
    import whr.publish
    from whr.publish.backfill import read_replay, write_replay
    from whr.publish.layout import Channel, TreeError
    from whr.tables import RECORD, TOURNAMENT_CHANGES, empty

    def write(channel: Channel, parameters: dict[str, object]) -> Path:
        return write_replay(
            out, channel, D, empty(TOURNAMENT_CHANGES), empty(RECORD), parameters,
            input_sha256="0" * 64, until=D,
        )  # fmt: skip

    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "archive" / "renju").mkdir(parents=True)
    (out / "archive" / "renju" / "replay").symlink_to(elsewhere)
    with pytest.raises(TreeError, match="symbolic link"):
        write(Channel("renju"), {})
    assert list(elsewhere.iterdir()) == []
    (out / "archive" / "renju" / "replay").unlink()
    (out / "archive" / "renju" / "replay").mkdir()
    left = out / "archive" / "renju" / "replay" / ".work-123-abcd"
    left.mkdir()
    (left / "record.parquet").write_bytes(b"half")
    path = write(Channel("renju", "v"), {})
    assert path == out / "archive" / "variants" / "v" / "renju" / "replay" / "2026-11-30"
    write(Channel("renju"), {"x": 1})
    first = (out / "archive" / "renju" / "replay" / "2026-11-30" / "manifest.json").read_text()
    write(Channel("renju"), {"x": 2})
    assert not left.exists()
    assert sorted(p.name for p in (out / "archive" / "renju" / "replay").iterdir()) == [
        "2026-11-30"
    ]
    second = (out / "archive" / "renju" / "replay" / "2026-11-30" / "manifest.json").read_text()
    assert '"x": 1' in first and '"x": 2' in second
    assert [len(t) for t in read_replay(out, Channel("renju"), D)] == [0, 0]
    assert whr.publish.verify(out).ok
