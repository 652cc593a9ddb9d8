"""Render throughput of the hand replays, in hands per second (target: 200 hands/s).

Each game goes through what `zfrec render` does for its replays, charts aside: one pass of the
replay stream builds every hand's view-model, then each hand's self-contained page is rendered
to a string (and encoded, as it would be written). Charts are left out (bench/publish_bench.py
measures whole sites). Templates are compiled before the clock starts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from zfrec.games.zhengfen.pages.html import build_game_view, render_hand
from zfrec.record.model import Game


def _render_once(games: Sequence[Game]) -> int:
    hands = 0
    for game in games:
        for hand in build_game_view(game).hands:
            render_hand(hand).encode()
            hands += 1
    return hands


def render_hands_per_s(
    games: Sequence[Game], min_seconds: float = 0.5, max_rounds: int = 20
) -> float:
    """Hand replay pages rendered per second over `games` (0.0 if they hold no hands).

    The games are rendered repeatedly until `min_seconds` have passed (or `max_rounds` passes).
    """
    if not any(g.hands for g in games):
        return 0.0
    _render_once(games[:1])  # compile the templates outside the clock
    hands = rounds = 0
    start = time.perf_counter()
    elapsed = 0.0
    while rounds < max_rounds and (rounds == 0 or elapsed < min_seconds):
        hands += _render_once(games)
        rounds += 1
        elapsed = time.perf_counter() - start
    return hands / elapsed


def main() -> None:
    from zfrec.games.zhengfen.engine.rules import preset
    from zfrec.games.zhengfen.simulate import SimConfig, simulate_game

    games = [
        simulate_game(SimConfig(n, preset("pagat"), "greedy", None), 1000 + n) for n in (3, 4, 5, 6)
    ]
    hands = sum(len(g.hands) for g in games)
    print(f"render_hands_per_s: {render_hands_per_s(games):.0f} ({hands} hands, 3-6 seats)")


if __name__ == "__main__":
    main()
