"""What the pages of every game share: names and cards in prose (isolated names, card codes
written as the cards show them), place words, short names, and a chart as a page embeds it.
Each game's view-models are its own (Zheng Fen's: zfrec.games.zhengfen.pages.views).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup

from zfrec.cardwords import SUIT_GLYPHS

PLACE_WORDS = ("1st", "2nd", "3rd", "4th", "5th", "6th")
SHORT_NAME = 18  # characters of a name that charts and narrow columns show


def place_word(place: int) -> str:
    return PLACE_WORDS[place - 1] if 1 <= place <= len(PLACE_WORDS) else f"{place}th"


def short_name(name: str, limit: int = SHORT_NAME) -> str:
    """A name cut to `limit` characters with an ellipsis: a very long name must not push a
    chart's plot or a table's columns off the page (the full name stays in a title)."""
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"


# --- names and cards in prose -----------------------------------------------------------------

FSI, PDI = "\u2068", "\u2069"  # first-strong isolate, pop directional isolate
_ISOLATED = re.compile(f"({FSI}[^{PDI}]*{PDI})")
_DECLARED = re.compile(r"=([2-9TJQKA])([shdc])?(?![\w])")
_CARD_CODE = re.compile(r"(?<![\w=])([2-9TJQKA])([shdc])(?![\w])")
_TEN_RANK = re.compile(r"\bT(s?)\b")


def isolate(name: str) -> str:
    """A name as plain text that cannot turn the text around it: a right-to-left override in a
    name ends with the name (the plain-text form of <bdi>)."""
    return FSI + name + PDI


@lru_cache(maxsize=256)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    words = sorted({n for n in names if n}, key=len, reverse=True)
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(f"(?<![\\w{FSI}])(?:{alternatives})(?![\\w{PDI}])")


def isolate_names(text: str, names: tuple[str, ...]) -> str:
    """`text` with every player name in it isolated (see `isolate`)."""
    pattern = _names_pattern(names)
    return text if pattern is None else pattern.sub(lambda m: isolate(m.group(0)), text)


def _outside_names(text: str, change: Callable[[str], str]) -> str:
    parts = _ISOLATED.split(text)
    return "".join(p if i % 2 else change(p) for i, p in enumerate(parts))


def _rank(symbol: str) -> str:
    return "10" if symbol == "T" else symbol


def card_prose(text: str, names: tuple[str, ...] = ()) -> str:
    """Text that writes cards as codes (`Ts Th BJ=Ts`), as the cards show them: `10♠ 10♥
    BJ=10♠`. Names are isolated first and left as they are."""

    def cards(part: str) -> str:
        part = _DECLARED.sub(
            lambda m: (
                "="
                + _rank(m.group(1))
                + (SUIT_GLYPHS["shdc".index(m.group(2))] if m.group(2) else "")
            ),
            part,
        )
        return _CARD_CODE.sub(
            lambda m: _rank(m.group(1)) + SUIT_GLYPHS["shdc".index(m.group(2))], part
        )

    return _outside_names(isolate_names(text, names), cards)


@lru_cache(maxsize=4096)  # a game repeats its few readings ("pair of 9s") move after move
def rank_prose(text: str) -> str:
    """A reading in words (`pair of Ts`, `up to T`) with tens written as the cards show them:
    `pair of 10s`, `up to 10`."""
    return _outside_names(text, lambda part: _TEN_RANK.sub(r"10\1", part))


@dataclass(frozen=True, slots=True)
class ChartEmbed:
    """A chart as the game page shows it: SVG that zfrec generated, and links to its files."""

    title: str
    svg: Markup
    png_href: str | None = None
    svg_href: str | None = None
