"""The tree passes ruff (lint and format), as configured in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_ruff_lint_is_clean() -> None:
    run = _ruff("check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_format_is_clean() -> None:
    run = _ruff("format", "--check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
