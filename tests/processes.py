"""What the tests that kill runs need to know about processes."""

from __future__ import annotations

from pathlib import Path


def alive(pid: int) -> bool:
    """Whether process `pid` runs: it exists and is not a zombie waiting for its parent."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
