"""Sheng ji's charts: the level ladder and the opponents' points per round, as SVG for the
pages and as matplotlib PNGs, drawn by the generic chart code (zfrec.render.charts: one
`ChartModel`, one layout, two drawings).

- **The level ladder** (`levels`): each team's level (2 to A) after each round, from the
  levels before the first (round 0); a dot on a team's line marks a round it declared. In
  zhao pengyou, where teams change each round, a line per player.
- **The opponents' points** (`points`): a bar per round, coloured by the team that was
  opponents that round, against the dashed lines where the teams swap and the opponents go up
  one and two levels (80, 120 and 160 with two decks: `SjRules.swap_at` and `step`), each
  labelled in the margin right of the plot, where no bar reaches its label.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zfrec.games.shengji.rules import level_text
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

if TYPE_CHECKING:
    from zfrec.games.shengji.pages import SjGameView

__all__ = ["ladder_model", "match_charts", "points_model"]


def _sides(view: SjGameView) -> list[tuple[int, list[int], str]]:
    """The lines of the charts: (colour seat, seats, label) per team, or per player."""
    players = view.match.players
    teams = view.teams
    if teams is None:
        return [(s, [s], short_name(name)) for s, name in enumerate(players)]
    out = []
    for t in teams:
        label = " & ".join(players[s] for s in t)
        out.append((t[0], t, short_name(label)))
    return out


def ladder_model(view: SjGameView) -> ChartModel:
    """Each team's level after each round; a dot where the team declared."""
    sums = view.summaries
    at, texts = chart_xs([s.number for s in sums])
    xs = (0, *at)
    series = []
    marks = []
    for colour, seats, label in _sides(view):
        values = [sums[0].levels_before[seats[0]] if sums else 2]
        for x, s in zip(at, sums, strict=True):
            after = s.levels_after if s.levels_after is not None else s.levels_before
            values.append(after[seats[0]])
            if set(seats) & set(s.declarers):
                marks.append((colour, x, values[-1]))
        series.append(Series(colour, label, label, tuple(values)))
    values = [v for s in series for v in s.values]
    lo, hi = min(values), max(values)
    ticks = tuple(range(lo, hi + 1))
    major, minor = x_ticks(xs)
    return ChartModel(
        "levels", "Level ladder", "lines", xs, tuple(series), lo - 0.4, hi + 0.6, ticks,
        major, minor, "round (● declared)", "level", y_labels=tuple(level_text(t) for t in ticks),
        marks=tuple(marks), x_texts=("0", *texts) if texts else (),
    )  # fmt: skip


def points_model(view: SjGameView) -> ChartModel:
    """The opponents' points in each round, by the team that was opponents."""
    sums = view.summaries
    xs, texts = chart_xs([s.number for s in sums])
    rules = view.rules
    swap, step = (rules.swap_at, rules.step) if rules is not None else (80, 40)
    series = []
    if view.teams is None:  # zhao pengyou: the opponents change every round, one bar each
        totals = tuple(max(0, s.total or 0) for s in sums)
        series.append(Series(len(view.match.players), "opponents", "opponents", totals))
    else:
        for colour, seats, label in _sides(view):
            values = tuple(
                max(0, s.total or 0) if not set(seats) & set(s.declarers) else 0 for s in sums
            )
            series.append(Series(colour, label, label, values))
    highest = max([sum(col) for col in zip(*(s.values for s in series), strict=True)] or [0])
    ticks = nice_ticks(0, max(highest, swap + 2 * step + 10), 4)
    major, minor = x_ticks(xs)
    lines = ((swap, f"{swap} swap"), (swap + step, f"{swap + step} +1"),
             (swap + 2 * step, f"{swap + 2 * step} +2"))  # fmt: skip
    return ChartModel(
        "points", "Opponents' points per round", "bars", xs, tuple(series), 0,
        max(ticks[-1], highest), ticks, major, minor, "round", "opponents' points",
        lines=lines, x_texts=texts,
    )  # fmt: skip


def match_charts(view: SjGameView, *, png: bool = True) -> list[Chart]:
    """The match page's charts: the level ladder and the opponents' points."""
    if not view.summaries:
        return []
    return [render_chart(m, png=png) for m in (ladder_model(view), points_model(view))]
