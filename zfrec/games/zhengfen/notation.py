"""Zheng Fen's body in .zfn: the statements after the tags (`hand`, `deal`, tricks, `score`),
read into `Game.hands`. The generic reader (zfrec.record.zfn) hands each statement here through
the kind's hooks (zfrec.games.BodyReader); one line of a hand is read by its HandBuilder
(zfrec.games.zhengfen.zfn_hand).
"""

from __future__ import annotations

from zfrec.games import statement_place
from zfrec.games.zhengfen.zfn_hand import HandBuilder, bounded
from zfrec.record.lexer import (
    COLON,
    COMMENT,
    STRING,
    WORD,
    SyntaxFail,
    Token,
    fail_at,
    plain_word,
)
from zfrec.record.model import MAX_HAND_NUMBER, Game, Hand, Pos
from zfrec.record.problems import ReadProblem, misspelt, not_read_as
from zfrec.record.seatrefs import Seats

STATEMENTS = ("hand", "deal", "score")  # the keywords that start a line (FORMAT.md)


class ZhengFenBody:
    """Collects the hands of one game, statement by statement."""

    def __init__(self, seats: Seats, problems: list[ReadProblem] | None) -> None:
        self.seats = seats
        # What could not be read and was skipped (recovering readers only; else errors raise).
        self.problems = problems
        self.hands: list[Hand] = []
        self.hand: HandBuilder | None = None

    def statement(self, tokens: list[Token]) -> None:
        index, first = next((i, t) for i, t in enumerate(tokens) if t.kind != COMMENT)
        keyword = plain_word(first.text) if first.kind == WORD else ""
        followed_by_colon = index + 1 < len(tokens) and tokens[index + 1].kind == COLON
        if keyword and keyword not in STATEMENTS and not followed_by_colon:
            meant = self._misspelt(tokens, index)
            if meant not in (None, "hand") and self.problems is not None and self.hand is not None:
                # read as meant; a line that cannot be is skipped, as it was misspelt
                problems, at = self.problems, len(self.problems) - 1
                hand, unread = self.hand, len(self.hand.unread)
                try:
                    if meant == "deal":
                        hand.deal_line(tokens, index)
                    else:
                        hand.score_line(tokens, index)
                except SyntaxFail:
                    problems[at:] = [not_read_as(problems[at], tokens)]
                    del hand.unread[unread:]  # (the cards of the line read so far)
                return
            if meant == "hand" and self.problems is not None and not _hand_like(tokens, index):
                # `Han 7h` (a name no player has, its colon left out) is no hand line
                self.problems[-1] = not_read_as(self.problems[-1], tokens)
                return
            keyword = meant or keyword
        if keyword == "hand" and not followed_by_colon:
            self._close_hand()
            self._hand_line(tokens, index)
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

    def _misspelt(self, tokens: list[Token], index: int) -> str | None:
        """The keyword a line's first word misspells (`hnad 2`: hand), read as it
        (`Seats.misspelt_line`)."""
        return self.seats.misspelt_line(
            tokens, index, STATEMENTS, ("hand", _hand_like), self.problems
        )

    def start_hand(self, number: int, shuffler: int | None, pos: Pos) -> HandBuilder:
        """Begin hand `number` at `pos`, closing the one before."""
        self._close_hand()
        self.hand = HandBuilder(self.seats, number, shuffler, pos, self.problems)
        return self.hand

    def _hand_line(self, tokens: list[Token], index: int) -> None:
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
        if rest and rest[0].kind == WORD and not plain_word(rest[0].text).startswith("shuffler"):
            self._misspelt_shuffler(rest)
        if rest and rest[0].kind == WORD and plain_word(rest[0].text).startswith("shuffler"):
            word = rest.pop(0)
            _, eq, value = word.text.replace("＝", "=").partition("=")
            if eq and value:  # shuffler=4
                rest.insert(0, Token(WORD, value, word.line, word.col + len("shuffler=")))
            elif rest and rest[0].kind == COLON:
                rest.pop(0)
            if not rest:
                raise fail_at(word, "shuffler needs a seat: a number or a player name")
            if len(rest) > 1 and all(t.kind == WORD for t in rest):  # a name with spaces
                rest = [Token(STRING, " ".join(t.text for t in rest), rest[0].line, rest[0].col)]
            shuffler = self._line_seat(rest.pop(0))
        if rest:
            raise fail_at(rest[0], "a hand line is 'hand N' with an optional 'shuffler SEAT'")
        self.start_hand(number, shuffler, pos).comments.extend(comments)

    def _misspelt_shuffler(self, rest: list[Token]) -> None:
        """`shufler 3`, `shuffer=3`: a misspelt `shuffler` (read as it, the problem noted; a
        strict reader raises it), put in `rest` as the word it means."""
        word = rest[0]
        name, eq, value = word.text.replace("＝", "=").partition("=")
        if not name:
            return
        found = misspelt(name, word.line, word.col, ("shuffler",), "word", cutoff=0.75)
        if found is None:
            return
        if self.problems is None:
            raise fail_at(word, found[1].message.rpartition(" (read as ")[0])
        self.problems.append(found[1])
        rest[0] = Token(WORD, "shuffler" + eq + value, word.line, word.col + len(name) - 8)

    def _line_seat(self, token: Token) -> int | None:
        """The shuffler; a recovering reader notes a name that names no seat, and reads it as
        the one player it is close to, else goes on without a shuffler (not checked)."""
        if self.problems is None:
            return self.seats.resolve(token)
        seat, problem = self.seats.leniently(token, "shuffler")
        if problem is not None:
            self.problems.append(problem)
        return seat

    def comments(self, texts: list[str]) -> bool:
        if self.hand is None:
            return False
        if self.hand.tricks and self.hand.score is None:
            # A comment after a trick belongs to the move it follows, as in PGN.
            self.hand.tricks[-1].moves[-1].comments.extend(texts)
        else:
            self.hand.comments.extend(texts)
        return True

    def place(self, tokens: list[Token]) -> dict[str, int | str]:
        """BodyReader.place: the hand of a statement (a `hand N` line's N), and a trick line's
        number in it (the tricks read before it, and one; none after the score line)."""
        hand = self.hand
        return statement_place(
            tokens,
            opener="hand",
            number=_hand_number,
            current=None if hand is None else hand.number,
            next_number=self.hands[-1].number + 1 if self.hands else 1,
            tricks=None if hand is None or hand.score is not None else len(hand.tricks),
            statements=("deal", "score"),
        )

    def _close_hand(self) -> None:
        if self.hand is not None:
            self.hands.append(self.hand.finish())
            self.hand = None

    def finish(self, game: Game) -> None:
        self._close_hand()
        game.hands = self.hands


def _hand_like(tokens: list[Token], index: int) -> bool:
    """The words after a misspelt `hand` (`hnad 2 shuffler 3`) start as a hand line's do: a
    number, or `shuffler` (also misspelt); `Han 7h` does not, and is skipped, not read as one."""
    rest = [t for t in tokens[index + 1 :] if t.kind != COMMENT]
    if not rest or rest[0].kind != WORD:
        return False
    if any(t.kind == COLON and k < 2 for k, t in enumerate(rest)):  # `Han 2: 9h`: a move
        return False
    word = plain_word(rest[0].text).partition("=")[0]  # (`shuffler=3`; NFKC reads `＝` as `=`)
    if word.isdecimal() or word.startswith("shuffler"):
        return True
    return misspelt(word, 1, 1, ("shuffler",), "word", cutoff=0.75) is not None


def _hand_number(text: str) -> int | None:
    """A hand number as written (digits), None where no hand can have it."""
    written = bounded(text, MAX_HAND_NUMBER)
    return None if written is None or written < 1 else written
