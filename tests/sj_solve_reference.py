"""A plain minimax for the Sheng ji solver's tests, sharing nothing with
zfrec.games.shengji.solve.

It tries every play the engine lists (`RoundState.legal_plays`: every multiset of one suit as a
lead, throws that fail included, and every legal follow), makes each through `RoundState.play`
(so each is verified again) and backs up the opponents' final total with no pruning, no
bounds, no merging of cards or plays. The only saving is a memo keyed by the complete state
(`RoundState.snapshot()`: hands, trick, points won, penalties, everything an action may
change), which changes nothing about what is computed. It counts the positions it stores and
gives up past `budget` (`TooBig`), so a random draw that is too large for it costs a bounded
time and memory.
"""

from __future__ import annotations

import random

from zfrec.games.shengji.cards import from_ids
from zfrec.games.shengji.order import make_order
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import SjRules, sj_preset


class TooBig(Exception):
    """The position needs more than the budget of positions."""


def minimax(state: RoundState, budget: int) -> int:
    """The opponents' total when they maximise it and the declarers minimise it."""
    memo: dict[tuple[object, ...], int] = {}
    start = len(state.log)

    def value() -> int:
        if state.result is not None:
            return state.result.total
        key = state.snapshot()
        known = memo.get(key)
        if known is not None:
            return known
        if len(memo) >= budget:
            raise TooBig
        seat = state.turn
        maximise = not state.declarers >> seat & 1
        values = []
        for play in state.legal_plays():
            state.play(seat, play)
            values.append(value())
            state.undo()
        memo[key] = found = max(values) if maximise else min(values)
        return found

    try:
        return value()
    finally:
        while len(state.log) > start:  # after TooBig: the plays still made
            state.undo()


def random_position(rng: random.Random, per_seat: int, rules: SjRules | None = None) -> RoundState:
    """A random position of `per_seat` cards a seat from two decks, a random trump and leader,
    a kitty of 8 cards, and sometimes a few plays of the first trick made at random."""
    rules = rules or sj_preset(throw_penalty=rng.choice((0, 0, 10)))
    deck = list(range(54)) * rules.decks
    # a narrow deck makes pairs, tractors and throws common in small hands
    suits = rng.sample(range(4), rng.choice((1, 2, 3)))
    narrow = [c for c in deck if c >= 52 or c & 3 in suits]
    pool = narrow if len(narrow) >= 4 * per_seat + 8 and rng.random() < 0.6 else deck
    rng.shuffle(pool)
    hands = [from_ids(pool[i * per_seat : (i + 1) * per_seat]) for i in range(4)]
    kitty = from_ids(pool[4 * per_seat : 4 * per_seat + 8])
    order = make_order(rng.randrange(13), rng.choice((None, 0, 1, 2, 3)))
    leader = rng.randrange(4)
    state = RoundState.from_hands(hands, order, leader, rules, kitty=kitty)
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        plays = state.legal_plays()
        state.play(state.turn, rng.choice(plays))
    return state


def dealt_position(rng: random.Random, rules: SjRules, per_seat: int) -> RoundState:
    """A random deal of `per_seat` cards to each of `rules.players` seats from `rules.decks`
    decks, a random trump and leader, the kitty from the rest; the declarers are the leader
    and, with five seats (zhao pengyou with the teams known), the seat two after it."""
    n = rules.players
    deck = list(range(54)) * rules.decks
    rng.shuffle(deck)
    hands = [from_ids(deck[s * per_seat : (s + 1) * per_seat]) for s in range(n)]
    kitty = from_ids(deck[n * per_seat : n * per_seat + rules.kitty])
    order = make_order(rng.randrange(13), rng.choice((None, 0, 1, 2, 3)))
    leader = rng.randrange(n)
    declarers = 1 << leader | (1 << (leader + 2) % n if n == 5 else 0)
    return RoundState.from_hands(hands, order, leader, rules, declarers=declarers, kitty=kitty)
