"""The hindsight solver, by its short name: `zfrec.games.zhengfen.solve.solve(state, seat)`.

The solver lives in `zfrec.games.zhengfen.solver` (how it searches) and
`zfrec.games.zhengfen.analysis.position` (the position where a record stops); this module gathers
what callers need.

    >>> from zfrec.games.zhengfen.engine.cards import parse_cards
    >>> from zfrec.games.zhengfen.engine.game import HandState
    >>> from zfrec.games.zhengfen.solve import best_points, solve
    >>> hs = HandState([parse_cards("5h"), parse_cards("Kd 3s"), parse_cards("4c")], 0)
    >>> _ = hs.play(0, parse_cards("5h"))
    >>> r = solve(hs, 1)
    >>> r.value, [play_text(p) for p in r.best]
    (15, ['Kd'])
    >>> best_points(hs)
    {0: 0, 1: 15, 2: 0}
"""

from __future__ import annotations

from zfrec.games.zhengfen.analysis.position import PositionError, RecordPosition, record_position
from zfrec.games.zhengfen.solver import (
    QUICK,
    Budget,
    LineStep,
    SolveResult,
    best_points,
    play_text,
    solve,
)

__all__ = [
    "QUICK",
    "Budget",
    "LineStep",
    "PositionError",
    "RecordPosition",
    "SolveResult",
    "best_points",
    "play_text",
    "record_position",
    "solve",
]
