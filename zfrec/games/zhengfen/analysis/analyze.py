"""Decision analysis: what each player could have done, and where the points went.

Everything is read off the one replay stream (zfrec.replay). The alternatives at each decision
come from the move generator (zfrec.games.zhengfen.engine.movegen) applied to the hand the seat held
at that moment; nothing here applies a rule of its own. The alternatives need the deal: a hand whose
deal is recorded, or reconstructed without doubt from the plays, is analysed in full; a hand
whose deal could only be partly reconstructed (diagnostic ZF305) still gets its points,
conceded counters and going-out order, but no alternatives and no missed beats.

The parts, in this package: `decisions` (one decision, its alternatives and notes, a seat's
account), `flow` (tricks, transfers, the points flow), `stats` (players across games). Their public
names are importable from here too.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> analysis = analyze_game(example_game())
    >>> [note.text for note in analysis.per_move_notes()][1:]
    ['Bo passed on 5s but had 5 beating plays, e.g. 6s; 5 points on the table (5s)', \
'Cy passed on 5s but had 7 beating plays, e.g. Qs; 5 points on the table (5s)', \
'Bo put 10 points into a trick another player won']
    >>> [(row.trick, row.scores) for row in analysis.points_flow()]
    [(1, (5, 0, 0)), (2, (5, 0, 10)), (3, (5, 0, 10)), (4, (5, 0, 10))]
    >>> player_aggregates([analysis])["Bo"].missed_beats
    1
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from zfrec.diagnostics import Diagnostic
from zfrec.games import NotSupported, find_kind
from zfrec.games.zhengfen.analysis.costs import COST_BUDGET, CostFinder
from zfrec.games.zhengfen.analysis.decisions import (
    DEFAULT_NOTE_KINDS,
    MAX_ALTERNATIVES,
    Alternative,
    Decision,
    MoveNote,
    NoteJson,
    NoteKind,
    SeatStats,
    abstract_move,
    joker_texts,
    move_size,
    notes_of,
    relevant_alternatives,
)
from zfrec.games.zhengfen.analysis.flow import FlowRow, Transfer, TransferJson, TrickFlow
from zfrec.games.zhengfen.analysis.stats import PlayerAnalysis, player_aggregates
from zfrec.games.zhengfen.engine.cards import points_of
from zfrec.games.zhengfen.engine.combos import Category, Combo
from zfrec.games.zhengfen.engine.game import (
    HandResult,
    HandState,
    PassEvent,
    PlayEvent,
    TrickResult,
)
from zfrec.games.zhengfen.engine.movegen import Move, legal_plays
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.games.zhengfen.solver import Budget
from zfrec.jsonview import PerPlayer, PlayerName, PlayerNames, dump
from zfrec.numbering import occurrences, with_occurrence
from zfrec.record.model import Game
from zfrec.replay import GameEnd, HandEnd, HandStart, MoveStep, ReplayState, ReplayVisitor, walk

_CATEGORY_NAMES = {c: c.name for c in Category}  # an enum member's name is a slow property


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """One hand: its decisions, tricks and per-seat accounts, the going-out order and result.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> [hand] = analyze_game(example_game()).hands
    >>> hand.deal_known, hand.finished, len(hand.decisions), [t.winner for t in hand.tricks]
    (True, False, 17, [0, 2, 2, 2])
    >>> hand.to_json(["Ann", "Bo", "Cy"])["seats"]["Cy"]["captured"]
    10
    """

    hand: int
    hand_index: int
    known_seats: tuple[bool, ...]  # hands recorded, or reconstructed without doubt
    reconstructed: bool
    decisions: tuple[Decision, ...]
    tricks: tuple[TrickFlow, ...]
    seats: tuple[SeatStats, ...]
    out_order: tuple[int, ...]  # as far as the hand went
    result: HandResult | None  # None when the record stops before the hand ends
    totals_before: tuple[int, ...]
    totals: tuple[int, ...]

    @property
    def finished(self) -> bool:
        """The record goes on to the end of the hand."""
        return self.result is not None

    @property
    def deal_known(self) -> bool:
        """Every seat's hand is known, so every decision has its alternatives."""
        return all(self.known_seats)

    @property
    def transfer(self) -> Transfer | None:
        """The last -> first transfer of a finished hand."""
        r = self.result
        if r is None:
            return None
        return Transfer(
            r.last, r.first, points_of(r.transfer_tricks), points_of(r.transfer_hand),
            r.transfer_tricks | r.transfer_hand,
        )  # fmt: skip

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        """The hand as `zfrec analyze --json` writes it (ANALYSIS.md)."""
        data: dict[str, Any] = dump(HandJson.of(self), players=players)
        return data


@dataclass(frozen=True, slots=True)
class HandJson:
    """The JSON of a `HandAnalysis`: the outcome first, then seats, tricks and decisions.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> view = HandJson.of(analyze_game(example_game()).hands[0])
    >>> view.known_hands, view.first, view.transfer
    ((0, 1, 2), None, None)
    """

    hand: int
    deal_known: bool
    known_hands: PlayerNames
    deal_reconstructed: bool
    finished: bool
    out_order: PlayerNames
    first: PlayerName | None
    last: PlayerName | None
    transfer: TransferJson | None
    points: PerPlayer[int] | None
    totals: PerPlayer[int]
    seats: PerPlayer[SeatStats]
    tricks: tuple[TrickFlow, ...]
    decisions: tuple[Decision, ...]

    @classmethod
    def of(cls, h: HandAnalysis) -> HandJson:
        """The view of a hand's analysis."""
        r, t = h.result, h.transfer
        return cls(
            hand=h.hand,
            deal_known=h.deal_known,
            known_hands=tuple(s for s, known in enumerate(h.known_seats) if known),
            deal_reconstructed=h.reconstructed,
            finished=h.finished,
            out_order=h.out_order,
            first=None if r is None else r.first,
            last=None if r is None else r.last,
            transfer=None if t is None else TransferJson.of(t),
            points=None if r is None else r.points,
            totals=h.totals,
            seats=h.seats,
            tricks=h.tricks,
            decisions=h.decisions,
        )


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """A game's analysis: its hands, the final scores, and the validation errors met.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> analysis = analyze_game(example_game())
    >>> analysis.players, analysis.errors, analysis.hand(1) is analysis.hands[0]
    (['Ann', 'Bo', 'Cy'], 0, True)
    >>> [(st.captured, st.conceded) for st in analysis.seat_totals()]
    [(5, 0), (0, 10), (10, 0)]
    """

    game: Game
    rules: Ruleset
    hands: tuple[HandAnalysis, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    over: bool
    errors: int  # validation errors met on the way; the analysis of an illegal record is shaky

    @property
    def players(self) -> list[str]:
        """The players' names, by seat."""
        return self.game.players

    def hand(self, number: int) -> HandAnalysis | None:
        """The hand numbered `number` in the record, if there is one."""
        return next((h for h in self.hands if h.hand == number), None)

    def decisions(self) -> Iterator[Decision]:
        """Every decision of the game, in play order."""
        for h in self.hands:
            yield from h.decisions

    def seat_totals(self, hand: int | None = None) -> tuple[SeatStats, ...]:
        """Each seat's stats summed over the hands of this game (`hand`: those numbered so)."""
        out = tuple(SeatStats() for _ in self.players)
        for h in self.hands:
            if hand is not None and h.hand != hand:
                continue
            for s, st in enumerate(h.seats):
                out[s].add(st)
        return out

    def per_move_notes(self, kinds: Iterable[NoteKind] = DEFAULT_NOTE_KINDS) -> list[MoveNote]:
        """Notes to mark on the replay page, in play order.

        Kinds: `missed_beat` (a pass when a beat was legal), `conceded` (counters played into a
        trick another seat won); also `special` and `joker` on request.

        >>> from zfrec.games.zhengfen.analysis.example import example_game
        >>> analysis = analyze_game(example_game())
        >>> [(n.trick, n.kind) for n in analysis.per_move_notes(["special", "joker"])]
        [(3, 'joker'), (4, 'special')]
        """
        wanted = set(kinds)
        return [n for d in self.decisions() for n in notes_of(d, self.players) if n.kind in wanted]

    def points_flow(self) -> list[FlowRow]:
        """A row per trick taken and per transfer, with the running game scores after it."""
        rows: list[FlowRow] = []
        for h in self.hands:
            for t in h.tricks:
                scores = tuple(b + c for b, c in zip(h.totals_before, t.captured, strict=True))
                rows.append(FlowRow(h.hand, t.trick, "trick", t.winner, None, t.points, scores))
            tr = h.transfer
            if tr is not None:
                rows.append(
                    FlowRow(h.hand, None, "transfer", tr.to_seat, tr.from_seat, tr.points, h.totals)
                )
        return rows

    def to_json(self) -> dict[str, Any]:
        """The analysis as `zfrec analyze --json` writes it for one game (ANALYSIS.md): a hand,
        note or points-flow row of the second hand the record numbers N adds `occurrence` 2, as
        the text says `hand N (2nd)`."""
        data: dict[str, Any] = dump(GameJson.of(self), players=self.players)
        occurs = occurrences([h.hand for h in self.hands])
        if max(occurs, default=1) > 1:
            by_index = {h.hand_index: k for h, k in zip(self.hands, occurs, strict=True)}
            notes = self.per_move_notes()  # as GameJson.of lists them
            data["notes"] = [
                with_occurrence(entry, 1 if n.hand_index is None else by_index.get(n.hand_index, 1))
                for entry, n in zip(data["notes"], notes, strict=True)
            ]
            rows = [k for h, k in zip(self.hands, occurs, strict=True)
                    for _ in range(len(h.tricks) + (h.transfer is not None))]  # fmt: skip
            data["points_flow"] = [
                with_occurrence(entry, k)
                for entry, k in zip(data["points_flow"], rows, strict=True)
            ]
            data["hands"] = [
                with_occurrence(entry, k) for entry, k in zip(data["hands"], occurs, strict=True)
            ]
        return data


@dataclass(frozen=True, slots=True)
class GameJson:
    """The JSON of a `GameAnalysis`: the verdict and scores, per-seat totals, the notes, the
    points flow, and the hands.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> view = GameJson.of(analyze_game(example_game()))
    >>> view.legal, len(view.notes), len(view.points_flow)
    (True, 4, 4)
    """

    players: list[str]
    rules: str
    legal: bool
    errors: int
    scores: PerPlayer[int]
    over: bool
    winners: PlayerNames
    seats: PerPlayer[SeatStats]
    notes: tuple[NoteJson, ...]
    points_flow: tuple[FlowRow, ...]
    hands: tuple[HandJson, ...]

    @classmethod
    def of(cls, a: GameAnalysis) -> GameJson:
        """The view of a game's analysis."""
        return cls(
            players=a.players,
            rules=a.rules.describe(),
            legal=a.errors == 0,
            errors=a.errors,
            scores=a.scores,
            over=a.over,
            winners=a.winners,
            seats=a.seat_totals(),
            notes=tuple(NoteJson.of(n) for n in a.per_move_notes()),
            points_flow=tuple(a.points_flow()),
            hands=tuple(HandJson.of(h) for h in a.hands),
        )


# --- building the analysis from the replay -------------------------------------------------------


@dataclass(slots=True)
class _HandBuilder:
    start: HandStart
    rules: Ruleset
    n: int
    totals_before: tuple[int, ...]
    known: tuple[bool, ...]
    detail: bool  # alternatives for every decision; without it, only passes are judged
    decisions: list[Decision] = field(default_factory=list)
    tricks: list[TrickFlow] = field(default_factory=list)
    seats: list[SeatStats] = field(default_factory=list)
    pending: list[tuple[int, int, int]] = field(default_factory=list)  # decision, seat, points
    captured: list[int] = field(default_factory=list)
    actions: int = 0  # the hand's MoveSteps so far: the next decision's `step`
    # The last play and its text: it is the top that the turns after it face, and writing a
    # play's text for each of them was a fifth of the analysis.
    _last: Combo | None = None
    _last_text: str = ""

    def __post_init__(self) -> None:
        self.seats = [SeatStats() for _ in range(self.n)]
        self.captured = [0] * self.n

    def _text(self, combo: Combo) -> str:
        if combo is not self._last:
            self._last, self._last_text = combo, combo.text()
        return self._last_text

    def step(self, ev: MoveStep) -> None:
        """One action, judged from the state before it that the step carries."""
        action = self.actions
        self.actions += 1
        event = ev.event
        if event is None:
            return
        seat = event.seat
        st = self.seats[seat]
        st.decisions += 1
        held, top = ev.held, ev.top  # held: None where the deal had to be guessed (ZF305)
        judge = held is not None and (self.detail or isinstance(event, PassEvent))
        moves = legal_plays(held, top, self.rules) if judge and held is not None else None
        if isinstance(event, PlayEvent):
            decision = self._play(event, st, held or 0, moves, ev, action)
        else:
            decision = self._pass(event, st, held or 0, moves, ev, action)
        self.decisions.append(decision)
        if event.trick_result is not None:
            self._trick(event.trick_result)

    # Decision's first fields, hand to lead, which every decision has (a Decision is made
    # positionally: one per move, it is most of the analysis).
    def _head(
        self, ev: MoveStep, event: PlayEvent | PassEvent
    ) -> tuple[int, int, int, int, int | None, int, bool]:
        return (
            self.start.number,
            self.start.hand_index,
            ev.trick_index,
            event.turn,
            None if ev.inferred else ev.move_index,
            event.seat,
            ev.top is None,
        )

    def _play(
        self, event: PlayEvent, st: SeatStats, hand_before: int, moves: list[Move] | None,
        ev: MoveStep, action: int,
    ) -> Decision:  # fmt: skip
        combo = event.combo
        st.plays += 1
        category = _CATEGORY_NAMES[combo.category]
        st.categories[category] += 1
        special = combo.category is Category.special
        st.specials += special
        jokers = joker_texts(combo)
        st.jokers += len(jokers)
        self.pending.append((len(self.decisions), event.seat, points_of(combo.mask)))
        top = ev.top
        lead = top is None
        top_text = None if top is None else self._text(top)  # first: _text keeps the last one
        return Decision(
            *self._head(ev, event),
            "play",
            self._text(combo),
            category,
            top_text,
            ev.top_seat,
            points_of(ev.trick_cards),
            ev.trick_cards,
            None if moves is None else len(moves),
            relevant_alternatives(hand_before, moves, lead, abstract_move(combo))
            if moves and self.detail
            else (),
            None if moves is None else bool(moves),
            False,
            0,
            jokers,
            special,
            event.out_place,
            None,
            action,
        )

    def _pass(
        self, event: PassEvent, st: SeatStats, hand_before: int, moves: list[Move] | None,
        ev: MoveStep, action: int,
    ) -> Decision:  # fmt: skip
        st.passes += 1
        top = ev.top
        table_points = points_of(ev.trick_cards)
        # declining to beat one's own play (R7) takes it
        own_top = event.seat == ev.top_seat
        missed = bool(moves) and not own_top
        if moves is not None and not own_top:
            st.judged_passes += 1
        if missed:
            st.missed_beats += 1
            st.missed_points += table_points
        # A missed beat's note names an example, so it gets its alternatives in either mode.
        detail = bool(moves) and (self.detail or missed)
        lead = top is None
        alts = relevant_alternatives(hand_before, moves or [], lead, None) if detail else ()
        return Decision(
            *self._head(ev, event),
            "pass",
            None,
            None,
            None if top is None else self._text(top),
            ev.top_seat,
            table_points,
            ev.trick_cards,
            None if moves is None else len(moves),
            alts,
            None if moves is None else bool(moves),
            missed,
            0,
            (),
            False,
            None,
            None,
            action,
        )

    def _trick(self, tr: TrickResult) -> None:
        contributed = [0] * self.n
        for index, seat, pts in self.pending:
            contributed[seat] += pts
            if seat != tr.winner and pts:
                self.decisions[index].conceded = pts
                self.seats[seat].conceded += pts
        self.pending.clear()
        self.captured[tr.winner] += tr.points
        self.seats[tr.winner].captured += tr.points
        self.tricks.append(
            TrickFlow(
                self.start.number, tr.number, tr.winner, tr.points, tr.cards,
                tuple(contributed), tuple(self.captured),
            )
        )  # fmt: skip

    def finish(self, end: HandEnd, hs: HandState) -> HandAnalysis:
        result = end.result
        return HandAnalysis(
            hand=self.start.number,
            hand_index=self.start.hand_index,
            known_seats=self.known,
            reconstructed=self.start.reconstructed,
            decisions=tuple(self.decisions),
            tricks=tuple(self.tricks),
            seats=tuple(self.seats),
            out_order=tuple(result.out_order if result is not None else hs.out_order),
            result=result,
            totals_before=self.totals_before,
            totals=end.totals,
        )


def analyze_game(
    game: Game,
    rules: Ruleset | None = None,
    *,
    alternatives: bool = True,
    solve_cards: int = 0,
    solve_budget: Budget = COST_BUDGET,
) -> GameAnalysis:
    """Analyse every decision of a record, under its own rules or `rules`.

    `alternatives=False` is the fast mode for statistics and pages (about three times faster):
    passes are still judged (options, missed beats) and a missed beat still lists its
    alternatives, but plays get no option count and no other decision lists its alternatives.
    `solve_cards` > 0 asks the hindsight solver what each decision cost (`Decision.cost`,
    `costs`) wherever the deal is known and at most that many cards are left, each position
    within `solve_budget`.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> full, fast = analyze_game(example_game()), analyze_game(example_game(), alternatives=False)
    >>> [d.options for d in full.decisions()][:3], [d.options for d in fast.decisions()][:3]
    ([25, 7, 7], [None, None, 7])
    >>> fast.seat_totals() == full.seat_totals()
    True
    """
    kind = find_kind(game.kind)
    if not kind.analysed:  # the analysers read Zheng Fen's replay
        raise NotSupported(f"the decision analysis of {kind.title} records comes later")
    used = rules or game.ruleset()
    costs = CostFinder(used, solve_cards, solve_budget) if solve_cards > 0 else None
    analyser = GameAnalyser(game, used, alternatives, costs=costs)
    walk(game, [analyser], used)
    return analyser.result()


@dataclass(slots=True)
class GameAnalyser(ReplayVisitor):
    """The analysis as a visitor of a replay pass (zfrec.replay.walk), so one pass can feed it
    and a page together; `result()` once the walk is over. Each `MoveStep` brings the state
    before its move, so nothing is copied or rebuilt here. Give it the rules the walk uses.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> from zfrec.replay import walk
    >>> game = example_game()
    >>> analyser = GameAnalyser(game, game.ruleset())
    >>> _ = walk(game, [analyser])
    >>> analyser.result().seat_totals() == analyze_game(game).seat_totals()
    True
    """

    game: Game
    rules: Ruleset
    alternatives: bool = True
    # Runs inside this visitor, so each decision gets its cost as it is built (costs.py).
    costs: CostFinder | None = None
    hands: list[HandAnalysis] = field(default_factory=list)
    builder: _HandBuilder | None = None
    errors: int = 0
    totals: tuple[int, ...] = ()
    end: GameEnd | None = None

    def __post_init__(self) -> None:
        self.totals = tuple(0 for _ in self.game.players)

    def _count(self, diagnostics: tuple[Diagnostic, ...]) -> None:
        if diagnostics:
            self.errors += sum(d.severity == "error" for d in diagnostics)

    def visit_hand_start(self, state: ReplayState, event: HandStart) -> None:
        """A new hand: a builder for it."""
        self._count(event.diagnostics)
        n = len(self.game.players)
        known = event.known or (True,) * n  # whose dealt hand is known (not guessed, ZF305)
        self.builder = _HandBuilder(event, self.rules, n, self.totals, known, self.alternatives)
        if self.costs is not None:
            self.costs.visit_hand_start(state, event)

    def visit_move(self, state: ReplayState, step: MoveStep) -> None:
        """One decision."""
        self._count(step.diagnostics)
        builder = self.builder
        assert builder is not None
        action = builder.actions
        builder.step(step)
        if self.costs is not None:
            self.costs.visit_move(state, step)
            cost = self.costs.costs.get((step.hand_index, action))
            if cost is not None and builder.decisions and builder.decisions[-1].step == action:
                builder.decisions[-1].cost = cost

    def visit_hand_end(self, state: ReplayState, event: HandEnd) -> None:
        """The hand's analysis is complete."""
        self._count(event.diagnostics)
        if self.costs is not None:
            self.costs.visit_hand_end(state, event)
        assert self.builder is not None and state.hand is not None
        self.hands.append(self.builder.finish(event, state.hand))
        self.totals = event.totals

    def visit_game_end(self, state: ReplayState, event: GameEnd) -> None:
        """The game's own findings count too."""
        self._count(event.diagnostics)
        self.end = event

    def result(self) -> GameAnalysis:
        """The game's analysis, once the walk is over."""
        end = self.end
        assert end is not None, "the walk is not over"
        return GameAnalysis(
            self.game, self.rules, tuple(self.hands), end.scores, end.winners, end.over,
            self.errors,
        )  # fmt: skip


__all__ = [
    "DEFAULT_NOTE_KINDS",
    "MAX_ALTERNATIVES",
    "Alternative",
    "Decision",
    "FlowRow",
    "GameAnalyser",
    "GameAnalysis",
    "GameJson",
    "HandAnalysis",
    "HandJson",
    "MoveNote",
    "NoteKind",
    "PlayerAnalysis",
    "SeatStats",
    "Transfer",
    "TrickFlow",
    "abstract_move",
    "analyze_game",
    "move_size",
    "player_aggregates",
]
