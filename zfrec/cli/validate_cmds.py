"""`zfrec validate`: replay records through the rules and report every problem."""

from __future__ import annotations

import glob
import linecache
import multiprocessing
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from zfrec.cli.common import (
    JSON_HELP,
    OPTION_HELP,
    err,
    fail,
    option_dict,
    out,
    print_json,
    ruleset,
    tune_gc,
)
from zfrec.diagnostics import Diagnostic
from zfrec.engine.rules import Ruleset
from zfrec.errors import ZfrecError
from zfrec.validate import FileSummary, summarize, validate_path, validate_text

RECORD_SUFFIXES = (".zfn", ".json")
COLOURS = {"error": "red", "warning": "yellow", "info": "cyan"}


def expand_paths(paths: list[str]) -> list[str]:
    """Files as given, directories searched recursively for records, globs expanded."""
    found: list[str] = []
    for raw in paths:
        if raw == "-":
            found.append(raw)
            continue
        matches = sorted(glob.glob(raw, recursive=True)) if glob.has_magic(raw) else [raw]
        if not matches:
            fail(f"no files match {raw!r}")
        for match in matches:
            p = Path(match)
            if p.is_dir():
                found += sorted(str(f) for f in p.rglob("*") if f.suffix.lower() in RECORD_SUFFIXES)
            elif p.exists():
                found.append(str(p))
            else:
                fail(f"no such file or directory: {match}")
    return found


def check_file(
    path: str,
    rules: Ruleset | None,
    overrides: dict[str, Any],
    keep_json: bool,
    show_deal: bool,
    strict: bool,
) -> FileSummary:
    """Validate one file; runs in a worker process under --jobs."""
    tune_gc()
    items = (
        validate_text(sys.stdin.read(), "<stdin>", rules, overrides)
        if path == "-"
        else validate_path(path, rules, overrides)
    )
    return summarize(items, path, keep_json=keep_json, show_deal=show_deal, stop_at_error=strict)


def _excerpt(d: Diagnostic) -> list[str]:
    loc = d.location
    if loc.file is None or loc.line is None or loc.file == "<stdin>":
        return []
    text = linecache.getline(loc.file, loc.line).rstrip("\n")
    if not text or loc.file.lower().endswith(".json"):
        return []
    col = max(1, loc.col or 1)
    gutter = f"{loc.line:>5} | "
    return [gutter + text, " " * (len(gutter) + col - 1) + "^"]


def _regutter(line: str) -> str:
    """An excerpt line `12 | text` with its line number in the gutter width of _excerpt."""
    number, bar, text = line.partition("|")
    if not bar or not (number.strip().isdigit() or not number.strip()):
        return line
    return f"{number.strip():>5} |{text}"


def _print_file(summary: FileSummary) -> None:
    if not summary.diagnostics and not summary.deals:
        return
    out.print(f"[bold]{escape(summary.path)}[/]", markup=True)
    for line in summary.deals:
        out.print(escape(line), markup=True)
    for d in summary.diagnostics:
        loc = d.location
        where = f"{loc.line}:{loc.col}" if loc.line is not None else "-"
        play = loc.play()
        colour = COLOURS[d.severity]
        # A reader's message carries its own excerpt and caret: show that one, not a second.
        message, *excerpt = d.message.split("\n")
        out.print(
            f"  {where:>7} [{colour}]{d.severity} {d.code}[/] "
            f"{escape(play + ': ' if play else '')}{escape(message)}",
            markup=True,
        )
        for line in [_regutter(x) for x in excerpt] or _excerpt(d):
            out.print(f"          {escape(line)}", markup=True)


def _run(
    files: list[str], worker: partial[FileSummary], jobs: int, strict: bool
) -> Iterator[FileSummary]:
    if jobs <= 1 or len(files) <= 1:
        for path in files:
            yield worker(path)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(worker, files)


def validate_cmd(
    paths: Annotated[
        list[str],
        typer.Argument(help="Record files (.zfn, .json), directories, globs, or - for stdin."),
    ],
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            help="Re-judge under this preset instead of the record's. --option applies on top.",
        ),
    ] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Stop at the first error.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes.")] = 1,
    show_deal: Annotated[
        bool, typer.Option("--show-deal", help="Print each hand's deal, reconstructed or not.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Replay every record through the rules and report every problem with its location.

    Exit 0 when everything is legal, 1 when errors were found, 2 on unreadable input.
    Warnings and notes do not change the exit code. A move is every action, passes included.
    """
    judged = ruleset(rules, option) if rules else None
    overrides = option_dict(option)
    files = expand_paths(paths)
    if not files:
        fail("no record files found (.zfn or .json)")
    worker = partial(
        check_file,
        rules=judged,
        overrides=overrides,
        keep_json=as_json,
        show_deal=show_deal,
        strict=strict,
    )
    totals = FileSummary("")
    reports: list[dict[str, object]] = []
    progress = Progress(
        TextColumn("validating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=len(files) < 2,
    )
    try:
        with progress:
            task = progress.add_task("validate", total=len(files))
            for summary in _run(files, worker, jobs, strict):
                progress.advance(task)
                totals.games += summary.games
                totals.hands += summary.hands
                totals.moves += summary.moves
                totals.diagnostics += summary.diagnostics
                if as_json:
                    reports.append(
                        {
                            "path": summary.path,
                            "games": summary.game_json,
                            "diagnostics": [d.to_json() for d in summary.diagnostics],
                        }
                    )
                else:
                    _print_file(summary)
                if strict and summary.errors:
                    break
    except ZfrecError as exc:
        fail(str(exc))
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read input: {exc}")
    info = sum(d.severity == "info" for d in totals.diagnostics)
    if as_json:
        print_json(
            {
                "files": reports,
                "summary": {
                    "files": len(reports),
                    "games": totals.games,
                    "hands": totals.hands,
                    "moves": totals.moves,
                    "errors": totals.errors,
                    "warnings": totals.warnings,
                    "info": info,
                    "ok": totals.errors == 0,
                },
            }
        )
    else:
        verdict = "[green]all legal[/]" if totals.errors == 0 else "[red]findings[/]"
        out.print(
            f"{len(files)} file(s), {totals.games} game(s), {totals.hands} hand(s), "
            f"{totals.moves} move(s): {totals.errors} error(s), {totals.warnings} warning(s), "
            f"{info} note(s) - {verdict}",
            markup=True,
        )
    raise typer.Exit(1 if totals.errors else 0)


def register(app: typer.Typer) -> None:
    app.command("validate")(validate_cmd)
