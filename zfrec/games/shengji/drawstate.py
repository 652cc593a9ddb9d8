"""The draw state a replay judges the bids in: the round after the draw, before the trump is
settled (`zfrec.games.shengji.replayer`).

A record's draw is not written card by card, so its replay needs only the state the draw ends
in: each seat's hand and the kitty left in the deck. Where the record writes every card
(`Rebuilt.whole`) that state is made straight from the dealt hands; otherwise the rebuilt deck
is drawn through the engine (`RoundState.start`, `draw_rest`).
"""

from __future__ import annotations

from collections.abc import Sequence

from zfrec.errors import DealError, IllegalPlayError
from zfrec.games.shengji.cards import card_ids
from zfrec.games.shengji.rebuild import Rebuilt
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import SjRules

__all__ = ["bid_dealer", "draw_state"]


def draw_state(rules: SjRules, rb: Rebuilt, rank: int, dealer: int | None) -> RoundState | None:
    """The round after the draw (no undo record, no draw events), `rank` the dominant rank
    index, `dealer` the dealer or None when the bids decide it; None when the record's deal
    cannot be drawn."""
    if rb.whole:
        # What `start` + `draw_rest(logged=False)` give for the deck `rebuild` would make, read
        # by nothing after but the bids, `settle` and the exchange: `whole_hands` has checked
        # that the hands and the kitty hold each card once per deck (`start`'s DealError never
        # comes), the seats' hands are what they draw, and the deck left holds just the kitty,
        # lowest card first, as that deck ends (the no-bid trump is turned from it). The draw
        # logs nothing, so the bids' times (log indices) are the same; every seat draws as many
        # cards, so the turn comes back to the first to draw.
        n = rules.players
        first = 0 if dealer is None else dealer
        return RoundState(
            rules, n, rank, tuple(card_ids(rb.kitty)), dealer, hands=list(rb.drawn),
            first=first, turn=first, won=(0,) * n, penalties=(0,) * n, undoable=False,
        )  # fmt: skip
    if not rb.deck:
        return None
    try:
        st = RoundState.start(rules, rb.deck, rank, dealer, undoable=False)
    except DealError:
        return None
    st.draw_rest(logged=False)  # the draw's log is read only by the bids' times
    return st


def bid_dealer(
    rules: SjRules, rb: Rebuilt, rank: int, bids: Sequence[tuple[int, int]]
) -> int | None:
    """Round 1's dealer as the bids (seat, cards) settle it, a bid the engine refuses left out;
    None when the deal cannot be drawn or no bid stands (then seat 1 deals). Quiet: the replay
    judges the bids on the deal rebuilt for this dealer, whose hand takes up the kitty."""
    st = draw_state(rules, rb, rank, None)
    if st is None:
        return None
    for seat, cards in bids:
        try:
            st.bid(seat, cards)
        except IllegalPlayError:
            continue
    return st.bid_seat
