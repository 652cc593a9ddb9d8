"""The error hierarchy. Every error can carry where it happened."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Location:
    """Where something happened: a place in a source file and/or a place in the game."""

    file: str | None = None
    line: int | None = None
    col: int | None = None
    game: int | None = None
    hand: int | None = None
    trick: int | None = None
    turn: int | None = None
    seat: str | None = None

    def source(self) -> str:
        """`file:line:col`, with the parts that are known."""
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def play(self) -> str:
        """`game 1, hand 2, trick 3, turn 4 (seat)`, with the parts that are known."""
        bits = [
            f"{name} {value}"
            for name, value in (
                ("game", self.game),
                ("hand", self.hand),
                ("trick", self.trick),
                ("turn", self.turn),
            )
            if value is not None
        ]
        text = ", ".join(bits)
        if self.seat is not None:
            text = f"{text} ({self.seat})" if text else self.seat
        return text

    def __str__(self) -> str:
        play = self.play()
        return f"{self.source()} [{play}]" if play else self.source()


class ZfrecError(Exception):
    """Base class of every error zfrec raises on purpose. The CLI turns it into a message."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


class CardError(ZfrecError):
    """A card, card list or joker declaration is malformed.

    `offset` is the index in the parsed text where the problem is, so readers of larger texts
    (the .zfn lexer) can point at the very character.
    """

    def __init__(self, message: str, location: Location | None = None, offset: int = 0) -> None:
        super().__init__(message, location)
        self.offset = offset


class SeatError(ZfrecError):
    """A seat reference (a 1-based number or a player name) names no seat of the game."""


class NotationError(ZfrecError):
    """A record is not well-formed text or JSON."""


class RulesError(ZfrecError):
    """An unknown preset or option."""


class IllegalPlayError(ZfrecError):
    """An action breaks a rule. `rule` names the section of RULES.md, `code` the diagnostic."""

    def __init__(
        self, message: str, rule: str, code: str, location: Location | None = None
    ) -> None:
        super().__init__(message, location)
        self.rule = rule
        self.code = code


class AmbiguousPlayError(IllegalPlayError):
    """An undeclared lead reads as more than one category (RULES.md R22)."""


class ScoreMismatchError(ZfrecError):
    """A recorded score differs from the computed one."""


class DealError(ZfrecError):
    """A deal is impossible: duplicated or missing cards, wrong hand sizes. `code` as above."""

    def __init__(self, message: str, code: str, location: Location | None = None) -> None:
        super().__init__(message, location)
        self.code = code
