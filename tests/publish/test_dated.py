"""A list dated long after its database is refused unless its date was given (issue 38, item 6):
a clock 200 days ahead must not date the current list, and no day after tomorrow is shown."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from whr.publish import DatedError, check_dated, recover, verify

REPO = Path(__file__).resolve().parents[2]
DB = dt.date(2026, 11, 30)


def test_a_list_within_31_days_of_its_database_is_published() -> None:
    check_dated(DB + dt.timedelta(days=31), DB, False, DB)
    check_dated(DB, None, False, DB)  # a source with no date of its own (CSV, EGF tables)


def test_a_list_more_than_31_days_after_its_database_needs_its_date_given() -> None:
    later = DB + dt.timedelta(days=205)  # the clock 200 days ahead
    with pytest.raises(DatedError) as raised:
        check_dated(later, DB, False, later)
    said = str(raised.value)
    assert f"list of {later}" in said and f"database's own date, {DB}" in said
    assert f"--as-of {later}" in said and "205 days" in said and "clock" in said
    check_dated(later, DB, True, later)  # given: the maintainer says so


def test_the_database_date_is_its_own_then_its_file_name(tmp_path: Path) -> None:
    import whr

    data = whr.read_source(REPO / "data" / "sample", as_of=DB)
    assert data.dated == DB  # <database date="2026-11-30">
    text = (REPO / "data" / "sample" / "renjunet_v10_20261130.rif").read_text("utf-8")
    undated = tmp_path / "renjunet_v10_20261115.rif"
    undated.write_text(text.replace(' date="2026-11-30"', "", 1), encoding="utf-8")
    assert whr.read_source(undated, as_of=DB).dated == dt.date(2026, 11, 15)


def test_a_day_after_tomorrow_is_never_shown(tmp_path: Path, monkeypatch) -> None:
    """A day the ledger holds, dated after tomorrow (published by a clock that was wrong): the
    site is drawn again from the newest day up to tomorrow, and each check says why."""
    import support  # tests/publish

    out = tmp_path / "out"
    given = support.inputs(300)
    support.publish_inputs(out, given, support.AS_OF)
    future = dt.datetime.now(dt.UTC).date() + dt.timedelta(days=200)
    # what a run publishes with a clock 200 days ahead (the one thing faked: this machine's
    # clock, read by the run's check of --as-of and by the day a site may show)
    with monkeypatch.context() as clock:
        clock.setattr("whr.run.today_utc", lambda: future)
        clock.setattr("whr.publish.repair.today", lambda: future)
        support.publish_inputs(out, given, future)
    pointer = out / "renju" / "latest.json"
    assert json.loads(pointer.read_text("utf-8"))["date"] == future.isoformat()
    said = recover(out)  # the clock is right again
    assert any(x.startswith("ignored: ") and f"{future}" in x and "after tomorrow" in x
               for x in said), said  # fmt: skip
    assert json.loads(pointer.read_text("utf-8"))["date"] == support.AS_OF.isoformat()
    assert verify(out).ok  # published by this tree: not damage, only never shown
