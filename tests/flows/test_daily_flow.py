"""The real flow under Prefect on the bundled sample: every category, rerun, force, flaky and
dead sources, and the published tree tried as its users would (served over HTTP).

One temporary Prefect server for the session (``prefect_server``) and one published tree for the
first tests of the module.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest

import whr
from whr.params import FitParams, PullSettings
from whr.run import Run

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
        if p.is_file() and p.name != ".lock"  # the lock says who ran last, nothing published
    }


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def entry(out: Path, day: dt.date, key: str = "renju") -> Path:
    return out / "archive" / key / day.isoformat()


def pointer(out: Path, key: str = "renju") -> dict:
    return json.loads((out / key / "latest.json").read_text(encoding="utf-8"))


def lists_of(state) -> dict:
    """The outcome of each list of a flow run (the state's data)."""
    return state.result(raise_on_failure=False)["lists"]


@pytest.fixture(scope="module")
def first_run(prefect_server: None, tmp_path_factory: pytest.TempPathFactory) -> dict:
    from flows import pipeline

    out = tmp_path_factory.mktemp("out")
    summary = tmp_path_factory.mktemp("gh") / "step_summary.md"
    os.environ["GITHUB_STEP_SUMMARY"] = str(summary)
    try:
        state = pipeline.daily(
            Run(sources=(str(SAMPLE),), out=out, as_of=sample_date()), return_state=True
        )
    finally:
        del os.environ["GITHUB_STEP_SUMMARY"]
    return {"state": state, "out": out, "summary": summary}


def test_every_category_is_published(first_run: dict) -> None:
    state, out = first_run["state"], first_run["out"]
    day = sample_date()
    assert state.is_completed() and state.name == "Completed", state.message
    assert {k: v["outcome"] for k, v in lists_of(state).items()} == {
        "renju": "published",
        "gomoku": "published",
    }
    for key in ("renju", "gomoku"):
        assert pointer(out, key)["date"] == day.isoformat()
        assert pointer(out, key)["archive"] == f"archive/{key}/{day.isoformat()}/"
        assert (out / key / "index.html").is_file()
        manifest = json.loads((entry(out, day, key) / "manifest.json").read_text())
        assert manifest["parameters"]["category"] == key and manifest["list"]["variant"] is None
    index = json.loads((out / "published.json").read_text())
    assert [(x["category"], x["latest"]) for x in index["lists"]] == [
        ("renju", day.isoformat()),
        ("gomoku", day.isoformat()),
    ]


def test_published_renju_tables(first_run: dict) -> None:
    out = first_run["out"]
    snapshot = entry(out, sample_date())

    # Tables present, and the manifest's checksums and row counts match the files.
    manifest = json.loads((snapshot / "manifest.json").read_text())
    for name in TABLES:
        assert (snapshot / f"{name}.parquet").is_file(), name
    assert {p.name for p in snapshot.glob("*.parquet")} <= set(manifest["files"])
    for name, info in manifest["files"].items():
        assert sha256(snapshot / name) == info["sha256"], name
        if name.endswith(".parquet"):
            assert pq.read_metadata(snapshot / name).num_rows == info["rows"], name
    needed = pd.read_csv(snapshot / "facts_needed.csv")
    assert len(needed) == manifest["files"]["facts_needed.csv"]["rows"]
    assert list(needed.columns[-3:]) == ["minutes", "mode", "note"]
    assert pointer(out)["manifest_sha256"] == sha256(snapshot / "manifest.json")

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
    assert sha256(out / "renju" / "ratings.parquet") == sha256(snapshot / "ratings.parquet")

    # The home page exists; its rows are drawn from the site's data, which has the best player.
    home = (out / "renju" / "index.html").read_text(encoding="utf-8")
    assert "Renju world rating list" in home
    best = ratings.sort_values("rank").iloc[0]["name"]
    (players,) = (out / "renju" / "data").glob("players.*.js")
    assert json.dumps(best, ensure_ascii=False) in players.read_text(encoding="utf-8")

    # The run summary went to $GITHUB_STEP_SUMMARY, with the counts of the published tables.
    text = first_run["summary"].read_text(encoding="utf-8")
    renju = text[text.index("# renju list") : text.index("# gomoku list")]
    byes = int((exclusions["reason"] == "bye").sum())  # rounds without a game, counted apart
    assert byes and f"| byes (rounds without a game, not counted above) | {byes} |" in renju
    assert f"| read | {len(data.games) - byes} |" in renju and f"| rated | {len(games)} |" in renju
    for reason, n in exclusions.loc[exclusions["reason"] != "bye", "reason"].value_counts().items():
        assert f"| excluded: {reason.replace('_', chr(92) + '_')} | {n} |" in renju
    assert f"| total | {len(ratings)} |" in renju and sha256(sample_file()) in renju


def test_summary_artifact(first_run: dict) -> None:
    from prefect.artifacts import Artifact

    artifact = Artifact.get("rating-run-summary")
    assert artifact is not None and artifact.type == "markdown"
    assert "## Players by status" in artifact.data


def test_task_runs_are_named_after_their_list(first_run: dict) -> None:
    from prefect import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    flow_run = first_run["state"].state_details.flow_run_id
    with get_client(sync_client=True) as client:
        runs = client.read_task_runs(
            flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run]))
        )
    names = {run.name for run in runs}
    lists = {
        f"{step}-{key}" for step in ("validate", "rate", "publish") for key in ("renju", "gomoku")
    }
    assert lists <= names, sorted(names)


def test_rerun_with_same_input_is_no_new_data(first_run: dict) -> None:
    from flows import pipeline

    out = first_run["out"]
    before = tree(out)
    state = pipeline.daily(
        Run(sources=(str(SAMPLE),), out=out, as_of=sample_date()), return_state=True
    )
    assert state.is_completed() and state.name == "No new data", state.message
    for outcome in lists_of(state).values():
        assert outcome["outcome"] == "no-new-data" and "--force REASON" in outcome["message"]
    assert tree(out) == before  # nothing published, pointers untouched


def test_force_republishes_identical_tables(first_run: dict) -> None:
    from flows import pipeline

    snapshot = entry(first_run["out"], sample_date())
    before = {name: pd.read_parquet(snapshot / f"{name}.parquet") for name in TABLES}
    manifest = json.loads((snapshot / "manifest.json").read_text())
    run = Run(
        sources=(str(SAMPLE),),
        out=first_run["out"],
        as_of=sample_date(),
        categories=("renju",),
        force="the test republishes",
    )
    state = pipeline.daily(run, return_state=True)
    assert state.is_completed() and state.name == "Completed", state.message
    republished = json.loads((snapshot / "manifest.json").read_text())
    assert republished["created"] >= manifest["created"]
    said = f"no new data: the input and parameters equal those of {sample_date()}"
    assert republished["forced"] == {"reason": "the test republishes", "overrode": [said]}
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
    from flows import pipeline

    url, handler = flaky_server
    run = Run(
        sources=(url,),
        out=tmp_path,
        as_of=sample_date(),
        categories=("renju",),
        pull=PullSettings(retries=2, backoff_s=0.05),
    )
    state = pipeline.daily(run, return_state=True)
    assert len(handler.requests) == 3
    assert state.is_completed() and state.name == "Completed", state.message
    manifest = json.loads((entry(tmp_path, sample_date()) / "manifest.json").read_text())
    assert manifest["inputs_sha256"] == sha256(sample_file())  # the database as served


def test_a_url_with_a_secret_is_refused_as_a_flow_parameter(
    prefect_server: None, tmp_path: Path
) -> None:
    from flows import pipeline

    url = "http://127.0.0.1:9/renjunet_v10_20261130.rif?token=T0KEN"
    run = Run(sources=(url,), out=tmp_path / "out", as_of=sample_date())
    state = pipeline.daily(run, return_state=True)
    assert state.is_failed()
    assert "env:NAME" in state.message and "stored by Prefect" in state.message
    assert "?[hidden]" in state.message and "T0KEN" not in state.message
    assert not (tmp_path / "out").exists()


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


def test_source_never_answering_fails_and_publishes_nothing(
    first_run: dict, silent_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows import pipeline

    out = first_run["out"]
    before = tree(out)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    run = Run(
        sources=(silent_server,),
        out=out,
        as_of=sample_date() + dt.timedelta(days=1),
        force="the test forces a new day",
        pull=PullSettings(timeout_s=0.5, retries=1, backoff_s=0.05),
    )
    state = pipeline.daily(run, return_state=True)
    assert state.is_failed()
    assert silent_server in state.message and "2 attempts" in state.message
    assert tree(out) == before
    failure = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert failure.startswith("# Rating run failed") and "127.0.0.1" in failure


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A published tree served by a real HTTP server on 127.0.0.1 (as a static host would)."""
    out = tmp_path / "out"
    out.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(out), **kwargs)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield out, f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def get(url: str) -> tuple[int, str]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, ""


def test_a_week_of_use_addresses_never_die(prefect_server: None, served: tuple) -> None:
    """Two daily runs (D, D+1), then a gomoku-only and a named-variant run on D+1, all served
    over HTTP: yesterday's addresses answer with today's list, D's archive answers, and the
    official renju list was never replaced."""
    from flows import pipeline

    out, base = served
    day, next_day = sample_date(), sample_date() + dt.timedelta(days=1)

    def run(as_of: dt.date, **options: Any) -> dict:
        state = pipeline.daily(
            Run(sources=(str(SAMPLE),), out=out, as_of=as_of, **options), return_state=True
        )
        assert state.is_completed(), state.message
        return lists_of(state)

    run(day)
    status, root = get(base)
    assert status == 200 and 'url=renju/index.html"' in root
    player = sorted((out / "renju" / "p").glob("*.html"))[0].name
    tournament = sorted((out / "renju" / "tournaments").glob("*.html"))[0].name
    addresses = [f"renju/p/{player}", f"renju/tournaments/{tournament}", "renju/index.html"]
    for address in addresses:
        assert get(base + address)[0] == 200, address

    assert run(next_day, categories=("renju",))["renju"]["outcome"] == "published"
    official = pointer(out)
    assert run(next_day, categories=("gomoku",))["gomoku"]["outcome"] == "published"
    variant = run(next_day, variant="w2-19", fit=FitParams(w2_elo2_per_day=19.3))
    assert {v["outcome"] for v in variant.values()} == {"published"}

    for address in addresses:  # yesterday's addresses answer, and show the new day
        status, text = get(base + address)
        assert status == 200 and next_day.isoformat() in text, address
    status, archived = get(base + f"archive/renju/{day.isoformat()}/index.html")
    assert status == 200 and f"{day.day} {day:%B %Y}" in archived
    index = json.loads(get(base + "published.json")[1])
    renju = next(x for x in index["lists"] if x["category"] == "renju" and x["variant"] is None)
    assert [d["date"] for d in renju["days"]] == [next_day.isoformat(), day.isoformat()]
    past = next(d for d in renju["days"] if d["date"] == day.isoformat())
    assert get(base + past["list"])[0] == 200 and get(base + past["manifest"])[0] == 200
    # the official renju list was never replaced by the gomoku or the variant run
    assert pointer(out) == official
    manifest = json.loads(get(base + official["archive"] + "manifest.json")[1])
    assert manifest["parameters"]["w2_elo2_per_day"] == 12.9 and manifest["list"]["variant"] is None
    assert pointer(out, "variants/w2-19/renju")["date"] == next_day.isoformat()
    assert get(base + "variants/w2-19/renju/index.html")[0] == 200


def test_one_list_failing_does_not_stop_the_other(prefect_server: None, tmp_path: Path) -> None:
    """Rules that force every gomoku tournament out: the gomoku list is refused (no rated
    games), is reported, and publishes nothing; the renju list still publishes."""
    from flows import pipeline
    from whr.run import bundled_rules

    rules = tmp_path / "rules"
    shutil.copytree(bundled_rules(), rules)
    tournaments = whr.read_source(SAMPLE, as_of=sample_date()).tournaments
    gomoku = tournaments.loc[tournaments["category"] == "gomoku", "tournament_id"]
    assert len(gomoku)
    with open(rules / "unrated_tournaments", "a", encoding="utf-8") as handle:
        handle.writelines(f"{t}  # the test takes gomoku out\n" for t in gomoku)
    out = tmp_path / "out"
    run = Run(
        sources=(str(SAMPLE),), out=out, as_of=sample_date(), variant="no-gomoku", rules=rules
    )
    state = pipeline.daily(run, return_state=True)
    assert state.is_failed()
    lists = lists_of(state)
    assert lists["renju"]["outcome"] == "published"
    assert lists["gomoku"]["outcome"] == "failed" and "no rated games" in lists["gomoku"]["message"]
    assert (out / "variants" / "no-gomoku" / "renju" / "index.html").is_file()
    assert not (out / "variants" / "no-gomoku" / "gomoku").exists()
    assert not (out / "archive" / "variants" / "no-gomoku" / "gomoku").exists()


KILLED_FLOW = """
import os, signal, sys
from flows import pipeline
from whr.publish import commit
from whr.run import Run

def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

commit.swap = die  # between the commit of the day and the switch of the site
run = Run(sources=(sys.argv[1],), out=sys.argv[2], as_of=__import__("datetime").date.fromisoformat(sys.argv[3]), categories=("renju",))
pipeline.execute(run)
"""


def test_a_flow_killed_mid_publish_is_repaired_by_the_next_run(
    prefect_server: None, tmp_path: Path
) -> None:
    """A real flow run, killed with SIGKILL after the day's entry is committed and before the
    site switched; the next ordinary run repairs the site, says so, and has no new data."""
    from prefect.settings import PREFECT_API_URL

    from flows import pipeline

    out, day = tmp_path / "out", sample_date()
    env = {**os.environ, "PREFECT_API_URL": str(PREFECT_API_URL.value())}
    child = subprocess.run(
        [sys.executable, "-c", KILLED_FLOW, str(SAMPLE), str(out), day.isoformat()],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr[-2000:]
    assert (entry(out, day) / "manifest.json").is_file() and not (out / "renju").exists()
    run = Run(sources=(str(SAMPLE),), out=out, as_of=day, categories=("renju",))
    state = pipeline.daily(run, return_state=True)
    assert state.is_completed() and state.name == "No new data", state.message
    repaired = state.result()["repaired"]
    assert any("now shows" in line and day.isoformat() in line for line in repaired), repaired
    assert any(".work-" in line for line in repaired), repaired
    assert pointer(out)["date"] == day.isoformat()
    assert pointer(out)["manifest_sha256"] == sha256(entry(out, day) / "manifest.json")
    assert not [p for p in out.rglob("*") if ".work-" in p.name or p.name.endswith(".tmp")]
