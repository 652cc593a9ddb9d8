"""zfrec: the reference toolkit for Zheng Fen (挣分) game records.

The record API is re-exported here: `zfrec.load(path)`, `zfrec.loads(text)` and
`zfrec.dumps(game)`. The validator and the replay are the modules `zfrec.validate` and
`zfrec.replay`. All of them are imported on first use, so `import zfrec` stays light.

    >>> import zfrec
    >>> game = zfrec.loads(zfrec.replay.SAMPLE)[0]
    >>> zfrec.validate.validate(game).warnings  # the record stops before its hand ends
    1
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType

    from zfrec.record import Format, Game

__version__ = "0.1.0"

__all__ = ["__version__", "dumps", "load", "loads", "replay", "validate"]

_LAZY_MODULES = ("replay", "validate")


def __getattr__(name: str) -> ModuleType:
    """`zfrec.validate` and `zfrec.replay` import their module on first use (PEP 562)."""
    if name in _LAZY_MODULES:
        return importlib.import_module(f"zfrec.{name}")
    raise AttributeError(f"module 'zfrec' has no attribute {name!r}")


def load(path: str | Path) -> Iterator[Game]:
    """The games of a .zfn or .json record file, one at a time (see zfrec.record.load)."""
    from zfrec import record

    return record.load(path)


def loads(text: str, format: Format = "zfn", source: str | None = None) -> list[Game]:
    """All games in .zfn or JSON text (see zfrec.record.loads)."""
    from zfrec import record

    return record.loads(text, format, source)


def dumps(games: Game | Iterable[Game], format: Format = "zfn") -> str:
    """Canonical .zfn or JSON text of one game or several (see zfrec.record.dumps)."""
    from zfrec import record

    return record.dumps(games, format)
