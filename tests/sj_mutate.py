"""Single corruptions of a Sheng ji record, each breaking one rule: the mutation test of the
Sheng ji validator (tests/test_sj_validate.py) and the broken samples
(sample_games/shengji/broken/, written by `python -m tests.sj_mutate DIR`).

Each mutation returns the corrupt copy and the SJ code the validator must report, or None
when the chosen place does not allow it. Whether a follow breaks ruling 7 is decided by the
slow referee `tests/sj_ref.py`, not by the engine the validator asks.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import replace

from tests import sj_ref as ref
from zfrec.games.shengji.cards import card_ids, count, distinct, format_hand, one
from zfrec.games.shengji.match import play_match
from zfrec.games.shengji.records import SjCards, SjMatch, SjMove, SjRound
from zfrec.games.shengji.rules import level_rank, sj_preset
from zfrec.games.shengji.simrecords import match_to_record

Mutation = Callable[[SjMatch, random.Random], tuple[SjMatch, str] | None]


def simulated(preset: str, seed: int, rounds: int = 2, bot: str = "random") -> SjMatch:
    """A self-play match cut at `rounds` rounds, as a record (result tag dropped)."""
    friends = preset == "zhaopengyou"
    rules = sj_preset(preset, players=5 + seed % 2) if friends else sj_preset(preset)
    m = match_to_record(play_match(rules, seed, [bot] * rules.players, max_rounds=rounds))
    m.result = None
    return m


def _hand_before(rnd: SjRound, seat: int, t: int, i: int) -> int:
    """What `seat` holds before play i of trick t (from the written deal, kitty and plays)."""
    assert rnd.deal is not None
    hand = rnd.deal[seat].known
    if seat == rnd.dealer and rnd.kitty is not None and rnd.discard is not None:
        hand += rnd.kitty.known
        hand = _minus(hand, rnd.discard.known)
    for tt, trick in enumerate(rnd.tricks):
        for ii, m in enumerate(trick.moves):
            if (tt, ii) >= (t, i):
                return hand
            if m.seat == seat:
                hand = _minus(hand, m.played)
    return hand


def _minus(a: int, b: int) -> int:
    for c in distinct(b):
        a -= min(count(a, c), count(b, c)) << 2 * c
    return a


def _plays(m: SjMatch, follow: bool | None = None) -> list[tuple[int, int, int]]:
    out = []
    for r, rnd in enumerate(m.rounds):
        for t, trick in enumerate(rnd.tricks):
            for i, _ in enumerate(trick.moves):
                if follow is None or (i > 0) == follow:
                    out.append((r, t, i))
    return out


def foreign_card(m: SjMatch, rng: random.Random) -> tuple[SjMatch, str] | None:
    """A card of a play replaced by one the seat does not hold: SJ102."""
    r, t, i = rng.choice(_plays(m))
    out = copy.deepcopy(m)
    mv = out.rounds[r].tricks[t].moves[i]
    held = _hand_before(out.rounds[r], mv.seat, t, i)
    old = rng.choice(card_ids(mv.played))
    options = [c for c in range(54) if not count(held, c)]
    if not options or mv.failed:
        return None
    new = rng.choice(options)
    mv.cards = mv.cards - one(old) + one(new)
    return out, "SJ102"


def revoke(m: SjMatch, rng: random.Random) -> tuple[SjMatch, str] | None:
    """A follow's card swapped for another the seat holds; kept only when the referee says
    the follow no longer follows (ruling 7): SJ201."""
    r, t, i = rng.choice(_plays(m, follow=True))
    out = copy.deepcopy(m)
    rnd = out.rounds[r]
    mv = rnd.tricks[t].moves[i]
    held = _hand_before(rnd, mv.seat, t, i)
    rest = _minus(held, mv.cards)
    if not rest:
        return None
    old, new = rng.choice(card_ids(mv.cards)), rng.choice(card_ids(rest))
    mv.cards = mv.cards - one(old) + one(new)
    assert rnd.rank is not None
    rd = ref.Round(rnd.rank, None if rnd.trump == "nt" else rnd.trump)
    lead = rnd.tricks[t].moves[0].played
    legal, _ = ref.follow_verdict(
        ref.parse_cards(format_hand(lead)), ref.parse_cards(format_hand(held)),
        ref.parse_cards(format_hand(mv.cards)), rd,
    )  # fmt: skip
    return None if legal else (out, "SJ201")


def seat(m: SjMatch, rng: random.Random) -> tuple[SjMatch, str] | None:
    """A play given to another seat: out of turn (SJ202), or a wrong leader (SJ203)."""
    r, t, i = rng.choice(_plays(m))
    out = copy.deepcopy(m)
    mv = out.rounds[r].tricks[t].moves[i]
    n = len(m.players)
    mv.seat = (mv.seat + rng.randrange(1, n)) % n
    return out, "SJ203" if i == 0 else "SJ202"


def _failed(m: SjMatch) -> list[tuple[int, int]]:
    return [(r, t) for r, rnd in enumerate(m.rounds) for t, tr in enumerate(rnd.tricks)
            if tr.moves[0].failed]  # fmt: skip


def throw_stands(m: SjMatch, rng: random.Random) -> tuple[SjMatch, str] | None:
    """A failed throw written as standing: SJ103."""
    places = _failed(m)
    if not places:
        return None
    r, t = rng.choice(places)
    out = copy.deepcopy(m)
    mv = out.rounds[r].tricks[t].moves[0]
    mv.forced, mv.blocker = None, None
    return out, "SJ103"


def forced_part(m: SjMatch, rng: random.Random) -> tuple[SjMatch, str] | None:
    """A failed throw's forced part written as another card of the throw: SJ104."""
    places = _failed(m)
    if not places:
        return None
    r, t = rng.choice(places)
    out = copy.deepcopy(m)
    mv = out.rounds[r].tricks[t].moves[0]
    assert mv.forced is not None
    others = [c for c in distinct(mv.cards) if count(mv.cards, c) > count(mv.forced, c)]
    old = rng.choice(card_ids(mv.forced))
    mv.forced = mv.forced - one(old) + one(rng.choice(others))
    return out, "SJ104"


def _ledger(m: SjMatch, rng: random.Random, field: str) -> tuple[SjMatch, str] | None:
    out = copy.deepcopy(m)
    r = rng.randrange(len(out.rounds))
    rnd = out.rounds[r]
    n = len(m.players)
    if field == "points" and rnd.points is not None and rnd.points.total is not None:
        rnd.points = replace(rnd.points, total=rnd.points.total + rng.choice([-10, -5, 5, 10]))
        return out, "SJ501"
    if field == "multiplier" and rnd.points is not None and rnd.points.multiplier:
        rnd.points = replace(rnd.points, multiplier=rnd.points.multiplier * 2)
        return out, "SJ502"
    if field == "steps" and rnd.outcome is not None:
        rnd.outcome = replace(rnd.outcome, steps=rnd.outcome.steps + 1)
        return out, "SJ503"
    if field == "next" and rnd.outcome is not None and rnd.outcome.next_dealer is not None:
        nd = (rnd.outcome.next_dealer + rng.randrange(1, n)) % n
        rnd.outcome = replace(rnd.outcome, next_dealer=nd)
        return out, "SJ504"
    if field == "levels" and rnd.levels is not None:
        levels = list(rnd.levels.levels)
        s = rng.randrange(n)
        levels[s] = levels[s] + 1 if levels[s] < 14 else 13
        rnd.levels = replace(rnd.levels, levels=tuple(levels))
        return out, "SJ503"
    if field == "rank" and rnd.rank is not None:
        rnd.rank = rnd.rank + 1 if rnd.rank < 14 else 13
        return out, "SJ505"
    if field == "dealer" and r > 0 and rnd.dealer is not None:
        rnd.dealer = (rnd.dealer + rng.randrange(1, n)) % n
        return out, "SJ304"
    return None


def kitty_size(m: SjMatch, rng: random.Random) -> tuple[SjMatch, str] | None:
    """A card dropped from the kitty as taken up: SJ303."""
    out = copy.deepcopy(m)
    rnd = rng.choice(out.rounds)
    if rnd.kitty is None or not rnd.kitty.known:
        return None
    c = rng.choice(card_ids(rnd.kitty.known))
    rnd.kitty = SjCards(rnd.kitty.known - one(c), rnd.kitty.unknown, rnd.kitty.pos)
    return out, "SJ303"


def third_copy(m: SjMatch, rng: random.Random) -> tuple[SjMatch, str] | None:
    """A deal's card replaced by a card already dealt as often as the decks hold it: SJ301."""
    out = copy.deepcopy(m)
    rnd = rng.choice(out.rounds)
    if rnd.deal is None:
        return None
    decks = m.rules().decks
    s, u = rng.sample(range(len(m.players)), 2)
    full = [c for c in distinct(rnd.deal[u].known) if count(rnd.deal[u].known, c) == decks]
    if not full:
        dealt = [sum(count(d.known, c) for d in rnd.deal) for c in range(54)]
        full = [c for c in range(54) if dealt[c] == decks and not count(rnd.deal[s].known, c)]
    if not full:
        return None
    d = rnd.deal[s]
    old = rng.choice(card_ids(d.known))
    deal = list(rnd.deal)
    deal[s] = SjCards(d.known - one(old) + one(rng.choice(full)), d.unknown, d.pos)
    rnd.deal = tuple(deal)
    return out, "SJ301"


def bad_bid(m: SjMatch, rng: random.Random) -> tuple[SjMatch, str] | None:
    """A bid that cannot stand: a single rank card shown after a bid already stands (SJ403),
    or a first bid of a card that is not of the dominant rank (SJ402)."""
    out = copy.deepcopy(m)
    rounds = [rnd for rnd in out.rounds if rnd.bids and rnd.deal is not None]
    if not rounds:
        return None
    rnd = rng.choice(rounds)
    assert rnd.deal is not None and rnd.rank is not None
    b = rnd.bids[0]
    rank = level_rank(rnd.rank)
    if rng.random() < 0.5:
        plain = [c for c in distinct(rnd.deal[b.seat].known) if c < 52 and c >> 2 != rank]
        rnd.bids[0] = SjMove(b.seat, one(rng.choice(plain)), pos=b.pos)
        return out, "SJ402"
    last = rnd.bids[-1]
    s = (last.seat + 1) % len(m.players)
    singles = [c for c in distinct(rnd.deal[s].known) if c < 52 and c >> 2 == rank]
    if not singles:
        return None
    rnd.bids.append(SjMove(s, one(rng.choice(singles)), pos=last.pos))
    return out, "SJ403"


def wrong_trump(m: SjMatch, rng: random.Random) -> tuple[SjMatch, str] | None:
    """A round's trump written other than its bids give: SJ405."""
    out = copy.deepcopy(m)
    rounds = [rnd for rnd in out.rounds if rnd.bids]
    if not rounds:
        return None
    rnd = rng.choice(rounds)
    rnd.trump = rng.choice([t for t in ("s", "h", "d", "c", "nt") if t != rnd.trump])
    return out, "SJ405"


def join(m: SjMatch, rng: random.Random) -> tuple[SjMatch, str] | None:
    """Zhao pengyou: a play's `joins` mark added or dropped: SJ407."""
    if not m.rounds or not m.rounds[0].calls:
        return None
    r, t, i = rng.choice(_plays(m))
    out = copy.deepcopy(m)
    mv = out.rounds[r].tricks[t].moves[i]
    mv.joins = not mv.joins
    return out, "SJ407"


MUTATIONS: dict[str, Mutation] = {
    "join": join,
    "foreign_card": foreign_card,
    "revoke": revoke,
    "seat": seat,
    "throw_stands": throw_stands,
    "forced_part": forced_part,
    "points": lambda m, rng: _ledger(m, rng, "points"),
    "multiplier": lambda m, rng: _ledger(m, rng, "multiplier"),
    "steps": lambda m, rng: _ledger(m, rng, "steps"),
    "next": lambda m, rng: _ledger(m, rng, "next"),
    "levels": lambda m, rng: _ledger(m, rng, "levels"),
    "rank": lambda m, rng: _ledger(m, rng, "rank"),
    "dealer": lambda m, rng: _ledger(m, rng, "dealer"),
    "kitty_size": kitty_size,
    "third_copy": third_copy,
    "bad_bid": bad_bid,
    "wrong_trump": wrong_trump,
}
