"""``whatif.html``: the exact effect of hypothetical results on the list (issue 40).

The reader adds games (two players, a result, a day); the page script (``static/whatif.js``)
refits Whole-History Rating over every rated game of the list and those games in a Web Worker
(``static/whatif-solver.js``: the library's fit written again for the browser, warm-started from
today's fit) and shows what the list of the last of their days would say. What it refits is one
data file, ``data/whatif.<digest>.js`` (:data:`contract.WHATIF`, described in
``docs/data-dictionary.md``), which only this page loads, when it is opened. The same answer
without a browser: :func:`whr.whatif.what_if` (``rif-rating what-if``). See ``docs/site.md``.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
from markupsafe import Markup

from whr.params import FitParams
from whr.publish.site.contract import CFG, T_, WHATIF, WHATIF_PAGE, Text
from whr.publish.site.frame import Renderer, Site, js_json, long_date, script_json
from whr.tables import days_of, list_games

TEXTS: dict[str, Text] = {
    "loading": T_("Loading every rated game of the list…"),
    "not_loaded": T_("The list’s games could not be loaded: reload the page to try again."),
    "computing": T_("Refitting the whole history…"),
    "choose": T_("Choose both players of a game: the answer follows."),
    "heading": T_("The list of %(day)s would say"),
    "player": T_("Player"),
    "before": T_("Today"),
    "before_title": T_("The rating on today’s list"),
    "after": T_("Would be"),
    "after_title": T_("The rating on the list of %(day)s with these games"),
    "change": T_("Change"),
    "rank": T_("Rank"),
    "status": T_("Status"),
    "others": T_("Other players whose rating moves by at least 1 Elo: %(n)s."),
    "show_others": T_("Show them"),
    "took": T_("Refitted %(games)s games in %(seconds)s s."),
    "new_player": T_("New player %(n)s"),
    "a_new_player": T_("A new player, with no games"),
    "no_match": T_("No player found"),
    "themself": T_("Game %(n)s: a player cannot play themself."),
    "failed": T_("The refit failed: %(message)s"),
    "game": T_("Game %(n)s"),
}
"""The texts the what-if script writes, by the name it uses (their ids are in the catalogs)."""


def data(site: Site) -> str:
    """The what-if data file's JSON (:data:`contract.WHATIF`): the list's parameters, every
    rated game up to its day, day by day, and today's fit on every player-day (to 1e-8 Elo)."""
    view = site.view
    params = FitParams.from_dict(site.info.get("fit_params") or {})
    games = list_games(view.tables.games, view.as_of)
    number = pd.Index(site.players["player"].astype("str"))
    black = number.get_indexer(pd.Index(games["black"].astype("str")))
    white = number.get_indexer(pd.Index(games["white"].astype("str")))
    if (black < 0).any() or (white < 0).any():
        raise ValueError("a rated game up to the list's day has a player who is not listed")
    day = days_of(games["date"]).astype(np.int64)
    n_players = len(number)
    # player-days, day by day: a key per (day, player), the day in the high part
    keys = np.unique(np.concatenate([day * n_players + black, day * n_players + white]))
    pd_day, pd_player = np.divmod(keys, n_players)
    days, first, per_day = np.unique(pd_day, return_index=True, return_counts=True)
    at_black = np.searchsorted(keys, day * n_players + black)
    at_white = np.searchsorted(keys, day * n_players + white)
    day_of_game = np.searchsorted(days, day)
    local_black = at_black - first[day_of_game]
    local_white = at_white - first[day_of_game]
    order = np.lexsort((local_white, local_black, day_of_game))
    step = np.diff(pd_player, prepend=0)
    step[first] = pd_player[first]  # a day's first player: itself
    # today's fit on each player-day, in hundredths of Elo, from the player's previous one
    history = view.tables.history
    h_player = number.get_indexer(pd.Index(history["player"].astype("str")))
    h_day = days_of(history["date"]).astype(np.int64)
    kept = (h_player >= 0) & (h_day <= np.datetime64(view.as_of, "D").astype(np.int64))
    h_key = h_day[kept] * n_players + h_player[kept]
    rating = (
        pd.Series(history["rating"].to_numpy(np.float64)[kept], index=h_key)
        .reindex(keys)
        .to_numpy(np.float64)
    )
    if np.isnan(rating).any():
        raise ValueError("the rating history lacks a player-day of the rated games")
    # to 1e-8 Elo: the warm start is the maximum to within whr.fit's tolerance on the gradient
    # (a day's link to the next has a precision up to 1 / (w2 1 day); hundredths of Elo would
    # leave gradients a thousand times that tolerance, which the refit would have to remove)
    units = np.rint(rating * 1e8).astype(np.int64)
    by_player = np.lexsort((pd_day, pd_player))
    ordered = units[by_player]
    from_previous = np.diff(ordered, prepend=0)
    starts = np.ones(len(keys), bool)
    starts[1:] = pd_player[by_player][1:] != pd_player[by_player][:-1]
    from_previous[starts] = ordered[starts] - 1900 * 10**8  # from 1900
    delta = np.empty_like(from_previous)
    delta[by_player] = from_previous
    rules = view.rules
    return js_json(
        WHATIF.object(
            as_of=int(np.datetime64(view.as_of, "D").astype(np.int64)),
            w2=params.w2_elo2_per_day,
            virtual_games=params.virtual_games,
            virtual_rating=params.virtual_rating,
            tol_elo=params.tol_elo,
            tol_grad=params.tol_grad_per_natural_unit,
            max_iter=params.max_newton_iterations,
            established=rules.established_games,
            active_years=rules.active_years,
            days=np.diff(days, prepend=0).tolist(),
            players_per_day=per_day.tolist(),
            players=step.tolist(),
            games_per_day=np.bincount(day_of_game, minlength=len(days)).tolist(),
            games=np.column_stack(
                [
                    local_black[order],
                    local_white[order],
                    np.rint(games["result"].to_numpy(np.float64)[order] * 2).astype(np.int64),
                ]
            )
            .ravel()
            .tolist(),
            ratings=delta.tolist(),
        )
    )


def write(r: Renderer) -> None:
    """``whatif.html`` and its data file (which the page loads when it is opened)."""
    path = r.data("whatif", "whatif", data(r.site))
    settings = WHATIF_PAGE.object(
        data=path, texts={name: text.script() for name, text in TEXTS.items()}
    )
    r.render(
        "whatif.html",
        "whatif.html",
        settings=Markup(script_json(settings)),
        cfg=CFG.object(root=""),
        list_day=long_date(r.site.as_of),
        next_day=(r.site.as_of + dt.timedelta(days=1)).isoformat(),
        scripts=Markup(
            f"<script src={r.data_files['players']}></script>"
            "<script src=static/whatif-solver.js></script>"
        ),
    )
