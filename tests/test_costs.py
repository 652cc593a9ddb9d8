"""Decision costs (zfrec.games.zhengfen.analysis.costs) against the plain minimax of
tests/solve_reference.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.solve_reference import Minimax, apply
from zfrec.cli import app
from zfrec.games.zhengfen.analysis.analyze import analyze_game
from zfrec.games.zhengfen.analysis.costs import decision_costs, perfect_play_tables
from zfrec.games.zhengfen.engine.game import HandState, PlayEvent
from zfrec.games.zhengfen.solver import Budget
from zfrec.record import load
from zfrec.record.model import Game
from zfrec.replay import HandStart, MoveStep, replay

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
SMALL = 9  # cards left: small enough for the plain minimax
runner = CliRunner()


def reference_costs(game: Game, max_cards: int) -> dict[tuple[int, int], tuple[int, int, int]]:
    """(hand_index, step) -> (seat, value before, value after), by the plain minimax, for every
    legal decision with at most `max_cards` cards left."""
    out: dict[tuple[int, int], tuple[int, int, int]] = {}
    hs: HandState | None = None
    step = 0
    for state, event in replay(game):
        if isinstance(event, HandStart):
            hs, step = None, 0
            if all(event.known):
                hs = HandState(list(event.deal), event.leader, state.game.rules)
        elif isinstance(event, MoveStep):
            index, step = step, step + 1
            if hs is None or event.event is None or hs.result is not None:
                hs = None
                continue
            left = sum(h.bit_count() for h in hs.hands)
            before = Minimax().values(hs)[event.seat] if left <= max_cards else None
            if isinstance(event.event, PlayEvent):
                hs.play(event.seat, event.event.combo.mask, event.event.combo.declarations())
            else:
                hs.pass_(event.seat)
            if before is not None:
                after = Minimax().values(hs)[event.seat]
                out[(event.hand_index, index)] = (event.seat, before, after)
    return out


@pytest.mark.parametrize(
    "name",
    [
        "13-equal-lengths.zfn",
        *(
            pytest.param(name, marks=pytest.mark.slow)
            for name in ("02-three-players.zfn", "03-five-players.zfn", "11-inferred-jokers.zfn",
                         "06-poppel-self-overplay.zfn")
        ),
    ],
)  # fmt: skip
def test_costs_match_the_plain_minimax(name: str) -> None:
    (game,) = load(SAMPLES / name)
    found = decision_costs(game, max_cards=SMALL, budget=Budget(nodes=None, seconds=None))
    expected = reference_costs(game, SMALL)
    assert expected, "no decision small enough to check"
    assert set(found) == set(expected)
    for key, (seat, before, after) in expected.items():
        cost = found[key]
        assert (cost.seat, cost.value, cost.after, cost.points) == (
            seat,
            before,
            after,
            before - after,
        )
        assert cost.points >= 0
        if cost.points == 0:
            assert cost.best == cost.played
        else:
            assert cost.best != cost.played
            assert cost.text == f"cost {cost.points}: {cost.best} instead of {cost.played}"


def test_samples_hold_decisions_that_cost_points() -> None:
    """The check above is not idle: among its samples, some decisions cost points (the values
    of those were compared with the minimax there)."""
    marked = []
    for name in ("02-three-players.zfn", "03-five-players.zfn", "13-equal-lengths.zfn"):
        (game,) = load(SAMPLES / name)
        costs = decision_costs(game, max_cards=SMALL)
        marked += [c for c in costs.values() if c.points]
    assert len(marked) >= 3
    assert all(c.best != c.played and c.after < c.value for c in marked)


def test_no_costs_without_the_deal_or_when_turned_off() -> None:
    (game,) = load(SAMPLES / "unfinished" / "no-deal.zfn")
    assert decision_costs(game) == {}
    (game,) = load(SAMPLES / "02-three-players.zfn")
    assert decision_costs(game, max_cards=0) == {}


def test_a_tiny_budget_gives_no_cost_rather_than_a_guess() -> None:
    (game,) = load(SAMPLES / "02-three-players.zfn")
    tight = decision_costs(game, max_cards=12, budget=Budget(nodes=30, seconds=None))
    exact = decision_costs(game, max_cards=12, budget=Budget(nodes=None, seconds=None))
    assert len(tight) < len(exact)
    for key, cost in tight.items():
        assert cost == exact[key]


@pytest.mark.parametrize(
    ("name", "cards"),
    [
        ("13-equal-lengths.zfn", SMALL),
        pytest.param("unfinished/three-players.zfn", SMALL + 1, marks=pytest.mark.slow),
    ],
)
def test_perfect_play_tables_match_the_plain_minimax(name: str, cards: int) -> None:
    """Every seat's value at each position of the hand's end, and at the position where the
    hand's record ends (finished, or stopped in the middle): a page's "perfect play from
    here" table."""
    (game,) = load(SAMPLES / name)
    found = perfect_play_tables(game, max_cards=cards, budget=Budget(nodes=None, seconds=None))
    expected: dict[tuple[int, int], dict[int, int]] = {}
    hs: HandState | None = None
    step = 0
    for state, event in replay(game):
        if isinstance(event, HandStart):
            hs, step = HandState(list(event.deal), event.leader, state.game.rules), 0
        elif isinstance(event, MoveStep) and hs is not None:
            if sum(h.bit_count() for h in hs.hands) <= cards:
                expected[(event.hand_index, step)] = dict(enumerate(Minimax().values(hs)))
            assert event.event is not None
            apply(hs, event.event.combo if isinstance(event.event, PlayEvent) else None)
            step += 1
    assert hs is not None
    expected[(0, step)] = dict(enumerate(Minimax().values(hs)))
    assert found.values == expected
    assert found.costs == decision_costs(game, max_cards=cards)


# --- in analyze ---------------------------------------------------------------------------------


def test_analyze_puts_each_cost_on_its_decision_and_notes_the_dear_ones() -> None:
    (game,) = load(SAMPLES / "02-three-players.zfn")
    costs = decision_costs(game, max_cards=SMALL)
    analysis = analyze_game(game, solve_cards=SMALL)
    on_decisions = {(d.hand_index, d.step): d.cost for d in analysis.decisions() if d.cost}
    assert on_decisions == costs
    for d in analysis.decisions():
        assert d.cost is None or d.cost.seat == d.seat
    dear = [c for c in costs.values() if c.points]
    notes = [n for n in analysis.per_move_notes() if n.kind == "cost"]
    assert [(n.hand_index, n.step, n.points) for n in notes] == [
        (c.hand_index, c.step, c.points) for c in dear
    ]
    for n, c in zip(notes, dear, strict=True):
        assert n.text == f"{game.players[c.seat]}: {c.text}"
    # Without the solver: no costs, no cost notes, the rest unchanged.
    plain = analyze_game(game)
    assert all(d.cost is None for d in plain.decisions())
    assert [n for n in plain.per_move_notes() if n.kind != "cost"] == [
        n for n in analysis.per_move_notes() if n.kind != "cost"
    ]


def test_analyze_cli_shows_costs_in_text_and_json() -> None:
    path = SAMPLES / "02-three-players.zfn"
    (game,) = load(path)
    dear = [c for c in decision_costs(game, max_cards=SMALL).values() if c.points]
    assert dear
    done = runner.invoke(app, ["analyze", str(path), "--solve-cards", str(SMALL), "--json"])
    assert done.exit_code == 0
    doc = json.loads(done.stdout)["games"][0]
    decisions = [d for h in doc["hands"] for d in h["decisions"]]
    shown = [d["cost"] for d in decisions if d["cost"] and d["cost"]["points"]]
    assert [c["text"] for c in shown] == [c.text for c in dear]
    assert set(shown[0]) == {"points", "value", "after", "best", "played", "text"}
    assert [n["text"] for n in doc["notes"] if n["kind"] == "cost"] == [
        f"{game.players[c.seat]}: {c.text}" for c in dear
    ]
    done = runner.invoke(app, ["analyze", str(path), "--solve-cards", str(SMALL)])
    assert done.exit_code == 0
    for c in dear:
        assert c.text in done.stdout
    done = runner.invoke(app, ["analyze", str(path), "--solve-cards", "0", "--json"])
    doc = json.loads(done.stdout)["games"][0]
    assert all(d["cost"] is None for h in doc["hands"] for d in h["decisions"])
