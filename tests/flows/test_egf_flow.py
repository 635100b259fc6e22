"""The real flow with a directory of EGF tables as ``--source``: alone, and beside the database.

Two flow runs in all (one per module fixture), each into its own output directory. The tables
are copies of the handmade fixtures of ``tests/sources/egf/``; every expectation below is read
off those files by hand with the rules of ``docs/egf.md``:

- ``byes.h9`` (2020-02-01/02, before the 2021-08-08 cut-over): 2 games and 5 byes;
- ``forfeit_unknown.h9`` (2021-09-01/02): 2 games, 1 result by default (``!``), 1 unknown (``?``);
- ``header.h9`` (TC[R240510EE], PC[EE, Tallinn], 2024-05-10/12): 4 games;
- ``ioct_20_02.h9`` (a real online table of 2020-08-30, OpenGotha's example export): 6 games, 5
  of them with handicaps of 2 to 9 stones, never rated; one even game.

Tables carry no rated flag, and no maintainer confirmed these (``rated_tournaments`` or a
facts line), so in every era their games are rated under the ``unverified`` warning (default,
non-strict mode); from 2021-08-08 their moves are unknown too.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

import whr
from whr.data import bundled
from whr.run import Run

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample"
FIXTURES = ROOT / "tests" / "sources" / "egf"
TABLES = ("byes.h9", "forfeit_unknown.h9", "header.h9", "ioct_20_02.h9")
AS_OF = dt.date(2026, 11, 30)  # after every table, and the sample database's date

pytestmark = pytest.mark.flow

RATED = {  # played games with a result, on both lines in agreement
    "egf:byes:r1:1-2",
    "egf:byes:r2:2-3",
    "egf:forfeit_unknown:r1:3-4",
    "egf:forfeit_unknown:r2:2-4",
    "egf:R240510EE:r1:1-2",
    "egf:R240510EE:r1:3-4",
    "egf:R240510EE:r2:1-3",
    "egf:R240510EE:r2:2-4",
    "egf:ioct_20_02:r1:2-4",  # 4+/w0 | 2-/b0: the even game
}
EXCLUDED = {  # byes (0+ 0- 0= 0=0) are byes; "!" was not played; "?" has no result
    "egf:byes:r1:bye:3": "bye",
    "egf:byes:r2:bye:1": "bye",
    "egf:byes:r3:bye:1": "bye",
    "egf:byes:r3:bye:2": "bye",
    "egf:byes:r3:bye:3": "bye",
    "egf:forfeit_unknown:r1:1-2": "forfeit",
    "egf:forfeit_unknown:r2:1-3": "no_result",
    "egf:ioct_20_02:r1:1-3": "handicap",  # 3+/b7 | 1-/w7
    "egf:ioct_20_02:r2:1-4": "handicap",  # 2 stones
    "egf:ioct_20_02:r2:2-3": "handicap",  # 9
    "egf:ioct_20_02:r3:1-2": "handicap",  # 2
    "egf:ioct_20_02:r3:3-4": "handicap",  # 9
}
TOURNAMENTS = {"egf:byes", "egf:forfeit_unknown", "egf:R240510EE", "egf:ioct_20_02"}


def new_id(name: str, country: str) -> str:
    """docs/egf.md: "egf:" + sha256("<normalised name>|<country as written>")[:10]."""
    return "egf:" + hashlib.sha256(f"{name}|{country}".encode()).hexdigest()[:10]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(source: list[str], out: Path) -> dict:
    from flows import pipeline

    state = pipeline.daily(Run(sources=tuple(source), out=out, as_of=AS_OF), return_state=True)
    snapshot = out / "archive" / "renju" / AS_OF.isoformat()
    return {"state": state, "out": out, "snapshot": snapshot}


@pytest.fixture(scope="module")
def table_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("tables")
    for name in TABLES:
        shutil.copyfile(FIXTURES / name, directory / name)
    return directory


@pytest.fixture(scope="module")
def tables_only(
    prefect_server: None, table_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict:
    summary = tmp_path_factory.mktemp("gh") / "step_summary.md"
    os.environ["GITHUB_STEP_SUMMARY"] = str(summary)  # the run summary, as on GitHub Actions
    try:
        return {**run([str(table_dir)], tmp_path_factory.mktemp("out_tables")), "summary": summary}
    finally:
        del os.environ["GITHUB_STEP_SUMMARY"]


@pytest.fixture(scope="module")
def with_database(
    prefect_server: None, table_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict:
    return run([str(SAMPLE), str(table_dir)], tmp_path_factory.mktemp("out_both"))


def check_published(result: dict) -> dict:
    state, snapshot = result["state"], result["snapshot"]
    assert state.is_completed() and state.name == "Completed", state.message
    assert state.result()["lists"]["renju"]["outcome"] == "published"
    latest = json.loads((result["out"] / "renju" / "latest.json").read_text())
    assert latest["archive"] == f"archive/renju/{AS_OF.isoformat()}/"
    manifest = json.loads((snapshot / "manifest.json").read_text())
    for name, entry in manifest["files"].items():
        assert sha256(snapshot / name) == entry["sha256"], name
    return manifest


def check_egf_games(snapshot: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    games = pd.read_parquet(snapshot / "games.parquet")
    exclusions = pd.read_parquet(snapshot / "exclusions.parquet")
    egf_rated = games[games["game_id"].str.startswith("egf:")]
    egf_excluded = exclusions[exclusions["game_id"].str.startswith("egf:")]
    assert set(egf_rated["game_id"]) == RATED
    assert dict(zip(egf_excluded["game_id"], egf_excluded["reason"], strict=True)) == EXCLUDED
    # rated + excluded = read: 7 rows of byes.h9, 4 of forfeit_unknown.h9, 4 of header.h9, 6 of
    # ioct_20_02.h9
    assert len(egf_rated) + len(egf_excluded) == 7 + 4 + 4 + 6
    return games, exclusions


def check_egf_tournaments_and_players(snapshot: Path) -> None:
    tournaments = pd.read_parquet(snapshot / "tournaments.parquet")
    egf = tournaments[tournaments["tournament_id"].str.startswith("egf:")].set_index(
        "tournament_id"
    )
    assert set(egf.index) == TOURNAMENTS
    tallinn = egf.loc["egf:R240510EE"]
    assert tallinn["name"] == "Tallinn Renju Open 2024" and tallinn["country"] == "EST"
    # unmapped players got new ids and players rows (with the list's country code), so their
    # games were rated and they are on the list
    players = pd.read_parquet(snapshot / "players.parquet").set_index("player_id")
    soosorv = new_id("soosorv ants", "EE")
    assert players.loc[soosorv, "name"] == "Soosorv Ants"
    assert players.loc[soosorv, "country"] == "EST"
    ratings = pd.read_parquet(snapshot / "ratings.parquet")
    assert {soosorv, new_id("kask mari", "LV")} <= set(ratings["player"])


def test_a_directory_of_tables_alone_is_a_source(tables_only: dict, table_dir: Path) -> None:
    manifest = check_published(tables_only)
    # the inputs are exactly the tables and the maintainers' country codes and player mapping
    # (editing those is new data too), each with its sha256
    maintained = [bundled("country_codes.csv"), bundled("egf_players.csv")]
    assert manifest["inputs"] == [
        {"name": name, "sha256": sha256(table_dir / name)} for name in sorted(TABLES)
    ] + [{"name": path.name, "sha256": sha256(path)} for path in maintained]
    games, exclusions = check_egf_games(tables_only["snapshot"])
    assert len(games) == len(RATED) and len(exclusions) == len(EXCLUDED)  # nothing else read
    # rated without a flag (and, from 2021-08-08, without moves): the 4 games of header.h9,
    # the 2 rated games of forfeit_unknown.h9, the 2 games of byes.h9 (2020) and the even game
    # of ioct_20_02.h9 (2020) count under the "unverified" warning: no table is confirmed
    assert manifest["counts"]["selection"]["unverified"] == 4 + 2 + 2 + 1
    check_egf_tournaments_and_players(tables_only["snapshot"])
    ratings = pd.read_parquet(tables_only["snapshot"] / "ratings.parquet")
    # the two byes.h9/forfeit_unknown.h9 people with the same names and countries are one
    # player each: 4 (EE Alpha, EE Beta, FI Gamma, LV Delta) + 4 of header.h9 + the 2 players
    # of ioct_20_02.h9's even game (the other two played only handicap games)
    assert len(ratings) == 10
    # the handicap games are counted by their reason in the run summary and on the not-rated page
    summary = tables_only["summary"].read_text(encoding="utf-8")
    assert "| excluded: handicap | 5 |" in summary
    page = (tables_only["out"] / "renju" / "excluded.html").read_text(encoding="utf-8")
    assert "handicap" in page
    assert "played with a handicap: not a game under a rule certified by the RIF" in page


def test_tables_beside_the_database(with_database: dict, table_dir: Path) -> None:
    manifest = check_published(with_database)
    names = {entry["name"] for entry in manifest["inputs"]}
    assert set(TABLES) <= names
    assert any(name.startswith("renjunet_v10_") for name in names)
    games, exclusions = check_egf_games(with_database["snapshot"])
    # the database's games are all there too: read apart, they are rated or excluded
    database = whr.read_source(SAMPLE, as_of=AS_OF)
    assert len(games) + len(exclusions) == len(database.games) + 7 + 4 + 4 + 6
    assert set(database.games["game_id"]) <= set(games["game_id"]) | set(exclusions["game_id"])
    check_egf_tournaments_and_players(with_database["snapshot"])
