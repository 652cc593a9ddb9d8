"""Self-play Sheng ji matches: rounds from shuffled decks, played by bots through `RoundState`,
the levels carried from round to round (ruling 14), until a team wins the match.

Each round keeps its deck, its dealer and rank, the engine's event log and its result, so it
can be replayed and checked action by action (`replay_round`). `match_json_lines` writes a
match as JSON lines, one per round (`zfrec simulate --game shengji`).

    >>> from zfrec.games.shengji.rules import sj_preset
    >>> m = play_match(sj_preset(), seed=1, bots=["greedy"] * 4, max_rounds=3)
    >>> len(m.rounds), all(r.state.over for r in m.rounds)
    (3, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from zfrec.games.shengji.bots import BOTS, make_bot
from zfrec.games.shengji.events import (
    BidEvent,
    CallEvent,
    DrawEvent,
    ExchangeEvent,
    RoundEvent,
    SettleEvent,
    event_json,
)
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import SjRules, level_rank, level_text
from zfrec.games.shengji.scoring import raise_level

__all__ = [
    "BOT_NAMES",
    "MatchRecord",
    "RoundRecord",
    "apply_event",
    "match_json_lines",
    "play_match",
    "play_round",
    "replay_round",
]

BOT_NAMES = tuple(BOTS)


@dataclass(slots=True)
class RoundRecord:
    """One round of a match: its number, the deck in drawing order, the dealer known before
    the draw (None in round 1), the level played, the levels before and after, the state."""

    number: int
    deck: tuple[int, ...]
    dealer: int | None
    level: int
    levels_before: tuple[int, ...]
    levels_after: tuple[int, ...]
    state: RoundState


@dataclass(slots=True)
class MatchRecord:
    """A whole match: the rules, the seed, the bots and the rounds; `winners` the seats of
    the team that won (empty when the match was cut at `max_rounds`)."""

    rules: SjRules
    seed: int
    bots: tuple[str, ...]
    rounds: list[RoundRecord] = field(default_factory=list)
    winners: tuple[int, ...] = ()


def play_round(
    rules: SjRules,
    deck: Sequence[int],
    level: int,
    dealer: int | None,
    bots: Sequence[Any],
    rng: random.Random,
    undoable: bool = False,
) -> RoundState:
    """Play one round from `deck` with `bots` (one per seat) and return its final state."""
    state = RoundState.start(rules, deck, level_rank(level), dealer, undoable=undoable)
    for _ in range(state.to_draw):
        seat = state.turn
        event = state.draw(seat)
        if event.card >> 2 == state.rank or event.card >= 52:
            bid = bots[seat].bid(state, seat, rng)
            if bid is not None:
                state.bid(seat, bid)
    state.settle()
    d = state.dealer
    assert d is not None
    state.exchange(d, bots[d].discard(state, d, rng))
    if rules.friends:
        state.call(d, bots[d].calls(state, d, rng))
    while not state.over:
        seat = state.turn
        state.play_legal(seat, bots[seat].play(state, seat, rng))
    return state


def play_match(
    rules: SjRules, seed: int, bots: Sequence[str], max_rounds: int = 400
) -> MatchRecord:
    """A whole match of self-play; the same rules, seed and bots give the same match."""
    rng = random.Random(seed)
    players = [make_bot(b) for b in bots]
    match = MatchRecord(rules, seed, tuple(bots))
    levels = [2] * rules.players
    dealer: int | None = None
    for number in range(1, max_rounds + 1):
        deck = list(range(54)) * rules.decks
        rng.shuffle(deck)
        level = 2 if dealer is None else levels[dealer]
        before = tuple(levels)
        state = play_round(rules, deck, level, dealer, players, rng)
        result = state.result
        assert result is not None and state.dealer is not None
        won: set[int] = set()
        decl = result.declarers
        for s in range(rules.players):
            is_decl = bool(decl >> s & 1)
            steps = result.change.declarers if is_decl else result.change.opponents
            levels[s], wins = raise_level(levels[s], steps, rules.must_defend, is_decl)
            if wins:
                won.add(s)
        match.rounds.append(
            RoundRecord(number, tuple(deck), dealer, level, before, tuple(levels), state)
        )
        dealer = result.next_dealer
        if won:
            side = decl if min(won) in _seats(decl) else ~decl
            match.winners = tuple(s for s in range(rules.players) if side >> s & 1)
            break
    return match


def _seats(mask: int) -> list[int]:
    return [s for s in range(mask.bit_length()) if mask >> s & 1]


def apply_event(state: RoundState, event: RoundEvent) -> RoundEvent:
    """Make the action that gave `event` again, through the verifying action, and return the
    new event (equal to `event` when the state is the one it was made in)."""
    if isinstance(event, DrawEvent):
        return state.draw(event.seat)
    if isinstance(event, BidEvent):
        return state.bid(event.seat, event.cards)
    if isinstance(event, SettleEvent):
        return state.settle()
    if isinstance(event, ExchangeEvent):
        return state.exchange(event.seat, event.discard)
    if isinstance(event, CallEvent):
        return state.call(event.seat, event.calls)
    return state.play(event.seat, event.attempt)


def replay_round(
    rules: SjRules, deck: Sequence[int], level: int, dealer: int | None,
    log: Sequence[RoundEvent],
) -> RoundState:  # fmt: skip
    """Make every action of `log` again through the verifying actions of a fresh round, and
    check that each gives the same event; IllegalPlayError or AssertionError if not."""
    state = RoundState.start(rules, deck, level_rank(level), dealer)
    for event in log:
        again = apply_event(state, event)
        if again != event:
            raise AssertionError(f"the replay of {event} gave {again}")
    return state


def match_json_lines(match: MatchRecord, number: int = 1) -> Iterator[dict[str, Any]]:
    """The match as JSON values, one per round: seats 1-based, cards as text."""
    from zfrec.games.shengji.cards import format_cards

    for r in match.rounds:
        state = r.state
        assert state.result is not None and state.order is not None
        last = r is match.rounds[-1]
        yield {
            "match": number, "round": r.number, "preset": match.rules.preset,
            "options": match.rules.overrides(), "seed": match.seed, "bots": list(match.bots),
            "dealer": None if r.dealer is None else r.dealer + 1,
            "level": level_text(r.level), "trump": state.order.text,
            "levels_before": [level_text(v) for v in r.levels_before],
            "levels_after": [level_text(v) for v in r.levels_after],
            "deck": format_cards(r.deck),
            "events": [event_json(e) for e in state.log],
            "winners": [s + 1 for s in match.winners] if last and match.winners else None,
        }  # fmt: skip
