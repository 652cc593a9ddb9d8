"""The Sheng ji validator's judging of a round's plays (`PlayReplay.play_phase`): each lead,
follow and throw through the engine, the zhao pengyou joins, and the round's end as the plays
leave it. The state and `note` are `zfrec.games.shengji.replaybase`'s.
"""

from __future__ import annotations

from zfrec.diagnostics import Cause
from zfrec.errors import IllegalPlayError
from zfrec.games.shengji.cards import contains, count, distinct, format_hand, size
from zfrec.games.shengji.events import PlayEvent
from zfrec.games.shengji.follow import judge_follow
from zfrec.games.shengji.formats import classify, suit_of
from zfrec.games.shengji.rebuild import Rebuilt
from zfrec.games.shengji.records import SjMove, SjRound
from zfrec.games.shengji.replaybase import At, ReplayBase, first_pos, line_col
from zfrec.games.shengji.report import did_you_mean, follow_hint
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import SjRules
from zfrec.games.shengji.throwjudge import judge_throw
from zfrec.games.shengji.unseen import less
from zfrec.games.shengji.verdicts import copies_out, no_join, played_already, why_leads

__all__ = ["PlayReplay"]


class PlayReplay(ReplayBase):
    """The plays of a round, judged on the replay's state."""

    def play_phase(self, rules: SjRules, rnd: SjRound, state: RoundState, rb: Rebuilt) -> None:
        n = rules.players
        self.tricks = rnd.tricks
        self.gap = None
        self.at_play, self._whole = sum(size(h) for h in state.hands), None
        start = [size(h) for h in state.hands]
        lost_lines = list(self.lost)  # lines skipped in this round (a trick lost with one)
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
        self.end_written = not unscored
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
                          "is skipped", first_pos(m.pos if m else None, trick.pos), trick=t,
                          rule="11")  # fmt: skip
                return
            open_tail = may_stop and t == len(rnd.tricks) and len(trick.moves) < n
            if len(trick.moves) != n and not open_tail:
                # a play the reader could not read whole may be why (`2 5d` for `2: 5d`)
                unread_at = next((read_causes[m.pos] for m in trick.moves
                                  if read_causes and m.pos in read_causes), None)  # fmt: skip
                self.note("SJ206", f"a trick has {n} plays, one by each seat, not "
                          f"{len(trick.moves)}{self._whose(trick.moves, n)}; the rest of the "
                          "round is not judged", trick.pos, trick=t, rule="7",
                          cause=unread_at)  # fmt: skip
                return
            unjudged = False
            self.trick_root = None
            erred: dict[int, Cause] = {}
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
                    wrong = next((d for d in found[before:] if d.severity == "error"), None)
                    if wrong is not None:  # (the first error at each seat's play)
                        erred.setdefault(seat, wrong.cause or Cause(*line_col(wrong.location),
                                                                    wrong.code))  # fmt: skip
            self.moves += len(moves)
            # who leads next: after a wrong play that won the trick, the leader's error
            # follows from it (the record's leader had the play written otherwise)
            done = not state.trick_plays
            winner_cause = self.trick_root or (erred.get(state.turn) if done else None)
        self.trick_root = None
        if not state.over:
            last_pos = rnd.tricks[-1].pos if rnd.tricks else rnd.pos
            holding = [s for s in range(n) if state.hands[s]]
            if self.root is not None and len(holding) < n:
                verb = "holds" if len(holding) == 1 else "hold"
                self.note("SJ205", "the round cannot end as written: "
                          f"{self._names(holding)} still {verb} cards; no score is computed "
                          "for it", last_pos, cause=self.root, rule="11")  # fmt: skip
                self.unreachable(rules, rnd)
            elif (self.end_written or not may_stop) and not self.open_last:
                # the points, result or levels line says the round ended, or the next round's
                # line (a round not the match's last): plays are missing
                end = first_pos(
                    *(x.pos if x else None for x in (rnd.points, rnd.outcome, rnd.levels))
                )
                at = first_pos(end, last_pos)
                ended = "the round's end is written"
                if not self.end_written:  # (not the last round: the next one's line ends it;
                    # a record read without places has end lines all the same, with no place)
                    after = self.match.rounds[self.round_index + 1]
                    ended, end = f"round {after.number} is written", after.pos
                # a line skipped before the end is why; else an earlier error only where the
                # plays written give each seat its hand (that error kept cards back): where the
                # record writes too few, a trick is missing whatever went wrong before it (a
                # wrong leader there follows from the gap, not the gap from it)
                written = [0] * n
                for tr in rnd.tricks:
                    for m in tr.moves:
                        if 0 <= m.seat < n:
                            written[m.seat] += size(m.played)
                short = all(written[s] < start[s] for s in range(n))
                why = next((c for c in lost_lines if end and (c.line or 0) < end[0]),
                           None if short else self.root)  # fmt: skip
                gap = self.note("SJ210", self._short_round(rules, rnd, state, start, ended),
                                at, cause=why, rule="7, 11")  # fmt: skip
                self.gap = gap.cause or Cause(*line_col(gap.location), "SJ210")
                self.unreachable(rules, rnd)
            else:
                self.note("SJ205", "the record stops before the round ends; no score is "
                          "computed for it", last_pos, rule="11")  # fmt: skip

    def _whose(self, moves: list[SjMove], n: int) -> str:
        """Whose play a trick of the wrong number lacks, or who plays twice, where the seats
        written tell: ` (王芳's play is missing)`; else ""."""
        seats = [m.seat for m in moves]
        twice = sorted({s for s in seats if seats.count(s) > 1})
        if not all(0 <= s < n for s in seats):
            return ""
        if len(seats) < n and not twice:
            missing = [s for s in range(n) if s not in seats]
            plays = "play is" if len(missing) == 1 else "plays are"
            return f" ({self._names(missing)}'s {plays} missing)"
        if len(seats) > n and twice:
            return f" ({self._names(twice)} {'plays' if len(twice) == 1 else 'play'} twice)"
        return ""

    def _short_round(
        self, rules: SjRules, rnd: SjRound, state: RoundState, start: list[int], ended: str
    ) -> str:
        """SJ210's words: how many cards the plays give each seat against its hand."""
        played = [start[s] - size(state.hands[s]) for s in range(rules.players)]
        hand = rules.hand_size
        if len(set(played)) == 1:
            left = hand - played[0]
            what = (
                f"each seat plays {played[0]} cards of the {hand} a hand holds: "
                f"{'a trick is' if left == 1 else f'{left} cards a seat are'} missing"
            )
        else:
            each = ", ".join(f"{self.names[s]} {played[s]}" for s in range(rules.players))
            what = (f"the seats play {each} cards of the {hand} a hand holds: plays are "
                    "missing")  # fmt: skip
        return f"{ended} after trick {len(rnd.tricks)}, but {what}; no score is computed for it"

    def unreachable(self, rules: SjRules, rnd: SjRound) -> None:
        """A points line that no round can reach (more trick points than the decks hold),
        said even where the round's plays cannot score it (SJ501)."""
        p = rnd.points
        most = 100 * rules.decks
        if p is not None and p.taken > most:
            self.note("SJ501", f"the opponents cannot take {p.taken} points in tricks: the "
                      f"{'decks hold' if rules.decks > 1 else 'deck holds'} {most}", p.pos,
                      rule="2, 12")  # fmt: skip

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
            why = errors[0].cause or Cause(*line_col(errors[0].location), errors[0].code)
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
        at = At(trick=t, turn=turn, seat=seat)
        order = state.order
        assert order is not None
        leading = state.lead is None
        self.concern = (order, cards | m.played, None if led is None else led.esuit)
        if seat != state.turn:
            if leading:
                leads, rule = why_leads(self.names, self.tricks, state.turn, t, order, seat)
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
                        cause=Cause(*line_col(m.pos), "SJ101"),
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
        start = len(self.found)
        self.follow(state, m, guessed, at)
        if size(cards) < led.size:  # a card kept back that no line may ever show
            first = next((d for d in self.found[start:] if d.severity == "error"), None)
            if first is not None:
                why = first.cause or Cause(*line_col(first.location), first.code)
                self.short.setdefault(seat, []).append(((t, turn), why))
        return False

    def follow(self, state: RoundState, m: SjMove, guessed: list[int], at: At) -> None:
        """Judge and make a follow that the fast path did not take (`play`)."""
        seat, cards, order, led = m.seat, m.cards, state.order, state.lead
        assert order is not None and led is not None
        hand = state.hands[seat]
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
            self.root = self.root or d.cause or Cause(*line_col(d.location), d.code)

    def not_held(self, state: RoundState, m: SjMove, hand: int, guessed: int, at: At) -> None:
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

    def not_followed(self, state: RoundState, m: SjMove, hand: int, reason: str, at: At) -> None:
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
