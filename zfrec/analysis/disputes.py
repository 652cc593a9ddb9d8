"""Disputed moves judged every way: the record replayed with each version in place.

A disputed move may carry the other side's versions (`2: Qc disputed or Kc`, FORMAT.md).
`judge_disputes(game)` replays the whole record once per version, with that version in place of
the play as written and everything else as recorded, through to the end of the game, and says
for each version:

- whether it is legal, or its first error and where;
- when legal, the disputed hand's points per seat and the game's final totals;
- where the deal is known exactly and the version's move itself is legal, the best points each
  seat could still reach from the position after it (the hindsight solver,
  zfrec.analysis.solve, within a node budget: none when the budget runs out).

    >>> from zfrec.record import loads
    >>> [game] = loads(DISPUTE_EXAMPLE)
    >>> [dispute] = judge_disputes(game)
    >>> [(v.play, v.legal) for v in dispute.versions]
    [('9h', True), ('3d', False), ('pass', True)]
    >>> print(dispute.versions[1].first_error.message)
    single 3 only equals single 3; a play must be higher (RULES.md R19)

What a version is held to: every error its replay finds, except the ones the record has
before the disputed move whatever was played there (they are the record's, not the
version's), and except the comparisons with the score lines and the result the table wrote
(ZF401-ZF403): those were written for what the table believed was played, so for another
version they would differ by design. Its computed points and totals are given instead.

Nothing here applies a rule: each version's record is judged by `zfrec.validate`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from zfrec.analysis.solve import Budget, best_points
from zfrec.diagnostics import Diagnostic, WrittenDiagnostic
from zfrec.engine.rules import Ruleset
from zfrec.errors import Location
from zfrec.jsonview import PerPlayer, dump
from zfrec.record.model import AltPlay, Game, Move
from zfrec.replay import HandStart, MoveStep, replay
from zfrec.validate import Report, validate

# The hindsight solver's bound per version: nodes only, so the answer never depends on the
# machine's speed (a time bound would make the same record audit differently).
SOLVE_BUDGET = Budget(nodes=50_000, seconds=None, table_entries=100_000)

# Comparisons with what the table wrote down: not held against a version (see the docstring).
LEDGER_CODES = frozenset(("ZF401", "ZF402", "ZF403"))

DISPUTE_EXAMPLE = """[Players "Ann, Bo, Cy"]

hand 1
1: 3h  2: 9h disputed "Ann saw a 3" or 3d or -  3: Th
"""


@dataclass(frozen=True, slots=True)
class VersionVerdict:
    """One version of a disputed move, judged by replaying the record with it in place."""

    version: AltPlay
    recorded: bool  # the play as written (the first version)
    report: Report  # the validation of the record with this version in place
    errors: tuple[Diagnostic, ...]  # the errors held against it, in record order
    best: tuple[int, ...] | None = None  # best reachable points per seat after the move

    @property
    def play(self) -> str:
        """`pass`, or the cards (`Kc`, `7s 7h BJ=8h`)."""
        return self.version.play_text()

    @property
    def legal(self) -> bool:
        """The record is legal with this version in place."""
        return not self.errors

    @property
    def first_error(self) -> Diagnostic | None:
        """The first error in record order, or None when legal."""
        return self.errors[0] if self.errors else None


@dataclass(frozen=True, slots=True)
class DisputeVerdict:
    """A disputed move and the verdict on each of its versions, the recorded one first."""

    move: Move
    hand_index: int  # into game.hands
    trick_index: int  # 1-based, as the diagnostics count tricks
    move_index: int  # 0-based in the written trick
    versions: tuple[VersionVerdict, ...]
    hand_number: int = 0  # the hand's number in the record (`hand N`)

    def points(self, v: VersionVerdict) -> tuple[int, ...] | None:
        """The disputed hand's points per seat with version `v`; None when it is illegal or
        the hand is not finished."""
        if not v.legal:
            return None
        result = v.report.hands[self.hand_index].result
        return None if result is None else result.points

    @staticmethod
    def totals(v: VersionVerdict) -> tuple[int, ...] | None:
        """The game's final totals with version `v`; None when it is illegal."""
        return v.report.scores if v.legal else None

    def to_json(self, players: list[str]) -> dict[str, Any]:
        """The dispute as `zfrec audit --json` writes it (ANALYSIS.md)."""
        data: dict[str, Any] = dump(DisputeJson.of(self), players=players)
        return data


@dataclass(frozen=True, slots=True)
class VersionJson:
    """A version as `zfrec audit --json` writes it."""

    play: str
    recorded: bool
    legal: bool
    first_error: WrittenDiagnostic | None
    points: PerPlayer[int] | None
    totals: PerPlayer[int] | None
    best: PerPlayer[int] | None


@dataclass(frozen=True, slots=True)
class DisputeJson:
    """A dispute as `zfrec audit --json` writes it: where, the note, and its versions."""

    line: int | None
    col: int | None
    note: str | None
    versions: tuple[VersionJson, ...]

    @classmethod
    def of(cls, d: DisputeVerdict) -> DisputeJson:
        """The view of a dispute."""
        pos = d.move.pos
        versions = tuple(
            VersionJson(
                v.play,
                v.recorded,
                v.legal,
                v.first_error,
                d.points(v),
                DisputeVerdict.totals(v),
                v.best,
            )
            for v in d.versions
        )
        return cls(
            pos.line if pos else None, pos.col if pos else None, d.move.dispute_note, versions
        )


def disputed_moves(game: Game) -> Iterator[tuple[int, int, int, Move]]:
    """Each disputed move that has other versions: (hand index, trick 1-based, move index,
    move), in record order."""
    for h, hand in enumerate(game.hands):
        for t, trick in enumerate(hand.tricks, 1):
            for m, move in enumerate(trick.moves):
                if move.alternatives:
                    yield h, t, m, move


def with_version(game: Game, h: int, t: int, m: int, version: AltPlay) -> Game:
    """A copy of `game` with `version` in place of move `m` of trick `t` (1-based) of hand
    `h`; everything else is shared with the record, not copied."""
    hand = game.hands[h]
    trick = hand.tricks[t - 1]
    moves = list(trick.moves)
    moves[m] = moves[m].with_version(version)
    tricks = list(hand.tricks)
    tricks[t - 1] = replace(trick, moves=moves)
    hands = list(game.hands)
    hands[h] = replace(hand, tricks=tricks)
    return replace(game, hands=hands)


def judge_disputes(
    game: Game,
    rules: Ruleset | None = None,
    game_number: int | None = None,
    *,
    solve_budget: Budget | None = SOLVE_BUDGET,
) -> tuple[DisputeVerdict, ...]:
    """Every disputed move with other versions, each version judged (see the module doc).

    `solve_budget` bounds the hindsight solver per version; None leaves the best reachable
    points out.
    """
    used = rules or game.ruleset()
    out: list[DisputeVerdict] = []
    for h, t, m, move in disputed_moves(game):
        before = _errors_before(game, used, h, t, m, game_number)
        verdicts = []
        for i, version in enumerate(move.versions()):
            record = with_version(game, h, t, m, version)
            report = validate(record, used, game_number)
            best = None
            if solve_budget is not None:
                best = _best(record, used, h, t, m, solve_budget)
            verdicts.append(VersionVerdict(version, i == 0, report, _held(report, before), best))
        out.append(DisputeVerdict(move, h, t, m, tuple(verdicts), game.hands[h].number))
    return tuple(out)


def _best(
    game: Game, rules: Ruleset, h: int, t: int, m: int, budget: Budget
) -> tuple[int, ...] | None:
    """The best points each seat can reach from the position after move `m` of trick `t` of
    hand `h`, or None: the deal is not known exactly, the move itself is not legal (or not
    applied), or the solver's budget runs out."""
    known = False
    for state, event in replay(game, rules):
        if isinstance(event, HandStart):
            if event.hand_index > h:
                return None  # the move was never reached
            known = event.hand_index == h and all(event.known)
        elif (
            isinstance(event, MoveStep)
            and (event.hand_index, event.trick_index, event.move_index) == (h, t, m)
            and not event.inferred
        ):
            legal = event.event is not None and not any(
                d.severity == "error" for d in event.diagnostics
            )
            if not (known and legal) or state.hand is None:
                return None
            points = best_points(state.hand, budget=budget)
            return None if points is None else tuple(points[s] for s in range(state.hand.n))
    return None


def _key(d: Diagnostic) -> tuple[str, str, Location]:
    return d.code, d.message, d.location


def _errors_before(
    game: Game, rules: Ruleset, h: int, t: int, m: int, game_number: int | None
) -> Counter[tuple[str, str, Location]]:
    """The errors the record's replay finds before it reaches the disputed move."""
    move = game.hands[h].tricks[t - 1].moves[m]
    found: Counter[tuple[str, str, Location]] = Counter()
    for _, event in replay(game, rules, game_number):
        if isinstance(event, MoveStep):
            if (event.hand_index, event.trick_index, event.move_index) == (h, t, m) and (
                not event.inferred
            ):
                break
        elif isinstance(event, HandStart) and event.hand_index >= h:
            if event.hand_index > h:
                break  # the hand ended before the move (ZF204): nothing more is before it
            # A hand's start also reports cards played twice at their later play, which may
            # come after the disputed move.
            found.update(_key(d) for d in event.diagnostics if _before(d, t, move))
            continue
        found.update(_key(d) for d in event.diagnostics if d.severity == "error")
    return found


def _before(d: Diagnostic, t: int, move: Move) -> bool:
    """An error of the disputed move's hand start that is placed before the move."""
    loc = d.location
    if d.severity != "error":
        return False
    if loc.trick is None:
        return True  # about the deal as a whole
    if move.pos is not None and loc.line is not None and loc.col is not None:
        return (loc.line, loc.col) < (move.pos.line, move.pos.col)
    return loc.trick < t


def _held(report: Report, before: Counter[tuple[str, str, Location]]) -> tuple[Diagnostic, ...]:
    """The errors of a version's replay that are held against it, in record order."""
    left = Counter(before)
    held = []
    for d in report.diagnostics:
        if d.severity != "error" or d.code in LEDGER_CODES:
            continue
        key = _key(d)
        if left[key]:
            left[key] -= 1
            continue
        held.append(d)
    # Record order: diagnostics without a place (JSON records) keep the replay's order.
    return tuple(sorted(held, key=lambda d: (d.location.line or 0, d.location.col or 0)))


__all__ = [
    "DisputeJson",
    "DisputeVerdict",
    "VersionJson",
    "VersionVerdict",
    "disputed_moves",
    "judge_disputes",
    "with_version",
]
