"""Import throughput of the store, in hands per second, on SQLite or PostgreSQL.

Each file is imported as `zfrec import` does it: read, canonicalise, hash, validate, then write
every row in one transaction per file and commit. The figure counts the hands of the games
added, over the wall time of the whole import, into a fresh store (a temporary SQLite file,
unless a URL of an empty database is given).
"""

from __future__ import annotations

import os
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path


def import_hands_per_s(paths: Sequence[str | Path], url: str | None = None, jobs: int = 1) -> float:
    """Hands stored per second importing `paths` into a new store (or the empty one at `url`),
    with `jobs` worker processes reading and validating (as `zfrec import -j` does; started
    within the timed run)."""
    from zfrec.store import import_file, import_workers, open_store, session

    with tempfile.TemporaryDirectory(prefix="zfrec-import-bench-") as folder:
        engine = open_store(url or f"sqlite:///{Path(folder) / 'bench.db'}")
        engine.dispose()  # the workers, forked next, must inherit no connection
        try:
            hands = 0
            start = time.perf_counter()
            with import_workers(jobs) as workers:
                for i, path in enumerate(paths):
                    then = paths[i + 1] if i + 1 < len(paths) else None
                    with session(engine) as s:
                        hands += import_file(s, path=path, workers=workers, then=then).hands
                elapsed = time.perf_counter() - start
        finally:
            engine.dispose()
    return hands / elapsed if elapsed > 0 else 0.0


def pg_import_hands_per_s(paths: Sequence[str | Path]) -> float | None:
    """The same into a fresh schema on the PostgreSQL server named by $ZFREC_BENCH_PG_URL or
    $ZFREC_TEST_PG_URL; None when neither is set or the server cannot be used."""
    base = os.environ.get("ZFREC_BENCH_PG_URL") or os.environ.get("ZFREC_TEST_PG_URL")
    if not base:
        return None
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    schema = f"zfrec_bench_{uuid.uuid4().hex[:12]}"
    try:
        admin = create_engine(base, isolation_level="AUTOCOMMIT")
    except (SQLAlchemyError, ImportError):
        return None
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except SQLAlchemyError:
        admin.dispose()
        return None
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        return import_hands_per_s(paths, url.render_as_string(hide_password=False))
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
