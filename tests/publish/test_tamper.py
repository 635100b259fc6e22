"""Tampering caught: a change of any byte of any archived file is found by the next run and by
``--verify``, reported with the day and what to do, and never advertised as good; and the
report's lines say what happened (``tamper.py`` makes the sweep; ``benchmarks/bench_tamper.py``
flips three bytes of every file, with the ``--verify`` command and the next day's run)."""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
from pathlib import Path

import pytest
import support
import tamper

from whr.digest import file_sha256
from whr.publish import recover, verify
from whr.publish.checksums import Checksums

DAYS = tamper.DAYS
KINDS = {
    "manifest", "day page", "month file", "table of December 31", "table of the newest day",
    "checksums.json", "published.json", "datapackage.json", "archive.html", "index.html",
}  # fmt: skip
LINE = re.compile(r"^(repaired|damaged|kept|ignored|recorded): ")


@pytest.fixture(scope="module")
def plain() -> support.Inputs:
    return support.inputs(300)


@pytest.fixture(scope="module")
def base(plain, tmp_path_factory) -> Path:
    """The sweep's tree: December 2025 closed, 2025-12-31 whole, 2026-01-02 the newest."""
    out = tmp_path_factory.mktemp("tamper") / "out"
    tamper.build(out, plain)
    return out


@pytest.fixture(scope="module")
def later(base, plain, tmp_path_factory) -> Path:
    """The sweep's tree and 2026-01-03: 2026-01-02 is now a past day of an open month (its
    list in its own entry), 2026-01-03 the newest."""
    out = tmp_path_factory.mktemp("later") / "out"
    shutil.copytree(base, out, symlinks=True)
    support.publish_inputs(out, plain, tamper.NEXT)
    return out


@pytest.fixture
def tree(later, tmp_path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(later, out, symlinks=True)
    return out


def entry(out: Path, day: dt.date) -> Path:
    return support.entry_of(out, day)


def index(out: Path) -> dict[str, dict]:
    value = json.loads((out / "published.json").read_text(encoding="utf-8"))
    return {d["date"]: d for d in value["lists"][0]["days"]}


def damaged(said: list[str]) -> list[str]:
    return [x for x in said if x.startswith("damaged: ")]


def test_every_archived_file_flipped_is_found_by_verify_and_by_the_next_run(base, tmp_path):
    """One byte of each archived file, in turn: each kind of file is in the tree (a change that
    stopped checking a kind fails here), and each flip is named by a ``damaged:`` line of
    ``--verify`` (which fails) and of the next run's repair, and never advertised as good."""
    files = tamper.archived(base)
    assert {tamper.kind_of(base, p) for p in files} == KINDS
    trials = [
        tamper.trial(base, tmp_path / "out", path, "middle", by)
        for path in files
        for by in ("verify", "run")
    ]
    missed = [t for t in trials if not t.caught]
    assert not missed, missed[:3]
    assert len(trials) == 2 * len(files) >= 2 * 25


def test_a_same_size_edit_of_a_manifest_is_reported_and_never_advertised(tree, plain):
    day = DAYS[-1]  # a past day of the open month: no copy of its manifest anywhere
    manifest = entry(tree, day) / "manifest.json"
    text = manifest.read_text(encoding="utf-8")
    listed = json.loads(text)["counts"]["listed"]
    other = str(int(str(listed)[0]) % 9 + 1) + str(listed)[1:]  # 305 -> 405: the same size
    edited = text.replace(f'"listed": {listed},', f'"listed": {other},')
    assert len(edited) == len(text) and edited != text
    manifest.write_text(edited, encoding="utf-8")
    said = recover(tree)
    (line,) = [x for x in damaged(said) if str(manifest) in x]
    ledger = tree / "archive" / "checksums.json"
    assert line.startswith(
        f"damaged: {manifest} does not match the checksum recorded in {ledger}: it was changed "
        "after the run wrote it; restore it from a copy of the published tree (its sha256 is "
    )
    assert f"republish the day (--as-of {day} --force REASON" in line
    assert day.isoformat() not in index(tree) and tamper.advertised_wrongly(tree) == []
    found = verify(tree)
    assert not found.ok and any(str(manifest) in x for x in found.damaged)
    assert manifest.read_text(encoding="utf-8") == edited  # reported, never rewritten
    # the next day's run says it again and still does not advertise it
    done = support.publish_inputs(tree, plain, tamper.NEXT + dt.timedelta(days=1))
    assert any(str(manifest) in x for x in damaged(list(done.repaired)))
    assert day.isoformat() not in index(tree) and tamper.advertised_wrongly(tree) == []
    # republished, the day is good again
    support.publish_inputs(tree, plain, day, run_fields={"force": "the manifest was edited"})
    assert day.isoformat() in index(tree) and verify(tree).ok


def test_an_edited_manifest_of_a_closed_month_is_restored_from_its_copy(tree):
    day = DAYS[0]
    manifest = entry(tree, day) / "manifest.json"
    original = manifest.read_bytes()
    (month,) = (tree / "archive" / "renju" / "months").iterdir()
    # it now names a month file that never existed (the same size: another hash)
    named = json.loads(original)["list_in"]["path"]
    other = re.sub(r"\.[0-9a-f]{16}\.", ".0123456789abcdef.", named)
    manifest.write_bytes(original.replace(named.encode(), other.encode()))
    said = recover(tree)
    (line,) = damaged(said)
    ledger = tree / "archive" / "checksums.json"
    assert line == (
        f"damaged: {manifest} does not match the checksum recorded in {ledger}: it was changed "
        f"after the run wrote it; restored it from the copy kept in {month}"
    )
    assert "month's file from a copy" not in " ".join(said)  # it never existed: not that
    assert manifest.read_bytes() == original and day.isoformat() in index(tree)
    assert not any(x.startswith("repaired: ") for x in said), said
    assert verify(tree).ok  # found once, restored: the next check is clean


def test_a_damaged_newest_day_is_named_with_its_fix_and_the_site_stays(tree):
    newest, before = tamper.NEXT, DAYS[-1]  # the day before keeps only its list
    table = entry(tree, newest) / "history.parquet"
    tamper.flip(table, "middle")
    site = (tree / "renju" / "index.html").read_bytes()
    said = recover(tree)
    assert all(LINE.match(x) for x in said), said
    (line,) = damaged(said)
    assert line.startswith(f"damaged: {table} does not match the checksum recorded in its manifest")
    assert f"republish the day (--as-of {newest} --force REASON" in line
    assert "delete" not in line  # the newest day, which the site shows, is not to be dropped
    (kept,) = [x for x in said if x.startswith("kept: ")]
    assert f"the newest day {newest} is damaged" in kept and str(before) not in kept
    assert not any(f"--as-of {before}" in x for x in said)
    assert not any(x.startswith("repaired: ") for x in said)  # nothing was repaired
    assert (tree / "renju" / "index.html").read_bytes() == site  # not moved back
    pointer = json.loads((tree / "renju" / "latest.json").read_text(encoding="utf-8"))
    assert pointer["date"] == newest.isoformat()
    assert newest.isoformat() not in index(tree) and tamper.advertised_wrongly(tree) == []


def test_repaired_only_when_something_was(tree):
    (tree / "archive" / "renju" / ".work-1-abcd").mkdir()  # left by a killed run
    said = recover(tree)
    assert said == [f"repaired: removed {tree / 'archive' / 'renju' / '.work-1-abcd'}, left by a "
                    "run that was killed"]  # fmt: skip
    assert recover(tree) == [] and verify(tree).said == ()


def test_a_replay_that_is_a_link_is_said_to_be_ignored(tree, tmp_path):
    elsewhere = tmp_path / "elsewhere.parquet"
    shutil.copyfile(entry(tree, tamper.NEXT) / "tournament_changes.parquet", elsewhere)
    before = file_sha256(elsewhere)
    (tree / "archive" / "renju" / "replay").mkdir()
    link = tree / "archive" / "renju" / "replay" / f"{tamper.NEXT}.parquet"
    link.symlink_to(elsewhere)
    said = recover(tree)
    assert said == [
        f"ignored: {link} is a symbolic link (to {elsewhere}), not a replay: a run never "
        "follows a link out of the tree, so it is not used; put the replay itself there "
        "(rif-rating backfill writes it) or remove the link"
    ]
    assert link.is_symlink() and file_sha256(elsewhere) == before
    found = verify(tree)
    assert found.ok and found.said == tuple(said)


def test_a_tree_without_checksums_is_recorded_as_it_is_and_checked_from_then_on(tree):
    ledger = tree / "archive" / "checksums.json"
    ledger.unlink()  # as a tree written before it
    said = recover(tree)
    (line,) = said
    days = len(list((tree / "archive" / "renju").glob("20*")))
    assert line.startswith(f"recorded: the checksums of {2 * days} files that {ledger} did not ")
    assert verify(tree).ok
    page = entry(tree, DAYS[1]) / "index.html"
    tamper.flip(page, "last")
    (line,) = damaged(recover(tree))
    assert line.startswith(f"damaged: {page} does not match the checksum recorded in {ledger}")
    assert line.endswith("written again from the day's manifest and list")
    assert Checksums.read(tree).check(page, {}) is None


def test_a_killed_rewrite_is_never_taken_for_tampering(tree):
    """A run records the version it is about to write beside the old one: killed before it
    writes, or after, the next run finds nothing wrong and keeps only the version there."""
    manifest = entry(tree, DAYS[-1]) / "manifest.json"
    sums = Checksums.read(tree)
    old = manifest.read_bytes()
    new = old.replace(b'"format"', b'"format" ', 1)
    sums.expect({manifest: new})  # killed here: the old version is there
    assert len(Checksums.read(tree).recorded(manifest) or []) == 2
    assert recover(tree) == [] and Checksums.read(tree).recorded(manifest) == [
        {"sha256": file_sha256(manifest), "bytes": len(old)}
    ]
