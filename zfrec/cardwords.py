"""Card words: how a card of the French-suited pack with two jokers is written and read.

Both games write cards the same way (FORMAT.md, Cards): a rank `3`..`9`, `T` or `10`, `J`, `Q`,
`K`, `A`, `2` and a suit `s h d c` (or `♠ ♥ ♦ ♣`), or `SJ`/`BJ`; a joker may declare what it
stands for (`BJ=8h`). A card id is `rank * 4 + suit` for rank 0..12 (3..2) and suit 0..3, the
small joker 52 and the big joker 53; a game with two decks tells the copies apart itself. Nothing
here knows a game's rules: Zheng Fen's cards (`zfrec.games.zhengfen.engine.cards`: `Card`,
`Cards`, masks, points) and Sheng ji's (`zfrec.games.shengji.cards`) both build on these words.

There is one card parser, `read_word` (one word, glued or comma-separated cards).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

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

# Every suit spelling, in groups of four in s h d c order: letters, glyphs, outlined glyphs.
_SUIT_SPELLINGS = "shdc♠♥♦♣♤♡♢♧"
RANK_ERROR = "ranks are 3 4 5 6 7 8 9 T J Q K A 2 (10 for T)"
SUIT_ERROR = "suits are s h d c (or ♠ ♥ ♦ ♣)"
CARD_HELP = (
    "a card is a rank (3-9, 10 or T, J, Q, K, A, 2) and a suit (s h d c or ♠ ♥ ♦ ♣), or SJ/BJ"
)


def rank_of(card_id: int) -> int:
    """Rank index of a card id: 0..12 for real cards, 13 and 14 for the jokers."""
    return card_id >> 2 if card_id < SJ else card_id - SJ + SJ_RANK


def rank_symbol(rank: int) -> str:
    """Rank index to symbol, jokers included (`SJ`, `BJ`)."""
    if rank == SJ_RANK:
        return "SJ"
    if rank == BJ_RANK:
        return "BJ"
    return RANK_SYMBOLS[rank]


def parse_rank(text: str) -> int:
    """A real rank symbol (`3`..`9`, `T` or `10`, `J`, `Q`, `K`, `A`, `2`) to its index."""
    t = text.strip().upper()
    if t == "10":
        t = "T"
    if len(t) == 1 and t in RANK_SYMBOLS:
        return RANK_SYMBOLS.index(t)
    raise CardError(f"unknown rank {text!r}: {RANK_ERROR}")


def parse_suit(text: str) -> int:
    """A suit letter or symbol (`s h d c`, `♠ ♥ ♦ ♣`, `♤ ♡ ♢ ♧`) to its index 0..3."""
    t = text.strip().lower()
    if len(t) == 1 and t in _SUIT_SPELLINGS:
        return _SUIT_SPELLINGS.index(t) % 4
    raise CardError(f"unknown suit {text!r}: {SUIT_ERROR}")


def card_str(card_id: int) -> str:
    """The notation of one card id: `Th`, `3s`, `SJ`."""
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


@dataclass(frozen=True, slots=True)
class Stand:
    """What a wild joker stands for: a real rank, and a suit where the suit matters.

    >>> Stand.parse("10h"), str(Stand.parse("8"))
    (Stand(rank=7, suit=1), '8')
    """

    rank: int
    suit: int | None = None

    @staticmethod
    def parse(text: str) -> Stand:
        """A rank with an optional suit, as after `=` in `BJ=8h` or `BJ=8`."""
        t = text.strip()
        if t.upper() in ("SJ", "BJ"):
            raise CardError(f"a joker cannot stand for a joker ({text!r}); see RULES.md R15")
        m = _STAND_RE.fullmatch(t)
        if m is None:
            raise CardError(f"unknown rank {text!r}: {RANK_ERROR}")
        return _stand(m.group(1), m.group(2))

    def card_id(self) -> int | None:
        """The card it stands for, when the suit is given."""
        return None if self.suit is None else self.rank * 4 + self.suit

    def __str__(self) -> str:
        return RANK_SYMBOLS[self.rank] + ("" if self.suit is None else SUIT_SYMBOLS[self.suit])

    def glyph(self) -> str:
        """Display form with a suit symbol: `10♥`, `8`."""
        rank = "10" if self.rank == 7 else RANK_SYMBOLS[self.rank]
        return rank + ("" if self.suit is None else SUIT_GLYPHS[self.suit])


Declarations = dict[int, Stand]  # joker card id -> what it stands for
DeclarationTuple = tuple[tuple[int, Stand], ...]  # the same, sorted by joker, as records keep it


def declared_text(card_id: int, stand: Stand | None) -> str:
    """One card of a play with what it stands for, if declared: `BJ=8h`, `SJ=8`, `7s`."""
    return card_str(card_id) + ("" if stand is None else f"={stand}")


# ---------------------------------------------------------------------------------------------
# The card parser. A word of cards may be glued (`7h7s`, `BJ=8h8s`) or comma-separated
# (`7h,7s`), so it is read card by card. A declaration's suit is optional, so `BJ=8SJ` reads as
# BJ=8s then `J`: separate such cards with a space or a comma (FORMAT.md says so).

_RANK = r"10|[2-9tjqka]"
_SUIT = rf"[{_SUIT_SPELLINGS}]"
_CARD_RE = re.compile(rf"({_RANK})({_SUIT})|([sb]j)(?:=({_RANK})({_SUIT})?)?", re.IGNORECASE)
_RANK_RE = re.compile(_RANK, re.IGNORECASE)
_STAND_RE = re.compile(rf"({_RANK})({_SUIT})?", re.IGNORECASE)
WORD_SEPARATORS = ",\ufe0f"  # separators, and the emoji variation selector phones put after ♥ (♥️)


def _card_id(rank: str, suit: str) -> int:
    index = RANK_SYMBOLS.index("T" if rank == "10" else rank.upper())
    return index * 4 + _SUIT_SPELLINGS.index(suit.lower()) % 4


def _stand(rank: str, suit: str | None) -> Stand:
    index = RANK_SYMBOLS.index("T" if rank == "10" else rank.upper())
    return Stand(index, None if suit is None else _SUIT_SPELLINGS.index(suit.lower()) % 4)


@lru_cache(maxsize=8192)
def read_word(word: str) -> tuple[int, DeclarationTuple]:
    """One word of cards (no spaces) to (mask, declarations in the order written).

    Raises CardError whose `offset` is the index in `word` of the problem.

    >>> read_word("7h7s,BJ=8")
    (9007199254937600, ((53, Stand(rank=5, suit=None)),))
    """
    if not word.isascii():
        # Chinese input methods type full-width letters and digits (`Ｑｃ`, `１０ｈ`): read them
        # as their plain forms; the suit glyphs have no compatibility form and stay.
        word = unicodedata.normalize("NFKC", word)
    mask = 0
    decls: list[tuple[int, Stand]] = []
    pos = 0
    n = len(word)
    while pos < n:
        if word[pos] in WORD_SEPARATORS:
            pos += 1
            continue
        m = _CARD_RE.match(word, pos)
        if m is None:
            raise _unreadable(word, pos)
        if m.group(1):
            cid = _card_id(m.group(1), m.group(2))
            if m.end() < n and word[m.end()] == "=":
                raise CardError(
                    f"only jokers take a declaration, not {card_str(cid)}", offset=m.end()
                )
        else:
            cid = SJ if m.group(3).upper() == "SJ" else BJ
            if m.group(4):
                decls.append((cid, _stand(m.group(4), m.group(5))))
            elif m.end() < n and word[m.end()] == "=":
                after = word[m.end() + 1 : m.end() + 3]
                if after.upper() in ("SJ", "BJ"):
                    raise CardError(
                        f"a joker cannot stand for a joker ({after!r}); see RULES.md R15",
                        offset=m.end() + 1,
                    )
                raise CardError(
                    "a joker declaration names a real rank, 3 through 2 (RULES.md R15)",
                    offset=m.end(),
                )
        if mask >> cid & 1:
            raise CardError(f"card {card_str(cid)} is given twice", offset=pos)
        mask |= 1 << cid
        pos = m.end()
    if not mask:
        raise CardError(f"no cards here: {CARD_HELP}", offset=0)
    return mask, tuple(decls)


def _unreadable(text: str, pos: int) -> CardError:
    """Say precisely what is wrong with the card that starts at `pos`."""
    rank = _RANK_RE.match(text, pos)
    if rank is None:
        shown = text[pos : pos + 20] + ("…" if len(text) > pos + 20 else "")
        return CardError(f"cannot read a card at {shown!r}: {CARD_HELP}", offset=pos)
    end = rank.end()
    if end >= len(text) or text[end] in ",=":
        return CardError(f"card {text[pos:end]!r} has no suit: add s, h, d or c", offset=end)
    card = text[pos : end + 1]
    return CardError(f"unknown suit {text[end]!r} in {card!r}: {SUIT_ERROR}", offset=end)


def parse_card(text: str) -> int:
    """The id of one card in any spelling the notation accepts (`Th`, `10♥`, `th`, `SJ`)."""
    word = text.strip()
    mask, decls = read_word(word) if word else (0, ())
    if decls or mask.bit_count() != 1:
        raise CardError(f"{text!r} is not one card: write e.g. Th, 10♥, As or SJ")
    return mask.bit_length() - 1
