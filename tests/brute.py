"""Slow, independent reference implementations for the engine's tests.

Nothing here shares code with zfrec.games.zhengfen.engine.combos or
zfrec.games.zhengfen.engine.movegen: the classifier substitutes every
real card for each joker and checks the definitions of the rule texts literally.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product

from zfrec.games.zhengfen.engine.cards import BJ, SJ

Key = tuple[str, int, int]  # category name, rank, length (0 when none)

COUNTERS = {2, 7, 10}


def _real_keys(cards: list[tuple[int, int]]) -> set[Key]:
    """Readings of real cards only (rank 0..12, suit 0..3), by the definitions."""
    n = len(cards)
    ranks = sorted(r for r, _ in cards)
    suits = {s for _, s in cards}
    out: set[Key] = set()
    if 2 <= n <= 4 and len(set(ranks)) == 1:
        out.add(({2: "pair", 3: "triple", 4: "quartet"}[n], ranks[0], 0))
    for k, name in ((2, "pair_sequence"), (3, "triple_sequence"), (4, "quartet_sequence")):
        if n % k == 0 and n // k >= 3:
            distinct = sorted(set(ranks))
            consecutive = distinct == list(range(distinct[0], distinct[0] + len(distinct)))
            if consecutive and all(ranks.count(q) == k for q in distinct):
                out.add((name, distinct[-1], n // k))
    if n >= 5 and len(suits) == 1 and len(set(ranks)) == n and ranks[-1] - ranks[0] == n - 1:
        out.add(("suit_sequence", ranks[-1], n))
    if n == 5:
        for triple in combinations(range(5), 3):
            tr = {cards[i][0] for i in triple}
            if len(tr) != 1:
                continue
            (a, sa), (b, sb) = (cards[i] for i in range(5) if i not in triple)
            if (
                a == b
                or (sa == sb and abs(a - b) == 1)
                or 0 in (a, b)
                or (a in COUNTERS and b in COUNTERS)
            ):
                out.add(("full_house", tr.pop(), 0))
    return out


def brute_keys(card_ids: list[int], jokers_wild: bool = True) -> set[Key]:
    """Every reading of a card set: each joker tried as each of the 52 real cards."""
    n = len(card_ids)
    if n == 1:
        c = card_ids[0]
        return {("single", c >> 2 if c < SJ else 13 + c - SJ, 0)}
    real = [(c >> 2, c & 3) for c in card_ids if c < SJ]
    jokers = [c for c in card_ids if c >= SJ]
    if jokers and not jokers_wild:
        return set()
    if not jokers:
        r = sorted(x for x, _ in real)
        if r == [12, 12, 12, 12]:
            return {("special", 2, 0)}
        if r == [2, 7, 10]:
            return {("special", 1 if len({s for _, s in real}) == 1 else 0, 0)}
    out: set[Key] = set()
    for subs in product([(r, s) for r in range(13) for s in range(4)], repeat=len(jokers)):
        out |= _real_keys(real + list(subs))
    return out


def brute_plays(hand: list[int], jokers_wild: bool = True) -> set[tuple[int, Key]]:
    """Every (card set, reading) from a hand: every subset times every reading."""
    out: set[tuple[int, Key]] = set()
    for size in range(1, len(hand) + 1):
        for subset in combinations(hand, size):
            mask = sum(1 << c for c in subset)
            for key in brute_keys(list(subset), jokers_wild):
                out.add((mask, key))
    return out


__all__ = ["BJ", "SJ", "brute_keys", "brute_plays"]


SEQUENCE_NAMES = {"pair_sequence", "triple_sequence", "quartet_sequence", "suit_sequence"}


def brute_beats(play: Key, top: Key, equal_lengths: bool = False) -> bool:
    """The rulings' comparison, written out case by case from RULINGS.md 16, 18 and 19."""
    if play[0] == "special" and top[0] == "special":
        return play[1] > top[1]
    if play[0] == "special":
        return True
    if top[0] == "special" or play[0] != top[0]:
        return False
    if play[0] in SEQUENCE_NAMES:
        if equal_lengths and play[2] != top[2]:
            return False
        if play[1] != top[1]:
            return play[1] > top[1]
        return play[2] > top[2]
    return play[1] > top[1]


# --- a hand's state machine, from RULINGS.md 5-9 ------------------------------------------------
#
# Written from the rulings' text, sharing nothing with zfrec.games.zhengfen.engine.game: a position
# is a plain tuple, the plays come from brute_plays and brute_beats above, and every rule is spelled
# out where it applies.

Position = tuple[
    tuple[frozenset[int], ...],  # the cards each seat holds
    int,  # the seat to act
    Key | None,  # the play to beat (None: the seat to act leads)
    int | None,  # who made it
    frozenset[int],  # the seats that passed since it was made
    bool,  # the last holder's one turn is being taken (ruling 9)
    bool,  # the hand is over
]


def _holders(hands: tuple[frozenset[int], ...]) -> list[int]:
    return [s for s, h in enumerate(hands) if h]


def _after(seat: int, hands: tuple[frozenset[int], ...]) -> int:
    """The next seat in play order that still holds cards (rulings 1 and 8)."""
    n = len(hands)
    for step in range(1, n + 1):
        if hands[(seat + step) % n]:
            return (seat + step) % n
    raise AssertionError("nobody holds cards")


@dataclass
class BruteCounts:
    nodes: list[int]
    tricks: int = 0
    outs: int = 0
    self_overplays: int = 0
    leads_passed_on: int = 0
    last_turns: int = 0
    hands_over: int = 0


def _take_trick(
    hands: tuple[frozenset[int], ...], winner: int, last: bool, counts: BruteCounts
) -> Position:
    """Ruling 6: the top player wins the trick and leads; ruling 8: if they are out, the next
    seat holding cards leads; ruling 9: after the last holder's turn nothing follows."""
    counts.tricks += 1
    if last:
        counts.hands_over += 1
        return (hands, winner, None, None, frozenset(), False, True)
    leader = winner if hands[winner] else _after(winner, hands)
    counts.leads_passed_on += leader != winner
    return (hands, leader, None, None, frozenset(), False, False)


def brute_moves(
    position: Position, jokers_wild: bool, equal_lengths: bool
) -> list[tuple[int, Key] | None]:
    """What the seat to act may do: every play of its cards that may be played here (all of
    them on a lead, ruling 5; those beating the top otherwise), and None, a pass, when
    following. Nothing once the hand is over."""
    hands, turn, top, _, _, _, over = position
    if over:
        return []
    plays = sorted(_plays_of(hands[turn], jokers_wild))
    if top is None:
        return list(plays)
    return [p for p in plays if brute_beats(p[1], top, equal_lengths)] + [None]


_PLAYS: dict[tuple[frozenset[int], bool], set[tuple[int, Key]]] = {}


def _plays_of(hand: frozenset[int], jokers_wild: bool) -> set[tuple[int, Key]]:
    key = (hand, jokers_wild)
    if key not in _PLAYS:
        _PLAYS[key] = brute_plays(sorted(hand), jokers_wild)
    return _PLAYS[key]


def brute_step(
    position: Position,
    move: tuple[int, Key] | None,
    self_overplay: bool,
    counts: BruteCounts,
) -> Position:
    hands, turn, top, top_seat, passed, last_turn, _ = position
    if move is not None:
        mask, key = move
        counts.self_overplays += top_seat == turn
        cards = frozenset(c for c in range(54) if mask >> c & 1)
        hands = tuple(h - cards if s == turn else h for s, h in enumerate(hands))
        counts.outs += not hands[turn]
        if last_turn:  # ruling 9: the last holder beat the top; the trick and hand end
            return _take_trick(hands, turn, True, counts)
        holders = _holders(hands)
        if len(holders) == 1:  # ruling 9: the one seat left gets exactly one turn
            counts.last_turns += 1
            return (hands, holders[0], key, turn, frozenset(), True, False)
        return (hands, _after(turn, hands), key, turn, frozenset(), False, False)
    assert top is not None and top_seat is not None
    if last_turn:  # ruling 9: the last holder passed; the top player takes the final trick
        return _take_trick(hands, top_seat, True, counts)
    if turn == top_seat:  # ruling 7: the top player declines to beat their own play
        return _take_trick(hands, top_seat, False, counts)
    passed = passed | {turn}
    others = set(_holders(hands)) - {top_seat}
    if others <= passed:  # ruling 6: everyone else still holding cards passed in a row
        if self_overplay and hands[top_seat]:  # ruling 7: may beat their own play instead
            return (hands, top_seat, top, top_seat, passed, False, False)
        return _take_trick(hands, top_seat, False, counts)
    return (hands, _after(turn, hands), top, top_seat, passed, False, False)


def brute_perft(
    hands: list[int],
    leader: int,
    depth: int,
    self_overplay: bool = False,
    jokers_wild: bool = True,
    equal_lengths: bool = False,
) -> BruteCounts:
    """The counts of zfrec.games.zhengfen.engine.perft.perft_counts, by this independent state
    machine."""
    start: Position = (
        tuple(frozenset(c for c in range(54) if h >> c & 1) for h in hands),
        leader,
        None,
        None,
        frozenset(),
        False,
        False,
    )
    counts = BruteCounts([0] * depth)

    def walk(position: Position, level: int) -> None:
        if level == depth:
            return
        for move in brute_moves(position, jokers_wild, equal_lengths):
            counts.nodes[level] += 1
            walk(brute_step(position, move, self_overplay, counts), level + 1)

    walk(start, 0)
    return counts


def brute_declared_keys(
    card_ids: list[int], declared: dict[int, tuple[int, int | None]]
) -> set[Key]:
    """Every reading of a card set whose jokers in `declared` (joker id -> rank, suit or None)
    are held to their meaning: a declared joker is tried as the card it names, or as each card
    of its rank when no suit is named; every other joker as each of the 52 real cards."""
    if len(card_ids) == 1:
        return set() if declared else brute_keys(card_ids)
    real = [(c >> 2, c & 3) for c in card_ids if c < SJ]
    options: list[list[tuple[int, int]]] = []
    for j in (c for c in card_ids if c >= SJ):
        if j in declared:
            rank, suit = declared[j]
            options.append([(rank, s) for s in range(4)] if suit is None else [(rank, suit)])
        else:
            options.append([(r, s) for r in range(13) for s in range(4)])
    out: set[Key] = set()
    for subs in product(*options):
        out |= _real_keys(real + list(subs))
    return out
