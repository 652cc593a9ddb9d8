"""Slow, independent reference implementations for the engine's tests.

Nothing here shares code with zfrec.engine.combos or zfrec.engine.movegen:
the classifier substitutes every
real card for each joker and checks the definitions of the rule texts literally.
"""

from __future__ import annotations

from itertools import combinations, product

from zfrec.engine.cards import BJ, SJ

Key = tuple[str, int, int]  # category name, rank, length (0 when none)

COUNTERS = {2, 7, 10}


def _real_keys(cards: list[tuple[int, int]]) -> set[Key]:
    """Readings of real cards only (rank 0..12, suit 0..3), by the definitions."""
    n = len(cards)
    ranks = sorted(r for r, _ in cards)
    suits = {s for _, s in cards}
    out: set[Key] = set()
    if 2 <= n <= 4 and len(set(ranks)) == 1:
        out.add(({2: "pair", 3: "triple", 4: "quartet"}[n], ranks[0], 0))
    for k, name in ((2, "pair_sequence"), (3, "triple_sequence"), (4, "quartet_sequence")):
        if n % k == 0 and n // k >= 3:
            distinct = sorted(set(ranks))
            consecutive = distinct == list(range(distinct[0], distinct[0] + len(distinct)))
            if consecutive and all(ranks.count(q) == k for q in distinct):
                out.add((name, distinct[-1], n // k))
    if n >= 5 and len(suits) == 1 and len(set(ranks)) == n and ranks[-1] - ranks[0] == n - 1:
        out.add(("suit_sequence", ranks[-1], n))
    if n == 5:
        for triple in combinations(range(5), 3):
            tr = {cards[i][0] for i in triple}
            if len(tr) != 1:
                continue
            (a, sa), (b, sb) = (cards[i] for i in range(5) if i not in triple)
            if (
                a == b
                or (sa == sb and abs(a - b) == 1)
                or 0 in (a, b)
                or (a in COUNTERS and b in COUNTERS)
            ):
                out.add(("full_house", tr.pop(), 0))
    return out


def brute_keys(card_ids: list[int], jokers_wild: bool = True) -> set[Key]:
    """Every reading of a card set: each joker tried as each of the 52 real cards."""
    n = len(card_ids)
    if n == 1:
        c = card_ids[0]
        return {("single", c >> 2 if c < SJ else 13 + c - SJ, 0)}
    real = [(c >> 2, c & 3) for c in card_ids if c < SJ]
    jokers = [c for c in card_ids if c >= SJ]
    if jokers and not jokers_wild:
        return set()
    if not jokers:
        r = sorted(x for x, _ in real)
        if r == [12, 12, 12, 12]:
            return {("special", 2, 0)}
        if r == [2, 7, 10]:
            return {("special", 1 if len({s for _, s in real}) == 1 else 0, 0)}
    out: set[Key] = set()
    for subs in product([(r, s) for r in range(13) for s in range(4)], repeat=len(jokers)):
        out |= _real_keys(real + list(subs))
    return out


def brute_plays(hand: list[int], jokers_wild: bool = True) -> set[tuple[int, Key]]:
    """Every (card set, reading) from a hand: every subset times every reading."""
    out: set[tuple[int, Key]] = set()
    for size in range(1, len(hand) + 1):
        for subset in combinations(hand, size):
            mask = sum(1 << c for c in subset)
            for key in brute_keys(list(subset), jokers_wild):
                out.add((mask, key))
    return out


__all__ = ["BJ", "SJ", "brute_keys", "brute_plays"]


SEQUENCE_NAMES = {"pair_sequence", "triple_sequence", "quartet_sequence", "suit_sequence"}


def brute_beats(play: Key, top: Key, equal_lengths: bool = False) -> bool:
    """The rulings' comparison, written out case by case from RULINGS.md 16, 18 and 19."""
    if play[0] == "special" and top[0] == "special":
        return play[1] > top[1]
    if play[0] == "special":
        return True
    if top[0] == "special" or play[0] != top[0]:
        return False
    if play[0] in SEQUENCE_NAMES:
        if equal_lengths and play[2] != top[2]:
            return False
        if play[1] != top[1]:
            return play[1] > top[1]
        return play[2] > top[2]
    return play[1] > top[1]


def brute_declared_keys(
    card_ids: list[int], declared: dict[int, tuple[int, int | None]]
) -> set[Key]:
    """Every reading of a card set whose jokers in `declared` (joker id -> rank, suit or None)
    are held to their meaning: a declared joker is tried as the card it names, or as each card
    of its rank when no suit is named; every other joker as each of the 52 real cards."""
    if len(card_ids) == 1:
        return set() if declared else brute_keys(card_ids)
    real = [(c >> 2, c & 3) for c in card_ids if c < SJ]
    options: list[list[tuple[int, int]]] = []
    for j in (c for c in card_ids if c >= SJ):
        if j in declared:
            rank, suit = declared[j]
            options.append([(rank, s) for s in range(4)] if suit is None else [(rank, suit)])
        else:
            options.append([(r, s) for r in range(13) for s in range(4)])
    out: set[Key] = set()
    for subs in product(*options):
        out |= _real_keys(real + list(subs))
    return out
