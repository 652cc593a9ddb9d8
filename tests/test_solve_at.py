"""`zfrec solve --at`: a position named as the replay page names it (its `#step=N`) or by
hand, trick and turn, checked against the replay page's own view-model and its "perfect play
from here" tables, and the errors for positions the record does not have."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.cli.solve_cmds import parse_at
from zfrec.games.zhengfen.analysis.costs import perfect_play_tables
from zfrec.games.zhengfen.analysis.position import At, PositionError, position_at
from zfrec.games.zhengfen.engine.cards import ids
from zfrec.games.zhengfen.pages.analysis import mark_perfect_play
from zfrec.games.zhengfen.pages.html import build_game_view
from zfrec.record import load

runner = CliRunner()
CLUB = Path(__file__).resolve().parent.parent / "sample_games" / "01-annotated-club-night.zfn"


def test_at_reads_a_turn_a_step_or_a_replay_pages_address() -> None:
    assert parse_at("2.5.3") == At(hand=2, trick=5, turn=3)
    assert parse_at("40") == parse_at("#step=40") == parse_at(" step=40 ") == At(step=40)
    assert parse_at("hand-3.html#step=0") == At(hand=3, step=0)
    assert parse_at("file:///home/me/site/games/12/hand-3.html#step=41") == At(hand=3, step=41)
    assert parse_at("https://club.example/games/2/hand-10.html#step=7") == At(hand=10, step=7)
    nonsense = (
        "",
        "abc",
        "1.0.1",
        "1.2",
        "-3",
        "²",
        "viewer.html#z=AAA&step=3",
        "9" * 12,
        "hand-3.html40",
    )
    for bad in nonsense:
        assert parse_at(bad) is None, bad


def test_each_step_is_the_position_its_replay_page_shows() -> None:
    [game] = load(CLUB)
    hand = build_game_view(game).hands[0]
    for step in hand.steps:
        pos, at = position_at(game, At(step=step.index))
        assert at == step.index
        shown = tuple(tuple(ids(h)) for h in pos.state.hands)
        assert shown == step.hands, step.index
        if step.kind in ("play", "pass", "deal") and step.to_act is not None:
            assert pos.state.turn == step.to_act, step.index
        assert pos.finished == (step.to_act is None), step.index  # over after its last move
    assert pos.finished and step.kind == "result"


def test_a_turn_is_the_position_before_it_is_made() -> None:
    [game] = load(CLUB)
    hand = build_game_view(game).hands[0]
    moves = [s for s in hand.steps if s.turn is not None]
    assert len(moves) > 40
    for s in moves:
        pos, at = position_at(game, At(hand=1, trick=s.trick, turn=s.turn))
        before = hand.steps[s.index - 1]
        assert at == before.index
        assert tuple(tuple(ids(h)) for h in pos.state.hands) == before.hands
        assert pos.state.turn == s.seat


@pytest.mark.slow
def test_solve_at_a_step_gives_the_replay_pages_perfect_play_table() -> None:
    [game] = load(CLUB)
    view = build_game_view(game)
    mark_perfect_play(view, perfect_play_tables(game, max_cards=10).values)
    marked = [s for s in view.hands[0].steps if s.perfect and None not in s.perfect]
    assert len(marked) >= 5
    for s in marked[:: max(1, len(marked) // 6)]:
        result = runner.invoke(app, ["solve", str(CLUB), "--at", f"#step={s.index}", "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert data["step"] == s.index and data["hand"] == 1
        assert tuple(data["values"][p] for p in game.players) == s.perfect, s.index
    # the same position by its turn: the move after that step
    s = marked[0]
    after = view.hands[0].steps[s.index + 1]
    at = f"1.{after.trick}.{after.turn}"
    result = runner.invoke(app, ["solve", str(CLUB), "--at", at])
    assert result.exit_code == 0, result.output
    assert f"game 1, hand 1, step {s.index}:" in result.output


@pytest.mark.parametrize(
    ("at", "message"),
    [
        ("99", "hand 1 has steps 0 to 62 (its replay page's #step=), not 99"),
        ("hand-2.html#step=3", "the game has no hand 2: its only hand is hand 1"),
        ("1.3.9", "hand 1 has no trick 3, turn 9 in the record: trick 3 has turns 1 to 7"),
        ("1.12.1", "hand 1 has no trick 12, turn 1 in the record: its tricks are 1 to 7"),
        ("abc", "--at 'abc' names no position: give HAND.TRICK.TURN"),
    ],
)
def test_a_position_the_record_does_not_have_is_one_line_and_exit_2(at: str, message: str) -> None:
    result = runner.invoke(app, ["solve", str(CLUB), "--at", at])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    # the file and the position first (README.md: errors name the file); text that names no
    # position is quoted by the message, so only the file comes first
    where = CLUB if message.startswith("--at") else f"{CLUB} (--at {at})"
    assert len(lines) == 1 and lines[0].startswith(f"error: {where}: {message}"), result.output
    assert "Traceback" not in result.output


def test_the_deal_must_be_known_at_the_position_too() -> None:
    [game] = load(CLUB.parent / "unfinished" / "no-deal.zfn")
    with pytest.raises(PositionError, match="the deal of hand 1 is not known"):
        position_at(game, At(step=1))
