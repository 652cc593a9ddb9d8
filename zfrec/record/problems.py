"""What the .zfn reader could not read, kept so that the rest of a record can still be judged.

A reader asked to recover (`iter_games(..., recover=True)`) does not give up a game at an
unreadable card or an unknown seat: it keeps the move, with what could be read of it, and notes
a `ReadProblem` in `Game.problems`. The replay reports each problem where it stands in the record,
suggests the cards that fit from what the seat still holds, and goes on (DIAGNOSTICS.md, After an
error). A game with problems is for judging only: it cannot be written back, and the strict
readers (`load`, `loads`, `read_games`) never return one.

The suggestions are plain matching, no rules: names compared loosely (`loose_name`), and the
cards of a hand that fit what could be read of a card (`card_candidates`).

    >>> players = ["Tomás", "Zhou Wei", "Hao"]
    >>> name_matches(players, "tomas"), name_matches(players, "zhou wie")
    ([0], [1])
    >>> from zfrec.games.zhengfen.engine.cards import parse_cards
    >>> rank, suit = readable_parts("9j")
    >>> rank, suit, [card_str(c) for c in card_candidates(rank, suit, parse_cards("9d Kd 3c"))]
    (6, None, ['9d'])
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Literal, TypeVar

from rapidfuzz.distance import OSA

from zfrec.errors import CardError
from zfrec.games.zhengfen.engine.cards import (
    RANK_SYMBOLS,
    DeclarationTuple,
    Stand,
    card_str,
    iter_ids,
    read_word,
)
from zfrec.record.lexer import Token, plain_word

ProblemKind = Literal["card", "seat", "move", "line", "name", "dealt"]

_Read = TypeVar("_Read")  # what `read_parts` reads a part as
_RANK_RE = re.compile(r"10|[2-9tjqka]", re.IGNORECASE)
# A word that may be meant as a card: a rank and at most one more character, or a joker.
_CARDISH_RE = re.compile(r"(?:10|[2-9tjqka]).?|[sb]j\S*|[!?]*", re.IGNORECASE)
_SUITS = "shdc♠♥♦♣♤♡♢♧"
# One card of a glued word (`9h9j`): a joker with its declaration, or a rank and one character.
_PIECE_RE = re.compile(r"[sb]j(?:=(?:10|[2-9tjqka])[shdc♠♥♦♣♤♡♢♧]?)?|(?:10|[2-9tjqka])[^,]?", re.I)
_DOUBLED_J_RE = re.compile(r"[sb]jj", re.IGNORECASE)  # a joker's J typed twice: `BJJ`
_NAME_NOISE_RE = re.compile(r"[\s_.\-·]+")
MAX_SUGGESTIONS = 3  # more cards than this fit: no suggestion, they would not help
MAX_FUZZY = 80  # letters of a name compared by edit distance, at most


@dataclass(frozen=True, slots=True)
class Fix:
    """A suggested replacement of source text, for an editor to apply: write `text` in place of
    columns `col` up to (not including) `end_col` of `line` (1-based, in characters).
    `alternatives` are the other texts that would fit equally well."""

    line: int
    col: int
    end_col: int
    text: str
    alternatives: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ReadProblem:
    """Something the reader could not read, and how it went on.

    - `card`: a card of a move could not be read; the move keeps the cards it could read, and
      `rank`/`suit` say what could be read of the bad one (None: nothing).
    - `seat`: a move's seat names no seat; `seats` are the players the name may mean (the move
      was read as the first of them when there is exactly one).
    - `move`: a move could not be read at all; it is skipped.
    - `line`: a whole line could not be read; it is skipped.
    - `name`: the seat of a `hand ... shuffler` or `deal` line names no seat; the line is read
      as the one player the name is close to, or (a shuffler) without the seat.
    - `dealt`: a card of a `deal` line (Sheng ji: also `kitty`, `discard`) could not be read; it
      is read as the one card that fits (`fix`), else as one unknown card (`dealt_problem`).

    `pos` is where the problem is reported (the character that cannot be read), and `span` the
    columns of the unreadable text on that line (first, and one past the last), which a fix
    replaces; `move` is the position of the move it spoils (its seat reference), None for a
    line. `fix` is a suggestion known when reading (a name). `written` is the move it spoils
    as the record wrote it (its seat reference and words, comments left out), or the name or
    card of a `name` or `dealt` problem, for an audit to say what it replaced. `trick` is the
    number of the trick whose line is skipped, where the reader numbers it (Sheng ji's: the
    tricks read before it in its round, and one); `turn`, of a Sheng ji play's problem, which
    play of its line (1-based) it spoils, and `seats` that play's seat. `path`: a JSON record's
    problem, the JSON path (inside its game) of the object whose `cards` it is in; until the
    record is given its places (`Game.locate`), its `pos`, `span` and fix's columns count in
    that string from 0 on line 0.
    """

    kind: ProblemKind
    message: str
    pos: tuple[int, int]
    span: tuple[int, int]
    move: tuple[int, int] | None = None
    seats: tuple[int, ...] = ()
    rank: int | None = None
    suit: int | None = None
    fix: Fix | None = None
    written: str | None = None  # the whole move as the record wrote it (`tomás: 9j`)
    trick: int | None = None
    path: tuple[str | int, ...] | None = None
    turn: int | None = None

    def where(self) -> str:
        """Where an audit's repair says the problem is: `line 8` of a .zfn record; a JSON
        record's at its JSON path, as its message starts (`at /hands/0/deal/1/cards: ...`),
        also once the record is placed in its text (`path` None)."""
        json_path = self.path is not None or self.message.startswith("at /")
        return self.message.partition(": ")[0] if json_path else f"line {self.pos[0]}"


def loose_name(text: str) -> str:
    """A name as loosely compared for suggestions: no accents, no case, no spaces or dots.

    >>> loose_name("Tomás"), loose_name(" zhou  WEI ")
    ('tomas', 'zhouwei')
    """
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NAME_NOISE_RE.sub("", unicodedata.normalize("NFC", bare).casefold())


def name_matches(players: Sequence[str], text: str) -> list[int]:
    """The seats (0-based) whose player `text` most likely means: equal when compared loosely,
    else within a small edit distance (1 for names of up to 4 letters, else 2; a swap of two
    neighbouring letters counts 1). Empty when nothing is close."""
    key = loose_name(text)
    if not key:
        return []
    keys = [loose_name(name) for name in players]
    exact = [seat for seat, k in enumerate(keys) if k == key]
    if exact:
        return exact
    limit = 1 if len(key) <= 4 else 2
    if len(key) > MAX_FUZZY:  # no typo of a name is this long; and keep hostile input cheap
        return []
    scored = [
        (OSA.distance(key, k, score_cutoff=limit), seat)
        for seat, k in enumerate(keys)
        if abs(len(k) - len(key)) <= limit  # the distance is at least the difference in length
    ]
    close = [(d, seat) for d, seat in scored if d <= limit]
    if not close:
        return []
    best = min(d for d, _ in close)
    return [seat for d, seat in close if d == best]


def readable_parts(text: str) -> tuple[int | None, int | None]:
    """What can be read of one unreadable card: its rank and its suit (0-based), each None if
    unreadable. `9j` has rank 9 and no suit; `1h` has no rank and suit hearts."""
    rank: int | None = None
    suit: int | None = None
    stripped = text.strip(",")
    m = _RANK_RE.match(stripped)
    if m is not None:
        symbol = m.group().upper()
        rank = RANK_SYMBOLS.index("T" if symbol == "10" else symbol)
        rest = stripped[m.end() :]
        if rest[:1] and rest[0].lower() in _SUITS:
            suit = _SUITS.index(rest[0].lower()) % 4
    elif len(stripped) <= 3 and stripped[-1:].lower() in _SUITS:
        suit = _SUITS.index(stripped[-1].lower()) % 4
    return rank, suit


def card_candidates(rank: int | None, suit: int | None, held: int) -> list[int]:
    """The cards of `held` (a mask) that fit what was read of a card: its rank, its suit, or
    both. Nothing fits when nothing could be read."""
    if rank is None and suit is None:
        return []
    return [
        card
        for card in iter_ids(held)
        if card < 52 and (rank is None or card >> 2 == rank) and (suit is None or card & 3 == suit)
    ]


_JOKERS = (("sj", 52), ("bj", 53))  # each joker's spelling and card id (zfrec.cardwords)


def joker_candidates(text: str, free: int) -> list[int]:
    """The jokers of `free` (a mask) that an unreadable card is close to the spelling of: it
    starts with `SJ` or `BJ` (`SJx`), or is one letter from it (`BK`, `Sj` typed `Sk`). None for a
    word of which a rank or a suit can be read: that is a card's.

    >>> joker_candidates("BK", 1 << 52 | 1 << 53), joker_candidates("SJx", 1 << 53)
    ([53], [])
    """
    key = text.strip(",").casefold()
    if not key or len(key) > 4:
        return []
    if key[:2] not in ("sj", "bj") and readable_parts(text) != (None, None):
        return []
    return [
        cid
        for spelling, cid in _JOKERS
        if free >> cid & 1 and (key.startswith(spelling) or OSA.distance(key, spelling) <= 1)
    ]


def typo_candidates(text: str, free: int) -> list[int]:
    """The cards of `free` (a mask) that an unreadable card `text` may be: those that fit its
    rank and suit as far as they can be read (`card_candidates`), else the jokers it is close to
    the spelling of (`joker_candidates`)."""
    rank, suit = readable_parts(text)
    if (rank is None and suit is None) or text.strip(",")[:2].casefold() in ("sj", "bj"):
        return joker_candidates(text, free)
    return card_candidates(rank, suit, free)


def cardish(word: str) -> bool:
    """Whether a word (without its annotation) reads as cards, or looks meant as one card
    (`9j`, `1c`): such a word is never taken as part of a player's name."""
    try:
        read_word(word)
    except CardError:
        return _CARDISH_RE.fullmatch(word) is not None
    return True


def read_word_leniently(
    word: str,
) -> tuple[int, DeclarationTuple, list[tuple[int, str, CardError]]]:
    """A word of cards read as far as it can be: the mask and declarations of its readable
    comma-separated parts, and for each unreadable part its offset in `word`, its text and
    why it cannot be read."""
    try:
        mask, decls = read_word(word)
        return mask, decls, []
    except CardError:
        pass
    mask = 0
    found: list[tuple[int, Stand]] = []
    readings, bad = read_parts(word, read_word)
    for got, declared in readings:
        mask |= got
        found.extend(declared)
    return mask, tuple(found), bad


def read_parts(
    word: str, read: Callable[[str], _Read]
) -> tuple[list[_Read], list[tuple[int, str, CardError]]]:
    """Each comma-separated part of `word` read by `read`, a part that cannot be read cut into
    its glued cards (`glued_cards`) so that only the unreadable card is lost: the readings, and
    for each unreadable part or card its offset in `word`, its text and why it cannot be read."""
    readings: list[_Read] = []
    bad: list[tuple[int, str, CardError]] = []
    offset = 0
    for part in word.split(","):
        if part:
            try:
                readings.append(read(part))
            except CardError as exc:
                pieces = glued_cards(part)
                why = exc
                if _DOUBLED_J_RE.fullmatch(part):  # not `J` without a suit: a joker mistyped
                    why = CardError(f"cannot read a card at {part!r}: a joker is SJ or BJ, "
                                    "with one J")  # fmt: skip
                if not pieces:
                    bad.append((offset, part, why))
                for at, piece in pieces:
                    try:
                        readings.append(read(piece))
                    except CardError as piece_exc:
                        bad.append((offset + at, piece, piece_exc))
        offset += len(part) + 1
    return readings, bad


def glued_cards(part: str) -> list[tuple[int, str]]:
    """The cards of a glued word with their offsets (`9h9j` is `9h` at 0 and `9j` at 2), or no
    pieces when the word does not cut into two or more card-sized pieces. A joker written with
    its J twice (`BJJ`, `SJJ`) is no glued run of a joker and a J without its suit: it is one
    mistyped joker, left whole for `joker_candidates` to read as meant, as `BK` and `SJx` are.

    >>> glued_cards("9h9j"), glued_cards("9j"), glued_cards("BJJ"), glued_cards("BJJh")
    ([(0, '9h'), (2, '9j')], [], [], [(0, 'BJ'), (2, 'Jh')])
    """
    if _DOUBLED_J_RE.fullmatch(part):
        return []
    pieces = []
    at = 0
    while at < len(part):
        m = _PIECE_RE.match(part, at)
        if m is None:
            return []
        pieces.append((at, m.group()))
        at = m.end()
    return pieces if len(pieces) > 1 else []


def did_you_mean(options: Sequence[str]) -> str:
    """`did you mean 9h?`, `did you mean 9h or 9d?`; empty for no options or too many."""
    if not options or len(options) > MAX_SUGGESTIONS:
        return ""
    if len(options) == 1:
        return f"did you mean {options[0]}?"
    return f"did you mean {', '.join(options[:-1])} or {options[-1]}?"


def misspelt(
    text: str, line: int, col: int, words: Sequence[str], what: str, cutoff: float = 0.6
) -> tuple[str, ReadProblem] | None:
    """The one of `words` (keywords) that `text`, written at (`line`, `col`) where one of them
    belongs, is a misspelling of, and the problem that says so (read as it, the word as the
    fix); None when it is close to none. A strict reader raises the message without
    `(read as ...)`.

    >>> word, p = misspelt("hnad", 30, 1, ("hand", "deal", "score"), "line")
    >>> word, p.message, p.fix.text, p.span
    ('hand', "unknown line 'hnad': did you mean hand? (read as hand)", 'hand', (1, 5))
    >>> misspelt("xyz", 30, 1, ("hand",), "line") is None
    True
    """
    near = get_close_matches(plain_word(text), words, n=1, cutoff=cutoff)
    if not near:
        return None
    said = f"unknown {what} {text[:20]!r}: did you mean {near[0]}? (read as {near[0]})"
    fix = Fix(line, col, col + len(text), near[0])
    return near[0], ReadProblem(
        "name", said, (line, col), (col, col + len(text)), fix=fix, written=text
    )


def not_read_as(problem: ReadProblem, tokens: Sequence[Token]) -> ReadProblem:
    """The `misspelt` problem of a line that cannot be read as the keyword it misspells: the
    line is skipped (`line`), its message without `(read as ...)`."""
    line, col = problem.pos
    end = max(t.col + len(t.text) for t in tokens if t.line == line) + 1
    message = problem.message.rpartition(" (read as ")[0]
    return ReadProblem("line", message, problem.pos, (col, end))


def card_fix(problem: ReadProblem, cards: Sequence[int]) -> Fix | None:
    """The fix that writes the first of `cards` in place of the unreadable card."""
    if not cards or len(cards) > MAX_SUGGESTIONS:
        return None
    texts = [card_str(c) for c in cards]
    start, end = problem.span
    return Fix(problem.pos[0], start, end, texts[0], tuple(texts[1:]))


def dealt_problem(
    message: str, line: int, col: int, part: str, offset: int, options: Sequence[str]
) -> tuple[ReadProblem, bool]:
    """The problem of an unreadable card `part` at `col` of a deal-like line (`offset`: where in
    it the reading failed), and whether it is read as `options[0]`: when that is the one card
    that fits; otherwise it is read as one unknown card, and up to three fitting cards are
    suggested.

    >>> p, read = dealt_problem("unknown suit 'j' in 'Qj'", 5, 9, "Qj", 1, ["Qh"])
    >>> p.message, read, p.fix.text
    ("unknown suit 'j' in 'Qj'; did you mean Qh? (read as Qh)", True, 'Qh')
    >>> dealt_problem("bad", 5, 9, "Qj", 1, [])[0].message
    'bad; read as an unknown card'
    """
    hint = did_you_mean(options)
    read = len(options) == 1
    if read:
        message += f"; {hint} (read as {options[0]})"
    elif hint:
        message += f"; {hint} (read as an unknown card)"
    else:
        message += "; read as an unknown card"
    fix = None
    if options and len(options) <= MAX_SUGGESTIONS:
        fix = Fix(line, col, col + len(part), options[0], tuple(options[1:]))
    span = (col, col + len(part))
    problem = ReadProblem("dealt", message, (line, col + offset), span, fix=fix, written=part)
    return problem, read
