"""The .zfn text notation: a streaming reader and a canonical writer. FORMAT.md is the spec.

The reader takes lines one at a time and yields each game as soon as the next one begins, so a
file of any size is read in constant memory. A syntax error costs only its own game: the reader
reports it and resumes at the next game's tags (the first tag line after a non-tag line).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import fields
from typing import Any, Protocol

from zfrec.engine.cards import DECK_SIZE, Stand, card_str, format_cards
from zfrec.errors import Location, NotationError
from zfrec.record.lexer import (
    COLON,
    COMMENT,
    STRING,
    WORD,
    Declarations,
    Lexer,
    SyntaxFail,
    Token,
    WordFail,
    escape_comment,
    escape_string,
    excerpt,
    parse_cards_word,
    split_annotation,
)
from zfrec.record.model import (
    ANNOTATIONS,
    Game,
    Hand,
    HandScore,
    Move,
    Pos,
    SeatDeal,
    Trick,
)
from zfrec.record.zfn_header import Header, format_header

PASS_WORDS = frozenset({"pass", "-", "–", "—", "－", "过"})  # dashes phones substitute; 过 = pass


def iter_games(
    lines: Iterable[str],
    filename: str | None = None,
    *,
    first_line: int = 1,
    games_before: int = 0,
) -> Iterator[Game | NotationError]:
    """Each game of a .zfn stream, or the NotationError that spoiled it; never raises on syntax.

    `lines` is any iterable of text lines (an open file, `io.StringIO`, a generator). Nothing is
    read beyond the first line of the next game before a game is yielded. A part of a file that
    starts at a game's first tag line reads as it does in the whole file when given its
    `first_line` number and the number of games that start before it (`games_before`).
    """
    reader = _Reader(filename)
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


def lines_of(text: str) -> Iterator[str]:
    # Not str.splitlines: it also splits at \x0c, \u2028 and friends, which files do not.
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start : end + 1]
        start = end + 1


class _Reader:
    def __init__(self, filename: str | None, fast: bool = True) -> None:
        self.filename = filename
        self.fast = fast  # False: every line takes the general path (tests compare the two)
        self.lexer = Lexer()
        self.lines: dict[int, str] = {}  # source lines of the current game, for excerpts
        self.game: _GameBuilder | None = None
        self.count = 0  # games started, for Location.game
        self.pending: list[str] = []  # comments seen before the first game's tags

    def run(self, lines: Iterable[str], first_line: int = 1) -> Iterator[Game | NotationError]:
        skipping = False
        prev_tag = False
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
                    self.count += 1
                    self.game = _GameBuilder(self.count, self.filename, self.pending)
                    self.pending = []
                self.lines[number] = line
                if is_tag:
                    if self.lexer.in_comment:  # a tag line always ends an open comment
                        raise self.lexer.unterminated()
                    assert self.game is not None
                    self.game.tag_line(line, number, self.lexer)
                elif not (
                    # Most lines are spelled as the writer spells them, and a fast path reads
                    # them directly (see "Fast paths"). Any other line, and every line inside a
                    # `{` comment, goes through the lexer.
                    self.fast
                    and self.game is not None
                    and not self.lexer.in_comment
                    and self.game.fast_line(line, number)
                ):
                    tokens = self.lexer.feed(line, number)
                    if tokens:
                        self._statement(tokens)
            except SyntaxFail as fail:
                yield self._error(fail)
                self.game = None
                self.lexer.reset()
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
        self.lines = {}

    def _error(self, fail: SyntaxFail) -> NotationError:
        source = self.lines.get(fail.line, "")
        where = Location(self.filename, fail.line, fail.col, game=self.count or None)
        return NotationError(f"{fail.message}\n{excerpt(source, fail.line, fail.col)}", where)


def _fail(token: Token, message: str) -> SyntaxFail:
    return SyntaxFail(message, token.line, token.col)


class _GameBuilder:
    """Collects one game, statement by statement."""

    def __init__(self, index: int, filename: str | None, comments: list[str]) -> None:
        self.header = Header()
        self.filename = filename
        self.comments = list(comments)
        self.hands: list[Hand] = []
        self.hand: _HandBuilder | None = None
        self.pos: Pos | None = None
        self.players: list[str] | None = None
        self.seats: _SeatNames | None = None
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

    def _start_body(self, at: Token) -> _SeatNames:
        if self.seats is None:
            self.players = self.header.finish(at.line, at.col)
            self.seats = _SeatNames(self.players)
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
            number = self.hands[-1].number + 1 if self.hands else 1
            self.hand = _HandBuilder.from_tokens(tokens, index, number, seats)
        elif self.hand is None:
            raise _fail(first, "a hand starts with a line 'hand N' before its deal and tricks")
        elif keyword == "deal" and not followed_by_colon:
            self.hand.deal_line(tokens, index)
        elif keyword == "score" and not followed_by_colon:
            self.hand.score_line(tokens, index)
        else:
            self.hand.trick_line(tokens, index)

    def fast_line(self, line: str, number: int) -> bool:
        """Read `line` without the lexer if it is spelled as the writer spells body lines.

        False if it is not, or if anything about it is unusual; nothing has changed then, and
        the caller reads the line through the general path (lexer, statement), which is the
        reference. See "Fast paths" below.
        """
        if not line:
            return True  # a blank line: nothing to read
        first = line[0]
        hand = self.hand
        if hand is None:
            return False
        if "0" <= first <= "9":
            return hand.fast_trick(line, number)
        if first == "d":
            return hand.fast_deal(line, number)
        if first == "h":
            return self._fast_hand(line, number)
        if first == "s":
            return hand.fast_score(line, number)
        return False

    def _fast_hand(self, line: str, number: int) -> bool:
        """`hand 3` or `hand 3 shuffler 1`, read as statement() and _HandBuilder.from_tokens do."""
        m = _FAST_HAND_RE.fullmatch(line)
        if m is None or self.seats is None:
            return False
        hand_number = int(m[1])
        shuffler = None if m[2] is None else self.seats.numbers.get(m[2], -1)
        if hand_number < 1 or shuffler == -1:
            return False
        self._close_hand()  # may raise, exactly as in statement()
        self.hand = _HandBuilder(self.seats, hand_number, shuffler, Pos(number, 1))
        return True

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
        )


class _SeatNames:
    """Resolves seat references: a 1-based number, or a player name in any case."""

    def __init__(self, players: list[str]) -> None:
        self.players = players
        self.by_name = {name.casefold(): i for i, name in enumerate(players)}
        self.max_words = max(len(name.split(" ")) for name in players)
        # Last words of names with spaces: only a colon after one of these may need merging.
        self.last_words = {n.split(" ")[-1].casefold() for n in players if " " in n}
        # Seat numbers as the writer spells them, for the fast paths. A number that ends a name
        # with spaces ("Bo 2") is left out: before a colon, merge_names might join it to a name.
        self.numbers = {str(i + 1): i for i in range(len(players))}
        for word in self.last_words:
            self.numbers.pop(word, None)

    def resolve(self, token: Token) -> int:
        text = token.text
        if token.kind == WORD and text.isdecimal():
            seat = int(text)
            if not 1 <= seat <= len(self.players):
                raise _fail(token, f"there is no seat {seat}: seats are 1 to {len(self.players)}")
            return seat - 1
        seat_index = self.by_name.get(text.casefold())
        if seat_index is None:
            names = ", ".join(f"{i + 1} {n}" for i, n in enumerate(self.players))
            raise _fail(token, f"no player is called {text!r}: the seats are {names}")
        return seat_index

    def merge_names(self, tokens: list[Token], start: int) -> list[Token]:
        """Join unquoted words before a colon into one name token where they spell a name.

        This lets `Bo Li: 7h` work without quotes. The longest matching run wins.
        """
        last_words = self.last_words
        if not any(
            t.kind == COLON and i > start and tokens[i - 1].text.casefold() in last_words
            for i, t in enumerate(tokens)
        ):
            return tokens
        out: list[Token] = tokens[:start]
        for token in tokens[start:]:
            if token.kind == COLON:
                for k in range(self.max_words, 1, -1):
                    run = out[-k:]
                    if len(run) == k and all(t.kind == WORD for t in run):
                        name = " ".join(t.text for t in run)
                        if name.casefold() in self.by_name:
                            del out[-k:]
                            out.append(Token(STRING, name, run[0].line, run[0].col))
                            break
            out.append(token)
        return out


def _is_seat_ref(tokens: list[Token], i: int) -> bool:
    return tokens[i].kind in (WORD, STRING) and i + 1 < len(tokens) and tokens[i + 1].kind == COLON


def _number(token: Token, what: str) -> int:
    if token.kind != WORD or not token.text.isdecimal():
        raise _fail(token, f"expected {what}, a whole number, not {token.text!r}")
    return int(token.text)


class _HandBuilder:
    def __init__(self, seats: _SeatNames, number: int, shuffler: int | None, pos: Pos) -> None:
        self.seats = seats
        self.pos = pos
        self.number = number
        self.shuffler = shuffler
        self.deal: dict[int, SeatDeal] = {}
        self.tricks: list[Trick] = []
        self.score: HandScore | None = None
        self.comments: list[str] = []

    @classmethod
    def from_tokens(
        cls, tokens: list[Token], index: int, number: int, seats: _SeatNames
    ) -> _HandBuilder:
        """The hand that the `hand` line `tokens` starts; `number` is the default number."""
        hand = cls(seats, number, None, Pos(tokens[index].line, tokens[index].col))
        rest = hand._take_comments(tokens[index + 1 :])
        if rest and rest[0].kind == WORD and rest[0].text.isdecimal():
            hand.number = int(rest.pop(0).text)
            if hand.number < 1:
                raise SyntaxFail("hands are numbered from 1", hand.pos.line, hand.pos.col)
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
            hand.shuffler = seats.resolve(rest.pop(0))
        if rest:
            raise _fail(rest[0], "a hand line is 'hand N' with an optional 'shuffler SEAT'")
        return hand

    def _take_comments(self, tokens: list[Token]) -> list[Token]:
        self.comments.extend(t.text for t in tokens if t.kind == COMMENT)
        return [t for t in tokens if t.kind != COMMENT]

    def deal_line(self, tokens: list[Token], index: int) -> None:
        keyword = tokens[index]
        if self.tricks:
            raise _fail(keyword, "deal lines come before the first trick of the hand")
        rest = self._take_comments(self.seats.merge_names(tokens, index + 1)[index + 1 :])
        if len(rest) < 2 or not _is_seat_ref(rest, 0):
            raise _fail(keyword, "write a deal line as 'deal SEAT: cards', with ? per unknown card")
        seat = self.seats.resolve(rest[0])
        if seat in self.deal:
            raise _fail(rest[0], f"seat {seat + 1} is dealt twice in this hand")
        known = unknown = 0
        for token in rest[2:]:
            text = token.text
            if token.kind != WORD:
                raise _fail(token, "a deal line lists cards and ? for unknown cards")
            if text.startswith("?"):
                count = text[1:]
                if count and not count.isdecimal():
                    raise _fail(token, f"write ? for one unknown card or ?N for N, not {text!r}")
                unknown += int(count) if count else 1
                continue
            mask, decls = _cards(token, text)
            if decls:
                raise _fail(token, "a deal has no joker declarations")
            if known & mask:
                raise _fail(token, f"a card in {text!r} is dealt twice to seat {seat + 1}")
            known |= mask
        self.deal[seat] = SeatDeal(known, unknown, Pos(keyword.line, keyword.col))

    def score_line(self, tokens: list[Token], index: int) -> None:
        keyword = tokens[index]
        if self.score is not None:
            raise _fail(keyword, "the hand already has a score line")
        rest = self._take_comments(tokens[index + 1 :])
        split = next((i for i, t in enumerate(rest) if t.text.casefold() == "total"), len(rest))
        points = self._scores(keyword, rest[:split], "score")
        totals = None
        if split < len(rest):
            totals = self._scores(rest[split], rest[split + 1 :], "total")
        self.score = HandScore(points, totals, Pos(keyword.line, keyword.col))

    def _scores(self, at: Token, tokens: list[Token], what: str) -> tuple[int, ...]:
        n = len(self.seats.players)
        if len(tokens) != n:
            raise _fail(at, f"{what} needs {n} numbers, one per seat in order, not {len(tokens)}")
        return tuple(_number(t, "a score") for t in tokens)

    def trick_line(self, tokens: list[Token], index: int) -> None:
        if self.score is not None:
            raise _fail(tokens[index], "the score line ends the hand; start a new 'hand' first")
        tokens = self.seats.merge_names(tokens, 0)
        comments: list[str] = []
        i = 0
        while tokens[i].kind == COMMENT:
            comments.append(tokens[i].text)
            i += 1
        if not _is_seat_ref(tokens, i):
            raise _fail(
                tokens[i], f"expected a move like '2: 7h 7s' or a keyword, not {tokens[i].text!r}"
            )
        trick = Trick([], comments, Pos(tokens[0].line, tokens[0].col))
        while i < len(tokens):
            i = self._move(tokens, i, trick.moves)
        self.tricks.append(trick)

    def _move(self, tokens: list[Token], i: int, moves: list[Move]) -> int:
        """Read the move at `tokens[i]` (a seat reference); return the index after it."""
        seat_token = tokens[i]
        seat = self.seats.resolve(seat_token)
        i += 2
        cards = 0
        decls: list[tuple[int, Stand]] = []
        is_pass = disputed = False
        annotation: str | None = None
        note: str | None = None
        comments: list[str] = []
        played = False
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
                if not disputed or note is not None:
                    raise _fail(token, 'quoted text here can only be the note after "disputed"')
                note = text
            elif text.casefold() == "disputed":
                if disputed or not played:
                    raise _fail(token, "'disputed' comes once, after the cards of a move")
                disputed = True
            elif disputed:
                raise _fail(token, "after 'disputed' only a quoted note and comments may follow")
            else:
                body, ann = split_annotation(text)
                if body and annotation is not None:
                    raise _fail(token, "the annotation comes after the last card of the move")
                if body.casefold() in PASS_WORDS:
                    if played:
                        raise _fail(token, "a pass has no cards")
                    is_pass = played = True
                elif body:
                    if is_pass:
                        raise _fail(token, "a pass has no cards")
                    mask, found = _cards(token, body)
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
                            token, f"unknown annotation {ann!r}: use one of {' '.join(ANNOTATIONS)}"
                        )
                    annotation = ann
        if not played:
            raise _fail(seat_token, f"seat {seat + 1} has no cards: write the cards, or - to pass")
        pos = Pos(seat_token.line, seat_token.col)
        extra = {"annotation": annotation, "comments": comments, "disputed": disputed, "pos": pos}
        if is_pass:
            moves.append(Move.passes(seat, dispute_note=note, **extra))
        else:
            moves.append(Move.plays(seat, cards, tuple(decls), dispute_note=note, **extra))
        return i

    def fast_trick(self, line: str, number: int) -> bool:
        """`1: 3s 3h  2: -  3: 5s 5c` as the writer spells it, read as trick_line() reads it."""
        if self.score is not None:
            return False
        numbers = self.seats.numbers
        moves: list[Move] = []
        at = 0  # where the move starts in the line
        for text in line.split("  "):  # two spaces between moves
            # One space after the seat's colon. Without ": ", play_text is "", never a play.
            seat_text, _, play_text = text.partition(": ")
            seat = numbers.get(seat_text)
            # Plays repeat all the time (`-`, single cards), so their reading is cached.
            play = _PLAYS.get(play_text) or _read_simple_play(play_text)
            if seat is None or play is None:
                return False
            # Move(seat, *play, pos=Pos(number, at + 1)), built as drafts (see _MoveDraft).
            pos: Any = _PosDraft()
            pos.line = number
            pos.col = at + 1
            pos.__class__ = Pos
            move: Any = _MoveDraft()
            move.seat = seat
            move.is_pass, move.cards, move.declarations = play
            move.annotation = None
            move.comments = []
            move.disputed = False
            move.dispute_note = None
            move.pos = pos
            move.__class__ = Move
            moves.append(move)
            at += len(text) + 2
        # The trick is written where its first move is, at 1:1 of the line; Pos is immutable.
        self.tricks.append(Trick(moves, [], moves[0].pos))
        return True

    def fast_deal(self, line: str, number: int) -> bool:
        """`deal 2: 3s 4h ...` or `deal 2: ?18` as the writer spells it, read as deal_line()."""
        head, _, text = line.partition(": ")
        seat = self.seats.numbers.get(head[len("deal ") :]) if head.startswith("deal ") else None
        if seat is None or seat in self.deal or self.tricks:
            return False
        dealt = _plain_deal(text) or _read_simple_deal(text)
        if dealt is None:
            return False
        self.deal[seat] = SeatDeal(dealt[0], dealt[1], Pos(number, 1))
        return True

    def fast_score(self, line: str, number: int) -> bool:
        """`score 20 0 80 total 40 0 95` as the writer spells it, read as score_line() reads it."""
        m = _FAST_SCORE_RE.fullmatch(line)
        if m is None or self.score is not None:
            return False
        n = len(self.seats.players)
        points = tuple(map(int, m[1].split()))
        totals = None if m[2] is None else tuple(map(int, m[2].split()))
        if len(points) != n or (totals is not None and len(totals) != n):
            return False
        self.score = HandScore(points, totals, Pos(number, 1))
        return True

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


def _cards(token: Token, text: str) -> tuple[int, Declarations]:
    try:
        return parse_cards_word(text)
    except WordFail as fail:
        raise SyntaxFail(fail.message, token.line, token.col + fail.offset) from None


# ---------------------------------------------------------------------------------------------
# Fast paths.
#
# Nearly every line of a record is spelled as the writer spells it: `hand 3 shuffler 1`,
# `deal 2: 3s 4h ...`, `1: 3s 3h  2: -  3: 5s 5c` and `score 20 0 80 total 40 0 95`. The general
# path lexes such a line into a Token per word and per colon, then walks the tokens. The fast
# paths (fast_line and the fast_* methods) instead check that the line is spelled exactly like
# that and build the records directly, several times faster. They take only lines that are
# certainly valid and unambiguous: the writer's spacing, seats as plain numbers, and words of
# ASCII card characters only, so no comments, quotes, names, annotations or full-width colons.
# For anything else, including every line that would be an error, they return False having
# changed nothing, and the general path reads the line (and raises its usual error).
# tests/test_zfn_fast.py checks that both paths read the same records, positions included.
#
# On such a line the lexer's words are exactly the space-separated parts, so the fast paths see
# the same words at the same columns. The patterns spell out ASCII classes ([0-9], not \d,
# which also matches the digits of other scripts).

_CARD_WORD = r"[-=,0-9A-Za-z]+"  # a glued group of cards (`7h`, `7h7s`, `BJ=8h`), or a pass `-`
_PLAY_RE = re.compile(rf"{_CARD_WORD}(?: {_CARD_WORD})*")  # the words of one move
_DEAL_WORD = r"[-=,?0-9A-Za-z]+"  # cards, or `?`/`?N` for unknown cards
_DEAL_RE = re.compile(rf"{_DEAL_WORD}(?: {_DEAL_WORD})*")
_FAST_HAND_RE = re.compile(r"hand ([0-9]+)(?: shuffler ([0-9]+))?")
_FAST_SCORE_RE = re.compile(r"score((?: [0-9]+)+)(?: total((?: [0-9]+)+))?")

# Each card as the writer spells it (`3s`, `Th`, `SJ`), for deal lines.
_CARD_BITS = {card_str(card): 1 << card for card in range(DECK_SIZE)}


def _plain_deal(text: str) -> tuple[int, int] | None:
    """(cards, 0) if `text` is single cards spelled as the writer does, all different; else None.

    The common deal line, read faster than word by word: distinct cards are distinct bits, so
    their sum is the set.
    """
    words = text.split(" ")
    try:
        bits = set(map(_CARD_BITS.__getitem__, words))
    except KeyError:
        return None
    return (sum(bits), 0) if len(bits) == len(words) else None


def _read_simple_deal(text: str) -> tuple[int, int] | None:
    """(cards, unknown count) as deal_line() reads `text`; None if a word is neither cards nor
    `?`/`?N`, or if deal_line() would raise."""
    if _DEAL_RE.fullmatch(text) is None:
        return None
    known = unknown = 0
    for word in text.split(" "):
        if word[0] == "?":
            count = word[1:]
            if count and not count.isdecimal():
                return None
            unknown += int(count) if count else 1
            continue
        try:
            mask, decls = parse_cards_word(word)
        except WordFail:
            return None
        if decls or known & mask:
            return None
        known |= mask
    return known, unknown


# A move's words read by _read_simple_play: (is_pass, cards, declarations sorted by joker).
_Play = tuple[bool, int, Declarations]
_PLAYS: dict[str, _Play] = {}  # play text -> its reading; cleared when it grows past the limit
_PLAYS_LIMIT = 20_000  # a few thousand different plays fill a large corpus


def _read_simple_play(text: str) -> _Play | None:
    """What _HandBuilder._move makes of the words of one move (cards, or a pass), and cache it.

    None if `text` is not words of card characters (so no annotation, comment or quoted note),
    if a word is neither cards nor a pass (`disputed`), or if _move would raise: the line then
    takes the general path.
    """
    if _PLAY_RE.fullmatch(text) is None:
        return None
    cards = 0
    decls: list[tuple[int, Stand]] = []
    is_pass = False
    for word in text.split(" "):
        if word.casefold() in PASS_WORDS:
            if is_pass or cards:  # "a pass has no cards"
                return None
            is_pass = True
            continue
        if is_pass:
            return None
        try:
            mask, found = parse_cards_word(word)
        except WordFail:
            return None
        if cards & mask:
            return None
        cards |= mask
        decls.extend(found)
    if len(_PLAYS) >= _PLAYS_LIMIT:
        _PLAYS.clear()
    # Sorted as Move.plays sorts them.
    play = _PLAYS[text] = (is_pass, cards, tuple(sorted(decls, key=lambda d: d[0])))
    return play


# Building each Move and its Pos is the largest cost of the fast trick path, and most of that is
# the generated __init__ of these frozen dataclasses: it sets each field through a call of
# object.__setattr__. fast_trick instead fills a draft, an instance of a plain class with the very
# same slots, by ordinary (fast) attribute assignment, then turns it into the real class by
# assigning __class__, which Python allows between classes of identical layout (and refuses with a
# TypeError otherwise). The result is exactly what Move(...) makes, at twice the speed; the tests
# compare the two. If Move or Pos gain or lose a field, the check below stops the import, so that
# fast_trick cannot leave a slot unset: update the drafts and fast_trick together.


class _PosDraft:
    __slots__ = ("col", "line")


class _MoveDraft:
    __slots__ = (
        "annotation",
        "cards",
        "comments",
        "declarations",
        "dispute_note",
        "disputed",
        "is_pass",
        "pos",
        "seat",
    )


def _check_draft(draft: Any, model: Any) -> None:
    """Stop if `draft` does not have exactly the fields of dataclass `model` as its slots."""
    if sorted(f.name for f in fields(model)) != sorted(draft.__slots__) or hasattr(
        model, "__post_init__"
    ):
        raise RuntimeError(f"the fields of {model.__name__} changed: update fast_trick in zfn.py")


_check_draft(_PosDraft, Pos)
_check_draft(_MoveDraft, Move)


# ---------------------------------------------------------------------------------------------
# Writer


def dumps_zfn(games: Game | Iterable[Game]) -> str:
    """Canonical .zfn text of one game or several, separated by blank lines."""
    return "".join(iter_zfn(games))


class Writer(Protocol):
    def write(self, text: str, /) -> object: ...


def write_zfn(games: Game | Iterable[Game], out: Writer) -> None:
    """Stream canonical .zfn text to `out`, one game at a time."""
    for chunk in iter_zfn(games):
        out.write(chunk)


def iter_zfn(games: Game | Iterable[Game]) -> Iterator[str]:
    """Canonical text, one chunk per game."""
    for i, game in enumerate([games] if isinstance(games, Game) else games):
        yield ("\n" if i else "") + "\n".join(_game_lines(game)) + "\n"


def _comment(text: str) -> str:
    return "{" + escape_comment(text) + "}"


def _game_lines(game: Game) -> Iterator[str]:
    yield from format_header(game)
    for text in game.comments:
        yield _comment(text)
    for hand in game.hands:
        yield ""
        yield from _hand_lines(hand)


def _hand_lines(hand: Hand) -> Iterator[str]:
    head = f"hand {hand.number}"
    if hand.shuffler is not None:
        head += f" shuffler {hand.shuffler + 1}"
    yield head
    for text in hand.comments:
        yield _comment(text)
    for seat, dealt in enumerate(hand.deal or ()):
        yield _deal_line(seat, dealt)
    for trick in hand.tricks:
        moves = "  ".join(_move_text(m) for m in trick.moves)
        yield "".join(_comment(c) + " " for c in trick.comments) + moves
    if hand.score is not None:
        line = "score " + " ".join(map(str, hand.score.points))
        if hand.score.totals is not None:
            line += " total " + " ".join(map(str, hand.score.totals))
        yield line


def _deal_line(seat: int, dealt: SeatDeal) -> str:
    items = [format_cards(dealt.known)] if dealt.known else []
    if dealt.unknown:
        items.append("?" if dealt.unknown == 1 else f"?{dealt.unknown}")
    return f"deal {seat + 1}:" + "".join(" " + item for item in items)


def _move_text(move: Move) -> str:
    play = "-" if move.is_pass else move.play_text()
    text = f"{move.seat + 1}: {play}{move.annotation or ''}"
    if move.disputed:
        text += " disputed"
        if move.dispute_note is not None:
            text += f' "{escape_string(move.dispute_note)}"'
    for comment in move.comments:
        text += " " + _comment(comment)
    return text
