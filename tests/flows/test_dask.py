"""Where the tasks run (``flows.runners``): the ``--dask`` option, and the daily flow's lists
validated and rated on a local Dask cluster of two worker processes, published as on threads.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from cluster_support import environ_kept

from flows.runners import DaskTarget, local_cluster_kwargs, parse_dask, results, share

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sample"
D = "2026-11-30"


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("local:1", DaskTarget(workers=1)),
        ("local:16", DaskTarget(workers=16)),
        ("tcp://10.1.2.3:8786", DaskTarget(address="tcp://10.1.2.3:8786")),
        ("scheduler.example.org:8786", DaskTarget(address="tcp://scheduler.example.org:8786")),
        ("tls://[2001:db8::1]:8786", DaskTarget(address="tls://[2001:db8::1]:8786")),
    ],
)
def test_dask_values(text: str, target: DaskTarget) -> None:
    assert parse_dask(text) == target
    assert str(parse_dask(str(target))) == str(target)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("local:0", "expected local:N with N >= 1 workers, got 'local:0'"),
        ("local:", "expected local:N (a cluster of N workers on this machine) or a scheduler"),
        ("local", "got 'local'"),
        ("tcp://host", "got 'tcp://host'"),
        ("host:99999", "got 'host:99999'"),
        ("http://host:8786", "got 'http://host:8786'"),
        ("", "got ''"),
    ],
)
def test_bad_dask_values_name_the_option(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=re.escape("dask: expected local:N")) as error:
        parse_dask(text)
    assert says in str(error.value)


def test_a_dask_value_must_be_text() -> None:
    with pytest.raises(TypeError, match="dask: expected a string, got int"):
        parse_dask(8786)  # type: ignore[arg-type]


def test_local_cluster_of_n_single_threaded_workers() -> None:
    kwargs = local_cluster_kwargs(3)
    assert (kwargs["n_workers"], kwargs["threads_per_worker"], kwargs["processes"]) == (3, 1, True)
    with pytest.raises(ValueError, match="workers: expected an integer >= 1, got 0"):
        local_cluster_kwargs(0)


def test_workers_on_this_machine() -> None:
    assert parse_dask("local:2").on_this_machine
    assert parse_dask("127.0.0.1:8786").on_this_machine
    assert parse_dask("tcp://localhost:8786").on_this_machine
    assert not parse_dask("tcp://10.0.0.5:8786").on_this_machine


def test_share_outside_a_cluster_is_the_value_itself() -> None:
    value = {"games": [1, 2, 3]}
    assert share(value) is value


def test_results_keep_the_order_of_the_futures(prefect_server: None) -> None:
    import time

    from prefect import flow, task

    @task
    def late(x: int) -> int:
        time.sleep(0.05 * (3 - x))  # the first submitted finishes last
        return x * 10

    @flow
    def gather() -> list[int]:
        return results([late.submit(x) for x in range(4)])

    assert gather() == [0, 10, 20, 30]


def test_a_bad_dask_option_answers_before_prefect_loads() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "flows.daily"]
        + ["--source", str(SAMPLE), "--dask", "local:0"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    lines = [x for x in done.stderr.splitlines() if not x.startswith("import time:")]
    assert lines == [
        "rif-rating: error: argument --dask: expected local:N with N >= 1 workers, got "
        "'local:0' (see rif-rating --help)"
    ]
    assert "prefect" not in done.stderr and "distributed" not in done.stderr


@pytest.mark.flow
def test_the_daily_lists_on_a_local_cluster_equal_those_on_threads(
    prefect_server: None, tmp_path: Path
) -> None:
    import datetime as dt

    from flows import pipeline
    from whr.run import Run

    day = dt.date.fromisoformat(D)
    outcomes = {}
    for name, dask in (("threads", None), ("dask", parse_dask("local:2"))):
        run = Run(sources=(str(SAMPLE),), out=tmp_path / name, as_of=day)
        with environ_kept():
            outcome = pipeline.execute(run, dask=dask)
        assert outcome.outcome == "published", outcome.lines
        outcomes[name] = outcome
    assert outcomes["dask"].published == outcomes["threads"].published == ["renju", "gomoku"]
    for category in ("renju", "gomoku"):
        for table in ("ratings", "history", "exclusions"):
            entry = Path("archive") / category / D / f"{table}.parquet"
            threads = (tmp_path / "threads" / entry).read_bytes()
            assert (tmp_path / "dask" / entry).read_bytes() == threads, entry
