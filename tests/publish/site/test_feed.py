"""The list's Atom feed (whr.publish.site.feed): titles a feed reader shows as text, namesakes
told apart as on the pages, read by a real XML parser (expat, through defusedxml) under the
rules of RFC 4287."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from defusedxml import ElementTree

from tests.publish import support
from tests.publish.support import read_data
from whr.publish.site import write
from whr.tables import TOURNAMENT_CHANGES, conform

ATOM = "{http://www.w3.org/2005/Atom}"
ENGLISH_MONTHS = (
    "January February March April May June July August September October November December"
)
DAYS = [dt.date(2026, 9, 30), dt.date(2026, 10, 1), support.AS_OF]


def _changes(snapshot) -> pd.DataFrame:
    """Each player's change at the time for the namesakes' tournament (first rated by the list
    of AS_OF), the two namesakes moved most."""
    view = snapshot.view
    st = view.standings
    players = view.players["player"].astype("str").to_numpy(object)
    tournaments = view.tournaments["tournament_id"].astype("str").to_numpy(object)
    namesakes = set(
        view.tables.ratings.loc[view.tables.ratings["name"] == support.NAMESAKE, "player"]
    )
    ids = players[st["player"].to_numpy(np.int64)]
    theirs = pd.Series(ids).isin(namesakes).to_numpy()
    tournament = st["tournament_id"].to_numpy(np.int64)[theirs][0]
    mine = st["tournament_id"].to_numpy(np.int64) == tournament
    before = np.full(mine.sum(), 1800.0)
    after = before + np.where(pd.Series(ids[mine]).isin(namesakes), 90.0, 1.0)
    return conform(
        pd.DataFrame(
            {
                "player": ids[mine],
                "tournament_id": tournaments[tournament],
                "first_list_date": support.AS_OF,
                "previous_list_date": support.AS_OF - dt.timedelta(days=1),
                "rating_before": before,
                "uncertainty_before": 50.0,
                "rating_after": after,
                "uncertainty_after": 50.0,
                "games": st["games"].to_numpy(np.int32)[mine],
                "score": st["score"].to_numpy(np.float64)[mine],
                "other_new_games": 0,
                "source": "replay",
            }
        ),
        TOURNAMENT_CHANGES,
    )


@pytest.fixture(scope="module")
def feed_site(small, tmp_path_factory) -> Path:
    """A site of the session's list published on :data:`DAYS`, whose last list first rated
    the namesakes' tournament and moved them most."""
    snapshot = support.snapshot_of(small)
    view = support.view_of(snapshot, tournament_changes=_changes(snapshot))
    site = tmp_path_factory.mktemp("feed") / "site"
    info = {"parameters": small.params, "days": [d.isoformat() for d in DAYS]}
    write(site, view, info)
    return site


def _entries(site: Path) -> list:
    root = ElementTree.parse(site / "feed.xml").getroot()  # expat: refuses what is ill-formed
    assert root.tag == f"{ATOM}feed"
    return root.findall(f"{ATOM}entry")


def test_the_feeds_titles_parse_as_text(feed_site):
    """RFC 4287, 3.1: a title without ``type`` is text, which a feed reader shows as it is:
    each entry's title is the list's name and its day in words, with no markup in it (it held
    ``<time datetime=...>``, escaped, which readers showed as such)."""
    entries = _entries(feed_site)
    assert len(entries) == len(DAYS)
    months = ENGLISH_MONTHS.split()
    for entry, day in zip(entries, sorted(DAYS, reverse=True), strict=True):
        title = entry.find(f"{ATOM}title")
        assert title.get("type") in (None, "text") and len(title) == 0  # text: no elements
        want = f"Renju world rating list of {day.day} {months[day.month - 1]} {day.year}"
        assert title.text == want
        summary = entry.find(f"{ATOM}summary")
        assert summary.get("type") in (None, "text") and "<" not in summary.text


def test_namesakes_in_the_summaries_are_told_apart_as_on_the_pages(feed_site):
    """The two namesakes who moved most are named in the summary with what tells them apart,
    the labels their pages' player data carries (country, birth year, id)."""
    players = read_data(feed_site, "players")
    labels = [lb for name, lb in zip(players["name"], players["lb"], strict=True) if lb]
    assert len(labels) == 2 and labels[0] != labels[1]
    newest = _entries(feed_site)[0].find(f"{ATOM}summary").text
    for label in labels:
        assert f"{support.NAMESAKE} {label} +90 (1800 \u2192 1890)" in newest, newest
