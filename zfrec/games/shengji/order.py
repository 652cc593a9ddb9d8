"""The round's order (ruling 3): each card's effective suit and its level within that suit.

The dominant rank and the trump suit (or none) change every round, so each round builds one
`Order` (cached: there are 13 x 5 of them) whose tables the hot paths index by card id. The
effective suits are 0..3 for the plain suits s h d c and `TRUMP` (4). A card's `level` orders
it within its effective suit, higher is stronger, and equal levels are equal cards (the
off-suit rank cards, or every rank card in no-trump). Levels are consecutive integers wherever
the cards are adjacent, so two pairs are consecutive for a tractor exactly when their levels
differ by one (ruling 5): plain suits close the gap left by the rank card.

Trump, high to low: big jokers, small jokers, the trump suit's rank card, the other rank cards
(equal), then the trump suit A down to 2 without its rank card. In no-trump: big jokers, small
jokers, all rank cards (equal).

    >>> from zfrec.games.shengji.cards import card_id
    >>> o = order_for("7c")
    >>> [o.level[card_id(t)] for t in ("8d", "6d", "Ad")], o.esuit[card_id("7h")] == TRUMP
    ([5, 4, 11], True)
    >>> [o.level[card_id(t)] for t in ("Ac", "7h", "7s", "7c", "SJ", "BJ")]
    [11, 12, 12, 13, 14, 15]
    >>> o.describe(), order_for("7").describe()
    ('rank 7, clubs trump', 'rank 7, no-trump')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from zfrec.cardwords import BJ, SJ, parse_rank, parse_suit
from zfrec.errors import CardError
from zfrec.games.shengji.cards import NUM_CARDS

__all__ = ["SUIT_LETTERS", "SUIT_WORDS", "TRUMP", "Order", "order_for", "parse_trump"]

TRUMP = 4
SUIT_LETTERS = ("s", "h", "d", "c", "trump")
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs", "trumps")
_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_TEXT = "3456789TJQKA2"


def strength(rank: int) -> int:
    """A rank index (0..12 for 3..2) to its natural Sheng ji strength: 2 lowest (0), A 12."""
    return (rank + 1) % 13


@dataclass(frozen=True, slots=True, eq=False)
class Order:
    """The order of one round: `rank` the dominant rank index (0..12, as Zheng Fen's ids),
    `trump` the trump suit 0..3 or None for no-trump.

    `esuit[c]` and `level[c]` are card `c`'s effective suit and level; `suit_mask[e]` is the
    packed mask (both bits of each field) of effective suit `e`; `desc[e]` its card ids from
    the highest level down (equal levels by id). `max_level[e]` is its top level.
    """

    rank: int
    trump: int | None
    esuit: tuple[int, ...]
    level: tuple[int, ...]
    suit_mask: tuple[int, ...]
    desc: tuple[tuple[int, ...], ...]

    @property
    def text(self) -> str:
        """`7c`, or `7` in no-trump, as `--trump` takes it (a Ten is written `T`)."""
        return RANK_TEXT[self.rank] + ("" if self.trump is None else "shdc"[self.trump])

    def describe(self) -> str:
        """`rank 7, clubs trump` or `rank 7, no-trump`."""
        rank = "10" if self.rank == 7 else RANK_TEXT[self.rank]
        if self.trump is None:
            return f"rank {rank}, no-trump"
        return f"rank {rank}, {_SUIT_NAMES[self.trump]} trump"

    def is_trump(self, cid: int) -> bool:
        """Whether card `cid` is trump this round."""
        return self.esuit[cid] == TRUMP


@cache
def make_order(rank: int, trump: int | None) -> Order:
    """The order for dominant rank index `rank` (0..12) and trump suit `trump` (None: none)."""
    dom = strength(rank)
    esuit = [0] * NUM_CARDS
    level = [0] * NUM_CARDS
    for c in range(NUM_CARDS):
        if c >= SJ:
            esuit[c] = TRUMP
            continue
        r, s = c >> 2, c & 3
        st = strength(r)
        plain = st if st < dom else st - 1  # close the gap the rank card leaves (ruling 3)
        if r == rank:
            esuit[c] = TRUMP
        elif s == trump:
            esuit[c], level[c] = TRUMP, plain
        else:
            esuit[c], level[c] = s, plain
    if trump is None:
        top_rank = 0  # all rank cards equal, then small, then big jokers
    else:
        top_rank = 13
        for s in range(4):
            level[rank * 4 + s] = 12
        level[rank * 4 + trump] = 13
    if trump is None:
        for s in range(4):
            level[rank * 4 + s] = 0
    level[SJ], level[BJ] = top_rank + 1, top_rank + 2
    masks = [0] * 5
    for c in range(NUM_CARDS):
        masks[esuit[c]] |= 3 << (2 * c)
    desc = tuple(
        tuple(sorted((c for c in range(NUM_CARDS) if esuit[c] == e), key=lambda c: (-level[c], c)))
        for e in range(5)
    )
    return Order(rank, trump, tuple(esuit), tuple(level), tuple(masks), desc)


def parse_trump(text: str) -> Order:
    """`--trump R[S]`: `7c` is rank 7 with clubs trump, `7` rank 7 in no-trump (`10h`, `Th`).

    CardError (exit 2 at the command line) when the text is neither.
    """
    t = text.strip()
    try:
        if t and t[-1].lower() in "shdc♠♥♦♣" and len(t) > 1:
            return make_order(parse_rank(t[:-1]), parse_suit(t[-1]))
        return make_order(parse_rank(t), None)
    except CardError:
        raise CardError(
            f"cannot read the trump {text!r}: write the dominant rank and the trump suit, "
            "e.g. 7c, 10h or Th, or the rank alone (7) for no-trump"
        ) from None


def order_for(text: str) -> Order:
    """The order of `parse_trump(text)` (a shorthand for tests and examples)."""
    return parse_trump(text)
