"""Benchmark: many players with one game each, through the real command line.

The RIF's database has about 8,000 rated players; a database of 10^6 players who each played
one game (the report of issue 24: 169 MB, under every size cap) tests whether publishing stays in
proportion. This script writes such a RenjuNet database (``--players`` players, two per game,
``--per-tournament`` games per tournament, dated 1995-2020, every tournament rated), then runs

    python -m flows.daily --source DB --out OUT --as-of 2026-11-30 --category renju

under ``/usr/bin/time -v`` while sampling the resident memory of the whole process tree (the
run, its page workers, Prefect's temporary server) every 0.2 s, and prints: exit status and the
run's last lines, wall time, the largest process's peak (time -v's "Maximum resident set size"),
the tree's peak (a sum of PSS: pages the forked workers share are counted once), and the files
and bytes written under OUT.

Usage: python3 benchmarks/bench_players.py [--players 1000000] [--per-tournament 50]
       [--dir DIR] [--keep] [-- extra rif-rating options]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
AS_OF = "2026-11-30"


def write_database(path: Path, players: int, per_tournament: int) -> None:
    """A RenjuNet database: ``players`` players, ``players // 2`` games, each player in one."""
    games = players // 2
    tournaments = max(1, -(-games // per_tournament))
    with open(path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<database version="10" ')
        out.write(f'date="{AS_OF}">\n<countries>\n')
        for c in range(20):
            out.write(f'<country id="{c + 1}" name="Country {c + 1}" abbr="C{c + 1:02d}" />\n')
        out.write("</countries>\n<cities>\n")
        for c in range(20):
            out.write(f'<city id="{c + 1}" country="{c + 1}" name="City {c + 1}" />\n')
        out.write('</cities>\n<rules>\n<rule id="1" name="RIF" category="1" />\n</rules>\n')
        out.write("<openings></openings>\n<players>\n")
        lines = []
        for i in range(players):
            c = i % 20 + 1
            lines.append(
                f'<player id="{i + 1}" disp_id="{i + 1:07d}" name="Given{i}" '
                f'surname="Surname{i}" country="{c}" city="{c}" gender="{1 + i % 2}" '
                f'birth="{1950 + i % 50}-00-00" />\n'
            )
            if len(lines) == 100_000:
                out.write("".join(lines))
                lines = []
        out.write("".join(lines) + "</players>\n<tournaments>\n")
        for t in range(tournaments):
            year, day = 1995 + t * 26 // tournaments, 1 + t % 28
            out.write(
                f'<tournament id="{t + 1}" name="Tournament {t + 1}" country="{t % 20 + 1}" '
                f'city="{t % 20 + 1}" year="{year}" month="3" start="{year}-03-{day:02d}" '
                f'end="{year}-03-{day:02d}" rule="1" rated="1" type="0" />\n'
            )
        out.write("</tournaments>\n<games>\n")
        lines = []
        for g in range(games):
            result = ("1", "0", "0.5")[g % 3]
            lines.append(
                f'<game id="{g + 1}" tournament="{g // per_tournament + 1}" round="1" rule="1" '
                f'black="{2 * g + 1}" white="{2 * g + 2}" bresult="{result}">'
                "<move>h8 h9 j10 i9 g9 j9 i10 h10 g11 g10</move></game>\n"
            )
            if len(lines) == 100_000:
                out.write("".join(lines))
                lines = []
        out.write("".join(lines) + "</games>\n</database>\n")


def tree_pss_mb(root: int) -> float:
    """Memory of ``root`` and all its descendants, MB: the sum of each process's proportional
    set size (a page shared by forked processes is split among them, so the sum is what the
    machine gives the tree)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    members, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in members} - members
        grew = bool(more)
        members |= more
    total = 0
    for pid in members:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--per-tournament", type=int, default=50)
    parser.add_argument("--dir", type=Path, default=None, help="work directory (default: temp)")
    parser.add_argument("--keep", action="store_true", help="keep the database and OUT")
    args, extra = parser.parse_known_args()
    extra = [a for a in extra if a != "--"]
    work = args.dir or Path(tempfile.mkdtemp(prefix="bench-players-"))
    work.mkdir(parents=True, exist_ok=True)
    database = work / f"renjunet_v10_{AS_OF.replace('-', '')}.rif"
    out = work / "out"
    shutil.rmtree(out, ignore_errors=True)
    t = time.perf_counter()
    write_database(database, args.players, args.per_tournament)
    print(
        f"database: {args.players:,} players, {args.players // 2:,} games, "
        f"{database.stat().st_size / 1e6:.0f} MB, written in {time.perf_counter() - t:.0f} s"
    )
    command = [sys.executable, "-m", "flows.daily", "--source", str(database)]
    command += ["--out", str(out), "--as-of", AS_OF, "--category", "renju", *extra]
    env = {**os.environ, "PREFECT_HOME": str(work / "prefect")}
    t = time.perf_counter()
    run = subprocess.Popen(
        ["/usr/bin/time", "-v", *command],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    peak = [0.0]

    def sample() -> None:
        while run.poll() is None:
            peak[0] = max(peak[0], tree_pss_mb(run.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, stderr = run.communicate()
    wall = time.perf_counter() - t
    sampler.join()
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr)
    said = [
        line
        for line in (stdout + stderr).splitlines()
        if line.startswith("rif-rating:") or "Error" in line
    ]
    files = [p for p in out.rglob("*") if p.is_file()] if out.exists() else []
    print(f"exit status {run.returncode}; {wall:.0f} s")
    for line in said[-6:]:
        print(f"  {line[:300]}")
    print(
        f"largest process peak {int(rss.group(1)) / 1024 if rss else float('nan'):.0f} MB "
        f"(time -v); process tree peak {peak[0]:.0f} MB (sum of PSS, sampled)"
    )
    print(f"written: {len(files):,} files, {sum(p.stat().st_size for p in files) / 1e6:.0f} MB")
    if not args.keep and args.dir is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
