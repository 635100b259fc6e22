"""The data files that ship inside the package, and how the code finds them.

``rules/`` (the eligibility settings, override lists and tournament facts, see
``docs/eligibility.md``), ``egf_players.csv`` and ``country_codes.csv`` (the mappings of EGF
tables, see ``docs/egf.md``) are maintained here and installed with the package; they are found
through :mod:`importlib.resources`, so an installed wheel reads them as an editable checkout
does, from any working directory.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["bundled"]

NAMES = ("rules", "egf_players.csv", "country_codes.csv")
"""What lies in this package besides this module."""


def bundled(name: str) -> Path:
    """The path of a bundled data file or directory.

    Parameters
    ----------
    name : str
        One of :data:`NAMES`: ``"rules"`` (a directory), ``"egf_players.csv"`` or
        ``"country_codes.csv"``.

    Returns
    -------
    Path
        Its location in the installed package (it is not checked to exist: a missing file is
        reported by whoever reads it, naming the path).

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    ValueError
        If ``name`` is not one of :data:`NAMES`.
    RuntimeError
        If the package is not installed as files (e.g. imported from a zip archive), where the
        readers' paths would not exist.
    """
    if not isinstance(name, str):
        raise TypeError(f"name: expected a str, one of {NAMES}; got {type(name).__name__}")
    if name not in NAMES:
        raise ValueError(f"name: expected one of {NAMES}; got {name!r}")
    resource = resources.files(__name__).joinpath(name)
    if not isinstance(resource, Path):
        raise RuntimeError(
            f"the bundled data {name!r} is not a file on disk ({resource!r}); install rif-rating "
            "as files (pip install), not as a zip archive"
        )
    return resource
