"""The game's charts: cumulative scores and points per hand, as responsive SVG and as PNG.

    >>> scores, points = game_charts(view)
    >>> scores.svg          # for inlining: width 100 %, text as text at a fixed pixel size
    >>> scores.svg_file     # the same chart as a file of its own, 800 px wide, legend inside
    >>> scores.png          # a picture, or None when no installed font draws the names

One model per chart (`ChartModel`: axes, ticks, series, target, winners) is drawn twice. The SVG
places along x in percent and along y in pixels, and draws the lines in a nested viewport that
stretches with the page (`preserveAspectRatio="none"`, strokes that do not scale): the chart
fills any width, and its labels stay 11 px on a phone as on a desktop. The PNG is drawn with
Pillow in faces that fontconfig says cover the names (zfrec.render.fonts); when no installed
face covers a character, the PNG is left out with a notice, and the page's SVG (drawn by the
reader's browser with the reader's fonts) stays the chart.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from zfrec.render.fonts import Face, FontPlan, describe_missing, font_plan
from zfrec.render.views import GameView, short_name

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

# Okabe-Ito, distinguishable under the common colour-vision deficiencies; the same order as the
# seat colours of the replay pages (--seat0..5 in style.css).
SEAT_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#9a7400", "#56b4e9")
HEIGHT = 230  # px; the width is the page's
TOP, BOTTOM = 22, 34  # px above and below the plot
RIGHT = 97.0  # % of the width where the plot ends
TICK_PX = 11
FILE_WIDTH = 800
LEGEND_ROW = 22
GRID, AXIS, INK, TARGET, GOLD = "#e3ddd0", "#8a8f96", "#3b4450", "#b3261e", "#c9971c"
FSI, PDI = "\u2068", "\u2069"


@dataclass(frozen=True, slots=True)
class Series:
    seat: int
    name: str
    label: str  # the name, shortened for the legend
    values: tuple[int, ...]

    @property
    def colour(self) -> str:
        return SEAT_COLOURS[self.seat % len(SEAT_COLOURS)]


@dataclass(frozen=True, slots=True)
class ChartModel:
    """What a chart shows, in data units; both drawings are made from it."""

    name: str
    title: str
    kind: str  # "lines" | "bars"
    xs: tuple[int, ...]
    series: tuple[Series, ...]
    y_lo: float
    y_hi: float
    y_ticks: tuple[int, ...]
    x_major: tuple[int, ...]
    x_minor: tuple[int, ...]  # shown only where the chart is wide
    x_caption: str
    y_caption: str
    target: int | None = None
    winners: tuple[tuple[int, int, int, str], ...] = ()  # seat, x, y, label

    @property
    def x_lo(self) -> float:
        return self.xs[0] - (0.6 if self.kind == "bars" else 0)

    @property
    def x_hi(self) -> float:
        return self.xs[-1] + (0.6 if self.kind == "bars" else 0.3)

    @property
    def left(self) -> float:
        """% of the width left of the plot, room for the longest y tick label."""
        longest = max(len(str(t)) for t in self.y_ticks)
        return max(6.5, 2.2 * longest + 1.5)

    def px(self, x: float) -> float:
        """x as a fraction of the plot's width."""
        return (x - self.x_lo) / ((self.x_hi - self.x_lo) or 1)

    def xp(self, x: float) -> float:
        """x in % of the chart's width."""
        return self.left + self.px(x) * (RIGHT - self.left)

    def yp(self, y: float) -> float:
        """y in px from the chart's top."""
        span = (self.y_hi - self.y_lo) or 1
        return TOP + (self.y_hi - y) / span * (HEIGHT - TOP - BOTTOM)

    def text(self) -> str:
        """Every text the chart draws, for choosing fonts."""
        bits = [self.title, self.x_caption, self.y_caption, "target 0123456789-… ★"]
        bits += [s.label for s in self.series] + [w[3] for w in self.winners]
        return " ".join(bits)


@dataclass(frozen=True, slots=True)
class Chart:
    """One chart in its three forms. `name` is the file stem (`scores`, `points`)."""

    name: str
    title: str
    svg: str  # for inlining in a page
    svg_file: str  # a standalone file
    png: bytes | None
    legend: tuple[tuple[int, str, str], ...] = ()  # seat, label, full name
    notice: str | None = None  # why the PNG was left out

    def inline(self) -> Markup:
        """The SVG for inlining in a page: zfrec generated it, so it is marked safe here."""
        return Markup(self.svg)


# --- the models ----------------------------------------------------------------------------------


def nice_ticks(lo: float, hi: float, count: int = 5) -> tuple[int, ...]:
    """Round tick values covering lo..hi: steps of 1, 2, 2.5 or 5 times a power of ten."""
    span = max(hi - lo, 1)
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    step = max(1, round(step))
    first = math.floor(lo / step) * step
    return tuple(range(int(first), int(hi) + step, step))


def x_ticks(xs: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Hand numbers to label: at most 8 everywhere, up to 24 more where the chart is wide."""
    if not xs:
        return (), ()
    major_step = max(1, math.ceil(len(xs) / 8))
    minor_step = max(1, math.ceil(len(xs) / 24))
    major = tuple(x for x in xs if (x - xs[0]) % major_step == 0)
    minor = tuple(x for x in xs if (x - xs[0]) % minor_step == 0 and x not in major)
    return major, minor


def score_model(view: GameView) -> ChartModel:
    players = view.header.players
    summaries = view.summaries
    xs = (0, *(s.number for s in summaries))
    series = tuple(
        Series(seat, name, short_name(name), (0, *(s.totals[seat] for s in summaries)))
        for seat, name in enumerate(players)
    )
    target = view.header.target
    values = [v for s in series for v in s.values]
    lo, hi = min(0, *values), max(target, *values) * 1.12
    ticks = nice_ticks(lo, hi)
    winners: list[tuple[int, int, int, str]] = []
    if view.over and summaries:
        last = summaries[-1]
        for seat in view.winners:
            winners.append((seat, last.number, last.totals[seat], short_name(players[seat])))
    major, minor = x_ticks(xs)
    return ChartModel(
        "scores", "Cumulative scores", "lines", xs, series, ticks[0], max(hi, ticks[-1]),
        ticks, major, minor, "hand", "score", target, tuple(winners),
    )  # fmt: skip


def points_model(view: GameView) -> ChartModel:
    players = view.header.players
    summaries = view.summaries
    xs = tuple(s.number for s in summaries)
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
        major, minor, "hand", "points in the hand",
    )  # fmt: skip


# --- SVG -----------------------------------------------------------------------------------------


def _f(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _t(text: str) -> str:
    return str(escape(text))


def chart_svg(m: ChartModel, *, standalone: bool = False) -> str:
    """The chart as SVG: 100 % wide for a page, or FILE_WIDTH wide with its legend as a file."""
    legend_rows = _legend_rows(m) if standalone else []
    height = HEIGHT + LEGEND_ROW * len(legend_rows) + (8 if standalone else 0)
    size = f'width="{FILE_WIDTH}" height="{height}"' if standalone else f'height="{height}"'
    head = ['<svg xmlns="http://www.w3.org/2000/svg"' if standalone else "<svg"]
    head.append(
        f' class="zf-chart" {size} role="img" aria-label="{_t(m.title)}"'
        f' font-family="system-ui, sans-serif" font-size="{TICK_PX}">'
    )
    out = ["".join(head), f"<title>{_t(m.title)}</title>"]
    if standalone:
        out.append('<rect width="100%" height="100%" fill="#fff"/>')
    left = m.left
    for t in m.y_ticks:
        y = _f(m.yp(t))
        out.append(
            f'<line x1="{_f(left)}%" x2="{RIGHT}%" y1="{y}" y2="{y}" stroke="{GRID}"/>'
            f'<text x="{_f(left)}%" y="{y}" dx="-5" dy="4" text-anchor="end" fill="{INK}">'
            f"{t}</text>"
        )
    base = _f(HEIGHT - BOTTOM)
    out.append(f'<line x1="{_f(left)}%" x2="{RIGHT}%" y1="{base}" y2="{base}" stroke="{AXIS}"/>')
    for cls, ticks in (("", m.x_major), ("mn", m.x_minor)):
        for x in ticks:
            attr = f' class="{cls}"' if cls else ""
            out.append(
                f'<text{attr} x="{_f(m.xp(x))}%" y="{_f(HEIGHT - BOTTOM + 15)}"'
                f' text-anchor="middle" fill="{INK}">{x}</text>'
            )
    out.append(
        f'<text x="{RIGHT}%" y="{HEIGHT - 4}" text-anchor="end" fill="{INK}">'
        f"{_t(m.x_caption)}</text>"
        f'<text x="{_f(left)}%" y="12" dx="-5" text-anchor="start" fill="{INK}">'
        f"{_t(m.y_caption)}</text>"
    )
    out.append(_plot_svg(m))
    if m.target is not None:
        y = _f(m.yp(m.target))
        out.append(
            f'<line x1="{_f(left)}%" x2="{RIGHT}%" y1="{y}" y2="{y}" stroke="{TARGET}"'
            ' stroke-width="1.3" stroke-dasharray="6 4"/>'
            f'<text x="{_f(left)}%" y="{y}" dx="4" dy="-4" fill="{TARGET}">'
            f"target {m.target}</text>"
        )
    for _seat, wx, wy, label in m.winners:
        xp, yp = _f(m.xp(wx)), _f(m.yp(wy))
        out.append(
            f'<text x="{xp}%" y="{yp}" dy="6" text-anchor="middle" font-size="18" fill="{GOLD}"'
            f' stroke="#1d232a" stroke-width="0.6">★</text>'
            f'<text x="{xp}%" y="{yp}" dx="-10" dy="-8" text-anchor="end" font-weight="bold"'
            f' fill="#1d232a">{_t(FSI + label + PDI)} wins</text>'
        )
    for row, entries in enumerate(legend_rows):
        ly = HEIGHT + 4 + row * LEGEND_ROW
        for lx, s in entries:
            out.append(
                f'<rect x="{_f(lx)}" y="{ly}" width="12" height="12" rx="6" fill="{s.colour}"/>'
                f'<text x="{_f(lx + 17)}" y="{ly + 10}" fill="#1d232a">'
                f"<title>{_t(FSI + s.name + PDI)}</title>{_t(FSI + s.label + PDI)}</text>"
            )
    out.append("</svg>")
    return "".join(out)


def _plot_svg(m: ChartModel) -> str:
    """The lines or bars, in a viewport that stretches with the chart: data units inside."""
    top, bottom = TOP, HEIGHT - BOTTOM
    width = RIGHT - m.left
    vb_w, vb_h = 1000.0, 1000.0

    def vx(x: float) -> str:
        return _f(m.px(x) * vb_w)

    def vy(y: float) -> str:
        return _f((m.y_hi - y) / ((m.y_hi - m.y_lo) or 1) * vb_h)

    out = [
        f'<svg x="{_f(m.left)}%" y="{top}" width="{_f(width)}%" height="{bottom - top}"'
        f' viewBox="0 0 {vb_w:.0f} {vb_h:.0f}" preserveAspectRatio="none" overflow="visible">'
    ]
    if m.kind == "lines":
        for s in m.series:
            points = " ".join(f"{vx(x)},{vy(v)}" for x, v in zip(m.xs, s.values, strict=True))
            out.append(
                f'<polyline points="{points}" fill="none" stroke="{s.colour}" stroke-width="2.2"'
                ' stroke-linejoin="round" stroke-linecap="round"'
                ' vector-effect="non-scaling-stroke"/>'
            )
    else:
        bar = 0.75 / ((m.x_hi - m.x_lo) or 1) * vb_w
        heights = [0] * len(m.xs)
        for s in m.series:
            rects = []
            for i, (x, v) in enumerate(zip(m.xs, s.values, strict=True)):
                if v:
                    y_top, y_bottom = vy(heights[i] + v), vy(heights[i])
                    h = float(y_bottom) - float(y_top)
                    rects.append(
                        f'<rect x="{_f(float(vx(x)) - bar / 2)}" y="{y_top}" width="{_f(bar)}"'
                        f' height="{_f(h)}"/>'
                    )
                    heights[i] += v
            out.append(f'<g fill="{s.colour}">{"".join(rects)}</g>')
    out.append("</svg>")
    return "".join(out)


def _label_width(label: str, px: float = TICK_PX) -> float:
    """An estimate of a label's width in px: wide characters count double."""
    return sum(px if ord(c) > 0x2E80 else px * 0.6 for c in label)


def _legend_rows(m: ChartModel, width: float = FILE_WIDTH) -> list[list[tuple[float, Series]]]:
    rows: list[list[tuple[float, Series]]] = [[]]
    x = 10.0
    for s in m.series:
        w = 17 + _label_width(s.label) + 18
        if x + w > width and rows[-1]:
            rows.append([])
            x = 10.0
        rows[-1].append((x, s))
        x += w
    return rows


# --- PNG -----------------------------------------------------------------------------------------

SCALE = 2  # drawn at twice the size and scaled down: smooth lines without anti-aliasing


@dataclass(slots=True)
class _Pen:
    draw: ImageDraw.ImageDraw
    plan: FontPlan
    fonts: dict[tuple[Face, int], ImageFont.FreeTypeFont] = field(default_factory=dict)

    def font(self, face: Face, size: int) -> ImageFont.FreeTypeFont:
        key = (face, size)
        if key not in self.fonts:
            from PIL import ImageFont

            self.fonts[key] = ImageFont.truetype(face.path, size * SCALE, index=face.index)
        return self.fonts[key]

    def runs(self, text: str) -> list[tuple[str, Face]]:
        out: list[tuple[str, Face]] = []
        for c in text:
            face = self.plan.face_of(c)
            if face is None:
                continue
            if out and out[-1][1] == face:
                out[-1] = (out[-1][0] + c, face)
            else:
                out.append((c, face))
        return out

    def text(
        self, x: float, y: float, text: str, *, size: int = TICK_PX, anchor: str = "start",
        fill: str = INK, bold: bool = False,
    ) -> None:  # fmt: skip
        """Text with its baseline at y (px of the final picture), anchored like SVG text."""
        runs = [(t, self.font(f, size)) for t, f in self.runs(_printable(text))]
        width = sum(font.getlength(t) for t, font in runs)
        pos = x * SCALE - {"start": 0, "middle": width / 2, "end": width}[anchor]
        for t, font in runs:
            self.draw.text((pos, y * SCALE), t, font=font, fill=fill, anchor="ls")
            if bold:
                self.draw.text((pos + 1, y * SCALE), t, font=font, fill=fill, anchor="ls")
            pos += font.getlength(t)


def _printable(text: str) -> str:
    import unicodedata

    return "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf"))


def chart_png(m: ChartModel, plan: FontPlan) -> bytes:
    """The chart as a PNG, FILE_WIDTH px wide, with its legend."""
    from PIL import Image, ImageDraw

    rows = _legend_rows(m)
    width, height = FILE_WIDTH, HEIGHT + LEGEND_ROW * len(rows) + 8
    image = Image.new("RGB", (width * SCALE, height * SCALE), "white")
    pen = _Pen(ImageDraw.Draw(image), plan)
    d = pen.draw

    def at(pct: float) -> float:
        return pct / 100 * width

    def line(x1: float, y1: float, x2: float, y2: float, colour: str, w: float = 1) -> None:
        d.line(
            [(x1 * SCALE, y1 * SCALE), (x2 * SCALE, y2 * SCALE)],
            fill=colour,
            width=round(w * SCALE),
        )

    left, right = at(m.left), at(RIGHT)
    for t in m.y_ticks:
        y = m.yp(t)
        line(left, y, right, y, GRID)
        pen.text(left - 5, y + 4, str(t), anchor="end")
    line(left, HEIGHT - BOTTOM, right, HEIGHT - BOTTOM, AXIS)
    for x in (*m.x_major, *m.x_minor):
        pen.text(at(m.xp(x)), HEIGHT - BOTTOM + 15, str(x), anchor="middle")
    pen.text(right, HEIGHT - 4, m.x_caption, anchor="end")
    pen.text(left - 5, 12, m.y_caption)
    if m.kind == "lines":
        for s in m.series:
            points = [
                (at(m.xp(x)) * SCALE, m.yp(v) * SCALE) for x, v in zip(m.xs, s.values, strict=True)
            ]
            d.line(points, fill=s.colour, width=round(2.2 * SCALE), joint="curve")
    else:
        bar = 0.75 / ((m.x_hi - m.x_lo) or 1) * (right - left)
        heights = [0] * len(m.xs)
        for s in m.series:
            for i, (x, v) in enumerate(zip(m.xs, s.values, strict=True)):
                if v:
                    cx = at(m.xp(x))
                    top, bottom = m.yp(heights[i] + v), m.yp(heights[i])
                    d.rectangle(
                        [
                            ((cx - bar / 2) * SCALE, top * SCALE),
                            ((cx + bar / 2) * SCALE, bottom * SCALE),
                        ],
                        fill=s.colour,
                    )
                    heights[i] += v
    if m.target is not None:
        ty = m.yp(m.target)
        tx = left
        while tx < right:
            line(tx, ty, min(tx + 6, right), ty, TARGET, 1.3)
            tx += 10
        pen.text(left + 4, ty - 4, f"target {m.target}", fill=TARGET)
    for _seat, wx, wy, label in m.winners:
        cx, cy = at(m.xp(wx)), m.yp(wy)
        d.polygon(_star(cx * SCALE, cy * SCALE, 8 * SCALE), fill=GOLD, outline="#1d232a")
        pen.text(cx - 10, cy - 8, f"{label} wins", anchor="end", fill="#1d232a", bold=True)
    for row, entries in enumerate(rows):
        ly = HEIGHT + 4 + row * LEGEND_ROW
        for lx, s in entries:
            box = [(lx * SCALE, ly * SCALE), ((lx + 12) * SCALE, (ly + 12) * SCALE)]
            d.ellipse(box, fill=s.colour)
            pen.text(lx + 17, ly + 10, s.label, fill="#1d232a")
    small = image.reduce(SCALE)  # a box filter: fast, and smooth enough at 2:1
    buf = io.BytesIO()
    small.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


# --- the charts of a game page -------------------------------------------------------------------


@cache
def _notice(missing: str) -> str:
    return (
        f"no installed font draws {describe_missing(missing)}: the PNG charts of games with "
        "such names are left out, and their pages show the SVG charts"
    )


def game_charts(view: GameView, *, png: bool = True) -> list[Chart]:
    """The charts of a game page: the score race and the points per hand."""
    if not view.summaries:
        return []
    out = []
    for model in (score_model(view), points_model(view)):
        picture, notice = None, None
        if png:
            plan = font_plan(model.text())
            if plan.missing or not plan.faces:
                notice = _notice(plan.missing or "any text")
            else:
                picture = chart_png(model, plan)
        legend = tuple((s.seat, s.label, s.name) for s in model.series)
        out.append(
            Chart(
                model.name, model.title, chart_svg(model), chart_svg(model, standalone=True),
                picture, legend, notice,
            )
        )  # fmt: skip
    return out


__all__ = [
    "Chart",
    "ChartModel",
    "chart_png",
    "chart_svg",
    "game_charts",
    "nice_ticks",
    "points_model",
    "score_model",
]
