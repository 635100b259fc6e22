"""The digest of a rules directory (whr.rules.config_digest)."""

from __future__ import annotations

from pathlib import Path

from whr.rules import config_digest


def test_rules_digest_follows_every_file(tmp_path: Path) -> None:
    (tmp_path / "eligibility.toml").write_text("min_minutes = 30\n", encoding="utf-8")
    (tmp_path / "unrated_games").write_text("# none\n", encoding="utf-8")
    first = config_digest(tmp_path)
    assert config_digest(tmp_path) == first
    (tmp_path / "unrated_games").write_text("# none\n171548\n", encoding="utf-8")
    second = config_digest(tmp_path)
    assert second != first
    (tmp_path / "rated_tournaments").write_text("", encoding="utf-8")
    assert config_digest(tmp_path) not in (first, second)
