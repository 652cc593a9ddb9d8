"""How `--help` and usage errors read: whole paragraphs, flags shown as flags, and a usage error
in one line with one hint.

Docstrings are wrapped at the source's line length; rich keeps those line breaks, which cuts
sentences in the middle of a terminal line. The command classes here join the lines of each
paragraph (list items and indented lines keep theirs) and let rich wrap to the terminal.
Boolean flags take no value, so they get no `<bool>` type column.

Click's usage errors (a bad option, a missing argument, a value of the wrong type) would be
printed by typer as a usage block and a boxed panel, five lines or more; zfrec's own errors are
one line. The group prints them as `zfrec show: error: ...` and `Try 'zfrec show --help'.`,
with the same exit code (2). Parsing and the messages stay Click's.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.markup import escape
from typer import _click
from typer.core import TyperCommand, TyperGroup, TyperOption

from zfrec.cli.common import FAILURE_ATTR, err, print_json


def unwrap(text: str) -> str:
    """Join the hard-wrapped lines of each paragraph; keep paragraphs, list items, indents."""
    paragraphs = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        lines: list[str] = []
        for line in paragraph.split("\n"):
            starts_item = line.lstrip().startswith(("- ", "* ")) or line.startswith(" ")
            if lines and line.strip() and not starts_item and not paragraph.startswith("\b"):
                lines[-1] = f"{lines[-1].rstrip()} {line.strip()}"
            else:
                lines.append(line)
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def _flags_as_flags(command: _click.Command, ctx: _click.Context) -> None:
    for param in command.get_params(ctx):
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""  # the help table shows the metavar in place of `<bool>`


class ZfrecCommand(TyperCommand):
    """A command whose help has whole paragraphs and shows flags without a value type."""

    def __init__(self, name: str | None, **kwargs: Any) -> None:
        if kwargs.get("help"):
            kwargs["help"] = unwrap(kwargs["help"])
        super().__init__(name, **kwargs)

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _flags_as_flags(self, ctx)
        super().format_help(ctx, formatter)

    def invoke(self, ctx: _click.Context) -> Any:
        """Ctrl-C in a command with no word of its own for it: one line and exit 130, as the
        README's exit codes say (Click's own "Aborted!" would exit 1). Every write of zfrec is
        whole or not made (a file by rename, the store in a transaction)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            err.print(f"interrupted: zfrec {ctx.info_name} stopped", markup=False)
            raise typer.Exit(130) from None

    def parse_args(self, ctx: _click.Context, args: list[str]) -> list[str]:
        given = args[: args.index("--")] if "--" in args else list(args)  # the parser eats args
        try:
            with _in_context(ctx):  # `zfrec validate --jobs`
                return super().parse_args(ctx, args)
        except _click.exceptions.UsageError as exc:
            # asked for JSON: the command's document of the failure too (`json_on_failure`)
            document = getattr(self.callback, FAILURE_ATTR, None)
            if document is not None and "--json" in given:
                print_json(document(exc.format_message(), dict(ctx.params)))
            raise


@contextmanager
def _in_context(ctx: _click.Context) -> Iterator[None]:
    """Click's parser raises some usage errors with no context ("Option '--jobs' requires an
    argument.", "Option '--json' does not take a value."): they get the command's, so that the
    line names the command and the hint its --help."""
    try:
        yield
    except _click.exceptions.UsageError as exc:
        if exc.ctx is None:
            exc.ctx = ctx
        raise


@contextmanager
def _usage_errors_in_one_line() -> Iterator[None]:
    """A Click error raised inside: printed as one line and a hint, then exit with its code."""
    try:
        yield
    except _click.exceptions.NoArgsIsHelpError:
        raise  # bare `zfrec`: typer has printed the help
    except _click.ClickException as exc:
        ctx: _click.Context | None = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else "zfrec"
        err.print(f"{escape(where)}: [bold red]error:[/] {escape(exc.format_message())}")
        if ctx is not None and ctx.command.get_help_option(ctx) is not None:
            err.print(escape(f"Try '{where} {ctx.help_option_names[-1]}'."))
        raise typer.Exit(exc.exit_code) from None


class ZfrecGroup(TyperGroup):
    """The `zfrec` group, with the same help conventions as its commands, and usage errors (of
    the group's own options or of a command's) in one line."""

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _flags_as_flags(self, ctx)
        super().format_help(ctx, formatter)

    def parse_args(self, ctx: _click.Context, args: list[str]) -> list[str]:
        with _in_context(ctx):  # `zfrec --version=3`
            return super().parse_args(ctx, args)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: _click.Context | None = None,
        **extra: Any,
    ) -> _click.Context:
        with _usage_errors_in_one_line():  # `zfrec --bogus`
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: _click.Context) -> Any:
        with _usage_errors_in_one_line():  # `zfrec nosuch`, `zfrec show abc`
            return super().invoke(ctx)
