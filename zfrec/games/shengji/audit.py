"""`zfrec audit` for Sheng ji: disputed versions judged both ways, the rules under which a
failing record is legal, and the smallest repairs of a broken one (ANALYSIS.md, Sheng ji).

Everything is judged by the validator (`validate_match`): a version of a disputed move and a
repair are candidate records, each validated whole. As for Zheng Fen (zfrec.baseline), a
version's errors are those new against what the record's replay found before the disputed
move, and the comparisons with the written points, level change, levels and result
(SJ501-SJ506) are not held against it: they were written for the play the table recorded.
The repairs come from `zfrec.games.shengji.repair`.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from zfrec.diagnostics import Diagnostic, first_error
from zfrec.errors import IllegalPlayError, RulesError
from zfrec.games.shengji.cards import format_hand, from_ids, size
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.records import SjMatch, SjMove
from zfrec.games.shengji.replayer import validate_match
from zfrec.games.shengji.report import SjReport
from zfrec.games.shengji.rules import level_text, sj_preset
from zfrec.numbering import occurrences, with_occurrence

__all__ = ["SjAuditReport", "SjDispute", "SjVersion", "audit_match", "judge_disputes"]

WRITTEN = frozenset(("SJ501", "SJ502", "SJ503", "SJ504", "SJ505", "SJ506"))
DEFAULT_BUDGET = 300
# Other values tried for each option in the rules search (the record's own value left out).
OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "kitty_multiplier": ("power", "linear"),
    "no_bid": ("first_card", "rank_or_highest"),
    "throw_penalty": (0, 10),
    "must_defend": ((14,), (), (5, 10, 13, 14)),
}


@dataclass(frozen=True, slots=True)
class SjVersion:
    """One version of a disputed play: its cards, whether it is the recorded one, its first
    error (None: legal), and with it the round's opponents' points and the final levels."""

    play: int
    recorded: bool
    first_error: Diagnostic | None
    points: tuple[int, ...] | None  # points each seat took in tricks in the disputed round
    total: int | None  # the opponents' points of the disputed round
    levels: tuple[int, ...] | None
    forced: int | None = None  # a throw the table would have held to this part
    # the record's first error after the move that every version meets alike (the record's,
    # not the version's: not held against it, but the points and levels are not known)
    later: Diagnostic | None = None

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        return {
            "play": format_hand(self.play), "recorded": self.recorded,
            "legal": self.first_error is None,
            "first_error": self.first_error.to_json() if self.first_error else None,
            "points": dict(zip(players, self.points, strict=True)) if self.points else None,
            "totals": ({p: level_text(v) for p, v in zip(players, self.levels, strict=True)}
                       if self.levels else None),
            "opponents_points": self.total, "best": None,
            "forced": format_hand(self.forced) if self.forced is not None else None,
        } | ({"later_error": self.later.to_json()} if self.later is not None else {})  # fmt: skip


@dataclass(frozen=True, slots=True)
class SjDispute:
    """A disputed play with other versions: where, its note, and each version judged."""

    round: int
    trick: int | None  # None for a bid (`bid` its place among the round's bids)
    turn: int | None
    seat: int
    move: SjMove
    versions: tuple[SjVersion, ...]
    bid: int | None = None
    index: int | None = None  # the round's place in the record (its number may repeat: SJ508)
    occurrence: int = 1  # 2: in the second round the record numbers `round` (`round 1 (2nd)`)

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        pos = self.move.pos
        return with_occurrence({
            "line": pos[0] if pos else None, "col": pos[1] if pos else None,
            "note": self.move.dispute_note, "hand": self.round, "round": self.round,
            "trick": self.trick, "turn": self.turn, "bid": self.bid,
            "player": players[self.seat],
            "versions": [v.to_json(players) for v in self.versions],
        }, self.occurrence, "round")  # fmt: skip


@dataclass(frozen=True, slots=True)
class SjRulesVerdict:
    """The record judged under its rules with one option changed."""

    label: str
    options: dict[str, Any]
    errors: int
    first: Diagnostic | None

    @property
    def ok(self) -> bool:
        return self.errors == 0

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "how": "option", "options": self.options, "ok": self.ok,
                "errors": self.errors,
                "first_error": self.first.to_json() if self.first else None}  # fmt: skip


@dataclass(frozen=True, slots=True)
class SjAuditReport:
    """What `zfrec audit` finds for one Sheng ji record."""

    match: SjMatch
    report: SjReport
    rulesets: tuple[SjRulesVerdict, ...]
    repairs: tuple[Any, ...]  # zfrec.games.shengji.repair.SjRepair, best first
    tried: int
    budget_hit: bool
    seconds: float
    disputes: tuple[SjDispute, ...]
    # why no repair is offered, where the audit can tell (`why_unrepaired`); None otherwise
    unrepaired: str | None = None

    @property
    def legal(self) -> bool:
        return self.report.errors == 0

    def to_json(self) -> dict[str, Any]:
        """The generic envelope of `zfrec audit --json` (Zheng Fen's keys) for Sheng ji."""
        players = self.match.players
        rules = self.report.rules
        return {
            "kind": "shengji", "players": list(players),
            "rules": rules.preset if rules else self.match.preset,
            "legal": self.legal, "errors": self.report.errors,
            "diagnostics": [d.to_json() for d in self.report.diagnostics],
            "legal_under": [v.label for v in self.rulesets if v.ok],
            "rulesets": [v.to_json() for v in self.rulesets],
            "repaired": any(r.ok for r in self.repairs),
            "repairs": [r.to_json(players) for r in self.repairs],
            "search": {"tried": self.tried, "budget_hit": self.budget_hit,
                       "seconds": round(self.seconds, 3)},
            "disputes": [d.to_json(players) for d in self.disputes],
            "no_repair": self.unrepaired,
        }  # fmt: skip

    def text_lines(self, number: int) -> list[str]:
        """The audit as `zfrec audit` prints it."""
        lines: list[str] = []
        if self.legal:
            lines.append(f"game {number}: legal as recorded")
        else:
            first = first_error(self.report.diagnostics)
            assert first is not None
            lines.append(f"game {number}: fails with {self.report.errors} error(s)")
            loc = first.location  # a finding of the whole record (SJ506) is placed by its line
            where = loc.play() or (f"line {loc.line}" if loc.line is not None else "the record")
            lines.append(f"  first error: {where}: {first.message}")
            good = [v.label for v in self.rulesets if v.ok]
            lines.append("  legal under: " + (", ".join(good) if good else
                         "none of the single option changes"))  # fmt: skip
            if self.repairs:
                lines.append("  smallest repairs, each checked by validating the edited record:")
                for i, r in enumerate(self.repairs, 1):
                    lines.append(f"    {i}. {r.text()}")
            elif self.budget_hit:
                lines.append("  no repair found within the search bound (try --budget)")
            elif self.unrepaired is not None:
                lines.append(f"  no repair offered: {self.unrepaired}")
            else:  # every candidate tried, or none made: a larger budget would not help
                lines.append("  no repair found: no edit the audit makes repairs this error")
            bound = " (bound reached)" if self.budget_hit else ""
            lines.append(f"  searched {self.tried} candidate record(s) in {self.seconds:.2f} s"
                         f"{bound}")  # fmt: skip
        players = self.match.players
        for d in self.disputes:
            pos = d.move.pos
            where = f"{pos[0]}:{pos[1]}, " if pos else ""
            note = f': "{d.move.dispute_note}"' if d.move.dispute_note is not None else ""
            place = f"bid {d.bid}" if d.bid is not None else f"trick {d.trick}"
            said = f"round {d.round}" if d.index is None else self.match.round_said(d.index)
            lines.append(f"  disputed at {where}{said}, {place} "
                         f"({players[d.seat]}){note}")  # fmt: skip
            for v in d.versions:
                label = (f"{format_hand(v.play)} (as recorded)" if v.recorded
                         else f"or {format_hand(v.play)}")  # fmt: skip
                if v.forced is not None:
                    label += f" (a throw held to {format_hand(v.forced)})"
                e = v.first_error
                if e is not None:
                    loc = e.location
                    at = f"{loc.line}:{loc.col}, " if loc.line is not None else ""
                    lines.append(f"    {label}: illegal: {e.code} at {at}{loc.play()}: "
                                 f"{e.message}")  # fmt: skip
                    continue
                if v.later is not None:
                    lines.append(f"    {label}: legal; {later_text(v.later)}")
                    continue
                got = ("the round does not finish" if v.total is None
                       else f"opponents' points {v.total}")  # fmt: skip
                levels = ", ".join(
                    f"{p} {level_text(x)}" for p, x in zip(players, v.levels or (), strict=False)
                )
                lines.append(f"    {label}: legal; {got}; levels {levels}")
        return lines


def audit_match(game: Any, *, budget: int = DEFAULT_BUDGET, repairs: int = 5) -> SjAuditReport:
    """Audit one Sheng ji record (a generic `Game` of the kind, or an `SjMatch`)."""
    from zfrec.games.shengji.kind import match_of
    from zfrec.games.shengji.repair import search_repairs

    started = time.perf_counter()
    match = match_of(game)
    base = validate_match(match)
    disputes = judge_disputes(match, base)
    if base.errors == 0:
        return SjAuditReport(match, base, (), (), 0, False, time.perf_counter() - started,
                             disputes)  # fmt: skip
    verdicts = rules_search(match)
    found, tried = search_repairs(match, base, budget, repairs)
    why = None if found or tried >= budget else why_unrepaired(match, base)
    return SjAuditReport(match, base, verdicts, tuple(found), tried, tried >= budget,
                         time.perf_counter() - started, disputes, why)  # fmt: skip


_HELD_TO = re.compile(r"; it is held to (.+?) \(")


def why_unrepaired(match: SjMatch, base: SjReport) -> str | None:
    """Why no edit repairs the record's first error, where it is a throw that cannot stand
    (SJ103) written with every other play of its trick as long as the throw: the repair, the
    throw held to its forced part (as a failed throw is written), would leave those plays too
    long for it, and what each seat played to the forced part alone is not in the record."""
    from zfrec.games.shengji.repairplays import move_at

    first = first_error(base.diagnostics)
    if first is None or first.code != "SJ103" or (at := move_at(match, first)) is None:
        return None
    ri, ti, mi = at
    moves = match.rounds[ri].tricks[ti].moves
    throw = moves[mi]
    width = size(throw.cards)
    others = [m for i, m in enumerate(moves) if i != mi]
    if not others or any(size(m.cards) != width for m in others):
        return None  # written otherwise: the forced part is among the repairs tried
    held = _HELD_TO.search(first.message)
    part = held.group(1) if held else "its forced part"
    return (
        f"the throw {format_hand(throw.cards)} fails (held to {part}), but the trick's other "
        f"plays are written with {width} cards each, as to a throw that stood: what each seat "
        f"played to {part} alone is not in the record, so no edit of it can be checked; write "
        f"the trick as played (the throw with `forced {part.split(' or ')[0]}`, each play to it)"
    )


def rules_search(match: SjMatch) -> tuple[SjRulesVerdict, ...]:
    """The record under its rules with each option changed to each other value."""
    try:
        own = match.rules()
    except RulesError:  # rules that do not stand: the validator's SJ207
        return ()
    out: list[SjRulesVerdict] = []
    for name, values in OPTION_VALUES.items():
        for value in values:
            if getattr(own, name) == value:
                continue
            options = {**match.options, name: value}
            try:
                rules = sj_preset(match.preset, **options)
            except RulesError:  # a value the preset refuses
                continue
            r = validate_match(match, None, rules)
            shown = ",".join(level_text(v) for v in value) if name == "must_defend" else value
            label = f"{match.preset} with {name}={shown or 'none'}"
            out.append(SjRulesVerdict(label, rules.overrides(), r.errors,
                                      first_error(r.diagnostics)))  # fmt: skip
    return tuple(out)


# --- disputes ------------------------------------------------------------------------------------


def judge_disputes(match: SjMatch, base: SjReport) -> tuple[SjDispute, ...]:
    """Each disputed play with other versions, every version judged by validating the record
    with it in place (the recorded one by the record's own report). An error after the move
    that every version meets alike is the record's, not any version's (`_alike`)."""
    out: list[SjDispute] = []
    occurs = occurrences([rnd.number for rnd in match.rounds])
    for ri, rnd in enumerate(match.rounds):
        for bi, b in enumerate(rnd.bids):  # a bid takes disputes as a play does (FORMAT.md)
            if not b.disputed or not b.alternatives:
                continue
            before = _before(base, b)
            judged = [(match, base)] + [
                (c, validate_match(c)) for c in (with_bid(match, ri, bi, alt)
                                                 for alt in b.alternatives)
            ]  # fmt: skip
            alike = _alike([r for _, r in judged], b)
            versions = [
                _version(c, r, ri, b, cards, i == 0, before, alike)
                for i, ((c, r), cards) in enumerate(zip(judged, (b.cards, *b.alternatives),
                                                        strict=True))
            ]  # fmt: skip
            out.append(SjDispute(rnd.number, None, None, b.seat, b, tuple(versions), bi + 1, ri,
                                 occurs[ri]))  # fmt: skip
        for ti, trick in enumerate(rnd.tricks):
            for mi, m in enumerate(trick.moves):
                if not m.disputed or not m.alternatives:
                    continue
                before = _before(base, m)
                others = [(c, validate_match(c)) for c in (with_play(match, ri, ti, mi, alt)
                                                           for alt in m.alternatives)]  # fmt: skip
                alike = _alike([base] + [r for _, r in others], m)
                written = _version(match, base, ri, m, m.cards, True, before, alike)
                versions = [replace(written, forced=m.forced)]  # a failed throw: its part
                for alt, (candidate, report) in zip(m.alternatives, others, strict=True):
                    v = _version(candidate, report, ri, m, alt, False, before, alike)
                    versions.append(_as_failed_throw(match, ri, ti, mi, v, before, alike) or v)
                out.append(SjDispute(rnd.number, ti + 1, mi + 1, m.seat, m, tuple(versions),
                                     index=ri, occurrence=occurs[ri]))  # fmt: skip
    return tuple(out)


def _alike(reports: Sequence[SjReport], m: SjMove) -> frozenset[tuple[int, int]]:
    """The places (line, column) after the disputed move `m` (not at it) where the record is
    wrong whatever was played at `m`: every version's report has an error there, and every
    version whose own play is not refused at `m` has the same one (code and message). A
    version refused at `m` may meet it as another error of that move; one that gets past `m`
    and errs otherwise there (its card played again) errs for its own reasons."""
    at = (m.pos[0], m.pos[1]) if m.pos else (0, 0)
    common: set[tuple[int, int]] | None = None
    said: dict[tuple[int, int], set[frozenset[tuple[str, str]]]] = {}
    for r in reports:
        errors: dict[tuple[int, int], set[tuple[str, str]]] = {}
        for d in r.diagnostics:
            if d.severity == "error" and d.code not in WRITTEN:
                place = (d.location.line or 0, d.location.col or 0)
                errors.setdefault(place, set()).add((d.code, d.message))
        places = {place for place in errors if place > at}
        common = places if common is None else common & places
        if at not in errors:  # its play gets past the move: what it meets there must agree
            for place in places:
                said.setdefault(place, set()).add(frozenset(errors[place]))
    return frozenset(p for p in common or () if len(said.get(p, ())) <= 1)


def later_text(d: Diagnostic) -> str:
    """What a legal version says of the record's later error that every version meets."""
    loc = d.location
    at = f"{loc.line}:{loc.col}, " if loc.line is not None else ""
    return (
        f"the record has a later error, which every version meets: {d.code} at "
        f"{at}{loc.play()}: {d.message}; it is not this version's, but the round's points "
        f"and the levels are not known with it"
    )


def _as_failed_throw(
    match: SjMatch, ri: int, ti: int, mi: int, v: SjVersion,
    before: Counter[tuple[str, str, Any]], alike: frozenset[tuple[int, int]] = frozenset(),
) -> SjVersion | None:  # fmt: skip
    """A version that is a throw, refused as written to stand (SJ103 at the move), judged as
    the table would have settled it: held to the unit the engine forces (ruling 10)."""
    e = v.first_error
    m = match.rounds[ri].tricks[ti].moves[mi]
    if e is None or e.code != "SJ103" or m.pos is None:
        return None
    if (e.location.line, e.location.col) != (m.pos[0], m.pos[1]):
        return None
    order = match.rounds[ri].order()
    if order is None:
        return None
    try:
        units = classify(order, v.play).units
    except IllegalPlayError:
        return None
    for u in sorted(units, key=lambda u: (u.size, u.top)):
        part = from_ids(u.ids)
        candidate = with_play(match, ri, ti, mi, v.play, part)
        w = _version(candidate, validate_match(candidate), ri, m, v.play, False, before, alike)
        f = w.first_error
        if f is None or (f.location.line, f.location.col) != (m.pos[0], m.pos[1]):
            return replace(w, forced=part)
    return None


def with_play(
    match: SjMatch, ri: int, ti: int, mi: int, cards: int, forced: int | None = None
) -> SjMatch:
    """A copy of the record with the play at (round, trick, move) made `cards` (written as a
    plain play, or a failed throw held to `forced`; no dispute)."""
    rounds = list(match.rounds)
    rnd = rounds[ri] = replace(match.rounds[ri], tricks=list(match.rounds[ri].tricks))
    trick = rnd.tricks[ti] = replace(rnd.tricks[ti], moves=list(rnd.tricks[ti].moves))
    old = trick.moves[mi]
    trick.moves[mi] = SjMove(old.seat, cards, forced, joins=old.joins, pos=old.pos)
    return replace(match, rounds=rounds)


def with_bid(match: SjMatch, ri: int, bi: int, cards: int) -> SjMatch:
    """A copy of the record with bid `bi` of round `ri` showing `cards` (no dispute)."""
    rounds = list(match.rounds)
    rnd = match.rounds[ri]
    bids = list(rnd.bids)
    old = bids[bi]
    bids[bi] = SjMove(old.seat, cards, pos=old.pos)
    rounds[ri] = replace(rnd, bids=bids)
    return replace(match, rounds=rounds)


def _key(d: Diagnostic) -> tuple[str, str, Any]:
    return d.code, d.message, d.location


def _before(base: SjReport, m: SjMove) -> Counter[tuple[str, str, Any]]:
    """The record's errors located before the disputed move (they are no version's)."""
    at = m.pos or (0, 0)
    return Counter(
        _key(d) for d in base.diagnostics
        if d.severity == "error" and (d.location.line or 0, d.location.col or 0) < tuple(at[:2])
    )  # fmt: skip


def _version(
    match: SjMatch, report: SjReport, ri: int, m: SjMove, play: int, recorded: bool,
    before: Counter[tuple[str, str, Any]],
    alike: frozenset[tuple[int, int]] = frozenset(),
) -> SjVersion:  # fmt: skip
    left = Counter(before)
    at = m.pos or (0, 0)
    first = later = None
    for d in report.diagnostics:
        if d.severity != "error" or d.code in WRITTEN:
            continue
        c, loc = d.cause, (d.location.line or 0, d.location.col or 0)
        if c is not None and (c.line or 0, c.col or 0) < (at[0], at[1]) and loc != (at[0], at[1]):
            continue  # a later error that follows from one before the disputed move: not the
            # version's (one at the move itself is: the version's own play refused)
        if left[_key(d)]:
            left[_key(d)] -= 1
            continue
        if loc in alike or (c is not None and (c.line or 0, c.col or 0) in alike):
            later = later or d  # the record's own, whatever was played: not the version's
            continue
        first = d
        break
    if first is not None:
        return SjVersion(play, recorded, first, None, None, None)
    if later is not None:
        return SjVersion(play, recorded, None, None, None, None, later=later)
    # the round's own ledger, by its place: its number may be written twice (SJ508)
    ledger = next((lg for lg in report.rounds if lg.index == ri), None)
    result = ledger.result if ledger else None
    pts = _taken(match, report, ri)
    return SjVersion(play, recorded, None, pts, result.total if result else None,
                     _levels(match, report))  # fmt: skip


def _levels(match: SjMatch, report: SjReport) -> tuple[int, ...] | None:
    """The final levels the play gives: the replay goes on from the levels written after each
    round, so where one differs from the computed they are computed again without them."""
    if not any(d.code == "SJ503" for d in report.diagnostics):
        return tuple(report.levels) or None
    free = validate_match(replace(match, rounds=[replace(r, levels=None) for r in match.rounds]))
    return tuple(free.levels) or None


def _taken(match: SjMatch, report: SjReport, ri: int) -> tuple[int, ...] | None:
    """Points each seat took in tricks in round `ri`, by the analysis's replay."""
    from zfrec.games.shengji.analysis import analyze_match

    number = match.rounds[ri].number
    a = analyze_match(match, report=report)
    r = a.hand(number)
    return r.taken if r is not None else None
