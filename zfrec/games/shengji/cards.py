"""Sheng ji cards: multisets of cards from one to three decks, packed into one int.

A card id is the card words' (`zfrec.cardwords`): `rank * 4 + suit` for rank 0..12 (3..2) and
suit 0..3 (s h d c), 52 the small joker, 53 the big joker; its text is read and written as there
(`7h`, `10c` or `Tc`, `SJ`, `BJ`). Two decks hold identical cards (ruling 2), so a hand is a
multiset: 2 bits per card id hold how many copies are held (0..3), card `c` in bits `2c, 2c+1`.
Adding and removing cards are then `+` and `-`, containment is a few bitwise operations, and a
hand is a plain int: hashable, immutable, cheap to save for undo.

    >>> hand = parse_hand("9d 9d Jd 3s")
    >>> size(hand), count(hand, card_id("9d")), format_hand(hand)
    (4, 2, '3s 9d 9d Jd')
    >>> contains(hand, parse_hand("9d Jd")), contains(hand, parse_hand("Jd Jd"))
    (True, False)
    >>> parse_hand("7h 7h 7h")
    Traceback (most recent call last):
    ...
    zfrec.errors.CardError: a third copy of 7h: 2 decks hold only 2 of each card
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain

from zfrec.cardwords import BJ, SJ, card_str, parse_card, read_word
from zfrec.errors import CardError

__all__ = [
    "BJ",
    "HIGH",
    "LOW",
    "NUM_CARDS",
    "SJ",
    "add_card",
    "card_id",
    "card_ids",
    "card_points",
    "contains",
    "count",
    "distinct",
    "format_cards",
    "format_hand",
    "from_ids",
    "one",
    "pair_cards",
    "pairs",
    "parse_hand",
    "parse_ids",
    "points",
    "size",
]

NUM_CARDS = 54
MAX_DECKS = 3  # 2 bits hold up to 3 copies
LOW = sum(1 << (2 * c) for c in range(NUM_CARDS))  # the low bit of every card's field
HIGH = LOW << 1  # the high bit: set when 2 or 3 copies are held
FIVES = sum(3 << (2 * (2 * 4 + s)) for s in range(4))  # rank index 2 is the Five
TENS_KINGS = sum(3 << (2 * (r * 4 + s)) for r in (7, 10) for s in range(4))  # T and K

# id -> text, and the text of every card as commonly written, for the fast path of the parser
_TEXT = tuple(card_str(c) for c in range(NUM_CARDS))
_SPELLINGS = {t: c for c, t in enumerate(_TEXT)} | {
    "10" + t[1]: c for c, t in enumerate(_TEXT) if t[0] == "T"
}


def one(cid: int) -> int:
    """The packed hand of one copy of card `cid`."""
    return 1 << (cid << 1)


def count(hand: int, cid: int) -> int:
    """How many copies of card `cid` the packed hand holds."""
    return hand >> (cid << 1) & 3


def size(hand: int) -> int:
    """The number of cards in a packed hand, copies counted."""
    return (hand & LOW).bit_count() + 2 * (hand & HIGH).bit_count()


def pairs(hand: int) -> int:
    """The number of pairs a hand can make (one per card held twice or three times)."""
    return (hand & HIGH).bit_count()


def pair_cards(hand: int) -> list[int]:
    """The card ids held at least twice, lowest first."""
    high = (hand & HIGH) >> 1
    return [c >> 1 for c in _bits(high)]


def contains(hand: int, part: int) -> bool:
    """Whether `hand` holds every card of `part`, copies counted (each field a >= b)."""
    ah, al = hand >> 1 & LOW, hand & LOW
    bh, bl = part >> 1 & LOW, part & LOW
    ge = (ah & ~bh) | (~(ah ^ bh) & (al | ~bl))
    return ge & LOW == LOW


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# The cards in each byte of a packed hand (four card fields), by the byte's place: a hand's
# cards are looked up a byte at a time instead of a bit at a time.
_PLACES = (2 * NUM_CARDS + 7) // 8
_BYTE_DISTINCT = tuple(
    tuple(tuple(4 * place + i for i in range(4) if byte >> (2 * i) & 3) for byte in range(256))
    for place in range(_PLACES)
)
_getitem = tuple.__getitem__
_BYTE_CARDS = tuple(
    tuple(
        tuple(4 * place + i for i in range(4) for _ in range(byte >> (2 * i) & 3))
        for byte in range(256)
    )
    for place in range(_PLACES)
)


def distinct(hand: int) -> list[int]:
    """The distinct card ids of a hand, lowest first."""
    out: list[int] = []
    place = 0
    while hand:
        byte = hand & 255
        if byte:
            out += _BYTE_DISTINCT[place][byte]
        hand >>= 8
        place += 1
    return out


def card_ids(hand: int) -> list[int]:
    """Every card of a hand, a card held twice listed twice, lowest id first."""
    # each byte's cards looked up by its place, in C loops (`map` over the places' tables)
    return list(chain.from_iterable(map(_getitem, _BYTE_CARDS, hand.to_bytes(_PLACES, "little"))))


def from_ids(ids: Iterable[int]) -> int:
    """The packed hand of some card ids (a card listed twice is held twice); no copy check."""
    hand = 0
    for c in ids:
        hand += 1 << (c << 1)
    return hand


def add_card(hand: int, cid: int, decks: int) -> int:
    """`hand` with one more copy of `cid`; CardError for a copy more than the decks hold."""
    if hand >> (cid << 1) & 3 >= decks:
        raise CardError(
            f"a third copy of {_TEXT[cid]}: 2 decks hold only 2 of each card"
            if decks == 2
            else f"{decks + 1} copies of {_TEXT[cid]}: "
            + (f"{decks} decks hold" if decks > 1 else "1 deck holds")
            + f" only {decks} of each card"
        )
    return hand + (1 << (cid << 1))


def card_id(text: str) -> int:
    """The id of one card written as in Zheng Fen: `7h`, `10c`, `Tc`, `SJ`, `BJ`."""
    cid = _SPELLINGS.get(text)
    return cid if cid is not None else parse_card(text)


def _word_ids(word: str) -> list[int]:
    """The cards of one word: one card, comma-separated cards or glued ones (`7h7h`)."""
    cid = _SPELLINGS.get(word)
    if cid is not None:
        return [cid]
    out: list[int] = []
    for part in word.split(","):
        if not part:
            continue
        try:
            mask, decls = read_word(part)
        except CardError as exc:
            glued = _glued(part)
            if glued is None:
                raise CardError(exc.message) from None
            out += glued
            continue
        if decls:
            raise CardError("joker declarations (BJ=8h) are Zheng Fen's: Sheng ji has none")
        out += [b for b in range(NUM_CARDS) if mask >> b & 1]
    return out


def _glued(word: str) -> list[int] | None:
    # identical cards glued together (`7h7h`), which Zheng Fen's reader refuses as a set
    out, pos = [], 0
    while pos < len(word):
        for width in (3, 2):
            cid = _SPELLINGS.get(word[pos : pos + width])
            if cid is None:
                try:
                    cid = parse_card(word[pos : pos + width])
                except CardError:
                    continue
            out.append(cid)
            pos += width
            break
        else:
            return None
    return out


def parse_ids(text: str, decks: int = 2) -> list[int]:
    """The card ids of a text in the order written (`parse_hand` checks and packs them)."""
    if not 1 <= decks <= MAX_DECKS:
        raise CardError(f"Sheng ji is played with 1 to {MAX_DECKS} decks here, not {decks}")
    ids: list[int] = []
    hand = 0
    for word in text.split():
        for cid in _word_ids(word):
            hand = add_card(hand, cid, decks)
            ids.append(cid)
    if not ids:
        raise CardError("no cards given")
    return ids


def parse_hand(text: str, decks: int = 2) -> int:
    """Cards separated by spaces or commas (or glued) into a packed hand; a card may appear
    as often as there are decks. CardError for an unreadable card or one copy too many."""
    return from_ids(parse_ids(text, decks))


def format_cards(ids: Iterable[int]) -> str:
    """The text of some card ids in the order given: `9d 9d Jd`."""
    return " ".join(_TEXT[c] for c in ids)


def format_hand(hand: int) -> str:
    """The canonical text of a packed hand: ascending card id (rank 3..2, suits s h d c)."""
    return " ".join(_TEXT[c] for c in card_ids(hand))


def card_points(cid: int) -> int:
    """A card's points (ruling 2): a Five 5, a Ten or King 10, any other card 0."""
    rank = cid >> 2 if cid < SJ else -1
    return 5 if rank == 2 else 10 if rank in (7, 10) else 0


def points(hand: int) -> int:
    """The points in a packed hand (ruling 2)."""
    f, t = hand & FIVES, hand & TENS_KINGS
    if not f | t:
        return 0
    # `size` of each, inlined: a trick's points are asked for every trick
    return 5 * ((f & LOW).bit_count() + 2 * (f & HIGH).bit_count()) + 10 * (
        (t & LOW).bit_count() + 2 * (t & HIGH).bit_count()
    )
