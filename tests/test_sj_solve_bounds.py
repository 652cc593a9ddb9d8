"""The Sheng ji solver's static bounds (zfrec.games.shengji.solve_bounds) against the plain
minimax: on random small positions, at leads and in the middle of tricks, the opponents' final
total under perfect play lies within the bounds the search starts a position from."""

from __future__ import annotations

import random

from tests.sj_solve_reference import TooBig, dealt_position, minimax, random_position
from zfrec.games.shengji.cards import format_hand
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import sj_preset
from zfrec.games.shengji.solve import SjBudget, _Search
from zfrec.games.shengji.solve_bounds import sure_points, trick_taker
from zfrec.games.shengji.trick import single_or_pair_keys

SEED = 20261128
POSITIONS = 400  # positions checked against the reference
STATES = 20_000  # the reference's budget of positions per draw


def _walk(rng: random.Random, state: RoundState) -> None:
    """A random number of random legal plays, the round left unfinished; half the time on to
    the next lead."""
    to_lead = rng.random() < 0.5
    for i in range(4 * 5):
        if i >= 3 and (state.lead is None if to_lead else rng.random() < 0.2):
            return
        state.play(state.turn, rng.choice(state.legal_plays()))
        if state.result is not None:
            state.undo()
            return


def _taken_by(state: RoundState, depth: int = 0) -> set[int]:
    """The sides (1 the declarers, 0 the opponents) that take the trick in play, over every
    legal way of finishing it."""
    if state.lead is None:
        winner = state.log[-1].trick_result.winner  # type: ignore[union-attr]
        return {state.declarers >> winner & 1}
    out: set[int] = set()
    for play in state.legal_plays():
        state.play(state.turn, play)
        try:
            out |= _taken_by(state, depth + 1)
        finally:
            state.undo()
    return out


def _position(rng: random.Random, i: int) -> RoundState:
    if i % 5 == 4:  # one deck, or five seats with the teams known
        five = i % 10 == 9
        rules = sj_preset("zhaopengyou", players=5) if five else sj_preset("dabaifen")
        return dealt_position(rng, rules, rng.choice((2, 3)))
    return random_position(rng, rng.choice((2, 3, 3, 4, 4, 5)))


def test_static_bounds_hold_against_the_plain_minimax() -> None:
    rng = random.Random(SEED)
    checked = mid_trick = narrowed = settled = sure = 0
    tries = 0
    while checked < POSITIONS:
        tries += 1
        assert tries < 5000, checked
        state = _position(rng, tries)
        _walk(rng, state)
        before = state.snapshot()
        search = _Search(state, SjBudget())
        base, top = search.frame()[:2]
        # the bound before the kitty's: any hand's largest unit, or the lead's, at its multiplier
        pairs = max(search.units.of(h) for h in state.hands)
        if lead := state.lead:
            pairs = max(pairs, lead.units[0].pairs)
        left = search.in_play - sum(state.won)
        narrowed += top < base + left + search.kitty_bound[pairs]
        try:
            value = minimax(state, STATES)
        except TooBig:
            continue
        assert state.snapshot() == before
        lead = state.lead
        assert base <= value <= top, (base, value, top)
        hands = [format_hand(h) for h in state.hands]
        if lead is not None and len(state.trick_plays) < state.n - 1 and not state.calls:
            opp, dec = sure_points(
                search.order, search.keys, state.trick_plays, lead, state.hands,
                state.declarers, state.turn,
            )  # fmt: skip
            assert base + opp <= value <= top - dec, (base, opp, value, top, dec, hands)
            sure += opp + dec > 0
        checked += 1
        mid_trick += state.lead is not None
        # the trick surely taken, checked against every way of finishing it
        if lead is not None and not state.calls and lead.kind in ("single", "pair"):
            assert state.order is not None
            side = trick_taker(
                state.order,
                single_or_pair_keys(state.order, lead.esuit),
                lead,
                state.trick_plays,
                state.hands,
                state.declarers,
            )
            if side:
                settled += 1
                assert _taken_by(state) == {1 if side < 0 else 0}
    print(mid_trick, settled, narrowed, sure)
    assert mid_trick >= 50 and settled >= 10 and narrowed >= 10 and sure >= 30
