"""Sheng ji perft: the counts pinned in tests/data/sj_perft.json, recomputed through the round
state machine (tests/data/make_sj_perft.py wrote them; tests/sj_ref.py checks them against a
separate brute-force enumerator)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from zfrec.games.shengji.cards import parse_hand
from zfrec.games.shengji.order import parse_trump
from zfrec.games.shengji.perft import DEFINITION, RoundState, perft, perft_counts
from zfrec.games.shengji.rules import sj_preset

DATA = json.loads((Path(__file__).parent / "data" / "sj_perft.json").read_text(encoding="utf-8"))
SLOW = {"rank-card-tractor"}


def state_of(pos: dict[str, Any]) -> RoundState:
    rules = sj_preset(pos["rules"], **pos["options"])
    hands = [parse_hand(h, rules.decks) for h in pos["hands"]]
    return RoundState.from_hands(hands, parse_trump(pos["trump"]), pos["leader"] - 1, rules)


def test_the_file_states_its_definition_and_enough_positions() -> None:
    assert DATA["definition"] == DEFINITION
    assert len(DATA["positions"]) >= 3
    for pos in DATA["positions"]:
        assert set(pos) >= {"name", "rules", "options", "trump", "hands", "leader", "counts"}


@pytest.mark.parametrize(
    "pos",
    [
        pytest.param(p, id=p["name"], marks=[pytest.mark.slow] if p["name"] in SLOW else [])
        for p in DATA["positions"]
    ],
)
def test_perft_counts_are_as_pinned(pos: dict[str, Any]) -> None:
    state = state_of(pos)
    before = state.snapshot()
    counts = perft_counts(state, len(pos["counts"]) + (1 if pos.get("to_end") else 0))
    if pos.get("to_end"):
        assert counts[-1] == 0  # no sequence goes deeper than the last pinned depth
        counts = counts[:-1]
    assert counts == pos["counts"]
    assert state.snapshot() == before and not state.log


def test_perft_agrees_with_perft_counts() -> None:
    pos = next(p for p in DATA["positions"] if p["name"] == "throw-fails")
    state = state_of(pos)
    assert [perft(state, d) for d in range(1, 7)] == pos["counts"][:6]
