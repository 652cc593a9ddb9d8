"""What the hand state machine's actions return and log
(zfrec.games.zhengfen.engine.game.HandState): a `PlayEvent` or a `PassEvent`, with the trick's and
the hand's results when the action ended them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from zfrec.core import Trade
from zfrec.games.zhengfen.engine.combos import Combo

__all__ = ["Event", "HandResult", "Logged", "PassEvent", "PlayEvent", "RevealEvent", "TrickResult"]


class TrickResult(NamedTuple):
    """A trick taken: who took it, the cards and points in it, and who leads next (R6, R8).

    A named tuple, as the events are: one is made per trick of every replay and search.
    """

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


# The events are named tuples: immutable, and about four times cheaper to make than frozen
# dataclasses, which matters at one event per action.


class PlayEvent(NamedTuple):
    """A play made: by `seat`, as the `turn`-th action of trick `trick`, read as `combo`.

    `out_place` is 1 when the play took the seat's last card first, 2 second...; the results
    are set when the play ended the trick (the last holder's one turn, R9) or the hand.
    """

    seat: int
    trick: int
    turn: int
    combo: Combo
    out_place: int | None  # 1 for the first seat to go out, ...
    trick_result: TrickResult | None = None
    hand_result: HandResult | None = None


class PassEvent(NamedTuple):
    """A pass by `seat`, the `turn`-th action of trick `trick`; the results are set when the
    pass ended the trick (R6, R7, R9) or the hand."""

    seat: int
    trick: int
    turn: int
    trick_result: TrickResult | None = None
    hand_result: HandResult | None = None


Event = PlayEvent | PassEvent


class RevealEvent(NamedTuple):
    """Cards `seat` was shown to hold that a guessed deal had placed with other seats, traded
    for its own guessed cards (zfrec.core.Deal.reveal) before trick `trick`'s `turn`-th action.
    It ends nothing: the results are always None."""

    seat: int
    trick: int
    turn: int
    trades: tuple[Trade, ...]
    trick_result: None = None
    hand_result: None = None


# What HandState.log holds: the actions, and the reveals before them.
Logged = PlayEvent | PassEvent | RevealEvent
