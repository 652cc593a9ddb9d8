"""Diagnostics: what the validator finds, with a stable code, the rule it cites, and where.

Every code is documented in DIAGNOSTICS.md. Codes never change meaning; new ones are added.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeAlias

from zfrec.errors import Location
from zfrec.jsonview import dump, written_with
from zfrec.record.problems import Fix

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, slots=True)
class CodeInfo:
    """What a code means: its severity, a short title, and the rule it cites (RULES.md)."""

    severity: Severity
    title: str
    rule: str | None


CODES: dict[str, CodeInfo] = {
    # the record itself
    "ZF001": CodeInfo("error", "syntax error in the text notation", None),
    "ZF002": CodeInfo("error", "JSON record does not match the schema", None),
    "ZF003": CodeInfo("error", "file cannot be read", None),
    "ZF004": CodeInfo("warning", "file holds no game", None),
    "ZF005": CodeInfo("info", "disputed move", None),
    "ZF006": CodeInfo("warning", "no such date", None),
    "ZF007": CodeInfo("warning", "empty Rules tag", None),
    "ZF008": CodeInfo("warning", "unseen characters in a name", None),
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
    "ZF208": CodeInfo("error", "hand closed before its end", "R24"),
    "ZF209": CodeInfo("error", "a pass after the trick ended", "R26"),
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
    "ZF406": CodeInfo("warning", "hand number skipped or repeated", None),
    # Sheng ji (zfrec.games.shengji.replayer); rules are RULES-SHENGJI.md's
    "SJ101": CodeInfo("error", "not a lead: more than one suit", "R6"),
    "SJ102": CodeInfo("error", "seat does not hold the cards", "R2"),
    "SJ103": CodeInfo("error", "throw recorded as standing can be beaten", "R10"),
    "SJ104": CodeInfo("error", "failed throw recorded wrong", "R10"),
    "SJ105": CodeInfo("info", "not judged after a lead that is no lead", None),
    "SJ201": CodeInfo("error", "does not follow suit or structure", "R7"),
    "SJ202": CodeInfo("error", "out of turn", "R1"),
    "SJ203": CodeInfo("error", "wrong leader", "R8"),
    "SJ204": CodeInfo("error", "action after the round ended", "R11"),
    "SJ205": CodeInfo("warning", "round not finished", "R11"),
    "SJ206": CodeInfo("error", "trick with the wrong number of plays", "R7"),
    "SJ207": CodeInfo("error", "no such seat", "R1"),
    "SJ208": CodeInfo("error", "draw out of order", "R15"),
    "SJ209": CodeInfo("error", "a play of no cards", "R7"),
    "SJ210": CodeInfo("error", "round's end written with plays missing", "R11"),
    "SJ301": CodeInfo("error", "card dealt twice: more copies than decks", "R2"),
    "SJ302": CodeInfo("error", "hand of the wrong size", "R15"),
    "SJ303": CodeInfo("error", "kitty of the wrong size", "R11"),
    "SJ304": CodeInfo("error", "wrong dealer", "R14"),
    "SJ305": CodeInfo("error", "kitty exchanged by another seat than the dealer", "R11"),
    "SJ401": CodeInfo("error", "bid with cards not held", "R15"),
    "SJ402": CodeInfo("error", "not a bid", "R15"),
    "SJ403": CodeInfo("error", "bid does not beat the standing bid", "R15"),
    "SJ404": CodeInfo("error", "reinforces a partner's bid", "R15"),
    "SJ405": CodeInfo("error", "trump contradicts the bids", "R15"),
    "SJ406": CodeInfo("error", "invalid friend call", "R16"),
    "SJ407": CodeInfo("error", "recorded join differs", "R16"),
    "SJ501": CodeInfo("error", "recorded points differ", "R12"),
    "SJ502": CodeInfo("error", "recorded kitty multiplier differs", "R11"),
    "SJ503": CodeInfo("error", "recorded level change differs", "R12"),
    "SJ504": CodeInfo("error", "recorded next dealer differs", "R12"),
    "SJ505": CodeInfo("error", "dominant rank is not the declarers' level", "R14"),
    "SJ506": CodeInfo("error", "recorded match result differs", "R14"),
    "SJ507": CodeInfo("error", "round after the match was won", "R14"),
    "SJ508": CodeInfo("warning", "round number skipped or repeated", None),
}


@dataclass(frozen=True, slots=True)
class Cause:
    """The earlier finding that made a diagnostic inevitable: where it is, and its code.

    >>> str(Cause(13, 5, "ZF301"))
    '13:5'
    """

    line: int | None
    col: int | None
    code: str

    def __str__(self) -> str:
        if self.line is None:
            return self.code
        return f"{self.line}:{self.col}" if self.col is not None else str(self.line)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A finding: its code (see CODES), the message, and where in the record and the game.

    >>> d = Diagnostic("ZF103", "pair of 4s is lower than pair of 5s", Location(line=12, col=11))
    >>> d.severity, d.rule
    ('error', 'R19')
    >>> str(d)
    '<input>:12:11: error ZF103: pair of 4s is lower than pair of 5s'
    >>> d.to_json()["rule"], d.to_json()["line"]
    ('R19', 12)

    `cause` names the earlier finding this one follows from (its root), `fix` a suggested
    replacement of the source text; both are left out of the JSON when there is none.
    """

    code: str
    message: str
    location: Location
    cause: Cause | None = None
    fix: Fix | None = None

    @property
    def severity(self) -> Severity:
        """`error`, `warning` or `info`, by the code."""
        return CODES[self.code].severity

    @property
    def rule(self) -> str | None:
        """The rule the code cites (`R19`), if any."""
        return CODES[self.code].rule

    def __str__(self) -> str:
        return f"{self.location}: {self.severity} {self.code}: {self.message}{self.follows()}"

    def follows(self) -> str:
        """` (follows from 13:5)` when the diagnostic has a cause, else empty."""
        return "" if self.cause is None else f" (follows from {self.cause})"

    def to_json(self) -> dict[str, Any]:
        """The diagnostic as `--json` writes it: the fields of `DiagnosticJson`, without
        `cause` and `fix` when there is none."""
        return DiagnosticJson.of(self).to_json()


class Findings:
    """The counts every game's report gives of its `diagnostics` (Zheng Fen's `Report`, Sheng
    ji's `SjReport`): a base with no fields of its own, for slotted report dataclasses."""

    __slots__ = ()
    diagnostics: tuple[Diagnostic, ...]

    @property
    def errors(self) -> int:
        """How many diagnostics are errors."""
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        """How many diagnostics are warnings."""
        return sum(d.severity == "warning" for d in self.diagnostics)

    @property
    def ok(self) -> bool:
        """The record is legal: no errors (warnings allowed)."""
        return self.errors == 0


@dataclass(frozen=True, slots=True)
class DiagnosticJson:
    """A diagnostic as `--json` writes it: code, severity, rule, message, then the location's
    parts, flat. The store rebuilds it from its rows (zfrec.store.queries.game_diagnostics).

    >>> d = Diagnostic("ZF206", "the record stops", Location(hand=1, seat="Ann"))
    >>> DiagnosticJson.of(d).severity, DiagnosticJson.of(d).seat
    ('warning', 'Ann')
    """

    code: str
    severity: str
    rule: str | None
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    game: int | None = None
    hand: int | None = None
    trick: int | None = None
    turn: int | None = None
    seat: str | None = None
    cause: Cause | None = None
    fix: Fix | None = None
    # 2 for a finding in the second hand (round) written with its number; None (left out of
    # the JSON) for the first, or only, one: the key is there only where a number repeats
    occurrence: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON data, without `cause`, `fix` and `occurrence` when there is
        none."""
        data: dict[str, Any] = dump(self)
        for name in ("cause", "fix", "occurrence"):
            if data[name] is None:
                del data[name]
        return data

    @classmethod
    def of(cls, d: Diagnostic) -> DiagnosticJson:
        """The JSON view of a diagnostic."""
        loc = d.location
        return cls(
            d.code, d.severity, d.rule, d.message, loc.file, loc.line, loc.col, loc.game,
            loc.hand, loc.trick, loc.turn, loc.seat, d.cause, d.fix,
            loc.occurrence if loc.occurrence > 1 and loc.hand is not None else None,
        )  # fmt: skip


def first_error(diagnostics: Iterable[Diagnostic]) -> Diagnostic | None:
    """The root of a record's errors: the first error, in record order, that follows from no
    other (audit's and diff's "first error"); None when there is no error.

    >>> a = Diagnostic("ZF302", "Kc played a second time", Location(line=16, col=1),
    ...                Cause(13, 5, "ZF301"))
    >>> b = Diagnostic("ZF301", "Bo does not hold Kc", Location(line=13, col=5))
    >>> first_error([a, b]).code
    'ZF301'
    """
    errors = [d for d in diagnostics if d.severity == "error"]
    return next((d for d in errors if d.cause is None), errors[0] if errors else None)


def version_verdict(play: str, recorded: bool, first: Diagnostic | None) -> str:
    """A disputed move's version judged, as the replay pages note it at the move (both games):
    `9h (as recorded) legal`, `or 3d illegal (ZF103 at record line 4)`."""
    label = f"{play} (as recorded)" if recorded else f"or {play}"
    if first is None:
        return f"{label} legal"
    line = first.location.line
    return f"{label} illegal ({first.code}{f' at record line {line}' if line else ''})"


def _as_json(d: Diagnostic) -> dict[str, Any]:
    return d.to_json()


WrittenDiagnostic: TypeAlias = Annotated[Diagnostic, written_with(_as_json)]
"""A `Diagnostic` field of a dumped dataclass (zfrec.jsonview), written as `DiagnosticJson`."""
