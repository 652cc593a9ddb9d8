"""Game records: the typed model, the .zfn text notation and the JSON form (FORMAT.md).

    >>> from zfrec.record import load, loads, dumps
    >>> for game in load("club.zfn"): ...
    >>> text = dumps(loads(json_text, format="json"))          # JSON -> canonical .zfn

`load` and `loads` raise the first NotationError; `iter_records` and `iter_records_text` yield
`Game | NotationError` per game instead, so one bad game does not hide the rest (the validator
wants this).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

from zfrec.errors import NotationError
from zfrec.record.jsonio import dumps_json, game_from_json, game_to_json, iter_json_text
from zfrec.record.model import (
    AltPlay,
    Game,
    Hand,
    HandScore,
    Move,
    Pos,
    Result,
    SeatDeal,
    Trick,
)
from zfrec.record.zfn import dumps_zfn, iter_games, parse_zfn, read_games, read_lines

Format = Literal["zfn", "json"]
FORMATS: tuple[Format, ...] = ("zfn", "json")

__all__ = [
    "FORMATS",
    "AltPlay",
    "Format",
    "Game",
    "Hand",
    "HandScore",
    "Move",
    "Pos",
    "Result",
    "SeatDeal",
    "Trick",
    "dumps",
    "dumps_json",
    "dumps_zfn",
    "format_of",
    "game_from_json",
    "game_to_json",
    "iter_games",
    "iter_records",
    "iter_records_text",
    "load",
    "loads",
    "parse_zfn",
    "read_games",
]


def format_of(path: str | Path) -> Format:
    """The record format a file name implies: `.zfn` or `.json`, in any case."""
    suffix = Path(path).suffix.lower()
    if suffix == ".zfn":
        return "zfn"
    if suffix == ".json":
        return "json"
    raise NotationError(f"cannot tell the record format of {str(path)!r}: use .zfn or .json")


def iter_records(path: str | Path, *, recover: bool = False) -> Iterator[Game | NotationError]:
    """Each game in a .zfn or .json file, or the NotationError of a game that failed.

    A .zfn file is streamed line by line, in bounded memory however long a line is; a .json
    file is read whole. With `recover`, a .zfn game with unreadable moves is still given, with
    what could not be read in `Game.problems`, for the validator (zfrec.record.zfn.iter_games).
    """
    name = str(path)
    if format_of(path) == "zfn":
        with open(path, encoding="utf-8-sig", newline=None) as stream:
            yield from iter_games(read_lines(stream), name, recover=recover)
    else:
        with open(path, encoding="utf-8-sig") as stream:
            text = stream.read()
        yield from iter_json_text(text, name, recover=recover)


def iter_records_text(
    text: str, format: Format = "zfn", source: str | None = None, *, recover: bool = False
) -> Iterator[Game | NotationError]:
    """Like iter_records, for text in memory."""
    if format == "zfn":
        from zfrec.record.zfn import lines_of

        yield from iter_games(lines_of(text), source, recover=recover)
    elif format == "json":
        yield from iter_json_text(text, source, recover=recover)
    else:
        raise ValueError(f"unknown record format {format!r}: use zfn or json")


def _strict(items: Iterable[Game | NotationError]) -> Iterator[Game]:
    for item in items:
        if isinstance(item, NotationError):
            raise item
        yield item


def load(path: str | Path) -> Iterator[Game]:
    """The games of a .zfn or .json file (format by extension), one at a time.

    Raises NotationError at the first game that does not parse.
    """
    return _strict(iter_records(path))


def loads(text: str, format: Format = "zfn", source: str | None = None) -> list[Game]:
    """All games in `text` (.zfn or JSON). Raises NotationError at the first bad game."""
    return list(_strict(iter_records_text(text, format, source)))


def dumps(games: Game | Iterable[Game], format: Format = "zfn") -> str:
    """Canonical text of one game or several.

    JSON: one game gives the game object, several give `{"games": [...]}`.
    """
    if format == "zfn":
        return dumps_zfn(games)
    if format == "json":
        return dumps_json(games)
    raise ValueError(f"unknown record format {format!r}: use zfn or json")
