"""Move generation: legal_plays (abstract moves) and physical_plays/expand (card sets).

The engine is checked against tests/brute.py, which tries every subset of a hand and every real
card for each joker. ZFREC_DEEP=1 raises the number of random hands tenfold.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.brute import BJ, SJ, Key, brute_beats, brute_keys, brute_plays
from tests.test_combos import EQUAL, EXAMPLES, PAGAT, PARLETT, POPPEL, card_sets
from zfrec.errors import AmbiguousPlayError
from zfrec.games.zhengfen.engine.cards import ids, parse_cards, parse_play, suit_ranks, to_mask
from zfrec.games.zhengfen.engine.combos import Category, Combo, readings, resolve
from zfrec.games.zhengfen.engine.game import HandState
from zfrec.games.zhengfen.engine.movegen import (
    Move,
    _Hand,
    expand,
    iter_expand,
    iter_physical_plays,
    legal_plays,
    physical_plays,
)
from zfrec.games.zhengfen.engine.rules import Ruleset

ALL_RULES = [PAGAT, POPPEL, PARLETT, EQUAL]

PlaySet = set[tuple[int, Key]]


def named(combo: Combo) -> Key:
    return (combo.category.name, combo.rank, combo.length or 0)


def engine_plays(hand: int, top: Combo | None, rules: Ruleset) -> PlaySet:
    """physical_plays as (card set, reading) pairs; each pair must turn up only once."""
    found = [(c.mask, named(c)) for c in physical_plays(hand, top, rules)]
    assert len(found) == len(set(found)), "a physical play is listed twice"
    return set(found)


@cache
def all_brute_plays(hand: int, jokers_wild: bool) -> frozenset[tuple[int, Key]]:
    return frozenset(brute_plays(ids(hand), jokers_wild))


def brute_following(hand: int, top: Combo | None, rules: Ruleset) -> PlaySet:
    """The brute force's plays from hand that may be played on top (all of them on a lead)."""
    everything = set(all_brute_plays(hand, rules.jokers_wild))
    if top is None:
        return everything
    equal = rules.sequence_lengths == "equal"
    return {(m, k) for m, k in everything if brute_beats(k, named(top), equal)}


def move_of(combo: Combo) -> Move:
    """The abstract move a physical play makes, derived from its cards alone."""
    suit = None
    if combo.category is Category.suit_sequence:
        suit = next(c & 3 for c in ids(combo.mask) if c < SJ)
    jokers = (combo.mask >> SJ).bit_count()
    return Move(combo.category, combo.rank, combo.length, suit, jokers)


def brute_moves(plays: PlaySet) -> set[Move]:
    """The abstract moves of a set of brute-force plays."""
    out = set()
    for mask, (name, rank, length) in plays:
        category = Category[name]
        suit = None
        if category is Category.suit_sequence:
            suit = next(c & 3 for c in ids(mask) if c < SJ)
        has_length = category in (
            Category.pair_sequence,
            Category.triple_sequence,
            Category.quartet_sequence,
            Category.suit_sequence,
        )
        jokers = (mask >> SJ).bit_count()
        out.add(Move(category, rank, length if has_length else None, suit, jokers))
    return out


# --- random hands ------------------------------------------------------------------------------


def hands(max_size: int = 7, exclude: int = 0) -> st.SearchStrategy[int]:
    """A random small hand with 0-2 jokers, usually shaped so that combinations turn up."""
    return card_sets(max_size=max_size, exclude=exclude)


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, Combo | None, Ruleset]:
    """A hand, a top to beat (or None to lead) from cards outside the hand, and the rules."""
    rules = draw(st.sampled_from(ALL_RULES))
    hand = draw(hands())
    if draw(st.booleans()):
        return hand, None, rules
    other = draw(hands(max_size=6, exclude=hand))
    top = draw(st.sampled_from(physical_plays(other, None, rules)))
    return hand, top, rules


@pytest.mark.slow
@given(positions())
@settings(max_examples=EXAMPLES, deadline=None)
def test_physical_plays_match_brute_force(position: tuple[int, Combo | None, Ruleset]) -> None:
    hand, top, rules = position
    assert engine_plays(hand, top, rules) == brute_following(hand, top, rules)


@given(positions())
@settings(max_examples=EXAMPLES, deadline=None)
def test_abstract_moves_are_the_moves_of_the_physical_plays(
    position: tuple[int, Combo | None, Ruleset],
) -> None:
    hand, top, rules = position
    moves = legal_plays(hand, top, rules)
    assert len(moves) == len(set(moves))
    plays = physical_plays(hand, top, rules)
    assert set(moves) == {move_of(c) for c in plays}
    for move in moves:
        expanded = expand(hand, move)
        assert expanded, f"{move} has no card set"
        assert all(move_of(c) == move for c in expanded)
        assert all(c.mask & ~hand == 0 for c in expanded)


@given(positions())
@settings(max_examples=EXAMPLES // 3, deadline=None)
def test_every_expanded_play_passes_verify_play(
    position: tuple[int, Combo | None, Ruleset],
) -> None:
    """Seat 1 holds the hand; on a follow, seat 0 has just made the top play."""
    hand, top, rules = position
    top_mask = 0 if top is None else top.mask
    spare = [c for c in range(54) if not (hand | top_mask) >> c & 1]
    seats = [top_mask | 1 << spare[0], hand, 1 << spare[1]]
    state = HandState(seats, leader=1 if top is None else 0, rules=rules)
    if top is not None:
        state.play_combo(0, top)
    assert state.turn == 1
    for combo in physical_plays(hand, top, rules):
        verified = state.verify_play(1, combo.mask, combo.declarations())
        assert verified.key == combo.key
        assert state.can_play(1, combo.mask, combo.declarations())
        # Undeclared, the play reads the same way or better; on the lead it may be ambiguous.
        try:
            undeclared = state.verify_play(1, combo.mask)
        except AmbiguousPlayError:
            assert top is None
        else:
            assert undeclared.mask == combo.mask
            assert (undeclared.rank, undeclared.length or 0) >= (combo.rank, combo.length or 0)


# Hand shapes where move generators tend to go wrong, checked every run besides the random ones.
EDGE_HANDS = [
    "5s 5h Ts Th Ks Kh",  # 5-T-K in the same two suits: mixed and suited specials
    "5s Ts Ks 5h Th",
    "7s 7h 7d 7c 8c",  # a full house whose kicker is the fourth 7 and the 8 of its suit
    "7s 7h 7d 3c 9h Jd",  # kicker: a Three and any other card
    "Js Jh Jd 5c Kd 8s",  # kicker: two counters
    "7s 7h 7d 9c BJ",  # kicker: one real card and a joker
    "7s 7h 9c SJ BJ",
    "3s 3h 3d SJ BJ",  # both jokers as the kicker, or in the triple
    "Ac 2c 7s 7h 7d SJ",  # A-2 of one suit is adjacent
    "Ks Kh As Ah 2s BJ",  # pair sequences up to the 2
    "Ks Kh As Ah 2s 2h 3s 3h",  # ... but not round the corner
    "Js Qs Ks As 2s SJ",  # suit sequences up to the 2
    "3h 4h 5h 6h 7h 8h 9h",  # suit sequences of 5, 6 and 7
    "2s 2h 2d 2c SJ BJ",  # four 2s are the special; with jokers, quartets of 2s
    "9s 9h 9d 9c Ts Th Tc SJ",
    "SJ BJ 2s",
]
EDGE_TOPS = [None, "4s 4c", "3c 4c 5c 6c 7c", "9s 9c 9d 4d 4c", "3s 3d 4s 4d 5d 5c", "5c Td Kd"]


@pytest.mark.parametrize("hand_text", EDGE_HANDS)
def test_edge_hands_match_brute_force(hand_text: str) -> None:
    hand = parse_cards(hand_text)
    for rules in (PAGAT, PARLETT, EQUAL):
        for top_text in EDGE_TOPS:
            top = top_of(top_text, rules)
            expected = brute_following(hand, top, rules)
            assert engine_plays(hand, top, rules) == expected, (rules.describe(), top_text)
            assert set(legal_plays(hand, top, rules)) == brute_moves(expected)


# --- perft: fixed hands with pinned counts -----------------------------------------------------

H18 = "3h 4h 5h 5s 6h 6d 7h 7c 8s 8d 9d Th Kh Kc Ks 2d SJ BJ"

# (hand, top or None, rules, abstract moves, physical card sets). Every count was first computed
# with tests/brute.py (brute_plays + brute_beats over all subsets; that is how the hands under
# nine cards are checked again below) and then pinned. For the 18-card hand the brute force is
# too slow: its counts were computed by reading every one of its 2**18 subsets with
# zfrec.games.zhengfen.engine.combos.readings (itself checked against brute_keys above and in
# test_combos.py) and comparing with brute_beats, which test_h18_matches_reading_every_subset
# repeats, and were cross-checked by the brute force on sub-hands
# (test_h18_sub_hands_match_brute_force).
PERFT: list[tuple[str, str | None, Ruleset, int, int]] = [
    ("5h Th Kh 5s Ts 2s 2h SJ", None, PAGAT, 20, 43),
    ("3h 4h 5h 6h 7h SJ BJ", None, PAGAT, 45, 93),
    ("3h 4h 5h 6h 7h SJ BJ", None, PARLETT, 8, 8),
    ("7s 7h 7d 8s 8h 9c SJ", "6s 6h 6d 4c 4d", PAGAT, 3, 10),
    ("9s 9h Ts Th Js Jh SJ BJ", "3s 3h 4s 4h 5s 5h", PAGAT, 7, 32),
    ("9s 9h Ts Th Js Jh SJ BJ", "3s 3h 4s 4h 5s 5h", EQUAL, 5, 30),
    ("9s 9h Ts Th Js Jh SJ BJ", "8s 8h 9d 9c Td Tc Jd Jc", EQUAL, 1, 1),
    ("2s 2h 2d 2c 3s SJ", None, POPPEL, 12, 38),
    ("2s 2h 2d 2c 3s SJ", "5c Td Kd", POPPEL, 1, 1),
    (H18, None, PAGAT, 126, 1312),
    (H18, "4s 4c", PAGAT, 26, 52),
    (H18, "9s 9h 9c Qs Qh", PAGAT, 7, 359),
    (H18, "3c 4c 5c 6c 7c", PAGAT, 15, 28),
    (H18, "3c 4c 5c 6c 7c", EQUAL, 8, 16),
    (H18, "3s 3d 4s 4d 5d 5c", PAGAT, 31, 169),
    (H18, "3s 3d 4s 4d 5d 5c", EQUAL, 13, 77),
    (H18, "5c Td Kd", PAGAT, 1, 1),
]


def perft_id(case: tuple[str, str | None, Ruleset, int, int]) -> str:
    hand, top, rules, _, _ = case
    size = len(hand.split())
    return f"{size}cards-{rules.describe()}-{'lead' if top is None else 'on ' + top}"


def top_of(text: str | None, rules: Ruleset) -> Combo | None:
    if text is None:
        return None
    parsed = parse_play(text)
    return resolve(parsed.mask, None, rules, parsed.declared())


@pytest.mark.parametrize("case", PERFT, ids=perft_id)
def test_perft(case: tuple[str, str | None, Ruleset, int, int]) -> None:
    hand_text, top_text, rules, moves, physical = case
    hand, top = parse_cards(hand_text), top_of(top_text, rules)
    assert len(legal_plays(hand, top, rules)) == moves
    assert len(physical_plays(hand, top, rules)) == physical
    assert sum(len(expand(hand, m)) for m in legal_plays(hand, top, rules)) == physical


@pytest.mark.parametrize("case", [c for c in PERFT if len(c[0].split()) <= 8], ids=perft_id)
def test_perft_small_hands_match_brute_force(
    case: tuple[str, str | None, Ruleset, int, int],
) -> None:
    hand_text, top_text, rules, moves, physical = case
    hand, top = parse_cards(hand_text), top_of(top_text, rules)
    expected = brute_following(hand, top, rules)
    assert len(expected) == physical
    assert len(brute_moves(expected)) == moves
    assert engine_plays(hand, top, rules) == expected
    assert set(legal_plays(hand, top, rules)) == brute_moves(expected)


@cache
def every_subset_reading(hand: int) -> frozenset[tuple[int, Key]]:
    """Every (card set, reading) of a hand under pagat, by reading each of its subsets."""
    cards = ids(hand)
    out: set[tuple[int, Key]] = set()
    for size in range(1, len(cards) + 1):
        for subset in combinations(cards, size):
            mask = to_mask(subset)
            out.update((mask, named(c)) for c in readings(mask, PAGAT))
    return frozenset(out)


@pytest.mark.parametrize(
    "case", [c for c in PERFT if c[0] == H18 and c[2].jokers_wild], ids=perft_id
)
def test_h18_matches_reading_every_subset(case: tuple[str, str | None, Ruleset, int, int]) -> None:
    hand_text, top_text, rules, moves, physical = case
    hand, top = parse_cards(hand_text), top_of(top_text, rules)
    equal = rules.sequence_lengths == "equal"
    expected = {
        (m, k)
        for m, k in every_subset_reading(hand)
        if top is None or brute_beats(k, named(top), equal)
    }
    assert len(expected) == physical
    assert len(brute_moves(expected)) == moves
    assert engine_plays(hand, top, rules) == expected
    assert set(legal_plays(hand, top, rules)) == brute_moves(expected)


def test_h18_has_every_kind_of_lead() -> None:
    categories = {m.category for m in legal_plays(parse_cards(H18))}
    assert categories == {
        Category.single,
        Category.pair,
        Category.triple,
        Category.quartet,
        Category.pair_sequence,
        Category.full_house,
        Category.suit_sequence,
        Category.special,
    }


@pytest.mark.parametrize("seed", range(6))
def test_h18_sub_hands_match_brute_force(seed: int) -> None:
    """Seven-card sub-hands of the 18-card hand (both jokers kept), against the brute force."""
    cards = ids(parse_cards(H18))
    reals = [c for c in cards if c < SJ]
    hand = to_mask(random.Random(seed).sample(reals, 5)) | to_mask([SJ, BJ])
    assert hand.bit_count() == 7
    for rules in (PAGAT, EQUAL):
        assert engine_plays(hand, None, rules) == brute_following(hand, None, rules)
        for top_text in ("4s 4c", "3c 4c 5c 6c 7c", "9s 9h 9c Qs Qh", "3s 3d 4s 4d 5d 5c"):
            top = top_of(top_text, rules)
            assert engine_plays(hand, top, rules) == brute_following(hand, top, rules)


# --- details -------------------------------------------------------------------------------


def test_brute_keys_sanity() -> None:
    """The reference itself: a few readings it must find (so a broken brute force shows up)."""
    assert brute_keys(ids(parse_cards("8s 8h 8d"))) == {("triple", 5, 0)}
    assert ("pair", 12, 0) in brute_keys([SJ, BJ])
    assert brute_keys([SJ, BJ], jokers_wild=False) == set()
    assert brute_keys(ids(parse_cards("2s 2h 2d 2c"))) == {("special", 2, 0)}


def test_passing_is_not_a_move_and_a_special_only_meets_specials() -> None:
    hand = parse_cards("3h 4h 5h Th Kh 2s SJ")
    special = top_of("5c Td Ks", PAGAT)
    assert legal_plays(hand, special) == [Move(Category.special, 1, None, None, 0)]
    assert legal_plays(parse_cards("3h"), top_of("4s", PAGAT)) == []


def test_single_jokers_are_moves_with_one_joker() -> None:
    moves = legal_plays(parse_cards("SJ BJ"), top_of("2s", PAGAT))
    assert moves == [
        Move(Category.single, 13, None, None, 1),
        Move(Category.single, 14, None, None, 1),
    ]
    assert [c.text() for c in physical_plays(parse_cards("SJ BJ"), top_of("2s", PAGAT))] == [
        "SJ",
        "BJ",
    ]
    parlett = legal_plays(parse_cards("SJ BJ"), None, PARLETT)
    assert {m.category for m in parlett} == {Category.single}


# --- lazy enumeration ----------------------------------------------------------------------


@given(positions(), st.integers(0, 5))
@settings(max_examples=EXAMPLES, deadline=None)
def test_lazy_plays_are_the_listed_plays_in_order(
    position: tuple[int, Combo | None, Ruleset], taken: int
) -> None:
    hand, top, rules = position
    listed = physical_plays(hand, top, rules)
    lazy = iter_physical_plays(hand, top, rules)
    first = list(islice(lazy, taken))  # a caller that stops early gets the list's first plays
    assert first == listed[:taken]
    assert first + list(lazy) == listed
    for move in legal_plays(hand, top, rules):
        assert list(iter_expand(hand, move)) == expand(hand, move)


@pytest.mark.parametrize("hand_text", EDGE_HANDS)
def test_lazy_plays_match_brute_force(hand_text: str) -> None:
    hand = parse_cards(hand_text)
    for rules in (PAGAT, EQUAL):
        for top_text in EDGE_TOPS:
            top = top_of(top_text, rules)
            found = [(c.mask, named(c)) for c in iter_physical_plays(hand, top, rules)]
            assert len(found) == len(set(found))
            assert set(found) == brute_following(hand, top, rules)


@given(card_sets(max_size=18))
@settings(max_examples=EXAMPLES, deadline=None)
def test_suit_masks_gathered_from_the_hand(hand: int) -> None:
    assert _Hand(hand).suits == [suit_ranks(hand, s) for s in range(4)]
