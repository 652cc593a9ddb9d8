"""The Sheng ji validator's state for one match and how it reports a finding
(`ReplayBase.note`): where in the record, and what the finding follows from (DIAGNOSTICS.md,
causes). `zfrec.games.shengji.replayplays` judges the plays on it, and
`zfrec.games.shengji.replayer` replays the match round by round.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypedDict

from zfrec.diagnostics import Cause, Diagnostic
from zfrec.errors import GameError, IllegalPlayError, Location
from zfrec.games.shengji.cards import size
from zfrec.games.shengji.order import Order
from zfrec.games.shengji.rebuild import Rebuilt
from zfrec.games.shengji.records import SjMatch, SjMove, SjTrick
from zfrec.games.shengji.report import SjRoundLedger
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import SjRules
from zfrec.games.shengji.verdicts import Shorts, hiding_cause, kept_back
from zfrec.record.model import Pos
from zfrec.record.problems import Fix

__all__ = ["At", "ReplayBase", "first_pos", "line_col"]


class At(TypedDict):
    """Where a play stands in the round: trick, turn and seat (for `note`)."""

    trick: int
    turn: int
    seat: int


RULES_MD = "RULES-SHENGJI.md"
# Errors that change what the replay computes for the rest of a round: its ledger follows.
ALTERING = frozenset((
    "SJ102", "SJ103", "SJ104", "SJ203", "SJ204", "SJ206", "SJ301", "SJ302", "SJ303", "SJ304",
    "SJ401", "SJ402", "SJ403", "SJ404", "SJ405", "SJ406", "SJ505",
))  # fmt: skip
# Findings that, written without a cause, follow from an earlier one: at the same move (a
# seat out of turn), in the same trick (after a lead that was wrong), or in the same round
# (after a wrong deal, bid, dealer, rank or trump).
DEFAULTED = frozenset((
    "SJ101", "SJ102", "SJ103", "SJ104", "SJ201", "SJ202", "SJ203", "SJ205", "SJ206", "SJ304",
    "SJ401", "SJ402", "SJ403", "SJ404", "SJ405", "SJ406", "SJ407",
))  # fmt: skip
TRICK_ROOTS = ALTERING | {"SJ202", "SJ203"}
TRICK_FOLLOW = frozenset(("SJ102", "SJ201", "SJ202"))
_RULING = re.compile(r"\s*\(rulings? [\d, ]+\)")


def first_pos(*candidates: Pos | None) -> Pos | None:
    """The first place given."""
    return next((p for p in candidates if p is not None), None)


def line_col(pos: Pos | Location | None) -> tuple[int | None, int | None]:
    """The line and column of a place in the record, as a Cause names them."""
    if isinstance(pos, Location):
        return pos.line, pos.col
    return (pos[0], pos[1]) if pos is not None else (None, None)


class ReplayBase:
    """One match's replay: its state, and `note`, which turns a finding into a located
    Diagnostic."""

    def __init__(self, match: SjMatch, game_number: int | None, rules: SjRules | None) -> None:
        self.match = match
        self.given_rules = rules
        # what the reader could not read (ZF001), by the round it is in, and the moves it
        # spoils: what goes wrong at such a move follows from it
        self.read_causes: dict[tuple[int, int], Cause] = {
            p.move: Cause(p.pos[0], p.pos[1], "ZF001") for p in match.problems if p.move
        }
        self.game_number = game_number
        self.found: list[Diagnostic] = []
        self.ledgers: list[SjRoundLedger] = []
        self.moves = 0
        self.round_no: int | None = None
        self.round_index = -1  # the round's place in the record (its number may be written twice)
        self.round_occurrence = 1  # 2: the second round so numbered (zfrec.numbering)
        self.root: Cause | None = None  # the round's first altering error
        self.names = match.players
        # (seat, card id) -> the error at whose play the seat spent the card: a later play of
        # it "does not hold" follows from that error (DIAGNOSTICS.md, causes)
        self.spent: dict[tuple[int, int], Cause] = {}
        self.trick_root: Cause | None = None  # the current trick's first altering error
        self.move_cause: Cause | None = None  # the current move's turn error
        self.round_cause: Cause | None = None  # the round's first error before play
        self.trusted = False  # the last round was left unfinished: take this one's start
        self.lost: list[Cause] = []  # the round's lines the reader skipped, in order
        self.open_last = False  # replay_open: the last trick may be open
        self.last_state: RoundState | None = None
        self.last_rebuilt: Rebuilt | None = None
        self.hidden_kitty = 0  # the round's discard as far as not written (`unseen`)
        self.tricks: list[SjTrick] = []  # the round's tricks as written (`why_leads`)
        # seat -> the errors at its plays in the round, in order: where (trick, turn), the
        # cause, and the suits the play concerned (`kept_cause`); and whether the round's
        # plays account for every card of the hands at play
        self.erred: dict[int, list[tuple[tuple[int, int], Cause, int]]] = {}
        # seat -> its follows written with fewer cards than were led, in order: where, and
        # what a finding that follows from one names (`unseen_cause`)
        self.short: Shorts = {}
        # the play being judged (after the fast path): its order, cards and lead's suit
        self.concern: tuple[Order, int, int | None] | None = None
        self.at_play = 0  # the cards of the hands at play; `written_whole` counts on demand
        self._whole: bool | None = None
        self.end_written = False  # the round being judged writes its end (points, result)
        # the round's SJ210 (its end written, plays missing): its levels are not known
        self.gap: Cause | None = None
        # the SJ210 after which no levels line says the levels (`_Replay.round`)
        self.unknown_levels: Cause | None = None

    # reporting ---------------------------------------------------------------------------------

    def note(
        self, code: str, message: str, pos: Pos | None, *, trick: int | None = None,
        turn: int | None = None, seat: int | None = None, cause: Cause | None = None,
        rule: str | None = None, fix: Fix | None = None,
    ) -> Diagnostic:  # fmt: skip
        """Record a finding; `rule` (a ruling number) is cited as RULES-SHENGJI.md's."""
        if cause is None and code in DEFAULTED:
            cause = (
                self.move_cause
                or (self.trick_root if code in TRICK_FOLLOW else None)
                or self.round_cause
            )
        if rule is not None:
            cites = ", ".join(f"R{r.strip()}" for r in rule.split(","))
            message = f"{_RULING.sub('', message)} ({RULES_MD} {cites})"
        where = pos or self.match.pos
        line, col = (where[0], where[1]) if where is not None else (None, None)
        name = self.names[seat] if seat is not None and 0 <= seat < len(self.names) else None
        found = Diagnostic(
            code, message,
            Location(self.match.source, line, col, self.game_number, self.round_no, trick, turn,
                     name, unit="round",
                     occurrence=self.round_occurrence if self.round_no is not None else 1),
            cause, fix,
        )  # fmt: skip
        self.found.append(found)
        if code in ALTERING and self.root is None:
            self.root = cause or Cause(line, col, code)
        if code in TRICK_ROOTS and self.trick_root is None:
            self.trick_root = cause or Cause(line, col, code)
        if code in ("SJ202", "SJ203"):
            self.move_cause = cause or Cause(line, col, code)
        # (a play that could not be read is no error of the seat's play: ZF001 is left out)
        if seat is not None and trick is not None and found.severity == "error" and code != "ZF001":
            why = cause or Cause(line, col, code)
            self.erred.setdefault(seat, []).append(((trick, turn or 0), why, self._suits()))
        return found

    def _suits(self) -> int:
        """The packed mask of the effective suits the play being judged concerns: those of its
        cards and its trick's lead; every card outside a play."""
        if self.concern is None:
            return -1
        order, cards, led = self.concern
        masks = order.suit_mask
        return sum(masks[e] for e in range(len(masks)) if cards & masks[e] or e == led)

    def kept_cause(
        self, state: RoundState, seat: int, m: SjMove, at: At, fine: Callable[[int], bool]
    ) -> Cause | None:
        """What a finding at play `m` (the follow of `seat`, or its block of a throw) follows
        from: in a round written to its end (its plays account for every card, or it writes its
        points, result or levels), the first earlier error of the seat's own that
        kept in its hand cards the record never has it play from here on, in the suits that
        error's play concerned, without which it would be no finding (`fine(kept)`). None when
        no such error: cards of other suits are not kept by it (a later error keeps them)."""
        errors = self.erred.get(seat)
        if not errors or not (self.end_written or self.written_whole()):
            return None
        kept = kept_back(self.tricks, state.hands[seat], seat, m, at["trick"])
        here = (at["trick"], at["turn"])
        for where, why, suits in errors:
            mine = kept & suits
            if where < here and mine and fine(mine):
                return why
        return None

    def unseen_cause(self, thrower: int, guessed: list[int], at: At) -> Cause | None:
        """What a throw proven beaten by counting the cards no line shows (`sure_single`)
        follows from (`verdicts.hiding_cause`): only in a round whose end is written (its
        points, result or levels), where a seat's cards no line shows are its own error's."""
        if not self.end_written:
            return None
        return hiding_cause(self.short, thrower, guessed, (at["trick"], at["turn"]))

    def engine(
        self, exc: GameError, pos: Pos | None, *, trick: int | None = None,
        turn: int | None = None, seat: int | None = None, extra: str = "",
        cause: Cause | None = None,
    ) -> Diagnostic:  # fmt: skip
        """Route an engine error to the record: its code and rule, the seats by name."""
        message = exc.render(lambda s: self.names[s] if 0 <= s < len(self.names) else "?")
        rule = exc.rule if isinstance(exc, IllegalPlayError) else None
        return self.note(exc.code or "SJ102", message + extra, pos, trick=trick, turn=turn,
                         seat=seat, cause=cause, rule=rule or "2")  # fmt: skip

    def _names(self, seats: Sequence[int]) -> str:
        return " and ".join(self.names[s] for s in seats)

    def written_whole(self) -> bool:
        """Whether the round's plays account for every card of the hands at play. Asked only
        on an error: counting reads every trick's moves, which a plain line makes lazily."""
        if self._whole is None:
            written = sum(size(x.played) for tr in self.tricks for x in tr.moves)
            self._whole = written == self.at_play
        return self._whole
