"""A round's written ledger against the engine's: its points line (trick points, kitty, throw
penalties), its level change and its next dealer (SJ501-SJ504, rulings 11-13). The validator
(`zfrec.games.shengji.replayer`) calls it at each round's end with its `note`; the words of
each finding are `zfrec.games.shengji.verdicts`'."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from zfrec.diagnostics import Cause, Diagnostic
from zfrec.games.shengji.events import RoundResult
from zfrec.games.shengji.formats import Format
from zfrec.games.shengji.records import SjRound
from zfrec.games.shengji.report import itemised
from zfrec.games.shengji.rules import SjRules
from zfrec.games.shengji.verdicts import adds_up, band, kitty_wrong, who_paid
from zfrec.record.model import Pos

__all__ = ["Note", "check_ledger"]


class Note(Protocol):
    """How a finding is recorded (the validator's `_Replay.note`)."""

    def __call__(
        self,
        code: str,
        message: str,
        pos: Pos | None,
        *,
        seat: int | None = None,
        cause: Cause | None = None,
        rule: str | None = None,
    ) -> Diagnostic: ...


def check_ledger(
    note: Note,
    names: Sequence[str],
    root: Cause | None,
    rules: SjRules,
    rnd: SjRound,
    r: RoundResult,
    last_lead: Format | None = None,
    penalties: Sequence[int] = (),
) -> tuple[Cause | None, Cause | None]:
    """The written points and level change against the engine's; returns the causes that
    the levels and the next dealer inherit. `root` is the round's first altering error, which
    a figure wrong only because of it follows from. `penalties` are the throw penalties each
    seat's failed throws cost (the round's `RoundState.penalties`), named when the net is wrong."""
    points_cause: Cause | None = None

    def mark(d: Diagnostic) -> Cause:
        return d.cause or Cause(d.location.line, d.location.col, d.code)

    p = rnd.points
    if p is not None:
        wrong_kitty = kitty_wrong(names, rnd, r, last_lead)
        kd = None
        if wrong_kitty:
            kd = note("SJ502", wrong_kitty, p.pos, cause=root, rule="11")
            points_cause = mark(kd)
        wrong = []
        if p.total is not None and p.total != r.total:
            wrong.append(f"the opponents took {r.total} points, not {p.total}")
            if p.taken != r.taken and (p.total != p.taken or r.total != r.taken):
                wrong.append(f"{r.taken} of them in tricks, not {p.taken}")
        elif p.taken != r.taken:
            wrong.append(f"the opponents took {r.taken} points in tricks, not {p.taken}")
        if p.penalty != r.penalty:
            wrong.append(f"the throw penalties come to {r.penalty}, not {p.penalty}"
                         + who_paid(names, rules, r.declarers, penalties))  # fmt: skip
        if wrong:
            # a line whose own figures add up, with only its kitty wrong, is wrong by that
            alone = kd is not None and adds_up(p) and p.taken == r.taken
            d = note("SJ501", "; ".join(wrong) + itemised(r), p.pos,
                     cause=points_cause if alone and p.penalty == r.penalty else root,
                     rule="11, 12" if p.penalty == r.penalty else "10, 11, 12")  # fmt: skip
            points_cause = points_cause or mark(d)
    o = rnd.outcome
    level_cause = points_cause or root
    d_cause = level_cause
    if o is not None:
        ch = r.change
        side, steps = ("opponents", ch.opponents) if ch.swap else ("declarers", ch.declarers)
        if (o.side, o.steps) != (side, steps):
            d = note("SJ503", f"{r.total} points ({band(r.total, rules.decks)}) give "
                     f"{side} +{steps}"
                     + (" (the teams swap)" if ch.swap else "")
                     + f", not {o.side} +{o.steps}", o.pos, cause=level_cause,
                     rule="12, 13")  # fmt: skip
            level_cause = mark(d)
        if o.next_dealer is not None and o.next_dealer != r.next_dealer:
            if r.change.swap:
                why = "swap the teams, and the first opponent after the dealer deals"
            elif r.declarers & (r.declarers - 1) == 0:  # one seat: zhao pengyou, no friend
                why = "keep the declarers, and the dealer, who declared alone, deals again"
            else:
                why = "keep the declarers, and the next declarer after the dealer deals"
            d = note("SJ504", f"{names[r.next_dealer]} deals next, not "
                     f"{names[o.next_dealer]} ({r.total} points {why})", o.pos,
                     seat=o.next_dealer, cause=d_cause, rule="12")  # fmt: skip
            d_cause = mark(d)
    return level_cause, d_cause
