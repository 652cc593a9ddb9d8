"""The rows one game writes to the store, built from the record and its validation report: the
store core's (`core_rows`), and the kind's own (`GameKind.store_rows`; Zheng Fen's are in
zfrec.games.zhengfen.rows).

Plain dicts and tuples, no ORM object: the importer spools them to a file and writes them with
executemany (zfrec.store.importer).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from zfrec.diagnostics import Diagnostic
from zfrec.games import find_kind
from zfrec.record import Game
from zfrec.store.content import content_key
from zfrec.store.tables import player_key
from zfrec.validate import Report


@dataclass(frozen=True, slots=True)
class Layout:
    """Where a kind's rows per hand or round go: the table of the units (hands, rounds), of a
    unit's seats and of its plays, and the columns `Rows` holds them in. Seat and play rows
    are written after `game_id` and the unit's id (`key`); a seat row's second column is the
    player's id, which the importer puts in (Rows leaves it out)."""

    units: str  # table of the hands or rounds (Rows.hands: dicts by column)
    unit_seats: str  # table of a unit's seats (Rows.hand_seats)
    plays: str  # table of the moves (Rows.plays)
    key: str  # the column of unit_seats and plays that holds the unit's id
    number: str  # the plays' column holding the unit's number (first in a play row)
    skip: str  # the plays' column true for a move that plays no cards (pass, bid; fifth)
    seat_columns: tuple[str, ...]
    play_columns: tuple[str, ...]


@dataclass(slots=True)
class Rows:
    """Everything one new game writes, ids left out (the second pass knows them)."""

    game: dict[str, Any]
    seats: list[tuple[Any, ...]]  # (seat, player key, name, score, winner)
    hands: list[dict[str, Any]]  # the units: hands or rounds
    hand_seats: list[list[tuple[Any, ...]]]  # per unit: the columns after game_id, its id
    plays: list[list[tuple[Any, ...]]]  # per unit: the columns after game_id, its id
    diagnostics: list[Diagnostic]
    layout: Layout | None = None  # the tables they go to; None: Zheng Fen's (HANDS)


def game_rows(source: str | None, number: int, text: str, game: Game, report: Report) -> Rows:
    """Every row of `game` (canonical JSON `text`, judged in `report`), ids left out; `source`
    is the file it comes from (None: no file) and `number` its position there. The record's
    kind (zfrec.games) makes them: the store core's rows (`core_rows`) and its own."""
    rows: Rows = find_kind(game.kind).store_rows(source, number, text, game, report)
    return rows


class Judged(Protocol):
    """What the core's rows read of any kind's validation report (Zheng Fen's `Report`)."""

    @property
    def diagnostics(self) -> Sequence[Diagnostic]: ...
    @property
    def moves(self) -> int: ...
    @property
    def winners(self) -> Sequence[int]: ...
    @property
    def ok(self) -> bool: ...
    @property
    def errors(self) -> int: ...
    @property
    def warnings(self) -> int: ...


def core_rows(
    source: str | None,
    number: int,
    text: str,
    game: Game,
    report: Report | Judged,
    units: int,
    *,
    scores: Sequence[int] | None = None,
    over: bool | None = None,
) -> Rows:
    """The store core's rows of any game: the game's row (`units`: its hands or rounds), its
    seats and its diagnostics; a kind adds its own rows to them. `scores` (each seat's final
    figure) and `over` are the report's unless given (a kind whose report names them
    otherwise)."""
    result = game.result
    if scores is None or over is None:
        assert isinstance(report, Report)
        scores = report.scores if scores is None else scores
        over = report.over if over is None else over
    row = {
        "record_json": text,
        "content_key": content_key(text),
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
        "over": over,
        "valid": report.ok,
        "errors": report.errors,
        "warnings": report.warnings,
    }
    seats = [
        (
            s,
            player_key(name),
            name,
            scores[s] if s < len(scores) else None,
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
HANDS = Layout("hand", "hand_seat", "play", "hand_id", "hand_number", "is_pass",
               HAND_SEAT_COLUMNS, PLAY_COLUMNS)  # fmt: skip
