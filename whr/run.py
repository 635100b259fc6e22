"""The run as one value: what a daily rating run reads, computes and publishes.

:class:`Run` is frozen, typed and validated once, in its constructor; the command line, the
Prefect flow and the deployment all build it, and the manifest records it (``Run.record``).
Defaults are declared once: here and in :mod:`whr.params`.

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
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from whr.data import bundled
from whr.digest import directory_sha256
from whr.params import (
    CATEGORIES,
    FitParams,
    PullSettings,
    ReadLimits,
    SecretSourceError,
    check_source,
    check_url,
    env_name,
    has_secret,
    is_url,
    public_source,
    resolve_source,
)

__all__ = ["CATEGORIES", "Run", "RunError", "bundled_rules", "is_url", "today_utc"]

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

    Attributes
    ----------
    sources : tuple of str
        Files, directories of dated database files, http(s) URLs, or ``env:NAME`` (the URL or
        path held by the environment variable ``NAME``: how an address with a secret in it is
        given); read and concatenated. A URL with credentials (``user:password@``) is refused.
    out : Path
        The published tree (see ``docs/operations.md``).
    as_of : datetime.date
        The list date D; later games are ignored. At most tomorrow (UTC), always: a list is
        published on its day, and nothing overrides this.
    categories : tuple of str
        Rule categories to rate and publish, each as its own list (default: all).
    variant : str or None
        Name under which a non-official run publishes (``variants/<name>/``); required when
        the parameters differ from the official ones.
    fit : whr.params.FitParams
        The WHR parameters (w2 in Elo^2 per day, virtual games, tolerances).
    strict : bool
        Exclude games whose tournament lacks a fact the 2021 rules need, instead of admitting
        them with a warning.
    rules : Path or None
        Eligibility rules directory; None for the bundled one.
    force : str or None
        Why the run must publish even when it would not: the same input as the published day
        ("No new data"), or a gate that refuses the list. Recorded in the manifest with what it
        overrode.
    max_shrink : float
        Refuse a list whose rated games or established players are fewer, by more than this
        fraction, than on the previous list of the same kind (0.05 = 5 %).
    max_players : int
        Refuse, before anything is built, a list of more players than this (the players of its
        rated games): publishing costs memory, time and files in proportion to the players
        (a page each, and a row in every year-end list since their first game); see the size
        budget in ``docs/operations.md``. Default 100,000, about 12 times the RIF's list.
    wait : bool
        Wait for another run that is publishing to ``out`` instead of failing at once.
    pull : whr.params.PullSettings
        Download timeouts, deadline, size cap, retries and backoff.
    limits : whr.params.ReadLimits
        What the readers accept: unpacked bytes of a file, characters of one value, of a name.
    """

    sources: tuple[str, ...]
    out: Path
    as_of: dt.date
    categories: tuple[str, ...] = CATEGORIES
    variant: str | None = None
    fit: FitParams = field(default_factory=FitParams)
    strict: bool = False
    rules: Path | None = None
    force: str | None = None
    max_shrink: float = 0.05
    max_players: int = 100_000
    wait: bool = False
    pull: PullSettings = field(default_factory=PullSettings)
    limits: ReadLimits = field(default_factory=ReadLimits)

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
        if not isinstance(self.fit, FitParams):
            raise RunError(f"fit: expected a whr.params.FitParams, got {self.fit!r}")
        if not isinstance(self.pull, PullSettings):
            raise RunError(f"pull: expected a whr.params.PullSettings, got {self.pull!r}")
        if not isinstance(self.limits, ReadLimits):
            raise RunError(f"limits: expected a whr.params.ReadLimits, got {self.limits!r}")
        for name in ("strict", "wait"):
            if not isinstance(getattr(self, name), bool):
                raise RunError(f"{name}: expected true or false, got {getattr(self, name)!r}")
        if self.rules is not None:
            object.__setattr__(self, "rules", Path(self.rules))
        if self.force is not None and not (isinstance(self.force, str) and self.force.strip()):
            raise RunError(f"force: expected the reason for forcing, as text, got {self.force!r}")
        shrink = self.max_shrink
        if isinstance(shrink, bool) or not isinstance(shrink, (int, float)) or not 0 <= shrink <= 1:
            raise RunError(f"max_shrink: expected a fraction between 0 and 1, got {shrink!r}")
        most = self.max_players
        if isinstance(most, bool) or not isinstance(most, int) or most < 1:
            raise RunError(f"max_players: expected a whole number >= 1, got {most!r}")
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

    def secret_sources(self) -> list[str]:
        """The sources given as URLs with a secret in them (credentials, a query string), in
        their public form: such a URL must not become a Prefect flow's parameter, which
        Prefect stores; give it as ``env:NAME`` instead (the command line does that itself)."""
        return [public_source(s) for s in self.sources if is_url(s) and has_secret(s)]

    @property
    def rules_directory(self) -> Path:
        """The eligibility rules directory this run reads."""
        return self.rules if self.rules is not None else bundled_rules()

    # -- the flat form: the Prefect flow's parameters ------------------------------------------

    @classmethod
    def from_flat(cls, p: dict[str, Any]) -> Run:
        """Build a run from the flow's flat parameters (names as in :meth:`flat`).

        ``as_of`` None means today (UTC); ``as_of`` may be an ISO date string (a deployment's
        parameters are JSON); ``max_unpacked_bytes`` None means the download cap.
        """
        as_of = p.get("as_of")
        if isinstance(as_of, str):
            try:
                as_of = dt.date.fromisoformat(as_of)
            except ValueError:
                raise RunError(f"as_of: expected a date YYYY-MM-DD, got {as_of!r}") from None
        sources = p["source"]
        try:
            fit = FitParams(w2_elo2_per_day=p["w2_elo2_per_day"], virtual_games=p["virtual_games"])
            pull = PullSettings(
                timeout_s=p["pull_timeout_s"],
                deadline_s=p["pull_deadline_s"],
                max_bytes=p["pull_max_bytes"],
                retries=p["pull_retries"],
                backoff_s=p["pull_backoff_s"],
            )
            unpacked = p["max_unpacked_bytes"]
            limits = ReadLimits(
                max_unpacked_bytes=pull.max_bytes if unpacked is None else unpacked,
                max_value_chars=p["max_value_chars"],
                max_name_chars=p["max_name_chars"],
            )
        except (TypeError, ValueError) as exc:
            raise RunError(str(exc)) from None
        return cls(
            sources=(sources,) if isinstance(sources, str) else tuple(sources),
            out=Path(p["out"]),
            as_of=as_of if as_of is not None else today_utc(),
            categories=tuple(p["categories"]),
            variant=p["variant"],
            fit=fit,
            strict=p["strict"],
            rules=p["rules"],
            force=p["force"],
            max_shrink=p["max_shrink"],
            max_players=p["max_players"],
            wait=p["wait"],
            pull=pull,
            limits=limits,
        )

    def flat(self) -> dict[str, Any]:
        """The run as the flow's flat parameters (JSON values); inverse of :meth:`from_flat`."""
        return {
            "source": list(self.sources),
            "out": str(self.out),
            "as_of": self.as_of.isoformat(),
            "categories": list(self.categories),
            "variant": self.variant,
            "w2_elo2_per_day": self.fit.w2_elo2_per_day,
            "virtual_games": self.fit.virtual_games,
            "strict": self.strict,
            "rules": None if self.rules is None else str(self.rules),
            "force": self.force,
            "max_shrink": self.max_shrink,
            "max_players": self.max_players,
            "wait": self.wait,
            "pull_timeout_s": self.pull.timeout_s,
            "pull_deadline_s": self.pull.deadline_s,
            "pull_max_bytes": self.pull.max_bytes,
            "pull_retries": self.pull.retries,
            "pull_backoff_s": self.pull.backoff_s,
            "max_unpacked_bytes": self.limits.max_unpacked_bytes,
            "max_value_chars": self.limits.max_value_chars,
            "max_name_chars": self.limits.max_name_chars,
        }

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
