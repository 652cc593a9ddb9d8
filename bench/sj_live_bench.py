"""Latency of one Sheng ji move entry at the live table, with many tables entering at once.

As `bench.live_bench` for Zheng Fen: a `zfrec serve` process on loopback over a fresh SQLite
store; `tables` client threads each create a bashi fen table and log the first round of a
self-play match (full deals, the bids, the exchange, every play; a failed throw entered as a
block with the cards the blocker shows), all starting at the same instant, with a think time
of 0.2-0.6 s between a table's entries. Every POST /moves is timed from send to answer.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

from bench.live_bench import run_tables
from zfrec.games.shengji.cards import card_ids, format_hand, from_ids
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.match import play_match
from zfrec.games.shengji.records import SjRound
from zfrec.games.shengji.rules import sj_preset
from zfrec.games.shengji.simrecords import match_to_record

SEED = 20261128


def _less(a: int, b: int) -> int:
    out = 0
    for c in range(54):
        k = (a >> 2 * c & 3) - (b >> 2 * c & 3)
        if k > 0:
            out |= k << 2 * c
    return out


def round_calls(rnd: SjRound) -> list[tuple[str, dict[str, Any]]]:
    """The API calls that log one simulated round: ("hands" | "moves", body)."""
    assert rnd.deal is not None and rnd.dealer is not None and rnd.kitty and rnd.discard
    order = rnd.order()
    assert order is not None
    deals = {str(s + 1): format_hand(d.known) for s, d in enumerate(rnd.deal)}
    calls: list[tuple[str, dict[str, Any]]] = [
        ("hands", {"dealer": rnd.dealer + 1, "trump": rnd.trump, "deals": deals})
    ]
    calls += [("moves", {"seat": b.seat + 1, "bid": format_hand(b.cards)}) for b in rnd.bids]
    calls.append(("moves", {"seat": rnd.dealer + 1, "discard": format_hand(rnd.discard.known),
                            "kitty": format_hand(rnd.kitty.known)}))  # fmt: skip
    hands = [d.known for d in rnd.deal]
    hands[rnd.dealer] = _less(hands[rnd.dealer] + rnd.kitty.known, rnd.discard.known)
    for trick in rnd.tricks:
        for m in trick.moves:
            body: dict[str, Any] = {"seat": m.seat + 1, "play": format_hand(m.cards)}
            if m.failed and m.blocker is not None:
                es = classify(order, m.cards).esuit
                shows = from_ids([c for c in card_ids(hands[m.blocker]) if order.esuit[c] == es])
                body.update(blocked_by=m.blocker + 1, shows=format_hand(shows))
            calls.append(("moves", body))
            hands[m.seat] = _less(hands[m.seat], m.played)
    return calls


def _log(client: Any, players: list[str], calls: list[tuple[str, dict[str, Any]]],
         latencies: list[float], errors: list[str], think: tuple[float, float],
         start: threading.Barrier, seed: int) -> None:  # fmt: skip
    rng = random.Random(seed)
    r = client.post("/api/tables", json={"game": "shengji", "players": players})
    if r.status_code != 201:
        errors.append(r.text)
        return
    table, token = r.json()["id"], r.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    start.wait(timeout=60)
    for kind, body in calls:
        if think[1] > 0:
            time.sleep(rng.uniform(*think))
        began = time.perf_counter()
        r = client.post(f"/api/tables/{table}/{kind}", json=body, headers=auth)
        if kind == "moves":
            latencies.append(time.perf_counter() - began)
        if r.status_code not in (200, 201):
            errors.append(r.text)
            return


def sj_live_move_latency_ms(
    tables: int = 20, think: tuple[float, float] = (0.2, 0.6), limit: int | None = None
) -> tuple[float, float]:
    """(p50, p99) in milliseconds of a Sheng ji POST /moves with `tables` tables entering at
    once; `limit` stops each table after that many calls (the quick run)."""
    rules = sj_preset()
    work = []
    for i in range(tables):
        match = match_to_record(play_match(rules, SEED + i, ["greedy"] * 4, max_rounds=1))
        work.append((list(match.players), round_calls(match.rounds[0])[:limit]))
    return run_tables(
        len(work),
        lambda c, i, start, latencies, errors: _log(
            c, *work[i], latencies, errors, think, start, SEED + i
        ),
        "Sheng ji live bench",
    )


if __name__ == "__main__":
    print(sj_live_move_latency_ms())
