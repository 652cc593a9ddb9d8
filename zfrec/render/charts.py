"""The chart engine of every game's pages: a model per chart, drawn as SVG and PNG.

    >>> m = ChartModel("points", "Points", "bars", (1, 2), (Series(0, "Ann", "Ann", (5, 10)),),
    ...                0, 10, (0, 5, 10), (1, 2), (), "hand", "points")
    >>> chart = render_chart(m)
    >>> chart.svg[:36]           # the SVG for the page: 100 % wide, text as text
    '<svg viewBox="0 0 340 242" class="zf'
    >>> chart.svg_file[:40]      # the same chart as a file of its own
    '<svg xmlns="http://www.w3.org/2000/svg" '

A game makes the models of its charts (Zheng Fen's cumulative scores and points per hand:
zfrec.games.zhengfen.pages.charts; Sheng ji's in its package) and this module draws them.
One model per chart (`ChartModel`: axes, ticks, series, target, winners) and one layout
(`frame`) make both drawings: the SVG, written directly (zfrec.render.svgchart), and the PNG,
drawn with matplotlib's `Figure` (no pyplot: no global state, no GUI backend). The SVG keeps
its text as text and scales with the page (a `viewBox`, 100 % wide). It is drawn at a phone's
size: 340 user units wide with 10-unit text, so its labels are 9.8 px in the 334 px a 390 px
screen leaves it, and some 13 px where a desktop shows the two charts side by side
(style.css). The PNG is drawn in the faces that cover the names' characters
(zfrec.render.fonts asks fontconfig, or matplotlib's font manager, by coverage); when no
installed face covers a character, the PNG is left out with a notice, and the page's SVG
(drawn by the reader's browser with the reader's fonts) stays the chart.
"""

from __future__ import annotations

import io
import logging
import math
import os
import threading
import unicodedata
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import pairwise
from typing import Any

from markupsafe import Markup

from zfrec.render.fonts import describe_missing, font_plan
from zfrec.render.mplrender import agg_renderer
from zfrec.render.views import isolate

# Okabe-Ito, distinguishable under the common colour-vision deficiencies; the same order as the
# seat colours of the replay pages (--seat0..5 in style.css).
SEAT_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#9a7400", "#56b4e9")
GRID, AXIS, INK, DARK = "#e3ddd0", "#8a8f96", "#3b4450", "#1d232a"
TARGET, GOLD = "#b3261e", "#c9971c"
PNG_WIDTH = 800  # px
PNG_COLOURS = 64
# zlib's effort for the PNG: 3 compresses in half the time of the default 6, into a file a
# fifth larger (some 4 kB a chart)
PNG_EFFORT = 3
LEGEND_ROW = 20.0  # user units (points) per row of the file's legend
LEGEND_GAP = 6.0  # user units at least between a legend label and the next entry's dot
LINE_LABEL_GAP = 4.0  # user units between the plot's right edge and a reference line's label


SIZE_WIDTH = 340.0  # user units (points); the chart fills its box, 100 % wide
PLOT_HEIGHT = 220.0  # user units above the legend
FONT = 10.0  # user units: 9.8 px where the chart's box is 334 px (a 390 px phone), 12.8 px at 435
# The text is drawn as matplotlib lays it out with the fonts below; the reader's browser draws the
# SVG's text in its own fonts, so only the anchors (start, middle, end) matter there.
RC: dict[Any, Any] = {
    "svg.fonttype": "none",
    "path.simplify": False,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "font.size": FONT,
    "text.parse_math": False,  # a "$" in a name is a dollar sign, not TeX
    # Unhinted glyphs at the PNG's 23 px text look as good and draw a sixth faster
    "text.hinting": "no_hinting",
}


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
    """What a chart shows, in data units; every drawing is made from it."""

    name: str
    title: str
    kind: str  # "lines" | "bars"
    xs: tuple[int, ...]
    series: tuple[Series, ...]
    y_lo: float
    y_hi: float
    y_ticks: tuple[int, ...]
    x_major: tuple[int, ...]
    x_minor: tuple[int, ...]  # ticked, not labelled
    x_caption: str
    y_caption: str
    target: int | None = None
    winners: tuple[tuple[int, int, int, str], ...] = ()  # seat, x, y, label
    # Optional, for other games' charts (Sheng ji's level ladder and points): the y ticks'
    # texts (one per tick, e.g. J Q K A), more dashed reference lines (value, label), and dots
    # on the lines (series colour's seat, x, y).
    y_labels: tuple[str, ...] = ()
    lines: tuple[tuple[int, str], ...] = ()
    marks: tuple[tuple[int, int, int], ...] = ()
    # the x labels' texts, one per x, where they are not the xs themselves (`chart_xs`: hands
    # placed one after another because their numbers repeat or go back)
    x_texts: tuple[str, ...] = ()

    def x_text(self, x: int) -> str:
        """The label under x: its own text when given, else the number."""
        if self.x_texts:
            return self.x_texts[self.xs.index(x)]
        return str(x)

    def tick_text(self, t: int) -> str:
        """The text of y tick `t`: its own label when given, else the number."""
        if self.y_labels:
            return self.y_labels[self.y_ticks.index(t)]
        return str(t)

    @property
    def x_lo(self) -> float:
        return self.xs[0] - (0.6 if self.kind == "bars" else 0)

    @property
    def x_hi(self) -> float:
        return self.xs[-1] + (0.6 if self.kind == "bars" else 0.3)

    def text(self) -> str:
        """Every text the chart draws, for choosing fonts."""
        bits = [self.title, self.x_caption, self.y_caption, "target 0123456789-… ★"]
        bits += [s.label for s in self.series] + [w[3] for w in self.winners]
        bits += list(self.y_labels) + [label for _, label in self.lines]
        return " ".join(bits)


@dataclass(frozen=True, slots=True)
class Chart:
    """One chart in its forms. `name` is the file stem (`scores`, `points`)."""

    name: str
    title: str
    svg: str  # for inlining in a page
    svg_file: str  # the same drawing as a file of its own
    png: bytes | None
    legend: tuple[tuple[int, str, str], ...] = ()  # seat, label, full name
    notice: str | None = None  # why the PNG was left out

    def inline(self) -> Markup:
        """The SVG for inlining in a page: zfrec generated it, every text in it escaped, so it
        is marked safe here."""
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


def chart_xs(numbers: Sequence[int]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Where a chart puts each hand (round), and the texts under them (none: the numbers).
    Hands stand at their numbers while the numbers go up (a skipped number leaves its gap);
    a record whose numbers repeat or go back (ZF406, SJ508) has its hands placed one after
    another, in record order, each labelled with its number, so that none hides another.

    >>> chart_xs([1, 2, 4]), chart_xs([1, 1, 2])
    (((1, 2, 4), ()), ((1, 2, 3), ('1', '1', '2')))
    """
    if all(a < b for a, b in pairwise(numbers)):
        return tuple(numbers), ()
    return tuple(range(1, len(numbers) + 1)), tuple(str(n) for n in numbers)


def x_ticks(xs: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Hand numbers to label (at most 8), and to tick besides them (up to 24 in all). Counted
    back from the last hand, which is always labelled: it is where the game ended.

    >>> x_ticks(range(0, 16))
    ((1, 3, 5, 7, 9, 11, 13, 15), (0, 2, 4, 6, 8, 10, 12, 14))
    """
    if not xs:
        return (), ()
    major_step = max(1, math.ceil(len(xs) / 8))
    minor_step = max(1, math.ceil(len(xs) / 24))
    last = xs[-1]
    major = tuple(x for x in xs if (last - x) % major_step == 0)
    minor = tuple(x for x in xs if (last - x) % minor_step == 0 and x not in major)
    return major, minor


# --- drawing with matplotlib ---------------------------------------------------------------------


def _label_width(label: str, font: float = FONT) -> float:
    """An estimate of a label's width in user units: wide characters count double."""
    return sum(font if unicodedata.east_asian_width(c) in "WF" else font * 0.62 for c in label)


def _printable(text: str) -> str:
    """Text for the PNG: without control and format characters (the isolates included), which
    matplotlib's raster text would draw as boxes."""
    return "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf"))


def legend_rows(
    m: ChartModel, width: float = SIZE_WIDTH, widths: Mapping[str, float] | None = None
) -> list[list[tuple[float, Series]]]:
    """The legend's entries in rows that fit the width: (x of the entry, series). `widths`:
    the labels as the PNG's fonts draw them (`legend_widths`), where one is wider than its
    estimate (capitals such as W and M are: the entries ran into each other)."""
    rows: list[list[tuple[float, Series]]] = [[]]
    x = 6.0
    for s in m.series:
        label = _label_width(s.label)
        drawn = (widths or {}).get(s.label, 0.0)
        # the estimate stands while the label drawn ends at least LEGEND_GAP before the next
        # entry's dot (of the 12 units after it): most names, whose charts stay as they were
        if drawn > label + 12 - LEGEND_GAP:
            label = drawn
        w = 14 + label + 12
        if x + w > width and rows[-1]:
            rows.append([])
            x = 6.0
        rows[-1].append((x, s))
        x += w
    return rows


def stacked_bars(m: ChartModel) -> Iterator[tuple[Series, list[tuple[int, int, int]]]]:
    """Each series with its bars as (x, bottom, top), stacked on the series before it; a
    zero value draws no bar."""
    heights = [0] * len(m.xs)
    for s in m.series:
        bars = []
        for i, (x, v) in enumerate(zip(m.xs, s.values, strict=True)):
            if v:
                bars.append((x, heights[i], heights[i] + v))
                heights[i] += v
        yield s, bars


@dataclass(frozen=True, slots=True)
class Frame:
    """Where a chart's parts go, in user units from the bottom left (as matplotlib places them;
    the SVG writer turns y over): the plot's box, the scales, the legend's rows."""

    width: float
    height: float
    x0: float
    x1: float
    y0: float
    y1: float
    sx: float  # user units per data unit
    sy: float
    x_lo: float
    y_lo: float
    rows: list[list[tuple[float, Series]]]

    def ux(self, x: float) -> float:
        return self.x0 + (x - self.x_lo) * self.sx

    def uy(self, y: float) -> float:
        return self.y0 + (y - self.y_lo) * self.sy

    def legend_y(self, row: int) -> float:
        return self.height - PLOT_HEIGHT - 10 - row * LEGEND_ROW


def legend_widths(m: ChartModel) -> dict[str, float]:
    """The legend's labels' widths in user units as matplotlib draws them in the fonts of the
    current rc (`render_chart` sets them): measured, each once per process and fonts."""
    import matplotlib

    families = tuple(matplotlib.rcParams["font.family"])
    return {s.label: _text_width(_printable(isolate(s.label)), families) for s in m.series}


@lru_cache(maxsize=4096)
def _text_width(text: str, families: tuple[str, ...]) -> float:
    from matplotlib.font_manager import FontProperties

    dpi = 72 * PNG_WIDTH / SIZE_WIDTH  # as the PNG is drawn: no hinting, so widths scale
    with _AGG_LOCK:
        width, _, _ = _measurer(dpi).get_text_width_height_descent(
            text, FontProperties(family=list(families), size=FONT), ismath=False
        )
    return float(width) * 72 / dpi


@cache
def _measurer(dpi: float) -> Any:
    """A renderer of one pixel to measure texts with (not one of the charts' kept renderers,
    whose places it would take)."""
    return agg_renderer(1, 1, dpi)


def frame(m: ChartModel, widths: Mapping[str, float] | None = None) -> Frame:
    """The chart's layout (`widths`: the legend's labels measured, `legend_rows`). Margins are
    fixed (no layout engine: a long name could defeat one, and one costs most of a small
    figure's time)."""
    rows = legend_rows(m, widths=widths)
    width = SIZE_WIDTH
    height = PLOT_HEIGHT + LEGEND_ROW * len(rows) + 2
    longest = max(len(m.tick_text(t)) for t in m.y_ticks)
    # the reference lines' labels (Sheng ji's 80 swap, 120 +1) go in a margin of their own,
    # right of the plot, where no bar can run behind them
    right = max((_label_width(label) for _, label in m.lines), default=0.0)
    x0, x1 = 10 + longest * FONT * 0.62, width - 12 - (right + LINE_LABEL_GAP if right else 0)
    y0, y1 = height - PLOT_HEIGHT + 36, height - 22
    sx = (x1 - x0) / ((m.x_hi - m.x_lo) or 1)
    sy = (y1 - y0) / ((m.y_hi - m.y_lo) or 1)
    return Frame(width, height, x0, x1, y0, y1, sx, sy, m.x_lo, m.y_lo, rows)


@dataclass(slots=True)
class Drawing:
    """A chart drawn as a matplotlib Figure; `names` are the texts that hold a player's name."""

    figure: Any
    width: float
    height: float
    names: list[Any]


def draw(m: ChartModel, widths: Mapping[str, float] | None = None) -> Drawing:
    """The chart as a matplotlib Figure, in user units (points), with its legend below (its
    labels' `widths` measured, `legend_widths`).

    The artists go straight on the figure, placed through two transforms (user units, and the
    data within the plot's box), with no Axes: an Axes' ticks, spines and their measuring on
    every draw cost three times the rest of the chart, and the labels here are few and known
    (the layout: `frame`)."""
    _quiet_weight_fallback()
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patheffects import withStroke
    from matplotlib.transforms import Affine2D

    f = frame(m, widths)
    rows, width, height = f.rows, f.width, f.height
    x0, x1, y0, ux, uy = f.x0, f.x1, f.y0, f.ux, f.uy
    fig = Figure(figsize=(width / 72, height / 72), dpi=72)
    units = Affine2D().scale(1 / width, 1 / height) + fig.transFigure  # from the bottom left
    data = Affine2D().translate(-m.x_lo, -m.y_lo).scale(f.sx, f.sy).translate(x0, y0) + units

    def text(x: float, y: float, s: str, **kw: Any) -> Any:
        return fig.text(x, y, s, transform=units, color=kw.pop("color", INK), **kw)

    grid = [[(x0, uy(t)), (x1, uy(t))] for t in m.y_ticks]
    fig.add_artist(LineCollection(grid, colors=GRID, linewidths=1, transform=units, zorder=0))
    fig.add_artist(Line2D([x0, x1], [y0, y0], color=AXIS, linewidth=1, transform=units))
    for t in m.y_ticks:
        text(x0 - 5, uy(t), m.tick_text(t), ha="right", va="center")
    # a label per major hand number, a tick for every hand: each text costs a chart more than
    # all its lines, the ticks are one artist
    marks = [[(ux(x), y0), (ux(x), y0 - 3)] for x in sorted(m.x_major + m.x_minor)]
    fig.add_artist(LineCollection(marks, colors=AXIS, linewidths=0.8, transform=units))
    for x in m.x_major:
        text(ux(x), y0 - 5, m.x_text(x), ha="center", va="top")
    text(x1, y0 - 20, m.x_caption, ha="right", va="top")
    text(4, height - 15, m.y_caption)
    if m.kind == "lines":
        for s in m.series:
            fig.add_artist(
                Line2D(
                    m.xs, s.values, color=s.colour, linewidth=2.2, solid_joinstyle="round",
                    solid_capstyle="round", transform=data,
                )
            )  # fmt: skip
    else:
        for s, bars in stacked_bars(m):
            boxes = [[(x - 0.375, lo), (x + 0.375, lo), (x + 0.375, hi), (x - 0.375, hi)]
                     for x, lo, hi in bars]  # fmt: skip
            fig.add_artist(PolyCollection(boxes, facecolors=s.colour, linewidths=0, transform=data))
    names = []
    if m.target is not None:
        fig.add_artist(
            Line2D([x0, x1], [uy(m.target)] * 2, color=TARGET, linewidth=1.3, dashes=(6, 4),
                   transform=units)
        )  # fmt: skip
        text(x0 + 4, uy(m.target) + 3, f"target {m.target}", color=TARGET, va="bottom")
    for value, label in m.lines:
        fig.add_artist(
            Line2D([x0, x1], [uy(value)] * 2, color=TARGET, linewidth=1, dashes=(4, 3),
                   transform=units)
        )  # fmt: skip
        # right of the plot, in the margin `frame` keeps for them, level with their line; a
        # white outline under the letters, as the SVG's (svgchart), where a grid line meets them
        text(x1 + LINE_LABEL_GAP, uy(value), label, color=TARGET, ha="left", va="center",
             path_effects=[withStroke(linewidth=3, foreground="white")])  # fmt: skip
    for seat in dict.fromkeys(seat for seat, _, _ in m.marks):  # one artist per colour
        xs = [mx for s, mx, _ in m.marks if s == seat]
        ys = [my for s, _, my in m.marks if s == seat]
        fig.add_artist(
            Line2D(xs, ys, linestyle="none", marker="o", markersize=7,
                   color=SEAT_COLOURS[seat % 6], markeredgecolor="white", markeredgewidth=1.2,
                   transform=data, zorder=5)
        )  # fmt: skip
    for _seat, wx, wy, label in m.winners:
        fig.add_artist(
            Line2D([wx], [wy], marker="*", markersize=15, color=GOLD, markeredgecolor=DARK,
                   markeredgewidth=0.6, transform=data, zorder=5)
        )  # fmt: skip
        names.append(
            text(ux(wx) - 10, uy(wy) + 8, f"{isolate(label)} wins", ha="right",
                 fontweight="bold", color=DARK)
        )  # fmt: skip
    for row, entries in enumerate(rows):
        ly = f.legend_y(row)
        for lx, s in entries:
            fig.add_artist(
                Line2D([lx + 5], [ly], marker="o", markersize=10, color=s.colour, transform=units)
            )
            names.append(text(lx + 14, ly, isolate(s.label), va="center_baseline", color=DARK))
    return Drawing(fig, width, height, names)


class _WeightFallback(logging.Filter):
    """Drops matplotlib's "findfont: Failed to find font weight bold for Noto Sans CJK SC, now
    using 400.": a chart's faces are chosen by what they cover (`png_rc`), and a face may have
    no bold (a CJK font installed in one weight). matplotlib then draws the winner's bold label
    in the face's nearest weight, as the chart wants; the notice was printed on every publish."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("findfont: Failed to find font weight")


@cache
def _quiet_weight_fallback() -> None:
    """Only that notice: a family that is not found at all is still reported."""
    logging.getLogger("matplotlib.font_manager").addFilter(_WeightFallback())


SVG_FONTS = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', sans-serif"


def figure_png(d: Drawing) -> bytes:
    """The figure as a PNG, PNG_WIDTH px wide, its names without isolates (a picture has no
    text around them to turn).

    matplotlib draws it (Agg) with a renderer kept for the size: matplotlib caches the
    measures of texts per renderer, and the hand numbers, ticks and captions recur from chart
    to chart (a quarter of the drawing time). The pixels are stored with a palette of
    PNG_COLOURS colours (Pillow, which matplotlib writes its PNGs with): a chart has a few flat
    colours and their anti-aliased edges, so the file is a quarter of the size of matplotlib's
    RGBA PNG and compresses in a fraction of the time, with no difference to see (`_palette`)."""
    from PIL import Image

    for text in d.names:
        text.set_text(_printable(text.get_text()))
    dpi = 72 * PNG_WIDTH / d.width
    d.figure.set_dpi(dpi)
    width, height = (round(v) for v in d.figure.bbox.size)
    with _AGG_LOCK:
        renderer = _agg_renderer(width, height, dpi)
        renderer.clear()
        d.figure.draw(renderer)
        rgb = Image.frombuffer("RGBA", (width, height), renderer.buffer_rgba()).convert("RGB")
    picture = rgb.quantize(palette=_palette(rgb), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    picture.save(buf, format="PNG", compress_level=PNG_EFFORT)
    return buf.getvalue()


FLAT_COLOURS = (GRID, AXIS, INK, DARK, TARGET, GOLD, *SEAT_COLOURS, "#ffffff")


def _palette(rgb: Any) -> Any:
    """The picture's palette: the chart's flat colours, and the shades of a quarter-size copy
    (Pillow's fast octree). Choosing a palette from every pixel took half the PNG's time;
    mapping the pixels to a given one is fast. The flat colours are given, so a colour with few
    pixels (the target's red) keeps its own entry."""
    from PIL import Image

    shades = PNG_COLOURS - len(FLAT_COLOURS)
    small = rgb.reduce(4).quantize(shades, method=Image.Quantize.FASTOCTREE)
    colours = list(small.getpalette() or [])[: 3 * shades]
    for colour in FLAT_COLOURS:
        colours += [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return palette


_AGG_LOCK = threading.Lock()


@lru_cache(maxsize=4)
def _agg_renderer(width: int, height: int, dpi: float) -> Any:
    return agg_renderer(width, height, dpi)


@cache
def _family(path: str, index: int) -> str | None:
    """matplotlib's name for an installed face, registering a file it did not list."""
    from matplotlib import font_manager

    real = os.path.realpath(path)

    def find() -> str | None:
        same_file = None
        for entry in font_manager.fontManager.ttflist:
            if os.path.realpath(entry.fname) == real:
                if getattr(entry, "index", 0) == index:
                    return str(entry.name)
                same_file = same_file or str(entry.name)
        # a matplotlib that lists only a collection's first face: it covers the same script
        return same_file

    name = find()
    if name is None:
        try:
            font_manager.fontManager.addfont(path)
        except (OSError, RuntimeError, ValueError):
            return None
        name = find()
    return name


@cache
def _families(text: str) -> tuple[tuple[str, ...], str]:
    """matplotlib font families that draw `text`, in fallback order, and what none covers."""
    plan = font_plan(text)
    families = [f for f in (_family(face.path, face.index) for face in plan.faces) if f]
    return tuple(dict.fromkeys(families)), plan.missing if families else (plan.missing or text)


# --- the charts of a game page -------------------------------------------------------------------


@cache
def _notice(missing: str) -> str:
    return (
        f"no installed font draws {describe_missing(missing)}: the PNG charts of games with "
        "such names are left out, and their pages show the SVG charts"
    )


def png_rc(m: ChartModel) -> tuple[dict[Any, Any], str | None]:
    """The matplotlib rc the PNG of `m` is drawn in (its fonts: the faces that cover its
    texts), and why no PNG is drawn (no installed face covers some character), or None."""
    families, missing = _families(m.text())
    rc: dict[Any, Any] = {**RC, "font.family": list(families) or ["sans-serif"]}
    return rc, _notice(missing) if missing else None


def render_chart(m: ChartModel, *, png: bool = True) -> Chart:
    """One chart in every form: the page's SVG, the SVG file (written directly, zfrec.render.
    svgchart) and (fonts allowing) the PNG that matplotlib draws."""
    from zfrec.render.svgchart import chart_svg

    picture, notice, widths = None, None, None
    if png:
        import matplotlib

        rc, notice = png_rc(m)
        if notice is None:
            with matplotlib.rc_context(rc), warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="Glyph .* missing from")
                # the legend laid out by its labels as drawn, in the SVG too: the same
                # rows and places in both (the SVG's fonts are the reader's, much alike)
                widths = legend_widths(m)
                picture = figure_png(draw(m, widths))
    svg, svg_file = chart_svg(m, widths)
    legend = tuple((s.seat, s.label, s.name) for s in m.series)
    return Chart(m.name, m.title, svg, svg_file, picture, legend, notice)


__all__ = [
    "Chart",
    "ChartModel",
    "draw",
    "legend_widths",
    "nice_ticks",
    "png_rc",
    "render_chart",
]
