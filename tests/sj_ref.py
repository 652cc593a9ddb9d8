"""A slow, independent referee for Sheng ji (升级), for cross-checking zfrec.games.shengji.

Written only from shared/seeds/sheng-ji-wikipedia.txt and shared/RULINGS-SHENGJI.md (cited as
"ruling N"), never from the engine's code: it shares nothing with zfrec.games.shengji. Cards are
plain strings ("7h", "Tc", "SJ", "BJ"), hands are lists of them (a card may appear twice), and
every question is answered the obvious way, by enumerating: every way to cut a lead into units,
every same-size card set a hand could play, every way a play could cover a lead's units.

Where the rulings leave a reading open, the reading taken is written down as "READING:".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, pairwise

RANKS = "23456789TJQKA"  # rank value = index + 2, so 2..14
SUITS = "shdc"
TRUMP = "trump"


def parse_card(text: str) -> str:
    """One card in the canonical spelling: rank letter (T for ten) then suit, or SJ/BJ."""
    t = text.strip()
    if t.upper() in ("SJ", "BJ"):
        return t.upper()
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r}")
    rank, suit = t[:-1].upper(), t[-1].lower()
    if rank == "10":
        rank = "T"
    if len(rank) != 1 or rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return rank + suit


def parse_cards(text: str | Sequence[str]) -> list[str]:
    words = text.split() if isinstance(text, str) else list(text)
    return [parse_card(w) for w in words]


def rank_value(card: str) -> int:
    return RANKS.index(card[0]) + 2


def parse_trump(text: str) -> Round:
    """`7c` = rank 7, clubs trump; `7` = rank 7, no-trump (the CLI's --trump)."""
    t = text.strip()
    suit: str | None = None
    if t and t[-1].lower() in SUITS:
        suit, t = t[-1].lower(), t[:-1]
    r = "T" if t == "10" else t.upper()
    if len(r) != 1 or r not in RANKS:
        raise ValueError(f"bad trump: {text!r}")
    return Round(RANKS.index(r) + 2, suit)


@dataclass(frozen=True)
class Round:
    """The round's dominant rank (2..14) and trump suit (None: no-trump)."""

    rank: int
    suit: str | None

    # ---- ruling 3: effective suit and order -------------------------------------------------
    def eff_suit(self, card: str) -> str:
        if card in ("SJ", "BJ"):
            return TRUMP
        if rank_value(card) == self.rank:  # a rank card is trump, never its printed suit
            return TRUMP
        if card[1] == self.suit:
            return TRUMP
        return card[1]

    def order(self, card: str) -> int:
        """The card's place within its effective suit; adjacent places differ by exactly 1.

        Plain suit (and the trump suit's plain cards): 2..A without the rank, so 0..11.
        With a trump suit: off-suit rank cards 12 (all equal), trump-suit rank card 13,
        SJ 14, BJ 15. No-trump: every rank card 0 (all equal), SJ 1, BJ 2.
        """
        plain = [r for r in range(2, 15) if r != self.rank]
        if card == "BJ":
            return 15 if self.suit else 2
        if card == "SJ":
            return 14 if self.suit else 1
        r = rank_value(card)
        if r == self.rank:
            if self.suit is None:
                return 0
            return 13 if card[1] == self.suit else 12
        return plain.index(r)


def points(cards: Iterable[str]) -> int:
    """Ruling 2: each 5 is 5, each 10 and K is 10."""
    return sum(5 if c[0] == "5" else 10 if c[0] in "TK" else 0 for c in cards if c[0] in "5TK")


# ---- ruling 5: units ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """A single (pairs == 0), a pair (pairs == 1) or a tractor (pairs >= 2) of one suit."""

    pairs: int
    cards: tuple[str, ...]
    top: int  # the highest order among its cards

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def kind(self) -> str:
        return "single" if self.pairs == 0 else "pair" if self.pairs == 1 else "tractor"


def is_pair(cards: Sequence[str]) -> bool:
    """Ruling 5: two identical cards (7s 7h, Qs Qd, SJ BJ are not pairs)."""
    return len(cards) == 2 and cards[0] == cards[1]


def is_tractor(cards: Sequence[str], rd: Round) -> bool:
    """Ruling 5: two or more pairs, one effective suit, orders consecutive.

    Two pairs of equal order (7s7s and 7d7d in a 7c round) are not consecutive.
    READING: each card of a tractor appears exactly twice (with three decks a card held three
    times is a pair and a single, never part of a tractor twice).
    """
    if len(cards) < 4 or len(cards) % 2:
        return False
    if len({rd.eff_suit(c) for c in cards}) != 1:
        return False
    counts = Counter(cards)
    if any(n != 2 for n in counts.values()):
        return False
    orders = sorted(rd.order(c) for c in counts)
    return all(b == a + 1 for a, b in pairwise(orders))


def unit_of(cards: Sequence[str], rd: Round) -> Unit | None:
    """The cards as one unit, or None."""
    top = max(rd.order(c) for c in cards)
    if len(cards) == 1:
        return Unit(0, tuple(cards), top)
    if is_pair(cards):
        return Unit(1, tuple(cards), top)
    if is_tractor(cards, rd):
        return Unit(len(cards) // 2, tuple(cards), top)
    return None


def _partitions(cards: list[str], rd: Round) -> Iterator[list[Unit]]:
    """Every way to cut the cards into units (the first card always goes into the next unit)."""
    if not cards:
        yield []
        return
    first, rest = cards[0], cards[1:]
    idx = list(range(len(rest)))
    for k in range(len(rest) + 1):
        if k not in (0, 1) and k % 2 == 0:
            continue  # a unit holds 1, 2 or an even number >= 4 of cards: k+1 of them
        for pick in combinations(idx, k):
            group = [first] + [rest[i] for i in pick]
            u = unit_of(group, rd)
            if u is None:
                continue
            left = [rest[i] for i in idx if i not in pick]
            for tail in _partitions(left, rd):
                yield [u, *tail]


def _unit_key(u: Unit) -> tuple[int, int]:
    return (u.size, u.top)


def decompose(cards: Sequence[str], rd: Round) -> list[Unit]:
    """Ruling 6: a lead read as its largest units: tractors first (longest), then pairs, then
    singles. Of every cut into units, the one whose unit sizes, largest first, are greatest
    (then whose tops are highest); the units are returned largest first, highest first.
    """
    return list(_decompose(tuple(sorted(cards)), rd))


@lru_cache(maxsize=100_000)
def _decompose(cards: tuple[str, ...], rd: Round) -> tuple[Unit, ...]:
    best: list[Unit] | None = None
    best_key: list[tuple[int, int]] = []
    for part in _partitions(sorted(cards, key=lambda c: (-rd.order(c), c)), rd):
        key = sorted((_unit_key(u) for u in part), reverse=True)
        if best is None or key > best_key:
            best, best_key = part, key
    assert best is not None
    return tuple(sorted(best, key=_unit_key, reverse=True))


@dataclass(frozen=True)
class LeadInfo:
    kind: str | None  # single / pair / tractor / throw, None when not a lead
    suit: str | None
    units: list[Unit]
    reason: str = ""


def classify(cards: Sequence[str], rd: Round) -> LeadInfo:
    """Ruling 6: one effective suit, else no lead; one unit is that unit, more is a throw."""
    if not cards:
        return LeadInfo(None, None, [], "no cards")
    suits = {rd.eff_suit(c) for c in cards}
    if len(suits) != 1:
        return LeadInfo(None, None, [], "cards of more than one suit")
    units = decompose(cards, rd)
    kind = units[0].kind if len(units) == 1 else "throw"
    return LeadInfo(kind, suits.pop(), units)


# ---- ruling 7: following -----------------------------------------------------------------------


def max_pairs(cards: Iterable[str]) -> int:
    """How many disjoint pairs (identical cards) the cards hold."""
    return sum(n // 2 for n in Counter(cards).values())


def tractors_in(cards: Iterable[str], length: int, rd: Round) -> list[tuple[str, ...]]:
    """Every tractor of exactly `length` pairs held (as the distinct card kinds, high first)."""
    counts = Counter(cards)
    kinds = [c for c, n in counts.items() if n >= 2]
    out = []
    for combo in combinations(sorted(kinds), length):
        if is_tractor([c for c in combo for _ in (0, 1)], rd):
            out.append(combo)
    return out


def max_tractor_match(cards: Iterable[str], lengths: Sequence[int], rd: Round) -> int:
    """How many of the lead's tractors (of the given lengths) the cards can answer at once, each
    with its own disjoint tractor of the same length (a part of a longer tractor counts).

    READING of ruling 7's "play as many tractors of those lengths as held": the count of the
    lead's tractors matched, each by a tractor of its own length; no preference among them.
    """
    counts = Counter(cards)
    best = 0

    def go(i: int, got: int) -> None:
        nonlocal best
        best = max(best, got)
        if i == len(lengths) or got + (len(lengths) - i) <= best:
            return
        for t in tractors_in(+counts, lengths[i], rd):
            if all(counts[c] >= 2 for c in t):
                for c in t:
                    counts[c] -= 2
                go(i + 1, got + 1)
                for c in t:
                    counts[c] += 2
        go(i + 1, got)

    go(0, 0)
    return best


def is_submultiset(part: Iterable[str], whole: Iterable[str]) -> bool:
    return not (Counter(part) - Counter(whole))


def follow_verdict(
    lead: Sequence[str], hand: Sequence[str], play: Sequence[str], rd: Round
) -> tuple[bool, str]:
    """Ruling 7, checked from its words: same count; as many led-suit cards as possible; then
    as many pairs of the suit as held, up to the lead's pairs (a tractor of L counts L); then
    as many of the lead's tractors as held. Returns (legal, reason)."""
    info = classify(lead, rd)
    assert info.kind is not None, "not a lead"
    suit = info.suit
    n = len(lead)
    if len(play) != n:
        return False, f"must play {n} cards"
    if not is_submultiset(play, hand):
        return False, "cards not in the hand"
    hand_s = [c for c in hand if rd.eff_suit(c) == suit]
    play_s = [c for c in play if rd.eff_suit(c) == suit]
    if len(play_s) != min(n, len(hand_s)):
        return False, "must play as many cards of the led suit as held"
    lead_pairs = sum(u.pairs for u in info.units)
    need_pairs = min(lead_pairs, max_pairs(hand_s))
    if max_pairs(play_s) < need_pairs:
        return False, f"must play {need_pairs} pairs of the led suit"
    lengths = [u.pairs for u in info.units if u.pairs >= 2]
    if lengths:
        need_t = max_tractor_match(hand_s, lengths, rd)
        if max_tractor_match(play_s, lengths, rd) < need_t:
            return False, "must play the tractor(s) held"
    return True, ""


def submultisets(hand: Sequence[str], size: int) -> Iterator[tuple[str, ...]]:
    """Every distinct card set of `size` cards from the hand (identical cards not told apart)."""
    kinds = sorted(Counter(hand).items())

    def go(i: int, left: int, acc: list[str]) -> Iterator[tuple[str, ...]]:
        if left == 0:
            yield tuple(acc)
            return
        if i == len(kinds):
            return
        card, have = kinds[i]
        for take in range(min(have, left), -1, -1):
            yield from go(i + 1, left - take, acc + [card] * take)

    yield from go(0, size, [])


def legal_follows(lead: Sequence[str], hand: Sequence[str], rd: Round) -> set[tuple[str, ...]]:
    """By brute force: every same-size card set of the hand that ruling 7 allows (sorted)."""
    return {
        tuple(sorted(p))
        for p in submultisets(hand, len(lead))
        if follow_verdict(lead, hand, p, rd)[0]
    }


# ---- rulings 8-9: the trick --------------------------------------------------------------------


def cover_top(play: Sequence[str], lead_units: Sequence[Unit], rd: Round) -> int | None:
    """Ruling 9: can the play's cards be cut to match every unit of the lead (a tractor by a
    tractor of its length, a pair by a pair, a single by any card)? If so, the highest top the
    play can give the lead's first (largest) unit; None when it cannot match.

    A pair may stand for two singles and a tractor for as many pairs: both follow, since the
    pair's cards fill the two single places and the tractor's pairs the pair places.
    """
    best: int | None = None

    def go(i: int, left: list[str], first_top: int) -> None:
        nonlocal best
        if i == len(lead_units):
            if best is None or first_top > best:
                best = first_top
            return
        u = lead_units[i]
        for pick in set(combinations(sorted(left), u.size)):
            if u.pairs == 0:
                ok = True
            elif u.pairs == 1:
                ok = is_pair(pick)
            else:
                ok = is_tractor(pick, rd)
            if not ok:
                continue
            rest = list(left)
            for c in pick:
                rest.remove(c)
            top = max(rd.order(c) for c in pick)
            go(i + 1, rest, top if i == 0 else first_top)

    go(0, list(play), -1)
    return best


def trick_winner(plays: Sequence[Sequence[str]], rd: Round) -> int:
    """Rulings 4, 8, 9: the 0-based index of the winning play. Only a play of the lead's format,
    all in the led suit or all in trump, can win; trump beats the led suit; then the higher top
    of the largest unit; the earlier on a tie."""
    info = classify(plays[0], rd)
    assert info.kind is not None, "not a lead"
    led = info.suit
    best = (0, info.units[0].top)
    winner = 0
    for i, play in enumerate(plays[1:], start=1):
        suits = {rd.eff_suit(c) for c in play}
        if len(suits) != 1:
            continue
        s = suits.pop()
        if s not in (led, TRUMP):
            continue
        top = cover_top(play, info.units, rd)
        if top is None:
            continue
        key = (1 if s == TRUMP and led != TRUMP else 0, top)
        if key > best:
            best, winner = key, i
    return winner


def trick_points(plays: Iterable[Iterable[str]]) -> int:
    return sum(points(p) for p in plays)


# ---- ruling 10: throws that fail ---------------------------------------------------------------


def holds_beater(hand: Sequence[str], unit: Unit, suit: str, rd: Round) -> bool:
    """Does the hand hold a unit of the same suit and kind that beats `unit`?

    READING: "same kind" means a single against a single (any card), a pair against a pair and a
    tractor of L pairs against a tractor of L pairs (a part of a longer one counts).
    """
    same = [c for c in hand if rd.eff_suit(c) == suit]
    if unit.pairs == 0:
        return any(rd.order(c) > unit.top for c in same)
    if unit.pairs == 1:
        return any(n >= 2 and rd.order(c) > unit.top for c, n in Counter(same).items())
    return any(max(rd.order(c) for c in t) > unit.top for t in tractors_in(same, unit.pairs, rd))


@dataclass(frozen=True)
class ThrowOutcome:
    stands: bool
    forced: list[str]
    back: list[str]
    blocker: int | None  # 0-based index among the other hands


def throw_outcome(throw: Sequence[str], others: Sequence[Sequence[str]], rd: Round) -> ThrowOutcome:
    """Ruling 10. If any other hand can beat one of the throw's units, the thrower plays the
    beatable unit with the fewest cards, then the lowest, then the one written first; the rest
    goes back.

    READING: "the one written first" for a unit is the position of its first card in the throw
    as written; `blocker` is the first other hand, in play order, that can beat the forced unit;
    the cards taken back keep their written order. A lead of one unit always stands.
    """
    info = classify(throw, rd)
    assert info.kind is not None and info.suit is not None, "not a lead"
    units = info.units
    if len(units) == 1:
        return ThrowOutcome(True, list(throw), [], None)
    beatable = [u for u in units if any(holds_beater(h, u, info.suit, rd) for h in others)]
    if not beatable:
        return ThrowOutcome(True, list(throw), [], None)
    written = list(throw)

    def first_pos(u: Unit) -> int:
        return min(written.index(c) for c in u.cards)

    # Units whose cards are identical to another's (two equal singles 7s and 7d) are told apart
    # by the written position of their own cards.
    forced_u = min(beatable, key=lambda u: (u.size, u.top, first_pos(u)))
    back = list(written)
    forced = []
    for c in sorted(forced_u.cards, key=written.index):
        back.remove(c)
        forced.append(c)
    forced.sort(key=written.index)
    blocker = next(i for i, h in enumerate(others) if holds_beater(h, forced_u, info.suit, rd))
    return ThrowOutcome(False, forced, back, blocker)


# ---- rulings 11-13: kitty and score ------------------------------------------------------------


def kitty_multiplier(last_lead: Sequence[str], rd: Round, kind: str = "power") -> int:
    """Ruling 11: by the lead's largest unit: single 2; pair or tractor of L pairs 2^(L+1)
    (`power`) or 2*(L+1) (`linear`); a pair counts as L = 1."""
    top = decompose(last_lead, rd)[0]
    if top.pairs == 0:
        return 2
    return 2 ** (top.pairs + 1) if kind == "power" else 2 * (top.pairs + 1)


@dataclass(frozen=True)
class Score:
    total: int
    declarers: int
    opponents: int
    swap: bool
    next_dealer: int  # 1-based seat


def level_change(total: int, decks: int = 2) -> tuple[int, int, bool]:
    """Rulings 12 (two decks, steps of 40) and 13 (one deck, steps of 20): (declarers' levels,
    opponents' levels, swap).

    READING: for N decks the seed's "40N is usually used as the point requirement to swap
    teams", with every other boundary scaled the same way (a step is 20N): this gives ruling
    12's table for two decks and ruling 13's for one, and the three decks of zhao pengyou with
    seven or more players swap at 120. Points between the table's rows (possible with
    throw_penalty) fall in the row whose lower bound they reach. One deck below 0 mirrors two
    decks with steps of 20 (declarers +4 for -5..-15, +5 for -20..-35, ...), as ruling 13 is
    silent there.
    """
    step = 20 * decks
    if total < 0:
        return 4 + (-total) // step, 0, False
    if total == 0:
        return 3, 0, False
    if total < step:
        return 2, 0, False
    if total < 2 * step:
        return 1, 0, False
    if total < 5 * step:
        return 0, (total - 2 * step) // step, True
    return 0, 3 + (total - 5 * step) // step, True


def next_dealer(dealer: int, declarers: set[int], swap: bool, players: int) -> int:
    """Ruling 12: the dealer's partner when the declarers hold, else the next seat after the
    dealer (1-based seats).

    READING: with zhao pengyou's changing teams (which ruling 12 does not cover), the first seat
    after the dealer, in play order, of the team that deals next (the dealer's own team, the
    dealer last, when it holds); with four seats and partners opposite this is ruling 12.
    """
    for k in range(1, players + 1):
        seat = (dealer - 1 + k) % players + 1
        if (seat in declarers) != swap:
            return seat
    raise AssertionError("no seat on the team that deals next")


def score(
    pts: int,
    kitty_points: int = 0,
    last: Sequence[str] | None = None,
    last_winner: str | None = None,
    dealer: int = 1,
    rd: Round | None = None,
    decks: int = 2,
    players: int = 4,
    multiplier: str = "power",
    declarers: set[int] | None = None,
) -> Score:
    """Rulings 11-13 as the `zfrec score` verb states them (1-based seats; `declarers` the
    declarers' seats, by default the dealer and the seat opposite)."""
    total = pts
    if last_winner == "opponents" and kitty_points:
        assert last is not None and rd is not None
        total += kitty_points * kitty_multiplier(last, rd, multiplier)
    d, o, swap = level_change(total, decks)
    team = declarers if declarers is not None else {dealer, (dealer + 1) % players + 1}
    return Score(total, d, o, swap, next_dealer(dealer, team, swap, players))


def raise_level(level: int, steps: int, must_defend: str, declarer: bool) -> tuple[int, bool]:
    """Ruling 14: a team at `level` (2..14, A = 14) goes up `steps`: (its new level, whether it
    won the match). `must_defend` is the option as written: "A", "none" or "5,10,K,A".

    A team stops at a level to defend until it wins a round there as declarers; winning as
    declarers at A wins the match. READING: with A not to be defended, passing A wins (the seed:
    "When a team passes (rather than exactly attains) a score of ace ... victory"); a team that
    starts at a level to defend and went up as declarers has just defended it.
    """
    marks = (
        set()
        if must_defend == "none"
        else {RANKS.index(w) + 2 for w in ("T" if x == "10" else x for x in must_defend.split(","))}
    )
    cur = level
    for _ in range(steps):
        if cur in marks and not (declarer and cur == level):
            return cur, False
        if cur == 14:
            return 14, True
        cur += 1
    return cur, False


# ---- ruling 15: bids ---------------------------------------------------------------------------


def bid_strength(cards: Sequence[str], rank: int) -> tuple[int, int, int] | None:
    """Ruling 15: a bid is one rank card, two identical rank cards, or two identical jokers
    (no-trump); a single joker never bids. Strength: more cards, then joker pair over rank pair,
    then big over small. None when the cards are no bid."""
    if len(cards) == 1:
        c = cards[0]
        return (1, 0, 0) if c not in ("SJ", "BJ") and rank_value(c) == rank else None
    if len(cards) == 2 and cards[0] == cards[1]:
        c = cards[0]
        if c == "BJ":
            return (2, 1, 1)
        if c == "SJ":
            return (2, 1, 0)
        return (2, 0, 0) if rank_value(c) == rank else None
    return None


def bid_beats(new: Sequence[str], old: Sequence[str] | None, rank: int) -> bool:
    """Does a new bid (by another team's player) beat the standing one? Equal strength: the
    earlier stands."""
    s = bid_strength(new, rank)
    if s is None:
        return False
    if old is None:
        return True
    t = bid_strength(old, rank)
    assert t is not None
    return s > t


@dataclass(frozen=True)
class Bid:
    seat: int
    cards: tuple[str, ...]
    time: int  # when the bid was first shown: a reinforcement keeps it


def bidding(events: Sequence[tuple[int, Sequence[str]]], rank: int) -> Bid | None:
    """Ruling 15 over a sequence of (seat, cards shown): the bid that stands at the end.

    A bid must beat the standing one (more cards; joker pair over rank pair; big over small). A
    seat may reinforce its own single bid by showing the second copy: the pair keeps the single's
    time, so it beats a later pair of equal strength (the seed's 9♥ example). A seat never adds
    to a partner's bid: only a seat's own single becomes a pair (a partner's second copy is a new
    single, which cannot beat the standing one).
    READING: a shown card set that is neither a valid bid nor a valid reinforcement is refused
    (ValueError); a seat's reinforcement must end stronger than the standing bid or equal to it
    and earlier.
    """
    standing: Bid | None = None
    own: dict[int, Bid] = {}
    for t, (seat, shown) in enumerate(events):
        cards = tuple(shown)
        prev = own.get(seat)
        if prev is not None and len(prev.cards) == 1 and cards == prev.cards:
            cand = Bid(seat, prev.cards + cards, prev.time)
        else:
            cand = Bid(seat, cards, t)
        s = bid_strength(cand.cards, rank)
        if s is None:
            raise ValueError(f"not a bid: {' '.join(cards)}")
        if standing is not None:
            cur = bid_strength(standing.cards, rank)
            assert cur is not None
            if (s, -cand.time) <= (cur, -standing.time):
                raise ValueError(f"does not beat the standing bid: {' '.join(cards)}")
        own[seat] = cand
        standing = cand
    return standing


def bid_trump(bid: Bid | None) -> str | None:
    """The suit a bid makes trump ('' for no-trump, None without a bid)."""
    if bid is None:
        return None
    return "" if bid.cards[0] in ("SJ", "BJ") else bid.cards[0][1]


# ---- perft ---------------------------------------------------------------------------------------


def leads(hand: Sequence[str], rd: Round) -> set[tuple[str, ...]]:
    """Every distinct lead a hand can make (ruling 6): each non-empty card set of one effective
    suit, throws included (sorted tuples)."""
    out: set[tuple[str, ...]] = set()
    by_suit: dict[str, list[str]] = {}
    for c in hand:
        by_suit.setdefault(rd.eff_suit(c), []).append(c)
    for cards in by_suit.values():
        for k in range(1, len(cards) + 1):
            out |= {tuple(sorted(p)) for p in submultisets(cards, k)}
    return out


def card_key(card: str) -> tuple[int, int]:
    """Zheng Fen's card order (3 low .. 2 high, then SJ, BJ; suits s h d c), which the perft
    data's definition uses to break ties between equal cards of a failed throw, for want of a
    written order."""
    if card in ("SJ", "BJ"):
        return (13 if card == "SJ" else 14, 0)
    return ((rank_value(card) - 3) % 13, SUITS.index(card[1]))


def perft_counts(
    hands: Sequence[Sequence[str]], leader: int, rd: Round, depth: int | None = None
) -> list[int]:
    """Nodes per depth from a position, by the definition in tests/data/sj_perft.json: a node is
    one play; a lead is every distinct one-suit card set of the leader's hand, a failed throw
    (against the others' actual hands, in play order after the leader) plays its forced unit and
    takes the rest back; a follow is every legal follow; the trick's winner leads next; a
    sequence that empties every hand stops there. `leader` is 0-based; counts[i] is depth i+1.
    """
    counts: Counter[int] = Counter()
    seats = len(hands)
    held = [Counter(h) for h in hands]

    def take(seat: int, cards: Sequence[str]) -> None:
        held[seat].subtract(cards)

    def give(seat: int, cards: Sequence[str]) -> None:
        held[seat].update(cards)

    def cards_of(seat: int) -> list[str]:
        return [c for c, n in held[seat].items() for _ in range(n)]

    def go(d: int, turn: int, plays: list[tuple[int, tuple[str, ...]]]) -> None:
        if depth is not None and d == depth:
            return
        if not plays:
            if not any(+h for h in held):
                return
            mine = cards_of(turn)
            others = [cards_of((turn + k) % seats) for k in range(1, seats)]
            for lead in sorted(leads(mine, rd)):
                out = throw_outcome(sorted(lead, key=card_key), others, rd)
                play = tuple(sorted(out.forced))
                counts[d + 1] += 1
                take(turn, play)
                go(d + 1, (turn + 1) % seats, [(turn, play)])
                give(turn, play)
            return
        lead = plays[0][1]
        for play in sorted(legal_follows(lead, cards_of(turn), rd)):
            counts[d + 1] += 1
            take(turn, play)
            now = [*plays, (turn, play)]
            if len(now) == seats:
                w = now[trick_winner([p for _, p in now], rd)][0]
                go(d + 1, w, [])
            else:
                go(d + 1, (turn + 1) % seats, now)
            give(turn, play)

    go(0, leader, [])
    return [counts[i] for i in range(1, max(counts, default=0) + 1)]
