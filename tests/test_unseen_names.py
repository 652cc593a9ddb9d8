"""Player names copied from a web page: the isolates (U+2068/U+2069), zero-width spaces, byte
order marks and no-break spaces they carry are read past, with a ZF008 warning at the name, in
both games and both notations; the store then keeps one player per plain name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.diagnostics import Diagnostic
from zfrec.record.model import plain_name
from zfrec.validate import validate_text

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
FSI, PDI, ZWSP, BOM, NBSP = "\u2068", "\u2069", "\u200b", "\ufeff", "\u00a0"

ZF_PLAYERS = '[Players "Mei, Jun, Hao"]'
SJ_PLAYERS = '[Players "Ann, 王芳, Bo Li, 李娜"]'


def _findings(text: str, name: str) -> tuple[list[str], list[Diagnostic]]:
    [report] = validate_text(text, name)
    assert not isinstance(report, Diagnostic)
    players = list(report.game.players)
    return players, [d for d in report.diagnostics if d.severity != "info"]


@pytest.mark.parametrize(
    ("sample", "plain", "written", "expected"),
    [
        ("02-three-players.zfn", ZF_PLAYERS, f'[Players "{FSI}Mei{PDI}, Jun{ZWSP}, 王{BOM}芳"]',
         ["Mei", "Jun", "王芳"]),
        ("shengji/02-no-trump.zfn", SJ_PLAYERS,
         f'[Players "{FSI}Ann{PDI}, 王芳, Bo{NBSP}Li, 李娜"]', ["Ann", "王芳", "Bo Li", "李娜"]),
    ],
)  # fmt: skip
def test_a_zfn_name_is_read_plain_with_a_warning_at_it(
    sample: str, plain: str, written: str, expected: list[str]
) -> None:
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    assert plain in text
    players, found = _findings(text.replace(plain, written), "x.zfn")
    assert players == expected
    line = text.splitlines().index(plain) + 1
    assert {d.code for d in found} == {"ZF008"}
    assert all((d.severity, d.location.line) == ("warning", line) for d in found)
    first = found[0]
    assert first.location.col == written.index(FSI) + 1
    assert first.message == (
        "player 1's name is written with characters that cannot be seen (U+2068, U+2069; "
        f"copied from a web page?): read as {expected[0]!r}"
    )
    assert first.fix is not None and first.fix.text == expected[0]
    # the plain record has none
    assert _findings(text, "x.zfn")[1] == []


@pytest.mark.parametrize(
    ("sample", "seat"), [("12-lead-passes-on.json", 0), ("shengji/08-one-round.json", 1)]
)
def test_a_json_name_is_read_plain_with_a_warning(sample: str, seat: int) -> None:
    data = json.loads((SAMPLES / sample).read_text(encoding="utf-8"))
    name = data["players"][seat]
    data["players"][seat] = f"{FSI}{name}{ZWSP}{PDI}"
    players, found = _findings(json.dumps(data, ensure_ascii=False), "x.json")
    assert players[seat] == name
    [d] = found
    assert (d.code, d.severity) == ("ZF008", "warning")
    assert d.message == (
        f"player {seat + 1}'s name is written with characters that cannot be seen "
        f"(U+200B, U+2068, U+2069; copied from a web page?): read as {name!r}"
    )


def test_plain_name_keeps_what_is_seen() -> None:
    assert plain_name(f"{NBSP}Bo{NBSP}{NBSP}Li{ZWSP}") == ("Bo Li", ("U+00A0", "U+200B"))
    # joiners are part of some scripts' and emoji's spelling
    assert plain_name("👩\u200d💻 Lin") == ("👩\u200d💻 Lin", ())


def test_the_store_keeps_one_player_for_a_name_and_its_copy(tmp_path: Path) -> None:
    text = (SAMPLES / "02-three-players.zfn").read_text(encoding="utf-8")
    (tmp_path / "a.zfn").write_text(text, encoding="utf-8")
    copied = text.replace(ZF_PLAYERS, f'[Players "{FSI}Mei{PDI}, Jun, Hao"]')
    copied = copied.replace('[Event "Train game"]', '[Event "Train game, again"]')
    (tmp_path / "b.zfn").write_text(copied, encoding="utf-8")
    db = str(tmp_path / "s.db")
    runner = CliRunner()
    result = runner.invoke(app, ["import", str(tmp_path), "--db", db])
    assert result.exit_code == 0, result.output
    stats = json.loads(runner.invoke(app, ["stats", "--db", db, "--json"]).stdout)
    assert sorted((p["name"], p["games"]) for p in stats) == [("Hao", 2), ("Jun", 2), ("Mei", 2)]


@pytest.mark.parametrize(
    ("sample", "old", "new", "name"),
    [
        ("02-three-players.zfn", "hand 1 shuffler 1", f"hand 1 shuffler {FSI}Mei{PDI}", "Mei"),
        ("02-three-players.zfn", "\n2: 3h  3: 5s  1: 6s", f"\n2: 3h  3: 5s  {FSI}mei{PDI}: 6s",
         "Mei"),
        ("shengji/02-no-trump.zfn", "round 1 dealer 4", f"round 1 dealer {FSI}李娜{PDI}", "李娜"),
        ("shengji/02-no-trump.zfn", "\n1: Ac Ac  2: Tc Tc", f"\n{ZWSP}Ann{ZWSP}: Ac Ac  2: Tc Tc",
         "Ann"),
    ],
)  # fmt: skip
def test_a_seat_named_with_a_copied_name_is_the_players_with_a_warning(
    sample: str, old: str, new: str, name: str
) -> None:
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    assert old in text
    _, found = _findings(text.replace(old, new, 1), "x.zfn")
    [d] = found
    line = text[: text.index(old)].count("\n") + 1 + old.startswith("\n")
    assert (d.code, d.severity, d.location.line) == ("ZF008", "warning", line)
    assert d.message.endswith(f"copied from a web page?): read as {name!r}")
    assert d.fix is not None and d.fix.text == name
