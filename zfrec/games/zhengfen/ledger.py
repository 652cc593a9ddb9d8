"""The score ledger of a replay: each hand's recorded points and totals, and the recorded
result, against the computed ones (DIAGNOSTICS.md, "After a broken hand"). A part of the replay
(zfrec.replay), kept apart: after a wrong total the game goes on from what the record says, and
what is found names what it follows from.
"""

from __future__ import annotations

from zfrec.diagnostics import Cause, Diagnostic
from zfrec.events import GameEnd, ReplayState
from zfrec.games.zhengfen.engine.game import HandResult, HandState
from zfrec.games.zhengfen.engine.seats import seat
from zfrec.record.model import Game, Hand, Move, Pos
from zfrec.record.problems import Fix
from zfrec.recovery import cause_of


class Ledger:
    """The ledger's methods of the replay (`_Replayer` inherits them); the state they keep is
    the replay's, declared here for the type checker."""

    state: ReplayState
    record: Game
    found: list[Diagnostic]
    _hand_root: Cause | None
    _ledger_cause: Cause | None
    _restate: tuple[int, ...] | None
    _totals_unknown: bool
    _shadow: tuple[int, ...] | None

    def _report(
        self,
        code: str,
        message: str,
        hand: Hand | None = None,
        trick: int | None = None,
        move: Move | None = None,
        pos: Pos | None = None,
        *,
        cause: Cause | None = None,
        fix: Fix | None = None,
        at: tuple[int, int] | None = None,
    ) -> Diagnostic:
        raise NotImplementedError  # the replay's

    def _take(self) -> tuple[Diagnostic, ...]:
        raise NotImplementedError  # the replay's

    def _name(self, seat: int) -> str:
        raise NotImplementedError  # the replay's

    def _said(self, hand: Hand) -> str:
        raise NotImplementedError  # the replay's: `hand 3`, `hand 3 (2nd)`

    def _game_end(self) -> GameEnd:
        game, result = self.state.game, self.record.result
        recorded = tuple(result.scores) if result is not None else ()
        if recorded and recorded != tuple(game.scores):
            if self._totals_unknown:
                # The totals were lost with a hand closed early, and no later hand gave them:
                # the final scores cannot be checked; the winners are judged by the recorded.
                game.restate_scores(recorded)
            elif self._restate is not None:
                # The last hand's totals were written wrong (one error, ZF402): the result
                # is checked from them, as a next hand would be.
                game.restate_scores(self._restate)
        winners = tuple(seat(s) for s in game.winners())
        cause = self._ledger_cause
        if result is not None:
            scores = tuple(game.scores)
            if result.scores and tuple(result.scores) != scores:
                self._report(
                    "ZF403",
                    f"recorded final scores {self._scores(result.scores)} differ from the "
                    f"computed {self._scores(scores)} (RULES.md R12)",
                    pos=result.pos,
                    cause=cause,
                )
            if result.winners and tuple(sorted(result.winners)) != winners:
                computed = ", ".join(self._name(s) for s in winners) or "nobody yet"
                named = ", ".join(self._name(s) for s in result.winners)
                self._report(
                    "ZF403",
                    f"recorded winner {named} differs from the computed winner {computed} "
                    "(RULES.md R12)",
                    pos=result.pos,
                    cause=cause,
                )
        return GameEnd(tuple(game.scores), winners, game.over, self._take())

    def _scores(self, scores: tuple[int, ...]) -> str:
        return ", ".join(f"{self._name(s)} {v}" for s, v in enumerate(scores))

    def _closed_early(self, hand: Hand, hs: HandState) -> None:
        """A score line or the next hand closes a hand that play had not finished (R24): an
        error at the hand; the game goes on from the totals the record gives."""
        holding = ", ".join(self._name(s) for s in hs.holding())
        closer = "a score line" if hand.score is not None else "the next hand"
        self._report(
            "ZF208",
            f"{self._said(hand)} is closed by {closer} before it ended: {holding} still hold "
            "cards (RULES.md R24)",
            hand,
            pos=hand.score.pos if hand.score is not None else None,
            cause=self._hand_root,
        )
        score = hand.score
        self._shadow = None
        if score is None:  # the hand's points, and so the running totals, are lost
            self._totals_unknown = True
        self.state.game.close_unfinished(
            score.points if score is not None else None,
            score.totals if score is not None else None,
        )

    def _check_score(self, hand: Hand, result: HandResult) -> None:
        """The recorded points and totals against the computed ones. A wrong total is one
        error: the game goes on from the recorded totals. Errors that follow from an earlier
        one in the hand (a skipped move, cards not held) name it as their cause."""
        score = hand.score
        if score is None:
            if self._hand_root is not None:
                self._ledger_cause = self._hand_root  # the points may not be the real ones
            return
        cause = self._hand_root
        if tuple(score.points) != result.points:
            transfer = (
                f"; {self._name(result.last)} came last and gave "
                f"{result.transfer_points} points to {self._name(result.first)}"
            )
            found = self._report(
                "ZF401",
                f"recorded points {self._scores(score.points)} differ from the computed "
                f"{self._scores(result.points)}{transfer} (RULES.md R10, R11)",
                hand,
                pos=score.pos,
                cause=cause,
            )
            cause = cause or Cause(found.location.line, found.location.col, found.code)
            self._ledger_cause = cause
        totals = tuple(self.state.game.scores)
        recorded = None if score.totals is None else tuple(score.totals)
        if recorded is None:
            pass  # nothing to check; a wrong total before is still remembered
        elif recorded == totals:
            self._shadow = self._ledger_cause = None
        elif self._totals_unknown:
            # The totals before this hand were lost with a hand closed early without them:
            # they cannot be checked, and the game goes on from what the record says, from
            # now on (R24): this hand's totals, the end of the game and its winners too.
            self._totals_unknown, self._shadow, self._ledger_cause = False, None, None
            self.state.game.restate_scores(recorded)
        elif recorded == self._shadow:
            # After a wrong total the record went back to the computed ones: so does the game.
            self.state.game.restate_scores(recorded)
            self._shadow = self._ledger_cause = None
        else:
            self._report(
                "ZF402",
                f"recorded running totals {self._scores(recorded)} differ from the "
                f"computed {self._scores(totals)} (RULES.md R12)",
                hand,
                pos=score.pos,
                cause=cause,
            )
            self._restate = recorded  # the next hand starts from them
            self._ledger_cause = cause or cause_of(self.found[-1])
            if self._shadow is None:
                self._shadow = totals  # ... unless the record comes back to these
