"""Self-play Sheng ji matches as records (`zfrec simulate --game shengji`).

A `MatchRecord` of the engine (`zfrec.games.shengji.match`) holds each round's event log;
`match_to_record` writes everything in it down as a record: the deals (what each seat drew),
the bids in order, the kitty as taken up and as discarded, the calls, every play (failed
throws with their forced part and blocker, joins), the points, the level change, the levels
and the match's result.

    >>> from zfrec.games.shengji.match import play_match
    >>> from zfrec.games.shengji.rules import sj_preset
    >>> m = match_to_record(play_match(sj_preset(), 1, ["greedy"] * 4, max_rounds=2))
    >>> len(m.rounds), m.rounds[0].deal is not None, len(m.rounds[0].tricks) > 0
    (2, True, True)
"""

from __future__ import annotations

from zfrec.games.shengji.cards import from_ids
from zfrec.games.shengji.events import (
    BidEvent,
    CallEvent,
    DrawEvent,
    ExchangeEvent,
    PlayEvent,
    SettleEvent,
)
from zfrec.games.shengji.match import MatchRecord, RoundRecord
from zfrec.games.shengji.records import (
    SjCall,
    SjCards,
    SjLevels,
    SjMatch,
    SjMatchResult,
    SjMove,
    SjOutcome,
    SjPoints,
    SjRound,
    SjTrick,
)

__all__ = ["SIM_PLAYERS", "match_to_record", "round_to_record"]

SIM_PLAYERS = ("East", "South", "West", "North", "Zhang 张", "Li 李", "Wang 王", "Zhao 赵")


def round_to_record(r: RoundRecord) -> SjRound:
    """One round of the engine as written down in full."""
    state = r.state
    assert state.order is not None and state.result is not None
    order = state.order
    n = state.n
    drawn: list[list[int]] = [[] for _ in range(n)]
    out = SjRound(r.number, state.dealer, r.level, "nt" if order.trump is None
                  else "shdc"[order.trump])  # fmt: skip
    trick: list[SjMove] = []
    for e in state.log:
        if isinstance(e, DrawEvent):
            drawn[e.seat].append(e.card)
        elif isinstance(e, BidEvent):
            out.bids.append(SjMove(e.seat, e.cards))
        elif isinstance(e, SettleEvent):
            out.kitty = SjCards(e.kitty)
        elif isinstance(e, ExchangeEvent):
            out.discard = SjCards(e.discard)
        elif isinstance(e, CallEvent):
            out.calls = tuple(SjCall(c, o) for c, o in e.calls)
        elif isinstance(e, PlayEvent):
            move = SjMove(e.seat, e.attempt, joins=e.joined is not None)
            if e.back:
                move.forced, move.blocker = e.cards, e.blocker
            trick.append(move)
            if e.trick_result is not None:
                out.tricks.append(SjTrick(trick))
                trick = []
    out.deal = tuple(SjCards(from_ids(ids)) for ids in drawn)
    res = state.result
    counted = not res.declarers >> res.last_winner & 1
    out.points = SjPoints(
        res.taken, res.kitty_points if counted else None, res.multiplier if counted else None,
        res.penalty, res.total,
    )  # fmt: skip
    change = res.change
    side, steps = (
        ("opponents", change.opponents) if change.swap else ("declarers", change.declarers)
    )
    out.outcome = SjOutcome(side, steps, res.next_dealer)
    out.levels = SjLevels(r.levels_after)
    return out


def match_to_record(
    match: MatchRecord, players: tuple[str, ...] = SIM_PLAYERS, event: str = "zfrec self-play"
) -> SjMatch:
    """The whole match as a record: header (bots, seed), every round, the result."""
    rules = match.rules
    names = list(players[: rules.players])
    rounds = [round_to_record(r) for r in match.rounds]
    result = None
    if match.rounds and match.winners:  # a match cut short has no result yet
        result = SjMatchResult(match.rounds[-1].levels_after, match.winners)
    options = {k: v for k, v in rules.overrides().items() if k != "players"}
    return SjMatch(
        names, event=event, preset=rules.preset, options=options, result=result,
        extra_tags=[("Bot", ",".join(sorted(set(match.bots)))), ("Seed", str(match.seed))],
        rounds=rounds,
    )  # fmt: skip
