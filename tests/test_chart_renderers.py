"""The charts' renderer (zfrec.render.mplrender) draws what matplotlib's own renderer draws; the
SVG written directly (zfrec.render.svgchart) shows what the PNG shows; the replay's card lists
(html.card_ids) are a mask's bits.

The renderer remembers the fonts' line metrics and the glyph layouts across charts; the PNGs
drawn with it must be the very pixels that a plain `RendererAgg` makes of the same figure, the
first time and when drawn from memory.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import matplotlib
import pytest
from matplotlib.backends.backend_agg import RendererAgg

from tests.test_publish import renamed, simulated
from zfrec.games.zhengfen.pages.charts import points_model, score_model
from zfrec.games.zhengfen.pages.html import build_game_view
from zfrec.render import mplrender
from zfrec.render.charts import RC, draw
from zfrec.render.svgchart import chart_svg

NAMES = (["王芳", "张伟", "Ann", "李娜"], ["East", "South", "West", "North"])
FAMILY = ["DejaVu Sans", "Noto Sans CJK SC", "sans-serif"]  # whichever are installed


def _models(names: list[str]) -> list[Any]:
    view = build_game_view(renamed(simulated(4, 11, 4), names))
    return [score_model(view), points_model(view)]


def _pixels(model: Any, renderer_class: Any) -> bytes:
    drawing = draw(model)
    dpi = 72 * 800 / drawing.width
    drawing.figure.set_dpi(dpi)
    width, height = (round(v) for v in drawing.figure.bbox.size)
    renderer = renderer_class(width, height, dpi)
    drawing.figure.draw(renderer)
    return bytes(renderer.buffer_rgba())


@pytest.mark.parametrize("names", NAMES, ids=["chinese", "latin"])
def test_charts_are_matplotlibs_own_drawing(names: list[str]) -> None:
    mplrender.clear()
    with matplotlib.rc_context({**RC, "font.family": FAMILY}):
        for model in _models(names):
            expected_png = _pixels(model, RendererAgg)
            for _ in range(2):  # laid out, then from what the renderer remembers
                assert _pixels(model, mplrender.agg_renderer) == expected_png
    assert mplrender._LAYOUTS and mplrender._BITMAPS  # the second round drew from them


def test_the_svg_shows_what_the_png_draws() -> None:
    """The SVG, written directly, has every text of matplotlib's figure of the same model, at
    the same places along the line (the anchor) and in the same colours."""
    model = _models(NAMES[0])[0]
    page, file = chart_svg(model)
    assert page.startswith('<svg viewBox="0 0 340 ') and 'class="zf-chart"' in page
    assert file.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert "王芳" in page and "王芳" in file  # names as text, not as glyph paths
    root = ET.fromstring(file)
    ns = "{http://www.w3.org/2000/svg}"
    ours = {(t.text, round(float(t.get("x", 0)), 1)) for t in root.iter(f"{ns}text")}
    with matplotlib.rc_context({**RC, "font.family": FAMILY}):
        drawing = draw(model)
    height = drawing.height
    theirs = set()
    for text in drawing.figure.texts:
        x, y = text.get_transform().transform(text.get_position())
        theirs.add((text.get_text(), round(float(x), 1)))
        assert 0 < y < height
    assert ours == theirs
    colours = {c for t in drawing.figure.texts for c in [matplotlib.colors.to_hex(t.get_color())]}
    assert colours <= set(re.findall(r'fill="(#[0-9a-f]{6})"', file))
