"""Where the points went: each trick taken, each hand's last -> first transfer, and the running
scores row by row (the points flow of a game, `GameAnalysis.points_flow()`).

    >>> from zfrec.games.zhengfen.analysis.analyze import analyze_game
    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> analysis = analyze_game(example_game())
    >>> [(r.trick, analysis.players[r.seat], r.points, r.scores) for r in analysis.points_flow()]
    [(1, 'Ann', 5, (5, 0, 0)), (2, 'Cy', 10, (5, 0, 10)), (3, 'Cy', 0, (5, 0, 10)), \
(4, 'Cy', 0, (5, 0, 10))]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from zfrec.jsonview import CardsText, PerPlayer, PlayerName, dump, key


@dataclass(frozen=True, slots=True)
class TrickFlow:
    """One trick taken: who took it, the counters in it, who put them there.

    >>> t = TrickFlow(1, 2, winner=2, points=10, cards=1 << 29, contributed=(0, 10, 0),
    ...               captured=(5, 0, 10))
    >>> t.conceded(1), t.conceded(2)
    (10, 0)
    >>> t.to_json(["Ann", "Bo", "Cy"])["contributed"]
    {'Ann': 0, 'Bo': 10, 'Cy': 0}
    """

    hand: int
    trick: int
    winner: PlayerName
    points: int
    cards: CardsText
    contributed: PerPlayer[int]  # counters each seat played into the trick
    captured: PerPlayer[int]  # counters each seat has taken in this hand so far, before transfer

    def conceded(self, seat: int) -> int:
        """The counters `seat` put into this trick, unless it took the trick itself."""
        return 0 if seat == self.winner else self.contributed[seat]

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        """The trick as `zfrec analyze --json` writes it: seats by name, cards as text."""
        data: dict[str, Any] = dump(self, players=players)
        return data


@dataclass(frozen=True, slots=True)
class Transfer:
    """The last player's tricks and hand, given to the first out (RULES.md R11).

    >>> t = Transfer(from_seat=2, to_seat=0, trick_points=15, hand_points=10, cards=1 << 8)
    >>> t.points
    25
    >>> t.to_json(["Ann", "Bo", "Cy"])
    {'from': 'Cy', 'to': 'Ann', 'points': 25, 'trick_points': 15, 'hand_points': 10, \
'cards': '5s'}
    """

    from_seat: int
    to_seat: int
    trick_points: int
    hand_points: int
    cards: int

    @property
    def points(self) -> int:
        """All the counters given: those of the tricks and those left in the hand."""
        return self.trick_points + self.hand_points

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        """The transfer as `zfrec analyze --json` writes it (ANALYSIS.md)."""
        data: dict[str, Any] = dump(TransferJson.of(self), players=players)
        return data


@dataclass(frozen=True, slots=True)
class TransferJson:
    """The JSON of a `Transfer`: giver and receiver by name, the total before its parts.

    >>> TransferJson.of(Transfer(2, 0, 15, 10, 1 << 8)).points
    25
    """

    from_: Annotated[PlayerName, key("from")]
    to: PlayerName
    points: int
    trick_points: int
    hand_points: int
    cards: CardsText

    @classmethod
    def of(cls, t: Transfer) -> TransferJson:
        """The view of a transfer."""
        return cls(t.from_seat, t.to_seat, t.points, t.trick_points, t.hand_points, t.cards)


@dataclass(frozen=True, slots=True)
class FlowRow:
    """One step of a game's points flow: a trick taken, or a hand's last -> first transfer.

    `scores` are the running game scores after this step, counting captured counters as they
    fall; after a hand's transfer row they equal the hand's computed running totals.

    >>> row = FlowRow(1, None, "transfer", seat=0, from_seat=2, points=25, scores=(60, 20, 20))
    >>> row.to_json(["Ann", "Bo", "Cy"])
    {'hand': 1, 'trick': None, 'kind': 'transfer', 'player': 'Ann', 'from': 'Cy', 'points': 25, \
'scores': {'Ann': 60, 'Bo': 20, 'Cy': 20}}
    """

    hand: int
    trick: int | None  # None on the transfer row
    kind: Literal["trick", "transfer"]
    seat: Annotated[PlayerName, key("player")]  # the trick's winner, or the transfer's receiver
    from_seat: Annotated[PlayerName | None, key("from")]  # the giver of the transfer
    points: int
    scores: PerPlayer[int]

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        """The row as `zfrec analyze --json` and `zfrec show --json` write it."""
        data: dict[str, Any] = dump(self, players=players)
        return data


__all__ = ["FlowRow", "Transfer", "TransferJson", "TrickFlow"]
