"""The run summary, the snapshot look-ups and the command line, without running the flow."""

from __future__ import annotations

import datetime as dt
import inspect
import json
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pyarrow.parquet as pq
import pytest

from flows import daily
from whr import tables

D = dt.date(2026, 11, 30)


def ratings(rows: list[dict]) -> pd.DataFrame:
    """A RATINGS table from a few hand-written fields; the rest filled with plain values."""
    base = {
        "list_date": D,
        "rank": None,
        "country_rank": None,
        "native_name": None,
        "country_name": None,
        "female": False,
        "birth_year": None,
        "uncertainty": 50.0,
        "games": 12,
        "wins": 6,
        "draws": 0,
        "losses": 6,
        "gy1": 12,
        "gy2": 12,
        "gy5": 12,
        "first_game": dt.date(2020, 1, 1),
        "last_game": dt.date(2026, 1, 1),
        "best_date": dt.date(2026, 1, 1),
        "status": "active",
    }
    if not rows:
        return tables.empty(tables.RATINGS)
    frame = pd.DataFrame([{**base, "best_rating": r["rating"], **r} for r in rows])
    return tables.conform(frame, tables.RATINGS)


def write_snapshot(root: Path, day: str, frame: pd.DataFrame, manifest: dict) -> Path:
    path = root / "snapshots" / day
    path.mkdir(parents=True)
    pq.write_table(tables.to_table(frame, tables.RATINGS), path / "ratings.parquet")
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return path


def test_summary_counts_top_list_and_changes(tmp_path: Path) -> None:
    before = ratings(
        [
            {"player": "1", "name": "Ann A", "country": "EST", "rating": 2400.0, "rank": 1},
            {"player": "2", "name": "Bob B", "country": "RUS", "rating": 2300.0, "rank": 2},
            {"player": "3", "name": "Cid C", "country": "CHN", "rating": 2200.0, "rank": 3},
        ]
    )
    after = ratings(
        [
            {"player": "1", "name": "Ann A", "country": "EST", "rating": 2400.2, "rank": 2},
            {"player": "2", "name": "Bob B", "country": "RUS", "rating": 2450.0, "rank": 1},
            {"player": "3", "name": "Cid C", "country": "CHN", "rating": 2170.0, "rank": 3},
            {
                "player": "4",
                "name": "<script>x</script> | Dee",
                "country": "JPN",
                "rating": 2000.0,
                "status": "provisional",
                "games": 3,
            },
        ]
    )
    previous = write_snapshot(tmp_path, "2026-11-29", before, {})
    snapshot = write_snapshot(tmp_path, "2026-11-30", after, {})
    games = tables.empty(tables.GAMES).reindex(range(5))
    data = tables.SourceData(
        players=tables.empty(tables.PLAYERS),
        tournaments=tables.empty(tables.TOURNAMENTS),
        games=games,
        problems=tables.empty(tables.PROBLEMS),
        inputs=(("db.rif", "ab" * 32),),
    )
    exclusions = pd.DataFrame(
        {"game_id": ["a", "b", "c"], "reason": ["forfeit", "forfeit", "self_game"]}
    )
    selection = SimpleNamespace(rated=games.head(2), exclusions=exclusions)
    params = {"as_of": "2026-11-30", "category": "renju", "w2": 12.9}

    text = daily.summarize(data, selection, snapshot, previous, params)

    assert "| db.rif | " + "ab" * 32 + " |" in text
    assert "| read | 5 |" in text and "| rated | 2 |" in text and "| excluded | 3 |" in text
    assert "| excluded: forfeit | 2 |" in text and "| excluded: self\\_game | 1 |" in text
    assert "| active | 3 |" in text and "| provisional | 1 |" in text and "| total | 4 |" in text
    top = [
        line for line in text.splitlines() if line.startswith("| 1 |") or line.startswith("| 2 |")
    ]
    assert top[0].startswith("| 1 | Bob B | RUS | 2450 |")  # sorted by rank, not by input order
    assert top[1].startswith("| 2 | Ann A |")
    assert "1 new players" in text
    assert "&lt;script&gt;x&lt;/script&gt; \\| Dee" in text and "<script>" not in text
    movers = text[text.index("Biggest movers") :]
    # Bob +150 before Cid -30; Ann moved by 0.2 only and is not a mover.
    assert movers.index("Bob B") < movers.index("Cid C")
    assert "+150" in movers and "-30" in movers and "Ann A" not in movers


def test_summary_without_previous_snapshot(tmp_path: Path) -> None:
    snapshot = write_snapshot(
        tmp_path,
        "2026-11-30",
        ratings([{"player": "1", "name": "A", "country": "X", "rating": 1900.0, "rank": 1}]),
        {},
    )
    empty = tables.SourceData(
        players=tables.empty(tables.PLAYERS),
        tournaments=tables.empty(tables.TOURNAMENTS),
        games=tables.empty(tables.GAMES),
        problems=tables.empty(tables.PROBLEMS),
    )
    selection = SimpleNamespace(rated=empty.games, exclusions=tables.empty(tables.EXCLUSIONS))
    text = daily.summarize(empty, selection, snapshot, None, {"as_of": "2026-11-30"})
    assert "No previous snapshot." in text


def test_previous_snapshot_is_the_newest_before_the_as_of_date(tmp_path: Path) -> None:
    frame = ratings([{"player": "1", "name": "A", "country": "X", "rating": 1900.0}])
    for day in ("2026-11-01", "2026-11-20", "2026-11-30", "2026-12-05"):
        write_snapshot(tmp_path, day, frame, {})
    (tmp_path / "snapshots" / ".2026-11-25.tmp-x").mkdir()  # a publish in progress
    assert daily.previous_snapshot(tmp_path, D).name == "2026-11-20"
    assert daily.previous_snapshot(tmp_path, dt.date(2026, 11, 1)) is None
    assert daily.previous_snapshot(tmp_path / "nowhere", D) is None


def test_same_run_needs_same_checksum_and_every_parameter(tmp_path: Path) -> None:
    params = {"as_of": "2026-11-30", "category": "renju", "w2": 12.9, "strict": False}
    manifest = {"inputs_sha256": "f" * 64, "parameters": {**params, "virtual_games": 2}}
    snapshot = write_snapshot(tmp_path, "2026-11-30", ratings([]), manifest)
    assert daily._same_run(snapshot, "f" * 64, params)
    assert not daily._same_run(snapshot, "e" * 64, params)
    assert not daily._same_run(snapshot, "f" * 64, {**params, "w2": 19.3})
    assert not daily._same_run(snapshot, "f" * 64, {**params, "strict": True})
    assert not daily._same_run(tmp_path / "snapshots" / "2026-11-29", "f" * 64, params)


def test_markdown_escaping() -> None:
    assert daily._md("a|b") == "a\\|b"
    assert daily._md("<b>&") == "&lt;b&gt;&amp;"
    assert daily._md("*x* _y_ [z](u) `c` #h") == "\\*x\\* \\_y\\_ \\[z\\](u) \\`c\\` \\#h"
    assert daily._md("two\nlines") == "two lines"


def test_command_line_covers_every_flow_parameter() -> None:
    flow_params = set(inspect.signature(daily.daily.fn).parameters)
    help_text = daily.parser().format_help()
    dests = {a.dest for a in daily.parser()._actions} - {"help"}
    renamed = {
        "timeout": "pull_timeout_s",
        "retries": "pull_retries",
        "backoff": "pull_backoff_s",
        "max_bytes": "pull_max_bytes",
    }
    assert {renamed.get(d, d) for d in dests} == flow_params
    for action in daily.parser()._actions:
        assert action.help and len(action.help) > 20, action.dest
    assert "--as-of" in help_text and "--virtual-games" in help_text


def test_command_line_parses_and_rejects() -> None:
    args = daily.parser().parse_args(
        ["--source", "a.rif", "--source", "egf/", "--as-of", "2021-08-08", "--w2", "19.3"]
    )
    assert args.source == ["a.rif", "egf/"]
    assert args.as_of == dt.date(2021, 8, 8)
    assert args.w2 == 19.3 and args.category == "renju" and not args.force
    with pytest.raises(SystemExit):
        daily.parser().parse_args(["--source", "a", "--as-of", "2021-13-01"])
    with pytest.raises(SystemExit):
        daily.parser().parse_args(["--source", "a", "--category", "chess"])
    with pytest.raises(SystemExit):
        daily.parser().parse_args([])


@pytest.mark.parametrize(
    ("change", "name"),
    [
        ({"sources": []}, "source"),
        ({"category": "chess"}, "category"),
        ({"w2": 0.0}, "w2"),
        ({"virtual_games": -1}, "virtual_games"),
        ({"pull_retries": -1}, "pull_retries"),
    ],
)
def test_bad_arguments_name_the_argument(change: dict, name: str) -> None:
    good = {
        "sources": ["x"],
        "category": "renju",
        "w2": 12.9,
        "virtual_games": 2,
        "pull_retries": 0,
        "pull_backoff_s": 0.0,
    }
    with pytest.raises(ValueError, match=name):
        daily._check_arguments(**{**good, **change})


def test_rules_digest_follows_every_file(tmp_path: Path) -> None:
    (tmp_path / "eligibility.toml").write_text("min_minutes = 30\n", encoding="utf-8")
    (tmp_path / "unrated_games").write_text("# none\n", encoding="utf-8")
    first = daily.rules_digest(tmp_path)
    assert daily.rules_digest(tmp_path) == first
    (tmp_path / "unrated_games").write_text("# none\n171548\n", encoding="utf-8")
    second = daily.rules_digest(tmp_path)
    assert second != first
    (tmp_path / "rated_tournaments").write_text("", encoding="utf-8")
    assert daily.rules_digest(tmp_path) not in (first, second)
