"""Random Sheng ji positions for the referee cross-checks: small hands dense in pairs and
tractors, so that every obligation of ruling 7 and every branch of rulings 8-10 is exercised.

Everything is drawn from a `random.Random`, so a seed fixes a case; the cross-check tests seed
it themselves (and hypothesis picks the seeds, derandomized under CI=true).
"""

from __future__ import annotations

import random
from collections import Counter

from tests import sj_ref as ref

ALL = [r + s for r in ref.RANKS for s in ref.SUITS] + ["SJ", "BJ"]


def random_round(rng: random.Random) -> ref.Round:
    rank = rng.randint(2, 14)
    return ref.Round(rank, rng.choice([*ref.SUITS, None]))


def dense_deck(rng: random.Random, rd: ref.Round, decks: int = 2) -> list[str]:
    """Both copies of a few cards: the round's rank cards, the jokers, and short runs of a
    couple of suits, so that hands meet pairs and tractors often."""
    suits = rng.sample(ref.SUITS, rng.randint(1, 3))
    kinds: list[str] = []
    for s in suits:
        lo = rng.randint(2, 10)
        kinds += [r + s for r in ref.RANKS[lo - 2 : lo + 3]]
    kinds += rng.sample([ref.RANKS[rd.rank - 2] + s for s in ref.SUITS], rng.randint(0, 3))
    kinds += rng.sample(["SJ", "BJ"], rng.randint(0, 2))
    return [c for c in dict.fromkeys(kinds) for _ in range(decks)]


def draw(rng: random.Random, pool: list[str], n: int) -> list[str]:
    """n cards out of the pool (removed from it)."""
    rng.shuffle(pool)
    out, pool[:] = pool[:n], pool[n:]
    return out


def random_lead(rng: random.Random, hand: list[str], rd: ref.Round, most: int = 6) -> list[str]:
    """A lead from the hand, all of one effective suit: a tractor, a pair, a single or a throw
    mixing them, each often enough that every format is met."""
    by_suit: dict[str, list[str]] = {}
    for c in hand:
        by_suit.setdefault(rd.eff_suit(c), []).append(c)
    cards = by_suit[rng.choice(sorted(by_suit))]
    counts = Counter(cards)
    pairs = sorted(c for c, n in counts.items() if n >= 2)
    tractors = [t for n in (2, 3) for t in ref.tractors_in(cards, n, rd)]
    lead: list[str] = []
    roll = rng.random()
    if tractors and roll < 0.35:
        lead = [c for c in rng.choice(tractors) for _ in (0, 1)]
    elif pairs and roll < 0.6:
        lead = [rng.choice(pairs)] * 2
    elif roll < 0.75:
        return [rng.choice(cards)]
    left = counts - Counter(lead)
    for c in rng.sample(sorted(left), len(left)):
        take = left[c] if rng.random() < 0.6 else 1
        if len(lead) + take <= most and rng.random() < 0.5:
            lead += [c] * take
    return lead or [cards[0]]


def position(
    rng: random.Random, hand_size: int = 10, most: int = 6, decks: int = 2
) -> tuple[ref.Round, list[str], list[str], list[str]]:
    """(round, lead, a follower's hand, the rest of the pool) with the follower's hand at least
    as large as the lead."""
    while True:
        rd = random_round(rng)
        pool = dense_deck(rng, rd, decks)
        leader = draw(rng, pool, min(len(pool), hand_size + 4))
        lead = random_lead(rng, leader, rd, most)
        if len(pool) >= max(len(lead), 1):
            hand = draw(rng, pool, max(len(lead), min(len(pool), rng.randint(1, hand_size))))
            return rd, lead, hand, pool


def rich_position(
    rng: random.Random, hand_size: int = 12
) -> tuple[ref.Round, list[str], list[str], list[str]]:
    """Like `position`, but the lead is built from a long run of one suit: two to four pairs,
    often adjacent (tractors), and up to two singles; the follower draws from the rest of that
    run and a few other cards, so that throws of several tractors and pairs, and followers
    holding tractors of their own, are common."""
    while True:
        rd = random_round(rng)
        suit = rng.choice([*ref.SUITS, ref.TRUMP])
        cands = sorted((c for c in ALL if rd.eff_suit(c) == suit), key=rd.order)
        lo = rng.randint(0, max(0, len(cands) - 12))
        kinds = cands[lo : lo + 12]
        if len(kinds) < 6:
            continue
        start = rng.randint(0, len(kinds) - 4)
        pair_kinds = set(kinds[start : start + rng.randint(2, 3)])
        pair_kinds |= set(rng.sample(kinds, rng.randint(0, 2)))
        rest = [c for c in kinds if c not in pair_kinds]
        singles = rng.sample(rest, min(len(rest), rng.randint(0, 2)))
        lead = [c for c in sorted(pair_kinds) for _ in (0, 1)] + singles
        pool = [c for c in rest for _ in (0, 1)]
        for c in singles:
            pool.remove(c)
        pool += rng.sample([c for c in ALL if c not in kinds], 6)
        if len(pool) >= len(lead):
            follower = draw(rng, pool, max(len(lead), min(len(pool), hand_size)))
            return rd, lead, follower, pool
