"""Random small WHR problems and the solver's options for the solver's tests (a uniquely
named helper module)."""

from __future__ import annotations

from typing import Any

import numpy as np

from whr import core
from whr.params import FitParams

#: The virtual draws of the RIF rating rules 2021 in solver terms: two, against internal 0.
VIRTUAL = {"virtual_games": 2.0, "virtual_rating": 0.0}


def options(**overrides: Any) -> dict[str, Any]:
    """``core.solve``'s keyword arguments as ``whr.fit`` passes them by default, overridden."""
    p = FitParams()
    return {
        "tol_elo": p.tol_elo,
        "tol_grad": p.tol_grad_per_natural_unit,
        "max_iter": p.max_newton_iterations,
        "jitter": p.jitter_per_natural2,
        **overrides,
    }


def random_problem(
    seed: int, n_players: int = 7, n_games: int = 60, span: int = 40
) -> core.Problem:
    """A random problem: a few players, games on random days, all three results."""
    rng = np.random.default_rng(seed)
    black = rng.integers(0, n_players, n_games)
    white = (black + rng.integers(1, n_players, n_games)) % n_players
    day = rng.integers(0, span, n_games)
    score = rng.choice([0.0, 0.5, 1.0], n_games, p=[0.45, 0.1, 0.45])
    return core.build(
        black, white, day, score, n_players, w2=0.02, virtual_games=2.0, virtual_rating=0.1
    )
