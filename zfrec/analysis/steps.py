"""Where each replay step is written in the record: the move's index in its trick line.

The replay's `MoveStep` names the record trick a step belongs to but not the move's place in
that trick's line, which the analysis (`Decision.move_index`) and the repair search (to edit
the move) need. This is the one place that counts it, until the replay events carry it.

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
    """Counts the moves written in each record trick of one hand, step by step.

    `place(step)` gives the step's move index in its record trick (None for a pass the replay
    inferred: the record has no move for it) and how many moves of that trick are written
    before it (where a move left out would be inserted). Use one per hand.

    >>> from zfrec.record.model import Move
    >>> written = WrittenMoves()
    >>> steps = [MoveStep(0, 1, Move.passes(0), None), MoveStep(0, 1, None, None),
    ...          MoveStep(0, 1, Move.passes(2), None), MoveStep(0, 2, Move.passes(0), None)]
    >>> [written.place(s) for s in steps]
    [(0, 0), (None, 1), (1, 1), (0, 0)]
    """

    seen: dict[int, int] = field(default_factory=dict)  # record trick -> moves written so far

    def place(self, step: MoveStep) -> tuple[int | None, int]:
        """(the move's index in its written trick or None if inferred, moves written before)."""
        before = self.seen.get(step.trick_index, 0)
        if step.move is None:
            return None, before
        self.seen[step.trick_index] = before + 1
        return before, before


__all__ = ["WrittenMoves"]
