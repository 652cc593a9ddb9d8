"""The rows one game writes to the store, built from the record and its validation report.

Plain dicts and tuples, no ORM object: the importer spools them to a file and writes them with
executemany (zfrec.store.importer).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from zfrec.diagnostics import Diagnostic
from zfrec.engine.cards import card_str, format_cards
from zfrec.games import find_kind
from zfrec.record import Game
from zfrec.record.model import Move
from zfrec.store.tables import player_key
from zfrec.validate import HandLedger, Report


@dataclass(slots=True)
class Rows:
    """Everything one new game writes, ids left out (the second pass knows them)."""

    game: dict[str, Any]
    seats: list[tuple[Any, ...]]  # (seat, player key, name, score, winner)
    hands: list[dict[str, Any]]
    hand_seats: list[list[tuple[Any, ...]]]  # per hand: the columns after game_id, hand_id
    plays: list[list[tuple[Any, ...]]]  # per hand: the columns after game_id, hand_id
    diagnostics: list[Diagnostic]


def game_rows(source: str | None, number: int, text: str, game: Game, report: Report) -> Rows:
    """Every row of `game` (canonical JSON `text`, judged in `report`), ids left out; `source`
    is the file it comes from (None: no file) and `number` its position there. The record's
    kind (zfrec.games) makes them: the store core's rows (`core_rows`) and its own."""
    rows: Rows = find_kind(game.kind).store_rows(source, number, text, game, report)
    return rows


def core_rows(
    source: str | None, number: int, text: str, game: Game, report: Report, units: int
) -> Rows:
    """The store core's rows of any game: the game's row (`units`: its hands or rounds), its
    seats and its diagnostics; a kind adds its own rows to them."""
    result = game.result
    row = {
        "record_json": text,
        "source_path": source,
        "source_index": number if source is not None else None,
        "kind": game.kind,
        "event": game.event,
        "site": game.site,
        "date": game.date,
        "tags": [list(t) for t in game.extra_tags],
        "preset": game.preset,
        "options": dict(game.options),
        "target": game.target,
        "players": len(game.players),
        "result_scores": None if result is None else list(result.scores),
        "result_winners": None if result is None else list(result.winners),
        "hands": units,
        "moves": report.moves,
        "over": report.over,
        "valid": report.ok,
        "errors": report.errors,
        "warnings": report.warnings,
    }
    seats = [
        (
            s,
            player_key(name),
            name,
            report.scores[s] if s < len(report.scores) else None,
            s in report.winners,
        )
        for s, name in enumerate(game.players)
    ]
    return Rows(row, seats, [], [], [], list(report.diagnostics))


def zhengfen_rows(source: str | None, number: int, text: str, game: Game, report: Report) -> Rows:
    """Zheng Fen's rows (its kind's `store_rows`): the core's, and its hands, hand seats and
    plays."""
    rows = core_rows(source, number, text, game, report, len(game.hands))
    ledgers: list[HandLedger | None] = list(report.hands)
    if len(ledgers) != len(game.hands):  # the replay stopped before the hands (bad seat count)
        ledgers = [None] * len(game.hands)
    n = len(game.players)
    for hand, ledger in zip(game.hands, ledgers, strict=True):
        res = ledger.result if ledger else None
        rows.hands.append(
            {
                "number": hand.number,
                "shuffler": hand.shuffler,
                "first": res.first if res else None,
                "last": res.last if res else None,
                "finished": res is not None,
                "reconstructed": ledger.reconstructed if ledger else False,
                "transfer_points": res.transfer_points if res else None,
            }
        )
        order = list(res.out_order) if res else []
        if res and res.last not in order:
            order.append(res.last)
        rows.hand_seats.append(
            [
                (
                    s,
                    res.points[s] if res and s < len(res.points) else None,
                    order.index(s) + 1 if s in order else None,
                    bool(res and res.first == s),
                    bool(res and res.last == s),
                )
                for s in range(n)
            ]
        )
        plays: list[tuple[Any, ...]] = []
        rows.plays.append(plays)
        number = hand.number
        for t, trick in enumerate(hand.tricks, 1):
            for turn, move in enumerate(trick.moves, 1):
                if move.annotation is not None or move.comments or move.disputed:
                    plays.append(_play_row(move, number, t, turn))
                elif move.is_pass:  # most moves are plain: their rows made here, without a call
                    plays.append(
                        (number, t, turn, move.seat, True, None, 0, None, None, None, False, None)
                    )
                elif not move.declarations:
                    cards = _cards_text(move.cards)
                    plays.append(
                        (
                            number,
                            t,
                            turn,
                            move.seat,
                            False,
                            cards,
                            move.cards,
                            None,
                            None,
                            None,
                            False,
                            None,
                        )
                    )
                else:
                    plays.append(_play_row(move, number, t, turn))
    return rows


HAND_SEAT_COLUMNS = ("seat", "player_id", "points", "place", "is_first", "is_last")
PLAY_COLUMNS = (
    "hand_number", "trick", "turn", "seat", "is_pass", "cards", "mask", "declarations",
    "annotation", "comment", "disputed", "dispute_note",
)  # fmt: skip


def _play_row(move: Move, hand_number: int, trick: int, turn: int) -> tuple[Any, ...]:
    decls = " ".join(f"{card_str(j)}={stand}" for j, stand in move.declarations)
    return (
        hand_number,
        trick,
        turn,
        move.seat,
        move.is_pass,
        None if move.is_pass else _cards_text(move.cards),
        move.cards,
        decls or None,
        move.annotation,
        "\n\n".join(move.comments) or None,
        move.disputed,
        move.dispute_note,
    )


@lru_cache(maxsize=1 << 16)
def _cards_text(mask: int) -> str:
    return format_cards(mask)
