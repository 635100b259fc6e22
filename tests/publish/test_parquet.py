"""The Parquet snapshot, its manifest, and the atomic switch of ``latest.json``."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
import support

import whr.publish.parquet as parquet
import whr.publish.site as site_module
from whr import lists
from whr.publish import publish
from whr.tables import RATINGS, SCHEMA_VERSION

D = support.AS_OF
FILES = ("ratings", "year_end", "history", "games", "players", "tournaments", "exclusions")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tree(path: Path) -> dict[str, str]:
    """Every file under ``path`` with its sha256."""
    return {str(p.relative_to(path)): sha256(p) for p in sorted(path.rglob("*")) if p.is_file()}


def test_layout_and_latest_pointer(published):
    snap = published / "snapshots" / D.isoformat()
    for name in FILES:
        assert (snap / f"{name}.parquet").is_file(), name
    assert (snap / "manifest.json").is_file()
    assert (snap / "site" / "index.html").is_file()
    latest = json.loads((published / "latest.json").read_text())
    assert latest["date"] == D.isoformat()
    assert (published / latest["snapshot"]).resolve() == snap.resolve()
    assert latest["manifest_sha256"] == sha256(snap / "manifest.json")
    # nothing temporary left beside the snapshots
    assert sorted(p.name for p in (published / "snapshots").iterdir()) == [D.isoformat()]


def test_ratings_agree_with_the_inputs(published, small):
    ratings = pd.read_parquet(published / "snapshots" / D.isoformat() / "ratings.parquet")
    assert {
        "player",
        "name",
        "country",
        "rating",
        "uncertainty",
        "games",
        "last_game",
        "status",
        "rank",
    } <= set(ratings.columns)
    assert ratings["player"].is_unique
    rated = small.selection.rated
    # games and last game per player, counted directly from the rated games
    sides = pd.concat(
        [
            rated[["black", "date"]].set_axis(["p", "d"], axis=1),
            rated[["white", "date"]].set_axis(["p", "d"], axis=1),
        ]
    )
    sides = sides.loc[sides["d"] <= D]
    expected_games = sides.groupby("p").size()
    expected_last = sides.groupby("p")["d"].max()
    r = ratings.set_index("player")
    assert set(r.index) == set(expected_games.index)
    assert (r["games"] == expected_games.reindex(r.index)).all()
    assert (r["last_game"] == expected_last.reindex(r.index)).all()
    # status by the rule, written out independently
    cutoff = dt.date(D.year - 5, D.month, D.day)
    for player, row in r.iterrows():
        want = (
            "provisional"
            if row["games"] <= 9
            else ("active" if row["last_game"] > cutoff else "inactive")
        )
        assert row["status"] == want, player
    # ranks: active players only, 1..n by rating
    active = r.loc[r["status"] == "active"].sort_values("rating", ascending=False)
    assert r.loc[r["status"] != "active", "rank"].isna().all()
    better = [int((active["rating"] > x).sum()) + 1 for x in active["rating"]]  # ties share a rank
    assert active["rank"].tolist() == better
    assert active["rank"].iloc[0] == 1
    # rating and uncertainty are the fit's on D
    now = small.fit.rating_on(D).set_index("player")
    assert (r["rating"] - now["rating"].reindex(r.index)).abs().max() < 1e-9
    assert (r["uncertainty"] - now["uncertainty"].reindex(r.index)).abs().max() < 1e-9


def test_games_carry_both_ratings_that_day(published, small):
    snap = published / "snapshots" / D.isoformat()
    games = pd.read_parquet(snap / "games.parquet")
    history = small.fit.history
    assert len(games) == len(small.selection.rated)
    key = {
        (p, d): r
        for p, d, r in zip(history["player"], history["date"], history["rating"], strict=True)
    }
    for row in games.sample(200, random_state=1).itertuples():
        assert row.black_rating == key[(row.black, row.date)]
        assert row.white_rating == key[(row.white, row.date)]


def test_manifest_and_parquet_metadata(published, small):
    snap = published / "snapshots" / D.isoformat()
    manifest = json.loads((snap / "manifest.json").read_text())
    assert manifest["schema_version"] == SCHEMA_VERSION
    assert manifest["parameters"] == {**small.params, "as_of": D.isoformat()}
    assert manifest["inputs"] == [{"name": n, "sha256": h} for n, h in small.data.inputs]
    assert manifest["inputs_sha256"] == small.data.sha256
    assert manifest["counts"]["rated_games"] == len(small.selection.rated)
    assert manifest["counts"]["exclusions"] == len(small.selection.exclusions)
    assert manifest["counts"]["selection"]["read"] == len(small.data.games)
    assert {"python", "pandas", "pyarrow", "numpy"} <= set(manifest["packages"])
    dt.datetime.fromisoformat(manifest["created"])
    assert set(manifest["files"]) == {f"{n}.parquet" for n in FILES}
    for name, entry in manifest["files"].items():
        assert entry["sha256"] == sha256(snap / name)
        assert entry["rows"] == pq.read_metadata(snap / name).num_rows
        meta = pq.read_schema(snap / name).metadata
        assert meta[b"whr.schema_version"] == SCHEMA_VERSION.encode()
        assert json.loads(meta[b"whr.parameters"])["w2"] == small.params["w2"]
    assert pq.read_schema(snap / "ratings.parquet").names == RATINGS.names


def test_year_end_lists_are_lists_on_each_december_31(published, small):
    year_end = pd.read_parquet(published / "snapshots" / D.isoformat() / "year_end.parquet")
    first = min(small.selection.rated["date"])
    days = sorted(set(year_end["list_date"]))
    assert days == [dt.date(y, 12, 31) for y in range(first.year, D.year)]
    # a year-end list counts only games up to its day
    y = days[len(days) // 2]
    part = year_end.loc[year_end["list_date"] == y].set_index("player")
    rated = small.selection.rated
    rated = rated.loc[rated["date"] <= y]
    counts = pd.concat([rated["black"], rated["white"]]).value_counts()
    assert (part["games"] == counts.reindex(part.index)).all()
    assert (part["last_game"] <= y).all()


def test_rerun_gives_identical_tables(published, small, tmp_path):
    publish(tmp_path, D, small.data, small.selection, small.fit, small.params)
    a = published / "snapshots" / D.isoformat()
    b = tmp_path / "snapshots" / D.isoformat()
    for name in FILES:
        pd.testing.assert_frame_equal(
            pd.read_parquet(a / f"{name}.parquet"), pd.read_parquet(b / f"{name}.parquet")
        )
        assert sha256(a / f"{name}.parquet") == sha256(b / f"{name}.parquet")
    assert tree(a / "site") == tree(b / "site")


def copy_of(published: Path, tmp_path: Path) -> Path:
    """A private copy of the session's published output directory."""
    out = tmp_path / "out"
    shutil.copytree(published, out)
    return out


def test_republishing_a_date_replaces_it(published, small, tmp_path):
    tmp_path = copy_of(published, tmp_path)
    params = {**small.params, "note": "second run"}
    snap = publish(tmp_path, D, small.data, small.selection, small.fit, params)
    assert json.loads((snap / "manifest.json").read_text())["parameters"]["note"] == "second run"
    assert sorted(p.name for p in (tmp_path / "snapshots").iterdir()) == [D.isoformat()]


def test_an_older_date_does_not_move_latest_back(published, small, tmp_path):
    tmp_path = copy_of(published, tmp_path)
    old = D - dt.timedelta(days=1)
    publish(
        tmp_path,
        old,
        small.data,
        small.selection,
        small.fit,
        {**small.params, "as_of": old.isoformat()},
    )
    assert (tmp_path / "snapshots" / old.isoformat() / "manifest.json").is_file()
    assert json.loads((tmp_path / "latest.json").read_text())["date"] == D.isoformat()


@pytest.mark.parametrize("republish", [False, True], ids=["new-date", "same-date"])
def test_failure_mid_publish_leaves_previous_snapshot_and_latest(
    published, small, tmp_path, monkeypatch, republish
):
    tmp_path = copy_of(published, tmp_path)
    before = tree(tmp_path)
    day = D if republish else D - dt.timedelta(days=3)
    params = {**small.params, "as_of": day.isoformat()}
    real = site_module.write_site

    def failing_site(target, *args, **kwargs):
        real(target, *args, **kwargs)  # the pages are written, then the disk "fills up"
        raise OSError(28, "No space left on device (injected)")

    monkeypatch.setattr(site_module, "write_site", failing_site)
    with pytest.raises(OSError, match="injected"):
        publish(tmp_path, day, small.data, small.selection, small.fit, params)
    assert tree(tmp_path) == before


def test_failure_while_switching_latest_restores_everything(
    published, small, tmp_path, monkeypatch
):
    tmp_path = copy_of(published, tmp_path)
    before = tree(tmp_path)

    def failing_switch(*args, **kwargs):
        raise OSError(5, "I/O error (injected)")

    monkeypatch.setattr(parquet, "_write_latest", failing_switch)
    with pytest.raises(OSError, match="injected"):
        publish(tmp_path, D, small.data, small.selection, small.fit, {**small.params, "note": "x"})
    assert tree(tmp_path) == before


def test_bad_arguments_are_named(small, tmp_path):
    with pytest.raises(TypeError, match="as_of must be a datetime.date"):
        publish(tmp_path, "2026-11-30", small.data, small.selection, small.fit, small.params)
    with pytest.raises(TypeError, match="params must be a mapping"):
        publish(tmp_path, D, small.data, small.selection, small.fit, [("w2", 12.9)])
    with pytest.raises(ValueError, match=r"params\['as_of'\] must equal"):
        publish(
            tmp_path,
            D,
            small.data,
            small.selection,
            small.fit,
            {**small.params, "as_of": "2020-01-01"},
        )
    with pytest.raises(TypeError, match="data must be a whr.tables.SourceData"):
        publish(tmp_path, D, {"players": None}, small.selection, small.fit, small.params)
    assert not (tmp_path / "latest.json").exists()


def test_list_rows_match_lists_module(published, small):
    # the snapshot's list is exactly whr.lists' list (renderers and writers add no policy)
    snap = published / "snapshots" / D.isoformat()
    ratings = pd.read_parquet(snap / "ratings.parquet")
    games = lists.rated_games(small.selection.rated, small.fit.history)
    direct = lists.list_on(
        D, small.fit.history, lists.player_games(games), small.data.players, small.fit.rating_on
    )
    pd.testing.assert_frame_equal(ratings, direct, check_dtype=False)


def test_list_after_the_last_game_day_rates_every_player(small):
    later = D + dt.timedelta(days=30)
    games = lists.player_games(lists.rated_games(small.selection.rated, small.fit.history))
    out = lists.list_on(later, small.fit.history, games, small.data.players, small.fit.rating_on)
    assert len(out) == games["player"].nunique()


def test_leftovers_of_a_killed_publish_are_recovered(published, small, tmp_path, monkeypatch):
    # a run killed between moving the snapshot aside and renaming the new one into place
    out = copy_of(published, tmp_path)
    before = tree(out)
    snapshots = out / "snapshots"
    aside = snapshots / f".{D.isoformat()}.old-killed"
    aside.mkdir()
    (snapshots / D.isoformat()).rename(aside / "snapshot")
    half = snapshots / f".{D.isoformat()}.tmp-killed"
    half.mkdir()
    (half / "ratings.parquet").write_bytes(b"half written")

    def failing_site(*args, **kwargs):
        raise OSError(28, "No space left on device (injected)")

    monkeypatch.setattr(site_module, "write_site", failing_site)
    with pytest.raises(OSError, match="injected"):
        publish(out, D, small.data, small.selection, small.fit, small.params)
    assert tree(out) == before  # the snapshot is back, the half-written directory gone
    assert sorted(p.name for p in snapshots.iterdir()) == [D.isoformat()]
