"""A Sheng ji round's hands, as far as a record tells them (DIAGNOSTICS.md, Sheng ji).

A record may give every hand, part of one (`?N` unknown cards), or none. The validator needs
hands to replay the round through the engine, so they are rebuilt: each seat was dealt what its
deal line shows, plus what it showed later (its bids, its plays; the dealer's plays and discard
may come from the kitty), and the cards nobody showed fill the rest, the kitty first. Those
filler cards are **guessed**: the validator judges a follow or a throw against them only where
the known cards alone already decide it ("as far as the known cards allow"). A seat that showed
a void by playing off suit holds, in the rebuilt hand, only what it later plays, so it cannot
follow that suit later.

Nothing here is a rule of play: only counting what was dealt (ruling 2, two copies per card
with two decks; ruling 15, the hand and kitty sizes).

    >>> from zfrec.games.shengji.cards import format_hand, parse_hand
    >>> from zfrec.games.shengji.rules import sj_preset
    >>> r = rebuild(sj_preset("dabaifen"), 0, [None] * 4, (None, None), [0] * 4,
    ...             [parse_hand("As")] + [0] * 3, first=0)
    >>> r.exact, format_hand(r.drawn[0] & parse_hand("As")), len(r.deck)
    (False, 'As', 54)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from zfrec.games.shengji.cards import card_ids, contains, count, distinct, from_ids
from zfrec.games.shengji.cards import size as hand_size
from zfrec.games.shengji.records import SjRound
from zfrec.games.shengji.rules import SjRules

__all__ = ["Rebuilt", "first_shown", "full_deck", "rebuild", "shown", "whole_hands"]

Dealt = tuple[int, int] | None  # (known cards packed, unknown count), None: not written


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """The round's hands: `drawn` (each seat's hand after the draw), `kitty` (as taken up),
    `discard` (as put back), `guessed` (per seat, the filler cards of its hand at play), `deck`
    (the draw's order for `RoundState.start`, dealer first; empty when the counts do not add
    up, or when `whole`), `exact` (no card was guessed) and `whole` (every card written and
    adding up to the decks: the draw is made from `drawn`, `zfrec.games.shengji.drawstate`)."""

    drawn: tuple[int, ...]
    kitty: int
    discard: int
    guessed: tuple[int, ...]
    deck: tuple[int, ...]
    exact: bool
    whole: bool = False

    def at_play(self, dealer: int) -> list[int]:
        """Each seat's hand when play starts: the dealer's with the kitty taken up and the
        discard put back (only the copies it holds)."""
        hands = list(self.drawn)
        if contains(hands[dealer] + self.kitty, self.discard):
            hands[dealer] += self.kitty - self.discard
            return hands
        held = Counter(card_ids(hands[dealer] + self.kitty))
        held.subtract(Counter(card_ids(self.discard)))
        hands[dealer] = from_ids((+held).elements())
        return hands


def whole_hands(
    rules: SjRules, deal: Sequence[Dealt], kitty: tuple[Dealt, Dealt]
) -> Rebuilt | None:
    """What `rebuild` gives for a record that writes every card (the deals, the kitty and the
    discard) when they add up to the decks, without what was shown later; else None."""
    up, down = kitty
    if up is None or down is None or up[1] or down[1]:
        return None
    if not all(d is not None and not d[1] for d in deal):
        return None
    hands = [d[0] for d in deal if d is not None]
    n, size = rules.players, rules.hand_size
    if len(hands) != n or any(hand_size(h) != size for h in hands):
        return None
    if hand_size(up[0]) != rules.kitty or sum(hands) + up[0] != full_deck(rules.decks):
        return None  # a card too many or too few (with as many cards, no field overflows)
    # no deck: the draw's end is made from the hands (`drawstate`), never drawn card by card
    return Rebuilt(tuple(hands), up[0], down[0], (0,) * n, (), True, True)


@cache
def full_deck(decks: int) -> int:
    """Every card `decks` times, packed."""
    return sum(decks << 2 * c for c in range(54))


def _take(pool: Counter[int], want: Counter[int], room: int) -> Counter[int]:
    """Up to `room` cards of `want` that the pool still has, taken out of it."""
    got: Counter[int] = Counter()
    for c in sorted(want):
        k = min(want[c], pool[c], room)
        if k > 0:
            got[c] = k
            pool[c] -= k
            room -= k
    return got


def rebuild(
    rules: SjRules,
    dealer: int,
    deal: Sequence[Dealt],
    kitty: tuple[Dealt, Dealt],
    bids: Sequence[int],
    played: Sequence[int],
    first: int,
) -> Rebuilt:
    """Rebuild the hands. `deal` per seat, `kitty` (taken up, put back) as (known, unknown) or
    None; `bids` the cards each seat showed in bids (the largest showing of each card),
    `played` what each seat put on the table in the round (with each failed throw whole: it
    was in the hand when thrown); `first` the seat that draws first.
    Where the counts cannot add up (a hand or kitty of the wrong size, a third copy), `deck`
    is empty and the hands hold what is known and shown; where every card is written, it is
    `whole_hands`' (`whole`, no deck)."""
    whole = whole_hands(rules, deal, kitty)  # every card known: nothing to rebuild
    if whole is not None:
        return whole
    n, size, decks = rules.players, rules.hand_size, rules.decks
    up, down = kitty
    pool: Counter[int] = Counter({c: decks for c in range(54)})
    known: list[Counter[int]] = []
    room: list[int] = []
    fits = True
    for d in deal:
        k = Counter(card_ids(d[0])) if d is not None else Counter()
        known.append(k)
        room.append(d[1] if d is not None else size)
        fits = fits and sum(k.values()) + room[-1] == size
        pool.subtract(k)
    kitty_known = Counter(card_ids(up[0])) if up is not None else Counter()
    kitty_room = up[1] if up is not None else rules.kitty
    fits = fits and sum(kitty_known.values()) + kitty_room == rules.kitty
    pool.subtract(kitty_known)
    discard_known = Counter(card_ids(down[0])) if down is not None else Counter()
    if any(v < 0 for v in pool.values()):
        fits = False
        pool = +pool
    need: list[Counter[int]] = []
    for s in range(n):
        shown = Counter(card_ids(played[s]))
        showing = Counter(card_ids(bids[s]))
        if s == dealer:
            shown += discard_known
            own = _take(pool, showing - known[s], room[s])  # bids are made while drawing
            own += _take(pool, shown - kitty_known - known[s] - own, room[s] - own.total())
            room[s] -= own.total()
            extra = _take(pool, shown - known[s] - own - kitty_known, kitty_room)
            kitty_known += extra
            kitty_room -= sum(extra.values())
        else:
            own = _take(pool, (shown | showing) - known[s], room[s])
            room[s] -= sum(own.values())
        need.append(own)
    # Cards nobody showed: the kitty first (in a whole round they are the dealer's discard),
    # then the dealer's hand, then the others'.
    rest = [c for c in sorted(pool) for _ in range(max(pool[c], 0))]
    filler_kitty, rest = rest[:kitty_room], rest[kitty_room:]
    guessed: list[Counter[int]] = [Counter() for _ in range(n)]
    for s in [dealer, *(t for t in range(n) if t != dealer)]:
        guessed[s] = Counter(rest[: room[s]])
        rest = rest[room[s] :]
    drawn = [known[s] + need[s] + guessed[s] for s in range(n)]
    kitty_all = kitty_known + Counter(filler_kitty)
    guessed[dealer] += Counter(filler_kitty)
    # The discard: as written; where not written, what the dealer holds and never plays,
    # guessed cards first.
    discard = Counter(discard_known)
    missing: int = rules.kitty - sum(discard.values()) if down is None or down[1] else 0
    if missing > 0:
        left = drawn[dealer] + kitty_all - Counter(card_ids(played[dealer])) - discard
        order = sorted(left, key=lambda c: (guessed[dealer][c] == 0, c))
        for c in order:
            take = min(left[c], missing)
            if take > 0:
                discard[c] += take
                missing -= take
    # the discard's shown cards left the hand from what is known of it, not from the guesses
    guessed[dealer] -= discard - (known[dealer] + need[dealer] + kitty_known)
    if down is None or down[1]:
        # the discard is not known: what the dealer holds and never plays may have been
        # discarded instead (its bid cards too), so none of it binds a follow
        guessed[dealer] = drawn[dealer] + kitty_all - discard - Counter(card_ids(played[dealer]))
    deck: tuple[int, ...] = ()
    if fits and all(sum(h.values()) == size for h in drawn) and not rest:
        lists = [sorted(h.elements()) for h in drawn]
        order_ = [(first + i) % n for i in range(n)]
        deck = tuple(lists[s][i] for i in range(size) for s in order_)
        deck += tuple(sorted(kitty_all.elements()))
    exact = not any(guessed) and not filler_kitty
    return Rebuilt(
        tuple(from_ids(h.elements()) for h in drawn),
        from_ids(kitty_all.elements()),
        from_ids(discard.elements()),
        tuple(from_ids(g.elements()) for g in guessed),
        deck,
        exact,
    )


def shown(rnd: SjRound, n: int) -> tuple[list[int], list[int]]:
    """What each seat of round `rnd` showed, for `rebuild`: what it held at some time (all it
    played, and at a failed throw what it had played before and the whole throw) and the
    cards of its bids (the largest showing of each card)."""
    played, held = [0] * n, [0] * n
    for trick in rnd.tricks:
        for m in trick.moves:
            seat, forced = m.seat, m.forced
            if 0 <= seat < n:
                if forced is None:  # (`m.failed` and `m.played`, read for every play)
                    played[seat] += m.cards
                else:
                    held[seat] = _union(held[seat], played[seat] + m.cards)
                    played[seat] += forced
    played = [_union(p, h) for p, h in zip(played, held, strict=True)]
    bids = [0] * n
    for b in rnd.bids:
        if 0 <= b.seat < n:
            bids[b.seat] = _union(bids[b.seat], b.cards)
    return played, bids


def first_shown(
    rnd: SjRound, played: list[int], deal: Sequence[Dealt], kitty: Dealt, decks: int,
    dealer: int, size: int | None = None,
) -> list[int]:  # fmt: skip
    """`played` (from `shown`) with the copies of a card shown more often than the decks hold
    left to the seats that showed it first in play order: a copy played too many is the one
    played last, so the rebuilt hands give the earlier players theirs. The copies in known deal
    lines and the kitty come first; a seat's own known copies (the dealer's: with the kitty's)
    need none. With `size` (the hand's), a seat other than the dealer that shows more cards
    than its hand has room for keeps those it showed first, likewise."""
    return _first_fitting(rnd, _first_copies(rnd, played, deal, kitty, decks, dealer), deal,
                          dealer, size)  # fmt: skip


def _first_fitting(
    rnd: SjRound, played: list[int], deal: Sequence[Dealt], dealer: int, size: int | None
) -> list[int]:
    """`played` with what a seat (not the dealer, whose hand takes the kitty up) shows beyond
    its hand's room left out: a throw written without its forced part shows the cards that
    came back, and are played again later, twice. The hand is rebuilt without such a card's
    later copy, then without the cards played last, so that what is named is the play that
    went wrong and what follows from it, not an earlier play whose card a rebuild short of
    room dropped (the highest: the jokers)."""
    if size is None:
        return played
    out = list(played)
    for s, p in enumerate(played):
        d = deal[s] if s < len(deal) else None
        mine, room = (d[0], d[1]) if d is not None else (0, size)
        over = sum(max(0, count(p, c) - count(mine, c)) for c in distinct(p)) - room
        if s == dealer or over <= 0:
            continue
        # the copies that take room (beyond the written deal's), in the order played, each
        # with whether the seat led it before in a lead of several cards (a throw)
        used: Counter[int] = Counter()
        thrown: set[int] = set()
        taking: list[tuple[int, bool]] = []
        for trick in rnd.tricks:
            for i, m in enumerate(trick.moves):
                if m.seat != s:
                    continue
                cards = card_ids(m.cards if m.forced is None else m.forced)
                for c in cards:
                    used[c] += 1
                    if count(mine, c) < used[c] <= count(p, c):
                        taking.append((c, c in thrown))
                if i == 0 and len(cards) > 1:
                    thrown.update(cards)
        # a card played again after a throw goes first (the throw, written whole, failed: its
        # cards came back), then the rest, the last played first
        later = [c for c, again in reversed(taking) if again]
        later += [c for c, again in reversed(taking) if not again]
        for c in later[:over]:
            out[s] -= 1 << 2 * c
    return out


def _first_copies(
    rnd: SjRound, played: list[int], deal: Sequence[Dealt], kitty: Dealt, decks: int,
    dealer: int,
) -> list[int]:  # fmt: skip
    """`first_shown`'s copies: each card shown at most as often as the decks hold."""
    avail = [decks] * 54
    for d in (*deal, kitty):
        if d is not None:
            for c in distinct(d[0]):
                avail[c] -= count(d[0], c)
    total = [0] * 54
    for p in played:
        for c in distinct(p):
            total[c] += count(p, c)
    if all(total[c] <= max(avail[c], 0) for c in range(54)):
        return played  # the common case: nothing shown too often
    out = list(played)
    granted: set[tuple[int, int]] = set()
    for trick in rnd.tricks:
        for m in trick.moves:
            s = m.seat
            if not 0 <= s < len(out):
                continue
            d = deal[s]
            mine = d[0] if d is not None else 0
            if s == dealer and kitty is not None:
                mine += kitty[0]
            for c in distinct(m.cards):
                if (s, c) in granted:
                    continue
                granted.add((s, c))
                extra = max(0, count(played[s], c) - count(mine, c))
                got = min(extra, max(avail[c], 0))
                avail[c] -= got
                out[s] -= (extra - got) << 2 * c
    return out


def _union(a: int, b: int) -> int:
    """The multiset holding each card as often as the more of a and b."""
    for c in distinct(b):
        if count(b, c) > count(a, c):
            a += (count(b, c) - count(a, c)) << 2 * c
    return a
