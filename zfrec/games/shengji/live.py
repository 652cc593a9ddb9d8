"""Sheng ji at the live table (LIVE.md, "Sheng ji"): the kind's live game behind `zfrec serve`.

The generic table (`zfrec.live.table.Table`) keeps the entries in the store, locks, versions
and answers; what an entry means and whether it stands is this module's. Entries (seats
0-based, as in the record model):

    hand: {"dealer": 1 | null, "trump": "c" | "nt" | null, "kitty": "4d 6c ..." | null,
           "deal": null | [{"known": "3s 3s ...", "unknown": 0}, ...]}
    move: {"seat": 1, "bid": "2c 2c"}                       # a bid, before the first play
          {"seat": 1, "discard": "4s 6d ...", "kitty": "..."} # the dealer's exchange
          {"seat": 3, "play": "6s 9s Ts Qs As"}              # a play (a throw as an attempt)
          {"seat": 3, "play": "6s 9s Ts", "forced": "6s", "blocker": 1, "shows": "8s"}
          ... "result": {"levels": [...], "winners": [...]}  # the move that won the match

**Judging.** The round in play is held as a record (`SjRound`), and every entry is judged by
replaying the round with the entry written into it through the Sheng ji validator
(`zfrec.games.shengji.replayer.replay_open`, which lets the last trick be open): the entry
stands unless the replay finds an error the round without it did not have, and a refusal is
that error, its SJ code and message word for word. So a follow is checked against the hand
where the deal is known, and otherwise as far as the cards seen allow (the validator's rebuilt
hands: a seat that showed a void holds none of that suit later). One round replays in about a
millisecond; a round's replay also gives the state the screen shows (the trick, who is winning,
the points) and, once the round is over, its result: points, kitty, level change, next dealer.

The JSON state the table shows is `zfrec.games.shengji.livestate`'s.

A round's dealer and rank follow from the rounds before it (the next dealer, the declarers'
level); the replay of one round takes them as written (`replay_open(..., trusted=True)`, the
validator's rule for a round after one left unfinished), so no earlier round is replayed
again. Where every hand is known, a lead of one unit or a legal follow in turn is made on the
replay's state at once (`SjLive._follow`): the replay would make it the same way.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from zfrec.diagnostics import Diagnostic
from zfrec.errors import CardError, IllegalPlayError, RulesError
from zfrec.games.shengji.cards import (
    card_id,
    contains,
    count,
    distinct,
    format_hand,
    from_ids,
    parse_hand,
    size,
)
from zfrec.games.shengji.events import RoundResult
from zfrec.games.shengji.follow import judge_follow
from zfrec.games.shengji.formats import Format, classify
from zfrec.games.shengji.order import Order
from zfrec.games.shengji.rebuild import Rebuilt, full_deck
from zfrec.games.shengji.records import (
    SjCall,
    SjCards,
    SjLevels,
    SjMatch,
    SjMove,
    SjOutcome,
    SjPoints,
    SjRound,
    SjTrick,
)
from zfrec.games.shengji.replayer import SjRoundLedger, replay_open
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import SjRules, sj_preset
from zfrec.games.shengji.scoring import raise_level
from zfrec.games.shengji.throws import beats_unit, check_throw
from zfrec.games.shengji.unseen import less, unseen_cards
from zfrec.record.model import Game, Result

__all__ = ["LIVE_FIELDS", "SjLive", "check_table"]

# The fields a Sheng ji entry may carry beyond `seat` and `play` (the web app passes them on).
LIVE_FIELDS = ("dealer", "trump", "kitty", "bid", "discard", "calls", "blocked_by", "shows")
TRUMP_WORDS = {"s": "s", "h": "h", "d": "d", "c": "c", "nt": "nt", "notrump": "nt"}
_ORDINAL = re.compile(r"(\d{1,3})(?:st|nd|rd|th)")


class _Refusal(Exception):
    """Raised with (status, code, message); the table turns it into its LiveError."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True, slots=True)
class Entry:
    """One accepted entry, as the store keeps it (the table's Entry has the same fields)."""

    seq: int
    kind: str
    data: dict[str, Any]


@dataclass(slots=True)
class _Replayed:
    """One replay of the round in play: its errors, the state reached, the hands rebuilt."""

    errors: Counter[tuple[str, str]]
    first: list[Diagnostic]
    state: RoundState | None
    rebuilt: Rebuilt | None
    ledger: SjRoundLedger | None


@dataclass(frozen=True, slots=True)
class _Done:
    """A finished round: the engine's result and each seat's level after it."""

    result: RoundResult
    levels: tuple[int, ...]
    winners: tuple[int, ...]


def _cards(text: str, decks: int) -> int:
    try:
        return parse_hand(text, decks)
    except CardError as exc:
        raise _Refusal(422, "ZF001", exc.message) from None


def _seat_cards(text: str, decks: int, hand_size: int) -> SjCards:
    """A deal as typed: known cards and `?`/`?N` unknown ones; completed to the hand size."""
    known, unknown, words = [], None, text.replace(",", " ").split()
    for w in words:
        if w.startswith("?"):
            count = w[1:] or "1"
            if not count.isdigit() or len(count) > 3:
                raise _Refusal(422, "ZF001", f"malformed unknown cards {w!r}: write ? or ?N")
            unknown = (unknown or 0) + int(count)
        else:
            known.append(w)
    cards = _cards(" ".join(known), decks)
    if unknown is None:
        unknown = max(0, hand_size - size(cards))
    return SjCards(cards, unknown)


class SjLive:
    """One Sheng ji table's match in memory (see the module docstring). `enter` and
    `start_hand` change it only when they accept; a refusal raises the table's LiveError."""

    def __init__(self, header: Game, entries: Sequence[Any], version: int, errors: Any) -> None:
        self.header = header
        self.version = version
        self.entries: list[Any] = []
        self.views: dict[tuple[int, int | None, int], dict[str, Any]] = {}
        self.inferred: list[int] = []
        self._errors = errors  # (refused, conflict): the table's LiveError classes
        self.rules: SjRules = _rules(header)
        self.n = self.rules.players
        self.rounds: list[SjRound] = []
        self.starts: list[tuple[int, ...]] = []  # each round's levels before it
        self.done: list[_Done | None] = []
        self.cur: _Replayed | None = None
        for e in entries:
            self._apply(Entry(e.seq, e.kind, e.data))
            self.entries.append(e)
        if self.rounds:
            self._settle()

    # the generic table's view of the game ------------------------------------------------------

    def forget_moves(self) -> None:
        self.views.clear()

    def in_hand(self) -> bool:
        return bool(self.rounds) and self.done[-1] is None

    def record(self) -> Game:
        """The match so far as a record: rounds with their results, and the match's result."""
        rounds = [self._written(i) for i in range(len(self.rounds))]
        result = None
        if self.winners:
            result = Result(tuple(self.levels), self.winners)
        return replace(self.header, rounds=rounds, result=result, hands=[])

    @property
    def last_result(self) -> _Done | None:
        """The last finished round's account (None before any round ended)."""
        return next((d for d in reversed(self.done) if d is not None), None)

    @property
    def levels(self) -> list[int]:
        if not self.rounds:
            return [2] * self.n
        done = self.done[-1]
        return list(done.levels if done is not None else self.starts[-1])

    @property
    def winners(self) -> tuple[int, ...]:
        return next((d.winners for d in self.done if d is not None and d.winners), ())

    def dealer(self) -> int | None:
        """The dealer of the round in play as the rules judge it now: as entered, or as the bids
        settle it. Round 1's dealer picked at its start stands only until a bid does: while the
        bids are being entered the seat whose bid stands deals (ruling 14), and a pick the bids
        overrule (`overruled`) is judged at the exchange or the first play (SJ304)."""
        if not self.rounds:
            return None
        picked, settled = self.rounds[-1].dealer, self._settled_dealer()
        if picked is None or (settled is not None and self._bidding_round_one()):
            return settled
        return picked

    def overruled(self) -> int | None:
        """Round 1's dealer picked at its start where the bids entered so far name another
        (the seat whose bid stands): the exchange or the first play is refused (SJ304)."""
        if not self.rounds or not self._bidding_round_one():
            return None
        picked, settled = self.rounds[-1].dealer, self._settled_dealer()
        return picked if picked is not None and settled is not None and picked != settled else None

    def _settled_dealer(self) -> int | None:
        ledger = self.cur.ledger if self.cur is not None else None
        return ledger.dealer if ledger is not None else None

    def _bidding_round_one(self) -> bool:
        """Round 1 with bids entered and neither the exchange nor a play yet: its dealer and
        trump entered directly are not held against the bids (`_replay`)."""
        rnd = self.rounds[-1]
        return rnd.number == 1 and bool(rnd.bids) and rnd.discard is None and not rnd.tricks

    def trump(self) -> str | None:
        if not self.rounds:
            return None
        if self.rounds[-1].trump is not None:
            return self.rounds[-1].trump
        state = self.cur.state if self.cur is not None else None
        if state is None or state.order is None or not self._settled():
            return None
        return "nt" if state.order.trump is None else "shdc"[state.order.trump]

    def _settled(self) -> bool:
        rnd = self.rounds[-1]
        return bool(rnd.bids or rnd.tricks or rnd.discard is not None)

    def next_round(self) -> tuple[int, int | None, int] | None:
        """The next round's number, dealer (None: round 1, the bids decide) and rank (level)."""
        if self.winners or (self.rounds and self.done[-1] is None):
            return None
        if not self.rounds:
            return 1, None, 2
        done = self.done[-1]
        assert done is not None
        dealer = done.result.next_dealer
        return len(self.rounds) + 1, dealer, done.levels[dealer]

    # changing ----------------------------------------------------------------------------------

    def start_hand(self, dealer: int | None, deals: dict[int, str] | None, **extra: Any) -> Any:
        """Start the next round: `dealer` (0-based; after round 1 the rules name it), `trump`
        (`s h d c nt`; None: from the bids), the `deals` known and the `kitty` as taken up."""
        try:
            data = self._round_data(dealer, deals, extra)
            entry = Entry(len(self.entries) + 1, "hand", data)
            rnd = self._round_of(data)
            replayed = self._replay(rnd)
            bad = [d for d in replayed.first if d.code in ("SJ301", "SJ302", "SJ303")]
            if bad:
                raise _Refusal(422, bad[0].code, bad[0].message)
        except _Refusal as r:
            raise self._error(r) from None
        self._apply(entry)
        self.entries.append(entry)
        self.cur = replayed
        self._finish()
        return entry

    def enter(self, seat: int, play: str | None, **extra: Any) -> Any:
        """One move of seat `seat` (0-based): a play (`play`, a throw with `blocked_by` and
        `shows` when it was blocked), a bid (`bid`) or the dealer's exchange (`discard`)."""
        self.inferred = []
        try:
            data = self._move_data(seat, play, extra)
            entry = Entry(len(self.entries) + 1, "move", data)
            rnd = self._with(self.rounds[-1], data)
            replayed = self._follow(seat, data)
            if replayed is None:
                replayed = self._replay(rnd)
                assert self.cur is not None
                new = _new_errors(self.cur.errors, replayed.first)
                if new is not None:
                    said = new.message
                    if new.code == "SJ103" and "play" in data and "forced" not in data:
                        said += BLOCK_HINT
                    raise _Refusal(422, new.code, said)
        except _Refusal as r:
            raise self._error(r) from None
        self.rounds[-1] = rnd
        self.entries.append(entry)
        self.cur = replayed
        self._finish()
        done = self.done[-1]
        if done is not None and done.winners:
            data["result"] = {"levels": list(done.levels), "winners": list(done.winners)}
        return entry

    def _follow(self, seat: int, data: dict[str, Any]) -> _Replayed | None:
        """The common case at once: where every hand is known (nothing in the rebuilt hands is
        guessed, so a new play cannot change what the replay makes of the earlier ones), a
        lead of one unit or a follow in turn that the engine finds legal and that does not end
        the round is made on
        the replay's state as the validator would make it, without replaying the round. The
        state it leaves is the replay's; anything else (None) is judged by the replay."""
        cur = self.cur
        state = cur.state if cur is not None else None
        rb = cur.rebuilt if cur is not None else None
        if cur is None or state is None or rb is None or "play" not in data or "forced" in data:
            return None
        if any(rb.guessed) or state.order is None or seat != state.turn:
            return None
        cards = parse_hand(data["play"], self.rules.decks)
        if sum(size(h) for h in state.hands) <= size(cards) or state.result is not None:
            return None
        if state.lead is None:  # a lead of one unit held (a throw is judged by the replay)
            if state.trick_plays or not contains(state.hands[seat], cards):
                return None
            try:
                lead = classify(state.order, cards)
            except IllegalPlayError:
                return None
            if len(lead.units) > 1:
                return None
            state.play_legal(seat, cards, lead)
            return cur
        if judge_follow(state.order, state.lead, state.hands[seat], cards) is not None:
            return None
        state.play_legal(seat, cards)
        return cur

    def undo(self) -> Any:
        if not self.entries:
            raise self._errors[1]("nothing-to-undo", "there is nothing to undo")
        last = self.entries.pop()
        if last.kind == "hand":
            self.rounds.pop()
            self.starts.pop()
            self.done.pop()
        else:
            first = max(i for i, e in enumerate(self.entries) if e.kind == "hand")
            self.rounds.pop()
            self.starts.pop()
            self.done.pop()
            for e in self.entries[first:]:
                self._apply(Entry(e.seq, e.kind, e.data))
        self.cur = None
        if self.rounds:
            self._settle()
        self.views.clear()
        return last

    # entries as data ---------------------------------------------------------------------------

    def _error(self, r: _Refusal) -> Exception:
        refused, conflict = self._errors
        err: Exception = (conflict if r.status == 409 else refused)(r.code, r.message)
        return err

    def _round_data(
        self, dealer: int | None, deals: dict[int, str] | None, extra: dict[str, Any]
    ) -> dict[str, Any]:
        unknown = set(extra) - {"trump", "kitty"}
        if unknown:
            raise _Refusal(422, "request", f"a Sheng ji round takes no {sorted(unknown)[0]}")
        nxt = self.next_round()
        if nxt is None:
            if self.winners:
                raise _Refusal(409, "game-over", "the match is over: it has been won")
            raise _Refusal(409, "hand-in-progress", "the round in play is not over yet")
        number, due, _rank = nxt
        if dealer is not None and not 0 <= dealer < self.n:
            raise _Refusal(422, "seat", f"there is no seat {dealer + 1}")
        if due is not None and dealer is not None and dealer != due:
            names = self.header.players
            raise _Refusal(422, "SJ304", f"{names[due]} deals round {number}, not "
                           f"{names[dealer]} (RULES-SHENGJI.md R12)")  # fmt: skip
        trump = extra.get("trump")
        if trump is not None:
            word = TRUMP_WORDS.get(str(trump).strip().casefold())
            if word is None:
                raise _Refusal(422, "trump", f"the trump is s, h, d, c or nt, not {trump!r}")
            trump = word
        rules = self.rules
        deal = None
        if deals:
            for s in deals:
                if not 0 <= s < self.n:
                    raise _Refusal(422, "seat", f"there is no seat {s + 1}")
            given = {s: _seat_cards(t, rules.decks, rules.hand_size) for s, t in deals.items()}
            deal = [
                {"known": format_hand(c.known), "unknown": c.unknown}
                for c in (given.get(s, SjCards(0, rules.hand_size)) for s in range(self.n))
            ]
        kitty = extra.get("kitty")
        if kitty is not None:
            kitty = format_hand(_cards(str(kitty), rules.decks))
        return {"dealer": due if due is not None else dealer, "trump": trump, "deal": deal,
                "kitty": kitty}  # fmt: skip

    def _move_data(self, seat: int, play: str | None, extra: dict[str, Any]) -> dict[str, Any]:
        if not self.rounds:
            raise _Refusal(409, "no-hand", "start a round first")
        if self.done[-1] is not None:
            raise _Refusal(409, "hand-over", "the round is over: start the next one")
        if not 0 <= seat < self.n:
            raise _Refusal(422, "seat", f"there is no seat {seat + 1}")
        kinds = [k for k in ("bid", "discard", "calls") if extra.get(k) is not None]
        if play is not None:
            kinds.insert(0, "play")
        if len(kinds) != 1:
            raise _Refusal(422, "request", "a move is one of play, bid, discard or calls")
        what = kinds[0]
        allowed = {"play": {"blocked_by", "shows"}, "bid": set(), "discard": {"kitty"},
                   "calls": set()}[what]  # fmt: skip
        stray = {k for k, v in extra.items() if v is not None} - allowed - {what}
        if stray:
            raise _Refusal(422, "request", f"a {what} takes no {sorted(stray)[0]}")
        rnd, decks = self.rounds[-1], self.rules.decks
        if what != "play" and rnd.tricks:
            late = {"bid": "a bid", "discard": "the exchange", "calls": "the calls"}[what]
            verb = "come" if what == "calls" else "comes"
            raise _Refusal(409, "phase", f"{late} {verb} before the first play of the round")
        if what == "bid":
            if rnd.discard is not None:  # bids are made while drawing (ruling 15), before it
                raise _Refusal(409, "phase", "a bid comes before the exchange: undo it first")
            return {"seat": seat, "bid": format_hand(_cards(str(extra["bid"]), decks))}
        if what == "calls":
            return self._calls(seat, str(extra["calls"]))
        if what == "discard":
            if rnd.discard is not None:
                raise _Refusal(409, "phase", "the kitty was exchanged already: undo it first")
            dealer = self.dealer()
            # a round-1 dealer picked that the bids overrule: the replay names the clash (SJ304)
            if dealer is not None and seat != dealer and self.overruled() is None:
                names = self.header.players
                raise _Refusal(422, "seat", f"{names[dealer]} deals and exchanges the kitty, "
                               f"not {names[seat]}")  # fmt: skip
            data: dict[str, Any] = {
                "seat": seat,
                "discard": format_hand(_cards(str(extra["discard"]), decks)),
            }
            if extra.get("kitty") is not None:
                data["kitty"] = format_hand(_cards(str(extra["kitty"]), decks))
            return data
        assert play is not None
        if not play.replace(",", " ").strip():  # before reading: no cards is no notation error
            raise _Refusal(422, "SJ209", "a play needs at least one card (Sheng ji has no pass)")
        cards = _cards(play, decks)
        data = {"seat": seat, "play": format_hand(cards)}
        blocker, shows = extra.get("blocked_by"), extra.get("shows")
        if blocker is not None or shows is not None:
            if blocker is None or shows is None:
                raise _Refusal(422, "request", "a blocked throw gives both blocked_by and shows")
            data.update(self._blocked(seat, cards, int(blocker) - 1, _cards(str(shows), decks)))
        played = parse_hand(data.get("forced", data["play"]), decks)
        if self._joins(seat, played):
            data["joins"] = True
        return data

    def _calls(self, seat: int, text: str) -> dict[str, Any]:
        """Zhao pengyou: the dealer's calls, `2nd As 1st Kh` (ruling 16), before the first play."""
        rnd = self.rounds[-1]
        if not self.rules.friends:
            raise _Refusal(422, "request", f"{self.rules.preset} has no calls: partners are fixed")
        if rnd.calls:
            raise _Refusal(409, "phase", "the calls were entered already: undo them first")
        dealer = self.dealer()
        if dealer is not None and seat != dealer:
            names = self.header.players
            raise _Refusal(422, "seat", f"{names[dealer]} deals and calls, not {names[seat]}")
        words, calls = text.replace(",", " ").split(), []
        if not words or len(words) % 2:
            raise _Refusal(422, "ZF001", "a call is an ordinal and a card: 2nd As 1st Kh")
        for ordinal, card in zip(words[::2], words[1::2], strict=True):
            m = _ORDINAL.fullmatch(ordinal.casefold())
            if m is None:
                raise _Refusal(422, "ZF001", f"cannot read the ordinal {ordinal!r}: 1st, 2nd ...")
            try:
                cid = card_id(card)
            except CardError as exc:
                raise _Refusal(422, "ZF001", exc.message) from None
            calls.append([cid, int(m.group(1))])
        return {"seat": seat, "calls": calls}

    def _joins(self, seat: int, played: int) -> bool:
        """Zhao pengyou: whether this play makes the seat a friend (the engine's rule 16: the
        called copy, counted in order, played by a seat not on the dealer's team yet)."""
        state = self.cur.state if self.cur is not None else None
        if state is None or not state.calls or seat == state.dealer:
            return False
        if state.declarers >> seat & 1:
            return False
        for i, (cid, ordinal) in enumerate(state.calls):
            k = count(played, cid)
            if k and state.seen[i] < ordinal <= state.seen[i] + k:
                return True
        return False

    def _blocked(self, seat: int, cards: int, blocker: int, shows: int) -> dict[str, Any]:
        """The forced part of a throw `blocker` blocked by showing `shows` (ruling 10): the
        unit the shown cards beat, as the engine reads the throw against them alone."""
        names, n = self.header.players, self.n
        state = self.cur.state if self.cur is not None else None
        if state is None or state.order is None:
            raise _Refusal(409, "phase", "the trump is not known yet: a throw cannot be judged")
        if state.lead is not None or (state.trick_plays and state.trick_plays[0][0] != seat):
            raise _Refusal(422, "SJ104", "only a lead can be a throw that fails; a follow "
                           "stays whole (RULES-SHENGJI.md R10)")  # fmt: skip
        if not 0 <= blocker < n or blocker == seat:
            raise _Refusal(422, "seat", f"seat {blocker + 1} cannot block {names[seat]}'s throw")
        rb = self.cur.rebuilt if self.cur is not None else None
        if rb is not None and not rb.guessed[blocker] and not contains(state.hands[blocker], shows):
            raise _Refusal(422, "SJ102", f"{names[blocker]} does not hold {format_hand(shows)} "
                           "(RULES-SHENGJI.md R2)")  # fmt: skip
        if rb is not None and rb.guessed[blocker]:
            gone = _not_holdable(state.hands[blocker], rb, blocker, shows)
            if gone:
                raise _Refusal(422, "SJ102", f"{names[blocker]} cannot hold {format_hand(gone)}: "
                               "every copy is played, in another seat's known cards or in "
                               "the kitty (RULES-SHENGJI.md R2)")  # fmt: skip
        others = [shows if (seat + i) % n == blocker else 0 for i in range(1, n)]
        try:
            lead = classify(state.order, cards)
            check = check_throw(state.order, cards, others)
        except Exception as exc:  # no lead at all: the replay says why, in its words
            raise _Refusal(422, "SJ101", str(exc)) from None
        if not check.stands and not shows_a_beating_unit(state.order, lead, shows):
            raise _Refusal(422, "SJ104", f"{names[blocker]} shows {format_hand(shows)}: what a "
                           "blocker shows is one unit of the throw's suit (a single, a pair or a "
                           "tractor) that beats a unit of the throw of its kind, and no other "
                           "card (RULES-SHENGJI.md R10)")  # fmt: skip
        if check.stands:
            raise _Refusal(422, "SJ104", f"{format_hand(shows)} beats no unit of the throw "
                           f"{format_hand(cards)}: it stands (RULES-SHENGJI.md R10)")  # fmt: skip
        return {"forced": format_hand(check.forced), "blocker": blocker,
                "shows": format_hand(shows)}  # fmt: skip

    # the record from entries -------------------------------------------------------------------

    def _round_of(self, data: dict[str, Any]) -> SjRound:
        nxt = self.next_round()
        assert nxt is not None
        number, _due, rank = nxt
        deal = data.get("deal")
        decks = self.rules.decks
        dealt = None
        if deal is not None:  # a seat not dealt here: every card unknown
            dealt = tuple(
                SjCards(parse_hand(d["known"], decks) if d["known"] else 0, int(d["unknown"]))
                for d in deal
            )
        kitty = None if data.get("kitty") is None else SjCards(parse_hand(data["kitty"], decks))
        if kitty is None:
            kitty = self._kitty_left(dealt)
        return SjRound(number, data.get("dealer"), rank, data.get("trump"), deal=dealt, kitty=kitty)

    def _kitty_left(self, dealt: tuple[SjCards, ...] | None) -> SjCards | None:
        """The kitty every seat's whole deal leaves of the decks (None: a card of a deal not
        known, or deals that do not add up): the dealer's cards at the exchange are known."""
        if dealt is None or any(d.unknown for d in dealt):
            return None
        dealt_cards = sum(d.known for d in dealt)
        decks = full_deck(self.rules.decks)
        if not contains(decks, dealt_cards) or size(decks - dealt_cards) != self.rules.kitty:
            return None
        return SjCards(decks - dealt_cards)

    def _with(self, rnd: SjRound, data: dict[str, Any]) -> SjRound:
        """`rnd` with one move entry written into it (a new round record: `rnd` is kept)."""
        decks, seat = self.rules.decks, int(data["seat"])
        if "bid" in data:
            return replace(rnd, bids=[*rnd.bids, SjMove(seat, parse_hand(data["bid"], decks))])
        if "calls" in data:
            return replace(rnd, calls=tuple(SjCall(int(c), int(o)) for c, o in data["calls"]))
        if "discard" in data:
            kitty = rnd.kitty
            if data.get("kitty") is not None:
                kitty = SjCards(parse_hand(data["kitty"], decks))
            return replace(rnd, discard=SjCards(parse_hand(data["discard"], decks)), kitty=kitty)
        move = SjMove(seat, parse_hand(data["play"], decks), joins=bool(data.get("joins")))
        if "forced" in data:
            move.forced, move.blocker = parse_hand(data["forced"], decks), int(data["blocker"])
        tricks = list(rnd.tricks)
        if tricks and len(tricks[-1].moves) < self.n:
            tricks[-1] = SjTrick([*tricks[-1].moves, move])
        else:
            tricks.append(SjTrick([move]))
        return replace(rnd, tricks=tricks)

    def _apply(self, entry: Entry) -> None:
        """An entry accepted before (stored), made again without judging it."""
        if entry.kind == "hand":
            if self.rounds:
                self._settle()
            start = tuple(self.levels)
            self.rounds.append(self._round_of(entry.data))
            self.starts.append(start)
            self.done.append(None)
            return
        self.rounds[-1] = self._with(self.rounds[-1], entry.data)

    def _settle(self) -> None:
        """Replay the round in play (after a load or an undo): its state and result."""
        self.cur = self._replay(self.rounds[-1])
        self._finish()

    def _finish(self) -> None:
        """The round's result once it is over: the levels after it and any winners."""
        state = self.cur.state if self.cur is not None else None
        if state is None or state.result is None:
            self.done[-1] = None
            return
        r = state.result
        before = self.starts[-1]
        levels, wins = [], []
        for s in range(self.n):
            decl = bool(r.declarers >> s & 1)
            steps = r.change.declarers if decl else r.change.opponents
            level, won = raise_level(before[s], steps, self.rules.must_defend, decl)
            levels.append(level)
            if won:
                wins.append(s)
        winners: tuple[int, ...] = ()
        if wins:
            side = r.declarers if r.declarers >> wins[0] & 1 else ~r.declarers
            winners = tuple(s for s in range(self.n) if side >> s & 1)
        self.done[-1] = _Done(r, tuple(levels), winners)

    def _replay(self, rnd: SjRound) -> _Replayed:
        """The validator's replay of `rnd` alone (after a stand-in round: see the docstring)."""
        if not rnd.tricks and rnd.discard is None and rnd.bids:
            # While bids are still being entered, the trump (and round 1's dealer) entered
            # directly are not held against them: the exchange or the first play checks them.
            rnd = replace(rnd, trump=None, dealer=rnd.dealer if rnd.number > 1 else None)
        h = self.header
        match = SjMatch(list(h.players), preset=h.preset, options=dict(h.options), rounds=[rnd])
        report, state, rebuilt = replay_open(match, self.rules, trusted=rnd.number > 1)
        found = [
            d for d in report.diagnostics
            if d.severity == "error" and d.location.hand == rnd.number
        ]  # fmt: skip
        ledgers = [x for x in report.rounds if x.number == rnd.number]
        return _Replayed(
            Counter((d.code, d.message) for d in found), found, state, rebuilt,
            ledgers[-1] if ledgers else None,
        )  # fmt: skip

    def _written(self, i: int) -> SjRound:
        """Round `i` as the record writes it: dealer and trump as settled, and its result."""
        rnd = self.rounds[i]
        last = i == len(self.rounds) - 1
        if last:  # a dealer picked is written as entered (a clash with the bids: SJ304)
            dealer, trump = rnd.dealer if rnd.dealer is not None else self.dealer(), self.trump()
        else:
            dealer, trump = rnd.dealer, rnd.trump
            done = self.done[i]
            if done is not None and (dealer is None or trump is None):
                dealer = rnd.dealer
        rnd = replace(rnd, dealer=dealer if dealer is not None else rnd.dealer,
                      trump=trump if trump is not None else rnd.trump)  # fmt: skip
        done = self.done[i]
        if done is None:
            return rnd
        r = done.result
        counted = not r.declarers >> r.last_winner & 1
        pts = SjPoints(r.taken, r.kitty_points if counted else None,
                       r.multiplier if counted else None, r.penalty, r.total)  # fmt: skip
        ch = r.change
        side, steps = ("opponents", ch.opponents) if ch.swap else ("declarers", ch.declarers)
        return replace(rnd, points=pts, outcome=SjOutcome(side, steps, r.next_dealer),
                       levels=SjLevels(done.levels))  # fmt: skip


def _rules(header: Game) -> SjRules:
    extra: dict[str, Any] = {}
    if header.preset == "zhaopengyou" and "players" not in header.options:
        extra["players"] = len(header.players)
    return sj_preset(header.preset, **{**extra, **header.options})


def check_table(players: Sequence[str], preset: str, options: dict[str, Any]) -> SjRules:
    """The rules of a new table; RulesError when the preset, options or players do not fit."""
    extra: dict[str, Any] = {}
    if preset == "zhaopengyou" and "players" not in options:
        extra["players"] = len(players)
    rules = sj_preset(preset, **{**extra, **options})
    if rules.players != len(players):
        raise RulesError(f"{rules.preset} is played by {rules.players}, not {len(players)} "
                         "players")  # fmt: skip
    return rules


# Round 1's dealer and the trump, entered directly, are held against the bids only once the
# exchange or the first play is entered (`_replay`): a clash found then is the cause of whatever
# else the replay finds (the dealer the bids name does not hold the discard), and named first.
_HELD_BACK = ("SJ304", "SJ405")
# A throw typed as attempted that cannot stand (SJ103): how to record it as it failed.
BLOCK_HINT = (
    '. If it was blocked, enter the block with it: open "A throw that was blocked", pick who '
    "showed the higher cards and type them (blocked_by and shows in the API)"
)


def _new_errors(base: Counter[tuple[str, str]], found: list[Diagnostic]) -> Diagnostic | None:
    """The first error of `found` beyond those of `base` (counted by code and message); a
    clash of the dealer or trump entered with the bids (`_HELD_BACK`) before the rest."""
    left = Counter(base)
    new = []
    for d in found:
        k = (d.code, d.message)
        if left[k] > 0:
            left[k] -= 1
        else:
            new.append(d)
    return next((d for d in new if d.code in _HELD_BACK), new[0] if new else None)


def shows_a_beating_unit(order: Order, lead: Format, shows: int) -> bool:
    """Whether the cards a blocker shows are one unit of the throw's suit that beats a unit of
    the throw of its kind (ruling 10), as the validator holds a block: no card shown besides."""
    try:
        shown = classify(order, shows)
    except IllegalPlayError:
        return False
    if shown.esuit != lead.esuit or len(shown.units) != 1:
        return False
    unit = shown.units[0]
    return any(
        min(u.pairs, 2) == min(unit.pairs, 2) and beats_unit(order, u, lead.esuit, shows)
        for u in lead.units
    )


def _not_holdable(hand: int, rb: Rebuilt, seat: int, shows: int) -> int:
    """The cards of `shows` that `seat` cannot hold, its hand being partly a guess: beyond its
    known cards, a copy no play, known hand or kitty line accounts for (the validator's
    `unseen` pool, the kitty taken as unseen: the check errs towards letting a block stand)."""
    known = less(hand, rb.guessed[seat])
    pool = unseen_cards(rb.guessed, rb.discard)
    return from_ids(
        c
        for c in distinct(shows)
        for _ in range(max(0, count(shows, c) - count(known, c) - pool[c]))
    )
