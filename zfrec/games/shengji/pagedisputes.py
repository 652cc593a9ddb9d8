"""Disputed bids and plays on a Sheng ji round's replay page: every version and its verdict.

    mark_disputes(view)   # a note at each disputed step, a section on its round's page

A disputed bid or play with other versions (`8c disputed "..." or 5d`, FORMAT.md) is judged as
`zfrec audit` judges it (`zfrec.games.shengji.audit.judge_disputes`: the record validated with
each version in place), so a valid record, which gets no audit page, still shows the verdicts
where its replay is read. The section is templates/sj_disputes.html.j2, the partial the audit
page includes. Not in a seat's view: a version's verdict can tell what another hand held.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from zfrec.diagnostics import version_verdict
from zfrec.games.shengji.audit import SjDispute, judge_disputes
from zfrec.games.shengji.auditpage import dispute_view
from zfrec.games.shengji.cards import format_hand
from zfrec.games.shengji.pages import SjGameView
from zfrec.render.html import environment

__all__ = ["mark_disputes"]


def mark_disputes(view: SjGameView) -> None:
    """Put each judged dispute on its round's page: a note at its step (the deal step for a
    bid) and the section of every version (`RoundPage.disputes`). Nothing in a seat's view."""
    if view.viewer is not None:
        return
    found = judge_disputes(view.match, view.report)
    players = list(view.match.players)
    template = environment().get_template("sj_disputes.html.j2")
    for i, page in enumerate(view.rounds):
        here = [d for d in found if d.index == i]
        if not here:
            continue
        steps = page.data["steps"]
        for d in here:
            step = _step(steps, d)
            if step is not None:
                step["notes"].append(_note(d))
        shown = [
            dispute_view(d, players, f"dispute-{k}", view.match) for k, d in enumerate(here, 1)
        ]
        html = template.render(disputes=shown, players=players, h=None, heading_id="")
        page.disputes = Markup(html)  # drawn as it is (the partial escapes what it shows)


def _step(steps: list[dict[str, Any]], d: SjDispute) -> dict[str, Any] | None:
    """The replay's step that shows the disputed bid (the deal) or play."""
    if d.trick is None:
        return steps[0] if steps else None
    return next(
        (s for s in steps if s["kind"] == "play" and (s["trick"], s["turn"]) == (d.trick, d.turn)),
        None,
    )


def _note(d: SjDispute) -> str:
    verdicts = (version_verdict(format_hand(v.play), v.recorded, v.first_error) for v in d.versions)
    return "Disputed: " + "; ".join(verdicts)
