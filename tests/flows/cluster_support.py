"""A Dask worker plugin for the cluster tests: it records every task a worker starts, and kills
one worker (SIGKILL, as the kernel's out-of-memory killer would) while it runs a chosen task.

The records are files in a directory every worker of the local cluster sees, numbered in the
order the tasks started (created with ``O_EXCL``, so two workers never take the same number).

Dask's nanny writes its workers' environment (``OMP_NUM_THREADS=1``, ...) into the environment of
the process that starts a cluster; :func:`environ_kept` puts the test process's back.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin


class KillWorker(WorkerPlugin):
    """Record each task start; kill the worker that starts the ``kill_at``-th task (0-based).

    Before the kill, the plugin waits until the client has released every result that finished
    on this worker (the flow is expected to take and release each result at once), for at most
    ``patience`` seconds: a result still held after that would be computed again after the kill,
    which the test then sees in the records.
    """

    name = "kill-worker"

    def __init__(self, records: Path, kill_at: int, patience: float = 20.0) -> None:
        self.records = str(records)
        self.kill_at = kill_at
        self.patience = patience

    def setup(self, worker: Any) -> None:
        self.worker = worker
        self.finished: set[Any] = set()

    def transition(self, key: Any, start: str, finish: str, **kwargs: Any) -> None:
        if start == "executing" and finish == "memory":
            self.finished.add(key)
        if finish != "executing":
            return
        n = 0
        while True:
            try:
                fd = os.open(
                    Path(self.records) / f"{n:04d}.json", os.O_CREAT | os.O_EXCL | os.O_WRONLY
                )
                break
            except FileExistsError:
                n += 1
        with os.fdopen(fd, "w") as handle:
            json.dump({"key": str(key), "pid": os.getpid()}, handle)
        if n == self.kill_at:
            threading.Thread(target=self._kill, args=(key,), daemon=True).start()

    def _kill(self, running: Any) -> None:
        deadline = time.monotonic() + self.patience
        while time.monotonic() < deadline and any(k in self.worker.data for k in self.finished):
            time.sleep(0.01)
        state = self.worker.state.tasks.get(running)
        (Path(self.records) / "killed.json").write_text(
            json.dumps(
                {
                    "key": str(running),
                    "pid": os.getpid(),
                    "still_running": state is not None and state.state == "executing",
                    "held": [str(k) for k in self.finished if k in self.worker.data],
                }
            )
        )
        os.kill(os.getpid(), signal.SIGKILL)


def starts(records: Path) -> list[dict]:
    """The task starts recorded, in order."""
    return [json.loads(p.read_text()) for p in sorted(records.glob("[0-9]*.json"))]


def starts_per_task(records: Path) -> Counter:
    """How many times each task (Dask key) was started."""
    return Counter(s["key"] for s in starts(records))


@contextmanager
def environ_kept() -> Iterator[None]:
    """Restore this process's environment on leaving (after a local cluster has written to it)."""
    saved = dict(os.environ)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
