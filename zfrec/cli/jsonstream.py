"""`zfrec validate --json`, written as it is made: the same document, game by game.

The document is what `json.dumps(document, ensure_ascii=False, indent=2)` would write for

    {"files": [{"path": ..., "games": [...], "diagnostics": [...]}, ...], "summary": {...}}

byte for byte, but each game goes out as soon as it is judged, so memory stays flat however
long the output (a file's diagnostics come after its games: they wait in a temporary file that
moves to disk past a few megabytes).

    >>> import io
    >>> out = io.StringIO()
    >>> writer = JsonReportWriter(out)
    >>> writer.games("a.zfn", [{"ok": True}])
    >>> writer.end_file("a.zfn")
    >>> writer.finish({"files": 1})
    >>> out.getvalue() == json.dumps({"files": [{"path": "a.zfn", "games": [{"ok": True}],
    ...     "diagnostics": []}], "summary": {"files": 1}}, ensure_ascii=False, indent=2) + "\\n"
    True
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Iterable
from typing import IO, Any

from zfrec.diagnostics import Diagnostic

_SPOOL = 1 << 22  # characters of a file's diagnostics kept in memory before they go to disk


_SURROGATES = re.compile("[\ud800-\udfff]")


def _dumps(value: Any, indent: int) -> str:
    """`value` as json.dumps writes it `indent` levels deep (the first line not indented):
    json.dumps never breaks a line inside a string, so shifting its lines is exact."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    if not text.isascii():  # a file name that is not UTF-8 holds lone surrogates: not text
        text = _SURROGATES.sub("\ufffd", text)
    return text.replace("\n", "\n" + "  " * indent) if indent else text


class JsonReportWriter:
    """Writes the document piece by piece: `games` and `diagnostics` for the file being read,
    `end_file` when it is done, `finish` with the summary."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.files = 0
        self.path: str | None = None  # the file whose games are being written
        self.games_written = 0
        self.spool: IO[str] | None = None
        self.diagnostics_written = 0
        self.started = False  # nothing is written before there is something to write

    def _start(self) -> None:
        if not self.started:
            self.out.write('{\n  "files": [')
            self.started = True

    def _open(self, path: str) -> None:
        if self.path is not None:
            return
        self._start()
        self.path = path
        self.out.write(",\n    {\n" if self.files else "\n    {\n")
        self.out.write(f'      "path": {_dumps(path, 0)},\n      "games": [')
        self.files += 1
        self.games_written = self.diagnostics_written = 0
        # closed by end_file (or finish): it lives across calls, so no `with` can hold it
        self.spool = tempfile.SpooledTemporaryFile(_SPOOL, mode="w+", encoding="utf-8")  # noqa: SIM115

    def games(self, path: str, games: Iterable[dict[str, Any]]) -> None:
        """Write games of the file `path` (the one being read)."""
        self._open(path)
        write = self.out.write
        for game in games:
            write(",\n        " if self.games_written else "\n        ")
            write(_dumps(game, 4))
            self.games_written += 1

    def diagnostics(self, path: str, found: Iterable[Diagnostic]) -> None:
        """Keep diagnostics of the file `path` for its list, which follows its games."""
        self._open(path)
        spool = self.spool
        assert spool is not None
        for d in found:
            spool.write(",\n        " if self.diagnostics_written else "\n        ")
            spool.write(_dumps(d.to_json(), 4))
            self.diagnostics_written += 1

    def end_file(self, path: str) -> None:
        """Close the file's games, write its diagnostics."""
        self._open(path)
        spool = self.spool
        assert spool is not None
        out = self.out
        out.write("\n      ],\n" if self.games_written else "],\n")
        out.write('      "diagnostics": [')
        spool.seek(0)
        shutil.copyfileobj(spool, out)
        spool.close()
        out.write("\n      ]\n    }" if self.diagnostics_written else "]\n    }")
        self.path, self.spool = None, None

    def finish(self, summary: dict[str, Any]) -> None:
        """Close the list of files (and the file being read, if a run stopped inside it) and
        write the summary."""
        if self.path is not None:
            self.end_file(self.path)
        self._start()
        self.out.write("\n  ],\n" if self.files else "],\n")
        self.out.write(f'  "summary": {_dumps(summary, 1)}\n}}\n')
