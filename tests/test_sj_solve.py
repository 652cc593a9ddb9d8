"""The Sheng ji double-dummy solver: against a plain minimax, on records, at the command line."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sj_solve_reference import TooBig, dealt_position, minimax, random_position
from zfrec.games.shengji.cards import HIGH, format_hand, parse_hand, size
from zfrec.games.shengji.order import parse_trump
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import sj_preset
from zfrec.games.shengji.solve import SjBudget, _Search, card_classes, leads, solve_state
from zfrec.games.shengji.solverecord import SolveError, record_position, round_costs
from zfrec.record import load

SEED = 20261128
AGREE = 300  # positions the solver and the plain minimax must agree on
STATES = 10_000  # the reference's budget of positions: bounded time and memory per draw
SIZES = (3, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 6)  # cards per seat, drawn from this list


@pytest.mark.slow
def test_solver_agrees_with_the_plain_minimax() -> None:
    rng = random.Random(SEED)
    agreed: dict[int, int] = {}
    tries = 0
    while sum(agreed.values()) < AGREE:
        tries += 1
        assert tries < 3000, f"too few positions fit the reference's budget: {agreed}"
        per_seat = rng.choice(SIZES)
        state = random_position(rng, per_seat)
        before = state.snapshot()
        try:
            expected = minimax(state, STATES)
        except TooBig:
            assert state.snapshot() == before
            continue
        got = solve_state(state)
        assert state.snapshot() == before, "the solver left the state changed"
        hands = [format_hand(h) for h in state.hands]
        assert got.exact
        assert got.value == expected, (hands, state.order.text if state.order else None)
        # the line is legal and ends at the value; each best play keeps it
        for step in got.line:
            state.play(step.seat, step.play)
        assert state.result is not None and state.result.total == expected
        for _ in got.line:
            state.undo()
        for play in got.best:
            state.play(state.turn, play)
            after = minimax(state, STATES * 4)
            state.undo()
            assert after == expected, (hands, format_hand(play))
        agreed[per_seat] = agreed.get(per_seat, 0) + 1
    assert agreed.get(5, 0) >= 3, agreed  # the larger sizes are reached too


def test_the_solver_finds_the_best_lead_and_its_ties() -> None:
    # Kd is taken by Ad (15 points with the 5d); a spade lets the opponents ruff with Tc
    hands = [parse_hand(h) for h in ("Kd 3s", "Ad 4s", "5d 6h", "8d Tc")]
    state = RoundState.from_hands(hands, parse_trump("7c"), leader=0)
    result = solve_state(state)
    assert result.exact
    assert result.value == minimax(state, 10_000) == 25
    assert sorted(format_hand(p) for p in result.best) == ["3s", "Kd"]
    assert result.declarers == 0
    assert len(result.line) == 8


def test_a_failing_throw_is_never_tried_and_standing_throws_are() -> None:
    # seat 2's Qd beats 9d: a throw with the 9d fails (held to it); Kd Ad stands
    hands = [parse_hand(h) for h in ("Ad Kd 9d", "Qd 4s 5s", "5h 6h 7h", "8c 9c Jc")]
    state = RoundState.from_hands(hands, parse_trump("7c"), leader=0)
    found = {format_hand(p) for p in leads(state)}
    assert "9d Kd" not in found and "9d Kd Ad" not in found and "9d Ad" not in found
    assert {"9d", "Kd", "Ad", "Kd Ad"} <= found
    assert solve_state(state).value == minimax(state, 50_000)


def test_equivalent_cards_are_one_move_only_where_nothing_tells_them_apart() -> None:
    # seat 1 holds 9d 8d alone (no other diamond between or level): one class; Jd is held
    # by seat 2 above them; 7h 7s are equal trumps (rank 7) held once each by seat 1 alone
    hands = [parse_hand(h) for h in ("9d 8d 7h 7s", "Jd 3s 4s 5h", "6h 6h 4c 3c", "Ac Kc 2c 3h")]
    state = RoundState.from_hands(hands, parse_trump("7c"), leader=0)
    classes = card_classes(state, 0)
    ids = {format_hand(1 << (c << 1)): c for c in range(54)}
    assert classes.get(ids["8d"]) == ids["9d"] or classes.get(ids["9d"]) == ids["8d"]
    assert classes.get(ids["7s"]) == ids["7h"] or classes.get(ids["7h"]) == ids["7s"]
    plays = {format_hand(p) for p in leads(state)}
    assert solve_state(state).value == minimax(state, 50_000)
    assert len(plays) > 2


def test_a_budget_too_small_answers_inexact_and_never_hangs() -> None:
    rng = random.Random(4)
    state = random_position(rng, 8)
    before = state.snapshot()
    result = solve_state(state, SjBudget(max_nodes=50, max_seconds=None))
    assert not result.exact
    assert result.line and state.snapshot() == before
    # the line is a legal play to the end of the round
    for step in result.line:
        state.play(step.seat, step.play)
    assert state.result is not None


def test_a_search_cut_short_reports_bounds_that_hold_the_value() -> None:
    rng = random.Random(SEED + 5)
    tried = 0
    for _ in range(40):
        state = random_position(rng, rng.choice((3, 4)))
        try:
            value = minimax(state, STATES)
        except TooBig:
            continue
        full = solve_state(state)
        assert full.exact and full.lower == full.value == full.upper == value
        for nodes in (1, 5, 20, 60):
            cut = solve_state(state, SjBudget(max_nodes=nodes, max_seconds=None))
            assert cut.lower <= value <= cut.upper
            assert cut.lower <= cut.value <= cut.upper
            tried += not cut.exact
    assert tried > 40  # most searches were cut short: the bounds were put to the test


# --- records and the command line ----------------------------------------------------------------


def _simulated(tmp_path: Path) -> Path:
    out = tmp_path / "match.zfn"
    subprocess.run(
        [sys.executable, "-m", "zfrec", "simulate", "--game", "shengji", "--games", "1",
         "--seed", "3", "--out", str(out)],
        check=True, capture_output=True,
    )  # fmt: skip
    return out


def _cut(match: Path, tmp_path: Path, tricks: int, turns: int = 0) -> Path:
    """Round 1 of the match, stopped after `tricks` whole tricks and `turns` plays more."""
    lines = match.read_text("utf-8").split("\n")
    head = [ln for ln in lines if ln.startswith("[") and not ln.startswith("[Result")]
    start = next(i for i, ln in enumerate(lines) if ln.startswith("round 1 "))
    end = next(i for i, ln in enumerate(lines) if ln.startswith("round 2 "))
    body = lines[start:end]
    first = next(i for i, ln in enumerate(body) if ln.startswith("discard")) + 1
    kept = body[:first] + body[first : first + tricks]
    if turns:
        plays = body[first + tricks].split("  ")
        kept.append("  ".join(plays[:turns]))
    path = tmp_path / f"cut-{tricks}-{turns}.zfn"
    path.write_text("\n".join([*head, "", *kept]) + "\n", "utf-8")
    return path


def _zfrec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zfrec", *args], capture_output=True, text=True, check=False
    )


@pytest.mark.slow
def test_solve_json_on_a_record_cut_mid_round(tmp_path: Path) -> None:
    match = _simulated(tmp_path)
    cut = _cut(match, tmp_path, 21, 2)
    done = _zfrec("solve", str(cut), "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"values", "best", "line", "nodes", "ms", "exact", "bounds", "round"}
    assert answer["round"] == next(iter(load(cut))).rounds[-1].number  # where the record stops
    assert answer["bounds"] == {"opponents": [answer["values"]["opponents"]] * 2}
    assert set(answer["values"]) == {"opponents", "declarers"}
    assert answer["exact"] is True and answer["best"] and answer["nodes"] > 0
    # the same position through the engine: the reference agrees, and the line is legal
    (game,) = list(load(cut))
    pos = record_position(game)
    assert pos.state.trick_plays and size(pos.state.hands[0]) <= 4
    assert answer["values"]["opponents"] == minimax(pos.state, 100_000)
    players = game.players
    for step in answer["line"]:
        pos.state.play(players.index(step["player"]), parse_hand(step["play"]))
    assert pos.state.result is not None
    assert pos.state.result.total == answer["values"]["opponents"]
    # text output, and the budget: exact false and exit 1, never a hang
    text = _zfrec("solve", str(cut))
    assert text.returncode == 0 and "perfect play from here: opponents" in text.stdout
    cut_early = _cut(match, tmp_path, 2)
    short = _zfrec("solve", str(cut_early), "--json", "--max-nodes", "200")
    assert short.returncode == 1, short.stderr
    inexact = json.loads(short.stdout)
    assert inexact["exact"] is False
    low, high = inexact["bounds"]["opponents"]
    assert low <= inexact["values"]["opponents"] <= high
    words = _zfrec("solve", str(cut_early), "--max-nodes", "200")
    assert words.returncode == 1 and "perfect play" not in words.stdout
    assert f"proved: opponents between {low} and {high}" in words.stdout


def test_solve_says_it_is_solving_on_a_terminal_only(tmp_path: Path) -> None:
    import pty

    record = Path(__file__).resolve().parent.parent / "sample_games/shengji/01-bashifen-match.zfn"
    args = [sys.executable, "-m", "zfrec", "solve", str(record), "--at", "1", "--max-nodes", "2000"]
    main, child = pty.openpty()
    try:
        done = subprocess.run(args, stdin=child, stdout=child, stderr=child, check=False)
        os.close(child)
        seen = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal's other end is closed: all is read
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(main)
    assert done.returncode == 1  # the par of a whole round: not within 2,000 positions
    assert b"solving..." in seen and b"proved: opponents between" in seen
    piped = _zfrec("solve", str(record), "--at", "1", "--max-nodes", "2000")
    assert "solving" not in piped.stdout + piped.stderr


def test_solve_refuses_what_it_cannot_solve(tmp_path: Path) -> None:
    match = _simulated(tmp_path)
    finished = _zfrec("solve", str(match), "--json")
    assert finished.returncode == 2
    assert "is over" in finished.stderr and "Traceback" not in finished.stderr
    # a round without its deal: the hands are not known
    cut = _cut(match, tmp_path, 5)
    text = cut.read_text("utf-8").split("\n")
    blind = tmp_path / "blind.zfn"
    blind.write_text("\n".join(ln for ln in text if not ln.startswith("deal ")), "utf-8")
    unknown = _zfrec("solve", str(blind))
    assert unknown.returncode == 2 and "not all known" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    bad_at = _zfrec("solve", str(cut), "--at", "9.9.9")
    assert bad_at.returncode == 2 and "no round 9" in bad_at.stderr
    # a turn past the table's seats is no turn (not the next trick's first)
    no_turn = _zfrec("solve", str(cut), "--at", "1.2.5", "--max-nodes", "10")
    assert no_turn.returncode == 2 and "no turn 5" in no_turn.stderr
    assert _zfrec("solve", str(cut), "--at", "1.2.4", "--max-nodes", "10").returncode == 1


def test_round_costs_mark_the_plays_that_changed_the_value(tmp_path: Path) -> None:
    match = _simulated(tmp_path)
    (game,) = list(load(match))
    costs = round_costs(game, 0, max_cards=16, max_seconds=None, max_nodes=None)
    solved = [p for p in costs.plays if p.cost is not None]
    assert len(solved) >= 12  # the last four tricks at least
    for p in solved:
        assert p.cost is not None and p.cost >= 0
        assert (p.cost > 0) == (p.before != p.after)
    # the last play's value is the round's result
    assert costs.plays[-1].after == costs.result
    marks = costs.marks()
    assert all(m in ("?", "??") for m in marks.values())
    assert set(marks) == {(p.trick, p.turn) for p in solved if p.cost}
    with pytest.raises(SolveError):
        round_costs(game, 999)


def test_the_default_preset_solves_from_a_rules_object() -> None:
    rules = sj_preset(throw_penalty=10)
    hands = [parse_hand(h) for h in ("Kd Qd 3s", "Kd Ad 4s", "5h 6h 7h", "8d 8c 9c")]
    state = RoundState.from_hands(hands, parse_trump("7c"), leader=0, rules=rules)
    assert solve_state(state).value == minimax(state, 100_000)


def test_the_last_two_tricks_searched_without_the_engine_agree_with_the_plain_minimax() -> None:
    # the solver's two-card endgame (`TwoLeft`) on positions that start there: pairs and
    # throws are common (random_position's narrow decks), both kitty modes, four and five seats
    rng = random.Random(SEED + 2)
    for i in range(600):
        if i % 3 == 2:
            state = dealt_position(rng, sj_preset("zhaopengyou", players=5), 2)
        else:
            mode = "linear" if i % 3 else "power"
            state = random_position(rng, 2, sj_preset(kitty_multiplier=mode))
        expected = minimax(state, STATES)
        shown = [format_hand(h) for h in state.hands]
        assert solve_state(state).value == expected, shown
        # exact inside a window; outside it a bound on the right side (fail-soft)
        for lo, hi in ((expected - 1, expected), (expected, expected + 1), (-1, expected - 4)):
            got = _Search(state, SjBudget()).search(lo, hi)
            assert (got <= lo and expected <= got) or (got >= hi and expected >= got), shown


def test_a_leader_holding_a_pair_may_lead_one_card_of_it() -> None:
    # two cards a hand: leading one 3s keeps the kitty at a single's multiplier (a pair lead
    # loses to the 4s pair and takes the kitty at a pair's); the two-card endgame once tried
    # only the pair, and was 40 points out for either side
    for declarers in (0b0101, 0b1010):
        hands = ["3s 3s", "4s 4s", "8h 9h", "Tc Kh"] if declarers == 0b0101 else None
        hands = hands or ["3s 3s", "4s 4s", "Tc Kh", "8h 9h"]
        state = RoundState.from_hands(
            [parse_hand(h) for h in hands], parse_trump("7c"), leader=0,
            declarers=declarers, kitty=parse_hand("Kd Kd"),
        )  # fmt: skip
        assert solve_state(state).value == minimax(state, STATES) == 60
    # and on random two-card positions where the leader holds a pair
    rng = random.Random(SEED + 3)
    checked = 0
    while checked < 300:
        state = random_position(rng, 2, sj_preset(kitty_multiplier=rng.choice(("power", "linear"))))
        if state.lead is not None or not state.hands[state.turn] & HIGH:
            continue
        assert solve_state(state).value == minimax(state, STATES)
        checked += 1


@pytest.mark.slow
def test_one_deck_and_five_seats_agree_with_the_plain_minimax() -> None:
    # da bai fen (one deck, kitty of 6) and zhao pengyou with the teams known (5 seats)
    rng = random.Random(SEED + 1)
    agreed = 0
    for i in range(60):
        five = i % 2 == 1
        rules = sj_preset("zhaopengyou", players=5) if five else sj_preset("dabaifen")
        state = dealt_position(rng, rules, rng.choice((2, 3) if five else (3, 4)))
        try:
            expected = minimax(state, STATES)
        except TooBig:
            continue
        assert solve_state(state).value == expected
        agreed += 1
    assert agreed >= 30
