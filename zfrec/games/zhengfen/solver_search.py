"""One search of the hindsight solver (`zfrec.games.zhengfen.solver`, whose docstring says how
it stays small): `_Search`, alpha-beta with memory over the engine's `HandState` for one seat's
paranoid value, with what every seat's search of a position shares (`_Shared`: canonical hands
and move lists) and the process's move lists (`_MOVES`, `forget_move_lists`)."""

from __future__ import annotations

import time
from operator import itemgetter

from zfrec.games.zhengfen.engine.cards import POINTS_BY_COUNTERS as _POINTS
from zfrec.games.zhengfen.engine.cards import points_of
from zfrec.games.zhengfen.engine.combos import Combo
from zfrec.games.zhengfen.engine.game import HandState, PassEvent, PlayEvent, TrickResult
from zfrec.games.zhengfen.engine.movegen import physical_plays
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.games.zhengfen.solver_keys import CACHE_ENTRIES, Canon, rank_shape
from zfrec.games.zhengfen.solver_types import LineStep, OutOfBudget
from zfrec.stopping import requested as stop_requested

__all__ = ["INFINITY", "STEP", "forget_move_lists", "play_text"]

# The search reads the engine's named tuples by index (see `_Search.ab`): the layout it needs.
assert PassEvent._fields[3] == PlayEvent._fields[5] == "trick_result"
assert TrickResult._fields[1:4:2] == ("winner", "points")
assert Combo._fields[:4] == ("category", "rank", "length", "mask")

STEP = 5  # every counter is worth a multiple of 5, so every value is too
RANKS_FROM = 11  # cards left at a search's root from which positions are keyed by rank order


# --- one search ---------------------------------------------------------------------------------

# A move as the search sees it: the combination (None for the pass), the points it puts on the
# table, and the mover's canonical hand after it.
_Move = tuple[Combo | None, int, int]
PASS: _Move = (None, 0, 0)
TopKey = tuple[int, int, int | None] | None
_Entry = tuple[int, int, int]  # lower bound, upper bound, index of the best move (-1: none)
_Saved = tuple[int, int, int]  # the mover, its canonical hand and the table's points before
INFINITY = 1 << 30
_first = itemgetter(0)


class _Shared:
    """What every seat's search of one position can share: canonical hands and move lists."""

    __slots__ = ("canon", "compress", "moves", "ranks", "rules")

    def __init__(self, state: HandState) -> None:
        self.canon = [Canon(h, state.rules) for h in state.hands]
        self.ranks = rank_shape(state.rules)
        self.rules = _rules_number(state.rules)
        # The rank compression finds more positions alike, but a new position's compressed key
        # costs more than searching a small endgame again: it pays only from a larger one.
        self.compress = sum(h.bit_count() for h in state.hands) >= RANKS_FROM
        self.moves: dict[tuple[int, TopKey], list[_Move]] = {}


# The moves of a hand against a top (`_Search.moves`), by which suits the seat packs and the
# rules, for the process: the same small hands meet the same tops from one hand's endgame to
# the next (two in five of the lists a publish asks for were listed before). A list takes about
# half a kB: capped at some 80 MB, cleared when full. The cap holds the lists of a publish of
# some 2,000 hands (the bench's 926 list 67,000): at 50,000 the cache was cleared three quarters
# through a publish, and the next publish in the process listed nearly everything again.
_MOVES: dict[tuple[object, ...], list[_Move]] = {}
MOVES_ENTRIES = 150_000

# The rulesets of `_MOVES`'s keys, each by a number of its own: a ruleset's hash is a Python
# call, made once per hand instead of once per list asked for.
_RULES: dict[Ruleset, int] = {}


def _rules_number(rules: Ruleset) -> int:
    found = _RULES.get(rules)
    if found is None:
        found = _RULES[rules] = len(_RULES)
    return found


def forget_move_lists() -> None:
    """Empty the process's move lists, as a new process starts (a bench that publishes again
    in one process measures what one `zfrec publish` does with this)."""
    _MOVES.clear()


# Where every seat's search of a position starts: the canonical hands, the points each seat has
# taken, the points on the table and the points in the hand (`_Search`'s fields of those names).
_Start = tuple[list[int], list[int], int, int]


def _start(hs: HandState, shared: _Shared) -> _Start:
    canon = shared.canon
    hands = [canon[s](h) for s, h in enumerate(hs.hands)]
    pts = [points_of(w) for w in hs.won]
    trick_pts = points_of(hs.trick_cards)
    return hands, pts, trick_pts, sum(map(points_of, hs.hands)) + sum(pts) + trick_pts


class _Search:
    """The search for one perspective seat S over a live HandState, made and unmade in place."""

    def __init__(
        self,
        hs: HandState,
        seat: int,
        shared: _Shared,
        *,
        deadline: float | None,
        node_limit: int | None,
        table_entries: int,
        table: dict[tuple[object, ...], _Entry] | None = None,
        start: _Start | None = None,
    ) -> None:
        self.hs = hs
        self.seat = seat
        self.shared = shared
        self.deadline = deadline
        self.node_limit = node_limit
        self.table_entries = table_entries
        self.table: dict[tuple[object, ...], _Entry] = {} if table is None else table
        self.nodes = 0
        self.next_check = 1024 if node_limit is None else min(1024, node_limit)
        self.proved = (0, 0)  # the bounds proved so far, for a search cut short
        self.compress = shared.compress
        hands, pts, self.trick_pts, self.total = start or _start(hs, shared)
        self.hands = list(hands)  # canonical, in step with hs
        self.pts = list(pts)  # points each seat has taken in tricks

    def _check(self) -> None:
        self.next_check = self.nodes + 1024
        if self.node_limit is not None:
            if self.nodes >= self.node_limit:
                raise OutOfBudget
            self.next_check = min(self.next_check, self.node_limit)
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise OutOfBudget
        if stop_requested():  # Ctrl-C in `zfrec solve` (zfrec.stopping)
            raise OutOfBudget

    # the position ------------------------------------------------------------------------------

    def key(self) -> tuple[object, ...]:
        """Everything the rest of the hand depends on, with interchangeable cards merged.

        Who has passed since the top play is not part of it: after any play it follows from the
        top seat, the seat to act and who holds cards. (Only the root can differ, and no other
        node has the root's cards with the root's trick still open before anyone plays.)
        """
        hs = self.hs
        top = hs.top
        out = hs.out_order
        first = out[0] if out else -1
        s = self.seat
        # Taken points matter for S's own total and, while S may still be first out, for the
        # seat that may come last (its tricks go to the first).
        pts: object = tuple(self.pts) if first < 0 or first == s else self.pts[s]
        simple = self.shared.ranks.simple_key(hs.hands, top) if self.compress else None
        if simple is not None:
            return (-1, hs.turn, hs.top_seat, self.trick_pts, hs.final_turn, first, pts, simple)
        return (
            hs.turn,
            hs.top_seat,
            None if top is None else (top.category, top.rank, top.length),
            self.trick_pts,
            hs.final_turn,
            first,
            pts,
            *self.hands,
        )

    def static_bounds(self) -> tuple[int, int]:
        """Bounds on S's value from the points already taken, without searching."""
        hs = self.hs
        s = self.seat

        pts = self.pts
        hands = hs.hands
        mine = pts[s]
        out = hs.out_order
        if not hands[s]:  # S is out, so it cannot come last
            if out[0] != s:  # ... and only the trick it went out on can still add to it
                return mine, mine + (self.trick_pts if hs.top_seat == s else 0)
            # First out: it keeps what it has and gets at least the last player's tricks.
            locked = 0
            least = INFINITY
            for j, hand in enumerate(hands):
                if hand:
                    if pts[j] < least:
                        least = pts[j]
                elif j != s:
                    locked += pts[j]
            return mine + least, self.total - locked
        room = self.total - sum(pts) + mine  # all that others have not taken
        if out:  # S cannot be first: at best it takes everything not yet taken by others
            return 0, room
        # S may yet go out first and be given the last player's tricks: the most another seat
        # has taken (the largest of pts, or the second largest where S has it alone).
        most = max(pts)
        if most == mine and pts.count(most) == 1:
            most = sorted(pts)[-2]
        return 0, room + most

    def moves(self) -> list[_Move]:
        """The moves of the seat to act, one per class of equivalent plays, biggest first, and
        the pass (last) when following."""
        hs = self.hs
        seat = hs.turn
        hand = hs.hands[seat]
        top = hs.top
        # A hand belongs to one seat, and a top matters only by what it is worth.
        cache_key = (hand, None if top is None else (top.category, top.rank, top.length))
        cache = self.shared.moves
        found = cache.get(cache_key)
        if found is None:
            if len(cache) >= CACHE_ENTRIES:
                cache.clear()
            # The list depends on the seat only through which of its suits are packed: the
            # process keeps it for the next hand whose seat packs the same suits.
            shared = self.shared
            listed = (*cache_key, shared.canon[seat].keep, shared.rules)
            found = _MOVES.get(listed)
            if found is None:
                if len(_MOVES) >= MOVES_ENTRIES:
                    _MOVES.clear()
                found = _MOVES[listed] = self._generate(seat, hand, top)
            cache[cache_key] = found
        return found

    def _generate(self, seat: int, hand: int, top: Combo | None) -> list[_Move]:
        canon = self.shared.canon[seat]
        canonical = canon.cache  # canon(...), inline where it knows the hand
        seen: set[tuple[int, tuple[object, ...], int]] = set()
        plays: list[tuple[int, _Move]] = []
        # (not kept by the hand and the top alone: the lists of `_MOVES` are, and a hand's plays
        # listed again for another packing of its suits were under one in a hundred)
        # (a combination's fields by index: category 0, rank 1, length 2, mask 3; what it is
        # worth is its first three, a length never being 0)
        for combo in physical_plays(hand, top, self.hs.rules):
            mask = combo[3]
            rest = canonical.get(hand & ~mask)
            if rest is None:
                rest = canon(hand & ~mask)
            points = _POINTS[mask >> 8 & 0xF | mask >> 24 & 0xF0 | mask >> 32 & 0xF00]  # points_of
            sig = (rest, combo[:3], points)
            if sig not in seen:
                seen.add(sig)
                plays.append((mask.bit_count(), (combo, points, rest)))
        # Big sheds first: going out early decides most hands, and it cuts best (a stable sort,
        # reversed or not: plays of one size keep their order).
        plays.sort(key=_first, reverse=True)
        found = [m for _, m in plays]
        if top is not None:
            found.append(PASS)
        return found

    # make / unmake ---------------------------------------------------------------------------

    def make(self, move: _Move) -> _Saved:
        """Apply a move to the state; returns what `unmake` needs."""
        hs = self.hs
        seat = hs.turn
        combo = move[0]
        saved = (seat, self.hands[seat], self.trick_pts)
        if combo is None:
            event: PlayEvent | PassEvent = hs.pass_(seat)
        else:
            event = hs.play_combo(seat, combo)
            self.hands[seat] = move[2]
            self.trick_pts += move[1]
        taken = event.trick_result
        if taken is not None:
            self.pts[taken.winner] += taken.points
            self.trick_pts = 0
        return saved

    def unmake(self, saved: _Saved) -> None:
        taken = self.hs.undo().trick_result
        if taken is not None:
            self.pts[taken.winner] -= taken.points
        seat, self.hands[seat], self.trick_pts = saved

    # the search --------------------------------------------------------------------------------

    def ab(self, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta with memory: the value if it lies in (alpha, beta), else a bound
        on the side it lies.

        The hot path of the solver, so `moves`, `make` and `unmake` are written out inline, and
        the engine's named tuples are read by index (a field's name costs a lookup each time):
        a pass's event holds its trick result at 3, a play's at 5; a trick result its winner at
        1 and its points at 3; a combination's first three fields are what it is worth.
        """
        nodes = self.nodes = self.nodes + 1
        if nodes >= self.next_check:
            self._check()
        hs, me = self.hs, self.seat
        result = hs.result
        if result is not None:
            return result.points[me]
        seat = hs.turn
        all_hands = hs.hands
        hand = all_hands[seat]
        top = hs.top
        top_key = None if top is None else top[:3]  # (category, rank, length)
        shared = self.shared
        opts = shared.moves.get((hand, top_key))
        if opts is None:
            opts = self.moves()
        hands, pts = self.hands, self.pts
        before_hand, before_table = hands[seat], self.trick_pts
        single = len(opts) == 1  # a forced pass, or the only play
        out = hs.out_order
        first = out[0] if out else -1
        if single and not all_hands[me]:  # S is out: its bounds may settle the test
            if first != me:  # self.static_bounds(), inline where S went out but not first
                lo = pts[me]
                hi = lo + before_table if hs.top_seat == me else lo
            else:
                lo, hi = self.static_bounds()
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        # self.key(), inline, with the top's key made once
        pts_key: object = tuple(pts) if first < 0 or first == me else pts[me]
        ranks = shared.ranks
        simple: object = None
        if self.compress:
            simple = ranks.keys.get((top_key, *all_hands), ranks)
            if simple is ranks:
                simple = ranks.simple_key(all_hands, top)
        key: tuple[object, ...]
        if simple is not None:
            key = (-1, seat, hs.top_seat, before_table, hs.final_turn, first, pts_key, simple)
        else:
            key = (seat, hs.top_seat, top_key, before_table, hs.final_turn, first, pts_key, *hands)
        table = self.table
        entry = table.get(key)
        if entry is not None:
            lo, hi, hint = entry
        elif single:  # stored too: a forced line is searched again whenever it is reached
            hint = 0
            if all_hands[me]:  # else the static bounds are known (above)
                lo, hi = -INFINITY, INFINITY
        else:
            hint = 0
            if all_hands[me]:  # self.static_bounds(), inline where S holds cards
                mine = pts[me]
                room = self.total - sum(pts) + mine
                if out:
                    lo, hi = 0, room
                else:
                    most = max(pts)
                    if most == mine and pts.count(most) == 1:
                        most = sorted(pts)[-2]
                    lo, hi = 0, room + most
            elif first != me:  # as above
                lo = pts[me]
                hi = lo + before_table if hs.top_seat == me else lo
            else:
                lo, hi = self.static_bounds()
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        if single:
            combo, points, rest = opts[0]
            made = 1
            if combo is not None:
                taken = hs.play_combo(seat, combo)[5]
                hands[seat] = rest
                self.trick_pts = before_table + points
            else:
                taken = hs.pass_(seat)[3]
                # then the passes forced after it, in a row: none changes what the bounds read
                while taken is None:
                    forced = shared.moves.get((all_hands[hs.turn], top_key)) or self.moves()
                    if len(forced) != 1 or forced[0][0] is not None:
                        break
                    nodes = self.nodes = self.nodes + 1
                    if nodes >= self.next_check:
                        self._check()
                    made += 1
                    taken = hs.pass_(hs.turn)[3]
            if taken is not None:
                pts[taken[1]] += taken[3]
                self.trick_pts = 0
            g = self.ab(alpha, beta)
            while made:
                hs.undo()
                made -= 1
            if taken is not None:
                pts[taken[1]] -= taken[3]
            hands[seat], self.trick_pts = before_hand, before_table
            best = 0
        else:
            order: range | list[int] = range(len(opts))
            if hint > 0:
                order = [hint, *range(hint), *range(hint + 1, len(opts))]
            maximising = seat == me  # S to move (a seat that is out never is)
            g = -1 if maximising else INFINITY
            best = 0
            ab, play_combo, pass_, undo = self.ab, hs.play_combo, hs.pass_, hs.undo
            for i in order:
                combo, points, rest = opts[i]
                if combo is None:
                    taken = pass_(seat)[3]
                else:
                    taken = play_combo(seat, combo)[5]
                    hands[seat] = rest
                    self.trick_pts = before_table + points
                if taken is not None:
                    pts[taken[1]] += taken[3]
                    self.trick_pts = 0
                if maximising:
                    v = ab(alpha if alpha > g else g, beta)
                else:
                    v = ab(alpha, beta if beta < g else g)
                undo()
                if taken is not None:
                    pts[taken[1]] -= taken[3]
                hands[seat], self.trick_pts = before_hand, before_table
                if maximising:
                    if v > g:
                        g, best = v, i
                        if g >= beta:
                            break
                elif v < g:
                    g, best = v, i
                    if g <= alpha:
                        break
        if g <= alpha:
            hi = g
        elif g >= beta:
            lo = g
        else:
            lo = hi = g
        if entry is not None or len(table) < self.table_entries:
            table[key] = (lo, hi, best)
        return g

    def value_bounds(self, lo: int, hi: int, guess: int | None = None) -> tuple[int, int]:
        """Narrow [lo, hi] to the value with null-window tests "is it at least b?". If the budget
        runs out, OutOfBudget is raised and `proved` holds the range proved until then.

        With a `guess` (a value one of the bounds came from: the position before), the first
        test asks whether the value is that bound. Otherwise, most values are 0 (S is made to
        come last) or S's points so far plus a little, so the first tests ask whether S can avoid
        coming last and whether it can add anything; then the range is bisected. Where S went out
        first (and no guess is given), one search over the whole range instead.
        """
        self.proved = (lo, hi)
        hs = self.hs
        if guess is None and lo < hi and not hs.hands[self.seat] and hs.out_order[0] == self.seat:
            # S went out first: every move left is a minimiser's, so the search is one player's
            # branch and bound. One search over the whole range finds the value, where tests
            # would each prove a bound over nearly every line again.
            g = self.ab(lo - 1, hi + 1)
            if lo <= g <= hi:  # always, as the bounds hold; else the tests below settle it
                lo = hi = g
            self.proved = (lo, hi)
        tests = 0
        mine = self.pts[self.seat]
        while lo < hi:
            if tests == 0 and guess is not None:
                b = guess if guess > lo else lo + STEP
            elif tests == 0 and lo < mine <= hi:
                b = mine
            elif tests <= 1:
                b = lo + STEP
            else:
                b = lo + STEP * (((hi - lo) // STEP + 1) // 2)
            tests += 1
            g = self.ab(b - 1, b)
            if g >= b:
                lo = g
            else:
                hi = g
            self.proved = (lo, hi)
        return lo, hi

    # answers at the root -----------------------------------------------------------------------

    def keeps(self, value: int, mover: int) -> bool:
        """After `mover` moved: whether the position still holds `value` for S. S, moving, needs
        at least `value`; a minimiser needs at most `value`."""
        if mover == self.seat:
            return self.ab(value - 1, value) >= value
        return self.ab(value, value + 1) <= value

    def best_moves(self, value: int, *, first: bool = False) -> list[_Move]:
        """Every move here that keeps `value`: the best plays of the seat to move (with `first`,
        only the first of them)."""
        out = []
        mover = self.hs.turn
        for move in self.moves():
            saved = self.make(move)
            good = self.keeps(value, mover)
            self.unmake(saved)
            if good:
                out.append(move)
                if first:
                    break
        return out

    def principal_variation(self, value: int) -> list[LineStep]:
        """One line of best play from here to the end of the hand, for both sides."""
        line: list[LineStep] = []
        made: list[_Saved] = []
        while self.hs.result is None:
            opts = self.moves()
            entry = self.table.get(self.key())
            hint = entry[2] if entry is not None else 0
            order = [hint, *(i for i in range(len(opts)) if i != hint)]
            mover = self.hs.turn
            for i in order:
                saved = self.make(opts[i])
                if self.keeps(value, mover):
                    made.append(saved)
                    taken = self.hs.log[-1].trick_result
                    if taken is None:
                        line.append(LineStep(mover, opts[i][0]))
                    else:
                        line.append(LineStep(mover, opts[i][0], taken.winner, taken.points))
                    break
                self.unmake(saved)
            else:  # cannot happen when `value` is this node's value
                raise AssertionError("no move keeps the value")
        for saved in reversed(made):
            self.unmake(saved)
        return line


def play_text(combo: Combo | None) -> str:
    """A play in record notation, jokers declared, or `-` for the pass."""
    return "-" if combo is None else combo.text()
