"""The Sheng ji validator: replay each round of a record through the engine and report every
mistake at its place in the record (DIAGNOSTICS.md, Sheng ji: the SJ codes).

Nothing here applies a rule of play: the engine (`RoundState`) judges every bid, exchange,
call and play (`verify_x`), reads throws (`check_throw`), takes tricks and scores the round;
this module routes its errors to the record's file:line:col, round, trick and seat, compares
what the record says happened with what the engine computes, and goes on after a mistake from
the state the record shows (`RoundState.force_play`), marking what follows from it.

A round is replayed in two engine states: the draw (a deck rebuilt from the record,
`zfrec.games.shengji.rebuild`) with the bids, the settling of trump, the exchange and the
calls; then play, from the hands at play and the round's trump as written. The replay's state
and `note` are `zfrec.games.shengji.replaybase`'s, the judging of the plays
`zfrec.games.shengji.replayplays`'; this module replays the match round by round.

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

from collections import Counter

from zfrec.diagnostics import Cause, Diagnostic
from zfrec.errors import IllegalPlayError, RulesError, placing
from zfrec.games.shengji.cards import count, distinct, format_hand
from zfrec.games.shengji.drawstate import bid_dealer, draw_state
from zfrec.games.shengji.ledger import check_ledger
from zfrec.games.shengji.order import Order, make_order
from zfrec.games.shengji.rebuild import Rebuilt, first_shown, rebuild, shown, whole_hands
from zfrec.games.shengji.records import TRUMPS, SjCards, SjMatch, SjRound
from zfrec.games.shengji.replayplays import PlayReplay
from zfrec.games.shengji.report import SjReport, SjRoundLedger, did_you_mean
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import SjRules, level_rank, level_text
from zfrec.games.shengji.scoring import raise_level
from zfrec.games.shengji.unseen import less
from zfrec.games.shengji.verdicts import deal_findings, result_findings, stops
from zfrec.numbering import occurrences, repeat_suffix
from zfrec.record.model import Pos, header_findings

__all__ = ["SjReport", "SjRoundLedger", "replay_open", "validate_match"]


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


class _Replay(PlayReplay):
    """One match's replay, round by round: the draw (`draw_phase`), then the plays
    (`PlayReplay.play_phase`)."""

    # the match ---------------------------------------------------------------------------------

    def run(self) -> SjReport:
        match = self.match
        # where each round starts, to the column: a JSON record may be all on one line
        starts = [tuple(rnd.pos) if rnd.pos else (0, 0) for rnd in match.rounds]
        problems = sorted(match.problems, key=lambda p: p.pos)
        read = []  # the header's (a game or preset read as meant): the match's, no round's;
        # said also where the rules cost the match (SJ207)
        first = starts[0] if starts else (float("inf"), 0)
        while problems and problems[0].kind == "name" and problems[0].pos < first:
            read.append(problems.pop(0))
        try:
            rules = self.given_rules or match.rules()
        except RulesError as exc:
            for code, message, at, fix in header_findings(match, match.preset, read):
                self.note(code, message, at, fix=fix)
            self.note("SJ207", exc.message, match.pos)
            return SjReport(match, None, tuple(self.found))
        for code, message, at, fix in header_findings(match, rules.preset, read):
            self.note(code, message, at, fix=fix)
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
        # each round as its page names it: `round 1 (2nd)` where the number is written again
        occurs = occurrences([r.number for r in match.rounds])
        said = [f"round {r.number}{repeat_suffix(occurs[i])}" for i, r in enumerate(match.rounds)]
        for i, rnd in enumerate(match.rounds):
            self.round_no, self.root, self.spent, self.erred = rnd.number, None, {}, {}
            self.round_index, self.round_occurrence = i, occurs[i]
            self.short = {}
            end = starts[i + 1] if i + 1 < len(starts) else None
            self.lost = []
            start = len(self.found)  # the round's findings, put in record order below
            while problems and (end is None or problems[0].pos < end):
                p = problems.pop(0)  # a skipped trick line's: in its trick, as read (p.trick)
                turn = p.turn if p.trick is not None else None  # a trick's play (no bid's)
                seat = p.seats[0] if turn is not None and p.seats else None
                self.note("ZF001", p.message, Pos(*p.pos), fix=p.fix, trick=p.trick, turn=turn,
                          seat=seat)  # fmt: skip
                if p.kind == "line":
                    self.lost.append(Cause(p.pos[0], p.pos[1], "ZF001"))
            self.round_cause = self.move_cause = self.trick_root = None
            if winners:
                self.note("SJ507", f"{said[i]} is played after the match was won "
                          f"by {self._names(winners)}", rnd.pos, rule="14")  # fmt: skip
            last = match.rounds[i - 1].number if i else rnd.number - 1
            if rnd.number != last + 1:  # a round left out, or a slip of the pen
                missing = f" (is round {last + 1} missing?)" if rnd.number > last + 1 else ""
                before = said[i - 1] if i else f"round {last}"
                self.note("SJ508", f"{said[i]} follows {before}: rounds are "
                          f"numbered one by one{missing}", rnd.pos)  # fmt: skip
            with placing(hand=rnd.number, unit="round"):
                out = self.round(rules, rnd, levels, dealer, dealer_cause, rank_cause)
            # record order within the round (the round-1 dealer is known only after the bids),
            # what could not be read (ZF001) first on its line: what follows from it comes after
            self.found[start:] = sorted(self.found[start:], key=_record_order)
            if out is None:
                continue
            levels, dealer, won, dealer_cause, rank_cause = out
            self.trusted = self.ledgers[-1].result is None
            winners = winners or won
        self.round_no, self.round_occurrence = None, 1
        for p in problems:  # what no round took
            self.note("ZF001", p.message, Pos(*p.pos), fix=p.fix)
        for code, message, pos, _, rule in result_findings(self.match, levels, winners):
            self.note(code, message, pos, rule=rule)  # the [Result] tag
        return SjReport(match, rules, tuple(self.found), tuple(self.ledgers), tuple(levels),
                        winners, self.moves)  # fmt: skip

    # a round -----------------------------------------------------------------------------------

    def _said(self, rnd: SjRound) -> str:
        """`round 3`, or `round 3 (2nd)` for the second round written as round 3 (the round
        being replayed, at `round_index`)."""
        return f"round {rnd.number}{repeat_suffix(self.round_occurrence)}"

    def round(
        self, rules: SjRules, rnd: SjRound, levels: list[int], dealer: int | None,
        dealer_cause: Cause | None, rank_cause: Cause | None,
    ) -> tuple[list[int], int, tuple[int, ...], Cause | None, Cause | None] | None:  # fmt: skip
        n = rules.players
        if self.trusted and rnd.dealer is not None:
            dealer = rnd.dealer  # after a round left unfinished: its start is taken as written
        if rnd.dealer is not None and dealer is not None and rnd.dealer != dealer:
            self.note("SJ304", f"{self.names[dealer]} deals {self._said(rnd)}, not "
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
            self.note("SJ505", f"{self._said(rnd)} is played at {level_text(expect)}, the "
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
                      f"stands, else seat 1, not {self.names[rnd.dealer]} as written", rnd.pos,
                      seat=rnd.dealer, rule="14")  # fmt: skip
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
                              rnd.levels.pos, cause=self.unknown_levels or _levels_cause(
                                  rules, rnd, levels, decl, level_cause or self.root),
                              rule="12, 14")  # fmt: skip
                level_cause = c.cause or Cause(c.location.line, c.location.col, c.code)
            next_dealer = result.next_dealer
        if rnd.levels is not None and len(rnd.levels.levels) == n:
            new_levels = list(rnd.levels.levels)  # the next round goes on from the written
            self.unknown_levels = None
        elif result is None and self.gap is not None:
            # no score and no levels line (SJ210): the levels the next rounds go on from are
            # not known, and a levels line that differs from them follows from the gap
            self.unknown_levels = self.unknown_levels or self.gap
        if (
            rnd.outcome is not None
            and rnd.outcome.next_dealer is not None
            and (result is None or self.root is not None)
        ):
            # the written next dealer where the engine's result is not sure (after an error
            # that altered the round); else the rules' (a wrong `next` is SJ504, and the next
            # round's dealer is judged by who really deals)
            next_dealer = rnd.outcome.next_dealer
        self.ledgers.append(SjRoundLedger(
            rnd.number, lead_dealer, order.text, tuple(at_play), rb.kitty,
            rb.discard,
            not rb.exact, result, tuple(new_levels), tuple(rb.guessed), rb.drawn, won,
            self.round_index,
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
                if exc.code == "SJ102":
                    self.discard_not_held(st.hands[d], rnd.discard, rb.guessed[d], d)
                else:
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

    def discard_not_held(self, hand: int, discard: SjCards, guessed: int, seat: int) -> None:
        """SJ102 for a discard with cards the dealer `seat` does not hold (`hand`: its deal and
        the kitty): only those named, where the first is written, with the held cards a typo
        may have meant (never a guessed one, nor one discarded already)."""
        missing = less(discard.known, hand)
        pos = discard.pos
        seen: Counter[int] = Counter()
        for cid, col in discard.written:
            seen[cid] += 1
            if seen[cid] > count(hand, cid) and pos is not None:
                pos = Pos(pos.line, col)
                break
        left = less(less(hand, guessed), less(discard.known, missing))
        hint = did_you_mean(list(distinct(missing)), left)
        self.note("SJ102", f"{self.names[seat]} does not hold {format_hand(missing)}"
                  + (f"; did you mean {hint}?" if hint else ""), pos, seat=seat,
                  rule="11")  # fmt: skip


def _order(rank: int, trump: str | None) -> Order | None:
    if trump is None:
        return None
    return make_order(level_rank(rank), None if trump == "nt" else TRUMPS.index(trump))


def _levels_cause(
    rules: SjRules, rnd: SjRound, levels: list[int], declarers: int, cause: Cause | None
) -> Cause | None:
    """What a wrong levels line follows from: nothing where it is wrong by the round's own
    written result line too (a slip at that line alone), else `cause`. Only with fixed
    partners: in zhao pengyou the teams are the joins', which an earlier error may change."""
    o, written = rnd.outcome, rnd.levels
    if cause is None or o is None or written is None or len(written.levels) != rules.players:
        return cause
    if not rules.fixed_partners:
        return cause
    by_result = [
        raise_level(lv, o.steps if (declarers >> s & 1) == (o.side == "declarers") else 0,
                    rules.must_defend, bool(declarers >> s & 1))[0]
        for s, lv in enumerate(levels)
    ]  # fmt: skip
    return None if tuple(by_result) != tuple(written.levels) else cause


def _record_order(d: Diagnostic) -> tuple[int, bool, int]:
    """Where a finding stands in the record: its line, then what could not be read (ZF001,
    the cause of what the line's plays then show), then its column."""
    return d.location.line or 0, d.code != "ZF001", d.location.col or 0
