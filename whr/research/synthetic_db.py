"""Seeded synthetic RenjuNet-format databases of any size (SYNTHETIC data, not real records).

Built on ``whr.research.synthetic.history`` (players with drifting true strengths, tournaments,
games). This module dresses that history as a RenjuNet database: countries and cities, rules (certified
and not, renju and gomoku), players' names (ASCII and not, some with a native-script name),
tournament kinds (national, international, team, online, rapid), unrated tournaments, unrated
single games, forfeits, missing and malformed results, self-games, dangling references,
a duplicated game id, and tournament dates written with every fallback of the format
(``0000-00-00`` with year/month, month ``0``, day ``00``, one date only, start after end, no date).

It also returns the tables the reader must give back (``Database.expected``), built from the
generator's own truth rather than by reading the XML, so that generator -> XML -> reader is a
real round trip, and a facts table (``minutes``, ``mode``) for the tournaments after the
2021-08-08 rules, which RenjuNet cannot carry.

Command line::

    python -m whr.research.synthetic_db --games 4000 --seed 7 --out data/sample/renjunet_v10_20261130.rif
"""

from __future__ import annotations

import argparse
import calendar
import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from xml.sax.saxutils import escape, quoteattr

import numpy as np
import pandas as pd

from whr.research.synthetic import COUNTRIES, History, history
from whr.tables import GAMES, PLAYERS, PROBLEMS, TOURNAMENTS, SourceData, conform, empty

__all__ = ["RULES", "WHR_START", "Database", "generate", "main", "write_facts", "write_renjunet"]

#: First day of the 2021 rules (rated only with certified rules, >= 30 minutes, face to face).
WHR_START = dt.date(2021, 8, 8)

#: (id, name, category "1" renju / "2" gomoku, certified by the RIF for rating since 2021)
RULES = (
    ("1", "RIF", "1", True),
    ("2", "Yamaguchi", "1", True),
    ("3", "Sakata", "1", True),
    ("7", "Free-style gomoku", "2", False),
    ("9", "Standard gomoku", "2", False),
    ("11", "Caro", "2", False),
    ("15", "Tarannikov", "1", False),
    ("21", "Soosõrv-8", "1", True),
    ("25", "Swap1", "1", False),
    ("28", "Swap2", "2", False),
    ("30", "Taraguchi-10", "1", True),
)

COUNTRY_NAMES = {
    "RUS": "Russia", "CHN": "China", "EST": "Estonia", "JPN": "Japan", "CZE": "Czech Republic",
    "SWE": "Sweden", "TPE": "Chinese Taipei", "LAT": "Latvia", "UKR": "Ukraine",
    "BLR": "Belarusian Renju Association", "HUN": "Hungary", "KAZ": "Kazakhstan",
    "KOR": "Korea", "FIN": "Finland", "POL": "Poland", "ITA": "Italy", "FRA": "France",
    "GER": "Germany", "ARM": "Armenia", "TUR": "Türkiye", "USA": "United States",
    "SVK": "Slovakia", "LTU": "Lithuania", "UZB": "Uzbekistan", "AZE": "Azerbaijan",
    "ROU": "Romania", "NOR": "Norway", "DEN": "Denmark", "NED": "Netherlands",
    "BEL": "Belgium", "AUT": "Austria", "SUI": "Switzerland", "GBR": "United Kingdom",
    "ESP": "Spain", "MGL": "Mongolia", "VIE": "Vietnam", "IND": "India", "ISR": "Israel",
    "CAN": "Canada", "AUS": "Australia",
}  # fmt: skip

CITIES = {
    "RUS": ["Moscow", "Saint Petersburg", "Novosibirsk", "Kazan"],
    "CHN": ["Beijing", "Shanghai", "Hangzhou", "Jinan"],
    "EST": ["Tallinn", "Tartu", "Pärnu", "Võru"],
    "JPN": ["Tokyo", "Osaka", "Nagoya", "Sapporo"],
    "CZE": ["Prague", "Brno", "Pardubice"],
    "SWE": ["Stockholm", "Göteborg", "Uppsala"],
    "TPE": ["Taipei", "Kaohsiung"],
    "LAT": ["Riga", "Daugavpils"],
    "UKR": ["Kyiv", "Kharkiv"],
    "BLR": ["Minsk", "Hrodna"],
    "HUN": ["Budapest", "Kecskemét"],
    "KOR": ["Seoul", "Busan"],
    "FIN": ["Helsinki", "Jyväskylä"],
}
CAPITALS = {
    "KAZ": "Astana", "POL": "Warsaw", "ITA": "Rome", "FRA": "Paris", "GER": "Berlin",
    "ARM": "Yerevan", "TUR": "Ankara", "USA": "New York", "SVK": "Bratislava",
    "LTU": "Vilnius", "UZB": "Tashkent", "AZE": "Baku", "ROU": "Bucharest", "NOR": "Oslo",
    "DEN": "Copenhagen", "NED": "Amsterdam", "BEL": "Brussels", "AUT": "Vienna",
    "SUI": "Zürich", "GBR": "London", "ESP": "Madrid", "MGL": "Ulaanbaatar", "VIE": "Hanoi",
    "IND": "Delhi", "ISR": "Tel Aviv", "CAN": "Toronto", "AUS": "Sydney",
}  # fmt: skip

# (latin, native) surname and given-name pools; native "" = no native-script name
_CYRILLIC_SURNAMES = [("Sokolov", "Соколов"), ("Ivanov", "Иванов"), ("Smirnov", "Смирнов"),
                      ("Kuznetsov", "Кузнецов"), ("Popov", "Попов"), ("Volkov", "Волков"),
                      ("Morozov", "Морозов"), ("Lebedev", "Лебедев")]  # fmt: skip
_CYRILLIC_GIVEN = [("Alexey", "Алексей"), ("Dmitry", "Дмитрий"), ("Ivan", "Иван"),
                   ("Sergey", "Сергей"), ("Mikhail", "Михаил"), ("Pavel", "Павел")]  # fmt: skip
_CYRILLIC_GIVEN_F = [("Anna", "Анна"), ("Maria", "Мария"), ("Olga", "Ольга"),
                     ("Elena", "Елена")]  # fmt: skip
_CHINESE_SURNAMES = [("Wang", "王"), ("Li", "李"), ("Zhang", "张"), ("Liu", "刘"), ("Chen", "陈"),
                     ("Yang", "杨"), ("Cao", "曹"), ("Qi", "祁")]  # fmt: skip
_CHINESE_GIVEN = [("Wei", "伟"), ("Dongsheng", "冬生"), ("Jingyu", "靖宇"), ("Hao", "浩"),
                  ("Xinyu", "新宇"), ("Jun", "军")]  # fmt: skip
_CHINESE_GIVEN_F = [("Ying", "英"), ("Jing", "静"), ("Fang", "芳"), ("Xue", "雪")]
_TAIWAN_SURNAMES = [("Lin", "林"), ("Huang", "黃"), ("Chen", "陳"), ("Wu", "吳"), ("Tsai", "蔡")]
_TAIWAN_GIVEN = [("Chih-Hao", "志豪"), ("Chia-Hsien", "家賢"), ("Wei-Ting", "威廷")]
_TAIWAN_GIVEN_F = [("Yi-Chen", "怡君"), ("Shu-Fen", "淑芬")]
_JAPANESE_SURNAMES = [("Nakamura", "中村"), ("Yamaguchi", "山口"), ("Sato", "佐藤"),
                      ("Suzuki", "鈴木"), ("Takahashi", "高橋"), ("Okabe", "岡部")]  # fmt: skip
_JAPANESE_GIVEN = [("Shigeru", "茂"), ("Hiroshi", "浩"), ("Kenji", "健二"), ("Yusui", "遊水")]
_JAPANESE_GIVEN_F = [("Yuki", "由紀"), ("Haruka", "遥")]
_KOREAN_SURNAMES = [("Kim", "김"), ("Lee", "이"), ("Park", "박"), ("Choi", "최")]
_KOREAN_GIVEN = [("Minsu", "민수"), ("Jihoon", "지훈"), ("Hyunwoo", "현우")]
_KOREAN_GIVEN_F = [("Jiyoung", "지영"), ("Seoyeon", "서연")]
_LATIN = {
    "EST": (["Tamm", "Saar", "Sepp", "Mägi", "Kõiv", "Soosõrv", "Kask", "Rüütel"],
            ["Mart", "Tõnu", "Ants", "Jüri", "Ando", "Priit"], ["Ülle", "Kädi", "Tiina"]),
    "CZE": (["Dvořák", "Novák", "Černý", "Svoboda", "Procházka", "Kučera"],
            ["Jiří", "Pavel", "Tomáš", "Lukáš"], ["Lenka", "Zuzana"]),
    "SWE": (["Andersson", "Öberg", "Lindqvist", "Åkesson", "Berg"],
            ["Lars", "Björn", "Mattias", "Sören"], ["Åsa", "Karin"]),
    "HUN": (["Nagy", "Kovács", "Szabó", "Tóth", "Horváth"],
            ["László", "Gábor", "Zoltán", "Ádám"], ["Éva", "Zsófia"]),
    "FIN": (["Virtanen", "Mäkinen", "Nieminen", "Hämäläinen"],
            ["Jussi", "Mikko", "Väinö"], ["Aino", "Päivi"]),
    "LAT": (["Bērziņš", "Kalniņš", "Ozoliņš", "Liepa"], ["Jānis", "Andris", "Māris"],
            ["Ilze", "Līga"]),
    "POL": (["Nowak", "Wiśniewski", "Wójcik", "Kamiński"], ["Piotr", "Łukasz", "Paweł"],
            ["Małgorzata", "Anna"]),
    "TUR": (["Yılmaz", "Kaya", "Demir", "Şahin"], ["Mehmet", "Emre", "Çağrı"], ["Ayşe", "Elif"]),
}  # fmt: skip
_GENERIC = (
    ["Smith", "Rossi", "Müller", "Martin", "Garcia", "Jensen", "Peeters", "Novak", "Cohen",
     "Nguyen", "Kumar", "Brown", "Hansen", "Bauer", "Moreau", "Aliyev", "Petrosyan"],
    ["John", "Marco", "Thomas", "Pierre", "Carlos", "Lars", "Jan", "David", "Anh", "Arjun",
     "Erik", "Stefan", "Ruslan", "Aram"],
    ["Maria", "Sophie", "Laura", "Emma", "Lucia", "Nora"],
)  # fmt: skip
_NATIVE = {
    "RUS": (_CYRILLIC_SURNAMES, _CYRILLIC_GIVEN, _CYRILLIC_GIVEN_F, " "),
    "UKR": (_CYRILLIC_SURNAMES, _CYRILLIC_GIVEN, _CYRILLIC_GIVEN_F, " "),
    "BLR": (_CYRILLIC_SURNAMES, _CYRILLIC_GIVEN, _CYRILLIC_GIVEN_F, " "),
    "KAZ": (_CYRILLIC_SURNAMES, _CYRILLIC_GIVEN, _CYRILLIC_GIVEN_F, " "),
    "CHN": (_CHINESE_SURNAMES, _CHINESE_GIVEN, _CHINESE_GIVEN_F, ""),
    "TPE": (_TAIWAN_SURNAMES, _TAIWAN_GIVEN, _TAIWAN_GIVEN_F, ""),
    "JPN": (_JAPANESE_SURNAMES, _JAPANESE_GIVEN, _JAPANESE_GIVEN_F, ""),
    "KOR": (_KOREAN_SURNAMES, _KOREAN_GIVEN, _KOREAN_GIVEN_F, ""),
}
_FORFEIT_NOTES = ("forfeit", "Walk-over", "bye", "won by default")
_OTHER_NOTES = ("B=1245", "time trouble", "record incomplete", "adjourned and resumed")
_COLUMNS = "abcdefghijklmno"


@dataclass(frozen=True)
class Database:
    """A synthetic RenjuNet database and the tables the reader must give back.

    Attributes
    ----------
    date : datetime.date
        The database's date (``renjunet_v10_YYYYMMDD``).
    countries, cities, rules : pandas.DataFrame
        The dictionaries as written: ``id``, ``name``, ``abbr``; ``id``, ``country``, ``name``;
        ``id``, ``name``, ``category``, ``certified``.
    players : pandas.DataFrame
        ``PLAYERS`` columns (``source`` empty) plus the record's ``id`` (internal), ``country_ref``,
        ``city_ref`` and ``gender`` as written.
    tournaments : pandas.DataFrame
        ``TOURNAMENTS`` columns plus what is written: ``country_ref``, ``city_ref``,
        ``start_text``, ``end_text``, ``year``, ``month``, ``rated_text``, and the generator's
        ``kind`` (national, international, team, online, rapid).
    games : pandas.DataFrame
        ``GAMES`` columns plus what is written: ``tournament_ref``, ``black_ref``, ``white_ref``,
        ``bresult``, ``move`` (text or None for no element), ``info`` (text or None), and the
        generator's ``not_played`` (the games given a forfeit note).
    facts : pandas.DataFrame
        ``tournament_id``, ``minutes``, ``mode``, ``note`` for the tournaments ending on or after
        ``WHR_START``.
    truth : pandas.DataFrame
        ``player`` (public id), ``date``, ``rating``: the true strengths (published scale).
    history : whr.research.synthetic.History
        The history this database dresses.
    """

    date: dt.date
    countries: pd.DataFrame
    cities: pd.DataFrame
    rules: pd.DataFrame
    players: pd.DataFrame
    tournaments: pd.DataFrame
    games: pd.DataFrame
    facts: pd.DataFrame
    truth: pd.DataFrame
    history: History

    def expected(self, source: str) -> SourceData:
        """The players, tournaments and games the reader must return for this database.

        Parameters
        ----------
        source : str
            The name the file is read under (fills the ``source`` columns).
        """
        out = {}
        for name, schema in (
            ("players", PLAYERS),
            ("tournaments", TOURNAMENTS),
            ("games", GAMES),
        ):
            frame = getattr(self, name)[schema.names].copy()
            frame["source"] = source
            out[name] = conform(frame, schema)
        return SourceData(
            players=out["players"],
            tournaments=out["tournaments"],
            games=out["games"],
            problems=empty(PROBLEMS),
        )


def _count(n: int, share: float, minimum: int) -> int:
    return max(minimum, round(n * share)) if n >= 200 else min(minimum, n // 20)


def _pick(rng: np.random.Generator, pool: np.ndarray, k: int) -> np.ndarray:
    """``k`` distinct elements of ``pool`` (fewer if the pool is smaller)."""
    k = min(k, pool.size)
    return rng.choice(pool, size=k, replace=False) if k else pool[:0]


def _players(h: History, rng: np.random.Generator, countries: pd.DataFrame, cities: pd.DataFrame):
    n = len(h.players)
    codes = h.players["country"].to_numpy(dtype=object)
    country_ids = dict(zip(countries["abbr"], countries["id"], strict=True))
    city_rows: dict[str, list[tuple[str, str]]] = {}
    for cid, ccountry, cname in zip(cities["id"], cities["country"], cities["name"], strict=True):
        city_rows.setdefault(ccountry, []).append((cid, cname))
    unknown_city = cities.loc[cities["name"] == "?", "id"].iloc[0]
    internal = rng.permutation(n) + 101  # internal ids, unrelated to the public ones
    counters: dict[str, int] = {}
    rows = []
    width = max(4, len(str(n)))
    for i in range(n):
        code = codes[i]
        prefix = COUNTRIES.index(code) + 1
        counters[code] = counters.get(code, 0) + 1
        disp = f"{prefix:02d}{counters[code]:0{width}d}"
        female = rng.random() < 0.15
        gender = "2" if female else ("1" if rng.random() < 0.97 else "")
        native = None
        if code in _NATIVE:
            surnames, given_m, given_f, sep = _NATIVE[code]
            s_lat, s_nat = surnames[rng.integers(len(surnames))]
            pool = given_f if female else given_m
            g_lat, g_nat = pool[rng.integers(len(pool))]
            if rng.random() < 0.6:
                native = f"{s_nat}{sep}{g_nat}" if sep == "" else f"{g_nat}{sep}{s_nat}"
        else:
            latin, latin_m, latin_f = _LATIN.get(code, _GENERIC)
            s_lat = latin[rng.integers(len(latin))]
            latin_pool = latin_f if female else latin_m
            g_lat = latin_pool[rng.integers(len(latin_pool))]
        if rng.random() < 0.02:
            g_lat = ""  # surname only, as some old records
        year = int(rng.integers(1950, 2012))
        r = rng.random()
        if r < 0.6:
            birth = f"{year:04d}-{rng.integers(1, 13):02d}-{rng.integers(1, 29):02d}"
        elif r < 0.75:
            birth = f"{year:04d}-00-00"
        else:
            birth = None
        own_cities = city_rows[country_ids[code]]
        if rng.random() < 0.05:
            city_ref, city_name = unknown_city, "?"
        else:
            city_ref, city_name = own_cities[rng.integers(len(own_cities))]
        rows.append(
            {
                "id": str(internal[i]),
                "player_id": disp,
                "name": " ".join(p for p in (s_lat, g_lat) if p),
                "surname": s_lat,
                "given_name": g_lat or None,
                "native_name": native,
                "country": code,
                "country_name": COUNTRY_NAMES[code],
                "city": city_name,
                "female": None if gender == "" else female,
                "birth": birth,
                "source": "",
                "country_ref": country_ids[code],
                "city_ref": city_ref,
                "gender": gender,
            }
        )
    return pd.DataFrame(rows)


def _rule_for(kind: str, end: dt.date, rng: np.random.Generator) -> str:
    if rng.random() < 0.07:
        return str(rng.choice(["7", "9", "11", "28"]))  # gomoku
    if rng.random() < 0.04:
        return str(rng.choice(["15", "25"]))  # renju, not certified
    if end.year < 2004:
        return "1"
    if end.year < 2017:
        return str(rng.choice(["1", "2", "3"], p=[0.3, 0.6, 0.1]))
    if end.year < 2024:
        return str(rng.choice(["21", "2", "3"], p=[0.6, 0.3, 0.1]))
    return str(rng.choice(["30", "21", "2"], p=[0.6, 0.2, 0.2]))


def _tournaments(h: History, rng: np.random.Generator, countries, cities) -> pd.DataFrame:
    src = h.tournaments.sort_values(["end", "start", "tournament_id"]).reset_index(drop=True)
    n = len(src)
    country_ids = dict(zip(countries["abbr"], countries["id"], strict=True))
    city_rows: dict[str, list[tuple[str, str]]] = {}
    for cid, ccountry, cname in zip(cities["id"], cities["country"], cities["name"], strict=True):
        if cname != "?":
            city_rows.setdefault(ccountry, []).append((cid, cname))
    rule_names = {r[0]: r[1] for r in RULES}
    rule_cat = {r[0]: {"1": "renju", "2": "gomoku"}[r[2]] for r in RULES}
    # date encodings: only on old tournaments (as in the real database), one of each at least
    old = np.flatnonzero(src["end"].map(lambda d: d.year < 2001).to_numpy())
    rng.shuffle(old)
    encodings = ["month", "year", "day00", "end_only", "start_only", "reversed", "unknown"]
    share = {"month": 0.15, "year": 0.03, "day00": 0.05}
    chosen: dict[int, str] = {}
    pos = 0
    for enc in encodings:
        k = max(1, round(old.size * share.get(enc, 0.004))) if old.size >= 14 else 0
        for i in old[pos : pos + k]:
            chosen[int(i)] = enc
        pos += k
    rows = []
    for i in range(n):
        code = str(src.at[i, "country"])
        intl = bool(src.at[i, "international"])
        start = cast(dt.date, src.at[i, "start"])
        end = cast(dt.date, src.at[i, "end"])
        r = rng.random()
        if intl:
            kind = "online" if r >= 0.85 and end.year >= 2009 else "international"
        elif r < 0.04:
            kind = "team"
        elif r < 0.12 and end.year >= 2009:
            kind = "online"
        elif r < 0.2:
            kind = "rapid"
        else:
            kind = "national"
        own_cities = city_rows[country_ids[code]]
        city_ref, city_name = own_cities[rng.integers(len(own_cities))]
        country_name = COUNTRY_NAMES[code]
        label = {
            "international": f"{city_name} International Open",
            "online": "Online Renju Cup",
            "team": f"{country_name} Team Championship",
            "rapid": f"{city_name} Rapid Tournament",
            "national": (
                f"{country_name} Championship" if rng.random() < 0.3 else f"{city_name} Open"
            ),
        }[kind]
        rule_id = _rule_for(kind, end, rng)
        rated = rng.random() >= (0.3 if kind in ("rapid", "online") else 0.05)
        enc = chosen.get(i, "exact")
        iso = dt.date.isoformat
        start_text, end_text = iso(start), iso(end)
        year, month = str(start.year), str(start.month)
        if enc == "month":
            start_text = end_text = "0000-00-00"
            start = dt.date(end.year, end.month, 1)
            end = dt.date(end.year, end.month, calendar.monthrange(end.year, end.month)[1])
            year, month = str(end.year), str(end.month)
        elif enc == "year":
            start_text = end_text = "0000-00-00"
            year, month = str(end.year), "0"
            start, end = dt.date(end.year, 1, 1), dt.date(end.year, 12, 31)
        elif enc == "day00":
            start_text = f"{end.year:04d}-{end.month:02d}-00"
            start = dt.date(end.year, end.month, 1)
        elif enc == "end_only":
            start_text = "0000-00-00"
            start = end
        elif enc == "start_only":
            end_text = "0000-00-00"
            end = start
        elif enc == "reversed":
            start_text = iso(end + dt.timedelta(days=3))
            start = end
        known = enc != "unknown"
        if not known:
            start_text = end_text = "0000-00-00"
            year, month = "0", "0"
        rows.append(
            {
                "tournament_id": str(i + 1),
                "name": f"{label} {end.year}",
                "country": code,
                "country_name": country_name,
                "city": city_name,
                "start": start if known else None,
                "end": end if known else None,
                "rule_id": rule_id,
                "rule": rule_names[rule_id],
                "category": rule_cat[rule_id],
                "rated": rated,
                "type": 1 if kind == "team" else 0,
                "minutes": None,
                "mode": None,
                "source": "",
                "country_ref": country_ids[code],
                "city_ref": city_ref,
                "start_text": start_text,
                "end_text": end_text,
                "year": year,
                "month": month,
                "rated_text": "1" if rated else "0",
                "kind": kind,
                "history_id": src.at[i, "tournament_id"],
            }
        )
    return pd.DataFrame(rows)


def _facts(tournaments: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    rows = []
    for row in tournaments.itertuples(index=False):
        last: dt.date | None = cast(Any, row).end
        if last is None or last < WHR_START:
            continue
        if row.kind == "online":
            supervised = rng.random() < 0.5
            mode = "online_supervised" if supervised else "online"
            minutes = float(rng.choice([30, 45, 60]))
            note = (
                "online, supervised by video with a recognised referee"
                if supervised
                else "online, not supervised"
            )
        elif row.kind == "rapid":
            mode, minutes = "face_to_face", float(rng.choice([10, 15, 20, 25]))
            note = "rapid"
        else:
            mode = "face_to_face"
            minutes = float(rng.choice([30, 45, 60, 90, 120], p=[0.1, 0.15, 0.35, 0.3, 0.1]))
            note = ""
        rows.append(
            {"tournament_id": row.tournament_id, "minutes": minutes, "mode": mode, "note": note}
        )
    return pd.DataFrame(rows, columns=["tournament_id", "minutes", "mode", "note"])


def _moves_text(rng: np.random.Generator, counts: np.ndarray) -> list[str]:
    coords = np.array([f"{c}{r}" for c in _COLUMNS for r in range(1, 16)], dtype=object)
    drawn = coords[rng.integers(0, coords.size, size=int(counts.sum()))]
    bounds = np.concatenate(([0], np.cumsum(counts)))
    return [" ".join(drawn[bounds[i] : bounds[i + 1]]) for i in range(counts.size)]


def _games(h: History, rng, players, tournaments) -> pd.DataFrame:
    g = h.games
    n = len(g)
    to_internal = dict(zip(h.players["player_id"], players["id"], strict=True))
    to_public = dict(zip(h.players["player_id"], players["player_id"], strict=True))
    t_new = dict(zip(tournaments["history_id"], tournaments["tournament_id"], strict=True))
    t_end = dict(zip(tournaments["tournament_id"], tournaments["end"], strict=True))
    t_rule = dict(zip(tournaments["tournament_id"], tournaments["rule_id"], strict=True))
    tour = g["tournament_id"].map(t_new).to_numpy(dtype=object)
    black_ref = g["black"].map(to_internal).to_numpy(dtype=object)
    white_ref = g["white"].map(to_internal).to_numpy(dtype=object)
    black = g["black"].map(to_public).to_numpy(dtype=object)
    white = g["white"].map(to_public).to_numpy(dtype=object)
    result = g["result"].to_numpy(dtype=float).astype(object)
    bresult = np.array(
        [{1.0: "1", 0.5: "0.5", 0.0: "0"}[float(v)] for v in g["result"]], dtype=object
    )
    moves = np.minimum(rng.geometric(1 / 40, size=n) + 8, 200)
    no_record = rng.random(n) < 0.02
    moves[no_record] = 0
    unrated = rng.random(n) < 0.01
    forfeit = np.zeros(n, dtype=bool)
    info = np.full(n, None, dtype=object)
    rounds = g["round"].to_numpy(dtype=object).copy()
    everyone = np.arange(n)
    pos = np.flatnonzero(rng.random(n) < 0.03)
    info[pos] = rng.choice(np.array(_OTHER_NOTES, dtype=object), size=pos.size)
    # forfeits: no moves, a note, a result
    k = _count(n, 0.004, 2)
    pick = _pick(rng, everyone, k)
    forfeit[pick] = True
    moves[pick] = 0
    info[pick] = rng.choice(np.array(_FORFEIT_NOTES, dtype=object), size=pick.size)
    # missing results
    pick = _pick(rng, np.flatnonzero(~forfeit), _count(n, 0.005, 2))
    bresult[pick] = ""
    result[pick] = None
    # malformed results
    pick = _pick(rng, np.flatnonzero(~forfeit & (bresult != "")), _count(n, 0.0005, 1))
    bresult[pick] = rng.choice(np.array(["x", "2", "1-0"], dtype=object), size=pick.size)
    result[pick] = None
    # rounds not recorded
    pick = _pick(rng, everyone, _count(n, 0.01, 1))
    rounds[pick] = ""
    # self-games (a data-entry error: the same player on both sides)
    pick = _pick(rng, everyone, _count(n, 0.0005, 1))
    white_ref[pick] = black_ref[pick]
    white[pick] = black[pick]
    # dangling player references
    missing_player = str(int(players["id"].astype(int).max()) + 100000)
    pick = _pick(rng, everyone, _count(n, 0.0005, 1))
    black_ref[pick] = missing_player
    black[pick] = None
    tour_ref = tour.copy()
    date = np.array([t_end[t] for t in tour], dtype=object)
    # dangling tournament references
    missing_tournament = str(len(tournaments) + 100000)
    pick = _pick(rng, everyone, _count(n, 0.0003, 1))
    tour_ref[pick] = missing_tournament
    date[pick] = None
    move_text = np.array(_moves_text(rng, moves), dtype=object)
    no_element = no_record & (rng.random(n) < 0.5)
    move_text[no_element] = None
    games = pd.DataFrame(
        {
            "game_id": g["game_id"].to_numpy(dtype=object),
            "tournament_id": tour_ref,
            "round": rounds,
            "rule_id": [t_rule[t] for t in tour],
            "black": black,
            "white": white,
            "result": result,
            "date": date,
            "moves": moves.astype(np.int32),
            "unrated": unrated,
            "forfeit": False,  # RenjuNet has no forfeit mark: the note says it
            "bye": False,
            "colours_known": True,
            "handicap": None,  # RenjuNet records none
            "note": info,
            "source": "",
            "not_played": forfeit,  # the generator's truth: the note is a forfeit note
            "tournament_ref": tour_ref,
            "black_ref": black_ref,
            "white_ref": white_ref,
            "bresult": bresult,
            "move": move_text,
            "info": info,
        }
    )
    # a game entered twice (same id): both rows are kept by the reader
    if n >= 200:
        copy = games.iloc[[int(rng.integers(n))]]
        games = pd.concat([games, copy], ignore_index=True)
    return games


def generate(n_games: int, seed: int = 0, *, date: dt.date = dt.date(2026, 11, 30)) -> Database:
    """Generate a synthetic RenjuNet database of about ``n_games`` games.

    Parameters
    ----------
    n_games : int
        Games drawn from ``whr.research.synthetic.history`` (>= 1); one duplicated record is added when
        ``n_games >= 200``.
    seed : int
        Random seed; the same seed gives the same database.
    date : datetime.date
        The database's date; no game is later.

    Returns
    -------
    Database
    """
    h = history(n_games, seed=seed, end=date)
    rng = np.random.default_rng([seed, 20261130])
    countries = pd.DataFrame(
        {
            "id": [str(i + 1) for i in range(len(COUNTRIES))],
            "name": [COUNTRY_NAMES[c] for c in COUNTRIES],
            "abbr": list(COUNTRIES),
        }
    )
    city_rows = []
    for cid, code in zip(countries["id"], countries["abbr"], strict=True):
        for name in CITIES.get(code, [CAPITALS.get(code, "?")]):
            city_rows.append({"country": cid, "name": name})
    city_rows.append({"country": "1", "name": "?"})
    cities = pd.DataFrame(city_rows)
    cities.insert(0, "id", [str(i + 1) for i in range(len(cities))])
    rules = pd.DataFrame(RULES, columns=["id", "name", "category", "certified"])
    players = _players(h, rng, countries, cities)
    tournaments = _tournaments(h, rng, countries, cities)
    games = _games(h, rng, players, tournaments)
    facts = _facts(tournaments, rng)
    to_public = dict(zip(h.players["player_id"], players["player_id"], strict=True))
    truth = h.truth.assign(player=h.truth["player"].map(to_public).astype("str"))
    return Database(
        date=date,
        countries=countries,
        cities=cities,
        rules=rules,
        players=players,
        tournaments=tournaments,
        games=games,
        facts=facts,
        truth=truth,
        history=h,
    )


def _value(v: Any) -> object:
    """None for a missing value (None, NaN, NA: pandas 3 stores missing strings as NaN)."""
    return None if v is None or (not isinstance(v, str) and pd.isna(v)) else v


def _attrs(pairs: list[tuple[str, object]]) -> str:
    kept = [(k, _value(v)) for k, v in pairs]
    return " ".join(f"{k}={quoteattr(str(v))}" for k, v in kept if v is not None)


def write_renjunet(db: Database, path: str | Path) -> Path:
    """Write ``db`` as a RenjuNet XML database (UTF-8, one record per line).

    Parameters
    ----------
    db : Database
        From ``generate``.
    path : str or Path
        The file to write (parent directories are created).

    Returns
    -------
    Path
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(len(db.games))
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        w = out.write
        w('<?xml version="1.0" encoding="UTF-8"?>\n')
        w(f'<database version="10" date="{db.date.isoformat()}">\n')
        w(
            f"<!-- SYNTHETIC DATA generated by whr.research.synthetic_db (seed {db.history.seed}, "
            f"{len(db.games)} game records). Not real RenjuNet records: names, players, "
            "tournaments and results are invented. -->\n"
        )
        w("<countries>\n")
        for r in db.countries.itertuples(index=False):
            w(f"<country {_attrs([('id', r.id), ('name', r.name), ('abbr', r.abbr)])} />\n")
        w("</countries>\n<cities>\n")
        for r in db.cities.itertuples(index=False):
            w(f"<city {_attrs([('id', r.id), ('country', r.country), ('name', r.name)])} />\n")
        w("</cities>\n<rules>\n")
        for r in db.rules.itertuples(index=False):
            attrs = _attrs([("id", r.id), ("name", r.name), ("category", r.category)])
            w(f"<rule {attrs}>{escape(str(r.name))}</rule>\n")
        w("</rules>\n<openings>\n")
        for i in range(26):
            kind = "D" if i < 13 else "I"
            w(f'<opening id="{i + 1}" abbr="{kind}{i % 13 + 1}" name="opening {i + 1}" />\n')
        w("</openings>\n<players>\n")
        for r in db.players.itertuples(index=False):
            attrs = _attrs(
                [
                    ("id", r.id),
                    ("disp_id", r.player_id),
                    ("name", _value(r.given_name) or ""),
                    ("surname", r.surname),
                    ("country", r.country_ref),
                    ("city", r.city_ref),
                    ("gender", r.gender),
                    ("birth", r.birth),
                    ("native_name", r.native_name),
                ]
            )
            w(f"<player {attrs} />\n")
        w("</players>\n<tournaments>\n")
        for r in db.tournaments.itertuples(index=False):
            attrs = _attrs(
                [
                    ("id", r.tournament_id),
                    ("name", r.name),
                    ("country", r.country_ref),
                    ("city", r.city_ref),
                    ("year", r.year),
                    ("month", r.month),
                    ("start", r.start_text),
                    ("end", r.end_text),
                    ("rule", r.rule_id),
                    ("rated", r.rated_text),
                    ("type", r.type if r.type else None),
                ]
            )
            w(f"<tournament {attrs} />\n")
        w("</tournaments>\n<games>\n")
        publisher = rng.integers(1, 300, size=len(db.games))
        times = rng.integers(1, 90, size=(len(db.games), 2))
        for i, r in enumerate(db.games.itertuples(index=False)):
            attrs = _attrs(
                [
                    ("id", r.game_id),
                    ("publisher", int(publisher[i])),
                    ("tournament", r.tournament_ref),
                    ("round", r.round),
                    ("rule", r.rule_id),
                    ("black", r.black_ref),
                    ("white", r.white_ref),
                    ("bresult", r.bresult),
                    ("unrated", "1" if r.unrated else None),
                    ("btime", int(times[i, 0])),
                    ("wtime", int(times[i, 1])),
                ]
            )
            w(f"<game {attrs}>\n")
            if _value(r.move) is not None:
                w(f"<move>{r.move}</move>\n")
            if _value(r.info) is not None:
                w(f"<info>{escape(str(r.info))}</info>\n")
            w("</game>\n")
        w("</games>\n</database>\n")
    return path


def write_facts(db: Database, path: str | Path) -> Path:
    """Write the tournament facts (``tournament_id, minutes, mode, note``) as CSV."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    db.facts.to_csv(path, index=False)
    return path


def main(argv: list[str] | None = None) -> int:
    """Command line: write a synthetic database (and, with ``--facts``, its facts CSV)."""
    parser = argparse.ArgumentParser(
        prog="python -m whr.research.synthetic_db",
        description="Write a seeded SYNTHETIC RenjuNet-format database.",
    )
    parser.add_argument("--games", type=int, required=True, help="number of games (>= 1)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", type=Path, required=True, help="the .rif file to write")
    parser.add_argument("--facts", type=Path, help="also write the tournament facts CSV here")
    parser.add_argument(
        "--date", type=dt.date.fromisoformat, help="database date YYYY-MM-DD (default: from --out)"
    )
    args = parser.parse_args(argv)
    day = args.date
    if day is None:
        match = re.search(r"(\d{8})", args.out.name)
        day = dt.datetime.strptime(match.group(1), "%Y%m%d").date() if match else None
    db = generate(args.games, args.seed, **({"date": day} if day else {}))
    write_renjunet(db, args.out)
    if args.facts:
        write_facts(db, args.facts)
    print(f"wrote {args.out}: {len(db.games)} games, {len(db.players)} players, "
          f"{len(db.tournaments)} tournaments (synthetic, seed {args.seed})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
