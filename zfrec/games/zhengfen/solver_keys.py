"""The solver's symmetry: which cards are interchangeable in a position
(zfrec.games.zhengfen.solver).

- `suit_relevant_ranks`: the ranks whose suits could matter for a seat; `Canon` packs the
  others to counts, so plays and positions that differ only in such suits are one.
- `RankShape`: once only singles, pairs, triples and quartets can be formed, the key keeps the
  order of the ranks held, not the ranks.
"""

from __future__ import annotations

from zfrec.games.zhengfen.engine.cards import JOKER_MASK, NUM_RANKS, SJ, SJ_RANK
from zfrec.games.zhengfen.engine.combos import Category, Combo
from zfrec.games.zhengfen.engine.movegen import legal_plays
from zfrec.games.zhengfen.engine.rules import Ruleset

COUNTER_RANK_SET = (2, 7, 10)  # 5, T, K

# PACK[nibble]: the same number of cards of a rank, as the lowest suits.
PACK = tuple((1 << n.bit_count()) - 1 for n in range(16))
CACHE_ENTRIES = 250_000  # per cache of derived keys; cleared when full, to bound the memory
_HandShape = tuple[bool, int, bool, int, tuple[tuple[int, int], ...]]

# --- which suits can matter ---------------------------------------------------------------------


def _rank_counts(mask: int) -> list[int]:
    return [(mask >> (4 * r) & 0xF).bit_count() for r in range(NUM_RANKS)]


def suit_relevant_ranks(hand: int, rules: Ruleset) -> int:
    """The ranks (bit r) whose suits could matter in a play from this hand or a part of it.

    A suit decides a play only in a suit sequence (five or more adjacent ranks of one suit), a
    full-house kicker of two adjacent ranks of one suit (neither a Three, RULES.md R17) and the
    5-T-K specials (suited or not, R18). A rank none of whose cards could be part of such a play
    from any subset of `hand` can have its cards relabelled between suits without changing any
    play the seat can make, now or later (a seat's cards only ever leave its hand).
    """
    wild = (hand & JOKER_MASK).bit_count() if rules.jokers_wild else 0
    counts = _rank_counts(hand)
    relevant = 0
    suits = [0, 0, 0, 0]
    for r in range(NUM_RANKS):
        nib = hand >> (4 * r) & 0xF
        for s in range(4):
            if nib >> s & 1:
                suits[s] |= 1 << r
    # Suit sequences: a five-rank window of one suit that jokers can complete. Any longer
    # sequence through a card contains such a window through it.
    for held in suits:
        for lo in range(NUM_RANKS - 4):
            window = held >> lo & 0x1F
            if window and 5 - window.bit_count() <= wild:
                relevant |= window << lo
    # Suited kickers: two adjacent ranks of one suit beside a triple from the rest.
    for held in suits:
        pairs = held & (held >> 1) & ~1  # bit a: ranks a and a+1 held in this suit, a not a Three
        a = 0
        while pairs:
            if pairs & 1:
                rest = counts.copy()
                rest[a] -= 1
                rest[a + 1] -= 1
                if any(c + wild >= 3 for c in rest):
                    relevant |= 0b11 << a
            pairs >>= 1
            a += 1
    # 5-T-K: mixed or suited depends on the suits.
    if all(counts[q] for q in COUNTER_RANK_SET):
        for q in COUNTER_RANK_SET:
            relevant |= 1 << q
    return relevant


def _nibble_mask(ranks: int) -> int:
    out = 0
    for r in range(NUM_RANKS):
        if ranks >> r & 1:
            out |= 0xF << (4 * r)
    return out


class Canon:
    """One seat's canonical hands: suits kept on relevant ranks, packed on the others."""

    __slots__ = ("cache", "irrelevant", "keep")

    def __init__(self, root_hand: int, rules: Ruleset) -> None:
        relevant = suit_relevant_ranks(root_hand, rules)
        self.keep = _nibble_mask(relevant) | JOKER_MASK
        self.irrelevant = [r for r in range(NUM_RANKS) if not relevant >> r & 1]
        self.cache: dict[int, int] = {}

    def __call__(self, mask: int) -> int:
        got = self.cache.get(mask)
        if got is None:
            got = mask & self.keep
            for r in self.irrelevant:
                got |= PACK[mask >> (4 * r) & 0xF] << (4 * r)
            self.cache[mask] = got
        return got


class RankShape:
    """Rank compression for positions where only the order of ranks matters.

    When no seat can form a sequence, a full house or a special any more (only singles, pairs,
    triples and quartets: call such hands *simple*), what decides the rest of the hand is how the
    ranks held compare, not which ranks they are: the key keeps, for the ranks still held (and
    the top play's rank), their order, how many cards of each every seat holds and what a card
    of each is worth. Where one seat holds both jokers, which can make a pair of any rank, the
    key also says between which held ranks there are free ranks. Hands only shrink, so a simple
    position stays simple.
    """

    __slots__ = ("hands", "keys", "rules", "shifts", "values")

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        # hand -> (simple?, ranks held as 13 bits, both jokers and wild, the jokers as they are
        # above bit 40, and (rank, count) for each rank held)
        self.hands: dict[int, _HandShape] = {}
        self.shifts: dict[int, tuple[int, ...]] = {}  # ranks kept -> where each rank's count goes
        self.values: dict[tuple[int, int, bool], tuple[int, int]] = {}
        self.keys: dict[tuple[object, ...], tuple[object, ...] | None] = {}

    def _hand(self, hand: int) -> _HandShape:
        got = self.hands.get(hand)
        if got is None:
            simple = all(
                m.category <= Category.quartet for m in legal_plays(hand, None, self.rules)
            )
            held = 0
            counts = []
            for r in range(NUM_RANKS):
                nib = hand >> (4 * r) & 0xF
                if nib:
                    held |= 1 << r
                    counts.append((r, nib.bit_count()))
            both = self.rules.jokers_wild and hand & JOKER_MASK == JOKER_MASK
            got = (simple, held, both, (hand >> SJ) << 40, tuple(counts))
            if len(self.hands) >= CACHE_ENTRIES:
                self.hands.clear()
            self.hands[hand] = got
        return got

    def _shifts(self, kept: int) -> tuple[int, ...]:
        """For each rank, where its count goes among the kept ranks' (3 bits each, in order)."""
        got = self.shifts.get(kept)
        if got is None:
            got = tuple(3 * (kept & ((1 << r) - 1)).bit_count() for r in range(NUM_RANKS))
            if len(self.shifts) >= CACHE_ENTRIES:
                self.shifts.clear()
            self.shifts[kept] = got
        return got

    def _values(self, kept: int, held: int, gaps: bool) -> tuple[int, int]:
        """What a card of each kept rank is worth (0 for a rank only the top play has), with a
        leading 1 so the number of kept ranks shows; and, when asked, where the free ranks are."""
        got = self.values.get((kept, held, gaps))
        if got is None:
            worth = 1
            free = 0
            k = 0
            last = -1
            for r in range(NUM_RANKS):
                if kept >> r & 1:
                    code = 0
                    if held >> r & 1:
                        code = 1 + (r in COUNTER_RANK_SET) + (r != 2 and r in COUNTER_RANK_SET)
                    worth = worth << 2 | code
                    if gaps and r > last + 1:
                        free |= 1 << k
                    last = r
                    k += 1
            if gaps and last < NUM_RANKS - 1:
                free |= 1 << k
            got = (worth, free)
            if len(self.values) >= CACHE_ENTRIES:
                self.values.clear()
            self.values[(kept, held, gaps)] = got
        return got

    def simple_key(self, hands: list[int], top: Combo | None) -> tuple[object, ...] | None:
        """The compressed description of the hands and the top, or None if not every hand is
        simple."""
        ck = (None if top is None else (top.category, top.rank, top.length), *hands)
        got = self.keys.get(ck, self)
        if got is self:
            if len(self.keys) >= CACHE_ENTRIES:
                self.keys.clear()
            got = self.keys[ck] = self._simple_key(hands, top)
        return got  # type: ignore[return-value]

    def _simple_key(self, hands: list[int], top: Combo | None) -> tuple[object, ...] | None:
        held = 0
        both = False
        shapes: list[_HandShape | None] = []
        for h in hands:
            if h:
                shape = self.hands.get(h) or self._hand(h)
                if not shape[0]:
                    return None
                held |= shape[1]
                both = both or shape[2]
                shapes.append(shape)
            else:
                shapes.append(None)
        kept = held
        if top is None:
            tk: object = None
        elif top.category > Category.quartet:
            tk = (top.category, top.rank, top.length)  # nobody can beat it: kept as it is
        elif top.rank >= SJ_RANK:
            tk = (top.category, top.rank)
        else:
            kept |= 1 << top.rank
            tk = (top.category, -1 - (kept & ((1 << top.rank) - 1)).bit_count())
        worth, free = self._values(kept, held, both)
        shifts = self._shifts(kept)
        packed: list[int] = []
        for found in shapes:
            bits = 0
            if found is not None:  # the counts of the kept ranks, 3 bits each, then the jokers
                bits = found[3]
                for r, count in found[4]:
                    bits |= count << shifts[r]
            packed.append(bits)
        return (tk, worth, free, *packed)


_RANK_SHAPES: dict[Ruleset, RankShape] = {}


def rank_shape(rules: Ruleset) -> RankShape:
    """The rank compression of a ruleset, one per process: what it learns of a hand or a set
    of hands holds for any position under those rules, so the next hand's searches start with
    it (its caches are capped)."""
    found = _RANK_SHAPES.get(rules)
    if found is None:
        if len(_RANK_SHAPES) >= 8:
            _RANK_SHAPES.clear()
        found = _RANK_SHAPES[rules] = RankShape(rules)
    return found
