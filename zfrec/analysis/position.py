"""The position where a record stops: the hand in progress, ready for the solver.

A record that stops in the middle of a hand (RULINGS 25) leaves a position: every seat's cards,
the trick in progress, whose turn it is, who is out and the points taken so far. The replay
(`zfrec.replay`) reaches it; this module takes the replay's live `HandState` at the end of the
record, with one correction: the replay closes each written trick line by inferring the passes
the record left out, but after the last recorded move of an unfinished hand nothing is inferred.
The trick in progress stays open where the record stops, including, under `self_overplay`, the
top player's choice between taking the trick and beating their own play.
"""

from __future__ import annotations

from dataclasses import dataclass

from zfrec.diagnostics import Diagnostic
from zfrec.engine.game import HandResult, HandState
from zfrec.engine.rules import Ruleset
from zfrec.errors import ZfrecError
from zfrec.record.model import Game
from zfrec.replay import HandStart, MoveStep, replay


class PositionError(ZfrecError):
    """The record holds no position the solver can use (no hands, or the deal is not known)."""


@dataclass(slots=True)
class RecordPosition:
    """Where a record stops.

    `state` is the engine's live state of the record's last hand (the solver searches it in
    place and gives it back unchanged). `finished` says the hand is over (then `state.result` is
    its result and there is nothing to solve). `diagnostics` are everything the replay found in
    the game, so callers can warn when the record fails validation.
    """

    game: Game
    hand_number: int  # as the record numbers its hands
    state: HandState
    reconstructed: bool  # the deal was rebuilt from the plays
    diagnostics: tuple[Diagnostic, ...]
    rules: Ruleset

    @property
    def finished(self) -> bool:
        return self.state.result is not None

    @property
    def result(self) -> HandResult | None:
        return self.state.result

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def trick(self) -> int:
        """The trick in progress (or the next to be led), 1-based, as the engine counts it."""
        return self.state.trick


def record_position(game: Game, rules: Ruleset | None = None) -> RecordPosition:
    """The position where `game`'s record stops, judged under its own rules or `rules`.

    Raises PositionError when the record has no hand, or when the deal of its last hand is not
    known: not recorded in full and not rebuilt without doubt from the plays (diagnostic ZF305).
    """
    if not game.hands:
        raise PositionError("the record has no hands: there is no position to solve")
    last = len(game.hands) - 1
    found: list[Diagnostic] = []
    start: HandStart | None = None
    state: HandState | None = None
    trailing = 0  # passes the replay inferred after the last recorded move of the last hand
    for replay_state, event in replay(game, rules):
        found.extend(event.diagnostics)
        if isinstance(event, HandStart) and event.hand_index == last:
            start = event
            state = replay_state.hand
        elif isinstance(event, MoveStep) and event.hand_index == last:
            if not event.inferred:
                trailing = 0
            elif event.event is not None:
                trailing += 1
    if start is None or state is None:  # pragma: no cover - the replay starts every hand
        raise PositionError("the replay did not reach the last hand")
    hand = game.hands[last]
    if not all(start.known) or any(d.code == "ZF305" for d in start.diagnostics):
        raise PositionError(
            f"the deal of hand {hand.number} is not known: cards never played could lie in more "
            "than one hand. Record the deal (or the missing cards) to solve it"
        )
    # A score line closes the hand (RULINGS 24): then the inferred passes are the record's own.
    if hand.score is None:
        for _ in range(trailing):
            state.undo()
    return RecordPosition(
        game=game,
        hand_number=hand.number,
        state=state,
        reconstructed=start.reconstructed,
        diagnostics=tuple(found),
        rules=rules or game.ruleset(),
    )
