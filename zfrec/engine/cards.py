"""Cards, their notation, and 54-bit masks.

A card is an id 0..53: real cards are `rank * 4 + suit` (rank 0..12 for 3..2, suit 0..3 for
s h d c), the small joker is 52 and the big joker 53. A set of cards is an int with bit `id` set,
so containment is `m & ~hand == 0` and removal is `hand & ~m`. The four cards of one rank sit in
one nibble, which is what makes rank counting cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from zfrec.errors import CardError

RANK_SYMBOLS = "3456789TJQKA2"
SUIT_SYMBOLS = "shdc"
SUIT_GLYPHS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = (
    "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace", "2",
    "small joker", "big joker",
)  # fmt: skip

NUM_RANKS = 13  # real ranks 3..2
SJ_RANK = 13
BJ_RANK = 14
SJ = 52
BJ = 53
DECK_SIZE = 54
FULL_DECK = (1 << DECK_SIZE) - 1
JOKER_MASK = (1 << SJ) | (1 << BJ)
REAL_MASK = FULL_DECK & ~JOKER_MASK
THREE_OF_HEARTS = 0 * 4 + 1
COUNTER_POINTS = {2: 5, 7: 10, 10: 10}  # rank index of 5, T, K -> points
COUNTERS = 0xF << 8 | 0xF << 28 | 0xF << 40  # the mask of every 5, Ten and King

_SUIT_ALIASES = {
    **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
    **{g: i for i, g in enumerate(SUIT_GLYPHS)},
    **{g: i for i, g in enumerate("♤♡♢♧")},
}


def rank_of(card_id: int) -> int:
    """Rank index of a card id: 0..12 for real cards, 13 and 14 for the jokers."""
    return card_id >> 2 if card_id < SJ else card_id - SJ + SJ_RANK


def parse_rank(text: str) -> int:
    """A real rank symbol (`3`..`9`, `T` or `10`, `J`, `Q`, `K`, `A`, `2`) to its index."""
    t = text.strip().upper()
    if t == "10":
        t = "T"
    if len(t) == 1 and t in RANK_SYMBOLS:
        return RANK_SYMBOLS.index(t)
    raise CardError(f"unknown rank {text!r}: ranks are 3 4 5 6 7 8 9 T J Q K A 2 (10 for T)")


def rank_symbol(rank: int) -> str:
    """Rank index to symbol, jokers included (`SJ`, `BJ`)."""
    if rank == SJ_RANK:
        return "SJ"
    if rank == BJ_RANK:
        return "BJ"
    return RANK_SYMBOLS[rank]


def parse_suit(text: str) -> int:
    suit = _SUIT_ALIASES.get(text.strip().lower())
    if suit is None:
        raise CardError(f"unknown suit {text!r}: suits are s h d c (or ♠ ♥ ♦ ♣)")
    return suit


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card of the 54-card pack. `Card.parse('Th')`, `str(card) == 'Th'`."""

    id: int

    @staticmethod
    def parse(text: str) -> Card:
        return CARDS[parse_card_id(text)]

    @property
    def rank(self) -> int:
        return rank_of(self.id)

    @property
    def suit(self) -> int | None:
        return None if self.id >= SJ else self.id & 3

    @property
    def is_joker(self) -> bool:
        return self.id >= SJ

    @property
    def points(self) -> int:
        return 0 if self.id >= SJ else COUNTER_POINTS.get(self.id >> 2, 0)

    @property
    def bit(self) -> int:
        return 1 << self.id

    def __str__(self) -> str:
        return card_str(self.id)

    def __repr__(self) -> str:
        return f"Card.parse({card_str(self.id)!r})"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(DECK_SIZE))


def card_str(card_id: int) -> str:
    if card_id == SJ:
        return "SJ"
    if card_id == BJ:
        return "BJ"
    return RANK_SYMBOLS[card_id >> 2] + SUIT_SYMBOLS[card_id & 3]


def card_glyph(card_id: int) -> str:
    """Display form with a suit symbol: `10♥`, `A♠`, `SJ`."""
    if card_id >= SJ:
        return card_str(card_id)
    rank = RANK_SYMBOLS[card_id >> 2]
    return ("10" if rank == "T" else rank) + SUIT_GLYPHS[card_id & 3]


def parse_card_id(text: str) -> int:
    """One card token to its id. Case-insensitive; accepts `10` and suit symbols."""
    t = text.strip()
    upper = t.upper()
    if upper == "SJ":
        return SJ
    if upper == "BJ":
        return BJ
    if len(t) < 2:
        raise CardError(f"malformed card {text!r}: write rank then suit, e.g. Th, 10♥, As, SJ")
    try:
        return parse_rank(t[:-1]) * 4 + parse_suit(t[-1])
    except CardError as exc:
        raise CardError(f"malformed card {text!r}: {exc.message}") from None


@dataclass(frozen=True, slots=True)
class Stand:
    """What a wild joker stands for: a real rank, and a suit where the suit matters."""

    rank: int
    suit: int | None = None

    @staticmethod
    def parse(text: str) -> Stand:
        t = text.strip()
        if t.upper() in ("SJ", "BJ"):
            raise CardError(f"a joker cannot stand for a joker ({text!r}); see RULES.md R15")
        if len(t) >= 2 and t[-1].lower() in _SUIT_ALIASES and t.upper() != "10":
            try:
                return Stand(parse_rank(t[:-1]), parse_suit(t[-1]))
            except CardError:
                pass
        return Stand(parse_rank(t))

    def card_id(self) -> int | None:
        return None if self.suit is None else self.rank * 4 + self.suit

    def __str__(self) -> str:
        return RANK_SYMBOLS[self.rank] + ("" if self.suit is None else SUIT_SYMBOLS[self.suit])


Declarations = dict[int, Stand]  # joker card id -> what it stands for


@dataclass(frozen=True, slots=True)
class PlayText:
    """A parsed play: its cards as a mask and its joker declarations."""

    mask: int
    declarations: tuple[tuple[int, Stand], ...] = ()

    def declared(self) -> Declarations:
        return dict(self.declarations)

    def __str__(self) -> str:
        return format_play(self.mask, dict(self.declarations))


def parse_cards(text: str) -> int:
    """A whitespace- or comma-separated list of cards to a mask. Duplicates are an error."""
    play = parse_play(text)
    if play.declarations:
        raise CardError("joker declarations are not allowed here")
    return play.mask


def parse_play(text: str) -> PlayText:
    """Cards with optional joker declarations, e.g. `7s 7h SJ BJ=8 8c` or `BJ=8h`."""
    mask = 0
    decls: dict[int, Stand] = {}
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise CardError("no cards given")
    for token in tokens:
        name, eq, value = token.partition("=")
        cid = parse_card_id(name)
        if mask >> cid & 1:
            raise CardError(f"card {card_str(cid)} is given twice")
        mask |= 1 << cid
        if eq:
            if cid < SJ:
                raise CardError(f"only jokers take a declaration, not {card_str(cid)}")
            decls[cid] = Stand.parse(value)
    return PlayText(mask, tuple(sorted(decls.items())))


def iter_ids(mask: int) -> Iterator[int]:
    """Card ids in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def ids(mask: int) -> list[int]:
    return list(iter_ids(mask))


def to_mask(cards: Iterable[int | Card]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << (c.id if isinstance(c, Card) else c)
    return mask


def format_cards(mask: int) -> str:
    """Canonical text of a card set: ascending rank, suits in s h d c order."""
    return " ".join(card_str(i) for i in iter_ids(mask))


def format_play(mask: int, declarations: Declarations | None = None) -> str:
    decls = declarations or {}
    out = []
    for cid in iter_ids(mask):
        stand = decls.get(cid)
        out.append(card_str(cid) + ("" if stand is None else f"={stand}"))
    return " ".join(out)


def points_of(mask: int) -> int:
    """Counter points in a card set: 5 for each Five, 10 for each Ten and King."""
    return (
        5 * (mask >> 8 & 0xF).bit_count()
        + 10 * (mask >> 28 & 0xF).bit_count()
        + 10 * (mask >> 40 & 0xF).bit_count()
    )


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
