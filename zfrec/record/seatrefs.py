"""Seat references of the .zfn reader: numbers, names, names of several words, and names close
to a player's (FORMAT.md, Seat references).

    >>> seats = Seats(["Tomás", "Zhou Wei", "Hao"])
    >>> seats.unknown("zhou wie", "no player is called 'zhou wie'")
    ("no player is called 'zhou wie'; did you mean Zhou Wei?", [1])
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from zfrec.errors import SeatError
from zfrec.record.lexer import COLON, STRING, WORD, SyntaxFail, Token, fail_at, split_annotation
from zfrec.record.model import NameMark, Pos, name_key, plain_name, seat_of, unseen_message
from zfrec.record.problems import Fix, ReadProblem, cardish, did_you_mean, misspelt, name_matches

PASS_WORDS = frozenset({"pass", "-", "–", "—", "－", "过"})  # dashes phones substitute; 过 = pass


def seat_named(players: list[str], ref: str) -> int:
    """`seat_of` for a seat given on the command line (`--seat`): SeatError naming the seats and,
    for a name close to some player's, the players it may mean (as the reader's `Seats.unknown`).

    >>> try:
    ...     seat_named(["Ann", "王芳"], "王方")
    ... except SeatError as exc:
    ...     print(exc.message)
    no player is called '王方': the seats are 1 Ann, 2 王芳; did you mean 王芳?
    """
    try:
        return seat_of(players, ref)
    except SeatError as exc:
        message, _ = Seats(players).unknown(ref, exc.message)
        raise SeatError(message) from None


class Seats:
    """Seat references of one game: the model's resolver, with the exact spellings cached."""

    def __init__(self, players: list[str]) -> None:
        self.players = players
        self.by_name = {name.casefold(): i for i, name in enumerate(players)}
        self.keys = {name_key(name) for name in players}
        self.all_numbers = {str(i + 1) for i in range(len(players))}
        # Where each name joined from several words ends: (line, col) -> end column.
        self.spans: dict[tuple[int, int], int] = {}
        self.max_words = max(len(name.split(" ")) for name in players)
        # Last words of names with spaces: only a colon after one of these may need merging.
        self.last_words = {n.split(" ")[-1].casefold() for n in players if " " in n}
        # Seat numbers as the writer spells them, for plain lines. A number that ends a name
        # with spaces ("Bo 2") is left out: before a colon, merge_names might join it to a name.
        self.numbers = {str(i + 1): i for i in range(len(players))}
        for word in self.last_words:
            self.numbers.pop(word, None)
        self.exact = {**{name: i for i, name in enumerate(players)}, **self.numbers}
        # seats referred to by a name copied with characters that cannot be seen (ZF008)
        self.copied: list[NameMark] = []

    def named(self, token: Token) -> int:
        """`seat_of` the token's text; a name copied with characters that cannot be seen is
        read as the player's, and noted in `copied`."""
        seat = seat_of(self.players, token.text)
        found = plain_name(token.text)[1]
        if found:
            name = self.players[seat]
            message = unseen_message(f"the name {plain_name(token.text)[0]!r}", found, name)
            end = token.col + len(token.text) + (2 if token.kind == STRING else 0)
            fix = Fix(token.line, token.col, end, name)
            self.copied.append(NameMark(seat, message, Pos(token.line, token.col), fix))
        return seat

    def resolve(self, token: Token) -> int:
        seat = self.exact.get(token.text)
        if seat is not None:
            return seat
        try:
            return self.named(token)
        except SeatError as exc:
            raise SyntaxFail(
                self.unknown(token.text, exc.message)[0], token.line, token.col
            ) from None

    def leniently(self, token: Token, kind: str) -> tuple[int | None, ReadProblem | None]:
        """The seat of a `shuffler` or `deal` line for a recovering reader: the seat it names,
        else the one player it is close to, with the problem to report (a `name` problem;
        the seat is None, and the message does not yet say what becomes of the line, when no
        one player is close)."""
        seat = self.exact.get(token.text)
        if seat is not None:
            return seat, None
        try:
            return self.named(token), None
        except SeatError as exc:
            message, matches = self.unknown(token.text, exc.message)
        # a name joined from several words (`merge_names`) has no quotes to cover
        end = self.spans.get((token.line, token.col))
        if end is None:
            end = token.col + len(token.text) + (2 if token.kind == STRING else 0)
        fix = None
        if matches:
            names = [self.players[s] for s in matches]
            fix = Fix(token.line, token.col, end, names[0], tuple(names[1:]))
        found = matches[0] if len(matches) == 1 else None
        if found is not None:
            message += f" (read as {self.players[found]})"
        elif kind == "shuffler":
            message += "; the shuffler is not checked"
        at = (token.line, token.col)
        span = (token.col, end)
        return found, ReadProblem("name", message, at, span, fix=fix, written=token.text)

    def unknown(self, text: str, message: str) -> tuple[str, list[int]]:
        """The message for a seat reference that names no seat, with the players it may mean
        (FORMAT.md, Seat references), and those seats."""
        if text.strip().isdecimal():
            return message, []
        matches = name_matches(self.players, text)
        hint = did_you_mean([self.players[s] for s in matches])
        return (f"{message}; {hint}" if hint else message), matches

    def starts_with_seat(self, tokens: list[Token], start: int) -> bool:
        """The words from `tokens[start]` begin with a seat's number or a player's name (any
        case, full-width digits too; of one word or more): a line they start is a move, even
        without its colon (`Hans 7h`, `Han Li 7h`), never a misspelt keyword (`hand`)."""
        words: list[str] = []
        for token in tokens[start : start + self.max_words]:
            if token.kind != WORD:
                break
            words.append(token.text)
            if self._is_seat_word(" ".join(words)):
                return True
        return False

    def _is_seat_word(self, text: str) -> bool:
        if not text.isascii():  # full-width digits (`２`), as cards' (zfrec.cardwords)
            text = unicodedata.normalize("NFKC", text)
        return text in self.exact or text in self.all_numbers or name_key(text) in self.keys

    def moves_after(self, tokens: list[Token], start: int) -> bool:
        """Moves (`SEAT: cards`) follow the two words from `tokens[start]`: `Han 7h  2: 9h` is
        a trick line whose first colon is left out, where `bisd 1: 2s  4: 2d 2d` (its second
        word a seat with its colon) and `hnad 2 shuffler: 3` are not."""
        if start + 2 < len(tokens) and tokens[start + 2].kind == COLON:
            return False
        return any(
            t.kind == COLON
            and tokens[k - 1].kind == WORD
            and self._is_seat_word(tokens[k - 1].text)
            for k, t in enumerate(tokens[start + 3 :], start + 3)
        )

    def misspelt_line(
        self,
        tokens: list[Token],
        start: int,
        statements: Sequence[str],
        opener: tuple[str, Callable[[list[Token], int], bool]],
        problems: list[ReadProblem] | None,
    ) -> str | None:
        """The statement a line's first word `tokens[start]` misspells (`hnad 2`: hand), which
        the line is read as, the problem noted in `problems` (a strict reader, None, raises
        it); None for a word close to none, or a line a seat or player starts (`Dean Li: 7h`,
        `Hans 7h`) or with moves after it (`Han 7h  2: 9h`): a trick line. `opener`: the
        statement that opens a hand or round, and whether the words after it start one (the
        strict reader leaves `Han 7h` to the trick reader, which says what it cannot read)."""
        merged = self.merge_names(tokens, start)
        first = tokens[start]
        a_move = start + 1 < len(merged) and merged[start + 1].kind == COLON
        if a_move or self.starts_with_seat(tokens, start) or self.moves_after(tokens, start):
            return None
        found = misspelt(first.text, first.line, first.col, statements, "line")
        if found is None:
            return None
        keyword, problem = found
        if problems is None:
            if keyword == opener[0] and not opener[1](tokens, start):
                return None
            raise fail_at(first, problem.message.rpartition(" (read as ")[0])
        problems.append(problem)
        return keyword

    def merge_names(self, tokens: list[Token], start: int) -> list[Token]:
        """Join unquoted words before a colon into one name token where they spell a name.

        This lets `Bo Li: 7h` work without quotes. The longest matching run wins. Words that
        spell no name are joined too when they are not a seat and do not look like cards
        (`zhou wie: 6h`), so that an unknown name is reported as a name, never as cards.
        """
        if all(
            t.kind != COLON
            or i <= start
            or (
                self._is_seat_word(tokens[i - 1].text)
                and tokens[i - 1].text.casefold() not in self.last_words
            )
            for i, t in enumerate(tokens)
        ):
            return tokens
        out: list[Token] = tokens[:start]
        for token in tokens[start:]:
            if token.kind == COLON:
                run = 0
                while run < self.max_words + 1 and run < len(out) - start:
                    if out[-run - 1].kind != WORD:
                        break
                    run += 1
                k = self._name_length(out[len(out) - run :])
                if k > 1:
                    words = out[-k:]
                    del out[-k:]
                    name = " ".join(t.text for t in words)
                    out.append(Token(STRING, name, words[0].line, words[0].col))
                    last = words[-1]
                    self.spans[(last.line, words[0].col)] = last.col + len(last.text)
            out.append(token)
        return out

    def _name_length(self, run: list[Token]) -> int:
        """How many of the words before a colon make its seat reference: a player's name
        (longest first), a seat, a name close to a player's, or the words that cannot be
        cards."""
        words = [t.text for t in run]
        for k in range(len(words), 1, -1):
            if " ".join(words[-k:]).casefold() in self.by_name:
                return k
        if not words or self._is_seat_word(words[-1]):
            return 1
        plain = 0  # the words at the end that cannot be cards
        while plain < len(words) and not _looks_like_cards(words[-plain - 1]):
            plain += 1
        for k in range(plain, 1, -1):
            if name_matches(self.players, " ".join(words[-k:])):
                return k
        return max(plain, 1)


def _looks_like_cards(word: str) -> bool:
    """Whether a word is, or might be meant as, cards or a pass (so not part of a name)."""
    body = split_annotation(word)[0]
    return body.casefold() in PASS_WORDS or word.casefold() == "disputed" or cardish(body)
