"""Perft: count every sequence of actions a hand can take, through the state machine.

From a fixed position, `perft` makes every legal action of the seat to act (each physical play,
one per card set and reading, as `movegen.physical_plays` lists them, and the pass where it is
allowed), recurses, and takes the action back with `HandState.undo`: no state is ever copied.
The counts exercise everything the hand's rules do: trick ends (R6), going out and the lead
passing on (R8), the last holder's one turn (R9), beating one's own play (R7, `self_overplay`).

    >>> from zfrec.games.zhengfen.engine.cards import parse_cards
    >>> hs = HandState([parse_cards(h) for h in ("3h 4h", "5s", "6s")], leader=0)
    >>> perft(hs, 1), perft(hs, 2)
    (2, 4)
    >>> counts = perft_counts(hs, 4)
    >>> counts.nodes, counts.hands_over
    ([2, 4, 8, 8], 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zfrec.games.zhengfen.engine.combos import Combo
from zfrec.games.zhengfen.engine.game import Event, HandState
from zfrec.games.zhengfen.engine.movegen import physical_plays

__all__ = ["PerftCounts", "actions", "perft", "perft_counts"]


def actions(state: HandState) -> list[Combo | None]:
    """Every legal action of the seat to act: each play, then None for the pass if allowed."""
    if state.over:
        return []
    seat = state.turn
    out: list[Combo | None] = [*physical_plays(state.hands[seat], state.top, state.rules)]
    if state.top is not None:
        out.append(None)  # following, a seat may always pass (R5)
    return out


def perft(state: HandState, depth: int) -> int:
    """The number of action sequences of exactly `depth` actions from `state` (a hand that
    ends earlier counts for no deeper level). `state` is left as it was."""
    if depth == 0:
        return 1
    total = 0
    seat = state.turn
    for action in actions(state):
        if depth == 1:
            total += 1
            continue
        if action is None:
            state.pass_(seat)
        else:
            state.play_combo(seat, action)
        total += perft(state, depth - 1)
        state.undo()
    return total


@dataclass(slots=True)
class PerftCounts:
    """Perft with what the actions did, summed over every action at depths 1..n.

    `nodes[d - 1]` is perft(d). The others count actions: ones that ended a trick, a play that
    took a seat's last card, a play by the seat that already held the top play (R7), a trick
    end after which the lead passed on because the winner was out (R8), a play that left one
    seat holding cards and so gave it its one last turn (R9), and actions that ended the hand.
    """

    nodes: list[int] = field(default_factory=list)
    tricks: int = 0
    outs: int = 0
    self_overplays: int = 0
    leads_passed_on: int = 0
    last_turns: int = 0
    hands_over: int = 0

    def to_json(self) -> dict[str, object]:
        """The counts as a plain dict (the format of tests/data/perft.json): its fields."""
        from zfrec.jsonview import dump  # pydantic only when JSON is asked for

        data: dict[str, object] = dump(self)
        return data


def perft_counts(state: HandState, depth: int) -> PerftCounts:
    """Perft to `depth` with the counts of what the actions did (see PerftCounts)."""
    counts = PerftCounts([0] * depth)
    _walk(state, depth, 0, counts)
    return counts


def _walk(state: HandState, depth: int, level: int, counts: PerftCounts) -> None:
    if level == depth:
        return
    seat = state.turn
    for action in actions(state):
        counts.nodes[level] += 1
        event: Event
        if action is None:
            event = state.pass_(seat)
        else:
            counts.self_overplays += state.top_seat == seat
            final_before = state.final_turn
            play = state.play_combo(seat, action)
            counts.outs += play.out_place is not None
            counts.last_turns += state.final_turn and not final_before
            event = play
        result = event.trick_result
        if result is not None:
            counts.tricks += 1
            nxt = result.next_leader
            counts.leads_passed_on += nxt is not None and nxt != result.winner
        counts.hands_over += event.hand_result is not None
        _walk(state, depth, level + 1, counts)
        state.undo()
