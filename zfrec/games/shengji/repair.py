"""The smallest repairs of a broken Sheng ji record, for `zfrec audit` (ANALYSIS.md, Sheng ji).

Candidate edits are generated from the record's first error (the root the others follow
from), most targeted first; each is applied to a copy of the record and the copy validated
whole (`validate_match`). Nothing here judges a play: a candidate is kept when the validator
finds fewer errors in it. Ranked by the number of edits, then the errors and warnings left,
then the order found. Once a repair makes the record legal only such repairs are listed; when
no single edit does, the two best partial repairs are extended by a second edit.

The edits (`SjEdit.kind`), by the error they answer:

- `substitute` (SJ101, SJ201, SJ102): a card of the play replaced by one the seat held and
  never plays, or left out; `swap`: a card exchanged with one of the seat's other plays;
- `seat` (SJ202, SJ203), `order` (SJ202, SJ203): the play was another seat's; the trick's
  plays in another order;
- `forced` (SJ103, SJ104): the throw held to another of its units, or played whole;
- `deal_swap` (SJ102, SJ301), `deal_move` (SJ302, SJ303): a card exchanged between two deal
  lines or replaced by one nobody was dealt; a card moved between lines, or put back;
- `bid` (SJ401-SJ404): the bid left out, or made with other rank cards;
- `trump`, `dealer`, `rank` (SJ405, SJ304, SJ505): the round's header written otherwise;
- `calls`, `join` (SJ406, SJ407): a call left out; the join mark moved;
- `points`, `result` (SJ501-SJ504, SJ506): every written figure as computed;
- `drop` (SJ204, SJ507): the tricks after the round's end, the rounds after the match, out;
- `read` (ZF001): what the reader could not read, read as its suggestion (the record's .zfn
  text with the suggested card in place, read again).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from zfrec.diagnostics import Diagnostic, first_error
from zfrec.errors import IllegalPlayError, ZfrecError
from zfrec.games.shengji.cards import contains, count, distinct, format_hand, one, size
from zfrec.games.shengji.follow import count_follows, legal_follows
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.notation import (
    call_text,
    levels_text,
    outcome_text,
    points_text,
    result_text,
)
from zfrec.games.shengji.records import (
    TRUMPS,
    SjCards,
    SjLevels,
    SjMatch,
    SjMatchResult,
    SjMove,
    SjOutcome,
    SjPoints,
    SjRound,
)
from zfrec.games.shengji.replayer import validate_match
from zfrec.games.shengji.report import SjReport
from zfrec.games.shengji.rules import level_text

__all__ = ["SjEdit", "SjRepair", "search_repairs"]


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

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        return {
            "kind": self.kind, "text": self.text, "hand": self.round, "round": self.round,
            "trick": self.trick, "turn": self.turn,
            "player": players[self.seat] if self.seat is not None else None,
            "before": self.before, "after": self.after,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class SjRepair:
    """Edits that, applied together, leave `report`'s errors in `record`."""

    edits: tuple[SjEdit, ...]
    record: SjMatch
    report: SjReport
    order: int

    @property
    def ok(self) -> bool:
        return self.report.errors == 0

    @property
    def rank_key(self) -> tuple[int, int, int, int]:
        return len(self.edits), self.report.errors, self.report.warnings, self.order

    def text(self) -> str:
        what = " and ".join(e.text for e in self.edits)
        return f"legal if {what}" if self.ok else f"{self.report.errors} error(s) left if {what}"

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        return {
            "text": self.text(), "ok": self.ok, "size": len(self.edits),
            "errors": self.report.errors, "warnings": self.report.warnings,
            "edits": [e.to_json(players) for e in self.edits],
            "remaining": [d.to_json() for d in self.report.diagnostics
                          if d.severity in ("error", "warning")],
        }  # fmt: skip


Candidate = tuple[SjEdit, SjMatch]


def search_repairs(
    match: SjMatch, base: SjReport, budget: int, keep: int = 5
) -> tuple[list[SjRepair], int]:
    """Ranked repairs of `match` (whose report is `base`) within `budget` validations, and how
    many candidates were validated."""
    found, tried = _search(match, base, budget, (), 0)
    if not any(r.ok for r in found):
        partial = sorted(found, key=lambda r: r.rank_key)[:2]
        for step in partial:
            left = max(0, budget - tried) // max(1, len(partial))
            if left == 0:
                break
            more, used = _search(step.record, step.report, left, step.edits, len(found))
            tried += used
            found += more
    found.sort(key=lambda r: r.rank_key)
    if any(r.ok for r in found):
        found = [r for r in found if r.ok]
    seen: set[frozenset[str]] = set()
    unique = []
    for r in found:  # the same edits found in another order are one repair
        edits = frozenset(e.text for e in r.edits)
        if edits not in seen:
            seen.add(edits)
            unique.append(r)
    return unique[:keep], tried


def _search(
    match: SjMatch, base: SjReport, budget: int, prior: tuple[SjEdit, ...], start: int
) -> tuple[list[SjRepair], int]:
    found: list[SjRepair] = []
    tried = 0
    clean_at: int | None = None
    seen: set[str] = set()
    for edit, candidate in candidates(match, base):
        if tried >= budget or len([r for r in found if r.ok]) >= 5:
            break
        if clean_at is not None and tried - clean_at > 40:
            break
        if edit.text in seen:
            continue
        seen.add(edit.text)
        tried += 1
        try:
            report = validate_match(candidate)
        except ZfrecError:  # a candidate the engine cannot take is no repair
            continue
        if report.errors < base.errors:
            found.append(SjRepair((*prior, edit), candidate, report, start + tried))
            if report.errors == 0 and clean_at is None:
                clean_at = tried
    return found, tried


def candidates(match: SjMatch, base: SjReport) -> Iterator[Candidate]:
    """Every candidate edit for the record's first error, then for the written figures."""
    first = first_error(base.diagnostics)
    if first is None:
        return
    codes = {d.code for d in base.diagnostics if d.severity == "error"}
    gens = GENERATORS.get(first.code, ())
    for gen in gens:
        yield from gen(match, base, first)
    if codes & {"SJ501", "SJ502", "SJ503", "SJ504", "SJ506"}:
        yield from _figures(match, base, first)


# --- where a diagnostic points ---------------------------------------------------------------


def _round_index(match: SjMatch, d: Diagnostic) -> int | None:
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


def _move_at(match: SjMatch, d: Diagnostic) -> tuple[int, int, int] | None:
    """(round index, trick index, move index) of the move a diagnostic is at."""
    ri = _round_index(match, d)
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


def _with_round(match: SjMatch, ri: int, rnd: SjRound) -> SjMatch:
    rounds = list(match.rounds)
    rounds[ri] = rnd
    return replace(match, rounds=rounds)


def _with_moves(match: SjMatch, ri: int, changes: dict[tuple[int, int], SjMove]) -> SjMatch:
    rnd = match.rounds[ri]
    tricks = list(rnd.tricks)
    for (ti, mi), move in changes.items():
        moves = list(tricks[ti].moves)
        moves[mi] = move
        tricks[ti] = replace(tricks[ti], moves=moves)
    return _with_round(match, ri, replace(rnd, tricks=tricks))


def _where(match: SjMatch, ri: int, ti: int, mi: int) -> str:
    m = match.rounds[ri].tricks[ti].moves[mi]
    return (f"round {match.rounds[ri].number}, trick {ti + 1}, turn {mi + 1} "
            f"({match.players[m.seat]})")  # fmt: skip


def _swap_card(cards: int, out: int, into: int) -> int:
    return cards - one(out) + one(into)


# --- generators ------------------------------------------------------------------------------

Gen = Callable[[SjMatch, SjReport, Diagnostic], Iterator[Candidate]]


def _swaps(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card of the play exchanged with a card of another play of the same seat."""
    at = _move_at(match, d)
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
                na, nb = _swap_card(m.cards, a, b), _swap_card(x.cards, b, a)
                new_m = replace(m, cards=na, forced=None if m.forced is None else na)
                new_x = replace(x, cards=nb)
                if m.forced is not None:
                    continue
                edit = SjEdit(
                    "swap", f"{_where(match, ri, ti, mi)} played {format_hand(na)} and "
                    f"trick {tj + 1} {format_hand(nb)} (the {_c(a)} and {_c(b)} exchanged)",
                    rnd.number, ti + 1, mi + 1, m.seat, format_hand(m.cards), format_hand(na),
                )  # fmt: skip
                yield edit, _with_moves(match, ri, {(ti, mi): new_m, (tj, mj): new_x})


def _c(cid: int) -> str:
    return format_hand(one(cid))


def _order(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """The trick's plays in another order: a rotation, or two neighbours exchanged."""
    at = _move_at(match, d)
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
        edit = SjEdit("order", f"round {rnd.number}, trick {ti + 1} was played in the order "
                      f"{seats}", rnd.number, ti + 1, None, None,
                      " ".join(match.players[m.seat] for m in moves), seats)  # fmt: skip
        yield edit, _with_round(match, ri, replace(rnd, tricks=tricks))


def _reseat(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """The trick's plays in the order written, made by the seats in turn from another leader:
    the cards right, the names written against them wrong."""
    at = _move_at(match, d)
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
        edit = SjEdit("seat", f"round {rnd.number}, trick {ti + 1} was played {text(new)}",
                      rnd.number, ti + 1, None, None, text(moves), text(new))  # fmt: skip
        yield edit, _with_round(match, ri, replace(rnd, tricks=tricks))


def _forced(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A throw held to each of its units in turn, or played whole."""
    at = _move_at(match, d)
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
        yield (SjEdit("forced", f"{_where(match, ri, ti, mi)}'s throw "
                      f"{format_hand(m.cards)} stood", rnd.number, ti + 1, mi + 1, m.seat,
                      format_hand(m.played), format_hand(m.cards)),
               _with_moves(match, ri, {(ti, mi): whole}))  # fmt: skip
    try:
        units = classify(order, m.cards).units
    except IllegalPlayError:  # no lead: nothing to hold it to
        return
    for u in sorted(units, key=lambda u: (u.size, u.top)):
        part = sum(one(c) for c in u.ids)
        if part == m.played and m.failed:
            continue
        edit = SjEdit("forced", f"{_where(match, ri, ti, mi)}'s throw {format_hand(m.cards)} "
                      f"was held to {format_hand(part)}", rnd.number, ti + 1, mi + 1, m.seat,
                      format_hand(m.played), format_hand(part))  # fmt: skip
        yield edit, _with_moves(match, ri, {(ti, mi): replace(m, forced=part, blocker=None)})


def _played_by(rnd: SjRound, seat: int) -> int:
    return sum(m.played for t in rnd.tricks for m in t.moves if m.seat == seat)


def _deal_swaps(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card missing from a seat's deal taken from another line (deal or kitty) in exchange
    for one the seat never plays; a third copy replaced by a card nobody was dealt."""
    ri = _round_index(match, d)
    if ri is None:
        return
    rnd = match.rounds[ri]
    if rnd.deal is None:
        return
    at = _move_at(match, d)
    n = len(rnd.deal)
    lines: list[tuple[str, SjCards | None]] = [(f"deal {s + 1}", rnd.deal[s]) for s in range(n)]
    lines += [("kitty", rnd.kitty), ("discard", rnd.discard)]
    if at is not None:
        m = rnd.tricks[at[1]].moves[at[2]]
        seat = m.seat
        mine = rnd.deal[seat]
        missing = [c for c in distinct(m.played) if not count(mine.known, c)]
        spare = [c for c in distinct(mine.known)
                 if count(mine.known, c) > count(_played_by(rnd, seat), c)]  # fmt: skip
        for a in missing:
            for j, (name, line) in enumerate(lines):
                if j == seat or line is None or not count(line.known, a):
                    continue
                for b in spare:
                    new = _exchange(rnd, seat, j, a, b)
                    edit = SjEdit("deal_swap", f"{match.players[seat]} was dealt {_c(a)} "
                                  f"instead of {_c(b)} (and {name} {_c(b)} instead of {_c(a)})",
                                  rnd.number, None, None, seat, _c(b), _c(a))  # fmt: skip
                    yield edit, _with_round(match, ri, new)
    if d.code == "SJ301":
        rules = base.rules
        if rules is None:
            return
        from collections import Counter

        dealt: Counter[int] = Counter()
        for _, line in lines[: n + 1]:
            if line is not None:
                dealt.update({c: count(line.known, c) for c in distinct(line.known)})
        nobody = [c for c in range(54) if dealt[c] < rules.decks]
        overs = [c for c, k in dealt.items() if k > rules.decks]
        for a in overs:  # a copy too many: replaced, in whichever line holds it, by a card
            for who in range(n):  # nobody was dealt
                if not count(rnd.deal[who].known, a):
                    continue
                for b in nobody:
                    new = _exchange(rnd, who, None, b, a)
                    said = f"{match.players[who]} was dealt {_c(b)}, not {_c(a)}"
                    edit = SjEdit("deal_swap", said, rnd.number, None, None, who, _c(a), _c(b))
                    yield edit, _with_round(match, ri, new)


def _exchange(rnd: SjRound, seat: int, j: int | None, a: int, b: int) -> SjRound:
    """Seat's deal gets `a` for `b`; line `j` (a deal, or n: kitty, n+1: discard) `b` for `a`."""
    assert rnd.deal is not None
    deal = list(rnd.deal)
    n = len(deal)
    deal[seat] = replace(deal[seat], known=_swap_card(deal[seat].known, b, a))
    kitty, discard = rnd.kitty, rnd.discard
    if j is not None and j < n:
        deal[j] = replace(deal[j], known=_swap_card(deal[j].known, a, b))
    elif j == n and kitty is not None:
        kitty = replace(kitty, known=_swap_card(kitty.known, a, b))
    elif j == n + 1 and discard is not None:
        discard = replace(discard, known=_swap_card(discard.known, a, b))
    return replace(rnd, deal=tuple(deal), kitty=kitty, discard=discard)


def _sizes(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card moved from a line too long to one too short (a deal or the kitty)."""
    ri = _round_index(match, d)
    rules = base.rules
    if ri is None or rules is None:
        return
    rnd = match.rounds[ri]
    if rnd.deal is None:
        return
    n = len(rnd.deal)
    want = [rules.hand_size] * n + [rules.kitty]
    lines = [*rnd.deal, rnd.kitty or SjCards()]
    have = [size(x.known) + x.unknown for x in lines]
    longs = [i for i in range(n + 1) if have[i] > want[i]]
    shorts = [i for i in range(n + 1) if have[i] < want[i]]
    if shorts and not longs:  # a card left out: one nobody was dealt, put back
        held = sum((x.known for x in lines), 0)
        if rnd.kitty is None and rnd.discard is not None:
            held += rnd.discard.known
        for j in shorts:
            for c in range(54):
                if count(held, c) >= rules.decks:
                    continue
                new_lines = list(lines)
                new_lines[j] = replace(lines[j], known=lines[j].known + one(c))
                new = replace(rnd, deal=tuple(new_lines[:n]),
                              kitty=new_lines[n] if rnd.kitty is not None else None)  # fmt: skip
                where = "the kitty" if j == n else f"{match.players[j]}'s deal"
                yield (SjEdit("deal_move", f"{_c(c)} was in {where} too", rnd.number, None,
                              None, j if j < n else None, None, _c(c)),
                       _with_round(match, ri, new))  # fmt: skip
    for i in longs:
        for c in distinct(lines[i].known):
            targets: list[int | None] = [*shorts] or [None]
            for to_line in targets:
                new_lines = list(lines)
                new_lines[i] = replace(lines[i], known=lines[i].known - one(c))
                if to_line is not None:
                    new_lines[to_line] = replace(
                        lines[to_line], known=lines[to_line].known + one(c)
                    )
                new = replace(rnd, deal=tuple(new_lines[:n]),
                              kitty=new_lines[n] if rnd.kitty is not None else None)  # fmt: skip
                said = (f"{_c(c)} was not in {_line_name(match, i, n)}" if to_line is None else
                        f"{_c(c)} was in {_line_name(match, to_line, n)}, not "
                        f"{_line_name(match, i, n)}")  # fmt: skip
                edit = SjEdit("deal_move", said, rnd.number, None, None, i if i < n else None,
                              _c(c), None)  # fmt: skip
                yield edit, _with_round(match, ri, new)


def _line_name(match: SjMatch, k: int, n: int) -> str:
    return "the kitty" if k == n else f"{match.players[k]}'s deal"


def _bids_at(match: SjMatch, rnd: SjRound, d: Diagnostic) -> list[int]:
    """The bids a diagnostic may be about: those at its place (the last first), else the
    bids of its seat, else every bid."""
    at = [
        i
        for i, b in enumerate(rnd.bids)
        if b.pos is not None and (d.location.line, d.location.col) == (b.pos[0], b.pos[1])
    ]
    if not at:
        at = [i for i, b in enumerate(rnd.bids) if match.players[b.seat] == d.location.seat]
    return (at or list(range(len(rnd.bids))))[::-1]


def _bids(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    ri = _round_index(match, d)
    if ri is None:
        return
    rnd = match.rounds[ri]
    for i in _bids_at(match, rnd, d):
        b = rnd.bids[i]
        bids = rnd.bids[:i] + rnd.bids[i + 1 :]
        edit = SjEdit("bid", f"round {rnd.number}: {match.players[b.seat]} made no bid "
                      f"{format_hand(b.cards)}", rnd.number, None, None, b.seat,
                      format_hand(b.cards), None)  # fmt: skip
        yield edit, _with_round(match, ri, replace(rnd, bids=bids))


def _points_text(p: SjPoints) -> str:
    bits = [f"points {p.taken}"]
    if p.kitty is not None:
        bits.append(f"kitty {p.kitty}" + (f" x{p.multiplier}" if p.multiplier else ""))
    elif p.multiplier is not None:
        bits.append(f"x{p.multiplier}")
    if p.penalty:
        bits.append(f"penalty {p.penalty}")
    if p.total is not None:
        bits.append(f"total {p.total}")
    return " ".join(bits)


def _bid_cards(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A bid written with the wrong cards: as many cards of the dominant rank (or jokers)."""
    ri = _round_index(match, d)
    if ri is None:
        return
    rnd = match.rounds[ri]
    rank = rnd.rank if rnd.rank is not None else 2
    from zfrec.games.shengji.rules import level_rank

    r = level_rank(rank)
    for i in _bids_at(match, rnd, d):
        b = rnd.bids[i]
        shown = size(b.cards)
        choices = [(k, r * 4 + s) for k in (shown, 3 - shown) for s in range(4)]
        for k, c in [*choices, (2, 52), (2, 53)]:
            cards = k * one(c)
            if cards == b.cards:
                continue
            bids = list(rnd.bids)
            bids[i] = replace(b, cards=cards)
            yield (SjEdit("bid", f"round {rnd.number}: {match.players[b.seat]} bid "
                          f"{format_hand(cards)}, not {format_hand(b.cards)}", rnd.number,
                          None, None, b.seat, format_hand(b.cards), format_hand(cards)),
                   _with_round(match, ri, replace(rnd, bids=bids)))  # fmt: skip


def _header(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """The round's trump, dealer or rank written otherwise."""
    ri = _round_index(match, d)
    if ri is None:
        return
    rnd = match.rounds[ri]
    if d.code == "SJ405":
        for t in TRUMPS:
            if t != rnd.trump:
                yield (SjEdit("trump", f"round {rnd.number} was played with trump {t}",
                              rnd.number, None, None, None, rnd.trump, t),
                       _with_round(match, ri, replace(rnd, trump=t)))  # fmt: skip
    if d.code == "SJ304":
        for s in range(len(match.players)):
            if s != rnd.dealer:
                yield (SjEdit("dealer", f"round {rnd.number} was dealt by {match.players[s]}",
                              rnd.number, None, None, s,
                              None if rnd.dealer is None else match.players[rnd.dealer],
                              match.players[s]),
                       _with_round(match, ri, replace(rnd, dealer=s)))  # fmt: skip
    if d.code == "SJ505":
        for v in range(2, 15):
            if v != rnd.rank:
                yield (SjEdit("rank", f"round {rnd.number} was played at {level_text(v)}",
                              rnd.number, None, None, None,
                              None if rnd.rank is None else level_text(rnd.rank), level_text(v)),
                       _with_round(match, ri, replace(rnd, rank=v)))  # fmt: skip


def _calls(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """Only some of the calls made: as many as the rules allow, the first ones first."""
    ri = _round_index(match, d)
    rules = base.rules
    if ri is None or rules is None:
        return
    from itertools import combinations

    rnd = match.rounds[ri]
    for i, c in enumerate(rnd.calls):  # a call of another copy (2nd for 1st, ...)
        for ordinal in range(1, rules.decks + 1):
            if ordinal == c.ordinal:
                continue
            calls = (*rnd.calls[:i], replace(c, ordinal=ordinal), *rnd.calls[i + 1 :])
            said = " ".join(_call_text(x.card, x.ordinal) for x in calls)
            yield (SjEdit("calls", f"round {rnd.number}: the calls were {said}", rnd.number,
                          None, None, None, call_text(rnd.calls), said),
                   _with_round(match, ri, replace(rnd, calls=calls)))  # fmt: skip
    most = min(rules.friends, len(rnd.calls))
    for k in range(most, 0, -1):
        for kept in combinations(range(len(rnd.calls)), k):
            calls = tuple(rnd.calls[i] for i in kept)
            if len(calls) == len(rnd.calls):
                continue
            said = " ".join(_call_text(c.card, c.ordinal) for c in calls)
            yield (SjEdit("calls", f"round {rnd.number}: the calls were {said}", rnd.number,
                          None, None, None, call_text(rnd.calls), said),
                   _with_round(match, ri, replace(rnd, calls=calls)))  # fmt: skip


def _call_text(card: int, ordinal: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(ordinal, "th")
    return f"{ordinal}{suffix} {_c(card)}"


def _join(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    at = _move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    m = match.rounds[ri].tricks[ti].moves[mi]
    plain, joined = format_hand(m.cards), f"{format_hand(m.cards)} joins"
    yield (SjEdit("join", f"{_where(match, ri, ti, mi)} "
                  + ("did not join" if m.joins else "joined"), match.rounds[ri].number,
                  ti + 1, mi + 1, m.seat, *((joined, plain) if m.joins else (plain, joined))),
           _with_moves(match, ri, {(ti, mi): replace(m, joins=not m.joins)}))  # fmt: skip


def _drop(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    ri = _round_index(match, d)
    if ri is None:
        return
    rnd = match.rounds[ri]
    if d.code == "SJ204" and d.location.trick is not None:
        k = d.location.trick - 1
        yield (SjEdit("drop", f"round {rnd.number} ended after trick {k}: the tricks after "
                      "it were not played", rnd.number, k + 1, None, None),
               _with_round(match, ri, replace(rnd, tricks=rnd.tricks[:k])))  # fmt: skip
    if d.code == "SJ507":
        yield (SjEdit("drop", f"the match ended before round {rnd.number}: the rounds from it "
                      "on were not played", rnd.number, None, None, None),
               replace(match, rounds=match.rounds[:ri]))  # fmt: skip


def _figures(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """Every written figure (points, outcome, levels, result) as the validator computes it."""
    rounds = list(match.rounds)
    ledgers = {lg.number: lg for lg in base.rounds}
    if any(r.levels is not None for r in rounds):
        # the ledger's levels go on from the written ones: computed without them
        free = validate_match(replace(match, rounds=[replace(r, levels=None) for r in rounds]))
        computed = {lg.number: lg.levels for lg in free.rounds}
    else:
        computed = {}
    changed: list[str] = []
    first: int | None = None  # the first round whose lines change
    was: list[str] = []  # each line changed as written, and as it becomes (`now`)
    now: list[str] = []
    for i, rnd in enumerate(rounds):
        lg = ledgers.get(rnd.number)
        r = lg.result if lg else None
        if lg is None or r is None:
            continue
        new = rnd
        p = rnd.points
        if p is not None:
            want = SjPoints(r.taken, r.kitty_points if p.kitty is not None else None,
                            r.multiplier if p.multiplier is not None else None, r.penalty,
                            r.total if p.total is not None else None, p.pos)  # fmt: skip
            if want != p:
                new = replace(new, points=want)
                changed.append(f"round {rnd.number}'s points line read {_points_text(want)}")
                was.append(f"points {points_text(p)}")
                now.append(f"points {points_text(want)}")
        o = rnd.outcome
        if o is not None:
            ch = r.change
            side, steps = ("opponents", ch.opponents) if ch.swap else ("declarers", ch.declarers)
            nxt = r.next_dealer if o.next_dealer is not None else None
            want_o = SjOutcome(side, steps, nxt, o.pos)
            if want_o != o:
                new = replace(new, outcome=want_o)
                nxt_text = f" next {match.players[nxt]}" if nxt is not None else ""
                changed.append(f"round {rnd.number}'s result line read {side} +{steps}"
                               f"{nxt_text}")  # fmt: skip
                was.append(f"result {outcome_text(o)}")
                now.append(f"result {outcome_text(want_o)}")
        levels = computed.get(rnd.number, lg.levels)
        if rnd.levels is not None and tuple(rnd.levels.levels) != levels:
            new = replace(new, levels=SjLevels(levels, rnd.levels.pos))
            changed.append(f"round {rnd.number}'s levels read "
                           f"{' '.join(level_text(v) for v in levels)}")  # fmt: skip
            was.append(f"levels {levels_text(rnd.levels)}")
            now.append(f"levels {' '.join(level_text(v) for v in levels)}")
        if new is not rnd and first is None:
            first = rnd.number
        rounds[i] = new
    out = replace(match, rounds=rounds)
    res = match.result
    if res is not None and (tuple(res.levels) != base.levels or
                            tuple(sorted(res.winners)) != tuple(sorted(base.winners))):  # fmt: skip
        fixed = SjMatchResult(base.levels, base.winners, res.pos)
        out = replace(out, result=fixed)
        changed.append("[Result] read " + " ".join(level_text(v) for v in base.levels))
        was.append(f'[Result "{result_text(res)}"]')
        now.append(f'[Result "{result_text(fixed)}"]')
    if changed:
        yield SjEdit("points" if "points" in changed[0] else "result", "; ".join(changed),
                     first, before="; ".join(was),
                     after="; ".join(now)), out  # fmt: skip


def _leftover(match: SjMatch, base: SjReport, ri: int, seat: int) -> int:
    """Cards the seat held at play (as the validator rebuilt them) that it never plays."""
    number = match.rounds[ri].number
    lg = next((x for x in base.rounds if x.number == number), None)
    if lg is None:
        return 0
    held, played = lg.deal[seat], _played_by(match.rounds[ri], seat)
    out = 0
    for c in distinct(held):
        extra = count(held, c) - count(played, c)
        if extra > 0:
            out += extra * one(c)
    return out


def _substitute(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card of the play replaced by one the seat held and never plays in the record."""
    at = _move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    m = match.rounds[ri].tricks[ti].moves[mi]
    if m.failed:
        return
    for b in distinct(_leftover(match, base, ri, m.seat)):
        for a in distinct(m.cards):
            yield _played(match, at, _swap_card(m.cards, a, b))


def _unseen(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card the seat does not hold (a copy too many, say) replaced by one of its suit that
    the round's lines show fewer times than the decks hold: a card nobody shows, where the
    seat's hand is not written whole."""
    at = _move_at(match, d)
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
                yield _played(match, at, _swap_card(m.cards, a, b))


def _played(match: SjMatch, at: tuple[int, int, int], new: int) -> Candidate:
    """The candidate in which the move at `at` (round, trick, move indices) played `new`."""
    ri, ti, mi = at
    m = match.rounds[ri].tricks[ti].moves[mi]
    edit = SjEdit("substitute", f"{_where(match, ri, ti, mi)} played {format_hand(new)}, "
                  f"not {format_hand(m.cards)}", match.rounds[ri].number, ti + 1, mi + 1,
                  m.seat, format_hand(m.cards), format_hand(new))  # fmt: skip
    return edit, _with_moves(match, ri, {(ti, mi): replace(m, cards=new)})


def _follows(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """The play made one of the legal follows of the seat's hand there with the most cards in
    common with it (a card left out or one too many: a play cut short, say)."""
    at = _move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    rnd = match.rounds[ri]
    lg = next((x for x in base.rounds if x.number == rnd.number), None)
    order = rnd.order()
    if lg is None or order is None or mi == 0:
        return
    m = rnd.tricks[ti].moves[mi]
    before = _played_by(replace(rnd, tricks=rnd.tricks[:ti]), m.seat)
    if not contains(lg.deal[m.seat], before):  # plays before it the hand cannot make
        return
    hand = lg.deal[m.seat] - before
    try:
        lead = classify(order, rnd.tricks[ti].moves[0].played)
    except IllegalPlayError:
        return
    if count_follows(order, lead, hand) > 200:  # a void hand's follows: too many to try
        return
    scored = sorted(
        ((-sum(min(count(f, c), count(m.cards, c)) for c in distinct(f)), i, f)
         for i, f in enumerate(legal_follows(order, lead, hand)) if f != m.cards),
    )  # fmt: skip
    for _, _, f in scored[:3]:
        yield _played(match, at, f)


def _shrink(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card of the play left out (written in it by mistake)."""
    at = _move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    m = match.rounds[ri].tricks[ti].moves[mi]
    if m.failed or size(m.cards) < 2:
        return
    for a in distinct(m.cards):
        yield _played(match, at, m.cards - one(a))


def _seat(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """The play written for the wrong seat."""
    at = _move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    m = match.rounds[ri].tricks[ti].moves[mi]
    for s in range(len(match.players)):
        if s != m.seat:
            edit = SjEdit("seat", f"{_where(match, ri, ti, mi)} was {match.players[s]}'s play",
                          match.rounds[ri].number, ti + 1, mi + 1, s, match.players[m.seat],
                          match.players[s])  # fmt: skip
            yield edit, _with_moves(match, ri, {(ti, mi): replace(m, seat=s)})


def _read(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """What the reader could not read (ZF001), read as its suggestions say: the record's text
    with the suggested card in place, read again. Needs the record's .zfn file."""
    source = match.source
    if not source or not source.endswith(".zfn") or match.pos is None:
        return
    from pathlib import Path

    from zfrec.games.shengji.kind import match_of
    from zfrec.record import iter_records_text

    try:
        text = Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    lines = text.split("\n")
    for p in match.problems:
        fix = p.fix
        if fix is None or not 0 < fix.line <= len(lines):
            continue
        line = lines[fix.line - 1]
        for option in (fix.text, *fix.alternatives):
            new_lines = list(lines)
            new_lines[fix.line - 1] = line[: fix.col - 1] + option + line[fix.end_col - 1 :]
            for g in iter_records_text("\n".join(new_lines), "zfn", source, recover=True):
                if isinstance(g, Exception) or g.pos is None or g.pos[0] != match.pos[0]:
                    continue
                was = line[fix.col - 1 : fix.end_col - 1]
                edit = SjEdit("read", f"line {fix.line}: {was} was read as {option}",
                              None, None, None, None, was, option)  # fmt: skip
                yield edit, match_of(g)


GENERATORS: dict[str, tuple[Gen, ...]] = {
    "ZF001": (_read,),
    "SJ101": (_shrink, _substitute, _swaps),
    "SJ201": (_substitute, _swaps, _follows),
    "SJ102": (_substitute, _swaps, _deal_swaps, _unseen),
    "SJ202": (_seat, _order, _reseat),
    "SJ203": (_order, _seat, _reseat),
    "SJ103": (_forced,),
    "SJ104": (_forced, _swaps),
    "SJ301": (_deal_swaps,),
    "SJ302": (_sizes,),
    "SJ303": (_sizes,),
    "SJ401": (_bids, _bid_cards),
    "SJ402": (_bids, _bid_cards),
    "SJ403": (_bids, _bid_cards),
    "SJ404": (_bids, _bid_cards),
    "SJ405": (_header,),
    "SJ304": (_header,),
    "SJ505": (_header,),
    "SJ406": (_calls,),
    "SJ407": (_join, _calls),
    "SJ204": (_drop,),
    "SJ507": (_drop,),
}
