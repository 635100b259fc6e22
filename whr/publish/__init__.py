"""Publishing: the Parquet snapshot, its manifest and the static HTML site, switched atomically.

``publish(out, as_of, data, selection, fit, params)`` writes ``out/snapshots/<as_of>/`` and then
points ``out/latest.json`` at it; see :func:`whr.publish.parquet.publish`. Look-ups over earlier
publishes (``latest_snapshot``, ``previous_snapshot``, ``is_same_run``) are in
:mod:`whr.publish.snapshots`; the markdown run summary (``summarize``) in
:mod:`whr.publish.summary`.
"""

from __future__ import annotations

from whr.publish.parquet import PublishError, publish
from whr.publish.snapshots import is_same_run, latest_snapshot, previous_snapshot, read_latest
from whr.publish.summary import markdown_text, summarize, value_counts

__all__ = [
    "PublishError",
    "is_same_run",
    "latest_snapshot",
    "markdown_text",
    "previous_snapshot",
    "publish",
    "read_latest",
    "summarize",
    "value_counts",
]
