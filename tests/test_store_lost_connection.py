"""An import whose connection to PostgreSQL is lost part way (an administrator ends the session
with pg_terminate_backend, as a server restart or a dropped network would): the file's
transaction is run again on a new connection, and the import succeeds (STORE.md, "Imports that
meet"). The import is held at the statement named, on a lock the test holds, until its
server process is ended; both the SQLAlchemy statement (storing the seats) and the driver's own
COPY (the plays) are tried. PostgreSQL only: skipped without ZFREC_TEST_PG_URL, failing under
CI=true (tests/test_store.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.test_store import counts, store_url  # noqa: F401  (the PostgreSQL fixture)
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import dumps
from zfrec.store import open_store

pytestmark = [
    pytest.mark.slow,
    pytest.mark.parametrize("store_url", ["postgresql"], indirect=True),
]

# what the test holds, and so the statement the import waits at
_HOLDS = {
    "seats": "SELECT id FROM player FOR UPDATE",  # storing a game's seats needs its players
    "plays": "LOCK TABLE play IN SHARE MODE",  # the plays' COPY needs the table
}


def _file(path: Path, seed: int, games: int) -> Path:
    config = SimConfig(4, preset("pagat"), "random", 2)
    records = [simulate_game(config, seed + i) for i in range(games)]
    path.write_text(dumps(records), encoding="utf-8")
    return path


def _zfrec(*args: str) -> list[str]:
    return [sys.executable, "-m", "zfrec", *args]


@pytest.mark.parametrize("held", sorted(_HOLDS))
def test_an_import_whose_connection_is_ended_is_run_again_and_succeeds(
    store_url: str,  # noqa: F811
    tmp_path: Path,
    held: str,
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("ZFREC_DB", "ZFREC_TRACEBACK")}
    first = _file(tmp_path / "first.zfn", 1, 1)  # the players, stored
    subprocess.run(_zfrec("import", str(first), "--db", store_url), env=env, check=True)
    second = _file(tmp_path / "second.zfn", 100, 6)
    name = make_url(store_url).query["application_name"]
    blocker = create_engine(store_url)
    try:
        with blocker.connect() as conn, blocker.connect() as look:
            tx = conn.begin()
            conn.execute(text(_HOLDS[held]))
            mine = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
            proc = subprocess.Popen(
                _zfrec("import", str(second), "--db", store_url, "--json"),
                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )  # fmt: skip
            waiting = None
            for _ in range(1200):  # bounded: 1200 looks, 0.05 s apart
                look.rollback()  # a transaction sees pg_stat_activity as at its first look
                waiting = look.execute(
                    text(
                        "SELECT pid FROM pg_stat_activity WHERE application_name = :n "
                        "AND wait_event_type = 'Lock' AND pid <> :mine"
                    ),
                    {"n": name, "mine": mine},
                ).scalar()
                if waiting is not None or proc.poll() is not None:
                    break
                time.sleep(0.05)
            assert waiting is not None, "the import never waited for the lock held"
            ended = look.execute(text("SELECT pg_terminate_backend(:p)"), {"p": waiting})
            assert ended.scalar_one() is True
            tx.rollback()
        out, err = proc.communicate(timeout=120)
    finally:
        blocker.dispose()
    assert proc.returncode == 0, err
    assert json.loads(out)["summary"]["added"] == 6, out
    engine = open_store(store_url)
    try:
        assert counts(engine)["game"] == 7
    finally:
        engine.dispose()
