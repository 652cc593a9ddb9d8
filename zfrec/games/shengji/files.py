"""Sheng ji records in files: which texts hold them, and reading and writing them in either
format (.zfn, JSON). The record commands (`fmt`, `convert`, `diff`) come here for a record whose
header says `[Game "shengji"]` (JSON: `"game": "shengji"`); every other record is Zheng Fen's.

    >>> is_shengji_text('[Game "shengji"]\\n[Players "A, B, C, D"]\\n')
    True
    >>> is_shengji_text('{"game": "shengji", "players": []}'), is_shengji_text('[Players "A"]')
    (True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from zfrec.errors import Location, NotationError
from zfrec.games.shengji.jsonpart import dumps_sj_json, match_from_json
from zfrec.games.shengji.notation import dumps_sj
from zfrec.games.shengji.reader import iter_sj_games
from zfrec.games.shengji.records import SjMatch

__all__ = ["dumps_sj_as", "is_shengji_file", "is_shengji_text", "iter_sj_text", "load_sj"]

_ZFN_TAG_RE = re.compile(r'^\s*\[\s*game\s*["“”]\s*shengji\s*["“”]\s*\]', re.I | re.M)
_JSON_KEY_RE = re.compile(r'"game"\s*:\s*"shengji"')


def is_shengji_text(text: str) -> bool:
    """Whether a record text holds Sheng ji games (its tag, or its JSON key, says so)."""
    if text.lstrip("\ufeff \t\r\n").startswith("{"):
        return _JSON_KEY_RE.search(text) is not None
    return _ZFN_TAG_RE.search(text) is not None


def is_shengji_file(path: str | Path) -> bool:
    """Whether a record file holds Sheng ji games; False when it cannot be read."""
    try:
        return is_shengji_text(Path(path).read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError):
        return False


def iter_sj_text(
    text: str, fmt: Literal["zfn", "json"], source: str | None = None
) -> Iterator[SjMatch | NotationError]:
    """The Sheng ji games of a text, each or the NotationError that spoiled it."""
    if fmt == "zfn":
        from zfrec.record.zfn import lines_of

        yield from iter_sj_games(lines_of(text.removeprefix("\ufeff")), source)
        return
    from zfrec.record.jsonio import parse_json_text

    try:
        data: Any = parse_json_text(text.removeprefix("\ufeff"), source)
    except NotationError as exc:
        yield exc
        return
    if isinstance(data, dict) and "games" in data and "game" not in data:
        games = data["games"]
        if not isinstance(games, list):
            yield NotationError("at /games: a list of games is expected", Location(source))
            return
        for i, item in enumerate(games):
            try:
                yield match_from_json(item, source, ("games", i))
            except NotationError as exc:
                yield exc
        return
    try:
        yield match_from_json(data, source)
    except NotationError as exc:
        yield exc


def load_sj(path: str | Path) -> list[SjMatch]:
    """The Sheng ji games of a .zfn or .json file; raises the first NotationError."""
    from zfrec.record import format_of

    text = Path(path).read_text(encoding="utf-8-sig")
    out = []
    for item in iter_sj_text(text, format_of(path), str(path)):
        if isinstance(item, NotationError):
            raise item
        out.append(item)
    return out


def dumps_sj_as(matches: SjMatch | Iterable[SjMatch], fmt: Literal["zfn", "json"]) -> str:
    """Canonical text in either format (JSON: one match as its object, several wrapped)."""
    if fmt == "zfn":
        return dumps_sj(matches)
    if not isinstance(matches, SjMatch):
        listed = list(matches)
        return dumps_sj_json(listed[0] if len(listed) == 1 else listed)
    return dumps_sj_json(matches)
