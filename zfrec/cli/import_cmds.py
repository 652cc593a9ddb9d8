"""`zfrec import` and `zfrec delete`: writing the store from the command line. Each file is
imported in one transaction (zfrec.store.importer); a run that stops part way says which files
were stored and which were not.

The store (SQLAlchemy, Alembic) is imported inside the commands, so other commands start fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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

from zfrec.cli.common import (
    CLICK_EXITS,
    EXIT_INPUT,
    EXIT_INTERNAL,
    err,
    error_what,
    fail,
    file_problem,
    friendly_errors,
    json_on_failure,
    out,
    plural,
    print_json,
    refused,
)
from zfrec.cli.store_common import (
    MAX_GAME_ID,
    DbOption,
    JsonOption,
    opened_store,
)
from zfrec.cli.validate_cmds import expand_paths
from zfrec.errors import ZfrecError, path_text, place_text, processing
from zfrec.games import find_kind, units_text
from zfrec.stopping import stop_on_interrupt

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from zfrec.store import ImportResult

__all__ = ["delete_cmd", "import_cmd"]


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
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="With --replace: put the record in place of game ID even when it is plainly "
            "not a version of it (another kind of game, or neither its event and date nor a "
            "deal in common).",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Validate records, then store them: each file in one transaction, all or nothing.

    Re-importing a file adds nothing; a changed file replaces what it held before. Games with
    errors are stored with their diagnostics and flagged, unless --only-valid. Exit 0 when every
    game of every file was stored clean, 1 when there are findings (a file that could not be
    stored, a game that could not be read, a game with errors), 2 on bad arguments, an
    unreadable file or an unusable database.

    A new record with the Event, Date and players of a stored game and half of its plays is a
    correction: it replaces that game, which keeps its id (STORE.md has the rule).
    """
    from zfrec.batch import count_games
    from zfrec.store import import_workers

    if replace is not None:
        _replace(replace, paths, db, only_valid, as_json, force)
        return
    if force:
        fail("--force goes with --replace ID")
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
    # Ctrl-C stops the run between files (a second one at once): a commit it cut would leave
    # the store's session in no state to say what was stored.
    with (
        import_workers(jobs) as workers,
        opened_store(db) as engine,
        progress,
        stop_on_interrupt() as stop,
    ):
        total = sum(count_games(f) for f in files) if shown else None
        task = progress.add_task("", total=total)
        s_args = _ImportArgs(engine, only_valid, workers, as_json)
        for index, path in enumerate(files):
            then = files[index + 1] if index + 1 < len(files) else None
            done = len(results) + len(failed)
            try:
                with processing(path):
                    _import_one(s_args, path, then, progress, task, results, failed)
                if stop.interrupted:
                    raise KeyboardInterrupt
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
    # A file that could not be read is input error, exit 2, once the others are stored.
    raise typer.Exit(2 if s_args.unread else 1 if findings else 0)


@dataclass(frozen=True, slots=True)
class _ImportArgs:
    engine: Engine
    only_valid: bool
    workers: Any
    as_json: bool
    unread: list[str] = field(default_factory=list)  # the files that could not be read


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
        a.unread.append(path)
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
    game_id: int, paths: list[str], db: str | None, only_valid: bool, as_json: bool, force: bool
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
        with (
            opened_store(db, create=False, writes=True) as engine,
            friendly_errors(path),
            session(engine) as s,
        ):
            where = _where(engine)
            result = replace_game(s, game_id=game_id, path=path, check=not force)
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
    game_id: Annotated[
        list[int],
        typer.Argument(
            help="The games' ids (see `zfrec games`): one or several, e.g. $(seq 12 77).",
            min=1,
            max=MAX_GAME_ID,
        ),
    ],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Delete stored games, with everything derived from them (hands, plays, diagnostics and
    rendered pages). A live table that finished one keeps its entries.

    Several ids are deleted all together or not at all, in one transaction: one id that is not
    a stored game deletes nothing. A file that holds a game still does: importing that file
    again stores it again. Exit 0, 2 when there is no such game.
    """
    from zfrec.store import get_game, session
    from zfrec.store.correct import game_sources
    from zfrec.store.db import StoreError
    from zfrec.store.removal import delete_game

    ids = list(dict.fromkeys(game_id))  # each once, in the order given
    done: list[tuple[int, Any, list[tuple[str, int]]]] = []
    with opened_store(db, create=False, writes=True) as engine, session(engine) as s:
        missing = [i for i in ids if not _stored(s, i)]
        if missing:
            listed = ", ".join(map(str, missing))
            more = f"; nothing was deleted (the {len(ids)} ids go together)" if len(ids) > 1 else ""
            raise StoreError(
                f"no game{'s' if len(missing) > 1 else ''} {listed} in the store{more}"
            )
        for one in ids:
            detail = get_game(s, game_id=one)
            files = game_sources(s, game_id=one)
            delete_game(s, game_id=one)
            done.append((one, detail.row, files))
    if as_json:
        games = [
            {
                "deleted": one,
                "event": row.event,
                "date": row.date,
                "players": row.players,
                "hands": row.hands,
                "files": [{"path": p, "position": n} for p, n in files],
            }
            for one, row, files in done
        ]
        print_json(games[0] | {"games": games})  # the first game's keys, as for one id
        return
    for one, row, files in done:
        what = ", ".join(x for x in (row.event, row.date, ", ".join(row.players)) if x)
        unit = find_kind(row.kind).unit
        out.print(f"game {one} deleted ({escape(what)}; {plural(row.hands, unit)})")
        for path, number in files:
            out.print(
                f"note: {escape(path)} (game {number}) still holds it: importing that file again "
                "stores it again"
            )
    if len(done) > 1:
        out.print(f"{len(done)} games deleted")


def _stored(s: Any, game_id: int) -> bool:
    from sqlalchemy import select

    from zfrec.store.tables import GAME

    return s.connection().execute(select(GAME.c.id).where(GAME.c.id == game_id)).first() is not None


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
