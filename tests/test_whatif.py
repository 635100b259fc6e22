"""What if (issue 40, item 5): ``rif-rating what-if`` gives the exact effect of games not yet
rated. Its answers are checked against an independent reading of the published tree (the Parquet
files read with pyarrow, the manifest's parameters read as JSON, the site's ratings.csv) and a
refit made here with :func:`whr.fit` on those games and the hypothetical ones."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.publish import support

REPO = Path(__file__).resolve().parents[1]
EGF = REPO / "tests" / "sources" / "egf"


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("what-if")
    support.publish_inputs(out, support.inputs(300))
    return out


def command(out: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "flows.daily", "what-if", "--out", str(out),
         *args],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def said(done: subprocess.CompletedProcess) -> list[str]:
    return [x for x in done.stderr.splitlines() if not x.startswith("import time:")]


def listed(out: Path) -> dict[str, float]:
    """Today's ratings as the site's ratings.csv publishes them (to the hundredth)."""
    rows = csv.DictReader(io.StringIO((out / "renju" / "ratings.csv").read_text("utf-8-sig")))
    return {r["player"].lstrip("'"): float(r["rating"]) for r in rows if r["rating"]}


def answer(done: subprocess.CompletedProcess) -> pd.DataFrame:
    assert done.returncode == 0, said(done)
    return pd.read_csv(io.StringIO(done.stdout), dtype={"id": str, "name": str})


def test_the_answer_is_the_refit_of_every_rated_game_with_the_hypothetical_ones(out):
    today = listed(out)
    top = sorted(today, key=today.get, reverse=True)
    as_of = support.AS_OF
    games = [  # a round of four games the day after the list, one a week later, a past day
        (top[0], top[5], 0.0, as_of + dt.timedelta(days=1)),
        (top[1], top[2], 0.5, as_of + dt.timedelta(days=1)),
        (top[3], top[4], 1.0, as_of + dt.timedelta(days=1)),
        (top[6], top[0], 1.0, as_of + dt.timedelta(days=8)),
        (top[7], top[8], 0.0, as_of - dt.timedelta(days=200)),
    ]
    given = [f"{b} {w} {r} {d.isoformat()}" for b, w, r, d in games]
    done = command(out, *(x for g in given for x in ("--game", g)), "--csv")
    found = answer(done)
    expected, day = support.refit(out, games)
    assert day == as_of + dt.timedelta(days=8)
    players = list(dict.fromkeys([p for g in games for p in g[:2]]))
    assert found["id"].tolist() == players
    np.testing.assert_allclose(
        found["after"], expected.loc[players, "rating"].to_numpy(float), atol=1e-6
    )
    np.testing.assert_allclose(found["before"], [today[p] for p in players], atol=0.005)
    np.testing.assert_allclose(found["change"], found["after"] - found["before"], atol=1e-9)
    assert abs(found["change"]).max() > 1  # the games moved them
    assert "prefect" not in {  # the published tree only: Prefect is never imported
        m.group(1).split(".")[0]
        for m in re.finditer(r"^import time:.*\|\s+(\S+)$", done.stderr, re.M)
    }


def test_a_new_player_and_a_table_in_the_egf_format(out):
    today = listed(out)
    player = max(today, key=today.get)
    day = support.AS_OF + dt.timedelta(days=1)
    done = command(out, "--game", f"new {player} 1", "--table", str(EGF / "ioct_20_02.h9"), "--csv")
    found = answer(done).set_index("id")
    lines = said(done)
    # the table's handicap games are never rated, and said so; its even game is (2 v 4)
    assert sum("not rated:" in x and "handicap" in x for x in lines) == 5, lines
    table_players = [p for p in found.index if p.startswith("new:")]
    assert len(table_players) == 2 and all(found.loc[table_players, "before"].isna())
    assert found.loc["new", "before"] != found.loc["new", "before"]  # NaN: no rating before
    expected, _ = support.refit(out, [("new", player, 1.0, day)])  # (the even game's two are apart)
    assert abs(found.loc["new", "after"] - expected.loc["new", "rating"]) < 0.05
    assert found.loc[player, "change"] < 0  # lost to a player with no games


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--game", "000001 nobody 1"], 2, "no player 'nobody' on the renju list of"),
        (["--game", "000001 000002"], 2, 'expected "ID1 ID2 RESULT [YYYY-MM-DD]"'),
        (["--game", "000001 000002 2"], 2, "RESULT must be Black's score 1, 0.5 or 0"),
        (["--game", "000001 000001 1"], 2, "cannot play themself"),
        (["--game", "000001 000002 1 2026-13-01"], 2, "expected a day YYYY-MM-DD"),
        ([], 2, "give at least one --game or --table"),
    ],
)
def test_a_bad_game_is_one_line_and_exit_2(out, args, status, message):
    done = command(out, *args)
    assert done.returncode == status and len(said(done)) == 1, said(done)
    assert message in said(done)[0] and re.match(r"rif-rating( what-if)?: error: ", said(done)[0])


def test_a_tree_without_a_list_or_damaged_is_refused_and_named(out, tmp_path):
    done = command(tmp_path / "none", "--game", "000001 000002 1")
    assert done.returncode == 1 and "no published renju list here" in said(done)[0]
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-r", str(out), str(copy)], check=True)
    latest = json.loads((copy / "renju" / "latest.json").read_text(encoding="utf-8"))
    games = copy / latest["archive"] / "games.parquet"
    data = bytearray(games.read_bytes())
    data[len(data) // 2] ^= 1
    games.write_bytes(bytes(data))
    done = command(copy, "--game", "000001 000002 1")
    assert done.returncode == 1, said(done)
    assert f"{games} does not match the checksum recorded in its manifest" in said(done)[0]
