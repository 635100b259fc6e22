"""The run as one value: what a daily rating run reads, computes and publishes.

:class:`Run` is frozen, typed and validated once, in its constructor; the command line, the
Prefect flow and the deployment all build it, and the manifest records it (``Run.record``).
Each field is declared once, with its flag, help text and unit (:func:`whr.params.param`);
the command line, the flow's form, the deployment and the docs' option table derive from them.

Light on purpose (standard library only): the command line checks its arguments with it in a
fraction of a second, before pandas or Prefect are imported.

Official lists and variants
---------------------------
A run with the RIF's parameters (the defaults of :class:`whr.params.FitParams`, ``strict`` off,
the bundled eligibility rules) publishes the official lists. Any other run is a *variant*: it
must be given a name (``variant``) and is published apart, under ``variants/<name>/``, so that it
can never replace or move an official list.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from whr.data import bundled
from whr.digest import directory_sha256
from whr.params import (
    CATEGORIES,
    FLAG,
    FRACTION,
    FitParams,
    PullSettings,
    ReadLimits,
    SecretSourceError,
    at_least,
    check_base_url,
    check_fields,
    check_source,
    check_url,
    env_name,
    has_secret,
    is_url,
    param,
    public_source,
    resolve_source,
    same_as,
)

__all__ = ["CATEGORIES", "Backfill", "Run", "RunError", "bundled_rules", "is_url", "today_utc"]

VARIANT_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?")
"""A variant's name: lower-case letters, digits and inner hyphens, at most 40 characters."""


class RunError(ValueError):
    """A run description is not valid; the message names the parameter and what to do."""


def today_utc() -> dt.date:
    """Today's date in UTC (the default list date)."""
    return dt.datetime.now(dt.UTC).date()


def bundled_rules() -> Path:
    """The eligibility rules shipped with the package (the official ones)."""
    return bundled("rules")


def _number(x: float) -> float | int:
    """``x`` as an int when it is whole (2 virtual games, not 2.0), for records people read."""
    return int(x) if float(x).is_integer() else x


@dataclass(frozen=True)
class Run:
    """One rating run: inputs, list date, what is computed, and how it is published.

    Validated once, here: a :class:`RunError` names the field and what to do. The fields are
    described where they are declared (their ``help``), and in ``docs/operations.md``.
    """

    sources: tuple[str, ...] = param(
        flag="--source",
        metavar="S",
        shown="required",
        help="a database file (RenjuNet .rif/.xml, possibly .gz/.zip; canonical CSV/Parquet), a "
        "directory of dated database files (the newest not after the list date is read), an "
        "http(s) URL (never user:password@; its query string is never shown), or env:NAME, the "
        "URL held by the environment variable NAME; repeat to read several together, e.g. the "
        "database and a directory of EGF tables",
    )
    out: Path = param(
        Path("out"),
        flag="--out",
        metavar="OUT",
        help="the published tree: OUT/renju/ (the current list), OUT/archive/ (every day), "
        "OUT/published.json",
    )
    as_of: dt.date = param(
        factory=today_utc,
        flag="--as-of",
        metavar="D",
        shown="today (UTC)",
        help="the list date D (YYYY-MM-DD), at most tomorrow, whatever --force says; later "
        "games are ignored; an earlier date reruns that day",
    )
    as_of_given: bool = param(
        False,
        help="the list date was given (--as-of), not read off this machine's clock: only then "
        "is a list dated more than 31 days after its database's own date published",
    )
    categories: tuple[str, ...] = param(
        CATEGORIES,
        flag="--category",
        choices=CATEGORIES,
        shown="every category",
        help="a rule category to rate and publish as its own list; repeat for several",
    )
    variant: str | None = param(
        None,
        flag="--variant",
        metavar="NAME",
        shown="none",
        help="publish under variants/NAME/: required when --w2, --virtual-games, --strict, "
        "--max-name-chars or --rules differ from the official values; a variant never replaces "
        "an official list",
    )
    fit: FitParams = param(factory=FitParams, help="the Whole-History Rating parameters")
    strict: bool = param(
        False,
        flag="--strict",
        check=FLAG,
        help="exclude the games whose tournament lacks a fact the eligibility rules need (time "
        "control, mode, moves, rule; code unverified) instead of admitting them with a warning",
    )
    rules: Path | None = param(
        None,
        flag="--rules",
        metavar="DIR",
        shown="the bundled rules",
        help="the eligibility rules directory, laid out like the bundled one (settings, "
        "override lists, tournament facts)",
    )
    force: str | None = param(
        None,
        flag="--force",
        metavar="REASON",
        shown="none",
        help="publish even when the input and parameters equal those of the published day, or "
        "when a gate refuses the list (no rated games or players, a shrink beyond "
        "--max-shrink); REASON and each refusal it overrode go into the manifest",
    )
    max_shrink: float = param(
        0.05,
        flag="--max-shrink",
        metavar="FRACTION",
        check=FRACTION,
        help="refuse a list whose rated games or established players fall by more than this "
        "fraction since the previous list of the same kind",
    )
    # about 12 times the RIF's list; see the size budget in docs/operations.md
    max_players: int = param(
        100_000,
        flag="--max-players",
        unit="players",
        check=at_least(1),
        help="refuse, before anything is built, a list of more players than this: publishing "
        "costs memory, time and files in proportion to the players (docs/operations.md, Size)",
    )
    wait: bool = param(
        False,
        flag="--wait",
        check=FLAG,
        help="when another run is publishing to OUT, wait for it instead of failing at once",
    )
    base_url: str | None = param(
        None,
        flag="--base-url",
        metavar="URL",
        shown="none",
        help="the public address of OUT (where OUT/published.json is served, e.g. "
        "https://rating.example.org/): each list's site then has a sitemap.xml and a canonical "
        "link on every page, under URL followed by the site's folder (renju/); an http(s) URL "
        "without credentials, query string or fragment",
    )
    game_links: bool = param(
        False,
        flag="--game-links",
        check=FLAG,
        help="link the result of every game read from a RenjuNet database to the game's record "
        "on renju.net, as the RIF's site does; only for the real database: the ids of a file of "
        "invented games (such as data/sample) would name unrelated real games",
    )
    pull: PullSettings = param(factory=PullSettings, help="how the sources are downloaded")
    limits: ReadLimits = param(factory=ReadLimits, help="what the readers accept")

    def __post_init__(self) -> None:
        if isinstance(self.sources, str) or not isinstance(self.sources, (tuple, list)):
            raise RunError(f"sources: expected a sequence of paths or URLs, got {self.sources!r}")
        if not self.sources or not all(isinstance(s, str) and s.strip() for s in self.sources):
            raise RunError(f"sources: expected one or more paths or URLs, got {self.sources!r}")
        object.__setattr__(self, "sources", tuple(self.sources))
        for source in self.sources:
            try:
                check_source(source)  # its form; an env:NAME is read when the run starts
            except SecretSourceError as exc:
                raise RunError(str(exc)) from None
        if not isinstance(self.out, (str, os.PathLike)) or not str(self.out):
            raise RunError(f"out: expected a directory path, got {self.out!r}")
        object.__setattr__(self, "out", Path(self.out))
        if not isinstance(self.as_of, dt.date) or isinstance(self.as_of, dt.datetime):
            raise RunError(f"as_of: expected a date, got {self.as_of!r}")
        if self.as_of < dt.date(1899, 1, 1):  # before it no game can be rated (eligibility.toml)
            raise RunError(f"as_of: expected a date from 1899-01-01 on, got {self.as_of}")
        tomorrow = today_utc() + dt.timedelta(days=1)
        if self.as_of > tomorrow:
            raise RunError(
                f"as_of: {self.as_of} is later than tomorrow ({tomorrow}, UTC); a list is "
                "published on its day (--force does not change that)"
            )
        categories = tuple(self.categories)
        if not categories or any(c not in CATEGORIES for c in categories):
            raise RunError(f"categories: expected some of {list(CATEGORIES)}, got {categories!r}")
        if len(set(categories)) != len(categories):
            raise RunError(f"categories: each at most once, got {categories!r}")
        object.__setattr__(self, "categories", categories)
        if self.variant is not None and not (
            isinstance(self.variant, str) and VARIANT_NAME.fullmatch(self.variant)
        ):
            raise RunError(
                "variant: expected a name of lower-case letters, digits and inner hyphens "
                f"(at most 40), got {self.variant!r}"
            )
        for name, kind in (("fit", FitParams), ("pull", PullSettings), ("limits", ReadLimits)):
            if not isinstance(getattr(self, name), kind):
                raise RunError(
                    f"{name}: expected a whr.params.{kind.__name__}, got {getattr(self, name)!r}"
                )
        if self.base_url is not None:
            try:
                object.__setattr__(self, "base_url", check_base_url(self.base_url))
            except (TypeError, ValueError) as exc:
                raise RunError(str(exc)) from None
        if self.rules is not None:
            object.__setattr__(self, "rules", Path(self.rules))
        if self.force is not None and not (isinstance(self.force, str) and self.force.strip()):
            raise RunError(f"force: expected the reason for forcing, as text, got {self.force!r}")
        try:
            check_fields(self)  # max_shrink, max_players, strict, wait, game_links
        except (TypeError, ValueError) as exc:
            raise RunError(str(exc)) from None
        if self.variant is None and self.differences():
            raise RunError(self._name_it(self.differences()))

    # -- official or variant -------------------------------------------------------------

    def differences(self, rules_sha256: str | None = None) -> list[str]:
        """What makes this run differ from an official one (empty for an official run).

        Parameters
        ----------
        rules_sha256 : str, optional
            The digest of the rules directory; without it the rules are not compared (that
            needs the files: :meth:`check_local` does it). A directory whose files equal the
            bundled ones counts as the bundled one.
        """
        out = [
            f"{f.name} {getattr(self.fit, f.name)} (official {getattr(FitParams(), f.name)})"
            for f in fields(FitParams)
            if getattr(self.fit, f.name) != getattr(FitParams(), f.name)
        ]
        if self.strict:
            out.append("strict")
        official_names = ReadLimits().max_name_chars
        if self.limits.max_name_chars != official_names:
            out.append(
                f"max_name_chars {self.limits.max_name_chars} (official {official_names}: "
                "names are cut to it)"
            )
        if rules_sha256 is not None and rules_sha256 != directory_sha256(bundled_rules()):
            out.append(f"rules {self.rules} (official: the bundled rules)")
        return out

    @staticmethod
    def _name_it(differences: list[str]) -> str:
        return (
            "these parameters differ from the official ones: "
            + "; ".join(differences)
            + ". A run like this never replaces the official lists: name it with "
            "--variant NAME to publish it apart, under variants/NAME/"
        )

    def check_local(self) -> str:
        """Check what can be checked on this machine before any work; return the rules digest.

        Local sources must exist, ``env:NAME`` sources must be set (to a URL without
        credentials, or a path that exists), the rules directory must hold
        ``eligibility.toml``, ``out`` must not be a file, and a run with a rules directory that
        differs from the bundled one must be named as a variant.

        Returns
        -------
        str
            The sha256 of the rules directory (:func:`whr.digest.directory_sha256`).

        Raises
        ------
        RunError
            Naming the parameter and what to do.
        """
        for source in self.sources:
            try:
                address = resolve_source(source)
                if is_url(address):
                    check_url(address)
            except SecretSourceError as exc:
                raise RunError(str(exc)) from None
            if not is_url(address) and not Path(address).exists():
                held = f" (the value of {env_name(source)})" if address != source else ""
                raise RunError(
                    f"source: {address}{held} does not exist (a file, a directory or an "
                    "http(s) URL is expected)"
                )
        rules = self.rules if self.rules is not None else bundled_rules()
        if not (rules / "eligibility.toml").is_file():
            raise RunError(f"rules: expected a directory with eligibility.toml, got {rules}")
        if self.out.exists() and not self.out.is_dir():
            raise RunError(f"out: {self.out} exists and is not a directory")
        digest = directory_sha256(rules)
        if self.variant is None and self.differences(digest):
            raise RunError(self._name_it(self.differences(digest)))
        return digest

    def refuse_stored_secrets(self) -> None:
        """Refuse a run whose sources hold a URL with a secret (credentials, a query string):
        it must not be a Prefect flow's parameter, which Prefect stores; such a URL is given
        as ``env:NAME`` instead (the command line does that itself)."""
        secret = [public_source(s) for s in self.sources if is_url(s) and has_secret(s)]
        if secret:
            raise RunError(
                f"source: {', '.join(secret)} carries a secret (credentials or a query string), "
                "and a flow's parameters are stored by Prefect: give the URL in an environment "
                "variable of the process that runs the flow and the source as env:NAME (see "
                "docs/sources.md, Secret addresses); if the URL was given here, change the "
                "secret it holds"
            )

    @property
    def rules_directory(self) -> Path:
        """The eligibility rules directory this run reads."""
        return self.rules if self.rules is not None else bundled_rules()

    # -- records ---------------------------------------------------------------------------

    def parameters(self, category: str, rules_sha256: str) -> dict[str, Any]:
        """The parameters that make a list what it is, as JSON values (manifest ``parameters``).

        Two runs with the same input and the same parameters publish the same list, so the
        second ends as "No new data".
        """
        return {
            "as_of": self.as_of.isoformat(),
            "category": category,
            "variant": self.variant,
            "w2_elo2_per_day": self.fit.w2_elo2_per_day,
            "virtual_games": _number(self.fit.virtual_games),
            "fit": self.fit.as_dict(),
            "strict": self.strict,
            "max_name_chars": self.limits.max_name_chars,
            "rules_sha256": rules_sha256,
        }

    def record(self) -> dict[str, Any]:
        """The whole run description as JSON values (manifest ``run``); sources in their public
        form (:func:`whr.params.public_source`: no credentials, no query string)."""
        out = asdict(self)
        out.update(
            sources=[public_source(s) for s in self.sources],
            out=str(self.out),
            as_of=self.as_of.isoformat(),
            categories=list(self.categories),
            rules=None if self.rules is None else str(self.rules),
        )
        return out


@dataclass(frozen=True)
class Backfill:
    """A backfill: each list's history replayed day by day, for each tournament's change at the
    time (:func:`whr.lists.at_the_time.replay`), written beside the list's archive.

    The games are read and selected as the run of day ``as_of`` reads and selects them (the
    fields it shares with :class:`Run` are declared there, :func:`whr.params.same_as`);
    :meth:`run` is that run, and validates them. A :class:`RunError` names the field.
    """

    sources: tuple[str, ...] = same_as(Run, "sources")
    out: Path = same_as(
        Run,
        "out",
        help="the published tree: the replay of each list is written to "
        "OUT/archive/<list>/replay/<D>/",
    )
    as_of: dt.date = same_as(
        Run,
        "as_of",
        help="replay the games the list of day D (YYYY-MM-DD) rates, at most tomorrow; later "
        "games are ignored",
    )
    until: dt.date | None = param(
        None,
        flag="--until",
        metavar="D",
        shown="the --as-of day",
        help="the last day replayed, D included: e.g. the first day of the archive, whose later "
        "days are the archive's own",
    )
    categories: tuple[str, ...] = same_as(
        Run, "categories", help="a rule category whose list is replayed; repeat for several"
    )
    variant: str | None = same_as(
        Run,
        "variant",
        help="the variant whose list is replayed (its archive is variants/NAME/): required "
        "when --w2, --virtual-games, --strict, --max-name-chars or --rules differ from the "
        "official values",
    )
    fit: FitParams = same_as(Run, "fit")
    strict: bool = same_as(Run, "strict")
    rules: Path | None = same_as(Run, "rules")
    wait: bool = same_as(
        Run,
        "wait",
        help="when another run is publishing to OUT as the replay is written, wait for it "
        "instead of failing",
    )
    pull: PullSettings = same_as(Run, "pull")
    limits: ReadLimits = same_as(Run, "limits")

    def __post_init__(self) -> None:
        run = self.run()
        for name in ("sources", "out", "categories", "rules"):
            object.__setattr__(self, name, getattr(run, name))  # as the run normalises them
        if self.until is not None:
            if not isinstance(self.until, dt.date) or isinstance(self.until, dt.datetime):
                raise RunError(f"until: expected a date, got {self.until!r}")
            if self.until > self.as_of:
                raise RunError(
                    f"until: expected a day on or before as_of ({self.as_of}), got {self.until}"
                )

    def run(self) -> Run:
        """The run of day ``as_of`` with this backfill's sources, parameters and rules: what
        the games are read and selected by (raises :class:`RunError`)."""
        shared = {f.name for f in fields(Run)} & {f.name for f in fields(Backfill)}
        return Run(**{name: getattr(self, name) for name in shared})

    @property
    def last_day(self) -> dt.date:
        """The last day replayed: ``until``, else ``as_of``."""
        return self.as_of if self.until is None else self.until

    def record(self) -> dict[str, Any]:
        """The backfill as JSON values (sources in their public form), as :meth:`Run.record`."""
        return {
            **self.run().record(),
            "until": None if self.until is None else self.until.isoformat(),
        }
