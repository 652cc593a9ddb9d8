"""Scoresheets typed in by a club scribe on a Chinese phone keyboard or a Windows laptop: a
misspelt keyword, keywords and tag brackets in full-width, a card dealt twice, a follow-on
error, a blank line inside a header. Each costs only what it spoils, where it is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zfrec import batch
from zfrec.cli import app
from zfrec.errors import NotationError
from zfrec.record.zfn import parse_zfn

DATA = Path(__file__).parent / "data" / "scribe_sheets"
runner = CliRunner()


def _validate(path: Path) -> dict[str, Any]:
    result = runner.invoke(app, ["validate", "--json", str(path)])
    assert result.exit_code in (0, 1), result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def _found(path: Path) -> list[dict[str, Any]]:
    [file] = _validate(path)["files"]
    found: list[dict[str, Any]] = file["diagnostics"]  # (the games' and the file's own)
    return found


def _edited(tmp_path: Path, name: str, *edits: tuple[str, str]) -> Path:
    text = (DATA / name).read_text("utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- a misspelt keyword -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "line", "col", "said"),
    [
        ("typo-hnad.zfn", 30, 1, "unknown line 'hnad': did you mean hand? (read as hand)"),
        ("typo-shufler.zfn", 30, 8,
         "unknown word 'shufler': did you mean shuffler? (read as shuffler)"),
        ("typo-rnoud.zfn", 41, 1, "unknown line 'rnoud': did you mean round? (read as round)"),
    ],
)  # fmt: skip
def test_a_misspelt_hand_or_round_line_is_read_as_meant_and_the_game_judged(
    name: str, line: int, col: int, said: str
) -> None:
    # it gave "deal lines come before the first trick of the hand" on the next line, and
    # --json had no game at all
    [file] = _validate(DATA / name)["files"]
    [game] = file["games"]
    assert len(game.get("hands") or game["rounds"]) == 2
    typo = [d for d in game["diagnostics"] if d["code"] == "ZF001"]
    assert [(d["line"], d["col"], d["hand"], d["message"]) for d in typo] == [(line, col, 2, said)]
    fix = typo[0]["fix"]
    assert (fix["line"], fix["col"]) == (line, col)
    assert fix["text"] in said.rpartition("(read as ")[2]


def test_the_first_hands_own_mistakes_are_reported_past_a_misspelt_hand_line(
    tmp_path: Path,
) -> None:
    path = _edited(tmp_path, "typo-hnad.zfn", ("score 85 15 0 total", "score 80 15 0 total"))
    found = _found(path)
    assert {(d["line"], d["hand"]) for d in found if d["code"] != "ZF001"} == {(28, 1)}
    assert [d["line"] for d in found if d["code"] == "ZF001"] == [30]
    sj = _edited(tmp_path, "typo-rnoud.zfn", ("1: 5c  2: 9c  3: 6c  4: Jc", "1: 5c  2: 9c  3: 6c"))
    assert any(d["line"] == 16 and d["hand"] == 1 for d in _found(sj))


def test_a_misspelt_keyword_of_another_line_is_read_as_meant_in_both_games(
    tmp_path: Path,
) -> None:
    path = _edited(tmp_path, "typo-hnad.zfn", ("score 85 15 0 total", "socre 80 15 0 total"))
    found = _found(path)
    assert "unknown line 'socre': did you mean score? (read as score)" in [
        d["message"] for d in found
    ]
    assert any(d["line"] == 28 and d["code"] != "ZF001" for d in found)  # the score is judged
    sj = _edited(tmp_path, "typo-rnoud.zfn", ("rnoud 2 dealer 3", "round 2 delaer 3"))
    [d] = [d for d in _found(sj) if d["code"] == "ZF001"]
    assert (d["line"], d["col"], d["hand"]) == (41, 9, 2)
    assert d["message"] == "unknown word 'delaer': did you mean dealer? (read as dealer)"


def test_a_strict_reader_names_the_misspelt_keyword() -> None:
    with pytest.raises(NotationError) as info:
        parse_zfn((DATA / "typo-hnad.zfn").read_text("utf-8"))
    assert "unknown line 'hnad': did you mean hand?" in info.value.message
    assert info.value.location is not None and info.value.location.line == 30


@pytest.mark.parametrize(
    ("name", "old", "new", "said"),
    [
        ("typo-hnad.zfn", "\n2: 9d　3: -　1: -", "\nHan 9d",
         "expected a move like '2: 7h 7s' or a keyword, not 'Han'"),
        ("typo-rnoud.zfn", "\n2: Kc  3: Kc  4: 8c  1: Ac", "\nRod Kc",
         "a move starts with a seat and a colon"),
    ],
)  # fmt: skip
def test_a_strict_reader_says_a_line_no_hand_or_round_line_is_not_one(
    name: str, old: str, new: str, said: str
) -> None:
    # `Han 9d` is not read as `hand` (no number follows): not "did you mean hand?"
    text = (DATA / name).read_text("utf-8")
    assert old in text
    with pytest.raises(NotationError) as info:
        parse_zfn(text.replace(old, new, 1))
    assert info.value.message.startswith(said), info.value.message


# --- full-width keywords and tags -----------------------------------------------------------


def test_a_hand_line_typed_in_full_width_is_read_as_plain() -> None:
    # `ｈａｎｄ　２　ｓｈｕｆｆｌｅｒ 3`
    [file] = _validate(DATA / "ime-handkw.zfn")["files"]
    [game] = file["games"]
    assert (len(game["hands"]), game["diagnostics"]) == (2, [])


def test_a_score_line_typed_in_full_width_is_read_and_checked(tmp_path: Path) -> None:
    # it was "not 'ｓｃｏｒｅ'; the line is skipped", and the score never checked
    assert _found(DATA / "zf-08.zfn") == []
    path = _edited(tmp_path, "zf-08.zfn", ("ｓｃｏｒｅ　５５", "ｓｃｏｒｅ　５０"))
    [d] = _found(path)
    assert (d["line"], d["hand"]) == (31, 1) and d["code"] != "ZF001"


def test_forced_and_by_typed_in_full_width_are_read_as_plain(tmp_path: Path) -> None:
    # `４：４ｓ Ａｓ ｆｏｒｃｅｄ ４ｓ ｂｙ １`: "cannot read a card at 'forced'", then knock-ons
    assert _found(DATA / "fw_forced_upper.zfn") == []
    path = _edited(tmp_path, "fw_forced_upper.zfn", ("FORCED ４ｓ BY", "ｆｏｒｃｅｄ ４ｓ ｂｙ"))
    assert _found(path) == []
    line = "round 2 dealer 3 rank 4 trump c"
    fw = "ｒｏｕｎｄ　２　ｄｅａｌｅｒ　３　ｒａｎｋ　４　ｔｒｕｍｐ　ｃ"
    path = _edited(tmp_path, "typo-rnoud.zfn", ("rnoud" + line[5:], fw))
    assert [d["code"] for d in _found(path)] == ["SJ501"]  # round 1's, as before


def test_a_message_quotes_a_full_width_word_as_typed(tmp_path: Path) -> None:
    path = _edited(tmp_path, "zf-08.zfn", ("ｓｃｏｒｅ　５５", "ｓｃｏｒｅ　ｘ５"))
    [d] = _found(path)
    assert "'ｘ５'" in d["message"]


def test_tag_brackets_typed_in_full_width_are_tags(tmp_path: Path) -> None:
    # `［Players "王芳，李娜，张伟"］`: "the game has no [Players] tag", and two games
    [file] = _validate(DATA / "ime-brackets.zfn")["files"]
    assert len(file["games"]) == 1 and file["diagnostics"] == []
    assert file["games"][0]["players"] == ["王芳", "李娜", "张伟"]
    # a file of such games is cut into pieces for the workers where each game starts
    text = (DATA / "ime-brackets.zfn").read_text("utf-8")
    path = tmp_path / "three.zfn"
    path.write_text(text + "\n" + text.replace("［", "[", 1) + "\n" + text, encoding="utf-8")
    got = list(batch.pieces(str(path), 1, lambda: ""))
    assert [p.games_before for p in got] == [0, 1, 2]
    assert all(p.text.lstrip().startswith("[Event") for p in got)
    [file] = _validate(path)["files"]
    assert len(file["games"]) == 3 and file["diagnostics"] == []


# --- a card dealt twice, and what follows from it ---------------------------------------------


def test_a_card_dealt_twice_is_reported_at_its_second_copy_with_the_card_nobody_is_dealt() -> None:
    # 李娜's deal line has 8s where 8h was meant: it was reported at 王芳's deal line (which has
    # no 8s), without a seat, and the later 李娜 does not hold 8h was not linked to it
    found = _found(DATA / "zf-06.zfn")
    [twice] = [d for d in found if d["code"] == "ZF302"]
    assert (twice["line"], twice["col"], twice["seat"]) == (12, 18, "陈静")
    assert twice["message"] == (
        "8s dealt twice (李娜, 陈静); nobody is dealt 8h: one 8s may be meant as 8h (RULES.md R2)"
    )
    [held] = [d for d in found if d["code"] == "ZF301"]
    assert held["message"].startswith("李娜 does not hold 8h")
    assert held["cause"] == {"line": 12, "col": 18, "code": "ZF302"}
    assert all(d["cause"] == held["cause"] for d in found if d["code"] == "ZF208")


def test_a_card_dealt_twice_in_a_json_record_is_at_the_deal_with_its_seat(tmp_path: Path) -> None:
    path = tmp_path / "zf-06.json"
    result = runner.invoke(app, ["convert", str(DATA / "zf-06.zfn"), str(path)])
    assert result.exit_code == 0, result.output
    [twice] = [d for d in _found(path) if d["code"] == "ZF302"]
    assert twice["seat"] == "陈静" and "nobody is dealt 8h" in twice["message"]


def test_a_card_played_again_follows_from_its_illegal_first_play() -> None:
    # `６ｈ` typed for `Ａｈ` at 13:15 (too low to beat the J): 李娜's own 6h later is played a
    # second time, which follows from that
    found = _found(DATA / "zf-03.zfn")
    assert [(d["line"], d["code"], d.get("cause")) for d in found] == [
        (13, "ZF103", None),
        (26, "ZF302", {"line": 13, "col": 15, "code": "ZF103"}),
    ]


# --- a blank line inside a header -------------------------------------------------------------


def _split_header(tmp_path: Path) -> Path:
    # the blank line splits the tags in two: game 1 has no [Players], game 2 is the game
    return _edited(tmp_path, "zf-03.zfn", ('[Date "2026.11.27"]\n', '[Date "2026.11.27"]\n\n'))


def test_audit_judges_a_file_whose_header_a_blank_line_splits_as_validate_does(
    tmp_path: Path,
) -> None:
    # audit refused the whole file with exit 2
    path = _split_header(tmp_path)
    checked = runner.invoke(app, ["validate", "--json", str(path)])
    said = [d for d in json.loads(checked.stdout)["files"][0]["diagnostics"] if d["game"] == 1]
    result = runner.invoke(app, ["audit", "--json", str(path)])
    assert (checked.exit_code, result.exit_code) == (1, 1), result.output
    doc = json.loads(result.stdout)
    assert [(g["game"], g["legal"]) for g in doc["games"]] == [(2, False)]
    assert doc["unreadable"] == []
    [lost] = doc["unread_games"]
    assert (lost["file"], lost["game"]) == (str(path), 1)
    assert lost["diagnostics"] == said
    assert "consecutive lines" in said[0]["message"]
    text = runner.invoke(app, ["audit", str(path)])
    assert text.exit_code == 1
    first, second = text.stdout.index("game 1: cannot be read"), text.stdout.index("game 2: fails")
    assert first < second
    assert "the game has no [Players" in text.stdout[first:second]


def test_audit_of_the_game_that_cannot_be_read_alone_says_so(tmp_path: Path) -> None:
    path = _split_header(tmp_path)
    result = runner.invoke(app, ["audit", "--json", "--game", "1", str(path)])
    assert result.exit_code == 1, result.output
    doc = json.loads(result.stdout)
    assert doc["games"] == [] and [g["game"] for g in doc["unread_games"]] == [1]
    result = runner.invoke(app, ["audit", "--json", "--game", "3", str(path)])
    assert result.exit_code == 2 and "there is no game 3" in json.loads(result.stdout)["error"]
    # a file of no game that can be read is still refused
    alone = tmp_path / "tags.zfn"
    alone.write_text('[Event "x"]\n\nhand 1\n', encoding="utf-8")
    result = runner.invoke(app, ["audit", "--json", str(alone)])
    assert result.exit_code == 2 and "error" in json.loads(result.stdout)


def test_a_sheng_ji_card_dealt_once_too_often_names_the_copy_nobody_is_dealt(
    tmp_path: Path,
) -> None:
    # 李娜's deal has 3c where 6h was meant: a third 3c, and the 6h she plays later
    path = _edited(tmp_path, "typo-rnoud.zfn", ("deal 2: 3h 4d 6h", "deal 2: 3h 4d 3c"))
    found = _found(path)
    [twice] = [d for d in found if d["code"] == "SJ301"]
    assert (twice["line"], twice["seat"]) == (9, "李娜")
    assert twice["message"] == (
        "a third copy of 3c: 2 deck(s) hold 2; a copy of 6h is dealt to nobody: the third 3c "
        "may be meant as 6h (RULES-SHENGJI.md R2)"
    )
    [held] = [d for d in found if d["code"] == "SJ102"]
    assert "李娜 does not hold 6h" in held["message"]
    assert held["cause"] == {"line": 9, "col": 1, "code": "SJ301"}


def test_a_line_a_players_name_starts_is_never_a_misspelt_keyword(tmp_path: Path) -> None:
    # `Hans Td ...` (its colon left out) is close to `hand`, but Hans sits at the table: the
    # line is a trick that cannot be read, not a hand line, and the game goes on
    path = _edited(
        tmp_path,
        "typo-hnad.zfn",
        ('[Players "王芳，李娜，张伟"]', '[Players "Hans，李娜，张伟"]'),
        ("\n1: Td　2: Jc", "\nHans Td　2: Jc"),
    )
    [file] = _validate(path)["files"]
    [game] = file["games"]
    assert len(game["hands"]) == 2
    [first, *_] = [d for d in file["diagnostics"] if d["line"] == 15]
    assert first["message"].startswith("expected a move like '2: 7h 7s' or a keyword, not 'Hans'")


@pytest.mark.parametrize(
    ("name", "old", "new", "word", "keyword"),
    [
        ("typo-hnad.zfn", "\n2: 9d　3: -　1: -", "\nHan 9d", "Han", "hand"),
        ("typo-hnad.zfn", "\n2: 9d　3: -　1: -", "\nhd 9d", "hd", "hand"),
        ("typo-rnoud.zfn", "\n2: Kc  3: Kc  4: 8c  1: Ac", "\nRod Kc", "Rod", "round"),
    ],
)  # fmt: skip
def test_a_line_close_to_hand_or_round_but_not_one_is_skipped_not_read_as_one(
    tmp_path: Path, name: str, old: str, new: str, word: str, keyword: str
) -> None:
    # `Han Td ...`: a name no player has, its colon left out; what follows is no hand number
    # (nor `shuffler`), so the line is skipped as before, where reading it as `hand` lost the
    # whole game ("a hand line is 'hand N' ...")
    path = _edited(tmp_path, name, (old, new))
    [file] = _validate(path)["files"]
    [game] = file["games"]
    assert len(game.get("hands") or game["rounds"]) == 2
    line = 1 + (DATA / name).read_text("utf-8").split(old)[0].count("\n") + 1
    [typo] = [d for d in file["diagnostics"] if d["line"] == line and d["code"] == "ZF001"]
    assert typo["message"].startswith(f"unknown line {word!r}: did you mean {keyword}?")
    assert "read as" not in typo["message"]
    assert "fix" not in typo or typo["fix"] is None


@pytest.mark.parametrize(
    ("name", "old", "new", "said"),
    [
        ("typo-hnad.zfn", "\n1: Td　2: Jc", "\nHan Td　2: Jc",
         "expected a move like '2: 7h 7s' or a keyword, not 'Han'"),
        ("typo-rnoud.zfn", "\n1: 5c  2: 9c", "\nLev 5c  2: 9c",
         "a move starts with a seat and a colon"),
    ],
)  # fmt: skip
def test_a_trick_line_whose_first_colon_is_left_out_is_no_misspelt_keyword(
    tmp_path: Path, name: str, old: str, new: str, said: str
) -> None:
    # `Han Td  2: Jc ...`: the moves after it make it a trick line, skipped as one, not
    # "unknown line 'Han': did you mean hand?"
    path = _edited(tmp_path, name, (old, new))
    line = (DATA / name).read_text("utf-8").split(old)[0].count("\n") + 2
    [first, *_] = [d for d in _found(path) if d["line"] == line]
    assert first["message"].startswith(said), first["message"]


def test_a_line_a_players_name_of_two_words_starts_is_never_a_misspelt_keyword(
    tmp_path: Path,
) -> None:
    # `Han Li Td ...`, Han Li at the table: a trick whose colon is left out, not `hand`
    path = _edited(
        tmp_path,
        "typo-hnad.zfn",
        ('[Players "王芳，李娜，张伟"]', '[Players "Han Li，李娜，张伟"]'),
        ("\n1: Td　2: Jc", "\nHan Li Td　2: Jc"),
    )
    [file] = _validate(path)["files"]
    [game] = file["games"]
    assert len(game["hands"]) == 2
    [first, *_] = [d for d in file["diagnostics"] if d["line"] == 15]
    assert first["message"].startswith("expected a move like '2: 7h 7s' or a keyword, not 'Han")


def test_a_misspelt_bids_line_of_two_bids_is_read_as_bids(tmp_path: Path) -> None:
    # `bisd 1: 2s  4: 2d 2d`: its moves follow a seat with its colon, as a bids line's do; it
    # is no trick line whose first colon is left out
    source = Path(__file__).parent / "data" / "sj_scribe" / "mt2.zfn"
    path = tmp_path / "bisd.zfn"
    path.write_text(source.read_text("utf-8").replace("\nbids 1: 2s", "\nbisd 1: 2s", 1), "utf-8")
    said = [d["message"] for d in _found(path) if d["line"] == 13]
    assert said == ["unknown line 'bisd': did you mean bids? (read as bids)"]


def test_a_name_close_to_hand_then_a_move_costs_only_its_line(tmp_path: Path) -> None:
    # `Han 2: 9h` is no `hand 2` line (a colon follows the number): read as one, it lost the
    # whole game ("a hand line is 'hand N' ...")
    path = _edited(tmp_path, "typo-hnad.zfn", ("\n2: 9d　3: -　1: -", "\nHan 2: 9d"))
    [file] = _validate(path)["files"]
    [game] = file["games"]
    assert len(game["hands"]) == 2
    [typo] = [d for d in file["diagnostics"] if d["line"] == 18 and d["code"] == "ZF001"]
    assert "read as" not in typo["message"]
