"""Zheng Fen's store rows (its kind's `store_rows`): the store core's rows of the game, and its
`hand`, `hand_seat` and `play` rows, built from the record and its validation report.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from zfrec.games.zhengfen.engine.cards import card_str, format_cards
from zfrec.games.zhengfen.validator import HandLedger
from zfrec.record import Game
from zfrec.record.model import Move
from zfrec.store.rows import Rows, core_rows
from zfrec.validate import Report


def zhengfen_rows(source: str | None, number: int, text: str, game: Game, report: Report) -> Rows:
    """Zheng Fen's rows (its kind's `store_rows`): the core's, and its hands, hand seats and
    plays."""
    rows = core_rows(source, number, text, game, report, len(game.hands))
    ledgers: list[HandLedger | None] = list(report.hands)
    if len(ledgers) != len(game.hands):  # the replay stopped before the hands (bad seat count)
        ledgers = [None] * len(game.hands)
    n = len(game.players)
    for hand, ledger in zip(game.hands, ledgers, strict=True):
        res = ledger.result if ledger else None
        rows.hands.append(
            {
                "number": hand.number,
                "shuffler": hand.shuffler,
                "first": res.first if res else None,
                "last": res.last if res else None,
                "finished": res is not None,
                "reconstructed": ledger.reconstructed if ledger else False,
                "transfer_points": res.transfer_points if res else None,
            }
        )
        order = list(res.out_order) if res else []
        if res and res.last not in order:
            order.append(res.last)
        rows.hand_seats.append(
            [
                (
                    s,
                    res.points[s] if res and s < len(res.points) else None,
                    order.index(s) + 1 if s in order else None,
                    bool(res and res.first == s),
                    bool(res and res.last == s),
                )
                for s in range(n)
            ]
        )
        plays: list[tuple[Any, ...]] = []
        rows.plays.append(plays)
        number = hand.number
        for t, trick in enumerate(hand.tricks, 1):
            for turn, move in enumerate(trick.moves, 1):
                if move.annotation is not None or move.comments or move.disputed:
                    plays.append(_play_row(move, number, t, turn))
                elif move.is_pass:  # most moves are plain: their rows made here, without a call
                    plays.append(
                        (number, t, turn, move.seat, True, None, 0, None, None, None, False, None)
                    )
                elif not move.declarations:
                    cards = _cards_text(move.cards)
                    plays.append(
                        (
                            number,
                            t,
                            turn,
                            move.seat,
                            False,
                            cards,
                            move.cards,
                            None,
                            None,
                            None,
                            False,
                            None,
                        )
                    )
                else:
                    plays.append(_play_row(move, number, t, turn))
    return rows


def _play_row(move: Move, hand_number: int, trick: int, turn: int) -> tuple[Any, ...]:
    decls = " ".join(f"{card_str(j)}={stand}" for j, stand in move.declarations)
    return (
        hand_number,
        trick,
        turn,
        move.seat,
        move.is_pass,
        None if move.is_pass else _cards_text(move.cards),
        move.cards,
        decls or None,
        move.annotation,
        "\n\n".join(move.comments) or None,
        move.disputed,
        move.dispute_note,
    )


@lru_cache(maxsize=1 << 16)
def _cards_text(mask: int) -> str:
    return format_cards(mask)
