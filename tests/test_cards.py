"""Cards: notation, declarations, errors, points and masks (RULES.md R2, R10, R21, notation)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zfrec.errors import CardError, ZfrecError
from zfrec.games.zhengfen.engine.cards import (
    BJ,
    CARDS,
    DECK_SIZE,
    FULL_DECK,
    JOKER_MASK,
    REAL_MASK,
    SJ,
    THREE_OF_HEARTS,
    Card,
    Cards,
    PlayText,
    Stand,
    card_glyph,
    card_ids,
    card_str,
    format_cards,
    format_play,
    ids,
    iter_ids,
    parse_cards,
    parse_play,
    parse_rank,
    parse_suit,
    points_of,
    rank_counts,
    rank_of,
    suit_ranks,
    to_mask,
)

RANKS = "3456789TJQKA2"
SUITS = "shdc"
GLYPHS = "♠♥♦♣"
RANK_ERROR = "ranks are 3 4 5 6 7 8 9 T J Q K A 2 (10 for T)"
SUIT_ERROR = "suits are s h d c (or ♠ ♥ ♦ ♣)"


# --- parsing and formatting -------------------------------------------------------------------


@pytest.mark.parametrize("text", ["Th", "10h", "T♥", "10♥", "th", "TH", "tH", "10H", "t♡", " Th "])
def test_ten_of_hearts_spellings(text: str) -> None:
    card = Card.parse(text)
    assert card.id == 7 * 4 + 1
    assert str(card) == "Th"
    assert card_glyph(card.id) == "10♥"
    assert (card.rank, card.suit, card.is_joker, card.points) == (7, 1, False, 10)


@pytest.mark.parametrize(
    ("text", "card_id", "rank"),
    [("SJ", SJ, 13), ("sj", SJ, 13), ("Sj", SJ, 13), ("BJ", BJ, 14), ("bj", BJ, 14)],
)
def test_jokers_parse(text: str, card_id: int, rank: int) -> None:
    card = Card.parse(text)
    assert card.id == card_id
    assert card.rank == rank == rank_of(card_id)
    assert card.suit is None
    assert card.is_joker
    assert card.points == 0
    assert str(card) == card_glyph(card_id) == ("SJ" if card_id == SJ else "BJ")


def test_every_card_round_trips() -> None:
    assert len(CARDS) == DECK_SIZE == 54
    seen = set()
    for card in CARDS:
        text = str(card)
        seen.add(text)
        assert Card.parse(text) == card
        assert Card.parse(text.lower()) == card
        assert Card.parse(text.upper()) == card
        assert Card.parse(card_glyph(card.id)) == card
        assert Card.parse(text).id == card.id == int(card)
        assert eval(repr(card)) == card
        assert card.bit == 1 << card.id
        if not card.is_joker:
            assert text == RANKS[card.rank] + SUITS[card.suit or 0]
            assert card_glyph(card.id)[-1] == GLYPHS[card.id & 3]
            assert Card.parse(RANKS[card.rank] + GLYPHS[card.id & 3]) == card
    assert len(seen) == 54


def test_repr_is_valid_code() -> None:
    card = Card.parse("10♥")
    assert repr(card) == "Card.parse('Th')"
    assert eval(repr(card)) == card
    assert eval(repr(Card.parse("bj"))) == Card.parse("BJ")


def test_rank_and_suit_parsers() -> None:
    assert [parse_rank(r) for r in RANKS] == list(range(13))
    assert parse_rank("10") == parse_rank("t") == 7
    assert [parse_suit(s) for s in SUITS] == [0, 1, 2, 3]
    assert [parse_suit(g) for g in GLYPHS] == [0, 1, 2, 3]
    assert [parse_suit(s.upper()) for s in SUITS] == [0, 1, 2, 3]


def test_three_of_hearts_constant() -> None:
    assert THREE_OF_HEARTS == Card.parse("3h").id == Card.parse("3♥").id


def test_canonical_order_of_a_card_set() -> None:
    mask = parse_cards("BJ 2c 3h, Ts SJ 3s 10d")
    assert format_cards(mask) == "3s 3h Ts Td 2c SJ BJ"
    assert parse_cards(format_cards(mask)) == mask


@given(st.sets(st.integers(0, DECK_SIZE - 1), min_size=1, max_size=20))
@settings(max_examples=100, deadline=None)
def test_card_sets_round_trip(card_ids: set[int]) -> None:
    mask = to_mask(card_ids)
    text = format_cards(mask)
    assert parse_cards(text) == mask
    glyphs = " ".join(card_glyph(i) for i in sorted(card_ids, reverse=True))
    assert parse_cards(glyphs) == mask
    assert parse_cards(text.lower()) == mask
    assert ids(mask) == sorted(card_ids) == list(iter_ids(mask))
    assert to_mask([CARDS[i] for i in card_ids]) == mask


# --- declarations ------------------------------------------------------------------------------


def test_declaration_with_suit() -> None:
    play = parse_play("8s 8h BJ=8h")
    assert play.mask == parse_cards("8s 8h BJ")
    assert play.declarations == ((BJ, Stand(5, 1)),)
    assert play.declared() == {BJ: Stand(5, 1)}
    assert str(play) == "8s 8h BJ=8h"
    assert Stand(5, 1).card_id() == Card.parse("8h").id


def test_declaration_by_rank_only() -> None:
    play = parse_play("BJ=8 8s 8h")
    assert play.declarations == ((BJ, Stand(5, None)),)
    assert str(play) == "8s 8h BJ=8"
    assert Stand(5).card_id() is None


@pytest.mark.parametrize(
    ("text", "stand"),
    [
        ("10", Stand(7)),
        ("T", Stand(7)),
        ("t", Stand(7)),
        ("10h", Stand(7, 1)),
        ("T♥", Stand(7, 1)),
        ("10♥", Stand(7, 1)),
        ("as", Stand(11, 0)),
        ("2c", Stand(12, 3)),
        ("3", Stand(0)),
    ],
)
def test_stand_spellings(text: str, stand: Stand) -> None:
    assert Stand.parse(text) == stand
    assert parse_play(f"SJ={text} 9s").declared() == {SJ: stand}


def test_two_declarations_are_sorted_by_joker() -> None:
    play = parse_play("BJ=Qh 8h 9h Th SJ=Jh")
    assert play.declarations == ((SJ, Stand(8, 1)), (BJ, Stand(9, 1)))
    assert str(play) == "8h 9h Th SJ=Jh BJ=Qh"
    assert format_play(play.mask, play.declared()) == str(play)
    assert PlayText(play.mask) == PlayText(play.mask, ())


# --- errors ----------------------------------------------------------------------------------


CANNOT = "a card is a rank (3-9, 10 or T, J, Q, K, A, 2) and a suit (s h d c or ♠ ♥ ♦ ♣), or SJ/BJ"


# One parser reads cards for the command line, JSON and .zfn text, so these are also the
# messages of the .zfn reader (tests/test_zfn.py pins some of them with their columns).
@pytest.mark.parametrize(
    ("text", "message", "offset"),
    [
        ("8h 8h", "card 8h is given twice", 3),
        ("Th 10h", "card Th is given twice", 3),
        ("sj SJ", "card SJ is given twice", 3),
        ("8h8h", "card 8h is given twice", 2),
        ("Xh", f"cannot read a card at 'Xh': {CANNOT}", 0),
        ("7h 1h", f"cannot read a card at '1h': {CANNOT}", 3),
        ("11h", f"cannot read a card at '11h': {CANNOT}", 0),
        ("8x", f"unknown suit 'x' in '8x': {SUIT_ERROR}", 1),
        ("8", "card '8' has no suit: add s, h, d or c", 1),
        ("8h=9h", "only jokers take a declaration, not 8h", 2),
        ("BJ=SJ", "a joker cannot stand for a joker ('SJ'); see RULES.md R15", 3),
        ("SJ=bj", "a joker cannot stand for a joker ('bj'); see RULES.md R15", 3),
        ("BJ=X", "a joker declaration names a real rank, 3 through 2 (RULES.md R15)", 2),
        ("BJ=8x", f"cannot read a card at 'x': {CANNOT}", 4),
        ("", "no cards given", 0),
        (" , ", "no cards given", 0),
    ],
)
def test_card_errors(text: str, message: str, offset: int) -> None:
    with pytest.raises(CardError) as info:
        parse_play(text)
    assert isinstance(info.value, ZfrecError)
    assert (info.value.message, info.value.offset) == (message, offset)


@pytest.mark.parametrize("text", ["Zz", "Th Js", "7h7s", "BJ=8", "", "  "])
def test_card_parse_wants_exactly_one_card(text: str) -> None:
    with pytest.raises(CardError):
        Card.parse(text)


def test_declarations_not_allowed_in_a_plain_card_list() -> None:
    with pytest.raises(CardError) as info:
        parse_cards("8s BJ=8h")
    assert info.value.message == "joker declarations are not allowed here"


# --- points and masks ------------------------------------------------------------------------


def test_points_sum_to_100_over_the_deck() -> None:
    assert points_of(FULL_DECK) == 100
    assert sum(c.points for c in CARDS) == 100


def test_points_of_each_card() -> None:
    worth = {"5": 5, "T": 10, "K": 10}
    for card in CARDS:
        expected = 0 if card.is_joker else worth.get(RANKS[card.rank], 0)
        assert card.points == points_of(card.bit) == expected, str(card)
    assert points_of(parse_cards("5s 5h Tc Kd SJ BJ Ah 2s")) == 5 + 5 + 10 + 10


@given(st.sets(st.integers(0, DECK_SIZE - 1)))
@settings(max_examples=100, deadline=None)
def test_points_of_is_additive(card_ids: set[int]) -> None:
    mask = to_mask(card_ids)
    assert points_of(mask) == sum(CARDS[i].points for i in card_ids)
    assert points_of(mask) + points_of(FULL_DECK & ~mask) == 100


def test_masks() -> None:
    assert FULL_DECK == (1 << 54) - 1
    assert parse_cards("SJ BJ") == JOKER_MASK
    assert REAL_MASK | JOKER_MASK == FULL_DECK
    assert REAL_MASK & JOKER_MASK == 0
    assert REAL_MASK.bit_count() == 52
    mask = parse_cards("3s 3h 3d 9c Ts Th 2c SJ")
    assert rank_counts(mask) == [3, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 1]
    assert sum(rank_counts(FULL_DECK)) == 52
    assert suit_ranks(mask, 0) == (1 << 0) | (1 << 7)  # 3s Ts
    assert suit_ranks(mask, 1) == (1 << 0) | (1 << 7)  # 3h Th
    assert suit_ranks(mask, 2) == 1 << 0  # 3d
    assert suit_ranks(mask, 3) == (1 << 6) | (1 << 12)  # 9c 2c
    assert card_str(SJ) == "SJ"
    assert card_str(BJ) == "BJ"


# --- the value types Card and Cards -------------------------------------------------------------


@given(st.sets(st.integers(0, DECK_SIZE - 1), max_size=20))
@settings(max_examples=100, deadline=None)
def test_cards_value_speaks_the_notation(card_ids: set[int]) -> None:
    cards = Cards(to_mask(card_ids))
    assert cards == to_mask(card_ids)  # the mask itself: engine arithmetic needs no unwrapping
    assert str(cards) == format_cards(cards) == " ".join(card_str(i) for i in sorted(card_ids))
    assert [c.id for c in cards] == sorted(card_ids)
    assert all(isinstance(c, Card) for c in cards)
    assert len(cards) == len(card_ids)
    assert eval(repr(cards)) == cards
    assert Cards.of(card_ids) == cards == Cards.of(list(cards))
    if cards:
        assert Cards.parse(str(cards)) == cards
    for i in range(DECK_SIZE):
        assert (CARDS[i] in cards) == (i in card_ids) == (card_str(i) in cards)
    assert cards in Cards(FULL_DECK) and Cards() in cards


def test_cards_examples() -> None:
    pair = Cards.parse("8h 8s")
    assert (str(pair), repr(pair), len(pair)) == ("8s 8h", "Cards.parse('8s 8h')", 2)
    assert "8s" in pair and "8d" not in pair and Card.parse("8h") in pair
    assert Cards.parse("8s") in pair and Cards.parse("8s 8d") not in pair
    assert 99 not in pair and -1 not in pair and None not in pair
    assert repr(Cards()) == "Cards()" and str(Cards()) == "" and not Cards()
    both = pair | Card.parse("8d").bit
    assert type(both) is int and str(Cards(both)) == "8s 8h 8d"  # arithmetic gives masks
    assert f"{pair}" == "8s 8h"


def test_card_is_its_id() -> None:
    ten = Card.parse("Th")
    assert ten == 29 == ten.id and type(ten.id) is int
    assert Card(29) is not None and Card(29) == ten and str(Card(29)) == "Th"
    assert sorted([Card.parse("2c"), Card.parse("3s"), Card.parse("BJ")]) == [0, 51, 53]
    with pytest.raises(CardError):
        Card(54)


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        ("7h7s", "7s 7h"),
        ("7h,7s", "7s 7h"),
        ("7h, 7s", "7s 7h"),
        ("7h , 7s", "7s 7h"),
        ("10h th", None),  # the same card twice
        ("10h 9h", "9h Th"),
        ("10♥ 9♡", "9h Th"),
        ("10♥\ufe0f9♥\ufe0f", "9h Th"),
        ("8s 8h BJ=8h", "8s 8h BJ=8h"),
        ("bj=8 8s8h", "8s 8h BJ=8"),
        ("SJ=10 9s Js", "9s Js SJ=T"),
        ("sj=Th9sJs", "9s Js SJ=Th"),
    ],
)
def test_card_spellings(spelling: str, canonical: str | None) -> None:
    if canonical is None:
        with pytest.raises(CardError):
            parse_play(spelling)
    else:
        assert str(parse_play(spelling)) == canonical


def test_doctests_of_the_card_and_record_modules() -> None:
    import doctest

    import zfrec.games.zhengfen.engine.cards
    import zfrec.record.lexer
    import zfrec.record.model
    import zfrec.record.text

    for module in (
        zfrec.games.zhengfen.engine.cards,
        zfrec.record.model,
        zfrec.record.text,
        zfrec.record.lexer,
    ):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_card_ids_and_text_by_bytes_are_the_set_bits_lowest_first() -> None:
    import random

    rng = random.Random(18)
    masks = [0, 1, FULL_DECK, 1 << BJ, (1 << 70) | 5]
    masks += [rng.getrandbits(54) & rng.getrandbits(54) for _ in range(2000)]
    for mask in masks:
        bits = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
        assert card_ids(mask) == bits
        if mask <= FULL_DECK:
            assert format_cards(mask) == " ".join(card_str(i) for i in bits)
            assert format_play(mask) == format_cards(mask)
    with pytest.raises(IndexError):
        format_cards(1 << DECK_SIZE)  # no such card
