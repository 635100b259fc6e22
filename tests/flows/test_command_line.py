"""The command line: it answers at once, in one line, with documented exit statuses.

Usage errors are checked in real subprocesses, which must not import Prefect (nor pandas):
``python -X importtime`` lists every module a process imported. The runs that publish use the
session's Prefect server (``PREFECT_API_URL``), so they do not start one each.
"""

from __future__ import annotations

import datetime as dt
import inspect
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from flows import daily
from tests.processes import alive
from whr.params import FitParams, PullSettings, ReadLimits
from whr.run import Run

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sample"
D = "2026-11-30"


def cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 600
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "flows.daily", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def imported(stderr: str) -> set[str]:
    """Top-level packages a process imported, from ``-X importtime``'s report on stderr."""
    return {
        m.group(1).split(".")[0] for m in re.finditer(r"^import time:.*\|\s+(\S+)$", stderr, re.M)
    }


def messages(stderr: str) -> list[str]:
    """stderr without ``-X importtime``'s report."""
    return [line for line in stderr.splitlines() if not line.startswith("import time:")]


def test_help_answers_without_importing_prefect() -> None:
    done = cli("--help")
    assert done.returncode == 0
    assert "--variant" in done.stdout and "Exit status" in done.stdout
    modules = imported(done.stderr)
    assert "whr" in modules and "prefect" not in modules and "pandas" not in modules


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--source", str(SAMPLE), "--w2", "-1"], "--w2: w2_elo2_per_day must be a positive"),
        (["--source", "/nonexistent"], "--source: source: /nonexistent does not exist"),
        (
            ["--source", str(SAMPLE), "--retries", "-1"],
            "--retries: retries must be an integer >= 0",
        ),
        (
            ["--source", str(SAMPLE), "--virtual-games", "0"],
            "--virtual-games: virtual_games must be",
        ),
        (["--source", str(SAMPLE), "--as-of", "9999-12-31"], "later than tomorrow"),
        (  # --force overrides the gates it names, never the list date
            ["--source", str(SAMPLE), "--as-of", "2400-12-31", "--force", "why"],
            "--force does not change that",
        ),
        (["--source", str(SAMPLE), "--max-name-chars", "3"], "max_name_chars 3 (official 200"),
        (
            ["--source", str(SAMPLE), "--max-players", "0"],
            "--max-players: max_players must be an integer >= 1, got 0",
        ),
        (["--source", "env:RIF_TEST_UNSET_SOURCE"], "RIF_TEST_UNSET_SOURCE is not set"),
        (["--source", str(SAMPLE), "--as-of", "30.11.2026"], "expected a date YYYY-MM-DD"),
        (["--source", str(SAMPLE), "--w2", "19.3"], "--variant NAME"),
        (["--source", str(SAMPLE), "--strict"], "--variant NAME"),
        (["--source", str(SAMPLE), "--variant", "Bad Name"], "variant: expected a name"),
        (
            ["--source", str(SAMPLE), "--max-shrink", "2"],
            "--max-shrink: max_shrink must be a fraction between 0 and 1",
        ),
        (
            ["--source", str(SAMPLE), "--max-value-chars", "0"],
            "--max-value-chars: max_value_chars must be an integer >= 1",
        ),
        (["--source", str(SAMPLE), "--retries", "x"], "argument --retries: invalid int value"),
        (
            ["--source", str(SAMPLE), "--deadline", "0"],
            "--deadline: deadline_s must be a positive finite number of seconds",
        ),
        (["--source", str(SAMPLE), "--rules", "/tmp"], "eligibility.toml"),
        (["--source", str(SAMPLE), "--bogus"], "unrecognized arguments: --bogus"),
        (
            ["--source", str(SAMPLE), "--base-url", "https://r.example.org:99999/"],
            "--base-url: base_url https://r.example.org:99999/: the port must be a number from 1 "
            "to 65535, got '99999'",
        ),
        (
            ["--source", str(SAMPLE), "--base-url", "https://r.example.org/\u202e/"],
            "--base-url: base_url https://r.example.org/\\u202e/ contains U+202E (RIGHT-TO-LEFT "
            "OVERRIDE): a public address has no blanks, control, invisible or bidirectional",
        ),
        (
            ["--source", str(SAMPLE), "--base-url", "https://r.example.org/a%00b/"],
            "--base-url: base_url https://r.example.org/a%00b/: its %XX escapes stand for U+0000",
        ),
        (
            ["--source", str(SAMPLE), "--base-url", "https://x..org/"],
            "--base-url: base_url https://x..org/: the host 'x..org' is not a host name: it has "
            "an empty label (two dots)",
        ),
        (
            ["--source", str(SAMPLE), "--base-url", "https://-x.org/"],
            "--base-url: base_url https://-x.org/: the host '-x.org' is not a host name: '-x' "
            "is not a label",
        ),
        (
            ["--source", str(SAMPLE), "--base-url", "https://999.999.999.999/"],
            "--base-url: base_url https://999.999.999.999/: the host '999.999.999.999' is not "
            "an IPv4 address",
        ),
        ([], "the following arguments are required: --source"),
    ],
)
def test_bad_arguments_exit_2_with_one_line_before_prefect(args: list[str], says: str) -> None:
    done = cli(*args)
    assert done.returncode == 2
    lines = messages(done.stderr)
    assert len(lines) == 1 and lines[0].startswith("rif-rating: error: "), lines
    assert says in lines[0]
    assert "prefect" not in imported(done.stderr) and "pandas" not in imported(done.stderr)


def test_a_base_url_with_a_nul_is_refused_naming_it() -> None:
    """A NUL cannot come through the command line, but through a deployment's parameters or
    the library: refused, and written as an escape in the message."""
    from whr.run import RunError

    with pytest.raises(RunError) as info:
        Run(sources=("x",), base_url="https://r.example.org/a\x00b/")
    assert str(info.value) == (
        "base_url https://r.example.org/a\\x00b/ contains U+0000 (a control character): a public "
        "address has no blanks, control, invisible or bidirectional characters"
    )


def test_a_rules_copy_equal_to_the_bundled_rules_is_official(tmp_path: Path) -> None:
    import shutil

    from whr.run import bundled_rules

    shutil.copytree(bundled_rules(), tmp_path / "rules")
    run = daily.run_of(
        daily.parser().parse_args(["--source", str(SAMPLE), "--rules", str(tmp_path / "rules")])
    )
    run.check_local()  # no variant needed: the same files
    (tmp_path / "rules" / "rated_tournaments").write_text("123\n", encoding="utf-8")
    with pytest.raises(ValueError, match="--variant NAME"):
        run.check_local()


def test_a_past_day_can_be_any_day_a_game_can_be_rated() -> None:
    """The complete history is rated (from 1899, eligibility.toml's first_rated_day), so a past
    day as early as that can be rerun; before it no game can be rated."""
    import datetime as dt

    from whr.rules import default_directory, load_config
    from whr.run import RunError

    first = load_config(default_directory()).first_rated_day
    assert Run(sources=("x",), out="out", as_of=first).as_of == dt.date(1899, 1, 1)
    with pytest.raises(RunError, match="as_of: expected a date from 1899-01-01 on"):
        Run(sources=("x",), out="out", as_of=first - dt.timedelta(days=1))


def test_the_command_line_is_derived_from_the_run() -> None:
    """Every flagged field of the run is an option with its help, and the defaults are the
    fields' own: no option given is the run of the defaults; each option changes the run."""
    from whr.params import declared

    flagged = {f.metadata["flag"]: path for path, f, _ in declared(Run) if f.metadata["flag"]}
    actions = {a.option_strings[0]: a for a in daily.parser()._actions if a.option_strings}
    assert set(flagged) == set(actions) - {"-h", "--dask", "--verbose", "--verify"}
    for flag, path in flagged.items():
        assert actions[flag].dest == path and len(actions[flag].help or "") > 40, flag
    parsed = daily.run_of(daily.parser().parse_args(["--source", "x", "--as-of", D]))
    assert parsed == Run(sources=("x",), as_of=dt.date.fromisoformat(D), as_of_given=True)
    # the date read off the clock, not given: a list long after its database is refused then
    assert not daily.run_of(daily.parser().parse_args(["--source", "x"])).as_of_given
    assert parsed.fit == FitParams() and parsed.pull == PullSettings()
    assert parsed.limits == ReadLimits() and parsed.out == Path("out")
    assert parsed.categories == ("renju", "gomoku") and parsed.max_shrink == 0.05
    # every option of the command line reaches the run: change each, and the run changes
    base = ["--source", "x", "--as-of", D, "--variant", "v"]
    named = daily.run_of(daily.parser().parse_args(base))
    changed = {
        "--source": ["y"], "--as-of": ["2026-11-01"],
        "--out": ["elsewhere"], "--category": ["gomoku"], "--variant": ["w"], "--w2": ["19"],
        "--virtual-games": ["3"], "--rules": [str(REPO / "tests")], "--force": ["why"],
        "--max-shrink": ["0.2"], "--max-players": ["5"], "--timeout": ["5"], "--deadline": ["50"], "--retries": ["1"],
        "--backoff": ["2"], "--max-bytes": ["99"], "--strict": [], "--wait": [],
        "--max-unpacked-bytes": ["7"], "--max-value-chars": ["8"], "--max-name-chars": ["9"],
        "--base-url": ["https://rif.example.org/"], "--game-links": [],
    }  # fmt: skip
    assert set(changed) == set(flagged)
    for option, value in changed.items():
        other = daily.run_of(daily.parser().parse_args([*base, option, *value]))
        assert other != named, option
    # the unpacked cap follows the download cap unless given
    capped = daily.run_of(daily.parser().parse_args([*base, "--max-bytes", "99"]))
    assert capped.pull.max_bytes == capped.limits.max_unpacked_bytes == 99


def test_the_docs_option_table_is_the_command_line() -> None:
    """docs/operations.md holds the option table that the fields give, row for row."""
    docs = (REPO / "docs" / "operations.md").read_text(encoding="utf-8")
    table = daily.option_table()
    assert table in docs, (
        "regenerate it: python -c 'from flows import daily; print(daily.option_table())'"
    )


def test_the_flow_takes_the_run_whole() -> None:
    from flows import pipeline

    (parameter,) = inspect.signature(pipeline.daily.fn).parameters.values()
    assert parameter.name == "run" and parameter.annotation in ("Run", Run)


def test_another_run_holding_the_lock_fails_at_once(tmp_path: Path) -> None:
    out = tmp_path / "out"
    holder = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "hold_lock.py"), str(out)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        output = tmp_path / "github_output"
        done = cli(
            "--source",
            str(SAMPLE),
            "--out",
            str(out),
            "--as-of",
            D,
            env={"GITHUB_OUTPUT": str(output)},
        )
        verified = cli("--verify", "--out", str(out))
    finally:
        holder.kill()
        holder.wait()
    # a clash has its own exit status (75, EX_TEMPFAIL): a scheduler tells it from a failure
    assert done.returncode == 75 and verified.returncode == 75
    (line,) = messages(done.stderr)
    assert f"another run is publishing to {out} (pid {holder.pid}, since " in line
    assert "nothing was done" in line and "--wait" in line
    assert "nothing was checked" in messages(verified.stderr)[0]
    assert "prefect" not in imported(done.stderr)
    assert "outcome=failed" in output.read_text()


def test_verify_waits_for_the_lock_with_wait(tmp_path: Path) -> None:
    """``--verify --wait`` queues behind the run that holds the lock, then checks."""
    out = tmp_path / "out"
    holder = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "hold_lock.py"), str(out), "--seconds", "3"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        done = cli("--verify", "--wait", "--out", str(out))
        assert holder.poll() is not None  # it ended before the check could begin
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 0, done.stderr
    assert "verified" in done.stdout


@pytest.fixture(scope="module")
def server_env(prefect_server: None) -> dict[str, str]:
    """The session's Prefect server, for runs in subprocesses."""
    from prefect.settings import PREFECT_API_URL

    return {"PREFECT_API_URL": str(PREFECT_API_URL.value())}


def test_outcome_and_exit_status_of_real_runs(server_env: dict, tmp_path: Path) -> None:
    out, output = tmp_path / "out", tmp_path / "github_output"
    env = {**server_env, "GITHUB_OUTPUT": str(output)}
    first = cli("--source", str(SAMPLE), "--out", str(out), "--as-of", D, env=env)
    assert first.returncode == 0, first.stderr[-2000:]
    assert (
        "rif-rating: renju: published" in first.stdout
        and "rif-rating: gomoku: published" in first.stdout
    )
    assert "Traceback" not in first.stderr
    again = cli(
        "--source", str(SAMPLE), "--out", str(out), "--as-of", D, "--category", "renju", env=env
    )
    assert again.returncode == 0 and "renju: no new data" in again.stdout
    written = output.read_text().splitlines()
    assert written == [
        "outcome=published", f"as-of={D}", "published=renju gomoku",
        "outcome=no-new-data", f"as-of={D}", "published=",
    ]  # fmt: skip


def test_a_run_says_what_it_found_in_the_archive_and_why_a_list_was_refused(
    server_env: dict, tmp_path: Path
) -> None:
    """Real runs: a same-size edit of a past day's manifest is reported by ``--verify`` (exit 1)
    and by the next run, naming the day, and never advertised; a replay that is a link is said
    to be ignored; no line says "repaired" when nothing was; and a list refused by
    ``--max-players`` ends with the cap's own message."""
    import json

    out, past = tmp_path / "out", "2026-11-29"
    database = str(next(SAMPLE.glob("*.rif")))  # named itself: it can rerun a past day
    for day in (past, D):
        done = cli(
            "--source", database, "--out", str(out), "--as-of", day, "--category", "renju",
            env=server_env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
    manifest = out / "archive" / "renju" / past / "manifest.json"
    text = manifest.read_text(encoding="utf-8")
    listed = str(json.loads(text)["counts"]["listed"])
    other = str(int(listed[0]) % 9 + 1) + listed[1:]  # 305 -> 405
    manifest.write_text(text.replace(f'"listed": {listed},', f'"listed": {other},'), "utf-8")
    (out / "archive" / "renju" / "replay").mkdir()
    link = out / "archive" / "renju" / "replay" / f"{D}.parquet"
    link.symlink_to(tmp_path / "elsewhere.parquet")
    checked = cli("--verify", "--out", str(out))
    assert checked.returncode == 1
    (damaged,) = [x for x in messages(checked.stderr) if x.startswith("rif-rating: damaged: ")]
    assert damaged.startswith(f"rif-rating: damaged: {manifest} does not match the checksum ")
    assert f"republish the day (--as-of {past} --force REASON" in damaged
    assert f"rif-rating: ignored: {link} is a symbolic link" in checked.stdout
    assert "repaired" not in checked.stdout + checked.stderr
    index = json.loads((out / "published.json").read_text(encoding="utf-8"))
    assert [d["date"] for d in index["lists"][0]["days"]] == [D]
    # the next run (forced past "no new data"), refused by the cap, says all of it
    done = cli(
        "--source", database, "--out", str(out), "--as-of", D, "--category", "renju",
        "--max-players", "5", "--force", "checking the cap", env=server_env,
    )  # fmt: skip
    assert done.returncode == 1
    lines = [x for x in messages(done.stderr) if x.startswith("rif-rating: ")]
    assert lines[-1].startswith("rif-rating: renju: refused to publish: the list would have ")
    assert "more than --max-players 5;" in lines[-1] and not any("PENDING" in x for x in lines)
    assert any(x.startswith(f"rif-rating: damaged: {manifest} ") for x in lines), lines
    assert any(x.startswith(f"rif-rating: ignored: {link} ") for x in lines), lines
    assert not any(x.startswith("rif-rating: repaired:") for x in lines), lines


def test_a_failed_run_is_one_line_and_exit_1(server_env: dict, tmp_path: Path) -> None:
    unreachable = "http://127.0.0.1:9/renjunet_v10_20261130.rif"  # the discard port: refused
    done = cli("--source", unreachable, "--out", str(tmp_path), "--retries", "0", env=server_env)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("rif-rating: run: ")
    assert "127.0.0.1:9" in done.stderr.strip().splitlines()[-1]
    verbose = cli(
        "--source",
        unreachable,
        "--out",
        str(tmp_path),
        "--retries",
        "0",
        "--verbose",
        env=server_env,
    )
    assert verbose.returncode == 1 and "Traceback" in verbose.stderr


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


DEFAULT_SIGINT_THEN_EXEC = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_leaves_no_prefect_server_behind(tmp_path: Path, signum: int) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_API")}
    env.update(
        PREFECT_HOME=str(tmp_path / "prefect"), GITHUB_STEP_SUMMARY=str(tmp_path / "summary.md")
    )
    command = [sys.executable, "-m", "flows.daily", "--source", str(SAMPLE)]
    command += ["--out", str(tmp_path / "out"), "--as-of", D]
    run = subprocess.Popen(
        # as from a terminal: a shell's background job (the suite started with &) passes SIGINT
        # on ignored, and an ignored SIGINT stays ignored in Python; exec keeps the default
        [sys.executable, "-c", DEFAULT_SIGINT_THEN_EXEC, *command],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert run.stderr is not None
    lines: list[str] = []  # read as they come: the signal is sent once the flow runs
    reader = threading.Thread(target=lambda: lines.extend(iter(run.stderr.readline, "")))
    reader.start()
    server = None
    for _ in range(30000):  # the temporary server is the run's child running uvicorn
        server = server or next(
            (
                c
                for c in _children(run.pid)
                if "uvicorn" in Path(f"/proc/{c}/cmdline").read_text(errors="replace")
            ),
            None,
        )
        running = any("Beginning flow run" in line for line in lines)
        if (server is not None and running) or run.poll() is not None:
            break
        time.sleep(0.01)
    assert server is not None, "the run started no temporary Prefect server"
    run.send_signal(signum)  # at once: the sample's whole flow takes seconds on a quiet machine
    run.wait(timeout=120)
    reader.join()
    stderr = "".join(lines)
    assert run.returncode == 128 + signum, stderr[-2000:]
    # not only at a line's start: the temporary server and its reaper write to the same pipe
    assert "rif-rating: interrupted; every list" in stderr, stderr[-3000:]
    for _ in range(100):
        if not alive(server):
            break
        time.sleep(0.1)
    assert not alive(server), "Prefect's temporary server outlived the run"


def test_a_kill_9_leaves_no_prefect_server_behind(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_API")}
    env.update(PREFECT_HOME=str(tmp_path / "prefect"))
    run = subprocess.Popen(
        [sys.executable, "-m", "flows.daily", "--source", str(SAMPLE)]
        + ["--out", str(tmp_path / "out"), "--as-of", D],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    server = None
    try:
        for _ in range(1200):  # the temporary server: the run's child running uvicorn
            children = _children(run.pid)
            server = next(
                (
                    c
                    for c in children
                    if "uvicorn" in Path(f"/proc/{c}/cmdline").read_text(errors="replace")
                ),
                None,
            )
            if server is not None or run.poll() is not None:
                break
            time.sleep(0.1)
        assert server is not None, "the run started no temporary Prefect server"
        reapers = [c for c in children if c != server]
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=60)
        for _ in range(300):  # the reaper sends SIGTERM at once, SIGKILL after 5 s
            if not alive(server):
                break
            time.sleep(0.1)
        assert not alive(server), "Prefect's temporary server outlived a kill -9 of the run"
        for _ in range(100):
            if not any(alive(r) for r in reapers):
                break
            time.sleep(0.1)
        assert not any(alive(r) for r in reapers), "a helper process outlived the run"
    finally:
        run.kill()
        run.wait()
        if server is not None and alive(server):
            os.kill(server, signal.SIGKILL)


def test_memory_and_file_errors_say_what_was_being_done() -> None:
    import errno

    from flows.pipeline import saying

    with pytest.raises(MemoryError) as info, saying("publishing the renju list of D"):
        raise MemoryError()  # as numpy and pandas raise it: no message at all
    assert str(info.value).startswith("out of memory while publishing the renju list of D")
    assert "--max-players" in str(info.value)
    with pytest.raises(OSError) as info, saying("reading the sources"):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert info.value.errno == errno.ENOSPC
    assert "No space left on device while reading the sources" in str(info.value)
    with pytest.raises(FileNotFoundError) as info, saying("repairing out"):
        open("/nonexistent/x")  # noqa: SIM115
    assert "while repairing out" in str(info.value) and "/nonexistent/x" in str(info.value)
