"""The maintainers' data files that drive eligibility, read into one frozen value.

Everything a maintainer may want to change lives in plain, commented text files of a rules
directory laid out like ``whr/data/rules/`` (see ``docs/eligibility.md``):

- ``eligibility.toml``: the cut-over date of the 2021 rules, the first day of rated play, the
  minimum minutes per player, the accepted modes of play, whether the rated flag is required,
  and the certified rules (names and name patterns). Required.
- ``game_notes.toml``: the phrases of game notes that say a game was not played in reality, was
  a bye, or was played although it names a default (RIF qualification system 1996, section 4).
  Required.
- ``tournament_facts.csv``: facts the database lacks, per tournament (minutes, mode, dates),
  read by the one parser of that file, :func:`whr.sources.facts.read_facts`. Optional.
- ``rated_tournaments``, ``unrated_tournaments``, ``unrated_games``: one id per line, each line
  allowed a ``# reason`` comment carried into the exclusion messages. Optional (absent = empty).

Nothing is read behind the caller's back: :func:`whr.select` takes the value
:func:`load_config` returns; :func:`default_directory` names the repository's own directory.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from whr.data import bundled
from whr.rules.names import CertifiedRule
from whr.rules.notes import KINDS, NotePattern, note_kind
from whr.sources._common import SourceError
from whr.sources.facts import FACTS_FILE, Facts, no_facts, read_facts
from whr.tables import CATEGORIES, MODES

CONFIG_FILE = "eligibility.toml"
NOTES_FILE = "game_notes.toml"
OVERRIDE_FILES = ("rated_tournaments", "unrated_tournaments", "unrated_games")


class ConfigError(ValueError):
    """A data file of ``whr/data/rules/`` is malformed; the message names the file and line to fix."""


def default_directory() -> Path:
    """The bundled rules directory, ``whr/data/rules/`` (read with ``importlib.resources``)."""
    return bundled("rules")


@dataclass(frozen=True, eq=False)
class EligibilityConfig:
    """The eligibility rules as data; build it with :func:`load_config`.

    Attributes
    ----------
    cutover : datetime.date
        First last-day of a tournament judged by the RIF rating rules 2021 (2021-08-08).
    first_rated_day : datetime.date
        Games dated before it are out (``before_rated_era``): a date that cannot be right
        (bundled: 1899-01-01, when the game took its modern name and rules). The 2021 rules
        fit the complete history, so a tournament the database flags rated counts whatever
        its year; the August 1988 start belongs to the first Elo list (RIF General Assembly
        1996, decision 1), not to WHR.
    min_minutes : float
        Minimum thinking time per player, in minutes, from the cut-over (30).
    accepted_modes : frozenset of str
        Modes of play accepted from the cut-over (``face_to_face``, ``online_supervised``).
    require_rated_flag : bool
        From the cut-over, the tournament must also be flagged rated by the database (or be in
        ``rated_tournaments``): True, the RIF's reading and the default; False, the older
        reading where every fact known and passing rates a tournament without the flag.
    certified_rules : tuple of CertifiedRule
        The rules certified by the RIF, with their name patterns.
    note_patterns : tuple of NotePattern
        The phrases of game notes (``game_notes.toml``), in file order.
    facts : whr.sources.facts.Facts
        The directory's ``tournament_facts.csv`` (empty when there is none).
    rated_tournaments, unrated_tournaments, unrated_games : Mapping of str to str
        Override id -> the line's comment ("" when none).
    files : tuple of str
        Every file read, in order.
    """

    cutover: dt.date
    first_rated_day: dt.date
    min_minutes: float
    accepted_modes: frozenset[str]
    require_rated_flag: bool
    certified_rules: tuple[CertifiedRule, ...]
    note_patterns: tuple[NotePattern, ...] = ()
    facts: Facts = field(default_factory=no_facts)
    rated_tournaments: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    unrated_tournaments: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    unrated_games: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    files: tuple[str, ...] = ()


def load_config(directory: str | Path) -> EligibilityConfig:
    """Read the eligibility rules from a directory of data files.

    Parameters
    ----------
    directory : str or pathlib.Path
        A directory laid out like ``whr/data/rules/``; :func:`default_directory` is the
        repository's own.

    Returns
    -------
    EligibilityConfig

    Raises
    ------
    TypeError
        If ``directory`` is not a path (None included: the rules are always named).
    FileNotFoundError
        If the directory, its ``eligibility.toml`` or its ``game_notes.toml`` does not exist.
    ConfigError
        If a file is malformed (the message names the file and the line); a
        ``tournament_facts.csv`` with any problem (a bad cell, a tournament listed twice) is
        refused here, since the maintainers' own file should be exactly right.
    """
    if not isinstance(directory, str | Path):
        raise TypeError(
            "directory must be a str or pathlib.Path naming a rules directory like whr/data/rules/ "
            f"(whr.rules.default_directory() is the repository's), got {type(directory).__name__}"
        )
    root = Path(directory)
    if not root.is_dir():
        raise FileNotFoundError(
            f"eligibility rules directory {str(root)!r} does not exist "
            "(expected whr/data/rules/ with eligibility.toml)"
        )
    toml_path = root / CONFIG_FILE
    if not toml_path.is_file():
        raise FileNotFoundError(f"{toml_path} is missing: the eligibility rules need it")
    notes_path = root / NOTES_FILE
    if not notes_path.is_file():
        raise FileNotFoundError(
            f"{notes_path} is missing: the eligibility rules need it to tell forfeits and byes "
            "from games played"
        )
    files = [str(toml_path), str(notes_path)]
    settings = _read_settings(toml_path)
    patterns = _read_notes(notes_path)

    # named in problems and warnings as "<directory name>/tournament_facts.csv" (e.g.
    # "rules/tournament_facts.csv"): published reports carry no path of this machine
    facts_path = root / FACTS_FILE
    facts = no_facts(f"{root.name}/{FACTS_FILE}")
    if facts_path.is_file():
        try:
            facts = read_facts(facts_path, name=facts.name)
        except SourceError as error:
            raise ConfigError(str(error)) from None
        if len(facts.problems):
            first = facts.problems.iloc[0]
            more = len(facts.problems) - 1
            raise ConfigError(
                f"{facts_path}, {first['locator']}: {first['message']}"
                + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")
            )
        files.append(str(facts_path))

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
        note_patterns=patterns,
        facts=facts,
        rated_tournaments=overrides["rated_tournaments"],
        unrated_tournaments=overrides["unrated_tournaments"],
        unrated_games=overrides["unrated_games"],
        files=tuple(files),
    )


def _read_settings(path: Path) -> dict[str, Any]:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from error

    def need(key: str, kind: type | tuple[type, ...], what: str) -> Any:  # a TOML value
        if key not in raw:
            raise ConfigError(f"{path}: missing key {key!r} ({what})")
        value = raw[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise ConfigError(f"{path}: {key!r} must be {what}, got {value!r}")
        return value

    cutover = need("cutover", dt.date, "a TOML date such as 2021-08-08")
    if isinstance(cutover, dt.datetime):
        raise ConfigError(f"{path}: 'cutover' must be a date without a time, got {cutover!r}")
    first_day = need("first_rated_day", dt.date, "a TOML date such as 1899-01-01")
    if isinstance(first_day, dt.datetime):
        raise ConfigError(f"{path}: 'first_rated_day' must be a date, got {first_day!r}")
    if first_day >= cutover:
        raise ConfigError(
            f"{path}: 'first_rated_day' ({first_day}) must come before 'cutover' ({cutover})"
        )
    min_minutes = float(need("min_minutes", (int, float), "a number of minutes per player"))
    if not 0 < min_minutes < float("inf"):
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
        "first_rated_day": first_day,
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


def _read_notes(path: Path) -> tuple[NotePattern, ...]:
    """The note phrases of ``game_notes.toml``, each checked against its own examples."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from error
    unknown = sorted(set(raw) - set(KINDS))
    if unknown:
        raise ConfigError(f"{path}: unknown lists {unknown}; the lists are {list(KINDS)}")
    patterns: list[NotePattern] = []
    for kind in KINDS:
        entries = raw.get(kind, [])
        if not isinstance(entries, list):
            raise ConfigError(f"{path}: {kind!r} must be an array of tables [[{kind}]]")
        for number, entry in enumerate(entries, start=1):
            where = f"{path}: [[{kind}]] number {number}"
            if not isinstance(entry, dict) or not isinstance(entry.get("pattern"), str):
                raise ConfigError(f"{where} needs a 'pattern' string")
            examples = entry.get("examples", [])
            if not isinstance(examples, list) or not all(isinstance(e, str) for e in examples):
                raise ConfigError(f"{where}: 'examples' must be a list of strings")
            try:
                pattern = re.compile(entry["pattern"], re.IGNORECASE)
            except re.error as error:
                raise ConfigError(f"{where}: bad pattern {entry['pattern']!r}: {error}") from error
            patterns.append(NotePattern(kind, pattern, tuple(examples)))
    by_kind: dict[str, list[re.Pattern[str]]] = {kind: [] for kind in KINDS}
    for item in patterns:
        by_kind[item.kind].append(item.pattern)
    for item in patterns:
        for example in item.examples:
            if not item.pattern.search(example):
                raise ConfigError(
                    f"{path}: pattern {item.pattern.pattern!r} of [[{item.kind}]] does not "
                    f"find its own example {example!r}"
                )
            verdict = note_kind(example, by_kind)
            if verdict != item.kind:
                raise ConfigError(
                    f"{path}: the example {example!r} of [[{item.kind}]] is read as "
                    f"{verdict!r}, since an earlier list finds it; make the patterns narrower"
                )
    return tuple(patterns)
