"""How `--help` reads: whole paragraphs, and flags shown as flags.

Docstrings are wrapped at the source's line length; rich keeps those line breaks, which cuts
sentences in the middle of a terminal line. The command classes here join the lines of each
paragraph (list items and indented lines keep theirs) and let rich wrap to the terminal.
Boolean flags take no value, so they get no `<bool>` type column.
"""

from __future__ import annotations

import inspect
from typing import Any

from typer import _click
from typer.core import TyperCommand, TyperGroup, TyperOption


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


class ZfrecGroup(TyperGroup):
    """The `zfrec` group, with the same help conventions as its commands."""

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        _flags_as_flags(self, ctx)
        super().format_help(ctx, formatter)
