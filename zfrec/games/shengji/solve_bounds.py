"""Static bounds for the Sheng ji solver (`zfrec.games.shengji.solve`): what the opponents can
still reach at most, and what they are sure of, without searching. Each bound is proved here
for every line of play from the position: the search stays exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from zfrec.games.shengji.cards import FIVES, HIGH, LOW, TENS_KINGS, points, size
from zfrec.games.shengji.formats import Format, pair_levels, runs
from zfrec.games.shengji.order import TRUMP, Order
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.solve_moves import CACHE, trick_holder

__all__ = ["Units", "kitty_seats", "lead_pairs", "sure_points", "trick_pairs", "trick_taker"]


def kitty_seats(state: RoundState) -> tuple[int, ...]:
    """The seats whose hands can hold the largest unit of a last lead whose trick the
    opponents take (the only way the kitty counts: ruling 11): the opponents' seats when the
    teams are known. The last lead is an opponent's, or an opponent's play takes the trick, and
    a play takes it only when it matches each unit of the lead (ruling 9: a pair for a pair,
    a tractor at least as long for a tractor), so an opponent's hand holds a unit as large.
    With calls (zhao pengyou) the teams can change until the called cards are played: every
    seat."""
    if state.calls:
        return tuple(range(state.n))
    return tuple(s for s in range(state.n) if not state.declarers >> s & 1)


class Units:
    """The pairs of a hand's largest unit (its longest tractor, 1 for a pair, 0), kept by
    hand, and the most that the kitty seats' hands hold (`most`)."""

    def __init__(self, order: Order, seats: tuple[int, ...]) -> None:
        self.order = order
        self.seats = seats  # `kitty_seats`
        self.kept: dict[int, int] = {}

    def most(self, hands: Sequence[int]) -> int:
        """No more pairs than this can make the largest unit of the round's last lead when
        the opponents take it (the kitty counts only then): the last lead is the leader's whole
        hand then, so its largest unit is already in some hand now, of levels already adjacent
        (ruling 5), and in a kitty seat's (`kitty_seats`)."""
        most = 0
        for seat in self.seats:
            n = self.of(hands[seat])
            if n > most:
                most = n
        return most

    def lead(self, hands: Sequence[int], leader: int, most: int | None = None) -> int:
        """`lead_pairs` at a lead of `leader` (`most` the hands' `most`, when known)."""
        if most is None:
            most = self.most(hands)
        return lead_pairs(self.order, hands, leader, most, self.of)

    def of(self, hand: int) -> int:
        """The pairs of the largest unit in `hand`."""
        if not hand & HIGH:
            return 0
        n = self.kept.get(hand)
        if n is None:
            order = self.order
            n = 0
            for mask in order.suit_mask:
                held = hand & mask
                if held & HIGH:
                    for _, k in runs(pair_levels(order, held)):
                        n = max(n, k)
            if len(self.kept) > CACHE:
                self.kept.clear()
            self.kept[hand] = n
        return n


def lead_pairs(
    order: Order, hands: Sequence[int], leader: int, most: int, whole: Callable[[int], int]
) -> int:
    """No more pairs than this can make the largest unit of the round's last lead when the
    opponents take it, at a lead of `leader` (every hand holds as many cards then): `most`
    bounds it from the hands (`kitty_seats`), `whole` gives a hand's largest unit's pairs.

    Either this trick is the last, and its lead is the leader's whole hand: only when that hand
    is of one effective suit, and its largest unit is the lead's. Or the last trick comes
    later, when each hand holds at most one card fewer than now: a last lead of m cards holds
    at most m // 2 pairs."""
    if not most:
        return 0
    hand = hands[leader]
    later = (size(hand) - 1) >> 1
    if later >= most:
        return most
    if hand & ~order.suit_mask[order.esuit[(hand.bit_length() - 1) >> 1]]:
        return later  # two suits: not a lead, this trick is not the last
    return max(later, min(most, whole(hand)))


def trick_pairs(hands: Sequence[int], leader: int, lead_units: int, most: int) -> int:
    """`lead_pairs` in the middle of a trick led by `leader` with `lead_units` pairs in its
    largest unit: the trick is the last when the leader's hand is empty (its lead then sets
    the multiplier); else the last lead comes later, of at most as many cards as the leader
    holds now (every hand holds as many once the trick is over)."""
    rest = hands[leader]
    if not rest:
        return lead_units
    later = size(rest) >> 1
    return most if most < later else later


def trick_taker(
    order: Order,
    keys: Sequence[int],
    lead: Format,
    plays: Sequence[tuple[int, int]],
    hands: Sequence[int],
    decl: int,
) -> int:
    """In the middle of a trick led as a single or a pair (`keys` the led suit's keys, as
    `trick_winner` compares them): 1 when the opponents surely take it, -1 when the declarers
    do, 0 when it is not settled (or another lead). The play that holds the trick so far is
    the earliest of the highest keys; a later play takes it only with a higher key, so it stays
    with its side when no seat of the other side still to play can make one. A seat holding
    cards of the led suit must follow with them (ruling 7: to a single one of them; to a pair
    two of them, a pair where it holds one, and a play of two cards wins only as a pair); a
    seat holding none may play anything, and wins only with trump of the lead's shape."""
    shape = 1 if lead.kind == "single" else 2
    best_key, holder = trick_holder(keys, plays, shape)
    side = decl >> holder & 1
    n = len(hands)
    mask = order.suit_mask[lead.esuit]
    trump = order.suit_mask[TRUMP]
    for i in range(len(plays), n):
        seat = (plays[0][0] + i) % n
        if decl >> seat & 1 == side:
            continue
        hand = hands[seat]
        can = hand & mask
        if can:
            if shape == 2 and size(can) < 2:
                continue  # one card of the suit and another: never a pair of one suit
        else:
            can = hand & trump
        # the cards it could win with, one bit each: any held (a single), held twice (a pair)
        can = (can & HIGH) >> 1 if shape == 2 else (can | can >> 1) & LOW
        if can and _top_key(keys, can) > best_key:
            return 0
    return -1 if side else 1


def _top_key(keys: Sequence[int], cards: int) -> int:
    """The highest key among `cards` (packed; the low bit of a card's field set)."""
    best = -1
    while cards:
        low = cards & -cards
        k = keys[(low.bit_length() - 1) >> 1]
        if k > best:
            best = k
        cards ^= low
    return best


_POINT_CARDS = FIVES | TENS_KINGS


def _most_points(cards: int) -> int:
    """The points of the richest card among `cards` (packed)."""
    return 10 if cards & TENS_KINGS else 5 if cards & FIVES else 0


def _least_points(cards: int) -> int:
    """The points of the poorest card among `cards` (packed, not empty)."""
    return 0 if cards & ~_POINT_CARDS else 5 if cards & FIVES else 10


def _to_single(hand: int, mask: int) -> int:
    """The cards `hand` may play to a single of the suit `mask` (ruling 7): one of that suit
    when it holds any, else any card."""
    held = hand & mask
    return held if held else hand


def _threat(keys: Sequence[int], hand: int, mask: int, trump: int) -> int:
    """The highest key `hand` can play to a single of the suit `mask` (-1: none that can win):
    a card of the suit when it holds one, else a trump."""
    pool = hand & mask or hand & trump
    return _top_key(keys, (pool | pool >> 1) & LOW) if pool else -1


def sure_points(
    order: Order,
    keys: Sequence[Sequence[int]],
    plays: Sequence[tuple[int, int]],
    lead: Format,
    hands: Sequence[int],
    decl: int,
    mover: int,
    need_opp: int = 0,
    need_dec: int = 0,
) -> tuple[int, int]:
    """Points of the trick in play that the opponents and the declarers are sure of whatever
    the other side plays: (opponents', declarers'). The teams must be known (no calls);
    `keys[e]` the keys of a single or a pair led in `e`; not for the trick's last play
    (the search looks past it). A side's part is 0 at once when fewer than it needs
    (`need_opp`, `need_dec`) can be in the trick: the table's and at most 10 a seat to play.

    The mover's side is sure of a trick led as a single when the mover has a play after which
    no seat of the other side still to play can beat the trick's best key (`_threat`: the best
    key a seat can play; ties go to the earlier play): a card that takes the trick, or any card
    when the mover's side holds it already. It then takes the table's points, the play's, the
    most its partners still to play can add (any legal card of theirs) and the least each
    opponent still to play must add (its poorest legal card). The other side is sure of a
    trick (`trick_taker`) when it holds it and no seat of the mover's side still to play, the
    mover included, can beat it: it takes the table's points and, to a single, the least the
    mover's side adds and the most its own can. Either way the value is at most (at least)
    the total that one trick's line leaves: the side sure of the points may choose that line,
    and the other side cannot avoid it."""
    table = 0
    for _, p in plays:
        table += p
    pts = points(table)
    side = decl >> mover & 1
    mine_need, their_need = (need_dec, need_opp) if side else (need_opp, need_dec)
    if lead.kind != "single":
        if lead.kind != "pair" or (pts < mine_need and pts < their_need):
            return 0, 0  # a tractor or a throw: no bound
        taker = trick_taker(order, keys[lead.esuit], lead, plays, hands, decl)
        if taker > 0:
            return pts, 0
        return (0, pts) if taker < 0 else (0, 0)
    n = len(hands)
    most = pts + 10 * (n - len(plays))  # the most this trick can hold
    mine, theirs = most >= mine_need, most >= their_need
    if not mine and not theirs:
        return 0, 0
    ks = keys[lead.esuit]
    mask = order.suit_mask[lead.esuit]
    best_key, holder = -1, 0
    for who, p in plays:
        k = ks[(p.bit_length() - 1) >> 1]
        if k > best_key:
            best_key, holder = k, who
    held = decl >> holder & 1 == side  # the mover's side holds the trick
    pool = _to_single(hands[mover], mask)
    if mine:
        trump = order.suit_mask[TRUMP]
        top = -1  # the other side's best threat after the mover, and what the later seats add
        add = 0
        for i in range(1, n - len(plays)):
            seat = (mover + i) % n
            h = hands[seat]
            if decl >> seat & 1 == side:
                add += _most_points(_to_single(h, mask))
            else:
                t = _threat(ks, h, mask, trump)
                if t > top:
                    top = t
                add += _least_points(_to_single(h, mask))
        got = -1
        if held and top <= best_key:
            got = _most_points(pool)  # the trick stays with the mover's side whatever it plays
        cards = (pool | pool >> 1) & LOW
        while cards:
            low = cards & -cards
            k = ks[(low.bit_length() - 1) >> 1]
            if k > best_key and k >= top:
                p = _most_points(low)
                if p > got:
                    got = p
            cards ^= low
        if got >= 0:
            sure = pts + got + add
            return (0, sure) if side else (sure, 0)
    if theirs and not held:
        # the other side holds it: theirs when nobody of the mover's side still to play, the
        # mover included, can beat it (`trick_taker`)
        taker = trick_taker(order, ks, lead, plays, hands, decl)
        if taker:
            add = _least_points(pool)
            for i in range(1, n - len(plays)):
                seat = (mover + i) % n
                pool = _to_single(hands[seat], mask)
                mover_side = decl >> seat & 1 == side
                add += _least_points(pool) if mover_side else _most_points(pool)
            sure = pts + add
            return (sure, 0) if taker > 0 else (0, sure)
    return 0, 0
