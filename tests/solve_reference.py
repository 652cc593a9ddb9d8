"""A plain minimax for the solver's tests, sharing nothing with zfrec.games.zhengfen.solver.

It tries every physical play the move generator lists (every card set and every reading of it,
the movegen tests check those against the brute force) and the pass, applies each through
`HandState.play` (so each is verified again) and `pass_`, and takes the back-up values without
any pruning: no bounds, no symmetry, no move merging. The only saving is a memo keyed by the
complete state, which changes nothing about what is computed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from zfrec.games.zhengfen.engine.cards import format_cards
from zfrec.games.zhengfen.engine.combos import Combo
from zfrec.games.zhengfen.engine.game import HandState
from zfrec.games.zhengfen.engine.movegen import physical_plays
from zfrec.games.zhengfen.engine.rules import Ruleset


def exact_state(hs: HandState) -> tuple[object, ...]:
    """Every field of the hand that the rest of it can depend on, unabridged."""
    return (
        tuple(hs.hands),
        hs.turn,
        hs.top,
        hs.top_seat,
        hs.trick_cards,
        frozenset(hs.passed),
        hs.final_turn,
        tuple(hs.won),
        tuple(hs.out_order),
    )


PlayCache = dict[tuple[int, object], list[Combo]]


def options(hs: HandState, cache: PlayCache | None = None) -> list[Combo | None]:
    """Every physical play of the seat to act, then the pass when one is allowed."""
    seat = hs.turn
    hand, top = hs.hands[seat], hs.top
    key = (hand, None if top is None else top.key)
    plays = None if cache is None else cache.get(key)
    if plays is None:
        plays = physical_plays(hand, top, hs.rules)
        if cache is not None:
            cache[key] = plays
    found: list[Combo | None] = list(plays)
    if hs.can_pass(seat):
        found.append(None)
    return found


def apply(hs: HandState, option: Combo | None) -> None:
    """Make a move through the engine's checks: `play` verifies the cards and the reading."""
    seat = hs.turn
    if option is None:
        hs.pass_(seat)
    else:
        hs.play(seat, option.mask, option.declarations())


class TreeTooLarge(Exception):
    """The position has more distinct states than the reference may keep in memory."""


class Minimax:
    """Every seat's paranoid value at once: the full game tree, walked once.

    A seat's value at a node is the max over the children of its values there when it is the
    one to move, else the min. No pruning: every node below is visited (once, thanks to the memo
    on the complete state). The memo holds every state of the tree, several hundred bytes each,
    so a tree of more than `max_states` raises `TreeTooLarge` rather than filling the memory.
    """

    def __init__(self, max_states: int | None = None) -> None:
        self.memo: dict[tuple[object, ...], tuple[int, ...]] = {}
        self.plays: PlayCache = {}
        self.max_states = max_states

    def values(self, hs: HandState) -> tuple[int, ...]:
        if hs.result is not None:
            return hs.result.points
        key = exact_state(hs)
        known = self.memo.get(key)
        if known is not None:
            return known
        mover = hs.turn
        children = []
        for option in options(hs, self.plays):
            seat = hs.turn
            if option is None:
                hs.pass_(seat)
            else:
                hs.play_combo(seat, option)  # physical_plays are verified in test_movegen
            children.append(self.values(hs))
            hs.undo()
        value = tuple(
            (max if s == mover else min)(child[s] for child in children) for s in range(hs.n)
        )
        self.memo[key] = value
        if self.max_states is not None and len(self.memo) > self.max_states:
            raise TreeTooLarge(f"more than {self.max_states:,} states")
        return value

    def children(self, hs: HandState) -> list[tuple[Combo | None, tuple[int, ...]]]:
        """Each option of the seat to act with every seat's value after it."""
        out = []
        for option in options(hs, self.plays):
            apply(hs, option)
            out.append((option, self.values(hs)))
            hs.undo()
        return out


def paranoid_value(hs: HandState, seat: int) -> int:
    """The points `seat` ends the hand with when it maximises them and everyone else minimises."""
    return Minimax().values(hs)[seat]


@dataclass
class Position:
    """A small position: a deal, a leader and moves played from it (`None` passes)."""

    hands: list[int]
    leader: int
    rules: Ruleset
    moves: list[Combo | None] = field(default_factory=list)

    def state(self) -> HandState:
        hs = HandState(list(self.hands), self.leader, self.rules)
        for move in self.moves:
            apply(hs, move)
        return hs

    def describe(self) -> str:
        played = " ".join("-" if m is None else m.text() for m in self.moves)
        hands = " | ".join(format_cards(h) for h in self.hands)
        return f"{self.rules.describe()}: {hands}; leader {self.leader + 1}; moves {played}"


def random_prefix(hs: HandState, rng: random.Random, steps: int) -> list[Combo | None]:
    """Play up to `steps` random moves (passes about a third of the time) and return them."""
    made: list[Combo | None] = []
    for _ in range(steps):
        if hs.result is not None:
            break
        opts = options(hs)
        plays = [o for o in opts if o is not None]
        pick = None if (None in opts and (not plays or rng.random() < 0.35)) else rng.choice(plays)
        apply(hs, pick)
        made.append(pick)
    return made
