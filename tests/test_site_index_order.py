"""The site's index lists the games by date, then by id (undated games last), whatever order
they were imported in; a publish leaves nothing beside its folder (its lock file removed)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from zfrec.cli import app

runner = CliRunner()


def _game(date: str | None, event: str) -> str:
    tag = f'[Date "{date}"]\n' if date else ""
    return f'[Event "{event}"]\n{tag}[Players "Ann, Bo, Cy"]\n\nhand 1\n1: 3h  2: 9h  3: Th\n'


def test_the_index_lists_games_by_date_then_id_and_no_lock_is_left(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    # imported in this order: ids 1, 2, 3, 4
    for i, (date, event) in enumerate(
        [("2026.02.01", "February"), (None, "Undated"), ("2026.01.01", "January a"),
         ("2026.01.01", "January b")]
    ):  # fmt: skip
        path = tmp_path / f"g{i}.zfn"
        path.write_text(_game(date, event), "utf-8")
        assert runner.invoke(app, ["import", "--db", db, str(path)]).exit_code in (0, 1)
    site = tmp_path / "out" / "site"
    for _ in range(2):  # a new site, then one replacing it
        result = runner.invoke(app, ["publish", "--db", db, "--out", str(site)])
        assert result.exit_code == 0, result.output
        html = (site / "index.html").read_text("utf-8")
        table = html[html.index('id="games-table"') :]
        ids = re.findall(r'<td data-label="Game" data-sort="(\d+)"', table)
        assert ids == ["3", "4", "1", "2"]
        assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["site"]
