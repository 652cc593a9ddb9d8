"""zfrec.core.Deal: a partly known deal, and what a reveal trades."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from zfrec.core import Deal, Trade


def test_a_reveal_trades_the_guessed_card_for_the_seats_lowest_guessed_one() -> None:
    deal = Deal(known=(0b0001, 0b0000, 0b0000), unknown=(0b0110, 0b1000, 0b110000))
    found = deal.reveal(0, 0b100000, held=deal.hands())
    assert found is not None
    later, trades = found
    assert trades == (Trade(card=0b100000, owner=2, given=0b0010),)
    assert later.known == (0b100001, 0, 0)
    assert later.unknown == (0b0100, 0b1000, 0b010010)
    assert sum(later.hands()) == sum(deal.hands())  # the deal stays whole


def test_a_reveal_cannot_take_a_known_card_nor_give_what_the_seat_lacks() -> None:
    deal = Deal(known=(0b0001, 0b0010), unknown=(0b0100, 0b1000))
    assert deal.reveal(0, 0b0010, held=deal.hands()) is None  # known to be seat 2's
    assert deal.reveal(0, 0b1000, held=deal.hands()) is not None
    assert deal.reveal(0, 0b1100, held=deal.hands()) is None  # it plays its one guessed card
    # The seat keeps the cards it plays and `keep`: nothing left to give.
    assert deal.reveal(0, 0b1000, held=deal.hands(), keep=0b0100) is None
    assert deal.reveal(0, 0b1000, held=(0b0001, 0b1000)) is None  # its guessed card was played


@given(st.integers(2, 6), st.integers(0, 2**54 - 1), st.randoms(use_true_random=False))
@settings(max_examples=200, deadline=None)
def test_a_reveal_keeps_every_card_once_and_the_known_ones_in_place(
    n: int, knownness: int, rng: object
) -> None:
    import random

    assert isinstance(rng, random.Random)
    cards = list(range(54))
    rng.shuffle(cards)
    hands = [0] * n
    for i, c in enumerate(cards):
        hands[i % n] |= 1 << c
    deal = Deal.of(hands, [h & knownness for h in hands])
    seat = rng.randrange(n)
    wanted = sum(1 << c for c in rng.sample(cards, rng.randrange(1, 4)))
    found = deal.reveal(seat, wanted, held=hands)
    if found is None:
        return
    later, trades = found
    assert sorted(later.hands()) != [] and sum(later.hands()) == sum(hands)
    assert later.hands()[seat] & wanted == wanted
    for s in range(n):
        assert later.known[s] & deal.known[s] == deal.known[s]  # nothing known moves
        assert later.known[s] & later.unknown[s] == 0
    assert len(trades) == (wanted & ~hands[seat]).bit_count()
