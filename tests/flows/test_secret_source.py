"""A source URL's token never leaves the machine: a real run of the command line against a real
HTTP server on 127.0.0.1 that wants the token, then every published file (Parquet read as
tables), the run's output, its GitHub summary and Prefect's database are searched for it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pyarrow.parquet as pq
import pytest

REPO = Path(__file__).resolve().parents[2]
DATABASE = REPO / "data" / "sample" / "renjunet_v10_20261130.rif"
SECRET = "tok-9f3a77c1e2"
PASSWORD = "pw-0d41be"
D = "2026-11-30"


class _Guarded(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        hits: Counter = self.server.hits  # type: ignore[attr-defined]
        hits[self.path] += 1
        if self.path != f"/db/{DATABASE.name}?token={SECRET}":
            self.send_error(403, "token wanted")
        elif hits[self.path] == 1:  # the first attempt fails: it is retried, and logged
            self.send_error(503, "busy")
        else:
            body = DATABASE.read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Guarded)
    httpd.hits = Counter()  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "flows.daily", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **env},
    )


def found_in_tree(root: Path, secret: str) -> list[str]:
    """Files under ``root`` holding ``secret``: in their bytes, or, for Parquet (compressed),
    in any value or metadata of the table."""
    hits = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if path.suffix == ".parquet":
            table = pq.read_table(path)
            text = str(table.schema.metadata) + str(table.to_pylist())
            if secret in text:
                hits.append(str(path))
        elif secret.encode() in path.read_bytes():
            hits.append(str(path))
    return hits


def test_a_token_in_the_url_is_in_no_file_log_summary_or_prefect_record(
    prefect_server: None, server: ThreadingHTTPServer, tmp_path: Path
) -> None:
    from prefect.settings import PREFECT_API_URL, PREFECT_SERVER_DATABASE_CONNECTION_URL

    database = Path(str(PREFECT_SERVER_DATABASE_CONNECTION_URL.value()).split("///", 1)[1])
    out, summary = tmp_path / "out", tmp_path / "summary.md"
    port = server.server_address[1]
    url = f"http://127.0.0.1:{port}/db/{DATABASE.name}?token={SECRET}"
    env = {
        "PREFECT_API_URL": str(PREFECT_API_URL.value()),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(tmp_path / "github_output"),
    }
    done = cli(
        *("--source", url, "--out", str(out), "--as-of", D, "--retries", "1", "--backoff", "0"),
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert server.hits[f"/db/{DATABASE.name}?token={SECRET}"] == 2  # the token was sent
    shown = f"127.0.0.1:{port}/db/{DATABASE.name}?[hidden]"
    about = (out / "renju" / "about.html").read_text(encoding="utf-8")
    assert shown in about  # the source is named, in its public form
    assert found_in_tree(out, SECRET) == []
    logs = done.stdout + done.stderr
    assert SECRET not in logs
    assert "HTTP 503" in logs and "attempt 2 of 2" in logs  # the failed attempt is logged
    assert summary.is_file() and SECRET not in summary.read_text(encoding="utf-8")
    prefect_files = [p for p in database.parent.glob(database.name + "*") if p.is_file()]
    stored = b"".join(p.read_bytes() for p in prefect_files)
    assert b"env:RIF_RATING_SOURCE_1" in stored  # the flow's parameters, as Prefect keeps them
    assert SECRET.encode() not in stored


def test_credentials_in_a_url_are_refused_at_once_and_never_printed(tmp_path: Path) -> None:
    url = f"http://reader:{PASSWORD}@127.0.0.1:9/{DATABASE.name}"
    done = cli("--source", url, "--out", str(tmp_path / "out"), env={})
    assert done.returncode == 2
    assert "credentials in a URL (user:password@) are refused" in done.stderr
    assert PASSWORD not in done.stdout + done.stderr
    assert not (tmp_path / "out").exists()
