"""Tampering caught: a change of any byte of any archived file is found by the next run and by
``--verify``, reported with the day and what to do, and never advertised as good; and the
report's lines say what happened (``tamper.py`` makes the sweep; ``benchmarks/bench_tamper.py``
flips three bytes of every file, with the ``--verify`` command and the next day's run)."""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import sys
from pathlib import Path

import pytest
import support
import tamper

from whr.digest import file_sha256
from whr.publish import LedgerError, recover, verify
from whr.publish.checksums import Checksums

DAYS = tamper.DAYS
KINDS = {
    "manifest", "day page", "month file", "table of December 31", "table of the newest day",
    "checksums.json", "ledger.jsonl", "published.json", "datapackage.json", "archive.html",
    "index.html",
}  # fmt: skip
LINE = re.compile(r"^(repaired|damaged|foreign|kept|ignored|recorded): ")


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
    ledger = tree / "archive" / "ledger.jsonl"
    assert re.match(
        rf"damaged: {re.escape(str(manifest))} does not match the checksum recorded in "
        rf"{re.escape(str(ledger))} \(line \d+\): it was changed after the run wrote it; "
        r"restore it from a copy of the published tree \(its sha256 is ",
        line,
    ), line
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
    ledger = tree / "archive" / "ledger.jsonl"
    assert re.fullmatch(
        rf"damaged: {re.escape(str(manifest))} does not match the checksum recorded in "
        rf"{re.escape(str(ledger))} \(line \d+\): it was changed after the run wrote it; "
        rf"restored it from the copy kept in {re.escape(str(month))}",
        line,
    ), line
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


def _before_the_ledger(tree: Path) -> None:
    """Make ``tree`` a tree as written before the ledger: no ledger, no ``checksums.json``, and
    no manifest that says it is recorded in a ledger."""
    (tree / "archive" / "ledger.jsonl").unlink()
    (tree / "archive" / "checksums.json").unlink()
    for manifest in (tree / "archive" / "renju").glob("20*/manifest.json"):
        value = json.loads(manifest.read_text(encoding="utf-8"))
        del value["ledger"]
        manifest.write_text(json.dumps(value, indent=2), encoding="utf-8")


def test_a_tree_written_before_the_ledger_is_adopted_once_and_checked_from_then_on(tree):
    _before_the_ledger(tree)
    found = verify(tree)  # --verify does not begin it; it says the next run does
    assert found.ok and any("no ledger yet" in x for x in found.said), found.said
    said = recover(tree)
    days = len(list((tree / "archive" / "renju").glob("20*")))
    (began,) = [x for x in said if x.startswith("recorded: the ledger began")]
    assert f"the {days} days and 0 replays of this tree" in began
    assert not damaged(said) and verify(tree).ok and recover(tree) == []
    lines = (tree / "archive" / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["op"] for x in lines] == ["adopt"]
    page = entry(tree, DAYS[1]) / "index.html"
    tamper.flip(page, "last")
    (line,) = damaged(recover(tree))
    sums = tree / "archive" / "checksums.json"
    assert line.startswith(f"damaged: {page} does not match the checksum recorded in {sums}")
    assert line.endswith("written again from the day's manifest and list")
    assert Checksums.read(tree).check(page, {}) is None


@pytest.mark.parametrize("edit", [False, True])
def test_removing_checksums_json_is_damage_and_launders_no_edit(tree, edit):
    sums = tree / "archive" / "checksums.json"
    sums.unlink()
    manifest = entry(tree, DAYS[-1]) / "manifest.json"
    if edit:  # the manifest edit the record of checksums used to hide
        manifest.write_bytes(manifest.read_bytes().replace(b'"listed": ', b'"listed":  ', 1))
    found = verify(tree)
    assert not found.ok and any(f"{sums} is missing" in x for x in found.damaged)
    for _ in range(2):  # the edit is found every time: the manifests are the ledger's
        named = [x for x in found.damaged if str(manifest) in x]
        assert bool(named) == edit and all("ledger.jsonl" in x for x in named)
        assert (DAYS[-1].isoformat() in index(tree)) != edit
        found = verify(tree)
    assert found.ok != edit


def test_removing_the_ledger_is_damage_and_stops_publishing(tree, plain):
    ledger = tree / "archive" / "ledger.jsonl"
    ledger.unlink()
    found = verify(tree)
    assert not found.ok and any(f"{ledger} is missing" in x for x in found.damaged)
    with pytest.raises(LedgerError, match="is missing.*restore it from a copy"):
        support.publish_inputs(tree, plain, tamper.NEXT + dt.timedelta(days=1))
    assert not entry(tree, tamper.NEXT + dt.timedelta(days=1)).exists()
    (tree / "archive" / "checksums.json").unlink()  # both: the manifests still say there was one
    assert any(f"{ledger} is missing" in x for x in verify(tree).damaged)
    assert not ledger.exists()  # never begun again over the loss


class _Killed(BaseException):
    pass


def test_a_killed_compaction_is_finished_never_recorded_twice(tree, plain, monkeypatch):
    """A run records each change in the ledger before it makes it: killed after recording the
    trim of the day before, the next run finishes it without a second line, and nothing is
    found wrong."""
    compact = sys.modules["whr.publish.archive.compact"]

    def killed(path: Path, data: bytes) -> None:
        raise _Killed(path)

    monkeypatch.setattr(compact, "write_bytes", killed)
    day = tamper.NEXT + dt.timedelta(days=1)
    with pytest.raises(_Killed):
        support.publish_inputs(tree, plain, day)
    monkeypatch.undo()
    ledger = tree / "archive" / "ledger.jsonl"
    lines = [json.loads(x) for x in ledger.read_text(encoding="utf-8").splitlines()]
    assert lines[-1]["op"] == "trim" and lines[-1]["day"] == tamper.NEXT.isoformat()
    assert (entry(tree, tamper.NEXT) / "history.parquet").exists()  # not trimmed yet
    said = recover(tree)
    assert not damaged(said), said
    assert not (entry(tree, tamper.NEXT) / "history.parquet").exists()
    after = [json.loads(x) for x in ledger.read_text(encoding="utf-8").splitlines()]
    assert after == lines and verify(tree).ok


@pytest.fixture(scope="module")
def damage_base(plain, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("damage") / "out"
    tamper.damage_base(out, plain)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("kind", tamper.DAMAGES)
def test_every_kind_of_damage_is_reported_nothing_deleted_nothing_adopted(
    damage_base, plain, tmp_path, kind
):
    """Done when of issue 38: a day removed (open month, closed month, newest), every day of a
    month, a replay, checksums.json or the ledger (alone and with an edit), a day planted (past,
    tomorrow, far future): ``--verify`` exits 1 naming it and deletes nothing; the next run
    adopts, lists and shows nothing planted, and advertises nothing that does not check."""
    found = tamper.damage_trial(damage_base, tmp_path / "out", kind, plain)
    assert found.reported and found.deleted == [] and found.wrong == [], found
    if "ledger" in kind:  # what was published can no longer be told: nothing is
        assert found.next_run.startswith("refused:") and "restore it" in found.next_run
    if "planted" in kind:
        assert found.restored is None
    else:  # from the month's copies (a day's page drawn again), or recorded again; not the
        # tables a year's last day keeps in its own entry only, nor the newest day's
        restorable = "closed month" in kind or kind == "checksums.json removed"
        assert found.restored == restorable, found


def test_a_republished_day_put_back_as_it_was_before_is_damaged(tree, plain):
    """A day republished, then its earlier entry copied back: the ledger holds the republish,
    so the earlier version is damage (never taken for a change a killed run did not finish)."""
    day = tamper.NEXT
    old = tree.parent / "old"
    shutil.copytree(entry(tree, day), old)
    support.publish_inputs(tree, plain, day, run_fields={"force": "again"})
    shutil.rmtree(entry(tree, day))
    shutil.copytree(old, entry(tree, day))
    found = verify(tree)
    manifest = entry(tree, day) / "manifest.json"
    assert any(str(manifest) in x and "ledger.jsonl" in x for x in found.damaged), found.said
    assert day.isoformat() not in index(tree)
