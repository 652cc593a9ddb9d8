"""The error hierarchy. Every error can carry where it happened.

The rules engine numbers seats from 0 and knows no player names, so an error that mentions a
seat keeps the seat as a field and renders its message with a naming function:

    >>> from zfrec.errors import IllegalPlayError
    >>> err = IllegalPlayError("{0} is out and takes no further part", "R8", "ZF202", seats=(1,))
    >>> err.message
    'seat 2 is out and takes no further part'
    >>> err.render(["Ann", "Bo", "Cy"].__getitem__)
    'Bo is out and takes no further part'
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from difflib import get_close_matches
from os import PathLike
from typing import Any

from zfrec.numbering import repeat_suffix

SeatNamer = Callable[[int], str]


def seat_label(seat: int) -> str:
    """How the engine names a seat when no player names are known: `seat 1` for seat index 0."""
    return f"seat {seat + 1}"


@dataclass(frozen=True, slots=True)
class Location:
    """Where something happened: a place in a source file and/or a place in the game."""

    file: str | None = None
    line: int | None = None
    col: int | None = None
    game: int | None = None
    hand: int | None = None
    trick: int | None = None
    turn: int | None = None
    seat: str | None = None
    unit: str = "hand"  # what `hand` numbers: a Zheng Fen hand, a Sheng ji `round`
    # 2: the second hand (round) the record writes with the number `hand` (said `hand 3 (2nd)`,
    # as its page is headed: zfrec.numbering); 1 for the first, or only, one
    occurrence: int = 1

    def source(self) -> str:
        """`file:line:col`, with the parts that are known."""
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def play(self) -> str:
        """`game 1, hand 2, trick 3, turn 4 (seat)`, with the parts that are known; `hand 2
        (2nd)` for the second hand the record numbers 2.

        >>> Location(game=1, hand=2, trick=3, occurrence=2, unit="round").play()
        'game 1, round 2 (2nd), trick 3'
        """
        bits = [
            f"{name} {value}{repeat_suffix(self.occurrence) if name == self.unit else ''}"
            for name, value in (
                ("game", self.game),
                (self.unit, self.hand),
                ("trick", self.trick),
                ("turn", self.turn),
            )
            if value is not None
        ]
        text = ", ".join(bits)
        if self.seat is not None:
            text = f"{text} ({self.seat})" if text else self.seat
        return text

    def __str__(self) -> str:
        play = self.play()
        return f"{self.source()} [{play}]" if play else self.source()


class ZfrecError(Exception):
    """Base class of every error zfrec raises on purpose. The CLI turns it into a message."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


class CardError(ZfrecError):
    """A card, card list or joker declaration is malformed.

    `offset` is the index in the parsed text where the problem is, so readers of larger texts
    (the .zfn lexer) can point at the very character.
    """

    def __init__(self, message: str, location: Location | None = None, offset: int = 0) -> None:
        super().__init__(message, location)
        self.offset = offset


class SeatError(ZfrecError):
    """A seat reference (a 1-based number or a player name) names no seat of the game."""


class NotationError(ZfrecError):
    """A record is not well-formed text or JSON.

    `place`, where the reader knows it, is `location` with the hand (round) and trick it was
    reading: the place its diagnostic gives (ZF001), as the other codes give theirs; the
    message keeps `location`."""

    place: Location | None = None
    # The problems a recovering reader had read past in the game's header before the error
    # cost the game (zfrec.record.problems.ReadProblem: a misspelt game or preset read as
    # meant), which the validator still reports, each as its ZF001.
    kept: tuple[Any, ...] = ()


class AtError(ZfrecError):
    """The text given for a position (`zfrec solve --at`) names no position at all; the message
    quotes it and says what `--at` takes, so the one line naming the file does not repeat it."""


class RulesError(ZfrecError):
    """An unknown preset or option."""


def preset_hint(name: str, presets: Sequence[str]) -> str:
    """`; did you mean dabaifen?` for a preset name close to one or two of `presets` (about a
    letter off, the closeness the .zfn header first tries for a misspelt `[Rules]` preset);
    empty when none is that close (`nope` is not suggested as poppel).

    >>> preset_hint("dabaifn", ["bashifen", "dabaifen", "zhaopengyou"])
    '; did you mean dabaifen?'
    >>> preset_hint("tractor", ["bashifen", "dabaifen", "zhaopengyou"])
    ''
    >>> preset_hint("nope", ["pagat", "poppel", "parlett"])
    ''
    """
    key, names = name.strip().casefold(), list(presets)
    near = get_close_matches(key, names, n=2, cutoff=0.8)
    return f"; did you mean {' or '.join(near)}?" if near else ""


class GameError(ZfrecError):
    """A rule of the game is broken: the engine's judgement, with its diagnostic code.

    `template` is the message with `{0}`, `{1}`... where the seats in `seats` (0-based) are
    named; `message` names them `seat 1`, `seat 2`..., and `render(name)` with any naming
    function, such as the record's player names. `seat` is the seat that acted, `hand`, `trick`
    and `turn` (the action's number within the trick, 1-based) where the engine was; each is
    None when it does not apply.
    """

    def __init__(
        self,
        message: str,
        code: str,
        location: Location | None = None,
        *,
        rule: str | None = None,
        seats: Sequence[int] = (),
        seat: int | None = None,
        hand: int | None = None,
        trick: int | None = None,
        turn: int | None = None,
    ) -> None:
        self.template = message
        self.seats = tuple(seats)
        super().__init__(self.render(), location)
        self.code = code
        self.rule = rule
        self.seat = seat
        self.hand = hand
        self.trick = trick
        self.turn = turn

    def render(self, name: SeatNamer = seat_label) -> str:
        """The message with each seat it mentions named by `name`."""
        if not self.seats:
            return self.template
        return self.template.format(*(name(s) for s in self.seats))

    def at(
        self,
        *,
        seat: int | None = None,
        hand: int | None = None,
        trick: int | None = None,
        turn: int | None = None,
    ) -> GameError:
        """Fill in where the engine was, keeping what is already known; returns self."""
        self.seat = self.seat if self.seat is not None else seat
        self.hand = self.hand if self.hand is not None else hand
        self.trick = self.trick if self.trick is not None else trick
        self.turn = self.turn if self.turn is not None else turn
        return self


class IllegalPlayError(GameError):
    """An action breaks a rule. `rule` names the section of RULES.md, `code` the diagnostic."""

    def __init__(
        self,
        message: str,
        rule: str,
        code: str,
        location: Location | None = None,
        *,
        seats: Sequence[int] = (),
        seat: int | None = None,
        hand: int | None = None,
        trick: int | None = None,
        turn: int | None = None,
    ) -> None:
        super().__init__(
            message, code, location, rule=rule, seats=seats, seat=seat, hand=hand, trick=trick,
            turn=turn,
        )  # fmt: skip
        self.rule: str = rule


class AmbiguousPlayError(IllegalPlayError):
    """An undeclared lead reads as more than one category (RULES.md R22)."""


class ScoreMismatchError(ZfrecError):
    """A recorded score differs from the computed one."""


class DealError(GameError):
    """A deal or the start of a hand is impossible: duplicated or missing cards, wrong hand
    sizes, the wrong shuffler, a hand after the game ended. `code` as above."""

    def __init__(
        self,
        message: str,
        code: str,
        location: Location | None = None,
        *,
        rule: str | None = None,
        seats: Sequence[int] = (),
        seat: int | None = None,
        hand: int | None = None,
    ) -> None:
        super().__init__(message, code, location, rule=rule, seats=seats, seat=seat, hand=hand)


FILE_ATTR = "zfrec_file"  # set on an unexpected exception: the file being processed


@contextmanager
def processing(path: str) -> Iterator[None]:
    """Name `path` on an unexpected exception raised inside the block, for the one-line report
    of an internal error. The name survives pickling, so a worker process under --jobs keeps it.
    """
    try:
        yield
    except Exception as exc:
        if not hasattr(exc, FILE_ATTR):
            setattr(exc, FILE_ATTR, path)
        raise


PLACE_ATTR = "zfrec_place"  # set on an unexpected exception: where in the file it was raised


@contextmanager
def placing(**place: int | str | None) -> Iterator[None]:
    """Name where in a file an unexpected exception raised inside the block was: the game
    (`game`, `line`: its number and first line), the hand or round (`hand`, with the kind's
    `unit`), for the one-line report of an internal error (`place_of`). A place named by an
    inner block is kept. Like the file's name, it survives pickling."""
    try:
        yield
    except Exception as exc:
        known = getattr(exc, PLACE_ATTR, None)
        if known is None and isinstance(exc, ZfrecError):
            raise  # said to the user as it is
        merged = dict(known or {})
        for key, value in place.items():
            if value is not None:
                merged.setdefault(key, value)
        setattr(exc, PLACE_ATTR, merged)
        raise


def place_of(exc: BaseException) -> dict[str, int | str]:
    """Where in its file an unexpected exception was raised (`placing`), as far as known."""
    place: dict[str, int | str] = getattr(exc, PLACE_ATTR, None) or {}
    return {key: place[key] for key in ("game", "line", "hand", "unit") if key in place}


def place_text(exc: BaseException) -> str:
    """`game 2 (line 14), round 3` for `place_of(exc)`, or "" when nothing is known."""
    place = place_of(exc)
    bits = []
    if "game" in place:
        line = f" (line {place['line']})" if "line" in place else ""
        bits.append(f"game {place['game']}{line}")
    if "hand" in place:
        bits.append(f"{place.get('unit', 'hand')} {place['hand']}")
    return ", ".join(bits)


def path_text(path: str | PathLike[str]) -> str:
    """A file's name as text that can be printed, stored and put in JSON: each byte of a name
    that is not UTF-8 (kept by Python as a lone surrogate) shown as U+FFFD."""
    return str(path).encode("utf-8", "surrogateescape").decode("utf-8", "replace")


_PLAIN_WORD = re.compile(r"[\w@%+=:,./-]+")  # what a shell takes as one word, as it is
_HIGH_RUNS = re.compile(rb"[\x80-\xff]+")  # the bytes beyond ASCII, each run of them together
_ALSO_KNOWN = {"GB18030": " (GBK, GB2312)", "CP1252": " (Windows-1252, Latin-1)",
               "ISO-8859-1": " (Latin-1)"}  # fmt: skip


def latin_text(head: bytes) -> bool:
    """Whether the bytes beyond ASCII of `head` (not UTF-8) stand mostly alone between ASCII
    bytes, as the accented letters of a Latin-1 or Windows-1252 text do (`M\xfcller`,
    `Jos\xe9`), where Chinese text in GB18030 writes each character as two or four such bytes
    together. (`M\xfcl` also decodes as GB18030, `\xfcl` one character: reading it is no test.)

    >>> latin_text("Müller, José, Gößmann".encode("cp1252"))
    True
    >>> latin_text("王芳, 李娜".encode("gb18030"))
    False
    """
    runs = [len(m.group()) for m in _HIGH_RUNS.finditer(head)]
    return bool(runs) and 2 * sum(n == 1 for n in runs) >= len(runs)


def not_utf8(path: str | PathLike[str]) -> str:
    """`cannot read FILE: not UTF-8 text`, with the encoding the file is most likely in and how
    to convert it: UTF-16 by its byte order mark or its zero bytes, Windows-1252 (else
    ISO-8859-1, Latin-1) when its bytes beyond ASCII stand mostly alone (`latin_text`), GB18030
    (GBK, GB2312) when it reads as such. The file is never read in that encoding: the hint is
    all. Standard input (`-`) is named so, with no hint. The converted copy keeps the record's
    suffix (`zf-07.utf8.zfn`), so that zfrec reads it, then put in the old file's place
    (`converted_name`)."""
    name = path_text(path)
    if name == "-":
        return "cannot read standard input: not UTF-8 text"
    message = f"cannot read {name}: not UTF-8 text"
    try:
        with open(path, "rb") as handle:
            head = handle.read(1 << 16)
    except OSError:
        return message
    guess = None
    sample = head[:4096]  # UTF-16 text of Latin letters: every other byte a zero
    if head[:2] in (b"\xff\xfe", b"\xfe\xff") or sample.count(b"\0") * 3 >= len(sample):
        guess = "UTF-16"
    elif latin_text(head):
        guess = "CP1252" if _decodes(head, "cp1252") else "ISO-8859-1"
    else:
        try:
            head.decode("gb18030")
        except UnicodeDecodeError as exc:
            cut = len(head) == 1 << 16 and exc.start >= len(head) - 4  # mid-character
            guess = "GB18030" if cut else None
        else:
            guess = "GB18030"
    if guess is None:
        return message
    old, copy = shell_word(name), shell_word(converted_name(name))
    return (
        f"{message}: it looks like {guess}{_ALSO_KNOWN.get(guess, '')}"
        + f"; convert it: iconv -f {guess} -t UTF-8 {old} > {copy}"
        + f", then replace the old file with it: mv {copy} {old}"
    )


def shell_word(name: str) -> str:
    """A file name as one word of a shell command: quoted where the shell would cut or read it
    otherwise (a space, a quote), else as it is, Chinese names too.

    >>> shell_word("sheets/王芳-07.zfn"), shell_word("club night.zfn")
    ('sheets/王芳-07.zfn', "'club night.zfn'")
    """
    return name if _PLAIN_WORD.fullmatch(name) else shlex.quote(name)


def converted_name(name: str) -> str:
    """The name of the UTF-8 copy of the record file `name` that `not_utf8`'s hint makes: the
    record's suffix kept last, as zfrec tells a record's format by it (`.zfn`, `.json`).

    >>> converted_name("sheets/zf-07.zfn"), converted_name("night.JSON"), converted_name("notes")
    ('sheets/zf-07.utf8.zfn', 'night.utf8.JSON', 'notes.utf8')
    """
    stem, suffix = os.path.splitext(name)
    return f"{stem}.utf8{suffix}"


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True
