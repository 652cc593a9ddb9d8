"""`zfrec validate`: replay records through the rules and report every problem."""

from __future__ import annotations

import glob
import itertools
import linecache
import signal
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

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

from zfrec.batch import STDIN, Options, count_games, file_findings, run
from zfrec.cli.common import (
    JSON_HELP,
    err,
    error_what,
    fail,
    json_on_failure,
    json_written,
    out,
    walk_records,
)
from zfrec.cli.jsonstream import JsonReportWriter
from zfrec.diagnostics import Diagnostic
from zfrec.errors import FILE_ATTR, ZfrecError, place_of, place_text
from zfrec.games import KINDS, find_kind, units_text
from zfrec.record.lexer import clip_around, display_width
from zfrec.validate import PARTIAL_ATTR, FileSummary, RuleTexts


def _rule_texts(rules: str | None, option: list[str] | None) -> RuleTexts | None:
    """`--rules` and `--option` as written, for each record's kind to read (validate_games),
    or None without them; exit 2 when no game's kind can read them."""
    if not rules and not option:
        return None
    texts: RuleTexts = (rules or None, tuple(option or ()))
    problems: list[str] = []
    hints: list[str] = []  # a close preset (`did you mean dabaifen?`), said once at the end
    for name in KINDS:
        kind = find_kind(name)
        try:
            kind.judging_rules(*texts)
        except ZfrecError as exc:
            said, _, hint = exc.message.partition("; did you mean ")
            problems.append(f"{kind.title}: {said}")  # whose reading says what
            hints += [hint] if hint else []
        else:
            return texts
    hint = f"; did you mean {' or '.join(h.rstrip('?') for h in hints)}?" if hints else ""
    fail("no game reads these rules: " + "; ".join(dict.fromkeys(problems)) + hint)


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
                found += walk_records(p)
            elif p.exists():
                found.append(str(p))
            else:
                fail(f"no such file or directory: {match}")
    return found


def _excerpt(d: Diagnostic) -> list[str]:
    loc = d.location
    if loc.file is None or loc.line is None or loc.file == "<stdin>":
        return []
    text = linecache.getline(loc.file, loc.line).rstrip("\n")
    if not text or loc.file.lower().endswith(".json"):
        return []
    shown, caret = clip_around(text, max(1, loc.col or 1))
    gutter = f"{loc.line:>5} | "
    # a wide (CJK) character takes two columns, so the caret stays under its character
    return [gutter + shown, " " * (len(gutter) + display_width(shown[:caret])) + "^"]


def _regutter(line: str) -> str:
    """An excerpt line `12 | text` with its line number in the gutter width of _excerpt."""
    number, bar, text = line.partition("|")
    if not bar or not (number.strip().isdigit() or not number.strip()):
        return line
    return f"{number.strip():>5} |{text}"


MAX_PER_LINE = 20  # diagnostics printed for one source line; the rest are counted


class _Printer:
    """Prints each file's findings as its pieces arrive, at most MAX_PER_LINE per source line.

    With the deals shown, a file's deals come first and its findings after them, as a file
    judged whole would print them: the findings wait for the end of the file.
    """

    def __init__(self, hold: bool) -> None:
        self.hold = hold
        self.held: list[Diagnostic] = []
        self.path: str | None = None
        self.per_line: dict[int, int] = {}

    def piece(self, summary: FileSummary) -> None:
        if not summary.diagnostics and not summary.deals:
            return
        if self.path != summary.path:
            self.path, self.per_line = summary.path, {}
            out.print(f"[bold]{escape(summary.path)}[/]", markup=True)
        for line in summary.deals:
            out.print(escape(line), markup=True)
        if self.hold:
            self.held += summary.diagnostics
        else:
            self._print(summary.diagnostics)

    def _print(self, diagnostics: list[Diagnostic]) -> None:
        for d in diagnostics:
            line_no = d.location.line
            if line_no is not None:
                seen = self.per_line[line_no] = self.per_line.get(line_no, 0) + 1
                if seen > MAX_PER_LINE:
                    continue
            _print_diagnostic(d)

    def file_done(self, path: str) -> None:
        self._print(self.held)
        self.held = []
        if self.path == path:
            for line_no, seen in self.per_line.items():
                if seen > MAX_PER_LINE:
                    out.print(
                        f"  {line_no:>5}:- … {seen - MAX_PER_LINE} more diagnostic(s) on line "
                        f"{line_no} not shown (at most {MAX_PER_LINE} per line; --json has all)",
                        markup=False,
                    )
        self.path, self.per_line = None, {}


def _print_diagnostic(d: Diagnostic) -> None:
    loc = d.location
    where = f"{loc.line}:{loc.col}" if loc.line is not None else "-"
    play = loc.play()
    colour = COLOURS[d.severity]
    # A reader's message carries its own excerpt and caret: show that one, not a second.
    message, *excerpt = d.message.split("\n")
    out.print(
        f"  {where:>7} [{colour}]{d.severity} {d.code}[/] "
        f"{escape(play + ': ' if play else '')}{escape(message + d.follows())}",
        markup=True,
    )
    for line in [_regutter(x) for x in excerpt] or _excerpt(d):
        out.print(f"          {escape(line)}", markup=True)


def _progress(files: list[str]) -> tuple[Progress, TaskID]:
    """Progress per game on stderr, shown only on a terminal (counting games takes a look at
    every file first, which is worth it only for someone watching)."""
    shown = err.is_terminal
    progress = Progress(
        TextColumn("validating"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
        TimeElapsedColumn(), TextColumn("{task.description}"), console=err, transient=True,
        disable=not shown,
    )  # fmt: skip
    total = sum(count_games(f) for f in files if f != STDIN) if shown else None
    return progress, progress.add_task("", total=total)


def _refused(message: str, params: dict[str, object]) -> dict[str, object]:
    """The --json document of a run refused before it began (no such file, no records, bad
    --rules): no files, and the summary's `error` says why, as for a run that stops part way."""
    return {"files": [], "summary": _Tally().summary(0) | {"ok": False, "error": message}}


@json_on_failure(_refused)
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
            help="Re-judge under this preset instead of the record's (pagat, poppel, parlett; "
            "Sheng ji: bashifen, dabaifen, zhaopengyou). --option applies on top.",
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="Override one rule option, e.g. --option self_overplay=true (Sheng ji: "
            "throw_penalty=10). Repeatable. Each record's game reads --rules and --option.",
        ),
    ] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Stop at the first error.")] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", min=1, help="Worker processes. Large files are shared out by game."
        ),
    ] = 1,
    show_deal: Annotated[
        bool, typer.Option("--show-deal", help="Print each hand's deal, reconstructed or not.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Replay every record through the rules and report every problem with its location.

    Exit 0 when everything is legal, 1 when errors were found, 2 on bad arguments or a file
    that cannot be read (the other files are still judged). Warnings and notes do not change
    the exit code; a file without a game gets a warning. A move is every action, passes
    included. At most 20 diagnostics are printed per source line (--json has them all).
    """
    texts = _rule_texts(rules, option)
    files = expand_paths(paths)
    if not files:
        fail("no record files found (.zfn or .json)")
    options = Options(rule_texts=texts, keep_json=as_json, show_deal=show_deal, strict=strict)
    tally = _Tally()
    writer = JsonReportWriter(sys.stdout) if as_json else None  # the document, as it is made
    json_written()  # from here on a failure is told in that document (writer.finish)
    printer = _Printer(hold=show_deal)
    games = 0  # in the file being read

    def take(part: FileSummary) -> None:
        """Count a piece of the file being read, and write or print what it found."""
        nonlocal games
        tally.add(part)
        games += part.games
        if writer is not None:
            writer.games(part.path, part.game_json)
            writer.diagnostics(part.path, part.diagnostics)
        else:
            printer.piece(part)

    def take_partial(exc: BaseException) -> None:
        """The games a piece had judged before the exception that stopped the run (an internal
        error): counted as the run of one process counts them, wherever the pieces were cut."""
        partial = getattr(exc, PARTIAL_ATTR, None)
        if isinstance(partial, FileSummary) and (partial.games or partial.diagnostics):
            take(partial)
            if writer is None:
                printer.file_done(partial.path)

    stream = run(files, options, jobs, stdin=sys.stdin.read)
    # --json: an interrupt stops the run between two pieces, never inside a game's JSON
    stops: list[int] = []
    held = writer is not None and threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, lambda *_: stops.append(1)) if held else None
    try:
        first = next(stream, None)  # the workers start before the progress display's thread
        progress, task = _progress(files)
        with progress:
            for item in itertools.chain([first] if first else [], stream):
                if stops:
                    raise KeyboardInterrupt
                progress.update(task, description=escape(Path(item.path).name))
                part = item.summary
                if part is not None:  # a piece of the file
                    progress.advance(task, part.games)
                    take(part)
                    if not (strict and tally.errors):
                        continue
                findings = file_findings(item.path, games, item.problem)
                tally.add(FileSummary(item.path, diagnostics=findings))
                if writer is not None:
                    writer.diagnostics(item.path, findings)
                    writer.end_file(item.path)
                else:
                    printer.piece(FileSummary(item.path, diagnostics=findings))
                    printer.file_done(item.path)
                tally.files += 1
                games = 0
                if strict and tally.errors:
                    break
    except ZfrecError as exc:
        take_partial(exc)
        if writer is not None:  # the document still closes: a script can read what was judged
            writer.finish(tally.summary(writer.files) | {"ok": False, "error": str(exc)})
        fail(str(exc))
    except BaseException as exc:  # an interrupt or an internal error, as above
        take_partial(exc)
        if writer is not None:
            writer.finish(tally.summary(writer.files) | {"ok": False} | _stopped(exc))
        elif isinstance(exc, Exception):  # an internal error: the summary of what was judged
            if printer.path is not None:  # the findings the file's pieces held back
                printer.file_done(printer.path)
            _print_summary(len(files), tally, internal=1)
        elif isinstance(exc, KeyboardInterrupt):  # the findings printed are the whole of theirs
            err.print(
                f"interrupted: {tally.games} game(s) validated ({tally.files} of {len(files)} "
                f"file(s) whole), with the findings above ({tally.errors} error(s)); the rest "
                "was not validated"
            )
        if isinstance(exc, KeyboardInterrupt):  # said: no second line (ZfrecCommand.invoke)
            raise typer.Exit(130) from None
        raise
    finally:
        if held:
            signal.signal(signal.SIGINT, before)
        stream.close()
    if writer is not None:
        writer.finish(tally.summary(writer.files))
    else:
        _print_summary(len(files), tally)
    # A file that could not be read (ZF003) is input error, exit 2, once the others are judged.
    raise typer.Exit(2 if tally.unreadable else 1 if tally.errors else 0)


def _print_summary(files: int, tally: _Tally, internal: int = 0) -> None:
    """The text output's last line: what was judged, and what was found; after an internal
    error (exit 3), also how many stopped the run, which then judged no further."""
    verdict = "[green]all legal[/]" if tally.errors == 0 else "[red]findings[/]"
    if internal:
        verdict = "[red]stopped[/]"
    cannot = f" ({tally.unreadable} could not be read)" if tally.unreadable else ""
    broke = f", {internal} internal error(s)" if internal else ""
    out.print(
        f"{files} file(s){cannot}, {tally.games} game(s), {units_text(tally.units)}, "
        f"{tally.moves} move(s): {tally.errors} error(s), {tally.warnings} warning(s), "
        f"{tally.info} note(s){broke} - {verdict}",
        markup=True,
    )


def _stopped(exc: BaseException) -> dict[str, object]:
    """The summary's `error` for a run that stopped on something other than bad input; for an
    internal error also `internal`: the exception's type and message, and where it was raised
    (`file`, `game`, `line` where the game begins, `hand` and `unit`, as far as known). Its
    report, and the traceback with ZFREC_TRACEBACK=1, follow on standard error."""
    if isinstance(exc, KeyboardInterrupt):
        return {"error": "interrupted"}
    file = getattr(exc, FILE_ATTR, None)
    where = ", ".join(bit for bit in (file, place_text(exc)) if bit)
    where = f" while validating {where}" if where else ""
    message = error_what(exc).partition(": ")[2]
    internal: dict[str, object] = {"type": type(exc).__name__, "message": message}
    internal |= ({"file": file} if file else {}) | place_of(exc)
    return {"error": f"internal error{where}: {error_what(exc)}", "internal": internal}


@dataclass(slots=True)
class _Tally:
    """The run's totals, counted as pieces arrive (the findings themselves are not kept)."""

    files: int = 0
    games: int = 0
    hands: int = 0
    moves: int = 0
    errors: int = 0
    warnings: int = 0
    info: int = 0
    unreadable: int = 0
    units: dict[str, int] = field(default_factory=dict)  # `hands` by each game's unit word

    def summary(self, files: int) -> dict[str, object]:
        """The JSON document's summary (`files`: those written to it)."""
        return {
            "files": files,
            "games": self.games,
            "hands": self.hands,
            "moves": self.moves,
            "errors": self.errors,
            "warnings": self.warnings,
            "info": self.info,
            "unreadable_files": self.unreadable,
            "ok": self.errors == 0,
        }

    def add(self, part: FileSummary) -> None:
        self.games += part.games
        self.hands += part.hands
        for unit, n in part.units.items():
            self.units[unit] = self.units.get(unit, 0) + n
        self.moves += part.moves
        for d in part.diagnostics:
            severity = d.severity
            self.errors += severity == "error"
            self.warnings += severity == "warning"
            self.info += severity == "info"
            self.unreadable += d.code == "ZF003"


def register(app: typer.Typer) -> None:
    app.command("validate")(validate_cmd)
