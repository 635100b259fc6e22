"""The site's machinery (whr.publish.site.frame): stencils, chunks and page worker processes."""

from __future__ import annotations

from pathlib import Path

import pytest

import whr.publish.site as site_module
from tests.publish import support
from whr.publish.site import frame, write


def test_chunks_and_worker_processes_write_the_same_site(small, tmp_path, monkeypatch):
    view = support.snapshot_of(small).view
    info = {"parameters": small.params}
    one = write(tmp_path / "one", view, info, processes=1)
    monkeypatch.setattr(frame, "CHUNK", 7)  # many chunks of players and tournaments
    two = write(tmp_path / "two", view, info, processes=2)
    rel = sorted(one)
    assert rel == sorted(two)
    for path in rel:
        assert (tmp_path / "one" / path).read_bytes() == (tmp_path / "two" / path).read_bytes()
    assert {
        p.relative_to(tmp_path / "one").as_posix()
        for p in (tmp_path / "one").rglob("*")
        if p.is_file()
    } == set(rel)


def test_a_stencil_fills_in_exactly_what_the_template_renders(small, tmp_path):
    from markupsafe import Markup

    view = support.snapshot_of(small).view
    r = frame.Renderer(tmp_path, site_module.site_of(view, {"parameters": {}}, False))
    values = {
        "name": '</title><script>alert("x")</script> & Ünal',  # text: escaped by the stencil
        "heading": Markup("<h1>Ünal</h1>"),  # markup: as it is
        "facts": Markup("<dl class=facts><dt>ID<dd>1</dl>"),
        "change": "",
        "canonical": Markup('<link rel=canonical href="https://x.org/p/x.html">'),
        "record": Markup("<h2>Tournaments</h2><p>No rated games.</p>"),
        "data": Markup('{"chart":{"series":[]},"events":[]}'),
    }
    scripts = Markup("<script src=../data/players.js></script>\n")
    stencil = r.stencil("p", "player.html", tuple(values), scripts=scripts)
    for name in (values["name"], "Plain Name", "a\x01b"):
        page = {**values, "name": name}
        assert stencil.fill(**page) == r.html("p/x.html", "player.html", scripts=scripts, **page)
    assert "<script>alert" not in stencil.fill(**values)
    # a field shown through a filter would not be filled as the template renders it: refused
    r._templates["upper.html"] = r.env.from_string("<title>{{ name|upper }}</title>")
    with pytest.raises(ValueError, match="plainly"):
        r.stencil("p", "upper.html", ("name",))


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_page_workers_die_with_a_killed_run_and_never_hold_the_lock(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from whr.publish import LockedError, hold

    run = subprocess.Popen(
        [sys.executable, "-m", "tests.publish.site.kill_render", str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    workers: list[int] = []
    try:
        workers += [int(run.stdout.readline().split()[1]) for _ in range(2)]
        assert all(_alive(w) for w in workers)
        # the run holds the lock while its workers write
        with pytest.raises(LockedError), hold(tmp_path):
            pass
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=60)
        for _ in range(100):
            if not any(_alive(w) for w in workers):
                break
            time.sleep(0.05)
        assert not any(_alive(w) for w in workers), "a page worker outlived its run"
        with hold(tmp_path):  # the lock is free: no orphan holds it
            pass
    finally:
        run.kill()
        run.wait()
        for worker in workers:  # should the test fail: leave nothing behind
            if _alive(worker):
                os.kill(worker, signal.SIGKILL)
