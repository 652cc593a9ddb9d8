"""Who wins a trick and its points (rulings 8 and 9).

Only a play of the lead's format, all in the led suit or all trump, can win: a single any card,
a pair a pair, a tractor a tractor as long, a throw a play that matches each of its units (a
pair may stand for two singles and a tractor for as many pairs, never a single for a pair). A
trump play of the format beats any play of the led suit; between plays of one suit the higher
wins, compared by the top card of the lead's largest unit (tractor over pair over single, then
length); on a tie the earlier play wins.

    >>> from zfrec.games.shengji.cards import parse_hand as cards
    >>> from zfrec.games.shengji.order import order_for
    >>> o = order_for("7c")
    >>> plays = [cards(t) for t in ("8d 8d", "9d 9d", "Jc Qc", "Td 2s")]
    >>> trick_winner(o, plays), trick_points(plays)
    (1, 10)
    >>> lead = "Kd Qd Qd Td Td"
    >>> trick_winner(o, [cards(t) for t in (lead, "8c 8c 5c 5c Jc", "Tc Tc 2c 2c 4c")])
    2
    >>> trick_winner(o, [cards(t) for t in (lead, "8c 8c 5c 5c Jc", "6c 6c 3c 3c Ac")])
    1
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from zfrec.games.shengji.cards import pairs, points
from zfrec.games.shengji.formats import Format, best_top, classify, match_tractors, pair_levels
from zfrec.games.shengji.order import TRUMP, Order

__all__ = ["can_win", "single_or_pair_keys", "trick_points", "trick_winner"]


def can_win(order: Order, lead: Format, play: int) -> int | None:
    """The effective suit in which `play` contends for the trick led by `lead` (the led suit
    or TRUMP), or None when it cannot win: another suit, mixed, or not the lead's format."""
    masks = order.suit_mask
    e = lead.esuit
    if play & ~masks[e]:
        if play & ~masks[TRUMP]:
            return None
        e = TRUMP
    if lead.pairs:
        if pairs(play) < lead.pairs:
            return None
        if lead.tractors and match_tractors(lead.tractors, pair_levels(order, play)) < len(
            lead.tractors
        ):
            return None
    return e


def trick_winner(order: Order, plays: Sequence[int], lead: Format | None = None) -> int:
    """The index (0-based, in play order) of the play that wins the trick; `plays[0]` is the
    lead (`lead` its format, read here when not given). Ties go to the earliest (ruling 4)."""
    if lead is None:
        lead = classify(order, plays[0])
    if lead.size < 3 and lead.kind != "throw":
        return _single_or_pair(order, plays, lead)
    unit = lead.units[0].pairs  # the lead's largest unit decides (ruling 9)
    best, best_trump = 0, lead.esuit == TRUMP
    best_level = lead.units[0].top
    for i in range(1, len(plays)):
        e = can_win(order, lead, plays[i])
        if e is None:
            continue
        ruff = e == TRUMP
        if best_trump and not ruff:
            continue
        top = best_top(order, plays[i], unit)
        if (ruff and not best_trump) or top > best_level:
            best, best_trump, best_level = i, ruff, top
    return best


@cache
def _keys(order: Order) -> tuple[tuple[int, ...], ...]:
    """For each led suit, each card's key when played to a single or pair lead: its level,
    100 more in trump (a trump beats any card of the led suit), -1 in another suit."""
    return tuple(
        tuple(
            level + 100 if e == TRUMP else level if e == led else -1
            for e, level in zip(order.esuit, order.level, strict=True)
        )
        for led in range(TRUMP + 1)
    )


def single_or_pair_keys(order: Order, esuit: int) -> tuple[int, ...]:
    """Each card's key when played to a single or pair lead of effective suit `esuit` (see
    `_keys`): the highest key wins, the earlier play on a tie."""
    return _keys(order)[esuit]


def _single_or_pair(order: Order, plays: Sequence[int], lead: Format) -> int:
    """`trick_winner` for the common leads, a single or a pair: a play of the lead's shape
    (one card; two copies of one card) contends with that card's key (`_keys`); a play of
    another shape (a recovering replay forces any) is read in full. Ties go to the earlier."""
    keys = _keys(order)[lead.esuit]
    shape = 2 if lead.kind == "pair" else 1
    best, best_key = 0, keys[lead.units[0].ids[0]]
    for i in range(1, len(plays)):
        play = plays[i]
        c = (play.bit_length() - 1) >> 1
        if c >= 0 and play == shape << (c << 1):
            key = keys[c]
        else:
            e = can_win(order, lead, play)
            key = -1
            if e is not None:
                top = best_top(order, play, shape - 1)
                key = top + 100 if e == TRUMP else top
        if key > best_key:
            best, best_key = i, key
    return best


def trick_points(plays: Sequence[int]) -> int:
    """The points in a trick's cards (ruling 2)."""
    return points(sum(plays))
