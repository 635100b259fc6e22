"""Preparing the output directory for GitHub Pages (no Prefect needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows import pages


def published(root: Path, days: list[str], latest: str) -> Path:
    for day in days:
        snap = root / "snapshots" / day
        (snap / "site").mkdir(parents=True)
        (snap / "site" / "index.html").write_text("<p>list", encoding="utf-8")
        (snap / "ratings.parquet").write_bytes(b"PAR1")
        (snap / "manifest.json").write_text("{}", encoding="utf-8")
    pointer = {"date": latest, "snapshot": f"snapshots/{latest}"}
    (root / "latest.json").write_text(json.dumps(pointer), encoding="utf-8")
    return root


def test_redirect_and_pruning(tmp_path: Path) -> None:
    days = ["2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30"]
    out = published(tmp_path, days, "2026-11-30")
    removed = pages.prepare_site(out, keep_sites=2)
    assert sorted(p.parent.name for p in removed) == days[:3]
    for day in days:
        snap = out / "snapshots" / day
        assert (snap / "ratings.parquet").is_file() and (snap / "manifest.json").is_file()
        assert (snap / "site").is_dir() == (day in days[3:])
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'url=snapshots/2026-11-30/site/index.html"' in index
    assert (out / ".nojekyll").is_file()
    assert not any(p.is_symlink() for p in out.rglob("*"))


def test_latest_site_kept_even_when_older_than_the_newest(tmp_path: Path) -> None:
    # latest.json never moves backwards, but a past day rerun adds a newer-named directory
    # only if it is later; here the pointer names an older day than the newest directory.
    out = published(tmp_path, ["2026-11-01", "2026-11-02", "2026-11-03"], "2026-11-01")
    pages.prepare_site(out, keep_sites=1)
    assert (out / "snapshots" / "2026-11-01" / "site" / "index.html").is_file()
    assert (out / "snapshots" / "2026-11-03" / "site").is_dir()
    assert not (out / "snapshots" / "2026-11-02" / "site").exists()


def test_refuses_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="latest.json"):
        pages.prepare_site(tmp_path)
    out = published(tmp_path, ["2026-11-30"], "2026-11-30")
    with pytest.raises(ValueError, match="keep_sites"):
        pages.prepare_site(out, keep_sites=0)
    assert pages.main([str(tmp_path / "missing")]) == 2
