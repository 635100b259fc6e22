"""Real publishing runs killed with SIGKILL, or given a full disk, at every kind of file-system
step of republishing a past day of a closed month and of closing a month; the next ordinary run
repairs the tree exactly (``faults.py`` says how).

Kept cheap for the suite: every step of the republish once (a kill and a full disk in turn),
but the tables the entry's loop writes into its work directory by the first one (the others are
the same kind of step), and, of closing a month, the steps a republish has not (the exchange of
the sites), both ways. ``python3 benchmarks/bench_faults.py`` tries every single step of both,
both ways."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import faults
import pytest

HERE = Path(__file__).parent


def sweep(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(HERE / "faults.py"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture(scope="module")
def sweeps() -> dict[str, tuple[list[dict], dict]]:
    """The two drivers, run at once."""
    running = {
        "republish": sweep("republish", "--modes", "alternate", "--kinds"),
        "close": sweep("close", "--modes", "both", "--steps", "commit:", "--beyond", "republish"),
    }
    found = {}
    for name, child in running.items():
        out, err = child.communicate(timeout=900)
        assert child.returncode == 0, err[-3000:]
        lines = [json.loads(x) for x in out.splitlines()]
        found[name] = (lines[:-1], lines[-1])
    return found


@pytest.mark.parametrize("name", ["republish", "close"])
def test_every_step_killed_or_out_of_space_is_repaired_exactly(sweeps, name):
    trials, summary = sweeps[name]
    tried = {t["step"] for t in trials}
    assert tried == set(summary["chosen"]) and len(trials) == summary["trials"]
    if name == "republish":  # every step outside the work directory, and every kind in it
        labels = summary["labels"]
        assert {i for i, x in enumerate(labels, 1) if "/.work-" not in x} <= tried
        assert {faults.key(x) for x in labels} == {faults.key(labels[i - 1]) for i in tried}
        assert len(trials) == len(tried) > 45
    else:  # the site's exchange and the new datapackage.json, killed and out of space (a
        # past day republished leaves datapackage.json as it is: it describes the newest day)
        steps = [(t["label"].split(" ")[0], t["label"].split(" ")[-1]) for t in trials]
        assert steps[:2] == [("exchange", "renju")] * 2
        assert {label for label, _ in steps[2:]} == {"open", "write", "fsync", "replace"}
        assert all("datapackage.json" in name for _, name in steps[2:]), steps
    failed = [t for t in trials if t["problems"]]
    assert not failed, failed[:3]
    kills = [t for t in trials if t["mode"] == "kill"]
    full = [t for t in trials if t["mode"] == "full"]
    assert kills and full and all(t["child"] == "killed by signal 9" for t in kills)
    assert all(t["child"] in ("published", "failed") for t in full)
    if name == "republish":  # before the commit point the old day stays, after it the new
        assert {t["tree"] for t in trials if t["step"] <= summary["commit_step"]} == {"before"}
        assert {t["tree"] for t in trials if t["step"] > summary["commit_step"]} == {"after"}
        # a full disk before the commit fails the run, after it is a warning naming the file
        assert any(t["child"] == "failed" for t in full) and any(
            t["child"] == "published" for t in full
        )
    else:
        assert {t["tree"] for t in trials} == {"after"}


def test_a_month_is_rewritten_beside_the_old_one_and_the_old_one_retired_last(sweeps):
    """The order of the republish's steps: the new month file is written, every day's page and
    manifest is pointed at it, and only then is the old file removed."""
    _, summary = sweeps["republish"]
    labels = summary["labels"]

    def at(pattern: str) -> list[int]:
        return [i for i, x in enumerate(labels) if pattern in x]

    (new,) = [i for i in at("replace archive/renju/months/.2025-12.") if "-> archive" in labels[i]]
    (old,) = at("unlink archive/renju/months/2025-12.")
    assert labels[old].split("/")[-1] != labels[new].split("/")[-1]
    page = at("-> archive/renju/2025-12-30/index.html")[-1]
    manifest = at("-> archive/renju/2025-12-30/manifest.json")[-1]  # after the day's trim
    year_end = at("-> archive/renju/2025-12-31/manifest.json")[-1]
    (dropped,) = at("unlink archive/renju/2025-12-30/ratings.parquet")
    # the republished day: the new file, then its page, then its manifest, then its own list
    assert new < page < manifest < dropped < old
    assert new < year_end < old  # the year-end day is pointed at the new file too
