"""Helpers shared by the CLI modules: error handling, JSON output, rules options, help text.

Exit codes of every command: 0 ok, 1 findings (or a plain "no"), 2 usage or input error,
3 internal error (a bug in zfrec: see `zfrec.cli.main`).
"""

from __future__ import annotations

import functools
import json
import os
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, NoReturn, TypeVar, cast

import click
import typer
from rich.console import Console
from rich.markup import escape

from zfrec.errors import FILE_ATTR, ZfrecError, not_utf8, place_text, preset_hint
from zfrec.games import DEFAULT_KIND, KINDS, GameKind, find_kind, kind_problem
from zfrec.games.zhengfen.engine.rules import Ruleset, parse_option, preset

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

RULES_HELP = "Rules preset: pagat (default), poppel or parlett."
OPTION_HELP = "Override one rule option, e.g. --option self_overplay=true. Repeatable."
JSON_HELP = "Print JSON for scripts instead of text."
# The options of the commands that serve every game (--game picks the kind, whose body runs:
# GameKind.command); the help names each game's part.
GAME_HELP = (
    "The game: "
    + " or ".join(name + (" (default)" if name == DEFAULT_KIND else "") for name in KINDS)
    + "; a command only one game has is that game's without it."
)
GAME_RULES_HELP = (
    "Rules preset: pagat (default), poppel or parlett; with --game shengji: bashifen (default), "
    "dabaifen or zhaopengyou."
)
TRUMP_HELP = "Sheng ji: the dominant rank and trump suit, e.g. 7c (rank 7, clubs), or 7 (no-trump)."
DECKS_HELP = "Sheng ji: the number of decks (default by the preset: 2, or 1 for dabaifen)."
SJ_RULES_HELP = "Rules preset: bashifen (default), dabaifen or zhaopengyou."
SJ_OPTION_HELP = (
    "Override one rule option, e.g. --option throw_penalty=10 (kitty_multiplier, "
    "throw_penalty, no_bid, must_defend, players, decks). Repeatable."
)

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
RECORD_SUFFIXES = (".zfn", ".json")


def walk_records(top: Path) -> list[str]:
    """The record files under the folder `top`, at any depth, sorted: every command that takes a
    folder walks it here. A record has a record's suffix (.zfn, .json); hidden files and folders
    below `top` (a name starting with `.`) are left out: a site published into the records'
    folder keeps its manifest `.zfrec-site.json` there, an editor its locks (`.#x.zfn`), git its
    `.git`. Links to folders are not followed; a link to a file is listed, even one to nowhere
    (its reader names it)."""
    found: list[str] = []
    for folder, subfolders, names in os.walk(top):
        subfolders[:] = [name for name in subfolders if not name.startswith(".")]
        found += (
            str(Path(folder) / name)  # as Path.rglob spells it: `.` gives `a.zfn`, not `./a.zfn`
            for name in names
            if not name.startswith(".") and os.path.splitext(name)[1].lower() in RECORD_SUFFIXES
        )
    return sorted(found)


def game_kind_of(game: str) -> GameKind:
    """The kind `--game` names, or exit 2 with the registry's message (with its did-you-mean)."""
    problem = kind_problem(game)
    if problem:
        fail(problem)
    return find_kind(game)


def game_command(ctx: typer.Context, game: str, verb: str) -> Callable[..., None]:
    """The body of `zfrec VERB` for the kind `--game` names (GameKind.command; without --game,
    the one game that has the command, where only one has it), or exit 2 naming
    the games that have the command, or naming the options given (on the command line `ctx`
    reads) that only another game takes (`refuse_others_options`)."""
    kind = game_kind_of(game)
    body = kind.command(verb)
    having = [find_kind(name) for name in KINDS if find_kind(name).command(verb)]
    if body is None and len(having) == 1 and _source(ctx, "game") == "DEFAULT":
        kind = having[0]  # one game has the command and --game was not given: that game's
        body = kind.command(verb)
    if body is None:
        names = " or ".join(kind.title for kind in having)
        adds = " or ".join(f"--game {kind.name}" for kind in having)
        fail(f"`zfrec {verb}` is a {names} command: add {adds}")
    refuse_others_options(ctx, kind, verb)
    if "DEFAULT" in (_source(ctx, "game"), _source(ctx, "game_kind")):  # --game not given
        _refuse_others_preset(ctx.params.get("rules"), kind)
    return body


def _refuse_others_preset(rules: object, kind: GameKind) -> None:
    """Exit 2 when `--rules` (without --game) names another game's preset, or one close to it,
    and none of `kind`'s: "dabaifen is a Sheng ji preset: add --game shengji"."""
    word = rules.strip().casefold() if isinstance(rules, str) else ""
    if not word or word in kind.presets or preset_hint(word, list(kind.presets)):
        return  # the game's own preset (misspelt: its own message says so)
    for name in KINDS:
        other = find_kind(name)
        if other.name == kind.name:
            continue
        add = f"add --game {other.name}"
        if word in other.presets:
            fail(f"{word} is a {other.title} preset: {add}")
        hint = preset_hint(word, list(other.presets))
        if hint:
            fail(f"unknown preset {word!r}{hint[:-1]} ({other.title}'s: {add})?")


def _source(ctx: typer.Context, name: str) -> str | None:
    """Where the command line's parameter `name` came from (click's ParameterSource, by name)."""
    source = ctx.get_parameter_source(name)
    return None if source is None else source.name


def refuse_others_options(ctx: typer.Context, kind: GameKind, verb: str) -> None:
    """Exit 2 when the command line gives `zfrec VERB` an option that only another game takes
    (that game's `GameKind.own_options`): "--trump is Sheng ji's: add --game shengji", or in
    `kind`'s words where it has some (`GameKind.refusals`; the options given that it words
    alike are named together). Given means written on the command line, whatever its value (a
    default is not given). `kind` is the game `--game` names, or (`zfrec solve`) the record's."""
    given = {
        flag
        for p in ctx.command.params
        if p.name and _source(ctx, p.name) in ("COMMANDLINE", "ENVIRONMENT")
        for flag in p.opts
    }
    mine = set(kind.own_options.get(verb, ()))
    for name in KINDS:
        other = find_kind(name)
        if other is kind:
            continue
        names = [f for f in other.own_options.get(verb, ()) if f in given and f not in mine]
        whys = [kind.refusals[flag] for flag in names if flag in kind.refusals]
        if whys:  # the ones `kind` explains: those it words as the first
            names = [flag for flag in names if kind.refusals.get(flag) == whys[0]]
        if names:
            are = "is" if len(names) == 1 else "are"
            why = whys[0] if whys else f": add --game {other.name}"
            listed = ", ".join(names[:-1]) + " and " if len(names) > 1 else ""
            fail(f"{listed}{names[-1]} {are} {other.title}'s{why}")


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    """Print a one-line error (no traceback) and exit. `message` is plain text, not markup.

    Under `--json` (a command wrapped by `json_on_failure`) an input error that comes before
    the command's document also prints the command's document of that failure on standard
    output: a script that asked for JSON gets JSON."""
    failure = _FAILURE_JSON.get()
    if failure is not None and code == EXIT_INPUT:
        document, params = failure
        print_json(document(message, params))
    err.print(f"[bold red]error:[/] {escape(message)}", markup=True)
    raise typer.Exit(code)


FailureDocument = Callable[[str, dict[str, Any]], Any]
"""A command's `--json` document of an input error: from the message and the command's
parameters (by name)."""
# The running command's, while it has printed no document yet (print_json clears it).
_FAILURE_JSON: ContextVar[tuple[FailureDocument, dict[str, Any]] | None] = ContextVar(
    "failure_json", default=None
)
_Command = TypeVar("_Command", bound=Callable[..., Any])
# what a command raises to end on purpose (typer.Exit is click's Exit, a RuntimeError)
CLICK_EXITS = (click.exceptions.Exit, click.exceptions.Abort, click.exceptions.ClickException)
FAILURE_ATTR = "json_failure"  # a wrapped command's document (typer's callback copies it)


def json_on_failure(document: FailureDocument) -> Callable[[_Command], _Command]:
    """Wrap a command that takes `--json` (its parameter `as_json`): given --json, an input
    error (`fail`, exit 2) before the command prints its document prints `document(message,
    params)` instead, on standard output, as well as the one line on standard error. The
    command's document with nothing in it and an `error` (README.md, `--json`). So does an
    unexpected exception (exit 3), with the internal error's report as `error`; its one line
    on standard error follows (zfrec.cli.main)."""

    def wrap(command: _Command) -> _Command:
        @functools.wraps(command)
        def run(*args: Any, **params: Any) -> Any:
            token = _FAILURE_JSON.set((document, params) if params.get("as_json") else None)
            try:
                return command(*args, **params)
            except Exception as exc:
                if _FAILURE_JSON.get() is not None and not isinstance(exc, CLICK_EXITS):
                    print_json(document(internal_error(exc), params))
                raise
            finally:
                _FAILURE_JSON.reset(token)

        setattr(run, FAILURE_ATTR, document)  # for a usage error, before the command runs
        return cast(_Command, run)

    return wrap


def refused(message: str, params: dict[str, Any]) -> dict[str, Any]:
    """The `--json` document of a command refused that has no empty form of its own (one
    position, one game, a list): `{"error": ...}` alone."""
    return {"error": message}


def json_written() -> None:
    """The command has begun its own document (print_json, or validate's as it is made): a
    failure from now on is told in it, or on standard error alone."""
    _FAILURE_JSON.set(None)


def read_stdin() -> str:
    """Standard input as a record's text: UTF-8, a byte order mark read past, as a record file
    is read (UnicodeDecodeError otherwise: never read with its bytes replaced)."""
    return sys.stdin.buffer.read().decode("utf-8-sig")


def file_problem(path: str | None, exc: OSError | UnicodeDecodeError, verb: str = "read") -> str:
    """What is wrong with a file, in words, naming it: for messages and per-file findings."""
    name = path or getattr(exc, "filename", None) or "input"
    if isinstance(exc, UnicodeDecodeError):
        return not_utf8(name) if name != "input" else f"cannot read {name}: not UTF-8 text"
    if isinstance(exc, IsADirectoryError):
        return f"{name} is a directory: give a record file" if verb == "read" else (
            f"cannot write {name}: it is a directory"
        )  # fmt: skip
    if isinstance(exc, FileNotFoundError):
        return f"no such file: {name}" if verb == "read" else (
            f"cannot write {name}: its directory does not exist"
        )  # fmt: skip
    if isinstance(exc, NotADirectoryError):
        return f"cannot {verb} {name}: a part of the path is not a directory"
    if isinstance(exc, PermissionError):
        return f"cannot {verb} {name}: permission denied"
    reason = (exc.strerror or str(exc)).strip()
    return f"cannot {verb} {name}: {reason[:1].lower()}{reason[1:]}"


@contextmanager
def friendly_errors(path: str | None = None) -> Iterator[None]:
    """Turn ZfrecError and unreadable files into a one-line message and exit code 2.

    `path` names the file being read, for the message and for an internal error's report.
    """
    try:
        yield
    except ZfrecError as exc:
        fail(str(exc))
    except (OSError, UnicodeDecodeError) as exc:
        fail(file_problem(path, exc))
    except Exception as exc:
        if (fault := _store_fault(exc)) is not None:
            fail(fault)
        if path is not None and not hasattr(exc, FILE_ATTR):
            setattr(exc, FILE_ATTR, path)
        raise


def _store_fault(exc: BaseException) -> str | None:
    """The database refusing or failing (read-only, unreachable, full), in one line; None for
    anything else. SQLAlchemy is looked at only when the error is its own: commands that do
    not use the store never import it."""
    if not type(exc).__module__.startswith("sqlalchemy"):
        return None
    from zfrec.store.faults import store_fault

    return store_fault(exc)


def error_what(exc: BaseException) -> str:
    """An unexpected exception's type and message, on one short line."""
    what = f"{type(exc).__name__}: {exc}".strip().rstrip(":").splitlines()[0]
    if len(what) > 200:  # the message may quote hostile input: keep the report one short line
        what = what[:199] + "…"
    return what


def internal_error(exc: BaseException) -> str:
    """The one-line report of an unexpected exception (exit code 3): the file being processed
    and where in it (the game, the hand or round), where known."""
    where = getattr(exc, FILE_ATTR, None)
    place = place_text(exc)
    if where and place:
        where = f"{where}, {place}"
    return (
        f"internal error{f' while processing {where}' if where else ''}: {error_what(exc)} "
        "(a bug in zfrec; ZFREC_TRACEBACK=1 shows the traceback)"
    )


def file_mode_for(path: Path) -> int:
    """The permissions a file written at `path` should get: those of the file it replaces, else
    what the umask leaves of rw-rw-rw- (temporary files start as rw-------)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def option_dict(options: list[str] | None) -> dict[str, Any]:
    """`name=value` options from the command line, typed and checked."""
    with friendly_errors():
        return dict(parse_option(o) for o in options or [])


def ruleset(name: str, options: list[str] | None) -> Ruleset:
    overrides = option_dict(options)
    with friendly_errors():
        return preset(name, **overrides)


def print_json(data: Any) -> None:
    json_written()
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    # written now, not at exit when stdout is a pipe: a Ctrl-C held while the answer is
    # printed (solve, publish) is then held while it is written too
    sys.stdout.flush()


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """`1 card set`, `2 card sets`."""
    return f"{count} {noun if count == 1 else plural_form or noun + 's'}"


def kinds_titles(kinds: list[str]) -> str:
    """The kinds' titles (zfrec.games), `Zheng Fen or Sheng ji`."""
    return " or ".join(find_kind(k).title for k in kinds)


def other_kinds_hint(stored: list[str], shown: list[str]) -> str | None:
    """What `zfrec stats` says when the store holds games of another kind (the registry's,
    zfrec.games) than the ones it shows: which, and the `--game` that shows them."""
    rest = [k for k in stored if k not in shown]
    if not rest:
        return None
    adds = " or ".join(f"--game {k}" for k in rest)
    held = (
        f"also holds {kinds_titles(rest)} games"
        if any(k in stored for k in shown)
        else f"holds no {kinds_titles(shown)} games, only {kinds_titles(rest)} ones"
    )
    return f"the store {held}: add {adds} for their statistics"


Register = Callable[[typer.Typer], None]
