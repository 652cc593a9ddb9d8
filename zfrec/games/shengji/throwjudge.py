"""The validator's judge of a lead of more than one unit (ruling 10): whether a throw stands
as the record writes it, its forced part and its blocker, against the hands at play where they
are known and, where the rebuild guessed cards, against what the unseen cards allow
(`zfrec.games.shengji.unseen`; DIAGNOSTICS.md, Sheng ji, SJ103 and SJ104). The replay
(`zfrec.games.shengji.replayplays`) calls it with itself as the `Judge`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from zfrec.diagnostics import Cause, Diagnostic
from zfrec.games.shengji.cards import format_hand
from zfrec.games.shengji.formats import classify, unit_text
from zfrec.games.shengji.records import SjMove, SjTrick
from zfrec.games.shengji.replaybase import At
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.throws import check_throw, equal_units, throw_units
from zfrec.games.shengji.unseen import (
    blockers,
    comes_after,
    less,
    out_of_suit,
    shown_voids,
    sure_single,
)
from zfrec.record.model import Pos

__all__ = ["Judge", "judge_throw"]


class Judge(Protocol):
    """What the judge needs of the replay: the names, the round's tricks as written, the
    kitty's unwritten cards, how a finding is recorded and what it follows from."""

    @property
    def names(self) -> Sequence[str]: ...

    @property
    def tricks(self) -> Sequence[SjTrick]: ...

    @property
    def hidden_kitty(self) -> int: ...

    @property
    def found(self) -> Sequence[Diagnostic]: ...

    @property
    def round_no(self) -> int | None: ...

    def note(
        self, code: str, message: str, pos: Pos | None, *, trick: int | None = None,
        turn: int | None = None, seat: int | None = None, cause: Cause | None = None,
        rule: str | None = None,
    ) -> Diagnostic: ...  # fmt: skip

    def kept_cause(
        self, state: RoundState, seat: int, m: SjMove, at: At, fine: Callable[[int], bool]
    ) -> Cause | None: ...

    def unseen_cause(self, thrower: int, guessed: list[int], at: At) -> Cause | None: ...


def judge_throw(rp: Judge, state: RoundState, m: SjMove, guessed: list[int], at: At) -> bool:
    """A lead of more than one unit: whether it stands, as the record says (ruling 10)."""
    order = state.order
    assert order is not None
    seat, cards = m.seat, m.cards
    others = state.others(seat)
    if m.failed and m.played not in (units := throw_units(order, cards)):
        rp.note("SJ104", f"the throw {format_hand(cards)} is held to one of its units whole "
                  f"({', '.join(map(format_hand, units))}), not {format_hand(m.played)}",
                  m.pos, rule="10", **at)  # fmt: skip
        state.force_play(seat, cards, m.played)
        return False
    check = check_throw(order, cards, others)
    proven = None  # a single of the throw the written cards prove beaten (`sure_single`)
    if any(guessed):  # judged as far as the known cards allow
        known = [less(h, guessed[(seat + i) % state.n]) for i, h in enumerate(others, 1)]
        sure = check_throw(order, cards, known)
        proven = sure_single(order, cards, seat, state.hands, guessed, rp.hidden_kitty,
                             sure)  # fmt: skip
        if m.failed and proven is not None and comes_after(order, m.played, proven[0]):
            rp.note("SJ104", f"the throw {format_hand(cards)} is held to {proven[2]}, not "
                      f"{format_hand(m.played)}: {proven[1]}", m.pos, rule="10",
                      **at)  # fmt: skip
            state.force_play(seat, cards, m.played)
            return False
        if m.failed and (sure.stands or sure.forced != m.played):
            # a block the known cards do not make: true if cards no play has shown may
            # make it (the guess is one placing of them, no proof either way)
            e = classify(order, cards).esuit
            void = shown_voids(order, rp.tricks[: at["trick"] - 1], e, _erred(rp))
            able = blockers(order, m.cards, m.played, seat, state.hands, guessed,
                            rp.hidden_kitty, sure, list(void))  # fmt: skip
            if m.blocker in able or (able and m.blocker is None):
                state.force_play(seat, cards, m.played)
                return False
            if able and m.blocker is not None:
                reason = out_of_suit(rp.names, rp.tricks, void, m.blocker, e) or (
                    "no card left unseen gives it a unit that beats " + format_hand(m.played)
                )
                rp.note("SJ104", f"{rp.names[m.blocker]} cannot block the throw "
                          f"{format_hand(cards)}: {reason}", m.pos, rule="10",
                          **at)  # fmt: skip
                state.force_play(seat, cards, m.played)
                return False
        check = sure
    if not m.failed:
        if proven is not None:  # the written cards leave a higher card no place but a hand
            rp.note("SJ103", f"the throw {format_hand(cards)} cannot stand: {proven[1]}; "
                      f"it is held to {proven[2]}", m.pos, rule="10",
                      cause=rp.unseen_cause(seat, guessed, at), **at)  # fmt: skip
        elif not check.stands:
            assert check.unit is not None and check.blocker is not None
            blocker = (seat + 1 + check.blocker) % state.n
            why = rp.kept_cause(state, blocker, m, at, lambda kept: check_throw(
                order, cards, [less(h, kept) if (seat + i) % state.n == blocker else h
                               for i, h in enumerate(others, 1)],
            ).stands)  # fmt: skip
            rp.note("SJ103", f"the throw {format_hand(cards)} cannot stand: "
                      f"{rp.names[blocker]} holds a higher {check.unit.kind} than "
                      f"{unit_text(check.unit)}; it is held to {format_hand(check.forced)}",
                      m.pos, rule="10", cause=why, **at)  # fmt: skip
        state.force_play(seat, cards, cards)
        return False
    forced = m.played
    if check.stands:
        rp.note("SJ104", f"the throw {format_hand(cards)} stands: nobody holds a unit "
                  "that beats one of its units; it is played whole", m.pos, rule="10",
                  **at)  # fmt: skip
    elif check.forced != forced and not equal_units(order, check.forced, forced):
        rp.note("SJ104", f"the throw {format_hand(cards)} is held to "
                  f"{format_hand(check.forced)}, not {format_hand(forced)}", m.pos,
                  rule="10", **at)  # fmt: skip
    elif m.blocker is not None and check.blocker is not None:
        blocker = (seat + 1 + check.blocker) % state.n
        able = blockers(
            order, cards, forced, seat, state.hands, guessed, rp.hidden_kitty, check
        )  # naming another seat that could beat it: a slip of order only
        if blocker != m.blocker and m.blocker not in able:
            rp.note("SJ104", f"{rp.names[blocker]} blocks the throw, not "
                      f"{rp.names[m.blocker]}", m.pos, rule="10", **at)  # fmt: skip
    state.force_play(seat, cards, forced)
    return False


def _erred(rp: Judge) -> set[tuple[int, int]]:
    """(trick, seat) of the round's plays found wrong so far (errors, not warnings)."""
    seats = {name: s for s, name in enumerate(rp.names)}
    return {
        (d.location.trick, seats[d.location.seat])
        for d in rp.found
        if d.severity == "error"
        and d.location.hand == rp.round_no
        and d.location.trick is not None
        and d.location.seat in seats
    }
