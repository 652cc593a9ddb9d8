"""The hindsight solver: time to solve endgames with 12, 16 and 20 cards left, 3 and 4 seats.

The positions come from self-play with fixed seeds (greedy or random bots from a random deal,
stopped when exactly that many cards are left, often in the middle of a trick). A solve is what
`analyze` needs per decision: the value of the seat to move, its best plays and a line
(`solve(state, all_seats=False)`). The measures run in a child process, so its peak memory is the
solver's own.

    .venv/bin/python -m bench.solve_bench [--quick]      # prints the figures as JSON
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from bench.rss import own_peak_rss_mb
from zfrec.games.zhengfen.engine.game import HandState, deal_random
from zfrec.games.zhengfen.engine.movegen import legal_plays
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.simulate import GreedyBot, RandomBot, _pick_cards
from zfrec.games.zhengfen.solver import Budget, solve

SEED = 20261121
SIZES = (12, 16, 20)
PER_SEATS = 6  # positions per size and number of seats (3 and 4)
QUICK_PER_SEATS = 1
BUDGET_SECONDS = 60.0  # a position not solved in this time counts with this time


def endgame(n: int, left: int, seed: int) -> HandState:
    """Self-play from a random deal until exactly `left` cards are in the hands."""
    for attempt in range(1000):
        rng = random.Random(seed * 1000 + attempt)
        hs = HandState(deal_random(n, 0, rng), rng.randrange(n), preset("pagat"))
        bot = GreedyBot() if rng.random() < 0.5 else RandomBot()
        while hs.result is None:
            total = sum(h.bit_count() for h in hs.hands)
            if total == left:
                return hs
            if total < left:
                break
            seat = hs.turn
            move = bot.choose(hs, legal_plays(hs.hands[seat], hs.top, hs.rules), rng)
            if move is None:
                hs.pass_(seat)
            else:
                hs.play_combo(seat, _pick_cards(hs, move, bot, rng))
    raise RuntimeError(f"no position with {left} cards left from seed {seed}")


def positions(left: int, per_seats: int) -> list[HandState]:
    return [endgame(n, left, SEED + 100 * n + i) for n in (3, 4) for i in range(per_seats)]


def measure(quick: bool) -> dict[str, Any]:
    per_seats = QUICK_PER_SEATS if quick else PER_SEATS
    out: dict[str, Any] = {}
    for left in SIZES:
        times: dict[int, list[float]] = {3: [], 4: []}
        cpu: list[float] = []
        nodes, unsolved = 0, 0
        for hs in positions(left, per_seats):
            start, start_cpu = time.perf_counter(), time.process_time()
            budget = Budget(nodes=None, seconds=10.0 if quick else BUDGET_SECONDS)
            result = solve(hs, budget=budget, all_seats=False)
            times[hs.n].append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            nodes += result.nodes
            unsolved += not result.solved
        every = times[3] + times[4]
        out[f"solve_{left}_ms"] = statistics.median(every)
        out[f"solve_{left}_max_ms"] = max(every)
        out[f"solve_{left}_cpu_ms"] = statistics.median(cpu)
        for n, spent in times.items():
            out[f"solve_{left}_{n}p_ms"] = statistics.median(spent)
            out[f"solve_{left}_{n}p_max_ms"] = max(spent)
        out[f"solve_{left}_nodes_per_s"] = nodes / (sum(every) / 1000)
        out[f"solve_{left}_unsolved"] = unsolved
    out.update(cost_figures())
    return out


def cost_figures() -> dict[str, Any]:
    """What the decision costs add to `analyze`: the sample game of 14 hands, every decision
    with 12 cards or fewer left solved (zfrec.games.zhengfen.analysis.costs)."""
    from pathlib import Path

    from zfrec.games.zhengfen.analysis.costs import decision_costs
    from zfrec.record import load

    (game,) = load(
        Path(__file__).resolve().parent.parent / "sample_games" / "05-full-game-to-500.zfn"
    )
    start = time.perf_counter()
    costs = decision_costs(game)
    return {
        "costs_game_ms": (time.perf_counter() - start) * 1000,
        "costs_decisions": len(costs),
    }


def solve_figures(quick: bool) -> dict[str, Any]:
    """Run the measures in a child process of their own, which adds its peak memory (MB)."""
    args = [sys.executable, "-m", "bench.solve_bench", *(["--quick"] if quick else [])]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the solver benchmark failed: {done.stderr}")
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


TARGETS = {
    "solve_16_ms": ("<=", 1000),
    "solve_20_ms": ("<=", 10000),
    "solve_peak_rss_mb": ("<", 500),
}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.solve_bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one position per size and seats")
    args = parser.parse_args()
    figures = measure(args.quick)
    figures["solve_peak_rss_mb"] = own_peak_rss_mb()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
