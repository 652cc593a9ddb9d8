"""What each decision cost against perfect play: blunder marks from the hindsight solver.

At a decision near the end of a hand whose deal is known, the solver gives the points the seat
could still guarantee itself (its paranoid value, zfrec.games.zhengfen.solver) before the move and
after it. The difference is what the move cost: 0 for a best play, otherwise the points thrown
away against the best play ("cost 15: Kd instead of -"). Only positions with few enough cards
left are solved (`max_cards`), each within a budget; a decision whose position is out of reach
gets no cost, never a guess.

`CostFinder` is a replay visitor (zfrec.replay.walk), so `analyze` gathers the costs in the same
pass as everything else. It follows each hand on a `HandState` of its own, through the moves the
engine accepted, with one `Solver` whose tables carry over from one decision to the next.

Bo, passing Ann's 5h, lets her take it, where Kd would have taken it for him (the record holds
only the hand's last cards, so it fails validation for its deal, but the position is sound):

    >>> import zfrec
    >>> game = zfrec.loads('''[Players "Ann, Bo, Cy"]
    ... hand 1
    ... deal 1: 5h
    ... deal 2: Kd 3s
    ... deal 3: 4c
    ... 1: 5h  2: -
    ... ''')[0]
    >>> [(c.step, c.value, c.after, c.text) for c in decision_costs(game).values() if c.points]
    [(1, 15, 10, 'cost 5: Kd instead of -')]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Annotated

from zfrec.games.zhengfen.engine.combos import Combo
from zfrec.games.zhengfen.engine.game import HandState, PlayEvent
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.games.zhengfen.solver import Budget, Solver, play_text
from zfrec.jsonview import hidden
from zfrec.record.model import Game
from zfrec.replay import HandEnd, HandStart, MoveStep, ReplayState, ReplayVisitor, walk

# Positions with at most this many cards in all hands are solved. A 12-card position takes a
# few milliseconds to a few hundred; the ones after it reuse its tables.
COST_CARDS = 12
# Each position's solve; one out of budget is skipped, it does not stop the others.
COST_BUDGET = Budget(nodes=200_000, seconds=2.0, table_entries=400_000)
# A game's costs together: past this, the remaining decisions get none.
GAME_SECONDS = 20.0


@dataclass(frozen=True, slots=True)
class Cost:
    """What one decision cost, by the solver.

    `hand_index` (0-based into the record's hands) and `step` (the 0-based number of the
    decision's replay step in the hand, inferred passes counted) say which decision; they and
    `seat` are not in the JSON, which sits on the decision. `value` is the most points the seat
    could guarantee itself before the move, `after` what it could after it, and `points` the
    difference. `best` is a best play in notation (`-` for the pass), `played` the move made,
    and `text` the blunder mark.

    >>> Cost.of(0, 5, 1, 15, 0, "Kd", "-").text
    'cost 15: Kd instead of -'
    """

    hand_index: Annotated[int, hidden()]
    step: Annotated[int, hidden()]
    seat: Annotated[int, hidden()]
    points: int
    value: int
    after: int
    best: str
    played: str
    text: str

    @classmethod
    def of(
        cls, hand_index: int, step: int, seat: int, value: int, after: int, best: str, played: str
    ) -> Cost:
        """The cost of a decision from the values before and after it."""
        points = value - after
        text = f"cost {points}: {best} instead of {played}"
        return cls(hand_index, step, seat, points, value, after, best, played, text)


@dataclass(slots=True)
class CostFinder(ReplayVisitor):
    """A replay visitor that solves each decision of a hand's end (see the module docstring).

    `costs` maps (hand_index, step) to the decision's `Cost`. With `tables`, every seat is
    solved at each position, and `values` maps (hand_index, step) to each seat's value at the
    position before that step, and (hand_index, number of steps) to the position where the
    hand's record ends: the "perfect play from here" table of a replay page.
    """

    rules: Ruleset | None = None  # judge under these rules, not the record's own
    max_cards: int = COST_CARDS
    budget: Budget = COST_BUDGET
    game_seconds: float | None = GAME_SECONDS
    tables: bool = False
    costs: dict[tuple[int, int], Cost] = field(default_factory=dict)
    values: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict)
    spent: float = 0.0  # seconds of solving so far
    _hand: HandState | None = None
    _solver: Solver | None = None
    _index: int = -1
    _step: int = 0
    _left: int = 0  # cards in the hands of `_hand`, kept as it goes (every move asks)

    def visit_hand_start(self, state: ReplayState, event: HandStart) -> None:
        self._index, self._step = event.hand_index, 0
        self._hand = self._solver = None
        if self.max_cards <= 0 or not all(event.known):
            return
        if any(d.code == "ZF305" for d in event.diagnostics):
            return
        rules = self.rules or state.game.rules
        self._hand = HandState(list(event.deal), event.leader, rules, event.number)
        self._solver = Solver(self._hand, self.budget)
        self._left = sum(h.bit_count() for h in event.deal)

    def visit_move(self, state: ReplayState, step: MoveStep) -> None:
        index = self._step
        self._step += 1
        hs, solver = self._hand, self._solver
        if hs is None or solver is None:
            return
        event = step.event
        if (
            event is None
            or hs.result is not None
            or step.seat != hs.turn
            or (step.diagnostics and any(d.severity == "error" for d in step.diagnostics))
        ):
            self._hand = self._solver = None  # the record left the rules: no more costs here
            return
        seat = int(step.seat)
        left = self._left
        out_of_time = self.game_seconds is not None and self.spent >= self.game_seconds
        before = None
        if left <= self.max_cards and not out_of_time:
            before = solver.solve(seat, all_seats=self.tables, details=False)
            self.spent += before.ms / 1000
            if self.tables and before.solved:
                self.values[(step.hand_index, index)] = _known(before.values)
        played = event.combo if isinstance(event, PlayEvent) else None
        _move(hs, seat, played)
        if played is not None:
            self._left -= played.mask.bit_count()
        if before is None or before.value is None:
            return
        after = solver.solve(seat, all_seats=False, details=False)
        self.spent += after.ms / 1000
        if after.value is None:
            return
        points = before.value - after.value
        best = played
        if points:  # a best play is named only where the move was not one
            started = time.perf_counter()
            hs.undo()
            found = solver.first_best()
            _move(hs, seat, played)
            self.spent += time.perf_counter() - started
            if found:
                best = found[0]
        self.costs[(step.hand_index, index)] = Cost.of(
            step.hand_index, index, seat, before.value, after.value, play_text(best),
            play_text(played),
        )  # fmt: skip

    def visit_hand_end(self, state: ReplayState, event: HandEnd) -> None:
        hs, solver = self._hand, self._solver
        if not self.tables or hs is None or solver is None:
            return
        if self.game_seconds is not None and self.spent >= self.game_seconds:
            return
        if self._left > self.max_cards:
            return
        found = solver.solve(all_seats=True, details=False)
        self.spent += found.ms / 1000
        if found.solved:
            self.values[(event.hand_index, self._step)] = _known(found.values)


def _move(hs: HandState, seat: int, play: Combo | None) -> None:
    if play is None:
        hs.pass_(seat)
    else:
        hs.play_combo(seat, play)


def _known(values: dict[int, int | None]) -> dict[int, int]:
    return {s: v for s, v in values.items() if v is not None}


def decision_costs(
    game: Game,
    rules: Ruleset | None = None,
    *,
    max_cards: int = COST_CARDS,
    budget: Budget = COST_BUDGET,
    game_seconds: float | None = GAME_SECONDS,
) -> dict[tuple[int, int], Cost]:
    """Every decision's cost that fits the budget, by (hand_index, step): one replay of its own.
    `analyze` runs a `CostFinder` in its own replay instead."""
    finder = CostFinder(rules, max_cards, budget, game_seconds)
    walk(game, [finder], rules)
    return finder.costs


def perfect_play_tables(
    game: Game,
    rules: Ruleset | None = None,
    *,
    max_cards: int = COST_CARDS,
    budget: Budget = COST_BUDGET,
    game_seconds: float | None = GAME_SECONDS,
) -> CostFinder:
    """Every seat's value at each position of the hands' ends that fits the budget, and the
    decisions' costs: a `CostFinder` with `tables` after one replay of its own."""
    finder = CostFinder(rules, max_cards, budget, game_seconds, tables=True)
    walk(game, [finder], rules)
    return finder
