"""The .zfn text notation: a streaming reader and a canonical writer. FORMAT.md is the spec.

The reader takes lines one at a time and yields each game as soon as the next one begins, so a
file of any size is read in constant memory. A syntax error costs only its own game: the reader
reports it and resumes at the next game's tags (the first tag line after a non-tag line).

There is one grammar. Each statement (a hand, deal, trick or score line) is read into values
and handed to one builder method, which checks it against the game so far. Most lines are
spelled exactly as the writer spells them, and one regex (`_PLAIN_RE`) recognises such a line
whole, so its values are taken from the regex instead of a token per word; any other line is
split into tokens by the lexer. Either way the same builder methods, the same card parser
(zfrec.engine.cards) and the same seat resolver (zfrec.record.model.seat_of) do the reading.
A plain line that would be an error is left to the lexer, which reports it at its token.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TextIO

from zfrec.engine.cards import (
    NO_CARDS,
    Cards,
    DeclarationTuple,
    Stand,
    parse_cards,
    parse_play,
    read_word,
)
from zfrec.errors import CardError, Location, NotationError, SeatError
from zfrec.record.lexer import (
    COLON,
    COMMENT,
    STRING,
    WORD,
    Lexer,
    SyntaxFail,
    Token,
    excerpt,
    split_annotation,
)
from zfrec.record.model import (
    ANNOTATIONS,
    MAX_HAND_NUMBER,
    MAX_SCORE,
    MAX_UNKNOWN,
    MAX_VERSIONS,
    AltPlay,
    Game,
    Hand,
    HandScore,
    Move,
    Pos,
    SeatDeal,
    Trick,
    seat_of,
    versions_problem,
)
from zfrec.record.problems import (
    Fix,
    ReadProblem,
    read_word_leniently,
    readable_parts,
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
_new_tuple = tuple.__new__  # Pos(l, c) without the Python-level __new__ of a named tuple
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
        self.game: _GameBuilder | None = None
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
                    self.game = _GameBuilder(self.count, self.filename, self.pending, self.recover)
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


def _fail(token: Token, message: str) -> SyntaxFail:
    return SyntaxFail(message, token.line, token.col)


# ---------------------------------------------------------------------------------------------
# Plain lines: a statement spelled exactly as the writer spells it, with seats as plain numbers,
# cards in canonical spelling, the writer's spacing, and no comments, quotes or names. A trick
# line is recognised move by move: `_PLAIN_MOVE_RE` for the play of each (checked once per
# different play, then cached). One regex, `_PLAIN_RE`, recognises the other plain lines. The
# numbers these admit are within the bounds of the model.

_P_RANK = "[3-9TJQKA2]"
_P_CARD = f"(?:{_P_RANK}[shdc]|[SB]J(?:={_P_RANK}[shdc]?)?)"
_PLAIN_MOVE_RE = re.compile(f"(?:-|{_P_CARD}(?: {_P_CARD})*)(?:[!?]{{1,2}})?")
_P_SCORES = f"[0-9]{{1,{len(str(MAX_SCORE))}}}(?: [0-9]{{1,{len(str(MAX_SCORE))}}})*"
_PLAIN_RE = re.compile(
    f"hand (?P<hand>[0-9]{{1,{len(str(MAX_HAND_NUMBER))}}})(?: shuffler (?P<shuffler>[1-6]))?"
    f"|score (?P<points>{_P_SCORES})(?: total (?P<totals>{_P_SCORES}))?"
)

_Play = tuple[bool, Cards, DeclarationTuple, str | None]  # is_pass, cards, declarations, mark
# Plays repeat all the time (`-`, single cards), so each different play text is read once.
_PLAYS: dict[str, _Play] = {}
_PLAYS_LIMIT = 20_000  # a few thousand different plays fill a large corpus


def _plain_play(text: str) -> _Play | None:
    """The play of a plain move (`3s 3h`, `-`, `BJ=8 8s!`), or None if it is not one."""
    if _PLAIN_MOVE_RE.fullmatch(text) is None:
        return None
    body, annotation = split_annotation(text)
    if body == "-":
        play: _Play = (True, NO_CARDS, (), annotation)
    else:
        try:
            read = parse_play(body)
        except CardError:
            return None  # a card given twice: the lexer says where
        play = (False, read.mask, read.declarations, annotation)
    if len(_PLAYS) >= _PLAYS_LIMIT:
        _PLAYS.clear()
    _PLAYS[text] = play
    return play


# ---------------------------------------------------------------------------------------------
# Builders


class _GameBuilder:
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
        self.hand: _HandBuilder | None = None
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
                raise _fail(token, "only a comment may follow a tag on its line")
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
            raise _fail(first, "a hand starts with a line 'hand N' before its deal and tricks")
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

    def start_hand(self, number: int, shuffler: int | None, pos: Pos) -> _HandBuilder:
        """Begin hand `number` at `pos`, closing the one before."""
        assert self.seats is not None
        self._close_hand()
        self.hand = _HandBuilder(self.seats, number, shuffler, pos, self.problems)
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
            written = _count(token.text, MAX_HAND_NUMBER)
            if written is None:
                raise _fail(token, f"hand numbers go up to {MAX_HAND_NUMBER:,}")
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
                raise _fail(word, "shuffler needs a seat: a number or a player name")
            if len(rest) > 1 and all(t.kind == WORD for t in rest):  # a name with spaces
                rest = [Token(STRING, " ".join(t.text for t in rest), rest[0].line, rest[0].col)]
            shuffler = seats.resolve(rest.pop(0))
        if rest:
            raise _fail(rest[0], "a hand line is 'hand N' with an optional 'shuffler SEAT'")
        self.start_hand(number, shuffler, pos).comments.extend(comments)

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


def _count(text: str, bound: int) -> int | None:
    """A whole number (ASCII or any script's digits) no greater than `bound`, or None."""
    if not text.isdecimal() or len(text.lstrip("0")) > len(str(bound)):
        return None
    value = int(text)
    return value if value <= bound else None


def _unknown(digits: str) -> int | None:
    """The count of unknown cards after `?`: none means one."""
    return _count(digits, MAX_UNKNOWN) if digits else 1


def _is_seat_ref(tokens: list[Token], i: int) -> bool:
    return tokens[i].kind in (WORD, STRING) and i + 1 < len(tokens) and tokens[i + 1].kind == COLON


class _HandBuilder:
    def __init__(
        self,
        seats: Seats,
        number: int,
        shuffler: int | None,
        pos: Pos,
        problems: list[ReadProblem] | None = None,
    ) -> None:
        self.seats = seats
        self.problems = problems  # None: not recovering, problems raise
        self.pos = pos
        self.number = number
        self.shuffler = shuffler
        self.deal: dict[int, SeatDeal] = {}
        self.tricks: list[Trick] = []
        self.score: HandScore | None = None
        self.comments: list[str] = []

    # --- what each statement may do here; errors at the place given ---------------------------

    def _deal_allowed(self, line: int, col: int) -> None:
        if self.tricks:
            raise SyntaxFail("deal lines come before the first trick of the hand", line, col)

    def _new_deal(self, seat: int, line: int, col: int) -> None:
        if seat in self.deal:
            raise SyntaxFail(f"seat {seat + 1} is dealt twice in this hand", line, col)

    def _score_allowed(self, line: int, col: int) -> None:
        if self.score is not None:
            raise SyntaxFail("the hand already has a score line", line, col)

    def _per_seat(self, count: int, what: str, line: int, col: int) -> None:
        n = len(self.seats.players)
        if count != n:
            raise SyntaxFail(
                f"{what} needs {n} numbers, one per seat in order, not {count}", line, col
            )

    def _trick_allowed(self, line: int, col: int) -> None:
        if self.score is not None:
            raise SyntaxFail("the score line ends the hand; start a new 'hand' first", line, col)

    # --- plain lines ------------------------------------------------------------------------

    def plain_line(self, line: str, number: int, game: _GameBuilder) -> bool:
        """Read `line` if it is plain. False, with nothing changed, if the lexer is to read it
        instead: it is not plain, has a seat number that might end a name, or is an error."""
        if not line:
            return True
        first = line[0]
        if "1" <= first <= "6":
            return self._plain_trick(line, number)
        if line.startswith("deal "):
            return self._plain_deal(line, number)
        m = _PLAIN_RE.fullmatch(line)
        if m is None:
            return False
        if first == "h":
            return self._plain_hand(m, number, game)
        return self._plain_score(m, number)

    def _plain_trick(self, line: str, number: int) -> bool:
        """`1: 3s 3h  2: -  3: 5s 5c!`: moves two spaces apart, each `SEAT: PLAY`."""
        if self.score is not None:
            return False  # the lexer reports it
        numbers = self.seats.numbers
        moves: list[Move] = []
        col = 1
        for text in line.split("  "):
            seat_text, _, play_text = text.partition(": ")
            seat = numbers.get(seat_text)
            play = _PLAYS.get(play_text) or _plain_play(play_text)
            if seat is None or play is None:
                return False
            is_pass, cards, declarations, annotation = play
            moves.append(
                Move(seat, is_pass, cards, declarations, annotation, [], False, None,
                     _new_tuple(Pos, (number, col)))
            )  # fmt: skip
            col += len(text) + 2
        self.tricks.append(Trick(moves, [], moves[0].pos))
        return True

    def _plain_deal(self, line: str, number: int) -> bool:
        """`deal 2: 3s 4h ?16`: the seat as a number, cards (read by the card parser, which
        reads the writer's spelling at once), then `?` or `?N` for unknown cards."""
        head, colon, text = line.partition(":")
        seat = self.seats.numbers.get(head[len("deal ") :])
        if seat is None or not colon or self.tricks or seat in self.deal:
            return False  # not plain, or the lexer reports the error
        cards_text, mark, count = text.rpartition("?") if "?" in text else (text, "", "")
        unknown = _unknown(count) if mark else 0
        if unknown is None or (mark and cards_text and not cards_text[-1].isspace()):
            return False  # `?` glued to a card, or not a count after it
        cards_text = cards_text.strip()
        try:
            known = parse_cards(cards_text) if cards_text else NO_CARDS
        except CardError:
            return False  # the lexer says where
        self.deal[seat] = SeatDeal(known, unknown, _new_tuple(Pos, (number, 1)))
        return True

    def _plain_hand(self, m: re.Match[str], number: int, game: _GameBuilder) -> bool:
        hand_number = int(m["hand"])
        shuffler = None if m["shuffler"] is None else self.seats.numbers.get(m["shuffler"], -1)
        if hand_number < 1 or shuffler == -1:
            return False
        game.start_hand(hand_number, shuffler, Pos(number, 1))
        return True

    def _plain_score(self, m: re.Match[str], number: int) -> bool:
        self._score_allowed(number, 1)
        points_text, totals_text = m["points"], m["totals"]
        points = tuple(map(int, points_text.split(" ")))
        self._per_seat(len(points), "score", number, 1)
        totals = None
        if totals_text is not None:
            totals = tuple(map(int, totals_text.split(" ")))
            self._per_seat(len(totals), "total", number, len("score  ") + len(points_text) + 1)
        self.score = HandScore(points, totals, Pos(number, 1))
        return True

    # --- lines read by the lexer ------------------------------------------------------------

    def _take_comments(self, tokens: list[Token]) -> list[Token]:
        self.comments.extend(t.text for t in tokens if t.kind == COMMENT)
        return [t for t in tokens if t.kind != COMMENT]

    def deal_line(self, tokens: list[Token], index: int) -> None:
        keyword = tokens[index]
        self._deal_allowed(keyword.line, keyword.col)
        rest = self._take_comments(self.seats.merge_names(tokens, index + 1)[index + 1 :])
        if len(rest) < 2 or not _is_seat_ref(rest, 0):
            raise _fail(keyword, "write a deal line as 'deal SEAT: cards', with ? per unknown card")
        seat = self.seats.resolve(rest[0])
        self._new_deal(seat, rest[0].line, rest[0].col)
        known = unknown = 0
        for token in rest[2:]:
            text = token.text
            if token.kind != WORD:
                raise _fail(token, "a deal line lists cards and ? for unknown cards")
            if not text.strip(","):
                continue  # commas alone only separate cards
            if text.startswith("?"):
                count = _unknown(text[1:])
                if count is None:
                    raise _fail(
                        token,
                        f"write ? for one unknown card or ?N for N (at most {MAX_UNKNOWN}), "
                        f"not {_clip(text)!r}",
                    )
                unknown += count
                continue
            mask, decls = _cards(token, text)
            if decls:
                raise _fail(token, "a deal has no joker declarations")
            if known & mask:
                raise _fail(token, f"a card in {text!r} is dealt twice to seat {seat + 1}")
            known |= mask
        if unknown > MAX_UNKNOWN:
            raise _fail(keyword, f"a seat is dealt at most {MAX_UNKNOWN} unknown cards")
        self.deal[seat] = SeatDeal(Cards(known), unknown, Pos(keyword.line, keyword.col))

    def score_line(self, tokens: list[Token], index: int) -> None:
        keyword = tokens[index]
        self._score_allowed(keyword.line, keyword.col)
        rest = self._take_comments(tokens[index + 1 :])
        split = next((i for i, t in enumerate(rest) if t.text.casefold() == "total"), len(rest))
        points = self._scores(keyword, rest[:split], "score")
        totals = None
        if split < len(rest):
            totals = self._scores(rest[split], rest[split + 1 :], "total")
        self.score = HandScore(points, totals, Pos(keyword.line, keyword.col))

    def _scores(self, at: Token, tokens: list[Token], what: str) -> tuple[int, ...]:
        self._per_seat(len(tokens), what, at.line, at.col)
        out = []
        for token in tokens:
            if token.kind != WORD or not token.text.isdecimal():
                raise _fail(token, f"expected a score, a whole number, not {_clip(token.text)!r}")
            value = _count(token.text, MAX_SCORE)
            if value is None:
                raise _fail(token, f"a score is at most {MAX_SCORE:,}")
            out.append(value)
        return tuple(out)

    def trick_line(self, tokens: list[Token], index: int) -> None:
        self._trick_allowed(tokens[index].line, tokens[index].col)
        tokens = self.seats.merge_names(tokens, 0)
        comments: list[str] = []
        i = 0
        while tokens[i].kind == COMMENT:
            comments.append(tokens[i].text)
            i += 1
        if not _is_seat_ref(tokens, i):
            raise _fail(
                tokens[i],
                f"expected a move like '2: 7h 7s' or a keyword, not {_clip(tokens[i].text)!r}",
            )
        trick = Trick([], comments, Pos(tokens[0].line, tokens[0].col))
        while i < len(tokens):
            i = self._move(tokens, i, trick.moves)
        self.tricks.append(trick)

    def _move(self, tokens: list[Token], i: int, moves: list[Move]) -> int:
        """Read the move at `tokens[i]` (a seat reference); return the index after it.

        A recovering reader keeps a move it cannot read as a placeholder without cards, notes
        why (a `move` problem, which the replay reports and skips) and goes on at the next
        seat reference."""
        if self.problems is None:
            return self._read_move(tokens, i, moves)
        try:
            return self._read_move(tokens, i, moves)
        except SyntaxFail as fail:
            seat_token = tokens[i]
            j = i + 2
            while j < len(tokens) and not _is_seat_ref(tokens, j):
                j += 1
            last = tokens[j - 1]
            try:
                seat = self.seats.resolve(seat_token)
            except SyntaxFail:
                seat = -1
            pos = _new_tuple(Pos, (seat_token.line, seat_token.col))
            end = last.col + len(last.text) if last.line == fail.line else fail.col + 1
            self.problems.append(
                ReadProblem("move", fail.message, (fail.line, fail.col), (fail.col, end), pos)
            )
            moves.append(Move(seat, pos=pos))
            return j

    def _move_seat(self, token: Token) -> int:
        """The seat of a move; when recovering, an unknown name is noted (a `seat` problem)
        and read as the one player it is close to, else as no seat (-1)."""
        if self.problems is None:
            return self.seats.resolve(token)
        seat = self.seats.exact.get(token.text)
        if seat is not None:
            return seat
        try:
            return seat_of(self.seats.players, token.text)
        except SeatError as exc:
            message, matches = self.seats.unknown(token.text, exc.message)
        end = self.seats.spans.get((token.line, token.col))
        if end is None:
            end = token.col + len(token.text) + (2 if token.kind == STRING else 0)
        fix = None
        if matches:
            names = [self.seats.players[s] for s in matches]
            fix = Fix(token.line, token.col, end, names[0], tuple(names[1:]))
        pos = (token.line, token.col)
        self.problems.append(
            ReadProblem("seat", message, pos, (token.col, end), pos, seats=tuple(matches), fix=fix)
        )
        return matches[0] if len(matches) == 1 else -1

    def _move_cards(self, token: Token, body: str, move: Token) -> tuple[int, DeclarationTuple]:
        """The cards of one word of a move; when recovering, each unreadable card (a comma-
        separated part of the word) is noted as a `card` problem and the rest is kept."""
        if self.problems is None:
            return _cards(token, body)
        mask, decls, bad = read_word_leniently(body)
        for offset, part, exc in bad:
            col = token.col + offset
            rank, suit = readable_parts(part)
            self.problems.append(
                ReadProblem(
                    "card", exc.message, (token.line, col + exc.offset), (col, col + len(part)),
                    (move.line, move.col), rank=rank, suit=suit,
                )
            )  # fmt: skip
        return mask, decls

    def _read_move(self, tokens: list[Token], i: int, moves: list[Move]) -> int:
        seat_token = tokens[i]
        seat = self._move_seat(seat_token)
        i += 2
        cards = 0
        decls: list[tuple[int, Stand]] = []
        is_pass = disputed = False
        annotation: str | None = None
        note: str | None = None
        comments: list[str] = []
        played = False
        versions: list[_Version] = []  # `or` versions of a disputed move, as they are read
        n = len(tokens)
        while i < n:
            token = tokens[i]
            kind, text = token.kind, token.text
            if i + 1 < n and tokens[i + 1].kind == COLON and kind != COMMENT and kind != COLON:
                break  # the next move's seat reference
            i += 1
            if kind == COMMENT:
                comments.append(text)
            elif kind == COLON:
                raise _fail(token, "a ':' follows a seat: a number or a player name")
            elif kind == STRING:
                if not disputed or note is not None or versions:
                    raise _fail(token, 'quoted text here can only be the note after "disputed"')
                note = text
            elif text.casefold() == "disputed":
                if disputed or not played:
                    raise _fail(token, "'disputed' comes once, after the cards of a move")
                disputed = True
            elif disputed:
                if text.casefold() == "or":
                    if versions:
                        versions[-1].close()
                    versions.append(_Version(token))
                elif versions:
                    versions[-1].add(token)
                else:
                    raise _fail(
                        token,
                        "after 'disputed' only a quoted note, 'or' versions and comments may "
                        "follow",
                    )
            else:
                body, ann = split_annotation(text)
                if not body.strip(","):
                    body = ""  # commas alone only separate cards
                elif played and len(body) == 2 and body.casefold() == "or":
                    raise _fail(
                        token, "'or' gives another version of a disputed move: write 'disputed' "
                        "before it (2: Qc disputed or Kc)",
                    )  # fmt: skip
                if body and annotation is not None:
                    raise _fail(token, "the annotation comes after the last card of the move")
                if body.casefold() in PASS_WORDS:
                    if played:
                        raise _fail(token, "a pass has no cards")
                    is_pass = played = True
                elif body:
                    if is_pass:
                        raise _fail(token, "a pass has no cards")
                    mask, found = self._move_cards(token, body, seat_token)
                    if cards & mask:
                        raise _fail(token, f"a card in {body!r} is given twice in this move")
                    cards |= mask
                    decls.extend(found)
                    played = True
                if ann is not None:
                    if not played:
                        raise _fail(token, "an annotation follows the cards of a move")
                    if annotation is not None:
                        raise _fail(token, "a move has one annotation")
                    if ann not in ANNOTATIONS:
                        raise _fail(
                            token,
                            f"unknown annotation {_clip(ann)!r}: "
                            f"use one of {' '.join(ANNOTATIONS)}",
                        )
                    annotation = ann
        if not played:
            raise _fail(seat_token, f"seat {seat + 1} has no cards: write the cards, or - to pass")
        pos = Pos(seat_token.line, seat_token.col)
        if is_pass:
            move = Move(seat, True, NO_CARDS, (), annotation, comments, disputed, note, pos)
        else:
            move = Move.plays(
                seat, cards, tuple(decls), annotation=annotation, comments=comments,
                disputed=disputed, dispute_note=note, pos=pos,
            )  # fmt: skip
        if versions:
            versions[-1].close()
            move.alternatives = tuple(v.play() for v in versions)
            problem = versions_problem(move)
            if problem:
                at = versions[-1].token if len(versions) > MAX_VERSIONS else None
                raise _fail(at or _twice(versions, move), problem)
        moves.append(move)
        return i

    def finish(self) -> Hand:
        deal = None
        if self.deal:
            missing = [s for s in range(len(self.seats.players)) if s not in self.deal]
            if missing:
                first = min(
                    (d.pos for d in self.deal.values() if d.pos), key=lambda p: (p.line, p.col)
                )
                raise SyntaxFail(
                    f"the deal has no line for seat {missing[0] + 1}; "
                    f"write 'deal {missing[0] + 1}: ?N' if its N cards are unknown",
                    first.line,
                    first.col,
                )
            deal = tuple(self.deal[s] for s in range(len(self.seats.players)))
        return Hand(
            self.number, self.shuffler, deal, self.tricks, self.score, self.comments, self.pos
        )


class _Version:
    """One `or` version of a disputed move, read word by word: cards, or a pass."""

    __slots__ = ("cards", "decls", "is_pass", "token")

    def __init__(self, token: Token) -> None:
        self.token = token  # the `or`, where problems with this version are reported
        self.cards = 0
        self.decls: list[tuple[int, Stand]] = []
        self.is_pass = False

    def add(self, token: Token) -> None:
        body = token.text
        if not body.strip(","):
            return  # commas alone only separate cards
        if body.casefold() in PASS_WORDS:
            if self.cards or self.is_pass:
                raise _fail(token, "a pass has no cards")
            self.is_pass = True
            return
        if self.is_pass:
            raise _fail(token, "a pass has no cards")
        if body[-1] in "!?":
            raise _fail(token, "an annotation belongs to the recorded play, not to an 'or' version")
        mask, found = _cards(token, body)
        if self.cards & mask:
            raise _fail(token, f"a card in {body!r} is given twice in this version")
        self.cards |= mask
        self.decls.extend(found)

    def close(self) -> None:
        if not self.cards and not self.is_pass:
            raise _fail(self.token, "'or' needs a play after it: the cards, or - for a pass")

    def play(self) -> AltPlay:
        if self.is_pass:
            return AltPlay(True)
        return AltPlay(False, Cards(self.cards), tuple(sorted(self.decls, key=lambda d: d[0])))


def _twice(versions: list[_Version], move: Move) -> Token:
    """The `or` of the first version that repeats the recorded play or an earlier version."""
    seen = {AltPlay.of_move(move)}
    for version in versions:
        play = version.play()
        if play in seen:
            return version.token
        seen.add(play)
    return versions[0].token


def _clip(text: str, width: int = 40) -> str:
    """`text` for a message: long words (hostile input) are cut with an ellipsis."""
    return text if len(text) <= width else text[:width] + "…"


def _cards(token: Token, text: str) -> tuple[int, DeclarationTuple]:
    try:
        return read_word(text)
    except CardError as exc:
        raise SyntaxFail(exc.message, token.line, token.col + exc.offset) from None
