"""Per-player statistics over many games, from their decision analyses.

This is where they are computed from the records: the store's `player_stats(...,
analysis=True)` (and so `zfrec stats`) takes every measure from here, over the stored records;
only without the analysis does the store count games, hands and outcomes in SQL.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> stats = player_aggregates([example_game()])
    >>> bo = stats["Bo"]
    >>> bo.games, bo.hands, bo.counters_conceded, bo.missed_beats, bo.win_rate
    (1, 0, 10, 1, None)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from zfrec.games.zhengfen.analysis.decisions import SeatStats
from zfrec.jsonview import dump
from zfrec.record.model import Game

if TYPE_CHECKING:
    from zfrec.games.zhengfen.analysis.analyze import GameAnalysis


@dataclass(slots=True)
class PlayerAnalysis:
    """One player's record across games (by name as written in `Players`).

    Rates are None where there is nothing to divide by.

    >>> p = PlayerAnalysis("Ann", games=2, games_over=1, wins=1, hands=10, first_out=4)
    >>> p.win_rate, p.first_rate, p.last_rate
    (1.0, 0.4, 0.0)
    >>> PlayerAnalysis("Bo").mean_points is None
    True
    """

    name: str
    games: int = 0
    games_over: int = 0  # games that reached the target
    wins: int = 0  # ties share the win (R12)
    hands: int = 0  # finished hands
    judged_hands: int = 0  # finished hands where the player's hand was known: beats judged
    first_out: int = 0
    last_out: int = 0
    points: int = 0  # hand points, after the transfer
    transfer_received: int = 0
    transfer_given: int = 0
    stats: SeatStats = field(default_factory=SeatStats)
    hands_played: int = 0  # hands sat in, finished or not

    @property
    def counters_captured(self) -> int:
        """Counters won in tricks, before the last -> first transfers."""
        return self.stats.captured

    @property
    def counters_conceded(self) -> int:
        """Counters played into tricks another player won."""
        return self.stats.conceded

    @property
    def missed_beats(self) -> int:
        """Passes although a play was legal (the player's own top play aside, R7)."""
        return self.stats.missed_beats

    @property
    def categories_played(self) -> dict[str, int]:
        """Plays per combination category, sorted by name."""
        return dict(sorted(self.stats.categories.items()))

    @property
    def first_rate(self) -> float | None:
        """First out, per finished hand."""
        return self.first_out / self.hands if self.hands else None

    @property
    def last_rate(self) -> float | None:
        """Last, per finished hand."""
        return self.last_out / self.hands if self.hands else None

    @property
    def win_rate(self) -> float | None:
        """Wins per game that reached the target."""
        return self.wins / self.games_over if self.games_over else None

    @property
    def mean_points(self) -> float | None:
        """Hand points (after the transfer), per finished hand."""
        return self.points / self.hands if self.hands else None

    @property
    def missed_beats_per_hand(self) -> float | None:
        """Missed beats per finished hand in which the player's hand was known."""
        return self.stats.missed_beats / self.judged_hands if self.judged_hands else None

    def add(self, other: PlayerAnalysis) -> None:
        """Add another record of the same person (another spelling of the name, say).

        >>> p = PlayerAnalysis("Ann", games=1, hands=3)
        >>> p.add(PlayerAnalysis("ANN", games=2, hands=5))
        >>> p.name, p.games, p.hands
        ('Ann', 3, 8)
        """
        for name in (
            "games", "games_over", "wins", "hands", "judged_hands", "first_out", "last_out",
            "points", "transfer_received", "transfer_given", "hands_played",
        ):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.stats.add(other.stats)

    def to_json(self) -> dict[str, Any]:
        """Every measure, as `zfrec stats --json` writes it under `analysis` (STORE.md)."""
        data: dict[str, Any] = dump(PlayerJson.of(self))
        return data


@dataclass(frozen=True, slots=True)
class PlayerJson:
    """The JSON of a `PlayerAnalysis`: each count followed by its rate.

    >>> PlayerJson.of(PlayerAnalysis("Ann", games=2, games_over=2, wins=1)).win_rate
    0.5
    """

    name: str
    games: int
    games_over: int
    wins: int
    win_rate: float | None
    hands: int
    hands_played: int
    first_out: int
    first_rate: float | None
    last_out: int
    last_rate: float | None
    points: int
    mean_points: float | None
    transfer_received: int
    transfer_given: int
    counters_captured: int
    counters_conceded: int
    missed_beats: int
    missed_beats_per_hand: float | None
    decisions: int
    categories_played: dict[str, int]
    specials: int
    jokers: int

    @classmethod
    def of(cls, p: PlayerAnalysis) -> PlayerJson:
        """The view of a player's record."""
        return cls(
            p.name, p.games, p.games_over, p.wins, p.win_rate, p.hands, p.hands_played, p.first_out,
            p.first_rate, p.last_out, p.last_rate, p.points, p.mean_points, p.transfer_received,
            p.transfer_given, p.counters_captured, p.counters_conceded, p.missed_beats,
            p.missed_beats_per_hand, p.stats.decisions, p.categories_played, p.stats.specials,
            p.stats.jokers,
        )  # fmt: skip


def player_aggregates(games: Iterable[Game | GameAnalysis]) -> dict[str, PlayerAnalysis]:
    """Per-player statistics over many games; games may be given analysed or as records
    (records are analysed in the fast mode, `analyze_game(game, alternatives=False)`).

    Players are matched by name, ignoring case (as in records); the first spelling is kept.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> stats = player_aggregates([example_game(), example_game()])
    >>> sorted(stats), stats["Cy"].games, stats["Cy"].counters_captured
    (['Ann', 'Bo', 'Cy'], 2, 20)
    """
    from zfrec.games.zhengfen.analysis.analyze import (
        analyze_game,
    )  # analyze re-exports this module's names

    out: dict[str, PlayerAnalysis] = {}
    keys: dict[str, str] = {}
    for item in games:
        ga = analyze_game(item, alternatives=False) if isinstance(item, Game) else item
        seats = [
            out.setdefault(keys.setdefault(name.casefold(), name), PlayerAnalysis(name))
            for name in ga.players
        ]
        for s, p in enumerate(seats):
            p.games += 1
            if ga.over:
                p.games_over += 1
                p.wins += s in ga.winners
        for h in ga.hands:
            for s, st in enumerate(h.seats):
                seats[s].stats.add(st)
                seats[s].hands_played += 1
            r = h.result
            if r is None:
                continue
            tr = h.transfer
            for s, p in enumerate(seats):
                p.hands += 1
                p.judged_hands += h.known_seats[s]
                p.points += r.points[s]
            seats[r.first].first_out += 1
            seats[r.last].last_out += 1
            if tr is not None:
                seats[tr.to_seat].transfer_received += tr.points
                seats[tr.from_seat].transfer_given += tr.points
    return {p.name: p for p in out.values()}


__all__ = ["PlayerAnalysis", "PlayerJson", "player_aggregates"]
