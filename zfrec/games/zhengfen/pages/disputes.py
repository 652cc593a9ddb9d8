"""Disputed moves on the replay pages: each version of a disputed move and its verdict.

    mark_disputes(view, record)   # a note at each disputed step, a section on its hand's page

The verdicts come from zfrec.games.zhengfen.analysis.disputes (the record replayed with each
version in place); the HTML from templates/disputes.html.j2, the same partial the audit pages
include.

    >>> from zfrec.games.zhengfen.analysis.disputes import DISPUTE_EXAMPLE
    >>> from zfrec.record import loads
    >>> from zfrec.games.zhengfen.pages.html import build_game_view
    >>> [game] = loads(DISPUTE_EXAMPLE)
    >>> view = build_game_view(game)
    >>> mark_disputes(view, game)
    >>> [s.title for s in view.hands[0].sections]
    ['Disputed moves']
    >>> [n.text for s in view.hands[0].steps for n in s.notes if n.kind == "dispute"]
    ['Disputed: 9h (as recorded) legal; or 3d illegal (ZF103 at record line 4); or pass legal']
"""

from __future__ import annotations

from markupsafe import Markup

from zfrec.diagnostics import version_verdict
from zfrec.games.zhengfen.analysis.disputes import DisputeVerdict, judge_disputes
from zfrec.games.zhengfen.pages.views import ExtraSection, GameView, StepNote
from zfrec.record.model import Game
from zfrec.render.html import environment

SECTION_TITLE = "Disputed moves"


def mark_disputes(
    view: GameView, record: Game, disputes: tuple[DisputeVerdict, ...] | None = None
) -> None:
    """Put each dispute on the page of its hand: a note at the disputed step, and a section
    with every version and its verdict. `disputes` defaults to judging the record's."""
    found = judge_disputes(record) if disputes is None else disputes
    if not found:
        return
    template = environment().get_template("disputes.html.j2")
    for i, hv in enumerate(view.hands):
        here = [d for d in found if d.hand_index == i]
        if not here:
            continue
        # The page's disputed steps are the hand's disputed moves, in record order.
        written = [
            m for trick in record.hands[i].tricks for m in trick.moves if m.disputed
        ]  # fmt: skip
        steps = [s for s in hv.steps if s.disputed]
        for move, step in zip(written, steps, strict=False):
            verdict = next((d for d in here if d.move is move), None)
            if verdict is not None:
                step.notes.append(StepNote(_note(verdict), "dispute"))
        html = template.render(disputes=here, players=record.players, h=None)
        hv.sections.append(ExtraSection(SECTION_TITLE, html=Markup(html)))


def _note(d: DisputeVerdict) -> str:
    return "Disputed: " + "; ".join(
        version_verdict(v.play, v.recorded, v.first_error) for v in d.versions
    )
