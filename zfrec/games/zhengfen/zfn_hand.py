"""The .zfn reader's hand statements: deal, trick and score lines, read into a hand.

zfrec.record.zfn reads a game line by line and hands each statement of a hand to a
`HandBuilder`, which checks it against the hand so far. A line spelled exactly as the writer
spells it is recognised whole by one regex (`PLAIN_RE`, and `_PLAIN_MOVE_RE` per move); any
other line arrives as the lexer's tokens. Both paths end in the same builder methods.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from zfrec.errors import CardError, SeatError
from zfrec.games.zhengfen.engine.cards import (
    DECK_SIZE,
    FULL_DECK,
    NO_CARDS,
    Cards,
    DeclarationTuple,
    Stand,
    card_str,
    parse_cards,
    parse_play,
    read_word,
)
from zfrec.record.lexer import (
    COLON,
    COMMENT,
    STRING,
    WORD,
    SyntaxFail,
    Token,
    fail_at,
    plain_word,
    split_annotation,
)
from zfrec.record.model import (
    ANNOTATIONS,
    MAX_HAND_NUMBER,
    MAX_SCORE,
    MAX_UNKNOWN,
    MAX_VERSIONS,
    AltPlay,
    Hand,
    HandScore,
    Move,
    Pos,
    SeatDeal,
    Trick,
    versions_problem,
)
from zfrec.record.problems import (
    Fix,
    ReadProblem,
    dealt_problem,
    read_word_leniently,
    readable_parts,
    typo_candidates,
)
from zfrec.record.seatrefs import PASS_WORDS, Seats

if TYPE_CHECKING:
    from zfrec.games.zhengfen.notation import ZhengFenBody

_new_tuple = tuple.__new__  # Pos(l, c) without the Python-level __new__ of a named tuple
_new_object = object.__new__
_init_move = Move.__init__


# ---------------------------------------------------------------------------------------------
# Plain lines: a statement spelled exactly as the writer spells it, with seats as plain numbers,
# cards in canonical spelling, the writer's spacing, and no comments, quotes or names. A trick
# line is recognised move by move: `_PLAIN_MOVE_RE` for the play of each (checked once per
# different play, then cached). One regex, `PLAIN_RE`, recognises the other plain lines. The
# numbers these admit are within the bounds of the model.

_P_RANK = "[3-9TJQKA2]"
_P_CARD = f"(?:{_P_RANK}[shdc]|[SB]J(?:={_P_RANK}[shdc]?)?)"
_PLAIN_MOVE_RE = re.compile(f"(?:-|{_P_CARD}(?: {_P_CARD})*)(?:[!?]{{1,2}})?")
_P_SCORES = f"[0-9]{{1,{len(str(MAX_SCORE))}}}(?: [0-9]{{1,{len(str(MAX_SCORE))}}})*"
PLAIN_RE = re.compile(
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


_Move = tuple[str, bool, Cards, DeclarationTuple, str | None]  # the seat as written, the play
# Whole moves repeat too (`2: -`, `1: 8s`): each different move text is cut and read once.
_MOVES: dict[str, _Move] = {}


def _plain_move(text: str) -> _Move | None:
    """The seat number (as written) and play of a plain move (`2: 3s 3h`), or None if it is
    not one."""
    seat_text, colon, play_text = text.partition(": ")
    play = (_PLAYS.get(play_text) or _plain_play(play_text)) if colon else None
    if play is None:
        return None
    if len(_MOVES) >= _PLAYS_LIMIT:
        _MOVES.clear()
    move = _MOVES[text] = (seat_text, *play)
    return move


# ---------------------------------------------------------------------------------------------
# The hand builder


def bounded(text: str, bound: int) -> int | None:
    """A whole number (ASCII or any script's digits) no greater than `bound`, or None."""
    if not text.isdecimal() or len(text.lstrip("0")) > len(str(bound)):
        return None
    value = int(text)
    return value if value <= bound else None


def _unknown(digits: str) -> int | None:
    """The count of unknown cards after `?`: none means one."""
    return bounded(digits, MAX_UNKNOWN) if digits else 1


def _is_seat_ref(tokens: list[Token], i: int) -> bool:
    return tokens[i].kind in (WORD, STRING) and i + 1 < len(tokens) and tokens[i + 1].kind == COLON


class HandBuilder:
    """Collects one hand, statement by statement: its deal, trick and score lines."""

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
        self.deal_skipped = False  # a deal line was skipped (recovering readers only)
        # The unreadable cards of deal lines, each read as one unknown card for now (recovering
        # readers only): seat, line, column, text, and the card reader's error.
        self.unread: list[tuple[int, int, int, str, CardError]] = []

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

    def plain_line(self, line: str, number: int, game: ZhengFenBody) -> bool:
        """Read `line` if it is plain. False, with nothing changed, if the lexer is to read it
        instead: it is not plain, has a seat number that might end a name, or is an error."""
        if not line:
            return True
        first = line[0]
        if "1" <= first <= "6":
            return self._plain_trick(line, number)
        if line.startswith("deal "):
            return self._plain_deal(line, number)
        m = PLAIN_RE.fullmatch(line)
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
            move = _MOVES.get(text) or _plain_move(text)
            if move is None:
                return False
            seat_text, is_pass, cards, declarations, annotation = move
            seat = numbers.get(seat_text)
            if seat is None:
                return False
            made = _new_object(Move)  # Move(...), without the type call's own overhead
            _init_move(made, seat, is_pass, cards, declarations, annotation, [], False, None,
                       _new_tuple(Pos, (number, col)))  # fmt: skip
            moves.append(made)
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
        if self.deal and known & self._dealt():
            return False  # a card dealt twice: the lexer says where the second copy is
        self.deal[seat] = SeatDeal(known, unknown, _new_tuple(Pos, (number, 1)))
        return True

    def _plain_hand(self, m: re.Match[str], number: int, game: ZhengFenBody) -> bool:
        hand_number = int(m["hand"])
        shuffler = None if m["shuffler"] is None else self.seats.numbers.get(m["shuffler"], -1)
        if hand_number < 1 or shuffler == -1:
            return False
        game.start_hand(hand_number, shuffler, Pos(number, 1))
        return True

    def _plain_score(self, m: re.Match[str], number: int) -> bool:
        # A line that is an error (a second score line, a number too few) is the lexer's to
        # report, as any other: a recovering reader then skips the line, not the game.
        if self.score is not None:
            return False
        points_text, totals_text = m["points"], m["totals"]
        points = tuple(map(int, points_text.split(" ")))
        seats = len(self.seats.players)
        if len(points) != seats:
            return False
        totals = None
        if totals_text is not None:
            totals = tuple(map(int, totals_text.split(" ")))
            if len(totals) != seats:
                return False
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
            raise fail_at(
                keyword, "write a deal line as 'deal SEAT: cards', with ? per unknown card"
            )
        seat = self._deal_seat(rest[0])
        if seat is None:
            return  # skipped: its name is no player's
        self._new_deal(seat, rest[0].line, rest[0].col)
        known = unknown = 0
        earlier, twice = self._dealt(), None  # (the first card an earlier line gives)
        for token in rest[2:]:
            text = token.text
            if token.kind != WORD:
                raise fail_at(token, "a deal line lists cards and ? for unknown cards")
            if not text.strip(","):
                continue  # commas alone only separate cards
            if text.startswith("?"):
                count = _unknown(text[1:])
                if count is None:
                    raise fail_at(
                        token,
                        f"write ? for one unknown card or ?N for N (at most {MAX_UNKNOWN}), "
                        f"not {_clip(text)!r}",
                    )
                unknown += count
                continue
            if self.problems is None:
                mask, decls = _cards(token, text)
            else:  # an unreadable card costs only itself: one unknown card, for now
                mask, decls, bad = read_word_leniently(text)
                unknown += len(bad)
                for offset, part, exc in bad:
                    self.unread.append((seat, token.line, token.col + offset, part, exc))
            if decls:
                raise fail_at(token, "a deal has no joker declarations")
            if known & mask:
                raise fail_at(token, f"a card in {text!r} is dealt twice to seat {seat + 1}")
            known |= mask
            if twice is None and mask & earlier:
                twice = Pos(token.line, token.col)
        if unknown > MAX_UNKNOWN:
            raise fail_at(keyword, f"a seat is dealt at most {MAX_UNKNOWN} unknown cards")
        self.deal[seat] = SeatDeal(Cards(known), unknown, Pos(keyword.line, keyword.col), twice)

    def _dealt(self) -> int:
        """The cards the hand's deal lines read so far give."""
        given = 0
        for d in self.deal.values():
            given |= d.known
        return given

    def _deal_seat(self, token: Token) -> int | None:
        """The seat of a deal line; a recovering reader notes a name that names no seat and
        reads it as the one player it is close to, else skips the line (None)."""
        if self.problems is None:
            return self.seats.resolve(token)
        seat, problem = self.seats.leniently(token, "deal")
        if problem is not None:
            if seat is not None and seat in self.deal:  # that seat has its line already
                seat = None
            if seat is None:
                message = problem.message + "; the line is skipped"
                problem = replace(problem, message=message)
                self.deal_skipped = True
            self.problems.append(problem)
        return seat

    def score_line(self, tokens: list[Token], index: int) -> None:
        keyword = tokens[index]
        self._score_allowed(keyword.line, keyword.col)
        rest = self._take_comments(tokens[index + 1 :])
        split = next((i for i, t in enumerate(rest) if plain_word(t.text) == "total"), len(rest))
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
                raise fail_at(token, f"expected a score, a whole number, not {_clip(token.text)!r}")
            value = bounded(token.text, MAX_SCORE)
            if value is None:
                raise fail_at(token, f"a score is at most {MAX_SCORE:,}")
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
            raise fail_at(
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
        noted = len(self.problems)
        j = self._recovering_move(tokens, i, moves)
        if len(self.problems) > noted:  # what the record wrote, for the audit's `read` edits
            written = _written_move(tokens[i:j])
            self.problems[noted:] = [replace(p, written=written) for p in self.problems[noted:]]
        return j

    def _recovering_move(self, tokens: list[Token], i: int, moves: list[Move]) -> int:
        assert self.problems is not None  # only a recovering reader comes here
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
            return self.seats.named(token)
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
                raise fail_at(token, "a ':' follows a seat: a number or a player name")
            elif kind == STRING:
                if not disputed or note is not None or versions:
                    raise fail_at(token, 'quoted text here can only be the note after "disputed"')
                note = text
            elif plain_word(text) == "disputed":
                if disputed or not played:
                    raise fail_at(token, "'disputed' comes once, after the cards of a move")
                disputed = True
            elif disputed:
                if plain_word(text) == "or":
                    if versions:
                        versions[-1].close()
                    versions.append(_Version(token))
                elif versions:
                    versions[-1].add(token)
                else:
                    raise fail_at(
                        token,
                        "after 'disputed' only a quoted note, 'or' versions and comments may "
                        "follow",
                    )
            else:
                body, ann = split_annotation(text)
                if not body.strip(","):
                    body = ""  # commas alone only separate cards
                elif played and len(body) == 2 and plain_word(body) == "or":
                    raise fail_at(
                        token, "'or' gives another version of a disputed move: write 'disputed' "
                        "before it (2: Qc disputed or Kc)",
                    )  # fmt: skip
                if body and annotation is not None:
                    raise fail_at(token, "the annotation comes after the last card of the move")
                if body.casefold() in PASS_WORDS:
                    if played:
                        raise fail_at(token, "a pass has no cards")
                    is_pass = played = True
                elif body:
                    if is_pass:
                        raise fail_at(token, "a pass has no cards")
                    mask, found = self._move_cards(token, body, seat_token)
                    if cards & mask:
                        raise fail_at(token, f"a card in {body!r} is given twice in this move")
                    cards |= mask
                    decls.extend(found)
                    played = True
                if ann is not None:
                    if not played:
                        raise fail_at(token, "an annotation follows the cards of a move")
                    if annotation is not None:
                        raise fail_at(token, "a move has one annotation")
                    if ann not in ANNOTATIONS:
                        raise fail_at(
                            token,
                            f"unknown annotation {_clip(ann)!r}: "
                            f"use one of {' '.join(ANNOTATIONS)}",
                        )
                    annotation = ann
        if not played:
            raise fail_at(
                seat_token, f"seat {seat + 1} has no cards: write the cards, or - to pass"
            )
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
                raise fail_at(at or _twice(versions, move), problem)
        moves.append(move)
        return i

    def finish(self) -> Hand:
        deal = None
        if self.unread:
            self._read_unread()
        if self.deal_skipped:
            self._complete_deal()
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

    def _read_unread(self) -> None:
        """Note each unreadable card of the deal lines (a `dealt` problem): it is the one card
        that fits what can be read of it and no deal line gives (if several do, those its seat
        plays), then read as that card, else it stays an unknown card."""
        assert self.problems is not None  # only a recovering reader keeps unreadable cards
        given = 0
        for d in self.deal.values():
            given |= d.known
        for seat, line, col, part, exc in self.unread:
            options = deal_typo_options(part, given, self.tricks, seat)
            texts = [card_str(c) for c in options]
            problem, read = dealt_problem(exc.message, line, col, part, exc.offset, texts)
            self.problems.append(problem)
            dealt = self.deal.get(seat)
            if read and dealt is not None and dealt.unknown:
                given |= 1 << options[0]
                known = Cards(dealt.known | 1 << options[0])
                self.deal[seat] = SeatDeal(known, dealt.unknown - 1, dealt.pos, dealt.twice)

    def _complete_deal(self) -> None:
        """After a deal line was skipped: one seat left without a line was dealt the cards the
        others were not (all unknown); with more than one, the deal is rebuilt from the plays."""
        n = len(self.seats.players)
        missing = [s for s in range(n) if s not in self.deal]
        size = DECK_SIZE - sum(d.size for d in self.deal.values())
        if len(missing) == 1 and 0 < size <= MAX_UNKNOWN:
            self.deal[missing[0]] = SeatDeal(NO_CARDS, size)
        elif missing:
            self.deal.clear()


def deal_typo_options(part: str, given: int, tricks: list[Trick], seat: int) -> list[int]:
    """The cards an unreadable card `part` of `seat`'s deal may be: those that fit what can be
    read of it (a joker: that it is close to the joker's spelling, zfrec.record.problems) and
    no deal gives (`given`), and if several do, those the seat plays in `tricks`."""
    options = typo_candidates(part, FULL_DECK & ~given)
    if len(options) > 1:
        played = 0
        for trick in tricks:
            for move in trick.moves:
                if move.seat == seat:
                    played |= move.cards
        options = [c for c in options if played >> c & 1] or options
    return options


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
                raise fail_at(token, "a pass has no cards")
            self.is_pass = True
            return
        if self.is_pass:
            raise fail_at(token, "a pass has no cards")
        if body[-1] in "!?":
            raise fail_at(
                token, "an annotation belongs to the recorded play, not to an 'or' version"
            )
        mask, found = _cards(token, body)
        if self.cards & mask:
            raise fail_at(token, f"a card in {body!r} is given twice in this version")
        self.cards |= mask
        self.decls.extend(found)

    def close(self) -> None:
        if not self.cards and not self.is_pass:
            raise fail_at(self.token, "'or' needs a play after it: the cards, or - for a pass")

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


def _written_move(tokens: list[Token]) -> str:
    """A move as the record wrote it, from its tokens (the seat, the colon, the words after):
    `zhou wie: 9c`. Comments are left out; quoted text keeps its quotes."""
    seat, rest = tokens[0], tokens[2:]
    words = [f'"{t.text}"' if t.kind == STRING else t.text for t in rest if t.kind != COMMENT]
    return _clip(f"{seat.text}: {' '.join(words)}".rstrip(), 200)


def _clip(text: str, width: int = 40) -> str:
    """`text` for a message: long words (hostile input) are cut with an ellipsis."""
    return text if len(text) <= width else text[:width] + "…"


def _cards(token: Token, text: str) -> tuple[int, DeclarationTuple]:
    try:
        return read_word(text)
    except CardError as exc:
        raise SyntaxFail(exc.message, token.line, token.col + exc.offset) from None
