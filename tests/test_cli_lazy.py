"""The command line starts without the modules only some commands need, and the --jobs workers
run without the command-line package at all."""

from __future__ import annotations

import json
import subprocess
import sys

from zfrec.cli import analyze_cmds, solve_cmds
from zfrec.games.zhengfen.analysis.audit import DEFAULT_BUDGET
from zfrec.games.zhengfen.analysis.costs import COST_BUDGET, COST_CARDS
from zfrec.games.zhengfen.solver import Budget

# Loaded on demand: the analysis and the solver, the store, the pages, the live server.
HEAVY = (
    "zfrec.games.zhengfen.analysis",
    "zfrec.games.zhengfen.pages",
    "zfrec.games.zhengfen.live",  # and livestate
    "zfrec.store",
    "zfrec.render",
    "zfrec.live",
    "sqlalchemy",
    "sqlmodel",
    "matplotlib",
    "jinja2",
    "jsonschema",
    "fastapi",
)


def _modules_after(statement: str) -> list[str]:
    code = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    names: list[str] = json.loads(done.stdout)
    return names


def test_importing_the_cli_leaves_the_heavy_modules_unloaded() -> None:
    loaded = _modules_after("import zfrec.cli")
    assert "typer" in loaded and "zfrec.cli.analyze_cmds" in loaded
    assert [m for m in loaded if m.startswith(HEAVY)] == []


def test_the_batch_workers_need_no_command_line_package() -> None:
    loaded = _modules_after("import zfrec.batch")
    assert "zfrec.validate" in loaded
    assert [m for m in loaded if m.startswith(("typer", "rich", "zfrec.cli", *HEAVY))] == []


def test_the_defaults_shown_in_help_are_the_analysis_defaults() -> None:
    # The command modules repeat them so as not to load the analysis for --help.
    assert analyze_cmds.COST_CARDS == COST_CARDS
    assert COST_BUDGET.seconds == analyze_cmds.COST_SECONDS
    assert analyze_cmds.AUDIT_BUDGET == DEFAULT_BUDGET
    budget = Budget()
    assert (
        budget.nodes,
        budget.seconds,
        budget.table_entries,
    ) == (solve_cmds.DEFAULT_NODES, solve_cmds.DEFAULT_SECONDS, solve_cmds.DEFAULT_TABLE)
