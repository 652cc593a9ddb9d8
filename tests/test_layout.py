"""The layout (ARCHITECTURE.md): the generic rendering and live layers reach a game's pages and
live judge only through its kind's hooks, never by importing the game's package."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from zfrec.games import GameKind, NotSupported, find_kind
from zfrec.games.zhengfen.pages.viewer import render_viewer
from zfrec.render.gamefiles import VIEWER_PAGE

ROOT = Path(__file__).resolve().parent.parent
GENERIC = ("zfrec/render", "zfrec/live")


def _imports(path: Path) -> list[str]:
    """The modules a source file imports (code only: docstrings' examples are not imports)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_the_generic_render_and_live_packages_import_no_game_package() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for folder in GENERIC
        for path in sorted((ROOT / folder).rglob("*.py"))
        for name in _imports(path)
        if name.startswith("zfrec.games.")
    ]
    assert found == []


def test_loading_the_site_and_the_live_app_loads_no_game_page_or_judge() -> None:
    code = (
        "import json, sys\nimport zfrec.render.site, zfrec.live.app, zfrec.live.table\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(done.stdout)
    assert "zfrec.live.table" in loaded and "zfrec.render.site" in loaded
    game_parts = ("zfrec.games.zhengfen.pages", "zfrec.games.zhengfen.live", "zfrec.games.shengji")
    assert [m for m in loaded if m.startswith(game_parts)] == []


def test_a_kind_without_a_live_table_or_shared_files_says_so() -> None:
    class Plain(GameKind):
        name, title = "plain", "Plain"

    kind = Plain()
    with pytest.raises(NotSupported, match="live tables for Plain records come later"):
        kind.live_rules(["A", "B", "C"], None, {})
    with pytest.raises(NotSupported, match="come later"):
        kind.live_state("t", None, None, 0)
    assert (kind.live_page, kind.live_replay, kind.live_edits, kind.shared_files()) == (
        None,
        False,
        False,
        [],
    )


def test_zheng_fen_ships_the_viewer_once_for_the_site_and_render() -> None:
    files = find_kind("zhengfen").shared_files()
    assert [(f.path, f.content) for f in files] == [(VIEWER_PAGE, render_viewer().encode())]
    assert find_kind("shengji").shared_files() == []


def test_zheng_fen_rules_of_a_new_live_table_keep_the_target_apart() -> None:
    kind = find_kind("zhengfen")
    assert kind.live_rules(["A", "B", "C"], None, {"target": 300}) == ("pagat", {"target": 300})
    name, options = kind.live_rules(["A", "B", "C"], "pagat", {"jokers_wild": False})
    assert name == "pagat" and options["jokers_wild"] is False and options["target"] == 500


def test_the_live_table_s_most_seats_are_the_games_most() -> None:
    from zfrec.games import KINDS, find_kind
    from zfrec.live.guard import SEATS

    assert max(find_kind(k).max_players for k in KINDS) == SEATS
