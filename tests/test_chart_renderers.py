"""The charts' renderers (zfrec.render.mplrender) draw what matplotlib's own renderers draw; the
replay's card lists (html.card_ids) are a mask's bits.

They remember texts' measures, the fonts' line metrics and the glyph layouts across charts; the
charts drawn with them must be the very bytes (SVG) and pixels (PNG) that matplotlib's `savefig`
and a plain `RendererAgg` make of the same figure, the first time and when drawn from memory.
"""

from __future__ import annotations

import io
from typing import Any

import matplotlib
import pytest
from matplotlib.backends.backend_agg import RendererAgg

from tests.test_publish import renamed, simulated
from zfrec.render import mplrender
from zfrec.render.charts import RC, draw, figure_svg, points_model, score_model
from zfrec.render.html import build_game_view

NAMES = (["王芳", "张伟", "Ann", "李娜"], ["East", "South", "West", "North"])
FAMILY = ["DejaVu Sans", "Noto Sans CJK SC", "sans-serif"]  # whichever are installed


def _models(names: list[str]) -> list[Any]:
    view = build_game_view(renamed(simulated(4, 11, 4), names))
    return [score_model(view), points_model(view)]


def _matplotlib_svg(model: Any) -> str:
    """The figure saved by matplotlib's savefig, as figure_svg did it before its renderer."""
    drawing = draw(model)
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": f"zf-{model.name}"}):
        drawing.figure.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    return buf.getvalue()


def _ours_svg(model: Any) -> str:
    drawing = draw(model)
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": f"zf-{model.name}"}):
        renderer = mplrender.svg_renderer(drawing.width, drawing.height, buf)
        drawing.figure.draw(renderer)
        renderer.finalize()
    return buf.getvalue()


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
            expected_svg = _matplotlib_svg(model)
            expected_png = _pixels(model, RendererAgg)
            for _ in range(2):  # measured and laid out, then from what the renderers remember
                assert _ours_svg(model) == expected_svg
                assert _pixels(model, mplrender.agg_renderer) == expected_png
    assert mplrender._MEASURES and mplrender._LAYOUTS  # the second round drew from them


def test_figure_svg_keeps_the_page_form() -> None:
    model = _models(NAMES[0])[0]
    with matplotlib.rc_context({**RC, "font.family": FAMILY}):
        page, file = figure_svg(draw(model), model)
    assert page.startswith('<svg viewBox="0 0 340 ') and 'class="zf-chart"' in page
    assert file.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert "王芳" in page and "王芳" in file  # names as text, not as glyph paths


def test_card_ids_are_the_set_bits_lowest_first() -> None:
    import random

    from zfrec.render.html import card_ids

    rng = random.Random(18)
    masks = [0, 1, (1 << 54) - 1, 1 << 53, (1 << 70) | 5]
    masks += [rng.getrandbits(54) & rng.getrandbits(54) for _ in range(2000)]
    for mask in masks:
        assert card_ids(mask) == tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
