"""Dispute audit: the rules under which a failing record is legal, and the edits that repair it.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> report = audit(broken_example())
    >>> report.legal, [v.label for v in report.legal_under]
    (False, [])
    >>> for repair in report.repairs[:2]: print(repair.text())
    legal if trick 1, turn 5 (Bo) was a pass
    legal if trick 1, turn 5 (Bo) was not played

The repair search is bounded. Candidate edits are generated from where the first error shows:
the move it is reported at and the moves just before it, the deal of the seat involved, or the
score line. Each candidate is applied to a copy of the record and judged by `zfrec.validate`, so
every suggestion is verified, never guessed. Suggestions are ranked by the number of edits, then
by the errors and warnings that remain, then by how targeted the generator was. When no single
edit repairs the record, the best partial repairs are extended by a second edit.

Nothing here applies a rule: the replay says what each seat held and what was on the table, the
move generator lists the plays, and the validator judges the edited record.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from zfrec.diagnostics import Diagnostic, WrittenDiagnostic, first_error
from zfrec.games.zhengfen.analysis.diff import DiffReport, Divergence, diff_games
from zfrec.games.zhengfen.analysis.disputes import DisputeJson, DisputeVerdict, judge_disputes
from zfrec.games.zhengfen.analysis.repair import Edit, Repair, RepairJson, search_repairs
from zfrec.games.zhengfen.engine.rules import PRESETS, Ruleset, preset
from zfrec.jsonview import dump
from zfrec.record.model import Game
from zfrec.validate import Report, validate

DEFAULT_BUDGET = 300  # candidate records validated per audit, at most
DEFAULT_REPAIRS = 5


# --- rules search ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RulesVerdict:
    """The record judged under other rules: a preset, or its own rules with one option flipped.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> verdict = rules_search(broken_example())[0]
    >>> verdict.label, verdict.ok, verdict.first.code if verdict.first else None
    ('poppel', False, 'ZF103')
    """

    label: str
    how: Literal["preset", "option"]
    rules: Ruleset
    errors: int
    first: Diagnostic | None

    @property
    def ok(self) -> bool:
        """The record is legal under these rules."""
        return self.errors == 0

    def to_json(self) -> dict[str, Any]:
        """The verdict as `zfrec audit --json` writes it (ANALYSIS.md)."""
        data: dict[str, Any] = dump(VerdictJson.of(self))
        return data


@dataclass(frozen=True, slots=True)
class VerdictJson:
    """The JSON of a `RulesVerdict`: the rules described and their options spelled out.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> VerdictJson.of(rules_search(broken_example())[0]).options["self_overplay"]
    True
    """

    label: str
    how: Literal["preset", "option"]
    rules: str
    options: dict[str, Any]
    ok: bool
    errors: int
    first_error: WrittenDiagnostic | None

    @classmethod
    def of(cls, v: RulesVerdict) -> VerdictJson:
        """The view of a verdict."""
        return cls(v.label, v.how, v.rules.describe(), v.rules.options(), v.ok, v.errors, v.first)


def rules_search(game: Game) -> list[RulesVerdict]:
    """Judge the record under each preset and under each single option flip of its own rules.

    Rulesets that play the same (poppel and pagat with self_overplay=true) are judged once, under
    the first label; the record's own rules are left out.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> [v.label for v in rules_search(broken_example())]
    ['poppel', 'parlett', 'pagat with sequence_lengths=equal']
    """
    own = game.ruleset()
    flips: dict[str, object] = {
        "self_overplay": not own.self_overplay,
        "jokers_wild": not own.jokers_wild,
        "sequence_lengths": "equal" if own.sequence_lengths == "any" else "any",
    }
    candidates: list[tuple[str, Literal["preset", "option"], Ruleset]] = [
        (name, "preset", preset(name, target=own.target)) for name in PRESETS
    ]
    for option, value in flips.items():
        shown = str(value).lower() if isinstance(value, bool) else value
        candidates.append(
            (
                f"{own.describe()} with {option}={shown}",
                "option",
                own.with_options(**{option: value}),
            )
        )
    seen = {_play_key(own)}
    out: list[RulesVerdict] = []
    for label, how, rules in candidates:
        key = _play_key(rules)
        if key in seen:
            continue
        seen.add(key)
        report = validate(game, rules)
        first = first_error(report.diagnostics)
        out.append(RulesVerdict(label, how, rules, report.errors, first))
    return out


def listed(found: list[Repair]) -> list[Repair]:
    """The repairs worth listing, in their order: once one makes the record legal, only those
    that do. A partial repair beside a full one fixes some of what the full one fixes, or
    something else while the rest stays wrong: either way it only distracts.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> from zfrec.games.zhengfen.analysis.repair import search_repairs
    >>> game = broken_example()
    >>> found = search_repairs(game, game.ruleset(), validate(game), 300, 5)[0]
    >>> any(not r.ok for r in found), all(r.ok for r in listed(found))
    (True, True)
    """
    if any(r.ok for r in found):
        return [r for r in found if r.ok]
    return found


def _play_key(rules: Ruleset) -> tuple[tuple[str, object], ...]:
    return tuple(sorted(rules.options().items()))


# --- the report -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AuditReport:
    """One record audited: its own verdict, the other rules tried, and the repairs found.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> report = audit(broken_example())
    >>> report.legal, report.repaired, report.report.errors, report.repairs[0].size
    (False, True, 2, 1)
    >>> report.to_json()["search"]["budget_hit"]
    False
    """

    game: Game
    report: Report  # the record as it stands, under its own rules
    rulesets: tuple[RulesVerdict, ...]
    repairs: tuple[Repair, ...]
    tried: int  # candidate records validated
    budget_hit: bool
    seconds: float
    disputes: tuple[DisputeVerdict, ...] = ()  # disputed moves with other versions, judged

    @property
    def legal(self) -> bool:
        """The record is legal as it stands."""
        return self.report.ok

    @property
    def legal_under(self) -> list[RulesVerdict]:
        """The other rules under which the record is legal."""
        return [v for v in self.rulesets if v.ok]

    @property
    def repaired(self) -> bool:
        """Some repair makes the record legal."""
        return any(r.ok for r in self.repairs)

    def to_json(self) -> dict[str, Any]:
        """The audit as `zfrec audit --json` writes it for one game (ANALYSIS.md)."""
        data: dict[str, Any] = dump(AuditJson.of(self), players=self.game.players)
        return data


@dataclass(frozen=True, slots=True)
class SearchJson:
    """How the repair search went: candidates validated, the bound, the time (to the ms).

    >>> SearchJson(tried=18, budget_hit=False, seconds=0.021)
    SearchJson(tried=18, budget_hit=False, seconds=0.021)
    """

    tried: int
    budget_hit: bool
    seconds: float


@dataclass(frozen=True, slots=True)
class AuditJson:
    """The JSON of an `AuditReport`.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> view = AuditJson.of(audit(broken_example()))
    >>> view.legal_under, view.repairs[0].text
    ([], 'legal if trick 1, turn 5 (Bo) was a pass')
    """

    players: list[str]
    rules: str
    legal: bool
    errors: int
    diagnostics: tuple[WrittenDiagnostic, ...]
    legal_under: list[str]
    rulesets: tuple[VerdictJson, ...]
    repaired: bool
    repairs: tuple[RepairJson, ...]
    search: SearchJson
    disputes: tuple[DisputeJson, ...]

    @classmethod
    def of(cls, r: AuditReport) -> AuditJson:
        """The view of an audit."""
        return cls(
            players=r.game.players,
            rules=r.report.rules.describe(),
            legal=r.legal,
            errors=r.report.errors,
            diagnostics=r.report.diagnostics,
            legal_under=[v.label for v in r.legal_under],
            rulesets=tuple(VerdictJson.of(v) for v in r.rulesets),
            repaired=r.repaired,
            repairs=tuple(RepairJson.of(x) for x in r.repairs),
            search=SearchJson(r.tried, r.budget_hit, round(r.seconds, 3)),
            disputes=tuple(DisputeJson.of(d) for d in r.disputes),
        )


# --- the audit ------------------------------------------------------------------------------------


def audit(
    game: Game,
    *,
    budget: int = DEFAULT_BUDGET,
    repairs: int = DEFAULT_REPAIRS,
    second_edits: bool = True,
    search_rules: bool = True,
) -> AuditReport:
    """Audit one record: its verdict, the rules that make it legal, and ranked repairs.

    `budget` bounds the candidate records validated; `repairs` is how many suggestions to keep.
    A legal record gets neither a rules search nor repairs. Every disputed move with other
    versions is judged either way (zfrec.games.zhengfen.analysis.disputes).

    >>> from zfrec.games.zhengfen.analysis.example import broken_example, example_game
    >>> audit(example_game()).legal, audit(example_game()).tried
    (True, 0)
    >>> audit(broken_example(), budget=5).tried <= 5
    True
    """
    started = time.perf_counter()
    rules = game.ruleset()
    base = validate(game, rules)
    disputes = judge_disputes(game, rules)
    if base.ok:
        return AuditReport(game, base, (), (), 0, False, time.perf_counter() - started, disputes)
    verdicts = tuple(rules_search(game)) if search_rules else ()
    found, tried = search_repairs(game, rules, base, budget, repairs)
    if second_edits and not any(r.ok for r in found):
        partial = sorted(found, key=lambda r: r.rank_key)[:2]
        for step in partial:
            left = max(0, budget - tried) // max(1, len(partial))
            if left == 0:
                break
            more, used = search_repairs(step.record, rules, step.report, left, repairs)
            tried += used
            for r in more:
                found.append(Repair(step.edits + r.edits, r.record, r.report, len(found) + r.order))
    found.sort(key=lambda r: r.rank_key)
    return AuditReport(
        game, base, verdicts, tuple(listed(found)[:repairs]), tried, tried >= budget,
        time.perf_counter() - started, disputes,
    )  # fmt: skip


__all__ = [
    "AuditJson",
    "AuditReport",
    "DiffReport",
    "DisputeVerdict",
    "Divergence",
    "Edit",
    "Repair",
    "RulesVerdict",
    "SearchJson",
    "VerdictJson",
    "audit",
    "diff_games",
    "listed",
    "rules_search",
]
