"""The plays a Sheng ji live table offers to tap (zfrec.games.shengji.offers), against the engine:
a follow's are exactly its legal follows, a lead's exactly its leads of one unit."""

from __future__ import annotations

import copy
import random

from zfrec.games.shengji.cards import format_hand, from_ids, parse_hand
from zfrec.games.shengji.follow import every_lead, legal_follows
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.offers import MAX_FOLLOWS, follow_offer, lead_units
from zfrec.games.shengji.order import order_for
from zfrec.games.shengji.round import RoundState


def _leads_by_engine(state: RoundState) -> set[int]:
    """The engine's leads of one unit: every lead (a few thousand at most), throws left out."""
    assert state.order is not None
    hand = state.hands[state.turn]
    return {p for p in every_lead(state.order, hand) if classify(state.order, p).kind != "throw"}


def _rounds(seed: int, trump: str) -> list[RoundState]:
    """The states of a random four-seat round (two decks) before each play, one unit led each
    trick (the longest offered, half the time)."""
    rng = random.Random(seed)
    deck = sorted(list(range(54)) * 2)
    rng.shuffle(deck)
    hands = [from_ids(deck[25 * s : 25 * s + 25]) for s in range(4)]
    state = RoundState.from_hands(hands, order_for(trump), 0, kitty=from_ids(deck[100:]))
    out = []
    while state.result is None:
        out.append(copy.deepcopy(state))
        assert state.order is not None
        if state.lead is None:
            units = lead_units(state.order, state.hands[state.turn])
            pick = units[0] if rng.random() < 0.5 else rng.choice(units)
            state.play(state.turn, from_ids(pick[1]))
        else:
            state.play(state.turn, rng.choice(state.legal_plays()))
    return out


def test_offers_are_the_engines_follows_and_single_unit_leads() -> None:
    follows = leads = tractors = compared_tractors = 0
    for seed, trump in ((1, "7c"), (2, "2h"), (3, "5")):
        for state in _rounds(seed, trump):
            order, hand = state.order, state.hands[state.turn]
            assert order is not None
            if state.lead is None:
                offered = [from_ids(ids) for _, ids in lead_units(order, hand)]
                assert len(set(offered)) == len(offered)  # each lead once
                engine = _leads_by_engine(state)
                assert set(offered) == engine, format_hand(hand)
                leads += 1
                compared_tractors += any(classify(order, p).kind == "tractor" for p in engine)
                for kind, ids in lead_units(order, hand):
                    assert classify(order, from_ids(ids)).kind == kind
                    tractors += kind == "tractor"
            else:
                offer = follow_offer(order, state.lead, hand)
                engine_follows = list(legal_follows(order, state.lead, hand))
                if len(engine_follows) <= MAX_FOLLOWS:
                    assert sorted(offer["plays"]) == sorted(map(format_hand, engine_follows))
                    follows += 1
                assert offer["count"] == len(engine_follows)
    seen = (follows, leads, tractors, compared_tractors)
    assert follows > 100 and leads > 20 and tractors > 0 and compared_tractors > 0, seen


def test_a_follow_too_many_to_list_says_what_it_must_hold() -> None:
    order = order_for("7c")
    lead = classify(order, parse_hand("3d 3d 4d 4d"))  # a tractor of diamonds
    hand = parse_hand("9d 3s 4s 5s 6s 8s 9s Ts Js Qs Ks As 3h 4h 5h 6h 8h 9h Th Jh")
    offer = follow_offer(order, lead, hand)
    assert offer["plays"] == []
    assert offer["count"] == sum(1 for _ in legal_follows(order, lead, hand)) > MAX_FOLLOWS
    assert offer["must"] == "9d" and offer["more"] == 3


def test_a_long_follow_from_many_cards_of_the_suit_lists_none_and_counts_them() -> None:
    # a hand not short of the led suit may have more than MAX_FOLLOWS follows too (a throw of
    # six trumps against 21 trumps): none listed, nothing it must hold, only how many there are
    order = order_for("2c")
    lead = classify(order, parse_hand("4c 6c 9c Jc Kc Ac"))
    hand = parse_hand("3c 3c 4c 5c 5c 6c 7c 8c 8c 9c Tc Jc Jc Qc Kc Ac 2s 2h 2d SJ BJ 3d 4d 5d")
    offer = follow_offer(order, lead, hand)
    assert offer["plays"] == [] and offer["must"] is None and offer["more"] == 0
    assert offer["count"] == sum(1 for _ in legal_follows(order, lead, hand)) > MAX_FOLLOWS


def test_the_live_state_lists_the_legal_plays_only_where_few_as_the_engine_does() -> None:
    # `legal` is the engine's legal plays where there are at most MAX_LEGAL; a lead's are
    # counted (lead_count) and a follow's are the offer's (listed to its own cap), not all
    # listed to find them many
    from zfrec.games.shengji.livestate import MAX_LEGAL, _few_plays, _offer
    from zfrec.games.shengji.offers import lead_count

    listed = left_out = 0
    for seed, trump in ((4, "Ts"), (5, "3"), (6, "Ac")):
        for state in _rounds(seed, trump):
            assert state.order is not None
            engine = state.legal_plays()
            if state.lead is None:
                assert lead_count(state.order, state.hands[state.turn]) == len(engine)
            few = _few_plays(state, _offer(state, state.turn))
            if len(engine) <= MAX_LEGAL:
                assert few == [format_hand(p) for p in engine]
                listed += 1
            else:
                assert few is None
                left_out += 1
    assert listed > 50 and left_out > 10, (listed, left_out)
