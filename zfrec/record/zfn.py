"""The .zfn text notation: a streaming reader and a canonical writer. FORMAT.md is the spec.

The reader takes lines one at a time and yields each game as soon as the next one begins, so a
file of any size is read in constant memory. A syntax error costs only its own game: the reader
reports it and resumes at the next game's tags (the first tag line after a non-tag line).

There is one grammar. Each statement (a hand, deal, trick or score line) is read into values
and handed to one builder method, which checks it against the game so far. Most lines are
spelled exactly as the writer spells them, and one regex (`PLAIN_RE` in zfrec.record.zfn_hand,
with the hand's statements) recognises such a line whole, so its values are taken from the
regex instead of a token per word; any other line is split into tokens by the lexer. Either
way the same builder methods, the same card parser (zfrec.engine.cards) and the same seat
resolver (zfrec.record.model.seat_of) do the reading.
A plain line that would be an error is left to the lexer, which reports it at its token.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TextIO

from zfrec.errors import Location, NotationError
from zfrec.record.lexer import (
    COLON,
    COMMENT,
    STRING,
    WORD,
    Lexer,
    SyntaxFail,
    Token,
    excerpt,
)
from zfrec.record.model import (
    MAX_HAND_NUMBER,
    Game,
    Hand,
    Pos,
)
from zfrec.record.problems import (
    ReadProblem,
)
from zfrec.record.seatrefs import PASS_WORDS as PASS_WORDS  # also the live table's
from zfrec.record.seatrefs import Seats
from zfrec.record.text import dumps_zfn, iter_zfn, write_zfn
from zfrec.record.zfn_hand import HandBuilder, bounded, fail_at
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

    def run(self, lines: Iterable[str], first_line: int = 1) -> Iterator[Game | NotationError]:
        skipping = False
        prev_tag = False
        lexer = self.lexer
        for number, raw in enumerate(lines, first_line):
            line = raw.rstrip("\r\n")
            if number == 1 and line.startswith("\ufeff"):
                line = line[1:]
            is_tag = line.lstrip().startswith("[")
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
                    and game.hand is not None
                    and lexer.comment is None
                    and game.hand.plain_line(line, number, game)
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
            self.game.statement(tokens)
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
        return NotationError(f"{fail.message}\n{excerpt(source, fail.line, fail.col)}", where)


# ---------------------------------------------------------------------------------------------
# Builders


class GameBuilder:
    """Collects one game, statement by statement."""

    def __init__(
        self, index: int, filename: str | None, comments: list[str], recover: bool = False
    ) -> None:
        self.header = Header()
        # What could not be read and was skipped (recovering readers only; else errors raise).
        self.problems: list[ReadProblem] | None = [] if recover else None
        self.filename = filename
        self.comments = list(comments)
        self.hands: list[Hand] = []
        self.hand: HandBuilder | None = None
        self.pos: Pos | None = None
        self.players: list[str] | None = None
        self.seats: Seats | None = None
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

    def _start_body(self, at: Token) -> Seats:
        if self.seats is None:
            self.players = self.header.finish(at.line, at.col)
            self.seats = Seats(self.players)
        return self.seats

    def statement(self, tokens: list[Token]) -> None:
        first = next((t for t in tokens if t.kind != COMMENT), None)
        if first is None:
            self._comments_only(tokens)
            return
        seats = self._start_body(first)
        index = tokens.index(first)
        keyword = first.text.casefold() if first.kind == WORD else ""
        followed_by_colon = index + 1 < len(tokens) and tokens[index + 1].kind == COLON
        if keyword == "hand" and not followed_by_colon:
            self._close_hand()
            self._hand_line(tokens, index, seats)
        elif self.hand is None:
            raise fail_at(first, "a hand starts with a line 'hand N' before its deal and tricks")
        elif keyword == "deal" and not followed_by_colon:
            self.hand.deal_line(tokens, index)
        else:
            try:
                if keyword == "score" and not followed_by_colon:
                    self.hand.score_line(tokens, index)
                else:
                    self.hand.trick_line(tokens, index)
            except SyntaxFail as fail:
                if self.problems is None:
                    raise
                # The line is skipped; the replay reports it where it stands.
                end = max(t.col + len(t.text) for t in tokens if t.line == fail.line) + 1
                self.problems.append(
                    ReadProblem("line", fail.message, (fail.line, fail.col), (fail.col, end))
                )

    def start_hand(self, number: int, shuffler: int | None, pos: Pos) -> HandBuilder:
        """Begin hand `number` at `pos`, closing the one before."""
        assert self.seats is not None
        self._close_hand()
        self.hand = HandBuilder(self.seats, number, shuffler, pos, self.problems)
        return self.hand

    def _hand_line(self, tokens: list[Token], index: int, seats: Seats) -> None:
        """`hand [N] [shuffler SEAT]`; N defaults to one more than the last hand."""
        keyword = tokens[index]
        pos = Pos(keyword.line, keyword.col)
        comments = [t.text for t in tokens[index + 1 :] if t.kind == COMMENT]
        rest = [t for t in tokens[index + 1 :] if t.kind != COMMENT]
        number = self.hands[-1].number + 1 if self.hands else 1
        if rest and rest[0].kind == WORD and rest[0].text.isdecimal():
            token = rest.pop(0)
            written = bounded(token.text, MAX_HAND_NUMBER)
            if written is None:
                raise fail_at(token, f"hand numbers go up to {MAX_HAND_NUMBER:,}")
            number = written
            if number < 1:
                raise SyntaxFail("hands are numbered from 1", pos.line, pos.col)
        shuffler = None
        if rest and rest[0].kind == WORD and rest[0].text.casefold().startswith("shuffler"):
            word = rest.pop(0)
            _, eq, value = word.text.partition("=")
            if eq and value:  # shuffler=4
                rest.insert(0, Token(WORD, value, word.line, word.col + len("shuffler=")))
            elif rest and rest[0].kind == COLON:
                rest.pop(0)
            if not rest:
                raise fail_at(word, "shuffler needs a seat: a number or a player name")
            if len(rest) > 1 and all(t.kind == WORD for t in rest):  # a name with spaces
                rest = [Token(STRING, " ".join(t.text for t in rest), rest[0].line, rest[0].col)]
            shuffler = self._line_seat(rest.pop(0), seats)
        if rest:
            raise fail_at(rest[0], "a hand line is 'hand N' with an optional 'shuffler SEAT'")
        self.start_hand(number, shuffler, pos).comments.extend(comments)

    def _line_seat(self, token: Token, seats: Seats) -> int | None:
        """The shuffler; a recovering reader notes a name that names no seat, and reads it as
        the one player it is close to, else goes on without a shuffler (not checked)."""
        if self.problems is None:
            return seats.resolve(token)
        seat, problem = seats.leniently(token, "shuffler")
        if problem is not None:
            self.problems.append(problem)
        return seat

    def _comments_only(self, tokens: list[Token]) -> None:
        texts = [t.text for t in tokens]
        if self.hand is None:
            self.comments.extend(texts)
        elif self.hand.tricks and self.hand.score is None:
            # A comment after a trick belongs to the move it follows, as in PGN.
            self.hand.tricks[-1].moves[-1].comments.extend(texts)
        else:
            self.hand.comments.extend(texts)

    def _close_hand(self) -> None:
        if self.hand is not None:
            self.hands.append(self.hand.finish())
            self.hand = None

    def finish(self) -> Game:
        line, col = (self.pos.line, self.pos.col) if self.pos else (1, 1)
        if self.players is None:
            self.players = self.header.finish(line, col)
        self._close_hand()
        h = self.header
        return Game(
            players=self.players,
            event=h.event,
            site=h.site,
            date=h.date,
            extra_tags=h.extra,
            preset=h.preset,
            options=h.options,
            target=h.target,
            result=h.result,
            hands=self.hands,
            comments=self.comments,
            pos=self.pos,
            source=self.filename,
            problems=self.problems or [],
        )
