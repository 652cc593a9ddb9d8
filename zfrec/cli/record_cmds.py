"""`zfrec fmt` and `zfrec convert`: canonical formatting and conversion of record files."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from zfrec.cli.common import (
    err,
    fail,
    file_mode_for,
    file_problem,
    out,
    read_stdin,
    walk_records,
)
from zfrec.errors import NotationError, ZfrecError, processing
from zfrec.record import (
    FORMATS,
    Format,
    Game,
    dumps,
    format_of,
    iter_records,
    iter_records_text,
)
from zfrec.record.zfn import write_zfn

FORMAT_HELP = "zfn or json. Default: from the file extension (.zfn, .json)."


def _say_error(message: str) -> None:
    # Messages quote source lines, which may hold [brackets]: never let rich read them as markup.
    err.print(f"[bold red]error:[/] {escape(message)}", markup=True)


class _TempOutput:
    """A temp file beside `path` that atomically replaces it on keep(), else is removed.

    Writing beside the target keeps os.replace on one file system, so readers see either the
    old file or the complete new one, never a half-written file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._kept = False
        self._mode = file_mode_for(path)
        self.stream = tempfile.NamedTemporaryFile(  # noqa: SIM115 - lifetime is this object
            "w",
            encoding="utf-8",
            newline="\n",
            dir=path.parent,
            prefix=f".{path.name}.",
            suffix=".tmp",
            delete=False,
        )
        self.name = self.stream.name

    def keep(self) -> None:
        self.stream.close()
        os.chmod(self.name, self._mode)  # the temp file is rw------- whatever the umask
        os.replace(self.name, self.path)
        self._kept = True

    def __enter__(self) -> _TempOutput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stream.close()
        if not self._kept:
            with contextlib.suppress(OSError):
                os.unlink(self.name)


def _games(path: Path, problems: list[str]) -> Iterator[Game]:
    """The games of a file; the errors of bad games go to `problems`."""
    for item in iter_records(path):
        if isinstance(item, NotationError):
            problems.append(str(item))
        else:
            yield item


def _format_file(path: Path, check: bool, problems: list[str]) -> bool | None:
    """Canonicalise one file: True if it changed (or would), False if it was canonical, None if
    it has errors and was left alone."""
    found: list[str] = []
    with _TempOutput(path) as tmp:
        if format_of(path) == "zfn":
            write_zfn(_games(path, found), tmp.stream)  # streamed: constant memory
        else:
            games = list(_games(path, found))
            if not found:
                tmp.stream.write(dumps(games[0] if len(games) == 1 else games, "json"))
        tmp.stream.close()
        if found:
            problems.extend(found)
            return None
        changed = not _same_bytes(path, Path(tmp.name))
        if changed and not check:
            tmp.keep()
        return changed


def _same_bytes(a: Path, b: Path) -> bool:
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            block_a, block_b = fa.read(1 << 16), fb.read(1 << 16)
            if block_a != block_b:
                return False
            if not block_a:
                return True


def _fmt_problem(path: Path, exc: OSError) -> str:
    """Reading the file, or writing its replacement beside it, failed."""
    if exc.filename in (None, str(path)):
        return file_problem(str(path), exc)
    return file_problem(str(path.parent), exc, "write in")


def _with_directories(paths: list[Path]) -> Iterator[Path]:
    """Each path, a directory replaced by the record files under it (walk_records)."""
    for path in paths:
        if path.is_dir():
            yield from map(Path, walk_records(path))
        else:
            yield path


def fmt(
    files: Annotated[
        list[Path],
        typer.Argument(
            help="Record files (.zfn or .json) to rewrite in canonical form, or directories "
            "(every record in them)."
        ),
    ],
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Change nothing; list the files that would change and exit 1 if there are any.",
        ),
    ] = False,
) -> None:
    """Rewrite record files in canonical form, like black: same record, standard layout.

    Formatting is idempotent and each file is replaced atomically, so an interrupted run never
    leaves a half-written file. A file with a syntax error is left untouched and reported
    (every bad game, with line, column and a caret); the exit code is then 2.
    """
    problems: list[str] = []
    changed = unchanged = 0
    for path in _with_directories(files):
        try:
            with processing(str(path)):
                result = _format_file(path, check, problems)
        except ZfrecError as exc:
            problems.append(str(exc))
            continue
        except UnicodeDecodeError as exc:
            problems.append(file_problem(str(path), exc))
            continue
        except OSError as exc:
            problems.append(_fmt_problem(path, exc))
            continue
        if result is None:
            continue
        if result:
            changed += 1
            out.print(escape(f"{'would reformat' if check else 'reformatted'} {path}"))
        else:
            unchanged += 1
    for problem in problems:
        _say_error(problem)
    verb = "would be reformatted" if check else "reformatted"
    summary = f"{changed} file{'s' if changed != 1 else ''} {verb}, {unchanged} unchanged"
    if problems:
        summary += f", {len(problems)} error{'s' if len(problems) != 1 else ''}"
    err.print(escape(summary))
    if problems:
        raise typer.Exit(2)
    if check and changed:
        raise typer.Exit(1)


def _read_input(source: str, fmt_name: Format | None) -> tuple[list[Game], Format]:
    if source == "-":
        text = read_stdin()
        name = "<stdin>"
        fmt_in: Format = fmt_name or ("json" if text.lstrip().startswith("{") else "zfn")
        items = list(iter_records_text(text, fmt_in, name))
    else:
        fmt_in = fmt_name or format_of(source)
        if fmt_name is not None and fmt_name != format_of(source):
            text = Path(source).read_text(encoding="utf-8-sig")
            items = list(iter_records_text(text, fmt_in, source))
        else:
            items = list(iter_records(source))
    errors = [i for i in items if isinstance(i, NotationError)]
    for error in errors:
        _say_error(str(error))
    if errors:
        raise typer.Exit(2)
    return [i for i in items if isinstance(i, Game)], fmt_in


def _check_format(value: str | None) -> Format | None:
    if value is None:
        return None
    low = value.lower()
    if low == "zfn":
        return "zfn"
    if low == "json":
        return "json"
    fail(f"unknown format {value!r}: use {' or '.join(FORMATS)}")


def _same_file(source: str, target: str) -> bool:
    if "-" in (source, target):
        return False
    a, b = Path(source), Path(target)
    try:
        return a.resolve() == b.resolve() or (b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def convert(
    source: Annotated[str, typer.Argument(help="Input record file, or - for standard input.")],
    target: Annotated[str, typer.Argument(help="Output file, or - for standard output.")],
    from_format: Annotated[
        str | None,
        typer.Option("--from", help=f"Input format: {FORMAT_HELP} For - the input is sniffed."),
    ] = None,
    to_format: Annotated[
        str | None,
        typer.Option(
            "--to", help=f"Output format: {FORMAT_HELP} For - the other format than the input."
        ),
    ] = None,
) -> None:
    """Convert a record between .zfn text and JSON (both ways), in canonical form.

    Examples: `zfrec convert club.zfn club.json`, `zfrec convert game.json -`,
    `cat club.zfn | zfrec convert - - --to json`. A JSON file holds one game object, or
    {"games": [...]} when there are several. The output file is written atomically and only
    if every game parsed; otherwise each error is shown and the exit code is 2.

    The exit code is 2 too for input that holds no game (nothing is written) and when SOURCE
    and TARGET are the same file: convert never rewrites its input; `zfrec fmt` puts a record
    in canonical form in place. A new file gets the permissions the umask gives.
    """
    fmt_in_opt = _check_format(from_format)
    fmt_out = _check_format(to_format)
    if source != "-" and Path(source).is_dir():
        fail(f"{source} is a directory: give a record file")
    if source != "-" and not Path(source).exists():
        fail(f"no such file: {source}")
    if _same_file(source, target):
        fail(
            f"{source} and {target} are the same file: convert never rewrites its input "
            f"(zfrec fmt {source} puts it in canonical form in place)"
        )
    try:
        with processing(source):
            games, fmt_in = _read_input(source, fmt_in_opt)
    except ZfrecError as exc:
        fail(str(exc))
    except (OSError, UnicodeDecodeError) as exc:
        fail(file_problem("standard input" if source == "-" else source, exc))
    if not games:
        fail(f"{'standard input' if source == '-' else source} holds no game: nothing to convert")
    try:
        if fmt_out is None:
            fmt_out = ("json" if fmt_in == "zfn" else "zfn") if target == "-" else format_of(target)
        with processing(source):
            text = dumps(games[0] if len(games) == 1 and fmt_out == "json" else games, fmt_out)
    except ZfrecError as exc:
        fail(str(exc))
    if target == "-":
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.flush()
        return
    try:
        with _TempOutput(Path(target)) as tmp:
            tmp.stream.write(text)
            tmp.keep()
    except OSError as exc:
        fail(file_problem(target, exc, "write"))


def register(app: typer.Typer) -> None:
    app.command("fmt")(fmt)
    app.command("convert")(convert)
