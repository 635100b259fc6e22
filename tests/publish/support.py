"""Test inputs for publishing: a synthetic history turned into SourceData, selected and fitted
with the real library (whr.research.synthetic, whr.select, whr.fit)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

import whr
import whr.lists
import whr.research.synthetic
from whr.digest import directory_sha256
from whr.params import FitParams
from whr.publish import Published, check_size, previous, publish
from whr.rules import default_directory, load_config
from whr.run import Run, bundled_rules
from whr.tables import GAMES, PLAYERS, TOURNAMENTS, SourceData, conform

END = dt.date(2026, 11, 30)  # synthetic histories end on or before this day
AS_OF = dt.date(2026, 11, 25)  # the last game day of the 800-game history the tests publish
HOSTILE_NAME = "<script>alert(1)</script>"
QUOTED_NAME = 'O\'Brien "Bob" & <b>Sons</b>'
ODD_ID = "../x y/<z>"  # must not escape the site directory nor break a link


@dataclass(frozen=True)
class Inputs:
    data: SourceData
    selection: Any
    fit: Any
    params: dict[str, Any]


def source_data(
    n_games: int,
    seed: int = 0,
    names: dict[int, str] | None = None,
    ids: dict[int, str] | None = None,
    first_year: int = 2012,
) -> SourceData:
    """SourceData from ``whr.research.synthetic.history``: every tournament rated face to face under the
    RIF rule with 60 minutes; player ``i`` (0-based, in id order) is named ``names[i]`` if
    given, else ``Surname{i} Given``, and gets the id ``ids[i]`` if given; games start in
    ``first_year`` (a short history keeps the number of year-end lists small)."""
    h = whr.research.synthetic.history(n_games, seed=seed, end=END, first_year=first_year)
    p = h.players.sort_values("player_id").reset_index(drop=True)
    n = len(p)
    rename = {p["player_id"].iloc[i]: new for i, new in (ids or {}).items()}
    p["player_id"] = p["player_id"].map(lambda x: rename.get(x, x))
    name = [f"Surname{i} Given" for i in range(n)]
    for i, text in (names or {}).items():
        name[i] = text
    players = pd.DataFrame(
        {
            "player_id": p["player_id"].astype("str"),
            "name": name,
            "surname": [x.split(" ")[0] for x in name],
            "given_name": "Given",
            "native_name": [("名前" if i % 7 == 0 else None) for i in range(n)],
            "country": p["country"].astype("str"),
            "country_name": p["country"].astype("str").map(lambda c: f"Country {c}"),
            # a few cities, and RenjuNet's placeholder "?" for a city not known
            "city": [("?" if i % 11 == 3 else f"City{i % 6}") for i in range(n)],
            "female": np.arange(n) % 5 == 0,
            "birth": [f"{1950 + i % 50}-00-00" for i in range(n)],
            "source": "synthetic",
        }
    )
    t = h.tournaments
    tournaments = pd.DataFrame(
        {
            "tournament_id": t["tournament_id"].astype("str"),
            "name": "Tournament " + t["tournament_id"].astype("str"),
            "country": t["country"].astype("str"),
            "country_name": t["country"].astype("str"),
            "city": "Town",
            "start": t["start"],
            "end": t["end"],
            "rule_id": "1",
            "rule": "RIF",
            "category": "renju",
            "rated": True,
            "type": 0,
            # every 13th tournament too short for the rules since 2021-08-08 (not rated then)
            "minutes": np.where(np.arange(len(t)) % 13 == 4, 20.0, 60.0),
            "mode": "face_to_face",
            "source": "synthetic",
        }
    )
    g = h.games
    games = pd.DataFrame(
        {
            "game_id": g["game_id"].astype("str"),
            "tournament_id": g["tournament_id"].astype("str"),
            "round": g["round"].astype("str"),
            "rule_id": "1",
            "black": g["black"].astype("str").map(lambda x: rename.get(x, x)),
            "white": g["white"].astype("str").map(lambda x: rename.get(x, x)),
            "result": g["result"].astype(float),
            "date": g["date"],
            "moves": np.int32(40),
            "unrated": False,
            "forfeit": np.arange(len(g)) % 97 == 5,  # a few walk-overs, never rated
            "bye": False,
            "colours_known": True,
            "handicap": None,
            "note": None,
            "source": "synthetic",
        }
    )
    return SourceData(
        players=conform(players, PLAYERS),
        tournaments=conform(tournaments, TOURNAMENTS),
        games=conform(games, GAMES),
        problems=whr.tables.empty(whr.tables.PROBLEMS),
        inputs=(("synthetic.xml", "0" * 64),),
    )


def inputs(
    n_games: int = 1500,
    seed: int = 0,
    names: dict[int, str] | None = None,
    ids: dict[int, str] | None = None,
    as_of: dt.date = AS_OF,
) -> Inputs:
    data = source_data(n_games, seed, names, ids)
    selection = whr.select(data, as_of, config=load_config(default_directory()))
    fit = whr.fit(selection.rated, whr.FitParams())
    params = {
        "as_of": as_of.isoformat(),
        "category": "renju",
        "w2": 12.9,
        "virtual_games": 2,
        "strict": False,
    }
    return Inputs(data, selection, fit, params)


def run(out: Path, as_of: dt.date = AS_OF, category: str = "renju", **fields: Any) -> Run:
    """The run description of a test publish of one list into ``out`` (official unless told)."""
    return Run(sources=("synthetic.xml",), out=out, as_of=as_of, categories=(category,), **fields)


def publish_inputs(
    out: Path,
    given: Inputs,
    as_of: dt.date = AS_OF,
    *,
    category: str = "renju",
    selection: Any = None,
    run_fields: dict[str, Any] | None = None,
    **options: Any,
) -> Published:
    """Publish ``given`` (fitted for ``as_of``) as the ``category`` list of ``as_of`` into
    ``out``, as the flow does (the size cap, the previous list, the lists, the publish);
    ``options`` are fields of the run too (``base_url``, ``game_links``)."""
    the_run = run(out, as_of, category, **(run_fields or {}), **options)
    chosen = given.selection if selection is None else selection
    # the archive tests publish one history as the lists of many days: the games after
    # ``as_of`` stay rated, and the lists are taken as of ``as_of``
    chosen = dataclasses.replace(chosen, as_of=as_of, category=category)
    check_size(chosen.rated, the_run.max_players)
    snapshot = whr.lists.build(given.data, chosen, given.fit, previous(the_run, category))
    return publish(the_run, snapshot, rules_sha256=directory_sha256(bundled_rules()))


def publish_half_from_renjunet(out: Path, given: Inputs) -> pd.DataFrame:
    """Publish ``given`` with game links, half of its rated games (by the id's last digit) read
    from a RenjuNet database and half from another file; returns the rated games so marked."""
    rated = given.selection.rated
    from_renjunet = rated["game_id"].astype(str).str[-1].isin(list("02468"))
    source = np.where(from_renjunet, "renjunet_v10_20261130.rif", "additional.csv")
    selection = dataclasses.replace(given.selection, rated=rated.assign(source=source))
    publish_inputs(out, given, selection=selection, game_links=True)
    return selection.rated


def backfill(
    out: Path,
    given: Inputs,
    day: dt.date,
    until: dt.date,
    *,
    category: str = "renju",
    parameters: dict[str, Any] | None = None,
) -> Path:
    """Write the replay of ``given``'s rated games up to ``until`` (each tournament's change at
    the time and the record's rows) as ``rif-rating backfill`` of ``day`` does, with the
    parameters of the test publishes (or ``parameters``); its directory."""
    from whr.lists import at_the_time, record
    from whr.publish.backfill import write_replay
    from whr.publish.layout import Channel

    line = at_the_time.timeline(given.selection.rated, given.selection.tournaments)
    lists = record.Recorder(line, through=until)
    changes = at_the_time.replay(line, last=until, lists=lists)
    if parameters is None:
        parameters = run(out, day, category).parameters(category, directory_sha256(bundled_rules()))
    return write_replay(
        out, Channel(category), day, changes, lists.rows(), parameters,
        input_sha256=given.data.sha256, until=until,
    )  # fmt: skip


def site_of(out: Path) -> Path:
    """The current site of the official renju list under ``out``."""
    return out / "renju"


def entry_of(out: Path, day: dt.date = AS_OF) -> Path:
    """The archive entry of the official renju list of ``day`` under ``out``."""
    return out / "archive" / "renju" / day.isoformat()


NAMESAKE = "Zhang Wei"  # given to two players who met in a rated game


def with_namesakes(inp: Inputs) -> Inputs:
    """``inp`` with the two players of the first rated game named ``NAMESAKE`` (same country
    and birth year, so that only the id tells them apart)."""
    first = inp.selection.rated.iloc[0]
    pair = [first["black"], first["white"]]
    players = inp.data.players.copy()
    chosen = players["player_id"].isin(pair)
    players.loc[chosen, ["name", "surname", "given_name"]] = [NAMESAKE, "Zhang", "Wei"]
    players.loc[chosen, "country"] = players.loc[chosen, "country"].iloc[0]
    players.loc[chosen, "country_name"] = players.loc[chosen, "country_name"].iloc[0]
    players.loc[chosen, "birth"] = "1990-00-00"
    data = dataclasses.replace(inp.data, players=conform(players, PLAYERS))
    return dataclasses.replace(inp, data=data)


def read_data(site: Path, stem: str) -> dict:
    """The value a data file ``site/data/<stem>.<digest>.js`` sets (as the page script reads it)."""
    (path,) = sorted((site / "data").glob(f"{stem}.*.js"))
    text = path.read_text(encoding="utf-8")
    payload = text.split("JSON.parse('", 1)[1].rsplit("');", 1)[0]
    return json.loads(re.sub(r"\\(.)", lambda m: m.group(1), payload))


def snapshot_of(
    given: Inputs, as_of: dt.date = AS_OF, previous: whr.lists.Previous | None = None
) -> whr.lists.Snapshot:
    """:func:`whr.lists.build` of ``given`` (its selection taken as of ``as_of``)."""
    selection = dataclasses.replace(given.selection, as_of=as_of)
    return whr.lists.build(given.data, selection, given.fit, previous)


def view_of(snapshot: whr.lists.Snapshot, **tables: pd.DataFrame) -> whr.lists.View:
    """The view of ``snapshot``'s tables, with the tables given replaced."""
    changed = dataclasses.replace(snapshot.tables, **tables)
    return whr.lists.view(snapshot.as_of, snapshot.category, changed, snapshot.rules)


MARK = "\u2191newly ranked "
"""The newly ranked mark before a name, as a row's text reads it: its arrow (shown on a phone),
then its words."""


def publish_days(
    out: Path, data: SourceData, days: list[dt.date], *, backfill_first: bool = True
) -> None:
    """Publish the renju list of each of ``days`` (oldest first) into ``out`` as the daily run
    does, each from the games known that day (selected and fitted as of it); after the first,
    the backfill of the days up to it (``rif-rating backfill --until`` the archive's first day),
    which the next lists carry."""
    config = load_config(default_directory())
    for k, day in enumerate(days):
        selection = whr.select(data, day, config=config)
        given = Inputs(data, selection, whr.fit(selection.rated, whr.FitParams()), {})
        publish_inputs(out, given, day)
        if k == 0 and backfill_first:
            backfill(out, given, day, day)


def published_series(data: dict[str, Any]) -> tuple[list[int], list[int], int]:
    """A player's ``published`` of ``p/<id>.json`` as the chart draws it: the days (since
    1970-01-01) and ratings of its steps (running sums of the rows), and the list's day."""
    published = data["published"]
    days = list(itertools.accumulate(published["day_deltas"]))
    ratings = list(itertools.accumulate(published["rating_deltas"]))
    return days, ratings, (dt.date.fromisoformat(data["date"]) - dt.date(1970, 1, 1)).days


def strict_json(text: str) -> Any:
    """JSON read with a reader that refuses a key repeated in an object (which ``json`` would
    read as the last one, losing the others without a word)."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in items]
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:
            raise ValueError(f"repeated keys {twice}")
        return dict(items)

    return json.loads(text, object_pairs_hook=pairs)


def refit(out: Path, games: list[tuple[str, str, float, dt.date]]) -> tuple[pd.DataFrame, dt.date]:
    """The what-if's oracle (issue 40): the newest entry's games read with pyarrow, the
    hypothetical ones added, refitted by :func:`whr.fit` with the manifest's parameters; the
    ratings on the later of the list's and the games' days, and that day."""
    both, day, manifest = with_games(out, games)
    fit = whr.fit(both, FitParams.from_dict(manifest["fit_params"]))
    return fit.rating_on(day).set_index("player"), day


def with_games(
    out: Path, games: list[tuple[str, str, float, dt.date]]
) -> tuple[pd.DataFrame, dt.date, dict[str, Any]]:
    """The newest entry's rated games up to its list's day (read with pyarrow) and ``games``
    after them (days as dates); the later of the list's and the games' days; the manifest."""
    latest = json.loads((out / "renju" / "latest.json").read_text(encoding="utf-8"))
    entry = out / latest["archive"]
    manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
    rated = pq.read_table(entry / "games.parquet").to_pandas()
    as_of = dt.date.fromisoformat(manifest["as_of"])
    rated = rated[pd.to_datetime(rated["date"]).dt.date <= as_of]
    both, day = joined(rated, games, as_of)
    return both, day, manifest


def joined(
    rated: pd.DataFrame, games: list[tuple[str, str, float, dt.date]], as_of: dt.date
) -> tuple[pd.DataFrame, dt.date]:
    """``rated``'s games (``black``, ``white``, ``result``, ``date``) and ``games`` after them,
    days as dates, as :func:`whr.fit` takes them; the later of ``as_of`` and the games' days
    (the day the what-if's list is read)."""
    added = pd.DataFrame(games, columns=["black", "white", "result", "date"])
    both = pd.DataFrame(
        {
            "black": [*rated["black"].astype(str), *added["black"]],
            "white": [*rated["white"].astype(str), *added["white"]],
            "result": [*rated["result"].astype(float), *added["result"]],
            "date": [*pd.to_datetime(rated["date"]).dt.date, *added["date"]],
        }
    )
    return both, max([as_of, *added["date"]])
