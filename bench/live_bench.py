"""Latency of one move entry at the live table, with many tables entering at once.

A `zfrec serve` process runs on loopback over a fresh SQLite store (its default settings).
`tables` client threads each create a table and log a self-play hand (full deals, so the server
also works out the legal plays it offers) move by move, all starting at the same instant; every
POST /moves is timed from send to answer (the entry is committed before the answer). Between
two entries a table waits a think time drawn from 0.2-0.6 s, far quicker than people at a
table (several seconds a move), so the server always has several tables' entries in hand. With
`think=0` every table enters as fast as the answers come: a saturation test.
The figures are the median and the 99th percentile over all those entries.
"""

from __future__ import annotations

import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zfrec.games.zhengfen.engine.cards import format_cards
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import Game

ROOT = Path(__file__).resolve().parent.parent
SEED = 20261123


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _log(
    client: Any,
    game: Game,
    latencies: list[float],
    errors: list[str],
    think: tuple[float, float],
    start: threading.Barrier,
    seed: int,
    limit: int | None,
) -> None:
    rng = random.Random(seed)
    sent = 0
    r = client.post("/api/tables", json={"players": game.players, "target": game.target})
    if r.status_code != 201:
        errors.append(r.text)
        return
    table, token = r.json()["id"], r.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    start.wait(timeout=60)
    for hand in game.hands:
        assert hand.deal is not None and hand.shuffler is not None
        deals = {str(s + 1): format_cards(d.known) for s, d in enumerate(hand.deal)}
        body = {"shuffler": hand.shuffler + 1, "deals": deals}
        r = client.post(f"/api/tables/{table}/hands", json=body, headers=auth)
        if r.status_code != 201:
            errors.append(r.text)
            return
        for trick in hand.tricks:
            for move in trick.moves:
                play = "-" if move.is_pass else move.play_text()
                if limit is not None and sent >= limit:
                    return
                sent += 1
                if think[1] > 0:
                    time.sleep(rng.uniform(*think))
                began = time.perf_counter()
                r = client.post(
                    f"/api/tables/{table}/moves",
                    json={"seat": move.seat + 1, "play": play},
                    headers=auth,
                )
                latencies.append(time.perf_counter() - began)
                if r.status_code != 200:
                    errors.append(r.text)
                    return


def live_move_latency_ms(
    tables: int = 20,
    hands: int = 1,
    think: tuple[float, float] = (0.2, 0.6),
    limit: int | None = None,
) -> tuple[float, float]:
    """(p50, p99) in milliseconds of POST /moves with `tables` tables entering at once;
    `limit` stops each table after that many moves (the quick run)."""
    games = [
        simulate_game(SimConfig(3 + i % 4, preset("pagat"), "greedy", hands), SEED + i)
        for i in range(tables)
    ]
    return run_tables(
        len(games),
        lambda c, i, start, latencies, errors: _log(
            c, games[i], latencies, errors, think, start, SEED + i, limit
        ),
        "live bench",
    )


# A table's client: (its client, its index, the barrier all start at, latencies, errors).
Logger = Callable[[Any, int, threading.Barrier, list[float], list[str]], None]


def run_tables(tables: int, log: Logger, label: str) -> tuple[float, float]:
    """Start `zfrec serve` on loopback over a fresh SQLite store, run `log` for each of
    `tables` tables in its own thread with its own client, all at once, and give (p50, p99) in
    milliseconds of the latencies they noted."""
    import httpx2 as httpx

    with tempfile.TemporaryDirectory(prefix="zfrec-live-bench-") as folder:
        port = _port()
        server = subprocess.Popen(
            [sys.executable, "-m", "zfrec", "serve", "--db", f"{folder}/live.db",
             "--port", str(port)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            with httpx.Client(base_url=base) as probe:
                while True:
                    try:
                        if probe.get("/api/tables").status_code == 200:
                            break
                    except httpx.TransportError:
                        if time.monotonic() > deadline:
                            raise RuntimeError("zfrec serve did not start") from None
                        time.sleep(0.1)
            latencies: list[float] = []
            errors: list[str] = []
            clients = [httpx.Client(base_url=base, timeout=60) for _ in range(tables)]
            start = threading.Barrier(tables)
            threads = [
                threading.Thread(target=log, args=(c, i, start, latencies, errors))
                for i, c in enumerate(clients)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=600)
            for c in clients:
                c.close()
            if errors or any(t.is_alive() for t in threads):
                raise RuntimeError(f"{label}: entries refused: {errors[:3]}")
        finally:
            server.terminate()
            server.wait(timeout=10)
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return statistics.median(ordered) * 1000, p99 * 1000
