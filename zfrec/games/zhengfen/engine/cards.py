"""Cards, their notation, and 54-bit masks.

A card is an id 0..53: real cards are `rank * 4 + suit` (rank 0..12 for 3..2, suit 0..3 for
s h d c), the small joker is 52 and the big joker 53. A set of cards is an int with bit `id` set,
so containment is `m & ~hand == 0` and removal is `hand & ~m`. The four cards of one rank sit in
one nibble, which is what makes rank counting cheap.

The public value types are `Card` (one card) and `Cards` (a set of cards). Both are `int`
subclasses: a `Card` is its id and a `Cards` is its mask, so the engine's mask arithmetic works on
them unchanged and at full speed, while `str()`, `repr()`, iteration and `in` speak the notation:

    >>> hand = Cards.parse("8h 8s BJ 10♥")
    >>> str(hand), len(hand), "Th" in hand
    ('8s 8h Th BJ', 4, True)
    >>> [str(card) for card in hand]
    ['8s', '8h', 'Th', 'BJ']
    >>> hand
    Cards.parse('8s 8h Th BJ')

Arithmetic on them gives plain ints (masks); wrap a mask in `Cards(mask)` to print it.

There is one card parser, `read_word` (one word, glued or comma-separated cards), used by
`parse_play`, `parse_cards`, `Card.parse` and `Cards.parse`, and through them by the command line,
the JSON reader and the .zfn reader. They all accept the same spellings (FORMAT.md, Cards).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from zfrec.cardwords import (
    BJ,
    BJ_RANK,
    CARD_HELP,
    NUM_RANKS,
    RANK_ERROR,
    RANK_NAMES,
    RANK_SYMBOLS,
    SJ,
    SJ_RANK,
    SUIT_ERROR,
    SUIT_GLYPHS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    WORD_SEPARATORS,
    Declarations,
    DeclarationTuple,
    Stand,
    card_glyph,
    card_str,
    declared_text,
    parse_card,
    parse_rank,
    parse_suit,
    rank_of,
    rank_symbol,
    read_word,
)
from zfrec.errors import CardError

# The card words (zfrec.cardwords) are re-exported: Zheng Fen's engine reads and writes its
# cards through this module.
__all__ = [
    "BJ",
    "BJ_RANK",
    "CARDS",
    "CARD_HELP",
    "COUNTERS",
    "COUNTER_POINTS",
    "DECK_SIZE",
    "FULL_DECK",
    "JOKER_MASK",
    "NO_CARDS",
    "NUM_RANKS",
    "POINTS_BY_COUNTERS",
    "RANK_ERROR",
    "RANK_NAMES",
    "RANK_SYMBOLS",
    "REAL_MASK",
    "SJ",
    "SJ_RANK",
    "SUIT_ERROR",
    "SUIT_GLYPHS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "THREE_OF_HEARTS",
    "WORD_SEPARATORS",
    "Card",
    "Cards",
    "DeclarationTuple",
    "Declarations",
    "PlayText",
    "Stand",
    "card_glyph",
    "card_ids",
    "card_str",
    "declared_text",
    "format_cards",
    "format_play",
    "ids",
    "iter_ids",
    "parse_card",
    "parse_cards",
    "parse_play",
    "parse_rank",
    "parse_suit",
    "points_of",
    "rank_counts",
    "rank_of",
    "rank_symbol",
    "read_word",
    "suit_ranks",
    "to_mask",
]

DECK_SIZE = 54
FULL_DECK = (1 << DECK_SIZE) - 1
JOKER_MASK = (1 << SJ) | (1 << BJ)
REAL_MASK = FULL_DECK & ~JOKER_MASK
THREE_OF_HEARTS = 0 * 4 + 1
COUNTER_POINTS = {2: 5, 7: 10, 10: 10}  # rank index of 5, T, K -> points
COUNTERS = 0xF << 8 | 0xF << 28 | 0xF << 40  # the mask of every 5, Ten and King


class Card(int):
    """One card of the 54-card pack; its int value is the card id (0..53).

    An int subclass, so it indexes tables and shifts (`1 << card`) like the ids the engine uses.

    >>> card = Card.parse("10♥")
    >>> card, str(card), card.rank, card.suit, card.points
    (Card.parse('Th'), 'Th', 7, 1, 10)
    >>> Card.parse("bj").is_joker
    True
    """

    __slots__ = ()

    def __new__(cls, card_id: int) -> Card:
        if not 0 <= card_id < DECK_SIZE:
            raise CardError(f"there is no card {card_id}: card ids are 0 to {DECK_SIZE - 1}")
        return int.__new__(cls, card_id)

    @staticmethod
    def parse(text: str) -> Card:
        """One card in any spelling the notation accepts (`Th`, `10♥`, `th`, `SJ`)."""
        return CARDS[parse_card(text)]

    @property
    def id(self) -> int:
        """The card id as a plain int."""
        return int(self)

    @property
    def rank(self) -> int:
        """Rank index: 0..12 for 3..2, 13 for SJ, 14 for BJ."""
        return rank_of(self)

    @property
    def suit(self) -> int | None:
        """Suit index 0..3 (s h d c); None for a joker."""
        return None if self >= SJ else self & 3

    @property
    def is_joker(self) -> bool:
        """The small or the big joker."""
        return self >= SJ

    @property
    def points(self) -> int:
        """Counter points: 5 for a Five, 10 for a Ten or King, else 0 (jokers too)."""
        return 0 if self >= SJ else COUNTER_POINTS.get(self >> 2, 0)

    @property
    def bit(self) -> int:
        """The one-card mask."""
        return 1 << self

    def __str__(self) -> str:
        return card_str(self)

    def __repr__(self) -> str:
        return f"Card.parse({card_str(self)!r})"


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(DECK_SIZE))


class Cards(int):
    """A set of cards; its int value is the 54-bit mask. `Cards(mask)` wraps a mask.

    `str()` is the canonical notation (ascending rank, suits s h d c), iteration gives the `Card`s
    in that order, `len()` counts them and `in` takes a `Card`, a card id, a card's notation or
    another `Cards` (a subset test). Arithmetic works on the mask and gives plain ints.

    >>> pair = Cards.parse("8s,8h")
    >>> str(pair), len(pair), Card.parse("8s") in pair, "8d" in pair
    ('8s 8h', 2, True, False)
    >>> Cards.parse("8s") in pair, Cards(pair | Card.parse("8d").bit)
    (True, Cards.parse('8s 8h 8d'))
    >>> Cards(), str(Cards())
    (Cards(), '')
    """

    __slots__ = ()

    @staticmethod
    def parse(text: str) -> Cards:
        """Cards separated by spaces or commas, or glued (`7h7s`); no joker declarations."""
        return parse_cards(text)

    @staticmethod
    def of(cards: Iterable[int]) -> Cards:
        """The set of the given cards (`Card`s or card ids)."""
        return Cards(to_mask(cards))

    def __iter__(self) -> Iterator[Card]:
        return (CARDS[i] for i in iter_ids(self))

    def __len__(self) -> int:
        return self.bit_count()

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            item = Card.parse(item)
        if isinstance(item, Cards):
            return item & ~self == 0
        if isinstance(item, int) and 0 <= item < DECK_SIZE:
            return bool(self >> item & 1)
        return False

    def __str__(self) -> str:
        return format_cards(self)

    def __repr__(self) -> str:
        return f"Cards.parse({format_cards(self)!r})" if self else "Cards()"


NO_CARDS = Cards()  # the empty set


@dataclass(frozen=True, slots=True)
class PlayText:
    """A parsed play: its cards and its joker declarations (sorted by joker).

    >>> play = parse_play("8s 8h BJ=8")
    >>> play.mask, play.declared()
    (Cards.parse('8s 8h BJ'), {53: Stand(rank=5, suit=None)})
    >>> str(play)
    '8s 8h BJ=8'
    """

    mask: Cards
    declarations: DeclarationTuple = ()

    def declared(self) -> Declarations:
        """The declarations as a dict, as the engine takes them."""
        return dict(self.declarations)

    def __str__(self) -> str:
        return format_play(self.mask, dict(self.declarations))


# Each card as the writer spells it (`3s`, `Th`, `SJ`): the common case, read by one lookup.
_CANONICAL = {card_str(card): 1 << card for card in range(DECK_SIZE)}


_SKIP = WORD_SEPARATORS


_WORD_RE = re.compile(r"\S+")


def parse_play(text: str) -> PlayText:
    """Cards with optional joker declarations, e.g. `7s 7h SJ BJ=8 8c`, `7h7s` or `BJ=8h`.

    Words are separated by spaces; within a word cards may be glued or separated by commas.
    Raises CardError with the `offset` of the problem in `text`.
    """
    mask = 0
    decls: list[tuple[int, Stand]] = []
    for m in _WORD_RE.finditer(text):
        word = m.group()
        try:
            word_mask, word_decls = read_word(word)
        except CardError as exc:
            if not word.strip(_SKIP):
                continue  # a lone comma between words
            raise CardError(exc.message, offset=m.start() + exc.offset) from None
        twice = mask & word_mask
        if twice:
            low = (twice & -twice).bit_length() - 1
            raise CardError(f"card {card_str(low)} is given twice", offset=m.start())
        mask |= word_mask
        decls.extend(word_decls)
    if not mask:
        raise CardError("no cards given")
    return PlayText(Cards(mask), tuple(sorted(decls, key=lambda d: d[0])))


def parse_cards(text: str) -> Cards:
    """A whitespace- or comma-separated (or glued) list of cards. Duplicates are an error.

    >>> parse_cards("BJ 2c 3h, Ts")
    Cards.parse('3h Ts 2c BJ')
    """
    # The common case, cards as the writer spells them: one lookup per card, and distinct
    # cards are distinct bits, so their sum is the set.
    words = text.split(" ")
    try:
        bits = set(map(_CANONICAL.__getitem__, words))
    except KeyError:
        pass
    else:
        if len(bits) == len(words):
            return Cards(sum(bits))
    play = parse_play(text)
    if play.declarations:
        raise CardError("joker declarations are not allowed here")
    return play.mask


def iter_ids(mask: int) -> Iterator[int]:
    """Card ids in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def ids(mask: int) -> list[int]:
    """Card ids in a mask, lowest first, as a list."""
    return list(iter_ids(mask))


def to_mask(cards: Iterable[int]) -> int:
    """The mask of some card ids (or `Card`s, which are ids)."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


# The cards in each byte of a mask, by the byte's place: a set's ids and its text are looked up
# a byte at a time instead of a bit at a time (3 to 4 times faster for a hand of cards).
_BYTE_IDS = tuple(
    tuple(tuple(8 * place + i for i in range(8) if byte >> i & 1) for byte in range(256))
    for place in range(DECK_SIZE // 8 + 1)
)
_BYTE_TEXT = tuple(
    tuple(tuple(card_str(c) for c in ids if c < DECK_SIZE) for ids in row) for row in _BYTE_IDS
)


def _by_bytes(mask: int, table: tuple[tuple[tuple[Any, ...], ...], ...]) -> list[Any]:
    # what `table` holds for each byte of the mask, by the byte's place, lowest first
    out: list[Any] = []
    place = 0
    while mask:
        byte = mask & 255
        if byte:
            out += table[place][byte]
        mask >>= 8
        place += 1
    return out


def card_ids(mask: int) -> tuple[int, ...]:
    """The card ids of a mask, lowest first, as a tuple (`ids`)."""
    if mask >> DECK_SIZE:
        return tuple(iter_ids(mask))
    return tuple(_by_bytes(mask, _BYTE_IDS))


def format_cards(mask: int) -> str:
    """Canonical text of a card set: ascending rank, suits in s h d c order."""
    if mask >> DECK_SIZE:
        return " ".join(card_str(i) for i in iter_ids(mask))  # raises: no such card
    return " ".join(_by_bytes(mask, _BYTE_TEXT))


def format_play(mask: int, declarations: Declarations | None = None) -> str:
    """Canonical text of a play, each declared joker with what it stands for: `8s 8h BJ=8h`."""
    if not declarations:
        return format_cards(mask)
    return " ".join(declared_text(cid, declarations.get(cid)) for cid in iter_ids(mask))


# The points of every set of counters, by the twelve counter bits side by side (Fives, Tens,
# Kings): one lookup instead of three counts (the solver asks at every trick it ends).
POINTS_BY_COUNTERS = tuple(
    5 * (i & 0xF).bit_count() + 10 * (i >> 4 & 0xF).bit_count() + 10 * (i >> 8).bit_count()
    for i in range(1 << 12)
)


def points_of(mask: int, _points: tuple[int, ...] = POINTS_BY_COUNTERS) -> int:
    """Counter points in a card set: 5 for each Five, 10 for each Ten and King."""
    return _points[mask >> 8 & 0xF | mask >> 24 & 0xF0 | mask >> 32 & 0xF00]


def rank_counts(mask: int) -> list[int]:
    """Number of real cards of each rank 0..12."""
    return [(mask >> (4 * r) & 0xF).bit_count() for r in range(NUM_RANKS)]


def suit_ranks(mask: int, suit: int) -> int:
    """13-bit mask of the ranks held in one suit (bit r = rank r)."""
    out = 0
    m = mask >> suit
    for r in range(NUM_RANKS):
        if m >> (4 * r) & 1:
            out |= 1 << r
    return out
