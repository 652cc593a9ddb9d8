"""The smallest repairs of a broken Sheng ji record, for `zfrec audit` (ANALYSIS.md, Sheng ji).

Candidate edits are generated from the record's first error (the root the others follow
from), most targeted first; each is applied to a copy of the record and the copy validated
whole (`validate_match`). Nothing here judges a play: a candidate is kept when the validator
finds fewer errors in it. Ranked by the number of edits, then the errors and warnings left,
then the order found. Once a repair makes the record legal only such repairs are listed; when
no single edit does, the two best partial repairs are extended by a second edit.

The edits (`SjEdit.kind`), by the error they answer (those of a play are made in
`zfrec.games.shengji.repairplays`, with the edit itself and where a diagnostic points):

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
  text with the suggested card in place, read again; a JSON record as its reader read it).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from zfrec.diagnostics import Diagnostic, first_error
from zfrec.errors import ZfrecError
from zfrec.games.shengji.cards import count, distinct, format_hand, one, size
from zfrec.games.shengji.notation import (
    call_text,
    levels_text,
    ordinal_text,
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
    SjOutcome,
    SjPoints,
    SjRound,
)
from zfrec.games.shengji.repairplays import (
    Candidate,
    Gen,
    SjEdit,
    follows,
    forced_parts,
    move_at,
    orders,
    placed,
    played_by,
    reseats,
    round_index,
    seats,
    shrinks,
    substitutes,
    swap_card,
    swaps,
    unseen_cards,
    where,
    with_moves,
    with_round,
    word,
)
from zfrec.games.shengji.replayer import validate_match
from zfrec.games.shengji.report import SjReport
from zfrec.games.shengji.rules import level_text

__all__ = ["SjEdit", "SjRepair", "search_repairs"]


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
        for edit, candidate in gen(match, base, first):
            yield placed(match, edit, candidate), candidate
    if codes & {"SJ501", "SJ502", "SJ503", "SJ504", "SJ506"}:
        for edit, candidate in _figures(match, base, first):
            yield placed(match, edit, candidate), candidate


# --- where a diagnostic points ---------------------------------------------------------------


# --- generators ------------------------------------------------------------------------------


def _deal_swaps(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card missing from a seat's deal taken from another line (deal or kitty) in exchange
    for one the seat never plays; a third copy replaced by a card nobody was dealt."""
    ri = round_index(match, d)
    if ri is None:
        return
    rnd = match.rounds[ri]
    if rnd.deal is None:
        return
    at = move_at(match, d)
    n = len(rnd.deal)
    lines: list[tuple[str, SjCards | None]] = [(f"deal {s + 1}", rnd.deal[s]) for s in range(n)]
    lines += [("kitty", rnd.kitty), ("discard", rnd.discard)]
    if at is not None:
        m = rnd.tricks[at[1]].moves[at[2]]
        seat = m.seat
        mine = rnd.deal[seat]
        missing = [c for c in distinct(m.played) if not count(mine.known, c)]
        spare = [c for c in distinct(mine.known)
                 if count(mine.known, c) > count(played_by(rnd, seat), c)]  # fmt: skip
        for a in missing:
            for j, (name, line) in enumerate(lines):
                if j == seat or line is None or not count(line.known, a):
                    continue
                for b in spare:
                    new = _exchange(rnd, seat, j, a, b)
                    edit = SjEdit("deal_swap", f"{match.players[seat]} was dealt {word(a)} "
                                  f"instead of {word(b)} (and {name} {word(b)} instead of "
                                  f"{word(a)})",
                                  rnd.number, None, None, seat, word(b), word(a))  # fmt: skip
                    yield edit, with_round(match, ri, new)
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
                    said = f"{match.players[who]} was dealt {word(b)}, not {word(a)}"
                    edit = SjEdit("deal_swap", said, rnd.number, None, None, who, word(a), word(b))
                    yield edit, with_round(match, ri, new)


def _exchange(rnd: SjRound, seat: int, j: int | None, a: int, b: int) -> SjRound:
    """Seat's deal gets `a` for `b`; line `j` (a deal, or n: kitty, n+1: discard) `b` for `a`."""
    assert rnd.deal is not None
    deal = list(rnd.deal)
    n = len(deal)
    deal[seat] = replace(deal[seat], known=swap_card(deal[seat].known, b, a))
    kitty, discard = rnd.kitty, rnd.discard
    if j is not None and j < n:
        deal[j] = replace(deal[j], known=swap_card(deal[j].known, a, b))
    elif j == n and kitty is not None:
        kitty = replace(kitty, known=swap_card(kitty.known, a, b))
    elif j == n + 1 and discard is not None:
        discard = replace(discard, known=swap_card(discard.known, a, b))
    return replace(rnd, deal=tuple(deal), kitty=kitty, discard=discard)


def _sizes(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """A card moved from a line too long to one too short (a deal or the kitty)."""
    ri = round_index(match, d)
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
                yield (SjEdit("deal_move", f"{word(c)} was in {where} too", rnd.number, None,
                              None, j if j < n else None, None, word(c)),
                       with_round(match, ri, new))  # fmt: skip
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
                said = (f"{word(c)} was not in {_line_name(match, i, n)}" if to_line is None else
                        f"{word(c)} was in {_line_name(match, to_line, n)}, not "
                        f"{_line_name(match, i, n)}")  # fmt: skip
                edit = SjEdit("deal_move", said, rnd.number, None, None, i if i < n else None,
                              word(c), None)  # fmt: skip
                yield edit, with_round(match, ri, new)


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
    ri = round_index(match, d)
    if ri is None:
        return
    rnd = match.rounds[ri]
    for i in _bids_at(match, rnd, d):
        b = rnd.bids[i]
        bids = rnd.bids[:i] + rnd.bids[i + 1 :]
        edit = SjEdit("bid", f"{match.round_said(rnd)}: {match.players[b.seat]} made no bid "
                      f"{format_hand(b.cards)}", rnd.number, None, None, b.seat,
                      format_hand(b.cards), None)  # fmt: skip
        yield edit, with_round(match, ri, replace(rnd, bids=bids))


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
    ri = round_index(match, d)
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
            yield (SjEdit("bid", f"{match.round_said(rnd)}: {match.players[b.seat]} bid "
                          f"{format_hand(cards)}, not {format_hand(b.cards)}", rnd.number,
                          None, None, b.seat, format_hand(b.cards), format_hand(cards)),
                   with_round(match, ri, replace(rnd, bids=bids)))  # fmt: skip


def _header(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """The round's trump, dealer or rank written otherwise."""
    ri = round_index(match, d)
    if ri is None:
        return
    rnd = match.rounds[ri]
    if d.code == "SJ405":
        for t in TRUMPS:
            if t != rnd.trump:
                yield (SjEdit("trump", f"{match.round_said(rnd)} was played with trump {t}",
                              rnd.number, None, None, None, rnd.trump, t),
                       with_round(match, ri, replace(rnd, trump=t)))  # fmt: skip
    if d.code == "SJ304":
        for s in range(len(match.players)):
            if s != rnd.dealer:
                yield (SjEdit("dealer", f"{match.round_said(rnd)} was dealt by {match.players[s]}",
                              rnd.number, None, None, s,
                              None if rnd.dealer is None else match.players[rnd.dealer],
                              match.players[s]),
                       with_round(match, ri, replace(rnd, dealer=s)))  # fmt: skip
    if d.code == "SJ505":
        for v in range(2, 15):
            if v != rnd.rank:
                yield (SjEdit("rank", f"{match.round_said(rnd)} was played at {level_text(v)}",
                              rnd.number, None, None, None,
                              None if rnd.rank is None else level_text(rnd.rank), level_text(v)),
                       with_round(match, ri, replace(rnd, rank=v)))  # fmt: skip


def _calls(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """Only some of the calls made: as many as the rules allow, the first ones first."""
    ri = round_index(match, d)
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
            yield (SjEdit("calls", f"{match.round_said(rnd)}: the calls were {said}", rnd.number,
                          None, None, None, call_text(rnd.calls), said),
                   with_round(match, ri, replace(rnd, calls=calls)))  # fmt: skip
    most = min(rules.friends, len(rnd.calls))
    for k in range(most, 0, -1):
        for kept in combinations(range(len(rnd.calls)), k):
            calls = tuple(rnd.calls[i] for i in kept)
            if len(calls) == len(rnd.calls):
                continue
            said = " ".join(_call_text(c.card, c.ordinal) for c in calls)
            yield (SjEdit("calls", f"{match.round_said(rnd)}: the calls were {said}", rnd.number,
                          None, None, None, call_text(rnd.calls), said),
                   with_round(match, ri, replace(rnd, calls=calls)))  # fmt: skip


def _call_text(card: int, ordinal: int) -> str:
    return f"{ordinal_text(ordinal)} {word(card)}"


def _join(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    at = move_at(match, d)
    if at is None:
        return
    ri, ti, mi = at
    m = match.rounds[ri].tricks[ti].moves[mi]
    plain, joined = format_hand(m.cards), f"{format_hand(m.cards)} joins"
    yield (SjEdit("join", f"{where(match, ri, ti, mi)} "
                  + ("did not join" if m.joins else "joined"), match.rounds[ri].number,
                  ti + 1, mi + 1, m.seat, *((joined, plain) if m.joins else (plain, joined))),
           with_moves(match, ri, {(ti, mi): replace(m, joins=not m.joins)}))  # fmt: skip


def _drop(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    ri = round_index(match, d)
    if ri is None:
        return
    rnd = match.rounds[ri]
    if d.code == "SJ204" and d.location.trick is not None:
        k = d.location.trick - 1
        yield (SjEdit("drop", f"{match.round_said(rnd)} ended after trick {k}: the tricks after "
                      "it were not played", rnd.number, k + 1, None, None),
               with_round(match, ri, replace(rnd, tricks=rnd.tricks[:k])))  # fmt: skip
    if d.code == "SJ507":
        yield (SjEdit("drop", f"the match ended before {match.round_said(rnd)}: the rounds from it "
                      "on were not played", rnd.number, None, None, None),
               replace(match, rounds=match.rounds[:ri]))  # fmt: skip


def _figures(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """Every written figure (points, outcome, levels, result) as the validator computes it."""
    rounds = list(match.rounds)
    # by the round's place, not its number: a number may be written twice (SJ508)
    ledgers = {lg.index: lg for lg in base.rounds}
    if any(r.levels is not None for r in rounds):
        # the ledger's levels go on from the written ones: computed without them
        free = validate_match(replace(match, rounds=[replace(r, levels=None) for r in rounds]))
        computed = {lg.index: lg.levels for lg in free.rounds}
    else:
        computed = {}
    changed: list[str] = []
    first: int | None = None  # the first round whose lines change
    was: list[str] = []  # each line changed as written, and as it becomes (`now`)
    now: list[str] = []
    for i, rnd in enumerate(rounds):
        lg = ledgers.get(i)
        r = lg.result if lg else None
        if lg is None or r is None:
            continue
        new = rnd
        p = rnd.points
        if p is not None:
            # the kitty is written only where it counted (ruling 11: the opponents took the
            # last trick); a kitty written where the declarers took it goes, not zeroed
            counted = not r.declarers >> r.last_winner & 1
            want = SjPoints(r.taken, r.kitty_points if counted and p.kitty is not None else None,
                            r.multiplier if counted and p.multiplier is not None else None,
                            r.penalty, r.total if p.total is not None else None,
                            p.pos)  # fmt: skip
            if want != p:
                new = replace(new, points=want)
                changed.append(f"{match.round_said(rnd)}'s points line read {_points_text(want)}")
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
                changed.append(f"{match.round_said(rnd)}'s result line read {side} +{steps}"
                               f"{nxt_text}")  # fmt: skip
                was.append(f"result {outcome_text(o)}")
                now.append(f"result {outcome_text(want_o)}")
        levels = computed.get(i, lg.levels)
        if rnd.levels is not None and tuple(rnd.levels.levels) != levels:
            new = replace(new, levels=SjLevels(levels, rnd.levels.pos))
            changed.append(f"{match.round_said(rnd)}'s levels read "
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


def _read(match: SjMatch, base: SjReport, d: Diagnostic) -> Iterator[Candidate]:
    """What the reader could not read (ZF001), read as its suggestions say: the record's text
    with the suggested card in place, read again (a .zfn file); a JSON record's card of a
    deal, kitty or discard, as the reader read it (`_read_json`)."""
    source = match.source
    if not source or not source.endswith(".zfn"):
        yield from _read_json(match)
        return
    if match.pos is None:
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


def _read_json(match: SjMatch) -> Iterator[Candidate]:
    """A JSON record's unreadable card of a deal, kitty or discard (a `dealt` problem) as the
    reader read it: the one card that fits, else an unknown card. The record as read is the
    repair, as for Zheng Fen's JSON records (zfrec.games.zhengfen.analysis.readfix); the
    phrase says where by its JSON path, as the finding does (a .zfn record without its file,
    read from standard input, by its line)."""
    for p in match.problems:
        if p.kind != "dealt":
            continue
        read = p.fix.text if p.fix is not None and not p.fix.alternatives else None
        said = f"{p.where()}: {p.written} was read as {read or 'an unknown card'}"
        edit = SjEdit("read", said, None, None, None, None, p.written, read)
        yield edit, replace(match, problems=[q for q in match.problems if q is not p])


GENERATORS: dict[str, tuple[Gen, ...]] = {
    "ZF001": (_read,),
    "SJ101": (shrinks, substitutes, swaps),
    "SJ201": (substitutes, swaps, follows),
    "SJ102": (substitutes, swaps, _deal_swaps, unseen_cards),
    "SJ202": (seats, orders, reseats),
    "SJ203": (orders, seats, reseats),
    "SJ103": (forced_parts,),
    "SJ104": (forced_parts, swaps),
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
