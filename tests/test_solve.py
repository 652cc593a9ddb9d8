"""The hindsight solver against a plain minimax (tests/solve_reference.py), pinned positions, the
position a record stops at, and `zfrec solve`.

ZFREC_DEEP=1 raises the number of random positions tenfold.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, find, given, reject, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import zfrec.games.zhengfen.solve
import zfrec.games.zhengfen.solver_search as solver_module
from tests.solve_reference import (
    Minimax,
    Position,
    TreeTooLarge,
    apply,
    exact_state,
    random_prefix,
)
from tests.solve_reference import options as options_of
from zfrec.cli import app
from zfrec.games.zhengfen.analysis.position import PositionError, record_position
from zfrec.games.zhengfen.engine.cards import BJ, SJ, format_cards, parse_cards, parse_play
from zfrec.games.zhengfen.engine.game import HandState
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.solver import Budget, Solver, best_points, solve, suit_relevant_ranks
from zfrec.record import load, loads

ROOT = Path(__file__).resolve().parent.parent
UNFINISHED = ROOT / "sample_games" / "unfinished"
PINNED = Path(__file__).resolve().parent / "data" / "solve_positions.json"
DEEP = 10 if os.environ.get("ZFREC_DEEP") else 1
EXAMPLES = 25 * DEEP  # the quick lane (and the 12-card check, whose reference is slow)
THOUSANDS = 2000 * DEEP  # the slow lane: about 10 minutes on one core
RULES = [
    preset("pagat"),
    preset("poppel"),
    preset("parlett"),
    preset("pagat", sequence_lengths="equal"),
]
UNLIMITED = Budget(nodes=None, seconds=None)
# The plain minimax keeps every state of the tree; a rare random 12-card deal has tens of
# millions of them, more than the machine's memory. Such a position is set aside (`reject`):
# the cap is far above what the 10-card positions reach.
MAX_STATES = 400_000

runner = CliRunner()


# --- random small positions ----------------------------------------------------------------------


@st.composite
def small_positions(draw: st.DrawFn, max_cards: int = 10) -> Position:
    """3 to 5 seats, up to `max_cards` cards, often jokers, counters and cards that combine; then
    a random stretch of play, so tricks are in progress, seats are out and points are taken."""
    n = draw(st.integers(3, 5))
    rules = draw(st.sampled_from(RULES))
    mode = draw(st.sampled_from(["ranks", "suit", "counters", "any"]))
    top = draw(st.one_of(st.just(12), st.integers(2, 12)))
    if mode == "ranks":
        pool = [c for c in range(52) if top - 4 < c >> 2 <= top]
    elif mode == "suit":
        suit = draw(st.integers(0, 3))
        pool = [c for c in range(52) if c & 3 == suit and top - 7 < c >> 2 <= top]
    elif mode == "counters":
        pool = [c for c in range(52) if c >> 2 in (2, 7, 10, 12)]
    else:
        pool = list(range(52))
    jokers = sorted(draw(st.sets(st.sampled_from([SJ, BJ]), max_size=2)))
    total = draw(st.integers(n, max_cards))
    size = min(max(0, total - len(jokers)), len(pool))
    reals = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))
    cards = draw(st.permutations([*reals, *jokers]))
    if len(cards) < n:
        spare = [c for c in range(54) if c not in cards]
        cards += draw(st.lists(st.sampled_from(spare), min_size=n - len(cards), unique=True))
    hands = [0] * n
    big = draw(st.integers(0, n - 1))  # one seat often holds more, so full houses turn up
    for i, card in enumerate(cards):
        seat = i if i < n else draw(st.sampled_from([big, big, big, *range(n)]))
        hands[seat] |= 1 << card
    leader = draw(st.integers(0, n - 1))
    steps = draw(st.integers(0, max(1, len(cards) // 3)))
    seed = draw(st.integers(0, 2**32 - 1))
    hs = HandState(list(hands), leader, rules)
    moves = random_prefix(hs, random.Random(seed), steps)
    if draw(st.booleans()):  # the others pass round to the top player (under poppel, a choice)
        while hs.result is None and hs.top is not None and hs.turn != hs.top_seat:
            hs.pass_(hs.turn)
            moves.append(None)
    return Position(hands, leader, rules, moves)


def check_against_reference(pos: Position) -> None:
    hs = pos.state()
    if hs.result is not None:
        return
    before = exact_state(hs)
    result = solve(hs, budget=UNLIMITED)
    assert exact_state(hs) == before and len(hs.log) == len(pos.moves), "the state changed"
    assert result.solved and not result.finished
    reference = Minimax(MAX_STATES)
    try:
        expected = dict(enumerate(reference.values(hs)))
    except TreeTooLarge:
        reject()
    assert result.values == expected, pos.describe()
    # The best plays keep the value, and some play keeps it; the line reaches it.
    seat, value = result.seat, expected[result.seat]
    assert seat == hs.turn and result.best
    children = reference.children(hs)
    assert max(v[seat] for _, v in children) == value
    kept = {(None if c is None else (c.mask, c.key)) for c, v in children if v[seat] == value}
    for play in result.best:
        assert (None if play is None else (play.mask, play.key)) in kept, pos.describe()
    for step in result.line:
        assert step.seat == hs.turn
        apply(hs, step.play)
    assert hs.result is not None and hs.result.points[seat] == value, pos.describe()


@given(small_positions())
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_solver_agrees_with_plain_minimax(pos: Position) -> None:
    check_against_reference(pos)


@pytest.mark.slow
@given(small_positions())
@settings(max_examples=THOUSANDS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_solver_agrees_with_plain_minimax_thousands(pos: Position) -> None:
    check_against_reference(pos)


@pytest.mark.slow
@given(small_positions(max_cards=12))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_solver_agrees_with_plain_minimax_twelve_cards(pos: Position) -> None:
    check_against_reference(pos)


def test_poppel_choices_agree_with_plain_minimax() -> None:
    """Under self_overplay, positions where everyone has passed to the top player, who chooses
    between taking the trick and beating their own play (R7)."""
    rng, found = random.Random(11), 0
    while found < 12:
        n = rng.randint(3, 5)
        hands = [0] * n
        for i, card in enumerate(rng.sample(range(54), rng.randint(n + 3, 9))):
            hands[i % n] |= 1 << card
        hs = HandState(list(hands), rng.randrange(n), preset("poppel"))
        moves = random_prefix(hs, rng, rng.randint(0, 3))
        while hs.result is None and hs.top is not None and hs.turn != hs.top_seat:
            hs.pass_(hs.turn)
            moves.append(None)
        if hs.result is None and hs.top is not None and len(options_of(hs)) > 1:
            found += 1
            check_against_reference(Position(hands, hs.leader, hs.rules, moves))


@given(small_positions(), st.integers(0, 2**32 - 1))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_solver_kept_along_the_play_agrees_at_every_step(pos: Position, seed: int) -> None:
    """One `Solver` follows a random line of play to the end of the hand: its tables, kept
    from position to position, never give another value than a plain minimax of each one."""
    hs = pos.state()
    solver = Solver(hs, UNLIMITED)
    rng = random.Random(seed)
    while hs.result is None:
        result = solver.solve()
        assert result.values == _reference(hs), pos.describe()
        random_prefix(hs, rng, 1)
    # Taking moves back is not going on from the first position: the solver starts afresh.
    while len(hs.log) > len(pos.moves) // 2:
        hs.undo()
    if hs.result is None:
        assert solver.solve().values == _reference(hs)


def _reference(hs: HandState) -> dict[int, int]:
    """The plain minimax's values, or the example rejected where its tree passes the state
    budget (as `check_against_reference` does: a random draw must not exhaust memory)."""
    try:
        return dict(enumerate(Minimax(MAX_STATES).values(hs)))
    except TreeTooLarge:
        reject()


def test_random_positions_reach_every_feature_the_contract_names() -> None:
    """The strategy above is not idle: it makes positions with 3 and 5 seats, jokers in hand, a
    trick in progress, a seat out, and poppel's take-or-beat choice."""
    # Generation only: finding one is the point, a smaller one is not needed.
    settings_ = settings(database=None, max_examples=5000, deadline=None, phases=[Phase.generate])

    def live(p: Position) -> HandState | None:
        hs = p.state()
        return None if hs.result is not None else hs

    def rich(p: Position) -> bool:
        hs = live(p)
        return (
            hs is not None
            and hs.top is not None
            and bool(hs.out_order)
            and any(h >> SJ for h in hs.hands)
        )

    found = find(small_positions(), rich, settings=settings_)
    hs = found.state()
    assert hs.out_order and hs.top is not None and any(h >> SJ for h in hs.hands)
    for n in (3, 5):

        def seats(p: Position, n: int = n) -> bool:
            return len(p.hands) == n

        assert len(find(small_positions(), seats, settings=settings_).hands) == n

    def choice(p: Position) -> bool:
        hs = live(p)
        return (
            hs is not None
            and hs.rules.self_overplay
            and hs.top is not None
            and hs.turn == hs.top_seat
        )

    hs = find(small_positions(), choice, settings=settings_).state()
    assert hs.rules.self_overplay and hs.turn == hs.top_seat


# --- the parts ------------------------------------------------------------------------------------


def relevant(cards: str, rules: str = "pagat") -> str:
    bits = suit_relevant_ranks(parse_cards(cards), preset(rules))
    return "".join("3456789TJQKA2"[r] for r in range(13) if bits >> r & 1)


def test_suits_matter_only_where_a_suited_play_could_use_them() -> None:
    assert relevant("3s 3h 9d Qc") == ""
    # Four spades and a joker make a suit sequence; the 7h has no part in one. Without wild
    # jokers there is none.
    assert relevant("3s 4s 5s 6s 7h SJ") == "3456"
    assert relevant("3s 4s 5s 6s 7h SJ", "parlett") == ""
    # 7-8 of one suit beside a triple: a suited kicker. A Three never needs its suit.
    assert relevant("9s 9h 9d 7c 8c") == "78"
    assert relevant("9s 9h 9d 3c 4c") == ""
    # 5, T and K: mixed or suited specials.
    assert relevant("5s Th Kd") == "5TK"


def test_a_finished_hand_has_nothing_to_solve() -> None:
    hs = HandState([parse_cards("5s"), parse_cards("Ks"), parse_cards("3h")], 0, preset("pagat"))
    hs.play(0, parse_cards("5s"))
    hs.play(1, parse_cards("Ks"))
    hs.pass_(2)  # Cy, last, has its one turn (R9)
    assert hs.result is not None
    result = solve(hs)
    assert result.finished and result.solved and result.nodes == 0
    assert result.values == dict(enumerate(hs.result.points)) and result.best == []


def test_worked_example_last_player_pays_the_first() -> None:
    """Ann leads her only card, 5h, and is out first. Worked out by hand (R6, R8, R9, R11):

    - Bo plays Kd: Cy (4c) cannot beat it, so Bo takes 5h Kd (15) and leads 3s to go out; Cy is
      last and its nothing goes to Ann. Ann 0, Bo 15, Cy 0.
    - Bo passes: Cy cannot beat 5h, so Ann takes it (5) and the lead passes to Bo. Bo then either
      takes Kd alone (10) and goes out with 3s (Ann 5, Bo 10), or leads 3s, Cy goes out with 4c
      and Bo, last, gives the King to Ann (Ann 15, Bo 0).

    So Bo's best is Kd at once (15); against Ann the others make it 0; Cy comes last whatever.
    """
    hs = HandState([parse_cards("5h"), parse_cards("Kd 3s"), parse_cards("4c")], 0)
    hs.play(0, parse_cards("5h"))
    result = solve(hs, budget=UNLIMITED)
    assert result.values == {0: 0, 1: 15, 2: 0}
    assert [c.text() if c else "-" for c in result.best] == ["Kd"]
    ann = solve(hs, 0, budget=UNLIMITED)
    assert ann.value == 0 and [c.text() if c else "-" for c in ann.best] == ["Kd"]


def test_budget_stops_with_bounds_that_hold_the_value() -> None:
    rng = random.Random(7)
    hands = [0, 0, 0]
    cards = rng.sample(range(54), 11)
    for i, c in enumerate(cards):
        hands[i % 3] |= 1 << c
    hs = HandState(hands, 0, preset("pagat"))
    exact = solve(hs, budget=UNLIMITED)
    cut = solve(hs, budget=Budget(nodes=5, seconds=None))
    assert not cut.solved and cut.nodes <= 5 + 3
    for s, (lo, hi) in cut.bounds.items():
        assert lo <= exact.bounds[s][0] <= hi
        assert cut.values[s] in (None, exact.values[s])


def test_table_cap_holds_and_the_value_does_not_change() -> None:
    rng = random.Random(3)
    hands = [0, 0, 0, 0]
    for i, c in enumerate(rng.sample(range(54), 13)):
        hands[i % 4] |= 1 << c
    hs = HandState(hands, 0, preset("pagat"))
    free = solve(hs, budget=UNLIMITED)
    assert free.table > 40, "the position is too small to test the cap"
    capped = solve(hs, budget=Budget(nodes=None, seconds=None, table_entries=40))
    assert capped.table <= 40 and capped.values == free.values


def test_move_lists_kept_or_cleared_give_the_same_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process's move lists (`solver._MOVES`) only save work. Positions along a line of
    play, each solved from its own root (so a hand recurs with other suits packed, the seat's
    cards at the root being others), under every ruleset, give the same values, best plays,
    lines and node counts with the lists kept from one solve to the next as with the cache
    full from the start (cleared at every new list)."""
    rng = random.Random(11)
    # Ann's hearts count (a suited 5-T-K) while she holds 5h, and not once it is gone.
    others = [parse_cards("6s 9c Qd"), parse_cards("7d 8s Js")]
    deals: list[tuple[list[int], int, int]] = [
        ([parse_cards("5h Th Kh 3c 4d"), *others], 0, 1),
        ([parse_cards("Th Kh 3c 4d"), *others], 0, 1),
    ]
    for n in (3, 4, 3, 4):
        hands = [0] * n
        for i, c in enumerate(rng.sample(range(54), 10)):
            hands[i % n] |= 1 << c
        deals.append((hands, rng.randrange(n), rng.randrange(2**32)))

    def answers() -> list[tuple[object, ...]]:
        found: list[tuple[object, ...]] = []
        for rules in RULES:
            for hands, leader, seed in deals:
                hs = HandState(list(hands), leader, rules)
                line = random.Random(seed)
                while hs.result is None:
                    r = solve(hs, budget=UNLIMITED)
                    found.append((r.values, r.bounds, r.best, r.line, r.nodes))
                    random_prefix(hs, line, 1)
        return found

    monkeypatch.setattr(solver_module, "_MOVES", {})
    monkeypatch.setattr(solver_module, "MOVES_ENTRIES", 1)  # full at once: cleared each time
    fresh = answers()
    assert len(solver_module._MOVES) == 1
    monkeypatch.setattr(solver_module, "MOVES_ENTRIES", 10**9)
    kept = answers()
    listed = len(solver_module._MOVES)
    assert listed > 200, "too few move lists to test the cache"
    assert kept == fresh
    assert answers() == fresh and len(solver_module._MOVES) == listed  # every list from it


def test_best_points_and_the_short_module_name() -> None:
    hs = HandState([parse_cards("5h"), parse_cards("Kd 3s"), parse_cards("4c")], 0)
    hs.play(0, parse_cards("5h"))
    assert zfrec.games.zhengfen.solve.solve is solve
    assert zfrec.games.zhengfen.solve.best_points is best_points
    assert best_points(hs) == dict(enumerate(Minimax().values(hs)))
    rng = random.Random(5)
    hands = [0, 0, 0]
    for i, c in enumerate(rng.sample(range(54), 15)):
        hands[i % 3] |= 1 << c
    big = HandState(hands, 0, preset("pagat"))
    assert best_points(big, budget=Budget(nodes=10, seconds=None)) is None


# --- pinned positions -------------------------------------------------------------------------


def pinned_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(PINNED.read_text(encoding="utf-8"))
    return cases


def pinned_state(case: dict[str, Any]) -> HandState:
    if "record" in case:
        (game,) = load(ROOT / case["record"])
        return record_position(game).state
    rules = preset(case["rules"]["preset"], **case["rules"].get("options", {}))
    hs = HandState([parse_cards(h) for h in case["hands"]], case["leader"], rules)
    for text in case["moves"]:
        if text == "-":
            hs.pass_(hs.turn)
        else:
            play = parse_play(text)
            hs.play(hs.turn, play.mask, play.declared())
    return hs


@pytest.mark.parametrize("case", pinned_cases(), ids=lambda c: c["name"])
def test_pinned_positions(case: dict[str, Any]) -> None:
    hs = pinned_state(case)
    result = solve(hs, budget=UNLIMITED)
    assert [result.values[s] for s in range(hs.n)] == case["values"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "case", [c for c in pinned_cases() if c["recheck"]], ids=lambda c: c["name"]
)
def test_pinned_values_come_from_the_plain_minimax(case: dict[str, Any]) -> None:
    hs = pinned_state(case)
    assert list(Minimax().values(hs)) == case["values"]


def test_pinned_positions_cover_the_rules() -> None:
    cases = pinned_cases()
    assert len(cases) >= 12
    states = [pinned_state(c) for c in cases]
    assert {hs.rules.preset for hs in states} == {"pagat", "poppel", "parlett"}
    assert any(hs.rules.sequence_lengths == "equal" for hs in states)
    assert any(hs.out_order for hs in states), "a seat already out"
    assert any(hs.top is not None and hs.turn == hs.top_seat for hs in states), "poppel choice"
    assert any(any(h >> SJ for h in hs.hands) for hs in states), "jokers still in play"
    assert any(sum(h.bit_count() for h in hs.hands) >= 13 for hs in states)
    assert {hs.n for hs in states} >= {3, 4, 5, 6}


# --- the position a record stops at -----------------------------------------------------------


def test_position_keeps_the_trick_open_where_the_record_stops() -> None:
    (game,) = load(UNFINISHED / "three-players.zfn")
    pos = record_position(game)
    hs = pos.state
    assert not pos.finished and pos.errors == 0 and not pos.reconstructed
    # The record stops after South's 7d: West is to act, nobody has passed yet.
    assert hs.top is not None and hs.top.text() == "7d" and hs.top_seat == 1
    assert (hs.turn, hs.passed) == (2, frozenset())
    assert [format_cards(h) for h in hs.hands] == ["4d 5d 9h Ad", "9c Jc Qc", "8s Js 2d"]


def test_passes_after_the_last_recorded_move_are_not_inferred() -> None:
    text = (UNFINISHED / "three-players.zfn").read_text(encoding="utf-8")
    (game,) = loads(text.rstrip("\n") + "  3: -\n")
    hs = record_position(game).state
    # West's pass is recorded; East is to act and the trick is still South's and open.
    assert (hs.turn, hs.top_seat, hs.passed) == (0, 1, frozenset({2}))


def test_poppel_position_keeps_the_top_players_choice() -> None:
    (game,) = load(UNFINISHED / "poppel-take-or-beat.zfn")
    hs = record_position(game).state
    assert hs.top is not None and hs.turn == hs.top_seat
    assert hs.can_pass(hs.turn)  # taking the trick is a move; beating it would be too


def test_rebuilt_deal_is_known_and_a_missing_one_is_an_error() -> None:
    (game,) = load(UNFINISHED / "one-hand-unseen.zfn")
    pos = record_position(game)
    assert pos.reconstructed and pos.errors == 0
    (full,) = load(UNFINISHED / "three-players.zfn")
    assert pos.state.hands == record_position(full).state.hands
    (no_deal,) = load(UNFINISHED / "no-deal.zfn")
    with pytest.raises(PositionError, match="deal of hand 1 is not known"):
        record_position(no_deal)


def test_finished_record_reports_the_hand_points() -> None:
    games = list(load(ROOT / "sample_games" / "02-three-players.zfn"))
    pos = record_position(games[-1])
    assert pos.finished and pos.result is not None
    assert pos.result.points == (0, 100, 0)


# --- the command --------------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["solve", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_cli_json_shape_and_values_match_the_reference() -> None:
    path = UNFINISHED / "three-players.zfn"
    code, out, err = run(str(path), "--json")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert {"values", "best", "line", "nodes", "ms"} <= doc.keys()
    (game,) = load(path)
    hs = record_position(game).state
    pinned = next(c for c in pinned_cases() if c["name"] == "sample-three-players")
    assert doc["values"] == dict(zip(game.players, pinned["values"], strict=True))
    assert isinstance(doc["nodes"], int) and isinstance(doc["ms"], float)
    assert doc["best"] in doc["best_all"] and doc["solved"] is True
    # The line is legal from the position and ends with the value of the seat to move.
    for step in doc["line"]:
        assert game.players[hs.turn] == step["player"]
        if step["play"] == "-":
            hs.pass_(hs.turn)
        else:
            play = parse_play(step["play"])
            hs.play(hs.turn, play.mask, play.declared())
    assert hs.result is not None
    assert hs.result.points[2] == doc["values"]["West"]


def test_cli_text_seat_option_and_finished_hand() -> None:
    path = str(UNFINISHED / "three-players.zfn")
    code, out, _ = run(path, "--seat", "east")
    assert code == 0
    assert "West's plays holding East to 0" in out and "line: West " in out
    code, out, _ = run(str(ROOT / "sample_games" / "02-three-players.zfn"))
    assert code == 0 and "hand points: Mei 0, Jun 100, Hao 0. Nothing left to solve." in out
    code, out, _ = run(str(ROOT / "sample_games" / "02-three-players.zfn"), "--json")
    doc = json.loads(out)
    assert doc["finished"] is True and doc["values"] == {"Mei": 0, "Jun": 100, "Hao": 0}
    assert (doc["best"], doc["line"], doc["nodes"]) == (None, [], 0)


def test_cli_errors_and_budget_exit_codes() -> None:
    code, _, err = run(str(UNFINISHED / "no-deal.zfn"))
    assert code == 2 and "deal of hand 1 is not known" in err and "Traceback" not in err
    code, _, err = run(str(UNFINISHED / "three-players.zfn"), "--seat", "Nobody")
    assert code == 2 and "no player is called 'Nobody'" in err
    code, _, err = run(str(ROOT / "nothing-here.zfn"))
    assert code == 2 and "no such file" in err
    code, out, _ = run(str(UNFINISHED / "three-players.zfn"), "--nodes", "20", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["solved"] is False
    assert all(lo <= hi for lo, hi in doc["bounds"].values())
    # Text: the bounds proved, and the verdict. The exact values lie inside the bounds.
    code, out, _ = run(str(UNFINISHED / "three-players.zfn"), "--nodes", "20")
    assert code == 1 and "not solved within the budget: 20 positions searched" in out
    pinned = next(c for c in pinned_cases() if c["name"] == "sample-three-players")
    shown = out.split("perfect play from here")[1].splitlines()
    for name, value in zip(["East", "South", "West"], pinned["values"], strict=True):
        line = next(x for x in shown if x.strip().startswith(name))
        if "between" in line:
            lo, hi = (int(w) for w in line.split("between ")[1].split(" (")[0].split(" and "))
            assert lo <= value <= hi
        else:
            assert int(line.split()[-1]) == value
