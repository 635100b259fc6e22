"""The flow tests: no asyncio loop left running in a worker's main thread.

Prefect's environment and the ``prefect_server`` fixture (one temporary API server per test
worker) are in ``tests/conftest.py``.
"""

from __future__ import annotations

import asyncio

import pytest


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
