"""The tag header of a .zfn game: `[Name "value"]` lines, read and written.

Tag values are checked only once the header is complete (at the first hand), because `Result`
refers to seats and so needs `Players`, whatever order the tags come in.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from zfrec.errors import RulesError, SeatError
from zfrec.games import (
    DEFAULT_KIND,
    GameKind,
    find_kind,
    kind_of_preset,
    kind_problem,
    kind_suggestions,
)
from zfrec.record.lexer import QUOTES, SyntaxFail, closing_quote, escape_string, unescape
from zfrec.record.model import (
    DEFAULT_PRESET,
    DEFAULT_TARGET,
    KNOWN_TAGS,
    MAX_SCORE,
    MAX_TARGET,
    Game,
    NameMark,
    Pos,
    Result,
    RuleValue,
    extra_tag_problem,
    plain_names,
    players_problem,
    seat_of,
)
from zfrec.record.problems import Fix, ReadProblem

# (the brackets also full-width, `［Players "..."］`, as Chinese keyboards type them)
_NAME_RE = re.compile(r"\s*[\[［]\s*([A-Za-z][A-Za-z0-9_]*)\s*")
_CLOSE_RE = re.compile(r"\s*[\]］]")
_PLAYER_SPLIT_RE = re.compile(r"[,，、]")
_WINNERS_RE = re.compile(r"\bwinners?\b", re.IGNORECASE)


class Header:
    """The tags of one game as they are read, then their checked values."""

    def __init__(self) -> None:
        self.raw: dict[str, tuple[str, Pos]] = {}  # casefolded known tag -> (value, value pos)
        self.extra: list[tuple[str, str]] = []
        self._extra_seen: set[str] = set()
        self.event: str | None = None
        self.site: str | None = None
        self.date: str | None = None
        self.kind: GameKind = find_kind(DEFAULT_KIND)
        self.preset = DEFAULT_PRESET
        self.options: dict[str, RuleValue] = {}
        self.target = DEFAULT_TARGET
        self.result: Result | None = None
        self.name_marks: list[NameMark] = []  # players read without unseen characters (ZF008)
        # a recovering reader's (`GameBuilder`): a Rules word it can read past goes here
        self.problems: list[ReadProblem] | None = None

    @property
    def date_pos(self) -> Pos | None:
        """Where the Date tag's value was written (for a date that is no day, ZF006)."""
        return self.raw["date"][1] if "date" in self.raw else None

    @property
    def empty_rules_pos(self) -> Pos | None:
        """Where an empty `[Rules ""]` was written: the default preset is used (ZF007)."""
        rules = self.raw.get("rules")
        return rules[1] if rules is not None and not _rule_words(rules[0]) else None

    def add_line(self, line: str, number: int) -> int:
        """Read the tag on `line`; return the index where the rest of the line (comments) starts."""
        m = _NAME_RE.match(line)
        if m is None:
            col = len(line) - len(line.lstrip()) + 2
            raise SyntaxFail("a tag looks like [Name \"value\"]: name it after '['", number, col)
        name, pos = m.group(1), m.end()
        if pos >= len(line) or line[pos] not in QUOTES:
            raise SyntaxFail('the tag value must be quoted: [Name "value"]', number, pos + 1)
        end = closing_quote(line, pos + 1)
        if end < 0:
            raise SyntaxFail('the tag value is never closed: add the closing "', number, pos + 1)
        close = _CLOSE_RE.match(line, end + 1)
        if close is None:
            raise SyntaxFail("']' closes the tag", number, end + 2)
        text = unescape(line[pos + 1 : end])
        key = name.casefold()
        name_col = m.start(1) + 1
        if key in KNOWN_TAGS:
            if key in self.raw:
                raise SyntaxFail(f"tag {KNOWN_TAGS[key]} is given twice", number, name_col)
            self.raw[key] = (text, Pos(number, pos + 2))
        else:
            problem = extra_tag_problem(name, self._extra_seen)
            if problem:
                raise SyntaxFail(problem, number, name_col)
            self.extra.append((name, text))
        return close.end()

    def finish(self, line: int, col: int) -> list[str]:
        """Check the tag values; return the players. (line, col) is where Players was needed."""
        if "game" in self.raw:
            self._game(*self.raw["game"])
        self.event = self._text("event")
        self.site = self._text("site")
        self.date = self._text("date")
        if "players" not in self.raw:
            raise SyntaxFail(
                'the game has no [Players "..."] tag '
                "(the tags of one game stand on consecutive lines)",
                line,
                col,
            )
        value, pos = self.raw["players"]
        written = [name.strip() for name in _PLAYER_SPLIT_RE.split(value)]
        players, self.name_marks = plain_names(written, pos, value)
        problem = players_problem(players, self.kind.min_players, self.kind.max_players)
        if problem:
            raise SyntaxFail(problem, pos.line, pos.col)
        stated_target, lost = None, None
        try:
            stated_target = self._target()
        except SyntaxFail as fail:
            if self.problems is None:
                raise
            lost = fail  # costs the game, once the rules' findings are noted too
        if "rules" in self.raw:
            self._rules(*self.raw["rules"], stated_target)
        if lost is not None:
            raise lost
        if "result" in self.raw:
            self.result = _result(*self.raw["result"], players, self.kind)
        return players

    def _text(self, key: str) -> str | None:
        return self.raw[key][0] if key in self.raw else None

    def _target(self) -> int | None:
        if "target" not in self.raw:
            return None
        value, pos = self.raw["target"]
        if self.kind.default_target is None:
            raise SyntaxFail(f"a {self.kind.title} record has no Target tag", *_at(pos))
        problem = _target_problem(value)
        if problem:
            raise SyntaxFail(problem, *_at(pos))
        self.target = int(value)
        return self.target

    def _game(self, value: str, pos: Pos) -> None:
        """`[Game "shengji"]`: the kind of game, which reads the rules and the body."""
        name = value.strip()
        problem = kind_problem(name)
        if problem:
            # a recovering reader reads a misspelt name as the one game it is close to, as it
            # reads a misspelt preset: the record is judged as that game, the error kept
            near = kind_suggestions(name)
            where = Pos(pos.line, pos.col + max(value.find(name), 0))
            fix = Fix(where.line, where.col, where.col + len(name), near[0]) if near else None
            if len(near) != 1 or not self._read_past(f"{problem} (read as {near[0]})", where,
                                                     fix):  # fmt: skip
                raise SyntaxFail(problem, *_at(pos))
            name = near[0]
        self.kind = find_kind(name)
        self.preset = self.kind.default_preset
        if self.kind.default_target is not None:
            self.target = self.kind.default_target

    def _rules(self, value: str, pos: Pos, stated_target: int | None) -> None:
        kind = self.kind
        words = _rule_words(value)
        if words and "=" not in words[0]:
            written = words.pop(0)
            name = written.casefold()
            if name not in kind.presets:
                presets = ", ".join(kind.presets)
                message = f"unknown preset {_clip(name)!r}: presets are {presets}"
                other = kind_of_preset(name)
                # a close match first (one letter off), else the looser ones to suggest
                near = difflib.get_close_matches(name, list(kind.presets), n=2, cutoff=0.8) or (
                    difflib.get_close_matches(name, list(kind.presets), n=2, cutoff=0.6)
                )
                if kind.name == DEFAULT_KIND and name in other.presets:  # no [Game] tag?
                    message += (f" ({name} is {other.title}'s: write [Game \"{other.name}\"] "
                                "first)")  # fmt: skip
                elif near:
                    message += f"; did you mean {' or '.join(near)}?"
                where = Pos(pos.line, pos.col + max(value.find(written), 0))
                # the suggestion, for an editor, as a misspelt name's
                fix = None
                if near:
                    fix = Fix(where.line, where.col, where.col + len(written), near[0],
                              tuple(near[1:]))  # fmt: skip
                said = f"{message} (read as {near[0]})" if near else message
                if len(near) != 1 or not self._read_past(said, where, fix):
                    raise SyntaxFail(message, *_at(pos))
                name = near[0]  # the one preset meant, as a misspelt player's name is read
            self.preset = name
        for word in words:
            at = (pos.line, pos.col + max(value.find(word), 0))
            try:
                option, option_value = kind.parse_option(word)
                if option != "target":  # (the value itself as the engine will take it)
                    kind.check_rules(self.preset, {**self.options, option: option_value})
            except RulesError as exc:
                # a recovering reader judges on without the option: the preset's own value
                said = f"{exc.message} (judged with the preset's value of the option)"
                if not self._read_past(said, Pos(*at)):
                    raise SyntaxFail(exc.message, *at) from None
                continue
            if option == "target":
                problem = _target_problem(str(option_value))
                if problem:
                    raise SyntaxFail(problem, *at)
                # The target has its own tag; take it from Rules only if that tag is absent.
                if stated_target is not None and stated_target != option_value:
                    raise SyntaxFail(
                        f"Rules says target={option_value} but the Target tag says {stated_target}",
                        *_at(pos),
                    )
                self.target = int(option_value)
            else:
                self.options[option] = option_value

    def _read_past(self, message: str, pos: Pos, fix: Fix | None = None) -> bool:
        """Note a Rules word a recovering reader reads past (False: a strict reader)."""
        if self.problems is None:
            return False
        self.problems.append(ReadProblem("name", message, (pos.line, pos.col),
                                         (pos.col, pos.col), fix=fix))  # fmt: skip
        return True


def _rule_words(value: str) -> list[str]:
    """The words of `[Rules]`, split at spaces and commas; a comma inside an option's value
    (`must_defend=5,10,K,A`, as the writer spells it) does not split it: a piece without `=`
    glued by a comma to an option word goes on its value, also with spaces after the comma
    (`must_defend=5, 10, K, A`)."""
    words: list[str] = []
    comma = False  # the text before this chunk ended with a comma
    for chunk in value.split():
        for i, piece in enumerate(chunk.split(",")):
            if (i or comma) and piece and "=" not in piece and words and "=" in words[-1]:
                words[-1] += "," + piece
            elif piece:
                words.append(piece)
        comma = chunk.endswith(",")
    return words


def _target_problem(value: str) -> str | None:
    """Why `value` is not a target (a whole number from 1 to MAX_TARGET), or None."""
    text = value.strip()
    if not text.isdecimal():
        return f"the target is a positive whole number, not {_clip(value)!r}"
    if len(text) > 20 or int(text) > MAX_TARGET:
        return f"the target is at most {MAX_TARGET:,}"
    if int(text) < 1:
        return f"the target is a positive whole number, not {_clip(value)!r}"
    return None


def _at(pos: Pos) -> tuple[int, int]:
    return pos.line, pos.col


def _result(value: str, pos: Pos, players: list[str], kind: GameKind) -> Result:
    m = _WINNERS_RE.search(value)
    score_text = value[: m.start()] if m else value
    words = score_text.split()
    scores = [kind.result_score(w) for w in words]
    if len(words) != len(players) or None in scores:
        raise SyntaxFail(
            f"Result gives the final {kind.result_word} of each of the {len(players)} seats in "
            "order, "
            "then optionally 'winner SEAT' or 'winners SEAT, SEAT'",
            *_at(pos),
        )
    if any(s is None or s > MAX_SCORE for s in scores):
        raise SyntaxFail(f"a score is at most {MAX_SCORE:,}", *_at(pos))
    winners: list[int] = []
    if m:
        for part in _PLAYER_SPLIT_RE.split(value[m.end() :]):
            refs = part.split() if all(w.isdecimal() for w in part.split()) else [part.strip()]
            for ref in refs:
                seat = _seat(ref, players, pos)
                if seat in winners:
                    raise SyntaxFail(f"winner {_clip(ref)!r} is given twice", *_at(pos))
                winners.append(seat)
        if not winners:
            raise SyntaxFail("'winner' needs a seat: a number or a player name", *_at(pos))
    return Result(tuple(s for s in scores if s is not None), tuple(winners), pos)


def _seat(ref: str, players: list[str], pos: Pos) -> int:
    try:
        return seat_of(players, ref)
    except SeatError as exc:
        raise SyntaxFail(exc.message, *_at(pos)) from None


def _clip(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[:width] + "…"


def format_header(game: Game) -> Iterator[str]:
    """The canonical tag lines: standard tags in a fixed order, then the others as given."""

    def tag(name: str, value: str) -> str:
        return f'[{name} "{escape_string(value)}"]'

    kind = find_kind(game.kind)
    if kind.name != DEFAULT_KIND:  # a record of the default kind reads as before there were two
        yield tag("Game", kind.name)
    for name, value in (("Event", game.event), ("Site", game.site), ("Date", game.date)):
        if value is not None:
            yield tag(name, value)
    yield tag("Players", ", ".join(game.players))
    yield tag("Rules", format_rules(game.preset, game.options, kind))
    if kind.default_target is not None:
        yield tag("Target", str(game.target))
    if game.result is not None:
        yield tag("Result", format_result(game.result, kind))
    for name, value in game.extra_tags:
        yield tag(name, value)


def format_rules(preset: str, options: dict[str, RuleValue], kind: GameKind | None = None) -> str:
    """The `[Rules]` tag's value: the preset, then its options in the canonical order.

    >>> format_rules("pagat", {"target": 300, "jokers_wild": False})
    'pagat jokers_wild=false target=300'
    """
    names = (kind or find_kind(DEFAULT_KIND)).option_order()
    order = [o for o in names if o in options] + sorted(set(options) - set(names))
    parts = [preset]
    for name in order:
        value = options[name]
        parts.append(f"{name}={str(value).lower() if isinstance(value, bool) else value}")
    return " ".join(parts)


def format_result(result: Result, kind: GameKind | None = None) -> str:
    """The `result` line's text: the final scores, then the winners' seat numbers (1-based).

    >>> format_result(Result((510, 120, 300), (0,)))
    '510 120 300 winner 1'
    """
    text = " ".join(map((kind or find_kind(DEFAULT_KIND)).result_score_text, result.scores))
    if result.winners:
        word = "winner" if len(result.winners) == 1 else "winners"
        text += f" {word} " + ", ".join(str(seat + 1) for seat in result.winners)
    return text
