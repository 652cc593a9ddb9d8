"""Seats and deals: the table size, the draw order and the checks of a dealt hand (R1-R4).

>>> hand_sizes(4, 0)
[14, 14, 13, 13]
>>> verify_hand_sizes([19, 18, 17], None)
Traceback (most recent call last):
...
zfrec.errors.DealError: hand sizes [19, 18, 17] do not follow the draw order (RULES.md R3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from zfrec.core import Deal
from zfrec.errors import DealError
from zfrec.games.zhengfen.engine.cards import DECK_SIZE, FULL_DECK, THREE_OF_HEARTS, format_cards
from zfrec.games.zhengfen.engine.seats import MAX_SEATS, MIN_SEATS

__all__ = [
    "check_seats",
    "deal_random",
    "first_leader",
    "hand_sizes",
    "next_seat",
    "rebuild_deal",
    "verify_deal",
    "verify_dealt_once",
    "verify_hand_sizes",
]


def check_seats(n: int) -> None:
    """Raise `DealError` (ZF405) unless 3 to 6 players sit at the table (R1)."""
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise DealError(f"Zheng Fen is for 3 to 6 players, not {n} (RULES.md R1)", "ZF405")


def next_seat(seat: int, n: int) -> int:
    """The next seat in play order (anticlockwise, the right-hand neighbour; R1).

    >>> [next_seat(s, 4) for s in range(4)]
    [1, 2, 3, 0]
    """
    return (seat + 1) % n


@cache
def _sizes(n: int, first_drawer: int) -> tuple[int, ...]:
    base, extra = divmod(DECK_SIZE, n)
    sizes = [base] * n
    for i in range(extra):
        sizes[(first_drawer + i) % n] += 1
    return tuple(sizes)


def hand_sizes(n: int, first_drawer: int) -> list[int]:
    """Cards each seat draws: one at a time from `first_drawer` on, until all 54 are taken (R3).

    >>> hand_sizes(4, 0)
    [14, 14, 13, 13]
    """
    check_seats(n)
    return list(_sizes(n, first_drawer % n))


def deal_random(n: int, first_drawer: int, rng: random.Random) -> list[int]:
    """A shuffled pack drawn in play order from `first_drawer`, as one mask per seat."""
    pack = list(range(DECK_SIZE))
    rng.shuffle(pack)
    hands = [0] * n
    for i, card in enumerate(pack):
        hands[(first_drawer + i) % n] |= 1 << card
    return hands


def verify_dealt_once(hands: Sequence[int]) -> None:
    """Raise `DealError` (ZF302) if a card is in two hands (R2)."""
    seen = 0
    for seat, hand in enumerate(hands):
        twice = seen & hand
        if twice:
            raise DealError(
                f"{format_cards(twice)} dealt twice ({{0}}; RULES.md R2)",
                "ZF302",
                rule="R2",
                seats=(seat,),
                seat=seat,
            )
        seen |= hand


def verify_hand_sizes(sizes: list[int], first_drawer: int | None) -> None:
    """Raise `DealError` (ZF304) unless the hand sizes follow the draw order from
    `first_drawer`, or from some seat when it is not known (R3)."""
    n = len(sizes)
    check_seats(n)
    candidates = range(n) if first_drawer is None else (first_drawer,)
    if all(tuple(sizes) != _sizes(n, d % n) for d in candidates):
        want = "" if first_drawer is None else f", expected {hand_sizes(n, first_drawer)}"
        raise DealError(
            f"hand sizes {sizes} do not follow the draw order{want} (RULES.md R3)",
            "ZF304",
            rule="R3",
        )


def verify_deal(hands: Sequence[int], first_drawer: int | None) -> None:
    """A full deal holds each of the 54 cards once, in the sizes the draw order gives (R2, R3).

    Raises `DealError` with code ZF302 (a card twice), ZF303 (cards missing) or ZF304 (sizes).
    """
    check_seats(len(hands))
    verify_dealt_once(hands)
    seen = 0
    for hand in hands:
        seen |= hand
    if seen != FULL_DECK:
        raise DealError(
            f"the deal lacks {format_cards(FULL_DECK & ~seen)} (RULES.md R2)", "ZF303", rule="R2"
        )
    verify_hand_sizes([h.bit_count() for h in hands], first_drawer)


def first_leader(hands: Sequence[int]) -> int:
    """Hand 1 is led by the holder of the three of hearts (R4); DealError ZF303 if nobody is."""
    for seat, hand in enumerate(hands):
        if hand >> THREE_OF_HEARTS & 1:
            return seat
    raise DealError("nobody holds the three of hearts (RULES.md R4)", "ZF303", rule="R4")


@dataclass(frozen=True, slots=True)
class RebuiltDeal:
    """A deal completed from the plays: the hands, and how sure it is."""

    hands: list[int]
    unplayed: int  # the cards nobody is shown holding or playing
    guessed: tuple[int, ...]  # the seats that shared them in seat order (empty: no guess)
    left: int  # cards that fit in no hand of the draw order
    deal: Deal  # the hands as known (recorded, played, the lead card) and as placed by guess


def rebuild_deal(
    known: Sequence[int], sizes: Sequence[int], played: Sequence[int], lead_card: int, opener: int
) -> RebuiltDeal:
    """Complete a deal from what the record shows (RULES.md R2, R3): each seat's `known` cards,
    the hand `sizes` of the draw order, and the cards each seat `played` (a card played twice
    counted for the seat that played it first).

    A card a seat played and the record does not give it came from its unknown cards; a card
    recorded in another seat's hand stays there (the engine reports the play). The card whose
    holder leads (`lead_card`: the 3h of hand 1, R4), if nobody is shown holding it, was held
    by `opener`, the seat the record has lead. The cards left go to the seats with room, in
    seat order: a guess when more than one seat has room.

    >>> from zfrec.games.zhengfen.engine.cards import parse_cards, format_cards
    >>> sizes = hand_sizes(3, 0)
    >>> played = [parse_cards("4h"), parse_cards("5s"), parse_cards("6c")]
    >>> rebuilt = rebuild_deal([0, 0, 0], sizes, played, parse_cards("3h"), 1)
    >>> parse_cards("3h 5s") & rebuilt.hands[1] == parse_cards("3h 5s"), rebuilt.guessed
    (True, (0, 1, 2))
    """
    n = len(sizes)
    seen = 0
    for cards in known:
        seen |= cards
    hands = list(known)
    for s in range(n):
        extra = played[s] & ~seen
        if extra.bit_count() <= sizes[s] - hands[s].bit_count():
            hands[s] |= extra
            seen |= extra
    lead_card &= ~seen
    if lead_card and 0 <= opener < n and hands[opener].bit_count() < sizes[opener]:
        hands[opener] |= lead_card
        seen |= lead_card
    pool = unplayed = FULL_DECK & ~seen
    free = [max(0, sizes[s] - hands[s].bit_count()) for s in range(n)]
    open_seats = tuple(s for s in range(n) if free[s])
    placed = [0] * n
    for s in open_seats:
        while free[s] and pool:
            low = pool & -pool
            placed[s] |= low
            pool ^= low
            free[s] -= 1
    deal = Deal(tuple(hands), tuple(placed))
    guessed = open_seats if len(open_seats) > 1 and unplayed else ()
    return RebuiltDeal(deal.hands(), unplayed, guessed, pool, deal)
