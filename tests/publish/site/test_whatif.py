"""The what-if page (issue 40): in a real headless Chromium, its answers are a refit made here
with :func:`whr.fit` over the list's rated games (read with pyarrow from the archive entry) and
the hypothetical ones, on random sets of every kind the issue names, on the bundled sample's
list; the command line (``rif-rating what-if``) gives the same answers."""

from __future__ import annotations

import datetime as dt
import io
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import whr
import whr.lists
from tests.publish import support
from tests.publish.site.pages import (
    DESKTOP,
    PHONE,
    axe_violations,
    check_and_close,
    new_page,
    served,
)
from whr.publish.site import write
from whr.rules import default_directory, load_config

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "data" / "sample"
AS_OF = dt.date(2026, 11, 30)  # the README's list of the sample
BOUND = 0.01  # Elo: the bound between the page and whr.fit
Game = tuple[str, str, float, dt.date]  # Black, White, Black's score, day ("+k": a new player)


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    """The bundled sample's renju list of AS_OF, published (the ``out`` tree)."""
    data = whr.read_source(SAMPLE, as_of=AS_OF)
    selection = whr.select(data, AS_OF, config=load_config(default_directory()))
    fit = whr.fit(selection.rated, whr.FitParams())
    params = {"as_of": AS_OF.isoformat(), "category": "renju", "w2": 12.9, "virtual_games": 2}
    out = tmp_path_factory.mktemp("what-if-sample")
    support.publish_inputs(out, support.Inputs(data, selection, fit, params), AS_OF)
    return out


def table(out: Path, name: str) -> pd.DataFrame:
    """A table of the sample's archived list."""
    return pd.read_parquet(support.entry_of(out, AS_OF) / f"{name}.parquet")


@dataclass(frozen=True)
class Answer:
    """What the page drew: the list's day it reads, the players of the games (id: before,
    after, rank before and after, status before and after) and the other players it lists as
    moving by at least 1 Elo (id: before, after, rank before and after), unrounded (the cells'
    data-elo; rank 0: none, status 0 active, 1 inactive, 2 provisional, -1 not listed)."""

    on: str
    mine: dict[str, tuple[float | None, float, int, int, int, int]]
    others: dict[str, tuple[float, float, int, int]]
    moved: int


READ = """() => {
  const num = (td) => td.dataset.elo === undefined ? null : Number(td.dataset.elo);
  const rows = (id) => [...document.querySelectorAll(`#${id} tbody tr`)].map(tr => {
    const td = tr.querySelectorAll("td");
    return [tr.dataset.player, num(td[1]), num(td[2]), Number(td[4].dataset.before),
            Number(td[4].dataset.after), td[5] ? Number(td[5].dataset.before) : 0,
            td[5] ? Number(td[5].dataset.after) : 0];
  });
  return {on: document.querySelector("#whatif-answer h2 time").getAttribute("datetime"),
          mine: rows("whatif-players"), others: rows("whatif-others"),
          moved: Number(document.getElementById("whatif-moved").dataset.n)};
}"""


def address(games: list[Game]) -> str:
    """The page's address fragment for ``games`` (its own form: ids, ``+k``, the day)."""
    return "g=" + ";".join(f"{b},{w},{r:g},{d.isoformat()}" for b, w, r, d in games)


def ask(page, root: str, games: list[Game], n: int) -> Answer:
    """Open the what-if page with ``games`` in its address (a fresh load each time: ``n``)."""
    page.goto(f"{root}whatif.html?{n}#{address(games)}")
    page.wait_for_selector("#whatif-answer[data-answered]", timeout=60_000)
    got = page.evaluate(READ)
    return Answer(
        got["on"],
        {r[0]: tuple(r[1:]) for r in got["mine"]},
        {r[0]: (r[1], r[2], r[3], r[4]) for r in got["others"]},
        got["moved"],
    )


def random_sets(out: Path, seed: int = 40) -> list[tuple[str, list[Game]]]:
    """Sets of hypothetical games of every kind the issue names, 18 of each (108)."""
    rng = np.random.default_rng(seed)
    ratings = table(out, "ratings")
    games = table(out, "games")
    active = ratings.loc[ratings["status"] == "active", "player"].astype(str).to_numpy()
    inactive = ratings.loc[ratings["status"] == "inactive", "player"].astype(str).to_numpy()
    listed = ratings["player"].astype(str).to_numpy()
    assert len(active) >= 20 and len(inactive) >= 5
    days = pd.to_datetime(games["date"]).dt.date
    newest = max(days)
    next_day = AS_OF + dt.timedelta(days=1)

    def score() -> float:
        return float(rng.choice([0.0, 0.5, 1.0]))

    def pick(pool: np.ndarray, k: int) -> list[str]:
        return [str(x) for x in rng.choice(pool, size=k, replace=False)]

    sets: list[tuple[str, list[Game]]] = []
    for _ in range(18):
        a, b = pick(listed, 2)
        sets.append(("one game", [(a, b, score(), next_day)]))
        eight = pick(active, 16)
        day = next_day + dt.timedelta(days=int(rng.integers(0, 30)))
        sets.append(
            ("a round of eight", [(eight[2 * k], eight[2 * k + 1], score(), day) for k in range(8)])
        )
        ten = pick(active, 10)  # a round robin of ten, nine rounds on nine days
        event = []
        for r in range(9):
            circle = [ten[0], *np.roll(ten[1:], r)]
            for k in range(5):
                pair = (circle[k], circle[9 - k])
                black, white = pair if (r + k) % 2 else pair[::-1]
                event.append((black, white, score(), next_day + dt.timedelta(days=r)))
        sets.append(("a nine-round event", event))
        a, b = pick(active, 2)
        sets.append(("a new player", [("+1", a, score(), next_day), (b, "+1", score(), next_day),
                                      ("+2", "+1", score(), next_day + dt.timedelta(days=1))]))  # fmt: skip
        old, a = pick(inactive, 1)[0], pick(active, 1)[0]
        sets.append(
            (
                "an inactive player's return",
                [(old, a, score(), next_day), (a, old, score(), next_day)],
            )
        )
        a, b = pick(listed, 2)
        past = newest - dt.timedelta(days=int(rng.integers(1, 3 * 365)))
        sets.append(("a day before the list's newest games", [(a, b, score(), past)]))
    return sets


def the_list_of(
    both: pd.DataFrame, rating: pd.Series, day: dt.date, rules: dict
) -> tuple[pd.Series, pd.Series, pd.Series]:
    """Status and rank bounds on the list of ``day``, computed here from the games and the
    oracle's ratings (RIF rating rules, 2021, rule 10: provisional under the established
    games, inactive without a game in the last active years; ranks of the active players,
    highest rating first): each player's status, and the lowest and highest rank they can
    have with ratings known to within the bound (0: none)."""
    played = both[both["date"] <= day]
    sides = pd.concat([played[["black", "date"]].set_axis(["p", "d"], axis=1),
                       played[["white", "date"]].set_axis(["p", "d"], axis=1)])  # fmt: skip
    count, last = sides.groupby("p").size(), sides.groupby("p")["d"].max()
    cutoff = whr.lists.years_before(day, rules["active_years"])
    status = pd.Series(1, index=count.index)
    status[last >= cutoff] = 0
    status[count < rules["established_games"]] = 2
    active = rating.reindex(status.index[status == 0]).to_numpy()
    r = rating.reindex(status.index).to_numpy()
    high = 1 + (active[None, :] > r[:, None] + BOUND).sum(axis=1)
    low = (active[None, :] > r[:, None] - BOUND).sum(axis=1)  # itself not counted
    on = status.to_numpy() == 0
    return (
        status,
        pd.Series(np.where(on, high, 0), status.index),
        pd.Series(np.where(on, low, 0), status.index),
    )


@pytest.mark.slow
def test_the_page_answers_as_whr_fit_refits_on_108_random_sets(sample, browser):
    """Every set: each player of the games (before, after), every other player the page lists,
    and which others move by at least 1 Elo, against the oracle; the day read; the statuses a
    new player and an inactive player's return must get."""
    root = served(support.site_of(sample).parent) + "renju/"
    ratings = table(sample, "ratings").set_index("player")
    before = ratings["rating"].astype(float)
    rank_before = ratings["rank"].fillna(0).astype(int)  # the list's own ranks
    page = new_page(browser)
    worst, kinds, ranked = 0.0, {}, 0
    for n, (kind, games) in enumerate(random_sets(sample)):
        got = ask(page, root, games, n)
        expected, day = support.refit(sample, games)
        after = expected["rating"]
        both, _, manifest = support.with_games(sample, games)
        status, first, last = the_list_of(both, after, day, manifest["rules"])
        shown = {p: v[2:4] for p, v in got.mine.items()} | {p: v[2:] for p, v in got.others.items()}
        for p, (was, now) in shown.items():  # ranks, before (the list's) and after
            assert was == (0 if p.startswith("+") else rank_before[p]), (kind, p, was)
            assert first[p] <= now <= max(first[p], last[p]), (kind, p, now, first[p], last[p])
            ranked += now > 0
        for p, v in got.mine.items():
            assert v[5] == status[p], (kind, p, v[5], status[p])
        assert got.on == day.isoformat(), kind
        players = list(dict.fromkeys(p for g in games for p in g[:2]))
        assert sorted(got.mine) == sorted(players), kind
        for p, (was, now, *_) in got.mine.items():
            worst = max(worst, abs(now - after[p]))
            assert abs(now - after[p]) <= BOUND, (kind, p, now, after[p])
            if p.startswith("+"):
                assert was is None
            else:
                assert was is not None and abs(was - before[p]) <= BOUND, (kind, p)
        for p, (was, now, *_) in got.others.items():
            worst = max(worst, abs(now - after[p]))
            assert abs(now - after[p]) <= BOUND and abs(was - before[p]) <= BOUND, (kind, p)
        change = (after.reindex(before.index) - before).drop(players, errors="ignore").abs()
        surely = set(change.index[change >= 1 + BOUND])
        maybe = set(change.index[change >= 1 - BOUND])
        assert surely <= set(got.others) <= maybe, kind
        assert got.moved == len(got.others)
        statuses = {p: v[5] for p, v in got.mine.items()}  # 0 active, 1 inactive, 2 provisional
        if kind == "a new player":
            assert statuses["+1"] == statuses["+2"] == 2
        if kind == "an inactive player's return":
            old = games[0][0]
            assert got.mine[old][4] == 1 and statuses[old] in (0, 2), got.mine[old]
        kinds[kind] = kinds.get(kind, 0) + 1
    check_and_close(page)
    assert len(kinds) == 6 and sum(kinds.values()) >= 100, kinds
    assert worst <= BOUND and ranked > 500, ranked


def test_the_command_line_gives_the_pages_answers(sample, browser):
    """``rif-rating what-if --csv`` on the same tree and games: the same ratings (within the
    bound), the same players."""
    root = served(support.site_of(sample).parent) + "renju/"
    sets = random_sets(sample, seed=7)
    page = new_page(browser)
    for n, (kind, games) in enumerate(sets[1:6]):  # a round, an event, new players, ...
        got = ask(page, root, games, n)

        def id_of(p: str) -> str:
            return f"new:{p[1:]}" if p.startswith("+") else p

        given = [f"{id_of(b)} {id_of(w)} {r:g} {d.isoformat()}" for b, w, r, d in games]
        done = subprocess.run(
            [sys.executable, "-m", "flows.daily", "what-if", "--out", str(sample), "--csv",
             *(x for g in given for x in ("--game", g))],
            cwd=REPO, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        line = pd.read_csv(io.StringIO(done.stdout), dtype={"id": str}).set_index("id")
        for p, (_, now, *_) in got.mine.items():
            assert abs(line.loc[id_of(p), "after"] - now) <= BOUND, (kind, p)
        assert len(line) == len(got.mine)
    check_and_close(page)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_page_is_readable_at_both_sizes_and_passes_axe(sample, browser, size):
    """A player page's "What if…" link opens the page with that player filled in; an answer
    drawn; no sideways scroll; axe finds nothing."""
    site = support.site_of(sample)
    root = served(site.parent) + "renju/"
    page = new_page(browser, PHONE if size == "phone" else DESKTOP)
    ratings = table(sample, "ratings")
    top = ratings.sort_values("rating", ascending=False)["player"].astype(str).tolist()
    page.goto(f"{root}p/{top[0]}.html")
    page.click('main a[href*="whatif.html#g="]')
    page.wait_for_selector("#whatif-form:not([hidden])")
    black = page.locator("#whatif-games input[data-side=black]").first
    assert black.get_attribute("data-player") is not None and top[0] in black.input_value()
    white = page.locator("#whatif-games input[data-side=white]").first
    white.fill(top[1])  # found by id, as on the players page
    page.wait_for_selector("#whatif-suggest:not([hidden]) [role=option]")
    white.press("Enter")
    page.wait_for_selector("#whatif-answer[data-answered]")
    assert "#g=" in page.url and top[1] in page.url
    assert page.locator("#whatif-players tbody tr").count() == 2
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width
    assert axe_violations(page) == []
    check_and_close(page)


def test_an_edited_address_is_read_again_and_names_link_to_player_pages(sample, browser):
    """An address edited in place (the reader's, or a link followed on the page) gives the
    answer for its games, not the ones before; every player named links to their page."""
    root = served(support.site_of(sample).parent) + "renju/"
    ratings = table(sample, "ratings")
    top = ratings.sort_values("rating", ascending=False)["player"].astype(str).tolist()
    page = new_page(browser)
    page.goto(f"{root}whatif.html#g={top[0]},{top[1]},1")
    page.wait_for_selector("#whatif-answer[data-answered='1']")
    page.evaluate(f"() => {{ location.hash = 'g={top[2]},{top[3]},0;+1,{top[4]},0.5'; }}")
    page.wait_for_selector("#whatif-answer[data-answered='2']")
    shown = page.eval_on_selector_all(
        "#whatif-players tbody tr", "rs => rs.map(r => r.dataset.player)"
    )
    assert sorted(shown) == sorted([top[2], top[3], "+1", top[4]])
    assert page.locator("#whatif-games li.game").count() == 2
    assert page.locator("#whatif-games select.result").first.input_value() == "0"
    links = page.eval_on_selector_all("#whatif-answer a[href]", "as => as.map(a => a.href)")
    assert len(links) >= 3
    for href in links:  # each opens a page of the site (not a path beside the list's)
        assert page.request.get(href).status == 200, href
    check_and_close(page)


@pytest.mark.parametrize("damage", ["missing", "cut short"])
def test_without_its_data_file_the_page_says_so(sample, browser, tmp_path, damage):
    """A data file that does not load (a copy of the site without it, or with it cut in half
    as a broken transfer leaves it): the page says the list's games could not be loaded,
    instead of saying it is loading them for ever."""
    copy = tmp_path / "renju"
    shutil.copytree(support.site_of(sample), copy)
    (data,) = (copy / "data").glob("whatif.*.js")
    if damage == "missing":
        data.unlink()
    else:
        data.write_bytes(data.read_bytes()[: data.stat().st_size // 2])
    page = new_page(browser)
    page.goto(f"{served(tmp_path)}renju/whatif.html#g=x,y,1")
    failed = page.wait_for_selector("#whatif-failed")
    assert "could not be loaded" in failed.inner_text()
    assert page.locator("#whatif-answer[data-answered]").count() == 0
    assert page.events["dialogs"] == [] and page.events["remote"] == []
    page.close()


@pytest.fixture(scope="module")
def rif_sized(tmp_path_factory) -> tuple[Path, pd.DataFrame, whr.FitParams]:
    """A RIF-sized list's site (120,000 synthetic games), its rated games and parameters."""
    data = support.source_data(120_000, seed=0, first_year=1989)
    as_of = max(data.games["date"])
    selection = whr.select(data, as_of, config=load_config(default_directory()))
    params = whr.FitParams(w2_elo2_per_day=12.9, virtual_games=2)
    fit = whr.fit(selection.rated, params)
    view = whr.lists.build(data, selection, fit).view
    site = tmp_path_factory.mktemp("what-if-rif") / "renju"
    info = {"parameters": {"category": "renju"}, "fit_params": params.as_dict()}
    write(site, view, info)
    return site, selection.rated, params


@pytest.mark.slow
def test_on_a_rif_sized_list_the_page_answers_as_whr_fit(rif_sized, browser):
    """A few sets on 120,000 rated games: one game, a nine-round event, a new player, a game
    long before the list's day; every player the page shows within the bound of whr.fit."""
    site, rated, params = rif_sized
    assert len(rated) > 100_000
    root = served(site.parent) + site.name + "/"
    as_of = max(pd.to_datetime(rated["date"]).dt.date)
    last = pd.concat([rated[["black", "date"]].set_axis(["p", "d"], axis=1),
                      rated[["white", "date"]].set_axis(["p", "d"], axis=1)]).groupby("p")["d"].max()  # fmt: skip
    recent = last[pd.to_datetime(last).dt.date > as_of - dt.timedelta(days=365)].index
    rng = np.random.default_rng(4)
    ten = [str(p) for p in rng.choice(recent, 12, replace=False)]
    next_day = as_of + dt.timedelta(days=1)
    event = [
        (ten[k], ten[(k + r + 1) % 10], float((k + r) % 3) / 2, next_day + dt.timedelta(days=r))
        for r in range(9)
        for k in range(5)
    ]
    sets = [
        [(ten[10], ten[11], 1.0, next_day)],
        event,
        [("+1", ten[0], 0.5, next_day)],
        [(ten[1], ten[2], 0.0, as_of - dt.timedelta(days=900))],
    ]
    page, others = new_page(browser), 0
    for n, games in enumerate(sets):
        got = ask(page, root, games, n)
        both, day = support.joined(rated, games, as_of)
        after = whr.fit(both, params).rating_on(day).set_index("player")["rating"]
        assert got.on == day.isoformat()
        shown = {p: v[1] for p, v in got.mine.items()} | {p: v[1] for p, v in got.others.items()}
        others += len(got.others)
        for p, now in shown.items():
            assert abs(now - after[p]) <= BOUND, (n, p, now, after[p])
    assert others > 20  # the event moves other players: they are checked too
    check_and_close(page)
