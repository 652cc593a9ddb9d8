"""The Sheng ji solver's moves: the leads it tries, the follows in order, which of the
mover's cards it may treat as one (`zfrec.games.shengji.solve` explains why each is enough;
a lead's key: `zfrec.games.shengji.solve_keys`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from zfrec.games.shengji.cards import HIGH, count, distinct, pair_cards, points, size
from zfrec.games.shengji.follow import legal_follows
from zfrec.games.shengji.formats import Format, pair_levels, read_lead, runs
from zfrec.games.shengji.order import TRUMP, Order
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.throws import check_throw_format

__all__ = [
    "CACHE",
    "Follows",
    "card_classes",
    "follow_list",
    "leads",
    "merge",
    "trick_holder",
]

_PTS = tuple(points(1 << (c << 1)) for c in range(54))
# entries each of the search's caches keeps before it is emptied (they only save work: the
# memory stays bounded, with the table's, under 500 MB at 12 cards a seat)
CACHE = 50_000


def trick_holder(
    keys: Sequence[int], plays: Sequence[tuple[int, int]], shape: int
) -> tuple[int, int]:
    """Who holds a trick led as a single (`shape` 1) or a pair (2) so far, as `trick_winner`
    finds it: the key (`keys`, the led suit's `single_or_pair_keys`; -1 for a play not of the
    lead's shape) of the earliest of the highest plays (`plays`, (seat, cards) from the lead
    on), and its seat."""
    best_key, holder = -1, plays[0][0]
    for who, p in plays:
        c = (p.bit_length() - 1) >> 1
        k = keys[c] if p == shape << (c << 1) else -1
        if k > best_key:
            best_key, holder = k, who
    return best_key, holder


def _max_single(order: Order, cards: int) -> int:
    level = order.level
    return max((level[c] for c in distinct(cards)), default=-1)


def leads(state: RoundState) -> list[int]:
    """The leads the search tries for the seat to move: every single, pair and tractor it
    holds, and every throw that stands against the other hands (module docstring)."""
    order = state.order
    assert order is not None
    seat = state.turn
    hand = state.hands[seat]
    others = state.others(seat)
    out: list[int] = []
    level = order.level
    for e in (TRUMP, 0, 1, 2, 3):
        held = hand & order.suit_mask[e]
        if not held:
            continue
        ids = distinct(held)
        out += [1 << (c << 1) for c in ids]
        pcs = pair_cards(held)
        out += [2 << (c << 1) for c in pcs]
        levels = pair_levels(order, held) if len(pcs) > 1 else {}
        tractor_runs = [(top, n) for top, n in runs(levels) if n >= 2]
        if tractor_runs:
            by_level: dict[int, list[int]] = {}
            for c in pcs:
                by_level.setdefault(level[c], []).append(c)
            for top, n in tractor_runs:
                for length in range(2, n + 1):
                    for hi in range(top, top - n + length - 1, -1):
                        choices = [by_level[lv] for lv in range(hi, hi - length, -1)]
                        for pick in product(*choices):
                            out.append(sum(2 << (c << 1) for c in pick))
        out += _throws(order, e, held, ids, pcs, bool(tractor_runs), others)
    return out


def _throws(
    order: Order, e: int, held: int, ids: list[int], pcs: list[int], tractors: bool,
    others: list[int],
) -> list[int]:  # fmt: skip
    """The throws of suit `e` (two units or more) that stand against `others`."""
    if len(ids) < 2 and not (pcs and count(held, pcs[0]) > 2):
        return []
    mask = order.suit_mask[e]
    theirs = 0
    for h in others:
        theirs |= h & mask
    level = order.level
    top_single = _max_single(order, theirs)
    top_pair = max(
        (max(pair_levels(order, h & mask), default=-1) for h in others if h & mask & HIGH),
        default=-1,
    )
    items: list[tuple[int, int]] = []
    for c in ids:
        k = count(held, c)
        if level[c] >= top_single or (k >= 2 and (tractors or level[c] >= top_pair)):
            items.append((c, k))
    if sum(k for _, k in items) < 2:
        return []
    out: list[int] = []
    for takes in product(*(range(k + 1) for _, k in items)):
        play = sum(t << (c << 1) for t, (c, _) in zip(takes, items, strict=True))
        if size(play) < 2:
            continue
        fmt = read_lead(order, play, e)
        if len(fmt.units) < 2:
            continue
        if check_throw_format(order, fmt, others).stands:
            out.append(play)
    return out


def card_classes(
    state: RoundState,
    seat: int,
    suits: int = 31,
    cache: dict[tuple[int, ...], object] | None = None,
) -> dict[int, int]:
    """The mover's cards that the search may treat as one: card id -> its class's first card
    (cards alone in their class are left out); `suits` a bit mask of the effective suits to
    look at; `cache` keeps each suit's classes by what they depend on (the suit's cards in
    each hand and on the table, and the mover), which comes back far more often than a whole
    position.

    Swapping two cards everywhere changes nothing when they have the same effective suit and
    points and every hand (and the table) holds as many of each: then playing one or the other
    leads to positions that the swap maps onto each other. The swap keeps the rules when the
    cards are of equal order (any hands), or when the mover holds the only copy left of each,
    no other card left lies between them or level with them, and so no pair can be made of them.
    The dict returned may be the cache's own: read it, do not change it.
    """
    order = state.order
    assert order is not None
    hands = state.hands
    table = 0
    for _, p in state.trick_plays:
        table += p
    mine = hands[seat]
    out: dict[int, int] = {}
    shared = True  # `out` is a cached suit's own dict (read only), not a new one
    for e in range(5):
        mask = order.suit_mask[e]
        if not suits >> e & 1 or not mine & mask:
            continue
        if cache is None:
            found = _suit_classes(state, seat, e, [h & mask for h in hands], table & mask)
        else:
            key = (e, seat, table & mask, *map(mask.__and__, hands))
            got = cache.get(key)
            if got is None:
                got = _suit_classes(state, seat, e, [h & mask for h in hands], table & mask)
                if len(cache) > CACHE:
                    cache.clear()
                cache[key] = got
            assert isinstance(got, dict)
            found = got
        if not found:
            continue
        if not out:
            out = found
        else:
            if shared:
                out, shared = dict(out), False
            out.update(found)
    return out


def _suit_classes(
    state: RoundState, seat: int, e: int, hands: list[int], table: int
) -> dict[int, int]:
    """`card_classes` in the one effective suit `e` (`hands` and `table` that suit's cards)."""
    order = state.order
    assert order is not None
    mine = hands[seat]
    left = table + sum(hands)
    called = {c for c, _ in state.calls}
    level = order.level
    rank = _positions(order)
    out: dict[int, int] = {}
    ids = distinct(left)
    if len(ids) < 2:
        return out
    ids.sort(key=rank.__getitem__)
    run_first, run_pts, run_level = -1, -1, -1
    for i, c in enumerate(ids):
        lv = level[c]
        shift = c << 1
        mine_c = mine >> shift & 3
        alone = mine_c == 1 and left >> shift & 3 == 1 and c not in called
        if (i and level[ids[i - 1]] == lv) or (i + 1 < len(ids) and level[ids[i + 1]] == lv):
            # cards of equal order: one class per signature; a level shared with another
            # card breaks a run of adjacent ones
            run_first = -1
            if mine_c and c not in called:
                sig = (*(h >> shift & 3 for h in hands), table >> shift & 3, _PTS[c])
                for d in ids[:i]:
                    if level[d] == lv and d not in called and d not in out:
                        ds = d << 1
                        if (*(h >> ds & 3 for h in hands), table >> ds & 3, _PTS[d]) == sig:
                            out[c] = d
                            break
            continue
        if alone:
            if run_first >= 0 and _PTS[c] == run_pts and run_level != lv:
                out[c] = run_first
            else:
                run_first, run_pts = c, _PTS[c]
            run_level = lv
        else:
            run_first = -1
    return out


_POSITIONS: dict[int, tuple[int, ...]] = {}


def _positions(order: Order) -> tuple[int, ...]:
    """Each card's place in its suit's order from the top (`Order.desc`), by card id."""
    key = id(order)
    found = _POSITIONS.get(key)
    if found is None:
        pos = [0] * 54
        for e in range(5):
            for i, c in enumerate(order.desc[e]):
                pos[c] = i
        found = _POSITIONS[key] = tuple(pos)
    return found


def merge(plays: list[int], classes: dict[int, int]) -> list[int]:
    """`plays` less those that differ from an earlier one only by equivalent cards."""
    if not classes or len(plays) < 2:
        return plays
    members = 0  # every card of a class, both bits of its field
    for c, r in classes.items():
        members |= 3 << (c << 1) | 3 << (r << 1)
    seen: set[object] = set()
    out: list[int] = []
    for p in plays:
        if not p & members:  # no card of a class: the play is its own key
            if p not in seen:
                seen.add(p)
                out.append(p)
            continue
        c = (p.bit_length() - 1) >> 1
        k = p >> (c << 1)
        if k << (c << 1) == p:  # copies of one card (most follows): the general key, quickly
            key: object = ((classes.get(c, c), k),)
            if key not in seen:
                seen.add(key)
                out.append(p)
            continue
        per: dict[int, list[int]] = {}
        for c in distinct(p):
            per.setdefault(classes.get(c, c), []).append(count(p, c))
        key = tuple(sorted((r, *sorted(ks)) for r, ks in per.items()))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


# a follower's legal plays, their suits (a bit mask), and to a single or pair lead the plays
# with their keys in two orders (`follow_list`)
Follows = tuple[list[int], int, list[tuple[int, int]], list[tuple[int, int]]]


def follow_list(order: Order, keys: Sequence[Sequence[int]], lead: Format, hand: int) -> Follows:
    """The legal follows to `lead` from `hand`, the effective suits they hold and, to a single
    or a pair, the follows with their keys (`keys[led suit][card]`: the card's level, 100 more
    in trump, -1 off suit; -1 for a play not of the lead's shape) in the search's order for a
    play that takes the trick or goes to a partner who holds it (the most points, then the
    lowest) and for one that goes to an opponent (the fewest points, then the lowest)."""
    listed = list(legal_follows(order, lead, hand))
    union = 0
    for p in listed:
        union |= p
    suits = sum(1 << e for e in range(5) if union & order.suit_mask[e])
    if lead.kind != "single" and lead.kind != "pair":
        return listed, suits, [], []
    shape = 1 if lead.kind == "single" else 2
    led = keys[lead.esuit]
    level = order.level
    gain, loss = [], []
    for p in listed:
        c = (p.bit_length() - 1) >> 1
        k = led[c] if p == shape << (c << 1) else -1
        pts, low = points(p), sum(level[d] for d in distinct(p))
        gain.append((low - pts * 4, p, k))
        loss.append((low + pts * 4, p, k))
    gain.sort()
    loss.sort()
    return listed, suits, [(k, p) for _, p, k in gain], [(k, p) for _, p, k in loss]
