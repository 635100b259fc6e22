"""The package stands alone: its wheel, installed into a clean virtual environment outside the
repository, publishes a copy of the sample from another directory (SLOW: about half a minute).

The wheel is built from a copy of the project (without its tests, virtual environments or
earlier output) with the test environment's setuptools, as ``tests/bootstrap.sh`` and the daily
workflow install the project (no build isolation). The clean environment gets exactly the
dependencies of ``requirements-lock.txt``, hash-checked, installed by ``uv`` from its cache (it
downloads from PyPI only what the cache lacks), and then the wheel alone. Nothing of the
repository is on its path: the run finds the bundled rules and mapping files inside the
installed package. The run talks to this test worker's Prefect server (``prefect_server``: the
same Prefect, from the same lock) instead of starting one of its own in a fresh home: that start
(a new database, migrated) was most of this test's minute and, on loaded cores, its one way to
fail; the README's command (``tests/flows/test_readme_command.py``) still runs with a fresh home
and its own temporary server.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LOCK = REPO / "requirements-lock.txt"
SAMPLE = REPO / "data" / "sample"

pytestmark = pytest.mark.flow

ANYWHERE = shutil.ignore_patterns("__pycache__", "*.egg-info", ".*cache")
TOP_LEVEL = {
    ".git", ".venv", "out", "build", "dist", ".prefect", "tests", "benchmarks",
    "data",  # the repository's data/: the wheel must not need it
}  # fmt: skip


def ignore(directory: str, names: list[str]) -> set[str]:
    """shutil.copytree's filter: caches anywhere, and the repository's own top-level extras."""
    ignored = set(ANYWHERE(directory, names))
    if Path(directory) == REPO:
        ignored |= TOP_LEVEL & set(names)
    return ignored


# What the package must carry; the paths are the package's own (whr/data is where the bundled
# data lives), not the published layout.
BUNDLED = (
    "whr/data/rules/eligibility.toml",
    "whr/data/rules/tournament_facts.csv",
    "whr/data/rules/rated_tournaments",
    "whr/data/rules/unrated_tournaments",
    "whr/data/rules/unrated_games",
    "whr/data/egf_players.csv",
    "whr/data/country_codes.csv",
    "whr/py.typed",
    "whr/publish/site/templates/base.html",
    "whr/publish/site/static/style.css",
    "whr/publish/site/locale/zh.po",  # the site's languages, compiled at publish
)


def uv() -> str:
    found = shutil.which("uv", path=str(Path(sys.executable).parent))
    if found is None:
        message = "uv not installed (bash tests/bootstrap.sh installs it from the lock)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def clean_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a user's shell: no Python or Prefect settings of this test session."""
    dropped = ("PYTHON", "VIRTUAL_ENV", "PREFECT_", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY")
    env = {k: v for k, v in os.environ.items() if not k.startswith(dropped)}
    env.update(
        PREFECT_HOME=str(tmp_path / "prefect-home"),
        PREFECT_SERVER_ANALYTICS_ENABLED="false",
        DO_NOT_TRACK="1",
    )
    return env


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = 600):
    done = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built from a copy of the project without its data/ directory."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "project"
    shutil.copytree(REPO, source, ignore=ignore)
    pip = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
    run([*pip, "--wheel-dir", str(root / "dist"), str(source)], cwd=root)
    (built,) = (root / "dist").glob("rif_rating-*.whl")
    return built


def test_the_wheel_carries_the_bundled_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [name for name in BUNDLED if name not in names]
    assert not missing, f"not in {wheel.name}: {missing}"
    top = {name.split("/")[0] for name in names}
    assert top <= {"whr", "flows", *(n for n in top if n.endswith(".dist-info"))}, top


def test_the_installed_wheel_publishes_the_sample_from_elsewhere(
    wheel: Path, tmp_path: Path, prefect_server: None
) -> None:
    from prefect.settings import PREFECT_API_URL

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path)
    python = venv / "bin" / "python"
    install = [uv(), "pip", "install", "--quiet", "--python", str(python)]
    run([*install, "--require-hashes", "-r", str(LOCK)], cwd=tmp_path)
    run([*install, "--no-deps", str(wheel)], cwd=tmp_path)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    source = elsewhere / "database"
    shutil.copytree(SAMPLE, source)
    env = {**clean_env(tmp_path), "PREFECT_API_URL": str(PREFECT_API_URL.value())}

    # The package, and the data it finds by itself, are the installed ones.
    probe = (
        "import flows, whr, whr.rules, whr.sources.egf as egf\n"
        "for p in (whr.__file__, flows.__file__, whr.rules.default_directory(),\n"
        "          egf.DEFAULT_MAPPING, egf.DEFAULT_COUNTRIES):\n"
        "    print(p)\n"
    )
    printed = run([str(python), "-c", probe], cwd=elsewhere, env=env).stdout.splitlines()
    site = (venv / "lib").resolve()
    for path in map(Path, printed):
        assert path.resolve().is_relative_to(site), (path, site)
        assert path.exists(), path

    out = elsewhere / "out"
    command = [str(venv / "bin" / "rif-rating"), "--source", str(source), "--out", str(out)]
    done = subprocess.run(
        [*command, "--as-of", "2026-11-30"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert any(out.rglob("*.html")), sorted(out.rglob("*"))[:20]
    assert any(out.rglob("*.parquet")), sorted(out.rglob("*"))[:20]
