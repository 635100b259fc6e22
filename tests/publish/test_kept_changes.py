"""Each tournament's change at the time, kept by real daily runs (issue 21, done when 1 and 2).

One synthetic history published as real runs would publish it: on each day its own selection
(``whr.select`` as of that day) and its own fit, into one tree, on days that are and are not
consecutive, after a backfill of the days up to the first of them. The kept table is read from
each day's entry as it is published (an older entry keeps only its list).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import support

import whr
from whr.lists import at_the_time
from whr.publish.files import read_parquet
from whr.publish.site import contract, i18n, page_names
from whr.rules import default_directory, load_config
from whr.tables import RATINGS, TOURNAMENT_CHANGES

CONFIG = load_config(default_directory())
# Days on which tournaments of the 300-game history enter the lists: 2026-10-08, 11-05 (two
# tournaments, players in both), 11-07, 11-08; 11-04 is the day before one, no game enters on it
FIRST = dt.date(2026, 10, 8)
DAYS = [
    FIRST,
    dt.date(2026, 11, 4),
    dt.date(2026, 11, 5),
    dt.date(2026, 11, 7),
    dt.date(2026, 11, 8),
]
AFTER_THE_DAY_BEFORE = {dt.date(2026, 11, 5), dt.date(2026, 11, 8)}  # published the day before
TOL = 0.01  # Elo: the fits' convergence (daily fits are cold, the replay's warm)


@pytest.fixture(scope="module")
def history() -> support.Inputs:
    return support.inputs(300)


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tree ``kept`` publishes into."""
    return tmp_path_factory.mktemp("at-the-time")


@pytest.fixture(scope="module")
def kept(history: support.Inputs, out: Path) -> dict[dt.date, tuple[pd.DataFrame, pd.DataFrame]]:
    """Each day's published list and kept table, after the backfill of the days to FIRST."""
    support.backfill(out, history, DAYS[-1], FIRST)
    tables: dict[dt.date, tuple[pd.DataFrame, pd.DataFrame]] = {}
    for day in DAYS:
        selection = whr.select(history.data, day, config=CONFIG)
        given = dataclasses.replace(history, selection=selection, fit=whr.fit(selection.rated))
        published = support.publish_inputs(out, given, day)
        entry = support.entry_of(out, day)
        tables[day] = (
            read_parquet(entry / "ratings.parquet", RATINGS).set_index("player"),
            read_parquet(entry / "tournament_changes.parquet", TOURNAMENT_CHANGES),
        )
        assert published.day == day
    return tables


@pytest.fixture(scope="module")
def site(kept, out: Path) -> Path:
    """The current site of the tree ``kept`` published into."""
    return support.site_of(out)


def _of(table: pd.DataFrame, day: dt.date) -> pd.DataFrame:
    return table[[d == day for d in table["first_list_date"]]].reset_index(drop=True)


def test_the_change_at_the_time_is_the_change_on_the_list(kept) -> None:
    """Done when 1: for each player of a tournament new to a list with no other new games,
    rating_after - rating_before is that player's Change on the list; a player without a
    rating before was not on the previous list."""
    checked = others = 0
    for before, day in zip(DAYS, DAYS[1:], strict=False):
        ratings, table = kept[day]
        rows = _of(table, day)
        assert (rows["source"] == "daily").all()
        assert (rows["previous_list_date"] == before).all()
        alone = rows[rows["other_new_games"] == 0]
        on_list = ratings.loc[alone["player"]]
        new = alone["rating_before"].isna().to_numpy()
        assert on_list["rating_change"].isna().to_numpy().tolist() == new.tolist()
        np.testing.assert_allclose(
            (alone["rating_after"] - alone["rating_before"]).to_numpy()[~new],
            on_list["rating_change"].to_numpy(dtype=float)[~new],
            atol=1e-9,
        )
        np.testing.assert_allclose(alone["rating_after"], on_list["rating"], atol=1e-9)
        checked += int((~new).sum())
        others += int((rows["other_new_games"] > 0).sum())
    assert checked >= 5 and others >= 2, (checked, others)  # both kinds of row are there


def test_each_day_carries_the_previous_days_rows_unchanged(kept) -> None:
    last = kept[DAYS[-1]][1]
    for day in DAYS[:-1]:  # (the earlier entries keep only their lists now)
        earlier = kept[day][1]
        assert len(earlier) <= len(last)
        pd.testing.assert_frame_equal(last.iloc[: len(earlier)], earlier)  # sorted by day first
    assert not last.duplicated(["player", "tournament_id"]).any()


def test_the_backfill_and_the_archive_agree_where_both_hold(history, kept) -> None:
    """Done when 2 (the archive's part): the replay of the whole history equals the rows the
    backfill seeded (up to FIRST, exactly) and the rows the daily runs kept: all of it on a day
    published after the day before, the ratings on a day published after an earlier one (the
    replay's list before is the day before: the same ratings, an older uncertainty)."""
    replayed = at_the_time.replay(
        history.selection.rated, tournaments=history.selection.tournaments
    )
    table = kept[DAYS[-1]][1]
    seeded = table[table["source"] == "replay"].reset_index(drop=True)
    assert len(seeded) and all(d <= FIRST for d in seeded["first_list_date"])
    pd.testing.assert_frame_equal(
        seeded, replayed[[d <= FIRST for d in replayed["first_list_date"]]].reset_index(drop=True)
    )
    for day in DAYS[2:]:
        mine, theirs = _of(table, day), _of(replayed, day)
        assert len(mine) and mine[["player", "tournament_id"]].equals(
            theirs[["player", "tournament_id"]]
        )
        columns = ["rating_before", "rating_after", "uncertainty_after"]
        if day in AFTER_THE_DAY_BEFORE:
            columns.append("uncertainty_before")
            assert mine["previous_list_date"].equals(theirs["previous_list_date"])
        for c in columns:
            np.testing.assert_allclose(mine[c], theirs[c], atol=TOL, err_msg=f"{day} {c}")
        same = ["games", "score", "other_new_games", "first_list_date"]
        pd.testing.assert_frame_equal(mine[same], theirs[same])


def test_the_player_pages_show_each_tournament_at_the_time(kept, site: Path) -> None:
    """Each event row of a player page holds its kept ratings at the time, each rounded once,
    and the change as displayed; a tournament without a kept row holds none."""
    table = kept[DAYS[-1]][1].set_index(["player", "tournament_id"])
    tournaments = support.read_data(site, "tournaments")
    index = support.read_data(site, "players")
    field = contract.EVENT.script()
    shown = 0
    for page in sorted((site / "p").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        if "id=player-data>" not in text:
            continue
        data = json.loads(text.split("id=player-data>", 1)[1].split("</script>", 1)[0])
        player = page.stem if page.stem in set(index["id"]) else None
        if player is None:
            continue
        for e in data["events"]:
            tournament = tournaments["pg"][e[field["tournament"]]]
            then = (e[field["then_before"]], e[field["then_after"]], e[field["then_change"]])
            if (player, tournament) not in table.index:
                assert then == (None, None, None)
                continue
            row = table.loc[(player, tournament)]
            after = round(row["rating_after"])
            before = None if pd.isna(row["rating_before"]) else round(row["rating_before"])
            assert then == (before, after, None if before is None else after - before)
            shown += 1
    assert shown >= len(table) // 2, (shown, len(table))


def test_a_damaged_table_is_reported_and_the_list_measured_from_the_last_good_one(
    history: support.Inputs, kept, out: Path, tmp_path: Path
) -> None:
    """The newest entry's table fails its checksum: the next run reports that day as damaged,
    with what to do, and leaves it in place (its trim as a past day removes nothing damaged); the new list is measured from the last good list,
    says that the changes at the time since it are not recorded, and carries on what the
    backfill holds."""
    import shutil

    copy = tmp_path / "out"
    shutil.copytree(out, copy, symlinks=True)
    last, good = DAYS[-1], DAYS[-2]
    damaged = support.entry_of(copy, last) / "tournament_changes.parquet"
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    day = last + dt.timedelta(days=1)
    selection = whr.select(history.data, day, config=CONFIG)
    given = dataclasses.replace(history, selection=selection, fit=whr.fit(selection.rated))
    published = support.publish_inputs(copy, given, day)
    reported = [r for r in published.repaired if str(damaged) in r]
    assert len(reported) == 1 and "does not match the checksum" in reported[0]
    assert f"--as-of {last}" in reported[0], "it says how to rebuild the day"
    # the trim of the day, no longer the newest, checks what it drops: nothing damaged is
    # removed, and it says so
    assert damaged.read_bytes() == bytes(data), "the damaged day is left for its repair"
    assert any(w.startswith(f"left {damaged.parent} untrimmed") for w in published.warnings)
    assert published.previous_day == good
    assert any(f"list of {good}" in w and "backfill" in w for w in published.warnings)
    entry = support.entry_of(copy, day)
    ratings = read_parquet(entry / "ratings.parquet", RATINGS)
    assert ratings["rating_change"].notna().any(), "changes measured from the good list"
    table = read_parquet(entry / "tournament_changes.parquet", TOURNAMENT_CHANGES)
    before = kept[last][1]
    seeded = before[before["source"] == "replay"].reset_index(drop=True)
    pd.testing.assert_frame_equal(table, seeded)  # what the backfill holds, nothing else


def with_(names: str) -> set[str]:
    """The tournaments a note "with A, B" names."""
    return set(names.split(", "))


@pytest.mark.browser
def test_tournaments_first_rated_by_one_list_say_so(kept, site: Path, browser) -> None:
    """Two tournaments of a player that one list first rated share one change at the time:
    each row names the other, in the static list and in the table the script draws."""
    table = kept[DAYS[-1]][1]
    table = table.assign(day=[d.isoformat() for d in table["first_list_date"]])
    by_list = table.groupby(["player", "day"])["tournament_id"].agg(list)
    partners = {  # (player, tournament): the others the same list first rated
        (player, t): [x for x in ts if x != t] for (player, _), ts in by_list.items() for t in ts
    }
    sharing = sorted({p for (p, _), others in partners.items() if others})
    assert sharing, "the fixture's 11-05 list rates two tournaments of some players"
    tournaments = support.read_data(site, "tournaments")
    name = dict(zip(tournaments["pg"], tournaments["name"], strict=True))
    pages = page_names(sharing)
    for player in sharing:
        text = (site / "p" / f"{pages[player]}.html").read_text(encoding="utf-8")
        body = text.split("<ul class=events>", 1)[1].split("</ul>", 1)[0]
        for li in body.split("<li>")[1:]:
            tid = re.search(r"href=../tournaments/([^.]+)\.html", li).group(1)
            others = partners.get((player, tid), [])
            note = re.search(r"<small>with (.*)</small>$", li)
            if others:
                assert note and with_(note.group(1)) == {name[t] for t in others}, li
            else:
                assert note is None, li
    # the drawn table: the At the time cell of each names the other
    page = browser.new_page()
    page.goto((site / "p" / f"{pages[sharing[0]]}.html").as_uri())
    page.wait_for_selector("#events tbody tr")
    heads = page.eval_on_selector_all("#events thead th", "t => t.map(x => x.textContent)")
    cells = page.eval_on_selector_all(
        "#events tbody tr", "rows => rows.map(r => Array.from(r.cells, c => c.textContent))"
    )
    at, first = heads.index("At the time"), heads.index("Tournament")
    noted = [row for row in cells if "with " in row[at]]
    assert len(noted) >= 2
    for row in noted:
        others = partners[(sharing[0], next(t for t, n in name.items() if n == row[first]))]
        assert with_(row[at].rsplit("with ", 1)[-1]) == {name[t] for t in others}, row
    page.close()
    # and in the reader's language (the page translates the note)
    context = browser.new_context()
    context.add_init_script("localStorage.setItem('whr.lang', 'zh')")
    page = context.new_page()
    page.goto((site / "p" / f"{pages[sharing[0]]}.html").as_uri())
    page.wait_for_function("document.documentElement.lang === 'zh-Hans'")
    notes = page.eval_on_selector_all("#events small.with", "s => s.map(x => x.textContent)")
    zh = i18n.catalog("zh")["with %(tournaments)s"]
    assert len(notes) == len(noted) and all(
        re.fullmatch(re.escape(zh).replace(re.escape("%(tournaments)s"), ".+"), n) for n in notes
    ), notes
    context.close()
