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
from itertools import combinations

from zfrec.engine.cards import (
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
from zfrec.engine.rules import Ruleset
from zfrec.errors import AmbiguousPlayError, IllegalPlayError

DEFAULT_RULES = Ruleset()
TWO = 12  # rank index of the 2
THREE = 0
COUNTER_RANKS = frozenset((2, 7, 10))  # 5, T, K
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


@dataclass(frozen=True, slots=True)
class Combo:
    """One reading of a played card set.

    `rank` is the rank index of the deciding card (0..12 for 3..2, 13 and 14 for the jokers as
    singles); for a special it is 0 (mixed 5-T-K), 1 (suited 5-T-K) or 2 (four 2s). `length` is
    the number of units in a pair/triple/quartet sequence, the number of cards in a suit
    sequence, and None otherwise. `jokers` says what each wild joker stands for.
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
        """The reading as plain JSON values."""
        return {
            "category": self.category.name,
            "rank": self.rank_symbol,
            "length": self.length,
            "jokers": {card_str(j): str(s) for j, s in self.jokers},
            "cards": self.text(),
        }

    def __str__(self) -> str:
        return self.text()


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
    if pc is Category.special:
        return tc is not Category.special or play.rank > top.rank
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


# --- reading ----------------------------------------------------------------------------------

# A fixed card is a real card or a declared joker: (rank, suit or None when any suit will do).
Fixed = tuple[int, int | None]


def _fixed_cards(mask: int, decls: Declarations) -> tuple[list[Fixed], list[int]]:
    """Split a play into fixed cards and the ids of its free (undeclared) jokers."""
    fixed: list[Fixed] = [(cid >> 2, cid & 3) for cid in iter_ids(mask & REAL_MASK)]
    free: list[int] = []
    for j in (SJ, BJ):
        if mask >> j & 1:
            stand = decls.get(j)
            if stand is None:
                free.append(j)
            else:
                fixed.append((stand.rank, stand.suit))
    return fixed, free


def readings(
    mask: int, rules: Ruleset = DEFAULT_RULES, declarations: Declarations | None = None
) -> list[Combo]:
    """Every legal reading of a card set, best first. Declared jokers are held to their meaning."""
    decls = declarations or {}
    n = mask.bit_count()
    jokers = mask & JOKER_MASK
    if n == 0:
        return []
    if n == 1:
        if decls:
            return []  # a joker alone is itself, never wild (R20)
        cid = mask.bit_length() - 1
        rank = cid >> 2 if cid < SJ else cid - SJ + 13
        return [Combo(Category.single, rank, None, mask)]
    if jokers and not rules.jokers_wild:
        return []
    if not jokers:
        special = _special(mask, n)
        if special is not None:
            return [special]
    fixed, free = _fixed_cards(mask, decls)
    found: list[Combo] = []
    if n <= 4:
        found += _of_a_kind(mask, n, fixed, free, decls)
    for k in (2, 3, 4):
        if n % k == 0 and n // k >= 3:
            found += _sequences(mask, k, n // k, fixed, free, decls)
    if n == 5:
        found += _full_houses(mask, fixed, free, decls)
    if n >= 5:
        found += _suit_sequences(mask, n, fixed, free, decls)
    found.sort(key=lambda c: (c.rank, c.length or 0, c.category), reverse=True)
    return found


def _special(mask: int, n: int) -> Combo | None:
    if n == 4 and mask == FOUR_TWOS:
        return Combo(Category.special, 2, None, mask)
    if n == 3:
        ranks = sorted(cid >> 2 for cid in iter_ids(mask))
        if ranks == [2, 7, 10]:
            suits = {cid & 3 for cid in iter_ids(mask)}
            return Combo(Category.special, 1 if len(suits) == 1 else 0, None, mask)
    return None


def _assign(
    free: list[int], needs: Sequence[Fixed], decls: Declarations
) -> tuple[tuple[int, Stand], ...]:
    """Pair free jokers (small first) with the cards they stand for, plus the declared ones."""
    out = {j: Stand(r, s) for j, (r, s) in zip(free, needs, strict=True)}
    out.update(decls)
    return tuple(sorted(out.items()))


def _of_a_kind(
    mask: int, n: int, fixed: list[Fixed], free: list[int], decls: Declarations
) -> list[Combo]:
    cat = OF_A_KIND[n]
    ranks = {r for r, _ in fixed}
    if len(ranks) > 1:
        return []
    if not ranks:  # only jokers: a pair of any real rank (R20)
        return [
            Combo(cat, r, None, mask, _assign(free, [(r, None)] * len(free), decls))
            for r in range(NUM_RANKS)
        ]
    (r,) = ranks  # four real 2s never get here: they are the special (R18)
    return [Combo(cat, r, None, mask, _assign(free, [(r, None)] * len(free), decls))]


def _sequences(
    mask: int, k: int, length: int, fixed: list[Fixed], free: list[int], decls: Declarations
) -> list[Combo]:
    counts = [0] * NUM_RANKS
    for r, _ in fixed:
        counts[r] += 1
    present = [r for r in range(NUM_RANKS) if counts[r]]
    if any(counts[r] > k for r in present):
        return []
    lo_min, hi_max = present[-1] - length + 1, present[0] + length - 1
    out = []
    for top in range(max(present[-1], length - 1), min(hi_max, NUM_RANKS - 1) + 1):
        low = top - length + 1
        if low > present[0] or low < lo_min:
            continue
        needs = [(r, None) for r in range(low, top + 1) for _ in range(k - counts[r])]
        out.append(Combo(SEQUENCE_OF[k], top, length, mask, _assign(free, needs, decls)))
    return out


def _kicker_ok(a: Fixed | None, b: Fixed | None) -> bool:
    """Whether two extra cards make a full house (R17). None is a free joker."""
    if a is None or b is None:
        return True  # a joker can always pair the other card
    (ra, sa), (rb, sb) = a, b
    if ra in (rb, THREE) or rb == THREE:
        return True
    if ra in COUNTER_RANKS and rb in COUNTER_RANKS:
        return True
    return abs(ra - rb) == 1 and (sa is None or sb is None or sa == sb)


def _kicker_suit(a: Fixed, b: Fixed) -> int | None:
    """The suit a kicker of two fixed cards needs, or None when it is valid whatever the suits.

    Only two adjacent cards of one suit need a suit (R17); a joker declared by rank alone in
    such a kicker takes the other card's suit, or spades when both are such jokers, so that the
    canonical declaration names the card it stands for (RULES.md, Card notation).
    """
    (ra, sa), (rb, sb) = a, b
    if ra in (rb, THREE) or rb == THREE or (ra in COUNTER_RANKS and rb in COUNTER_RANKS):
        return None
    return sa if sa is not None else sb if sb is not None else 0


def _full_house_splits(items: list[Fixed | None]) -> list[tuple[int, tuple[int, int]]]:
    """(triple rank, the two kicker positions) for every split whose triple is one rank.

    The kicker must hold every card of another rank, so only a few of the ten ways to pick two
    of five cards need trying: one way when three cards share a rank and no joker is free.
    """
    counts: dict[int, int] = {}
    for it in items:
        if it is not None:
            counts[it[0]] = counts.get(it[0], 0) + 1
    free = items.count(None)
    out = []
    for r in sorted(counts):
        if counts[r] + free < 3:
            continue
        others = [i for i, it in enumerate(items) if it is not None and it[0] != r]
        if len(others) > 2:
            continue
        rest = [i for i in range(5) if i not in others]
        for extra in combinations(rest, 2 - len(others)):
            pick = sorted((*others, *extra))
            out.append((pick[0], pick[1], r))
    out.sort()  # the order of all ten splits, so ties between splits resolve as before
    return [(r, (i, j)) for i, j, r in out]


def _full_houses(
    mask: int, fixed: list[Fixed], free: list[int], decls: Declarations
) -> list[Combo]:
    items: list[Fixed | None] = [*fixed, *([None] * len(free))]
    # Declared jokers are the last fixed items (see _fixed_cards): item index -> joker id.
    declared = [j for j in (SJ, BJ) if mask >> j & 1 and j in decls]
    joker_at = {len(fixed) - len(declared) + i: j for i, j in enumerate(declared)}
    # triple rank -> joker needs, split quality, declarations with kicker suits filled in
    best: dict[int, tuple[list[Fixed], tuple[int, int], Declarations]] = {}
    for r, pick in _full_house_splits(items):
        a, b = items[pick[0]], items[pick[1]]
        if not _kicker_ok(a, b):
            continue
        triple = [items[i] for i in range(5) if i not in pick]
        # Free jokers in the triple stand for r; in the kicker they copy the other card,
        # or stand for a Three when both kicker cards are jokers.
        needs: list[Fixed] = [(r, None)] * sum(it is None for it in triple)
        filled = decls
        if a is None and b is None:
            needs += [(THREE, None), (THREE, None)]
        elif a is None or b is None:
            other = b if a is None else a
            assert other is not None
            needs.append((other[0], None))
        else:
            suit = _kicker_suit(a, b)
            fill = {
                joker_at[i]: Stand(it[0], suit)
                for i, it in zip(pick, (a, b), strict=True)
                if suit is not None and i in joker_at and it[1] is None
            }
            if fill:
                filled = {**decls, **fill}
        # Prefer splits that keep jokers in the triple: the canonical declaration reads best.
        # Then prefer splits that leave the declarations as they were written.
        quality = (-len(needs), -(filled is not decls))
        if r not in best or quality > best[r][1]:
            best[r] = (needs, quality, filled)
    return [
        Combo(Category.full_house, r, None, mask, _assign(free, needs, filled))
        for r, (needs, _, filled) in best.items()
    ]


def _suit_sequences(
    mask: int, n: int, fixed: list[Fixed], free: list[int], decls: Declarations
) -> list[Combo]:
    suits = {s for _, s in fixed if s is not None}
    if len(suits) > 1:
        return []
    ranks = [r for r, _ in fixed]
    if len(set(ranks)) != len(ranks):
        return []
    lo, hi = min(ranks), max(ranks)
    suit_options = list(suits) or [0, 1, 2, 3]
    out = []
    for suit in suit_options:
        for top in range(max(hi, n - 1), min(lo + n - 1, NUM_RANKS - 1) + 1):
            low = top - n + 1
            needs = [(r, suit) for r in range(low, top + 1) if r not in ranks]
            # A rank-only declaration in a suit sequence takes the sequence's suit.
            declared = {j: Stand(s.rank, suit) for j, s in decls.items()}
            out.append(
                Combo(Category.suit_sequence, top, n, mask, _assign(free, needs, declared), suit)
            )
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
