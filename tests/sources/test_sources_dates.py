"""Tournament date fallbacks of the RenjuNet format (formats spec 1.2), expected values by hand."""

from __future__ import annotations

import datetime as dt

import pytest

from whr.sources.renjunet import parse_date, tournament_dates

D = dt.date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-06-09", (D(2024, 6, 9), True)),
        ("2024-06-00", (D(2024, 6, 1), True)),  # day 00 -> 01
        ("2024-00-00", (D(2024, 1, 1), True)),  # month 00 -> 01 as well
        ("0000-00-00", (None, True)),  # unknown
        ("", (None, True)),
        (None, (None, True)),
        ("2023-02-29", (None, False)),  # not a calendar date
        ("2024-13-01", (None, False)),
        ("24-6-9", (None, False)),
        ("yesterday", (None, False)),
    ],
)
def test_parse_date(text, expected):
    assert parse_date(text) == expected


@pytest.mark.parametrize(
    ("attrs", "start", "end", "codes"),
    [
        # both known
        (("2024-06-08", "2024-06-09", "2024", "6"), D(2024, 6, 8), D(2024, 6, 9), []),
        # both unknown: the whole month from year/month (leap February)
        (("0000-00-00", "0000-00-00", "2024", "2"), D(2024, 2, 1), D(2024, 2, 29), []),
        (("0000-00-00", "0000-00-00", "1993", "4"), D(1993, 4, 1), D(1993, 4, 30), []),
        # month 0 (or missing, or out of range): the whole year
        (("0000-00-00", "0000-00-00", "1990", "0"), D(1990, 1, 1), D(1990, 12, 31), []),
        (("", "", "1990", None), D(1990, 1, 1), D(1990, 12, 31), []),
        (("0000-00-00", "0000-00-00", "1990", "13"), D(1990, 1, 1), D(1990, 12, 31), []),
        # only one known: copied
        (("0000-00-00", "2001-03-04", "2001", "3"), D(2001, 3, 4), D(2001, 3, 4), []),
        (("2001-03-04", "", "2001", "3"), D(2001, 3, 4), D(2001, 3, 4), []),
        # day 00
        (("2001-03-00", "2001-03-05", "2001", "3"), D(2001, 3, 1), D(2001, 3, 5), []),
        # start after end: start = end
        (("2001-03-09", "2001-03-05", "2001", "3"), D(2001, 3, 5), D(2001, 3, 5), ["date_order"]),
        # nothing usable
        (("0000-00-00", "0000-00-00", "0", "0"), None, None, ["unknown_date"]),
        ((None, None, None, None), None, None, ["unknown_date"]),
        # an invalid start is reported, then treated as unknown (so the end is copied)
        (("2001-02-30", "2001-03-05", "2001", "2"), D(2001, 3, 5), D(2001, 3, 5), ["bad_date"]),
        # both invalid: reported, then the year/month fallback applies
        (("x", "y", "2001", "2"), D(2001, 2, 1), D(2001, 2, 28), ["bad_date", "bad_date"]),
    ],
)
def test_tournament_dates(attrs, start, end, codes):
    first, last, problems = tournament_dates(*attrs)
    assert (first, last) == (start, end)
    assert [code for code, _ in problems] == codes
