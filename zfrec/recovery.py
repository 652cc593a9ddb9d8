"""After a mistake: how the replay reads a move the reader could not, and what follows from what.

The replay (zfrec.replay) goes on after every mistake of a record (DIAGNOSTICS.md, After an
error). This module holds the parts of that which need no replay state: which diagnostics make
later ones inevitable, the cards an unreadable card may be, and the deal rebuilt around them.

    >>> from zfrec.games.zhengfen.engine.cards import parse_cards
    >>> from zfrec.record.problems import ReadProblem
    >>> bad = ReadProblem("card", "unknown suit 'j' in '9j'", (4, 5), (4, 7), (4, 1), rank=6)
    >>> read = read_unreadable([bad], parse_cards("9d Kd"), 0)
    >>> read.cards == parse_cards("9d"), read.skip, read.notes[0][1]
    (True, False, "unknown suit 'j' in '9j'; did you mean 9d? (replayed as 9d)")
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zfrec.diagnostics import Cause, Diagnostic
from zfrec.games.zhengfen.engine.cards import FULL_DECK, card_str
from zfrec.record.model import SeatDeal
from zfrec.record.problems import Fix, ReadProblem, card_candidates, card_fix, did_you_mean

# Errors that change what the replay computes for the rest of a hand (a move skipped, cards a
# seat did not hold, a deal that is not whole): the hand's later ledger errors follow from them.
# An unreadable move is one of them when it is skipped.
ALTERING = frozenset(("ZF202", "ZF204", "ZF301", "ZF302", "ZF303", "ZF304"))
# What follows from a guess at a move read by guess: from a guessed card, or a guessed seat.
CARD_CODES = frozenset(("ZF101", "ZF102", "ZF103", "ZF104", "ZF301"))
SEAT_CODES = frozenset(("ZF105", "ZF201", "ZF202", "ZF203", "ZF205", "ZF209", "ZF301"))
# What follows, at the start of a hand, from a hand before it that may have ended otherwise: its
# shuffler, draw order and first leader.
START_CODES = frozenset(("ZF203", "ZF304", "ZF306"))
# What follows from a move skipped earlier in the same trick (ZF203 also on the next trick).
TURN_FOLLOW = frozenset(("ZF103", "ZF105", "ZF201", "ZF202", "ZF203", "ZF205", "ZF209"))


def cause_of(found: Diagnostic) -> Cause:
    """A diagnostic as the cause of later ones: its root cause if it has one, else itself."""
    if found.cause is not None:
        return found.cause
    return Cause(found.location.line, found.location.col, found.code)


@dataclass(frozen=True, slots=True)
class Read:
    """An unreadable move as far as it can be read: its cards (the readable ones and the
    unreadable ones that only one held card fits), whether it must be skipped, and for each
    problem its message (with suggestions) and fix."""

    cards: int
    skip: bool
    notes: tuple[tuple[ReadProblem, str, Fix | None], ...]


def read_unreadable(problems: Sequence[ReadProblem], held: int, cards: int) -> Read:
    """Read the problems of one move against `held`, the cards the seat still holds besides the
    readable `cards` (0 when it is not known). A `move` problem, or a card that no held card or
    several fit, makes the move one to skip."""
    skip = any(p.kind == "move" for p in problems)
    notes: list[tuple[ReadProblem, str, Fix | None]] = []
    for problem in problems:
        message, fix = problem.message, problem.fix
        if problem.kind == "card":
            options = card_candidates(problem.rank, problem.suit, held)
            hint = did_you_mean([card_str(c) for c in options])
            fix = card_fix(problem, options)
            if len(options) == 1:
                cards |= 1 << options[0]
                held &= ~(1 << options[0])
                hint += f" (replayed as {card_str(options[0])})"
            else:
                skip = True
            message += f"; {hint}" if hint else ""
        notes.append((problem, message, fix))
    return Read(cards, skip, tuple(notes))


def skipped_note(message: str) -> str:
    """A problem's message, saying that its move is skipped."""
    return message + (
        " (the move is skipped)" if message.endswith("?") else "; the move is skipped"
    )


def guess_unreadable(
    deal: Sequence[SeatDeal] | None, played: list[int], guesses: Sequence[tuple[int, ReadProblem]]
) -> None:
    """Before a deal is rebuilt from the plays: take an unreadable card as the one card nobody
    else was dealt or played that fits what could be read of it, if there is exactly one, and
    add it to what its seat played, so that the rebuilt deal gives it to that seat."""
    taken = 0
    for cards in played:
        taken |= cards
    for s, problem in guesses:
        if problem.kind != "card":
            continue
        own = deal[s].known if deal is not None else 0
        others = 0
        for t, dealt in enumerate(deal or ()):
            if t != s:
                others |= dealt.known
        free = (FULL_DECK & ~taken & ~others) | (own & ~taken)
        options = card_candidates(problem.rank, problem.suit, free)
        if len(options) == 1:
            card = 1 << options[0]
            played[s] |= card
            taken |= card
