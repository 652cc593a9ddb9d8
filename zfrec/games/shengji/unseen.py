"""What a seat may hold among the cards no play has shown, for the validator's judge of a
written failed throw (ruling 10; DIAGNOSTICS.md, "Unknown cards", SJ104).

The rebuilt hands (`zfrec.games.shengji.rebuild`) place the cards nobody showed in one way of
many: their **guessed** cards. So a written block is not judged against that guess but against
what is possible: the named blocker holds its known cards plus as many unseen cards as the
rebuild guessed for it, and those may be any cards not accounted for elsewhere (held known by a
seat, played, or in a known kitty), at most as many copies of each as the decks give.

    >>> from collections import Counter
    >>> from zfrec.games.shengji.cards import card_id, parse_hand as h
    >>> from zfrec.games.shengji.formats import classify
    >>> from zfrec.games.shengji.order import order_for
    >>> o = order_for("2c")
    >>> kd = classify(o, h("Kd")).units[0]
    >>> e, ad = o.esuit[kd.ids[0]], Counter({card_id("Ad"): 1})
    >>> may_beat(o, kd, e, h("3d"), ad, 1), may_beat(o, kd, e, h("3d"), ad, 0)
    (True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from zfrec.cardwords import card_str
from zfrec.errors import IllegalPlayError
from zfrec.games.shengji.cards import card_ids, count, distinct, format_hand, from_ids, size
from zfrec.games.shengji.formats import Unit, classify, unit_text
from zfrec.games.shengji.order import SUIT_WORDS, Order
from zfrec.games.shengji.records import SjTrick
from zfrec.games.shengji.throws import ThrowCheck

__all__ = [
    "blockers",
    "comes_after",
    "less",
    "may_beat",
    "out_of_suit",
    "shown_voids",
    "sure_single",
    "unseen_cards",
]


def less(a: int, b: int) -> int:
    """The multiset a - b, never below zero per card."""
    out = a
    for c in distinct(b):
        k = min(count(a, c), count(b, c))
        out -= k << 2 * c
    return out


def unseen_cards(guessed: Sequence[int], hidden_kitty: int) -> Counter[int]:
    """Card id -> copies no play, deal or kitty line shows: the seats' guessed cards and the
    part of the kitty not written. (A Counter: summed packed hands could overflow a field.)"""
    out: Counter[int] = Counter(card_ids(hidden_kitty))
    for g in guessed:
        out.update(card_ids(g))
    return out


def may_beat(
    order: Order, unit: Unit, esuit: int, known: int, unseen: Counter[int], room: int
) -> bool:
    """Whether a hand of the cards `known` and `room` more, any of `unseen` (card id -> copies
    not accounted for), may hold a unit of suit `esuit` of `unit`'s kind that beats `unit`: a
    higher single, a higher pair, a tractor as long with a higher top (`beats_unit`)."""
    need = 1 if unit.pairs == 0 else 2  # copies of one card for a single, for a pair
    level = order.level
    cost: dict[int, int] = {}  # level -> fewest unseen cards that make a single or pair there
    for c in order.desc[esuit]:
        have = count(known, c)
        if have + unseen[c] >= need:
            lv = level[c]
            cost[lv] = min(cost.get(lv, need), max(need - have, 0))
    length = max(unit.pairs, 1)
    for top in cost:
        window = [top - k for k in range(length)]  # a tractor's levels, or the one level
        if top > unit.top and sum(cost.get(lv, room + 1) for lv in window) <= room:
            return True
    return False


def shown_voids(
    order: Order, tricks: Sequence[SjTrick], esuit: int, erred: Collection[tuple[int, int]] = ()
) -> dict[int, int]:
    """Seat -> the first of `tricks` (1-based) at which it, following a lead of effective suit
    `esuit`, played a card of another suit: from then on it holds none of that suit (ruling 7:
    every card of the led suit held goes first), so no unseen card of it is in its hand. A
    play found wrong (`erred`: its (trick, seat)) proves nothing: it may have been a revoke."""
    mask, out = order.suit_mask[esuit], dict[int, int]()
    for t, trick in enumerate(tricks, 1):
        moves = trick.moves
        try:
            if len(moves) < 2 or classify(order, moves[0].played).esuit != esuit:
                continue
        except IllegalPlayError:
            continue
        for m in moves[1:]:
            if m.played & ~mask and (t, m.seat) not in erred:
                out.setdefault(m.seat, t)
    return out


def out_of_suit(
    names: Sequence[str], tricks: Sequence[SjTrick], voids: dict[int, int], seat: int, esuit: int
) -> str | None:
    """Why `seat` holds none of `esuit` (`shown_voids`), in words, or None."""
    if seat not in voids:
        return None
    t = voids[seat]
    off = next(m for m in tricks[t - 1].moves if m.seat == seat)
    word = SUIT_WORDS[esuit]
    return (f"{names[seat]} played {format_hand(off.played)} to the {word[:-1]} lead of trick "
            f"{t}, so holds no {word}")  # fmt: skip


def blockers(
    order: Order,
    throw: int,
    forced: int,
    thrower: int,
    hands: Sequence[int],
    guessed: Sequence[int],
    hidden_kitty: int,
    check: ThrowCheck,
    void: Sequence[int] = (),
) -> list[int]:
    """The seats that may hold a unit beating `forced`, the written forced part of `throw` by
    `thrower` (any unit of the throw where `forced` is none), by their known cards (`hands` less
    `guessed`) and as many as they hold unseen (`guessed`), none for the seats in `void`, which
    showed they hold no more of the throw's suit; none where the known cards already beat a unit
    forced before it (`check`: the throw judged on the known cards)."""
    lead = classify(order, throw)
    units = [u for u in lead.units if from_ids(u.ids) == forced] or list(lead.units)
    if check.unit is not None:  # the forced unit is the least one beaten
        units = [u for u in units if (u.size, u.top) <= (check.unit.size, check.unit.top)]
    pool = unseen_cards(guessed, hidden_kitty)
    return [
        s
        for s in range(len(hands))
        if s != thrower
        and any(
            may_beat(
                order,
                u,
                lead.esuit,
                less(hands[s], guessed[s]),
                pool,
                0 if s in void else size(guessed[s]),
            )
            for u in units
        )
    ]


def sure_single(
    order: Order, throw: int, thrower: int, hands: Sequence[int], guessed: Sequence[int],
    hidden_kitty: int, check: ThrowCheck | None = None,
) -> tuple[Unit, str, str] | None:  # fmt: skip
    """The lowest single of a throw that the written cards prove beaten, with why in words and
    the forced part it makes, or None: the unseen cards higher than it are more than the places
    outside the other hands (the thrower's guessed cards and the unwritten discard) can hold, so
    another hand holds one (ruling 10, partner included). The forced part is named "or a lower
    single" where a lower single of the throw may be beaten too. None also where `check` (the
    throw judged on the known cards) is held to a unit as low already (its block comes first)."""
    lead = classify(order, throw)
    pool = unseen_cards(guessed, hidden_kitty)
    outside = size(guessed[thrower]) + size(hidden_kitty)
    singles = sorted((u for u in lead.units if u.pairs == 0), key=lambda u: u.top)
    for i, u in enumerate(singles):
        if check is not None and check.unit is not None and (
            check.unit.size, check.unit.top) <= (u.size, u.top):  # fmt: skip
            return None
        higher = [c for c in order.desc[lead.esuit] if order.level[c] > u.top and pool[c]]
        if sum(pool[c] for c in higher) <= outside:
            continue
        maybe = any(
            may_beat(order, v, lead.esuit, less(hands[s], guessed[s]), pool, size(guessed[s]))
            for v in singles[:i]
            for s in range(len(hands))
            if s != thrower
        )
        cards = " or ".join(card_str(c) for c in higher)
        why = (
            f"a higher single than {unit_text(u)} ({cards}) must be in another hand, as the "
            "written cards leave it no other place"
        )
        return u, why, f"{unit_text(u)} or a lower single" if maybe else unit_text(u)
    return None


def comes_after(order: Order, forced: int, single: Unit) -> bool:
    """Whether a forced part written, `forced`, comes after `single` in ruling 10's order (the
    fewest cards, then the lowest): more than one card, or a higher single."""
    return (
        size(forced) > 1 or max((order.level[c] for c in distinct(forced)), default=0) > single.top
    )
