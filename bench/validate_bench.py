"""Validation throughput, parse included: one process, or worker processes sharing the games.

Both go through zfrec.batch, as `zfrec validate` does: a file is cut into pieces of whole games,
so two workers share one large file as well as many files.
"""

from __future__ import annotations

import time
from pathlib import Path

from zfrec.batch import Options, run


def validate_rate(files: list[Path], jobs: int = 1) -> tuple[float, float]:
    """Hands/s and moves/s over the files. A move is every action, passes included."""
    start = time.perf_counter()
    hands = moves = errors = 0
    for judged in run([str(p) for p in files], Options(), jobs):
        if judged.summary is not None:
            hands += judged.summary.hands
            moves += judged.summary.moves
            errors += judged.summary.errors
        elif judged.problem:
            raise RuntimeError(judged.problem)
    elapsed = time.perf_counter() - start
    if errors:
        raise RuntimeError("the benchmark corpus must validate clean")
    return hands / elapsed, moves / elapsed


def best_rate(files: list[Path], jobs: int, runs: int = 3) -> float:
    """Hands/s over the files: the fastest of `runs` runs, since another process on the
    machine only ever slows a run."""
    return max(validate_rate(files, jobs)[0] for _ in range(runs))
