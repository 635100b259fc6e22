"""Fixtures of the sources tests: a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
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
