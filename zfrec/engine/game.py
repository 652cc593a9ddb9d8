"""The hand and game state machines (RULES.md R1-R12).

`HandState` is mutable and is changed in place by its actions; each action returns a frozen
event for the log. Every action comes in three forms: `verify_*` raises `IllegalPlayError` with
the reason and the rule, `can_*` answers yes or no, and the action itself applies it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from zfrec.engine.cards import (
    DECK_SIZE,
    FULL_DECK,
    THREE_OF_HEARTS,
    Declarations,
    format_cards,
    points_of,
)
from zfrec.engine.combos import DEFAULT_RULES, Combo, resolve
from zfrec.engine.rules import Ruleset
from zfrec.errors import DealError, IllegalPlayError

MIN_SEATS, MAX_SEATS = 3, 6


def check_seats(n: int) -> None:
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise DealError(f"Zheng Fen is for 3 to 6 players, not {n} (RULES.md R1)", "ZF405")


def next_seat(seat: int, n: int) -> int:
    """The next seat in play order (anticlockwise, the right-hand neighbour; R1)."""
    return (seat + 1) % n


def hand_sizes(n: int, first_drawer: int) -> list[int]:
    """Cards each seat draws: one at a time from `first_drawer` on, until all 54 are taken (R3)."""
    check_seats(n)
    base, extra = divmod(DECK_SIZE, n)
    sizes = [base] * n
    for i in range(extra):
        sizes[(first_drawer + i) % n] += 1
    return sizes


def deal_random(n: int, first_drawer: int, rng: random.Random) -> list[int]:
    """A shuffled pack drawn in play order from `first_drawer`, as one mask per seat."""
    pack = list(range(DECK_SIZE))
    rng.shuffle(pack)
    hands = [0] * n
    for i, card in enumerate(pack):
        hands[(first_drawer + i) % n] |= 1 << card
    return hands


def verify_deal(hands: list[int], first_drawer: int | None) -> None:
    """A full deal holds each of the 54 cards once, in the sizes the draw order gives (R2, R3)."""
    n = len(hands)
    check_seats(n)
    seen = 0
    for seat, hand in enumerate(hands):
        twice = seen & hand
        if twice:
            raise DealError(
                f"{format_cards(twice)} dealt twice (seat {seat + 1}; RULES.md R2)", "ZF302"
            )
        seen |= hand
    if seen != FULL_DECK:
        raise DealError(f"the deal lacks {format_cards(FULL_DECK & ~seen)} (RULES.md R2)", "ZF303")
    sizes = [h.bit_count() for h in hands]
    candidates = range(n) if first_drawer is None else [first_drawer]
    if all(sizes != hand_sizes(n, d) for d in candidates):
        want = "" if first_drawer is None else f", expected {hand_sizes(n, first_drawer)}"
        raise DealError(
            f"hand sizes {sizes} do not follow the draw order{want} (RULES.md R3)", "ZF304"
        )


# --- events -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrickResult:
    """A trick taken: who took it, the cards and points in it, and who leads next (R6, R8)."""

    number: int
    winner: int
    cards: int
    points: int
    next_leader: int | None  # None when the hand is over


@dataclass(frozen=True, slots=True)
class HandResult:
    """The end of a hand: going-out order, the last -> first transfer, and points (R9-R11)."""

    out_order: tuple[int, ...]
    first: int
    last: int
    transfer_tricks: int  # cards the last seat had won, given to the first
    transfer_hand: int  # cards left in the last seat's hand, given to the first
    transfer_points: int
    taken: tuple[int, ...]  # cards each seat scores, after the transfer
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayEvent:
    seat: int
    trick: int
    turn: int
    combo: Combo
    out_place: int | None  # 1 for the first seat to go out, ...
    trick_result: TrickResult | None = None
    hand_result: HandResult | None = None


@dataclass(frozen=True, slots=True)
class PassEvent:
    seat: int
    trick: int
    turn: int
    trick_result: TrickResult | None = None
    hand_result: HandResult | None = None


Event = PlayEvent | PassEvent

# What an action may change, saved before it so that undo() restores it exactly: turn, trick,
# turn_in_trick, top, top_seat, trick_cards, passed, final_turn, result, hands, won, and how
# many seats were out. Hands and won are tuples of at most six ints, so a snapshot is cheap.
_Saved = tuple[
    int, int, int, Combo | None, int | None, int, frozenset[int], bool, "HandResult | None",
    tuple[int, ...], tuple[int, ...], int,
]  # fmt: skip


# --- one hand ---------------------------------------------------------------------------------


@dataclass(slots=True)
class HandState:
    """A hand in progress. Seats are 0..n-1 in play order.

    Every action appends its frozen event to `log`, and `undo()` takes the last one back,
    restoring the state exactly: search makes and unmakes moves instead of copying the state.

    >>> from zfrec.engine.cards import parse_cards
    >>> hs = HandState([parse_cards(h) for h in ("3h 4s", "5s 6s", "7s 8s")], leader=0)
    >>> event = hs.play(0, parse_cards("3h"))
    >>> (hs.turn, len(hs.log))
    (1, 1)
    >>> hs.undo() == event, hs.turn, hs.hands[0] == parse_cards("3h 4s"), hs.log
    (True, 0, True, [])
    """

    hands: list[int]
    leader: int
    rules: Ruleset = DEFAULT_RULES
    number: int = 1
    turn: int = field(init=False)
    trick: int = field(init=False, default=1)
    turn_in_trick: int = field(init=False, default=1)
    top: Combo | None = field(init=False, default=None)
    top_seat: int | None = field(init=False, default=None)
    trick_cards: int = field(init=False, default=0)
    passed: set[int] = field(init=False, default_factory=set)
    won: list[int] = field(init=False)
    out_order: list[int] = field(init=False, default_factory=list)
    final_turn: bool = field(init=False, default=False)
    result: HandResult | None = field(init=False, default=None)
    log: list[Event] = field(init=False, default_factory=list)
    _saved: list[_Saved] = field(init=False, default_factory=list, repr=False)

    def __post_init__(self) -> None:
        check_seats(len(self.hands))
        self.won = [0] * len(self.hands)
        self.turn = self.leader

    def _save(self) -> None:
        self._saved.append(
            (
                self.turn, self.trick, self.turn_in_trick, self.top, self.top_seat,
                self.trick_cards, frozenset(self.passed), self.final_turn, self.result,
                tuple(self.hands), tuple(self.won), len(self.out_order),
            )
        )  # fmt: skip

    def undo(self) -> Event:
        """Take back the last action and return its event; raise IndexError if there is none."""
        if not self.log:
            raise IndexError("nothing to undo: no action has been taken in this hand")
        (
            self.turn, self.trick, self.turn_in_trick, self.top, self.top_seat,
            self.trick_cards, passed, self.final_turn, self.result, hands, won, out,
        ) = self._saved.pop()  # fmt: skip
        self.passed = set(passed)
        self.hands[:] = hands
        self.won[:] = won
        del self.out_order[out:]
        return self.log.pop()

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def over(self) -> bool:
        return self.result is not None

    def holding(self) -> list[int]:
        """Seats that still hold cards, in seat order."""
        return [s for s in range(self.n) if self.hands[s]]

    def is_lead(self) -> bool:
        return self.top is None

    # verify / can / act -----------------------------------------------------------------------

    def _verify_turn(self, seat: int) -> None:
        if self.over:
            raise IllegalPlayError(
                "the hand is over: no play follows the final trick (RULES.md R9)", "R9", "ZF204"
            )
        if not 0 <= seat < self.n:
            raise IllegalPlayError(f"there is no seat {seat + 1}", "R1", "ZF201")
        if not self.hands[seat]:
            raise IllegalPlayError(
                f"seat {seat + 1} is out and takes no further part (RULES.md R8)", "R8", "ZF202"
            )
        if seat != self.turn:
            raise IllegalPlayError(
                f"it is seat {self.turn + 1}'s turn, not seat {seat + 1}'s (RULES.md R5)",
                "R5",
                "ZF201",
            )

    def verify_play(self, seat: int, mask: int, declarations: Declarations | None = None) -> Combo:
        """The reading this play takes, or raise with the reason."""
        self._verify_turn(seat)
        missing = mask & ~self.hands[seat]
        if missing:
            raise IllegalPlayError(
                f"seat {seat + 1} does not hold {format_cards(missing)} (RULES.md R3)",
                "R3",
                "ZF301",
            )
        return resolve(mask, self.top, self.rules, declarations)

    def can_play(self, seat: int, mask: int, declarations: Declarations | None = None) -> bool:
        try:
            self.verify_play(seat, mask, declarations)
        except IllegalPlayError:
            return False
        return True

    def play(self, seat: int, mask: int, declarations: Declarations | None = None) -> PlayEvent:
        return self.play_combo(seat, self.verify_play(seat, mask, declarations))

    def play_combo(self, seat: int, combo: Combo) -> PlayEvent:
        """Apply a play already verified (the replay uses this after verify_play)."""
        self._save()
        trick, turn = self.trick, self.turn_in_trick
        self.hands[seat] &= ~combo.mask
        self.trick_cards |= combo.mask
        self.top, self.top_seat = combo, seat
        self.passed.clear()
        out_place = None
        if not self.hands[seat]:
            self.out_order.append(seat)
            out_place = len(self.out_order)
        self.turn_in_trick += 1
        trick_result = hand_result = None
        holders = sum(1 for h in self.hands if h)
        if self.final_turn or not holders:
            trick_result, hand_result = self._end_trick(final=True)
        elif holders == 1:
            last = self.holding()[0]
            if last == seat:  # cannot happen: a play that leaves one holder came from another seat
                trick_result, hand_result = self._end_trick(final=True)
            else:
                self.final_turn = True  # the last holder gets exactly one turn (R9)
                self.turn = last
        else:
            self.turn = self._next_holder(seat)
        event = PlayEvent(seat, trick, turn, combo, out_place, trick_result, hand_result)
        self.log.append(event)
        return event

    def verify_pass(self, seat: int) -> None:
        self._verify_turn(seat)
        if self.top is None:
            raise IllegalPlayError(
                f"seat {seat + 1} leads and must play; a leader may not pass (RULES.md R5)",
                "R5",
                "ZF105",
            )

    def can_pass(self, seat: int) -> bool:
        try:
            self.verify_pass(seat)
        except IllegalPlayError:
            return False
        return True

    def pass_(self, seat: int) -> PassEvent:
        self.verify_pass(seat)
        self._save()
        trick, turn = self.trick, self.turn_in_trick
        self.turn_in_trick += 1
        self.passed.add(seat)
        after = self._after_pass(seat, self.passed)
        if after is None:
            trick_result, hand_result = self._end_trick(final=self.final_turn)
            event = PassEvent(seat, trick, turn, trick_result, hand_result)
        else:
            self.turn = after
            event = PassEvent(seat, trick, turn)
        self.log.append(event)
        return event

    def pass_chain(self) -> list[int]:
        """The seats that would act, in order, if each of them passed; the trick ends after the
        last. Empty on a lead, where nobody may pass. The replay infers omitted passes from it."""
        if self.over or self.top is None:
            return []
        chain, passed, seat = [], set(self.passed), self.turn
        while True:
            chain.append(seat)
            passed.add(seat)
            after = self._after_pass(seat, passed)
            if after is None or len(chain) > 2 * self.n:
                return chain
            seat = after

    def _after_pass(self, seat: int, passed: set[int]) -> int | None:
        """Who acts after `seat` passes, or None when that pass ends the trick (R6, R7, R9)."""
        if self.final_turn or seat == self.top_seat:
            # The last holder's one turn, or the top player declining to beat their own play.
            return None
        top, hands = self.top_seat, self.hands
        assert top is not None
        if all(s in passed or s == top or not hands[s] for s in range(self.n)):
            if self.rules.self_overplay and hands[top]:
                return top  # may beat their own play (R7)
            return None
        return self._next_holder(seat)

    # internals ------------------------------------------------------------------------------

    def _next_holder(self, seat: int) -> int:
        s = next_seat(seat, self.n)
        while not self.hands[s]:
            s = next_seat(s, self.n)
        return s

    def _end_trick(self, final: bool) -> tuple[TrickResult, HandResult | None]:
        assert self.top_seat is not None
        winner = self.top_seat
        cards = self.trick_cards
        self.won[winner] |= cards
        number = self.trick
        self.trick += 1
        self.turn_in_trick = 1
        self.top, self.top_seat, self.trick_cards = None, None, 0
        self.passed.clear()
        if final:
            self.result = self._score()
            return TrickResult(number, winner, cards, points_of(cards), None), self.result
        # The winner leads; if they are out, the lead passes on in play order (R8).
        leader = winner if self.hands[winner] else self._next_holder(winner)
        self.turn = leader
        return TrickResult(number, winner, cards, points_of(cards), leader), None

    def _score(self) -> HandResult:
        holding = self.holding()
        last = holding[0] if holding else self.out_order[-1]
        order = [*self.out_order, last] if holding else list(self.out_order)
        first = order[0]
        taken = list(self.won)
        transfer_tricks, transfer_hand = taken[last], self.hands[last]
        taken[first] |= transfer_tricks | transfer_hand
        taken[last] = 0
        return HandResult(
            out_order=tuple(order),
            first=first,
            last=last,
            transfer_tricks=transfer_tricks,
            transfer_hand=transfer_hand,
            transfer_points=points_of(transfer_tricks | transfer_hand),
            taken=tuple(taken),
            points=tuple(points_of(t) for t in taken),
        )


# --- the game ---------------------------------------------------------------------------------


def first_leader(hands: list[int]) -> int:
    """Hand 1 is led by the holder of the three of hearts (R4)."""
    for seat, hand in enumerate(hands):
        if hand >> THREE_OF_HEARTS & 1:
            return seat
    raise DealError("nobody holds the three of hearts (RULES.md R4)", "ZF303")


@dataclass(slots=True)
class GameState:
    """Cumulative scores over hands, the target, and the winners (R4, R12)."""

    n: int
    rules: Ruleset = DEFAULT_RULES
    scores: list[int] = field(init=False)
    hands_played: int = field(init=False, default=0)
    previous: HandResult | None = field(init=False, default=None)
    results: list[HandResult] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        check_seats(self.n)
        self.scores = [0] * self.n

    @property
    def over(self) -> bool:
        return any(s >= self.rules.target for s in self.scores)

    def winners(self) -> list[int]:
        """Seats with the highest score once the game is over; ties share the win (R12)."""
        if not self.over:
            return []
        best = max(self.scores)
        return [s for s in range(self.n) if self.scores[s] == best]

    def next_shuffler(self) -> int | None:
        """After hand 1 the last player shuffles (R4); for hand 1 any seat may."""
        return None if self.previous is None else self.previous.last

    def next_first_drawer(self, shuffler: int | None) -> int | None:
        """The previous first-out draws first; in hand 1 the seat after the shuffler (R3, R4)."""
        if self.previous is not None:
            return self.previous.first
        return None if shuffler is None else next_seat(shuffler, self.n)

    def start_hand(self, hands: list[int], shuffler: int | None = None) -> HandState:
        if self.over:
            raise IllegalPlayError(
                "the game is over: a score has reached the target (RULES.md R12)", "R12", "ZF404"
            )
        if len(hands) != self.n:
            raise DealError(f"the deal has {len(hands)} hands for {self.n} seats", "ZF304")
        verify_deal(hands, self.next_first_drawer(shuffler))
        leader = first_leader(hands) if self.previous is None else self.previous.first
        return HandState(list(hands), leader, self.rules, self.hands_played + 1)

    def finish_hand(self, result: HandResult) -> None:
        """Add a finished hand's points to the scores; it decides the next shuffler and leader."""
        for seat, pts in enumerate(result.points):
            self.scores[seat] += pts
        self.hands_played += 1
        self.results.append(result)
        self.previous = result

    def unfinish_hand(self) -> HandResult:
        """Take back the last finish_hand (an undo across the end of a hand) and return it."""
        if not self.results:
            raise IndexError("no hand has been finished")
        result = self.results.pop()
        for seat, pts in enumerate(result.points):
            self.scores[seat] -= pts
        self.hands_played -= 1
        self.previous = self.results[-1] if self.results else None
        return result
