"""Which games are rated, and why each other game is not (rating-system.md section 2).

:func:`select` judges every game read with vectorised boolean masks, tested in the precedence
order of :data:`whr.rules.reasons.REASONS`; each game not rated gets exactly one reason, the first
that applies. Nothing is lost: games read = rated + excluded, overall and per tournament, and the
check runs on every call.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from whr.rules.config import EligibilityConfig, load_config
from whr.rules.names import certified_mask
from whr.rules.reasons import REASONS
from whr.tables import (
    CATEGORIES,
    EXCLUSIONS,
    GAMES,
    MODES,
    PLAYERS,
    PROBLEMS,
    TOURNAMENTS,
    SourceData,
    conform,
)

_FACTS = ("rule", "minutes", "mode", "moves")


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
    by_reason : pandas.DataFrame
        Columns ``reason, games, description``: one row per reason code of ``REASONS`` in
        precedence order, zeros included.
    by_tournament : pandas.DataFrame
        Columns ``tournament_id, read, rated, excluded, rated_unverified`` then one column per
        reason code (games excluded for it); one row per tournament id named by a game (null for games
        without one), sorted by id.
    """

    read: int
    rated: int
    excluded: int
    unverified: int
    by_reason: pd.DataFrame
    by_tournament: pd.DataFrame

    def report(self) -> str:
        """A plain-text table of the counts by reason, for logs and notes."""
        lines = [f"games read {self.read}, rated {self.rated}, excluded {self.excluded}"]
        if self.unverified:
            lines.append(f"  (rated under the unverified warning: {self.unverified})")
        for row in self.by_reason.itertuples(index=False):
            if row.games:
                lines.append(f"  {row.reason:<22} {row.games:>8}  {row.description}")
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
        ``tournament=<id>``), ``override_unused``, ``duplicate_tournament``.
    as_of : datetime.date
    category : str
    strict : bool
    config : EligibilityConfig
    """

    rated: pd.DataFrame
    exclusions: pd.DataFrame
    counts: Counts
    warnings: pd.DataFrame
    as_of: dt.date
    category: str
    strict: bool
    config: EligibilityConfig


def select(
    data: SourceData,
    as_of: dt.date | str,
    category: str = "renju",
    strict: bool = False,
    config: EligibilityConfig | None = None,
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
        False (default): a tournament judged by the 2021 rules whose rule, minutes, mode or a
        game's moves are unknown is rated on the database's flag, under an "unverified" warning.
        True: such games are excluded with the reason ``unverified``.
    config : EligibilityConfig, optional
        The rules; None loads the repository's ``data/rules/``.

    Returns
    -------
    Selection

    Raises
    ------
    TypeError, ValueError
        On a bad argument (named in the message) or a table lacking a column of its schema.
    InvariantError
        If games read != rated + excluded, overall or for some tournament (a bug).
    """
    as_of = _as_of(as_of)
    if category not in CATEGORIES:
        raise ValueError(f"category must be one of {list(CATEGORIES)}, got {category!r}")
    if not isinstance(strict, bool | np.bool_):
        raise TypeError(f"strict must be a bool, got {type(strict).__name__}")
    if config is None:
        config = load_config()
    elif not isinstance(config, EligibilityConfig):
        raise TypeError(f"config must be an EligibilityConfig or None, got {type(config).__name__}")
    for name in ("players", "tournaments", "games"):
        if not isinstance(getattr(data, name, None), pd.DataFrame):
            raise TypeError(
                f"data must be a whr.tables.SourceData with a {name} DataFrame, got {type(data).__name__}"
            )
    _require(data.games, GAMES, "games")
    _require(data.tournaments, TOURNAMENTS, "tournaments")
    _require(data.players, PLAYERS, "players")

    games = data.games.reset_index(drop=True)
    tours, warnings = _tournaments(data.tournaments, config)
    judged = _judge(games, tours, data.players, as_of, category, bool(strict), config)
    reason = judged["reason"]
    excluded = reason != ""

    rated = games.loc[~excluded, list(GAMES.names)].reset_index(drop=True)
    exclusions = conform(
        pd.DataFrame(
            {
                "game_id": games["game_id"].to_numpy()[excluded],
                "tournament_id": games["tournament_id"].to_numpy()[excluded],
                "reason": reason[excluded],
                "message": judged["message"][excluded],
            }
        ),
        EXCLUSIONS,
    )
    unverified = judged["unverified"] & ~excluded
    warnings.extend(_unverified_warnings(games, tours, judged, unverified))
    warnings.extend(_unused_overrides(games, tours, config))
    counts = _counts(games, rated, exclusions, unverified)
    _check(games, rated, exclusions, counts)
    return Selection(
        rated=rated,
        exclusions=exclusions,
        counts=counts,
        warnings=conform(pd.DataFrame(warnings, columns=list(PROBLEMS.names)), PROBLEMS),
        as_of=as_of,
        category=category,
        strict=bool(strict),
        config=config,
    )


# --- arguments and inputs ------------------------------------------------------------------


def _as_of(value: object) -> dt.date:
    if isinstance(value, dt.datetime):
        raise TypeError(f"as_of must be a datetime.date (a day), got a datetime {value!r}")
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise ValueError(f"as_of must be an ISO date YYYY-MM-DD, got {value!r}") from None
    raise TypeError(
        f"as_of must be a datetime.date or an ISO date string, got {type(value).__name__}"
    )


def _require(frame: pd.DataFrame, schema: pa.Schema, name: str) -> None:
    missing = [c for c in schema.names if c not in frame.columns]
    if missing:
        raise ValueError(f"data.{name} lacks columns {missing} of the shared schema {schema.names}")


def _days(values: pd.Series) -> np.ndarray:
    """A column of dates as ``datetime64[D]`` (NaT where null)."""
    if len(values) == 0:
        return np.empty(0, dtype="datetime64[D]")
    array = pa.Array.from_pandas(values)
    if pa.types.is_string(array.type) or pa.types.is_large_string(array.type):
        array = pc.strptime(array, format="%Y-%m-%d", unit="s")
    return pc.cast(array, pa.date32()).to_numpy(zero_copy_only=False).astype("datetime64[D]")


def _bools(values: pd.Series, default: bool) -> np.ndarray:
    return values.astype("boolean").fillna(default).to_numpy(dtype=bool)


def _floats(values: pd.Series) -> np.ndarray:
    return pd.to_numeric(values, errors="coerce").to_numpy(dtype="float64", na_value=np.nan)


def _strings(values: pd.Series) -> pd.Series:
    """Strings with missing values as None, on a fresh RangeIndex."""
    out = values.astype(object).reset_index(drop=True)
    return out.where(out.notna(), None)


def _tournaments(frame: pd.DataFrame, config: EligibilityConfig) -> tuple[pd.DataFrame, list[dict]]:
    """One row per tournament id (the first), with the facts file applied over the source."""
    warnings: list[dict] = []
    frame = frame.loc[frame["tournament_id"].notna()]
    repeated = frame["tournament_id"].duplicated(keep="first")
    for tid in frame.loc[repeated, "tournament_id"].unique():
        warnings.append(
            _warning(
                "duplicate_tournament",
                tid,
                f"tournament id {tid!r} appears more than once; the first row is used",
            )
        )
    tours = frame.loc[~repeated].reset_index(drop=True)
    minutes = _floats(tours["minutes"])
    mode = _strings(tours["mode"])
    facts = config.facts
    if len(facts):
        index = pd.Index(facts["tournament_id"].astype(str))
        pos = index.get_indexer(tours["tournament_id"].astype(str))
        hit = pos >= 0
        fact_minutes = np.full(len(tours), np.nan)
        fact_minutes[hit] = facts["minutes"].to_numpy(dtype="float64")[pos[hit]]
        minutes = np.where(np.isnan(fact_minutes), minutes, fact_minutes)
        fact_mode = pd.Series([None] * len(tours), dtype=object)
        fact_mode[hit] = _strings(facts["mode"]).to_numpy()[pos[hit]]
        mode = fact_mode.where(fact_mode.notna(), mode)
    tours = tours.assign(minutes=minutes, mode=mode.to_numpy())
    return tours, warnings


# --- the judgement ---------------------------------------------------------------------------


def _take(values: np.ndarray, pos: np.ndarray, fill: object) -> np.ndarray:
    """``values[pos]`` with ``fill`` where ``pos`` is -1."""
    out = np.empty(len(pos), dtype=values.dtype if values.dtype != object else object)
    hit = pos >= 0
    out[hit] = values[pos[hit]]
    out[~hit] = fill
    return out


def _judge(
    games: pd.DataFrame,
    tours: pd.DataFrame,
    players: pd.DataFrame,
    as_of: dt.date,
    category: str,
    strict: bool,
    config: EligibilityConfig,
) -> dict[str, np.ndarray]:
    n = len(games)
    gid = _strings(games["game_id"])
    tid = _strings(games["tournament_id"])
    black = _strings(games["black"])
    white = _strings(games["white"])
    result = _floats(games["result"])
    date = _days(games["date"])
    moves = _floats(games["moves"])
    as_of64 = np.datetime64(as_of, "D")
    cutover64 = np.datetime64(config.cutover, "D")

    pos = pd.Index(tours["tournament_id"].astype(str)).get_indexer(tid.astype(str))
    pos[tid.isna().to_numpy()] = -1
    t_category = _take(_strings(tours["category"]).to_numpy(), pos, None)
    t_rule = _take(_strings(tours["rule"]).to_numpy(), pos, None)
    t_rated = _take(_bools(tours["rated"], False), pos, False)
    t_type = _take(np.nan_to_num(_floats(tours["type"]), nan=0.0), pos, 0.0)
    t_end = _take(_days(tours["end"]), pos, np.datetime64("NaT"))
    t_minutes = _take(tours["minutes"].to_numpy(dtype="float64"), pos, np.nan)
    t_mode = _take(_strings(tours["mode"]).to_numpy(), pos, None)
    certified = _take(certified_mask(tours["rule"], config.certified_rules), pos, False)

    known_t = pos >= 0
    forced_in = tid.isin(config.rated_tournaments).to_numpy() & known_t
    player_ids = players["player_id"].dropna().astype(str)
    end = np.where(np.isnat(t_end), date, t_end)  # the era of a game whose tournament has no end
    modern = (end >= cutover64) & ~forced_in

    rule_known = pd.Series(t_rule).fillna("").str.strip().ne("").to_numpy()
    minutes_known = ~np.isnan(t_minutes)
    mode_known = pd.Series(t_mode).isin(list(MODES)).to_numpy()
    moves_known = ~np.isnan(moves)
    facts_known = {
        "rule": rule_known,
        "minutes": minutes_known,
        "mode": mode_known,
        "moves": moves_known,
    }
    unknown_fact = modern & ~(rule_known & minutes_known & mode_known & moves_known)
    flag = t_rated | forced_in

    conditions = {
        "duplicate_game": games["game_id"].duplicated(keep="first").to_numpy(),
        "unknown_tournament": ~known_t,
        "out_of_category": t_category != category,
        "override_game": gid.isin(config.unrated_games).to_numpy(),
        "override_tournament": tid.isin(config.unrated_tournaments).to_numpy(),
        "forfeit": _bools(games["forfeit"], False),
        "unrated_game": _bools(games["unrated"], False),
        "no_result": ~np.isin(result, (0.0, 0.5, 1.0)),
        "unknown_player": ~(black.isin(player_ids) & white.isin(player_ids)).to_numpy(),
        "self_play": (black == white).fillna(False).to_numpy(dtype=bool),
        "unknown_date": np.isnat(date),
        "after_as_of": date > as_of64,
        "unfinished_tournament": t_end > as_of64,
        "tournament_type": (t_type != 0) & ~forced_in,
        "rule_not_certified": modern & rule_known & ~certified,
        "too_short": modern
        & minutes_known
        & (np.nan_to_num(t_minutes, nan=np.inf) < config.min_minutes),
        "online_unsupervised": modern
        & mode_known
        & ~pd.Series(t_mode).isin(list(config.accepted_modes)).to_numpy(),
        "no_moves": modern & moves_known & (np.nan_to_num(moves, nan=1.0) <= 0),
        # Before the cut-over the flag decides; after it, only when a fact is unknown.
        "not_rated": ~flag & (~modern | unknown_fact) & ~forced_in,
        "unverified": unknown_fact & strict,
    }
    assert tuple(conditions) == tuple(REASONS), "conditions must follow REASONS"
    reason = np.select(list(conditions.values()), list(conditions), default="").astype(object)

    frame = pd.DataFrame(
        {
            "gid": gid,
            "tid": tid,
            "black": black,
            "white": white,
            "category": t_category,
            "rule": t_rule,
            "type": t_type,
            "end": t_end,
            "date": date,
            "minutes": t_minutes,
            "mode": t_mode,
            "result": result,
        }
    )
    message = _messages(reason, frame, as_of, category, config, facts_known)
    missing_facts = np.full(n, "", dtype=object)
    for name in _FACTS:
        gap = unknown_fact & ~facts_known[name]
        missing_facts[gap] = missing_facts[gap] + np.where(
            missing_facts[gap] == "", name, ", " + name
        )
    return {
        "reason": reason,
        "message": message,
        "unverified": unknown_fact,
        "missing": missing_facts,
    }


def _messages(
    reason: np.ndarray,
    f: pd.DataFrame,
    as_of: dt.date,
    category: str,
    config: EligibilityConfig,
    known: dict[str, np.ndarray],
) -> np.ndarray:
    """A human message per excluded game, built per reason over that reason's rows only."""
    message = np.full(len(reason), "", dtype=object)
    cut = config.cutover.isoformat()

    def q(values: pd.Series) -> pd.Series:
        return "'" + values.fillna("?").astype(str) + "'"

    for code in REASONS:
        rows = np.flatnonzero(reason == code)
        if not len(rows):
            continue
        s = f.iloc[rows]
        if code == "duplicate_game":
            text = "game id " + q(s["gid"]) + " was read before; only the first copy is judged"
        elif code == "unknown_tournament":
            text = pd.Series(
                np.where(
                    s["tid"].isna(),
                    "the game names no tournament",
                    "tournament " + q(s["tid"]) + " is not in the tournaments table",
                ),
                index=s.index,
            )
        elif code == "out_of_category":
            text = pd.Series(
                np.where(
                    s["category"].isna(),
                    "rule " + q(s["rule"]) + " has no known category; the list is " + category,
                    "rule "
                    + q(s["rule"])
                    + " is "
                    + s["category"].fillna("").astype(str)
                    + "; the list is "
                    + category,
                ),
                index=s.index,
            )
        elif code == "override_game":
            text = "unrated_games: " + s["gid"].map(config.unrated_games).fillna("").replace(
                "", "(no reason given)"
            )
        elif code == "override_tournament":
            text = "unrated_tournaments: " + s["tid"].map(config.unrated_tournaments).fillna(
                ""
            ).replace("", "(no reason given)")
        elif code == "forfeit":
            text = "not played in reality (walk-over, forfeit, default or bye)"
        elif code == "unrated_game":
            text = "the game record is marked unrated"
        elif code == "no_result":
            text = pd.Series(
                np.where(
                    np.isnan(s["result"].to_numpy()),
                    "no result recorded",
                    "result " + s["result"].astype(str) + " is not 1, 0.5 or 0",
                ),
                index=s.index,
            )
        elif code == "unknown_player":
            side = np.where(
                s["black"].isna(),
                "black is unknown",
                np.where(s["white"].isna(), "white is unknown", ""),
            )
            text = pd.Series(
                np.where(
                    side != "",
                    side,
                    "player "
                    + q(s["black"])
                    + " or "
                    + q(s["white"])
                    + " is not in the players table",
                ),
                index=s.index,
            )
        elif code == "self_play":
            text = "black and white are the same player " + q(s["black"])
        elif code == "unknown_date":
            text = "neither the game nor its tournament has a known date"
        elif code == "after_as_of":
            text = (
                "played "
                + pd.Series(s["date"]).astype(str)
                + ", after the as-of date "
                + as_of.isoformat()
            )
        elif code == "unfinished_tournament":
            text = (
                "tournament "
                + q(s["tid"])
                + " ends "
                + s["end"].astype(str)
                + ", after the as-of date "
                + as_of.isoformat()
            )
        elif code == "tournament_type":
            text = (
                "tournament type "
                + s["type"].astype(int).astype(str)
                + " is not 0 (ordinary); the RIF's site rates type 0 only"
            )
        elif code == "rule_not_certified":
            text = (
                "rule " + q(s["rule"]) + " is not certified by the RIF (required from " + cut + ")"
            )
        elif code == "too_short":
            text = (
                s["minutes"].map("{:g}".format)
                + f" minutes per player, less than {config.min_minutes:g} (required from {cut})"
            )
        elif code == "online_unsupervised":
            text = (
                "played "
                + s["mode"].astype(str)
                + ", not face to face or supervised online (required from "
                + cut
                + ")"
            )
        elif code == "no_moves":
            text = "no moves recorded; complete game records are required from " + cut
        elif code == "not_rated":
            text = "the database does not mark tournament " + q(s["tid"]) + " rated"
        elif code == "unverified":
            text = (
                "strict mode: tournament "
                + q(s["tid"])
                + " is judged by the "
                + cut
                + " rules but a fact is unknown"
            )
        message[rows] = np.asarray(
            text if isinstance(text, pd.Series) else [text] * len(rows), dtype=object
        )
    return message


# --- reports and the invariant -------------------------------------------------------------


def _warning(code: str, tid: str | None, message: str, source: str | None = None) -> dict:
    return {
        "code": code,
        "severity": "warning",
        "source": source,
        "locator": None if tid is None else f"tournament={tid}",
        "message": message,
    }


def _unverified_warnings(
    games: pd.DataFrame,
    tours: pd.DataFrame,
    judged: dict[str, np.ndarray],
    rated_unverified: np.ndarray,
) -> list[dict]:
    if not rated_unverified.any():
        return []
    part = pd.DataFrame(
        {
            "tid": _strings(games["tournament_id"]).to_numpy()[rated_unverified],
            "missing": judged["missing"][rated_unverified],
        }
    )
    source = dict(zip(tours["tournament_id"].astype(str), _strings(tours["source"]), strict=True))
    out = []
    for tid, group in part.groupby("tid", sort=True):
        names = sorted(
            {n for text in group["missing"].unique() for n in text.split(", ")}, key=_FACTS.index
        )
        out.append(
            _warning(
                "unverified",
                tid,
                f"{len(group)} games rated on the database's flag alone; not known: {', '.join(names)} "
                "(settle them in data/rules/tournament_facts.csv)",
                source.get(tid),
            )
        )
    return out


def _unused_overrides(
    games: pd.DataFrame, tours: pd.DataFrame, config: EligibilityConfig
) -> list[dict]:
    out = []
    tids = set(tours["tournament_id"].astype(str))
    for listing in ("rated_tournaments", "unrated_tournaments"):
        for tid in sorted(set(getattr(config, listing)) - tids):
            out.append(
                _warning(
                    "override_unused", tid, f"{listing} names tournament {tid!r}, not in the data"
                )
            )
    gids = set(games["game_id"].astype(str))
    for gid in sorted(set(config.unrated_games) - gids):
        out.append(
            _warning("override_unused", None, f"unrated_games names game {gid!r}, not in the data")
        )
    return out


def _counts(
    games: pd.DataFrame, rated: pd.DataFrame, exclusions: pd.DataFrame, unverified: np.ndarray
) -> Counts:
    by_reason = exclusions["reason"].value_counts()
    reasons = pd.DataFrame(
        {
            "reason": list(REASONS),
            "games": [int(by_reason.get(code, 0)) for code in REASONS],
            "description": list(REASONS.values()),
        }
    )

    def per_tournament(ids: pd.Series) -> pd.Series:
        return ids.astype(object).fillna("\0").value_counts()

    read = per_tournament(games["tournament_id"])
    table = pd.DataFrame({"read": read})
    table["rated"] = per_tournament(rated["tournament_id"])
    table["excluded"] = per_tournament(exclusions["tournament_id"])
    table["rated_unverified"] = per_tournament(games["tournament_id"][unverified])
    wide = (
        pd.crosstab(exclusions["tournament_id"].astype(object).fillna("\0"), exclusions["reason"])
        if len(exclusions)
        else pd.DataFrame(index=table.index)
    )
    table = table.join(wide.reindex(columns=list(REASONS)), how="left").fillna(0).astype("int64")
    table = table.sort_index()
    table.index = [None if i == "\0" else i for i in table.index]
    table = table.rename_axis("tournament_id").reset_index()
    return Counts(
        read=len(games),
        rated=len(rated),
        excluded=len(exclusions),
        unverified=int(unverified.sum()),
        by_reason=reasons,
        by_tournament=table,
    )


def _check(
    games: pd.DataFrame, rated: pd.DataFrame, exclusions: pd.DataFrame, counts: Counts
) -> None:
    """Games read = rated + excluded, overall and per tournament; every reason a known code."""
    if len(games) != len(rated) + len(exclusions):
        raise InvariantError(
            f"{len(games)} games read but {len(rated)} rated + {len(exclusions)} excluded"
        )
    unknown = set(exclusions["reason"]) - set(REASONS)
    if unknown:
        raise InvariantError(f"exclusions carry unknown reason codes {sorted(unknown)}")
    table = counts.by_tournament
    bad = table.loc[table["read"] != table["rated"] + table["excluded"], "tournament_id"]
    if len(bad):
        raise InvariantError(f"games read != rated + excluded for tournaments {list(bad)[:10]}")
    if int(counts.by_reason["games"].sum()) != len(exclusions):
        raise InvariantError("counts by reason do not add up to the exclusions")
