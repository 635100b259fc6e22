"""The static HTML site of a snapshot: rendering only.

Every page is a Jinja2 template rendered with autoescaping (names come from outside and are
always text), from rows that :mod:`whr.lists` built. The site is self-contained: one shared CSS
file, one script for search/filter, one for the charts (SVG, written here), no network request;
all links are relative, so it works from ``file://`` and from any static host.

Pages (paths relative to the site directory)::

    index.html, inactive.html, provisional.html     the list on the as-of date, by status
    years.html, years/YYYY[-inactive|-provisional].html   the list on each December 31
    countries.html, countries/<code>.html           per-country lists on the as-of date
    gy1.html, years/YYYY-gy1.html                   the "Gy1 >= 10" list (lists.gy1_list)
    players.html, players.json                      every listed player by id (lists.players_index)
    p/<id>.html                                     one per listed player
    tournaments.html, tournaments/<id>.html         tournaments with rated games
    top.html, top_women.html, about.html
    sitemap.xml                                     only when a public base URL is given

File names come from ids only when they are plain (letters, digits, ``-``); any other id gets a
name derived from its sha256, so no id can reach outside the site directory.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit
from xml.sax.saxutils import escape as xml_escape

import jinja2
import numpy as np
import pandas as pd
from markupsafe import Markup, escape

from whr import lists
from whr.digest import text_sha256

HERE = Path(__file__).parent
_PLAIN = re.compile(r"[A-Za-z0-9-]{1,64}")
STATUS_TITLES = {
    "active": "Established active players",
    "inactive": "Established inactive players",
    "provisional": "Provisional players",
}
STATUS_LABELS = {
    "active": "established, active",
    "inactive": "established, inactive (no rated game in the last 5 years)",
    "provisional": "provisional (at most 9 rated games)",
}
MAX_TOP_SERIES = 20  # players drawn on the top-players chart


def slug(value: object) -> str:
    """A safe file name stem for an id: the id itself when plain, else ``_`` + 20 hex digits."""
    text = "" if value is None or (isinstance(value, float) and value != value) else str(value)
    if _PLAIN.fullmatch(text):
        return text
    return "_" + text_sha256(text)[:20]


def _script_json(value: Any) -> str:
    """JSON safe to embed in ``<script type="application/json">`` (no ``<``, ``>`` or ``&``)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["json"] = lambda v: Markup(_script_json(v))
    return env


def _num(value: Any, digits: int = 0) -> str:
    if value is None or pd.isna(value):
        return ""
    return f"{float(value):.{digits}f}"


def _int(value: Any) -> str:
    if value is None or pd.isna(value):
        return ""
    return str(int(value))


def _text(value: Any) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    return str(value)


def _epoch_days(values: Iterable[Any]) -> list[int]:
    days = (
        pd.to_datetime(pd.Series(list(values))).to_numpy().astype("datetime64[D]").astype(np.int64)
    )
    return days.tolist()


def _round_key(value: Any) -> tuple[int, float, str]:
    text = _text(value)
    try:
        return (0, float(text), text)
    except ValueError:
        return (1, 0.0, text)


class _Site:
    """Shared lookups for one rendering."""

    def __init__(
        self,
        target: Path,
        as_of: dt.date,
        tables: Mapping[str, pd.DataFrame],
        info: Mapping[str, Any],
    ):
        self.target = target
        self.as_of = as_of
        self.info = info
        # "Renju" or "Gomoku": the rule category the list was computed for
        self.game = str(info.get("parameters", {}).get("category", "renju")).capitalize()
        self.env = _environment()
        self.written: list[Path] = []
        players = tables["players"].drop_duplicates("player_id")
        self.names: dict[str, str] = {
            p: (_text(n) or p) for p, n in zip(players["player_id"], players["name"], strict=True)
        }
        self.cities = {
            p: _text(c) for p, c in zip(players["player_id"], players["city"], strict=True)
        }
        self.female = {
            p: bool(f)
            for p, f in zip(players["player_id"], players["female"], strict=True)
            if f is True
        }
        tours = tables["tournaments"].drop_duplicates("tournament_id")
        self.tournaments = tours.set_index("tournament_id")
        self.tour_names = {
            t: (_text(n) or t) for t, n in zip(tours["tournament_id"], tours["name"], strict=True)
        }
        ratings = tables["ratings"]
        self.listed = set(ratings["player"])
        self.years: list[dt.date] = []

    def name(self, player: Any) -> str:
        p = _text(player)
        return self.names.get(p, p)

    def render(self, path: str, template: str, **context: Any) -> None:
        root = "../" * path.count("/")
        html = self.env.get_template(template).render(
            root=root, as_of=self.as_of.isoformat(), years=self.years, game=self.game, **context
        )
        out = self.target / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(html, encoding="utf-8")
        self.written.append(out)


def _player_cell(root: str, player: str, name: Any, native_name: Any, female: Any) -> str:
    """One ``<td>`` cell linking to a player's page, as escaped HTML.

    The link text is the player's name (the id when the name is missing); the native name,
    when present, becomes the link's ``title``, and women (``female is True``) get ``class=f``.
    ``root`` is the relative path from the page to the site root (``""`` or ``"../"``...).
    """
    native = _text(native_name)
    attrs = (f' title="{escape(native)}"' if native else "") + (
        " class=f" if female is True else ""
    )
    return f"<td><a href={root}p/{slug(player)}.html{attrs}>{escape(_text(name) or player)}</a>"


def _list_rows(
    frame: pd.DataFrame, root: str, rank_column: str = "rank", world: bool = False
) -> Markup:
    """The table rows of a RATINGS frame (already in list order), as escaped HTML.

    Rows are assembled here rather than in a template loop because a list can have 8,000 rows
    and there are dozens of lists: every text value goes through ``markupsafe.escape``, ids
    through :func:`slug` (plain characters only), numbers are formatted.
    """
    if frame.empty:
        return Markup("")
    c = {name: frame[name].tolist() for name in frame.columns}
    out = []
    for i, player in enumerate(c["player"]):
        out.append(
            f"<tr><td>{_int(c[rank_column][i])}"
            + (f"<td>{_int(c['rank'][i])}" if world else "")
            + _player_cell(root, player, c["name"][i], c["native_name"][i], c["female"][i])
            + f"<td>{c['rating'][i]:.0f}<td>{c['uncertainty'][i]:.0f}"
            f"<td>{c['gy1'][i]}<td>{c['gy2'][i]}<td>{c['gy5'][i]}"
            f"<td>{escape(_text(c['country'][i]))}<td>{_int(c['birth_year'][i])}\n"
        )
    return Markup("".join(out))


def _country_options(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [
        {
            "code": c.country,
            "name": _text(c.country_name) or c.country,
            "slug": slug(c.country),
            "n": c.players,
            "active": c.active,
        }
        for c in lists.countries(frame).itertuples(index=False)
    ]


LIST_TABS = ("active", "gy1", "inactive", "provisional")  # tab order on list pages
GY1_TITLE = f"Active players with at least {lists.GY1_GAMES} rated games in the last year"


def _write_lists(
    site: _Site, frame: pd.DataFrame, day: dt.date, base: str, year: dt.date | None
) -> None:
    """The four pages of one list (``base`` is the active page's path without .html).

    Active, "Gy1 ≥ 10" (:func:`whr.lists.gy1_list`), inactive and provisional players.
    """
    gy1 = lists.gy1_list(frame)
    counts = {s: int((frame["status"] == s).sum()) for s in lists.STATUSES}
    counts["gy1"] = len(gy1)
    counts["players"] = len(frame)
    counts["games"] = int(frame["games"].sum()) // 2  # each rated game has two players
    countries = _country_options(frame)
    if base == "index":  # the current list: index.html, gy1.html, inactive.html, ...
        tabs = {s: ("index.html" if s == "active" else f"{s}.html") for s in LIST_TABS}
    else:
        tabs = {s: (f"{base}.html" if s == "active" else f"{base}-{s}.html") for s in LIST_TABS}
    for tab in LIST_TABS:
        path = tabs[tab]
        root = "../" * path.count("/")
        if tab == "gy1":
            title = GY1_TITLE
            rows = _list_rows(gy1, root, "gy1_rank", world=True)
            n_rows = len(gy1)
        else:
            part = frame.loc[frame["status"] == tab]
            title = STATUS_TITLES[tab]
            rows = _list_rows(part, root)
            n_rows = len(part)
        site.render(
            path,
            "list.html",
            title=title + (f" on {day.isoformat()}" if year else ""),
            status=tab,
            day=day.isoformat(),
            year=year.isoformat() if year else None,
            rows=rows,
            n_rows=n_rows,
            counts=counts,
            tabs={s: Path(p).name for s, p in tabs.items()},
            countries=countries,
            show_world=(tab == "gy1"),
            is_home=(base == "index" and tab == "active"),
        )


def _write_countries(
    site: _Site, ratings: pd.DataFrame, year_end: Mapping[dt.date, pd.DataFrame]
) -> None:
    """``countries.html`` and one page per country: its four lists on D, links to its
    year-end lists (the year-end page with its country filter set, ``#c=<code>``)."""
    options = _country_options(ratings)
    site.render("countries.html", "countries.html", countries=options)
    present: dict[str, list[int]] = {}
    for day, frame in year_end.items():
        for code in frame["country"].dropna().unique():
            present.setdefault(code, []).append(day.year)
    for c in options:
        part = lists.country_list(ratings, c["code"])
        gy1 = lists.gy1_list(part)
        groups = [
            (
                STATUS_TITLES[s],
                _list_rows(part.loc[part["status"] == s], "../", "country_rank", world=True),
                int((part["status"] == s).sum()),
            )
            for s in lists.STATUSES
        ]
        groups.insert(1, (GY1_TITLE, _list_rows(gy1, "../", "gy1_rank", world=True), len(gy1)))
        site.render(
            f"countries/{c['slug']}.html",
            "country.html",
            country=c,
            groups=groups,
            country_years=present.get(c["code"], []),
        )


def _game_link(game_id: str, text: str, linked: set[str]) -> str:
    """``text`` linked to the game's renju.net page when the game is in ``linked``."""
    if game_id not in linked:
        return text
    return f'<a href="{lists.renjunet_game_url(game_id)}" rel="nofollow">{text}</a>'


def _player_blocks(
    pg: pd.DataFrame, site: _Site, linked: set[str] | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Each player's rated games grouped by tournament, newest first; ``rows`` is escaped HTML.

    Results of the games in ``linked`` (RenjuNet ids) link to their renju.net pages.
    """
    linked = linked or set()
    if pg.empty:
        return {}
    frame = pg.assign(_t=pg["tournament_id"].fillna(""))
    players = frame["player"].tolist()
    tids = frame["_t"].tolist()
    days = [d.item().isoformat() for d in frame["day"].to_numpy().astype("datetime64[D]")]
    rounds = [_text(r) for r in frame["round"].tolist()]
    colours = frame["colour"].tolist()
    scores = frame["score"].tolist()
    opponents = frame["opponent"].tolist()
    ratings = frame["rating"].tolist()
    opp_ratings = frame["opponent_rating"].tolist()
    game_ids = frame["game_id"].tolist()
    result = {1.0: ("w", "Win"), 0.5: ("d", "Draw"), 0.0: ("l", "Loss")}
    colour_text = {"black": "Black", "white": "White"}
    links: dict[str, str] = {}  # opponent -> escaped link

    def link(player: str) -> str:
        html = links.get(player)
        if html is None:
            html = links[player] = f"<a href={slug(player)}.html>{escape(site.name(player))}</a>"
        return html

    out: dict[str, list[dict[str, Any]]] = {}
    start = 0
    n = len(players)
    while start < n:
        player = players[start]
        end = start
        blocks: dict[str, list[tuple[str, tuple[int, float, str], str, str]]] = {}
        while end < n and players[end] == player:
            row = (
                f"<tr><td>{days[end]}<td>{escape(rounds[end])}<td>{colour_text[colours[end]]}"
                f"<td class={result[scores[end]][0]}>"
                f"{_game_link(game_ids[end], result[scores[end]][1], linked)}"
                f"<td>{link(opponents[end])}<td>{_num(opp_ratings[end])}\n"
            )
            blocks.setdefault(tids[end], []).append(
                (days[end], _round_key(rounds[end]), row, _num(ratings[end]))
            )
            end += 1
        done = []
        for t, games in blocks.items():
            games.sort(key=lambda g: (g[0], g[1]))
            done.append(
                {
                    "tid": t,
                    "slug": slug(t),
                    "name": site.tour_names.get(t, t or "(no tournament)"),
                    "first": games[0][0],
                    "last": games[-1][0],
                    "rating": games[-1][3],
                    "rows": Markup("".join(g[2] for g in games)),
                }
            )
        out[player] = sorted(done, key=lambda b: (b["last"], b["tid"]), reverse=True)
        start = end
    return out


def _linked(games: pd.DataFrame, game_links: bool) -> set[str]:
    """The ids of the games whose results link to renju.net (none unless ``game_links``)."""
    if not game_links or games.empty:
        return set()
    return set(games["game_id"].astype("str")[lists.renjunet_games(games)])


def _write_players(
    site: _Site,
    ratings: pd.DataFrame,
    history: pd.DataFrame,
    games: pd.DataFrame,
    linked: set[str] | None = None,
) -> None:
    pg = lists.player_games(games)
    blocks = _player_blocks(pg, site, linked)
    h = history.sort_values(["player", "date"], kind="stable")
    h_players = h["player"].to_numpy(object)
    h_days = _epoch_days(h["date"]) if len(h) else []
    h_rating = np.round(h["rating"].to_numpy(float), 1).tolist()
    h_unc = np.round(h["uncertainty"].to_numpy(float), 1).tolist()
    bounds: dict[str, tuple[int, int]] = {}
    if len(h_players):
        uniq, first = np.unique(h_players, return_index=True)
        last = np.append(first[1:], len(h_players))
        order = np.argsort(first)
        uniq, first, last = uniq[order], first[order], np.append(first[order][1:], len(h_players))
        bounds = {p: (int(a), int(b)) for p, a, b in zip(uniq, first, last, strict=True)}
    list_day = (site.as_of - dt.date(1970, 1, 1)).days
    for r in ratings.itertuples(index=False):
        a, b = bounds.get(r.player, (0, 0))
        series: dict[str, Any] = {
            "name": _text(r.name) or r.player,
            "t": h_days[a:b],
            "r": h_rating[a:b],
            "u": h_unc[a:b],
        }
        if b > a and h_days[b - 1] < list_day:  # from the last rating day to the list date
            series["now"] = [list_day, round(float(r.rating), 1), round(float(r.uncertainty), 1)]
        chart = {"series": [series]}
        city = site.cities.get(r.player, "")
        site.render(
            f"p/{slug(r.player)}.html",
            "player.html",
            p={
                "id": r.player,
                "name": _text(r.name) or r.player,
                "native": _text(r.native_name),
                "female": r.female is True,
                "country": _text(r.country),
                "country_name": _text(r.country_name),
                "country_slug": slug(r.country) if _text(r.country) else "",
                "city": city,
                "by": _int(r.birth_year),
                "rating": _num(r.rating, 1),
                "unc": _num(r.uncertainty, 1),
                "rank": _int(r.rank),
                "country_rank": _int(r.country_rank),
                "status": r.status,
                "status_title": STATUS_LABELS[r.status],
                "games": r.games,
                "wins": r.wins,
                "draws": r.draws,
                "losses": r.losses,
                "gy1": r.gy1,
                "gy2": r.gy2,
                "gy5": r.gy5,
                "first": r.first_game.isoformat(),
                "last": r.last_game.isoformat(),
                "best": _num(r.best_rating, 1),
                "best_date": r.best_date.isoformat(),
            },
            chart=chart,
            blocks=blocks.get(r.player, []),
        )


def _write_tournaments(site: _Site, games: pd.DataFrame, linked: set[str] | None = None) -> None:
    linked = linked or set()
    tours = site.tournaments
    if games.empty:
        site.render("tournaments.html", "tournaments.html", rows=[])
        return
    g = games.assign(_t=games["tournament_id"].fillna(""))
    summary = g.groupby("_t", sort=True).agg(
        n=("game_id", "size"), first=("date", "min"), last=("date", "max")
    )
    facts = {r["tournament_id"]: r for r in tours.reset_index().to_dict(orient="records")}
    rows = []
    for t, n, first, last in zip(
        summary.index, summary["n"], summary["first"], summary["last"], strict=True
    ):
        f = facts.get(t, {})
        start = f.get("start") if isinstance(f.get("start"), dt.date) else first
        end = f.get("end") if isinstance(f.get("end"), dt.date) else last
        place = ", ".join(x for x in (_text(f.get("city")), _text(f.get("country_name"))) if x)
        rows.append(
            {
                "tid": t,
                "slug": slug(t),
                "name": site.tour_names.get(t, t or "(no tournament)"),
                "place": place or _text(f.get("country")),
                "n": int(n),
                "start": start.isoformat(),
                "end": end.isoformat(),
                "rule": _text(f.get("rule")),
            }
        )
    rows.sort(key=lambda x: (x["end"], x["start"], x["tid"]), reverse=True)
    site.render("tournaments.html", "tournaments.html", rows=rows)

    marks = {1.0: "1 : 0", 0.5: "½ : ½", 0.0: "0 : 1"}
    by_t: dict[str, list[tuple[Any, ...]]] = {}
    for gid, t, rnd, black, white, res, br, wr in zip(
        g["game_id"],
        g["_t"],
        g["round"],
        g["black"],
        g["white"],
        g["result"],
        g["black_rating"],
        g["white_rating"],
        strict=True,
    ):
        by_t.setdefault(t, []).append((_text(rnd), gid, black, white, res, br, wr))
    links: dict[str, str] = {}

    def link(player: str) -> str:
        html = links.get(player)
        if html is None:
            html = links[player] = (
                f"<a href=../p/{slug(player)}.html>{escape(site.name(player))}</a>"
            )
        return html

    for row in rows:
        rounds: dict[str, list[tuple[tuple[float, float], str]]] = {}
        for rnd, gid, black, white, res, br, wr in by_t[row["tid"]]:
            html = (
                f"<tr><td>{link(black)}<td>{_num(br)}"
                f"<td class=res>{_game_link(gid, marks[res], linked)}"
                f"<td>{_num(wr)}<td>{link(white)}\n"
            )
            rounds.setdefault(rnd, []).append(((-max(br, wr), -min(br, wr)), html))
        ordered = [
            (rnd, Markup("".join(h for _, h in sorted(rounds[rnd], key=lambda x: x[0]))))
            for rnd in sorted(rounds, key=_round_key)
        ]
        site.render(f"tournaments/{row['slug']}.html", "tournament.html", t=row, rounds=ordered)


def _write_top(
    site: _Site,
    ratings: pd.DataFrame,
    year_end: Mapping[dt.date, pd.DataFrame],
    history: pd.DataFrame,
    women: bool = False,
) -> None:
    all_lists = {site.as_of: ratings, **dict(year_end)}
    if women:
        all_lists = {d: lists.women(f) for d, f in all_lists.items()}
    chosen = lists.top_players(all_lists)[:MAX_TOP_SERIES]
    series = []
    h = history.loc[history["player"].isin(chosen)].sort_values(["player", "date"], kind="stable")
    for player in chosen:
        rows = h.loc[h["player"] == player]
        series.append(
            {
                "name": site.name(player),
                "href": f"p/{slug(player)}.html",
                "t": _epoch_days(rows["date"]) if len(rows) else [],
                "r": np.round(rows["rating"].to_numpy(float), 1).tolist(),
            }
        )
    five = lists.top_five(all_lists)
    table = []
    for day, part in five.groupby("list_date", sort=False):
        cells = [
            {
                "name": _text(x.name) or x.player,
                "slug": slug(x.player),
                "rating": _num(x.rating),
                "rank": _int(x.rank),
            }
            for x in part.itertuples(index=False)
        ]
        table.append({"day": day.isoformat(), "current": day == site.as_of, "cells": cells})
    site.render(
        "top_women.html" if women else "top.html",
        "top.html",
        chart={"series": series},
        table=table,
        women=women,
    )


def _players_rows(index: pd.DataFrame) -> Markup:
    """The rows of the players index (escaped HTML; see :func:`_list_rows` for why here)."""
    c = {name: index[name].tolist() for name in index.columns}
    out = []
    for i, player in enumerate(c["player"]):
        out.append(
            f"<tr><td>{escape(player)}"
            + _player_cell("", player, c["name"][i], c["native_name"][i], c["female"][i])
            + f"<td>{c['rating'][i]:.0f}<td>{c['uncertainty'][i]:.0f}<td>{c['games'][i]}"
            f"<td>{_int(c['rank'][i])}<td>{escape(c['status'][i])}"
            f"<td>{_int(c['birth_year'][i])}<td>{escape(_text(c['city'][i]))}"
            f"<td>{escape(_text(c['country'][i]))}\n"
        )
    return Markup("".join(out))


def players_json(index: pd.DataFrame) -> list[dict[str, Any]]:
    """``players.json``: one object per player of :func:`whr.lists.players_index`, in its order.

    Keys: ``id`` (the player id, a string: leading zeros kept), ``rank`` (int, or null unless
    established active), ``rating`` (published scale, 2 decimals), ``status``.
    """
    return [
        {
            "id": str(player),
            "rank": None if pd.isna(rank) else int(rank),
            "rating": round(float(rating), 2),
            "status": str(status),
        }
        for player, rank, rating, status in zip(
            index["player"], index["rank"], index["rating"], index["status"], strict=True
        )
    ]


def _write_players_index(site: _Site, ratings: pd.DataFrame, players: pd.DataFrame) -> None:
    index = lists.players_index(ratings, players)
    site.render(
        "players.html",
        "players.html",
        rows=_players_rows(index),
        n_rows=len(index),
        countries=_country_options(ratings),
    )
    out = site.target / "players.json"
    text = json.dumps(players_json(index), separators=(",", ":"), ensure_ascii=False)
    out.write_text(text + "\n", encoding="utf-8")
    site.written.append(out)


SITEMAP_MAX_URLS = 50_000  # per sitemap file (sitemaps.org protocol)


def _priority(path: str) -> str:
    """Sitemap priority of a page, after the RIF site's scheme (formats.md section 2.8)."""
    if "/" not in path:
        if path in ("index.html", "gy1.html", "inactive.html", "provisional.html"):
            return "1.0"
        return "0.9" if path != "about.html" else "0.5"
    folder = path.split("/", 1)[0]
    return {"years": "0.8", "countries": "0.5", "tournaments": "0.4", "p": "0.3"}.get(folder, "0.3")


def check_base_url(base_url: object) -> str:
    """The public address of the site directory, ending in ``/``; raises on anything else.

    Parameters
    ----------
    base_url : str
        An absolute ``http`` or ``https`` URL without query or fragment, e.g.
        ``"https://rating.example.org/"`` (where ``index.html`` is served).

    Returns
    -------
    str
        ``base_url`` with a trailing ``/``.
    """
    if not isinstance(base_url, str):
        raise TypeError(f"base_url must be a str, got {type(base_url).__name__}")
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(
            f"base_url must be an absolute http(s) URL without query or fragment, got {base_url!r}"
        )
    if any(ch.isspace() or ch in "<>\"'" for ch in base_url):
        raise ValueError(
            f"base_url must not contain spaces, quotes or angle brackets: {base_url!r}"
        )
    return base_url if base_url.endswith("/") else base_url + "/"


def _urlset(entries: list[tuple[str, str]], lastmod: str) -> str:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for loc, priority in entries:
        lines.append(
            f"<url><loc>{xml_escape(loc)}</loc><lastmod>{lastmod}</lastmod>"
            f"<changefreq>daily</changefreq><priority>{priority}</priority></url>"
        )
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def _write_sitemap(site: _Site, base_url: str) -> None:
    """``sitemap.xml`` of every HTML page (``lastmod`` is the list date, so a rerun of the same
    day writes the same file); above 50,000 pages, a sitemap index over ``sitemap-N.xml``."""
    pages = sorted(
        p.relative_to(site.target).as_posix() for p in site.written if p.suffix == ".html"
    )
    pages.sort(key=lambda path: -float(_priority(path)))  # stable: by priority, then path
    entries = [(base_url + quote(path), _priority(path)) for path in pages]
    lastmod = site.as_of.isoformat()
    chunks = [entries[i : i + SITEMAP_MAX_URLS] for i in range(0, len(entries), SITEMAP_MAX_URLS)]
    if len(chunks) <= 1:
        files = {"sitemap.xml": _urlset(entries, lastmod)}
    else:
        files = {f"sitemap-{i + 1}.xml": _urlset(c, lastmod) for i, c in enumerate(chunks)}
        index = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
            *(
                f"<sitemap><loc>{xml_escape(base_url + name)}</loc>"
                f"<lastmod>{lastmod}</lastmod></sitemap>"
                for name in files
            ),
            "</sitemapindex>",
        ]
        files["sitemap.xml"] = "\n".join(index) + "\n"
    for name, text in files.items():
        out = site.target / name
        out.write_text(text, encoding="utf-8")
        site.written.append(out)


def write_site(
    target: Path,
    as_of: dt.date,
    tables: Mapping[str, pd.DataFrame],
    year_end: Mapping[dt.date, pd.DataFrame],
    info: Mapping[str, Any],
    *,
    base_url: str | None = None,
    game_links: bool = False,
) -> list[Path]:
    """Render the whole site into ``target`` (created; must not exist).

    Parameters
    ----------
    target : pathlib.Path
        The site directory.
    as_of : datetime.date
        The list date of the snapshot.
    tables : mapping
        The snapshot tables from :func:`whr.publish.parquet.build_tables` (ratings, history,
        games, players, tournaments).
    year_end : mapping of datetime.date to pandas.DataFrame
        The year-end lists, newest first.
    info : mapping
        The manifest's facts (parameters, inputs, counts, versions) for the about page.
    base_url : str, optional
        The public address of the site directory (see :func:`check_base_url`); when given,
        ``sitemap.xml`` is written with absolute addresses under it. Without it, no sitemap
        (a sitemap needs absolute URLs).
    game_links : bool, default False
        Link the results of RenjuNet games (:func:`whr.lists.renjunet_games`) to their pages
        on renju.net, as the RIF site does. Off by default: a RenjuNet-format file of invented
        games (such as ``data/sample``) would otherwise link to unrelated real games.

    Returns
    -------
    list of pathlib.Path
        Every file written.
    """
    target = Path(target)
    if base_url is not None:
        base_url = check_base_url(base_url)
    target.mkdir(parents=True)
    (target / "static").mkdir()
    for asset in (HERE / "static").iterdir():  # copyfile: modes from the umask, not the package
        shutil.copyfile(asset, target / "static" / asset.name)
    site = _Site(target, as_of, tables, info)
    site.years = [d.year for d in year_end]
    ratings = tables["ratings"]
    _write_lists(site, ratings, as_of, "index", None)
    for day, frame in year_end.items():
        _write_lists(site, frame, day, f"years/{day.year}", day)
    site.render(
        "years.html",
        "years.html",
        rows=[
            {
                "year": day.year,
                "day": day.isoformat(),
                "active": int((f["status"] == "active").sum()),
                "listed": len(f),
                "first": {
                    "slug": slug(f["player"].iloc[0]),
                    "name": _text(f["name"].iloc[0]),
                    "rating": _num(f["rating"].iloc[0]),
                }
                if len(f) and f["rank"].iloc[0] is not pd.NA
                else None,
            }
            for day, f in year_end.items()
        ],
    )
    _write_countries(site, ratings, year_end)
    _write_players_index(site, ratings, tables["players"])
    linked = _linked(tables["games"], game_links)
    _write_players(site, ratings, tables["history"], tables["games"], linked)
    _write_tournaments(site, tables["games"], linked)
    _write_top(site, ratings, year_end, tables["history"])
    _write_top(site, ratings, year_end, tables["history"], women=True)
    site.render("about.html", "about.html", info=info, params=info.get("parameters", {}))
    if base_url is not None:
        _write_sitemap(site, base_url)
    return site.written + sorted((target / "static").iterdir())
