"""replay(record): the one path from a record through the rules engine.

It yields `(state, event)` pairs: a hand starts, a move is made (recorded, or an inferred pass),
a hand ends, the game ends. Each event carries the diagnostics found at that point. The
validator, store, renderer and analyser all consume this stream; none of them re-implements a
rule. After an illegal move the replay goes on from the recorded state: the move is applied as
it was written where that is possible, so one run reports every problem.

`state` is live and mutable (it is the engine's own state, never copied per step): read what
you need from it before asking for the next event.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass, field

from zfrec.diagnostics import Diagnostic
from zfrec.engine.cards import FULL_DECK, Declarations, format_cards
from zfrec.engine.combos import Category, Combo, readings, resolve
from zfrec.engine.game import (
    Event,
    GameState,
    HandResult,
    HandState,
    first_leader,
    hand_sizes,
    verify_deal,
)
from zfrec.engine.rules import Ruleset
from zfrec.errors import DealError, IllegalPlayError, Location
from zfrec.record.model import Game, Hand, Move, Pos


@dataclass(slots=True)
class ReplayState:
    """Where the replay is: the record, the game so far and the hand in progress."""

    record: Game
    game: GameState
    hand: HandState | None = None
    hand_index: int = -1  # index into record.hands


@dataclass(frozen=True, slots=True)
class HandStart:
    hand_index: int
    number: int
    deal: tuple[int, ...]  # the hands as dealt (reconstructed where the record lacks them)
    reconstructed: bool
    shuffler: int | None
    first_drawer: int | None
    leader: int
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True, slots=True)
class MoveStep:
    """One action applied to the hand: a recorded move, or a pass the record left out."""

    hand_index: int
    trick_index: int  # 1-based trick of the record
    move: Move | None  # None for an inferred pass
    event: Event | None  # None when the move could not be applied at all
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def inferred(self) -> bool:
        return self.move is None


@dataclass(frozen=True, slots=True)
class HandEnd:
    hand_index: int
    result: HandResult | None  # None when the record stops before the hand ends
    totals: tuple[int, ...]
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True, slots=True)
class GameEnd:
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # empty when no score reached the target
    over: bool
    diagnostics: tuple[Diagnostic, ...] = ()


ReplayEvent = HandStart | MoveStep | HandEnd | GameEnd


def replay(
    record: Game, rules: Ruleset | None = None, game_number: int | None = None
) -> Iterator[tuple[ReplayState, ReplayEvent]]:
    """Replay a record under its own rules, or under `rules` to re-judge it."""
    return _Replayer(record, rules or record.ruleset(), game_number).run()


@dataclass(slots=True)
class _Replayer:
    record: Game
    rules: Ruleset
    game_number: int | None
    state: ReplayState = field(init=False)
    found: list[Diagnostic] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.state = ReplayState(self.record, GameState.__new__(GameState))

    # diagnostics -------------------------------------------------------------------------------

    def _report(
        self,
        code: str,
        message: str,
        hand: Hand | None = None,
        trick: int | None = None,
        move: Move | None = None,
        pos: Pos | None = None,
    ) -> None:
        where = move.pos if move is not None and move.pos else pos or (hand.pos if hand else None)
        where = where or self.record.pos  # JSON records have no positions at all
        hs = self.state.hand
        seat = move.seat if move is not None else None
        line, col = (where.line, where.col) if where is not None else (None, None)
        self.found.append(
            Diagnostic(
                code,
                message,
                Location(
                    file=self.record.source,
                    line=line,
                    col=col,
                    game=self.game_number,
                    hand=hand.number if hand else None,
                    trick=trick,
                    turn=hs.turn_in_trick if hs is not None and move is not None else None,
                    seat=self.record.players[seat]
                    if seat is not None and 0 <= seat < len(self.record.players)
                    else None,
                ),
            )
        )

    def _take(self) -> tuple[Diagnostic, ...]:
        if not self.found:  # the common case: nothing to hand over
            return ()
        out = tuple(self.found)
        self.found.clear()
        return out

    def _name(self, seat: int) -> str:
        return self.record.seat_name(seat)

    def _named(self, message: str) -> str:
        """Engine messages say `seat 2`; records speak of players by name."""
        for seat in range(len(self.record.players) - 1, -1, -1):
            message = message.replace(f"seat {seat + 1}", self._name(seat))
        return message

    # the game ----------------------------------------------------------------------------------

    def run(self) -> Iterator[tuple[ReplayState, ReplayEvent]]:
        n = len(self.record.players)
        try:
            self.state.game = GameState(n, self.rules)
        except DealError as exc:
            self._report(exc.code, exc.message, pos=self.record.pos)
            yield self.state, GameEnd((), (), False, self._take())
            return
        game = self.state.game
        reported_over = False
        for index, hand in enumerate(self.record.hands):
            if game.over and not reported_over:
                self._report(
                    "ZF404",
                    f"a score reached the target {self.rules.target} after hand "
                    f"{game.hands_played}, so hand {hand.number} should not have been played "
                    "(RULES.md R12)",
                    hand,
                )
                reported_over = True
            self.state.hand_index = index
            yield from self._hand(index, hand)
        yield self.state, self._game_end()

    def _game_end(self) -> GameEnd:
        game, result = self.state.game, self.record.result
        winners = tuple(game.winners())
        if result is not None:
            scores = tuple(game.scores)
            if result.scores and tuple(result.scores) != scores:
                self._report(
                    "ZF403",
                    f"recorded final scores {self._scores(result.scores)} differ from the "
                    f"computed {self._scores(scores)} (RULES.md R12)",
                    pos=result.pos,
                )
            if result.winners and tuple(sorted(result.winners)) != winners:
                computed = ", ".join(self._name(s) for s in winners) or "nobody yet"
                recorded = ", ".join(self._name(s) for s in result.winners)
                self._report(
                    "ZF403",
                    f"recorded winner {recorded} differs from the computed winner {computed} "
                    "(RULES.md R12)",
                    pos=result.pos,
                )
        return GameEnd(tuple(game.scores), winners, game.over, self._take())

    def _scores(self, scores: tuple[int, ...]) -> str:
        return ", ".join(f"{self._name(s)} {v}" for s, v in enumerate(scores))

    # one hand ----------------------------------------------------------------------------------

    def _hand(self, index: int, hand: Hand) -> Iterator[tuple[ReplayState, ReplayEvent]]:
        game = self.state.game
        n = game.n
        prev = game.previous
        if prev is not None and hand.shuffler is not None and hand.shuffler != prev.last:
            self._report(
                "ZF306",
                f"{self._name(hand.shuffler)} shuffles, but {self._name(prev.last)} came last "
                "in the previous hand and shuffles (RULES.md R4)",
                hand,
            )
        first_drawer = game.next_first_drawer(hand.shuffler)
        deal, reconstructed = self._deal(hand, n, first_drawer)
        if prev is not None:
            leader = prev.first
        else:
            try:
                leader = first_leader(deal)
            except DealError as exc:
                self._report(exc.code, exc.message, hand)
                leader = hand.tricks[0].moves[0].seat if hand.tricks and hand.tricks[0].moves else 0
        hs = HandState(list(deal), leader, self.rules, index + 1)
        self.state.hand = hs
        yield self.state, HandStart(
            index, hand.number, tuple(deal), reconstructed, hand.shuffler, first_drawer, leader,
            self._take(),
        )  # fmt: skip
        yield from self._tricks(index, hand, hs)
        result = hs.result
        if result is None:
            self._report(
                "ZF206",
                "the record stops before the hand ends; no score is computed for it (RULES.md R9)",
                hand,
            )
        else:
            game.finish_hand(result)
            self._check_score(hand, result)
        yield self.state, HandEnd(index, result, tuple(game.scores), self._take())

    def _check_score(self, hand: Hand, result: HandResult) -> None:
        score = hand.score
        if score is None:
            return
        if tuple(score.points) != result.points:
            transfer = (
                f"; {self._name(result.last)} came last and gave "
                f"{result.transfer_points} points to {self._name(result.first)}"
            )
            self._report(
                "ZF401",
                f"recorded points {self._scores(score.points)} differ from the computed "
                f"{self._scores(result.points)}{transfer} (RULES.md R10, R11)",
                hand,
                pos=score.pos,
            )
        totals = tuple(self.state.game.scores)
        if score.totals is not None and tuple(score.totals) != totals:
            self._report(
                "ZF402",
                f"recorded running totals {self._scores(score.totals)} differ from the "
                f"computed {self._scores(totals)} (RULES.md R12)",
                hand,
                pos=score.pos,
            )

    # the deal ----------------------------------------------------------------------------------

    def _deal(self, hand: Hand, n: int, first_drawer: int | None) -> tuple[list[int], bool]:
        """The hands as dealt: recorded, or completed from the plays (RULES.md R2, R3)."""
        played = [0] * n
        for t_index, trick in enumerate(hand.tricks, 1):
            for move in trick.moves:
                if move.is_pass or not 0 <= move.seat < n:
                    continue
                twice = move.cards & _union(played)
                if twice:
                    self._report(
                        "ZF302",
                        f"{format_cards(twice)} played a second time in this hand (RULES.md R2)",
                        hand,
                        t_index,
                        move,
                    )
                played[move.seat] |= move.cards
        if hand.deal is not None and all(d.unknown == 0 for d in hand.deal):
            deal: list[int] = [d.known for d in hand.deal]
            try:
                verify_deal(deal, first_drawer)
            except DealError as exc:
                self._report(
                    exc.code, exc.message, hand, pos=hand.deal[0].pos if hand.deal else None
                )
            return deal, False
        return self._reconstruct(hand, n, first_drawer, played), True

    def _reconstruct(
        self, hand: Hand, n: int, first_drawer: int | None, played: list[int]
    ) -> list[int]:
        known = [d.known for d in hand.deal] if hand.deal is not None else [0] * n
        drawers = [first_drawer] if first_drawer is not None else list(range(n))
        sizes_options = [hand_sizes(n, d) for d in drawers]
        if hand.deal is not None:
            sizes = [d.size for d in hand.deal]
            if all(sizes != option for option in sizes_options):
                self._report(
                    "ZF304",
                    f"hand sizes {sizes} do not follow the draw order (RULES.md R3)",
                    hand,
                )
        else:
            # Pick the draw order under which every seat could have played what it played.
            fits = [
                o for o in sizes_options if all(p.bit_count() <= o[s] for s, p in enumerate(played))
            ]
            sizes = (fits or sizes_options)[0]
        seen = 0
        for s in range(n):
            twice = seen & known[s]
            if twice:
                self._report("ZF302", f"{format_cards(twice)} dealt twice (RULES.md R2)", hand)
            seen |= known[s]
        deal = list(known)
        # A card a seat played and the record does not give it came from its unknown cards;
        # a card recorded in another seat's hand stays there, and the engine reports the play.
        for s in range(n):
            extra = played[s] & ~seen
            room = sizes[s] - deal[s].bit_count()
            if extra.bit_count() <= room:
                deal[s] |= extra
                seen |= extra
        pool = FULL_DECK & ~seen
        free = [max(0, sizes[s] - deal[s].bit_count()) for s in range(n)]
        open_seats = [s for s in range(n) if free[s]]
        if len(open_seats) > 1 and pool:
            self._report(
                "ZF305",
                f"{pool.bit_count()} cards never played could be in more than one hand "
                f"({', '.join(self._name(s) for s in open_seats)}); they are placed in seat "
                "order and the transfer of the last hand may be wrong (RULES.md R3)",
                hand,
            )
        for s in open_seats:
            while free[s] and pool:
                low = pool & -pool
                deal[s] |= low
                pool ^= low
                free[s] -= 1
        if pool:
            self._report(
                "ZF304",
                f"{format_cards(pool)} fit in no hand of the draw order (RULES.md R3)",
                hand,
            )
        return deal

    # tricks ------------------------------------------------------------------------------------

    def _tricks(
        self, index: int, hand: Hand, hs: HandState
    ) -> Iterator[tuple[ReplayState, ReplayEvent]]:
        after_end_reported = False
        for t_index, trick in enumerate(hand.tricks, 1):
            unchecked = False
            for m_index, move in enumerate(trick.moves):
                if hs.over:
                    if not after_end_reported:
                        self._report(
                            "ZF204",
                            "the hand ended with the final trick; this and later moves cannot "
                            "have been played (RULES.md R9)",
                            hand,
                            t_index,
                            move,
                        )
                        after_end_reported = True
                    yield self.state, MoveStep(index, t_index, move, None, self._take())
                    continue
                if move.is_pass:
                    yield from self._pass(index, hand, t_index, move, hs)
                else:
                    if hs.top is None and m_index > 0:
                        self._report(
                            "ZF205",
                            f"trick {t_index} was already over; this play leads a new trick "
                            "(RULES.md R6)",
                            hand,
                            t_index,
                            move,
                        )
                    unchecked = yield from self._play(index, hand, t_index, move, hs, unchecked)
            if not hs.over and hs.top is not None:
                for seat in hs.pass_chain():
                    yield self.state, MoveStep(index, t_index, None, hs.pass_(seat))

    def _align(
        self, hand: Hand, t_index: int, move: Move, hs: HandState, index: int
    ) -> Iterator[tuple[ReplayState, ReplayEvent]]:
        """Infer the passes before `move`, or report it out of turn and give it the turn."""
        seat = move.seat
        if seat == hs.turn or not 0 <= seat < hs.n:
            return  # in turn (the common case), or a seat the engine will reject
        if hs.top is None:
            if seat != hs.turn:
                self._report(
                    "ZF203",
                    f"{self._name(hs.turn)} should lead this trick, not {self._name(seat)} "
                    "(RULES.md R4, R6, R8)",
                    hand,
                    t_index,
                    move,
                )
                if hs.hands[seat]:
                    hs.turn = seat
            return
        chain = hs.pass_chain()
        if seat in chain:
            for passer in chain[: chain.index(seat)]:
                yield self.state, MoveStep(index, t_index, None, hs.pass_(passer))
            return
        if hs.hands[seat]:
            self._report(
                "ZF201",
                f"it is {self._name(hs.turn)}'s turn, not {self._name(seat)}'s: the trick "
                f"would end before {self._name(seat)} could act (RULES.md R5, R6)",
                hand,
                t_index,
                move,
            )
            hs.turn = seat

    def _pass(
        self, index: int, hand: Hand, t_index: int, move: Move, hs: HandState
    ) -> Iterator[tuple[ReplayState, ReplayEvent]]:
        if hs.top is None:
            self._report(
                "ZF105",
                f"{self._name(move.seat)} passes, but a trick is to be led and a leader may not "
                "pass (RULES.md R5)",
                hand,
                t_index,
                move,
            )
            yield self.state, MoveStep(index, t_index, move, None, self._take())
            return
        yield from self._align(hand, t_index, move, hs, index)
        try:
            event: Event | None = hs.pass_(move.seat)
        except IllegalPlayError as exc:
            self._report(exc.code, self._named(exc.message), hand, t_index, move)
            event = None
        yield self.state, MoveStep(index, t_index, move, event, self._take())

    def _play(
        self, index: int, hand: Hand, t_index: int, move: Move, hs: HandState, unchecked: bool
    ) -> Generator[tuple[ReplayState, ReplayEvent], None, bool]:
        """Apply a recorded play; returns whether the rest of the trick goes unchecked."""
        yield from self._align(hand, t_index, move, hs, index)
        decls = dict(move.declarations)
        combo: Combo | None
        try:
            combo = hs.verify_play(move.seat, move.cards, decls)
            if unchecked:
                combo = _lead_reading(move.cards, self.rules, decls) or combo
        except IllegalPlayError as exc:
            if unchecked and exc.code == "ZF103":
                combo = _lead_reading(move.cards, self.rules, decls)
            else:
                self._report(exc.code, self._named(exc.message), hand, t_index, move)
                if exc.code in ("ZF202", "ZF204") or not 0 <= move.seat < hs.n:
                    yield self.state, MoveStep(index, t_index, move, None, self._take())
                    return unchecked
                combo = _forced_reading(move.cards, hs.top, self.rules, decls)
            if combo is None:
                if not unchecked:
                    self._report(
                        "ZF207",
                        f"the rest of trick {t_index} is not checked against the top play, "
                        "which could not be read",
                        hand,
                        t_index,
                        move,
                    )
                unchecked = True
                # An unreadable play still happened: its cards leave the hand and join the
                # trick, under a placeholder reading that later plays are not judged against.
                category = hs.top.category if hs.top is not None else Category.single
                combo = Combo(category, -1, None, move.cards)
        event = hs.play_combo(move.seat, combo)
        yield self.state, MoveStep(index, t_index, move, event, self._take())
        return unchecked


def _union(masks: list[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _lead_reading(mask: int, rules: Ruleset, decls: Declarations) -> Combo | None:
    """The best reading of a play, honouring its declarations where they are valid."""
    found = readings(mask, rules, decls) or readings(mask, rules)
    return found[0] if found else None


def _forced_reading(
    mask: int, top: Combo | None, rules: Ruleset, decls: Declarations
) -> Combo | None:
    """The reading an illegal play is taken at, so the replay can go on from it."""
    try:
        return resolve(mask, top, rules, decls)
    except IllegalPlayError:  # ambiguous, or does not beat: take its best reading
        return _lead_reading(mask, rules, decls)
