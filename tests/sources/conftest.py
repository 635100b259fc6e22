"""Fixtures of the sources tests: a real HTTP server on 127.0.0.1; the fuzz profiles."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest
from hypothesis import settings
from sources_support import Server


@pytest.fixture
def http_server() -> Iterator[Server]:
    """A threaded HTTP server on 127.0.0.1; tests register ``routes[path] = fn(handler, hit)``."""
    server = Server()
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


# Hypothesis profiles of the fuzz suite (test_fuzz.py), chosen by WHR_FUZZ_PROFILE:
# "ci" (default): derandomized, so every run tries the same cases, within the suite's time;
# "nightly": thousands of random cases per test, failures kept in .hypothesis/ to replay.
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True, database=None)
settings.register_profile("nightly", max_examples=3000, deadline=None)
settings.load_profile(os.environ.get("WHR_FUZZ_PROFILE", "ci"))
