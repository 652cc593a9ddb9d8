"""Ctrl-C as a budget: a long search (`zfrec solve`) stops where it is and answers with the
best it found, as when its time runs out, instead of dying with nothing said.

`stop_on_interrupt()` holds SIGINT for the block: the first Ctrl-C only sets the flag that the
searches poll with their budget checks (`requested()`); a second one interrupts as usual.
Outside such a block, and in any thread but the main one, nothing changes.

    >>> with stop_on_interrupt() as stop:
    ...     requested(), stop.interrupted
    (False, False)
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

__all__ = ["Stop", "requested", "stop_on_interrupt"]

_flag = [False]


def requested() -> bool:
    """Ctrl-C was pressed inside a `stop_on_interrupt` block: stop as if out of budget."""
    return _flag[0]


@dataclass(slots=True)
class Stop:
    """Whether the block was interrupted (read it after the block)."""

    interrupted: bool = False


@contextmanager
def stop_on_interrupt() -> Iterator[Stop]:
    """The block with Ctrl-C turned into a stop request (see the module doc)."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def first(signum: int, frame: FrameType | None) -> None:
        _flag[0] = stop.interrupted = True
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C interrupts

    before = signal.signal(signal.SIGINT, first)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, before)
        _flag[0] = False
