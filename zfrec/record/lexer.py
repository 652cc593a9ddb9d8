"""Tokens of the .zfn notation, card words, and caret excerpts for error messages.

Nothing here knows about games, hands or tricks; zfn.py gives the tokens their meaning. The lexer
is fed one physical line at a time and hands back a *logical* line: usually the same line, but a
`{...}` comment may run over several lines, and the logical line then ends after it closes.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from zfrec.engine.cards import SJ, Stand, card_str
from zfrec.errors import CardError

WORD, STRING, COLON, COMMENT = "word", "string", "colon", "comment"
QUOTES = '"“”'  # phones turn " into curly quotes; accept all three
COLONS = ":："  # full-width colon from Chinese keyboards


class SyntaxFail(Exception):
    """A syntax problem at a 1-based line and column; the reader turns it into NotationError."""

    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


@dataclass(slots=True)
class Token:
    kind: str
    text: str
    line: int
    col: int  # 1-based, in characters


_WORD_RE = re.compile(r"[^\s{};:：\"“”}]+")
_SPACE_RE = re.compile(r"\s*")
_SPECIAL_RE = re.compile(r"[{};\"“”}]")
_PLAIN_TOKEN_RE = re.compile(r"[^\s{};:：\"“”}]+|[:：]")
_STRING_RE = re.compile(r"(?:[^\"“”\\]|\\.)*[\"“”]")
_COMMENT_BODY_RE = re.compile(r"(?:[^}\\]|\\.)*", re.DOTALL)
_UNESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)


def unescape(text: str) -> str:
    return _UNESCAPE_RE.sub(r"\1", text) if "\\" in text else text


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
        self._comment: list[str] | None = None  # raw pieces of an open brace comment
        self._comment_at = (0, 0)

    @property
    def in_comment(self) -> bool:
        return self._comment is not None

    def unterminated(self) -> SyntaxFail:
        line, col = self._comment_at
        return SyntaxFail("comment is never closed: '{' needs a matching '}'", line, col)

    def reset(self) -> None:
        self.tokens = []
        self._comment = None

    def feed(self, text: str, line: int, start: int = 0) -> list[Token] | None:
        """Tokens of the logical line that `text` completes, or None while a comment is open."""
        plain = not start and self._comment is None and not self.tokens
        if plain and _SPECIAL_RE.search(text) is None:
            # The common line (a trick, a deal) has only words and colons: one regex pass.
            return [
                Token(COLON if m.group() in COLONS else WORD, m.group(), line, m.start() + 1)
                for m in _PLAIN_TOKEN_RE.finditer(text)
            ]
        pos = 0
        if self._comment is not None:
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
                m = _STRING_RE.match(text, pos + 1)
                if m is None:
                    raise SyntaxFail('quoted text is never closed: add the closing "', line, col)
                tokens.append(Token(STRING, unescape(m.group()[:-1]), line, col))
                pos = m.end()
            elif ch == "{":
                self._comment = []
                self._comment_at = (line, col)
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
        assert self._comment is not None
        m = _COMMENT_BODY_RE.match(text, pos)
        assert m is not None
        end = m.end()
        if end < len(text) and text[end] == "}":
            self._comment.append(m.group())
            body = "".join(self._comment)
            self._comment = None
            self._add_comment(unescape(body), *self._comment_at)
            return end + 1
        # Open to the next line. A lone backslash at the very end is taken literally.
        self._comment.append(text[pos:] + "\n")
        return -1

    def _add_comment(self, text: str, line: int, col: int) -> None:
        text = text.strip()
        if text:
            self.tokens.append(Token(COMMENT, text, line, col))


def display_width(text: str) -> int:
    """Terminal columns taken by `text`: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def excerpt(source: str, line: int, col: int) -> str:
    """The source line with a caret under column `col`, for error messages."""
    shown = source.replace("\t", " ")
    number = str(line)
    pad = " " * display_width(shown[: max(col - 1, 0)])
    return f" {number} | {shown}\n {' ' * len(number)} | {pad}^"


# ---------------------------------------------------------------------------------------------
# Card words. Cards may be glued (`7h7s`, `BJ=8h8s`) or comma-separated (`7h,7s`), so a word is
# read card by card. A declaration's suit is optional, so `BJ=8SJ` reads as BJ=8s then `J`:
# separate such cards with a space or a comma.

_RANK = r"10|[2-9tjqka]"
_SUIT = r"[shdc♠♥♦♣♤♡♢♧]"
_CARD_RE = re.compile(rf"({_RANK})({_SUIT})|([sb]j)(?:=({_RANK})({_SUIT})?)?", re.IGNORECASE)
_RANK_RE = re.compile(_RANK, re.IGNORECASE)
_ANNOTATION_RE = re.compile(r"[!?]+$")
CARD_HELP = (
    "a card is a rank (3-9, 10 or T, J, Q, K, A, 2) and a suit (s h d c or ♠ ♥ ♦ ♣), or SJ/BJ"
)

Declarations = tuple[tuple[int, Stand], ...]


class WordFail(Exception):
    """A problem at character `offset` of a card word."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def split_annotation(word: str) -> tuple[str, str | None]:
    """`7h7s!?` -> (`7h7s`, `!?`); the annotation is glued to the end of a play."""
    m = _ANNOTATION_RE.search(word)
    if m is None:
        return word, None
    return word[: m.start()], m.group()


@lru_cache(maxsize=8192)
def parse_cards_word(word: str) -> tuple[int, Declarations]:
    """One word of cards to (mask, declarations). Raises WordFail with the offending offset."""
    # Phones put an emoji variation selector after suit symbols (♥️); it means nothing here.
    text = word.replace("\ufe0f", "")
    mask = 0
    decls: list[tuple[int, Stand]] = []
    pos = 0
    n = len(text)
    while pos < n:
        if text[pos] == ",":
            pos += 1
            continue
        m = _CARD_RE.match(text, pos)
        if m is None:
            raise _unreadable(text, pos)
        if m.group(1):
            rank = "T" if m.group(1) == "10" else m.group(1).upper()
            cid = "3456789TJQKA2".index(rank) * 4 + "shdc♠♥♦♣♤♡♢♧".index(m.group(2).lower()) % 4
            if m.end() < n and text[m.end()] == "=":
                raise WordFail(f"only jokers take a declaration, not {card_str(cid)}", m.end())
        else:
            cid = SJ if m.group(3).upper() == "SJ" else SJ + 1
            if m.group(4):
                decls.append((cid, _stand(m.group(4), m.group(5))))
            elif m.end() < n and text[m.end()] == "=":
                raise WordFail(
                    "a joker declaration names a real rank, 3 through 2 (RULES.md R15)", m.end()
                )
        if mask >> cid & 1:
            raise WordFail(f"card {card_str(cid)} is given twice", pos)
        mask |= 1 << cid
        pos = m.end()
    if not mask:
        raise WordFail(f"no cards here: {CARD_HELP}", 0)
    return mask, tuple(decls)


def _unreadable(text: str, pos: int) -> WordFail:
    """Say precisely what is wrong with the card that starts at `pos`."""
    rank = _RANK_RE.match(text, pos)
    if rank is None:
        return WordFail(f"cannot read a card at {text[pos:]!r}: {CARD_HELP}", pos)
    end = rank.end()
    if end >= len(text) or text[end] in ",=":
        return WordFail(f"card {text[pos:end]!r} has no suit: add s, h, d or c", end)
    card = text[pos : end + 1]
    return WordFail(f"unknown suit {text[end]!r} in {card!r}: suits are s h d c (or ♠ ♥ ♦ ♣)", end)


def _stand(rank: str, suit: str | None) -> Stand:
    try:
        return Stand.parse(rank + (suit or ""))
    except CardError as exc:  # pragma: no cover - the regex only lets valid stands through
        raise WordFail(exc.message, 0) from None
