"""Publishing: the Parquet snapshot, its manifest and the static HTML site, switched atomically.

``publish(out, as_of, data, selection, fit, params)`` writes ``out/snapshots/<as_of>/`` and then
points ``out/latest.json`` at it; see :func:`whr.publish.parquet.publish`.
"""

from __future__ import annotations

from whr.publish.parquet import PublishError, publish

__all__ = ["PublishError", "publish"]
