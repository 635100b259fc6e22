"""Prepare a published output directory for a static host (GitHub Pages).

``python -m flows.pages OUT --keep-sites N`` writes ``OUT/index.html`` (a plain redirect to the
site of the snapshot ``OUT/latest.json`` names: no symlinks, which Pages does not serve),
``OUT/.nojekyll`` (serve files as they are), and removes the rendered ``site/`` of all but the
newest ``N`` snapshots so that the deployed tree stays under the host's size limit. The Parquet
tables and ``manifest.json`` of every snapshot are kept: they are the history. A removed site is
reproducible by rerunning its day with ``--as-of D --force`` on the same input.
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import json
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

_REDIRECT = """<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Renju world rating list</title>
<meta http-equiv="refresh" content="0; url={url}">
<link rel="canonical" href="{url}">
<p>The latest rating list ({date}) is at <a href="{url}">{url}</a>.
<p>All snapshots: <a href="snapshots/">snapshots/</a>; the pointer: <a href="latest.json">latest.json</a>.
</html>
"""


def prepare_site(out: Path, keep_sites: int = 7) -> list[Path]:
    """Write the root redirect and ``.nojekyll`` and prune old rendered sites.

    Parameters
    ----------
    out : Path
        An output directory of the daily flow, with ``latest.json``.
    keep_sites : int
        How many of the newest snapshots keep their ``site/`` directory (>= 1).

    Returns
    -------
    list of Path
        The ``site/`` directories removed.

    Raises
    ------
    ValueError
        If ``keep_sites`` < 1 or ``out/latest.json`` is missing or names no snapshot.
    """
    if isinstance(keep_sites, bool) or not isinstance(keep_sites, int) or keep_sites < 1:
        raise ValueError(f"keep_sites: expected an integer >= 1, got {keep_sites!r}")
    out = Path(out)
    pointer = out / "latest.json"
    if not pointer.is_file():
        raise ValueError(f"out: expected a published output directory with latest.json, got {out}")
    latest = json.loads(pointer.read_text(encoding="utf-8"))
    snapshot = str(latest.get("snapshot", ""))
    if not snapshot or not (out / snapshot / "site" / "index.html").is_file():
        raise ValueError(f"out/latest.json: names no snapshot with a site: {latest!r}")
    url = html.escape(f"{snapshot}/site/index.html", quote=True)
    date = html.escape(str(latest.get("date", "")))
    (out / "index.html").write_text(_REDIRECT.format(url=url, date=date), encoding="utf-8")
    (out / ".nojekyll").write_text("", encoding="utf-8")

    dated = []
    for path in (out / "snapshots").iterdir():
        try:
            dated.append((dt.date.fromisoformat(path.name), path))
        except ValueError:
            continue
    dated.sort(reverse=True)
    keep = {path for _, path in dated[:keep_sites]} | {out / snapshot}
    removed = []
    for _, path in dated:
        if path not in keep and (path / "site").is_dir():
            shutil.rmtree(path / "site")
            removed.append(path / "site")
    return removed


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m flows.pages OUT [--keep-sites N]``."""
    p = argparse.ArgumentParser(
        prog="python -m flows.pages",
        description="Prepare a published output directory for GitHub Pages: root redirect to "
        "the latest site, .nojekyll, and removal of old rendered sites (tables are kept).",
    )
    p.add_argument("out", type=Path, help="output directory of the daily flow")
    p.add_argument(
        "--keep-sites",
        type=int,
        default=7,
        metavar="N",
        help="newest snapshots that keep their rendered site (default: %(default)s)",
    )
    args = p.parse_args(argv)
    try:
        removed = prepare_site(args.out, args.keep_sites)
    except ValueError as exc:
        print(f"flows.pages: {exc}", file=sys.stderr)
        return 2
    for path in removed:
        print(f"removed {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
