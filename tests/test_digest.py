"""The digest of a directory (whr.digest.directory_sha256): the rules' part of "No new data"."""

from __future__ import annotations

import hashlib
from pathlib import Path

from whr.digest import directory_sha256, file_sha256


def test_a_directory_digest_follows_every_file(tmp_path: Path) -> None:
    (tmp_path / "eligibility.toml").write_text("min_minutes = 30\n", encoding="utf-8")
    (tmp_path / "unrated_games").write_text("# none\n", encoding="utf-8")
    first = directory_sha256(tmp_path)
    assert directory_sha256(tmp_path) == first
    (tmp_path / "unrated_games").write_text("# none\n171548\n", encoding="utf-8")
    second = directory_sha256(tmp_path)
    assert second != first
    (tmp_path / "rated_tournaments").write_text("", encoding="utf-8")
    third = directory_sha256(tmp_path)
    assert third not in (first, second)
    (tmp_path / "rated_tournaments").rename(tmp_path / "rated_tournaments.old")
    assert directory_sha256(tmp_path) not in (first, second, third)
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "x.pyc").write_bytes(b"\0")
    assert directory_sha256(tmp_path) == directory_sha256(tmp_path)


def test_the_digest_is_the_documented_one(tmp_path: Path) -> None:
    (tmp_path / "b").write_bytes(b"second")
    (tmp_path / "a").write_bytes(b"first")
    lines = "".join(
        f"{name}\t{hashlib.sha256(data).hexdigest()}\n"
        for name, data in (("a", b"first"), ("b", b"second"))
    )
    assert directory_sha256(tmp_path) == hashlib.sha256(lines.encode()).hexdigest()
    assert file_sha256(tmp_path / "a") == hashlib.sha256(b"first").hexdigest()
