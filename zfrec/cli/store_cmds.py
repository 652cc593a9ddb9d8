"""`zfrec import`, `games`, `show`, `stats`, `export`: the store from the command line.

The store (SQLAlchemy, Alembic) is imported inside the commands, so other commands start fast.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from zfrec.cli.common import (
    CLICK_EXITS,
    EXIT_INPUT,
    EXIT_INTERNAL,
    JSON_HELP,
    err,
    error_what,
    fail,
    file_problem,
    friendly_errors,
    json_on_failure,
    kinds_titles,
    other_kinds_hint,
    out,
    plural,
    print_json,
    refused,
)
from zfrec.cli.simulate_cmds import write_atomic
from zfrec.cli.validate_cmds import expand_paths
from zfrec.errors import ZfrecError, path_text, place_text, processing
from zfrec.games import find_kind, units_text

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from zfrec.games.zhengfen.analysis.analyze import FlowRow
    from zfrec.record import Format
    from zfrec.store import GameDetail, ImportResult, PlayerStats

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Database: any SQLAlchemy URL, or a SQLite file path. "
        "Default: $ZFREC_DB, else ./zfrec.db.",
        show_default=False,
    ),
]
# A game id the store's integer column can hold (PostgreSQL's is 32-bit): a larger one is a bad
# argument (exit 2), not an overflow inside the database driver.
MAX_GAME_ID = 2**31 - 1
GameIdArgument = Annotated[
    int, typer.Argument(help="The game's id (see `zfrec games`).", min=1, max=MAX_GAME_ID)
]
PlayerOption = Annotated[
    str | None, typer.Option("--player", "-p", help="Only games this player sat in.")
]
JsonOption = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


@contextmanager
def _store(db: str | None, *, create: bool = True) -> Iterator[Engine]:
    """The opened store; any ZfrecError inside becomes a message and exit code 2.

    Only `import` creates a store; the commands that read pass create=False, so a mistyped
    --db is refused (exit 2) and leaves nothing behind.
    """
    from sqlalchemy.exc import SQLAlchemyError

    from zfrec.store import open_store

    with friendly_errors():
        engine = open_store(db, create=create)
        try:
            yield engine
        except SQLAlchemyError as exc:
            from zfrec.store.faults import database_fault

            if (fault := database_fault(exc)) is None:
                raise  # a bug of zfrec's: an internal error (exit 3)
            fail(fault)
        finally:
            engine.dispose()


def _not_imported(message: str, params: dict[str, Any]) -> dict[str, Any]:
    """The --json document of `import` refused before it began (no such file, no records,
    a store that cannot be opened): nothing stored, and `error` says why (in the summary, as
    for an import that stops part way; with --replace, beside `replaced`: false)."""
    from zfrec.store.db import describe, resolve_url

    try:
        where = describe(resolve_url(params.get("db")))
    except ZfrecError:  # the URL itself is what is wrong: shown as given, secrets hidden
        where = describe(str(params.get("db")))
    if params.get("replace") is not None:
        return {"database": where, "replaced": False, "game_id": params["replace"]} | {
            "error": message
        }
    summary = _import_summary([], []) | {"error": message}
    return {"database": where, "files": [], "failed": [], "summary": summary}


@json_on_failure(_not_imported)
def import_cmd(
    paths: Annotated[
        list[str], typer.Argument(help="Record files (.zfn, .json), directories or globs.")
    ],
    db: DbOption = None,
    only_valid: Annotated[
        bool, typer.Option("--only-valid", help="Do not store games the validator finds errors in.")
    ] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", min=1, help="Worker processes. Large files are shared out by game."
        ),
    ] = 1,
    replace: Annotated[
        int | None,
        typer.Option(
            "--replace",
            metavar="ID",
            min=1,
            max=MAX_GAME_ID,
            help="Replace stored game ID by the one game of FILE, in one transaction; the game "
            "keeps its id.",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Validate records, then store them: each file in one transaction, all or nothing.

    Re-importing a file adds nothing; a changed file replaces what it held before. Games with
    errors are stored with their diagnostics and flagged, unless --only-valid. Exit 0 when every
    game of every file was stored clean, 1 when there are findings (a file that could not be
    stored, a game that could not be read, a game with errors), 2 on bad arguments or an
    unusable database.

    A new record with the Event, Date and players of a stored game and half of its plays is a
    correction: it replaces that game, which keeps its id (STORE.md has the rule).
    """
    from zfrec.batch import count_games
    from zfrec.store import import_workers

    if replace is not None:
        _replace(replace, paths, db, only_valid, as_json)
        return
    files = expand_paths(paths)
    if "-" in files:
        fail("import reads files, not standard input")
    if not files:
        fail("no record files found (.zfn or .json)")
    results: list[ImportResult] = []
    failed: list[dict[str, str]] = []
    stopped: tuple[str, int] | None = None  # why the run stopped part way, and its exit code
    not_imported: list[str] = []  # the file it stopped in (unless stored), and those after it
    bug: BaseException | None = None  # an unexpected exception that stopped it (exit 3)
    shown = err.is_terminal
    progress = Progress(
        TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
        TimeElapsedColumn(), TextColumn("{task.description}"), console=err, transient=True,
        disable=not shown,
    )  # fmt: skip
    # The workers are forked first: before the store's connections, which they must not share,
    # and before the progress display starts its thread.
    with import_workers(jobs) as workers, _store(db) as engine, progress:
        total = sum(count_games(f) for f in files) if shown else None
        task = progress.add_task("", total=total)
        s_args = _ImportArgs(engine, only_valid, workers, as_json)
        for index, path in enumerate(files):
            then = files[index + 1] if index + 1 < len(files) else None
            done = len(results) + len(failed)
            try:
                with processing(path):
                    _import_one(s_args, path, then, progress, task, results, failed)
            except BaseException as exc:  # the files before this one stay stored: say which
                finished = len(results) + len(failed) > done  # Ctrl-C just after it was stored
                later = files[index + 1 :]
                if (stopped := _stopped(exc, path, finished, len(later))) is None:
                    raise
                not_imported = ([] if finished else [path_text(path)]) + list(map(path_text, later))
                if stopped[1] == EXIT_INTERNAL:
                    bug = exc  # raised again once the document is written: exit 3, its report
                break
        where = _where(engine)
    summary = _import_summary(results, failed)
    if stopped is not None:
        summary["error"] = stopped[0]
    if as_json:
        print_json(
            {"database": where, "files": [r.to_json() for r in results], "failed": failed}
            | {"summary": summary, "not_imported": not_imported}
        )
    elif stopped is None or results or failed:  # stopped at the first file: its line alone
        for f in failed:
            # the error names its file already where it says what is wrong with it
            said = f["error"] if f["path"] in f["error"] else f"{f['path']}: {f['error']}"
            err.print(f"[bold red]error:[/] {escape(said)}", markup=True)
        t = summary
        out.print(
            f"{t['files']} file(s) into {escape(where)}: {t['added']} game(s) added "
            f"({_units(results)}), {t['unchanged']} already stored, {t['removed']} removed, "
            f"{t['replaced']} replaced, "
            f"{t['flagged']} flagged with errors, {t['skipped']} skipped, "
            f"{t['unreadable']} unreadable, {len(failed)} file(s) failed",
            markup=True,
        )
    if bug is not None and stopped is not None:  # what was stored, then the bug's report
        err.print(f"[bold red]error:[/] {escape(stopped[0])}", markup=True)
        raise bug  # the internal error's one-line report (zfrec.cli.main), exit 3
    if stopped is not None:
        fail(stopped[0], stopped[1])
    findings = failed or summary["unreadable"] or summary["flagged"] or summary["skipped"]
    raise typer.Exit(1 if findings else 0)


@dataclass(frozen=True, slots=True)
class _ImportArgs:
    engine: Engine
    only_valid: bool
    workers: Any
    as_json: bool


def _import_one(
    a: _ImportArgs,
    path: str,
    then: str | None,
    progress: Progress,
    task: TaskID,
    results: list[ImportResult],
    failed: list[dict[str, str]],
) -> None:
    """Import one file in its own transaction: its result, or why it failed, is appended."""
    from zfrec.store import import_file, session

    progress.update(task, description=escape(Path(path).name))
    read_one = partial(_read_up_to, progress, task, progress.tasks[0].completed)
    try:
        with session(a.engine) as s:
            results.append(
                import_file(
                    s,
                    path=path,
                    only_valid=a.only_valid,
                    on_read=read_one,
                    workers=a.workers,
                    then=then,
                )
            )
    except ZfrecError as exc:
        failed.append({"path": path_text(path), "error": str(exc)})
    except (OSError, UnicodeDecodeError) as exc:
        failed.append({"path": path_text(path), "error": path_text(file_problem(path, exc))})
    else:
        if not a.as_json:
            _print_import(results[-1], a.only_valid)


def _stopped(exc: BaseException, path: str, finished: bool, later: int) -> tuple[str, int] | None:
    """Why an import stopped at `path` (`finished`: just after it; `later` files were not
    reached), in one line, with its exit code: Ctrl-C (130), a store that cannot be used now
    (2: locked, gone, full, damaged), the database refusing otherwise (2: a concurrent writer's
    clash, the server's own error), an unexpected exception (3: a bug, whose report follows;
    SQLAlchemy's errors of our SQL or its use too: zfrec.store.faults.database_fault); None for
    an exit the command chose (raised)."""
    from zfrec.store.faults import database_fault

    if isinstance(exc, KeyboardInterrupt):
        why, code = "interrupted", 130
    elif (fault := database_fault(exc)) is not None:  # not a bug: SQLAlchemy's own are
        why, code = fault + ",", EXIT_INPUT
    elif isinstance(exc, Exception) and not isinstance(exc, CLICK_EXITS):
        why, code = f"internal error ({error_what(exc)})", EXIT_INTERNAL
    else:
        return None
    rest = f"; the {later} file(s) after it were not imported" if later else ""
    if code == EXIT_INTERNAL and (place := place_text(exc)):  # where in the file, if known
        return (
            f"{why} while importing {path_text(path)}, {place}: nothing of it was stored{rest}",
            code,
        )
    if finished:
        done = f"{why} after importing {path_text(path)}: the files up to it were imported"
        return done + rest, code
    return f"{why} while importing {path_text(path)}: nothing of it was stored{rest}", code


def _replace(
    game_id: int, paths: list[str], db: str | None, only_valid: bool, as_json: bool
) -> None:
    """`import --replace ID FILE`: exit 0 (replaced, or already that record), 1 when the
    record has errors (with --only-valid: then nothing is replaced), 2 on bad input."""
    from zfrec.store import session
    from zfrec.store.correct import replace_game

    if len(paths) != 1:
        fail("--replace ID takes one record file")
    path = paths[0]
    if not Path(path).is_file():
        fail(f"no such file: {path}" if not Path(path).exists() else f"{path} is not a file")

    class _Invalid(Exception):  # rolls the replacement back
        pass

    result = None
    where = ""
    try:
        with _store(db, create=False) as engine, friendly_errors(path), session(engine) as s:
            where = _where(engine)
            result = replace_game(s, game_id=game_id, path=path)
            if only_valid and not result.valid:
                raise _Invalid
    except _Invalid:
        pass
    assert result is not None
    if as_json:
        replaced = not only_valid or result.valid
        print_json({"database": where, "replaced": replaced} | result.to_json())
    elif only_valid and not result.valid:
        err.print(
            f"[bold red]error:[/] {escape(path)} has {plural(result.errors, 'error')}: game "
            f"{game_id} not replaced (--only-valid)",
            markup=True,
        )
    elif not result.changed:
        out.print(f"game {game_id} holds that record already: nothing to replace")
    else:
        flagged = "" if result.valid else f", flagged with {plural(result.errors, 'error')}"
        out.print(
            f"game {game_id} replaced by the record in {escape(path)} "
            f"({plural(result.hands, result.unit)}{flagged}) in {escape(where)}"
        )
    raise typer.Exit(0 if result.valid else 1)


@json_on_failure(refused)
def delete_cmd(
    game_id: GameIdArgument,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Delete a stored game, with everything derived from it (hands, plays, diagnostics and
    rendered pages). A live table that finished it keeps its entries.

    A file that holds the game still does: importing that file again stores it again. Exit 0,
    2 when there is no such game.
    """
    from zfrec.store import get_game, session
    from zfrec.store.correct import game_sources
    from zfrec.store.removal import delete_game

    with _store(db, create=False) as engine, session(engine) as s:
        detail = get_game(s, game_id=game_id)
        files = game_sources(s, game_id=game_id)
        delete_game(s, game_id=game_id)
    row = detail.row
    if as_json:
        print_json(
            {
                "deleted": game_id,
                "event": row.event,
                "date": row.date,
                "players": row.players,
                "hands": row.hands,
                "files": [{"path": p, "position": n} for p, n in files],
            }
        )
        return
    what = ", ".join(x for x in (row.event, row.date, ", ".join(row.players)) if x)
    unit = find_kind(row.kind).unit
    out.print(f"game {game_id} deleted ({escape(what)}; {plural(row.hands, unit)})")
    for path, number in files:
        out.print(
            f"note: {escape(path)} (game {number}) still holds it: importing that file again "
            "stores it again"
        )


def _read_up_to(progress: Progress, task: TaskID, before: float, number: int) -> None:
    progress.update(task, completed=before + number)


def _where(engine: Engine) -> str:
    from zfrec.store.db import describe

    return describe(engine.url)


def _print_import(result: ImportResult, only_valid: bool) -> None:
    r = result
    for note in r.notes:  # corrections: which stored game a record replaced, or resembles
        out.print(f"{escape(r.path)}: {escape(note)}", markup=True)
    if not (r.flagged or r.skipped or r.unreadable or r.removed or r.replaced):
        return
    bits = [f"{r.added} added", f"{r.unchanged} already stored"]
    if r.replaced:
        bits.append(f"{r.replaced} replaced")
    if r.removed:
        bits.append(f"{r.removed} earlier version(s) removed")
    if r.flagged:
        bits.append(f"[yellow]{r.flagged} flagged with errors[/]")
    if r.skipped:
        bits.append(f"[yellow]{r.skipped} skipped for errors[/]")
    if r.unreadable:
        kept = "not stored" if only_valid else "diagnostics stored"
        bits.append(f"[red]{r.unreadable} unreadable[/] ({kept})")
    out.print(f"{escape(r.path)}: {', '.join(bits)}", markup=True)


def _import_summary(results: list[ImportResult], failed: list[dict[str, str]]) -> dict[str, Any]:
    keys = ("games", "added", "unchanged", "removed", "flagged", "skipped", "unreadable", "hands")
    keys_: tuple[str, ...] = (*keys, "replaced")
    summary: dict[str, Any] = {k: sum(getattr(r, k) for r in results) for k in keys_}
    summary["files"] = len(results) + len(failed)
    summary["failed"] = len(failed)
    return summary


def _units(results: list[ImportResult]) -> str:
    """The hands or rounds of the games added, each game's in its own word."""
    units: dict[str, int] = {}
    for r in results:
        for unit, n in r.units.items():
            units[unit] = units.get(unit, 0) + n
    return units_text(units)


@json_on_failure(refused)
def games_cmd(
    player: PlayerOption = None, db: DbOption = None, as_json: JsonOption = False
) -> None:
    """List the stored games: id, date, event, players, winners, hands, validity."""
    from zfrec.store import list_games, session, unreadable_diagnostics

    with _store(db, create=False) as engine, session(engine, readonly=True) as s:
        rows = list_games(s, player=player)
        unreadable = [] if player else unreadable_diagnostics(s)
    if as_json:
        print_json([r.to_json() for r in rows])
        return
    if not rows:
        out.print("no games stored" + (f" with {player}" if player else ""), markup=False)
        _unreadable_note(unreadable)
        return
    # The hands column in the games' own word (GameKind.unit): `rounds` for Sheng ji; games of
    # several kinds name it in each row.
    units = {r.kind: find_kind(r.kind).unit for r in rows}
    one = len(set(units.values())) == 1
    played = f"{next(iter(units.values()))}s" if one else "played"
    table = Table(box=None, header_style="bold", pad_edge=False)
    for name in ("id", "date", "event", "players", "winners", played, "valid"):
        table.add_column(name, justify="right" if name in ("id", played) else "left")
    for r in rows:
        valid = "yes" if r.valid else f"[red]no ({r.errors} error(s))[/]"
        table.add_row(
            str(r.id),
            escape(r.date or ""),
            escape(r.event or ""),
            escape(", ".join(r.players)),
            escape(", ".join(r.winners)),
            str(r.hands) if one else plural(r.hands, units[r.kind]),
            valid,
        )
    out.print(table)
    out.print(f"{len(rows)} game(s)")
    _unreadable_note(unreadable)


def _unreadable_note(found: list[dict[str, Any]]) -> None:
    if found:
        files = len({d["source"] for d in found})
        out.print(
            f"{plural(len(found), 'game')} in {plural(files, 'file')} could not be read "
            "(not stored): zfrec unreadable shows why"
        )


@json_on_failure(refused)
def unreadable_cmd(
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="Only the games of this imported file.")
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show why games could not be read when they were imported: file, line, column and the
    reader's message, as `zfrec import` stored them. These games are not in the store.

    Exit 0 (whether or not there are any), 2 on a store that does not exist.
    """
    from zfrec.store import session, unreadable_diagnostics

    source = str(file.resolve()) if file is not None else None
    with _store(db, create=False) as engine, session(engine, readonly=True) as s:
        found = unreadable_diagnostics(s, source=source)
    if as_json:
        print_json(found)
        return
    if not found:
        out.print("no unreadable games stored" + (f" from {file}" if file else ""), markup=False)
        return
    shown = None
    for d in found:
        if d["source"] != shown:
            shown = d["source"]
            out.print(f"[bold]{escape(d['source'])}[/]", markup=True)
        where = ":".join(str(d[k]) for k in ("line", "col") if d[k] is not None) or "-"
        head, *excerpt = d["message"].split("\n")
        game = f"game {d['game']}" if d["game"] is not None else ""
        out.print(f"  {game:<8} {where:>7} {d['code']} {escape(head)}")
        for line in excerpt:
            out.print(f"  {'':<8} {'':>7} {escape(line)}")
    files = len({d["source"] for d in found})
    out.print(f"{plural(len(found), 'unreadable game')} in {plural(files, 'file')}")


@json_on_failure(refused)
def show_cmd(
    game_id: GameIdArgument,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one stored game: tags, rules, players and scores, every hand, the diagnostics,
    and the points flow by trick (the running scores as the counters fall).

    A Sheng ji match: a line per round (dealer, trump, the opponents' points, the kitty, the
    level change, the next dealer and each seat's level, * for the declarers), the winners and
    the diagnostics.

    The files that hold the game are named as `zfrec delete` names them (`files`)."""
    from zfrec.games import find_kind
    from zfrec.games.zhengfen.analysis.analyze import analyze_game
    from zfrec.store import get_game, load_record, session
    from zfrec.store.correct import game_sources

    with _store(db, create=False) as engine, session(engine, readonly=True) as s:
        detail = get_game(s, game_id=game_id)
        record = load_record(s, game_id)
        files = game_sources(s, game_id=game_id)
    held = {"files": [{"path": p, "position": n} for p, n in files]}
    if detail.rounds is not None:  # a kind with rows of its own (Sheng ji's rounds)
        if as_json:
            print_json(detail.to_json() | held)
        else:
            _print_detail(detail, files)
        return
    assert find_kind(detail.kind).analysed
    flow = analyze_game(record, alternatives=False).points_flow()
    if as_json:
        print_json(
            detail.to_json() | held | {"points_flow": [r.to_json(record.players) for r in flow]}
        )
    else:
        _print_detail(detail, files)
        _print_flow(flow, record.players)


def _print_detail(d: GameDetail, files: list[tuple[str, int]]) -> None:
    from zfrec.games import find_kind

    r = d.row
    targeted = find_kind(d.kind).default_target is not None  # a game played to a score
    out.print(f"[bold]game {r.id}[/]  {escape(r.event or '')}", markup=True)
    for label, value in (
        ("date", r.date),
        ("site", d.site),
        *((name, value) for name, value in d.tags),
        ("rules", d.preset + "".join(f" {k}={v}" for k, v in d.options.items())),
        ("target", str(d.target) if targeted else None),
        # the files that hold it now, as `delete` names them (`source_path` is the first seen)
        *(("file", f"{path} (game {number})") for path, number in files),
        ("hash", r.content_hash),
    ):
        if value:
            out.print(f"  {label:<8} {escape(str(value))}")
    status = "valid" if r.valid else f"[red]{r.errors} error(s)[/]"
    out.print(f"  {'status':<8} {status}, {d.warnings} warning(s)", markup=True)
    if d.rounds is not None:
        columns = d.rounds.columns
        _print_rows(columns, d.rounds.rows(), right=(0, 3, *range(7, len(columns))))
        if r.winners:
            out.print(f"winner: {escape(', '.join(r.winners))}")
        _print_diagnostics(d)
        return
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("hand", justify="right")
    table.add_column("shuffler")
    table.add_column("first")
    table.add_column("last")
    for name in r.players:
        table.add_column(escape(name), justify="right")
    for h in d.hands:
        points = ["-" if p is None else str(p) for p in h.points] or ["-"] * len(r.players)
        table.add_row(
            str(h.number), escape(h.shuffler or "-"), escape(h.first or "-"), escape(h.last or "-"),
            *points,
        )  # fmt: skip
    table.add_row(
        "total", "", "", "", *("-" if v is None else str(v) for v in d.scores), style="bold"
    )
    out.print(table)
    if r.winners:
        out.print(f"winner: {escape(', '.join(r.winners))}")
    _print_diagnostics(d)


def _print_rows(
    columns: Sequence[str], rows: list[list[str]], right: Sequence[int], title: str | None = None
) -> None:
    """A table of text cells; `right`: the columns aligned right besides those of seats."""
    table = Table(
        box=None, header_style="bold", pad_edge=False, title=title, title_justify="left",
        title_style="bold",
    )  # fmt: skip
    for i, name in enumerate(columns):
        table.add_column(escape(name), justify="right" if i in right else "left")
    for row in rows:
        table.add_row(*(escape(c) for c in row))
    out.print(table)


def _print_diagnostics(d: GameDetail) -> None:
    for diag in d.diagnostics:
        where = ":".join(str(diag[k]) for k in ("line", "col") if diag[k] is not None) or "-"
        out.print(f"  {where:>7} {diag['severity']} {diag['code']} {escape(diag['message'])}")


def _print_flow(flow: list[FlowRow], players: list[str]) -> None:
    """The points flow, without the tricks that held no counter (the JSON has every trick)."""
    rows = [r for r in flow if r.points or r.kind == "transfer"]
    if not rows:
        return
    table = Table(
        box=None, header_style="bold", pad_edge=False, title="points flow by trick",
        title_justify="left", title_style="bold",
    )  # fmt: skip
    for name in ("hand", "trick"):
        table.add_column(name, justify="right")
    table.add_column("to")
    table.add_column("points", justify="right")
    for name in players:
        table.add_column(escape(name), justify="right")
    for r in rows:
        trick = "transfer" if r.trick is None else str(r.trick)
        to = (
            players[r.seat]
            if r.from_seat is None
            else f"{players[r.from_seat]} → {players[r.seat]}"
        )
        table.add_row(str(r.hand), trick, escape(to), f"+{r.points}", *map(str, r.scores))
    out.print()
    out.print(table)
    skipped = len(flow) - len(rows)
    if skipped:
        out.print(f"{skipped} trick(s) without counters not shown; --json lists every trick")


@json_on_failure(refused)
def stats_cmd(
    player: Annotated[str | None, typer.Option("--player", "-p", help="Only this player.")] = None,
    valid_only: Annotated[
        bool, typer.Option("--valid-only", help="Count only games without errors.")
    ] = False,
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            help="Only the games of this kind (zhengfen, shengji); --json "
            "gives one kind's players, Zheng Fen's unless this names another.",
        ),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Per player: games, hands, wins, win rate, mean points per hand, first-out and last
    rates; then, from the decision analysis of every stored record: counters captured and
    conceded, missed beats per hand and the categories played.

    Points and rates are over finished hands, as the rules compute them; the win rate is over
    the games that reached the target. Sheng ji matches have a table of their own: rounds as
    declarers and held, as opponents, the opponents' points and the levels gained.
    """
    from zfrec.games import DEFAULT_KIND, UnknownKindError, find_kind
    from zfrec.store import player_stats, session
    from zfrec.store.queries import stored_kinds

    try:
        chosen = None if game is None else find_kind(game).name
    except UnknownKindError as exc:
        fail(exc.message)
    others: list[Any] = []
    with _store(db, create=False) as engine, session(engine, readonly=True) as s:
        stored = stored_kinds(s)
        kinds = stored if chosen is None else [chosen]
        if as_json and chosen is None:
            kinds = [DEFAULT_KIND]
        stats = []
        if DEFAULT_KIND in kinds or not kinds:
            stats = player_stats(s, player=player, valid_only=valid_only, analysis=True)
        for k in kinds:
            found = find_kind(k).store_stats(s, player=player, valid_only=valid_only)
            if found is not None:
                others.append(found)
    hint = other_kinds_hint(stored, kinds or [DEFAULT_KIND])
    if as_json:
        if others:
            print_json(others[0].to_json())
        else:
            print_json([p.to_json() for p in stats])
        if hint:  # standard output stays the document scripts read
            err.print(f"hint: {escape(hint)}", markup=True)
        return
    if not stats and not any(o.players for o in others):
        out.print(f"no {kinds_titles(kinds)} games stored" if hint else "no games stored")
    else:
        if stats:
            _print_stats(stats)
        for o in others:
            if o.players:
                if stats:
                    out.print()
                _print_rows(o.columns, o.rows(), right=range(1, len(o.columns)), title=o.title)
                out.print(o.note)
    if hint:
        out.print(f"hint: {escape(hint)}")


def _print_stats(stats: list[PlayerStats]) -> None:
    """Zheng Fen's tables: the measures, then the decision analysis."""
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("player")
    for name in ("games", "hands", "wins", "win rate", "points/hand", "first out", "last"):
        table.add_column(name, justify="right")
    for p in stats:
        table.add_row(
            escape(p.name), str(p.games), str(p.hands), str(p.wins), _rate(p.win_rate),
            f"{p.mean_points_per_hand:.1f}", f"{p.first_out_rate:.1%}", f"{p.last_rate:.1%}",
        )  # fmt: skip
    out.print(table)
    out.print()
    analysis = Table(
        box=None, header_style="bold", pad_edge=False, title="decision analysis",
        title_justify="left", title_style="bold",
    )  # fmt: skip
    analysis.add_column("player")
    for name in ("captured", "conceded", "missed beats", "per hand"):
        analysis.add_column(name, justify="right")
    analysis.add_column("categories played", overflow="fold")
    for p in stats:
        categories = sorted((p.categories_played or {}).items(), key=lambda kv: (-kv[1], kv[0]))
        analysis.add_row(
            escape(p.name), _count(p.counters_captured), _count(p.counters_conceded),
            _count(p.missed_beats),
            "-" if p.missed_beats_per_hand is None else f"{p.missed_beats_per_hand:.2f}",
            ", ".join(f"{name.replace('_', ' ')} {n}" for name, n in categories) or "-",
        )  # fmt: skip
    out.print(analysis)
    out.print(
        "captured: counters won in tricks, before the transfer; conceded: counters played into\n"
        "a trick another player won; missed beats: passes although a play was legal (per hand:\n"
        "over the hands whose deal is known); win rate: over the games that reached the target."
    )


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _count(value: int | None) -> str:
    return "-" if value is None else str(value)


def export_cmd(
    game_id: GameIdArgument,
    fmt: Annotated[
        str | None, typer.Option("--format", "-f", help="zfn (default) or json.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="The record in JSON: the same as --format json.")
    ] = False,
    out_path: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Write to this file instead of stdout (a .json name means JSON unless "
            "--format says otherwise).",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Write a stored game's canonical record: exactly what was imported, formatted canonically."""
    from zfrec.store import export_game, session

    if fmt is not None and fmt not in ("zfn", "json"):
        fail(f"--format is zfn or json, not {fmt!r}")
    if as_json and fmt == "zfn":
        fail("--json and --format zfn ask for different formats: give one")
    # without a format, --out's suffix tells it, as for `convert` (a .json file of .zfn text
    # read as neither)
    by_name = fmt is None and out_path is not None and out_path.suffix.lower() == ".json"
    chosen: Format = "json" if as_json or fmt == "json" or by_name else "zfn"
    with _store(db, create=False) as engine, session(engine, readonly=True) as s:
        text = export_game(s, game_id=game_id, format=chosen)
    if out_path is None:
        sys.stdout.write(text)
        return
    try:
        write_atomic(out_path, text)
    except OSError as exc:
        fail(file_problem(str(out_path), exc, "write"))


def register(app: typer.Typer) -> None:
    app.command("import")(import_cmd)
    app.command("games")(games_cmd)
    app.command("show")(show_cmd)
    app.command("unreadable")(unreadable_cmd)
    app.command("stats")(stats_cmd)
    app.command("export")(export_cmd)
    app.command("delete")(delete_cmd)
