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

from tests.test_json_schemas import assert_valid
from tests.test_repeated_numbers import SJ, ZF
from tests.test_store import store_url  # noqa: F401 - the SQLite and PostgreSQL stores
from zfrec.cli import app

ROOT = Path(__file__).resolve().parent.parent
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


@pytest.mark.parametrize(
    ("record", "key", "after"), [(ZF, "hands", "hand"), (SJ, "rounds", "round")]
)
def test_validate_json_hands_say_which_hand_1_as_show_deal_does(
    record: Path, key: str, after: str
) -> None:
    data = _json("validate", "--json", str(record))
    assert_valid("validate", data)
    [game] = data["files"][0]["games"]
    assert [(h[after], h.get("occurrence")) for h in game[key]] == [(1, None), (1, 2)]
    assert list(game[key][1])[:2] == [after, "occurrence"]
    ordinary = ROOT / "sample_games" / "02-three-players.zfn"
    assert '"occurrence"' not in _run("validate", "--json", str(ordinary))


def _json(*args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_run(*args))
    return data


def _one_two_one(tmp_path: Path) -> Path:
    """The Zheng Fen record as hands 1, 2, 1: a number repeated after another (the third
    hand's totals are wrong then: its analysis goes on)."""
    text = ZF.read_text("utf-8")
    first = text.index("\nhand 1 ") + 1
    second = text.index("\nhand 1 ", first) + 1
    out = tmp_path / "one-two-one.zfn"
    hand_1 = text[first:second]
    out.write_text(text[:second] + "hand 2 " + text[second + 7 :] + "\n" + hand_1, "utf-8")
    return out


def _keys(entries: list[dict[str, Any]]) -> list[tuple[int, int | None]]:
    return list(dict.fromkeys((e["hand"], e.get("occurrence")) for e in entries))


def test_analyze_json_says_which_hand_1_as_the_text_does(tmp_path: Path) -> None:
    record = _one_two_one(tmp_path)
    [game] = _json("analyze", "--json", str(record))["games"]
    assert _keys(game["hands"]) == [(1, None), (2, None), (1, 2)]
    assert _keys(game["notes"]) == [(1, None), (2, None), (1, 2)]
    assert _keys(game["points_flow"]) == [(1, None), (2, None), (1, 2)]
    assert list(game["notes"][-1])[:3] == ["hand", "occurrence", "trick"]
    text = _run("analyze", str(record))
    for note in game["notes"]:
        said = "hand 1 (2nd)" if note.get("occurrence") == 2 else f"hand {note['hand']}"
        assert f"  {said}, trick {note['trick']}, turn {note['turn']}: {note['text']}\n" in text
    assert_valid("analyze", _json("analyze", "--json", str(record)))


@pytest.mark.parametrize(("record", "option"), [(None, "--hand"), (SJ, "--round")])
def test_analyze_json_of_one_number_keeps_which_hand_1_each_entry_is(
    tmp_path: Path, record: Path | None, option: str
) -> None:
    """`--hand 1` (`--round 1`) keeps every hand 1, each entry as the whole analysis writes
    it: the later hand 1's with `occurrence` 2."""
    path = _one_two_one(tmp_path) if record is None else record
    [game] = _json("analyze", "--json", option, "1", str(path))["games"]
    assert _keys(game["hands"]) == [(1, None), (1, 2)]
    assert _keys(game["notes"]) == [(1, None), (1, 2)]


def test_analyze_json_says_which_round_1_as_the_text_does() -> None:
    data = _json("analyze", "--json", str(SJ))
    assert_valid("analyze", data)
    [game] = data["games"]
    assert _keys(game["hands"]) == [(1, None), (1, 2)]
    assert _keys(game["notes"]) == [(1, None), (1, 2)]
    assert _keys(game["points_flow"]) == [(1, None), (1, 2)]
    assert list(game["hands"][1])[:3] == ["hand", "round", "occurrence"]
    text = _run("analyze", str(SJ))
    for note in game["notes"]:
        said = "round 1 (2nd)" if note.get("occurrence") == 2 else "round 1"
        at = f", trick {note['trick']}, turn {note['turn']}" if note["trick"] else ""
        assert f"  {said}{at}: {note['text']}\n" in text


def test_a_dispute_in_the_second_round_1_says_so_in_json(tmp_path: Path) -> None:
    """The disputed play of sample 10 as the second round 1 of a record: audit's text says
    `round 1 (2nd)`, its JSON `occurrence` 2; the first round 1's dispute has none."""
    sample = (ROOT / "sample_games" / "shengji" / "10-disputed.zfn").read_text("utf-8")
    header, first = sample.split("\nround 1 ", 1)
    record = tmp_path / "two-disputed.zfn"
    record.write_text(f"{header}\nround 1 {first}\nround 1 {first}", "utf-8")
    data = _json("audit", "--json", str(record))
    assert_valid("audit", data)
    [game] = data["games"]
    assert [(d["round"], d.get("occurrence")) for d in game["disputes"]] == [(1, None), (1, 2)]
    text = _run("audit", str(record))
    assert ", round 1, trick 20 (王芳)" in text and ", round 1 (2nd), trick 20 (王芳)" in text


def test_an_ordinary_record_has_no_occurrence_anywhere() -> None:
    for args in (
        ("analyze", "--json", str(ROOT / "sample_games" / "02-three-players.zfn")),
        ("analyze", "--json", str(ROOT / "sample_games" / "shengji" / "01-bashifen-match.zfn")),
        ("audit", "--json", str(ROOT / "sample_games" / "shengji" / "10-disputed.zfn")),
    ):
        assert '"occurrence"' not in _run(*args), args


def _solve_error(*args: str) -> str:
    result = runner.invoke(app, ["solve", *args, "--seconds", "1"])
    assert result.exit_code == 2, result.output
    return result.stderr


def test_solve_names_the_second_hand_1_whose_deal_is_not_known(tmp_path: Path) -> None:
    """The record stops early in the second hand 1, whose deal is not written: solving where
    it stops says `hand 1 (2nd)`, as `--at hand-1-2.html` does."""
    text = ZF.read_text("utf-8")
    second = text.index("\nhand 1 ", text.index("\nhand 1 ") + 1) + 1
    lines = text[second:].splitlines()
    plays = [x for x in lines[1:] if not x.startswith("deal ")][:2]
    record = tmp_path / "unknown.zfn"
    record.write_text(text[:second] + "\n".join([lines[0], *plays]) + "\n", "utf-8")
    said = (
        "the deal of hand 1 (2nd) is not known: cards never played could lie in more than one "
        "hand. Record the deal (or the missing cards) to solve it\n"
    )
    assert _solve_error(str(record)) == f"error: {record}: {said}"
    assert _solve_error(str(record), "--at", "hand-1-2.html").endswith(said)


def test_solve_says_which_hands_there_are_when_a_number_repeats(tmp_path: Path) -> None:
    record = _one_two_one(tmp_path)
    assert _solve_error(str(record), "--at", "hand-3.html").endswith(
        "the game has no hand 3: its hands are 1 to 2\n"
    )
    assert _solve_error(str(ZF), "--at", "3.1.1").endswith(
        "the game has no hand 3: its 2 hands are all numbered 1\n"
    )


def test_show_json_of_a_stored_game_says_which_hand_1_as_validate_does(
    store_url: str,  # noqa: F811
) -> None:
    """The store keeps a finding's occurrence (diagnostic.occurrence, migration 0006): `show
    --json` of a stored game gives the diagnostics `validate --json` gave, `occurrence` too."""
    result = runner.invoke(app, ["import", "--db", store_url, str(ZF), str(SJ)])
    assert result.exit_code == 0, result.output
    for game_id, record in ((1, ZF), (2, SJ)):
        shown = _json("show", str(game_id), "--db", store_url, "--json")
        assert_valid("show", shown)
        [file] = _json("validate", "--json", str(record))["files"]
        [game] = file["games"]
        keys = ("code", "line", "hand", "occurrence")
        found = [tuple(d.get(k) for k in keys) for d in shown["diagnostics"]]
        assert found == [tuple(d.get(k) for k in keys) for d in game["diagnostics"]]
        assert [d.get("occurrence") for d in shown["diagnostics"]] == [2], game_id


@pytest.mark.parametrize(
    ("record", "wrong", "right", "after"),
    [
        (ZF, "score 0 100 0 total 0 110 90", "score 0 90 10 total 0 100 100", "hand"),
        (SJ, "points 90 kitty 30x2 total 150", "points 90 kitty 30x2 total 160", "round"),
    ],
)
def test_diff_json_says_which_hand_1_as_its_text_does(
    tmp_path: Path, record: Path, wrong: str, right: str, after: str
) -> None:
    """The records part in the second hand (round) 1: the text says `at hand 1 (2nd)`, the
    JSON's first_divergence `occurrence` 2 (after `hand`; a Sheng ji one after `round`)."""
    other = _edited(tmp_path, record, wrong, right)
    assert f"first divergence at {after} 1 (2nd): " in _run("diff", str(record), str(other))
    data = _json("diff", "--json", str(record), str(other))
    assert_valid("diff", data)
    first = data["games"][0]["first_divergence"]
    keys = list(first)
    assert first["occurrence"] == 2 and keys[keys.index(after) + 1] == "occurrence"
    same = _json("diff", "--json", str(record), str(record))
    assert same["games"][0]["first_divergence"] is None


@pytest.mark.parametrize(
    ("wrong", "right", "occurrence"),
    [
        ("points 75 total 75", "points 75 total 85", None),  # the first round 1's figures
        ("points 90 kitty 30x2 total 150", "points 90 kitty 30x2 total 160", 2),
        # the second round 1: East revokes (Ts on diamonds, holding 6d): a play's repair
        ("2: 9d  3: 8d  4: Qd  1: 6d\n", "2: 9d  3: 8d  4: Qd  1: Ts\n", 2),
    ],
)
def test_a_sheng_ji_repairs_edits_say_which_round_1_as_their_text_does(
    tmp_path: Path, wrong: str, right: str, occurrence: int | None
) -> None:
    record = _edited(tmp_path, SJ, wrong, right)
    [game] = _json("audit", "--json", str(record))["games"]
    edits = [e for r in game["repairs"] for e in r["edits"]]
    assert edits, game["repairs"]
    for edit in edits:
        assert edit["round"] == 1 and edit.get("occurrence") == occurrence, edit
        assert ("round 1 (2nd)" in edit["text"]) == (occurrence == 2), edit


@pytest.mark.parametrize(
    ("wrong", "right", "occurrence"),
    [
        ("score 0 10 90 total 0 10 90", "score 0 20 80 total 0 20 80", None),
        ("score 0 100 0 total 0 110 90", "score 0 90 10 total 0 100 100", 2),
        ("3: 6h  1: 7d\n", "3: 6h  1: 5c\n", 2),  # Mei played her 5c in trick 3 already
    ],
)
def test_a_zheng_fen_repairs_edits_say_which_hand_1_as_their_text_does(
    tmp_path: Path, wrong: str, right: str, occurrence: int | None
) -> None:
    record = _edited(tmp_path, ZF, wrong, right)
    data = _json("audit", "--json", str(record))
    assert_valid("audit", data)
    [game] = data["games"]
    edits = [e for r in game["repairs"] for e in r["edits"]]
    assert edits, game["repairs"]
    for edit in edits:
        assert edit["hand"] == 1 and edit.get("occurrence") == occurrence, edit
        assert ("hand 1 (2nd)" in edit["text"]) == (occurrence == 2), edit
    if occurrence:
        assert list(edits[0])[2:4] == ["hand", "occurrence"]


def test_show_lists_the_second_hand_1_and_round_1_as_2nd(store_url: str) -> None:  # noqa: F811
    """`zfrec show`'s table of hands (rounds) names the second hand 1 `1 (2nd)`, as the pages
    and the findings do, not `1` twice."""
    result = runner.invoke(app, ["import", "--db", store_url, str(ZF), str(SJ)])
    assert result.exit_code == 0, result.output
    for game_id, unit in ((1, "hand"), (2, "round")):
        lines = _run("show", str(game_id), "--db", store_url).splitlines()
        header = next(i for i, line in enumerate(lines) if line.split()[:1] == [unit])
        firsts = [line.strip().split("  ")[0] for line in lines[header + 1 : header + 3]]
        assert firsts == ["1", "1 (2nd)"], lines


def test_a_hand_after_the_game_ended_names_the_second_hand_1(tmp_path: Path) -> None:
    record = _edited(tmp_path, ZF, '[Target "500"]', '[Target "50"]')  # over after hand 1
    out = _run("validate", str(record))
    assert (
        "22:1 error ZF404 game 1, hand 1 (2nd): a score reached the target 50 after hand 1, so "
        "hand 1 (2nd) should not have been played (RULES.md R12)\n"
    ) in out


@pytest.mark.parametrize(("line", "said"), [(9, "round 1"), (44, "round 1 (2nd)")])
def test_a_round_missing_a_deal_line_is_named_as_its_page_is(
    tmp_path: Path, line: int, said: str
) -> None:
    lines = SJ.read_text("utf-8").splitlines(keepends=True)
    assert lines[line - 1].startswith("deal 2: ")
    record = tmp_path / SJ.name
    record.write_text("".join(lines[: line - 1] + lines[line:]), "utf-8")
    out = _run("validate", str(record))
    assert (
        f"{said} has deal lines, but none for seat 2: write 'deal 2: ?25' for a seat nothing "
        "is known of\n"
    ) in out
