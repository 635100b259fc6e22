"""Rule names: spelling variants of the certified rules match, other rules do not."""

from __future__ import annotations

import pandas as pd
import pytest

from whr.rules import certified_name, default_directory, load_config, normalise
from whr.rules.names import certified_mask

RULES = load_config(default_directory()).certified_rules


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        ("Soosõrv-8", "Soosyrv-N"),
        ("Soosyrv 8", "Soosyrv-N"),
        ("SOOSYRV-N", "Soosyrv-N"),
        ("soosorv-5", "Soosyrv-N"),
        ("Taraguchi10", "Taraguchi-N"),
        ("Taraguchi-10", "Taraguchi-N"),
        ("TARAGUCHI-N", "Taraguchi-N"),
        ("Yamasyrv-4", "Yamasyrv-N"),
        ("Yamasõrv 12", "Yamasyrv-N"),
        ("Yamaguchi", "Yamaguchi"),
        ("RIF", "RIF"),
        ("R.I.F.", "RIF"),
        ("RIF rule", "RIF"),
        ("Sakata", "Sakata"),
        (" sakata ", "Sakata"),
    ],
)
def test_certified_spellings(spelling, canonical):
    assert certified_name(spelling, RULES) == canonical


@pytest.mark.parametrize(
    "name",
    [
        "Swap2",
        "Swap1",
        "Tarannikov",
        "Free-style",
        "Standard gomoku",
        "Swap2 gomoku",
        "Caro",
        "",
        "Renju",
    ],
)
def test_other_rules_are_not_certified(name):
    assert certified_name(name, RULES) is None


def test_normal_form():
    assert normalise("Soosõrv-8") == "soosorv8"
    assert normalise("SOOSYRV-N") == "soosyrvn"
    with pytest.raises(TypeError, match="name must be a str, got int"):
        normalise(8)


def test_mask_handles_missing_names():
    mask = certified_mask(pd.Series(["RIF", None, "Swap2", "RIF"], dtype="str"), RULES)
    assert mask.tolist() == [True, False, False, True]
