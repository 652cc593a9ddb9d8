"""The PNG charts' texts do not run into each other, whatever the names: six players with long
names, capitals as wide as W and M, Chinese names, in Zheng Fen's and Sheng ji's charts. Each
chart is drawn as `render_chart` draws its PNG (its fonts, its legend measured) and every text's
box, as matplotlib's renderer places it, is checked against every other text and legend dot.
(With the legend laid out by an estimate of the labels' widths only, "WWWW…" ran over the next
entry's dot and name.)"""

from __future__ import annotations

import re
import unicodedata
import warnings
from pathlib import Path
from typing import Any

import matplotlib
import pytest

from tests.lanes import unavailable
from tests.test_publish import renamed, simulated
from zfrec.games.shengji import charts as sj_charts
from zfrec.games.shengji.kind import match_of
from zfrec.games.shengji.pages import match_view
from zfrec.games.zhengfen.pages import charts as zf_charts
from zfrec.games.zhengfen.pages.html import build_game_view
from zfrec.record import load
from zfrec.render.charts import PNG_WIDTH, ChartModel, draw, legend_widths, png_rc
from zfrec.render.mplrender import agg_renderer

SJ = Path(__file__).resolve().parent.parent / "sample_games" / "shengji" / "01-bashifen-match.zfn"
NAMES = {
    "wide": ["WWWWWWWWWWWWWWWWWWW", "MMMMMMMMMMMMMMMMMMM", "WOLFGANG MOZART WM",
             "Bartholomew Kowalczyk", "Guinevere Montgomery", "MAXIMILIAN OBERHOLZER"],
    "chinese": ["欧阳娜娜娜娜娜娜娜娜娜娜娜娜", "司马相如相如相如相如相如相如", "王芳",
                "诸葛亮亮亮亮亮亮亮亮", "Alexandria Featherstonehaugh", "张伟"],
}  # fmt: skip


def _models(names: list[str]) -> list[ChartModel]:
    zf = build_game_view(renamed(simulated(6, 5, 6), names))
    sj = match_view(match_of(renamed(next(iter(load(SJ))), names[:4])))
    return [zf_charts.score_model(zf), zf_charts.points_model(zf),
            sj_charts.ladder_model(sj), sj_charts.points_model(sj)]  # fmt: skip


def _overlaps(a: Any, b: Any) -> bool:
    """Boxes that share more than 2 px each way (of the PNG's 800: a text's box holds its
    font's whole ascent and descent, so boxes that touch by a pixel or two, as the y caption's
    and the top tick's do, are letters apart)."""
    return bool(min(a.x1, b.x1) - max(a.x0, b.x0) > 2 and min(a.y1, b.y1) - max(a.y0, b.y0) > 2)


def _boxes(m: ChartModel) -> tuple[list[tuple[str, Any]], list[Any]]:
    """The texts' boxes and the legend dots' boxes of the PNG of `m`, in pixels."""
    rc, notice = png_rc(m)
    if notice is not None:  # a face for every name is needed to measure them as drawn
        unavailable(
            f"no CJK font installed (CI installs fonts-noto-cjk: .ci/services.sh): {notice}"
        )
    with matplotlib.rc_context(rc), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Glyph .* missing from")
        d = draw(m, legend_widths(m))
        for t in d.names:  # as figure_png draws them: no isolates
            t.set_text("".join(c for c in t.get_text() if unicodedata.category(c) != "Cf"))
        dpi = 72 * PNG_WIDTH / d.width
        d.figure.set_dpi(dpi)
        width, height = (round(v) for v in d.figure.bbox.size)
        renderer = agg_renderer(width, height, dpi)
        d.figure.draw(renderer)
        texts = [(t.get_text(), t.get_window_extent(renderer)) for t in d.figure.texts
                 if t.get_text()]  # fmt: skip
        dots = [a.get_window_extent(renderer) for a in d.figure.artists
                if getattr(a, "get_marker", lambda: None)() == "o" and len(a.get_xdata()) == 1
                and a.get_transform() is d.names[-1].get_transform()]  # fmt: skip
    return texts, dots


@pytest.mark.parametrize("names", NAMES.values(), ids=NAMES.keys())
def test_no_text_of_a_chart_runs_into_another(names: list[str]) -> None:
    for m in _models(names):
        texts, dots = _boxes(m)
        assert len(dots) == len(m.series), m.name  # the legend's dots, one an entry
        for i, (a, box) in enumerate(texts):
            for b, other in texts[i + 1 :]:
                assert not _overlaps(box, other), (m.name, a, b)
            for dot in dots:
                assert not _overlaps(box, dot), (m.name, a)


def test_the_png_outlines_the_reference_lines_labels_as_the_svg_does() -> None:
    # a tall bar may run behind "80 swap" at the right end: white under its letters (the SVG's
    # outline, tests/test_sj_pages.py), in the PNG too; the other texts have none
    from matplotlib.patheffects import withStroke

    m = sj_charts.points_model(match_view(match_of(next(iter(load(SJ))))))
    rc, _ = png_rc(m)
    with matplotlib.rc_context(rc):
        d = draw(m)
    labels = {label for _, label in m.lines}
    assert labels
    for t in d.figure.texts:
        outlined = [e for e in t.get_path_effects() if isinstance(e, withStroke)]
        assert len(outlined) == (t.get_text() in labels), t.get_text()


def test_no_bar_covers_a_reference_lines_label() -> None:
    """The labels of Sheng ji's points lines (80 swap, 120 +1, 160 +2) sit in a margin right
    of the plot, level with their lines: bars of every height up to above the top line, the
    last rounds' too, leave them clear, in the PNG and in the SVG. (Drawn at the lines' right
    ends inside the plot, they were crossed by any tall bar there.)"""
    import dataclasses
    import xml.etree.ElementTree as ET

    from matplotlib.collections import PolyCollection

    from zfrec.render.svgchart import chart_svg

    m = sj_charts.points_model(match_view(match_of(next(iter(load(SJ))))))
    tall = tuple(
        dataclasses.replace(s, values=tuple(170 if v else 0 for v in s.values)) for s in m.series
    )
    m = dataclasses.replace(m, series=tall)
    labels = {label for _, label in m.lines}
    assert labels == {"80 swap", "120 +1", "160 +2"}
    rc, _ = png_rc(m)
    with matplotlib.rc_context(rc):
        d = draw(m)
        dpi = 72 * PNG_WIDTH / d.width
        d.figure.set_dpi(dpi)
        width, height = (round(v) for v in d.figure.bbox.size)
        renderer = agg_renderer(width, height, dpi)
        d.figure.draw(renderer)
        bars = [
            p.transformed(c.get_transform()).get_extents()
            for c in d.figure.artists
            if isinstance(c, PolyCollection)
            for p in c.get_paths()
        ]
        placed = {
            t.get_text(): t.get_window_extent(renderer)
            for t in d.figure.texts
            if t.get_text() in labels
        }
    assert len(bars) == len(m.xs) and set(placed) == labels
    for label, box in placed.items():
        assert box.x1 <= width, label  # inside the picture
        for bar in bars:
            assert not _overlaps(box, bar), label
    # the SVG: each label starts right of the last bar's right edge
    _, file = chart_svg(m)
    root = ET.fromstring(file)
    ns = "{http://www.w3.org/2000/svg}"
    xs = {t.text: float(t.get("x", "0")) for t in root.iter(f"{ns}text")}
    right = max(
        float(n)
        for p in root.iter(f"{ns}path")
        if p.get("fill", "").startswith("#") and p.get("fill") != "#fff"
        for n in re.findall(r"H([\d.]+)", p.get("d", ""))
    )
    for label in labels:
        assert xs[label] > right, (label, xs[label], right)


def test_a_short_games_score_chart_is_scaled_to_its_scores_not_the_target() -> None:
    """Two hands of a game to 500: the lines would lie flat along the bottom of a scale made
    for the target. The scale fits the scores and the axis names the target; a game that has
    come half way to its target has the target's line."""
    short = build_game_view(simulated(5, 5, 2))
    m = zf_charts.score_model(short)
    top = max(v for s in m.series for v in s.values)
    assert short.header.target == 500 and top * 2 < 500
    assert m.target is None and m.y_caption == "score (target 500)"
    assert m.y_hi < top * 1.5 and m.y_ticks[-1] < 500
    whole = build_game_view(simulated(4, 3, None))  # played to the end
    m = zf_charts.score_model(whole)
    assert m.target == 500 and m.y_caption == "score" and m.y_hi >= 500
