"""The Sheng ji solver's last two tricks: searched by plain alpha-beta on the hands alone, without
the engine's make and undo (`zfrec.games.shengji.solve` keeps their bounds in its table).

With two cards a hand at a lead the rules leave little to choose, and each choice is cheap to
follow here:

- a lead of both cards (a pair, or two cards of one suit thrown when the throw stands) is the
  last trick: every hand plays both its cards (any two-card follow from a two-card hand is the
  whole hand), and the trick goes as `trick_winner` says, the kitty at that lead's multiplier;
- a single lead, of either card (one card of a pair too: a lead is any cards of one suit,
  ruling 6):
  each follower plays a card of the led effective suit if it holds one, else
  any card (`legal_follows` for a single); the earliest of the highest keys takes the trick
  (`trick_winner` for a single), and the last trick, one card a hand, is forced.

A throw that fails puts its forced part on the table: never better for the thrower than
leading that part (`zfrec.games.shengji.solve`), so it is not tried.
"""

from __future__ import annotations

from collections.abc import Sequence

from zfrec.games.shengji.cards import HIGH, distinct, points
from zfrec.games.shengji.formats import Format, classify
from zfrec.games.shengji.order import Order
from zfrec.games.shengji.scoring import kitty_multiplier
from zfrec.games.shengji.throws import check_throw_format
from zfrec.games.shengji.trick import trick_winner

__all__ = ["TwoLeft"]

INFINITY = 1 << 30


class TwoLeft:
    """The last two tricks of one solve (its order, card keys, declarers and kitty)."""

    def __init__(
        self, order: Order, keys: Sequence[Sequence[int]], kitty_points: int, mode: str,
    ) -> None:  # fmt: skip
        self.order = order
        self.keys = keys  # by led suit: each card's key when played to a single or a pair
        self.formats: dict[int, Format] = {}  # leads of two cards read (`read`)
        self.declarers = 0  # the declarers of the position being searched (`value`)
        self.single = kitty_points * kitty_multiplier(0, mode)  # the kitty after a single
        self.kitty_points = kitty_points
        self.mode = mode
        # the single lead being searched (`_single`): its suit's keys and mask, the leader,
        # the hands left
        self.led_keys: Sequence[int] = ()
        self.led_mask = 0
        self.leader = 0
        self.rest: list[int] = []

    def read(self, play: int) -> Format:
        """A lead's format (`classify`), kept by its cards (a few hundred at most)."""
        found = self.formats.get(play)
        if found is None:
            found = self.formats[play] = classify(self.order, play)
        return found

    def last(self, hands: Sequence[int], leader: int, decl: int, base: int) -> int | None:
        """The round's total when each hand holds one card at a lead (`base` the opponents'
        points so far, `decl` the declarers): the last trick is forced, a single lead whose
        winner is the earliest of the highest keys (as `trick_winner`) and whose kitty goes at
        a single's multiplier. None for any other hands."""
        for h in hands:
            if not h or h & (h - 1) or h & HIGH:
                return None
        keys = self.keys[self.order.esuit[(hands[leader].bit_length() - 1) >> 1]]
        n = len(hands)
        best_key, winner = -1, leader
        for i in range(n):
            seat = (leader + i) % n
            k = keys[(hands[seat].bit_length() - 1) >> 1]
            if k > best_key:
                best_key, winner = k, seat
        if decl >> winner & 1:
            return base
        return base + points(sum(hands)) + self.single

    def value(self, hands: tuple[int, ...], leader: int, decl: int, alpha: int, beta: int) -> int:
        """The opponents' points still to come when each hand holds two cards and `leader`
        leads (`decl` the declarers), searched in (alpha, beta): exact strictly inside, else a
        bound on the side it fails (fail-soft, as the solver's search)."""
        order = self.order
        self.declarers = decl
        n = len(hands)
        mine = hands[leader]
        maximise = not decl >> leader & 1
        best = -INFINITY if maximise else INFINITY
        esuit = order.esuit
        lead = None  # both cards led: a pair, or two cards of one suit whose throw stands
        if esuit[((mine & -mine).bit_length() - 1) >> 1] == esuit[(mine.bit_length() - 1) >> 1]:
            lead = self.read(mine)
            if (
                not mine & HIGH
                and not check_throw_format(
                    order, lead, [hands[(leader + i) % n] for i in range(1, n)]
                ).stands
            ):
                lead = None
        if lead is not None:
            table = [hands[(leader + i) % n] for i in range(n)]
            winner = (leader + trick_winner(order, table, lead)) % n
            if decl >> winner & 1:
                best = 0
            else:
                multiplier = kitty_multiplier(lead.units[0].pairs, self.mode)
                best = points(sum(hands)) + self.kitty_points * multiplier
            if maximise:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if alpha >= beta:
                return best
        for c in distinct(mine):
            v = self._single(hands, leader, c, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def _single(self, hands: tuple[int, ...], leader: int, card: int, alpha: int, beta: int) -> int:
        """`value` after `leader` leads the single `card`: each follower's card by alpha-beta
        (`_follow`, on this trick's hands and led suit kept here: no closure, whose cycle
        only the garbage collector could free)."""
        led = self.order.esuit[card]
        self.led_keys, self.led_mask = self.keys[led], self.order.suit_mask[led]
        self.leader = leader
        self.rest = list(hands)
        self.rest[leader] -= 1 << (card << 1)
        return self._follow(1, self.led_keys[card], leader, 1 << (card << 1), alpha, beta)

    def _follow(self, i: int, best_key: int, winner: int, table: int, a: int, b: int) -> int:
        """The trick's `i`th play on (`best_key` held by `winner`, `table` its cards so far),
        then the last trick, forced."""
        rest, decl = self.rest, self.declarers
        n = len(rest)
        if i == n:  # the trick is taken; the last one, a card a hand, is forced
            last = self.last(rest, winner, decl, 0 if decl >> winner & 1 else points(table))
            assert last is not None
            return last
        seat = (self.leader + i) % n
        held = rest[seat]
        keys = self.led_keys
        maximise = not decl >> seat & 1
        best = -INFINITY if maximise else INFINITY
        for c in distinct(held & self.led_mask or held):  # the led suit if it holds any
            p = 1 << (c << 1)
            rest[seat] = held - p
            if keys[c] > best_key:
                v = self._follow(i + 1, keys[c], seat, table + p, a, b)
            else:
                v = self._follow(i + 1, best_key, winner, table + p, a, b)
            if maximise:
                if v > best:
                    best = v
                    a = max(a, v)
            elif v < best:
                best = v
                b = min(b, v)
            if a >= b:
                break
        rest[seat] = held
        return best
