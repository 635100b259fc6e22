"""A process that holds a published tree's lock (for the lock tests).

Usage: python hold_lock.py OUT [--wait] [--seconds S] [--tag T]

Takes ``whr.publish.hold(OUT)`` (waiting for it with ``--wait``), appends T to ``OUT/order``
when ``--tag`` is given, prints ``held``, and keeps the lock S seconds (default 60).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from whr.publish import hold

parser = argparse.ArgumentParser()
parser.add_argument("out", type=Path)
parser.add_argument("--wait", action="store_true")
parser.add_argument("--seconds", type=float, default=60.0)
parser.add_argument("--tag")
args = parser.parse_args()
with hold(args.out, wait=args.wait):
    if args.tag:
        with open(args.out / "order", "a", encoding="utf-8") as handle:
            handle.write(args.tag + "\n")
    print("held", flush=True)
    time.sleep(args.seconds)
