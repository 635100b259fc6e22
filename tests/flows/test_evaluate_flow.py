"""The evaluation's Prefect flows give the sequential command line's scores to the last digit:
in this process, on a local Dask cluster of two worker processes started for the run, and on an
existing cluster where a worker is killed mid-task (only that task runs again).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from cluster_support import KillWorker, environ_kept, starts, starts_per_task

from flows import evaluate as flow_evaluate
from flows.runners import LOCAL_WORKERS_CONFIG, dask_runner, local_cluster_kwargs, parse_dask
from whr.research import evaluate as ev
from whr.research import synthetic

pytestmark = pytest.mark.flow

REPO = Path(__file__).resolve().parents[2]
TUNE = ["tune", "--synthetic", "1500", "--w2", "5", "20", "--virtual-games", "1", "2"]


def sequential(tmp_path: Path, args: list[str]) -> Path:
    """The report of ``python -m whr.research.evaluate`` (one point after another, no Prefect)."""
    out = tmp_path / "sequential"
    assert ev.main([*args, "--out", str(out)]) == 0
    return out


def test_a_small_tune_on_a_local_dask_cluster_of_two_workers_gets_the_sequential_answer(
    tmp_path: Path,
) -> None:
    """``python -m flows.evaluate tune ... --dask local:2`` as a user runs it: no Prefect server
    configured, so one temporary server serves this process and both workers."""
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    out = tmp_path / "dask"
    done = subprocess.run(
        [sys.executable, "-m", "flows.evaluate", *TUNE, "--out", str(out), "--dask", "local:2"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == str(out / "report.md")
    # one temporary Prefect server for the run, not one more per worker process
    assert done.stderr.count("Starting temporary server") == 1, done.stderr[-3000:]
    assert done.stderr.count("tune: w2=") == 4  # each grid point ran once, as a task
    seq = sequential(tmp_path, TUNE)
    assert (out / "scores.csv").read_bytes() == (seq / "scores.csv").read_bytes()
    assert (out / "report.md").read_bytes() == (seq / "report.md").read_bytes()
    table = pd.read_csv(out / "scores.csv")
    assert len(table) == 4 and table["best"].sum() == 1


def test_the_default_runs_the_tasks_in_this_process(prefect_server: None, tmp_path: Path) -> None:
    out = tmp_path / "local"
    assert flow_evaluate.main([*TUNE, "--out", str(out)]) == 0
    seq = sequential(tmp_path, TUNE)
    assert (out / "scores.csv").read_bytes() == (seq / "scores.csv").read_bytes()


def test_a_bad_dask_option_is_a_usage_error(capsys: pytest.CaptureFixture) -> None:
    for value in ("local:0", "local:two", "8786", "tcp://host", "http://host:8786"):
        with pytest.raises(SystemExit) as exit_:
            flow_evaluate.main([*TUNE, "--out", "unused", "--dask", value])
        assert exit_.value.code == 2
        assert "argument --dask: expected local:N" in capsys.readouterr().err


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A running Dask cluster of two worker processes (one thread each): its scheduler address."""
    import dask
    from distributed import LocalCluster

    with (
        environ_kept(),
        dask.config.set(LOCAL_WORKERS_CONFIG),
        LocalCluster(**local_cluster_kwargs(2)) as running,
    ):
        yield running.scheduler_address


def test_a_worker_killed_mid_task_costs_only_that_task(
    prefect_server: None, cluster: str, tmp_path: Path
) -> None:
    """Four grid points (forward chaining) on two workers; the worker that starts the third point
    is killed (after the flow took the point it had finished): the third point runs again on a
    worker, every other point ran once, and the scores are the sequential ones."""
    from distributed import Client

    records = tmp_path / "records"
    records.mkdir()
    with Client(cluster) as client:
        client.register_plugin(KillWorker(records, kill_at=2))
        try:
            chosen = flow_evaluate.tune.with_options(task_runner=dask_runner(parse_dask(cluster)))
            table = chosen(
                out=tmp_path / "report",
                synthetic=20000,
                w2=[5.0, 12.9, 20.0, 30.0],
                virtual_games=[2],
                protocol="forward",  # about a second a point: the kill finds it running
                refit_days=182,
            )
        finally:
            client.unregister_worker_plugin(KillWorker.name)
    killed = json.loads((records / "killed.json").read_text())
    assert killed["still_running"] and killed["held"] == [], killed
    runs = starts_per_task(records)
    assert sorted(runs.values()) == [1, 1, 1, 2], runs
    assert runs[killed["key"]] == 2  # the task the worker was running, and only it, ran again
    assert len({s["pid"] for s in starts(records)}) >= 2  # the points ran on several workers
    again = [s["pid"] for s in starts(records) if s["key"] == killed["key"]]
    assert again[0] == killed["pid"] != again[1]  # ...on another worker process
    games = synthetic.history(20000, seed=0).games
    expect = ev.tune(games, [5.0, 12.9, 20.0, 30.0], [2], protocol="forward", refit_days=182)
    pd.testing.assert_frame_equal(table, expect, check_exact=True)


def test_compare_on_a_cluster_gets_the_sequential_scores(
    prefect_server: None, cluster: str, tmp_path: Path
) -> None:
    chosen = flow_evaluate.compare.with_options(task_runner=dask_runner(parse_dask(cluster)))
    table = chosen(out=tmp_path / "report", synthetic=1200, w2=[12.9], refit_days=3650)
    h = synthetic.history(1200, seed=0)
    systems, _ = ev.compare_systems([12.9], 2, refit_days=3650, truth=h.truth)
    expect = ev.compare(h.games, systems)
    assert len(table) == 2 * len(systems) == len(expect)
    pd.testing.assert_frame_equal(
        table.drop(columns="seconds"), expect.drop(columns="seconds"), check_exact=True
    )
    assert (tmp_path / "report" / "report.md").is_file()
