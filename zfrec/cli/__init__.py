"""The `zfrec` command. Each area registers its commands from its own module; commands stay thin."""

from __future__ import annotations

import typer

from zfrec.cli import engine_cmds

app = typer.Typer(
    name="zfrec",
    help="zfrec: records, rules, validation, replays and analysis for the card game Zheng Fen (挣分).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

for module in (engine_cmds,):
    module.register(app)


def main() -> None:
    app()
