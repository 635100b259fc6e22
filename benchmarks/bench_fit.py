"""Benchmark ``whr.fit`` on seeded synthetic histories, side by side with the reference.

Prints, for each size: games, players, player-days, Newton iterations, CG iterations, seconds and
peak memory of a cold fit; when the reference venv exists, the reference's
``iterate_until_converge`` time on the same games, the ratio, and how far apart the two answers
are. Then the next day's list: one more day of games between recently active players (100 at
RIF size, one per 1,200 games of history beyond), refitted warm from the previous fit, and the
change split of every listed player since the previous list (``whr.split_rating_change``),
timed against the cold fit.

Each measurement runs in its own subprocess (so peak memory is that fit's: reading the games
from Parquet plus fitting), on games generated once per size into a temporary directory::

    python3 benchmarks/bench_fit.py                      # rif and 1m, reference on both
    python3 benchmarks/bench_fit.py --sizes 10m --reference-sizes none

Sizes: rif = 120,000 games (~8,000 players), 1m = 1,000,000, 10m = 10,000,000, or a number of
games (``--sizes 3000 --reference-sizes none``: the test suite's tiny run).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SIZES = {"rif": 120_000, "1m": 1_000_000, "10m": 10_000_000}


def _peak_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux


def games_of(size: str) -> int:
    """The games of a size: a name of ``SIZES`` or a number."""
    return SIZES[size] if size in SIZES else int(size)


def generate(size: str, seed: int, out: Path) -> dict:
    """Write ``games.parquet`` of a synthetic history and ``extra_day.parquet``, the next day."""
    import numpy as np
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    from whr.research.synthetic import history

    t = time.perf_counter()
    h = history(games_of(size), seed=seed)
    seconds = time.perf_counter() - t
    games = h.games[["black", "white", "result", "date"]]
    pq.write_table(pa.Table.from_pandas(games, preserve_index=False), out / "games.parquet")
    info = {"generate_seconds": seconds, "generate_peak_gib": _peak_gib()}
    # the next day's games, between players active in the last two years
    n_new = max(100, games_of(size) // 1200)
    last = games["date"].max()
    recent = h.players[h.players["last_day"] >= last - timedelta(days=730)]["player_id"]
    rng = np.random.default_rng(seed + 1)
    pairs = rng.choice(recent.to_numpy(), size=(n_new + n_new // 10 + 10, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]][:n_new]
    day = pd.DataFrame(
        {
            "black": pairs[:, 0],
            "white": pairs[:, 1],
            "result": rng.choice([0.0, 0.5, 1.0], len(pairs), p=[0.44, 0.12, 0.44]),
            "date": last + timedelta(days=1),
        }
    )
    pq.write_table(pa.Table.from_pandas(day, preserve_index=False), out / "extra_day.parquet")
    info["extra_games"] = len(day)
    return info


def measure(directory: Path, warm: bool, w2: float) -> dict:
    """Fit ``games.parquet`` cold (or warm: fit, then refit with ``extra_day.parquet`` and split
    every listed player's change between the two lists)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    import whr
    import whr.engine  # imported before timing: a one-off cost, not the fit's

    params = whr.FitParams(w2_elo2_per_day=w2)
    games = pq.read_table(directory / "games.parquet")
    t = time.perf_counter()
    fit = whr.fit(games, params)
    seconds = time.perf_counter() - t
    out = {
        "games": fit.n_games,
        "players": fit.n_players,
        "player_days": fit.n_player_days,
        "iterations": fit.iterations,
        "cg_iterations": fit.cg_iterations,
        "seconds": seconds,
        "peak_gib": _peak_gib(),
    }
    if warm:
        extra = pq.read_table(directory / "extra_day.parquet").cast(games.schema)
        more = pa.concat_tables([games, extra])
        t = time.perf_counter()
        fit2 = whr.fit(more, params, warm_start=fit)
        out["warm_seconds"] = time.perf_counter() - t
        out["warm_iterations"] = fit2.iterations
        out["warm_cg_iterations"] = fit2.cg_iterations
        t = time.perf_counter()
        cold2 = whr.fit(more, params)
        out["cold_refit_seconds"] = time.perf_counter() - t
        out["warm_vs_cold_max_diff_elo"] = float(abs(fit2.ratings_elo - cold2.ratings_elo).max())
        previous_as_of = pc.max(games.column("date")).as_py()
        as_of = pc.max(extra.column("date")).as_py()
        history = fit.history
        t = time.perf_counter()
        split = whr.split_rating_change(history, previous_as_of, fit2, as_of, more)
        out["split_seconds"] = time.perf_counter() - t
        t = time.perf_counter()
        whr.engine.build_problem(more, params)  # the part of the split that reads the games again
        out["split_read_games_seconds"] = time.perf_counter() - t
        known = split["rating_change"].notna()
        parts = split["change_own_games"] + split["change_others"]
        out["split_players"] = int(known.sum())
        out["split_own_nonzero"] = int((split["change_own_games"].abs() > 1e-6).sum())
        out["split_max_sum_error_elo"] = float(
            (parts[known] - split.loc[known, "rating_change"]).abs().max()
        )
    else:
        fit.history.to_parquet(directory / "ours.parquet")
    return out


def compare_reference(directory: Path, w2: float, python: str) -> dict:
    import numpy as np
    import pandas as pd
    import reference

    games = pd.read_parquet(directory / "games.parquet")
    res = reference.run(games, w2=w2, python=python)
    ours = pd.read_parquet(directory / "ours.parquet")
    both = ours.merge(res.ratings, on=["player", "date"], suffixes=("", "_ref"))
    return {
        "ref_version": res.version,
        "ref_sweeps": res.sweeps,
        "ref_seconds": res.seconds_converge,
        "ref_load_seconds": res.seconds_create,
        "max_diff_rating": float(np.abs(both["rating"] - both["rating_ref"]).max()),
        "max_diff_uncertainty": float(np.abs(both["uncertainty"] - both["uncertainty_ref"]).max()),
        "matched_player_days": len(both),
    }


def _child(mode: str, directory: Path, **kw) -> dict:
    """Run ``mode`` in a fresh interpreter; return its JSON."""
    args = [sys.executable, __file__, "--child", mode, "--dir", str(directory)]
    for key, value in kw.items():
        args += [f"--{key.replace('_', '-')}", str(value)]
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{mode} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    import reference

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="rif,1m", help="comma list of rif, 1m, 10m or numbers of games"
    )
    parser.add_argument("--reference-sizes", default="rif,1m", help="sizes to run the reference on")
    parser.add_argument("--reference-python", default=reference.DEFAULT_PYTHON)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--w2", type=float, default=12.9, help="Elo^2 per day")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--dir", help=argparse.SUPPRESS)
    parser.add_argument("--size", help=argparse.SUPPRESS)
    parser.add_argument("--warm", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        directory = Path(args.dir)
        if args.child == "generate":
            result = generate(args.size, args.seed, directory)
        elif args.child == "measure":
            result = measure(directory, bool(args.warm), args.w2)
        else:
            result = compare_reference(directory, args.w2, args.reference_python)
        print(json.dumps(result))
        return 0

    sizes = [s for s in args.sizes.split(",") if s]
    ref_sizes = {s for s in args.reference_sizes.split(",") if s and s != "none"}
    have_ref = reference.available(args.reference_python)
    print(f"# bench_fit: seed {args.seed}, w2 {args.w2} Elo^2/day, cpus {os.cpu_count()}")
    rows = []
    for size in sizes:
        if size not in SIZES and not size.isdigit():
            parser.error(f"unknown size {size!r}; choose from {sorted(SIZES)} or a number")
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            gen = _child("generate", d, size=size, seed=args.seed)
            row = {"size": size, **gen, **_child("measure", d, w2=args.w2)}
            warm = _child("measure", d, w2=args.w2, warm=1)
            row.update({k: v for k, v in warm.items() if k.startswith(("warm", "cold", "split"))})
            if have_ref and size in ref_sizes:
                row.update(_child("reference", d, w2=args.w2))
                row["ratio"] = row["ref_seconds"] / row["seconds"]
        rows.append(row)
        print(json.dumps(row))
    print()
    head = f"{'size':>5} {'games':>10} {'players':>8} {'pl-days':>9} {'it':>3} {'cg':>4} "
    head += f"{'seconds':>8} {'peak GiB':>8} {'ref s':>8} {'ratio':>6} {'max dR':>8} {'max dU':>8}"
    print(head)
    for r in rows:
        ref = (
            f"{r['ref_seconds']:8.2f} {r['ratio']:6.1f} {r['max_diff_rating']:8.1e} "
            f"{r['max_diff_uncertainty']:8.1e}"
            if "ratio" in r
            else f"{'-':>8} {'-':>6} {'-':>8} {'-':>8}"
        )
        print(
            f"{r['size']:>5} {r['games']:>10} {r['players']:>8} {r['player_days']:>9} "
            f"{r['iterations']:>3} {r['cg_iterations']:>4} {r['seconds']:8.2f} "
            f"{r['peak_gib']:8.2f} {ref}"
        )
    for r in rows:
        print(
            f"warm start ({r['size']} + {r['extra_games']} games on one new day): "
            f"{r['warm_seconds']:.3f} s, {r['warm_iterations']} iterations "
            f"({r['warm_cg_iterations']} CG); cold refit {r['cold_refit_seconds']:.3f} s; "
            f"max |warm - cold| {r['warm_vs_cold_max_diff_elo']:.1e} Elo"
        )
    for r in rows:
        print(
            f"change split ({r['size']}, {r['split_players']} players on both lists, "
            f"{r['split_own_nonzero']} with games of their own): {r['split_seconds']:.3f} s "
            f"= {r['split_seconds'] / r['cold_refit_seconds']:.2f} x a cold fit of the same games "
            f"(of which reading the games again {r['split_read_games_seconds']:.3f} s); "
            f"max |own + others - change| {r['split_max_sum_error_elo']:.1e} Elo"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
