"""The Sheng ji round state machine (RULINGS-SHENGJI 10-16): the draw and its bids, the trump
without a bid, the kitty, friend calls, failed throws, the round's score; and property tests:
undo() restores the state exactly, and the listed follows are exactly the legal ones."""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zfrec.errors import IllegalPlayError
from zfrec.games.shengji.bots import SjBot, make_bot
from zfrec.games.shengji.cards import card_id, count, distinct, format_hand, parse_hand, size
from zfrec.games.shengji.events import PlayEvent
from zfrec.games.shengji.follow import count_follows, judge_follow, legal_follows
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.match import apply_event, play_round
from zfrec.games.shengji.order import parse_trump
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import sj_preset

C7 = parse_trump("7c")


def cards(text: str) -> int:
    return parse_hand(text)


def deck_with(first: list[str], kitty: list[str] | None = None, decks: int = 2) -> list[int]:
    """A deck whose first cards are `first` (drawn in seat order) and whose last cards, the
    kitty, are `kitty`; the rest in id order."""
    head = [card_id(c) for c in first]
    tail = [card_id(c) for c in kitty or []]
    rest = list(range(54)) * decks
    for c in head + tail:
        rest.remove(c)
    return head + rest + tail


# --- the draw and the bids (ruling 15) ----------------------------------------------------------


def drawn(first: list[str], rank: int = 12, dealer: int | None = None) -> RoundState:
    state = RoundState.start(sj_preset(), deck_with(first), rank, dealer)
    for _ in first:
        state.draw(state.turn)
    return state


def test_draw_order_and_turn() -> None:
    state = drawn(["9h", "9c", "3s", "4s"], rank=6)
    assert [format_hand(h) for h in state.hands] == ["9h", "9c", "3s", "4s"]
    with pytest.raises(IllegalPlayError, match="seat 1 draws next, not seat 2"):
        state.draw(1)


def test_the_seeds_nine_of_hearts_bidding() -> None:
    # rank 9: North bids 9♥, East overrides with a pair of 9♣; North's second 9♥ makes a pair
    # that counts from its first 9♥, so it takes precedence (an earlier bid wins at equal
    # strength); a pair shown later than East's by anyone else does not
    first = ["9h", "9c", "3s", "9d", "9h", "9c", "5s", "9d"]
    state = drawn(first, rank=6)
    nine_h, nine_c = card_id("9h"), card_id("9c")
    state.bid(0, cards("9h"))
    assert not state.can_bid(1, cards("9c"))  # a single does not beat a single
    state.bid(1, 2 << (nine_c << 1))  # East's pair overrides North's single
    assert not state.can_bid(3, cards("9d 9d"))  # equal strength, later: no
    state.bid(0, 2 << (nine_h << 1))  # North reinforces its own bid
    assert state.bid_seat == 0
    assert not state.can_bid(1, 2 << (nine_c << 1))
    state.undo()
    state.undo()
    state.bid(0, 2 << (nine_h << 1))  # reinforced before East's pair: East cannot override
    with pytest.raises(IllegalPlayError, match="must beat the standing bid"):
        state.bid(1, 2 << (nine_c << 1))


def test_bids_are_rank_cards_or_joker_pairs() -> None:
    state = drawn(["SJ", "BJ", "2h", "2d", "SJ", "BJ", "2h", "3d"], rank=12)
    with pytest.raises(IllegalPlayError, match="single joker never bids"):
        state.bid(0, cards("SJ"))
    with pytest.raises(IllegalPlayError, match="rank cards of the dominant rank 2"):
        state.bid(3, cards("3d"))
    state.bid(2, cards("2h 2h"))
    assert not state.can_bid(0, cards("2h"))
    state.bid(0, cards("SJ SJ"))  # a joker pair over a rank pair: no-trump
    assert state.bid(1, cards("BJ BJ")).suit is None  # big jokers over small: no-trump


def test_no_reinforcing_a_partners_bid() -> None:
    state = drawn(["2h", "3s", "2h", "4s", "SJ", "5s", "BJ", "6s", "SJ", "7s", "BJ", "8s"])
    state.bid(0, cards("2h"))
    with pytest.raises(IllegalPlayError, match="may not reinforce a partner's bid"):
        state.bid(2, cards("2h"))  # the second copy is the partner's
    state.bid(0, cards("SJ SJ"))
    state.bid(2, cards("BJ BJ"))  # a stronger bid, not a reinforcement
    assert state.bid_seat == 2


def full_draw(state: RoundState) -> RoundState:
    while state.drawn < state.to_draw:
        state.draw(state.turn)
    return state


def test_the_bid_sets_trump_and_the_first_dealer() -> None:
    state = RoundState.start(sj_preset(), deck_with(["3s", "2d"]), 12, None)
    state.draw(0)
    state.draw(1)
    state.bid(1, cards("2d"))
    full_draw(state)
    event = state.settle()
    assert (event.trump, event.dealer, event.source) == ("2d", 1, "bid")
    assert size(state.hands[1]) == 33 and state.phase == "exchange"


@pytest.mark.parametrize(
    ("kitty", "no_bid", "trump", "turned"),
    [
        (["BJ", "SJ", "Kh", "3c", "2s", "4d", "5d", "6d"], "first_card", "2h", 3),
        (["BJ", "SJ", "BJ", "SJ", "3c", "Kh", "4d", "5d"], "first_card", "2c", 5),
        (["Kh", "3c", "2s", "4d", "5d", "6d", "7d", "8d"], "rank_or_highest", "2s", 3),
        (["Kh", "3c", "As", "4d", "5d", "6d", "7d", "8d"], "rank_or_highest", "2s", 8),
    ],
)
def test_trump_without_a_bid(kitty: list[str], no_bid: str, trump: str, turned: int) -> None:
    rules = sj_preset(no_bid=no_bid)
    state = full_draw(RoundState.start(rules, deck_with([], kitty), 12, None))
    event = state.settle()
    assert (event.trump, event.dealer, event.turned) == (trump, 0, turned)


def test_the_dealer_exchanges_the_kitty() -> None:
    state = full_draw(RoundState.start(sj_preset(), deck_with([]), 12, 2))
    state.settle()
    hand = state.hands[2]
    with pytest.raises(IllegalPlayError, match="only the dealer"):
        state.exchange(0, 0)
    some = parse_hand(" ".join(format_hand(hand).split()[:7]))
    with pytest.raises(IllegalPlayError, match="the discard has 7 cards; the rules' kitty holds 8"):
        state.exchange(2, some)
    discard = parse_hand(" ".join(format_hand(hand).split()[:8]))
    state.exchange(2, discard)
    assert state.kitty == discard and size(state.hands[2]) == 25 and state.turn == 2


# --- play: failed throws, the kitty on the last trick, the score -------------------------------


def test_a_failed_throw_costs_its_side() -> None:
    hands = [cards(h) for h in ("Kd Qd 3s", "Ad 4s 5s", "5h 6h 8h", "8d 9c 4c")]
    rs = RoundState.from_hands(hands, C7, 0, sj_preset(throw_penalty=10))
    event = rs.play(0, cards("Kd Qd"))
    assert (format_hand(event.cards), format_hand(event.back), event.blocker) == ("Qd", "Kd", 1)
    assert event.penalty == 10 and rs.penalties == (10, 0, 0, 0)
    assert format_hand(rs.hands[0]) == "3s Kd"


def test_the_last_trick_multiplies_the_kitty() -> None:
    # the opponents (seats 2 and 4) take the last trick with a pair: the kitty counts 4 times
    hands = [cards(h) for h in ("3s 3s", "As As", "4s 4s", "5h 5h")]
    kitty = cards("Kd Td 5c")  # 25 points
    state = RoundState.from_hands(hands, C7, 0, kitty=kitty)
    for seat, play in ((0, "3s 3s"), (1, "As As"), (2, "4s 4s"), (3, "5h 5h")):
        event = state.play(seat, cards(play))
    result = event.round_result
    assert result is not None and result.last_winner == 1
    assert (result.taken, result.kitty_points, result.multiplier) == (10, 25, 4)
    assert result.total == 110 and result.change.swap and result.next_dealer == 1


def test_declarers_taking_the_last_trick_keep_the_kitty() -> None:
    hands = [cards(h) for h in ("As", "3s", "4s", "5s")]
    state = RoundState.from_hands(hands, C7, 0, kitty=cards("Kd Kd"))
    for seat, play in ((0, "As"), (1, "3s"), (2, "4s"), (3, "5s")):
        event = state.play(seat, cards(play))
    result = event.round_result
    assert result is not None and (result.kitty_added, result.total) == (0, 0)
    assert result.change.declarers == 3 and result.next_dealer == 2  # the dealer's partner


def test_out_of_turn_and_wrong_phase() -> None:
    hands = [cards(h) for h in ("As", "3s", "4s", "5s")]
    state = RoundState.from_hands(hands, C7, 0)
    with pytest.raises(IllegalPlayError, match="it is seat 1's turn, not seat 2's"):
        state.play(1, cards("3s"))
    with pytest.raises(IllegalPlayError, match="does not hold"):
        state.play(0, cards("Ks"))
    with pytest.raises(IllegalPlayError, match="draw phase"):
        state.draw(0)


# --- zhao pengyou (ruling 16) -------------------------------------------------------------------


def test_the_called_copy_makes_a_friend() -> None:
    rules = sj_preset("zhaopengyou")
    hands = [cards(h) for h in ("3s 4s", "As 5h", "As 6h", "7s 8h", "9s Th")]
    state = RoundState.from_hands(hands, C7, 0, rules)
    state.phase = "call"  # from_hands starts in play; the call comes before the first lead
    state.call(0, [(card_id("As"), 2)])
    assert state.team_of(1) is None
    state.play(0, cards("3s"))
    assert state.play(1, cards("As")).joined is None  # the first A♠ was not called
    assert state.play(2, cards("As")).joined == 2  # the second one was
    assert state.team_of(2) == "declarers" and state.team_of(1) == "opponents"


# --- undo restores exactly (hypothesis) ---------------------------------------------------------


def step(state: RoundState, bots: list[SjBot], rng: random.Random) -> None:
    """One bot action (a draw may bring a bid with it)."""
    if state.phase == "draw":
        if state.drawn == state.to_draw:
            state.settle()
            return
        seat = state.turn
        state.draw(seat)
        bid = bots[seat].bid(state, seat, rng)
        if bid is not None:
            state.bid(seat, bid)
    elif state.phase == "exchange":
        state.exchange(state.turn, bots[state.turn].discard(state, state.turn, rng))
    elif state.phase == "call":
        state.call(state.turn, bots[state.turn].calls(state, state.turn, rng))
    else:
        state.play(state.turn, bots[state.turn].play(state, state.turn, rng))


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["bashifen", "dabaifen", "zhaopengyou"]))
def test_undo_restores_the_state_exactly(rng: random.Random, preset: str) -> None:
    rules = sj_preset(preset)
    deck = list(range(54)) * rules.decks
    rng.shuffle(deck)
    state = RoundState.start(rules, deck, rng.randrange(13), rng.choice([None, 0, 1]))
    bots = [make_bot(rng.choice(["random", "greedy"])) for _ in range(rules.players)]
    while not state.over:
        before, log = state.snapshot(), list(state.log)
        step(state, bots, rng)
        after, made = state.snapshot(), state.log[len(log) :]
        for event in reversed(made):
            assert state.undo() == event
        assert state.snapshot() == before and state.log == log
        for event in made:  # and forward again, to the same state
            assert apply_event(state, event) == event
        assert state.snapshot() == after
    assert state.result is not None
    while state.log:  # all the way back to the undealt deck
        state.undo()
    assert state.snapshot() == RoundState.start(rules, deck, state.rank, state.dealer).snapshot()


# --- the listed follows are exactly the legal ones (hypothesis) --------------------------------

SMALL_POOL = [
    card_id(c) for c in ["8d", "9d", "Td", "Jd", "Qd", "5d", "7d", "7c", "8c", "8s", "3h", "SJ"]
]


def sub_multisets(hand: int, k: int) -> list[int]:
    ids = distinct(hand)
    out = []
    for takes in product(*(range(count(hand, c) + 1) for c in ids)):
        if sum(takes) == k:
            out.append(sum(t << (c << 1) for t, c in zip(takes, ids, strict=True)))
    return out


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(SMALL_POOL), min_size=1, max_size=4),
    st.lists(st.sampled_from(SMALL_POOL), min_size=1, max_size=9),
    st.sampled_from(["7c", "7", "9d", "2s"]),
)
def test_listed_follows_are_exactly_the_legal_ones(
    lead_ids: list[int], hand_ids: list[int], trump: str
) -> None:
    order = parse_trump(trump)
    lead_cards = sum(1 << (c << 1) for c in lead_ids)
    hand = sum(1 << (c << 1) for c in hand_ids)
    if max(count(lead_cards, c) for c in lead_ids) > 2 or max(count(hand, c) for c in hand_ids) > 2:
        return  # a third copy: not in two decks
    try:
        lead = classify(order, lead_cards)
    except IllegalPlayError:
        return
    if size(hand) < lead.size:
        return
    listed = list(legal_follows(order, lead, hand))
    assert len(listed) == len(set(listed)) == count_follows(order, lead, hand)
    for play in sub_multisets(hand, lead.size):
        assert (judge_follow(order, lead, hand, play) is None) == (play in listed), (
            format_hand(hand),
            format_hand(play),
        )


def test_every_play_of_a_self_play_round_is_judged_legal_again() -> None:
    rng = random.Random(5)
    rules = sj_preset()
    deck = list(range(54)) * 2
    rng.shuffle(deck)
    state = play_round(rules, deck, 2, None, [make_bot("greedy")] * 4, rng, undoable=True)
    plays = [e for e in state.log if isinstance(e, PlayEvent)]
    assert len(plays) >= 25 * 4 // 4 and state.result is not None
    for event in reversed(state.log):
        state.undo()
        if isinstance(event, PlayEvent):
            assert state.can_play(event.seat, event.attempt)


@pytest.mark.parametrize("preset", ["bashifen", "dabaifen", "zhaopengyou"])
def test_self_play_rounds_replay_legally(preset: str) -> None:
    from zfrec.games.shengji.match import play_match, replay_round

    rules = sj_preset(preset)
    match = play_match(rules, 3, (["random", "greedy"] * 4)[: rules.players], max_rounds=3)
    assert len(match.rounds) == 3
    for r in match.rounds:
        state = replay_round(rules, r.deck, r.level, r.dealer, r.state.log)
        assert state.over and state.result == r.state.result
        assert all(h == 0 for h in state.hands) and size(state.kitty) == rules.kitty


@pytest.mark.parametrize("preset", ["bashifen", "dabaifen", "zhaopengyou"])
def test_draw_rest_draws_as_draw_does(preset: str) -> None:
    """`draw_rest` (the replay's draw at once) leaves the state and the log `draw` leaves."""
    rules = sj_preset(preset)
    deck = list(range(54)) * rules.decks
    random.Random(3).shuffle(deck)
    for dealer in (None, 1):
        one = RoundState.start(rules, deck, 5, dealer, undoable=False)
        for _ in range(3):  # a few cards drawn first: the rest from there
            one.draw(one.turn)
        many = RoundState.start(rules, deck, 5, dealer, undoable=False)
        for _ in range(3):
            many.draw(many.turn)
        made = many.draw_rest()
        while one.drawn < one.to_draw:
            one.draw(one.turn)
        assert many.snapshot() == one.snapshot() and many.log == one.log
        assert made == one.log[3:] and many.draw_rest() == []
        assert many.can_settle() and not many.can_draw(many.turn)


def test_plays_are_numbered_by_trick_and_turn() -> None:
    hands = [cards(h) for h in ("As 3h", "3s 4h", "4s 5h", "5s 6h")]
    state = RoundState.from_hands(hands, C7, 0)
    events = [state.play(state.turn, p) for p in [cards(c) for c in ("As", "3s", "4s", "5s")]]
    events.append(state.play(0, cards("3h")))
    assert [(e.trick, e.turn) for e in events] == [(1, 1), (1, 2), (1, 3), (1, 4), (2, 1)]
    assert events[3].trick_result is not None and events[3].trick_result.number == 1
