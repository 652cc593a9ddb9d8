"""Ctrl-C as a budget: a long search (`zfrec solve`) stops where it is and answers with the
best it found, as when its time runs out, instead of dying with nothing said.

`stop_on_interrupt()` holds SIGINT for the block: the first Ctrl-C only sets the flag that the
searches poll with their budget checks (`requested()`); a second one interrupts as usual.
Outside such a block, and in any thread but the main one, nothing changes.

`interrupts_held()` holds Ctrl-C for a block that must not be cut (publish's exchange of the
site folders): one that comes meanwhile is felt once the block is over.

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

__all__ = ["Stop", "interrupts_held", "requested", "stop_on_interrupt"]

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


@contextmanager
def interrupts_held() -> Iterator[None]:
    """The block with Ctrl-C held: a SIGINT that comes meanwhile is delivered, to the handler
    as it was, once the block is over. (A Python handler, not the main thread's signal mask:
    while other threads run, the system hands the signal to one of them, and Python then
    raises it in the main thread all the same.) Outside the main thread nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if before is None else before)
        if came:
            signal.raise_signal(signal.SIGINT)
