"""An archive entry and its one check: a directory with a manifest, every file checked against it.

See :mod:`whr.publish.archive` and ``docs/operations.md``, *Damage is reported*.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from whr.digest import bytes_sha256
from whr.publish.checksums import check_file
from whr.publish.files import is_dir, read_bytes, read_parquet
from whr.publish.layout import MONTH, Channel
from whr.publish.ledger import Expected
from whr.tables import MONTH_LISTS, RATINGS, conform

_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # a file an entry may list


class StateError(RuntimeError):
    """A file of the published tree is damaged; the message names it and says what to do."""


@dataclass(frozen=True)
class Entry:
    """A complete archive entry: one published day of one list."""

    channel: Channel
    day: dt.date
    path: Path
    manifest: dict[str, Any]
    manifest_sha256: str
    pending: bool = False
    """True when the manifest is still the version before the last change the ledger records
    of it (a compaction that a killed run recorded, finished by the next run)."""

    @property
    def full(self) -> bool:
        """True when the entry still holds every table (it can be rendered from)."""
        return "history.parquet" in self.manifest.get("files", {})

    @property
    def in_month(self) -> bool:
        """True when the day's list has moved into its month's file."""
        return "ratings.parquet" not in self.manifest["files"]

    @property
    def list_file(self) -> Path:
        """The file that holds the day's list: the entry's own, or its month's."""
        return _list_file(self.path, self.manifest)

    @property
    def list_sha256(self) -> str:
        """The sha256 of :attr:`list_file`, as the manifest records it."""
        info = (
            self.manifest["list_in"] if self.in_month else self.manifest["files"]["ratings.parquet"]
        )
        digest: str = info["sha256"]
        return digest


@dataclass(frozen=True)
class Damaged:
    """A day's entry that does not check: what is wrong, and what can still be used of it."""

    day: dt.date
    path: Path
    problem: str
    """What is wrong, naming the file."""
    fix: str
    """What to do about it."""
    manifest: dict[str, Any] | None
    """The manifest, when it reads, names this day and matches its recorded checksum (None
    otherwise: it is not to be trusted)."""
    list_ok: bool
    """True when the day's list file is there and matches its checksum."""

    @property
    def what(self) -> str:
        """The sentence that names the file, what is wrong, and what to do."""
        return f"{self.problem}; {self.fix}"


REPAIRED, DAMAGED, FOREIGN, KEPT, IGNORED, RECORDED = (
    "repaired", "damaged", "foreign", "kept", "ignored", "recorded"
)  # fmt: skip
"""What a line of a run's report says (its first word): something was put right (a repair, and
nothing else); a file does not check, or a file the ledger records is missing (with what to do;
``--verify`` then exits 1); a day, month file or replay the ledger does not hold, never used
(``--verify`` exits 1 too); something is left as it is because of damage; something the run
does not use (and why); records begun (the ledger, or checksums of files written before them)."""

REPLAY_FILES = ("tournament_changes.parquet", "record.parquet")
"""The tables of a replay of the backfill (:mod:`whr.publish.replay`)."""


def line(kind: str, text: str) -> str:
    """A line of the run's report (:data:`REPAIRED`, ...)."""
    return f"{kind}: {text}"


def _republish(path: Path) -> str:
    return (
        f"republish the day (--as-of {path.name} --force REASON, on the input its manifest names)"
    )


def _list_file(path: Path, manifest: dict[str, Any]) -> Path:
    if "ratings.parquet" in manifest["files"]:
        return path / "ratings.parquet"
    return Path(os.path.normpath(path / manifest["list_in"]["path"]))


def read_json(path: Path, what: str, fix: str) -> Any:
    """Parse a JSON state file (never through a link); a damaged one raises
    :class:`StateError` naming it and ``fix``."""
    try:
        return json.loads(read_bytes(path).decode("utf-8"))
    except FileNotFoundError:
        raise StateError(f"{path}: {what} is missing; {fix}") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise StateError(f"{path}: {what} is damaged ({exc}); {fix}") from None


def read_manifest(entry: Path) -> dict[str, Any]:
    """The manifest of an archive entry, checked for the keys every manifest has."""
    fix = _fix(entry)
    manifest = read_json(entry / "manifest.json", "the manifest", fix)
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise StateError(f"{entry / 'manifest.json'}: not a manifest (no files listed); {fix}")
    return manifest


def _month(day: dt.date) -> str:
    return f"{day.year:04d}-{day.month:02d}"


def _year_end(day: dt.date) -> bool:
    return (day.month, day.day) == (12, 31)


def _manifest(data: bytes) -> dict[str, Any] | str:
    """The manifest in ``data``, or what is wrong with it."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return f"the manifest is damaged ({exc})"
    if not isinstance(value, dict) or not isinstance(value.get("files"), dict):
        return "not a manifest (no files listed)"
    return value


def _fix(path: Path, *, restore: str | None = None, known: str = "", kind: str = "day") -> str:
    """What to do about a damaged entry: restore ``restore`` from a copy (when a copy can fix
    it; ``known``: how to know the right copy), or make it again (republish the day, or run the
    backfill again). A published day is never dropped: the ledger holds it."""
    ways = [f"restore {restore} from a copy of the published tree{known}"] if restore else []
    ways.append(_republish(path) if kind == "day" else REPLAY_AGAIN)
    return ", or ".join(ways)


REPLAY_AGAIN = "run rif-rating backfill again (it writes the replay anew)"


def check(
    path: Path,
    day: dt.date,
    channel: Channel | None,
    expected: Expected | None,
    hashes: dict[Path, Any],
    *,
    kind: str = "day",
    level: str = "all",
) -> Entry | Damaged:
    """The one check of an archive entry: a published day's (``kind="day"``) or a replay's of
    the backfill (``"replay"``): a directory of files and the ``manifest.json`` that lists them.

    The manifest must be as ``expected`` records it (the ledger's record of it, or
    ``checksums.json``'s in a tree written before the ledger; None: no record), read, and name
    the entry's kind, day and list; every file it lists must be there, a plain name, with its
    size and (``level``: ``"sizes"``, ``"list"`` for the day's list only, ``"all"``) sha256,
    and so must the month's file that holds a day's list (``list_in``). A replay holds exactly
    its tables. ``hashes`` caches sha256 (month files are shared by the days of a month).
    """
    file = path / "manifest.json"
    held = (
        f" (its sha256 is {expected.versions[-1]['sha256']}, recorded in {expected.holder})"
        if expected is not None and expected.versions
        else ""
    )

    def damaged(problem: str, manifest: dict[str, Any] | None, list_ok: bool, fix: str) -> Damaged:
        return Damaged(day, path, problem, fix, manifest, list_ok)

    def bad_manifest(problem: str) -> Damaged:
        return damaged(problem, None, False, _fix(path, restore="it", known=held, kind=kind))

    try:
        data = read_bytes(file)
    except FileNotFoundError:
        gone = "the entry is missing" if not is_dir(path) else "the manifest is missing"
        recorded = f", which {expected.holder} records" if expected and expected.versions else ""
        return bad_manifest(f"{file}: {gone}{recorded}")
    except OSError as exc:
        return bad_manifest(f"{file}: the manifest does not read ({exc})")
    wrong = expected.of(data) if expected is not None else None
    if wrong is not None and wrong != "pending":
        return bad_manifest(changed(file, wrong))
    manifest = _manifest(data)
    if isinstance(manifest, str):
        return bad_manifest(f"{file}: {manifest}")
    named = manifest["list"] if isinstance(manifest.get("list"), dict) else {}
    meant = {"category": channel.category, "variant": channel.variant} if channel else None
    what = "replay" if kind == "replay" else "day"
    if (
        manifest.get("as_of") != day.isoformat()
        or (meant is not None and dict(named) != meant)
        or (manifest.get("kind") == "replay") != (kind == "replay")
    ):
        return bad_manifest(
            f"{file} is the manifest of {named.get('category')} {manifest.get('as_of')}"
            f"{' (a replay)' if manifest.get('kind') == 'replay' else ''}, not of this {what}"
        )
    listed: dict[str, tuple[Path, dict[str, Any]]] = {}
    for name, info in manifest["files"].items():
        if not _PLAIN.fullmatch(name) or not isinstance(info, dict):
            return bad_manifest(f"{file} lists a bad file name {name!r}")
        if kind == "replay" and name not in REPLAY_FILES:
            return bad_manifest(f"{file} lists {name!r}, not a table of a replay")
        listed[name] = (path / name, info)
    if kind == "replay":
        missing = sorted(set(REPLAY_FILES) - set(listed))
        if missing:
            return bad_manifest(f"{file} lists no {', '.join(missing)}")
    into = manifest.get("list_in") if kind == "day" else None
    month = None if into is None else _month_path(into, day)
    if into is not None:
        if month is None:
            given = into.get("path") if isinstance(into, dict) else None
            return bad_manifest(f"{file} names no file of its month for the day's list ({given!r})")
        listed[month] = (Path(os.path.normpath(path / month)), into)
    list_name = "ratings.parquet" if "ratings.parquet" in manifest["files"] else month
    if list_name is None and kind == "day":
        return bad_manifest(f"{file} names no file that holds the day's list")
    problems: list[str] = []
    list_ok = True
    for name, (found, info) in listed.items():
        is_list = name == list_name
        wrong = check_file(
            found,
            info,
            hashes,
            "its manifest" if name != month else f"the manifest {file}",
            digest=level == "all" or (level == "list" and is_list),
        )
        if wrong is not None:
            problems.append(f"{found} {wrong}")
            list_ok = list_ok and not is_list
    if kind == "replay":
        extra = sorted(p.name for p in path.iterdir() if p.name not in [*listed, "manifest.json"])
        if extra:
            problems.append(f"{path} holds files its manifest does not list ({', '.join(extra)})")
    if problems:
        if month is not None and list_name == month and not list_ok:
            at = into.get("sha256") if isinstance(into, dict) else None
            fix = _fix(path, restore=str(listed[month][0]), known=f" (its sha256 is {at})")
        else:
            one = len(problems) == 1
            fix = _fix(
                path,
                restore="it" if one else "them",
                known=" (the manifest records the sha256 of each)",
                kind=kind,
            )
        return damaged("; ".join(problems), manifest, list_ok, fix)
    return Entry(
        Channel(str(named.get("category")), named.get("variant")),
        day,
        path,
        manifest,
        bytes_sha256(data),
        pending=wrong == "pending",
    )


def _month_path(into: object, day: dt.date) -> str | None:
    """The path a manifest's ``list_in`` gives for the day's list when it names a file of the
    day's month (``../months/YYYY-MM....parquet``), else None."""
    where = into.get("path") if isinstance(into, dict) else None
    months = "../months/"
    if not isinstance(where, str) or not where.startswith(months):
        return None
    match = MONTH.fullmatch(where[len(months) :])
    return where if match is not None and match.group(1) == _month(day) else None


def check_entry(entry: Path, *, checksums: bool = False) -> Entry | str:
    """An :class:`Entry` when ``entry`` is complete, else a sentence that says what is wrong.

    Complete: the manifest reads and names the entry's day, every file it lists is there with
    its size (and, with ``checksums``, its sha256), and so is the month file it names for its
    list.
    """
    found = check(
        entry, dt.date.fromisoformat(entry.name), None, None, {},
        level="all" if checksums else "sizes",
    )  # fmt: skip
    return found if isinstance(found, Entry) else found.what


def verify_files(entry: Entry, hashes: dict[Path, Any] | None = None) -> None:
    """Check the sha256 of every file of ``entry`` (before it is read to render or compare);
    raises :class:`StateError` naming the first that does not match."""
    for name, info in entry.manifest["files"].items():
        wrong = check_file(
            entry.path / name, info, {} if hashes is None else hashes, "its manifest"
        )
        if wrong is not None:
            raise StateError(f"{entry.path / name} {wrong}; {_fix(entry.path)}")


def read_list(entry: Entry, months: dict[Path, pd.DataFrame] | None = None) -> pd.DataFrame:
    """The list of an entry's day (RATINGS), from the entry or from its month's file
    (``months``: the month files read so far, by path, to read each once for its days)."""
    if not entry.in_month:
        return read_parquet(entry.list_file, RATINGS)
    month = None if months is None else months.get(entry.list_file)
    if month is None:
        month = read_parquet(entry.list_file, MONTH_LISTS)
        if months is not None:
            months[entry.list_file] = month
    return _day_rows(month, entry.day)


def _day_rows(month: pd.DataFrame, day: dt.date) -> pd.DataFrame:
    return _in_list_order(conform(month.loc[month["list_date"] == day], RATINGS))


def _in_list_order(frame: pd.DataFrame) -> pd.DataFrame:
    """Ranked players by rank, then the others by rating (the order of a published list)."""
    order = frame.sort_values(
        ["rank", "rating", "player"], ascending=[True, False, True], na_position="last"
    )
    return order.reset_index(drop=True)


def changed(path: Path, wrong: str) -> str:
    """What it means that ``path`` does not match the checksum recorded for it (``wrong``,
    from :meth:`whr.publish.checksums.Checksums.check`): it was changed (or removed) after the
    run wrote it, since every run records a file before it writes it."""
    if wrong == "is missing":
        return f"{path} is missing: it was removed after the run wrote it"
    return f"{path} {wrong}: it was changed after the run wrote it"
