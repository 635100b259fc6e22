"""Preparing the output directory for GitHub Pages and the archive (no Prefect needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from whr.publish import pages

FILES = ("ratings.parquet", "history.parquet", "games.parquet", "manifest.json")


def published(root: Path, days: list[str], latest: str) -> Path:
    for day in days:
        snap = root / "snapshots" / day
        (snap / "site" / "p").mkdir(parents=True)
        (snap / "site" / "index.html").write_text("<p>list", encoding="utf-8")
        (snap / "site" / "p" / "1.html").write_text("<p>player", encoding="utf-8")
        for name in FILES:
            (snap / name).write_bytes(name.encode())
    pointer = {"date": latest, "snapshot": f"snapshots/{latest}"}
    (root / "latest.json").write_text(json.dumps(pointer), encoding="utf-8")
    return root


def test_redirect_and_pruning(tmp_path: Path) -> None:
    days = ["2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30"]
    out = published(tmp_path, days, "2026-11-30")
    pruned = pages.prepare_site(out, keep_full=2)
    assert sorted(p.name for p in pruned) == days[:2]
    for day in days[:2]:
        snap = out / "snapshots" / day
        assert sorted(p.name for p in snap.iterdir()) == [
            "manifest.json",
            "pruned.json",
            "ratings.parquet",
        ]
        assert (snap / "ratings.parquet").read_bytes() == b"ratings.parquet"  # untouched
        note = json.loads((snap / "pruned.json").read_text(encoding="utf-8"))
        assert note["removed"] == ["games.parquet", "history.parquet", "site"]
    for day in days[2:]:
        snap = out / "snapshots" / day
        assert (snap / "site" / "p" / "1.html").is_file() and (snap / "games.parquet").is_file()
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'url=snapshots/2026-11-30/site/index.html"' in index
    assert (out / ".nojekyll").is_file()
    assert not any(p.is_symlink() for p in out.rglob("*"))
    # Pruning again changes nothing.
    assert pages.prepare_site(out, keep_full=2) == []


def test_the_latest_snapshot_is_never_pruned(tmp_path: Path) -> None:
    # A directory newer than the pointer (not expected from whr.publish, which only moves
    # latest.json forward, but possible by hand) does not cost the latest its site.
    out = published(tmp_path, ["2026-11-01", "2026-11-02", "2026-11-03"], "2026-11-02")
    pages.prepare_site(out, keep_full=1)
    assert (out / "snapshots" / "2026-11-02" / "site" / "index.html").is_file()
    assert (out / "snapshots" / "2026-11-03" / "site").is_dir()
    assert not (out / "snapshots" / "2026-11-01" / "site").exists()


def test_refuses_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="latest.json"):
        pages.prepare_site(tmp_path)
    out = published(tmp_path, ["2026-11-30"], "2026-11-30")
    with pytest.raises(ValueError, match="keep_full"):
        pages.prepare_site(out, keep_full=0)
    assert pages.main([str(tmp_path / "missing")]) == 2
