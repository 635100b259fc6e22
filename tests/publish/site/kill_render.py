"""A site render whose page workers hang, holding the published tree's lock (for test_frame.py).

Usage: python -m tests.publish.site.kill_render OUT   (from the repository's directory)

Takes ``OUT``'s lock as a run does, then renders a small site with two forked page workers
(``processes=2``) whose work is replaced by a long sleep; each worker prints ``worker PID`` when
it starts. The test kills this process with SIGKILL and watches the workers.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from tests.publish import support
from whr.publish import hold
from whr.publish.site import frame, write


def hang(*args: object) -> None:
    sys.stdout.write(f"worker {os.getpid()}\n")
    sys.stdout.flush()
    time.sleep(300)


def main() -> None:
    out = Path(sys.argv[1])
    given = support.inputs(300)
    snapshot = support.snapshot_of(given)
    frame._work = hang  # what the forked workers run
    with hold(out):
        write(out / "site", snapshot.view, {}, processes=2)
    sys.stdout.write("not killed\n")


if __name__ == "__main__":
    main()
