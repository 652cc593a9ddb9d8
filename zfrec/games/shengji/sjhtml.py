"""Sheng ji's pages as HTML: the round's replay and the match's page, rendered by the generic
Jinja2 environment (zfrec.render.html: autoescape, minified inline scripts and styles, the
content-security hashes) from `zfrec.games.shengji.pages`' views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zfrec.diagnostics import Diagnostic
from zfrec.games.shengji.pages import SUIT_WORDS, RoundPage, SjGameView
from zfrec.games.shengji.rules import level_text
from zfrec.render.html import environment
from zfrec.render.views import ChartEmbed

__all__ = ["play_steps", "render_game_page", "render_round_page"]

ROUND_SCRIPTS = ("stepper.js", "movelist.js", "sj_replay.js")


def render_round_page(view: SjGameView, page: RoundPage) -> str:
    """One round's self-contained replay page."""
    template = environment().get_template("sj_round.html.j2")
    return template.render(view=view, page=page, scripts=ROUND_SCRIPTS)


def play_steps(view: SjGameView) -> dict[tuple[int, int, int], int]:
    """The step of its round's replay page that shows each play, by (round, trick, turn)."""
    steps: dict[tuple[int, int, int], int] = {}
    for page in view.rounds:
        for i, st in enumerate(page.data["steps"]):
            if st["kind"] == "play":
                steps[(page.number, st["trick"], st["turn"])] = i
    return steps


def render_game_page(view: SjGameView, charts: Sequence[ChartEmbed] = ()) -> str:
    """The match's page: the result, a line per round linked to its replay, the charts and
    the validator's findings, each linked to its step."""
    steps = play_steps(view)

    def step_of(d: Diagnostic) -> int:
        loc = d.location
        if loc is None or loc.hand is None or loc.trick is None:
            return 0
        return steps.get((loc.hand, loc.trick, loc.turn or 1), 0)

    def trump_word(trump: str | None) -> str:
        return SUIT_WORDS.get(trump or "", "trump not written")

    def finding_href(d: Diagnostic) -> str:
        """The finding's round page (by its line where the round's number is written twice),
        at the step of its play."""
        loc = d.location
        links = view.links
        href = links.href(loc, whole_round=False, unknown=0) if links else None
        if href is None and loc is not None:  # a view made without the rounds' links
            href = f"round-{loc.hand}.html" + (f"#step={step_of(d)}" if loc.trick else "")
        return href or ""

    template = environment().get_template("sj_game.html.j2")
    extra: dict[str, Any] = {"level_text": level_text, "trump_word": trump_word,
                             "step_of": step_of, "finding_href": finding_href}  # fmt: skip
    return template.render(view=view, charts=charts, scripts=(), **extra)
