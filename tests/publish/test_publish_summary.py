"""The run summary (whr.publish.summary) from hand-written lists."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
from list_support import ratings

from whr import tables
from whr.publish import Channel, Published, summary

D = dt.date(2026, 11, 30)


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
    published = Published(
        channel=Channel("renju"),
        day=D,
        entry=tmp_path / "archive" / "renju" / D.isoformat(),
        site=tmp_path / "renju",
        ratings=after,
        previous_day=D - dt.timedelta(days=1),
        previous=before,
        warnings=("the previous list could not be read (test)",),
        repaired=("repaired: put back a moved-aside day (test)",),
        counts={"facts_needed": {"tournaments": 2, "games": 17}},
    )
    games = tables.empty(tables.GAMES).reindex(range(6))  # 5 games and a bye
    data = tables.SourceData(
        players=tables.empty(tables.PLAYERS),
        tournaments=tables.empty(tables.TOURNAMENTS),
        games=games,
        problems=tables.empty(tables.PROBLEMS),
        inputs=(("db.rif", "ab" * 32),),
        without_facts=("db.rif",),
    )
    exclusions = pd.DataFrame(
        {"game_id": ["a", "b", "c", "d"], "reason": ["forfeit", "forfeit", "self_game", "bye"]}
    )
    selection = SimpleNamespace(rated=games.head(2), exclusions=exclusions)

    text = summary.summarize(data, selection, published)

    assert "| db.rif | " + "ab" * 32 + " |" in text
    lines = [line for line in text.splitlines() if line.startswith("No `tournament_facts")]
    assert lines == [
        "No `tournament_facts.csv` beside `db.rif`: thinking time and mode of play come only "
        "from the maintainers' facts."
    ]
    assert "| read | 5 |" in text and "| rated | 2 |" in text and "| excluded | 3 |" in text
    assert "| excluded: forfeit | 2 |" in text and "| excluded: self\\_game | 1 |" in text
    assert "| byes (rounds without a game, not counted above) | 1 |" in text
    assert "excluded: bye" not in text
    assert "2 tournaments from 2021-08-08 on lack" in text and "17 games wait" in text
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
    assert "Compared with `2026-11-29`" in text
    assert "## The archive, checked first\n\n- repaired: put back a moved-aside day" in text
    assert "## Warnings" in text


def test_summary_without_previous_list(tmp_path: Path) -> None:
    published = Published(
        channel=Channel("gomoku", "w2-19"),
        day=D,
        entry=tmp_path,
        site=None,
        ratings=ratings(
            [{"player": "1", "name": "A", "country": "X", "rating": 1900.0, "rank": 1}]
        ),
    )
    empty = tables.SourceData(
        players=tables.empty(tables.PLAYERS),
        tournaments=tables.empty(tables.TOURNAMENTS),
        games=tables.empty(tables.GAMES),
        problems=tables.empty(tables.PROBLEMS),
    )
    selection = SimpleNamespace(rated=empty.games, exclusions=tables.empty(tables.EXCLUSIONS))
    text = summary.summarize(empty, selection, published)
    assert "No previous list." in text
    assert "tournament_facts.csv" not in text  # every source had its facts (none was read)
    assert text.startswith("# variants/w2-19/gomoku list of 2026-11-30")
    assert "a past day" in text and "Repaired" not in text


def test_markdown_escaping() -> None:
    assert summary.markdown_text("a|b") == "a\\|b"
    assert summary.markdown_text("<b>&") == "&lt;b&gt;&amp;"
    assert (
        summary.markdown_text("*x* _y_ [z](u) `c` #h") == "\\*x\\* \\_y\\_ \\[z\\](u) \\`c\\` \\#h"
    )
    assert summary.markdown_text("two\nlines") == "two lines"


def test_a_mover_by_half_an_elo_down_is_shown_plus_zero_not_minus_zero() -> None:
    # |change| >= 0.5 makes a mover; -0.5 rounds half to even, to zero: "+0", never "-0"
    before = ratings([{"player": "1", "name": "Ann A", "country": "EST", "rating": 2400.5}])
    after = ratings([{"player": "1", "name": "Ann A", "country": "EST", "rating": 2400.0}])
    movers = summary._changes(before, after, "2026-11-29").split("Biggest movers", 1)[1]
    assert "| Ann A | EST | 2400 | 2400 | +0 |" in movers, movers
