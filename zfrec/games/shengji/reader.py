"""A complete .zfn reader of Sheng ji games: the header's Sheng ji tags (Players for 4 to 8,
Rules with Sheng ji's presets and options, Result as final levels and winners) and a streaming
loop over lines, one game per tag block, an error costing only its game. The round statements
are `zfrec.games.shengji.zfn.SjBody`'s, which the generic reader (zfrec.record.zfn) also uses
through the kind's `body_reader` hook.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from zfrec.errors import Location, NotationError, RulesError
from zfrec.games.shengji.records import MAX_PLAYERS, MIN_PLAYERS, SjMatch, SjMatchResult
from zfrec.games.shengji.rules import PRESETS, parse_level, parse_sj_option, sj_preset
from zfrec.games.shengji.zfn import SjBody, _fail
from zfrec.record.lexer import COMMENT, TAG_OPENERS, Lexer, SyntaxFail, Token, excerpt
from zfrec.record.model import Pos, name_key, name_problem, plain_names
from zfrec.record.seatrefs import Seats
from zfrec.record.zfn_header import Header

__all__ = ["SjGameBuilder", "is_shengji_header", "iter_sj_games", "parse_sj"]

_PLAYER_SPLIT_RE = re.compile(r"[,，、]")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # every control character but tab
_WINNERS_RE = re.compile(r"\bwinners?\b", re.IGNORECASE)


def is_shengji_header(header: Header) -> bool:
    """Whether the tags read so far say `[Game "shengji"]` (Zheng Fen is the default)."""
    raw = getattr(header, "raw", {})
    if "game" in raw:
        return bool(raw["game"][0].strip().casefold() == "shengji")
    return any(
        n.casefold() == "game" and v.strip().casefold() == "shengji" for n, v in header.extra
    )


class SjGameBuilder:
    """Collects one Sheng ji game, statement by statement."""

    hand = None  # Zheng Fen's reader asks for the hand in progress (its plain-line fast path)

    def __init__(self, header: Header, filename: str | None, comments: list[str],
                 pos: Pos | None) -> None:  # fmt: skip
        self.header = header
        self.filename = filename
        self.comments = list(comments)
        self.pos = pos
        self.body: SjBody | None = None
        self.seats: Seats | None = None
        self.match: SjMatch | None = None

    # the header ---------------------------------------------------------------------------------

    def tag_line(self, line: str, number: int, lexer: Lexer) -> None:
        if self.pos is None:
            self.pos = Pos(number, len(line) - len(line.lstrip()) + 1)
        end = self.header.add_line(line, number)
        for token in lexer.feed(line, number, end) or ():
            if token.kind != COMMENT:
                raise _fail(token, "only a comment may follow a tag on its line")
            self.comments.append(token.text)

    def statement(self, tokens: list[Token]) -> None:
        first = next((t for t in tokens if t.kind != COMMENT), None)
        if first is None:
            texts = [t.text for t in tokens]
            if self.body is None or not self.body.comments(texts):
                self.comments.extend(texts)
            return
        if self.body is None:
            self.match = _header_match(self.header, first.line, first.col)
            self.seats = Seats(self.match.players)
            self.body = SjBody(self.seats, None, self.match.preset,
                               self.match.options)  # fmt: skip
        self.body.statement(tokens)

    # statements ---------------------------------------------------------------------------------

    def finish(self) -> SjMatch:
        line, col = (self.pos.line, self.pos.col) if self.pos else (1, 1)
        if self.match is None:
            self.match = _header_match(self.header, line, col)
        m = self.match
        m.rounds = self.body.close() if self.body is not None else []
        if self.seats is not None:
            m.name_marks = m.name_marks + self.seats.copied
        m.comments = self.comments
        m.pos = self.pos
        m.source = self.filename
        return m


def _header_match(header: Header, line: int, col: int) -> SjMatch:
    """The header's values for a Sheng ji game; SyntaxFail at the tag that is wrong."""
    raw = header.raw
    if "players" not in raw:
        raise SyntaxFail('the game has no [Players "..."] tag (the tags of one game stand on '
                         "consecutive lines)", line, col)  # fmt: skip
    value, ppos = raw["players"]
    written = [p.strip() for p in _PLAYER_SPLIT_RE.split(value)]
    players, marks = plain_names(written, ppos, value)
    problem = None
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        problem = f"Sheng ji has 4 to 8 players, not {len(players)}"
    keys: set[str] = set()
    for name in players:
        problem = problem or name_problem(name)
        if not problem and name_key(name) in keys:
            problem = f"player name {name!r} is given twice (names are compared ignoring case)"
        keys.add(name_key(name))
    if problem:
        raise SyntaxFail(problem, *ppos)
    if "target" in raw:
        raise SyntaxFail("Sheng ji has no target: a match ends when a team wins at A",
                         *raw["target"][1])  # fmt: skip
    preset, options = "bashifen", dict[str, Any]()
    if "rules" in raw:
        preset, options = _rules(*raw["rules"], len(players))
    else:
        _check_rules(preset, {}, len(players), Pos(line, col))
    extra = [(n, v) for n, v in header.extra if n.casefold() != "game"]
    result = _result(*raw["result"], players) if "result" in raw else None
    return SjMatch(
        players, event=_text(raw, "event"), site=_text(raw, "site"), date=_text(raw, "date"),
        extra_tags=extra, preset=preset, options=options, result=result,
        date_pos=header.date_pos, empty_rules_pos=header.empty_rules_pos, name_marks=marks,
    )  # fmt: skip


def _text(raw: dict[str, tuple[str, Pos]], key: str) -> str | None:
    return raw[key][0] if key in raw else None


def _rules(value: str, pos: Pos, players: int) -> tuple[str, dict[str, Any]]:
    words = value.replace(", ", " ").split()
    preset = "bashifen"
    if words and "=" not in words[0]:
        preset = words.pop(0).casefold()
        if preset not in PRESETS:
            raise SyntaxFail(f"unknown Sheng ji preset {preset[:40]!r}: presets are "
                             + ", ".join(PRESETS), *pos)  # fmt: skip
    options: dict[str, Any] = {}
    for word in words:
        at = (pos.line, pos.col + max(value.find(word), 0))
        try:
            name, _ = parse_sj_option(word)
        except RulesError as exc:
            raise SyntaxFail(exc.message, *at) from None
        options[name] = word.partition("=")[2].strip()
    return preset, _check_rules(preset, options, players, pos)


def _check_rules(preset: str, written: dict[str, Any], players: int, pos: Pos) -> dict[str, Any]:
    """The written options in canonical spelling; SyntaxFail when the rules cannot be."""
    extra = {"players": players} if preset == "zhaopengyou" and "players" not in written else {}
    try:
        rules = sj_preset(preset, **{**extra, **written})
    except RulesError as exc:
        raise SyntaxFail(exc.message, *pos) from None
    if rules.players != players:
        raise SyntaxFail(f"the rules are for {rules.players} players, but {players} are named",
                         *pos)  # fmt: skip
    canonical = rules.options()
    return {k: canonical[k] for k in written}


def _result(value: str, pos: Pos, players: list[str]) -> SjMatchResult:
    m = _WINNERS_RE.search(value)
    words = (value[: m.start()] if m else value).split()
    usage = (f"Result gives the final level of each of the {len(players)} seats in order, "
             "then optionally 'winners SEAT, SEAT'")  # fmt: skip
    if len(words) != len(players):
        raise SyntaxFail(usage, *pos)
    try:
        levels = tuple(parse_level(w) for w in words)
    except RulesError as exc:
        raise SyntaxFail(f"{exc.message}; {usage}", *pos) from None
    winners: list[int] = []
    if m:
        from zfrec.errors import SeatError
        from zfrec.record.model import seat_of

        for part in _PLAYER_SPLIT_RE.split(value[m.end() :]):
            refs = part.split() if all(w.isdecimal() for w in part.split()) else [part.strip()]
            for ref in refs:
                try:
                    seat = seat_of(players, ref)
                except SeatError as exc:
                    raise SyntaxFail(exc.message, *pos) from None
                if seat in winners:
                    raise SyntaxFail(f"winner {ref[:40]!r} is given twice", *pos)
                winners.append(seat)
        if not winners:
            raise SyntaxFail("'winners' needs seats: numbers or player names", *pos)
    return SjMatchResult(levels, tuple(winners), pos)


# a complete reader ------------------------------------------------------------------------------


def iter_sj_games(
    lines: Iterable[str], filename: str | None = None
) -> Iterator[SjMatch | NotationError]:
    """Each Sheng ji game of a .zfn stream, or the NotationError that spoiled it.

    A game starts at a tag line that does not follow another tag line, as in Zheng Fen; an
    error costs its game only and reading resumes at the next game's tags.
    """
    lexer = Lexer()
    game: SjGameBuilder | None = None
    src: list[str] = []
    first = 1
    count = 0
    prev_tag = skipping = False
    pending: list[str] = []

    def error(fail: SyntaxFail) -> NotationError:
        i = fail.line - first
        source = src[i] if 0 <= i < len(src) else ""
        where = Location(filename, fail.line, fail.col, game=count or None)
        return NotationError(f"{fail.message}\n{excerpt(source, fail.line, fail.col)}", where)

    def finish() -> Iterator[SjMatch | NotationError]:
        nonlocal game
        try:
            if lexer.in_comment:
                raise lexer.unterminated()
            if game is not None:
                yield game.finish()
        except SyntaxFail as fail:
            yield error(fail)
        game = None
        lexer.reset()

    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if number == 1 and line.startswith("\ufeff"):
            line = line[1:]
        is_tag = line.lstrip().startswith(TAG_OPENERS)
        new_game = is_tag and not prev_tag
        prev_tag = is_tag
        if skipping and not new_game:
            continue
        skipping = False
        try:
            if new_game:
                yield from finish()
                src, first = [], number
                count += 1
                game = SjGameBuilder(Header(), filename, pending, None)
                pending = []
            src.append(line)
            control = _CONTROL_RE.search(line)
            if control is not None:
                raise SyntaxFail("a control character is not allowed: a record is plain text",
                                 number, control.start() + 1)  # fmt: skip
            if is_tag:
                if lexer.in_comment:
                    raise lexer.unterminated()
                assert game is not None
                game.tag_line(line, number, lexer)
            elif line or lexer.in_comment:
                tokens = lexer.feed(line, number)
                if tokens:
                    if game is not None:
                        game.statement(tokens)
                    elif all(t.kind == COMMENT for t in tokens):
                        pending.extend(t.text for t in tokens)
                    else:
                        raise _fail(tokens[0], 'a game starts with its tags, e.g. '
                                    '[Game "shengji"]')  # fmt: skip
        except SyntaxFail as fail:
            yield error(fail)
            game = None
            lexer.reset()
            skipping = True
    if not skipping:
        yield from finish()


def parse_sj(text: str, filename: str | None = None) -> list[SjMatch]:
    """Every Sheng ji game of a .zfn text; raises the first NotationError."""
    from zfrec.record.zfn import lines_of

    out = []
    for item in iter_sj_games(lines_of(text), filename):
        if isinstance(item, NotationError):
            raise item
        out.append(item)
    return out
