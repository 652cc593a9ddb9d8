"""How often Python's garbage collector looks at young objects, in one place for every command.

Reading and judging records makes many small objects (moves, their positions, rows to store)
that all live until their game is done. With the default threshold of 700 allocations, the
collector looks at the same live objects again and again: a tenth of a validation run, and at
50,000 still 4% of an import. At 200,000 a game's objects are freed before the collector comes
round (a game holds some thousands), so it hardly runs; cyclic garbage can hold at most that
many objects, some megabytes.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG = 200_000  # allocations between collections of the youngest generation


def tune_gc() -> None:
    """Set the young generation's threshold for the whole process (the zfrec command does)."""
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], YOUNG), *threshold[1:])


@contextmanager
def young_threshold() -> Iterator[None]:
    """The same for a block only (a library call such as zfrec.batch.run), restored after."""
    threshold = gc.get_threshold()
    tune_gc()
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


@contextmanager
def collected_after() -> Iterator[None]:
    """No collection during the block, and one of the young generation after it: for work
    that builds a large structure that lives until the work is done, then is dropped (a
    game's view, from which its pages are written: tens of thousands of objects).

    A collection in the middle of such work goes over every object of the structure, still
    alive, and frees nothing: in `zfrec publish` each took a tenth of a second, 8% of the run.
    After the block the structure is gone (freed as the last reference to it goes), and what
    the collection goes over is what outlives it and the cycles left behind (matplotlib's
    figures), which it frees. Garbage can pile up only within the block.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)
