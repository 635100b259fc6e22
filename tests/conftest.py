"""Prefect for every test that needs it: quiet, offline, and one temporary API server per test
worker process, started as soon as the worker has collected a test that uses it.

The environment is set here, at import, because Prefect reads its settings when it is first
imported; nothing outside ``flows/`` imports Prefect. The server is the command line's own
(:class:`flows.runners.TemporaryServer`, on this worker's ``PREFECT_HOME``): started when
collection ends, it creates its database while the worker runs its first tests, and every test
that needs it (the ``prefect_server`` fixture) shares it instead of waiting on a server of its
own. Tests that check the command's own temporary server start one in a subprocess.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

_PREFECT_HOME = Path(tempfile.mkdtemp(prefix="rif-rating-prefect-home-"))
atexit.register(shutil.rmtree, _PREFECT_HOME, True)

SERVER_STARTUP_S = 900
"""How long a test waits for a Prefect server to answer: a readiness wait, not a limit on any
test's duration (two loaded cores shared with other work can need minutes)."""

PREFECT_ENV = {
    "PREFECT_HOME": str(_PREFECT_HOME),  # never the developer's ~/.prefect
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": str(SERVER_STARTUP_S),
}
os.environ.update(PREFECT_ENV)
os.environ.pop("PREFECT_API_URL", None)  # never talk to a server configured outside the tests
os.environ.pop("GITHUB_STEP_SUMMARY", None)

_SERVER: list = []  # this worker's temporary server, once started


LONGEST_FIRST = (
    "tests/publish/site/test_site.py",
    "tests/flows/test_command_line.py",
    "tests/test_benchmarks.py",
    "tests/publish/site/test_i18n.py",
    "tests/publish/test_faults.py",
    "tests/flows/test_readme_command.py",
    "tests/flows/test_daily_flow.py",
    "tests/test_types.py",
    "tests/test_wheel.py",
    "tests/publish/site/test_lists.py",
    "tests/flows/test_evaluate_flow.py",
    "tests/publish/site/test_frame.py",
)
"""The files whose tests take longest in all (a whole run's ``--junitxml`` summed by file, on the
2-core machine), longest first. pytest-xdist hands out whole files in collection order
(``--dist loadfile --no-loadscope-reorder``): these go first, so that the run does not end with
one worker on a long file while the other has nothing left to do."""


SLOW = (
    "tests/test_benchmarks.py",
    "tests/test_types.py",
    "tests/test_wheel.py",
    "tests/flows/test_dask.py",
    "tests/flows/test_readme_command.py",
    "tests/flows/test_secret_source.py",
    "tests/flows/test_evaluate_flow.py::test_a_small_tune",
    "tests/flows/test_evaluate_flow.py::test_a_worker_killed",
    "tests/flows/test_evaluate_flow.py::test_compare_on_a_cluster",
    "tests/flows/test_backfill_flow.py::test_on_a_local_cluster",
    "tests/flows/test_backfill_flow.py::test_the_command_stops",
    "tests/flows/test_command_line.py::test_a_run_says_what_it_found_in_the_archive",
    "tests/flows/test_command_line.py::test_a_signal_leaves_no_prefect_server_behind",
    "tests/flows/test_command_line.py::test_outcome_and_exit_status_of_real_runs",
    "tests/flows/test_command_line.py::test_a_failed_run_is_one_line",
    "tests/flows/test_command_line.py::test_another_run_holding_the_lock",
    "tests/flows/test_daily_flow.py::test_a_week_of_use",
    "tests/flows/test_runners.py::test_a_run_allocates_arrow_memory",
    "tests/publish/site/test_site.py::test_every_page_type_fits_the_screen",
    "tests/publish/site/test_i18n.py::test_the_language_switch",
    "tests/publish/site/test_i18n.py::test_a_hostile_site_in_every_language",
    "tests/publish/site/test_player_data.py::test_every_players_published_series",
    "tests/publish/test_kept_changes.py::test_the_compare_page",
    "tests/sources/test_fuzz.py::test_mutated_canonical_csv",
)
"""Tests marked ``slow`` here, by node id prefix: those over about 10 s in a whole run's
``--junitxml`` on the 2-core machine (2026-12-05; a test marks itself where it is slow by
design: ``pytest.mark.slow``). ``pytest -m "not slow"`` leaves them out: the quick inner loop,
about a third of the suite's time; CI and the README's test command run everything."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of ``SLOW`` marked slow; the files of ``LONGEST_FIRST`` first, in its order,
    the others after them, as collected (a stable sort: a file's own tests keep their order)."""
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
    _BROWSER_FILES.update(
        item.nodeid.split("::", 1)[0] for item in items if "browser" in item.fixturenames
    )
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
_CHROMIUM: list = []  # this worker's Playwright and its Chromium, while open
_BROWSER_FILES: set[str] = set()  # the test files with a test that uses the browser


@pytest.fixture(scope="module")
def browser():
    """This worker's headless Chromium (Debian's, driven by Playwright), opened by the first
    module that needs it and kept for the next ones (two to three seconds a launch).

    It is closed before the first test of a file that has no browser test
    (:func:`pytest_runtest_setup`): while Playwright's sync API is open, its asyncio loop is the
    running loop of the main thread, and Prefect's sync-or-async calls (``State.result()``,
    ``asyncio.run``) then return coroutines or refuse to run."""
    if not _CHROMIUM:
        if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
            pytest.fail("Debian's chromium is not installed: run tests/bootstrap.sh")
        sync_api = pytest.importorskip("playwright.sync_api")
        playwright = sync_api.sync_playwright().start()
        _CHROMIUM.append(playwright)
        _CHROMIUM.append(playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS))
    return _CHROMIUM[1]


def _close_chromium() -> None:
    if _CHROMIUM:
        playwright, chromium = _CHROMIUM
        _CHROMIUM.clear()
        chromium.close()
        playwright.stop()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Close this worker's Chromium (and Playwright's loop) before a file without browser tests."""
    if _CHROMIUM and item.nodeid.split("::", 1)[0] not in _BROWSER_FILES:
        _close_chromium()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start this worker's server when a collected test will need it (it starts beside the
    first tests, whatever they are)."""
    if any("prefect_server" in getattr(item, "fixturenames", ()) for item in session.items):
        from flows.runners import TemporaryServer

        _SERVER.append(TemporaryServer())


@pytest.fixture(scope="session")
def prefect_server() -> Iterator[None]:
    """One temporary Prefect API (and database) for every flow run of this worker."""
    from prefect.settings import PREFECT_API_URL, temporary_settings

    from flows.runners import TemporaryServer

    if not _SERVER:  # collected without it (a test run by its id)
        _SERVER.append(TemporaryServer())
    server = _SERVER[0]
    try:
        server.wait(SERVER_STARTUP_S)
        with temporary_settings(updates={PREFECT_API_URL: server.api_url}):
            yield
    finally:
        server.stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop this worker's server (also when none of its tests used it), close its Chromium."""
    _close_chromium()
    for server in _SERVER:
        server.stop()
