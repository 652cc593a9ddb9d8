"""The .zfn statements of a Sheng ji game's body (FORMAT.md, Sheng ji), read into
`zfrec.games.shengji.records`: `round`, `deal`, `bids`, `kitty`, `discard`, `call`, trick lines,
`points`, `result` and `levels`.

`SjBody` is the kind's BodyReader (zfrec.games): the generic parts are Zheng Fen's (the lexer's
tokens, comments, quotes and excerpts; the seat references with their did-you-mean, `Seats`).
Each statement is checked for form against the round so far; legality is the validator's
business. `zfrec.games.shengji.reader` reads whole files with it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from zfrec.cardwords import card_str
from zfrec.errors import CardError, RulesError
from zfrec.games import statement_place
from zfrec.games.shengji.cards import (
    MAX_DECKS,
    NUM_CARDS,
    _word_ids,
    add_card,
    card_id,
    distinct,
)
from zfrec.games.shengji.dealtypos import dealt_options, ids_leniently, read_as
from zfrec.games.shengji.plain import plain_line as _plain_line
from zfrec.games.shengji.plain import plain_moves
from zfrec.games.shengji.records import (
    MAX_MULTIPLIER,
    MAX_POINTS,
    MAX_ROUND_NUMBER,
    SIDES,
    SjCall,
    SjCards,
    SjLevels,
    SjMove,
    SjOutcome,
    SjPoints,
    SjRound,
    SjTrick,
    match_rules,
)
from zfrec.games.shengji.rules import SjRules, parse_level
from zfrec.numbering import repeat_suffix
from zfrec.record.lexer import COLON, COMMENT, STRING, WORD, SyntaxFail, Token, plain_word
from zfrec.record.lexer import split_annotation as _split_annotation
from zfrec.record.model import (
    ANNOTATIONS,
    MAX_VERSIONS,
    Pos,
)
from zfrec.record.problems import (
    MAX_SUGGESTIONS,
    Fix,
    ReadProblem,
    dealt_problem,
    did_you_mean,
    misspelt,
    not_read_as,
    readable_parts,
)
from zfrec.record.seatrefs import Seats

__all__ = ["ROUND_STATEMENTS", "SjBody"]

MAX_UNKNOWN = NUM_CARDS * MAX_DECKS
_ORDINAL_RE = re.compile(r"([1-3])(?:st|nd|rd|th)?$", re.IGNORECASE)
_ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3}
_KITTY_RE = re.compile(r"(-?[0-9]{1,7})(?:[x×]([0-9]{1,4}))?$", re.IGNORECASE)
_MULT_RE = re.compile(r"[x×]([0-9]{1,4})$", re.IGNORECASE)
_TRUMP_WORDS = {
    "s": "s", "h": "h", "d": "d", "c": "c", "♠": "s", "♥": "h", "♦": "d", "♣": "c",
    "spades": "s", "hearts": "h", "diamonds": "d", "clubs": "c",
    "nt": "nt", "notrump": "nt", "no-trump": "nt", "无主": "nt",
}  # fmt: skip
_ROUND_WORDS = ("dealer", "rank", "trump")  # of a round line, each with its value
ROUND_STATEMENTS = ("round", "deal", "bids", "kitty", "discard", "call", "points", "result",
                    "levels")  # fmt: skip


def _round_like(tokens: list[Token], i: int) -> bool:
    """The words after a misspelt `round` (`rnoud 2 dealer 1`) start as a round line's do: a
    number, or `dealer`, `rank`, `trump`, `notrump` (also misspelt); `Rod 7h` does not, and is
    skipped, not read as one."""
    rest = [t for t in tokens[i + 1 :] if t.kind != COMMENT]
    if not rest or rest[0].kind != WORD or any(t.kind == COLON for t in rest):  # `Rod 2: 9h`
        return False
    word = plain_word(rest[0].text).partition("=")[0]  # (`dealer=2`; NFKC reads `＝` as `=`)
    if word.isdecimal() or word in _ROUND_WORDS or word in ("notrump", "nt", "no-trump", "无主"):
        return True
    return misspelt(word, 1, 1, _ROUND_WORDS, "word", cutoff=0.75) is not None


class _LineSkipped(Exception):
    """A line the recovering reader skips whose problem is noted already."""


def _fail(token: Token, message: str) -> SyntaxFail:
    return SyntaxFail(message, token.line, token.col)


def _number(token: Token, low: int, high: int, what: str) -> int:
    text = token.text if token.text.isascii() else unicodedata.normalize("NFKC", token.text)
    sign = -1 if text[:1] in "-−" and low < 0 else 1
    digits = text[1:] if sign < 0 else text.lstrip("+")
    if not digits.isdecimal() or not digits.isascii() or len(digits) > 9:
        raise _fail(token, f"{what} is a whole number, not {token.text[:20]!r}")
    value = sign * int(digits)
    if not low <= value <= high:
        raise _fail(token, f"{what} is {low:,} to {high:,}, not {value:,}")
    return value


class SjBody:
    """The statements of one Sheng ji game's body, read into `SjRound`s: the kind's
    BodyReader (zfrec.games). `seats` resolves seat references; `problems` is the recovering
    reader's list (None: every problem raises SyntaxFail)."""

    def __init__(
        self,
        seats: Seats,
        problems: list[Any] | None = None,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.seats = seats
        self.problems = problems
        self.preset, self.options = preset, options or {}  # the header's rules, if known
        # The generic reader offers each line to `hand.plain_line` first (zfrec.games): self,
        # while a round is open.
        self.hand: SjBody | None = None
        self.rounds: list[SjRound] = []
        self.round: SjRound | None = None
        self._deal_seen: set[int] = set()
        # The round's unreadable cards of deal, kitty and discard lines, each read as one
        # unknown card for now (recovering readers only): the line's keyword, the deal's seat,
        # and where and what the card is, with the card reader's error.
        self._unread: list[tuple[str, int, int, int, str, CardError]] = []
        self.plain_moves = plain_moves(seats.numbers)  # the plain reader's memo of moves

    def statement(self, tokens: list[Token]) -> None:
        first = next(t for t in tokens if t.kind != COMMENT)
        i = tokens.index(first)
        keyword = plain_word(first.text) if first.kind == WORD else ""
        if i + 1 < len(tokens) and tokens[i + 1].kind == COLON:
            keyword = ""  # `deal: ...` would be a move by a seat called deal
        elif keyword and keyword not in ROUND_STATEMENTS:
            meant = self._misspelt(tokens, i)
            if meant is not None and meant != "round" and self.problems is not None:
                # read as meant; a line that cannot be is skipped, as it was misspelt
                problems, at, unread = self.problems, len(self.problems) - 1, len(self._unread)
                try:
                    self._statement(tokens, i, first, meant)
                except SyntaxFail:
                    problems[at:] = [not_read_as(problems[at], tokens)]
                    del self._unread[unread:]  # (the cards of the line read so far)
                return
            if meant == "round" and self.problems is not None and not _round_like(tokens, i):
                # `Rod 7h` (a name no player has, its colon left out) is no round line
                self.problems[-1] = not_read_as(self.problems[-1], tokens)
                return
            keyword = meant or keyword
        self._statement(tokens, i, first, keyword)

    def _statement(self, tokens: list[Token], i: int, first: Token, keyword: str) -> None:
        """Read the line `tokens` as a `keyword` line (else a trick); `first` is `tokens[i]`."""
        seats = self.seats
        if keyword == "round":
            self._close_round()
            self._round_line(tokens, i, seats)
            return
        r = self.round
        if r is None:
            raise _fail(first, "a round starts with a line 'round N' before its deal and tricks")
        comments = [t.text for t in tokens if t.kind == COMMENT]
        rest = [t for t in tokens[i + 1 :] if t.kind != COMMENT]
        if keyword in ("deal", "bids", "kitty", "discard", "call") and r.tricks:
            raise _fail(first, f"the {keyword} line comes before the round's first trick")
        if keyword in ("deal", "kitty", "discard", "call"):
            r.comments.extend(comments)
            getattr(self, "_" + keyword)(first, rest, r, seats)
        elif keyword == "bids":
            read = self._recovering(tokens, lambda: self._moves(tokens, i + 1, seats))
            if read is not None:
                r.comments.extend(read[0])
                r.bids.extend(read[1])
        elif keyword in ("points", "result", "levels"):
            r.comments.extend(comments)
            getattr(self, "_" + keyword)(first, rest, r, seats)
        else:
            if r.points is not None or r.outcome is not None or r.levels is not None:
                raise _fail(first, "a trick comes before the round's points, result and levels")
            read = self._recovering(
                tokens, lambda: self._moves(tokens, 0, seats), trick=len(r.tricks) + 1
            )
            if read is not None:
                r.tricks.append(SjTrick(read[1], read[0], Pos(first.line, first.col)))

    def _misspelt(self, tokens: list[Token], i: int) -> str | None:
        """The statement a line's first word misspells (`rnoud 2`: round), read as it
        (`Seats.misspelt_line`)."""
        return self.seats.misspelt_line(
            tokens, i, ROUND_STATEMENTS, ("round", _round_like), self.problems
        )

    def _recovering(
        self,
        tokens: list[Token],
        read: Callable[[], tuple[list[str], list[SjMove]]],
        trick: int | None = None,
    ) -> tuple[list[str], list[SjMove]] | None:
        """`read()` the moves of a line; a recovering reader notes a line it cannot read as a
        problem and skips it (None), as Zheng Fen's does with a trick line. `trick`: the line
        is that trick of its round, which its problems (a card, or the line) are placed in."""
        before = len(self.problems or ())
        moves = None
        try:
            moves = read()
        except _LineSkipped:
            pass
        except SyntaxFail as fail:
            if self.problems is None:
                raise
            end = max(t.col + len(t.text) for t in tokens if t.line == fail.line) + 1
            self.problems.append(
                ReadProblem("line", fail.message, (fail.line, fail.col), (fail.col, end))
            )
        if trick is not None and self.problems:  # what the line's reading noted
            self.problems[before:] = [replace(p, trick=trick) for p in self.problems[before:]]
        return moves

    def _round_line(self, tokens: list[Token], i: int, seats: Seats) -> None:
        head = tokens[i]
        words = [t for t in tokens[i + 1 :] if t.kind != COMMENT]
        number = self.rounds[-1].number + 1 if self.rounds else 1
        r = SjRound(number, pos=Pos(head.line, head.col))
        r.comments.extend(t.text for t in tokens if t.kind == COMMENT)
        k = 0
        if words and words[0].kind == WORD and words[0].text.isdecimal():
            r.number = _number(words[0], 1, MAX_ROUND_NUMBER, "a round number")
            k = 1
        while k < len(words):
            word = words[k]
            written, eq, value = word.text.replace("＝", "=").partition("=")
            key = plain_word(written)
            if key in ("notrump", "nt", "no-trump", "无主"):
                r.trump = "nt"
                k += 1
                continue
            if key not in _ROUND_WORDS and written:
                found = misspelt(written, word.line, word.col, _ROUND_WORDS, "word", cutoff=0.75)
                if found is not None and self.problems is not None:
                    self.problems.append(found[1])  # `delaer 2`: read as dealer
                    key = found[0]
            if key not in _ROUND_WORDS:
                raise _fail(word, "a round line is 'round N dealer SEAT rank R trump S' "
                            "(or 'notrump')")  # fmt: skip
            if eq and value:
                arg = Token(WORD, value, word.line, word.col + len(written) + 1)
                k += 1
            else:
                k += 1
                if k < len(words) and words[k].kind == COLON:
                    k += 1
                if k >= len(words):
                    raise _fail(word, f"{key} needs a value")
                arg = words[k]
                k += 1
            if key == "dealer":
                r.dealer = seats.resolve(arg)
            elif key == "rank":
                try:
                    r.rank = parse_level(arg.text)
                except RulesError as exc:
                    raise _fail(arg, exc.message) from None
            else:
                trump = _TRUMP_WORDS.get(plain_word(arg.text))
                if trump is None:
                    raise _fail(arg, f"unknown trump {arg.text[:20]!r}: write s h d c, or "
                                "'notrump'")  # fmt: skip
                r.trump = trump
        self.round = r
        self.hand = self
        self._deal_seen = set()

    # A line spelled as the writer spells it (`1: 7h 7h  2: 8h Th?`, `deal 2: ...`, `points 35
    # total 35`) is read without the lexer, into the same records; False, with nothing
    # changed, leaves any other line to the lexer (zfrec.games.shengji.plain). The function
    # itself is the method: one call less for most lines of a record.
    plain_line = _plain_line

    def _cards(
        self, words: list[Token], what: str, unknown_ok: bool, line: str = "", seat: int = -1
    ) -> SjCards:
        """Cards and `?N` tokens; the position is the first word's. In a recovering reader's
        `deal`, `kitty` or `discard` line (`line`; `seat`: the deal's) an unreadable card costs
        only itself: it is one unknown card until the round is read (`_read_unread`)."""
        known, unknown = 0, 0
        for w in words:
            text = w.text
            if text.startswith("?"):
                if not unknown_ok:
                    raise _fail(w, f"{what} cannot hold unknown cards")
                if text == "?":
                    unknown += 1
                else:
                    unknown += _number(Token(WORD, text[1:], w.line, w.col + 1), 1, MAX_UNKNOWN,
                                       "a count of unknown cards")  # fmt: skip
                if unknown > MAX_UNKNOWN:
                    raise _fail(w, f"at most {MAX_UNKNOWN} unknown cards")
            elif self.problems is None or not line:
                known = self._card_word(w, known)
            else:
                ids, bad = ids_leniently(text)
                if not bad:
                    known = self._card_word(w, known)  # a copy too many: the line's error
                    continue
                for cid in ids:
                    try:
                        known = add_card(known, cid, MAX_DECKS)
                    except CardError as exc:
                        raise _fail(w, exc.message) from None
                unknown += len(bad)
                for offset, part, error in bad:
                    self._unread.append((line, seat, w.line, w.col + offset, part, error))
        return SjCards(known, unknown, Pos(words[0].line, words[0].col) if words else None)

    def _card_word(self, w: Token, hand: int, held: int = 0, move: Pos | None = None) -> int:
        """`hand` with the cards of word `w`. A recovering reader notes an unreadable card of a
        move (`move`: where the move starts) as a problem, with the held cards it may mean as
        the fix, and goes on without it."""
        try:
            for cid in _word_ids(w.text):
                hand = add_card(hand, cid, MAX_DECKS)
        except CardError as exc:
            message = _card_message(w.text, exc.message, held)
            if self.problems is None or move is None:
                raise _fail(w, message) from None
            rank, suit = readable_parts(w.text)
            options = _options(w.text, held)
            span = (w.col, w.col + len(w.text))
            fix = None
            if options and len(options) <= MAX_SUGGESTIONS:
                fix = Fix(w.line, span[0], span[1], options[0], tuple(options[1:]))
            self.problems.append(ReadProblem("card", message, (w.line, w.col), span, move=move,
                                             rank=rank, suit=suit, fix=fix))  # fmt: skip
        return hand

    def _deal(self, first: Token, rest: list[Token], r: SjRound, seats: Seats) -> None:
        rest = seats.merge_names([first, *rest], 1)[1:]
        if len(rest) < 2 or rest[1].kind != COLON:
            raise _fail(first, "a deal line is 'deal SEAT: cards', with ?N for unknown cards")
        seat = self._deal_seat(rest[0], seats)
        if seat in self._deal_seen:
            raise _fail(rest[0], f"seat {seat + 1}'s deal is given twice")
        self._deal_seen.add(seat)
        n = len(seats.players)
        deal = list(r.deal or [SjCards() for _ in range(n)])
        got = self._cards(rest[2:], "a deal", True, "deal", seat)
        deal[seat] = SjCards(got.known, got.unknown, Pos(first.line, first.col))
        r.deal = tuple(deal)

    def _deal_seat(self, token: Token, seats: Seats) -> int:
        """The seat of a deal line. A recovering reader reads a name close to one player's as
        that player, noted as a `name` problem with the fix (`did you mean Wang?`), as Zheng
        Fen's reader does; a name close to no one player's fails, and its game is lost."""
        if self.problems is None:
            return seats.resolve(token)
        found, problem = seats.leniently(token, "deal")
        if found is None or problem is None:
            return found if found is not None else seats.resolve(token)
        self.problems.append(problem)
        return found

    def _kitty(self, first: Token, rest: list[Token], r: SjRound, seats: Seats) -> None:
        if r.kitty is not None:
            raise _fail(first, "the kitty is given twice")
        got = self._cards(rest, "the kitty", True, "kitty")
        r.kitty = SjCards(got.known, got.unknown, Pos(first.line, first.col))

    def _discard(self, first: Token, rest: list[Token], r: SjRound, seats: Seats) -> None:
        if r.discard is not None:
            raise _fail(first, "the discard is given twice")
        got = self._cards(rest, "the discard", True, "discard")
        written = []
        for w in rest:
            try:
                written += [(cid, w.col) for cid in _word_ids(w.text)]
            except (CardError, KeyError, ValueError):
                continue  # `?N`, or a word read leniently: no place to name
        r.discard = SjCards(got.known, got.unknown, Pos(first.line, first.col), tuple(written))

    def _call(self, first: Token, rest: list[Token], r: SjRound, seats: Seats) -> None:
        if r.calls:
            raise _fail(first, "the calls are given twice")
        if not rest or len(rest) % 2:
            raise _fail(first, "a call line is 'call 2nd As', an ordinal and a card per call")
        calls = []
        for k in range(0, len(rest), 2):
            o, c = rest[k], rest[k + 1]
            m = _ORDINAL_RE.match(plain_word(o.text))
            ordinal = int(m.group(1)) if m else _ORDINAL_WORDS.get(plain_word(o.text))
            if ordinal is None:
                raise _fail(o, "a call names the copy first: 1st, 2nd or 3rd, then the card")
            try:
                cid = card_id(c.text)
            except CardError as exc:
                raise _fail(c, _card_message(c.text, exc.message, 0)) from None
            calls.append(SjCall(cid, ordinal))
        r.calls = tuple(calls)

    def _points(self, first: Token, rest: list[Token], r: SjRound, seats: Seats) -> None:
        if r.points is not None:
            raise _fail(first, "the points are given twice")
        if not rest:
            raise _fail(first, "a points line is 'points N [kitty P x M] [penalty N] [total N]'")
        taken = _number(rest[0], -MAX_POINTS, MAX_POINTS, "the points taken")
        kitty = mult = total = None
        penalty = 0
        k = 1
        while k < len(rest):
            word = rest[k]
            key = plain_word(word.text)
            if key not in ("kitty", "penalty", "total") or k + 1 >= len(rest):
                raise _fail(word, "after the points come 'kitty P x M', 'penalty N', 'total N'")
            arg = rest[k + 1]
            k += 2
            if key == "kitty":
                m = _KITTY_RE.match(plain_word(arg.text))
                if m is None:
                    raise _fail(arg, "the kitty is its points, then x and the multiplier: 10x4")
                kitty = _number(Token(WORD, m.group(1), arg.line, arg.col), 0, MAX_POINTS,
                                "the kitty's points")  # fmt: skip
                if m.group(2) is not None:
                    mult = int(m.group(2))
                elif k < len(rest) and (mm := _MULT_RE.match(plain_word(rest[k].text))):
                    mult = int(mm.group(1))
                    k += 1
                elif k + 1 < len(rest) and plain_word(rest[k].text) in ("x", "×"):
                    mult = _number(rest[k + 1], 0, MAX_MULTIPLIER, "the multiplier")
                    k += 2
                if mult is not None and mult > MAX_MULTIPLIER:
                    raise _fail(arg, f"the multiplier is at most {MAX_MULTIPLIER}")
            elif key == "penalty":
                penalty = _number(arg, -MAX_POINTS, MAX_POINTS, "the penalty")
            else:
                total = _number(arg, -MAX_POINTS, MAX_POINTS, "the total")
        r.points = SjPoints(taken, kitty, mult, penalty, total, Pos(first.line, first.col))

    def _result(self, first: Token, rest: list[Token], r: SjRound, seats: Seats) -> None:
        if r.outcome is not None:
            raise _fail(first, "the result is given twice")
        usage = "a result line is 'result declarers +N', 'result swap' or 'result opponents +N'"
        if not rest:
            raise _fail(first, usage)
        side = plain_word(rest[0].text)
        k = 1
        if side == "swap":
            side, steps = "opponents", 0
        elif side in SIDES and len(rest) > 1:
            steps = _number(rest[1], 0, 99, "a level change")
            k = 2
        else:
            raise _fail(rest[0], usage)
        nxt = None
        if k < len(rest):
            if plain_word(rest[k].text) != "next" or k + 2 != len(rest):
                raise _fail(rest[k], "after the level change comes 'next SEAT', the next dealer")
            nxt = seats.resolve(rest[k + 1])
        r.outcome = SjOutcome(side, steps, nxt, Pos(first.line, first.col))

    def _levels(self, first: Token, rest: list[Token], r: SjRound, seats: Seats) -> None:
        if r.levels is not None:
            raise _fail(first, "the levels are given twice")
        n = len(seats.players)
        if len(rest) != n:
            at = rest[n] if len(rest) > n else first
            # the [Players] tag may be what is wrong (a fifth name in bashi fen): say both
            raise _fail(at, f"a levels line gives each of the {n} seats' level, 2 to A: this "
                        f"one gives {len(rest)}, and [Players] names {n}")  # fmt: skip
        levels = []
        for w in rest:
            try:
                levels.append(parse_level(w.text))
            except RulesError as exc:
                raise _fail(w, exc.message) from None
        r.levels = SjLevels(tuple(levels), Pos(first.line, first.col))

    # moves: bids and trick lines ----------------------------------------------------------------

    def _moves(
        self, tokens: list[Token], start: int, seats: Seats
    ) -> tuple[list[str], list[SjMove]]:
        """The moves from `tokens[start]`, and the comments before the first (the trick's)."""
        tokens = seats.merge_names(tokens, start)
        lead: list[str] = []
        moves: list[SjMove] = []
        parts: list[Token] = []
        k = start
        n = len(tokens)
        while k < n:
            t = tokens[k]
            if t.kind in (WORD, STRING) and k + 1 < n and tokens[k + 1].kind == COLON:
                if moves:
                    self._finish_move(moves[-1], parts, seats, len(moves))
                seat = self._move_seat(t, seats, len(moves) + 1)
                moves.append(SjMove(seat, 0, pos=Pos(t.line, t.col)))
                parts = []
                k += 2
                continue
            if not moves:
                if t.kind != COMMENT:
                    raise _fail(t, "a move starts with a seat and a colon: '1: 7h 7h'")
                lead.append(t.text)
            else:
                parts.append(t)
            k += 1
        if not moves:
            raise _fail(tokens[max(start - 1, 0)], "no moves: write them as '1: 7h 7h  2: 8h 9h'")
        self._finish_move(moves[-1], parts, seats, len(moves))
        return lead, moves

    def _move_seat(self, t: Token, seats: Seats, turn: int) -> int:
        """The seat of a move. A recovering reader reads a name close to one player's as that
        player, noted as a `seat` problem with the fix, as Zheng Fen's reader does; any other
        name that is no seat's fails, and its line is skipped. `turn`: the move's place in its
        line (ReadProblem.turn)."""
        if self.problems is None:
            return seats.resolve(t)
        found, problem = seats.leniently(t, "move")
        if found is None or problem is None:
            return found if found is not None else seats.resolve(t)
        self.problems.append(
            replace(problem, kind="seat", move=(t.line, t.col), seats=(found,), turn=turn)
        )
        return found

    def _finish_move(self, move: SjMove, parts: list[Token], seats: Seats, turn: int) -> None:
        """Read the words of `move`, the line's `turn`th play: what its problems are noted with
        (ReadProblem.turn), as the seat's play in its trick."""
        before = len(self.problems or ())
        try:
            self._read_move(move, parts, seats)
        finally:
            if self.problems is not None:
                self.problems[before:] = [
                    replace(p, turn=turn, seats=p.seats or (move.seat,))
                    if p.move == move.pos else p
                    for p in self.problems[before:]
                ]  # fmt: skip

    def _read_move(self, move: SjMove, parts: list[Token], seats: Seats) -> None:
        at = move.pos
        assert at is not None
        held = self._held(move.seat)
        state = "play"  # play, forced, by, note, or
        cards = forced = 0
        versions: list[int] = []
        for t in parts:
            if t.kind == COMMENT:
                move.comments.append(t.text)
                continue
            if t.kind == STRING:
                if state != "note" or move.dispute_note is not None:
                    raise _fail(t, "quoted text here can only be the note after 'disputed'")
                move.dispute_note = t.text
                continue
            text, mark = _split_annotation(t.text)
            if mark is not None and state not in ("or",):
                if mark not in ANNOTATIONS:
                    raise _fail(
                        t, f"unknown annotation {mark!r}: use one of {' '.join(ANNOTATIONS)}"
                    )
                if move.annotation is not None:
                    raise _fail(t, "a move takes one annotation")
                move.annotation = mark
            if not text:
                continue
            word = plain_word(text)
            tok = Token(WORD, text, t.line, t.col)
            if state == "by":
                move.blocker = seats.resolve(tok)
                state = "after"
            elif word == "forced" and state == "play" and cards:
                state = "forced"
            elif word == "by" and state == "forced" and forced:
                state = "by"
            elif word == "joins" and state in ("play", "forced", "after") and cards:
                move.joins = True
                state = "after"
            elif word == "disputed" and not move.disputed and cards:
                move.disputed = True
                state = "note"
            elif word == "or" and move.disputed:
                if versions and not versions[-1]:
                    raise _fail(t, "'or' needs a play after it")
                versions.append(0)
                if len(versions) > MAX_VERSIONS:
                    raise _fail(t, f"a disputed move has at most {MAX_VERSIONS} 'or' versions")
                state = "or"
            elif state == "play":
                cards = self._card_word(tok, cards, held, at)
            elif state == "forced":
                forced = self._card_word(tok, forced, held, at)
            elif state == "or":
                versions[-1] = self._card_word(tok, versions[-1], held, at)
            else:
                raise _fail(t, f"unexpected {text[:20]!r} in the move")
        if not cards:
            self._unread_play(at)
            raise SyntaxFail("a move needs cards: every seat plays to every trick", *at)
        if (state == "forced" and not forced) or state == "by":
            raise SyntaxFail("'forced' needs the cards that stayed down, then 'by SEAT'", *at)
        if versions and not versions[-1]:
            raise SyntaxFail("'or' needs a play after it", *at)
        if len(set(versions)) != len(versions) or cards in versions:
            raise SyntaxFail("each 'or' version differs from the play and from the others", *at)
        move.cards = cards
        move.forced = forced or None
        move.alternatives = tuple(versions)

    def _unread_play(self, at: Pos) -> None:
        """A play none of whose cards could be read: its line is skipped, as for any move
        without cards, and reported once, as the card it could not read with its suggestion
        (not also as a move without cards, which the play is not)."""
        problems = self.problems
        if problems is None:
            return
        mine = [i for i, p in enumerate(problems) if p.kind == "card" and p.move == at]
        if not mine:
            return
        p = problems[mine[0]]
        problems[mine[0]] = replace(p, kind="line", message=f"{p.message} (the line is skipped)")
        raise _LineSkipped

    def _held(self, seat: int) -> int:
        """What the record says `seat` holds: its known deal (and the kitty for the dealer)."""
        r = self.round
        if r is None or r.deal is None:
            return 0
        held = r.deal[seat].known
        if r.dealer == seat and r.kitty is not None:
            held += r.kitty.known
        return held

    def comments(self, texts: list[str]) -> bool:
        """A line of comments only: the move before it, or the round; False before the first
        round (they are the game's)."""
        r = self.round
        if r is None:
            return False
        if r.tricks and r.points is None and r.outcome is None and r.levels is None:
            r.tricks[-1].moves[-1].comments.extend(texts)  # as in Zheng Fen: the move before
        else:
            r.comments.extend(texts)
        return True

    def place(self, tokens: list[Token]) -> dict[str, int | str]:
        """BodyReader.place: the round of a statement (a `round N` line's N), and a trick
        line's number in it (the tricks read before it, and one; none after its points, result
        or levels)."""
        r = self.round
        ended = r is None or not (r.points is None and r.outcome is None and r.levels is None)
        place = statement_place(
            tokens,
            opener="round",
            number=_round_number,
            current=None if r is None else r.number,
            next_number=self.rounds[-1].number + 1 if self.rounds else 1,
            tricks=None if r is None or ended else len(r.tricks),
            statements=ROUND_STATEMENTS,
        )
        return place | {"unit": "round"} if place else {}

    def _close_round(self) -> None:
        r = self.round
        if r is None:
            return
        if self._unread:
            self._read_unread(r)
        if r.deal is not None and len(self._deal_seen) != len(r.deal):
            seats = [s + 1 for s in range(len(r.deal)) if s not in self._deal_seen]
            missing, first = ", ".join(map(str, seats)), seats[0]
            assert r.pos is not None
            # `round 1 (2nd)` for the second round written as round 1, as its page is named
            before = [x.number for x in self.rounds].count(r.number)
            said = f"round {r.number}{repeat_suffix(before + 1)}"
            raise SyntaxFail(f"{said} has deal lines, but none for seat {missing}: "
                             f"write 'deal {first}: ?{self._hand_size()}' for a seat nothing is "
                             "known of", *r.pos)  # fmt: skip
        self.rounds.append(r)
        self.round = None
        self.hand = None

    def close(self) -> list[SjRound]:
        """The body is over: the rounds read (the last one checked and closed)."""
        self._close_round()
        return self.rounds

    def finish(self, game: Any) -> None:
        """BodyReader.finish: put the rounds into the generic record (`Game.rounds`)."""
        game.rounds = self.close()

    def _rules(self) -> SjRules | None:
        """The header's rules, None where they are not known (or are not rules)."""
        if self.preset is None:
            return None
        try:
            return match_rules(self.preset, self.options, len(self.seats.players))
        except (RulesError, TypeError, ValueError):
            return None

    def _hand_size(self) -> str:
        """The cards a seat is dealt under the header's rules, as a `?N` count ('N' where the
        rules are not known)."""
        rules = self._rules()
        return "N" if rules is None else str(rules.hand_size)

    def _read_unread(self, r: SjRound) -> None:
        """Note each unreadable card of the round's deal, kitty and discard lines (a `dealt`
        problem). The cards that fit it: for a deal or kitty card, those of which the decks hold
        a copy no deal or kitty line gives, and if several do, those the round shows its line to
        leave out; for a discard card, what the dealer holds and neither plays nor discards
        (dealtypos.dealt_options). The one that fits is read, else it stays an unknown card."""
        assert self.problems is not None  # only a recovering reader keeps unreadable cards
        rules = self._rules()
        decks = MAX_DECKS if rules is None else rules.decks
        unread, self._unread = self._unread, []
        for line, seat, at, col, part, exc in unread:
            options = dealt_options(r, line, seat, part, decks)
            problem, read = dealt_problem(exc.message, at, col, part, exc.offset,
                                          [card_str(c) for c in options])  # fmt: skip
            self.problems.append(problem)
            if read:
                read_as(r, line, seat, options[0])


def _round_number(text: str) -> int | None:
    """A round number as written (digits), None where no round can have it."""
    return int(text) if len(text) <= 9 and 1 <= int(text) <= MAX_ROUND_NUMBER else None


def _options(word: str, held: int) -> list[str]:
    """The held cards (packed) that an unreadable card word may mean: its rank, its suit."""
    from zfrec.cardwords import card_str

    rank, suit = readable_parts(word)
    if not held or (rank is None and suit is None):
        return []
    return [
        card_str(c) for c in distinct(held)
        if c < 52 and (rank is None or c >> 2 == rank) and (suit is None or c & 3 == suit)
    ]  # fmt: skip


def _card_message(word: str, message: str, held: int) -> str:
    """The card reader's message, with the cards of `held` that the word may mean."""
    hint = did_you_mean(_options(word, held))
    return f"{message}; {hint}" if hint else message
