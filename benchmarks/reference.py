"""Run the reference WHR implementation (PyPI ``whr``, C++) in its own virtual environment.

The reference also imports as ``whr``, so it never runs in the project's interpreter: it runs in
a subprocess of a separate venv whose interpreter is given by ``--python`` or
``$WHR_REFERENCE_PYTHON`` (for example ``python3 -m venv /tmp/refwhr && /tmp/refwhr/bin/pip install
whr``), from an empty directory with ``-I`` so that the project's ``whr`` cannot shadow it.
Nothing of its code is copied here; games go in and ratings come out as JSON files.

Run as a script, it (re)makes the test data of ``tests/test_engine.py``::

    python3 benchmarks/reference.py            # writes tests/data/reference/

For each case: the synthetic history's games (``<case>_games.parquet``), the reference's rating
and uncertainty of every player-day after ``iterate_until_converge`` plus extra sweeps until the
largest change per sweep is negligible (``<case>_reference.parquet``, parameters and package
version in the Parquet metadata), and ``manifest.json`` with the same facts.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "reference"
DEFAULT_PYTHON = os.environ.get("WHR_REFERENCE_PYTHON")
"""The reference venv's interpreter: ``$WHR_REFERENCE_PYTHON`` unless ``--python`` names one."""

# Runs inside the reference venv. argv: input json, output json.
_RUNNER = r"""
import json, sys, time
import whr
src, dst = sys.argv[1], sys.argv[2]
with open(src) as fh:
    job = json.load(fh)
base = whr.Base(config={"w2": job["w2"], "virtual_games": job["virtual_games"]})
t0 = time.perf_counter()
base.create_games(job["games"])
t1 = time.perf_counter()
sweeps = base.iterate_until_converge(False) if job["until_converge"] else 0
t2 = time.perf_counter()
def snapshot():
    return {name: rows for name, rows in base.get_ordered_ratings()}
extra = job["extra_sweeps"]
last_change = None
if extra:
    before = snapshot()
    base.iterate(extra)
    after = snapshot()
    last_change = max(
        abs(a[1] - b[1]) for name in after for a, b in zip(after[name], before[name])
    )
    # one more sweep: how much does a single sweep still move a rating?
    base.iterate(1)
    again = snapshot()
    last_change = max(
        abs(a[1] - b[1]) for name in again for a, b in zip(again[name], after[name])
    )
t3 = time.perf_counter()
out = {
    "version": whr.__version__,
    "sweeps": sweeps,
    "extra_sweeps": extra,
    "last_sweep_change_elo": last_change,
    "seconds_create": t1 - t0,
    "seconds_converge": t2 - t1,
    "seconds_extra": t3 - t2,
    "ratings": [[name, rows] for name, rows in base.get_ordered_ratings()],
}
with open(dst, "w") as fh:
    json.dump(out, fh)
"""


@dataclass(frozen=True)
class ReferenceRun:
    """What the reference produced.

    Attributes
    ----------
    ratings : pandas.DataFrame
        ``player`` (str), ``date`` (date), ``rating`` (published scale: reference Elo + 1900),
        ``uncertainty`` (Elo), sorted by player and date.
    version : str
        The reference package's version.
    sweeps : int
        Sweeps ``iterate_until_converge`` took.
    seconds_create, seconds_converge, seconds_extra : float
        Wall time of loading the games, of ``iterate_until_converge``, and of the extra sweeps.
    last_sweep_change_elo : float or None
        Largest rating change made by one more sweep at the end (Elo): how converged it is.
    """

    ratings: pd.DataFrame
    version: str
    sweeps: int
    seconds_create: float
    seconds_converge: float
    seconds_extra: float
    last_sweep_change_elo: float | None


def available(python: str | None = DEFAULT_PYTHON) -> bool:
    """Whether the reference venv's interpreter is given and exists."""
    return python is not None and Path(python).is_file()


def run(
    games: pd.DataFrame,
    *,
    w2: float,
    virtual_games: int = 2,
    extra_sweeps: int = 0,
    until_converge: bool = True,
    python: str = DEFAULT_PYTHON,
    timeout: float = 7200.0,
) -> ReferenceRun:
    """Fit ``games`` (columns black, white, result, date) with the reference in a subprocess.

    Parameters
    ----------
    games : pandas.DataFrame
    w2 : float
        Elo^2 per day.
    virtual_games : int
    extra_sweeps : int
        Sweeps (``Base.iterate``) after ``iterate_until_converge``, for tighter convergence.
    until_converge : bool
        Run ``iterate_until_converge`` first.
    python : str
        The reference venv's interpreter.
    timeout : float
        Seconds.
    """
    if not available(python):
        raise FileNotFoundError(f"reference interpreter not found: {python}")
    winner = np.where(games["result"] == 1.0, "B", np.where(games["result"] == 0.0, "W", "D"))
    day = np.array([(d - date(1970, 1, 1)).days for d in games["date"]], dtype=np.int64)
    job = {
        "w2": float(w2),
        "virtual_games": int(virtual_games),
        "until_converge": bool(until_converge),
        "extra_sweeps": int(extra_sweeps),
        "games": [
            [b, w, x, int(t)]
            for b, w, x, t in zip(
                games["black"].astype(str), games["white"].astype(str), winner, day, strict=True
            )
        ],
    }
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp, "in.json"), Path(tmp, "out.json")
        src.write_text(json.dumps(job))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        subprocess.run(
            [python, "-I", "-c", _RUNNER, str(src), str(dst)],
            cwd=tmp,
            env=env,
            check=True,
            timeout=timeout,
        )
        out = json.loads(dst.read_text())
    rows = [(name, t, elo, sd) for name, days in out["ratings"] for t, elo, sd in days]
    frame = pd.DataFrame(rows, columns=["player", "day", "elo", "uncertainty"])
    ratings = pd.DataFrame(
        {
            "player": frame["player"].astype("str"),
            "date": pa.array(frame["day"].to_numpy(np.int32)).cast(pa.date32()).to_pandas(),
            "rating": frame["elo"] + 1900.0,
            "uncertainty": frame["uncertainty"],
        }
    )
    ratings = ratings.sort_values(["player", "date"], ignore_index=True)
    return ReferenceRun(
        ratings=ratings,
        version=out["version"],
        sweeps=int(out["sweeps"]),
        seconds_create=out["seconds_create"],
        seconds_converge=out["seconds_converge"],
        seconds_extra=out["seconds_extra"],
        last_sweep_change_elo=out["last_sweep_change_elo"],
    )


#: The stored cases: name -> (n_games, seed, w2 of the fit in Elo^2/day).
CASES = {
    "small_w2_12.9": (4000, 101, 12.9),
    "medium_w2_19.3": (8000, 102, 19.3),
}

REFERENCE_SCHEMA = pa.schema(
    [
        pa.field("player", pa.string(), nullable=False),
        pa.field("date", pa.date32(), nullable=False),
        pa.field("rating", pa.float64(), nullable=False),  # published scale (reference + 1900)
        pa.field("uncertainty", pa.float64(), nullable=False),  # Elo
    ]
)
GAMES_SCHEMA = pa.schema(
    [
        pa.field("black", pa.string(), nullable=False),
        pa.field("white", pa.string(), nullable=False),
        pa.field("result", pa.float64(), nullable=False),
        pa.field("date", pa.date32(), nullable=False),
    ]
)


def make_test_data(python: str = DEFAULT_PYTHON, extra_sweeps: int = 2000) -> dict:
    """Write the reference test data to ``tests/data/reference/``; return the manifest."""
    sys.path.insert(0, str(ROOT))
    from whr.research.synthetic import history

    OUT.mkdir(parents=True, exist_ok=True)
    manifest: dict = {
        "about": "Outputs of the reference WHR implementation (PyPI 'whr', C++) on seeded "
        "synthetic histories, made by benchmarks/reference.py; ratings on the published scale "
        "(reference Elo + 1900), uncertainties in Elo.",
        "cases": {},
    }
    for name, (n_games, seed, w2) in CASES.items():
        games = history(n_games, seed=seed).games[["black", "white", "result", "date"]]
        res = run(games, w2=w2, virtual_games=2, extra_sweeps=extra_sweeps, python=python)
        meta = {
            "reference_package": "whr",
            "reference_version": res.version,
            "w2_elo2_per_day": w2,
            "virtual_games": 2,
            "virtual_rating": 1900.0,
            "generator": f"whr.research.synthetic.history({n_games}, seed={seed})",
            "games": n_games,
            "player_days": len(res.ratings),
            "sweeps_until_converge": res.sweeps,
            "extra_sweeps": extra_sweeps,
            "last_sweep_change_elo": res.last_sweep_change_elo,
        }
        games_table = pa.Table.from_pandas(games, schema=GAMES_SCHEMA, preserve_index=False)
        pq.write_table(games_table, OUT / f"{name}_games.parquet")
        table = pa.Table.from_pandas(res.ratings, schema=REFERENCE_SCHEMA, preserve_index=False)
        table = table.replace_schema_metadata({b"whr_reference": json.dumps(meta).encode()})
        pq.write_table(table, OUT / f"{name}_reference.parquet")
        manifest["cases"][name] = meta
        print(f"{name}: {meta}")
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=DEFAULT_PYTHON, help="the reference venv's python")
    parser.add_argument("--extra-sweeps", type=int, default=2000)
    args = parser.parse_args(argv)
    if not available(args.python):
        parser.error(
            "give the reference venv's python with --python or $WHR_REFERENCE_PYTHON "
            f"(got {args.python!r})"
        )
    t = time.perf_counter()
    make_test_data(args.python, args.extra_sweeps)
    print(f"done in {time.perf_counter() - t:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
