"""Look-ups over earlier publishes (whr.publish.snapshots) on hand-written snapshots."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from snapshot_support import D, ratings, write_snapshot

from whr.publish import snapshots


def test_previous_snapshot_is_the_newest_before_the_as_of_date(tmp_path: Path) -> None:
    frame = ratings([{"player": "1", "name": "A", "country": "X", "rating": 1900.0}])
    for day in ("2026-11-01", "2026-11-20", "2026-11-30", "2026-12-05"):
        write_snapshot(tmp_path, day, frame, {})
    (tmp_path / "snapshots" / ".2026-11-25.tmp-x").mkdir()  # a publish in progress
    assert snapshots.previous_snapshot(tmp_path, D).name == "2026-11-20"
    assert snapshots.previous_snapshot(tmp_path, dt.date(2026, 11, 1)) is None
    assert snapshots.previous_snapshot(tmp_path / "nowhere", D) is None


def test_same_run_needs_same_checksum_and_every_parameter(tmp_path: Path) -> None:
    params = {"as_of": "2026-11-30", "category": "renju", "w2": 12.9, "strict": False}
    manifest = {"inputs_sha256": "f" * 64, "parameters": {**params, "virtual_games": 2}}
    snapshot = write_snapshot(tmp_path, "2026-11-30", ratings([]), manifest)
    assert snapshots.is_same_run(snapshot, "f" * 64, params)
    assert not snapshots.is_same_run(snapshot, "e" * 64, params)
    assert not snapshots.is_same_run(snapshot, "f" * 64, {**params, "w2": 19.3})
    assert not snapshots.is_same_run(snapshot, "f" * 64, {**params, "strict": True})
    assert not snapshots.is_same_run(tmp_path / "snapshots" / "2026-11-29", "f" * 64, params)


def test_latest_snapshot_follows_the_pointer(tmp_path: Path) -> None:
    assert snapshots.latest_snapshot(tmp_path) is None  # no latest.json
    frame = ratings([{"player": "1", "name": "A", "country": "X", "rating": 1900.0}])
    named = write_snapshot(tmp_path, "2026-11-20", frame, {})
    write_snapshot(tmp_path, "2026-11-30", frame, {})  # newer, but not the one named
    pointer = tmp_path / "latest.json"
    pointer.write_text('{"date": "2026-11-20", "snapshot": "snapshots/2026-11-20"}', "utf-8")
    assert snapshots.latest_snapshot(tmp_path) == named
    pointer.write_text('{"date": "2026-11-20"}', "utf-8")  # a date only: snapshots/<date>
    assert snapshots.latest_snapshot(tmp_path) == named
    (named / "manifest.json").unlink()  # names a snapshot that is not complete
    assert snapshots.latest_snapshot(tmp_path) is None
    pointer.write_text("{not json", "utf-8")
    assert snapshots.read_latest(tmp_path) is None
    assert snapshots.latest_snapshot(tmp_path) is None
