"""A stored game read only in part (a misspelt seat read as meant, a misspelt line skipped):
the reading findings (ZF001) are stored with the game, not in its record. The published pages
show them with the others, and every page counts the errors `zfrec show` counts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zfrec.cli import app

runner = CliRunner()
DATA = Path(__file__).resolve().parent / "data"
# Zheng Fen: Bob's seat and the score line misspelt (both read as meant), and Cyd's
# 3s does not beat the 9h (an error of the record itself, so the game gets an audit page)
ZF_TEXT = '[Players "Ann, Bob, Cyd"]\n\nhand 1\n1: 3h  Bbo: 9h  3: 3s\nscroe 0 0 0\n'


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _errors_said(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"(\d+) errors?\b", _text(html))]


@pytest.mark.parametrize("kind", ["zhengfen", "shengji"])
def test_pages_show_and_count_the_stored_reading_findings(kind: str, tmp_path: Path) -> None:
    if kind == "zhengfen":
        source = tmp_path / "part.zfn"
        source.write_text(ZF_TEXT, encoding="utf-8")
    else:
        source = DATA / "sj-read-in-part.zfn"
    db = str(tmp_path / "s.db")
    assert runner.invoke(app, ["import", "--db", db, str(source)]).exit_code == 1  # flagged
    shown = json.loads(runner.invoke(app, ["show", "1", "--db", db, "--json"]).stdout)
    errors = sum(d["severity"] == "error" for d in shown["diagnostics"])
    reading = [d for d in shown["diagnostics"] if d["code"] == "ZF001"]
    assert len(reading) == 2 and errors > 2
    out = tmp_path / "site"
    result = runner.invoke(app, ["publish", "--db", db, "--out", str(out)])
    assert result.exit_code == 0, result.output
    index = (out / "index.html").read_text("utf-8")
    game = (out / "games" / "1" / "index.html").read_text("utf-8")
    audit = (out / "games" / "1" / "audit.html").read_text("utf-8")
    assert f"{errors} errors" in _text(index)
    # the game's heading, and its hand (round) row: the same count as `show`
    assert _errors_said(game)[:2] == [errors, errors]
    assert _errors_said(audit)[0] == errors
    for page in (game, audit):
        for d in reading:
            said = d["message"].split(":")[0].replace("'", "&#39;")
            assert said in page, said
        assert f"line {reading[1]['line']} of {source}, as imported" in _text(page)
