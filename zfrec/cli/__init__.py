"""The `zfrec` command. Each area registers its commands from its own module; commands stay thin."""

from __future__ import annotations

import typer

from zfrec.cli import (
    analyze_cmds,
    engine_cmds,
    record_cmds,
    render_cmds,
    simulate_cmds,
    solve_cmds,
    store_cmds,
    validate_cmds,
)
from zfrec.cli.common import tune_gc

app = typer.Typer(
    name="zfrec",
    help="zfrec: records, rules, validation, replays and analysis for Zheng Fen (挣分).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

for module in (
    engine_cmds,
    record_cmds,
    validate_cmds,
    simulate_cmds,
    store_cmds,
    render_cmds,
    analyze_cmds,
    solve_cmds,
):
    module.register(app)


def main() -> None:
    tune_gc()
    app()
