"""The Sheng ji command line (issue 28's contract): exact JSON shapes, exit codes, bad input;
and `simulate --game shengji`, whose matches replay legally through the engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zfrec.cli import app

runner = CliRunner()
SJ = ("--game", "shengji", "--trump", "7c")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> tuple[int, Any]:
    code, out, err = run(*args, "--json")
    assert err == ""
    return code, json.loads(out)


def test_classify_contract() -> None:
    assert run_json("classify", *SJ, "8d 8d 6d 6d") == (
        0, {"kind": "tractor", "suit": "d", "units": ["8d 8d 6d 6d"]},
    )  # fmt: skip
    assert run_json("classify", *SJ, "Kd Qd Qd Td Td") == (
        0, {"kind": "throw", "suit": "d", "units": ["Qd Qd", "Td Td", "Kd"]},
    )  # fmt: skip
    assert run_json("classify", *SJ, "7h 7h") == (
        0, {"kind": "pair", "suit": "trump", "units": ["7h 7h"]},
    )  # fmt: skip
    code, data = run_json("classify", *SJ, "9s 9s 8d 8d")
    assert code == 1 and data["kind"] is None and "one suit" in data["reason"]
    assert set(data) == {"kind", "reason"}


def test_legal_contract() -> None:
    args = ("legal", *SJ, "--lead", "8d 8d", "9d 9d Jd Qd 3s")
    assert run_json(*args, "--play", "Jd Qd") == (
        1, {"legal": False, "reason": "must play the pair 9d 9d (ruling 7)"},
    )  # fmt: skip
    code, data = run_json(*args, "--play", "9d 9d")
    assert code == 0 and data["legal"] is True and set(data) == {"legal", "reason"}
    code, data = run_json(*args)
    assert code == 0 and data == {"count": 1, "plays": ["9d 9d"], "truncated": False}
    code, data = run_json("legal", *SJ, "--lead", "8d 8d", "3s 4s 5s 6s", "--limit", "2")
    assert (code, data["count"], len(data["plays"]), data["truncated"]) == (0, 6, 2, True)


def test_trick_contract() -> None:
    assert run_json("trick", *SJ, "8d 8d", "9d 9d", "Jc Qc", "Td 2s") == (
        0, {"winner": 2, "points": 10},
    )  # fmt: skip
    assert run_json("trick", *SJ, "Kd Qd Qd Td Td", "8c 8c 5c 5c Jc", "Tc Tc 2c 2c 4c") == (
        0, {"winner": 3, "points": 60},
    )  # fmt: skip


def test_throw_contract() -> None:
    args = ("throw", *SJ, "Kd Qd", "--other", "Kd 3s", "--other", "4h", "--other", "5c")
    assert run_json(*args) == (1, {"stands": False, "forced": "Qd", "back": "Kd", "blocker": 1})
    code, data = run_json("throw", *SJ, "Ad Kd", "--other", "Kd 3s", "--other", "4h")
    assert code == 0 and data == {"stands": True, "forced": None, "back": None, "blocker": None}


@pytest.mark.parametrize(
    ("throw", "forced", "back"), [("5d 5h", "5d", "5h"), ("5h 5d", "5h", "5d")]
)
def test_throw_forces_the_equal_card_written_first(throw: str, forced: str, back: str) -> None:
    # no-trump, rank 5: the two rank cards are equal trumps, both beaten by a big joker
    args = ("throw", "--game", "shengji", "--trump", "5", throw, "--other", "BJ", "--other", "3c")
    assert run_json(*args) == (1, {"stands": False, "forced": forced, "back": back, "blocker": 1})


def test_score_contract() -> None:
    args = ("score", "--game", "shengji", "--points", "85", "--kitty-points", "25")
    assert run_json(*args, "--last", "Kd Kd", "--last-winner", "opponents", "--dealer", "1") == (
        0, {"total": 185, "declarers": 0, "opponents": 2, "swap": True, "next_dealer": 2,
            "multiplier": 4, "kitty_added": 100},
    )  # fmt: skip
    code, data = run_json(*args, "--last-winner", "declarers", "--dealer", "3")
    assert code == 0 and data == {
        "total": 85, "declarers": 0, "opponents": 0, "swap": True, "next_dealer": 4,
        "multiplier": None, "kitty_added": 0,
    }  # fmt: skip
    code, data = run_json("score", "--game", "shengji", "--points", "35", "--dealer", "4")
    assert data == {"total": 35, "declarers": 2, "opponents": 0, "swap": False, "next_dealer": 2,
                    "multiplier": None, "kitty_added": 0}  # fmt: skip
    code, data = run_json("score", "--game", "shengji", "--rules", "dabaifen", "--points", "60")
    assert (data["opponents"], data["swap"]) == (1, True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("classify", *SJ, "8z"), "unknown suit 'z'"),
        (("classify", *SJ, "8d 8d 8d"), "a third copy of 8d"),
        (("classify", "--game", "shengji", "--trump", "7x", "8d"), "cannot read the trump"),
        (("classify", "--game", "shengji", "8d"), "Sheng ji needs the round's trump"),
        (("trick", "3h", "5h"), "Sheng ji needs the round's trump: give --trump 7c"),
        (("legal", *SJ, "--lead", "8d 9s", "3s"), "not a lead"),
        (("trick", *SJ, "8d 8d", "9d"), "every play has as many as the lead"),
        (("trick", "--game", "zhengfen", "8d", "9d"), "add --game shengji"),
        (("classify", "--game", "bridge", "8d"), "unknown game 'bridge'"),
        (("classify", *SJ, "--rules", "tractor", "8d"), "unknown Sheng ji preset"),
        (("classify", *SJ, "--option", "no_bid=coin", "8d"), "no_bid is first_card"),
        (("score", "--game", "shengji", "--points", "85", "--kitty-points", "20"), "last-winner"),
    ],
)
def test_bad_input_is_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_a_command_only_sheng_ji_has_needs_no_game_option() -> None:
    """`trick`, `throw` and `score` exist for Sheng ji only: they asked for --game shengji."""
    code, out, _ = run("trick", "--trump", "2d", "Ah", "9s", "9d", "Kh")
    assert (code, out) == (0, "play 3 (9d) wins 10 points\n")  # 9d is trump; Kh is 10
    code, out, _ = run("score", "--points", "85")
    assert code == 0 and "the teams swap" in out, out
    code, _, err = run("throw", "--trump", "2d", "--hand", "1", "Kh Ah")
    assert "add --game shengji" not in err


def test_one_deck_allows_one_copy_only() -> None:
    code, _, err = run("classify", *SJ, "--decks", "1", "8d 8d")
    assert code == 2 and "2 copies of 8d: 1 deck holds only 1 of each card" in err


def test_zheng_fen_is_unchanged_by_default() -> None:
    code, data = run_json("classify", "Ks Kh As Ah 2s 2h")
    assert code == 0 and data["readings"][0]["category"] == "pair_sequence"
    code, _, err = run("legal", "3h 4h", "--play", "3h")
    assert code == 2 and "add --game shengji" in err


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["bashifen", "dabaifen", "zhaopengyou"])
def test_simulate_writes_whole_matches(tmp_path: Path, preset: str) -> None:
    from zfrec.games.shengji.cards import parse_hand
    from zfrec.games.shengji.events import PlayEvent
    from zfrec.games.shengji.match import play_match, replay_round
    from zfrec.games.shengji.rules import sj_preset

    out = tmp_path / "m.jsonl"
    code, _, err = run("simulate", "--game", "shengji", "--rules", preset, "--games", "2",
                       "--seed", "11", "--bot", "greedy", "--format", "jsonl",
                       "--out", str(out))  # fmt: skip
    assert code == 0, err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {r["match"] for r in rows} == {1, 2} and all(r["preset"] == preset for r in rows)
    finals = [r for r in rows if r["winners"]]
    assert len(finals) == 2  # every match played to its end
    # the engine's matches behind the lines replay action by action, every play verified
    rules = sj_preset(preset)
    for i in range(2):
        match = play_match(rules, 11 + i, ["greedy"] * rules.players)
        lines = [r for r in rows if r["match"] == i + 1]
        assert len(lines) == len(match.rounds)
        for r, line in zip(match.rounds, lines, strict=True):
            state = replay_round(rules, r.deck, r.level, r.dealer, r.state.log)
            assert state.result == r.state.result
            plays = [e for e in state.log if isinstance(e, PlayEvent)]
            written = [e for e in line["events"] if e["event"] == "play"]
            assert [parse_hand(e["cards"]) for e in written] == [p.cards for p in plays]
