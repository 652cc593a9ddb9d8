"""A written failed throw where some hands are not written (ruling 10; DIAGNOSTICS.md, SJ104):
the block is accepted only where the named blocker may hold, among the cards no play has
shown, a unit that beats the forced one; every card accounted for elsewhere (a written hand,
the other copy held by the thrower) is out of its reach. `zfrec.games.shengji.unseen`."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest

from zfrec.diagnostics import Cause
from zfrec.games.shengji.bots import BOTS, RandomBot
from zfrec.games.shengji.cards import card_id, card_ids, from_ids, parse_hand, size
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.match import play_match
from zfrec.games.shengji.order import make_order, order_for
from zfrec.games.shengji.reader import parse_sj
from zfrec.games.shengji.records import SjCards, SjMatch
from zfrec.games.shengji.replayer import validate_match
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import level_rank, sj_preset
from zfrec.games.shengji.simrecords import match_to_record
from zfrec.games.shengji.throws import check_throw
from zfrec.games.shengji.unseen import may_beat, shown_voids

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


# --- no false verdict from the unseen copies (SJ103, SJ104) ----------------------------------
# Self-play rounds with many throws that stand (a bot that throws the top of a suit when no
# other hand beats it), written down, then with deals, kitty and discard hidden in every way a
# record may hide them and cut just after a throw: the record is innocent, so counting the
# copies that no line places (`sure_single`) must never prove a throw beaten that the hands did
# not beat, nor a failed throw's forced part wrong.


class _Thrower(RandomBot):
    name = "thrower"

    def play(self, state: RoundState, seat: int, rng: random.Random) -> int:
        order, hand = state.order, state.hands[seat]
        if state.lead is None and order is not None and rng.random() < 0.7:
            for _ in range(6):
                suits = [e for e in range(5) if hand & order.suit_mask[e]]
                ids = sorted(card_ids(hand & order.suit_mask[rng.choice(suits)]),
                             key=lambda c: -order.level[c])  # fmt: skip
                if len(ids) < 2:
                    continue
                k, roll = rng.randint(2, len(ids)), rng.random()
                if roll < 0.4:  # the top of the suit
                    cards = from_ids(ids[:k])
                elif roll < 0.8 and k > 2:  # the top but the highest card, kept back
                    cards = from_ids(ids[1:k])
                else:
                    cards = from_ids(rng.sample(ids, k))
                if len(classify(order, cards).units) > 1 and (
                    rng.random() < 0.2 or check_throw(order, cards, state.others(seat)).stands
                ):
                    return cards
        return super().play(state, seat, rng)


def _hidden(m: SjMatch, t: int, rng: random.Random) -> SjMatch:
    """Round 1 of `m` cut after trick t + 1 (or whole), its deals, kitty and discard each
    written, hidden (`?N`), partly written or left out at random."""
    out = copy.deepcopy(m)
    del out.rounds[1:]
    rnd = out.rounds[0]
    assert rnd.deal is not None and rnd.kitty is not None and rnd.discard is not None

    def hide(c: SjCards) -> SjCards | None:
        how = rng.choice(["written", "unknown", "part", "none"])
        ids = card_ids(c.known)
        keep = rng.randint(0, len(ids)) if how == "part" else len(ids) if how == "written" else 0
        rng.shuffle(ids)
        return None if how == "none" else SjCards(from_ids(ids[:keep]), c.unknown + len(ids) - keep)

    rnd.deal = tuple(hide(d) or SjCards(0, size(d.known)) for d in rnd.deal)
    rnd.kitty, rnd.discard = hide(rnd.kitty), hide(rnd.discard)
    if rng.random() < 0.8:
        del rnd.tricks[t + 1 :]
        rnd.points = rnd.outcome = rnd.levels = None
    return out


def _throws_judged(seeds: Iterable[int]) -> int:
    judged = 0
    for seed in seeds:
        for preset, players in [("bashifen", 4), ("dabaifen", 4), ("zhaopengyou", 5),
                                ("zhaopengyou", 6), ("zhaopengyou", 7)]:  # fmt: skip
            rules = sj_preset(preset, players=players) if players > 4 else sj_preset(preset)
            m = match_to_record(play_match(rules, seed, ["thrower"] * players, max_rounds=1))
            m.result = None
            assert validate_match(m).ok
            rng = random.Random(seed)
            for t, trick in enumerate(m.rounds[0].tricks):
                if len(set(card_ids(trick.moves[0].cards))) < 2:
                    continue  # not a throw (nor a tractor)
                for _ in range(6):
                    hidden = _hidden(m, t, rng)
                    found = [f"{d.code} {d.message}" for d in validate_match(hidden).diagnostics]
                    assert all(f.startswith("SJ205") for f in found), (seed, preset, t, found)
                    judged += 1
    return judged


@pytest.fixture()
def thrower(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "thrower", _Thrower)


@pytest.mark.usefixtures("thrower")
def test_an_innocent_record_with_hidden_cards_never_has_a_throw_proven_beaten() -> None:
    assert _throws_judged([0, 6]) > 100  # 6: a thrower keeps an unwritten higher card back


@pytest.mark.slow
@pytest.mark.usefixtures("thrower")
def test_an_innocent_record_with_hidden_cards_never_has_a_throw_proven_beaten_many() -> None:
    assert _throws_judged(range(1, 30)) > 1000


# --- SJ103 proven by counting unseen copies, after an earlier error ---------------------------

SHORT = Path(__file__).parent / "data" / "sj-unseen-after-short-play.zfn"


def test_a_throw_proven_beaten_by_a_card_a_short_play_hid_follows_from_that_play() -> None:
    # North's follow in trick 6 is written without its 6d: no line holds the other 6d, so
    # South's throw in trick 18 is proven beaten by it; the round's end is written, so North
    # holds a card no line shows only by its short play, and the verdict follows from it
    [match] = parse_sj(SHORT.read_text("utf-8"))
    found = validate_match(match).diagnostics
    assert [(d.code, d.location.line, d.location.trick, d.cause) for d in found] == [
        ("SJ201", 22, 6, None),
        ("SJ103", 34, 18, Cause(22, 21, "SJ201")),
        ("SJ205", 37, None, Cause(22, 21, "SJ201")),
    ]
    assert found[1].message.startswith(
        "the throw 3d 3d 4d 6d cannot stand: a higher single than 4d (6d) must be in another hand"
    )
    # the record stopping in the round instead: North's unwritten cards may rightly hold the
    # 6d, and the verdict follows from nothing
    text = SHORT.read_text("utf-8")
    cut = text[: text.index("\npoints ")] + "\n"
    [match] = parse_sj(cut)
    found = validate_match(match).diagnostics
    assert [(d.code, d.cause) for d in found if d.code == "SJ103"] == [("SJ103", None)]


def test_the_audit_repairs_the_short_play_a_throw_proven_beaten_follows_from() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "zfrec", "audit", str(SHORT)], capture_output=True, text=True,
        check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert (
        "  first error: round 1, trick 6, turn 3 (North): North played Kd to Ad Ad, but must "
        "play 2 cards" in done.stdout
    )
    assert "    1. legal if round 1, trick 6, turn 3 (North) played 6d Kd, not Kd\n" in done.stdout


def test_a_throw_blocked_by_a_card_a_short_play_kept_follows_from_that_play() -> None:
    # West's follow in trick 19 is written one trump short: the round's end is written, so
    # West keeps the trump by that error alone, and South's throw that it blocks, and West's
    # later follows that keep trumps back, follow from it (the plays do not account for every
    # card, which this error is why)
    kept = Path(__file__).parent / "data" / "sj-kept-after-short-play.zfn"
    [match] = parse_sj(kept.read_text("utf-8"))
    found = validate_match(match).diagnostics
    root = Cause(35, 11, "SJ201")
    assert [(d.code, d.location.trick, d.cause) for d in found] == [
        ("SJ201", 19, None), ("SJ103", 20, root), ("SJ201", 20, root), ("SJ205", None, root),
        ("SJ201", 21, root),
    ]  # fmt: skip


def test_a_throw_proven_beaten_by_a_hidden_card_does_not_follow_from_an_error_that_hid_none() -> (
    None
):
    # North's two wrong-suit follows (tricks 4 and 8) come before its short follow (trick 6):
    # they leave no card unshown, so the verdict follows from the short follow, not the first
    other = Path(__file__).parent / "data" / "sj-unseen-after-other-error.zfn"
    [match] = parse_sj(other.read_text("utf-8"))
    found = validate_match(match).diagnostics
    assert [(d.code, d.location.trick) for d in found if d.severity == "error"] == [
        ("SJ201", 4), ("SJ201", 6), ("SJ201", 8), ("SJ103", 18),
    ]  # fmt: skip
    [proven] = [d for d in found if d.code == "SJ103"]
    assert proven.cause == Cause(22, 21, "SJ201")


# --- a shown void is a true void (SJ104's `shown_voids`) -------------------------------------
# In self-play every follow is legal, so a seat `shown_voids` lists as out of an effective
# suit (trump-rank cards and jokers count as trumps, a failed throw's taken-back cards go back
# into the thrower's hand) must hold no card of it from then on: checked against the real
# hands before every trick, for every effective suit.


@pytest.mark.usefixtures("thrower")
def test_a_seat_shown_void_in_self_play_holds_none_of_that_suit() -> None:
    checked = 0
    for seed in range(4):
        for preset, players in [("bashifen", 4), ("dabaifen", 4), ("zhaopengyou", 5)]:
            rules = sj_preset(preset, players=players) if players > 4 else sj_preset(preset)
            m = match_to_record(play_match(rules, seed, ["thrower"] * players, max_rounds=1))
            rnd = m.rounds[0]
            assert rnd.deal is not None and rnd.kitty is not None and rnd.discard is not None
            assert rnd.rank is not None and rnd.trump is not None and rnd.dealer is not None
            trump = None if rnd.trump == "nt" else "shdc".index(rnd.trump)
            order = make_order(level_rank(rnd.rank), trump)
            hands = [d.known for d in rnd.deal]
            hands[rnd.dealer] += rnd.kitty.known - rnd.discard.known
            for t, trick in enumerate(rnd.tricks):
                for e in range(5):
                    for s in shown_voids(order, rnd.tricks[:t], e):
                        assert not hands[s] & order.suit_mask[e], (seed, preset, t, e, s)
                        checked += 1
                for mv in trick.moves:
                    hands[mv.seat] -= mv.played
    assert checked > 200
