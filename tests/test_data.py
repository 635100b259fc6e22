"""whr.data: the files that ship inside the package, found with importlib.resources."""

from __future__ import annotations

from pathlib import Path

import pytest

import whr
from whr.data import NAMES, bundled
from whr.rules import default_directory
from whr.sources import egf

PACKAGE = Path(whr.__file__).resolve().parent


def test_every_bundled_name_lies_inside_the_package() -> None:
    for name in NAMES:
        path = bundled(name)
        assert path.exists(), path
        assert path.resolve().is_relative_to(PACKAGE), path
    assert (bundled("rules") / "eligibility.toml").is_file()


def test_the_readers_default_to_the_bundled_files() -> None:
    assert default_directory() == bundled("rules")
    assert bundled("egf_players.csv") == egf.DEFAULT_MAPPING
    assert bundled("country_codes.csv") == egf.DEFAULT_COUNTRIES


def test_a_bad_name_is_refused_naming_the_argument() -> None:
    with pytest.raises(ValueError, match=r"name: expected one of .*; got 'sample'"):
        bundled("sample")
    with pytest.raises(ValueError, match="name"):
        bundled("../pyproject.toml")
    with pytest.raises(TypeError, match="name: expected a str.*got PosixPath"):
        bundled(Path("rules"))  # type: ignore[arg-type]
