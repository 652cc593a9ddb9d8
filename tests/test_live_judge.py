"""zfrec.games.zhengfen.live, Zheng Fen's live judge: moves made through the engine, reveals of
guessed cards and their undo."""

from __future__ import annotations

from dataclasses import replace

from tests.live_helpers import sim
from zfrec.games.zhengfen.engine.actions import RevealEvent
from zfrec.games.zhengfen.live import LiveGame


def test_undo_of_a_move_that_revealed_a_guessed_card_restores_the_cards_exactly() -> None:
    """Without deals the replay guesses where the unplayed cards are; a play of a card the
    guess put elsewhere is revealed through the engine (HandState.reveal), and one undo takes
    the move, its passes and the reveal back: every seat's cards and the deal as before."""
    revealed = 0
    for seed in range(4):
        record = sim(4, seed)
        live = LiveGame(replace(record, hands=[], result=None))
        hand = record.hands[0]
        live.start_hand(hand.shuffler, None)
        for trick in hand.tricks:
            for move in trick.moves:
                hs = live.hand
                assert hs is not None
                before = (list(hs.hands), hs.deal, len(hs.log), hs.turn, hs.top)
                live.enter(move.seat, "-" if move.is_pass else move.play_text())
                hs = live.hand
                assert hs is not None
                if (
                    hs is live.hand
                    and len(hs.log) > before[2]
                    and any(type(e) is RevealEvent for e in hs.log[before[2] :])
                ):
                    revealed += 1
                    live.undo()
                    hs = live.hand  # (an undo of hand 1's first move rebuilds the state)
                    assert hs is not None
                    assert (list(hs.hands), hs.deal, len(hs.log), hs.turn, hs.top) == before
                    live.enter(move.seat, move.play_text())
    assert revealed > 0  # the guess was wrong somewhere, or this proves nothing
