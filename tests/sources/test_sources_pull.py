"""pull and read_source over a real HTTP server on 127.0.0.1 (no mocks)."""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import time
import zipfile

import pytest
from sources_support import FIXTURES, fast, send

import whr
from whr.params import PullSettings
from whr.sources import pull

BASIC = (FIXTURES / "basic.rif").read_bytes()


def _files(folder):
    """Every file under ``folder``, as paths relative to it (directories left out)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_download_lands_under_the_urls_file_name_in_a_directory_of_its_own(http_server, tmp_path):
    http_server.routes["/db/renjunet_v10_20250301.rif"] = lambda h, n: send(h, BASIC)
    path = pull(http_server.url("/db/renjunet_v10_20250301.rif"), tmp_path, None, fast())
    assert path.name == "renjunet_v10_20250301.rif"
    assert path.parent.parent == tmp_path and path.parent.name.startswith("pull-")
    assert path.read_bytes() == BASIC
    assert _files(tmp_path) == [f"{path.parent.name}/renjunet_v10_20250301.rif"]  # no .part


def test_server_failing_twice_then_succeeding_is_retried(http_server, tmp_path):
    def flaky(handler, hit):
        if hit <= 2:
            handler.send_error(503, "busy")
        else:
            send(handler, BASIC)

    http_server.routes["/flaky.rif"] = flaky
    path = pull(http_server.url("/flaky.rif"), tmp_path, None, fast(retries=2))
    assert path.read_bytes() == BASIC
    assert http_server.hits["/flaky.rif"] == 3


def test_too_few_retries_fail_with_every_attempt_named(http_server, tmp_path):
    http_server.routes["/flaky.rif"] = lambda h, n: h.send_error(503, "busy")
    with pytest.raises(whr.SourceError) as info:
        pull(http_server.url("/flaky.rif"), tmp_path, None, fast(retries=1))
    message = str(info.value)
    assert "after 2 attempts" in message and "attempt 2: HTTP 503" in message
    assert http_server.hits["/flaky.rif"] == 2
    assert _files(tmp_path) == []


def test_backoff_doubles_between_attempts(http_server, tmp_path):
    http_server.routes["/down.rif"] = lambda h, n: h.send_error(500, "down")
    start = time.monotonic()
    with pytest.raises(whr.SourceError):
        pull(
            http_server.url("/down.rif"),
            tmp_path,
            None,
            PullSettings(retries=2, timeout_s=5.0, backoff_s=0.1),
        )
    # waits of 0.1 s then 0.2 s: at least 0.3 s in all (an upper bound would be a timing test)
    assert time.monotonic() - start >= 0.3


def test_truncated_body_is_retried_and_then_refused(http_server, tmp_path):
    http_server.routes["/cut.rif"] = lambda h, n: send(h, BASIC[:100], length=len(BASIC))
    with pytest.raises(whr.SourceError, match=f"truncated: received 100 of {len(BASIC)} bytes"):
        pull(http_server.url("/cut.rif"), tmp_path, None, fast(retries=1))
    assert http_server.hits["/cut.rif"] == 2
    assert _files(tmp_path) == []


def test_truncated_once_then_complete_succeeds(http_server, tmp_path):
    def once(handler, hit):
        send(handler, BASIC[:100] if hit == 1 else BASIC, length=len(BASIC))

    http_server.routes["/cut.rif"] = once
    path = pull(http_server.url("/cut.rif"), tmp_path, None, fast(retries=1))
    assert path.read_bytes() == BASIC


def test_garbage_is_downloaded_but_refused_when_read(http_server, tmp_path):
    garbage = bytes(range(256)) * 64
    http_server.routes["/renjunet_v10_20250301.rif"] = lambda h, n: send(h, garbage)
    url = http_server.url("/renjunet_v10_20250301.rif")
    with pytest.raises(whr.SourceError) as info:
        whr.read_source(url)
    assert url in str(info.value) and "not a RenjuNet database" in str(info.value)
    assert http_server.hits["/renjunet_v10_20250301.rif"] == 1  # content is not retried


def test_size_cap_announced_by_the_server_is_not_retried(http_server, tmp_path):
    http_server.routes["/big.rif"] = lambda h, n: send(h, BASIC)
    with pytest.raises(whr.SourceError, match="cap of 1000 bytes"):
        pull(http_server.url("/big.rif"), tmp_path, None, fast(max_bytes=1000, retries=3))
    assert http_server.hits["/big.rif"] == 1
    assert _files(tmp_path) == []


def test_size_cap_without_content_length_stops_the_download(http_server, tmp_path):
    def unannounced(handler, hit):
        handler.send_response(200)
        handler.end_headers()  # HTTP/1.0, no Content-Length: the body ends when closed
        handler.wfile.write(BASIC * 20)

    http_server.routes["/stream.rif"] = unannounced
    with pytest.raises(whr.SourceError, match="exceeds the cap of 5000 bytes"):
        pull(http_server.url("/stream.rif"), tmp_path, None, fast(max_bytes=5000))
    assert _files(tmp_path) == []


def test_silent_server_times_out(http_server, tmp_path):
    def silent(handler, hit):
        time.sleep(1.0)
        send(handler, BASIC)

    http_server.routes["/slow.rif"] = silent
    with pytest.raises(whr.SourceError, match=r"no answer within 0.2 s \(timeout_s, --timeout\)"):
        pull(
            http_server.url("/slow.rif"),
            tmp_path,
            None,
            PullSettings(timeout_s=0.2, retries=1, backoff_s=0.0),
        )
    assert _files(tmp_path) == []


def test_not_found_is_not_retried(http_server, tmp_path):
    with pytest.raises(whr.SourceError, match="HTTP 404"):
        pull(http_server.url("/absent.rif"), tmp_path, None, fast(retries=3))
    assert http_server.hits["/absent.rif"] == 1


def test_unreachable_host_is_retried_then_refused(tmp_path):
    # a port nobody listens on: connection refused, a transient failure
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(whr.SourceError, match="after 2 attempts.*cannot connect"):
        pull(f"http://127.0.0.1:{port}/x.rif", tmp_path, None, fast(retries=1))


@pytest.mark.parametrize("container", ["gzip", "zip"])
def test_read_source_over_http_opens_gzip_and_zip(http_server, container):
    if container == "gzip":
        body = gzip.compress(BASIC)
        route = "/renjunet_v10_20250301.rif.gz"
    else:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("renjunet_v10_20250301.rif", BASIC)
        body = buffer.getvalue()
        route = "/renjunet_v10_20250301.zip"
    http_server.routes[route] = lambda h, n: send(h, body)
    url = http_server.url(route)
    data = whr.read_source(url)
    reference = whr.read_source(FIXTURES / "basic.rif")
    assert data.games.drop(columns="source").equals(reference.games.drop(columns="source"))
    assert set(data.games["source"]) == {url}
    assert data.inputs == ((url, hashlib.sha256(body).hexdigest()),)


def test_local_paths_are_returned_as_they_are(tmp_path):
    assert pull(FIXTURES / "basic.rif", tmp_path) == FIXTURES / "basic.rif"
    assert pull(str(FIXTURES), tmp_path) == FIXTURES
    assert _files(tmp_path) == []
    with pytest.raises(whr.SourceError, match="no such file or directory"):
        pull(tmp_path / "absent.rif", tmp_path)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"timeout_s": 0}, ValueError, "timeout_s must be a positive finite number of seconds, got 0.0"),
        ({"deadline_s": float("inf")}, ValueError, "deadline_s must be a positive finite number of seconds, got inf"),
        ({"deadline_s": "60"}, TypeError, "deadline_s must be a real number, got str: '60'"),
        ({"max_bytes": -1}, ValueError, "max_bytes must be an integer >= 1, got -1"),
        ({"max_bytes": 1.5}, TypeError, "max_bytes must be an integer, got float: 1.5"),
        ({"retries": -1}, ValueError, "retries must be an integer >= 0, got -1"),
        ({"retries": True}, TypeError, "retries must be an integer, got bool: True"),
        ({"backoff_s": -2}, ValueError, "backoff_s must be a finite number >= 0, got -2.0"),
    ],
)  # fmt: skip
def test_bad_settings_are_refused_naming_them(tmp_path, kwargs, error, words):
    with pytest.raises(error) as info:
        PullSettings(**kwargs)
    assert words in str(info.value)
    with pytest.raises(TypeError, match="settings must be a whr.params.PullSettings"):
        pull(FIXTURES / "basic.rif", tmp_path, None, kwargs)  # type: ignore[arg-type]


def test_workdir_is_created(http_server, tmp_path):
    http_server.routes["/a.rif"] = lambda h, n: send(h, BASIC)
    target = tmp_path / "deep" / "er"
    path = pull(http_server.url("/a.rif"), target, None, fast())
    assert path.parent.parent == target and os.path.isfile(path)
