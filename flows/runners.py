"""Where a flow's tasks run: in this process (the default) or on a Dask cluster (``--dask``).

``--dask ADDRESS`` sends the same tasks to an existing cluster's scheduler (``tcp://host:8786``,
``host:8786``, ``tls://...``) through ``prefect-dask``; ``--dask local:N`` starts a cluster of N
worker processes on this machine for the run and stops it at the end. See the cluster section of
``docs/operations.md``: when it pays, and what it costs.

Importing this module is light (standard library only): the command lines check ``--dask``
with it before Prefect loads. Prefect, ``prefect-dask`` and ``distributed`` (the ``dask`` extra)
are imported when a runner is made.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "LOCAL_WORKERS_CONFIG",
    "DaskTarget",
    "cluster_threads",
    "dask_argument",
    "dask_runner",
    "local_cluster_kwargs",
    "one_heap",
    "parse_dask",
    "prefect_api",
    "results",
    "share",
    "temporary_server",
]

_LOCAL = re.compile(r"local:(\d+)")
_ADDRESS = re.compile(
    r"(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):(\d+)"
)
_LOOPBACK = re.compile(r"(127\.\d+\.\d+\.\d+|localhost|\[::1\])")


def one_heap() -> None:
    """Let the run's threads share one heap, as the library's calls in one thread do; call it
    before the run starts a thread.

    Prefect runs each task in a worker thread. glibc gives every thread its own malloc arena,
    and Arrow's own allocator (jemalloc) keeps what it frees, so memory freed by one task (the
    read) was not reused by the next (the lists, the site): on the RIF-sized database (160,000
    games) the command's peak was 825-851 MB, against 604-613 MB with one arena and Arrow on
    the system allocator, which was also faster (lists and publish 14-17 s against 21-22 s,
    two runs each; docs/operations.md). ``MALLOC_ARENA_MAX`` and ``ARROW_DEFAULT_MEMORY_POOL``
    given in the environment win.
    """
    if os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system") == "system":
        arrow = sys.modules.get("pyarrow")  # imported already: its default pool may be made
        if arrow is not None:
            arrow.set_memory_pool(arrow.system_memory_pool())
    if "MALLOC_ARENA_MAX" not in os.environ:
        with contextlib.suppress(OSError, AttributeError):  # glibc's; elsewhere nothing to do
            ctypes.CDLL(None).mallopt(-8, 1)  # M_ARENA_MAX


@dataclass(frozen=True)
class DaskTarget:
    """A Dask cluster to run on: an existing scheduler, or a local cluster started for the run.

    Attributes
    ----------
    address : str or None
        The scheduler's address (``tcp://host:port``); None for a local cluster.
    workers : int or None
        Worker processes of the local cluster (one thread each); None for an existing cluster.
    """

    address: str | None = None
    workers: int | None = None

    def __str__(self) -> str:
        return f"local:{self.workers}" if self.address is None else self.address

    @property
    def on_this_machine(self) -> bool:
        """True when the workers run on this machine (a local cluster, or a loopback address)."""
        if self.address is None:
            return True
        host = self.address.split("://")[-1].rsplit(":", 1)[0]
        return _LOOPBACK.fullmatch(host) is not None


def parse_dask(text: str) -> DaskTarget:
    """``--dask``'s value: ``local:N`` (N >= 1 worker processes) or a scheduler address.

    Parameters
    ----------
    text : str
        ``local:N``, ``[scheme://]host:port`` with scheme tcp, tls, ws, wss or ucx.

    Returns
    -------
    DaskTarget

    Raises
    ------
    ValueError
        Naming ``dask``, what is expected and what came.
    """
    if not isinstance(text, str):
        raise TypeError(f"dask: expected a string, got {type(text).__name__}")
    local = _LOCAL.fullmatch(text)
    if local is not None:
        workers = int(local.group(1))
        if workers < 1:
            raise ValueError(f"dask: expected local:N with N >= 1 workers, got {text!r}")
        return DaskTarget(workers=workers)
    address = _ADDRESS.fullmatch(text)
    if address is None or not 1 <= int(address.group(3)) <= 65535:
        raise ValueError(
            "dask: expected local:N (a cluster of N workers on this machine) or a scheduler "
            f"address such as tcp://host:8786, got {text!r}"
        )
    return DaskTarget(address=text if address.group(1) else f"tcp://{text}")


def dask_argument(text: str) -> DaskTarget:
    """:func:`parse_dask` as an argparse ``type`` (its message becomes the usage error)."""
    try:
        return parse_dask(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("dask: ")) from None


LOCAL_WORKERS_CONFIG: dict[str, Any] = {
    # Dask starts its workers with MALLOC_TRIM_THRESHOLD_=65536 to hand memory back to the
    # system sooner. A fixed threshold also fixes glibc's mmap threshold, so every large numpy
    # array is mapped afresh and its pages faulted in: a grid point by forward chaining on
    # 120,000 games took 3.3 s instead of 2.4 s (three runs each). None: glibc's default.
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
}
"""Dask configuration for the workers of a local cluster (``--dask local:N``)."""


def local_cluster_kwargs(workers: int) -> dict[str, Any]:
    """``distributed.LocalCluster``'s arguments for ``local:N``; see :func:`dask_runner`.

    Start the cluster under :data:`LOCAL_WORKERS_CONFIG` (``dask.config.set``).
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers: expected an integer >= 1, got {workers!r}")
    return {
        "n_workers": workers,
        "threads_per_worker": 1,
        "processes": True,
        "dashboard_address": ":0",
    }


def dask_runner(target: DaskTarget) -> Any:
    """The ``prefect_dask.DaskTaskRunner`` for ``target``.

    A local cluster has ``target.workers`` worker processes of one thread each (the tasks are
    CPU-bound Python and numpy), its scheduler's web page on a free port (never a fixed one
    that another run holds), the workers' default memory limit (this machine's memory shared
    equally), and glibc's own memory trimming (:data:`LOCAL_WORKERS_CONFIG`, set in this
    process's Dask configuration).

    Raises
    ------
    ImportError
        When the ``dask`` extra is not installed; the message says how to install it.
    """
    if not isinstance(target, DaskTarget):
        raise TypeError(f"target: expected a DaskTarget, got {type(target).__name__}")
    try:
        from prefect_dask.task_runners import DaskTaskRunner
    except ImportError as exc:
        raise ImportError(
            f"--dask needs prefect-dask and distributed: pip install 'rif-rating[dask]' ({exc})"
        ) from exc
    if target.workers is None:  # an existing cluster's scheduler
        return DaskTaskRunner(address=target.address)
    import dask

    dask.config.set(LOCAL_WORKERS_CONFIG)  # read when the runner starts the cluster, later
    return DaskTaskRunner(cluster_kwargs=local_cluster_kwargs(target.workers))


_REAPER = r"""
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent's to handle; this one waits for EOF
signal.signal(signal.SIGTERM, signal.SIG_IGN)
watched = set()
for line in sys.stdin:  # until end of file: the parent closed the pipe, or ended (even by SIGKILL)
    pid = int(line)
    if pid > 0:
        watched.add(pid)
    else:
        watched.discard(-pid)

def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True

for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 0.0)):  # as Prefect stops it
    for pid in watched:
        try:
            os.kill(pid, sig)
        except OSError:
            pass
    end = time.monotonic() + wait
    while watched and time.monotonic() < end:
        watched = {pid for pid in watched if alive(pid)}
        time.sleep(0.05)
"""


class Reaper:
    """A small process that stops the processes it is told of when this process ends, however it
    ends: it reads their pids from a pipe, and when the pipe closes (this process closed it, or
    died, SIGKILL included) it sends them SIGTERM, then SIGKILL after 5 s (as Prefect does).

    Prefect's temporary API server is a child process that Prefect starts and stops itself, and
    a SIGKILL of this process would leave it running (orphaned, listening, a few hundred MB).
    """

    def __init__(self) -> None:
        import subprocess
        import sys

        self._process = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _REAPER],
            stdin=subprocess.PIPE,
            text=True,
            start_new_session=True,  # a Ctrl-C on the terminal is this process's to handle
        )

    def watch(self, pid: int) -> None:
        """Stop ``pid`` when this process ends."""
        self._send(pid)

    def forget(self, pid: int) -> None:
        """``pid`` has been stopped (and reaped) here: leave it alone."""
        self._send(-pid)

    def _send(self, number: int) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        stdin.write(f"{number}\n")
        stdin.flush()

    def close(self) -> None:
        """End the reaper (the processes it watches and was not told to forget are stopped)."""
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait()


EPHEMERAL_ENV = {
    "PREFECT_UI_ENABLED": "0",
    "PREFECT__SERVER_EPHEMERAL": "1",
    "PREFECT__SERVER_FINAL": "1",
}
"""Set for the temporary server's process, as Prefect sets them for its own temporary server
(``prefect.server.api.server.SubprocessASGIServer``): no UI, only the background services of an
ephemeral server."""
SERVER_DEFAULTS = {"PREFECT_SERVER_REGISTER_BLOCKS_ON_START": "false"}
"""Defaults of the temporary server's process, unless the environment sets them: the runs use
no Prefect block, and registering Prefect's block types in a fresh database costs about a
second."""


class TemporaryServer:
    """Prefect's temporary API server, started at once, without importing Prefect here.

    The process is started as Prefect starts its own temporary server (``uvicorn`` on Prefect's
    app factory, ephemeral: no UI), with Prefect's settings from this process's environment,
    on a free port of 127.0.0.1. Creating the object only starts the process: a command line
    starts it before it imports Prefect and the library, so that the server's start (its
    imports, and on a fresh ``PREFECT_HOME`` the creation of its database) runs beside them;
    :meth:`wait` waits for it to answer. A :class:`Reaper` stops it should this process die
    without stopping it (SIGKILL included).
    """

    def __init__(self) -> None:
        from importlib.util import find_spec

        spec = find_spec("prefect")
        if spec is None or not spec.submodule_search_locations:
            raise ImportError("Prefect is not installed")
        self._app_dir = str(Path(next(iter(spec.submodule_search_locations))).parent)
        self.reaper = Reaper()
        self.process: Any = None
        self._start()

    def _start(self) -> None:
        import os
        import subprocess
        import sys

        self.port = _free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--app-dir", self._app_dir, "--factory",
             "prefect.server.api.server:create_app", "--host", "127.0.0.1", "--port",
             str(self.port), "--log-level", "error", "--lifespan", "on"],
            env={**SERVER_DEFAULTS, **os.environ, **EPHEMERAL_ENV},
        )  # fmt: skip
        self.reaper.watch(self.process.pid)

    @property
    def api_url(self) -> str:
        """The API's address (``http://127.0.0.1:PORT/api``)."""
        return f"http://127.0.0.1:{self.port}/api"

    def wait(self, timeout_s: float) -> None:
        """Return when the server answers its health check.

        Raises
        ------
        RuntimeError
            When it does not answer within ``timeout_s`` seconds (wall time), or its process
            ended; the message says which, as Prefect's does.
        """
        import time
        import urllib.error
        import urllib.request

        end = time.monotonic() + timeout_s
        while True:
            code = self.process.poll()
            if code == 3:  # uvicorn: the port was taken meanwhile; another one
                self.reaper.forget(self.process.pid)
                self._start()
                continue
            if code is not None:
                raise RuntimeError(
                    "Timed out while attempting to connect to ephemeral Prefect API server: "
                    f"its process exited with code {code}"
                )
            try:
                with urllib.request.urlopen(f"{self.api_url}/health", timeout=10) as answer:
                    if answer.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > end:
                raise RuntimeError(
                    "Timed out while attempting to connect to ephemeral Prefect API server "
                    f"(after {timeout_s:g} s; PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS)"
                )
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 5 s, as Prefect does) and the reaper."""
        import subprocess

        process, self.process = self.process, None
        try:
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                self.reaper.forget(process.pid)
        finally:
            self.reaper.close()


@contextmanager
def temporary_server() -> Iterator[TemporaryServer | None]:
    """Prefect's temporary server, started now and stopped at the end of the block (for
    :func:`prefect_api`), unless the environment names a Prefect server (``PREFECT_API_URL``):
    then None. Nothing of Prefect is imported."""
    import os

    server = None if os.environ.get("PREFECT_API_URL") else TemporaryServer()
    try:
        yield server
    finally:
        if server is not None:
            server.stop()


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def prefect_api(
    target: DaskTarget | None = None, server: TemporaryServer | None = None
) -> Iterator[None]:
    """A Prefect API for the run, while in the block; with no server configured, a temporary one
    that never outlives this process.

    With a Prefect server configured (``PREFECT_API_URL``, in the environment or a Prefect
    profile), nothing changes (``server``, if given, is stopped). Without one, Prefect would
    start a temporary server itself, lazily, in this process and in every Dask worker process
    (seconds each, and the task runs would be recorded apart), and a SIGKILL of this process
    would leave it running. Instead the temporary server is started once (``server``, started
    early by :func:`temporary_server`, or here); this process and the workers are pointed at it,
    and a :class:`Reaper` stops it should this process die without doing so. It listens on
    127.0.0.1, so workers on other machines need a configured server: a warning says so.
    """
    from prefect.logging import get_logger
    from prefect.settings import (
        PREFECT_API_URL,
        PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS,
        get_current_settings,
        temporary_settings,
    )

    if get_current_settings().api.url:
        if server is not None:
            server.stop()
        yield
        return
    server = server or TemporaryServer()
    logger = get_logger()
    try:
        logger.info("Starting temporary server on %s", server.api_url.removesuffix("/api"))
        server.wait(float(PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS.value()))
        if target is not None and not target.on_this_machine:
            get_logger("rif-rating").warning(
                "no Prefect server is configured (PREFECT_API_URL): the temporary one listens "
                "on %s, which workers on other machines cannot reach; set PREFECT_API_URL to a "
                "server they reach",
                server.api_url,
            )
        with temporary_settings(updates={PREFECT_API_URL: server.api_url}):
            yield
            from prefect.logging.handlers import APILogHandler

            APILogHandler().flush()  # the run's last log lines reach the server first
    finally:
        logger.info("Stopping temporary server on %s", server.api_url.removesuffix("/api"))
        server.stop()


def _dask_runner_running() -> Any | None:
    """The running flow's ``DaskTaskRunner``, or None (another runner, or no flow, or no extra)."""
    from prefect.context import FlowRunContext

    context = FlowRunContext.get()
    if context is None:
        return None
    try:
        from prefect_dask.task_runners import DaskTaskRunner
    except ImportError:
        return None
    runner = context.task_runner
    return runner if isinstance(runner, DaskTaskRunner) else None


def cluster_threads() -> int:
    """The worker threads of the running flow's Dask cluster (every worker's together); 1 when
    its tasks run in this process."""
    runner = _dask_runner_running()
    if runner is None:
        return 1
    threads: dict[str, int] = runner.client.nthreads()
    return max(1, sum(threads.values()))


def share(value: Any) -> Any:
    """``value`` for the running flow's tasks, sent to the workers once, not once per task.

    On a Dask cluster, ``value`` is copied once to every worker (``Client.scatter`` with
    ``broadcast``) and a future is returned; a task given that future as a parameter receives
    the value itself. A worker that joins later (or restarts) fetches it from another worker.
    Otherwise the tasks run in this process and ``value`` is returned as it is.
    """
    runner = _dask_runner_running()
    if runner is None:
        return value
    return runner.client.scatter(value, broadcast=True, hash=False)


def results(futures: Sequence[Any]) -> list[Any]:
    """The futures' results in their order, each taken as soon as its task finishes.

    On a Dask cluster each result is released from the cluster once it is here: a finished task
    is then never computed again when a worker is lost later (Dask recomputes the lost results
    that a client still holds). A task that failed (after its retries) raises here.
    """
    from prefect.futures import as_completed

    position = {id(f): i for i, f in enumerate(futures)}
    out: list[Any] = [None] * len(futures)
    for future in as_completed(list(futures)):
        out[position[id(future)]] = future.result()
        wrapped = getattr(future, "wrapped_future", None)
        release = getattr(wrapped, "release", None)
        if callable(release):
            release()
    return out
