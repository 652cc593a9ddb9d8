"""`zfrec analyze` for Sheng ji: marks per play and a judgement of each round's kitty.

The rounds are replayed through the engine (`RoundState`) from the hands the validator used
(its ledger: the hands at play, rebuilt where the record lacks them, the kitty and the trump),
so nothing here re-implements a rule of play: legal follows come from `legal_follows`, the
trick's winner from `trick_winner`, a unit that beats another from `beats_unit`. A play the
engine refuses is made as written (`force_play`), as the validator does, and the analysis goes
on. Marks (`SjNote.kind`):

- `points_given`: a follow put points into a trick the other team was winning and took, where
  a follow with fewer points was legal (`points`: the points it could have kept);
- `missed_ruff`: a seat void in the led plain suit did not take a trick the other team was
  winning and took with points in it, though a trump play of the lead's format would have
  taken it then (`points`: the trick's points);
- `wasted_ruff`: a ruff of a trick the partner was winning, by the last seat to play (the
  partner's win was sure), where a follow without trump was legal (`points` 0); or a ruff
  that a later seat of the other team over-ruffed (`points`: the trick's points);
- `sure_fail_throw`: a throw that the cards already seen show to fail: the thrower's hand, the
  cards played, the bids still held, the voids shown and (for the dealer) the kitty leave a
  unit that beats one of its units in another hand (`points`: the penalty it cost);
- `kitty`: the declarers lost the kitty on the last trick with more points buried than the
  dealer had to (`points`: what a kitty with the fewest points would have saved).

A mark that needs a seat's hand is given only where the hand is known: every card of a
finished round is played, so its hands at play are known; in a round the record leaves
unfinished, a seat whose hand was filled with guessed cards is not judged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from zfrec.errors import IllegalPlayError
from zfrec.games.shengji.cards import card_points, count, distinct, format_hand, points, size
from zfrec.games.shengji.events import PlayEvent, RoundResult
from zfrec.games.shengji.follow import _combos, count_follows, judge_follow, legal_follows
from zfrec.games.shengji.formats import Format, classify, unit_text
from zfrec.games.shengji.order import TRUMP, Order
from zfrec.games.shengji.records import SjMatch, SjRound
from zfrec.games.shengji.report import SjReport, SjRoundLedger, par_text
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import SjRules, level_text
from zfrec.games.shengji.scoring import kitty_multiplier
from zfrec.games.shengji.throws import beats_unit
from zfrec.games.shengji.trick import trick_winner
from zfrec.numbering import occurrences, said_at, with_occurrence
from zfrec.record.lexer import display_width

__all__ = [
    "MARK_KINDS",
    "SjAnalysis",
    "SjDecision",
    "SjKitty",
    "SjNote",
    "SjRoundAnalysis",
    "analyze_match",
]

MARK_KINDS = ("points_given", "missed_ruff", "wasted_ruff", "sure_fail_throw", "kitty")
MAX_LISTED = 5000  # legal plays listed to judge a choice; beyond, the choice is not judged
SUITS = ("spades", "hearts", "diamonds", "clubs", "trump")


@dataclass(frozen=True, slots=True)
class SjNote:
    """One mark: where (round number, trick, turn; trick None for the kitty), who, its kind,
    the points it is about, and a sentence."""

    round: int
    trick: int | None
    turn: int | None
    seat: int
    kind: str
    points: int
    text: str

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        return {
            "hand": self.round, "round": self.round, "trick": self.trick, "turn": self.turn,
            "move_index": None if self.turn is None else self.turn - 1,
            "player": players[self.seat], "kind": self.kind, "points": self.points,
            "text": self.text,
        }  # fmt: skip


@dataclass(slots=True)
class SjDecision:
    """One play as the seat faced it."""

    round: int
    trick: int
    turn: int
    seat: int
    lead: bool
    cards: int  # what stayed on the table
    attempt: int  # the throw, for a failed one; else the cards
    category: str
    top: int | None  # the play winning the trick before this one
    top_seat: int | None
    table_points: int
    table_cards: int
    partner_winning: bool | None
    options: int | None  # legal plays (None: hand not known)
    legal: bool
    marks: list[str] = field(default_factory=list)
    cost: Any = None

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        return {
            "hand": self.round, "round": self.round, "trick": self.trick, "turn": self.turn,
            "move_index": self.turn - 1, "player": players[self.seat], "lead": self.lead,
            "action": "play", "cards": format_hand(self.cards),
            "attempt": format_hand(self.attempt) if self.attempt != self.cards else None,
            "category": self.category,
            "top": format_hand(self.top) if self.top is not None else None,
            "top_player": players[self.top_seat] if self.top_seat is not None else None,
            "table_points": self.table_points,
            "table_cards": format_hand(self.table_cards) if self.table_cards else "",
            "options": self.options, "points": points(self.cards),
            "partner_winning": self.partner_winning, "legal": self.legal,
            "marks": list(self.marks), "cost": self.cost,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class SjKitty:
    """The kitty judged against the last-trick risk (ruling 11)."""

    dealer: int
    cards: int
    buried: int  # its points
    fewest: int | None  # the fewest points the dealer could have buried (hand known)
    exposure: int  # buried x the multiplier of a single last trick: the least a loss costs
    last_winner: int | None  # who took the last trick (None: round not finished)
    lost: bool | None  # the opponents took the last trick
    multiplier: int | None
    added: int | None
    verdict: str

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        return {
            "dealer": players[self.dealer], "cards": format_hand(self.cards),
            "buried": self.buried, "fewest": self.fewest, "exposure": self.exposure,
            "last_trick": players[self.last_winner] if self.last_winner is not None else None,
            "lost": self.lost, "multiplier": self.multiplier, "added": self.added,
            "verdict": self.verdict,
        }  # fmt: skip


@dataclass(slots=True)
class SjRoundAnalysis:
    """One round: its decisions, tricks, marks and kitty."""

    round: int
    index: int  # in the record's rounds
    dealer: int
    trump: str
    declarers: int
    known: tuple[bool, ...]
    reconstructed: bool
    result: RoundResult | None
    taken: tuple[int, ...]
    decisions: list[SjDecision] = field(default_factory=list)
    tricks: list[tuple[int, int, int]] = field(default_factory=list)  # (trick, winner, points)
    notes: list[SjNote] = field(default_factory=list)
    kitty: SjKitty | None = None
    par: int | None = None
    from_par: int | None = None  # the result less the par (positive: the opponents did better)
    unsolved: str | None = None  # why --solve-cards could not solve the round (`play_costs`)

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        r = self.result
        n = len(players)
        team = [players[s] for s in range(n) if self.declarers >> s & 1]
        return {
            "hand": self.round, "round": self.round, "dealer": players[self.dealer],
            "trump": self.trump, "declarers": team,
            "deal_known": all(self.known),
            "known_hands": [players[s] for s in range(n) if self.known[s]],
            "deal_reconstructed": self.reconstructed, "finished": r is not None,
            "taken": {players[s]: v for s, v in enumerate(self.taken)},
            "total": r.total if r else None, "par": self.par, "from_par": self.from_par,
            "unsolved": self.unsolved,
            "kitty": self.kitty.to_json(players) if self.kitty else None,
            "tricks": [{"hand": self.round, "trick": t, "winner": players[w], "points": p}
                       for t, w, p in self.tricks],
            "decisions": [d.to_json(players) for d in self.decisions],
        }  # fmt: skip


@dataclass(slots=True)
class SjAnalysis:
    """A match's analysis: `rounds`, the notes, per-seat counts; `to_json()` as analyze."""

    match: SjMatch
    rules: SjRules
    errors: int
    rounds: list[SjRoundAnalysis]
    levels: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def players(self) -> list[str]:
        return self.match.players

    def hand(self, number: int) -> SjRoundAnalysis | None:
        """The round numbered `number` (the CLI's `--hand`), or None."""
        return next((r for r in self.rounds if r.round == number), None)

    def notes(self) -> list[SjNote]:
        return [n for r in self.rounds for n in r.notes]

    def seat_totals(self, round_no: int | None = None) -> list[dict[str, int]]:
        """Per seat: plays, points taken in tricks, and the count of each mark (`round_no`:
        over the rounds numbered so)."""
        n = len(self.players)
        out = [{"plays": 0, "captured": 0, "throws": 0, "throws_failed": 0,
                **{k: 0 for k in MARK_KINDS}} for _ in range(n)]  # fmt: skip
        for r in self.rounds:
            if round_no is not None and r.round != round_no:
                continue
            for s in range(n):
                out[s]["captured"] += r.taken[s]
            for d in r.decisions:
                out[d.seat]["plays"] += 1
                if d.lead and d.category == "throw":
                    out[d.seat]["throws"] += 1
                    out[d.seat]["throws_failed"] += d.attempt != d.cards
            for note in r.notes:
                out[note.seat][note.kind] += 1
        return out

    def text_lines(
        self, number: int, round_no: int | None = None, summary: bool = False
    ) -> list[str]:
        """The analysis as `zfrec analyze` prints it."""
        players = self.players
        verdict = "legal" if self.errors == 0 else f"{self.errors} validation error(s)"
        lines = [f"game {number}: {', '.join(players)} (Sheng ji, {self.rules.preset}), "
                 f"{len(self.rounds)} round(s), {verdict}"]  # fmt: skip
        numbers = [rnd.number for rnd in self.match.rounds]
        said = {r.index: said_at("round", numbers, r.index) for r in self.rounds}
        for r in self.rounds:
            if round_no is not None and r.round != round_no:
                continue
            team = " and ".join(players[s] for s in range(len(players)) if r.declarers >> s & 1)
            lines.append(f"{said[r.index]}: {trump_text(r.trump)}, declarers {team}")
            if not summary:
                taken = {t: (w, p) for t, w, p in r.tricks}
                for i, d in enumerate(r.decisions):
                    if i and d.trick != r.decisions[i - 1].trick:
                        lines += self._taken_line(taken.get(r.decisions[i - 1].trick))
                    verb = "leads" if d.lead else "plays"
                    play = format_hand(d.attempt)
                    if d.attempt != d.cards:
                        play += f" (held to {format_hand(d.cards)})"
                    marks = f"  [{', '.join(d.marks)}]" if d.marks else ""
                    cost = ""
                    if isinstance(d.cost, Mapping) and d.cost.get("points"):
                        cost = f"  cost {d.cost['points']}{d.cost.get('mark') or ''}"
                    lines.append(f"  {d.trick:>2}.{d.turn} {players[d.seat]} {verb} {play}"
                                 f"{marks}{cost}")  # fmt: skip
                if r.decisions:
                    lines += self._taken_line(taken.get(r.decisions[-1].trick))
            if r.result is not None:
                words = par_text(r.par, r.result.total)
                par = f" ({words})" if words else ""
                lines.append(f"  opponents' points: {r.result.total}{par}")
            else:
                lines.append("  the record stops before the round ends")
            if r.kitty is not None:
                lines.append(f"  kitty: {r.kitty.verdict}")
            if r.unsolved is not None:
                lines.append(f"  not solved: {r.unsolved}")
        notes = [
            (said[r.index], n)
            for r in self.rounds
            for n in r.notes
            if round_no is None or n.round == round_no
        ]
        if notes:
            lines.append("notes")
            for where, note in notes:
                at = f", trick {note.trick}, turn {note.turn}" if note.trick else ""
                lines.append(f"  {where}{at}: {note.text}")
        scope = "" if round_no is None else f" in round {round_no}"  # --round: that round's
        lines.append(f"players{scope} (captured, points given, missed ruffs, wasted ruffs, "
                     "sure-to-fail throws)")  # fmt: skip
        for s, t in enumerate(self.seat_totals(round_no)):
            # padded to the width the terminal shows: a Chinese name's characters take two
            name = players[s] + " " * max(0, 12 - display_width(players[s]))
            lines.append(f"  {name} {t['captured']:>4} {t['points_given']:>3} "
                         f"{t['missed_ruff']:>3} {t['wasted_ruff']:>3} "
                         f"{t['sure_fail_throw']:>3}")  # fmt: skip
        return lines

    def _taken_line(self, taken: tuple[int, int] | None) -> list[str]:
        """`       -> 李娜 takes the trick, 15 points`, after a trick's last play (none for a
        trick the record leaves open)."""
        if taken is None:
            return []
        return [f"       -> {self.players[taken[0]]} takes the trick, {taken[1]} points"]

    def to_json(self, round_no: int | None = None) -> dict[str, Any]:
        """The generic envelope of `zfrec analyze --json` (as Zheng Fen's, `hands` being the
        rounds) with Sheng ji's fields."""
        players = self.players
        rounds = [r for r in self.rounds if round_no is None or r.round == round_no]
        totals = self.seat_totals()
        # `occurrence` 2 for the second round the record numbers N (the text's `round N (2nd)`)
        occurs = occurrences([rnd.number for rnd in self.match.rounds])
        flow: list[dict[str, Any]] = []
        for r in rounds:
            running = [0] * len(players)
            for t, w, p in r.tricks:
                running[w] += p
                flow.append(with_occurrence(
                    {"hand": r.round, "trick": t, "kind": "trick", "player": players[w],
                     "from": None, "points": p, "scores": dict(zip(players, running, strict=True))},
                    occurs[r.index]))  # fmt: skip
        return {
            "kind": "shengji", "players": list(players), "rules": self.rules.preset,
            "legal": self.errors == 0, "errors": self.errors,
            "scores": dict(zip(players, self.levels, strict=False)),
            "levels": {p: level_text(v) for p, v in zip(players, self.levels, strict=False)},
            "over": bool(self.winners), "winners": [players[s] for s in self.winners],
            "seats": {players[s]: t for s, t in enumerate(totals)},
            "notes": [with_occurrence(n.to_json(players), occurs[r.index], "round")
                      for r in rounds for n in r.notes],
            "points_flow": flow,
            "hands": [with_occurrence(r.to_json(players), occurs[r.index], "round")
                      for r in rounds],
        }  # fmt: skip


# --- the walk ------------------------------------------------------------------------------------


def analyze_match(
    game: Any, *, report: SjReport | None = None, solve_cards: int = 0,
    solve_seconds: float = 2.0,
) -> SjAnalysis:  # fmt: skip
    """Analyse a Sheng ji record (a generic `Game` of kind shengji, or an `SjMatch`).
    `solve_cards` > 0 asks the solver (`zfrec.games.shengji.solverecord.play_costs`) what each play
    cost."""
    from zfrec.games.shengji.kind import match_of
    from zfrec.games.shengji.replayer import validate_match

    match = match_of(game)
    if report is None:
        report = validate_match(match)
    rules = report.rules or match.rules()
    ledgers = list(report.rounds)
    rounds: list[SjRoundAnalysis] = []
    for i, rnd in enumerate(match.rounds):
        if not ledgers or ledgers[0].number != rnd.number:
            continue
        rounds.append(_round(rules, rnd, i, ledgers.pop(0), match.players))
    if solve_cards > 0:
        from zfrec.games.shengji.solverecord import play_costs

        refused: dict[int, str] = {}
        found = play_costs(
            match, report, max_cards=solve_cards, seconds=solve_seconds, refused=refused
        )
        for r in rounds:
            got = found.get(r.index)
            if got is None:
                r.unsolved = refused.get(r.index)
                continue
            r.par, r.from_par = got.par, got.from_par
            costs = got.costs
            for d in r.decisions:
                d.cost = costs.get((d.trick, d.turn))
    return SjAnalysis(match, rules, report.errors, rounds, report.levels, report.winners)


def _round(
    rules: SjRules, rnd: SjRound, index: int, ledger: SjRoundLedger, players: Sequence[str]
) -> SjRoundAnalysis:
    order = _order_of(ledger)  # the order the validator played the round in
    n = rules.players
    guessed = ledger.guessed or (0,) * n
    state = RoundState.from_hands(
        list(ledger.deal), order, ledger.dealer, rules, kitty=ledger.discard,
        calls=[(c.card, c.ordinal) for c in rnd.calls], undoable=False,
    )  # fmt: skip
    finished = ledger.result is not None
    known = tuple(finished or not guessed[s] for s in range(n))
    out = SjRoundAnalysis(rnd.number, index, ledger.dealer, ledger.trump, state.declarers,
                          known, ledger.reconstructed, None, (0,) * n)  # fmt: skip
    w = _Walk(rules, order, state, out, ledger, players, rnd)
    for t, trick in enumerate(rnd.tricks, 1):
        # the record's last trick may stop part way (a position, SJ205): its plays are judged
        open_tail = t == len(rnd.tricks) and 0 < len(trick.moves) < n
        if state.over or (len(trick.moves) != n and not open_tail):
            break
        if not w.trick(t, trick.moves):
            break
    out.result = state.result
    out.taken = tuple(state.won)
    out.declarers = state.declarers
    out.kitty = _kitty(rules, state, ledger, known, players, out)
    return out


def trump_text(trump: str) -> str:
    """A round's trump as `zfrec analyze` says it: `trump 2d` (the rank and the suit), and a
    no-trump round (its rank alone is trump) as its page says it, `no trump, rank 3`.

    >>> trump_text("2d"), trump_text("3"), trump_text("T")
    ('trump 2d', 'no trump, rank 3', 'no trump, rank 10')
    """
    if trump[-1:].lower() in ("s", "h", "d", "c"):
        return f"trump {trump}"
    rank = trump.upper()
    return f"no trump, rank {'10' if rank == 'T' else rank}"


def _order_of(ledger: SjRoundLedger) -> Order:
    from zfrec.games.shengji.order import parse_trump

    return parse_trump(ledger.trump)


class _Walk:
    """Plays one round's tricks through the engine, judging each play before it is made."""

    def __init__(
        self, rules: SjRules, order: Order, state: RoundState, out: SjRoundAnalysis,
        ledger: SjRoundLedger, players: Sequence[str], rnd: SjRound,
    ) -> None:  # fmt: skip
        self.rules, self.order, self.state, self.out = rules, order, state, out
        self.players = players
        self.played = 0  # every card that went on the table this round
        self.voids = [0] * rules.players  # bit e: the seat showed a void in effective suit e
        # bids shown, still held; not the dealer's, who may have buried them in the kitty
        self.shown = [0] * rules.players
        for b in rnd.bids:
            if 0 <= b.seat < rules.players and b.seat != ledger.dealer:
                self.shown[b.seat] = _union(self.shown[b.seat], b.cards)
        self.ledger = ledger
        self.discard_written = rnd.discard is not None and not rnd.discard.unknown

    def name(self, seat: int) -> str:
        return self.players[seat]

    def trick(self, t: int, moves: Sequence[Any]) -> bool:
        st = self.state
        pending: list[SjDecision] = []
        for m in moves:
            if m.seat != st.turn:
                return False  # out of turn: the rest of the round is not judged
            d = self.before(t, m)
            pending.append(d)
            self.make(m, d)
        if st.trick_plays:  # a trick the record leaves open: judged as far as it goes
            self.out.decisions.extend(pending)
            return False
        last = st.log[-1]
        assert isinstance(last, PlayEvent) and last.trick_result is not None
        tr = last.trick_result
        self.out.tricks.append((t, tr.winner, tr.points))
        for d in pending:
            self.after_trick(d, tr.winner, tr.points, tr.plays)
        self.out.decisions.extend(pending)
        return True

    # before a play ---------------------------------------------------------------------------

    def before(self, t: int, m: Any) -> SjDecision:
        st, order = self.state, self.order
        seat = m.seat
        plays = [p for _, p in st.trick_plays]
        lead = st.lead
        hand = st.hands[seat]
        top = top_seat = None
        partner: bool | None = None
        if lead is not None:
            i = trick_winner(order, plays, lead)
            top, top_seat = plays[i], st.trick_plays[i][0]
            partner = self.same_team(seat, top_seat)
        known = self.out.known[seat]
        legal = self.is_legal(seat, m.cards, lead, hand)
        options = None
        if known and legal:
            options = (
                count_follows(order, lead, hand) if lead is not None else _lead_count(order, hand)
            )
        try:
            category = classify(order, m.cards).kind if lead is None else "follow"
        except IllegalPlayError:  # a lead of two suits: the validator's SJ101
            category = "none"
        d = SjDecision(
            self.out.round, t, len(plays) + 1, seat, lead is None, m.played, m.cards,
            category, top, top_seat, points(sum(plays)), sum(plays), partner, options, legal,
        )  # fmt: skip
        if lead is None and category == "throw" and legal:
            self.judge_throw(d, m)
        return d

    def is_legal(self, seat: int, cards: int, lead: Format | None, hand: int) -> bool:
        if lead is None:
            return self.state.can_play(seat, cards)
        return judge_follow(self.order, lead, hand, cards) is None

    def same_team(self, a: int, b: int) -> bool | None:
        ta, tb = self.state.team_of(a), self.state.team_of(b)
        if ta is None or tb is None:
            return None
        return ta == tb

    def make(self, m: Any, d: SjDecision) -> None:
        st = self.state
        seat = m.seat
        lead = st.lead
        if lead is not None:
            led = lead.esuit
            if m.played & ~self.order.suit_mask[led]:
                self.voids[seat] |= 1 << led  # it had no more of the led suit
        single = d.category in ("single", "pair", "tractor")
        if d.legal and (lead is not None or single):
            st.play_legal(seat, m.cards)
        else:
            st.force_play(seat, m.cards, m.played)
        self.played += m.played
        self.shown[seat] = _less(self.shown[seat], m.played)

    # after the trick -------------------------------------------------------------------------

    def after_trick(
        self, d: SjDecision, winner: int, pts: int, plays: Sequence[tuple[int, int]]
    ) -> None:
        if d.lead or d.top_seat is None or not self.out.known[d.seat] or not d.legal:
            return
        st, order = self.state, self.order
        seat = d.seat
        mine = self.same_team(seat, winner)
        before = [p for _, p in plays[: d.turn - 1]]
        lead = classify(order, plays[0][1]) if st.last_lead is None else st.last_lead
        hand = self.hand_before(d)
        now = trick_winner(order, [*before, d.cards], lead) == d.turn - 1
        if mine is False and d.partner_winning is False and not now and points(d.cards):
            self.points_given(d, hand, lead, winner)
        plain = lead.esuit != TRUMP
        void = plain and not hand & order.suit_mask[lead.esuit]
        if not void:
            return
        ruff = not d.cards & ~order.suit_mask[TRUMP]
        if mine is False and not now and pts and d.partner_winning is False:
            self.missed_ruff(d, hand, lead, before, winner, pts)
        if ruff and now:
            if d.partner_winning and d.turn == len(plays):
                free = size(hand & ~order.suit_mask[TRUMP]) >= lead.size
                if free:
                    self.note(d, "wasted_ruff", 0,
                              f"{self.name(seat)} ruffed with {format_hand(d.cards)} a trick "
                              f"{self.name(d.top_seat)} (partner) was already sure to take, "
                              "playing last; a follow without trump was legal")  # fmt: skip
            elif mine is False:
                self.note(d, "wasted_ruff", pts,
                          f"{self.name(seat)} ruffed with {format_hand(d.cards)} and "
                          f"{self.name(winner)} over-ruffed; {pts} points went to "
                          f"{self.name(winner)}'s team")  # fmt: skip

    def hand_before(self, d: SjDecision) -> int:
        """The seat's hand before its play in the trick just taken."""
        return self.state.hands[d.seat] + d.cards

    def points_given(self, d: SjDecision, hand: int, lead: Format, winner: int) -> None:
        fewest = _fewest_points(self.order, lead, hand)
        if fewest is None:
            return
        kept = points(d.cards) - fewest[0]
        if kept <= 0:
            return
        self.note(d, "points_given", kept,
                  f"{self.name(d.seat)} gave {points(d.cards)} points "
                  f"({format_hand(d.cards)}) to a trick {self.name(winner)}'s team took, "
                  f"while {self.name(d.top_seat or 0)} (not a partner) was winning it; "
                  f"{format_hand(fewest[1])} was legal and gave {fewest[0]}")  # fmt: skip

    def missed_ruff(
        self, d: SjDecision, hand: int, lead: Format, before: list[int], winner: int, pts: int
    ) -> None:
        order = self.order
        trumps = hand & order.suit_mask[TRUMP]
        if size(trumps) < lead.size:
            return
        items = [(c, count(trumps, c)) for c in distinct(trumps)]
        for k, play in enumerate(_combos(items, lead.size)):
            if k >= MAX_LISTED:
                return
            if judge_follow(order, lead, hand, play) is not None:
                continue
            if trick_winner(order, [*before, play], lead) == len(before):
                self.note(d, "missed_ruff", pts,
                          f"{self.name(d.seat)} was void in {SUITS[lead.esuit]} and did not "
                          f"ruff: {format_hand(play)} would have taken the trick then; "
                          f"{self.name(winner)}'s team took its {pts} points")  # fmt: skip
                return

    def judge_throw(self, d: SjDecision, m: Any) -> None:
        """Whether the throw was sure to fail by the cards the thrower had seen."""
        st, order, rules = self.state, self.order, self.rules
        seat = m.seat
        lead = classify(order, m.cards)
        e = lead.esuit
        # what the thrower saw: its hand as far as the record shows it (the rebuild's guessed
        # cards are any of the unseen ones, in its hand or not), the kitty if it dealt and the
        # discard is known (a finished round's is)
        guessed = 0 if self.out.known[seat] else (self.ledger.guessed or (0,) * st.n)[seat]
        kitty = seat == self.ledger.dealer and (self.out.known[seat] or self.discard_written)
        seen = _less(st.hands[seat], guessed) + self.played + (self.ledger.discard if kitty else 0)
        unseen = _less(_full(rules.decks), seen) & order.suit_mask[e]
        slack = (0 if kitty else rules.kitty) + size(guessed)
        hide = " and ".join(
            ([] if kitty else ["the kitty"])
            + ([f"{self.name(seat)}'s {size(guessed)} unwritten cards"] if guessed else [])
        )
        others = [(seat + i) % st.n for i in range(1, st.n)]
        holders = [s for s in others if not self.voids[s] >> e & 1]
        for u in sorted(lead.units, key=lambda u: (u.size, u.top)):
            why = None
            held = next((s for s in others if beats_unit(order, u, e, self.shown[s])), None)
            if held is not None:
                why = f"{self.name(held)} showed a bid that beats {unit_text(u)}"
            elif holders and u.pairs == 0:
                higher = sum(count(unseen, c) for c in distinct(unseen)
                             if order.level[c] > u.top)  # fmt: skip
                if higher > slack:
                    why = (
                        f"{higher} higher card(s) of the suit were unseen, more than {hide} "
                        "can hide"
                        if slack
                        else f"{higher} higher card(s) of the suit were in other hands"
                    )
            one_holder = len(holders) == 1 and slack == 0
            if why is None and one_holder and beats_unit(order, u, e, unseen):
                why = (
                    f"every unseen card of the suit was {self.name(holders[0])}'s, "
                    f"and they beat {unit_text(u)}"
                )
            if why is not None:
                penalty = rules.throw_penalty * size(m.cards - m.played) if m.failed else 0
                self.note(d, "sure_fail_throw", penalty,
                          f"{self.name(seat)}'s throw {format_hand(m.cards)} was sure to fail: "
                          f"{why}")  # fmt: skip
                return

    def note(self, d: SjDecision, kind: str, pts: int, text: str) -> None:
        d.marks.append(kind)
        self.out.notes.append(SjNote(d.round, d.trick, d.turn, d.seat, kind, pts, text))


def _fewest_points(order: Order, lead: Format, hand: int) -> tuple[int, int] | None:
    """The fewest points a legal follow to `lead` puts on the table, and one such follow.
    Listed where the follows are few; a seat short of the led suit plays all of it and then
    any cards (ruling 7), so the cheapest of the rest complete it without listing."""
    if count_follows(order, lead, hand) <= MAX_LISTED:
        return min((points(p), p) for p in legal_follows(order, lead, hand))
    suit = hand & order.suit_mask[lead.esuit]
    if size(suit) >= lead.size:
        return None  # too many follows in the suit to list: not judged
    rest = sorted(_ids(hand - suit), key=card_points)[: lead.size - size(suit)]
    play = suit + sum(1 << 2 * c for c in rest)
    return points(play), play


def _union(a: int, b: int) -> int:
    """Each card as often as in the one of `a` and `b` that holds it more."""
    for c in distinct(b):
        if count(b, c) > count(a, c):
            a += (count(b, c) - count(a, c)) << 2 * c
    return a


def _lead_count(order: Order, hand: int) -> int:
    """Leads of a hand: every non-empty sub-multiset of one effective suit."""
    total = 0
    for e in range(5):
        held = hand & order.suit_mask[e]
        ways = 1
        for c in distinct(held):
            ways *= count(held, c) + 1
        total += ways - 1 if held else 0
    return total


def _less(a: int, b: int) -> int:
    out = a
    for c in distinct(b):
        out -= min(count(a, c), count(b, c)) << 2 * c
    return out


def _full(decks: int) -> int:
    return sum(decks << 2 * c for c in range(54))


def _kitty(
    rules: SjRules, state: RoundState, ledger: SjRoundLedger, known: tuple[bool, ...],
    players: Sequence[str], out: SjRoundAnalysis,
) -> SjKitty:  # fmt: skip
    dealer = ledger.dealer
    cards = ledger.discard
    buried = points(cards)
    fewest = None
    if known[dealer] and size(cards) == rules.kitty:
        pool = sorted(card_points(c) for c in _ids(ledger.deal[dealer] + cards))
        fewest = sum(pool[: rules.kitty])
    exposure = buried * kitty_multiplier(0, rules.kitty_multiplier)
    r = state.result
    if r is None:
        verdict = (f"{buried} points buried; the round is not finished" if buried else
                   "no points buried")  # fmt: skip
        return SjKitty(dealer, cards, buried, fewest, exposure, None, None, None, None, verdict)
    lost = not r.declarers >> r.last_winner & 1
    name = players[r.last_winner]
    spare = f" (the fewest possible: {fewest})" if fewest is not None and fewest < buried else ""
    if not buried:
        verdict = "no points buried"
    elif lost:
        verdict = (f"{buried} points buried{spare}; {name} (opponents) took the last trick: "
                   f"x{r.multiplier} adds {r.kitty_added}")  # fmt: skip
    else:
        verdict = (f"{buried} points buried{spare}, at risk of at least {exposure}; kept: "
                   f"{name} (declarers) took the last trick")  # fmt: skip
    if lost and fewest is not None and buried > fewest:
        saved = (buried - fewest) * r.multiplier
        out.notes.append(SjNote(out.round, None, None, dealer, "kitty", saved,
                                f"{players[dealer]} buried {buried} points in the kitty, "
                                f"{buried - fewest} more than needed; the opponents took the "
                                f"last trick and x{r.multiplier} made that {saved}"))  # fmt: skip
    return SjKitty(dealer, cards, buried, fewest, exposure, r.last_winner, lost, r.multiplier,
                   r.kitty_added, verdict)  # fmt: skip


def _ids(hand: int) -> list[int]:
    return [c for c in distinct(hand) for _ in range(count(hand, c))]
