"""The hand and game state machines (RULES.md R1-R12).

Seats are numbered from 0 in the code and in these comments; the engine's messages count from 1.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zfrec.errors import AmbiguousPlayError, DealError, IllegalPlayError
from zfrec.games.zhengfen.engine.cards import (
    FULL_DECK,
    SJ,
    Stand,
    format_cards,
    parse_cards,
    points_of,
)
from zfrec.games.zhengfen.engine.combos import Category
from zfrec.games.zhengfen.engine.game import (
    GameState,
    HandResult,
    HandState,
    PassEvent,
    PlayEvent,
    deal_random,
    first_leader,
    hand_sizes,
    next_seat,
    verify_deal,
)
from zfrec.games.zhengfen.engine.movegen import physical_plays
from zfrec.games.zhengfen.engine.rules import Ruleset, preset

DEEP = os.environ.get("ZFREC_DEEP") == "1"

PAGAT = preset("pagat")
POPPEL = preset("poppel")
PARLETT = preset("parlett")
ALL_RULES = [PAGAT, POPPEL, PARLETT, preset("pagat", sequence_lengths="equal")]


def c(text: str) -> int:
    return parse_cards(text)


def hand(*seats: str, leader: int = 0, rules: Ruleset = PAGAT) -> HandState:
    return HandState([c(s) for s in seats], leader, rules)


def illegal_play(state: HandState, seat: int, text: str) -> str:
    with pytest.raises(IllegalPlayError) as info:
        state.verify_play(seat, c(text))
    assert not state.can_play(seat, c(text))
    return info.value.message


def illegal_pass(state: HandState, seat: int) -> str:
    with pytest.raises(IllegalPlayError) as info:
        state.verify_pass(seat)
    assert not state.can_pass(seat)
    return info.value.message


def simulated_sizes(n: int, first_drawer: int) -> list[int]:
    """Hand sizes by drawing the 54 cards one at a time, in play order (R3)."""
    sizes = [0] * n
    seat = first_drawer
    for _ in range(54):
        sizes[seat] += 1
        seat = (seat + 1) % n
    return sizes


def deal_with(n: int, first_drawer: int, fixed: dict[int, str]) -> list[int]:
    """A full deal in the draw order from first_drawer, with the given cards in given seats."""
    hands = [c(text) if text else 0 for text in (fixed.get(s, "") for s in range(n))]
    sizes = hand_sizes(n, first_drawer)
    rest = [i for i in range(54) if not any(h >> i & 1 for h in hands)]
    for seat in range(n):
        while hands[seat].bit_count() < sizes[seat]:
            hands[seat] |= 1 << rest.pop()
    assert not rest
    return hands


# --- deal (R1-R4) ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_hand_sizes_follow_the_draw_order(n: int) -> None:
    for first in range(n):
        sizes = hand_sizes(n, first)
        assert sizes == simulated_sizes(n, first)
        assert sum(sizes) == 54
        # The first 54 mod n drawers from `first` hold one card more.
        extra = [(first + i) % n for i in range(54 % n)]
        assert [s for s in range(n) if sizes[s] == 54 // n + 1] == sorted(extra)


def test_hand_sizes_rules_example() -> None:
    assert hand_sizes(4, 0) == [14, 14, 13, 13]  # RULES.md R3: "with 4 players: 14, 14, 13, 13"
    assert hand_sizes(3, 1) == [18, 18, 18]
    assert hand_sizes(6, 5) == [9] * 6


@pytest.mark.parametrize("n", [2, 7, 0])
def test_seat_count_errors(n: int) -> None:
    message = f"Zheng Fen is for 3 to 6 players, not {n} (RULES.md R1)"
    with pytest.raises(DealError) as info:
        hand_sizes(n, 0)
    assert info.value.message == message
    with pytest.raises(DealError) as info:
        GameState(n)
    assert info.value.message == message


@given(st.integers(3, 6), st.integers(0, 5), st.randoms(use_true_random=False))
@settings(max_examples=50, deadline=None)
def test_random_deals_follow_the_draw_order(n: int, first: int, rng: random.Random) -> None:
    first %= n
    hands = deal_random(n, first, rng)
    assert [h.bit_count() for h in hands] == hand_sizes(n, first)
    verify_deal(hands, first)
    verify_deal(hands, None)
    union = 0
    for h in hands:
        assert union & h == 0
        union |= h
    assert union == FULL_DECK


def test_verify_deal_errors() -> None:
    deal = deal_with(4, 0, {0: "3h", 1: "2c"})
    verify_deal(deal, 0)
    twice = [deal[0], deal[1] | c("3h"), deal[2], deal[3]]
    with pytest.raises(DealError) as info:
        verify_deal(twice, 0)
    assert info.value.message == "3h dealt twice (seat 2; RULES.md R2)"
    lacking = [deal[0], deal[1] & ~c("2c"), deal[2], deal[3]]
    with pytest.raises(DealError) as info:
        verify_deal(lacking, 0)
    assert info.value.message == "the deal lacks 2c (RULES.md R2)"
    moved = [deal[0] | c("2c"), deal[1] & ~c("2c"), deal[2], deal[3]]
    with pytest.raises(DealError) as info:
        verify_deal(moved, 0)
    assert info.value.message == (
        "hand sizes [15, 13, 13, 13] do not follow the draw order, expected [14, 14, 13, 13] "
        "(RULES.md R3)"
    )
    with pytest.raises(DealError) as info:
        verify_deal(moved, None)
    assert info.value.message == (
        "hand sizes [15, 13, 13, 13] do not follow the draw order (RULES.md R3)"
    )
    with pytest.raises(DealError) as info:
        verify_deal(deal, 1)
    assert info.value.message == (
        "hand sizes [14, 14, 13, 13] do not follow the draw order, expected [13, 14, 14, 13] "
        "(RULES.md R3)"
    )
    verify_deal(deal, None)  # some first drawer fits


def test_first_leader_holds_the_three_of_hearts() -> None:
    for seat in range(5):
        deal = deal_with(5, 0, {seat: "3h"})
        assert first_leader(deal) == seat
        state = GameState(5).start_hand(deal)
        assert state.leader == state.turn == seat
        assert state.is_lead()
    with pytest.raises(DealError) as info:
        first_leader([c("4h"), c("5h"), c("6h")])
    assert info.value.message == "nobody holds the three of hearts (RULES.md R4)"


def test_play_order_is_the_next_seat() -> None:
    assert [next_seat(s, 4) for s in range(4)] == [1, 2, 3, 0]


# --- turns and passes (R5, R6) -------------------------------------------------------------------


def test_turn_order_and_passes() -> None:
    state = hand("3h 9h 4d", "4s Ts 5d", "5s Js 6d", "6s Qs 7d")
    events: list[PlayEvent | PassEvent] = [
        state.play(0, c("3h")),
        state.pass_(1),
        state.play(2, c("5s")),
        state.pass_(3),
        state.pass_(0),
    ]
    assert state.turn == 1
    # Seat 2 passed earlier in this trick and may still play (R5).
    events.append(state.play(1, c("Ts")))
    events.append(state.play(2, c("Js")))
    events.append(state.play(3, c("Qs")))
    events.append(state.pass_(0))
    events.append(state.pass_(1))
    assert state.turn == 2 and state.trick == 1
    last = state.pass_(2)
    events.append(last)
    assert [(e.seat, e.trick, e.turn) for e in events] == [
        (0, 1, 1),
        (1, 1, 2),
        (2, 1, 3),
        (3, 1, 4),
        (0, 1, 5),
        (1, 1, 6),
        (2, 1, 7),
        (3, 1, 8),
        (0, 1, 9),
        (1, 1, 10),
        (2, 1, 11),
    ]
    assert [type(e) for e in events] == [
        PlayEvent,
        PassEvent,
        PlayEvent,
        PassEvent,
        PassEvent,
        PlayEvent,
        PlayEvent,
        PlayEvent,
        PassEvent,
        PassEvent,
        PassEvent,
    ]
    assert all(e.trick_result is None for e in events[:-1])
    result = last.trick_result
    assert result is not None
    assert (result.number, result.winner, result.next_leader) == (1, 3, 3)
    assert format_cards(result.cards) == "3h 5s Ts Js Qs"
    assert result.points == 15
    assert state.won[3] == result.cards
    assert (state.trick, state.turn_in_trick, state.turn, state.top) == (2, 1, 3, None)
    assert state.is_lead()


def test_a_leader_may_not_pass() -> None:
    state = hand("3h 9h", "4s Ts", "5s Js", leader=1)
    assert illegal_pass(state, 1) == (
        "seat 2 passes, but a trick is to be led and a leader may not pass (RULES.md R5)"
    )
    with pytest.raises(IllegalPlayError) as info:
        state.pass_(1)
    assert info.value.rule == "R5"
    assert state.turn == 1 and state.turn_in_trick == 1  # nothing changed


def test_out_of_turn() -> None:
    state = hand("3h 9h", "4s Ts", "5s Js")
    # On a lead the wrong seat is the wrong leader (ZF203); a pass there is a leader's (ZF105).
    assert (
        illegal_play(state, 1, "4s")
        == "seat 1 should lead this trick, not seat 2 (RULES.md R4, R6, R8)"
    )
    assert illegal_pass(state, 2) == (
        "seat 3 passes, but a trick is to be led and a leader may not pass (RULES.md R5)"
    )
    state.play(0, c("3h"))
    # Seat 3 could act once seat 2 passed; seat 1, the top player, could not (R6).
    assert illegal_play(state, 2, "5s") == "it is seat 2's turn, not seat 3's (RULES.md R5)"
    assert illegal_play(state, 0, "9h") == (
        "it is seat 2's turn, not seat 1's: the trick would end before seat 1 could act "
        "(RULES.md R5, R6)"
    )
    assert illegal_play(state, 6, "9h") == "there is no seat 7"


def test_playing_cards_one_does_not_hold() -> None:
    state = hand("3h 9h", "4s Ts", "5s Js")
    assert illegal_play(state, 0, "3h 9s") == "seat 1 does not hold 9s (RULES.md R3)"
    assert illegal_play(state, 0, "3h 9h") == "3h 9h is not a legal combination (RULES.md R14)"


def test_a_play_must_beat_the_top() -> None:
    state = hand("3h 9h", "4s Ts 8s", "5s Js")
    state.play(0, c("9h"))
    assert illegal_play(state, 1, "8s") == "single 8 is lower than single 9 (RULES.md R19)"
    assert illegal_play(state, 1, "4s") == "single 4 is lower than single 9 (RULES.md R19)"
    assert state.verify_play(1, c("Ts")).rank == 7


def test_a_seat_that_is_out_takes_no_part() -> None:
    state = hand("3h 9h", "Ks", "5s Js 4d")
    state.play(0, c("3h"))
    event = state.play(1, c("Ks"))
    assert event.out_place == 1
    assert state.out_order == [1]
    assert illegal_play(state, 1, "Ks") == "seat 2 is out and takes no further part (RULES.md R8)"
    assert illegal_pass(state, 1) == "seat 2 is out and takes no further part (RULES.md R8)"
    assert state.turn == 2


def test_the_lead_passes_over_a_winner_who_went_out() -> None:
    # R8: seat 1 goes out on its winning trick; the lead goes to the next seat holding cards.
    state = hand("3h 8d", "Ks", "4s 9d", "5s Td")
    state.play(0, c("3h"))
    state.play(1, c("Ks"))
    assert state.turn == 2
    state.pass_(2)
    state.pass_(3)
    event = state.pass_(0)
    result = event.trick_result
    assert result is not None
    assert (result.winner, result.next_leader, result.points) == (1, 2, 10)
    assert state.turn == 2 and state.is_lead()
    # From now on seat 1's turns are skipped.
    state.play(2, c("4s"))
    assert state.turn == 3
    state.pass_(3)
    assert state.turn == 0
    event = state.pass_(0)
    assert event.trick_result is not None and event.trick_result.next_leader == 2
    assert state.trick == 3 and state.turn == 2


def test_the_lead_skips_every_seat_that_is_out() -> None:
    state = hand("3h 8d 9d", "Ks", "4s", "5s Td 6c")
    state.play(0, c("3h"))
    state.pass_(1)
    assert state.play(2, c("4s")).out_place == 1
    state.pass_(3)
    state.pass_(0)
    event = state.pass_(1)
    assert event.trick_result is not None
    assert (event.trick_result.winner, event.trick_result.next_leader) == (2, 3)
    state.play(3, c("5s"))
    state.pass_(0)
    assert state.play(1, c("Ks")).out_place == 2
    assert state.turn == 3  # seat 2 is out and skipped
    state.pass_(3)
    event = state.pass_(0)
    assert event.trick_result is not None
    # Seat 1 won and is out, and so is seat 2: the lead goes on to seat 3.
    assert (event.trick_result.winner, event.trick_result.next_leader) == (1, 3)
    assert state.holding() == [0, 3]


# --- beating your own play (R7) -----------------------------------------------------------------


def test_pagat_trick_ends_when_the_others_pass() -> None:
    state = hand("5s 9s 4s Qd", "3d 4h", "3c 4c", rules=PAGAT)
    state.play(0, c("5s"))
    state.pass_(1)
    event = state.pass_(2)
    assert event.trick_result is not None
    assert (event.trick_result.winner, event.trick_result.next_leader) == (0, 0)
    assert state.is_lead() and state.trick == 2


def test_poppel_top_player_may_beat_their_own_play() -> None:
    state = hand("5s 9s 4s Qd", "3d 4h", "3c 4c", rules=POPPEL)
    state.play(0, c("5s"))
    state.pass_(1)
    event = state.pass_(2)
    assert event.trick_result is None
    assert state.turn == 0 and state.top is not None and state.top_seat == 0
    assert illegal_play(state, 0, "4s") == "single 4 is lower than single 5 (RULES.md R19)"
    assert state.can_play(0, c("9s"))
    assert state.can_pass(0)
    state.play(0, c("9s"))  # the round reopens
    assert state.turn == 1
    state.pass_(1)
    state.pass_(2)
    assert state.turn == 0
    event = state.pass_(0)  # passing now takes the trick
    result = event.trick_result
    assert result is not None
    assert (result.winner, result.next_leader, format_cards(result.cards)) == (0, 0, "5s 9s")
    assert result.points == 5
    assert state.is_lead() and state.turn == 0


def test_poppel_top_player_who_went_out_takes_the_trick() -> None:
    state = hand("5s 9s", "3d 4h", "3c 4c", "Ks", rules=POPPEL, leader=3)
    state.play(3, c("Ks"))
    state.pass_(0)
    state.pass_(1)
    event = state.pass_(2)
    assert event.trick_result is not None
    assert (event.trick_result.winner, event.trick_result.next_leader) == (3, 0)


# --- the final trick (R9) and the transfer (R11) ----------------------------------------------


@pytest.mark.parametrize("rules", [PAGAT, POPPEL], ids=["pagat", "poppel"])
def test_final_trick_last_player_beats(rules: Ruleset) -> None:
    state = hand("3h", "5s", "Ks 2s", rules=rules)
    assert state.play(0, c("3h")).out_place == 1
    event = state.play(1, c("5s"))
    assert event.out_place == 2
    assert event.trick_result is None and not state.over
    assert state.final_turn and state.turn == 2
    last = state.play(2, c("Ks"))
    assert last.trick_result is not None and last.hand_result is not None
    assert (last.trick_result.winner, last.trick_result.next_leader) == (2, None)
    assert state.over
    # Exactly one turn, then no further play, not even with self_overplay.
    over = "the hand is over: no play follows the final trick (RULES.md R9)"
    assert illegal_play(state, 2, "2s") == over
    assert illegal_pass(state, 2) == over
    result = last.hand_result
    assert result == state.result
    assert result.out_order == (0, 1, 2)
    assert (result.first, result.last) == (0, 2)
    assert format_cards(result.transfer_tricks) == "3h 5s Ks"
    assert format_cards(result.transfer_hand) == "2s"
    assert result.transfer_points == 15
    assert result.taken == (c("3h 5s Ks 2s"), 0, 0)
    assert result.points == (15, 0, 0)


@pytest.mark.parametrize("rules", [PAGAT, POPPEL], ids=["pagat", "poppel"])
def test_final_trick_last_player_passes(rules: Ruleset) -> None:
    state = hand("3h", "5s", "Ks 2s", rules=rules)
    state.play(0, c("3h"))
    state.play(1, c("5s"))
    event = state.pass_(2)
    assert event.trick_result is not None and event.hand_result is not None
    assert event.trick_result.winner == 1
    assert state.over
    assert illegal_play(state, 2, "Ks") == (
        "the hand is over: no play follows the final trick (RULES.md R9)"
    )
    result = event.hand_result
    assert result.out_order == (0, 1, 2)
    assert format_cards(result.transfer_hand) == "Ks 2s"
    assert result.transfer_tricks == 0
    assert result.points == (10, 5, 0)


def test_last_player_cannot_beat_in_the_final_turn() -> None:
    state = hand("3h", "Ks", "5s 4s")
    state.play(0, c("3h"))
    state.play(1, c("Ks"))
    assert illegal_play(state, 2, "5s") == "single 5 is lower than single K (RULES.md R19)"
    event = state.pass_(2)
    assert event.hand_result is not None
    assert event.hand_result.points == (5, 10, 0)  # seat 2's 5s goes to seat 0 (R11)


def test_last_player_hands_tricks_and_cards_to_the_first() -> None:
    # R11: seat 1 (last) won the Ks earlier and still holds 4h; both go to seat 2 (first out).
    state = hand("3h 4h Ks", "6s", "9s 5s")
    state.play(0, c("Ks"))
    state.pass_(1)
    assert state.pass_(2).trick_result is not None
    state.play(0, c("3h"))
    assert state.play(1, c("6s")).out_place == 1
    state.play(2, c("9s"))
    event = state.pass_(0)
    assert event.trick_result is not None and event.trick_result.next_leader == 2
    assert state.play(2, c("5s")).out_place == 2
    assert state.final_turn and state.turn == 0
    assert illegal_play(state, 0, "4h") == "single 4 is lower than single 5 (RULES.md R19)"
    final = state.pass_(0)
    result = final.hand_result
    assert result is not None
    assert result.out_order == (1, 2, 0)
    assert (result.first, result.last) == (1, 0)
    assert format_cards(result.transfer_tricks) == "Ks"
    assert format_cards(result.transfer_hand) == "4h"
    assert result.transfer_points == 10
    assert result.taken == (0, c("4h Ks"), c("3h 5s 6s 9s"))
    assert result.points == (0, 10, 5)
    assert sum(result.points) == points_of(c("3h 4h Ks 6s 9s 5s"))


def test_poppel_german_example_at_the_table() -> None:
    # zheng-fen-poppel-de.txt "Beispiel" (RULES.md R18), six players.
    state = hand(
        "Qs Qh 3c",
        "4s 6h 8d Jc",
        "3s 3h 7c",
        "Ad SJ 9c",
        "2s 2h 4d",
        "5c Th Ks 6c",
        rules=POPPEL,
    )
    state.play(0, c("Qs Qh"))
    assert physical_plays(state.hands[1], state.top, POPPEL) == []  # no pair, no joker
    state.pass_(1)
    assert illegal_play(state, 2, "3s 3h") == "pair of 3s is lower than pair of Qs (RULES.md R19)"
    state.pass_(2)
    aces = state.play(3, c("Ad SJ"))
    assert aces.combo.text() == "Ad SJ=A"
    assert state.can_play(4, c("2s 2h"))  # could play, but passes
    state.pass_(4)
    special = state.play(5, c("5c Th Ks"))
    assert (special.combo.category, special.combo.rank) == (Category.special, 0)
    for seat in range(5):
        event = state.pass_(seat)
    assert state.turn == 5 and event.trick_result is None  # poppel: may beat own play
    event = state.pass_(5)
    result = event.trick_result
    assert result is not None
    assert (result.winner, result.points) == (5, 25)


# --- the game (R4, R12) ----------------------------------------------------------------------


def hand_result(points: tuple[int, ...], first: int, last: int) -> HandResult:
    n = len(points)
    return HandResult(
        out_order=tuple([first, *[s for s in range(n) if s not in (first, last)], last]),
        first=first,
        last=last,
        transfer_tricks=0,
        transfer_hand=0,
        transfer_points=0,
        taken=(0,) * n,
        points=points,
    )


def test_scores_accumulate_to_the_target_and_a_tie_shares_the_win() -> None:
    game = GameState(3, preset("pagat", target=100))
    game.finish_hand(hand_result((40, 40, 20), 0, 2))
    assert game.scores == [40, 40, 20] and not game.over and game.winners() == []
    game.finish_hand(hand_result((30, 30, 40), 1, 0))
    assert game.scores == [70, 70, 60] and not game.over
    game.finish_hand(hand_result((40, 40, 20), 0, 2))
    assert game.scores == [110, 110, 80]
    assert game.hands_played == 3
    assert game.over
    assert game.winners() == [0, 1]
    with pytest.raises(IllegalPlayError) as info:
        game.start_hand(deal_with(3, 0, {}))
    assert info.value.message == (
        "a score reached the target 100 after hand 3, so hand 4 should not have been played "
        "(RULES.md R12)"
    )
    assert (info.value.code, info.value.hand) == ("ZF404", 4)


def test_the_highest_score_wins_not_the_first_to_reach() -> None:
    game = GameState(4, preset("pagat", target=100))
    game.finish_hand(hand_result((95, 0, 5, 0), 0, 3))
    game.finish_hand(hand_result((10, 0, 90, 0), 2, 3))
    assert game.scores == [105, 0, 95, 0] and game.winners() == [0]
    game = GameState(4, preset("pagat", target=100))
    game.finish_hand(hand_result((60, 0, 40, 0), 0, 3))
    game.finish_hand(hand_result((40, 0, 65, 0), 2, 3))
    assert game.scores == [100, 0, 105, 0]
    assert game.over and game.winners() == [2]


def test_reaching_the_target_exactly_ends_the_game() -> None:
    game = GameState(3)
    assert game.rules.target == 500
    game.finish_hand(hand_result((100, 0, 0), 0, 2))
    assert not game.over
    for _ in range(4):
        game.finish_hand(hand_result((100, 0, 0), 0, 2))
    assert game.scores == [500, 0, 0] and game.over and game.winners() == [0]


def play_randomly(state: HandState, rng: random.Random) -> HandResult:
    while state.result is None:
        seat = state.turn
        options = physical_plays(state.hands[seat], state.top, state.rules)
        if state.can_pass(seat) and (not options or rng.random() < 0.3):
            state.pass_(seat)
        else:
            combo = rng.choice(options)
            state.play(seat, combo.mask, combo.declarations())
    return state.result


def test_second_hand_shuffler_first_drawer_and_leader() -> None:
    rng = random.Random(7)
    game = GameState(4)
    assert game.next_shuffler() is None
    assert game.next_first_drawer(None) is None
    assert game.next_first_drawer(2) == 3  # hand 1: the cutter after the shuffler draws first
    with pytest.raises(DealError) as info:
        game.start_hand(deal_with(4, 0, {}), shuffler=2)
    assert info.value.message == (
        "hand sizes [14, 14, 13, 13] do not follow the draw order, expected [14, 13, 13, 14] "
        "(RULES.md R3)"
    )
    with pytest.raises(DealError) as info:
        game.start_hand(deal_with(4, 0, {})[:3])
    assert info.value.message == "the deal has 3 hands for 4 seats"
    state = game.start_hand(deal_random(4, 3, rng), shuffler=2)
    assert state.number == 1
    result = play_randomly(state, rng)
    game.finish_hand(result)
    assert game.scores == list(result.points)
    first, last = result.first, result.last
    assert first != last
    assert game.next_shuffler() == last
    assert game.next_first_drawer(None) == first
    assert game.next_first_drawer(last) == first
    # The three of hearts is elsewhere, and still the first-out leads (R4).
    holder = next_seat(first, 4)
    deal = deal_with(4, first, {holder: "3h"})
    state = game.start_hand(deal, shuffler=last)
    assert state.leader == state.turn == first != holder
    assert state.number == 2
    wrong = deal_with(4, next_seat(first, 4), {})
    with pytest.raises(DealError) as info:
        game.start_hand(wrong)
    assert info.value.message == (
        f"hand sizes {hand_sizes(4, next_seat(first, 4))} do not follow the draw order, "
        f"expected {hand_sizes(4, first)} (RULES.md R3)"
    )


# --- property: random legal games --------------------------------------------------------------


def check_turn(state: HandState, rng: random.Random) -> None:
    """Every enumerated play verifies as itself; can_* agrees with verify_* on a sample."""
    seat = state.turn
    plays = physical_plays(state.hands[seat], state.top, state.rules)
    for combo in plays:
        assert state.verify_play(seat, combo.mask, combo.declarations()).key == combo.key
    for combo in rng.sample(plays, min(3, len(plays))):
        assert state.can_play(seat, combo.mask, combo.declarations())
    legal = {(p.mask, p.key) for p in plays}
    cards = [i for i in range(54) if state.hands[seat] >> i & 1]
    for _ in range(5):
        mask = 0
        for i in rng.sample(cards, rng.randint(1, min(5, len(cards)))):
            mask |= 1 << i
        try:
            combo = state.verify_play(seat, mask)
        except IllegalPlayError as exc:
            assert not state.can_play(seat, mask)
            if any(m == mask for m, _ in legal):  # legal when declared: ambiguous on a lead
                assert type(exc) is AmbiguousPlayError and state.is_lead()
        else:
            assert state.can_play(seat, mask)
            assert (combo.mask, combo.key) in legal
    try:
        state.verify_pass(seat)
    except IllegalPlayError:
        assert not state.can_pass(seat)
        assert state.is_lead()
    else:
        assert state.can_pass(seat)
        assert not state.is_lead()
    for other in range(state.n):
        if other != seat:
            assert not state.can_pass(other)
            assert not state.can_play(other, state.hands[other] & -state.hands[other])


@given(
    st.integers(3, 6),
    st.sampled_from(ALL_RULES),
    st.integers(0, 2**32 - 1),
)
@pytest.mark.slow
@settings(max_examples=250 if DEEP else 25, deadline=None)
def test_random_legal_games(n: int, rules: Ruleset, seed: int) -> None:
    rng = random.Random(seed)
    game = GameState(n, rules.with_options(target=200))
    shuffler: int | None = rng.randrange(n)
    while not game.over:
        first_drawer = game.next_first_drawer(shuffler)
        assert first_drawer is not None
        deal = deal_random(n, first_drawer, rng)
        state = game.start_hand(deal, shuffler)
        if game.previous is None:
            assert deal[state.leader] >> 1 & 1  # the three of hearts
        else:
            assert state.leader == game.previous.first
        trick_points = 0
        while state.result is None:
            check_turn(state, rng)
            seat = state.turn
            plays = physical_plays(state.hands[seat], state.top, state.rules)
            if state.can_pass(seat) and (not plays or rng.random() < 0.5):
                event: PlayEvent | PassEvent = state.pass_(seat)
            else:
                combo = rng.choice(plays)
                event = state.play(seat, combo.mask, combo.declarations())
            if event.trick_result is not None:
                trick_points += event.trick_result.points
            # Conservation: cards in hands, won and on the table are always the 54 cards.
            if state.result is None:
                on_table = state.trick_cards
                total = sum(h.bit_count() for h in state.hands)
                total += sum(w.bit_count() for w in state.won) + on_table.bit_count()
                assert total == 54
        result = state.result
        assert trick_points + points_of(result.transfer_hand) == 100
        union = 0
        for taken in result.taken:
            assert union & taken == 0
            union |= taken
        assert union == FULL_DECK
        assert sum(result.points) == 100
        assert result.points[result.last] == 0
        assert result.taken[result.last] == 0
        assert sorted(result.out_order) == list(range(n))
        assert result.out_order[0] == result.first and result.out_order[-1] == result.last
        assert [s for s in range(n) if state.hands[s]] in ([], [result.last])
        before = list(game.scores)
        game.finish_hand(result)
        assert game.scores == [b + p for b, p in zip(before, result.points, strict=True)]
        assert game.next_shuffler() == result.last
        shuffler = game.next_shuffler()
    assert max(game.scores) >= 200
    assert game.winners() == [s for s in range(n) if game.scores[s] == max(game.scores)]


# --- the operation log and undo ------------------------------------------------------------------

_STATE_FIELDS = (
    "hands", "leader", "number", "turn", "trick", "turn_in_trick", "top", "top_seat",
    "trick_cards", "passed", "won", "out_order", "final_turn", "result", "log",
)  # fmt: skip


def snapshot(state: HandState) -> tuple[object, ...]:
    """Every field of the state, copied, so later changes in place cannot touch it."""
    out: list[object] = []
    for name in _STATE_FIELDS:
        value = getattr(state, name)
        out.append(tuple(value) if isinstance(value, list | set) else value)
    out[_STATE_FIELDS.index("passed")] = frozenset(state.passed)
    return tuple(out)


@pytest.mark.parametrize("n", [3, 5])
def test_a_hand_without_undo_record_plays_alike_and_refuses_undo(n: int) -> None:
    """`undoable=False` (a replay that only judges) changes nothing but undo(), which raises."""
    rng = random.Random(n)
    deal, leader = deal_random(n, 0, rng), rng.randrange(n)
    kept, lean = (
        HandState(list(deal), leader, POPPEL),
        HandState(list(deal), leader, POPPEL, 1, False),
    )
    while kept.result is None:
        seat = kept.turn
        plays = physical_plays(kept.hands[seat], kept.top, kept.rules)
        if kept.can_pass(seat) and (not plays or rng.random() < 0.5):
            assert kept.pass_(seat) == lean.pass_(seat)
        else:
            combo = rng.choice(plays)
            decls = combo.declarations()
            assert kept.play(seat, combo.mask, decls) == lean.play(seat, combo.mask, decls)
        assert snapshot(kept) == snapshot(lean)
    with pytest.raises(ValueError, match="no undo record"):
        lean.undo()
    assert kept.undo() == lean.log[-1]


@pytest.mark.parametrize("rules", [PAGAT, POPPEL, PARLETT], ids=lambda r: r.preset)
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_undo_restores_every_earlier_state_exactly(n: int, rules: Ruleset) -> None:
    rng = random.Random(n * 7 + len(rules.preset))
    for _ in range(3):
        first_drawer = rng.randrange(n)
        state = HandState(deal_random(n, first_drawer, rng), rng.randrange(n), rules)
        history = [snapshot(state)]
        while state.result is None:
            seat = state.turn
            plays = physical_plays(state.hands[seat], state.top, state.rules)
            if state.can_pass(seat) and (not plays or rng.random() < 0.5):
                event: PlayEvent | PassEvent = state.pass_(seat)
            else:
                combo = rng.choice(plays)
                event = state.play(seat, combo.mask, combo.declarations())
            assert state.log[-1] is event
            history.append(snapshot(state))
            if rng.random() < 0.2:  # step back and forth mid-hand too
                assert state.undo() is event
                assert snapshot(state) == history[-2]
                if isinstance(event, PassEvent):
                    assert state.pass_(seat) == event
                else:
                    assert state.play_combo(seat, event.combo) == event
                assert snapshot(state) == history[-1]
        assert len(state.log) == len(history) - 1
        for earlier in reversed(history[:-1]):
            state.undo()
            assert snapshot(state) == earlier
        with pytest.raises(IndexError):
            state.undo()


def test_unfinish_hand_takes_back_the_scores_and_the_next_leader() -> None:
    game = GameState(3, PAGAT)
    first = hand_result((60, 40, 0), first=0, last=2)
    second = hand_result((0, 70, 30), first=1, last=0)
    game.finish_hand(first)
    game.finish_hand(second)
    assert (game.scores, game.next_shuffler()) == ([60, 110, 30], 0)
    assert game.unfinish_hand() == second
    assert (game.scores, game.hands_played, game.previous) == ([60, 40, 0], 1, first)
    assert game.unfinish_hand() == first
    assert (game.scores, game.previous, game.next_shuffler()) == ([0, 0, 0], None, None)
    with pytest.raises(IndexError):
        game.unfinish_hand()


# --- errors name their seats; recovery from a recorded illegal move -----------------------------


def test_errors_carry_their_seats_and_place() -> None:
    state = hand("3h 9h", "4s Ts", "5s Js")
    state.play(0, c("3h"))
    with pytest.raises(IllegalPlayError) as info:
        state.verify_play(0, c("9h"))
    err = info.value
    assert (err.code, err.rule, err.seats, err.seat) == ("ZF201", "R5", (1, 0), 0)
    assert (err.hand, err.trick, err.turn) == (1, 1, 2)
    names = ["Ann", "Bo", "Cy"]
    assert err.render(names.__getitem__) == (
        "it is Bo's turn, not Ann's: the trick would end before Ann could act (RULES.md R5, R6)"
    )
    # Errors from reading the cards get the place too, and mention no seat.
    with pytest.raises(IllegalPlayError) as info:
        state.verify_play(1, c("4s Ts"))
    assert (info.value.code, info.value.seat, info.value.turn, info.value.seats) == (
        "ZF101",
        1,
        2,
        (),
    )
    assert info.value.render(names.__getitem__) == info.value.message


def test_verify_cards_ignores_the_turn() -> None:
    state = hand("3h 9h", "4s Ts", "5s Js")
    state.play(0, c("3h"))
    assert state.verify_cards(2, c("Js")).rank == c_rank("J")
    with pytest.raises(IllegalPlayError) as info:
        state.verify_cards(2, c("Ts"))
    assert info.value.message == "seat 3 does not hold Ts (RULES.md R3)"


def c_rank(symbol: str) -> int:
    return "3456789TJQKA2".index(symbol)


def test_forced_moves_take_the_turn_and_undo_exactly() -> None:
    state = hand("3h 9h 8c", "4s Ts", "5s Js 6d")
    state.play(0, c("3h"))
    before = snapshot(state)
    # Seat 1 plays out of turn (seat 2 had the turn): applied as written, from seat 1 on.
    event = state.force_play(0, c("9h"), state.verify_cards(0, c("9h")))
    assert (event.seat, event.turn, state.top_seat, state.turn) == (0, 2, 0, 1)
    assert state.undo() == event and snapshot(state) == before
    # A card set with no reading stands under a placeholder that any single beats.
    event = state.force_play(2, c("5s Js 6d"), None)
    assert (event.combo.category, event.combo.rank) == (Category.single, -1)
    assert event.out_place == 1 and state.turn == 0
    assert state.verify_play(0, c("8c")).rank == c_rank("8")
    state.undo()
    # A pass out of turn: seat 3 passes instead of seat 2.
    event2 = state.force_pass(2)
    assert (event2.seat, state.turn) == (2, 0)
    assert state.undo() == event2 and snapshot(state) == before
    # What cannot be applied at all is refused.
    with pytest.raises(IllegalPlayError) as info:
        state.force_play(5, c("3s"), None)
    assert info.value.message == "there is no seat 6"
    lead = hand("3h 9h", "4s Ts", "5s Js")
    with pytest.raises(IllegalPlayError) as info:
        lead.force_pass(1)
    assert info.value.code == "ZF105"


def test_recorded_reading_goes_on_from_an_illegal_play() -> None:
    state = hand("5s 5h 9c", "4s 4d SJ", "9d 9s 3c")
    state.play(0, c("5s 5h"))
    # Lower than the top: taken at its best reading, which does not beat it.
    low = state.recorded_reading(c("4s 4d"))
    assert low is not None and low.describe() == "pair of 4s"
    assert state.recorded_reading(c("4s 9c")) is None  # no combination at all


def test_game_start_checks_one_by_one() -> None:
    game = GameState(4, preset("pagat", target=100))
    deal = deal_with(4, 1, {0: "3h"})
    game.verify_shuffler(2)  # hand 1: anyone shuffles
    game.verify_deal(deal, shuffler=0)  # the cutter, seat 2, draws first
    with pytest.raises(DealError) as info:
        game.verify_deal(deal, shuffler=1)  # seat 3 would have drawn first
    assert info.value.code == "ZF304"
    assert game.leader_of(deal) == 0
    game.finish_hand(hand_result((40, 40, 20, 0), first=1, last=3))
    with pytest.raises(DealError) as info:
        game.verify_shuffler(0)
    err = info.value
    assert (err.code, err.seats, err.hand) == ("ZF306", (0, 3), 2)
    assert err.message == (
        "seat 1 shuffles, but seat 4 came last in the previous hand and shuffles (RULES.md R4)"
    )
    assert game.leader_of(deal) == 1  # the previous first-out leads, whoever holds 3h (R4)
    game.verify_deal(deal)  # ... and draws first
    with pytest.raises(DealError):
        game.start_hand(deal, shuffler=0)
    wrong = game.open_hand(deal, leader=2)  # recovery: no checks at all
    assert (wrong.turn, wrong.number) == (2, 2)


def test_dealt_twice_names_the_seat() -> None:
    deal = deal_with(4, 0, {0: "3h", 1: "2c"})
    with pytest.raises(DealError) as info:
        verify_deal([deal[0], deal[1], deal[2] | c("2c"), deal[3]], 0)
    assert info.value.seats == (2,)
    assert info.value.render(["A", "B", "C", "D"].__getitem__) == "2c dealt twice (C; RULES.md R2)"


def test_cached_readings_keep_declarations_apart() -> None:
    # The same cards with different declarations are different plays (R21).
    state = hand("9s 9h SJ 3h", "4s", "5s", rules=PAGAT)
    with pytest.raises(IllegalPlayError) as info:
        state.verify_play(0, c("9s 9h SJ"), {SJ: Stand(5)})  # as an 8
    assert info.value.code == "ZF104"
    combo = state.verify_play(0, c("9s 9h SJ"), {SJ: Stand(6)})
    assert (combo.category, combo.rank) == (Category.triple, 6)
    assert state.verify_play(0, c("9s 9h SJ")).rank == 6  # undeclared: the triple of 9s


def test_a_hand_closed_early_counts_and_leaves_the_next_start_unknown() -> None:
    """RULINGS 24: the game goes on from what the record gives; who came first and last in the
    closed hand is unknown, so the next hand's shuffler and first drawer are not fixed."""
    game = GameState(3, preset("pagat", target=100))
    game.close_unfinished(points=(10, 20, 70))
    assert game.scores == [10, 20, 70] and game.hands_played == 1
    assert game.previous_unknown and game.next_shuffler() is None
    assert game.next_first_drawer(shuffler=0) is None
    game.verify_shuffler(2)  # anyone may shuffle: nothing to check against
    game.close_unfinished(points=(0, 0, 0), totals=(5, 5, 100))  # totals win over points
    assert game.scores == [5, 5, 100] and game.over and game.winners() == [2]
    with pytest.raises(ValueError, match="2 totals for 3 seats"):
        game.restate_scores((1, 2))


# --- what is known of the cards: reveal, and its undo ---------------------------------------------


def test_next_leader_is_the_top_player_or_the_next_holder_after_them() -> None:
    hs = HandState([parse_cards(h) for h in ("3h 4s", "5s", "7s 8s")], leader=0)
    assert hs.next_leader() is None  # nothing on the table
    hs.play(0, parse_cards("3h"))
    assert hs.next_leader() == 0
    hs.play(1, parse_cards("5s"))  # seat 2 goes out on top: seat 3 would lead (R8)
    assert hs.next_leader() == 2
    assert hs.pass_chain() == [2, 0]


def test_reveal_trades_a_guessed_card_and_refuses_a_known_one() -> None:
    hs = HandState([parse_cards(h) for h in ("3h 4s 9d", "5s 6s Td", "7s 8s Jd")], leader=0)
    with pytest.raises(IllegalPlayError, match="does not hold 5s"):
        hs.reveal(0, parse_cards("5s"))  # no deal is guessed: every card is where it is
    hs.mark_known([parse_cards("3h"), parse_cards("5s 6s"), 0])
    with pytest.raises(IllegalPlayError, match="does not hold 5s"):
        hs.reveal(0, parse_cards("5s"))  # known to be seat 2's
    event = hs.reveal(0, parse_cards("8s"))
    assert format_cards(hs.hands[0]) == "3h 8s 9d" and format_cards(hs.hands[2]) == "4s 7s Jd"
    assert hs.log == [event] and event.trick_result is None
    hs.undo()
    assert format_cards(hs.hands[0]) == "3h 4s 9d" and hs.log == []


def _guessed_hand(n: int, seed: int, knownness: int) -> HandState:
    rng = random.Random(seed)
    deal = deal_random(n, 0, rng)
    hs = HandState(list(deal), rng.randrange(n), POPPEL)
    hs.mark_known([h & knownness for h in deal])
    return hs


@given(
    st.integers(3, 6),
    st.integers(0, 2**32 - 1),
    st.integers(0, 2**54 - 1),
    st.integers(0, 12),
)
@settings(max_examples=60 if DEEP else 30, deadline=None)
def test_undo_after_reveal_restores_exactly(n: int, seed: int, knownness: int, steps: int) -> None:
    """Random play with reveals of cards the guess placed elsewhere, then undo back to each
    earlier point: the state (cards, deal, log, turn, trick...) is exactly as it was."""
    rng = random.Random(seed)
    hs = _guessed_hand(n, seed, knownness)
    history = [(snapshot(hs), hs.deal)]
    for _ in range(steps):
        if hs.result is not None:
            break
        seat = hs.turn
        others = [s for s in range(n) if s != seat]
        guessed = [
            c for s in others for c in range(54) if hs.hands[s] & ~hs.deal.known[s] >> c & 1
        ] if hs.deal is not None else []  # fmt: skip
        if guessed and rng.random() < 0.6:
            card = 1 << rng.choice(guessed)
            try:
                hs.reveal(seat, card)
            except IllegalPlayError:
                assert snapshot(hs) == history[-1][0] and hs.deal == history[-1][1]
                continue
            assert hs.hands[seat] & card
            history.append((snapshot(hs), hs.deal))
        plays = physical_plays(hs.hands[seat], hs.top, hs.rules)
        if hs.can_pass(seat) and (not plays or rng.random() < 0.4):
            hs.pass_(seat)
        else:
            combo = rng.choice(plays)
            hs.play_combo(seat, hs.verify_play(seat, combo.mask, combo.declarations()))
        history.append((snapshot(hs), hs.deal))
        total = 0
        for h in hs.hands:
            assert total & h == 0
            total |= h
    while len(history) > 1:
        history.pop()
        hs.undo()
        assert (snapshot(hs), hs.deal) == history[-1]
