"""The Sheng ji round (rulings 1 to 16): a state machine with an operation log and `undo()`.

A round goes through its phases in order:

- `draw`: the seats draw the deck one card at a time in play order, the dealer first (seat 1
  when no dealer is known, round 1); meanwhile any seat may `bid` (ruling 15). When every hand
  is full, `settle()` fixes the trump (the standing bid, or `no_bid` from the kitty's cards),
  the dealer (round 1: the seat whose bid stands, else seat 1) and gives the dealer the kitty;
- `exchange`: the dealer discards as many cards as the kitty held (ruling 11);
- `call` (zhao pengyou only): the dealer calls cards with ordinals (ruling 16);
- `play`: tricks of one play per seat, the winner leading the next (rulings 6 to 10), until
  the hands are empty; then `result` holds the round's score (rulings 11 to 13) and the phase
  is `over`.

Every action comes in three forms: `verify_x` raises IllegalPlayError with the reason,
`can_x` answers yes or no, `x` applies it and returns its frozen event, appended to `log`.
`undo()` takes the last action back and restores the state exactly (`snapshot()` compares).

    >>> from zfrec.games.shengji.cards import format_hand, parse_hand as cards
    >>> from zfrec.games.shengji.order import parse_trump
    >>> hands = [cards(h) for h in ("Kd Qd 3s", "Kd Ad 4s", "5h 6h 7h", "8d 8c 9c")]
    >>> rs = RoundState.from_hands(hands, parse_trump("7c"), leader=0)
    >>> e = rs.play(0, cards("Kd Qd"))  # a throw, beaten by seat 2's Ad: held to Kd Qd's Qd
    >>> format_hand(e.cards), format_hand(e.back), e.blocker
    ('Qd', 'Kd', 1)
    >>> rs.verify_play(1, cards("4s"))
    Traceback (most recent call last):
    ...
    zfrec.errors.IllegalPlayError: must play 1 of the 2 diamonds held (ruling 7)
    >>> before = rs.snapshot(); _ = rs.play(1, cards("Ad")); _ = rs.undo(); rs.snapshot() == before
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import cycle, repeat
from typing import Any

from zfrec.errors import DealError, IllegalPlayError
from zfrec.games.shengji.cards import (
    SJ,
    contains,
    count,
    distinct,
    format_hand,
    from_ids,
    points,
    size,
)
from zfrec.games.shengji.events import (
    BidEvent,
    CallEvent,
    DrawEvent,
    ExchangeEvent,
    PlayEvent,
    RoundEvent,
    RoundResult,
    SettleEvent,
    TrickResult,
)
from zfrec.games.shengji.follow import every_lead, judge_follow, legal_follows
from zfrec.games.shengji.formats import Format, classify, read_lead, suit_of
from zfrec.games.shengji.order import Order, make_order
from zfrec.games.shengji.order import strength as natural
from zfrec.games.shengji.quicktrick import proven_trick
from zfrec.games.shengji.rules import SjRules, sj_preset
from zfrec.games.shengji.scoring import kitty_multiplier, level_change, next_dealer
from zfrec.games.shengji.throws import check_throw_format
from zfrec.games.shengji.trick import trick_winner

__all__ = ["RoundState"]

DRAW, EXCHANGE, CALL, PLAY, OVER = "draw", "exchange", "call", "play", "over"
_tuple_new = tuple.__new__  # an event made without its named tuple's keyword-reading __new__
_ONE = tuple(1 << (c << 1) for c in range(54))  # one copy of each card, packed


@dataclass(slots=True, eq=False)
class RoundState:
    """One round in progress. Make one with `start` (from the deck) or `from_hands` (dealt
    hands, straight to play); the fields are read-only to callers.

    `hands` are packed multisets; `turn` the seat to act (the next to draw in the draw);
    `lead` the format of the trick's lead (None before it), `trick_plays` the trick's plays so
    far as (seat, packed cards); `won` the points each seat has taken in tricks; `declarers`
    the declarers' seats as a bit mask (zhao pengyou: the dealer and the friends joined so far).
    """

    rules: SjRules
    n: int
    rank: int
    deck: tuple[int, ...]
    dealer: int | None
    phase: str = DRAW
    order: Order | None = None
    hands: list[int] = field(default_factory=list)
    kitty: int = 0
    drawn: int = 0
    first: int = 0
    bid_seat: int | None = None
    bid_cards: int = 0
    bid_time: int = 0  # when the standing bid counts as made: a log index (ruling 15)
    turn: int = 0
    trick: int = 1
    lead: Format | None = None
    trick_plays: tuple[tuple[int, int], ...] = ()
    won: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()
    declarers: int = 0
    calls: tuple[tuple[int, int], ...] = ()
    seen: tuple[int, ...] = ()
    last_lead: Format | None = None
    result: RoundResult | None = None
    log: list[RoundEvent] = field(default_factory=list)
    undoable: bool = True
    _saved: list[tuple[Any, ...]] = field(default_factory=list, repr=False)
    _draw_end: int = field(default=0, repr=False)  # to_draw, read once: every draw asks

    def __post_init__(self) -> None:
        self._draw_end = self.to_draw

    # making a round ----------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        rules: SjRules,
        deck: Sequence[int],
        rank: int,
        dealer: int | None = None,
        undoable: bool = True,
    ) -> RoundState:
        """A round before the draw: `deck` the cards in drawing order (card ids, every card of
        the rules' decks once per deck), `rank` the dominant rank index (0..12, the declarers'
        level), `dealer` the dealer's seat, or None when the bids decide it (round 1)."""
        n = rules.players
        if sorted(deck) != _full_deck(rules.decks):
            raise DealError(
                f"the deck must hold each of the 54 cards {rules.decks} time(s)", "SJ301", rule="2"
            )
        first = 0 if dealer is None else dealer
        return cls(
            rules, n, rank, tuple(deck), dealer, hands=[0] * n, first=first, turn=first,
            won=(0,) * n, penalties=(0,) * n, undoable=undoable,
        )  # fmt: skip

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[int],
        order: Order,
        leader: int,
        rules: SjRules | None = None,
        declarers: int | None = None,
        kitty: int = 0,
        undoable: bool = True,
        calls: Sequence[tuple[int, int]] = (),
    ) -> RoundState:
        """A round in play from dealt hands: `leader` is the dealer and leads the first trick;
        `declarers` the declarers' seat mask (default: the leader and the seat opposite with
        fixed partners, the leader alone in zhao pengyou); `kitty` the discarded kitty;
        `calls` the dealer's calls (zhao pengyou), each (card id, ordinal)."""
        rules = rules or sj_preset()
        n = len(hands)
        if declarers is None:
            declarers = 1 << leader
            if rules.fixed_partners and n == 4:
                declarers |= 1 << (leader + 2) % 4
        return cls(
            rules, n, order.rank, (), leader, phase=PLAY, order=order, hands=list(hands),
            kitty=kitty, turn=leader, won=(0,) * n, penalties=(0,) * n, declarers=declarers,
            undoable=undoable, calls=tuple(calls), seen=(0,) * len(calls),
        )  # fmt: skip

    # the log -----------------------------------------------------------------------------------

    def snapshot(self) -> tuple[Any, ...]:
        """Everything an action may change, as one comparable value (the log excepted)."""
        return (
            self.phase, self.order, self.dealer, tuple(self.hands), self.kitty, self.drawn,
            self.bid_seat, self.bid_cards, self.bid_time, self.turn, self.trick, self.lead,
            self.trick_plays, self.won, self.penalties, self.declarers, self.calls, self.seen,
            self.last_lead, self.result,
        )  # fmt: skip

    def _save(self) -> None:
        if self.undoable:
            self._saved.append(self.snapshot())

    def undo(self) -> RoundEvent:
        """Take back the last action and return its event; the state is then exactly what it
        was before it. IndexError when nothing was done; ValueError without an undo record."""
        if not self.log:
            raise IndexError("nothing to undo: no action has been taken in this round")
        if not self.undoable:
            raise ValueError("this round keeps no undo record: it was made with undoable=False")
        event = self.log.pop()
        saved = self._saved.pop()
        if len(saved) == 8:  # `play_legal`'s record of a play that leaves the trick open
            (seat, hand, self.lead, self.trick_plays, self.turn, self.penalties,
             self.declarers, self.seen) = saved  # fmt: skip
            self.hands[seat] = hand
            return event
        if len(saved) == 13:  # `play_legal`'s record of a trick's last play
            (seat, hand, self.lead, self.trick_plays, self.turn, self.penalties,
             self.declarers, self.seen, self.won, self.trick, self.last_lead, self.result,
             self.phase) = saved  # fmt: skip
            self.hands[seat] = hand
            return event
        (
            self.phase, self.order, self.dealer, hands, self.kitty, self.drawn,
            self.bid_seat, self.bid_cards, self.bid_time, self.turn, self.trick, self.lead,
            self.trick_plays, self.won, self.penalties, self.declarers, self.calls, self.seen,
            self.last_lead, self.result,
        ) = saved  # fmt: skip
        self.hands[:] = hands
        return event

    @property
    def over(self) -> bool:
        """The round is over: `result` holds its score."""
        return self.phase == OVER

    def _error(self, message: str, rule: str, code: str, seat: int | None) -> IllegalPlayError:
        seats = () if seat is None else (seat,)
        return IllegalPlayError(
            message, rule, code, seats=seats, seat=seat, trick=self.trick,
            turn=len(self.trick_plays) + 1,
        )  # fmt: skip

    def _phase(self, wanted: str, what: str, seat: int | None) -> None:
        if self.phase != wanted:
            raise self._error(f"{what} only in the {wanted} phase; the round is in the "
                              f"{self.phase} phase", "7", "SJ204", seat)  # fmt: skip

    def _seat(self, seat: int) -> None:
        if not 0 <= seat < self.n:
            raise self._error(f"there is no seat {seat + 1}", "1", "SJ207", None)

    # the draw and the bids (ruling 15) ---------------------------------------------------------

    @property
    def to_draw(self) -> int:
        """Cards the seats draw in all (the kitty excluded)."""
        return len(self.deck) - self.rules.kitty if self.deck else 0

    def verify_draw(self, seat: int) -> None:
        """Raise unless `seat` draws the next card now."""
        if self.phase != DRAW:
            self._phase(DRAW, "cards are drawn", seat)
        if not 0 <= seat < self.n:
            self._seat(seat)
        if self.drawn >= self._draw_end:
            raise self._error("every hand is full: the draw is over", "15", "SJ208", seat)
        if seat != self.turn:
            raise IllegalPlayError(
                "{0} draws next, not {1} (ruling 15)", "15", "SJ208", seats=(self.turn, seat),
                seat=seat,
            )  # fmt: skip

    def can_draw(self, seat: int) -> bool:
        """Whether `seat` draws the next card now."""
        return _can(self.verify_draw, seat)

    def draw(self, seat: int) -> DrawEvent:
        """`seat` draws the next card of the deck."""
        self.verify_draw(seat)
        self._save()
        card = self.deck[self.drawn]
        self.hands[seat] += 1 << (card << 1)
        self.drawn += 1
        self.turn = (seat + 1) % self.n
        event = DrawEvent(seat, card, self.drawn)
        self.log.append(event)
        return event

    def draw_rest(self, logged: bool = True) -> list[DrawEvent]:
        """Every card still to be drawn, drawn in turn: the same state and log as `draw(turn)`
        for each, made at once where no undo record is kept (a replay's draw, which has no
        bids between the cards). `logged=False` leaves the draw events out (and returns
        none): for a draw whose log nobody reads but the bids after it, whose times (log
        indices) keep their order."""
        if self.undoable or self.phase != DRAW:
            return [self.draw(self.turn) for _ in range(self._draw_end - self.drawn)]
        n, hands, first, end = self.n, self.hands, self.drawn, self._draw_end
        cards = self.deck[first:end]
        seats = [(self.turn + i) % n for i in range(n)]
        for i, seat in enumerate(seats):  # each seat's cards at once: every n-th from its first
            hands[seat] += sum(map(_ONE.__getitem__, cards[i::n]))
        self.drawn, self.turn = end, (self.turn + len(cards)) % n
        if not logged:
            return []
        # the events in C loops: (seat, card, number) for each card drawn
        numbers = range(first + 1, end + 1)
        events: list[DrawEvent] = list(
            map(_tuple_new, repeat(DrawEvent), zip(cycle(seats), cards, numbers, strict=False))
        )  # strict=False: cycle() never ends, `cards` and `numbers` have one length
        self.log += events
        return events

    def _bid_strength(self, cards: int) -> tuple[int, int, int | None] | str:
        """(copies, 0 rank / 1 SJ / 2 BJ, suit or None) of a bid, or why it is none."""
        ids = distinct(cards)
        if len(ids) != 1:
            return "a bid shows one card, or two copies of one card (ruling 15)"
        cid = ids[0]
        copies = count(cards, cid)
        if copies > 2:
            return "a bid shows one or two copies of a card (ruling 15)"
        if cid >= SJ:
            if copies < 2:
                return "a single joker never bids; a pair of identical jokers bids no-trump"
            return copies, 1 if cid == SJ else 2, None
        if cid >> 2 != self.rank:
            word = "10" if self.rank == 7 else "3456789TJQKA2"[self.rank]
            return f"a bid shows rank cards of the dominant rank {word}"
        return copies, 0, cid & 3

    def _bid_time(self, seat: int, cards: int) -> int:
        """When a bid counts as made: now, or for a pair that reinforces the seat's own single
        of that card, when the single was shown (an earlier bid wins at equal strength)."""
        c = distinct(cards)[0]
        if count(cards, c) == 2:
            # the single's event, found by value in a C scan (a draw event may equal it by
            # value: its type is checked)
            log, at = self.log, -1
            single = (seat, cards >> 1, c & 3 if c < SJ else None)
            while True:
                try:
                    at = log.index(single, at + 1)  # type: ignore[arg-type]
                except ValueError:
                    break
                if type(log[at]) is BidEvent:
                    return at
        return len(self.log)

    def verify_bid(self, seat: int, cards: int) -> None:
        """Raise unless `seat` may bid by showing `cards` now (ruling 15): a bid beats the
        standing one with more cards, a joker pair a rank pair, big jokers small ones; at equal
        strength the earlier wins, and a pair that reinforces the seat's own earlier single
        counts from that single. Nobody shows the second copy of a partner's bid."""
        self._phase(DRAW, "bids are made", seat)
        self._seat(seat)
        if not cards or not contains(self.hands[seat], cards):
            raise self._error("{0} does not hold " + format_hand(cards), "15", "SJ401", seat)
        strength = self._bid_strength(cards)
        if isinstance(strength, str):
            raise self._error(strength, "15", "SJ402", seat)
        if self.bid_seat is not None:
            standing = self._bid_strength(self.bid_cards)
            assert not isinstance(standing, str)
            partner = self.rules.fixed_partners and (seat - self.bid_seat) % self.n == 2
            if partner and cards == self.bid_cards:
                raise self._error("{0} may not reinforce a partner's bid (ruling 15)",
                                  "15", "SJ404", seat)  # fmt: skip
            mine = (strength[:2], -self._bid_time(seat, cards))
            if mine <= (standing[:2], -self.bid_time):
                raise self._error(
                    f"a bid must beat the standing bid {format_hand(self.bid_cards)}: more cards, "
                    "or a joker pair over a rank pair, big jokers over small; at equal strength "
                    "the earlier bid stands (ruling 15)",
                    "15", "SJ403", seat,
                )  # fmt: skip

    def can_bid(self, seat: int, cards: int) -> bool:
        """Whether `seat` may bid with `cards` now."""
        return _can(self.verify_bid, seat, cards)

    def bid(self, seat: int, cards: int) -> BidEvent:
        """`seat` bids by showing `cards` (they stay in the hand)."""
        self.verify_bid(seat, cards)
        strength = self._bid_strength(cards)
        assert not isinstance(strength, str)
        self._save()
        self.bid_time = self._bid_time(seat, cards)
        self.bid_seat, self.bid_cards = seat, cards
        event = BidEvent(seat, cards, strength[2])
        self.log.append(event)
        return event

    def verify_settle(self) -> None:
        """Raise unless the draw is over and the trump can be settled."""
        self._phase(DRAW, "the trump is settled", None)
        if self.drawn < self.to_draw:
            raise self._error(
                f"the draw goes on: {self.to_draw - self.drawn} cards are still to be drawn",
                "15", "SJ208", None,
            )  # fmt: skip

    def can_settle(self) -> bool:
        """Whether the draw is over."""
        return _can(self.verify_settle)

    def settle(self) -> SettleEvent:
        """Fix the trump and the dealer, and give the dealer the kitty (rulings 14, 15)."""
        self.verify_settle()
        self._save()
        kitty_ids = self.deck[self.drawn :]
        turned = 0
        trump: int | None
        if self.bid_seat is not None:
            strength = self._bid_strength(self.bid_cards)
            assert not isinstance(strength, str)
            trump, source = strength[2], "bid"
        elif self.rules.no_bid == "first_card":
            source, trump = "first_card", None
            for turned, cid in enumerate(kitty_ids, 1):  # noqa: B007 - turned is reported
                if cid < SJ:
                    trump = cid & 3
                    break
        else:
            source, trump = "rank_or_highest", None  # natural strength: 2 low, A high
            best: int | None = None
            for turned, cid in enumerate(kitty_ids, 1):  # noqa: B007
                if cid < SJ and cid >> 2 == self.rank:
                    best = cid
                    break
                if cid < SJ and (best is None or natural(cid >> 2) > natural(best >> 2)):
                    best = cid
            trump = None if best is None else best & 3
        dealer = self.dealer
        if dealer is None:
            dealer = self.bid_seat if self.bid_seat is not None else 0
        self.dealer = dealer
        self.order = make_order(self.rank, trump)
        kitty = from_ids(kitty_ids)
        self.hands[dealer] += kitty
        self.kitty = 0
        self.declarers = 1 << dealer
        if self.rules.fixed_partners:
            self.declarers |= 1 << (dealer + 2) % self.n
        self.phase, self.turn = EXCHANGE, dealer
        event = SettleEvent(self.order.text, dealer, source, turned, kitty)
        self.log.append(event)
        return event

    # the kitty and the calls -------------------------------------------------------------------

    def verify_exchange(self, seat: int, discard: int) -> None:
        """Raise unless the dealer `seat` may discard `discard` as the kitty (ruling 11)."""
        self._phase(EXCHANGE, "the kitty is exchanged", seat)
        if seat != self.dealer:
            raise self._error("only the dealer exchanges the kitty, not {0}", "11", "SJ305", seat)
        if not contains(self.hands[seat], discard):
            raise self._error("{0} does not hold " + _missing(self.hands[seat], discard), "11",
                              "SJ102", seat)  # fmt: skip
        if size(discard) != self.rules.kitty:
            raise self._error(f"the discard has {size(discard)} cards; the rules' kitty holds "
                              f"{self.rules.kitty} (ruling 11)", "11", "SJ303", seat)  # fmt: skip

    def can_exchange(self, seat: int, discard: int) -> bool:
        """Whether the dealer may discard `discard`."""
        return _can(self.verify_exchange, seat, discard)

    def exchange(self, seat: int, discard: int) -> ExchangeEvent:
        """The dealer discards `discard`: the kitty for the rest of the round."""
        self.verify_exchange(seat, discard)
        self._save()
        self.hands[seat] -= discard
        self.kitty = discard
        self.phase = CALL if self.rules.friends else PLAY
        self.turn = seat
        event = ExchangeEvent(seat, discard)
        self.log.append(event)
        return event

    def verify_call(self, seat: int, calls: Sequence[tuple[int, int]]) -> None:
        """Raise unless the dealer may call `calls`, each (card id, ordinal) (ruling 16)."""
        self._phase(CALL, "friends are called", seat)
        if seat != self.dealer:
            raise self._error("only the dealer calls friends, not {0}", "16", "SJ406", seat)
        if not 1 <= len(calls) <= self.rules.friends:
            raise self._error(f"the dealer calls 1 to {self.rules.friends} card(s) (ruling 16)",
                              "16", "SJ406", seat)  # fmt: skip
        for cid, ordinal in calls:
            if not 0 <= cid < 54 or not 1 <= ordinal <= self.rules.decks:
                raise self._error(f"a call names a card and its copy, 1 to {self.rules.decks}",
                                  "16", "SJ406", seat)  # fmt: skip

    def can_call(self, seat: int, calls: Sequence[tuple[int, int]]) -> bool:
        """Whether the dealer may make these calls."""
        return _can(self.verify_call, seat, calls)

    def call(self, seat: int, calls: Sequence[tuple[int, int]]) -> CallEvent:
        """The dealer calls friends: whoever plays the called copy joins the dealer's team."""
        self.verify_call(seat, calls)
        self._save()
        self.calls = tuple((int(c), int(o)) for c, o in calls)
        self.seen = (0,) * len(self.calls)
        self.phase = PLAY
        event = CallEvent(seat, self.calls)
        self.log.append(event)
        return event

    # play --------------------------------------------------------------------------------------

    def others(self, seat: int) -> list[int]:
        """The other seats' hands in play order after `seat`."""
        n = self.n
        return [self.hands[(seat + i) % n] for i in range(1, n)]

    def verify_play(self, seat: int, cards: int) -> None:
        """Raise unless `seat` may play `cards` now: to lead, cards of one effective suit it
        holds (a throw that fails is still a legal attempt, ruling 10); to follow, ruling 7."""
        self._phase(PLAY, "cards are played", seat)
        self._seat(seat)
        if seat != self.turn:
            raise IllegalPlayError(
                "it is {0}'s turn, not {1}'s", "7", "SJ202", seats=(self.turn, seat), seat=seat,
                trick=self.trick, turn=len(self.trick_plays) + 1,
            )  # fmt: skip
        assert self.order is not None
        hand = self.hands[seat]
        if self.lead is None:
            if not contains(hand, cards):
                raise self._error("{0} does not hold " + _missing(hand, cards), "6", "SJ102", seat)
            try:
                classify(self.order, cards)
            except IllegalPlayError as exc:
                raise self._error(exc.message, "6", "SJ101", seat) from None
            return
        reason = judge_follow(self.order, self.lead, hand, cards)
        if reason is not None:
            code = "SJ102" if reason.startswith("does not hold") else "SJ201"
            raise self._error(reason, "7", code, seat)

    def can_play(self, seat: int, cards: int) -> bool:
        """Whether `seat` may play `cards` now."""
        return _can(self.verify_play, seat, cards)

    def play(self, seat: int, cards: int) -> PlayEvent:
        """Verify and make a play; a throw that fails puts its forced part on the table and the
        rest back in the hand (ruling 10). Returns the event (also in `log`)."""
        self.verify_play(seat, cards)
        return self.play_legal(seat, cards)

    def play_legal(self, seat: int, cards: int, read: Format | None = None) -> PlayEvent:
        """Make a play already known to be legal (listed by `legal_plays`, or verified);
        `read` is a lead's format when the caller has read it already (`classify`)."""
        order = self.order
        assert order is not None
        if self.undoable:
            # a play changes only these (the search makes and takes back many): the seat's
            # hand and the trick, and when it ends the trick the points, the trick number,
            # the last lead and the round's end; `undo` tells the records by their length
            record: tuple[Any, ...] = (
                seat, self.hands[seat], self.lead, self.trick_plays, self.turn, self.penalties,
                self.declarers, self.seen,
            )  # fmt: skip
            if len(self.trick_plays) + 1 == self.n:
                record += (self.won, self.trick, self.last_lead, self.result, self.phase)
            self._saved.append(record)
        attempt, back, blocker, penalty = cards, 0, None, 0
        lead = self.lead
        if lead is None:
            lead = read or classify(order, cards)
            if len(lead.units) > 1:
                check = check_throw_format(order, lead, self.others(seat))
                if not check.stands:
                    cards, back = check.forced, check.back
                    blocker = (seat + 1 + (check.blocker or 0)) % self.n
                    penalty = self.rules.throw_penalty * size(back)
                    lead = classify(order, cards)
                    if penalty:
                        pens = list(self.penalties)
                        pens[seat] += penalty
                        self.penalties = tuple(pens)
            self.lead = lead
        return self._put(seat, cards, attempt, back, blocker, penalty)

    def take_trick(
        self, plays: Sequence[tuple[int, int]], logged: bool = True
    ) -> list[PlayEvent] | None:
        """Make a whole trick, `plays` ((seat, packed cards) in order), if it is certainly legal
        as written (`proven_trick`): the same state, log and events as `play` for each in turn
        (`logged=False`: no event made or logged, an empty list, for a replay that reads none).
        None, with nothing changed, for any other (each play then goes its own way, and
        `verify_play` says what is wrong), and in a round that keeps an undo record."""
        if self.lead is not None or self.undoable or self.phase != PLAY:
            return None
        assert self.order is not None
        proven = proven_trick(self.order, self.hands, self.turn, plays)
        if proven is None:
            return None
        self.lead, win = proven
        hands, number, events, table = self.hands, self.trick, [], 0
        called = sum({3 << (c << 1) for c, _ in self.calls}) if self.calls else 0  # each once
        if not (logged or called):  # no event to make, no called copy to count
            for seat, cards in plays:
                hands[seat], table = hands[seat] - cards, table + cards
        else:
            for turn, (seat, cards) in enumerate(plays, 1):
                hands[seat] -= cards
                table += cards
                # `_joins` changes nothing for a play without a called card
                joined = self._joins(seat, cards) if cards & called else None
                if logged:
                    events.append(_tuple_new(PlayEvent, (
                        seat, number, turn, cards, cards, 0, None, 0, joined, None, None
                    )))  # fmt: skip
        if not logged:  # as `_put` after the last play, without its trick's result
            self._take(plays[win][0], table, points(table))
            return events
        taken = self._taken(tuple(plays), plays[win][0], table)
        events[-1] = _tuple_new(PlayEvent, (*events[-1][:9], *taken))
        self.log += events
        return events

    def force_play(self, seat: int, attempt: int, cards: int) -> PlayEvent:
        """Recovery, for a replay that goes on after a mistake from the state a record shows
        (zfrec.games.shengji.replayer): make a play as written, unjudged. `cards` go on the
        table (for a throw recorded as failed: its forced part, `attempt` the throw); only
        the copies the seat holds leave its hand; a lead of two suits is read in the suit
        that has most of its cards. The turn passes to the next seat after `seat`."""
        assert self.order is not None
        order = self.order
        self._save()
        if self.lead is None:
            suit = suit_of(order, cards)
            if suit is None:
                suit = max(range(5), key=lambda e: size(cards & order.suit_mask[e]))
            self.lead = read_lead(order, cards, suit)
        held = self.hands[seat]
        self.hands[seat] -= from_ids(
            c for c in distinct(cards) for _ in range(min(count(cards, c), count(held, c)))
        )
        back = attempt - cards if attempt != cards and contains(attempt, cards) else 0
        penalty = self.rules.throw_penalty * size(back)
        if penalty:
            pens = list(self.penalties)
            pens[seat] += penalty
            self.penalties = tuple(pens)
        return self._put(seat, cards, attempt, back, None, penalty, taken=True)

    def _put(
        self, seat: int, cards: int, attempt: int, back: int, blocker: int | None,
        penalty: int, taken: bool = False,
    ) -> PlayEvent:  # fmt: skip
        """Put `cards` on the table for `seat` (out of its hand unless `taken`); end the trick
        after the last seat's play and the round after its last trick."""
        lead = self.lead
        assert lead is not None
        if not taken:
            self.hands[seat] -= cards
        joined = self._joins(seat, cards) if self.calls else None
        plays = (*self.trick_plays, (seat, cards))
        turn = len(plays)
        number = self.trick
        if turn < self.n:  # the common case: the trick goes on
            self.trick_plays = plays
            self.turn = (seat + 1) % self.n
            event = _tuple_new(PlayEvent, (
                seat, number, turn, cards, attempt, back, blocker, penalty, joined, None, None
            ))  # fmt: skip
            self.log.append(event)
            return event
        order = self.order
        assert order is not None
        # the last play: the trick is taken
        table = [p for _, p in plays]
        winner = plays[trick_winner(order, table, lead)][0]
        trick_result, round_result = self._taken(plays, winner, sum(table))
        event = _tuple_new(PlayEvent, (
            seat, number, turn, cards, attempt, back, blocker, penalty, joined,
            trick_result, round_result,
        ))  # fmt: skip
        self.log.append(event)
        return event

    def _taken(
        self, plays: tuple[tuple[int, int], ...], winner: int, cards: int
    ) -> tuple[TrickResult, RoundResult | None]:
        """Give the trick `plays` (`cards` its cards, packed) to `winner`, who leads next; end
        the round after its last trick."""
        pts = points(cards)
        trick_result = _tuple_new(TrickResult, (self.trick, winner, pts, plays))
        return trick_result, self._take(winner, cards, pts)

    def _take(self, winner: int, cards: int, pts: int) -> RoundResult | None:
        """`_taken` but for the trick's result: the round's, after its last trick."""
        if pts:
            won = list(self.won)
            won[winner] += pts
            self.won = tuple(won)
        self.last_lead, self.lead, self.trick_plays, self.turn = self.lead, None, (), winner
        if not any(self.hands):
            return self._finish(winner)
        self.trick += 1
        return None

    def _joins(self, seat: int, cards: int) -> int | None:
        """Zhao pengyou: count the called copies played; the seat that plays one joins."""
        joined = None
        seen = list(self.seen)
        for i, (cid, ordinal) in enumerate(self.calls):
            k = count(cards, cid)
            if not k:
                continue
            before, seen[i] = seen[i], seen[i] + k
            first_time = seat != self.dealer and not self.declarers >> seat & 1
            if before < ordinal <= seen[i] and first_time:
                self.declarers |= 1 << seat
                joined = seat
        self.seen = tuple(seen)
        return joined

    def _finish(self, last_winner: int) -> RoundResult:
        """Score the round (rulings 10 to 13) and end it."""
        rules = self.rules
        decl = self.declarers
        taken = sum(p for s, p in enumerate(self.won) if not decl >> s & 1)
        kitty_points = points(self.kitty)
        assert self.last_lead is not None
        multiplier = kitty_multiplier(self.last_lead.units[0].pairs, rules.kitty_multiplier)
        added = kitty_points * multiplier if not decl >> last_winner & 1 else 0
        penalty = sum(p if decl >> s & 1 else -p for s, p in enumerate(self.penalties))
        total = taken + added + penalty
        change = level_change(total, rules.decks)
        dealer = self.dealer if self.dealer is not None else 0
        nxt = next_dealer(dealer, self.n, decl, change.swap)
        result = RoundResult(
            decl, taken, kitty_points, multiplier, added, penalty, total, change, nxt,
            last_winner,
        )  # fmt: skip
        self.result = result
        self.phase = OVER
        return result

    # what may be played ------------------------------------------------------------------------

    def legal_leads(self) -> list[int]:
        """Every lead of the seat to act: each non-empty multiset of its cards of one
        effective suit (throws included, whether or not they would stand)."""
        assert self.order is not None
        return every_lead(self.order, self.hands[self.turn])

    def legal_plays(self) -> list[int]:
        """Every legal play of the seat to act (empty when not in the play phase)."""
        if self.phase != PLAY:
            return []
        if self.lead is None:
            return self.legal_leads()
        assert self.order is not None
        return list(legal_follows(self.order, self.lead, self.hands[self.turn]))

    def team_of(self, seat: int) -> str | None:
        """`declarers`, `opponents`, or None while a zhao pengyou seat's side is unknown."""
        if self.declarers >> seat & 1:
            return "declarers"
        if self.rules.fixed_partners or self.phase == OVER:
            return "opponents"
        joined = sum(1 for s in range(self.n) if self.declarers >> s & 1) - 1
        return "opponents" if joined >= self.rules.friends else None


@cache
def _full_deck(decks: int) -> list[int]:
    """Every card id `decks` times, in order (do not change the list)."""
    return sorted(list(range(54)) * decks)


def _missing(hand: int, cards: int) -> str:
    out = []
    for c in distinct(cards):
        out += [c] * max(count(cards, c) - count(hand, c), 0)
    return format_hand(from_ids(out))


def _can(verify: Any, *args: Any) -> bool:
    try:
        verify(*args)
    except IllegalPlayError:
        return False
    return True
