"""Sheng ji players for self-play: `random` (any legal choice, roughly uniform) and `greedy`
(wins tricks cheaply, feeds points to a winning partner, keeps trump and points back).

A bot answers four questions at its seat: whether to bid after drawing a card, what the
dealer discards, what the dealer calls (zhao pengyou), and what to play. Its plays are always
legal: leads are cards of one effective suit, follows come from `legal_follows`.
"""

from __future__ import annotations

import random
from itertools import islice
from typing import Protocol

from zfrec.games.shengji.cards import SJ, card_ids, count, distinct, from_ids, points, size
from zfrec.games.shengji.follow import legal_follows
from zfrec.games.shengji.formats import decompose
from zfrec.games.shengji.order import TRUMP, Order
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.trick import trick_winner

__all__ = ["BOTS", "GreedyBot", "RandomBot", "SjBot", "make_bot"]


class SjBot(Protocol):
    """A Sheng ji player."""

    name: str

    def bid(self, state: RoundState, seat: int, rng: random.Random) -> int | None:
        """Cards to bid with after `seat` drew (None: no bid)."""
        ...

    def discard(self, state: RoundState, seat: int, rng: random.Random) -> int:
        """The dealer's discard: as many cards as the kitty holds."""
        ...

    def calls(self, state: RoundState, seat: int, rng: random.Random) -> list[tuple[int, int]]:
        """Zhao pengyou: the dealer's calls, (card id, ordinal) each."""
        ...

    def play(self, state: RoundState, seat: int, rng: random.Random) -> int:
        """The cards `seat` plays now (a lead or a legal follow)."""
        ...


def _bids(state: RoundState, seat: int) -> list[int]:
    """The bids `seat` could make now, weakest first."""
    hand = state.hands[seat]
    out = []
    for s in range(4):
        cid = state.rank * 4 + s
        for k in range(1, count(hand, cid) + 1):
            out.append((k, 0, k << (cid << 1)))
    for cid, kind in ((SJ, 1), (SJ + 1, 2)):
        if count(hand, cid) >= 2:
            out.append((2, kind, 2 << (cid << 1)))
    return [cards for _, _, cards in sorted(out) if state.can_bid(seat, cards)]


def _value(order: Order, cid: int) -> int:
    """How much a bot minds giving a card away: trump most, then high cards and points."""
    return order.level[cid] + (40 if order.esuit[cid] == TRUMP else 0) + 2 * _POINTS[cid]


_POINTS = tuple(points(1 << (c << 1)) for c in range(54))


def _leads(order: Order, hand: int) -> list[int]:
    """Lead candidates: each unit of each suit held (tractors, pairs, singles)."""
    out = []
    for e in range(5):
        held = hand & order.suit_mask[e]
        if held:
            out += [from_ids(u.ids) for u in decompose(order, held)]
    return out


def _random_follow(state: RoundState, seat: int, rng: random.Random) -> int:
    assert state.order is not None and state.lead is not None
    lead, hand = state.lead, state.hands[seat]
    held = hand & state.order.suit_mask[lead.esuit]
    short = lead.size - size(held)
    if short >= 0:  # all of the suit and any other cards: drawn at random
        rest = card_ids(hand - held)
        return held + from_ids(rng.sample(rest, short))
    options = list(islice(legal_follows(state.order, lead, hand), 64))
    return rng.choice(options)


class RandomBot:
    """Any legal choice: bids now and then, discards and leads at random."""

    name = "random"

    def bid(self, state: RoundState, seat: int, rng: random.Random) -> int | None:
        """Bid one of the possible bids, one time in three."""
        options = _bids(state, seat)
        return rng.choice(options) if options and rng.random() < 0.35 else None

    def discard(self, state: RoundState, seat: int, rng: random.Random) -> int:
        """Any cards."""
        return from_ids(rng.sample(card_ids(state.hands[seat]), state.rules.kitty))

    def calls(self, state: RoundState, seat: int, rng: random.Random) -> list[tuple[int, int]]:
        """Any cards, any copy."""
        return [
            (rng.randrange(54), rng.randint(1, state.rules.decks))
            for _ in range(state.rules.friends)
        ]

    def play(self, state: RoundState, seat: int, rng: random.Random) -> int:
        """A random unit (now and then a random throw) to lead; a random legal follow."""
        assert state.order is not None
        if state.lead is not None:
            return _random_follow(state, seat, rng)
        hand = state.hands[seat]
        if rng.random() < 0.15:  # a throw: any cards of one suit
            suits = [e for e in range(5) if hand & state.order.suit_mask[e]]
            held = hand & state.order.suit_mask[rng.choice(suits)]
            ids = card_ids(held)
            return from_ids(rng.sample(ids, rng.randint(1, len(ids))))
        return rng.choice(_leads(state.order, hand))


class GreedyBot:
    """Bids what it can, discards cheap cards, leads its best unit outside trump, and follows
    with the cheapest play that takes the trick, or the cheapest at all (points to a partner)."""

    name = "greedy"

    def bid(self, state: RoundState, seat: int, rng: random.Random) -> int | None:
        """The strongest bid it can make, unless its team's bid already stands."""
        if state.bid_seat is not None and state.bid_seat % 2 == seat % 2:
            return None
        options = _bids(state, seat)
        return options[-1] if options else None

    def discard(self, state: RoundState, seat: int, rng: random.Random) -> int:
        """The cheapest cards: plain low cards before points, trump last."""
        assert state.order is not None
        order = state.order
        ids = sorted(card_ids(state.hands[seat]), key=lambda c: (_value(order, c), c))
        return from_ids(ids[: state.rules.kitty])

    def calls(self, state: RoundState, seat: int, rng: random.Random) -> list[tuple[int, int]]:
        """Aces of plain suits, the first copy it does not hold."""
        assert state.order is not None
        hand = state.hands[seat]
        out = []
        for s in range(4):
            ace = 11 * 4 + s
            if state.order.esuit[ace] != TRUMP and count(hand, ace) < state.rules.decks:
                out.append((ace, count(hand, ace) + 1))
        return out[: state.rules.friends] or [(SJ + 1, 1)]

    def play(self, state: RoundState, seat: int, rng: random.Random) -> int:
        """As the class says."""
        order = state.order
        assert order is not None
        hand = state.hands[seat]
        if state.lead is None:
            leads = _leads(order, hand)
            plain = [p for p in leads if not p & order.suit_mask[TRUMP]]
            pool = plain or leads
            return max(pool, key=lambda p: (size(p), max(order.level[c] for c in distinct(p))))
        lead = state.lead
        held = hand & order.suit_mask[lead.esuit]
        short = lead.size - size(held)
        if short > 0:  # all of the suit, then the cheapest others
            rest = sorted(card_ids(hand - held), key=lambda c: (_value(order, c), c))
            cands = [held + from_ids(rest[:short])]
            cands += list(islice(legal_follows(order, lead, hand), 8))
        else:
            cands = list(islice(legal_follows(order, lead, hand), 12))
        plays = [p for _, p in state.trick_plays]
        best_seat = state.trick_plays[trick_winner(order, plays, lead)][0]
        partner_wins = state.team_of(best_seat) == state.team_of(seat) is not None

        def cost(p: int) -> int:
            return sum(_value(order, c) for c in card_ids(p))

        if not partner_wins and (points(sum(plays)) or rng.random() < 0.5):
            wins = [p for p in cands if trick_winner(order, [*plays, p], lead) == len(plays)]
            if wins:
                return min(wins, key=cost)
        if partner_wins:
            return max(cands, key=lambda p: (points(p), -cost(p)))
        return min(cands, key=cost)


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str) -> SjBot:
    """A bot by name; ValueError for another."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: bots are {', '.join(BOTS)}") from None
