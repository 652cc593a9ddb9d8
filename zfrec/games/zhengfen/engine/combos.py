"""Combinations: the ten categories, every reading of a card set, and which play beats which.

A *reading* is one way to see a set of cards as a combination: its category, the rank of its
deciding card, its length for sequences, and what each wild joker stands for (RULES.md R13-R23).

Readings are found without trying every substitution for a joker. The real cards (and jokers
whose meaning is declared) are counted by rank, and a candidate combination is possible when its
*deficit*, the cards it needs that are not there, is covered by the free jokers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple

from zfrec.errors import AmbiguousPlayError, IllegalPlayError
from zfrec.games.zhengfen.engine.cards import (
    BJ,
    JOKER_MASK,
    NUM_RANKS,
    REAL_MASK,
    SJ,
    SUIT_GLYPHS,
    Declarations,
    Stand,
    card_str,
    format_play,
    iter_ids,
    rank_symbol,
)
from zfrec.games.zhengfen.engine.kickers import (
    _KICKER,
    Fixed,
    _full_house_splits,
    _kicker_ok,
    _kicker_suit,
)
from zfrec.games.zhengfen.engine.kickers import COUNTER_RANKS as COUNTER_RANKS  # re-exported
from zfrec.games.zhengfen.engine.kickers import THREE as THREE
from zfrec.games.zhengfen.engine.rules import Ruleset

DEFAULT_RULES = Ruleset()
TWO = 12  # rank index of the 2
SPECIAL_NAMES = ("mixed", "suited", "twos")
FOUR_TWOS = 0xF << (4 * TWO)


class Category(IntEnum):
    """The ten categories of play, in the order RULES.md R14 lists them."""

    single = 0
    pair = 1
    triple = 2
    quartet = 3
    pair_sequence = 4
    triple_sequence = 5
    quartet_sequence = 6
    full_house = 7
    suit_sequence = 8
    special = 9


# The members as plain module constants: reading Category.x costs as much as twenty operations.
SINGLE, PAIR, TRIPLE, QUARTET = Category.single, Category.pair, Category.triple, Category.quartet
FULL_HOUSE, SUIT_SEQUENCE, SPECIAL = Category.full_house, Category.suit_sequence, Category.special

SEQUENCES = frozenset(
    (
        Category.pair_sequence,
        Category.triple_sequence,
        Category.quartet_sequence,
        Category.suit_sequence,
    )
)
OF_A_KIND = {2: Category.pair, 3: Category.triple, 4: Category.quartet}
SEQUENCE_OF = {2: Category.pair_sequence, 3: Category.triple_sequence, 4: Category.quartet_sequence}
UNIT_OF = {c: k for k, c in SEQUENCE_OF.items()}


class Combo(NamedTuple):
    """One reading of a played card set.

    `rank` is the rank index of the deciding card (0..12 for 3..2, 13 and 14 for the jokers as
    singles); for a special it is 0 (mixed 5-T-K), 1 (suited 5-T-K) or 2 (four 2s). `length` is
    the number of units in a pair/triple/quartet sequence, the number of cards in a suit
    sequence, and None otherwise. `jokers` says what each wild joker stands for.

    A named tuple, so that it is immutable and yet cheap to build: the engine builds one per
    reading of every play it reads or lists.
    """

    category: Category
    rank: int
    length: int | None
    mask: int
    jokers: tuple[tuple[int, Stand], ...] = ()
    suit: int | None = None

    @property
    def key(self) -> tuple[int, int, int]:
        """What the combination is worth, without the cards: (category, rank, length)."""
        return (self.category, self.rank, self.length or 0)

    @property
    def rank_symbol(self) -> str:
        """The deciding rank as text, or the special's name (`mixed`, `suited`, `twos`)."""
        if self.category is Category.special:
            return SPECIAL_NAMES[self.rank]
        return rank_symbol(self.rank)

    def declarations(self) -> Declarations:
        """What each wild joker stands for, as a dict."""
        return dict(self.jokers)

    def text(self) -> str:
        """The cards with every joker declaration written out, e.g. `7s 7h SJ=8 BJ=8 8c`."""
        return format_play(self.mask, self.declarations())

    def describe(self) -> str:
        """The reading in words, e.g. `full house of 9s, big joker as 9`."""
        return describe(self)

    def to_json(self) -> dict[str, object]:
        """The reading as plain JSON values (`zfrec classify --json`): the fields of
        `ComboJson`.

        >>> resolve(0b11 << 8, None).to_json()
        {'category': 'pair', 'rank': '5', 'length': None, 'jokers': {}, 'cards': '5s 5h'}
        """
        from zfrec.jsonview import dump  # pydantic only when JSON is asked for

        data: dict[str, object] = dump(ComboJson.of(self))
        return data

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class ComboJson:
    """A reading as JSON: the category and rank by name, what each joker stands for, the
    cards in the notation."""

    category: str
    rank: str
    length: int | None
    jokers: dict[str, str]
    cards: str

    @classmethod
    def of(cls, c: Combo) -> ComboJson:
        """The view of a reading."""
        jokers = {card_str(j): str(s) for j, s in c.jokers}
        return cls(c.category.name, c.rank_symbol, c.length, jokers, c.text())


# --- describing -------------------------------------------------------------------------------

_PLURAL = {r: f"{rank_symbol(r)}s" for r in range(NUM_RANKS)}
_SPECIAL_WORDS = ("special: mixed 5-T-K", "special: suited 5-T-K", "special: four 2s")
_JOKER_WORDS = {SJ: "small joker", BJ: "big joker"}


def _stand_words(stand: Stand) -> str:
    rank = "10" if rank_symbol(stand.rank) == "T" else rank_symbol(stand.rank)
    return rank + ("" if stand.suit is None else SUIT_GLYPHS[stand.suit])


def describe(combo: Combo) -> str:
    """The reading in words, e.g. `pair of 5s` or `full house of 9s, big joker as 9`."""
    c, r = combo.category, combo.rank
    if c is Category.special:
        head = _SPECIAL_WORDS[r]
    elif c is Category.single:
        head = (
            f"single {_JOKER_WORDS.get(SJ + r - 13, rank_symbol(r)) if r >= 13 else rank_symbol(r)}"
        )
    elif c in SEQUENCES:
        unit = {
            Category.pair_sequence: "pairs",
            Category.triple_sequence: "triples",
            Category.quartet_sequence: "quartets",
        }.get(c, "cards")
        suit = f" in {SUIT_GLYPHS[combo.suit]}" if combo.suit is not None else ""
        head = f"sequence of {combo.length} {unit}{suit} up to {rank_symbol(r)}"
        if c is Category.suit_sequence:
            head = f"suit sequence of {combo.length}{suit} up to {rank_symbol(r)}"
    else:
        head = f"{c.name.replace('_', ' ')} of {_PLURAL[r]}"
    jokers = ", ".join(f"{_JOKER_WORDS[j]} as {_stand_words(s)}" for j, s in combo.jokers)
    return f"{head}, {jokers}" if jokers else head


# --- comparing --------------------------------------------------------------------------------


def beats(play: Combo, top: Combo, rules: Ruleset = DEFAULT_RULES) -> bool:
    """Whether `play` may be played on `top` (RULES.md R16, R18, R19).

    A special beats every other category and only a higher special beats a special. Otherwise
    the categories must match and the play must be strictly higher; sequences compare by their
    highest unit, then by length, and with `sequence_lengths = "equal"` only equal lengths meet.
    """
    pc, tc = play.category, top.category
    if pc is SPECIAL:
        return tc is not SPECIAL or play.rank > top.rank
    if pc is not tc:
        return False
    if pc in SEQUENCES:
        if rules.sequence_lengths == "equal":
            return play.length == top.length and play.rank > top.rank
        return play.rank > top.rank or (
            play.rank == top.rank and (play.length or 0) > (top.length or 0)
        )
    return play.rank > top.rank


def why_not_beats(play: Combo, top: Combo, rules: Ruleset = DEFAULT_RULES) -> str:
    """A reason citing the rule, for a play that does not beat the top."""
    if top.category is Category.special:
        return f"{describe(top)} can only be beaten by a higher special (RULES.md R18)"
    if play.category is not top.category:
        return (
            f"a {play.category.name} cannot follow a {top.category.name}: "
            "a play must be of the trick's category or a special (RULES.md R18)"
        )
    if (
        play.category in SEQUENCES
        and rules.sequence_lengths == "equal"
        and play.length != top.length
    ):
        return (
            f"with sequence_lengths=equal a sequence of {play.length} cannot follow one of "
            f"{top.length} (RULES.md R16)"
        )
    if play.key == top.key:
        return f"{describe(play)} only equals {describe(top)}; a play must be higher (RULES.md R19)"
    return f"{describe(play)} is lower than {describe(top)} (RULES.md R19)"


# --- building readings fast ---------------------------------------------------------------------

Jokers = tuple[tuple[int, Stand], ...]

_new_tuple = tuple.__new__


def _combo(
    category: Category, rank: int, length: int | None, mask: int, jokers: Jokers, suit: int | None
) -> Combo:
    """Combo(...) without the keyword handling of its generated constructor: reading a play
    and listing physical plays build many, and this costs two thirds of it."""
    return _new_tuple(Combo, (category, rank, length, mask, jokers, suit))


# Stands are immutable and compare by value, so the engine shares one per rank and per card. A
# stand always names a real rank, and a suit or none, as Stand.parse and the engine make them.
RANK_STANDS = tuple(Stand(r) for r in range(NUM_RANKS))
CARD_STANDS = tuple(Stand(c >> 2, c & 3) for c in range(4 * NUM_RANKS))
SUIT_STANDS = tuple(CARD_STANDS[s::4] for s in range(4))  # [suit][rank]


# --- reading ----------------------------------------------------------------------------------

# Reading runs for every play a record holds, so it is written for CPython's costs: an access to
# an enum member (hence the constants above), a comprehension, or a call of sorted/min/max each
# cost as much as twenty plain operations, and the code below avoids them on its common paths.

# A fixed card (kickers.Fixed) is a real card or a declared joker: (rank, suit or None).
_FIXED: tuple[Fixed, ...] = tuple((c >> 2, c & 3) for c in range(4 * NUM_RANKS))
SUIT_BITS = sum(1 << (4 * r) for r in range(NUM_RANKS))  # every rank of the spades
COUNTER_NIBBLES = sum(0xF << (4 * r) for r in COUNTER_RANKS)


def _reading_order(c: Combo) -> tuple[int, int, int]:
    return (c.rank, c.length or 0, c.category)


def readings(
    mask: int, rules: Ruleset = DEFAULT_RULES, declarations: Declarations | None = None
) -> list[Combo]:
    """Every legal reading of a card set, best first. Declared jokers are held to their meaning."""
    n = mask.bit_count()
    if n < 2:
        if n == 0 or declarations:
            return []  # a joker alone is itself, never wild (R20)
        cid = mask.bit_length() - 1
        rank = cid >> 2 if cid < SJ else cid - SJ + 13
        return [_combo(SINGLE, rank, None, mask, (), None)]
    if not mask & JOKER_MASK:
        if not declarations:
            return _real_readings(mask, n)
        special = _special(mask, n)
        if special is not None:
            return [special]
    elif not rules.jokers_wild:
        return []
    elif declarations:
        declared = _declared_readings(mask, n, declarations)
        if declared is not None:
            return declared
    return _wild_readings(mask, n, declarations or {})


def _wild_readings(mask: int, n: int, decls: Declarations) -> list[Combo]:
    """Every reading of two or more cards with jokers, or with declarations `readings` did not
    settle on a fast path: by the deficit of each candidate combination."""
    fixed: list[Fixed] = []
    m = mask & REAL_MASK
    while m:
        low = m & -m
        fixed.append(_FIXED[low.bit_length() - 1])
        m ^= low
    nreal = len(fixed)
    free: list[int] = []
    if mask >> SJ & 1:
        stand = decls.get(SJ)
        if stand is None:
            free.append(SJ)
        else:
            fixed.append((stand.rank, stand.suit))
    if mask >> BJ & 1:
        stand = decls.get(BJ)
        if stand is None:
            free.append(BJ)
        else:
            fixed.append((stand.rank, stand.suit))
    if n <= 4:
        found = _of_a_kind(mask, n, fixed, free, decls)
    elif n == 5:
        found = _full_houses(mask, fixed, nreal, free, decls)
        found += _suit_sequences(mask, n, fixed, free, decls)
    else:
        found = []
        for k in (2, 3, 4):
            if n % k == 0 and n // k >= 3:
                found += _sequences(mask, k, n // k, fixed, free, decls)
        found += _suit_sequences(mask, n, fixed, free, decls)
    if len(found) > 1:
        found.sort(key=_reading_order, reverse=True)
    return found


def _real_readings(mask: int, n: int) -> list[Combo]:
    """The reading of two or more real cards without declarations: at most one.

    Without jokers the categories exclude one another: a suit sequence holds one card of each
    rank, a full house has five cards and a triple, and a sequence of units six or more cards
    with two or more of each rank.
    """
    low_card = (mask & -mask).bit_length() - 1
    lo, hi = low_card >> 2, (mask.bit_length() - 1) >> 2
    if lo == hi:
        if n == 4 and lo == TWO:
            return [_combo(SPECIAL, 2, None, mask, (), None)]
        return [_combo(OF_A_KIND[n], lo, None, mask, (), None)]
    if n == 3 and not mask & ~COUNTER_NIBBLES:
        fives, tens, kings = mask >> 8 & 0xF, mask >> 28 & 0xF, mask >> 40 & 0xF
        if fives and tens and kings:
            return [_combo(SPECIAL, int(fives == tens == kings), None, mask, (), None)]
    span = hi - lo + 1
    if n >= 5:
        suit = low_card & 3
        if span == n and not mask & ~(SUIT_BITS << suit):
            return [_combo(SUIT_SEQUENCE, hi, n, mask, (), suit)]
        if n == 5:
            return _real_full_house(mask, lo, hi)
    if span >= 3 and n % span == 0 and 2 <= n // span <= 4:
        k = n // span
        for r in range(lo, hi + 1):
            if (mask >> (4 * r) & 0xF).bit_count() != k:
                return []
        return [_combo(SEQUENCE_OF[k], hi, span, mask, (), None)]
    return []


# Rank counts as nibbles, as the cards sit in a mask: nibble r holds how many cards of rank r a
# play has, jokers counted as what they are declared to stand for (at most 6 of a rank).
_PAIRS_LOW = 0x5555555555555  # the low bit of every 2-bit field of the 52 real cards
_NIBBLE_LOW = 0x3333333333333  # the low 2-bit field of every nibble
_FIVES = 5 * SUIT_BITS  # adding 5 sets the 8 bit of a nibble that counts 3 to 6 cards
_EIGHTS = 8 * SUIT_BITS
_ONE = tuple(1 << (4 * r) for r in range(NUM_RANKS))  # one card of rank r
_NIBBLE = tuple(0xF << (4 * r) for r in range(NUM_RANKS))  # every card of rank r
_RUNS = tuple(sum(_ONE[:span]) for span in range(NUM_RANKS + 1))  # one card of ranks 0..span-1
_OTHER_SUITS = tuple(REAL_MASK & ~(SUIT_BITS << s) for s in range(4))
_OTHER_RANKS = tuple(REAL_MASK & ~nibble for nibble in _NIBBLE)
_OF_A_KIND = (None, None, PAIR, TRIPLE, QUARTET)


def _declared_readings(mask: int, n: int, decls: Declarations) -> list[Combo] | None:
    """The reading of two or more cards with every joker declared, or None to leave the play to
    the general reading (a joker without a declaration, a declaration of a joker the play does
    not hold, or a full house whose triple rank has four or more cards).

    With no free joker the cards' rank counts decide the reading, and at most one exists: the
    categories exclude one another as for real cards (`_real_readings`). It is the common case
    of a recorded play, so it works on the counts packed in one int, in one call.
    """
    held = mask >> SJ  # the play's jokers (it holds one or both): 1 small, 2 big, 3 both
    if held == 3:
        first, second = decls.get(SJ), decls.get(BJ)
        if first is None or second is None or len(decls) != 2:
            return None
        jokers: Jokers = ((SJ, first), (BJ, second))
        r = first.rank if first.rank == second.rank else -1
    else:
        joker = SJ if held == 1 else BJ
        first, second = decls.get(joker), None
        if first is None or len(decls) != 1:
            return None
        jokers = ((joker, first),)
        r = first.rank
    real = mask & REAL_MASK
    if n <= 4:  # of a kind: the real cards and the jokers all of one rank
        if r < 0 or real & _OTHER_RANKS[r]:
            return []
        return [_new_tuple(Combo, (_OF_A_KIND[n], r, None, mask, jokers, None))]
    counts = real - (real >> 1 & _PAIRS_LOW)
    counts = (counts & _NIBBLE_LOW) + (counts >> 2 & _NIBBLE_LOW) + _ONE[first.rank]
    if second is not None:
        counts += _ONE[second.rank]
    hi = (counts.bit_length() - 1) >> 2
    if n == 5:
        triples = (counts + _FIVES) & _EIGHTS
        if triples:
            return _declared_full_house(mask, real, counts, triples, jokers)
    lo = ((counts & -counts).bit_length() - 1) >> 2
    span = hi - lo + 1
    run = _RUNS[span] << (lo << 2)
    if counts != run:
        k = n // span
        if span < 3 or k > 4 or counts != k * run:
            return []
        return [_new_tuple(Combo, (SEQUENCE_OF[k], hi, span, mask, jokers, None))]
    # A suit sequence: the real cards of one suit, and the declarations of that suit or of a
    # rank alone, which then takes the sequence's suit (RULES.md, Card notation).
    suit = ((real & -real).bit_length() - 1) & 3
    if real & _OTHER_SUITS[suit]:
        return []
    if first.suit != suit or (second is not None and second.suit != suit):
        filled = []
        for joker, stand in jokers:
            if stand.suit is None:
                stand = CARD_STANDS[4 * stand.rank + suit]
            elif stand.suit != suit:
                return []
            filled.append((joker, stand))
        jokers = tuple(filled)
    return [_new_tuple(Combo, (SUIT_SEQUENCE, hi, n, mask, jokers, suit))]


def _declared_full_house(
    mask: int, real: int, counts: int, triples: int, jokers: Jokers
) -> list[Combo] | None:
    """Five cards with every joker declared and three or more of one rank, as a full house
    (R17); None when four or more share the rank, which the general reading settles."""
    r = (triples.bit_length() - 1) >> 2
    nibble = _NIBBLE[r]
    if counts & nibble != 3 * _ONE[r]:
        return None
    rest = real & ~nibble  # the kicker's real cards
    if rest & (rest - 1):
        ra, sa = _FIXED[(rest & -rest).bit_length() - 1]
        rb, sb = _FIXED[rest.bit_length() - 1]
        kind = _KICKER[ra][rb]
        return (
            [_new_tuple(Combo, (FULL_HOUSE, r, None, mask, jokers, None))]
            if kind == 1 or (kind == 2 and sa == sb)
            else []
        )
    # The kicker holds the jokers declared as another rank: after its real card, if any.
    wild = [p for p, (_, stand) in enumerate(jokers) if stand.rank != r]
    if rest:
        ra, sa = _FIXED[rest.bit_length() - 1]
        stand = jokers[wild[0]][1]
        rb, sb = stand.rank, stand.suit
    else:
        first, second = jokers[0][1], jokers[1][1]
        ra, sa, rb, sb = first.rank, first.suit, second.rank, second.suit
    kind = _KICKER[ra][rb]
    if kind == 1:
        return [_new_tuple(Combo, (FULL_HOUSE, r, None, mask, jokers, None))]
    if kind == 0 or (sa is not None and sb is not None and sa != sb):
        return []
    # Adjacent cards of one suit: a joker declared by rank alone takes the suit (_kicker_suit).
    suit = sa if sa is not None else sb if sb is not None else 0
    if any(jokers[p][1].suit is None for p in wild):
        jokers = tuple(
            (
                joker,
                CARD_STANDS[4 * stand.rank + suit] if p in wild and stand.suit is None else stand,
            )
            for p, (joker, stand) in enumerate(jokers)
        )
    return [_new_tuple(Combo, (FULL_HOUSE, r, None, mask, jokers, None))]


def _real_full_house(mask: int, lo: int, hi: int) -> list[Combo]:
    """Five real cards as a full house (R17): a triple and a valid kicker."""
    for r in range(lo, hi + 1):
        held = (mask >> (4 * r) & 0xF).bit_count()
        if held >= 3:
            break
    else:
        return []
    rest = mask & ~(0xF << (4 * r))
    a = (rest & -rest).bit_length() - 1
    b = rest.bit_length() - 1
    # A fourth card of the triple's rank can be of any suit: the hand holds all four.
    ok = _kicker_ok(_FIXED[a], _FIXED[b]) if held == 3 else _kicker_ok((r, None), _FIXED[a])
    return [_combo(FULL_HOUSE, r, None, mask, (), None)] if ok else []


def _special(mask: int, n: int) -> Combo | None:
    if n == 4 and mask == FOUR_TWOS:
        return _combo(SPECIAL, 2, None, mask, (), None)
    if n == 3:
        ranks = sorted(cid >> 2 for cid in iter_ids(mask))
        if ranks == [2, 7, 10]:
            suits = {cid & 3 for cid in iter_ids(mask)}
            return _combo(SPECIAL, 1 if len(suits) == 1 else 0, None, mask, (), None)
    return None


def _assign(free: list[int], needs: list[Stand], decls: Declarations) -> Jokers:
    """Pair free jokers (small first) with the cards they stand for, plus the declared ones."""
    if len(free) != len(needs):
        raise ValueError("every free joker stands for one needed card")
    if not decls:
        if not free:
            return ()
        return ((free[0], needs[0]),) if len(free) == 1 else ((SJ, needs[0]), (BJ, needs[1]))
    out = decls
    if free:
        out = dict(decls)
        for j, stand in zip(free, needs, strict=True):
            out[j] = stand
    if len(out) != 2:
        return tuple(out.items()) if len(out) == 1 else tuple(sorted(out.items()))
    x, y = out.items()
    return (x, y) if x[0] < y[0] else (y, x)


def _of_a_kind(
    mask: int, n: int, fixed: list[Fixed], free: list[int], decls: Declarations
) -> list[Combo]:
    cat = OF_A_KIND[n]
    if not fixed:  # only jokers: a pair of any real rank (R20)
        return [
            _combo(cat, r, None, mask, _assign(free, [RANK_STANDS[r]] * len(free), decls), None)
            for r in range(NUM_RANKS)
        ]
    r = fixed[0][0]
    for q, _ in fixed:
        if q != r:
            return []
    # four real 2s never get here: they are the special (R18)
    return [_combo(cat, r, None, mask, _assign(free, [RANK_STANDS[r]] * len(free), decls), None)]


def _sequences(
    mask: int, k: int, length: int, fixed: list[Fixed], free: list[int], decls: Declarations
) -> list[Combo]:
    counts = [0] * NUM_RANKS
    lowest, highest = NUM_RANKS, -1
    for r, _ in fixed:
        counts[r] += 1
        if counts[r] > k:
            return []
        if r < lowest:
            lowest = r
        if r > highest:
            highest = r
    out = []
    cat = SEQUENCE_OF[k]
    # The sequence must hold every fixed card: its top is at least the highest of them, and at
    # most length - 1 above the lowest.
    first = highest if highest > length - 1 else length - 1
    last = lowest + length - 1 if lowest + length - 1 < NUM_RANKS else NUM_RANKS - 1
    for top in range(first, last + 1):
        needs: list[Stand] = []
        for r in range(top - length + 1, top + 1):
            if counts[r] < k:
                needs += [RANK_STANDS[r]] * (k - counts[r])
        out.append(_combo(cat, top, length, mask, _assign(free, needs, decls), None))
    return out


def _full_houses(
    mask: int, fixed: list[Fixed], nreal: int, free: list[int], decls: Declarations
) -> list[Combo]:
    """Full house readings; the fixed cards from position `nreal` on are declared jokers."""
    once = twice = thrice = 0  # bit r: the fixed cards hold rank r at least once, twice, thrice
    for r, _ in fixed:
        bit = 1 << r
        if twice & bit:
            thrice |= bit
        elif once & bit:
            twice |= bit
        once |= bit
    # A triple of r needs three cards of r, free jokers included.
    nfree = len(free)
    candidates = thrice if nfree == 0 else twice if nfree == 1 else once
    if not candidates:
        return []
    if nfree == 0:
        # The common case, a play with every joker declared: one triple rank, and when three
        # cards have it, one split.
        r = candidates.bit_length() - 1
        others = []
        for i in range(5):
            if fixed[i][0] != r:
                others.append(i)
        if len(others) == 2:
            i, j = others
            ka, kb = fixed[i], fixed[j]
            if not _kicker_ok(ka, kb):
                return []
            filled = decls
            if j >= nreal and (kb[1] is None or (i >= nreal and ka[1] is None)):
                filled = _fill_kicker_suit(mask, decls, nreal, i, j, ka, kb)
            return [_combo(FULL_HOUSE, r, None, mask, _assign(free, [], filled), None)]
    items: Sequence[Fixed | None] = fixed + [None] * nfree if nfree else fixed
    # triple rank -> joker needs, split quality, declarations with kicker suits filled in
    best: dict[int, tuple[list[Stand], int, Declarations]] = {}
    for i, j, r in _full_house_splits(items, candidates):
        a, b = items[i], items[j]
        # Free jokers in the triple stand for r; in the kicker they copy the other card,
        # or stand for a Three when both kicker cards are jokers.
        filled = decls
        if a is None:
            needs = [RANK_STANDS[r]] * (nfree - 2) + [RANK_STANDS[THREE], RANK_STANDS[THREE]]
        elif b is None:
            needs = [RANK_STANDS[r]] * (nfree - 1) + [RANK_STANDS[a[0]]]
        elif not _kicker_ok(a, b):
            continue
        else:
            needs = [RANK_STANDS[r]] * nfree
            # A declared joker in the kicker may need a suit (positions: i < j).
            if j >= nreal and (b[1] is None or (i >= nreal and a[1] is None)):
                filled = _fill_kicker_suit(mask, decls, nreal, i, j, a, b)
        # Prefer splits that keep jokers in the triple: the canonical declaration reads best.
        # Then prefer splits that leave the declarations as they were written.
        quality = -2 * len(needs) - (filled is not decls)
        known = best.get(r)
        if known is None or quality > known[1]:
            best[r] = (needs, quality, filled)
    out = []
    for r, (needs, _, filled) in best.items():
        out.append(_combo(FULL_HOUSE, r, None, mask, _assign(free, needs, filled), None))
    return out


def _fill_kicker_suit(
    mask: int, decls: Declarations, nreal: int, i: int, j: int, a: Fixed, b: Fixed
) -> Declarations:
    """The declarations with the suit filled in for a rank-only joker in a kicker that needs it."""
    suit = _kicker_suit(a, b)
    if suit is None:
        return decls
    declared = [joker for joker in (SJ, BJ) if mask >> joker & 1 and joker in decls]
    fill = {
        declared[p - nreal]: Stand(it[0], suit)
        for p, it in ((i, a), (j, b))
        if p >= nreal and it[1] is None
    }
    return {**decls, **fill}


def _suit_sequences(
    mask: int, n: int, fixed: list[Fixed], free: list[int], decls: Declarations
) -> list[Combo]:
    suit = -1
    held = 0  # bit r: a fixed card of rank r
    for r, s in fixed:
        if s is not None and s != suit:
            if suit >= 0:
                return []
            suit = s
        if held >> r & 1:
            return []
        held |= 1 << r
    lo, hi = (held & -held).bit_length() - 1, held.bit_length() - 1
    first = hi if hi > n - 1 else n - 1
    last = lo + n - 1 if lo + n - 1 < NUM_RANKS else NUM_RANKS - 1
    out = []
    for s in (suit,) if suit >= 0 else (0, 1, 2, 3):
        # A rank-only declaration in a suit sequence takes the sequence's suit.
        declared = decls
        for x in decls.values():
            if x.suit != s:
                declared = {j: CARD_STANDS[4 * x.rank + s] for j, x in decls.items()}
                break
        stands = SUIT_STANDS[s]
        for top in range(first, last + 1):
            needs: list[Stand] = []
            missing = ((1 << (top + 1)) - (1 << (top - n + 1))) & ~held
            while missing:
                low = missing & -missing
                needs.append(stands[low.bit_length() - 1])
                missing ^= low
            out.append(_combo(SUIT_SEQUENCE, top, n, mask, _assign(free, needs, declared), s))
    return out


# --- resolving a play where it is made ----------------------------------------------------------


def explain_no_reading(mask: int, rules: Ruleset, declarations: Declarations | None) -> str:
    """Why a card set forms no combination, citing the rule."""
    decls = declarations or {}
    n = mask.bit_count()
    if n == 1 and decls:
        return "a joker played alone is itself and cannot be declared (RULES.md R20)"
    if mask & JOKER_MASK and not rules.jokers_wild and n > 1:
        return "jokers are not wild under these rules and can only be played alone (RULES.md R23)"
    if decls:
        d = " ".join(f"{card_str(j)}={s}" for j, s in sorted(decls.items()))
        if readings(mask, rules):
            return f"the declaration {d} gives no legal combination (RULES.md R21)"
    return f"{format_play(mask, decls)} is not a legal combination (RULES.md R14)"


def resolve(
    mask: int,
    top: Combo | None,
    rules: Ruleset = DEFAULT_RULES,
    declarations: Declarations | None = None,
    found: Sequence[Combo] | None = None,
) -> Combo:
    """The reading a play takes where it is made (RULES.md R22), or raise with the reason.

    Leading, an undeclared play whose readings fall in more than one category is ambiguous.
    Following, it takes its highest reading that beats the top. `found`, when given, is
    `readings(mask, rules, declarations)` computed before (a caller's cache).
    """
    if found is None:
        found = readings(mask, rules, declarations)
    if not found:
        bad_declaration = bool(declarations) and bool(readings(mask, rules))
        raise IllegalPlayError(
            explain_no_reading(mask, rules, declarations),
            "R21" if bad_declaration else "R14",
            "ZF104" if bad_declaration else "ZF101",
        )
    if top is None:
        if len(found) == 1:  # most plays have one reading: not ambiguous
            return found[0]
        categories = {c.category for c in found}
        if len(categories) > 1:
            listed = "; ".join(f"{c.describe()} [{c.text()}]" for c in found)
            raise AmbiguousPlayError(
                f"{format_play(mask, declarations)} is ambiguous on the lead: "
                f"it reads as {listed}. Declare the jokers to choose (RULES.md R22)",
                "R22",
                "ZF102",
            )
        return found[0]
    for combo in found:
        if beats(combo, top, rules):
            return combo
    raise IllegalPlayError(why_not_beats(found[0], top, rules), "R19", "ZF103")
