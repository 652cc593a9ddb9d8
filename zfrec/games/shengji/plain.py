"""Plain lines: the statements of a Sheng ji round spelled exactly as the writer spells them
(`zfrec.games.shengji.notation`), read by one regex each instead of the lexer's tokens.

Most lines of a record are such lines, so reading them whole is most of the reader's speed.
A trick line is kept as its plays (seat, packed cards) and its text: its `SjMove`s are made
only when asked for (`SjTrick.plain`), and the validator asks only for the plays.
Each reader here gives what the token reader (`zfrec.games.shengji.zfn.SjBody`) gives for the
same line: the same records at the same positions. Anything it does not take for certain
(another spelling, a value out of range, a statement given twice, a line out of place) it
leaves alone, returning False with nothing changed, and the token reader reads the line and
reports what is wrong with it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from zfrec.games.shengji.cards import _SPELLINGS, HIGH, LOW, MAX_DECKS, NUM_CARDS
from zfrec.games.shengji.records import (
    MAX_MULTIPLIER,
    MAX_POINTS,
    PlainTrick,
    SjCall,
    SjCards,
    SjLevels,
    SjMove,
    SjOutcome,
    SjPoints,
    SjRound,
    SjTrick,
)
from zfrec.games.shengji.rules import LEVEL_TEXT
from zfrec.record.model import Pos

if TYPE_CHECKING:
    from zfrec.games.shengji.zfn import SjBody

__all__ = ["plain_line"]

MAX_UNKNOWN = NUM_CARDS * MAX_DECKS
_CARD = "(?:[3-9TJQKA2][shdc]|SJ|BJ)"
_CARDS = f"{_CARD}(?: {_CARD})*"
_NUMBER = "(-?[0-9]{1,7})"
# what a plain deal, kitty or discard line is: `_cards` reads it word by word, faster on long
# lines (tests/test_sj_notation.py holds the two to the same lines)
_PLAIN_CARDS_RE = re.compile(f"(?:deal ([1-8]):|kitty|discard)(?: ({_CARDS}))?"
                             r"(?: (\?(?:[1-9][0-9]{0,2})?))?")  # fmt: skip
_PLAIN_MOVE_RE = re.compile(f"([1-8]): ({_CARDS})([!?]{{1,2}})?( joins)?")
_PLAIN_ROUND_RE = re.compile(
    r"round ([1-9][0-9]{0,5})(?: dealer ([1-8]))?(?: rank (10|[2-9JQKA]))?"
    r"(?: (notrump)| trump ([shdc]))?"
)
_PLAIN_POINTS_RE = re.compile(
    f"points {_NUMBER}(?: kitty ([0-9]{{1,7}})(?:x([0-9]{{1,4}}))?)?(?: penalty {_NUMBER})?"
    f"(?: total {_NUMBER})?"
)
_PLAIN_RESULT_RE = re.compile(r"result (?:(declarers|opponents) \+([0-9]{1,2})|swap)"
                              r"(?: next ([1-8]))?")  # fmt: skip
_CALL = f"[1-3](?:st|nd|rd|th) {_CARD}"
_PLAIN_CALL_RE = re.compile(f"call ({_CALL}(?: {_CALL})*)")
_tuple_new = tuple.__new__  # a position made without its named tuple's keyword-reading __new__
_NO_CARDS = SjCards()
_LEVELS = {text: level for level, text in LEVEL_TEXT.items()}
# One copy of each card, packed, by its canonical spelling (cards.py: 2 bits per card)
_BIT = {text: 1 << (cid << 1) for text, cid in _SPELLINGS.items() if not text.startswith("10")}

# the play (the seat, the cards packed: one tuple, a trick's plays as the replay takes them),
# the mark, `joins`, the columns to the next move
_PlainMove = tuple[tuple[int, int], str | None, bool, int]
# Moves repeat: each different text is read once per set of seat numbers (nearly always one
# set: "1" is seat 0 ...), by the numbers as `SeatRefs.numbers` gives them (`plain_moves`).
_PLAIN_MOVES: dict[tuple[tuple[str, int], ...], dict[str, _PlainMove]] = {}
_PLAIN_LIMIT = 50_000
_new_trick = object.__new__  # a trick whose moves are made when asked for (`SjTrick`)


def plain_moves(numbers: dict[str, int]) -> dict[str, _PlainMove]:
    """The memo of plain moves read with the seat `numbers` (`SjBody.plain_moves`)."""
    return _PLAIN_MOVES.setdefault(tuple(numbers.items()), {})


def packed(words: str) -> int | None:
    """The packed hand of canonical card words separated by single spaces (as the regexes
    above match them), or None for a card more than the decks allow (the token reader says
    which): the fields of a hand add without overflow exactly when its size is the count."""
    return _packed(words.split(" "))


def _packed(words: list[str]) -> int | None:
    """`packed` of the words; KeyError for a word that is no card's canonical spelling."""
    hand = sum(map(_BIT.__getitem__, words))
    if (hand & LOW).bit_count() + 2 * (hand & HIGH).bit_count() != len(words):
        return None
    return hand


def _plain_move(
    numbers: dict[str, int], memo: dict[str, _PlainMove], text: str
) -> _PlainMove | None:
    """A move spelled as the writer spells it (`2: 7h 7h!`, `3: As joins`) by a seat number
    of `numbers`, or None; kept in `memo` (`plain_moves(numbers)`)."""
    m = _PLAIN_MOVE_RE.fullmatch(text)
    if m is None:
        return None
    seat = numbers.get(m.group(1))
    hand = packed(m.group(2))
    if seat is None or hand is None:
        return None  # a name, a fourth copy: the lexer reads or reports it
    if len(memo) >= _PLAIN_LIMIT:
        memo.clear()
    read = memo[text] = ((seat, hand), m.group(3), m.group(4) is not None, len(text) + 2)
    return read


def _moves(
    numbers: dict[str, int], memo: dict[str, _PlainMove], text: str, number: int, col: int
) -> list[SjMove] | None:
    """The moves of a trick line (or of a bids line from column `col`), or None."""
    moves: list[SjMove] = []
    append = moves.append
    for part in text.split("  "):
        read = memo.get(part) or _plain_move(numbers, memo, part)
        if read is None:
            return None
        (seat, hand), mark, joins, width = read
        append(SjMove(seat, hand, None, None, joins, mark, [], False, None, (),
                      _tuple_new(Pos, (number, col))))  # fmt: skip
        col += width
    return moves


def plain_trick_moves(plain: PlainTrick) -> list[SjMove]:
    """The moves of a trick read from a plain line (`SjTrick.plain`), as the line gives them."""
    _, line, number, numbers = plain
    moves = _moves(numbers, plain_moves(numbers), line, number, 1)
    assert moves is not None  # the line was read so before
    return moves


def plain_line(body: SjBody, line: str, number: int, _: object = None) -> bool:
    """Read `line` into `body` if it is plain (see the module docstring): `SjBody.plain_line`,
    which the generic reader offers each line while a round is open."""
    r = body.round
    if r is None or not line:
        return False
    first = line[0]
    if "1" <= first <= "8":
        if r.points is not None or r.outcome is not None or r.levels is not None:
            return False  # the lexer reports it
        # only the plays: the moves are made if asked for (`SjTrick`)
        memo = body.plain_moves
        plays: list[tuple[int, int]] = []
        append = plays.append
        for part in line.split("  "):
            read = memo.get(part) or _plain_move(body.seats.numbers, memo, part)
            if read is None:
                return False
            append(read[0])
        trick = _new_trick(SjTrick)
        trick.comments, trick.pos = [], _tuple_new(Pos, (number, 1))
        trick.plain = (plays, line, number, body.seats.numbers)
        r.tricks.append(trick)
        return True
    if first in "dkb" or line.startswith("call"):
        if r.tricks:
            return False  # the lexer reports it
        if first == "b":
            return line.startswith("bids ") and _bids(body, r, line, number)
        if first == "c":
            return _call(r, line)
        return _cards(body, r, line, number)
    if first == "p":
        return _points(r, line, number)
    if first == "r":
        if line.startswith("round"):
            return _round(body, line, number)
        return _result(body, r, line, number)
    if first == "l":
        return _levels(body, r, line, number)
    return False


def _cards(body: SjBody, r: SjRound, line: str, number: int) -> bool:
    """`deal 2: 3s 3s Kd ?22`, `kitty 3h 4s ?6`, `discard ...`: what `_PLAIN_CARDS_RE`
    matches, read word by word (a long line of cards is slow to match)."""
    seat_word = None
    if line.startswith("deal "):
        seat_word = line[5:6]
        if line[6:7] != ":" or not "1" <= seat_word <= "8":
            return False
        rest = line[7:]
    elif line.startswith("kitty"):
        rest = line[5:]
    elif line.startswith("discard"):
        rest = line[7:]
    else:
        return False
    known = count = 0
    if rest:  # " " and the words: cards, then `?` or `?N` (N 1 to 999, no leading 0)
        if rest[0] != " ":
            return False
        words = rest[1:].split(" ")
        if words[-1][:1] == "?":
            digits = words.pop()[1:]
            if digits and not (len(digits) <= 3 and digits.isdecimal() and digits.isascii()
                               and digits[0] != "0"):  # fmt: skip
                return False
            count = int(digits) if digits else 1
        if words:
            try:
                read = _packed(words)  # an empty word (two spaces) is no card either
            except KeyError:
                return False
            if read is None:
                return False
            known = read
    if count > MAX_UNKNOWN:
        return False
    cards = SjCards(known, count, Pos(number, 1))
    if seat_word is not None:
        seat = body.seats.numbers.get(seat_word)
        if seat is None or seat in body._deal_seen:
            return False
        body._deal_seen.add(seat)
        # the seats not dealt yet: one shared empty `SjCards` (frozen: nothing changes it)
        deal = list(r.deal or (_NO_CARDS,) * len(body.seats.players))
        deal[seat] = cards
        r.deal = tuple(deal)
    elif line[0] == "k":
        if r.kitty is not None:
            return False
        r.kitty = cards
    else:
        if r.discard is not None:
            return False
        cols, col = [], 9  # after `discard `: one card a word, one space between words
        for word in rest[1:].split(" ") if rest else ():
            if word in _BIT:  # (not `?N`)
                cols.append(((_BIT[word].bit_length() - 1) >> 1, col))
            col += len(word) + 1
        r.discard = SjCards(known, count, cards.pos, tuple(cols))
    return True


def _bids(body: SjBody, r: SjRound, line: str, number: int) -> bool:
    """`bids 2: 2s  3: 2h 2h`."""
    moves = _moves(body.seats.numbers, body.plain_moves, line[5:], number, 6)
    if moves is None or any(m.joins for m in moves):  # `joins` is a play's: the lexer's
        return False
    r.bids.extend(moves)
    return True


def _call(r: SjRound, line: str) -> bool:
    """`call 2nd As 1st Kh`."""
    m = _PLAIN_CALL_RE.fullmatch(line)
    if m is None or r.calls:
        return False
    words = m.group(1).split(" ")
    r.calls = tuple(
        SjCall(_SPELLINGS[words[k + 1]], int(words[k][0])) for k in range(0, len(words), 2)
    )
    return True


def _round(body: SjBody, line: str, number: int) -> bool:
    """`round 3 dealer 2 rank 7 trump c` (or `notrump`)."""
    m = _PLAIN_ROUND_RE.fullmatch(line)
    if m is None:
        return False
    dealer = None
    if m.group(2) is not None:
        dealer = body.seats.numbers.get(m.group(2))
        if dealer is None:
            return False
    body._close_round()  # as the token reader does first: it may raise
    rank = _LEVELS[m.group(3)] if m.group(3) is not None else None
    trump = "nt" if m.group(4) is not None else m.group(5)
    r = SjRound(int(m.group(1)), dealer, rank, trump, pos=Pos(number, 1))
    body.round = r
    body.hand = body
    body._deal_seen = set()
    return True


def _points(r: SjRound, line: str, number: int) -> bool:
    """`points 60 kitty 10x4 penalty -10 total 90`."""
    m = _PLAIN_POINTS_RE.fullmatch(line)
    if m is None or r.points is not None:
        return False
    taken, kitty, mult, penalty, total = m.groups()
    if mult is not None and int(mult) > MAX_MULTIPLIER:
        return False
    values = [int(v) for v in (taken, kitty or "0", penalty or "0", total or "0")]
    if any(abs(v) > MAX_POINTS for v in values):
        return False
    r.points = SjPoints(
        values[0],
        None if kitty is None else values[1],
        None if mult is None else int(mult),
        values[2],
        None if total is None else values[3],
        Pos(number, 1),
    )
    return True


def _result(body: SjBody, r: SjRound, line: str, number: int) -> bool:
    """`result declarers +2 next 4`, `result swap`, `result opponents +1`."""
    m = _PLAIN_RESULT_RE.fullmatch(line)
    if m is None or r.outcome is not None:
        return False
    side, steps, nxt = m.groups()
    seat = None
    if nxt is not None:
        seat = body.seats.numbers.get(nxt)
        if seat is None:
            return False
    if side is None:
        r.outcome = SjOutcome("opponents", 0, seat, Pos(number, 1))
    else:
        r.outcome = SjOutcome(side, int(steps), seat, Pos(number, 1))
    return True


def _levels(body: SjBody, r: SjRound, line: str, number: int) -> bool:
    """`levels 3 2 3 2`: each seat's level."""
    words = line.split(" ")
    if words[0] != "levels" or r.levels is not None:
        return False
    if len(words) != len(body.seats.players) + 1:
        return False
    levels = []
    for w in words[1:]:
        level = _LEVELS.get(w)
        if level is None:
            return False
        levels.append(level)
    r.levels = SjLevels(tuple(levels), Pos(number, 1))
    return True
