"""The repairs of a Sheng ji record's plays, for `zfrec audit` (`zfrec.games.shengji.repair`
ranks and validates them): the edit (`SjEdit`), where a diagnostic points in the record, and the
candidate edits of a play: `substitute` (a card the seat held, a legal follow closest to the
play, a card of the suit nobody shows, a card left out), `swap`, `seat` and `order` (the play
was another seat's; the trick's plays in another order or by the seats in turn), `forced` (a
throw held to another unit, or played whole). Nothing here judges a play: the validator does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from zfrec.diagnostics import Diagnostic
from zfrec.errors import IllegalPlayError
from zfrec.games.shengji.cards import contains, count, distinct, format_hand, one, size
from zfrec.games.shengji.follow import count_follows, legal_follows
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.records import SjMatch, SjMove, SjRound
from zfrec.games.shengji.report import SjReport
from zfrec.numbering import occurrence_at, with_occurrence

__all__ = ["Candidate", "Gen", "SjEdit"]


@dataclass(frozen=True, slots=True)
class SjEdit:
    """One edit: its kind, a phrase ("round 1, trick 17, turn 3 (South) played 7d, not 3s"),
    where, and the text before and after."""

    kind: str
    text: str
    round: int | None = None
    trick: int | None = None
    turn: int | None = None
    seat: int | None = None
    before: str | None = None
    after: str | None = None
    occurrence: int = 1  # 2: in the second round the record numbers `round` (`placed`)

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        return with_occurrence({
            "kind": self.kind, "text": self.text, "hand": self.round, "round": self.round,
            "trick": self.trick, "turn": self.turn,
            "player": players[self.seat] if self.seat is not None else None,
            "before": self.before, "after": self.after,
        }, self.occurrence, "round")  # fmt: skip


def placed(match: SjMatch, edit: SjEdit, candidate: SjMatch) -> SjEdit:
    """`edit` with the occurrence of the round it changes: the first round of `candidate` that
    is not `match`'s own (each edit copies the rounds it changes, or drops them), where its
    number is the edit's and was written before (the text's `round 1 (2nd)`)."""
    index = next(
        (i for i, r in enumerate(match.rounds)
         if i >= len(candidate.rounds) or candidate.rounds[i] is not r),
        None,
    )  # fmt: skip
    if index is None or match.rounds[index].number != edit.round:
        return edit
    occurrence = occurrence_at([r.number for r in match.rounds], index)
    return edit if occurrence == 1 else replace(edit, occurrence=occurrence)


Candidate = tuple[SjEdit, SjMatch]


def round_index(match: SjMatch, d: Diagnostic) -> int | None:
    number = d.location.hand
    line = d.location.line
    if line is not None:
        best = None
        for i, r in enumerate(match.rounds):
            if r.pos is not None and r.pos[0] <= line:
                best = i
        if best is not None:
            return best
    return next((i for i, r in enumerate(match.rounds) if r.number == number), None)


def move_at(match: SjMatch, d: Diagnostic) -> tuple[int, int, int] | None:
    """(round index, trick index, move index) of the move a diagnostic is at."""
    ri = round_index(match, d)
    if ri is None or d.location.trick is None:
        return None
    rnd = match.rounds[ri]
    ti = d.location.trick - 1
    if not 0 <= ti < len(rnd.tricks):
        return None
    moves = rnd.tricks[ti].moves
    if d.location.line is not None:
        for mi, m in enumerate(moves):
            if m.pos is not None and (m.pos[0], m.pos[1]) == (d.location.line, d.location.col):
                return ri, ti, mi
    if d.location.turn is not None and 0 < d.location.turn <= len(moves):
        return ri, ti, d.location.turn - 1
    return None


def with_round(match: SjMatch, ri: int, rnd: SjRound) -> SjMatch:
    rounds = list(match.rounds)
    rounds[ri] = rnd
    return replace(match, rounds=rounds)


def with_moves(match: SjMatch, ri: int, changes: dict[tuple[int, int], SjMove]) -> SjMatch:
    rnd = match.rounds[ri]
    tricks = list(rnd.tricks)
    for (ti, mi), move in changes.items():
        moves = list(tricks[ti].moves)
        moves[mi] = move
        tricks[ti] = replace(tricks[ti], moves=moves)
    return with_round(match, ri, replace(rnd, tricks=tricks))


def where(match: SjMatch, ri: int, ti: int, mi: int) -> str:
    m = match.rounds[ri].tricks[ti].moves[mi]
    return (f"{match.round_said(ri)}, trick {ti + 1}, turn {mi + 1} "
            f"({match.players[m.seat]})")  # fmt: skip


def swap_card(cards: int, out: int, into: int) -> int:
    return cards - one(out) + one(into)


Gen = Callable[[SjMatch, SjReport, Diagnostic], Iterator[Candidate]]


def swaps(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card of the play exchanged with a card of another play of the same seat."""
    at = move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    rnd = match.rounds[ri]
    m = rnd.tricks[ti].moves[mi]
    lead = rnd.tricks[ti].moves[0]
    order = rnd.order()
    led = None
    if order is not None and mi > 0:
        try:
            led = classify(order, lead.cards).esuit
        except IllegalPlayError:  # a lead that is none: any card may do
            led = None
    others: list[tuple[int, int, SjMove]] = [
        (tj, mj, x) for tj, t in enumerate(rnd.tricks) for mj, x in enumerate(t.moves)
        if x.seat == m.seat and (tj, mj) != (ti, mi) and not x.failed
    ]  # fmt: skip
    # cards of the led suit first: the likeliest slip of a follow
    if order is not None and led is not None:
        others.sort(key=lambda o: not o[2].cards & order.suit_mask[led])
    for tj, mj, x in others:
        for a in distinct(m.played):
            for b in distinct(x.cards):
                if a == b:
                    continue
                na, nb = swap_card(m.cards, a, b), swap_card(x.cards, b, a)
                new_m = replace(m, cards=na, forced=None if m.forced is None else na)
                new_x = replace(x, cards=nb)
                if m.forced is not None:
                    continue
                edit = SjEdit(
                    "swap", f"{where(match, ri, ti, mi)} played {format_hand(na)} and "
                    f"trick {tj + 1} {format_hand(nb)} (the {word(a)} and {word(b)} exchanged)",
                    rnd.number, ti + 1, mi + 1, m.seat, format_hand(m.cards), format_hand(na),
                )  # fmt: skip
                yield edit, with_moves(match, ri, {(ti, mi): new_m, (tj, mj): new_x})


def word(cid: int) -> str:
    return format_hand(one(cid))


def orders(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """The trick's plays in another order: a rotation, or two neighbours exchanged."""
    at = move_at(match, d)
    if at is None:
        return
    ri, ti, _ = at
    rnd = match.rounds[ri]
    trick = rnd.tricks[ti]
    moves = trick.moves
    n = len(moves)
    orders: list[list[int]] = [list(range(k, n)) + list(range(k)) for k in range(1, n)]
    for i in range(n - 1):
        o = list(range(n))
        o[i], o[i + 1] = o[i + 1], o[i]
        orders.append(o)
    for o in orders:
        new = [replace(moves[k], pos=moves[j].pos) for j, k in enumerate(o)]
        tricks = list(rnd.tricks)
        tricks[ti] = replace(trick, moves=new)
        seats = " ".join(match.players[moves[k].seat] for k in o)
        edit = SjEdit("order", f"{match.round_said(rnd)}, trick {ti + 1} was played in the order "
                      f"{seats}", rnd.number, ti + 1, None, None,
                      " ".join(match.players[m.seat] for m in moves), seats)  # fmt: skip
        yield edit, with_round(match, ri, replace(rnd, tricks=tricks))


def reseats(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """The trick's plays in the order written, made by the seats in turn from another leader:
    the cards right, the names written against them wrong."""
    at = move_at(match, d)
    if at is None:
        return
    ri, ti, _ = at
    rnd = match.rounds[ri]
    trick = rnd.tricks[ti]
    moves, n = trick.moves, len(match.players)
    if len(moves) != n:
        return
    names = match.players

    def text(ms: Sequence[SjMove]) -> str:
        return "  ".join(f"{names[m.seat]}: {format_hand(m.cards)}" for m in ms)

    for lead in range(n):
        new = [replace(m, seat=(lead + k) % n) for k, m in enumerate(moves)]
        if [m.seat for m in new] == [m.seat for m in moves]:
            continue
        tricks = list(rnd.tricks)
        tricks[ti] = replace(trick, moves=new)
        edit = SjEdit("seat", f"{match.round_said(rnd)}, trick {ti + 1} was played {text(new)}",
                      rnd.number, ti + 1, None, None, text(moves), text(new))  # fmt: skip
        yield edit, with_round(match, ri, replace(rnd, tricks=tricks))


def forced_parts(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A throw held to each of its units in turn, or played whole."""
    at = move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    rnd = match.rounds[ri]
    m = rnd.tricks[ti].moves[mi]
    order = rnd.order()
    if order is None:
        return
    if m.failed:
        whole = replace(m, forced=None, blocker=None)
        yield (SjEdit("forced", f"{where(match, ri, ti, mi)}'s throw "
                      f"{format_hand(m.cards)} stood", rnd.number, ti + 1, mi + 1, m.seat,
                      format_hand(m.played), format_hand(m.cards)),
               with_moves(match, ri, {(ti, mi): whole}))  # fmt: skip
    try:
        units = classify(order, m.cards).units
    except IllegalPlayError:  # no lead: nothing to hold it to
        return
    for u in sorted(units, key=lambda u: (u.size, u.top)):
        part = sum(one(c) for c in u.ids)
        if part == m.played and m.failed:
            continue
        edit = SjEdit("forced", f"{where(match, ri, ti, mi)}'s throw {format_hand(m.cards)} "
                      f"was held to {format_hand(part)}", rnd.number, ti + 1, mi + 1, m.seat,
                      format_hand(m.played), format_hand(part))  # fmt: skip
        yield edit, with_moves(match, ri, {(ti, mi): replace(m, forced=part, blocker=None)})


def played_by(rnd: SjRound, seat: int) -> int:
    return sum(m.played for t in rnd.tricks for m in t.moves if m.seat == seat)


def leftover(match: SjMatch, base: SjReport, ri: int, seat: int) -> int:
    """Cards the seat held at play (as the validator rebuilt them) that it never plays."""
    lg = next((x for x in base.rounds if x.index == ri), None)  # its number may repeat
    if lg is None:
        return 0
    held, played = lg.deal[seat], played_by(match.rounds[ri], seat)
    out = 0
    for c in distinct(held):
        extra = count(held, c) - count(played, c)
        if extra > 0:
            out += extra * one(c)
    return out


def substitutes(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card of the play replaced by one the seat held and never plays in the record."""
    at = move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    m = match.rounds[ri].tricks[ti].moves[mi]
    if m.failed:
        return
    for b in distinct(leftover(match, base, ri, m.seat)):
        for a in distinct(m.cards):
            yield played(match, at, swap_card(m.cards, a, b))


def unseen_cards(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card the seat does not hold (a copy too many, say) replaced by one of its suit that
    the round's lines show fewer times than the decks hold: a card nobody shows, where the
    seat's hand is not written whole."""
    at = move_at(match, d)
    rules = base.rules
    if at is None or rules is None:
        return
    ri, ti, mi = at
    rnd = match.rounds[ri]
    m = rnd.tricks[ti].moves[mi]
    if m.failed or (rnd.deal is not None and not rnd.deal[m.seat].unknown):
        return
    seen = sum(x.cards if x.failed else x.played for t in rnd.tricks for x in t.moves)
    for line in (*(rnd.deal or ()), rnd.kitty):
        if line is not None:
            seen += line.known
    for a in distinct(m.cards):
        if a >= 52:
            continue
        for b in range(a & 3, 52, 4):  # the same suit letter
            if b != a and count(seen, b) < rules.decks:
                yield played(match, at, swap_card(m.cards, a, b))


def played(match: SjMatch, at: tuple[int, int, int], new: int) -> Candidate:
    """The candidate in which the move at `at` (round, trick, move indices) played `new`."""
    ri, ti, mi = at
    m = match.rounds[ri].tricks[ti].moves[mi]
    edit = SjEdit("substitute", f"{where(match, ri, ti, mi)} played {format_hand(new)}, "
                  f"not {format_hand(m.cards)}", match.rounds[ri].number, ti + 1, mi + 1,
                  m.seat, format_hand(m.cards), format_hand(new))  # fmt: skip
    return edit, with_moves(match, ri, {(ti, mi): replace(m, cards=new)})


def follows(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """The play made one of the legal follows of the seat's hand there with the most cards in
    common with it (a card left out or one too many: a play cut short, say). Follows of cards
    the record shows the seat holding come first: a card the rebuild guessed is only filler
    (DIAGNOSTICS.md, Sheng ji), so a follow that needs one is offered after them."""
    at = move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    rnd = match.rounds[ri]
    lg = next((x for x in base.rounds if x.index == ri), None)  # its number may repeat
    order = rnd.order()
    if lg is None or order is None or mi == 0:
        return
    m = rnd.tricks[ti].moves[mi]
    before = played_by(replace(rnd, tricks=rnd.tricks[:ti]), m.seat)
    if not contains(lg.deal[m.seat], before):  # plays before it the hand cannot make
        return
    hand = lg.deal[m.seat] - before
    try:
        lead = classify(order, rnd.tricks[ti].moves[0].played)
    except IllegalPlayError:
        return
    if count_follows(order, lead, hand) > 200:  # a void hand's follows: too many to try
        return
    guessed = lg.guessed[m.seat] if lg.guessed else 0

    def filler(f: int) -> int:  # the cards of `f` beyond the copies the record shows
        return sum(max(0, count(f, c) - count(hand, c) + count(guessed, c)) for c in distinct(f))

    scored = sorted(
        ((filler(f), -sum(min(count(f, c), count(m.cards, c)) for c in distinct(f)), i, f)
         for i, f in enumerate(legal_follows(order, lead, hand)) if f != m.cards),
    )  # fmt: skip
    # the three likeliest of the cards shown, then of those that need a guessed card (the
    # edited record is validated: a guessed card no line shows may be the one the play missed)
    for *_, f in [x for x in scored if not x[0]][:3] + [x for x in scored if x[0]][:3]:
        yield played(match, at, f)


def shrinks(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card of the play left out (written in it by mistake)."""
    at = move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    m = match.rounds[ri].tricks[ti].moves[mi]
    if m.failed or size(m.cards) < 2:
        return
    for a in distinct(m.cards):
        yield played(match, at, m.cards - one(a))


def seats(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """The play written for the wrong seat."""
    at = move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    m = match.rounds[ri].tricks[ti].moves[mi]
    for s in range(len(match.players)):
        if s != m.seat:
            edit = SjEdit("seat", f"{where(match, ri, ti, mi)} was {match.players[s]}'s play",
                          match.rounds[ri].number, ti + 1, mi + 1, s, match.players[m.seat],
                          match.players[s])  # fmt: skip
            yield edit, with_moves(match, ri, {(ti, mi): replace(m, seat=s)})
