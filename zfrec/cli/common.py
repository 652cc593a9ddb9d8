"""Helpers shared by the CLI modules: error handling, JSON output, rules options."""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from zfrec.engine.rules import Ruleset, parse_option, preset
from zfrec.errors import ZfrecError

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

RULES_HELP = "Rules preset: pagat (default), poppel or parlett."
OPTION_HELP = "Override one rule option, e.g. --option self_overplay=true. Repeatable."
JSON_HELP = "Print JSON for scripts instead of text."


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error (no traceback) and exit."""
    err.print(f"[bold red]error:[/] {escape(message)}", markup=True)
    raise typer.Exit(code)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Turn ZfrecError and bad files into a message and exit code 2."""
    try:
        yield
    except ZfrecError as exc:
        fail(str(exc))
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read input: {exc}")


def option_dict(options: list[str] | None) -> dict[str, Any]:
    """`name=value` options from the command line, typed and checked."""
    with friendly_errors():
        return dict(parse_option(o) for o in options or [])


def ruleset(name: str, options: list[str] | None) -> Ruleset:
    overrides = option_dict(options)
    with friendly_errors():
        return preset(name, **overrides)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


Register = Callable[[typer.Typer], None]


def tune_gc() -> None:
    """Collect young objects less often. Reading records makes many small objects that all
    live until their game is judged; the default threshold spends a tenth of a batch run
    collecting them again and again."""
    gc.set_threshold(50_000, 20, 100)
