"""The score tables (rulings 11 to 14): the kitty multiplier, the level changes the opponents'
points give, the next dealer, and levels that must be defended.

    >>> level_change(85, 2)
    LevelChange(declarers=0, opponents=0, swap=True)
    >>> [tuple(level_change(p, 2)) for p in (0, -40)]
    [(3, 0, False), (5, 0, False)]
    >>> level_change(240).opponents, level_change(15, 1).declarers, level_change(120, 1).opponents
    (4, 2, 4)
    >>> kitty_multiplier(0), kitty_multiplier(1), kitty_multiplier(3), kitty_multiplier(3, "linear")
    (2, 4, 16, 8)
    >>> raise_level(9, 3, (5, 10, 13, 14), False), raise_level(13, 2, (14,), True)
    ((10, False), (14, False))
    >>> raise_level(14, 1, (14,), True), raise_level(13, 3, (), False)
    ((14, True), (14, True))
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["LevelChange", "kitty_multiplier", "level_change", "next_dealer", "raise_level"]


class LevelChange(NamedTuple):
    """What the opponents' points do: levels the declarers and the opponents go up, and
    whether the teams swap (the opponents become the declarers)."""

    declarers: int
    opponents: int
    swap: bool


def kitty_multiplier(pairs: int, mode: str = "power") -> int:
    """The kitty's multiplier for a last trick whose lead's largest unit has `pairs` pairs
    (0 a single, 1 a pair, L a tractor): `power` 2^(L+1), `linear` 2(L+1) (ruling 11)."""
    return 2 ** (pairs + 1) if mode == "power" else 2 * (pairs + 1)


def level_change(points: int, decks: int = 2) -> LevelChange:
    """The level change for the opponents' `points` (rulings 12 and 13). With N decks the
    teams swap at 40N and each further 20N is a level; two decks give ruling 12's table, one
    deck ruling 13's."""
    step = 20 * decks
    if points < 0:
        return LevelChange(4 + (-points) // step, 0, False)
    if points == 0:
        return LevelChange(3, 0, False)
    if points < step:
        return LevelChange(2, 0, False)
    if points < 2 * step:
        return LevelChange(1, 0, False)
    return LevelChange(0, (points - 2 * step) // step, True)


def raise_level(
    level: int, steps: int, must_defend: tuple[int, ...], declarer: bool
) -> tuple[int, bool]:
    """A team at `level` going up `steps` levels: (the new level, whether it won the match).

    A team stops at each level of `must_defend` until it wins a round there as declarers
    (`declarer` true and already at that level); winning as declarers at A wins the match, and
    so does passing A when A need not be defended (ruling 14).
    """
    if steps <= 0:
        return level, False
    target = level + steps
    for stop in must_defend:
        if stop == level:
            if not declarer:
                return level, False  # stuck until defended
            if stop == 14:
                return 14, True
            continue
        if level < stop <= target:
            return stop, False
    if target > 14:
        return 14, True
    return target, False


def next_dealer(dealer: int, n: int, declarers: int, swap: bool) -> int:
    """Who deals the next round (ruling 12): after a swap, the first opponent after the
    dealer; else the next declarer after the dealer (the dealer again when alone). `declarers`
    is the round's declaring seats as a bit mask."""
    seats = [(dealer + i) % n for i in range(1, n)]
    if swap:
        return next((s for s in seats if not declarers >> s & 1), (dealer + 1) % n)
    return next((s for s in seats if declarers >> s & 1), dealer)
