"""Zheng Fen's validation (its kind's `validate`): the `Validator` visitor, which collects a
record's diagnostics and each hand's ledger (`HandLedger`) off the one replay stream into a
`zfrec.validate.Report`. Nothing here applies a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from zfrec.diagnostics import Diagnostic
from zfrec.events import GameEnd, HandEnd, HandStart, ReplayState, ReplayVisitor, walk
from zfrec.games.zhengfen.engine.cards import points_of
from zfrec.games.zhengfen.engine.game import HandResult
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.jsonview import CardsText, PerPlayer, PlayerName, PlayerNames, dump, key
from zfrec.record import Game
from zfrec.validate import Report

__all__ = ["HandLedger", "Validator", "validate_zhengfen"]


@dataclass(frozen=True, slots=True)
class HandLedger:
    """One hand's account: the deal used, the points with the transfer itemised, the totals."""

    number: int
    deal: tuple[int, ...]
    reconstructed: bool
    result: HandResult | None
    totals: tuple[int, ...]

    def to_json(self, players: list[str]) -> dict[str, Any]:
        """The ledger as `zfrec validate --json` writes it, seats by their players' names."""
        data: dict[str, Any] = dump(_LedgerJson.of(self), players=players)
        return data


@dataclass(frozen=True, slots=True)
class _TransferJson:
    from_: Annotated[PlayerName, key("from")]
    to: PlayerName
    tricks_points: int
    hand_points: int
    cards: CardsText


@dataclass(frozen=True, slots=True)
class _LedgerJson:
    hand: int
    deal_reconstructed: bool
    deal: PerPlayer[CardsText]
    finished: bool
    points: PerPlayer[int] | None
    first: PlayerName | None
    last: PlayerName | None
    out_order: PlayerNames | None
    transfer: _TransferJson | None
    totals: PerPlayer[int]

    @classmethod
    def of(cls, ledger: HandLedger) -> _LedgerJson:
        r = ledger.result
        if r is None:
            return cls(ledger.number, ledger.reconstructed, ledger.deal, False, None, None, None,
                       None, None, ledger.totals)  # fmt: skip
        transfer = _TransferJson(
            r.last, r.first, points_of(r.transfer_tricks), points_of(r.transfer_hand),
            r.transfer_tricks | r.transfer_hand,
        )  # fmt: skip
        return cls(ledger.number, ledger.reconstructed, ledger.deal, True, r.points, r.first,
                   r.last, r.out_order, transfer, ledger.totals)  # fmt: skip


class Validator(ReplayVisitor):
    """A replay visitor that collects a record's diagnostics and ledger into a `Report`.

    It reads no moves: alone in a walk, it lets the replay skip the per-action `MoveStep`s.
    The diagnostics are the replay's own list of them (`ReplayState.diagnostics`), and the
    actions are counted by hand (`HandEnd.moves`).

    >>> import zfrec
    >>> from zfrec.replay import walk
    >>> game = next(zfrec.load("sample_games/02-three-players.zfn"))
    >>> validator = Validator(game, game.ruleset())
    >>> end = walk(game, [validator])
    >>> validator.report().ok, len(validator.report().hands) == len(game.hands)
    (True, True)
    """

    __slots__ = ("end", "found", "hands", "moves", "record", "rules", "start")

    def __init__(self, record: Game, rules: Ruleset) -> None:
        self.record, self.rules = record, rules
        self.found: list[Diagnostic] = []
        self.hands: list[HandLedger] = []
        self.start: HandStart | None = None
        self.moves = 0
        self.end = GameEnd((), (), False)

    def visit_hand_start(self, state: ReplayState, event: HandStart) -> None:
        """Keep the deal for the hand's ledger."""
        self.start = event

    def visit_hand_end(self, state: ReplayState, event: HandEnd) -> None:
        """Close the hand's ledger and count its actions."""
        self.moves += event.moves
        start = self.start
        assert start is not None
        self.hands.append(
            HandLedger(
                self.record.hands[event.hand_index].number,
                start.deal,
                start.reconstructed,
                event.result,
                event.totals,
            )
        )

    def visit_game_end(self, state: ReplayState, event: GameEnd) -> None:
        """Keep the final scores and winners, and every diagnostic of the replay."""
        self.found = state.diagnostics
        self.end = event

    def report(self) -> Report:
        """What was found, as a Report (complete once the walk is over)."""
        end = self.end
        return Report(
            self.record, self.rules, tuple(self.found), tuple(self.hands), end.scores,
            end.winners, end.over, self.moves,
        )  # fmt: skip


def validate_zhengfen(
    record: Game,
    rules: Ruleset | None = None,
    game_number: int | None = None,
    overrides: dict[str, Any] | None = None,
) -> Report:
    """Zheng Fen's validation (its kind's `validate`): one walk with the Validator visitor."""
    used = rules or record.ruleset()
    if overrides:
        used = used.with_options(**overrides)
    validator = Validator(record, used)
    walk(record, (validator,), used, game_number)
    if validator.found and record.locate is not None:
        # A JSON record: what was found, and the causes it names, get their places in the
        # text, found only now (zfrec.record.jsonpos), and the record is judged again.
        record.locate(record)
        record.locate = None
        validator = Validator(record, used)
        walk(record, (validator,), used, game_number)
    return validator.report()
