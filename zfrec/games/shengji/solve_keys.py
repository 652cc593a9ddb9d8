"""The Sheng ji solver's transposition-table key for a lead: the hands, less what cannot matter.

Two lead positions with the same key (and the same seat to move and declarers) have the same
value: a map of the cards of each effective suit that keeps every rule's comparison takes the
one to the other. Within an effective suit the rules look at a card's points, whether one
card is higher than, equal to or lower than another (`Order.level`), whether two cards are
the same card (a pair is two copies of one card: ruling 5) and whether two levels are adjacent
(a tractor: two pairs one level apart). So a suit's part of the key lists its levels still in
play from the top, each level by what each hand holds there (the points of each card and how
many copies), and between two levels one after the other whether they are adjacent, only where
one hand holds a pair at both (nothing else can make a tractor of them: hands never gain
cards). Levels are renumbered (the gaps left by played cards closed) without merging two that
were apart: a played card never makes two levels adjacent (`Order`), so their adjacency is
kept as it was. Which card of a level a hand holds is forgotten where a level holds several
cards (the off-suit rank cards in trump, all rank cards in no-trump): such cards have equal
order and points, a hand's copies of one card are told apart from its other cards of the level
(they can pair), and copies in two hands never pair.

The key forgets which cards were played: two positions reached by playing different low cards
of a suit, or different cards of one level, meet in one entry.

    >>> from zfrec.games.shengji.cards import parse_hand as cards
    >>> from zfrec.games.shengji.order import order_for
    >>> o, cache = order_for("2s"), {}
    >>> def key(*hands):
    ...     return lead_key(o, [cards(h) for h in hands], cache)
    >>> a = key("Kd Kd 9d 9d", "Ad 8d 3c 4c", "5c 6c 6c 3h", "7c 8c 9c 3h")
    >>> b = key("Kd Kd 8d 8d", "Ad 7d 3c 4c", "5c 6c 6c 3h", "7c 8c 9c 3h")  # a level lower
    >>> c = key("Kd Kd Qd Qd", "Ad 7d 3c 4c", "5c 6c 6c 3h", "7c 8c 9c 3h")  # a tractor
    >>> a == b, a == c
    (True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from zfrec.games.shengji.cards import HIGH, distinct, points
from zfrec.games.shengji.order import Order
from zfrec.games.shengji.solve_moves import CACHE

__all__ = ["lead_key", "suit_key"]

_FIVES = tuple(points(1 << (c << 1)) // 5 for c in range(54))  # 0, 1 or 2


def lead_key(
    order: Order, hands: Sequence[int], cache: dict[tuple[int, ...], object]
) -> tuple[object, ...]:
    """A lead's hands for the table's key (module docstring): each effective suit's part by
    `suit_key`; `cache` keeps each suit's part by that suit's cards in each hand."""
    everything = sum(hands)
    parts: list[object] = []
    for e in range(5):
        mask = order.suit_mask[e]
        if not everything & mask:
            continue
        exact = (e, *map(mask.__and__, hands))
        part = cache.get(exact)
        if part is None:
            if len(cache) > CACHE:
                cache.clear()
            part = cache[exact] = suit_key(order, e, exact[1:])
        parts.append(part)
    return tuple(parts)


def suit_key(order: Order, e: int, hands: Sequence[int]) -> tuple[object, ...]:
    """Effective suit `e`'s part of `lead_key` (`hands` that suit's cards in each hand): `e`,
    then from the top level down each level's holding, with whether it is adjacent to the
    level above (2) or not (1) where one hand holds a pair at both, else 0 (the flag). A
    level is one int (each hand's copies, two bits a hand, then the points in fives, then the
    flag), or where a hand holds two cards of a level of several, (flag, points in fives,
    each hand's copies of each card it holds there, sorted)."""
    level = order.level
    shared = _shared(order)[e]
    left = high = 0
    for h in hands:
        left |= h
        high |= h & HIGH
    ids = distinct(left)
    ids.sort(key=_places(order).__getitem__)
    out: list[object] = [e]
    above, paired_above = -1, 0
    i, n = 0, len(ids)
    while i < n:
        c = ids[i]
        lv = level[c]
        paired = 0  # the hands holding a pair at this level, a bit each
        if lv in shared:
            # several cards share the level (of one rank: the same points): each hand's
            # copies of each, the cards forgotten
            j = i + 1
            while j < n and level[ids[j]] == lv:
                j += 1
            cards = ids[i:j]
            i = j
            held = [sorted(h >> (d << 1) & 3 for d in cards if h >> (d << 1) & 3) for h in hands]
            code, several = 0, False
            for k, xs in enumerate(held):
                if xs:
                    several = several or len(xs) > 1
                    code |= xs[0] << (k << 1)
                    if xs[-1] & 2:
                        paired |= 1 << k
            flag = 0 if not paired & paired_above else 2 if above - lv == 1 else 1
            if several:  # a hand holds two of the level's cards: they cannot pair
                out.append((flag, _FIVES[c], tuple(map(tuple, held))))
                above, paired_above = lv, paired
                continue
        else:
            i += 1
            shift = c << 1
            code = 0
            for k, h in enumerate(hands):
                x = h >> shift & 3
                if x:
                    code |= x << (k << 1)
                    if x & 2:
                        paired |= 1 << k
            flag = 0 if not paired & paired_above else 2 if above - lv == 1 else 1
        out.append((code * 3 + _FIVES[c]) << 2 | flag)
        above, paired_above = lv, paired
    return tuple(out)


@cache
def _shared(order: Order) -> tuple[frozenset[int], ...]:
    """The levels of each effective suit that several cards share (the off-suit rank cards
    in trump, every rank card in no-trump)."""
    out = []
    for e in range(5):
        seen: dict[int, int] = {}
        for c in order.desc[e]:
            seen[order.level[c]] = seen.get(order.level[c], 0) + 1
        out.append(frozenset(lv for lv, n in seen.items() if n > 1))
    return tuple(out)


@cache
def _places(order: Order) -> tuple[int, ...]:
    """Each card's place in its suit's order from the top (`Order.desc`), by card id."""
    pos = [0] * 54
    for e in range(5):
        for i, c in enumerate(order.desc[e]):
            pos[c] = i
    return tuple(pos)
