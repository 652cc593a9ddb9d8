"""Where the parts of a JSON record stand in its text: line and column, as the .zfn reader gives.

`json` keeps no positions, and finding them costs a second pass over the text, so a record read
for the validator (`iter_json_text(..., recover=True)`) gets a `Game.locate` that finds them
only when asked: `zfrec.validate.validate` asks for a game that has diagnostics, so that they,
and the causes they name, have a line and a column. A part's position is that of the `{` that
opens its object: a move, a trick, a hand, its score, a seat's deal, the result, the game.

    >>> text = '{"games": [\\n  {"players": ["A", "B", "C"],\\n   "hands": [{"number": 1}]}]}'
    >>> locator = Locator(text)
    >>> locator.offsets(0)[("hands", 0)], locator.position(locator.offsets(0)[("hands", 0)])
    (56, (3, 14))
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import replace
from typing import Any

from zfrec.record.model import Game, Pos
from zfrec.record.problems import ReadProblem

_CARDS_KEY = re.compile(r'"cards"\s*:\s*"')
_DECODER = json.JSONDecoder()
# A JSON token: a string, a punctuation mark, or a literal (number, true, false, null).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')

JsonPath = tuple[str | int, ...]


class Locator:
    """Positions in one JSON document of records: each game's span is found once (by the C
    decoder, which skips a game as fast as `json.loads` reads it), a game's parts on demand."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._spans: list[tuple[int, int]] | None = None
        self._newlines: list[int] | None = None
        self._last: tuple[int, dict[JsonPath, int]] | None = None

    def spans(self) -> list[tuple[int, int]]:
        """Where each game's object starts and ends: the `games` of a wrapper, or the one game."""
        if self._spans is None:
            try:
                self._spans = _game_spans(self.text)
            except (ValueError, IndexError, RecursionError):
                self._spans = []  # (the text was read before: this does not happen)
        return self._spans

    def offsets(self, index: int) -> dict[JsonPath, int]:
        """The offset of every object in game `index`, by its path inside the game. The last
        game's are kept: a repair search validates edited copies of one game again and again."""
        if self._last is not None and self._last[0] == index:
            return self._last[1]
        spans = self.spans()
        found = _object_offsets(self.text, *spans[index]) if index < len(spans) else {}
        self._last = (index, found)
        return found

    def position(self, offset: int) -> tuple[int, int]:
        """(line, column) of an offset, both 1-based, the column in characters."""
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_left(self._newlines, offset)
        start = self._newlines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1

    def fill(self, index: int, game: Game) -> None:
        """Give game `index` (as read from this text) the positions of its parts."""
        found = self.offsets(index)

        def at(*path: str | int) -> Pos | None:
            offset = found.get(path)
            return None if offset is None else Pos(*self.position(offset))

        game.pos = at()
        if game.result is not None:
            game.result = replace(game.result, pos=at("result"))
        for h, hand in enumerate(game.hands):
            hand.pos = at("hands", h)
            if hand.deal is not None:
                hand.deal = tuple(
                    replace(d, pos=at("hands", h, "deal", s)) for s, d in enumerate(hand.deal)
                )
            if hand.score is not None:
                hand.score = replace(hand.score, pos=at("hands", h, "score"))
            for t, trick in enumerate(hand.tricks):
                trick.pos = at("hands", h, "tricks", t)
                for m, move in enumerate(trick.moves):
                    move.pos = at("hands", h, "tricks", t, "moves", m)
        if game.rounds:  # another kind's body (GameKind.locate_json)
            from zfrec.games import kind_of

            kind_of(game).locate_json(game, at)
        if game.problems:
            game.problems = [self._placed(p, found) for p in game.problems]

    def _placed(self, problem: ReadProblem, found: dict[JsonPath, int]) -> ReadProblem:
        """A card problem of a `cards` string given its place: the card's own columns in the
        string where it is written without escapes, else the `{` of the string's object."""
        offset = None if problem.path is None else found.get(problem.path)
        if offset is None:
            return problem
        text = self.text
        key = _CARDS_KEY.search(text, offset)
        start = key.end() if key is not None and key.start() < text.find("}", offset) else None
        if start is not None:
            try:
                value, end = _DECODER.raw_decode(text, start - 1)
            except ValueError:
                start = None
            else:
                start = start if text[start : end - 1] == value else None  # escapes: no columns
        if start is None:
            line, col = self.position(offset)
            return replace(problem, pos=(line, col), span=(col, col + 1), fix=None, path=None)
        line, col = self.position(start)
        fix = problem.fix
        if fix is not None:
            fix = replace(fix, line=line, col=col + fix.col, end_col=col + fix.end_col)
        first, last = problem.span
        return replace(problem, pos=(line, col + problem.pos[1]), span=(col + first, col + last),
                       fix=fix, path=None)  # fmt: skip


def _skip(text: str, i: int) -> int:
    """The first offset from `i` on that is not JSON whitespace."""
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _game_spans(text: str) -> list[tuple[int, int]]:
    decoder = json.JSONDecoder()
    i = _skip(text, 0)
    if text[i] != "{":
        return []
    start = i
    i += 1
    spans: list[tuple[int, int]] | None = None
    while True:
        i = _skip(text, i)
        if text[i] == "}":
            break
        key, i = decoder.raw_decode(text, i)
        i = _skip(text, _skip(text, i) + 1)  # past the ':'
        if key == "games" and text[i] == "[":
            spans = []  # (the last "games" counts, as for json.loads)
            i += 1
            while True:
                i = _skip(text, i)
                if text[i] == "]":
                    i += 1
                    break
                _, end = decoder.raw_decode(text, i)
                spans.append((i, end))
                i = _skip(text, end)
                if text[i] == ",":
                    i += 1
        else:
            _, i = decoder.raw_decode(text, i)
        i = _skip(text, i)
        if text[i] == ",":
            i += 1
    if spans is None:  # one game, not a wrapper
        return [(start, len(text))]
    return spans


def _object_offsets(text: str, start: int, end: int) -> dict[JsonPath, int]:
    """The offset of the `{` of every object (and the `[` of every array) in the JSON value at
    text[start:end], by path."""
    out: dict[JsonPath, int] = {}
    path: list[Any] = []
    kinds: list[str] = []
    want_key = False
    for m in _TOKEN.finditer(text, start, end):
        c = text[m.start()]
        if c == ":":
            continue
        if c == ",":
            if kinds[-1] == "[":
                path[-1] += 1
            else:
                want_key = True
            continue
        if c in "}]":
            kinds.pop()
            path.pop()
            want_key = False
            if not kinds:
                break
            continue
        if want_key:
            key = m.group()
            path[-1] = json.loads(key) if "\\" in key else key[1:-1]
            want_key = False
            continue
        if c == "{":
            out[tuple(path)] = m.start()
            kinds.append("{")
            path.append(None)
            want_key = True
        elif c == "[":
            out[tuple(path)] = m.start()  # an array's place: Sheng ji's levels are one
            kinds.append("[")
            path.append(0)
        elif not kinds:
            break  # a scalar document
    return out
