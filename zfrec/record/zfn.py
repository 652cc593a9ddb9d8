"""The .zfn text notation: a streaming reader and a canonical writer. FORMAT.md is the spec.

The reader takes lines one at a time and yields each game as soon as the next one begins, so a
file of any size is read in constant memory. A syntax error costs only its own game: the reader
reports it and resumes at the next game's tags (the first tag line after a non-tag line).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from zfrec.cards import Stand, format_cards
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


def iter_games(lines: Iterable[str], filename: str | None = None) -> Iterator[Game | NotationError]:
    """Each game of a .zfn stream, or the NotationError that spoiled it; never raises on syntax.

    `lines` is any iterable of text lines (an open file, `io.StringIO`, a generator). Nothing is
    read beyond the first line of the next game before a game is yielded.
    """
    yield from _Reader(filename).run(lines)


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
    def __init__(self, filename: str | None) -> None:
        self.filename = filename
        self.lexer = Lexer()
        self.lines: dict[int, str] = {}  # source lines of the current game, for excerpts
        self.game: _GameBuilder | None = None
        self.count = 0  # games started, for Location.game
        self.pending: list[str] = []  # comments seen before the first game's tags

    def run(self, lines: Iterable[str]) -> Iterator[Game | NotationError]:
        skipping = False
        prev_tag = False
        for number, raw in enumerate(lines, 1):
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
                else:
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
            self.hand = _HandBuilder(tokens, index, number, seats)
        elif self.hand is None:
            raise _fail(first, "a hand starts with a line 'hand N' before its deal and tricks")
        elif keyword == "deal" and not followed_by_colon:
            self.hand.deal_line(tokens, index)
        elif keyword == "score" and not followed_by_colon:
            self.hand.score_line(tokens, index)
        else:
            self.hand.trick_line(tokens, index)

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
    def __init__(self, tokens: list[Token], index: int, number: int, seats: _SeatNames) -> None:
        self.seats = seats
        self.pos = Pos(tokens[index].line, tokens[index].col)
        self.number = number
        self.shuffler: int | None = None
        self.deal: dict[int, SeatDeal] = {}
        self.tricks: list[Trick] = []
        self.score: HandScore | None = None
        self.comments: list[str] = []
        rest = self._take_comments(tokens[index + 1 :])
        if rest and rest[0].kind == WORD and rest[0].text.isdecimal():
            self.number = int(rest.pop(0).text)
            if self.number < 1:
                raise SyntaxFail("hands are numbered from 1", self.pos.line, self.pos.col)
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
            self.shuffler = seats.resolve(rest.pop(0))
        if rest:
            raise _fail(rest[0], "a hand line is 'hand N' with an optional 'shuffler SEAT'")

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
