"""replay(record): the one path from a record through the rules engine.

`replay(game)` yields `(state, event)` pairs: a hand starts (`HandStart`), a move is made
(`MoveStep`: a recorded move, or a pass the record leaves out), a hand ends (`HandEnd`), the
game ends (`GameEnd`). Each event carries the diagnostics found at that point. The validator,
store, renderer and analyser all consume this stream; none of them re-implements a rule, and
neither does the replay: the engine (zfrec.games.zhengfen.engine.game) judges every action, and the
replay routes its errors into located diagnostics. After an illegal move the replay goes on from the
recorded state through the engine's recovery methods (`HandState.force_play`, `force_pass`,
`GameState.open_hand`), so one run reports every problem.

`walk(game, visitors)` runs one replay and hands each event to every visitor
(`ReplayVisitor`: `visit_hand_start`, `visit_move`, `visit_hand_end`, `visit_game_end`), so one
pass feeds the validator, a page and an analysis together.

    >>> import zfrec
    >>> game = zfrec.loads(SAMPLE)[0]
    >>> for state, event in replay(game):
    ...     if isinstance(event, MoveStep) and event.trick_index == 1:
    ...         print(f"{event.seat}:", event.move.play_text(), *["(inferred)"] * event.inferred)
    1: 3h
    2: pass (inferred)
    3: 5s
    1: pass
    2: pass

`state` is live and mutable (it is the engine's own state, never copied per step): read what
you need from it before asking for the next event. It is the state *after* the event; what a
move was made from travels in the `MoveStep` itself.

Seats in these events are `Seat`s (zfrec.games.zhengfen.engine.seats): ints holding the 0-based
index, so they index `game.players`, shown as the record's 1-based number. Card sets are the
engine's masks (zfrec.games.zhengfen.engine.cards: `format_cards`, `ids`).

The events and the visitor protocol are in zfrec.events (re-exported here), with what each
field of a `MoveStep` means. Each kind replays its own records (its `GameKind.replay`): Zheng
Fen's replayer is zfrec.games.zhengfen.replayer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from zfrec.events import (
    GameEnd,
    HandEnd,
    HandStart,
    MoveStep,
    ReplayEvent,
    ReplayState,
    ReplayVisitor,
    walk,
)
from zfrec.games import find_kind
from zfrec.record.model import Game

if TYPE_CHECKING:
    # typing only: the default kind's rules and state, which the stream's events carry
    from zfrec.games.zhengfen.engine.game import GameState
    from zfrec.games.zhengfen.engine.rules import Ruleset

__all__ = [
    "GameEnd",
    "HandEnd",
    "HandStart",
    "MoveStep",
    "ReplayEvent",
    "ReplayState",
    "ReplayVisitor",
    "replay",
    "walk",
]


SAMPLE = """[Players "Ann, Bo, Cy"]

hand 1
deal 1: 3h 3s 3d 4h 5s 5h 5d 6h 7h 8h 9s 9h 9d Th Jh Ks Kd SJ
deal 2: 4s 4d 6s 6d 7s 7d 8s 8d Ts Td Js Jd Qs Qh Qd As Ah BJ
deal 3: 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kh Kc Ad Ac 2s 2h 2d 2c
1: 3h  3: 5s  1: -  2: -
3: 6c  1: 7h
"""


def replay(
    record: Game,
    rules: Ruleset | None = None,
    game_number: int | None = None,
    *,
    start: tuple[int, GameState] | None = None,
    moves: bool = True,
) -> Iterator[tuple[ReplayState, ReplayEvent]]:
    """Replay a record under its own rules, or under `rules` to re-judge it.

    `game_number` is the game's number in its file, for the diagnostics' locations. `start`
    (hand index, the game's state before that hand) replays from that hand on, the earlier
    hands taken as they were: a repair search judges an edited hand without replaying the
    hands before it. The state is copied. Start only where the game was not over before the
    hand before it (a hand after the end is reported once, at the first such hand).

    With `moves` False no `MoveStep` is yielded (a consumer that reads only the hands and the
    diagnostics, as the validator does, is spared one event per action): what is found at the
    moves comes with the hand's `HandEnd` instead, in the same order, and the hands keep no
    undo record (`HandState.undoable`).

    The record's kind (zfrec.games) replays it; Zheng Fen's replayer is
    zfrec.games.zhengfen.replayer.replay_zhengfen.
    """
    return find_kind(record.kind).replay(
        record, rules=rules, game_number=game_number, start=start, moves=moves
    )
