"""The hand and game state machines (RULES.md R1-R12): the one judge of every rule of play.

`HandState` (zfrec.games.zhengfen.engine.hand, re-exported here) is mutable and is changed in place
by its actions; each action returns a frozen event and appends it to `HandState.log`, and `undo()`
takes the last action back exactly, so a search makes and unmakes moves instead of copying the
state. Every action comes in three forms: `verify_*` raises `IllegalPlayError` with the reason, the
rule and the diagnostic code, `can_*` answers yes or no, and the action itself applies it.
`GameState` carries the scores from hand to hand and checks how each hand starts (R3, R4, R12).

Seats are 0-based ints here (`zfrec.games.zhengfen.engine.seats`). Errors keep the seats they
mention as fields and name them `seat 1`, `seat 2`... unless a caller renders them with player
names.

A hand of three players with two cards each:

    >>> from zfrec.games.zhengfen.engine.cards import parse_cards
    >>> hs = HandState([parse_cards(h) for h in ("3h 9h", "4s Ts", "5s Js")], leader=0)
    >>> hs.play(0, parse_cards("3h")).seat, hs.turn
    (0, 1)
    >>> hs.can_pass(1), hs.can_pass(2)
    (True, False)
    >>> hs.verify_play(2, parse_cards("5s"))
    Traceback (most recent call last):
    ...
    zfrec.errors.IllegalPlayError: it is seat 2's turn, not seat 3's (RULES.md R5)
    >>> [type(e).__name__ for e in (hs.pass_(1), hs.play(2, parse_cards("Js")))]
    ['PassEvent', 'PlayEvent']
    >>> hs.pass_(0).trick_result is None, hs.pass_(1).trick_result.winner
    (True, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from zfrec.errors import DealError, IllegalPlayError
from zfrec.games.zhengfen.engine.actions import (
    Event,
    HandResult,
    PassEvent,
    PlayEvent,
    RevealEvent,
    TrickResult,
)
from zfrec.games.zhengfen.engine.cards import THREE_OF_HEARTS
from zfrec.games.zhengfen.engine.combos import DEFAULT_RULES
from zfrec.games.zhengfen.engine.deal import (
    check_seats,
    deal_random,
    first_leader,
    hand_sizes,
    next_seat,
    verify_deal,
    verify_dealt_once,
    verify_hand_sizes,
)
from zfrec.games.zhengfen.engine.hand import HandState, best_reading
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.games.zhengfen.engine.seats import MAX_SEATS, MIN_SEATS

# HandState and best_reading live in zfrec.games.zhengfen.engine.hand, and with the events
# and the deal's checks are re-exported: the hand and the game are judged through this module.
__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "Event",
    "GameState",
    "HandResult",
    "HandState",
    "PassEvent",
    "PlayEvent",
    "RevealEvent",
    "TrickResult",
    "best_reading",
    "check_seats",
    "deal_random",
    "first_leader",
    "hand_sizes",
    "next_seat",
    "verify_deal",
    "verify_dealt_once",
    "verify_hand_sizes",
]


# --- the game ---------------------------------------------------------------------------------


@dataclass(slots=True)
class GameState:
    """Cumulative scores over hands, the target, and the winners (R4, R12).

    `start_hand` checks everything about how a hand starts and returns its `HandState`; the
    checks are also offered one by one (`verify_start`, `verify_shuffler`, `verify_deal`,
    `leader_of`), and `open_hand` starts a hand without them, for a replay that reports what
    they found and goes on from what the record shows.

    >>> from zfrec.games.zhengfen.engine.rules import preset
    >>> game = GameState(3, preset("pagat", target=100))
    >>> game.next_shuffler() is None, game.over
    (True, False)
    """

    n: int
    rules: Ruleset = DEFAULT_RULES
    scores: list[int] = field(init=False)
    hands_played: int = field(init=False, default=0)
    previous: HandResult | None = field(init=False, default=None)
    results: list[HandResult] = field(init=False, default_factory=list)
    # After a hand closed before its end (close_unfinished), who came first and last is not
    # known: the next hand's shuffler, first drawer and leader are then not checked.
    previous_unknown: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        check_seats(self.n)
        self.scores = [0] * self.n

    @property
    def over(self) -> bool:
        """A score has reached the target, so no further hand is played (R12)."""
        return any(s >= self.rules.target for s in self.scores)

    def winners(self) -> list[int]:
        """Seats with the highest score once the game is over; ties share the win (R12)."""
        if not self.over:
            return []
        best = max(self.scores)
        return [s for s in range(self.n) if self.scores[s] == best]

    def copy(self) -> GameState:
        """An independent copy: scores and results as they are now.

        >>> game = GameState(3)
        >>> later = game.copy()
        >>> later.scores[0] = 50
        >>> game.scores, later.scores
        ([0, 0, 0], [50, 0, 0])
        """
        other = GameState(self.n, self.rules)
        other.scores = list(self.scores)
        other.hands_played = self.hands_played
        other.previous = self.previous
        other.previous_unknown = self.previous_unknown
        other.results = list(self.results)
        return other

    def next_shuffler(self) -> int | None:
        """After hand 1 the last player shuffles (R4); for hand 1 any seat may."""
        return None if self.previous is None else self.previous.last

    def next_first_drawer(self, shuffler: int | None) -> int | None:
        """The previous first-out draws first; in hand 1 the seat after the shuffler (R3, R4).
        None when it is not known."""
        if self.previous_unknown:
            return None
        if self.previous is not None:
            return self.previous.first
        return None if shuffler is None else next_seat(shuffler, self.n)

    def verify_start(self, number: int | None = None, said: str | None = None) -> None:
        """Raise `IllegalPlayError` (ZF404) if the game is over, so hand `number` (by default
        the next) should not be played (R12). `said` is what the message calls it (a record's
        `hand 1 (2nd)` for its second hand 1), `hand N` by default."""
        if self.over:
            number = self.hands_played + 1 if number is None else number
            raise IllegalPlayError(
                f"a score reached the target {self.rules.target} after hand "
                f"{self.hands_played}, so {said or f'hand {number}'} should not have been played "
                "(RULES.md R12)",
                "R12",
                "ZF404",
                hand=number,
            )

    def verify_shuffler(self, shuffler: int | None) -> None:
        """Raise `DealError` (ZF306) if `shuffler` is not the previous hand's last player (R4).
        In hand 1 anyone may shuffle; None means the record does not say."""
        prev = self.previous
        if prev is not None and shuffler is not None and shuffler != prev.last:
            raise DealError(
                "{0} shuffles, but {1} came last in the previous hand and shuffles (RULES.md R4)",
                "ZF306",
                rule="R4",
                seats=(shuffler, prev.last),
                seat=shuffler,
                hand=self.hands_played + 1,
            )

    def verify_deal(self, hands: list[int], shuffler: int | None = None) -> None:
        """Raise `DealError` unless `hands` is a full deal for this table in the sizes of the
        draw order that `shuffler` (hand 1) or the previous hand (later hands) fixes (R2-R4)."""
        if len(hands) != self.n:
            raise DealError(f"the deal has {len(hands)} hands for {self.n} seats", "ZF304")
        verify_deal(hands, self.next_first_drawer(shuffler))

    def lead_card(self) -> int:
        """The card (a mask) whose holder leads this hand: the 3h in hand 1 (R4); none (0) in
        a later hand, which the previous hand's first-out leads.

        >>> from zfrec.games.zhengfen.engine.cards import format_cards
        >>> format_cards(GameState(3).lead_card())
        '3h'
        """
        return 1 << THREE_OF_HEARTS if self.previous is None else 0

    def leader_of(self, hands: list[int]) -> int:
        """Who leads the hand: the previous first-out, or in hand 1 the holder of 3h (R4)."""
        return first_leader(hands) if self.previous is None else self.previous.first

    def open_hand(
        self, hands: list[int], leader: int, number: int | None = None, undoable: bool = True
    ) -> HandState:
        """Start a hand without any check: recovery for a replay that has reported what
        start_hand's checks found and goes on from the recorded deal and leader."""
        number = self.hands_played + 1 if number is None else number
        return HandState(list(hands), leader, self.rules, number, undoable)

    def start_hand(
        self, hands: list[int], shuffler: int | None = None, number: int | None = None
    ) -> HandState:
        """Check how a hand starts (verify_start, verify_shuffler, verify_deal, the leader) and
        return its state; raises the first problem found.

        >>> from zfrec.games.zhengfen.engine.cards import parse_cards
        >>> deal = [parse_cards(h) for h in (
        ...     "3h 3s 3d 4h 5s 5h 5d 6h 7h 8h 9s 9h 9d Th Jh Ks Kd SJ",
        ...     "4s 4d 6s 6d 7s 7d 8s 8d Ts Td Js Jd Qs Qh Qd As Ah BJ",
        ...     "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kh Kc Ad Ac 2s 2h 2d 2c")]
        >>> game = GameState(3)
        >>> hs = game.start_hand(deal, shuffler=2)
        >>> hs.turn, hs.number  # seat 1 (0-based 0) holds the 3h and leads hand 1 (R4)
        (0, 1)
        >>> game.start_hand([deal[0], deal[1], deal[2] & ~parse_cards("2c")], shuffler=2)
        Traceback (most recent call last):
        ...
        zfrec.errors.DealError: the deal lacks 2c (RULES.md R2)
        """
        self.verify_start(number)
        self.verify_shuffler(shuffler)
        self.verify_deal(hands, shuffler)
        return self.open_hand(hands, self.leader_of(hands), number)

    def finish_hand(self, result: HandResult) -> None:
        """Add a finished hand's points to the scores; it decides the next shuffler and leader."""
        for seat, pts in enumerate(result.points):
            self.scores[seat] += pts
        self.hands_played += 1
        self.results.append(result)
        self.previous = result
        self.previous_unknown = False

    def close_unfinished(
        self, points: Sequence[int] | None = None, totals: Sequence[int] | None = None
    ) -> None:
        """Recovery after a hand that a record closes before play reached its end (R24): count
        it, and go on from the totals the record gives (else add the points it gives). Who
        came first and last is unknown, so the next hand's start is not checked."""
        if totals is not None:
            self.restate_scores(totals)
        elif points is not None:
            for seat, pts in enumerate(points):
                self.scores[seat] += pts
        self.hands_played += 1
        self.previous = None
        self.previous_unknown = True

    def restate_scores(self, totals: Sequence[int]) -> None:
        """Recovery: go on from the running totals a record gives where they differ from the
        computed ones, so that one wrong total is one error, not one per later hand."""
        if len(totals) != self.n:
            raise ValueError(f"{len(totals)} totals for {self.n} seats")
        self.scores[:] = list(totals)

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
