"""The Sheng ji engine against the seed's examples and the rulings (RULINGS-SHENGJI 1-14).

Every table of shared/seeds/sheng-ji-wikipedia.txt is here: the order for a 7♣ round, the pair
rules, the tractor table, the following and ruffing table of a pair lead, the throw table, the
kitty multiplier and the score table at each boundary. The dominant card is 7♣ unless stated.
"""

from __future__ import annotations

import pytest

from zfrec.errors import IllegalPlayError
from zfrec.games.shengji.cards import card_id, format_hand, parse_hand
from zfrec.games.shengji.follow import count_follows, judge_follow, legal_follows
from zfrec.games.shengji.formats import classify, unit_text
from zfrec.games.shengji.order import TRUMP, parse_trump
from zfrec.games.shengji.scoring import kitty_multiplier, level_change, raise_level
from zfrec.games.shengji.throws import check_throw, throw_penalty
from zfrec.games.shengji.trick import trick_points, trick_winner

C7 = parse_trump("7c")


def cards(text: str) -> int:
    return parse_hand(text)


def winner(*plays: str, trump: str = "7c") -> int:
    """The 1-based winning play of a trick."""
    return trick_winner(parse_trump(trump), [cards(p) for p in plays]) + 1


# --- the order (ruling 3; the seed's 7♣ example) ------------------------------------------------


def test_seven_of_clubs_order_from_the_top() -> None:
    top_down = ["BJ", "SJ", "7c", "7d", "Ac", "Kc", "8c", "6c", "2c"]
    levels = [C7.level[card_id(c)] for c in top_down]
    assert all(C7.esuit[card_id(c)] == TRUMP for c in top_down)
    assert levels == sorted(levels, reverse=True) and len(set(levels)) == len(levels)
    # the other sevens are equal to each other and left their suits
    assert {C7.level[card_id(c)] for c in ("7s", "7h", "7d")} == {C7.level[card_id("7d")]}
    # plain suits close the gap: 8 and 6 are adjacent, A is top, 2 is bottom
    assert C7.level[card_id("8d")] - C7.level[card_id("6d")] == 1
    assert C7.level[card_id("Ad")] > C7.level[card_id("Kd")] > C7.level[card_id("2d")]


def test_no_trump_order() -> None:
    o = parse_trump("7")
    assert o.trump is None
    assert {o.esuit[card_id(c)] for c in ("7s", "7h", "7d", "7c", "SJ", "BJ")} == {TRUMP}
    assert len({o.level[card_id(c)] for c in ("7s", "7h", "7d", "7c")}) == 1
    assert o.esuit[card_id("Ac")] == 3  # clubs are a plain suit in no-trump
    assert o.level[card_id("BJ")] == o.level[card_id("SJ")] + 1 == o.level[card_id("7c")] + 2


def test_bad_trump_is_a_card_error() -> None:
    with pytest.raises(Exception, match="cannot read the trump"):
        parse_trump("7x")
    with pytest.raises(Exception, match="cannot read the trump"):
        parse_trump("")


# --- pairs and tractors (ruling 5; the seed's tractor table) -----------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("5h 5h 4h 4h", "tractor"),
        ("Js Js Ts Ts 9s 9s 8s 8s", "tractor"),
        ("5c 5c 4c 4c 3c 3c", "tractor"),
        ("8d 8d 6d 6d", "tractor"),  # 7 is dominant: 8 and 6 are consecutive
        ("7c 7c 7d 7d Ac Ac", "tractor"),
        ("BJ BJ SJ SJ 7c 7c", "tractor"),
        ("Th Th 8h 8h", "throw"),  # 10 and 8 are not consecutive
        ("7c 7c 6c 6c", "throw"),  # the 7s are high trumps, not next to the 6s
        ("7s 7s 7d 7d", "throw"),  # the non-dominant 7s are equal
    ],
)
def test_tractor_table(text: str, kind: str) -> None:
    assert classify(C7, cards(text)).kind == kind


@pytest.mark.parametrize("text", ["9s 9s 8d 8d", "7h 7h 6h 6h", "2c 2c As As"])
def test_tractor_table_rows_that_are_no_lead(text: str) -> None:
    with pytest.raises(IllegalPlayError, match="not a lead"):
        classify(C7, cards(text))


@pytest.mark.parametrize("text", ["7s 7h", "SJ BJ"])
def test_two_cards_that_are_not_a_pair(text: str) -> None:
    lead = classify(C7, cards(text))
    assert lead.kind == "throw" and lead.pairs == 0


def test_two_equal_plain_cards_of_two_suits_are_no_pair_and_no_lead() -> None:
    with pytest.raises(IllegalPlayError, match="mixes spades"):
        classify(C7, cards("Qs Qd"))


def test_throw_is_read_as_its_largest_units() -> None:
    lead = classify(C7, cards("Kd Qd Qd Td Td"))
    assert [unit_text(u) for u in lead.units] == ["Qd Qd", "Td Td", "Kd"]
    lead = classify(C7, cards("Ks Qs Qs Js Js"))
    assert [unit_text(u) for u in lead.units] == ["Qs Qs Js Js", "Ks"]
    assert classify(C7, cards("Ad Kd Kd")).kind == "throw"


def test_rank_pairs_in_no_trump_are_steps_to_the_jokers() -> None:
    o = parse_trump("7")
    assert classify(o, cards("SJ SJ 7h 7h")).kind == "tractor"
    assert classify(o, cards("7h 7h 7s 7s")).kind == "throw"


# --- following a pair (ruling 7; the seed's table, East leads 8♦8♦) ----------------------------


@pytest.mark.parametrize(
    ("hand", "play", "legal"),
    [
        ("9d 9d Jd Qd 3s", "9d 9d", True),  # North case 1
        ("9d 9d Jd Qd 3s", "Jd Qd", False),  # must play the pair
        ("Jd Qd 3s 4s", "Jd Qd", True),  # North case 2: no pair, two diamonds
        ("Jd Qd 3s 4s", "Jd 3s", False),
        ("Jc Qc 5c 5c 3s", "Jc Qc", True),  # West: no diamonds, trumps are never forced
        ("Jc Qc 5c 5c 3s", "5c 5c", True),  # West case 2: the ruff
        ("Td 2s 3s", "Td 2s", True),  # South: one diamond and any other card
        ("Td 2s 3s", "2s 3s", False),
        ("2h 2s 4h", "2h 2s", True),  # South case 2: no diamonds at all
    ],
)
def test_following_a_pair(hand: str, play: str, legal: bool) -> None:
    lead = classify(C7, cards("8d 8d"))
    assert (judge_follow(C7, lead, cards(hand), cards(play)) is None) is legal


def test_reasons_name_the_obligation() -> None:
    lead = classify(C7, cards("8d 8d"))
    hand = cards("9d 9d Jd Qd 3s")
    assert judge_follow(C7, lead, hand, cards("Jd Qd")) == "must play the pair 9d 9d (ruling 7)"
    hand = cards("9d 9d Jd Jd 3s")
    assert "one of Jd Jd, 9d 9d" in str(judge_follow(C7, lead, hand, cards("9d Jd")))
    assert "every one of the diamonds held (Td)" in str(
        judge_follow(C7, lead, cards("Td 2s 3s"), cards("2s 3s"))
    )
    assert "does not hold" in str(judge_follow(C7, lead, cards("Td 2s 3s"), cards("Td 4s")))
    assert "as many as were led" in str(judge_follow(C7, lead, cards("Td 2s 3s"), cards("Td")))


def test_following_a_tractor_needs_a_tractor_then_pairs() -> None:
    lead = classify(C7, cards("5h 5h 4h 4h"))
    hand = cards("9h 9h 8h 8h Kh Kh 3h")
    assert judge_follow(C7, lead, hand, cards("9h 9h 8h 8h")) is None
    assert judge_follow(C7, lead, hand, cards("9h 9h Kh Kh")) == (
        "must play the tractor 9h 9h 8h 8h (ruling 7)"
    )
    hand = cards("9h 9h Jh 3h 2h")  # no tractor: the one pair, then any hearts
    assert judge_follow(C7, lead, hand, cards("9h 9h Jh 3h")) is None
    assert judge_follow(C7, lead, hand, cards("Jh 3h 2h 9h")) is not None
    assert sorted(format_hand(f) for f in legal_follows(C7, lead, hand)) == [
        "3h 9h 9h 2h", "3h 9h 9h Jh", "9h 9h Jh 2h",
    ]  # fmt: skip


def test_following_a_throw_keeps_its_pairs() -> None:
    lead = classify(C7, cards("Kd Qd Qd Td Td"))  # two pairs and a single
    hand = cards("9d 9d 8d 8d 6d 5d 3d")  # 9-8 is a tractor: it stands for the two pairs
    assert judge_follow(C7, lead, hand, cards("9d 9d 8d 8d 3d")) is None
    assert judge_follow(C7, lead, hand, cards("9d 9d 6d 5d 3d")) is not None


def test_void_follows_are_counted_without_listing() -> None:
    lead = classify(C7, cards("8d 8d 6d 6d"))
    hand = cards("3s 4s 5s 6s 8s 9s Js Qs Ks As 3h 4h 5h 6h 8h 9h")
    assert count_follows(C7, lead, hand) == 1820 == sum(1 for _ in legal_follows(C7, lead, hand))


# --- winning a trick (rulings 8 and 9) ----------------------------------------------------------


def test_the_seed_pair_trick() -> None:
    assert winner("8d 8d", "9d 9d", "Jc Qc", "Td 2s") == 2
    assert winner("8d 8d", "Jd Qd", "5c 5c", "Tc Tc") == 4  # South's 10♣10♣ over West's 5♣5♣
    assert winner("8d 8d", "Jd Qd", "Jc Qc", "2h 2s") == 1  # singles never beat a pair
    assert trick_points([cards(p) for p in ("8d 8d", "9d 9d", "Jc Qc", "Td 2s")]) == 10


def test_ties_go_to_the_earliest_play() -> None:
    assert winner("3s", "7h", "7d", "7s") == 2  # off-suit rank cards are equal trumps
    assert winner("Ad Kd Kd", "7h 7h 9c", "7s 7s Ac", "3s 4s 5s") == 2


@pytest.mark.parametrize(
    ("south", "east", "won"),
    [
        ("8c 8c 5c 5c Jc", "3h 4h 5h 6h 8h", 2),  # South's all-trump ruff takes it
        ("8c 8c 5c 5c Jh", "3h 4h 5h 6h 8h", 1),  # not all trump: no ruff
        ("8c 8c 5c 5c Jc", "Tc Tc 2c 2c 4c", 3),  # East's higher trump pair
        ("8c 8c 5c 5c Jc", "6c 6c 3c 3c Ac", 2),  # a higher single does not count
    ],
)
def test_ruffs_of_a_throw_by_its_largest_unit(south: str, east: str, won: int) -> None:
    assert winner("Kd Qd Qd Td Td", south, east) == won


def test_a_pair_may_stand_for_two_singles() -> None:
    # West leads K♦Q♦; South's 5♣5♣ loses to East's 10♣3♣ on the largest single
    assert winner("Kd Qd", "5c 5c", "Tc 3c") == 3
    assert winner("Kd Qd", "5c 5c", "4h 3h") == 2


def test_a_single_never_stands_for_a_pair() -> None:
    assert winner("Qd Qd Jd", "Ac Kc Qc") == 1


# --- throws that fail (ruling 10; the seed's throw table) ---------------------------------------


def test_kd_qd_against_a_held_ad_forces_qd() -> None:
    check = check_throw(C7, cards("Kd Qd"), [cards("3s"), cards("Ad 4s"), cards("5h")])
    assert (check.stands, format_hand(check.forced), format_hand(check.back)) == (
        False, "Qd", "Kd",
    )  # fmt: skip
    assert check.blocker == 1
    check = check_throw(C7, cards("Kd Qd"), [cards("Kd 3s"), cards("4h"), cards("5c")])
    assert (format_hand(check.forced), check.blocker) == ("Qd", 0)
    assert check_throw(C7, cards("Kd Qd"), [cards("Jd 3s"), cards("4h"), cards("5c")]).stands


def test_the_five_card_throw_table() -> None:
    throw = cards("Kd Qd Qd Td Td")
    check = check_throw(C7, throw, [cards("Ad 3s"), cards("4h"), cards("5c")])
    assert format_hand(check.forced) == "Kd"  # A♦ beats the single: the doubles go back
    check = check_throw(C7, throw, [cards("3s"), cards("Jd Jd"), cards("5c")])
    assert format_hand(check.forced) == "Td Td"  # J♦J♦ beats 10♦10♦ only
    assert check_throw(C7, throw, [cards("Jd"), cards("Ad Ad"), cards("Kd")]).stands is False
    assert check_throw(C7, throw, [cards("Jd 9d 9d"), cards("3s"), cards("4c")]).stands


def test_ks_qs_qs_js_js_stands_without_an_ace() -> None:
    throw = cards("Ks Qs Qs Js Js")
    assert check_throw(C7, throw, [cards("Ts Ts 9s 9s"), cards("3h"), cards("4h")]).stands
    check = check_throw(C7, throw, [cards("As"), cards("3h"), cards("4h")])
    assert format_hand(check.forced) == "Ks"


def test_throw_penalty_counts_the_cards_taken_back() -> None:
    check = check_throw(C7, cards("Kd Qd Qd Td Td"), [cards("Ad")])
    assert throw_penalty(check, 10) == 40 and throw_penalty(check, 0) == 0


def test_a_single_unit_always_stands() -> None:
    assert check_throw(C7, cards("3d 3d"), [cards("Ad Ad")]).stands


# --- the kitty and the score tables (rulings 11 to 13) ------------------------------------------


def test_kitty_multiplier() -> None:
    assert [kitty_multiplier(p) for p in (0, 1, 2, 3)] == [2, 4, 8, 16]
    assert [kitty_multiplier(p, "linear") for p in (0, 1, 2, 3)] == [2, 4, 6, 8]


@pytest.mark.parametrize(
    ("points", "declarers", "opponents", "swap"),
    [
        (-80, 6, 0, False), (-75, 5, 0, False), (-40, 5, 0, False), (-35, 4, 0, False),
        (-5, 4, 0, False), (0, 3, 0, False), (5, 2, 0, False), (35, 2, 0, False),
        (40, 1, 0, False), (75, 1, 0, False), (80, 0, 0, True), (115, 0, 0, True),
        (120, 0, 1, True), (155, 0, 1, True), (160, 0, 2, True), (195, 0, 2, True),
        (200, 0, 3, True), (235, 0, 3, True), (240, 0, 4, True),
    ],
)  # fmt: skip
def test_two_deck_score_table(points: int, declarers: int, opponents: int, swap: bool) -> None:
    assert tuple(level_change(points, 2)) == (declarers, opponents, swap)


@pytest.mark.parametrize(
    ("points", "declarers", "opponents", "swap"),
    [
        (0, 3, 0, False), (5, 2, 0, False), (15, 2, 0, False), (20, 1, 0, False),
        (35, 1, 0, False), (40, 0, 0, True), (55, 0, 0, True), (60, 0, 1, True),
        (75, 0, 1, True), (80, 0, 2, True), (95, 0, 2, True), (100, 0, 3, True),
        (115, 0, 3, True), (120, 0, 4, True),
    ],
)  # fmt: skip
def test_one_deck_score_table(points: int, declarers: int, opponents: int, swap: bool) -> None:
    assert tuple(level_change(points, 1)) == (declarers, opponents, swap)


def test_levels_stop_at_the_ones_to_defend() -> None:
    assert raise_level(12, 3, (14,), False) == (14, False)  # stops at A
    assert raise_level(14, 2, (14,), False) == (14, False)  # opponents cannot pass A
    assert raise_level(14, 1, (14,), True) == (14, True)  # declarers win at A
    assert raise_level(13, 2, (), True) == (14, True)  # must_defend=none: passing A wins
    assert raise_level(4, 3, (5, 10, 13, 14), True) == (5, False)
    assert raise_level(5, 3, (5, 10, 13, 14), True) == (8, False)
    assert raise_level(5, 3, (5, 10, 13, 14), False) == (5, False)
