"""A whole trick proved legal in one pass: the replay's common case, for
`RoundState.take_trick` (zfrec.games.shengji.round).

Almost every trick of a record is legal as written: each seat plays in turn, the lead is one
unit (a single, a pair or a tractor) of one suit, and each follow keeps ruling 7. `proven_trick`
says so when it is sure, with the lead's format and the winning play, and answers None for
anything else (a throw, a seat out of turn, a card not held, a follow it cannot clear at a
glance and the full judge refuses): the engine then makes and judges the trick play by play,
and its full judgement says what is wrong. Nothing here refuses a play on its own: every check
that is not the full judge is a sufficient condition of legality, so a None costs only time.

    >>> from zfrec.games.shengji.cards import parse_hand as cards
    >>> from zfrec.games.shengji.order import order_for
    >>> o = order_for("7c")
    >>> hands = [cards(h) for h in ("8d 3s", "9d 4s", "Jc 5h", "Td 6h")]
    >>> lead, winner = proven_trick(o, hands, 0, [(0, cards("8d")), (1, cards("9d")),
    ...                                        (2, cards("Jc")), (3, cards("Td"))])
    >>> lead.kind, winner
    ('single', 2)
    >>> print(proven_trick(o, hands, 0, [(0, cards("8d")), (1, cards("4s")),
    ...                                (2, cards("Jc")), (3, cards("Td"))]))  # a revoke
    None
"""

from __future__ import annotations

from collections.abc import Sequence

from zfrec.games.shengji.cards import HIGH, LOW, contains
from zfrec.games.shengji.follow import judge_follow
from zfrec.games.shengji.formats import Format, read_lead, suit_of
from zfrec.games.shengji.order import Order
from zfrec.games.shengji.trick import single_or_pair_keys, trick_winner

__all__ = ["one_unit_lead", "proven_trick"]

# Lead formats by order, then by the packed lead: the same leads come again and again (an
# `Order` is one object per rank and trump, `make_order`, compared by identity).
_LEADS: dict[Order, dict[int, Format | None]] = {}
_LEAD_LIMIT = 100_000  # formats kept per order before the memo starts again
_ONE = tuple(1 << (c << 1) for c in range(54))  # one copy of each card, packed
# What `proven_trick` reads of a lead, by order then packed lead, as `_LEADS`: the format, its
# size, its effective suit and that suit's mask, the cards' keys (a single or pair lead) and
# the lead's highest card; None for a lead of more than one unit.
_Facts = tuple[Format, int, int, int, tuple[int, ...], int]
_FACTS: dict[Order, dict[int, _Facts | None]] = {}
_TWO = tuple(2 << (c << 1) for c in range(54))  # two copies: a pair


def one_unit_lead(order: Order, cards: int) -> Format | None:
    """The format of `cards` led when they are one unit of one effective suit (a single, a
    pair, a tractor: `classify` gives the same), else None (a throw, two suits, no cards).
    Whether the leader holds them is not asked."""
    known = _LEADS.get(order)
    if known is None:
        known = _LEADS[order] = {}
    elif cards in known:
        return known[cards]
    esuit = suit_of(order, cards)
    lead = None
    if esuit is not None:
        read = read_lead(order, cards, esuit)
        if len(read.units) == 1:
            lead = read
    if len(known) >= _LEAD_LIMIT:
        known.clear()
    known[cards] = lead
    return lead


def _lead_facts(order: Order, cards: int) -> _Facts | None:
    """`_FACTS` of the lead `cards`, worked out and kept."""
    lead = one_unit_lead(order, cards)
    facts = None
    if lead is not None:
        led, size = lead.esuit, lead.size
        keys = single_or_pair_keys(order, led) if size <= 2 else ()
        facts = (lead, size, led, order.suit_mask[led], keys, lead.units[0].ids[0])
    known = _FACTS.get(order)
    if known is None or len(known) >= _LEAD_LIMIT:
        known = _FACTS[order] = {}
    known[cards] = facts
    return facts


def proven_trick(
    order: Order, hands: Sequence[int], turn: int, plays: Sequence[tuple[int, int]]
) -> tuple[Format, int] | None:
    """When the trick `plays` ((seat, packed cards) in order, one per seat) is certainly
    legal from `hands` with `turn` to lead: the lead's format and the index of the winning
    play (ruling 9, as `trick_winner`). None otherwise: see the module docstring."""
    n = len(hands)
    if len(plays) != n:
        return None
    seat, cards = plays[0]
    if seat != turn or not cards:
        return None
    known = _FACTS.get(order)  # `_lead_facts`' memo, asked here first
    facts = known[cards] if known is not None and cards in known else _lead_facts(order, cards)
    if facts is None:
        return None
    lead, k, led, mask, keys, top = facts
    # held: a single or a pair lead is `k` copies of its one card, a tractor is asked in full
    if (hands[seat] >> (top << 1) & 3 < k) if k <= 2 else not contains(hands[seat], cards):
        return None
    if k > 2:  # a tractor: the full judge for each follow, the full winner
        for i in range(1, n):
            seat, play = plays[i]
            if seat != (turn + i) % n or judge_follow(order, lead, hands[seat], play) is not None:
                return None
        return lead, trick_winner(order, [p for _, p in plays], lead)
    esuit = order.esuit
    best, best_key = 0, keys[top]
    for i in range(1, n):
        seat, play = plays[i]
        if seat != (turn + i) % n:
            return None
        hand = hands[seat]
        c = (play.bit_length() - 1) >> 1  # the play's highest card (-1: no card)
        if k == 1:
            # judge_follow's own first test for a single lead, which decides exactly: one
            # card held, of the led suit unless the hand has none of it
            if play != _ONE[c] or not hand >> (c << 1) & 3 or (esuit[c] != led and hand & mask):
                return None
            key = keys[c]
        elif play == _TWO[c] and esuit[c] == led and hand >> (c << 1) & 3 >= 2:
            key = keys[c]  # a pair of the led suit, held: always a legal follow to a pair
        else:
            # a pair lead: two cards of the led suit held, a pair or no pair of it held
            # (judge_follow's first test); anything else the full judge decides
            if (
                not (
                    play & mask == play
                    and contains(hand, play)
                    and (play & HIGH or not hand & mask & HIGH)
                    and (play & LOW).bit_count() + 2 * (play & HIGH).bit_count() == 2
                )
                and judge_follow(order, lead, hand, play) is not None
            ):
                return None
            # only a pair (two copies of one card) can win a pair lead (`can_win`)
            key = keys[c] if c >= 0 and play == _TWO[c] else -1
        if key > best_key:
            best, best_key = i, key
    return lead, best
