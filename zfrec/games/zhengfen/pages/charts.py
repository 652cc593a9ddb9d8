"""Zheng Fen's charts: cumulative scores and points per hand, drawn by the chart engine
(zfrec.render.charts).

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> from zfrec.games.zhengfen.pages.html import build_game_view
    >>> scores, points = game_charts(build_game_view(broken_example()))
    >>> scores.svg[:43]          # the SVG for the page: 100 % wide, text as text
    '<svg viewBox="0 0 340 242" class="zf-chart"'
    >>> scores.png[:4]           # a picture, or None when no installed font draws the names
    b'\x89PNG'
"""

from __future__ import annotations

from zfrec.games.zhengfen.pages.views import GameView
from zfrec.render.charts import (
    Chart,
    ChartModel,
    Series,
    chart_xs,
    nice_ticks,
    render_chart,
    x_ticks,
)
from zfrec.render.views import short_name

__all__ = ["game_charts", "points_model", "score_model"]


def score_model(view: GameView) -> ChartModel:
    """The score race: each player's total after each hand, the target, the winners."""
    players = view.header.players
    summaries = view.summaries
    at, texts = chart_xs([s.number for s in summaries])
    xs = (0, *at)
    series = tuple(
        Series(seat, name, short_name(name), (0, *(s.totals[seat] for s in summaries)))
        for seat, name in enumerate(players)
    )
    values = [v for s in series for v in s.values]
    # the target's line while the race has come half way to it: below that, the lines of a
    # short game would lie flat along the bottom of a scale made for the target
    target = view.header.target
    drawn = target if max(values) * 2 >= target else None
    caption = "score" if drawn else f"score (target {target})"  # named where not drawn
    lo, hi = min(0, *values), max(drawn or 0, *values) * 1.12
    ticks = nice_ticks(lo, hi)
    winners: list[tuple[int, int, int, str]] = []
    if view.over and summaries:
        last = summaries[-1]
        for seat in view.winners:
            winners.append((seat, xs[-1], last.totals[seat], short_name(players[seat])))
    major, minor = x_ticks(xs)
    return ChartModel(
        "scores", "Cumulative scores", "lines", xs, series, ticks[0], max(hi, ticks[-1]),
        ticks, major, minor, "hand", caption, drawn, tuple(winners),
        x_texts=("0", *texts) if texts else (),
    )  # fmt: skip


def points_model(view: GameView) -> ChartModel:
    """The points each player took in each hand, stacked per hand."""
    players = view.header.players
    summaries = view.summaries
    xs, texts = chart_xs([s.number for s in summaries])
    series = tuple(
        Series(
            seat, name, short_name(name),
            tuple((s.points[seat] if s.points is not None else 0) for s in summaries),
        )
        for seat, name in enumerate(players)
    )  # fmt: skip
    highest = max([sum(col) for col in zip(*(s.values for s in series), strict=True)] or [0])
    ticks = nice_ticks(0, max(highest, 1), 4)
    major, minor = x_ticks(xs)
    return ChartModel(
        "points", "Points per hand", "bars", xs, series, 0, max(ticks[-1], highest), ticks,
        major, minor, "hand", "points in the hand", x_texts=texts,
    )  # fmt: skip


def game_charts(view: GameView, *, png: bool = True) -> list[Chart]:
    """The charts of a game page: the score race and the points per hand."""
    if not view.summaries:
        return []
    return [render_chart(model, png=png) for model in (score_model(view), points_model(view))]
