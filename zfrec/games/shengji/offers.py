"""The plays a live table offers the seat to move to tap (LIVE.md, "Sheng ji", `offer`): on a
follow every legal follow (the engine's enumeration), on a lead every single, pair and tractor
the hand holds. Throws are not offered: a hand has thousands of them, and whether one stands
depends on the other hands; they are tapped card by card or typed.

    >>> from zfrec.games.shengji.cards import parse_hand as cards
    >>> from zfrec.games.shengji.order import order_for
    >>> o = order_for("7c")
    >>> [(k, format_cards(u)) for k, u in lead_units(o, cards("8d 8d 9d 9d Td 3s"))]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('tractor', '9d 9d 8d 8d'), ('pair', '9d 9d'), ('pair', '8d 8d'), ('single', '3s'),
     ('single', 'Td'), ('single', '9d'), ('single', '8d')]
"""

from __future__ import annotations

from itertools import islice, product
from typing import TypedDict

from zfrec.games.shengji.cards import (
    count,
    distinct,
    format_cards,
    format_hand,
    pair_cards,
    size,
)
from zfrec.games.shengji.follow import count_follows, legal_follows
from zfrec.games.shengji.formats import Format
from zfrec.games.shengji.order import TRUMP, Order

__all__ = [
    "MAX_FOLLOWS",
    "FollowOffer",
    "follow_offer",
    "lead_count",
    "lead_units",
    "units_text",
]

MAX_FOLLOWS = 240  # follows listed to tap; beyond, the page says what the follow must hold
_SUITS = (TRUMP, 0, 1, 2, 3)  # the order a hand is shown in: trumps first


def lead_units(order: Order, hand: int) -> list[tuple[str, tuple[int, ...]]]:
    """Every lead of one unit from `hand`: (kind, card ids highest first), tractors (longest,
    then highest), then pairs, then singles, trumps first within each kind. Pairs of equal
    level that are not the same card (two off-suit rank cards) are different tractors' parts,
    each offered."""
    tractors: list[tuple[int, int, int, tuple[int, ...]]] = []
    pairs: list[tuple[int, int, tuple[int, ...]]] = []
    singles: list[tuple[int, int, tuple[int, ...]]] = []
    level = order.level
    for rank, e in enumerate(_SUITS):
        held = hand & order.suit_mask[e]
        if not held:
            continue
        at: dict[int, list[int]] = {}  # level -> the cards held twice at it, highest id first
        for c in sorted(pair_cards(held), reverse=True):
            at.setdefault(level[c], []).append(c)
            pairs.append((rank, -level[c], (c, c)))
        for c in sorted(distinct(held), key=lambda c: -level[c]):
            singles.append((rank, -level[c], (c,)))
        for top in at:
            length = 1
            while top - length in at:
                length += 1
                for pick in product(*(at[lv] for lv in range(top, top - length, -1))):
                    ids = tuple(c for c in pick for _ in (0, 1))
                    tractors.append((-length, rank, -top, ids))
    out = [("tractor", t[3]) for t in sorted(tractors)]
    out += [("pair", p[2]) for p in sorted(pairs)]
    out += [("single", s[2]) for s in sorted(singles)]
    return out


def lead_count(order: Order, hand: int) -> int:
    """How many leads `hand` has (`follow.every_lead`'s, throws included), without listing
    them: each effective suit's non-empty multisets of its cards. A hand of many trumps has
    a million, which the live state must not list to find that they are many."""
    total = 0
    for e in _SUITS:
        held = hand & order.suit_mask[e]
        if held:
            ways = 1
            for c in distinct(held):
                ways *= count(held, c) + 1
            total += ways - 1
    return total


class FollowOffer(TypedDict):
    """What `follow_offer` finds (the JSON of LIVE.md's `offer`, less its seat)."""

    plays: list[str]
    count: int
    must: str | None
    more: int


def follow_offer(order: Order, lead: Format, hand: int) -> FollowOffer:
    """The follows to offer: `plays` (every legal follow, each card set once), `count`; when
    there are more than MAX_FOLLOWS, `plays` is empty and, for a hand short of the led suit,
    `must` names the cards of it that go in and `more` how many others are added."""
    plays = list(islice(legal_follows(order, lead, hand), MAX_FOLLOWS + 1))  # each set once
    if len(plays) <= MAX_FOLLOWS:
        return {"plays": [format_hand(p) for p in plays], "count": len(plays),
                "must": None, "more": 0}  # fmt: skip
    held = hand & order.suit_mask[lead.esuit]
    short = size(held) <= lead.size
    return {
        "plays": [], "count": count_follows(order, lead, hand),
        "must": format_hand(held) if short else None,
        "more": lead.size - size(held) if short else 0,
    }  # fmt: skip


def units_text(units: list[tuple[str, tuple[int, ...]]]) -> list[dict[str, str]]:
    """The JSON of `lead_units`: kind and play (highest card first)."""
    return [{"kind": k, "play": format_cards(ids)} for k, ids in units]
