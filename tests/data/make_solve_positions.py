"""Writes tests/data/solve_positions.json: fixed positions with every seat's paranoid value, as
computed by the plain minimax of tests/solve_reference.py (never by the solver under test).

    .venv/bin/python -m tests.data.make_solve_positions

Each case is a deal (one card list per seat), a leader, the moves played from it (`-` passes,
plays as written in records, jokers declared), or a sample record; and the values in seat order.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from tests.solve_reference import Minimax, random_prefix
from zfrec.games.zhengfen.analysis.position import record_position
from zfrec.games.zhengfen.engine.cards import format_cards
from zfrec.games.zhengfen.engine.game import HandState
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.record import load

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = HERE / "solve_positions.json"

# name, seats, rules preset, options, cards, seed; the deal is random from the seed, with the
# cards biased as named, and the random play before the position too.
SPECS: list[tuple[str, int, str, dict[str, Any], int, str, int]] = [
    ("three-pagat-lead", 3, "pagat", {}, 10, "any", 1),
    ("three-pagat-trick-open", 3, "pagat", {}, 11, "counters", 2),
    ("three-jokers", 3, "pagat", {}, 11, "jokers", 3),
    ("three-parlett-jokers", 3, "parlett", {}, 11, "jokers", 4),
    ("three-full-house", 3, "pagat", {}, 12, "triples", 5),
    ("three-suit-sequence", 3, "pagat", {}, 12, "suit", 6),
    ("three-specials", 3, "pagat", {}, 11, "counters", 7),
    ("four-pagat", 4, "pagat", {}, 12, "any", 8),
    ("four-poppel", 4, "poppel", {}, 11, "any", 9),
    ("four-equal-lengths", 4, "pagat", {"sequence_lengths": "equal"}, 12, "pairs", 10),
    ("five-pagat", 5, "pagat", {}, 11, "counters", 11),
    ("five-poppel-jokers", 5, "poppel", {}, 11, "jokers", 12),
    ("six-pagat", 6, "pagat", {}, 11, "any", 13),
    ("three-fourteen", 3, "pagat", {}, 14, "any", 14),
    ("four-twelve-jokers", 4, "pagat", {}, 12, "jokers", 15),
]


def pool(kind: str, rng: random.Random) -> list[int]:
    if kind == "counters":
        cards = [c for c in range(52) if c >> 2 in (2, 7, 10)]
        return rng.sample(cards, len(cards)) + rng.sample(range(52), 52)
    if kind == "jokers":
        return [52, 53, *rng.sample(range(52), 52)]
    if kind == "triples":
        ranks = rng.sample(range(13), 4)
        return [4 * r + s for r in ranks for s in range(4)] + [53]
    if kind == "suit":
        suit, low = rng.randrange(4), rng.randrange(6)
        return [4 * r + suit for r in range(low, low + 7)] + [52] + rng.sample(range(52), 52)
    if kind == "pairs":
        ranks = rng.sample(range(13), 5)
        return [4 * r + s for r in ranks for s in range(2)] + rng.sample(range(52), 52)
    return rng.sample(range(54), 54)


def case(name: str, n: int, rules_name: str, options: dict[str, Any], cards: int, kind: str,
         seed: int) -> dict[str, Any]:  # fmt: skip
    rules = preset(rules_name, **options)
    rng = random.Random(seed)
    chosen: list[int] = []
    for c in pool(kind, rng):
        if c not in chosen:
            chosen.append(c)
        if len(chosen) == cards + 4:
            break
    chosen = chosen[: cards + 4]
    rng.shuffle(chosen)
    hands = [0] * n
    for i, c in enumerate(chosen):
        hands[i % n if i < n else rng.randrange(n)] |= 1 << c
    hs = HandState(list(hands), rng.randrange(n), rules)
    # Play until `cards` remain, so a trick is often in progress and points are taken.
    moves = []
    while sum(h.bit_count() for h in hs.hands) > cards and hs.result is None:
        moves += random_prefix(hs, rng, 1)
    if hs.result is None:
        moves += random_prefix(hs, rng, rng.randrange(3))
    out = {
        "name": name,
        "rules": {"preset": rules_name, "options": options},
        "hands": [format_cards(h) for h in hands],
        "leader": hs.leader,
        "moves": ["-" if m is None else m.text() for m in moves],
    }
    return with_values(out, hs)


def with_values(out: dict[str, Any], hs: HandState) -> dict[str, Any]:
    """Add the minimax values, or reuse them from the file if the case is unchanged."""
    old = PREVIOUS.get(out["name"])
    if old is not None and all(old.get(k) == v for k, v in out.items()):
        return old
    start = time.perf_counter()
    values = list(Minimax().values(hs))
    took = time.perf_counter() - start
    print(f"{out['name']}: {took:.1f}s", flush=True)
    # The slow lane recomputes the cases the minimax finishes within a minute or so.
    return {**out, "values": values, "recheck": took < 60}


def record_case(name: str, path: str) -> dict[str, Any]:
    (game,) = load(ROOT / path)
    return with_values({"name": name, "record": path}, record_position(game).state)


PREVIOUS: dict[str, dict[str, Any]] = (
    {c["name"]: c for c in json.loads(OUT.read_text(encoding="utf-8"))} if OUT.exists() else {}
)


def main() -> None:
    cases = [
        record_case("sample-three-players", "sample_games/unfinished/three-players.zfn"),
        record_case(
            "sample-poppel-take-or-beat", "sample_games/unfinished/poppel-take-or-beat.zfn"
        ),
    ]
    for spec in SPECS:
        cases.append(case(*spec))
        OUT.write_text(json.dumps(cases, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    OUT.write_text(json.dumps(cases, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
