"""The importer's first pass: each game of a file read, canonicalised, hashed and, if the store
does not hold it yet, validated and turned into rows; in this process, or in worker processes.

Games are judged a run at a time (4 games, or a worker's piece of about 16), so that one query
tells which of them the store already holds. With workers (`zfrec import --jobs`), a .zfn file
is cut into pieces where a game's tags begin, as `zfrec validate --jobs` cuts it (zfrec.batch);
the workers, forked once for the whole run, judge the pieces with a read-only connection of
their own, a few pieces ahead of the importer at most, and the judgements come back in file
order. A worker sends a new game's rows already pickled: the importer copies them to its spool.
"""

from __future__ import annotations

import hashlib
import linecache
import pickle
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.pool import AsyncResult, Pool
from pathlib import Path

from sqlalchemy import Connection, Engine, select

from zfrec.batch import Piece, pieces, worker_pool
from zfrec.diagnostics import Diagnostic
from zfrec.errors import Location, NotationError, ZfrecError, placing
from zfrec.games import DEFAULT_KIND
from zfrec.record import Game, dumps, iter_records, loads
from zfrec.record.lexer import excerpt
from zfrec.store.db import READONLY, make_engine
from zfrec.store.rows import Rows, game_rows
from zfrec.store.tables import GAME, chunks
from zfrec.validate import kept_diagnostics, notation_diagnostic, validate

_PIECE = 16  # games a worker judges together: one query for which of them are stored
_RUN = 4  # the same in one process, which holds each run's games and rows at once
_AHEAD = 4  # pieces queued per worker beyond the one it is judging


def canonical_json(game: Game) -> str:
    """The game's canonical JSON text, whose hash identifies it in the store."""
    return dumps(game, "json")


def sha256(text: str) -> str:
    """The sha256 (hex) of `text` as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(slots=True)
class Judged:
    """One item of a file as the first pass found it: an unreadable game, or a game with its
    hash and, if it was new to the store, its validation and its rows."""

    number: int  # 1-based position in the file, unreadable games included
    unreadable: Diagnostic | None = None
    # what the reader of an unreadable game read past before it lost it (validate's findings)
    kept: list[Diagnostic] = field(default_factory=list)
    digest: str = ""
    known: bool = False  # stored already, or earlier in the same piece
    ok: bool = True
    skipped: list[Diagnostic] | None = None  # errors, and --only-valid: kept out
    players: tuple[str, ...] = ()
    kind: str = DEFAULT_KIND  # the game's kind: its unit word names its hands or rounds
    event: str | None = None  # with the date and players, what a correction is recognised by
    date: str | None = None
    rows: bytes | Rows | None = None  # of a game to store; from a worker, pickled (digest, Rows)


@dataclass(frozen=True, slots=True)
class Workers:
    """Worker processes for the first pass, started once for every file of a run."""

    pool: Pool
    jobs: int
    # the next file's first pieces, handed out while the file before it is written
    ahead: dict[tuple[str, str, str, bool], _Judging] = field(default_factory=dict)


@contextmanager
def import_workers(jobs: int) -> Iterator[Workers | None]:
    """`jobs` worker processes for `import_file(workers=...)`, or None for one process. Start
    them before any thread (a progress display): they are forked where the platform can."""
    if jobs <= 1:
        yield None
        return
    with worker_pool(jobs) as pool:
        yield Workers(pool, jobs)


def judge_items(
    items: Iterable[tuple[int, Game | NotationError]],
    path: str,
    source: str,
    only_valid: bool,
    stored: Callable[[list[str]], set[str]],
    pickled: bool = True,
) -> list[Judged]:
    """Judge a run of a file's items; `stored(digests)` tells which of them the store holds.
    A new game's rows come `pickled`, to be sent to another process, or as they are."""
    out: list[Judged] = []
    games: list[tuple[Judged, str, Game]] = []
    for number, item in items:
        if isinstance(item, NotationError):
            kept = kept_diagnostics(item, path, number)
            out.append(Judged(number, notation_diagnostic(item, path, number), kept))
            continue
        try:
            text = storable_text(item, path)
        except NotationError as error:
            kept = kept_diagnostics(error, path, number)
            out.append(Judged(number, notation_diagnostic(error, path, number), kept))
            continue
        judged = Judged(number, digest=sha256(text), players=tuple(item.players), kind=item.kind)
        judged.event, judged.date = item.event, item.date
        out.append(judged)
        games.append((judged, text, item))
    known = stored([j.digest for j, _, _ in games]) if games else set()
    for judged, text, game in games:
        if judged.digest in known:
            judged.known = True
            continue
        with placing(game=judged.number, line=game.pos.line if game.pos else None):
            report = validate(game, game_number=judged.number)
        judged.ok = report.ok
        if only_valid and not report.ok:
            judged.skipped = list(report.diagnostics)
        else:
            rows = game_rows(source, judged.number, text, game, report)
            judged.rows = pickle.dumps((judged.digest, rows), 5) if pickled else rows
            known.add(judged.digest)  # a repeat within the piece is not judged again
    return out


def storable_text(game: Game, path: str) -> str:
    """The canonical JSON `game` is stored as; NotationError where it cannot be stored: JSON
    cannot hold what the text reader accepted, or what was read past a game's unreadable parts
    does not hold (`unread` words it)."""
    try:
        text = canonical_json(game)
        if game.problems:
            loads(text, "json")
    except ZfrecError as exc:
        raise unread(game, NotationError(exc.message, exc.location), path) from None
    return text


def unread(game: Game, error: NotationError, path: str) -> NotationError:
    """Why a game read only in part cannot be stored: its first unreadable part in the
    reader's words with the caret under it (as a strict reading gives them), else `error`."""
    if not game.problems:
        return error
    first = min(game.problems, key=lambda p: p.pos)
    line, col = first.pos
    source = linecache.getline(path, line).rstrip("\r\n")
    return NotationError(f"{first.message}\n{excerpt(source, line, col)}",
                         Location(path, line, col))  # fmt: skip


def stored_digests(conn: Connection, digests: list[str]) -> set[str]:
    """Which of `digests` the store holds."""
    found: set[str] = set()
    for chunk in chunks(digests):
        found.update(
            conn.scalars(select(GAME.c.content_hash).where(GAME.c.content_hash.in_(chunk)))
        )
    return found


def judge_file(
    conn: Connection, path: str | Path, source: str, only_valid: bool
) -> Iterator[Judged]:
    """The file's items judged in this process, read as a stream, with `conn` to look up."""
    items = enumerate(iter_records(path, recover=True), 1)
    run: list[tuple[int, Game | NotationError]] = []
    for item in items:
        run.append(item)
        if len(run) == _RUN:
            yield from judge_items(run, str(path), source, only_valid, _lookup(conn), pickled=False)
            run = []
    if run:
        yield from judge_items(run, str(path), source, only_valid, _lookup(conn), pickled=False)


def _lookup(conn: Connection) -> Callable[[list[str]], set[str]]:
    return lambda digests: stored_digests(conn, digests)


def judge_file_in_workers(
    workers: Workers, url: str, path: str | Path, source: str, only_valid: bool
) -> Iterator[Judged]:
    """The file's items judged by `workers`, in file order; `url` names the store. Continues
    what read_ahead started for the same file, if it did."""
    key = (url, str(path), source, only_valid)
    judging = workers.ahead.pop(key, None)
    workers.ahead.clear()  # read ahead for a file that is not coming after all
    if judging is None:
        judging = _Judging(workers, url, path, source, only_valid)
    return iter(judging)


def read_ahead(workers: Workers, url: str, path: str | Path, source: str, only_valid: bool) -> None:
    """Hand the workers the first pieces of the file to be imported next, so that they judge
    it while this process writes the one before. What they find may be out of date by then:
    the second pass looks again under the write lock (a game stored meanwhile is counted as
    already stored, one removed meanwhile is read again)."""
    key = (url, str(path), source, only_valid)
    workers.ahead.clear()
    workers.ahead[key] = _Judging(workers, url, path, source, only_valid)


class _Judging:
    """A file's pieces handed to the workers, a few ahead of the judgements taken back."""

    def __init__(
        self, workers: Workers, url: str, path: str | Path, source: str, only_valid: bool
    ) -> None:
        self.workers = workers
        self.args = (url, source, only_valid)
        self.pending: deque[AsyncResult[list[Judged]]] = deque()
        self.limit = workers.jobs * (_AHEAD + 1)
        self.pieces = pieces(str(path), _PIECE, lambda: "")
        self.error: BaseException | None = None  # where the file stopped being readable
        self._fill()

    def _fill(self) -> None:
        while self.error is None and len(self.pending) <= self.limit:
            try:
                piece = next(self.pieces, None)
            except Exception as exc:  # raised when the reading gets there, in its import
                self.error = exc
                return
            if piece is None:
                return
            self.pending.append(self.workers.pool.apply_async(_judge_piece, (piece, *self.args)))

    def __iter__(self) -> Iterator[Judged]:
        while self.pending:
            yield from self.pending.popleft().get()
            self._fill()
        if self.error is not None:
            raise self.error


_ENGINES: dict[str, Engine] = {}  # a worker's own engine per store, made at its first piece


def _judge_piece(piece: Piece, url: str, source: str, only_valid: bool) -> list[Judged]:
    """Judge one piece; runs in a worker process."""
    first = piece.items_before + 1
    items = piece.items(recover=True)
    engine = _ENGINES.get(url)
    if engine is None:
        engine = _ENGINES[url] = make_engine(url, must_exist=True)
    with engine.execution_options(**{READONLY: True}).connect() as conn:
        return judge_items(enumerate(items, first), piece.path, source, only_valid, _lookup(conn))
