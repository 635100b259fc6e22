"""The maintainers' data files that drive eligibility, read into one frozen value.

Everything a maintainer may want to change lives in plain, commented text files in
``data/rules/`` (see ``docs/eligibility.md``):

- ``eligibility.toml``: the cut-over date of the 2021 rules, the minimum minutes per player, the
  accepted modes of play, and the certified rules (names and name patterns). Required.
- ``tournament_facts.csv``: facts the database lacks, per tournament: ``tournament_id, minutes,
  mode, note``. An empty cell means "not known". Optional.
- ``rated_tournaments``, ``unrated_tournaments``, ``unrated_games``: one id per line, each line
  allowed a ``# reason`` comment carried into the exclusion messages. Optional (absent = empty).
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import pandas as pd

from whr.data import bundled
from whr.rules.names import CertifiedRule
from whr.tables import CATEGORIES, MODES

CONFIG_FILE = "eligibility.toml"
FACTS_FILE = "tournament_facts.csv"
OVERRIDE_FILES = ("rated_tournaments", "unrated_tournaments", "unrated_games")
FACT_COLUMNS = ("tournament_id", "minutes", "mode", "note", "source")


class ConfigError(ValueError):
    """A data file of ``data/rules/`` is malformed; the message names the file and line to fix."""


def default_directory() -> Path:
    """The bundled rules directory, ``whr/data/rules/`` (read with ``importlib.resources``)."""
    return bundled("rules")


def config_digest(directory: Path) -> str:
    """sha256 over the eligibility files of ``directory`` (names and contents, sorted).

    Every file under ``directory`` counts (``__pycache__`` aside), so editing, adding or
    removing any list changes the digest; record it with a run's parameters so that a change
    of the rules makes the next run publish.

    Parameters
    ----------
    directory : Path
        A rules directory like ``data/rules/``.

    Returns
    -------
    str
        Hex sha256 of the lines ``<relative path>\\t<sha256 of the file>\\n``, in path order.
    """
    lines = []
    for path in sorted(Path(directory).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            lines.append(f"{path.relative_to(directory).as_posix()}\t{digest}\n")
    return hashlib.sha256("".join(lines).encode()).hexdigest()


@dataclass(frozen=True, eq=False)
class EligibilityConfig:
    """The eligibility rules as data; build it with :func:`load_config`.

    Attributes
    ----------
    cutover : datetime.date
        First last-day of a tournament judged by the 2021 rules (2021-08-08).
    min_minutes : float
        Minimum thinking time per player, in minutes, from the cut-over (30).
    accepted_modes : frozenset of str
        Modes of play accepted from the cut-over (``face_to_face``, ``online_supervised``).
    require_rated_flag : bool
        From the cut-over, also require the database's rated flag when every fact is known
        (False: the facts decide, the flag only when a fact is unknown).
    certified_rules : tuple of CertifiedRule
        The rules certified by the RIF, with their name patterns.
    facts : pandas.DataFrame
        One row per tournament: ``tournament_id, minutes, mode, note, source`` (``source`` is
        ``file:line`` of the row that gave the last value); minutes in minutes per player, NaN
        when unknown; mode one of ``whr.tables.MODES`` or null.
    rated_tournaments, unrated_tournaments, unrated_games : Mapping of str to str
        Override id -> the line's comment ("" when none).
    files : tuple of str
        Every file read, in order.
    """

    cutover: dt.date
    min_minutes: float
    accepted_modes: frozenset[str]
    require_rated_flag: bool
    certified_rules: tuple[CertifiedRule, ...]
    facts: pd.DataFrame
    rated_tournaments: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    unrated_tournaments: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    unrated_games: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    files: tuple[str, ...] = ()


def load_config(
    directory: str | Path | None = None, facts: Iterable[str | Path] = ()
) -> EligibilityConfig:
    """Read the eligibility rules from a directory of data files.

    Parameters
    ----------
    directory : str or pathlib.Path, optional
        A directory laid out like ``data/rules/``; None means the repository's own.
    facts : iterable of str or pathlib.Path, optional
        Further tournament-facts files (same columns as ``tournament_facts.csv``), read after the
        directory's own; a non-empty cell of a later file replaces the value of an earlier one.

    Returns
    -------
    EligibilityConfig

    Raises
    ------
    FileNotFoundError
        If the directory, its ``eligibility.toml`` or a listed facts file does not exist.
    ConfigError
        If a file is malformed (the message names the file and the line).
    TypeError
        If ``facts`` is a single path instead of a list of paths.
    """
    if isinstance(facts, str | Path):
        raise TypeError(f"facts must be a list of paths, got a single path {str(facts)!r}")
    root = default_directory() if directory is None else Path(directory)
    if not root.is_dir():
        raise FileNotFoundError(
            f"eligibility rules directory {str(root)!r} does not exist "
            "(expected data/rules/ with eligibility.toml)"
        )
    toml_path = root / CONFIG_FILE
    if not toml_path.is_file():
        raise FileNotFoundError(f"{toml_path} is missing: the eligibility rules need it")
    files = [str(toml_path)]
    settings = _read_settings(toml_path)

    fact_paths = [root / FACTS_FILE] if (root / FACTS_FILE).is_file() else []
    for extra in facts:
        path = Path(extra)
        if not path.is_file():
            raise FileNotFoundError(f"tournament facts file {str(path)!r} does not exist")
        fact_paths.append(path)
    tables = [_read_facts(path) for path in fact_paths]
    files += [str(p) for p in fact_paths]

    overrides: dict[str, Mapping[str, str]] = {}
    for name in OVERRIDE_FILES:
        path = root / name
        overrides[name] = MappingProxyType(_read_ids(path) if path.is_file() else {})
        if path.is_file():
            files.append(str(path))
    both = sorted(set(overrides["rated_tournaments"]) & set(overrides["unrated_tournaments"]))
    if both:
        raise ConfigError(
            f"tournaments {both} are in both rated_tournaments and unrated_tournaments "
            f"of {root}; keep each in one list only"
        )
    return EligibilityConfig(
        **settings,
        facts=_merge_facts(tables),
        rated_tournaments=overrides["rated_tournaments"],
        unrated_tournaments=overrides["unrated_tournaments"],
        unrated_games=overrides["unrated_games"],
        files=tuple(files),
    )


def _read_settings(path: Path) -> dict:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from error

    def need(key: str, kind: type | tuple[type, ...], what: str):
        if key not in raw:
            raise ConfigError(f"{path}: missing key {key!r} ({what})")
        value = raw[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise ConfigError(f"{path}: {key!r} must be {what}, got {value!r}")
        return value

    cutover = need("cutover", dt.date, "a TOML date such as 2021-08-08")
    if isinstance(cutover, dt.datetime):
        raise ConfigError(f"{path}: 'cutover' must be a date without a time, got {cutover!r}")
    min_minutes = float(need("min_minutes", (int, float), "a number of minutes per player"))
    if not min_minutes > 0:
        raise ConfigError(f"{path}: 'min_minutes' must be positive, got {min_minutes}")
    modes = need("accepted_modes", list, f"a list of modes among {list(MODES)}")
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        raise ConfigError(f"{path}: accepted_modes {unknown} are not among {list(MODES)}")
    require_flag = need("require_rated_flag", bool, "true or false")
    entries = need("certified_rules", list, "an array of tables [[certified_rules]]")
    rules = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not {"name", "pattern"} <= set(entry):
            raise ConfigError(f"{path}: certified rule {number} needs 'name' and 'pattern'")
        try:
            pattern = re.compile(entry["pattern"])
        except re.error as error:
            raise ConfigError(
                f"{path}: certified rule {entry['name']!r}: bad pattern {entry['pattern']!r}: {error}"
            ) from error
        category = entry.get("category", "renju")
        if category not in CATEGORIES:
            raise ConfigError(
                f"{path}: certified rule {entry['name']!r}: category must be one of "
                f"{list(CATEGORIES)}, got {category!r}"
            )
        rules.append(CertifiedRule(name=str(entry["name"]), pattern=pattern, category=category))
    return {
        "cutover": cutover,
        "min_minutes": min_minutes,
        "accepted_modes": frozenset(modes),
        "require_rated_flag": require_flag,
        "certified_rules": tuple(rules),
    }


def _content_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of the lines that are neither blank nor whole-line comments."""
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    return [
        (n, line)
        for n, line in enumerate(lines, start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def _read_ids(path: Path) -> dict[str, str]:
    """One id per line, optional ``# reason``; returns id -> reason."""
    ids: dict[str, str] = {}
    seen: dict[str, int] = {}
    for number, line in _content_lines(path):
        text, _, comment = line.partition("#")
        token = text.strip()
        if not token or len(token.split()) != 1:
            raise ConfigError(f"{path}:{number}: expected one id per line, got {line.strip()!r}")
        if token in seen:
            raise ConfigError(f"{path}:{number}: id {token!r} already listed on line {seen[token]}")
        seen[token] = number
        ids[token] = comment.strip()
    return ids


def _read_facts(path: Path) -> pd.DataFrame:
    rows = _content_lines(path)
    if not rows:
        return pd.DataFrame({name: [] for name in FACT_COLUMNS})
    header_number, header_line = rows[0]
    header = [h.strip() for h in next(csv.reader([header_line]))]
    missing = [c for c in ("tournament_id", "minutes", "mode") if c not in header]
    if missing:
        raise ConfigError(f"{path}:{header_number}: header lacks columns {missing}; got {header}")
    records = []
    seen: dict[str, int] = {}
    for number, line in rows[1:]:
        cells = [c.strip() for c in next(csv.reader([line]))]
        if len(cells) > len(header):
            raise ConfigError(
                f"{path}:{number}: {len(cells)} cells for {len(header)} columns "
                "(quote a note that contains a comma)"
            )
        row = dict(zip(header, cells + [""] * (len(header) - len(cells)), strict=True))
        tid = row["tournament_id"]
        if not tid:
            raise ConfigError(f"{path}:{number}: empty tournament_id")
        if tid in seen:
            raise ConfigError(f"{path}:{number}: tournament {tid!r} already on line {seen[tid]}")
        seen[tid] = number
        minutes = float("nan")
        if row["minutes"]:
            try:
                minutes = float(row["minutes"])
            except ValueError:
                raise ConfigError(
                    f"{path}:{number}: minutes must be a number of minutes per player, got {row['minutes']!r}"
                ) from None
            if not minutes > 0:
                raise ConfigError(f"{path}:{number}: minutes must be positive, got {minutes}")
        mode = row["mode"] or None
        if mode is not None and mode not in MODES:
            raise ConfigError(
                f"{path}:{number}: mode must be one of {list(MODES)} or empty, got {mode!r}"
            )
        records.append(
            {
                "tournament_id": tid,
                "minutes": minutes,
                "mode": mode,
                "note": row.get("note", "") or "",
                "source": f"{path}:{number}",
            }
        )
    return pd.DataFrame.from_records(records, columns=list(FACT_COLUMNS))


def _merge_facts(tables: list[pd.DataFrame]) -> pd.DataFrame:
    """Later tables win, field by field, where their cell is known."""
    merged: dict[str, dict] = {}
    for table in tables:
        for row in table.to_dict("records"):
            current = merged.setdefault(
                row["tournament_id"],
                {
                    "tournament_id": row["tournament_id"],
                    "minutes": float("nan"),
                    "mode": None,
                    "note": "",
                    "source": "",
                },
            )
            if row["minutes"] == row["minutes"]:  # not NaN
                current["minutes"] = row["minutes"]
            if row["mode"] is not None:
                current["mode"] = row["mode"]
            if row["note"]:
                current["note"] = row["note"]
            current["source"] = row["source"]
    frame = pd.DataFrame.from_records(list(merged.values()), columns=list(FACT_COLUMNS))
    return frame.astype(
        {"tournament_id": "str", "minutes": "float64", "note": "str", "source": "str"}
    )
