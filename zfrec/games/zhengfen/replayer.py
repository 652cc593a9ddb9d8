"""Zheng Fen's replayer (its kind's `replay`): a record's hands through the rules engine, as
zfrec.replay describes the stream. The engine (zfrec.games.zhengfen.engine.game) judges every
action, and the replayer routes its errors into located diagnostics. After an illegal move it
goes on from the recorded state through the engine's recovery methods (`HandState.force_play`,
`force_pass`, `GameState.open_hand`), so one run reports every problem. The deal is rebuilt from
the plays where the record leaves it out; the score ledger is zfrec.games.zhengfen.ledger.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from zfrec.core import Deal
from zfrec.diagnostics import Cause, Diagnostic
from zfrec.errors import DealError, GameError, IllegalPlayError, Location, placing
from zfrec.events import (
    GameEnd,
    HandEnd,
    HandStart,
    MoveStep,
    ReplayEvent,
    ReplayState,
)
from zfrec.games.zhengfen.dealtwice import dealt_twice
from zfrec.games.zhengfen.engine.cards import FULL_DECK, Cards, format_cards, iter_ids
from zfrec.games.zhengfen.engine.deal import (
    hand_sizes,
    rebuild_deal,
    verify_dealt_once,
    verify_hand_sizes,
)
from zfrec.games.zhengfen.engine.game import Event, GameState, HandState, best_reading
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.games.zhengfen.engine.seats import seat, seats
from zfrec.games.zhengfen.ledger import Ledger
from zfrec.numbering import occurrences, repeat_suffix
from zfrec.record.model import Game, Hand, Move, Pos, SeatDeal, header_findings
from zfrec.record.problems import Fix, ReadProblem
from zfrec.recovery import (
    ALTERING,
    CARD_CODES,
    SEAT_CODES,
    START_CODES,
    TURN_FOLLOW,
    cause_of,
    guess_unreadable,
    read_unreadable,
    skipped_note,
)

__all__ = ["replay_zhengfen"]

# Errors after which a recorded move is still applied, by the seat that made it.
_TURN_CODES = frozenset(("ZF201", "ZF203"))


_new = tuple.__new__


def _union(hands: list[int]) -> int:
    given = 0
    for h in hands:
        given |= h
    return given


def replay_zhengfen(
    record: Game,
    rules: Ruleset | None = None,
    game_number: int | None = None,
    *,
    start: tuple[int, GameState] | None = None,
    moves: bool = True,
) -> Iterator[tuple[ReplayState, ReplayEvent]]:
    """Zheng Fen's replay (its kind's `replay`), as `replay` describes it."""
    return _Replayer(record, rules or record.ruleset(), game_number, start, moves).run()


@dataclass(slots=True)
class _Replayer(Ledger):
    record: Game
    rules: Ruleset
    game_number: int | None
    start: tuple[int, GameState] | None = None
    moves: bool = True  # yield a MoveStep per action
    state: ReplayState = field(init=False)
    found: list[Diagnostic] = field(init=False, default_factory=list)
    _known: tuple[bool, ...] = field(init=False, default=())  # whose hand is known, this hand
    # What the reader could not read: by the position of the move it spoils, and whole lines.
    _unread: dict[tuple[int, int], list[ReadProblem]] = field(init=False, default_factory=dict)
    _lines: list[ReadProblem] = field(init=False, default_factory=list)
    _cause: Cause | None = field(init=False, default=None)  # of what is found at this move
    _cause_codes: frozenset[str] = field(init=False, default=frozenset())  # ... with these codes
    _hand_root: Cause | None = field(init=False, default=None)  # first altering error, this hand
    _played: int = field(init=False, default=0)  # cards played so far in this hand
    _tainted: dict[int, Cause] = field(init=False, default_factory=dict)  # card -> bad play
    _twice: int = field(init=False, default=0)  # cards of this move played before in the hand
    # The cards the hand's deal gives nobody (a card dealt twice instead), and that finding.
    _undealt: tuple[int, Cause | None] = field(init=False, default=(0, None))
    _skipped: tuple[int, Cause] | None = field(init=False, default=None)  # trick, unread move
    _guess: tuple[int, int, Cause] | None = field(init=False, default=None)  # trick, seat, card
    # The first unreadable move of a hand whose deal is rebuilt from the plays: what it shows
    # may be another seat's cards (a lost colon), so the deal's cards not held, and who is out
    # when, follow from it.
    _rebuilt_from: Cause | None = field(init=False, default=None)
    _dealt: Deal | None = field(init=False, default=None)  # a rebuilt deal: known and guessed
    # The previous hand's root error: its result, so this hand's start, may not be the real one.
    _carry: Cause | None = field(init=False, default=None)
    # What the scores as computed follow from, while they differ from the record's for it.
    _ledger_cause: Cause | None = field(init=False, default=None)
    # What could not be read of the move at hand, to report: message, fix, where, move.
    _unread_notes: list[tuple[str, Fix | None, tuple[int, int], Move]] = field(
        init=False, default_factory=list
    )
    _restate: tuple[int, ...] | None = field(init=False, default=None)  # totals to go on from
    _totals_unknown: bool = field(init=False, default=False)  # a hand was closed without them
    # After a wrong total: the totals as computed without it, in case the record comes back.
    _shadow: tuple[int, ...] | None = field(init=False, default=None)
    # id(hand) -> 2 for the second hand the record writes with its number (zfrec.numbering)
    _occurrence: dict[int, int] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.state = ReplayState(self.record, GameState.__new__(GameState))
        hands = self.record.hands
        occurs = occurrences([h.number for h in hands])
        self._occurrence = {id(h): occurs[i] for i, h in enumerate(hands) if occurs[i] > 1}
        for problem in self.record.problems:
            if problem.move is None:
                self._lines.append(problem)
            else:
                self._unread.setdefault(problem.move, []).append(problem)
        self._lines.sort(key=lambda p: p.pos)

    # diagnostics -------------------------------------------------------------------------------

    def _said(self, hand: Hand) -> str:
        """`hand 3`, or `hand 3 (2nd)` for the second hand written as hand 3."""
        return f"hand {hand.number}{repeat_suffix(self._occurrence.get(id(hand), 1))}"

    def _report(
        self,
        code: str,
        message: str,
        hand: Hand | None = None,
        trick: int | None = None,
        move: Move | None = None,
        pos: Pos | None = None,
        *,
        cause: Cause | None = None,
        fix: Fix | None = None,
        at: tuple[int, int] | None = None,
        seat: int | None = None,
    ) -> Diagnostic:
        """Note a diagnostic at the move, else at `pos`, else at the hand (or at `at`, a place
        inside the move), of the move's seat (else `seat`). Its cause is `cause`, else the cause
        of what happens at this move."""
        where: tuple[int, int] | None = (
            move.pos if move is not None and move.pos else pos or (hand.pos if hand else None)
        )
        where = at or where or self.record.pos  # JSON records have no positions at all
        hs = self.state.hand
        seat = move.seat if move is not None else seat
        line, col = (where[0], where[1]) if where is not None else (None, None)
        found = Diagnostic(
                code,
                message,
                Location(
                    file=self.record.source,
                    line=line,
                    col=col,
                    game=self.game_number,
                    hand=hand.number if hand else None,
                    occurrence=self._occurrence.get(id(hand), 1),
                    trick=trick,
                    turn=hs.turn_in_trick if hs is not None and move is not None else None,
                    seat=self.record.players[seat]
                    if seat is not None and 0 <= seat < len(self.record.players)
                    else None,
                ),
                cause or self._follows(code, trick),
                fix,
            )  # fmt: skip
        self.found.append(found)
        if code in ALTERING and self._hand_root is None and hand is not None:
            self._hand_root = found.cause or cause_of(found)
        return found

    def _follows(self, code: str, trick: int | None) -> Cause | None:
        """The cause of what is found now, when nothing more precise is known: the guess at a
        move read by guess (and a later play of its trick judged against it), the hand before
        (for this hand's start, which its result decides), a move skipped earlier in the trick,
        or the hand's first error that changed who holds what (a move skipped, cards not held
        or played twice): the turns and leads after it are not what the record shows."""
        if self._cause is not None and code in self._cause_codes:
            return self._cause
        if self._carry is not None and code in START_CODES and (trick is None or trick == 1):
            return self._carry
        guess, hs = self._guess, self.state.hand
        on_guess = guess is not None and hs is not None and hs.top_seat == guess[1]
        if guess is not None and on_guess and code == "ZF103" and trick == guess[0]:
            return guess[2]  # a play judged against the guessed one
        if self._rebuilt_from is not None and code in ("ZF301", "ZF302"):
            return self._rebuilt_from
        if trick is None or code not in TURN_FOLLOW:
            return None
        skipped = self._skipped
        if skipped is not None and trick == skipped[0]:
            return skipped[1]
        if code != "ZF103":
            return self._hand_root or self._rebuilt_from
        return None

    def _judged(
        self,
        exc: GameError,
        hand: Hand | None = None,
        trick: int | None = None,
        move: Move | None = None,
        pos: Pos | None = None,
        cause: Cause | None = None,
    ) -> Diagnostic:
        """Report the engine's judgement, its seats named as the record names its players."""
        return self._report(exc.code, exc.render(self._name), hand, trick, move, pos, cause=cause)

    def _dispute(self, hand: Hand, trick: int, move: Move, turn: int | None = None) -> None:
        """A disputed move is a note (ZF005) with the note and the other versions written;
        `turn` is the move's, where it has been applied already."""
        message = f"{self._name(move.seat)}'s {move.play_text()} is disputed"
        if move.dispute_note is not None:
            message += f': "{move.dispute_note}"'
        if move.alternatives:
            versions = " or ".join(v.play_text() for v in move.alternatives)
            label = "version" if len(move.alternatives) == 1 else "versions"
            message += f"; other {label}: {versions} (zfrec audit judges each one)"
        self._report("ZF005", message, hand, trick, move)
        if turn is not None:
            note = self.found[-1]
            self.found[-1] = replace(note, location=replace(note.location, turn=turn))

    def _take(self) -> tuple[Diagnostic, ...]:
        if not self.found:  # the common case: nothing to hand over
            return ()
        out = tuple(self.found)
        self.found.clear()
        self.state.diagnostics += out
        return out

    def _name(self, seat: int) -> str:
        return self.record.seat_name(seat)

    # the game ----------------------------------------------------------------------------------

    def run(self) -> Iterator[tuple[ReplayState, ReplayEvent]]:
        n = len(self.record.players)
        first = 0
        if self.start is not None:
            first, before = self.start
            self.state.game = before.copy()
        else:
            try:
                self.state.game = GameState(n, self.rules)
            except DealError as exc:
                self._judged(exc, pos=self.record.pos)
                yield self.state, GameEnd((), (), False, self._take())
                return
        over_reported = False
        lines, hands = self._lines, self.record.hands
        at_hand = hands[0].pos if hands else None
        read = []  # the header's (a preset read as meant): the game's, with its other findings
        while lines and lines[0].kind == "name" and (at_hand is None or lines[0].pos < at_hand):
            read.append(lines.pop(0))
        for code, message, at, fix in header_findings(self.record, self.rules.preset, read):
            self._report(code, message, at=at, fix=fix)
        for index, hand in enumerate(self.record.hands):
            if index < first:
                continue
            if self._restate is not None:
                self.state.game.restate_scores(self._restate)
                self._restate, self._ledger_cause = None, None
            if not over_reported:
                try:
                    self.state.game.verify_start(hand.number, self._said(hand))
                except IllegalPlayError as exc:
                    self._judged(exc, hand)
                    over_reported = True
            self.state.hand_index = index
            last = self.record.hands[index - 1].number if index else hand.number - 1
            if hand.number != last + 1:  # a hand left out, or a slip of the pen (not a rule)
                missing = f" (is hand {last + 1} missing?)" if hand.number > last + 1 else ""
                told = self._said(self.record.hands[index - 1]) if index else f"hand {last}"
                self._report("ZF406", f"{self._said(hand)} follows {told}: hands are "
                             f"numbered one by one{missing}", hand)  # fmt: skip
            with placing(hand=hand.number, unit="hand"):
                yield from self._hand(index, hand)
        while self._lines and self.start is None:  # no hand took them (a header's, say)
            problem = self._lines.pop(0)
            skipped = "; the line is skipped" if problem.kind == "line" else ""
            self._report("ZF001", problem.message + skipped, at=problem.pos, fix=problem.fix)
        yield self.state, self._game_end()

    # one hand ----------------------------------------------------------------------------------

    def _hand(self, index: int, hand: Hand) -> Iterator[tuple[ReplayState, ReplayEvent]]:
        game = self.state.game
        self._carry = self._hand_root  # (of the hand before, which it may have ended otherwise)
        if self._lines:
            self._names(hand, index)
        try:
            game.verify_shuffler(hand.shuffler)
        except DealError as exc:
            self._judged(exc, hand)
        self._hand_root, self._played, self._tainted, self._skipped = None, 0, {}, None
        self._undealt = (0, None)
        self._guess = self._rebuilt_from = self._dealt = None
        first_drawer = game.next_first_drawer(hand.shuffler)
        deal, reconstructed, known = self._deal(hand, game.n, first_drawer)
        written_leader = hand.tricks[0].moves[0].seat if hand.tricks and hand.tricks[0].moves else 0
        if game.previous_unknown:  # the hand before was closed early: who leads is unknown
            leader = written_leader if 0 <= written_leader < game.n else 0
        else:
            try:
                leader = game.leader_of(deal)
            except DealError as exc:
                self._judged(exc, hand)
                leader = written_leader
        # Without MoveSteps nobody gets the hand to step back in: no undo record is kept.
        hs = game.open_hand(deal, leader, index + 1, undoable=self.moves)
        if self._dealt is not None:  # which cards a play may still show to be elsewhere
            hs.mark_known(self._dealt.known)
        self.state.hand = hs
        yield self.state, HandStart(
            index, hand.number, tuple(deal), reconstructed,
            None if hand.shuffler is None else seat(hand.shuffler),
            None if first_drawer is None else seat(first_drawer), seat(leader), self._take(),
            known,
        )  # fmt: skip
        self._known = known
        # The moves, inline here: one generator level less per move than a helper would cost.
        state, found, n, table, hands = self.state, self.found, hs.n, seats(hs.n), hs.hands
        emit = self.moves
        after_end_reported = False
        unread = self._unread
        for t_index, trick in enumerate(hand.tricks, 1):
            unchecked = False
            if self._lines:
                self._unreadable_lines(hand, trick.pos, t_index)
            for m_index, move in enumerate(trick.moves):
                # What the reader could not read (rare): the moves it spoils are recovered.
                if unread and move.pos in unread:
                    recovered = self._recover(hand, t_index, move, hs, unread[move.pos])
                    if recovered is None:  # the move cannot be replayed: skipped
                        if emit:
                            yield state, _new(MoveStep, (
                                index, t_index, m_index, move, False, seat(move.seat), None,
                                hs.turn_in_trick, None, None, None, 0, None, self._take(),
                            ))  # fmt: skip
                        continue
                    move = recovered
                elif unread:  # (only a recovered move sets a cause)
                    self._cause = None
                mover = move.seat
                present = 0 <= mover < n
                if hs.over:
                    if not after_end_reported:
                        try:
                            hs.verify_turn(mover)
                        except IllegalPlayError as exc:
                            self._judged(exc, hand, t_index, move)
                        after_end_reported = True
                    if move.disputed:
                        self._dispute(hand, t_index, move)
                    if emit:
                        held = hands[mover] if present and known[mover] else None
                        yield state, _new(MoveStep, (
                            index, t_index, m_index, move, False, seat(mover), None,
                            hs.turn_in_trick, held, None, None, 0, None, self._take(),
                        ))  # fmt: skip
                    continue
                top = hs.top
                if mover != hs.turn and top is not None and present:
                    # Passes the record leaves out: the seats before this one in the pass chain.
                    chain = hs.pass_chain()
                    if mover in chain:
                        for passer in chain[: chain.index(mover)]:
                            if emit:
                                yield state, self._inferred(hs, index, t_index, m_index, passer)
                            else:
                                hs.pass_(passer)
                        top = hs.top
                if unread and self._unread_notes:
                    self._report_unread(hand, t_index)
                turn = hs.turn_in_trick
                if emit:  # the state before the move, for its MoveStep
                    top_seat, to_act, on_table = hs.top_seat, hs.turn, hs.trick_cards
                    held = hands[mover] if present and known[mover] else None
                event: Event | None
                if move.is_pass:
                    if top is None and m_index > 0 and present:
                        event = self._pass_after_end(hand, t_index, move)
                    else:
                        try:
                            event = hs.pass_(mover)
                        except IllegalPlayError as exc:
                            event = self._illegal_pass(hand, t_index, move, hs, exc)
                else:
                    self._twice = 0
                    if present:
                        if move.cards & self._played:
                            self._played_twice(hand, t_index, move)
                        self._played |= move.cards
                    if top is None and m_index > 0:
                        self._report(
                            "ZF205",
                            f"trick {t_index} was already over; this play leads a new trick "
                            "(RULES.md R6)",
                            hand,
                            t_index,
                            move,
                        )
                    decls = dict(move.declarations) if move.declarations else None
                    try:
                        if unchecked:  # the top could not be read: the play takes its best reading
                            combo = hs.verify_play(mover, move.cards, decls)
                            combo = best_reading(move.cards, self.rules, decls) or combo
                            event = hs.play_combo(mover, combo)
                        else:
                            event = hs.play(mover, move.cards, decls)
                    except IllegalPlayError as exc:
                        event, unchecked = self._illegal_play(
                            hand, t_index, move, hs, unchecked, exc
                        )
                if move.disputed:  # after what was found at the move itself
                    self._dispute(hand, t_index, move, turn)
                if not emit:
                    continue  # what was found waits for the HandEnd
                if found:
                    diagnostics = tuple(found)
                    found.clear()
                    state.diagnostics += diagnostics
                else:
                    diagnostics = ()
                yield state, _new(MoveStep, (
                    index, t_index, m_index, move, False,
                    table[mover] if present else seat(mover), table[to_act], turn, held, top,
                    None if top_seat is None else table[top_seat], on_table, event, diagnostics,
                ))  # fmt: skip
            if not hs.over and hs.top is not None:
                for passer in hs.pass_chain():
                    if emit:
                        yield state, self._inferred(hs, index, t_index, len(trick.moves), passer)
                    else:
                        hs.pass_(passer)
        self._cause = None
        hands_after = self.record.hands[index + 1 :]
        if self._lines:
            self._unreadable_lines(hand, hands_after[0].pos if hands_after else None, 0)
        result = hs.result
        if result is not None:
            game.finish_hand(result)
            if self._shadow is not None:
                self._shadow = tuple(
                    a + p for a, p in zip(self._shadow, result.points, strict=True)
                )
            self._check_score(hand, result)
        elif hand.score is not None or hands_after:
            self._closed_early(hand, hs)
        else:
            self._report(
                "ZF206",
                "the record stops before the hand ends; no score is computed for it (RULES.md R9)",
                hand,
            )
        yield self.state, HandEnd(index, result, tuple(game.scores), self._take(), len(hs.log))

    # the deal ----------------------------------------------------------------------------------

    def _deal(
        self, hand: Hand, n: int, first_drawer: int | None
    ) -> tuple[list[int], bool, tuple[bool, ...]]:
        """The hands as dealt: recorded, or completed from the plays (RULES.md R2, R3), and
        whose dealt hand is known exactly."""
        if hand.deal is not None and all(d.unknown == 0 for d in hand.deal):
            deal: list[int] = [d.known for d in hand.deal]
            try:
                self.state.game.verify_deal(deal, hand.shuffler)
            except DealError as exc:
                if exc.code == "ZF302":
                    self._dealt_twice(hand, hand.deal, deal, exc)
                else:
                    found = self._judged(exc, hand, pos=hand.deal[0].pos if hand.deal else None)
                    if exc.code == "ZF303":  # a later play of a card nobody is dealt follows
                        self._undealt = (FULL_DECK & ~_union(deal), cause_of(found))
            return deal, False, (True,) * n
        # What each seat played, to complete the deal from. A card played twice is reported at
        # its second play (the move loop), in play order.
        played = [0] * n
        everything = 0
        guesses: list[tuple[int, ReadProblem]] = []  # unreadable cards, by seat
        unread = bool(self._unread)
        for trick in hand.tricks:
            for move in trick.moves:
                if not move.is_pass and 0 <= move.seat < n:
                    problems = self._unread.get(move.pos) if unread and move.pos else None
                    if problems:
                        if self._rebuilt_from is None:
                            self._rebuilt_from = Cause(*problems[0].pos, "ZF001")
                        if any(p.kind == "move" for p in problems):
                            continue  # skipped: it may show another seat's cards (a lost colon)
                        guesses += [(move.seat, p) for p in problems]
                    # A card played twice was dealt to the seat that played it first: the
                    # later play is the one that cannot stand (it is reported there).
                    played[move.seat] |= move.cards & ~everything
                    everything |= move.cards
        if guesses:
            guess_unreadable(hand.deal, played, guesses)
        deal, known = self._reconstruct(hand, n, first_drawer, played)
        return deal, True, known

    def _reconstruct(
        self, hand: Hand, n: int, first_drawer: int | None, played: list[int]
    ) -> tuple[list[int], tuple[bool, ...]]:
        known: list[int] = [d.known for d in hand.deal] if hand.deal is not None else [0] * n
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
            if hand.deal is not None:
                self._dealt_twice(hand, hand.deal, known, exc)
            else:
                self._judged(exc, hand)
        opener = hand.tricks[0].moves[0].seat if hand.tricks and hand.tricks[0].moves else -1
        rebuilt = rebuild_deal(known, sizes, played, self.state.game.lead_card(), opener)
        self._dealt = rebuilt.deal
        if rebuilt.guessed:
            self._report(
                "ZF305",
                f"{rebuilt.unplayed.bit_count()} cards never played could be in more than one "
                f"hand ({', '.join(self._name(s) for s in rebuilt.guessed)}); they are placed in "
                "seat order and the transfer of the last hand may be wrong (RULES.md R3)",
                hand,
            )
        if rebuilt.left:
            self._report(
                "ZF304",
                f"{format_cards(rebuilt.left)} fit in no hand of the draw order (RULES.md R3)",
                hand,
            )
        return rebuilt.hands, tuple(s not in rebuilt.guessed for s in range(n))

    # moves -------------------------------------------------------------------------------------

    def _inferred(
        self, hs: HandState, index: int, t_index: int, m_index: int, passer: int
    ) -> MoveStep:
        """A pass the record leaves out, applied, with the state before it."""
        top_seat = hs.top_seat
        known = self._known[passer]
        step: MoveStep = _new(MoveStep, (
            index, t_index, m_index, Move(passer, True), True, seat(passer), seat(hs.turn),
            hs.turn_in_trick, hs.hands[passer] if known else None, hs.top,
            None if top_seat is None else seat(top_seat), hs.trick_cards, hs.pass_(passer), (),
        ))  # fmt: skip
        return step

    def _illegal_pass(
        self, hand: Hand, t_index: int, move: Move, hs: HandState, exc: IllegalPlayError
    ) -> Event | None:
        """A recorded pass the engine refused (ZF105, ZF201, ZF202): reported, and applied
        when it was only out of turn."""
        self._judged(exc, hand, t_index, move)
        if exc.code == "ZF201" and 0 <= move.seat < hs.n:
            return hs.force_pass(move.seat)  # out of turn: it still passed
        return None

    def _illegal_play(
        self,
        hand: Hand,
        t_index: int,
        move: Move,
        hs: HandState,
        unchecked: bool,
        exc: IllegalPlayError,
    ) -> tuple[Event | None, bool]:
        """A recorded play the engine refused: reported and applied as written where it can
        be. Returns its event and whether the rest of the trick goes unchecked (ZF207)."""
        seat, mask = move.seat, move.cards
        if exc.code not in _TURN_CODES or not 0 <= seat < hs.n:
            return self._illegal_cards(hand, t_index, move, hs, unchecked, exc)
        # Out of turn, or the wrong leader: reported, and the seat still played its cards.
        self._judged(exc, hand, t_index, move)
        decls = dict(move.declarations) if move.declarations else None
        try:
            combo = hs.verify_cards(seat, mask, decls)
        except IllegalPlayError as cards_exc:
            return self._illegal_cards(hand, t_index, move, hs, unchecked, cards_exc)
        if unchecked:
            combo = best_reading(mask, self.rules, decls) or combo
        return hs.force_play(seat, mask, combo), unchecked

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
        elif exc.code == "ZF301" and not mask & ~hs.hands[seat] & ~self._twice:
            # Only cards already played are missing: the ZF302 at this move says it all.
            combo = hs.recorded_reading(mask, decls)
        else:
            undealt, root = self._undealt
            gone = mask & ~hs.hands[seat] if exc.code == "ZF301" and 0 <= seat < hs.n else 0
            follows = root if gone and not gone & ~undealt else None  # cards nobody is dealt
            found = self._judged(exc, hand, t_index, move, cause=follows)
            # A later play of these cards follows from this one: of those not held, or of an
            # illegal play's (`6h` written for `Ah`: the 6h played again later).
            cause = cause_of(found)
            for card in iter_ids(gone if exc.code == "ZF301" else mask):
                self._tainted.setdefault(card, cause)
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

    # what could not be read -----------------------------------------------------------------

    def _names(self, hand: Hand, index: int) -> None:
        """Report the names of the hand's `shuffler` and `deal` lines that name no seat, and the
        unreadable cards of its deal lines. (A deal line skipped, or a card read as unknown,
        leaves a partial deal, judged as one: no cause is carried.)"""
        after = self.record.hands[index + 1].pos if index + 1 < len(self.record.hands) else None
        lines = self._lines
        before_plays = ("name", "dealt")  # a shuffler or deal line's, reported at the hand
        while lines and lines[0].kind in before_plays and (after is None or lines[0].pos < after):
            problem = lines.pop(0)
            self._report("ZF001", problem.message, hand, at=problem.pos, cause=None,
                         fix=problem.fix)  # fmt: skip

    def _unreadable_lines(self, hand: Hand, before: Pos | None, t_index: int) -> None:
        """Report the skipped lines that stand before `before` (None: all of them), which is
        trick `t_index` (0: the end of the hand)."""
        lines = self._lines
        while lines and (before is None or lines[0].pos < before):
            problem = lines.pop(0)
            if problem.kind == "name":  # a misspelt `score` (`deal`) read as meant: not skipped
                self._report("ZF001", problem.message, hand, at=problem.pos, cause=None,
                             fix=problem.fix)  # fmt: skip
                continue
            self._report(
                "ZF001", f"{problem.message}; the line is skipped", hand, at=problem.pos,
                cause=None,
            )  # fmt: skip
            cause = Cause(*problem.pos, "ZF001")
            if self._hand_root is None:
                self._hand_root = cause
            self._skipped = (t_index - 1, cause)  # the next trick's lead follows from it

    def _recover(
        self, hand: Hand, t_index: int, move: Move, hs: HandState, problems: list[ReadProblem]
    ) -> Move | None:
        """A move the reader could not wholly read: report each problem, with the cards that
        fit from what the seat still holds (or the player meant), and return the move as it
        can be replayed, or None when it cannot be and is skipped."""
        self._cause = None
        n = hs.n
        seat_index = move.seat
        skip = any(p.kind == "move" for p in problems)
        if not 0 <= seat_index < n and move.cards and not skip:
            # An unknown name: the one seat that holds the cards that could be read.
            holders = [s for s in range(n) if self._known[s] and not move.cards & ~hs.hands[s]]
            if len(holders) == 1:
                seat_index = holders[0]
        by_holder = seat_index != move.seat  # a seat found by its cards, not by its name
        present = 0 <= seat_index < n and not hs.over
        held = hs.hands[seat_index] & ~move.cards if present and self._known[seat_index] else 0
        read = read_unreadable(problems, held, int(move.cards))
        cards = read.cards
        skip = skip or read.skip or not present or (not cards and not move.is_pass)
        replayed = replace(move, seat=seat_index, cards=Cards(cards))
        at = replayed if present else move
        for i, (problem, message, fix) in enumerate(read.notes):
            if problem.kind == "seat" and present:
                message += f" (replayed as {self._name(seat_index)})"
            if skip and i == 0:
                message = skipped_note(message)
            self._unread_notes.append((message, fix, problem.pos, at))
        first = Cause(*problems[0].pos, "ZF001")
        if skip:
            self._report_unread(hand, t_index)
            if self._hand_root is None:
                self._hand_root = first
            self._skipped = (t_index, first)
            return None
        # What goes wrong at a move read by a guess follows from the guess: the cards' errors
        # from a guessed card, the turn's errors from a guessed seat.
        self._cause = first
        kinds = {p.kind for p in problems}
        self._cause_codes = (CARD_CODES if "card" in kinds else frozenset()) | (
            SEAT_CODES if "seat" in kinds else frozenset()
        )
        for card in iter_ids(cards & ~move.cards):
            self._tainted.setdefault(card, first)
        if cards & ~move.cards:  # a card was guessed: the trick's later plays are judged on it
            self._guess = (t_index, seat_index, first)
        if by_holder:
            # The name was close to nobody's: if the move was not that seat's, the seats hold
            # other cards than the record has them play from here on (as after a skipped move).
            for card in iter_ids(cards):
                self._tainted.setdefault(card, first)
            if self._hand_root is None:
                self._hand_root = first
        return replayed

    def _dealt_twice(
        self, hand: Hand, deal: tuple[SeatDeal, ...], known: list[int], exc: DealError
    ) -> None:
        """ZF302 of a deal: at the second copy, of its seat, with the cards nobody is dealt
        (zfrec.games.zhengfen.dealtwice); a later play of those follows from it."""
        said = dealt_twice(deal, known, exc.seat if exc.seat is not None else 0, self._name)
        found = self._report("ZF302", said.message, hand, pos=said.at, seat=said.seat)
        if said.undealt:
            self._undealt = (said.undealt, cause_of(found))

    def _report_unread(self, hand: Hand, t_index: int) -> None:
        """Report what could not be read of a move, once the passes before it are inferred
        (so that its turn is the move's)."""
        for message, fix, pos, move in self._unread_notes:
            self._report("ZF001", message, hand, t_index, move, cause=None, fix=fix, at=pos)
        self._unread_notes.clear()

    def _played_twice(self, hand: Hand, t_index: int, move: Move) -> None:
        """ZF302 at the second play of a card, caused by the first play if that was wrong."""
        twice = move.cards & self._played
        self._twice = twice
        cause = next((self._tainted[c] for c in iter_ids(twice) if c in self._tainted), None)
        self._report(
            "ZF302",
            f"{format_cards(twice)} played a second time in this hand (RULES.md R2)",
            hand,
            t_index,
            move,
            cause=cause,
        )

    def _pass_after_end(self, hand: Hand, t_index: int, move: Move) -> Event | None:
        """A pass written after the trick had ended (R26): reported as such, and skipped."""
        self._report(
            "ZF209",
            f"{self._name(move.seat)} passes, but the trick had already ended: every other "
            f"seat holding cards had passed (RULES.md R6, R26)",
            hand,
            t_index,
            move,
        )
        return None
