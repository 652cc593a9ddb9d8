"""Following a lead (ruling 7): judge a follow with the obligation it breaks, list the legal
follows lazily, and count them without listing.

Every player plays as many cards as were led; one holding cards of the led (effective) suit
plays as many of them as they can. When they hold more than were led, the cards they play must
also keep the lead's structure as far as their suit cards allow: as many tractors of the lead's
lengths as they hold, and as many pairs as they hold up to the lead's number of pairs (a tractor
of L pairs counts L). Cards of other suits come only once every card of the led suit is in the
play, and trump is never forced on anyone.

    >>> from zfrec.games.shengji.cards import parse_hand as cards
    >>> from zfrec.games.shengji.formats import classify
    >>> from zfrec.games.shengji.order import order_for
    >>> o = order_for("7c")
    >>> lead = classify(o, cards("8d 8d"))
    >>> hand = cards("9d 9d Jd Qd 3s")
    >>> judge_follow(o, lead, hand, cards("Jd Qd"))
    'must play the pair 9d 9d (ruling 7)'
    >>> judge_follow(o, lead, hand, cards("9d 9d")) is None
    True
    >>> [format_hand(f) for f in legal_follows(o, lead, cards("Td 2s 3s"))]
    ['3s Td', 'Td 2s']
    >>> count_follows(o, lead, cards("3s 4s 5s 6h 7d"))
    10
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from zfrec.errors import IllegalPlayError
from zfrec.games.shengji.cards import (
    HIGH,
    LOW,
    contains,
    count,
    distinct,
    format_cards,
    format_hand,
    one,
    pair_cards,
    pairs,
    size,
)
from zfrec.games.shengji.formats import Format, match_tractors, pair_levels, runs
from zfrec.games.shengji.order import SUIT_WORDS, TRUMP, Order

__all__ = ["count_follows", "every_lead", "judge_follow", "legal_follows", "verify_follow"]


def _items(hand: int) -> list[tuple[int, int]]:
    return [(c, count(hand, c)) for c in distinct(hand)]


def _combos(items: list[tuple[int, int]], k: int) -> Iterator[int]:
    """Every sub-multiset of `k` cards of `items` ((card id, copies) pairs), packed."""
    if k == 0:
        yield 0
        return
    room = [0] * (len(items) + 1)  # cards available from item i on
    for i in range(len(items) - 1, -1, -1):
        room[i] = room[i + 1] + items[i][1]
    if room[0] < k:
        return
    yield from _combos_from(items, room, 0, k, 0)


def _combos_from(
    items: list[tuple[int, int]], room: list[int], start: int, k: int, acc: int
) -> Iterator[int]:
    """`_combos` from item `start` on, `acc` the cards taken so far (a function of its own,
    not a closure: a recursive closure is a reference cycle that only the garbage collector
    frees, one per call)."""
    for i in range(start, len(items)):
        if room[i] < k:
            return
        cid, copies = items[i]
        bit = 1 << (cid << 1)
        for take in range(1, min(copies, k) + 1):
            if take == k:
                yield acc + take * bit
            else:
                yield from _combos_from(items, room, i + 1, k - take, acc + take * bit)


def _count_combos(items: list[tuple[int, int]], k: int) -> int:
    """The number of sub-multisets of `k` cards of `items`, without listing them."""
    ways = [1] + [0] * k
    for _, copies in items:
        new = [0] * (k + 1)
        for have in range(k + 1):
            if ways[have]:
                for take in range(min(copies, k - have) + 1):
                    new[have + take] += ways[have]
        ways = new
    return ways[k]


def _pair_text(cid: int) -> str:
    return format_cards((cid, cid))


def _tractor_texts(order: Order, suit_cards: int, length: int) -> list[str]:
    """The tractors of `length` pairs at the top of each run of `suit_cards`, highest first."""
    levels = pair_levels(order, suit_cards)
    by_level: dict[int, int] = {}
    for c in sorted(pair_cards(suit_cards)):
        by_level.setdefault(order.level[c], c)
    out = []
    for top, n in sorted(runs(levels), reverse=True):
        if n >= length:
            out.append(
                format_cards([by_level[lv] for lv in range(top, top - length, -1) for _ in (0, 1)])
            )
    return out


def _structure_reason(order: Order, lead: Format, held: int, play: int) -> str | None:
    """Why `play` (all of the led suit) keeps less of the lead's structure than `held`
    (the follower's cards of that suit) allows; None when it keeps enough."""
    word = SUIT_WORDS[lead.esuit]
    if lead.tractors:
        need = match_tractors(lead.tractors, pair_levels(order, held))
        if need and match_tractors(lead.tractors, pair_levels(order, play)) < need:
            if len(lead.tractors) == 1:
                held_texts = _tractor_texts(order, held, lead.tractors[0])
                if len(held_texts) == 1:
                    return f"must play the tractor {held_texts[0]} (ruling 7)"
                return (
                    f"must play a tractor of {lead.tractors[0]} pairs of {word}: one of "
                    f"{', '.join(held_texts)} (ruling 7)"
                )
            return f"must play {need} tractors of {word} as long as the lead's (ruling 7)"
    if lead.pairs:
        held_pairs = pair_cards(held)
        need = min(lead.pairs, len(held_pairs))
        if pairs(play) < need:
            listed = sorted(held_pairs, key=lambda c: (-order.level[c], c))
            if need == 1 and len(listed) == 1:
                return f"must play the pair {_pair_text(listed[0])} (ruling 7)"
            if need == 1:
                texts = ", ".join(_pair_text(c) for c in listed)
                return f"must play a pair of {word}: one of {texts} (ruling 7)"
            texts = ", ".join(_pair_text(c) for c in listed)
            return f"must play {need} pairs of {word} (held: {texts}) (ruling 7)"
    return None


def judge_follow(order: Order, lead: Format, hand: int, play: int) -> str | None:
    """None if `play` from `hand` legally follows `lead` (ruling 7); else the reason, which
    names the obligation broken."""
    n = lead.size
    if n < 3:
        # The common leads, a single and a pair: a legal follow is told from a few bit
        # operations; anything else is left to the full judgement below, which says why.
        mask = order.suit_mask[lead.esuit]
        if n == 1:
            # one card (a single bit at the low bit of its field) that the hand holds, of
            # the led suit unless the hand has none of it
            if (
                play & (play - 1) == 0
                and play & LOW
                and hand & (play | play << 1)
                and (play & mask or not hand & mask)
            ):
                return None
        elif (
            play & mask == play
            and contains(hand, play)
            and size(play) == 2
            and (play & HIGH or not hand & mask & HIGH)
        ):
            # two cards of the led suit: a pair, or two singles from a hand with no pair of it
            return None
    k = size(play)
    if k != n:
        return f"must play {n} card{'s' if n > 1 else ''}, as many as were led, not {k} (ruling 7)"
    if not contains(hand, play):
        return f"does not hold {_missing(hand, play)}"
    mask = order.suit_mask[lead.esuit]
    held = hand & mask
    m = size(held)
    played = size(play & mask)
    word = SUIT_WORDS[lead.esuit]
    if m <= n:
        if played < m:
            return (
                f"must play every one of the {word} held ({format_hand(held)}) "
                "before cards of other suits (ruling 7)"
            )
        return None
    if played < n:
        return f"must play {n} of the {m} {word} held (ruling 7)"
    if lead.pairs == 0:
        return None
    return _structure_reason(order, lead, held, play)


def _missing(hand: int, play: int) -> str:
    out = []
    for c in distinct(play):
        short = count(play, c) - count(hand, c)
        out += [c] * max(short, 0)
    return format_cards(out)


def verify_follow(order: Order, lead: Format, hand: int, play: int) -> None:
    """Raise IllegalPlayError (rule 7, code SJ201) unless `play` legally follows `lead`."""
    reason = judge_follow(order, lead, hand, play)
    if reason is not None:
        raise IllegalPlayError(reason, "7", "SJ201")


def legal_follows(order: Order, lead: Format, hand: int) -> Iterator[int]:
    """Every legal follow to `lead` from `hand`, each card set once, lazily (packed hands).

    A player short of the led suit plays all of it and any other cards: those choices are
    made one at a time, so a void hand's many follows cost nothing until asked for.
    """
    n = lead.size
    held = hand & order.suit_mask[lead.esuit]
    m = size(held)
    if m <= n:
        rest = hand - held
        for extra in _combos(_items(rest), n - m):
            yield held + extra
        return
    if lead.kind == "single":
        for c in distinct(held):
            yield 1 << (c << 1)
        return
    if lead.kind == "pair":
        held_pairs = pair_cards(held)
        if held_pairs:
            for c in held_pairs:
                yield 2 << (c << 1)
            return
        yield from _combos(_items(held), 2)
        return
    for play in _combos(_items(held), n):
        if _structure_reason(order, lead, held, play) is None:
            yield play


def count_follows(order: Order, lead: Format, hand: int) -> int:
    """The number of legal follows to `lead` from `hand`; a short hand's are counted without
    being listed."""
    n = lead.size
    held = hand & order.suit_mask[lead.esuit]
    m = size(held)
    if m <= n:
        return _count_combos(_items(hand - held), n - m)
    return sum(1 for _ in legal_follows(order, lead, hand))


def every_lead(order: Order, hand: int) -> list[int]:
    """Every lead from `hand`: each non-empty multiset of its cards of one effective suit
    (throws included, whether or not they would stand)."""
    out: list[int] = []
    for e in (0, 1, 2, 3, TRUMP):
        held = hand & order.suit_mask[e]
        if not held:
            continue
        items = [(one(c), count(held, c)) for c in distinct(held)]
        for takes in product(*(range(k + 1) for _, k in items)):
            play = sum(t * bit for t, (bit, _) in zip(takes, items, strict=True))
            if play:
                out.append(play)
    return out
