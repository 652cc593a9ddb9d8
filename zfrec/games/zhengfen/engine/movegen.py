"""All legal plays from a hand, as abstract moves and, on request, as physical card sets.

An abstract move says what is played without naming the cards: category, rank, length, suit
(suit sequences only) and how many jokers it uses. Rank counts and suit bit-masks decide which
moves exist; a joker deficit test replaces trying every substitution. When following, only the
trick's category above the top, and the specials above it, are generated (RULES.md R18, R19).

Physical card sets are listed lazily (`iter_physical_plays`, `iter_expand`), so a caller that
stops early pays only for what it took; `physical_plays` and `expand` are the lists.

This module runs inside searches, so it is written for CPython's costs: moves are taken from
tables built at import, card sets are built from bit masks and per-rank tables, and enum
members are read once into module constants.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product
from typing import NamedTuple

from zfrec.games.zhengfen.engine.cards import BJ, JOKER_MASK, NUM_RANKS, REAL_MASK, SJ, Stand
from zfrec.games.zhengfen.engine.combos import (
    COUNTER_NIBBLES,
    COUNTER_RANKS,
    DEFAULT_RULES,
    FOUR_TWOS,
    FULL_HOUSE,
    OF_A_KIND,
    PAIR,
    QUARTET,
    RANK_STANDS,
    SEQUENCE_OF,
    SINGLE,
    SPECIAL,
    SUIT_SEQUENCE,
    SUIT_STANDS,
    THREE,
    TRIPLE,
    TWO,
    UNIT_OF,
    Category,
    Combo,
    Jokers,
    _combo,
)
from zfrec.games.zhengfen.engine.rules import Ruleset


class Move(NamedTuple):
    """An abstract play: what it is worth and how many jokers it uses, not which cards."""

    category: Category
    rank: int
    length: int | None
    suit: int | None
    jokers: int


def move_size(move: Move) -> int:
    """How many cards an abstract move plays.

    >>> move_size(Move(Category.pair_sequence, 5, 3, None, 0))  # 8-8 9-9 T-T
    6
    >>> move_size(Move(Category.special, 2, None, None, 0))  # four 2s
    4
    """
    c = move.category
    if c in UNIT_OF:
        return UNIT_OF[c] * (move.length or 0)
    if c is Category.suit_sequence:
        return move.length or 0
    if c is Category.special:
        return 4 if move.rank == 2 else 3  # four 2s, or a 5-T-K
    return _SIZE_OF.get(c, 1)


_SIZE_OF = {Category.full_house: 5, Category.quartet: 4, Category.triple: 3, Category.pair: 2}


# --- tables built once ------------------------------------------------------------------------

_U = range(3)  # a move uses 0, 1 or 2 jokers
_SINGLE_MOVES = (  # [rank], the jokers at 13 and 14
    *(Move(SINGLE, r, None, None, 0) for r in range(NUM_RANKS)),
    Move(SINGLE, 13, None, None, 1),
    Move(SINGLE, 14, None, None, 1),
)
# [k][rank][jokers]
_KIND_MOVES = {
    k: tuple(tuple(Move(cat, r, None, None, u) for u in range(k + 1)) for r in range(NUM_RANKS))
    for k, cat in OF_A_KIND.items()
}
# [k][top rank][length][jokers]
_SEQUENCE_MOVES = {
    k: tuple(
        tuple(tuple(Move(cat, hi, n, None, u) for u in _U) for n in range(NUM_RANKS + 1))
        for hi in range(NUM_RANKS)
    )
    for k, cat in SEQUENCE_OF.items()
}
# [suit][top rank][length][jokers]
_SUIT_SEQUENCE_MOVES = tuple(
    tuple(
        tuple(tuple(Move(SUIT_SEQUENCE, hi, n, s, u) for u in _U) for n in range(NUM_RANKS + 1))
        for hi in range(NUM_RANKS)
    )
    for s in range(4)
)
_FULL_HOUSE_MOVES = tuple(
    tuple(Move(FULL_HOUSE, r, None, None, u) for u in _U) for r in range(NUM_RANKS)
)
_SPECIAL_MOVES = tuple(Move(SPECIAL, r, None, None, 0) for r in range(3))

# [nibble][t]: the t-card subsets of the cards of one rank (a nibble), in the order of
# itertools.combinations over the cards, lowest first.
_SUBSETS = tuple(
    tuple(tuple(sum(1 << s for s in pick) for pick in combinations(_bits, t)) for t in range(5))
    for _bits in ([s for s in range(4) if nib >> s & 1] for nib in range(16))
)
# [jokers held, bit 0 small, bit 1 big][u]: (joker ids, their mask) for each way to pick u.
_JOKER_PICKS = tuple(
    tuple(tuple((pick, sum(1 << j for j in pick)) for pick in combinations(_held, u)) for u in _U)
    for _held in ([j for j in (SJ, BJ) if bits >> (j - SJ) & 1] for bits in range(4))
)
# [card]: the real cards that make a full house kicker with it (R17): one of its rank, any
# card when it is a Three, any Three, any counter when it is a counter, and the cards next to
# it in its own suit.
_PARTNERS = tuple(
    REAL_MASK
    if c >> 2 == THREE
    else (
        0xF << (4 * (c >> 2))
        | 0xF << (4 * THREE)
        | (COUNTER_NIBBLES if c >> 2 in COUNTER_RANKS else 0)
        | (1 << (c + 4) if c >> 2 < TWO else 0)
        | (1 << (c - 4))
    )
    for c in range(4 * NUM_RANKS)
)

_EVERY_FOURTH = sum(1 << (4 * r) for r in range(NUM_RANKS))


def _suit_ranks(mask: int, suit: int) -> int:
    """13-bit mask of the ranks held in one suit: every fourth bit, gathered."""
    x = mask >> suit & _EVERY_FOURTH
    x = (x | x >> 3) & 0x0303030303030303
    x = (x | x >> 6) & 0x000F000F000F000F
    x = (x | x >> 12) & 0x000000FF000000FF
    return (x | x >> 24) & 0xFFFF


_NIBBLE_COUNTS = tuple(nib.bit_count() for nib in range(16))  # cards of a rank, by its nibble
_RANK_SHIFTS = tuple(range(0, 4 * NUM_RANKS, 4))
_JOKERS_HELD = tuple(tuple(j for j in (SJ, BJ) if bits >> (j - SJ) & 1) for bits in range(4))


class _Hand:
    """Rank counts and jokers of a hand, computed once per enumeration; its suits, pairs and
    counters only if a category asks for them (following a single or a pair never does)."""

    __slots__ = ("_counters", "_pairs", "_suits", "counts", "jokers", "mask", "real")

    def __init__(self, mask: int) -> None:
        self.mask = mask
        self.counts = [_NIBBLE_COUNTS[mask >> shift & 0xF] for shift in _RANK_SHIFTS]
        self.jokers = _JOKERS_HELD[mask >> SJ & 3]
        self.real = (mask & REAL_MASK).bit_count()
        self._suits: list[int] | None = None
        self._pairs = self._counters = -1

    @property
    def suits(self) -> list[int]:
        """suits[s]: bit r set when the hand holds rank r in suit s."""
        if self._suits is None:
            mask = self.mask
            self._suits = [_suit_ranks(mask, s) for s in range(4)]
        return self._suits

    @property
    def pairs(self) -> int:
        """Bit r: two or more cards of rank r."""
        if self._pairs < 0:
            self._pairs = sum(1 << r for r, c in enumerate(self.counts) if c >= 2)
        return self._pairs

    @property
    def counters(self) -> int:
        if self._counters < 0:
            self._counters = (self.mask & COUNTER_NIBBLES).bit_count()
        return self._counters

    def rank_cards(self, r: int) -> list[int]:
        nib = self.mask >> (4 * r) & 0xF
        return [4 * r + s for s in range(4) if nib >> s & 1]


# --- abstract moves ---------------------------------------------------------------------------


def legal_plays(hand: int, top: Combo | None = None, rules: Ruleset = DEFAULT_RULES) -> list[Move]:
    """Every legal abstract move from `hand`: a lead when `top` is None, else a play beating it.

    Passing is not a play; whether a seat may pass is the game's business (RULES.md R5).
    """
    out: list[Move] = []
    for group in _move_groups(_Hand(hand), top, rules):
        out += group
    return out


def _move_groups(h: _Hand, top: Combo | None, rules: Ruleset) -> Iterator[list[Move]]:
    """The legal moves, a category at a time, in the order legal_plays lists them."""
    wild = len(h.jokers) if rules.jokers_wild else 0
    if top is None:
        yield _singles(h, -1)
        for k in (2, 3, 4):
            yield _of_a_kind(h, k, -1, wild)
        for k in (2, 3, 4):
            yield _sequences(h, k, None, wild, rules)
        yield _full_houses(h, -1, wild)
        yield _suit_sequences(h, None, wild, rules)
        yield _specials(h, -1)
    elif top.category is not SPECIAL:
        yield _follow(h, top, wild, rules)
        yield _specials(h, -1)
    else:
        yield _specials(h, top.rank)


def _follow(h: _Hand, top: Combo, wild: int, rules: Ruleset) -> list[Move]:
    c = top.category
    if c is SINGLE:
        return _singles(h, top.rank)
    if c is PAIR or c is TRIPLE or c is QUARTET:
        return _of_a_kind(h, c - PAIR + 2, top.rank, wild)
    if c is FULL_HOUSE:
        return _full_houses(h, top.rank, wild)
    if c is SUIT_SEQUENCE:
        return _suit_sequences(h, top, wild, rules)
    return _sequences(h, UNIT_OF[c], top, wild, rules)


def _singles(h: _Hand, above: int) -> list[Move]:
    counts = h.counts
    out = [_SINGLE_MOVES[r] for r in range(above + 1, NUM_RANKS) if counts[r]]
    for j in h.jokers:
        if j - SJ + 13 > above:
            out.append(_SINGLE_MOVES[j - SJ + 13])
    return out


def _of_a_kind(h: _Hand, k: int, above: int, wild: int) -> list[Move]:
    if h.real + wild < k:  # too few cards (the small hands of an endgame)
        return []
    table = _KIND_MOVES[k]
    counts = h.counts
    most = wild if wild < k else k
    out: list[Move] = []
    for r in range(above + 1, NUM_RANKS):
        least = k - counts[r]
        if least <= 0:
            least = 0
            if k == 4 and r == TWO:
                least = 1  # four real 2s are the special (R18)
        if least <= most:
            out += table[r][least : most + 1]
    return out


def _seq_ok(top: Combo | None, hi: int, length: int, rules: Ruleset) -> bool:
    if top is None:
        return True
    if rules.sequence_lengths == "equal":
        return length == top.length and hi > top.rank
    return hi > top.rank or (hi == top.rank and length > (top.length or 0))


def _sequences(h: _Hand, k: int, top: Combo | None, wild: int, rules: Ruleset) -> list[Move]:
    table = _SEQUENCE_MOVES[k]
    out: list[Move] = []
    max_len = (h.real + wild) // k
    if max_len < 3:
        return out
    short = [k - c if c < k else 0 for c in h.counts]  # cards missing from a unit of each rank
    for lo in range(NUM_RANKS - 2):
        if short[lo] + short[lo + 1] + short[lo + 2] > wild:
            continue  # not even three units from here
        deficit = 0
        for hi in range(lo, NUM_RANKS):
            deficit += short[hi]
            if deficit > wild:
                break
            length = hi - lo + 1
            if length > max_len:
                break
            if length >= 3 and (top is None or _seq_ok(top, hi, length, rules)):
                out += table[hi][length][deficit : wild + 1]
    return out


def _suit_sequences(h: _Hand, top: Combo | None, wild: int, rules: Ruleset) -> list[Move]:
    out: list[Move] = []
    max_len = h.real + wild
    if max_len < 5:
        return out
    need = 5 - wild  # cards of the suit among five ranks in a row
    for s in range(4):
        held = h.suits[s]
        if held.bit_count() < need:
            continue
        table = _SUIT_SEQUENCE_MOVES[s]
        for lo in range(NUM_RANKS - 4):
            if (held >> lo & 0x1F).bit_count() < need:
                continue  # not even five cards from here
            deficit = 0
            for hi in range(lo, NUM_RANKS):
                if not held >> hi & 1:
                    deficit += 1
                    if deficit > wild:
                        break
                length = hi - lo + 1
                if length > max_len:
                    break
                if length >= 5 and (top is None or _seq_ok(top, hi, length, rules)):
                    out += table[hi][length][deficit : wild + 1]
    return out


def _kicker_exists(h: _Hand, r: int, used: int) -> bool:
    """Whether two real cards left after a triple of r (using `used` real r's) make a kicker."""
    if h.real - used < 2:
        return False
    left = h.counts[r] - used
    if left >= 2 or h.pairs & ~(1 << r):
        return True  # a pair
    if h.counts[THREE] - (used if r == THREE else 0):
        return True  # a Three and any card
    if h.counters - (used if r in COUNTER_RANKS else 0) >= 2:
        return True  # two counters
    keep = -1 if left else ~(1 << r)  # every r of a suit may have gone into the triple
    for held in h.suits:
        held &= keep
        if held & (held >> 1):
            return True  # two cards in a row of one suit
    return False


def _full_houses(h: _Hand, above: int, wild: int) -> list[Move]:
    out: list[Move] = []
    if h.real + wild < 5:  # a triple and a kicker of two
        return out
    counts = h.counts
    most = wild if wild < 2 else 2
    for r in range(above + 1, NUM_RANKS):
        least = 3 - counts[r]
        usable = 0  # bit u: a full house of r with u jokers
        for t in range(least if least > 0 else 0, most + 1):
            left = wild - t
            if left >= 2:
                usable |= 4 << t
            if left >= 1 and h.real - (3 - t) >= 1:
                usable |= 2 << t
            if _kicker_exists(h, r, 3 - t):
                usable |= 1 << t
        if usable:
            row = _FULL_HOUSE_MOVES[r]
            for u in _U:
                if usable >> u & 1:
                    out.append(row[u])
    return out


def _specials(h: _Hand, above: int) -> list[Move]:
    out: list[Move] = []
    mask = h.mask
    fives, tens, kings = mask >> 8 & 0xF, mask >> 28 & 0xF, mask >> 40 & 0xF
    if (
        above < 0
        and fives
        and tens
        and kings
        and not (fives == tens == kings and fives.bit_count() == 1)
    ):
        out.append(_SPECIAL_MOVES[0])
    if above < 1 and fives & tens & kings:
        out.append(_SPECIAL_MOVES[1])
    if above < 2 and h.counts[TWO] == 4:
        out.append(_SPECIAL_MOVES[2])
    return out


# --- physical expansion -----------------------------------------------------------------------


def physical_plays(
    hand: int, top: Combo | None = None, rules: Ruleset = DEFAULT_RULES
) -> list[Combo]:
    """Every legal play as a distinct (card set, reading) pair."""
    # iter_physical_plays, into a list, a single's card sets made here (the solver lists the
    # plays of each small hand it meets: most are singles, and a generator each cost more)
    h = _Hand(hand)
    mask = h.mask
    out: list[Combo] = []
    for group in _move_groups(h, top, rules):
        for move in group:
            r = move[1]
            if move[0] is SINGLE and r < NUM_RANKS:
                shift = 4 * r
                for sub in _SUBSETS[mask >> shift & 0xF][1]:
                    out.append(_combo(SINGLE, r, None, sub << shift, (), None))
            else:
                out.extend(_expand(h, move))
    return out


def iter_physical_plays(
    hand: int, top: Combo | None = None, rules: Ruleset = DEFAULT_RULES
) -> Iterator[Combo]:
    """physical_plays one at a time, in the same order: a caller that stops early pays less."""
    h = _Hand(hand)
    for group in _move_groups(h, top, rules):
        for move in group:
            yield from _expand(h, move)


def expand(hand: int, move: Move) -> list[Combo]:
    """The distinct physical card sets from `hand` that make `move`, each with its reading."""
    return list(_expand(_Hand(hand), move))


def iter_expand(hand: int, move: Move) -> Iterator[Combo]:
    """expand one card set at a time, in the same order."""
    return _expand(_Hand(hand), move)


def _expand(h: _Hand, move: Move) -> Iterator[Combo]:
    cat, r, u = move.category, move.rank, move.jokers
    if cat is SINGLE:
        if r >= NUM_RANKS:
            yield _combo(SINGLE, r, None, 1 << (SJ + r - 13), (), None)
            return
        for sub in _SUBSETS[h.mask >> (4 * r) & 0xF][1]:
            yield _combo(SINGLE, r, None, sub << (4 * r), (), None)
    elif cat is PAIR or cat is TRIPLE or cat is QUARTET:
        picks = [
            (js, jm, tuple(zip(js, [RANK_STANDS[r]] * u, strict=True)))
            for js, jm in _JOKER_PICKS[h.mask >> SJ][u]
        ]
        for sub in _SUBSETS[h.mask >> (4 * r) & 0xF][cat - PAIR + 2 - u]:
            reals = sub << (4 * r)
            for _, jm, stands in picks:
                yield _combo(cat, r, None, reals | jm, stands, None)
    elif cat is SUIT_SEQUENCE:
        yield from _expand_suit_sequence(h, move)
    elif cat is FULL_HOUSE:
        yield from _expand_full_house(h, r, u)
    elif cat is SPECIAL:
        yield from _expand_special(h, r)
    else:
        yield from _expand_sequence(h, move)


def _spreads(caps: list[int], total: int, at: int = 0) -> Iterator[list[int]]:
    """Every way to take `total` away from ranks at..end, at most caps[i] from rank i, in the
    order of itertools.product over what is left (the most taken from the first rank first)."""
    if at == len(caps) - 1:
        if total <= caps[at]:
            yield [total]
        return
    first = caps[at] if caps[at] < total else total
    for d in range(first, -1, -1):
        for rest in _spreads(caps, total - d, at + 1):
            yield [d, *rest]


def _expand_sequence(h: _Hand, move: Move) -> Iterator[Combo]:
    k = UNIT_OF[move.category]
    assert move.length is not None
    lo = move.rank - move.length + 1
    mask = h.mask
    caps = []  # real cards each rank can give: at most k
    for q in range(lo, move.rank + 1):
        c = h.counts[q]
        caps.append(c if c < k else k)
    # Cards the ranks could give beyond the k * length - jokers the move takes from them.
    spare = sum(caps) - (k * move.length - move.jokers)
    if spare < 0:
        return
    picks = _JOKER_PICKS[mask >> SJ][move.jokers]
    for spread in _spreads(caps, spare):
        needs: list[Stand] = []
        fixed = 0  # ranks that give all their cards
        choices: list[tuple[int, ...]] = []  # ranks that give some of their cards
        for i, d in enumerate(spread):
            q = lo + i
            take = caps[i] - d
            if take < k:
                needs += [RANK_STANDS[q]] * (k - take)
            nib = mask >> (4 * q) & 0xF
            if take == h.counts[q]:
                fixed |= nib << (4 * q)
            else:
                choices.append(tuple(sub << (4 * q) for sub in _SUBSETS[nib][take]))
        reals = [fixed]
        for options in choices:  # the first rank varies slowest, as product() does
            reals = [m | o for m in reals for o in options]
        joker_picks = [(jm, tuple(zip(js, needs, strict=True))) for js, jm in picks]
        for real in reals:
            for jm, stands in joker_picks:
                yield _combo(move.category, move.rank, move.length, real | jm, stands, None)


def _expand_suit_sequence(h: _Hand, move: Move) -> Iterator[Combo]:
    assert move.length is not None and move.suit is not None
    s = move.suit
    lo = move.rank - move.length + 1
    held = h.suits[s]
    present = [q for q in range(lo, move.rank + 1) if held >> q & 1]
    missing = [q for q in range(lo, move.rank + 1) if not held >> q & 1]
    stands_of = SUIT_STANDS[s]
    picks = _JOKER_PICKS[h.mask >> SJ][move.jokers]
    all_reals = 0
    for q in present:
        all_reals |= 1 << (4 * q + s)
    for replaced in combinations(present, move.jokers - len(missing)):
        real_mask = all_reals
        for q in replaced:
            real_mask ^= 1 << (4 * q + s)
        needs = [stands_of[q] for q in sorted(missing + list(replaced))]
        for js, jm in picks:
            stands = tuple(zip(js, needs, strict=True))
            yield _combo(SUIT_SEQUENCE, move.rank, move.length, real_mask | jm, stands, s)


def _expand_full_house(h: _Hand, r: int, u: int) -> Iterator[Combo]:
    """Full houses of r with u jokers: a triple (t jokers) and a kicker (u - t jokers).

    The same card set can come from more than one split (a fourth r, or jokers swapping
    places); it is listed once, with the reading found first.
    """
    seen: set[int] = set()
    mask = h.mask
    nib = mask >> (4 * r) & 0xF
    stand = RANK_STANDS[r]
    three = RANK_STANDS[THREE]
    joker_picks = _JOKER_PICKS[mask >> SJ]
    held = nib.bit_count()
    for t in range(3 - held if held < 3 else 0, (u if u < 2 else 2) + 1):
        in_kicker = u - t
        for sub in _SUBSETS[nib][3 - t]:
            triple = sub << (4 * r)
            for tj, tjm in joker_picks[t]:
                used = triple | tjm
                rest = mask & ~used
                if in_kicker == 0:
                    stands: Jokers = tuple((j, stand) for j in tj)
                    m = rest & REAL_MASK
                    while m:
                        low = m & -m
                        m ^= low
                        partners = _PARTNERS[low.bit_length() - 1] & m
                        while partners:
                            other = partners & -partners
                            partners ^= other
                            cards = used | low | other
                            if cards not in seen:
                                seen.add(cards)
                                yield _combo(FULL_HOUSE, r, None, cards, stands, None)
                elif in_kicker == 1:
                    jokers = [j for j in (SJ, BJ) if rest >> j & 1]
                    m = rest & REAL_MASK
                    while m:
                        low = m & -m
                        m ^= low
                        c = low.bit_length() - 1
                        for j in jokers:
                            cards = used | low | 1 << j
                            if cards not in seen:
                                seen.add(cards)
                                js = (*tj, j)
                                needs = [stand] * t + [RANK_STANDS[c >> 2]]
                                stands = tuple(zip(js, needs, strict=True))
                                yield _combo(FULL_HOUSE, r, None, cards, stands, None)
                elif in_kicker == 2 and rest & JOKER_MASK == JOKER_MASK:
                    cards = used | JOKER_MASK
                    if cards not in seen:
                        seen.add(cards)
                        stands = ((SJ, three), (BJ, three))
                        yield _combo(FULL_HOUSE, r, None, cards, stands, None)


def _expand_special(h: _Hand, r: int) -> Iterator[Combo]:
    if r == 2:
        yield _combo(SPECIAL, 2, None, FOUR_TWOS, (), None)
        return
    for five, ten, king in product(h.rank_cards(2), h.rank_cards(7), h.rank_cards(10)):
        suited = (five & 3) == (ten & 3) == (king & 3)
        if suited == (r == 1):
            yield _combo(SPECIAL, r, None, 1 << five | 1 << ten | 1 << king, (), None)


def example(hand: int, move: Move) -> Combo:
    """One physical card set from `hand` that makes `move` (the first `expand` would give),
    without enumerating the others: what a client offers as the move's default cards."""
    return next(_expand(_Hand(hand), move))
