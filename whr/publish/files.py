"""Writing published files: Parquet with the declared schemas, JSON and text, atomically.

Files are created with the process's umask (0644 under umask 022) and directories likewise
(0755): never ``tempfile.mkstemp``/``mkdtemp``, whose 0600/0700 a web server running as another
user could not read. A file is written beside its target and renamed over it, so a reader sees
the old file or the new one, never half of one.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from whr.tables import SCHEMA_VERSION, conform, to_table

FLOAT_TYPES = (pa.float64(), pa.float32())


def token() -> str:
    """A name part no other run or thread will pick: pid and random hex."""
    return f"{os.getpid()}-{secrets.token_hex(4)}"


def make_dir(path: Path) -> Path:
    """Create ``path`` (and its parents) with the umask's mode; it must not exist."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.mkdir()
    return path


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temporary name beside it, fsync, rename)."""
    tmp = path.with_name(f".{path.name}.{token()}.tmp")
    try:
        with open(tmp, "xb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    write_bytes(path, text.encode("utf-8"))


def write_json(path: Path, value: Any) -> None:
    """Write ``value`` as indented JSON to ``path`` atomically."""
    write_text(path, json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def parquet_metadata(parameters: dict[str, Any] | None = None) -> dict[bytes, bytes]:
    """The key-value metadata every published Parquet file carries."""
    out = {b"whr.schema_version": SCHEMA_VERSION.encode()}
    if parameters is not None:
        out[b"whr.parameters"] = json.dumps(parameters, sort_keys=True).encode()
    return out


def write_parquet(
    frame: pd.DataFrame,
    schema: pa.Schema,
    path: Path,
    metadata: dict[bytes, bytes],
    *,
    dense: bool = False,
) -> int:
    """Write ``frame`` with exactly ``schema`` to ``path`` atomically; return the row count.

    ``dense`` trades writing time for size, for files kept for years: float columns are
    stored byte-stream-split without a dictionary, and zstd works harder. The bytes depend
    only on the rows (no time, no pandas index).
    """
    table = to_table(frame, schema).replace_schema_metadata(metadata)
    options: dict[str, Any] = {"compression": "zstd", "write_statistics": True}
    if dense:
        floats = [f.name for f in schema if f.type in FLOAT_TYPES]
        options.update(
            compression_level=19,
            use_dictionary=[f.name for f in schema if f.name not in floats],
            use_byte_stream_split=floats,
        )
    tmp = path.with_name(f".{path.name}.{token()}.tmp")
    try:
        pq.write_table(table, tmp, **options)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return table.num_rows


def read_parquet(path: Path, schema: pa.Schema) -> pd.DataFrame:
    """Read a published Parquet file back as a frame of ``schema``."""
    return conform(pq.read_table(path, schema=schema).to_pandas(), schema)
