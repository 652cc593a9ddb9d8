"""The game's charts: cumulative scores and points per hand, drawn with matplotlib's Figure.

No pyplot (no global state, no GUI backend). Each chart comes out as SVG text, to be inlined in
the game page, and as PNG bytes, for people who want a picture file. The SVG keeps its text as
text (searchable, readable by screen readers, and CJK names draw with the browser's fonts).
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import matplotlib
from markupsafe import Markup, escape
from matplotlib import font_manager
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from zfrec.render.html import GameView

# Okabe-Ito, distinguishable under the common colour-vision deficiencies; the same order as the
# seat colours of the replay pages (--seat0..5 in style.css).
SEAT_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#9a7400", "#56b4e9")
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Source Han Sans SC", "WenQuanYi Zen Hei")
RC: dict[Any, Any] = {
    "font.size": 10,
    "svg.fonttype": "none",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#e3ddd0",
    "grid.linewidth": 0.8,
    "axes.edgecolor": "#8a8f96",
    "axes.labelcolor": "#1d232a",
    "xtick.color": "#3b4450",
    "ytick.color": "#3b4450",
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
}


@dataclass(frozen=True, slots=True)
class Chart:
    """One chart in both forms. `name` is the file stem (`scores`, `points`)."""

    name: str
    title: str
    svg: str
    png: bytes

    def inline(self) -> Markup:
        """The SVG for inlining in a page: zfrec generated it, so it is marked safe here."""
        return Markup(self.svg)


@cache
def _fonts() -> list[str]:
    """DejaVu Sans, then the first CJK font installed: matplotlib falls back glyph by glyph
    along this list, so Chinese names draw in the PNG (fonts-noto-cjk on Debian)."""
    installed = {f.name for f in font_manager.fontManager.ttflist}
    return ["DejaVu Sans", *[f for f in CJK_FONTS if f in installed][:1]]


def _seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def score_figure(view: GameView) -> Figure:
    """Running totals per player after each hand, the target as a line, the winner marked."""
    players = view.header.players
    fig = Figure(figsize=(8, 3.6), layout="constrained")
    ax = fig.add_subplot()
    hands = [0, *(s.number for s in view.summaries)]
    for seat, name in enumerate(players):
        ys = [0, *(s.totals[seat] for s in view.summaries)]
        ax.plot(
            hands, ys, marker="o", markersize=3.5, linewidth=2, color=_seat_colour(seat), label=name
        )
    target = view.header.target
    ax.axhline(target, color="#b3261e", linestyle="--", linewidth=1.2)
    ax.annotate(
        f"target {target}",
        xy=(0, target),
        xytext=(2, 3),
        textcoords="offset points",
        color="#b3261e",
        fontsize=9,
    )
    if view.winners and view.summaries:
        last = view.summaries[-1]
        for seat in view.winners:
            ax.plot(
                [last.number],
                [last.totals[seat]],
                marker="*",
                markersize=16,
                color="#c9971c",
                markeredgecolor="#1d232a",
                zorder=5,
                clip_on=False,
            )
            ax.annotate(
                f"{players[seat]} wins",
                xy=(last.number, last.totals[seat]),
                xytext=(-6, 9),
                textcoords="offset points",
                ha="right",
                fontweight="bold",
                fontsize=9,
            )
    ax.set_xlabel("hand")
    ax.set_ylabel("score")
    ax.set_xlim(0, max(1, hands[-1]) + 0.3)
    highest = max([target, *(t for s in view.summaries for t in s.totals)])
    ax.set_ylim(bottom=min(0, *(t for s in view.summaries for t in s.totals)), top=highest * 1.15)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1), frameon=False, fontsize=9)
    return fig


def points_figure(view: GameView) -> Figure:
    """Points each player took in each hand, stacked per hand."""
    players = view.header.players
    fig = Figure(figsize=(8, 3.6), layout="constrained")
    ax = fig.add_subplot()
    numbers = [s.number for s in view.summaries]
    bottom = [0] * len(numbers)
    for seat, name in enumerate(players):
        heights = [(s.points[seat] if s.points is not None else 0) for s in view.summaries]
        ax.bar(
            numbers,
            heights,
            bottom=bottom,
            color=_seat_colour(seat),
            label=name,
            width=0.75,
            edgecolor="white",
            linewidth=0.6,
        )
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    ax.set_xlabel("hand")
    ax.set_ylabel("points in the hand")
    if numbers:
        ax.set_xticks(numbers if len(numbers) <= 20 else numbers[:: max(1, len(numbers) // 20)])
    ax.grid(axis="x", visible=False)
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1), frameon=False, fontsize=9)
    return fig


_XML_PROLOGUE = re.compile(r"^.*?(?=<svg)", re.S)
_SIZE = re.compile(r'<svg([^>]*?) width="[^"]*" height="[^"]*"')


def figure_svg(fig: Figure, salt: str, title: str) -> str:
    """SVG text for inlining: no XML prologue, ids unique to the chart, a title for readers."""
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": salt, "svg.id": salt}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": "zfrec"})
    svg = _XML_PROLOGUE.sub("", buf.getvalue(), count=1)
    svg = _SIZE.sub(r'<svg\1 role="img" aria-label="' + str(escape(title)) + '"', svg, count=1)
    return svg


def figure_png(fig: Figure, dpi: int = 120) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": "zfrec"})
    return buf.getvalue()


def game_charts(view: GameView) -> list[Chart]:
    """The charts of a game page: the score race and the points per hand."""
    if not view.summaries:
        return []
    out = []
    with matplotlib.rc_context({**RC, "font.family": _fonts()}), warnings.catch_warnings():
        # Without a CJK font matplotlib warns per missing glyph; the SVG still shows the name.
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        makers = (
            ("scores", "Cumulative scores", score_figure),
            ("points", "Points per hand", points_figure),
        )
        for name, title, make in makers:
            fig = make(view)
            svg = figure_svg(fig, f"zf-{name}", title)
            out.append(Chart(name, title, svg, figure_png(fig)))
    return out


def chart_markup(charts: Sequence[Chart]) -> list[Markup]:
    return [c.inline() for c in charts]
