"""Rendering: hand replays, game pages with charts, and a static site (RENDER.md).

    >>> from zfrec.render import build_game_view, render_hand, game_files
    >>> view = build_game_view(game)               # view-models from the replay stream
    >>> html = render_hand(view.hands[0])          # one self-contained page, as a string
    >>> files = game_files(game)                   # the game page, replays and charts

Renderers return strings (or OutputFile values); only the CLI writes files. Charts (matplotlib)
are imported from zfrec.render.charts on demand.
"""

from __future__ import annotations

from zfrec.render.html import (
    ExtraSection,
    GameView,
    HandView,
    StepNote,
    StepView,
    build_game_view,
    render_game,
    render_hand,
)

__all__ = [
    "ExtraSection",
    "GameView",
    "HandView",
    "StepNote",
    "StepView",
    "build_game_view",
    "game_files",
    "publish",
    "render_game",
    "render_hand",
]


def __getattr__(name: str) -> object:
    # game_files and publish pull in the charts and the store: load them on first use.
    if name in ("game_files", "publish"):
        from zfrec.render import site

        return getattr(site, name)
    raise AttributeError(f"module 'zfrec.render' has no attribute {name!r}")
