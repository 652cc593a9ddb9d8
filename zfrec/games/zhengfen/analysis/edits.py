"""The results of the repair search: one edit to a record, and a repair (edits with the verdict
on the edited record). `repair` searches them; `audit` ranks them.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> from zfrec.games.zhengfen.analysis.repair import search_repairs
    >>> from zfrec.validate import validate
    >>> game = broken_example()
    >>> [best, *_] = search_repairs(game, game.ruleset(), validate(game), 50, 1)[0]
    >>> best.text(), [e.kind for e in best.edits]
    ('legal if trick 1, turn 5 (Bo) was a pass', ['pass'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from zfrec.diagnostics import WrittenDiagnostic
from zfrec.jsonview import dump, hidden, key, written_with
from zfrec.numbering import occurrence_at, with_occurrence
from zfrec.record.model import Game
from zfrec.validate import Report

EditKind = Literal[
    "pass", "play", "insert", "delete", "declare", "substitute", "deal_swap", "deal_move",
    "score", "totals", "result", "shuffler", "drop_hand", "split", "read", "version",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Edit:
    """One change to a record. `text` completes "legal if ..."; `seat` is the player's name;
    `apply` makes the edited copy of a record.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> from zfrec.games.zhengfen.analysis.repair import search_repairs
    >>> from zfrec.validate import validate
    >>> game = broken_example()
    >>> edit = search_repairs(game, game.ruleset(), validate(game), 50, 1)[0][0].edits[0]
    >>> edit.kind, edit.before, edit.after, edit.to_json()["player"]
    ('pass', '5h', 'pass', 'Bo')
    >>> edit.apply(game).hands[0].tricks[0].moves[4].is_pass
    True
    """

    kind: EditKind
    text: str
    hand: int | None = None
    trick: int | None = None
    turn: int | None = None
    seat: Annotated[str | None, key("player")] = None  # the player's name
    before: str | None = None
    after: str | None = None
    apply: Annotated[Callable[[Game], Game], hidden()] = field(
        default=lambda g: g, compare=False, repr=False
    )
    # 2: in the second hand the record numbers `hand` (the text's `hand 1 (2nd)`; `placed`)
    occurrence: Annotated[int, hidden()] = 1

    def to_json(self) -> dict[str, Any]:
        """The edit as `zfrec audit --json` writes it (`seat` as `player`; `apply` left out;
        `occurrence` after `hand` in the second hand of a number)."""
        data: dict[str, Any] = dump(self)
        return with_occurrence(data, self.occurrence)


def placed(game: Game, edit: Edit, edited: Game) -> Edit:
    """`edit` with the occurrence of the hand it changes: the first hand of `edited` that is
    not `game`'s own (an edit copies the hands it changes, or drops them), where its number is
    the edit's and was written before (the text's `hand 1 (2nd)`)."""
    index = next(
        (i for i, h in enumerate(game.hands) if i >= len(edited.hands) or edited.hands[i] is not h),
        None,
    )
    if index is None or game.hands[index].number != edit.hand:
        return edit
    occurrence = occurrence_at([h.number for h in game.hands], index)
    return edit if occurrence == 1 else replace(edit, occurrence=occurrence)


@dataclass(frozen=True, slots=True)
class Repair:
    """Edits and the verdict on the edited record (re-validated).

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> from zfrec.games.zhengfen.analysis.repair import search_repairs
    >>> from zfrec.validate import validate
    >>> game = broken_example()
    >>> [best, *_] = search_repairs(game, game.ruleset(), validate(game), 50, 1)[0]
    >>> best.ok, best.size, best.errors, best.warnings, best.rank_key
    (True, 1, 0, 1, (1, 0, 1, 0))
    """

    edits: tuple[Edit, ...]
    record: Game
    report: Report
    order: int = 0  # how early the search found it: targeted generators come first

    @property
    def size(self) -> int:
        """How many edits."""
        return len(self.edits)

    @property
    def errors(self) -> int:
        """Errors left in the edited record."""
        return self.report.errors

    @property
    def warnings(self) -> int:
        """Warnings left in the edited record."""
        return self.report.warnings

    @property
    def ok(self) -> bool:
        """The edited record is legal."""
        return self.report.ok

    @property
    def rank_key(self) -> tuple[int, int, int, int]:
        """The ranking: fewer edits, then fewer errors and warnings left, then found earlier."""
        return (self.size, self.errors, self.warnings, self.order)

    def text(self) -> str:
        """`legal if ...`, or `N error(s) left if ...`: the edits joined by `and`."""
        what = " and ".join(e.text for e in self.edits)
        if self.ok:
            return f"legal if {what}"
        return f"{self.errors} error(s) left if {what}"

    def to_json(self) -> dict[str, Any]:
        """The repair as `zfrec audit --json` writes it: the verdict, the edits, the
        diagnostics that remain."""
        data: dict[str, Any] = dump(RepairJson.of(self))
        return data


@dataclass(frozen=True, slots=True)
class RepairJson:
    """The JSON of a `Repair`.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> from zfrec.games.zhengfen.analysis.repair import search_repairs
    >>> from zfrec.validate import validate
    >>> game = broken_example()
    >>> view = RepairJson.of(search_repairs(game, game.ruleset(), validate(game), 50, 1)[0][0])
    >>> view.text, [d.code for d in view.remaining]
    ('legal if trick 1, turn 5 (Bo) was a pass', ['ZF206'])
    """

    text: str
    ok: bool
    size: int
    errors: int
    warnings: int
    edits: tuple[Annotated[Edit, written_with(Edit.to_json)], ...]  # `occurrence` too
    remaining: tuple[WrittenDiagnostic, ...]

    @classmethod
    def of(cls, r: Repair) -> RepairJson:
        """The view of a repair."""
        return cls(r.text(), r.ok, r.size, r.errors, r.warnings, r.edits, r.report.diagnostics)


__all__ = ["Edit", "EditKind", "Repair", "RepairJson"]
