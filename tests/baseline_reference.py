"""The three ways "errors new against a baseline" were written before zfrec.baseline, kept as
references for tests/test_baseline.py: each over whole-game replays, as they were."""

from __future__ import annotations

from collections import Counter

from zfrec.diagnostics import Diagnostic
from zfrec.errors import Location
from zfrec.games.zhengfen.analysis.disputes import (
    LEDGER_CODES,
    _Layout,
    _spot,
    disputed_moves,
    with_version,
)
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.games.zhengfen.solver import Budget, best_points
from zfrec.record.model import Game, Move
from zfrec.replay import HandStart, MoveStep, replay
from zfrec.validate import Report, validate

Points = tuple[int, ...] | None
Verdict = tuple[str, bool, tuple[Diagnostic, ...], Points, Points, Points]


def _key(d: Diagnostic) -> tuple[str, str, Location]:
    return d.code, d.message, d.location


def _before(d: Diagnostic, t: int, move: Move) -> bool:
    loc = d.location
    if d.severity != "error":
        return False
    if loc.trick is None:
        return True
    if move.pos is not None and loc.line is not None and loc.col is not None:
        return (loc.line, loc.col) < (move.pos.line, move.pos.col)
    return loc.trick < t


def _errors_before(
    game: Game, rules: Ruleset, h: int, t: int, m: int
) -> Counter[tuple[str, str, Location]]:
    move = game.hands[h].tricks[t - 1].moves[m]
    found: Counter[tuple[str, str, Location]] = Counter()
    for _, event in replay(game, rules):
        if isinstance(event, MoveStep):
            if (event.hand_index, event.trick_index, event.move_index) == (h, t, m) and (
                not event.inferred
            ):
                break
        elif isinstance(event, HandStart) and event.hand_index >= h:
            if event.hand_index > h:
                break
            found.update(_key(d) for d in event.diagnostics if _before(d, t, move))
            continue
        found.update(_key(d) for d in event.diagnostics if d.severity == "error")
    return found


def _held(report: Report, before: Counter[tuple[str, str, Location]]) -> tuple[Diagnostic, ...]:
    left = Counter(before)
    held = []
    for d in report.diagnostics:
        if d.severity != "error" or d.code in LEDGER_CODES:
            continue
        if left[_key(d)]:
            left[_key(d)] -= 1
            continue
        held.append(d)
    return tuple(sorted(held, key=lambda d: (d.location.line or 0, d.location.col or 0)))


def _best(game: Game, rules: Ruleset, h: int, t: int, m: int, budget: Budget) -> Points:
    known = False
    for state, event in replay(game, rules):
        if isinstance(event, HandStart):
            if event.hand_index > h:
                return None
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


def _not_the_versions(
    game: Game, record: Game, rules: Ruleset, place: tuple[int, int, int], prolongs: bool
) -> tuple[list[tuple[str, str, Location]], bool]:
    """The errors of a version's whole replay that the record's layout excuses (the rule is
    zfrec.games.zhengfen.analysis.disputes._Layout's), and whether it stops fitting."""
    written = game.hands[place[0]].tricks[place[1] - 1].moves
    winner = next((mv.seat for mv in reversed(written) if not mv.is_pass), None)
    recorded = frozenset(
        _spot(d) for _, e in replay(game, rules) for d in e.diagnostics if d.severity == "error"
    )
    layout = _Layout(place, len(written), winner, lambda: recorded, prolongs)
    excused = []
    for _, event in replay(record, rules):
        kept = layout.see(event) if layout.unfitting is None else ()
        excused += [_key(d) for d in event.diagnostics if d.severity == "error" and d not in kept]
    return excused, layout.unfitting is not None


def old_disputes(game: Game, budget: Budget | None) -> list[list[Verdict]]:
    """The disputes' verdicts as judge_disputes gave them: (play, legal, errors, points,
    totals, best) per version."""
    rules = game.ruleset()
    out = []
    for h, t, m, move in disputed_moves(game):
        before = _errors_before(game, rules, h, t, m)
        versions = []
        for version in move.versions():
            record = with_version(game, h, t, m, version)
            report = validate(record, rules)
            held = _held(report, before)
            cut = False
            if version is not move.versions()[0]:  # the record's layout (ANALYSIS.md)
                prolongs = move.is_pass and not version.is_pass  # a play for the pass
                excused, cut = _not_the_versions(game, record, rules, (h, t, m), prolongs)
                left = Counter(excused)
                kept = []
                for d in held:
                    if left[_key(d)]:
                        left[_key(d)] -= 1
                    else:
                        kept.append(d)
                held = tuple(kept)
            legal = not held
            result = report.hands[h].result
            points = None if not legal or result is None or cut else result.points
            totals = report.scores if legal and not cut else None
            best = None if budget is None else _best(record, rules, h, t, m, budget)
            versions.append((version.play_text(), legal, held, points, totals, best))
        out.append(versions)
    return out


def old_live_first_new(record: Game, candidate: Game) -> tuple[str, str] | None:
    """The live judge's answer: the candidate's first error not among the record's (matched
    by code and message), both replayed whole."""
    old = [
        (d.code, d.message)
        for _, ev in replay(record)
        for d in ev.diagnostics
        if d.severity == "error"
    ]
    for _, ev in replay(candidate):
        for d in ev.diagnostics:
            if d.severity != "error":
                continue
            if (d.code, d.message) in old:
                old.remove((d.code, d.message))
                continue
            return d.code, d.message
    return None
