"""Hostile and unlucky input, replayed with real files and a real HTTP server on 127.0.0.1.

Each test replays one report of issue 12 (the readers and the pull) and checks that it now ends
in a clear error, or in a recorded problem with every game read still rated or excluded.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import io
import shutil
import time
import zipfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sources_support import FIXTURES, fast, send

import whr
from whr.params import PullSettings
from whr.rules import default_directory, load_config
from whr.sources import ReadLimits, combine, pull
from whr.sources import egf as egf_reader

BASIC = (FIXTURES / "basic.rif").read_bytes()

AS_OF = dt.date(2026, 11, 30)
EGF = Path(__file__).parent / "egf"


@pytest.fixture(scope="module")
def rules():
    return load_config(default_directory())


def nothing_lost(data, rules) -> None:
    """Every game read is rated or excluded with a reason."""
    selection = whr.select(data, AS_OF, config=rules)
    assert len(selection.rated) + len(selection.exclusions) == len(data.games)


def other_database() -> bytes:
    """The basic fixture with other game ids: a second database of the same shape."""
    return BASIC.replace(b'<game id="2500', b'<game id="9900')


# -- two sources with the same file name ----------------------------------------------------


def test_two_urls_with_one_file_name_are_pulled_apart_and_both_read(http_server, tmp_path, rules):
    first, second = BASIC, other_database()
    http_server.routes["/a/renjunet_v10_20240101.rif"] = lambda h, n: send(h, first)
    http_server.routes["/b/renjunet_v10_20240101.rif"] = lambda h, n: send(h, second)
    urls = [http_server.url(f"/{d}/renjunet_v10_20240101.rif") for d in "ab"]
    paths = [pull(url, tmp_path, None, fast()) for url in urls]
    assert paths[0] != paths[1]
    assert [p.read_bytes() for p in paths] == [first, second]  # nothing overwritten

    data = whr.read_source(paths, name=urls)
    assert data.inputs == tuple(
        (url, hashlib.sha256(body).hexdigest())
        for url, body in zip(urls, [first, second], strict=True)
    )
    one = whr.read_source(FIXTURES / "basic.rif")
    assert len(data.games) == 2 * len(one.games)  # no game lost
    assert set(data.games["source"]) == set(urls)
    assert "duplicate_source" not in set(data.problems["code"])
    nothing_lost(data, rules)


def test_urls_are_named_by_the_url_when_read_directly(http_server):
    http_server.routes["/a/renjunet_v10_20240101.rif"] = lambda h, n: send(h, BASIC)
    http_server.routes["/b/renjunet_v10_20240101.rif"] = lambda h, n: send(h, other_database())
    urls = [http_server.url(f"/{d}/renjunet_v10_20240101.rif") for d in "ab"]
    data = whr.read_source(urls)
    assert [name for name, _ in data.inputs] == urls
    assert len({digest for _, digest in data.inputs}) == 2


def test_the_same_contents_twice_are_reported_and_nothing_is_lost(http_server, tmp_path, rules):
    http_server.routes["/a/renjunet_v10_20240101.rif"] = lambda h, n: send(h, BASIC)
    http_server.routes["/b/renjunet_v10_20240101.rif"] = lambda h, n: send(h, BASIC)
    urls = [http_server.url(f"/{d}/renjunet_v10_20240101.rif") for d in "ab"]
    paths = [pull(url, tmp_path, None, fast()) for url in urls]
    data = whr.read_source(paths, name=urls)
    found = data.problems[data.problems["code"] == "duplicate_source"]
    assert list(found[["severity", "source", "locator"]].itertuples(False, None)) == [
        ("warning", urls[1], "whole file")
    ]
    assert urls[0] in found["message"].iloc[0]
    nothing_lost(data, rules)


def test_combine_reports_identical_parts_read_one_by_one():
    parts = [whr.read_source(FIXTURES / "basic.rif", name=n) for n in ("x.rif", "y.rif")]
    data = combine(parts)
    assert data.problems["code"].tolist() == ["duplicate_source"]
    assert combine(parts[:1]) is parts[0]
    with pytest.raises(TypeError, match="parts must be a sequence of whr.tables.SourceData"):
        combine(parts[0])


# -- no cap on decompressed size or on one value ---------------------------------------------


def moves_bomb(megabytes: int) -> bytes:
    """A database whose one game has ``megabytes`` MB of move text."""
    head = BASIC.split(b"</games>")[0]
    move_text = b"h8 " * (megabytes * 1_000_000 // 3)
    game = b'<game id="1" tournament="5001" black="777" white="778" bresult="1"><move>'
    return head + game + move_text + b"</move></game>\n</games>\n</database>\n"


def test_a_gzip_bomb_served_under_a_small_cap_is_refused_when_unpacked(http_server, tmp_path):
    body = gzip.compress(moves_bomb(20), 9)
    assert len(body) < 200_000  # 20 MB of payload in a small download
    http_server.routes["/renjunet_v10_20240101.rif.gz"] = lambda h, n: send(h, body)
    path = pull(
        http_server.url("/renjunet_v10_20240101.rif.gz"), tmp_path, None, fast(max_bytes=2_000_000)
    )
    limits = ReadLimits(max_unpacked_bytes=2_000_000, max_value_chars=100_000_000)
    with pytest.raises(whr.SourceError) as info:
        whr.read_source(path, limits=limits)
    message = str(info.value)
    assert "more than the limit of 2000000 bytes" in message
    assert "max_unpacked_bytes (--max-unpacked-bytes)" in message


def test_a_zip_bomb_is_refused_from_its_declared_size(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("renjunet_v10_20240101.rif", moves_bomb(5))
    path = tmp_path / "renjunet_v10_20240101.zip"
    path.write_bytes(buffer.getvalue())
    with pytest.raises(whr.SourceError, match=r"unpacks to \d+ bytes, more than the limit"):
        whr.read_source(path, limits=ReadLimits(max_unpacked_bytes=1_000_000))


def test_move_text_over_the_value_limit_is_refused_with_its_line(tmp_path):
    path = tmp_path / "renjunet_v10_20240101.rif.gz"
    path.write_bytes(gzip.compress(moves_bomb(3)))
    with pytest.raises(whr.SourceError) as info:
        whr.read_source(path, limits=ReadLimits(max_value_chars=1_000_000))
    message = str(info.value)
    last_line = BASIC.split(b"</games>")[0].count(b"\n") + 1
    assert f"line {last_line}: more than 1000000 characters without markup" in message
    assert "max_value_chars (--max-value-chars)" in message


def test_one_huge_attribute_is_refused_before_expat_sees_it(tmp_path):
    huge = b"x" * 3_000_000
    raw = BASIC.replace(b'surname="Tamm"', b'surname="' + huge + b'"')
    path = tmp_path / "renjunet_v10_20240101.rif.gz"
    path.write_bytes(gzip.compress(raw))
    with pytest.raises(whr.SourceError, match=r"line 24: more than 1000000 characters"):
        whr.read_source(path)  # the default limits


def test_characters_are_counted_not_bytes(tmp_path, rules):
    # 600 three-byte characters: 1800 bytes but 600 characters, under a limit of 700
    name = "张" * 600
    raw = BASIC.replace(b'surname="Tamm"', f'surname="{name}"'.encode())
    path = tmp_path / "wide.rif"
    path.write_bytes(raw)
    data = whr.read_source(path, limits=ReadLimits(max_value_chars=700, max_name_chars=1000))
    assert name in set(data.players["surname"])
    with pytest.raises(whr.SourceError, match="more than 599 characters"):
        whr.read_source(path, limits=ReadLimits(max_value_chars=599))


def test_a_long_value_under_a_raised_limit_is_read_whole(tmp_path, rules):
    path = tmp_path / "renjunet_v10_20240101.rif"
    path.write_bytes(moves_bomb(3))
    data = whr.read_source(path, limits=ReadLimits(max_value_chars=4_000_000))
    assert data.games["moves"].iloc[-1] == 3_000_000 // 3
    nothing_lost(data, rules)


def test_canonical_cells_and_egf_lines_have_the_value_limit_too(tmp_path):
    (tmp_path / "games.csv").write_text(
        "game_id,black,white,result\ng1,a,b,1\ng2," + "c" * 5000 + ",d,0\n", encoding="utf-8"
    )
    with pytest.raises(whr.SourceError, match=r"line 3, column 'black': a value of 5,000"):
        whr.read_source(tmp_path / "games.csv", limits=ReadLimits(max_value_chars=1000))
    table = (EGF / "header.h9").read_text(encoding="utf-8")
    (tmp_path / "long.h9").write_text(table.replace("Tallinn Renju", "T" * 5000), "utf-8")
    with pytest.raises(whr.SourceError, match=r"long.h9, line 2: a line of 5,"):
        whr.read_source(tmp_path / "long.h9", limits=ReadLimits(max_value_chars=1000))


# -- a slow server ------------------------------------------------------------------------


def drip(handler, hit, *, header_only: bool = False) -> None:
    """Answer one byte at a time, every 0.2 s, for at most 20 s (the client should leave)."""
    try:
        if header_only:
            for byte in (b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n" * 5)[:100]:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
                time.sleep(0.2)
            return
        handler.send_response(200)
        handler.send_header("Content-Length", str(len(BASIC)))
        handler.end_headers()
        for byte in BASIC[:100]:
            handler.wfile.write(bytes([byte]))
            handler.wfile.flush()
            time.sleep(0.2)
    except OSError:
        return  # the client hung up, as it should


@pytest.mark.parametrize("header_only", [False, True])
def test_a_server_dripping_bytes_meets_the_overall_deadline(http_server, tmp_path, header_only):
    http_server.routes["/slow.rif"] = lambda h, n: drip(h, n, header_only=header_only)
    with pytest.raises(whr.SourceError) as info:
        pull(
            http_server.url("/slow.rif"),
            tmp_path,
            None,
            PullSettings(timeout_s=5.0, deadline_s=1.0, retries=3, backoff_s=0.01),
        )
    assert "did not finish within the deadline of 1 s (deadline_s, --deadline)" in str(info.value)
    assert http_server.hits["/slow.rif"] == 1  # the deadline is not retried
    assert list(tmp_path.rglob("*")) == []  # no partial file left


def test_retries_stop_at_the_deadline(http_server, tmp_path):
    http_server.routes["/down.rif"] = lambda h, n: h.send_error(503, "busy")
    with pytest.raises(whr.SourceError, match="no time left for a further attempt"):
        pull(
            http_server.url("/down.rif"),
            tmp_path,
            None,
            PullSettings(retries=5, backoff_s=2.0, deadline_s=1.0),
        )
    assert http_server.hits["/down.rif"] == 1


# -- the wrong database chosen --------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "chosen"),
    [
        (["renjunet_v10_20240101.rif", "renjunet_v9_20240101.xml"], "renjunet_v10_20240101.rif"),
        (["renjunet_v9_20240102.rif", "renjunet_v10_20240101.rif"], "renjunet_v9_20240102.rif"),
        (
            ["renjunet_v11_20240101.rif.gz", "renjunet_v2_20240101.rif"],
            "renjunet_v11_20240101.rif.gz",
        ),
    ],
)
def test_databases_are_ordered_by_date_then_by_version_as_a_number(tmp_path, names, chosen):
    for name in names:
        body = BASIC if name == chosen else other_database()
        (tmp_path / name).write_bytes(gzip.compress(body) if name.endswith(".gz") else body)
    data = whr.read_source(tmp_path)
    assert [name for name, _ in data.inputs] == [chosen]
    assert set(data.games["game_id"]) == set(
        whr.read_source(FIXTURES / "basic.rif").games["game_id"]
    )


def test_two_files_of_one_date_and_version_are_refused(tmp_path):
    (tmp_path / "renjunet_v10_20240101.rif").write_bytes(BASIC)
    (tmp_path / "renjunet_v10_20240101.rif.gz").write_bytes(gzip.compress(other_database()))
    with pytest.raises(whr.SourceError, match="are both the database of 2024-01-01"):
        whr.read_source(tmp_path)


# -- files that change the output are part of the digest ----------------------------------


def test_editing_the_egf_player_mapping_changes_the_digest(tmp_path):
    mapping = tmp_path / "egf_players.csv"
    shutil.copy(EGF / "no_players.csv", mapping)
    before = egf_reader.read_tables([EGF / "header.h9"], mapping=mapping)
    assert "unmatched_player" in set(before.problems["code"])
    with open(mapping, "a", encoding="utf-8") as out:
        out.write("090123,Soosorv Ants,EE,\n")
    after = egf_reader.read_tables([EGF / "header.h9"], mapping=mapping)
    assert after.sha256 != before.sha256
    assert dict(after.inputs)["egf_players.csv"] == hashlib.sha256(mapping.read_bytes()).hexdigest()
    assert "090123" in set(after.games["black"]) | set(after.games["white"])


def test_a_directory_of_tables_lists_the_mapping_and_country_codes(tmp_path):
    shutil.copy(EGF / "header.h9", tmp_path / "header.h9")
    data = whr.read_source(tmp_path)
    inputs = dict(data.inputs)
    for path in (egf_reader.DEFAULT_MAPPING, egf_reader.DEFAULT_COUNTRIES):
        assert inputs[path.name] == hashlib.sha256(path.read_bytes()).hexdigest()


# -- names without a length limit ----------------------------------------------------------


def test_a_long_name_is_cut_and_reported(tmp_path, rules):
    raw = BASIC.replace(b'surname="Tamm"', b'surname="' + b"T" * 5000 + b'"')
    raw = raw.replace(b'name="Example Open 2024"', b'name="' + b"O" * 300 + b'"')
    path = tmp_path / "renjunet_v10_20240101.rif"
    path.write_bytes(raw)
    data = whr.read_source(path)
    player = data.players.set_index("player_id").loc["090123"]
    assert player["surname"] == "T" * 200 and player["name"] == "T" * 200
    tournament = data.tournaments.set_index("tournament_id").loc["5001"]
    assert tournament["name"] == "O" * 200
    long = data.problems[data.problems["code"] == "long_name"]
    assert set(long["locator"]) == {
        "player id=090123, surname",
        "player id=090123, name",
        "tournament id=5001, name",
    }
    assert set(long["severity"]) == {"warning"}
    assert "5,000 characters cut to the first 200" in " ".join(long["message"])
    assert "max_name_chars (--max-name-chars)" in long["message"].iloc[0]
    nothing_lost(data, rules)


# -- characters no text output can hold (issue 38, item 5) ----------------------------------

UNSAFE = "\x1b\x0b\x0c\x1f\ufffe\uffff\x7f\x85"
"""ESC, VT, FF, US, U+FFFE, U+FFFF, DEL and NEL: none is text an XML file (or an HTML page)
may hold."""


def _canonical(tmp_path: Path, fmt: str) -> Path:
    """Players, a tournament and a game whose names hold :data:`UNSAFE`, as canonical tables
    (the CSV's first 512 bytes plain: a control character there reads as binary data)."""
    padding = [{"player_id": f"p{k:03d}", "name": f"Padding Player {k}"} for k in range(40)]
    players = pd.DataFrame(
        [*padding, {"player_id": "1", "name": f"Ann{UNSAFE}a"}, {"player_id": "2", "name": "Bo"}]
    )
    tournaments = pd.DataFrame(
        [*({"tournament_id": f"x{k}", "name": f"Padding Open {k}"} for k in range(40)),
         {"tournament_id": "t1", "name": f"Open{UNSAFE}", "start": "2026-01-01",
          "end": "2026-01-02", "rated": "true", "category": "renju"}]
    )  # fmt: skip
    games = pd.DataFrame(
        [{"game_id": "g1", "tournament_id": "t1", "round": "1", "black": "1", "white": "2",
          "result": "1"}]
    )  # fmt: skip
    directory = tmp_path / fmt
    directory.mkdir()
    for name, frame in (("players", players), ("tournaments", tournaments), ("games", games)):
        if fmt == "csv":
            frame.to_csv(directory / f"{name}.csv", index=False)
        else:
            frame.astype(str).to_parquet(directory / f"{name}.parquet")
    return directory


IN_A_WORD = "\x1b\ufffe\uffff\x7f"
"""Those of them that are not blanks (an EGF table's words are split at the others)."""


def _egf(tmp_path: Path) -> Path:
    table = (EGF / "header.h9").read_text(encoding="utf-8")
    table = table.replace("Soosorv Ants", f"Soosorv{IN_A_WORD} Ants")
    table = table.replace("EV[Tallinn Renju Open 2024]", f"EV[Tallinn{IN_A_WORD} Open]")
    table = "; a comment\n" * 50 + table  # (a control character in the first bytes: binary)
    path = tmp_path / "header.h9"
    path.write_text(table, encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["csv", "parquet", "egf"])
def test_characters_no_text_output_can_hold_are_replaced_and_reported(tmp_path, rules, fmt):
    """ESC, VT, FF, US, U+FFFE, U+FFFF, DEL and NEL in a player's and a tournament's name, from
    canonical CSV, Parquet or an EGF table: each becomes U+FFFD, reported once per cell
    (``bad_character``, the row's id and the column, every character named)."""
    source = _egf(tmp_path) if fmt == "egf" else _canonical(tmp_path, fmt)
    data = whr.read_source(source)
    found = data.problems[data.problems["code"] == "bad_character"]
    texts = [
        t
        for frame in (data.players, data.tournaments)
        for column in frame.columns
        for t in frame[column].tolist()
        if isinstance(t, str)
    ]
    assert not [t for t in texts if any(c in t for c in UNSAFE)]
    held = IN_A_WORD if fmt == "egf" else UNSAFE
    replaced = [t for t in texts if "\ufffd" * len(held) in t]
    assert len(replaced) >= 2 and len(found) == len(replaced), (replaced, found)
    assert set(found["severity"]) == {"warning"}
    named = "U+000B, U+000C, U+001B, U+001F, U+007F, U+0085, U+FFFE, U+FFFF"
    if fmt == "egf":
        named = "U+001B, U+007F, U+FFFE, U+FFFF"
    assert all(m.startswith(f"name held {named}: not text") for m in found["message"])
    if fmt != "egf":
        assert set(found["locator"]) == {"player id=1, name", "tournament id=t1, name"}
        assert set(found["source"]) == {f"players.{fmt}", f"tournaments.{fmt}"}
        assert data.players.set_index("player_id").loc["1", "name"] == "Ann" + "\ufffd" * 8 + "a"
    nothing_lost(data, rules)


def test_a_file_name_is_the_operators_and_kept_as_given(tmp_path):
    """The rule is the data's: the source column (a file name the operator chose) is kept."""
    directory = _canonical(tmp_path, "csv")
    data = whr.read_source(directory / "players.csv", name="players\x1b.csv")
    assert set(data.players["source"]) == {"players\x1b.csv"}
    assert set(data.problems["source"]) == {"players\x1b.csv"}


# -- numbers read from prefixes ------------------------------------------------------------


@pytest.mark.parametrize("written", ["1e309", "1h30", "99999999999999999999999", "inf", "-5"])
def test_egf_time_must_be_a_whole_finite_number_in_range(tmp_path, written):
    table = (EGF / "header.h9").read_text(encoding="utf-8").replace(";time=60+b\n", "")
    path = tmp_path / "t.h9"
    path.write_text(table.replace("TM[95]", f"TM[{written}]"), encoding="utf-8")
    data = egf_reader.read_table(path, mapping=EGF / "no_players.csv")
    assert pd.isna(data.tournaments["minutes"].iloc[0])
    bad = data.problems[data.problems["code"] == "egf_bad_time"]
    assert bad["locator"].tolist() == ["header TM"]
    assert repr(written) in bad["message"].iloc[0]


def test_canonical_numbers_parse_whole_finite_and_in_range(tmp_path, rules):
    (tmp_path / "tournaments.csv").write_text(
        "tournament_id,minutes,type\n"
        "T1,60,0\nT2,inf,1\nT3,1e309,2\nT4,1h30,3\nT5,-5,-1\nT6,99999999999999999999999,"
        "99999999999\nT7,0,1.5\n",
        encoding="utf-8",
    )
    (tmp_path / "games.csv").write_text(
        "game_id,tournament_id,black,white,result,moves\n"
        "g1,T1,a,b,1,-3\ng2,T1,a,b,1e0,40\ng3,T1,a,b,1.0,nan\n",
        encoding="utf-8",
    )
    data = whr.read_source(tmp_path)
    minutes = data.tournaments.set_index("tournament_id")["minutes"]
    assert minutes["T1"] == 60.0 and minutes.drop("T1").isna().all()
    kinds = data.tournaments.set_index("tournament_id")["type"]
    assert kinds["T1"] == 0 and kinds["T2"] == 1 and kinds[["T5", "T6", "T7"]].isna().all()
    games = data.games.set_index("game_id")
    assert pd.isna(games.loc["g1", "moves"]) and games.loc["g2", "moves"] == 40
    assert games["result"].tolist() == [1.0, 1.0, 1.0]
    rows = set(data.problems[["code", "locator"]].itertuples(False, None))
    for line in range(3, 9):
        assert ("bad_value", f"line {line}, tournament id=T{line - 1}") in rows
    assert ("bad_value", "line 2, game id=g1") in rows and (
        "bad_value",
        "line 4, game id=g3",
    ) in rows
    nothing_lost(data, rules)


def test_renjunet_type_out_of_range_is_a_bad_value_not_a_crash(tmp_path):
    raw = BASIC.replace(b'rated="1" type="0"', b'rated="1" type="99999999999"')
    path = tmp_path / "x.rif"
    path.write_bytes(raw)
    data = whr.read_source(path)
    assert pd.isna(data.tournaments.set_index("tournament_id").loc["5001", "type"])
    assert "bad_value" in set(data.problems["code"])


# -- canonical Parquet ----------------------------------------------------------------------


def test_parquet_date_valued_timestamps_are_dates(tmp_path, rules):
    midnight = [dt.datetime(2024, 5, 1), dt.datetime(2024, 5, 2)]
    table = pa.table(
        {
            "tournament_id": ["T1", "T2", "T3", "T4"],
            "start": pa.array(midnight + [dt.datetime(2024, 5, 3, 13), None], pa.timestamp("ns")),
            "end": pa.array(
                midnight + [dt.datetime(2024, 5, 3), dt.datetime(2024, 5, 4)],
                pa.timestamp("us", tz="UTC"),
            ),
            "minutes": [60.0, -5.0, 30.0, None],
        }
    )
    pq.write_table(table, tmp_path / "tournaments.parquet")
    zoned = pa.table(
        {
            "game_id": ["g1", " ", "g3"],
            "tournament_id": ["T1", "T1", "T2"],
            "black": ["a", "a", " "],
            "white": ["b", "b", "b"],
            "result": [1.0, 0.0, 0.5],
            "date": pa.array([dt.datetime(2024, 5, 1)] * 3, pa.timestamp("s", tz="Asia/Tokyo")),
        }
    )
    pq.write_table(zoned, tmp_path / "games.parquet")
    pq.write_table(pa.table({"player_id": ["a", " ", "b"]}), tmp_path / "players.parquet")
    data = whr.read_source(tmp_path)
    t = data.tournaments.set_index("tournament_id")
    assert t["start"].tolist()[:2] == [dt.date(2024, 5, 1), dt.date(2024, 5, 2)]
    assert t["end"].tolist() == [
        dt.date(2024, 5, 1),
        dt.date(2024, 5, 2),
        dt.date(2024, 5, 3),
        dt.date(2024, 5, 4),
    ]
    assert pd.isna(t.loc["T3", "start"]) and pd.isna(t.loc["T2", "minutes"])
    rows = set(data.problems[["code", "locator"]].itertuples(False, None))
    assert ("bad_date", "row 3, tournament id=T3") in rows  # 13:00 is not a date
    assert ("bad_value", "row 2, tournament id=T2") in rows  # minutes -5
    assert ("missing_id", "row 2, player id=") in rows  # a blank id
    assert ("missing_id", "row 2, game id=") in rows
    assert ("unknown_player", "row 3, game id=g3") in rows  # a blank black: null
    for i in (1, 2, 3):  # a timestamp in Tokyo time is not a date
        assert any(code == "bad_date" and where.startswith(f"row {i},") for code, where in rows)
    assert list(data.players["player_id"]) == ["a", "b"]
    nothing_lost(data, rules)


# -- messages ---------------------------------------------------------------------------------


def test_an_html_error_page_is_named_as_such(http_server):
    page = b"<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1></body></html>"
    http_server.routes["/renjunet_v10_20240101.rif"] = lambda h, n: send(h, page)
    with pytest.raises(whr.SourceError, match="this is an HTML page, not a RenjuNet database"):
        whr.read_source(http_server.url("/renjunet_v10_20240101.rif"))


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_a_renjunet_file_with_a_byte_order_mark_is_decoded(tmp_path, codec):
    text = BASIC.decode("utf-8")
    path = tmp_path / "renjunet_v10_20240101.rif"
    if codec == "utf-16-be":
        path.write_bytes(b"\xfe\xff" + text.encode(codec))
    else:
        path.write_bytes(text.encode(codec))
    data = whr.read_source(path)
    reference = whr.read_source(FIXTURES / "basic.rif")
    pd.testing.assert_frame_equal(data.games, reference.games.assign(source=path.name))
    assert data.problems.empty


def test_utf16_without_a_byte_order_mark_is_named(tmp_path):
    path = tmp_path / "renjunet_v10_20240101.rif"
    path.write_bytes(BASIC.decode("utf-8").encode("utf-16-le"))
    with pytest.raises(whr.SourceError, match="UTF-16 text without a byte-order mark"):
        whr.read_source(path)


def test_an_empty_zip_is_named(tmp_path):
    path = tmp_path / "renjunet_v10_20240101.zip"
    with zipfile.ZipFile(path, "w"):
        pass
    with pytest.raises(whr.SourceError, match="an empty zip archive"):
        whr.read_source(path)


@pytest.mark.parametrize(
    ("payload", "what"),
    [
        (b"root:$6$Ab3dEfGh$secretsecret:19000:0:99999:7:::\n", "plain text that is not XML"),
        (b"%PDF-1.7 secretsecret", "a PDF document"),
        (b"\x7fELFsecretsecret\x00\x00", "a program (ELF)"),
        (bytes([0x01, 0x02]) + b"secretsecret", "binary data"),
        (b"caf\xe9 secretsecret\n", "text that is not UTF-8"),
    ],
)
def test_a_file_that_is_not_a_database_is_described_never_quoted(tmp_path, payload, what):
    path = tmp_path / "shadow"
    path.write_bytes(payload)
    with pytest.raises(whr.SourceError) as info:
        whr.read_source(path)
    message = str(info.value)
    assert what in message
    assert "secret" not in message and "root" not in message


def test_a_file_named_like_an_egf_table_is_not_quoted_either(tmp_path):
    path = tmp_path / "shadow.h9"
    path.write_bytes(b"root:$6$Ab3dEfGh$secret:19000:0:99999:7:::\nbin:x:2:2::/bin:\n")
    with pytest.raises(whr.SourceError) as info:
        whr.read_source(path)
    assert "not an EGF table" in str(info.value) and "secret" not in str(info.value)
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00secret")
    with pytest.raises(whr.SourceError, match="not an EGF table.*a program"):
        whr.read_source(path)


def test_a_redirect_to_ftp_is_refused(http_server, tmp_path):
    def redirect(handler, hit):
        handler.send_response(302)
        handler.send_header("Location", "ftp://127.0.0.1/renjunet_v10_20240101.rif")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    http_server.routes["/moved.rif"] = redirect
    with pytest.raises(whr.SourceError) as info:
        pull(http_server.url("/moved.rif"), tmp_path, None, fast(retries=2))
    assert "redirects to 'ftp://127.0.0.1/renjunet_v10_20240101.rif'" in str(info.value)
    assert "only http and https are followed" in str(info.value)
    assert http_server.hits["/moved.rif"] == 1


def test_a_redirect_on_http_is_followed(http_server, tmp_path):
    def redirect(handler, hit):
        handler.send_response(301)
        handler.send_header("Location", "/real/renjunet_v10_20240101.rif")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    http_server.routes["/moved.rif"] = redirect
    http_server.routes["/real/renjunet_v10_20240101.rif"] = lambda h, n: send(h, BASIC)
    path = pull(http_server.url("/moved.rif"), tmp_path, None, fast())
    assert path.read_bytes() == BASIC


# -- arguments --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"max_value_chars": 0}, ValueError, "max_value_chars must be an integer >= 1, got 0"),
        ({"max_name_chars": 1.5}, TypeError, "max_name_chars must be an integer, got float"),
        ({"max_unpacked_bytes": True}, TypeError, "got bool: True"),
    ],
)
def test_read_limits_are_checked(kwargs, error, words):
    with pytest.raises(error, match=words):
        ReadLimits(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"limits": {"max_value_chars": 5}}, TypeError, "limits must be a whr.sources.ReadLimits"),
        ({"name": ["a"]}, TypeError, "name must be a str for a single source"),
        ({"source": FIXTURES, "name": "x"}, ValueError, "name applies to a file or URL"),
        ({"source": [FIXTURES / "basic.rif"], "name": "x"}, TypeError, "a list of 1 names"),
        ({"source": [FIXTURES / "basic.rif"], "name": ["a", "b"]}, ValueError, "hold 1 names"),
    ],
)
def test_read_source_arguments_are_checked(kwargs, error, words):
    kwargs = {"source": FIXTURES / "basic.rif", **kwargs}
    with pytest.raises(error, match=words):
        whr.read_source(**kwargs)


def test_csv_and_egf_tables_saved_as_utf16_are_decoded(tmp_path):
    text = (FIXTURES / "canonical" / "games.csv").read_text(encoding="utf-8")
    (tmp_path / "games.csv").write_bytes(text.encode("utf-16"))
    reference = whr.read_source(FIXTURES / "canonical" / "games.csv")
    pd.testing.assert_frame_equal(whr.read_source(tmp_path / "games.csv").games, reference.games)
    (tmp_path / "games.csv").write_bytes(text.encode("utf-16-le"))
    with pytest.raises(whr.SourceError, match="this is UTF-16 text without a byte-order mark"):
        whr.read_source(tmp_path / "games.csv")
    table = (EGF / "header.h9").read_text(encoding="utf-8")
    (tmp_path / "wide.h9").write_bytes(table.encode("utf-16"))
    wide = egf_reader.read_table(tmp_path / "wide.h9", mapping=EGF / "no_players.csv")
    plain = egf_reader.read_table(EGF / "header.h9", mapping=EGF / "no_players.csv")
    pd.testing.assert_frame_equal(
        wide.games.drop(columns="source"), plain.games.drop(columns="source")
    )


def test_a_canonical_file_that_is_not_text_is_described_never_quoted(tmp_path):
    path = tmp_path / "games.csv"
    path.write_bytes(b"%PDF-1.7\n\x00secret,secret\n")
    with pytest.raises(whr.SourceError) as info:
        whr.read_source(path)
    assert "not a readable CSV file: this is a PDF document" in str(info.value)
    assert "secret" not in str(info.value)


# -- https: the same rules over TLS -----------------------------------------------------------


@pytest.fixture
def https_server(tmp_path, monkeypatch):
    """The test server behind TLS with a self-signed certificate for 127.0.0.1, trusted through
    SSL_CERT_FILE (read when a default TLS context is made)."""
    import ssl
    import subprocess
    import threading

    from sources_support import Server

    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
        + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        + ["-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    server = Server()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    server.cert = cert
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def test_https_is_verified_and_kept_to_the_deadline(https_server, tmp_path, monkeypatch):
    https_server.routes["/renjunet_v10_20240101.rif"] = lambda h, n: send(h, BASIC)
    https_server.routes["/slow.rif"] = lambda h, n: drip(h, n)
    url = https_server.url("/renjunet_v10_20240101.rif").replace("http://", "https://")
    with pytest.raises(whr.SourceError, match="CERTIFICATE_VERIFY_FAILED"):
        pull(url, tmp_path, None, fast(retries=0))  # a certificate nobody vouches for
    monkeypatch.setenv("SSL_CERT_FILE", str(https_server.cert))
    assert pull(url, tmp_path, None, fast(retries=0)).read_bytes() == BASIC
    slow = https_server.url("/slow.rif").replace("http://", "https://")
    with pytest.raises(whr.SourceError, match="within the deadline of 1 s"):
        pull(slow, tmp_path, None, PullSettings(timeout_s=5.0, deadline_s=1.0, retries=0))


def test_two_directories_of_tables_list_the_shared_mapping_once(tmp_path, rules):
    for folder, table in (("a", "header.h9"), ("b", "byes.h9")):
        (tmp_path / folder).mkdir()
        shutil.copy(EGF / table, tmp_path / folder / table)
    data = whr.read_source([tmp_path / "a", tmp_path / "b"])
    names = [name for name, _ in data.inputs]
    assert names == ["header.h9", "country_codes.csv", "egf_players.csv", "byes.h9"]
    assert "duplicate_source" not in set(data.problems["code"])  # not a source of games
    nothing_lost(data, rules)
