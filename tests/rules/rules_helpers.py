"""Tiny SourceData builders for the eligibility tests: give only what a test is about."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd

from whr.rules import Selection, default_directory, load_config, select
from whr.tables import GAMES, PLAYERS, PROBLEMS, TOURNAMENTS, SourceData, conform, empty

PLAYER_IDS = ("p1", "p2", "p3", "p4")
OLD_END = dt.date(2020, 6, 7)  # before the 2021-08-08 cut-over
NEW_END = dt.date(2024, 6, 9)  # after it
AS_OF = dt.date(2026, 11, 30)
RULES = load_config(default_directory())  # the repository's rules


def run(data: SourceData, **arguments) -> Selection:
    """``select`` with the repository's rules unless a test gives its own ``config``."""
    arguments.setdefault("config", RULES)
    return select(data, **arguments)


def game(game_id: str, **fields) -> dict:
    """A game row: an ordinary decisive game p1-p2 in tournament "t1", unless told otherwise."""
    row = {
        "game_id": game_id,
        "tournament_id": "t1",
        "round": "1",
        "rule_id": "1",
        "black": "p1",
        "white": "p2",
        "result": 1.0,
        "date": None,  # filled from the tournament's end by make_data when left None
        "moves": 41,
        "unrated": False,
        "forfeit": False,
        "bye": False,
        "colours_known": True,
        "handicap": None,
        "note": None,
        "source": "test",
    }
    unknown = set(fields) - set(row)
    assert not unknown, f"not a games column: {unknown}"
    row.update(fields)
    return row


def tournament(tournament_id: str = "t1", **fields) -> dict:
    """A tournament row: rated, renju, RIF rule, type 0, ending OLD_END, unless told otherwise."""
    row = {
        "tournament_id": tournament_id,
        "name": f"Tournament {tournament_id}",
        "country": "EST",
        "country_name": "Estonia",
        "city": "Tallinn",
        "start": None,
        "end": OLD_END,
        "rule_id": "1",
        "rule": "RIF",
        "category": "renju",
        "rated": True,
        "type": 0,
        "minutes": None,
        "mode": None,
        "source": "test",
    }
    unknown = set(fields) - set(row)
    assert not unknown, f"not a tournaments column: {unknown}"
    row.update(fields)
    if row["start"] is None:
        row["start"] = row["end"]
    return row


def modern(tournament_id: str = "t1", **fields) -> dict:
    """A tournament judged by the 2021 rules with every fact known and passing."""
    base = {"end": NEW_END, "rule": "Taraguchi-10", "minutes": 60.0, "mode": "face_to_face"}
    base.update(fields)
    return tournament(tournament_id, **base)


def make_data(
    games: list[dict], tournaments: list[dict] | None = None, players=PLAYER_IDS
) -> SourceData:
    """SourceData in the shared schemas; a game's date defaults to its tournament's end."""
    tournaments = [tournament()] if tournaments is None else tournaments
    ends = {t["tournament_id"]: t["end"] for t in tournaments}
    rows = []
    for row in games:
        row = dict(row)
        if row["date"] is None:
            row["date"] = ends.get(row["tournament_id"])
        rows.append(row)
    return SourceData(
        players=conform(
            pd.DataFrame({"player_id": list(players), "name": list(players)}).reindex(
                columns=PLAYERS.names
            ),
            PLAYERS,
        ),
        tournaments=conform(pd.DataFrame(tournaments, columns=TOURNAMENTS.names), TOURNAMENTS)
        if tournaments
        else empty(TOURNAMENTS),
        games=conform(pd.DataFrame(rows, columns=GAMES.names), GAMES) if rows else empty(GAMES),
        problems=empty(PROBLEMS),
    )


def rules_dir(tmp_path: Path, **files: str) -> Path:
    """A copy of the bundled rules (whr/data/rules/) with some files replaced (name -> content)."""
    target = tmp_path / "rules"
    target.mkdir()
    for source in default_directory().iterdir():
        if source.is_file():
            (target / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    for name, content in files.items():
        (target / name.replace("__", ".")).write_text(content, encoding="utf-8")
    return target
