"""The record model: seats by number or name, seat names, and the bounds of its numbers."""

from __future__ import annotations

import unicodedata

import pytest

from zfrec.errors import NotationError, SeatError
from zfrec.record import game_from_json, game_to_json, loads
from zfrec.record.model import Game, Hand, Move, Trick, seat_name, seat_of

PLAYERS = ["Ann", "Bo Li", "王芳", "Zoë"]


@pytest.mark.parametrize(
    ("ref", "seat"),
    [
        ("1", 0), ("4", 3), (" 2 ", 1), ("02", 1), ("١", 0), (3, 2),
        ("Ann", 0), ("ann", 0), ("ANN", 0), ("bo li", 1), ("BO LI", 1), ("王芳", 2), (" 王芳 ", 2),
        ("zoë", 3), ("ZOË", 3), (unicodedata.normalize("NFD", "Zoë"), 3),
    ],
)  # fmt: skip
def test_seat_of_takes_numbers_and_names_in_any_case(ref: str | int, seat: int) -> None:
    assert seat_of(PLAYERS, ref) == seat == Game(list(PLAYERS)).seat_of(ref)


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("0", "there is no seat 0: seats are 1 to 4"),
        ("5", "there is no seat 5: seats are 1 to 4"),
        (5, "there is no seat 5: seats are 1 to 4"),
        ("9" * 5000, "there is no seat " + "9" * 20 + "…: seats are 1 to 4"),
        ("Bob", "no player is called 'Bob': the seats are 1 Ann, 2 Bo Li, 3 王芳, 4 Zoë"),
        (
            "x" * 100,
            f"no player is called '{'x' * 40}…': the seats are 1 Ann, 2 Bo Li, 3 王芳, 4 Zoë",
        ),
        ("", "no player is called '': the seats are 1 Ann, 2 Bo Li, 3 王芳, 4 Zoë"),
    ],
)
def test_seat_of_says_what_the_seats_are(ref: str | int, message: str) -> None:
    with pytest.raises(SeatError) as info:
        seat_of(PLAYERS, ref)
    assert info.value.message == message


def test_seat_name() -> None:
    game = Game(list(PLAYERS))
    assert [game.seat_name(s) for s in range(4)] == PLAYERS
    assert game.seat_name(4) == seat_name(PLAYERS, 4) == "seat 5"
    assert game.seat_name(-1) == "seat 0"


def test_the_readers_use_the_one_resolver() -> None:
    """The .zfn and JSON readers say what Game.seat_of says, at the place of the reference."""
    head = '[Players "Ann, Bo Li, 王芳, Zoë"]\nhand 1 shuffler zoë\n'
    [game] = loads(head + 'ANN: 3s  "bo li": 4s  3: 5s  ZOË: 6s\n')
    assert [m.seat for m in game.hands[0].tricks[0].moves] == [0, 1, 2, 3]
    assert game.hands[0].shuffler == 3
    for ref in ("5", "Bob"):
        with pytest.raises(SeatError) as expected:
            seat_of(PLAYERS, ref)
        with pytest.raises(NotationError) as zfn:
            loads(head + f"1: 3s  {ref}: 4s\n", source="t.zfn")
        assert str(zfn.value).split("\n")[0] == f"t.zfn:3:8 [game 1]: {expected.value.message}"
    data = game_to_json(Game(list(PLAYERS), hands=[Hand(1, tricks=[Trick([Move.passes(0)])])]))
    data["hands"][0]["tricks"][0]["moves"][0]["seat"] = 5
    with pytest.raises(NotationError) as json_error:
        game_from_json(data, "g.json")
    assert str(json_error.value) == (
        "g.json: at /hands/0/tricks/0/moves/0/seat: there is no seat 5: seats are 1 to 4"
    )


def test_names_are_compared_ignoring_case_and_normal_form() -> None:
    nfd = unicodedata.normalize("NFD", "Zoë")
    with pytest.raises(NotationError, match="is given twice"):
        loads(f'[Players "Ann, Zoë, {nfd}"]\n')
