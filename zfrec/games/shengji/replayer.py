"""The Sheng ji validator: replay each round of a record through the engine and report every
mistake at its place in the record (DIAGNOSTICS.md, Sheng ji: the SJ codes).

Nothing here applies a rule of play: the engine (`RoundState`) judges every bid, exchange,
call and play (`verify_x`), reads throws (`check_throw`; a throw as written is judged in
`zfrec.games.shengji.throwjudge`), takes tricks and scores the round; this module routes its
errors to the record's file:line:col, round, trick and seat, compares what the record says
happened with what the engine computes, and goes on after a mistake from the state the record
shows (`RoundState.force_play`), marking what follows from it.

A round is replayed in two engine states: the draw (a deck rebuilt from the record,
`zfrec.games.shengji.rebuild`) with the bids, the settling of trump, the exchange and the
calls; then play, from the hands at play and the round's trump as written.

    >>> from zfrec.games.shengji.records import SjMatch, SjMove, SjRound, SjTrick
    >>> from zfrec.games.shengji.cards import parse_hand as h
    >>> from zfrec.record.model import Pos
    >>> rnd = SjRound(1, dealer=0, rank=2, trump="s", tricks=[SjTrick([
    ...     SjMove(0, h("3h"), pos=Pos(5, 1)), SjMove(1, h("4d"), pos=Pos(5, 7)),
    ...     SjMove(2, h("5h"), pos=Pos(5, 13)), SjMove(3, h("6h"), pos=Pos(5, 19))])])
    >>> report = validate_match(SjMatch(["Ann", "Bo", "Cy", "Di"], rounds=[rnd]))
    >>> [d.code for d in report.diagnostics]
    ['SJ205']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from zfrec.diagnostics import Cause, Diagnostic
from zfrec.errors import GameError, IllegalPlayError, Location, RulesError
from zfrec.games.shengji.cards import (
    contains,
    count,
    distinct,
    format_hand,
    size,
)
from zfrec.games.shengji.drawstate import bid_dealer, draw_state
from zfrec.games.shengji.events import PlayEvent
from zfrec.games.shengji.follow import judge_follow
from zfrec.games.shengji.formats import classify, suit_of
from zfrec.games.shengji.ledger import check_ledger
from zfrec.games.shengji.order import Order, make_order
from zfrec.games.shengji.rebuild import (
    Rebuilt,
    first_shown,
    rebuild,
    shown,
    whole_hands,
)
from zfrec.games.shengji.records import (
    TRUMPS,
    SjMatch,
    SjMove,
    SjRound,
    SjTrick,
)
from zfrec.games.shengji.report import SjReport, SjRoundLedger, did_you_mean, follow_hint
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import SjRules, level_rank, level_text
from zfrec.games.shengji.scoring import raise_level
from zfrec.games.shengji.throwjudge import At as _At
from zfrec.games.shengji.throwjudge import judge_throw
from zfrec.games.shengji.unseen import less
from zfrec.games.shengji.verdicts import (
    copies_out,
    deal_findings,
    kept_back,
    no_join,
    played_already,
    result_findings,
    stops,
    why_leads_cited,
)
from zfrec.record.model import Pos
from zfrec.record.problems import Fix

__all__ = ["SjReport", "SjRoundLedger", "replay_open", "validate_match"]


RULES_MD = "RULES-SHENGJI.md"
# Errors that change what the replay computes for the rest of a round: its ledger follows.
ALTERING = frozenset((
    "SJ102", "SJ103", "SJ104", "SJ203", "SJ204", "SJ206", "SJ301", "SJ302", "SJ303", "SJ304",
    "SJ401", "SJ402", "SJ403", "SJ404", "SJ405", "SJ406", "SJ505",
))  # fmt: skip
# Findings that, written without a cause, follow from an earlier one: at the same move (a
# seat out of turn), in the same trick (after a lead that was wrong), or in the same round
# (after a wrong deal, bid, dealer, rank or trump).
DEFAULTED = frozenset((
    "SJ101", "SJ102", "SJ103", "SJ104", "SJ201", "SJ202", "SJ203", "SJ205", "SJ206", "SJ304",
    "SJ401", "SJ402", "SJ403", "SJ404", "SJ405", "SJ406", "SJ407",
))  # fmt: skip
TRICK_ROOTS = ALTERING | {"SJ202", "SJ203"}
TRICK_FOLLOW = frozenset(("SJ102", "SJ201", "SJ202"))
_RULING = re.compile(r"\s*\(rulings? [\d, ]+\)")


def validate_match(
    match: SjMatch, game_number: int | None = None, rules: SjRules | None = None
) -> SjReport:
    """Replay every round of `match` (under its own rules, or `rules`) and collect its
    diagnostics (see the module docstring)."""
    return _Replay(match, game_number, rules).run()


def replay_open(
    match: SjMatch, rules: SjRules | None = None, trusted: bool = False
) -> tuple[SjReport, RoundState | None, Rebuilt | None]:
    """`validate_match` for a record still being written (the live table): the last trick of
    the last round may be open, with fewer plays than seats, and its plays are judged as they
    stand. Also gives the last round's play state and its rebuilt hands (None before play).
    `trusted`: the first round's dealer and rank are taken as written (as after a round left
    unfinished), for one round replayed without the rounds before it."""
    replay = _Replay(match, None, rules)
    replay.open_last = True
    replay.trusted = trusted
    report = replay.run()
    return report, replay.last_state, replay.last_rebuilt


def _seats(mask: int, n: int) -> list[int]:
    return [s for s in range(n) if mask >> s & 1]


def _pos(*candidates: Pos | None) -> Pos | None:
    return next((p for p in candidates if p is not None), None)


class _Replay:
    """One match's replay; `note` turns a finding into a located Diagnostic."""

    def __init__(self, match: SjMatch, game_number: int | None, rules: SjRules | None) -> None:
        self.match = match
        self.given_rules = rules
        # what the reader could not read (ZF001), by the round it is in, and the moves it
        # spoils: what goes wrong at such a move follows from it
        self.read_causes: dict[tuple[int, int], Cause] = {
            p.move: Cause(p.pos[0], p.pos[1], "ZF001") for p in match.problems if p.move
        }
        self.game_number = game_number
        self.found: list[Diagnostic] = []
        self.ledgers: list[SjRoundLedger] = []
        self.moves = 0
        self.round_no: int | None = None
        self.root: Cause | None = None  # the round's first altering error
        self.names = match.players
        # (seat, card id) -> the error at whose play the seat spent the card: a later play of
        # it "does not hold" follows from that error (DIAGNOSTICS.md, causes)
        self.spent: dict[tuple[int, int], Cause] = {}
        self.trick_root: Cause | None = None  # the current trick's first altering error
        self.move_cause: Cause | None = None  # the current move's turn error
        self.round_cause: Cause | None = None  # the round's first error before play
        self.trusted = False  # the last round was left unfinished: take this one's start
        self.lost: list[Cause] = []  # the round's lines the reader skipped, in order
        self.open_last = False  # replay_open: the last trick may be open
        self.last_state: RoundState | None = None
        self.last_rebuilt: Rebuilt | None = None
        self.hidden_kitty = 0  # the round's discard as far as not written (`unseen`)
        self.tricks: list[SjTrick] = []  # the round's tricks as written (`why_leads`)
        # seat -> the errors at its plays in the round, in order: where (trick, turn), the
        # cause, and the suits the play concerned (`kept_cause`); and whether the round's
        # plays account for every card of the hands at play
        self.erred: dict[int, list[tuple[tuple[int, int], Cause, int]]] = {}
        # the play being judged (after the fast path): its order, cards and lead's suit
        self.concern: tuple[Order, int, int | None] | None = None
        self.at_play = 0  # the cards of the hands at play; `written_whole` counts on demand
        self._whole: bool | None = None

    # reporting ---------------------------------------------------------------------------------

    def note(
        self, code: str, message: str, pos: Pos | None, *, trick: int | None = None,
        turn: int | None = None, seat: int | None = None, cause: Cause | None = None,
        rule: str | None = None, fix: Fix | None = None,
    ) -> Diagnostic:  # fmt: skip
        """Record a finding; `rule` (a ruling number) is cited as RULES-SHENGJI.md's."""
        if cause is None and code in DEFAULTED:
            cause = (
                self.move_cause
                or (self.trick_root if code in TRICK_FOLLOW else None)
                or self.round_cause
            )
        if rule is not None:
            cites = ", ".join(f"R{r.strip()}" for r in rule.split(","))
            message = f"{_RULING.sub('', message)} ({RULES_MD} {cites})"
        where = pos or self.match.pos
        line, col = (where[0], where[1]) if where is not None else (None, None)
        name = self.names[seat] if seat is not None and 0 <= seat < len(self.names) else None
        found = Diagnostic(
            code, message,
            Location(self.match.source, line, col, self.game_number, self.round_no, trick, turn,
                     name, unit="round"),
            cause, fix,
        )  # fmt: skip
        self.found.append(found)
        if code in ALTERING and self.root is None:
            self.root = cause or Cause(line, col, code)
        if code in TRICK_ROOTS and self.trick_root is None:
            self.trick_root = cause or Cause(line, col, code)
        if code in ("SJ202", "SJ203"):
            self.move_cause = cause or Cause(line, col, code)
        if seat is not None and trick is not None and found.severity == "error":
            why = cause or Cause(line, col, code)
            self.erred.setdefault(seat, []).append(((trick, turn or 0), why, self._suits()))
        return found

    def _suits(self) -> int:
        """The packed mask of the effective suits the play being judged concerns: those of its
        cards and its trick's lead; every card outside a play."""
        if self.concern is None:
            return -1
        order, cards, led = self.concern
        masks = order.suit_mask
        return sum(masks[e] for e in range(len(masks)) if cards & masks[e] or e == led)

    def kept_cause(
        self, state: RoundState, seat: int, m: SjMove, at: _At, fine: Callable[[int], bool]
    ) -> Cause | None:
        """What a finding at play `m` (the follow of `seat`, or its block of a throw) follows
        from: in a round written to its end, the first earlier error of the seat's own that
        kept in its hand cards the record never has it play from here on, in the suits that
        error's play concerned, without which it would be no finding (`fine(kept)`). None when
        no such error: cards of other suits are not kept by it (a later error keeps them)."""
        errors = self.erred.get(seat)
        if not errors or not self.written_whole():
            return None
        kept = kept_back(self.tricks, state.hands[seat], seat, m, at["trick"])
        here = (at["trick"], at["turn"])
        for where, why, suits in errors:
            mine = kept & suits
            if where < here and mine and fine(mine):
                return why
        return None

    def engine(
        self, exc: GameError, pos: Pos | None, *, trick: int | None = None,
        turn: int | None = None, seat: int | None = None, extra: str = "",
        cause: Cause | None = None,
    ) -> Diagnostic:  # fmt: skip
        """Route an engine error to the record: its code and rule, the seats by name."""
        message = exc.render(lambda s: self.names[s] if 0 <= s < len(self.names) else "?")
        rule = exc.rule if isinstance(exc, IllegalPlayError) else None
        return self.note(exc.code or "SJ102", message + extra, pos, trick=trick, turn=turn,
                         seat=seat, cause=cause, rule=rule or "2")  # fmt: skip

    # the match ---------------------------------------------------------------------------------

    def run(self) -> SjReport:
        match = self.match
        try:
            rules = self.given_rules or match.rules()
        except RulesError as exc:
            self.note("SJ207", exc.message, match.pos)
            return SjReport(match, None, tuple(self.found))
        n = rules.players
        if len(match.players) != n:
            self.note("SJ207", f"{rules.preset} is played by {n}, not {len(match.players)} "
                      "players", match.pos, rule="1")  # fmt: skip
            return SjReport(match, rules, tuple(self.found))
        levels = [2] * n
        dealer: int | None = None  # the next round's dealer (None: round 1, the bids decide)
        dealer_cause: Cause | None = None
        rank_cause: Cause | None = None
        winners: tuple[int, ...] = ()
        starts = [rnd.pos[0] if rnd.pos else 0 for rnd in match.rounds]
        problems = sorted(match.problems, key=lambda p: p.pos)
        for i, rnd in enumerate(match.rounds):
            self.round_no, self.root, self.spent, self.erred = rnd.number, None, {}, {}
            end = starts[i + 1] if i + 1 < len(starts) else None
            self.lost = []
            while problems and (end is None or problems[0].pos[0] < end):
                p = problems.pop(0)
                self.note("ZF001", p.message, Pos(*p.pos), fix=p.fix)
                if p.kind == "line":
                    self.lost.append(Cause(p.pos[0], p.pos[1], "ZF001"))
            self.round_cause = self.move_cause = self.trick_root = None
            if winners:
                self.note("SJ507", f"round {rnd.number} is played after the match was won "
                          f"by {self._names(winners)}", rnd.pos, rule="14")  # fmt: skip
            last = match.rounds[i - 1].number if i else rnd.number - 1
            if rnd.number != last + 1:  # a round left out, or a slip of the pen
                missing = f" (is round {last + 1} missing?)" if rnd.number > last + 1 else ""
                self.note("SJ508", f"round {rnd.number} follows round {last}: rounds are "
                          f"numbered one by one{missing}", rnd.pos)  # fmt: skip
            start = len(self.found)
            out = self.round(rules, rnd, levels, dealer, dealer_cause, rank_cause)
            # record order within the round (the round-1 dealer is known only after the bids)
            self.found[start:] = sorted(
                self.found[start:], key=lambda d: (d.location.line or 0, d.location.col or 0)
            )
            if out is None:
                continue
            levels, dealer, won, dealer_cause, rank_cause = out
            self.trusted = self.ledgers[-1].result is None
            winners = winners or won
        self.round_no = None
        for code, message, pos, _, rule in result_findings(self.match, levels, winners):
            self.note(code, message, pos, rule=rule)  # the [Result] tag
        return SjReport(match, rules, tuple(self.found), tuple(self.ledgers), tuple(levels),
                        winners, self.moves)  # fmt: skip

    def _names(self, seats: Sequence[int]) -> str:
        return " and ".join(self.names[s] for s in seats)

    # a round -----------------------------------------------------------------------------------

    def round(
        self, rules: SjRules, rnd: SjRound, levels: list[int], dealer: int | None,
        dealer_cause: Cause | None, rank_cause: Cause | None,
    ) -> tuple[list[int], int, tuple[int, ...], Cause | None, Cause | None] | None:  # fmt: skip
        n = rules.players
        if self.trusted and rnd.dealer is not None:
            dealer = rnd.dealer  # after a round left unfinished: its start is taken as written
        if rnd.dealer is not None and dealer is not None and rnd.dealer != dealer:
            self.note("SJ304", f"{self.names[dealer]} deals round {rnd.number}, not "
                      f"{self.names[rnd.dealer]}", rnd.pos, seat=rnd.dealer, cause=dealer_cause,
                      rule="12")  # fmt: skip
        written_dealer = rnd.dealer if rnd.dealer is not None else dealer
        for code, message, pos, seat, rule in deal_findings(rules, rnd, self.names):
            self.note(code, message, pos, seat=seat, rule=rule)
        first = dealer if dealer is not None else 0
        lead_dealer = written_dealer if written_dealer is not None else 0
        dealt: list[tuple[int, int] | None] = (
            [(d.known, d.unknown) for d in rnd.deal] if rnd.deal is not None else [None] * n
        )
        up = (rnd.kitty.known, rnd.kitty.unknown) if rnd.kitty else None
        down = (rnd.discard.known, rnd.discard.unknown) if rnd.discard else None
        # every card written: the hands without what the seats showed later (`rebuild`'s
        # common case, which needs neither `bids` nor `played`)
        rb = whole_hands(rules, dealt, (up, down))
        played: list[int] = []
        bids: list[int] = []
        if rb is None:
            played, bids = shown(rnd, n)
            played = first_shown(rnd, played, dealt, up, rules.decks, lead_dealer, rules.hand_size)
            rb = rebuild(rules, lead_dealer, dealt, (up, down), bids, played, first)
        # the expected rank: the declarers' level (the dealer's), round 1 at 2
        expect = levels[written_dealer] if written_dealer is not None else 2
        rank = rnd.rank if rnd.rank is not None else expect
        if self.trusted and rnd.rank is not None:
            expect = rnd.rank
        if rnd.rank is not None and rnd.rank != expect:
            self.note("SJ505", f"round {rnd.number} is played at {level_text(expect)}, the "
                      f"declarers' level, not {level_text(rnd.rank)}", rnd.pos,
                      cause=rank_cause, rule="14")  # fmt: skip
        if written_dealer is None and rnd.bids and not rb.whole:
            # round 1, its dealer as the bids settle it: the rebuilt deal gives them the kitty
            by_bids = bid_dealer(rules, rb, level_rank(rank), [(b.seat, b.cards) for b in rnd.bids])
            if by_bids:  # (seat 1 is the deal rebuilt already)
                rb = rebuild(rules, by_bids, dealt, (up, down), bids, played, first)
        self.round_cause = self.root
        settled = self.draw_phase(rules, rnd, rb, rank, dealer, written_dealer)
        lead_dealer = written_dealer if written_dealer is not None else settled[0]
        if rnd.dealer is not None and dealer is None and rnd.dealer != settled[0]:
            self.note("SJ304", f"{self.names[settled[0]]} deals round 1: the seat whose bid "
                      "stands, else seat 1", rnd.pos, seat=rnd.dealer, rule="14")  # fmt: skip
        self.round_cause = self.root
        order = _order(rank, rnd.trump) or settled[1]
        if order is None:
            return None
        if written_dealer is None:  # the deal was rebuilt for seat 1 dealing: again for this one
            played, bids = shown(rnd, n)  # (the copies shown too often: by this dealer's)
            played = first_shown(rnd, played, dealt, up, rules.decks, lead_dealer, rules.hand_size)
            rb = rebuild(rules, lead_dealer, dealt, (up, down), bids, played, first)
        at_play = rb.at_play(lead_dealer)  # copied by the state: the ledger's below
        state = RoundState.from_hands(
            at_play, order, lead_dealer, rules, kitty=rb.discard,
            calls=[(c.card, c.ordinal) for c in rnd.calls], undoable=False,
        )  # fmt: skip
        self.play_phase(rules, rnd, state, rb)
        self.last_state, self.last_rebuilt = state, rb
        result = state.result
        new_levels = list(levels)
        won: tuple[int, ...] = ()
        next_dealer = lead_dealer
        level_cause = rank_cause
        d_cause: Cause | None = None
        if result is not None:
            level_cause, d_cause = check_ledger(
                self.note, self.names, self.root, rules, rnd, result, state.last_lead,
                state.penalties,
            )  # fmt: skip
            decl = result.declarers
            wins, steps = [], []
            for s in range(n):
                is_decl = bool(decl >> s & 1)
                steps.append(result.change.declarers if is_decl else result.change.opponents)
                new_levels[s], w = raise_level(levels[s], steps[s], rules.must_defend, is_decl)
                if w:
                    wins.append(s)
            if wins:
                side = decl if decl >> wins[0] & 1 else ~decl
                won = tuple(s for s in range(n) if side >> s & 1)
            if rnd.levels is not None and tuple(rnd.levels.levels) != tuple(new_levels):
                c = self.note("SJ503", "the levels after the round are "
                              f"{' '.join(level_text(v) for v in new_levels)}, not "
                              f"{' '.join(level_text(v) for v in rnd.levels.levels)}"
                              + stops(self.names, rules, levels, new_levels, steps, won),
                              rnd.levels.pos, cause=level_cause or self.root,
                              rule="12, 14")  # fmt: skip
                level_cause = c.cause or Cause(c.location.line, c.location.col, c.code)
            next_dealer = result.next_dealer
        if rnd.levels is not None and len(rnd.levels.levels) == n:
            new_levels = list(rnd.levels.levels)  # the next round goes on from the written
        if rnd.outcome is not None and rnd.outcome.next_dealer is not None:
            next_dealer = rnd.outcome.next_dealer
        self.ledgers.append(SjRoundLedger(
            rnd.number, lead_dealer, order.text, tuple(at_play), rb.kitty,
            rb.discard,
            not rb.exact, result, tuple(new_levels), tuple(rb.guessed), rb.drawn, won,
        ))  # fmt: skip
        return new_levels, next_dealer, won, d_cause or self.root, level_cause

    def draw_phase(
        self, rules: SjRules, rnd: SjRound, rb: Rebuilt, rank: int, dealer: int | None,
        written: int | None,
    ) -> tuple[int, Order | None]:  # fmt: skip
        """Bids, trump, exchange and calls through the engine's draw; the dealer and trump it
        settles (trump None when the record's deal cannot be drawn)."""
        st = draw_state(rules, rb, level_rank(rank), dealer)
        if st is None:
            return (written if written is not None else 0), None
        stood = False  # some bid the engine took (a refused one sets no trump)
        for b in rnd.bids:
            try:
                st.bid(b.seat, b.cards)
                stood = True
            except IllegalPlayError as exc:
                self.engine(exc, b.pos, seat=b.seat)
        self.round_cause = self.root
        ev = st.settle()
        assert st.order is not None
        # Without bids the kitty's cards turned in order set the trump; the record keeps the
        # kitty as a set, so it is checked only where any order gives the same (R15).
        turned = rnd.kitty is not None and not rnd.kitty.unknown and rules.no_bid == "first_card"
        # (the kitty's plain suits asked only when no bid was made)
        settled = stood or (turned and len({c & 3 for c in distinct(rb.kitty) if c < 52}) <= 1)
        if settled and rnd.trump is not None:
            trump = "nt" if st.order.trump is None else TRUMPS[st.order.trump]
            if trump != rnd.trump:
                said = _order(rank, rnd.trump)
                how = "the bids that stand give" if stood else "with no bid, the kitty gives"
                self.note("SJ405", f"{how} {st.order.describe()}, not "
                          f"{said.describe() if said else rnd.trump}", rnd.pos,
                          rule="15")  # fmt: skip
        d = ev.dealer
        discard = rb.discard
        if rnd.discard is not None and not rnd.discard.unknown:
            try:
                st.verify_exchange(d, rnd.discard.known)
                discard = rnd.discard.known
            except IllegalPlayError as exc:
                self.engine(exc, rnd.discard.pos, seat=d)
        try:
            st.exchange(d, discard)  # verified first: nothing changes when it raises
        except IllegalPlayError:
            pass
        else:
            if rules.friends and rnd.calls:
                try:
                    st.verify_call(d, [(c.card, c.ordinal) for c in rnd.calls])
                except IllegalPlayError as exc:
                    self.engine(exc, rnd.pos, seat=d)
        return d, st.order

    # play --------------------------------------------------------------------------------------

    def play_phase(self, rules: SjRules, rnd: SjRound, state: RoundState, rb: Rebuilt) -> None:
        n = rules.players
        self.tricks = rnd.tricks
        self.at_play, self._whole = sum(size(h) for h in state.hands), None
        guessed = list(rb.guessed)
        known = rnd.discard.known if rnd.discard else 0
        # the kitty's cards no line shows (none where the discard is written whole, the usual)
        self.hidden_kitty = 0 if known == rb.discard else less(rb.discard, known)
        winner_cause: Cause | None = None
        read_causes, calls = self.read_causes, bool(state.calls)
        # the play events are read by `check_joins` and by the live table (`last_state`) only
        logged = calls or self.open_last
        found = self.found
        # a record may stop in its last trick (a position to solve, as Zheng Fen's may): the
        # round stops there (SJ205), as one still being written does
        unscored = rnd.points is None and rnd.outcome is None and rnd.levels is None
        may_stop = self.open_last or (unscored and rnd is self.match.rounds[-1])
        for t, trick in enumerate(rnd.tricks, 1):
            plain = None if self.lost or read_causes else trick.plain
            if plain is not None:  # a plain line's plays, its moves not made (`SjTrick`)
                made_all = state.take_trick(plain[0], logged)
                if made_all is not None:  # (else nothing changed: judged play by play below)
                    self.trick_root = winner_cause = None
                    # `joins` written or made: as `check_joins` asks (else nothing to say)
                    if calls and (
                        "joins" in plain[1] or any(e.joined is not None for e in made_all)
                    ):
                        self.check_joins(state, trick.moves, made_all, t)
                    self.moves += n
                    continue
            moves = trick.moves
            unread = read_causes and any(m.pos in read_causes for m in moves)
            if plain is None and not self.lost and not unread:
                # the common case first: a whole trick legal as written, made at once (None
                # after the round's end, for a trick of more or fewer plays, for a throw ...)
                plays = [(m.seat, m.cards) for m in moves if m.forced is None]
                # a written failed throw goes to the play-by-play judge (SJ104, SJ206)
                made_all = state.take_trick(plays, logged) if len(plays) == len(moves) else None
                if made_all is not None:
                    self.trick_root = winner_cause = None
                    if calls:
                        self.check_joins(state, moves, made_all, t)
                    self.moves += n
                    continue
            if state.over:
                m = trick.moves[0] if trick.moves else None
                self.note("SJ204", "the round is over: every card has been played; the rest "
                          "is skipped", _pos(m.pos if m else None, trick.pos), trick=t,
                          rule="11")  # fmt: skip
                return
            open_tail = may_stop and t == len(rnd.tricks) and len(trick.moves) < n
            if len(trick.moves) != n and not open_tail:
                # a play the reader could not read whole may be why (`2 5d` for `2: 5d`)
                unread_at = next((read_causes[m.pos] for m in trick.moves
                                  if read_causes and m.pos in read_causes), None)  # fmt: skip
                self.note("SJ206", f"a trick has {n} plays, one by each seat, not "
                          f"{len(trick.moves)}; the rest of the round is not judged", trick.pos,
                          trick=t, rule="7", cause=unread_at)  # fmt: skip
                return
            unjudged = False
            self.trick_root = None
            while self.lost and trick.pos is not None and (self.lost[0].line or 0) < trick.pos[0]:
                lost = self.lost.pop(0)  # a line skipped before this trick: what follows is off
                winner_cause = winner_cause or lost
                self.root = self.root or lost
                self.round_cause = self.round_cause or lost
            for m in moves:
                seat = m.seat
                if not 0 <= seat < n:
                    self.note("SJ207", f"there is no seat {seat + 1}", m.pos, trick=t,
                              rule="1")  # fmt: skip
                    return
                before = len(found)
                turn = len(state.trick_plays) + 1
                if read_causes and m.pos in read_causes:  # the move lost what was unreadable
                    misread = self.move_cause = read_causes[m.pos]
                    self.trick_root = self.trick_root or misread
                    self.root = self.root or misread
                unjudged = self.play(state, m, t, guessed, unjudged, winner_cause)
                self.move_cause = self.concern = None
                if calls:
                    self.joins(state, m, t, turn)
                if len(found) != before:
                    self.spend(m, before)
            self.moves += len(moves)
            winner_cause = self.trick_root
        self.trick_root = None
        if not state.over:
            last_pos = rnd.tricks[-1].pos if rnd.tricks else rnd.pos
            holding = [s for s in range(n) if state.hands[s]]
            if self.root is not None and len(holding) < n:
                verb = "holds" if len(holding) == 1 else "hold"
                self.note("SJ205", "the round cannot end as written: "
                          f"{self._names(holding)} still {verb} cards; no score is computed "
                          "for it", last_pos, cause=self.root, rule="11")  # fmt: skip
            else:
                self.note("SJ205", "the record stops before the round ends; no score is "
                          "computed for it", last_pos, rule="11")  # fmt: skip

    def check_joins(
        self, state: RoundState, moves: list[SjMove], made: list[PlayEvent], t: int
    ) -> None:
        """Zhao pengyou: `joins` for each play of trick `t` made at once (events `made`)."""
        found = self.found
        for m, ev in zip(moves, made, strict=True):
            if m.joins != (ev.joined == m.seat):  # `joins` says what is wrong
                before = len(found)
                self.joins(state, m, t, ev.turn, ev)
                if len(found) != before:
                    self.spend(m, before)

    def spend(self, m: SjMove, before: int) -> None:
        """After an error at play `m` (found from index `before` on): a later play of the
        cards it spent follows from that error."""
        errors = [d for d in self.found[before:] if d.severity == "error"]
        if errors:
            why = errors[0].cause or Cause(*_lc(errors[0].location), errors[0].code)
            for c in distinct(m.played):
                self.spent.setdefault((m.seat, c), why)

    def play(
        self, state: RoundState, m: SjMove, t: int, guessed: list[int], unjudged: bool,
        winner_cause: Cause | None,
    ) -> bool:  # fmt: skip
        """Judge and make one written play; True while the trick is not judged (after a lead
        that is no lead)."""
        seat, cards = m.seat, m.cards
        led = state.lead
        if seat == state.turn and not unjudged and m.forced is None:
            order = state.order
            assert order is not None  # the common cases first: a follow or a lead in turn
            if led is not None:
                if judge_follow(order, led, state.hands[seat], cards) is None:
                    state.play_legal(seat, cards)
                    return False
            elif contains(state.hands[seat], cards) and suit_of(order, cards) is not None:
                lead = classify(order, cards)
                if len(lead.units) == 1:
                    state.play_legal(seat, cards, lead)
                    return False
        turn = len(state.trick_plays) + 1
        at = _At(trick=t, turn=turn, seat=seat)
        order = state.order
        assert order is not None
        leading = state.lead is None
        self.concern = (order, cards | m.played, None if led is None else led.esuit)
        if seat != state.turn:
            if leading:
                leads, rule = why_leads_cited(self.names, self.tricks, state.turn, t, order, seat)
                self.note("SJ203", f"{self.names[state.turn]} leads trick {t}, not "
                          f"{self.names[seat]}: {leads}", m.pos, cause=winner_cause, rule=rule,
                          **at)  # fmt: skip
            else:
                self.note("SJ202", f"it is {self.names[state.turn]}'s turn, not "
                          f"{self.names[seat]}'s", m.pos, rule="1", **at)  # fmt: skip
        hand = state.hands[seat]
        if unjudged:
            state.force_play(seat, cards, m.played)
            return True
        if leading:
            if not contains(hand, cards):
                self.not_held(state, m, hand, guessed[seat], at)
            else:
                try:
                    lead = classify(order, cards)
                except IllegalPlayError as exc:
                    self.engine(exc, m.pos, **at)
                    self.note(
                        "SJ105",
                        "the rest of the trick is not judged against a lead that is no lead",
                        m.pos,
                        cause=Cause(*_lc(m.pos), "SJ101"),
                        **at,
                    )
                    state.force_play(seat, cards, m.played)
                    return True
                if len(lead.units) > 1 or m.failed:
                    return judge_throw(self, state, m, guessed, at)
                if seat == state.turn:
                    state.play_legal(seat, cards, lead)
                    return False
            state.force_play(seat, cards, m.played)
            return False
        assert led is not None
        if m.failed:
            self.note("SJ104", "only a lead can be a throw that fails; a follow stays whole",
                      m.pos, rule="10", **at)  # fmt: skip
        reason = judge_follow(order, led, hand, cards)
        if reason is not None and reason.startswith("does not hold"):
            self.not_held(state, m, hand, guessed[seat], at)
        elif reason is not None and guessed[seat]:
            # judged as far as the known cards allow: a guessed card never makes a play wrong,
            # nor is it named in the reason or suggested
            why = judge_follow(order, led, known := less(hand, guessed[seat]), cards)
            if why is not None:
                self.not_followed(state, m, known, why, at)
        elif reason is not None:
            self.not_followed(state, m, hand, reason, at)
        if reason is None and seat == state.turn:
            state.play_legal(seat, cards)
        else:
            state.force_play(seat, cards, cards)
        return False

    def joins(
        self, state: RoundState, m: SjMove, t: int, turn: int, made: PlayEvent | None = None
    ) -> None:
        """Zhao pengyou: the record's `joins` against the engine's (ruling 16); `made` is the
        play's event (default: the last logged)."""
        ev = made or state.log[-1]
        assert isinstance(ev, PlayEvent)
        joined = ev.joined == m.seat
        if m.joins != joined:
            said = (
                f"{self.names[m.seat]} joins the dealer's team with this play: it is a called copy"
                if joined
                else f"{self.names[m.seat]} does not join here: "
                + no_join(self.names, self.tricks, state.dealer, state.calls, m, t)
            )
            d = self.note("SJ407", said, m.pos, trick=t, turn=turn, seat=m.seat, rule="16")
            # the teams are the engine's from here, not the record's: the points follow
            self.root = self.root or d.cause or Cause(*_lc(d.location), d.code)

    def written_whole(self) -> bool:
        """Whether the round's plays account for every card of the hands at play. Asked only
        on an error: counting reads every trick's moves, which a plain line makes lazily."""
        if self._whole is None:
            written = sum(size(x.played) for tr in self.tricks for x in tr.moves)
            self._whole = written == self.at_play
        return self._whole

    def not_held(self, state: RoundState, m: SjMove, hand: int, guessed: int, at: _At) -> None:
        missing = [c for c in distinct(m.cards) if count(m.cards, c) > count(hand, c)]
        text = format_hand(sum(1 << 2 * c for c in missing))
        hint = did_you_mean(missing, less(hand, guessed))  # never a guessed card
        spent = [self.spent[m.seat, c] for c in missing if (m.seat, c) in self.spent]
        said = (
            played_already(self.tricks, m, missing)
            if spent
            else copies_out(self.names, self.tricks, m, missing, state.rules.decks)
        )
        self.note("SJ102", f"{self.names[m.seat]} does not hold {text}{said}"
                  + (f"; did you mean {hint}?" if hint else ""), m.pos, rule="2",
                  cause=spent[0] if spent else None, **at)  # fmt: skip

    def not_followed(self, state: RoundState, m: SjMove, hand: int, reason: str, at: _At) -> None:
        order, lead = state.order, state.lead
        assert order is not None and lead is not None
        hint = follow_hint(order, lead, hand, m.cards, reason)
        # legal but for cards the seat keeps only by an earlier error of its own
        why = self.kept_cause(
            state, m.seat, m, at, lambda kept: judge_follow(order, lead, less(hand, kept),
                                                            m.cards) is None
        )  # fmt: skip
        self.note("SJ201", f"{self.names[m.seat]} played {format_hand(m.cards)} to "
                  f"{format_hand(lead.cards)}, but {reason}{hint}", m.pos, rule="7", cause=why,
                  **at)  # fmt: skip


def _lc(pos: Pos | Location | None) -> tuple[int | None, int | None]:
    if isinstance(pos, Location):
        return pos.line, pos.col
    return (pos[0], pos[1]) if pos is not None else (None, None)


def _order(rank: int, trump: str | None) -> Order | None:
    if trump is None:
        return None
    return make_order(level_rank(rank), None if trump == "nt" else TRUMPS.index(trump))
