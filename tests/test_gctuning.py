"""The garbage collector's settings for long runs (zfrec.gctuning)."""

from __future__ import annotations

import gc

from zfrec.gctuning import YOUNG, collected_after, young_threshold


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def _nodes() -> int:
    return sum(type(o) is _Node for o in gc.get_objects())


def test_collected_after_holds_the_collector_off_then_frees_the_cycles_left() -> None:
    gc.collect()
    assert gc.isenabled()
    with collected_after():
        assert not gc.isenabled()
        for _ in range(YOUNG + 1_000):  # past the young threshold: nothing is collected here
            _Node()
        assert _nodes() == YOUNG + 1_000
    assert gc.isenabled()
    assert _nodes() == 0


def test_collected_after_leaves_a_disabled_collector_alone() -> None:
    gc.disable()
    try:
        with collected_after():
            _Node()
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.collect()


def test_young_threshold_is_restored_after_the_block() -> None:
    before = gc.get_threshold()
    gc.set_threshold(700, *before[1:])
    try:
        with young_threshold():
            assert gc.get_threshold()[0] == YOUNG
        assert gc.get_threshold()[0] == 700
    finally:
        gc.set_threshold(*before)
