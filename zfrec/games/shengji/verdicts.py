"""The words of the validator's findings that say why a written mark or figure is wrong: who
should have led a trick and why, why a written join makes no friend, what a points line's kitty
part gets wrong (DIAGNOSTICS.md, Sheng ji). Nothing here judges: each takes what the engine
computed (`zfrec.games.shengji.replayer`) and the record, and words the difference."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from zfrec.diagnostics import Cause
from zfrec.errors import IllegalPlayError
from zfrec.games.shengji.cards import (
    FIVES,
    TENS_KINGS,
    count,
    distinct,
    format_hand,
    one,
    pairs,
    size,
)
from zfrec.games.shengji.events import RoundResult
from zfrec.games.shengji.formats import Format, best_top, classify
from zfrec.games.shengji.notation import ordinal_text
from zfrec.games.shengji.order import SUIT_WORDS, TRUMP, Order
from zfrec.games.shengji.rebuild import full_deck
from zfrec.games.shengji.records import SjCards, SjMatch, SjMove, SjPoints, SjRound, SjTrick
from zfrec.games.shengji.rules import SjRules, level_text
from zfrec.games.shengji.trick import can_win
from zfrec.games.shengji.unseen import less
from zfrec.record.model import Pos

__all__ = [
    "Shorts",
    "adds_up",
    "band",
    "copies_out",
    "deal_findings",
    "hiding_cause",
    "kept_back",
    "kitty_wrong",
    "no_join",
    "result_findings",
    "stops",
    "who_paid",
    "why_leads",
]


def why_leads(
    names: Sequence[str], tricks: Sequence[SjTrick], leader: int, t: int, order: Order,
    written: int,
) -> tuple[str, str]:  # fmt: skip
    """Why `leader` leads trick `t`, and the ruling it rests on: the dealer leads the first;
    else the play with which it won the trick before (as the record writes it), who wins a
    trick leads the next (8), and why the `written` leader's play there did not win it (4
    where it tied with the winner's and lost as the later one, else 8)."""
    if t == 1:
        return "the dealer leads the first trick", "8"
    moves = tricks[t - 2].moves
    won = next((m for m in moves if m.seat == leader), None)
    with_ = f" with {format_hand(won.played)}" if won is not None else ""
    why = f"{names[leader]} won trick {t - 1}{with_}, and who wins a trick leads the next"
    lost = next((m for m in moves if m.seat == written), None)
    if won is None or lost is None:
        return why, "8"
    try:
        lead = classify(order, moves[0].played)
    except IllegalPlayError:
        return why, "8"
    text, rule = _lost_to(
        order, lead, lost.played, won.played, moves.index(lost) < moves.index(won)
    )
    return why + f"; {names[lost.seat]}'s {format_hand(lost.played)} " + text, rule


def _lost_to(order: Order, lead: Format, play: int, best: int, first: bool) -> tuple[str, str]:
    """Why `play` did not win a trick led by `lead` that `best` won, and the ruling (4, 8)."""
    suit = SUIT_WORDS[lead.esuit]
    e = can_win(order, lead, play)
    if e is None:
        if play & ~order.suit_mask[lead.esuit] and play & ~order.suit_mask[TRUMP]:
            if lead.esuit == TRUMP:
                return "could not win: it is not all trumps", "8"
            return f"could not win: it is neither all {suit} nor all trumps", "8"
        if lead.kind == "pair":
            return "could not win: two singles never beat a pair", "8"
        if pairs(play) < lead.pairs:
            return f"could not win: it holds {pairs(play)} pair(s), the lead {lead.pairs}", "8"
        return (
            "could not win: its pairs are not consecutive, and only a tractor beats a tractor",
            "8",
        )
    unit = lead.units[0].pairs if lead.kind != "single" else 0
    mine, theirs = best_top(order, play, unit), best_top(order, best, unit)
    if can_win(order, lead, best) == TRUMP and e != TRUMP:
        return "was beaten by a trump play of the lead's format", "8"
    if mine == theirs and not first:
        return "ties with it, and the one played first wins", "4"
    return "is lower", "8"


def no_join(
    names: Sequence[str], tricks: Sequence[SjTrick], dealer: int | None,
    calls: Sequence[tuple[int, int]], m: SjMove, t: int,
) -> str:  # fmt: skip
    """Why a play of trick `t` written with `joins` makes no friend (ruling 16): the seat
    deals, the play holds no called card, or not the copy called (counted in the record's
    plays before it), or the seat is on the dealer's team already."""
    if m.seat == dealer:
        return f"{names[m.seat]} deals: the friends are the others"
    called = [(c, o) for c, o in calls if count(m.played, c)]
    if not called:
        said = " ".join(f"{ordinal_text(o)} {format_hand(one(c))}" for c, o in calls)
        return f"it plays no called card (the calls: {said})"
    c, o = called[0]
    before, where = 0, ""
    for k, tr in enumerate(tricks[:t], 1):
        for x in tr.moves:
            if x is m:
                break
            before += count(x.played, c)
            if before >= o and not where:  # the called copy
                where = f" (trick {k}, {names[x.seat]})"
    card, mine = format_hand(one(c)), before + count(m.played, c)
    if o <= before:
        return f"the {ordinal_text(o)} {card} is called, and it was played before{where}"
    if o > mine:
        return f"this {card} is its {ordinal_text(mine)} copy; the call is the {ordinal_text(o)}"
    return "the seat is on the dealer's team already"


def kitty_wrong(
    names: Sequence[str], rnd: SjRound, r: RoundResult, last_lead: Format | None
) -> str:
    """What the points line's kitty part gets wrong (ruling 11), or "": it is written only
    where the kitty counted (the opponents took the last trick); its points are what the
    dealer buried; its multiplier is set by the last trick's lead's largest unit."""
    p = rnd.points
    if p is None or (p.kitty is None and p.multiplier is None):
        return ""
    if r.declarers >> r.last_winner & 1:
        return (f"the kitty does not count: {names[r.last_winner]} (declarers) took the last "
                "trick")  # fmt: skip
    wrong = []
    if p.multiplier is not None and p.multiplier != r.multiplier:
        said = f"multiplier is {r.multiplier}, not {p.multiplier}"
        if last_lead is not None:
            pairs = last_lead.units[0].pairs
            what = ("a single", "a pair")[pairs] if pairs < 2 else f"a tractor of {pairs} pairs"
            said += (f": the last trick was led with {format_hand(last_lead.cards)}, its "
                     f"largest unit {what}")  # fmt: skip
        wrong.append(said)
    if p.kitty is not None and p.kitty != r.kitty_points:
        buried = rnd.discard
        said = f"points are {r.kitty_points}, not {p.kitty}"
        if buried is not None and not buried.unknown:  # the discard written whole
            shown = buried.known & (FIVES | TENS_KINGS)
            said += f": the dealer buried {format_hand(shown) if shown else 'no points'}"
        wrong.append(said)
    return "the kitty's " + "; its ".join(wrong) if wrong else ""


def adds_up(p: SjPoints) -> bool:
    """Whether a points line's own figures add up: tricks, kitty times multiplier, penalty."""
    if p.total is None or (p.kitty is None) != (p.multiplier is None):
        return False
    return p.total == p.taken + (p.kitty or 0) * (p.multiplier or 0) + p.penalty


def copies_out(
    names: Sequence[str], tricks: Sequence[SjTrick], m: SjMove, missing: Sequence[int],
    decks: int,
) -> str:  # fmt: skip
    """Why the seat of `m` lacks a card of `missing`, where the round's plays before `m` say:
    ` (played already, trick 20)` by the seat itself, or ` (a third copy: Bo Li and 李娜 played
    the 2 the decks hold)` (ruling 2); else ""."""
    for c in missing:
        who = _played_before(tricks, m, c)
        own = [t for s, t in who if s == m.seat]
        if own:
            return f" (played already, trick {own[-1]}{_repeats(tricks, m)})"
        if len(who) >= decks:
            word = _one_too_many(decks)
            seats = " and ".join(dict.fromkeys(names[s] for s, _ in who))
            return f" ({word} copy: {seats} played the {decks} the decks hold)"
    return ""


def played_already(tricks: Sequence[SjTrick], m: SjMove, missing: Sequence[int]) -> str:
    """Why the seat of `m` lacks a card of `missing` that it spent at an earlier play of its
    own: ` (played already, trick 20)`, the last such trick, as `copies_out` words it; without
    the trick (a play the tricks as written do not hold) ` (played already)`."""
    own = [t for c in missing for s, t in _played_before(tricks, m, c) if s == m.seat]
    if not own:
        return " (played already)"
    return f" (played already, trick {max(own)}{_repeats(tricks, m)})"


def _repeats(tricks: Sequence[SjTrick], m: SjMove) -> str:
    """`: the line repeats trick 5` where the trick that holds `m` is written exactly as an
    earlier one (the same seats playing the same cards: a line copied twice), else ""."""
    here = next((i for i, tr in enumerate(tricks) if any(x is m for x in tr.moves)), None)
    if here is None:
        return ""
    plays = [(x.seat, x.cards) for x in tricks[here].moves]
    same = [i + 1 for i in range(here) if [(x.seat, x.cards) for x in tricks[i].moves] == plays]
    return f": the line repeats trick {same[-1]}" if same else ""


def _played_before(tricks: Sequence[SjTrick], m: SjMove, c: int) -> list[tuple[int, int]]:
    """(seat, trick) of each copy of card `c` played before the play `m`, in order."""
    who: list[tuple[int, int]] = []
    for t, tr in enumerate(tricks, 1):
        if any(x is m for x in tr.moves):
            who += [(x.seat, t) for x in tr.moves[: tr.moves.index(m)]
                    for _ in range(count(x.played, c))]  # fmt: skip
            break
        who += [(x.seat, t) for x in tr.moves for _ in range(count(x.played, c))]
    return who


def _one_too_many(decks: int) -> str:
    """The copy of a card past what `decks` decks hold (1 to 3, ruling 2): `a third`."""
    return ("a second", "a third", "a fourth")[decks - 1]


def kept_back(tricks: Sequence[SjTrick], hand: int, seat: int, m: SjMove, t: int) -> int:
    """The cards of `hand` (the seat's at play `m` of trick `t`) that the record never has the
    seat play from there on: in a round written to its end, what an earlier error of the
    seat's own kept in its hand (a card played that it did not hold leaves the one it did)."""
    later = 0
    moves = tricks[t - 1].moves
    start = next((i for i, x in enumerate(moves) if x is m), 0)
    for x in moves[start:]:
        if x.seat == seat:
            later += x.played
    for tr in tricks[t:]:
        for x in tr.moves:
            if x.seat == seat:
                later += x.played
    return less(hand, later)


Finding = tuple[str, str, Pos | None, int | None, str]  # code, message, where, seat, ruling


Shorts = dict[int, list[tuple[tuple[int, int], Cause]]]
"""Each seat's follows in a round written with fewer cards than were led, so far: where (trick,
turn), and what a finding that follows from one names (the validator's `short`)."""


def hiding_cause(
    short: Shorts, thrower: int, unseen: Sequence[int], here: tuple[int, int]
) -> Cause | None:
    """What a throw proven beaten by counting the cards no line shows follows from, in a round
    whose end is written: there a seat holds cards no line shows (`unseen`, per seat) only by
    a follow written with fewer cards than were led, an error of its own (any other error of
    the seat, a follow of the wrong suit say, leaves no card unshown, and is not the cause);
    so where every seat other than the thrower that holds such cards (one of which holds the
    higher card) has such a follow before `here`, the first of those. None otherwise: a hand
    the record leaves unwritten may rightly hold the card, or a later error hid it."""
    first: tuple[tuple[int, int], Cause] | None = None
    for s, cards in enumerate(unseen):
        if s == thrower or not cards:
            continue
        mine = [(where, why) for where, why in short.get(s, ()) if where < here]
        if not mine:
            return None
        first = min([*mine, *([first] if first else [])], key=lambda e: e[0])
    return None if first is None else first[1]


def deal_findings(rules: SjRules, rnd: SjRound, names: Sequence[str]) -> list[Finding]:
    """The round's hand and kitty sizes, and copies (rulings 2, 11, 15), as the validator's
    findings: SJ302, SJ303, SJ301."""
    out: list[Finding] = []
    seen: dict[int, int] = {}
    parts: list[tuple[SjCards, int | None]] = []
    hand_size = rules.hand_size  # a property worked out at each call
    known = cards = 0  # the known cards of every part, and how many (each counted once)
    for s, d in enumerate(rnd.deal or ()):
        parts.append((d, s))
        if d.known or d.unknown:
            k = size(d.known)
            known, cards = known + d.known, cards + k
            if k + d.unknown != hand_size:
                out.append(("SJ302", f"{names[s]}'s hand has {k + d.unknown} cards; the "
                            f"rules' hand holds {hand_size}", d.pos, s, "15"))  # fmt: skip
    if rnd.kitty is not None:
        parts.append((rnd.kitty, None))
        k = size(rnd.kitty.known)
        known, cards = known + rnd.kitty.known, cards + k
        if k + rnd.kitty.unknown != rules.kitty:
            out.append(("SJ303", f"the kitty has {k + rnd.kitty.unknown} cards; the rules' "
                        f"kitty holds {rules.kitty}", rnd.kitty.pos, None, "11"))  # fmt: skip
    if cards == 54 * rules.decks and known == full_deck(rules.decks):
        return out  # the common case: every copy once (with as many cards, no field overflows)
    extra: list[int] = []  # the cards of the copies too many, in record order
    for d, who in parts:
        for c in distinct(d.known):
            seen[c] = seen.get(c, 0) + count(d.known, c)
            if seen[c] > rules.decks:
                word = _one_too_many(rules.decks)
                out.append(("SJ301", f"{word} copy of {format_hand(1 << 2 * c)}: "
                            f"{rules.decks} deck(s) hold {rules.decks}", d.pos, who,
                            "2"))  # fmt: skip
                extra.append(c)
                seen[c] = rules.decks
    if extra and cards == 54 * rules.decks and all(not d.unknown for d, _ in parts):
        undealt = [c for c in range(54) if seen.get(c, 0) < rules.decks]
        _undealt(out, extra, undealt, _one_too_many(rules.decks).removeprefix("a "))
    return out


def _undealt(out: list[Finding], extra: list[int], undealt: list[int], nth: str) -> None:
    """A deal of every card, all known, that gives copies too many (`extra`) gives others to
    nobody (`undealt`): its first SJ301 says which, and, for one of each, what a one-card typo
    explains (`a copy of 6h is dealt to nobody: the third 3c may be meant as 6h`)."""
    if not undealt:
        return
    at = next(i for i, f in enumerate(out) if f[0] == "SJ301")
    code, message, pos, seat, rule = out[at]
    lost = " ".join(format_hand(1 << 2 * c) for c in undealt)
    message += (f"; a copy of {lost} is dealt to nobody" if len(undealt) == 1
                else f"; copies of {lost} are dealt to nobody")  # fmt: skip
    if len(extra) == 1 and len(undealt) == 1:
        message += f": the {nth} {format_hand(1 << 2 * extra[0])} may be meant as {lost}"
    out[at] = (code, message, pos, seat, rule)


def result_findings(
    match: SjMatch, levels: Sequence[int], winners: tuple[int, ...]
) -> list[Finding]:
    """The `[Result]` tag against the levels and winners computed (SJ506)."""
    res = match.result
    out: list[Finding] = []
    if res is None:
        return out
    names = match.players

    def who(seats: Sequence[int]) -> str:
        return " and ".join(names[s] for s in seats)

    if res.levels and tuple(res.levels) != tuple(levels):
        out.append(("SJ506", "the final levels are "
                    f"{' '.join(level_text(v) for v in levels)}, not "
                    f"{' '.join(level_text(v) for v in res.levels)}", res.pos, None,
                    "12, 14"))  # fmt: skip
    if tuple(sorted(res.winners)) != tuple(sorted(winners)) and (res.winners or winners):
        got = who(winners) if winners else "nobody yet"
        out.append(("SJ506", f"the match is won by {got}, not "
                    f"{who(res.winners) if res.winners else 'nobody'}", res.pos, None,
                    "14"))  # fmt: skip
    return out


def stops(
    names: Sequence[str], rules: SjRules, before: Sequence[int], after: Sequence[int],
    steps: Sequence[int], won: Collection[int] = (),
) -> str:  # fmt: skip
    """Why levels went up less than the table's change (ruling 14, `must_defend`): each seat
    group that stopped at a level it must win as declarers to pass, or stayed there; "" when
    none did. `steps` are the levels each seat went up by the table; the seats in `won` won
    the match (as declarers at A, or passing A), so no level stopped them."""
    groups: dict[tuple[int, int, bool], list[int]] = {}
    for s, (b, a, k) in enumerate(zip(before, after, steps, strict=True)):
        if s not in won and k > 0 and a < b + k and a in rules.must_defend:
            groups.setdefault((b, a, a == b), []).append(s)
    if not groups:
        return ""
    said = []
    for (b, a, stayed), seats in groups.items():
        who = " and ".join(names[s] for s in seats)
        if stayed:
            said.append(f"{who} stay at {level_text(a)} until they win a round there as "
                        "declarers")  # fmt: skip
        else:
            said.append(f"{who} stop at {level_text(a)}, which +{steps[seats[0]]} from "
                        f"{level_text(b)} would pass: they must win a round there as "
                        "declarers to pass it")  # fmt: skip
    defend = rules.options()["must_defend"]
    return f" ({'; '.join(said)}; must_defend={defend})"


def who_paid(names: Sequence[str], rules: SjRules, declarers: int, penalties: Sequence[int]) -> str:
    """Whose failed throws make the net throw penalty (ruling 10): `: 张伟 (declarers) took back
    1 card, +10; 钱静 (opponents) took back 2, -20`; "" when no seat paid."""
    said = []
    for s, pen in enumerate(penalties):
        if pen and rules.throw_penalty:
            n = pen // rules.throw_penalty
            decl = bool(declarers >> s & 1)
            side, sign = ("declarers", "+") if decl else ("opponents", "-")
            said.append(f"{names[s]} ({side}) took back {n} card{'s' * (n != 1)}, {sign}{pen}")
    return ": " + "; ".join(said) if said else ""


def band(points: int, decks: int) -> str:
    """The row of the level table (rulings 12, 13) the opponents' points fall in: `80 to 115`,
    `0`, `-75 to -40`; a step is 20 points a deck."""
    step = 20 * decks
    if points == 0:
        return "0"
    if points < 0:
        k = (-points) // step
        lo, hi = -(k * step + step - 5), -(k * step) if k else -5
    elif points < 2 * step:
        lo = 5 if points < step else step
        hi = (step if points < step else 2 * step) - 5
    else:
        lo = points - (points - 2 * step) % step
        hi = lo + step - 5
    return f"{lo} to {hi}"
