"""Real runs of the flow on the bundled sample around the facts file and past days.

The sequence of issue 20: the gomoku list of a past day published from the database without its
``tournament_facts.csv``, then the next day with it (the facts unrate some games: players leave
the list). It used to fail in the change split (LAPACK's ``dpttrf`` on a 1 x 1 system). And a
past day rerun from the database file (facts beside it) gives the same list as from a directory
that holds that file.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

import whr
from whr.lists.changes import AGREE
from whr.run import Run
from whr.tables import CHANGE_COLUMNS, RECORD_COLUMNS

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
DATABASE = "renjunet_v10_20261130.rif"
DAY1, DAY2 = dt.date(2026, 11, 21), dt.date(2026, 11, 22)
EARLIER = dt.date(2026, 6, 30)

pytestmark = pytest.mark.flow


def _run(source: Path, out: Path, as_of: dt.date, summary: Path, categories=("gomoku",)) -> dict:
    from flows import pipeline

    os.environ["GITHUB_STEP_SUMMARY"] = str(summary)
    try:
        run = Run(sources=(str(source),), out=out, as_of=as_of, categories=tuple(categories))
        state = pipeline.daily(run, return_state=True)
    finally:
        del os.environ["GITHUB_STEP_SUMMARY"]
    return state.result(raise_on_failure=False)["lists"]


def _list(out: Path, day: dt.date, table: str = "ratings") -> pd.DataFrame:
    return pd.read_parquet(out / "archive" / "gomoku" / day.isoformat() / f"{table}.parquet")


@pytest.fixture(scope="module")
def runs(prefect_server: None, tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("past")
    bare, beside, dated = root / "bare", root / "beside", root / "dated"
    for folder in (bare, beside, dated):
        folder.mkdir()
    shutil.copy(SAMPLE / DATABASE, bare / DATABASE)
    shutil.copy(SAMPLE / DATABASE, beside / DATABASE)
    shutil.copy(SAMPLE / "tournament_facts.csv", beside)
    # a directory whose database is that of the day: the directory form of the same rerun
    shutil.copy(SAMPLE / DATABASE, dated / f"renjunet_v10_{DAY2:%Y%m%d}.rif")
    shutil.copy(SAMPLE / "tournament_facts.csv", dated)
    out, apart = root / "out", root / "apart"
    day1 = _run(bare / DATABASE, out, DAY1, root / "day1.md")["gomoku"]
    day2 = _run(beside / DATABASE, out, DAY2, root / "day2.md")["gomoku"]
    from_directory = _run(dated, apart, DAY2, root / "directory.md")["gomoku"]
    # a day the sample's gomoku games went on after (its last gomoku games are of 2026-11)
    earlier = _run(beside / DATABASE, root / "earlier", EARLIER, root / "earlier.md")["gomoku"]
    return {
        "root": root,
        "out": out,
        "apart": apart,
        "outcomes": (day1, day2, from_directory, earlier),
        "summaries": [
            (root / f"{n}.md").read_text() for n in ("day1", "day2", "directory", "earlier")
        ],
    }


def test_a_player_leaving_the_list_does_not_fail_it(runs: dict) -> None:
    day1, day2, *_ = runs["outcomes"]
    assert day1["outcome"] == "published" and day2["outcome"] == "published", day2
    before, after = _list(runs["out"], DAY1), _list(runs["out"], DAY2)
    gone = set(before["player"]) - set(after["player"])
    assert gone  # the facts unrated the only games of some players
    # the change split is there for everybody on both lists, and adds up
    both = after.loc[after["player"].isin(before["player"])]
    assert both["rating_change"].notna().all()
    total = both["change_own_games"] + both["change_others"]
    assert (total - both["rating_change"]).abs().max() < AGREE  # (each published as float32)
    assert both["change_own_games"].abs().max() > 0.01  # somebody's own games changed


def test_the_summary_says_which_source_had_no_facts(runs: dict) -> None:
    day1, day2, *_ = runs["summaries"]
    line = "No `tournament_facts.csv` beside `renjunet\\_v10\\_20261130.rif`"
    assert day1.count(line) == 1
    assert "tournament_facts.csv` beside" not in day2


def test_a_past_day_from_a_later_database_leaves_later_games_out_without_warnings(
    runs: dict,
) -> None:
    assert runs["outcomes"][3]["outcome"] == "published"
    summary = runs["summaries"][3]
    data = whr.read_source(SAMPLE / DATABASE)
    category = data.games["tournament_id"].map(
        data.tournaments.drop_duplicates("tournament_id").set_index("tournament_id")["category"]
    )
    read_later = int(((data.games["date"] > EARLIER) & (category == "gomoku")).sum())
    counted = re.search(r"\| excluded: after\\_as\\_of \| (\d+) \|", summary)
    assert counted is not None and 0 < int(counted.group(1)) <= read_later
    entry = runs["root"] / "earlier" / "archive" / "gomoku" / EARLIER.isoformat()
    games = pd.read_parquet(entry / "games.parquet")
    assert len(games) and (games["date"] <= EARLIER).all()
    exclusions = pd.read_parquet(entry / "exclusions.parquet")
    later = exclusions.loc[exclusions["reason"] == "after_as_of", "message"]
    assert len(later) == int(counted.group(1))
    assert later.str.endswith(": a later game, for a later list").all()  # not "fix the source"


def test_a_past_day_from_the_file_or_its_directory_is_the_same_list(runs: dict) -> None:
    from_directory = runs["outcomes"][2]
    assert from_directory["outcome"] == "published"
    from_file, from_dir = _list(runs["out"], DAY2), _list(runs["apart"], DAY2)
    # no previous list apart: no changes, and a best rating of the one list published there
    same = [c for c in from_file.columns if c not in CHANGE_COLUMNS + RECORD_COLUMNS]
    pd.testing.assert_frame_equal(from_file[same], from_dir[same])
    games = [_list(o, DAY2, "games") for o in (runs["out"], runs["apart"])]
    assert len(games[0]) == len(games[1]) > 0
