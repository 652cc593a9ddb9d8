"""The hindsight solver: the exact result of a hand in progress when every card is known.

For a seat S, the *paranoid value* of a position is the number of points S ends the hand with
(after the last player's tricks and cards go to the first player out, RULES.md R11) when S plays
to maximise it and every other seat plays to minimise it. One maximiser against a coalition of
minimisers is a two-player zero-sum game, so alpha-beta search gives the exact value.

How the search stays small:

- **Make/unmake.** Moves are applied to the engine's own `HandState` (`play_combo`, `pass_`) and
  taken back with `undo()`; the rules are never re-implemented here.
- **Symmetry.** A card's suit matters only in suit sequences, suited full-house kickers and
  5-T-K specials. For each seat, the ranks whose suits can never matter for that seat (judged
  from the cards it holds at the root, see `suit_relevant_ranks`) are packed to counts: two plays
  that leave the same counts, read the same and put the same points on the table are one move,
  and positions that differ only in such suits share a transposition-table entry. Once only
  singles, pairs, triples and quartets can be formed, only the order of the ranks still held
  matters (`RankShape`).
- **Null-window tests.** The value is found by tests "is the value at least v?" (alpha-beta with
  memory), so a search cut short by its budget still reports the bounds it proved.
- **Transposition table** with lower and upper bounds and the best move, capped in entries.
  Positions with one move are kept too: a forced line is otherwise searched again whenever
  it is reached (a sixth of the nodes of a hand's end).
- **Static bounds** from the points already taken cut hopeless branches, and a seat that cannot
  beat the top has only the pass.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from zfrec.games.zhengfen.engine.combos import Combo
from zfrec.games.zhengfen.engine.game import HandState, PassEvent, PlayEvent
from zfrec.games.zhengfen.solver_keys import suit_relevant_ranks
from zfrec.games.zhengfen.solver_search import (
    INFINITY,
    _Entry,
    _Search,
    _Shared,
    _Start,
    _start,
    play_text,
)
from zfrec.games.zhengfen.solver_types import Budget, LineStep, OutOfBudget, SolveResult

__all__ = [
    "QUICK",
    "Budget",
    "LineStep",
    "OutOfBudget",
    "SolveResult",
    "Solver",
    "best_points",
    "play_text",
    "solve",
    "suit_relevant_ranks",
]

# --- the entry point ----------------------------------------------------------------------------


@contextmanager
def _restored(state: HandState) -> Iterator[None]:
    """Whatever happens inside, the state leaves as it came: a search cut short unwinds by undo."""
    depth = len(state.log)
    try:
        yield
    finally:
        while len(state.log) > depth:
            state.undo()


@dataclass(slots=True)
class _Known:
    """What a `Solver` learnt at one position of its hand: the exact values of the seats solved
    there, the bounds the position before gives the others, and whether the seat to move had
    only one class of moves. A position is named by the depth of the log and its last event
    (the very object: a move taken back and made again is a new event)."""

    event: object
    values: dict[int, int] = field(default_factory=dict)
    hints: dict[int, tuple[int, int]] = field(default_factory=dict)
    single: bool | None = None


class Solver:
    """Solves one position after another along the play of one hand, keeping what it learnt.

    Each seat's transposition table and the move lists outlive a call, so when the hand moves on
    (moves applied to the same `HandState`, as a replay does), the next position is mostly known
    already: `analyze` solves every decision of a hand's end this way. The table stays sound
    because every later position is one the first search could reach: the state must go on from
    where it was (its log extends the log at the first call); otherwise the solver starts afresh.

    The values found at each position are kept too. Asked again about a position, the solver
    answers from them; asked about the position one move later, it starts each seat's search
    from what the move can do to its value: a seat's own move can only lower it (it chose among
    its moves), another seat's only raise it (that seat played against it), and a move that was
    the only one possible changes nothing. Most moves change nothing, so one test ("is it still
    that?") usually settles a value.
    """

    def __init__(self, state: HandState, budget: Budget | None = None) -> None:
        self.state = state
        self.budget = budget or Budget()
        self._shared: _Shared | None = None
        self._tables: dict[int, dict[tuple[object, ...], _Entry]] = {}
        self._known: dict[int, _Known] = {}  # by the log's depth
        self._root_depth = 0
        self._root_event: object = None

    def _fresh(self) -> bool:
        """Whether the state went on from the first root; if not, forget everything."""
        state = self.state
        depth = self._root_depth
        if (
            self._shared is not None
            and len(state.log) >= depth
            and (depth == 0 or state.log[depth - 1] is self._root_event)
        ):
            return False
        self._shared = _Shared(state)
        self._tables = {}
        self._known = {}
        self._root_depth = depth = len(state.log)
        self._root_event = state.log[depth - 1] if depth else None
        return True

    def _here(self) -> _Known:
        """What is known of the current position (after `_fresh`)."""
        log = self.state.log
        depth = len(log)
        event = log[-1] if depth else None
        known = self._known.get(depth)
        if known is not None and known.event is event:
            return known
        for stale in [d for d in self._known if d >= depth]:  # another line of play
            del self._known[stale]
        known = self._known[depth] = _Known(event)
        before = self._known.get(depth - 1)
        if (
            before is not None
            and isinstance(event, PlayEvent | PassEvent)
            and before.event is (log[depth - 2] if depth >= 2 else None)
        ):
            mover = event.seat
            for s, v in before.values.items():
                if before.single:
                    known.hints[s] = (v, v)
                elif s == mover:  # the mover chose this move: it kept at most v
                    known.hints[s] = (-INFINITY, v)
                else:  # the mover played against s: at least v is left
                    known.hints[s] = (v, INFINITY)
        return known

    def solve(
        self, seat: int | None = None, *, all_seats: bool = True, details: bool = True
    ) -> SolveResult:
        """The paranoid value of every seat (or only `seat`), the best plays and a line: see
        the module function `solve`. Without `details`, only the values (no best plays, no
        line), which is quicker."""
        state, budget = self.state, self.budget
        start = time.perf_counter()
        n = state.n
        persp = int(state.turn if seat is None else seat)  # a plain int, not a Seat
        if not 0 <= persp < n:
            raise ValueError(f"there is no seat {persp + 1}")
        if state.result is not None:
            points = state.result.points
            return SolveResult(
                seat=persp,
                to_move=None,
                values=dict(enumerate(points)),
                bounds={s: (p, p) for s, p in enumerate(points)},
                best=[],
                line=[],
                nodes=0,
                ms=(time.perf_counter() - start) * 1000,
                solved=True,
                finished=True,
            )
        self._fresh()
        shared = self._shared
        assert shared is not None
        known = self._here()
        deadline = None if budget.seconds is None else start + budget.seconds
        bounds: dict[int, tuple[int, int]] = {}
        best: list[Combo | None] = []
        line: list[LineStep] = []
        nodes = 0
        table = 0
        spent = False
        begin: _Start | None = None  # the same for every seat: made once
        depth = len(state.log)
        for s in [persp] + ([t for t in range(n) if t != persp] if all_seats else []):
            value = known.values.get(s)
            if value is not None and not (s == persp and details):
                bounds[s] = (value, value)
                continue
            kept = self._tables.setdefault(s, {})
            if len(kept) >= budget.table_entries:  # full of positions left behind: start over
                kept.clear()
            if begin is None:
                begin = _start(state, shared)
            search = _Search(
                state,
                s,
                shared,
                deadline=deadline,
                node_limit=None if budget.nodes is None else budget.nodes - nodes,
                table_entries=budget.table_entries,
                table=kept,
                start=begin,
            )
            if known.single is None:
                known.single = len(search.moves()) == 1
            lo, hi = search.static_bounds()
            guess = None
            if value is not None:
                lo = hi = value
            elif (hint := known.hints.get(s)) is not None and hint[0] <= hi and lo <= hint[1]:
                guess = hint[1] if hint[0] == -INFINITY else hint[0]
                lo, hi = max(lo, hint[0]), min(hi, hint[1])
                guess = min(max(guess, lo), hi)
            if not spent:
                try:  # as `with _restored(state)`, without a generator per seat
                    lo, hi = search.value_bounds(lo, hi, guess)
                    if s == persp and details:
                        best = [m[0] for m in search.best_moves(lo)]
                        line = search.principal_variation(lo)
                except OutOfBudget:
                    spent = True
                    lo, hi = search.proved
                finally:
                    while len(state.log) > depth:
                        state.undo()
            nodes += search.nodes
            table = max(table, len(search.table))
            bounds[s] = (lo, hi)
            if lo == hi:
                known.values[s] = lo
        ordered = dict(sorted(bounds.items()))
        return SolveResult(
            seat=persp,
            to_move=int(state.turn),
            values={s: (lo if lo == hi else None) for s, (lo, hi) in ordered.items()},
            bounds=ordered,
            best=best,
            line=line,
            nodes=nodes,
            ms=(time.perf_counter() - start) * 1000,
            solved=not spent,
            table=table,
        )

    def first_best(self) -> list[Combo | None]:
        """The first of the best plays of the seat to move (what `solve().best` names first), in
        a list of one; empty when the hand is over or the budget runs out first. Cheaper than
        `solve` with details: no other best play and no line."""
        state = self.state
        if state.result is not None:
            return []
        mover = int(state.turn)
        found = self.solve(mover, all_seats=False, details=False)
        if found.value is None:
            return []
        assert self._shared is not None
        budget = self.budget
        start = time.perf_counter()
        search = _Search(
            state,
            mover,
            self._shared,
            deadline=None if budget.seconds is None else start + budget.seconds,
            node_limit=budget.nodes,
            table_entries=budget.table_entries,
            table=self._tables.setdefault(mover, {}),
        )
        with _restored(state):
            try:
                return [m[0] for m in search.best_moves(found.value, first=True)]
            except OutOfBudget:
                return []


def solve(
    state: HandState,
    seat: int | None = None,
    *,
    budget: Budget | None = None,
    all_seats: bool = True,
) -> SolveResult:
    """The paranoid value of every seat in a hand in progress, the best plays and a line.

    `seat` is the perspective for `best` and `line` (default: the seat to move). Its value is
    searched first, then the other seats' values (unless `all_seats` is false). The state is
    searched in place by make and undo and comes back unchanged. On a finished hand the values
    are its points and nothing is searched. (To solve many positions of one hand in turn, a
    `Solver` keeps its tables between them.)
    """
    return Solver(state, budget).solve(seat, all_seats=all_seats)


# A budget for one position inside a longer job (a page, an audit): small enough that a
# position out of reach costs a second, not a minute.
QUICK = Budget(nodes=300_000, seconds=2.0, table_entries=300_000)


def best_points(state: HandState, *, budget: Budget | None = None) -> dict[int, int] | None:
    """The best points each seat can reach from here: its paranoid value, every seat.

    The answer for callers that want numbers or nothing (the audit's "best reachable points"
    per dispute version, a page's table): None when the budget (default `QUICK`) runs out
    before every seat is solved. On a finished hand, its points. The state comes back unchanged.
    """
    result = solve(state, budget=budget or QUICK)
    if not result.solved:
        return None
    return {s: v for s, v in result.values.items() if v is not None}
