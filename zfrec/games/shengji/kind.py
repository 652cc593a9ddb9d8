"""Sheng ji (升级) as a game kind (zfrec.games.GameKind): what the generic layers ask of it.

The notation, JSON part, replayer and store rows are wired here as they are built (helpers
sjnotation and sjvalidate); a hook not wired yet says so plainly (zfrec.games.NotSupported).
Pages come with a later issue: `render_files` returns None and the site says so.
"""

from __future__ import annotations

from zfrec.games import GameKind


class ShengjiKind(GameKind):
    """Sheng ji: four (or six) players in two teams, two (or three) decks, levels."""

    name = "shengji"
    title = "Sheng ji"
    unit = "round"
    presets = ("bashifen", "dabaifen", "zhaopengyou")
    default_target = None


KIND = ShengjiKind()
