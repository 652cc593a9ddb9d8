"""The typed game record: what was written down, with where it was written.

This is data, not rules. Nothing here knows whether a play is legal or a score adds up; the replay
and the validator decide that. The model only guarantees the structure that both notations (.zfn
text and JSON) can express, so that text -> record -> JSON -> record -> text is lossless.

Seats are 0-based indices into `Game.players` here; both notations show them 1-based.
`Game.seat_of` resolves what a person types for a seat (a number or a name, any case) and
`Game.seat_name` names a seat; every part of zfrec that does either goes through them.
Every element carries its source position (`pos`), which never takes part in equality: a record
read from JSON (no positions) equals the same record read from text.

The classes are plain slotted dataclasses. Those that hold lists (a move's comments, a trick's
moves, ...) are mutable, and the readers fill them as they go; `SeatDeal`, `HandScore` and
`Result` hold only numbers and tuples and are frozen, and `Pos` is a named tuple.

    >>> game = Game(["Ann", "Bo Li", "王芳"])
    >>> game.seat_of("bo li"), game.seat_of("3"), game.seat_name(0)
    (1, 2, 'Ann')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, cast

from zfrec.errors import SeatError
from zfrec.games import DEFAULT_KIND, find_kind
from zfrec.games.zhengfen.engine.cards import (
    DECK_SIZE,
    NO_CARDS,
    NUM_RANKS,
    SJ,
    Cards,
    Stand,
    format_play,
)
from zfrec.record.problems import Fix, ReadProblem

if TYPE_CHECKING:
    from zfrec.games.zhengfen.engine.rules import Ruleset

ANNOTATIONS = ("!", "?", "!!", "??", "!?", "?!")
DEFAULT_TARGET = 500
DEFAULT_PRESET = "pagat"
MIN_PLAYERS = 3
MAX_PLAYERS = 6

# Bounds of the numbers a record may hold (FORMAT.md, Limits). They are far above any real game
# and keep hostile input from reaching arithmetic or a database column as a huge integer.
MAX_HAND_NUMBER = 999_999
MAX_TARGET = 999_999
MAX_SCORE = 9_999_999  # points of a hand, running totals and final scores alike
MAX_UNKNOWN = DECK_SIZE  # unknown cards in one seat's deal

# Characters a player name may not contain, because the text notation uses them as delimiters:
# quotes and colons around seat references, commas between names in [Players], brackets of tags,
# braces and semicolons of comments, and the escape character. The full-width forms are
# delimiters too, because Chinese keyboards type them.
NAME_FORBIDDEN = frozenset('"“”,，、:：;{}[]\\')

# Tags with their own Game fields, by casefolded name; others go to Game.extra_tags in order.
KNOWN_TAGS = {
    t.casefold(): t
    for t in ("Game", "Event", "Site", "Date", "Players", "Rules", "Target", "Result")
}
TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")

Declaration = tuple[int, Stand]  # joker card id, what it stands for
RuleValue = bool | int | str
MAX_VERSIONS = 8  # `or` versions of one disputed move (FORMAT.md, Limits)


class Pos(NamedTuple):
    """A 1-based line and column (in characters) in the source text.

    Immutable and hashable. A named tuple rather than a frozen dataclass because a record has
    one per move and a tuple is built in C: `Pos(4, 8)`, or `tuple.__new__(Pos, (4, 8))` where
    every microsecond counts (the .zfn reader), is the same value.

    >>> pos = Pos(4, 8)
    >>> str(pos), pos.line, pos == Pos(4, 8), pos < Pos(5, 1)
    ('4:8', 4, True, True)
    """

    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class AltPlay:
    """Another side's version of a disputed move: `or Kc` (a play) or `or -` (a pass).

    >>> AltPlay.of_move(Move.passes(0)).play_text(), AltPlay(cards=Cards(1 << 43)).play_text()
    ('pass', 'Kc')
    """

    is_pass: bool = False
    cards: Cards = NO_CARDS
    declarations: tuple[Declaration, ...] = ()

    @staticmethod
    def of_move(move: Move) -> AltPlay:
        """The play of `move` as a version (for comparing versions with the recorded play)."""
        return AltPlay(move.is_pass, move.cards, move.declarations)

    def play_text(self) -> str:
        """`pass`, or the canonical cards with their declarations (`7s 7h BJ=8h`)."""
        if self.is_pass:
            return "pass"
        return format_play(self.cards, dict(self.declarations))


@dataclass(slots=True)
class Move:
    """One recorded turn: a play of `cards` or a pass, by `seat` (0-based).

    A disputed move may hold the other side's versions of it (`alternatives`, written
    `or Kc`); the record itself goes on from the play as written.
    """

    seat: int
    is_pass: bool = False
    cards: Cards = NO_CARDS
    declarations: tuple[Declaration, ...] = ()
    annotation: str | None = None
    comments: list[str] = field(default_factory=list)
    disputed: bool = False
    dispute_note: str | None = None
    pos: Pos | None = field(default=None, compare=False)  # where it was written
    alternatives: tuple[AltPlay, ...] = ()  # other versions of a disputed move, in order

    @staticmethod
    def passes(seat: int, **extra: Any) -> Move:
        """A pass by `seat`; `extra` sets the other fields (annotation, comments, ...)."""
        return Move(seat, is_pass=True, **extra)

    @staticmethod
    def plays(
        seat: int, cards: int, declarations: tuple[Declaration, ...] = (), **extra: Any
    ) -> Move:
        """A play of `cards` (a mask or `Cards`), declarations in any order."""
        ordered = tuple(sorted(declarations, key=lambda d: d[0]))
        return Move(seat, cards=Cards(cards), declarations=ordered, **extra)

    def play_text(self) -> str:
        """`pass`, or the canonical cards with their declarations (`7s 7h BJ=8h`)."""
        if self.is_pass:
            return "pass"
        return format_play(self.cards, dict(self.declarations))

    def versions(self) -> tuple[AltPlay, ...]:
        """Every version of the move: the recorded play first, then its alternatives."""
        return (AltPlay.of_move(self), *self.alternatives)

    def with_version(self, version: AltPlay) -> Move:
        """This move with `version` played instead; seat, position and remarks are kept, and
        the other versions (the play as written among them) stay its alternatives."""
        others = tuple(v for v in self.versions() if v != version) if self.disputed else ()
        return Move(
            self.seat, version.is_pass, version.cards, version.declarations, self.annotation,
            list(self.comments), self.disputed, self.dispute_note, self.pos, others,
        )  # fmt: skip


@dataclass(slots=True)
class Trick:
    """The moves of one trick as written. Omitted passes are inferred by the replay."""

    moves: list[Move] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    pos: Pos | None = field(default=None, compare=False)  # where it was written


@dataclass(frozen=True, slots=True)
class SeatDeal:
    """What is known of one seat's dealt hand: some cards, and how many more are unknown."""

    known: Cards = NO_CARDS
    unknown: int = 0
    pos: Pos | None = field(default=None, compare=False)  # where it was written
    # where the line gives a card an earlier deal line of its hand gives (its first such
    # word), for the validator to report a card dealt twice at its second copy
    twice: Pos | None = field(default=None, compare=False)

    @property
    def size(self) -> int:
        """How many cards the seat was dealt, known and unknown."""
        return self.known.bit_count() + self.unknown


@dataclass(frozen=True, slots=True)
class HandScore:
    """Scores written after a hand: points won per seat, and optionally the running totals."""

    points: tuple[int, ...]
    totals: tuple[int, ...] | None = None
    pos: Pos | None = field(default=None, compare=False)  # where it was written


@dataclass(slots=True)
class Hand:
    """One hand as written: its number, shuffler, deal, tricks and score line."""

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


@dataclass(slots=True)
class Game:
    """One game record: tags, players in seat order, rules, hands, comments.

    `kind` names the game (zfrec.games: `[Game]` in .zfn, "game" in JSON), Zheng Fen by
    default. A Zheng Fen record's hands are `hands`; another kind keeps its own records of its
    hands or rounds in `rounds`, in its own types (zfrec.games.<kind>).
    """

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
    # What a recovering reader could not read (zfrec.record.problems); never written back.
    problems: list[ReadProblem] = field(default_factory=list, compare=False, repr=False)
    # Read from JSON for the validator: gives the parts their positions in the text, on demand
    # (zfrec.record.jsonpos); None when they have them, or nothing can give them.
    locate: Callable[[Game], None] | None = field(default=None, compare=False, repr=False)
    kind: str = DEFAULT_KIND
    rounds: list[Any] = field(default_factory=list)  # the records of a kind other than Zheng Fen
    # where the Date tag's value was written (.zfn), for a diagnostic of the date
    date_pos: Pos | None = field(default=None, compare=False, repr=False)
    # where an empty `[Rules ""]` was written (.zfn): the default preset is used instead
    empty_rules_pos: Pos | None = field(default=None, compare=False, repr=False)
    # the player names read without characters that cannot be seen (ZF008)
    name_marks: list[NameMark] = field(default_factory=list, compare=False, repr=False)

    def ruleset(self) -> Ruleset:
        """The rules the record states: its preset, overridden options and target (for Zheng
        Fen, zfrec.games.zhengfen.engine.rules.Ruleset; another kind's rules object for another
        kind)."""
        return cast("Ruleset", find_kind(self.kind).ruleset(self))

    def seat_of(self, ref: str | int) -> int:
        """The 0-based seat that `ref` names: a 1-based seat number (as text or an int) or a
        player name, in any case. Raises SeatError saying what the seats are."""
        return seat_of(self.players, ref)

    def seat_name(self, seat: int) -> str:
        """The player at 0-based `seat`, or `seat N` (1-based) for a seat the game lacks."""
        return seat_name(self.players, seat)


def name_key(name: str) -> str:
    """What player names are compared by: ignoring case and Unicode normal form (as the store),
    and what a name copied from a web page carries unseen (`plain_name`), so that a seat
    referred to by a copied name is the plain name's."""
    seen = plain_name(name)[0]
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", seen).casefold())


# What a name copied from a web page or a chat brings along that nobody sees: the isolates and
# marks of direction a page puts around a name, zero-width spaces, word joiners and a byte order
# mark, all taken out; and spaces that do not break, read as plain spaces. The joiners U+200C
# and U+200D stay: some scripts and emoji need them.
_UNSEEN: dict[int, str | None] = dict.fromkeys(
    (0x200B, 0x200E, 0x200F, 0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xFEFF)
)
_NO_BREAK: dict[int, str | None] = dict.fromkeys((0x00A0, 0x2007, 0x202F), " ")


@dataclass(frozen=True, slots=True)
class NameMark:
    """A player name read without the characters that cannot be seen it was written with
    (ZF008): `seat` (0-based), the finding's message, where the name was written (None: in a
    JSON record, at the record's place) and the plain name as a fix for an editor."""

    seat: int
    message: str
    pos: Pos | None = None
    fix: Fix | None = None


def plain_name(name: str) -> tuple[str, tuple[str, ...]]:
    """`name` as its reader sees it, and the characters (`U+2068`) read past to get it: no
    isolates, zero-width spaces or byte order marks, no-break spaces read as spaces.

    >>> plain_name("\u2068Ann\u2069"), plain_name("Bo\u00a0Li"), plain_name("王芳")
    (('Ann', ('U+2068', 'U+2069')), ('Bo Li', ('U+00A0',)), ('王芳', ()))
    """
    if name.isascii():  # most names and every seat number: nothing to look for
        return name, ()
    found = sorted({ord(c) for c in name if ord(c) in _UNSEEN or ord(c) in _NO_BREAK})
    if not found:
        return name, ()
    plain = name.translate(_UNSEEN).translate(_NO_BREAK)
    return " ".join(word for word in plain.split(" ") if word), tuple(f"U+{c:04X}" for c in found)


def unseen_message(what: str, found: Sequence[str], seen: str) -> str:
    """The ZF008 message of `what` (`player 1's name`) written with the characters `found`
    (`plain_name`) that cannot be seen, read as `seen`."""
    chars = "a no-break space" if tuple(found) in (("U+00A0",), ("U+202F",)) else ", ".join(found)
    return (f"{what} is written with characters that cannot be seen ({chars}; copied from a "
            f"web page?): read as {seen!r}")  # fmt: skip


def plain_names(
    names: Sequence[str], at: Pos | None = None, value: str | None = None
) -> tuple[list[str], list[NameMark]]:
    """The players `names` as plain names (`plain_name`), and a mark of each name read so.
    `at` is where the text `value` that lists them was written ([Players], .zfn); without it
    (JSON) the marks have no place."""
    plain: list[str] = []
    marks: list[NameMark] = []
    for seat, name in enumerate(names):
        seen, found = plain_name(name)
        plain.append(seen)
        if not found:
            continue
        message = unseen_message(f"player {seat + 1}'s name", found, seen)
        pos = fix = None
        col = value.find(name) if at is not None and value is not None else -1
        if at is not None and col >= 0:
            pos = Pos(at.line, at.col + col)
            fix = Fix(pos.line, pos.col, pos.col + len(name), seen)
        marks.append(NameMark(seat, message, pos, fix))
    return plain, marks


def seat_of(players: Sequence[str], ref: str | int) -> int:
    """The 0-based seat `ref` names among `players`: a 1-based number or a name in any case.

    Raises SeatError naming the seats. This is the one seat resolver of zfrec: the .zfn reader,
    the JSON reader and the command line's `--seat` all come here.

    >>> seat_of(["Ann", "Bo", "Cy"], "2"), seat_of(["Ann", "Bo", "Cy"], " CY ")
    (1, 2)
    """
    n = len(players)
    if isinstance(ref, int):
        if 1 <= ref <= n:
            return ref - 1
        raise SeatError(f"there is no seat {ref}: seats are 1 to {n}")
    text = ref.strip()
    if text.isdecimal():
        if len(text) <= 3 and 1 <= int(text) <= n:
            return int(text) - 1
        shown = str(int(text)) if len(text) <= 20 else text[:20] + "…"
        raise SeatError(f"there is no seat {shown}: seats are 1 to {n}")
    key = name_key(text)
    for seat, name in enumerate(players):
        if name_key(name) == key:
            return seat
    shown = text if len(text) <= 40 else text[:40] + "…"
    names = ", ".join(f"{i + 1} {name}" for i, name in enumerate(players))
    raise SeatError(f"no player is called {shown!r}: the seats are {names}")


def seat_name(players: Sequence[str], seat: int) -> str:
    """The player at 0-based `seat`, or `seat N` (1-based) for a seat beyond the players."""
    return players[seat] if 0 <= seat < len(players) else f"seat {seat + 1}"


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


def players_problem(
    players: list[str], low: int = MIN_PLAYERS, high: int = MAX_PLAYERS
) -> str | None:
    """Why this list of players is not usable, or None (`low`, `high`: the kind's numbers)."""
    if not low <= len(players) <= high:
        return f"a game has {low} to {high} players, not {len(players)}"
    seen: set[str] = set()
    for name in players:
        problem = name_problem(name)
        if problem:
            return problem
        key = name_key(name)
        if key in seen:
            return f"player name {name!r} is given twice (names are compared ignoring case)"
        seen.add(key)
    return None


def tag_value_problem(value: str) -> str | None:
    """Tag values live on one line of text."""
    if any((ord(c) < 32 and c != "\t") or ord(c) == 127 for c in value):
        return "a tag value may not contain line breaks or control characters"
    return None


_DATE_RE = re.compile(r"\s*(\d{4}|\?{4})([./-])(\d{1,2}|\?{1,2})\2(\d{1,2}|\?{1,2})\s*")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")  # fmt: skip
_MONTH_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # February: in a leap year


def date_problem(date: str | None) -> str | None:
    """Why a `Date` written as a date (`YYYY.MM.DD`, also with `-` or `/`) is no day of the
    calendar, or None. A part not known is written `??` (`????` for the year), as in PGN, and
    fits any value; other text (the tag is free text) is not judged.

    >>> print(date_problem("2026.11.72")); print(date_problem("2026.13.01"))
    the date 2026.11.72 is no day: November has 30 days
    the date 2026.13.01 is no day: a year has 12 months
    >>> print(date_problem("2025-02-29")); date_problem("????.02.29"), date_problem("2026.??.31")
    the date 2025-02-29 is no day: February 2025 has 28 days
    (None, None)
    >>> print(date_problem("2026.0.10"))
    the date 2026.0.10 is no day: months are numbered from 1
    >>> date_problem("2026.11.??"), date_problem("Friday night"), date_problem(None)
    (None, None, None)
    """
    m = _DATE_RE.fullmatch(date or "")
    if m is None:
        return None
    year, month, day = (None if "?" in g else int(g) for g in m.group(1, 3, 4))
    said = f"the date {m.group(0).strip()} is no day"
    if month == 0:
        return f"{said}: months are numbered from 1"
    if month is not None and month > 12:
        return f"{said}: a year has 12 months"
    if day is None:
        return None
    if day < 1:
        return f"{said}: days are numbered from 1"
    if month is None:
        return None if day <= 31 else f"{said}: a month has at most 31 days"
    days, name = _MONTH_DAYS[month - 1], _MONTHS[month - 1]
    if month == 2 and year is not None:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        days, name = (29 if leap else 28), f"February {year}"
    return None if day <= days else f"{said}: {name} has {days} days"


class HeaderValues(Protocol):
    """What `header_findings` reads of a record of any game (`Game`, a kind's own record)."""

    date: str | None
    date_pos: Pos | None
    preset: str
    empty_rules_pos: Pos | None
    name_marks: list[NameMark]
    pos: Pos | None


def header_findings(
    record: HeaderValues, used: str, read: Sequence[ReadProblem] = ()
) -> list[tuple[str, str, Pos | None, Fix | None]]:
    """What a record's header gives (DIAGNOSTICS.md), as (code, message, where, fix) in the
    order written: the ZF001 of each word `read` as meant (a misspelt game or preset), a date
    that is no day (ZF006), an empty `[Rules ""]` (ZF007, naming the preset `used`, the
    record's default one unless another was asked for), a player name read without characters
    that cannot be seen (ZF008). Where the tag's place is not known
    (JSON), they are at the record's."""
    found: list[tuple[str, str, Pos | None, Fix | None]]
    found = [("ZF001", p.message, Pos(*p.pos), p.fix) for p in read]
    problem = date_problem(record.date)
    if problem:
        found.append(("ZF006", problem, record.date_pos or record.pos, None))
    if record.empty_rules_pos is not None:
        judged = f"the default preset, {used}"
        if used != record.preset:
            judged = f"{used}, as asked (the default preset is {record.preset})"
        said = f"the Rules tag is empty: the record is judged under {judged}"
        found.append(("ZF007", said, record.empty_rules_pos, None))
    for mark in record.name_marks:
        found.append(("ZF008", mark.message, mark.pos or record.pos, mark.fix))
    return sorted(found, key=lambda f: f[2] or Pos(0, 0))


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
    if move.alternatives:
        problem = versions_problem(move)
        if problem:
            return problem
    return play_problem(move.is_pass, move.cards, move.declarations)


def versions_problem(move: Move) -> str | None:
    """Why the `or` versions of `move` cannot stand, or None: they need the disputed marker,
    must differ from the recorded play and from each other, and each must be a play or a pass."""
    if not move.disputed:
        return "'or' versions need the disputed marker"
    if len(move.alternatives) > MAX_VERSIONS:
        return f"a disputed move has at most {MAX_VERSIONS} 'or' versions"
    recorded = AltPlay.of_move(move)
    seen = {recorded}
    for alt in move.alternatives:
        problem = play_problem(alt.is_pass, alt.cards, alt.declarations)
        if problem:
            return problem
        if alt == recorded:
            return f"the version {alt.play_text()} is the play as recorded"
        if alt in seen:
            return f"the version {alt.play_text()} is given twice"
        seen.add(alt)
    return None


def play_problem(is_pass: bool, cards: int, declarations: tuple[Declaration, ...]) -> str | None:
    """Structural consistency of one play or pass (a move's, or an `or` version's)."""
    if is_pass:
        if cards or declarations:
            return "a pass has no cards"
        return None
    if not cards:
        return "a play needs at least one card"
    for joker, stand in declarations:
        if joker < SJ or not cards >> joker & 1:
            return "only jokers in the play take a declaration"
        if not 0 <= stand.rank < NUM_RANKS or stand.suit not in (None, 0, 1, 2, 3):
            return "a joker stands for a real card, 3 through 2"
    if len({j for j, _ in declarations}) != len(declarations):
        return "a joker is declared twice"
    return None
