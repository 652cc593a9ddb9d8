"""An unreadable card in a `deal` line (Sheng ji: also `kitty`, `discard`) costs only that
card: it is read as the one card that fits and no line gives (`did you mean 3h? (read as
3h)`), else as one unknown card, and the rest of the record is judged (DIAGNOSTICS.md, After
an error). Strict readers still refuse it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import Engine
from typer.testing import CliRunner

from tests.test_store import _import, engine, store_url
from zfrec.cli import app
from zfrec.diagnostics import Diagnostic
from zfrec.errors import NotationError
from zfrec.record import loads
from zfrec.validate import Report, validate_path, validate_text

__all__ = ["engine", "store_url"]  # fixtures, shared with tests/test_store.py

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
TRAIN = (SAMPLES / "02-three-players.zfn").read_text("utf-8")  # Zheng Fen, three seats
MATCH = (SAMPLES / "shengji" / "05-dabaifen-match.zfn").read_text("utf-8")  # 13 rounds


def _edited(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def _one(text: str) -> Report:
    (report,) = validate_text(text)
    assert isinstance(report, Report), report  # judged, not lost
    return report


def _sj(tmp_path: Path, text: str) -> list[Diagnostic]:
    path = tmp_path / "match.zfn"
    path.write_text(text, encoding="utf-8")
    return [d for r in validate_path(path) for d in getattr(r, "diagnostics", [r])]


def test_a_zheng_fen_deal_card_typo_is_read_as_the_one_card_that_fits() -> None:
    report = _one(_edited(TRAIN, "deal 2: 3h 4h", "deal 2: 3x 4h"))
    (typo,) = report.diagnostics
    assert (typo.code, typo.location.line, typo.location.col, typo.location.hand) == (
        "ZF001", 8, 10, 1,
    )  # fmt: skip
    assert typo.message == (
        "unknown suit 'x' in '3x': suits are s h d c (or ♠ ♥ ♦ ♣); did you mean 3h? (read as 3h)"
    )
    assert typo.fix is not None and (typo.fix.col, typo.fix.end_col, typo.fix.text) == (9, 11, "3h")
    assert report.scores == (0, 110, 90) and len(report.hands) == 2
    assert not report.hands[0].reconstructed


def test_a_zheng_fen_deal_typo_leaves_every_other_mistake_reported() -> None:
    text = _edited(TRAIN, "deal 2: 3h 4h", "deal 2: 3x 4h")
    text = _edited(text, "score 0 10 90 total 0 10 90", "score 0 10 90 total 0 10 95")
    report = _one(text)
    assert [(d.code, d.cause) for d in report.diagnostics] == [("ZF001", None), ("ZF402", None)]


def test_two_deal_typos_that_fit_two_cards_are_read_as_unknown_cards() -> None:
    report = _one(_edited(TRAIN, "deal 2: 3h 4h 4c", "deal 2: 3h 4x 4y"))
    first, second, *rest = report.diagnostics
    assert first.message.endswith("did you mean 4h or 4c? (read as an unknown card)")
    assert second.message.endswith("did you mean 4h or 4c? (read as an unknown card)")
    assert first.fix is not None and (first.fix.text, first.fix.alternatives) == ("4h", ("4c",))
    assert [d for d in rest if d.severity == "error"] == []
    assert report.scores == (0, 110, 90)


def test_strict_readers_still_refuse_a_deal_card_typo() -> None:
    with pytest.raises(NotationError, match="unknown suit 'x' in '3x'"):
        loads(_edited(TRAIN, "deal 2: 3h 4h", "deal 2: 3x 4h"))
    with pytest.raises(NotationError, match="unknown suit 'x' in '4x'"):
        loads(_edited(MATCH, "kitty 4d 9d", "kitty 4x 9d"))


@pytest.mark.parametrize(
    ("old", "new", "meant", "line"),
    [
        ("deal 2: 3s 3h", "deal 2: 3z 3h", "3s", 13),
        ("kitty 4d 9d", "kitty 4x 9d", "4d", 17),
        ("discard 4h 4c", "discard 4q 4c", "4h", 18),
    ],
)
def test_a_sheng_ji_deal_kitty_or_discard_typo_costs_only_that_card(
    tmp_path: Path, old: str, new: str, meant: str, line: int
) -> None:
    found = _sj(tmp_path, _edited(MATCH, old, new))
    (typo,) = found  # the 13 rounds are judged, and nothing else is wrong
    assert (typo.code, typo.location.line, typo.location.hand) == ("ZF001", line, 1)
    assert typo.message.endswith(f"did you mean {meant}? (read as {meant})")
    assert typo.fix is not None and typo.fix.text == meant


def test_a_sheng_ji_deal_card_nothing_can_be_read_of_is_an_unknown_card(tmp_path: Path) -> None:
    # nothing of `1x` can be read, so no card fits it (and seat 2 now has a card too many)
    found = _sj(tmp_path, _edited(MATCH, "deal 2: 3s 3h", "deal 2: 3s 3h 1x ?"))
    typo = found[0]
    assert typo.code == "ZF001" and typo.message.endswith("; read as an unknown card")
    assert typo.fix is None


def test_a_record_with_a_deal_typo_is_stored_flagged(engine: Engine, tmp_path: Path) -> None:
    zf = tmp_path / "zf.zfn"
    zf.write_text(_edited(TRAIN, "deal 2: 3h 4h", "deal 2: 3x 4h"), encoding="utf-8")
    sj = tmp_path / "sj.zfn"
    sj.write_text(_edited(MATCH, "kitty 4d 9d", "kitty 4x 9d"), encoding="utf-8")
    for path in (zf, sj):
        result = _import(engine, path)
        assert (result.games, result.added, result.unreadable, result.flagged) == (1, 1, 0, 1)


def test_a_sheng_ji_deal_typo_is_never_read_as_a_card_another_line_gives(tmp_path: Path) -> None:
    # 王芳 (seat 2) is dealt 3s, written `3z`, and plays Bo Li's 3d: the typo is not read as the
    # 3d the round shows seat 2 to play (that would call Bo Li's deal wrong, and the play
    # right), but as the 3s no line gives; the play is judged as without the typo
    wrong = _edited(MATCH, "1: Kd  2: 3s", "1: Kd  2: 3d")
    without = [(d.code, d.message) for d in _sj(tmp_path, wrong) if d.location.hand == 1]
    found = _sj(tmp_path, _edited(wrong, "deal 2: 3s 3h", "deal 2: 3z 3h"))
    typo, *rest = [d for d in found if d.location.hand == 1]
    assert typo.message.endswith("did you mean 3s? (read as 3s)")
    assert [(d.code, d.message) for d in rest] == without and without[0][0] == "SJ102"


def test_a_sheng_ji_deal_typo_in_a_round_without_plays_is_the_card_the_decks_lack(
    tmp_path: Path,
) -> None:
    text = _edited(MATCH, "deal 2: 3s 3h", "deal 2: 3z 3h")
    first = text.split("\nround 2")[0].replace('[Result "A 4 A 4 winners 1, 3"]\n', "")
    dealt = "\n".join(line for line in first.splitlines() if not line[:1].isdigit()) + "\n"
    typo = _sj(tmp_path, dealt)[0]
    assert typo.message.endswith("did you mean 3s? (read as 3s)")


@pytest.mark.parametrize(
    ("old", "new", "edit"),
    [
        ("deal 2: 3h 4h", "deal 2: 3x 4h", "line 8: 3x was read as 3h"),
        ("deal 2: 3h 4h", "deal Jnu: 3h 4h", "line 8: Jnu was read as Jun"),
        ("deal 2: 3h 4h 4c", "deal 2: 3h 4x 4y", "line 8: 4x was read as an unknown card"),
    ],
)
def test_an_audit_says_how_a_deal_line_was_read(
    tmp_path: Path, old: str, new: str, edit: str
) -> None:
    path = tmp_path / "train.zfn"
    path.write_text(_edited(TRAIN, old, new), encoding="utf-8")
    done = CliRunner().invoke(app, ["audit", "--json", str(path)])
    assert done.exit_code == 1, done.output
    (game,) = json.loads(done.stdout)["games"]
    texts = [e["text"] for e in game["repairs"][0]["edits"]]
    assert texts[0] == edit and game["repairs"][0]["ok"]


def test_a_sheng_ji_kitty_typo_and_a_discard_typo_of_one_round_are_both_read(
    tmp_path: Path,
) -> None:
    # the kitty's card is read first: the discard's is then what the dealer holds and neither
    # plays nor discards
    text = _edited(_edited(MATCH, "kitty 4d 9d", "kitty 4x 9d"), "discard 4h 4c", "discard 4q 4c")
    found = _sj(tmp_path, text)
    assert [(d.location.line, d.message.rpartition("; ")[2]) for d in found] == [
        (17, "did you mean 4d? (read as 4d)"),
        (18, "did you mean 4h? (read as 4h)"),
    ]


@pytest.mark.parametrize(
    ("part", "old", "new", "edit"),
    [
        (("deal", 0), "Th", "Tx", "at /rounds/0/deal/0/cards: Tx was read as Th"),
        (("kitty",), "Td", "Tq", "at /rounds/0/kitty/cards: Tq was read as Td"),
    ],
)
def test_an_audit_repairs_a_sheng_ji_json_card_typo_as_a_zfn_one(
    tmp_path: Path, part: tuple[str | int, ...], old: str, new: str, edit: str
) -> None:
    data = json.loads((SAMPLES / "shengji" / "08-one-round.json").read_text("utf-8"))
    where = data["rounds"][0]
    for key in part:
        where = where[key]
    assert old in where["cards"]
    where["cards"] = where["cards"].replace(old, new, 1)
    path = tmp_path / "round.json"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    done = CliRunner().invoke(app, ["audit", "--json", str(path)])
    assert done.exit_code == 1, done.output
    (game,) = json.loads(done.stdout)["games"]
    [repair] = game["repairs"]
    assert repair["ok"]
    [made] = repair["edits"]
    assert (made["kind"], made["text"], made["before"], made["after"]) == ("read", edit, new, old)


BJJ_MESSAGE = (
    "cannot read a card at 'BJJ': a joker is SJ or BJ, with one J; did you mean BJ? (read as BJ)"
)


def test_a_big_joker_with_its_j_twice_is_read_as_the_big_joker_in_both_games(
    tmp_path: Path,
) -> None:
    report = _one(_edited(TRAIN, "Ac 2d BJ\n", "Ac 2d BJJ\n"))
    (typo,) = report.diagnostics
    assert (typo.code, typo.message, typo.location.line, typo.location.col) == (
        "ZF001", BJJ_MESSAGE, 8, 60,
    )  # fmt: skip
    assert report.scores == (0, 110, 90)
    # Sheng ji, .zfn and JSON: the same reading
    round_ = (SAMPLES / "shengji" / "02-no-trump.zfn").read_text("utf-8")
    found = _sj(tmp_path, _edited(round_, "2h 2c SJ BJ\n", "2h 2c SJ BJJ\n"))
    assert [(d.code, d.message) for d in found] == [("ZF001", BJJ_MESSAGE)]
    data = json.loads((SAMPLES / "shengji" / "08-one-round.json").read_text("utf-8"))
    deal = data["rounds"][0]["deal"][1]
    deal["cards"] = _edited(deal["cards"], "SJ BJ", "SJ BJJ")
    [judged] = validate_text(json.dumps(data), "round.json")
    assert not isinstance(judged, Diagnostic)  # judged, not lost
    assert [d.message for d in judged.diagnostics] == [f"at /rounds/0/deal/1/cards: {BJJ_MESSAGE}"]


def test_an_audit_of_a_sheng_ji_record_read_from_stdin_says_the_typo_s_line() -> None:
    text = (SAMPLES / "shengji" / "02-no-trump.zfn").read_text("utf-8")
    line = next(i for i, t in enumerate(text.split("\n"), 1) if t.endswith(" BJ"))
    done = CliRunner().invoke(app, ["audit", "--json", "-"], input=_edited(text, " BJ\n", " BJJ\n"))
    assert done.exit_code == 1, done.output
    (game,) = json.loads(done.stdout)["games"]
    [made] = [edit for repair in game["repairs"] for edit in repair["edits"]]
    assert made["text"] == f"line {line}: BJJ was read as BJ"
