"""Import throughput of the store, in hands per second.

Each file is imported as `zfrec import` does it: read, canonicalise, hash, validate, then write
every row in one transaction per file and commit. The figure counts the hands of the games
added, over the wall time of the whole import, into a fresh store (a temporary SQLite file,
unless a URL of an empty database is given).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from pathlib import Path


def import_hands_per_s(paths: Sequence[str | Path], url: str | None = None) -> float:
    """Hands stored per second importing `paths` into a new store (or the empty one at `url`)."""
    from zfrec.store import import_file, open_store, session

    with tempfile.TemporaryDirectory(prefix="zfrec-import-bench-") as folder:
        engine = open_store(url or f"sqlite:///{Path(folder) / 'bench.db'}")
        try:
            hands = 0
            start = time.perf_counter()
            for path in paths:
                with session(engine) as s:
                    hands += import_file(s, path=path).hands
            elapsed = time.perf_counter() - start
        finally:
            engine.dispose()
    return hands / elapsed if elapsed > 0 else 0.0
