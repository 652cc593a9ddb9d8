"""Errors new against a baseline: what an edited record's replay finds that the record's does not.

A disputed move judged with another version in place, a live entry judged by the record it
would make, a repair's candidate: each is a *candidate* record that is the record itself up to
some point, and each asks which of the candidate's errors are its own. They are the errors of the
candidate's replay, except those the record's replay found before the two part (matched as
code, message and location, each as often as found), in replay order.

Both replays start at `from_hand` (`replay(start=...)`, the game's state before that hand given
or found by one replay of the record), so the hands before it, equal in both, are not replayed
twice. Nothing here applies a rule: the replay judges, and this only compares what it found.

A repair asks the same question the other way round too: against everything the record's
replay finds from `from_hand` on (a `Baseline` with no place), `compare` gives the candidate's
new errors and the record's errors the candidate no longer has (`Change.gone`), both matched
as `new_errors` matches. They are multisets, so the candidate has `len(new) - len(gone)` more
errors than the record: the repair search decides from that (zfrec.games.zhengfen.analysis.repair).

    >>> from zfrec.games.zhengfen.analysis.disputes import DISPUTE_EXAMPLE, with_version
    >>> from zfrec.record import loads
    >>> from zfrec.record.model import AltPlay
    >>> from zfrec.games.zhengfen.engine.cards import parse_cards, Cards
    >>> [game] = loads(DISPUTE_EXAMPLE)
    >>> three = with_version(game, 0, 1, 1, AltPlay(False, Cards(parse_cards("3d"))))
    >>> [d.code for d in new_errors(game, three, 0)]
    ['ZF103']
    >>> new_errors(game, game, 0)
    ()
    >>> change = compare(Baseline.of(game, None), three)
    >>> [d.code for d in change.new], change.gone
    (['ZF103'], ())
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from zfrec.diagnostics import Diagnostic
from zfrec.errors import Location
from zfrec.events import GameEnd, HandStart, MoveStep, ReplayEvent
from zfrec.games.zhengfen.engine.game import GameState
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.record.model import Game, Move
from zfrec.replay import replay

__all__ = [
    "Baseline",
    "Change",
    "Key",
    "compare",
    "found_from",
    "new_errors",
    "parting",
    "start_state",
]

Key = tuple[str, str, Location]
Place = tuple[int, int, int]  # hand index, trick (1-based), move index in the trick


def key(d: Diagnostic) -> Key:
    return d.code, d.message, d.location


def parting(record: Game, candidate: Game, from_hand: int = 0) -> Place | None:
    """Where `candidate` first differs from `record` (hand index, trick 1-based, move index;
    move index -1: the hand's start); None where it does not, or only by what it adds after
    the record's end (moves, tricks, score lines, hands, the result: a live entry), so that
    everything the record's replay finds comes before it."""
    last = len(record.hands) - 1
    for h in range(from_hand, min(len(record.hands), len(candidate.hands))):
        a, b = record.hands[h], candidate.hands[h]
        if a is b:
            continue
        if (a.shuffler, a.deal) != (b.shuffler, b.deal):
            return h, 1, -1
        for t in range(min(len(a.tricks), len(b.tricks))):
            ma, mb = a.tricks[t].moves, b.tricks[t].moves
            for m in range(min(len(ma), len(mb))):
                if ma[m] is not mb[m] and ma[m] != mb[m]:
                    return h, t + 1, m
            if len(ma) != len(mb):
                added = len(ma) < len(mb) and t == len(a.tricks) - 1 and a.score is None
                if added and h == last:
                    return None
                return h, t + 1, min(len(ma), len(mb))
        if len(a.tricks) != len(b.tricks) or a.score != b.score:
            added = len(a.tricks) <= len(b.tricks) and a.score is None
            if added and h == last:
                return None
            return h, min(len(a.tricks), len(b.tricks)) + 1, 0
    if len(candidate.hands) < len(record.hands):
        return len(candidate.hands), 1, -1  # a hand left out: its start is where they part
    return None


def _placed_before(d: Diagnostic, trick: int, move: Move | None) -> bool:
    """An error found at a hand's start that is placed before `move` of `trick` (a card played
    twice is found at the start and placed at its later play)."""
    loc = d.location
    if loc.trick is None:
        return True  # about the deal as a whole
    if move is not None and move.pos is not None and loc.line is not None and loc.col is not None:
        return (loc.line, loc.col) < (move.pos.line, move.pos.col)
    return loc.trick < trick


@dataclass(slots=True)
class Baseline:
    """The errors a record's replay finds before a place: fed event by event (`see`), by a
    replay of its own (`of`) or by a visitor of a walk that runs anyway (disputes)."""

    until: Place | None  # None: everything the record's replay finds
    move: Move | None = None  # the record's move at `until`, if there is one
    found: Counter[Key] = field(default_factory=Counter)
    reached: bool = False

    def see(self, event: ReplayEvent) -> None:
        """One event of the record's replay, in order; what comes at or after `until` is not
        kept."""
        if self.reached:
            return
        until = self.until
        errors: Iterable[Diagnostic] = (d for d in event.diagnostics if d.severity == "error")
        if until is not None:
            if isinstance(event, MoveStep):
                if (event.hand_index, event.trick_index, event.move_index) == until and (
                    not event.inferred
                ):
                    self.reached = True
                    return
            elif isinstance(event, HandStart) and event.hand_index >= until[0]:
                if event.hand_index > until[0] or until[2] < 0:
                    self.reached = True  # the hand ended before the place (ZF204)
                    return
                errors = (d for d in errors if _placed_before(d, until[1], self.move))
        self.found.update(key(d) for d in errors)

    @classmethod
    def of(
        cls,
        record: Game,
        until: Place | None,
        from_hand: int = 0,
        before: GameState | None = None,
        rules: Ruleset | None = None,
        game_number: int | None = None,
    ) -> Baseline:
        """The baseline by a replay of `record` from `from_hand` (the game `before` it)."""
        move = None
        if until is not None and until[2] >= 0:
            moves = record.hands[until[0]].tricks[until[1] - 1].moves
            move = moves[until[2]] if until[2] < len(moves) else None
        out = cls(until, move)
        start = _start(from_hand, before)
        for _, event in replay(record, rules, game_number, start=start, moves=until is not None):
            out.see(event)
            if out.reached:
                break
        return out

    def new(self, diagnostics: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
        """The errors of `diagnostics` (a candidate's, in replay order) not in the baseline."""
        return self._match(diagnostics)[0]

    def _match(
        self, diagnostics: Iterable[Diagnostic]
    ) -> tuple[tuple[Diagnostic, ...], Counter[Key]]:
        """The errors of `diagnostics` not in the baseline, and what of the baseline is left
        unmatched by them (counts of zero included)."""
        left = Counter(self.found)
        out = []
        for d in diagnostics:
            if d.severity != "error":
                continue
            k = key(d)
            if left[k]:
                left[k] -= 1
                continue
            out.append(d)
        return tuple(out), left


@dataclass(frozen=True, slots=True)
class Change:
    """A candidate's replay against a baseline of the record's from the same hand on."""

    new: tuple[Diagnostic, ...]  # its errors the baseline does not have, in replay order
    gone: tuple[Key, ...]  # the baseline's errors it does not have, each as often as missing
    warnings: int  # its warnings
    first_hand_errors: int  # its errors found in the hand it was replayed from


def compare(
    baseline: Baseline,
    candidate: Game,
    from_hand: int = 0,
    before: GameState | None = None,
    rules: Ruleset | None = None,
    game_number: int | None = None,
) -> Change:
    """`candidate` replayed from hand `from_hand` (the game `before` it) against `baseline`,
    which holds what the record's replay finds from that hand on (`Baseline.of(record, None,
    from_hand, ...)`, or fed from a replay the caller made anyway). `before` is found by a
    replay of `candidate` when not given (it is the record up to that hand)."""
    if from_hand and before is None:
        before = start_state(candidate, from_hand, rules)
    found, first = _found(candidate, from_hand, before, rules, game_number)
    new, left = baseline._match(found)
    return Change(
        new,
        tuple(left.elements()),
        sum(d.severity == "warning" for d in found),
        sum(d.severity == "error" for d in found[:first]),
    )


def start_state(record: Game, from_hand: int, rules: Ruleset | None = None) -> GameState | None:
    """The game's state before hand `from_hand` by one replay of `record` (None for hand 0)."""
    if from_hand == 0:
        return None
    for state, event in replay(record, rules, moves=False):
        if isinstance(event, HandStart) and event.hand_index == from_hand:
            return state.game.copy()
    return None


def new_errors(
    record: Game,
    candidate: Game,
    from_hand: int = 0,
    *,
    before: GameState | None = None,
    rules: Ruleset | None = None,
    game_number: int | None = None,
    baseline: Baseline | None = None,
) -> tuple[Diagnostic, ...]:
    """The errors of `candidate`'s replay that `record`'s replay does not find before the two
    part (see the module doc), in replay order. Both are replayed from hand `from_hand` on,
    which must come before where they part; `before` is the game's state before it (found
    by a replay of `record` when not given). A caller that has seen the record's replay from
    that hand on gives what it found before the parting as `baseline`: the record is then
    not replayed again."""
    if from_hand and before is None:
        before = start_state(record, from_hand, rules)
    base = baseline
    if base is None:
        until = parting(record, candidate, from_hand)
        base = Baseline.of(record, until, from_hand, before, rules, game_number)
    return base.new(found_from(candidate, from_hand, before, rules, game_number))


def found_from(
    record: Game,
    from_hand: int = 0,
    before: GameState | None = None,
    rules: Ruleset | None = None,
    game_number: int | None = None,
) -> list[Diagnostic]:
    """Everything `record`'s replay finds from hand `from_hand` on (the game `before` it)."""
    return _found(record, from_hand, before, rules, game_number)[0]


def _found(
    record: Game,
    from_hand: int,
    before: GameState | None,
    rules: Ruleset | None,
    game_number: int | None,
) -> tuple[list[Diagnostic], int]:
    """What `found_from` gives, and how many of its first entries hand `from_hand` found."""
    start = _start(from_hand, before)
    found: list[Diagnostic] = []
    first = 0
    for _, event in replay(record, rules, game_number, start=start, moves=False):
        found.extend(event.diagnostics)
        if not isinstance(event, GameEnd) and event.hand_index == from_hand:
            first = len(found)
    return found, first


def _start(from_hand: int, before: GameState | None) -> tuple[int, GameState] | None:
    """`replay`'s start: hand `from_hand` from the game `before` it (None: from the first)."""
    return None if from_hand == 0 or before is None else (from_hand, before)
