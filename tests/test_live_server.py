"""`zfrec serve` as real processes on loopback: kill -9 mid-hand, ten tables at once, and two
servers sharing one PostgreSQL database. Every loop is bounded in count and time."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.live_helpers import Step, exported, new_table, send, sim, steps, without_passes
from tests.test_store import store_url  # noqa: F401  (the SQLite / PostgreSQL fixture)
from zfrec.record import Game

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 30.0
REQUEST_TIMEOUT_S = 30.0


def wait_serving(
    proc: subprocess.Popen[Any], client: httpx.Client, said: Callable[[], str] = lambda: ""
) -> None:
    """Until the server `proc` answers `client` (START_TIMEOUT_S at most); `said()`: what it
    printed, for the message of a server that ended."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        assert proc.poll() is None, said()
        try:
            if client.get("/api/tables").status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "the server did not start in time"
        time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def server(
    db: str, log: Path, port: int | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], httpx.Client]]:
    """A `zfrec serve` process on 127.0.0.1 (on `port`, else a free one), and a client for it;
    killed at the end."""
    port = port or free_port()
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "zfrec", "serve", "--db", db, "--port", str(port)],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=REQUEST_TIMEOUT_S)
    try:
        wait_serving(proc, client, lambda: log.read_text(errors="replace"))
        yield proc, client
    finally:
        client.close()
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def log_all(client: httpx.Client, table: str, token: str, todo: list[Step]) -> None:
    for step in todo:
        r = send(client, table, token, step)
        assert r.status_code in (200, 201), (step, r.text)


def state(client: httpx.Client, table: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table}")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


# --- durability ----------------------------------------------------------------------------------


def test_kill_9_mid_hand_loses_no_accepted_entry(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    game = sim(4, 301, "pagat", hands=2)
    todo = list(steps(game))
    accepted: list[int] = []
    with server(db, tmp_path / "a.log") as (proc, client):
        table, token = new_table(client, game)
        log_all(client, table, token, todo[:20])
        accepted.extend(range(20))
        # Keep entering from a thread; kill -9 the server part-way through, mid-request.
        stop = threading.Event()

        def enter() -> None:
            for i in range(20, len(todo)):
                if stop.is_set():
                    return
                try:
                    r = send(client, table, token, todo[i])
                except httpx.TransportError:
                    return
                if r.status_code not in (200, 201):
                    return
                accepted.append(i)

        worker = threading.Thread(target=enter)
        worker.start()
        deadline = time.monotonic() + 30
        while len(accepted) < 45 and time.monotonic() < deadline:
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
        stop.set()
        worker.join(timeout=30)
        assert not worker.is_alive()
        proc.wait(timeout=10)
    assert accepted == list(range(len(accepted))) and 45 <= len(accepted) < len(todo)
    with server(db, tmp_path / "b.log") as (_proc, client):
        st = state(client, table)
        # Every accepted entry is there; the one in flight at the kill may be too.
        assert st["entries"] in (len(accepted), len(accepted) + 1)
        resumed = exported(client, table)
        expected_so_far = Game(game.players, hands=game.hands)
        assert resumed.hands[0].deal == expected_so_far.hands[0].deal
        log_all(client, table, token, todo[st["entries"] :])
        assert exported(client, table).hands == game.hands


# --- many tables at once ---------------------------------------------------------------------


def test_ten_tables_at_once_from_threads(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'club.db'}"
    games = [
        sim(3 + i % 4, 400 + i, ("pagat", "poppel", "parlett")[i % 3], hands=1) for i in range(10)
    ]
    errors: list[BaseException] = []
    with server(db, tmp_path / "s.log") as (_proc, client):
        tables = [new_table(client, g) for g in games]

        def run(i: int) -> None:
            try:
                with httpx.Client(base_url=client.base_url, timeout=REQUEST_TIMEOUT_S) as own:
                    log_all(own, *tables[i], list(steps(games[i])))
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=run, args=(i,)) for i in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert not any(t.is_alive() for t in threads)
        assert errors == []
        for (table, _token), g in zip(tables, games, strict=True):
            assert exported(client, table).hands == g.hands


# --- two servers on one PostgreSQL database ----------------------------------------------------


@pytest.fixture
def pg_url(store_url: str) -> str:  # noqa: F811
    if not store_url.startswith("postgresql"):
        pytest.skip("this test is about PostgreSQL")
    return store_url


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_two_servers_on_one_postgresql(tmp_path: Path, pg_url: str) -> None:
    from zfrec.store import open_store

    open_store(pg_url).dispose()  # migrate once, before two servers race to
    one_game, two_game, shared_game = (sim(4, 501, "pagat", 1), sim(5, 502, "poppel", 1),
                                       sim(3, 503, "pagat", 1))  # fmt: skip
    with (
        server(pg_url, tmp_path / "a.log") as (_a, a),
        server(pg_url, tmp_path / "b.log") as (_b, b),
    ):
        # Different tables, one per server, at the same time.
        t1, t2 = new_table(a, one_game), new_table(b, two_game)
        errors: list[BaseException] = []

        def run(client: httpx.Client, table: tuple[str, str], game: Game) -> None:
            try:
                log_all(client, *table, list(steps(game)))
            except BaseException as exc:
                errors.append(exc)

        threads = [
            threading.Thread(target=run, args=(a, t1, one_game)),
            threading.Thread(target=run, args=(b, t2, two_game)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert errors == [] and not any(t.is_alive() for t in threads)
        assert exported(b, t1[0]).hands == one_game.hands
        assert exported(a, t2[0]).hands == two_game.hands

        # One table, both servers: each entry is sent to both at once; exactly one is taken.
        table, token = new_table(a, shared_game)
        todo = list(steps(shared_game, drop_passes=True))
        send(a, table, token, todo[0])
        for step in todo[1:]:
            answers: list[int] = []

            def send_to(client: httpx.Client, step: Step, answers: list[int]) -> None:
                answers.append(send(client, table, token, step).status_code)

            pair = [threading.Thread(target=send_to, args=(c, step, answers)) for c in (a, b)]
            for t in pair:
                t.start()
            for t in pair:
                t.join(timeout=60)
            assert sorted(answers) == [200, 422], answers
        got = exported(b, table)
        assert without_passes(got) == without_passes(shared_game)
        assert got.hands[0].score == shared_game.hands[0].score
        assert state(a, table) == state(b, table)
