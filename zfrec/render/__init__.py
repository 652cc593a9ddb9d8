"""Rendering for every game: a game's files, the static site, and what pages share (RENDER.md).

    >>> from zfrec.render import game_files, publish
    >>> files = game_files(game)                   # the game page, replays and charts

A game's pages are its kind's (`GameKind.render_files`: Zheng Fen's in
zfrec.games.zhengfen.pages, Sheng ji's in its package); here are the Jinja2 environment
(html), the helpers pages share (views), the chart engine (charts, svgchart, mplrender, fonts),
the files and their cache keys (gamefiles) and the site (site). Renderers return strings (or
OutputFile values); only the CLI writes files. Charts (matplotlib) are imported on demand.
"""

from __future__ import annotations

__all__ = [
    "game_files",
    "publish",
]


def __getattr__(name: str) -> object:
    # game_files and publish pull in the charts and the store: load them on first use.
    if name in ("game_files", "publish"):
        from zfrec.render import site

        return getattr(site, name)
    raise AttributeError(f"module 'zfrec.render' has no attribute {name!r}")
