"""The Sheng ji solver's table key (`solve_keys.lead_key`): lead positions with one key have one
value under the plain minimax."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

import pytest

from tests.sj_solve_reference import TooBig, minimax, random_position
from zfrec.games.shengji.cards import format_hand, parse_hand
from zfrec.games.shengji.order import Order, order_for
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.solve import team_points
from zfrec.games.shengji.solve_keys import lead_key

SEED = 20261128
STATES = 20_000  # the reference's budget of positions for one lead

Key = Callable[[Order, Sequence[int]], object]


def _leads_after_a_trick(state: RoundState) -> Iterator[None]:
    """Every way to play on to the end of the trick in play (a whole trick from a lead): the
    state stands at each next lead in turn while the iterator is suspended."""
    start = len(state.trick_plays) if state.lead is not None else 0
    n = state.n

    def walk(done: int) -> Iterator[None]:
        if state.lead is None and done:
            yield
            return
        for play in state.legal_plays():
            state.play(state.turn, play)
            try:
                yield from walk(done + 1)
            finally:
                state.undo()

    assert start < n
    yield from walk(0)


def same_key_same_value(rng: random.Random, key: Key, positions: int) -> tuple[int, str]:
    """Draw `positions` random positions, play every way to the next lead, and group those
    leads by `key` (with the seat to move and the declarers): every group must have one value
    of the points still to come. The leads that shared a key with other hands, and the first
    disagreement ('' when none)."""
    shared = 0
    for _ in range(positions):
        state = random_position(rng, rng.choice((3, 4)))
        assert state.order is not None
        groups: dict[object, dict[tuple[int, ...], int]] = {}
        for _ in _leads_after_a_trick(state):
            if state.result is not None:
                continue
            try:
                to_come = minimax(state, STATES) - team_points(state)[0]
            except TooBig:
                continue
            k = (key(state.order, state.hands), state.turn, state.declarers)
            groups.setdefault(k, {})[tuple(state.hands)] = to_come
        for group in groups.values():
            if len(group) > 1:
                shared += len(group)
                if len(set(group.values())) > 1:
                    seen = [f"{' / '.join(map(format_hand, h))}: {v}" for h, v in group.items()]
                    return shared, f"{state.order.text}: " + "; ".join(seen)
    return shared, ""


def _key(order: Order, hands: Sequence[int]) -> object:
    return lead_key(order, hands, {})


@pytest.mark.slow
def test_positions_with_one_key_have_one_value() -> None:
    shared, wrong = same_key_same_value(random.Random(SEED), _key, 60)
    assert not wrong, wrong
    assert shared >= 300, shared  # enough leads met another's key to tell


def test_a_key_that_forgets_points_is_caught() -> None:
    # the same check with a key that forgets the cards' points: it must find leads of one
    # key and two values (the check can fail)
    def pointless(order: Order, hands: Sequence[int]) -> object:
        # a level of one card: each hand's copies, its points in fives, its flag (`suit_key`)
        return tuple(
            tuple(
                (x >> 2) // 3 << 2 | x & 3 if isinstance(x, int) and i else x
                for i, x in enumerate(part)
            )
            for part in lead_key(order, hands, {})
            if isinstance(part, tuple)
        )

    _, wrong = same_key_same_value(random.Random(SEED), pointless, 20)
    assert wrong


def test_the_key_keeps_tractors_and_forgets_played_levels() -> None:
    o = order_for("2s")

    def key(*hands: str) -> object:
        return lead_key(o, [parse_hand(h) for h in hands], {})

    rest = ("5c 6c 6c 3h", "7c 8c 9c 3h")
    assert key("Kd Kd 9d 9d", "Ad 8d 3c 4c", *rest) == key("Kd Kd 8d 8d", "Ad 7d 3c 4c", *rest)
    assert key("Kd Kd 9d 9d", "Ad 8d 3c 4c", *rest) != key("Kd Kd Qd Qd", "Ad 7d 3c 4c", *rest)
    # two off-suit rank cards in trump: one card twice can pair, two cards cannot
    t = order_for("7c")
    one = lead_key(t, [parse_hand(h) for h in ("7h 7h", "7d 3c", "4s 5s", "6s 8s")], {})
    two = lead_key(t, [parse_hand(h) for h in ("7h 7d", "7h 3c", "4s 5s", "6s 8s")], {})
    other = lead_key(t, [parse_hand(h) for h in ("7s 7s", "7h 3c", "4s 5s", "6s 8s")], {})
    assert one != two and one == other


def test_two_pairs_adjacent_or_not_differ_in_key_and_value() -> None:
    # the opponent to lead throws both pairs at the last trick: a tractor (QQJJ) doubles the
    # kitty's multiplier over two pairs (QQ99, the levels between played): so the key keeps
    # whether the pairs' levels are adjacent
    o = order_for("2s")
    rest = [parse_hand(h) for h in ("3c 4c 6c 7c", "3h 4h 6h 7h", "8c 9c Jc Qc")]
    kitty = parse_hand("Kc Kc Kh Kh 5h 5h 3d 4d")
    values, keys = [], []
    for mine in ("Qd Qd Jd Jd", "Qd Qd 9d 9d"):
        hands = [parse_hand(mine), *rest]
        state = RoundState.from_hands(hands, o, 0, declarers=0b1010, kitty=kitty)
        values.append(minimax(state, 400_000))
        keys.append(lead_key(o, hands, {}))
    assert values[0] > values[1] > 0
    assert keys[0] != keys[1]
    # and only by that: the same key with the adjacency forgotten
    flat = [tuple(tuple(x & ~3 if isinstance(x, int) and i else x for i, x in enumerate(p))
                  for p in k if isinstance(p, tuple)) for k in keys]  # fmt: skip
    assert flat[0] == flat[1]
