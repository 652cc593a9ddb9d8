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
from zfrec.errors import ZfrecError
from zfrec.games.zhengfen.engine.game import HandResult, HandState
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.numbering import occurrence_at, said_at
from zfrec.record.model import Game
from zfrec.replay import HandEnd, HandStart, MoveStep, replay


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
    occurrence: int = 1  # 2: the second hand the record numbers `hand_number` (hand-N-2.html)

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
    numbers = [h.number for h in game.hands]
    _known(start, said_at("hand", numbers, last))  # `hand 1 (2nd)` for the second hand 1
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
        occurrence=occurrence_at(numbers, last),
    )


@dataclass(frozen=True, slots=True)
class At:
    """A position named by the user (`zfrec solve --at`): in hand `hand` (as the record numbers
    its hands; None: the last hand), either the replay page's `step` (the position that step
    shows, after its move: step 0 is the deal) or the position before `turn` of `trick` is
    made (both 1-based, inferred passes counted, as the diagnostics count them).
    `occurrence` picks among hands the record writes with the same number: 2 is the second
    hand numbered `hand`, whose page is `hand-N-2.html` (zfrec.render.pagenames)."""

    hand: int | None = None
    step: int | None = None
    trick: int | None = None
    turn: int | None = None
    occurrence: int = 1


def position_at(game: Game, at: At, rules: Ruleset | None = None) -> tuple[RecordPosition, int]:
    """The position `at` names in `game`, and its step on the hand's replay page.

    Unlike `record_position`, nothing is undone: the position is the one the replay page shows
    at that step, inferred passes included. Raises PositionError, saying what there is, for a
    hand, step, trick or turn the record does not have, and when the hand's deal is not known.
    """
    if not game.hands:
        raise PositionError("the record has no hands: there is no position to solve")
    numbers = [h.number for h in game.hands]
    if at.hand is None:
        index = len(game.hands) - 1
    elif numbers.count(at.hand) >= at.occurrence:
        index = [i for i, n in enumerate(numbers) if n == at.hand][at.occurrence - 1]
    elif at.hand in numbers:
        raise PositionError(
            f"the game has {numbers.count(at.hand)} hand(s) numbered {at.hand}, not {at.occurrence}"
        )
    else:
        distinct = sorted(set(numbers))  # the record's order may repeat a number (ZF406)
        have = (
            f"its hands are {_span([distinct[0], distinct[-1]])}"
            if len(distinct) > 1
            else f"its {len(numbers)} hands are all numbered {numbers[0]}"
            if len(numbers) > 1
            else f"its only hand is hand {numbers[0]}"
        )
        raise PositionError(f"the game has no hand {at.hand}: {have}")
    number = game.hands[index].number
    said = said_at("hand", numbers, index)  # `hand 1 (2nd)` for the second hand 1
    found: list[Diagnostic] = []
    state: HandState | None = None
    start: HandStart | None = None
    moves = 0  # actions of the hand so far: the page's step of the state after the last
    turns: dict[int, int] = {}  # trick -> its last turn in the record
    for replay_state, event in replay(game, rules):
        found.extend(event.diagnostics)
        if isinstance(event, HandStart) and event.hand_index == index:
            start, state = event, replay_state.hand
            _known(event, said)
            if at.step == 0:
                break
        elif isinstance(event, MoveStep) and event.hand_index == index:
            if (event.trick_index, event.turn) == (at.trick, at.turn):
                assert state is not None
                if event.event is not None:
                    state.undo()  # the position before the move
                break
            moves += 1
            turns[event.trick_index] = event.turn
            if at.step == moves:
                break
        elif isinstance(event, HandEnd) and event.hand_index == index:
            last = moves + (2 if event.result is not None else 1)  # the transfer, the result
            if at.step is not None and at.step <= last:
                break
            if at.step is not None:
                raise PositionError(
                    f"{said} has steps 0 to {last} (its replay page's #step=), not {at.step}"
                )
            raise PositionError(_no_turn(said, at, turns))
    if start is None or state is None:  # pragma: no cover - the replay starts every hand
        raise PositionError(f"the replay did not reach {said}")
    step = moves if at.step is None else at.step
    position = RecordPosition(
        game=game, hand_number=number, state=state, reconstructed=start.reconstructed,
        diagnostics=tuple(found), rules=rules or game.ruleset(),
        occurrence=occurrence_at(numbers, index),
    )  # fmt: skip
    return position, step


def _known(start: HandStart, said: str) -> None:
    """PositionError when the deal of the hand (`said`: `hand 1 (2nd)`) is not known."""
    if not all(start.known) or any(d.code == "ZF305" for d in start.diagnostics):
        raise PositionError(
            f"the deal of {said} is not known: cards never played could lie in "
            "more than one hand. Record the deal (or the missing cards) to solve it"
        )


def _span(values: list[int]) -> str:
    return f"{values[0]} to {values[-1]}" if len(values) > 1 else str(values[0])


def _no_turn(said: str, at: At, turns: dict[int, int]) -> str:
    where = f"{said} has no trick {at.trick}, turn {at.turn} in the record"
    if at.trick in turns:
        return f"{where}: trick {at.trick} has turns 1 to {turns[at.trick]}"
    if turns:
        return f"{where}: its tricks are {_span(sorted(turns))}"
    return f"{where}: it has no moves"
