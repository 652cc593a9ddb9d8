"""Validation throughput, parse included: one process, or a pool of worker processes."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

from zfrec.cli.common import tune_gc
from zfrec.validate import summarize, validate_path


def validate_file(path: Path) -> tuple[int, int, int]:
    """(hands, moves, errors) of one file; a module-level function so workers can run it."""
    tune_gc()  # workers start fresh, as the zfrec command's own workers do
    summary = summarize(validate_path(path), str(path))
    return summary.hands, summary.moves, summary.errors


def validate_rate(files: list[Path], jobs: int = 1) -> tuple[float, float]:
    """Hands/s and moves/s over the files. A move is every action, passes included."""
    start = time.perf_counter()
    if jobs == 1:
        results = [validate_file(p) for p in files]
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            results = pool.map(validate_file, files)
    elapsed = time.perf_counter() - start
    if any(errors for _, _, errors in results):
        raise RuntimeError("the benchmark corpus must validate clean")
    return sum(r[0] for r in results) / elapsed, sum(r[1] for r in results) / elapsed
