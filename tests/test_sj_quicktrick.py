"""The whole-trick fast path (zfrec.games.shengji.quicktrick, `RoundState.take_trick`) against
the engine's play-by-play judge (`RoundState.play`, `verify_play`), on many positions from
random play: legal tricks, throws and illegal follows. The fast path may leave a trick to the
judge, but a trick it makes must be legal, and leave the same state, log and events as the
plays made one by one; and it makes every legal trick led by one unit."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from zfrec.games.shengji.cards import card_ids, distinct, from_ids, one, size
from zfrec.games.shengji.events import PlayEvent
from zfrec.games.shengji.follow import legal_follows
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.order import TRUMP, make_order
from zfrec.games.shengji.quicktrick import proven_trick
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import SjRules, sj_preset
from zfrec.record import loads
from zfrec.validate import validate

PRESETS = [sj_preset(), sj_preset("dabaifen"), sj_preset("zhaopengyou", players=5)]


def _deal(rules: SjRules, rng: random.Random) -> list[int]:
    deck = list(range(54)) * rules.decks
    rng.shuffle(deck)
    n, k = rules.players, rules.hand_size
    return [from_ids(deck[s * k : (s + 1) * k]) for s in range(n)]


def _random_lead(state: RoundState, rng: random.Random) -> int:
    """A lead of one suit of the seat to act: often a single or a pair, sometimes any subset
    (a tractor or a throw)."""
    order = state.order
    assert order is not None
    hand = state.hands[state.turn]
    suits = [e for e in (0, 1, 2, 3, TRUMP) if hand & order.suit_mask[e]]
    held = hand & order.suit_mask[rng.choice(suits)]
    ids = card_ids(held)
    roll = rng.random()
    if roll < 0.5:
        return one(rng.choice(ids))
    pairs = [c for c in distinct(held) if held >> (c << 1) & 3 >= 2]
    if roll < 0.8 and pairs:
        return 2 * one(rng.choice(pairs))
    picked = [c for c in ids if rng.random() < 0.4] or ids[:1]
    return from_ids(picked)


def _random_follow(state: RoundState, n: int, rng: random.Random) -> int:
    """A legal follow most of the time, else any `n` cards of the hand (legal or not)."""
    hand = state.hands[state.turn]
    if rng.random() < 0.75:
        follows = []
        for f in legal_follows(state.order, state.lead, hand):  # type: ignore[arg-type]
            follows.append(f)
            if len(follows) >= 50:
                break
        return rng.choice(follows)
    return from_ids(rng.sample(card_ids(hand), n))


def _same_start(state: RoundState) -> tuple[RoundState, RoundState]:
    """Two copies of the state at a trick's start: one for each way of making the trick."""
    assert state.order is not None and state.dealer is not None
    return tuple(  # type: ignore[return-value]
        RoundState.from_hands(
            list(state.hands), state.order, state.dealer, state.rules,
            declarers=state.declarers, kitty=state.kitty, undoable=False, calls=state.calls,
        )
        for _ in range(2)
    )  # fmt: skip


def _positions(seed: int) -> list[tuple[RoundState, list[tuple[int, int]]]]:
    """(state at a trick's start, the trick's plays) for the tricks of random rounds; the
    plays may be illegal, and the round goes on from each trick by its legal version."""
    rng = random.Random(seed)
    rules = PRESETS[seed % len(PRESETS)]
    order = make_order(rng.randrange(13), rng.choice([0, 1, 2, 3, None]))
    leader = rng.randrange(rules.players)
    calls = [(rng.randrange(54), rng.randint(1, 2))] if rules.friends else []
    state = RoundState.from_hands(
        _deal(rules, rng), order, leader, rules, undoable=False, calls=calls
    )
    out = []
    while not state.over:
        start = _same_start(state)[0]
        start.turn, start.trick, start.won = state.turn, state.trick, state.won
        start.seen, start.declarers = state.seen, state.declarers
        plays: list[tuple[int, int]] = []
        for i in range(state.n):
            seat = state.turn
            if i == 0:
                cards = _random_lead(state, rng)
            else:
                cards = _random_follow(state, state.lead.size, rng)  # type: ignore[union-attr]
            plays.append((seat, cards))
            if not state.can_play(seat, cards):  # the round goes on by a legal play
                cards = next(iter(state.legal_plays()))
            state.play(seat, cards)
        out.append((start, plays))
    return out


def _copy(start: RoundState) -> RoundState:
    twin = _same_start(start)[0]
    twin.turn, twin.trick, twin.won = start.turn, start.trick, start.won
    twin.seen, twin.declarers, twin.penalties = start.seen, start.declarers, start.penalties
    return twin


@pytest.mark.parametrize("seed", range(24))
def test_take_trick_agrees_with_the_play_by_play_judge(seed: int) -> None:
    made = judged = 0
    for start, plays in _positions(seed):
        slow, fast = _copy(start), _copy(start)
        legal, events = True, []
        for seat, cards in plays:
            if not slow.can_play(seat, cards):
                legal = False
                break
            events.append(slow.play(seat, cards))
        one_unit = len(classify(start.order, plays[0][1]).units) == 1 if legal else False  # type: ignore[arg-type]
        got = fast.take_trick(plays)
        judged += 1
        if got is None:
            assert not (legal and one_unit), (seed, plays)  # every legal one-unit trick is made
            assert fast.snapshot() == _copy(start).snapshot() and not fast.log  # nothing changed
            continue
        made += 1
        assert legal and one_unit, (seed, plays)
        assert got == events and fast.log == slow.log
        assert fast.snapshot() == slow.snapshot()
        assert all(isinstance(e, PlayEvent) for e in got)
    assert made and made < judged  # both kinds of trick were met


def test_proven_trick_answers_for_the_trick_as_a_whole() -> None:
    order = make_order(4, 3)  # rank 7, clubs trump
    hands = [from_ids([c, c + 4]) for c in (20, 24, 28, 32)]  # two cards each
    plays = [(0, one(20)), (1, one(24)), (2, one(28)), (3, one(32))]
    assert proven_trick(order, hands, 0, plays) is not None
    assert proven_trick(order, hands, 1, plays) is None  # the leader out of turn
    assert proven_trick(order, hands, 0, plays[:3]) is None  # a seat missing
    assert proven_trick(order, hands, 0, [*plays[:3], (3, one(20))]) is None  # not held
    assert size(hands[0]) == 2


@pytest.mark.parametrize(
    ("written", "code"),
    [
        # an extra play written as a failed throw: the trick has five plays
        ("1: Jc Jc  2: 5c Tc  3: 6c Tc forced 6c by 1  3: 6c Tc  4: 8c 9c", "SJ206"),
        # a follow written as a failed throw
        ("1: Jc Jc  2: 5c Tc forced 5c by 3  3: 6c Tc  4: 8c 9c", "SJ104"),
    ],
)
def test_a_written_failed_throw_is_judged_play_by_play(written: str, code: str) -> None:
    """The whole-trick path leaves a trick with a failed throw written in it to the
    play-by-play judge, which counts the plays with it and says what is wrong."""
    sample = Path(__file__).resolve().parent.parent / "sample_games/shengji/01-bashifen-match.zfn"
    text = sample.read_text("utf-8")
    first = "1: Jc Jc  2: 5c Tc  3: 6c Tc  4: 8c 9c"
    assert first in text
    [game] = loads(text.replace(first, written, 1))
    report = validate(game)
    assert [d.code for d in report.diagnostics if d.severity == "error"] == [code]
