"""Decision analysis: what each player could have done, and where the points went.

    >>> analysis = analyze_game(game)
    >>> for note in analysis.per_move_notes(): ...       # missed beats and conceded counters
    >>> analysis.points_flow()                           # the score, trick by trick
    >>> player_aggregates(games)["Ann"].missed_beats_per_hand

Everything is read off the one replay stream (zfrec.replay). The alternatives at each decision
come from the move generator (zfrec.engine.movegen) applied to the hand the seat held at that
moment;
nothing here applies a rule of its own. The alternatives need the deal: a hand whose deal is
recorded, or reconstructed without doubt from the plays, is analysed in full; a hand whose deal
could only be partly reconstructed (diagnostic ZF305) still gets its points, conceded counters
and going-out order, but no alternatives and no missed beats.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from zfrec.engine.cards import SJ, card_str, format_cards, points_of
from zfrec.engine.combos import UNIT_OF, Category, Combo
from zfrec.engine.game import HandResult, HandState, PassEvent, PlayEvent, TrickResult
from zfrec.engine.movegen import Move, expand, legal_plays
from zfrec.engine.rules import Ruleset
from zfrec.record.model import Game
from zfrec.replay import GameEnd, HandEnd, HandStart, MoveStep, replay

NoteKind = Literal["missed_beat", "conceded", "special", "joker"]
DEFAULT_NOTE_KINDS: tuple[NoteKind, ...] = ("missed_beat", "conceded")
MAX_ALTERNATIVES = 4  # the "most relevant" alternatives shown per decision


# --- per decision --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Alternative:
    """A legal play the seat had: the abstract move and one card set that makes it."""

    category: str
    rank: str
    length: int | None
    jokers: int
    cards: str  # an example card set, the one that spends the fewest counters
    description: str

    def to_json(self) -> dict[str, object]:
        return {
            "category": self.category,
            "rank": self.rank,
            "length": self.length,
            "jokers": self.jokers,
            "cards": self.cards,
            "description": self.description,
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """One turn: a play or a pass, with what the seat faced and what else it could do.

    `trick` is the record's trick (1-based) and `turn` the turn within it, inferred passes
    counted, as in diagnostics. `move_index` is the move's index in the record trick's moves,
    None for a pass the record left out. `options` (legal plays, as abstract moves) and
    `could_beat` are None when the seat's hand is not known.
    """

    hand: int
    hand_index: int
    trick: int
    turn: int
    move_index: int | None
    seat: int
    lead: bool
    action: Literal["play", "pass"]
    cards: str | None
    category: str | None
    top: str | None  # the play to beat, None on a lead
    top_seat: int | None
    table_points: int  # counters in the trick before this turn
    table_cards: int
    options: int | None
    alternatives: tuple[Alternative, ...]
    could_beat: bool | None
    missed_beat: bool
    conceded: int = 0  # counters this play put into a trick another seat won
    jokers: tuple[str, ...] = ()  # jokers played, with what they stood for: ("BJ=9h",)
    special: bool = False
    out_place: int | None = None

    def to_json(self, players: list[str]) -> dict[str, object]:
        return {
            "hand": self.hand,
            "trick": self.trick,
            "turn": self.turn,
            "move_index": self.move_index,
            "player": players[self.seat],
            "lead": self.lead,
            "action": self.action,
            "cards": self.cards,
            "category": self.category,
            "top": self.top,
            "top_player": None if self.top_seat is None else players[self.top_seat],
            "table_points": self.table_points,
            "table_cards": format_cards(self.table_cards),
            "options": self.options,
            "alternatives": [a.to_json() for a in self.alternatives],
            "could_beat": self.could_beat,
            "missed_beat": self.missed_beat,
            "conceded": self.conceded,
            "jokers": list(self.jokers),
            "special": self.special,
            "out_place": self.out_place,
        }


@dataclass(frozen=True, slots=True)
class MoveNote:
    """A remark on one move, for the replay page: where it is, what kind, and the words."""

    hand: int
    trick: int
    turn: int
    seat: int
    kind: NoteKind
    text: str
    move_index: int | None = None
    points: int = 0

    def to_json(self, players: list[str]) -> dict[str, object]:
        return {
            "hand": self.hand,
            "trick": self.trick,
            "turn": self.turn,
            "move_index": self.move_index,
            "player": players[self.seat],
            "kind": self.kind,
            "points": self.points,
            "text": self.text,
        }


# --- per trick and hand --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrickFlow:
    """One trick taken: who took it, the counters in it, who put them there."""

    hand: int
    trick: int
    winner: int
    points: int
    cards: int
    contributed: tuple[int, ...]  # counters each seat played into the trick
    captured: tuple[int, ...]  # counters each seat has taken in this hand so far, before transfer

    def conceded(self, seat: int) -> int:
        return 0 if seat == self.winner else self.contributed[seat]

    def to_json(self, players: list[str]) -> dict[str, object]:
        return {
            "hand": self.hand,
            "trick": self.trick,
            "winner": players[self.winner],
            "points": self.points,
            "cards": format_cards(self.cards),
            "contributed": dict(zip(players, self.contributed, strict=True)),
            "captured": dict(zip(players, self.captured, strict=True)),
        }


@dataclass(frozen=True, slots=True)
class Transfer:
    """The last player's tricks and hand, given to the first out (RULES.md R11)."""

    from_seat: int
    to_seat: int
    trick_points: int
    hand_points: int
    cards: int

    @property
    def points(self) -> int:
        return self.trick_points + self.hand_points

    def to_json(self, players: list[str]) -> dict[str, object]:
        return {
            "from": players[self.from_seat],
            "to": players[self.to_seat],
            "points": self.points,
            "trick_points": self.trick_points,
            "hand_points": self.hand_points,
            "cards": format_cards(self.cards),
        }


@dataclass(slots=True)
class SeatStats:
    """One seat's account for one hand, or summed over hands (see `add`)."""

    decisions: int = 0
    plays: int = 0
    passes: int = 0
    judged_passes: int = 0  # passes whose alternatives were known
    missed_beats: int = 0
    missed_points: int = 0  # counters on the table at the missed beats
    captured: int = 0  # counters taken in tricks, before the transfer
    conceded: int = 0
    specials: int = 0
    jokers: int = 0  # jokers played, wild or as singles
    categories: Counter[str] = field(default_factory=Counter)

    def add(self, other: SeatStats) -> None:
        for name in (
            "decisions", "plays", "passes", "judged_passes", "missed_beats", "missed_points",
            "captured", "conceded", "specials", "jokers",
        ):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.categories.update(other.categories)

    def to_json(self) -> dict[str, object]:
        return {
            "decisions": self.decisions,
            "plays": self.plays,
            "passes": self.passes,
            "missed_beats": self.missed_beats,
            "missed_points": self.missed_points,
            "captured": self.captured,
            "conceded": self.conceded,
            "specials": self.specials,
            "jokers": self.jokers,
            "categories": dict(sorted(self.categories.items())),
        }


@dataclass(frozen=True, slots=True)
class HandAnalysis:
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
        return self.result is not None

    @property
    def deal_known(self) -> bool:
        """Every seat's hand is known, so every decision has its alternatives."""
        return all(self.known_seats)

    @property
    def transfer(self) -> Transfer | None:
        r = self.result
        if r is None:
            return None
        return Transfer(
            r.last, r.first, points_of(r.transfer_tricks), points_of(r.transfer_hand),
            r.transfer_tricks | r.transfer_hand,
        )  # fmt: skip

    def to_json(self, players: list[str]) -> dict[str, object]:
        r, t = self.result, self.transfer
        return {
            "hand": self.hand,
            "deal_known": self.deal_known,
            "known_hands": [players[s] for s, k in enumerate(self.known_seats) if k],
            "deal_reconstructed": self.reconstructed,
            "finished": self.finished,
            "out_order": [players[s] for s in self.out_order],
            "first": None if r is None else players[r.first],
            "last": None if r is None else players[r.last],
            "transfer": None if t is None else t.to_json(players),
            "points": None if r is None else dict(zip(players, r.points, strict=True)),
            "totals": dict(zip(players, self.totals, strict=True)),
            "seats": {players[s]: st.to_json() for s, st in enumerate(self.seats)},
            "tricks": [t.to_json(players) for t in self.tricks],
            "decisions": [d.to_json(players) for d in self.decisions],
        }


@dataclass(frozen=True, slots=True)
class FlowRow:
    """One step of a game's points flow: a trick taken, or a hand's last -> first transfer.

    `scores` are the running game scores after this step, counting captured counters as they
    fall; after a hand's transfer row they equal the hand's computed running totals.
    """

    hand: int
    trick: int | None  # None on the transfer row
    kind: Literal["trick", "transfer"]
    seat: int  # the trick's winner, or the receiver of the transfer
    from_seat: int | None  # the giver of the transfer
    points: int
    scores: tuple[int, ...]

    def to_json(self, players: list[str]) -> dict[str, object]:
        return {
            "hand": self.hand,
            "trick": self.trick,
            "kind": self.kind,
            "player": players[self.seat],
            "from": None if self.from_seat is None else players[self.from_seat],
            "points": self.points,
            "scores": dict(zip(players, self.scores, strict=True)),
        }


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    game: Game
    rules: Ruleset
    hands: tuple[HandAnalysis, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    over: bool
    errors: int  # validation errors met on the way; the analysis of an illegal record is shaky

    @property
    def players(self) -> list[str]:
        return self.game.players

    def hand(self, number: int) -> HandAnalysis | None:
        return next((h for h in self.hands if h.hand == number), None)

    def decisions(self) -> Iterable[Decision]:
        for h in self.hands:
            yield from h.decisions

    def seat_totals(self) -> tuple[SeatStats, ...]:
        """Each seat's stats summed over the hands of this game."""
        out = tuple(SeatStats() for _ in self.players)
        for h in self.hands:
            for s, st in enumerate(h.seats):
                out[s].add(st)
        return out

    def per_move_notes(self, kinds: Iterable[NoteKind] = DEFAULT_NOTE_KINDS) -> list[MoveNote]:
        """Notes to mark on the replay page, in play order.

        Kinds: `missed_beat` (a pass when a beat was legal), `conceded` (counters played into a
        trick another seat won); also `special` and `joker` on request.
        """
        wanted = set(kinds)
        return [n for d in self.decisions() for n in _notes(d, self.players) if n.kind in wanted]

    def points_flow(self) -> list[FlowRow]:
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

    def to_json(self) -> dict[str, object]:
        players = self.players
        return {
            "players": players,
            "rules": self.rules.describe(),
            "legal": self.errors == 0,
            "errors": self.errors,
            "scores": dict(zip(players, self.scores, strict=False)),
            "over": self.over,
            "winners": [players[s] for s in self.winners],
            "seats": {players[s]: st.to_json() for s, st in enumerate(self.seat_totals())},
            "notes": [n.to_json(players) for n in self.per_move_notes()],
            "points_flow": [r.to_json(players) for r in self.points_flow()],
            "hands": [h.to_json(players) for h in self.hands],
        }

    def to_html(self) -> str:
        """A self-contained `<section>` for the game page (escaped here; safe to embed)."""
        return analysis_html(self)


# --- building the analysis from the replay -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Snap:
    """What the hand looked like before a turn; the replay state is live, so it is copied."""

    hands: tuple[int, ...]
    top: Combo | None
    top_seat: int | None
    trick_cards: int

    @staticmethod
    def of(hs: HandState) -> _Snap:
        return _Snap(tuple(hs.hands), hs.top, hs.top_seat, hs.trick_cards)


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
    seen: dict[int, int] = field(default_factory=dict)  # record trick -> recorded moves so far

    def __post_init__(self) -> None:
        self.seats = [SeatStats() for _ in range(self.n)]
        self.captured = [0] * self.n

    def step(self, ev: MoveStep, snap: _Snap) -> None:
        if ev.move is not None:
            move_index: int | None = self.seen.get(ev.trick_index, 0)
            self.seen[ev.trick_index] = (move_index or 0) + 1
        else:
            move_index = None
        event = ev.event
        if event is None:
            return
        seat = event.seat
        st = self.seats[seat]
        st.decisions += 1
        hand_before = snap.hands[seat]
        judge = self.known[seat] and (self.detail or isinstance(event, PassEvent))
        moves = legal_plays(hand_before, snap.top, self.rules) if judge else None
        base = Decision(
            hand=self.start.number,
            hand_index=self.start.hand_index,
            trick=ev.trick_index,
            turn=event.turn,
            move_index=move_index,
            seat=seat,
            lead=snap.top is None,
            action="pass",
            cards=None,
            category=None,
            top=None if snap.top is None else snap.top.text(),
            top_seat=snap.top_seat,
            table_points=points_of(snap.trick_cards),
            table_cards=snap.trick_cards,
            options=None if moves is None else len(moves),
            alternatives=(),
            could_beat=None if moves is None else bool(moves),
            missed_beat=False,
        )
        if isinstance(event, PlayEvent):
            self.decisions.append(self._play(event, st, hand_before, moves, base))
        else:
            self.decisions.append(self._pass(st, hand_before, moves, snap, base))
        if event.trick_result is not None:
            self._trick(event.trick_result)

    def _play(
        self, event: PlayEvent, st: SeatStats, hand_before: int, moves: list[Move] | None,
        base: Decision,
    ) -> Decision:  # fmt: skip
        combo = event.combo
        st.plays += 1
        st.categories[combo.category.name] += 1
        special = combo.category is Category.special
        st.specials += special
        jokers = _joker_texts(combo)
        st.jokers += len(jokers)
        played = abstract_move(combo)
        self.pending.append((len(self.decisions), event.seat, points_of(combo.mask)))
        return replace(
            base,
            action="play",
            cards=combo.text(),
            category=combo.category.name,
            alternatives=_relevant(hand_before, moves, base.lead, played)
            if moves and self.detail
            else (),
            jokers=jokers,
            special=special,
            out_place=event.out_place,
        )

    def _pass(
        self, st: SeatStats, hand_before: int, moves: list[Move] | None, snap: _Snap,
        base: Decision,
    ) -> Decision:  # fmt: skip
        st.passes += 1
        own_top = base.seat == snap.top_seat  # declining to beat one's own play (R7) takes it
        missed = bool(base.could_beat) and not own_top
        if moves is not None and not own_top:
            st.judged_passes += 1
        if missed:
            st.missed_beats += 1
            st.missed_points += base.table_points
        # A missed beat's note names an example, so it gets its alternatives in either mode.
        alts: tuple[Alternative, ...] = ()
        if moves and (self.detail or missed):
            alts = _relevant(hand_before, moves, base.lead, None)
        return replace(base, alternatives=alts, missed_beat=missed)

    def _trick(self, tr: TrickResult) -> None:
        contributed = [0] * self.n
        for index, seat, pts in self.pending:
            contributed[seat] += pts
            if seat != tr.winner and pts:
                self.decisions[index] = replace(self.decisions[index], conceded=pts)
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
    game: Game, rules: Ruleset | None = None, *, alternatives: bool = True
) -> GameAnalysis:
    """Analyse every decision of a record, under its own rules or `rules`.

    `alternatives=False` is the fast mode for statistics and pages (about three times faster):
    passes are still judged (options, missed beats) and a missed beat still lists its
    alternatives, but plays get no option count and no other decision lists its alternatives.
    """
    used = rules or game.ruleset()
    hands: list[HandAnalysis] = []
    builder: _HandBuilder | None = None
    snap: _Snap | None = None
    errors = 0
    totals = tuple(0 for _ in game.players)
    end = GameEnd((), (), False)
    for state, ev in replay(game, used):
        errors += sum(d.severity == "error" for d in ev.diagnostics)
        hs = state.hand
        if isinstance(ev, HandStart):
            assert hs is not None
            known = _known_seats(game, ev)
            builder = _HandBuilder(ev, used, len(game.players), totals, known, alternatives)
            snap = _Snap.of(hs)
        elif isinstance(ev, MoveStep):
            assert builder is not None and snap is not None and hs is not None
            builder.step(ev, snap)
            snap = _Snap.of(hs)
        elif isinstance(ev, HandEnd):
            assert builder is not None and hs is not None
            hands.append(builder.finish(ev, hs))
            totals = ev.totals
        else:
            end = ev
    return GameAnalysis(game, used, tuple(hands), end.scores, end.winners, end.over, errors)


def _known_seats(game: Game, start: HandStart) -> tuple[bool, ...]:
    """Whose hand is known: all, unless the reconstruction had to guess (ZF305); then the seats
    whose deal line has no unknown cards."""
    n = len(game.players)
    if not any(d.code == "ZF305" for d in start.diagnostics):
        return (True,) * n
    deal = game.hands[start.hand_index].deal
    return tuple(deal is not None and deal[s].unknown == 0 for s in range(n))


# --- helpers ---------------------------------------------------------------------------------


def abstract_move(combo: Combo) -> Move:
    """The abstract move (movegen) a played combination makes."""
    jokers = len(combo.jokers)
    if combo.category is Category.single and combo.mask >> SJ:
        jokers = 1  # a joker played alone counts as a joker move in movegen
    suit = combo.suit if combo.category is Category.suit_sequence else None
    return Move(combo.category, combo.rank, combo.length, suit, jokers)


def move_size(move: Move) -> int:
    """How many cards an abstract move plays."""
    c = move.category
    if c in UNIT_OF:
        return UNIT_OF[c] * (move.length or 0)
    if c is Category.suit_sequence:
        return move.length or 0
    if c is Category.special:
        return 4 if move.rank == 2 else 3
    return {Category.full_house: 5, Category.quartet: 4, Category.triple: 3, Category.pair: 2}.get(
        c, 1
    )


def _example(hand: int, move: Move) -> Combo:
    """The card set making `move` that spends the fewest counters (then the lowest cards)."""
    return min(expand(hand, move), key=lambda c: (points_of(c.mask), c.mask))


def _relevant(
    hand: int, moves: list[Move], lead: bool, played: Move | None
) -> tuple[Alternative, ...]:
    """The few alternatives worth showing: the cheapest beat, the cheapest without jokers, the
    highest of the trick's category, a special; on a lead, the lowest single and the biggest
    shed instead of the highest."""
    others = [m for m in moves if m != played]
    if not others:
        return ()
    plain = [m for m in others if m.category is not Category.special]
    specials = [m for m in others if m.category is Category.special]
    cheap = sorted(plain, key=lambda m: (m.jokers, m.rank, m.length or 0))
    picks: list[Move] = []
    if lead and plain:
        picks.append(min(plain, key=lambda m: (move_size(m) != 1, m.jokers, m.rank)))
        picks.append(max(plain, key=lambda m: (m.jokers == 0, move_size(m), -m.rank)))
        picks.append(max(plain, key=lambda m: (-m.jokers, m.rank, move_size(m))))
    elif cheap:
        picks.append(cheap[0])
        pure = [m for m in cheap if m.jokers == 0]
        if pure:
            picks.append(pure[0])
        picks.append(max(plain, key=lambda m: (m.rank, m.length or 0, -m.jokers)))
    if specials:
        picks.append(min(specials, key=lambda m: m.rank))
    out: list[Alternative] = []
    for m in picks:
        if len(out) >= MAX_ALTERNATIVES:
            break
        combo = _example(hand, m)
        alt = Alternative(
            m.category.name, combo.rank_symbol, m.length, m.jokers, combo.text(), combo.describe()
        )
        if alt not in out:
            out.append(alt)
    return tuple(out)


def _joker_texts(combo: Combo) -> tuple[str, ...]:
    stands = dict(combo.jokers)
    return tuple(
        card_str(j) + (f"={stands[j]}" if j in stands else "")
        for j in (SJ, SJ + 1)
        if combo.mask >> j & 1
    )


def _notes(d: Decision, players: list[str]) -> list[MoveNote]:
    who = players[d.seat]
    out: list[MoveNote] = []

    def note(kind: NoteKind, text: str, points: int = 0) -> None:
        out.append(MoveNote(d.hand, d.trick, d.turn, d.seat, kind, text, d.move_index, points))

    if d.missed_beat:
        example = f", e.g. {d.alternatives[0].cards}" if d.alternatives else ""
        table = (
            f"; {d.table_points} points on the table ({_counters(d.table_cards)})"
            if d.table_points
            else "; no points on the table"
        )
        plays = "play" if d.options == 1 else "plays"
        note(
            "missed_beat",
            f"{who} passed on {d.top} but had {d.options} beating {plays}{example}{table}",
            d.table_points,
        )
    if d.conceded:
        note(
            "conceded", f"{who} put {d.conceded} points into a trick another player won", d.conceded
        )
    if d.special:
        note("special", f"{who} played a special: {d.cards}")
    if d.jokers:
        note("joker", f"{who} played {' '.join(d.jokers)}")
    return out


def _counters(mask: int) -> str:
    return format_cards(mask & (0xF << 8 | 0xF << 28 | 0xF << 40))


# --- across games ------------------------------------------------------------------------------


@dataclass(slots=True)
class PlayerAnalysis:
    """One player's record across games (by name as written in `Players`)."""

    name: str
    games: int = 0
    games_over: int = 0  # games that reached the target
    wins: int = 0  # ties share the win (R12)
    hands: int = 0  # finished hands
    judged_hands: int = 0  # finished hands where the player's hand was known: beats judged
    first_out: int = 0
    last_out: int = 0
    points: int = 0  # hand points, after the transfer
    transfer_received: int = 0
    transfer_given: int = 0
    stats: SeatStats = field(default_factory=SeatStats)

    @property
    def counters_captured(self) -> int:
        return self.stats.captured

    @property
    def counters_conceded(self) -> int:
        return self.stats.conceded

    @property
    def missed_beats(self) -> int:
        return self.stats.missed_beats

    @property
    def categories_played(self) -> dict[str, int]:
        return dict(sorted(self.stats.categories.items()))

    @property
    def first_rate(self) -> float | None:
        return self.first_out / self.hands if self.hands else None

    @property
    def last_rate(self) -> float | None:
        return self.last_out / self.hands if self.hands else None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games_over if self.games_over else None

    @property
    def mean_points(self) -> float | None:
        return self.points / self.hands if self.hands else None

    @property
    def missed_beats_per_hand(self) -> float | None:
        return self.stats.missed_beats / self.judged_hands if self.judged_hands else None

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "games": self.games,
            "games_over": self.games_over,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "hands": self.hands,
            "first_out": self.first_out,
            "first_rate": self.first_rate,
            "last_out": self.last_out,
            "last_rate": self.last_rate,
            "points": self.points,
            "mean_points": self.mean_points,
            "transfer_received": self.transfer_received,
            "transfer_given": self.transfer_given,
            "counters_captured": self.counters_captured,
            "counters_conceded": self.counters_conceded,
            "missed_beats": self.missed_beats,
            "missed_beats_per_hand": self.missed_beats_per_hand,
            "decisions": self.stats.decisions,
            "categories_played": self.categories_played,
            "specials": self.stats.specials,
            "jokers": self.stats.jokers,
        }


def player_aggregates(games: Iterable[Game | GameAnalysis]) -> dict[str, PlayerAnalysis]:
    """Per-player statistics over many games; games may be given analysed or as records.

    Players are matched by name, ignoring case (as in records); the first spelling is kept.
    Rates are None where there is nothing to divide by.
    """
    out: dict[str, PlayerAnalysis] = {}
    keys: dict[str, str] = {}
    for item in games:
        ga = item if isinstance(item, GameAnalysis) else analyze_game(item, alternatives=False)
        seats = [
            out.setdefault(keys.setdefault(name.casefold(), name), PlayerAnalysis(name))
            for name in ga.players
        ]
        for s, p in enumerate(seats):
            p.games += 1
            if ga.over:
                p.games_over += 1
                p.wins += s in ga.winners
        for h in ga.hands:
            for s, st in enumerate(h.seats):
                seats[s].stats.add(st)
            r = h.result
            if r is None:
                continue
            tr = h.transfer
            for s, p in enumerate(seats):
                p.hands += 1
                p.judged_hands += h.known_seats[s]
                p.points += r.points[s]
            seats[r.first].first_out += 1
            seats[r.last].last_out += 1
            if tr is not None:
                seats[tr.to_seat].transfer_received += tr.points
                seats[tr.from_seat].transfer_given += tr.points
    return {p.name: p for p in out.values()}


# --- HTML --------------------------------------------------------------------------------------


def analysis_html(analysis: GameAnalysis) -> str:
    """A `<section class="zf-analysis">`: per-player summary, notes, points flow.

    All text is escaped here. Class names: zf-analysis, zf-missed-beat, zf-conceded.
    """
    e = html.escape
    players = analysis.players
    rows = "".join(
        f"<tr><th>{e(players[s])}</th><td>{st.captured}</td><td>{st.conceded}</td>"
        f"<td>{st.missed_beats}</td><td>{st.specials}</td><td>{st.jokers}</td></tr>"
        for s, st in enumerate(analysis.seat_totals())
    )
    notes = "".join(
        f'<li class="zf-{n.kind.replace("_", "-")}">hand {n.hand}, trick {n.trick}, '
        f"turn {n.turn}: {e(n.text)}</li>"
        for n in analysis.per_move_notes()
    )
    flow = "".join(
        f"<tr><td>{r.hand}</td><td>{'transfer' if r.trick is None else r.trick}</td>"
        f"<td>{e(players[r.seat])}</td><td>{r.points}</td>"
        + "".join(f"<td>{v}</td>" for v in r.scores)
        + "</tr>"
        for r in analysis.points_flow()
    )
    heads = "".join(f"<th>{e(p)}</th>" for p in players)
    warn = (
        f'<p class="zf-warning">The record has {analysis.errors} validation error(s); '
        "the analysis follows the replay as recorded.</p>"
        if analysis.errors
        else ""
    )
    return (
        '<section class="zf-analysis"><h2>Analysis</h2>'
        + warn
        + "<table><thead><tr><th>player</th><th>captured</th><th>conceded</th>"
        "<th>missed beats</th><th>specials</th><th>jokers</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
        f"<h3>Notes</h3><ul>{notes or '<li>none</li>'}</ul>"
        "<h3>Points flow</h3><table><thead><tr><th>hand</th><th>trick</th><th>to</th>"
        f"<th>points</th>{heads}</tr></thead><tbody>{flow}</tbody></table></section>"
    )


__all__ = [
    "Alternative",
    "Decision",
    "FlowRow",
    "GameAnalysis",
    "HandAnalysis",
    "MoveNote",
    "PlayerAnalysis",
    "SeatStats",
    "Transfer",
    "TrickFlow",
    "abstract_move",
    "analysis_html",
    "analyze_game",
    "move_size",
    "player_aggregates",
]
