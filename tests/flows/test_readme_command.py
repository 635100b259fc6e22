"""The README's main command, as written, in a fresh virtual environment (SLOW: about a minute),
and `frictionless validate` on what it published.

The virtual environment gets a ``.pth`` file pointing at the test interpreter's site-packages,
so that ``pip install -e .`` finds every dependency already installed and downloads nothing but
the build backend (from pip's cache); everything else is the README's command unchanged, run in
a copy of the project without its tests, virtual environments or earlier output.
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

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.flow

IGNORE = shutil.ignore_patterns(
    ".git", ".venv*", "out", "__pycache__", "*.egg-info", "build", "node_modules", ".*cache",
    ".prefect", "tests", "benchmarks",
)  # fmt: skip


def readme_main_command() -> str:
    blocks = re.findall(
        r"```sh\n(.+?)\n```", (REPO / "README.md").read_text(encoding="utf-8"), re.S
    )
    return next(b for b in blocks if "flows.daily" in b)


def test_readme_main_command_in_a_fresh_venv(tmp_path: Path) -> None:
    command = readme_main_command()
    create = "python3 -m venv .venv"
    assert command.startswith(create + " && "), command
    work = tmp_path / "project"
    shutil.copytree(REPO, work, ignore=IGNORE)

    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    parent = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    link = f".venv/lib/{version}/site-packages/_test_parent_site.pth"
    prepared = (
        f"{sys.executable} -m venv .venv && printf '%s\\n' {' '.join(map(repr, parent))} > {link}"
        + command[len(create) :]
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_API", "VIRTUAL_ENV"))}
    env.update(PREFECT_HOME=str(tmp_path / "prefect"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    done = subprocess.run(
        ["bash", "-c", prepared],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    latest = json.loads((work / "out" / "renju" / "latest.json").read_text(encoding="utf-8"))
    assert (work / "out" / latest["archive"] / "manifest.json").is_file()
    site = work / "out" / "renju" / "index.html"
    assert site.is_file() and "<table" in site.read_text(encoding="utf-8")
    assert (work / "out" / "index.html").is_file() and (work / "out" / "gomoku").is_dir()
    assert "renju: published" in done.stdout
    # The project came from the copy, installed in the new environment.
    assert (work / ".venv" / "bin" / "rif-rating").is_file()
    # The consumers' check of the published tree passes: every resource of datapackage.json,
    # CSV and Parquet, renju and gomoku (docs/data-dictionary.md, OUT/datapackage.json)
    checked = subprocess.run(
        [str(Path(sys.executable).with_name("frictionless")), "validate", "datapackage.json"],
        cwd=work / "out",
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-3000:]
