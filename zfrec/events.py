"""The replay's events (zfrec.replay), and the visitor protocol of `walk`.

`replay(game)` yields `(state, event)` pairs: `HandStart`, `MoveStep`, `HandEnd`, `GameEnd`.
Each carries the diagnostics found at that point. `state` (`ReplayState`) is the engine's own
live state after the event; what a move was made from travels in the `MoveStep` itself.

The fields of a `MoveStep` (one per action, inferred passes included):

- `hand_index`, `trick_index`: the hand (0-based into `game.hands`) and the written trick
  (1-based, the record's trick line).
- `move_index`: the move's 0-based position in its written trick (`trick.moves[move_index]`);
  for an inferred pass, the number of written moves before it (where it would be written).
- `move`: the record's `Move`; for an inferred pass a new `Move.passes(seat)` made by the
  replay, with `inferred` True. `written` is the move when
  it is written, None when it is inferred.
- `seat`: who moved. `to_act`: whose turn it was before the move (differs from `seat` for a
  move out of turn; None once the hand was over).
- `turn`: the action's number within its trick, 1-based, as in the diagnostics.
- `held`: the mover's cards before the move, where known: None for a seat that is no seat and
  for a seat whose dealt hand the replay had to guess (`HandStart.known`, ZF305).
- `top`, `top_seat`: the play to beat before the move and who made it (None on a lead);
  `trick_cards`: the cards on the table before the move.
- `event`: the engine's `PlayEvent` or `PassEvent`, None when the move could not be applied.
- `diagnostics`: what was found at this move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from zfrec.diagnostics import Diagnostic
from zfrec.errors import placing
from zfrec.games.zhengfen.engine.combos import Combo
from zfrec.games.zhengfen.engine.game import Event, GameState, HandResult, HandState
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.games.zhengfen.engine.seats import Seat
from zfrec.record.model import Game, Move

__all__ = [
    "GameEnd",
    "HandEnd",
    "HandStart",
    "MoveStep",
    "ReplayEvent",
    "ReplayState",
    "ReplayVisitor",
    "walk",
]


@dataclass(slots=True)
class ReplayState:
    """Where the replay is: the record, the game so far and the hand in progress (live)."""

    record: Game
    game: GameState
    hand: HandState | None = None
    hand_index: int = -1  # index into record.hands
    # Every diagnostic handed out so far, in the order of the events that carried them.
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class HandStart:
    """A hand starts: its deal (as recorded, or rebuilt from the plays) and who leads."""

    hand_index: int
    number: int
    deal: tuple[int, ...]  # the hands as dealt (reconstructed where the record lacks them)
    reconstructed: bool
    shuffler: Seat | None
    first_drawer: Seat | None
    leader: Seat
    diagnostics: tuple[Diagnostic, ...] = ()
    # Whose dealt hand is known exactly: False only for the seats among which a rebuilt deal
    # had to place cards nobody played in an order of its own (ZF305).
    known: tuple[bool, ...] = ()


class MoveStep(NamedTuple):
    """One action applied to the hand, with the state before it (see the module docstring)."""

    hand_index: int
    trick_index: int  # 1-based trick of the record
    move_index: int  # 0-based position in the written trick (inferred: written moves before)
    move: Move  # the written move, or a pass made by the replay for an inferred one
    inferred: bool
    seat: Seat
    to_act: Seat | None  # whose turn it was; None when the hand was over
    turn: int  # the action's number in its trick, 1-based
    held: int | None  # the mover's cards before the move, where known
    top: Combo | None
    top_seat: Seat | None
    trick_cards: int
    event: Event | None  # None when the move could not be applied at all
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def written(self) -> Move | None:
        """The move as written in the record; None for an inferred pass."""
        return None if self.inferred else self.move


@dataclass(frozen=True, slots=True)
class HandEnd:
    """A hand ends (or the record stops in it): its result and the running totals."""

    hand_index: int
    result: HandResult | None  # None when the record stops before the hand ends
    totals: tuple[int, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    moves: int = 0  # actions applied in the hand, inferred passes included


@dataclass(frozen=True, slots=True)
class GameEnd:
    """The record is over: final scores, and the winners once a score reached the target."""

    scores: tuple[int, ...]
    winners: tuple[Seat, ...]  # empty when no score reached the target
    over: bool
    diagnostics: tuple[Diagnostic, ...] = ()


ReplayEvent = HandStart | MoveStep | HandEnd | GameEnd


class ReplayVisitor:
    """A consumer of the replay for `walk`: override the methods you need; the rest do nothing.

    Each method gets the live state (after the event) and the event. A `MoveStep` carries
    the state before its move, as a visitor of a game's moves expects.
    """

    __slots__ = ()

    def visit_hand_start(self, state: ReplayState, event: HandStart) -> None:
        """A hand starts."""

    def visit_move(self, state: ReplayState, step: MoveStep) -> None:
        """An action: a recorded move or an inferred pass."""

    def visit_hand_end(self, state: ReplayState, event: HandEnd) -> None:
        """A hand ends, or the record stops in it."""

    def visit_game_end(self, state: ReplayState, event: GameEnd) -> None:
        """The record is over."""


def walk(
    record: Game,
    visitors: Iterable[Any],
    rules: Ruleset | None = None,
    game_number: int | None = None,
) -> GameEnd:
    """Replay `record` once and give every event to each visitor in turn; returns the GameEnd.

    A visitor is any object with some of ReplayVisitor's methods (subclassing it is optional).

    >>> import zfrec
    >>> class Passes(ReplayVisitor):
    ...     count = 0
    ...     def visit_move(self, state, step):
    ...         self.count += step.move.is_pass
    >>> from zfrec.replay import SAMPLE
    >>> passes, game = Passes(), zfrec.loads(SAMPLE)[0]
    >>> walk(game, [passes]).over, passes.count
    (False, 5)
    """
    from zfrec.replay import replay  # the replay imports these events

    names = ("visit_hand_start", "visit_move", "visit_hand_end", "visit_game_end")
    calls: list[list[Any]] = [[], [], [], []]
    for visitor in visitors:
        for kind, name in enumerate(names):
            method = getattr(visitor, name, None)
            if method is None or getattr(type(visitor), name, None) is getattr(ReplayVisitor, name):
                continue  # not there, or the base class's nothing
            calls[kind].append(method)
    starts, moves, ends, game_ends = calls
    end: GameEnd | None = None
    # Without a visitor of moves, the replay yields none (the validator alone reads no moves).
    hand: int | None = None  # the number of the hand whose events the visitors are given
    try:
        for state, event in replay(record, rules, game_number, moves=bool(moves)):
            if type(event) is MoveStep:
                for call in moves:
                    call(state, event)
            elif isinstance(event, HandStart):
                hand = record.hands[event.hand_index].number
                for call in starts:
                    call(state, event)
            elif isinstance(event, HandEnd):
                for call in ends:
                    call(state, event)
            elif isinstance(event, GameEnd):
                end, hand = event, None
                for call in game_ends:
                    call(state, event)
    except Exception:  # a visitor's: the hand it was given, for an internal error's report
        with placing(hand=hand, unit=None if hand is None else "hand"):
            raise
    assert end is not None
    return end
