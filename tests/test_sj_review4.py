"""Review of the Sheng ji validate/audit work (session 24): each test failed before its fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from zfrec.cli import app

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games" / "shengji"
DISPUTED = SAMPLES / "10-disputed.zfn"  # round 1: Ann (a declarer) takes the last trick


def _edited(tmp_path: Path, base: Path, old: str, new: str) -> Path:
    text = base.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "r.zfn"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _audit(path: Path) -> dict[str, Any]:
    res = runner.invoke(app, ["audit", str(path), "--json"])
    assert res.exit_code in (0, 1)
    [game] = json.loads(res.stdout)["games"]
    return game  # type: ignore[no-any-return]


def test_a_kitty_written_where_the_declarers_took_the_last_trick_is_repaired_away(
    tmp_path: Path,
) -> None:
    # SJ502: the kitty does not count (R11), so the repair drops it from the line; it offered
    # 'kitty 0 x2', which the validator still finds wrong (1 error left)
    path = _edited(tmp_path, DISPUTED, "points 75 total 75", "points 75 kitty 10x2 total 95")
    repair = _audit(path)["repairs"][0]
    assert repair["ok"], repair["text"]
    [edit] = repair["edits"]
    assert (edit["kind"], edit["before"], edit["after"]) == (
        "points", "points 75 kitty 10x2 total 95", "points 75 total 75"
    )  # fmt: skip
