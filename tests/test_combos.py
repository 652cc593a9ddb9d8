"""Combinations: the worked examples of the rule texts, readings, beats and resolve.

Every worked example in shared/seeds/ (and RULES.md R14-R23) has a named test. The property tests
compare the engine with the slow, independent reference in tests/brute.py.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.brute import BJ, SJ, Key, brute_beats, brute_declared_keys, brute_keys
from zfrec.errors import AmbiguousPlayError, IllegalPlayError
from zfrec.games.zhengfen.engine.cards import (
    Stand,
    format_cards,
    ids,
    parse_cards,
    parse_play,
    parse_rank,
    points_of,
    to_mask,
)
from zfrec.games.zhengfen.engine.combos import (
    Category,
    Combo,
    _combo,
    _wild_readings,
    beats,
    readings,
    resolve,
    why_not_beats,
)
from zfrec.games.zhengfen.engine.movegen import physical_plays
from zfrec.games.zhengfen.engine.rules import Ruleset, preset

DEEP = os.environ.get("ZFREC_DEEP") == "1"
EXAMPLES = 3000 if DEEP else 300

PAGAT = preset("pagat")
POPPEL = preset("poppel")
PARLETT = preset("parlett")
EQUAL = preset("pagat", sequence_lengths="equal")


def rank(symbol: str) -> int:
    return parse_rank(symbol)


def play(text: str, top: Combo | None = None, rules: Ruleset = PAGAT) -> Combo:
    """The reading a play takes where it is made (leading when top is None)."""
    parsed = parse_play(text)
    return resolve(parsed.mask, top, rules, parsed.declared())


def lead(text: str, rules: Ruleset = PAGAT) -> Combo:
    return play(text, None, rules)


def keys(text: str, rules: Ruleset = PAGAT) -> list[tuple[Category, int, int | None]]:
    parsed = parse_play(text)
    return [(c.category, c.rank, c.length) for c in readings(parsed.mask, rules, parsed.declared())]


def named(combo: Combo) -> Key:
    return (combo.category.name, combo.rank, combo.length or 0)


def illegal(text: str, top: Combo | None = None, rules: Ruleset = PAGAT) -> str:
    """The message of the IllegalPlayError (never the ambiguous subclass) a play raises."""
    with pytest.raises(IllegalPlayError) as info:
        play(text, top, rules)
    assert type(info.value) is IllegalPlayError
    return info.value.message


def neither_beats(a: Combo, b: Combo, rules: Ruleset = PAGAT) -> bool:
    return not beats(a, b, rules) and not beats(b, a, rules)


def only_first_beats(a: Combo, b: Combo, rules: Ruleset = PAGAT) -> bool:
    return beats(a, b, rules) and not beats(b, a, rules)


# --- worked examples: sequences (zheng-fen-pagat-en.txt E and I, RULES.md R15, R16) ----------


def test_pagat_5566_77_beats_4455_66() -> None:
    high = lead("5s 5h 6s 6h 7s 7h")
    low = lead("4s 4h 5d 5c 6d 6c")
    assert (high.category, high.rank, high.length) == (Category.pair_sequence, rank("7"), 3)
    assert (low.category, low.rank, low.length) == (Category.pair_sequence, rank("6"), 3)
    assert only_first_beats(high, low)
    assert only_first_beats(high, low, EQUAL)


def test_pagat_44556677_beats_556677_by_length() -> None:
    longer = lead("4s 4h 5s 5h 6s 6h 7s 7h")
    shorter = lead("5d 5c 6d 6c 7d 7c")
    assert (longer.rank, longer.length) == (rank("7"), 4)
    assert (shorter.rank, shorter.length) == (rank("7"), 3)
    assert only_first_beats(longer, shorter)


def test_pagat_suit_sequences_diamonds_hearts_clubs() -> None:
    diamonds = lead("7d 8d 9d Td Jd")
    hearts = lead("8h 9h Th Jh Qh")
    clubs = lead("7c 8c 9c Tc Jc Qc")
    assert (diamonds.category, diamonds.rank, diamonds.length) == (
        Category.suit_sequence,
        rank("J"),
        5,
    )
    assert (hearts.rank, hearts.length, hearts.suit) == (rank("Q"), 5, 1)
    assert (clubs.rank, clubs.length, clubs.suit) == (rank("Q"), 6, 3)
    assert only_first_beats(hearts, diamonds)
    assert only_first_beats(clubs, hearts)
    assert only_first_beats(clubs, diamonds)


def test_pagat_equal_suit_sequences_in_other_suits_do_not_beat() -> None:
    # zheng-fen-poppel-de.txt: 4-5-6-7-8 is equal to 4-5-6-7-8 (RULES.md R19).
    assert neither_beats(lead("4s 5s 6s 7s 8s"), lead("4h 5h 6h 7h 8h"))


def test_pagat_2233_44_is_illegal() -> None:
    assert keys("2s 2h 3s 3h 4s 4h") == []
    assert illegal("2s 2h 3s 3h 4s 4h") == (
        "3s 3h 4s 4h 2s 2h is not a legal combination (RULES.md R14)"
    )
    # A joker cannot bridge the 2 and the 3 either (R15).
    assert keys("2s 2h 3s 3h 4s BJ") == []


def test_pagat_kkaa22_is_legal() -> None:
    assert keys("Ks Kh As Ah 2s 2h") == [(Category.pair_sequence, rank("2"), 3)]


def test_suit_sequence_up_to_two_but_not_round_the_corner() -> None:
    assert keys("Js Qs Ks As 2s") == [(Category.suit_sequence, rank("2"), 5)]
    assert keys("Ks As 2s 3s 4s") == []


def test_sequence_lengths_equal() -> None:
    longer = lead("4s 4h 5s 5h 6s 6h 7s 7h", EQUAL)
    shorter = lead("5d 5c 6d 6c 7d 7c", EQUAL)
    assert neither_beats(longer, shorter, EQUAL)
    assert only_first_beats(longer, shorter, PAGAT)
    assert illegal("4s 4h 5s 5h 6s 6h 7s 7h", shorter, EQUAL) == (
        "with sequence_lengths=equal a sequence of 4 cannot follow one of 3 (RULES.md R16)"
    )
    hearts = lead("8h 9h Th Jh Qh", EQUAL)
    assert only_first_beats(hearts, lead("7d 8d 9d Td Jd", EQUAL), EQUAL)
    assert neither_beats(lead("7c 8c 9c Tc Jc Qc", EQUAL), hearts, EQUAL)
    assert why_not_beats(lead("7c 8c 9c Tc Jc Qc"), hearts, EQUAL) == (
        "with sequence_lengths=equal a sequence of 6 cannot follow one of 5 (RULES.md R16)"
    )


# --- worked examples: jokers (R20) -----------------------------------------------------------


def test_pagat_888_equals_8_joker_joker() -> None:
    real = lead("8s 8h 8d")
    wild = lead("8c SJ BJ")
    assert (real.category, real.rank) == (wild.category, wild.rank) == (Category.triple, rank("8"))
    assert wild.jokers == ((SJ, Stand(rank("8"))), (BJ, Stand(rank("8"))))
    assert neither_beats(real, wild)
    assert illegal("8c SJ BJ", real) == (
        "triple of 8s, small joker as 8, big joker as 8 only equals triple of 8s; "
        "a play must be higher (RULES.md R19)"
    )


def test_poppel_jjj_equals_j_small_joker_big_joker() -> None:
    assert neither_beats(lead("Js Jh Jd", POPPEL), lead("Jc SJ BJ", POPPEL), POPPEL)


def test_pagat_9_joker_joker_3_6_equals_999aa() -> None:
    wild = lead("9s SJ BJ 3h 6d")
    real = lead("9h 9d 9c As Ah")
    assert (wild.category, wild.rank) == (real.category, real.rank) == (Category.full_house, 6)
    assert wild.text() == "3h 6d 9s SJ=9 BJ=9"
    assert neither_beats(wild, real)


def test_rules_8h_8s_bj_is_a_triple_of_eights_whatever_the_joker() -> None:
    for text in ("8h 8s BJ", "8h 8s BJ=8h", "8h 8s BJ=8s", "8h 8s BJ=8"):
        combo = lead(text)
        assert (combo.category, combo.rank) == (Category.triple, rank("8")), text


def test_jokers_as_singles_rank_above_twos() -> None:
    two, small, big = lead("2s"), lead("SJ"), lead("BJ")
    assert (small.category, small.rank, big.rank) == (Category.single, 13, 14)
    assert only_first_beats(small, two)
    assert only_first_beats(big, small)
    assert only_first_beats(big, two)
    assert illegal("SJ", big) == "single small joker is lower than single big joker (RULES.md R19)"


def test_small_and_big_joker_are_a_pair_at_best_twos() -> None:
    found = keys("SJ BJ")
    assert sorted(found) == [(Category.pair, r, None) for r in range(13)]
    best = lead("SJ BJ")
    assert (best.category, best.rank) == (Category.pair, rank("2"))
    assert best.text() == "SJ=2 BJ=2"
    assert only_first_beats(best, lead("As Ah"))
    assert neither_beats(best, lead("2s 2h"))
    # A joker never stands for a joker (R15): no pair of jokers above the 2s.
    assert all(c.rank <= rank("2") for c in readings(parse_cards("SJ BJ")))


def test_parlett_jokers_are_only_singles() -> None:
    assert keys("BJ", PARLETT) == [(Category.single, 14, None)]
    assert keys("SJ", PARLETT) == [(Category.single, 13, None)]
    for text in ("SJ BJ", "8s 8h BJ", "8c SJ BJ", "7d 8d 9d Td SJ"):
        assert keys(text, PARLETT) == [], text
        assert illegal(text, None, PARLETT) == (
            "jokers are not wild under these rules and can only be played alone (RULES.md R23)"
        )
    assert keys("8s 8h", PARLETT) == [(Category.pair, rank("8"), None)]


# --- worked examples: full houses (R17) ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        ("5s 5h 5d Qs Qh", "5"),  # triple + pair
        ("7s 7h 7d Ac 2c", "7"),  # triple + two adjacent cards of one suit
        ("2s 2h 2d 6c 7c", "2"),  # zheng-fen-poppel-de.txt: 2-2-2=6-7
        ("5s 5h 5d 3c Tc", "5"),  # triple + a Three + any card
        ("Js Jh Jd 5c Kd", "J"),  # triple + two counters
        ("As Ah Ad 5c Td", "A"),  # zheng-fen-poppel-de.txt: A-A-A=5-10
        ("9s 9h 9d 9c 3h", "9"),  # RULES.md R17: a fourth 9 as an extra, with a Three
    ],
)
def test_full_house_kinds(text: str, triple: str) -> None:
    assert keys(text) == [(Category.full_house, rank(triple), None)]


@pytest.mark.parametrize(
    "text",
    [
        "7s 7h 7d Ac 2d",  # adjacent, but not of one suit
        "7s 7h 7d 4c 6c",  # one suit, not adjacent
        "Js Jh Jd 9c Qd",  # nothing
        "Js Jh Jd 5c Qd",  # only one counter
    ],
)
def test_full_house_invalid_kicker(text: str) -> None:
    assert keys(text) == []
    canonical = format_cards(parse_cards(text))
    assert illegal(text) == f"{canonical} is not a legal combination (RULES.md R14)"


def test_full_house_ranks_by_the_triple_only() -> None:
    assert neither_beats(lead("5s 5h 5d Qs Qh"), lead("5c 3h 9d SJ=5 BJ=5"))
    assert only_first_beats(lead("6s 6h 6d 3s 4d"), lead("5s 5h 5d As Ah"))


def test_full_house_takes_its_highest_triple_on_the_lead() -> None:
    # RULES.md R22: 7s 7h 8s 8h BJ is a full house of 8s, not of 7s.
    assert keys("7s 7h 8s 8h BJ") == [
        (Category.full_house, rank("8"), None),
        (Category.full_house, rank("7"), None),
    ]
    combo = lead("7s 7h 8s 8h BJ")
    assert combo.text() == "7s 7h 8s 8h BJ=8"


def test_full_house_rank_only_declaration_takes_the_kicker_suit() -> None:
    # Card notation: a rank-only declaration is filled in where the reading needs a suit. A-2
    # is only a kicker as two cards of one suit, so BJ=2 next to Ac stands for 2c.
    combo = lead("7s 7h 7d Ac BJ=2")
    assert (combo.category, combo.rank) == (Category.full_house, rank("7"))
    assert combo.text() == "7s 7h 7d Ac BJ=2c"
    assert lead("7s 7h 7d Ac BJ=2c").text() == "7s 7h 7d Ac BJ=2c"
    assert illegal("7s 7h 7d Ac BJ=2d") == (
        "the declaration BJ=2d gives no legal combination (RULES.md R21)"
    )
    # Where the suit does not matter, the declaration stays as written.
    assert lead("7s 7h 7d 5c BJ=T").text() == "5c 7s 7h 7d BJ=T"
    assert lead("7s 7h 7d Ac BJ=A").text() == "7s 7h 7d Ac BJ=A"


# --- worked examples: specials (R18) ---------------------------------------------------------

MIXED, SUITED, TWOS = "5s Th Kd", "5h Th Kh", "2s 2h 2d 2c"

# The top combination of every other category, each as high as it gets.
HIGHEST_OTHERS = [
    "BJ",
    "SJ BJ",
    "2s 2h BJ",
    "2s 2h 2d BJ",
    "9s 9h Ts Th Js Jh Qs Qh Ks Kh As Ah 2s 2h",
    "Qs Qh Qd Ks Kh Kd As Ah Ad 2s 2h 2d",
    "Qs Qh Qd Qc Ks Kh Kd Kc As Ah Ad Ac 2s 2h 2d 2c",
    "2s 2h 2d Ac Ad",
    "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c",
]


def test_specials_order_mixed_suited_twos() -> None:
    mixed, suited, twos = lead(MIXED), lead(SUITED), lead(TWOS)
    assert [(c.category, c.rank) for c in (mixed, suited, twos)] == [
        (Category.special, 0),
        (Category.special, 1),
        (Category.special, 2),
    ]
    assert only_first_beats(suited, mixed)
    assert only_first_beats(twos, suited)
    assert only_first_beats(twos, mixed)
    assert neither_beats(mixed, lead("5c Ts Kh"))
    assert neither_beats(suited, lead("5s Ts Ks"))
    assert illegal(MIXED, lead("5c Ts Kh")) == (
        "special: mixed 5-T-K can only be beaten by a higher special (RULES.md R18)"
    )


@pytest.mark.parametrize("text", HIGHEST_OTHERS)
def test_specials_beat_every_other_category(text: str) -> None:
    top = lead(text)
    assert top.category is not Category.special
    for special in (MIXED, SUITED, TWOS):
        assert only_first_beats(lead(special), top), special
        assert play(special, top).category is Category.special
    assert illegal("SJ", lead(MIXED)) == (
        "special: mixed 5-T-K can only be beaten by a higher special (RULES.md R18)"
    )


def test_every_category_has_a_highest_example() -> None:
    categories = {lead(text).category for text in HIGHEST_OTHERS}
    assert categories == set(Category) - {Category.special}


def test_four_real_twos_are_never_a_quartet() -> None:
    assert keys(TWOS) == [(Category.special, 2, None)]
    quartet_of_twos = lead("2s 2h 2d BJ")
    assert (quartet_of_twos.category, quartet_of_twos.rank) == (Category.quartet, rank("2"))
    assert only_first_beats(lead(TWOS), quartet_of_twos)
    # Following a quartet, the four 2s are still the special.
    assert play(TWOS, lead("Ks Kh Kd Kc")).category is Category.special


@pytest.mark.parametrize("text", ["5s Th BJ", "5h Th SJ", "5h Th BJ=Kh", "2s 2h 2d BJ=2c"])
def test_specials_with_jokers_are_not_specials(text: str) -> None:
    assert Category.special not in {category for category, _, _ in keys(text)}


def test_special_with_a_joker_for_the_king_is_no_combination() -> None:
    assert illegal("5h Th BJ=Kh") == "5h Th BJ=Kh is not a legal combination (RULES.md R14)"


def test_poppel_german_example_queens_aces_special() -> None:
    # zheng-fen-poppel-de.txt "Beispiel", as told in RULES.md R18.
    queens = lead("Qs Qh", POPPEL)
    assert illegal("3s 3h", queens, POPPEL) == "pair of 3s is lower than pair of Qs (RULES.md R19)"
    aces = play("Ad SJ=A", queens, POPPEL)
    assert (aces.category, aces.rank) == (Category.pair, rank("A"))
    assert aces.jokers == ((SJ, Stand(rank("A"))),)
    assert play("Ad SJ", queens, POPPEL).text() == "Ad SJ=A"
    assert beats(play("2s 2h", aces, POPPEL), aces, POPPEL)  # player 5 could have played
    special = play("5c Th Ks", aces, POPPEL)
    assert (special.category, special.rank) == (Category.special, 0)
    trick = queens.mask | aces.mask | special.mask
    assert points_of(trick) == 25
    assert points_of(special.mask) == 25


# --- resolve (R21, R22) ----------------------------------------------------------------------

AMBIGUOUS = "8h 9h Th SJ BJ"


def test_ambiguous_lead_lists_its_readings() -> None:
    with pytest.raises(AmbiguousPlayError) as info:
        lead(AMBIGUOUS)
    error = info.value
    assert type(error) is AmbiguousPlayError
    assert error.rule == "R22"
    assert error.message == (
        "8h 9h Th SJ BJ is ambiguous on the lead: it reads as "
        "suit sequence of 5 in ♥ up to Q, small joker as J♥, big joker as Q♥ "
        "[8h 9h Th SJ=Jh BJ=Qh]; "
        "suit sequence of 5 in ♥ up to J, small joker as 7♥, big joker as J♥ "
        "[8h 9h Th SJ=7h BJ=Jh]; "
        "suit sequence of 5 in ♥ up to T, small joker as 6♥, big joker as 7♥ "
        "[8h 9h Th SJ=6h BJ=7h]; "
        "full house of Ts, small joker as 10, big joker as 10 [8h 9h Th SJ=T BJ=T]; "
        "full house of 8s, small joker as 8, big joker as 8 [8h 9h Th SJ=8 BJ=8]. "
        "Declare the jokers to choose (RULES.md R22)"
    )
    for combo in readings(parse_cards(AMBIGUOUS)):
        assert f"{combo.describe()} [{combo.text()}]" in error.message


def test_illegal_is_not_reported_as_ambiguous() -> None:
    with pytest.raises(IllegalPlayError) as info:
        lead("3s 5h")
    assert not isinstance(info.value, AmbiguousPlayError)
    assert info.value.rule == "R14"
    assert info.value.message == "3s 5h is not a legal combination (RULES.md R14)"


def test_declared_ambiguous_lead_takes_its_declaration() -> None:
    sequence = lead("8h 9h Th SJ=Jh BJ=Qh")
    assert (sequence.category, sequence.rank, sequence.length, sequence.suit) == (
        Category.suit_sequence,
        rank("Q"),
        5,
        1,
    )
    house = lead("8h 9h Th SJ=T BJ=T")
    assert (house.category, house.rank) == (Category.full_house, rank("T"))
    # A rank-only declaration in a suit sequence is written out with the suit.
    assert lead("8h 9h Th Jh BJ=Q").text() == "8h 9h Th Jh BJ=Qh"


def test_following_takes_the_highest_reading_that_beats_the_top() -> None:
    over_house = play(AMBIGUOUS, lead("9s 9c 9d 4d 4c"))
    assert (over_house.category, over_house.rank) == (Category.full_house, rank("T"))
    assert over_house.text() == "8h 9h Th SJ=T BJ=T"
    over_sequence = play(AMBIGUOUS, lead("7c 8c 9c Tc Jc"))
    assert (over_sequence.category, over_sequence.rank) == (Category.suit_sequence, rank("Q"))
    low_house = play(AMBIGUOUS, lead("7s 7c 7d 4d 4c"))
    assert low_house.rank == rank("T")
    assert illegal(AMBIGUOUS, lead("8c 9c Tc Jc Qc")) == (
        "suit sequence of 5 in ♥ up to Q, small joker as J♥, big joker as Q♥ only equals "
        "suit sequence of 5 in ♣ up to Q; a play must be higher (RULES.md R19)"
    )


def test_pair_sequence_with_jokers_following() -> None:
    # 6-6-7-7 with two jokers reads as three pairs up to 8 or up to 7. Only the first beats
    # four pairs up to 7 (higher top pair); neither beats three pairs up to 8 (at best equal).
    assert keys("6s 6h 7s 7h SJ BJ") == [
        (Category.pair_sequence, rank("8"), 3),
        (Category.pair_sequence, rank("7"), 3),
    ]
    top = lead("4s 4h 5s 5h 6d 6c 7d 7c")
    combo = play("6s 6h 7s 7h SJ BJ", top)
    assert (combo.category, combo.rank, combo.length) == (Category.pair_sequence, rank("8"), 3)
    assert combo.text() == "6s 6h 7s 7h SJ=8 BJ=8"
    top_8 = lead("6d 6c 7d 7c 8d 8c")
    assert illegal("6s 6h 7s 7h SJ BJ", top_8) == (
        "sequence of 3 pairs up to 8, small joker as 8, big joker as 8 only equals "
        "sequence of 3 pairs up to 8; a play must be higher (RULES.md R19)"
    )


def test_declared_jokers_are_held_to_their_declaration() -> None:
    house_of_nines = lead("9s 9c 9d 4d 4c")
    assert illegal("8h 9h Th SJ=Jh BJ=Qh", house_of_nines) == (
        "a suit_sequence cannot follow a full_house: a play must be of the trick's category "
        "or a special (RULES.md R18)"
    )
    assert illegal("8h 9h Th SJ=8 BJ=8", house_of_nines) == (
        "full house of 8s, small joker as 8, big joker as 8 is lower than full house of 9s "
        "(RULES.md R19)"
    )
    eights = lead("8s 8d")
    assert play("9s BJ=9", eights).text() == "9s BJ=9"
    assert illegal("9s BJ=8", eights) == (
        "the declaration BJ=8 gives no legal combination (RULES.md R21)"
    )


def test_wrong_declarations_are_rejected() -> None:
    assert illegal("8h 9h Th SJ=Jh BJ=Qs") == (
        "the declaration SJ=Jh BJ=Qs gives no legal combination (RULES.md R21)"
    )
    assert illegal("8h 9h Th Jh BJ=Jh") == (
        "the declaration BJ=Jh gives no legal combination (RULES.md R21)"
    )
    assert (
        illegal("BJ=8h") == "a joker played alone is itself and cannot be declared (RULES.md R20)"
    )


def test_special_top_needs_a_higher_special() -> None:
    assert illegal("SJ", lead(TWOS)) == (
        "special: four 2s can only be beaten by a higher special (RULES.md R18)"
    )
    assert illegal("Qs", lead("3s 4s 5s 6s 7s")) == (
        "a single cannot follow a suit_sequence: a play must be of the trick's category "
        "or a special (RULES.md R18)"
    )


# --- properties against tests/brute.py ---------------------------------------------------------


@st.composite
def card_sets(draw: st.DrawFn, max_size: int = 7, max_jokers: int = 2, exclude: int = 0) -> int:
    """A random set of 1..max_size cards with up to max_jokers jokers and none of `exclude`.

    Most sets are drawn from a small pool so that combinations turn up: all cards of a few
    adjacent ranks (half the time ending at the 2, where sequences stop), a stretch of one
    suit, or the Fives, Tens and Kings.
    """
    jokers = sorted(draw(st.sets(st.sampled_from([SJ, BJ]), max_size=max_jokers)))
    jokers = [j for j in jokers if not exclude >> j & 1]
    top = draw(st.one_of(st.just(12), st.integers(0, 12)))
    mode = draw(st.sampled_from(["ranks", "suit", "counters", "any"]))
    if mode == "ranks":
        span = draw(st.integers(1, 4))
        pool = [c for c in range(52) if top - span < c >> 2 <= top]
    elif mode == "suit":
        suit, span = draw(st.integers(0, 3)), draw(st.integers(5, 9))
        pool = [c for c in range(52) if c & 3 == suit and top - span < c >> 2 <= top]
    elif mode == "counters":
        pool = [c for c in range(52) if c >> 2 in (2, 7, 10)]
    else:
        pool = list(range(52))
    pool = [c for c in pool if not exclude >> c & 1]
    size = max_size - draw(st.integers(0, max_size - 1))  # mostly large, sometimes small
    n = min(max(0, size - len(jokers)), len(pool))
    reals = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True)) if n else []
    if not reals and not jokers:
        reals = [draw(st.sampled_from([c for c in range(54) if not exclude >> c & 1]))]
    return to_mask(reals) | to_mask(jokers)


EDGE_SETS = [
    "Ks Kh As Ah 2s BJ",
    "Ks Kh As Ah 2s 2h",
    "As Ah 2s 2h 3s 3h",
    "Js Qs Ks As SJ",
    "Ks As 2s SJ BJ",
    "Qs Qh Qd Ks Kh Kd As Ah BJ",
    "Ks Kh Kd As Ah Ad 2s 2h SJ",
    "Qs Qh Qd Qc Ks Kh Kd Kc As Ah SJ BJ",
    "Ks Kh Kd Kc As Ah Ad Ac 2s 2h 2d SJ",
    "7s 7h 7d 7c 8c",
    "2s 2h 2d Ac Ad",
    "5s 5h Ts Th Ks Kh",
]


@pytest.mark.parametrize("text", EDGE_SETS)
def test_edge_sets_match_brute_force(text: str) -> None:
    mask = parse_cards(text)
    for rules in (PAGAT, PARLETT):
        assert {named(c) for c in readings(mask, rules)} == brute_keys(ids(mask), rules.jokers_wild)


@given(card_sets(), st.sampled_from([PAGAT, PARLETT]))
@settings(max_examples=EXAMPLES, deadline=None)
def test_readings_match_brute_force(mask: int, rules: Ruleset) -> None:
    found = readings(mask, rules)
    assert {named(c) for c in found} == brute_keys(ids(mask), rules.jokers_wild)
    assert all(c.mask == mask for c in found)
    # Best first: no reading is higher than the first.
    if found:
        best = (found[0].rank, found[0].length or 0)
        assert all((c.rank, c.length or 0) <= best for c in found)


@given(card_sets(max_size=12), st.sampled_from([PAGAT, PARLETT]))
@settings(max_examples=EXAMPLES // 3, deadline=None)
def test_readings_match_brute_force_on_bigger_sets(mask: int, rules: Ruleset) -> None:
    # Up to 12 cards: triple and quartet sequences only turn up here.
    assert {named(c) for c in readings(mask, rules)} == brute_keys(ids(mask), rules.jokers_wild)


@given(card_sets())
@settings(max_examples=EXAMPLES // 3, deadline=None)
def test_readings_survive_their_own_declarations(mask: int) -> None:
    """Writing a reading out (canonical text) and reading it back gives the same reading."""
    for combo in readings(mask):
        text = combo.text()
        parsed = parse_play(text)
        assert parsed.mask == mask
        again = readings(parsed.mask, PAGAT, parsed.declared())
        assert combo.key in {c.key for c in again}, text
        if not combo.jokers:
            continue
        assert parsed.declared() == combo.declarations()


@st.composite
def combos(draw: st.DrawFn, rules: Ruleset = PAGAT) -> Combo:
    """A random reading: one of the plays a random small hand can lead."""
    hand = draw(card_sets(max_size=8))
    return draw(st.sampled_from(physical_plays(hand, None, rules)))


@given(combos(), combos(), st.sampled_from([PAGAT, EQUAL]))
@settings(max_examples=EXAMPLES, deadline=None)
def test_beats_matches_brute_force(a: Combo, b: Combo, rules: Ruleset) -> None:
    equal = rules.sequence_lengths == "equal"
    assert beats(a, b, rules) == brute_beats(named(a), named(b), equal)
    assert beats(b, a, rules) == brute_beats(named(b), named(a), equal)


@given(combos(), combos(), st.sampled_from([PAGAT, EQUAL]))
@settings(max_examples=EXAMPLES, deadline=None)
def test_beats_is_irreflexive_and_asymmetric(a: Combo, b: Combo, rules: Ruleset) -> None:
    assert not beats(a, a, rules)
    assert not beats(b, b, rules)
    assert not (beats(a, b, rules) and beats(b, a, rules))
    if a.key == b.key:
        assert neither_beats(a, b, rules)
    if a.category is Category.special and b.category is not Category.special:
        assert only_first_beats(a, b, rules)


@given(combos(), combos())
@settings(max_examples=EXAMPLES // 3, deadline=None)
def test_resolve_follows_with_the_highest_beating_reading(a: Combo, b: Combo) -> None:
    """Following, a play takes the first (highest) of its readings that beats the top."""
    beating = [c for c in readings(b.mask) if beats(c, a)]
    if beating:
        assert resolve(b.mask, a) == beating[0]
    else:
        with pytest.raises(IllegalPlayError) as info:
            resolve(b.mask, a)
        assert type(info.value) is IllegalPlayError
        assert info.value.message == why_not_beats(readings(b.mask)[0], a)


# --- the fast paths of reading ------------------------------------------------------------------


def test_combos_built_fast_are_exactly_combos() -> None:
    """readings and movegen build Combos through combos._combo; it must make what Combo() makes,
    as immutable."""
    jokers = ((SJ, Stand(rank("8"))), (BJ, Stand(rank("9"), 1)))
    args = (Category.full_house, rank("8"), None, parse_cards("8s 8h 9c SJ BJ"), jokers, None)
    built, plain = _combo(*args), Combo(*args)
    assert type(built) is Combo
    assert built == plain and hash(built) == hash(plain)
    assert built._asdict() == plain._asdict()
    assert built.text() == plain.text() == "8s 8h 9c SJ=8 BJ=9h"
    with pytest.raises(AttributeError):
        built.rank = 3  # type: ignore[misc]
    for combo in readings(parse_cards("7s 7h 8s 8h BJ")) + physical_plays(parse_cards("7s SJ")):
        assert type(combo) is Combo
        again = Combo(
            combo.category, combo.rank, combo.length, combo.mask, combo.jokers, combo.suit
        )
        assert combo == again and combo._asdict() == again._asdict()


@given(card_sets(max_size=13, max_jokers=0))
@settings(max_examples=EXAMPLES * 3, deadline=None)
def test_readings_without_jokers_match_brute_force(mask: int) -> None:
    """Real cards alone take a path of their own; up to 13 cards, every category."""
    for rules in (PAGAT, PARLETT):
        assert {named(c) for c in readings(mask, rules)} == brute_keys(ids(mask))


@st.composite
def declared_sets(draw: st.DrawFn) -> tuple[int, dict[int, Stand]]:
    """A random set with at least one joker, and declarations for one or both of its jokers:
    often the rank (or card) of a real card of the set, sometimes any rank."""
    mask = draw(card_sets(max_size=7).filter(lambda m: m >> SJ != 0))
    reals = [c for c in ids(mask) if c < SJ] or [0]
    declared: dict[int, Stand] = {}
    for joker in (SJ, BJ):
        if mask >> joker & 1 and draw(st.booleans()):
            near = draw(st.sampled_from(reals)) >> 2
            r = draw(st.one_of(st.just(near), st.integers(max(0, near - 1), min(12, near + 1))))
            declared[joker] = Stand(r, draw(st.sampled_from([None, None, 0, 1, 2, 3])))
    if not declared:
        joker = SJ if mask >> SJ & 1 else BJ
        declared[joker] = Stand(reals[0] >> 2)
    return mask, declared


@given(declared_sets())
@settings(max_examples=EXAMPLES, deadline=None)
def test_declared_readings_match_brute_force(case: tuple[int, dict[int, Stand]]) -> None:
    """A declared joker is tried only as what it names (any suit when it names a rank)."""
    mask, declared = case
    found = readings(mask, PAGAT, declared)
    want = brute_declared_keys(ids(mask), {j: (s.rank, s.suit) for j, s in declared.items()})
    assert {named(c) for c in found} == want
    for combo in found:  # every declaration is kept, with a suit added where the reading needs
        for joker, stand in declared.items():
            kept = combo.declarations()[joker]
            assert kept.rank == stand.rank
            assert stand.suit is None or kept.suit == stand.suit


@st.composite
def fully_declared_sets(draw: st.DrawFn) -> tuple[int, dict[int, Stand]]:
    """A set of up to 12 cards with every joker declared: as one of its own readings writes it
    (a record's canonical play), or at random near its real ranks."""
    mask = draw(card_sets(max_size=12).filter(lambda m: m >> SJ != 0 and m.bit_count() > 1))
    written = [c.declarations() for c in readings(mask) if c.jokers]
    use_written: bool = draw(st.booleans())
    if written and use_written:
        chosen: dict[int, Stand] = draw(st.sampled_from(written))
        return mask, chosen
    reals = [c >> 2 for c in ids(mask) if c < SJ] or [0]
    declared: dict[int, Stand] = {}
    for joker in (SJ, BJ):
        if mask >> joker & 1:
            near = draw(st.sampled_from(reals))
            r = draw(st.integers(max(0, near - 1), min(12, near + 1)))
            declared[joker] = Stand(r, draw(st.sampled_from([None, None, 0, 1, 2, 3])))
    return mask, declared


@given(fully_declared_sets())
@settings(max_examples=EXAMPLES, deadline=None)
def test_fully_declared_fast_path_matches_the_general_reading(
    case: tuple[int, dict[int, Stand]],
) -> None:
    """Plays with every joker declared take a path of their own (rank counts); it must give
    exactly what the general reading by deficits gives, declarations with filled-in suits too.
    (Both are checked against tests/brute.py by the tests above.)"""
    mask, declared = case
    assert readings(mask, PAGAT, declared) == _wild_readings(mask, mask.bit_count(), declared)
