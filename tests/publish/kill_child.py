"""A publishing run that kills itself with SIGKILL at one step boundary (for test_commit.py).

Usage: python kill_child.py OUT STEP [FORCE]

Publishes the renju list of ``support.AS_OF`` (the 300-game history of test_commit.py) into OUT with
the real library, and sends itself SIGKILL just before the step STEP of
:mod:`whr.publish.commit` would run: ``rename_in`` (the commit point), ``swap`` (the site
switch), or ``tidy`` (after the pointer moved). With FORCE, the run republishes a
day that is already published (``--force``), so ``rename_in`` comes after the move-aside.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import support

from whr.publish import commit


def main() -> None:
    out, step = Path(sys.argv[1]), sys.argv[2]
    force = sys.argv[3] if len(sys.argv) > 3 else None

    def die(*args: object, **kwargs: object) -> None:
        sys.stdout.write(f"killed before {step}\n")
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)

    if not hasattr(commit, step):
        raise SystemExit(f"no step {step!r} in whr.publish.commit")
    given = support.inputs(300)  # test_commit.PLAIN_GAMES
    setattr(commit, step, die)
    support.publish_inputs(out, given, run_fields={"force": force})
    sys.stdout.write("not killed\n")


if __name__ == "__main__":
    main()
