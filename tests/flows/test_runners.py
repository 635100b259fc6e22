"""flows.runners: what the command sets up for its process before a run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

POOL = "import flows.pipeline, pyarrow; print(pyarrow.default_memory_pool().backend_name)"


def _pool(**env: str) -> str:
    given = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    done = subprocess.run(
        [sys.executable, "-c", POOL],
        cwd=REPO,
        env={**given, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_a_run_allocates_arrow_memory_from_the_shared_heap_unless_told_otherwise():
    """Arrow's own allocator kept what one task freed from the next (docs/operations.md); the
    flow's module puts Arrow on the system allocator, and the environment still chooses."""
    assert _pool() == "system"
    assert _pool(ARROW_DEFAULT_MEMORY_POOL="jemalloc") == "jemalloc"
