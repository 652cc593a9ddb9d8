"""Formats (rulings 5 and 6): singles, pairs, tractors and throws, read as their largest units.

A play of one effective suit is read greedily: tractors first, the longest (then the highest)
taken first, then the pairs left, then the singles. A pair is two identical cards; a tractor is
two or more pairs whose levels (`zfrec.games.shengji.order`) are consecutive, so pairs of two
different off-suit rank cards (equal level) never make one. A lead of one unit is a single, a
pair or a tractor; of more units, a throw (甩牌). Cards of two effective suits are no lead.

    >>> from zfrec.games.shengji.cards import parse_hand
    >>> from zfrec.games.shengji.order import order_for
    >>> o = order_for("7c")
    >>> f = classify(o, parse_hand("8d 8d 6d 6d"))
    >>> f.kind, f.esuit, [unit_text(u) for u in f.units]
    ('tractor', 2, ['8d 8d 6d 6d'])
    >>> print(not_a_lead(o, parse_hand("7h 7h 6h 6h")))  # the 7s are trump: no lead at all
    not a lead: 7h 7h 6h 6h mixes trumps (7h 7h) and hearts (6h 6h); a lead is one suit (ruling 6)
    >>> [unit_text(u) for u in classify(o, parse_hand("Kd Qd Qd Td Td")).units]
    ['Qd Qd', 'Td Td', 'Kd']
"""

from __future__ import annotations

from typing import NamedTuple

from zfrec.errors import IllegalPlayError
from zfrec.games.shengji.cards import HIGH, card_ids, distinct, format_cards, size
from zfrec.games.shengji.order import SUIT_WORDS, TRUMP, Order

__all__ = [
    "Format",
    "Unit",
    "best_top",
    "classify",
    "decompose",
    "match_tractors",
    "pair_levels",
    "read_lead",
    "runs",
    "suit_of",
    "unit_text",
]

KINDS = ("single", "pair", "tractor", "throw")


class Unit(NamedTuple):
    """One unit of a play: `pairs` is 0 for a single, 1 for a pair, L >= 2 for a tractor of L
    pairs; `top` the level of its highest card; `ids` its card ids from the highest down."""

    pairs: int
    top: int
    ids: tuple[int, ...]

    @property
    def kind(self) -> str:
        """`single`, `pair` or `tractor`."""
        return KINDS[min(self.pairs, 2)]

    @property
    def size(self) -> int:
        """The number of cards in the unit."""
        return len(self.ids)


class Format(NamedTuple):
    """A lead read as its units, largest first (ruling 6).

    `kind` is `single`, `pair`, `tractor` or `throw`; `esuit` its effective suit (0..3 or
    TRUMP); `size` the number of cards; `tractors` the lengths of its tractors, longest first;
    `pairs` the number of pairs in it (a tractor of L pairs counts L); `cards` the packed play.
    """

    kind: str
    esuit: int
    units: tuple[Unit, ...]
    size: int
    tractors: tuple[int, ...]
    pairs: int
    cards: int

    @property
    def suit_text(self) -> str:
        """`s`, `h`, `d`, `c` or `trump`, as `classify --json` says."""
        return "shdc"[self.esuit] if self.esuit < TRUMP else "trump"


def unit_text(unit: Unit) -> str:
    """A unit's cards, highest first: `8d 8d 6d 6d`."""
    return format_cards(unit.ids)


def suit_of(order: Order, cards: int) -> int | None:
    """The one effective suit of all of `cards`, or None if they span two (or are none)."""
    if not cards:
        return None
    # the suits' masks are disjoint: only the highest card's suit can hold them all
    e = order.esuit[(cards.bit_length() - 1) >> 1]
    return None if cards & ~order.suit_mask[e] else e


def pair_levels(order: Order, cards: int) -> dict[int, int]:
    """Level -> how many pairs of that level `cards` can make (cards of one effective suit)."""
    out: dict[int, int] = {}
    level = order.level
    high = cards & HIGH
    while high:
        low = high & -high
        lv = level[(low.bit_length() - 1) >> 1]
        out[lv] = out.get(lv, 0) + 1
        high ^= low
    return out


def runs(levels: dict[int, int]) -> list[tuple[int, int]]:
    """The maximal runs of consecutive levels with a pair: (top level, length), any order."""
    out = []
    for lv in levels:
        if levels[lv] > 0 and levels.get(lv + 1, 0) <= 0:
            n = 1
            while levels.get(lv - n, 0) > 0:
                n += 1
            out.append((lv, n))
    return out


def match_tractors(lengths: tuple[int, ...], levels: dict[int, int]) -> int:
    """How many of the tractors `lengths` (longest first) disjoint pairs of `levels` can match,
    each by a tractor of that length. Greedy: each takes the top of the shortest run that fits.
    """
    if not lengths:
        return 0
    left = dict(levels)
    matched = 0
    for length in lengths:
        fits = [(n, -top, top) for top, n in runs(left) if n >= length]
        if not fits:
            continue
        _, _, top = min(fits)
        for lv in range(top, top - length, -1):
            left[lv] -= 1
        matched += 1
    return matched


def best_top(order: Order, cards: int, pairs: int) -> int:
    """The top level of the highest unit of `pairs` pairs (0: a single) in `cards`, -1 if none.

    A tractor longer than asked holds one of the asked length at its top.
    """
    level = order.level
    if pairs == 0:
        return max(level[c] for c in distinct(cards))
    levels = pair_levels(order, cards)
    if pairs == 1:
        return max(levels, default=-1)
    return max((top for top, n in runs(levels) if n >= pairs), default=-1)


def _unit_key(u: Unit) -> tuple[int, int, int]:
    return -u.pairs, -u.top, u.ids[0]


def decompose(order: Order, cards: int) -> tuple[Unit, ...]:
    """`cards` (of one effective suit) as units, largest first: tractors (longest, then
    highest), then pairs, then singles, each from the highest down (ruling 6); units of one
    size and top by card id."""
    level = order.level
    if cards and not cards & (cards - 1):  # one bit: the common leads, a single or a pair
        c = (cards.bit_length() - 1) >> 1
        if cards >> (c << 1) == 1:
            return (Unit(0, level[c], (c,)),)
        return (Unit(1, level[c], (c, c)),)
    ids = distinct(cards)
    singles: list[int] = []
    at_level: dict[int, list[int]] = {}  # level -> the cards held twice at that level
    for c in ids:
        k = cards >> (c << 1) & 3
        if k >= 2:
            lv = level[c]
            if lv in at_level:
                at_level[lv].append(c)
            else:
                at_level[lv] = [c]
            if k == 3:
                singles.append(c)
        else:
            singles.append(c)
    units: list[Unit] = []
    if len(at_level) >= 2 and any(lv + 1 in at_level for lv in at_level):
        while True:
            n, top = max(
                ((n, top) for top, n in runs({lv: len(cs) for lv, cs in at_level.items()})),
                default=(0, 0),
            )
            if n < 2:
                break
            taken: list[int] = []
            for lv in range(top, top - n, -1):
                c = at_level[lv].pop(0)
                taken += (c, c)
                if not at_level[lv]:
                    del at_level[lv]
            units.append(Unit(n, top, tuple(taken)))
    for lv, cs in at_level.items():
        for c in cs:
            units.append(Unit(1, lv, (c, c)))
    for c in singles:
        units.append(Unit(0, level[c], (c,)))
    units.sort(key=_unit_key)
    return tuple(units)


def read_lead(order: Order, cards: int, esuit: int) -> Format:
    """The format of `cards`, all of effective suit `esuit` (not checked)."""
    units = decompose(order, cards)
    n = size(cards)
    kind = units[0].kind if len(units) == 1 else "throw"
    tractors = tuple(u.pairs for u in units if u.pairs >= 2)
    return Format(kind, esuit, units, n, tractors, sum(u.pairs for u in units), cards)


def not_a_lead(order: Order, cards: int) -> str:
    """Why `cards` are no lead (cards of two or more effective suits), in words."""
    if not cards:
        return "not a lead: no cards"
    parts: list[str] = []
    for e in (TRUMP, 0, 1, 2, 3):
        part = cards & order.suit_mask[e]
        if part:
            parts.append(f"{SUIT_WORDS[e]} ({format_cards(card_ids(part))})")
    listed = ", ".join(parts[:-1]) + " and " + parts[-1]
    return (
        f"not a lead: {format_cards(_by_level(order, cards))} mixes {listed}; "
        "a lead is one suit (ruling 6)"
    )


def _by_level(order: Order, cards: int) -> list[int]:
    level = order.level
    return sorted(card_ids(cards), key=lambda c: (order.esuit[c] != TRUMP, -level[c], c))


def classify(order: Order, cards: int) -> Format:
    """The format of a lead; IllegalPlayError (rule `6`) with the reason when it is none."""
    esuit = suit_of(order, cards)
    if esuit is None:
        raise IllegalPlayError(not_a_lead(order, cards), "6", "SJ101")
    return read_lead(order, cards, esuit)
