"""A chart's SVG, written directly from its model: the page's responsive drawing.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> from zfrec.games.zhengfen.pages.charts import score_model
    >>> from zfrec.games.zhengfen.pages.html import build_game_view
    >>> page, file = chart_svg(score_model(build_game_view(broken_example())))
    >>> page[:43], file[:40]
    ('<svg viewBox="0 0 340 242" class="zf-chart"', '<svg xmlns="http://www.w3.org/2000/svg" ')

The same layout (`charts.frame`), colours and sizes as the PNG that matplotlib draws
(`charts.draw`), in a few hundred bytes of paths and texts: the grid, the axis and its ticks
are one path each, a series is one path. The text stays text, drawn by the reader's browser in
the reader's fonts (so a name in any script shows), anchored at its start, middle or end; its
baseline is placed from the em size, as a sans-serif font sets it (matplotlib would measure it
in a font the reader may not have). Writing it costs a small fraction of drawing it through
matplotlib's SVG backend, which was half a game's chart time.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from markupsafe import escape

from zfrec.render.charts import (
    AXIS,
    DARK,
    FONT,
    GOLD,
    GRID,
    INK,
    LINE_LABEL_GAP,
    SEAT_COLOURS,
    SVG_FONTS,
    TARGET,
    ChartModel,
    Frame,
    frame,
    stacked_bars,
)
from zfrec.render.views import isolate

# Where the baseline goes, in ems below the anchor point, for matplotlib's vertical alignments
# (a sans-serif font's ascent is about 0.9 em and its descent about 0.24 em).
BASELINE = {"baseline": 0.0, "center": 0.38, "center_baseline": 0.44, "top": 0.88, "bottom": -0.24}
STAR_INNER = 0.381966  # of the outer radius: matplotlib's "*" marker
ANCHOR = {"left": "start", "center": "middle", "right": "end"}


def _n(v: float) -> str:
    """A coordinate with two decimals at most (a hundredth of a point is below a pixel)."""
    text = f"{v:.2f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class _Writer:
    """The SVG's elements, in user units from the top left."""

    def __init__(self, f: Frame) -> None:
        self.f = f
        self.parts: list[str] = []

    def y(self, y: float) -> str:
        return _n(self.f.height - y)

    def segments(self, lines: Iterable[tuple[float, float, float, float]], style: str) -> None:
        d = "".join(
            f"M{_n(a)} {self.y(b)}L{_n(c)} {self.y(e)}" for a, b, c, e in lines
        )  # fmt: skip
        if d:
            self.parts.append(f'<path d="{d}" fill="none" {style}/>')

    def polyline(self, points: Iterable[tuple[float, float]], style: str) -> None:
        d = "L".join(f"{_n(x)} {self.y(y)}" for x, y in points)
        self.parts.append(f'<path d="M{d}" fill="none" {style}/>')

    def text(
        self, x: float, y: float, s: str, *, ha: str = "left", va: str = "baseline",
        colour: str = INK, bold: bool = False, halo: bool = False,
    ) -> None:  # fmt: skip
        attrs = f'x="{_n(x)}" y="{self.y(y - BASELINE[va] * FONT)}"'
        if ha != "left":
            attrs += f' text-anchor="{ANCHOR[ha]}"'
        if colour != INK:
            attrs += f' fill="{colour}"'
        if bold:
            attrs += ' font-weight="bold"'
        if halo:  # a white outline under the letters: readable where a bar runs behind them
            attrs += ' stroke="#fff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"'
        self.parts.append(f"<text {attrs}>{escape(s)}</text>")


def _star(cx: float, cy: float, radius: float) -> str:
    """A five-pointed star's path around (cx, cy), one point up (SVG's y runs down)."""
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * STAR_INNER
        angle = math.pi / 2 + k * math.pi / 5
        points.append(f"{_n(cx + r * math.cos(angle))} {_n(cy - r * math.sin(angle))}")
    return "M" + "L".join(points) + "Z"


def _body(m: ChartModel, f: Frame) -> str:
    w = _Writer(f)
    ux, uy, x0, x1, y0 = f.ux, f.uy, f.x0, f.x1, f.y0
    out = w.parts
    out.append(f'<rect width="{_n(f.width)}" height="{_n(f.height)}" fill="#fff"/>')
    w.segments(((x0, uy(t), x1, uy(t)) for t in m.y_ticks), f'stroke="{GRID}"')
    if m.kind == "bars":  # under the axis, as matplotlib stacks them (zorder)
        for s, bars in stacked_bars(m):
            boxes = []
            for x, lo, hi in bars:
                left, right = ux(x - 0.375), ux(x + 0.375)
                top, bottom = w.y(uy(hi)), w.y(uy(lo))
                boxes.append(f"M{_n(left)} {bottom}H{_n(right)}V{top}H{_n(left)}Z")
            if boxes:
                out.append(f'<path d="{"".join(boxes)}" fill="{s.colour}"/>')
    w.segments([(x0, y0, x1, y0)], f'stroke="{AXIS}" stroke-linecap="square"')
    marks = sorted(m.x_major + m.x_minor)
    w.segments(((ux(x), y0, ux(x), y0 - 3) for x in marks), f'stroke="{AXIS}" stroke-width=".8"')
    if m.kind == "lines":
        for s in m.series:
            w.polyline(
                ((ux(x), uy(v)) for x, v in zip(m.xs, s.values, strict=True)),
                f'stroke="{s.colour}" stroke-width="2.2" stroke-linejoin="round"'
                ' stroke-linecap="round"',
            )
    if m.target is not None:
        ty = uy(m.target)
        w.segments(
            [(x0, ty, x1, ty)], f'stroke="{TARGET}" stroke-width="1.3" stroke-dasharray="7.8 5.2"'
        )
    for value, _label in m.lines:
        ry = uy(value)
        w.segments([(x0, ry, x1, ry)], f'stroke="{TARGET}" stroke-dasharray="5.2 3.9"')
    for seat, mx, my in m.marks:
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        out.append(
            f'<circle cx="{_n(ux(mx))}" cy="{w.y(uy(my))}" r="4" fill="{colour}"'
            ' stroke="#fff" stroke-width="1.2"/>'
        )
    for row, entries in enumerate(f.rows):
        ly = w.y(f.legend_y(row))
        for lx, s in entries:
            out.append(f'<circle cx="{_n(lx + 5)}" cy="{ly}" r="5.5" fill="{s.colour}"/>')
    for t in m.y_ticks:
        w.text(x0 - 5, uy(t), m.tick_text(t), ha="right", va="center")
    for x in m.x_major:
        w.text(ux(x), y0 - 5, m.x_text(x), ha="center", va="top")
    w.text(x1, y0 - 20, m.x_caption, ha="right", va="top")
    w.text(4, f.height - 15, m.y_caption)
    if m.target is not None:
        w.text(x0 + 4, uy(m.target) + 3, f"target {m.target}", va="bottom", colour=TARGET)
    for value, label in m.lines:
        w.text(x1 + LINE_LABEL_GAP, uy(value), label, va="center", colour=TARGET, halo=True)
    for _seat, wx, wy, label in m.winners:
        w.text(ux(wx) - 10, uy(wy) + 8, f"{isolate(label)} wins", ha="right", colour=DARK,
               bold=True)  # fmt: skip
    for row, entries in enumerate(f.rows):
        for lx, s in entries:
            w.text(lx + 14, f.legend_y(row), isolate(s.label), va="center_baseline",
                   colour=DARK)  # fmt: skip
    for _seat, wx, wy, _label in m.winners:
        star = _star(ux(wx), f.height - uy(wy), 7.5)
        out.append(
            f'<path d="{star}" fill="{GOLD}" stroke="{DARK}" stroke-width=".6"'
            ' stroke-linejoin="bevel"/>'
        )
    return "".join(out)


def chart_svg(m: ChartModel, widths: Mapping[str, float] | None = None) -> tuple[str, str]:
    """The chart as SVG, for a page and as a file: in a page it is 100 % wide and keeps its
    proportions (`viewBox`); the file keeps its size. A title for readers, the text in the
    reader's sans-serif fonts at FONT user units; the legend laid out as the PNG's (`widths`,
    charts.legend_widths) where the PNG was drawn."""
    f = frame(m, widths)
    title = escape(m.title)
    box = f'viewBox="0 0 {_n(f.width)} {_n(f.height)}"'
    common = (
        f' role="img" aria-label="{title}" font-family="{SVG_FONTS}" font-size="{_n(FONT)}"'
        f' fill="{INK}"><title>{title}</title>'
    )
    page = f'<svg {box} class="zf-chart" width="100%"{common}'
    file = (
        f'<svg xmlns="http://www.w3.org/2000/svg" {box} width="{_n(f.width)}"'
        f' height="{_n(f.height)}"{common}'
    )
    body = _body(m, f) + "</svg>"
    return page + body, file + body + "\n"


__all__ = ["chart_svg"]
