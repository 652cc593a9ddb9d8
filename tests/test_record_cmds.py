"""`zfrec fmt` and `zfrec convert`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.record import dumps, loads

runner = CliRunner()
LOOSE = '[players "a, b, c"]\nhand\n1: 3h ; lead\n2: 10h\n'
CANONICAL = dumps(loads(LOOSE))


def test_fmt_check_then_fmt_then_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "g.zfn"
    path.write_text(LOOSE, encoding="utf-8")
    result = runner.invoke(app, ["fmt", "--check", str(path)])
    assert result.exit_code == 1
    assert f"would reformat {path}" in result.output
    assert path.read_text("utf-8") == LOOSE

    result = runner.invoke(app, ["fmt", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_text("utf-8") == CANONICAL
    assert CANONICAL == '[Players "a, b, c"]\n[Rules "pagat"]\n[Target "500"]\n\nhand 1\n' + (
        "1: 3h {lead}\n2: Th\n"
    )

    result = runner.invoke(app, ["fmt", "--check", str(path)])
    assert result.exit_code == 0
    assert list(tmp_path.iterdir()) == [path]  # no temp files left behind


def test_fmt_leaves_broken_files_alone_and_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.zfn"
    text = '[Players "a, b, c"]\nhand\n1: 3x [x]\n'
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["fmt", str(path)])
    assert result.exit_code == 2
    assert f"{path}:3:5 [game 1]: unknown suit 'x' in '3x'" in result.output
    assert " 3 | 1: 3x [x]" in result.output  # brackets are not eaten as markup
    assert path.read_text("utf-8") == text
    assert list(tmp_path.iterdir()) == [path]


def test_fmt_json_file(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(json.loads(dumps(loads(LOOSE), "json"))), encoding="utf-8")
    assert runner.invoke(app, ["fmt", str(path)]).exit_code == 0
    assert path.read_text("utf-8") == dumps(loads(LOOSE)[0], "json")


def test_convert_both_ways_and_stdio(tmp_path: Path) -> None:
    source = tmp_path / "g.zfn"
    source.write_text(LOOSE, encoding="utf-8")
    target = tmp_path / "g.json"
    assert runner.invoke(app, ["convert", str(source), str(target)]).exit_code == 0
    assert loads(target.read_text("utf-8"), "json") == loads(LOOSE)

    back = tmp_path / "back.zfn"
    assert runner.invoke(app, ["convert", str(target), str(back)]).exit_code == 0
    assert back.read_text("utf-8") == CANONICAL

    result = runner.invoke(app, ["convert", "-", "-"], input=LOOSE)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads(dumps(loads(LOOSE)[0], "json"))
    result = runner.invoke(app, ["convert", "-", "-", "--to", "zfn"], input=LOOSE)
    assert result.stdout == CANONICAL


def test_convert_errors_exit_2_without_traceback(tmp_path: Path) -> None:
    result = runner.invoke(app, ["convert", str(tmp_path / "missing.zfn"), "-"])
    assert result.exit_code == 2
    assert result.output == f"error: no such file: {tmp_path / 'missing.zfn'}\n"
    assert "Traceback" not in result.output

    source = tmp_path / "g.txt"
    source.write_text(LOOSE, encoding="utf-8")
    result = runner.invoke(app, ["convert", str(source), "-"])
    assert result.exit_code == 2
    assert "cannot tell the record format of" in result.output

    result = runner.invoke(app, ["convert", "-", "-", "--to", "xml"], input=LOOSE)
    assert result.exit_code == 2
    assert "unknown format 'xml': use zfn or json" in result.output
