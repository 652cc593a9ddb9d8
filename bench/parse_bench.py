"""Parse-only throughput of the .zfn reader, in hands per second.

The file is read into memory first, so the figure measures tokenising and building records,
not the disk. Errors in the file are counted as parsed games with no hands, never raised:
the benchmark measures the reader, whatever it is fed.
"""

from __future__ import annotations

import time
from pathlib import Path

from zfrec.record.model import Game
from zfrec.record.zfn import iter_games


def _parse_once(lines: list[str], name: str) -> int:
    hands = 0
    for item in iter_games(lines, name):
        if isinstance(item, Game):
            hands += len(item.hands)
    return hands


def parse_hands_per_s(path: str | Path, min_seconds: float = 0.5, max_rounds: int = 50) -> float:
    """Hands parsed per second from the .zfn file at `path`.

    The file is parsed repeatedly until `min_seconds` have passed (or `max_rounds` passes), so
    small files still give a stable figure. Returns 0.0 for a file without hands.
    """
    lines = Path(path).read_text(encoding="utf-8-sig").splitlines(keepends=True)
    name = str(path)
    hands = 0
    rounds = 0
    start = time.perf_counter()
    elapsed = 0.0
    while rounds < max_rounds and (rounds == 0 or elapsed < min_seconds):
        hands += _parse_once(lines, name)
        rounds += 1
        elapsed = time.perf_counter() - start
    if hands == 0:
        return 0.0
    return hands / elapsed
