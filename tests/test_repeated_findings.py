"""What `validate`, `analyze` and `audit` say of a hand (Sheng ji: round) whose number the
record writes again: `hand 1 (2nd)`, `round 1 (2nd)`, as its page is headed (RENDER.md, Page
names), in the text and in `--json` (`occurrence`); the first hand of a number, and every hand
of a record whose numbers are unique, are said as before.

The records are tests/data/hand-number-repeated.zfn and sj-round-number-repeated.zfn, made to
fail where a test needs findings in each hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tests.test_repeated_numbers import SJ, ZF, _renumbered
from zfrec.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

# each hand (round) 1 scored wrong: a finding in both
ZF_EDITS = (
    ("score 0 10 90 total 0 10 90", "score 0 20 80 total 0 20 80"),
    ("score 0 100 0 total 0 110 90", "score 0 90 10 total 0 100 100"),
)
SJ_EDITS = (
    ("points 75 total 75", "points 75 total 85"),
    ("points 90 kitty 30x2 total 150", "points 90 kitty 30x2 total 160"),
)


def _edited(tmp_path: Path, record: Path, edits: tuple[tuple[str, str], ...]) -> Path:
    text = record.read_text("utf-8")
    for wrong, right in edits:
        assert text.count(wrong) == 1, wrong
        text = text.replace(wrong, right)
    out = tmp_path / record.name
    out.write_text(text, "utf-8")
    return out


def _run(*args: str) -> str:
    return runner.invoke(app, list(args)).stdout


def _diagnostics(record: Path) -> list[dict[str, Any]]:
    [file] = json.loads(_run("validate", "--json", str(record)))["files"]
    [game] = file["games"]
    return game["diagnostics"]  # type: ignore[no-any-return]


def test_validate_says_which_hand_1_a_finding_is_in(tmp_path: Path) -> None:
    record = _edited(tmp_path, ZF, ZF_EDITS)
    lines = [x.strip() for x in _run("validate", str(record)).splitlines()]
    said = [x.split(": ", 1)[0] for x in lines if " game 1, " in x]
    assert said == [
        "20:1 error ZF401 game 1, hand 1",
        "20:1 error ZF402 game 1, hand 1",
        "22:1 warning ZF406 game 1, hand 1 (2nd)",
        "33:1 error ZF401 game 1, hand 1 (2nd)",
        "33:1 error ZF402 game 1, hand 1 (2nd)",
    ]
    assert "game 1, hand 1 (2nd): hand 1 (2nd) follows hand 1: hands are numbered" in "\n".join(
        lines
    )
    found = [(d["code"], d["hand"], d.get("occurrence")) for d in _diagnostics(record)]
    assert found == [
        ("ZF401", 1, None),
        ("ZF402", 1, None),
        ("ZF406", 1, 2),
        ("ZF401", 1, 2),
        ("ZF402", 1, 2),
    ]


def test_validate_says_which_round_1_a_finding_is_in(tmp_path: Path) -> None:
    record = _edited(tmp_path, SJ, SJ_EDITS)
    lines = [x.strip() for x in _run("validate", str(record)).splitlines()]
    said = [x.split(": ", 1)[0] for x in lines if " game 1, " in x]
    assert said == [
        "38:1 error SJ501 game 1, round 1",
        "42:1 warning SJ508 game 1, round 1 (2nd)",
        "72:1 error SJ501 game 1, round 1 (2nd)",
    ]
    assert "round 1 (2nd) follows round 1: rounds are numbered one by one" in "\n".join(lines)
    found = [(d["code"], d["hand"], d.get("occurrence")) for d in _diagnostics(record)]
    assert found == [("SJ501", 1, None), ("SJ508", 1, 2), ("SJ501", 1, 2)]


def test_the_audit_names_the_second_hand_1_in_its_error_repair_and_dispute(
    tmp_path: Path,
) -> None:
    record = _edited(tmp_path, ZF, ZF_EDITS[1:])
    text = record.read_text("utf-8").replace("3: 6h  1: 7d\n", "3: 6h  1: 7d disputed or Ad\n")
    record.write_text(text, "utf-8")
    out = _run("audit", str(record))
    assert "  first error: hand 1 (2nd): recorded points Mei 0, Jun 90, Hao 10 differ" in out
    assert "1. legal if the score line of hand 1 (2nd) read points 0 100 0 and totals" in out
    assert ", hand 1 (2nd), trick 7 (Mei)" in out, out
    [game] = json.loads(_run("audit", "--json", str(record)))["games"]
    errors = [(d["hand"], d.get("occurrence")) for d in game["diagnostics"] if d["code"] == "ZF401"]
    assert errors == [(1, 2)]
    assert "score line of hand 1 (2nd) read" in json.dumps(game["repairs"])


def test_the_audit_names_the_second_round_1_in_its_error_repair_and_dispute(
    tmp_path: Path,
) -> None:
    record = _edited(tmp_path, SJ, SJ_EDITS[1:])
    line = "2: Jc  3: 9c  4: 7c  1: Tc\n"  # the second round 1's fourth trick
    text = record.read_text("utf-8").replace(line, line[:-1] + " disputed or 4c\n")
    record.write_text(text, "utf-8")
    out = _run("audit", str(record))
    assert "  first error: round 1 (2nd): the opponents took 150 points, not 160" in out
    assert "1. legal if round 1 (2nd)'s points line read points 90 kitty 30 x2 total 150" in out
    assert "  disputed at 53:22, round 1 (2nd), trick 4 (East)" in out
    assert "illegal: SJ102 at 58:31, round 1 (2nd), trick 9, turn 4 (East)" in out
    [game] = json.loads(_run("audit", "--json", str(record)))["games"]
    errors = [(d["hand"], d.get("occurrence")) for d in game["diagnostics"] if d["code"] == "SJ501"]
    assert errors == [(1, 2)]
    assert "round 1 (2nd)'s points line read" in json.dumps(game["repairs"], ensure_ascii=False)


def test_analyze_heads_and_notes_the_second_hand_1_as_its_page() -> None:
    out = _run("analyze", str(ZF)).splitlines()
    assert [x for x in out if x.startswith("hand ")] == [
        "hand 1 (deal recorded)",
        "hand 1 (2nd) (deal recorded)",
    ]
    notes = [x.split(",")[0].strip() for x in out if x.startswith("  hand 1")]
    assert notes == ["hand 1"] * 6 + ["hand 1 (2nd)"] * 6


def test_sheng_ji_analyze_says_round_1_2nd_where_the_renumbered_record_says_round_2(
    tmp_path: Path,
) -> None:
    """The text of a record with two rounds 1 is, word for word, that of the same record
    with the second numbered 2, but for `round 1 (2nd)` where it says `round 2`."""
    unique = tmp_path / "unique.zfn"
    unique.write_text(_renumbered(SJ.read_text("utf-8")), "utf-8")
    repeated, renumbered = _run("analyze", str(SJ)), _run("analyze", str(unique))
    assert "round 1 (2nd): trump 3h, declarers East and West" in repeated
    assert repeated.count("round 1 (2nd)") == 1 + 11  # its heading and its notes
    assert repeated.replace("round 1 (2nd)", "round 2") == renumbered
    assert "(2nd)" not in renumbered


def test_sheng_ji_analyze_says_no_trump_as_the_pages_do() -> None:
    """A no-trump round's trump is its rank alone: said `no trump, rank 3` (its page's
    words), not `trump 3`; a suit's round keeps `trump 2d`."""
    out = _run("analyze", "--summary", str(ROOT / "sample_games" / "shengji" / "02-no-trump.zfn"))
    heads = [x for x in out.splitlines() if x.startswith("round ")]
    assert heads == [
        "round 1: trump 2d, declarers 王芳 and 李娜",
        "round 2: no trump, rank 3, declarers Ann and Bo Li",
    ]


def test_diff_names_the_second_hand_and_round_1_where_the_records_part(tmp_path: Path) -> None:
    for record, edits, said in (
        (ZF, ZF_EDITS[1:], "  first divergence at hand 1 (2nd): the score lines differ"),
        (SJ, SJ_EDITS[1:], "  first divergence at round 1 (2nd): the points lines differ"),
    ):
        out = _run("diff", str(record), str(_edited(tmp_path, record, edits)))
        assert said in out, out
    # the first hand 1 is said as before
    out = _run("diff", str(ZF), str(_edited(tmp_path, ZF, ZF_EDITS[:1])))
    assert "  first divergence at hand 1: the score lines differ" in out, out
