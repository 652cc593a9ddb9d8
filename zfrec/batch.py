"""Batch validation: record files cut into runs of whole games, judged in order, in parallel.

`zfrec validate` uses this, with one process or several (`--jobs`). A .zfn file is read as a
stream and cut where a game's tags begin, so a single large file spreads over every worker as
well as many small files do. The pieces are judged by worker processes started once, at most a
few pieces ahead of the output, and the results come back in input order: what is printed is
the same whatever the number of workers, and memory stays flat.

Workers run only this module and `zfrec.validate`, never the command-line package. They are
forked where the platform can (Linux, macOS): nothing is imported again, a worker is ready at
once, and the pieces go to them over pipes from the thread that reads the results
(zfrec.forkpool), which costs the parent a fifth of what multiprocessing's pool does.

A file that cannot be read (not UTF-8 text, say) is a finding of that file, ZF003, and the run
goes on; a file that holds no game gets the warning ZF004.
"""

from __future__ import annotations

import gc
import io
import json
import multiprocessing
import os
import re
from collections import deque
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from multiprocessing.pool import AsyncResult, Pool
from typing import IO, Any

from zfrec.diagnostics import Diagnostic
from zfrec.errors import Location, NotationError, not_utf8, processing
from zfrec.forkpool import ForkPool, Passed, fork_available
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.gctuning import young_threshold
from zfrec.record import Format, Game, format_of, iter_records_text
from zfrec.record.lexer import TAG_OPENERS
from zfrec.record.zfn import MAX_LINE, iter_games
from zfrec.validate import FileSummary, RuleTexts, summarize, validate_games, validate_text

STDIN = "-"
# Pieces queued per worker beyond the one it is judging: one keeps a worker busy while the
# parent answers, and what is committed to a worker that another process holds up is little.
_AHEAD = 1
_CHUNK = 1 << 16  # characters the parent reads at a time while cutting a file
# Small pieces keep the workers even at the end of a run (one piece of 16 games left one
# worker idle for 6% of the corpus of `make bench`); their cost in the parent is small.
_GAMES_PER_PIECE = 8
# The last pieces of a file are cut smaller and smaller: whenever what is left (by the file's
# size) is fewer than this many pieces' worth, pieces are halved, down to one game. The work
# committed to a worker at the end, which the other cannot take over when it is done first (or
# when this one is held up by another process), is small; and halving step by step, the pieces
# a worker has queued last about as long as the piece the other judges meanwhile (a jump from
# 8 games to 2 could leave one idle while the other judged its last 8).
_TAIL_PIECES = 4


@dataclass(frozen=True, slots=True)
class Options:
    """How every piece is judged and what its summary keeps."""

    rules: Ruleset | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    # `validate --rules/--option` as written: each game's kind reads them (validate_games)
    rule_texts: RuleTexts | None = None
    keep_json: bool = False
    show_deal: bool = False
    strict: bool = False


@dataclass(frozen=True, slots=True)
class Piece:
    """Whole games of one file: its .zfn text from line `first_line` on, or a whole JSON text,
    or standard input.

    `games_before` counts the games that start before the piece (the reader's count),
    `items_before` the games and unreadable stretches before it (the validator's numbering).
    The text is one string, newlines already made `\n`: sent to a worker it is copied whole,
    where a list of its lines took the parent about a fifth more time under --jobs 2.
    """

    path: str
    first_line: int
    games_before: int
    items_before: int
    text: str
    fmt: Format | None = "zfn"  # of `text`; None: standard input, told by its first character

    def items(self, recover: bool) -> Iterator[Game | NotationError]:
        """The piece's games (or the errors that spoiled them), numbered as in the whole file."""
        if self.fmt == "zfn":
            return iter_games(
                io.StringIO(self.text),
                self.path,
                first_line=self.first_line,
                games_before=self.games_before,
                recover=recover,
            )
        return iter_records_text(self.text, self.fmt or "json", self.path, recover=recover)


@dataclass(slots=True)
class Judged:
    """The summary of one piece, or (summary None) the end of a file and what spoiled it."""

    path: str
    summary: FileSummary | None
    problem: str | None = None


def is_tag(line: str) -> bool:
    """A tag line (`[Name "value"]`): a run of them opens a game (FORMAT.md)."""
    return line.lstrip().startswith(TAG_OPENERS)


def pieces(
    path: str, games_per_piece: int, stdin: Callable[[], str], fine_tail: bool = False
) -> Iterator[Piece]:
    """The file at `path` in pieces of about `games_per_piece` games, as it is read; with
    `fine_tail`, its last pieces smaller and smaller (`_TAIL_PIECES`), for workers to share.

    Raises OSError or UnicodeDecodeError where the file stops being readable; the pieces before
    that point have been yielded.
    """
    if path == STDIN:
        yield Piece(path, 1, 0, 0, stdin(), None)
        return
    fmt = format_of(path)
    with open(path, encoding="utf-8-sig", newline=None) as stream:
        if fmt == "json":
            yield Piece(path, 1, 0, 0, stream.read(), "json")
        else:
            size = os.fstat(stream.fileno()).st_size if fine_tail else None
            yield from _cut(stream, path, games_per_piece, size=size)


def _cut(
    stream: IO[str], path: str, games_per_piece: int, chunk_size: int = _CHUNK,
    size: int | None = None,
) -> Iterator[Piece]:  # fmt: skip
    # The parent cuts while the workers judge, so it looks at the tag lines only (`_tag_lines`
    # finds them in a chunk of whole lines), and the text between them is passed on as it is.
    # With the stream's `size` (bytes: as many as characters, near enough), its tail is cut
    # finer and finer.
    parts: list[str] = []  # the current piece's text so far
    starts = 0  # games that start before the current line
    extra = 0  # 1 if the text before the first game is an unreadable stretch
    first_line, games_before, items_before, games = 1, 0, 0, 0  # of the current piece
    prev_tag = False  # the line before the chunk is a tag line
    base = 1  # the number of the chunk's first line
    offset = 0  # characters before the chunk
    for chunk in _whole_lines(stream, chunk_size):
        taken = 0  # characters of the chunk already in `parts`
        index, pos = 0, 0  # the line where the last tag line was found, and where it begins
        last_tag = -1  # the chunk's last tag line so far
        for start in _tag_lines(chunk):  # where each tag line begins in the chunk
            at = index + chunk.count("\n", pos, start)
            new_game = not (prev_tag if at == 0 else at == last_tag + 1)
            index, pos, last_tag = at, start, at
            if not new_game:
                continue
            if starts == 0:
                # Text before the first game is comments (they join the first game), or an
                # unreadable stretch that the validator reports as an item of its own.
                parts.append(chunk[taken:start])
                taken = start
                extra = sum(1 for _ in iter_games(io.StringIO("".join(parts)), path))
            elif games >= games_per_piece:
                if size is not None:
                    # `starts` games in `read` characters: is the rest fewer pieces' worth?
                    read = offset + start
                    while games_per_piece > 1 and (
                        (size - read) * starts < _TAIL_PIECES * games_per_piece * read
                    ):
                        games_per_piece //= 2
                parts.append(chunk[taken:start])
                taken = start
                yield Piece(path, first_line, games_before, items_before, "".join(parts))
                parts, first_line, games = [], base + at, 0
                games_before, items_before = starts, extra + starts
            starts += 1
            games += 1
        parts.append(chunk[taken:])
        # (a chunk without a newline at its end is the last one)
        lines = index + chunk.count("\n", pos)
        prev_tag = last_tag == lines - 1
        base += lines
        offset += len(chunk)
    text = "".join(parts)
    if text:
        yield Piece(path, first_line, games_before, items_before, text)


_TAG_LINE_RE = re.compile(r"^[^\n\[［]*[\[［]", re.MULTILINE)  # a line up to its first bracket


def _tag_lines(chunk: str) -> Iterator[int]:
    """Where each tag line (`[Name "value"]`, FORMAT.md: what `is_tag` tells of one line) of
    a chunk of whole lines begins."""
    # From one `[` to the next, a line at most once: a `[` is rare (a few tag lines a game),
    # where a regex tried every line's start (a quarter of what the parent spent cutting).
    if "［" in chunk:  # (rare) a full-width bracket too, as Chinese keyboards type it
        starts = {m.start() for m in _TAG_LINE_RE.finditer(chunk) if is_tag(m.group())}
        yield from sorted(starts)
        return
    find, rfind = chunk.find, chunk.rfind
    at = find("[")
    while at >= 0:
        start = rfind("\n", 0, at) + 1
        if start == at or chunk[start:at].isspace():  # (no newline in between: `is_tag`)
            yield start
        end = find("\n", at)
        if end < 0:
            return
        at = find("[", end)


def _whole_lines(stream: IO[str], chunk_size: int) -> Iterator[str]:
    """The stream's text in chunks of whole lines (the last may lack its newline). A line over
    MAX_LINE characters is kept only as far as the reader reports it, as read_lines keeps it:
    memory stays bounded however long the line is."""
    rest: list[str] = []  # what was read of an unfinished line, maybe over several reads
    rest_length = 0
    while read := stream.read(chunk_size):
        end = read.rfind("\n") + 1
        if not end:
            if rest_length <= MAX_LINE:
                rest.append(read)
                rest_length += len(read)
            continue
        head = "".join(rest)
        if rest_length > MAX_LINE:
            yield head[: MAX_LINE + 1] + read[read.index("\n") : end]
        else:
            yield head + read[:end]
        rest = [read[end:]]
        rest_length = len(rest[0])
    last = "".join(rest)[: MAX_LINE + 1]
    if last:
        yield last


def judge(piece: Piece, options: Options) -> FileSummary:
    """Validate one piece; runs in a worker process under --jobs."""
    with processing(piece.path):
        return _judge(piece, options)


def _judge(piece: Piece, options: Options) -> FileSummary:
    first = piece.items_before + 1
    if piece.fmt is None:
        reports = validate_text(piece.text, "<stdin>", options.rules, options.overrides,
                                options.rule_texts)  # fmt: skip
    else:
        items = piece.items(recover=True)
        reports = validate_games(items, piece.path, options.rules, options.overrides, first,
                                 options.rule_texts)  # fmt: skip
    return summarize(
        reports,
        piece.path,
        keep_json=options.keep_json,
        show_deal=options.show_deal,
        stop_at_error=options.strict,
        first=first,
    )


def _all_pieces(
    files: list[str], games_per_piece: int, stdin: Callable[[], str], fine_tail: bool = False
) -> Iterator[Piece | Judged]:
    """Every file's pieces in order, each file closed by a Judged marker (with its problem);
    with `fine_tail`, the last file's last pieces smaller (the workers go on from one file to
    the next: only the end of the run needs them)."""
    for i, path in enumerate(files, 1):
        problem = None
        try:
            yield from pieces(path, games_per_piece, stdin, fine_tail and i == len(files))
        except UnicodeDecodeError:
            problem = not_utf8(path)
        except OSError as exc:
            problem = f"cannot read {path}: {(exc.strerror or str(exc)).strip()}"
        yield Judged(path, None, problem)


def run(
    files: list[str],
    options: Options,
    jobs: int = 1,
    stdin: Callable[[], str] = lambda: "",
) -> Generator[Judged, None, None]:
    """The judged pieces of `files` in input order, each file closed by an item whose summary
    is None (and whose `problem` says why the file could not be read to its end, if so).

    With `jobs` > 1 the pieces go to that many worker processes, a few pieces ahead at most.
    """
    with young_threshold():  # as the zfrec command has it (zfrec.gctuning)
        yield from _run(files, options, jobs, stdin)


def _run(
    files: list[str], options: Options, jobs: int, stdin: Callable[[], str]
) -> Iterator[Judged]:
    work = _all_pieces(files, _GAMES_PER_PIECE, stdin, fine_tail=jobs > 1)
    if jobs <= 1:
        for item in work:
            yield item if isinstance(item, Judged) else Judged(item.path, judge(item, options))
        return
    if fork_available():
        with ForkPool(jobs) as workers:
            tasks = (Passed(i) if isinstance(i, Judged) else (i, options) for i in work)
            for done in workers.ordered(judge, tasks, _AHEAD):
                yield done if isinstance(done, Judged) else Judged(done.path, done)
        return
    with worker_pool(jobs) as pool:  # no fork here: multiprocessing's pool, spawned
        pending: deque[Judged | AsyncResult[FileSummary]] = deque()
        limit = jobs * (_AHEAD + 1)
        for item in work:
            if isinstance(item, Judged):
                pending.append(item)
            else:
                pending.append(pool.apply_async(judge, (item, options)))
            while len(pending) > limit or (pending and _ready(pending[0])):
                yield _take(pending.popleft())
        while pending:
            yield _take(pending.popleft())


def _ready(head: Judged | AsyncResult[FileSummary]) -> bool:
    return isinstance(head, Judged) or head.ready()


def _take(head: Judged | AsyncResult[FileSummary]) -> Judged:
    if isinstance(head, Judged):
        return head
    summary = head.get()
    return Judged(summary.path, summary)


def worker_pool(jobs: int) -> Pool:
    """`jobs` worker processes, forked where there is fork (see the module's docstring)."""
    # Fork where there is fork: the workers start with everything imported already, and the
    # garbage collector tuned. The pool is made before any thread of ours runs (the progress
    # display starts after it).
    # Frozen, the objects the parent made before the fork are never scanned by a worker's
    # garbage collector, so their pages stay shared instead of being copied into every worker.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    gc.freeze()
    try:
        return multiprocessing.get_context(method).Pool(jobs)
    finally:
        gc.unfreeze()


def merge(total: FileSummary, part: FileSummary) -> None:
    """Add a piece's summary to its file's."""
    total.games += part.games
    total.hands += part.hands
    for unit, n in part.units.items():
        total.units[unit] = total.units.get(unit, 0) + n
    total.moves += part.moves
    total.diagnostics += part.diagnostics
    total.game_json += part.game_json
    total.deals += part.deals


def file_findings(path: str, games: int, problem: str | None) -> list[Diagnostic]:
    """What the file itself gets: ZF003 if it could not be read to the end, ZF004 if it holds
    no game at all."""
    if problem is not None:
        return [Diagnostic("ZF003", problem, Location(file=path))]
    if games == 0:
        return [Diagnostic("ZF004", f"{path} holds no game", Location(file=path))]
    return []


def count_games(path: str) -> int:
    """How many games the file holds, for a progress bar: a quick look, 1 if it cannot tell."""
    try:
        if format_of(path) == "json":
            with open(path, encoding="utf-8-sig") as stream:
                data = json.load(stream)
            games = data.get("games") if isinstance(data, dict) else None
            return len(games) if isinstance(games, list) else 1
        count, prev = 0, False
        with open(path, encoding="utf-8-sig", newline=None) as stream:
            for line in stream:
                tag = is_tag(line)
                count += tag and not prev
                prev = tag
        return count
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return 1
