"""A source URL's secrets (credentials, a query string) never reach a table, a message or a
report; ``env:NAME`` sources; redirects that would reach this machine. A real HTTP server on
127.0.0.1, no mocks."""

from __future__ import annotations

import pyarrow as pa
import pytest
from sources_support import FIXTURES, Server, fast, send

import whr
from whr.params import SecretSourceError, public_source
from whr.sources import pull

BASIC = (FIXTURES / "basic.rif").read_bytes()

SECRET = "s3cr3t-T0KEN"


def guarded(http_server: Server, path: str, body: bytes = BASIC, fail_first: int = 0) -> str:
    """Serve ``body`` at ``path`` only with ``?token=SECRET`` (403 otherwise), after
    ``fail_first`` answers 503; return the URL with the token."""

    def route(handler, hit):
        if hit <= fail_first:
            handler.send_error(503, "busy")
        else:
            send(handler, body)

    http_server.routes[f"{path}?token={SECRET}"] = route
    return http_server.url(f"{path}?token={SECRET}")


def strings(data: whr.SourceData) -> str:
    """Every text value of every table read, and the inputs' names, as one string."""
    out = [name for name, _ in data.inputs]
    for frame in (data.players, data.tournaments, data.games, data.problems):
        table = pa.Table.from_pandas(frame, preserve_index=False)
        for column in table.columns:
            if pa.types.is_string(column.type):
                out += [v for v in column.to_pylist() if v]
    return "\n".join(out)


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("https://host/db.rif?token=X", "https://host/db.rif?[hidden]"),
        ("https://u:pw@host:8443/a/db.rif?k=1&t=2#frag", "https://host:8443/a/db.rif?[hidden]"),
        ("http://host/db.rif#part", "http://host/db.rif"),
        ("http://host/db.rif", "http://host/db.rif"),
        ("data/sample", "data/sample"),
    ],
)
def test_the_public_form_of_a_source_has_no_credentials_and_no_query(source, shown):
    assert public_source(source) == shown


def test_a_token_url_is_read_and_named_without_its_token(http_server):
    url = guarded(http_server, "/db/renjunet_v10_20250301.rif")
    data = whr.read_source(url)
    assert len(data.games) > 0
    named = strings(data)
    assert SECRET not in named
    assert f"{public_source(url)}" in named and "?[hidden]" in public_source(url)


def test_failed_attempts_are_reported_without_the_token_even_when_one_succeeds(
    http_server, tmp_path
):
    url = guarded(http_server, "/flaky.rif", fail_first=2)
    told: list[str] = []
    path = pull(url, tmp_path, None, fast(retries=2), report=told.append)
    assert path.read_bytes() == BASIC
    assert len(told) == 2  # the two failures before the success
    assert all("HTTP 503" in line and "attempt" in line for line in told)
    assert "attempt 2 of 3" in told[0] and "attempt 3 of 3" in told[1]
    assert not any(SECRET in line for line in told)


def test_a_download_that_fails_for_good_never_prints_the_token(http_server, tmp_path):
    url = http_server.url(f"/missing.rif?token={SECRET}")  # 404
    with pytest.raises(whr.SourceError) as info:
        pull(url, tmp_path, None, fast(retries=0))
    assert "HTTP 404" in str(info.value) and SECRET not in str(info.value)
    down = http_server.url(f"/down.rif?token={SECRET}")
    http_server.routes[f"/down.rif?token={SECRET}"] = lambda h, n: h.send_error(500, SECRET)
    with pytest.raises(whr.SourceError) as info:
        pull(down, tmp_path, None, fast(retries=1))
    assert "after 2 attempts" in str(info.value) and SECRET not in str(info.value)
    unreachable = f"http://127.0.0.1:9/renjunet_v10_20250301.rif?token={SECRET}"
    with pytest.raises(whr.SourceError) as info:
        pull(unreachable, tmp_path, None, fast(retries=0))
    assert "cannot connect" in str(info.value) and SECRET not in str(info.value)


@pytest.mark.parametrize(
    "url",
    [
        f"http://reader:{SECRET}@127.0.0.1:9/renjunet_v10_20250301.rif",
        f"http://reader:{SECRET}@127.0.0.1:notaport/renjunet_v10_20250301.rif",
        f"http://127.0.0.1:9/db.rif?token={SECRET}\nHost: elsewhere",
    ],
)
def test_credentials_and_control_characters_are_refused_before_connecting(url, tmp_path):
    with pytest.raises(SecretSourceError) as info:
        pull(url, tmp_path, None, fast(retries=0))
    assert SECRET not in str(info.value)
    with pytest.raises(SecretSourceError) as info:
        whr.read_source(url)
    assert SECRET not in str(info.value)


def test_an_env_source_is_the_url_of_its_variable(http_server, tmp_path, monkeypatch):
    url = guarded(http_server, "/db/renjunet_v10_20250301.rif")
    monkeypatch.setenv("RIF_TEST_SOURCE", url)
    path = pull("env:RIF_TEST_SOURCE", tmp_path, None, fast())
    assert path.read_bytes() == BASIC
    data = whr.read_source("env:RIF_TEST_SOURCE")
    assert SECRET not in strings(data) and len(data.games) > 0
    monkeypatch.delenv("RIF_TEST_SOURCE")
    with pytest.raises(SecretSourceError, match="RIF_TEST_SOURCE is not set"):
        pull("env:RIF_TEST_SOURCE", tmp_path, None, fast())
    with pytest.raises(SecretSourceError, match="expected env:NAME"):
        pull("env:not a name", tmp_path, None, fast())


def test_a_redirect_to_another_port_of_this_machine_is_refused(http_server, tmp_path):
    other = Server()  # a second service on 127.0.0.1, which the source does not name
    try:

        def redirect(handler, hit):
            handler.send_response(302)
            handler.send_header("Location", other.url(f"/db.rif?token={SECRET}"))
            handler.send_header("Content-Length", "0")
            handler.end_headers()

        http_server.routes["/moved.rif"] = redirect
        with pytest.raises(whr.SourceError) as info:
            pull(http_server.url("/moved.rif"), tmp_path, None, fast(retries=2))
        message = str(info.value)
        assert "an address of this machine or its local network" in message
        assert f"127.0.0.1:{other.server_address[1]}/db.rif?[hidden]" in message
        assert SECRET not in message
        assert http_server.hits["/moved.rif"] == 1  # refused, not retried
    finally:
        other.server_close()
