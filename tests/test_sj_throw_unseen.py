"""A written failed throw where some hands are not written (ruling 10; DIAGNOSTICS.md, SJ104):
the block is accepted only where the named blocker may hold, among the cards no play has
shown, a unit that beats the forced one; every card accounted for elsewhere (a written hand,
the other copy held by the thrower) is out of its reach. `zfrec.games.shengji.unseen`."""

from __future__ import annotations

from collections import Counter

import pytest

from zfrec.games.shengji.cards import card_id, parse_hand
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.order import order_for
from zfrec.games.shengji.reader import parse_sj
from zfrec.games.shengji.replayer import validate_match
from zfrec.games.shengji.unseen import may_beat

# sample_games/shengji/03-failed-throw.zfn, round 1, cut to its first trick
HEAD = """[Game "shengji"]
[Players "Ann, 王芳, Bo Li, 李娜"]
[Rules "bashifen"]

round 1 dealer 1 rank 2 trump c
"""
ONE_AD = "3h 4s 4h 4h 5s 5d 6d 7s 7c 8c 9s 9s 9c Th Th Jc Qh Qd Qc Kd Ad Ac Ac 2c SJ"
TWO_AD = ONE_AD.replace("3h", "Ad")
WANG = "3s 3h 3d 4d 4c 5d 5c 6s 6c 7h 7d 8d 8c Td Tc Tc Jd Qs Qs Qd Qc Ks Kd Ah BJ"  # no Ad
TAIL = """bids 1: 2c
kitty 5s 5h 6c 7h 7d Js Kc 2s
discard 6d 9c Th Jc Qh Qd Ac 2c
1: Kd Ad forced Kd by {by}  2: 3d  3: 4d  4: 8d
"""


def _lines(ann: str, deal3: str, deal4: str, by: int) -> list[str]:
    text = HEAD + f"deal 1: {ann}\ndeal 2: {WANG}\ndeal 3: {deal3}\ndeal 4: {deal4}\n"
    [match] = parse_sj(text + TAIL.format(by=by))
    found = validate_match(match).diagnostics
    rule = " (RULES-SHENGJI.md R10)"
    return [f"{d.code} {d.message.removesuffix(rule)}" for d in found if d.code != "SJ205"]


@pytest.mark.parametrize("by", [2, 3, 4])
def test_a_throw_no_unseen_card_can_beat_stands(by: int) -> None:
    # Ann holds both Ad: only an Ad beats the Kd, so the throw stands whoever is named
    assert _lines(TWO_AD, "?25", "?25", by) == [
        "SJ104 the throw Kd Ad stands: nobody holds a unit that beats one of its units; it is "
        "played whole"
    ]


@pytest.mark.parametrize("by", [3, 4])
def test_a_blocker_that_may_hold_the_beater_unseen_is_accepted(by: int) -> None:
    # the other Ad is with seat 3 or 4, as no line tells which
    assert _lines(ONE_AD, "?25", "?25", by) == []


def test_a_blocker_whose_hand_is_written_cannot_block() -> None:
    # 王芳's hand is written and has no Ad; the other Ad may be with Bo Li or 李娜
    assert _lines(ONE_AD, "?25", "?25", 2) == [
        "SJ104 王芳 cannot block the throw Kd Ad: no card left unseen gives it a unit that beats Kd"
    ]


def test_the_blocker_named_cannot_hold_a_copy_written_elsewhere() -> None:
    # the other Ad is written in Bo Li's deal: 李娜's unseen cards cannot hold it
    assert _lines(ONE_AD, "Ad ?24", "?25", 3) == []
    assert _lines(ONE_AD, "Ad ?24", "?25", 4) == ["SJ104 Bo Li blocks the throw, not 李娜"]


def test_may_beat_counts_the_unseen_cards_a_unit_needs() -> None:
    o = order_for("2c")
    pair = classify(o, parse_hand("Kd Kd")).units[0]
    tractor = classify(o, parse_hand("Jd Jd Qd Qd")).units[0]
    e = o.esuit[pair.ids[0]]
    ad, kd = card_id("Ad"), card_id("Kd")
    two_ad = Counter({ad: 2})
    assert not may_beat(o, pair, e, 0, two_ad, 1)  # a pair of Ad needs two unseen cards
    assert may_beat(o, pair, e, 0, two_ad, 2)
    assert may_beat(o, pair, e, parse_hand("Ad"), Counter({ad: 1}), 1)
    assert not may_beat(o, pair, e, parse_hand("Ad"), Counter({kd: 2}), 5)  # no second Ad
    # a longer tractor: Kd Kd Ad Ad above Jd Jd Qd Qd, from one known Kd and three unseen cards
    seen = Counter({kd: 1, ad: 2})
    assert may_beat(o, tractor, e, parse_hand("Kd"), seen, 3)
    assert not may_beat(o, tractor, e, parse_hand("Kd"), seen, 2)
    assert not may_beat(o, tractor, e, 0, Counter({ad: 2}), 9)  # a pair is no tractor
