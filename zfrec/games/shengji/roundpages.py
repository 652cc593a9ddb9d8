"""Each round's replay page, and where the match's pages link a finding to: the round it is in,
and the step of that round's replay.

A round's page is `round-N.html`, by its number (`zfrec.render.pagenames`): a number the record
writes again (SJ508) gets a page of its own, `round-1-2.html` for the second round 1. A
finding names its round by number; where a number is written twice, its line in the record
tells which of them it is in.

    >>> from zfrec.games.shengji.records import SjMatch, SjRound
    >>> rounds = [SjRound(1, pos=(5, 1)), SjRound(1, pos=(40, 1)), SjRound(2, pos=(80, 1))]
    >>> links = RoundLinks.of(SjMatch(["A", "B", "C", "D"], rounds=rounds))
    >>> links.pages, links.repeated()
    (('round-1.html', 'round-1-2.html', 'round-2.html'), {1: ('round-1.html', 'round-1-2.html')})
    >>> from zfrec.errors import Location
    >>> links.index(Location(line=41, hand=1)), links.index(Location(line=6, hand=1))
    (1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from zfrec.errors import Location
from zfrec.games.shengji.records import SjMatch
from zfrec.games.shengji.report import SjReport, SjRoundLedger
from zfrec.render.pagenames import occurrences, repeat_suffix, repeated_pages, replay_pages

__all__ = ["RoundLinks", "round_href", "round_ledgers"]


def round_href(number: int) -> str:
    """The page of the first (or only) round the record writes with this number."""
    return f"round-{number}.html"


def round_ledgers(match: SjMatch, report: SjReport) -> list[SjRoundLedger | None]:
    """Each round's ledger, by the round's place in the record (None: the validator could not
    account for it), whatever the rounds' numbers."""
    out: list[SjRoundLedger | None] = [None] * len(match.rounds)
    for ledger in report.rounds:
        if 0 <= ledger.index < len(out):
            out[ledger.index] = ledger
    return out


@dataclass(slots=True)
class RoundLinks:
    """The rounds' pages, in record order, and the step of each play on them."""

    numbers: tuple[int, ...]
    pages: tuple[str, ...]
    starts: tuple[int | None, ...]  # the line each round starts on in the record
    occurrence: tuple[int, ...]  # 2: the second round the record numbers so
    # (round's place, trick, turn) -> the step of the round's replay that shows the play
    steps: dict[tuple[int, int, int], int] = field(default_factory=dict)

    @staticmethod
    def of(match: SjMatch) -> RoundLinks:
        numbers = [r.number for r in match.rounds]
        return RoundLinks(
            tuple(numbers),
            tuple(replay_pages(numbers, round_href)),
            tuple(r.pos[0] if r.pos else None for r in match.rounds),
            tuple(occurrences(numbers)),
        )

    def label(self, index: int) -> str:
        """`Round 3`, or `Round 3 (2nd)` for the second round written as round 3."""
        return f"Round {self.numbers[index]}{repeat_suffix(self.occurrence[index])}"

    def repeated(self) -> dict[int, tuple[str, ...]]:
        return repeated_pages(self.numbers, self.pages)

    def index(self, loc: Location | None) -> int | None:
        """The place of the round a finding is in: by its number, and where that number is
        written more than once, the last such round that starts at or before its line."""
        if loc is None or loc.hand is None:
            return None
        found = [i for i, n in enumerate(self.numbers) if n == loc.hand]
        if len(found) > 1 and loc.line is not None:
            before = [i for i in found if (self.starts[i] or 0) <= loc.line]
            return before[-1] if before else found[0]
        return found[0] if found else None

    def href(
        self, loc: Location | None, *, whole_round: bool = True, unknown: int | None = None
    ) -> str | None:
        """A finding's link: its round's page, at the step of its play (`#step=`; `unknown`
        where no step shows it, or none), or at the round's deal when it concerns the whole
        round (`whole_round`)."""
        i = self.index(loc)
        if i is None or loc is None:
            return None
        href = self.pages[i]
        if loc.trick is not None:
            step = self.steps.get((i, loc.trick, loc.turn or 1), unknown)
            if step is not None:
                href += f"#step={step}"
        elif whole_round:
            href += "#step=0"
        return href

    def add_steps(self, index: int, steps: Sequence[dict[str, object]]) -> None:
        """Note the step of each play of a round's replay (its page data's `steps`)."""
        for k, st in enumerate(steps):
            if st["kind"] == "play":
                trick, turn = st["trick"], st["turn"]
                assert isinstance(trick, int) and isinstance(turn, int)
                self.steps[(index, trick, turn)] = k
