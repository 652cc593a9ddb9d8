"""Micro-benchmarks of the rules engine: classification and legal-play enumeration."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from functools import partial

from zfrec.games.zhengfen.engine.cards import BJ, SJ, parse_play
from zfrec.games.zhengfen.engine.combos import Combo, readings
from zfrec.games.zhengfen.engine.game import deal_random
from zfrec.games.zhengfen.engine.movegen import expand, legal_plays, physical_plays


def per_call_us(fn: Callable[[], object], min_seconds: float = 0.2, rounds: int = 3) -> float:
    """Microseconds per call of `fn`: the fastest of `rounds` rounds, each of repeated batches
    for at least `min_seconds / rounds`.

    The fastest round, as timeit advises: another process taking the core only ever adds
    time, so the minimum is the figure least disturbed by the machine's load.
    """
    return min(_round_us(fn, min_seconds / rounds) for _ in range(rounds))


def fastest_each_us(
    fns: Sequence[Callable[[], object]], min_seconds: float, rounds: int = 3
) -> list[float]:
    """Microseconds per call of each of `fns`, the fastest of `rounds` rounds, with the rounds
    taken in turn over all of them (each fn's round lasting at least `min_seconds / rounds`).

    Taking the rounds in turn keeps a disturbance of a second or two from landing on all the
    rounds of one function: a worst case over many functions would otherwise pick whichever
    one the machine slowed, not the slowest one.
    """
    best = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], _round_us(fn, min_seconds / rounds))
    return best


def _round_us(fn: Callable[[], object], min_seconds: float) -> float:
    calls, start = 0, time.perf_counter()
    batch = 1
    while True:
        for _ in range(batch):
            fn()
        calls += batch
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / calls * 1e6
        batch *= 2


# Five-card plays of every kind, jokers declared and undeclared.
DECLARED = ["7s 7h SJ=8 BJ=8 8c", "9h Th Jh SJ=Qh BJ=Kh", "5s 5h 6s SJ=6 BJ=7 7h", "8s 8h BJ=8"]
INFERRED = ["7s 7h SJ BJ 8c", "9h Th Jh SJ BJ", "5s 5h 6s SJ BJ 7h", "8s 8h BJ"]


def classify_us(texts: list[str], min_seconds: float) -> float:
    plays = [parse_play(t) for t in texts]
    args = [(p.mask, p.declared() or None) for p in plays]

    def run() -> None:
        for mask, decls in args:
            readings(mask, declarations=decls)

    return per_call_us(run, min_seconds) / len(args)


def hands_with_both_jokers(count: int, seed: int = 2024) -> list[int]:
    """A fixed set of 18-card hands (three seats) that hold both jokers."""
    rng, out = random.Random(seed), list[int]()
    while len(out) < count:
        for hand in deal_random(3, 0, rng):
            if hand >> SJ & 1 and hand >> BJ & 1:
                out.append(hand)
    return out[:count]


def lead_worst_us(hands: list[int], physical: bool, min_seconds: float) -> float:
    """The slowest hand's time to enumerate every lead."""
    return lead_worst(hands, physical, min_seconds)[0]


def lead_worst(hands: list[int], physical: bool, min_seconds: float) -> tuple[float, int]:
    """(µs, leads listed) of the hand that takes longest to enumerate every lead."""

    enumerate_all = physical_plays if physical else legal_plays
    fns = [partial(enumerate_all, hand) for hand in hands]
    times = fastest_each_us(fns, min_seconds)
    return max((us, len(fn())) for us, fn in zip(times, fns, strict=True))


def physical_us_per_set(hands: list[int], min_seconds: float) -> float:
    """What physical enumeration costs per card set it lists: the time to list every lead of
    every hand, over the number of (card set, reading) pairs listed, so that hands with many
    sets do not hide behind the per-call figure."""
    total_us = sum(fastest_each_us([partial(physical_plays, h) for h in hands], min_seconds))
    return total_us / sum(len(physical_plays(hand)) for hand in hands)


def follow_typical_us(min_seconds: float, seed: int = 7) -> float:
    """Median time to enumerate follows for a seat facing a typical top play."""
    rng = random.Random(seed)
    cases: list[tuple[int, Combo]] = []
    while len(cases) < 40:
        hands = deal_random(4, 0, rng)
        leads = legal_plays(hands[0])
        move = rng.choice(leads)
        top = expand(hands[0], move)[0]
        cases.append((hands[1], top))

    def timed(hand: int, top: Combo) -> float:
        return per_call_us(lambda: legal_plays(hand, top), min_seconds / 10)

    times = sorted(timed(hand, top) for hand, top in cases)
    return times[len(times) // 2]


def engine_figures(quick: bool) -> dict[str, float]:
    secs = 0.02 if quick else 0.3
    hands = hands_with_both_jokers(3 if quick else 24)
    return {
        "classify_declared_us": classify_us(DECLARED, secs),
        "classify_inferred_us": classify_us(INFERRED, secs),
        "lead_enum_worst_us": lead_worst_us(hands, False, secs / 3),
        "lead_enum_physical_worst_us": lead_worst_us(hands, True, secs / 3),
        "lead_enum_physical_us_per_set": physical_us_per_set(hands, secs / 3),
        "follow_enum_typical_us": follow_typical_us(secs),
    }
