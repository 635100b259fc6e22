"""Prefect for the flow tests: quiet, offline, one temporary API server for the whole session.

The environment is set here, at import, because Prefect reads its settings when it is first
imported (``flows.daily`` imports it); nothing outside ``flows/`` imports Prefect.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

_PREFECT_HOME = Path(tempfile.mkdtemp(prefix="rif-rating-prefect-home-"))
atexit.register(shutil.rmtree, _PREFECT_HOME, True)

PREFECT_ENV = {
    "PREFECT_HOME": str(_PREFECT_HOME),  # never the developer's ~/.prefect
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",  # 2 loaded cores start slowly
}
os.environ.update(PREFECT_ENV)
os.environ.pop("PREFECT_API_URL", None)  # never talk to a server configured outside the tests
os.environ.pop("GITHUB_STEP_SUMMARY", None)


@pytest.fixture(scope="session")
def prefect_server() -> Iterator[None]:
    """One temporary Prefect API (and database) for every flow run of the session (~10 s)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


@pytest.fixture(scope="module", autouse=True)
def no_running_event_loop() -> None:
    """Prefect's sync-or-async calls (``State.result()``) return coroutines where an asyncio loop
    is running in the main thread: say so, rather than fail in the test with a coroutine."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    pytest.fail(
        "an asyncio loop is running in this worker's main thread (a Playwright sync API left "
        "open by an earlier module?): Prefect's calls would return coroutines"
    )
