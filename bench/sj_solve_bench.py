"""The Sheng ji double-dummy solver: time to solve positions of 6, 8 and 12 cards a seat.

The positions come from greedy self-play (bashi fen, four seats) from random deals with fixed
seeds, stopped at the first lead when every seat holds exactly that many cards. A solve is the
double-dummy value with a best play of the seat to move and a line (`solve_state(state,
ties=False)`); `zfrec solve` also proves every play that ties, which can cost several times
more where many plays tie (`sj_solve_N_ties_ms`). The measures run in a child process, so its
peak memory is the solver's own.

- `sj_solve_6_ms`, `sj_solve_8_ms`, `sj_solve_12_ms`: the median over the positions of a size
  (targets 100 ms, 1,000 ms and 10 s); a position not solved within the budget counts with
  the time it took (`sj_solve_N_unsolved` counts them);
- `sj_solve_N_cpu_ms`: the median processor time (on a shared, loaded machine the wall time
  can be several times longer); `sj_solve_N_nodes`: the median positions searched;
- `sj_solve_peak_rss_mb`: the child's peak memory (target below 500 MB).

    .venv/bin/python -m bench.sj_solve_bench [--quick]      # prints the figures as JSON
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
from zfrec.games.shengji.bots import GreedyBot
from zfrec.games.shengji.cards import from_ids, size
from zfrec.games.shengji.order import make_order
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import sj_preset
from zfrec.games.shengji.solve import SjBudget, solve_state

SEED = 20261128
SIZES = (6, 8, 12)
FULL_SIZES = (6, 8)  # sizes also timed with every tie of the best play (`zfrec solve`)
PER_SIZE = 6
QUICK_PER_SIZE = 1
BUDGET_SECONDS = {6: 20.0, 8: 30.0, 12: 60.0}  # a position not solved counts with this time
TARGETS: dict[str, tuple[str, float]] = {
    "sj_solve_6_ms": ("<=", 100),
    "sj_solve_8_ms": ("<=", 1000),
    "sj_solve_12_ms": ("<=", 10000),
    "sj_solve_peak_rss_mb": ("<", 500),
}


def position(per_seat: int, seed: int) -> RoundState:
    """Greedy self-play from a random deal until each seat holds `per_seat` cards at a lead."""
    rules = sj_preset()
    rng = random.Random(seed)
    deck = list(range(54)) * 2
    rng.shuffle(deck)
    hand = rules.hand_size
    hands = [from_ids(deck[i * hand : (i + 1) * hand]) for i in range(4)]
    kitty = from_ids(deck[4 * hand :])
    order = make_order(rng.randrange(13), rng.choice((None, 0, 1, 2, 3)))
    state = RoundState.from_hands(hands, order, rng.randrange(4), rules, kitty=kitty)
    bot = GreedyBot()
    while not (state.lead is None and size(state.hands[state.turn]) == per_seat):
        seat = state.turn
        state.play(seat, bot.play(state, seat, rng))
        if state.over or size(state.hands[state.turn]) < per_seat - 1:
            return position(per_seat, seed + 7919)  # a throw skipped the size: another deal
    return state


def measure(quick: bool) -> dict[str, Any]:
    per_size = QUICK_PER_SIZE if quick else PER_SIZE
    out: dict[str, Any] = {}
    for k in SIZES:
        times: list[float] = []
        cpu: list[float] = []
        full: list[float] = []
        nodes: list[int] = []
        unsolved = 0
        for i in range(per_size):
            state = position(k, SEED + 1000 * k + i)
            seconds = 5.0 if quick else BUDGET_SECONDS[k]
            start, start_cpu = time.perf_counter(), time.process_time()
            budget = SjBudget(max_nodes=None, max_seconds=seconds)
            result = solve_state(state, budget, ties=False)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            nodes.append(result.nodes)
            unsolved += not result.exact
            if k in FULL_SIZES:
                start = time.perf_counter()
                solve_state(state, budget)
                full.append((time.perf_counter() - start) * 1000)
        out[f"sj_solve_{k}_ms"] = statistics.median(times)
        out[f"sj_solve_{k}_max_ms"] = max(times)
        out[f"sj_solve_{k}_cpu_ms"] = statistics.median(cpu)
        out[f"sj_solve_{k}_nodes"] = statistics.median(nodes)
        out[f"sj_solve_{k}_unsolved"] = unsolved
        if full:
            out[f"sj_solve_{k}_ties_ms"] = statistics.median(full)
    return out


def sj_solve_figures(quick: bool) -> dict[str, Any]:
    """Run the measures in a child process of their own, which adds its peak memory (MB)."""
    args = [sys.executable, "-m", "bench.sj_solve_bench", *(["--quick"] if quick else [])]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the Sheng ji solver benchmark failed: {done.stderr}")
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.sj_solve_bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one position a size")
    args = parser.parse_args()
    figures = measure(args.quick)
    figures["sj_solve_peak_rss_mb"] = own_peak_rss_mb()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
