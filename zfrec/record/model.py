"""The typed game record: what was written down, with where it was written.

This is data, not rules. Nothing here knows whether a play is legal or a score adds up; the replay
and the validator decide that. The model only guarantees the structure that both notations (.zfn
text and JSON) can express, so that text -> record -> JSON -> record -> text is lossless.

Seats are 0-based indices into `Game.players` here; both notations show them 1-based.
Every element carries its source position (`pos`), which never takes part in equality: a record
read from JSON (no positions) equals the same record read from text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from zfrec.engine.cards import NUM_RANKS, SJ, Stand, format_play
from zfrec.engine.rules import Ruleset, preset

ANNOTATIONS = ("!", "?", "!!", "??", "!?", "?!")
DEFAULT_TARGET = 500
DEFAULT_PRESET = "pagat"
MIN_PLAYERS = 3
MAX_PLAYERS = 6

# Characters a player name may not contain, because the text notation uses them as delimiters:
# quotes and colons around seat references, commas between names in [Players], brackets of tags,
# braces and semicolons of comments, and the escape character. The full-width forms are
# delimiters too, because Chinese keyboards type them.
NAME_FORBIDDEN = frozenset('"“”,，、:：;{}[]\\')

# Tags with their own Game fields, by casefolded name; others go to Game.extra_tags in order.
KNOWN_TAGS = {
    t.casefold(): t for t in ("Event", "Site", "Date", "Players", "Rules", "Target", "Result")
}
TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")

Declaration = tuple[int, Stand]  # joker card id, what it stands for
RuleValue = bool | int | str


@dataclass(frozen=True, slots=True)
class Pos:
    """A 1-based line and column (in characters) in the source text."""

    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Move:
    """One recorded turn: a play of `cards` or a pass, by `seat`."""

    seat: int
    is_pass: bool = False
    cards: int = 0
    declarations: tuple[Declaration, ...] = ()
    annotation: str | None = None
    comments: list[str] = field(default_factory=list)
    disputed: bool = False
    dispute_note: str | None = None
    pos: Pos | None = field(default=None, compare=False)  # where it was written

    @staticmethod
    def passes(seat: int, **extra: Any) -> Move:
        return Move(seat, is_pass=True, **extra)

    @staticmethod
    def plays(
        seat: int, cards: int, declarations: tuple[Declaration, ...] = (), **extra: Any
    ) -> Move:
        ordered = tuple(sorted(declarations, key=lambda d: d[0]))
        return Move(seat, cards=cards, declarations=ordered, **extra)

    def play_text(self) -> str:
        """`pass`, or the canonical cards with their declarations (`7s 7h BJ=8h`)."""
        if self.is_pass:
            return "pass"
        return format_play(self.cards, dict(self.declarations))


@dataclass(frozen=True, slots=True)
class Trick:
    """The moves of one trick as written. Omitted passes are inferred by the replay."""

    moves: list[Move] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    pos: Pos | None = field(default=None, compare=False)  # where it was written


@dataclass(frozen=True, slots=True)
class SeatDeal:
    """What is known of one seat's dealt hand: some cards, and how many more are unknown."""

    known: int = 0
    unknown: int = 0
    pos: Pos | None = field(default=None, compare=False)  # where it was written

    @property
    def size(self) -> int:
        return self.known.bit_count() + self.unknown


@dataclass(frozen=True, slots=True)
class HandScore:
    """Scores written after a hand: points won per seat, and optionally the running totals."""

    points: tuple[int, ...]
    totals: tuple[int, ...] | None = None
    pos: Pos | None = field(default=None, compare=False)  # where it was written


@dataclass(frozen=True, slots=True)
class Hand:
    number: int
    shuffler: int | None = None
    deal: tuple[SeatDeal, ...] | None = None  # None: no deal recorded; else one per seat
    tricks: list[Trick] = field(default_factory=list)
    score: HandScore | None = None
    comments: list[str] = field(default_factory=list)
    pos: Pos | None = field(default=None, compare=False)  # where it was written


@dataclass(frozen=True, slots=True)
class Result:
    """Final scores per seat and, if written, the winning seats."""

    scores: tuple[int, ...]
    winners: tuple[int, ...] = ()
    pos: Pos | None = field(default=None, compare=False)  # where it was written


@dataclass(frozen=True, slots=True)
class Game:
    players: list[str]
    event: str | None = None
    site: str | None = None
    date: str | None = None
    extra_tags: list[tuple[str, str]] = field(default_factory=list)
    preset: str = DEFAULT_PRESET
    options: dict[str, RuleValue] = field(default_factory=dict)  # overridden rule options
    target: int = DEFAULT_TARGET
    result: Result | None = None
    hands: list[Hand] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    pos: Pos | None = field(default=None, compare=False)  # where it was written
    source: str | None = field(default=None, compare=False)  # file the game was read from

    def ruleset(self) -> Ruleset:
        """The rules the record states: its preset, overridden options and target."""
        return preset(self.preset, **{**self.options, "target": self.target})

    def seat_name(self, seat: int) -> str:
        return self.players[seat]


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player name, or None if it can.

    Names are matched case-insensitively and a bare number is read as a seat number, so all-digit
    names are refused; delimiters of the notation are refused so every name can be written back.
    """
    if not name or name != name.strip():
        return "a player name may not be empty or start or end with a space"
    bad = sorted({c for c in name if c in NAME_FORBIDDEN or ord(c) < 32 or ord(c) == 127})
    if bad:
        shown = " ".join(repr(c) for c in bad)
        return f"player name {name!r} may not contain {shown}"
    if name.isdecimal():
        return f"player name {name!r} is a number; numbers refer to seats"
    return None


def players_problem(players: list[str]) -> str | None:
    """Why this list of players is not usable, or None."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return f"a game has 3 to 6 players, not {len(players)}"
    seen: set[str] = set()
    for name in players:
        problem = name_problem(name)
        if problem:
            return problem
        key = name.casefold()
        if key in seen:
            return f"player name {name!r} is given twice (names are compared ignoring case)"
        seen.add(key)
    return None


def tag_value_problem(value: str) -> str | None:
    """Tag values live on one line of text."""
    if any((ord(c) < 32 and c != "\t") or ord(c) == 127 for c in value):
        return "a tag value may not contain line breaks or control characters"
    return None


def extra_tag_problem(name: str, seen: set[str]) -> str | None:
    """Why `name` cannot be a free-form tag here; `seen` collects the names so far (casefolded)."""
    if not TAG_NAME_RE.fullmatch(name):
        return f"tag name {name!r} should be letters, digits and _, starting with a letter"
    key = name.casefold()
    if key in KNOWN_TAGS:
        return f"{name} is a standard tag, not a free-form one"
    if key in seen:
        return f"tag {name} is given twice"
    seen.add(key)
    return None


def comment_problem(text: str) -> str | None:
    """Comments are stored stripped and non-empty, with only newlines and tabs as controls."""
    if not text or text != text.strip():
        return "a comment may not be empty or start or end with whitespace"
    if any((ord(c) < 32 and c not in "\n\t") or ord(c) == 127 for c in text):
        return "a comment may not contain control characters other than newline and tab"
    return None


def move_problem(move: Move) -> str | None:
    """Structural consistency of a move; legality is the replay's business."""
    if move.annotation is not None and move.annotation not in ANNOTATIONS:
        return f"unknown annotation {move.annotation!r}: use one of {' '.join(ANNOTATIONS)}"
    if move.dispute_note is not None and not move.disputed:
        return "a dispute note needs the disputed marker"
    if move.is_pass:
        if move.cards or move.declarations:
            return "a pass has no cards"
        return None
    if not move.cards:
        return "a play needs at least one card"
    for joker, stand in move.declarations:
        if joker < SJ or not move.cards >> joker & 1:
            return "only jokers in the play take a declaration"
        if not 0 <= stand.rank < NUM_RANKS or stand.suit not in (None, 0, 1, 2, 3):
            return "a joker stands for a real card, 3 through 2"
    if len({j for j, _ in move.declarations}) != len(move.declarations):
        return "a joker is declared twice"
    return None
