"""A card dealt twice (ZF302 of a deal, RULES.md R2), as the validator says it: at the second
copy as the record writes it, with the seats that hold it, and the cards nobody is dealt, which
a one-card typo on a deal line explains (`8s` written where `8h` was meant).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zfrec.games.zhengfen.engine.cards import DECK_SIZE, FULL_DECK, format_cards
from zfrec.record.model import Pos, SeatDeal


@dataclass(frozen=True, slots=True)
class DealtTwice:
    """What to say of a deal that gives a card twice: the message, the seat whose line gives
    the second copy and where (None: not known, as in a JSON record), and the cards nobody is
    dealt (a full deal's; else none)."""

    message: str
    seat: int
    at: Pos | None
    undealt: int


def dealt_twice(
    deal: Sequence[SeatDeal], known: Sequence[int], seat: int, name: Callable[[int], str]
) -> DealtTwice:
    """The finding for `known`, the hands' known cards, which give a card twice: `seat` is the
    one the engine found it in (the later in seat order), used where the record does not say
    which line gives the second copy (`SeatDeal.twice`, the first such line in the record).

    >>> from zfrec.record.model import Cards
    >>> hands = [Cards.parse(t) for t in ("3s 8s", "8s 4h")]
    >>> deal = [SeatDeal(hands[0], 0, Pos(8, 1)), SeatDeal(hands[1], 0, Pos(9, 1), Pos(9, 9))]
    >>> found = dealt_twice(deal, hands, 1, "AB".__getitem__)
    >>> found.message, found.seat, found.at
    ('8s dealt twice (A, B) (RULES.md R2)', 1, Pos(line=9, col=9))
    """
    seen = twice = 0
    for hand in known:
        twice |= seen & hand
        seen |= hand
    holders = [s for s, hand in enumerate(known) if hand & twice]
    lines = [(d.twice, s) for s, d in enumerate(deal) if d.twice is not None]
    at: Pos | None
    if lines:
        at, seat = min(lines)
    else:
        at = deal[seat].pos if seat < len(deal) else None
    # a deal of every card, all known: what one line gives twice, another lacks
    full = all(d.unknown == 0 for d in deal) and sum(d.size for d in deal) == DECK_SIZE
    undealt = FULL_DECK & ~seen if full else 0
    names = ", ".join(name(s) for s in holders)
    message = f"{format_cards(twice)} dealt twice ({names})"
    if undealt:
        message += f"; nobody is dealt {format_cards(undealt)}"
        if twice.bit_count() == 1 and undealt.bit_count() == 1:
            message += f": one {format_cards(twice)} may be meant as {format_cards(undealt)}"
    return DealtTwice(message + " (RULES.md R2)", seat, at, undealt)
