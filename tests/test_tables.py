"""The one date converter of the tables (whr.tables.days_of, dates_of)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pyarrow as pa

from whr.tables import dates_of, days_of

DAYS = [dt.date(1988, 1, 1), None, dt.date(2026, 11, 30)]
EXPECTED = np.array(["1988-01-01", "NaT", "2026-11-30"], dtype="datetime64[D]")


def test_every_form_of_a_date_column_gives_the_same_days() -> None:
    forms = [
        DAYS,
        pd.Series(DAYS, dtype=object),
        pd.Series(["1988-01-01", None, "2026-11-30"], dtype="str"),
        pd.Series(pd.to_datetime(["1988-01-01 00:00", None, "2026-11-30 13:45"])),
        pa.array(DAYS, type=pa.date32()),
        pa.chunked_array(
            [pa.array(DAYS[:1], type=pa.date32()), pa.array(DAYS[1:], type=pa.date32())]
        ),
        EXPECTED,
    ]
    for form in forms:
        got = days_of(form)
        assert got.dtype == np.dtype("datetime64[D]")
        np.testing.assert_array_equal(got, EXPECTED)
    assert days_of([]).size == 0


def test_dates_of_is_the_inverse() -> None:
    assert dates_of(EXPECTED).tolist() == DAYS
    assert dates_of(np.array([0, 20787])).tolist() == [dt.date(1970, 1, 1), dt.date(2026, 11, 30)]
