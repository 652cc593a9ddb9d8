"""All legal plays from a hand, as abstract moves and, on request, as physical card sets.

An abstract move says what is played without naming the cards: category, rank, length, suit
(suit sequences only) and how many jokers it uses. Rank counts and suit bit-masks decide which
moves exist; a joker deficit test replaces trying every substitution. When following, only the
trick's category above the top, and the specials above it, are generated (RULES.md R18, R19).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, product
from typing import NamedTuple

from zfrec.engine.cards import BJ, NUM_RANKS, SJ, Stand, ids
from zfrec.engine.combos import (
    COUNTER_RANKS,
    DEFAULT_RULES,
    OF_A_KIND,
    SEQUENCE_OF,
    THREE,
    TWO,
    UNIT_OF,
    Category,
    Combo,
    _kicker_ok,
)
from zfrec.engine.rules import Ruleset


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


class _Hand:
    """Rank counts, suit masks and jokers of a hand, computed once per enumeration."""

    __slots__ = ("counts", "jokers", "mask", "real", "suits")

    def __init__(self, mask: int) -> None:
        self.mask = mask
        self.counts = [(mask >> (4 * r) & 0xF).bit_count() for r in range(NUM_RANKS)]
        self.jokers = [j for j in (SJ, BJ) if mask >> j & 1]
        self.real = sum(self.counts)
        # suits[s]: bit r set when the hand holds rank r in suit s.
        self.suits = [0, 0, 0, 0]
        for r in range(NUM_RANKS):
            nib = mask >> (4 * r) & 0xF
            for s in range(4):
                if nib >> s & 1:
                    self.suits[s] |= 1 << r

    def rank_cards(self, r: int) -> list[int]:
        nib = self.mask >> (4 * r) & 0xF
        return [4 * r + s for s in range(4) if nib >> s & 1]


def legal_plays(hand: int, top: Combo | None = None, rules: Ruleset = DEFAULT_RULES) -> list[Move]:
    """Every legal abstract move from `hand`: a lead when `top` is None, else a play beating it.

    Passing is not a play; whether a seat may pass is the game's business (RULES.md R5).
    """
    h = _Hand(hand)
    wild = len(h.jokers) if rules.jokers_wild else 0
    out: list[Move] = []
    if top is None or top.category is not Category.special:
        if top is None:
            out += _singles(h, -1)
            for k in (2, 3, 4):
                out += _of_a_kind(h, k, -1, wild)
            for k in (2, 3, 4):
                out += _sequences(h, k, None, wild, rules)
            out += _full_houses(h, -1, wild)
            out += _suit_sequences(h, None, wild, rules)
        else:
            out += _follow(h, top, wild, rules)
    out += _specials(h, top.rank if top is not None and top.category is Category.special else -1)
    return out


def _follow(h: _Hand, top: Combo, wild: int, rules: Ruleset) -> list[Move]:
    c = top.category
    if c is Category.single:
        return _singles(h, top.rank)
    if c in (Category.pair, Category.triple, Category.quartet):
        return _of_a_kind(h, c - Category.pair + 2, top.rank, wild)
    if c is Category.full_house:
        return _full_houses(h, top.rank, wild)
    if c is Category.suit_sequence:
        return _suit_sequences(h, top, wild, rules)
    return _sequences(h, UNIT_OF[c], top, wild, rules)


def _singles(h: _Hand, above: int) -> list[Move]:
    out = [
        Move(Category.single, r, None, None, 0) for r in range(above + 1, NUM_RANKS) if h.counts[r]
    ]
    out += [
        Move(Category.single, j - SJ + 13, None, None, 1) for j in h.jokers if j - SJ + 13 > above
    ]
    return out


def _of_a_kind(h: _Hand, k: int, above: int, wild: int) -> list[Move]:
    cat = OF_A_KIND[k]
    out: list[Move] = []
    for r in range(above + 1, NUM_RANKS):
        c = h.counts[r]
        for u in range(max(0, k - c), min(wild, k) + 1):
            if k == 4 and r == TWO and u == 0:
                continue  # four real 2s are the special (R18)
            out.append(Move(cat, r, None, None, u))
    return out


def _seq_ok(top: Combo | None, hi: int, length: int, rules: Ruleset) -> bool:
    if top is None:
        return True
    if rules.sequence_lengths == "equal":
        return length == top.length and hi > top.rank
    return hi > top.rank or (hi == top.rank and length > (top.length or 0))


def _sequences(h: _Hand, k: int, top: Combo | None, wild: int, rules: Ruleset) -> list[Move]:
    cat = SEQUENCE_OF[k]
    out: list[Move] = []
    counts = h.counts
    max_len = (h.real + wild) // k
    for lo in range(NUM_RANKS):
        deficit = 0
        for hi in range(lo, NUM_RANKS):
            deficit += max(0, k - counts[hi])
            if deficit > wild:
                break
            length = hi - lo + 1
            if length > max_len:
                break
            if length >= 3 and _seq_ok(top, hi, length, rules):
                out.extend(Move(cat, hi, length, None, u) for u in range(deficit, wild + 1))
    return out


def _suit_sequences(h: _Hand, top: Combo | None, wild: int, rules: Ruleset) -> list[Move]:
    out: list[Move] = []
    max_len = h.real + wild
    for s in range(4):
        held = h.suits[s]
        for lo in range(NUM_RANKS):
            deficit = 0
            for hi in range(lo, NUM_RANKS):
                deficit += not held >> hi & 1
                if deficit > wild:
                    break
                length = hi - lo + 1
                if length > max_len:
                    break
                if length >= 5 and _seq_ok(top, hi, length, rules):
                    out.extend(
                        Move(Category.suit_sequence, hi, length, s, u)
                        for u in range(deficit, wild + 1)
                    )
    return out


def _kicker_exists(h: _Hand, r: int, used: int) -> bool:
    """Whether two real cards left after a triple of r (using `used` real r's) make a kicker."""
    rem = h.counts.copy()
    rem[r] -= used
    if h.real - used < 2:
        return False
    if any(c >= 2 for c in rem) or rem[THREE]:
        return True
    if sum(rem[q] for q in COUNTER_RANKS) >= 2:
        return True
    for held in h.suits:
        if rem[r] == 0:
            held &= ~(1 << r)  # every r of this suit went into the triple
        if held & (held >> 1):
            return True
    return False


def _full_houses(h: _Hand, above: int, wild: int) -> list[Move]:
    out: list[Move] = []
    for r in range(above + 1, NUM_RANKS):
        c = h.counts[r]
        usable: set[int] = set()
        for t in range(max(0, 3 - c), min(wild, 2) + 1):
            left = wild - t
            if left >= 2:
                usable.add(t + 2)
            if left >= 1 and h.real - (3 - t) >= 1:
                usable.add(t + 1)
            if _kicker_exists(h, r, 3 - t):
                usable.add(t)
        out.extend(Move(Category.full_house, r, None, None, u) for u in sorted(usable))
    return out


def _specials(h: _Hand, above: int) -> list[Move]:
    out: list[Move] = []
    fives, tens, kings = (h.mask >> (4 * q) & 0xF for q in (2, 7, 10))
    if (
        above < 0
        and fives
        and tens
        and kings
        and not (fives == tens == kings and fives.bit_count() == 1)
    ):
        out.append(Move(Category.special, 0, None, None, 0))
    if above < 1 and fives & tens & kings:
        out.append(Move(Category.special, 1, None, None, 0))
    if above < 2 and h.counts[TWO] == 4:
        out.append(Move(Category.special, 2, None, None, 0))
    return out


# --- physical expansion -----------------------------------------------------------------------


def physical_plays(
    hand: int, top: Combo | None = None, rules: Ruleset = DEFAULT_RULES
) -> list[Combo]:
    """Every legal play as a distinct (card set, reading) pair."""
    h = _Hand(hand)
    return [combo for move in legal_plays(hand, top, rules) for combo in _expand(h, move)]


def expand(hand: int, move: Move) -> list[Combo]:
    """The distinct physical card sets from `hand` that make `move`, each with its reading."""
    return list(_expand(_Hand(hand), move))


def _stands(
    jokers: tuple[int, ...], needs: Sequence[tuple[int, int | None]]
) -> tuple[tuple[int, Stand], ...]:
    return tuple((j, Stand(r, s)) for j, (r, s) in zip(jokers, needs, strict=True))


def _mask(cards: tuple[int, ...] | list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _expand(h: _Hand, move: Move) -> Iterator[Combo]:
    cat, r, u = move.category, move.rank, move.jokers
    if cat is Category.single:
        cards = h.rank_cards(r) if r < NUM_RANKS else [SJ + r - 13]
        for c in cards:
            yield Combo(cat, r, None, 1 << c)
    elif cat in (Category.pair, Category.triple, Category.quartet):
        k = cat - Category.pair + 2
        for reals in combinations(h.rank_cards(r), k - u):
            for js in combinations(h.jokers, u):
                yield Combo(cat, r, None, _mask(reals) | _mask(js), _stands(js, [(r, None)] * u))
    elif cat in (Category.pair_sequence, Category.triple_sequence, Category.quartet_sequence):
        yield from _expand_sequence(h, move)
    elif cat is Category.suit_sequence:
        yield from _expand_suit_sequence(h, move)
    elif cat is Category.full_house:
        yield from _expand_full_house(h, r, u)
    else:
        yield from _expand_special(h, r)


def _expand_sequence(h: _Hand, move: Move) -> Iterator[Combo]:
    k = UNIT_OF[move.category]
    assert move.length is not None
    ranks = range(move.rank - move.length + 1, move.rank + 1)
    # How many real cards each rank gives: at most k, and k*length - jokers in all.
    options = [range(min(h.counts[q], k) + 1) for q in ranks]
    for takes in product(*options):
        if sum(takes) != k * move.length - move.jokers:
            continue
        needs = [(q, None) for q, t in zip(ranks, takes, strict=True) for _ in range(k - t)]
        per_rank = [combinations(h.rank_cards(q), t) for q, t in zip(ranks, takes, strict=True)]
        for reals in product(*per_rank):
            real_mask = 0
            for group in reals:
                real_mask |= _mask(group)
            for js in combinations(h.jokers, move.jokers):
                yield Combo(
                    move.category, move.rank, move.length, real_mask | _mask(js), _stands(js, needs)
                )


def _expand_suit_sequence(h: _Hand, move: Move) -> Iterator[Combo]:
    assert move.length is not None and move.suit is not None
    s = move.suit
    ranks = list(range(move.rank - move.length + 1, move.rank + 1))
    present = [q for q in ranks if h.suits[s] >> q & 1]
    missing = [q for q in ranks if not h.suits[s] >> q & 1]
    for replaced in combinations(present, move.jokers - len(missing)):
        filled = sorted(missing + list(replaced))
        real_mask = _mask([4 * q + s for q in present if q not in replaced])
        for js in combinations(h.jokers, move.jokers):
            yield Combo(
                Category.suit_sequence,
                move.rank,
                move.length,
                real_mask | _mask(js),
                _stands(js, [(q, s) for q in filled]),
                s,
            )


def _expand_full_house(h: _Hand, r: int, u: int) -> Iterator[Combo]:
    seen: set[int] = set()
    rank_cards = h.rank_cards(r)
    for t in range(max(0, 3 - len(rank_cards)), min(u, 2) + 1):
        for triple in combinations(rank_cards, 3 - t):
            for tj in combinations(h.jokers, t):
                used = _mask(triple) | _mask(tj)
                rest = ids(h.mask & ~used)
                for kick in combinations(rest, 2):
                    kj = [c for c in kick if c >= SJ]
                    if t + len(kj) != u:
                        continue
                    a, b = (None if c >= SJ else (c >> 2, c & 3) for c in kick)
                    if not _kicker_ok(a, b):
                        continue
                    mask = used | _mask(kick)
                    if mask in seen:
                        continue
                    seen.add(mask)
                    needs: list[tuple[int, int | None]] = [(r, None)] * t
                    if len(kj) == 2:
                        needs += [(THREE, None), (THREE, None)]
                    elif kj:
                        other = kick[0] if kick[1] >= SJ else kick[1]
                        needs.append((other >> 2, None))
                    yield Combo(Category.full_house, r, None, mask, _stands((*tj, *kj), needs))


def _expand_special(h: _Hand, r: int) -> Iterator[Combo]:
    if r == 2:
        yield Combo(Category.special, 2, None, 0xF << (4 * TWO))
        return
    for five, ten, king in product(h.rank_cards(2), h.rank_cards(7), h.rank_cards(10)):
        suited = (five & 3) == (ten & 3) == (king & 3)
        if suited == (r == 1):
            yield Combo(Category.special, r, None, _mask((five, ten, king)))


def example(hand: int, move: Move) -> Combo:
    """One physical card set from `hand` that makes `move` (the first `expand` would give),
    without enumerating the others: what a client offers as the move's default cards."""
    return next(_expand(_Hand(hand), move))
