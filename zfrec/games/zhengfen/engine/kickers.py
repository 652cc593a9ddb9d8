"""The two extra cards of a full house, its kicker (RULES.md R17): which pairs of cards make one,
and the ways to split five cards into a triple and a kicker. Used by combos to read plays."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from zfrec.games.zhengfen.engine.cards import NUM_RANKS

# A fixed card is a real card or a declared joker: (rank, suit or None when any suit will do).
Fixed = tuple[int, int | None]
THREE = 0
COUNTER_RANKS = frozenset((2, 7, 10))  # 5, T, K


def _kicker_ok(a: Fixed | None, b: Fixed | None) -> bool:
    """Whether two extra cards make a full house (R17). None is a free joker."""
    if a is None or b is None:
        return True  # a joker can always pair the other card
    (ra, sa), (rb, sb) = a, b
    if ra in (rb, THREE) or rb == THREE:
        return True
    if ra in COUNTER_RANKS and rb in COUNTER_RANKS:
        return True
    return (ra - rb == 1 or rb - ra == 1) and (sa is None or sb is None or sa == sb)


def _kicker_suit(a: Fixed, b: Fixed) -> int | None:
    """The suit a kicker of two fixed cards needs, or None when it is valid whatever the suits.

    Only two adjacent cards of one suit need a suit (R17); a joker declared by rank alone in
    such a kicker takes the other card's suit, or spades when both are such jokers, so that the
    canonical declaration names the card it stands for (RULES.md, Card notation).
    """
    (ra, sa), (rb, sb) = a, b
    if ra in (rb, THREE) or rb == THREE or (ra in COUNTER_RANKS and rb in COUNTER_RANKS):
        return None
    return sa if sa is not None else sb if sb is not None else 0


def _kicker_kind(ra: int, rb: int) -> int:
    """Whether two extra cards of ranks ra, rb make a full house: 0 never, 1 always (a pair, a
    Three, two counters), 2 when of one suit (adjacent ranks), as `_kicker_ok` says."""
    if _kicker_suit((ra, 0), (rb, 0)) is None:
        return 1
    return 2 if _kicker_ok((ra, 0), (rb, 0)) else 0


_KICKER = tuple(tuple(_kicker_kind(ra, rb) for rb in range(NUM_RANKS)) for ra in range(NUM_RANKS))


def _full_house_splits(
    items: Sequence[Fixed | None], candidates: int
) -> list[tuple[int, int, int]]:
    """(kicker position, kicker position, triple rank) for every split whose triple is one rank
    of `candidates` (bit r: rank r), in the order of the positions.

    The kicker must hold every card of another rank, so only a few of the ten ways to pick two
    of five cards need trying: one way when three cards share a rank and no joker is free.
    """
    out = []
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        r = low.bit_length() - 1
        others = []  # positions of cards of another rank: at most two, all in the kicker
        rest = []
        for i in range(5):
            x = items[i]
            if x is not None and x[0] != r:
                others.append(i)
            else:
                rest.append(i)
        if len(others) == 2:
            out.append((others[0], others[1], r))
        elif others:
            o = others[0]
            for i in rest:
                out.append((i, o, r) if i < o else (o, i, r))
        else:
            out += [(i, j, r) for i, j in combinations(rest, 2)]
    if len(out) > 1:
        out.sort()  # the order of all ten splits, so ties between splits resolve as before
    return out
