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

from zfrec.games.shengji.cards import distinct, points
from zfrec.games.shengji.order import Order

__all__ = ["lead_key", "suit_key", "translate"]

_PTS = tuple(points(1 << (c << 1)) for c in range(54))
# parts each search's cache keeps before it is emptied (as `solve_moves.CACHE`)
_CACHE = 50_000


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
            if len(cache) > _CACHE:
                cache.clear()
            part = cache[exact] = suit_key(order, e, exact[1:])
        parts.append(part)
    return tuple(parts)


def suit_key(order: Order, e: int, hands: Sequence[int]) -> tuple[object, ...]:
    """Effective suit `e`'s part of `lead_key` (`hands` that suit's cards in each hand): `e`,
    then from the top level down each level's holding (`_holding`), with between two levels
    True or False for adjacent or not where one hand holds a pair at both, else None."""
    level = order.level
    shared = _shared(order)[e]
    at: dict[int, list[int]] = {}
    for c in distinct(sum(hands)):
        at.setdefault(level[c], []).append(c)
    out: list[object] = [e]
    above, paired_above = -1, 0
    for lv in sorted(at, reverse=True):
        cards = at[lv]
        paired = 0  # the hands holding a pair at this level, a bit each
        for i, h in enumerate(hands):
            for c in cards:
                if h >> (c << 1) & 2:
                    paired |= 1 << i
        if above >= 0:
            out.append(above - lv == 1 if paired & paired_above else None)
        out.append(_holding(cards, hands) if lv in shared else _single(cards[0], hands))
        above, paired_above = lv, paired
    return tuple(out)


def _single(c: int, hands: Sequence[int]) -> tuple[int, ...]:
    """What each hand holds of a level of one card `c`: its points and each hand's copies."""
    shift = c << 1
    return (_PTS[c], *(h >> shift & 3 for h in hands))


def _holding(cards: list[int], hands: Sequence[int]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """What each hand holds of a level of several cards: the (points, copies) of each card
    of the level it holds, sorted."""
    return tuple(
        tuple(sorted((_PTS[c], h >> (c << 1) & 3) for c in cards if h >> (c << 1) & 3))
        for h in hands
    )


@cache
def _shared(order: Order) -> tuple[frozenset[int], ...]:
    """The levels of each effective suit that several cards share (`_holding`'s)."""
    out = []
    for e in range(5):
        seen: dict[int, int] = {}
        for c in order.desc[e]:
            seen[order.level[c]] = seen.get(order.level[c], 0) + 1
        out.append(frozenset(lv for lv, n in seen.items() if n > 1))
    return tuple(out)


def translate(order: Order, play: int, seat: int, old: Sequence[int], new: Sequence[int]) -> int:
    """`play` of the seat `seat` in the hands `old`, as the same play in the hands `new` of
    the same `lead_key`: each card goes to the card of the same place among the levels still
    in play, of that level the seat's card held as often (the table's best play, tried first
    in every position its entry stands for)."""
    level = order.level
    out = 0
    for c in distinct(play):
        mask = order.suit_mask[order.esuit[c]]
        lv = level[c]
        above = len({level[d] for d in distinct(sum(old) & mask) if level[d] > lv})
        levels = sorted({level[d] for d in distinct(sum(new) & mask)}, reverse=True)
        to = levels[above]
        mine, theirs = old[seat], new[seat]
        was = sorted((mine >> (d << 1) & 3, d) for d in distinct(mine & mask) if level[d] == lv)
        now = sorted((theirs >> (d << 1) & 3, d) for d in distinct(theirs & mask) if level[d] == to)
        d = now[was.index((mine >> (c << 1) & 3, c))][1]
        out += (play >> (c << 1) & 3) << (d << 1)
    return out
