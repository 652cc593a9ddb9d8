"""The Sheng ji double-dummy solver: the opponents' exact points when every hand is known.

The value of a position in play is the opponents' total at the end of the round (their trick
points, the kitty times its multiplier when they take the last trick, the throw penalties:
rulings 10 and 11) when the opponents play to maximise it and the declarers to minimise it.
Two teams, zero-sum: alpha-beta on points gives the exact value.

How the search stays small:

- **Make/unmake.** Every play is made with the engine's `RoundState.play_legal` (a lead with
  its format, read once per play) and taken back with `undo()`, whose record for a play holds
  only what a play changes; the rules (following, throws, trick winner, scoring) are never
  re-written here. The last trick (one card a hand, no call) is forced: its winner (as
  `trick_winner`, for a single) and points are worked out without making it. The last two
  (two cards a hand at a lead, no call) are searched on the hands alone
  (`zfrec.games.shengji.solve_end`), their bounds kept in the table as any lead's.
- **Throws.** A lead is a single, a pair, a tractor, or a throw that stands against the other
  hands: the throws are enumerated from the cards that could stand in one (a single at least as
  high as any other hand's card of the suit, a pair at least as high as any other's pair, the
  pairs of a hand holding a tractor) and kept when `check_throw_format` says they stand. A throw
  that fails puts only its forced part on the table, the same position as leading that part
  (less the penalty, which only harms the thrower's side): it is never better and is not tried.
  (The move lists: `zfrec.games.shengji.solve_moves`.)
- **Equivalent cards merged.** Cards of one effective suit with the same points whose copies
  sit in the same hands (and on the table) are one card for the search when nothing can tell
  them apart: cards of equal order, or cards of adjacent order (no other card left between them)
  of which nobody can make a pair. Plays that differ only by such cards are one move. Each
  suit's classes are kept by that suit's cards in each hand and on the table.
- **Transposition table** at leads only, keyed on the hands, the seat to move and the
  declarers, holding bounds on the points still to come and the move list; capped in entries.
  Each suit is keyed by what each hand holds at each of its levels still in play, renumbered,
  with whether two levels are adjacent where a hand could make a tractor of them
  (`zfrec.games.shengji.solve_keys`): positions that differ only in which cards were played
  share an entry. A position in the middle of a trick is seldom met twice; it is
  not kept.
- **Enhanced transposition cut-off** at a trick's last play: every play ends the trick at a
  lead, whose bounds the table may hold. They are looked up without making the play (the
  hands less the play, the trick to the winner `trick_winner` names) before any is searched:
  one that settles the test ends the position, the others are searched best bound first, and
  a lead whose bounds settle its own test is not made at all.
- **Move ordering** by cheap heuristics (`zfrec.games.shengji.solve_order`): the table's best
  move first; leads of more cards, then by their top level (trumps and plain cards alike);
  follows that take the trick for the mover's side, points to a partner who wins, low cards to
  an opponent who wins (to a single or a pair, from two orders kept per lead and hand, and the
  merged list kept by the follows' suits in every hand and on the table).
- **Static bounds** (`zfrec.games.shengji.solve_bounds`, where each is proved): the opponents'
  points so far; those plus the points left and the kitty at the largest multiplier the last
  lead can have when the opponents take it (its largest unit is in an opponent's hand now, no
  larger than the cards a hand holds then allow); in a trick led as a single or a pair, the
  points a side is sure of (`sure_points`), asked where they can settle a test, never kept.
- **MTD(f)** from the heuristic line's result; while only a lower bound is known, each test
  asks for twice as much more than the last, and while only an upper bound is known, twice
  as much less.

A search cut short by `max_nodes` or `max_seconds` answers with the best value found (over the
moves of the root searched to the end, else a heuristic line) and `exact` False.

    >>> from zfrec.games.shengji.cards import format_hand, parse_hand as cards
    >>> from zfrec.games.shengji.order import parse_trump
    >>> hands = [cards(h) for h in ("Kd 3s", "Ad 4s", "5d 6h", "8d Tc")]
    >>> rs = RoundState.from_hands(hands, parse_trump("7c"), leader=0)
    >>> r = solve_state(rs)
    >>> r.value, sorted(format_hand(p) for p in r.best), r.exact
    (25, ['3s', 'Kd'], True)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from zfrec.games.shengji.cards import HIGH, points, size
from zfrec.games.shengji.events import PlayEvent
from zfrec.games.shengji.formats import Format, classify
from zfrec.games.shengji.order import TRUMP, Order
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.scoring import kitty_multiplier
from zfrec.games.shengji.solve_bounds import (
    Units,
    kitty_seats,
    sure_points,
    trick_pairs,
)
from zfrec.games.shengji.solve_end import TwoLeft
from zfrec.games.shengji.solve_keys import lead_key
from zfrec.games.shengji.solve_moves import (
    CACHE,
    Follows,
    card_classes,
    follow_list,
    leads,
    merge,
    trick_holder,
)
from zfrec.games.shengji.solve_order import follow_order, ordered
from zfrec.games.shengji.trick import single_or_pair_keys, trick_winner
from zfrec.gctuning import collected_after
from zfrec.stopping import requested as stop_requested

__all__ = [
    "SjBudget",
    "SjLineStep",
    "SjOutOfBudget",
    "SjSolveResult",
    "card_classes",
    "leads",
    "solve_state",
    "solve_value",
    "team_points",
]

INFINITY = 1 << 30
CHECK_EVERY = 1024  # nodes between two looks at the clock


@dataclass(frozen=True, slots=True)
class SjBudget:
    """What one solve may spend: `max_nodes` positions searched and `max_seconds` (None: no
    bound); `table_entries` caps the transposition table (about 500 bytes an entry, with its
    move list)."""

    max_nodes: int | None = 5_000_000
    max_seconds: float | None = 60.0
    table_entries: int = 400_000


class SjLineStep(NamedTuple):
    """One play of a principal variation: the seat, the cards (packed), and for the play that
    ends a trick, who takes it and its points."""

    seat: int
    play: int
    trick_to: int | None = None
    trick_points: int = 0


@dataclass(frozen=True, slots=True)
class SjSolveResult:
    """What `solve_state` found: `value` the opponents' total at the round's end under perfect
    play (a bound when `exact` is False), `declarers` the declarers' trick points at the end of
    `line` (the principal variation), `best` the plays of the seat to move that keep the value
    (one play per class of equivalent plays), `nodes` searched and `ms` spent; `lower` and
    `upper` the bounds on the value the search proved (the static bounds, the tests' results)."""

    value: int
    declarers: int
    best: list[int]
    line: list[SjLineStep]
    nodes: int
    ms: float
    exact: bool
    lower: int = 0  # what the search proved of the value: at least `lower`, at most `upper`
    upper: int = 0  # (both `value` when `exact`)


class SjOutOfBudget(Exception):
    """Raised inside the search when the node or time budget is spent."""


def team_points(state: RoundState) -> tuple[int, int]:
    """(the opponents' total so far, counted as the round's end counts it less the kitty; the
    declarers' trick points so far)."""
    decl = state.declarers
    opp = dec = 0
    for s, w in enumerate(state.won):
        if decl >> s & 1:
            dec += w
        else:
            opp += w
    pen = sum(p if decl >> s & 1 else -p for s, p in enumerate(state.penalties))
    return opp + pen, dec


# --- the search ---------------------------------------------------------------------------------

# lower and upper bounds on the points to come, the plays in the order to try them (the best
# found first) and the hands they were made for: kept, a move list is made once per position,
# not once per visit
_Entry = tuple[int, int, list[int], tuple[int, ...]]


@cache
def _kitty_bounds(mode: str, kitty_points: int) -> list[int]:
    """The kitty at its largest multiplier for a last lead of at most m pairs, m < 60 (kept
    per rules and kitty: a round's marks make thousands of small solves). Do not change it."""
    out, most = [], 0
    for m in range(60):
        most = max(most, kitty_multiplier(m, mode))
        out.append(most * kitty_points)
    return out


class _Search:
    """One solve's search over one `RoundState` (made on and taken back)."""

    def __init__(self, state: RoundState, budget: SjBudget) -> None:
        assert state.order is not None
        self.state = state
        self.order: Order = state.order
        self.budget = budget
        self.table: dict[tuple[object, ...], _Entry] = {}
        self.nodes = 0
        self.started = time.perf_counter()
        self.deadline = None if budget.max_seconds is None else self.started + budget.max_seconds
        self.kitty_points = points(state.kitty)
        self.mode = state.rules.kitty_multiplier
        table = sum(p for _, p in state.trick_plays)
        self.in_play = points(sum(state.hands) + table) + sum(state.won)  # less won: left
        self.info: dict[int, tuple[int, int]] = {}
        self.units = Units(self.order, kitty_seats(state))  # the largest units held
        self.sure_gap = 20 * state.n
        root_lead = state.lead.units[0].pairs if state.lead is not None else 0
        self.root_pairs = max(self.units.most(state.hands), root_lead)
        self.at_lead: dict[tuple[int, ...], tuple[tuple[object, ...], int]] = {}
        self.classes: dict[tuple[int, ...], object] = {}
        self.penalised = bool(state.rules.throw_penalty) or any(state.penalties)
        # the kitty at its multiplier for a last lead of so many pairs (0: a single) at most
        self.kitty_bound = _kitty_bounds(self.mode, self.kitty_points)
        self.max_nodes = INFINITY if budget.max_nodes is None else budget.max_nodes
        self.deadline_or_inf = float("inf") if self.deadline is None else self.deadline
        self.follows: dict[tuple[int, int], Follows] = {}
        # for single and pair leads, by the led suit: each card's key when played to it, as
        # `trick_winner` compares them
        self.keys = tuple(single_or_pair_keys(self.order, led) for led in range(TRUMP + 1))
        self.parts: dict[tuple[int, ...], object] = {}  # a suit's part of a key (`lead_key`)
        self.final = (0, 0)  # the opponents' total and the declarers' points at a line's end
        self.formats: dict[int, Format] = {}  # leads read (`read`)
        self.merged: dict[tuple[object, ...], list[int]] = {}  # follows merged (`moves`)
        self.unions = [  # the cards of the effective suits of a bit mask
            sum(m for e, m in enumerate(self.order.suit_mask) if bits >> e & 1)
            for bits in range(32)
        ]
        self.so_far: dict[tuple[object, ...], tuple[int, int]] = {}  # `points_so_far`
        self.end = TwoLeft(self.order, self.keys, self.kitty_points, self.mode)

    # bounds and keys ---------------------------------------------------------------------------

    def base(self) -> int:
        """The opponents' points so far (trick points and penalties): `team_points`'s first,
        written out without the declarers' count for the search's inner loop."""
        s = self.state
        decl = s.declarers
        total = 0
        for seat, w in enumerate(s.won):
            if not decl >> seat & 1:
                total += w
        if any(s.penalties):
            total += sum(p if decl >> i & 1 else -p for i, p in enumerate(s.penalties))
        return total

    # moves -------------------------------------------------------------------------------------

    def moves(self, first: int = 0) -> list[int]:
        """The mover's plays, merged and ordered (`first`, the table's best, leads)."""
        s = self.state
        seat = s.turn
        lead = s.lead
        if lead is None:
            plays = leads(s)
            suits = 31
        else:
            # a follow's legal plays depend on the lead's cards (its format is read from them)
            # and the follower's hand only: the same pair comes back in many positions
            fkey = (lead.cards, s.hands[seat])
            found = self.follows.get(fkey)
            if found is None:
                if len(self.follows) > CACHE:
                    self.follows.clear()
                found = self.follows[fkey] = follow_list(self.order, self.keys, lead, s.hands[seat])
            plays, suits, by_gain, by_loss = found
            if by_gain and len(plays) > 1:
                # a single or a pair led: `ordered`'s order from the two kept sorts, the plays
                # that take the trick first (merged after: any play of a class stands for it)
                best_key, partner_wins = self.holder(lead)
                if len(plays) > 2:
                    # the merged list depends on the follows, who holds the trick and the
                    # cards of the follows' suits in each hand and on the table only
                    mask = self.unions[suits]
                    table = 0
                    for _, p in s.trick_plays:
                        table += p
                    mkey = (fkey, best_key, partner_wins, seat, table & mask,
                            *[h & mask for h in s.hands])  # fmt: skip
                    merged = self.merged.get(mkey)
                    if merged is None:
                        if len(self.merged) > CACHE:
                            self.merged.clear()
                        merged = self.merged[mkey] = merge(
                            follow_order(by_gain, by_loss, best_key, partner_wins),
                            card_classes(s, seat, suits, self.classes),
                        )
                    if not first or first not in merged:
                        return merged  # the kept list: the search never changes it
                    plays = list(merged)
                else:
                    plays = follow_order(by_gain, by_loss, best_key, partner_wins)
                if first and first in plays:
                    plays.remove(first)
                    plays.insert(0, first)
                return plays
        if len(plays) > 2:
            plays = merge(plays, card_classes(s, seat, suits, self.classes))
        plays = ordered(s, self.keys, self.info, plays) if len(plays) > 1 else list(plays)
        if first and first in plays:
            plays.remove(first)
            plays.insert(0, first)
        return plays

    def holder(self, lead: Format) -> tuple[int, bool]:
        """A single or pair lead's trick so far: the key of the play that holds it (`keys`:
        the earliest of the highest, as `trick_winner`) and whether it is the mover's side's."""
        s = self.state
        shape = 1 if lead.kind == "single" else 2
        best_key, winner = trick_holder(self.keys[lead.esuit], s.trick_plays, shape)
        decl = s.declarers
        return best_key, (decl >> winner & 1) == (decl >> s.turn & 1)

    # alpha-beta --------------------------------------------------------------------------------

    def lead_info(self, hands: tuple[int, ...]) -> tuple[tuple[object, ...], int]:
        """A lead's `lead_key` and `Units.most`, kept by its hands."""
        if len(self.at_lead) > CACHE:
            self.at_lead.clear()
        found = self.at_lead[hands] = (
            lead_key(self.order, hands, self.parts),
            self.units.most(hands),
        )
        return found

    def frame(
        self, alpha: int = INFINITY
    ) -> tuple[int, int, tuple[object, ...] | None, tuple[int, ...]]:
        """The opponents' points so far, no more than they can end with (in the middle of a
        trick, a looser bound where no bound could reach `alpha`), the table's key (None in
        the middle of a trick) and the hands (the round not over).

        Only leads are kept in the table: a position in the middle of a trick comes back
        seldom (about one visit in ten), while a lead's entry serves every way of reaching it,
        and the table's memory goes to the positions that repay it."""
        s = self.state
        decl = s.declarers
        won = s.won
        # the points so far and those left change only when a trick ends: kept by what
        # they depend on
        seen = self.so_far.get((won, decl, s.penalties))
        if seen is None:
            seen = self.points_so_far()
        base, left = seen
        hands = tuple(s.hands)
        lead = s.lead
        if lead is None and not s.calls:
            # at a lead: the key (`lead_key`) and the most pairs a hand holds, once per hands
            found = self.at_lead.get(hands) or self.lead_info(hands)
            key: tuple[object, ...] | None = (found[0], s.turn, decl)
            most_pairs = self.units.lead(hands, s.turn, found[1])
        elif lead is None:  # zhao pengyou: a call can change the declarers, keyed exactly
            key = (hands, s.turn, decl)
            most_pairs = self.units.lead(hands, s.turn)
        else:
            key = None
            rest = base + left
            if rest + self.kitty_bound[0] > alpha:
                # no kitty bound can cut here: the largest, which holds from the root on
                return base, rest + self.kitty_bound[self.root_pairs], key, hands
            most_pairs = trick_pairs(
                hands, s.trick_plays[0][0], lead.units[0].pairs, self.units.most(hands)
            )
        # no more than the points left and the kitty at the largest multiplier the last lead
        # can still have can come to the opponents
        top = base + left + self.kitty_bound[most_pairs]
        return base, top, key, hands

    def points_so_far(self) -> tuple[int, int]:
        """`base` and the points still in play, kept by the points won, the declarers and
        the penalties."""
        s = self.state
        if len(self.so_far) > CACHE:
            self.so_far.clear()
        found = self.so_far[(s.won, s.declarers, s.penalties)] = (
            self.base(),
            self.in_play - sum(s.won),
        )
        return found

    def peekable(self, plays: list[int]) -> bool:
        """Whether `known_after` can look past the trick's last plays `plays` without making
        them: not where a play ends the round (the engine scores it) nor where a call could
        change the declarers."""
        s = self.state
        if s.calls or s.lead is None:
            return False
        seat = s.turn
        return any(h for i, h in enumerate(s.hands) if i != seat) or all(
            p != s.hands[seat] for p in plays
        )

    def known_after(self, plays: list[int], base: int) -> Iterator[tuple[int, int]]:
        """`known` after each of the trick's last plays `plays` in turn, without making them
        (`peekable`): the hands less the play, the trick to its winner (as `trick_winner`
        finds it: the fast way of `holder` for a single or a pair), and the table's bounds
        for that lead, with `base` the opponents' points before the play."""
        s = self.state
        lead = s.lead
        assert lead is not None
        seat = s.turn
        hands = list(s.hands)
        mine = hands[seat]
        decl = s.declarers
        table = 0
        for _, p in s.trick_plays:
            table += p
        left = self.in_play - sum(s.won)
        fast = lead.kind == "single" or lead.kind == "pair"
        shape = 1 if lead.kind == "single" else 2
        keys = self.keys[lead.esuit]
        best_key, winner = trick_holder(keys, s.trick_plays, shape)  # the trick so far
        table_list = [p for _, p in s.trick_plays]
        two = size(mine) == 2  # a play of one card leaves the last trick
        for play in plays:
            if fast:
                c = (play.bit_length() - 1) >> 1
                k = keys[c] if play == shape << (c << 1) else -1
                took = seat if k > best_key else winner
            else:
                at = trick_winner(self.order, [*table_list, play], lead)
                took = s.trick_plays[at][0] if at < len(table_list) else seat
            pts = points(table + play)
            got = base + pts if not decl >> took & 1 else base
            hands[seat] = mine - play
            last = self.end.last(hands, took, decl, got) if two else None
            if last is not None:
                yield last, last
                continue
            ht = tuple(hands)
            found = self.at_lead.get(ht)
            if found is None:
                # a lead whose key was never worked out: not looked up (the key would cost
                # more, at six cards a seat, than the few cut-offs it finds)
                most = self.units.lead(ht, took)
                yield got, got + left - pts + self.kitty_bound[most]
                continue
            most = self.units.lead(ht, took, found[1])
            top = got + left - pts + self.kitty_bound[most]
            entry = self.table.get((found[0], took, decl))
            if entry is None:
                yield got, top
            else:
                yield max(got, entry[0] + got), min(top, entry[1] + got)

    def read(self, play: int) -> Format:
        """A lead's format (`classify`), kept by its cards."""
        if len(self.formats) > CACHE:
            self.formats.clear()
        found = self.formats[play] = classify(self.order, play)
        return found

    def known(self) -> tuple[int, int]:
        """What is known of the position's value without searching it: the round's total when
        it is over, else the static bounds narrowed by the table's."""
        s = self.state
        if s.result is not None:
            return s.result.total, s.result.total
        base, top, key, _ = self.frame()
        entry = None if key is None else self.table.get(key)
        if entry is None:
            return base, top
        return max(base, entry[0] + base), min(top, entry[1] + base)

    def search(self, alpha: int, beta: int) -> int:
        """The opponents' final total under perfect play from here, exact when strictly
        inside (alpha, beta); at most alpha when it is at most alpha, at least beta when at
        least beta (fail-soft)."""
        s = self.state
        if s.result is not None:
            return s.result.total
        self.nodes += 1
        if self.nodes > self.max_nodes or (
            self.nodes % CHECK_EVERY == 0
            and (time.perf_counter() > self.deadline_or_inf or stop_requested())
        ):
            raise SjOutOfBudget
        if s.lead is None and not s.calls:
            h = s.hands[s.turn]
            if not h & (h - 1) and not h & HIGH:
                last = self.end.last(s.hands, s.turn, s.declarers, self.base())
                if last is not None:
                    return last
        base, top, key, hands = self.frame(alpha)
        if base >= beta:
            return base
        if top <= alpha:
            return top
        if (
            s.lead is not None
            and (top - alpha <= self.sure_gap or beta - base <= self.sure_gap)
            and len(s.trick_plays) < s.n - 1
            and s.lead.kind in ("single", "pair")
            and not s.calls  # calls can change the teams
        ):
            # the points of this trick a side is sure of, where they can settle the test
            opp, dec = sure_points(self.order, self.keys, s.trick_plays, s.lead, s.hands,
                                   s.declarers, s.turn, beta - base, top - alpha)  # fmt: skip
            if base + opp >= beta:
                return base + opp
            if top - dec <= alpha:
                return top - dec
        entry = None if key is None else self.table.get(key)
        if entry is not None:
            lo, hi = entry[0] + base, entry[1] + base
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        else:
            lo, hi = base, top
        if key is not None and not s.calls and size(hands[s.turn]) == 2:
            # the last two tricks, searched without the engine (kept in the table all the same)
            best = base + self.end.value(hands, s.turn, s.declarers, alpha - base, beta - base)
            self.keep(key, hands, base, lo, hi, alpha, beta, best, [], 0)
            return best
        # the plays are kept for the hands they were made for (a key may stand for others)
        plays = entry[2] if entry is not None and entry[3] == hands else self.moves()
        a, b = alpha, beta
        seat = s.turn
        maximise = not s.declarers >> seat & 1
        if s.lead is not None and len(s.trick_plays) == s.n - 1 and len(plays) > 1:
            # the trick's last play: each play ends the trick at a lead whose bounds the table
            # may hold already; one that settles this position's test ends it unsearched (an
            # enhanced transposition cut-off: the bound is proved, so returning it is exact)
            peeked: list[tuple[int, int, int, int]] = []
            seen = self.known_after(plays, base) if self.peekable(plays) else None
            for i, play in enumerate(plays):
                if seen is not None:
                    lo_c, hi_c = next(seen)
                else:
                    s.play_legal(seat, play)
                    try:
                        lo_c, hi_c = self.known()
                    finally:
                        s.undo()
                if maximise:
                    if lo_c >= beta:
                        return lo_c
                    peeked.append((-lo_c, -hi_c, i, play))
                else:
                    if hi_c <= alpha:
                        return hi_c
                    peeked.append((hi_c, lo_c, i, play))
            # the rest in the order of what the table says of them: the likeliest to refute
            # first (a sort on proved bounds only changes the order, never the value)
            peeked.sort()
            plays = [p for _, _, _, p in peeked]
            bounds = {p: (-x, -y) if maximise else (y, x) for x, y, _, p in peeked}
        else:
            bounds = {}
        best = -INFINITY if maximise else INFINITY
        chosen = 0
        for play in plays:
            known = bounds.get(play)
            # a lead whose bounds settle the test is not made again: its search would
            # answer from the same bounds (fail-soft, as `search` returns them)
            if known is not None and known[0] >= b:
                v = known[0]
            elif known is not None and (known[1] <= a or known[0] == known[1]):
                v = known[1]
            else:
                if s.lead is None:  # a lead's format, read once per play (`play_legal`)
                    read = self.formats.get(play)
                    if read is None:
                        read = self.read(play)
                    s.play_legal(seat, play, read)
                else:
                    s.play_legal(seat, play)
                try:
                    v = self.search(a, b)
                finally:
                    s.undo()
            if maximise:
                if v > best:
                    best, chosen = v, play
                    if v > a:
                        a = v
            elif v < best:
                best, chosen = v, play
                if v < b:
                    b = v
            if a >= b:
                break
        if key is not None:
            self.keep(key, hands, base, lo, hi, alpha, beta, best, plays, chosen)
        return best

    def keep(
        self, key: tuple[object, ...], hands: tuple[int, ...], base: int, lo: int, hi: int,
        alpha: int, beta: int, best: int, plays: list[int], chosen: int,
    ) -> None:  # fmt: skip
        """Keep in the table what a lead's search in (alpha, beta) proved (`best`, fail-soft;
        `lo` and `hi` the bounds known before), as bounds on the points to come, with its
        plays, the best (`chosen`) first."""
        if best <= alpha:
            lo, hi = lo, max(lo, min(hi, best))
        elif best >= beta:
            lo, hi = min(hi, max(lo, best)), hi
        else:
            lo = hi = best
        if len(self.table) >= self.budget.table_entries:
            self.table.clear()  # the cap keeps the memory bounded; the search stays exact
        if plays and plays[0] != chosen:  # the best play first the next time: the list is kept
            plays = [chosen, *(p for p in plays if p != chosen)]
        self.table[key] = (lo - base, hi - base, plays, hands)

    # the root ----------------------------------------------------------------------------------

    def child(self, play: int, alpha: int, beta: int) -> int:
        """The value after the mover plays `play`, searched in (alpha, beta)."""
        s = self.state
        s.play_legal(s.turn, play)
        try:
            return self.search(alpha, beta)
        finally:
            s.undo()

    def equals(self, play: int, value: int) -> bool:
        """Whether `play` keeps the position's `value`. No play of the mover does better than
        the value, so one null-window test settles it: for an opponent, whether the play
        reaches it; for a declarer, whether it holds the opponents to it."""
        s = self.state
        if s.declarers >> s.turn & 1:
            return self.child(play, value, value + 1) <= value
        return self.child(play, value - 1, value) >= value

    def relax(self) -> None:
        """More room for the line and the ties once the value is known."""
        b = self.budget
        nodes = None if b.max_nodes is None else self.nodes + max(b.max_nodes, 10_000)
        self.budget = SjBudget(nodes, b.max_seconds, b.table_entries)
        self.max_nodes = INFINITY if nodes is None else nodes
        if self.deadline is not None and b.max_seconds is not None:
            self.deadline = self.deadline_or_inf = time.perf_counter() + max(b.max_seconds / 2, 0.5)

    def playout(self, value: int | None) -> list[SjLineStep]:
        """A line to the round's end: plays that keep `value` while they can be proved to
        (None: none is), else the first play of the heuristic order. Left as it was."""
        s = self.state
        made: list[SjLineStep] = []
        try:
            while s.result is None:
                plays = self.moves(self._best_of())
                chosen = plays[0]
                if value is not None:
                    try:
                        chosen = next(p for p in plays if self.equals(p, value))
                    except (SjOutOfBudget, StopIteration):
                        value = None
                ev = s.play_legal(s.turn, chosen)
                assert isinstance(ev, PlayEvent)
                tr = ev.trick_result
                made.append(
                    SjLineStep(ev.seat, ev.cards, tr.winner if tr else None, tr.points if tr else 0)
                )
            assert s.result is not None
            self.final = (s.result.total, team_points(s)[1])
        finally:
            for _ in made:
                s.undo()
        return made

    def _best_of(self) -> int:
        key = self.frame()[2]
        entry = None if key is None else self.table.get(key)
        if entry is None or not entry[2] or entry[3] != tuple(self.state.hands):
            return 0
        return entry[2][0]


def _mtdf(state: RoundState, budget: SjBudget | None) -> tuple[_Search, int, int, int, bool]:
    """The value's search (MTD(f)): the search, its last guess, the proved bounds and whether
    the guess is exact."""
    if state.phase != "play" or state.result is not None:
        raise ValueError("the round is not in play: nothing to solve")
    search = _Search(state, budget or SjBudget())
    search.playout(None)  # a first guess: the line the move ordering alone plays
    guess = search.final[0]
    lower, upper = -INFINITY, INFINITY
    exact = True
    # points come in fives (throw penalties aside: any step keeps the value exact)
    up = down = 5
    try:
        while lower < upper:
            if lower > -INFINITY and upper == INFINITY:
                # only a lower bound so far: test ever further above it (a guess too low costs
                # one test per step, while a test too high fails at once to an upper bound,
                # from which the tests go on as before)
                beta = min(lower + up, upper)
                up *= 2
            elif upper < INFINITY and lower == -INFINITY:
                # only an upper bound: ever further below it, the same way down (a first
                # guess far above the value costs a few tests, not one per five points)
                beta = upper - down + 5
                down *= 2
            else:
                beta = guess + 1 if guess == lower else guess
            guess = search.search(beta - 1, beta)
            if guess < beta:
                upper = guess
            else:
                lower = guess
    except SjOutOfBudget:
        exact = False
    return search, guess, lower, upper, exact


def solve_value(state: RoundState, budget: SjBudget | None = None) -> int | None:
    """The opponents' total under perfect play from `state`, or None when the budget ends
    first: `solve_state`'s value without its best plays and line (what a play's cost needs)."""
    with collected_after():  # as `solve_state`
        _, guess, _, _, exact = _mtdf(state, budget)
    return guess if exact else None


def solve_state(
    state: RoundState, budget: SjBudget | None = None, ties: bool = True
) -> SjSolveResult:
    """Solve the round in play from `state` (left as it was): the opponents' total under
    perfect play, the best plays of the seat to move (every one that ties; with `ties` False
    only the first found), a principal variation. ValueError when the round is not in play.

    The value is found by null-window tests from a first guess (MTD(f)): each asks whether
    the value is at least some figure, and the table keeps what each proved for the next.
    While only a lower bound is known, each test goes twice as far above it as the last (and
    below an upper bound the same way).

    The search's table and caches live until it ends and hold no cycles: the garbage
    collector, which would go over them again and again and free nothing, waits until then
    (`zfrec.gctuning.collected_after`; a full collection in a solve of six cards a seat
    took as long as half the solve).
    """
    with collected_after():
        return _solve(state, budget, ties)


def _solve(state: RoundState, budget: SjBudget | None, ties: bool) -> SjSolveResult:
    search, guess, lower, upper, exact = _mtdf(state, budget)
    value = guess if exact else min(max(guess, lower), upper)
    if not exact:  # the static bounds and the table's hold too (the first test may not end)
        low, high = search.known()
        lower, upper = max(lower, low), min(upper, high)
    search.relax()
    plays = search.moves(search._best_of())
    best: list[int] = []
    try:
        if not exact:
            best = plays[:1]
        elif ties:
            best = [p for p in plays if search.equals(p, value)]
        else:
            best = [next(p for p in plays if search.equals(p, value))]
    except SjOutOfBudget:
        best = best or plays[:1]
    if exact and not best:  # cannot happen: some play keeps the value
        best = plays[:1]
    first = best[0]
    state.play_legal(state.turn, first)
    try:
        rest = search.playout(value if exact else None)
    finally:
        state.undo()
    line = [_step(state, first), *rest]
    if not exact:
        value = min(max(search.final[0], lower), upper)
    ms = (time.perf_counter() - search.started) * 1000
    if exact:
        lower = upper = value
    return SjSolveResult(value, search.final[1], best, line, search.nodes, ms, exact, lower, upper)


def _step(state: RoundState, play: int) -> SjLineStep:
    """The line step of `play` by the seat to move (made and taken back)."""
    ev = state.play_legal(state.turn, play)
    state.undo()
    assert isinstance(ev, PlayEvent)
    tr = ev.trick_result
    return SjLineStep(ev.seat, ev.cards, tr.winner if tr else None, tr.points if tr else 0)
