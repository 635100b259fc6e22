"""Publishing as one recoverable transaction: stable addresses, the archive, variants, gates,
modes, the lock, damaged state, and real runs killed with SIGKILL at every step boundary."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
import support

import whr
from whr.digest import file_sha256, text_sha256
from whr.lists.changes import AGREE
from whr.params import FitParams
from whr.publish import GateError, LockedError, hold, recover, verify
from whr.publish.archive import StateError, check_entry, read_list
from whr.rules import default_directory, load_config
from whr.run import RunError

D = support.AS_OF
PLAIN_GAMES = 300  # kill_child.py publishes the same history
HERE = Path(__file__).parent
HOLD_LOCK = [sys.executable, str(HERE.parent / "hold_lock.py")]
FULL = {
    "manifest.json",
    "index.html",
    *(f"{t}.parquet" for t in ("ratings", "year_end", "history", "games", "players")),
    "tournaments.parquet",
    "exclusions.parquet",
    "tournament_changes.parquet",
    "record.parquet",
    "facts_needed.csv",
}


@pytest.fixture(scope="module")
def plain() -> support.Inputs:
    """A short history without hostile names (the kill tests' child publishes it too)."""
    return support.inputs(PLAIN_GAMES)


def files(root: Path) -> dict[str, str]:
    """Every file under ``root`` with its sha256."""
    return {p.relative_to(root).as_posix(): file_sha256(p) for p in root.rglob("*") if p.is_file()}


def leftovers(out: Path) -> list[str]:
    """Anything a finished run must not leave: work directories, moved-aside days, temp files."""
    return sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if re.search(r"(^|/)\.(work-|.*\.old-|.*\.tmp$|staging)", p.relative_to(out).as_posix())
    )


def pointer(out: Path, key: str = "renju") -> dict:
    return json.loads((out / key / "latest.json").read_text(encoding="utf-8"))


def test_stable_addresses_archive_and_index(published):
    site, entry = support.site_of(published), support.entry_of(published)
    assert (site / "index.html").is_file() and (site / "ratings.parquet").is_file()
    assert {p.name for p in entry.iterdir()} == FULL
    latest = pointer(published)
    assert latest["date"] == D.isoformat()
    assert latest["archive"] == f"archive/renju/{D.isoformat()}/"
    assert latest["manifest_sha256"] == file_sha256(entry / "manifest.json")
    manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["list"] == {"category": "renju", "variant": None}
    for name, info in manifest["files"].items():
        assert file_sha256(entry / name) == info["sha256"], name
    index = json.loads((published / "published.json").read_text(encoding="utf-8"))
    (renju,) = index["lists"]
    assert renju["latest"] == D.isoformat() and renju["site"] == "renju/"
    assert [d["date"] for d in renju["days"]] == [D.isoformat()]
    assert renju["days"][0]["manifest_sha256"] == latest["manifest_sha256"]
    # the root page sends readers to the official renju list, relatively
    root = (published / "index.html").read_text(encoding="utf-8")
    assert 'url=renju/index.html"' in root
    assert f'href="archive/renju/{D.isoformat()}/index.html"' in (
        published / "archive.html"
    ).read_text(encoding="utf-8")
    assert "manifest.json" in (entry / "index.html").read_text(encoding="utf-8")
    assert leftovers(published) == []


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_files_and_directories_follow_the_umask(plain, tmp_path, mask):
    out = tmp_path / "out"  # pytest's own directory is 0700
    old = os.umask(mask)
    try:
        support.publish_inputs(out, plain)
    finally:
        os.umask(old)
    for path in [out, *out.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        expected = (0o777 if path.is_dir() else 0o666) & ~mask
        assert mode == expected, f"{path.relative_to(out)}: {oct(mode)}"


def test_the_next_day_keeps_yesterdays_addresses_and_compacts_its_entry(plain, tmp_path):
    support.publish_inputs(tmp_path, plain, D)
    player_page = next((tmp_path / "renju" / "p").glob("*.html"))
    later = support.publish_inputs(tmp_path, plain, D + dt.timedelta(days=1))
    assert later.previous_day == D and later.previous is not None
    assert pointer(tmp_path)["date"] == (D + dt.timedelta(days=1)).isoformat()
    assert player_page.is_file()  # the same address, now showing the new day
    assert (D + dt.timedelta(days=1)).isoformat() in player_page.read_text(encoding="utf-8")
    old = support.entry_of(tmp_path, D)
    assert {p.name for p in old.iterdir()} == {"manifest.json", "ratings.parquet", "index.html"}
    manifest = json.loads((old / "manifest.json").read_text(encoding="utf-8"))
    assert set(manifest["files"]) == {"ratings.parquet"}  # never lists a file that is gone
    assert "history.parquet" in manifest["compacted"]["removed"]
    assert check_entry(old, checksums=True).day == D
    assert {p.name for p in support.entry_of(tmp_path, later.day).iterdir()} == FULL


def test_closed_months_move_into_one_file_and_year_ends_stay_whole(plain, tmp_path):
    days = [dt.date(2025, 12, 30), dt.date(2025, 12, 31), dt.date(2026, 1, 1)]
    lists = {day: support.publish_inputs(tmp_path, plain, day).ratings for day in days}
    (month,) = (tmp_path / "archive" / "renju" / "months").iterdir()
    assert month.name == f"2025-12.{file_sha256(month)[:16]}.parquet"  # named by its content
    assert {p.name for p in support.entry_of(tmp_path, days[0]).iterdir()} == {
        "manifest.json",
        "index.html",
    }
    assert {p.name for p in support.entry_of(tmp_path, days[1]).iterdir()} == FULL  # December 31
    for day in days[:2]:
        found = check_entry(support.entry_of(tmp_path, day), checksums=True)
        assert found.manifest["list_in"]["sha256"] == file_sha256(month)
        got = read_list(found).sort_values("player").reset_index(drop=True)
        expected = lists[day].sort_values("player").reset_index(drop=True)
        pd.testing.assert_frame_equal(got, expected, check_dtype=False)  # the rows, exactly
    index = json.loads((tmp_path / "published.json").read_text(encoding="utf-8"))
    by_day = {d["date"]: d for d in index["lists"][0]["days"]}
    assert by_day["2025-12-30"]["list"] == f"archive/renju/months/{month.name}"
    assert by_day["2025-12-31"]["full"] and by_day["2026-01-01"]["full"]
    assert not by_day["2025-12-30"]["full"]


def test_a_past_day_never_moves_the_current_list(plain, tmp_path):
    support.publish_inputs(tmp_path, plain, D)
    site = files(tmp_path / "renju")
    past = support.publish_inputs(tmp_path, plain, D - dt.timedelta(days=3))
    assert past.site is None
    assert files(tmp_path / "renju") == site
    assert pointer(tmp_path)["date"] == D.isoformat()
    assert support.entry_of(tmp_path, past.day).is_dir()


def test_a_variant_is_published_apart_and_never_touches_the_official_list(plain, tmp_path):
    support.publish_inputs(tmp_path, plain)
    official = files(tmp_path / "renju") | {"archive": str(files(tmp_path / "archive" / "renju"))}
    with pytest.raises(RunError, match="--variant NAME"):
        support.run(tmp_path, fit=FitParams(w2_elo2_per_day=19.3))
    fields = {"variant": "w2-19", "fit": FitParams(w2_elo2_per_day=19.3)}
    variant = support.publish_inputs(tmp_path, plain, run_fields=fields)
    assert variant.site == tmp_path / "variants" / "w2-19" / "renju"
    assert (variant.site / "index.html").is_file()
    after = files(tmp_path / "renju") | {"archive": str(files(tmp_path / "archive" / "renju"))}
    assert after == official
    lists = json.loads((tmp_path / "published.json").read_text(encoding="utf-8"))["lists"]
    assert [(x["category"], x["variant"]) for x in lists] == [("renju", None), ("renju", "w2-19")]
    manifest = json.loads((variant.entry / "manifest.json").read_text(encoding="utf-8"))
    assert (
        manifest["parameters"]["w2_elo2_per_day"] == 19.3
        and manifest["parameters"]["variant"] == "w2-19"
    )


def test_an_empty_list_is_refused_unless_forced(plain, tmp_path):
    nothing = dataclasses.replace(plain.selection, rated=plain.selection.rated.iloc[:0])
    empty = dataclasses.replace(plain, selection=nothing, fit=whr.fit(nothing.rated))
    with pytest.raises(GateError, match="no rated games.*--force REASON"):
        support.publish_inputs(tmp_path, empty)
    assert not (tmp_path / "archive" / "renju" / D.isoformat()).exists()
    done = support.publish_inputs(tmp_path, empty, run_fields={"force": "testing the gate"})
    manifest = json.loads((done.entry / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["forced"]["reason"] == "testing the gate"
    assert any("no rated games" in x for x in manifest["forced"]["overrode"])


def test_a_list_of_more_players_than_the_cap_is_refused_before_anything_is_built(plain, tmp_path):
    from whr.publish import SizeError

    rated = plain.selection.rated
    players = len(set(rated["black"]) | set(rated["white"]))
    with pytest.raises(SizeError) as info:
        support.publish_inputs(
            tmp_path, plain, run_fields={"max_players": players - 1, "force": "not a gate"}
        )
    assert f"the list would have {players:,} players, more than --max-players" in str(info.value)
    assert leftovers(tmp_path) == [] and not (tmp_path / "archive" / "renju").exists()
    done = support.publish_inputs(tmp_path, plain, run_fields={"max_players": players})
    assert done.entry.is_dir()


def test_a_list_that_shrinks_too_much_is_refused(plain, tmp_path):
    support.publish_inputs(tmp_path, plain, D)
    site = files(tmp_path / "renju")
    rated = plain.selection.rated
    half = dataclasses.replace(plain.selection, rated=rated.iloc[: len(rated) // 2])
    shrunk = dataclasses.replace(plain, selection=half, fit=whr.fit(half.rated))
    later = D + dt.timedelta(days=1)
    with pytest.raises(GateError, match=r"rated games fell from \d+ on .* to \d+"):
        support.publish_inputs(tmp_path, shrunk, later)
    assert files(tmp_path / "renju") == site and leftovers(tmp_path) == []
    support.publish_inputs(tmp_path, shrunk, later, run_fields={"max_shrink": 0.6})


def test_forced_republish_of_a_day_gives_identical_tables(plain, tmp_path):
    first = support.publish_inputs(tmp_path, plain)
    before = {k: v for k, v in files(first.entry).items() if k.endswith(".parquet")}
    again = support.publish_inputs(tmp_path, plain, run_fields={"force": "rerun after upgrade"})
    after = {k: v for k, v in files(again.entry).items() if k.endswith(".parquet")}
    assert after == before
    assert leftovers(tmp_path) == []


def test_damaged_state_is_named_and_repaired(plain, tmp_path):
    support.publish_inputs(tmp_path, plain, D)
    (tmp_path / "renju" / "latest.json").write_text("[]", encoding="utf-8")
    said = recover(tmp_path)
    assert any("now shows" in x and D.isoformat() in x for x in said), said
    assert pointer(tmp_path)["date"] == D.isoformat()
    # a damaged earlier list does not fail the next one; it is named, with the fix
    (support.entry_of(tmp_path) / "ratings.parquet").write_bytes(b"not parquet")
    later = support.publish_inputs(tmp_path, plain, D + dt.timedelta(days=1))
    assert later.previous is None
    assert any("ratings.parquet" in x and "--force REASON" in x for x in later.repaired)
    # a truncated manifest of the same day: named; the day is left for the operator, and is
    # republished over the damage only with --force
    manifest = support.entry_of(tmp_path, later.day) / "manifest.json"
    manifest.write_text(manifest.read_text(encoding="utf-8")[:50], encoding="utf-8")
    said = recover(tmp_path)
    truncated = f"damaged: {manifest} has 50 bytes, not the "  # its recorded size
    assert any(x.startswith(truncated) and "changed after the run wrote it" in x for x in said)
    with pytest.raises(StateError, match="published and damaged: .* --force REASON"):
        support.publish_inputs(tmp_path, plain, later.day)
    assert manifest.read_text(encoding="utf-8") != "" and len(manifest.read_bytes()) == 50
    again = support.publish_inputs(tmp_path, plain, later.day, run_fields={"force": "restore"})
    assert check_entry(again.entry, checksums=True).day == later.day
    assert pointer(tmp_path)["date"] == later.day.isoformat()


def test_a_second_process_cannot_publish_to_the_same_tree(plain, tmp_path):
    holder = subprocess.Popen([*HOLD_LOCK, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(
            LockedError, match=rf"another run is publishing to .* \(pid {holder.pid}, since "
        ):
            support.publish_inputs(tmp_path, plain)
        assert not (tmp_path / "archive").exists()
    finally:
        holder.kill()
        holder.wait()
    # the kernel released the lock with the process: the tree is free again
    with hold(tmp_path):
        pass


def test_waiting_for_the_lock_queues_behind_the_holder(tmp_path):
    first = subprocess.Popen(
        [*HOLD_LOCK, str(tmp_path), "--tag", "first", "--seconds", "1.0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert first.stdout.readline().strip() == "held"
    second = subprocess.run(
        [*HOLD_LOCK, str(tmp_path), "--wait", "--tag", "second", "--seconds", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    first.wait()
    assert second.returncode == 0, second.stderr
    assert (tmp_path / "order").read_text().split() == ["first", "second"]


# ---------------------------------------------------------------------------------------------
# Killed runs


@pytest.fixture(scope="module")
def clean(plain, tmp_path_factory) -> Path:
    """The tree one clean publish leaves."""
    out = tmp_path_factory.mktemp("clean")
    support.publish_inputs(out, plain)
    return out


def comparable(out: Path) -> dict[str, str]:
    """Every file's checksum, but for those that record when or what was repaired (the feed
    without its entries' ledger lines, which carry when they were written)."""
    volatile = ("manifest.json", "latest.json", "published.json", "about.html", "checksums.json",
                "ledger.jsonl")  # fmt: skip
    found = {k: v for k, v in files(out).items() if not k.endswith(volatile) and k != ".lock"}
    for feed in out.rglob("feed.xml"):
        text = re.sub(r"<rif:ledger [^>]*/>\n", "", feed.read_text(encoding="utf-8"))
        found[feed.relative_to(out).as_posix()] = text_sha256(text)
    return found


def kill_at(out: Path, step: str, force: str | None = None) -> None:
    args = [sys.executable, str(HERE / "kill_child.py"), str(out), step]
    child = subprocess.run([*args, *([force] if force else [])], capture_output=True, text=True)
    assert child.returncode == -9, (child.returncode, child.stdout, child.stderr)
    assert child.stdout.strip() == f"killed before {step}"


@pytest.mark.parametrize(
    ("step", "first"),
    [
        ("rename_in", False),  # before the rename: nothing was published
        ("swap", False),  # between the rename and the pointer: published, site not switched
        ("rename_in", True),  # --force: between the move-aside and the rename
        ("tidy", False),  # after the pointer, before tidying
    ],
)
def test_a_run_killed_at_any_step_is_repaired_by_the_next_run(plain, clean, tmp_path, step, first):
    if first:
        support.publish_inputs(tmp_path, plain)
    kill_at(tmp_path, step, "republish" if first else None)
    assert leftovers(tmp_path), "the killed run should have left work behind"
    if step == "swap":  # the day is published but the site still shows nothing
        assert support.entry_of(tmp_path).is_dir() and not (tmp_path / "renju").exists()
    if first:  # the day is moved aside and not yet replaced
        assert not support.entry_of(tmp_path).exists()
    support.publish_inputs(tmp_path, plain)  # the next ordinary run
    assert leftovers(tmp_path) == []
    assert comparable(tmp_path) == comparable(clean)
    assert pointer(tmp_path)["date"] == D.isoformat() and verify(tmp_path).ok
    assert check_entry(support.entry_of(tmp_path), checksums=True).day == D


def test_parquet_is_written_with_declared_schemas(published):
    for path in support.entry_of(published).glob("*.parquet"):
        schema = pq.read_schema(path)
        assert "large_string" not in str(schema), path.name
        assert schema.metadata[b"whr.schema_version"]


def test_each_change_is_split_into_own_games_and_the_rest(plain, tmp_path):
    """Two lists a month apart: the change of each player is the difference of the two
    published lists, it splits into own games and the rest (within AGREE: the float32 of each
    published value), and a player without a
    game in between owes nothing to their own games."""
    games = plain.selection.rated
    earlier = D - dt.timedelta(days=30)
    config = load_config(default_directory())
    selection = whr.select(plain.data, earlier, config=config)
    assert 0 < len(selection.rated) < len(games), "the month must add games"
    first = dataclasses.replace(plain, selection=selection, fit=whr.fit(selection.rated))
    before = support.publish_inputs(tmp_path, first, earlier).ratings.set_index("player")
    after = support.publish_inputs(tmp_path, plain, D).ratings.set_index("player")
    both = after.index.intersection(before.index)
    assert len(both) and after.loc[~after.index.isin(before.index), "rating_change"].isna().all()
    expected = after.loc[both, "rating"] - before.loc[both, "rating"]
    np.testing.assert_allclose(after.loc[both, "rating_change"], expected, atol=1e-9)
    split = after.loc[both, "change_own_games"] + after.loc[both, "change_others"]
    # within AGREE: each part, and each list's rating, is published as its nearest float32
    np.testing.assert_allclose(split, after.loc[both, "rating_change"], atol=AGREE)
    new = games.loc[pd.to_datetime(games["date"]).dt.date > earlier]
    played = set(new["black"]) | set(new["white"])
    idle = [p for p in both if p not in played]
    assert idle and (after.loc[idle, "change_own_games"] == 0).all()
    assert (after.loc[[p for p in both if p in played], "change_own_games"] != 0).any()
    ranked = before["rank"].notna()
    pd.testing.assert_series_equal(
        after.loc[both, "previous_rank"].astype("Float64"),
        before.loc[both, "rank"].where(ranked).astype("Float64"),
        check_names=False,
    )


def test_a_repair_draws_the_site_the_publish_drew(plain, tmp_path):
    # publish draws the site from its snapshot, a repair from the entry's files: the same bytes
    support.publish_inputs(tmp_path, plain, D)
    site = tmp_path / "renju"
    drawn = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    (site / "latest.json").unlink()  # the site no longer says which day it shows
    said = recover(tmp_path)
    assert any("now shows" in x for x in said), said
    again = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert again.keys() == drawn.keys()
    assert [p for p in drawn if again[p] != drawn[p]] == []
