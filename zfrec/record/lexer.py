"""Tokens of the .zfn notation, and caret excerpts for error messages.

Nothing here knows about games, hands or tricks; zfn.py gives the tokens their meaning, and
zfrec.games.zhengfen.engine.cards reads card words. The lexer is fed one physical line at a time and
hands back a *logical* line: usually the same line, but a `{...}` comment may run over several
lines, and the logical line then ends after it closes.

Quoted text and comments are scanned with `str.find`-style searches, never with a regex that
repeats an alternation: such a regex backtracks and needs memory in proportion to the text, which
a long one-line comment turned into hundreds of megabytes.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

WORD, STRING, COLON, COMMENT = "word", "string", "colon", "comment"
QUOTES = '"“”'  # phones turn " into curly quotes; accept all three
COLONS = ":："  # full-width colon from Chinese keyboards
TAG_OPENERS = ("[", "［")  # a tag line's first character; also as Chinese keyboards type it
MAX_COMMENT = 1_000_000  # characters in one comment, over all its lines (FORMAT.md, Limits)


class SyntaxFail(Exception):
    """A syntax problem at a 1-based line and column; the reader turns it into NotationError."""

    # What the recovering reader had read past before this problem cost its game (the
    # header's misspelt game or preset, read as meant): still said (NotationError.kept).
    kept: tuple[Any, ...] = ()

    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


@dataclass(slots=True)
class Token:
    """One token of a .zfn line: its kind, its text and where it starts."""

    kind: str
    text: str
    line: int
    col: int  # 1-based, in characters


def plain_word(text: str) -> str:
    """A keyword as the reader compares it: in any case, and with the full-width letters and
    digits Chinese input methods type read as the plain ones (NFKC, as cards are read):
    `ｓｃｏｒｅ` is `score`. Messages quote the word as written, not this."""
    return (text if text.isascii() else unicodedata.normalize("NFKC", text)).casefold()


def fail_at(token: Token, message: str) -> SyntaxFail:
    """A syntax error at `token`, for the reader to raise."""
    return SyntaxFail(message, token.line, token.col)


_WORD_RE = re.compile(r"[^\s{};:：\"“”}]+")
_SPACE_RE = re.compile(r"\s*")
_SPECIAL_RE = re.compile(r"[{};\"“”}]")
_PLAIN_TOKEN_RE = re.compile(r"[^\s{};:：\"“”}]+|[:：]")
_STRING_STOP_RE = re.compile(r"[\"“”\\]")  # what ends or escapes inside quoted text
_COMMENT_STOP_RE = re.compile(r"[}\\]")  # what ends or escapes inside a comment
_UNESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)


def unescape(text: str) -> str:
    """Quoted text or a comment with its backslash escapes undone (`\\"` is `"`)."""
    return _UNESCAPE_RE.sub(r"\1", text) if "\\" in text else text


def _unescaped(stops: re.Pattern[str], text: str, pos: int) -> int:
    """Index of the first character from `pos` that `stops` matches and no backslash escapes,
    or -1. One search per escape, so the cost is linear and the memory constant."""
    while True:
        m = stops.search(text, pos)
        if m is None:
            return -1
        if m.group() != "\\":
            return m.start()
        pos = m.start() + 2


def closing_quote(text: str, pos: int) -> int:
    """Index of the quote that closes quoted text starting at `pos` (after the opening quote),
    or -1 if the line ends first. A backslash escapes the character after it."""
    return _unescaped(_STRING_STOP_RE, text, pos)


def escape_string(text: str) -> str:
    """Text for inside a quoted string: backslash-escape backslashes and every kind of quote."""
    return re.sub(r"([\\\"“”])", r"\\\1", text)


def escape_comment(text: str) -> str:
    """Text for inside `{...}`: escape `\\` and `}`, and a `[` that would begin a line.

    A line starting with `[` is read as the next game's tag, even inside an open comment (so an
    unclosed brace cannot swallow the rest of a file); escaping keeps such comment lines inside.
    """
    out = text.replace("\\", "\\\\").replace("}", "\\}")
    return re.sub(r"(\n\s*)\[", r"\1\\[", out)


class Lexer:
    """Splits lines into tokens, carrying an open `{` comment over line ends."""

    def __init__(self) -> None:
        self.tokens: list[Token] = []
        # The raw pieces of a brace comment still open at the end of the last line, else None.
        self.comment: list[str] | None = None
        self._comment_at = (0, 0)
        self._comment_size = 0

    @property
    def in_comment(self) -> bool:
        """A `{` comment is open across lines."""
        return self.comment is not None

    def unterminated(self) -> SyntaxFail:
        """The error for a comment still open at the end of the game."""
        line, col = self._comment_at
        return SyntaxFail("comment is never closed: '{' needs a matching '}'", line, col)

    def reset(self) -> None:
        """Forget the line in progress and any open comment (a new game starts)."""
        self.tokens = []
        self.comment = None

    def feed(self, text: str, line: int, start: int = 0) -> list[Token] | None:
        """Tokens of the logical line that `text` completes, or None while a comment is open."""
        plain = not start and self.comment is None and not self.tokens
        if plain and _SPECIAL_RE.search(text) is None:
            # The common line (a trick, a deal) has only words and colons: one regex pass.
            return [
                Token(COLON if m.group() in COLONS else WORD, m.group(), line, m.start() + 1)
                for m in _PLAIN_TOKEN_RE.finditer(text)
            ]
        pos = 0
        if self.comment is not None:
            pos = self._continue_comment(text, 0)
            if pos < 0:
                return None
        else:
            pos = start
        n = len(text)
        tokens = self.tokens
        while True:
            pos = _SPACE_RE.match(text, pos).end()  # type: ignore[union-attr]
            if pos >= n:
                break
            ch = text[pos]
            col = pos + 1
            if ch in COLONS:
                tokens.append(Token(COLON, ch, line, col))
                pos += 1
            elif ch in QUOTES:
                end = closing_quote(text, pos + 1)
                if end < 0:
                    raise SyntaxFail('quoted text is never closed: add the closing "', line, col)
                tokens.append(Token(STRING, unescape(text[pos + 1 : end]), line, col))
                pos = end + 1
            elif ch == "{":
                self.comment = []
                self._comment_at = (line, col)
                self._comment_size = 0
                pos = self._continue_comment(text, pos + 1)
                if pos < 0:
                    return None
            elif ch == ";":
                self._add_comment(text[pos + 1 :], line, col)
                break
            elif ch == "}":
                raise SyntaxFail("'}' without an opening '{'", line, col)
            else:
                m = _WORD_RE.match(text, pos)
                assert m is not None  # every other character starts a word
                tokens.append(Token(WORD, m.group(), line, col))
                pos = m.end()
        self.tokens = []
        return tokens

    def _continue_comment(self, text: str, pos: int) -> int:
        """Read comment text from `pos`; the position after `}`, or -1 if it stays open."""
        assert self.comment is not None
        end = _unescaped(_COMMENT_STOP_RE, text, pos)
        if end >= 0:
            self.comment.append(text[pos:end])
            body = "".join(self.comment)
            self.comment = None
            self._add_comment(unescape(body), *self._comment_at)
            return end + 1
        # Open to the next line. A lone backslash at the very end is taken literally.
        self.comment.append(text[pos:] + "\n")
        self._comment_size += len(text) - pos + 1
        if self._comment_size > MAX_COMMENT:
            raise SyntaxFail(
                f"a comment may hold at most {MAX_COMMENT:,} characters: is a '}}' missing?",
                *self._comment_at,
            )
        return -1

    def _add_comment(self, text: str, line: int, col: int) -> None:
        text = text.strip()
        if text:
            self.tokens.append(Token(COMMENT, text, line, col))


def display_width(text: str) -> int:
    """Terminal columns taken by `text`: wide (CJK) characters take two, combining marks and
    zero-width characters none (a name typed as e + U+0301 shows as one é). Measured as rich
    measures what it prints (`rich.cells.cell_len`, as `zfrec analyze` and `solve` pad names),
    so every column the command line lines up agrees."""
    from rich.cells import cell_len  # (imported when asked: the lexer runs without a terminal)

    return cell_len(text)


EXCERPT_SIDE = 60  # characters of context shown each side of the caret
# Tabs show as spaces, other control characters as their Control Pictures (U+2400...), so an
# excerpt never moves the terminal's cursor and the caret stays under its character.
_VISIBLE = {**{c: 0x2400 + c for c in range(32)}, 9: ord(" "), 127: 0x2421}


def clip_around(source: str, col: int, side: int = EXCERPT_SIDE) -> tuple[str, int]:
    """The part of a source line shown in an excerpt, and the caret's 0-based index in it.

    A long line is cut to `side` characters each side of column `col`, with `…` where it was
    cut, so a message about a very long line stays short.

    >>> clip_around("x" * 200, 100, 10)
    ('…xxxxxxxxxxxxxxxxxxxxx…', 11)
    """
    index = max(col - 1, 0)
    start = max(index - side, 0)
    end = index + side + 1
    shown = source[start:end].translate(_VISIBLE)
    caret = index - start
    if start > 0:
        shown, caret = "…" + shown, caret + 1
    if end < len(source):
        shown += "…"
    return shown, caret


def excerpt(source: str, line: int, col: int) -> str:
    """The source line with a caret under column `col`, for error messages; long lines are
    clipped around the caret (clip_around)."""
    shown, caret = clip_around(source, col)
    number = str(line)
    pad = " " * display_width(shown[:caret])
    return f" {number} | {shown}\n {' ' * len(number)} | {pad}^"


_ANNOTATION_RE = re.compile(r"[!?]+$")


def split_annotation(word: str) -> tuple[str, str | None]:
    """`7h7s!?` -> (`7h7s`, `!?`); the annotation is glued to the end of a play."""
    m = _ANNOTATION_RE.search(word)
    if m is None:
        return word, None
    return word[: m.start()], m.group()
