"""The replay's events: the state before each move, inferred passes as moves, seats as `Seat`,
and `walk` feeding several visitors from one pass.

The expected states are rebuilt here from the record alone (deal minus what each seat wrote
before), not read back from the engine.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from zfrec.diagnostics import Diagnostic
from zfrec.games.zhengfen.engine.cards import parse_cards
from zfrec.games.zhengfen.engine.game import GameState, PassEvent, PlayEvent
from zfrec.games.zhengfen.engine.seats import Seat, seat
from zfrec.games.zhengfen.validator import Validator
from zfrec.record import iter_records, load, loads
from zfrec.record.model import Game
from zfrec.replay import (
    GameEnd,
    HandEnd,
    HandStart,
    MoveStep,
    ReplayState,
    ReplayVisitor,
    replay,
    walk,
)
from zfrec.validate import validate

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
VALID = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".zfn", ".json"))


def without_passes(game: Game) -> Game:
    """The same game with every written pass left out, so the replay has to infer them."""
    hands = [
        dataclasses.replace(
            h,
            tricks=[
                dataclasses.replace(t, moves=[m for m in t.moves if not m.is_pass])
                for t in h.tricks
            ],
        )
        for h in game.hands
    ]
    return dataclasses.replace(game, hands=hands)


def steps(game: Game) -> list[MoveStep]:
    return [e for _, e in replay(game) if isinstance(e, MoveStep)]


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_each_step_carries_the_state_before_its_move(path: Path) -> None:
    for original in load(path):
        for game in (original, without_passes(original)):
            deals: dict[int, tuple[int, ...]] = {}
            known: dict[int, tuple[bool, ...]] = {}
            for _, start in replay(game):
                if isinstance(start, HandStart):
                    deals[start.hand_index], known[start.hand_index] = start.deal, start.known
            held: list[int] = []
            top: tuple[int, int] | None = None  # (cards, seat) of the play to beat
            table = 0
            hand_index = -1
            for step in steps(game):
                if step.hand_index != hand_index:
                    hand_index = step.hand_index
                    held, top, table = list(deals[hand_index]), None, 0
                assert step.move is not None and step.move.seat == step.seat
                assert isinstance(step.seat, Seat)
                written = game.hands[step.hand_index].tricks[step.trick_index - 1].moves
                if step.inferred:
                    assert step.written is None and step.move.is_pass
                    # It stands before the written move at its index (or ends the trick).
                    assert step.move_index <= len(written)
                else:
                    assert written[step.move_index] is step.move is step.written
                assert step.to_act == step.seat  # a legal record: everyone acts in turn
                expected_held = held[step.seat] if known[hand_index][step.seat] else None
                assert step.held == expected_held
                assert (step.top.mask, step.top_seat) == top if step.top else top is None
                assert step.trick_cards == table
                event = step.event
                assert event is not None and event.seat == step.seat and event.turn == step.turn
                if isinstance(event, PlayEvent):
                    held[step.seat] &= ~event.combo.mask
                    top, table = (event.combo.mask, step.seat), table | event.combo.mask
                if event.trick_result is not None:
                    top, table = None, 0


def test_inferred_passes_are_moves_marked_inferred() -> None:
    game = without_passes(next(load(SAMPLES / "02-three-players.zfn")))
    inferred = [s for s in steps(game) if s.inferred]
    assert inferred and all(isinstance(s.event, PassEvent) for s in inferred)
    assert all(s.move.is_pass and s.move.seat == s.seat for s in inferred)
    # The written game and the one without passes replay to the same actions.
    original = next(load(SAMPLES / "02-three-players.zfn"))
    assert [s.event for s in steps(original)] == [s.event for s in steps(game)]


def test_a_move_out_of_turn_shows_whose_turn_it_was() -> None:
    (step,) = [s for s in steps(next(load(SAMPLES / "broken" / "out-of-turn.zfn"))) if s.turn == 4]
    # "1: 3h  2: 4s  3: 5c  3: 6c": after Cy's 5c it was Ann's turn, and Cy played again.
    assert (step.seat, step.to_act, step.top_seat) == (2, 0, 2)
    assert step.top is not None and step.top.mask == parse_cards("5c")
    assert [d.code for d in step.diagnostics] == ["ZF201"]


def test_moves_after_the_hand_ended_are_steps_without_events() -> None:
    game = next(load(SAMPLES / "broken" / "play-after-hand-end.zfn"))
    last = steps(game)[-1]
    assert last.event is None and last.to_act is None and not last.inferred
    assert [d.code for d in last.diagnostics] == ["ZF204"]


def test_guessed_hands_are_not_known() -> None:
    text = """[Players "Ann, Bo, Cy"]

hand 1
1: 3h  2: 5s  3: 9c
"""
    (game,) = loads(text)
    start = next(e for _, e in replay(game) if isinstance(e, HandStart))
    assert start.reconstructed and start.known == (False, False, False)
    assert any(d.code == "ZF305" for d in start.diagnostics)
    assert all(s.held is None for s in steps(game))


def test_seats_show_as_the_record_numbers_them() -> None:
    game = next(load(SAMPLES / "05-full-game-to-500.zfn"))
    end = next(e for _, e in replay(game) if isinstance(e, GameEnd))
    assert end.winners and all(isinstance(w, Seat) for w in end.winners)
    winner = end.winners[0]
    assert game.players[winner] == game.players[int(winner)]
    assert str(winner) == str(int(winner) + 1) and repr(winner) == f"seat {winner.number}"
    assert json.dumps(list(end.winners)) == json.dumps([int(w) for w in end.winners])
    assert seat(3) + 1 == 4 and type(seat(3) + 1) is int
    start = next(e for _, e in replay(game) if isinstance(e, HandStart))
    assert isinstance(start.leader, Seat) and isinstance(start.shuffler, Seat)


class Recorder(ReplayVisitor):
    """Everything it is given, by kind."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, object]] = []

    def visit_hand_start(self, state: ReplayState, event: HandStart) -> None:
        self.seen.append(("start", event))

    def visit_move(self, state: ReplayState, step: MoveStep) -> None:
        assert state.hand is not None
        self.seen.append(("move", step))

    def visit_hand_end(self, state: ReplayState, event: HandEnd) -> None:
        self.seen.append(("end", event))

    def visit_game_end(self, state: ReplayState, event: GameEnd) -> None:
        self.seen.append(("game", event))


class OnlyMoves:
    """Not a ReplayVisitor subclass: any object with some of the methods will do."""

    def __init__(self) -> None:
        self.count = 0

    def visit_move(self, state: ReplayState, step: MoveStep) -> None:
        self.count += 1


def test_walk_feeds_every_visitor_from_one_pass() -> None:
    game = without_passes(next(load(SAMPLES / "06-poppel-self-overplay.zfn")))
    a, b, c = Recorder(), OnlyMoves(), Validator(game, game.ruleset())
    end = walk(game, [a, b, c])
    events = [e for _, e in replay(game)]
    assert [e for _, e in a.seen] == events
    assert b.count == sum(isinstance(e, MoveStep) for e in events)
    assert end == events[-1]
    assert c.report() == validate(game)


@pytest.mark.parametrize(
    "name", ["05-full-game-to-500.zfn", "01-annotated-club-night.zfn", "broken/wrong-total.zfn"]
)
def test_a_replay_started_at_a_hand_sees_what_the_full_replay_sees_from_there(name: str) -> None:
    """`replay(start=(h, state before hand h))` (the repair search's replay from an edited
    hand) gives the same events and diagnostics from hand h on as a replay from the start."""
    from zfrec.replay import HandStart

    for game in load(SAMPLES / name):
        full = [(ev, state.game.copy()) for state, ev in replay(game)]
        befores: list[GameState] = [g for ev, g in full if isinstance(ev, HandStart)]
        assert len(befores) == len(game.hands)
        for h, before in enumerate(befores):
            if h and befores[h - 1].over:
                continue  # the documented limit: a hand after the end is reported once
            tail = [ev for _, ev in replay(game, start=(h, before))]
            first = next(i for i, (ev, _) in enumerate(full) if isinstance(ev, HandStart)
                         and ev.hand_index == h)  # fmt: skip
            assert tail == [ev for ev, _ in full[first:]]
            assert before.scores == befores[h].scores  # the start state is copied, not used


def _opening(first_play: str, deal: str = "") -> Game:
    return loads(f'[Players "Ann, Bo, Cy"]\n\nhand 1 shuffler 3\n{deal}{first_play}\n')[0]


def test_a_rebuilt_deal_gives_the_three_of_hearts_to_the_seat_that_led_hand_one() -> None:
    """R4: hand 1 is led by the holder of the 3h. When the record shows nobody holding it, the
    rebuilt deal must give it to the seat the record has lead, not to the first seat with room
    (which made Bo's lead "out of turn", ZF203)."""
    three = parse_cards("3h")
    for leader, play in ((1, "2: 4c"), (2, "3: 5d 5c"), (0, "1: 6s")):
        report = validate(_opening(play))
        assert not [d for d in report.diagnostics if d.severity == "error"], report.diagnostics
        deal = report.hands[0].deal
        assert [bool(hand & three) for hand in deal] == [s == leader for s in range(3)]
    # A later hand is led by the previous first-out: no card decides, and none is moved.
    assert GameState(3).lead_card() == three


def test_the_three_of_hearts_stays_where_the_record_puts_it() -> None:
    # Ann's full deal line holds the 3h, so Bo's lead is out of turn.
    full = (
        "deal 1: 3h 3s 3d 4h 5s 5h 5d 6h 7h 8h 9s 9h 9d Th Jh Ks Kd SJ\ndeal 2: ?18\ndeal 3: ?18\n"
    )
    codes = [d.code for d in validate(_opening("2: 4c", full)).diagnostics]
    assert "ZF203" in codes
    # Cy plays the 3h later: Cy held it, and Bo's lead is out of turn.
    codes = [d.code for d in validate(_opening("2: 4c  3: 3h")).diagnostics]
    assert "ZF203" in codes


ALL = sorted(
    p for folder in (SAMPLES, SAMPLES / "broken", SAMPLES / "unfinished") if folder.is_dir()
    for p in folder.iterdir() if p.suffix in (".zfn", ".json")
)  # fmt: skip


@pytest.mark.parametrize("path", ALL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_replay_without_moves_hands_over_the_same_findings(path: Path) -> None:
    """`replay(moves=False)` (what the validator runs) yields the hands and the game's end as
    the full replay does, each HandEnd carrying what the full replay found at that hand's
    moves, and counts the actions the MoveSteps applied."""
    games = [g for g in iter_records(path, recover=True) if isinstance(g, Game)]
    for original in games:
        for game in (original, without_passes(original)):
            full = [e for _, e in replay(game)]
            lean_pairs = list(replay(game, moves=False))
            lean = [e for _, e in lean_pairs]
            assert not any(isinstance(e, MoveStep) for e in lean)
            expected: list[object] = []
            found: list[Diagnostic] = []
            applied = 0
            for e in full:
                if isinstance(e, MoveStep):
                    found += e.diagnostics
                    applied += e.event is not None
                    continue
                if isinstance(e, HandEnd):
                    e = dataclasses.replace(e, diagnostics=(*found, *e.diagnostics), moves=applied)
                    found, applied = [], 0
                expected.append(e)
            assert lean == expected
            everything = [d for e in full for d in e.diagnostics]
            assert lean_pairs[-1][0].diagnostics == everything
            assert validate(game).diagnostics == tuple(everything)
            assert validate(game).moves == sum(
                isinstance(e, MoveStep) and e.event is not None for e in full
            )
