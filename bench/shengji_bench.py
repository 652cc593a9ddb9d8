"""Sheng ji engine benchmarks: judging a trick, listing follows, self-play.

- `sj_trick_judge_us`: the median time to judge one four-play trick (read the lead, find the
  winner and the points), over tricks taken from greedy self-play;
- `sj_follow_enum_us`: the median time to list every legal follow of a 25-card hand to a pair
  lead, over random bashi fen deals (the hand of the seat after a leader holding a pair);
- `sj_selfplay_hands_per_s`: rounds (hands) of greedy bashi fen self-play per second of
  processor time (one core), the draw with its bids, the kitty and every trick included;
- `sj_perft_nodes_per_s` (no target): perft of the larger pinned position, nodes per second.

    .venv/bin/python -m bench.shengji_bench [--quick]      # prints the figures as JSON
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bench.engine_bench import per_call_us
from zfrec.games.shengji.cards import count, distinct
from zfrec.games.shengji.events import PlayEvent
from zfrec.games.shengji.follow import legal_follows
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.match import play_match
from zfrec.games.shengji.order import Order, make_order
from zfrec.games.shengji.rules import sj_preset
from zfrec.games.shengji.trick import trick_points, trick_winner

SEED = 20261128
TARGETS: dict[str, tuple[str, float]] = {
    "sj_trick_judge_us": ("<=", 20),
    "sj_follow_enum_us": ("<=", 50),
    "sj_selfplay_hands_per_s": (">=", 200),
}


def tricks(count_wanted: int) -> list[tuple[Order, list[int]]]:
    """Four-play tricks from greedy self-play, every kind of lead among them."""
    out: list[tuple[Order, list[int]]] = []
    seed = SEED
    while len(out) < count_wanted:
        match = play_match(sj_preset(), seed, ["greedy"] * 4, max_rounds=2)
        for r in match.rounds:
            assert r.state.order is not None
            for e in r.state.log:
                if isinstance(e, PlayEvent) and e.trick_result is not None:
                    out.append((r.state.order, [p for _, p in e.trick_result.plays]))
        seed += 1
    return out[:count_wanted]


def trick_judge_us(min_seconds: float, cases: int = 40) -> float:
    """The median time to judge one trick: its winner and its points."""

    def timed(order: Order, plays: list[int]) -> float:
        return per_call_us(lambda: (trick_winner(order, plays), trick_points(plays)),
                           min_seconds / cases)  # fmt: skip

    return statistics.median(timed(o, p) for o, p in tricks(cases))


def pair_lead_cases(cases: int) -> list[tuple[Order, int, int]]:
    """(order, pair lead, the next seat's 25-card hand) from random deals."""
    rng = random.Random(SEED)
    out: list[tuple[Order, int, int]] = []
    while len(out) < cases:
        deck = list(range(54)) * 2
        rng.shuffle(deck)
        order = make_order(rng.randrange(13), rng.choice([0, 1, 2, 3, None]))
        hands = [0] * 4
        for i, c in enumerate(deck[:100]):
            hands[i % 4] += 1 << (2 * c)
        pairs = [c for c in distinct(hands[0]) if count(hands[0], c) == 2]
        if pairs:
            c = rng.choice(pairs)
            out.append((order, 2 << (2 * c), hands[1]))
    return out


def follow_enum_us(min_seconds: float, cases: int = 40) -> float:
    """The median time to list every legal follow of a 25-card hand to a pair lead."""

    def timed(order: Order, lead_cards: int, hand: int) -> float:
        lead = classify(order, lead_cards)
        return per_call_us(lambda: list(legal_follows(order, lead, hand)), min_seconds / cases)

    return statistics.median(timed(*case) for case in pair_lead_cases(cases))


def selfplay_hands_per_s(rounds_wanted: int) -> float:
    """Rounds of greedy bashi fen self-play per second of processor time (the best of three
    runs): the target is per core, and on a shared machine the wall clock counts the other
    processes' turns too."""
    best = 0.0
    for run in range(3):
        start, rounds, seed = time.process_time(), 0, SEED + 1000 * run
        while rounds < rounds_wanted:
            rounds += len(play_match(sj_preset(), seed, ["greedy"] * 4, max_rounds=10).rounds)
            seed += 1
        best = max(best, rounds / max(time.process_time() - start, 1e-9))
    return best


def perft_nodes_per_s() -> float:
    """Perft of the larger position of tests/data/sj_perft.json to its pinned depth: nodes
    (plays counted at every depth) per second of processor time, the best of three."""
    from pathlib import Path

    from zfrec.games.shengji.cards import parse_hand
    from zfrec.games.shengji.order import parse_trump
    from zfrec.games.shengji.perft import perft_counts
    from zfrec.games.shengji.round import RoundState

    data = json.loads(
        (Path(__file__).resolve().parent.parent / "tests" / "data" / "sj_perft.json").read_text(
            encoding="utf-8"
        )
    )
    pos = next(p for p in data["positions"] if p["name"] == "larger")
    hands = [parse_hand(h) for h in pos["hands"]]
    state = RoundState.from_hands(hands, parse_trump(pos["trump"]), pos["leader"] - 1)
    best = 0.0
    for _ in range(3):
        start = time.process_time()
        counts = perft_counts(state, len(pos["counts"]))
        best = max(best, sum(counts) / max(time.process_time() - start, 1e-9))
    if counts != pos["counts"]:
        raise RuntimeError("the larger perft position no longer gives its pinned counts")
    return best


def shengji_figures(quick: bool) -> dict[str, float]:
    secs = 0.05 if quick else 1.0
    return {
        "sj_trick_judge_us": trick_judge_us(secs),
        "sj_follow_enum_us": follow_enum_us(secs),
        "sj_selfplay_hands_per_s": selfplay_hands_per_s(10 if quick else 200),
        "sj_perft_nodes_per_s": perft_nodes_per_s(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.shengji_bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    args = parser.parse_args()
    print(json.dumps(shengji_figures(args.quick), indent=2))


if __name__ == "__main__":
    main()
