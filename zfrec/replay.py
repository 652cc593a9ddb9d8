"""replay(record): the one path from a record through the rules engine.

It yields `(state, event)` pairs: a hand starts, a move is made (recorded, or an inferred pass),
a hand ends, the game ends. Each event carries the diagnostics found at that point. The
validator, store, renderer and analyser all consume this stream; none of them re-implements a
rule, and neither does the replay: the engine (zfrec.engine.game) judges every action, and the
replay routes its errors into located diagnostics. After an illegal move the replay goes on
from the recorded state through the engine's recovery methods (`HandState.force_play`,
`force_pass`, `GameState.open_hand`), so one run reports every problem.

`state` is live and mutable (it is the engine's own state, never copied per step): read what
you need from it before asking for the next event.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from zfrec.diagnostics import Diagnostic
from zfrec.engine.cards import FULL_DECK, format_cards
from zfrec.engine.combos import Combo
from zfrec.engine.game import (
    Event,
    GameState,
    HandResult,
    HandState,
    best_reading,
    hand_sizes,
    verify_dealt_once,
    verify_hand_sizes,
)
from zfrec.engine.rules import Ruleset
from zfrec.errors import DealError, GameError, IllegalPlayError, Location
from zfrec.record.model import Game, Hand, Move, Pos

# Errors after which a recorded move is still applied, by the seat that made it.
_TURN_CODES = frozenset(("ZF201", "ZF203"))


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

    def _judged(
        self,
        exc: GameError,
        hand: Hand | None = None,
        trick: int | None = None,
        move: Move | None = None,
        pos: Pos | None = None,
    ) -> None:
        """Report the engine's judgement, its seats named as the record names its players."""
        self._report(exc.code, exc.render(self._name), hand, trick, move, pos)

    def _take(self) -> tuple[Diagnostic, ...]:
        if not self.found:  # the common case: nothing to hand over
            return ()
        out = tuple(self.found)
        self.found.clear()
        return out

    def _name(self, seat: int) -> str:
        players = self.record.players
        return players[seat] if 0 <= seat < len(players) else f"seat {seat + 1}"

    # the game ----------------------------------------------------------------------------------

    def run(self) -> Iterator[tuple[ReplayState, ReplayEvent]]:
        n = len(self.record.players)
        try:
            self.state.game = GameState(n, self.rules)
        except DealError as exc:
            self._judged(exc, pos=self.record.pos)
            yield self.state, GameEnd((), (), False, self._take())
            return
        over_reported = False
        for index, hand in enumerate(self.record.hands):
            if not over_reported:
                try:
                    self.state.game.verify_start(hand.number)
                except IllegalPlayError as exc:
                    self._judged(exc, hand)
                    over_reported = True
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
        try:
            game.verify_shuffler(hand.shuffler)
        except DealError as exc:
            self._judged(exc, hand)
        first_drawer = game.next_first_drawer(hand.shuffler)
        deal, reconstructed = self._deal(hand, game.n, first_drawer)
        try:
            leader = game.leader_of(deal)
        except DealError as exc:
            self._judged(exc, hand)
            leader = hand.tricks[0].moves[0].seat if hand.tricks and hand.tricks[0].moves else 0
        hs = game.open_hand(deal, leader, index + 1)
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
        everything = 0
        for t_index, trick in enumerate(hand.tricks, 1):
            for move in trick.moves:
                if move.is_pass or not 0 <= move.seat < n:
                    continue
                twice = move.cards & everything
                if twice:
                    self._report(
                        "ZF302",
                        f"{format_cards(twice)} played a second time in this hand (RULES.md R2)",
                        hand,
                        t_index,
                        move,
                    )
                played[move.seat] |= move.cards
                everything |= move.cards
        if hand.deal is not None and all(d.unknown == 0 for d in hand.deal):
            deal = [d.known for d in hand.deal]
            try:
                self.state.game.verify_deal(deal, hand.shuffler)
            except DealError as exc:
                self._judged(exc, hand, pos=hand.deal[0].pos if hand.deal else None)
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
            try:
                verify_hand_sizes(sizes, first_drawer)
            except DealError as exc:
                self._judged(exc, hand)
        else:
            # Pick the draw order under which every seat could have played what it played.
            fits = [
                o for o in sizes_options if all(p.bit_count() <= o[s] for s, p in enumerate(played))
            ]
            sizes = (fits or sizes_options)[0]
        try:
            verify_dealt_once(known)
        except DealError as exc:
            self._judged(exc, hand)
        seen = 0
        for s in range(n):
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
        state = self.state
        n = hs.n
        after_end_reported = False
        for t_index, trick in enumerate(hand.tricks, 1):
            unchecked = False
            for m_index, move in enumerate(trick.moves):
                seat = move.seat
                if hs.over:
                    if not after_end_reported:
                        try:
                            hs.verify_turn(seat)
                        except IllegalPlayError as exc:
                            self._judged(exc, hand, t_index, move)
                        after_end_reported = True
                    yield state, MoveStep(index, t_index, move, None, self._take())
                    continue
                if seat != hs.turn and hs.top is not None and 0 <= seat < n:
                    # Passes the record leaves out: the seats before this one in the pass chain.
                    chain = hs.pass_chain()
                    if seat in chain:
                        for passer in chain[: chain.index(seat)]:
                            yield state, MoveStep(index, t_index, None, hs.pass_(passer))
                event: Event | None
                if move.is_pass:
                    event = self._pass(hand, t_index, move, hs)
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
                    event, unchecked = self._play(hand, t_index, move, hs, unchecked)
                yield state, MoveStep(index, t_index, move, event, self._take())
            if not hs.over and hs.top is not None:
                for seat in hs.pass_chain():
                    yield state, MoveStep(index, t_index, None, hs.pass_(seat))

    def _pass(self, hand: Hand, t_index: int, move: Move, hs: HandState) -> Event | None:
        """Apply a recorded pass; the engine judges it (ZF105, ZF201, ZF202)."""
        try:
            return hs.pass_(move.seat)
        except IllegalPlayError as exc:
            self._judged(exc, hand, t_index, move)
            if exc.code == "ZF201" and 0 <= move.seat < hs.n:
                return hs.force_pass(move.seat)  # out of turn: it still passed
            return None

    def _play(
        self, hand: Hand, t_index: int, move: Move, hs: HandState, unchecked: bool
    ) -> tuple[Event | None, bool]:
        """Apply a recorded play; returns its event and whether the rest of the trick goes
        unchecked (after a play that could not be read, ZF207)."""
        seat, mask = move.seat, move.cards
        decls = dict(move.declarations) if move.declarations else None
        try:
            combo: Combo | None = hs.verify_play(seat, mask, decls)
        except IllegalPlayError as exc:
            if exc.code not in _TURN_CODES or not 0 <= seat < hs.n:
                return self._illegal_cards(hand, t_index, move, hs, unchecked, exc)
            # Out of turn, or the wrong leader: reported, and the seat still played its cards.
            self._judged(exc, hand, t_index, move)
            try:
                combo = hs.verify_cards(seat, mask, decls)
            except IllegalPlayError as cards_exc:
                return self._illegal_cards(hand, t_index, move, hs, unchecked, cards_exc)
            if unchecked:
                combo = best_reading(mask, self.rules, decls) or combo
            return hs.force_play(seat, mask, combo), unchecked
        if unchecked:
            combo = best_reading(mask, self.rules, decls) or combo
        assert combo is not None
        return hs.play_combo(seat, combo), unchecked

    def _illegal_cards(
        self,
        hand: Hand,
        t_index: int,
        move: Move,
        hs: HandState,
        unchecked: bool,
        exc: IllegalPlayError,
    ) -> tuple[Event | None, bool]:
        seat, mask = move.seat, move.cards
        decls = dict(move.declarations) if move.declarations else None
        if unchecked and exc.code == "ZF103":
            combo = best_reading(mask, self.rules, decls)  # the trick is not judged any more
        else:
            self._judged(exc, hand, t_index, move)
            if exc.code in ("ZF202", "ZF204") or not 0 <= seat < hs.n:
                return None, unchecked  # cannot be applied at all
            combo = hs.recorded_reading(mask, decls)
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
        # An illegal play still happened: its cards leave the hand and join the trick, under
        # its best reading, or a placeholder reading that later plays are not judged against.
        return hs.force_play(seat, mask, combo), unchecked
