"""Where each replay step is written in the record: the move's index in its trick line.

The analysis (`Decision.move_index`) and the repair search (to edit the move) need the move's
place in its trick line; the replay's `MoveStep` carries it (`move_index`), and this reads it.

    >>> from zfrec.analysis.example import example_game
    >>> from zfrec.replay import replay
    >>> written = WrittenMoves()
    >>> places = [written.place(ev) for _, ev in replay(example_game()) if isinstance(ev, MoveStep)]
    >>> places[:7]
    [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (0, 0)]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zfrec.replay import MoveStep


@dataclass(slots=True)
class WrittenMoves:
    """The place of each step in its written trick, as the replay gives it (`move_index`).

    `place(step)` gives the step's move index in its record trick (None for a pass the replay
    inferred: the record has no move for it) and how many moves of that trick are written
    before it (where a move left out would be inserted). Use one per hand.

    >>> from zfrec.record import loads
    >>> from zfrec.replay import SAMPLE, replay
    >>> steps = [ev for _, ev in replay(loads(SAMPLE)[0]) if isinstance(ev, MoveStep)]
    >>> written = WrittenMoves()
    >>> [written.place(s) for s in steps][:4]
    [(0, 0), (None, 1), (1, 1), (2, 2)]
    """

    seen: dict[int, int] = field(default_factory=dict)  # record trick -> moves written so far

    def place(self, step: MoveStep) -> tuple[int | None, int]:
        """(the move's index in its written trick or None if inferred, moves written before)."""
        if step.inferred:
            return None, step.move_index
        return step.move_index, step.move_index


__all__ = ["WrittenMoves"]
