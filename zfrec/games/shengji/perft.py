"""Perft for Sheng ji: count every sequence of plays a round can take, through `RoundState`.

A node is one play by one seat. On a lead, every non-empty multiset of the seat's cards of one
effective suit is a node (a throw that fails against the other hands is one node, whose play
is its forced part, the rest taken back: ruling 10); on a follow, every legal follow (ruling 7),
each distinct card multiset once. The trick ends with its last play (the winner leads next; no
extra node). perft(d) is the number of play sequences of exactly d plays; a round that ends
(every hand empty) in fewer plays is a leaf and counts at no deeper depth.

    >>> from zfrec.games.shengji.cards import parse_hand as cards
    >>> from zfrec.games.shengji.order import parse_trump
    >>> hands = [cards(h) for h in ("Kd Qd", "Ad 3s", "5h 6h", "8d 8c")]
    >>> rs = RoundState.from_hands(hands, parse_trump("7c"), leader=0)
    >>> perft_counts(rs, 4), perft(rs, 8)
    ([3, 3, 6, 6], 6)
"""

from __future__ import annotations

from zfrec.games.shengji.round import RoundState

__all__ = ["DEFINITION", "RoundState", "perft", "perft_counts"]

DEFINITION = (
    "A node is one play by one seat, made through the round state machine from the position "
    "(hands in seat order, the leader to lead the first trick, the trump, the rules). On a "
    "lead, every non-empty multiset of the leader's cards of one effective suit is one node "
    "(single, pair, tractor or throw); a throw that fails against the other players' actual "
    "hands (ruling 10) is still one node, whose play is its forced unit (the beatable unit "
    "with the fewest cards, then the lowest level, then the lowest card id), the rest taken "
    "back into the hand. On a follow, every legal follow (ruling 7) is one node, each distinct "
    "card multiset once (identical cards of two decks are not told apart). After the trick's "
    "last play the trick ends and its winner leads the next trick: no extra node. perft(d) is "
    "the number of play sequences of exactly d plays; a sequence that ends the round (every "
    "hand empty) in fewer plays is a leaf and is counted at its own depth only, never at a "
    "deeper one. counts[i] is perft(i + 1)."
)


def perft(state: RoundState, depth: int) -> int:
    """The number of play sequences of exactly `depth` plays from `state` (left as it was)."""
    if depth == 0:
        return 1
    if state.phase != "play":
        return 0
    plays = state.legal_plays()
    if depth == 1:
        return len(plays)
    seat = state.turn
    total = 0
    for play in plays:
        state.play_legal(seat, play)
        total += perft(state, depth - 1)
        state.undo()
    return total


def perft_counts(state: RoundState, depth: int) -> list[int]:
    """[perft(1), ..., perft(depth)] in one walk."""
    counts = [0] * depth
    _walk(state, depth, 0, counts)
    return counts


def _walk(state: RoundState, depth: int, level: int, counts: list[int]) -> None:
    if level == depth or state.phase != "play":
        return
    plays = state.legal_plays()
    counts[level] += len(plays)
    if level + 1 == depth:
        return
    seat = state.turn
    for play in plays:
        state.play_legal(seat, play)
        _walk(state, depth, level + 1, counts)
        state.undo()
