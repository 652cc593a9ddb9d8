"""Disputed moves judged every way: the record replayed with each version in place.

A disputed move may carry the other side's versions (`2: Qc disputed or Kc`, FORMAT.md).
`judge_disputes(game)` replays the record with each version in place of the play as written and
everything else as recorded, through to the end of the game, and says for each version:

- whether it is legal, or its first error and where;
- when legal, the disputed hand's points per seat and the game's final totals;
- where the deal is known exactly and the version's move itself is legal, the best points each
  seat could still reach from the position after it (the hindsight solver,
  zfrec.games.zhengfen.solver, within a node budget: none when the budget runs out).

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

Judging is a visitor of the one walk over the record (`DisputeJudge`, as the game's page runs it):
the walk is the recorded version's replay, and its events up to each disputed move are the
baseline; each other version is replayed from the disputed hand on (`replay(start=...)`, the
game's state before the hand taken from the walk) and its errors are the ones new against that
baseline (zfrec.baseline). Nothing here applies a rule: the replay judges every version.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Set
from dataclasses import dataclass, replace
from typing import Annotated, Any

from zfrec.baseline import Baseline, Place, key
from zfrec.diagnostics import Diagnostic, WrittenDiagnostic
from zfrec.events import (
    GameEnd,
    HandEnd,
    HandStart,
    MoveStep,
    ReplayEvent,
    ReplayState,
    ReplayVisitor,
    walk,
)
from zfrec.games.zhengfen.engine.actions import TrickResult
from zfrec.games.zhengfen.engine.game import GameState, HandState
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.games.zhengfen.solver import Budget, best_points
from zfrec.jsonview import PerPlayer, PlayerName, dump, omitted_if_none
from zfrec.numbering import occurrence_at
from zfrec.record.model import AltPlay, Game, Move
from zfrec.replay import replay

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
    errors: tuple[Diagnostic, ...]  # the errors held against it, in record order
    best: tuple[int, ...] | None = None  # best reachable points per seat after the move
    hand_points: tuple[int, ...] | None = None  # the disputed hand's, if it ended
    final_totals: tuple[int, ...] = ()  # the game's computed totals at its end
    # The disputed trick's end with this version, when it ends where the record's does not
    # (a pass after which everyone else holding cards passes): who takes it, its points.
    trick: TrickResult | None = None
    # The first of the record's later moves that only the recorded version fits (a lead by
    # the seat the recorded version made leader, a hand closed with the cards this version
    # kept): nothing from there on is held against this version, and its hand points and
    # totals are not known (None, ()).
    unfitting: Diagnostic | None = None

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
    occurrence: int = 1  # 2: the second hand written with that number (`Hand N (2nd)`)

    def points(self, v: VersionVerdict) -> tuple[int, ...] | None:
        """The disputed hand's points per seat with version `v`; None when it is illegal or
        the hand is not finished."""
        return v.hand_points if v.legal else None

    @staticmethod
    def totals(v: VersionVerdict) -> tuple[int, ...] | None:
        """The game's final totals with version `v`; None when it is illegal or not known."""
        return v.final_totals if v.legal and v.final_totals else None

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
    # only for a version that ends the disputed trick elsewhere than the record
    trick: Annotated[TrickJson | None, omitted_if_none()] = None
    record_fits_until: Annotated[WrittenDiagnostic | None, omitted_if_none()] = None


@dataclass(frozen=True, slots=True)
class TrickJson:
    """The disputed trick's end with a version that ends it where the record does not."""

    number: int  # the trick's number in the hand, as the engine counts tricks
    winner: PlayerName
    points: int


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
                None
                if v.trick is None
                else TrickJson(v.trick.number, v.trick.winner, v.trick.points),
                v.unfitting,
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
    """Every disputed move with other versions, each version judged (see the module doc): one
    walk over the record, and one replay from the disputed hand on per other version.

    `solve_budget` bounds the hindsight solver per version; None leaves the best reachable
    points out.
    """
    judge = DisputeJudge(game, rules, game_number, solve_budget=solve_budget)
    if judge.places:
        walk(game, [judge], judge.rules, game_number)
    return judge.verdicts()


# Errors before a hand after which a replay from that hand on would not find what the whole
# replay finds: the totals the replay goes on from depend on the record's earlier score lines.
_HISTORY_CODES = frozenset(("ZF208", "ZF402"))


@dataclass(slots=True)
class _Pending:
    """A disputed move met in the walk: its baseline, and its versions judged so far."""

    place: Place
    move: Move
    base: Baseline
    since: int  # where the disputed hand's diagnostics start in the walk's
    best: tuple[int, ...] | None = None  # the recorded version's
    points: tuple[int, ...] | None = None
    others: list[VersionVerdict] | None = None


class DisputeJudge(ReplayVisitor):
    """A visitor of the record's walk that judges every disputed move's versions.

    The walk itself is the recorded version's replay; each other version is replayed from the
    disputed hand on, from the game's state the walk had before it. `verdicts()` once the walk
    is over.
    """

    __slots__ = (
        "_before",
        "_events",
        "_found",
        "_from",
        "_history",
        "_known",
        "_later",
        "_pending",
        "_totals",
        "game_number",
        "places",
        "record",
        "rules",
        "solve_budget",
    )  # fmt: skip

    def __init__(
        self,
        record: Game,
        rules: Ruleset | None = None,
        game_number: int | None = None,
        *,
        solve_budget: Budget | None = SOLVE_BUDGET,
    ) -> None:
        self.record, self.rules = record, rules or record.ruleset()
        self.game_number, self.solve_budget = game_number, solve_budget
        self.places: dict[Place, Move] = {(h, t, m): mv for h, t, m, mv in disputed_moves(record)}
        if self.places and record.locate is not None:
            # A JSON record: the versions' errors are placed in its text, as the validator
            # places what it finds (zfrec.record.jsonpos), so the places are found first.
            record.locate(record)
            record.locate = None
        self._found: list[Diagnostic] = []  # every diagnostic of the walk, in order
        self._events: list[ReplayEvent] = []  # the disputed hand's, so far
        self._before: GameState | None = None  # the game before the disputed hand
        self._from = 0  # where the hand's diagnostics start in _found
        self._known = False
        self._history = False  # a replay from a later hand would not find the same
        self._pending: dict[Place, _Pending] = {}
        self._totals: tuple[int, ...] = ()
        self._later: dict[int, frozenset[_Spot]] = {}  # the recorded version's, by hand

    def _disputed(self, h: int) -> bool:
        return any(p[0] == h for p in self.places)

    def visit_hand_start(self, state: ReplayState, event: HandStart) -> None:
        h = event.hand_index
        self._events = []
        if self._disputed(h):
            partial = h > 0 and not self._history and not state.game.over
            self._before = state.game.copy() if partial else None
            self._from, self._known = len(self._found), all(event.known)
            self._events.append(event)
        self._see(event)

    def visit_move(self, state: ReplayState, step: MoveStep) -> None:
        if self._events:
            place = (step.hand_index, step.trick_index, step.move_index)
            if place in self.places and not step.inferred and place not in self._pending:
                self._meet(place, state.hand, step)
            self._events.append(step)
        self._see(step)

    def visit_hand_end(self, state: ReplayState, event: HandEnd) -> None:
        if self._events:
            self._events.append(event)
            for place in self.places:  # never reached: the hand ended before
                if place[0] == event.hand_index and place not in self._pending:
                    self._meet(place, None, None)
            for p in self._pending.values():
                if p.place[0] == event.hand_index:
                    p.points = None if event.result is None else event.result.points
        self._see(event)
        self._events = []

    def visit_game_end(self, state: ReplayState, event: GameEnd) -> None:
        self._see(event)
        self._totals = event.scores

    def _see(self, event: ReplayEvent) -> None:
        self._found += event.diagnostics
        if any(d.code in _HISTORY_CODES and d.severity == "error" for d in event.diagnostics):
            self._history = True

    def _meet(self, place: Place, hs: HandState | None, step: MoveStep | None) -> None:
        """The walk reached a disputed move (`step`; None: the hand ended before it): its
        baseline is what the walk found before it; its other versions are judged now."""
        move = self.places[place]
        base = Baseline(place, move)
        if self._before is None:  # the versions are replayed from the start: so is the baseline
            base.found.update(key(d) for d in self._found[: self._from] if d.severity == "error")
        for event in self._events:
            base.see(event)
        pending = _Pending(place, move, base, self._from if self._before is not None else 0)
        if step is not None and hs is not None and self._legal(step):
            pending.best = self._best(hs)
        pending.others = [self._version(place, v, base) for v in move.versions()[1:]]
        self._pending[place] = pending

    def _legal(self, step: MoveStep) -> bool:
        return (
            self._known
            and step.event is not None
            and not any(d.severity == "error" for d in step.diagnostics)
        )

    def _best(self, hs: HandState) -> tuple[int, ...] | None:
        if self.solve_budget is None:
            return None
        points = best_points(hs, budget=self.solve_budget)
        return None if points is None else tuple(points[s] for s in range(hs.n))

    def _version(self, place: Place, version: AltPlay, base: Baseline) -> VersionVerdict:
        """Replay the record with `version` in place, from the disputed hand on."""
        h, t, m = place
        record = with_version(self.record, h, t, m, version)
        start = None if self._before is None else (h, self._before)
        found: list[Diagnostic] = []
        best = points = None
        totals: tuple[int, ...] = ()
        known = False
        written = self.record.hands[h].tricks[t - 1].moves
        winner = next((mv.seat for mv in reversed(written) if not mv.is_pass), None)
        prolongs = written[m].is_pass and not version.is_pass
        layout = _Layout(place, len(written), winner, lambda: self._recorded(h, start), prolongs)
        for state, event in replay(record, self.rules, self.game_number, start=start):
            if layout.unfitting is not None:
                break  # the record goes on for the recorded version only
            found += layout.see(event)
            if layout.unfitting is not None:
                break
            if isinstance(event, HandStart) and event.hand_index == h:
                known = all(event.known)
            elif (
                isinstance(event, MoveStep)
                and (event.hand_index, event.trick_index, event.move_index) == place
                and not event.inferred
            ):
                legal = event.event is not None and not any(
                    d.severity == "error" for d in event.diagnostics
                )
                if known and legal and state.hand is not None:
                    best = self._best(state.hand)
            elif isinstance(event, HandEnd) and event.hand_index == h:
                points = None if event.result is None else event.result.points
            elif isinstance(event, GameEnd):
                totals = event.scores
        if layout.unfitting is not None:
            points, totals = None, ()
        trick = layout.trick if layout.early or layout.unfitting is not None else None
        return VersionVerdict(
            version, False, _held(base.new(found)), best, points, totals, trick, layout.unfitting
        )

    def _recorded(self, h: int, start: tuple[int, GameState] | None) -> frozenset[_Spot]:
        """Where the recorded version's replay finds errors from hand `h` on, and which."""
        if h not in self._later:
            self._later[h] = frozenset(
                _spot(d)
                for _, event in replay(self.record, self.rules, self.game_number, start=start)
                for d in event.diagnostics
                if d.severity == "error"
            )
        return self._later[h]

    def verdicts(self) -> tuple[DisputeVerdict, ...]:
        """The verdicts, in record order (once the walk is over)."""
        out = []
        for place, move in self.places.items():
            p = self._pending.get(place)
            if p is None or p.others is None:
                continue
            recorded = VersionVerdict(
                move.versions()[0], True, _held(p.base.new(self._found[p.since :])), p.best,
                p.points, self._totals,
            )  # fmt: skip
            h, t, m = place
            versions = (recorded, *p.others)
            numbers = [x.number for x in self.record.hands]
            occurrence = occurrence_at(numbers, h)  # 2: the second hand so numbered
            out.append(DisputeVerdict(move, h, t, m, versions, numbers[h], occurrence))
        return tuple(out)


# The record's turn order, written for the recorded version: where another version ends the
# disputed trick elsewhere, these are how the record is written, not what the version did.
_TURN_CODES = frozenset(("ZF201", "ZF203", "ZF205", "ZF209"))


class _Layout:
    """Where a version's replay stops fitting the record's layout (the rule, ANALYSIS.md).

    Up to the end of the disputed trick as the version has it, everything the replay finds is
    the version's. A version that ends the trick where the record does not (a pass after which
    every other seat holding cards passes) leaves the record's later moves written for the
    recorded version: an explicit pass of the trick already ended (ZF209, skipped) and a play
    of the seat that leads next by the rules taken as the lead of a new trick (ZF205 alone) are
    read exactly as the version has them, so they are not held against it; the first later
    move that only the recorded version fits (a lead or turn out of order, ZF201/ZF203/ZF205
    with another error, or a hand closed while seats still hold cards, ZF208) ends the judging:
    it and everything after are not the version's, and its points are not known. An error the
    recorded version's replay has at the same move as well is the record's own, held as always.
    A version that plays where the record has a pass prolongs the trick: after its move, any
    error of the hand the recorded version has not there ends the judging (`_prolonged`).
    """

    __slots__ = (
        "early", "ended", "place", "prolongs", "recorded", "trick", "unfitting", "winner",
        "written",
    )  # fmt: skip

    def __init__(
        self,
        place: Place,
        written: int,
        winner: int | None,
        recorded: Callable[[], Set[_Spot]],
        prolongs: bool = False,
    ) -> None:
        self.place, self.written = place, written  # written: the moves of the written trick
        self.recorded = recorded  # where the recorded version finds errors (not this rule's)
        self.winner = winner  # who takes the written trick as recorded: its last play's seat
        self.ended = False  # the disputed trick has ended in the replay
        self.early = False  # ... elsewhere than the record's: early, or by another seat
        self.trick: TrickResult | None = None
        self.unfitting: Diagnostic | None = None
        # A play where the record has a pass: the trick lasts longer than the record has it,
        # and every later move of the hand was written for the recorded pass (`_prolonged`).
        self.prolongs = prolongs

    def see(self, event: ReplayEvent) -> tuple[Diagnostic, ...]:
        """The event's diagnostics that count for the version."""
        if self.prolongs:
            return self._prolonged(event)
        h, t, m = self.place
        diagnostics = event.diagnostics
        if not self.ended:
            if isinstance(event, MoveStep) and event.hand_index == h:
                after = (event.trick_index, event.move_index) >= (t, m)
                result = event.event.trick_result if event.event is not None else None
                if after and result is not None:
                    self.ended, self.trick = True, result
                    self.early = result.winner != self.winner or (
                        event.trick_index == t and event.move_index < self.written - 1
                    )
            return diagnostics
        if not self.early:
            return diagnostics  # the trick ends as written: the record fits the version
        if isinstance(event, HandStart) or (
            isinstance(event, MoveStep | HandEnd) and event.hand_index != h
        ):
            return diagnostics  # the disputed hand is over
        # An error the recorded version has at the same move as well is the record's own: it
        # is held as always (neither version fits that move).
        mine = self.recorded()
        errors = [d for d in diagnostics if d.severity == "error" and _spot(d) not in mine]
        codes = {d.code for d in errors}
        if isinstance(event, HandEnd):
            if "ZF208" in codes:
                self.unfitting = next(d for d in errors if d.code == "ZF208")
                return ()
            return diagnostics
        if not codes & _TURN_CODES:
            return diagnostics
        if codes in ({"ZF209"}, {"ZF205"}):
            return tuple(d for d in diagnostics if d not in errors)
        self.unfitting = next(d for d in errors if d.code in _TURN_CODES)
        return ()

    def _prolonged(self, event: ReplayEvent) -> tuple[Diagnostic, ...]:
        """`see` for a version that plays where the record has a pass. Its own move is judged
        as always. After it, the record's moves of the disputed hand were written for the
        pass: the first error there that the recorded version has not at the same move (a
        play written under the recorded top, a turn out of order, the card played again that
        the version played, the hand closed with cards left) is a move only the recorded
        version fits and ends the judging, as for a version that ends the trick elsewhere;
        where the version ends the trick elsewhere, an explicit pass of the ended trick (ZF209)
        and a lead on its line (ZF205) are read as the version has them, as there."""
        h, t, m = self.place
        diagnostics = event.diagnostics
        if not isinstance(event, MoveStep | HandEnd) or event.hand_index != h:
            return diagnostics  # before the disputed hand, or after it
        if isinstance(event, MoveStep):
            if (event.trick_index, event.move_index) <= (t, m):
                return diagnostics  # up to the version's own move, itself included
            result = event.event.trick_result if event.event is not None else None
            if not self.ended and result is not None:
                self.ended, self.trick = True, result
                self.early = result.winner != self.winner or (
                    event.trick_index == t and event.move_index < self.written - 1
                )
        mine = self.recorded()
        errors = [d for d in diagnostics if d.severity == "error" and _spot(d) not in mine]
        if not errors:
            return diagnostics
        codes = {d.code for d in errors}
        if self.ended and self.early and codes in ({"ZF209"}, {"ZF205"}):
            return tuple(d for d in diagnostics if d not in errors)
        self.unfitting = errors[0]
        return ()


_Spot = tuple[object, ...]


def _spot(d: Diagnostic) -> _Spot:
    """An error's kind and the move or line it is at (not its wording: the seats named in it
    may differ between versions)."""
    loc = d.location
    if loc.line is not None:
        return d.code, loc.file, loc.line, loc.col
    return d.code, loc.hand, loc.trick, loc.occurrence


def _held(errors: tuple[Diagnostic, ...]) -> tuple[Diagnostic, ...]:
    """The errors held against a version (new against the baseline), in record order: the
    comparisons with the table's score lines and result are not (see the module doc)."""
    held = [d for d in errors if d.code not in LEDGER_CODES]
    # Record order: diagnostics without a place (JSON records) keep the replay's order.
    return tuple(sorted(held, key=lambda d: (d.location.line or 0, d.location.col or 0)))


__all__ = [
    "DisputeJson",
    "DisputeJudge",
    "DisputeVerdict",
    "VersionJson",
    "VersionVerdict",
    "disputed_moves",
    "judge_disputes",
    "with_version",
]
