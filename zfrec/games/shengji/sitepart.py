"""Sheng ji's part of the site: the statistics section of the index and of each player's page
(`ShengjiKind.site_section`), from `zfrec.games.shengji.stats`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from zfrec.games.shengji.stats import sj_stats
from zfrec.render.html import environment
from zfrec.render.site import KindSection

__all__ = ["site_section"]


def site_section(games: Sequence[tuple[int, dict[str, Any]]], player_hrefs: dict[str, str]) -> Any:
    """The index's Sheng ji statistics (players, partnerships) and each player's own, from
    each match's facts (`zfrec.games.shengji.stats.match_facts`)."""
    players, pairs = sj_stats(games)
    env = environment()
    index = env.get_template("sj_stats.html.j2").render(
        players=players, pairs=pairs, hrefs=player_hrefs, prefix="", one=None
    )
    per_player: dict[str, Markup] = {}
    template = env.get_template("sj_stats.html.j2")
    for p in players:
        name = p.members[0]
        own = [t for t in pairs if name in t.members]
        html = template.render(players=[p], pairs=own, hrefs={}, prefix="../", one=name)
        per_player[name] = Markup(html)
    return KindSection("shengji", "Sheng ji", Markup(index), per_player)
