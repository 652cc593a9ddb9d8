"""Values every game shares, whatever its cards: a deal that is partly known.

A record often does not say every card a seat was dealt: the replay completes the deal by a
guess (Zheng Fen's rebuilt deal), a live table knows only what was entered, and a Sheng ji
round hides the kitty and the other hands. `Deal(known, unknown)` keeps, per seat, the cards
known to be its own and the cards only placed with it by a guess, both as card masks. When
play shows a seat holding a card the guess put elsewhere, `reveal` trades it for one of the
seat's own guessed cards: the deal stays whole, and nothing known moves.

    >>> deal = Deal((0b0001, 0b0000), (0b0110, 0b1000))
    >>> later, trades = deal.reveal(0, 0b1000, held=(0b0111, 0b1000))
    >>> trades
    (Trade(card=8, owner=1, given=2),)
    >>> later
    Deal(known=(9, 0), unknown=(4, 2))
    >>> later.hands() == [0b1101, 0b0010]
    True

The engine's `HandState.reveal` applies a reveal to the cards in hand, logged and undoable like
any action, and its undo() puts the deal back as it was (zfrec.games.zhengfen.engine.game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["Deal", "Trade"]


class Trade(NamedTuple):
    """One card a seat turns out to hold: `card` (a one-card mask) came from `owner`, where a
    guess had placed it, and `given`, one of the seat's own guessed cards, goes there instead."""

    card: int
    owner: int
    given: int


@dataclass(frozen=True, slots=True)
class Deal:
    """Per seat, the cards known to be its own and the cards a guess placed with it (masks;
    a card is in at most one of them, and in one seat)."""

    known: tuple[int, ...]
    unknown: tuple[int, ...]

    @classmethod
    def of(cls, hands: Sequence[int], known: Sequence[int]) -> Deal:
        """The deal of `hands` (every card placed) of which `known` is known."""
        return cls(
            tuple(h & k for h, k in zip(hands, known, strict=True)),
            tuple(h & ~k for h, k in zip(hands, known, strict=True)),
        )

    @classmethod
    def all_known(cls, hands: Sequence[int]) -> Deal:
        return cls(tuple(hands), (0,) * len(hands))

    def hands(self) -> list[int]:
        """Every seat's cards, known or placed by the guess."""
        return [k | u for k, u in zip(self.known, self.unknown, strict=True)]

    def reveal(
        self, seat: int, cards: int, held: Sequence[int], keep: int = 0
    ) -> tuple[Deal, tuple[Trade, ...]] | None:
        """The deal once `seat` is shown to hold `cards`, and the trades that made it so; None
        when it cannot be: a card is known elsewhere (or no longer `held` by anyone), or the
        seat has too few guessed cards left to give for them. `held` is each seat's cards
        still in hand (only those can change places); the seat keeps `cards` and `keep`."""
        missing = cards & ~held[seat]
        known, unknown = list(self.known), list(self.unknown)
        spare = held[seat] & unknown[seat] & ~cards & ~keep
        trades: list[Trade] = []
        while missing:
            card = missing & -missing
            missing ^= card
            owner = next(
                (t for t in range(len(held)) if t != seat and held[t] & unknown[t] & card), None
            )
            if owner is None or not spare:
                return None
            given = spare & -spare
            spare ^= given
            unknown[seat] = unknown[seat] & ~given
            unknown[owner] = unknown[owner] & ~card | given
            trades.append(Trade(card, owner, given))
        # What the seat is shown to hold is known from now on.
        shown = cards & (unknown[seat] | sum(t.card for t in trades))
        known[seat] |= shown
        unknown[seat] &= ~shown
        return Deal(tuple(known), tuple(unknown)), tuple(trades)
