"""Zheng Fen at the live table: a live game in memory, its entries, the record they make, and
the engine's state (`ZhengFenKind.live_game`; the generic table, `zfrec.live.table`, keeps the
entries in the store, locks, versions and answers; the JSON state is `livestate`'s).

The entries are the truth (they are what the store keeps); the record is built from them and
the engine's state comes from replaying that record (`zfrec.replay`), so what the table shows is
what `zfrec validate` would say of its export. Two paths judge an entry:

- the fast path asks the engine directly (`HandState.pass_chain`, `resolve`, `play_combo`) and
  applies the entry to the state in memory: microseconds, for the usual in-turn entry;
- everything else (a refusal, a hand start, a first lead that tells who held the three of
  hearts) builds the candidate record and replays it: the validator's diagnostics decide, and a
  refusal carries the validator's own code and message.

Entry JSON (seats 0-based, as in the record model):

    hand: {"shuffler": 2, "deal": null | [{"known": "3h 4h", "unknown": 16}, ...]}
    move: {"seat": 1, "play": "8s 8h" | "pass", "line": 3,
           "score": {"points": [...], "totals": [...]},     # this move ended the hand
           "result": {"scores": [...], "winners": [...]}}   # ... and the game

`line` is the trick line of the record the move is written on (1-based, within the hand).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn

from zfrec.baseline import Baseline, found_from, key
from zfrec.diagnostics import Diagnostic
from zfrec.errors import CardError, IllegalPlayError
from zfrec.games.zhengfen.engine.cards import FULL_DECK, Card, Cards, format_cards, parse_play
from zfrec.games.zhengfen.engine.combos import readings
from zfrec.games.zhengfen.engine.deal import hand_sizes, next_seat
from zfrec.games.zhengfen.engine.game import Event, GameState, HandResult, HandState
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.live.entries import Conflict, Entry, EntryRefused, LiveError
from zfrec.record import dumps, iter_records_text
from zfrec.record.model import (
    AltPlay,
    Game,
    Hand,
    HandScore,
    Move,
    Result,
    SeatDeal,
    Trick,
    comment_problem,
    move_problem,
    tag_value_problem,
)
from zfrec.record.problems import ReadProblem
from zfrec.record.zfn import PASS_WORDS
from zfrec.replay import HandEnd, HandStart, replay

# --- record from entries ------------------------------------------------------------------------


def parse_seat_cards(text: str) -> tuple[int, int | None]:
    """Known cards and the count of unknown ones (`?`, `?N`) of a deal; None: not given."""
    mask, unknown, cards = 0, None, []
    for token in text.replace(",", " ").split():
        if token.startswith("?"):
            count = token[1:] or "1"
            if not count.isdigit():
                raise CardError(f"malformed unknown cards {token!r}: write ? or ?N")
            unknown = (unknown or 0) + int(count)
        else:
            cards.append(token)
    for token in cards:
        cid = Card.parse(token)
        if mask >> cid & 1:
            raise CardError(f"card {token} is given twice")
        mask |= 1 << cid
    return mask, unknown


MARK_KEYS = ("annotation", "comments", "disputed", "note", "or")


def alt_of(text: str) -> AltPlay:
    """Another version of a disputed move, read as a play (`Kc`, `BJ=8h`) or a pass (`-`)."""
    if text.strip().casefold() in PASS_WORDS:
        return AltPlay(is_pass=True)
    play = parse_play(text)
    return AltPlay(False, Cards(play.mask), tuple(sorted(play.declarations, key=lambda d: d[0])))


def move_of(data: dict[str, Any]) -> Move:
    """The record's move of an entry, with the marks the table added (annotation, comments,
    a dispute and its other versions)."""
    seat = int(data["seat"])
    text = str(data["play"])
    marks: dict[str, Any] = {}
    if data.get("annotation"):
        marks["annotation"] = str(data["annotation"])
    if data.get("comments"):
        marks["comments"] = [str(c) for c in data["comments"]]
    if data.get("disputed"):
        marks["disputed"] = True
        marks["dispute_note"] = data.get("note") or None
        marks["alternatives"] = tuple(alt_of(str(t)) for t in data.get("or") or ())
    if text.casefold() in PASS_WORDS:
        return Move.passes(seat, **marks)
    play = parse_play(text)
    return Move.plays(seat, play.mask, play.declarations, **marks)


def deal_of(data: dict[str, Any]) -> tuple[SeatDeal, ...] | None:
    deal = data.get("deal")
    if deal is None:
        return None
    return tuple(SeatDeal(Cards(parse_seat_cards(d["known"])[0]), int(d["unknown"])) for d in deal)


def build_record(header: Game, entries: Sequence[Entry], last: Move | None = None) -> Game:
    """The game record the entries make: hands, deals, trick lines, score lines, result.
    `last` stands for the last entry's move (one the reader could only partly read)."""
    hands: list[Hand] = []
    result: Result | None = None
    for entry in entries:
        data = entry.data
        if entry.kind == "hand":
            hands.append(Hand(len(hands) + 1, data.get("shuffler"), deal_of(data), []))
            continue
        hand = hands[-1]
        while len(hand.tricks) < int(data["line"]):
            hand.tricks.append(Trick([]))
        # Entries stored by older versions may carry "holds": "3h" (the first leader's 3h,
        # written into the deal); the replay now places the 3h with the leader by itself.
        move = last if last is not None and entry is entries[-1] else move_of(data)
        hand.tricks[int(data["line"]) - 1].moves.append(move)
        if "score" in data:
            score = data["score"]
            hands[-1] = replace(
                hand, score=HandScore(tuple(score["points"]), tuple(score["totals"]))
            )
        if "result" in data:
            res = data["result"]
            result = Result(tuple(res["scores"]), tuple(res["winners"]))
    return replace(header, hands=hands, result=result)


def _led_by(hand: Hand, n: int, seat: int) -> tuple[SeatDeal, ...] | None:
    """Hand 1's deal for the replay of a record cut before its first line: the line's first
    play shows the seat held the 3h (R4), which the replay of the full record reads off the
    plays but the cut record no longer shows. Only the replay's input: never written."""
    three = GameState(n).lead_card()  # hand 1's lead card, the 3h
    if not 0 <= seat < n:
        return hand.deal
    if hand.deal is None:
        first = next_seat(hand.shuffler or 0, n)
        deal = [SeatDeal(Cards(), size) for size in hand_sizes(n, first)]
    else:
        deal = list(hand.deal)
    if any(d.known & three for d in deal) or deal[seat].unknown < 1:
        return hand.deal
    old = deal[seat]
    deal[seat] = SeatDeal(Cards(old.known | three), old.unknown - 1)
    return tuple(deal)


# Characters that would end the move in the notation (a comment, a tag, a new line, the next
# move's seat): such text is not read as a move at all.
_UNSAFE = re.compile(r'[\n\r{};\[\]":：]')


def _read_leniently(header: Game, seat: int, text: str) -> tuple[Move, list[ReadProblem]] | None:
    """`text` read as the move of seat `seat` by the recovering notation reader, with what it
    could not read; None if it does not read as one move."""
    source = dumps(replace(header, hands=[])) + f"hand 1\n{seat + 1}: {text}\n"
    for game in iter_records_text(source, recover=True):
        if isinstance(game, Game) and game.hands and len(game.hands[0].tricks) == 1:
            moves = game.hands[0].tricks[0].moves
            problems = game.problems
            only = len(moves) == 1 and moves[0].seat == seat and bool(problems)
            if only and all(p.move == moves[0].pos for p in problems):
                return moves[0], problems
    return None


# --- the game in memory -------------------------------------------------------------------------


@dataclass(slots=True)
class Replayed:
    """The engine's state at the end of a record, and what the validator found on the way."""

    game: GameState
    hand: HandState | None
    errors: list[Diagnostic]
    last_result: HandResult | None  # the last hand's result, if it ended
    # The last hand's index and the game before it: the next replay may start there.
    start: tuple[int, GameState] | None = None
    earlier: list[Diagnostic] = field(default_factory=list)  # errors before the last hand
    base: Baseline = field(default_factory=lambda: Baseline(None))  # ... from it on (or all)


# Errors after which a replay from a later hand would not find what the whole replay finds
# (the running totals then come from the record's score lines).
_HISTORY_CODES = frozenset(("ZF208", "ZF402"))


def replay_to_end(
    record: Game, start: tuple[int, GameState] | None = None, earlier: Sequence[Diagnostic] = ()
) -> Replayed:
    """Replay `record` (from `start`, the errors of the hands before it being `earlier`)."""
    errors: list[Diagnostic] = list(earlier)
    game: GameState | None = None
    hand: HandState | None = None
    last: HandResult | None = None
    at: tuple[int, GameState] | None = start
    before = list(earlier)
    for state, event in replay(record, start=start):
        if isinstance(event, HandStart):
            at, before = (event.hand_index, state.game.copy()), list(errors)
        errors.extend(d for d in event.diagnostics if d.severity == "error")
        game, hand = state.game, state.hand
        if isinstance(event, HandEnd):
            last = event.result
    assert game is not None
    if at is not None and (at[1].over or any(d.code in _HISTORY_CODES for d in before)):
        at, before = None, []  # a replay from the last hand on would not be the whole replay's
    # What the record's replay found from where the next one starts: an entry is judged by
    # the errors its record's replay finds beyond these (zfrec.baseline).
    base = Baseline(None, found=Counter(key(d) for d in errors[len(before) :]))
    return Replayed(game, hand, errors, last, at, before, base)


class _Refused(Exception):
    """A move the table does not make at once, though the engine would: the replay judges."""


@dataclass(frozen=True, slots=True)
class _Made:
    """A move the engine made: the passes it implied, how many actions it took (passes, a
    reveal, the move: each one undone by `undo`), and the hand's result if it ended it."""

    passes: tuple[int, ...]
    actions: int
    ended: HandResult | None


@dataclass(slots=True)
class _MoveCache:
    upto: int = 0  # entries looked at
    hand: int = 0  # hand number at that point
    items: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class LiveGame:
    """One table's game in memory. `enter`/`start_hand` change it only when they accept."""

    header: Game
    entries: list[Entry] = field(default_factory=list)
    version: int = 0
    rules: Ruleset = field(init=False)
    game: GameState = field(init=False)
    hand: HandState | None = field(init=False, default=None)
    line: int = field(init=False, default=0)  # trick lines of the current hand so far
    line_moves: int = field(init=False, default=0)  # moves written on the last line
    baseline: list[tuple[str, str]] = field(init=False, default_factory=list)
    # Where the next replay may start (the last hand, the game before it), the errors before
    # it, and those from it on: an entry the engine does not take is judged from there.
    _start: tuple[int, GameState] | None = field(init=False, default=None)
    _earlier: list[Diagnostic] = field(init=False, default_factory=list)
    _base: Baseline = field(init=False, default_factory=lambda: Baseline(None))
    last_result: HandResult | None = field(init=False, default=None)
    _moves: _MoveCache = field(init=False, default_factory=lambda: _MoveCache())
    # engine actions (inferred passes + the move) of each move applied since the last rebuild
    _counts: list[int] = field(init=False, default_factory=list)
    # the seats (0-based) whose passes the last accepted move implied, in order
    inferred: list[int] = field(init=False, default_factory=list)
    # state JSON already made, by (version, viewer, since): see zfrec.live.table.cached_state
    views: dict[tuple[int, int | None, int], dict[str, Any]] = field(
        init=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        self.rules = self.header.ruleset()
        self._rebuild(build_record(self.header, self.entries))

    @property
    def n(self) -> int:
        return len(self.header.players)

    def record(self) -> Game:
        """The game so far as a record, score lines and result included."""
        return build_record(self.header, self.entries)

    def forget_moves(self) -> None:
        """After an entry's marks changed: the move list and the states are made afresh."""
        self._moves = _MoveCache()
        self.views.clear()

    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.over

    # rebuilding --------------------------------------------------------------------------------

    def _rebuild(self, record: Game, resume: bool = False) -> None:
        """The state at the end of `record`. The replay closes every trick at the end of its
        line (the notation's rule for omitted passes), so the last line is replayed here, move
        by move, through the engine: its trick stays open for the next entry. `resume`: the
        record is the last one's with entries added, so the replay starts at its last hand."""
        last = record.hands[-1] if record.hands else None
        tail = list(last.tricks[-1].moves) if last is not None and last.tricks else []
        base = record
        if last is not None and tail:
            cut = replace(last, tricks=last.tricks[:-1], score=None)
            if len(record.hands) == 1 and not cut.tricks:
                cut = replace(cut, deal=_led_by(cut, self.n, tail[0].seat))
            base = replace(record, hands=[*record.hands[:-1], cut], result=None)
        start = self._start if resume else None
        done = replay_to_end(base, start, self._earlier if start is not None else ())
        self.game, self.hand, self.last_result = done.game, done.hand, done.last_result
        self.baseline = [(d.code, d.message) for d in done.errors]
        self._start, self._earlier, self._base = done.start, done.earlier, done.base
        self.line = len(last.tricks) - bool(tail) if last is not None else 0
        self.line_moves = 0
        self._counts = []
        for move in tail:
            hs = self.hand
            made = None if hs is None else self._make(hs, move, self._passes_before(hs, move))
            if made is None:  # never expected: then the replay's own reading of it all is used
                self._take(replay_to_end(record), record)
                return
            self._made(made, len(last.tricks) if last is not None else 1)
        # The line's first move came after the passes the replay inferred to close the trick
        # before it; undoing it by the engine would leave those: that one undo rebuilds.
        del self._counts[:1]

    def _take(self, done: Replayed, record: Game) -> None:
        """The state the replay reached at the end of the whole record (its last trick closed)."""
        self.game, self.hand, self.last_result = done.game, done.hand, done.last_result
        self.baseline = [(d.code, d.message) for d in done.errors]
        self._start, self._earlier, self._base = done.start, done.earlier, done.base
        last = record.hands[-1] if record.hands else None
        self.line = len(last.tricks) if last is not None else 0
        self.line_moves = len(last.tricks[-1].moves) if last is not None and last.tricks else 0
        self._counts = []

    def undo(self) -> Entry:
        """Drop the last entry. A move this process applied is taken back by the engine
        (`HandState.undo`, once per action it made, inferred passes included); anything else
        (a hand start, a move the replay judged, a game just loaded) is undone by
        rebuilding from the remaining entries, which is always right."""
        if not self.entries:
            raise Conflict("nothing-to-undo", "there is nothing to undo")
        last = self.entries[-1]
        self._moves = _MoveCache()
        hs = self.hand
        # Hand 1's first move showed who held the 3h and so who leads: without it the
        # replay places the 3h otherwise, so undoing it rebuilds.
        opening = hs is not None and bool(self._counts) and len(hs.log) == self._counts[-1]
        if (
            last.kind == "move"
            and self._counts
            and hs is not None
            and not (opening and self.game.lead_card())
        ):
            ended = hs.over
            for _ in range(self._counts.pop()):
                hs.undo()
            if ended:
                self.game.unfinish_hand()
                self.last_result = None
            self.entries.pop()
            self.line_moves -= 1
            if self.line_moves == 0:
                self.line -= 1
                self.line_moves = len(self.line_entries())
            return last
        self.entries.pop()
        self._rebuild(build_record(self.header, self.entries))
        return last

    # judging by replay -------------------------------------------------------------------------

    def _judge_by_replay(
        self, entry: Entry, read: tuple[Move, list[ReadProblem]] | None = None
    ) -> None:
        """Replay the record with `entry` added; refuse it with the validator's first new error.
        `read` is the entry's move as the notation reader read it, when it is not readable."""
        candidate = build_record(self.header, [*self.entries, entry], read and read[0])
        if read is not None:
            candidate = replace(candidate, problems=list(read[1]))
        # new_errors(record, candidate, h), its record's part known: the record's replay from
        # its last hand on was seen when the table last rebuilt, and the entry only adds to it,
        # so only the candidate is replayed, from there.
        start = self._start
        h, before = start if start is not None else (0, None)
        found = self._base.new(found_from(candidate, h, before))
        for d in found:
            extra: dict[str, Any] = {"location": d.location.play() or None}
            if d.code == "ZF102":
                extra["readings"] = self._readings(entry)
            raise EntryRefused(d.code, d.message, **extra)

    def _readings(self, entry: Entry) -> list[dict[str, str]]:
        move = move_of(entry.data)
        found = readings(move.cards, self.rules, dict(move.declarations))
        return [{"play": c.text(), "reading": c.describe()} for c in found]

    def _accept_judged(self, entry: Entry) -> Entry:
        """Take an entry the replay accepted: rebuild, and add the score it brought about."""
        was_over = self.hand is None or self.hand.over
        self.entries.append(entry)
        try:
            self._rebuild(build_record(self.header, self.entries), resume=True)
        except BaseException:
            self.entries.pop()
            self._rebuild(build_record(self.header, self.entries))
            raise
        hand = self.hand
        if entry.kind == "move" and not was_over and hand is not None and hand.over:
            assert self.last_result is not None
            accepted = Entry(entry.seq, entry.kind, {**entry.data, **self._ending()})
            self.entries[-1] = accepted
            return accepted
        return entry

    def _ending(self) -> dict[str, Any]:
        game, result = self.game, self.last_result
        assert result is not None
        out: dict[str, Any] = {
            "score": {"points": list(result.points), "totals": list(game.scores)}
        }
        if game.over:
            out["result"] = {"scores": list(game.scores), "winners": game.winners()}
        return out

    # hands -------------------------------------------------------------------------------------

    def start_hand(self, shuffler: int | None, deals: dict[int, str] | None) -> Entry:
        """Start the next hand: the shuffler (the rules give it after hand 1) and any deals."""
        if self.in_hand():
            assert self.hand is not None
            raise Conflict(
                "hand-in-progress",
                f"hand {self.hand.number} is not finished: enter its moves, or undo",
            )
        proposed = self.game.next_shuffler()
        if shuffler is None:
            shuffler = proposed
        if shuffler is None:
            raise EntryRefused("shuffler", "say who shuffled hand 1")
        if not 0 <= shuffler < self.n:
            raise EntryRefused("seat", f"there is no seat {shuffler + 1}: seats are 1 to {self.n}")
        data: dict[str, Any] = {"shuffler": shuffler, "deal": self._deal(shuffler, deals)}
        entry = Entry(len(self.entries) + 1, "hand", data)
        self._judge_by_replay(entry)
        return self._accept_judged(entry)

    def _deal(self, shuffler: int, deals: dict[int, str] | None) -> list[dict[str, Any]] | None:
        if not deals:
            return None
        if stray := sorted(k + 1 for k in deals if not 0 <= k < self.n):
            raise EntryRefused("seat", f"there is no seat {stray[0]}: seats are 1 to {self.n}")
        first = self.game.next_first_drawer(shuffler)
        sizes = hand_sizes(self.n, first if first is not None else next_seat(shuffler, self.n))
        out = []
        for seat in range(self.n):
            text = deals.get(seat, "")
            try:
                mask, unknown = parse_seat_cards(text)
            except CardError as exc:
                raise EntryRefused("ZF001", f"deal of seat {seat + 1}: {exc.message}") from None
            if unknown is None:
                unknown = max(0, sizes[seat] - mask.bit_count())
            out.append({"known": format_cards(mask), "unknown": unknown})
        return out

    # moves -------------------------------------------------------------------------------------

    def enter(self, seat: int, play: str) -> Entry:
        """Judge one move and, if it is legal, apply it. Raises EntryRefused or Conflict."""
        if not 0 <= seat < self.n:
            raise EntryRefused("seat", f"there is no seat {seat + 1}: seats are 1 to {self.n}")
        if self.hand is None:
            raise Conflict("no-hand", "no hand has started: start a hand first")
        text = play.strip()
        self.inferred = []
        try:
            move = move_of({"seat": seat, "play": text})
        except CardError as exc:
            self._refuse_unreadable(seat, text, exc)
        hs = self.hand
        chain = [] if hs.over or hs.top is None else hs.pass_chain()
        old_line = self.line
        new_line = self._starts_line(hs, move)
        line = self.line + 1 if new_line or self.line == 0 else self.line
        data: dict[str, Any] = {"seat": seat, "play": move.play_text(), "line": line}
        entry = Entry(len(self.entries) + 1, "move", data)
        made = None
        if not self.baseline and not self._opens_unplaced(hs):
            made = self._make(hs, move, self._passes_before(hs, move))
        # A play by the seat that would lead next, which cannot follow in this trick, leads
        # the next one: the table left out the passes that ended this trick.
        leads_next = not move.is_pass and move.seat in chain and move.seat == hs.next_leader()
        if made is None and not self.baseline and leads_next:
            made = self._make(hs, move, chain)
            if made is not None:
                data["line"] = line = self.line + 1
                entry = Entry(entry.seq, entry.kind, data)
        if made is None:
            self._judge_by_replay(entry)
            accepted = self._accept_judged(entry)
            # The replay inferred the passes as the notation does: before a later seat of the
            # pass chain on the same line, or all of the chain when the move starts a line.
            if accepted.data["line"] == old_line and seat in chain:
                self.inferred = chain[: chain.index(seat)]
            elif accepted.data["line"] != old_line:
                self.inferred = chain
            return accepted
        self.inferred = list(made.passes)
        self._made(made, line)
        if made.ended is not None:
            data.update(self._ending())
        accepted = Entry(entry.seq, entry.kind, data)
        self.entries.append(accepted)
        return accepted

    def _opens_unplaced(self, hs: HandState) -> bool:
        """Whether this is hand 1's first move with the 3h in no recorded deal: the move shows
        its seat held the 3h (R4), which the replay writes into the hand's known cards and the
        engine's guessed deal does not. So the replay makes it: the state is then the one a
        restarted server (or another server on the store) rebuilds."""
        three = self.game.lead_card()
        if not three or hs.log or hs.deal is None:
            return False
        return not any(known & three for known in hs.deal.known)

    def _refuse_unreadable(self, seat: int, text: str, exc: CardError) -> NoReturn:
        """Refuse a play that does not read as cards in the validator's words: the move is read
        as `zfrec validate` reads the notation (keeping what can be read, `did you mean Ks?`
        from the cards the seat holds) and the record replayed with it."""
        read = None if _UNSAFE.search(text) else _read_leniently(self.header, seat, text)
        if read is not None and self.hand is not None and not self.baseline:
            hs, move = self.hand, read[0]
            line = self.line + 1 if self.line == 0 or self._starts_line(hs, move) else self.line
            entry = Entry(len(self.entries) + 1, "move", {"seat": seat, "play": text, "line": line})
            self._judge_by_replay(entry, read)
        raise EntryRefused("ZF001", exc.message) from None

    def _starts_line(self, hs: HandState, move: Move) -> bool:
        """Whether the move is written on a new trick line (the notation's trick boundary)."""
        if hs.over:
            return True
        if hs.top is None:
            return self.line_moves > 0
        chain = hs.pass_chain()
        if move.seat in chain:
            return False
        return not move.is_pass and move.seat == hs.next_leader()

    def _passes_before(self, hs: HandState, move: Move) -> list[int] | None:
        """The passes a move implies where it is written (as the notation reads it): the seats
        of the pass chain before it, or all of the chain for a play by the seat that would lead
        next; None where the move is not the table's to make at once (a lead by another seat,
        a pass on a lead, a seat after the chain): then the replay judges it."""
        if hs.over:
            return None
        if hs.top is None:
            return [] if move.seat == hs.turn and not move.is_pass else None
        chain = hs.pass_chain()
        if move.seat in chain:
            return chain[: chain.index(move.seat)]
        if not move.is_pass and move.seat == hs.next_leader():
            return chain
        return None

    def _make(self, hs: HandState, move: Move, passes: list[int] | None) -> _Made | None:
        """Make the move through the engine: the passes it implies, the cards it plays that the
        guessed deal placed elsewhere revealed as its own (`HandState.reveal`), then the move,
        each action verified by the engine. None, with every action taken back, when the
        engine refuses any of them: the replay then judges and words the refusal."""
        if passes is None:
            return None
        depth = len(hs.log)
        decls = dict(move.declarations) if move.declarations else None
        try:
            for passer in passes:
                hs.pass_(passer)
            if move.is_pass:
                event: Event = hs.pass_(move.seat)
            else:
                missing = move.cards & ~hs.hands[move.seat] if 0 <= move.seat < hs.n else 0
                if missing & self.game.lead_card() or (missing and hs.deal is None):
                    # The 3h of hand 1 is the leader's (R4), and a deal wholly known has no
                    # guessed cards to reveal: the replay judges.
                    raise _Refused
                if missing:
                    hs.reveal(move.seat, move.cards)
                event = hs.play_combo(move.seat, hs.verify_play(move.seat, move.cards, decls))
        except (IllegalPlayError, _Refused):
            while len(hs.log) > depth:
                hs.undo()
            return None
        return _Made(tuple(passes), len(hs.log) - depth, event.hand_result)

    def _made(self, made: _Made, line: int) -> None:
        """Book a move the engine made: its actions (to undo), its line, the hand's end."""
        self._counts.append(made.actions)
        if line != self.line:
            self.line, self.line_moves = line, 0
        self.line_moves += 1
        if made.ended is not None:
            self.game.finish_hand(made.ended)
            self.last_result = made.ended

    # what the table shows ----------------------------------------------------------------------

    def seat_known(self, seat: int) -> bool:
        """Whether a seat's cards in hand are known: all dealt cards known, or every other seat's
        (then its cards are the rest)."""
        hs = self.hand
        if hs is None:
            return False
        known = hs.deal.known if hs.deal is not None else hs.hands
        unknown = [(hs.hands[s] & ~known[s]).bit_count() for s in range(hs.n)]
        return unknown[seat] == 0 or all(u == 0 for s, u in enumerate(unknown) if s != seat)

    def played(self) -> int:
        """Cards already played in the current hand."""
        hs = self.hand
        if hs is None:
            return 0
        held = 0
        for h in hs.hands:
            held |= h
        return FULL_DECK & ~held

    def move_list(self) -> list[dict[str, Any]]:
        """Every move entered so far, as the API lists them (1-based seats), kept up to date
        as entries are added, so a state costs only the new ones."""
        cache = self._moves
        if cache.upto > len(self.entries):
            cache.upto, cache.hand, cache.items = 0, 0, []
        for entry in self.entries[cache.upto :]:
            if entry.kind == "hand":
                cache.hand += 1
            else:
                d = entry.data
                item = {
                    "hand": cache.hand,
                    "line": d["line"],
                    "seat": d["seat"] + 1,
                    "play": d["play"],
                    "entry": entry.seq,
                }
                item.update((k, d[k]) for k in MARK_KEYS if d.get(k))
                cache.items.append(item)
        cache.upto = len(self.entries)
        return cache.items

    def line_entries(self) -> list[Entry]:
        """The moves written on the current hand's last trick line."""
        out: list[Entry] = []
        for entry in reversed(self.entries):
            if entry.kind != "move" or entry.data["line"] != self.line:
                break
            out.append(entry)
        return out[::-1]

    def shuffler(self) -> int | None:
        """The current hand's shuffler (0-based), as entered."""
        for entry in reversed(self.entries):
            if entry.kind == "hand":
                shuffler = entry.data.get("shuffler")
                return None if shuffler is None else int(shuffler)
        return None

    # marks and corrections (GameKind.live_edits: the table's `mark` and `edit`) -----------------

    def mark_entry(self, entry: Entry, marks: dict[str, Any]) -> Entry:
        """`entry` (a move) with the table's marks changed (`marked`)."""
        return marked(entry, marks)

    def corrected(
        self, at: int, edit: Callable[[LiveGame], object] | None, replace_old: bool
    ) -> tuple[LiveGame, list[dict[str, Any]]]:
        """This game with entry `at` corrected (`rewrite`); itself unchanged."""
        return rewrite(self, at, edit, replace_old)


# --- marks and corrections ------------------------------------------------------------------------


def marked(entry: Entry, marks: dict[str, Any]) -> Entry:
    """`entry` (a move) with the table's marks changed: `annotation` ("" takes it away),
    `comment` (added to its comments), `disputed` (False takes the dispute away) with its `note`
    and other versions `or`. Raises EntryRefused where the notation could not write them."""
    data = dict(entry.data)
    annotation = marks.get("annotation")
    if annotation == "":
        data.pop("annotation", None)
    elif annotation is not None:
        data["annotation"] = str(annotation)
    comment = marks.get("comment")
    if comment is not None:
        text = str(comment).strip()
        if problem := comment_problem(text):
            raise EntryRefused("request", f"comment: {problem}")
        data["comments"] = [*data.get("comments", []), text]
    disputed = marks.get("disputed")
    if disputed is False:
        for key in ("disputed", "note", "or"):
            data.pop(key, None)
    elif disputed:
        note = str(marks.get("note") or "").strip()
        if note and (problem := tag_value_problem(note)):
            raise EntryRefused("request", f"note: {problem}")
        versions = [str(v).strip() for v in marks.get("or") or () if str(v).strip()]
        data.update({"disputed": True, "note": note or None, "or": versions})
    try:
        move = move_of(data)
    except CardError as exc:
        raise EntryRefused("ZF001", f"the other version: {exc.message}") from None
    if problem := move_problem(move):
        raise EntryRefused("request", problem)
    if "or" in data:  # written as the notation writes them
        data["or"] = [v.play_text() for v in move.alternatives]
    return Entry(entry.seq, entry.kind, data)


def reenter(game: LiveGame, entry: Entry) -> None:
    """Enter a stored entry again into `game` (after an earlier one was corrected): a hand
    start with its recorded cards (hands after the first take the shuffler the rules now
    name), a move with its marks. Raises LiveError where the game no longer allows it."""
    data = entry.data
    if entry.kind == "hand":
        deal = data.get("deal")
        deals = None if deal is None else {s: d["known"] for s, d in enumerate(deal)}
        first = game.game.hands_played == 0 and (game.hand is None)
        game.start_hand(data.get("shuffler") if first else None, deals)
        return
    game.enter(int(data["seat"]), str(data["play"]))
    marks = {k: data[k] for k in MARK_KEYS if k in data}
    if marks:
        last = game.entries[-1]
        game.entries[-1] = Entry(last.seq, last.kind, {**last.data, **marks})


def rewrite(
    live: LiveGame, at: int, edit: Callable[[LiveGame], object] | None, replace_old: bool
) -> tuple[LiveGame, list[dict[str, Any]]]:
    """The game with entry `at` (1-based) corrected: the entries before it, then `edit` (a new
    entry, or nothing to delete), then the later entries entered again, each judged afresh. The
    first one the game no longer allows stops it: it and the ones after it are left out and
    returned (`entry`, `seat`, `play` or `shuffler`, and the refusal's `code` and `message` on
    the first). `live` itself is not changed. Raises LiveError if the edit is refused."""
    if not 1 <= at <= len(live.entries) + (0 if replace_old else 1):
        raise EntryRefused("entry", f"there is no entry {at}: entries are 1 to {len(live.entries)}")
    game = LiveGame(live.header, list(live.entries[: at - 1]), live.version)
    if edit is not None:
        edit(game)
    later = live.entries[at:] if replace_old else live.entries[at - 1 :]
    dropped: list[dict[str, Any]] = []
    for i, entry in enumerate(later):
        try:
            reenter(game, entry)
        except LiveError as exc:
            for j, left in enumerate(later[i:]):
                item: dict[str, Any] = {"entry": left.seq, "kind": left.kind}
                if left.kind == "move":
                    item.update(seat=int(left.data["seat"]) + 1, play=left.data["play"])
                else:
                    item["shuffler"] = (
                        None
                        if left.data.get("shuffler") is None
                        else (int(left.data["shuffler"]) + 1)
                    )
                if j == 0:
                    item.update(code=exc.code, message=exc.message)
                dropped.append(item)
            break
    game.inferred = []
    return game, dropped
