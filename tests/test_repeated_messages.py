"""The words of a finding, a deal listing and an analysis say which hand (Sheng ji: round) of a
repeated number they are about, as the finding's place does: `hand 1 (2nd)`, `round 1 (2nd)`
(RENDER.md, Page names); `--json` says it with `occurrence` where a number repeats.

The records are tests/data/hand-number-repeated.zfn and sj-round-number-repeated.zfn, edited
where a test needs a finding in the second hand (round) 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.test_repeated_numbers import SJ, ZF
from zfrec.cli import app

runner = CliRunner()


def _edited(tmp_path: Path, record: Path, wrong: str, right: str) -> Path:
    text = record.read_text("utf-8")
    assert text.count(wrong) == 1, wrong
    out = tmp_path / record.name
    out.write_text(text.replace(wrong, right), "utf-8")
    return out


def _run(*args: str) -> str:
    return runner.invoke(app, list(args)).stdout


@pytest.mark.parametrize(
    ("header", "said"),
    [
        ("round 1 dealer 1 rank 3 trump h", "SJ304 game 1, round 1 (2nd) (East): West deals "
         "round 1 (2nd), not East (RULES-SHENGJI.md R12)"),
        ("round 1 dealer 3 rank 4 trump h", "SJ505 game 1, round 1 (2nd): round 1 (2nd) is "
         "played at 3, the declarers' level, not 4 (RULES-SHENGJI.md R14)"),
    ],
)  # fmt: skip
def test_a_wrong_dealer_or_rank_names_the_second_round_1(
    tmp_path: Path, header: str, said: str
) -> None:
    record = _edited(tmp_path, SJ, "round 1 dealer 3 rank 3 trump h", header)
    out = _run("validate", str(record))
    assert f"42:1 error {said}\n" in out


def test_a_hand_closed_early_names_the_second_hand_1(tmp_path: Path) -> None:
    record = _edited(tmp_path, ZF, "3: 6h  1: 7d\n", "")
    out = _run("validate", str(record))
    assert (
        "error ZF208 game 1, hand 1 (2nd): hand 1 (2nd) is closed by a score line before it "
        "ended: Mei, Hao still hold cards (RULES.md R24)\n"
    ) in out


@pytest.mark.parametrize(("record", "unit"), [(ZF, "hand"), (SJ, "round")])
def test_show_deal_names_each_hand_1(record: Path, unit: str) -> None:
    out = _run("validate", "--show-deal", str(record))
    heads = [x for x in out.splitlines() if x.startswith("game 1, ")]
    assert heads == [
        f"game 1, {unit} 1 deal (as recorded):",
        f"game 1, {unit} 1 (2nd) deal (as recorded):",
    ]


def _json(*args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_run(*args))
    return data
