"""What the Sheng ji round's actions return and log (`zfrec.games.shengji.round.RoundState`).

Events are named tuples: immutable, cheap, and equal when they say the same. Cards are packed
multisets (`zfrec.games.shengji.cards`), seats 0-based.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from zfrec.games.shengji.cards import format_hand
from zfrec.games.shengji.scoring import LevelChange

__all__ = [
    "BidEvent",
    "CallEvent",
    "DrawEvent",
    "ExchangeEvent",
    "PlayEvent",
    "RoundEvent",
    "RoundResult",
    "SettleEvent",
    "TrickResult",
    "event_json",
]


class DrawEvent(NamedTuple):
    """`seat` drew `card` (a card id), the `number`-th card drawn (1-based)."""

    seat: int
    card: int
    number: int


class BidEvent(NamedTuple):
    """`seat` showed `cards` (one or two copies of a rank card, or a joker pair) to bid
    `suit` (0..3) or no-trump (None) (ruling 15)."""

    seat: int
    cards: int
    suit: int | None


class SettleEvent(NamedTuple):
    """The draw is over: the round's `trump` (as `--trump` writes it), the `dealer`, how the
    trump was set (`bid`, `first_card`, `rank_or_highest`), the kitty cards turned up for it,
    and the kitty (packed) the dealer takes up."""

    trump: str
    dealer: int
    source: str
    turned: int
    kitty: int


class ExchangeEvent(NamedTuple):
    """The dealer `seat` discarded `discard` (packed) as the new kitty (ruling 11)."""

    seat: int
    discard: int


class CallEvent(NamedTuple):
    """Zhao pengyou: the dealer called `calls`, each (card id, ordinal): "the second A♠" is
    (card_id("As"), 2) (ruling 16)."""

    seat: int
    calls: tuple[tuple[int, int], ...]


class TrickResult(NamedTuple):
    """A trick taken: its `number`, the `winner` seat, the `points` in it, and its `plays`,
    each (seat, packed cards) in play order."""

    number: int
    winner: int
    points: int
    plays: tuple[tuple[int, int], ...]


class RoundResult(NamedTuple):
    """The end of a round (rulings 10 to 13): the declarers (a seat bit mask), the points the
    opponents took in tricks, the kitty's points, its multiplier and what it added (0 when the
    declarers took the last trick), the throw penalties' net effect on the total, the
    opponents' `total`, the level change and the next dealer."""

    declarers: int
    taken: int
    kitty_points: int
    multiplier: int
    kitty_added: int
    penalty: int
    total: int
    change: LevelChange
    next_dealer: int
    last_winner: int


class PlayEvent(NamedTuple):
    """`seat` played `cards` (packed) as the `turn`-th play of trick `trick`.

    On a failed throw (ruling 10) `attempt` is the throw, `cards` its forced part, `back` the
    cards taken back, `blocker` the first seat that could beat the forced unit and `penalty`
    the points it costs; otherwise `attempt == cards`, `back == 0`, `blocker` None. `joined` is
    the seat that joined the dealer's team by this play (zhao pengyou), else None.
    """

    seat: int
    trick: int
    turn: int
    cards: int
    attempt: int
    back: int
    blocker: int | None
    penalty: int
    joined: int | None
    trick_result: TrickResult | None
    round_result: RoundResult | None


RoundEvent = DrawEvent | BidEvent | SettleEvent | ExchangeEvent | CallEvent | PlayEvent


def _seat(s: int | None) -> int | None:
    return None if s is None else s + 1


def event_json(event: RoundEvent) -> dict[str, Any]:
    """An event as plain JSON values: seats 1-based, cards as text (canonical order)."""
    from zfrec.cardwords import card_str

    if isinstance(event, DrawEvent):
        return {"event": "draw", "seat": event.seat + 1, "card": card_str(event.card)}
    if isinstance(event, BidEvent):
        suit = None if event.suit is None else "shdc"[event.suit]
        return {"event": "bid", "seat": event.seat + 1, "cards": format_hand(event.cards),
                "suit": suit}  # fmt: skip
    if isinstance(event, SettleEvent):
        return {
            "event": "settle", "trump": event.trump, "dealer": event.dealer + 1,
            "source": event.source, "turned": event.turned, "kitty": format_hand(event.kitty),
        }  # fmt: skip
    if isinstance(event, ExchangeEvent):
        return {"event": "exchange", "seat": event.seat + 1, "discard": format_hand(event.discard)}
    if isinstance(event, CallEvent):
        return {
            "event": "call",
            "seat": event.seat + 1,
            "calls": [[card_str(c), o] for c, o in event.calls],
        }
    out: dict[str, Any] = {
        "event": "play", "seat": event.seat + 1, "trick": event.trick, "turn": event.turn,
        "cards": format_hand(event.cards),
    }  # fmt: skip
    if event.back:
        out |= {
            "attempt": format_hand(event.attempt), "back": format_hand(event.back),
            "blocker": _seat(event.blocker), "penalty": event.penalty,
        }  # fmt: skip
    if event.joined is not None:
        out["joined"] = event.joined + 1
    if event.trick_result is not None:
        t = event.trick_result
        out["trick_result"] = {"winner": t.winner + 1, "points": t.points}
    if event.round_result is not None:
        r = event.round_result
        out["round_result"] = {
            "declarers": [s + 1 for s in range(r.declarers.bit_length()) if r.declarers >> s & 1],
            "taken": r.taken, "kitty_points": r.kitty_points, "multiplier": r.multiplier,
            "kitty_added": r.kitty_added, "penalty": r.penalty, "total": r.total,
            "declarers_up": r.change.declarers, "opponents_up": r.change.opponents,
            "swap": r.change.swap, "next_dealer": r.next_dealer + 1,
            "last_winner": r.last_winner + 1,
        }  # fmt: skip
    return out
