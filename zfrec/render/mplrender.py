"""matplotlib's Agg renderer, remembering what it learns of texts across charts.

    >>> png = agg_renderer(800, 569, 169.4)                 # kept, drawn into chart after chart

A chart's texts recur from game to game (hand numbers, ticks, captions, the players' names),
and every text costs matplotlib a shaping (libraqm and HarfBuzz, reading the font file through
Python: about half a millisecond) to measure it, and another to draw it. matplotlib keeps the
measures per renderer (and the renderer is kept: charts.figure_png). This renderer keeps, for
the whole process:

- the font's line metrics (ascent, descent, line gap from its OS/2 or hhea table), which
  matplotlib reads from the font file for every text it lays out;
- a text's glyph layout (which glyph of which face at which offset);
- a glyph's bitmap, by where it falls within a pixel (upright text: the same glyph at the same
  fraction of a pixel is the same bitmap, moved by whole pixels).

What it draws is what matplotlib's own renderer draws, pixel for pixel
(tests/test_chart_renderers.py compares them). Where the matplotlib in use lacks what it relies
on (`FT2Font._layout`, `RendererAgg._prepare_font`), it leaves the drawing to matplotlib.
Fonts do not survive a fork (matplotlib drops its own font cache in the child), so neither do
the layouts.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

_HEIGHTS: dict[tuple[Any, ...], tuple[float | None, float | None, float | None]] = {}
_LAYOUTS: dict[tuple[Any, ...], Any] = {}
_BITMAPS: dict[tuple[Any, ...], tuple[Any, int, int]] = {}
LIMIT = 20_000  # entries per table: player names are many, memory is bounded


def _remember(table: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(table) >= LIMIT:
        table.clear()
    table[key] = value
    return value


def clear() -> None:
    """Forget every text and font (a forked child must: its fonts are new objects)."""
    _HEIGHTS.clear()
    _LAYOUTS.clear()
    _BITMAPS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=clear)


def font_heights(prop: Any, dpi: float) -> tuple[float | None, float | None, float | None]:
    """The ascent, descent and line gap of the font of `prop` at `dpi`, in pixels, as
    matplotlib's Text reads them from the font's tables (None where the font has neither
    table: matplotlib then measures a text instead)."""
    key = (prop, dpi)
    found = _HEIGHTS.get(key)
    if found is not None:
        return found
    from matplotlib.font_manager import fontManager, get_font

    font: Any = get_font(fontManager._find_fonts_by_props(prop))
    heights: tuple[float | None, float | None, float | None] = (None, None, None)
    possible = [
        ("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
        ("hhea", "lineGap", "ascent", "descent"),
    ]
    for table_name, gap_key, ascent_key, descent_key in possible:
        table = font.get_sfnt_table(table_name)
        if table is None:
            continue
        units_per_em = font.get_sfnt_table("head")["unitsPerEm"]
        scale = 1 / units_per_em * prop.get_size_in_points() * dpi / 72
        heights = (
            table[ascent_key] * scale,
            -table[descent_key] * scale,
            table[gap_key] * scale,
        )
        break
    return _remember(_HEIGHTS, (prop.copy(), dpi), heights)  # type: ignore[no-any-return]


@cache
def _agg_class() -> Any:
    import numpy as np
    from matplotlib import ft2font
    from matplotlib.backends import backend_agg

    agg: Any = backend_agg  # its stubs leave RendererAgg untyped
    base: Any = agg.RendererAgg
    layouts = hasattr(base, "_prepare_font") and hasattr(base, "_draw_text_glyphs_and_boxes")
    render_mode: Any = getattr(ft2font, "RenderMode", None)
    bitmaps = render_mode is not None and hasattr(ft2font.FT2Font, "_render_glyph")
    upright = (0x10000 * np.eye(2)).round().astype(int)  # the transform of upright text

    class LayingOutRendererAgg(base):  # type: ignore[misc]
        """An Agg renderer that lays each text out once per process."""

        def _get_font_height_metrics(
            self, prop: Any
        ) -> tuple[float | None, float | None, float | None]:
            return font_heights(prop, self.dpi)

        def draw_text(
            self, gc: Any, x: float, y: float, s: str, prop: Any, angle: float,
            ismath: Any = False, mtext: Any = None,
        ) -> None:  # fmt: skip
            if ismath or not layouts:
                super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
                return
            font = self._prepare_font(prop)
            if not hasattr(font, "_layout"):
                super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
                return
            features = mtext.get_fontfeatures() if mtext is not None else None
            language = mtext.get_language() if mtext is not None else None
            flags = agg.get_hinting_flag()
            key = (s, prop, self.dpi, flags, features, language)
            try:
                items = _LAYOUTS.get(key)
            except TypeError:  # features or language given as a list: not remembered
                super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
                return
            if items is None:
                laid = font._layout(s, flags=flags, features=features, language=language)
                key = (s, prop.copy(), self.dpi, flags, features, language)
                glyphs = [(i.ft_object, i.glyph_index, i.x, i.y) for i in laid]
                items = _remember(_LAYOUTS, key, glyphs)
            size = prop.get_size_in_points()
            if angle or not gc.get_antialiased() or not bitmaps:
                self._draw_text_glyphs_and_boxes(
                    gc, x, y, angle,
                    ((ft, size, glyph, 0, 1, dx, dy) for ft, glyph, dx, dy in items),
                    [],
                )  # fmt: skip
                return
            # What _draw_text_glyphs_and_boxes does for upright text, each glyph's bitmap
            # remembered by where it falls within a pixel (a 64th): the same glyph at the same
            # fraction is the same bitmap, moved by whole pixels.
            height = self.height
            for ft, glyph, dx, dy in items:
                tx, ty = round(0x40 * (x + dx)), round(0x40 * (height - y + dy))
                gkey = (ft, size, self.dpi, glyph, tx & 63, ty & 63, flags)
                found = _BITMAPS.get(gkey)
                if found is None:
                    ft.set_size(size, self.dpi)
                    ft._set_transform(upright, [tx & 63, ty & 63])
                    bitmap = ft._render_glyph(glyph, flags, render_mode.NORMAL)
                    found = (bitmap.buffer.copy(), bitmap.left, bitmap.top)
                    _remember(_BITMAPS, gkey, found)
                buffer, left, top = found
                self._renderer.draw_text_image(
                    buffer, left + (tx >> 6), int(height) - top - (ty >> 6) + buffer.shape[0], 0, gc
                )

    return LayingOutRendererAgg


def agg_renderer(width: int, height: int, dpi: float) -> Any:
    """An Agg renderer of `width` × `height` pixels at `dpi`, to draw figures into (clear it
    before each)."""
    return _agg_class()(width, height, dpi)


__all__ = ["agg_renderer", "clear", "font_heights"]
