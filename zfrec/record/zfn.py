"""The .zfn text notation: a streaming reader and a canonical writer. FORMAT.md is the spec.

The reader takes lines one at a time and yields each game as soon as the next one begins, so a
file of any size is read in constant memory. A syntax error costs only its own game: the reader
reports it and resumes at the next game's tags (the first tag line after a non-tag line).

There is one grammar. Each statement (a hand, deal, trick or score line) is read into values
and handed to one builder method, which checks it against the game so far. Most lines are
spelled exactly as the writer spells them, and one regex (`PLAIN_RE` in
zfrec.games.zhengfen.zfn_hand, with the hand's statements) recognises such a line whole, so its
values are taken from the regex instead of a token per word; any other line is split into tokens by
the lexer. Either way the same builder methods, the same card parser
(zfrec.games.zhengfen.engine.cards) and the same seat resolver (zfrec.record.model.seat_of) do the
reading. A plain line that would be an error is left to the lexer, which reports it at its token.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any, TextIO

from zfrec.errors import Location, NotationError
from zfrec.games import BodyReader, NotSupported
from zfrec.record.lexer import (
    COMMENT,
    TAG_OPENERS,
    Lexer,
    SyntaxFail,
    Token,
    excerpt,
    fail_at,
)
from zfrec.record.model import Game, Pos
from zfrec.record.problems import (
    ReadProblem,
)
from zfrec.record.seatrefs import PASS_WORDS as PASS_WORDS  # also the live table's
from zfrec.record.seatrefs import Seats
from zfrec.record.text import dumps_zfn, iter_zfn, write_zfn
from zfrec.record.zfn_header import Header

# The writer lives in zfrec.record.text, with the texts of record parts it is made of.
__all__ = [
    "PASS_WORDS",
    "dumps_zfn",
    "iter_games",
    "iter_zfn",
    "lines_of",
    "parse_zfn",
    "read_games",
    "read_lines",
    "write_zfn",
]

MAX_LINE = 1_000_000  # characters per line (FORMAT.md, Limits)
_CONTROL_RE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # every control character but tab


def iter_games(
    lines: Iterable[str],
    filename: str | None = None,
    *,
    first_line: int = 1,
    games_before: int = 0,
    recover: bool = False,
) -> Iterator[Game | NotationError]:
    """Each game of a .zfn stream, or the NotationError that spoiled it; never raises on syntax.

    `lines` is any iterable of text lines (an open file, `io.StringIO`, a generator). Nothing is
    read beyond the first line of the next game before a game is yielded. A part of a file that
    starts at a game's first tag line reads as it does in the whole file when given its
    `first_line` number and the number of games that start before it (`games_before`).

    With `recover`, an unreadable move (a card, a seat) or trick or score line does not cost
    the game: the reader notes it in `Game.problems` (zfrec.record.problems) and goes on, so
    that the validator can report every mistake of a record in one run. Such a game is for
    judging only; other problems still cost the game.
    """
    reader = _Reader(filename, recover)
    reader.count = games_before
    yield from reader.run(lines, first_line)


def read_games(lines: Iterable[str], filename: str | None = None) -> Iterator[Game]:
    """Each game of a .zfn stream; raises the first NotationError."""
    for item in iter_games(lines, filename):
        if isinstance(item, NotationError):
            raise item
        yield item


def parse_zfn(text: str, filename: str | None = None) -> list[Game]:
    """All games of a .zfn text; raises the first NotationError."""
    return list(read_games(lines_of(text), filename))


_LINE_END_RE = re.compile(r"\r\n?|\n")


def lines_of(text: str) -> Iterator[str]:
    """The lines of `text`, split where a file opened as text splits them: `\\n`, `\\r\\n`, `\\r`.

    Not str.splitlines: it also splits at \\x0c, \\u2028 and friends, which files do not.
    """
    start = 0
    for m in _LINE_END_RE.finditer(text):
        yield text[start : m.end()]
        start = m.end()
    if start < len(text):
        yield text[start:]


def read_lines(stream: TextIO, limit: int = MAX_LINE) -> Iterator[str]:
    """The lines of a text stream, in bounded memory: a line longer than `limit` characters is
    cut after `limit + 1` of them (the reader reports it) and the rest of it is skipped."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        yield line
        if len(line) > limit and not line.endswith("\n"):
            while True:
                rest = stream.readline(limit + 1)
                if not rest or rest.endswith("\n"):
                    break


class _Reader:
    def __init__(self, filename: str | None, recover: bool = False) -> None:
        self.filename = filename
        self.recover = recover
        self.lexer = Lexer()
        # The source lines of the current game, for excerpts: line `first_line + i` is lines[i].
        self.lines: list[str] = []
        self.first_line = 1
        self.game: GameBuilder | None = None
        self.count = 0  # games started, for Location.game
        self.pending: list[str] = []  # comments seen before the first game's tags
        # the statement being read: where in the body an error in it stands (BodyReader.place)
        self.reading: list[Token] = []

    def run(self, lines: Iterable[str], first_line: int = 1) -> Iterator[Game | NotationError]:
        skipping = False
        prev_tag = False
        lexer = self.lexer
        for number, raw in enumerate(lines, first_line):
            line = raw.rstrip("\r\n")
            if number == 1 and line.startswith("\ufeff"):
                line = line[1:]
            is_tag = line.lstrip().startswith(TAG_OPENERS)
            new_game = is_tag and not prev_tag
            prev_tag = is_tag
            if skipping:
                if not new_game:
                    continue
                skipping = False
            try:
                if new_game:
                    yield from self._finish()
                    self.first_line = number
                    self.count += 1
                    self.game = GameBuilder(self.count, self.filename, self.pending, self.recover)
                    self.pending = []
                self.lines.append(line)
                if len(line) > MAX_LINE:
                    raise SyntaxFail(
                        f"a line may hold at most {MAX_LINE:,} characters", number, MAX_LINE + 1
                    )
                game = self.game
                if (
                    # A line spelled as the writer spells it is read without the lexer.
                    game is not None
                    and (body := game.body) is not None
                    and body.hand is not None
                    and lexer.comment is None
                    and body.hand.plain_line(line, number, body)
                ):
                    continue
                control = _CONTROL_RE.search(line)
                if control is not None:
                    raise SyntaxFail(
                        f"control character U+{ord(control.group()):04X} is not allowed: "
                        "a record is plain text (tabs are allowed)",
                        number,
                        control.start() + 1,
                    )
                if is_tag:
                    if lexer.in_comment:  # a tag line always ends an open comment
                        raise lexer.unterminated()
                    assert game is not None
                    game.tag_line(line, number, lexer)
                elif line or lexer.in_comment:
                    tokens = lexer.feed(line, number)
                    if tokens:
                        self._statement(tokens)
            except SyntaxFail as fail:
                yield self._error(fail)
                self.game = None
                lexer.reset()
                skipping = True
        if not skipping:
            yield from self._finish()

    def _statement(self, tokens: list[Token]) -> None:
        if self.game is not None:
            self.reading = tokens
            self.game.statement(tokens)
            self.reading = []
        elif all(t.kind == COMMENT for t in tokens):
            self.pending.extend(t.text for t in tokens)
        else:
            first = tokens[0]
            raise SyntaxFail(
                'a game starts with its tags, e.g. [Players "Ann, Bo, Cy"]', first.line, first.col
            )

    def _finish(self) -> Iterator[Game | NotationError]:
        """Yield the game in progress (or its error) and forget its lines."""
        try:
            if self.lexer.in_comment:
                raise self.lexer.unterminated()
            if self.game is not None:
                yield self.game.finish()
        except SyntaxFail as fail:
            yield self._error(fail)
        self.game = None
        self.lexer.reset()
        self.lines = []

    def _error(self, fail: SyntaxFail) -> NotationError:
        index = fail.line - self.first_line
        source = self.lines[index] if 0 <= index < len(self.lines) else ""
        where = Location(self.filename, fail.line, fail.col, game=self.count or None)
        error = NotationError(f"{fail.message}\n{excerpt(source, fail.line, fail.col)}", where)
        error.kept = fail.kept
        place = self._place(fail, source)
        if place:
            error.place = replace(where, **place)
        self.reading = []
        return error

    def _place(self, fail: SyntaxFail, source: str) -> dict[str, Any]:
        """The hand (round) and trick of the statement `fail` is in, as far as known: where the
        error is on a line of the statement being read, or of the one the lexer was reading
        (its tokens before an unclosed quote or comment)."""
        body = self.game.body if self.game is not None else None
        if body is None:
            return {}
        reading = self.reading or self.lexer.tokens
        if any(t.line == fail.line for t in reading):
            return body.place(reading)
        # A line read without the lexer (a plain score line), or not read at all (a control
        # character): its hand, from the line's words; not a trick, which may have been read.
        try:
            words = Lexer().feed(source, fail.line) or []
        except SyntaxFail:
            return {}
        place = body.place(words)
        place.pop("trick", None)
        return place


# ---------------------------------------------------------------------------------------------
# Builders


class GameBuilder:
    """Collects one game: its tags here, its body through its kind's BodyReader (zfrec.games)."""

    def __init__(
        self, index: int, filename: str | None, comments: list[str], recover: bool = False
    ) -> None:
        self.header = Header()
        # What could not be read and was skipped (recovering readers only; else errors raise).
        self.problems: list[ReadProblem] | None = [] if recover else None
        self.header.problems = self.problems
        self.filename = filename
        self.comments = list(comments)
        self.body: BodyReader | None = None  # once the header is read
        self.seats: Seats | None = None  # the seat references of the body, once it is read
        self.pos: Pos | None = None
        self.players: list[str] | None = None
        self.index = index

    def tag_line(self, line: str, number: int, lexer: Lexer) -> None:
        if self.pos is None:
            self.pos = Pos(number, len(line) - len(line.lstrip()) + 1)
        end = self.header.add_line(line, number)
        tokens = lexer.feed(line, number, end)
        for token in tokens or ():
            if token.kind != COMMENT:
                raise fail_at(token, "only a comment may follow a tag on its line")
            self.comments.append(token.text)

    def _header(self, line: int, col: int) -> list[str]:
        """The players, once the header's tags are checked. A header error costs the game; what
        a recovering reader read past before it (a misspelt game read as meant) is kept."""
        try:
            return self.header.finish(line, col)
        except SyntaxFail as fail:
            fail.kept = tuple(self.problems or ())
            raise

    def _start_body(self, at: Token) -> BodyReader:
        if self.body is None:
            self.players = self._header(at.line, at.col)
            kind = self.header.kind
            try:
                self.seats = Seats(self.players)
                self.body = kind.body_reader(
                    self.seats, self.problems, self.header.preset, self.header.options
                )
            except NotSupported as exc:  # a kind whose notation is still to come
                raise SyntaxFail(exc.message, at.line, at.col) from None
        return self.body

    def statement(self, tokens: list[Token]) -> None:
        first = next((t for t in tokens if t.kind != COMMENT), None)
        if first is None:
            if self.body is None or not self.body.comments([t.text for t in tokens]):
                self.comments.extend(t.text for t in tokens)
            return
        self._start_body(first).statement(tokens)

    def finish(self) -> Game:
        line, col = (self.pos.line, self.pos.col) if self.pos else (1, 1)
        if self.players is None:
            self.players = self._header(line, col)
        h = self.header
        game = Game(
            players=self.players,
            event=h.event,
            site=h.site,
            date=h.date,
            extra_tags=h.extra,
            preset=h.preset,
            options=h.options,
            target=h.target,
            result=h.result,
            comments=self.comments,
            pos=self.pos,
            source=self.filename,
            kind=h.kind.name,
            date_pos=h.date_pos,
            empty_rules_pos=h.empty_rules_pos,
            name_marks=h.name_marks + (self.seats.copied if self.seats is not None else []),
        )
        if self.body is not None:
            self.body.finish(game)
        game.problems = self.problems or []
        return game
