"""What the hindsight solver (zfrec.games.zhengfen.solver) takes and gives: its budget, its
result and the steps of a principal variation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from zfrec.games.zhengfen.engine.combos import Combo

__all__ = ["Budget", "LineStep", "OutOfBudget", "SolveResult"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a call to `solve` may spend.

    `nodes` and `seconds` bound the whole call (every seat's search together); `None` means no
    bound. `table_entries` caps the transposition table of one search, and with it the memory:
    an entry takes about 400 bytes, so the default keeps the table near 300 MB and the whole
    solver under 500 MB.
    """

    nodes: int | None = 5_000_000
    seconds: float | None = 60.0
    table_entries: int = 800_000


class LineStep(NamedTuple):
    """One move of a principal variation: who, what (None for the pass), and, when the move
    ends a trick, who takes it and the points in it."""

    seat: int
    play: Combo | None
    trick_to: int | None = None
    trick_points: int = 0


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What `solve` found.

    `values[s]` is seat s's paranoid value, or None when its search ran out of budget; then
    `bounds[s]` holds the proved range (for solved seats, both ends equal the value). `best` lists
    the plays of the seat to move that keep `seat`'s value (None stands for the pass; one card set
    stands for each class of equivalent plays), `line` a principal variation to the end of the
    hand. `finished` is set when the hand is already over: `values` are then the hand's points
    and there is nothing to search. `table` is the most entries one seat's transposition table
    held, never more than `Budget.table_entries`.
    """

    seat: int
    to_move: int | None
    values: dict[int, int | None]
    bounds: dict[int, tuple[int, int]]
    best: list[Combo | None]
    line: list[LineStep]
    nodes: int
    ms: float
    solved: bool
    finished: bool = False
    table: int = 0  # the most entries one search's transposition table held (<= the cap)

    @property
    def value(self) -> int | None:
        """The value of the perspective seat `seat`."""
        return self.values[self.seat]


class OutOfBudget(Exception):
    """Raised inside the search when the node or time budget is spent."""
