"""The Sheng ji solver's move ordering: cheap heuristics that only change the order in which
`zfrec.games.shengji.solve` tries the plays, never its value.
"""

from __future__ import annotations

from collections.abc import Sequence

from zfrec.games.shengji.cards import distinct, points, size
from zfrec.games.shengji.formats import best_top
from zfrec.games.shengji.order import TRUMP
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.solve_moves import _max_single, trick_holder
from zfrec.games.shengji.trick import can_win, trick_winner

__all__ = ["follow_order", "ordered"]


def follow_order(
    by_gain: list[tuple[int, int]], by_loss: list[tuple[int, int]], best: int, ours: bool
) -> list[int]:
    """`ordered`'s order of the follows to a single or a pair from their two kept sorts
    (`follow_list`): those that take the trick (key above `best`) first."""
    plays = [p for k, p in by_gain if k > best]
    plays += [p for k, p in (by_gain if ours else by_loss) if k <= best]
    return plays


def ordered(
    s: RoundState,
    keys: Sequence[Sequence[int]],
    info: dict[int, tuple[int, int]],
    plays: list[int],
) -> list[int]:
    """Cheap heuristics: take the trick for one's side, cheaply; give points to a partner
    who holds it; give the least to an opponent who holds it. Leads: big units first.
    `keys` are the search's card keys by led suit, `info` keeps each play's points and the
    sum of its levels."""
    order = s.order
    assert order is not None
    level = order.level
    seat = s.turn
    decl = s.declarers
    mine = decl >> seat & 1
    lead = s.lead
    if lead is None:  # the units and throws of more cards first, then high cards first
        # (a trump and a plain card by their levels alone: putting trumps later, as the
        # search once did, cost nodes on as many positions as it saved)
        scored = []
        for p in plays:
            scored.append((-100 * (size(p) > 1) - _max_single(order, p), p))
        scored.sort()
        return [p for _, p in scored]
    tricked = s.trick_plays
    on_table = 0
    for _, p in tricked:
        on_table += p
    on_table = points(on_table)
    last = len(tricked) == s.n - 1
    kind = lead.kind
    if kind == "single" or kind == "pair":
        # the common leads: a play of the lead's shape (one card, two copies of one card)
        # contends by its card's key (its level, 100 more in trump, -1 off suit), any other
        # cannot win; the earliest of the highest key holds the trick (as `trick_winner`)
        shape = 1 if kind == "single" else 2
        led_keys = keys[lead.esuit]
        best_key, winner = trick_holder(led_keys, tricked, shape)
        partner_wins = (decl >> winner & 1) == mine
        out = []
        for p in plays:
            known = info.get(p)
            if known is None:
                known = info[p] = (points(p), sum(level[c] for c in distinct(p)))
            pts, low = known
            c = (p.bit_length() - 1) >> 1
            if p == shape << (c << 1) and led_keys[c] > best_key:
                score = 1000 + (on_table + pts if last else pts) * 4 - low
            elif partner_wins:
                score = 500 + pts * 4 - low
            else:
                score = -pts * 4 - low
            out.append((-score, p))
        out.sort()
        return [p for _, p in out]
    table = [p for _, p in tricked]
    at = trick_winner(order, table, lead)
    winner = tricked[at][0]
    partner_wins = (decl >> winner & 1) == mine
    unit = lead.units[0].pairs
    best = table[at]
    best_trump = can_win(order, lead, best) == TRUMP
    best_level = best_top(order, best, unit) if at else lead.units[0].top
    out = []
    for p in plays:
        known = info.get(p)
        if known is None:
            known = info[p] = (points(p), sum(level[c] for c in distinct(p)))
        pts, low = known
        e = can_win(order, lead, p)
        wins = False
        if e is not None:
            ruff = e == TRUMP
            if ruff and not best_trump:
                wins = True
            elif ruff == best_trump:
                wins = best_top(order, p, unit) > best_level
        if wins:
            score = 1000 + (on_table + pts if last else pts) * 4 - low
        elif partner_wins:
            score = 500 + pts * 4 - low
        else:
            score = -pts * 4 - low
        out.append((-score, p))
    out.sort()
    return [p for _, p in out]
