"""Throws that fail (ruling 10): whether a throw stands against the other hands, and if not,
the unit the thrower is held to and the cards taken back.

A throw stands only if no other player (partner included) holds a unit of the led suit, of the
same kind, that beats one of its units: a higher single, a higher pair, a tractor as long with a
higher top. Otherwise the thrower plays the beatable unit with the fewest cards (then the lowest;
between equal cards, the one written first where the order written is known, as on the command
line, else the lowest card id: a play in `RoundState` is a multiset) and takes back the rest.
The blocker is the first player in play order holding a unit that beats the forced one.
`throw_penalty` charges N points per card taken back (ruling 10): see
`zfrec.games.shengji.round`.

    >>> from zfrec.games.shengji.cards import format_hand, parse_hand as cards
    >>> from zfrec.games.shengji.order import order_for
    >>> o = order_for("7c")
    >>> check = check_throw(o, cards("Kd Qd"), [cards("Kd 3s"), cards("4h"), cards("Ad")])
    >>> check.stands, format_hand(check.forced), format_hand(check.back), check.blocker
    (False, 'Qd', 'Kd', 0)
    >>> check_throw(o, cards("Kd Qd"), [cards("Kd 3s"), cards("4h"), cards("5c")]).blocker
    0
    >>> check_throw(o, cards("Ad Kd"), [cards("Kd 3s"), cards("Qd")]).stands
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from zfrec.games.shengji.cards import distinct, from_ids, size
from zfrec.games.shengji.formats import Format, Unit, classify, pair_levels, runs
from zfrec.games.shengji.order import Order

__all__ = [
    "ThrowCheck",
    "beats_unit",
    "check_throw",
    "check_throw_format",
    "equal_units",
    "throw_penalty",
    "throw_units",
]


class ThrowCheck(NamedTuple):
    """The verdict on a throw: `stands`; when it fails, `forced` (packed) the unit played,
    `back` the cards taken back, `blocker` the 0-based index among the other hands of the first
    that could beat the forced unit, `unit` the forced unit. When it stands, `forced` is the
    whole throw, `back` 0 and `blocker` None."""

    stands: bool
    forced: int
    back: int
    blocker: int | None
    unit: Unit | None


def beats_unit(order: Order, unit: Unit, esuit: int, hand: int) -> bool:
    """Whether `hand` holds a unit of suit `esuit` of the same kind that beats `unit`."""
    held = hand & order.suit_mask[esuit]
    if not held:
        return False
    if unit.pairs == 0:
        level = order.level
        return any(level[c] > unit.top for c in distinct(held))
    levels = pair_levels(order, held)
    if unit.pairs == 1:
        return any(lv > unit.top for lv in levels)
    return any(n >= unit.pairs and top > unit.top for top, n in runs(levels))


def check_throw_format(
    order: Order, lead: Format, others: Sequence[int], written: Sequence[int] = ()
) -> ThrowCheck:
    """`check_throw` for a lead already read."""
    if len(lead.units) < 2:
        return ThrowCheck(True, lead.cards, 0, None, None)
    beaten = [u for u in lead.units if any(beats_unit(order, u, lead.esuit, h) for h in others)]
    if not beaten:
        return ThrowCheck(True, lead.cards, 0, None, None)
    first = {c: i for i, c in reversed(list(enumerate(written)))}  # where each card is written

    def place(u: Unit) -> int:
        return min(first.get(c, len(written) + c) for c in u.ids)

    unit = min(beaten, key=lambda u: (u.size, u.top, place(u)))
    forced = from_ids(unit.ids)
    blocker = next(i for i, h in enumerate(others) if beats_unit(order, unit, lead.esuit, h))
    return ThrowCheck(False, forced, lead.cards - forced, blocker, unit)


def check_throw(
    order: Order, play: int, others: Sequence[int], written: Sequence[int] = ()
) -> ThrowCheck:
    """Whether the lead `play` stands against `others` (what the other players hold, or as much
    of it as is known, in play order after the thrower). A lead of one unit always stands.
    `written` is the throw's card ids in the order written, if known: between equal units the
    one written first is forced (else the lowest card id). IllegalPlayError for no lead."""
    return check_throw_format(order, classify(order, play), others, written)


def equal_units(order: Order, a: int, b: int) -> bool:
    """Whether `a` and `b` are each one unit, of one kind, length and top level: equal units
    (`7s 7s` and `7h 7h` in a 7♣ round), between which ruling 10 forces the one written first.
    A record's plays are multisets (and `zfrec fmt` sorts their cards), so the validator takes
    either as the forced part.

    >>> from zfrec.games.shengji.cards import parse_hand as cards
    >>> from zfrec.games.shengji.order import order_for
    >>> o = order_for("7c")
    >>> equal_units(o, cards("7s 7s"), cards("7h 7h")), equal_units(o, cards("7s"), cards("7c"))
    (True, False)
    """
    fa, fb = classify(order, a), classify(order, b)
    if len(fa.units) != 1 or len(fb.units) != 1:
        return False
    (ua,), (ub,) = fa.units, fb.units
    return (ua.pairs, ua.top, fa.esuit) == (ub.pairs, ub.top, fb.esuit)


def throw_penalty(check: ThrowCheck, per_card: int) -> int:
    """The points a failed throw costs its side: `per_card` per card taken back (ruling 10)."""
    return 0 if check.stands else per_card * size(check.back)


def throw_units(order: Order, cards: int) -> list[int]:
    """The units of a throw (packed, largest first): a failed throw is held to one of them
    whole (ruling 10), never to part of one.

    >>> from zfrec.games.shengji.cards import format_hand, parse_hand as cards
    >>> from zfrec.games.shengji.order import order_for
    >>> [format_hand(u) for u in throw_units(order_for("2h"), cards("Kc 7c 7c"))]
    ['7c 7c', 'Kc']
    """
    return [from_ids(u.ids) for u in classify(order, cards).units]
