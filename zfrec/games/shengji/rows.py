"""Sheng ji's store rows (its kind's `store_rows`): the store core's rows of the match, and its
`sj_round`, `sj_round_seat` and `sj_play` rows (STORE.md), built from the record and its
validation report (`SjReport`: the round ledgers the rules computed).

Two decks hold 108 cards, more than a 64-bit mask: a play's cards are kept as canonical text
(`7h 7h BJ`) and as the packed multiset of zfrec.games.shengji.cards (2 bits per card id, the
copies held) cut into two 54-bit halves, which BIGINT holds: card ids 0..26 in `cards_lo`,
27..53 in `cards_hi` (`cards_lo | cards_hi << 54` is the hand again).

    >>> from zfrec.games.shengji.cards import parse_hand
    >>> lo, hi = halves(parse_hand("3s 3s BJ"))
    >>> lo, hi >> 2 * (53 - HALF), format_hand(lo | hi << 2 * HALF)
    (2, 1, '3s 3s BJ')
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from zfrec.games.shengji.cards import format_hand
from zfrec.games.shengji.records import SjMove, SjRound
from zfrec.games.shengji.report import SjReport, SjRoundLedger
from zfrec.record import Game
from zfrec.store.rows import Layout, Rows, core_rows

__all__ = ["ROUNDS", "halves", "shengji_rows"]

HALF = 27  # card ids per half: 2 bits each, 54 bits
_LOW = (1 << 2 * HALF) - 1
SEAT_COLUMNS = ("seat", "player_id", "declarer", "level_before", "level", "points")
PLAY_COLUMNS = (
    "round_number", "trick", "turn", "seat", "is_bid", "cards", "cards_lo", "cards_hi", "forced",
    "blocker", "joins", "annotation", "comment", "disputed", "dispute_note",
)  # fmt: skip
ROUNDS = Layout("sj_round", "sj_round_seat", "sj_play", "round_id", "round_number", "is_bid",
                SEAT_COLUMNS, PLAY_COLUMNS)  # fmt: skip
START_LEVEL = 2  # every seat starts a match at 2 (ruling 14)


def halves(cards: int) -> tuple[int, int]:
    """A packed multiset as its two 54-bit halves (card ids 0..26, 27..53)."""
    return cards & _LOW, cards >> 2 * HALF


def shengji_rows(source: str | None, number: int, text: str, game: Game, report: SjReport) -> Rows:
    """The rows of one Sheng ji match: the core's (each seat's score is its final level; the
    match is over when a team won), and per round its facts, seats and moves."""
    rows = core_rows(source, number, text, game, report, len(game.rounds),
                     scores=report.levels, over=bool(report.winners))  # fmt: skip
    rows.layout = ROUNDS
    n = len(game.players)
    ledgers = list(report.rounds)
    levels = (START_LEVEL,) * n
    at = 0
    for rnd in game.rounds:
        # the replayer keeps a ledger for each round it could play, in order
        ledger = None
        if at < len(ledgers) and ledgers[at].number == rnd.number:
            ledger, at = ledgers[at], at + 1
        after = ledger.levels if ledger is not None and len(ledger.levels) == n else levels
        rows.hands.append(_round_row(rnd, ledger, levels))
        res = ledger.result if ledger is not None else None
        seats: list[tuple[Any, ...]] = []
        for s in range(n):
            declarer = None if res is None else bool(res.declarers >> s & 1)
            points = res.total if res is not None and not declarer else None
            seats.append((s, declarer, levels[s], after[s], points))
        rows.hand_seats.append(seats)
        rows.plays.append(_plays(rnd))
        levels = after
    return rows


def _round_row(
    rnd: SjRound, ledger: SjRoundLedger | None, levels: tuple[int, ...]
) -> dict[str, Any]:
    res = ledger.result if ledger is not None else None
    dealer = ledger.dealer if ledger is not None else rnd.dealer
    trump = rnd.trump
    if trump is None and ledger is not None:  # settled by the bids: the order's suit, if any
        trump = ledger.trump[-1] if ledger.trump[-1:] in ("s", "h", "d", "c") else "nt"
    rank = rnd.rank
    if rank is None and dealer is not None and 0 <= dealer < len(levels):
        rank = levels[dealer]  # the declarers' level (ruling 14)
    return {
        "number": rnd.number,
        "dealer": dealer,
        "rank": rank,
        "trump": trump,
        "declarers": None if res is None else res.declarers,
        "finished": res is not None,
        "reconstructed": ledger.reconstructed if ledger is not None else False,
        "taken": None if res is None else res.taken,
        "kitty": None if ledger is None else _text(ledger.discard),
        "kitty_points": None if res is None else res.kitty_points,
        "multiplier": None if res is None else res.multiplier,
        "kitty_added": None if res is None else res.kitty_added,
        "penalty": None if res is None else res.penalty,
        "points": None if res is None else res.total,
        "declarers_up": None if res is None else res.change.declarers,
        "opponents_up": None if res is None else res.change.opponents,
        "swap": None if res is None else res.change.swap,
        "next_dealer": None if res is None else res.next_dealer,
    }


def _plays(rnd: SjRound) -> list[tuple[Any, ...]]:
    """The round's bids (trick 0, in the order made) and plays, as written."""
    number = rnd.number
    out = [_move_row(number, 0, turn, m, True) for turn, m in enumerate(rnd.bids, 1)]
    put = out.append
    text = _text
    for t, trick in enumerate(rnd.tricks, 1):
        for turn, m in enumerate(trick.moves, 1):
            if (
                m.forced is None
                and not m.joins
                and m.annotation is None
                and not m.comments
                and not m.disputed
            ):  # most plays: their row made here, without a call
                cards = m.cards
                put((number, t, turn, m.seat, False, text(cards), cards & _LOW,
                     cards >> 2 * HALF, None, None, False, None, None, False, None))  # fmt: skip
            else:
                put(_move_row(number, t, turn, m, False))
    return out


def _move_row(number: int, trick: int, turn: int, m: SjMove, bid: bool) -> tuple[Any, ...]:
    lo, hi = halves(m.cards)
    return (
        number, trick, turn, m.seat, bid, _text(m.cards), lo, hi,
        None if m.forced is None else _text(m.forced), m.blocker, m.joins, m.annotation,
        "\n\n".join(m.comments) or None, m.disputed, m.dispute_note,
    )  # fmt: skip


@lru_cache(maxsize=1 << 16)
def _text(cards: int) -> str:
    return format_hand(cards)
