"""The real flow under Prefect on the bundled sample: publish, rerun, force, flaky and dead sources.

One temporary Prefect server for the session (``prefect_server``) and one published output
directory for the module; five flow runs in all (two end early as "No new data").
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import http.server
import json
import os
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import whr

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"

pytestmark = pytest.mark.flow

TABLES = ("ratings", "history", "games", "players", "tournaments", "exclusions")


def sample_date() -> dt.date:
    """The date in the name of the newest bundled database file (the list date of the tests)."""
    days = [
        dt.datetime.strptime(m.group(1), "%Y%m%d").date()
        for p in SAMPLE.iterdir()
        if (m := re.search(r"_(\d{8})\.", p.name))
    ]
    assert days, f"no dated database file in {SAMPLE}"
    return max(days)


def sample_file() -> Path:
    day = sample_date().strftime("%Y%m%d")
    return next(p for p in SAMPLE.iterdir() if f"_{day}." in p.name)


def tree(root: Path) -> dict[str, str]:
    """Every file under ``root`` with its sha256 (to show that nothing was touched)."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def first_run(prefect_server: None, tmp_path_factory: pytest.TempPathFactory) -> dict:
    from flows import daily

    out = tmp_path_factory.mktemp("out")
    summary = tmp_path_factory.mktemp("gh") / "step_summary.md"
    os.environ["GITHUB_STEP_SUMMARY"] = str(summary)
    try:
        state = daily.daily(source=[str(SAMPLE)], out=out, as_of=sample_date(), return_state=True)
    finally:
        del os.environ["GITHUB_STEP_SUMMARY"]
    return {"state": state, "out": out, "summary": summary}


def test_published_snapshot(first_run: dict) -> None:
    state, out = first_run["state"], first_run["out"]
    assert state.is_completed() and state.name == "Completed", state.message
    snapshot = out / "snapshots" / sample_date().isoformat()
    assert Path(state.result()) == snapshot
    assert json.loads((out / "latest.json").read_text())["snapshot"] == f"snapshots/{snapshot.name}"

    # Tables present, and the manifest's checksums and row counts match the files.
    manifest = json.loads((snapshot / "manifest.json").read_text())
    for name in TABLES:
        assert (snapshot / f"{name}.parquet").is_file(), name
    assert {p.name for p in snapshot.glob("*.parquet")} <= set(manifest["files"])
    for name, entry in manifest["files"].items():
        assert sha256(snapshot / name) == entry["sha256"], name
        assert pq.read_metadata(snapshot / name).num_rows == entry["rows"], name

    # Counts add up: every game read is rated or excluded (read independently of the flow).
    data = whr.read_source(SAMPLE, as_of=sample_date())
    games = pd.read_parquet(snapshot / "games.parquet")
    exclusions = pd.read_parquet(snapshot / "exclusions.parquet")
    assert len(games) + len(exclusions) == len(data.games)
    assert set(games["game_id"]) | set(exclusions["game_id"]) == set(data.games["game_id"])
    # The inputs: the database and the tournament facts beside it; the combined digest is the
    # sha256 of their sorted "name<TAB>sha256" lines (whr.tables.SourceData.sha256).
    inputs = sorted([sample_file(), SAMPLE / "tournament_facts.csv"])
    assert manifest["inputs"] == [{"name": p.name, "sha256": sha256(p)} for p in inputs]
    lines = "".join(f"{p.name}\t{sha256(p)}\n" for p in inputs)
    assert manifest["inputs_sha256"] == hashlib.sha256(lines.encode()).hexdigest()
    ratings = pd.read_parquet(snapshot / "ratings.parquet")
    assert ratings["games"].sum() == 2 * len(games)  # each rated game counts for both sides
    assert set(ratings["player"]) == set(games["black"]) | set(games["white"])
    assert set(ratings["status"]) <= {"active", "inactive", "provisional"}

    # The home page exists and shows the best-ranked player.
    home = (snapshot / "site" / "index.html").read_text(encoding="utf-8")
    best = ratings.sort_values("rank").iloc[0]["name"]
    assert html.escape(best) in home

    # The run summary went to $GITHUB_STEP_SUMMARY, with the counts of the published tables.
    text = first_run["summary"].read_text(encoding="utf-8")
    assert f"| read | {len(data.games)} |" in text and f"| rated | {len(games)} |" in text
    for reason, n in exclusions["reason"].value_counts().items():
        assert f"| excluded: {reason.replace('_', chr(92) + '_')} | {n} |" in text
    assert f"| total | {len(ratings)} |" in text and sha256(sample_file()) in text


def test_summary_artifact(first_run: dict) -> None:
    from prefect.artifacts import Artifact

    artifact = Artifact.get("rating-run-summary")
    assert artifact is not None and artifact.type == "markdown"
    assert "## Players by status" in artifact.data


def test_rerun_with_same_input_is_no_new_data(first_run: dict) -> None:
    from flows import daily

    out = first_run["out"]
    before = tree(out)
    state = daily.daily(source=[str(SAMPLE)], out=out, as_of=sample_date(), return_state=True)
    assert state.is_completed() and state.name == daily.NO_NEW_DATA
    assert "no new data" in state.message
    assert tree(out) == before  # nothing published, latest.json untouched


def test_force_republishes_identical_tables(first_run: dict) -> None:
    from flows import daily

    snapshot = first_run["out"] / "snapshots" / sample_date().isoformat()
    before = {name: pd.read_parquet(snapshot / f"{name}.parquet") for name in TABLES}
    manifest = json.loads((snapshot / "manifest.json").read_text())
    state = daily.daily(
        source=[str(SAMPLE)],
        out=first_run["out"],
        as_of=sample_date(),
        force=True,
        return_state=True,
    )
    assert state.is_completed() and state.name == "Completed", state.message
    republished = json.loads((snapshot / "manifest.json").read_text())
    assert republished["created"] >= manifest["created"]
    for name in TABLES:
        pd.testing.assert_frame_equal(pd.read_parquet(snapshot / f"{name}.parquet"), before[name])


class _Flaky(http.server.BaseHTTPRequestHandler):
    """Serves the sample database, answering 503 to the first ``failures`` requests."""

    body = b""
    failures = 0
    requests: list[int] = []

    def do_GET(self) -> None:
        type(self).requests.append(1)
        if len(self.requests) <= self.failures:
            self.send_error(503, "try later")
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def flaky_server() -> Iterator[tuple[str, type[_Flaky]]]:
    handler = type("Handler", (_Flaky,), {"body": sample_file().read_bytes(), "failures": 2})
    handler.requests = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/{sample_file().name}", handler
    finally:
        server.shutdown()
        server.server_close()


def test_source_failing_twice_is_retried(
    prefect_server: None, flaky_server: tuple, tmp_path: Path
) -> None:
    from flows import daily

    url, handler = flaky_server
    state = daily.daily(
        source=url,
        out=tmp_path,
        as_of=sample_date(),
        pull_retries=2,
        pull_backoff_s=0.05,
        return_state=True,
    )
    assert len(handler.requests) == 3
    assert state.is_completed() and state.name == "Completed", state.message
    manifest = json.loads((Path(state.result()) / "manifest.json").read_text())
    assert manifest["inputs_sha256"] == sha256(sample_file())  # the database as served


@pytest.fixture
def silent_server() -> Iterator[str]:
    """Accepts connections (the kernel completes them) and never answers."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/renjunet_v10_20261130.rif"
    finally:
        sock.close()


def test_source_never_answering_fails_and_keeps_the_snapshot(
    first_run: dict, silent_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows import daily

    out = first_run["out"]
    before = tree(out)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    state = daily.daily(
        source=silent_server,
        out=out,
        as_of=sample_date() + dt.timedelta(days=1),
        force=True,
        pull_timeout_s=0.5,
        pull_retries=1,
        pull_backoff_s=0.05,
        return_state=True,
    )
    assert state.is_failed()
    assert silent_server in state.message and "untouched" in state.message
    assert "2 attempts" in state.message
    assert tree(out) == before
    failure = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert failure.startswith("# Rating run failed") and "127.0.0.1" in failure
