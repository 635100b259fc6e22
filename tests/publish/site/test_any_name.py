"""Every text output accepts every name (issue 38, item 5): names of any Unicode, read from
canonical CSV or Parquet files, published: the feed and the sitemap are well-formed XML, every
JSON file is valid JSON, and no file of the site holds a character XML forbids (the one rule,
whr.sources.texts, where names are read)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from defusedxml import ElementTree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import whr
import whr.lists
from tests.publish import support
from whr.publish.site import write
from whr.sources.canonical import write_canonical
from whr.tables import TOURNAMENT_CHANGES, conform

FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""What no XML file can hold (XML 1.0, Char), written independently of the rule under test."""
NAMES = st.text(
    st.characters(exclude_categories=(), exclude_characters="\x00"), min_size=1, max_size=12
)
"""Any Unicode: control characters, U+FFFE and U+FFFF, lone surrogates (written to a file as
the bytes a careless encoder makes of them: not UTF-8), right-to-left marks, private use. All
but NUL: a file holding one is refused whole, naming its line or row and column, as damaged
(tests/sources/test_small_reports.py)."""
HOSTILE = 6
"""Players of one tournament, and the tournament, given the drawn names."""


@dataclasses.dataclass(frozen=True)
class Base:
    given: support.Inputs
    tournament: str  # the tournament whose players get the names
    players: list[str]  # its players (ids)
    directory: Path  # the canonical tables, the players and tournaments rewritten per example


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Base:
    given = support.inputs(300)
    rated = given.selection.rated
    tournament = rated["tournament_id"].value_counts().index[0]
    mine = rated[rated["tournament_id"] == tournament]
    players = sorted(set(mine["black"]) | set(mine["white"]))[:HOSTILE]
    directory = tmp_path_factory.mktemp("any-name")
    write_canonical(given.data, directory, "csv")
    return Base(given, tournament, players, directory)


def _encoded(text: str) -> bytes:
    """Text as a file holds it: UTF-8, a lone surrogate as the bytes a careless encoder makes."""
    return text.encode("utf-8", errors="surrogatepass")


def _write(base: Base, names: list[str], fmt: str) -> Path:
    """The players and tournaments of the base as ``fmt`` files, the named tournament's
    players and the tournament itself named ``names`` (last in their files: a control
    character in a CSV file's first bytes makes it binary data, refused whole)."""
    out = base.directory / fmt
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    shutil.copy(base.directory / "games.csv", out / "games.csv")
    for kind, key, chosen in (
        ("players", "player_id", base.players),
        ("tournaments", "tournament_id", [base.tournament]),
    ):
        frame = getattr(base.given.data, kind).drop(columns="source")
        frame = pd.concat([frame[~frame[key].isin(chosen)], frame[frame[key].isin(chosen)]])
        text = frame.astype(object).where(frame.notna(), None)
        rows = text.to_dict("records")
        for k, row in enumerate(rows[len(rows) - len(chosen) :]):
            row["name"] = names[k % len(names)]
        if fmt == "csv":
            lines = [",".join(frame.columns)]
            for row in rows:
                cells = ["" if v is None else str(v) for v in row.values()]
                lines.append(",".join('"' + c.replace('"', '""') + '"' for c in cells))
            (out / f"{kind}.csv").write_bytes(_encoded("\n".join(lines) + "\n"))
        else:
            columns = {
                c: pa.array(
                    [None if r[c] is None else _encoded(str(r[c])) for r in rows], pa.binary()
                ).cast(pa.string(), safe=False)  # any bytes, as a careless writer stores them
                for c in frame.columns
            }
            pq.write_table(pa.table(columns), out / f"{kind}.parquet")
    return out


def _changes(view, tournament: str) -> pd.DataFrame:
    """The named tournament first rated by the list of AS_OF, its players moved (the feed
    names it and its biggest movers)."""
    st_ = view.standings
    ids = view.players["player"].astype("str").to_numpy(object)[st_["player"].to_numpy(np.int64)]
    tids = view.tournaments["tournament_id"].astype("str").to_numpy(object)
    mine = tids[st_["tournament_id"].to_numpy(np.int64)] == tournament
    return conform(
        pd.DataFrame(
            {
                "player": ids[mine],
                "tournament_id": tournament,
                "first_list_date": support.AS_OF,
                "previous_list_date": support.AS_OF - dt.timedelta(days=1),
                "rating_before": 1800.0,
                "uncertainty_before": 50.0,
                "rating_after": 1800.0 + np.arange(mine.sum()),
                "uncertainty_after": 50.0,
                "games": st_["games"].to_numpy(np.int32)[mine],
                "score": st_["score"].to_numpy(np.float64)[mine],
                "other_new_games": 0,
                "source": "replay",
            }
        ),
        TOURNAMENT_CHANGES,
    )


def _site_of(base: Base, names: list[str], fmt: str, target: Path) -> Path:
    data = whr.read_source(_write(base, names, fmt))
    selection = dataclasses.replace(base.given.selection, as_of=support.AS_OF)
    view = whr.lists.build(data, selection, base.given.fit).view
    changes = _changes(view, base.tournament)
    view = whr.lists.view(
        view.as_of,
        view.category,
        dataclasses.replace(view.tables, tournament_changes=changes),
        view.rules,
    )
    shutil.rmtree(target, ignore_errors=True)
    info = {"parameters": base.given.params, "days": [support.AS_OF.isoformat()]}
    write(target, view, info, base_url="https://rating.example.org/renju/")
    return target


def _check(site: Path, names: list[str]) -> None:
    feed = ElementTree.parse(site / "feed.xml").getroot()  # expat refuses ill-formed XML
    summary = feed.find("{http://www.w3.org/2005/Atom}entry/{http://www.w3.org/2005/Atom}summary")
    assert "newly rated" in summary.text  # the named tournament, and its movers, are in it
    ElementTree.parse(site / "sitemap.xml")
    for path in [*site.glob("*.json"), *sorted((site / "p").glob("*.json"))]:
        text = path.read_text(encoding="utf-8")  # UTF-8: no lone surrogate got written
        json.loads(text)  # strict: no raw control character in a string
        assert not FORBIDDEN.search(json.dumps(json.loads(text), ensure_ascii=False)), path
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".xml", ".json", ".js", ".csv"):
            text = path.read_text(encoding="utf-8")
            assert not FORBIDDEN.search(text), (path, FORBIDDEN.search(text))


@pytest.mark.slow
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(names=st.lists(NAMES, min_size=1, max_size=HOSTILE), fmt=st.sampled_from(["csv", "parquet"]))
def test_any_name_read_gives_well_formed_xml_and_valid_json(base, tmp_path, names, fmt):
    _check(_site_of(base, names, fmt, tmp_path / "site"), names)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_the_names_that_broke_the_feed(base, tmp_path, fmt):
    """The names the issue found (ESC, VT, FF, US, U+FFFE, U+FFFF) and a lone surrogate: the
    feed was ill-formed (expat: not well-formed, invalid token) while JSON and XLSX escaped
    them."""
    names = ["A\x1bB", "C\x0bD", "E\x0cF", "G\x1fH", "I\ufffeJ", "K\uffffL\ud800"]
    _check(_site_of(base, names, fmt, tmp_path / "site"), names)
