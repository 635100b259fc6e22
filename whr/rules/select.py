"""Which games are rated, and why each other game is not (``docs/eligibility.md``).

:func:`select` judges every game read with vectorised boolean masks, tested in the precedence
order of :data:`whr.rules.reasons.REASONS`; each game not rated gets exactly one reason, the first
that applies. Nothing is lost: games read = rated + excluded, overall and per tournament, and the
check runs on every call.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr.rules.config import EligibilityConfig
from whr.rules.messages import fill
from whr.rules.names import certified_mask
from whr.rules.notes import classify_notes, matched_phrase
from whr.rules.reasons import REASONS
from whr.sources.facts import COLUMNS as FACT_COLUMNS
from whr.sources.facts import facts_line, merge_facts
from whr.tables import (
    CATEGORIES,
    EXCLUSIONS,
    GAMES,
    MODES,
    PLAYERS,
    PROBLEMS,
    TOURNAMENTS,
    SourceData,
    as_date,
    conform,
    days_of,
)

_FACTS = ("rated", "rule", "minutes", "mode", "moves")
_FACT_NAMES = {"rated": "whether the RIF rates it (the source has no rated flag)"}


class InvariantError(RuntimeError):
    """Games were lost or double counted between reading and selection: a bug, please report it."""


@dataclass(frozen=True, eq=False)
class Counts:
    """How many games were read, rated and excluded, by reason and by tournament.

    Attributes
    ----------
    read, rated, excluded : int
        Games read (every row of the games table), rated, and excluded.
    unverified : int
        Rated games counted under the "unverified" warning (default mode; 0 in strict mode).
    waiting_on_facts : int
        Games whose verdict waits on a tournament's unknown minutes or mode (see
        ``by_tournament``); :func:`whr.rules.facts_needed` lists their tournaments.
    by_reason : pandas.DataFrame
        Columns ``reason, games, description``: one row per reason code of ``REASONS`` in
        precedence order, zeros included.
    by_tournament : pandas.DataFrame
        Columns ``tournament_id, read, rated, excluded, rated_unverified, waiting_on_facts``
        then one column per reason code (games excluded for it); one row per tournament id
        named by a game (null for games without one), numeric ids by value first, then other
        ids, then null. ``waiting_on_facts``: games judged by the 2021 rules whose verdict
        would change once the tournament's unknown minutes or mode are known (rated on the
        flag alone, excluded as ``unverified``, or, in the older reading, ``not_rated``).
    """

    read: int
    rated: int
    excluded: int
    unverified: int
    waiting_on_facts: int
    by_reason: pd.DataFrame
    by_tournament: pd.DataFrame

    @property
    def byes(self) -> int:
        """Rows that are byes (reason ``bye``): rounds without a game, not games."""
        table = self.by_reason
        return int(table.loc[table["reason"] == "bye", "games"].sum())  # one row: bye

    def report(self) -> str:
        """A plain-text table of the counts by reason, for logs and notes."""
        lines = [f"games read {self.read}, rated {self.rated}, excluded {self.excluded}"]
        if self.byes:
            lines[0] += f" (of the rows read, {self.byes} are byes, not games)"
        if self.unverified:
            lines.append(f"  (rated under the unverified warning: {self.unverified})")
        table = self.by_reason
        for reason, games, description in zip(
            table["reason"], table["games"], table["description"], strict=True
        ):
            if games:
                lines.append(f"  {reason:<22} {games:>8}  {description}")
        return "\n".join(lines)


@dataclass(frozen=True, eq=False)
class Selection:
    """The outcome of :func:`select`.

    Attributes
    ----------
    rated : pandas.DataFrame
        The games to rate, in input order, with the columns of ``whr.tables.GAMES``.
    exclusions : pandas.DataFrame
        One row per game not rated, in input order, schema ``whr.tables.EXCLUSIONS``
        (``game_id, tournament_id, reason, message``).
    counts : Counts
        Totals, by reason and by tournament.
    warnings : pandas.DataFrame
        Schema ``whr.tables.PROBLEMS`` with severity "warning": ``unverified`` (one row per
        tournament with games rated on the database's flag alone; locator
        ``tournament=<id>``), ``implausible_date`` (one row per tournament with games dated
        before any game can be rated; games after the list date are not warned of: they are
        later, ``after_as_of``), ``override_unused``,
        ``duplicate_tournament``, and the facts file's ``unknown_tournament`` and
        ``facts_date_ignored`` (located by its line).
    tournaments : pandas.DataFrame
        The tournaments as judged (schema ``whr.tables.TOURNAMENTS``): one row per id (the
        first), with ``config.facts`` applied.
    as_of : datetime.date
    category : str
    strict : bool
    config : EligibilityConfig
    """

    rated: pd.DataFrame
    exclusions: pd.DataFrame
    counts: Counts
    warnings: pd.DataFrame
    tournaments: pd.DataFrame
    as_of: dt.date
    category: str
    strict: bool
    config: EligibilityConfig


def select(
    data: SourceData,
    as_of: dt.date | str,
    category: str = "renju",
    strict: bool = False,
    *,
    config: EligibilityConfig,
) -> Selection:
    """Decide which games are rated on ``as_of`` for one category, and why the others are not.

    Parameters
    ----------
    data : whr.tables.SourceData
        Players, tournaments and games in the shared schemas (extra columns are ignored).
    as_of : datetime.date or str
        The list date: later games and tournaments not finished by then are excluded.
        A string must be an ISO date, ``YYYY-MM-DD``.
    category : {"renju", "gomoku"}
        The list computed; games of the other category are out of scope.
    strict : bool
        False (default): a game judged by the 2021 rules whose tournament's rule, minutes or mode,
        or whose own number of moves, is unknown is rated on the database's flag, under an
        "unverified" warning. True: such games are excluded with the reason ``unverified``.
    config : EligibilityConfig
        The rules, from ``whr.rules.load_config(directory)`` (keyword only, required: nothing is
        read behind the caller's back). Its tournament facts are applied to ``data`` first.

    Returns
    -------
    Selection

    Raises
    ------
    TypeError, ValueError
        On a bad argument (named in the message) or a table lacking a column of its schema.
    InvariantError
        If games read != rated + excluded, overall or for some tournament (a bug).

    Notes
    -----
    The reasons are tested in the order of ``whr.rules.REASONS``; see ``docs/eligibility.md``.
    """
    as_of = as_date(as_of, "as_of", iso_text=True)
    if category not in CATEGORIES:
        raise ValueError(f"category must be one of {list(CATEGORIES)}, got {category!r}")
    if not isinstance(strict, bool | np.bool_):
        raise TypeError(f"strict must be a bool, got {type(strict).__name__}")
    if not isinstance(config, EligibilityConfig):
        raise TypeError(
            "config must be an EligibilityConfig (whr.rules.load_config(directory)), "
            f"got {type(config).__name__}"
        )
    for name in ("players", "tournaments", "games"):
        if not isinstance(getattr(data, name, None), pd.DataFrame):
            raise TypeError(
                f"data must be a whr.tables.SourceData with a {name} DataFrame, "
                f"got {type(data).__name__}"
            )
    _require(data.games, GAMES, "games")
    _require(data.tournaments, TOURNAMENTS, "tournaments")
    _require(data.players, PLAYERS, "players")

    tournaments, games, fact_problems = merge_facts(data.tournaments, data.games, config.facts)
    games = games.reset_index(drop=True)
    tours, warnings = _tournaments(tournaments)
    judged = _judge(games, tours, data.players, as_of, category, bool(strict), config)
    reason = judged.reason
    excluded = reason != ""
    rows = np.flatnonzero(excluded)
    message = _messages(reason, rows, judged, games, tours, as_of, category, config)

    rated = games.loc[~excluded, list(GAMES.names)].reset_index(drop=True)
    exclusions = conform(
        pd.DataFrame(
            {
                "game_id": games["game_id"].iloc[rows].to_numpy(),
                "tournament_id": games["tournament_id"].iloc[rows].to_numpy(),
                "reason": reason[rows],
                "message": message,
                "black": games["black"].iloc[rows].to_numpy(),
                "white": games["white"].iloc[rows].to_numpy(),
            }
        ),
        EXCLUSIONS,
    )
    unverified = judged.unknown_fact & ~excluded
    warnings.extend(_unverified_warnings(games, tours, judged, unverified))
    warnings.extend(_date_warnings(games, tours, judged, config))
    warnings.extend(_unused_overrides(games, tours, config))
    waiting = judged.minutes_or_mode_unknown & (
        ~excluded
        | (reason == "unverified")
        | ((reason == "not_rated") & ~np.asarray(config.require_rated_flag))
    )
    counts = _counts(games, reason, unverified, waiting)
    _check(games, rated, exclusions, counts)
    found = pd.DataFrame(warnings, columns=list(PROBLEMS.names))
    if len(fact_problems):
        found = pd.concat([found, fact_problems.assign(severity="warning")], ignore_index=True)
    return Selection(
        rated=rated,
        exclusions=exclusions,
        counts=counts,
        warnings=conform(found, PROBLEMS),
        tournaments=conform(tours, TOURNAMENTS),
        as_of=as_of,
        category=category,
        strict=bool(strict),
        config=config,
    )


# --- arguments and inputs ------------------------------------------------------------------


def _require(frame: pd.DataFrame, schema: pa.Schema, name: str) -> None:
    missing = [c for c in schema.names if c not in frame.columns]
    if missing:
        raise ValueError(f"data.{name} lacks columns {missing} of the shared schema {schema.names}")


def _bools(values: pd.Series, default: bool) -> np.ndarray:
    return values.astype("boolean").fillna(default).to_numpy(dtype=bool)


def _floats(values: pd.Series) -> np.ndarray:
    return pd.to_numeric(values, errors="coerce").to_numpy(dtype="float64", na_value=np.nan)


def _objects(values: pd.Series) -> np.ndarray:
    """A (small) column as an object array with None where missing."""
    out = values.astype(object).to_numpy(copy=True)
    out[pd.isna(out)] = None
    return out


_Ids = pd.Series | np.ndarray | list[str]
"""Ids (strings, with nulls) as the selection holds them."""


def _arrow_strings(values: _Ids) -> pa.Array[Any]:
    """Ids as an Arrow string array (nulls kept)."""
    array = pa.array(values, from_pandas=True)
    if isinstance(array, pa.ChunkedArray):  # a column pandas keeps in Arrow
        array = array.combine_chunks()
    return array if pa.types.is_string(array.type) else pc.cast(array, pa.string())


def _isin(values: pd.Series, members: _Ids) -> np.ndarray:
    """``values.isin(members)`` for string ids, in Arrow (nulls give False)."""
    found = pc.is_in(_arrow_strings(values), value_set=_arrow_strings(members))
    isin: np.ndarray = found.fill_null(False).to_numpy(zero_copy_only=False)
    return isin


def _index_in(values: pd.Series, keys: pd.Series) -> np.ndarray:
    """Position of each of ``values`` among ``keys`` (unique), -1 where absent or null."""
    found = pc.index_in(_arrow_strings(values), value_set=_arrow_strings(keys))
    index: np.ndarray = found.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.intp)
    return index


def _tournaments(frame: pd.DataFrame) -> tuple[pd.DataFrame, list[dict[str, object]]]:
    """One row per tournament id (the first); a repeated id is a warning."""
    warnings: list[dict[str, object]] = []
    frame = frame.loc[frame["tournament_id"].notna()]
    repeated = frame["tournament_id"].duplicated(keep="first")
    for tid in frame.loc[repeated, "tournament_id"].unique():
        message = f"tournament id {tid!r} appears more than once; the first row is used"
        warnings.append(_warning("duplicate_tournament", tid, message))
    tours = frame.loc[~repeated].reset_index(drop=True)
    minutes = _floats(tours["minutes"])
    mode = _objects(tours["mode"])
    return tours.assign(minutes=minutes, mode=mode), warnings


# --- the judgement ---------------------------------------------------------------------------


def _take(values: np.ndarray, pos: np.ndarray, fill: object) -> np.ndarray:
    """``values[pos]``, with ``fill`` where ``pos`` is -1."""
    out = np.empty(len(pos), dtype=values.dtype)
    hit = pos >= 0
    out[hit] = values[pos[hit]]
    out[~hit] = fill
    return out


@dataclass(frozen=True)
class _Judged:
    reason: np.ndarray  # object array of codes, "" where rated
    pos: np.ndarray  # row of the game's tournament in ``tours``, -1 when unknown
    unknown_fact: np.ndarray  # judged by the 2021 rules with a fact unknown, or unconfirmed
    known: dict[str, np.ndarray]  # fact name -> known, per game
    note_kind: np.ndarray  # the verdict of each game's note (whr.rules.notes.KINDS or "")
    minutes_or_mode_unknown: np.ndarray  # 2021 rules, minutes or mode unknown; or unconfirmed


def _judge(
    games: pd.DataFrame,
    tours: pd.DataFrame,
    players: pd.DataFrame,
    as_of: dt.date,
    category: str,
    strict: bool,
    config: EligibilityConfig,
) -> _Judged:
    """The reason code of every game, by boolean masks in the order of ``REASONS``."""
    tid = games["tournament_id"]
    black, white = games["black"], games["white"]
    result = _floats(games["result"])
    date = days_of(games["date"])
    moves = _floats(games["moves"])
    as_of64 = np.datetime64(as_of, "D")
    cutover64 = np.datetime64(config.cutover, "D")
    first64 = np.datetime64(config.first_rated_day, "D")

    # Tournament-level facts are computed once per tournament, then taken per game.
    t_ids = tours["tournament_id"]
    pos = _index_in(tid, t_ids)
    known_t = pos >= 0
    t_mode = pd.Series(tours["mode"], dtype=object)
    t_rule = tours["rule"].astype(object)
    t_minutes = tours["minutes"].to_numpy(dtype="float64")

    def per_game(values: np.ndarray, fill: object) -> np.ndarray:
        return _take(np.asarray(values), pos, fill)

    in_category = per_game((tours["category"] == category).fillna(False).to_numpy(bool), False)
    flagged = per_game(_bools(tours["rated"], False), False)
    # a source without a rated flag (an EGF table): not known until the maintainers confirm it
    no_flag = per_game(tours["rated"].isna().to_numpy(bool), False)
    ordinary = per_game(np.nan_to_num(_floats(tours["type"]), nan=0.0) == 0, True)
    end = per_game(days_of(tours["end"]), np.datetime64("NaT"))
    # Rule 9 certifies renju rules; a category without a certified list skips the rule check.
    rules = [rule for rule in config.certified_rules if rule.category == category]
    if rules:
        named = t_rule.fillna("").astype(str).str.strip().ne("").to_numpy(bool)
        rule_known = per_game(named, False)
        certified = per_game(certified_mask(tours["rule"], rules), False)
    else:
        rule_known = certified = np.ones(len(games), dtype=bool)
    minutes_known = per_game(~np.isnan(t_minutes), False)
    long_enough = per_game(~(t_minutes < config.min_minutes), False)
    mode_known = per_game(t_mode.isin(list(MODES)).to_numpy(bool), False)
    mode_accepted = per_game(t_mode.isin(list(config.accepted_modes)).to_numpy(bool), False)
    moves_known = ~np.isnan(moves)

    forced_in = per_game(_isin(t_ids, list(config.rated_tournaments)), False)
    forced_out = per_game(_isin(t_ids, list(config.unrated_tournaments)), False)
    # The RIF rates the tournament: its database flag, or the maintainers' rated_tournaments.
    # A tournament whose source has no flag, and that no maintainer confirmed (rated_tournaments;
    # a facts line sets the flag, whr.sources.facts), is one whose facts are missing, in every
    # era: rated under the "unverified" warning, or excluded as unverified in strict mode.
    unconfirmed = no_flag & ~forced_in
    rated_by_rif = flagged | forced_in | unconfirmed
    era_end = np.where(np.isnat(end), date, end)  # a tournament without an end: the game's date
    modern = era_end >= cutover64
    known = {
        "rated": ~unconfirmed,
        "rule": rule_known,
        "minutes": minutes_known,
        "mode": mode_known,
        "moves": moves_known,
    }
    unknown_fact = unconfirmed | modern & ~(rule_known & minutes_known & mode_known & moves_known)
    player_ids = players["player_id"].dropna().unique()
    # Section 4 of the 1996 rules: a note may say the game was a bye, or not played in reality
    # (a walk-over), or played although it names a default (an adjourned game).
    note_kind = classify_notes(games["note"], config.note_patterns)

    conditions = {
        "duplicate_game": games["game_id"].duplicated(keep="first").to_numpy(),
        "unknown_tournament": ~known_t,
        "out_of_category": ~in_category,
        "override_game": _isin(games["game_id"], list(config.unrated_games)),
        "override_tournament": forced_out,
        "bye": _bools(games["bye"], False) | (note_kind == "bye"),
        "forfeit": _bools(games["forfeit"], False) | (note_kind == "not_played"),
        # a handicap game (an EGF table's stones) is not one under a certified renju rule
        "handicap": _floats(games["handicap"]) > 0,
        "unrated_game": _bools(games["unrated"], False),
        "no_result": ~np.isin(result, (0.0, 0.5, 1.0)),
        "unknown_player": ~(_isin(black, player_ids) & _isin(white, player_ids)),
        "self_play": (black == white).fillna(False).to_numpy(bool),
        "unknown_date": np.isnat(date),
        "before_rated_era": date < first64,
        "after_as_of": date > as_of64,
        "unfinished_tournament": end > as_of64,
        "tournament_type": ~ordinary & ~forced_in,
        "rule_not_certified": modern & rule_known & ~certified,
        "too_short": modern & minutes_known & ~long_enough,
        "online_unsupervised": modern & mode_known & ~mode_accepted,
        "no_moves": modern & moves_known & ~(moves > 0),
        # Before the cut-over the RIF's rating (the flag) decides; from it, the flag and every
        # known condition of rule 9 (the older reading, require_rated_flag = false: the flag
        # only when a condition is unknown).
        "not_rated": ~rated_by_rif & (~modern | unknown_fact | config.require_rated_flag),
        "unverified": unknown_fact & strict,
    }
    if tuple(conditions) != tuple(REASONS):
        raise InvariantError("the conditions of _judge must follow the order of REASONS")
    reason = np.select(list(conditions.values()), list(conditions), default="").astype(object)
    return _Judged(
        reason=reason,
        pos=pos,
        unknown_fact=unknown_fact,
        known=known,
        note_kind=note_kind,
        minutes_or_mode_unknown=unconfirmed | modern & ~(minutes_known & mode_known),
    )


def _messages(
    reason: np.ndarray,
    rows: np.ndarray,
    judged: _Judged,
    games: pd.DataFrame,
    tours: pd.DataFrame,
    as_of: dt.date,
    category: str,
    config: EligibilityConfig,
) -> np.ndarray:
    """One human message per excluded game (``rows``), built per reason over its rows only."""
    message = np.empty(len(rows), dtype=object)
    pos = judged.pos
    cut = config.cutover.isoformat()
    as_of_text = as_of.isoformat()

    for code in REASONS:
        which = np.flatnonzero(reason[rows] == code)
        if not len(which):
            continue
        at = rows[which]

        def g(column: str, at: np.ndarray = at) -> pd.Series:
            return pd.Series(_objects(games[column].iloc[at]), dtype=object)

        def t(column: str, at: np.ndarray = at) -> pd.Series:
            return pd.Series(_take(_objects(tours[column]), pos[at], None), dtype=object)

        def q(values: pd.Series) -> pd.Series:
            return "'" + values.fillna("?").astype(str) + "'"

        def choose(condition: pd.Series, yes: pd.Series | str, no: pd.Series | str) -> pd.Series:
            return pd.Series(np.where(condition.to_numpy(bool), yes, no), dtype=object)

        text: pd.Series | str  # one message for every game of the reason, or one per game
        if code == "duplicate_game":
            text = fill(code, game=q(g("game_id")))
        elif code == "unknown_tournament":
            tid = g("tournament_id")
            text = choose(
                tid.isna(), fill(f"{code}.none"), fill(f"{code}.missing", tournament=q(tid))
            )
        elif code == "out_of_category":
            rule, cat = q(t("rule")), t("category")
            text = choose(
                cat.isna(),
                fill(f"{code}.unknown", rule=rule, category=category),
                fill(
                    f"{code}.other",
                    rule=rule,
                    rule_category=cat.fillna("").astype(str),
                    category=category,
                ),
            )
        elif code in ("override_game", "override_tournament"):
            listed = config.unrated_games if code == "override_game" else config.unrated_tournaments
            column = "game_id" if code == "override_game" else "tournament_id"
            comment = g(column).map(dict(listed)).fillna("")
            text = choose(comment == "", fill(f"{code}.no_reason"), fill(code, reason=comment))
        elif code == "bye":
            text = choose(
                g("bye").fillna(False).astype(bool),
                fill("bye.flag"),
                fill("bye.note", phrase=_phrases(g("note"), config, "bye")),
            )
        elif code == "forfeit":
            text = choose(
                g("forfeit").fillna(False).astype(bool),
                fill("forfeit.flag"),
                fill("forfeit.note", phrase=_phrases(g("note"), config, "not_played")),
            )
        elif code == "handicap":
            stones = g("handicap").astype(int)
            text = choose(
                stones == 1,
                fill("handicap.one"),
                fill("handicap.many", stones=stones.astype(str)),
            )
        elif code == "unrated_game":
            text = fill(code)
        elif code == "no_result":
            value = g("result")
            text = choose(
                value.isna(), fill(f"{code}.none"), fill(f"{code}.other", result=value.astype(str))
            )
        elif code == "unknown_player":
            black, white = g("black"), g("white")
            text = choose(
                black.isna(),
                fill(f"{code}.black"),
                choose(
                    white.isna(),
                    fill(f"{code}.white"),
                    fill(f"{code}.missing", black=q(black), white=q(white)),
                ),
            )
        elif code == "self_play":
            text = fill(code, player=q(g("black")))
        elif code == "unknown_date":
            tid = g("tournament_id")
            line = tid.map(lambda t: repr(facts_line(str(t))))
            header = repr(",".join(FACT_COLUMNS))
            text = fill(code, tournament=q(tid), line=line, header=header)
        elif code == "before_rated_era":
            text = fill(code, date=g("date").astype(str), first=str(config.first_rated_day))
        elif code == "after_as_of":
            text = fill(code, date=g("date").astype(str), as_of=as_of_text)
        elif code == "unfinished_tournament":
            tournament = q(g("tournament_id"))
            text = fill(code, tournament=tournament, end=t("end").astype(str), as_of=as_of_text)
        elif code == "tournament_type":
            text = fill(code, type=t("type").astype(str))
        elif code == "rule_not_certified":
            text = fill(code, rule=q(t("rule")), since=cut)
        elif code == "too_short":
            minutes = t("minutes").map("{:g}".format)
            text = fill(code, minutes=minutes, least=f"{config.min_minutes:g}", since=cut)
        elif code == "online_unsupervised":
            text = fill(code, mode=t("mode").astype(str), since=cut)
        elif code == "no_moves":
            text = fill(code, since=cut)
        elif code == "not_rated":
            text = fill(code, tournament=q(g("tournament_id")))
        else:  # unverified
            tournament = q(g("tournament_id"))
            text = choose(
                pd.Series(judged.known["rated"][at]),
                fill(f"{code}.unknown_fact", tournament=tournament, since=cut),
                fill(f"{code}.no_flag", tournament=tournament),
            )
        message[which] = text.to_numpy(dtype=object) if isinstance(text, pd.Series) else text
    return message


def _phrases(notes: pd.Series, config: EligibilityConfig, kind: str) -> pd.Series:
    """The phrase of each note that a pattern of ``kind`` found, quoted (never the whole note:
    notes are the database's text)."""
    return notes.map(
        lambda note: repr(matched_phrase(str(note), config.note_patterns, kind)), na_action="ignore"
    ).fillna("''")


# --- reports and the invariant -------------------------------------------------------------


def _warning(
    code: str, tid: str | None, message: str, source: str | None = None
) -> dict[str, object]:
    return {
        "code": code,
        "severity": "warning",
        "source": source,
        "locator": None if tid is None else f"tournament={tid}",
        "message": message,
    }


def _unverified_warnings(
    games: pd.DataFrame, tours: pd.DataFrame, judged: _Judged, rated_unverified: np.ndarray
) -> list[dict[str, object]]:
    """One warning per tournament with games rated on the database's flag alone."""
    if not rated_unverified.any():
        return []
    positions, inverse = np.unique(judged.pos[rated_unverified], return_inverse=True)
    sizes = np.bincount(inverse)
    unknown = {
        name: np.bincount(inverse, weights=~judged.known[name][rated_unverified]) > 0
        for name in _FACTS
    }
    ids, sources = _objects(tours["tournament_id"]), _objects(tours["source"])
    out = []
    for i in sorted(range(len(positions)), key=lambda i: _natural(ids[positions[i]])):
        p, games_n = positions[i], int(sizes[i])
        missing = ", ".join(_FACT_NAMES.get(name, name) for name in _FACTS if unknown[name][i])
        alone = "without a rated flag" if unknown["rated"][i] else "on the database's flag alone"
        message = (
            f"{games_n} game{'s' if games_n != 1 else ''} rated {alone}; "
            f"not known: {missing} "
            "(settle them in tournament_facts.csv: see facts_needed.csv)"
        )
        out.append(_warning("unverified", ids[p], message, sources[p]))
    return out


def _date_warnings(
    games: pd.DataFrame, tours: pd.DataFrame, judged: _Judged, config: EligibilityConfig
) -> list[dict[str, object]]:
    """One ``implausible_date`` warning per tournament with games dated before any game can be
    rated (``first_rated_day``): a date that cannot be right. Games after the list date are
    not wrong, they are later (a past day rerun from a later database): ``after_as_of``,
    counted with the other reasons and never a warning."""
    early = judged.reason == "before_rated_era"
    if not early.any():
        return []
    ids, sources = _objects(tours["tournament_id"]), _objects(tours["source"])
    dates = days_of(games["date"])
    why = f"before any game can be rated ({config.first_rated_day})"
    positions, days = judged.pos[early], dates[early]
    out = []
    for p in np.unique(positions):
        mine = days[positions == p]
        first, last = str(mine.min()), str(mine.max())
        span = first if first == last else f"{first} to {last}"
        n = len(mine)
        tid = ids[p] if p >= 0 else None
        message = (
            f"{n} game{'s' if n != 1 else ''} dated {span}, {why}: excluded; the date is "
            "wrong, fix it in the source"
        )
        warning = _warning("implausible_date", tid, message, sources[p] if p >= 0 else None)
        out.append((_natural(tid), warning))
    return [warning for _, warning in sorted(out, key=lambda item: item[0])]


def _unused_overrides(
    games: pd.DataFrame, tours: pd.DataFrame, config: EligibilityConfig
) -> list[dict[str, object]]:
    """Override ids that name nothing in the data (a typo, or a record since removed)."""
    out = []
    for listing in ("rated_tournaments", "unrated_tournaments"):
        ids = sorted(getattr(config, listing))
        for tid in (
            np.asarray(ids, dtype=object)[
                ~_isin(pd.Series(ids, dtype=object), tours["tournament_id"])
            ]
            if ids
            else []
        ):
            message = f"{listing} names tournament {tid!r}, not in the data"
            out.append(_warning("override_unused", tid, message))
    ids = sorted(config.unrated_games)
    for gid in (
        np.asarray(ids, dtype=object)[~_isin(pd.Series(ids, dtype=object), games["game_id"])]
        if ids
        else []
    ):
        message = f"unrated_games names game {gid!r}, not in the data"
        out.append(_warning("override_unused", None, message))
    return out


def _natural(tid: str | None) -> tuple[int, int, str]:
    """Sort key for ids: numbers by value first ("2" < "10"), then other ids, then None."""
    if tid is None:
        return (2, 0, "")
    return (0, int(tid), tid) if tid.isdigit() else (1, 0, tid)


def _counts(
    games: pd.DataFrame, reason: np.ndarray, unverified: np.ndarray, waiting: np.ndarray
) -> Counts:
    """Counts by reason and by tournament, by bincount over factorised ids and codes."""
    codes = list(REASONS)
    reason_index = pd.Index(["", *codes]).get_indexer(pd.Index(reason))  # 0 = rated
    by_reason = np.bincount(reason_index, minlength=len(codes) + 1)
    reasons = pd.DataFrame(
        {
            "reason": codes,
            "games": by_reason[1:].astype("int64"),
            "description": list(REASONS.values()),
        }
    )
    t_code, t_ids = pd.factorize(games["tournament_id"], use_na_sentinel=False)
    n_t, width = len(t_ids), len(codes) + 1
    grid = np.bincount(t_code * width + reason_index, minlength=n_t * width).reshape(n_t, width)
    table = pd.DataFrame(grid[:, 1:], columns=codes, dtype="int64")
    table.insert(0, "waiting_on_facts", np.bincount(t_code[waiting], minlength=n_t))
    table.insert(0, "rated_unverified", np.bincount(t_code[unverified], minlength=n_t))
    table.insert(0, "excluded", grid[:, 1:].sum(axis=1))
    table.insert(0, "rated", grid[:, 0])
    table.insert(0, "read", np.bincount(t_code, minlength=n_t))
    table.insert(0, "tournament_id", pd.Series(t_ids, dtype=object).where(pd.notna(t_ids), None))
    keys = [_natural(tid) for tid in table["tournament_id"]]
    order = sorted(range(n_t), key=keys.__getitem__)
    return Counts(
        read=len(games),
        rated=int(by_reason[0]),
        excluded=int(by_reason[1:].sum()),
        unverified=int(unverified.sum()),
        waiting_on_facts=int(waiting.sum()),
        by_reason=reasons,
        by_tournament=table.iloc[order].reset_index(drop=True),
    )


def _check(
    games: pd.DataFrame, rated: pd.DataFrame, exclusions: pd.DataFrame, counts: Counts
) -> None:
    """Games read = rated + excluded, overall and per tournament, recounted from the outputs."""
    if len(games) != len(rated) + len(exclusions):
        raise InvariantError(
            f"{len(games)} games read but {len(rated)} rated + {len(exclusions)} excluded"
        )
    unknown = set(exclusions["reason"].unique()) - set(REASONS)
    if unknown:
        raise InvariantError(f"exclusions carry unknown reason codes {sorted(unknown)}")
    nul = "\0"  # stands for a missing tournament id, so that it is counted too
    read = games["tournament_id"].fillna(nul).value_counts()
    out = (
        rated["tournament_id"]
        .fillna(nul)
        .value_counts()
        .add(exclusions["tournament_id"].fillna(nul).value_counts(), fill_value=0)
    )
    diff = read.sub(out, fill_value=0)
    if (diff != 0).any():
        raise InvariantError(
            f"games read != rated + excluded for tournaments {list(diff[diff != 0].index[:10])}"
        )
    table = counts.by_tournament
    if not (table["read"] == table["rated"] + table["excluded"]).all() or (
        counts.read != counts.rated + counts.excluded
        or counts.excluded != len(exclusions)
        or int(counts.by_reason["games"].sum()) != len(exclusions)
    ):
        raise InvariantError("the counts do not add up to the rated and excluded games")
