"""Helpers of the sources tests: the fixture directory, quick download settings, and a real
HTTP server on 127.0.0.1."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from whr.params import PullSettings

FIXTURES = Path(__file__).parent / "fixtures"

Route = Callable[[BaseHTTPRequestHandler, int], None]


def fast(**settings: float) -> PullSettings:
    """Download settings for tests: a short timeout and backoff, unless given."""
    return PullSettings(**{"timeout_s": 5.0, "backoff_s": 0.01, **settings})


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        server: Server = self.server  # type: ignore[assignment]
        server.hits[self.path] += 1
        route = server.routes.get(self.path)
        if route is None:
            self.send_error(404, "not found")
            return
        route(self, server.hits[self.path])

    def log_message(self, format: str, *args: object) -> None:
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.routes: dict[str, Route] = {}
        self.hits: Counter[str] = Counter()

    def handle_error(self, request: object, client_address: object) -> None:
        """Stay quiet when a client hangs up early (the size-cap and timeout tests do)."""

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{path}"


def send(handler: BaseHTTPRequestHandler, body: bytes, *, length: int | None = None) -> None:
    """Answer 200 with ``body``, announcing ``length`` bytes (default: the true length)."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/octet-stream")
    handler.send_header("Content-Length", str(len(body) if length is None else length))
    handler.end_headers()
    handler.wfile.write(body)
