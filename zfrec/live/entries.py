"""What the live table and every game's live judge share: the entries the store keeps, the
refusals the web app answers with, and what the table asks of a game held in memory.

A game's own live judge (`GameKind.live_game`: the `live` module in each game's package)
decides what an entry means and whether it stands; the
table (`zfrec.live.table`) stores it, locks, versions and answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from zfrec.errors import ZfrecError

if TYPE_CHECKING:
    from collections.abc import Callable

    from zfrec.record.model import Game

__all__ = ["Conflict", "Entry", "EntryRefused", "HeldGame", "LiveError"]


class LiveError(ZfrecError):
    """Why an entry or request was refused. `status` is the HTTP status the web app answers."""

    status = 400

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


class EntryRefused(LiveError):
    """An illegal or ambiguous entry, in the validator's words: nothing was recorded."""

    status = 422


class Conflict(LiveError):
    """The entry does not fit where the table is (no hand started, a hand still going...)."""

    status = 409


@dataclass(frozen=True, slots=True)
class Entry:
    """One accepted entry, as the store keeps it."""

    seq: int
    kind: str  # "hand" | "move"
    data: dict[str, Any]


class HeldGame(Protocol):
    """A table's game in memory, as the kind's `live_game` makes it: what the table reads and
    calls. `enter` and `start_hand` change it only when they accept (else they raise a
    LiveError); `views` caches the JSON states by (version, viewer, since); `inferred` lists
    the seats (0-based) whose passes the last accepted move implied."""

    header: Game
    entries: list[Entry]
    version: int
    views: dict[tuple[int, int | None, int], dict[str, Any]]
    inferred: list[int]

    def record(self) -> Game: ...

    def forget_moves(self) -> None: ...

    def start_hand(
        self, first: int | None, deals: dict[int, str] | None, **fields: Any
    ) -> Entry: ...

    def enter(self, seat: int, play: str | None, **fields: Any) -> Entry: ...

    def undo(self) -> Entry: ...


class EditableGame(HeldGame, Protocol):
    """A held game whose kind takes marks and corrections (`GameKind.live_edits`)."""

    def mark_entry(self, entry: Entry, marks: dict[str, Any]) -> Entry:
        """`entry` (a move) with the table's marks changed; EntryRefused if unwritable."""
        ...

    def corrected(
        self, at: int, edit: Callable[[Any], object] | None, replace_old: bool
    ) -> tuple[HeldGame, list[dict[str, Any]]]:
        """The game with entry `at` (1-based) corrected and the later entries entered again,
        and those it no longer allows (left out)."""
        ...
