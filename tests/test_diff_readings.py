"""`zfrec diff` past plays written differently that read the same (issue 27, item 12)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.games.zhengfen.analysis.diff import diff_games
from zfrec.record import loads

CLUB = Path(__file__).resolve().parent.parent / "sample_games" / "01-annotated-club-night.zfn"
TEXT = CLUB.read_text("utf-8")
runner = CliRunner()


def test_a_declared_joker_against_the_same_reading_undeclared_goes_on_to_the_end() -> None:
    [a] = loads(TEXT)
    [b] = loads(TEXT.replace("3: 2s BJ=2", "3: 2s BJ"))
    d = diff_games(a, b)
    assert d.same and d.first is not None and d.first.kind == "notes"
    assert (d.first.hand, d.first.trick, d.first.turn, d.first.seat) == (1, 2, 7, "Ann")
    assert (d.first.a, d.first.b) == ("Ann: 2s BJ=2", "Ann: 2s BJ")
    assert "which read the same (pair of 2s" in d.first.message
    assert d.first.message.endswith("the rest agrees")


def test_after_plays_that_read_the_same_a_later_difference_is_the_first_divergence() -> None:
    [a] = loads(TEXT)
    later = TEXT.replace("3: 2s BJ=2", "3: 2s BJ").replace(
        "score 20 65 0 15 total 20 65 0 15", "score 20 65 0 15 total 20 65 0 16"
    )
    [b] = loads(later)
    d = diff_games(a, b)
    assert not d.same and d.first is not None
    assert (d.first.kind, d.first.hand) == ("score", 1)
    # A different reading of the same cards is a divergence of the play itself.
    [c] = loads(TEXT.replace("3: 2s BJ=2", "3: 2s BJ=A"))
    d = diff_games(a, c)
    assert d.first is not None and d.first.kind == "move" and not d.same


def test_the_command_says_the_rest_agrees_and_exits_zero(tmp_path: Path) -> None:
    other = tmp_path / "b.zfn"
    other.write_text(TEXT.replace("3: 2s BJ=2", "3: 2s BJ"), "utf-8")
    done = runner.invoke(app, ["diff", str(CLUB), str(other)])
    assert done.exit_code == 0, done.output
    assert "same game" in done.output and "the rest agrees" in done.output
    data = json.loads(runner.invoke(app, ["diff", "--json", str(CLUB), str(other)]).stdout)
    assert data["games"][0]["same"] is True
    assert data["games"][0]["first_divergence"]["kind"] == "notes"
