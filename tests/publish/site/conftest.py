"""Fixtures of the site's tests: the published site, a site of hostile data, a page of the
module's Chromium (desktop), and one of each size."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.publish import support
from tests.publish.site.pages import SIZES, check_and_close, new_page
from whr.tables import PLAYERS, TOURNAMENTS, conform


@pytest.fixture()
def page(browser):
    p = new_page(browser)
    yield p
    check_and_close(p)


@pytest.fixture(params=list(SIZES))
def sized(request, browser):
    """A page of each size (its name, the page)."""
    p = new_page(browser, SIZES[request.param])
    yield request.param, p
    check_and_close(p)


@pytest.fixture(scope="module")
def site(published: Path) -> Path:
    """The published site of the session's list."""
    return support.site_of(published)


HOSTILE = {
    0: "valueOf",
    1: "__proto__",
    2: "Rating",
    3: "constructor",
    4: "toString",
    5: "\u202eemaN desreveR",
    6: support.HOSTILE_NAME,
    7: support.QUOTED_NAME,
    8: "hasOwnProperty",
    9: "Players",
}
"""Names a reader of the page script must see as text: JavaScript's own property names, words of
the catalogs, right-to-left text, markup."""
MONGOLIA = ("MGL", "Mongolia", "Ulaanbaatar")
"""Where the hostile site's first rated tournament was played: a country no player is from."""


@pytest.fixture(scope="session")
def hostile(tmp_path_factory) -> Path:
    """A published tree whose data is hostile (``HOSTILE`` names, a player's country code
    ``toString`` and city ``__proto__``, a native name ``valueOf``; tournaments named
    ``__proto__``, played in ``constructor`` and in Mongolia, ``MONGOLIA``): the tree (its site
    is ``support.site_of`` of it)."""
    given = support.inputs(800, names=HOSTILE)
    players = given.data.players.copy()
    players.loc[players.index[4], ["country", "country_name"]] = ["toString", "toString"]
    players.loc[players.index[1], "city"] = "__proto__"
    players.loc[players.index[0], "native_name"] = "valueOf"
    tours = given.data.tournaments.copy()
    rated = given.selection.rated["tournament_id"].drop_duplicates().tolist()
    at = tours["tournament_id"].isin(rated[:3]).to_numpy().nonzero()[0]
    tours.loc[tours.index[at[0]], ["country", "country_name", "city"]] = list(MONGOLIA)
    tours.loc[tours.index[at[1]], "name"] = "__proto__"
    tours.loc[tours.index[at[2]], ["country", "country_name", "city"]] = [
        "constructor",
        None,
        "valueOf",
    ]
    data = dataclasses.replace(
        given.data,
        players=conform(players, PLAYERS),
        tournaments=conform(tours, TOURNAMENTS),
    )
    out = tmp_path_factory.mktemp("hostile")
    support.publish_inputs(out, dataclasses.replace(given, data=data))
    return out
