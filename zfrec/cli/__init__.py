"""The `zfrec` command. Each area registers its commands from its own module; commands stay thin.

Exit codes, for every command: 0 ok, 1 findings (or a plain "no" answer), 2 usage or input
error, 3 internal error (an unexpected exception: a bug in zfrec, never a finding).
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer
from typer.core import TyperCommand

from zfrec import __version__
from zfrec.cli import (
    analyze_cmds,
    engine_cmds,
    live_cmds,
    record_cmds,
    render_cmds,
    simulate_cmds,
    solve_cmds,
    store_cmds,
    validate_cmds,
)
from zfrec.cli.common import EXIT_INTERNAL, err, internal_error
from zfrec.cli.helptext import ZfrecCommand, ZfrecGroup
from zfrec.gctuning import tune_gc

app = typer.Typer(
    name="zfrec",
    cls=ZfrecGroup,
    help="zfrec: records, rules, validation, replays and analysis for Zheng Fen (挣分) and "
    "Sheng ji (升级).\n\n"
    "A record's [Game] tag picks the game. The table commands (classify, legal, and Sheng "
    "ji's own trick, throw and score) and simulate take --game shengji.\n\n"
    "Exit codes: 0 ok, 1 findings, 2 usage or input error, 3 internal error, 130 interrupted.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"zfrec {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """The options of `zfrec` itself (the help text is the app's)."""


for module in (
    engine_cmds,
    record_cmds,
    validate_cmds,
    simulate_cmds,
    store_cmds,
    render_cmds,
    analyze_cmds,
    live_cmds,
    solve_cmds,
):
    module.register(app)
for info in app.registered_commands:
    if info.cls in (None, TyperCommand):  # typer's default: give every command our help layout
        info.cls = ZfrecCommand


def main() -> None:
    """The console entry point: run the app; an unexpected exception is an internal error.

    An internal error must never look like a finding (exit 1) or bad input (exit 2): it prints
    one line naming the exception and, where known, the file being processed, and exits 3.
    """
    tune_gc()
    try:
        app()
    except Exception as exc:
        if os.environ.get("ZFREC_TRACEBACK"):
            import traceback

            traceback.print_exception(exc, file=sys.stderr)
        err.print(internal_error(exc), markup=False)
        sys.exit(EXIT_INTERNAL)
