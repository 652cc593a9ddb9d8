"""The registry of game kinds (zfrec.games) and the `[Game]` tag that picks one (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.diagnostics import Diagnostic
from zfrec.errors import NotationError
from zfrec.games import (
    DEFAULT_KIND,
    KINDS,
    GameKind,
    NotSupported,
    UnknownKindError,
    find_kind,
    kind_of,
    kind_problem,
)
from zfrec.games.zhengfen import ZhengFenKind
from zfrec.record import dumps, load, loads
from zfrec.record.jsonio import game_from_json
from zfrec.record.model import Game
from zfrec.record.zfn_header import format_header
from zfrec.validate import validate_text

ZF = """[Players "Ann, Bo, Cy"]
[Rules "pagat"]
[Target "500"]

hand 1
1: 3h  2: 4h  3: 5h
"""


def test_the_registry_names_every_kind_and_zheng_fen_is_the_default() -> None:
    assert KINDS == ("zhengfen", "shengji")
    assert DEFAULT_KIND == KINDS[0] == "zhengfen"
    zf = find_kind("zhengfen")
    assert isinstance(zf, ZhengFenKind) and zf is find_kind("ZhengFen")
    assert (zf.title, zf.default_preset, zf.default_target) == ("Zheng Fen", "pagat", 500)
    assert zf.presets == ("pagat", "poppel", "parlett")
    sj = find_kind("shengji")
    assert isinstance(sj, GameKind) and (sj.name, sj.title, sj.unit) == (
        "shengji",
        "Sheng ji",
        "round",
    )
    assert sj.default_preset == "bashifen" and sj.default_target is None
    assert repr(sj) == "find_kind('shengji')"


def test_an_unknown_kind_offers_the_nearest_names() -> None:
    with pytest.raises(UnknownKindError) as err:
        find_kind("shengij")
    assert err.value.message == (
        "unknown game 'shengij': did you mean shengji? (games are zhengfen, shengji)"
    )
    assert kind_problem("chess") == "unknown game 'chess': games are zhengfen, shengji"
    assert kind_problem("SHENGJI") is None


def test_a_record_without_the_tag_is_zheng_fens_and_is_written_without_it() -> None:
    game = loads(ZF)[0]
    assert game.kind == "zhengfen" and kind_of(game).name == "zhengfen"
    assert dumps(game) == ZF
    assert "game" not in json.loads(dumps(game, "json"))
    tagged = loads('[Game "ZhengFen"]\n' + ZF)[0]
    assert tagged == game and dumps(tagged) == ZF


def test_an_unknown_game_tag_is_a_located_notation_error() -> None:
    text = '[Players "Ann, Bo, Cy"]\n[Game "zhengfn"]\n\nhand 1\n1: 3h\n'
    with pytest.raises(NotationError) as err:
        loads(text, source="x.zfn")
    location = err.value.location
    assert location is not None and (location.line, location.col) == (2, 8)
    assert err.value.message.splitlines()[0] == (
        "unknown game 'zhengfn': did you mean zhengfen? (games are zhengfen, shengji)"
    )
    # a name no game is close to: the game is not read at all, the error at the name
    chess = text.replace("zhengfn", "chess")
    [diagnostic] = [d for d in validate_text(chess, "x.zfn") if not hasattr(d, "diagnostics")]
    assert str(diagnostic).startswith("x.zfn:2:8")


@pytest.mark.parametrize(
    ("name", "meant", "body"),
    [
        ("zhengfn", "zhengfen", "hand 1\n1: 3h\n"),
        ("shengi", "shengji", "round 1 dealer 1 rank 2 trump d\n"),
        ("Sheng-ji", "shengji", "round 1 dealer 1 rank 2 trump d\n"),
    ],
)
def test_a_misspelt_game_name_is_read_as_the_one_game_it_is_close_to(
    name: str, meant: str, body: str
) -> None:
    players = "Ann, Bo, Cy" if meant == "zhengfen" else "Ann, Bo, Cy, Di"
    text = f'[Game "{name}"]\n[Players "{players}"]\n\n{body}'
    [report] = validate_text(text, "x.zfn")
    assert not isinstance(report, Diagnostic) and report.kind == meant  # judged as that game
    first = report.diagnostics[0]
    assert (first.code, first.location.line, first.location.col) == ("ZF001", 1, 8)
    assert first.message.splitlines()[0] == (
        f"unknown game {name!r}: did you mean {meant}? (games are zhengfen, shengji) "
        f"(read as {meant})"
    )
    assert first.fix is not None and (first.fix.col, first.fix.end_col, first.fix.text) == (
        8,
        8 + len(name),
        meant,
    )
    # a strict reader refuses it, with the suggestion
    with pytest.raises(NotationError, match=f"did you mean {meant}\\?"):
        loads(text)


def test_json_names_the_game_and_an_unknown_one_is_an_error_at_game() -> None:
    data = json.loads(dumps(loads(ZF)[0], "json"))
    assert game_from_json({"game": "zhengfen", **data}) == loads(ZF)[0]
    with pytest.raises(NotationError) as err:
        game_from_json({"game": "shenji", **data})
    assert err.value.message == (
        "at /game: unknown game 'shenji': did you mean shengji? (games are zhengfen, shengji)"
    )
    with pytest.raises(NotationError) as err:
        game_from_json({"game": 7, **data})
    assert err.value.message == "at /game: the game is a name, e.g. shengji"


def test_the_header_of_another_kind_names_it_first_with_its_own_rules() -> None:
    game = Game(["Ann", "Bo", "Cy", "Di"], kind="shengji", preset="bashifen")
    assert list(format_header(game)) == [
        '[Game "shengji"]',
        '[Players "Ann, Bo, Cy, Di"]',
        '[Rules "bashifen"]',
    ]


def test_the_tag_picks_the_kinds_presets() -> None:
    head = '[Game "shengji"]\n[Players "Ann, Bo, Cy, Di"]\n'
    with pytest.raises(NotationError) as err:
        loads(head + '[Rules "pagat"]\n\nround 1\n')
    assert err.value.message.splitlines()[0] == (
        "unknown preset 'pagat': presets are bashifen, dabaifen, zhaopengyou"
    )
    with pytest.raises(NotationError) as err:
        loads(head + '[Target "500"]\n\nround 1\n')
    assert err.value.message.splitlines()[0] == "a Sheng ji record has no Target tag"


def test_a_hook_a_kind_does_not_supply_says_so() -> None:
    class Bare(GameKind):
        name, title, presets = "bare", "Bare", ("plain",)

    with pytest.raises(NotSupported) as err:
        Bare().body_lines(Game(["A", "B", "C"]))
    assert err.value.message == "Bare records cannot be written yet"
    assert Bare().render_files(Game(["A", "B", "C"])) is None
    assert Bare().pages_later() == "pages for Bare records come later"


SJ_SAMPLE = Path(__file__).resolve().parent.parent / "sample_games" / "shengji" / "02-no-trump.zfn"


def test_a_kind_without_pages_gets_one_page_that_says_so() -> None:
    # every kind zfrec knows has pages now (Sheng ji's: tests/test_sj_pages.py); the fallback
    # page that render_game_files gives a kind whose render_files returns None is this one
    from zfrec.render.gamefiles import pages_later, render_game_files

    [game] = load(SJ_SAMPLE)
    assert game.kind == "shengji"
    made = pages_later(game)
    assert [f.path for f in made.files] == ["index.html"]
    page = made.files[0].content.decode()
    assert "<p>pages for Sheng ji records come later.</p>" in page
    assert made.meta.notices == ("pages for Sheng ji records come later",)
    assert "round-1.html" in [f.path for f in render_game_files(game).files]


def test_the_analysis_of_a_kind_it_does_not_read_is_a_plain_error() -> None:
    from zfrec.games.zhengfen.analysis.analyze import analyze_game

    [game] = load(SJ_SAMPLE)
    with pytest.raises(NotSupported) as err:
        analyze_game(game)
    assert err.value.message == "the decision analysis of Sheng ji records comes later"


SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


@pytest.mark.parametrize("sample", ["01-annotated-club-night.zfn", "shengji/01-bashifen-match.zfn"])
@pytest.mark.parametrize(
    ("date", "said"),
    [
        ("2026.11.72", "the date 2026.11.72 is no day: November has 30 days"),
        ("2026.13.??", "the date 2026.13.?? is no day: a year has 12 months"),
        ("2025.02.29", "the date 2025.02.29 is no day: February 2025 has 28 days"),
        ("????.04.31", "the date ????.04.31 is no day: April has 30 days"),
        ("2026.11.00", "the date 2026.11.00 is no day: days are numbered from 1"),
        ("2026.0.10", "the date 2026.0.10 is no day: months are numbered from 1"),
        ("2026.2.29", "the date 2026.2.29 is no day: February 2026 has 28 days"),
        ("2024.02.29", None),  # a leap year
        ("????.02.29", None),  # some year is a leap year
        ("2026.??.31", None),  # some month has 31 days
        ("2026.11.??", None),
        ("????.??.??", None),
        ("the Friday after Easter", None),  # free text is not judged
    ],
)
def test_a_date_that_is_no_day_is_a_warning_at_the_tag(
    sample: str, date: str, said: str | None
) -> None:
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    dated = [i for i, line in enumerate(lines) if line.startswith("[Date ")]
    at = dated[0] if dated else 1
    lines[at : at + len(dated)] = [f'[Date "{date}"]\n']  # in place, or after the first tag
    [report] = validate_text("".join(lines), "x.zfn")
    assert not isinstance(report, Diagnostic)
    found = [d for d in report.diagnostics if d.code == "ZF006"]
    if said is None:
        assert found == []
        return
    [d] = found
    assert (d.severity, d.message, d.location.line, d.location.col) == (
        "warning",
        said,
        at + 1,
        8,
    )
    # the date is the only finding: a warning does not make the record wrong
    assert report.ok and [x.code for x in report.diagnostics if x.severity != "info"] == ["ZF006"]


@pytest.mark.parametrize(
    ("sample", "preset", "other"),
    [
        ("01-annotated-club-night.zfn", "pagat", "poppel"),
        ("shengji/01-bashifen-match.zfn", "bashifen", "dabaifen"),
    ],
)
def test_an_empty_rules_tag_says_which_preset_is_used(
    sample: str, preset: str, other: str, tmp_path: Path
) -> None:
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    [at] = [i for i, line in enumerate(lines) if line.startswith("[Rules ")]
    assert lines[at] == f'[Rules "{preset}"]\n'  # the default preset: judged as before
    lines[at] = '[Rules ""]\n'
    [report] = validate_text("".join(lines), "x.zfn")
    assert not isinstance(report, Diagnostic)
    [d] = [x for x in report.diagnostics if x.severity != "info"]
    assert (d.code, d.severity, d.location.line, d.location.col) == ("ZF007", "warning", at + 1, 9)
    assert d.message == (
        f"the Rules tag is empty: the record is judged under the default preset, {preset}"
    )
    # judged under another preset (validate --rules): that one is named
    path = tmp_path / "x.zfn"
    path.write_text("".join(lines), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path), "--rules", other, "--json"])
    [file] = json.loads(result.stdout)["files"]
    [said] = [d["message"] for d in file["diagnostics"] if d["code"] == "ZF007"]
    assert said == (
        f"the Rules tag is empty: the record is judged under {other}, as asked (the default "
        f"preset is {preset})"
    )
    # a tag of options only still names no preset, but says which options: not reported
    lines[at] = f'[Rules "{"target=500" if preset == "pagat" else "throw_penalty=10"}"]\n'
    [report] = validate_text("".join(lines), "x.zfn")
    assert not isinstance(report, Diagnostic)
    assert [x.code for x in report.diagnostics if x.code == "ZF007"] == []


@pytest.mark.parametrize(
    ("game", "players", "meant"),
    [("", "Ann, 王芳, Bo", "pagat"), ('[Game "shengi"]\n', "Ann, 王芳, Bo, 李娜", "bashifen")],
)
def test_the_header_findings_of_a_record_of_no_hands_come_in_the_order_written(
    game: str, players: str, meant: str
) -> None:
    misspelt = meant[:-1]
    text = f'{game}[Players "{players}"]\n[Rules "{misspelt}"]\n[Date "2026.11.72"]\n'
    [report] = validate_text(text, "x.zfn")
    assert not isinstance(report, Diagnostic)
    found = [(d.code, d.location.line) for d in report.diagnostics]
    expected = [("ZF001", 1)] if game else []
    lines = len(expected)
    assert found == [*expected, ("ZF001", lines + 2), ("ZF006", lines + 3)]
    assert f"(read as {meant})" in report.diagnostics[-2].message


@pytest.mark.parametrize("sample", ["12-lead-passes-on.json", "shengji/08-one-round.json"])
def test_a_json_records_date_that_is_no_day_is_a_warning_at_the_game(sample: str) -> None:
    data = json.loads((SAMPLES / sample).read_text(encoding="utf-8"))
    data["date"] = "2024.02.30"
    [report] = validate_text(json.dumps(data, ensure_ascii=False, indent=1), "x.json")
    assert not isinstance(report, Diagnostic)
    [d] = [x for x in report.diagnostics if x.code == "ZF006"]
    assert (d.message, d.location.line, d.location.col) == (
        "the date 2024.02.30 is no day: February 2024 has 29 days",
        1,
        1,
    )


def test_the_header_findings_of_a_match_its_preset_cannot_seat_are_still_said() -> None:
    # five players for bashifen (SJ207): the preset read as meant and the date are said first
    text = (
        '[Game "shengji"]\n[Date "2026.11.72"]\n[Players "Ann, 王芳, Bo, 李娜, Cy"]\n'
        '[Rules "bashfen"]\n\nround 1 dealer 1 rank 2 trump d\n'
    )
    [report] = validate_text(text, "x.zfn")
    assert not isinstance(report, Diagnostic)
    found = [(d.code, d.location.line) for d in report.diagnostics]
    assert found == [("ZF006", 2), ("ZF001", 4), ("SJ207", 1)]
    assert (
        report.diagnostics[2].message
        == "bashifen is played by 4, not 5 players (RULES-SHENGJI.md R1)"
    )
