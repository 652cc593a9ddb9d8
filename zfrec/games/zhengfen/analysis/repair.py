"""Repair search for the audit: candidate edits of a failing record, each one re-validated.

Candidate edits are generated from where the first error shows: the move it is reported at and
the moves just before it, the deal of the seat involved, or the score line. Each candidate is
applied to a copy of the record and judged by `zfrec.validate`, so every suggestion is verified,
never guessed. The search is bounded by a budget of candidate records, and stops a little after
the first clean repair. An edited record is first replayed from the edited hand only (the game's
state before it kept from the first replay, the earlier hands' findings known) and compared
with the record by zfrec.baseline, as disputes and the live judge compare theirs; only an edit
that leaves fewer errors is validated in full. On the broken samples this cut the full
validations of an audit from 298 to 40.

Nothing here applies a rule: the replay says what each seat held and what was on the table, the
move generator lists the plays, and the validator judges the edited record. The results, `Edit`
and `Repair`, are defined in zfrec.games.zhengfen.analysis.edits (and importable from here).

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> from zfrec.validate import validate
    >>> game = broken_example()
    >>> found, tried = search_repairs(game, game.ruleset(), validate(game), budget=50, want=2)
    >>> [r.text() for r in found if r.ok]
    ['legal if trick 1, turn 5 (Bo) was a pass', 'legal if trick 1, turn 5 (Bo) was not played']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from zfrec.baseline import Baseline, Key, compare, key
from zfrec.core import Deal
from zfrec.diagnostics import Diagnostic
from zfrec.errors import IllegalPlayError
from zfrec.games.zhengfen.analysis.edits import Edit, EditKind, Repair, RepairJson, placed
from zfrec.games.zhengfen.engine.cards import (
    THREE_OF_HEARTS,
    Cards,
    Declarations,
    Stand,
    card_str,
    iter_ids,
)
from zfrec.games.zhengfen.engine.combos import Combo, readings, resolve
from zfrec.games.zhengfen.engine.game import GameState
from zfrec.games.zhengfen.engine.movegen import physical_plays
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.numbering import said_at
from zfrec.record.model import AltPlay, Game, Hand, HandScore, Move, Result, SeatDeal, Trick
from zfrec.record.text import score_text
from zfrec.replay import GameEnd, HandEnd, HandStart, MoveStep, replay
from zfrec.validate import Report, validate

PLAYS_PER_PASS = 6  # plays tried in place of one pass
PATIENCE = 40  # candidates tried after the first clean repair, looking for alternatives

# --- what the replay knew at each move ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Step:
    """One action of the replay, with the state just before it."""

    h: int  # hand index
    t: int  # trick index, 0-based into hand.tricks
    m: int | None  # move index into trick.moves; None for an inferred pass
    insert_at: int  # moves of the trick recorded before this one
    seat: int
    turn: int
    held: int  # the seat's cards before the action
    top: Combo | None
    move: Move | None
    errors: tuple[Diagnostic, ...]
    due: int  # the seat whose turn it was by the rules
    due_held: int  # that seat's cards


@dataclass(slots=True)
class _HandInfo:
    # The deal as the replay knew it: each seat's cards the record places (written, played, or
    # the lead card) and those only a rebuilt deal's guess placed with it (zfrec.core.Deal).
    dealt: Deal = field(default_factory=lambda: Deal((), ()))
    left: tuple[int, ...] = ()  # cards still held when the record stops
    finished: bool = False
    start_errors: tuple[Diagnostic, ...] = ()
    end_errors: tuple[Diagnostic, ...] = ()
    steps: list[_Step] = field(default_factory=list)
    before: GameState | None = None  # the game before the hand, to replay an edit from
    errors: int = 0  # the hand's errors and warnings (its start, moves and end)
    warnings: int = 0
    found: Counter[Key] = field(default_factory=Counter)  # the hand's errors, by their key


@dataclass(slots=True)
class _Index:
    hands: list[_HandInfo]
    game_errors: tuple[Diagnostic, ...]
    first: tuple[str, int, int] | None  # ("start"|"step"|"end"|"game", hand, step index)

    @property
    def errors(self) -> int:
        """The record's errors, as its replay found them."""
        return sum(i.errors for i in self.hands) + len(self.game_errors)

    @property
    def game_found(self) -> Counter[Key]:
        """The errors found at the game's end, by their key."""
        return Counter(key(d) for d in self.game_errors)


def _errors(ds: tuple[Diagnostic, ...]) -> tuple[Diagnostic, ...]:
    return tuple(d for d in ds if d.severity == "error")


def _has_root(errors: tuple[Diagnostic, ...]) -> bool:
    """Whether one of these errors follows from no earlier one: repairs start at a root."""
    return any(d.cause is None for d in errors)


def _index(game: Game, rules: Ruleset) -> _Index:
    """What the replay knew at each move of the record: each MoveStep carries it."""
    hands: list[_HandInfo] = []
    info = _HandInfo()
    first: tuple[str, int, int] | None = None
    game_errors: tuple[Diagnostic, ...] = ()
    for state, ev in replay(game, rules):
        errs = _errors(ev.diagnostics)
        if isinstance(ev, HandStart):
            hs = state.hand
            assert hs is not None
            # A deal written whole has no guessed cards: the engine keeps no Deal for it.
            dealt = Deal.all_known(ev.deal) if hs.deal is None else hs.deal
            info = _HandInfo(dealt, start_errors=errs, before=state.game.copy())
            hands.append(info)
            if _has_root(errs) and first is None:
                first = ("start", ev.hand_index, 0)
        elif isinstance(ev, MoveStep):
            hs = state.hand
            assert hs is not None
            seat = int(ev.seat)
            due = seat if ev.to_act is None else int(ev.to_act)
            # The seat due to act did not move, so its cards now are those it held before.
            due_held = (ev.held or 0) if due == seat else hs.hands[due]
            step = _Step(ev.hand_index, ev.trick_index - 1, None if ev.inferred else ev.move_index,
                         ev.move_index, seat, ev.turn, ev.held or 0, ev.top, ev.written, errs, due,
                         due_held)  # fmt: skip
            if _has_root(errs) and first is None:
                first = ("step", ev.hand_index, len(info.steps))
            info.steps.append(step)
        elif isinstance(ev, HandEnd):
            hs = state.hand
            assert hs is not None
            info.left = tuple(hs.hands)
            info.finished = ev.result is not None
            info.end_errors = errs
            # A hand that stops early and is followed by another is only a warning here, but
            # the next hand's errors come from it.
            unfinished = ev.result is None and ev.hand_index < len(game.hands) - 1
            if (_has_root(errs) or unfinished) and first is None:
                first = ("end", ev.hand_index, 0)
        elif isinstance(ev, GameEnd):
            game_errors = errs
            if _has_root(errs) and first is None:
                first = ("game", len(hands) - 1, 0)
        if not isinstance(ev, GameEnd):
            info.errors += len(errs)
            info.found.update(key(d) for d in errs)
            info.warnings += sum(d.severity == "warning" for d in ev.diagnostics)
    return _Index(hands, game_errors, first)


# --- applying edits -------------------------------------------------------------------------------


def _with_hand(game: Game, h: int, hand: Hand) -> Game:
    hands = list(game.hands)
    hands[h] = hand
    return replace(game, hands=hands)


def _with_moves(game: Game, h: int, t: int, moves: list[Move]) -> Game:
    hand = game.hands[h]
    tricks = list(hand.tricks)
    tricks[t] = replace(tricks[t], moves=moves)
    if not moves:
        del tricks[t]
    return _with_hand(game, h, replace(hand, tricks=tricks))


def _set_move(h: int, t: int, m: int, new: Move | None) -> Callable[[Game], Game]:
    def apply(game: Game) -> Game:
        moves = list(game.hands[h].tricks[t].moves)
        if new is None:
            del moves[m]
        else:
            moves[m] = new
        return _with_moves(game, h, t, moves)

    return apply


def _insert_move(h: int, t: int, at: int, new: Move) -> Callable[[Game], Game]:
    def apply(game: Game) -> Game:
        moves = list(game.hands[h].tricks[t].moves)
        moves.insert(at, new)
        return _with_moves(game, h, t, moves)

    return apply


def _set_deal(h: int, deal: tuple[SeatDeal, ...]) -> Callable[[Game], Game]:
    def apply(game: Game) -> Game:
        return _with_hand(game, h, replace(game.hands[h], deal=deal))

    return apply


def _played(move: Move, cards: int, decls: tuple[tuple[int, Stand], ...]) -> Move:
    ordered = tuple(sorted(decls, key=lambda d: d[0]))
    if move.alternatives:  # a disputed move's versions: the new play is no longer another one
        return move.with_version(AltPlay(False, Cards(cards), ordered))
    return replace(move, is_pass=False, cards=Cards(cards), declarations=ordered)


# --- the search -----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Search:
    game: Game
    rules: Ruleset
    base: Report
    budget: int
    want: int
    index: _Index = field(init=False)
    found: list[Repair] = field(default_factory=list)
    tried: int = 0
    first_clean: int = 0
    keys: set[tuple[object, ...]] = field(default_factory=set)
    validations: int = 0  # edited records validated in full (the others judged from the edit)
    resumed: int = 0  # edited records replayed from the edited hand
    baselines: dict[int, Baseline] = field(default_factory=dict)  # by hand: see _baseline

    def __post_init__(self) -> None:
        self.index = _index(self.game, self.rules)

    # naming ------------------------------------------------------------------------------------

    def _name(self, seat: int) -> str:
        return self.game.seat_name(seat)

    def _hand(self, h: int) -> str:
        """`hand 3`, or `hand 3 (2nd)` for the second hand written as hand 3."""
        return said_at("hand", [x.number for x in self.game.hands], h)

    def _where(self, step: _Step) -> str:
        hand = f"{self._hand(step.h)}, " if len(self.game.hands) > 1 else ""
        return f"{hand}trick {step.t + 1}, turn {step.turn} ({self._name(step.seat)})"

    def _edit(self, kind: EditKind, text: str, step: _Step | None, **kw: object) -> Edit:
        if step is None:
            return Edit(kind, text, **kw)  # type: ignore[arg-type]
        return Edit(
            kind, text, self.game.hands[step.h].number, step.t + 1, step.turn,
            self._name(step.seat), **kw,  # type: ignore[arg-type]
        )  # fmt: skip

    # running ------------------------------------------------------------------------------------

    def done(self) -> bool:
        if self.tried >= self.budget:
            return True
        clean = [r for r in self.found if r.ok and r.warnings <= self.base.warnings]
        # Once a clean repair is found, look a little further for alternatives, then stop.
        if len(clean) >= self.want:
            return True
        return bool(clean) and self.tried - self.first_clean > PATIENCE

    def run(self) -> None:
        for edit in self.candidates():
            if self.done():
                return
            key = (edit.kind, edit.hand, edit.trick, edit.turn, edit.before, edit.after, edit.text)
            if key in self.keys:
                continue
            self.keys.add(key)
            try:
                record = edit.apply(self.game)
            except (IndexError, ValueError):
                continue
            self.tried += 1
            if not self._may_improve(record):
                continue
            self.validations += 1
            report = validate(record, self.rules)
            if report.errors < self.base.errors or (
                report.errors == self.base.errors and report.warnings < self.base.warnings
            ):
                repair = Repair((placed(self.game, edit, record),), record, report, len(self.found))
                if repair.ok and not any(r.ok for r in self.found):
                    self.first_clean = self.tried
                self.found.append(repair)

    def _may_improve(self, record: Game) -> bool:
        """Judge an edit by replaying from the edited hand: the hands before it are as in the
        record, so their findings are known and the game's state before it is copied from
        the first replay. The edited record's errors against the record's from that hand on
        are zfrec.baseline's one comparison (as for disputes and the live judge): it has
        `len(new) - len(gone)` more errors than the record. Only an edit that leaves fewer
        errors (or as many and fewer warnings) is validated in full, for its report.

        Edits change one hand and nothing before it. As the search always did, an edit that
        leaves that hand with as many errors as before (and some left up to it) is dropped,
        even if it changes later hands: it does not repair where the record first goes wrong.
        """
        hands = self.index.hands
        pairs = enumerate(zip(self.game.hands, record.hands, strict=False))
        h = next((i for i, (x, y) in pairs if x is not y), None)
        if h is None or len(record.hands) != len(self.game.hands):
            return True  # not an edit of one hand: validated in full
        before = hands[h].before
        earlier = hands[h - 1].before if h > 0 else None
        if before is None or (earlier is not None and earlier.over):
            return True  # a hand after the end of the game: validated in full
        self.resumed += 1
        errors_before = sum(i.errors for i in hands[:h])
        change = compare(self._baseline(h), record, h, before, self.rules)
        here = change.first_hand_errors
        if h < len(record.hands) - 1 and errors_before + here and here >= hands[h].errors:
            return False  # no fewer errors where the record first goes wrong
        errors = self.index.errors + len(change.new) - len(change.gone)
        warnings = sum(i.warnings for i in hands[:h]) + change.warnings
        base = self.base
        return errors < base.errors or (errors == base.errors and warnings < base.warnings)

    def _baseline(self, h: int) -> Baseline:
        """What the record's replay found from hand h on (its errors, by zfrec.baseline's key),
        gathered from the first replay: the record is not replayed again."""
        out = self.baselines.get(h)
        if out is None:
            found = sum((i.found for i in self.index.hands[h:]), Counter(self.index.game_found))
            out = self.baselines[h] = Baseline(None, found=found)
        return out

    def candidates(self) -> Iterator[Edit]:
        """Candidate edits, most targeted first, keyed by where the first error shows."""
        first = self.index.first
        if first is None:
            return
        where, h, k = first
        info = self.index.hands[h]
        # The record itself says a disputed move may have gone otherwise: its versions come first.
        yield from self._versions(info, k if where == "step" else len(info.steps) - 1)
        if where == "start":
            # A deal that is not whole: the plays of a card played twice are suspect too.
            yield from self._twice(info)
            yield from self._deal_fixes(h, info)
            yield from self._shuffler_fix(h, info.start_errors)
            yield from self._drop_hand(h, info.start_errors)
            k = next((i for i, s in enumerate(info.steps) if s.errors), -1)
        if where in ("start", "step") and k >= 0:
            step = info.steps[k]
            if where == "step" and any(d.code == "ZF302" for d in step.errors):
                # A card played twice shows at its second play; either play may be the wrong one.
                yield from self._twice(info)
            yield from self._at_step(info, step)
            for prev in self._window(info, k):
                yield from self._toggles(info, prev)
            yield from self._complete(info)
            for prev in self._window(info, k):
                yield from self._substitutes(info, prev)
        elif where == "end":
            yield from self._score_fixes(h, info.end_errors)
            yield from self._complete(info)
        elif where == "game":
            yield from self._result_fix()
            for other in self.index.hands:
                if not other.finished:
                    yield from self._complete(other)
        # A last resort: any pass or play of the hand in question toggled.
        for step in info.steps:
            yield from self._toggles(info, step)

    def _window(self, info: _HandInfo, k: int) -> list[_Step]:
        """The steps before step k back to the start of the previous trick, nearest first."""
        t = info.steps[k].t
        return [s for s in reversed(info.steps[:k]) if s.t >= t - 1]

    # generators ---------------------------------------------------------------------------------

    def _at_step(self, info: _HandInfo, step: _Step) -> Iterator[Edit]:
        move = step.move
        codes = {d.code for d in step.errors}
        if "ZF205" in codes and step.m:  # a lead written on the line of the trick before
            yield self._split(step)
        if "ZF103" in codes:  # a play too low: most often the seat passed
            yield from self._toggles(info, step)
        if move is not None and not move.is_pass:
            yield from self._redeclare(step, move)
            yield from self._substitutes(info, step, near=True)
            if "ZF301" in codes:
                yield from self._deal_swaps(info, step, move.cards & ~step.held)
            yield from self._substitutes(info, step, near=False)
        if "ZF203" in codes and step.h == 0 and step.t == 0:
            # The first leader holds the three of hearts (R4): perhaps the deal has it wrong.
            yield from self._deal_swaps(info, step, 1 << THREE_OF_HEARTS)
        yield from self._toggles(info, step)
        if step.due != step.seat and step.move is not None:
            # A play by the seat whose turn it was is missing before this move.
            due = replace(step, seat=step.due, held=step.due_held, m=None, move=None)
            yield from self._toggles(info, due)
        if move is not None and step.m is not None:
            yield self._edit(
                "delete", f"{self._where(step)} was not played", step,
                before=move.play_text(), apply=_set_move(step.h, step.t, step.m, None),
            )  # fmt: skip

    def _versions(self, info: _HandInfo, k: int) -> Iterator[Edit]:
        """The `or` versions of the disputed moves up to step k, nearest first."""
        for step in reversed(info.steps[: k + 1]):
            move = step.move
            if move is None or step.m is None:
                continue
            for version in move.alternatives:
                play = version.play_text()
                yield self._edit(
                    "version", f"{self._where(step)} was the disputed version {play}", step,
                    before=move.play_text(), after=play,
                    apply=_set_move(step.h, step.t, step.m, move.with_version(version)),
                )  # fmt: skip

    def _split(self, step: _Step) -> Edit:
        h, t, m = step.h, step.t, step.m or 0

        def apply(game: Game) -> Game:
            hand = game.hands[h]
            tricks = list(hand.tricks)
            moves = tricks[t].moves
            tricks[t : t + 1] = [replace(tricks[t], moves=moves[:m]), Trick(moves[m:])]
            return _with_hand(game, h, replace(hand, tricks=tricks))

        move = step.move
        play = move.play_text() if move is not None else "pass"
        return self._edit(
            "split", f"{self._name(step.seat)}'s {play} started a new trick line (trick {t + 1} "
            "was over)", step, apply=apply,
        )  # fmt: skip

    def _toggles(self, info: _HandInfo, step: _Step) -> Iterator[Edit]:
        """A play that was a pass, or a pass (written or inferred) that was a play."""
        move = step.move
        if move is not None and not move.is_pass and step.top is not None and step.m is not None:
            yield self._edit(
                "pass", f"{self._where(step)} was a pass", step, before=move.play_text(),
                after="pass", apply=_set_move(step.h, step.t, step.m, Move.passes(move.seat)),
            )  # fmt: skip
        if move is None or move.is_pass:
            for combo in self._plays_for(info, step):
                text = combo.text()
                if step.m is not None and move is not None:
                    new = _played(move, combo.mask, combo.jokers)
                    yield self._edit(
                        "play", f"{self._where(step)} was a play of {text}", step,
                        before="pass", after=text, apply=_set_move(step.h, step.t, step.m, new),
                    )  # fmt: skip
                else:
                    new = Move.plays(step.seat, combo.mask, combo.jokers)
                    yield self._edit(
                        "insert", f"{self._where(step)} played {text} (the record has no move)",
                        step, after=text, apply=_insert_move(step.h, step.t, step.insert_at, new),
                    )  # fmt: skip

    def _plays_for(self, info: _HandInfo, step: _Step) -> list[Combo]:
        """Plays to try in place of a pass: first those using only cards the seat never plays
        later in the record (a play that was left out), then a few others."""
        spare = self._spare(info, step.seat) & step.held
        top = step.top
        ok = [c for c in physical_plays(spare, top, self.rules) if _resolves(c, top, self.rules)]
        ok.sort(key=lambda c: (-c.mask.bit_count(), len(c.jokers), c.mask))
        if len(ok) < PLAYS_PER_PASS and step.held & ~spare:
            more = [
                c
                for c in physical_plays(step.held, top, self.rules)
                if c.mask & ~spare and _resolves(c, top, self.rules)
            ]
            more.sort(key=lambda c: ((c.mask & ~spare).bit_count(), len(c.jokers), c.mask))
            ok += more[: PLAYS_PER_PASS - len(ok)]
        return ok[:PLAYS_PER_PASS]

    def _spare(self, info: _HandInfo, seat: int) -> int:
        """Cards the seat was dealt and never plays in the record: those the record places with
        it, and those a rebuilt deal's guess placed there (Deal.unknown). A candidate is a
        record replayed anew, so a play of another seat's guessed card needs no reveal here:
        the candidate's own deal is rebuilt from its plays."""
        dealt = info.dealt
        if not 0 <= seat < len(dealt.known):
            return 0
        return (dealt.known[seat] | dealt.unknown[seat]) & ~self._played_by(info, seat)

    def _redeclare(self, step: _Step, move: Move) -> Iterator[Edit]:
        if not move.cards >> 52:
            return
        options: list[tuple[tuple[int, Stand], ...]] = []
        for combo in readings(move.cards, self.rules):
            if combo.jokers not in options:
                options.append(combo.jokers)
        if move.declarations:
            options.append(())
        for decls in options:
            if decls == move.declarations:
                continue
            new = _played(move, move.cards, decls)
            said = (
                " and ".join(f"{card_str(j)} was declared as {s}" for j, s in decls)
                if decls
                else "the jokers were not declared"
            )
            yield self._edit(
                "declare", f"{said} at {self._where(step)}", step, before=move.play_text(),
                after=new.play_text(), apply=_set_move(step.h, step.t, step.m or 0, new),
            )  # fmt: skip

    def _substitutes(
        self, info: _HandInfo, step: _Step, only: int | None = None, near: bool | None = None
    ) -> Iterator[Edit]:
        """One card of a play swapped for another the seat held: a card misread or miswritten.

        `near`: True for only the same rank (a suit misread), False for only other ranks.
        """
        move = step.move
        if move is None or move.is_pass or step.m is None:
            return
        spare = self._spare(info, step.seat)
        pool = step.held & ~move.cards
        targets = [only] if only is not None else list(iter_ids(move.cards))
        for d in targets:
            subs = [e for e in iter_ids(pool) if near is None or ((e >> 2) == (d >> 2)) == near]
            for e in sorted(subs, key=lambda c: (_distance(c, d), not spare >> c & 1, c)):
                mask = move.cards & ~(1 << d) | (1 << e)
                decls = tuple((j, s) for j, s in move.declarations if mask >> j & 1)
                combo = _try_resolve(mask, step.top, self.rules, dict(decls))
                if combo is None:
                    continue
                new = _played(move, mask, decls)
                yield self._edit(
                    "substitute", f"{self._where(step)} played {card_str(e)}, not {card_str(d)}",
                    step, before=move.play_text(), after=new.play_text(),
                    apply=_set_move(step.h, step.t, step.m, new),
                )  # fmt: skip

    def _twice(self, info: _HandInfo) -> Iterator[Edit]:
        """A card played twice: one of the two plays had another card."""
        earlier: dict[int, _Step] = {}
        for step in info.steps:
            move = step.move
            if move is None or move.is_pass:
                continue
            for d in iter_ids(move.cards):
                before = earlier.get(d)
                if before is None:
                    earlier[d] = step
                    continue
                yield from self._substitutes(info, step, d)
                yield from self._substitutes(info, before, d)

    def _deal_swaps(self, info: _HandInfo, step: _Step, wanted: int) -> Iterator[Edit]:
        """The seat held `wanted` cards, and their holder one the seat never played.

        These are edits of the written deal: `wanted` is written in another seat's hand, so the
        record proves it there, and `HandState.reveal` (which moves only guessed cards,
        Deal.unknown) refuses it by design. Both cards swapped are written ones: a card no
        written hand holds is never swapped (where the seat has room, the rebuilt deal gives a
        card it plays to it, and a candidate's deal is rebuilt from the candidate's plays)."""
        deal = self.game.hands[step.h].deal
        if deal is None:
            return
        s = step.seat
        spare = self._spare(info, s) & deal[s].known
        for x in iter_ids(wanted):
            holder = next((t for t, d in enumerate(deal) if d.known >> x & 1), None)
            if holder is None or holder == s:
                continue
            takes = self._played_by(info, holder)
            for c in sorted(
                iter_ids(spare), key=lambda c: (not takes >> c & 1, _distance(c, x), c)
            ):
                new = list(deal)
                new[s] = replace(deal[s], known=Cards(deal[s].known & ~(1 << c) | (1 << x)))
                new[holder] = replace(
                    deal[holder], known=Cards(deal[holder].known & ~(1 << x) | (1 << c))
                )
                yield self._edit(
                    "deal_swap",
                    f"{self._name(s)} held {card_str(x)} instead of {card_str(c)} "
                    f"(and {self._name(holder)} {card_str(c)} instead of {card_str(x)})",
                    None, hand=self.game.hands[step.h].number, seat=self._name(s),
                    before=card_str(c), after=card_str(x), apply=_set_deal(step.h, tuple(new)),
                )  # fmt: skip
            new = list(deal)
            new[s] = replace(deal[s], known=Cards(deal[s].known | (1 << x)))
            new[holder] = replace(deal[holder], known=Cards(deal[holder].known & ~(1 << x)))
            yield self._edit(
                "deal_move", f"{card_str(x)} was dealt to {self._name(s)}, not "
                f"{self._name(holder)}", None, hand=self.game.hands[step.h].number,
                seat=self._name(s), after=card_str(x), apply=_set_deal(step.h, tuple(new)),
            )  # fmt: skip

    def _played_by(self, info: _HandInfo, seat: int) -> int:
        """Every card the seat plays in the hand as the record has it."""
        out = 0
        for s in info.steps:
            if s.seat == seat and s.move is not None and not s.move.is_pass:
                out |= s.move.cards
        return out

    def _complete(self, info: _HandInfo) -> Iterator[Edit]:
        """A play left out: a seat's spare cards played at one of its passes."""
        for step in info.steps:
            if step.move is not None and not step.move.is_pass:
                continue
            if self._spare(info, step.seat) & step.held:
                yield from self._toggles(info, step)

    def _deal_fixes(self, h: int, info: _HandInfo) -> Iterator[Edit]:
        """A card written in two seats, or a card given to the wrong seat (hand sizes)."""
        deal = self.game.hands[h].deal
        if deal is None:
            return
        number = self.game.hands[h].number
        seen = 0
        twice = 0
        for d in deal:
            twice |= seen & d.known
            seen |= d.known
        missing = ((1 << 54) - 1) & ~seen if all(d.unknown == 0 for d in deal) else 0
        for c in iter_ids(twice):
            for s, d in enumerate(deal):
                if not d.known >> c & 1:
                    continue
                for y in iter_ids(missing):
                    new = list(deal)
                    new[s] = replace(d, known=Cards(d.known & ~(1 << c) | (1 << y)))
                    yield Edit(
                        "deal_swap", f"{self._name(s)} was dealt {card_str(y)}, not {card_str(c)}",
                        number, seat=self._name(s), before=card_str(c), after=card_str(y),
                        apply=_set_deal(h, tuple(new)),
                    )  # fmt: skip
        # Sizes: a card a seat plays, written in another seat's deal, moved to the player.
        for step in info.steps:
            move = step.move
            if move is None or move.is_pass or not 0 <= step.seat < len(deal):
                continue
            for x in iter_ids(move.cards & ~deal[step.seat].known):
                holder = next((t for t, d in enumerate(deal) if d.known >> x & 1), None)
                if holder is None:
                    continue
                new = list(deal)
                new[step.seat] = replace(
                    deal[step.seat], known=Cards(deal[step.seat].known | 1 << x)
                )
                new[holder] = replace(deal[holder], known=Cards(deal[holder].known & ~(1 << x)))
                yield Edit(
                    "deal_move", f"{card_str(x)} was dealt to {self._name(step.seat)}, not "
                    f"{self._name(holder)}", number, seat=self._name(step.seat),
                    after=card_str(x), apply=_set_deal(h, tuple(new)),
                )  # fmt: skip

    def _shuffler_fix(self, h: int, errs: tuple[Diagnostic, ...]) -> Iterator[Edit]:
        if h == 0 or not any(d.code == "ZF306" for d in errs):
            return
        last = self.base.hands[h - 1].result
        if last is None:
            return
        hand = self.game.hands[h]
        shuffler = last.last

        def apply(game: Game) -> Game:
            return _with_hand(game, h, replace(game.hands[h], shuffler=shuffler))

        yield Edit(
            "shuffler", f"{self._name(shuffler)} shuffled {self._hand(h)}", hand.number,
            seat=self._name(shuffler), after=self._name(shuffler), apply=apply,
        )  # fmt: skip

    def _drop_hand(self, h: int, errs: tuple[Diagnostic, ...]) -> Iterator[Edit]:
        if not any(d.code == "ZF404" for d in errs):
            return
        number = self.game.hands[h].number

        def apply(game: Game) -> Game:
            return replace(game, hands=game.hands[:h])

        said = self._hand(h)
        yield Edit("drop_hand", f"{said} and later were not played", number, apply=apply)

    def _score_fixes(self, h: int, errs: tuple[Diagnostic, ...]) -> Iterator[Edit]:
        hand = self.game.hands[h]
        ledger = self.base.hands[h] if h < len(self.base.hands) else None
        if hand.score is None or ledger is None or ledger.result is None:
            return
        codes = {d.code for d in errs}
        score = hand.score
        points, totals = ledger.result.points, ledger.totals
        fixed = HandScore(
            points if "ZF401" in codes else score.points,
            totals if "ZF402" in codes and score.totals is not None else score.totals,
        )
        changes = []
        if fixed.points != score.points:
            changes.append("points " + " ".join(map(str, fixed.points)))
        if fixed.totals != score.totals and fixed.totals is not None:
            changes.append("totals " + " ".join(map(str, fixed.totals)))
        if not changes:
            return

        def apply(game: Game) -> Game:
            return _with_hand(game, h, replace(game.hands[h], score=fixed))

        yield Edit(
            "score", f"the score line of {self._hand(h)} read {' and '.join(changes)}",
            hand.number, before=score_text(score), after=score_text(fixed), apply=apply,
        )  # fmt: skip

    def _result_fix(self) -> Iterator[Edit]:
        result = self.game.result
        if result is None:
            return
        fixed = Result(
            tuple(self.base.scores) if result.scores else (),
            tuple(self.base.winners) if result.winners or self.base.winners else (),
        )
        if fixed.scores == result.scores and fixed.winners == result.winners:
            return
        winners = ", ".join(self._name(s) for s in fixed.winners)
        said = " ".join(map(str, fixed.scores)) + (f" winner {winners}" if winners else "")

        def apply(game: Game) -> Game:
            return replace(game, result=fixed)

        yield Edit("result", f"the result read {said}", None, apply=apply)


def _distance(a: int, b: int) -> tuple[int, int]:
    """How alike two cards look: same rank first, then same suit, then rank apart."""
    rank_apart = abs((a >> 2) - (b >> 2))
    return (rank_apart != 0, rank_apart + 4 * ((a & 3) != (b & 3) or a >= 52 or b >= 52))


def _try_resolve(mask: int, top: Combo | None, rules: Ruleset, decls: Declarations) -> Combo | None:
    try:
        return resolve(mask, top, rules, decls or None)
    except IllegalPlayError:
        return None


def _resolves(combo: Combo, top: Combo | None, rules: Ruleset) -> bool:
    """Whether the play, written with its declarations, reads as itself where it is made."""
    return _try_resolve(combo.mask, top, rules, dict(combo.jokers)) is not None


def search_repairs(
    game: Game, rules: Ruleset, base: Report, budget: int, want: int
) -> tuple[list[Repair], int]:
    """Single-edit repairs of `game` (judged under `rules`; `base` is its report), and how many
    candidate records were tried (at most `budget`). Only edits that leave fewer errors are
    kept; the search stops a little after the first clean repair, or at `want` of them.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> game = example_game()
    >>> search_repairs(game, game.ruleset(), validate(game), 50, 1)  # nothing to repair
    ([], 0)
    """
    search = _Search(game, rules, base, budget, want)
    search.run()
    return search.found, search.tried


# score_text lives with the writer (zfrec.record.text); it is re-exported for old imports.
__all__ = ["Edit", "EditKind", "Repair", "RepairJson", "score_text", "search_repairs"]
