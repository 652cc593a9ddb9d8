"""The rows one game writes to the store, built from the record and its validation report: the
store core's (`core_rows`), and the kind's own (`GameKind.store_rows`; Zheng Fen's are in
zfrec.games.zhengfen.rows).

Plain dicts and tuples, no ORM object: the importer spools them to a file and writes them with
executemany (zfrec.store.importer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zfrec.diagnostics import Diagnostic
from zfrec.games import find_kind
from zfrec.record import Game
from zfrec.store.tables import player_key
from zfrec.validate import Report


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


# The columns of Zheng Fen's hand_seat and play rows (zfrec.games.zhengfen.rows), as the importer
# writes them.
HAND_SEAT_COLUMNS = ("seat", "player_id", "points", "place", "is_first", "is_last")
PLAY_COLUMNS = (
    "hand_number", "trick", "turn", "seat", "is_pass", "cards", "mask", "declarations",
    "annotation", "comment", "disputed", "dispute_note",
)  # fmt: skip
