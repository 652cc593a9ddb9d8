"""Diagnostics: what the validator finds, with a stable code, the rule it cites, and where.

Every code is documented in DIAGNOSTICS.md. Codes never change meaning; new ones are added.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from zfrec.errors import Location

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, slots=True)
class CodeInfo:
    """What a diagnostic code means: its severity, a short title and the rule it cites."""

    severity: Severity
    title: str
    rule: str | None


CODES: dict[str, CodeInfo] = {
    # the record itself
    "ZF001": CodeInfo("error", "syntax error in the text notation", None),
    "ZF002": CodeInfo("error", "JSON record does not match the schema", None),
    # plays
    "ZF101": CodeInfo("error", "not a legal combination", "R14"),
    "ZF102": CodeInfo("error", "ambiguous lead: declare the jokers", "R22"),
    "ZF103": CodeInfo("error", "does not beat the top play", "R19"),
    "ZF104": CodeInfo("error", "invalid joker declaration", "R21"),
    "ZF105": CodeInfo("error", "a pass where a lead is due", "R5"),
    # turns and tricks
    "ZF201": CodeInfo("error", "out of turn", "R5"),
    "ZF202": CodeInfo("error", "a seat that is out acts", "R8"),
    "ZF203": CodeInfo("error", "wrong leader", "R4"),
    "ZF204": CodeInfo("error", "action after the hand ended", "R9"),
    "ZF205": CodeInfo("error", "trick boundary differs from the rules", "R6"),
    "ZF206": CodeInfo("warning", "hand not finished", "R9"),
    "ZF207": CodeInfo("info", "not checked after an unreadable play", None),
    # the deal
    "ZF301": CodeInfo("error", "seat does not hold the cards", "R3"),
    "ZF302": CodeInfo("error", "card dealt or played twice", "R2"),
    "ZF303": CodeInfo("error", "cards missing from the deal", "R2"),
    "ZF304": CodeInfo("error", "hand sizes differ from the draw order", "R3"),
    "ZF305": CodeInfo("warning", "deal only partly reconstructed", "R3"),
    "ZF306": CodeInfo("error", "wrong shuffler", "R4"),
    # the ledger
    "ZF401": CodeInfo("error", "recorded hand points differ", "R10"),
    "ZF402": CodeInfo("error", "recorded running totals differ", "R12"),
    "ZF403": CodeInfo("error", "recorded result differs", "R12"),
    "ZF404": CodeInfo("error", "hand played after the game ended", "R12"),
    "ZF405": CodeInfo("error", "wrong number of players", "R1"),
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A finding of the validator: its code, its message and where it is."""

    code: str
    message: str
    location: Location

    @property
    def severity(self) -> Severity:
        """`error`, `warning` or `info`, fixed by the code."""
        return CODES[self.code].severity

    @property
    def rule(self) -> str | None:
        """The section of RULES.md the code cites, if any."""
        return CODES[self.code].rule

    def __str__(self) -> str:
        return f"{self.location}: {self.severity} {self.code}: {self.message}"

    def to_json(self) -> dict[str, object]:
        """The diagnostic as JSON values, its location flattened."""
        loc = self.location
        return {
            "code": self.code,
            "severity": self.severity,
            "rule": self.rule,
            "message": self.message,
            "file": loc.file,
            "line": loc.line,
            "col": loc.col,
            "game": loc.game,
            "hand": loc.hand,
            "trick": loc.trick,
            "turn": loc.turn,
            "seat": loc.seat,
        }
