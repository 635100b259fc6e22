"""Every script of benchmarks/ runs, at a tiny size: it exits 0 and prints its table.

A benchmark that nobody runs rots (``bench_fit.py`` failed on a renamed function for weeks).
Each script is run here as a user runs it, in a subprocess, with the options that make it
tiny; the figures themselves are not judged (timings belong in the benchmarks, never in a
test). The scripts that run the command line or a Prefect flow use this worker's Prefect
server. ``reference.py`` runs the reference implementation, which lives in a virtual
environment of its own (``$WHR_REFERENCE_PYTHON``): without one it must refuse in one line.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BENCHMARKS = REPO / "benchmarks"

#: script -> (its tiny options, a line its table prints, whether it uses a Prefect server)
TINY: dict[str, tuple[list[str], str, bool]] = {
    "bench_archive.py": (
        ["--games", "1500", "--days", "3", "--end", "2026-12-01"],
        "ten years of daily runs",
        False,
    ),
    "bench_backfill.py": (["--games", "1500", "--workers", "1"], "largest difference", False),
    "bench_command.py": (["--games", "1500", "--repeat", "1", "--quick"], "trivial flow", True),
    "bench_evaluate.py": (
        ["--games", "1500", "--w2", "9", "12.9", "--protocol", "quick", "--workers", "1"],
        "best: w2 =",
        True,
    ),
    "bench_faults.py": (["--scenario", "republish", "--steps", "1:2"], "repaired exactly", False),
    "bench_fit.py": (["--sizes", "1500", "--reference-sizes", "none"], "peak GiB", False),
    "bench_lists.py": (["--games", "1500", "--repeat", "1"], "build", False),
    "bench_parse.py": (
        ["--games", "1500", "--repeat", "1", "--values", "1", "--canonical", "200,2000"],
        "bare pass",
        False,
    ),
    "bench_players.py": (
        ["--players", "200", "--per-tournament", "20"],
        "largest process peak",
        True,
    ),
    "bench_publish.py": (["--games", "1500"], "lists + render", False),
    "bench_record.py": (["--games", "1500", "--days", "3"], "differ by more than", False),
    "bench_select.py": (["--games", "1500", "--repeat", "1"], "rated", False),
    "bench_tamper.py": (
        ["--games", "300", "--positions", "middle", "--files", "1"],
        "caught by --verify",
        False,
    ),
    "bench_whatif.py": (["--games", "1500", "--repeat", "1"], "exactness:", False),
}


def test_every_script_has_a_tiny_run() -> None:
    scripts = {p.name for p in BENCHMARKS.glob("*.py")} - {"reference.py"}
    assert scripts == set(TINY), "give each script of benchmarks/ its tiny run in TINY"


@pytest.mark.parametrize("script", sorted(TINY))
def test_the_benchmark_runs_and_prints_its_table(
    script: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    options, marker, prefect = TINY[script]
    env = {**os.environ, "PREFECT_HOME": str(tmp_path / "prefect")}
    if prefect:
        request.getfixturevalue("prefect_server")
        from prefect.settings import PREFECT_API_URL

        env["PREFECT_API_URL"] = str(PREFECT_API_URL.value())
        if script == "bench_command.py":  # it runs its flows without it, unless told
            options = [*options, "--api", env["PREFECT_API_URL"]]
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *options],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert marker in done.stdout, done.stdout[-3000:]


def test_the_reference_runner_refuses_without_its_environment(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "WHR_REFERENCE_PYTHON"}
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "reference.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 2
    assert "WHR_REFERENCE_PYTHON" in done.stderr.strip().splitlines()[-1]
