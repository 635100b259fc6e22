"""Prepare a published output directory for a static host (GitHub Pages) and for archiving.

``python -m whr.publish.pages OUT --keep-full N`` writes ``OUT/index.html`` (a plain redirect to the
site of the snapshot ``OUT/latest.json`` names: no symlinks, which Pages does not serve) and
``OUT/.nojekyll``, and reduces every snapshot but the latest and the ``N`` newest to its list of
the day (``ratings.parquet``) and ``manifest.json``, recording what was removed in
``pruned.json``. A rendered site is about 130 MB for the RIF's 8,000 players and the other tables
several MB, while a static host holds about 1 GB: this keeps every day's published list for years
and the complete latest snapshot. A pruned snapshot is reproducible by rerunning its day with
``--as-of D --force`` on the same input (its manifest names the input's sha256).
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

from whr.publish.snapshots import read_latest

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


ARCHIVED = ("manifest.json", "ratings.parquet")
"""What a pruned snapshot keeps: the list of its day and the record of how it was made."""


def prepare_site(out: Path, keep_full: int = 1) -> list[Path]:
    """Write the root redirect and ``.nojekyll``, and prune all but the newest snapshots.

    Parameters
    ----------
    out : Path
        An output directory of the daily flow, with ``latest.json``.
    keep_full : int
        How many of the newest snapshots stay complete (>= 1); the snapshot ``latest.json``
        names always does.

    Returns
    -------
    list of Path
        The snapshot directories pruned by this call.

    Raises
    ------
    ValueError
        If ``keep_full`` < 1 or ``out/latest.json`` is missing or names no snapshot with a site.
    """
    if isinstance(keep_full, bool) or not isinstance(keep_full, int) or keep_full < 1:
        raise ValueError(f"keep_full: expected an integer >= 1, got {keep_full!r}")
    out = Path(out)
    latest = read_latest(out)
    if latest is None:
        raise ValueError(
            f"out: expected a published output directory with a readable latest.json, got {out}"
        )
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
    keep = {path.name for _, path in dated[:keep_full]} | {Path(snapshot).name}
    pruned = []
    for _, path in dated:
        if path.name in keep:
            continue
        removed = sorted(p.name for p in path.iterdir() if p.name not in (*ARCHIVED, "pruned.json"))
        if not removed:
            continue
        for name in removed:
            target = path / name
            if target.is_dir():
                shutil.rmtree(target)
            else:
                target.unlink()
        record = path / "pruned.json"
        earlier = (
            json.loads(record.read_text(encoding="utf-8"))["removed"] if record.is_file() else []
        )
        note = {
            "removed": sorted({*earlier, *removed}),
            "why": "older snapshots keep only the day's list and manifest; rerun the day "
            "with --as-of and --force on the input the manifest names to rebuild the rest",
        }
        record.write_text(json.dumps(note, indent=2) + "\n", encoding="utf-8")
        pruned.append(path)
    return pruned


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m whr.publish.pages OUT [--keep-full N]``."""
    p = argparse.ArgumentParser(
        prog="python -m whr.publish.pages",
        description="Prepare a published output directory for GitHub Pages: root redirect to "
        "the latest site, .nojekyll, and pruning of older snapshots to their list of the day "
        "and manifest.",
    )
    p.add_argument("out", type=Path, help="output directory of the daily flow")
    p.add_argument(
        "--keep-full",
        type=int,
        default=1,
        metavar="N",
        help="newest snapshots kept complete, with site and every table (default: %(default)s)",
    )
    args = p.parse_args(argv)
    try:
        pruned = prepare_site(args.out, args.keep_full)
    except ValueError as exc:
        print(f"whr.publish.pages: {exc}", file=sys.stderr)
        return 2
    for path in pruned:
        print(f"pruned {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
