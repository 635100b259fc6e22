"""The type checker passes: ``mypy`` over ``whr`` and ``flows``, as ``[tool.mypy]`` in
pyproject.toml configures it (strict on the stages' seams; see docs/ci.md, "Types")."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_error() -> None:
    # mypy keeps its cache in .mypy_cache: about a minute from scratch, a second after that
    run = subprocess.run(
        [sys.executable, "-m", "mypy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout


def test_the_seams_are_strict() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["files"] == ["whr", "flows"]
    flags = ("disallow_untyped_defs", "disallow_any_generics", "warn_return_any")
    strict = {m for o in config["overrides"] if all(o.get(f) for f in flags) for m in o["module"]}
    # `strict = true` in an override is applied to every module by mypy 2.4: the flags are
    # named one by one instead
    assert not any("strict" in o for o in config["overrides"])
    # the solver, the shared tables, the readers, the eligibility rules and the published tree
    assert {"whr.core.*", "whr.tables", "whr.rules.*", "whr.sources", "whr.publish.files"} <= strict
