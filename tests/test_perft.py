"""Perft through the hand state machine, pinned in tests/data/perft.json and cross-checked by
the independent state machine of tests/brute.py (written from RULINGS.md 5-9)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.brute import brute_perft
from zfrec.games.zhengfen.engine.cards import parse_cards
from zfrec.games.zhengfen.engine.game import HandState
from zfrec.games.zhengfen.engine.perft import actions, perft, perft_counts
from zfrec.games.zhengfen.engine.rules import Ruleset, preset

DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text(encoding="utf-8"))
COUNTS = ("tricks", "outs", "self_overplays", "leads_passed_on", "last_turns", "hands_over")


def cases() -> list[Any]:
    return [
        pytest.param(case, id=case["name"], marks=[pytest.mark.slow] if case["slow"] else [])
        for case in DATA["cases"]
    ]


def start(case: dict[str, Any]) -> tuple[list[int], int, Ruleset]:
    hands: list[int] = [parse_cards(h) for h in case["hands"]]
    return hands, case["leader"] - 1, preset(case["preset"], **case["options"])


def pinned(case: dict[str, Any]) -> dict[str, object]:
    return {"nodes": case["nodes"], **{k: case[k] for k in COUNTS}}


@pytest.mark.parametrize("case", cases())
def test_engine_perft_matches_the_pinned_counts(case: dict[str, Any]) -> None:
    hands, leader, rules = start(case)
    state = HandState(list(hands), leader, rules)
    counts = perft_counts(state, case["depth"])
    assert counts.to_json() == pinned(case)
    # make/undo leaves the state exactly as it was.
    assert state.log == [] and state.hands == hands and state.turn == leader
    assert perft(state, min(4, case["depth"])) == case["nodes"][min(4, case["depth"]) - 1]


@pytest.mark.parametrize("case", cases())
def test_brute_force_agrees_with_the_pinned_counts(case: dict[str, Any]) -> None:
    hands, leader, rules = start(case)
    counts = brute_perft(
        hands,
        leader,
        case["depth"],
        self_overplay=rules.self_overplay,
        jokers_wild=rules.jokers_wild,
        equal_lengths=rules.sequence_lengths == "equal",
    )
    assert {"nodes": counts.nodes, **{k: getattr(counts, k) for k in COUNTS}} == pinned(case)


def test_the_cases_cover_every_rule_of_the_hand() -> None:
    """Between them the pinned trees end tricks, go out, pass the lead on (R8), give the last
    holder its one turn (R9), overplay oneself (R7) and finish hands, under all presets."""
    totals = {k: sum(c[k] for c in DATA["cases"]) for k in COUNTS}
    assert all(totals.values()), totals
    assert {c["preset"] for c in DATA["cases"]} == {"pagat", "poppel", "parlett"}
    assert {len(c["hands"]) for c in DATA["cases"]} == {3, 4, 5, 6}
    assert any(c["options"].get("sequence_lengths") == "equal" for c in DATA["cases"])
    # At least one tree is searched to the end of every line of play.
    assert any(c["nodes"][-1] == 0 for c in DATA["cases"])


def test_actions_are_the_plays_and_the_pass() -> None:
    state = HandState([parse_cards(h) for h in ("3h 4h", "5s", "6s")], 0)
    assert [a.text() if a else "pass" for a in actions(state)] == ["3h", "4h"]  # a leader plays
    state.play(0, parse_cards("4h"))
    assert [a.text() if a else "pass" for a in actions(state)] == ["5s", "pass"]
