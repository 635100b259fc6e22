"""The archive keeps every day: damage is repaired from the data or reported, never answered by
deleting data; every list is checked against its checksum; no planted link is followed."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import support

from whr.digest import file_sha256
from whr.publish import TreeError, hold, recover, verify
from whr.publish.archive import StateError, check_entry, read_list

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sample"
DECEMBER = [dt.date(2025, 12, 30), dt.date(2025, 12, 31), dt.date(2026, 1, 2)]
D = support.AS_OF


@pytest.fixture(scope="module")
def plain() -> support.Inputs:
    return support.inputs(300)


@pytest.fixture(scope="module")
def other() -> support.Inputs:
    """Another history: republishing a day from it changes the day's rows."""
    return support.inputs(260, seed=1)


@pytest.fixture(scope="module")
def december(plain, tmp_path_factory) -> Path:
    """December 2025 closed: 12-30 and the year-end 12-31 in its month's file, 2026-01-02
    the newest day (copy it before changing it)."""
    out = tmp_path_factory.mktemp("december")
    for day in DECEMBER:
        support.publish_inputs(out, plain, day)
    return out


@pytest.fixture
def tree(december, tmp_path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(december, out, symlinks=True)
    return out


def entry(out: Path, day: dt.date) -> Path:
    return support.entry_of(out, day)


def month_files(out: Path) -> list[Path]:
    return sorted((out / "archive" / "renju" / "months").iterdir())


def index(out: Path) -> dict[str, dict]:
    value = json.loads((out / "published.json").read_text(encoding="utf-8"))
    return {d["date"]: d for d in value["lists"][0]["days"]}


def damaged(out: Path) -> list[str]:
    return json.loads((out / "published.json").read_text(encoding="utf-8"))["lists"][0]["damaged"]


def advertised_checksums_match(out: Path) -> bool:
    return all(file_sha256(out / d["list"]) == d["list_sha256"] for d in index(out).values())


def spoil(path: Path) -> None:
    """Change bytes in the middle of a file, keeping its size."""
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 8] = bytes(b ^ 0xFF for b in data[middle : middle + 8])
    path.write_bytes(bytes(data))


def files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): file_sha256(p) for p in root.rglob("*") if p.is_file()}


def without_record(found: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in found.items() if k != "checksums.json"}


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "flows.daily", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


def said(done: subprocess.CompletedProcess) -> list[str]:
    return [x for x in done.stderr.splitlines() if not x.startswith("import time:")]


def imported(done: subprocess.CompletedProcess) -> set[str]:
    found = re.finditer(r"^import time:.*\|\s+(\S+)$", done.stderr, re.M)
    return {m.group(1).split(".")[0] for m in found}


# ---------------------------------------------------------------------------------------------
# Compaction keeps every day


def test_a_closed_months_day_pages_link_files_that_are_there(plain, tmp_path):
    for day in (dt.date(2026, 10, 31), dt.date(2026, 11, 1)):
        support.publish_inputs(tmp_path, plain, day)
    past = entry(tmp_path, dt.date(2026, 10, 31))
    assert not (past / "ratings.parquet").exists()  # the list moved into its month's file
    links = re.findall(r'href="([^"]+\.parquet)"', (past / "index.html").read_text("utf-8"))
    assert links and all((past / link).resolve().is_file() for link in links), links
    (month,) = month_files(tmp_path)
    assert {(past / link).resolve() for link in links} == {month.resolve()}


def test_a_list_keeps_every_number_it_published_when_its_month_is_compacted(
    december, plain, tmp_path
):
    """The list of December 30 as published (its own ratings.parquet, before the month closed)
    and as its closed month's file keeps it (float32): the same numbers, exactly."""
    alone = tmp_path / "alone"
    support.publish_inputs(alone, plain, DECEMBER[0])
    published = read_list(check_entry(entry(alone, DECEMBER[0])))
    closed = check_entry(entry(december, DECEMBER[0]))
    assert closed.in_month  # read from the month's file
    kept = read_list(closed)
    assert len(published) > 10
    pd.testing.assert_frame_equal(kept, published, check_exact=True)


def test_a_lost_manifest_is_restored_from_its_month_and_no_row_is_dropped(tree, other):
    lost = entry(tree, DECEMBER[0]) / "manifest.json"
    original, rows = lost.read_bytes(), read_list(check_entry(lost.parent))
    lost.unlink()
    # the repair before the next list (whr.publish.previous) restores it from its month;
    # republishing another day of the month rewrites its file: the lost day's rows stay
    said = recover(tree)
    restored = f"damaged: {lost}: the manifest is missing, which {tree}/archive/ledger.jsonl"
    assert any(x.startswith(restored) and "; restored it from the copy kept in" in x for x in said)
    support.publish_inputs(tree, other, DECEMBER[1], run_fields={"force": "test"})
    restored = json.loads(lost.read_bytes())
    # the very manifest, from the copy in the month's file; now in the month's new version
    without = {k: v for k, v in json.loads(original).items() if k != "list_in"}
    assert {k: v for k, v in restored.items() if k != "list_in"} == without
    pd.testing.assert_frame_equal(read_list(check_entry(lost.parent, checksums=True)), rows)
    assert set(index(tree)) == {d.isoformat() for d in DECEMBER} and not damaged(tree)
    (month,) = month_files(tree)  # the new version; the old one is gone
    assert check_entry(lost.parent).list_file == month
    assert month.name != json.loads(original)["list_in"]["path"].rsplit("/", 1)[-1]


def test_every_manifest_of_a_month_damaged_is_restored_and_its_file_kept(tree):
    manifests = {day: entry(tree, day) / "manifest.json" for day in DECEMBER[:2]}
    before = {day: m.read_bytes() for day, m in manifests.items()}
    (month,) = month_files(tree)
    for m in manifests.values():
        m.write_bytes(m.read_bytes()[:40])  # truncated
    said = recover(tree)
    assert sum(x.startswith("damaged: ") and "restored it" in x for x in said) == 2, said
    assert {day: m.read_bytes() for day, m in manifests.items()} == before
    assert month_files(tree) == [month] and set(index(tree)) == {d.isoformat() for d in DECEMBER}


def test_damage_that_cannot_be_repaired_is_reported_and_nothing_is_deleted(tree, other):
    (month,) = month_files(tree)
    spoil(month)  # the month's file keeps its size, not its checksum
    (entry(tree, DECEMBER[0]) / "manifest.json").unlink()  # and a manifest is lost
    archived = files(tree / "archive")
    said = recover(tree)
    # nothing deleted, nothing rewritten (but the record of published.json, which now leaves
    # the damaged day out)
    assert without_record(files(tree / "archive")) == without_record(archived)
    assert any("not compacted" in x for x in said), said
    assert DECEMBER[0].isoformat() not in index(tree) and advertised_checksums_match(tree)
    assert any("manifest.json" in x and "--force REASON" in x for x in damaged(tree))
    # republishing another day of the month, whose record holds what the damaged day's list
    # said, would lose those rows: refused, even with --force, and the month's file is left
    with pytest.raises(StateError, match=r"would lose \d+ of its \d+ rows of the record"):
        support.publish_inputs(tree, other, DECEMBER[1], run_fields={"force": "test"})
    assert file_sha256(month) == archived[month.relative_to(tree / "archive").as_posix()]
    assert without_record(files(tree / "archive")) == without_record(archived)
    assert advertised_checksums_match(tree)


def test_a_spoiled_month_file_takes_its_days_out_of_the_index_until_it_is_restored(tree):
    (month,) = month_files(tree)
    good = month.read_bytes()
    spoil(month)
    said = recover(tree)
    assert any(str(month) in x and "checksum" in x and "restore" in x for x in said), said
    assert DECEMBER[0].isoformat() not in index(tree) and advertised_checksums_match(tree)
    recover(tree)  # a damaged day does not come back by itself
    assert DECEMBER[0].isoformat() not in index(tree)
    month.write_bytes(good)
    recover(tree)
    assert set(index(tree)) == {d.isoformat() for d in DECEMBER} and not damaged(tree)


def test_a_spoiled_past_list_is_noticed_and_stays_out_until_republished(plain, tmp_path):
    days = [D - dt.timedelta(days=2), D - dt.timedelta(days=1), D]
    for day in days:
        support.publish_inputs(tmp_path, plain, day)
    spoilt = entry(tmp_path, days[0]) / "ratings.parquet"
    spoil(spoilt)
    later = support.publish_inputs(tmp_path, plain, D + dt.timedelta(days=1))
    assert any(str(spoilt) in x and "checksum" in x for x in later.repaired), later.repaired
    assert days[0].isoformat() not in index(tmp_path) and advertised_checksums_match(tmp_path)
    assert spoilt.is_file()  # kept, never deleted
    support.publish_inputs(tmp_path, plain, days[0], run_fields={"force": "repair"})
    assert days[0].isoformat() in index(tmp_path) and not damaged(tmp_path)


def test_verify_checks_every_file_and_says_what_is_damaged(tree):
    done = cli("--verify", "--out", str(tree))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "every day checks" in done.stdout and "prefect" not in imported(done)
    history = entry(tree, DECEMBER[1]) / "history.parquet"  # a year-end's table
    spoil(history)
    lines = recover(tree)  # a daily run checks every file too
    assert any(x.startswith(f"damaged: {history} does not match") for x in lines), lines
    found = verify(tree)
    assert not found.ok and any(str(history) in x for x in found.damaged)
    assert found.files >= 9 + 2 and found.bytes > 0
    done = cli("--verify", "--out", str(tree))
    assert done.returncode == 1
    assert any(str(history) in x and "--force REASON" in x for x in said(done)), said(done)


# ---------------------------------------------------------------------------------------------
# The tree is the tree


def test_a_lock_that_is_a_link_a_directory_or_unwritable_is_refused_in_one_line(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / ".lock").symlink_to(victim)
    with pytest.raises(TreeError, match=r"\.lock is a symbolic link .*remove the link"), hold(out):
        pass
    assert victim.read_text(encoding="utf-8") == "precious\n"  # neither truncated nor written
    done = cli("--source", str(SAMPLE), "--out", str(out), "--as-of", "2026-11-30")
    assert done.returncode == 1 and said(done) == [said(done)[0]], said(done)
    assert "symbolic link" in said(done)[0] and "prefect" not in imported(done)
    (out / ".lock").unlink()
    (out / ".lock").mkdir()
    done = cli("--source", str(SAMPLE), "--out", str(out), "--as-of", "2026-11-30")
    assert done.returncode == 1 and len(said(done)) == 1, said(done)
    assert ".lock is a directory" in said(done)[0]


def test_a_tree_that_cannot_be_written_is_refused_in_one_line(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    command = ["--source", str(SAMPLE), "--out", str(out), "--as-of", "2026-11-30"]
    if os.geteuid() != 0:
        out.chmod(0o555)
        try:
            done = cli(*command)
        finally:
            out.chmod(0o755)
    else:  # root writes to any directory: make OUT a read-only mount, in a namespace of its own
        readonly = f'mount --bind {out} {out} && mount -o remount,ro,bind {out} {out} && exec "$@"'
        done = subprocess.run(
            ["unshare", "-m", "sh", "-c", readonly, "sh", sys.executable, "-X", "importtime",
             "-m", "flows.daily", *command],
            cwd=REPO, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        if done.returncode != 1 and "rif-rating" not in done.stderr:
            pytest.skip(f"no read-only mount here: {done.stderr[-200:]}")
    assert done.returncode == 1 and len(said(done)) == 1, said(done)
    assert "must be writable" in said(done)[0] and "prefect" not in imported(done)


def test_planted_links_are_removed_and_what_they_point_to_is_untouched(tree, tmp_path):
    outside = tmp_path / "outside"
    shutil.copytree(entry(tree, DECEMBER[2]), outside / "copy")  # a copy of the newest day
    (outside / "file").write_text("precious\n", encoding="utf-8")
    (outside / "site").mkdir()
    (outside / "site" / ".x.tmp").write_text("precious\n", encoding="utf-8")
    before = files(outside)
    archive = tree / "archive" / "renju"
    planted = {
        archive / "2026-01-05": outside / "copy",  # a day's entry
        archive / ".2026-01-06.old-1-abcd": outside / "copy",  # a moved-aside entry
        archive / "2026-01-02" / "extra.parquet": outside / "file",  # a file of an entry
        tree / "archive.html": outside / "file",  # an index file
    }
    shutil.rmtree(tree / "renju")
    planted[tree / "renju"] = outside / "site"  # a current site
    (tree / "archive.html").unlink()
    for link, target in planted.items():
        link.symlink_to(target)
    said = recover(tree)
    for link in planted:
        assert any(f"removed the symbolic link {link}" in x for x in said), (link, said)
        assert not link.is_symlink()
    assert files(outside) == before  # nothing outside the tree was written or removed
    assert (tree / "renju").is_dir() and (tree / "renju" / "index.html").is_file()
    assert set(index(tree)) == {d.isoformat() for d in DECEMBER}  # the planted day is not one
    assert json.loads((tree / "renju" / "latest.json").read_text("utf-8"))["date"] == "2026-01-02"


def test_a_planted_moved_aside_entry_is_put_back_only_when_it_is_that_days(tree, tmp_path):
    newest = entry(tree, DECEMBER[2])
    impostor = tree / "archive" / "renju" / ".2026-01-07.old-1-abcd"
    shutil.copytree(newest, impostor)  # the manifest names 2026-01-02, not 2026-01-07
    said = recover(tree)
    assert any(f"left {impostor}" in x and "not put back" in x for x in said), said
    assert not entry(tree, dt.date(2026, 1, 7)).exists() and impostor.is_dir()
    assert json.loads((tree / "renju" / "latest.json").read_text("utf-8"))["date"] == "2026-01-02"
    shutil.rmtree(impostor)
    # a real moved-aside entry of that day whose file was changed is not put back either
    aside = tree / "archive" / "renju" / f".{DECEMBER[2]}.old-1-abcd"
    os.rename(newest, aside)
    spoil(aside / "history.parquet")
    said = recover(tree)
    assert any("does not match the checksum" in x and "not put back" in x for x in said), said
    assert not newest.exists()
    spoil(aside / "history.parquet")  # the same bytes as before again
    said = recover(tree)
    assert any(f"put back {newest}" in x for x in said) and newest.is_dir()


@pytest.mark.parametrize("where", ["archive/renju/months", "archive/renju", "archive"])
def test_a_link_in_place_of_the_archives_own_directories_is_refused(tree, tmp_path, where):
    moved = tmp_path / "moved"
    os.rename(tree / where, moved)
    (tree / where).symlink_to(moved)
    before = files(moved)
    with pytest.raises(TreeError, match="symbolic link .*never follows links"):
        recover(tree)
    assert files(moved) == before


# ---------------------------------------------------------------------------------------------
# The feed and latest.json give the ledger's head


def test_each_feed_entry_gives_the_ledger_as_it_stood_when_its_list_was_published(tree):
    """A reader holding a feed entry checks that the ledger still has that line: the line it
    names is the one the list's publishing line follows (its ``prev``), and a site drawn again
    from the archive gives the same entries."""
    ledger = (tree / "archive" / "ledger.jsonl").read_bytes().split(b"\n")[:-1]
    lines = [json.loads(raw) for raw in ledger]
    feed = tree / "renju" / "feed.xml"
    entries = {}
    for entry_ in re.findall(r"<entry>.*?</entry>", feed.read_text("utf-8"), re.S):
        day = re.search(r"href=\"[^\"]*(\d{4}-\d\d-\d\d)/index.html\"", entry_).group(1)
        head = re.search(r'<rif:ledger line="(\d+)" sha256="([0-9a-f]{64})"/>', entry_)
        entries[day] = (int(head.group(1)), head.group(2)) if head else None
    assert sorted(entries) == [d.isoformat() for d in DECEMBER]
    first = DECEMBER[0].isoformat()  # published by the ledger's first line: none before it
    assert (
        entries.pop(first) is None and f"archive/renju/{first}/manifest.json" in lines[0]["files"]
    )
    for day, (n, sha) in entries.items():
        assert hashlib.sha256(ledger[n - 1]).hexdigest() == sha
        published = lines[n]  # the next line published the list, after that head
        assert published["op"] == "publish" and published["prev"] == sha
        assert f"archive/renju/{day}/manifest.json" in published["files"]
    latest = json.loads((tree / "renju" / "latest.json").read_text("utf-8"))["ledger"]
    n, sha = entries[DECEMBER[-1].isoformat()]
    assert latest["line"] == n + 1 and lines[n]["prev"] == sha
    assert latest["sha256"] == hashlib.sha256(ledger[n]).hexdigest()
    before = feed.read_bytes()
    shutil.rmtree(tree / "renju")
    assert verify(tree).ok
    assert feed.read_bytes() == before
